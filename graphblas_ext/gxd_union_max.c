// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// graphblas_ext/gxd_union_max.c: a MIN or MAX union by common columns' terms
//------------------------------------------------------------------------------

// An operator f that only GraphBLAS can call (no C definition, or integer
// types), under the MIN or MAX monoid of its type, every pair.  The best
// term over the union of rows i and j is the best of four (see gxd_cpu.h,
// gxd_minmax): f over their common columns (the terms of the sparse product
// A B', gxd_union_terms.c: f called in bulk on them or on the grid of
// distinct values), f(x,e) and f(e,y) over the columns only one row holds
// (f called once per entry of A and B, by GrB_apply), and f(e,e).  The
// rows are kept in descending order of f(x,e) (f(e,y)), so the best
// column one row holds and the other lacks is found in a step or a few.
// Work: the terms of A B' plus a step per pair, where the union path
// (gxd_union_graphblas.c) merged every pair's rows and called f through
// GraphBLAS on every column of every union: 4-10x the built-in CHEBYSHEV.
//
// The result is exactly the union path's: MIN and MAX choose one of the
// terms, whatever the order (NaN omitted as GraphBLAS omits it; of two
// zeros of either sign, MAX gives +0 and MIN -0, where GraphBLAS gives the
// first it meets).  Along a mask the union path computes the mask's pairs.

#include "gxd_internal.h"
#include "gxd_test_hooks.h"
#include <omp.h>

// testing hook (gxd_test_hooks.h): pairs computed here in this process
static int64_t stat_pairs = 0 ;

int64_t GXD_union_max_stats (void)
{
    return __atomic_load_n (&stat_pairs, __ATOMIC_RELAXED) ;
}

// the monoid is MIN or MAX of z with its own identity (a MAX monoid made
// with another identity is left to the union path), z a number type:
// *kind and *min set, else *ok false
static GrB_Info monoid_of (bool *ok, gxd_key_kind *kind, bool *min,
    GrB_Type *w, const gxd_call *call)
{
    #define GXD_FREE_ALL ;
    const GrB_Type types [10] = { GrB_INT8, GrB_INT16, GrB_INT32, GrB_INT64,
        GrB_UINT8, GrB_UINT16, GrB_UINT32, GrB_UINT64, GrB_FP32, GrB_FP64 } ;
    const GrB_Monoid mins [10] = { GrB_MIN_MONOID_INT8, GrB_MIN_MONOID_INT16,
        GrB_MIN_MONOID_INT32, GrB_MIN_MONOID_INT64, GrB_MIN_MONOID_UINT8,
        GrB_MIN_MONOID_UINT16, GrB_MIN_MONOID_UINT32, GrB_MIN_MONOID_UINT64,
        GrB_MIN_MONOID_FP32, GrB_MIN_MONOID_FP64 } ;
    const GrB_Monoid maxs [10] = { GrB_MAX_MONOID_INT8, GrB_MAX_MONOID_INT16,
        GrB_MAX_MONOID_INT32, GrB_MAX_MONOID_INT64, GrB_MAX_MONOID_UINT8,
        GrB_MAX_MONOID_UINT16, GrB_MAX_MONOID_UINT32, GrB_MAX_MONOID_UINT64,
        GrB_MAX_MONOID_FP32, GrB_MAX_MONOID_FP64 } ;
    *ok = false ;
    int q = 0 ;
    while (q < 10 && types [q] != call->type) q++ ;
    if (q == 10) return GrB_SUCCESS ;
    GrB_BinaryOp op, op_min, op_max ;
    GXD_TRY (GxB_Monoid_operator (&op, call->add)) ;
    GXD_TRY (GxB_Monoid_operator (&op_min, mins [q])) ;
    GXD_TRY (GxB_Monoid_operator (&op_max, maxs [q])) ;
    if (op != op_min && op != op_max) return GrB_SUCCESS ;
    *min = (op == op_min) ;
    // the identity, bit for bit that of the built-in monoid
    uint64_t a = 0, b = 0 ;
    GXD_TRY (GxB_Monoid_identity (&a, call->add)) ;
    GXD_TRY (GxB_Monoid_identity (&b, *min ? mins [q] : maxs [q])) ;
    if (a != b) return GrB_SUCCESS ;
    *kind = (q >= 8) ? GXD_KEY_FP : (q >= 4) ? GXD_KEY_UINT : GXD_KEY_INT ;
    *w = (q >= 8) ? GrB_FP64 : (q >= 4) ? GrB_UINT64 : GrB_INT64 ;
    *ok = true ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

// the rows of R (its pattern, the 64-bit values of f in V: V's pattern is
// R's) each in descending order of their keys: columns into Sj, keys into
// Sk, and (Sx not NULL) R's values of xs bytes into Sx
static GrB_Info sort_rows (int64_t *Sj, uint64_t *Sk, char *Sx,
    const gxd_csr *R, size_t xs, const gxd_csr *V, gxd_key_kind kind,
    bool min)
{
    int64_t m = R->nrows, nz = R->p [m] ;
    uint64_t *key = GXD_malloc ((nz > 0 ? nz : 1) * sizeof (uint64_t)) ;
    int64_t *perm = (Sx == NULL) ? NULL
        : GXD_malloc ((nz > 0 ? nz : 1) * sizeof (int64_t)) ;
    GrB_Info info = GrB_OUT_OF_MEMORY ;
    if (key != NULL && (Sx == NULL || perm != NULL))
    {
        const uint64_t *v = V->x ;
        #pragma omp parallel for schedule(static)
        for (int64_t q = 0 ; q < nz ; q++) key [q] = gxd_key (v [q], kind, min) ;
        info = GXD_cpu_sort_rows (Sj, Sk, perm, R->p, R->j, m, key) ;
    }
    if (info == GrB_SUCCESS && Sx != NULL)
    {
        const char *x = R->x ;
        #pragma omp parallel for schedule(static)
        for (int64_t q = 0 ; q < nz ; q++) memcpy (Sx + xs * q, x + xs * perm [q], xs) ;
    }
    GXD_free (key) ;
    GXD_free (perm) ;
    return info ;
}

//------------------------------------------------------------------------------
// rows of A, a chunk at a time
//------------------------------------------------------------------------------

typedef struct
{
    const gxd_minmax *R ;
    const gxd_terms *T ;
    uint64_t *keys ;            // no grid: a chunk's terms' keys
    const uint64_t *Gk ;        // the grid: its keys
    gxd_minmax_work *W ;        // a workspace a thread
    char *Cx ;
    int64_t n ;
}
rows_job ;

static GrB_Info rows (void *self, int64_t r0, int64_t r1,
    const gxd_fvalues *F)
{
    const rows_job *J = self ;
    const gxd_minmax *R = J->R ;
    const int64_t *start = J->T->start ;
    bool grid = (F->ia != NULL) ;
    if (!grid)
    {
        GXD_cpu_keys (J->keys, F, start [r1] - start [r0], R->kind, R->min) ;
    }
    #pragma omp parallel
    {
        const gxd_minmax_work *W = &J->W [omp_get_thread_num ()] ;
        #pragma omp for schedule(dynamic, 1)
        for (int64_t i = r0 ; i < r1 ; i++)
        {
            GXD_cpu_minmax_row (R, i, grid ? NULL : J->keys + start [i] - start [r0],
                J->Gk, F->ia, F->ib, F->nb, W, J->Cx + i * J->n * R->zs) ;
        }
    }
    return GrB_SUCCESS ;
}

//------------------------------------------------------------------------------
// GXD_union_max
//------------------------------------------------------------------------------

GrB_Info GXD_union_max (bool *done, void *Cx, const gxd_call *call,
    gxd_rows *Ar, gxd_rows *Br, const gxd_csr *M)
{
    #define GXD_FREE_ALL                                                    \
        GrB_Scalar_free (&ex) ; GrB_Scalar_free (&ey) ;                     \
        GXD_rows_free (&A0) ; GXD_rows_free (&B0) ; GXD_rows_free (&Bt) ;   \
        GXD_terms_free (&T) ; GXD_free (Sj) ; GXD_free (Sk) ;               \
        GXD_free (Sx) ; GXD_free (Bj) ; GXD_free (Bk) ; GXD_free (keys) ;   \
        GXD_free (Gk) ; GXD_free (space) ; GXD_free (W) ; GXD_free (Bj0) ;  \
        GXD_free (Bk0) ;                                                    \
        if (unpacked) GXD_rows_pack (Ar) ;
    GrB_Scalar ex = NULL, ey = NULL ;
    gxd_rows A0 = { 0 }, B0 = { 0 }, Bt = { 0 } ;
    gxd_terms T = { 0 } ;
    int64_t *Sj = NULL, *Bj = NULL, *Bj0 = NULL ;
    uint64_t *Sk = NULL, *Bk = NULL, *Bk0 = NULL, *keys = NULL, *Gk = NULL ;
    char *Sx = NULL, *space = NULL ;
    gxd_minmax_work *W = NULL ;
    bool unpacked = false ;
    *done = false ;
    bool ok, min ;
    gxd_key_kind kind ;
    GrB_Type w ;
    if (M != NULL) return GrB_SUCCESS ;
    GXD_TRY (monoid_of (&ok, &kind, &min, &w, call)) ;
    if (!ok) return GrB_SUCCESS ;
    GrB_Matrix A = Ar->T, B = Br->T ;
    GrB_Index m, n, k ;
    GXD_TRY (GrB_Matrix_nrows (&m, A)) ;
    GXD_TRY (GrB_Matrix_nrows (&n, B)) ;
    GXD_TRY (GrB_Matrix_ncols (&k, A)) ;
    // no column: no term, the identity (the union path's)
    if (m == 0 || n == 0 || k == 0) return GrB_SUCCESS ;
    size_t xs, zs ;
    GXD_TRY (GxB_Type_size (&xs, call->xtype)) ;
    GXD_TRY (GxB_Type_size (&zs, call->type)) ;

    // e in each input type (typecast as the union path's), f(e,e), and f
    // on every entry: A0 = f(A, e), B0 = f(e, B) in 64 bits
    GXD_TRY (GrB_Scalar_new (&ex, call->xtype)) ;
    GXD_TRY (GrB_Scalar_new (&ey, call->ytype)) ;
    GXD_TRY (GrB_Scalar_setElement_FP64 (ex, call->identity)) ;
    GXD_TRY (GrB_Scalar_setElement_FP64 (ey, call->identity)) ;
    uint64_t fee ;
    GXD_TRY (GXD_terms_fee (&fee, call, w, ex, ey)) ;
    GXD_TRY (GrB_Matrix_new (&A0.T, w, m, k)) ;
    GXD_TRY (GrB_Matrix_apply_BinaryOp2nd_Scalar (A0.T, NULL, NULL, call->mult,
        A, ey, NULL)) ;
    GXD_TRY (GrB_Matrix_new (&B0.T, w, n, k)) ;
    GXD_TRY (GrB_Matrix_apply_BinaryOp1st_Scalar (B0.T, NULL, NULL, call->mult,
        ex, B, NULL)) ;
    GXD_TRY (GrB_Matrix_new (&Bt.T, call->ytype, k, n)) ;
    GXD_TRY (GrB_transpose (Bt.T, NULL, NULL, B, NULL)) ;
    GXD_TRY (GXD_rows_unpack (&A0)) ;
    GXD_TRY (GXD_rows_unpack (&B0)) ;
    GXD_TRY (GXD_rows_unpack (&Bt)) ;
    GXD_TRY (GXD_rows_unpack (Ar)) ;
    unpacked = true ;

    // A's rows (columns, values and A0's keys) and B0's rows, each in
    // descending order of the keys
    int64_t na = Ar->csr.p [m], nb = B0.csr.p [n] ;
    Sj = GXD_malloc ((na > 0 ? na : 1) * sizeof (int64_t)) ;
    Sk = GXD_malloc ((na > 0 ? na : 1) * sizeof (uint64_t)) ;
    Sx = GXD_malloc ((na > 0 ? na : 1) * xs) ;
    Bj = GXD_malloc ((nb > 0 ? nb : 1) * sizeof (int64_t)) ;
    Bk = GXD_malloc ((nb > 0 ? nb : 1) * sizeof (uint64_t)) ;
    Bj0 = GXD_malloc (n * sizeof (int64_t)) ;
    Bk0 = GXD_malloc (n * sizeof (uint64_t)) ;
    if (Sj == NULL || Sk == NULL || Sx == NULL || Bj == NULL || Bk == NULL
        || Bj0 == NULL || Bk0 == NULL)
    {
        GXD_FAIL (GrB_OUT_OF_MEMORY, "out of memory") ;
    }
    if (sort_rows (Sj, Sk, Sx, &Ar->csr, xs, &A0.csr, kind, min) != GrB_SUCCESS
     || sort_rows (Bj, Bk, NULL, &B0.csr, 0, &B0.csr, kind, min) != GrB_SUCCESS)
    {
        GXD_FAIL (GrB_OUT_OF_MEMORY, "out of memory") ;
    }
    gxd_csr As = { (int64_t) m, (int64_t) k, Ar->csr.p, Sj, Sx } ;

    // the common columns' terms, in the sorted rows' order
    GXD_TRY (GXD_terms_new (&T, call, &As, &Bt.csr, zs, kind == GXD_KEY_INT)) ;
    if (T.grid.ia != NULL)
    {
        Gk = GXD_malloc (T.grid_n * sizeof (uint64_t)) ;
        if (Gk == NULL) GXD_FAIL (GrB_OUT_OF_MEMORY, "out of memory") ;
        GXD_cpu_keys (Gk, &T.grid, T.grid_n, kind, min) ;
    }
    else
    {
        keys = GXD_malloc (T.room * sizeof (uint64_t)) ;
        if (keys == NULL) GXD_FAIL (GrB_OUT_OF_MEMORY, "out of memory") ;
    }

    // a workspace a thread, zero
    int64_t amax = 0, bmax = 0 ;
    for (int64_t i = 0 ; i < (int64_t) m ; i++)
    {
        int64_t len = Ar->csr.p [i+1] - Ar->csr.p [i] ;
        if (len > amax) amax = len ;
    }
    for (int64_t j = 0 ; j < (int64_t) n ; j++)
    {
        int64_t len = B0.csr.p [j+1] - B0.csr.p [j] ;
        if (len > bmax) bmax = len ;
    }
    for (int64_t j = 0 ; j < (int64_t) n ; j++)
    {
        bool empty = (B0.csr.p [j+1] == B0.csr.p [j]) ;
        Bj0 [j] = empty ? (int64_t) k : Bj [B0.csr.p [j]] ;
        Bk0 [j] = empty ? 0 : Bk [B0.csr.p [j]] ;
    }
    gxd_minmax R = { .A = &As, .Ak = Sk, .Bt = &Bt.csr, .Bp = B0.csr.p,
        .Bj = Bj, .Bk = Bk, .Bj0 = Bj0, .Bk0 = Bk0, .fee = gxd_key (fee, kind, min),
        .count = (amax + bmax >= (int64_t) k), .kind = kind, .min = min,
        .zs = zs } ;
    int nth = omp_get_max_threads () ;
    size_t each = n * (sizeof (uint64_t) + 2 * sizeof (int32_t)) + k + 1 ;
    each = (each + 63) & ~(size_t) 63 ;
    W = GXD_malloc (nth * sizeof (gxd_minmax_work)) ;
    space = GXD_calloc (nth, each) ;
    if (W == NULL || space == NULL) GXD_FAIL (GrB_OUT_OF_MEMORY, "out of memory") ;
    for (int t = 0 ; t < nth ; t++)
    {
        char *s = space + t * each ;
        W [t].K = (uint64_t *) s ;
        W [t].run = (int32_t *) (s + n * sizeof (uint64_t)) ;
        W [t].cnt = W [t].run + n ;
        W [t].mark = (uint8_t *) (W [t].cnt + n) ;
        W [t].mark [k] = 1 ;
    }

    rows_job J = { &R, &T, keys, Gk, W, Cx, (int64_t) n } ;
    GXD_TRY (GXD_terms_each (&T, 0, (int64_t) m, rows, &J)) ;
    __atomic_add_fetch (&stat_pairs, (int64_t) (m * n), __ATOMIC_RELAXED) ;
    *done = true ;
    GXD_FREE_ALL ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}
