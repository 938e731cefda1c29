# SPDX-License-Identifier: Apache-2.0
"""pairwise_distances: every metric against scipy / scikit-learn / the
formula of docs/metrics.md, sparse and dense inputs, float32 and float64,
empty rows, Y=None, single rows, masks, dtypes, the bundled fortunes data.

Tolerance (docs/metrics.md): |got - ref| <= rtol * max(|ref|, S), rtol =
1e-5 (float32) / 1e-12 (float64) against a float64 reference computed on
the same (cast) input.  S = 0 except where a metric's conditioning needs
more: DOT and KL_DIVERGENCE (S = the sum of the absolute terms: a sum that
cancels is only as accurate as that), COSINE and CORRELATION (S = 1e-7:
distances between unit vectors carry an absolute error of about
sqrt(2d) * 1e-16 whatever the method, scipy's included).
"""

import os
import re
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.metrics import pairwise_distances as sk_pairwise_distances

import gxbdist
from gxbdist import _metrics
import _ref

DTYPES = [np.float32, np.float64]

# every name with the parameters it is tested with
CASES = [(m, {}) for m in sorted(_ref.SCIPY) if m != "minkowski"] + [
    ("minkowski", {"p": 3}), ("minkowski", {"p": 1.5}), ("minkowski", {"p": 0.5}),
    ("minkowski", {"p": 1}), ("minkowski", {"p": 2}), ("minkowski", {"p": np.inf}),
]
IDS = ["%s%s" % (m, "-p%s" % p["p"] if p else "") for m, p in CASES]


def test_every_metric_name_is_tested():
    assert set(gxbdist.METRICS) == {m for m, _ in CASES}


def test_every_metric_of_the_library_has_its_scipy_name():
    """Each row of the library's metric list (metrics/gxd_metric_list.h:
    X (U, NAME, ..., "scipy name")) is reachable by its scipy name, and
    that name gives the row's GxB_DIST_<NAME> (minkowski: its own)."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                        "metrics", "gxd_metric_list.h")
    with open(path) as f:
        rows = re.findall(r'^\s*X \(U, (\w+),.*"(\w+)"\)', f.read(), re.M)
    assert len(rows) > 10
    for name, scipy_name in rows:
        assert scipy_name in gxbdist.METRICS, scipy_name
        if scipy_name != "minkowski":
            assert _metrics.canonical(scipy_name, None)[0] == name, scipy_name


def _data(metric, dtype, rng, m=23, n=17, k=40, density=0.15):
    nonneg = metric in _ref.NONNEGATIVE
    integers = metric in ("hamming", "jaccard", "dice", "russellrao", "sokalmichener")
    X = _ref.random_csr(rng, m, k, density, nonneg, integers, empty_rows=(3, 11), dtype=dtype)
    Y = _ref.random_csr(rng, n, k, density, nonneg, integers, empty_rows=(5,), dtype=dtype)
    if integers:
        # rows equal to another row, and rows sharing columns with other values
        Y = sp.vstack([Y, X[:2], X[7:8] * 2]).tocsr().astype(dtype)
    return X, Y


def _check(metric, params, X, Y, D, dtype, what):
    p = params.get("p")
    if metric == "minkowski" and p in (1, 2, np.inf):
        ref_metric, p = {1: "cityblock", 2: "euclidean", np.inf: "chebyshev"}[p], None
    else:
        ref_metric = metric
    Yr = X if Y is None else Y
    ref = _ref.reference(ref_metric, X, Yr, p)
    assert D.dtype == np.dtype(dtype), what
    assert D.shape == ref.shape
    assert isinstance(D, np.ndarray) and D.flags.c_contiguous
    _ref.assert_close(D, ref, _ref.RTOL[np.dtype(dtype)], _ref.scale(metric, X, Yr), what)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("metric,params", CASES, ids=IDS)
def test_metric_sparse(metric, params, dtype):
    rng = np.random.default_rng(_ref.seed())
    X, Y = _data(metric, dtype, rng)
    _check(metric, params, X, Y, gxbdist.pairwise_distances(X, Y, metric, **params),
           dtype, "%s X,Y" % metric)
    _check(metric, params, X, None, gxbdist.pairwise_distances(X, metric=metric, **params),
           dtype, "%s Y=None" % metric)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("metric,params", CASES, ids=IDS)
def test_metric_dense_input(metric, params, dtype):
    rng = np.random.default_rng(_ref.seed() + 1)
    X, Y = _data(metric, dtype, rng, density=0.5)
    Xd, Yd = X.toarray(), Y.toarray()
    D = gxbdist.pairwise_distances(Xd, Yd, metric, **params)
    _check(metric, params, X, Y, D, dtype, "%s dense" % metric)
    # dense and sparse mixed: the same numbers
    assert np.array_equal(gxbdist.pairwise_distances(X, Yd, metric, **params), D)


SKLEARN = ["euclidean", "l2", "sqeuclidean", "cityblock", "manhattan", "l1", "cosine",
           "chebyshev", "canberra", "braycurtis", "hamming", "correlation", "jaccard",
           "dice", "russellrao", "sokalmichener", "minkowski"]


def _sklearn_has(metric):
    """Whether this scikit-learn's pairwise_distances takes the metric."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            sk_pairwise_distances(np.ones((1, 2)), metric=metric)
    except ValueError:      # scikit-learn's InvalidParameterError is one
        return False
    return True


@pytest.mark.parametrize("metric", SKLEARN)
def test_scikit_learn_agrees(metric):
    """sklearn.metrics.pairwise_distances gives the same (float64, rows of
    nonzero norm and variance, where sklearn and gxbdist agree on the
    definition: the set metrics on non-boolean data as sklearn converts
    them to bool)."""
    if not _sklearn_has(metric):
        pytest.skip("this scikit-learn has no %r (newer releases dropped it "
                    "with scipy; gxbdist's is checked against its reference)" % metric)
    rng = np.random.default_rng(_ref.seed() + 2)
    integers = metric in ("hamming", "jaccard", "dice", "russellrao", "sokalmichener")
    X = _ref.random_csr(rng, 19, 30, 0.3, integers=integers)
    Y = _ref.random_csr(rng, 13, 30, 0.3, integers=integers)
    keep_x = np.diff(X.indptr) > 1
    keep_y = np.diff(Y.indptr) > 1
    X, Y = X[keep_x], Y[keep_y]
    kw = {"p": 3} if metric == "minkowski" else {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        R = sk_pairwise_distances(X.toarray(), Y.toarray(), metric=metric, **kw)
        if metric in ("euclidean", "l2", "manhattan", "cityblock", "l1", "cosine"):
            Rs = sk_pairwise_distances(X, Y, metric=metric)   # sparse input too
            np.testing.assert_allclose(Rs, R, rtol=1e-12, atol=1e-15)
    D = gxbdist.pairwise_distances(X, Y, metric, **kw)
    # sklearn's euclidean and cosine go through dot products: their own error
    # is about 1e-16 of the row norms, hence atol
    np.testing.assert_allclose(D, R, rtol=1e-12, atol=1e-14)


def test_jensenshannon_is_scipys_on_rows_that_sum_to_one():
    from scipy.spatial.distance import cdist
    rng = np.random.default_rng(_ref.seed() + 3)
    X = _ref.random_csr(rng, 9, 25, 0.4, nonneg=True).toarray()
    Y = _ref.random_csr(rng, 7, 25, 0.4, nonneg=True).toarray()
    X = X[X.sum(1) > 0]
    Y = Y[Y.sum(1) > 0]
    X /= X.sum(1, keepdims=True)
    Y /= Y.sum(1, keepdims=True)
    D = gxbdist.pairwise_distances(sp.csr_matrix(X), sp.csr_matrix(Y), "jensenshannon")
    np.testing.assert_allclose(D, cdist(X, Y, "jensenshannon"), rtol=1e-12)
    # and Hellinger the textbook value: sqrt(1 - sum sqrt(x y))
    H = gxbdist.pairwise_distances(X, Y, "hellinger")
    np.testing.assert_allclose(H, np.sqrt(np.maximum(1 - np.sqrt(X) @ np.sqrt(Y).T, 0)),
                               rtol=1e-10)


def test_empty_rows_follow_the_documented_rules():
    """docs/metrics.md, 'Zero rows and 0/0' (and where scikit-learn differs)."""
    X = sp.csr_matrix(np.array([[0, 0, 0, 0], [0, 0, 0, 0], [1, 2, 0, 0]], float))
    for metric in gxbdist.METRICS:
        D = gxbdist.pairwise_distances(X, metric=metric)
        want = 1.0 if metric == "russellrao" else 0.0
        assert D[0, 1] == want, metric         # two empty rows
    assert gxbdist.pairwise_distances(X, metric="cosine")[0, 2] == 1
    assert gxbdist.pairwise_distances(X, metric="correlation")[0, 2] == 1
    assert gxbdist.pairwise_distances(X, metric="braycurtis")[0, 2] == 1
    assert gxbdist.pairwise_distances(X, metric="manhattan")[0, 2] == 3
    assert gxbdist.pairwise_distances(X, metric="hamming")[0, 2] == 0.5
    assert gxbdist.pairwise_distances(X, metric="canberra")[0, 2] == 2
    # scikit-learn's cosine puts two distinct zero rows at distance 1 (it
    # normalises them to zero vectors); gxbdist at 0, as identical rows
    assert sk_pairwise_distances(X, metric="cosine")[0, 1] == 1


def test_single_rows_and_y_none():
    x = sp.csr_matrix(np.array([[1.0, 0, 2]]))
    assert gxbdist.pairwise_distances(x).tolist() == [[0.0]]
    y = np.array([[0.0, 3, 2]])
    assert gxbdist.pairwise_distances(x, y, "manhattan").tolist() == [[4.0]]
    assert gxbdist.pairwise_distances(x, y, "chebyshev").tolist() == [[3.0]]
    # Y=None: self-distances are exactly 0 for every metric with d(x,x) = 0
    rng = np.random.default_rng(_ref.seed() + 4)
    X = _ref.random_csr(rng, 12, 20, 0.4)
    for metric in ("euclidean", "manhattan", "cosine", "correlation", "canberra",
                   "braycurtis", "chebyshev", "sqeuclidean"):
        assert np.all(np.diag(gxbdist.pairwise_distances(X, metric=metric)) == 0), metric


def test_dtype_rules():
    rng = np.random.default_rng(_ref.seed() + 5)
    X64 = _ref.random_csr(rng, 6, 10, 0.5)
    X32 = X64.astype(np.float32)
    pd = gxbdist.pairwise_distances
    assert pd(X32).dtype == np.float32
    assert pd(X32, X32).dtype == np.float32
    assert pd(X32, X64).dtype == np.float64        # float32 only when both are
    assert pd(X64, dtype=np.float32).dtype == np.float32
    assert pd(X32, dtype="float64").dtype == np.float64
    np.testing.assert_array_equal(pd(X64, dtype=np.float32), pd(X32))
    # ints and bools: float64, as scikit-learn converts them
    Xi = sp.csr_matrix(np.array([[1, 0, 3], [0, 2, 2]], dtype=np.int32))
    assert pd(Xi).dtype == np.float64
    np.testing.assert_array_equal(pd(Xi, metric="manhattan"),
                                  pd(Xi.astype(float), metric="manhattan"))
    assert pd(Xi.astype(np.int8).toarray(), metric="manhattan")[0, 1] == 4
    Xb = np.array([[True, False, True], [False, False, True]])
    assert pd(Xb).dtype == np.float64
    assert pd(Xb, metric="jaccard")[0, 1] == 0.5
    assert pd(sp.csr_matrix(Xb), metric="sqeuclidean")[0, 1] == 1
    assert pd(Xi.astype(np.uint16), metric="chebyshev")[0, 1] == 2


@pytest.mark.parametrize("fmt", ["csc", "coo", "lil", "dok", "bsr"])
def test_other_sparse_formats(fmt):
    rng = np.random.default_rng(_ref.seed() + 6)
    X = _ref.random_csr(rng, 8, 12, 0.4)
    np.testing.assert_array_equal(gxbdist.pairwise_distances(X.asformat(fmt), metric="cosine"),
                                  gxbdist.pairwise_distances(X, metric="cosine"))


def test_noncanonical_csr_duplicates_summed_unsorted_ok():
    # row 0: column 2 twice (1 + 2 = 3) and columns out of order
    X = sp.csr_matrix((np.array([1.0, 5.0, 2.0]), np.array([2, 0, 2]), np.array([0, 3, 3])),
                      shape=(2, 4))
    assert not X.has_canonical_format
    D = gxbdist.pairwise_distances(X, metric="manhattan")
    assert D[0, 1] == 8.0


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("metric", ["euclidean", "cosine", "manhattan", "chebyshev",
                                    "jaccard", "dot", "hellinger", "minkowski"])
def test_masked(metric, dtype):
    rng = np.random.default_rng(_ref.seed() + 7)
    nonneg = metric == "hellinger"
    X = _ref.random_csr(rng, 21, 30, 0.2, nonneg=nonneg, empty_rows=(4,), dtype=dtype)
    Y = _ref.random_csr(rng, 15, 30, 0.2, nonneg=nonneg, dtype=dtype)
    kw = {"p": 3} if metric == "minkowski" else {}
    M = sp.random(21, 15, density=0.3, format="coo", random_state=rng)
    M.data[:5] = 0                          # explicit zeros are in the pattern
    M = sp.coo_matrix((np.r_[M.data, 1.0], (np.r_[M.row, M.row[0]], np.r_[M.col, M.col[0]])),
                      shape=M.shape)        # a duplicate too
    C = gxbdist.pairwise_distances(X, Y, metric, mask=M, **kw)
    assert isinstance(C, sp.csr_matrix) and C.shape == (21, 15) and C.dtype == dtype
    P = M.tocsr()
    P.sum_duplicates()
    assert C.has_sorted_indices
    np.testing.assert_array_equal(C.indptr, P.indptr)
    np.testing.assert_array_equal(C.indices, P.indices)
    ref = _ref.reference(metric, X, Y, kw.get("p"))
    rows = np.repeat(np.arange(21), np.diff(C.indptr))
    S = _ref.scale(metric, X, Y)
    S = S[rows, C.indices] if np.ndim(S) else S
    _ref.assert_close(C.data, ref[rows, C.indices], _ref.RTOL[np.dtype(dtype)], S, metric)
    # a dense boolean mask: its nonzeros
    Cd = gxbdist.pairwise_distances(X, Y, metric, mask=P.toarray() != 0, **kw)
    assert Cd.nnz == np.count_nonzero(P.toarray())
    # an empty mask: nothing computed
    assert gxbdist.pairwise_distances(X, Y, metric, mask=sp.csr_matrix((21, 15)), **kw).nnz == 0


def test_n_jobs_does_not_change_results():
    rng = np.random.default_rng(_ref.seed() + 8)
    X = _ref.random_csr(rng, 40, 50, 0.2)
    a = gxbdist.pairwise_distances(X, metric="canberra", n_jobs=1)
    b = gxbdist.pairwise_distances(X, metric="canberra", n_jobs=-1)
    np.testing.assert_array_equal(a, b)


def test_verify_mode_passes():
    rng = np.random.default_rng(_ref.seed() + 9)
    X = _ref.random_csr(rng, 10, 20, 0.3)
    for metric in ("euclidean", "cosine", "chebyshev", "jensenshannon"):
        Xm = abs(X) if metric == "jensenshannon" else X
        np.testing.assert_array_equal(gxbdist.pairwise_distances(Xm, metric=metric, verify=True),
                                      gxbdist.pairwise_distances(Xm, metric=metric))


# ---------------------------------------------------------------------------
# the bundled data
# ---------------------------------------------------------------------------

K_DEPENDENT = {"hamming", "russellrao", "sokalmichener", "correlation"}   # k enters the formula


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("metric,params", CASES, ids=IDS)
def test_fortunes(metric, params, dtype):
    """Rows of data/fortunes.mtx.gz (word counts; three empty rows among
    them).  Metrics that do not depend on k are compared on the columns the
    rows use (the others contribute nothing); hamming, russellrao,
    sokalmichener and correlation on all 15,639 columns."""
    F = _ref.fortunes()
    xi = np.r_[np.arange(0, 60), [417, 472]]
    yi = np.r_[np.arange(3000, 3100), [641]]
    X, Y = F[xi].astype(dtype), F[yi].astype(dtype)
    D = gxbdist.pairwise_distances(X, Y, metric, **params)
    if metric not in K_DEPENDENT:
        used = np.unique(np.r_[X.indices, Y.indices])
        X, Y = X[:, used], Y[:, used]
    _check(metric, params, X, Y, D, dtype, "fortunes %s" % metric)


def test_export_paths_missing_entries_and_iso():
    """The hand-over of results that the metrics do not produce today but
    GraphBLAS may: an iso matrix (every value equal: one value stored) and
    a matrix without every entry (dense export fills 0)."""
    from gxbdist import _lib
    P = sp.csr_matrix(np.array([[1, 0, 1], [1, 1, 1]]))
    F = sp.csr_matrix(np.ones((2, 3)))
    for dtype in DTYPES:
        dt = np.dtype(dtype)
        with _lib.import_csr(F.indptr, F.indices, None, F.shape, dt) as M:   # iso, full
            D = _lib.export_dense(M, 2, 3)
        assert D.dtype == dt and D.tolist() == [[1, 1, 1], [1, 1, 1]]
        with _lib.import_csr(P.indptr, P.indices, None, P.shape, dt) as M:   # iso, 5 of 6
            D = _lib.export_dense(M, 2, 3)
        assert D.tolist() == [[1, 0, 1], [1, 1, 1]]
        with _lib.import_csr(P.indptr, P.indices, None, P.shape, dt) as M:
            indptr, indices, data, shape, jumbled = _lib.export_csr(M)
        assert shape == (2, 3) and data.dtype == dt and data.tolist() == [1] * 5 and not jumbled
        assert indptr.tolist() == [0, 2, 5] and indices.tolist() == [0, 2, 0, 1, 2]


def test_same_object_for_x_and_y():
    rng = np.random.default_rng(_ref.seed() + 10)
    X = _ref.random_csr(rng, 9, 7, 0.5)
    np.testing.assert_array_equal(gxbdist.pairwise_distances(X, X, "canberra"),
                                  gxbdist.pairwise_distances(X, X.copy(), "canberra"))
