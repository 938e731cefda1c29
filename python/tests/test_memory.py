# SPDX-License-Identifier: Apache-2.0
"""Inputs never modified; no leak over 10,000 small calls; threads: calls
in parallel (with different settings) give the serial results, and a long
call releases the GIL."""

import ctypes
import gc
import threading
import time

import numpy as np
import pytest
import scipy.sparse as sp

import gxbdist
from gxbdist import _lib
import _ref


def _snapshot(A):
    if sp.issparse(A):
        arrays = {k: getattr(A, k) for k in ("data", "indices", "indptr", "row", "col")
                  if isinstance(getattr(A, k, None), np.ndarray)}
        return ("sparse", A.format, A.shape, {k: (id(v), v.dtype, v.copy()) for k, v in arrays.items()})
    return ("dense", id(A), A.dtype, A.copy())


def _assert_same(A, snap):
    now = _snapshot(A)
    assert now[0] == snap[0]
    if snap[0] == "sparse":
        assert now[1:3] == snap[1:3]
        for k, (i, dt, v) in snap[3].items():
            i2, dt2, v2 = now[3][k]
            assert i == i2 and dt == dt2 and np.array_equal(v, v2, equal_nan=True), k
    else:
        assert now[2] == snap[2] and np.array_equal(now[3], snap[3])


def _inputs():
    rng = np.random.default_rng(_ref.seed() + 300)
    A = _ref.random_csr(rng, 12, 9, 0.4)
    nc = sp.csr_matrix((np.array([1.0, 5.0, 2.0]), np.array([2, 0, 2]), np.array([0, 3, 3, 3])),
                       shape=(3, 9))                      # unsorted, a duplicate
    return {
        "csr": A,
        "csr32": A.astype(np.float32),
        "noncanonical": sp.csr_matrix((np.r_[nc.data, A.data], np.r_[nc.indices, A.indices],
                                       np.r_[nc.indptr, A.indptr[1:] + 3]), shape=(15, 9)),
        "coo_int": sp.coo_matrix(A.toarray().round().astype(np.int64)),
        "csc": A.tocsc(),
        "dense": A.toarray(),
        "dense_f32": A.toarray().astype(np.float32),
        "dense_bool": A.toarray() > 0,
        "csr_int64_index": sp.csr_matrix((A.data, A.indices.astype(np.int64),
                                          A.indptr.astype(np.int64)), shape=A.shape),
    }


@pytest.mark.parametrize("kind", list(_inputs()))
def test_inputs_unchanged(kind):
    X = _inputs()[kind]
    Y = _inputs()["csr"][:5]
    M = sp.coo_matrix((np.ones(4), ([0, 0, 2, 1], [1, 1, 3, 0])), shape=(X.shape[0], 5))
    snaps = [(_snapshot(a), a) for a in (X, Y, M)]
    gxbdist.pairwise_distances(X, metric="cosine")
    gxbdist.pairwise_distances(X, Y, metric="minkowski", p=3)
    gxbdist.pairwise_distances(X, Y, metric="manhattan", mask=M)
    gxbdist.pairwise_distances(X, Y, metric="euclidean", dtype=np.float32)
    gxbdist.kneighbors(X, n_neighbors=2)
    gxbdist.kneighbors(X, Y, n_neighbors=2, metric="cosine")
    gxbdist.kneighbors_graph(X, 2, mode="distance", include_self=True)
    gxbdist.radius_neighbors_graph(X, 1.0, metric="manhattan")
    nn = gxbdist.NearestNeighbors(n_neighbors=2, radius=0.5).fit(X)
    nn.kneighbors()
    nn.radius_neighbors(X)
    nn.kneighbors_graph(Y)
    for snap, a in snaps:
        _assert_same(a, snap)


class _MallInfo2(ctypes.Structure):
    _fields_ = [(n, ctypes.c_size_t) for n in
                "arena ordblks smblks hblks hblkhd usmblks fsmblks uordblks fordblks keepcost".split()]


def _heap_in_use():
    """Bytes malloc has handed out (glibc's mallinfo2), or None."""
    try:
        f = ctypes.CDLL(None).mallinfo2
    except AttributeError:  # pragma: no cover (glibc < 2.33)
        return None
    f.restype = _MallInfo2
    gc.collect()
    m = f()
    return m.uordblks + m.hblkhd


def _rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096


def test_no_leak_over_10000_small_calls():
    """Every kind of call, errors included, 10,000 times: malloc's bytes in
    use grow by less than 6 bytes a call, Python objects not at all.
    GraphBLAS keeps freed blocks of power-of-two sizes in a bounded memory
    pool (GxB_MEMORY_POOL; up to 16,384 blocks a size), which would read
    as growth here: it is turned off for the test and restored after."""
    rng = np.random.default_rng(_ref.seed() + 301)
    X = _ref.random_csr(rng, 8, 12, 0.4)
    Y = _ref.random_csr(rng, 6, 12, 0.4)
    M = sp.random(8, 6, density=0.5, format="csr", random_state=rng)
    neg = -abs(X)

    def one(i):
        r = i % 6
        if r == 0:
            gxbdist.pairwise_distances(X, Y, metric="cosine", n_jobs=1)
        elif r == 1:
            gxbdist.pairwise_distances(X, Y, metric="minkowski", p=3, mask=M, n_jobs=1)
        elif r == 2:
            gxbdist.kneighbors(X, n_neighbors=3, n_jobs=1)
        elif r == 3:
            gxbdist.radius_neighbors_graph(X, 1.0, mode="distance", n_jobs=1)
        elif r == 4:
            gxbdist.kneighbors_graph(X.toarray(), 2, metric="canberra", n_jobs=1)
        else:
            with pytest.raises(ValueError):
                gxbdist.pairwise_distances(neg, metric="hellinger", n_jobs=1)

    pool_set = _lib.grb.GxB_Global_Option_set
    pool_set.restype = ctypes.c_int
    zero = (ctypes.c_int64 * 64)()
    assert pool_set(ctypes.c_int(103), zero) == 0      # GxB_MEMORY_POOL: off
    try:
        for i in range(600):
            one(i)
        h0, r0, o0 = _heap_in_use(), _rss(), len(gc.get_objects())
        t = time.perf_counter()
        for i in range(10000):
            one(i)
        per_call = (time.perf_counter() - t) / 10000
        h1, r1, o1 = _heap_in_use(), _rss(), len(gc.get_objects())
    finally:
        pool_set(ctypes.c_int(103), None)               # the defaults again
    print("10,000 calls: %.0f us a call, heap %+d B, RSS %+d B, objects %+d"
          % (per_call * 1e6, (h1 - h0) if h0 else 0, r1 - r0, o1 - o0))
    if h0 is not None:
        assert h1 - h0 < 60000, "malloc'd bytes grew by %d over 10,000 calls" % (h1 - h0)
    assert o1 - o0 < 50, "Python objects grew by %d" % (o1 - o0)
    assert r1 - r0 < 4 << 20, "RSS grew by %d" % (r1 - r0)


def test_threads_in_parallel_give_the_serial_results():
    rng = np.random.default_rng(_ref.seed() + 302)
    X = _ref.random_csr(rng, 80, 40, 0.2)
    Y = _ref.random_csr(rng, 60, 40, 0.2)
    jobs = [("cosine", False), ("manhattan", True), ("chebyshev", False), ("canberra", True)] * 3
    want = [gxbdist.pairwise_distances(X, Y, metric=m) for m, _ in jobs]
    knn_want = gxbdist.kneighbors(X, Y, n_neighbors=4, metric="cosine")
    got = [None] * len(jobs)
    errors = []

    def work(i):
        try:
            m, verify = jobs[i]
            for _ in range(5):
                got[i] = gxbdist.pairwise_distances(X, Y, metric=m, verify=verify)
                d, ind = gxbdist.kneighbors(X, Y, n_neighbors=4, metric="cosine")
                assert np.array_equal(ind, knn_want[1]) and np.array_equal(d, knn_want[0])
        except BaseException as e:  # pragma: no cover
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)
    # the settings are back to what a plain call wants
    gxbdist.pairwise_distances(X, metric="euclidean")


def test_long_calls_release_the_gil():
    """A Python thread keeps running while a call computes in C (a call
    that held the GIL would stop it for the whole call)."""
    F = _ref.fortunes()
    stop = threading.Event()
    ticks = []

    def count():
        while not stop.is_set():
            ticks.append(1)
            time.sleep(0.001)

    t = threading.Thread(target=count)
    t.start()
    try:
        for rows, k in ((3000, 10), (F.shape[0], 10), (F.shape[0], 100)):
            time.sleep(0.01)
            n0 = len(ticks)
            gxbdist.kneighbors_graph(F[:rows], k, metric="manhattan")
            c = _lib.last_c_seconds()
            n1 = len(ticks)
            if c >= 0.05:
                break
    finally:
        stop.set()
        t.join()
    if c < 0.05:
        pytest.skip("no call here lasts long enough to tell (%.3f s)" % c)
    assert n1 - n0 >= 3, "%d ticks during a %.3f s C call" % (n1 - n0, c)
