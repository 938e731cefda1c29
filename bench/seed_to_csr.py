#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""bench/seed_to_csr.py: write a sparse matrix as the .csr file that
bench/knn_bench.c reads (format at the top of knn_bench.c), and read one.

usage: seed_to_csr.py IN OUT.csr [--index 32|64]
  IN: a .npz of scipy.sparse (what ../shared/datasets/seed_shapes.py writes),
      a Matrix Market file (.mtx or .mtx.gz, scipy.io.mmread) or a .csr file
  --index: width of the column indices (default 32 when n < 2^31, else 64)
Values become float32; entries are sorted by column within each row and
duplicates summed (the file must have no repeats); explicit zeros are kept.
Prints the shape, nnz and seconds.

As a module: write_csr(path, X), read_csr(path) -> scipy.sparse.csr_matrix
(float32), load(path) (.csr, .npz or .mtx[.gz]; bench/knn_peers.py uses it),
dataset_name(path) (the file name without .csr/.npz/.mtx/.mtx.gz, as
knn_bench prints it).
"""

import os
import sys
import time

import numpy as np
import scipy.sparse as sp

MAGIC = b"GXDCSR01"
ORDER = 0x0102030405060708
HEADER = 64


def write_csr(path, X, index_bytes=None):
    """X: any scipy.sparse matrix (or array); written as float32 CSR."""
    X = sp.csr_matrix(X, dtype=np.float32)
    X.sum_duplicates()          # sorts the indices too
    X.sort_indices()
    m, n = X.shape
    if index_bytes is None:
        index_bytes = 4 if n < 2 ** 31 else 8
    if index_bytes == 4 and n >= 2 ** 31:
        raise ValueError("n = %d needs 64-bit column indices" % n)
    head = np.array([ORDER, m, n, X.nnz, index_bytes, 4, 0], dtype="<i8")
    tmp = path + ".part"
    with open(tmp, "wb") as f:
        f.write(MAGIC)
        head.tofile(f)
        X.indptr.astype("<i8").tofile(f)
        X.indices.astype("<i4" if index_bytes == 4 else "<i8").tofile(f)
        X.data.astype("<f4").tofile(f)
    os.replace(tmp, path)       # a reader never sees half a file
    return X


def read_csr(path):
    with open(path, "rb") as f:
        if f.read(8) != MAGIC:
            raise ValueError("%s: not a .csr file" % path)
        h = np.fromfile(f, dtype="<i8", count=7)
        if len(h) != 7 or h[0] != ORDER or h[4] not in (4, 8) or h[5] != 4:
            raise ValueError("%s: bad .csr header" % path)
        m, n, nnz, ib = int(h[1]), int(h[2]), int(h[3]), int(h[4])
        indptr = np.fromfile(f, dtype="<i8", count=m + 1)
        indices = np.fromfile(f, dtype="<i4" if ib == 4 else "<i8", count=nnz)
        data = np.fromfile(f, dtype="<f4", count=nnz)
        if len(indptr) != m + 1 or len(indices) != nnz or len(data) != nnz \
                or f.read(1):
            raise ValueError("%s: size does not match its header" % path)
    return sp.csr_matrix((data, indices, indptr), shape=(m, n))


def load(path):
    """.csr, .npz or Matrix Market, as float32 CSR with sorted indices."""
    if path.endswith(".csr"):
        return read_csr(path)
    if path.endswith(".npz"):
        X = sp.load_npz(path)
    else:
        import scipy.io
        X = scipy.io.mmread(path)
    X = sp.csr_matrix(X, dtype=np.float32)
    X.sum_duplicates()
    X.sort_indices()
    return X


def dataset_name(path):
    b = os.path.basename(path)
    for ext in (".mtx.gz", ".mtx", ".csr", ".npz"):
        if b.endswith(ext) and len(b) > len(ext):
            return b[:-len(ext)]
    return b


def main(argv):
    ib = None
    if "--index" in argv:
        i = argv.index("--index")
        ib = {"32": 4, "64": 8}.get(argv[i + 1] if i + 1 < len(argv) else "")
        if ib is None:
            sys.exit("seed_to_csr.py: --index 32 or 64")
        del argv[i:i + 2]
    if len(argv) != 2 or not argv[1].endswith(".csr"):
        sys.exit(__doc__)
    t = time.time()
    X = write_csr(argv[1], load(argv[0]), ib)
    print("%s -> %s: %d x %d, nnz %d (%.1f s)"
          % (argv[0], argv[1], X.shape[0], X.shape[1], X.nnz,
             time.time() - t), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
