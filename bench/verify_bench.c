// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// bench/verify_bench.c: what verify mode costs next to the call it checks
//------------------------------------------------------------------------------

// A program, not a timed test (issue 18, "Verify mode at scale").
//
//   verify_bench FILE.mtx[.gz] ROWS[,ROWS...] [METRIC,...] [unit]
//
// B = every row of the matrix, A = its first ROWS rows; with "unit", every
// row divided by its sum first (rows of counts become distributions, whose
// values are nearly all distinct: the reference's classes of A's values,
// docs/metrics.md "Verify mode", no longer apply); for each metric
// (default MANHATTAN,CHEBYSHEV,CANBERRA,JENSEN_SHANNON,COSINE; MINKOWSKI:p for
// Minkowski of degree p), FP64, times
// GxB_mxm_distance (C = d(A, B), every pair) with verify off and on, in
// batches of calls in turn (main), on the backend the environment picks
// (GXBDIST_BACKEND; OMP_NUM_THREADS for the CPU backend's threads).  A verify failure is
// reported and ends the program with status 1.  Output, one line each:
//   RESULT metric rows cols off_ms on_ms ratio

#define _POSIX_C_SOURCE 200809L
#include <gxbdist.h>
#include "gxd_mtx.h"
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now (void)
{
    struct timespec t ;
    clock_gettime (CLOCK_MONOTONIC, &t) ;
    return t.tv_sec + 1e-9 * t.tv_nsec ;
}

// a batch's length at least, in ms
#define BATCH_MS 60

// the mean time of calls consecutive calls, in ms; -1 if a call fails
static double batch_ms (GrB_Matrix C, GrB_Semiring s, GrB_Matrix A,
    GrB_Matrix B, int calls)
{
    double t0 = now () ;
    for (int r = 0 ; r < calls ; r++)
    {
        GrB_Info info = GxB_mxm_distance (C, NULL, NULL, s, A, B, NULL) ;
        if (info != GrB_SUCCESS)
        {
            const char *msg ;
            GxB_Distance_error (&msg) ;
            fprintf (stderr, "verify_bench: GxB_mxm_distance: %d: %s\n",
                (int) info, msg) ;
            return -1 ;
        }
    }
    return 1e3 * (now () - t0) / calls ;
}

// B = diag (1 / the row sums of B) B (an empty row stays empty)
static GrB_Info unit_rows (GrB_Matrix B)
{
    GrB_Index n ;
    GrB_Vector s = NULL ;
    GrB_Matrix D = NULL ;
    GrB_Info info = GrB_Matrix_nrows (&n, B) ;
    if (info == GrB_SUCCESS) info = GrB_Vector_new (&s, GrB_FP64, n) ;
    if (info == GrB_SUCCESS)
    {
        info = GrB_Matrix_reduce_Monoid (s, NULL, NULL, GrB_PLUS_MONOID_FP64,
            B, NULL) ;
    }
    if (info == GrB_SUCCESS)
    {
        info = GrB_Vector_apply (s, NULL, NULL, GrB_MINV_FP64, s, NULL) ;
    }
    if (info == GrB_SUCCESS) info = GrB_Matrix_diag (&D, s, 0) ;
    if (info == GrB_SUCCESS)
    {
        info = GrB_mxm (B, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, D, B,
            NULL) ;
    }
    GrB_Vector_free (&s) ;
    GrB_Matrix_free (&D) ;
    return (info) ;
}

static GrB_Semiring named (const char *name)
{
    struct { const char *name ; GrB_Semiring *s ; } table [ ] =
    {
        { "MANHATTAN", &GxB_DIST_MANHATTAN_FP64 },
        { "CHEBYSHEV", &GxB_DIST_CHEBYSHEV_FP64 },
        { "CANBERRA", &GxB_DIST_CANBERRA_FP64 },
        { "JENSEN_SHANNON", &GxB_DIST_JENSEN_SHANNON_FP64 },
        { "COSINE", &GxB_DIST_COSINE_FP64 },
        { "EUCLIDEAN", &GxB_DIST_EUCLIDEAN_FP64 },
        { "HAMMING", &GxB_DIST_HAMMING_FP64 },
        { "BRAYCURTIS", &GxB_DIST_BRAYCURTIS_FP64 },
        { "HELLINGER", &GxB_DIST_HELLINGER_FP64 },
        { "CORRELATION", &GxB_DIST_CORRELATION_FP64 },
        { "SQEUCLIDEAN", &GxB_DIST_SQEUCLIDEAN_FP64 },
        { "DOT", &GxB_DIST_DOT_FP64 },
        { "KL_DIVERGENCE", &GxB_DIST_KL_DIVERGENCE_FP64 },
        { "DICE", &GxB_DIST_DICE_FP64 },
        { "JACCARD", &GxB_DIST_JACCARD_FP64 },
        { "RUSSELLRAO", &GxB_DIST_RUSSELLRAO_FP64 },
        { "SOKALMICHENER", &GxB_DIST_SOKALMICHENER_FP64 },
    } ;
    for (size_t q = 0 ; q < sizeof (table) / sizeof (table [0]) ; q++)
    {
        if (strcmp (name, table [q].name) == 0) return *table [q].s ;
    }
    return NULL ;
}

int main (int argc, char **argv)
{
    if (argc < 3)
    {
        fprintf (stderr, "usage: verify_bench FILE.mtx[.gz] ROWS[,ROWS...] "
            "[METRIC,...] [unit]\n") ;
        return 2 ;
    }
    char metrics [512] = "MANHATTAN,CHEBYSHEV,CANBERRA,JENSEN_SHANNON,COSINE" ;
    if (argc > 3) snprintf (metrics, sizeof (metrics), "%s", argv [3]) ;
    bool unit = (argc > 4 && strcmp (argv [4], "unit") == 0) ;
    GrB_init (GrB_NONBLOCKING) ;
    GxB_Distance_init () ;
    GrB_Matrix B = NULL ;
    if (GXD_mtx_read (&B, GrB_FP64, argv [1]) != GrB_SUCCESS)
    {
        fprintf (stderr, "verify_bench: cannot read %s\n", argv [1]) ;
        return 1 ;
    }
    GrB_Index n, k ;
    GrB_Matrix_nrows (&n, B) ;
    GrB_Matrix_ncols (&k, B) ;
    if (unit && unit_rows (B) != GrB_SUCCESS)
    {
        fprintf (stderr, "verify_bench: cannot scale the rows\n") ;
        return 1 ;
    }
    printf ("DATA %s n %lu k %lu%s\n", argv [1], (unsigned long) n,
        (unsigned long) k, unit ? " rows divided by their sums" : "") ;
    int status = 0 ;
    char rows [256] ;
    snprintf (rows, sizeof (rows), "%s", argv [2]) ;
    for (char *rs = strtok (rows, ",") ; rs != NULL && status == 0 ;
        rs = strtok (NULL, ","))
    {
        GrB_Index m = strtoull (rs, NULL, 10) ;
        if (m > n) m = n ;
        GrB_Matrix A = NULL, C = NULL ;
        GrB_Index range [2] = { 0, m - 1 } ;
        GrB_Matrix_new (&A, GrB_FP64, m, k) ;
        GrB_Matrix_extract (A, NULL, NULL, B, range, GxB_RANGE, GrB_ALL, k,
            NULL) ;
        GrB_Matrix_new (&C, GrB_FP64, m, n) ;
        char list [512] ;
        snprintf (list, sizeof (list), "%s", metrics) ;
        char *save = NULL ;
        for (char *name = strtok_r (list, ",", &save) ; name != NULL ;
            name = strtok_r (NULL, ",", &save))
        {
            // MINKOWSKI:p, a semiring of its own
            GrB_Semiring s = NULL, own = NULL ;
            if (strncmp (name, "MINKOWSKI:", 10) == 0)
            {
                (void) GxB_Semiring_new_minkowski (&own, strtod (name + 10,
                    NULL), GrB_FP64) ;
                s = own ;
            }
            else
            {
                s = named (name) ;
            }
            if (s == NULL)
            {
                fprintf (stderr, "verify_bench: unknown metric %s\n", name) ;
                status = 2 ;
                break ;
            }
            // batches of calls off and on in turn (off, on, off, on, off,
            // on), each batch BATCH_MS long at least and as many calls on
            // as off; a call's time is its batch's mean, the best batch of
            // each.  A batch is each mode's steady state (a call right
            // after a verified one finds the caches and the heap as the
            // reference left them); on a shared machine whose load drifts,
            // the two bests come from the same minutes.
            double off = -1, on = -1 ;
            GxB_Distance_set_verify (false) ;
            double first = batch_ms (C, s, A, B, 1) ;
            int calls = (first > 0 && first < BATCH_MS) ?
                (int) (BATCH_MS / first) + 1 : 1 ;
            for (int r = 0 ; r < 6 && first >= 0 ; r++)
            {
                bool verify = (r % 2 == 1) ;
                GxB_Distance_set_verify (verify) ;
                double ms = batch_ms (C, s, A, B, calls) ;
                double *best = verify ? &on : &off ;
                if (ms < 0) { off = -1 ; break ; }
                if (*best < 0 || ms < *best) *best = ms ;
            }
            GxB_Distance_set_verify (false) ;
            GrB_Semiring_free (&own) ;
            if (off < 0 || on < 0)
            {
                status = 1 ;
                break ;
            }
            printf ("RESULT\t%s\t%lu\t%lu\t%.3f\t%.3f\t%.2f\n", name,
                (unsigned long) m, (unsigned long) n, off, on, on / off) ;
            fflush (stdout) ;
        }
        GrB_Matrix_free (&A) ;
        GrB_Matrix_free (&C) ;
    }
    GrB_Matrix_free (&B) ;
    GxB_Distance_finalize () ;
    GrB_finalize () ;
    return status ;
}
