// examples/user_operator.c: distances with your own operator.  (1) A NAMM
// from a user GrB_BinaryOp, the clipped difference min(|x - y|, 1), made
// with GxB_BinaryOp_new and its C definition (so a JIT can compile it),
// summed over the union of each row pair's columns (a missing entry = 0).
// (2) An ordinary semiring, GxB_MAX_MINUS_FP64, given union semantics by
// GxB_DESC_UNION: max over the columns of (a - b); the larger of (A,B) and
// (B,A) is max |a - b|, which must equal the built-in CHEBYSHEV.  Exits 1
// unless (1) agrees with a dense loop and (2) with CHEBYSHEV, both within
// 1e-12 relative.

#include <gxbdist.h>
#include <math.h>
#include <stdio.h>

#define M 4     // rows of A
#define N 3     // rows of B
#define K 6     // columns
static const double XA [M][K] = { { 1, 0, 2.5, 0, 0, 0 }, { 0, 0.25, 0, 0, 3, 0 },
                                  { 0, 0, 0, 0, 0, 0 },   { -2, 0, 0.5, 0, 0, 0.75 } } ;
static const double XB [N][K] = { { 0, 0.5, 2, 0, 0, 0 }, { 1, 0, 0, 4, 0, 0 },
                                  { 0, 0, 0, 0, 2.5, -1 } } ;

// the operator, and the same code as text for GxB_BinaryOp_new
void clipdiff (double *z, const double *x, const double *y)
{ double d = fabs (*x - *y) ; (*z) = (d < 1) ? d : 1 ; }
#define CLIPDIFF_DEFN "void clipdiff (double *z, const double *x, const double *y)\n" \
                      "{ double d = fabs (*x - *y) ; (*z) = (d < 1) ? d : 1 ; }"

#define FREE_ALL GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&S) ;    \
    GrB_Matrix_free (&D1) ; GrB_Matrix_free (&D2) ; GrB_Matrix_free (&Cheb) ;          \
    GrB_Semiring_free (&clipped) ; GxB_NAMM_free (&namm) ; GrB_BinaryOp_free (&op) ;    \
    GxB_Distance_finalize () ; GrB_finalize () ;
#define TRY(call) { GrB_Info tried = (call) ; if (tried != GrB_SUCCESS) {              \
    const char *msg = "" ; GxB_Distance_error (&msg) ;                                 \
    fprintf (stderr, "%s: GrB_Info %d %s\n", #call, (int) tried, msg) ; FREE_ALL ; return 1 ; } }

static int differ (double got, double want)
{
    return !(fabs (got - want) <= 1e-12 * fabs (want)) ;
}

int main (void)
{
    GrB_Matrix A = NULL, B = NULL, S = NULL, D1 = NULL, D2 = NULL, Cheb = NULL ;
    GrB_BinaryOp op = NULL ;
    GxB_NAMM namm = NULL ;
    GrB_Semiring clipped = NULL ;
    TRY (GrB_init (GrB_NONBLOCKING)) ;
    TRY (GxB_Distance_init ()) ;
    TRY (GrB_Matrix_new (&A, GrB_FP64, M, K)) ;
    TRY (GrB_Matrix_new (&B, GrB_FP64, N, K)) ;
    for (int c = 0 ; c < K ; c++)
    {
        for (int i = 0 ; i < M ; i++) if (XA [i][c] != 0) TRY (GrB_Matrix_setElement_FP64 (A, XA [i][c], i, c)) ;
        for (int j = 0 ; j < N ; j++) if (XB [j][c] != 0) TRY (GrB_Matrix_setElement_FP64 (B, XB [j][c], j, c)) ;
    }

    // (1) S(i,j) = sum over the columns c of min (|A(i,c) - B(j,c)|, 1)
    TRY (GxB_BinaryOp_new (&op, (GxB_binary_function) clipdiff, GrB_FP64, GrB_FP64, GrB_FP64,
        "clipdiff", CLIPDIFF_DEFN)) ;
    TRY (GxB_NAMM_new (&namm, op, 0)) ;      // a missing entry is 0
    TRY (GxB_Semiring_new_NAMM (&clipped, GrB_PLUS_MONOID_FP64, namm)) ;
    TRY (GrB_Matrix_new (&S, GrB_FP64, M, N)) ;
    TRY (GxB_mxm_distance (S, NULL, NULL, clipped, A, B, NULL)) ;

    // (2) D1(i,j) = max_c (A(i,c) - B(j,c)), D2(j,i) = max_c (B(j,c) - A(i,c))
    TRY (GrB_Matrix_new (&D1, GrB_FP64, M, N)) ;
    TRY (GrB_Matrix_new (&D2, GrB_FP64, N, M)) ;
    TRY (GxB_mxm_distance (D1, NULL, NULL, GxB_MAX_MINUS_FP64, A, B, GxB_DESC_UNION)) ;
    TRY (GxB_mxm_distance (D2, NULL, NULL, GxB_MAX_MINUS_FP64, B, A, GxB_DESC_UNION)) ;
    TRY (GrB_Matrix_eWiseAdd_BinaryOp (D1, NULL, NULL, GrB_MAX_FP64, D1, D2, GrB_DESC_T1)) ;
    TRY (GrB_Matrix_new (&Cheb, GrB_FP64, M, N)) ;
    TRY (GxB_mxm_distance (Cheb, NULL, NULL, GxB_DIST_CHEBYSHEV_FP64, A, B, NULL)) ;

    int bad = 0 ;
    for (int i = 0 ; i < M ; i++)
    {
        for (int j = 0 ; j < N ; j++)
        {
            double want = 0, s, d, cheb ;
            for (int c = 0 ; c < K ; c++) clipdiff (&d, &XA [i][c], &XB [j][c]), want += d ;
            TRY (GrB_Matrix_extractElement_FP64 (&s, S, i, j)) ;
            TRY (GrB_Matrix_extractElement_FP64 (&d, D1, i, j)) ;
            TRY (GrB_Matrix_extractElement_FP64 (&cheb, Cheb, i, j)) ;
            printf ("(%d,%d): clipped %-6g max|a-b| %-6g chebyshev %g\n", i, j, s, d, cheb) ;
            bad += differ (s, want) + differ (d, cheb) ;
        }
    }
    printf ("%s\n", bad ? "MISMATCH" : "the clipped NAMM agrees with a dense loop, "
        "MAX_MINUS over the union with CHEBYSHEV") ;
    FREE_ALL ;
    return bad ? 1 : 0 ;
}
