// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// reference/oracle/oracle_pairs_at.c: the product of listed pairs, term by term
//------------------------------------------------------------------------------

// GXO_pairs for a list of pairs, not all m*n: the exact fallback of the
// rewritten sums (oracle_union_plus.c, and the scaled sums of
// oracle_metric.c).  Completing the rows would cost O(k) a pair; instead
// the pairs' rows are stacked (AP = A(I,:), BP = B(J,:), np-by-k) and
// GxB_eWiseUnion forms each pair's terms over the union of its columns,
// f(x, y), f(x, e) or f(e, y), exactly the definition's terms there, summed
// directly (nothing cancels but what the definition itself cancels).  The
// k - |U| columns missing from both add (k - |U|) f(e,e) to a PLUS sum, and
// must add nothing to a scaled sum (f(e,e) = 0).  O(sum of |A_i| + |B_j|)
// and a fixed number of GraphBLAS calls, whatever np is.

#include "oracle_internal.h"

// *R = the rows L [0..np-1] of M (repeats allowed), typecast to type
static GrB_Info stack (GrB_Matrix *R, GrB_Type type, GrB_Matrix M,
    const GrB_Index *L, GrB_Index np, GrB_Index k)
{
    GrB_Info info = GrB_Matrix_new (R, type, np, k) ;
    if (info == GrB_SUCCESS)
    {
        info = GrB_Matrix_extract (*R, NULL, NULL, M, L, np, GrB_ALL, k,
            NULL) ;
    }
    if (info != GrB_SUCCESS) GrB_Matrix_free (R) ;
    return (info) ;
}

// *S = the np-by-ncols selection matrix with S(q, L [q]) = true (iso)
static GrB_Info selection (GrB_Matrix *S, const GrB_Index *L, GrB_Index np,
    GrB_Index ncols, const GrB_Index *Q, GrB_Scalar yes)
{
    GrB_Info info = GrB_Matrix_new (S, GrB_BOOL, np, ncols) ;
    if (info == GrB_SUCCESS)
    {
        info = GxB_Matrix_build_Scalar (*S, Q, L, yes, np) ;
    }
    if (info != GrB_SUCCESS) GrB_Matrix_free (S) ;
    return (info) ;
}

//------------------------------------------------------------------------------
// scatter: D (I [q], J [q]) = r (q), for the np pairs (no pair repeated)
//------------------------------------------------------------------------------

// into D's own array where D is full FP64 (the blocks of the metrics' sums,
// where the six GraphBLAS calls of scatter cost more than the pairs' own
// terms on small products); *done false otherwise (D as it was)
#undef  FREE_ALL
#define FREE_ALL (void) GXO_full_close (&F) ; free (X) ;

static GrB_Info scatter_full (bool *done, GrB_Matrix D, GrB_Vector r,
    const GrB_Index *I, const GrB_Index *J, GrB_Index np)
{
    gxo_full F = { NULL, NULL, 0, false } ;
    GxB_Format_Value format = GxB_BY_COL ;
    GrB_Type type ;
    GrB_Index m, n, nr = np ;
    double *X = NULL ;
    *done = false ;
    TRY (GxB_Vector_type (&type, r)) ;
    TRY (GrB_Matrix_nrows (&m, D)) ;
    TRY (GrB_Matrix_ncols (&n, D)) ;
    TRY (GxB_Matrix_Option_get (D, GxB_FORMAT, &format)) ;
    if (type != GrB_FP64) return (GrB_SUCCESS) ;
    X = malloc ((np + 1) * sizeof (double)) ;
    CHECK (X != NULL, GrB_OUT_OF_MEMORY) ;
    // r is full: its values in order
    TRY (GrB_Vector_extractTuples_FP64 (NULL, X, &nr, r)) ;
    if (nr != np) { FREE_ALL ; return (GrB_SUCCESS) ; }
    GrB_Info info = GXO_full_open (&F, D) ;
    TRY (info) ;
    if (info == GrB_NO_VALUE || F.iso) { FREE_ALL ; return (GrB_SUCCESS) ; }
    for (GrB_Index q = 0 ; q < np ; q++)
    {
        GrB_Index p = (format == GxB_BY_ROW) ? I [q] * n + J [q]
                                             : J [q] * m + I [q] ;
        F.x [p] = X [q] ;
    }
    *done = true ;
    TRY (GXO_full_close (&F)) ;
    free (X) ;
    return (GrB_SUCCESS) ;
}

#undef  FREE_ALL
#define FREE_ALL                                                            \
    GrB_Matrix_free (&SI) ; GrB_Matrix_free (&SJ) ; GrB_Matrix_free (&Dg) ; \
    GrB_Matrix_free (&Y) ; GrB_Matrix_free (&F) ;                           \
    GrB_Semiring_free (&sf) ; GrB_Semiring_free (&ss) ; free (Q) ;          \
    GrB_Scalar_free (&yes) ;

static GrB_Info scatter (GrB_Matrix D, GrB_Vector r, GrB_Monoid add,
    const GrB_Index *I, const GrB_Index *J, GrB_Index np)
{
    GrB_Matrix SI = NULL, SJ = NULL, Dg = NULL, Y = NULL, F = NULL ;
    GrB_Semiring sf = NULL, ss = NULL ;
    GrB_Scalar yes = NULL ;
    GrB_Index *Q = NULL, m, n ;
    GrB_Type type ;
    GrB_BinaryOp first, second ;
    bool done ;
    TRY (scatter_full (&done, D, r, I, J, np)) ;
    if (done) return (GrB_SUCCESS) ;
    TRY (GrB_Matrix_nrows (&m, D)) ;
    TRY (GrB_Matrix_ncols (&n, D)) ;
    TRY (GxB_Vector_type (&type, r)) ;
    CHECK (GXO_type_ops (NULL, &first, &second, type), GrB_DOMAIN_MISMATCH) ;
    // each output entry below is a single term: add never combines two
    TRY (GrB_Semiring_new (&sf, add, first)) ;
    TRY (GrB_Semiring_new (&ss, add, second)) ;
    Q = calloc (np + 1, sizeof (GrB_Index)) ;
    CHECK (Q != NULL, GrB_OUT_OF_MEMORY) ;
    for (GrB_Index q = 0 ; q < np ; q++) Q [q] = q ;
    TRY (GrB_Scalar_new (&yes, GrB_BOOL)) ;
    TRY (GrB_Scalar_setElement_BOOL (yes, true)) ;
    TRY (selection (&SI, I, np, m, Q, yes)) ;
    TRY (selection (&SJ, J, np, n, Q, yes)) ;
    // Y (q, J [q]) = r (q), then F (I [q], J [q]) = Y (q, J [q])
    TRY (GrB_Matrix_diag (&Dg, r, 0)) ;
    TRY (GrB_Matrix_new (&Y, type, np, n)) ;
    TRY (GrB_mxm (Y, NULL, NULL, sf, Dg, SJ, NULL)) ;
    TRY (GrB_Matrix_new (&F, type, m, n)) ;
    TRY (GrB_mxm (F, NULL, NULL, ss, SI, Y, GrB_DESC_T0)) ;
    TRY (GrB_Matrix_assign (D, F, NULL, F, GrB_ALL, m, GrB_ALL, n,
        GrB_DESC_S)) ;
    FREE_ALL ;
    return (GrB_SUCCESS) ;
}

//------------------------------------------------------------------------------
// GXO_pairs_at
//------------------------------------------------------------------------------

#undef  FREE_ALL
#define FREE_ALL                                                            \
    GrB_Matrix_free (&AP) ; GrB_Matrix_free (&BP) ; GrB_Matrix_free (&U) ;  \
    GrB_Matrix_free (&Dg) ;                                                 \
    GrB_Scalar_free (&ex) ; GrB_Scalar_free (&ey) ; GrB_Scalar_free (&fee) ;\
    GrB_Vector_free (&r) ; GrB_Vector_free (&t) ; GrB_Vector_free (&c) ;    \
    GrB_Vector_free (&x) ;

GrB_Info GXO_pairs_at (GrB_Matrix D, const gxo_side *a, const gxo_side *b,
    const gxo_product *prod, const GrB_Index *I, const GrB_Index *J,
    GrB_Index np)
{
    GrB_Matrix AP = NULL, BP = NULL, U = NULL, Dg = NULL ;
    GrB_Scalar ex = NULL, ey = NULL, fee = NULL ;
    GrB_Vector r = NULL, t = NULL, c = NULL, x = NULL ;
    GrB_Index k ;
    TRY (GrB_Matrix_ncols (&k, a->M)) ;
    CHECK (prod->semiring != NULL || prod->T2 != NULL, GrB_NULL_POINTER) ;
    // k = 0: D already holds the empty reduction, which GXO_pairs keeps
    if (k == 0 || np == 0) return (GrB_SUCCESS) ;
    GrB_BinaryOp f = prod->op ;
    GrB_Monoid add = GrB_PLUS_MONOID_FP64 ;
    if (prod->semiring != NULL)
    {
        TRY (GxB_Semiring_multiply (&f, prod->semiring)) ;
        TRY (GxB_Semiring_add (&add, prod->semiring)) ;
        CHECK (GXO_monoid_is_plus (add), GrB_DOMAIN_MISMATCH) ;
    }
    GrB_Type ztype ;
    TRY (GxB_BinaryOp_ztype (&ztype, f)) ;
    // each pair's terms over the union of its columns
    TRY (GrB_Scalar_new (&ex, a->type)) ;
    TRY (GrB_Scalar_new (&ey, b->type)) ;
    TRY (GrB_Scalar_setElement_FP64 (ex, a->identity)) ;
    TRY (GrB_Scalar_setElement_FP64 (ey, b->identity)) ;
    TRY (stack (&AP, a->type, a->M, I, np, k)) ;
    TRY (stack (&BP, b->type, b->M, J, np, k)) ;
    TRY (GrB_Matrix_new (&U, ztype, np, k)) ;
    TRY (GxB_Matrix_eWiseUnion (U, NULL, NULL, f, AP, ex, BP, ey, NULL)) ;
    GrB_Matrix_free (&AP) ;
    GrB_Matrix_free (&BP) ;
    // f (e, e): the term of the columns in neither row
    double fee64 ;
    TRY (GXO_apply_scalars (&fee, &fee64, f, a->type, ex, ey)) ;
    if (prod->semiring != NULL)
    {
        // r = the sum of each row of U (0 for an empty one)
        GrB_BinaryOp addop, times ;
        TRY (GxB_Monoid_operator (&addop, add)) ;
        TRY (GrB_Vector_new (&r, ztype, np)) ;
        TRY (GrB_Vector_assign_FP64 (r, NULL, NULL, 0, GrB_ALL, np, NULL)) ;
        TRY (GrB_Matrix_reduce_Monoid (r, NULL, addop, add, U, NULL)) ;
        if (!(fee64 == 0))
        {
            // + (k - |U_q|) f(e,e), the count typecast to ztype (an integer
            // wraps as adding f(e,e) that many times would)
            CHECK (GXO_type_ops (&times, NULL, NULL, ztype),
                GrB_DOMAIN_MISMATCH) ;
            TRY (GrB_Vector_new (&x, GrB_BOOL, k)) ;
            TRY (GrB_Vector_assign_BOOL (x, NULL, NULL, true, GrB_ALL, k,
                NULL)) ;
            TRY (GrB_Vector_new (&c, GrB_INT64, np)) ;
            TRY (GrB_Vector_assign_INT64 (c, NULL, NULL, 0, GrB_ALL, np,
                NULL)) ;
            TRY (GrB_mxv (c, NULL, GrB_PLUS_INT64, GxB_PLUS_PAIR_INT64, U, x,
                NULL)) ;
            TRY (GrB_Vector_apply_BinaryOp1st_INT64 (c, NULL, NULL,
                GrB_MINUS_INT64, (int64_t) k, c, NULL)) ;
            // only where the count is not 0 (0 times f(e,e) = NaN is none)
            TRY (GrB_Vector_select_INT64 (c, NULL, NULL, GrB_VALUENE_INT64, c,
                0, NULL)) ;
            TRY (GrB_Vector_new (&t, ztype, np)) ;
            TRY (GrB_Vector_apply_BinaryOp2nd_Scalar (t, NULL, NULL, times, c,
                fee, NULL)) ;
            TRY (GrB_Vector_eWiseAdd_BinaryOp (r, NULL, NULL, addop, r, t,
                NULL)) ;
        }
        TRY (scatter (D, r, add, I, J, np)) ;
    }
    else
    {
        // the scaled sums of the magnitudes a_c = U (q,c) >= 0: M = max_c a_c,
        // t = sum_c (a_c / M)^p; the columns in neither must add nothing
        CHECK (fee64 == 0, GrB_INVALID_VALUE) ;
        TRY (GrB_Vector_new (&r, GrB_FP64, np)) ;
        TRY (GrB_Vector_assign_FP64 (r, NULL, NULL, 0, GrB_ALL, np, NULL)) ;
        TRY (GrB_Matrix_reduce_Monoid (r, NULL, GrB_MAX_FP64,
            GrB_MAX_MONOID_FP64, U, NULL)) ;
        // divisors: M, or 1 where M = 0 (every a_c is 0 there)
        TRY (GrB_Vector_new (&c, GrB_FP64, np)) ;
        TRY (GrB_Vector_select_FP64 (c, NULL, NULL, GrB_VALUEEQ_FP64, r, 0,
            NULL)) ;
        TRY (GrB_Vector_new (&x, GrB_FP64, np)) ;
        TRY (GrB_Vector_assign (x, NULL, NULL, r, GrB_ALL, np, NULL)) ;
        TRY (GrB_Vector_assign_FP64 (x, c, NULL, 1, GrB_ALL, np, GrB_DESC_S)) ;
        TRY (GrB_Matrix_diag (&Dg, x, 0)) ;
        TRY (GrB_mxm (U, NULL, NULL, GxB_PLUS_RDIV_FP64, Dg, U, NULL)) ;
        if (prod->p != 1)
        {
            TRY (GrB_Matrix_apply_BinaryOp2nd_FP64 (U, NULL, NULL,
                GxB_POW_FP64, U, prod->p, NULL)) ;
        }
        TRY (GrB_Vector_new (&t, GrB_FP64, np)) ;
        TRY (GrB_Vector_assign_FP64 (t, NULL, NULL, 0, GrB_ALL, np, NULL)) ;
        TRY (GrB_Matrix_reduce_Monoid (t, NULL, GrB_PLUS_FP64,
            GrB_PLUS_MONOID_FP64, U, NULL)) ;
        TRY (scatter (D, r, GrB_PLUS_MONOID_FP64, I, J, np)) ;
        TRY (scatter (prod->T2, t, GrB_PLUS_MONOID_FP64, I, J, np)) ;
    }
    FREE_ALL ;
    return (GrB_SUCCESS) ;
}

//------------------------------------------------------------------------------
// GXO_zero_self: the listed pairs of a row with itself whose sum is 0
//------------------------------------------------------------------------------

// Where A and B are one matrix, the pair of row i with itself has the
// terms f(x, x) of the row's values and f(e, e) of the other columns: its
// sum is exactly 0 where each is (a distance's terms are, for finite
// values).  One product of those rows with themselves checks it, in place
// of their union (GXO_pairs_at), which in a square holds every row once.

#undef  FREE_ALL
#define FREE_ALL                                                            \
    GrB_Matrix_free (&S) ; GrB_Matrix_free (&T) ; GrB_Scalar_free (&es) ;   \
    GrB_Scalar_free (&fee) ;                                                \
    free (L) ; free (R) ; free (bad) ;

GrB_Info GXO_zero_self (GrB_Index *I, GrB_Index *J, GrB_Index *np,
    GrB_Index *ZI, GrB_Index *ZJ, GrB_Index *nz, GrB_Matrix Ab, GrB_Index i0,
    GrB_BinaryOp f, double e)
{
    GrB_Matrix S = NULL, T = NULL ;
    GrB_Scalar es = NULL, fee = NULL ;
    GrB_Index *L = NULL, *R = NULL, nl = 0, k, nr ;
    bool *bad = NULL ;
    double fee64 = 1 ;
    *nz = 0 ;
    for (GrB_Index q = 0 ; q < *np ; q++) nl += (i0 + I [q] == J [q]) ;
    if (nl == 0) return (GrB_SUCCESS) ;
    // f(e, e), the term of the columns the row does not hold
    TRY (GrB_Scalar_new (&es, GrB_FP64)) ;
    TRY (GrB_Scalar_setElement_FP64 (es, e)) ;
    TRY (GXO_apply_scalars (&fee, &fee64, f, GrB_FP64, es, es)) ;
    if (fee64 != 0) { FREE_ALL ; return (GrB_SUCCESS) ; }
    // the rows' terms f(x, x), and the rows with one that is not 0 (NaN
    // included)
    L = malloc (nl * sizeof (GrB_Index)) ;
    bad = calloc (nl, sizeof (bool)) ;
    CHECK (L != NULL && bad != NULL, GrB_OUT_OF_MEMORY) ;
    nl = 0 ;
    for (GrB_Index q = 0 ; q < *np ; q++)
    {
        if (i0 + I [q] == J [q]) L [nl++] = I [q] ;
    }
    TRY (GrB_Matrix_ncols (&k, Ab)) ;
    TRY (stack (&S, GrB_FP64, Ab, L, nl, k)) ;
    TRY (GrB_Matrix_new (&T, GrB_FP64, nl, k)) ;
    TRY (GrB_Matrix_eWiseMult_BinaryOp (T, NULL, NULL, f, S, S, NULL)) ;
    TRY (GrB_Matrix_select_FP64 (T, NULL, NULL, GrB_VALUENE_FP64, T, 0,
        NULL)) ;
    TRY (GrB_Matrix_nvals (&nr, T)) ;
    R = malloc ((nr + 1) * sizeof (GrB_Index)) ;
    CHECK (R != NULL, GrB_OUT_OF_MEMORY) ;
    TRY (GrB_Matrix_extractTuples_FP64 (R, NULL, NULL, &nr, T)) ;
    for (GrB_Index t = 0 ; t < nr ; t++) bad [R [t]] = true ;
    // the pairs at 0 to ZI, ZJ; the others kept in order
    GrB_Index kept = 0 ;
    nl = 0 ;
    for (GrB_Index q = 0 ; q < *np ; q++)
    {
        if (i0 + I [q] == J [q] && !bad [nl++])
        {
            ZI [*nz] = I [q] ; ZJ [*nz] = J [q] ; (*nz)++ ;
        }
        else
        {
            I [kept] = I [q] ; J [kept] = J [q] ; kept++ ;
        }
    }
    *np = kept ;
    FREE_ALL ;
    return (GrB_SUCCESS) ;
}
