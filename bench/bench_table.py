#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""bench/bench_table.py: turn the RESULT/DATA lines of cpu_bench and
sklearn_bench.py (files given as arguments, or stdin; a measurement found
in several rounds counts by its fastest) into a Markdown table
with the ratios gxbdist vs scikit-learn vs the SuiteSparse reference, and a
check of the targets (Manhattan >= 10x scikit-learn, cosine >= 2x).

Unit: ms per 10^6 output pairs (lower is better); ratio = peer / gxbdist
(higher is better for gxbdist)."""

import fileinput

data = {}        # name -> (m, k, nnz, R)
order = []
res = {}         # (name, impl, metric) -> dict

for line in fileinput.input():
    f = line.rstrip("\n").split("\t")
    if f[0] == "DATA":
        name = f[1]
        if name not in data:
            order.append(name)
        data[name] = (int(f[2]), int(f[3]), int(f[4]), int(f[5]))
    elif f[0] == "RESULT":
        name, impl, metric = f[1], f[2], f[3]
        r = dict(rows=int(f[4]), cols=int(f[5]), ms=float(f[7]),
                 rate=float(f[8]), extra=f[9] if len(f) > 9 else "",
                 busy=float(f[10]) if len(f) > 10 else 0.0)
        # several rounds: keep the fastest of each measurement
        old = res.get((name, impl, metric))
        if old is None or r["rate"] < old["rate"]:
            res[(name, impl, metric)] = r
        if name not in data and name not in order:
            order.append(name)

METRICS = ["MANHATTAN", "COSINE", "EUCLIDEAN", "CANBERRA", "CHEBYSHEV",
           "JENSEN_SHANNON", "SQEUCLIDEAN", "CORRELATION", "DICE", "DOT",
           "HELLINGER", "JACCARD", "RUSSELLRAO", "KL_DIVERGENCE", "HAMMING",
           "BRAYCURTIS"]


def fmt(x):
    if x is None:
        return "–"
    if x >= 100:
        return "%.0f" % x
    if x >= 10:
        return "%.1f" % x
    if x >= 1:
        return "%.2f" % x
    return "%.3g" % x


def ratio(a, b):
    if a is None or b is None or b <= 0:
        return "–"
    r = a / b
    return ("%.0f×" % r) if r >= 10 else ("%.1f×" % r)


print("| data (rows × cols, nnz) | A rows × B rows | metric | gxbdist CPU | "
      "gxbdist, union pass (exact mode) | scikit-learn | gxbdist vs sklearn "
      "| SuiteSparse reference (its slice) | gxbdist vs reference "
      "| max rel. error vs reference |")
print("|---|---|---|---|---|---|---|---|---|---|")
checks = []
for name in order:
    m, k, nnz, R = data.get(name, (0, 0, 0, 0))
    first = True
    label = "%s (%s × %s, %s)" % (name, f"{m:,}", f"{k:,}", f"{nnz:,}")
    mx = res.get((name, "suitesparse_mxm", "PLUS_TIMES"))
    for metric in METRICS:
        g = res.get((name, "gxbdist_cpu", metric))
        if g is None:
            continue
        s = res.get((name, "sklearn", metric))
        r = res.get((name, "reference", metric))
        u = res.get((name, "gxbdist_cpu_union", metric))
        grate = g["rate"]
        srate = s["rate"] if s else None
        rrate = r["rate"] if r else None
        rslice = ("%s (%d × %d)" % (fmt(rrate), r["rows"], r["cols"])
                  if r else "–")
        print("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            label if first else "",
            ("%d × %d" % (R, g["cols"])) if first else "",
            metric.lower(),
            fmt(grate) + ("" if g["rows"] == R else " (%d × %d)" % (g["rows"], g["cols"])),
            (fmt(u["rate"]) + " (%d × %d)" % (u["rows"], u["cols"])) if u else "–",
            fmt(srate), ratio(srate, grate),
            rslice, ratio(rrate, grate), r["extra"] if r else "–"))
        first = False
        if s and metric in ("MANHATTAN", "COSINE"):
            target = 10 if metric == "MANHATTAN" else 2
            checks.append((name, metric, srate / grate, target))
    if mx:
        print("| | | *SuiteSparse GrB_mxm A·Bᵀ (PLUS_TIMES, sparse, %s "
              "entries)* | *%s* | | | | | | |" % (mx["extra"].replace("nnz=", ""),
                                                fmt(mx["rate"])))

print()
for what, sel in (("gxbdist and scikit-learn",
                   lambda k: k[1] in ("gxbdist_cpu", "gxbdist_cpu_union",
                                      "sklearn")),
                  ("SuiteSparse", lambda k: k[1] in ("reference",
                                                     "suitesparse_mxm"))):
    busy = sorted(r["busy"] for k, r in res.items() if sel(k))
    if busy:
        print("Other processes used at most %.0f %% of the CPUs just before "
              "a %s measurement kept here (median %.0f %%)." % (
                  100 * busy[-1], what, 100 * busy[len(busy) // 2]))
print("Unit: ms per 10⁶ output pairs (lower is better); ratios: the peer's "
      "time ÷ gxbdist's (higher is better for gxbdist).")
if checks:
    print()
    print("Targets (issue 7): Manhattan ≥ 10× scikit-learn, cosine ≥ 2×:")
    for name, metric, r, t in checks:
        print("- %s %s: %.1f× (target %d×) %s" % (
            name, metric.lower(), r, t, "met" if r >= t else "MISSED"))
