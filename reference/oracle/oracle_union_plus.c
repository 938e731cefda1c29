// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// reference/oracle/oracle_union_plus.c: a PLUS union without dense completion
//------------------------------------------------------------------------------

// GXO_union's definition, sum_{c<k} f(a~_c, b~_c) with a missing entry = e
// (the identity), splits by where column c lies.  With F_A = f(., e) applied
// to A, F_B = f(e, .) applied to B, A_i and B_j the patterns of the rows:
//
//   D(i,j) =  sum_{c in A_i n B_j} f (x_c, y_c)                  T1 = A PLUS.f B'
//          +  sum_{c in A_i} F_A(i,c) + sum_{c in B_j} F_B(j,c)  ra_i + rb_j
//          -  sum_{c in A_i n B_j} (F_A(i,c) + F_B(j,c))         P = F_A PLUS.PLUS F_B'
//          +  (k - |A_i u B_j|) f (e, e)                         counts, if f(e,e) != 0
//
// every term a GraphBLAS call with the caller's operator itself: cost
// O(flops of A B' + m n + nnz), memory O(nnz + m n), where the completion
// costs O(m n k).  Integer operators are computed in their own type, whose
// wrap-around arithmetic makes the identity exact.  Floating-point ones add
// the row terms in FP64 (T1 is summed in the operator's type, as the
// definition sums it) and may cancel where the row sums are large next to
// D: each pair's conditioning
//
//   S(i,j) = |T1(i,j)| + sum |F_A(i,:)| + sum |F_B(j,:)| + (k - |U|) |f(e,e)|
//
// bounds what rounding can leave (T1's own cancellation is the definition's,
// not the rewrite's), and every pair with S > tau |D|, or with S or D not
// finite (an infinite term, f(x,e) = x/0, makes inf - inf), is recomputed
// from its own terms over the union of its columns (GXO_pairs_at), the
// definition's terms summed directly.

#include "oracle_internal.h"
#include <math.h>
#include <string.h>

// the arithmetic of one computation type (FP64 for floating-point operators)
typedef struct
{
    GrB_Type type ;
    GrB_BinaryOp plus, minus, times ;
    GrB_Semiring plus_first ;       // row sums (with a column of ones)
    GrB_Semiring plus_plus ;        // P
}
arith ;

#define ARITH(gt, T)                                                        \
    if (type == gt)                                                         \
    {                                                                       \
        arith r = { gt, GrB_PLUS_ ## T, GrB_MINUS_ ## T, GrB_TIMES_ ## T,   \
            GxB_PLUS_FIRST_ ## T, GxB_PLUS_PLUS_ ## T } ;                   \
        *a = r ;                                                            \
        return (true) ;                                                     \
    }

static bool arith_of (arith *a, GrB_Type type)
{
    ARITH (GrB_INT8, INT8)     ARITH (GrB_INT16, INT16)
    ARITH (GrB_INT32, INT32)   ARITH (GrB_INT64, INT64)
    ARITH (GrB_UINT8, UINT8)   ARITH (GrB_UINT16, UINT16)
    ARITH (GrB_UINT32, UINT32) ARITH (GrB_UINT64, UINT64)
    ARITH (GrB_FP64, FP64)
    return (false) ;
}

#undef ARITH

bool GXO_monoid_is_plus (GrB_Monoid add)
{
    GrB_BinaryOp op ;
    if (add == NULL || GxB_Monoid_operator (&op, add) != GrB_SUCCESS)
    {
        return (false) ;
    }
    const GrB_BinaryOp plus [ ] =
    {
        GrB_PLUS_INT8, GrB_PLUS_INT16, GrB_PLUS_INT32, GrB_PLUS_INT64,
        GrB_PLUS_UINT8, GrB_PLUS_UINT16, GrB_PLUS_UINT32, GrB_PLUS_UINT64,
        GrB_PLUS_FP32, GrB_PLUS_FP64
    } ;
    for (size_t q = 0 ; q < sizeof (plus) / sizeof (plus [0]) ; q++)
    {
        if (op == plus [q]) return (true) ;
    }
    return (false) ;
}

// is a pair not to be trusted?  s = S / tau, d = D
static inline bool distrusted (double s, double d)
{
    return (!(isfinite (s) && isfinite (d) && s <= fabs (d))) ;
}

// z = distrusted (x, y), as a GraphBLAS operator
static void distrust (void *z, const void *x, const void *y)
{
    *(bool *) z = distrusted (*(const double *) x, *(const double *) y) ;
}

//------------------------------------------------------------------------------
// a column of ones and the full matrices the row terms are added into
//------------------------------------------------------------------------------

// *R = a new full nrows-by-1 matrix of type, every entry 0, then += the row
// sums of F (each entry of F taken once: FIRST with a column of ones)
static GrB_Info row_sums (GrB_Matrix *R, const arith *ar, GrB_Matrix F,
    GrB_Matrix ones)
{
    GrB_Index nrows ;
    GrB_Info info = GrB_Matrix_nrows (&nrows, F) ;
    if (info == GrB_SUCCESS) info = GrB_Matrix_new (R, ar->type, nrows, 1) ;
    if (info == GrB_SUCCESS)
    {
        info = GrB_Matrix_assign_FP64 (*R, NULL, NULL, 0, GrB_ALL, nrows,
            GrB_ALL, 1, NULL) ;
    }
    if (info == GrB_SUCCESS)
    {
        info = GrB_mxm (*R, NULL, ar->plus, ar->plus_first, F, ones, NULL) ;
    }
    if (info != GrB_SUCCESS) GrB_Matrix_free (R) ;
    return (info) ;
}

//------------------------------------------------------------------------------
// the count term: (k - |A_i u B_j|) f(e,e) where that count is not 0
//------------------------------------------------------------------------------

#undef  FREE_ALL
#define FREE_ALL                                                            \
    GrB_Matrix_free (&na) ; GrB_Matrix_free (&nb) ; GrB_Matrix_free (&N) ;  \
    GrB_Matrix_free (&U) ; GrB_Matrix_free (&Us) ; GrB_Matrix_free (E) ;

static GrB_Info count_term (GrB_Matrix *E, const arith *ar, GrB_Scalar fee,
    GrB_Matrix A, GrB_Matrix B, GrB_Matrix ones)
{
    GrB_Matrix na = NULL, nb = NULL, N = NULL, U = NULL, Us = NULL ;
    GrB_Index m, n, k ;
    TRY (GrB_Matrix_nrows (&m, A)) ;
    TRY (GrB_Matrix_nrows (&n, B)) ;
    TRY (GrB_Matrix_ncols (&k, A)) ;
    // |A_i| and |B_j| as PAIR products with the column of ones
    TRY (GrB_Matrix_new (&na, GrB_INT64, m, 1)) ;
    TRY (GrB_Matrix_new (&nb, GrB_INT64, n, 1)) ;
    TRY (GrB_Matrix_assign_INT64 (na, NULL, NULL, 0, GrB_ALL, m, GrB_ALL, 1,
        NULL)) ;
    TRY (GrB_Matrix_assign_INT64 (nb, NULL, NULL, 0, GrB_ALL, n, GrB_ALL, 1,
        NULL)) ;
    TRY (GrB_mxm (na, NULL, GrB_PLUS_INT64, GxB_PLUS_PAIR_INT64, A, ones,
        NULL)) ;
    TRY (GrB_mxm (nb, NULL, GrB_PLUS_INT64, GxB_PLUS_PAIR_INT64, B, ones,
        NULL)) ;
    // U = |A_i| + |B_j| - |A_i n B_j|, then k - U, kept where not 0
    TRY (GrB_Matrix_new (&U, GrB_INT64, m, n)) ;
    TRY (GrB_Matrix_kronecker_BinaryOp (U, NULL, NULL, GrB_PLUS_INT64, na, nb,
        GrB_DESC_T1)) ;
    TRY (GrB_Matrix_new (&N, GrB_INT64, m, n)) ;
    TRY (GrB_mxm (N, NULL, NULL, GxB_PLUS_PAIR_INT64, A, B, GrB_DESC_T1)) ;
    TRY (GrB_Matrix_assign (U, NULL, GrB_MINUS_INT64, N, GrB_ALL, m, GrB_ALL,
        n, NULL)) ;
    TRY (GrB_Matrix_apply_BinaryOp1st_INT64 (U, NULL, NULL, GrB_MINUS_INT64,
        (int64_t) k, U, NULL)) ;
    TRY (GrB_Matrix_new (&Us, GrB_INT64, m, n)) ;
    TRY (GrB_Matrix_select_INT64 (Us, NULL, NULL, GrB_VALUENE_INT64, U, 0,
        NULL)) ;
    // count times f(e,e), in the computation type (a count typecast to an
    // integer type wraps, as adding f(e,e) that many times would)
    TRY (GrB_Matrix_new (E, ar->type, m, n)) ;
    TRY (GrB_Matrix_apply_BinaryOp2nd_Scalar (*E, NULL, NULL, ar->times, Us,
        fee, NULL)) ;
    GrB_Matrix_free (&na) ; GrB_Matrix_free (&nb) ; GrB_Matrix_free (&N) ;
    GrB_Matrix_free (&U) ; GrB_Matrix_free (&Us) ;
    return (GrB_SUCCESS) ;
}

//------------------------------------------------------------------------------
// the scale S and the pairs it does not let through
//------------------------------------------------------------------------------

// *I, *J (new), *np: the entries of bad (BOOL) that are true; bad is
// overwritten.  On failure nothing is left allocated.
#undef  FREE_ALL
#define FREE_ALL free (*I) ; free (*J) ; *I = NULL ; *J = NULL ;

static GrB_Info list_true (GrB_Index **I, GrB_Index **J, GrB_Index *np,
    GrB_Matrix bad)
{
    GrB_Index nbad ;
    *I = NULL ;
    *J = NULL ;
    TRY (GrB_Matrix_select_BOOL (bad, NULL, NULL, GrB_VALUEEQ_BOOL, bad, true,
        NULL)) ;
    TRY (GrB_Matrix_nvals (&nbad, bad)) ;
    *I = calloc (nbad + 1, sizeof (GrB_Index)) ;
    *J = calloc (nbad + 1, sizeof (GrB_Index)) ;
    CHECK (*I != NULL && *J != NULL, GrB_OUT_OF_MEMORY) ;
    TRY (GrB_Matrix_extractTuples_BOOL (*I, *J, NULL, &nbad, bad)) ;
    *np = nbad ;
    return (GrB_SUCCESS) ;
}


// *I, *J, *np: the pairs with S > tau |D| or a non-finite S
// or D; D and every term are FP64 here
#undef  FREE_ALL
#define FREE_ALL                                                            \
    GrB_Matrix_free (&Fa) ; GrB_Matrix_free (&Fb) ; GrB_Matrix_free (&ra) ; \
    GrB_Matrix_free (&rb) ; GrB_Matrix_free (&S) ; GrB_Matrix_free (&X) ;   \
    GrB_Matrix_free (&bad) ; GrB_BinaryOp_free (&op) ;

static GrB_Info untrusted (GrB_Index **I, GrB_Index **J, GrB_Index *np,
    const arith *ar, GrB_Matrix D, GrB_Matrix FA, GrB_Matrix FB, GrB_Matrix T1,
    GrB_Matrix E, GrB_Matrix ones, double tau)
{
    GrB_Matrix Fa = NULL, Fb = NULL, ra = NULL, rb = NULL, S = NULL, X = NULL,
        bad = NULL ;
    GrB_BinaryOp op = NULL ;
    GrB_Index m, n ;
    TRY (GrB_Matrix_nrows (&m, D)) ;
    TRY (GrB_Matrix_ncols (&n, D)) ;
    TRY (GXO_applied (&Fa, GrB_ABS_FP64, FA)) ;
    TRY (GXO_applied (&Fb, GrB_ABS_FP64, FB)) ;
    TRY (row_sums (&ra, ar, Fa, ones)) ;
    TRY (row_sums (&rb, ar, Fb, ones)) ;
    TRY (GrB_Matrix_new (&S, GrB_FP64, m, n)) ;
    TRY (GrB_Matrix_kronecker_BinaryOp (S, NULL, NULL, GrB_PLUS_FP64, ra, rb,
        GrB_DESC_T1)) ;
    TRY (GrB_Matrix_new (&X, GrB_FP64, m, n)) ;
    TRY (GrB_Matrix_apply (X, NULL, NULL, GrB_ABS_FP64, T1, NULL)) ;
    TRY (GrB_Matrix_assign (S, NULL, GrB_PLUS_FP64, X, GrB_ALL, m, GrB_ALL, n,
        NULL)) ;
    if (E != NULL)
    {
        TRY (GrB_Matrix_apply (X, NULL, NULL, GrB_ABS_FP64, E, NULL)) ;
        TRY (GrB_Matrix_assign (S, NULL, GrB_PLUS_FP64, X, GrB_ALL, m, GrB_ALL,
            n, NULL)) ;
    }
    TRY (GrB_Matrix_apply_BinaryOp2nd_FP64 (S, NULL, NULL, GrB_DIV_FP64, S,
        tau, NULL)) ;
    TRY (GxB_BinaryOp_new (&op, distrust, GrB_BOOL, GrB_FP64, GrB_FP64,
        "gxo_distrust", NULL)) ;
    TRY (GrB_Matrix_new (&bad, GrB_BOOL, m, n)) ;
    TRY (GrB_Matrix_eWiseMult_BinaryOp (bad, NULL, NULL, op, S, D, NULL)) ;
    TRY (list_true (I, J, np, bad)) ;
    FREE_ALL ;
    return (GrB_SUCCESS) ;
}

// *D = the metrics' sum (oracle_sum.c), every row of A in one block
#undef  FREE_ALL
#define FREE_ALL GXO_sum_free (&s) ; GrB_Matrix_free (D) ;

static GrB_Info metric_sum (GrB_Matrix *D, const gxo_corr *corr,
    GrB_BinaryOp f, GrB_Matrix A, GrB_Matrix B, double tau)
{
    gxo_sum s ;
    GrB_Index m, n ;
    memset (&s, 0, sizeof (s)) ;
    TRY (GrB_Matrix_nrows (&m, A)) ;
    TRY (GrB_Matrix_nrows (&n, B)) ;
    TRY (GXO_sum_new (&s, f, corr, A, B, tau)) ;
    TRY (GXO_full_new (D, m, n)) ;
    TRY (GXO_sum_rows (&s, *D, 0)) ;
    GXO_sum_free (&s) ;
    return (GrB_SUCCESS) ;
}

//------------------------------------------------------------------------------
// GXO_union_plus
//------------------------------------------------------------------------------

#undef  FREE_ALL
#define FREE_ALL                                                            \
    GrB_Scalar_free (&ex) ; GrB_Scalar_free (&ey) ; GrB_Scalar_free (&fee) ;\
    GrB_Matrix_free (&ones) ;                                               \
    GrB_Matrix_free (&FA) ; GrB_Matrix_free (&FB) ; GrB_Matrix_free (&ra) ; \
    GrB_Matrix_free (&rb) ; GrB_Matrix_free (&T1) ; GrB_Matrix_free (&P) ;  \
    GrB_Matrix_free (&E) ; GrB_Matrix_free (&C) ; GrB_Matrix_free (&Z) ;    \
    GrB_Matrix_free (&Q) ; GrB_Semiring_free (&semiring) ;                  \
    free (I) ; free (J) ;

GrB_Info GXO_union_plus (GrB_Matrix *D, GrB_Monoid add, GrB_BinaryOp mult,
    double identity, GrB_Matrix A, GrB_Matrix B, double tau)
{
    return (GXO_union_plus_terms (D, add, mult, identity, A, B, tau, NULL)) ;
}

GrB_Info GXO_union_plus_terms (GrB_Matrix *D, GrB_Monoid add,
    GrB_BinaryOp mult, double identity, GrB_Matrix A, GrB_Matrix B,
    double tau, const gxo_corr *corr)
{
    GrB_Scalar ex = NULL, ey = NULL, fee = NULL ;
    GrB_Matrix ones = NULL, FA = NULL, FB = NULL, ra = NULL, rb = NULL,
        T1 = NULL, P = NULL, Q = NULL, E = NULL, C = NULL, Z = NULL ;
    GrB_Semiring semiring = NULL ;
    GrB_Index *I = NULL, *J = NULL ;
    CHECK (D != NULL && add != NULL && mult != NULL && A != NULL && B != NULL,
        GrB_NULL_POINTER) ;
    *D = NULL ;
    CHECK (GXO_monoid_is_plus (add), GrB_DOMAIN_MISMATCH) ;
    GrB_Type xtype, ytype, ztype ;
    GrB_Index m, n, k, kb ;
    TRY (GxB_BinaryOp_xtype (&xtype, mult)) ;
    TRY (GxB_BinaryOp_ytype (&ytype, mult)) ;
    TRY (GxB_BinaryOp_ztype (&ztype, mult)) ;
    TRY (GrB_Matrix_nrows (&m, A)) ;
    TRY (GrB_Matrix_nrows (&n, B)) ;
    TRY (GrB_Matrix_ncols (&k, A)) ;
    TRY (GrB_Matrix_ncols (&kb, B)) ;
    CHECK (k == kb, GrB_DIMENSION_MISMATCH) ;
    // GrB_Semiring_new checks that add's type is mult's ztype
    TRY (GrB_Semiring_new (&semiring, add, mult)) ;
    bool fp = (ztype == GrB_FP32 || ztype == GrB_FP64) ;
    arith ar ;
    CHECK (arith_of (&ar, fp ? GrB_FP64 : ztype), GrB_DOMAIN_MISMATCH) ;

    // the identity in each input type, and f(e,e) (a 1-by-1 apply)
    TRY (GrB_Scalar_new (&ex, xtype)) ;
    TRY (GrB_Scalar_new (&ey, ytype)) ;
    TRY (GrB_Scalar_setElement_FP64 (ex, identity)) ;
    TRY (GrB_Scalar_setElement_FP64 (ey, identity)) ;
    double fee64 ;
    TRY (GXO_apply_scalars (&fee, &fee64, mult, xtype, ex, ey)) ;
    if (corr != NULL)
    {
        CHECK (ztype == GrB_FP64 && identity == 0 && fee64 == 0,
            GrB_INVALID_VALUE) ;
        TRY (metric_sum (D, corr, mult, A, B, tau)) ;
        FREE_ALL ;
        return (GrB_SUCCESS) ;
    }

    // F_A = f(x, e), F_B = f(e, y), in mult's output type
    TRY (GrB_Matrix_new (&FA, ztype, m, k)) ;
    TRY (GrB_Matrix_new (&FB, ztype, n, k)) ;
    TRY (GrB_Matrix_apply_BinaryOp2nd_Scalar (FA, NULL, NULL, mult, A, ey,
        NULL)) ;
    TRY (GrB_Matrix_apply_BinaryOp1st_Scalar (FB, NULL, NULL, mult, ex, B,
        NULL)) ;

    // C = ra_i + rb_j
    TRY (GrB_Matrix_new (&ones, ar.type, k, 1)) ;
    TRY (GrB_Matrix_assign_FP64 (ones, NULL, NULL, 1, GrB_ALL, k, GrB_ALL, 1,
        NULL)) ;
    TRY (row_sums (&ra, &ar, FA, ones)) ;
    TRY (row_sums (&rb, &ar, FB, ones)) ;
    TRY (GrB_Matrix_new (&C, ar.type, m, n)) ;
    TRY (GrB_Matrix_kronecker_BinaryOp (C, NULL, NULL, ar.plus, ra, rb,
        GrB_DESC_T1)) ;

    // C += T1 - P over the pairs with a common column (T1 and P have that
    // same pattern)
    TRY (GrB_Matrix_new (&T1, ar.type, m, n)) ;
    TRY (GrB_mxm (T1, NULL, NULL, semiring, A, B, GrB_DESC_T1)) ;
    TRY (GrB_Matrix_new (&P, ar.type, m, n)) ;
    TRY (GrB_mxm (P, NULL, NULL, ar.plus_plus, FA, FB, GrB_DESC_T1)) ;
    TRY (GrB_Matrix_new (&Q, ar.type, m, n)) ;
    TRY (GrB_Matrix_eWiseMult_BinaryOp (Q, NULL, NULL, ar.minus, T1, P,
        NULL)) ;
    GrB_Matrix_free (&P) ;
    TRY (GrB_Matrix_assign (C, NULL, ar.plus, Q, GrB_ALL, m, GrB_ALL, n,
        NULL)) ;
    GrB_Matrix_free (&Q) ;

    // C += (k - |A_i u B_j|) f(e,e)
    bool with_count = !(fee64 == 0) ;       // also where f(e,e) is NaN
    if (with_count)
    {
        TRY (count_term (&E, &ar, fee, A, B, ones)) ;
        TRY (GrB_Matrix_assign (C, NULL, ar.plus, E, GrB_ALL, m, GrB_ALL, n,
            NULL)) ;
    }

    // the result in mult's type; untrusted floating-point pairs done again
    if (ztype == ar.type)
    {
        Z = C ;
        C = NULL ;
    }
    else
    {
        TRY (GrB_Matrix_new (&Z, ztype, m, n)) ;
        TRY (GrB_Matrix_assign (Z, NULL, NULL, C, GrB_ALL, m, GrB_ALL, n,
            NULL)) ;
    }
    if (fp && k > 0)
    {
        GrB_Index np = 0 ;
        GrB_Matrix C64 = (C != NULL) ? C : Z ;
        TRY (untrusted (&I, &J, &np, &ar, C64, FA, FB, T1, E, ones, tau)) ;
        gxo_side sa = { A, xtype, identity } ;
        gxo_side sb = { B, ytype, identity } ;
        gxo_product prod = { semiring, NULL, 0, NULL } ;
        TRY (GXO_pairs_at (Z, &sa, &sb, &prod, I, J, np)) ;
    }
    *D = Z ;
    Z = NULL ;
    FREE_ALL ;
    return (GrB_SUCCESS) ;
}
