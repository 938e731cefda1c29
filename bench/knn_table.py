#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""bench/knn_table.py: the Markdown table of the kNN benchmark (issue 17) for
docs/benchmarks.md, from the logs of bench/knn_bench (KNN and DATA lines) and
bench/knn_peers.py (PEER lines).

usage: knn_table.py LOG...     (or the logs on stdin; a case found in several
                                logs counts by its fastest)

Per dataset x metric: gxbdist's all-rows kNN (k nearest of every row, self
excluded), all pairs into host memory (GxB_mxm_distance, scaled from a
sample), their ratio, scikit-learn's brute-force kneighbors and CuPy/cuSPARSE
cosine (both scaled from a sample) and their ratio to gxbdist, and the seed
paper's figure for the same query on a V100 with cuML (001, Tables 3-6) where
the dataset is one of its four shapes.  A seed shape generated at a scale S
< 1 (file name NAME-xS, e.g. nytimes-x0.25) has S times the rows and
nonzeros of the full set, hence about S^2 of its pairs and intersection
products: its time / S^2 is set beside the V100 figure, marked "≈".
"""

import fileinput
import re

# seed 001, Tables 3-6: seconds for an all-rows kNN query on a V100 (cuML)
V100 = {
    "movielens": {"correlation": 111.20, "cosine": 110.01, "dice": 110.94,
                  "euclidean": 111.38, "hellinger": 110.82, "jaccard": 110.67,
                  "russellrao": 109.68, "canberra": 268.11, "chebyshev": 336.05,
                  "hamming": 229.59, "jensenshannon": 415.12,
                  "kldivergence": 170.06, "manhattan": 227.98},
    "nytimes": {"correlation": 337.11, "cosine": 334.86, "dice": 335.49,
                "euclidean": 336.63, "hellinger": 334.80, "jaccard": 336.01,
                "russellrao": 332.93, "canberra": 819.80, "chebyshev": 1072.35,
                "hamming": 728.05, "jensenshannon": 1331.37,
                "kldivergence": 525.32, "manhattan": 715.78},
    "scrna": {"correlation": 235.0, "cosine": 233.0, "dice": 233.0,
              "euclidean": 233.0, "hellinger": 232.0, "jaccard": 233.0,
              "russellrao": 232.0, "canberra": 598.0, "chebyshev": 546.0,
              "hamming": 481.0, "jensenshannon": 1052.0, "kldivergence": 409.0,
              "manhattan": 477.0},
    "sec_edgar": {"correlation": 87.99, "cosine": 87.96, "dice": 88.19,
                  "euclidean": 87.77, "hellinger": 87.83, "jaccard": 87.73,
                  "russellrao": 87.94, "canberra": 102.79, "chebyshev": 146.41,
                  "hamming": 97.65, "jensenshannon": 142.96,
                  "kldivergence": 87.72, "manhattan": 98.05},
}
METRIC_ORDER = ["manhattan", "cosine", "jensenshannon", "chebyshev",
                "euclidean", "sqeuclidean", "canberra", "correlation", "dice",
                "dot", "hellinger", "jaccard", "russellrao", "kldivergence",
                "hamming", "braycurtis"]


def seed_shape(name):
    """(shape, scale) for a seed shape's file name, else (None, None)."""
    m = re.fullmatch(r"(movielens|nytimes|scrna|sec_edgar)(?:-x([0-9.]+))?",
                     name)
    if not m:
        return None, None
    return m.group(1), float(m.group(2)) if m.group(2) else 1.0


def fmt(x):
    """3 significant digits, whole numbers from 100 on"""
    return "–" if x is None else "%.0f" % x if x >= 100 else "%.3g" % x


def ratio(a, b):
    """a / b as "12×" (2 significant digits under 10)"""
    return "–" if a is None or b is None or b <= 0 else \
        "%.0f×" % (a / b) if a >= 10 * b else "%.2g×" % (a / b)


def main():
    data, order = {}, []        # name -> (m, n, nnz)
    knn = {}                    # (name, metric) -> dict
    peer = {}                   # (name, metric, peer) -> (seconds, rows, note)
    for line in fileinput.input():
        f = line.rstrip("\n").split("\t")
        if f[0] == "DATA" and len(f) >= 5:
            if f[1] not in data:
                order.append(f[1])
            data[f[1]] = (int(f[2]), int(f[3]), int(f[4]))
        elif f[0] == "KNN" and len(f) >= 16:
            name, metric = f[1], f[5]
            r = dict(m=int(f[2]), n=int(f[3]), nnz=int(f[4]), backend=f[6],
                     k=int(f[7]), knn=None if f[8] == "-" else float(f[8]),
                     est=float(f[10]), allpairs=float(f[11]), R=int(f[12]),
                     check=f[15])
            r["t"] = r["knn"] if r["knn"] is not None else r["est"]
            old = knn.get((name, metric))
            # the fastest measured run; a measured run before an estimate
            if old is None or (r["knn"] is not None) > (old["knn"] is not None) \
                    or ((r["knn"] is None) == (old["knn"] is None)
                        and r["t"] < old["t"]):
                knn[(name, metric)] = r
            if name not in data:
                order.append(name)
                data[name] = (r["m"], r["n"], r["nnz"])
        elif f[0] == "PEER" and len(f) >= 8:
            name, metric, who = f[1], f[3], f[4]
            sec = None if f[5] == "-" else float(f[5])
            old = peer.get((name, metric, who))
            if old is None or old[0] is None or (sec is not None
                                                 and sec < old[0]):
                peer[(name, metric, who)] = (sec, f[6], f[7])
            if name not in data:
                order.append(name)
                data[name] = (int(f[2]), 0, 0)

    backends = sorted({r["backend"] for r in knn.values()})
    ks = sorted({r["k"] for r in knn.values()})
    print("k = %s nearest of every row among all rows, the row itself "
          "excluded, FP32; gxbdist backend %s. Seconds for all rows "
          "(scaled from samples where said); ratios: the other's time ÷ "
          "gxbdist kNN's (higher: gxbdist faster), except kNN ÷ all pairs."
          % ("/".join(map(str, ks)) or "?", "/".join(backends) or "?"))
    print()
    print("| data (rows × cols, nnz) | metric | gxbdist kNN | all pairs into "
          "host memory | kNN ÷ all pairs | scikit-learn brute | sklearn ÷ "
          "gxbdist | CuPy/cuSPARSE cosine | cuSPARSE ÷ gxbdist | V100 cuML "
          "(seed 001) | V100 ÷ gxbdist | check |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    notes, scaled = [], []
    for name in order:
        m, n, nnz = data[name]
        label = "%s (%s × %s, %s)" % (name, f"{m:,}", f"{n:,}", f"{nnz:,}")
        shape, scale = seed_shape(name)
        metrics = [x for x in METRIC_ORDER
                   if (name, x) in knn or any((name, x, p) in peer
                                              for p in ("sklearn", "cusparse"))]
        first = True
        for metric in metrics:
            r = knn.get((name, metric))
            t = r["t"] if r else None
            cells = [label if first else "", metric]
            if r is None:
                cells += ["–", "–", "–"]
            else:
                kt = fmt(t) if r["knn"] is not None else "≈%s (est.)" % fmt(t)
                cells += [kt, fmt(r["allpairs"]), "%.2g" % (t / r["allpairs"])]
            for who in ("sklearn", "cusparse"):
                p = peer.get((name, metric, who))
                if p is None or p[0] is None:
                    cells += ["–", "–"]
                else:
                    cells += [fmt(p[0]), ratio(p[0], t)]
                if p is not None and not p[2].startswith("unsupported"):
                    notes.append("%s %s %s: %s" % (name, metric, who, p[2]))
            v = V100.get(shape, {}).get(metric) if shape else None
            if v is None or t is None:
                cells += [fmt(v), "–"]
            elif scale == 1.0:
                cells += [fmt(v), ratio(v, t)]
            else:
                full = t / (scale * scale) if t is not None else None
                cells += [fmt(v), "≈%s (at full size ≈%s s)"
                          % (ratio(v, full), fmt(full))]
                if name not in scaled:
                    scaled.append(name)
            cells.append(r["check"] if r else "–")
            print("| " + " | ".join(cells) + " |")
            first = False
    print()
    samples = sorted({(n, r["R"], r["m"]) for (n, _), r in knn.items()})
    if samples:
        print("All pairs: GxB_mxm_distance of R rows spread evenly × all rows "
              "(a full FP32 result in host memory), × m/R: " + "; ".join(
                  "%s R = %s" % (n, f"{R:,}") for n, R, _ in samples) + ".")
    est = [n + " " + x for (n, x), r in knn.items() if r["knn"] is None]
    if est:
        print("≈ (est.): the all-rows run was skipped (knn_bench --budget "
              "or --deadline); "
              "the figure is GxB_kNN of the R sample rows × m/R: "
              + ", ".join(est) + ".")
    if scaled:
        print("Seed shapes generated at a scale S < 1 (%s): S times the "
              "rows and nonzeros, about S² of the pairs and intersection "
              "products; their time / S² is what is set beside the V100's "
              "full-size figure (an extrapolation, marked ≈)."
              % ", ".join(scaled))
    if notes:
        print()
        print("Peers' samples:")
        for x in notes:
            print("- " + x)


if __name__ == "__main__":
    main()
