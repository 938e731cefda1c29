// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// cpu/cpu_internal.h: shared pieces of the OpenMP backend
//------------------------------------------------------------------------------

// The backend works in double throughout (inputs widened once, O(nnz)),
// so FP32 results carry no accumulation error beyond the final rounding.

#ifndef GXD_CPU_INTERNAL_H
#define GXD_CPU_INTERNAL_H

#include "gxd_cpu.h"
#include "gxd_metric_ops.h"
#include "gxd_memory.h"
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

// a CSR matrix with double values (owned copy of the values only)
typedef struct
{
    int64_t nrows, ncols ;
    const int64_t *p, *j ;
    double *x ;             // widened values (owned)
    gxd_row *row ;          // per-row context (owned)
    double *n0, *n1, *inv, *nrm, *mu, *sc ;  // the same by field, for
                            // streaming through a block of B (owned)
}
cpu_rows ;

// row j's context from the by-field arrays: only the fields metric m reads
// are loaded once this is inlined with m a constant
static inline gxd_row cpu_row (const cpu_rows *R, int64_t j)
{
    gxd_row r ;
    r.n0 = R->n0 [j] ; r.n1 = R->n1 [j] ; r.inv = R->inv [j] ;
    r.nrm = R->nrm [j] ; r.mu = R->mu [j] ; r.sc = R->sc [j] ; r.hi = 0 ;
    r.nnz = 0 ;
    return r ;
}

// rows of B a block: a thread's accumulators over one block stay in cache
#define CPU_JBLOCK 16384
// A with fewer entries than B's over this: the rewrite's blocks of B hold
// A's columns only (the test of a column costs less than the entries it
// leaves out)
#define CPU_FEW_COLUMNS 4

// the rows of B in a block (CPU_JBLOCK, or all n, at least 1)
static inline int64_t cpu_jblock (int64_t n)
{
    return (n < CPU_JBLOCK) ? (n > 0 ? n : 1) : CPU_JBLOCK ;
}

// rows [j0, j1) of B held by column: for column c, entries Bp[c]..Bp[c+1]-1,
// with local row index j - j0 (increasing) and value Bx.  The index is Bi
// (32 bits: the rewrite's accumulators, a user's compiled column) or, wide,
// Bj (64 bits: gxd_csr's, the B transposed that gxd_minmax reads).  Fb,
// where asked for: room for a value per entry (a user's rewrite keeps
// f(e, y) there, cpu_dense.c)
typedef struct
{
    int64_t j0, j1 ;
    int64_t *Bp ;
    int32_t *Bi ;           // NULL if wide
    double *Bx ;
    int64_t *Bj ;           // NULL unless wide
    double *Fb ;            // NULL unless asked for
}
cpu_tile ;

GrB_Info GXD_cpu_rows_new (cpu_rows *R, const gxd_plan *P, const gxd_csr *M,
    bool left, char *msg) ;
void GXD_cpu_rows_free (cpu_rows *R) ;
// both operands: A as left rows, B as right rows (freed together on failure)
GrB_Info GXD_cpu_rows_pair (cpu_rows *A, cpu_rows *B, const gxd_plan *P,
    const gxd_csr *Acsr, const gxd_csr *Bcsr, char *msg) ;

// room for B's largest block [j0, j0 + cpu_jblock (n)) (j0 a multiple of
// the block); then each such block written over it by GXD_cpu_tile_fill:
// every column, or (active not NULL) only the columns c with active [c]
// (those of A, where a walk reads no other), the rest left empty
GrB_Info GXD_cpu_tile_new (cpu_tile *T, const cpu_rows *B, bool wide,
    bool fb, char *msg) ;
void GXD_cpu_tile_fill (cpu_tile *T, const cpu_rows *B, int64_t j0,
    int64_t j1, const uint8_t *active) ;
void GXD_cpu_tile_free (cpu_tile *T) ;

// CHEBYSHEV, or a generic plan under MIN or MAX, of every pair (the plans
// GXD_cpu_minmax_plan accepts): C [i*n + j] (sink NULL) or each row's
// pieces of CPU_JBLOCK columns handed to the sink (cpu_dense.c's two forms)
bool GXD_cpu_minmax_plan (const gxd_plan *P) ;
GrB_Info GXD_cpu_minmax (const gxd_plan *P, const cpu_rows *A,
    const cpu_rows *B, void *C, const gxd_cpu_sink *sink, char *msg) ;

// exact distance of one pair over the union of its columns
double GXD_cpu_pair (const gxd_plan *P, const cpu_rows *A, int64_t i,
    const cpu_rows *B, int64_t j) ;

// store d at position q of a float or double array
static inline void cpu_store (void *C, int64_t q, double d, bool fp64)
{
    if (fp64) ((double *) C) [q] = d ;
    else ((float *) C) [q] = (float) d ;
}

#define CPU_OOM(msg, what) \
    (snprintf (msg, GXD_MSG_LEN, "out of memory (%s)", what), \
     GrB_OUT_OF_MEMORY)

#endif
