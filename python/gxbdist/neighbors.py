# SPDX-License-Identifier: Apache-2.0
"""gxbdist.neighbors: k nearest neighbors and radius graphs, shaped like
scikit-learn's (sklearn.neighbors.NearestNeighbors, kneighbors_graph,
radius_neighbors_graph), on GxB_kNN and GxB_radius_graph.

Conventions (those of gxbdist, which scikit-learn's brute force follows up
to the order of ties):
- the neighbors of a row are sorted by distance, ties to the smaller index
  (scikit-learn's argsort leaves the order of ties unspecified);
- for "dot" (a similarity) nearest means largest;
- querying the fitted data itself (X=None) excludes each point from its own
  neighbors: exactly the pair (i, i) is dropped (scikit-learn drops i when
  it is among the k+1 nearest, else the first of them);
- radius: every pair at distance <= radius (>= radius for dot).
"""

import numbers
import sys
import time

import numpy as np
import scipy.sparse as sp

from . import _check, _lib, _metrics
from .pairwise import _Operands
from .pairwise import _import as _pairwise_import

try:
    from sklearn.exceptions import NotFittedError
except ImportError:  # pragma: no cover
    class NotFittedError(ValueError, AttributeError):
        """The estimator is used before fit."""


# ---------------------------------------------------------------------------
# the two C calls
# ---------------------------------------------------------------------------

def _neighbors_csr(Qc, Fc, exclude_self, k, radius, metric, params, dt, backend,
                   verify, n_jobs, F_held=None):
    """GxB_kNN (k > 0) or GxB_radius_graph (k = 0) of the rows of Qc (the
    queries) against the rows of Fc (the fitted data; one GrB_Matrix when Qc
    is Fc; F_held: Fc's GrB_Matrix, already made); exclude_self: each point
    left out of its own neighbors.  Returns
    export_csr's tuple (a kNN's rows in neighbor order when it says
    jumbled, else sorted by column) and whether larger is nearer."""
    m, n = Qc.shape[0], Fc.shape[0]
    with _metrics.resolve(metric, params, dt) as met, \
            _Operands(Qc, None if Qc is Fc else Fc, dt, F_held) as ops, \
            _lib.new_matrix(dt, m, n) as C, \
            _lib.Descriptor(exclude_self=exclude_self) as D:
        if k > 0:
            _lib.run(_lib.GxB_kNN, (C.h, None, met.semiring, k, ops.A.h, ops.B.h, D.h),
                     "GxB_kNN", backend, verify, n_jobs)
        else:
            _lib.run(_lib.GxB_radius_graph,
                     (C.h, None, met.semiring, float(radius), ops.A.h, ops.B.h, D.h),
                     "GxB_radius_graph", backend, verify, n_jobs)
        return _lib.export_csr(C, keep_order=k > 0), met.largest


def _by_distance(indptr, indices, data, m, k, largest, jumbled):
    """Rows of k entries -> (m, k) arrays sorted by distance, ties to the
    smaller column.  GxB_kNN hands its rows over in that order (jumbled, in
    GraphBLAS's terms); rows sorted by column get a stable sort."""
    if indptr[m] != m * k or (m and not (np.diff(indptr) == k).all()):
        raise _lib.GxbdistRuntimeError(
            "GxB_kNN returned rows of other than %d neighbors" % k)
    vals = data.reshape(m, k)
    cols = indices.reshape(m, k).astype(np.intp, copy=False)
    if k == 1:
        return vals, cols
    if jumbled:
        # the distances' order is checked; the ties' order is GxB_kNN's
        # contract (tested), not checked again on every call
        nxt, prv = vals[:, 1:], vals[:, :-1]
        if ((nxt <= prv) if largest else (nxt >= prv)).all():
            return vals, cols
        order = np.lexsort((cols, -vals if largest else vals), axis=1)
    else:
        order = np.argsort(-vals if largest else vals, axis=1, kind="stable")
    return np.take_along_axis(vals, order, 1), np.take_along_axis(cols, order, 1)


def _object_array(arrays):
    """A 1-D object array of arrays (of any lengths, equal ones included)."""
    out = np.empty(len(arrays), dtype=object)
    for i, a in enumerate(arrays):
        out[i] = a
    return out


def _check_mode(mode):
    if mode not in ("connectivity", "distance"):
        raise ValueError('Unsupported mode, must be one of "connectivity", or '
                         '"distance" but got "%s" instead' % (mode,))


def _check_radius(radius):
    if isinstance(radius, (bool, np.bool_)) or not isinstance(radius, numbers.Real):
        raise TypeError("radius must be a real number, not %r" % (radius,))
    if radius != radius:
        raise ValueError("radius must be a number, not NaN")
    return float(radius)


# ---------------------------------------------------------------------------
# progress: the queries in blocks of rows
# ---------------------------------------------------------------------------

# The library has no progress callback, so a query with progress runs it on
# blocks of rows and reports after each: the first block this many rows,
# the next ones sized to take about _BLOCK_SECONDS at the last one's rate,
# growing at most 4x at a time (the first call's rate includes set-up).
# Each row's neighbors do not depend on the other rows, so the blocks give
# the bits one call gives.
_FIRST_BLOCK = 256
_BLOCK_SECONDS = 0.5


def _text_bar(stream=None):
    """A progress(done, total) that draws a bar with the rate and the time
    left on stream (sys.stderr), and ends its line when done == total."""
    stream = sys.stderr if stream is None else stream
    t0 = time.perf_counter()

    def report(done, total):
        dt = max(time.perf_counter() - t0, 1e-9)
        rate = done / dt
        left = (total - done) / rate if rate > 0 else float("inf")
        filled = int(30 * done / total) if total else 30
        stream.write("\rgxbdist [%s%s] %d/%d rows, %.0f rows/s, %.1f s left "
                     % ("#" * filled, "." * (30 - filled), done, total, rate, left))
        if done >= total:
            stream.write("\n")
        stream.flush()
    return report


def _reporter(progress):
    if progress is None or progress is False:
        return None
    if progress is True:
        return _text_bar()
    if callable(progress):
        return progress
    raise ValueError("progress must be None, True or a callable (done, total), "
                     "not %r" % (progress,))


def _in_blocks(m, report, compute):
    """compute(r0, r1) over blocks of the m rows, report(r1, m) after each;
    the blocks' results in order."""
    out, r0, nr = [], 0, _FIRST_BLOCK
    while r0 < m:
        r1 = min(m, r0 + nr)
        t = time.perf_counter()
        out.append(compute(r0, r1))
        dt = time.perf_counter() - t
        report(r1, m)
        nb = r1 - r0
        nr = max(1, min(4 * nb, int(nb * _BLOCK_SECONDS / max(dt, 1e-6))))
        r0 = r1
    return out


def _drop_self_knn(dist, ind, r0, k):
    """Rows r0.. of a self-query, each with its k+1 nearest: without the
    point itself where it is among them, else without the last, which is
    what excluding it from the candidates gives (k best of the others)."""
    hit = ind == (np.arange(ind.shape[0]) + r0)[:, None]
    drop = np.where(hit.any(axis=1), hit.argmax(axis=1), ind.shape[1] - 1)
    keep = np.ones(ind.shape, dtype=bool)
    keep[np.arange(ind.shape[0]), drop] = False
    return dist[keep].reshape(-1, k), ind[keep].reshape(-1, k)


def _drop_self_csr(indptr, indices, data, r0):
    """The CSR rows r0.. of a self-query without their pairs (i, r0+i)."""
    rows = np.repeat(np.arange(len(indptr) - 1), np.diff(indptr))
    keep = indices != rows + r0
    counts = np.bincount(rows[keep], minlength=len(indptr) - 1)
    return (np.concatenate(([0], np.cumsum(counts))), indices[keep], data[keep])


# ---------------------------------------------------------------------------
# the estimator
# ---------------------------------------------------------------------------

_PARAM_NAMES = ("n_neighbors", "radius", "algorithm", "leaf_size", "metric", "p",
                "metric_params", "n_jobs", "backend", "dtype", "verify",
                "force_all_finite", "progress")


class NearestNeighbors:
    """Unsupervised nearest neighbors, as sklearn.neighbors.NearestNeighbors
    (brute force: exact, whatever `algorithm` says), computed by gxbdist.

    Parameters: scikit-learn's (n_neighbors=5, radius=1.0, algorithm,
    leaf_size (both accepted and ignored), metric="minkowski", p=2,
    metric_params=None, n_jobs=None: OpenMP threads) and gxbdist's (backend,
    dtype, verify, force_all_finite: see gxbdist.pairwise_distances;
    progress: None (default), True for a bar on stderr with the rate and
    the time left, or a callable progress(rows_done, rows_total), called
    after each block of query rows: a query then runs in blocks of rows,
    with the same result).
    get_params / set_params make it work with sklearn.base.clone and
    model selection.

    fit keeps the data as scikit-learn does; the first query (of each
    dtype) copies it into GraphBLAS once, and later queries reuse that
    copy: to change the data, fit again.  The estimator pickles without
    the copy.
    """

    def __init__(self, *, n_neighbors=5, radius=1.0, algorithm="auto", leaf_size=30,
                 metric="minkowski", p=2, metric_params=None, n_jobs=None,
                 backend="auto", dtype=None, verify=False, force_all_finite=True,
                 progress=None):
        self.n_neighbors = n_neighbors
        self.radius = radius
        self.algorithm = algorithm
        self.leaf_size = leaf_size
        self.metric = metric
        self.p = p
        self.metric_params = metric_params
        self.n_jobs = n_jobs
        self.backend = backend
        self.dtype = dtype
        self.verify = verify
        self.force_all_finite = force_all_finite
        self.progress = progress

    # -- scikit-learn's estimator protocol ---------------------------------

    def get_params(self, deep=True):
        return {name: getattr(self, name) for name in _PARAM_NAMES}

    def set_params(self, **params):
        for name, value in params.items():
            if name not in _PARAM_NAMES:
                raise ValueError("Invalid parameter %r for estimator %s. Valid "
                                 "parameters are: %s." % (name, type(self).__name__,
                                                          sorted(_PARAM_NAMES)))
            setattr(self, name, value)
        return self

    def __repr__(self):
        defaults = NearestNeighbors().get_params()
        changed = ["%s=%r" % (k, v) for k, v in self.get_params().items()
                   if not (v is defaults[k] or (type(v) is type(defaults[k]) and v == defaults[k]))]
        return "%s(%s)" % (type(self).__name__, ", ".join(changed))

    def _more_tags(self):
        return {"allow_nan": False, "requires_y": False}

    # -- fit ---------------------------------------------------------------

    def _effective_metric(self):
        """(metric, params) as scikit-learn's effective_metric_ /
        effective_metric_params_ (minkowski p=1, 2, inf -> manhattan,
        euclidean, chebyshev)."""
        params = dict(self.metric_params or {})
        metric = self.metric
        if isinstance(metric, str) and metric.lower() == "minkowski":
            p = params.pop("p", self.p)
            if p is None:
                p = 2
            if p == 1:
                metric = "manhattan"
            elif p == 2:
                metric = "euclidean"
            elif p == np.inf:
                metric = "chebyshev"
            else:
                params["p"] = p
        _metrics.canonical(metric, params)
        return metric, params

    def fit(self, X, y=None):
        if self.algorithm not in ("auto", "brute", "ball_tree", "kd_tree"):
            raise ValueError("algorithm must be one of 'auto', 'ball_tree', "
                             "'kd_tree', 'brute', not %r" % (self.algorithm,))
        if self.n_neighbors is not None:
            _check.check_int(self.n_neighbors, "n_neighbors")
        metric, params = self._effective_metric()
        dt = _check.result_dtype(X, None, self.dtype) if self.dtype is not None else None
        self._fit_X = _check.as_csr(X, "X", self.force_all_finite, dt)
        self._fit_held = {}
        self.n_samples_fit_, self.n_features_in_ = self._fit_X.shape
        self.effective_metric_ = metric
        self.effective_metric_params_ = params
        self._fit_method = "brute"
        return self

    def _fitted(self):
        if not hasattr(self, "_fit_X"):
            raise NotFittedError(
                "This %s instance is not fitted yet. Call 'fit' with appropriate "
                "arguments before using this estimator." % type(self).__name__)

    def _query(self, X):
        """(query CSR, same) for a query X (None: the fitted data, each
        point excluded from its own neighbors)."""
        if X is None:
            return self._fit_X, True
        if X is self._fit_X:
            return X, False
        return _check.as_csr(X, "X", self.force_all_finite,
                             _check.result_dtype(X, self._fit_X, self.dtype)), False

    def _call(self, Qc, same, k, radius):
        dt = _check.result_dtype(Qc, self._fit_X, self.dtype)
        if Qc.shape[1] != self._fit_X.shape[1]:
            raise ValueError("X has %d features, but %s is expecting %d features as "
                             "input." % (Qc.shape[1], type(self).__name__,
                                         self._fit_X.shape[1]))
        return _neighbors_csr(Qc, self._fit_X, same, k, radius, self.effective_metric_,
                              self.effective_metric_params_, dt, self.backend,
                              self.verify, self.n_jobs, self._fitted_matrix(dt))

    def _fitted_matrix(self, dt):
        """The fitted data as a GrB_Matrix of dtype dt, made at the first
        query of that dtype and kept (queries then pass it to GraphBLAS as
        it is, without a copy of the data each time)."""
        held = self.__dict__.setdefault("_fit_held", {})
        M = held.get(dt)
        if M is None:
            M = held[dt] = _pairwise_import(self._fit_X, dt)
        return M

    def __getstate__(self):
        # the GraphBLAS copies are not pickled; queries make them again
        state = dict(self.__dict__)
        state.pop("_fit_held", None)
        return state

    # -- k nearest ---------------------------------------------------------

    def kneighbors(self, X=None, n_neighbors=None, return_distance=True):
        """(distances, indices), each (n_queries, n_neighbors), nearest first
        (ties to the smaller index); X=None: the fitted data, each point
        excluded from its own neighbors."""
        self._fitted()
        k = self.n_neighbors if n_neighbors is None else n_neighbors
        k = _check.check_int(k, "n_neighbors")
        Qc, same = self._query(X)
        n = self.n_samples_fit_
        if same and k >= n:
            raise ValueError(
                "Expected n_neighbors < n_samples_fit when querying the fitted data "
                "(each point is left out of its own neighbors), but n_samples_fit = "
                "%d, n_neighbors = %d" % (n, k))
        if k > n:
            raise ValueError("Expected n_neighbors <= n_samples_fit, but "
                             "n_samples_fit = %d, n_neighbors = %d" % (n, k))
        report = _reporter(self.progress)
        if report is None or Qc.shape[0] <= _FIRST_BLOCK:
            dist, ind = self._knn_rows(Qc, same, k)
            if report is not None:
                report(Qc.shape[0], Qc.shape[0])
        else:
            def block(r0, r1):
                if not same:
                    return self._knn_rows(Qc[r0:r1], False, k)
                # the block's own numbering is not the fitted data's: one
                # more neighbor, and the point itself taken out here
                d, i = self._knn_rows(Qc[r0:r1], False, k + 1)
                return _drop_self_knn(d, i, r0, k)
            parts = _in_blocks(Qc.shape[0], report, block)
            dist = np.concatenate([d for d, _ in parts])
            ind = np.concatenate([i for _, i in parts])
        return (dist, ind) if return_distance else ind

    def _knn_rows(self, Qc, same, k):
        """(distances, indices) of the k nearest of each row of Qc, sorted."""
        (indptr, indices, data, shape, jumbled), largest = self._call(Qc, same, k, None)
        return _by_distance(indptr, indices, data, shape[0], k, largest, jumbled)

    def kneighbors_graph(self, X=None, n_neighbors=None, mode="connectivity"):
        """A csr_matrix (n_queries, n_samples_fit) as scikit-learn builds it:
        each row's k entries in order of distance, values the distances
        ("distance") or 1.0 ("connectivity")."""
        _check_mode(mode)
        k = self.n_neighbors if n_neighbors is None else n_neighbors
        dist, ind = self.kneighbors(X, k, return_distance=True)
        m, k = ind.shape
        data = np.ones(m * k) if mode == "connectivity" else dist.ravel()
        indptr = np.arange(0, m * k + 1, k)
        return sp.csr_matrix((data, ind.ravel(), indptr), shape=(m, self.n_samples_fit_))

    # -- radius ------------------------------------------------------------

    def _radius_csr(self, X, radius):
        self._fitted()
        r = _check_radius(self.radius if radius is None else radius)
        if r < 0 and _metrics.canonical(self.effective_metric_,
                                        self.effective_metric_params_)[0] != "DOT":
            # (as scikit-learn: no distance is negative; for DOT, a
            # similarity, the radius is the least one kept, of any sign)
            raise ValueError("radius must be >= 0 for a distance, not %r" % (r,))
        Qc, same = self._query(X)
        report = _reporter(self.progress)
        if report is None or Qc.shape[0] <= _FIRST_BLOCK:
            (indptr, indices, data, shape, _), largest = self._call(Qc, same, 0, r)
            if report is not None:
                report(Qc.shape[0], Qc.shape[0])
            return indptr, indices, data, shape, largest

        def block(r0, r1):
            (ip, ind, d, _, _), largest = self._call(Qc[r0:r1], False, 0, r)
            return (_drop_self_csr(ip, ind, d, r0) if same else (ip, ind, d)), largest
        parts = _in_blocks(Qc.shape[0], report, block)
        ends = np.cumsum([0] + [p[0][0][-1] for p in parts[:-1]])
        indptr = np.concatenate([[0]] + [p[0][0][1:] + e for p, e in zip(parts, ends)])
        indices = np.concatenate([p[0][1] for p in parts])
        data = np.concatenate([p[0][2] for p in parts])
        return indptr, indices, data, (Qc.shape[0], self.n_samples_fit_), parts[0][1]

    def radius_neighbors(self, X=None, radius=None, return_distance=True,
                         sort_results=False):
        """(distances, indices): object arrays of one array per query, the
        neighbors within radius in increasing index order (sort_results:
        by distance, ties to the smaller index)."""
        if sort_results and not return_distance:
            raise ValueError("return_distance must be True if sort_results is True.")
        indptr, indices, data, (m, _), largest = self._radius_csr(X, radius)
        ind = np.split(indices.astype(np.intp), indptr[1:-1])
        dist = np.split(data, indptr[1:-1]) if return_distance else None
        if sort_results:
            for i in range(m):
                o = np.argsort(-dist[i] if largest else dist[i], kind="stable")
                dist[i], ind[i] = dist[i][o], ind[i][o]
        neigh_ind = _object_array(ind)
        if not return_distance:
            return neigh_ind
        return _object_array([d.copy() for d in dist]), neigh_ind

    def radius_neighbors_graph(self, X=None, radius=None, mode="connectivity",
                               sort_results=False):
        """A csr_matrix (n_queries, n_samples_fit) of the pairs within
        radius, columns increasing (sort_results: by distance), values the
        distances or 1.0."""
        _check_mode(mode)
        indptr, indices, data, (m, n), largest = self._radius_csr(X, radius)
        if sort_results and mode == "distance":
            rows = np.repeat(np.arange(m), np.diff(indptr))
            key = -data if largest else data
            o = np.lexsort((indices, key, rows))
            indices, data = indices[o], data[o]
        if mode == "connectivity":
            data = np.ones(len(indices))
        return sp.csr_matrix((data, indices, indptr), shape=(m, self.n_samples_fit_))


# ---------------------------------------------------------------------------
# the functions
# ---------------------------------------------------------------------------

def _estimator(X, n_neighbors, radius, metric, p, metric_params, n_jobs, backend,
               dtype, verify, force_all_finite, progress=None):
    if isinstance(X, NearestNeighbors):
        X._fitted()
        return X
    return NearestNeighbors(n_neighbors=n_neighbors, radius=radius, metric=metric, p=p,
                            metric_params=metric_params, n_jobs=n_jobs, backend=backend,
                            dtype=dtype, verify=verify,
                            force_all_finite=force_all_finite, progress=progress).fit(X)


def _query_include_self(est, include_self, mode):
    if include_self == "auto":
        include_self = mode == "connectivity"
    return est._fit_X if include_self else None


def kneighbors_graph(X, n_neighbors, *, mode="connectivity", metric="minkowski", p=2,
                     metric_params=None, include_self=False, n_jobs=None,
                     backend="auto", dtype=None, verify=False, force_all_finite=True,
                     progress=None):
    """sklearn.neighbors.kneighbors_graph: a csr_matrix (n_samples,
    n_samples), row i holding the n_neighbors nearest points of X to point i
    in order of distance (ties to the smaller index); include_self=False
    leaves i itself out, True counts it ("auto": True for connectivity).
    X may be a fitted gxbdist.NearestNeighbors (its own progress then).
    progress: as NearestNeighbors's."""
    _check_mode(mode)
    est = _estimator(X, n_neighbors, 1.0, metric, p, metric_params, n_jobs, backend,
                     dtype, verify, force_all_finite, progress)
    return est.kneighbors_graph(_query_include_self(est, include_self, mode),
                                n_neighbors, mode)


def radius_neighbors_graph(X, radius, *, mode="connectivity", metric="minkowski", p=2,
                           metric_params=None, include_self=False, n_jobs=None,
                           backend="auto", dtype=None, verify=False,
                           force_all_finite=True, progress=None):
    """sklearn.neighbors.radius_neighbors_graph: a csr_matrix (n_samples,
    n_samples) of every pair of points of X at distance <= radius, columns
    in increasing order; include_self and progress as in kneighbors_graph."""
    _check_mode(mode)
    est = _estimator(X, None, radius, metric, p, metric_params, n_jobs, backend,
                     dtype, verify, force_all_finite, progress)
    return est.radius_neighbors_graph(_query_include_self(est, include_self, mode),
                                      radius, mode)


def kneighbors(X, Y=None, n_neighbors=5, metric="euclidean", *, return_distance=True,
               backend="auto", dtype=None, verify=False, force_all_finite=True,
               n_jobs=None, progress=None, **metric_params):
    """For each row of X, its n_neighbors nearest rows of Y:
    NearestNeighbors(...).fit(Y).kneighbors(X).  Y=None: the rows of X
    itself, each row excluded from its own neighbors (fit(X).kneighbors()).
    Returns (distances, indices) of shape (n_rows_X, n_neighbors), nearest
    first, ties to the smaller index (indices only when not
    return_distance); progress as NearestNeighbors's."""
    est = NearestNeighbors(n_neighbors=n_neighbors, metric=metric, p=2,
                           metric_params=metric_params or None, n_jobs=n_jobs,
                           backend=backend, dtype=dtype, verify=verify,
                           force_all_finite=force_all_finite, progress=progress)
    if Y is None:
        est.fit(X)
        return est.kneighbors(None, n_neighbors, return_distance)
    est.fit(Y)
    return est.kneighbors(X, n_neighbors, return_distance)
