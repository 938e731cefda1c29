// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// graphblas_ext/gxd_union_plus.c: a PLUS union by intersection and row terms
//------------------------------------------------------------------------------

// An operator f that only GraphBLAS can call (no C definition, or integer
// types), under the PLUS monoid: the union's sum splits by where column c
// lies, as the built-in metrics' sums do (issue 18).  With A0 = f(., e)
// applied to A, B0 = f(e, .) applied to B, A_i and B_j the rows' patterns:
//
//   d(i,j) = sum_{c in A_i n B_j} f (a_ic, b_jc)          T1 = A PLUS.f B'
//          - sum_{c in A_i n B_j} (A0_ic + B0_jc)         P  = A0 PLUS.PLUS B0'
//          + sum_{c in A_i} A0_ic + sum_{c in B_j} B0_jc  rA_i + rB_j
//          + (k - |A_i| - |B_j| + cnt_ij) f (e, e)        cnt = A PLUS.PAIR B'
//
// (P is the T2 + T3 of the issue in one sum.)  f is called by GraphBLAS
// only: once per entry of A and B (GrB_apply), and once per term of T1,
// the common columns of the pairs; everything else is built-in arithmetic.
// So the work is that of the sparse product A B', where the union path (the
// rows merged pair by pair, gxd_union_graphblas.c) costs the sum of the
// union sizes through GraphBLAS's generic kernels: 100-140x the built-in
// metric, against about 4-6x here (fortunes, 2 cores, FP32).
//
// Every pair: the CPU backend enumerates T1's terms row by row over B'
// (cpu/cpu_common_sums.c), f's values come from gxd_union_terms.c (a grid
// of distinct values, or chunks of terms gathered for one GrB_eWiseMult
// each), and the backend sums f - A0 - B0 (and the count)
// straight into the block's pairs.  GrB_mxm with the user's semiring did the
// same in its generic saxpy (three calls through pointers per term) into a
// sparse result to scatter: about 1.5x slower.  Along a mask, T1, P and cnt
// are masked GrB_mxm products (dot products of the mask's pairs only),
// scattered into the block.
//
// Integers: computed in 64 bits with wrap-around and cut to the operator's
// type, which is the same sum modulo 2^bits: exact.  FP32/FP64: the terms
// are summed in double (f's values are the operator's type) and may
// cancel; every pair whose bound on the rewrite's extra error passes the
// house tolerance of its value (rel 1e-5 FP32, 1e-12 FP64) is left in
// redo, for the union path to compute exactly as before.  A non-finite
// f(x,e), f(e,y) or f(e,e) (or row sums that overflow) would make inf -
// inf: then the rewrite does not run at all.
//
// Rows of A go in blocks of a bounded number of pairs, and the terms in
// chunks of a bounded number, so that memory stays O(nnz + result + a
// block) whatever m and n.

#include "gxd_internal.h"
#include "gxd_test_hooks.h"
#include "gxd_cpu.h"
#include <math.h>

// pairs per block of rows: a block holds T1 - P, cnt and a flag per pair
// (17 bytes; every pair: each row's sums are finished while in cache), and
// along a mask one GrB_mxm product at a time (a column index and a value
// per pair with a common column, and GraphBLAS's workspace): at most about
// 35 bytes a pair, 150 MiB.  Large on purpose: each block costs a few
// parallel loops or GrB_mxm calls of fixed cost (fortunes, 2000 rows x
// all, 2 cores: blocks of 2^18 pairs took 1.7x the time of 2^22; along a
// mask, 2^18 took 3x the time of 2^21)
#define GXD_PLUS_BLOCK (1 << 22)

// testing hook (gxd_test_hooks.h): blocks of this many pairs (0: the
// default); the terms' chunks are gxd_union_terms.c's
static int64_t block_pairs = 0 ;

void GXD_union_plus_set_block (int64_t pairs, int64_t terms)
{
    block_pairs = (pairs > 0) ? pairs : 0 ;
    GXD_terms_set_chunk (terms) ;
}

// the unit roundoff of double: the row terms are summed in double
#define GXD_U 0x1p-53

// testing hook (gxd_test_hooks.h): pairs computed by the rewrite, and of
// those, pairs the union path computed again
static int64_t stat_pairs = 0, stat_redone = 0 ;

void GXD_union_plus_stats (int64_t *pairs, int64_t *redone)
{
    *pairs = __atomic_load_n (&stat_pairs, __ATOMIC_RELAXED) ;
    *redone = __atomic_load_n (&stat_redone, __ATOMIC_RELAXED) ;
}

void GXD_redo_free (gxd_redo *R)
{
    GXD_free (R->i) ; GXD_free (R->j) ; GXD_free (R->pos) ;
    memset (R, 0, sizeof (*R)) ;
}

// room for need pairs in R
static bool redo_reserve (gxd_redo *R, int64_t need)
{
    if (need <= R->cap) return true ;
    int64_t cap = (R->cap < 1024) ? 1024 : 2 * R->cap ;
    if (cap < need) cap = need ;
    int64_t *a [3] = { R->i, R->j, R->pos } ;
    int64_t *b [3] ;
    for (int q = 0 ; q < 3 ; q++)
    {
        b [q] = GXD_malloc (cap * sizeof (int64_t)) ;
        if (b [q] == NULL)
        {
            for (int r = 0 ; r < q ; r++) GXD_free (b [r]) ;
            return false ;
        }
        if (R->n > 0) memcpy (b [q], a [q], R->n * sizeof (int64_t)) ;
        GXD_free (a [q]) ;
    }
    R->i = b [0] ; R->j = b [1] ; R->pos = b [2] ;
    R->cap = cap ;
    return true ;
}

//------------------------------------------------------------------------------
// the arithmetic: double for FP32/FP64, 64-bit integers otherwise
//------------------------------------------------------------------------------

typedef struct
{
    bool fp ;
    GrB_Type w ;                    // FP64, INT64 or UINT64
    GrB_Semiring plus_plus, plus_pair ;
    size_t zs ;                     // bytes of the result type
    double tol ;                    // FP: the house tolerance
    double fee ;                    // f(e,e), FP
    uint64_t feeu ;                 // f(e,e), integers (bits of INT64/UINT64)
    bool count ;                    // f(e,e) != 0: cnt needed
    int64_t k ;
}
arith ;

// false where ztype has no PLUS rewrite (BOOL, complex)
static bool arith_of (arith *a, GrB_Type z)
{
    const GrB_Type si [4] = { GrB_INT8, GrB_INT16, GrB_INT32, GrB_INT64 } ;
    const GrB_Type ui [4] = { GrB_UINT8, GrB_UINT16, GrB_UINT32, GrB_UINT64 } ;
    memset (a, 0, sizeof (*a)) ;
    if (z == GrB_FP32 || z == GrB_FP64)
    {
        a->fp = true ;
        a->w = GrB_FP64 ;
        a->plus_plus = GxB_PLUS_PLUS_FP64 ;
        a->plus_pair = GxB_PLUS_PAIR_FP64 ;     // counts < 2^53: exact
        a->tol = (z == GrB_FP32) ? 1e-5 : 1e-12 ;
        return true ;
    }
    for (int q = 0 ; q < 4 ; q++)
    {
        if (z == si [q])
        {
            a->w = GrB_INT64 ;
            a->plus_plus = GxB_PLUS_PLUS_INT64 ;
            a->plus_pair = GxB_PLUS_PAIR_INT64 ;
            return true ;
        }
        if (z == ui [q])
        {
            a->w = GrB_UINT64 ;
            a->plus_plus = GxB_PLUS_PLUS_UINT64 ;
            a->plus_pair = GxB_PLUS_PAIR_UINT64 ;
            return true ;
        }
    }
    return false ;
}

// the monoid is PLUS of its type, with identity 0 (a PLUS monoid made with
// another identity is not a sum: left to the union path)
static GrB_Info is_plus (bool *plus, GrB_Monoid add, GrB_Type z)
{
    #define GXD_FREE_ALL ;
    const GrB_BinaryOp ops [10] =
    {
        GrB_PLUS_INT8, GrB_PLUS_INT16, GrB_PLUS_INT32, GrB_PLUS_INT64,
        GrB_PLUS_UINT8, GrB_PLUS_UINT16, GrB_PLUS_UINT32, GrB_PLUS_UINT64,
        GrB_PLUS_FP32, GrB_PLUS_FP64
    } ;
    GrB_BinaryOp op ;
    *plus = false ;
    GXD_TRY (GxB_Monoid_operator (&op, add)) ;
    for (int q = 0 ; q < 10 ; q++) *plus |= (op == ops [q]) ;
    if (!*plus) return GrB_SUCCESS ;
    uint64_t id [2] = { 0, 0 } ;        // the largest of these types: 8 bytes
    size_t zs ;
    GXD_TRY (GxB_Type_size (&zs, z)) ;
    GXD_TRY (GxB_Monoid_identity (id, add)) ;
    const char *b = (const char *) id ;
    for (size_t q = 0 ; q < zs ; q++) *plus &= (b [q] == 0) ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

// f(e,e) into a
static GrB_Info f_of_identity (arith *a, const gxd_call *call, GrB_Scalar ex,
    GrB_Scalar ey)
{
    #define GXD_FREE_ALL ;
    GXD_TRY (GXD_terms_fee (&a->feeu, call, a->w, ex, ey)) ;
    if (a->fp)
    {
        memcpy (&a->fee, &a->feeu, sizeof (double)) ;
        a->count = (a->fee != 0) ;
    }
    else a->count = (a->feeu != 0) ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

//------------------------------------------------------------------------------
// the row terms of A0 (or B0): counts, sums, sums of magnitudes
//------------------------------------------------------------------------------

typedef struct
{
    int64_t *n ;        // entries of row i
    double *r, *s ;     // FP: the row's sum and its sum of |.|
    uint64_t *u ;       // integers: the row's sum, wrapping
}
side ;

static void side_free (side *S)
{
    GXD_free (S->n) ; GXD_free (S->r) ; GXD_free (S->s) ; GXD_free (S->u) ;
    memset (S, 0, sizeof (*S)) ;
}

// S = the row terms of X0 (X0->T the matrix, unpacked here; by_col: X0
// holds the rows as its columns, B0 transposed); *finite false where a sum
// of magnitudes is not finite
static GrB_Info side_new (side *S, bool *finite, gxd_rows *X0, bool by_col,
    const arith *a)
{
    #define GXD_FREE_ALL side_free (S) ;
    GXD_TRY (GXD_rows_unpack (X0)) ;
    int64_t m = by_col ? X0->csr.ncols : X0->csr.nrows ;
    const int64_t *Xp = X0->csr.p, *Xj = X0->csr.j ;
    const double *xd = X0->csr.x ;
    const uint64_t *xu = X0->csr.x ;
    S->n = GXD_calloc (m + 1, sizeof (int64_t)) ;
    if (a->fp)
    {
        S->r = GXD_calloc (m + 1, sizeof (double)) ;
        S->s = GXD_calloc (m + 1, sizeof (double)) ;
    }
    else S->u = GXD_calloc (m + 1, sizeof (uint64_t)) ;
    if (S->n == NULL || (a->fp ? (S->r == NULL || S->s == NULL) : S->u == NULL))
    {
        GXD_FAIL (GrB_OUT_OF_MEMORY, "out of memory") ;
    }
    if (by_col)
    {
        // each row's terms in the order of its columns, as by rows
        int64_t nc = X0->csr.nrows ;
        for (int64_t c = 0 ; c < nc ; c++)
        {
            for (int64_t p = Xp [c] ; p < Xp [c+1] ; p++)
            {
                int64_t i = Xj [p] ;
                S->n [i]++ ;
                if (a->fp) { S->r [i] += xd [p] ; S->s [i] += fabs (xd [p]) ; }
                else S->u [i] += xu [p] ;
            }
        }
    }
    else
    {
        #pragma omp parallel for schedule(static)
        for (int64_t i = 0 ; i < m ; i++)
        {
            S->n [i] = Xp [i+1] - Xp [i] ;
            for (int64_t p = Xp [i] ; p < Xp [i+1] ; p++)
            {
                if (a->fp) { S->r [i] += xd [p] ; S->s [i] += fabs (xd [p]) ; }
                else S->u [i] += xu [p] ;
            }
        }
    }
    bool ok = true ;
    for (int64_t i = 0 ; a->fp && i < m ; i++) ok = ok && isfinite (S->s [i]) ;
    *finite = ok ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

//------------------------------------------------------------------------------
// one block of rows of A: its pairs into Cx, the untrusted ones into redo
//------------------------------------------------------------------------------

typedef struct
{
    const gxd_call *call ;
    const arith *a ;
    GrB_Semiring sr ;           // the user's (+).(x)
    GrB_Matrix A, A0 ;          // m x k: along a mask, dot products ...
    GrB_Matrix B, B0 ;          // n x k  ... by GrB_mxm
    const gxd_csr *A0c, *B0t ;  // every pair: A0 and B0' as arrays, for
    gxd_terms *terms ;          // the terms the CPU backend enumerates
    const side *SA, *SB ;
    const gxd_csr *M ;          // the mask's pattern, or NULL: every pair
    int64_t m, n ;
    char *Cx ;
    uint64_t *x, *c ;           // per pair of a block: T1 - P, cnt (bits of
                                // double for FP, of 64-bit integers else)
    uint8_t *bad ;              // per pair of a block: not trusted
    int64_t *row_bad ;          // per row of a block: its pairs not trusted
}
job ;

// the first pair (position in Cx) of row i
static inline int64_t row_start (const job *J, int64_t i)
{
    return (J->M != NULL) ? J->M->p [i] : i * J->n ;
}

// an integer result of size zs at Cx [t], cut from 64 bits (the low bits:
// the sum modulo 2^bits)
static inline void put_int (char *Cx, int64_t t, size_t zs, uint64_t d)
{
    switch (zs)
    {
        case 1:  ((uint8_t  *) Cx) [t] = (uint8_t)  d ; break ;
        case 2:  ((uint16_t *) Cx) [t] = (uint16_t) d ; break ;
        case 4:  ((uint32_t *) Cx) [t] = (uint32_t) d ; break ;
        default: ((uint64_t *) Cx) [t] = d ; break ;
    }
}

// X(q) of type t, as the arithmetic's 64 bits: a double for FP32/FP64, an
// integer sign- or zero-extended (the same sum modulo 2^bits)
static inline uint64_t load (const void *X, int64_t q, GrB_Type t)
{
    union { double d ; uint64_t u ; } v ;
    if      (t == GrB_FP64)   v.d = ((const double   *) X) [q] ;
    else if (t == GrB_FP32)   v.d = ((const float    *) X) [q] ;
    else if (t == GrB_INT8)   v.u = (uint64_t) ((const int8_t  *) X) [q] ;
    else if (t == GrB_INT16)  v.u = (uint64_t) ((const int16_t *) X) [q] ;
    else if (t == GrB_INT32)  v.u = (uint64_t) ((const int32_t *) X) [q] ;
    else if (t == GrB_UINT8)  v.u = ((const uint8_t  *) X) [q] ;
    else if (t == GrB_UINT16) v.u = ((const uint16_t *) X) [q] ;
    else if (t == GrB_UINT32) v.u = ((const uint32_t *) X) [q] ;
    else                      v.u = ((const uint64_t *) X) [q] ;
    return v.u ;
}

// w [pair - first pair of row i0] = X(i,j) (X of type t), or X(i,j) - w
// [...] (from: w held P, X is T1), for the entries of X (rows [i0, i1) of a
// product along the mask); false if an entry is not a pair of the mask
// (never expected)
static bool scatter (const job *J, int64_t i0, int64_t i1, const gxd_rows *X,
    uint64_t *w, GrB_Type t, bool from)
{
    bool fp = J->a->fp ;
    double *wd = (double *) w ;
    const int64_t *Xp = X->csr.p, *Xj = X->csr.j ;
    const int64_t *Mp = J->M->p, *Mj = J->M->j ;
    bool fine = true ;
    int64_t tb = Mp [i0] ;
    #pragma omp parallel for schedule(dynamic, 4) reduction(&&:fine)
    for (int64_t i = i0 ; i < i1 ; i++)
    {
        int64_t p = Mp [i], pend = Mp [i+1] ;
        for (int64_t q = Xp [i - i0] ; q < Xp [i - i0 + 1] ; q++)
        {
            // along the mask's row (X's row is sorted there)
            int64_t j = Xj [q] ;
            while (p < pend && Mj [p] < j) p++ ;
            if (p == pend || Mj [p] != j) { fine = false ; break ; }
            int64_t s = p - tb ;
            uint64_t v = load (X->csr.x, q, t) ;
            if (!from) w [s] = v ;
            else if (fp)
            {
                double d ;
                memcpy (&d, &v, sizeof (d)) ;
                wd [s] = d - wd [s] ;
            }
            else w [s] = v - w [s] ;
        }
    }
    return fine ;
}

// the FP pairs t0 <= t < t1 of row i: Cx [t] (float if f32, else double)
// and bad [t - tb], from x and c at [t - tb]; columns Mj [t], or t - t0
// where Mj is NULL (every pair).  Inlined with constant dense and f32, so
// that each of the four loops is compiled on its own (and vectorized).
static inline __attribute__ ((always_inline)) int64_t fp_row (const bool dense,
    const bool f32, const job *J, int64_t i, int64_t t0, int64_t t1,
    int64_t tb, const int64_t *restrict Mj, const double *restrict x,
    const double *restrict c, uint8_t *restrict bad, void *Cx)
{
    const arith *a = J->a ;
    const int64_t *restrict nB = J->SB->n ;
    const double *restrict rB = J->SB->r, *restrict sB = J->SB->s ;
    const double fee = a->fee, afee = fabs (a->fee), tol = a->tol ;
    const int64_t nAi = J->SA->n [i], kA = a->k - nAi ;
    const double rAi = J->SA->r [i], sAi = J->SA->s [i] ;
    float *restrict C32 = Cx ;
    double *restrict C64 = Cx ;
    int64_t nbad = 0 ;
    for (int64_t t = t0 ; t < t1 ; t++)
    {
        int64_t j = dense ? t - t0 : Mj [t], s = t - tb ;
        double xs = x [s] ;
        // the columns missing from both rows (exact in double)
        double miss = (double) (kA - nB [j]) + ((c != NULL) ? c [s] : 0) ;
        double d = xs + (rAi + rB [j]) + miss * fee ;
        // The rewrite's extra error.  Left out: the rounding of f's own
        // values over the common columns (at most gamma_2cnt sum |f|, in
        // double, where the union path's own is gamma_|U| sum |f| in the
        // operator's type: of its order or far below).  rA, rB and P (or
        // x = sum (f - (A0 + B0)), every pair) are sums of nA, nB and at
        // most 2 cnt <= nA + nB terms within sA + sB, rounded: at most
        // (2 (nA + nB) + 1) u (sA + sB) (Higham's gamma_n).  Then 5
        // roundings (T1 - P, rA + rB, miss f(e,e) and two additions) of
        // values within |x| + (sA + sB) + miss |f(e,e)|.  1.01 covers
        // gamma_n's 1 / (1 - n u).  A pair whose bound passes tol |d|, or
        // that holds a NaN or an infinity, goes to the union path.
        double bound = 1.01 * GXD_U * ((double) (2 * (nAi + nB [j]) + 6)
            * (sAi + sB [j]) + 5 * (fabs (xs) + miss * afee)) ;
        uint8_t b = !(bound <= tol * fabs (d)) ;
        bad [s] = b ;
        nbad += b ;
        if (f32) C32 [t] = (float) d ;
        else C64 [t] = d ;
    }
    return nbad ;
}

// Cx for the pairs of row i (t0 <= t < t1, the block's first tb), from
// J->x and J->c; J->row_bad [i - i0] = how many are not trusted
static void finish_row (const job *J, int64_t i, int64_t i0, int64_t t0,
    int64_t t1, int64_t tb)
{
    const arith *a = J->a ;
    const bool f32 = (a->zs == 4) ;
    const int64_t *Mj = (J->M != NULL) ? J->M->j : NULL ;
    const double *xd = (const double *) J->x ;
    const double *cd = a->count ? (const double *) J->c : NULL ;
    if (a->fp)
    {
        int64_t any ;
        if (Mj == NULL && f32)
            any = fp_row (true, true, J, i, t0, t1, tb, Mj, xd, cd, J->bad, J->Cx) ;
        else if (Mj == NULL)
            any = fp_row (true, false, J, i, t0, t1, tb, Mj, xd, cd, J->bad, J->Cx) ;
        else if (f32)
            any = fp_row (false, true, J, i, t0, t1, tb, Mj, xd, cd, J->bad, J->Cx) ;
        else
            any = fp_row (false, false, J, i, t0, t1, tb, Mj, xd, cd, J->bad, J->Cx) ;
        J->row_bad [i - i0] = any ;
    }
    else
    {
        const int64_t *nB = J->SB->n ;
        const uint64_t *uB = J->SB->u, *xu = J->x, *cu = J->c ;
        uint64_t uAi = J->SA->u [i], fee = a->feeu ;
        int64_t kA = a->k - J->SA->n [i] ;
        for (int64_t t = t0 ; t < t1 ; t++)
        {
            int64_t j = (Mj != NULL) ? Mj [t] : t - t0, s = t - tb ;
            uint64_t miss = (uint64_t) (kA - nB [j]) + (a->count ? cu [s] : 0) ;
            put_int (J->Cx, t, a->zs, xu [s] + uAi + uB [j] + miss * fee) ;
        }
        J->row_bad [i - i0] = 0 ;
    }
}

// Cx for the pairs of rows [i0, i1) along the mask, from J->x and J->c
static void combine (const job *J, int64_t i0, int64_t i1)
{
    const int64_t *Mp = J->M->p, tb = Mp [i0] ;
    #pragma omp parallel for schedule(dynamic, 4)
    for (int64_t i = i0 ; i < i1 ; i++)
    {
        finish_row (J, i, i0, Mp [i], Mp [i+1], tb) ;
    }
}

// every pair, rows [r0, r1) of the block from i0: each row's sums over its
// common columns (f's values from F, row r0's first term Z [0]), then its
// pairs, while they are in cache: one parallel loop
typedef struct { const job *J ; int64_t i0 ; } block_rows ;

static GrB_Info sum_and_finish (void *self, int64_t r0, int64_t r1,
    const gxd_fvalues *F)
{
    const block_rows *R = self ;
    const job *J = R->J ;
    const arith *a = J->a ;
    const int64_t *start = J->terms->start ;
    const int64_t n = J->n, i0 = R->i0, tb = i0 * n ;
    #pragma omp parallel for schedule(dynamic, 1)
    for (int64_t i = r0 ; i < r1 ; i++)
    {
        int64_t t0 = i * n, s0 = t0 - tb ;
        memset (J->x + s0, 0, n * sizeof (uint64_t)) ;
        if (a->count) memset (J->c + s0, 0, n * sizeof (uint64_t)) ;
        GXD_cpu_common_row (J->A0c, J->B0t, i, start [i] - start [r0],
            F, a->fp, J->x + s0, a->count ? J->c + s0 : NULL) ;
        finish_row (J, i, i0, t0, t0 + n, tb) ;
    }
    return GrB_SUCCESS ;
}

// *Mb = the rows [i0, i1) of the mask's pattern (a copy, iso true)
static GrB_Info mask_rows (GrB_Matrix *Mb, const gxd_csr *M, int64_t n,
    int64_t i0, int64_t i1)
{
    #define GXD_FREE_ALL                                                    \
        GXD_free (p) ; GXD_free (j) ; GXD_free (x) ; GrB_Matrix_free (Mb) ;
    GrB_Index *p = NULL, *j = NULL ;
    bool *x = NULL ;
    int64_t nr = i1 - i0, base = M->p [i0], nz = M->p [i1] - base ;
    size_t psize = (nr + 1) * sizeof (GrB_Index) ;
    size_t jsize = (nz > 0 ? nz : 1) * sizeof (GrB_Index) ;
    p = GXD_malloc (psize) ;
    j = GXD_malloc (jsize) ;
    x = GXD_malloc (sizeof (bool)) ;
    if (p == NULL || j == NULL || x == NULL) GXD_FAIL (GrB_OUT_OF_MEMORY, "out of memory") ;
    for (int64_t r = 0 ; r <= nr ; r++) p [r] = M->p [i0 + r] - base ;
    if (nz > 0) memcpy (j, M->j + base, nz * sizeof (GrB_Index)) ;
    x [0] = true ;
    GXD_TRY (GrB_Matrix_new (Mb, GrB_BOOL, nr, n)) ;
    GXD_TRY (GxB_Matrix_pack_CSR (*Mb, &p, &j, (void **) &x, psize, jsize,
        sizeof (bool), true, false, NULL)) ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

// free *X unless it is whole (GXD_rows_range's alias)
static void drop (GrB_Matrix *X, GrB_Matrix whole)
{
    if (*X != whole) GrB_Matrix_free (X) ;
    *X = NULL ;
}

// *T = a new product of rows [i0, i1) along their mask Mb, by dot products
// (C<M> = A B')
static GrB_Info product (gxd_rows *T, const job *J, GrB_Matrix Mb,
    GrB_Semiring sr, GrB_Type type, GrB_Matrix Ab, GrB_Matrix B, int64_t nr)
{
    #define GXD_FREE_ALL GXD_rows_free (T) ;
    GXD_TRY (GrB_Matrix_new (&T->T, type, nr, J->n)) ;
    // sparse from the start: else a dense-looking result is converted to
    // bitmap and back
    GXD_TRY (GxB_Matrix_Option_set (T->T, GxB_SPARSITY_CONTROL, GxB_SPARSE)) ;
    GXD_TRY (GrB_mxm (T->T, Mb, NULL, sr, Ab, B, GrB_DESC_ST1)) ;
    GXD_TRY (GXD_rows_unpack (T)) ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

static GrB_Info block (gxd_redo *redo, job *J, int64_t i0, int64_t i1)
{
    #define GXD_FREE_ALL                                                    \
        drop (&Ab, J->A) ; drop (&A0b, J->A0) ;                             \
        GrB_Matrix_free (&Mb) ; GXD_rows_free (&T) ;
    GrB_Matrix Ab = NULL, A0b = NULL, Mb = NULL ;
    gxd_rows T = { 0 } ;
    const arith *a = J->a ;
    int64_t nr = i1 - i0, tb = row_start (J, i0), te = row_start (J, i1) ;
    size_t size = (te - tb) * sizeof (uint64_t) ;

    // x = T1 - P and c = cnt over the pairs with a common column (0
    // elsewhere), then the pairs
    if (J->M != NULL)
    {
        memset (J->x, 0, size) ;
        if (a->count) memset (J->c, 0, size) ;
        // P first, then T1 - P in one rounding
        GXD_TRY (GXD_rows_range (&Ab, J->A, i0, nr, J->m)) ;
        GXD_TRY (GXD_rows_range (&A0b, J->A0, i0, nr, J->m)) ;
        GXD_TRY (mask_rows (&Mb, J->M, J->n, i0, i1)) ;
        GXD_TRY (product (&T, J, Mb, a->plus_plus, a->w, A0b, J->B0, nr)) ;
        bool ok = scatter (J, i0, i1, &T, J->x, a->w, false) ;
        GXD_rows_free (&T) ;
        if (a->count)
        {
            GXD_TRY (product (&T, J, Mb, a->plus_pair, a->w, Ab, J->B, nr)) ;
            ok = ok && scatter (J, i0, i1, &T, J->c, a->w, false) ;
            GXD_rows_free (&T) ;
        }
        GXD_TRY (product (&T, J, Mb, J->sr, J->call->type, Ab, J->B, nr)) ;
        ok = ok && scatter (J, i0, i1, &T, J->x, J->call->type, true) ;
        GXD_rows_free (&T) ;
        if (!ok)
        {
            GXD_FAIL (GrB_PANIC, "%s: a product of a PLUS union has a pair "
                "outside the mask (internal error)", J->call->fn) ;
        }
        combine (J, i0, i1) ;
    }
    else
    {
        // f's values from the grid or chunk by chunk (gxd_union_terms.c)
        block_rows R = { J, i0 } ;
        GXD_TRY (GXD_terms_each (J->terms, i0, i1, sum_and_finish, &R)) ;
    }

    // the pairs not trusted, in order: where each row's go, then each row's
    // found on every thread (one thread scanning the rows that hold one,
    // every row where A and B share rows and a row's pair with itself
    // cancels, kept the others idle)
    if (a->fp)
    {
        int64_t *first = J->row_bad, total = redo->n ;
        for (int64_t i = i0 ; i < i1 ; i++)
        {
            int64_t c = first [i - i0] ;
            first [i - i0] = total ;
            total += c ;
        }
        first [i1 - i0] = total ;
        if (!redo_reserve (redo, total)) GXD_FAIL (GrB_OUT_OF_MEMORY, "out of memory") ;
        #pragma omp parallel for schedule(dynamic, 4)
        for (int64_t i = i0 ; i < i1 ; i++)
        {
            int64_t q = first [i - i0], qend = first [i - i0 + 1] ;
            for (int64_t t = row_start (J, i) ; q < qend ; t++)
            {
                if (!J->bad [t - tb]) continue ;
                redo->i [q] = i ;
                redo->j [q] = (J->M != NULL) ? J->M->j [t] : t - i * J->n ;
                redo->pos [q] = t ;
                q++ ;
            }
        }
        redo->n = total ;
    }
    __atomic_add_fetch (&stat_pairs, te - tb, __ATOMIC_RELAXED) ;
    GXD_FREE_ALL ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

//------------------------------------------------------------------------------
// GXD_union_plus
//------------------------------------------------------------------------------

GrB_Info GXD_union_plus (bool *done, gxd_redo *redo, void *Cx,
    const gxd_call *call, gxd_rows *Ar, gxd_rows *Br, const gxd_csr *M)
{
    #define GXD_FREE_ALL                                                    \
        GrB_Scalar_free (&ex) ; GrB_Scalar_free (&ey) ;                     \
        GrB_Semiring_free (&sr) ; GXD_rows_free (&A0) ;                     \
        GXD_rows_free (&B0) ; side_free (&SA) ; side_free (&SB) ;           \
        GXD_rows_free (&Bt) ; GXD_rows_free (&B0t) ; GXD_terms_free (&T) ;  \
        GXD_free (xw) ; GXD_free (cw) ; GXD_free (bad) ; GXD_free (rbad) ;  \
        GXD_rows_pack (Ar) ;
    GrB_Scalar ex = NULL, ey = NULL ;
    GrB_Semiring sr = NULL ;
    gxd_rows A0 = { 0 }, B0 = { 0 }, Bt = { 0 }, B0t = { 0 } ;
    side SA = { 0 }, SB = { 0 } ;
    uint64_t *xw = NULL, *cw = NULL ;
    uint8_t *bad = NULL ;
    int64_t *rbad = NULL ;
    gxd_terms T = { 0 } ;
    job J = { 0 } ;
    arith a ;
    *done = false ;
    bool plus ;
    if (!arith_of (&a, call->type)) return GrB_SUCCESS ;
    GXD_TRY (is_plus (&plus, call->add, call->type)) ;
    if (!plus) return GrB_SUCCESS ;
    GrB_Matrix A = Ar->T, B = Br->T ;
    GrB_Index m, n, k ;
    GXD_TRY (GrB_Matrix_nrows (&m, A)) ;
    GXD_TRY (GrB_Matrix_nrows (&n, B)) ;
    GXD_TRY (GrB_Matrix_ncols (&k, A)) ;
    GXD_TRY (GxB_Type_size (&a.zs, call->type)) ;
    a.k = (int64_t) k ;

    // e in each input type (typecast as the union path's), then f(e,e)
    GXD_TRY (GrB_Scalar_new (&ex, call->xtype)) ;
    GXD_TRY (GrB_Scalar_new (&ey, call->ytype)) ;
    GXD_TRY (GrB_Scalar_setElement_FP64 (ex, call->identity)) ;
    GXD_TRY (GrB_Scalar_setElement_FP64 (ey, call->identity)) ;
    GXD_TRY (f_of_identity (&a, call, ex, ey)) ;
    if (a.fp && !isfinite (a.fee)) { GXD_FREE_ALL ; return GrB_SUCCESS ; }

    // A0 = f(A, e), B0 = f(e, B) in the arithmetic's type, and their rows'
    // terms.  Every pair: B0 is made from B' (made once), and A, A0, B' and
    // B0' are kept as arrays for the CPU backend; along a mask: A0 and B0 are
    // matrices, for dot products.
    bool fa, fb, all = (M == NULL) ;
    GXD_TRY (GrB_Matrix_new (&A0.T, a.w, m, k)) ;
    GXD_TRY (GrB_Matrix_apply_BinaryOp2nd_Scalar (A0.T, NULL, NULL, call->mult,
        A, ey, NULL)) ;
    GXD_TRY (side_new (&SA, &fa, &A0, false, &a)) ;
    if (all)
    {
        GXD_TRY (GrB_Matrix_new (&Bt.T, call->ytype, k, n)) ;
        GXD_TRY (GrB_transpose (Bt.T, NULL, NULL, B, NULL)) ;
        GXD_TRY (GrB_Matrix_new (&B0t.T, a.w, k, n)) ;
        GXD_TRY (GrB_Matrix_apply_BinaryOp1st_Scalar (B0t.T, NULL, NULL,
            call->mult, ex, Bt.T, NULL)) ;
        GXD_TRY (side_new (&SB, &fb, &B0t, true, &a)) ;
    }
    else
    {
        GXD_TRY (GrB_Matrix_new (&B0.T, a.w, n, k)) ;
        GXD_TRY (GrB_Matrix_apply_BinaryOp1st_Scalar (B0.T, NULL, NULL,
            call->mult, ex, B, NULL)) ;
        GXD_TRY (side_new (&SB, &fb, &B0, false, &a)) ;
        GXD_TRY (GXD_rows_pack (&A0)) ;
        GXD_TRY (GXD_rows_pack (&B0)) ;
    }
    if (!fa || !fb) { GXD_FREE_ALL ; return GrB_SUCCESS ; }
    GXD_TRY (GrB_Semiring_new (&sr, call->add, call->mult)) ;

    // the most pairs a block can have: the budget, or one row's
    int64_t total = (M != NULL) ? M->p [m] : (int64_t) (m * n) ;
    int64_t budget = (block_pairs > 0) ? block_pairs : GXD_PLUS_BLOCK ;
    int64_t most = budget + (int64_t) n ;
    if (most > total) most = (total > 0) ? total : 1 ;
    xw = GXD_malloc (most * sizeof (uint64_t)) ;
    cw = a.count ? GXD_malloc (most * sizeof (uint64_t)) : NULL ;
    bad = GXD_malloc (most) ;
    rbad = GXD_malloc ((m + 1) * sizeof (int64_t)) ;
    if (xw == NULL || (a.count && cw == NULL) || bad == NULL || rbad == NULL)
    {
        GXD_FAIL (GrB_OUT_OF_MEMORY, "out of memory") ;
    }
    J = (job) { .call = call, .a = &a, .sr = sr, .A = A, .A0 = A0.T, .B = B,
        .B0 = B0.T, .A0c = &A0.csr, .B0t = &B0t.csr,
        .SA = &SA, .SB = &SB, .M = M, .m = (int64_t) m, .n = (int64_t) n,
        .Cx = Cx, .x = xw, .c = cw, .bad = bad, .row_bad = rbad } ;

    if (all)
    {
        // the terms of each row, then f on the grid of distinct values or
        // term by term
        GXD_TRY (GXD_rows_unpack (Ar)) ;
        GXD_TRY (GXD_rows_unpack (&Bt)) ;
        GXD_TRY (GXD_terms_new (&T, call, &Ar->csr, &Bt.csr, a.zs,
            a.w == GrB_INT64)) ;
        J.terms = &T ;
    }

    // blocks of rows of at most budget pairs (at least one row)
    int64_t redo0 = redo->n ;
    int64_t i0 = 0 ;
    while (i0 < (int64_t) m)
    {
        int64_t i1 = i0 + 1 ;
        while (i1 < (int64_t) m
            && row_start (&J, i1 + 1) - row_start (&J, i0) <= budget)
        {
            i1++ ;
        }
        GXD_TRY (block (redo, &J, i0, i1)) ;
        i0 = i1 ;
    }
    __atomic_add_fetch (&stat_redone, redo->n - redo0, __ATOMIC_RELAXED) ;
    *done = true ;
    GXD_FREE_ALL ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}
