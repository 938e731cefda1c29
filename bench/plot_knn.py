#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""bench/plot_knn.py: the kNN comparison of docs/benchmarks.md as a plot.

usage: plot_knn.py [CSV] [PNG]   (defaults: bench/knn_results.csv,
                                  docs/benchmarks_knn.png)

One group of bars per (data, metric), one bar per implementation, seconds on
a log scale (the implementations differ by up to three orders of
magnitude); a missing figure leaves its bar out.  Needs matplotlib (Debian:
python3-matplotlib)."""

import csv
import os
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

here = os.path.dirname(os.path.abspath(__file__))
src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "knn_results.csv")
dst = sys.argv[2] if len(sys.argv) > 2 else os.path.join(here, "..", "docs", "benchmarks_knn.png")

with open(src) as f:
    rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
peers = [("gxbdist", "gxbdist (H200)"), ("cupy_cusparse", "CuPy/cuSPARSE (H200)"),
         ("v100_cuml", "cuML, V100 (the paper)"), ("scikit-learn", "scikit-learn brute (16 cores)")]
groups = ["%s\n%s" % (r["data"], r["metric"]) for r in rows]
width = 0.8 / len(peers)
fig, ax = plt.subplots(figsize=(14, 4.8))
for p, (key, label) in enumerate(peers):
    xs, ys = [], []
    for g, r in enumerate(rows):
        if r[key]:
            xs.append(g + (p - (len(peers) - 1) / 2) * width)
            ys.append(float(r[key]))
    ax.bar(xs, ys, width, label=label)
    for x, y in zip(xs, ys):
        text = ("{:,.0f}".format(y)) if y >= 100 else ("%.3g" % y)
        ax.text(x, y * 1.15, text, ha="center", va="bottom", fontsize=7, rotation=90)
ax.set_yscale("log")
ax.set_ylim(top=max(float(r[k]) for r in rows for k, _ in peers if r[k]) * 40)
ax.set_xticks(range(len(groups)))
ax.set_xticklabels(groups, fontsize=7)
ax.set_ylabel("seconds, all rows (log scale)")
ax.set_title("k = 10 nearest neighbors of every row, FP32, exact")
ax.legend(fontsize=8, loc="upper right", ncol=2)
fig.tight_layout()
fig.savefig(dst, dpi=110)
print("wrote", os.path.normpath(dst))
