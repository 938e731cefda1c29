// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// cpu/cpu_common_sums.c: the terms over the common columns of row pairs
//------------------------------------------------------------------------------

// A PLUS union of an operator only GraphBLAS can call
// (graphblas_ext/gxd_union_plus.c) needs, for a block of rows of A and
// every row of B, f (A(i,c), B(j,c)) - A0(i,c) - B0(j,c) summed over the
// columns c the two rows share, and how many there are.  The terms are
// enumerated row by row, saxpy-like over B transposed: first their values
// are gathered (X, Y) for GrB_eWiseMult to call f on all of them at once,
// then the results are summed straight into the dense block.  GrB_mxm with
// the user's semiring computed the same sums, but through GraphBLAS's
// generic saxpy (three calls through pointers per term) and into a sparse
// matrix the caller then had to scatter: two to three times slower
// (fortunes, 400 rows x all, issue 18).  Where A and B hold few distinct
// values (counts, ratings, patterns), f is called once per pair of
// distinct values instead, and the terms look their value up in that grid.

#include "gxd_cpu.h"
#include "gxd_metric_ops.h"
#include "gxd_memory.h"
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <omp.h>

void GXD_cpu_common_count (const gxd_csr *A, const gxd_csr *Bt, int64_t *terms)
{
    const int64_t *Ap = A->p, *Aj = A->j, *Btp = Bt->p ;
    #pragma omp parallel for schedule(dynamic, 64)
    for (int64_t i = 0 ; i < A->nrows ; i++)
    {
        int64_t t = 0 ;
        for (int64_t p = Ap [i] ; p < Ap [i+1] ; p++)
        {
            t += Btp [Aj [p] + 1] - Btp [Aj [p]] ;
        }
        terms [i] = t ;
    }
}

// copy values of s bytes (4 and 8: one load each)
static inline void copy (char *dst, const char *src, size_t s)
{
    if (s == 8) memcpy (dst, src, 8) ;
    else if (s == 4) memcpy (dst, src, 4) ;
    else memcpy (dst, src, s) ;
}

void GXD_cpu_common_gather (const gxd_csr *A, const gxd_csr *Bt, int64_t i0,
    int64_t i1, const int64_t *start, size_t xs, size_t ys, void *X, void *Y)
{
    const int64_t *Ap = A->p, *Aj = A->j, *Btp = Bt->p ;
    const char *Ax = A->x, *Bx = Bt->x ;
    #pragma omp parallel for schedule(dynamic, 4)
    for (int64_t i = i0 ; i < i1 ; i++)
    {
        int64_t t = start [i] - start [i0] ;
        for (int64_t p = Ap [i] ; p < Ap [i+1] ; p++)
        {
            int64_t c = Aj [p] ;
            for (int64_t q = Btp [c] ; q < Btp [c+1] ; q++, t++)
            {
                copy ((char *) X + xs * t, Ax + xs * p, xs) ;
                copy ((char *) Y + ys * t, Bx + ys * q, ys) ;
            }
        }
    }
}

int64_t GXD_cpu_distinct (const void *x, int64_t nz, size_t s,
    int64_t limit, uint64_t *values, int32_t *idx)
{
    // open addressing over a power of two at least 2 limit; keys are the
    // values' bytes (s <= 8), so values equal bit for bit are one
    int64_t cap = 16 ;
    while (cap < 2 * limit) cap *= 2 ;
    int32_t *slot = GXD_malloc (cap * sizeof (int32_t)) ;
    if (slot == NULL) return -2 ;
    for (int64_t h = 0 ; h < cap ; h++) slot [h] = -1 ;
    int64_t u = 0 ;
    const char *xb = x ;
    for (int64_t p = 0 ; p < nz ; p++)
    {
        uint64_t key = 0 ;
        memcpy (&key, xb + s * p, s) ;
        uint64_t h = (key * 0x9E3779B97F4A7C15ULL) >> 20 ;
        for (h &= (cap - 1) ; ; h = (h + 1) & (cap - 1))
        {
            int32_t v = slot [h] ;
            if (v < 0)
            {
                if (u == limit) { GXD_free (slot) ; return -1 ; }
                values [u] = key ;
                slot [h] = (int32_t) u ;
                idx [p] = (int32_t) u++ ;
                break ;
            }
            if (values [v] == key) { idx [p] = v ; break ; }
        }
    }
    GXD_free (slot) ;
    return u ;
}

// f's value of term t, of zs bytes, as 64 bits: an integer sign- or
// zero-extended (the same sum modulo 2^bits)
static inline uint64_t zload (const void *Z, int64_t t, size_t zs, bool zsigned)
{
    switch (zs)
    {
        case 1:  return zsigned ? (uint64_t) ((const int8_t  *) Z) [t] : ((const uint8_t  *) Z) [t] ;
        case 2:  return zsigned ? (uint64_t) ((const int16_t *) Z) [t] : ((const uint16_t *) Z) [t] ;
        case 4:  return zsigned ? (uint64_t) ((const int32_t *) Z) [t] : ((const uint32_t *) Z) [t] ;
        default: return ((const uint64_t *) Z) [t] ;
    }
}

void GXD_cpu_common_row (const gxd_csr *A0, const gxd_csr *B0t, int64_t i,
    int64_t t, const gxd_fvalues *F, bool fp, uint64_t *Sr, uint64_t *Nr)
{
    const void *Z = F->Z ;
    size_t zs = F->zs ;
    bool zsigned = F->zsigned ;
    const int32_t *ia = F->ia, *ib = F->ib ;
    int64_t nb = F->nb ;
    const int64_t *Ap = A0->p, *Aj = A0->j, *Btp = B0t->p, *Btj = B0t->j ;
    for (int64_t p = Ap [i] ; p < Ap [i+1] ; p++)
    {
        int64_t c = Aj [p], q0 = Btp [c], q1 = Btp [c+1] ;
        if (ia != NULL)
        {
            // f's values from the grid of distinct values
            const char *G = (const char *) Z + zs * nb * ia [p] ;
            if (fp)
            {
                double a = ((const double *) A0->x) [p], *Sd = (double *) Sr ;
                const double *b = B0t->x ;
                for (int64_t q = q0 ; q < q1 ; q++)
                {
                    double z = (zs == 4) ? ((const float *) G) [ib [q]]
                        : ((const double *) G) [ib [q]] ;
                    Sd [Btj [q]] += z - (a + b [q]) ;
                }
            }
            else
            {
                uint64_t a = ((const uint64_t *) A0->x) [p] ;
                const uint64_t *b = B0t->x ;
                for (int64_t q = q0 ; q < q1 ; q++)
                {
                    Sr [Btj [q]] += zload (G, ib [q], zs, zsigned) - (a + b [q]) ;
                }
            }
        }
        else if (fp)
        {
            double a = ((const double *) A0->x) [p], *Sd = (double *) Sr ;
            const double *b = B0t->x ;
            if (zs == 4)
            {
                const float *z = (const float *) Z + t ;
                for (int64_t q = q0 ; q < q1 ; q++)
                    Sd [Btj [q]] += (double) z [q - q0] - (a + b [q]) ;
            }
            else
            {
                const double *z = (const double *) Z + t ;
                for (int64_t q = q0 ; q < q1 ; q++)
                    Sd [Btj [q]] += z [q - q0] - (a + b [q]) ;
            }
        }
        else
        {
            uint64_t a = ((const uint64_t *) A0->x) [p] ;
            const uint64_t *b = B0t->x ;
            for (int64_t q = q0 ; q < q1 ; q++)
            {
                Sr [Btj [q]] += zload (Z, t + q - q0, zs, zsigned) - (a + b [q]) ;
            }
        }
        if (Nr != NULL)
        {
            // counts in the same representation as S
            for (int64_t q = q0 ; q < q1 ; q++)
            {
                if (fp) ((double *) Nr) [Btj [q]] += 1 ;
                else Nr [Btj [q]] += 1 ;
            }
        }
        t += q1 - q0 ;
    }
}

//------------------------------------------------------------------------------
// MIN and MAX unions
//------------------------------------------------------------------------------

// value t of F's type as the arithmetic's 64 bits
static inline uint64_t fvalue (const void *Z, int64_t t, const gxd_fvalues *F,
    gxd_key_kind kind)
{
    if (kind != GXD_KEY_FP) return zload (Z, t, F->zs, F->zsigned) ;
    double d = (F->zs == 4) ? ((const float *) Z) [t] : ((const double *) Z) [t] ;
    uint64_t v ;
    memcpy (&v, &d, sizeof (v)) ;
    return v ;
}

void GXD_cpu_keys (uint64_t *keys, const gxd_fvalues *F, int64_t L,
    gxd_key_kind kind, bool min)
{
    #pragma omp parallel for schedule(static)
    for (int64_t t = 0 ; t < L ; t++)
    {
        keys [t] = gxd_key (fvalue (F->Z, t, F, kind), kind, min) ;
    }
}

// the sort's entries: a key and where the entry was
typedef struct { uint64_t key ; int64_t p ; } keyed ;

static int by_key_desc (const void *x, const void *y)
{
    uint64_t a = ((const keyed *) x)->key, b = ((const keyed *) y)->key ;
    return (a < b) - (a > b) ;
}

GrB_Info GXD_cpu_sort_rows (int64_t *Sj, uint64_t *Sk, int64_t *perm,
    const int64_t *p, const int64_t *j, int64_t nrows, const uint64_t *key)
{
    int64_t widest = 1 ;
    for (int64_t i = 0 ; i < nrows ; i++)
    {
        if (p [i+1] - p [i] > widest) widest = p [i+1] - p [i] ;
    }
    int nth = omp_get_max_threads () ;
    keyed *work = GXD_malloc (nth * widest * sizeof (keyed)) ;
    if (work == NULL) return GrB_OUT_OF_MEMORY ;
    #pragma omp parallel num_threads(nth)
    {
        keyed *e = work + widest * omp_get_thread_num () ;
        #pragma omp for schedule(dynamic, 64)
        for (int64_t i = 0 ; i < nrows ; i++)
        {
            int64_t p0 = p [i], len = p [i+1] - p0 ;
            for (int64_t t = 0 ; t < len ; t++) e [t] = (keyed) { key [p0 + t], p0 + t } ;
            qsort (e, len, sizeof (keyed), by_key_desc) ;
            for (int64_t t = 0 ; t < len ; t++)
            {
                Sj [p0 + t] = j [e [t].p] ;
                Sk [p0 + t] = e [t].key ;
                if (perm != NULL) perm [p0 + t] = e [t].p ;
            }
        }
    }
    GXD_free (work) ;
    return GrB_SUCCESS ;
}

static inline uint64_t kmax (uint64_t a, uint64_t b)
{
    return (a > b) ? a : b ;
}

void GXD_cpu_minmax_row (const gxd_minmax *R, int64_t i, const uint64_t *tk,
    const uint64_t *Gk, const int32_t *ia, const int32_t *ib, int64_t nb,
    const gxd_minmax_work *W, void *Ci)
{
    const int64_t *Ap = R->A->p, *Aj = R->A->j ;
    const int64_t *Btp = R->Bt->p, *Btj = R->Bt->j ;
    const int64_t n = R->Bt->ncols, k = R->A->ncols ;
    const int64_t p0 = Ap [i], nA = Ap [i+1] - p0 ;
    uint64_t *restrict K = W->K ;
    int32_t *restrict run = W->run, *restrict cnt = R->count ? W->cnt : NULL ;
    uint8_t *restrict mark = W->mark ;

    // over the common columns, in row i's order: K [j] = the best f, run
    // [j] = how many of row i's first entries row j holds too
    for (int64_t p = p0 ; p < Ap [i+1] ; p++)
    {
        int64_t c = Aj [p], q0 = Btp [c], q1 = Btp [c+1] ;
        int32_t t = (int32_t) (p - p0) ;
        if (R->P != NULL && R->P->metric == GXD_CHEBYSHEV)
        {
            const double x = R->Ax [p], *Btx = R->Bt->x ;
            for (int64_t q = q0 ; q < q1 ; q++)
            {
                int64_t j = Btj [q] ;
                K [j] = kmax (K [j], gxd_abs_key (x - Btx [q])) ;
                run [j] += (run [j] == t) ;
            }
        }
        else if (R->P != NULL && R->P->mult == GXD_OP_USER)
        {
            // a compiled operator: the column's terms by one call of its
            // module, the operator inlined there
            double *restrict Z = W->Z ;
            const double *Btx = R->Bt->x ;
            R->P->user_col (Z, Btx + q0, q1 - q0, R->Ax [p]) ;
            for (int64_t q = q0 ; q < q1 ; q++)
            {
                int64_t j = Btj [q] ;
                K [j] = kmax (K [j], gxd_double_key (Z [q - q0], R->min)) ;
                run [j] += (run [j] == t) ;
            }
        }
        else if (R->P != NULL)
        {
            const double x = R->Ax [p], *Btx = R->Bt->x ;
            for (int64_t q = q0 ; q < q1 ; q++)
            {
                int64_t j = Btj [q] ;
                K [j] = kmax (K [j], gxd_double_key (gxd_mult (R->P, x, Btx [q]), R->min)) ;
                run [j] += (run [j] == t) ;
            }
        }
        else if (tk == NULL)
        {
            const uint64_t *G = Gk + nb * ia [p] ;
            for (int64_t q = q0 ; q < q1 ; q++)
            {
                int64_t j = Btj [q] ;
                K [j] = kmax (K [j], G [ib [q]]) ;
                run [j] += (run [j] == t) ;
            }
        }
        else
        {
            for (int64_t q = q0 ; q < q1 ; q++)
            {
                int64_t j = Btj [q] ;
                K [j] = kmax (K [j], tk [q - q0]) ;
                run [j] += (run [j] == t) ;
            }
            tk += q1 - q0 ;
        }
        if (cnt != NULL) for (int64_t q = q0 ; q < q1 ; q++) cnt [Btj [q]]++ ;
        mark [c] = 1 ;
    }

    // each pair: the best of the four, then the row's workspace cleared.
    // Row j's best column first, from arrays read in order: most rows of B
    // hold it where row i does not (else their next ones, row by row)
    const uint64_t *Ak = R->Ak + p0, *Bk = R->Bk, *Bk0 = R->Bk0 ;
    const int64_t *Bp = R->Bp, *Bj = R->Bj, *Bj0 = R->Bj0 ;
    const uint64_t fee = R->fee ;
    const gxd_key_kind kind = R->kind ;
    const bool min = R->min ;
    const size_t zs = R->zs ;
    // key 0 is NaN (every term NaN) but where there is no column at all:
    // then a plan's pairs take its monoid's identity
    const bool none = (R->P != NULL && R->P->metric == GXD_GENERIC && k == 0) ;
    uint64_t identity = 0 ;
    if (none) memcpy (&identity, &R->P->add_identity, sizeof (identity)) ;
    for (int64_t j = 0 ; j < n ; j++)
    {
        uint64_t best = K [j] ;
        if (run [j] < nA) best = kmax (best, Ak [run [j]]) ;
        bool miss = (cnt == NULL) || (nA + (Bp [j+1] - Bp [j]) - cnt [j] < k) ;
        if (miss) best = kmax (best, fee) ;
        // row j's entries only while they could beat the best so far (an
        // empty row's key 0 never does)
        if (Bk0 [j] > best)
        {
            if (!mark [Bj0 [j]]) best = Bk0 [j] ;
            else
            {
                int64_t q = Bp [j] + 1, q1 = Bp [j+1] ;
                while (q < q1 && Bk [q] > best && mark [Bj [q]]) q++ ;
                if (q < q1) best = kmax (best, Bk [q]) ;
            }
        }
        uint64_t v = (best == 0 && none) ? identity : gxd_key_value (best, kind, min) ;
        if (kind == GXD_KEY_FP)
        {
            double d ;
            memcpy (&d, &v, sizeof (d)) ;
            if (zs == 4) ((float *) Ci) [j] = (float) d ;
            else ((double *) Ci) [j] = d ;
        }
        else switch (zs)
        {
            case 1:  ((uint8_t  *) Ci) [j] = (uint8_t)  v ; break ;
            case 2:  ((uint16_t *) Ci) [j] = (uint16_t) v ; break ;
            case 4:  ((uint32_t *) Ci) [j] = (uint32_t) v ; break ;
            default: ((uint64_t *) Ci) [j] = v ; break ;
        }
        K [j] = 0 ;
        run [j] = 0 ;
        if (cnt != NULL) cnt [j] = 0 ;
    }
    for (int64_t p = p0 ; p < Ap [i+1] ; p++) mark [Aj [p]] = 0 ;
}
