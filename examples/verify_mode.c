// SPDX-License-Identifier: Apache-2.0
// examples/verify_mode.c: verify mode.  With GxB_Distance_set_verify (true)
// every result of GxB_mxm_distance is recomputed by gxbdist's reference
// (SuiteSparse calls only, dense completion, float64, sharing no code with
// the backends) and compared within the documented tolerance, and GxB_kNN
// checks its rows against a brute-force search; a mismatch returns
// GxB_VERIFY_FAILED, naming the metric, the worst (i,j) and both values, and
// leaves C unchanged.  Here four metrics and a kNN on a random matrix are
// checked that way; the example exits 1 if any is not verified.  The
// reference costs O(m*n*k): use verify mode on small problems or samples.

#include <gxbdist.h>
#include <stdio.h>
#include <stdint.h>

#define M 60    // rows
#define K 40    // columns

#define FREE_ALL GrB_Matrix_free (&A) ; GrB_Matrix_free (&C) ;                    \
    GxB_Distance_finalize () ; GrB_finalize () ;
#define TRY(call) { GrB_Info tried = (call) ; if (tried != GrB_SUCCESS) {              \
    const char *msg = "" ; GxB_Distance_error (&msg) ;                                 \
    fprintf (stderr, "%s: GrB_Info %d %s\n", #call, (int) tried, msg) ; FREE_ALL ; return 1 ; } }

int main (void)
{
    GrB_Matrix A = NULL, C = NULL ;
    TRY (GrB_init (GrB_NONBLOCKING)) ;
    TRY (GxB_Distance_init ()) ;

    // A: M-by-K, about 15% of the entries, values in (0, 4] (a fixed
    // generator, so every run checks the same matrix)
    uint64_t state = 42 ;
    TRY (GrB_Matrix_new (&A, GrB_FP64, M, K)) ;
    for (int i = 0 ; i < M ; i++)
    {
        for (int c = 0 ; c < K ; c++)
        {
            state = state * 6364136223846793005ULL + 1442695040888963407ULL ;
            double u = (double) (state >> 11) * 0x1.0p-53 ;
            if (u < 0.15) TRY (GrB_Matrix_setElement_FP64 (A, 4 * u / 0.15 + 1e-3, i, c)) ;
        }
    }

    TRY (GxB_Distance_set_verify (true)) ;
    bool on = false ;
    TRY (GxB_Distance_get_verify (&on)) ;
    if (!on) { fprintf (stderr, "verify mode did not turn on\n") ; FREE_ALL ; return 1 ; }

    // all pairs: each call returns GrB_SUCCESS only if the reference agrees
    GrB_Semiring metrics [4] = { GxB_DIST_JENSEN_SHANNON_FP64, GxB_DIST_CANBERRA_FP64,
                                 GxB_DIST_CHEBYSHEV_FP64, GxB_DIST_COSINE_FP32 } ;
    const char *names [4] = { "Jensen-Shannon", "Canberra", "Chebyshev", "cosine (FP32)" } ;
    for (int q = 0 ; q < 4 ; q++)
    {
        TRY (GrB_Matrix_new (&C, q == 3 ? GrB_FP32 : GrB_FP64, M, M)) ;
        TRY (GxB_mxm_distance (C, NULL, NULL, metrics [q], A, A, NULL)) ;
        printf ("%-15s all %d x %d pairs agree with the SuiteSparse reference\n", names [q], M, M) ;
        TRY (GrB_Matrix_free (&C)) ;
    }

    // the 5 nearest rows of every row, Manhattan: checked by brute force
    TRY (GrB_Matrix_new (&C, GrB_FP64, M, M)) ;
    TRY (GxB_kNN (C, NULL, GxB_DIST_MANHATTAN_FP64, 5, A, A, NULL)) ;
    GrB_Index nvals ;
    TRY (GrB_Matrix_nvals (&nvals, C)) ;
    printf ("kNN, k = 5: %llu neighbors verified\n", (unsigned long long) nvals) ;
    int bad = (nvals != 5 * M) ;
    TRY (GxB_Distance_set_verify (false)) ;
    FREE_ALL ;
    return bad ;
}
