# SPDX-License-Identifier: Apache-2.0
"""gxbdist._metrics: metric names (scikit-learn's and scipy's) -> semirings.

The definitions are gxbdist's (docs/metrics.md); where they differ from
scipy's or scikit-learn's on some inputs, docs/python.md says so.
"""

import ctypes
import math

from . import _lib

# name -> the NAME of GxB_DIST_<NAME>_FP32 / _FP64
_PREDEFINED = {
    "euclidean": "EUCLIDEAN", "l2": "EUCLIDEAN",
    "sqeuclidean": "SQEUCLIDEAN",
    "cityblock": "MANHATTAN", "manhattan": "MANHATTAN", "l1": "MANHATTAN",
    "chebyshev": "CHEBYSHEV", "infinity": "CHEBYSHEV",
    "cosine": "COSINE",
    "correlation": "CORRELATION",
    "canberra": "CANBERRA",
    "braycurtis": "BRAYCURTIS",
    "hamming": "HAMMING",
    "jaccard": "JACCARD",
    "dice": "DICE",
    "russellrao": "RUSSELLRAO",
    "sokalmichener": "SOKALMICHENER",
    "hellinger": "HELLINGER",
    "jensenshannon": "JENSEN_SHANNON", "jensen_shannon": "JENSEN_SHANNON",
    "kl_divergence": "KL_DIVERGENCE", "kl": "KL_DIVERGENCE",
    "dot": "DOT",
}

METRICS = tuple(sorted(set(_PREDEFINED) | {"minkowski"}))

# what each metric accepts in **metric_params
_PARAMS = {"minkowski": ("p",)}


class Metric:
    """A resolved metric: the semiring for one dtype (owned when it was
    created for this call: Minkowski), its canonical name, and whether
    larger is nearer (DOT, a similarity)."""

    __slots__ = ("name", "semiring", "owned", "largest")

    def __init__(self, name, semiring, owned):
        self.name = name
        self.semiring = ctypes.c_void_p(semiring)
        self.owned = owned
        self.largest = name == "DOT"

    def close(self):
        if self.owned and self.semiring.value:
            _lib.GrB_Semiring_free(ctypes.byref(self.semiring))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def canonical(metric, metric_params):
    """(canonical NAME, p or None) for a metric name and its parameters;
    ValueError for an unknown name or parameter."""
    if callable(metric) or not isinstance(metric, str):
        raise ValueError(
            "gxbdist takes a metric by name, not %r; available metrics: %s"
            % (metric, ", ".join(METRICS)))
    key = metric.lower()
    if key not in _PREDEFINED and key != "minkowski":
        raise ValueError("unknown metric %r; available metrics: %s"
                         % (metric, ", ".join(METRICS)))
    params = {k: v for k, v in (metric_params or {}).items()}
    allowed = _PARAMS.get(key, ())
    bad = sorted(k for k in params if k not in allowed)
    if bad:
        raise ValueError("metric %r takes no parameter %s%s" % (
            metric, ", ".join(map(repr, bad)),
            (" (it takes: %s)" % ", ".join(allowed)) if allowed else ""))
    if key != "minkowski":
        return _PREDEFINED[key], None
    p = params.get("p", 2)
    try:
        p = float(p)
    except (TypeError, ValueError):
        raise ValueError("minkowski: p must be a number, not %r" % (p,)) from None
    if not p > 0:
        raise ValueError("minkowski: p must be > 0, not %r" % (p,))
    if p == 1:
        return "MANHATTAN", None
    if p == 2:
        return "EUCLIDEAN", None
    if math.isinf(p):
        return "CHEBYSHEV", None
    return "MINKOWSKI", p


def resolve(metric, metric_params, dtype):
    """A Metric for dtype (np.float32 or np.float64)."""
    name, p = canonical(metric, metric_params)
    _lib.ensure_init()
    suffix = "FP32" if dtype.itemsize == 4 else "FP64"
    if name != "MINKOWSKI":
        s = _lib._global(_lib.lib, "GxB_DIST_%s_%s" % (name, suffix))
        return Metric(name, s, False)
    h = ctypes.c_void_p()
    gtype = _lib.GrB_FP32 if suffix == "FP32" else _lib.GrB_FP64
    _lib.check(_lib.GxB_Semiring_new_minkowski(ctypes.byref(h), p, gtype),
               "GxB_Semiring_new_minkowski")
    return Metric(name, h.value, True)
