// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// graphblas_ext/gxd_union_terms.c: f over the common columns of every pair
//------------------------------------------------------------------------------

// The unions of an operator only GraphBLAS can call, over every pair of
// rows (gxd_union_plus.c for PLUS, gxd_union_max.c for MIN and MAX), need
// f (A(i,c), B(j,c)) for each column c that rows i and j share: the terms
// of the sparse product A B'.  The CPU backend enumerates them row by row
// over B' (cpu/cpu_common_sums.c); f is called on them in bulk.  Where A
// and B hold few distinct values (counts, ratings, 0/1 patterns), once per
// pair of distinct values (the grid), each term then looking its value up;
// else on chunks of a bounded number of terms, each gathered and evaluated
// by one GrB_eWiseMult, so that memory stays O(nnz + a chunk).

#include "gxd_internal.h"
#include "gxd_test_hooks.h"

// terms per chunk: a chunk holds the two values of each term and f's
// result in 64 bits, at most 32 bytes a term: 64 MiB
#define GXD_TERMS_CHUNK (1 << 21)

// where A and B hold at most this many distinct values each (and their
// grid is at most a quarter of the terms and GXD_TERMS_GRID), f is called
// on the grid of the distinct values only
#define GXD_TERMS_DISTINCT 4096
#define GXD_TERMS_GRID (1 << 22)

// testing hooks (gxd_test_hooks.h): chunks of this many terms (0: the
// default); the grid always (where the distinct values are few enough, 1),
// never (-1) or where it pays (0)
static int64_t terms_per_chunk = 0 ;
static int grid_mode = 0 ;

void GXD_terms_set_chunk (int64_t terms)
{
    terms_per_chunk = (terms > 0) ? terms : 0 ;
}

void GXD_union_plus_set_grid (int mode)
{
    grid_mode = mode ;
}

void GXD_terms_free (gxd_terms *T)
{
    GXD_free (T->start) ; GXD_free (T->G) ; GXD_free (T->ia) ;
    GXD_free (T->ib) ; GXD_free (T->X) ; GXD_free (T->Y) ;
    memset (T, 0, sizeof (*T)) ;
}

// T->grid = f on every pair of distinct values of A and of B, where they
// are few (else T->grid.ia stays NULL)
static GrB_Info grid_new (gxd_terms *T, size_t xs, size_t ys)
{
    #define GXD_FREE_ALL                                                    \
        GXD_free (va) ; GXD_free (vb) ; GXD_free (X) ; GXD_free (Y) ;
    uint64_t *va = NULL, *vb = NULL ;
    char *X = NULL, *Y = NULL ;
    const gxd_call *call = T->call ;
    size_t zsize ;
    int64_t na = T->A->p [T->A->nrows], nb = T->Bt->p [T->Bt->nrows] ;
    int64_t terms = T->start [T->A->nrows] ;
    if (grid_mode < 0 || xs > 8 || ys > 8 || na == 0 || nb == 0)
    {
        return GrB_SUCCESS ;
    }
    va = GXD_malloc (GXD_TERMS_DISTINCT * sizeof (uint64_t)) ;
    vb = GXD_malloc (GXD_TERMS_DISTINCT * sizeof (uint64_t)) ;
    T->ia = GXD_malloc (na * sizeof (int32_t)) ;
    T->ib = GXD_malloc (nb * sizeof (int32_t)) ;
    if (va == NULL || vb == NULL || T->ia == NULL || T->ib == NULL)
    {
        GXD_FAIL (GrB_OUT_OF_MEMORY, "out of memory") ;
    }
    int64_t ua = GXD_cpu_distinct (T->A->x, na, xs, GXD_TERMS_DISTINCT, va, T->ia) ;
    int64_t ub = (ua < 0) ? -1
        : GXD_cpu_distinct (T->Bt->x, nb, ys, GXD_TERMS_DISTINCT, vb, T->ib) ;
    if (ua == -2 || ub == -2) GXD_FAIL (GrB_OUT_OF_MEMORY, "out of memory") ;
    int64_t L = ua * ub ;
    bool pays = (ua > 0 && ub > 0 && L <= GXD_TERMS_GRID && L <= terms / 4) ;
    if (ua <= 0 || ub <= 0 || !(pays || (grid_mode > 0 && L <= GXD_TERMS_GRID)))
    {
        GXD_free (T->ia) ; GXD_free (T->ib) ;
        T->ia = NULL ; T->ib = NULL ;
        GXD_FREE_ALL ;
        return GrB_SUCCESS ;
    }
    // X (u*ub + v) = the u-th value of A, Y (...) = the v-th of B
    size_t xsize = L * xs, ysize = L * ys ;
    X = GXD_malloc (xsize) ;
    Y = GXD_malloc (ysize) ;
    if (X == NULL || Y == NULL) GXD_FAIL (GrB_OUT_OF_MEMORY, "out of memory") ;
    for (int64_t u = 0 ; u < ua ; u++)
    {
        for (int64_t v = 0 ; v < ub ; v++)
        {
            memcpy (X + xs * (u * ub + v), &va [u], xs) ;
            memcpy (Y + ys * (u * ub + v), &vb [v], ys) ;
        }
    }
    GXD_TRY (GXD_mult_pairs (&T->G, &zsize, call->type, (void **) &X, &xsize,
        (void **) &Y, &ysize, L, call)) ;
    T->grid = (gxd_fvalues) { T->G, T->zs, T->zsigned, T->ia, T->ib, ub } ;
    T->grid_n = L ;
    GXD_FREE_ALL ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

GrB_Info GXD_terms_new (gxd_terms *T, const gxd_call *call, const gxd_csr *A,
    const gxd_csr *Bt, size_t zs, bool zsigned)
{
    #define GXD_FREE_ALL GXD_terms_free (T) ;
    memset (T, 0, sizeof (*T)) ;
    T->call = call ; T->A = A ; T->Bt = Bt ; T->zs = zs ; T->zsigned = zsigned ;
    int64_t m = A->nrows ;
    size_t xs, ys ;
    GXD_TRY (GxB_Type_size (&xs, call->xtype)) ;
    GXD_TRY (GxB_Type_size (&ys, call->ytype)) ;
    T->start = GXD_malloc ((m + 1) * sizeof (int64_t)) ;
    if (T->start == NULL) GXD_FAIL (GrB_OUT_OF_MEMORY, "out of memory") ;
    GXD_cpu_common_count (A, Bt, T->start + 1) ;
    T->start [0] = 0 ;
    int64_t widest = 0 ;
    for (int64_t i = 0 ; i < m ; i++)
    {
        if (T->start [i+1] > widest) widest = T->start [i+1] ;
        T->start [i+1] += T->start [i] ;
    }
    GXD_TRY (grid_new (T, xs, ys)) ;
    if (T->grid.ia == NULL)
    {
        // f term by term: room for a chunk's values, the budget or one row's
        T->chunk = (terms_per_chunk > 0) ? terms_per_chunk : GXD_TERMS_CHUNK ;
        int64_t room = (T->chunk > widest) ? T->chunk : widest ;
        if (room > T->start [m]) room = T->start [m] ;
        if (room < 1) room = 1 ;
        T->room = room ;
        T->X_size = room * xs ;
        T->Y_size = room * ys ;
        T->X = GXD_malloc (T->X_size) ;
        T->Y = GXD_malloc (T->Y_size) ;
        if (T->X == NULL || T->Y == NULL) GXD_FAIL (GrB_OUT_OF_MEMORY, "out of memory") ;
    }
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

GrB_Info GXD_terms_each (gxd_terms *T, int64_t i0, int64_t i1,
    GrB_Info (*visit) (void *self, int64_t r0, int64_t r1,
    const gxd_fvalues *F), void *self)
{
    #define GXD_FREE_ALL GXD_free (Z) ;
    void *Z = NULL ;
    const int64_t *start = T->start ;
    size_t xs, ys, zsize ;
    if (T->grid.ia != NULL) return visit (self, i0, i1, &T->grid) ;
    GXD_TRY (GxB_Type_size (&xs, T->call->xtype)) ;
    GXD_TRY (GxB_Type_size (&ys, T->call->ytype)) ;
    int64_t r0 = i0 ;
    while (r0 < i1)
    {
        int64_t r1 = r0 + 1 ;
        while (r1 < i1 && start [r1 + 1] - start [r0] <= T->chunk) r1++ ;
        int64_t L = start [r1] - start [r0] ;
        if (L > 0)
        {
            GXD_cpu_common_gather (T->A, T->Bt, r0, r1, start, xs, ys, T->X,
                T->Y) ;
            // f's values in its own type: a typecast in GrB_eWiseMult costs
            // it half as much again
            GXD_TRY (GXD_mult_pairs (&Z, &zsize, T->call->type, &T->X,
                &T->X_size, &T->Y, &T->Y_size, L, T->call)) ;
        }
        gxd_fvalues F = { Z, T->zs, T->zsigned, NULL, NULL, 0 } ;
        GXD_TRY (visit (self, r0, r1, &F)) ;
        GXD_free (Z) ;
        Z = NULL ;
        r0 = r1 ;
    }
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

GrB_Info GXD_terms_fee (uint64_t *bits, const gxd_call *call, GrB_Type w,
    GrB_Scalar ex, GrB_Scalar ey)
{
    // a 1-by-1 apply, so that GraphBLAS calls f (and typecasts its value)
    #define GXD_FREE_ALL GrB_Matrix_free (&one) ; GrB_Matrix_free (&fe) ;
    GrB_Matrix one = NULL, fe = NULL ;
    GXD_TRY (GrB_Matrix_new (&one, call->xtype, 1, 1)) ;
    GXD_TRY (GrB_Matrix_setElement_Scalar (one, ex, 0, 0)) ;
    GXD_TRY (GrB_Matrix_new (&fe, w, 1, 1)) ;
    GXD_TRY (GrB_Matrix_apply_BinaryOp2nd_Scalar (fe, NULL, NULL, call->mult,
        one, ey, NULL)) ;
    if (w == GrB_FP64)
    {
        double v ;
        GXD_TRY (GrB_Matrix_extractElement_FP64 (&v, fe, 0, 0)) ;
        memcpy (bits, &v, sizeof (v)) ;
    }
    else if (w == GrB_INT64)
    {
        // no typecast between INT64 and UINT64: the same 64 bits
        int64_t v ;
        GXD_TRY (GrB_Matrix_extractElement_INT64 (&v, fe, 0, 0)) ;
        *bits = (uint64_t) v ;
    }
    else GXD_TRY (GrB_Matrix_extractElement_UINT64 (bits, fe, 0, 0)) ;
    GXD_FREE_ALL ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}
