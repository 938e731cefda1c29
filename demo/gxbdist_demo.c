// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// demo/gxbdist_demo.c: nearest quotes in the fortunes dataset
//------------------------------------------------------------------------------

// The README's main job.  Loads a bag-of-words matrix (default: the bundled
// data/fortunes.mtx.gz, 15,217 quotes x 15,639 words, data/README.md) and
//  1. computes C = d(A, B) with GxB_mxm_distance for a few query quotes A
//     (rows taken out of B) against all quotes B, for cosine, Jaccard and
//     Manhattan, and prints each query's 3 nearest quotes;
//  2. runs one masked (sampled) product: Jaccard distances along the edges of
//     a random graph on all quotes, computing only those pairs;
//  3. on a small subset, turns on verify mode (GxB_Distance_set_verify), so
//     every result is recomputed by the SuiteSparse reference and compared,
//     and shows that a deliberately wrong result is caught (made by a test
//     hook, gxd_test_hooks.h: the demo links libgxbdist.a for it).
// The backend is GPU when one is usable, else CPU (GXBDIST_BACKEND=cpu|gpu
// forces one).
//
// usage: gxbdist_demo [matrix.mtx.gz [row ...]]
//   rows are 0-based quote numbers; labels come from <matrix>.rows.txt.gz.

#define _POSIX_C_SOURCE 200809L
#include <gxbdist.h>
#include "gxd_mtx.h"
#include "gxd_test_hooks.h"    // GXD_set_fault_injection: step 3
#define GXD_PROG "gxbdist_demo"
#include "gxd_prog.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef GXD_DATA_DIR
#define GXD_DATA_DIR "data"
#endif

//------------------------------------------------------------------------------
// helpers
//------------------------------------------------------------------------------

// stop on any failure, with gxbdist's message
// a deterministic generator for the random graph (splitmix64)
static uint64_t rng_state = 42 ;
static uint64_t rng (void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL) ;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL ;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL ;
    return z ^ (z >> 31) ;
}

// print at most w characters of a label
static void show (const char *s, int w)
{
    int l = (int) strlen (s) ;
    if (l <= w) printf ("%s\n", s) ;
    else printf ("%.*s...\n", w - 3, s) ;
}

// dense copy (row-major m x n) of a FP32 result; entries not present = inf
static float *dense_copy (GrB_Matrix C, GrB_Index m, GrB_Index n)
{
    GrB_Index nv ;
    TRY (GrB_Matrix_nvals (&nv, C)) ;
    float *D = malloc (m * n * sizeof (float)) ;
    GrB_Index *I = malloc ((nv + 1) * sizeof (GrB_Index)) ;
    GrB_Index *J = malloc ((nv + 1) * sizeof (GrB_Index)) ;
    float *X = malloc ((nv + 1) * sizeof (float)) ;
    if (!D || !I || !J || !X) { fprintf (stderr, "out of memory\n") ; exit (1) ; }
    for (GrB_Index q = 0 ; q < m * n ; q++) D [q] = INFINITY ;
    TRY (GrB_Matrix_extractTuples_FP32 (I, J, X, &nv, C)) ;
    for (GrB_Index q = 0 ; q < nv ; q++) D [I [q] * n + J [q]] = X [q] ;
    free (I) ; free (J) ; free (X) ;
    return D ;
}

// the 3 smallest entries of d [0..n-1], skipping index self
static void nearest3 (const float *d, int64_t n, int64_t self, int64_t *best)
{
    best [0] = best [1] = best [2] = -1 ;
    for (int64_t j = 0 ; j < n ; j++)
    {
        if (j == self) continue ;
        for (int t = 0 ; t < 3 ; t++)
        {
            if (best [t] < 0 || d [j] < d [best [t]])
            {
                for (int u = 2 ; u > t ; u--) best [u] = best [u-1] ;
                best [t] = j ;
                break ;
            }
        }
    }
}

//------------------------------------------------------------------------------
// main
//------------------------------------------------------------------------------

int main (int argc, char **argv)
{
    double t_start = now () ;
    const char *path = (argc > 1) ? argv [1] : GXD_DATA_DIR "/fortunes.mtx.gz" ;

    // default queries: quotes with a clear theme (rows of fortunes.mtx.gz)
    int64_t dflt [5] = { 2614, 1310, 501, 2415, 1962 } ;
    int64_t nq = (argc > 2) ? argc - 2 : 5 ;
    GrB_Index *qrows = malloc (nq * sizeof (GrB_Index)) ;
    for (int64_t q = 0 ; q < nq ; q++)
    {
        qrows [q] = (GrB_Index) ((argc > 2) ? atoll (argv [q+2]) : dflt [q]) ;
    }

    TRY (GrB_init (GrB_NONBLOCKING)) ;
    TRY (GxB_Distance_init ()) ;

    //--------------------------------------------------------------------------
    // load the data and its labels
    //--------------------------------------------------------------------------

    double t = now () ;
    GrB_Matrix B = NULL ;
    if (GXD_mtx_read (&B, GrB_FP32, path) != GrB_SUCCESS) return 1 ;
    GrB_Index n, k, nnz ;
    TRY (GrB_Matrix_nrows (&n, B)) ;
    TRY (GrB_Matrix_ncols (&k, B)) ;
    TRY (GrB_Matrix_nvals (&nnz, B)) ;

    // labels: <name>.rows.txt.gz beside <name>.mtx.gz (else row numbers)
    char **labels = NULL ;
    int64_t nlabels = 0 ;
    {
        size_t l = strlen (path) ;
        char *lpath = malloc (l + 32) ;
        strcpy (lpath, path) ;
        char *dot = strstr (lpath, ".mtx") ;
        if (dot != NULL)
        {
            strcpy (dot, ".rows.txt.gz") ;
            if (GXD_labels_read (&labels, &nlabels, lpath) != GrB_SUCCESS)
            {
                labels = NULL ; nlabels = 0 ;
            }
        }
        free (lpath) ;
    }
    #define LABEL(i) (((int64_t) (i) < nlabels) ? labels [i] : "(no label)")
    printf ("gxbdist %d.%d.%d demo\n", GXBDIST_VERSION_MAJOR,
        GXBDIST_VERSION_MINOR, GXBDIST_VERSION_SUB) ;
    printf ("data: %s\n  %llu rows x %llu columns, %llu entries (%.2f s to"
        " load)\n", path, (unsigned long long) n, (unsigned long long) k,
        (unsigned long long) nnz, now () - t) ;

    GxB_Backend backend ;
    TRY (GxB_Distance_active_backend (&backend)) ;
    int nthreads = 0 ;
    GxB_Global_Option_get (GxB_NTHREADS, &nthreads) ;
    printf ("backend: %s", (backend == GxB_BACKEND_GPU) ? "GPU (CUDA)" :
        "CPU (OpenMP)") ;
    if (backend != GxB_BACKEND_GPU) printf (", %d threads", nthreads) ;
    printf ("\n\n") ;

    for (int64_t q = 0 ; q < nq ; q++)
    {
        if (qrows [q] >= n)
        {
            fprintf (stderr, "row %llu is out of range (%llu rows)\n",
                (unsigned long long) qrows [q], (unsigned long long) n) ;
            return 1 ;
        }
    }

    //--------------------------------------------------------------------------
    // 1. the queries against every row: A = B (qrows, :), C = d (A, B)
    //--------------------------------------------------------------------------

    GrB_Matrix A = NULL ;
    TRY (GrB_Matrix_new (&A, GrB_FP32, nq, k)) ;
    TRY (GrB_Matrix_extract (A, NULL, NULL, B, qrows, nq, GrB_ALL, k, NULL)) ;

    struct { const char *name ; GrB_Semiring s ; float *D ; } M [3] =
    {
        { "cosine",    GxB_DIST_COSINE_FP32,    NULL },
        { "jaccard",   GxB_DIST_JACCARD_FP32,   NULL },
        { "manhattan", GxB_DIST_MANHATTAN_FP32, NULL },
    } ;
    printf ("1. %lld queries x %llu rows, C = A (+).(x) B' with"
        " GxB_mxm_distance:\n", (long long) nq, (unsigned long long) n) ;
    for (int h = 0 ; h < 3 ; h++)
    {
        GrB_Matrix C = NULL ;
        TRY (GrB_Matrix_new (&C, GrB_FP32, nq, n)) ;
        t = now () ;
        TRY (GxB_mxm_distance (C, NULL, NULL, M [h].s, A, B, NULL)) ;
        TRY (GrB_Matrix_wait (C, GrB_MATERIALIZE)) ;
        t = now () - t ;
        printf ("   %-9s  %9.2f ms for %llu distances\n", M [h].name,
            1e3 * t, (unsigned long long) (nq * n)) ;
        M [h].D = dense_copy (C, nq, n) ;
        GrB_Matrix_free (&C) ;
    }
    printf ("\n") ;

    for (int64_t q = 0 ; q < nq ; q++)
    {
        printf ("query [%llu] ", (unsigned long long) qrows [q]) ;
        show (LABEL (qrows [q]), 100) ;
        for (int h = 0 ; h < 3 ; h++)
        {
            int64_t best [3] ;
            nearest3 (M [h].D + q * n, (int64_t) n, (int64_t) qrows [q], best) ;
            for (int r = 0 ; r < 3 ; r++)
            {
                if (best [r] < 0) continue ;
                printf ("  %-9s %7.3f  [%5lld] ", (r == 0) ? M [h].name : "",
                    M [h].D [q * n + best [r]], (long long) best [r]) ;
                show (LABEL (best [r]), 80) ;
            }
        }
        printf ("\n") ;
    }
    for (int h = 0 ; h < 3 ; h++) free (M [h].D) ;

    //--------------------------------------------------------------------------
    // 2. a sampled product: Jaccard along the edges of a random graph
    //--------------------------------------------------------------------------

    {
        const int deg = 20 ;
        GrB_Index ne = n * deg ;
        GrB_Index *I = malloc ((ne + 1) * sizeof (GrB_Index)) ;
        GrB_Index *J = malloc ((ne + 1) * sizeof (GrB_Index)) ;
        bool *X = malloc ((ne + 1) * sizeof (bool)) ;
        GrB_Index e = 0 ;
        for (GrB_Index i = 0 ; i < n ; i++)
        {
            for (int d = 0 ; d < deg && n > 1 ; d++)
            {
                GrB_Index j = rng () % n ;
                if (j == i) continue ;
                I [e] = i ; J [e] = j ; X [e] = true ; e++ ;
            }
        }
        GrB_Matrix G = NULL, C = NULL ;
        TRY (GrB_Matrix_new (&G, GrB_BOOL, n, n)) ;
        TRY (GrB_Matrix_build_BOOL (G, I, J, X, e, GrB_LOR)) ;
        free (I) ; free (J) ; free (X) ;
        GrB_Index ng ;
        TRY (GrB_Matrix_nvals (&ng, G)) ;
        TRY (GrB_Matrix_new (&C, GrB_FP32, n, n)) ;
        t = now () ;
        // structural mask: only the graph's edges are computed
        TRY (GxB_mxm_distance (C, G, NULL, GxB_DIST_JACCARD_FP32, B, B,
            GrB_DESC_S)) ;
        TRY (GrB_Matrix_wait (C, GrB_MATERIALIZE)) ;
        t = now () - t ;
        GrB_Index nc ;
        TRY (GrB_Matrix_nvals (&nc, C)) ;
        double sum = 0 ;
        GrB_Index disjoint = 0 ;
        {
            float *Cx = malloc ((nc + 1) * sizeof (float)) ;
            GrB_Index nv = nc ;
            TRY (GrB_Matrix_extractTuples_FP32 (NULL, NULL, Cx, &nv, C)) ;
            for (GrB_Index q = 0 ; q < nv ; q++)
            {
                sum += Cx [q] ;
                disjoint += (Cx [q] == 1) ;
            }
            free (Cx) ;
        }
        printf ("2. sampled Jaccard, C<G> = d(B, B) along the %llu edges of a"
            " random graph\n   (mask: only these pairs are computed, of %.3g"
            " in all): %.2f ms,\n   %llu distances, mean %.4f, %.1f %% of the"
            " pairs share no word\n\n", (unsigned long long) ng,
            (double) n * (double) n, 1e3 * t, (unsigned long long) nc,
            nc ? sum / nc : 0.0, nc ? 100.0 * disjoint / nc : 0.0) ;
        GrB_Matrix_free (&G) ;
        GrB_Matrix_free (&C) ;
    }

    //--------------------------------------------------------------------------
    // 3. verify mode on a small subset: every result checked by SuiteSparse
    //--------------------------------------------------------------------------

    {
        GrB_Index ma = (n < 16) ? n : 16, nb = (n < 256) ? n : 256 ;
        GrB_Matrix As = NULL, Bs = NULL, C = NULL, Mk = NULL ;
        TRY (GrB_Matrix_new (&As, GrB_FP64, ma, k)) ;
        TRY (GrB_Matrix_new (&Bs, GrB_FP64, nb, k)) ;
        GrB_Index ra [2] = { 0, ma - 1 }, rb [2] = { 0, nb - 1 } ;
        TRY (GrB_Matrix_extract (As, NULL, NULL, B, ra, GxB_RANGE, GrB_ALL, k,
            NULL)) ;
        TRY (GrB_Matrix_extract (Bs, NULL, NULL, B, rb, GxB_RANGE, GrB_ALL, k,
            NULL)) ;
        // a mask holding every third pair
        TRY (GrB_Matrix_new (&Mk, GrB_BOOL, ma, nb)) ;
        for (GrB_Index i = 0 ; i < ma ; i++)
        {
            for (GrB_Index j = i % 3 ; j < nb ; j += 3)
            {
                TRY (GrB_Matrix_setElement_BOOL (Mk, true, i, j)) ;
            }
        }
        TRY (GrB_Matrix_wait (Mk, GrB_MATERIALIZE)) ;

        struct { const char *name ; GrB_Semiring s ; bool masked ; } V [] =
        {
            { "cosine FP32",          GxB_DIST_COSINE_FP32,         false },
            { "manhattan FP32",       GxB_DIST_MANHATTAN_FP32,      false },
            { "jaccard FP64",         GxB_DIST_JACCARD_FP64,        false },
            { "chebyshev FP32",       GxB_DIST_CHEBYSHEV_FP32,      false },
            { "jensen-shannon FP64",  GxB_DIST_JENSEN_SHANNON_FP64, false },
            { "canberra FP32, masked", GxB_DIST_CANBERRA_FP32,      true  },
        } ;
        int nv = (int) (sizeof (V) / sizeof (V [0])) ;
        printf ("3. verify mode (GxB_Distance_set_verify): %llu x %llu rows,"
            " each result recomputed\n   by the SuiteSparse:GraphBLAS"
            " reference and compared within the documented tolerance\n",
            (unsigned long long) ma, (unsigned long long) nb) ;
        TRY (GxB_Distance_set_verify (true)) ;
        for (int h = 0 ; h < nv ; h++)
        {
            GrB_Type ct = (strstr (V [h].name, "FP64")) ? GrB_FP64 : GrB_FP32 ;
            TRY (GrB_Matrix_new (&C, ct, ma, nb)) ;
            t = now () ;
            GrB_Info info = GxB_mxm_distance (C, V [h].masked ? Mk : NULL,
                NULL, V [h].s, As, Bs, V [h].masked ? GrB_DESC_S : NULL) ;
            t = now () - t ;
            if (info != GrB_SUCCESS)
            {
                const char *msg = "" ;
                GxB_Distance_error (&msg) ;
                printf ("   %-22s FAILED (GrB_Info %d): %s\n", V [h].name,
                    (int) info, msg) ;
                return 1 ;
            }
            printf ("   %-22s matches the reference (%.0f ms with the"
                " check)\n", V [h].name, 1e3 * t) ;
            GrB_Matrix_free (&C) ;
        }

        // a deliberately wrong result must be caught
        GXD_set_fault_injection (true) ;
        TRY (GrB_Matrix_new (&C, GrB_FP32, ma, nb)) ;
        GrB_Info info = GxB_mxm_distance (C, NULL, NULL,
            GxB_DIST_MANHATTAN_FP32, As, Bs, NULL) ;
        const char *msg = "" ;
        GxB_Distance_error (&msg) ;
        if (info == GxB_VERIFY_FAILED)
        {
            printf ("   a deliberately corrupted result is caught"
                " (GxB_VERIFY_FAILED):\n     %s\n", msg) ;
            GXD_set_fault_injection (false) ;
        }
        else
        {
            printf ("   corrupted result NOT caught (GrB_Info %d)\n",
                (int) info) ;
            return 1 ;
        }
        TRY (GxB_Distance_set_verify (false)) ;
        GrB_Matrix_free (&C) ;
        GrB_Matrix_free (&Mk) ;
        GrB_Matrix_free (&As) ;
        GrB_Matrix_free (&Bs) ;
    }

    printf ("\ndone in %.1f s\n", now () - t_start) ;
    GXD_labels_free (&labels, nlabels) ;
    GrB_Matrix_free (&A) ;
    GrB_Matrix_free (&B) ;
    free (qrows) ;
    TRY (GxB_Distance_finalize ()) ;
    TRY (GrB_finalize ()) ;
    return 0 ;
}
