#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""bench/knn_peers.py: the peers of bench/knn_bench.c on the same data: the
k nearest rows of every row among all rows, the row itself excluded, FP32.

usage: knn_peers.py [--k 10] [--metrics manhattan,cosine,jensenshannon,chebyshev]
                    [--peers sklearn,cusparse] [--rows 2000] [--budget 10]
                    [--tile-bytes 1e9] FILE...
  FILE: .csr (bench/seed_to_csr.py), .npz (scipy.sparse) or .mtx[.gz]

Both peers time a sample of query rows and scale the time to all m rows
(x m / rows measured); the sample is stated on every line.  The sample is
at most --rows rows, fewer when a first small run (16 rows) predicts more
than --budget seconds for the whole sample: the rows are then as many as
the budget allows.

  sklearn:  NearestNeighbors(n_neighbors=k, algorithm="brute", metric=...,
            n_jobs=-1).fit(X), then kneighbors(X[rows], k + 1): the rows are
            spread evenly over X exactly as knn_bench takes them (row
            (t * (m-1)) // (R-1)); a query row is in the training set, so
            k + 1 with itself among them (the same work as kneighbors() with
            no argument, which drops it).  Only metrics scikit-learn takes on
            sparse input (VALID_METRICS_SPARSE["brute"]: manhattan, cosine,
            euclidean); the others are reported as unsupported.
  cusparse: cosine only, with CuPy (skipped with a message when CuPy cannot
            be imported): X copied to the GPU, rows L2-normalized (a zero row
            stays zero: distance 1 to everything), Xt = X.T as CSR, once
            ("prep", counted once); then tiles of T consecutive rows (T x m
            dense float32 <= --tile-bytes), S = X[tile] @ Xt (cupyx.scipy.
            sparse, cuSPARSE SpGEMM), S.toarray(), the self entry set to
            -inf, cupy.argpartition(-S, k-1) for the top k (CuPy's
            argpartition sorts the whole row: documented), the k sorted,
            indices and distances 1 - s copied to the host.  The tiles are
            spread evenly over the rows; the time is prep + tiles x m / rows.
            "spgemm" = the product and toarray alone, scaled the same way:
            a floor for any kNN built on cuSPARSE's product.

Printed, one line a measurement (tab-separated):
    PEER name m metric peer seconds rows note
seconds: the all-rows estimate ("-" when skipped; note says why).
"""

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np                                      # noqa: E402
import seed_to_csr                                      # noqa: E402

SKLEARN_NAMES = {"manhattan": "manhattan", "cityblock": "manhattan",
                 "l1": "manhattan", "cosine": "cosine", "euclidean": "euclidean",
                 "l2": "euclidean", "jensenshannon": "jensenshannon",
                 "jensen_shannon": "jensenshannon", "chebyshev": "chebyshev"}


def spread(m, R):
    """R rows spread evenly over 0..m-1, as knn_bench.c takes them."""
    R = max(1, min(R, m))
    if R == 1:
        return np.zeros(1, dtype=np.int64)
    return (np.arange(R, dtype=np.int64) * (m - 1)) // (R - 1)


def emit(name, m, metric, peer, sec, rows, note):
    s = "-" if sec is None else "%.4f" % sec
    print("PEER\t%s\t%d\t%s\t%s\t%s\t%s\t%s" % (name, m, metric, peer, s,
                                                rows if rows else "-", note),
          flush=True)


def fmt_rows(r, m):
    return "%s of %s rows" % (f"{r:,}", f"{m:,}")


#------------------------------------------------------------------------------
# scikit-learn
#------------------------------------------------------------------------------

def run_sklearn(name, X, metric, o):
    m = X.shape[0]
    try:
        import sklearn
        from sklearn.neighbors import NearestNeighbors, VALID_METRICS_SPARSE
    except ImportError as e:
        emit(name, m, metric, "sklearn", None, 0,
             "skipped: scikit-learn not importable (%s)" % e)
        return
    if metric not in VALID_METRICS_SPARSE["brute"]:
        emit(name, m, metric, "sklearn", None, 0,
             "unsupported: scikit-learn %s takes no sparse input for %s"
             % (sklearn.__version__, metric))
        return
    k = o["k"]
    nn = NearestNeighbors(n_neighbors=k, algorithm="brute", metric=metric,
                          n_jobs=-1).fit(X)

    def timed(R):
        Q = X[spread(m, R)]
        t = time.perf_counter()
        nn.kneighbors(Q, n_neighbors=min(k + 1, m))
        return time.perf_counter() - t

    R = min(o["rows"], m)
    r0 = min(16, R)
    t0 = timed(r0)
    if R > r0:
        R = int(max(r0, min(R, o["budget"] / max(t0 / r0, 1e-9))))
    t = timed(R) if R > r0 else t0
    emit(name, m, metric, "sklearn", t * m / R, R,
         "kneighbors(k+1) of %s spread evenly, %.2f s measured, x m/rows; "
         "scikit-learn %s, n_jobs=-1 (%d cores)"
         % (fmt_rows(R, m), t, sklearn.__version__, os.cpu_count() or 0))


#------------------------------------------------------------------------------
# CuPy / cuSPARSE (cosine)
#------------------------------------------------------------------------------

def gpu_modules(fake):
    """(xp, xsp, sync, to_host): CuPy, or numpy/scipy for --fake-gpu (a test
    of this code on a machine without a GPU)."""
    if fake:
        import scipy.sparse as xsp
        return np, xsp, (lambda: None), np.asarray
    import cupy as cp
    import cupyx.scipy.sparse as xsp
    return cp, xsp, (lambda: cp.cuda.Device().synchronize()), cp.asnumpy


def is_oom(e):
    s = (type(e).__name__ + " " + str(e)).lower()
    return "memory" in s or "insufficient" in s or "alloc" in s


def normalize_rows(xp, xsp, X):
    """X (host CSR, float32) on the device with its rows L2-normalized (a
    zero row stays zero), and its transpose as CSR."""
    Xg = xsp.csr_matrix((xp.asarray(X.data), xp.asarray(X.indices.astype(np.int32)),
                         xp.asarray(X.indptr.astype(np.int32))), shape=X.shape)
    # row sums of squares from a float64 running sum (no sparse reduction)
    cs = xp.concatenate((xp.zeros(1), xp.cumsum(Xg.data.astype(xp.float64) ** 2)))
    norm = xp.sqrt(cs[Xg.indptr[1:]] - cs[Xg.indptr[:-1]]).astype(xp.float32)
    inv = xp.where(norm > 0, 1 / xp.where(norm > 0, norm, 1), 0).astype(xp.float32)
    row = xp.searchsorted(Xg.indptr, xp.arange(int(X.nnz)), side="right") - 1
    Xn = xsp.csr_matrix((Xg.data * inv[row], Xg.indices, Xg.indptr),
                        shape=X.shape)
    return Xn, Xn.T.tocsr()


def cosine_tile(xp, Xn, Xt, s, T):
    """the cosine similarities of rows s..s+T-1 with all rows, dense T x m:
    cuSPARSE SpGEMM, then toarray"""
    S = Xn[s:s + T] @ Xt
    return S.toarray()


def topk_tile(xp, D, s, k, to_host):
    """the k most similar of each row of the tile D (rows s.., self
    excluded), nearest first: (indices, cosine distances) on the host"""
    T = D.shape[0]
    r = xp.arange(T)
    D[r, s + r] = -np.inf                       # exclude self
    part = xp.argpartition(-D, k - 1, axis=1)[:, :k]
    sim = xp.take_along_axis(D, part, axis=1)
    order = xp.argsort(-sim, axis=1)
    idx = to_host(xp.take_along_axis(part, order, axis=1))
    dist = to_host(1 - xp.take_along_axis(sim, order, axis=1))
    return idx, dist


def run_cusparse(name, X, metric, o):
    m = X.shape[0]
    if metric != "cosine":
        return                          # cosine only: nothing to say
    try:
        xp, xsp, sync, to_host = gpu_modules(o["fake_gpu"])
        if not o["fake_gpu"]:
            xp.zeros(1).sum()           # a usable device, or an exception
    except Exception as e:              # ImportError, no device, no driver
        emit(name, m, metric, "cusparse", None, 0,
             "skipped: CuPy not importable or no GPU (%s: %s)"
             % (type(e).__name__, str(e).splitlines()[0] if str(e) else ""))
        return
    k = min(o["k"], m - 1)
    if k < 1:
        return
    pool = None if o["fake_gpu"] else xp.get_default_memory_pool()

    # prep, once: to the GPU, normalize the rows, the transpose as CSR
    # (first on a few rows, untimed: CuPy compiles its kernels on first use)
    normalize_rows(xp, xsp, X[:min(m, 64)])
    sync()
    t = time.perf_counter()
    nnz = int(X.nnz)
    if nnz >= 2 ** 31:
        emit(name, m, metric, "cusparse", None, 0,
             "unsupported: nnz >= 2^31 (cupyx.scipy.sparse has int32 indices)")
        return
    Xn, Xt = normalize_rows(xp, xsp, X)
    sync()
    prep = time.perf_counter() - t

    def tile(s, T):
        """rows s..s+T-1: (seconds, spgemm seconds, (indices, distances))"""
        sync()
        t0 = time.perf_counter()
        D = cosine_tile(xp, Xn, Xt, s, T)
        sync()
        t1 = time.perf_counter()
        res = topk_tile(xp, D, s, k, to_host)
        del D
        sync()
        return time.perf_counter() - t0, t1 - t0, res

    # tiles of T rows: T x m float32 within --tile-bytes; smaller on OOM
    T = int(max(1, min(o["rows"], m, o["tile_bytes"] // (4 * m))))
    for attempt in range(6):
        try:
            tile(0, min(T, 64, m))                   # warm-up (kernel JIT)
            first = tile(0, T)
            break
        except Exception as e:
            if not is_oom(e) or T == 1 or attempt == 5:
                emit(name, m, metric, "cusparse", None, 0,
                     "failed: %s: %s" % (type(e).__name__,
                                         str(e).splitlines()[0] if str(e) else ""))
                return
            T = max(1, T // 2)
            if pool is not None:
                pool.free_all_blocks()
    # how many tiles: about --rows rows, fewer if the budget says so
    want = max(1, min(o["rows"], m) // T)
    want = max(1, min(want, int(o["budget"] / max(first[0], 1e-9))))
    starts = spread(m - T + 1, want)
    tot = spg = 0.0
    for s in starts:
        ts, tg, _ = tile(int(s), T) if s != 0 else first
        tot += ts
        spg += tg
    rows = T * len(starts)
    scale = m / rows
    emit(name, m, metric, "cusparse", prep + tot * scale, rows,
         "%d tiles of %d rows spread evenly (%s), %.2f s measured, x m/rows,"
         " + prep %.2f s once; spgemm %.4f s (product + toarray alone, x "
         "m/rows)%s"
         % (len(starts), T, fmt_rows(rows, m), tot, prep, spg * scale,
            "; FAKE: numpy/scipy on the CPU (test)" if o["fake_gpu"] else ""))


#------------------------------------------------------------------------------
# main
#------------------------------------------------------------------------------

def main(argv):
    o = {"k": 10, "metrics": "manhattan,cosine,jensenshannon,chebyshev",
         "peers": "sklearn,cusparse", "rows": 2000, "budget": 10.0,
         "tile_bytes": 1e9, "fake_gpu": False}
    files = []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("-h", "--help"):
            print(__doc__)
            return 0
        if a == "--fake-gpu":           # test the cuSPARSE path with numpy
            o["fake_gpu"] = True
            i += 1
            continue
        if a.startswith("--"):
            key = a[2:].replace("-", "_")
            if key not in o or i + 1 >= len(argv):
                sys.exit("knn_peers.py: unknown option %s (see --help)" % a)
            v = argv[i + 1]
            o[key] = type(o[key])(float(v)) if isinstance(o[key], (int, float)) \
                and not isinstance(o[key], bool) else v
            i += 2
            continue
        files.append(a)
        i += 1
    if not files:
        sys.exit(__doc__)
    metrics = []
    for x in o["metrics"].split(","):
        x = x.strip().lower()
        if x:
            metrics.append(SKLEARN_NAMES.get(x, x.replace("_", "")))
    peers = [p.strip() for p in o["peers"].split(",") if p.strip()]
    for p in peers:
        if p not in ("sklearn", "cusparse"):
            sys.exit("knn_peers.py: --peers sklearn,cusparse")
    for f in files:
        name = seed_to_csr.dataset_name(f)
        t = time.time()
        X = seed_to_csr.load(f)
        print("INFO\t%s\t%d x %d, nnz %d, loaded in %.1f s"
              % (name, X.shape[0], X.shape[1], X.nnz, time.time() - t),
              flush=True)
        for metric in metrics:
            for p in peers:
                try:
                    (run_sklearn if p == "sklearn" else run_cusparse)(
                        name, X, metric, o)
                except Exception as e:
                    emit(name, X.shape[0], metric, p, None, 0, "failed: %s: %s"
                         % (type(e).__name__, str(e).splitlines()[0]
                            if str(e) else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
