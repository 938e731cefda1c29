// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// reference/oracle/oracle_pairs.c: the tiled dense-completion engine
//------------------------------------------------------------------------------

// GXO_union is "complete both rows (a missing entry takes the identity),
// then reduce over all k columns": the definition itself, with no
// decomposition that could cancel, against which the tests hold the
// reference's faster forms (oracle_union_plus.c, oracle_union_rows.c,
// oracle_metric.c).  Rows are completed a tile at a time, as full matrices, so memory stays O(tile * k) whatever m
// and n are; each pair of tiles is one GrB_mxm with B's tile transposed
// (GrB_DESC_T1).  The cost is O(m n k), which is why the oracle is for
// small problems.  Each sum over k runs in two levels (column blocks of at
// most KBLOCK, then the blocks), so that rounding grows like KBLOCK + k/KBLOCK
// rather than k: a plain sum of 600,000 equal terms drifts by 1e-11.

#include "oracle_internal.h"

// (tests may define them smaller, to cross every tile and block boundary)
#ifndef TILE_ROWS
#define TILE_ROWS    256            // rows of a completed tile, at most
#endif
#ifndef TILE_ENTRIES
#define TILE_ENTRIES (1 << 20)      // entries of a completed tile, at most
#endif
#ifndef KBLOCK
#define KBLOCK       1024           // columns summed in one level, at most
#endif

static GrB_Index tile_rows (GrB_Index k)
{
    GrB_Index t = TILE_ENTRIES / k ;
    return ((t < 1) ? 1 : ((t > TILE_ROWS) ? TILE_ROWS : t)) ;
}

static GrB_Index min_index (GrB_Index x, GrB_Index y)
{
    return ((x < y) ? x : y) ;
}

//------------------------------------------------------------------------------
// complete: F = rows i0 .. i0+ni-1 of s->M, every missing entry = identity
//------------------------------------------------------------------------------

#undef  FREE_ALL
#define FREE_ALL GrB_Matrix_free (&T) ; GrB_Matrix_free (&C) ;

static GrB_Info complete (GrB_Matrix *F, const gxo_side *s, GrB_Index i0,
    GrB_Index ni)
{
    GrB_Matrix T = NULL, C = NULL ;
    GrB_Index k ;
    TRY (GrB_Matrix_ncols (&k, s->M)) ;
    GrB_Index rows [2] = { i0, i0 + ni - 1 } ;
    // T = the tile's rows, typecast to s->type by GrB_extract
    TRY (GrB_Matrix_new (&T, s->type, ni, k)) ;
    TRY (GrB_Matrix_extract (T, NULL, NULL, s->M, rows, GxB_RANGE, GrB_ALL, k,
        NULL)) ;
    // C = identity everywhere, then T's entries over it (a structural mask:
    // an explicit zero is a value, and stays)
    TRY (GrB_Matrix_new (&C, s->type, ni, k)) ;
    TRY (GrB_Matrix_assign_FP64 (C, NULL, NULL, s->identity, GrB_ALL, ni,
        GrB_ALL, k, NULL)) ;
    TRY (GrB_Matrix_assign (C, T, NULL, T, GrB_ALL, ni, GrB_ALL, k,
        GrB_DESC_S)) ;
    GrB_Matrix_free (&T) ;
    *F = C ;
    return (GrB_SUCCESS) ;
}

//------------------------------------------------------------------------------
// product: T = the product of two completed tiles, in column blocks
//------------------------------------------------------------------------------

// Each block's product is added into T with add, the monoid of the
// reduction, which by associativity is the same reduction over all k.

#undef  FREE_ALL
#define FREE_ALL GrB_Matrix_free (&Ca) ; GrB_Matrix_free (&Cb) ;

static GrB_Info product (GrB_Matrix T, GrB_Semiring semiring, GrB_Matrix Fa,
    GrB_Matrix Fb)
{
    GrB_Matrix Ca = NULL, Cb = NULL ;      // column blocks, when k > KBLOCK
    GrB_Type ta, tb ;
    GrB_Index ni, nj, k ;
    GrB_Monoid monoid ;
    GrB_BinaryOp add ;
    TRY (GrB_Matrix_nrows (&ni, Fa)) ;
    TRY (GrB_Matrix_nrows (&nj, Fb)) ;
    TRY (GrB_Matrix_ncols (&k, Fa)) ;
    TRY (GxB_Matrix_type (&ta, Fa)) ;
    TRY (GxB_Matrix_type (&tb, Fb)) ;
    TRY (GxB_Semiring_add (&monoid, semiring)) ;
    TRY (GxB_Monoid_operator (&add, monoid)) ;
    for (GrB_Index c0 = 0 ; c0 < k ; c0 += KBLOCK)
    {
        GrB_Index nc = min_index (KBLOCK, k - c0) ;
        GrB_Index cols [2] = { c0, c0 + nc - 1 } ;
        if (nc < k)
        {
            TRY (GrB_Matrix_new (&Ca, ta, ni, nc)) ;
            TRY (GrB_Matrix_new (&Cb, tb, nj, nc)) ;
            TRY (GrB_Matrix_extract (Ca, NULL, NULL, Fa, GrB_ALL, ni, cols,
                GxB_RANGE, NULL)) ;
            TRY (GrB_Matrix_extract (Cb, NULL, NULL, Fb, GrB_ALL, nj, cols,
                GxB_RANGE, NULL)) ;
        }
        GrB_Matrix Ga = (nc < k) ? Ca : Fa, Gb = (nc < k) ? Cb : Fb ;
        // both blocks are full and nc > 0: T is full
        TRY (GrB_mxm (T, NULL, (c0 == 0) ? NULL : add, semiring, Ga, Gb,
            GrB_DESC_T1)) ;
        GrB_Matrix_free (&Ca) ;
        GrB_Matrix_free (&Cb) ;
    }
    return (GrB_SUCCESS) ;
}

//------------------------------------------------------------------------------
// GXO_pairs: D(i,j) = product of completed rows, tile by tile
//------------------------------------------------------------------------------

#undef  FREE_ALL
#define FREE_ALL                                                            \
    GrB_Matrix_free (&Fa) ; GrB_Matrix_free (&Fb) ; GrB_Matrix_free (&T) ;

GrB_Info GXO_pairs (GrB_Matrix D, const gxo_side *a, const gxo_side *b,
    GrB_Semiring semiring)
{
    GrB_Matrix Fa = NULL, Fb = NULL, T = NULL ;
    GrB_Type dtype ;
    GrB_Index m, n, k ;
    TRY (GrB_Matrix_nrows (&m, a->M)) ;
    TRY (GrB_Matrix_nrows (&n, b->M)) ;
    TRY (GrB_Matrix_ncols (&k, a->M)) ;
    TRY (GxB_Matrix_type (&dtype, D)) ;
    CHECK (semiring != NULL, GrB_NULL_POINTER) ;
    if (k == 0) return (GrB_SUCCESS) ;     // an empty reduction: D keeps it
    GrB_Index t = tile_rows (k) ;
    for (GrB_Index i0 = 0 ; i0 < m ; i0 += t)
    {
        GrB_Index ni = min_index (t, m - i0) ;
        GrB_Index I [2] = { i0, i0 + ni - 1 } ;
        TRY (complete (&Fa, a, i0, ni)) ;
        for (GrB_Index j0 = 0 ; j0 < n ; j0 += t)
        {
            GrB_Index nj = min_index (t, n - j0) ;
            GrB_Index J [2] = { j0, j0 + nj - 1 } ;
            TRY (complete (&Fb, b, j0, nj)) ;
            TRY (GrB_Matrix_new (&T, dtype, ni, nj)) ;
            TRY (product (T, semiring, Fa, Fb)) ;
            TRY (GrB_Matrix_assign (D, NULL, NULL, T, I, GxB_RANGE, J,
                GxB_RANGE, NULL)) ;
            GrB_Matrix_free (&Fb) ;
            GrB_Matrix_free (&T) ;
        }
        GrB_Matrix_free (&Fa) ;
    }
    return (GrB_SUCCESS) ;
}
