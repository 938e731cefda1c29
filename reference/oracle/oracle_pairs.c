// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// reference/oracle/oracle_pairs.c: the tiled dense-completion engine
//------------------------------------------------------------------------------

// GXO_union and MINKOWSKI with p != 2 are "complete both rows
// (a missing entry takes the identity), then reduce over all k columns": the
// definition itself, with no decomposition that could cancel (the other
// union metrics avoid it: oracle_union_plus.c, oracle_union_rows.c).  Rows are completed a
// tile at a time, as full matrices, so memory stays O(tile * k) whatever m
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
// scaled: the scaled sums of a_c = op (Fa(a,c), Fb(b,c)), for full FP64 tiles
//------------------------------------------------------------------------------

// The p-norm of the magnitudes a_c = |x-y| (Euclidean, Minkowski), |sqrt x -
// sqrt y| (Hellinger), ... as M (sum_c (a_c/M)^p)^(1/p), M = max_c a_c: no
// a_c^p is formed, so nothing overflows or underflows where the norm is
// representable (|1e200|^2 would overflow, a Minkowski p of 1e5 on values
// of order 1 anything, issue 15).  Per pair the scale M is different, and
// p a run-time value, which a GxB_BinaryOp cannot carry (and a global would
// not be reentrant), so the magnitudes are formed explicitly, one row of Fa
// at a time: R = op (Fa(a,:) repeated nj times, Fb); M = max of each row of
// R; R = diag (M) \ R (a product with the diagonal matrix of the M,
// (+).rdiv, an exact division per entry); R = R.^p; t = sum of each row of
// R.  Column blocks are combined in C (*Mb, *tb: the running values, nj per
// row of Fa): t = t1 (M1/M)^p + t2 (M2/M)^p, M = max (M1, M2).

#undef  FREE_ALL
#define FREE_ALL                                                            \
    GrB_Matrix_free (&R) ; GrB_Matrix_free (&S) ; GrB_Matrix_free (&Dg) ;   \
    GrB_Vector_free (&w) ; GrB_Vector_free (&v) ; free (I) ; free (J) ;    \
    free (X) ;

static GrB_Info scaled (double *Mb, double *tb, bool first, GrB_Matrix Fa,
    GrB_Matrix Fb, GrB_BinaryOp op, double p)
{
    GrB_Matrix R = NULL, S = NULL, Dg = NULL ;
    GrB_Vector w = NULL, v = NULL ;
    GrB_Index *I = NULL, *J = NULL ;
    double *X = NULL ;
    GrB_Index ni, nj, k ;
    TRY (GrB_Matrix_nrows (&ni, Fa)) ;
    TRY (GrB_Matrix_nrows (&nj, Fb)) ;
    TRY (GrB_Matrix_ncols (&k, Fa)) ;
    I = calloc (nj, sizeof (GrB_Index)) ;
    J = calloc (nj, sizeof (GrB_Index)) ;
    X = calloc (nj, sizeof (double)) ;
    CHECK (I != NULL && J != NULL && X != NULL, GrB_OUT_OF_MEMORY) ;
    TRY (GrB_Matrix_new (&R, GrB_FP64, nj, k)) ;
    TRY (GrB_Matrix_new (&S, GrB_FP64, nj, k)) ;
    TRY (GrB_Vector_new (&w, GrB_FP64, nj)) ;
    for (GrB_Index a = 0 ; a < ni ; a++)
    {
        // GrB_extract allows a repeated row index: R(b,:) = Fa(a,:)
        for (GrB_Index b = 0 ; b < nj ; b++) I [b] = a ;
        TRY (GrB_Matrix_extract (R, NULL, NULL, Fa, I, nj, GrB_ALL, k, NULL)) ;
        TRY (GrB_Matrix_eWiseAdd_BinaryOp (R, NULL, NULL, op, R, Fb, NULL)) ;
        // M per pair (R is full: every row has k entries)
        TRY (GrB_Matrix_reduce_Monoid (w, NULL, NULL, GrB_MAX_MONOID_FP64, R,
            NULL)) ;
        GrB_Index nw = nj ;
        TRY (GrB_Vector_extractTuples_FP64 (J, X, &nw, w)) ;
        CHECK (nw == nj, GrB_PANIC) ;
        double *M = Mb + a * nj, *t = tb + a * nj ;
        for (GrB_Index q = 0 ; q < nj ; q++)
        {
            // this block's M of pair (a, J [q]); divisors of 0 become 1
            double m = X [q] ;
            I [q] = J [q] ;
            if (first || m > M [J [q]])
            {
                // the running t rescaled to the new M (or started)
                double r = (first || M [J [q]] == 0) ? 0 : M [J [q]] / m ;
                t [J [q]] = first ? 0 : t [J [q]] * pow (r, p) ;
                M [J [q]] = m ;
            }
            X [q] = (m > 0) ? M [J [q]] : 1 ;
        }
        // S = R ./ M, row by row
        GrB_Vector_free (&v) ;
        TRY (GrB_Vector_new (&v, GrB_FP64, nj)) ;
        TRY (GrB_Vector_build_FP64 (v, I, X, nj, GrB_FIRST_FP64)) ;
        GrB_Matrix_free (&Dg) ;
        TRY (GrB_Matrix_diag (&Dg, v, 0)) ;
        TRY (GrB_mxm (S, NULL, NULL, GxB_PLUS_RDIV_FP64, Dg, R, NULL)) ;
        if (p != 1)
        {
            TRY (GrB_Matrix_apply_BinaryOp2nd_FP64 (S, NULL, NULL,
                GxB_POW_FP64, S, p, NULL)) ;
        }
        TRY (GrB_Matrix_reduce_Monoid (w, NULL, NULL, GrB_PLUS_MONOID_FP64, S,
            NULL)) ;
        nw = nj ;
        TRY (GrB_Vector_extractTuples_FP64 (J, X, &nw, w)) ;
        CHECK (nw == nj, GrB_PANIC) ;
        for (GrB_Index q = 0 ; q < nj ; q++)
        {
            // this block's sum, relative to the running M (M = 0: all 0)
            GrB_Index b = J [q] ;
            t [b] += (M [b] > 0) ? X [q] : 0 ;
        }
    }
    FREE_ALL ;
    return (GrB_SUCCESS) ;
}

//------------------------------------------------------------------------------
// product: T (and T2) = the product of two completed tiles, in column blocks
//------------------------------------------------------------------------------

// Each block's product is added into T with add, the monoid of the
// reduction, which by associativity is the same reduction over all k; the
// scaled sums combine their blocks in scaled ().

#undef  FREE_ALL
#define FREE_ALL                                                            \
    GrB_Matrix_free (&Ca) ; GrB_Matrix_free (&Cb) ; free (Mb) ; free (tb) ;

static GrB_Info product (GrB_Matrix T, GrB_Matrix T2, const gxo_product *prod,
    GrB_Matrix Fa, GrB_Matrix Fb)
{
    GrB_Matrix Ca = NULL, Cb = NULL ;      // column blocks, when k > KBLOCK
    double *Mb = NULL, *tb = NULL ;        // the scaled sums, row-major
    GrB_Type ta, tb_type ;
    GrB_Index ni, nj, k ;
    TRY (GrB_Matrix_nrows (&ni, Fa)) ;
    TRY (GrB_Matrix_nrows (&nj, Fb)) ;
    TRY (GrB_Matrix_ncols (&k, Fa)) ;
    TRY (GxB_Matrix_type (&ta, Fa)) ;
    TRY (GxB_Matrix_type (&tb_type, Fb)) ;
    GrB_BinaryOp add = NULL ;
    if (prod->semiring != NULL)
    {
        GrB_Monoid monoid ;
        TRY (GxB_Semiring_add (&monoid, prod->semiring)) ;
        TRY (GxB_Monoid_operator (&add, monoid)) ;
    }
    else
    {
        Mb = calloc (ni * nj + 1, sizeof (double)) ;
        tb = calloc (ni * nj + 1, sizeof (double)) ;
        CHECK (Mb != NULL && tb != NULL, GrB_OUT_OF_MEMORY) ;
    }
    for (GrB_Index c0 = 0 ; c0 < k ; c0 += KBLOCK)
    {
        GrB_Index nc = min_index (KBLOCK, k - c0) ;
        GrB_Index cols [2] = { c0, c0 + nc - 1 } ;
        if (nc < k)
        {
            TRY (GrB_Matrix_new (&Ca, ta, ni, nc)) ;
            TRY (GrB_Matrix_new (&Cb, tb_type, nj, nc)) ;
            TRY (GrB_Matrix_extract (Ca, NULL, NULL, Fa, GrB_ALL, ni, cols,
                GxB_RANGE, NULL)) ;
            TRY (GrB_Matrix_extract (Cb, NULL, NULL, Fb, GrB_ALL, nj, cols,
                GxB_RANGE, NULL)) ;
        }
        GrB_Matrix Ga = (nc < k) ? Ca : Fa, Gb = (nc < k) ? Cb : Fb ;
        if (prod->semiring != NULL)
        {
            // both blocks are full and nc > 0: T is full
            TRY (GrB_mxm (T, NULL, (c0 == 0) ? NULL : add, prod->semiring,
                Ga, Gb, GrB_DESC_T1)) ;
        }
        else
        {
            TRY (scaled (Mb, tb, c0 == 0, Ga, Gb, prod->op, prod->p)) ;
        }
        GrB_Matrix_free (&Ca) ;
        GrB_Matrix_free (&Cb) ;
    }
    if (prod->semiring == NULL)
    {
        GrB_Matrix_free (&Ca) ;
        TRY (GXO_from_dense (&Ca, ni, nj, Mb)) ;
        TRY (GrB_Matrix_assign (T, NULL, NULL, Ca, GrB_ALL, ni, GrB_ALL, nj,
            NULL)) ;
        GrB_Matrix_free (&Ca) ;
        TRY (GXO_from_dense (&Ca, ni, nj, tb)) ;
        TRY (GrB_Matrix_assign (T2, NULL, NULL, Ca, GrB_ALL, ni, GrB_ALL, nj,
            NULL)) ;
    }
    FREE_ALL ;
    return (GrB_SUCCESS) ;
}

//------------------------------------------------------------------------------
// GXO_pairs: D(i,j) = product of completed rows, tile by tile
//------------------------------------------------------------------------------

#undef  FREE_ALL
#define FREE_ALL                                                            \
    GrB_Matrix_free (&Fa) ; GrB_Matrix_free (&Fb) ; GrB_Matrix_free (&T) ;  \
    GrB_Matrix_free (&T2) ;

GrB_Info GXO_pairs (GrB_Matrix D, const gxo_side *a, const gxo_side *b,
    const gxo_product *prod)
{
    GrB_Matrix Fa = NULL, Fb = NULL, T = NULL, T2 = NULL ;
    GrB_Type dtype ;
    GrB_Index m, n, k ;
    TRY (GrB_Matrix_nrows (&m, a->M)) ;
    TRY (GrB_Matrix_nrows (&n, b->M)) ;
    TRY (GrB_Matrix_ncols (&k, a->M)) ;
    TRY (GxB_Matrix_type (&dtype, D)) ;
    CHECK (prod->semiring != NULL || prod->T2 != NULL, GrB_NULL_POINTER) ;
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
            if (prod->semiring == NULL)
            {
                TRY (GrB_Matrix_new (&T2, GrB_FP64, ni, nj)) ;
            }
            TRY (product (T, T2, prod, Fa, Fb)) ;
            TRY (GrB_Matrix_assign (D, NULL, NULL, T, I, GxB_RANGE, J,
                GxB_RANGE, NULL)) ;
            if (prod->semiring == NULL)
            {
                TRY (GrB_Matrix_assign (prod->T2, NULL, NULL, T2, I, GxB_RANGE,
                    J, GxB_RANGE, NULL)) ;
            }
            GrB_Matrix_free (&Fb) ;
            GrB_Matrix_free (&T) ;
            GrB_Matrix_free (&T2) ;
        }
        GrB_Matrix_free (&Fa) ;
    }
    return (GrB_SUCCESS) ;
}
