#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tests/test_cli_compare.py: the gxbdist command against scikit-learn and scipy

usage: test_cli_compare.py GXBDIST SOURCE_DIR   (run by tests/test_cli.sh compare)

  knn      on quotes of the bundled data/fortunes.mtx.gz (800 non-empty rows
           drawn with a seeded generator, and 100 others as queries) against
           sklearn.neighbors.NearestNeighbors(algorithm="brute"), cosine and
           manhattan, fp32 and fp64: self-queries with and without
           --exclude-self (sklearn's kneighbors() and kneighbors(X)) and
           queries against another file.  Every reported distance is the
           true one, the sorted distances equal sklearn's, and the indices
           too except where two candidates tie.
  radius   the same rows against radius_neighbors (cosine, manhattan):
           the same pairs except those within the tolerance of eps.
  pairwise every metric on small random files against
           scipy.spatial.distance.cdist (or the formula of docs/metrics.md
           where scipy has none), and every alias against its metric.

Tolerance, as tests/test_common.h: |got - ref| <= rtol * max(|ref|, S),
rtol = 1e-5 for fp32 and 1e-12 for fp64, S = 1 for cosine, correlation, dot
and kl (1 - r and sums of products are good to rtol absolute), else S = 0.
The seed (GXBDIST_TEST_SEED) is printed, and in every failure.
"""

import os
import subprocess
import sys
import tempfile
import warnings

import numpy as np
import scipy.io
import scipy.sparse as sp
from scipy.spatial.distance import cdist
from scipy.special import rel_entr
from sklearn.metrics import pairwise_distances
from sklearn.neighbors import NearestNeighbors

# newer scipy warns that mmread will return sparse arrays: the same here
warnings.filterwarnings("ignore", category=DeprecationWarning)
BIN, SRC = sys.argv[1], sys.argv[2]
SEED = int(os.environ.get("GXBDIST_TEST_SEED", "20240917"))
RTOL = {"fp32": 1e-5, "fp64": 1e-12}
SCALE1 = {"cosine", "correlation", "dot", "kl"}
TMP = tempfile.mkdtemp(prefix="test_cli_compare.")
failures = []


def fail(msg):
    failures.append(msg)
    print(f"FAIL (seed {SEED}): {msg}")


def tol(ref, metric, typ):
    s = 1.0 if metric in SCALE1 else 0.0
    return RTOL[typ] * np.maximum(np.abs(ref), s)


def gxbdist(*args):
    """run the command; its Matrix Market output as a CSR matrix"""
    out = os.path.join(TMP, "out.mtx")
    r = subprocess.run([BIN, *map(str, args), "-o", out], capture_output=True,
                       text=True)
    if r.returncode != 0:
        fail(f"gxbdist {' '.join(map(str, args))}: exit {r.returncode}: "
             f"{r.stderr.strip()}")
        return None
    return sp.csr_matrix(scipy.io.mmread(out))


def write(name, X):
    path = os.path.join(TMP, name)
    scipy.io.mmwrite(path, sp.coo_matrix(X))
    return path


def row_sorted(C, i):
    """row i: (columns, values) best first, ties to the smaller column"""
    lo, hi = C.indptr[i], C.indptr[i + 1]
    cols, vals = C.indices[lo:hi], C.data[lo:hi]
    order = np.lexsort((cols, vals))
    return cols[order], vals[order]


#-------------------------------------------------------------------------------
# knn against NearestNeighbors.kneighbors
#-------------------------------------------------------------------------------

def check_knn(label, C, X, Y, metric, k, typ, self_query, exclude_self):
    if C is None:
        return
    D = pairwise_distances(X, Y, metric=metric)
    nn = NearestNeighbors(n_neighbors=k, algorithm="brute", metric=metric)
    nn.fit(Y)
    dist_sk, ind_sk = nn.kneighbors() if exclude_self else nn.kneighbors(X)
    ties = worst = 0
    for i in range(X.shape[0]):
        cols, vals = row_sorted(C, i)
        if len(cols) != k:
            return fail(f"{label}: row {i} has {len(cols)} neighbors, want {k}")
        if exclude_self and i in cols:
            return fail(f"{label}: row {i} is its own neighbor")
        t = tol(D[i, cols], metric, typ)
        err = np.abs(vals - D[i, cols])
        worst = max(worst, np.max(err / np.maximum(t, 1e-300) * RTOL[typ]))
        if np.any(err > t):
            q = int(np.argmax(err - t))
            return fail(f"{label}: row {i}, neighbor {cols[q]}: distance "
                        f"{vals[q]!r}, true {D[i, cols[q]]!r}")
        if np.any(np.abs(vals - dist_sk[i]) > tol(dist_sk[i], metric, typ)):
            return fail(f"{label}: row {i}: distances {vals} but sklearn's "
                        f"{dist_sk[i]} (a nearer neighbor missed)")
        for q in np.nonzero(cols != ind_sk[i])[0]:
            a, b = D[i, cols[q]], D[i, ind_sk[i, q]]
            if abs(a - b) > tol(max(a, b), metric, typ):
                return fail(f"{label}: row {i}, rank {q}: neighbor {cols[q]} "
                            f"({a!r}), sklearn's {ind_sk[i, q]} ({b!r})")
            ties += 1
    print(f"ok  {label}: {X.shape[0]} rows x {k}, indices equal to sklearn's "
          f"but {ties} at ties (equal within the tolerance), worst error "
          f"{worst:.2g} relative")


#-------------------------------------------------------------------------------
# radius against NearestNeighbors.radius_neighbors
#-------------------------------------------------------------------------------

def check_radius(label, C, X, Y, metric, eps, typ, exclude_self):
    if C is None:
        return
    D = pairwise_distances(X, Y, metric=metric)
    nn = NearestNeighbors(radius=eps, algorithm="brute", metric=metric)
    nn.fit(Y)
    _, ind_sk = (nn.radius_neighbors() if exclude_self
                 else nn.radius_neighbors(X))
    pairs = border = 0
    for i in range(X.shape[0]):
        cols, vals = row_sorted(C, i)
        pairs += len(cols)
        if np.any(np.abs(vals - D[i, cols]) > tol(D[i, cols], metric, typ)):
            return fail(f"{label}: row {i}: a distance is wrong")
        for j in set(cols.tolist()) ^ set(ind_sk[i].tolist()):
            if abs(D[i, j] - eps) > tol(eps, metric, typ):
                return fail(f"{label}: row {i}, column {j} at {D[i, j]!r}: "
                            f"{'kept' if j in cols else 'missed'} for eps {eps}")
            border += 1
    print(f"ok  {label}: {pairs} pairs, the same as sklearn's but {border} "
          f"within the tolerance of eps")


#-------------------------------------------------------------------------------
# the fortunes subset: knn and radius
#-------------------------------------------------------------------------------

rng = np.random.default_rng(SEED)
print(f"test_cli_compare: seed {SEED} (GXBDIST_TEST_SEED)")
F = sp.csr_matrix(scipy.io.mmread(os.path.join(SRC, "data", "fortunes.mtx.gz")))
# quotes with no word of the vocabulary are left out: their cosine distance
# follows docs/metrics.md's zero-row rule (0 between two such rows), not
# scikit-learn's (1); the library's own tests check that rule
rows = rng.permutation(np.nonzero(np.diff(F.indptr))[0])
S, Q = F[np.sort(rows[:800])], F[np.sort(rows[800:900])]
S_path, Q_path = write("s.mtx", S), write("q.mtx", Q)
Sd, Qd = S.astype(np.float64), Q.astype(np.float64)

for metric in ("cosine", "manhattan"):
    for typ in ("fp32", "fp64"):
        k = 10
        common = ["--metric", metric, "--type", typ, "-k", k]
        check_knn(f"knn {metric} {typ} self", gxbdist("knn", *common, S_path),
                  Sd, Sd, metric, k, typ, True, False)
        check_knn(f"knn {metric} {typ} --exclude-self",
                  gxbdist("knn", *common, "--exclude-self", S_path),
                  Sd, Sd, metric, k, typ, True, True)
        check_knn(f"knn {metric} {typ} Q S",
                  gxbdist("knn", *common, Q_path, S_path),
                  Qd, Sd, metric, k, typ, False, False)
        eps = 0.6 if metric == "cosine" else 12.0
        common = ["--metric", metric, "--type", typ, "--eps", eps]
        check_radius(f"radius {metric} {typ} eps {eps}",
                     gxbdist("radius", *common, S_path),
                     Sd, Sd, metric, eps, typ, False)
        check_radius(f"radius {metric} {typ} eps {eps} --exclude-self",
                     gxbdist("radius", *common, "--exclude-self", S_path),
                     Sd, Sd, metric, eps, typ, True)

#-------------------------------------------------------------------------------
# pairwise: every metric on small random files
#-------------------------------------------------------------------------------

def random_rows(m, n, signed):
    """m x n, about 30 % entries, at least one per row (no zero rows, whose
    rules differ from scipy's: docs/metrics.md); rows of a probability file
    sum to 1 (JS, Hellinger and KL are not normalized by gxbdist)"""
    X = sp.random(m, n, density=0.3, random_state=rng, format="lil")
    for i in range(m):
        X[i, rng.integers(n)] = 1 + rng.random()
    X = X.toarray()
    if signed:
        X = np.where(X != 0, 2 * X - 1.5, 0.0)
    else:
        X = X / X.sum(axis=1, keepdims=True)
    return X


def hellinger(X, Y):
    return cdist(np.sqrt(X), np.sqrt(Y), "euclidean") / np.sqrt(2)


def kl(X, Y):
    out = np.zeros((X.shape[0], Y.shape[0]))
    for i, x in enumerate(X):
        both = (x[None, :] > 0) & (Y > 0)
        out[i] = np.where(both, rel_entr(x[None, :], np.where(both, Y, 1)), 0).sum(1)
    return out


def sokalmichener(X, Y):
    """scipy's sokalmichener on the patterns (scipy <= 1.14; later versions
    removed it: then its formula, R / (S + R) of the four counts)"""
    if hasattr(scipy.spatial.distance, "sokalmichener"):
        return cdist(X != 0, Y != 0, "sokalmichener")
    px, py = (X != 0).astype(float), (Y != 0).astype(float)
    one = px.sum(1)[:, None] + py.sum(1)[None, :] - 2 * (px @ py.T)
    return 2 * one / (X.shape[1] + one)


REFS = {
    "euclidean":     lambda X, Y: cdist(X, Y, "euclidean"),
    "sqeuclidean":   lambda X, Y: cdist(X, Y, "sqeuclidean"),
    "cityblock":     lambda X, Y: cdist(X, Y, "cityblock"),
    "cosine":        lambda X, Y: cdist(X, Y, "cosine"),
    "chebyshev":     lambda X, Y: cdist(X, Y, "chebyshev"),
    "minkowski":     lambda X, Y: cdist(X, Y, "minkowski", p=3),
    "canberra":      lambda X, Y: cdist(X, Y, "canberra"),
    "braycurtis":    lambda X, Y: cdist(X, Y, "braycurtis"),
    "hamming":       lambda X, Y: cdist(X, Y, "hamming"),
    "jaccard":       lambda X, Y: cdist(X != 0, Y != 0, "jaccard"),
    "dice":          lambda X, Y: cdist(X != 0, Y != 0, "dice"),
    "russellrao":    lambda X, Y: cdist(X != 0, Y != 0, "russellrao"),
    "sokalmichener": sokalmichener,
    "correlation":   lambda X, Y: cdist(X, Y, "correlation"),
    "dot":           lambda X, Y: X @ Y.T,
    "hellinger":     hellinger,
    "jensenshannon": lambda X, Y: cdist(X, Y, "jensenshannon"),
    "kl":            kl,
}
NONNEGATIVE = {"hellinger", "jensenshannon", "kl"}
ALIASES = {"l2": "euclidean", "manhattan": "cityblock", "l1": "cityblock",
           "kl_divergence": "kl"}

files = {}
for signed in (True, False):
    X, Y = random_rows(30, 20, signed), random_rows(25, 20, signed)
    files[signed] = (X, Y, write(f"x{signed:d}.mtx", X), write(f"y{signed:d}.mtx", Y))

for metric, ref in REFS.items():
    for signed in (True, False):
        if signed and metric in NONNEGATIVE:
            continue
        X, Y, x_path, y_path = files[signed]
        R = ref(X, Y)
        for typ in ("fp32", "fp64"):
            extra = ["--p", 3] if metric == "minkowski" else []
            C = gxbdist("pairwise", "--metric", metric, *extra, "--type", typ,
                        x_path, y_path)
            if C is None:
                continue
            G = C.toarray()
            err = np.abs(G - R) / np.maximum(np.maximum(np.abs(R),
                  1.0 if metric in SCALE1 else 0.0), 1e-300)
            label = f"pairwise {metric} {typ} {'signed' if signed else 'probabilities'}"
            if C.nnz != R.size and np.any(np.abs(R[G == 0]) > tol(0, metric, typ)):
                fail(f"{label}: {C.nnz} entries, want {R.size}")
            elif np.max(err) > RTOL[typ]:
                i, j = np.unravel_index(np.argmax(err), err.shape)
                fail(f"{label}: ({i},{j}) = {G[i, j]!r}, reference {R[i, j]!r}")
            else:
                print(f"ok  {label}: worst error {np.max(err):.2g} relative")

for alias, metric in ALIASES.items():
    _, _, x_path, y_path = files[False]
    a = gxbdist("pairwise", "--metric", alias, x_path, y_path)
    b = gxbdist("pairwise", "--metric", metric, x_path, y_path)
    if a is not None and b is not None and (a != b).nnz:
        fail(f"--metric {alias} differs from --metric {metric}")
print(f"ok  aliases {', '.join(ALIASES)}")

if failures:
    print(f"test_cli_compare: {len(failures)} failures (seed {SEED})")
    sys.exit(1)
print("test_cli_compare: all passed")
