// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// bench/knn_bench.c: an all-rows kNN self-query (GxB_kNN) against what a user
// without it pays (all pairs into host memory)
//------------------------------------------------------------------------------

// A program, not a timed test (issue 17, "Benchmarks").  The question is the
// seed paper's (001, section 7 and Tables 3-6): the k nearest rows of every
// row of A among all rows of A, the row itself excluded (scikit-learn's
// kneighbors () on its training data), FP32, exact.  bench/run_knn_bench.sh
// runs it with bench/knn_peers.py; bench/knn_table.py makes the table.
//
// usage: knn_bench [options] FILE...
//   FILE: a Matrix Market file (.mtx or .mtx.gz, read by GXD_mtx_read) or a
//   .csr file (below); the dataset's name is the file name without them.
//   --backend cpu|gpu|auto  (auto)  GxB_Distance_set_backend
//   --k K                   (10)
//   --metrics LIST          (manhattan,cosine,jensenshannon,chebyshev):
//                           scipy's names (cityblock, l1, l2, jensen_shannon
//                           ... also taken), comma-separated
//   --rows R                (2000) sample rows, spread evenly over A: row
//                           (t * (m-1)) / (R-1) for t = 0..R-1
//   --max-pairs P           (4e8) fewer sample rows when R * m > P (the
//                           all-pairs sample is a full R x m FP32 matrix:
//                           4 bytes a pair in host memory)
//   --repeat N              (0 = by size) best of N runs; by size: 3 runs
//                           when one takes under 1 s, 2 under 5 s, else 1
//   --budget S              (0 = none) run the all-rows kNN only when the
//                           sampled kNN (below) predicts at most S seconds;
//                           else report the prediction ("est")
//   --deadline S            (0 = none) the same when the prediction would
//                           end the run more than S seconds after its start;
//                           and no repeated run starts that would (for a
//                           caller with a fixed time: bench/run_knn_bench.sh)
//   --check                 compare GxB_kNN's neighbors of --check-rows rows
//   --check-rows N          (50, spread evenly) with a brute force: the rows'
//                           distances to all rows by GxB_mxm_distance (same
//                           backend), sorted by (distance, column; NaN last;
//                           DOT largest first), self dropped, the first k
//                           kept; the same columns and the same bits are
//                           expected (docs/neighbors.md)
//   --threads T             GraphBLAS threads (default: all)
//
// For each FILE and metric, in this order (each timed as the best of its
// runs, wall clock, from the call to the materialized result):
//   1. sampled kNN: GxB_kNN of the R sample rows against all m rows, k+1
//      neighbors without exclude-self (a sample of queries cannot name its
//      rows in B; the same work), time x m / R = "knn_est": a prediction of
//      the all-rows kNN done R query rows a call;
//   2. all pairs: GxB_mxm_distance (D, NULL, NULL, d, As, A, NULL) of the R
//      sample rows against all rows, D a full R x m FP32 matrix in host
//      memory, time x m / R = "allpairs": all m^2 distances into host
//      memory R rows a call (the product alone; a user would still have to
//      select the k best of every row);
//   3. the all-rows kNN: GxB_kNN (C, NULL, d, k, A, A, desc) with
//      GxB_Desc_set_exclude_self (desc, true), C m x m FP32 (k per row),
//      unless --budget or --deadline says no, by a prediction that counts
//      the per-call cost once: a one-row query's time, plus the rest of
//      the sampled kNN's time x m / R;
//   4. with --check, the brute-force comparison.
// Per-call costs (taking A's arrays, copying them to the GPU) are in every
// call, so both scaled figures count them m / R times, as a user working R
// rows at a time would pay them.
//
// Output (stdout, tab-separated, one line as each case ends):
//   DATA  name m n nnz path load_s
//   KNN   name m n nnz metric backend k knn_s knn_runs knn_est_s
//         allpairs_s R ratio pairs_per_s check
//     knn_s: the all-rows kNN ("-" when --budget or --deadline skipped
//     it); ratio = kNN / all-pairs (knn_s, else knn_est_s); pairs_per_s =
//     m^2 / kNN seconds; check: "-", "ok N/N" or "MISMATCH j/N" (j rows
//     differ; " (k+1)": the all-rows run was skipped and the check rows
//     were queried, k+1 with self, instead)
//   FAIL  name metric what message   (a failed call: the next case goes on)
// then a table for people.  Lines starting with "INFO" and "CHECK" say more;
// "INFO name metric peak device memory" gives, where NVML is found (a GPU
// machine), the all-rows kNN's peak of the device's used memory above what
// was in use before it, sampled every millisecond.
//
// A .csr file is read by tools/gxd_csr_file.c (its format is there).

#define _POSIX_C_SOURCE 200809L
#define _FILE_OFFSET_BITS 64
#include <gxbdist.h>
#include "gxd_mtx.h"
#include "gxd_csr_file.h"
#define GXD_PROG "knn_bench"
#include "gxd_prog.h"

#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

//------------------------------------------------------------------------------
// the metrics, by scipy's names
//------------------------------------------------------------------------------

typedef struct
{
    const char *name ;          // canonical (scipy's) name, printed
    const char *alias [3] ;     // other names taken
    GrB_Semiring *s ;           // the predefined FP32 semiring
}
metric ;

static metric metrics [] =
{
    { "manhattan",     { "cityblock", "l1", NULL }, &GxB_DIST_MANHATTAN_FP32 },
    { "cosine",        { NULL },                   &GxB_DIST_COSINE_FP32 },
    { "jensenshannon", { "js", NULL },             &GxB_DIST_JENSEN_SHANNON_FP32 },
    { "chebyshev",     { "linf", NULL },           &GxB_DIST_CHEBYSHEV_FP32 },
    { "euclidean",     { "l2", NULL },             &GxB_DIST_EUCLIDEAN_FP32 },
    { "sqeuclidean",   { NULL },                   &GxB_DIST_SQEUCLIDEAN_FP32 },
    { "canberra",      { NULL },                   &GxB_DIST_CANBERRA_FP32 },
    { "correlation",   { NULL },                   &GxB_DIST_CORRELATION_FP32 },
    { "dice",          { NULL },                   &GxB_DIST_DICE_FP32 },
    { "dot",           { NULL },                   &GxB_DIST_DOT_FP32 },
    { "hellinger",     { NULL },                   &GxB_DIST_HELLINGER_FP32 },
    { "jaccard",       { NULL },                   &GxB_DIST_JACCARD_FP32 },
    { "russellrao",    { NULL },                   &GxB_DIST_RUSSELLRAO_FP32 },
    { "kldivergence",  { "kl", NULL },             &GxB_DIST_KL_DIVERGENCE_FP32 },
    { "hamming",       { NULL },                   &GxB_DIST_HAMMING_FP32 },
    { "braycurtis",    { NULL },                   &GxB_DIST_BRAYCURTIS_FP32 },
} ;
#define NMETRICS ((int) (sizeof (metrics) / sizeof (metrics [0])))

// lower case, without '_' and '-' (jensen_shannon = jensenshannon)
static void normalize (char *out, size_t len, const char *in)
{
    size_t o = 0 ;
    for ( ; *in && o + 1 < len ; in++)
    {
        if (*in == '_' || *in == '-') continue ;
        out [o++] = (char) tolower ((unsigned char) *in) ;
    }
    out [o] = '\0' ;
}

static metric *find_metric (const char *name)
{
    char want [64], have [64] ;
    normalize (want, sizeof (want), name) ;
    for (int h = 0 ; h < NMETRICS ; h++)
    {
        normalize (have, sizeof (have), metrics [h].name) ;
        if (!strcmp (want, have)) return &metrics [h] ;
        for (int a = 0 ; a < 3 && metrics [h].alias [a] ; a++)
        {
            if (!strcmp (want, metrics [h].alias [a])) return &metrics [h] ;
        }
    }
    return NULL ;
}

//------------------------------------------------------------------------------
// peak device memory: NVML, loaded at run time (no build dependency)
//------------------------------------------------------------------------------

typedef struct { unsigned long long total, free, used ; } nvml_memory ;
static struct
{
    void *device ;
    int (*memory) (void *device, nvml_memory *m) ;
    bool ok ;
}
nvml ;

// device 0's NVML handle, once; nvml.ok false where NVML is not found
static void nvml_open (void)
{
    static bool tried = false ;
    if (tried) return ;
    tried = true ;
    void *h = dlopen ("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL) ;
    if (h == NULL) return ;
    int (*init) (void) = (int (*) (void)) dlsym (h, "nvmlInit_v2") ;
    int (*handle) (unsigned, void **) =
        (int (*) (unsigned, void **)) dlsym (h, "nvmlDeviceGetHandleByIndex_v2") ;
    *(void **) &nvml.memory = dlsym (h, "nvmlDeviceGetMemoryInfo") ;
    nvml.ok = init != NULL && handle != NULL && nvml.memory != NULL
        && init () == 0 && handle (0, &nvml.device) == 0 ;
}

static unsigned long long device_used (void)
{
    nvml_memory m = { 0, 0, 0 } ;
    return (nvml.memory (nvml.device, &m) == 0) ? m.used : 0 ;
}

typedef struct
{
    atomic_bool stop ;
    unsigned long long base, peak ;
    pthread_t thread ;
    bool running ;
}
mem_sampler ;

static void *sample (void *arg)
{
    mem_sampler *ms = arg ;
    struct timespec ms1 = { 0, 1000000 } ;
    while (!atomic_load (&ms->stop))
    {
        unsigned long long u = device_used () ;
        if (u > ms->peak) ms->peak = u ;
        nanosleep (&ms1, NULL) ;
    }
    return NULL ;
}

// start sampling the device's used memory (nothing where NVML is missing)
static void sampler_start (mem_sampler *ms)
{
    memset (ms, 0, sizeof (*ms)) ;
    nvml_open () ;
    if (!nvml.ok) return ;
    ms->base = ms->peak = device_used () ;
    atomic_store (&ms->stop, false) ;
    ms->running = (pthread_create (&ms->thread, NULL, sample, ms) == 0) ;
}

// stop; the peak above the start, in bytes (-1: not measured)
static double sampler_stop (mem_sampler *ms)
{
    if (!ms->running) return -1 ;
    atomic_store (&ms->stop, true) ;
    pthread_join (ms->thread, NULL) ;
    ms->running = false ;
    return (double) (ms->peak - ms->base) ;
}

//------------------------------------------------------------------------------
// helpers
//------------------------------------------------------------------------------

static int repeat = 0 ;         // --repeat (0: by the first run's time)
static double t_start = 0 ;     // when the program started
static double deadline = 0 ;    // --deadline, seconds after t_start (0: none)

// whether the next S seconds of work would end past the deadline
static bool past_deadline (double s)
{
    return deadline > 0 && now () - t_start + s > deadline ;
}

// whether a measurement runs again after `done` runs, the last taking t s
static bool again (int done, double t)
{
    if (past_deadline (t)) return false ;
    if (repeat > 0) return done < repeat ;
    return done < ((t < 1.0) ? 3 : (t < 5.0) ? 2 : 1) ;
}

// R row numbers spread evenly over 0..m-1, the first and the last included
// (bench/knn_peers.py takes the same ones)
static GrB_Index *spread (GrB_Index m, GrB_Index R)
{
    GrB_Index *I = malloc ((R > 0 ? R : 1) * sizeof (GrB_Index)) ;
    if (I == NULL) { fprintf (stderr, "out of memory\n") ; exit (1) ; }
    for (GrB_Index t = 0 ; t < R ; t++)
    {
        I [t] = (R == 1) ? 0 : (GrB_Index) ((unsigned __int128) t * (m - 1)
            / (R - 1)) ;
    }
    return I ;
}

// the rows I [0..R-1] of A, all columns
static GrB_Info rows_of (GrB_Matrix *S, GrB_Matrix A, const GrB_Index *I,
    GrB_Index R)
{
    GrB_Index n ;
    GrB_Info info = GrB_Matrix_ncols (&n, A) ;
    if (info == GrB_SUCCESS) info = GrB_Matrix_new (S, GrB_FP32, R, n) ;
    if (info == GrB_SUCCESS)
        info = GrB_Matrix_extract (*S, NULL, NULL, A, I, R, GrB_ALL, n, NULL) ;
    if (info == GrB_SUCCESS) info = GrB_Matrix_wait (*S, GrB_MATERIALIZE) ;
    return info ;
}

static const char *backend_name (void)
{
    GxB_Backend b = GxB_BACKEND_CPU ;
    GxB_Distance_active_backend (&b) ;
    return (b == GxB_BACKEND_GPU) ? "gpu" : "cpu" ;
}

// one call into a new C (rows of A x rows of B, FP32): GxB_kNN with k
// neighbors, or all pairs (GxB_mxm_distance) when k = 0; *t its seconds,
// from the call to the materialized result
static GrB_Info timed (double *t, GrB_Matrix *C, GrB_Semiring s, uint64_t k,
    GrB_Matrix A, GrB_Matrix B, GrB_Descriptor d)
{
    GrB_Index rows = 0, cols = 0 ;
    GrB_Info info = GrB_Matrix_nrows (&rows, A) ;
    if (info == GrB_SUCCESS) info = GrB_Matrix_nrows (&cols, B) ;
    if (info == GrB_SUCCESS) info = GrB_Matrix_new (C, GrB_FP32, rows, cols) ;
    double t0 = now () ;
    if (info == GrB_SUCCESS) info = (k > 0) ? GxB_kNN (*C, NULL, s, k, A, B, d)
        : GxB_mxm_distance (*C, NULL, NULL, s, A, B, d) ;
    if (info == GrB_SUCCESS) info = GrB_Matrix_wait (*C, GrB_MATERIALIZE) ;
    *t = now () - t0 ;
    return info ;
}

// the best of the runs of one call (as many as again () says); the last
// run's result is left in *keep when keep is not NULL
static GrB_Info best_of (double *best, int *runs, GrB_Matrix *keep,
    GrB_Semiring s, uint64_t k, GrB_Matrix A, GrB_Matrix B, GrB_Descriptor d)
{
    *best = INFINITY ;
    *runs = 0 ;
    for (;;)
    {
        GrB_Matrix C = NULL ;
        double t ;
        GrB_Info info = timed (&t, &C, s, k, A, B, d) ;
        if (keep != NULL && info == GrB_SUCCESS)
        {
            GrB_Matrix_free (keep) ;
            *keep = C ;
        }
        else
        {
            GrB_Matrix_free (&C) ;
        }
        if (info != GrB_SUCCESS) return info ;
        *best = fmin (*best, t) ;
        if (!again (++(*runs), t)) return GrB_SUCCESS ;
    }
}

//------------------------------------------------------------------------------
// the brute-force check
//------------------------------------------------------------------------------

typedef struct { float d ; GrB_Index j ; } cand ;
static bool cmp_largest = false ;

// the library's order: smaller first (larger for DOT), NaN last, ties to the
// smaller column
static int cand_cmp (const void *pa, const void *pb)
{
    const cand *a = pa, *b = pb ;
    bool an = isnan (a->d), bn = isnan (b->d) ;
    if (an != bn) return an ? 1 : -1 ;
    if (!an && a->d != b->d)
    {
        bool before = cmp_largest ? (a->d > b->d) : (a->d < b->d) ;
        return before ? -1 : 1 ;
    }
    return (a->j < b->j) ? -1 : (a->j > b->j) ? 1 : 0 ;
}

// the first kk of row i of M (m x n) in the library's order, column skip
// left out (none when skip = GrB_INDEX_MAX); *cnt of them.  A sorted list
// of the best so far: a candidate costs one comparison once it is full.
static GrB_Info row_best (cand *out, GrB_Index *cnt, GrB_Matrix M,
    GrB_Index i, GrB_Index kk, GrB_Index skip, GrB_Vector w, GrB_Index *J,
    float *X)
{
    GrB_Index n, nv ;
    GrB_Info info = GrB_Matrix_ncols (&n, M) ;
    if (info == GrB_SUCCESS)
        info = GrB_Col_extract (w, NULL, NULL, M, GrB_ALL, n, i, GrB_DESC_T0) ;
    if (info == GrB_SUCCESS) info = GrB_Vector_nvals (&nv, w) ;
    if (info == GrB_SUCCESS) info = GrB_Vector_extractTuples_FP32 (J, X, &nv, w) ;
    if (info != GrB_SUCCESS) return info ;
    GrB_Index c = 0 ;
    for (GrB_Index p = 0 ; p < nv ; p++)
    {
        cand x = { X [p], J [p] } ;
        if (x.j == skip) continue ;
        if (c == kk && cand_cmp (&x, &out [kk-1]) >= 0) continue ;
        GrB_Index q = (c < kk) ? c++ : kk - 1 ;
        while (q > 0 && cand_cmp (&x, &out [q-1]) < 0)
        {
            out [q] = out [q-1] ;
            q-- ;
        }
        out [q] = x ;
    }
    *cnt = c ;
    return GrB_SUCCESS ;
}

// compare the rows Ic [0..nc-1] of the kNN result C (kk neighbors a row,
// self excluded when excl, Ic [t] being row t of C when C has nc rows, else
// row Ic [t]) with the first kk of the sorted rows of D = d(rows Ic, all);
// returns the number of rows that differ in *bad
static GrB_Info check_rows (int64_t *bad, GrB_Matrix C, GrB_Matrix D,
    const GrB_Index *Ic, GrB_Index nc, uint64_t kk, bool excl,
    const char *name, const char *mname)
{
    GrB_Index m, crows ;
    GrB_Info info = GrB_Matrix_ncols (&m, D) ;
    if (info == GrB_SUCCESS) info = GrB_Matrix_nrows (&crows, C) ;
    if (info != GrB_SUCCESS) return info ;
    GrB_Vector w = NULL ;
    GrB_Index *J = malloc ((m + 1) * sizeof (GrB_Index)) ;
    float *X = malloc ((m + 1) * sizeof (float)) ;
    cand *bf = malloc ((kk + 1) * sizeof (cand)) ;
    cand *kn = malloc ((m + 1) * sizeof (cand)) ;
    info = (J && X && bf && kn) ? GrB_Vector_new (&w, GrB_FP32, m)
        : GrB_OUT_OF_MEMORY ;
    *bad = 0 ;
    for (GrB_Index t = 0 ; info == GrB_SUCCESS && t < nc ; t++)
    {
        GrB_Index i = Ic [t], nb = 0, nk = 0 ;
        // the brute force: the first kk of the row of D, self dropped
        info = row_best (bf, &nb, D, t, kk, excl ? i : GrB_INDEX_MAX, w, J,
            X) ;
        // the kNN's row, all of it, in the same order
        if (info == GrB_SUCCESS)
            info = row_best (kn, &nk, C, (crows == nc) ? t : i, m,
                GrB_INDEX_MAX, w, J, X) ;
        if (info != GrB_SUCCESS) break ;
        bool same = (nb == nk) ;
        GrB_Index first = 0 ;
        for (GrB_Index p = 0 ; same && p < nk ; p++)
        {
            uint32_t ub, uk ;
            memcpy (&ub, &bf [p].d, 4) ;
            memcpy (&uk, &kn [p].d, 4) ;
            if (bf [p].j != kn [p].j || ub != uk) { same = false ; first = p ; }
        }
        if (!same)
        {
            if (*bad < 5)
            {
                GrB_Index p = (nb == nk) ? first : 0 ;
                printf ("CHECK\t%s\t%s\trow %" PRIu64 ": kNN has %" PRIu64
                    " neighbors, brute force %" PRIu64 "; at rank %" PRIu64
                    ": kNN (%" PRIu64 ", %.9g) brute force (%" PRIu64
                    ", %.9g)\n", name, mname, (uint64_t) i, (uint64_t) nk,
                    (uint64_t) nb, (uint64_t) p,
                    (uint64_t) (p < nk ? kn [p].j : 0),
                    p < nk ? kn [p].d : NAN, (uint64_t) (p < nb ? bf [p].j : 0),
                    p < nb ? bf [p].d : NAN) ;
            }
            (*bad)++ ;
        }
    }
    GrB_Vector_free (&w) ;
    free (J) ; free (X) ; free (bf) ; free (kn) ;
    return info ;
}

//------------------------------------------------------------------------------
// one dataset x metric
//------------------------------------------------------------------------------

typedef struct
{
    char name [128], metric [32], backend [8], check [64] ;
    GrB_Index m ;
    double knn, est, allpairs ;     // seconds (knn < 0: not run)
    int knn_runs ;
    GrB_Index R ;
}
row_result ;

static row_result *results = NULL ;
static int nresults = 0 ;

typedef struct
{
    uint64_t k ;
    GrB_Index R, check_rows ;
    double budget ;
    bool check ;
}
settings ;

// a failed call: print it, and leave the case (cleanup at "done")
#define CASE_TRY(call)                                                      \
{                                                                           \
    info = (call) ;                                                         \
    if (info != GrB_SUCCESS)                                                \
    {                                                                       \
        const char *msg_ = "" ;                                             \
        GxB_Distance_error (&msg_) ;                                        \
        printf ("FAIL\t%s\t%s\t%s (GrB_Info %d)\t%s\n", name, M->name,      \
            #call, (int) info, msg_) ;                                      \
        fflush (stdout) ;                                                   \
        goto done ;                                                         \
    }                                                                       \
}

static void one_case (const char *name, GrB_Matrix A, metric *M,
    const settings *S, GrB_Matrix As, GrB_Index R,
    GrB_Descriptor dx)
{
    GrB_Info info ;
    GrB_Index m, n, nnz ;
    GrB_Matrix C = NULL, D = NULL, Ac = NULL, A1 = NULL ;
    GrB_Index *Ic = NULL ;
    row_result r = { .knn = -1, .R = R } ;
    snprintf (r.name, sizeof (r.name), "%s", name) ;
    snprintf (r.metric, sizeof (r.metric), "%s", M->name) ;
    snprintf (r.check, sizeof (r.check), "-") ;
    CASE_TRY (GrB_Matrix_nrows (&m, A)) ;
    CASE_TRY (GrB_Matrix_ncols (&n, A)) ;
    CASE_TRY (GrB_Matrix_nvals (&nnz, A)) ;
    snprintf (r.backend, sizeof (r.backend), "%s", backend_name ()) ;
    r.m = m ;
    double scale = (double) m / (double) R ;

    // 1. the sampled kNN: R queries against all rows, k+1, self kept
    double best ;
    int runs ;
    CASE_TRY (best_of (&best, &runs, NULL, *M->s, S->k + 1, As, A, NULL)) ;
    r.est = best * scale ;
    // what one all-rows call would take: the call's own cost (a one-row
    // query's time) once, the rest scaled; r.est counts that cost m / R
    // times, which overstates a call on a large B many times over
    GrB_Index i0 = 0 ;
    double one ;
    CASE_TRY (rows_of (&A1, A, &i0, 1)) ;
    CASE_TRY (best_of (&one, &runs, NULL, *M->s, S->k + 1, A1, A, NULL)) ;
    const double predict = (best > one) ? one + (best - one) * scale : r.est ;

    // 2. all pairs of the sample into host memory
    CASE_TRY (best_of (&best, &runs, NULL, *M->s, 0, As, A, NULL)) ;
    r.allpairs = best * scale ;

    // 3. the all-rows kNN, self excluded (unless the budget says no); the
    // last run's C is kept for 4.
    bool full = (S->budget <= 0 || predict <= S->budget)
        && !past_deadline (predict + 1) ;
    if (full)
    {
        mem_sampler ms ;
        sampler_start (&ms) ;
        GrB_Info done = best_of (&r.knn, &r.knn_runs, &C, *M->s, S->k, A, A, dx) ;
        double peak = sampler_stop (&ms) ;
        CASE_TRY (done) ;
        if (peak >= 0 && strcmp (r.backend, "cpu") != 0)
        {
            printf ("INFO\t%s\t%s\tpeak device memory %.2f GiB (the all-rows "
                "kNN, above the %.2f GiB in use before it)\n", name, M->name,
                peak / 1073741824.0, ms.base / 1073741824.0) ;
        }
    }
    else
    {
        printf ("INFO\t%s\t%s\tall-rows kNN skipped: the sample predicts"
            " %.1f s, over --budget %g s or past --deadline %g s (%.0f s"
            " in)\n", name, M->name, predict, S->budget, deadline,
            now () - t_start) ;
    }

    // 4. the check: the kNN's rows against a brute force of the same rows
    if (S->check)
    {
        GrB_Index nc = (S->check_rows < m) ? S->check_rows : m ;
        Ic = spread (m, nc) ;
        CASE_TRY (rows_of (&Ac, A, Ic, nc)) ;
        uint64_t kk = S->k ;
        double t ;
        if (!full)
        {
            // no all-rows result: the check rows as queries, k+1, self kept
            kk = S->k + 1 ;
            CASE_TRY (timed (&t, &C, *M->s, kk, Ac, A, NULL)) ;
        }
        CASE_TRY (timed (&t, &D, *M->s, 0, Ac, A, NULL)) ;
        int64_t bad = 0 ;
        cmp_largest = (M->s == &GxB_DIST_DOT_FP32) ;
        CASE_TRY (check_rows (&bad, C, D, Ic, nc, kk, full, name, M->name)) ;
        snprintf (r.check, sizeof (r.check), "%s %" PRId64 "/%" PRIu64 "%s",
            bad ? "MISMATCH" : "ok", bad, (uint64_t) nc, full ? "" : " (k+1)") ;
    }

    double tk = (r.knn >= 0) ? r.knn : r.est ;
    printf ("KNN\t%s\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%s\t%s\t%" PRIu64
        "\t", name, (uint64_t) m, (uint64_t) n, (uint64_t) nnz, M->name,
        r.backend, S->k) ;
    if (r.knn >= 0) printf ("%.4f\t%d", r.knn, r.knn_runs) ;
    else printf ("-\t0") ;
    printf ("\t%.4f\t%.4f\t%" PRIu64 "\t%.4g\t%.4g\t%s\n", r.est, r.allpairs,
        (uint64_t) R, tk / r.allpairs, (double) m * (double) m / tk, r.check) ;
    fflush (stdout) ;
    results = realloc (results, (nresults + 1) * sizeof (row_result)) ;
    if (results) results [nresults++] = r ;

done:
    GrB_Matrix_free (&C) ;
    GrB_Matrix_free (&D) ;
    GrB_Matrix_free (&Ac) ;
    GrB_Matrix_free (&A1) ;
    free (Ic) ;
}

//------------------------------------------------------------------------------
// main
//------------------------------------------------------------------------------

static void usage (void)
{
    fprintf (stderr, "usage: knn_bench [--backend cpu|gpu|auto] [--k 10]"
        " [--metrics manhattan,cosine,jensenshannon,chebyshev]\n"
        "         [--rows 2000] [--max-pairs 4e8] [--repeat N] [--budget S]"
        " [--deadline S] [--check] [--check-rows 50]\n"
        "         [--threads T] FILE.mtx[.gz]|FILE.csr ...\n"
        "(see the top of bench/knn_bench.c)\n") ;
}

// the dataset's name: the file's without its folder and extension
static void dataset_name (char *out, size_t len, const char *path)
{
    const char *b = strrchr (path, '/') ;
    snprintf (out, len, "%s", b ? b + 1 : path) ;
    const char *ext [] = { ".mtx.gz", ".mtx", ".csr" } ;
    for (int e = 0 ; e < 3 ; e++)
    {
        size_t lo = strlen (out), le = strlen (ext [e]) ;
        if (lo > le && !strcmp (out + lo - le, ext [e]))
        {
            out [lo - le] = '\0' ;
            break ;
        }
    }
}

static bool ends_with (const char *s, const char *t)
{
    size_t ls = strlen (s), lt = strlen (t) ;
    return ls >= lt && !strcmp (s + ls - lt, t) ;
}

int main (int argc, char **argv)
{
    t_start = now () ;
    settings S = { .k = 10, .R = 2000, .check_rows = 50, .budget = 0 } ;
    double max_pairs = 4e8 ;
    int threads = 0 ;
    const char *backend = "auto" ;
    char mlist [1024] = "manhattan,cosine,jensenshannon,chebyshev" ;
    int a = 1 ;
    for ( ; a < argc && !strncmp (argv [a], "--", 2) ; a++)
    {
        const char *o = argv [a] ;
        if (!strcmp (o, "--check")) { S.check = true ; continue ; }
        if (!strcmp (o, "--help")) { usage () ; return 0 ; }
        if (a + 1 >= argc) { usage () ; return 2 ; }
        const char *v = argv [++a] ;
        char *end = NULL ;
        double x = strtod (v, &end) ;
        bool num = (end != v && *end == '\0' && x >= 0) ;
        if (!strcmp (o, "--backend")) backend = v ;
        else if (!strcmp (o, "--metrics")) snprintf (mlist, sizeof (mlist), "%s", v) ;
        else if (!num) { fprintf (stderr, "knn_bench: %s %s: not a number\n", o, v) ; return 2 ; }
        else if (!strcmp (o, "--k")) S.k = (uint64_t) x ;
        else if (!strcmp (o, "--rows")) S.R = (GrB_Index) x ;
        else if (!strcmp (o, "--max-pairs")) max_pairs = x ;
        else if (!strcmp (o, "--repeat")) repeat = (int) x ;
        else if (!strcmp (o, "--budget")) S.budget = x ;
        else if (!strcmp (o, "--deadline")) deadline = x ;
        else if (!strcmp (o, "--check-rows")) S.check_rows = (GrB_Index) x ;
        else if (!strcmp (o, "--threads")) threads = (int) x ;
        else { fprintf (stderr, "knn_bench: unknown option %s\n", o) ; usage () ; return 2 ; }
    }
    if (a >= argc || S.k == 0 || S.R == 0 || S.check_rows == 0)
    {
        usage () ;
        return 2 ;
    }
    // the metrics, checked before anything runs
    metric *mets [NMETRICS] ;
    int nm = 0 ;
    char ml [1024] ;
    snprintf (ml, sizeof (ml), "%s", mlist) ;
    for (char *tok = strtok (ml, ",") ; tok ; tok = strtok (NULL, ","))
    {
        metric *M = find_metric (tok) ;
        if (M == NULL) { fprintf (stderr, "knn_bench: unknown metric %s\n", tok) ; return 2 ; }
        if (nm < NMETRICS) mets [nm++] = M ;
    }

    TRY (GrB_init (GrB_NONBLOCKING)) ;
    TRY (GxB_Distance_init ()) ;
    if (threads > 0) TRY (GxB_Global_Option_set (GxB_NTHREADS, threads)) ;
    GxB_Backend b = !strcmp (backend, "cpu") ? GxB_BACKEND_CPU :
        !strcmp (backend, "gpu") ? GxB_BACKEND_GPU : GxB_BACKEND_AUTO ;
    if (strcmp (backend, "cpu") && strcmp (backend, "gpu")
        && strcmp (backend, "auto"))
    {
        fprintf (stderr, "knn_bench: --backend cpu, gpu or auto\n") ;
        return 2 ;
    }
    if (GxB_Distance_set_backend (b) != GrB_SUCCESS)
    {
        const char *msg = "" ;
        GxB_Distance_error (&msg) ;
        fprintf (stderr, "knn_bench: backend %s not usable: %s\n", backend, msg) ;
        return 1 ;
    }
    int nthreads = 0 ;
    GxB_Global_Option_get (GxB_NTHREADS, &nthreads) ;
    GrB_Descriptor dx = NULL ;
    TRY (GrB_Descriptor_new (&dx)) ;
    TRY (GxB_Desc_set_exclude_self (dx, true)) ;

    // the first call of a process starts the GPU (CUDA context): not timed
    {
        GrB_Matrix W = NULL, Z = NULL ;
        TRY (GrB_Matrix_new (&W, GrB_FP32, 4, 4)) ;
        TRY (GrB_Matrix_setElement_FP32 (W, 1, 0, 0)) ;
        TRY (GrB_Matrix_setElement_FP32 (W, 2, 3, 1)) ;
        TRY (GrB_Matrix_new (&Z, GrB_FP32, 4, 4)) ;
        double t = now () ;
        TRY (GxB_mxm_distance (Z, NULL, NULL, GxB_DIST_COSINE_FP32, W, W, NULL)) ;
        printf ("INFO\tbackend %s, GraphBLAS threads %d, k %" PRIu64
            ", first call (start-up, not counted) %.3f s\n", backend_name (),
            nthreads, S.k, now () - t) ;
        GrB_Matrix_free (&W) ;
        GrB_Matrix_free (&Z) ;
    }

    int status = 0 ;
    for ( ; a < argc ; a++)
    {
        const char *path = argv [a] ;
        char name [128] ;
        dataset_name (name, sizeof (name), path) ;
        GrB_Matrix A = NULL, As = NULL ;
        double t = now () ;
        if (ends_with (path, ".csr"))
        {
            if (GXD_csr_read (&A, path) != GrB_SUCCESS) { status = 1 ; continue ; }
        }
        else if (GXD_mtx_read (&A, GrB_FP32, path) != GrB_SUCCESS)
        {
            status = 1 ;
            continue ;
        }
        GrB_Index m, n, nnz ;
        TRY (GrB_Matrix_wait (A, GrB_MATERIALIZE)) ;
        TRY (GrB_Matrix_nrows (&m, A)) ;
        TRY (GrB_Matrix_ncols (&n, A)) ;
        TRY (GrB_Matrix_nvals (&nnz, A)) ;
        printf ("DATA\t%s\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%s\t%.2f\n",
            name, (uint64_t) m, (uint64_t) n, (uint64_t) nnz, path,
            now () - t) ;
        if (m < 2)
        {
            printf ("INFO\t%s\tfewer than 2 rows: skipped\n", name) ;
            GrB_Matrix_free (&A) ;
            continue ;
        }
        // the sample: R rows, fewer when R x m passes --max-pairs
        GrB_Index R = (S.R < m) ? S.R : m ;
        if ((double) R * (double) m > max_pairs)
        {
            R = (GrB_Index) fmax (1, floor (max_pairs / (double) m)) ;
            printf ("INFO\t%s\tsample of %" PRIu64 " rows (--max-pairs %.3g)"
                "\n", name, (uint64_t) R, max_pairs) ;
        }
        GrB_Index *I = spread (m, R) ;
        TRY (rows_of (&As, A, I, R)) ;
        fflush (stdout) ;
        for (int h = 0 ; h < nm ; h++)
        {
            one_case (name, A, mets [h], &S, As, R, dx) ;
        }
        free (I) ;
        GrB_Matrix_free (&As) ;
        GrB_Matrix_free (&A) ;
    }

    // the table for people
    printf ("\nall rows x all rows, k = %" PRIu64 ", self excluded, FP32;"
        " all-pairs = GxB_mxm_distance on R sample rows x all rows into host"
        " memory, x m/R;\nkNN 'est' = GxB_kNN of the R sample rows x m/R"
        " (the all-rows run was skipped)\n\n", S.k) ;
    printf ("%-24s %-14s %-4s %10s %12s %6s %14s %12s %s\n", "dataset",
        "metric", "be", "kNN s", "all-pairs s", "R", "kNN/all-pairs",
        "pairs/s", "check") ;
    for (int q = 0 ; q < nresults ; q++)
    {
        row_result *r = &results [q] ;
        double tk = (r->knn >= 0) ? r->knn : r->est ;
        char ks [32] ;
        if (r->knn >= 0) snprintf (ks, sizeof (ks), "%.3f", r->knn) ;
        else snprintf (ks, sizeof (ks), "%.1f est", r->est) ;
        printf ("%-24s %-14s %-4s %10s %12.3f %6" PRIu64 " %14.3g %12.3g %s\n",
            r->name, r->metric, r->backend, ks, r->allpairs, (uint64_t) r->R,
            tk / r->allpairs, (double) r->m * (double) r->m / tk, r->check) ;
    }
    free (results) ;
    TRY (GxB_Desc_set_exclude_self (dx, false)) ;
    TRY (GrB_Descriptor_free (&dx)) ;
    TRY (GxB_Distance_finalize ()) ;
    TRY (GrB_finalize ()) ;
    return status ;
}
