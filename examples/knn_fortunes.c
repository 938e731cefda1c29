// SPDX-License-Identifier: Apache-2.0
// examples/knn_fortunes.c: the k nearest quotes of the bundled fortunes
// dataset (data/fortunes.mtx.gz: 15,217 quotes x 15,639 word counts) with
// GxB_kNN, cosine distance, leaving each quote out of its own neighbors.
// GxB_kNN never holds the full distance matrix; to check it, the example
// computes the full distances of the same query rows with GxB_mxm_distance
// and exits 1 unless each row's k neighbors are the k smallest of those
// (self excluded; distances within 1e-5, the FP32 cosine tolerance).
//
// usage: knn_fortunes [fortunes.mtx.gz [fortunes.rows.txt.gz]]

#include <gxbdist.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#define NQ 200      // query rows: quotes 0 .. NQ-1
#define KNN 5       // neighbors per quote

#define FREE_ALL GrB_Matrix_free (&B) ; GrB_Matrix_free (&A) ; GrB_Matrix_free (&C) ; \
    GrB_Matrix_free (&D) ; GrB_Descriptor_free (&self) ; free (row) ;                \
    GxB_Distance_finalize () ; GrB_finalize () ;
#define TRY(call) { GrB_Info tried = (call) ; if (tried != GrB_SUCCESS) {              \
    const char *msg = "" ; GxB_Distance_error (&msg) ;                                 \
    fprintf (stderr, "%s: GrB_Info %d %s\n", #call, (int) tried, msg) ; FREE_ALL ; return 1 ; } }

// a Matrix Market "coordinate integer general" file, gzip'ed, into an FP32
// matrix: enough for this file (tools/gxd_mtx.c is the full reader)
static GrB_Info read_mtx_gz (GrB_Matrix *X, const char *path)
{
    char cmd [4096], line [1024] = "" ;
    snprintf (cmd, sizeof (cmd), "gzip -dc '%s'", path) ;
    FILE *f = popen (cmd, "r") ;
    if (f == NULL) return GrB_INVALID_VALUE ;
    unsigned long long m = 0, n = 0, nz = 0, i, j ;
    double v ;
    while (fgets (line, sizeof (line), f) != NULL && line [0] == '%') { }
    GrB_Info info = (sscanf (line, "%llu %llu %llu", &m, &n, &nz) == 3)
        ? GrB_Matrix_new (X, GrB_FP32, m, n) : GrB_INVALID_VALUE ;
    while (info == GrB_SUCCESS && fscanf (f, "%llu %llu %lf", &i, &j, &v) == 3 && nz-- > 0)
    {
        info = GrB_Matrix_setElement_FP32 (*X, (float) v, i - 1, j - 1) ;
    }
    if (pclose (f) != 0 || nz != 0) info = GrB_INVALID_VALUE ;
    return info ;
}

// print quote q (line q of fortunes.rows.txt.gz), if the file is there
static void print_quote (const char *path, GrB_Index q, const char *prefix)
{
    char cmd [4096], line [512] ;
    snprintf (cmd, sizeof (cmd), "gzip -dc '%s' 2>/dev/null", path) ;
    FILE *f = popen (cmd, "r") ;
    if (f == NULL) return ;
    for (GrB_Index r = 0 ; fgets (line, sizeof (line), f) != NULL ; r++)
    {
        if (r == q) printf ("%s%s", prefix, line) ;
    }
    pclose (f) ;
}

static int cmp_float (const void *a, const void *b)
{
    float x = *(const float *) a, y = *(const float *) b ;
    return (x > y) - (x < y) ;
}

int main (int argc, char **argv)
{
    const char *mtx = argc > 1 ? argv [1] : "data/fortunes.mtx.gz" ;
    const char *txt = argc > 2 ? argv [2] : "data/fortunes.rows.txt.gz" ;
    GrB_Matrix B = NULL, A = NULL, C = NULL, D = NULL ;
    GrB_Descriptor self = NULL ;
    float *row = NULL ;
    TRY (GrB_init (GrB_NONBLOCKING)) ;
    TRY (GxB_Distance_init ()) ;
    TRY (read_mtx_gz (&B, mtx)) ;
    GrB_Index n, k ;
    TRY (GrB_Matrix_nrows (&n, B)) ;
    TRY (GrB_Matrix_ncols (&k, B)) ;

    // A: the query rows, quotes 0..NQ-1 (row i of A is row i of B, so
    // "exclude self" drops j == i)
    GrB_Index q [NQ] ;
    for (int i = 0 ; i < NQ ; i++) q [i] = i ;
    TRY (GrB_Matrix_new (&A, GrB_FP32, NQ, k)) ;
    TRY (GrB_Matrix_extract (A, NULL, NULL, B, q, NQ, GrB_ALL, k, NULL)) ;

    // C: row i holds the KNN quotes nearest to quote i, values = distances
    TRY (GrB_Descriptor_new (&self)) ;
    TRY (GxB_Desc_set_exclude_self (self, true)) ;
    TRY (GrB_Matrix_new (&C, GrB_FP32, NQ, n)) ;
    TRY (GxB_kNN (C, NULL, GxB_DIST_COSINE_FP32, KNN, A, B, self)) ;

    // the check: D = every distance of the query rows; C's row i must hold
    // the KNN smallest of row i of D (j != i)
    TRY (GrB_Matrix_new (&D, GrB_FP32, NQ, n)) ;
    TRY (GxB_mxm_distance (D, NULL, NULL, GxB_DIST_COSINE_FP32, A, B, NULL)) ;
    row = malloc (n * sizeof (float)) ;
    if (row == NULL) TRY (GrB_OUT_OF_MEMORY) ;
    int bad = 0 ;
    for (GrB_Index i = 0 ; i < NQ ; i++)
    {
        GrB_Index nself = 0 ;
        for (GrB_Index j = 0 ; j < n ; j++)
        {
            if (j == i) continue ;
            TRY (GrB_Matrix_extractElement_FP32 (&row [nself++], D, i, j)) ;
        }
        qsort (row, nself, sizeof (float), cmp_float) ;
        float got [KNN] ;
        int nk = 0 ;
        for (GrB_Index j = 0 ; j < n && nk <= KNN ; j++)
        {
            float d ;
            GrB_Info info = GrB_Matrix_extractElement_FP32 (&d, C, i, j) ;
            if (info == GrB_NO_VALUE) continue ;
            TRY (info) ;
            float full ;
            TRY (GrB_Matrix_extractElement_FP32 (&full, D, i, j)) ;
            bad += (j == i) || fabsf (d - full) > 1e-5f || nk == KNN ;
            if (nk < KNN) got [nk++] = d ;
        }
        qsort (got, nk, sizeof (float), cmp_float) ;
        bad += (nk != KNN) ;
        for (int t = 0 ; t < nk ; t++) bad += fabsf (got [t] - row [t]) > 1e-5f ;
    }

    // show the neighbors of one quote, nearest first
    GrB_Index show = 1, nbr [KNN] ;
    float dist [KNN] ;
    int nshow = 0 ;
    for (GrB_Index j = 0 ; j < n && nshow < KNN ; j++)
    {
        GrB_Info info = GrB_Matrix_extractElement_FP32 (&dist [nshow], C, show, j) ;
        if (info == GrB_NO_VALUE) continue ;
        TRY (info) ;
        nbr [nshow++] = j ;
    }
    print_quote (txt, show, "quote 1: ") ;
    for (int t = 0 ; t < nshow ; t++)
    {
        int best = t ;      // selection sort: KNN is small
        for (int u = t + 1 ; u < nshow ; u++) if (dist [u] < dist [best]) best = u ;
        float d = dist [best] ; dist [best] = dist [t] ; dist [t] = d ;
        GrB_Index j = nbr [best] ; nbr [best] = nbr [t] ; nbr [t] = j ;
        char prefix [64] ;
        snprintf (prefix, sizeof (prefix), "  %5llu (%.3f): ", (unsigned long long) j, d) ;
        print_quote (txt, j, prefix) ;
    }
    printf ("%s for %d quotes of %llu\n", bad ? "MISMATCH: kNN is not the k smallest distances"
        : "kNN = the k smallest of the full distances", NQ, (unsigned long long) n) ;
    FREE_ALL ;
    return bad ? 1 : 0 ;
}
