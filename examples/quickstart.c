// SPDX-License-Identifier: Apache-2.0
// examples/quickstart.c: the README's quick start, as a complete program.
// Manhattan distances between all rows of a small matrix built in code
// (|x - 0| = x: a product GrB_mxm cannot express), then cosine distances
// only along the edges of a graph G (a masked, or sampled, product).  It
// checks both against a plain loop over the dense rows (1e-12 relative for
// FP64, 1e-5 absolute for FP32 cosine) and exits 1 on any mismatch.

#include <gxbdist.h>
#include <math.h>
#include <stdio.h>

#define M 4     // rows
#define K 5     // columns
static const double X [M][K] = { { 1, 0, 2, 0, 0   }, { 0.5, 3, 0, 0, 1 },
                                 { 1, 1, 2, 0, 0.5 }, { 0, 0, 1, 4, 0 } } ;

// the reference: Manhattan or cosine distance of rows i and j, dense
static double reference (int i, int j, int cosine)
{
    double l1 = 0, xy = 0, xx = 0, yy = 0 ;
    for (int c = 0 ; c < K ; c++)
    {
        l1 += fabs (X [i][c] - X [j][c]) ;
        xy += X [i][c] * X [j][c] ; xx += X [i][c] * X [i][c] ; yy += X [j][c] * X [j][c] ;
    }
    return cosine ? 1 - xy / sqrt (xx * yy) : l1 ;
}

#define FREE_ALL GrB_Matrix_free (&A) ; GrB_Matrix_free (&G) ; GrB_Matrix_free (&D) ; \
    GrB_Matrix_free (&S) ; GxB_Distance_finalize () ; GrB_finalize () ;
#define TRY(call) { GrB_Info tried = (call) ; if (tried != GrB_SUCCESS) {              \
    const char *msg = "" ; GxB_Distance_error (&msg) ;                                 \
    fprintf (stderr, "%s: GrB_Info %d %s\n", #call, (int) tried, msg) ; FREE_ALL ; return 1 ; } }

int main (void)
{
    GrB_Matrix A = NULL, G = NULL, D = NULL, S = NULL ;
    TRY (GrB_init (GrB_NONBLOCKING)) ;
    TRY (GxB_Distance_init ()) ;

    // A: M-by-K sparse (any built-in type and sparsity format would do)
    TRY (GrB_Matrix_new (&A, GrB_FP64, M, K)) ;
    for (int i = 0 ; i < M ; i++)
        for (int c = 0 ; c < K ; c++)
            if (X [i][c] != 0) TRY (GrB_Matrix_setElement_FP64 (A, X [i][c], i, c)) ;

    // D = all-pairs Manhattan distances between the rows of A (B = A)
    TRY (GrB_Matrix_new (&D, GrB_FP64, M, M)) ;
    TRY (GxB_mxm_distance (D, NULL, NULL, GxB_DIST_MANHATTAN_FP64, A, A, NULL)) ;

    // S = cosine distances only along the edges of a ring graph G
    TRY (GrB_Matrix_new (&G, GrB_BOOL, M, M)) ;
    for (int i = 0 ; i < M ; i++) TRY (GrB_Matrix_setElement_BOOL (G, true, i, (i + 1) % M)) ;
    TRY (GrB_Matrix_new (&S, GrB_FP32, M, M)) ;
    TRY (GxB_mxm_distance (S, G, NULL, GxB_DIST_COSINE_FP32, A, A, GrB_DESC_S)) ;

    int bad = 0 ;
    for (int i = 0 ; i < M ; i++)
    {
        int j = (i + 1) % M ;
        double d ; float s ;
        TRY (GrB_Matrix_extractElement_FP64 (&d, D, i, j)) ;
        TRY (GrB_Matrix_extractElement_FP32 (&s, S, i, j)) ;
        printf ("rows %d, %d: manhattan %g, cosine %.6f\n", i, j, d, s) ;
        for (int jj = 0 ; jj < M ; jj++)
        {
            TRY (GrB_Matrix_extractElement_FP64 (&d, D, i, jj)) ;
            bad += fabs (d - reference (i, jj, 0)) > 1e-12 * reference (i, jj, 0) ;
        }
        bad += fabs (s - reference (i, j, 1)) > 1e-5 ;
    }
    GrB_Index nvals ;
    TRY (GrB_Matrix_nvals (&nvals, S)) ;
    bad += (nvals != M) ;       // nothing off the edges of G
    printf ("%s\n", bad ? "MISMATCH with the dense loop" : "all distances agree with a dense loop") ;
    FREE_ALL ;
    return bad ? 1 : 0 ;
}
