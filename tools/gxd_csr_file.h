// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// tools/gxd_csr_file.h: the benchmarks' binary sparse matrices (.csr)
//------------------------------------------------------------------------------

// Not part of the gxbdist API: the .csr files that bench/seed_to_csr.py
// writes (the paper's shapes at full size load in seconds, where Matrix
// Market text takes minutes).  The file is untrusted input: its header,
// size, row pointers and column indices are all checked before GraphBLAS
// takes the arrays.  On failure one line goes to stderr ("gxd_csr_file:
// <file>: <what>"): GrB_INVALID_VALUE (cannot be opened, or not a valid
// .csr file), GrB_OUT_OF_MEMORY, or what GraphBLAS returned.

#ifndef GXD_CSR_FILE_H
#define GXD_CSR_FILE_H

#include <GraphBLAS.h>

// a new FP32 matrix *A from the .csr file at path (NULL on failure)
GrB_Info GXD_csr_read (GrB_Matrix *A, const char *path) ;

#endif
