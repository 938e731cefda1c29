# SPDX-License-Identifier: Apache-2.0
"""gxbdist: pairwise distances and neighbor graphs between the rows of
sparse matrices, with scikit-learn's names, arguments and return types,
computed by the gxbdist C library (SuiteSparse:GraphBLAS extension; CPU or
GPU).  See docs/python.md.

    import gxbdist
    D = gxbdist.pairwise_distances(X, Y, metric="cosine")
    G = gxbdist.kneighbors_graph(X, 15, mode="distance", metric="cosine")
    dist, ind = gxbdist.NearestNeighbors(n_neighbors=5).fit(X).kneighbors()

The shared library is found through GXBDIST_LIBRARY (a path), else the
newest build*/ of a source checkout, else the system's (ldconfig).
"""

from ._lib import (GxbdistError, GxbdistMemoryError, GxbdistRuntimeError,
                   GxbdistValueError, VerifyError, last_c_seconds, library_path)
from ._metrics import METRICS
from .neighbors import (NearestNeighbors, kneighbors, kneighbors_graph,
                        radius_neighbors_graph)
from .pairwise import pairwise_distances
from ._version import __version__

__all__ = ["pairwise_distances", "kneighbors", "kneighbors_graph",
           "radius_neighbors_graph", "NearestNeighbors", "METRICS",
           "GxbdistError", "GxbdistValueError", "GxbdistMemoryError",
           "GxbdistRuntimeError", "VerifyError", "last_c_seconds",
           "library_path", "active_backend", "library_version"]


def library_version():
    """The loaded C library's version, "major.minor.sub"
    (GxB_Distance_version); __version__ is the one this package expects."""
    import ctypes
    from . import _lib
    v = [ctypes.c_int(0) for _ in range(3)]
    _lib.check(_lib.GxB_Distance_version(*[ctypes.byref(x) for x in v]),
               "GxB_Distance_version")
    return "%d.%d.%d" % tuple(x.value for x in v)


def active_backend():
    """'cpu' or 'gpu': the backend a call with backend='auto' would use
    (whatever an earlier call asked for)."""
    import ctypes
    from . import _lib
    _lib.ensure_init()
    b = ctypes.c_int(0)
    key = (_lib.backend_code("auto"),) + _lib.verify_setting(False)
    _lib._settings.acquire(key)
    try:
        _lib.check(_lib.GxB_Distance_active_backend(ctypes.byref(b)),
                   "GxB_Distance_active_backend")
    finally:
        _lib._settings.release()
    return {1: "cpu", 2: "gpu"}.get(b.value, str(b.value))
