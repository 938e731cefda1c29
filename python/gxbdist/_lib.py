# SPDX-License-Identifier: Apache-2.0
"""gxbdist._lib: the C library through ctypes, and nothing else.

Loads libgxbdist.so (and through it SuiteSparse:GraphBLAS), starts both once
per process (GrB_init + GxB_Distance_init, finalized at exit), turns every
GrB_Info into a Python exception carrying gxbdist's message, and moves CSR
arrays between scipy and GrB_Matrix objects:

- in:  GxB_Matrix_import_CSR takes ownership of its arrays (GraphBLAS frees
       them), so the caller's arrays are copied once, O(nnz), into malloc'd
       memory -- the copy is also where int32 indices become GrB_Index and
       values take the computation's type, so it is the only pass over them;
- out: GxB_Matrix_export_CSR / _FullR hand us malloc'd arrays; numpy wraps
       them without copying, and each is freed when its last view dies.

ctypes (not cffi) because it ships with Python: nothing to compile at install
time.  ctypes releases the GIL for every call into a CDLL, so long calls let
other Python threads run.
"""

import atexit
import ctypes
import ctypes.util
import glob
import os
import threading
import time
import weakref

import numpy as np

# ---------------------------------------------------------------------------
# finding the shared library
# ---------------------------------------------------------------------------

_HERE = os.path.dirname(os.path.abspath(__file__))
# python/gxbdist/ -> the repository root, when imported from a source tree
_SOURCE_ROOT = os.path.dirname(os.path.dirname(_HERE))


def _candidates():
    """Paths or names to try for libgxbdist, in order: GXBDIST_LIBRARY (a
    file or a folder), the newest build tree of a source checkout
    (../build*/), then the system's (ldconfig, the usual lib folders)."""
    env = os.environ.get("GXBDIST_LIBRARY")
    if env:
        yield os.path.join(env, "libgxbdist.so") if os.path.isdir(env) else env
        return
    if os.path.exists(os.path.join(_SOURCE_ROOT, "include", "gxbdist.h")):
        builds = glob.glob(os.path.join(_SOURCE_ROOT, "build*", "libgxbdist.so"))
        builds.sort(key=os.path.getmtime, reverse=True)
        yield from builds
    found = ctypes.util.find_library("gxbdist")
    if found:
        yield found
    yield "libgxbdist.so.0"
    for d in ("/usr/local/lib", "/usr/local/lib64",
              "/usr/local/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu"):
        yield os.path.join(d, "libgxbdist.so.0")


def _load():
    pre = os.environ.get("GXBDIST_GRAPHBLAS")
    if pre:  # a GraphBLAS of one's own, loaded first so gxbdist binds to it
        ctypes.CDLL(pre, mode=ctypes.RTLD_GLOBAL)
    tried = []
    for c in _candidates():
        try:
            lib = ctypes.CDLL(c)
        except OSError as e:
            tried.append("%s (%s)" % (c, e))
            continue
        return lib, c
    raise ImportError(
        "gxbdist: libgxbdist.so not found; build it (cmake -S . -B build && "
        "cmake --build build), install it (cmake --install build), or set "
        "GXBDIST_LIBRARY to its path.  Tried:\n  " + "\n  ".join(tried))


lib, library_path = _load()
# GraphBLAS's symbols are found through libgxbdist's handle (dlsym searches
# its dependencies), so we call the very GraphBLAS that gxbdist uses.
try:
    lib.GrB_init
    grb = lib
except AttributeError:  # pragma: no cover (libgxbdist always links it)
    grb = ctypes.CDLL(ctypes.util.find_library("graphblas") or "libgraphblas.so.7",
                      mode=ctypes.RTLD_GLOBAL)

_libc = ctypes.CDLL(None)
_malloc = _libc.malloc
_malloc.argtypes = [ctypes.c_size_t]
_malloc.restype = ctypes.c_void_p
_free = _libc.free
_free.argtypes = [ctypes.c_void_p]
_free.restype = None

# ---------------------------------------------------------------------------
# prototypes
# ---------------------------------------------------------------------------

Info = ctypes.c_int
P = ctypes.c_void_p
PP = ctypes.POINTER(ctypes.c_void_p)
U64 = ctypes.c_uint64
PU64 = ctypes.POINTER(ctypes.c_uint64)
B = ctypes.c_bool
PB = ctypes.POINTER(ctypes.c_bool)


def _proto(h, name, *args):
    f = getattr(h, name)
    f.argtypes = list(args)
    f.restype = Info
    return f


GrB_init = _proto(grb, "GrB_init", ctypes.c_int)
GrB_finalize = _proto(grb, "GrB_finalize")
GrB_Matrix_new = _proto(grb, "GrB_Matrix_new", PP, P, U64, U64)
GrB_Matrix_free = _proto(grb, "GrB_Matrix_free", PP)
GrB_Matrix_nvals = _proto(grb, "GrB_Matrix_nvals", PU64, P)
GrB_Matrix_assign_FP64 = _proto(grb, "GrB_Matrix_assign_FP64", P, P, P,
                                ctypes.c_double, P, U64, P, U64, P)
GrB_Descriptor_new = _proto(grb, "GrB_Descriptor_new", PP)
GrB_Descriptor_free = _proto(grb, "GrB_Descriptor_free", PP)
GrB_Semiring_free = _proto(grb, "GrB_Semiring_free", PP)
GxB_Matrix_import_CSR = _proto(grb, "GxB_Matrix_import_CSR", PP, P, U64, U64,
                               PP, PP, PP, U64, U64, U64, B, B, P)
GxB_Matrix_export_CSR = _proto(grb, "GxB_Matrix_export_CSR", PP, PP, PU64, PU64,
                               PP, PP, PP, PU64, PU64, PU64, PB, PB, P)
GxB_Matrix_export_FullR = _proto(grb, "GxB_Matrix_export_FullR", PP, PP, PU64,
                                 PU64, PP, PU64, PB, P)

GxB_Distance_init = _proto(lib, "GxB_Distance_init")
GxB_Distance_finalize = _proto(lib, "GxB_Distance_finalize")
GxB_Distance_error = _proto(lib, "GxB_Distance_error",
                            ctypes.POINTER(ctypes.c_char_p))
GxB_Distance_set_backend = _proto(lib, "GxB_Distance_set_backend", ctypes.c_int)
GxB_Distance_get_backend = _proto(lib, "GxB_Distance_get_backend",
                                  ctypes.POINTER(ctypes.c_int))
GxB_Distance_active_backend = _proto(lib, "GxB_Distance_active_backend",
                                     ctypes.POINTER(ctypes.c_int))
GxB_Distance_set_verify = _proto(lib, "GxB_Distance_set_verify", B)
GxB_Distance_get_verify = _proto(lib, "GxB_Distance_get_verify", PB)
GxB_Distance_set_verify_rows = _proto(lib, "GxB_Distance_set_verify_rows", U64)
GxB_Distance_get_verify_rows = _proto(lib, "GxB_Distance_get_verify_rows", PU64)
GxB_Distance_version = _proto(lib, "GxB_Distance_version", ctypes.POINTER(ctypes.c_int),
                              ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int))
GxB_Semiring_new_minkowski = _proto(lib, "GxB_Semiring_new_minkowski", PP,
                                    ctypes.c_double, P)
GxB_Desc_set_exclude_self = _proto(lib, "GxB_Desc_set_exclude_self", P, B)
GxB_mxm_distance = _proto(lib, "GxB_mxm_distance", P, P, P, P, P, P, P)
GxB_kNN = _proto(lib, "GxB_kNN", P, P, P, U64, P, P, P)
GxB_radius_graph = _proto(lib, "GxB_radius_graph", P, P, P, ctypes.c_double,
                          P, P, P)


def _global(h, name):
    """The value of a global `GrB_Type X` / `GrB_Semiring X` pointer."""
    return ctypes.c_void_p.in_dll(h, name).value


GrB_FP32 = _global(grb, "GrB_FP32")
GrB_FP64 = _global(grb, "GrB_FP64")
GrB_ALL = _global(grb, "GrB_ALL")
GrB_DESC_S = _global(grb, "GrB_DESC_S")     # structural mask
GrB_DESC_SC = _global(grb, "GrB_DESC_SC")   # structural complement

# ---------------------------------------------------------------------------
# errors
# ---------------------------------------------------------------------------

GrB_SUCCESS = 0
GxB_VERIFY_FAILED = -2001
INFO_NAMES = {
    1: "GrB_NO_VALUE", -1: "GrB_UNINITIALIZED_OBJECT", -2: "GrB_NULL_POINTER",
    -3: "GrB_INVALID_VALUE", -4: "GrB_INVALID_INDEX", -5: "GrB_DOMAIN_MISMATCH",
    -6: "GrB_DIMENSION_MISMATCH", -7: "GrB_OUTPUT_NOT_EMPTY",
    -8: "GrB_NOT_IMPLEMENTED", -101: "GrB_PANIC", -102: "GrB_OUT_OF_MEMORY",
    -103: "GrB_INSUFFICIENT_SPACE", -104: "GrB_INVALID_OBJECT",
    -105: "GrB_INDEX_OUT_OF_BOUNDS", -106: "GrB_EMPTY_OBJECT",
    GxB_VERIFY_FAILED: "GxB_VERIFY_FAILED",
}


class GxbdistError(Exception):
    """A failed gxbdist or GraphBLAS call.  `info` is the GrB_Info code,
    `info_name` its name; str() is gxbdist's message (GxB_Distance_error)."""

    def __init__(self, message, info=None):
        super().__init__(message)
        self.info = info
        self.info_name = INFO_NAMES.get(info, str(info)) if info is not None else None


class GxbdistValueError(GxbdistError, ValueError):
    """Bad argument: GrB_INVALID_VALUE, GrB_DIMENSION_MISMATCH,
    GrB_DOMAIN_MISMATCH, GrB_NULL_POINTER, GrB_INVALID_INDEX, ..."""


class GxbdistMemoryError(GxbdistError, MemoryError):
    """GrB_OUT_OF_MEMORY."""


class GxbdistRuntimeError(GxbdistError, RuntimeError):
    """Any other failure (GrB_NOT_IMPLEMENTED, GrB_PANIC, ...)."""


class VerifyError(GxbdistRuntimeError):
    """GxB_VERIFY_FAILED: verify mode found a result outside the documented
    tolerance of the SuiteSparse reference."""


_VALUE_INFOS = {-2, -3, -4, -5, -6, -105, -106}


def error_for(info, message):
    if info == GxB_VERIFY_FAILED:
        cls = VerifyError
    elif info in _VALUE_INFOS:
        cls = GxbdistValueError
    elif info == -102:
        cls = GxbdistMemoryError
    else:
        cls = GxbdistRuntimeError
    return cls(message, info)


def check(info, where, gxbdist_call=True):
    """Raise for a GrB_Info other than GrB_SUCCESS.  For a gxbdist call the
    message is GxB_Distance_error's (per thread, read at once); for a plain
    GraphBLAS call it names the call and the code."""
    if info == GrB_SUCCESS:
        return
    name = INFO_NAMES.get(info, "GrB_Info %d" % info)
    text = ""
    if gxbdist_call:
        msg = ctypes.c_char_p()
        if GxB_Distance_error(ctypes.byref(msg)) == GrB_SUCCESS and msg.value:
            text = msg.value.decode("utf-8", "replace")
    if not text:
        text = "%s failed" % where
    raise error_for(info, "%s (%s)" % (text, name))


# ---------------------------------------------------------------------------
# start and stop, once per process
# ---------------------------------------------------------------------------

_init_lock = threading.Lock()
_state = {"started": False, "own_grb": False, "default_backend": 0,
          "default_verify_rows": 0}


def ensure_init():
    if _state["started"]:
        return
    with _init_lock:
        if _state["started"]:
            return
        info = GrB_init(0)   # GrB_NONBLOCKING
        # GrB_INVALID_VALUE: GraphBLAS was started already in this process
        # (by another module); use it and leave its finalize to its owner
        if info not in (GrB_SUCCESS, -3):
            check(info, "GrB_init", gxbdist_call=False)
        own_grb = info == GrB_SUCCESS
        info = GxB_Distance_init()
        if info != GrB_SUCCESS:
            if own_grb:
                GrB_finalize()
            check(info, "GxB_Distance_init")
        backend = ctypes.c_int(0)
        check(GxB_Distance_get_backend(ctypes.byref(backend)), "GxB_Distance_get_backend")
        rows = ctypes.c_uint64(0)
        check(GxB_Distance_get_verify_rows(ctypes.byref(rows)),
              "GxB_Distance_get_verify_rows")
        _state.update(started=True, own_grb=own_grb, default_backend=backend.value,
                      default_verify_rows=rows.value)
        atexit.register(_finalize)


def _finalize():
    with _init_lock:
        if not _state["started"]:
            return
        _state["started"] = False
        GxB_Distance_finalize()
        if _state["own_grb"]:
            GrB_finalize()


# ---------------------------------------------------------------------------
# process-wide settings (backend, verify), taken per call
# ---------------------------------------------------------------------------

BACKENDS = {"auto": 0, "cpu": 1, "gpu": 2}


class _Settings:
    """GxB_Distance_set_backend / _set_verify are global and may not change
    while another call runs.  Calls that want the same settings run
    together; one that wants others waits until those have finished."""

    def __init__(self):
        self.cond = threading.Condition()
        self.active = 0
        self.current = None

    def acquire(self, key):
        with self.cond:
            while self.active and self.current != key:
                self.cond.wait()
            if self.current != key:
                self.current = None   # unknown until both are set
                backend, verify, rows = key
                check(GxB_Distance_set_backend(backend), "GxB_Distance_set_backend")
                check(GxB_Distance_set_verify(verify), "GxB_Distance_set_verify")
                check(GxB_Distance_set_verify_rows(rows), "GxB_Distance_set_verify_rows")
                self.current = key
            self.active += 1

    def release(self):
        with self.cond:
            self.active -= 1
            if self.active == 0:
                self.cond.notify_all()


_settings = _Settings()


def backend_code(backend):
    if backend is None or backend == "auto":
        return _state["default_backend"]
    try:
        return BACKENDS[str(backend).lower()]
    except KeyError:
        raise ValueError("backend must be 'auto', 'cpu' or 'gpu', not %r"
                         % (backend,)) from None


# OpenMP threads of the calling thread (n_jobs), where libgomp is loaded
try:
    _gomp = ctypes.CDLL("libgomp.so.1")
    _omp_get = _gomp.omp_get_max_threads
    _omp_get.restype = ctypes.c_int
    _omp_set = _gomp.omp_set_num_threads
    _omp_set.argtypes = [ctypes.c_int]
    _omp_set.restype = None
except (OSError, AttributeError):  # pragma: no cover
    _omp_get = _omp_set = None


def n_threads(n_jobs):
    """n_jobs as scikit-learn reads it: None = the OpenMP default
    (OMP_NUM_THREADS or every core), -1 = every core, -2 = all but one..."""
    if n_jobs is None:
        return None
    n = int(n_jobs)
    if n == 0:
        raise ValueError("n_jobs == 0 has no meaning")
    if n < 0:
        n = max(1, (os.cpu_count() or 1) + 1 + n)
    return n


# ---------------------------------------------------------------------------
# timing of the C calls (for the overhead measurement)
# ---------------------------------------------------------------------------

_timing = threading.local()


def last_c_seconds():
    """Seconds spent inside the C compute call (GxB_mxm_distance, GxB_kNN or
    GxB_radius_graph) by this thread's last gxbdist function call."""
    return getattr(_timing, "c_seconds", 0.0)


def verify_setting(verify):
    """(on, sampled rows) of a verify argument: False, True (the library's
    sample of rows) or a number of rows (0: every row)."""
    if isinstance(verify, (bool, np.bool_)):
        return bool(verify), _state["default_verify_rows"]
    if isinstance(verify, (int, np.integer)) and verify >= 0:
        return True, int(verify)
    raise ValueError("verify must be False, True or a number of rows >= 0 "
                     "(0: every row), not %r" % (verify,))


def run(fn, args, where, backend, verify, n_jobs):
    """Call a gxbdist compute function under the wanted settings, timing it."""
    ensure_init()
    key = (backend_code(backend),) + verify_setting(verify)
    nt = n_threads(n_jobs)
    _settings.acquire(key)
    try:
        old = None
        if nt is not None and _omp_set is not None:
            old = _omp_get()
            _omp_set(nt)
        try:
            t0 = time.perf_counter()
            info = fn(*args)
            _timing.c_seconds = time.perf_counter() - t0
            check(info, where)
        finally:
            if old is not None:
                _omp_set(old)
    finally:
        _settings.release()


# ---------------------------------------------------------------------------
# matrices: in and out
# ---------------------------------------------------------------------------

_TYPES = {np.dtype(np.float32): GrB_FP32, np.dtype(np.float64): GrB_FP64}
_DTYPES = {GrB_FP32: np.dtype(np.float32), GrB_FP64: np.dtype(np.float64)}


def _alloc(nbytes):
    p = _malloc(int(nbytes))
    if not p:
        raise GxbdistMemoryError("gxbdist: out of memory (malloc of %d bytes)"
                                 % nbytes, -102)
    return p


def _view(ptr, count, dtype):
    """A writable numpy view of count items at ptr (no ownership)."""
    dtype = np.dtype(dtype)
    if count == 0:
        return np.empty(0, dtype)
    buf = (ctypes.c_char * (count * dtype.itemsize)).from_address(ptr)
    return np.frombuffer(buf, dtype=dtype, count=count)


def _owned(ptr, count, dtype):
    """A numpy array over malloc'd memory at ptr that frees it when the last
    view of it dies (zero-copy hand-over of an exported array)."""
    dtype = np.dtype(dtype)
    if not ptr:
        return np.empty(0, dtype)
    buf = (ctypes.c_char * max(count * dtype.itemsize, 1)).from_address(ptr)
    weakref.finalize(buf, _free, ptr)
    return np.frombuffer(buf, dtype=dtype, count=count)


class Matrix:
    """An owned GrB_Matrix handle, freed by close() or with `with`."""

    __slots__ = ("h",)

    def __init__(self, h=None):
        self.h = ctypes.c_void_p(h)

    def close(self):
        if self.h.value:
            GrB_Matrix_free(ctypes.byref(self.h))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):  # a safety net; every path closes explicitly
        try:
            if self.h.value and _state["started"]:
                GrB_Matrix_free(ctypes.byref(self.h))
        except Exception:  # pragma: no cover
            pass


def new_matrix(dtype, m, n):
    ensure_init()
    M = Matrix()
    check(GrB_Matrix_new(ctypes.byref(M.h), _TYPES[np.dtype(dtype)], m, n),
          "GrB_Matrix_new", gxbdist_call=False)
    return M


def import_csr(indptr, indices, data, shape, dtype):
    """A new GrB_Matrix (of dtype: float32 or float64) holding a copy of a
    canonical CSR (sorted indices, no duplicates); data None: the pattern
    only, every value 1 (an iso matrix: no value array is copied).  One pass: the copy into
    malloc'd arrays is also the typecast (int32 -> GrB_Index, values -> dtype).
    """
    ensure_init()
    dtype = np.dtype(dtype)
    m, n = shape
    nnz = int(indptr[m]) if m > 0 else 0
    iso = data is None     # a pattern only (a mask): one value, 1
    # at least 16 bytes each: no zero-size malloc, and GraphBLAS is told
    # exactly what was allocated
    sizes = tuple(max(s, 16) for s in ((m + 1) * 8, nnz * 8,
                                        (1 if iso else nnz) * dtype.itemsize))
    ptrs = [ctypes.c_void_p(None) for _ in range(3)]
    try:
        for p, s in zip(ptrs, sizes):
            p.value = _alloc(s)
        np.copyto(_view(ptrs[0].value, m + 1, np.int64), indptr, casting="unsafe")
        if nnz:
            np.copyto(_view(ptrs[1].value, nnz, np.int64), indices[:nnz], casting="unsafe")
            if not iso:
                np.copyto(_view(ptrs[2].value, nnz, dtype), data[:nnz], casting="unsafe")
        if iso:
            _view(ptrs[2].value, 1, dtype)[0] = 1
        M = Matrix()
        info = GxB_Matrix_import_CSR(
            ctypes.byref(M.h), _TYPES[dtype], m, n,
            ctypes.byref(ptrs[0]), ctypes.byref(ptrs[1]), ctypes.byref(ptrs[2]),
            sizes[0], sizes[1], sizes[2], iso, False, None)
        check(info, "GxB_Matrix_import_CSR", gxbdist_call=False)
        return M
    finally:
        # on success GraphBLAS took them (and set the pointers to NULL)
        for p in ptrs:
            if p.value:
                _free(p.value)


def nvals(M):
    v = ctypes.c_uint64(0)
    check(GrB_Matrix_nvals(ctypes.byref(v), M.h), "GrB_Matrix_nvals",
          gxbdist_call=False)
    return v.value


def export_dense(M, m, n):
    """M (m-by-n) as a C-ordered numpy array, M freed.  Entries M does not
    hold are 0."""
    if nvals(M) != m * n:
        # C<!struct(C)> = 0: fill the entries the product left out
        check(GrB_Matrix_assign_FP64(M.h, M.h, None, 0.0, GrB_ALL, m, GrB_ALL, n,
                                     GrB_DESC_SC), "GrB_Matrix_assign", gxbdist_call=False)
    t, nr, nc = ctypes.c_void_p(), ctypes.c_uint64(), ctypes.c_uint64()
    Ax, Ax_size, iso = ctypes.c_void_p(), ctypes.c_uint64(), ctypes.c_bool()
    check(GxB_Matrix_export_FullR(ctypes.byref(M.h), ctypes.byref(t), ctypes.byref(nr),
                                  ctypes.byref(nc), ctypes.byref(Ax), ctypes.byref(Ax_size),
                                  ctypes.byref(iso), None),
          "GxB_Matrix_export_FullR", gxbdist_call=False)
    dtype = _DTYPES[t.value]
    if iso.value:
        x = _view(Ax.value, 1, dtype)[0]
        _free(Ax.value)
        return np.full((m, n), x, dtype=dtype)
    return _owned(Ax.value, m * n, dtype).reshape(m, n)


def export_csr(M, keep_order=False):
    """M as (indptr int64, indices int64, data, shape, jumbled), M freed; the
    arrays are zero-copy views of GraphBLAS's (freed with them).  Rows come
    sorted by column, unless keep_order and M's rows are jumbled (then
    jumbled is True and each row is in the order M holds it: a GxB_kNN
    result keeps its rows in neighbor order)."""
    t, nr, nc = ctypes.c_void_p(), ctypes.c_uint64(), ctypes.c_uint64()
    ptrs = [ctypes.c_void_p() for _ in range(3)]
    sizes = [ctypes.c_uint64() for _ in range(3)]
    iso, jumbled = ctypes.c_bool(), ctypes.c_bool(False)
    # jumbled = NULL: GraphBLAS sorts each row first
    check(GxB_Matrix_export_CSR(ctypes.byref(M.h), ctypes.byref(t), ctypes.byref(nr),
                                ctypes.byref(nc), *[ctypes.byref(p) for p in ptrs],
                                *[ctypes.byref(s) for s in sizes], ctypes.byref(iso),
                                ctypes.byref(jumbled) if keep_order else None, None),
          "GxB_Matrix_export_CSR", gxbdist_call=False)
    m, n = nr.value, nc.value
    dtype = _DTYPES[t.value]
    indptr = _owned(ptrs[0].value, m + 1, np.int64)
    nnz = int(indptr[m])
    indices = _owned(ptrs[1].value, nnz, np.int64)
    if iso.value:
        x = _view(ptrs[2].value, 1, dtype)[0]
        _free(ptrs[2].value)
        data = np.full(nnz, x, dtype=dtype)
    else:
        data = _owned(ptrs[2].value, nnz, dtype)
    return indptr, indices, data, (m, n), bool(jumbled.value)


class Descriptor:
    """A descriptor of our own (exclude_self and/or a structural mask)."""

    def __init__(self, exclude_self=False):
        ensure_init()
        self.h = ctypes.c_void_p()
        self.exclude_self = exclude_self
        check(GrB_Descriptor_new(ctypes.byref(self.h)), "GrB_Descriptor_new",
              gxbdist_call=False)
        if exclude_self:
            try:
                check(GxB_Desc_set_exclude_self(self.h, True), "GxB_Desc_set_exclude_self")
            except BaseException:
                GrB_Descriptor_free(ctypes.byref(self.h))
                raise

    def close(self):
        if self.h.value:
            if self.exclude_self:   # the mark is cleared before freeing
                GxB_Desc_set_exclude_self(self.h, False)
            GrB_Descriptor_free(ctypes.byref(self.h))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
