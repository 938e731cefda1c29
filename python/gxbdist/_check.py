# SPDX-License-Identifier: Apache-2.0
"""gxbdist._check: input validation, as scikit-learn's check_array does it.

Every input becomes a canonical scipy CSR (sorted indices, no duplicates)
without touching the caller's object: a matrix that is not canonical is
copied first.  Values keep their type here; the one copy into the C
library's arrays (_lib.import_csr) casts them to the computation's dtype.
"""

import numpy as np
import scipy.sparse as sp


def _assert_finite(data, name, allow_nan, dtype=None):
    if data.dtype.kind != "f" or data.size == 0:
        return
    with np.errstate(over="ignore", invalid="ignore"):
        if np.isfinite(data.sum()):
            return
    has_nan = bool(np.isnan(data).any())
    if has_nan and not allow_nan:
        raise ValueError("Input %s contains NaN." % name)
    if np.isinf(data).any():
        raise ValueError("Input %s contains infinity or a value too large for %r."
                         % (name, dtype if dtype is not None else data.dtype))


def _finite_mode(force_all_finite):
    if force_all_finite is True or force_all_finite is False:
        return force_all_finite, False
    if force_all_finite == "allow-nan":
        return True, True
    raise ValueError("force_all_finite should be a bool or 'allow-nan'. Got %r instead"
                     % (force_all_finite,))


def _numeric(dtype, name):
    if dtype.kind in "biuf":
        return
    if dtype.kind == "c":
        raise ValueError("Complex data not supported (input %s)" % name)
    raise ValueError("Input %s has dtype %s; gxbdist takes numeric (bool, int, "
                     "float) data" % (name, dtype))


def as_csr(X, name="X", force_all_finite=True, dtype=None):
    """A canonical scipy.sparse.csr_matrix of X (X itself when it already is
    one), numeric; ValueError as check_array raises it.  dtype: the
    computation's dtype, used to check that values fit in it."""
    check, allow_nan = _finite_mode(force_all_finite)
    if sp.issparse(X):
        if X.format != "csr":
            X = X.tocsr()
        elif not isinstance(X, sp.csr_matrix):
            X = sp.csr_matrix(X)
        _numeric(X.dtype, name)
        if not X.has_canonical_format:
            X = X.copy()
            X.sum_duplicates()
    else:
        if X is None:
            raise ValueError("Input %s is None; expected a 2D array or sparse matrix" % name)
        try:
            A = np.asarray(X)
        except (TypeError, ValueError) as e:
            raise ValueError("Input %s could not be read as an array: %s" % (name, e)) from None
        if A.dtype == object:
            try:
                A = A.astype(np.float64)
            except (TypeError, ValueError) as e:
                raise ValueError("Input %s could not be converted to float: %s"
                                 % (name, e)) from None
        if A.ndim != 2:
            raise ValueError(
                "Expected 2D array, got %s array instead: %s=%r. Reshape your data "
                "either using array.reshape(-1, 1) if your data has a single feature "
                "or array.reshape(1, -1) if it contains a single sample."
                % ("scalar" if A.ndim == 0 else "%dD" % A.ndim, name, A))
        _numeric(A.dtype, name)
        if check:
            _assert_finite(A, name, allow_nan)
        X = sp.csr_matrix(A)
    m, n = X.shape
    if m < 1:
        raise ValueError("Found array with 0 sample(s) (shape=%s) while a minimum "
                         "of 1 is required (input %s)." % (X.shape, name))
    if n < 1:
        raise ValueError("Found array with 0 feature(s) (shape=%s) while a minimum "
                         "of 1 is required (input %s)." % (X.shape, name))
    if check:
        _assert_finite(X.data, name, allow_nan)
        if (dtype is not None and X.dtype.kind == "f"
                and X.dtype.itemsize > np.dtype(dtype).itemsize and X.nnz):
            with np.errstate(over="ignore"):
                narrowed = X.data.astype(dtype)
            _assert_finite(narrowed, name, allow_nan, dtype=np.dtype(dtype))
    return X


def result_dtype(X, Y, dtype):
    """scikit-learn's rule (check_pairwise_arrays): float32 when X and Y are
    both float32, else float64; an explicit dtype wins."""
    if dtype is not None:
        d = np.dtype(dtype)
        if d not in (np.dtype(np.float32), np.dtype(np.float64)):
            raise ValueError("dtype must be float32, float64 or None, not %s" % d)
        return d

    def dt(A):
        if sp.issparse(A) or isinstance(A, np.ndarray):
            return A.dtype
        return np.asarray(A).dtype

    dx = dt(X)
    dy = dx if Y is None else dt(Y)
    if dx == dy == np.float32:
        return np.dtype(np.float32)
    return np.dtype(np.float64)


def check_int(value, what, minimum=1):
    """A positive integer argument, as scikit-learn checks n_neighbors:
    TypeError for a non-integer, ValueError below minimum."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError("%s does not take %s value, enter integer value"
                        % (what, type(value)))
    if value < minimum:
        raise ValueError("Expected %s > %d. Got %d" % (what, minimum - 1, value))
    return int(value)
