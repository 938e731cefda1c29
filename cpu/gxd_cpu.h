// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// cpu/gxd_cpu.h: the native OpenMP backend
//------------------------------------------------------------------------------

// Raw CSR arrays in, a dense row-major block or a sampled pattern's values
// out (contract: metrics/gxd_metric.h).  Used when no GPU is usable, or when
// the CPU backend is asked for.

#ifndef GXD_CPU_H
#define GXD_CPU_H

#include <GraphBLAS.h>
#include "gxd_metric.h"

// C [i*n+j] = d(A(i,:), B(j,:)), float or double (P->fp64)
GrB_Info GXD_cpu_dense (const gxd_plan *P, const gxd_csr *A, const gxd_csr *B,
    void *C, char *msg) ;

// all of C = d(A, B) as GXD_cpu_dense computes it, but each row handed to
// sink->row in pieces while they are in cache (no m x n array): the
// distances of row i against rows c0 .. c0+nc-1 of B, of the plan's type;
// rows in any order and on several threads at once, the pieces of a row in
// increasing c0
typedef struct
{
    void *self ;
    void (*row) (void *self, int64_t i, int64_t c0, int64_t nc, const void *x) ;
}
gxd_cpu_sink ;
GrB_Info GXD_cpu_rows_to (const gxd_plan *P, const gxd_csr *A,
    const gxd_csr *B, const gxd_cpu_sink *sink, char *msg) ;

// Cx [q] = d(A(i,:), B(Mj[q],:)) for Mp[i] <= q < Mp[i+1]
GrB_Info GXD_cpu_sampled (const gxd_plan *P, const gxd_csr *A,
    const gxd_csr *B, const int64_t *Mp, const int64_t *Mj, void *Cx,
    char *msg) ;

// The terms of a PLUS union over the columns c that rows i of A and j of B
// share (Bt = B transposed, k x n), enumerated row by row: for each entry
// (i,c) of A, for each entry (c,j) of Bt.
// terms [i] = how many row i has (over every j)
void GXD_cpu_common_count (const gxd_csr *A, const gxd_csr *Bt, int64_t *terms) ;
// X [t], Y [t] = A(i,c), B(j,c) (values of xs and ys bytes) for the terms
// of rows i0 <= i < i1, row i's from t = start [i] - start [i0]
void GXD_cpu_common_gather (const gxd_csr *A, const gxd_csr *Bt, int64_t i0,
    int64_t i1, const int64_t *start, size_t xs, size_t ys, void *X, void *Y) ;
// the distinct values (bit for bit) of x [0..nz-1], values of s <= 8 bytes:
// their count (values [0..count-1], their bytes in the low bytes), and idx
// [p] the number of x [p]'s; -1 if there are more than limit (-2: out of
// memory)
int64_t GXD_cpu_distinct (const void *x, int64_t nz, size_t s,
    int64_t limit, uint64_t *values, int32_t *idx) ;

// f's values for the terms: Z [t] term by term, or (ia not NULL) a grid,
// Z [ia [p] * nb + ib [q]] for the term of A's entry p and Bt's entry q;
// zs bytes each, float or double for FP, else integers signed or not
typedef struct
{
    const void *Z ;
    size_t zs ;
    bool zsigned ;
    const int32_t *ia, *ib ;
    int64_t nb ;
}
gxd_fvalues ;

// Sr [j] += f - (A0(i,c) + B0(j,c)) and Nr [j] += 1 (Nr may be NULL) for the
// terms of row i (the first of them term t of F's Z), A0 and B0t of A's and
// Bt's patterns; in double (fp) or in 64-bit integers that wrap.  One row,
// no threads: the caller runs rows in parallel, each followed by its own
// finishing while its sums are in cache.
void GXD_cpu_common_row (const gxd_csr *A0, const gxd_csr *B0t, int64_t i,
    int64_t t, const gxd_fvalues *F, bool fp, uint64_t *Sr, uint64_t *Nr) ;

#endif
