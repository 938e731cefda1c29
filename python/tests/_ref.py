# SPDX-License-Identifier: Apache-2.0
"""Reference distances for the tests: scipy's cdist (and numpy formulas for
the metrics scipy lacks or defines otherwise), on dense float64 copies,
with gxbdist's documented zero-row rules applied where scipy gives NaN
(docs/metrics.md, "Zero rows and 0/0"), and the tolerance of
docs/metrics.md: |got - ref| <= rtol * max(|ref|, S)."""

import os

import numpy as np
import scipy.sparse as sp
from scipy.spatial import distance
from scipy.spatial.distance import cdist

RTOL = {np.dtype(np.float32): 1e-5, np.dtype(np.float64): 1e-12}

# the names gxbdist accepts -> (scipy's name, or None for a numpy formula)
SCIPY = {
    "euclidean": "euclidean", "l2": "euclidean", "sqeuclidean": "sqeuclidean",
    "cityblock": "cityblock", "manhattan": "cityblock", "l1": "cityblock",
    "chebyshev": "chebyshev", "infinity": "chebyshev", "minkowski": "minkowski",
    "canberra": "canberra", "braycurtis": "braycurtis", "hamming": "hamming",
    "cosine": "cosine", "correlation": "correlation",
    "jaccard": "jaccard", "dice": "dice", "russellrao": "russellrao",
    # scipy <= 1.14 (removed in 1.15: then the formula below)
    "sokalmichener": "sokalmichener" if hasattr(distance, "sokalmichener") else None,
    "hellinger": None, "jensenshannon": None, "jensen_shannon": None,
    "kl_divergence": None, "kl": None, "dot": None,
}
SET_METRICS = {"jaccard", "dice", "russellrao", "sokalmichener"}   # on the pattern (x != 0)
NONNEGATIVE = {"hellinger", "jensenshannon", "jensen_shannon", "kl_divergence", "kl"}


def seed():
    """The seed of the random data: GXBDIST_TEST_SEED, else fixed; the
    tests print it on failure through their ids/messages."""
    return int(os.environ.get("GXBDIST_TEST_SEED", "20240519"))


def dense(A):
    return np.asarray(A.toarray() if sp.issparse(A) else A, dtype=np.float64)


def _xlogx_over(x, m):
    with np.errstate(divide="ignore", invalid="ignore"):
        t = x * np.log(x / m)
    return np.where(x > 0, t, 0.0)


ZERO_ON_SELF = set(SCIPY) - {"russellrao", "dot", "kl", "kl_divergence"}


def reference(metric, X, Y, p=None):
    """The (m, n) float64 reference of gxbdist's definition of metric.
    Identical rows are at exactly 0 (scipy's correlation and cosine leave a
    rounding error of about 1e-16 there)."""
    D = _reference(metric, X, Y, p)
    if metric in ZERO_ON_SELF:
        x, y = dense(X), dense(Y)
        same = (x[:, None, :] == y[None, :, :]).all(axis=2) if x.size * y.shape[0] < 5e7 \
            else np.zeros(D.shape, bool)
        D = np.where(same, 0.0, D)
    return D


def _reference(metric, X, Y, p=None):
    x, y = dense(X), dense(Y)
    name = SCIPY[metric]
    if name is None:
        if metric == "dot":
            return x @ y.T
        if metric == "sokalmichener":
            # R / (S + R), R = 2 (c_TF + c_FT), S = c_TT + c_FF on the patterns
            px, py = (x != 0).astype(float), (y != 0).astype(float)
            tt = px @ py.T
            one = px.sum(1)[:, None] + py.sum(1)[None, :] - 2 * tt
            k = x.shape[1]
            return np.where(k > 0, 2 * one / np.maximum(k + one, 1), 0.0)
        if metric == "hellinger":
            d = np.sqrt(x)[:, None, :] - np.sqrt(y)[None, :, :]
            return np.sqrt((d * d).sum(axis=2) / 2)
        if metric in ("kl", "kl_divergence"):
            xx, yy = x[:, None, :], y[None, :, :]
            both = (xx > 0) & (yy > 0)
            with np.errstate(divide="ignore", invalid="ignore"):
                t = np.where(both, xx * np.log(np.where(both, xx / np.where(both, yy, 1), 1)), 0)
            return t.sum(axis=2)
        # Jensen-Shannon, not normalised (gxbdist's definition)
        xx, yy = x[:, None, :], y[None, :, :]
        mm = (xx + yy) / 2
        s = (_xlogx_over(xx, mm) + _xlogx_over(yy, mm)).sum(axis=2)
        return np.sqrt(np.maximum(s, 0) / 2)
    if metric in SET_METRICS:
        D = cdist(x != 0, y != 0, name)
    elif name == "minkowski":
        D = cdist(x, y, "minkowski", p=p)
    else:
        D = cdist(x, y, name)
    if not np.isnan(D).any():
        return D
    # the zero-row rules where scipy divides 0 by 0
    if name == "cosine":
        zx, zy = ~(x != 0).any(axis=1), ~(y != 0).any(axis=1)
    elif name == "correlation":
        zx = np.ptp(x, axis=1) == 0
        zy = np.ptp(y, axis=1) == 0
    else:                      # braycurtis, dice, jaccard: 0/0 = 0
        return np.where(np.isnan(D), 0.0, D)
    both, one = zx[:, None] & zy[None, :], zx[:, None] ^ zy[None, :]
    D = np.where(both, 0.0, D)
    return np.where(one, 1.0, D)


def scale(metric, X, Y):
    """The conditioning scale S of docs/metrics.md."""
    if metric == "dot":
        return np.abs(dense(X)) @ np.abs(dense(Y)).T
    if metric in ("kl", "kl_divergence"):
        x, y = dense(X)[:, None, :], dense(Y)[None, :, :]
        both = (x > 0) & (y > 0)
        with np.errstate(divide="ignore", invalid="ignore"):
            t = np.where(both, np.abs(x * np.log(np.where(both, x / np.where(both, y, 1), 1))), 0)
        return t.sum(axis=2)
    if metric in ("cosine", "correlation"):
        return 1e-7
    return 0.0


def assert_close(got, ref, rtol, S=0.0, what=""):
    got = np.asarray(got, dtype=np.float64)
    assert got.shape == ref.shape, (what, got.shape, ref.shape)
    bound = rtol * np.maximum(np.abs(ref), S)
    err = np.abs(got - ref)
    bad = ~(err <= bound)
    if bad.any():
        i = np.argwhere(bad)[0]
        raise AssertionError(
            "%s: %d entries off (seed %d); first %s: got %r, want %r, |err| %.3g > %.3g"
            % (what, bad.sum(), seed(), tuple(i), got[tuple(i)], ref[tuple(i)],
               err[tuple(i)], bound[tuple(i)]))


def random_csr(rng, m, k, density, nonneg=False, integers=False, empty_rows=(),
               dtype=np.float64):
    """A random canonical CSR; integers: values in 1..3 (so equal values
    meet in common columns, for Hamming), else uniform in (-1, 1) or (0, 1)."""
    A = sp.random(m, k, density=density, format="csr", random_state=rng,
                  dtype=np.float64)
    if integers:
        A.data = rng.integers(1, 4, size=A.nnz).astype(np.float64)
    elif not nonneg:
        A.data = A.data * 2 - 1
    for r in empty_rows:
        A.data[A.indptr[r]:A.indptr[r + 1]] = 0
    A.eliminate_zeros()
    A = A.astype(dtype)
    A.sort_indices()
    return A


def fortunes_path():
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.join(here, "..", "..", "data", "fortunes.mtx.gz")


_FORTUNES = []


def fortunes():
    """The bundled dataset (15,217 x 15,639 word counts) as CSR float64."""
    if not _FORTUNES:
        import scipy.io
        _FORTUNES.append(scipy.io.mmread(fortunes_path()).tocsr().astype(np.float64))
    return _FORTUNES[0]


def knn_reference(D, k, largest=False):
    """(distances, indices) of a stable sort of each row of D (ties to the
    smaller index): what GxB_kNN promises."""
    key = -D if largest else D
    ind = np.argsort(key, axis=1, kind="stable")[:, :k]
    return np.take_along_axis(D, ind, 1), ind


def assert_same_neighbors(dist, ind, Dref, ref_ind, rtol, what="", S=0.0):
    """Entry for entry against a reference k-nearest list, ties allowed to
    differ: where the indices differ, the reference distances of both must
    be equal within rtol (a tie the two computations broke apart by an ulp
    or ordered differently)."""
    rows = np.arange(ind.shape[0])[:, None]
    ref_d = Dref[rows, ref_ind]
    assert_close(dist, ref_d, rtol, S, what + " distances")
    diff = ind != ref_ind
    if diff.any():
        a = Dref[rows, ind][diff]
        b = Dref[rows, ref_ind][diff]
        tie = np.abs(a - b) <= rtol * np.maximum(np.abs(b), S)
        assert tie.all(), "%s: %d index differences that are not ties (seed %d)" % (
            what, (~tie).sum(), seed())
