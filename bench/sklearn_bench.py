#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""bench/sklearn_bench.py: scikit-learn's sparse pairwise_distances on the
same slices as bench/cpu_bench.c (run with Debian's /usr/bin/python3 and
python3-sklearn).

usage: sklearn_bench.py [--pairs P | --rows R | --rows-from TSV] [--threads T]
                        [--metrics manhattan,cosine,euclidean]
                        [--dtype float32|float64|best] [--reps N] NAME=PATH ...

For each Matrix Market file (plain or .gz, read by scipy.io.mmread), B = the
whole matrix as scipy CSR and A = its first R rows, R = min(m, max(1, P // n))
as cpu_bench computes it before its --products cap; with --rows-from, R is
read from the DATA line of the same NAME in cpu_bench's output, so both time
exactly the same slice; times
sklearn.metrics.pairwise_distances(A, B, metric, n_jobs=T) (best of N when a
run is under 2 s) and prints, like cpu_bench,
    RESULT name sklearn metric rows cols pairs ms ms_per_Mpair dtype busy
(busy: the fraction of the CPUs other processes used just before the
measurement; its first run waits up to --quiet-wait seconds, default 20, for them
to be under 15 % busy)
Only manhattan, cosine and euclidean (and their aliases) accept sparse input
in scikit-learn; the other metrics of gxbdist have no sparse peer there.
--dtype best times both float32 and float64 and keeps the faster.
"""

import os
import sys
import time


QUIET_WAIT = 20.0


def cpu_times():
    with open("/proc/stat") as f:
        v = [float(x) for x in f.readline().split()[1:9]]
    total = sum(v)
    return total - v[3] - v[4], total


def wait_quiet():
    """Wait (at most QUIET_WAIT s) until other processes use under 15 % of
    the CPUs over half a second, as cpu_bench does; return that fraction."""
    t0 = time.time()
    while True:
        try:
            b0, t0s = cpu_times()
            time.sleep(0.5)
            b1, t1s = cpu_times()
        except OSError:
            return 0.0
        busy = (b1 - b0) / (t1s - t0s) if t1s > t0s else 0.0
        if busy <= 0.15 or time.time() - t0 >= QUIET_WAIT:
            return busy


def main(argv):
    global QUIET_WAIT
    pairs, rows, threads, reps = 1e7, -1, os.cpu_count() or 1, 3
    metrics = ["manhattan", "cosine", "euclidean"]
    dtype = "best"
    files = []
    rows_of = {}
    i = 0
    while i < len(argv):
        o = argv[i]
        if o.startswith("--"):
            v = argv[i + 1]
            i += 2
            if o == "--pairs":
                pairs = float(v)
            elif o == "--rows":
                rows = int(v)
            elif o == "--threads":
                threads = int(v)
            elif o == "--metrics":
                metrics = [x.lower() for x in v.split(",") if x]
            elif o == "--dtype":
                dtype = v
            elif o == "--reps":
                reps = int(v)
            elif o == "--quiet-wait":
                QUIET_WAIT = float(v)
            elif o == "--rows-from":
                with open(v) as fh:
                    for line in fh:
                        f = line.rstrip("\n").split("\t")
                        if f[0] == "DATA":
                            rows_of[f[1]] = int(f[5])
            else:
                sys.exit("unknown option " + o)
        else:
            files.append(o)
            i += 1

    # the thread pools of numpy/scipy follow these; set before importing them
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(var, str(threads))
    import numpy as np
    import scipy
    import scipy.io
    import sklearn
    from sklearn.metrics import pairwise_distances

    print("INFO\tscikit-learn %s, scipy %s, numpy %s, n_jobs %d"
          % (sklearn.__version__, scipy.__version__, np.__version__, threads))
    sys.stdout.flush()
    dtypes = ["float32", "float64"] if dtype == "best" else [dtype]

    for f in files:
        if "=" in f:
            name, path = f.split("=", 1)
        else:
            path = f
            name = os.path.basename(f).split(".mtx")[0]
        B0 = scipy.io.mmread(path).tocsr()
        n = B0.shape[0]
        if name in rows_of:
            R = min(rows_of[name], n)
        elif rows == 0:
            R = n
        elif rows > 0:
            R = min(rows, n)
        else:
            R = min(n, max(1, int(pairs // n)))
        for metric in metrics:
            best = None
            for dt in dtypes:
                B = B0.astype(dt)
                B.sort_indices()
                A = B[:R]
                t_best, b_best = float("inf"), 0.0
                for rep in range(reps):
                    if rep == 0:
                        busy = wait_quiet()
                    t = time.perf_counter()
                    D = pairwise_distances(A, B, metric=metric, n_jobs=threads)
                    t = time.perf_counter() - t
                    assert D.shape == (R, n)
                    del D
                    if t < t_best:
                        t_best, b_best = t, busy
                    if t > 2.0:
                        break
                if best is None or t_best < best[0]:
                    best = (t_best, dt, b_best)
            t, dt, busy = best
            p = float(R) * float(n)
            print("RESULT\t%s\tsklearn\t%s\t%d\t%d\t%.0f\t%.3f\t%.4g\t%s\t%.2f"
                  % (name, metric.upper(), R, n, p, 1e3 * t,
                     1e3 * t / (p / 1e6), dt, busy))
            sys.stdout.flush()


if __name__ == "__main__":
    main(sys.argv[1:])
