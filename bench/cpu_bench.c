// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// bench/cpu_bench.c: the CPU backend against SuiteSparse (and, via
// sklearn_bench.py, scikit-learn)
//------------------------------------------------------------------------------

// A program, not a timed test (issue 7, "The CPU backend").  Two commands:
//
//   cpu_bench gen OUT.mtx m k d seed
//       writes a synthetic power-law matrix (below) to OUT.mtx, so that this
//       program and bench/sklearn_bench.py time identical data.
//
//   cpu_bench run [options] NAME=PATH ...
//       for each Matrix Market file (plain or .gz), B = the whole matrix and
//       A = its first R rows; times C = d(A, B) (R x n, every pair, FP32) with
//       GxB_mxm_distance on GxB_BACKEND_CPU for each metric, the SuiteSparse
//       reference (GXO_metric: every metric computed with GraphBLAS calls
//       only) on a slice small enough for its cost, and plain SuiteSparse
//       GrB_mxm (PLUS_TIMES, A*B', sparse output: the intersection product
//       alone, the peer of the expanded metrics).  Rates are in ms per 10^6
//       output pairs.  Options:
//         --pairs P      R = min(m, max(1, P / n)) rows of A (default 1e7),
//         --products W   and fewer if the intersection products of those
//                        rows (sum over their entries of the column's count
//                        in B) pass W (default 3e8; dense-ish data)
//         --rows R       R rows of A (overrides --pairs; 0 = all)
//         --metrics L    comma-separated list (default MANHATTAN,COSINE,
//                        EUCLIDEAN,CANBERRA,CHEBYSHEV,JENSEN_SHANNON), or all
//         --ref-budget S the reference's slice grows (B rows first, then A
//                        rows, 4x a step from 1 x 256) while one run takes
//                        under S/4 seconds (default 2)
//         --ref-cols N   at most N rows of B in the reference slice
//                        (default 0: up to all of B)
//         --reps N       best of N timed runs when a run is under 2 s (3)
//         --threads T    GraphBLAS threads (the CPU backend uses OpenMP's
//                        default: set OMP_NUM_THREADS too)
//         --no-ref       skip the reference
//         --quiet-wait S before each measurement, wait up to S seconds (20)
//                        for the CPUs to be under 15 % busy (other work)
//         --union-work U the union-pass timings (CHEBYSHEV and the
//                        gxbdist_cpu_union lines) use Ru = min(R, U / (n *
//                        2 nnz/n)) rows of A: about U merge steps (1e8)
//         --no-union     skip the timing with GxB_Distance_set_exact_union
//                        (every pair merged over its union: the scheme the
//                        CPU backend does not choose for metrics whose (+)
//                        is plus; "gxbdist_cpu_union" lines)
//       Output: a DATA line per matrix (name, n, k, nnz, R, path, load
//       seconds, intersection products of the slice), then one
//       tab-separated line per measurement, starting with RESULT:
//         RESULT name impl metric rows cols pairs ms ms_per_Mpair extra busy
//       (extra: for the reference, max_rel_err of gxbdist vs the reference on
//       the reference's slice, |got - ref| / max(|ref|, 1e-30); for the
//       GrB_mxm line the entries of A*B'; else "-".  busy: the fraction of
//       the CPUs other processes used just before the measurement.)
//
// The synthetic generator (issue 8's parameters): row degrees
// 1 + floor(Pareto(1.5) * d/2) (Pareto of the second kind, mean 2, so the mean
// degree is about d + 1), capped at k/4; columns drawn with Zipf(1.1)
// probabilities over the k columns (randomly permuted); values uniform
// integers 1..5; duplicates summed.  MovieLens-like: m = k = 20000, d = 60.

#define _POSIX_C_SOURCE 200809L
#include <gxbdist.h>
#include "gxd_mtx.h"
#define GXD_PROG "cpu_bench"
#include "gxd_prog.h"
#include "gxd_oracle.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

//------------------------------------------------------------------------------
// a quiet machine: wait until other processes leave the CPUs idle
//------------------------------------------------------------------------------

// The benchmark machine may be shared.  Before each measurement (its first
// run; the best of its runs is kept), wait at most quiet_wait seconds until
// the CPUs were less than 15 % busy over half a second; the busy fraction
// seen then is printed with the result.

static double quiet_wait = 20, last_busy = 0 ;

static bool cpu_times (double *busy, double *total)
{
    FILE *f = fopen ("/proc/stat", "r") ;
    if (f == NULL) return false ;
    unsigned long long v [8] = { 0 } ;
    int got = fscanf (f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v [0],
        &v [1], &v [2], &v [3], &v [4], &v [5], &v [6], &v [7]) ;
    fclose (f) ;
    if (got < 5) return false ;
    double t = 0 ;
    for (int i = 0 ; i < 8 ; i++) t += (double) v [i] ;
    *total = t ;
    *busy = t - (double) v [3] - (double) v [4] ;   // minus idle and iowait
    return true ;
}

static double wait_quiet (void)
{
    double t0 = now (), busy = 0 ;
    do
    {
        double b0, t0s, b1, t1s ;
        if (!cpu_times (&b0, &t0s)) return 0 ;
        struct timespec d = { 0, 500000000 } ;
        nanosleep (&d, NULL) ;
        if (!cpu_times (&b1, &t1s)) return 0 ;
        busy = (t1s > t0s) ? (b1 - b0) / (t1s - t0s) : 0 ;
    }
    while (busy > 0.15 && now () - t0 < quiet_wait) ;
    return busy ;
}

//------------------------------------------------------------------------------
// random numbers: splitmix64
//------------------------------------------------------------------------------

static uint64_t rng_state ;

static uint64_t rng (void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL) ;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL ;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL ;
    return z ^ (z >> 31) ;
}

// uniform in (0, 1]
static double urand (void)
{
    return ((double) (rng () >> 11) + 1.0) / 9007199254740992.0 ;
}

//------------------------------------------------------------------------------
// gen: the synthetic power-law matrix
//------------------------------------------------------------------------------

static int gen (const char *out, int64_t m, int64_t k, double d, uint64_t seed)
{
    rng_state = seed ;
    // Zipf(1.1) over ranks 0..k-1, mapped to a random permutation of columns
    double *cdf = malloc (k * sizeof (double)) ;
    int64_t *perm = malloc (k * sizeof (int64_t)) ;
    double s = 0 ;
    for (int64_t r = 0 ; r < k ; r++)
    {
        s += pow ((double) (r + 1), -1.1) ;
        cdf [r] = s ;
        perm [r] = r ;
    }
    for (int64_t r = k - 1 ; r > 0 ; r--)
    {
        int64_t q = (int64_t) (rng () % (uint64_t) (r + 1)) ;
        int64_t t = perm [r] ; perm [r] = perm [q] ; perm [q] = t ;
    }
    int64_t cap = (k / 4 > 1) ? k / 4 : 1 ;
    int64_t nmax = 0, ecap = m * (int64_t) (d + 2) + 1024, e = 0 ;
    GrB_Index *I = malloc (ecap * sizeof (GrB_Index)) ;
    GrB_Index *J = malloc (ecap * sizeof (GrB_Index)) ;
    int32_t *X = malloc (ecap * sizeof (int32_t)) ;
    for (int64_t i = 0 ; i < m ; i++)
    {
        double pareto = pow (urand (), -1.0 / 1.5) - 1.0 ;  // Lomax, mean 2
        double degf = 1.0 + floor (pareto * d / 2.0) ;
        int64_t deg = (degf > (double) cap) ? cap : (int64_t) degf ;
        if (deg > nmax) nmax = deg ;
        if (e + deg > ecap)
        {
            ecap = 2 * (e + deg) ;
            I = realloc (I, ecap * sizeof (GrB_Index)) ;
            J = realloc (J, ecap * sizeof (GrB_Index)) ;
            X = realloc (X, ecap * sizeof (int32_t)) ;
        }
        for (int64_t t = 0 ; t < deg ; t++)
        {
            double u = urand () * s ;
            int64_t lo = 0, hi = k - 1 ;
            while (lo < hi)
            {
                int64_t mid = (lo + hi) / 2 ;
                if (cdf [mid] < u) lo = mid + 1 ; else hi = mid ;
            }
            I [e] = (GrB_Index) i ;
            J [e] = (GrB_Index) perm [lo] ;
            X [e] = 1 + (int32_t) (rng () % 5) ;
            e++ ;
        }
    }
    GrB_Matrix A = NULL ;
    TRY (GrB_Matrix_new (&A, GrB_INT32, m, k)) ;
    TRY (GrB_Matrix_build_INT32 (A, I, J, X, e, GrB_PLUS_INT32)) ;
    GrB_Index nvals ;
    TRY (GrB_Matrix_nvals (&nvals, A)) ;
    char comment [512] ;
    snprintf (comment, sizeof (comment), "gxbdist synthetic power-law matrix"
        " (bench/cpu_bench.c gen): m=%lld k=%lld d=%g seed=%llu\nrow degrees"
        " 1+Pareto(1.5)*d/2 capped at k/4, columns Zipf(1.1), values 1..5,"
        " duplicates summed", (long long) m, (long long) k, d,
        (unsigned long long) seed) ;
    TRY (GXD_mtx_write (A, out, comment)) ;
    fprintf (stderr, "gen: %s: %lld x %lld, %llu entries (%lld drawn, max"
        " degree drawn %lld)\n", out, (long long) m, (long long) k,
        (unsigned long long) nvals, (long long) e, (long long) nmax) ;
    GrB_Matrix_free (&A) ;
    free (I) ; free (J) ; free (X) ; free (cdf) ; free (perm) ;
    return 0 ;
}

//------------------------------------------------------------------------------
// the metrics
//------------------------------------------------------------------------------

typedef struct
{
    const char *name ;      // as in GxB_DIST_<name>_FP32
    GrB_Semiring *s ;       // address of the predefined FP32 semiring
}
metric ;

// every predefined metric (gxbdist.h's list)
#define ENTRY(NAME) { #NAME, &GxB_DIST_ ## NAME ## _FP32 },
static metric metrics [] = { GXB_DIST_METRICS (ENTRY) } ;
#undef ENTRY
#define NMETRICS ((int) (sizeof (metrics) / sizeof (metrics [0])))

static const char *default_metrics =
    "MANHATTAN,COSINE,EUCLIDEAN,CANBERRA,CHEBYSHEV,JENSEN_SHANNON" ;

//------------------------------------------------------------------------------
// helpers
//------------------------------------------------------------------------------

// rows [r0, r0+r) of B, all columns
static GrB_Matrix rows_of (GrB_Matrix B, GrB_Index r0, GrB_Index r)
{
    GrB_Index k ;
    GrB_Type t ;
    TRY (GrB_Matrix_ncols (&k, B)) ;
    TRY (GxB_Matrix_type (&t, B)) ;
    GrB_Matrix A = NULL ;
    TRY (GrB_Matrix_new (&A, t, r, k)) ;
    GrB_Index range [2] = { r0, r0 + r - 1 } ;
    if (r > 0)
    {
        TRY (GrB_Matrix_extract (A, NULL, NULL, B, range, GxB_RANGE, GrB_ALL,
            k, NULL)) ;
    }
    TRY (GrB_Matrix_wait (A, GrB_MATERIALIZE)) ;
    return A ;
}

// time one gxbdist product (best of reps when short); returns seconds
static double time_gxbdist (GrB_Semiring s, GrB_Matrix A, GrB_Matrix B,
    int reps, GrB_Matrix *keep)
{
    GrB_Index m, n ;
    TRY (GrB_Matrix_nrows (&m, A)) ;
    TRY (GrB_Matrix_nrows (&n, B)) ;
    double best = INFINITY ;
    for (int r = 0 ; r < reps ; r++)
    {
        GrB_Matrix C = NULL ;
        TRY (GrB_Matrix_new (&C, GrB_FP32, m, n)) ;
        if (keep == NULL && r == 0) last_busy = wait_quiet () ;
        double t = now () ;
        TRY (GxB_mxm_distance (C, NULL, NULL, s, A, B, NULL)) ;
        TRY (GrB_Matrix_wait (C, GrB_MATERIALIZE)) ;
        t = now () - t ;
        if (t < best) best = t ;
        if (keep != NULL && r == 0) *keep = C ;
        else GrB_Matrix_free (&C) ;
        if (t > 2.0) break ;
    }
    return best ;
}

// time plain SuiteSparse A*B' (PLUS_TIMES, sparse output)
static double time_mxm (GrB_Matrix A, GrB_Matrix B, int reps,
    GrB_Index *nvals)
{
    GrB_Index m, n ;
    TRY (GrB_Matrix_nrows (&m, A)) ;
    TRY (GrB_Matrix_nrows (&n, B)) ;
    double best = INFINITY ;
    for (int r = 0 ; r < reps ; r++)
    {
        GrB_Matrix S = NULL ;
        TRY (GrB_Matrix_new (&S, GrB_FP32, m, n)) ;
        if (r == 0) last_busy = wait_quiet () ;
        double t = now () ;
        TRY (GrB_mxm (S, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, A, B,
            GrB_DESC_T1)) ;
        TRY (GrB_Matrix_wait (S, GrB_MATERIALIZE)) ;
        t = now () - t ;
        if (t < best) best = t ;
        TRY (GrB_Matrix_nvals (nvals, S)) ;
        GrB_Matrix_free (&S) ;
        if (t > 2.0) break ;
    }
    return best ;
}

// max |got - ref| / max (|ref|, 1e-30) over the entries of ref
static double max_rel_err (GrB_Matrix got, GrB_Matrix ref)
{
    GrB_Index m, n, nv ;
    TRY (GrB_Matrix_nrows (&m, ref)) ;
    TRY (GrB_Matrix_ncols (&n, ref)) ;
    TRY (GrB_Matrix_nvals (&nv, ref)) ;
    GrB_Index *I = malloc ((nv + 1) * sizeof (GrB_Index)) ;
    GrB_Index *J = malloc ((nv + 1) * sizeof (GrB_Index)) ;
    double *X = malloc ((nv + 1) * sizeof (double)) ;
    TRY (GrB_Matrix_extractTuples_FP64 (I, J, X, &nv, ref)) ;
    double worst = 0 ;
    for (GrB_Index q = 0 ; q < nv ; q++)
    {
        double g = 0 ;
        GrB_Info info = GrB_Matrix_extractElement_FP64 (&g, got, I [q], J [q]) ;
        if (info == GrB_NO_VALUE) g = 0 ;
        double e = fabs (g - X [q]) / fmax (fabs (X [q]), 1e-30) ;
        if (e > worst || isnan (e)) worst = isnan (e) ? INFINITY : e ;
    }
    free (I) ; free (J) ; free (X) ;
    return worst ;
}

// for each row i of B: the intersection products it makes with all of B,
// sum over its entries (i,c) of the number of entries in column c of B
static double *products_per_row (GrB_Matrix B)
{
    GrB_Index n, k, nv ;
    TRY (GrB_Matrix_nrows (&n, B)) ;
    TRY (GrB_Matrix_ncols (&k, B)) ;
    TRY (GrB_Matrix_nvals (&nv, B)) ;
    GrB_Index *I = malloc ((nv + 1) * sizeof (GrB_Index)) ;
    GrB_Index *J = malloc ((nv + 1) * sizeof (GrB_Index)) ;
    double *cnt = calloc (k + 1, sizeof (double)) ;
    double *prod = calloc (n + 1, sizeof (double)) ;
    if (!I || !J || !cnt || !prod) { fprintf (stderr, "out of memory\n") ; exit (1) ; }
    TRY (GrB_Matrix_extractTuples_FP32 (I, J, NULL, &nv, B)) ;
    for (GrB_Index q = 0 ; q < nv ; q++) cnt [J [q]]++ ;
    for (GrB_Index q = 0 ; q < nv ; q++) prod [I [q]] += cnt [J [q]] ;
    free (I) ; free (J) ; free (cnt) ;
    return prod ;
}

static void result (const char *data, const char *impl, const char *metric,
    GrB_Index rows, GrB_Index cols, double sec, const char *err)
{
    double pairs = (double) rows * (double) cols ;
    printf ("RESULT\t%s\t%s\t%s\t%llu\t%llu\t%.0f\t%.3f\t%.4g\t%s\t%.2f\n",
        data, impl, metric, (unsigned long long) rows,
        (unsigned long long) cols, pairs, 1e3 * sec,
        (pairs > 0) ? 1e3 * sec / (pairs / 1e6) : 0.0, err, last_busy) ;
    fflush (stdout) ;
}

//------------------------------------------------------------------------------
// run
//------------------------------------------------------------------------------

static int run (int argc, char **argv)
{
    double P = 1e7, W = 3e8, U = 1e8, ref_budget = 2.0 ;
    int64_t rows = -1, ref_cols = 0 ;
    int reps = 3, threads = 0 ;
    bool do_ref = true, do_union = true ;
    char mlist [1024] ;
    snprintf (mlist, sizeof (mlist), "%s", default_metrics) ;
    int a = 0 ;
    for ( ; a < argc && strncmp (argv [a], "--", 2) == 0 ; a++)
    {
        const char *o = argv [a] ;
        const char *v = (a + 1 < argc) ? argv [a+1] : "" ;
        if (!strcmp (o, "--no-ref")) { do_ref = false ; continue ; }
        if (!strcmp (o, "--no-union")) { do_union = false ; continue ; }
        if (!strcmp (o, "--pairs")) P = atof (v) ;
        else if (!strcmp (o, "--rows")) rows = atoll (v) ;
        else if (!strcmp (o, "--metrics"))
        {
            snprintf (mlist, sizeof (mlist), "%s", v) ;
            if (!strcmp (v, "all"))
            {
                mlist [0] = '\0' ;
                for (int q = 0 ; q < NMETRICS ; q++)
                {
                    strncat (mlist, q ? "," : "", sizeof (mlist) - strlen (mlist) - 1) ;
                    strncat (mlist, metrics [q].name, sizeof (mlist) - strlen (mlist) - 1) ;
                }
            }
        }
        else if (!strcmp (o, "--ref-budget")) ref_budget = atof (v) ;
        else if (!strcmp (o, "--products")) W = atof (v) ;
        else if (!strcmp (o, "--quiet-wait")) quiet_wait = atof (v) ;
        else if (!strcmp (o, "--union-work")) U = atof (v) ;
        else if (!strcmp (o, "--ref-cols")) ref_cols = atoll (v) ;
        else if (!strcmp (o, "--reps")) reps = atoi (v) ;
        else if (!strcmp (o, "--threads")) threads = atoi (v) ;
        else { fprintf (stderr, "unknown option %s\n", o) ; return 2 ; }
        a++ ;
    }
    if (threads > 0) TRY (GxB_Global_Option_set (GxB_NTHREADS, threads)) ;
    TRY (GxB_Distance_set_backend (GxB_BACKEND_CPU)) ;
    int nthreads = 0 ;
    GxB_Global_Option_get (GxB_NTHREADS, &nthreads) ;
    printf ("INFO\tGraphBLAS threads %d\n", nthreads) ;

    for ( ; a < argc ; a++)
    {
        // NAME=PATH
        char name [256] ;
        const char *path = argv [a], *eq = strchr (argv [a], '=') ;
        if (eq != NULL)
        {
            snprintf (name, sizeof (name), "%.*s", (int) (eq - argv [a]),
                argv [a]) ;
            path = eq + 1 ;
        }
        else
        {
            const char *b = strrchr (path, '/') ;
            snprintf (name, sizeof (name), "%s", b ? b + 1 : path) ;
            char *dot = strstr (name, ".mtx") ;
            if (dot) *dot = '\0' ;
        }
        GrB_Matrix B = NULL ;
        double t = now () ;
        if (GXD_mtx_read (&B, GrB_FP32, path) != GrB_SUCCESS) return 1 ;
        GrB_Index n, k, nnz ;
        TRY (GrB_Matrix_nrows (&n, B)) ;
        TRY (GrB_Matrix_ncols (&k, B)) ;
        TRY (GrB_Matrix_nvals (&nnz, B)) ;
        GrB_Index R = (rows == 0) ? n : (rows > 0) ? (GrB_Index) rows :
            (GrB_Index) fmax (1, floor (P / (double) n)) ;
        if (R > n) R = n ;
        double *prod = products_per_row (B) ;
        if (rows < 0)
        {
            // also keep the intersection work of the slice under W
            double w = 0 ;
            for (GrB_Index i = 0 ; i < R ; i++)
            {
                w += prod [i] ;
                if (w > W && i > 0) { R = i ; break ; }
            }
        }
        double work = 0 ;
        for (GrB_Index i = 0 ; i < R ; i++) work += prod [i] ;
        free (prod) ;
        printf ("DATA\t%s\t%llu\t%llu\t%llu\t%llu\t%s\t%.1f\t%.4g\n",
            name, (unsigned long long) n, (unsigned long long) k,
            (unsigned long long) nnz, (unsigned long long) R, path,
            now () - t, work) ;
        fflush (stdout) ;
        GrB_Matrix A = rows_of (B, 0, R) ;
        // a union pair costs about |a| + |b| steps (2 nnz/n on average)
        double steps = fmax (1, 2.0 * (double) nnz / (double) fmax (1, n)) ;
        GrB_Index Ru = (GrB_Index) fmax (1, floor (U / ((double) n * steps))) ;
        if (Ru > R) Ru = R ;
        GrB_Matrix Au = rows_of (B, 0, Ru) ;

        // plain SuiteSparse intersection product A*B', same slice
        GrB_Index snv = 0 ;
        double ts = time_mxm (A, B, reps, &snv) ;
        char buf [64] ;
        snprintf (buf, sizeof (buf), "nnz=%llu", (unsigned long long) snv) ;
        result (name, "suitesparse_mxm", "PLUS_TIMES", R, n, ts, buf) ;

        char ml [1024] ;
        snprintf (ml, sizeof (ml), "%s", mlist) ;
        for (char *tok = strtok (ml, ",") ; tok ; tok = strtok (NULL, ","))
        {
            int h = 0 ;
            while (h < NMETRICS && strcasecmp (tok, metrics [h].name)) h++ ;
            if (h == NMETRICS)
            {
                fprintf (stderr, "unknown metric %s\n", tok) ;
                return 2 ;
            }
            metric *M = &metrics [h] ;

            // gxbdist CPU backend on R x n (CHEBYSHEV, a union pass, on
            // Ru x n)
            bool union_only = (strcmp (M->name, "CHEBYSHEV") == 0) ;
            double tg = time_gxbdist (*M->s, union_only ? Au : A, B, reps,
                NULL) ;
            result (name, "gxbdist_cpu", M->name, union_only ? Ru : R, n, tg,
                "-") ;
            if (do_union && !union_only)
            {
                // the other scheme: every pair merged over its union
                TRY (GxB_Distance_set_exact_union (true)) ;
                double tu = time_gxbdist (*M->s, Au, B, reps, NULL) ;
                TRY (GxB_Distance_set_exact_union (false)) ;
                result (name, "gxbdist_cpu_union", M->name, Ru, n, tu, "-") ;
            }
            if (!do_ref) continue ;

            // the reference on a slice: r rows of A x c rows of B, grown 4x
            // at a time (c first, then r) while a run takes under a quarter
            // of the budget (a union metric costs O(r c k) by dense
            // completion, an expanded one about O(r c))
            GrB_Index cmax = (ref_cols > 0 && (GrB_Index) ref_cols < n) ?
                (GrB_Index) ref_cols : n ;
            GrB_Index r = 1, c = (cmax < 256) ? cmax : 256 ;
            double tr = 0, ref_busy = 0 ;
            GrB_Matrix D = NULL, As = NULL, Bs = NULL ;
            for (;;)
            {
                As = rows_of (B, 0, r) ;
                Bs = rows_of (B, 0, c) ;
                if (r == 1 && c <= 256) ref_busy = wait_quiet () ;
                double t0 = now () ;
                TRY (GXO_metric (&D, M->name, 0, GrB_FP32, As, Bs)) ;
                TRY (GrB_Matrix_wait (D, GrB_MATERIALIZE)) ;
                tr = now () - t0 ;
                if (tr * 4 > ref_budget || (r >= R && c >= cmax)) break ;
                GrB_Matrix_free (&D) ;
                GrB_Matrix_free (&As) ;
                GrB_Matrix_free (&Bs) ;
                if (c < cmax) c = (4 * c < cmax) ? 4 * c : cmax ;
                else r = (4 * r < R) ? 4 * r : R ;
            }
            // gxbdist on the same slice, for the error column
            GrB_Matrix G = NULL ;
            time_gxbdist (*M->s, As, Bs, 1, &G) ;
            snprintf (buf, sizeof (buf), "%.2g", max_rel_err (G, D)) ;
            last_busy = ref_busy ;
            result (name, "reference", M->name, r, c, tr, buf) ;
            GrB_Matrix_free (&G) ;
            GrB_Matrix_free (&D) ;
            GrB_Matrix_free (&As) ;
            GrB_Matrix_free (&Bs) ;
        }
        GrB_Matrix_free (&A) ;
        GrB_Matrix_free (&Au) ;
        GrB_Matrix_free (&B) ;
    }
    return 0 ;
}

//------------------------------------------------------------------------------
// main
//------------------------------------------------------------------------------

int main (int argc, char **argv)
{
    if (argc < 2)
    {
        fprintf (stderr, "usage: cpu_bench gen OUT.mtx m k d seed\n"
            "       cpu_bench run [options] NAME=PATH ...\n"
            "(see the top of bench/cpu_bench.c)\n") ;
        return 2 ;
    }
    TRY (GrB_init (GrB_NONBLOCKING)) ;
    TRY (GxB_Distance_init ()) ;
    int status = 2 ;
    if (!strcmp (argv [1], "gen") && argc == 7)
    {
        status = gen (argv [2], atoll (argv [3]), atoll (argv [4]),
            atof (argv [5]), (uint64_t) atoll (argv [6])) ;
    }
    else if (!strcmp (argv [1], "run"))
    {
        status = run (argc - 2, argv + 2) ;
    }
    else
    {
        fprintf (stderr, "cpu_bench: bad command (see bench/cpu_bench.c)\n") ;
    }
    TRY (GxB_Distance_finalize ()) ;
    TRY (GrB_finalize ()) ;
    return status ;
}
