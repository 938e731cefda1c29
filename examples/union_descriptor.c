// SPDX-License-Identifier: Apache-2.0
// examples/union_descriptor.c: union semantics for ordinary semirings.
// GrB_mxm applies (x) only where both rows have an entry; GxB_mxm_distance
// with an annihilator-free descriptor applies it over every column, a
// missing entry being 0.  (1) GxB_DESC_UNION with GxB_MAX_MINUS_FP64 gives
// max_c (a_c - b_c); the larger of (A,B) and (B,A) is max_c |a_c - b_c|,
// which must equal the built-in CHEBYSHEV.  (2) Your own descriptor, marked
// with GxB_Desc_set_annihilator_free and given a mask: PLUS_MINUS over the
// union is sum (a) - sum (b), checked against the row sums of GrB_reduce.
// Exits 1 unless both agree within 1e-12 relative.  Your own GrB_BinaryOp
// as a NAMM: examples/user_distance.c.

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

#define FREE_ALL GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&D1) ;  \
    GrB_Matrix_free (&D2) ; GrB_Matrix_free (&Cheb) ; GrB_Matrix_free (&S) ;           \
    GrB_Matrix_free (&G) ; GrB_Vector_free (&sa) ; GrB_Vector_free (&sb) ;             \
    if (d != NULL) GxB_Desc_set_annihilator_free (d, false) ;                          \
    GrB_Descriptor_free (&d) ; GxB_Distance_finalize () ; GrB_finalize () ;
#define TRY(call) { GrB_Info tried = (call) ; if (tried != GrB_SUCCESS) {              \
    const char *msg = "" ; GxB_Distance_error (&msg) ;                                 \
    fprintf (stderr, "%s: GrB_Info %d %s\n", #call, (int) tried, msg) ; FREE_ALL ; return 1 ; } }

static int differ (double got, double want)
{
    return !(fabs (got - want) <= 1e-12 * fabs (want)) ;
}

int main (void)
{
    GrB_Matrix A = NULL, B = NULL, D1 = NULL, D2 = NULL, Cheb = NULL, S = NULL, G = NULL ;
    GrB_Vector sa = NULL, sb = NULL ;
    GrB_Descriptor d = NULL ;
    TRY (GrB_init (GrB_NONBLOCKING)) ;
    TRY (GxB_Distance_init ()) ;
    TRY (GrB_Matrix_new (&A, GrB_FP64, M, K)) ;
    TRY (GrB_Matrix_new (&B, GrB_FP64, N, K)) ;
    for (int c = 0 ; c < K ; c++)
    {
        for (int i = 0 ; i < M ; i++) if (XA [i][c] != 0) TRY (GrB_Matrix_setElement_FP64 (A, XA [i][c], i, c)) ;
        for (int j = 0 ; j < N ; j++) if (XB [j][c] != 0) TRY (GrB_Matrix_setElement_FP64 (B, XB [j][c], j, c)) ;
    }

    // (1) D1(i,j) = max_c (A(i,c) - B(j,c)), D2(j,i) = max_c (B(j,c) - A(i,c))
    TRY (GrB_Matrix_new (&D1, GrB_FP64, M, N)) ;
    TRY (GrB_Matrix_new (&D2, GrB_FP64, N, M)) ;
    TRY (GxB_mxm_distance (D1, NULL, NULL, GxB_MAX_MINUS_FP64, A, B, GxB_DESC_UNION)) ;
    TRY (GxB_mxm_distance (D2, NULL, NULL, GxB_MAX_MINUS_FP64, B, A, GxB_DESC_UNION)) ;
    TRY (GrB_Matrix_eWiseAdd_BinaryOp (D1, NULL, NULL, GrB_MAX_FP64, D1, D2, GrB_DESC_T1)) ;
    TRY (GrB_Matrix_new (&Cheb, GrB_FP64, M, N)) ;
    TRY (GxB_mxm_distance (Cheb, NULL, NULL, GxB_DIST_CHEBYSHEV_FP64, A, B, NULL)) ;

    // (2) S<G>(i,j) = sum_c (A(i,c) - B(j,c)) along the pairs of G (i == j)
    TRY (GrB_Descriptor_new (&d)) ;
    TRY (GxB_Desc_set_annihilator_free (d, true)) ;
    TRY (GrB_Descriptor_set (d, GrB_MASK, GrB_STRUCTURE)) ;
    TRY (GrB_Matrix_new (&G, GrB_BOOL, M, N)) ;
    for (int i = 0 ; i < N ; i++) TRY (GrB_Matrix_setElement_BOOL (G, true, i, i)) ;
    TRY (GrB_Matrix_new (&S, GrB_FP64, M, N)) ;
    TRY (GxB_mxm_distance (S, G, NULL, GxB_PLUS_MINUS_FP64, A, B, d)) ;
    TRY (GrB_Vector_new (&sa, GrB_FP64, M)) ;
    TRY (GrB_Vector_new (&sb, GrB_FP64, N)) ;
    TRY (GrB_Matrix_reduce_Monoid (sa, NULL, NULL, GrB_PLUS_MONOID_FP64, A, NULL)) ;
    TRY (GrB_Matrix_reduce_Monoid (sb, NULL, NULL, GrB_PLUS_MONOID_FP64, B, NULL)) ;

    int bad = 0 ;
    for (int i = 0 ; i < M ; i++)
    {
        for (int j = 0 ; j < N ; j++)
        {
            double d1, cheb ;
            TRY (GrB_Matrix_extractElement_FP64 (&d1, D1, i, j)) ;
            TRY (GrB_Matrix_extractElement_FP64 (&cheb, Cheb, i, j)) ;
            printf ("(%d,%d): max |a-b| over the union %-4g chebyshev %g\n", i, j, d1, cheb) ;
            bad += differ (d1, cheb) ;
        }
    }
    GrB_Index nvals ;
    TRY (GrB_Matrix_nvals (&nvals, S)) ;
    bad += (nvals != N) ;       // only the masked pairs
    for (int i = 0 ; i < N ; i++)
    {
        double s, a = 0, b = 0 ;
        TRY (GrB_Matrix_extractElement_FP64 (&s, S, i, i)) ;
        // a row with no entries is absent from the reduction: its sum is 0
        GrB_Info info = GrB_Vector_extractElement_FP64 (&a, sa, i) ;
        if (info != GrB_NO_VALUE) TRY (info) ;
        info = GrB_Vector_extractElement_FP64 (&b, sb, i) ;
        if (info != GrB_NO_VALUE) TRY (info) ;
        printf ("(%d,%d): sum (a - b) over the union %-5g row sums %g - %g\n", i, i, s, a, b) ;
        bad += differ (s, a - b) ;
    }
    printf ("%s\n", bad ? "MISMATCH" : "MAX_MINUS over the union agrees with CHEBYSHEV, "
        "masked PLUS_MINUS with the row sums") ;
    FREE_ALL ;
    return bad ? 1 : 0 ;
}
