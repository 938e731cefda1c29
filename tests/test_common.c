// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// tests/test_common.c: seeded data, builders, snapshots and oracle checks
//------------------------------------------------------------------------------

// Shared by every test file (see test_common.h).  Uses only the public API of
// gxbdist, SuiteSparse:GraphBLAS and the reference (reference/oracle).

#include "test_common.h"
#include "gxd_metric_list.h"
#include "gxd_info_name.h"
#include <time.h>
#include <inttypes.h>

//------------------------------------------------------------------------------
// seeded random numbers: splitmix64
//------------------------------------------------------------------------------

static uint64_t base_seed = 0 ;
static uint64_t rng_state = 0 ;
static const char *test_name = "(none)" ;
bool gxt_verify_at_init = false ;
CMFixtureFunction gxt_setup = NULL, gxt_teardown = NULL ;
gxt_memory gxt_memory_functions = { NULL, NULL, NULL, NULL } ;

uint64_t gxt_base_seed (void) { return base_seed ; }
const char *gxt_test (void) { return test_name ; }

uint64_t gxt_rand (void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL) ;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL ;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL ;
    return z ^ (z >> 31) ;
}

double gxt_uniform (void)
{
    return (double) (gxt_rand ( ) >> 11) * 0x1.0p-53 ;
}

int64_t gxt_int (int64_t lo, int64_t hi)
{
    if (hi <= lo) return lo ;
    return lo + (int64_t) (gxt_rand ( ) % (uint64_t) (hi - lo + 1)) ;
}

void gxt_reseed (const char *name)
{
    // FNV-1a of the name, mixed with the base seed
    uint64_t h = 1469598103934665603ULL ;
    for (const char *c = name ; *c ; c++) { h ^= (unsigned char) *c ; h *= 1099511628211ULL ; }
    rng_state = base_seed ^ h ;
    test_name = name ;
    gxt_rand ( ) ;
}

static void seed_init (void)
{
    const char *s = getenv ("GXBDIST_TEST_SEED") ;
    if (s != NULL && *s) base_seed = strtoull (s, NULL, 0) ;
    else base_seed = (uint64_t) time (NULL) ;
    printf ("[ SEED     ] GXBDIST_TEST_SEED=%" PRIu64 "\n", base_seed) ;
}

//------------------------------------------------------------------------------
// main
//------------------------------------------------------------------------------

GrB_Type gxt_builtin_types [11] ;
const int gxt_nbuiltin_types = 11 ;

// Which backend this suite runs on, and why: without a GPU only the CPU
// backend is tested, and the log says so (scripts/test.sh counts these lines)
static void print_backend (void)
{
    GxB_Backend chosen = GxB_BACKEND_AUTO, active = GxB_BACKEND_CPU ;
    GxB_Distance_get_backend (&chosen) ;
    GxB_Distance_active_backend (&active) ;
    // asking for the GPU fails, changing nothing, where none is usable
    bool usable = (GxB_Distance_set_backend (GxB_BACKEND_GPU) == GrB_SUCCESS) ;
    GxB_Distance_set_backend (chosen) ;
    printf ("[ BACKEND  ] %s\n", (active == GxB_BACKEND_GPU) ? "gpu"
        : usable ? "cpu (GXBDIST_BACKEND=cpu: the GPU backend is not tested)"
        : "cpu (no GPU found, or built without CUDA: the GPU backend is not tested)") ;
}

int gxt_main (const char *group, const struct CMUnitTest *tests, size_t ntests)
{
    seed_init ( ) ;
    const gxt_memory *mem = &gxt_memory_functions ;
    GrB_Info started = (mem->malloc_function == NULL) ? GrB_init (GrB_NONBLOCKING)
        : GxB_init (GrB_NONBLOCKING, mem->malloc_function, mem->calloc_function,
            mem->realloc_function, mem->free_function) ;
    if (started != GrB_SUCCESS) { fprintf (stderr, "GrB_init failed\n") ; return 1 ; }
    if (getenv ("GXBDIST_TEST_NO_POOL") != NULL)
    {
        // under valgrind: no free pool, so a leak is reported where it was
        // allocated, not where the block was first malloc'ed
        int64_t pool [64] = { 0 } ;
        GxB_Global_Option_set (GxB_MEMORY_POOL, pool) ;
    }
    GrB_Info info = (mem->malloc_function == NULL) ? GxB_Distance_init ( )
        : GxB_Distance_init_memory (mem->malloc_function, mem->calloc_function,
            mem->realloc_function, mem->free_function) ;
    if (info != GrB_SUCCESS)
    {
        fprintf (stderr, "GxB_Distance_init failed: %d\n", (int) info) ;
        GrB_finalize ( ) ;
        return 1 ;
    }
    GxB_Distance_get_verify (&gxt_verify_at_init) ;
    print_backend ( ) ;
    GrB_Type t [11] = { GrB_BOOL, GrB_INT8, GrB_INT16, GrB_INT32, GrB_INT64,
        GrB_UINT8, GrB_UINT16, GrB_UINT32, GrB_UINT64, GrB_FP32, GrB_FP64 } ;
    memcpy (gxt_builtin_types, t, sizeof (t)) ;
    int rc = _cmocka_run_group_tests (group, tests, ntests, gxt_setup, gxt_teardown) ;
    GxB_Distance_finalize ( ) ;
    GrB_finalize ( ) ;
    if (rc != 0) printf ("[ SEED     ] failures above: rerun with GXBDIST_TEST_SEED=%" PRIu64 "\n", base_seed) ;
    return rc ;
}

//------------------------------------------------------------------------------
// failing
//------------------------------------------------------------------------------

const char *gxt_info_name (GrB_Info info)
{
    const char *name = GXD_info_name (info) ;
    return (name != NULL) ? name : "(unknown GrB_Info)" ;
}

const char *gxt_message (void)
{
    const char *msg = NULL ;
    if (GxB_Distance_error (&msg) != GrB_SUCCESS || msg == NULL) return "" ;
    return msg ;
}

void gxt_fail (const char *file, int line, const char *fmt, ...)
{
    char buf [16384] ;
    va_list ap ;
    va_start (ap, fmt) ;
    vsnprintf (buf, sizeof (buf), fmt, ap) ;
    va_end (ap) ;
    // not print_error: cmocka truncates its messages at 1 KB
    fprintf (stderr, "%s\n    [test %s, GXBDIST_TEST_SEED=%" PRIu64 "]\n", buf,
        test_name, base_seed) ;
    fflush (stderr) ;
    _fail (file, line) ;
}

void gxt_ok (GrB_Info info, const char *call, const char *file, int line)
{
    if (info == GrB_SUCCESS) return ;
    const char *msg = gxt_message ( ) ;
    gxt_fail (file, line, "%s returned %s (%d), message: \"%s\"", call,
        gxt_info_name (info), (int) info, msg) ;
}

void gxt_expect (GrB_Info expected, GrB_Info info, const char *call,
    const char *file, int line)
{
    const char *msg = gxt_message ( ) ;
    if (info != expected)
    {
        gxt_fail (file, line, "%s returned %s (%d), expected %s (%d); message: \"%s\"",
            call, gxt_info_name (info), (int) info, gxt_info_name (expected),
            (int) expected, msg) ;
    }
    if (expected != GrB_SUCCESS && (msg == NULL || msg [0] == '\0'))
    {
        gxt_fail (file, line, "%s returned %s as expected but GxB_Distance_error "
            "gives an empty message", call, gxt_info_name (info)) ;
    }
}

#define OK(call) GXT_OK (call)

//------------------------------------------------------------------------------
// metrics
//------------------------------------------------------------------------------

// the predefined metrics of GXD_METRICS (gxd_metric_list.h), their test
// flags from its columns, then Minkowski of a few p
#define FLAG_DOMAIN_ANY    0
#define FLAG_DOMAIN_NONNEG GXT_NONNEG
#define FLAG_SIGN_POS      0
#define FLAG_SIGN_ANY      GXT_SIGNED
#define FLAG_SELF_ZERO     0
#define FLAG_SELF_ANY      GXT_NOTZERO
#define FLAG_FLOOR_0       0
#define FLAG_FLOOR_1       GXT_UNIT
#define ENTRY_NONE(NAME, flags, empty)
#define ENTRY_TERM(NAME, flags, empty) \
    { #NAME, &GxB_DIST_ ## NAME ## _FP32, &GxB_DIST_ ## NAME ## _FP64, flags, 0, empty },
#define ENTRY_TIMES ENTRY_TERM
#define ENTRY(U, NAME, KIND, NACC, DOMAIN, GUARD, MULT, TERMS, SIGN, SELF,   \
    EMPTY, FLOOR, SCIPY)                                                    \
    ENTRY_ ## MULT (NAME, FLAG_DOMAIN_ ## DOMAIN | FLAG_SIGN_ ## SIGN         \
        | FLAG_SELF_ ## SELF | FLAG_FLOOR_ ## FLOOR, EMPTY)

const gxt_metric gxt_metrics [] =
{
    GXD_METRICS (ENTRY, ~)
    { "MINKOWSKI", NULL, NULL, 0, 1.0, 0 },
    { "MINKOWSKI", NULL, NULL, 0, 1.5, 0 },
    { "MINKOWSKI", NULL, NULL, 0, 3.0, 0 },
} ;

const int gxt_nmetrics = (int) (sizeof (gxt_metrics) / sizeof (gxt_metrics [0])) ;
#define PREDEFINED(U, NAME, KIND, NACC, DOMAIN, GUARD, MULT, ...) \
    + GXD_COL_MULT_ ## MULT
const int gxt_npredefined = 0 GXD_METRICS (PREDEFINED, ~) ;

const gxt_metric *gxt_metric_named (const char *name)
{
    for (int i = 0 ; i < gxt_nmetrics ; i++)
    {
        if (strcmp (gxt_metrics [i].name, name) == 0) return &gxt_metrics [i] ;
    }
    GXT_FAIL ("no metric named %s", name) ;
    return NULL ;
}

GrB_Semiring gxt_semiring (const gxt_metric *mt, GrB_Type type)
{
    if (mt->fp32 != NULL) return (type == GrB_FP32) ? *(mt->fp32) : *(mt->fp64) ;
    GrB_Semiring s = NULL ;
    OK (GxB_Semiring_new_minkowski (&s, mt->p, type)) ;
    return s ;
}

void gxt_semiring_free (const gxt_metric *mt, GrB_Semiring *s)
{
    if (mt->fp32 == NULL) GrB_Semiring_free (s) ;
    *s = NULL ;
}

double gxt_rtol (GrB_Type type)
{
    return (type == GrB_FP32) ? 1e-5 : 1e-12 ;
}

//------------------------------------------------------------------------------
// random matrices
//------------------------------------------------------------------------------

static double draw_value (gxt_values v)
{
    switch (v)
    {
        case GXT_NONNEG_VALUES: return (double) gxt_int (1, 24) / 8.0 ;
        case GXT_INTEGERS:      return (double) (gxt_int (1, 5) * (gxt_int (0, 1) ? 1 : -1)) ;
        case GXT_NATURALS:      return (double) gxt_int (1, 9) ;
        case GXT_MIXED:
        default:
        {
            double x = 0.05 + 3.95 * gxt_uniform ( ) ;
            return gxt_int (0, 1) ? x : -x ;
        }
    }
}

// shuffle tuples and build; dup is NULL: a duplicate is a builder bug
static void build (GrB_Matrix *A, GrB_Type type, GrB_Index m, GrB_Index k,
    GrB_Index *I, GrB_Index *J, double *X, GrB_Index nz)
{
    for (GrB_Index t = nz ; t > 1 ; t--)
    {
        GrB_Index s = gxt_rand ( ) % t ;
        GrB_Index ti = I [t-1] ; I [t-1] = I [s] ; I [s] = ti ;
        GrB_Index tj = J [t-1] ; J [t-1] = J [s] ; J [s] = tj ;
        double tx = X [t-1] ; X [t-1] = X [s] ; X [s] = tx ;
    }
    OK (GrB_Matrix_new (A, type, m, k)) ;
    OK (GrB_Matrix_build_FP64 (*A, I, J, X, nz, NULL)) ;
}

void gxt_revalue (GrB_Matrix A, double (*next) (void *), void *arg)
{
    GrB_Index nv ;
    OK (GrB_Matrix_nvals (&nv, A)) ;
    GrB_Index *I = malloc ((nv + 1) * sizeof (GrB_Index)) ;
    GrB_Index *J = malloc ((nv + 1) * sizeof (GrB_Index)) ;
    double *X = malloc ((nv + 1) * sizeof (double)) ;
    assert_non_null (I) ; assert_non_null (J) ; assert_non_null (X) ;
    OK (GrB_Matrix_extractTuples_FP64 (I, J, X, &nv, A)) ;
    for (GrB_Index q = 0 ; q < nv ; q++)
    {
        if (X [q] != 0) X [q] = next (arg) ;
    }
    OK (GrB_Matrix_clear (A)) ;
    OK (GrB_Matrix_build_FP64 (A, I, J, X, nv, NULL)) ;
    free (I) ; free (J) ; free (X) ;
}

double gxt_pool_value (void *pool)
{
    const gxt_pool *p = pool ;
    return (p->pool [gxt_int (0, p->npool - 1)]) ;
}

void gxt_random (GrB_Matrix *A, const gxt_spec *sp)
{
    GrB_Index m = sp->m, k = sp->k ;
    GrB_Index cap = m * k + 1 ;
    GrB_Index *I = malloc (cap * sizeof (GrB_Index)) ;
    GrB_Index *J = malloc (cap * sizeof (GrB_Index)) ;
    double *X = malloc (cap * sizeof (double)) ;
    GrB_Index *perm = malloc ((k + 1) * sizeof (GrB_Index)) ;
    bool *used = calloc (k + 1, sizeof (bool)) ;
    double *zipf = malloc ((k + 1) * sizeof (double)) ;
    assert_non_null (I) ; assert_non_null (J) ; assert_non_null (X) ;
    assert_non_null (perm) ; assert_non_null (used) ; assert_non_null (zipf) ;

    // cumulative Zipf(1.1) column probabilities, columns in random order
    for (GrB_Index c = 0 ; c < k ; c++) perm [c] = c ;
    for (GrB_Index c = k ; c > 1 ; c--)
    {
        GrB_Index s = gxt_rand ( ) % c ;
        GrB_Index t = perm [c-1] ; perm [c-1] = perm [s] ; perm [s] = t ;
    }
    double total = 0 ;
    for (GrB_Index c = 0 ; c < k ; c++) { total += pow ((double) (c + 1), -1.1) ; zipf [c] = total ; }

    GrB_Index nz = 0 ;
    for (GrB_Index i = 0 ; i < m ; i++)
    {
        bool empty = (sp->empty_frac > 0) &&
            (i == 0 || gxt_uniform ( ) < sp->empty_frac) ;
        if ((int64_t) i == sp->dense_row) empty = false ;
        if (empty || k == 0) continue ;
        if ((int64_t) i == sp->dense_row || sp->density >= 1)
        {
            for (GrB_Index c = 0 ; c < k ; c++)
            {
                I [nz] = i ; J [nz] = c ; X [nz] = draw_value (sp->values) ; nz++ ;
            }
        }
        else if (sp->powerlaw)
        {
            // degree 1 + Pareto(1.5) * d/2, d = density * k, capped at k/4
            double d = sp->density * (double) k ;
            double pareto = pow (1.0 - gxt_uniform ( ), -1.0 / 1.5) ;
            GrB_Index cap_deg = (k / 4 > 1) ? k / 4 : 1 ;
            GrB_Index deg = 1 + (GrB_Index) (pareto * d / 2) ;
            if (deg > cap_deg) deg = cap_deg ;
            GrB_Index got = 0 ;
            while (got < deg)
            {
                double u = gxt_uniform ( ) * total ;
                GrB_Index lo = 0, hi = k - 1 ;
                while (lo < hi) { GrB_Index mid = (lo + hi) / 2 ; if (zipf [mid] < u) lo = mid + 1 ; else hi = mid ; }
                GrB_Index c = perm [lo] ;
                if (used [c]) continue ;
                used [c] = true ;
                I [nz] = i ; J [nz] = c ; X [nz] = draw_value (sp->values) ; nz++ ;
                got++ ;
            }
            for (GrB_Index t = nz - got ; t < nz ; t++) used [J [t]] = false ;
        }
        else
        {
            for (GrB_Index c = 0 ; c < k ; c++)
            {
                if (gxt_uniform ( ) < sp->density)
                {
                    I [nz] = i ; J [nz] = c ; X [nz] = draw_value (sp->values) ; nz++ ;
                }
            }
        }
    }
    if (sp->zero_frac > 0)
    {
        for (GrB_Index t = 0 ; t < nz ; t++) if (gxt_uniform ( ) < sp->zero_frac) X [t] = 0 ;
    }
    build (A, GrB_FP64, m, k, I, J, X, nz) ;
    free (I) ; free (J) ; free (X) ; free (perm) ; free (used) ; free (zipf) ;
}

static const char *shape_names [GXT_NSHAPES] =
{
    "random", "wide", "empty_rows", "dense_row", "powerlaw", "explicit_zeros",
    "dense", "k1", "m0", "n0", "m1", "n1", "m1n1", "tall"
} ;

const char *gxt_shape_name (gxt_shape shape)
{
    return (shape >= 0 && shape < GXT_NSHAPES) ? shape_names [shape] : "?" ;
}

void gxt_pair (GrB_Matrix *A, GrB_Matrix *B, gxt_shape shape, gxt_values v)
{
    gxt_spec a = { 0 }, b ;
    a.values = v ;
    a.dense_row = -1 ;
    GrB_Index n = 0 ;
    switch (shape)
    {
        case GXT_SHAPE_RANDOM:
            a.m = gxt_int (8, 40) ; n = gxt_int (8, 40) ; a.k = gxt_int (3, 60) ;
            a.density = 0.1 + 0.5 * gxt_uniform ( ) ; break ;
        case GXT_SHAPE_WIDE:
            a.m = gxt_int (10, 40) ; n = gxt_int (10, 40) ; a.k = gxt_int (150, 300) ;
            a.density = 0.01 + 0.03 * gxt_uniform ( ) ; break ;
        case GXT_SHAPE_EMPTY_ROWS:
            a.m = gxt_int (10, 40) ; n = gxt_int (10, 40) ; a.k = gxt_int (10, 50) ;
            a.density = 0.3 ; a.empty_frac = 0.3 ; break ;
        case GXT_SHAPE_DENSE_ROW:
            a.m = gxt_int (10, 40) ; n = gxt_int (10, 40) ; a.k = gxt_int (20, 80) ;
            a.density = 0.05 ; break ;
        case GXT_SHAPE_POWERLAW:
            a.m = gxt_int (40, 100) ; n = gxt_int (40, 100) ; a.k = gxt_int (100, 250) ;
            a.density = 8.0 / (double) a.k ; a.powerlaw = true ; break ;
        case GXT_SHAPE_EXPLICIT_ZEROS:
            a.m = gxt_int (8, 40) ; n = gxt_int (8, 40) ; a.k = gxt_int (5, 40) ;
            a.density = 0.3 ; a.zero_frac = 0.25 ; break ;
        case GXT_SHAPE_DENSE:
            a.m = gxt_int (5, 20) ; n = gxt_int (5, 20) ; a.k = gxt_int (3, 20) ;
            a.density = 1 ; break ;
        case GXT_SHAPE_K1:
            a.m = gxt_int (5, 40) ; n = gxt_int (5, 40) ; a.k = 1 ;
            a.density = 0.7 ; break ;
        case GXT_SHAPE_M0:
            a.m = 0 ; n = gxt_int (5, 20) ; a.k = gxt_int (5, 20) ; a.density = 0.3 ; break ;
        case GXT_SHAPE_N0:
            a.m = gxt_int (5, 20) ; n = 0 ; a.k = gxt_int (5, 20) ; a.density = 0.3 ; break ;
        case GXT_SHAPE_M1:
            a.m = 1 ; n = gxt_int (5, 30) ; a.k = gxt_int (5, 30) ; a.density = 0.4 ; break ;
        case GXT_SHAPE_N1:
            a.m = gxt_int (5, 30) ; n = 1 ; a.k = gxt_int (5, 30) ; a.density = 0.4 ; break ;
        case GXT_SHAPE_M1N1:
            a.m = 1 ; n = 1 ; a.k = gxt_int (5, 20) ; a.density = 0.5 ; break ;
        case GXT_SHAPE_TALL:
        default:
            a.m = 150 ; n = 3 ; a.k = gxt_int (10, 40) ; a.density = 0.2 ; break ;
    }
    b = a ;
    b.m = n ;
    if (shape == GXT_SHAPE_DENSE_ROW)
    {
        a.dense_row = (int) gxt_int (0, (int64_t) a.m - 1) ;
        b.dense_row = (int) gxt_int (0, (int64_t) b.m - 1) ;
    }
    gxt_random (A, &a) ;
    gxt_random (B, &b) ;
}

// the tuples of A as doubles, in row-major order
static GrB_Index tuples (GrB_Matrix A, GrB_Index **I, GrB_Index **J, double **X)
{
    GrB_Index nz = 0 ;
    OK (GrB_Matrix_nvals (&nz, A)) ;
    *I = malloc ((nz + 1) * sizeof (GrB_Index)) ;
    *J = malloc ((nz + 1) * sizeof (GrB_Index)) ;
    *X = malloc ((nz + 1) * sizeof (double)) ;
    assert_non_null (*I) ; assert_non_null (*J) ; assert_non_null (*X) ;
    GrB_Index got = nz ;
    OK (GrB_Matrix_extractTuples_FP64 (*I, *J, *X, &got, A)) ;
    assert_int_equal (got, nz) ;
    return nz ;
}

void gxt_near_duplicates (GrB_Matrix *B, GrB_Matrix A, GrB_Index n, double rel)
{
    GrB_Index m, k ;
    OK (GrB_Matrix_nrows (&m, A)) ;
    OK (GrB_Matrix_ncols (&k, A)) ;
    assert_true (m > 0) ;
    GrB_Index *AI, *AJ ; double *AX ;
    GrB_Index anz = tuples (A, &AI, &AJ, &AX) ;
    // row pointers of A (tuples are row-major)
    GrB_Index *Ap = calloc (m + 1, sizeof (GrB_Index)) ;
    for (GrB_Index t = 0 ; t < anz ; t++) Ap [AI [t] + 1]++ ;
    for (GrB_Index i = 0 ; i < m ; i++) Ap [i+1] += Ap [i] ;
    GrB_Index cap = (n / m + 2) * (anz + 1) ;
    GrB_Index *I = malloc (cap * sizeof (GrB_Index)) ;
    GrB_Index *J = malloc (cap * sizeof (GrB_Index)) ;
    double *X = malloc (cap * sizeof (double)) ;
    GrB_Index nz = 0 ;
    for (GrB_Index j = 0 ; j < n ; j++)
    {
        GrB_Index i = j % m, start = nz ;
        for (GrB_Index t = Ap [i] ; t < Ap [i+1] ; t++)
        {
            I [nz] = j ; J [nz] = AJ [t] ; X [nz] = AX [t] ; nz++ ;
        }
        GrB_Index deg = nz - start ;
        if (j % 4 == 0 || deg == 0) continue ;       // an exact copy
        int nperturb = (int) gxt_int (1, 3) ;
        for (int q = 0 ; q < nperturb ; q++)
        {
            GrB_Index t = start + gxt_rand ( ) % deg ;
            double u = 0.5 + 0.5 * gxt_uniform ( ) ;
            if (gxt_int (0, 1)) u = -u ;
            X [t] *= (1 + rel * u) ;
        }
    }
    build (B, GrB_FP64, n, k, I, J, X, nz) ;
    free (AI) ; free (AJ) ; free (AX) ; free (Ap) ; free (I) ; free (J) ; free (X) ;
}

void gxt_mask (GrB_Matrix *M, GrB_Index m, GrB_Index n, double density)
{
    GrB_Index cap = m * n + 1 ;
    GrB_Index *I = malloc (cap * sizeof (GrB_Index)) ;
    GrB_Index *J = malloc (cap * sizeof (GrB_Index)) ;
    double *X = malloc (cap * sizeof (double)) ;
    GrB_Index nz = 0 ;
    for (GrB_Index i = 0 ; i < m ; i++)
        for (GrB_Index j = 0 ; j < n ; j++)
            if (gxt_uniform ( ) < density)
            {
                I [nz] = i ; J [nz] = j ; X [nz] = (gxt_uniform ( ) < 0.25) ? 0 : 1 ; nz++ ;
            }
    build (M, GrB_BOOL, m, n, I, J, X, nz) ;
    free (I) ; free (J) ; free (X) ;
}

// m = nrows (A), n = nrows (B): the shape of their distances
static void result_shape (GrB_Index *m, GrB_Index *n, GrB_Matrix A, GrB_Matrix B)
{
    OK (GrB_Matrix_nrows (m, A)) ;
    OK (GrB_Matrix_nrows (n, B)) ;
}

void gxt_new_result (GrB_Matrix *C, GrB_Type type, GrB_Matrix A, GrB_Matrix B)
{
    GrB_Index m, n ;
    result_shape (&m, &n, A, B) ;
    OK (GrB_Matrix_new (C, type, m, n)) ;
}

void gxt_result_mask (GrB_Matrix *M, GrB_Matrix A, GrB_Matrix B, double density)
{
    GrB_Index m, n ;
    result_shape (&m, &n, A, B) ;
    gxt_mask (M, m, n, density) ;
}

void gxt_cancelling_rows (GrB_Matrix *X, GrB_Type type, GrB_Index r,
    GrB_Index k)
{
    GXT_OK (GrB_Matrix_new (X, type, r, k)) ;
    for (GrB_Index i = 0 ; i < r ; i++)
    {
        GXT_OK (GrB_Matrix_setElement_FP64 (*X, ldexp (1, 60), i, 0)) ;
        for (GrB_Index c = 1 ; c < k ; c++)
            if (gxt_uniform ( ) < 0.5)
                GXT_OK (GrB_Matrix_setElement_FP64 (*X, 1 + gxt_int (0, 8) / 8.0, i, c)) ;
    }
    GXT_OK (GrB_Matrix_wait (*X, GrB_MATERIALIZE)) ;
}

void gxt_dense_rows (GrB_Matrix *A, GrB_Type type, GrB_Index m, GrB_Index k,
    const double *values)
{
    GrB_Index cap = m * k + 1 ;
    GrB_Index *I = malloc (cap * sizeof (GrB_Index)) ;
    GrB_Index *J = malloc (cap * sizeof (GrB_Index)) ;
    double *X = malloc (cap * sizeof (double)) ;
    GrB_Index nz = 0 ;
    for (GrB_Index i = 0 ; i < m ; i++)
        for (GrB_Index c = 0 ; c < k ; c++)
        {
            double v = values [i*k + c] ;
            if (v == 0) continue ;
            I [nz] = i ; J [nz] = c ; X [nz] = (v == GXT_EZ) ? 0 : v ; nz++ ;
        }
    build (A, type, m, k, I, J, X, nz) ;
    free (I) ; free (J) ; free (X) ;
}

//------------------------------------------------------------------------------
// formats and types
//------------------------------------------------------------------------------

static const char *format_names [GXT_NFORMATS] =
{
    "sparse", "hypersparse", "bitmap", "full", "sparse_by_col", "hyper_by_col",
    "iso", "jumbled", "pending_and_zombies"
} ;

const char *gxt_format_name (gxt_format f)
{
    return (f >= 0 && f < GXT_NFORMATS) ? format_names [f] : "?" ;
}

const char *gxt_type_name (GrB_Type t)
{
    if (t == GrB_BOOL)   return "BOOL" ;
    if (t == GrB_INT8)   return "INT8" ;
    if (t == GrB_INT16)  return "INT16" ;
    if (t == GrB_INT32)  return "INT32" ;
    if (t == GrB_INT64)  return "INT64" ;
    if (t == GrB_UINT8)  return "UINT8" ;
    if (t == GrB_UINT16) return "UINT16" ;
    if (t == GrB_UINT32) return "UINT32" ;
    if (t == GrB_UINT64) return "UINT64" ;
    if (t == GrB_FP32)   return "FP32" ;
    if (t == GrB_FP64)   return "FP64" ;
    if (t == GxB_FC32)   return "FC32" ;
    if (t == GxB_FC64)   return "FC64" ;
    return "user-defined" ;
}

static void set_sparsity (GrB_Matrix X, int control)
{
    OK (GxB_Matrix_Option_set (X, GxB_SPARSITY_CONTROL, control)) ;
}

static int sparsity_status (GrB_Matrix X)
{
    int s = 0 ;
    OK (GxB_Matrix_Option_get (X, GxB_SPARSITY_STATUS, &s)) ;
    return s ;
}

void gxt_convert (GrB_Matrix *X, GrB_Matrix A, gxt_format f, GrB_Type type)
{
    GrB_Index m, k, nz ;
    OK (GrB_Matrix_nrows (&m, A)) ;
    OK (GrB_Matrix_ncols (&k, A)) ;
    OK (GrB_Matrix_nvals (&nz, A)) ;
    GrB_Matrix T = NULL ;
    OK (GrB_Matrix_new (&T, type, m, k)) ;
    OK (GrB_Matrix_assign (T, NULL, NULL, A, GrB_ALL, m, GrB_ALL, k, NULL)) ;
    OK (GrB_Matrix_wait (T, GrB_MATERIALIZE)) ;
    switch (f)
    {
        case GXT_FMT_SPARSE:
        case GXT_FMT_HYPER:
        case GXT_FMT_BITMAP:
        case GXT_FMT_BYCOL:
        case GXT_FMT_HYPER_BYCOL:
        {
            if (f == GXT_FMT_BYCOL || f == GXT_FMT_HYPER_BYCOL)
                OK (GxB_Matrix_Option_set (T, GxB_FORMAT, GxB_BY_COL)) ;
            int control = (f == GXT_FMT_BITMAP) ? GxB_BITMAP :
                (f == GXT_FMT_HYPER || f == GXT_FMT_HYPER_BYCOL) ? GxB_HYPERSPARSE : GxB_SPARSE ;
            set_sparsity (T, control) ;
            OK (GrB_Matrix_wait (T, GrB_MATERIALIZE)) ;
            // GraphBLAS keeps a matrix of one row (by row) or one column (by
            // column) sparse rather than hypersparse
            int status = sparsity_status (T) ;
            if (!(status == control || (control == GxB_HYPERSPARSE && status == GxB_SPARSE)))
                GXT_FAIL ("gxt_convert: asked for sparsity %d, got %d", control, status) ;
            *X = T ;
            return ;
        }
        case GXT_FMT_FULL:
        {
            GrB_Matrix Z = NULL ;
            OK (GrB_Matrix_new (&Z, type, m, k)) ;
            OK (GrB_Matrix_assign_FP64 (Z, NULL, NULL, 0, GrB_ALL, m, GrB_ALL, k, NULL)) ;
            OK (GrB_Matrix_assign (Z, T, NULL, T, GrB_ALL, m, GrB_ALL, k, GrB_DESC_S)) ;
            set_sparsity (Z, GxB_FULL) ;
            OK (GrB_Matrix_wait (Z, GrB_MATERIALIZE)) ;
            if (m > 0 && k > 0) assert_int_equal (sparsity_status (Z), GxB_FULL) ;
            GrB_Matrix_free (&T) ;
            *X = Z ;
            return ;
        }
        case GXT_FMT_ISO:
        {
            GrB_Index *I, *J ; double *V ;
            GrB_Index n2 = tuples (T, &I, &J, &V) ;
            GrB_Scalar s = NULL ;
            OK (GrB_Scalar_new (&s, type)) ;
            OK (GrB_Scalar_setElement_FP64 (s, 1.5)) ;
            GrB_Matrix Y = NULL ;
            OK (GrB_Matrix_new (&Y, type, m, k)) ;
            OK (GxB_Matrix_build_Scalar (Y, I, J, s, n2)) ;
            OK (GrB_Matrix_wait (Y, GrB_MATERIALIZE)) ;
            bool iso = false ;
            OK (GxB_Matrix_iso (&iso, Y)) ;
            if (n2 > 0) assert_true (iso) ;
            free (I) ; free (J) ; free (V) ;
            GrB_Scalar_free (&s) ;
            GrB_Matrix_free (&T) ;
            *X = Y ;
            return ;
        }
        case GXT_FMT_JUMBLED:
        {
            // unpack the CSR arrays, reverse each row, pack back as jumbled
            set_sparsity (T, GxB_SPARSE) ;
            OK (GrB_Matrix_wait (T, GrB_MATERIALIZE)) ;
            GrB_Index *Ap = NULL, *Aj = NULL, Ap_size, Aj_size, Ax_size ;
            void *Ax = NULL ;
            bool iso = false, jumbled = false ;
            OK (GxB_Matrix_unpack_CSR (T, &Ap, &Aj, &Ax, &Ap_size, &Aj_size,
                &Ax_size, &iso, &jumbled, NULL)) ;
            size_t tsize = 0 ;
            OK (GxB_Type_size (&tsize, type)) ;
            char tmp [64] ;
            for (GrB_Index i = 0 ; i < m ; i++)
            {
                for (GrB_Index lo = Ap [i], hi = Ap [i+1] ; lo + 1 < hi ; lo++, hi--)
                {
                    GrB_Index t = Aj [lo] ; Aj [lo] = Aj [hi-1] ; Aj [hi-1] = t ;
                    if (!iso)
                    {
                        char *x = (char *) Ax ;
                        memcpy (tmp, x + lo * tsize, tsize) ;
                        memcpy (x + lo * tsize, x + (hi-1) * tsize, tsize) ;
                        memcpy (x + (hi-1) * tsize, tmp, tsize) ;
                    }
                }
            }
            OK (GxB_Matrix_pack_CSR (T, &Ap, &Aj, &Ax, Ap_size, Aj_size,
                Ax_size, iso, true, NULL)) ;
            *X = T ;
            return ;
        }
        case GXT_FMT_PENDING:
        default:
        {
            // build half the tuples and some extra ones, delete the extra
            // ones (zombies), set the other half (pending tuples)
            GrB_Index *I, *J ; double *V ;
            GrB_Index n2 = tuples (T, &I, &J, &V) ;
            GrB_Matrix Y = NULL ;
            OK (GrB_Matrix_new (&Y, type, m, k)) ;
            set_sparsity (Y, GxB_SPARSE) ;
            GrB_Index half = n2 / 2, nextra = 0 ;
            GrB_Index *EI = malloc ((half + 4) * sizeof (GrB_Index)) ;
            GrB_Index *EJ = malloc ((half + 4) * sizeof (GrB_Index)) ;
            double *EX = malloc ((half + 4) * sizeof (double)) ;
            memcpy (EI, I, half * sizeof (GrB_Index)) ;
            memcpy (EJ, J, half * sizeof (GrB_Index)) ;
            memcpy (EX, V, half * sizeof (double)) ;
            // extra entries at positions T does not hold
            GrB_Index cand [4][2] ;
            for (GrB_Index i = 0 ; i < m && nextra < 4 ; i++)
                for (GrB_Index c = 0 ; c < k && nextra < 4 ; c++)
                {
                    double dummy ;
                    if (GrB_Matrix_extractElement_FP64 (&dummy, T, i, c) == GrB_NO_VALUE)
                    {
                        cand [nextra][0] = i ; cand [nextra][1] = c ;
                        EI [half + nextra] = i ; EJ [half + nextra] = c ;
                        EX [half + nextra] = 42 ; nextra++ ;
                    }
                }
            OK (GrB_Matrix_build_FP64 (Y, EI, EJ, EX, half + nextra, NULL)) ;
            for (GrB_Index e = 0 ; e < nextra ; e++)
                OK (GrB_Matrix_removeElement (Y, cand [e][0], cand [e][1])) ;
            for (GrB_Index t = half ; t < n2 ; t++)
                OK (GrB_Matrix_setElement_FP64 (Y, V [t], I [t], J [t])) ;
            free (I) ; free (J) ; free (V) ; free (EI) ; free (EJ) ; free (EX) ;
            GrB_Matrix_free (&T) ;
            *X = Y ;
            return ;
        }
    }
}

//------------------------------------------------------------------------------
// snapshot
//------------------------------------------------------------------------------

struct gxt_snapshot_struct
{
    GrB_Type type ;
    size_t tsize ;
    GrB_Index nrows, ncols, nvals ;
    int status ;
    GxB_Format_Value format ;
    bool iso ;
    GrB_Index *I, *J ;
    void *X ;
} ;

// the tuples of A in A's own type, as bytes
static void raw_tuples (GrB_Matrix A, GrB_Type type, GrB_Index nz,
    GrB_Index *I, GrB_Index *J, void *X)
{
    GrB_Index got = nz ;
    GrB_Info info ;
    if      (type == GrB_BOOL)   info = GrB_Matrix_extractTuples_BOOL   (I, J, X, &got, A) ;
    else if (type == GrB_INT8)   info = GrB_Matrix_extractTuples_INT8   (I, J, X, &got, A) ;
    else if (type == GrB_INT16)  info = GrB_Matrix_extractTuples_INT16  (I, J, X, &got, A) ;
    else if (type == GrB_INT32)  info = GrB_Matrix_extractTuples_INT32  (I, J, X, &got, A) ;
    else if (type == GrB_INT64)  info = GrB_Matrix_extractTuples_INT64  (I, J, X, &got, A) ;
    else if (type == GrB_UINT8)  info = GrB_Matrix_extractTuples_UINT8  (I, J, X, &got, A) ;
    else if (type == GrB_UINT16) info = GrB_Matrix_extractTuples_UINT16 (I, J, X, &got, A) ;
    else if (type == GrB_UINT32) info = GrB_Matrix_extractTuples_UINT32 (I, J, X, &got, A) ;
    else if (type == GrB_UINT64) info = GrB_Matrix_extractTuples_UINT64 (I, J, X, &got, A) ;
    else if (type == GrB_FP32)   info = GrB_Matrix_extractTuples_FP32   (I, J, X, &got, A) ;
    else if (type == GrB_FP64)   info = GrB_Matrix_extractTuples_FP64   (I, J, X, &got, A) ;
    else if (type == GxB_FC32)   info = GxB_Matrix_extractTuples_FC32   (I, J, X, &got, A) ;
    else if (type == GxB_FC64)   info = GxB_Matrix_extractTuples_FC64   (I, J, X, &got, A) ;
    else                         info = GrB_Matrix_extractTuples_UDT    (I, J, X, &got, A) ;
    OK (info) ;
    assert_int_equal (got, nz) ;
}

// sort tuples by (i,j): extractTuples gives a jumbled matrix's entries in its
// own (unsorted) order, and by-column matrices column by column
static GrB_Index *sort_I, *sort_J ;
static int perm_cmp (const void *a, const void *b)
{
    GrB_Index p = *(const GrB_Index *) a, q = *(const GrB_Index *) b ;
    if (sort_I [p] != sort_I [q]) return sort_I [p] < sort_I [q] ? -1 : 1 ;
    if (sort_J [p] != sort_J [q]) return sort_J [p] < sort_J [q] ? -1 : 1 ;
    return 0 ;
}

static void sort_tuples (GrB_Index *I, GrB_Index *J, void *X, size_t tsize, GrB_Index nz)
{
    GrB_Index *perm = malloc ((nz + 1) * sizeof (GrB_Index)) ;
    GrB_Index *I2 = malloc ((nz + 1) * sizeof (GrB_Index)) ;
    GrB_Index *J2 = malloc ((nz + 1) * sizeof (GrB_Index)) ;
    char *X2 = malloc ((nz + 1) * tsize) ;
    assert_non_null (perm) ; assert_non_null (I2) ; assert_non_null (J2) ; assert_non_null (X2) ;
    for (GrB_Index p = 0 ; p < nz ; p++) perm [p] = p ;
    sort_I = I ; sort_J = J ;
    qsort (perm, nz, sizeof (GrB_Index), perm_cmp) ;
    for (GrB_Index p = 0 ; p < nz ; p++)
    {
        I2 [p] = I [perm [p]] ; J2 [p] = J [perm [p]] ;
        memcpy (X2 + p * tsize, (char *) X + perm [p] * tsize, tsize) ;
    }
    memcpy (I, I2, nz * sizeof (GrB_Index)) ;
    memcpy (J, J2, nz * sizeof (GrB_Index)) ;
    memcpy (X, X2, nz * tsize) ;
    free (perm) ; free (I2) ; free (J2) ; free (X2) ;
}

gxt_snapshot gxt_snap (GrB_Matrix A)
{
    gxt_snapshot s = calloc (1, sizeof (struct gxt_snapshot_struct)) ;
    assert_non_null (s) ;
    OK (GxB_Matrix_type (&s->type, A)) ;
    OK (GxB_Type_size (&s->tsize, s->type)) ;
    OK (GrB_Matrix_nrows (&s->nrows, A)) ;
    OK (GrB_Matrix_ncols (&s->ncols, A)) ;
    OK (GrB_Matrix_nvals (&s->nvals, A)) ;
    s->I = malloc ((s->nvals + 1) * sizeof (GrB_Index)) ;
    s->J = malloc ((s->nvals + 1) * sizeof (GrB_Index)) ;
    s->X = malloc ((s->nvals + 1) * s->tsize) ;
    assert_non_null (s->I) ; assert_non_null (s->J) ; assert_non_null (s->X) ;
    // extracting the tuples finishes any pending work; the representation
    // is read afterwards, so pending work is not mistaken for a change
    raw_tuples (A, s->type, s->nvals, s->I, s->J, s->X) ;
    sort_tuples (s->I, s->J, s->X, s->tsize, s->nvals) ;
    s->status = sparsity_status (A) ;
    OK (GxB_Matrix_Option_get (A, GxB_FORMAT, &s->format)) ;
    OK (GxB_Matrix_iso (&s->iso, A)) ;
    return s ;
}

static void snap_free (gxt_snapshot *s)
{
    if (*s == NULL) return ;
    free ((*s)->I) ; free ((*s)->J) ; free ((*s)->X) ; free (*s) ;
    *s = NULL ;
}

// compare A with snapshot s; `representation`: also status, format, iso
static void snap_compare (gxt_snapshot s, GrB_Matrix A, const char *what,
    bool representation)
{
    GrB_Type type ;
    GrB_Index nrows, ncols, nvals ;
    OK (GxB_Matrix_type (&type, A)) ;
    OK (GrB_Matrix_nrows (&nrows, A)) ;
    OK (GrB_Matrix_ncols (&ncols, A)) ;
    if (type != s->type)
        GXT_FAIL ("%s: type changed from %s to %s", what, gxt_type_name (s->type), gxt_type_name (type)) ;
    if (nrows != s->nrows || ncols != s->ncols)
        GXT_FAIL ("%s: dimensions changed from %" PRIu64 "x%" PRIu64 " to %" PRIu64 "x%" PRIu64,
            what, s->nrows, s->ncols, nrows, ncols) ;
    OK (GrB_Matrix_nvals (&nvals, A)) ;
    if (nvals != s->nvals)
        GXT_FAIL ("%s: nvals differs: expected %" PRIu64 ", got %" PRIu64, what, s->nvals, nvals) ;
    GrB_Index *I = malloc ((nvals + 1) * sizeof (GrB_Index)) ;
    GrB_Index *J = malloc ((nvals + 1) * sizeof (GrB_Index)) ;
    char *X = malloc ((nvals + 1) * s->tsize) ;
    assert_non_null (I) ; assert_non_null (J) ; assert_non_null (X) ;
    raw_tuples (A, type, nvals, I, J, X) ;
    sort_tuples (I, J, X, s->tsize, nvals) ;
    for (GrB_Index t = 0 ; t < nvals ; t++)
    {
        if (I [t] != s->I [t] || J [t] != s->J [t] ||
            memcmp (X + t * s->tsize, (char *) s->X + t * s->tsize, s->tsize) != 0)
        {
            GrB_Index ti = I [t], tj = J [t], si = s->I [t], sj = s->J [t] ;
            double was = NAN, now = NAN ;
            if (type == GrB_FP64) { memcpy (&now, X + t * 8, 8) ; memcpy (&was, (char *) s->X + t * 8, 8) ; }
            if (type == GrB_FP32)
            {
                float a, b ;
                memcpy (&a, X + t * 4, 4) ; memcpy (&b, (char *) s->X + t * 4, 4) ;
                now = a ; was = b ;
            }
            free (I) ; free (J) ; free (X) ;
            GXT_FAIL ("%s: tuple %" PRIu64 " differs: expected (%" PRIu64 ",%" PRIu64 ") = %.17g, "
                "got (%" PRIu64 ",%" PRIu64 ") = %.17g (bit for bit)", what, t, si, sj, was, ti, tj, now) ;
        }
    }
    free (I) ; free (J) ; free (X) ;
    if (representation)
    {
        int status = sparsity_status (A) ;
        GxB_Format_Value format ;
        bool iso ;
        OK (GxB_Matrix_Option_get (A, GxB_FORMAT, &format)) ;
        OK (GxB_Matrix_iso (&iso, A)) ;
        if (status != s->status)
            GXT_FAIL ("%s: sparsity status changed from %d to %d (1 hyper, 2 sparse, 4 bitmap, 8 full)",
                what, s->status, status) ;
        if (format != s->format)
            GXT_FAIL ("%s: orientation changed from %d to %d (0 by row, 1 by col)", what, (int) s->format, (int) format) ;
        if (iso != s->iso)
            GXT_FAIL ("%s: iso flag changed from %d to %d", what, s->iso, iso) ;
    }
}

void gxt_snapshot_free (gxt_snapshot *s)
{
    snap_free (s) ;
}

void gxt_snap_check (gxt_snapshot *s, GrB_Matrix A, const char *what)
{
    gxt_snapshot t = *s ;
    *s = NULL ;
    snap_compare (t, A, what, true) ;
    snap_free (&t) ;
}

void gxt_check_bitwise (GrB_Matrix got, GrB_Matrix ref, const char *context)
{
    gxt_snapshot s = gxt_snap (ref) ;
    snap_compare (s, got, context, false) ;
    snap_free (&s) ;
}

//------------------------------------------------------------------------------
// poison
//------------------------------------------------------------------------------

static bool is_float (GrB_Type t)
{
    return t == GrB_FP32 || t == GrB_FP64 || t == GxB_FC32 || t == GxB_FC64 ;
}

void gxt_poison (GrB_Matrix C)
{
    GrB_Index m, n ;
    GrB_Type t ;
    OK (GrB_Matrix_nrows (&m, C)) ;
    OK (GrB_Matrix_ncols (&n, C)) ;
    OK (GxB_Matrix_type (&t, C)) ;
    if (is_float (t)) OK (GrB_Matrix_assign_FP64 (C, NULL, NULL, NAN, GrB_ALL, m, GrB_ALL, n, NULL)) ;
    else OK (GrB_Matrix_assign_INT64 (C, NULL, NULL, 777, GrB_ALL, m, GrB_ALL, n, NULL)) ;
}

//------------------------------------------------------------------------------
// checks
//------------------------------------------------------------------------------

// every entry of a matrix into a dense row-major m*n array (missing: NaN);
// returns the number of entries
static GrB_Index dense_values (GrB_Matrix A, double *D, GrB_Index m, GrB_Index n)
{
    for (GrB_Index t = 0 ; t < m * n ; t++) D [t] = NAN ;
    GrB_Index *I, *J ; double *X ;
    GrB_Index nz = tuples (A, &I, &J, &X) ;
    for (GrB_Index t = 0 ; t < nz ; t++) D [I [t] * n + J [t]] = X [t] ;
    free (I) ; free (J) ; free (X) ;
    return nz ;
}

// "c:value c:value ..." of row i of A (at most 64 entries), for messages
static void row_string (GrB_Matrix A, GrB_Index i, char *buf, size_t size)
{
    GrB_Index *I, *J ; double *X ;
    GrB_Index nz = tuples (A, &I, &J, &X) ;
    size_t len = 0 ;
    int shown = 0, total = 0 ;
    buf [0] = '\0' ;
    for (GrB_Index t = 0 ; t < nz ; t++)
    {
        if (I [t] != i) continue ;
        total++ ;
        if (shown < 64 && len + 48 < size)
        {
            len += snprintf (buf + len, size - len, "%s%lu:%.17g", shown ? " " : "",
                (unsigned long) J [t], X [t]) ;
            shown++ ;
        }
    }
    if (total > shown && len + 32 < size) snprintf (buf + len, size - len, " ... (%d entries)", total) ;
    if (total == 0) snprintf (buf, size, "(empty)") ;
    free (I) ; free (J) ; free (X) ;
}

void gxt_check_metric_tol (GrB_Matrix C, const gxt_metric *mt, GrB_Type type,
    GrB_Matrix A, GrB_Matrix B, double rtol, double floor, const char *context)
{
    GrB_Index m, n, cm, cn ;
    OK (GrB_Matrix_nrows (&m, A)) ;
    OK (GrB_Matrix_nrows (&n, B)) ;
    OK (GrB_Matrix_nrows (&cm, C)) ;
    OK (GrB_Matrix_ncols (&cn, C)) ;
    char name [64] ;
    if (mt->fp32 == NULL) snprintf (name, sizeof (name), "MINKOWSKI p=%g", mt->p) ;
    else snprintf (name, sizeof (name), "%s", mt->name) ;
    const char *tname = gxt_type_name (type) ;
    if (cm != m || cn != n)
        GXT_FAIL ("%s %s [%s]: C is %" PRIu64 "x%" PRIu64 ", expected %" PRIu64 "x%" PRIu64,
            name, tname, context, cm, cn, m, n) ;

    GrB_Matrix D = NULL, S = NULL, S2 = NULL ;
    OK (GXO_metric (&D, mt->name, mt->p, type, A, B)) ;
    OK (GXO_scale (&S, mt->name, type, A, B)) ;
    // S2 = max (S, floor), full m-by-n
    OK (GrB_Matrix_new (&S2, GrB_FP64, m, n)) ;
    OK (GrB_Matrix_assign_FP64 (S2, NULL, NULL, floor, GrB_ALL, m, GrB_ALL, n, NULL)) ;
    OK (GrB_Matrix_eWiseAdd_BinaryOp (S2, NULL, NULL, GrB_MAX_FP64, S2, S, NULL)) ;

    double *got = malloc ((m * n + 1) * sizeof (double)) ;
    double *ref = malloc ((m * n + 1) * sizeof (double)) ;
    double *sc  = malloc ((m * n + 1) * sizeof (double)) ;
    assert_non_null (got) ; assert_non_null (ref) ; assert_non_null (sc) ;
    GrB_Index cnz = dense_values (C, got, m, n) ;
    GrB_Index dnz = dense_values (D, ref, m, n) ;
    dense_values (S2, sc, m, n) ;

    char why [256] = "" ;
    const char *worst = "" ;
    int64_t nbad = 0, bi = -1, bj = -1 ;
    double bg = 0, br = 0, berr = -1 ;
    if (cnz != m * n) snprintf (why, sizeof (why), "C has %" PRIu64 " entries, expected all %" PRIu64, cnz, m * n) ;
    if (dnz != m * n) snprintf (why, sizeof (why), "the reference has %" PRIu64 " entries, expected %" PRIu64, dnz, m * n) ;
    for (GrB_Index i = 0 ; i < m && why [0] == '\0' ; i++)
    {
        for (GrB_Index j = 0 ; j < n ; j++)
        {
            double g = got [i*n+j], r = ref [i*n+j] ;
            double tol = rtol * fmax (fabs (r), sc [i*n+j]) ;
            const char *bad = NULL ;
            if (isnan (g)) bad = "NaN" ;
            else if (!isfinite (r)) { if (!(g == r)) bad = "reference not finite" ; }
            else if (!isfinite (g)) bad = "infinite" ;
            else if (g < 0 && !(mt->flags & GXT_SIGNED)) bad = "negative" ;
            else if (!(fabs (g - r) <= tol)) bad = "outside tolerance" ;
            else if (r > tol && !(g > 0)) bad = "clamped to 0" ;
            if (bad == NULL) continue ;
            nbad++ ;
            double err = (!isfinite (g) || !isfinite (r)) ? INFINITY : fabs (g - r) / fmax (tol, 1e-300) ;
            if (bi < 0 || err > berr)
            {
                berr = err ; bi = (int64_t) i ; bj = (int64_t) j ; bg = g ; br = r ; worst = bad ;
            }
        }
    }
    // GXO_compare must agree on the tolerance (it is the reference's own)
    int64_t onbad = 0, oi = -1, oj = -1 ;
    double og = 0, orf = 0 ;
    GrB_Info cinfo = GrB_SUCCESS ;
    if (cnz == m * n && dnz == m * n)
        cinfo = GXO_compare (C, D, S2, rtol, &onbad, &oi, &oj, &og, &orf) ;
    free (got) ; free (ref) ; free (sc) ;
    GrB_Matrix_free (&D) ; GrB_Matrix_free (&S) ; GrB_Matrix_free (&S2) ;
    OK (cinfo) ;
    if (cnz != m * n || dnz != m * n)
        GXT_FAIL ("%s %s [%s]: %s", name, tname, context, why) ;
    if (nbad > 0 || onbad > 0)
    {
        char ra [3000] = "", rb [3000] = "" ;
        if (bi < 0) { bi = oi ; bj = oj ; bg = og ; br = orf ; worst = "GXO_compare only" ; }
        if (bi >= 0) row_string (A, (GrB_Index) bi, ra, sizeof (ra)) ;
        if (bj >= 0) row_string (B, (GrB_Index) bj, rb, sizeof (rb)) ;
        GXT_FAIL ("%s %s [%s]: %" PRId64 " of %" PRIu64 " entries wrong (rtol %g, scale floor %g); "
            "worst (i,j) = (%" PRId64 ",%" PRId64 "): got %.17g, reference %.17g (%s); "
            "GXO_compare: %" PRId64 " bad, worst (%" PRId64 ",%" PRId64 ") got %.17g ref %.17g\n"
            "    A(%" PRId64 ",:) = %s\n    B(%" PRId64 ",:) = %s",
            name, tname, context, nbad, m * n, rtol, floor, bi, bj, bg, br, worst,
            onbad, oi, oj, og, orf, bi, ra, bj, rb) ;
    }
}

void gxt_check_metric (GrB_Matrix C, const gxt_metric *mt, GrB_Type type,
    GrB_Matrix A, GrB_Matrix B, const char *context)
{
    // the oracle's scale S already holds each metric's conditioning
    // (docs/metrics.md): no extra floor
    gxt_check_metric_tol (C, mt, type, A, B, gxt_rtol (type), 0.0, context) ;
}

typedef struct { GrB_Index i, j ; double x ; } tuple ;

static int tuple_cmp (const void *a, const void *b)
{
    const tuple *p = a, *q = b ;
    if (p->i != q->i) return p->i < q->i ? -1 : 1 ;
    if (p->j != q->j) return p->j < q->j ? -1 : 1 ;
    return 0 ;
}

static tuple *sorted_tuples (GrB_Matrix A, GrB_Index *nz)
{
    GrB_Index *I, *J ; double *X ;
    *nz = tuples (A, &I, &J, &X) ;
    tuple *t = malloc ((*nz + 1) * sizeof (tuple)) ;
    for (GrB_Index p = 0 ; p < *nz ; p++) { t [p].i = I [p] ; t [p].j = J [p] ; t [p].x = X [p] ; }
    qsort (t, *nz, sizeof (tuple), tuple_cmp) ;
    free (I) ; free (J) ; free (X) ;
    return t ;
}

// gxt_check_same, gxt_check_scaled: the scale of entry (i,j) is
// sc [i*n+j] where sc is given (NaN: none), else scale
static void check_same (GrB_Matrix got, GrB_Matrix ref, double rtol,
    double scale, const double *sc, const char *context)
{
    GrB_Index gm, gn, rm, rn ;
    OK (GrB_Matrix_nrows (&gm, got)) ; OK (GrB_Matrix_ncols (&gn, got)) ;
    OK (GrB_Matrix_nrows (&rm, ref)) ; OK (GrB_Matrix_ncols (&rn, ref)) ;
    if (gm != rm || gn != rn)
        GXT_FAIL ("[%s]: result is %" PRIu64 "x%" PRIu64 ", expected %" PRIu64 "x%" PRIu64,
            context, gm, gn, rm, rn) ;
    GrB_Index gnz, rnz ;
    tuple *g = sorted_tuples (got, &gnz) ;
    tuple *r = sorted_tuples (ref, &rnz) ;
    char msg [512] = "" ;
    int64_t nbad = 0 ;
    if (gnz != rnz)
    {
        // find the first pattern difference
        GrB_Index p = 0 ;
        while (p < gnz && p < rnz && g [p].i == r [p].i && g [p].j == r [p].j) p++ ;
        snprintf (msg, sizeof (msg), "pattern differs: %" PRIu64 " entries, expected %" PRIu64
            "; first difference near got (%" PRId64 ",%" PRId64 ") expected (%" PRId64 ",%" PRId64 ")",
            gnz, rnz, p < gnz ? (int64_t) g [p].i : -1, p < gnz ? (int64_t) g [p].j : -1,
            p < rnz ? (int64_t) r [p].i : -1, p < rnz ? (int64_t) r [p].j : -1) ;
    }
    else
    {
        for (GrB_Index p = 0 ; p < gnz ; p++)
        {
            if (g [p].i != r [p].i || g [p].j != r [p].j)
            {
                snprintf (msg, sizeof (msg), "pattern differs: got (%" PRIu64 ",%" PRIu64
                    ") where (%" PRIu64 ",%" PRIu64 ") was expected", g [p].i, g [p].j, r [p].i, r [p].j) ;
                break ;
            }
            double x = g [p].x, y = r [p].x ;
            bool ok ;
            if (isnan (y)) ok = isnan (x) ;
            else if (rtol == 0) ok = (x == y) ;
            else
            {
                double s = (sc == NULL) ? scale : sc [r [p].i * rn + r [p].j] ;
                ok = fabs (x - y) <= rtol * fmax (fabs (y), isnan (s) ? 0 : s) ;
            }
            if (!ok)
            {
                if (nbad++ == 0)
                    snprintf (msg, sizeof (msg), "value at (%" PRIu64 ",%" PRIu64 "): got %.17g, expected %.17g (rtol %g)",
                        g [p].i, g [p].j, x, y, rtol) ;
            }
        }
    }
    free (g) ; free (r) ;
    if (msg [0] != '\0') GXT_FAIL ("[%s]: %s (%" PRId64 " values wrong)", context, msg, nbad) ;
}

void gxt_check_same (GrB_Matrix got, GrB_Matrix ref, double rtol,
    double scale, const char *context)
{
    check_same (got, ref, rtol, scale, NULL, context) ;
}

void gxt_check_scaled (GrB_Matrix got, GrB_Matrix ref, double rtol,
    GrB_Matrix S, const char *context)
{
    GrB_Index m, n ;
    OK (GrB_Matrix_nrows (&m, ref)) ;
    OK (GrB_Matrix_ncols (&n, ref)) ;
    double *sc = malloc ((m * n + 1) * sizeof (double)) ;
    assert_non_null (sc) ;
    dense_values (S, sc, m, n) ;
    check_same (got, ref, rtol, 0, sc, context) ;
    free (sc) ;
}

double gxt_get (GrB_Matrix C, GrB_Index i, GrB_Index j)
{
    double x = NAN ;
    GrB_Info info = GrB_Matrix_extractElement_FP64 (&x, C, i, j) ;
    if (info == GrB_NO_VALUE)
        GXT_FAIL ("C(%" PRIu64 ",%" PRIu64 ") is missing", i, j) ;
    OK (info) ;
    return x ;
}

void gxt_full (GrB_Matrix *C, GrB_Type type, GrB_Index m, GrB_Index n,
    const double *values)
{
    OK (GrB_Matrix_new (C, type, m, n)) ;
    for (GrB_Index i = 0 ; i < m ; i++)
        for (GrB_Index j = 0 ; j < n ; j++)
            OK (GrB_Matrix_setElement_FP64 (*C, values [i*n+j], i, j)) ;
    OK (GrB_Matrix_wait (*C, GrB_MATERIALIZE)) ;
}

GrB_Descriptor gxt_desc (bool structural, bool complement, bool replace,
    bool tran0, bool tran1)
{
    GrB_Descriptor d = NULL ;
    OK (GrB_Descriptor_new (&d)) ;
    if (complement) OK (GrB_Descriptor_set (d, GrB_MASK, GrB_COMP)) ;
    if (structural) OK (GrB_Descriptor_set (d, GrB_MASK, GrB_STRUCTURE)) ;
    if (replace)    OK (GrB_Descriptor_set (d, GrB_OUTP, GrB_REPLACE)) ;
    if (tran0)      OK (GrB_Descriptor_set (d, GrB_INP0, GrB_TRAN)) ;
    if (tran1)      OK (GrB_Descriptor_set (d, GrB_INP1, GrB_TRAN)) ;
    return d ;
}

GrB_Info gxt_distance (GrB_Matrix *C, GrB_Type ctype, GrB_Semiring s,
    GrB_Matrix A, GrB_Matrix B, GrB_Descriptor desc)
{
    gxt_new_result (C, ctype, A, B) ;
    gxt_poison (*C) ;
    return GxB_mxm_distance (*C, NULL, NULL, s, A, B, desc) ;
}

// the brute-force neighborhoods of a full distance matrix (gxt_brute_neighbors)
static bool nb_largest ;

static int nb_cmp (const void *a, const void *b)
{
    const gxt_nb_entry *x = a, *y = b ;
    bool xn = (x->d != x->d), yn = (y->d != y->d) ;
    if (xn != yn) return xn ? 1 : -1 ;
    if (!xn && x->d != y->d)
    {
        bool before = nb_largest ? (x->d > y->d) : (x->d < y->d) ;
        return before ? -1 : 1 ;
    }
    return (x->j < y->j) ? -1 : (x->j > y->j) ;
}

void gxt_nb_sort (gxt_nb_entry *row, int64_t nr, bool largest)
{
    nb_largest = largest ;
    qsort (row, nr, sizeof (gxt_nb_entry), nb_cmp) ;
}

void gxt_brute_neighbors (GrB_Matrix *R, GrB_Matrix D, GrB_Matrix Mask,
    bool structural, bool comp, bool exclude_self, uint64_t k, double eps,
    bool largest)
{
    GrB_Index m, n ;
    GrB_Type type ;
    GXT_OK (GrB_Matrix_nrows (&m, D)) ;
    GXT_OK (GrB_Matrix_ncols (&n, D)) ;
    GXT_OK (GxB_Matrix_type (&type, D)) ;
    GXT_OK (GrB_Matrix_new (R, type, m, n)) ;
    gxt_nb_entry *row = malloc ((n + 1) * sizeof (gxt_nb_entry)) ;
    for (GrB_Index i = 0 ; i < m ; i++)
    {
        int64_t nr = 0 ;
        for (GrB_Index j = 0 ; j < n ; j++)
        {
            if (exclude_self && i == j) continue ;
            if (Mask != NULL)
            {
                bool x = false ;
                GrB_Info info = GrB_Matrix_extractElement_BOOL (&x, Mask, i, j) ;
                bool in = (info == GrB_SUCCESS) && (x || structural) ;
                if (in == comp) continue ;
            }
            double d ;
            if (GrB_Matrix_extractElement_FP64 (&d, D, i, j) != GrB_SUCCESS) continue ;
            if (k == 0 && !(largest ? d >= eps : d <= eps)) continue ;
            row [nr++] = (gxt_nb_entry) { d, (int64_t) j } ;
        }
        gxt_nb_sort (row, nr, largest) ;
        int64_t keep = (k == 0 || (int64_t) k > nr) ? nr : (int64_t) k ;
        for (int64_t q = 0 ; q < keep ; q++)
        {
            // a float widened to double and back keeps its bits
            GXT_OK (GrB_Matrix_setElement_FP64 (*R, row [q].d, i, row [q].j)) ;
        }
    }
    free (row) ;
    GXT_OK (GrB_Matrix_wait (*R, GrB_MATERIALIZE)) ;
}

void gxt_user_namm (GrB_BinaryOp *op, GxB_NAMM *namm, GrB_Semiring *s,
    GxB_binary_function f, GrB_Type type, GrB_Monoid add)
{
    OK (GrB_BinaryOp_new (op, f, type, type, type)) ;
    OK (GxB_NAMM_new (namm, *op, 0)) ;
    OK (GxB_Semiring_new_NAMM (s, add, *namm)) ;
}
