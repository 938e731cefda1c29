# SPDX-License-Identifier: Apache-2.0
"""Every error path: the exception class, the GrB_Info it carries, gxbdist's
message; and that the library keeps working after each."""

import numpy as np
import pytest
import scipy.sparse as sp

import gxbdist
from gxbdist import _lib

X = sp.csr_matrix(np.array([[1.0, -2, 0], [0, 3, 1], [2, 0, 0]]))
XP = abs(X)


def _still_works():
    D = gxbdist.pairwise_distances(X, metric="manhattan")
    assert D[0, 1] == 7


def test_unknown_metric_names_the_available_ones():
    for f in (lambda: gxbdist.pairwise_distances(X, metric="mahalanobis"),
              lambda: gxbdist.kneighbors(X, n_neighbors=1, metric="nan_euclidean"),
              lambda: gxbdist.kneighbors_graph(X, 1, metric="haversine"),
              lambda: gxbdist.radius_neighbors_graph(X, 1.0, metric="wminkowski"),
              lambda: gxbdist.NearestNeighbors(metric="seuclidean").fit(X)):
        with pytest.raises(ValueError, match="available metrics: .*euclidean.*"):
            f()
    with pytest.raises(ValueError, match="not <function"):
        gxbdist.pairwise_distances(X, metric=lambda a, b: 0.0)
    _still_works()


def test_bad_metric_parameters():
    for p in (0, -1, "x", None):
        with pytest.raises(ValueError, match="minkowski: p must be"):
            gxbdist.pairwise_distances(X, metric="minkowski", p=p)
    with pytest.raises(ValueError, match="takes no parameter 'w'"):
        gxbdist.pairwise_distances(X, metric="minkowski", p=3, w=np.ones(3))
    with pytest.raises(ValueError, match="takes no parameter 'p'"):
        gxbdist.pairwise_distances(X, metric="cosine", p=3)
    with pytest.raises(ValueError, match="minkowski: p must be"):
        gxbdist.NearestNeighbors(p=0).fit(X)
    _still_works()


def test_dimension_mismatch_is_gxbdists_value_error():
    with pytest.raises(gxbdist.GxbdistValueError) as e:
        gxbdist.pairwise_distances(X, sp.csr_matrix((2, 4)))
    assert isinstance(e.value, ValueError)
    assert e.value.info == -6 and e.value.info_name == "GrB_DIMENSION_MISMATCH"
    assert "GxB_mxm_distance: A has 3 columns but B has 4" in str(e.value)
    with pytest.raises(ValueError, match="X has 4 features"):
        gxbdist.kneighbors(sp.csr_matrix((2, 4)), X, n_neighbors=1)
    _still_works()


@pytest.mark.parametrize("metric", ["hellinger", "jensenshannon", "kl_divergence"])
def test_domain_error_negative_input(metric):
    with pytest.raises(gxbdist.GxbdistValueError) as e:
        gxbdist.pairwise_distances(X, metric=metric)
    assert e.value.info == -3
    assert "needs non-negative input" in str(e.value) and "A(0,1) = -2" in str(e.value)
    with pytest.raises(ValueError, match="non-negative"):
        gxbdist.kneighbors(X, n_neighbors=1, metric=metric)
    with pytest.raises(ValueError, match="non-negative"):
        gxbdist.radius_neighbors_graph(X, 1.0, metric=metric)
    with pytest.raises(ValueError, match="non-negative"):
        gxbdist.pairwise_distances(X, metric=metric, mask=sp.eye(3))
    assert gxbdist.pairwise_distances(XP, metric=metric).shape == (3, 3)


def test_nan_and_inf_rejected_as_check_array_does():
    for bad, what in ((np.nan, "NaN"), (np.inf, "infinity"), (-np.inf, "infinity")):
        A = X.toarray()
        A[1, 1] = bad
        for arg in (A, sp.csr_matrix(A)):
            with pytest.raises(ValueError, match="Input X contains %s" % what):
                gxbdist.pairwise_distances(arg)
            with pytest.raises(ValueError, match="Input Y contains %s" % what):
                gxbdist.pairwise_distances(X, arg)
            with pytest.raises(ValueError, match="contains %s" % what):
                gxbdist.kneighbors_graph(arg, 1)
            with pytest.raises(ValueError, match="contains %s" % what):
                gxbdist.NearestNeighbors().fit(arg)
    # opting out of the check here: the library itself refuses NaN and
    # infinity for every metric (docs/metrics.md), naming the entry
    A = X.toarray()
    A[1, 1] = np.nan
    with pytest.raises(ValueError, match=r"needs finite input, but A\(1,1\) = nan"):
        gxbdist.pairwise_distances(A, metric="manhattan", force_all_finite="allow-nan")
    A[1, 1] = np.inf
    with pytest.raises(ValueError, match="infinity"):
        gxbdist.pairwise_distances(A, force_all_finite="allow-nan")
    with pytest.raises(ValueError, match=r"needs finite input, but A\(1,1\) = inf"):
        gxbdist.pairwise_distances(A, metric="chebyshev", force_all_finite=False)
    with pytest.raises(ValueError, match="needs finite input"):
        gxbdist.kneighbors_graph(A, 1, force_all_finite=False)
    with pytest.raises(ValueError, match="force_all_finite"):
        gxbdist.pairwise_distances(X, force_all_finite="sometimes")
    # a float64 value past float32's range, asked for in float32
    B = X.toarray()
    B[0, 0] = 1e300
    with pytest.raises(ValueError, match="too large for dtype\\('float32'\\)"):
        gxbdist.pairwise_distances(B, dtype=np.float32)
    _still_works()


def test_shapes_and_types_rejected():
    pd = gxbdist.pairwise_distances
    cases = [
        (np.ones(3), "Expected 2D array, got 1D array"),
        (np.float64(2.0), "Expected 2D array, got scalar array"),
        (np.ones((2, 2, 2)), "Expected 2D array, got 3D array"),
        (np.ones((0, 3)), "Found array with 0 sample"),
        (sp.csr_matrix((0, 3)), "Found array with 0 sample"),
        (np.ones((3, 0)), "Found array with 0 feature"),
        (np.ones((2, 2), dtype=complex), "Complex data not supported"),
        (sp.csr_matrix(np.ones((2, 2), dtype=complex)), "Complex data not supported"),
        (np.array([["a", "b"]]), "dtype <U1"),
        (np.array([[1, "b"]], dtype=object), "could not be converted to float"),
        (None, "Input X is None"),
    ]
    for arg, msg in cases:
        with pytest.raises(ValueError, match=msg):
            pd(arg)
    with pytest.raises(ValueError, match="dtype must be float32, float64"):
        pd(X, dtype=np.int32)
    with pytest.raises(ValueError, match="mask has shape"):
        pd(X, mask=sp.eye(4))
    _still_works()


def test_backend_errors():
    with pytest.raises(ValueError, match="backend must be 'auto', 'cpu' or 'gpu'"):
        gxbdist.pairwise_distances(X, backend="tpu")
    assert gxbdist.pairwise_distances(X, backend="cpu")[0, 0] == 0
    if gxbdist.active_backend() == "cpu":
        with pytest.raises(gxbdist.GxbdistRuntimeError) as e:
            gxbdist.pairwise_distances(X, backend="gpu")
        assert isinstance(e.value, RuntimeError) and e.value.info == -8
        assert "no usable GPU" in str(e.value)
        with pytest.raises(RuntimeError):
            gxbdist.kneighbors(X, n_neighbors=1, backend="gpu")
    _still_works()


def test_neighbor_argument_errors():
    with pytest.raises(ValueError, match="Expected n_neighbors > 0. Got 0"):
        gxbdist.kneighbors(X, n_neighbors=0)
    with pytest.raises(ValueError, match="Expected n_neighbors > 0"):
        gxbdist.kneighbors_graph(X, -1)
    for k in (2.5, True, "2", None):
        with pytest.raises(TypeError, match="n_neighbors does not take"):
            gxbdist.kneighbors(X, n_neighbors=k)
    with pytest.raises(ValueError, match="n_samples_fit = 3, n_neighbors = 4"):
        gxbdist.kneighbors(X, X, n_neighbors=4)
    # the fitted data itself: each point is left out, so k < n
    with pytest.raises(ValueError, match="Expected n_neighbors < n_samples_fit"):
        gxbdist.kneighbors(X, n_neighbors=3)
    assert gxbdist.kneighbors(X, X, n_neighbors=3)[1].shape == (3, 3)
    with pytest.raises(ValueError, match="Unsupported mode"):
        gxbdist.kneighbors_graph(X, 1, mode="weights")
    with pytest.raises(ValueError, match="Unsupported mode"):
        gxbdist.radius_neighbors_graph(X, 1.0, mode="weights")
    with pytest.raises(ValueError, match="radius must be a number, not NaN"):
        gxbdist.radius_neighbors_graph(X, np.nan)
    with pytest.raises(TypeError, match="radius must be a real number"):
        gxbdist.radius_neighbors_graph(X, "1")
    # no distance is negative (scikit-learn refuses such a radius too); for
    # dot, a similarity, the radius is the least one kept, of any sign
    for metric in ("euclidean", "cosine", "minkowski"):
        with pytest.raises(ValueError, match="radius must be >= 0 for a distance"):
            gxbdist.radius_neighbors_graph(X, -0.5, metric=metric)
    with pytest.raises(ValueError, match="radius must be >= 0 for a distance"):
        gxbdist.NearestNeighbors(radius=-1.0).fit(X).radius_neighbors()
    G = gxbdist.radius_neighbors_graph(X, -1e300, metric="dot", mode="distance")
    assert G.nnz == 3 * 2
    nn = gxbdist.NearestNeighbors(n_neighbors=1).fit(X)
    with pytest.raises(ValueError, match="return_distance must be True"):
        nn.radius_neighbors(return_distance=False, sort_results=True)
    with pytest.raises(ValueError, match="algorithm must be one of"):
        gxbdist.NearestNeighbors(algorithm="lsh").fit(X)
    with pytest.raises(ValueError, match="n_jobs == 0"):
        gxbdist.pairwise_distances(X, n_jobs=0)
    _still_works()


def test_verify_failure_is_verify_error(monkeypatch):
    """GxB_VERIFY_FAILED from the C library becomes gxbdist.VerifyError, a
    RuntimeError carrying the code.  The library gives a wrong result only
    through a test hook that libgxbdist.so does not export (the C suites
    test_verify and test_neighbors use it, and check that verify mode
    catches it and names the metric), so the call here runs for real and
    its status is replaced by GxB_VERIFY_FAILED."""
    real = _lib.GxB_mxm_distance

    def failing(*args):
        assert real(*args) == 0
        return _lib.GxB_VERIFY_FAILED

    monkeypatch.setattr(_lib, "GxB_mxm_distance", failing)
    with pytest.raises(gxbdist.VerifyError) as e:
        gxbdist.pairwise_distances(X, metric="manhattan", verify=True)
    monkeypatch.undo()
    assert isinstance(e.value, RuntimeError) and e.value.info == -2001
    assert "GxB_VERIFY_FAILED" in str(e.value)
    _still_works()


def test_out_of_memory_is_memory_error():
    """A 10^6 x 10^6 dense result (8 TB): GrB_OUT_OF_MEMORY, at once."""
    E = sp.csr_matrix((1000000, 1))
    with pytest.raises(gxbdist.GxbdistMemoryError) as e:
        gxbdist.pairwise_distances(E, E)
    assert isinstance(e.value, MemoryError) and e.value.info == -102
    assert "1000000 x 1000000" in str(e.value)
    _still_works()


def test_every_info_maps_to_its_class():
    for info in (-2, -3, -4, -5, -6, -105, -106):
        assert isinstance(_lib.error_for(info, "m"), ValueError), info
    assert isinstance(_lib.error_for(-102, "m"), MemoryError)
    for info in (-1, -7, -8, -101, -103, -104, 1):
        e = _lib.error_for(info, "m")
        assert isinstance(e, RuntimeError) and not isinstance(e, ValueError), info
    assert isinstance(_lib.error_for(-2001, "m"), gxbdist.VerifyError)
    # a GraphBLAS call's failure names the call and the code
    with pytest.raises(gxbdist.GxbdistValueError, match="GrB_Matrix_nvals failed "
                                                         "\\(GrB_NULL_POINTER\\)"):
        _lib.check(-2, "GrB_Matrix_nvals", gxbdist_call=False)


def test_version_is_the_librarys():
    """The package's version is the C library's it is written against."""
    assert gxbdist.__version__ == gxbdist.library_version()
    int_parts = [int(x) for x in gxbdist.__version__.split(".")]
    assert len(int_parts) == 3
