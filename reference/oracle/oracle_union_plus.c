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

// *S = op applied to M (FP64, a new matrix of M's dimensions)
#undef  FREE_ALL
#define FREE_ALL GrB_Matrix_free (S) ;

static GrB_Info applied (GrB_Matrix *S, GrB_UnaryOp op, GrB_Matrix M)
{
    GrB_Index nrows, ncols ;
    TRY (GrB_Matrix_nrows (&nrows, M)) ;
    TRY (GrB_Matrix_ncols (&ncols, M)) ;
    TRY (GrB_Matrix_new (S, GrB_FP64, nrows, ncols)) ;
    TRY (GrB_Matrix_apply (*S, NULL, NULL, op, M, NULL)) ;
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
    TRY (applied (&Fa, GrB_ABS_FP64, FA)) ;
    TRY (applied (&Fb, GrB_ABS_FP64, FB)) ;
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

// D (full FP64) += ra_i + rb_j in place (unless D already holds them:
// add false), and the pairs not to be trusted then: the metrics' terms are
// all >= 0, so S = D + P, P the row terms of the common columns, P <= ra_i
// + rb_j; a pair is kept where ra_i + rb_j <= (tau - 1) D, which also
// implies S <= tau D, and where D is finite (distrusted checks both).  One
// pass over D, a row at a time on every thread, counting each row's pairs;
// then the pairs of the rows that have any.
#undef  FREE_ALL
#define FREE_ALL                                                            \
    free (a) ; free (b) ; free (start) ; (void) GXO_full_close (&F) ;       \
    free (*I) ; free (*J) ; *I = NULL ; *J = NULL ;

static GrB_Info add_row_terms (GrB_Index **I, GrB_Index **J, GrB_Index *np,
    GrB_Matrix D, GrB_Matrix ra, GrB_Matrix rb, double tau, bool add)
{
    double *a = NULL, *b = NULL ;
    GrB_Index *start = NULL, m, n ;
    gxo_full F = { NULL, NULL, 0, false } ;
    *I = NULL ;
    *J = NULL ;
    TRY (GrB_Matrix_nrows (&m, D)) ;
    TRY (GrB_Matrix_ncols (&n, D)) ;
    TRY (GXO_to_dense (&a, ra)) ;
    TRY (GXO_to_dense (&b, rb)) ;
    start = calloc (m + 1, sizeof (GrB_Index)) ;
    CHECK (start != NULL, GrB_OUT_OF_MEMORY) ;
    GrB_Info info = GXO_full_open (&F, D) ;
    CHECK (info == GrB_SUCCESS && !(add && F.iso), (info < 0) ? info :
        GrB_INVALID_VALUE) ;
    double *x = F.x, t1 = tau - 1 ;
    GrB_Index stride = F.iso ? 0 : 1 ;
    #pragma omp parallel for schedule(dynamic, 16)
    for (GrB_Index i = 0 ; i < m ; i++)
    {
        GrB_Index c = 0 ;
        double *xi = x + i * n * stride ;
        for (GrB_Index j = 0 ; j < n ; j++)
        {
            double r = a [i] + b [j] ;
            if (add) xi [j] = r + xi [j] ;
            c += distrusted (r / t1, xi [j * stride]) ;
        }
        start [i + 1] = c ;
    }
    for (GrB_Index i = 0 ; i < m ; i++) start [i + 1] += start [i] ;
    *I = calloc (start [m] + 1, sizeof (GrB_Index)) ;
    *J = calloc (start [m] + 1, sizeof (GrB_Index)) ;
    CHECK (*I != NULL && *J != NULL, GrB_OUT_OF_MEMORY) ;
    #pragma omp parallel for schedule(dynamic, 16)
    for (GrB_Index i = 0 ; i < m ; i++)
    {
        const double *xi = x + i * n * stride ;
        GrB_Index q = start [i] ;
        for (GrB_Index j = 0 ; q < start [i + 1] ; j++)
        {
            if (distrusted ((a [i] + b [j]) / t1, xi [j * stride]))
            {
                (*I) [q] = i ;
                (*J) [q++] = j ;
            }
        }
    }
    *np = start [m] ;
    TRY (GXO_full_close (&F)) ;
    free (a) ; free (b) ; free (start) ;
    return (GrB_SUCCESS) ;
}

// C += A (+).(x) B (FP64, C full, B given as the kc-by-n transpose of the
// right operand), accumulated in place: with A held as a bitmap, GraphBLAS
// adds each product straight into C's own array, where a sparse product
// would build an m-by-n result of its own first (most pairs of real data
// share a column) and then add it.  A's bitmap costs m*kc bytes and as
// many values (one where A is iso), within the 8 m n bytes of C where kc <=
// n (kc <= 9 n for an iso A: the pairs of oracle_equal_pairs.c and of the
// classes, whose product took 420-470 ms sparse, 1,600 rows of fortunes
// divided by their sums, where 31,000 pairs outnumber its 15,217 rows); a
// wider A stays sparse.
GrB_Info GXO_accumulate (GrB_Matrix C, GrB_Semiring semiring, GrB_Matrix A,
    GrB_Matrix BT)
{
    GrB_Index n, kc ;
    GrB_BinaryOp plus ;
    GrB_Monoid add ;
    bool iso = false ;
    GrB_Info info = GrB_Matrix_ncols (&n, C) ;
    if (info == GrB_SUCCESS) info = GrB_Matrix_ncols (&kc, A) ;
    if (info == GrB_SUCCESS) info = GxB_Matrix_iso (&iso, A) ;
    if (info == GrB_SUCCESS) info = GxB_Semiring_add (&add, semiring) ;
    if (info == GrB_SUCCESS) info = GxB_Monoid_operator (&plus, add) ;
    if (info == GrB_SUCCESS && kc <= (iso ? 9 : 1) * n)
    {
        info = GxB_Matrix_Option_set (A, GxB_SPARSITY_CONTROL, GxB_BITMAP) ;
    }
    if (info == GrB_SUCCESS)
    {
        info = GrB_mxm (C, NULL, plus, semiring, A, BT, NULL) ;
    }
    return (info) ;
}

// *cols (new), *kc: the columns of A with an entry (its transpose's rows,
// reduced)
#undef  FREE_ALL
#define FREE_ALL GrB_Vector_free (&v) ; free (*cols) ; *cols = NULL ;

static GrB_Info used_columns (GrB_Index **cols, GrB_Index *kc, GrB_Matrix A)
{
    GrB_Vector v = NULL ;
    GrB_Index k ;
    *cols = NULL ;
    TRY (GrB_Matrix_ncols (&k, A)) ;
    TRY (GrB_Vector_new (&v, GrB_BOOL, k)) ;
    TRY (GrB_Matrix_reduce_Monoid (v, NULL, NULL, GrB_LOR_MONOID_BOOL, A,
        GrB_DESC_T0)) ;
    TRY (GrB_Vector_nvals (kc, v)) ;
    *cols = calloc (*kc + 1, sizeof (GrB_Index)) ;
    CHECK (*cols != NULL, GrB_OUT_OF_MEMORY) ;
    TRY (GrB_Vector_extractTuples_BOOL (*cols, NULL, kc, v)) ;
    GrB_Vector_free (&v) ;
    return (GrB_SUCCESS) ;
}

// *Ac, *BT (new), *cols (new), *kc: A (m-by-k) and B' (B n-by-k) cut to
// the kc columns where A has entries, the only ones that can meet B; with
// kc = 0 (no common column, and GrB_mxm refuses an inner dimension of 0)
// *Ac and *BT stay NULL
#undef  FREE_ALL
#define FREE_ALL                                                            \
    GrB_Matrix_free (Ac) ; GrB_Matrix_free (BT) ; free (*cols) ;            \
    *cols = NULL ;

static GrB_Info cut_to_used (GrB_Matrix *Ac, GrB_Matrix *BT, GrB_Index **cols,
    GrB_Index *kc, GrB_Matrix A, GrB_Matrix B)
{
    GrB_Index m, n ;
    *Ac = NULL ;
    *BT = NULL ;
    TRY (GrB_Matrix_nrows (&m, A)) ;
    TRY (GrB_Matrix_nrows (&n, B)) ;
    TRY (used_columns (cols, kc, A)) ;
    if (*kc == 0) return (GrB_SUCCESS) ;
    TRY (GrB_Matrix_new (Ac, GrB_FP64, m, *kc)) ;
    TRY (GrB_Matrix_extract (*Ac, NULL, NULL, A, GrB_ALL, m, *cols, *kc,
        NULL)) ;
    TRY (GrB_Matrix_new (BT, GrB_FP64, *kc, n)) ;
    TRY (GrB_Matrix_extract (*BT, NULL, NULL, B, *cols, *kc, GrB_ALL, n,
        GrB_DESC_T0)) ;
    return (GrB_SUCCESS) ;
}

// C += A (+).(x) B' (FP64, C full), in place (accumulate), over the columns
// where A has entries
#undef  FREE_ALL
#define FREE_ALL                                                            \
    GrB_Matrix_free (&Ac) ; GrB_Matrix_free (&BT) ; free (cols) ;

static GrB_Info in_place (GrB_Matrix C, GrB_Semiring semiring, GrB_Matrix A,
    GrB_Matrix B)
{
    GrB_Matrix Ac = NULL, BT = NULL ;
    GrB_Index *cols = NULL, kc ;
    TRY (cut_to_used (&Ac, &BT, &cols, &kc, A, B)) ;
    if (kc > 0) TRY (GXO_accumulate (C, semiring, Ac, BT)) ;
    FREE_ALL ;
    return (GrB_SUCCESS) ;
}

// A's values in few classes (counts, ratings, 0/1): at most this many
// distinct values, for the common columns' part by classes
// (in_place_classes)
#define GXO_CLASSES_MAX 64

// *U (new), *nu: the distinct values of A, ascending, where there are at
// most GXO_CLASSES_MAX and no NaN (VALUEEQ cannot select it); else *nu =
// GXO_CLASSES_MAX + 1, found at the first value past them (reals stop
// there, after a few dozen entries)
#undef  FREE_ALL
#define FREE_ALL free (X) ; free (*U) ; *U = NULL ;

static GrB_Info class_values (double **U, GrB_Index *nu, GrB_Matrix A)
{
    GrB_Index nv, c = 0 ;
    double *X = NULL ;
    *U = NULL ;
    *nu = GXO_CLASSES_MAX + 1 ;
    TRY (GrB_Matrix_nvals (&nv, A)) ;
    X = malloc ((nv + 1) * sizeof (double)) ;
    *U = malloc ((GXO_CLASSES_MAX + 1) * sizeof (double)) ;
    CHECK (X != NULL && *U != NULL, GrB_OUT_OF_MEMORY) ;
    TRY (GrB_Matrix_extractTuples_FP64 (NULL, NULL, X, &nv, A)) ;
    for (GrB_Index p = 0 ; p < nv ; p++)
    {
        double x = X [p] ;
        if (x != x) { free (X) ; return (GrB_SUCCESS) ; }
        // where x goes in the values so far (binary search)
        GrB_Index lo = 0, hi = c ;
        while (lo < hi)
        {
            GrB_Index mid = (lo + hi) / 2 ;
            if ((*U) [mid] < x) lo = mid + 1 ; else hi = mid ;
        }
        if (lo < c && (*U) [lo] == x) continue ;
        if (c == GXO_CLASSES_MAX) { free (X) ; return (GrB_SUCCESS) ; }
        memmove (*U + lo + 1, *U + lo, (c - lo) * sizeof (double)) ;
        (*U) [lo] = x ;
        c++ ;
    }
    *nu = c ;
    free (X) ;
    return (GrB_SUCCESS) ;
}

// *z = f(x,y), by GraphBLAS as every other value of f (a 1-by-1 apply)
#undef  FREE_ALL
#define FREE_ALL GrB_Matrix_free (&X) ;

static GrB_Info op_value (double *z, GrB_BinaryOp f, double x, double y)
{
    GrB_Matrix X = NULL ;
    TRY (GrB_Matrix_new (&X, GrB_FP64, 1, 1)) ;
    TRY (GrB_Matrix_setElement_FP64 (X, x, 0, 0)) ;
    TRY (GrB_Matrix_apply_BinaryOp2nd_FP64 (X, NULL, NULL, f, X, y, NULL)) ;
    TRY (GrB_Matrix_extractElement_FP64 (z, X, 0, 0)) ;
    GrB_Matrix_free (&X) ;
    return (GrB_SUCCESS) ;
}

// One class u of A's values, as two tiles of a product by classes: *Ac =
// the pattern (ones) of A == u, cut to the kc columns where A holds u
// (m-by-kc), and *G = f (u, B') on those columns (kc-by-n), given Bt = B';
// or, given F0t = f(0, B'), g (u, B'), g (x,y) = f(x,y) - f(x,0) - f(0,y)
// the part of a common column in the sum.
#undef  FREE_ALL
#define FREE_ALL                                                            \
    GrB_Matrix_free (&Au) ; GrB_Matrix_free (&F0) ; free (cols) ;           \
    GrB_Matrix_free (Ac) ; GrB_Matrix_free (G) ;

static GrB_Info class_tiles (GrB_Matrix *Ac, GrB_Matrix *G, double u,
    GrB_BinaryOp f, GrB_Matrix A, GrB_Matrix Bt, GrB_Matrix F0t)
{
    GrB_Matrix Au = NULL, F0 = NULL ;
    GrB_Index *cols = NULL, m, n, k, kc ;
    TRY (GrB_Matrix_nrows (&m, A)) ;
    TRY (GrB_Matrix_ncols (&k, A)) ;
    TRY (GrB_Matrix_ncols (&n, Bt)) ;
    TRY (GrB_Matrix_new (&Au, GrB_FP64, m, k)) ;
    TRY (GrB_Matrix_select_FP64 (Au, NULL, NULL, GrB_VALUEEQ_FP64, A, u,
        NULL)) ;
    TRY (used_columns (&cols, &kc, Au)) ;
    TRY (GrB_Matrix_new (Ac, GrB_FP64, m, kc)) ;
    TRY (GrB_Matrix_extract (*Ac, NULL, NULL, Au, GrB_ALL, m, cols, kc,
        NULL)) ;
    TRY (GrB_Matrix_apply (*Ac, NULL, NULL, GxB_ONE_FP64, *Ac, NULL)) ;
    TRY (GrB_Matrix_new (G, GrB_FP64, kc, n)) ;
    TRY (GrB_Matrix_extract (*G, NULL, NULL, Bt, cols, kc, GrB_ALL, n, NULL)) ;
    TRY (GrB_Matrix_apply_BinaryOp1st_FP64 (*G, NULL, NULL, f, u, *G, NULL)) ;
    if (F0t != NULL)
    {
        double fu0 ;
        TRY (op_value (&fu0, f, u, 0)) ;
        TRY (GrB_Matrix_apply_BinaryOp2nd_FP64 (*G, NULL, NULL,
            GrB_MINUS_FP64, *G, fu0, NULL)) ;
        TRY (GrB_Matrix_new (&F0, GrB_FP64, kc, n)) ;
        TRY (GrB_Matrix_extract (F0, NULL, NULL, F0t, cols, kc, GrB_ALL, n,
            NULL)) ;
        TRY (GrB_Matrix_eWiseMult_BinaryOp (*G, NULL, NULL, GrB_MINUS_FP64,
            *G, F0, NULL)) ;
    }
    GrB_Matrix_free (&Au) ; GrB_Matrix_free (&F0) ; free (cols) ;
    return (GrB_SUCCESS) ;
}

// the tiles of in_place_classes, one pair a class
static void free_tiles (GrB_Matrix *T, GrB_Index nt)
{
    for (GrB_Index t = 0 ; T != NULL && t < nt ; t++) GrB_Matrix_free (&T [t]) ;
    free (T) ;
}

// C += A PLUS.f B' (FP64, C full), or with common: the common columns'
// part of a sum of f over the union, sum over c in A_i n B_j of g (x_c,
// y_c) (class_tiles), by the classes of A's values where there are few.
// Each class u gives a tile of A (the pattern of A == u on the columns where
// A holds u) and one of B' (f or g (u, B') on those columns); the tiles side
// by side and one above the other make Ax (m-by-K, K the number of (column,
// value) pairs of A) and G (K-by-n), and C += Ax PLUS.SECOND G is one
// built-in product into C's array with the flops of A B': f is called once
// per entry of B under a (column, value) pair, not once per product, C is
// passed over once, not once a class, and Ax's bitmap is one byte an entry
// (its values all 1), where A's own would be nine.  The sum is the same up
// to its order.  *done is false (C untouched) where A has more classes, or
// a NaN.
#undef  FREE_ALL
#define FREE_ALL                                                            \
    free (U) ; free_tiles (TA, nu) ; free_tiles (TG, nu) ;                  \
    GrB_Matrix_free (&Bt) ; GrB_Matrix_free (&F0t) ;                        \
    GrB_Matrix_free (&Ax) ; GrB_Matrix_free (&G) ;

static GrB_Info in_place_classes (bool *done, GrB_Matrix C, GrB_BinaryOp f,
    GrB_Matrix A, GrB_Matrix B, bool common)
{
    GrB_Matrix *TA = NULL, *TG = NULL, Bt = NULL, F0t = NULL, Ax = NULL,
        G = NULL ;
    double *U = NULL ;
    GrB_Index m, n, k, nu = 0, kx = 0 ;
    *done = false ;
    TRY (GrB_Matrix_nrows (&m, A)) ;
    TRY (GrB_Matrix_nrows (&n, B)) ;
    TRY (GrB_Matrix_ncols (&k, B)) ;
    TRY (class_values (&U, &nu, A)) ;
    if (nu > GXO_CLASSES_MAX) { nu = 0 ; FREE_ALL ; return (GrB_SUCCESS) ; }
    *done = true ;
    if (nu == 0) { FREE_ALL ; return (GrB_SUCCESS) ; }
    TA = calloc (nu, sizeof (GrB_Matrix)) ;
    TG = calloc (nu, sizeof (GrB_Matrix)) ;
    CHECK (TA != NULL && TG != NULL, GrB_OUT_OF_MEMORY) ;
    // B' and f(0, B') once: each class takes its rows from them
    TRY (GrB_Matrix_new (&Bt, GrB_FP64, k, n)) ;
    TRY (GrB_transpose (Bt, NULL, NULL, B, NULL)) ;
    if (common)
    {
        TRY (GrB_Matrix_new (&F0t, GrB_FP64, k, n)) ;
        TRY (GrB_Matrix_apply_BinaryOp1st_FP64 (F0t, NULL, NULL, f, 0, Bt,
            NULL)) ;
    }
    for (GrB_Index u = 0 ; u < nu ; u++)
    {
        GrB_Index kc ;
        TRY (class_tiles (&TA [u], &TG [u], U [u], f, A, Bt, F0t)) ;
        TRY (GrB_Matrix_ncols (&kc, TA [u])) ;
        kx += kc ;
    }
    GrB_Matrix_free (&Bt) ;
    GrB_Matrix_free (&F0t) ;
    TRY (GrB_Matrix_new (&Ax, GrB_FP64, m, kx)) ;
    TRY (GrB_Matrix_new (&G, GrB_FP64, kx, n)) ;
    TRY (GxB_Matrix_concat (Ax, TA, 1, nu, NULL)) ;
    TRY (GxB_Matrix_concat (G, TG, nu, 1, NULL)) ;
    free_tiles (TA, nu) ; TA = NULL ;
    free_tiles (TG, nu) ; TG = NULL ;
    TRY (GXO_accumulate (C, GxB_PLUS_SECOND_FP64, Ax, G)) ;
    FREE_ALL ;
    return (GrB_SUCCESS) ;
}

// *S = a part of M (FP64), times scale (exact for a power of two)
#undef  FREE_ALL
#define FREE_ALL GrB_Matrix_free (S) ;

static GrB_Info side_part (GrB_Matrix *S, GrB_Matrix M, gxo_part part,
    double scale)
{
    GrB_Index nrows, ncols ;
    TRY (GrB_Matrix_nrows (&nrows, M)) ;
    TRY (GrB_Matrix_ncols (&ncols, M)) ;
    TRY (GrB_Matrix_new (S, GrB_FP64, nrows, ncols)) ;
    switch (part)
    {
        case GXO_PART_POS :
            TRY (GrB_Matrix_select_FP64 (*S, NULL, NULL, GrB_VALUEGT_FP64, M,
                0, NULL)) ;
            break ;
        case GXO_PART_NEG :
            TRY (GrB_Matrix_select_FP64 (*S, NULL, NULL, GrB_VALUELT_FP64, M,
                0, NULL)) ;
            scale = -scale ;
            break ;
        case GXO_PART_SQRT :
            TRY (GrB_Matrix_apply (*S, NULL, NULL, GxB_SQRT_FP64, M, NULL)) ;
            break ;
        default :
            TRY (GrB_Matrix_assign (*S, NULL, NULL, M, GrB_ALL, nrows,
                GrB_ALL, ncols, NULL)) ;
            break ;
    }
    if (scale != 1)
    {
        TRY (GrB_Matrix_apply_BinaryOp2nd_FP64 (*S, NULL, NULL, GrB_TIMES_FP64,
            *S, scale, NULL)) ;
    }
    return (GrB_SUCCESS) ;
}

// C += T1 - P over the kc columns where A has entries: T1 = A PLUS.f B',
// f's own product, and P = F_A PLUS.PLUS F_B' added negated, with A and B'
// cut to those columns once for both, and F_B = f(0, B) made on B's cut
// alone.  (P as its own in_place, on copies of F_A and F_B negated over
// all of B, made CANBERRA's reference on 400 rows of fortunes divided by
// their row sums take 206-218 ms where this takes 191-204, 2 cores.)
#undef  FREE_ALL
#define FREE_ALL                                                            \
    GrB_Matrix_free (&Ac) ; GrB_Matrix_free (&BT) ; GrB_Matrix_free (&Fa) ; \
    GrB_Matrix_free (&Fb) ; free (cols) ;

static GrB_Info t1_minus_p (GrB_Matrix C, GrB_Semiring semiring,
    GrB_BinaryOp f, GrB_Matrix A, GrB_Matrix B, GrB_Matrix FA)
{
    GrB_Matrix Ac = NULL, BT = NULL, Fa = NULL, Fb = NULL ;
    GrB_Index *cols = NULL, m, n, kc ;
    TRY (GrB_Matrix_nrows (&m, A)) ;
    TRY (GrB_Matrix_nrows (&n, B)) ;
    TRY (cut_to_used (&Ac, &BT, &cols, &kc, A, B)) ;
    if (kc == 0) { FREE_ALL ; return (GrB_SUCCESS) ; }
    TRY (GrB_Matrix_new (&Fa, GrB_FP64, m, kc)) ;
    TRY (GrB_Matrix_extract (Fa, NULL, NULL, FA, GrB_ALL, m, cols, kc,
        NULL)) ;
    TRY (GrB_Matrix_apply (Fa, NULL, NULL, GrB_AINV_FP64, Fa, NULL)) ;
    TRY (GrB_Matrix_new (&Fb, GrB_FP64, kc, n)) ;
    TRY (GrB_Matrix_apply_BinaryOp1st_FP64 (Fb, NULL, NULL, f, 0, BT, NULL)) ;
    TRY (GrB_Matrix_apply (Fb, NULL, NULL, GrB_AINV_FP64, Fb, NULL)) ;
    TRY (GXO_accumulate (C, semiring, Ac, BT)) ;
    TRY (GXO_accumulate (C, GxB_PLUS_PLUS_FP64, Fa, Fb)) ;
    FREE_ALL ;
    return (GrB_SUCCESS) ;
}

// C += the common columns' part of the sum of f, the semiring's multiply:
// by classes of A's values where there are few (g summed directly), else
// NE's counts (equal) or T1 - P.  (On fortunes' counts, 33 classes, the
// classes took 80-100 ms for HAMMING at 400 rows, the counts 90-105.)
#undef  FREE_ALL
#define FREE_ALL ;

static GrB_Info common_part (GrB_Matrix C, GrB_Semiring semiring,
    GrB_Matrix A, GrB_Matrix B, GrB_Matrix FA, bool equal)
{
    GrB_BinaryOp f ;
    bool done ;
    TRY (GxB_Semiring_multiply (&f, semiring)) ;
    TRY (in_place_classes (&done, C, f, A, B, true)) ;
    if (done) return (GrB_SUCCESS) ;
    if (equal) return (GXO_common_ne (C, A, B)) ;
    return (t1_minus_p (C, semiring, f, A, B, FA)) ;
}

// C += one built-in term of the correction, a product of parts of A and B:
// by classes of A's part where there are few
#undef  FREE_ALL
#define FREE_ALL GrB_Matrix_free (&Sa) ; GrB_Matrix_free (&Sb) ;

static GrB_Info term_product (GrB_Matrix C, const gxo_corr_term *term,
    GrB_Matrix A, GrB_Matrix B)
{
    GrB_Matrix Sa = NULL, Sb = NULL ;
    GrB_BinaryOp mul ;
    GrB_Index na, nb ;
    bool done = true ;
    TRY (side_part (&Sa, A, term->a, term->ascale)) ;
    TRY (side_part (&Sb, B, term->b, term->bscale)) ;
    TRY (GrB_Matrix_nvals (&na, Sa)) ;
    TRY (GrB_Matrix_nvals (&nb, Sb)) ;
    TRY (GxB_Semiring_multiply (&mul, term->semiring)) ;
    if (na > 0 && nb > 0) TRY (in_place_classes (&done, C, mul, Sa, Sb, false)) ;
    if (!done) TRY (in_place (C, term->semiring, Sa, Sb)) ;
    FREE_ALL ;
    return (GrB_SUCCESS) ;
}

// *D = the metrics' sum (FP64, f(0,0) = 0, every term >= 0): C = 0, then
// += the correction summed over the common columns in place (C's array
// written by GraphBLAS once, not an m-by-n product made and then added),
// then += ra_i + rb_j with the check of add_row_terms, and the pairs it
// does not trust done again from their own terms (the product of semiring
// over the union)
#undef  FREE_ALL
#define FREE_ALL GrB_Matrix_free (&C) ; free (I) ; free (J) ;

static GrB_Info metric_sum (GrB_Matrix *D, const gxo_corr *corr,
    GrB_Semiring semiring, GrB_Matrix A, GrB_Matrix B, GrB_Matrix FA,
    GrB_Matrix FB, GrB_Matrix ra, GrB_Matrix rb, double tau)
{
    GrB_Matrix C = NULL ;
    GrB_Index *I = NULL, *J = NULL, np = 0, m, n ;
    TRY (GrB_Matrix_nrows (&m, A)) ;
    TRY (GrB_Matrix_nrows (&n, B)) ;
    TRY (GrB_Matrix_new (&C, GrB_FP64, m, n)) ;
    TRY (GrB_Matrix_assign_FP64 (C, NULL, NULL, 0, GrB_ALL, m, GrB_ALL, n,
        NULL)) ;
    // C's values one per entry before any product: GraphBLAS accumulates
    // into an iso C by a product of its own and an assign, not in place
    if (m * n > 1)
    {
        TRY (GrB_Matrix_setElement_FP64 (C, 1, 0, 0)) ;
        TRY (GrB_Matrix_setElement_FP64 (C, 0, 0, 0)) ;
        TRY (GrB_Matrix_wait (C, GrB_MATERIALIZE)) ;
    }
    if (corr->nterms == 0)
    {
        TRY (common_part (C, semiring, A, B, FA, corr->equal)) ;
    }
    for (int t = 0 ; t < corr->nterms ; t++)
    {
        TRY (term_product (C, &corr->term [t], A, B)) ;
    }
    // the row terms go into C's own array, unless C is still one iso value
    // (a single pair, or no product reached it): then by GraphBLAS
    bool iso ;
    TRY (GxB_Matrix_iso (&iso, C)) ;
    if (iso)
    {
        TRY (GrB_Matrix_kronecker_BinaryOp (C, NULL, GrB_PLUS_FP64,
            GrB_PLUS_FP64, ra, rb, GrB_DESC_T1)) ;
    }
    TRY (add_row_terms (&I, &J, &np, C, ra, rb, tau, !iso)) ;
    gxo_side sa = { A, GrB_FP64, 0, NULL, NULL } ;
    gxo_side sb = { B, GrB_FP64, 0, NULL, NULL } ;
    gxo_product prod = { semiring, NULL, 0, NULL } ;
    TRY (GXO_pairs_at (C, &sa, &sb, &prod, I, J, np)) ;
    *D = C ;
    C = NULL ;
    FREE_ALL ;
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
    if (corr != NULL)
    {
        CHECK (ztype == GrB_FP64 && identity == 0 && fee64 == 0,
            GrB_INVALID_VALUE) ;
        TRY (metric_sum (D, corr, semiring, A, B, FA, FB, ra, rb, tau)) ;
        FREE_ALL ;
        return (GrB_SUCCESS) ;
    }
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
        gxo_side sa = { A, xtype, identity, NULL, NULL } ;
        gxo_side sb = { B, ytype, identity, NULL, NULL } ;
        gxo_product prod = { semiring, NULL, 0, NULL } ;
        TRY (GXO_pairs_at (Z, &sa, &sb, &prod, I, J, np)) ;
    }
    *D = Z ;
    Z = NULL ;
    FREE_ALL ;
    return (GrB_SUCCESS) ;
}
