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
#include <string.h>

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

// The terms of a MIN or MAX union, as keys: 64-bit unsigned integers
// ordered as the monoid prefers (the larger key is the MAX's larger value,
// the MIN's smaller), so that one unsigned max serves every type.  NaN is
// key 0, below all else (GraphBLAS's MIN and MAX omit NaN: the result is
// NaN only when every term is), and 0 also stands for "no term".  Values
// come as the arithmetic's 64 bits: a double for FP32/FP64, an integer
// sign- (GXD_KEY_INT) or zero-extended (GXD_KEY_UINT).
typedef enum { GXD_KEY_FP, GXD_KEY_INT, GXD_KEY_UINT } gxd_key_kind ;

#define GXD_KEY_SIGN 0x8000000000000000ULL

static inline uint64_t gxd_key (uint64_t v, gxd_key_kind kind, bool min)
{
    if (kind == GXD_KEY_FP)
    {
        if ((v & ~GXD_KEY_SIGN) > 0x7FF0000000000000ULL) return 0 ;
        // negative values reversed, below the positive ones: -inf is
        // 0x000F...F, never 0
        v = (v & GXD_KEY_SIGN) ? ~v : (v | GXD_KEY_SIGN) ;
    }
    else if (kind == GXD_KEY_INT) v ^= GXD_KEY_SIGN ;
    return min ? ~v : v ;
}

// the key of a double
static inline uint64_t gxd_double_key (double x, bool min)
{
    uint64_t v ;
    memcpy (&v, &x, sizeof (v)) ;
    return gxd_key (v, GXD_KEY_FP, min) ;
}

// the key of |x| for a MAX (gxd_double_key (fabs (x), false), without the
// call): CHEBYSHEV's terms
static inline uint64_t gxd_abs_key (double x)
{
    uint64_t v ;
    memcpy (&v, &x, sizeof (v)) ;
    v &= ~GXD_KEY_SIGN ;
    return (v > 0x7FF0000000000000ULL) ? 0 : (v | GXD_KEY_SIGN) ;
}

// the value of a key, as the arithmetic's 64 bits (key 0 of FP: NaN)
static inline uint64_t gxd_key_value (uint64_t key, gxd_key_kind kind,
    bool min)
{
    if (kind == GXD_KEY_FP && key == 0) return 0x7FF8000000000000ULL ;
    uint64_t v = min ? ~key : key ;
    if (kind == GXD_KEY_FP) return (v & GXD_KEY_SIGN) ? (v & ~GXD_KEY_SIGN) : ~v ;
    if (kind == GXD_KEY_INT) return v ^ GXD_KEY_SIGN ;
    return v ;
}

// keys [t] = gxd_key of f's value Z [t] (F's type), t < L
void GXD_cpu_keys (uint64_t *keys, const gxd_fvalues *F, int64_t L,
    gxd_key_kind kind, bool min) ;

// each row of the pattern (p, j, nrows rows) in descending order of its
// entries' keys (key [q] for the entry at q): Sj and Sk the columns and keys
// in that order and (perm not NULL) perm [q] where in (p, j) the entry now
// at q was.  Ties keep no particular order: the MIN and MAX unions read
// only the keys.  GrB_OUT_OF_MEMORY or GrB_SUCCESS.
GrB_Info GXD_cpu_sort_rows (int64_t *Sj, uint64_t *Sk, int64_t *perm,
    const int64_t *p, const int64_t *j, int64_t nrows, const uint64_t *key) ;

// A MIN or MAX union of every pair, one row of A at a time.  With A0 =
// f(., e) on A, B0 = f(e, .) on B and e the missing entries' value, the
// best term of pair (i,j) is the best of: f over their common columns;
// A0 over the columns of row i that row j lacks; B0 over those of row j
// that row i lacks; f(e,e) where some column is in neither.  Each row of A
// and of B is held in descending order of its A0 (B0) keys, so the second
// is the first entry of row i's order that row j lacks, and the third the
// first of row j's that row i lacks: found in a step or a few, never by a
// merge of the two rows.
typedef struct
{
    const gxd_csr *A ;          // A's rows, each in descending order of Ak
    const uint64_t *Ak ;        // keys of A0, as A's entries
    const gxd_plan *P ;         // not NULL: the terms are P's (CHEBYSHEV's
    const double *Ax ;          // |x - y| or a generic plan's x (*) y) of
                                // these values (as A's entries) and Bt's
                                // (doubles), and a pair of no column (k =
                                // 0) gets (+)'s identity, as P's merge
                                // (cpu_pair.c) gives it; else NaN
    const gxd_csr *Bt ;         // B transposed (the common columns)
    const int64_t *Bp, *Bj ;    // B's rows, each in descending order of Bk
    const uint64_t *Bk ;        // keys of B0, as those entries
    const int64_t *Bj0 ;        // each row's first column (k: empty row) ...
    const uint64_t *Bk0 ;       // ... and its key
    uint64_t fee ;              // the key of f(e,e)
    bool count ;                // a pair may miss no column: count them
    gxd_key_kind kind ;         // the result's type: keys' kind, ...
    bool min ;
    size_t zs ;                 // ... and its bytes (4 or 8 for FP)
}
gxd_minmax ;

// the workspace of one thread: n keys, n and (count) n counters, k + 1
// marks (all zero between rows but mark [k], always 1), and (a compiled
// operator's plan) n terms
typedef struct
{
    uint64_t *K ;
    int32_t *run, *cnt ;
    uint8_t *mark ;
    double *Z ;
}
gxd_minmax_work ;

// Ci [j] (the result's type) for every row j of B, from row i's terms'
// keys: tk [0 ...] in the order of GXD_cpu_common_gather (row i's first),
// or (tk NULL) the grid's keys Gk [ia [p] * nb + ib [q]], or (R->P not
// NULL, tk and Gk NULL) the keys of P's terms computed here
void GXD_cpu_minmax_row (const gxd_minmax *R, int64_t i, const uint64_t *tk,
    const uint64_t *Gk, const int32_t *ia, const int32_t *ib, int64_t nb,
    const gxd_minmax_work *W, void *Ci) ;

#endif
