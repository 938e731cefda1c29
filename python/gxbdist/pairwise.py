# SPDX-License-Identifier: Apache-2.0
"""gxbdist.pairwise: pairwise_distances, shaped like scikit-learn's."""

import numpy as np
import scipy.sparse as sp

from . import _check, _lib, _metrics


def _import(Xc, dtype):
    return _lib.import_csr(Xc.indptr, Xc.indices, Xc.data, Xc.shape, dtype)


class _Operands:
    """The GrB_Matrix objects of X and Y (Y None: B is A itself), freed on
    exit whatever happens; B_held: Y's (or, Y None, X's) GrB_Matrix already
    made by the caller, used as it is and not freed here."""

    def __init__(self, Xc, Yc, dtype, B_held=None):
        self.Aown = self.Bown = None
        if B_held is not None and Yc is None:
            self.A = self.B = B_held
            return
        self.A = self.Aown = _import(Xc, dtype)
        try:
            if B_held is not None:
                self.B = B_held
            elif Yc is not None:
                self.B = self.Bown = _import(Yc, dtype)
            else:
                self.B = self.A
        except BaseException:
            self.Aown.close()
            raise

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self.Bown is not None:
            self.Bown.close()
        if self.Aown is not None:
            self.Aown.close()


def mask_pattern(mask, shape):
    """The pattern of mask as a canonical CSR: the stored entries of a sparse
    matrix (explicit zeros included), the nonzeros of a dense array."""
    if sp.issparse(mask):
        M = mask.tocsr() if mask.format != "csr" else mask
        if not M.has_canonical_format:
            M = M.copy()
            M.sum_duplicates()
    else:
        M = sp.csr_matrix(np.asarray(mask))
    if M.ndim != 2 or M.shape != tuple(shape):
        raise ValueError("mask has shape %s; the result has shape %s"
                         % (M.shape, tuple(shape)))
    return M


def pairwise_distances(X, Y=None, metric="euclidean", *, backend="auto", dtype=None,
                       verify=False, mask=None, force_all_finite=True, n_jobs=None,
                       **metric_params):
    """Distances between the rows of X and the rows of Y (of X when Y is
    None), as sklearn.metrics.pairwise_distances.

    X : scipy.sparse matrix or array-like of shape (m, k)
    Y : same, (n, k), or None
    metric : a name: euclidean, l2, sqeuclidean, cityblock, manhattan, l1,
        chebyshev, infinity, minkowski (p=), cosine, correlation, canberra,
        braycurtis, hamming, jaccard, dice, russellrao, sokalmichener, hellinger,
        jensenshannon, kl_divergence (kl), dot (definitions: docs/metrics.md)
    backend : "auto" (GXBDIST_BACKEND, else GPU when usable), "cpu" or "gpu"
    dtype : float32 or float64; None: float32 when X and Y are both float32
    verify : False; True: recompute the result with the SuiteSparse reference
        and raise gxbdist.VerifyError past the documented tolerance; or a
        number of rows, the sample where verify mode samples (0: every row;
        True: the library's default, 64)
    mask : None, or a sparse (m, n) pattern: only those pairs are computed
        and a scipy.sparse.csr_matrix is returned
    force_all_finite : True (NaN or infinity -> ValueError, check_array's
        message), "allow-nan" or False: the same check left to the C library,
        which refuses NaN and infinity for every metric (ValueError naming
        the entry)
    n_jobs : OpenMP threads of the CPU backend (None: OMP_NUM_THREADS or all)
    **metric_params : p for minkowski

    Returns an (m, n) numpy array of dtype, or a csr_matrix with mask.
    """
    _metrics.canonical(metric, metric_params)      # a bad name fails first
    dt = _check.result_dtype(X, Y, dtype)
    Xc = _check.as_csr(X, "X", force_all_finite, dt)
    Yc = None if Y is None else _check.as_csr(Y, "Y", force_all_finite, dt)
    m = Xc.shape[0]
    n = (Xc if Yc is None else Yc).shape[0]
    Mc = None if mask is None else mask_pattern(mask, (m, n))
    with _metrics.resolve(metric, metric_params, dt) as met, \
            _Operands(Xc, None if Yc is Xc else Yc, dt) as ops, \
            _lib.new_matrix(dt, m, n) as C:
        if Mc is None:
            _lib.run(_lib.GxB_mxm_distance,
                     (C.h, None, None, met.semiring, ops.A.h, ops.B.h, None),
                     "GxB_mxm_distance", backend, verify, n_jobs)
            return _lib.export_dense(C, m, n)
        with _lib.import_csr(Mc.indptr, Mc.indices, None, Mc.shape, dt) as M:
            _lib.run(_lib.GxB_mxm_distance,
                     (C.h, M.h, None, met.semiring, ops.A.h, ops.B.h, _lib.GrB_DESC_S),
                     "GxB_mxm_distance", backend, verify, n_jobs)
        indptr, indices, data, shape, _ = _lib.export_csr(C)
        return sp.csr_matrix((data, indices, indptr), shape=shape)
