// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// bench/user_op_bench.c: a user's operator against the built-in metric
//------------------------------------------------------------------------------

// A program, not a timed test (issue 18, "Benchmarks").  For each Matrix
// Market file, B = all its rows and A = its first R rows, FP32 (or FP64),
// and for three user distances beside the built-in metric they equal:
//
//      |x-y| under PLUS          MANHATTAN
//      (x-y)^2 under PLUS        SQEUCLIDEAN
//      |x-y| under MAX           CHEBYSHEV
//
// it times C = d(A, B) on one backend (the CPU's unless --backend gpu) with
// the built-in semiring, with the user's operator compiled from its C
// definition (gxd_jit.c; the module already loaded), and with the same
// operator made without a definition (GraphBLAS evaluates it in bulk,
// gxd_union_graphblas.c; on fewer rows when the compiled one is slow
// enough to predict a long run).  The built-in's and the compiled
// operator's timed calls alternate, so that both meet the same state of
// the machine.  The first call's latency is measured twice: with an empty
// disk cache (the compile, of a text no compiler has seen: user_semiring)
// and with the module on disk but not loaded (best of N), each less the
// steady call.  Every result is compared with the built-in one.
//
// usage: user_op_bench [--backend cpu|gpu] [--rows R] [--reps N]
//                      [--pointer-budget S] FILE...
//   --backend B         (cpu) GxB_Distance_set_backend; the GraphBLAS path
//                       runs on the CPU either way
//   --rows R            (400) rows of A (0 = all)
//   --reps N            (3) best of N runs
//   --pointer-budget S  (20) seconds one GraphBLAS-path run may take
//                       (predicted from a 1/8 slice first)
//   --knn K             (10) also time GxB_kNN with K neighbors, built-in
//                       against compiled (0: not), best of N runs and at
//                       least KNN_REPS
//   --type T            (fp32) the values' type: fp32 or fp64
// Output: one RESULT line per measurement, then a table of ratios:
//   RESULT name metric impl rows cols seconds ms_per_Mpair max_rel_diff

#define _POSIX_C_SOURCE 200809L
#include <gxbdist.h>
#include "gxd_mtx.h"
#define GXD_PROG "user_op_bench"
#include "gxd_prog.h"
#include "gxd_test_hooks.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

//------------------------------------------------------------------------------
// the user's operators (FP32 and FP64), with the definitions they are
// compiled from
//------------------------------------------------------------------------------

// |x-y| and (x-y)^2 in type T, named with suffix S
#define BENCH_OPS(T, S, ABS)                                                 \
    static void absdiff ## S (void *z, const void *x, const void *y)         \
    { *(T *) z = ABS (*(const T *) x - *(const T *) y) ; }                   \
    static void sqdiff ## S (void *z, const void *x, const void *y)          \
    { T d = *(const T *) x - *(const T *) y ; *(T *) z = d * d ; }
BENCH_OPS (float, , fabsf)
BENCH_OPS (double, 64, fabs)

#define ABSDIFF_DEFN "void bench_absdiff (float *z, const float *x, " \
    "const float *y) { (*z) = fabsf ((*x) - (*y)) ; }"
#define SQDIFF_DEFN "void bench_sqdiff (float *z, const float *x, " \
    "const float *y) { float d = (*x) - (*y) ; (*z) = d * d ; }"

#define ABSDIFF64_DEFN "void bench_absdiff64 (double *z, const double *x, " \
    "const double *y) { (*z) = fabs ((*x) - (*y)) ; }"
#define SQDIFF64_DEFN "void bench_sqdiff64 (double *z, const double *x, " \
    "const double *y) { double d = (*x) - (*y) ; (*z) = d * d ; }"

typedef struct
{
    const char *metric ;            // the built-in metric it equals
    GrB_Semiring *builtin, *builtin64 ;
    GxB_binary_function f, f64 ;
    const char *name, *defn, *name64, *defn64 ;
    bool max ;                      // (+) = MAX, else PLUS
}
comparison ;

static const comparison comparisons [ ] =
{
    { "MANHATTAN", &GxB_DIST_MANHATTAN_FP32, &GxB_DIST_MANHATTAN_FP64, absdiff,
      absdiff64, "bench_absdiff", ABSDIFF_DEFN, "bench_absdiff64", ABSDIFF64_DEFN, false },
    { "SQEUCLIDEAN", &GxB_DIST_SQEUCLIDEAN_FP32, &GxB_DIST_SQEUCLIDEAN_FP64, sqdiff,
      sqdiff64, "bench_sqdiff", SQDIFF_DEFN, "bench_sqdiff64", SQDIFF64_DEFN, false },
    { "CHEBYSHEV", &GxB_DIST_CHEBYSHEV_FP32, &GxB_DIST_CHEBYSHEV_FP64, absdiff,
      absdiff64, "bench_absdiff", ABSDIFF_DEFN, "bench_absdiff64", ABSDIFF64_DEFN, true },
} ;
#define NCOMP ((int) (sizeof (comparisons) / sizeof (comparisons [0])))

// the NAMM semiring of c's operator, with or without its definition
static bool fp64 = false ;                  // --type fp64, else FP32
#define VT (fp64 ? GrB_FP64 : GrB_FP32)
#define BUILTIN(c) (fp64 ? *(c)->builtin64 : *(c)->builtin)

// With a definition, its text starts with a declaration of its own (a
// typedef named by the process, the time and a count): NVRTC keeps the
// results of earlier compiles across processes, and a text it has seen
// would make the first call's "cold" latency a repeat compile, not the
// first compile that a new operator pays.
static void user_semiring (GrB_Semiring *s, GxB_NAMM *namm, GrB_BinaryOp *op,
    const comparison *c, bool defn)
{
    static int made = 0 ;
    char text [512] ;               // GraphBLAS keeps a copy
    if (defn)
    {
        snprintf (text, sizeof (text), "typedef int bench_fresh_%ld_%ld_%d ; %s",
            (long) getpid ( ), (long) time (NULL), made++,
            fp64 ? c->defn64 : c->defn) ;
    }
    TRY (GxB_BinaryOp_new (op, fp64 ? c->f64 : c->f, VT, VT, VT,
        fp64 ? c->name64 : c->name, defn ? text : NULL)) ;
    TRY (GxB_NAMM_new (namm, *op, 0)) ;
    TRY (GxB_Semiring_new_NAMM (s, c->max
        ? (fp64 ? GrB_MAX_MONOID_FP64 : GrB_MAX_MONOID_FP32)
        : (fp64 ? GrB_PLUS_MONOID_FP64 : GrB_PLUS_MONOID_FP32), *namm)) ;
}

static void user_semiring_free (GrB_Semiring *s, GxB_NAMM *namm,
    GrB_BinaryOp *op)
{
    GrB_Semiring_free (s) ;
    TRY (GxB_NAMM_free (namm)) ;
    GrB_BinaryOp_free (op) ;
}

//------------------------------------------------------------------------------
// timing
//------------------------------------------------------------------------------

static int reps = 3 ;
static uint64_t knn = 10 ;                  // --knn (0: none)
// a kNN call takes milliseconds, where the best of 3 moves by a tenth from
// one run to the next
#define KNN_REPS 10

// seconds of one C = d(A, B), or with nn > 0 C = the nn nearest rows of B
// to each row of A (C new)
static double timed_call (GrB_Matrix *C, GrB_Semiring s, GrB_Matrix A,
    GrB_Matrix B, uint64_t nn)
{
    GrB_Index m, n ;
    TRY (GrB_Matrix_nrows (&m, A)) ;
    TRY (GrB_Matrix_nrows (&n, B)) ;
    GrB_Matrix_free (C) ;
    TRY (GrB_Matrix_new (C, VT, m, n)) ;
    double t = now ( ) ;
    if (nn > 0) { TRY (GxB_kNN (*C, NULL, s, nn, A, B, NULL)) ; }
    else { TRY (GxB_mxm_distance (*C, NULL, NULL, s, A, B, NULL)) ; }
    return now ( ) - t ;
}

static double one_run (GrB_Matrix *C, GrB_Semiring s, GrB_Matrix A,
    GrB_Matrix B)
{
    return timed_call (C, s, A, B, 0) ;
}

static double best_of (GrB_Matrix *C, GrB_Semiring s, GrB_Matrix A,
    GrB_Matrix B, int n)
{
    double best = INFINITY ;
    for (int r = 0 ; r < n ; r++)
    {
        double t = one_run (C, s, A, B) ;
        if (t < best) best = t ;
    }
    return best ;
}

// entries of two kNN results that differ in column or by more than a
// relative 1e-5 in value (ties at distances equal to within rounding may
// pick other columns), and their count
static GrB_Index knn_diff (GrB_Matrix C, GrB_Matrix R, GrB_Index *nvals)
{
    GrB_Index nc, nr ;
    TRY (GrB_Matrix_nvals (&nc, C)) ;
    TRY (GrB_Matrix_nvals (&nr, R)) ;
    *nvals = nr ;
    if (nc != nr) return (nc > nr) ? nc : nr ;
    GrB_Index *ic = malloc ((nc + 1) * sizeof (GrB_Index)), *jc = malloc ((nc + 1) * sizeof (GrB_Index)) ;
    GrB_Index *ir = malloc ((nc + 1) * sizeof (GrB_Index)), *jr = malloc ((nc + 1) * sizeof (GrB_Index)) ;
    double *xc = malloc ((nc + 1) * sizeof (double)), *xr = malloc ((nc + 1) * sizeof (double)) ;
    if (!ic || !jc || !ir || !jr || !xc || !xr) { fprintf (stderr, "out of memory\n") ; exit (1) ; }
    TRY (GrB_Matrix_extractTuples_FP64 (ic, jc, xc, &nc, C)) ;
    TRY (GrB_Matrix_extractTuples_FP64 (ir, jr, xr, &nr, R)) ;
    GrB_Index bad = 0 ;
    for (GrB_Index q = 0 ; q < nc ; q++)
    {
        bad += ic [q] != ir [q] || jc [q] != jr [q]
            || !(fabs (xc [q] - xr [q]) <= 1e-5 * fabs (xr [q])) ;
    }
    free (ic) ; free (jc) ; free (ir) ; free (jr) ; free (xc) ; free (xr) ;
    return bad ;
}

// max |C - R| / max (|R|, 1e-30) over C's rows (C may have fewer rows)
static double max_rel (GrB_Matrix C, GrB_Matrix R)
{
    GrB_Index m, n ;
    TRY (GrB_Matrix_nrows (&m, C)) ;
    TRY (GrB_Matrix_ncols (&n, C)) ;
    double *c = malloc ((m * n + 1) * sizeof (double)) ;
    double *r = malloc ((m * n + 1) * sizeof (double)) ;
    if (c == NULL || r == NULL) { fprintf (stderr, "out of memory\n") ; exit (1) ; }
    GrB_Matrix Rm = NULL ;
    TRY (GrB_Matrix_new (&Rm, VT, m, n)) ;
    TRY (GrB_Matrix_extract (Rm, NULL, NULL, R, (GrB_Index [ ]) { 0, m - 1 },
        GxB_RANGE, GrB_ALL, n, NULL)) ;
    TRY (GrB_Matrix_extractTuples_FP64 (NULL, NULL, c, &(GrB_Index) { m * n }, C)) ;
    TRY (GrB_Matrix_extractTuples_FP64 (NULL, NULL, r, &(GrB_Index) { m * n }, Rm)) ;
    double worst = 0 ;
    for (GrB_Index q = 0 ; q < m * n ; q++)
    {
        double d = fabs (c [q] - r [q]) / fmax (fabs (r [q]), 1e-30) ;
        if (d > worst || d != d) worst = d ;
    }
    GrB_Matrix_free (&Rm) ;
    free (c) ;
    free (r) ;
    return worst ;
}

static void result (const char *name, const char *metric, const char *impl,
    GrB_Index rows, GrB_Index cols, double sec, double err)
{
    printf ("RESULT\t%s\t%s\t%s\t%lu\t%lu\t%.6f\t%.4f\t%.2g\n", name, metric,
        impl, (unsigned long) rows, (unsigned long) cols, sec,
        1e3 * sec / ((double) rows * cols / 1e6), err) ;
    fflush (stdout) ;
}

//------------------------------------------------------------------------------
// one dataset
//------------------------------------------------------------------------------

typedef struct { double builtin, compiled, pointer, cold, disk, knn_builtin,
    knn_compiled, knn_cold ; } row_times ;

static void dataset (const char *path, GrB_Index rows, double budget,
    row_times times [NCOMP], char *name, size_t name_len)
{
    const char *base = strrchr (path, '/') ;
    snprintf (name, name_len, "%s", base ? base + 1 : path) ;
    char *dot = strstr (name, ".mtx") ;
    if (dot) *dot = '\0' ;
    GrB_Matrix B = NULL, A = NULL ;
    TRY (GXD_mtx_read (&B, VT, path)) ;
    GrB_Index n, k ;
    TRY (GrB_Matrix_nrows (&n, B)) ;
    TRY (GrB_Matrix_ncols (&k, B)) ;
    GrB_Index m = (rows == 0 || rows > n) ? n : rows ;
    TRY (GrB_Matrix_new (&A, VT, m, k)) ;
    TRY (GrB_Matrix_extract (A, NULL, NULL, B, (GrB_Index [ ]) { 0, m - 1 },
        GxB_RANGE, GrB_ALL, k, NULL)) ;
    for (int q = 0 ; q < NCOMP ; q++)
    {
        const comparison *c = &comparisons [q] ;
        row_times *t = &times [q] ;
        GrB_Matrix R = NULL, C = NULL ;
        // the built-in once first, so that the compiled operator's first
        // call pays for its own compile only
        (void) one_run (&R, BUILTIN (c), A, B) ;

        // compiled: the first call with an empty cache, then from the disk
        // with nothing loaded (best of reps), then the steady state, its
        // calls alternating with the built-in's
        GrB_Semiring s ; GxB_NAMM namm ; GrB_BinaryOp op ;
        char dir [] = "/tmp/gxd_bench_jit_XXXXXX" ;
        if (mkdtemp (dir) == NULL) { perror ("mkdtemp") ; exit (1) ; }
        setenv ("GXBDIST_CACHE_DIR", dir, 1) ;
        GXD_jit_clear ( ) ;
        user_semiring (&s, &namm, &op, c, true) ;
        double first = one_run (&C, s, A, B), from_disk = INFINITY ;
        for (int r = 0 ; r < reps ; r++)
        {
            GXD_jit_clear ( ) ;
            from_disk = fmin (from_disk, one_run (&C, s, A, B)) ;
        }
        t->builtin = t->compiled = INFINITY ;
        for (int r = 0 ; r < reps ; r++)
        {
            t->builtin = fmin (t->builtin, one_run (&R, BUILTIN (c), A, B)) ;
            t->compiled = fmin (t->compiled, one_run (&C, s, A, B)) ;
        }
        t->cold = first - t->compiled ;
        t->disk = from_disk - t->compiled ;
        result (name, c->metric, "builtin", m, n, t->builtin, 0) ;
        result (name, c->metric, "compiled", m, n, t->compiled, max_rel (C, R)) ;
        printf ("LATENCY\t%s\t%s\tcold %.4f s\tfrom disk %.4f s\n", name,
            c->metric, t->cold, t->disk) ;
        // the k nearest rows: the same products, no dense result to move
        t->knn_builtin = t->knn_compiled = 0 ;
        if (knn > 0)
        {
            GrB_Matrix Rk = NULL, Ck = NULL ;
            t->knn_builtin = t->knn_compiled = INFINITY ;
            // the kNN's kernels are a program of their own: its first call
            // compiles it, for an operator of a text no compiler has seen
            // (a new definition: the all-pairs one's compile is no help)
            (void) timed_call (&Rk, BUILTIN (c), A, B, knn) ;
            user_semiring_free (&s, &namm, &op) ;
            user_semiring (&s, &namm, &op, c, true) ;
            const double kfirst = timed_call (&Ck, s, A, B, knn) ;
            // the steady state: the whole program, which compiles on a
            // thread while the first calls run the operator linked with the
            // library's template (cuda/gpu_nvrtc.cu)
            int64_t linked, swaps ;
            GXD_jit_gpu_tiers (&linked, &swaps) ;
            for (int r = 0 ; r < reps || r < KNN_REPS ; r++)
            {
                t->knn_builtin = fmin (t->knn_builtin, timed_call (&Rk, BUILTIN (c), A, B, knn)) ;
                t->knn_compiled = fmin (t->knn_compiled, timed_call (&Ck, s, A, B, knn)) ;
            }
            t->knn_cold = kfirst - t->knn_compiled ;
            GrB_Index nv, bad = knn_diff (Ck, Rk, &nv) ;
            GrB_Matrix_free (&Rk) ;
            GrB_Matrix_free (&Ck) ;
            printf ("KNN\t%s\t%s\tk %lu\tbuilt-in %.6f s\tcompiled %.6f s\t"
                "first call cold %.4f s\t%lu of %lu entries differ\n", name,
                c->metric, (unsigned long) knn, t->knn_builtin, t->knn_compiled,
                t->knn_cold, (unsigned long) bad, (unsigned long) nv) ;
        }
        user_semiring_free (&s, &namm, &op) ;
        char cmd [128] ;
        snprintf (cmd, sizeof (cmd), "rm -rf %s", dir) ;
        if (system (cmd) != 0) fprintf (stderr, "could not remove %s\n", dir) ;

        // no definition: GraphBLAS evaluates the operator, on a slice of A
        // when a 1/8 slice predicts more than the budget
        user_semiring (&s, &namm, &op, c, false) ;
        GrB_Index ms = (m >= 8) ? m / 8 : m ;
        GrB_Matrix As = NULL ;
        TRY (GrB_Matrix_new (&As, VT, ms, k)) ;
        TRY (GrB_Matrix_extract (As, NULL, NULL, A, (GrB_Index [ ]) { 0, ms - 1 },
            GxB_RANGE, GrB_ALL, k, NULL)) ;
        double ts = one_run (&C, s, As, B) ;
        GrB_Index mp = (ts * m / ms <= budget) ? m : ms ;
        double tp = (mp == m) ? best_of (&C, s, A, B, reps) : ts ;
        t->pointer = tp * (double) m / (double) mp ;
        result (name, c->metric, "no_definition", mp, n, tp, max_rel (C, R)) ;
        GrB_Matrix_free (&As) ;
        user_semiring_free (&s, &namm, &op) ;
        GrB_Matrix_free (&R) ;
        GrB_Matrix_free (&C) ;
    }
    GrB_Matrix_free (&A) ;
    GrB_Matrix_free (&B) ;
}

int main (int argc, char **argv)
{
    GrB_Index rows = 400 ;
    double budget = 20 ;
    GxB_Backend backend = GxB_BACKEND_CPU ;
    int a = 1 ;
    for ( ; a < argc && strncmp (argv [a], "--", 2) == 0 ; a++)
    {
        if (a + 1 >= argc) { fprintf (stderr, "%s needs a value\n", argv [a]) ; return 2 ; }
        if (strcmp (argv [a], "--rows") == 0) rows = strtoull (argv [++a], NULL, 10) ;
        else if (strcmp (argv [a], "--reps") == 0) reps = atoi (argv [++a]) ;
        else if (strcmp (argv [a], "--pointer-budget") == 0) budget = atof (argv [++a]) ;
        else if (strcmp (argv [a], "--knn") == 0) knn = strtoull (argv [++a], NULL, 10) ;
        else if (strcmp (argv [a], "--type") == 0) fp64 = (strcmp (argv [++a], "fp64") == 0) ;
        else if (strcmp (argv [a], "--backend") == 0)
            backend = (strcmp (argv [++a], "gpu") == 0) ? GxB_BACKEND_GPU : GxB_BACKEND_CPU ;
        else { fprintf (stderr, "unknown option %s\n", argv [a]) ; return 2 ; }
    }
    if (a == argc)
    {
        fprintf (stderr, "usage: user_op_bench [--backend cpu|gpu] [--rows R] [--reps N] "
            "[--pointer-budget S] [--knn K] [--type fp32|fp64] FILE.mtx[.gz] ...\n") ;
        return 2 ;
    }
    TRY (GrB_init (GrB_NONBLOCKING)) ;
    TRY (GxB_Distance_init ( )) ;
    TRY (GxB_Distance_set_backend (backend)) ;
    printf ("INFO\t%s backend, %ld cores online, %s, A = first %lu rows "
        "(0: all), B = all rows\n", backend == GxB_BACKEND_GPU ? "GPU" : "CPU",
        sysconf (_SC_NPROCESSORS_ONLN), fp64 ? "FP64" : "FP32", (unsigned long) rows) ;
    int nsets = argc - a ;
    row_times (*times) [NCOMP] = calloc (nsets, sizeof (*times)) ;
    char (*names) [64] = calloc (nsets, sizeof (*names)) ;
    for (int d = 0 ; d < nsets ; d++)
    {
        dataset (argv [a + d], rows, budget, times [d], names [d], 64) ;
    }
    printf ("\n| dataset | metric | built-in ms | compiled ms | compiled / "
        "built-in | no definition ms | no definition / built-in | first call "
        "cold, from disk (ms) |\n|---|---|---|---|---|---|---|---|\n") ;
    for (int d = 0 ; d < nsets ; d++)
        for (int q = 0 ; q < NCOMP ; q++)
        {
            row_times *t = &times [d][q] ;
            printf ("| %s | %s | %.1f | %.1f | %.2f | %.1f | %.1f | %.0f, %.1f |\n",
                names [d], comparisons [q].metric, 1e3 * t->builtin,
                1e3 * t->compiled, t->compiled / t->builtin, 1e3 * t->pointer,
                t->pointer / t->builtin, 1e3 * t->cold, 1e3 * t->disk) ;
        }
    if (knn > 0)
    {
        printf ("\n| dataset | metric | kNN (k = %lu) built-in ms | compiled ms | "
            "compiled / built-in | first call cold (ms) |\n|---|---|---|---|---|---|\n",
            (unsigned long) knn) ;
        for (int d = 0 ; d < nsets ; d++)
            for (int q = 0 ; q < NCOMP ; q++)
            {
                row_times *t = &times [d][q] ;
                printf ("| %s | %s | %.1f | %.1f | %.2f | %.0f |\n", names [d],
                    comparisons [q].metric, 1e3 * t->knn_builtin,
                    1e3 * t->knn_compiled, t->knn_compiled / t->knn_builtin,
                    1e3 * t->knn_cold) ;
            }
    }
    free (times) ;
    free (names) ;
    TRY (GxB_Distance_finalize ( )) ;
    TRY (GrB_finalize ( )) ;
    return 0 ;
}
