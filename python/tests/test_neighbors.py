# SPDX-License-Identifier: Apache-2.0
"""kneighbors, kneighbors_graph, radius_neighbors_graph and NearestNeighbors,
entry for entry against scikit-learn's brute force, and against a stable
sort of gxbdist's own distance matrix (ties to the smaller index, which
GxB_kNN promises and scikit-learn leaves unspecified)."""

import numpy as np
import pytest
import scipy.sparse as sp
import sklearn.neighbors as skn
from sklearn.base import clone
from sklearn.metrics import pairwise_distances as sk_pairwise_distances

import gxbdist
import _ref

ALL = sorted(gxbdist.METRICS)


def _rng(k=0):
    return np.random.default_rng(_ref.seed() + 100 + k)


@pytest.mark.parametrize("metric", ALL)
def test_kneighbors_is_a_stable_sort_of_the_distance_matrix(metric):
    """Bitwise: the k first of each row of pairwise_distances sorted stably
    (integer data, duplicated rows: many exact ties)."""
    rng = _rng(1)
    nonneg = metric in _ref.NONNEGATIVE
    X = _ref.random_csr(rng, 31, 12, 0.3, nonneg=nonneg, integers=True, empty_rows=(2, 9))
    X = sp.vstack([X, X[:4], X[20:21]]).tocsr()
    Y = _ref.random_csr(rng, 9, 12, 0.3, nonneg=nonneg, integers=True)
    largest = metric == "dot"
    for k in (1, 5, X.shape[0] - 1):
        # queries Y against X
        D = gxbdist.pairwise_distances(Y, X, metric)
        dist, ind = gxbdist.kneighbors(Y, X, n_neighbors=k, metric=metric)
        rd, ri = _ref.knn_reference(D, k, largest)
        assert ind.dtype == np.intp and dist.dtype == np.float64
        np.testing.assert_array_equal(ind, ri, err_msg="%s k=%d" % (metric, k))
        np.testing.assert_array_equal(dist, rd)
        # the fitted data itself (Y=None): i left out of its own neighbors
        D = gxbdist.pairwise_distances(X, metric=metric)
        np.fill_diagonal(D, -np.inf if largest else np.inf)
        dist, ind = gxbdist.kneighbors(X, n_neighbors=k, metric=metric)
        rd, ri = _ref.knn_reference(D, k, largest)
        np.testing.assert_array_equal(ind, ri, err_msg="%s Y=None k=%d" % (metric, k))
        np.testing.assert_array_equal(dist, rd)
        assert not (ind == np.arange(X.shape[0])[:, None]).any()


@pytest.mark.parametrize("metric", ["manhattan", "cosine", "dot"])
def test_progress_runs_in_blocks_with_the_same_result(metric, monkeypatch):
    """progress: the queries in blocks of rows, each reported, the result
    equal bit for bit to one call's (self-queries included: the point
    itself is taken out of each block's k+1 or of its radius pairs)."""
    import gxbdist.neighbors as nb
    monkeypatch.setattr(nb, "_FIRST_BLOCK", 7)
    rng = _rng(9)
    X = _ref.random_csr(rng, 60, 10, 0.3, integers=True, empty_rows=(3, 17))
    X = sp.vstack([X, X[:5]]).tocsr()
    Y = _ref.random_csr(rng, 23, 10, 0.3, integers=True)
    calls = []
    plain = gxbdist.NearestNeighbors(n_neighbors=6, metric=metric).fit(X)
    blocks = gxbdist.NearestNeighbors(n_neighbors=6, metric=metric,
                                      progress=lambda d, t: calls.append((d, t))).fit(X)
    for Q in (None, Y):
        for k in (1, 6, X.shape[0] - 1 if Q is None else X.shape[0]):
            calls.clear()
            want = plain.kneighbors(Q, k)
            got = blocks.kneighbors(Q, k)
            m = X.shape[0] if Q is None else Y.shape[0]
            assert len(calls) > 1 and calls[-1] == (m, m)
            assert [d for d, _ in calls] == sorted(d for d, _ in calls)
            for a, b in zip(want, got):
                np.testing.assert_array_equal(a, b, err_msg="%s k=%d" % (metric, k))
        r = 3.0 if metric == "manhattan" else (0.5 if metric == "cosine" else 2.0)
        want = plain.radius_neighbors_graph(Q, r, mode="distance")
        got = blocks.radius_neighbors_graph(Q, r, mode="distance")
        assert (want != got).nnz == 0 and want.nnz == got.nnz
        np.testing.assert_array_equal(want.indptr, got.indptr)
        np.testing.assert_array_equal(want.indices, got.indices)


def test_progress_bar_and_bad_progress(capsys, monkeypatch):
    import gxbdist.neighbors as nb
    monkeypatch.setattr(nb, "_FIRST_BLOCK", 5)
    X = _ref.random_csr(_rng(10), 30, 8, 0.4)
    gxbdist.kneighbors_graph(X, 3, progress=True)
    err = capsys.readouterr().err
    assert "30/30 rows" in err and err.endswith("\n")
    calls = []
    gxbdist.kneighbors_graph(X[:4], 2, progress=lambda d, t: calls.append((d, t)))
    assert calls == [(4, 4)]
    with pytest.raises(ValueError, match="progress"):
        gxbdist.NearestNeighbors(progress="yes").fit(X).kneighbors()


def test_the_fitted_copy_is_reused_and_not_pickled():
    """Queries reuse the fitted data's GraphBLAS copy; a
    pickled estimator leaves it out and makes it again; fit replaces it."""
    import pickle
    rng = _rng(8)
    X = _ref.random_csr(rng, 40, 12, 0.3)
    Y = _ref.random_csr(rng, 7, 12, 0.3)
    nn = gxbdist.NearestNeighbors(n_neighbors=4, metric="manhattan").fit(X)
    first = nn.kneighbors(Y)
    held = nn._fit_held[np.dtype(np.float64)]
    again = nn.kneighbors(Y)
    assert nn._fit_held[np.dtype(np.float64)] is held
    for a, b in zip(first, again):
        np.testing.assert_array_equal(a, b)
    copy = pickle.loads(pickle.dumps(nn))
    assert "_fit_held" not in copy.__dict__
    for a, b in zip(first, copy.kneighbors(Y)):
        np.testing.assert_array_equal(a, b)
    X2 = _ref.random_csr(rng, 40, 12, 0.3)
    nn.fit(X2)
    for a, b in zip(nn.kneighbors(Y),
                    gxbdist.NearestNeighbors(n_neighbors=4, metric="manhattan")
                    .fit(X2).kneighbors(Y)):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("largest", [False, True])
def test_rows_in_any_order_come_out_sorted(largest):
    """GxB_kNN hands its rows over in neighbor order (jumbled); rows in
    column order, or jumbled in another order, are sorted here the same
    way: by distance, ties to the smaller index."""
    from gxbdist.neighbors import _by_distance
    rng = _rng(7)
    m, k = 50, 6
    vals = rng.integers(0, 4, (m, k)).astype(np.float64)
    cols = np.stack([rng.choice(1000, k, replace=False) for _ in range(m)])
    key = -vals if largest else vals
    want = np.lexsort((cols, key), axis=1)
    wd, wi = np.take_along_axis(vals, want, 1), np.take_along_axis(cols, want, 1)
    indptr = np.arange(0, m * k + 1, k)
    bycol = np.argsort(cols, axis=1)
    shuffled = np.argsort(rng.random((m, k)), axis=1)
    for order, jumbled in ((want, True), (bycol, False), (shuffled, True)):
        v = np.take_along_axis(vals, order, 1).ravel()
        c = np.take_along_axis(cols, order, 1).ravel()
        d, i = _by_distance(indptr, c, v, m, k, largest, jumbled)
        np.testing.assert_array_equal(i, wi)
        np.testing.assert_array_equal(d, wd)


SKLEARN = [("euclidean", {}), ("manhattan", {}), ("cosine", {}), ("chebyshev", {}),
           ("minkowski", {"p": 3}), ("canberra", {}), ("braycurtis", {}),
           ("correlation", {}), ("sqeuclidean", {})]


@pytest.mark.parametrize("metric,params", SKLEARN, ids=[m for m, _ in SKLEARN])
def test_kneighbors_matches_scikit_learn(metric, params):
    """Continuous random data: the same indices as scikit-learn's brute
    force except between equal distances (sparse rows give exact ties for
    chebyshev, canberra and braycurtis: a maximum or a count that several
    candidates share), distances within 1e-12 (scikit-learn's euclidean and
    cosine go through dot products, accurate to about 1e-16 of the row
    norms: the absolute floor 1e-15)."""
    rng = _rng(2)
    # braycurtis: scikit-learn's kneighbors divides by sum(|x| + |y|), its
    # pairwise_distances (scipy's) by sum(|x + y|): they agree, and agree
    # with gxbdist, on non-negative data only
    nonneg = metric == "braycurtis"
    F = _ref.random_csr(rng, 60, 25, 0.3, nonneg=nonneg)
    Q = _ref.random_csr(rng, 20, 25, 0.3, nonneg=nonneg)
    F = F[np.diff(F.indptr) > 1]
    Q = Q[np.diff(Q.indptr) > 1]
    dense = metric not in ("euclidean", "manhattan", "cosine")
    Fs, Qs = (F.toarray(), Q.toarray()) if dense else (F, Q)
    nn = skn.NearestNeighbors(n_neighbors=6, algorithm="brute", metric=metric,
                              p=params.get("p", 2)).fit(Fs)
    mine = gxbdist.NearestNeighbors(n_neighbors=6, metric=metric,
                                    metric_params=params or None).fit(F)
    for query_s, query in ((Qs, Q), (None, None)):
        sd, si = nn.kneighbors(query_s)
        gd, gi = mine.kneighbors(query)
        D = sk_pairwise_distances(Fs if query_s is None else query_s, Fs, metric=metric,
                                  **params)
        if query is None:
            np.fill_diagonal(D, np.inf)
        _ref.assert_same_neighbors(gd, gi, D, si, 1e-12, metric, S=1e-3)
        if metric in ("euclidean", "manhattan", "cosine", "minkowski"):
            np.testing.assert_array_equal(gi, si, err_msg=metric)   # no ties there


def test_ties_go_to_the_smaller_index():
    """Integer data, manhattan (exact integer distances in both libraries):
    the expected neighbors are a stable sort of scikit-learn's distances."""
    rng = _rng(3)
    X = rng.integers(0, 3, size=(40, 6)).astype(float)
    X[10] = X[3]
    X[30] = X[3]
    X[31] = X[3]
    D = sk_pairwise_distances(X, metric="manhattan")
    np.fill_diagonal(D, np.inf)
    rd, ri = _ref.knn_reference(D, 7)
    gd, gi = gxbdist.kneighbors(sp.csr_matrix(X), n_neighbors=7, metric="manhattan")
    np.testing.assert_array_equal(gi, ri)
    np.testing.assert_array_equal(gd, rd)
    assert gi[3, :3].tolist() == [10, 30, 31] and gi[31, :3].tolist() == [3, 10, 30]


def test_dot_is_largest_first():
    X = sp.csr_matrix(np.array([[1.0, 0], [2, 0], [3, 0], [-1, 0], [2, 0]]))
    d, i = gxbdist.kneighbors(X[:1], X, n_neighbors=5, metric="dot")
    assert i.tolist() == [[2, 1, 4, 0, 3]] and d.tolist() == [[3, 2, 2, 1, -1]]


def _same_index_kind(G, R):
    """Index arrays of the same kind: scipy picks their width (int32 where
    it fits), and scikit-learn releases differ in whether they keep int64,
    so the width itself is not compared."""
    assert G.indices.dtype.kind == R.indices.dtype.kind == "i"
    assert G.indptr.dtype == G.indices.dtype and R.indptr.dtype == R.indices.dtype


@pytest.mark.parametrize("mode", ["connectivity", "distance"])
@pytest.mark.parametrize("include_self", [False, True, "auto"])
@pytest.mark.parametrize("metric", ["minkowski", "cosine", "manhattan"])
def test_kneighbors_graph_as_scikit_learn_builds_it(mode, include_self, metric):
    rng = _rng(4)
    X = _ref.random_csr(rng, 50, 20, 0.3)
    X = X[np.diff(X.indptr) > 0]
    G = gxbdist.kneighbors_graph(X, 4, mode=mode, metric=metric, include_self=include_self)
    R = skn.kneighbors_graph(X, 4, mode=mode, metric=metric, include_self=include_self)
    assert type(G) is type(R) and G.shape == R.shape
    assert G.dtype == R.dtype
    _same_index_kind(G, R)
    np.testing.assert_array_equal(G.indptr, R.indptr)
    np.testing.assert_array_equal(G.indices, R.indices)     # in order of distance
    np.testing.assert_allclose(G.data, R.data, rtol=1e-12, atol=1e-14)
    assert G.has_sorted_indices == R.has_sorted_indices


def _radius_between(D, q=0.3):
    """A radius half-way between two consecutive distinct distances (no
    pair on the boundary, where d <= r and scikit-learn's d^2 <= r^2 may
    round apart)."""
    v = np.unique(D[D > 0])
    j = int(q * len(v))
    return float((v[j] + v[j + 1]) / 2)


@pytest.mark.parametrize("mode", ["connectivity", "distance"])
@pytest.mark.parametrize("include_self", [False, True])
@pytest.mark.parametrize("metric", ["minkowski", "cosine", "manhattan", "chebyshev"])
def test_radius_neighbors_graph_as_scikit_learn_builds_it(mode, include_self, metric):
    rng = _rng(5)
    X = _ref.random_csr(rng, 45, 20, 0.3)
    X = X[np.diff(X.indptr) > 0]
    Xs = X if metric != "chebyshev" else X.toarray()
    r = _radius_between(gxbdist.pairwise_distances(X, metric=metric))
    G = gxbdist.radius_neighbors_graph(X, r, mode=mode, metric=metric, include_self=include_self)
    R = skn.radius_neighbors_graph(Xs, r, mode=mode, metric=metric, include_self=include_self)
    assert type(G) is type(R) and G.shape == R.shape and G.dtype == R.dtype
    _same_index_kind(G, R)
    np.testing.assert_array_equal(G.indptr, R.indptr)
    np.testing.assert_array_equal(G.indices, R.indices)
    np.testing.assert_allclose(G.data, R.data, rtol=1e-12, atol=1e-14)
    assert 0 < G.nnz < X.shape[0] ** 2


def test_estimator_follows_scikit_learn():
    rng = _rng(6)
    F = _ref.random_csr(rng, 40, 15, 0.4)
    F = F[np.diff(F.indptr) > 0]
    Q = _ref.random_csr(rng, 7, 15, 0.4)
    mine = gxbdist.NearestNeighbors(n_neighbors=3, radius=0.9).fit(F)
    theirs = skn.NearestNeighbors(n_neighbors=3, radius=0.9, algorithm="brute").fit(F)
    assert mine.n_samples_fit_ == theirs.n_samples_fit_
    assert mine.n_features_in_ == theirs.n_features_in_
    assert mine.effective_metric_ == theirs.effective_metric_ == "euclidean"
    for X in (Q, None):
        np.testing.assert_array_equal(mine.kneighbors(X, return_distance=False),
                                      theirs.kneighbors(X, return_distance=False))
        np.testing.assert_array_equal(mine.kneighbors(X, 2)[1], theirs.kneighbors(X, 2)[1])
        for mode in ("connectivity", "distance"):
            a = mine.kneighbors_graph(X, mode=mode)
            b = theirs.kneighbors_graph(X, mode=mode)
            np.testing.assert_array_equal(a.indices, b.indices)
            np.testing.assert_allclose(a.data, b.data, rtol=1e-12)
            for sort_results in (False, True):
                a = mine.radius_neighbors_graph(X, mode=mode, sort_results=sort_results)
                b = theirs.radius_neighbors_graph(X, mode=mode, sort_results=sort_results)
                np.testing.assert_array_equal(a.indptr, b.indptr)
                np.testing.assert_array_equal(a.indices, b.indices)
                np.testing.assert_allclose(a.data, b.data, rtol=1e-12)
        for sort_results in (False, True):
            gd, gi = mine.radius_neighbors(X, sort_results=sort_results)
            sd, si = theirs.radius_neighbors(X, sort_results=sort_results)
            assert gd.dtype == sd.dtype == object and gi.shape == si.shape
            for a, b in zip(gi, si):
                np.testing.assert_array_equal(a, b)
                assert a.dtype == b.dtype
            for a, b in zip(gd, sd):
                np.testing.assert_allclose(a, b, rtol=1e-12)
        ind = mine.radius_neighbors(X, 0.5, return_distance=False)
        for a, b in zip(ind, theirs.radius_neighbors(X, 0.5, return_distance=False)):
            np.testing.assert_array_equal(a, b)
    # minkowski p=1 and p=inf resolve as scikit-learn's
    assert gxbdist.NearestNeighbors(p=1).fit(F).effective_metric_ == "manhattan"
    assert gxbdist.NearestNeighbors(p=np.inf).fit(F).effective_metric_ == "chebyshev"
    m3 = gxbdist.NearestNeighbors(p=3).fit(F)
    assert m3.effective_metric_ == "minkowski" and m3.effective_metric_params_ == {"p": 3}
    # a fitted estimator in place of X, as scikit-learn's functions take one
    np.testing.assert_array_equal(
        gxbdist.kneighbors_graph(mine, 3, mode="distance").toarray(),
        mine.kneighbors_graph(None, 3, mode="distance").toarray())


def test_estimator_protocol_clone_and_params():
    est = gxbdist.NearestNeighbors(n_neighbors=7, metric="cosine", backend="cpu",
                                   dtype=np.float32)
    params = est.get_params()
    assert params["n_neighbors"] == 7 and params["metric"] == "cosine"
    c = clone(est)
    assert c is not est and c.get_params() == params
    assert est.set_params(n_neighbors=3) is est and est.n_neighbors == 3
    with pytest.raises(ValueError, match="Invalid parameter"):
        est.set_params(bogus=1)
    assert "n_neighbors=3" in repr(est)
    with pytest.raises(skn._base.NotFittedError if hasattr(skn._base, "NotFittedError")
                       else ValueError):
        est.kneighbors()
    # a clone of a fitted estimator is not fitted
    F = sp.random(10, 5, density=0.5, format="csr", random_state=0)
    est.fit(F)
    assert not hasattr(clone(est), "_fit_X")
    d, i = est.kneighbors()
    assert d.dtype == np.float32        # dtype=float32 asked for


def test_float32_neighbors():
    rng = _rng(7)
    F = _ref.random_csr(rng, 50, 20, 0.3, dtype=np.float32)
    F = F[np.diff(F.indptr) > 0]
    d32, i32 = gxbdist.kneighbors(F, n_neighbors=4, metric="cosine")
    d64, i64 = gxbdist.kneighbors(F.astype(np.float64), n_neighbors=4, metric="cosine")
    assert d32.dtype == np.float32
    np.testing.assert_allclose(d32, d64, rtol=1e-5, atol=1e-7)
    G = gxbdist.kneighbors_graph(F, 4, mode="distance", metric="cosine")
    assert G.dtype == np.float32


# ---------------------------------------------------------------------------
# the bundled data
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("metric", ["cosine", "euclidean"])
def test_fortunes_kneighbors_against_scikit_learn(metric):
    """302 quotes (two of them empty) against all 15,217: word counts have
    many exact ties, so indices may differ only between equal distances.
    Cosine: two empty rows are at 0 for gxbdist, 1 for scikit-learn
    (docs/python.md); the reference takes gxbdist's rule."""
    F = _ref.fortunes()
    Q = F[np.r_[0:300, 417, 472]]
    D = _fortunes_reference(Q, F, metric)
    k = 15
    dist, ind = gxbdist.kneighbors(Q, F, n_neighbors=k, metric=metric)
    rd, ri = _ref.knn_reference(D, k)
    _ref.assert_same_neighbors(dist, ind, D, ri, 1e-12, "fortunes " + metric,
                               S=1e-7 if metric == "cosine" else 0.0)
    # scikit-learn's own kneighbors (rows that are not empty): the same up to
    # ties and its own rounding (about 1e-16 absolute: the floor 1e-15)
    keep = np.diff(Q.indptr) > 0
    sd, si = skn.NearestNeighbors(n_neighbors=k, metric=metric, algorithm="brute") \
        .fit(F).kneighbors(Q[keep])
    _ref.assert_same_neighbors(dist[keep], ind[keep], D[keep], si, 1e-12,
                               "fortunes sklearn " + metric, S=1e-3)


def _fortunes_reference(Q, F, metric):
    """Exact-integer references for word counts: the dot products and
    squared norms are integers, exact in float64, so the distances are
    correctly rounded up to the last operations (scikit-learn's cosine
    normalises first and leaves about 1e-16 even on identical rows)."""
    S = (Q @ F.T).toarray()
    nq = np.asarray(Q.multiply(Q).sum(axis=1)).ravel()
    nf = np.asarray(F.multiply(F).sum(axis=1)).ravel()
    if metric == "euclidean":
        return np.sqrt(np.maximum(nq[:, None] + nf[None, :] - 2 * S, 0))
    with np.errstate(divide="ignore", invalid="ignore"):
        D = 1 - S / np.sqrt(nq[:, None] * nf[None, :])
    zq, zf = nq == 0, nf == 0        # gxbdist's rule: two empty rows 0, one 1
    D[np.ix_(zq, ~zf)] = 1.0
    D[np.ix_(~zq, zf)] = 1.0
    D[np.ix_(zq, zf)] = 0.0
    return D


def test_fortunes_umap_style_graph():
    """kneighbors_graph (15 neighbors, cosine, distances, self excluded) of
    2,000 quotes, row by row against scikit-learn's, ties allowed."""
    F = _ref.fortunes()[:2000]
    G = gxbdist.kneighbors_graph(F, 15, mode="distance", metric="cosine")
    R = skn.kneighbors_graph(F, 15, mode="distance", metric="cosine")
    np.testing.assert_array_equal(G.indptr, R.indptr)
    D = _fortunes_reference(F, F, "cosine")
    np.fill_diagonal(D, np.inf)
    keep = np.diff(F.indptr) > 0
    _ref.assert_same_neighbors(G.data.reshape(-1, 15)[keep], G.indices.reshape(-1, 15)[keep],
                               D[keep], R.indices.reshape(-1, 15)[keep], 1e-12,
                               "fortunes graph", S=1e-3)


def test_verify_mode_on_neighbors():
    """verify=True: GxB_kNN and GxB_radius_graph check sampled rows against
    the SuiteSparse reference; the results are the same."""
    rng = _rng(8)
    X = _ref.random_csr(rng, 30, 15, 0.3, nonneg=True)
    for metric in ("cosine", "manhattan", "jensenshannon"):
        a = gxbdist.kneighbors(X, n_neighbors=4, metric=metric, verify=True)
        b = gxbdist.kneighbors(X, n_neighbors=4, metric=metric)
        np.testing.assert_array_equal(a[1], b[1])
        np.testing.assert_array_equal(a[0], b[0])
        G = gxbdist.radius_neighbors_graph(X, 0.5, metric=metric, mode="distance", verify=True)
        H = gxbdist.radius_neighbors_graph(X, 0.5, metric=metric, mode="distance")
        assert (G != H).nnz == 0


def test_verify_rows_sample():
    """verify=N checks N sampled rows (0: every row), verify=True the
    library's default sample; bad values are ValueError."""
    import ctypes
    from gxbdist import _lib
    rng = _rng(9)
    X = _ref.random_csr(rng, 80, 12, 0.3, nonneg=True)
    rows = ctypes.c_uint64(0)
    ref = gxbdist.kneighbors(X, n_neighbors=5, metric="chebyshev")
    for verify, want in ((0, 0), (7, 7), (True, _lib._state["default_verify_rows"])):
        got = gxbdist.kneighbors(X, n_neighbors=5, metric="chebyshev", verify=verify)
        np.testing.assert_array_equal(got[1], ref[1])
        _lib.check(_lib.GxB_Distance_get_verify_rows(ctypes.byref(rows)), "get")
        assert rows.value == want
    assert _lib._state["default_verify_rows"] == 64
    for bad in (-1, 2.5, "all"):
        with pytest.raises(ValueError):
            gxbdist.kneighbors(X, n_neighbors=5, metric="chebyshev", verify=bad)
