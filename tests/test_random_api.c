// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// tests/test_random_api.c: randomized calls of GxB_mxm_distance, seeded
//------------------------------------------------------------------------------

// Random calls of the whole API surface of GxB_mxm_distance (semirings,
// types, shapes, formats, values, masks, accum, replace, aliasing, bad
// objects), each checked against the rules it must follow: see
// random_api_gen.c for what is drawn and random_api_check.c for what is
// checked.  One cmocka test per seed; a failing check does not stop the
// seed's calls: every failure is printed (the first three of each check per
// seed in full) with the seed, the call number, a one-line description of
// the call and how to rerun it alone, and counted in a table at the end.
//
// Environment:
//   (nothing)                 the fixed seeds of CI (ci_seeds below)
//   GXBDIST_TEST_SEED=S       seed S only
//   GXBDIST_RANDOM_CALLS=N    N calls per seed (default 500)
//   GXBDIST_RANDOM_CALL=C     call C only (with GXBDIST_TEST_SEED: rerun one)
//   GXBDIST_RANDOM_VERBOSE=1  print every call before it runs
//   GXBDIST_RANDOM_PRINT=N    print N failures of each check per seed (3)
//   GXBDIST_BACKEND           as for every test: cpu, gpu or auto

#include "random_api.h"
#include <signal.h>
#include <time.h>
#include <unistd.h>

// the helpers are part of this executable (tests/CMakeLists.txt builds one
// source file per test)
#include "random_api_gen.c"
#include "random_api_ref.c"
#include "random_api_check.c"

//------------------------------------------------------------------------------
// random numbers
//------------------------------------------------------------------------------

static uint64_t ra_state ;

// splitmix64's output function
static uint64_t mix64 (uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL ;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL ;
    return z ^ (z >> 31) ;
}

// the stream of a call: a hash of (seed, call), so that neighbouring calls
// draw unrelated streams
void ra_seed (uint64_t seed, int call)
{
    ra_state = mix64 (mix64 (seed + 0x9E3779B97F4A7C15ULL) ^ ((uint64_t) call + 0xD1B54A32D192ED03ULL)) ;
}

uint64_t ra_u64 (void)
{
    return mix64 (ra_state += 0x9E3779B97F4A7C15ULL) ;
}

double ra_unif (void) { return (double) (ra_u64 () >> 11) * 0x1.0p-53 ; }
bool ra_bern (double p) { return ra_unif () < p ; }

int64_t ra_int (int64_t lo, int64_t hi)
{
    if (hi <= lo) return lo ;
    return lo + (int64_t) (ra_u64 () % (uint64_t) (hi - lo + 1)) ;
}


//------------------------------------------------------------------------------
// types
//------------------------------------------------------------------------------

static GrB_Type udt = NULL ;
GrB_Type ra_udt (void) { return udt ; }
void ra_udt_set (GrB_Type t) { udt = t ; }

ra_tinfo ra_type (GrB_Type t)
{
    #define ROW(T, cat, bits, G) { &G ## _ ## T, cat, bits, &G ## _IDENTITY_ ## T }
    struct { GrB_Type *type ; ra_cat cat ; int bits ; GrB_UnaryOp *id ; } table [] =
    {
        ROW (BOOL, RA_BOOL, 8, GrB), ROW (INT8, RA_SINT, 8, GrB), ROW (INT16, RA_SINT, 16, GrB),
        ROW (INT32, RA_SINT, 32, GrB), ROW (INT64, RA_SINT, 64, GrB), ROW (UINT8, RA_UINT, 8, GrB),
        ROW (UINT16, RA_UINT, 16, GrB), ROW (UINT32, RA_UINT, 32, GrB), ROW (UINT64, RA_UINT, 64, GrB),
        ROW (FP32, RA_FP, 32, GrB), ROW (FP64, RA_FP, 64, GrB), ROW (FC32, RA_CPLX, 64, GxB),
        ROW (FC64, RA_CPLX, 128, GxB)
    } ;
    #undef ROW
    for (size_t q = 0 ; q < sizeof (table) / sizeof (table [0]) ; q++)
    {
        if (*table [q].type == t)
        {
            ra_tinfo r = { table [q].cat, table [q].bits, *table [q].id } ;
            return r ;
        }
    }
    ra_tinfo u = { RA_UDT, 128, NULL } ;
    return u ;
}

//------------------------------------------------------------------------------
// contents: a matrix as sorted CSR with raw values, whatever its format
//------------------------------------------------------------------------------

// The arrays are unpacked from a by-row sparse duplicate (iso expanded,
// columns sorted), copied, and packed back: A itself is only read.
void ra_content_get (ra_content *c, GrB_Matrix A)
{
    memset (c, 0, sizeof (*c)) ;
    GrB_Matrix D = NULL ;
    GXT_OK (GxB_Matrix_type (&c->type, A)) ;
    GXT_OK (GxB_Type_size (&c->tsize, c->type)) ;
    GXT_OK (GrB_Matrix_nrows (&c->nrows, A)) ;
    GXT_OK (GrB_Matrix_ncols (&c->ncols, A)) ;
    GXT_OK (GrB_Matrix_dup (&D, A)) ;
    GXT_OK (GxB_Matrix_Option_set (D, GxB_FORMAT, GxB_BY_ROW)) ;
    GXT_OK (GxB_Matrix_Option_set (D, GxB_SPARSITY_CONTROL, GxB_SPARSE)) ;
    GXT_OK (GrB_Matrix_wait (D, GrB_MATERIALIZE)) ;
    GrB_Index *Dp = NULL, *Dj = NULL, psize, jsize, xsize ;
    void *Dx = NULL ;
    GXT_OK (GxB_Matrix_unpack_CSR (D, &Dp, &Dj, &Dx, &psize, &jsize, &xsize,
        NULL, NULL, NULL)) ;
    c->nvals = Dp [c->nrows] ;
    c->p = malloc ((c->nrows + 1) * sizeof (GrB_Index)) ;
    c->j = malloc ((c->nvals + 1) * sizeof (GrB_Index)) ;
    c->x = malloc ((c->nvals + 1) * c->tsize) ;
    assert_non_null (c->p) ; assert_non_null (c->j) ; assert_non_null (c->x) ;
    memcpy (c->p, Dp, (c->nrows + 1) * sizeof (GrB_Index)) ;
    if (c->nvals > 0)
    {
        memcpy (c->j, Dj, c->nvals * sizeof (GrB_Index)) ;
        memcpy (c->x, Dx, c->nvals * c->tsize) ;
    }
    GXT_OK (GxB_Matrix_pack_CSR (D, &Dp, &Dj, &Dx, psize, jsize, xsize,
        false, false, NULL)) ;
    GrB_Matrix_free (&D) ;
}

void ra_content_free (ra_content *c)
{
    free (c->p) ; free (c->j) ; free (c->x) ;
    memset (c, 0, sizeof (*c)) ;
}

const char *ra_content_diff (const ra_content *got, const ra_content *want,
    int64_t at [2])
{
    static char msg [600] ;
    at [0] = at [1] = -1 ;
    if (got->type != want->type)
    {
        snprintf (msg, sizeof (msg), "type %s, expected %s",
            gxt_type_name (got->type), gxt_type_name (want->type)) ;
        return msg ;
    }
    if (got->nrows != want->nrows || got->ncols != want->ncols)
    {
        snprintf (msg, sizeof (msg), "%" PRIu64 "x%" PRIu64 ", expected %"
            PRIu64 "x%" PRIu64, got->nrows, got->ncols, want->nrows, want->ncols) ;
        return msg ;
    }
    for (GrB_Index i = 0 ; i < got->nrows ; i++)
    {
        GrB_Index pg = got->p [i], pw = want->p [i] ;
        GrB_Index eg = got->p [i+1], ew = want->p [i+1] ;
        for ( ; pg < eg || pw < ew ; pg++, pw++)
        {
            bool gin = pg < eg, win = pw < ew ;
            if (!gin || !win || got->j [pg] != want->j [pw])
            {
                at [0] = (int64_t) i ;
                at [1] = (int64_t) (!gin ? want->j [pw] : !win ? got->j [pg]
                    : got->j [pg] < want->j [pw] ? got->j [pg] : want->j [pw]) ;
                snprintf (msg, sizeof (msg), "pattern differs in row %" PRIu64
                    ": entry (%" PRIu64 ",%" PRId64 ") present, (%" PRIu64 ",%"
                    PRId64 ") expected (%" PRIu64 " entries, expected %" PRIu64 ")",
                    i, i, gin ? (int64_t) got->j [pg] : -1, i,
                    win ? (int64_t) want->j [pw] : -1, got->nvals, want->nvals) ;
                return msg ;
            }
            if (memcmp (got->x + pg * got->tsize, want->x + pw * want->tsize,
                got->tsize) != 0)
            {
                at [0] = (int64_t) i ;
                at [1] = (int64_t) got->j [pg] ;
                ra_tinfo ti = ra_type (got->type) ;
                snprintf (msg, sizeof (msg), "value of (%" PRIu64 ",%" PRIu64
                    ") differs bit for bit: %.17Lg, expected %.17Lg", i,
                    got->j [pg], ti.cat == RA_UDT ? 0.0L : ra_value (got, pg),
                    ti.cat == RA_UDT ? 0.0L : ra_value (want, pw)) ;
                return msg ;
            }
        }
    }
    return NULL ;
}

uint64_t ra_bits (const ra_content *c, GrB_Index q)
{
    ra_tinfo ti = ra_type (c->type) ;
    uint64_t u = 0 ;
    memcpy (&u, c->x + q * c->tsize, (size_t) ti.bits / 8 < 8 ? (size_t) ti.bits / 8 : 8) ;
    if (ti.cat == RA_SINT && ti.bits < 64 && (u >> (ti.bits - 1)) & 1)
    {
        u |= ~((1ULL << ti.bits) - 1) ;     // sign-extend
    }
    return u ;
}

static long double part (const ra_content *c, GrB_Index q, int which)
{
    const uint8_t *x = c->x + q * c->tsize ;
    ra_tinfo ti = ra_type (c->type) ;
    switch (ti.cat)
    {
        case RA_FP:
        case RA_CPLX:
            if (ti.bits == 32 || (ti.bits == 64 && ti.cat == RA_CPLX))
            {
                float f ;
                memcpy (&f, x + 4 * which, 4) ;
                return (ti.cat == RA_FP && which) ? 0 : f ;
            }
            else
            {
                double d ;
                memcpy (&d, x + 8 * which, 8) ;
                return (ti.cat == RA_FP && which) ? 0 : d ;
            }
        case RA_SINT: return which ? 0 : (long double) (int64_t) ra_bits (c, q) ;
        case RA_UINT:
        case RA_BOOL: return which ? 0 : (long double) ra_bits (c, q) ;
        default:      return NAN ;
    }
}

long double ra_value (const ra_content *c, GrB_Index q) { return part (c, q, 0) ; }
long double ra_value_imag (const ra_content *c, GrB_Index q) { return part (c, q, 1) ; }

//------------------------------------------------------------------------------
// bad objects
//------------------------------------------------------------------------------

// SuiteSparse's objects start with a 64-bit magic number: GB_MAGIC when
// valid, GB_FREED once freed, GB_MAGIC2 when allocated but not usable
static _Alignas (64) unsigned char blobs [BLOB_N][8192] ;
static GrB_Info blob_codes [BLOB_N] ;

void *ra_blob_object (ra_blob b) { return blobs [b] ; }
GrB_Info ra_blob_info (ra_blob b) { return blob_codes [b] ; }

void ra_blobs_init (void)
{
    const uint64_t magic [BLOB_N] = { 0, 0x6c6c756e786f62ULL, 0x7265745f786f62ULL } ;
    for (int b = 0 ; b < BLOB_N ; b++)
    {
        memset (blobs [b], 0, sizeof (blobs [b])) ;
        memcpy (blobs [b], &magic [b], sizeof (uint64_t)) ;
        GrB_Index nvals ;
        blob_codes [b] = GrB_Matrix_nvals (&nvals, (GrB_Matrix) blobs [b]) ;
    }
    printf ("[ RANDOM   ] SuiteSparse on bad objects: zeroed %s, freed %s, invalid %s\n",
        gxt_info_name (blob_codes [0]), gxt_info_name (blob_codes [1]),
        gxt_info_name (blob_codes [2])) ;
}


static const uint64_t ci_seeds [] = { 20240601, 7, 1234567, 99991 } ;
#define NCI ((int) (sizeof (ci_seeds) / sizeof (ci_seeds [0])))

static int ncalls = 500 ;
static int only_call = -1 ;
static bool verbose = false ;
static const char *program = "tests/test_random_api" ;

//------------------------------------------------------------------------------
// failures, by check
//------------------------------------------------------------------------------

#define NTALLY 16
static int printed_per_check = 3 ;
static struct { const char *check ; int64_t count ; int first_call ; } tally [NTALLY] ;
static int ntally = 0 ;
ra_stats ra_stat ;

void ra_fail (const ra_call *rc, const char *check, const char *fmt, ...)
{
    int t = 0 ;
    while (t < ntally && strcmp (tally [t].check, check) != 0) t++ ;
    if (t == ntally)
    {
        assert_true (ntally < NTALLY) ;
        tally [t].check = check ;
        tally [t].count = 0 ;
        tally [t].first_call = rc->call ;
        ntally++ ;
    }
    if (tally [t].count++ >= printed_per_check) return ;
    char detail [4000] ;
    va_list ap ;
    va_start (ap, fmt) ;
    vsnprintf (detail, sizeof (detail), fmt, ap) ;
    va_end (ap) ;
    fprintf (stderr, "[  FAILED  ] seed %" PRIu64 " call %d [%s]: %s\n"
        "             call: %s\n"
        "             rerun: GXBDIST_TEST_SEED=%" PRIu64 " GXBDIST_RANDOM_CALL=%d %s\n",
        rc->seed, rc->call, check, detail, rc->what, rc->seed, rc->call, program) ;
    fflush (stderr) ;
}

//------------------------------------------------------------------------------
// a crash names the call it happened in
//------------------------------------------------------------------------------

static const ra_call *volatile current = NULL ;
#define NSIGS 4
static const int sigs [NSIGS] = { SIGSEGV, SIGABRT, SIGFPE, SIGBUS } ;
static void (*previous [NSIGS]) (int) ;

// print the call, then let cmocka's own handler (installed before each
// test, so this one is installed inside the test) report the signal
static void on_crash (int sig)
{
    const ra_call *rc = current ;
    if (rc != NULL)
    {
        char line [1700] ;
        int len = snprintf (line, sizeof (line), "\n[  CRASH   ] signal %d in seed %" PRIu64
            " call %d: %s\n             rerun: GXBDIST_TEST_SEED=%" PRIu64
            " GXBDIST_RANDOM_CALL=%d\n", sig, rc->seed, rc->call, rc->what, rc->seed, rc->call) ;
        if (len > 0 && write (2, line, (size_t) len < sizeof (line) ? (size_t) len : sizeof (line)) < 0) { }
    }
    for (int q = 0 ; q < NSIGS ; q++)
    {
        if (sigs [q] != sig) continue ;
        signal (sig, previous [q]) ;
        if (previous [q] != SIG_DFL && previous [q] != SIG_IGN && previous [q] != SIG_ERR)
        {
            previous [q] (sig) ;
            return ;
        }
    }
    raise (sig) ;
}

//------------------------------------------------------------------------------
// one seed
//------------------------------------------------------------------------------

static void random_calls (void **state)
{
    uint64_t seed = *(const uint64_t *) *state ;
    ntally = 0 ;
    memset (&ra_stat, 0, sizeof (ra_stat)) ;
    int first = (only_call >= 0) ? only_call : 0 ;
    int last = (only_call >= 0) ? only_call + 1 : ncalls ;
    printf ("[ RANDOM   ] seed %" PRIu64 ": calls %d..%d\n", seed, first, last - 1) ;
    fflush (stdout) ;
    for (int q = 0 ; q < NSIGS ; q++) previous [q] = signal (sigs [q], on_crash) ;
    double slowest = 0 ;
    int slowest_call = first ;
    for (int c = first ; c < last ; c++)
    {
        struct timespec t0, t1 ;
        clock_gettime (CLOCK_MONOTONIC, &t0) ;
        ra_call *rc = calloc (1, sizeof (ra_call)) ;
        assert_non_null (rc) ;
        ra_generate (rc, seed, c) ;
        current = rc ;
        if (verbose) { printf ("  call %d: %s\n", c, rc->what) ; fflush (stdout) ; }
        ra_run_and_check (rc) ;
        current = NULL ;
        ra_free (rc) ;
        free (rc) ;
        clock_gettime (CLOCK_MONOTONIC, &t1) ;
        double sec = (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec) ;
        if (verbose) { printf ("  call %d: %.4f s\n", c, sec) ; fflush (stdout) ; }
        if (sec > slowest) { slowest = sec ; slowest_call = c ; }
    }
    for (int q = 0 ; q < NSIGS ; q++) signal (sigs [q], previous [q]) ;
    int64_t nfail = 0 ;
    for (int t = 0 ; t < ntally ; t++) nfail += tally [t].count ;
    printf ("[ RANDOM   ] seed %" PRIu64 ": %d calls, %" PRId64 " returned GrB_SUCCESS, %" PRId64
        " an error; %" PRId64 " failed checks; slowest call %d (%.3f s)\n", seed, last - first,
        ra_stat.ok, ra_stat.err, nfail, slowest_call, slowest) ;
    printf ("[ RANDOM   ]     checked: %" PRId64 " product entries against the test's evaluation, %"
        PRId64 " against the oracle too; %" PRId64 " calls against GrB_mxm, %" PRId64
        " against GrB_apply's output rules\n", ra_stat.valued, ra_stat.oracle, ra_stat.mxm,
        ra_stat.rules) ;
    for (int t = 0 ; t < ntally ; t++)
    {
        printf ("[ RANDOM   ]     %-8s %6" PRId64 " failures, first in call %d\n",
            tally [t].check, tally [t].count, tally [t].first_call) ;
    }
    fflush (stdout) ;
    if (nfail > 0)
    {
        fail_msg ("seed %" PRIu64 ": %" PRId64 " failed checks (rerun: GXBDIST_TEST_SEED=%" PRIu64 " %s)",
            seed, nfail, seed, program) ;
    }
}

static int setup (void **state)
{
    // the metric table's order is the one random_api_check.c evaluates in
    const char *order [16] = { "EUCLIDEAN", "SQEUCLIDEAN", "COSINE", "CORRELATION",
        "DICE", "DOT", "HELLINGER", "JACCARD", "RUSSELLRAO", "KL_DIVERGENCE",
        "CANBERRA", "CHEBYSHEV", "HAMMING", "JENSEN_SHANNON", "MANHATTAN", "BRAYCURTIS" } ;
    for (int q = 0 ; q < 16 ; q++)
    {
        if (strcmp (gxt_metrics [q].name, order [q]) != 0) return -1 ;
    }
    ra_ops_init () ;
    ra_blobs_init () ;
    return 0 ;
}

static int teardown (void **state)
{
    ra_ops_free () ;
    return 0 ;
}

int main (int argc, char **argv)
{
    if (argc > 0) program = argv [0] ;
    static uint64_t seeds [NCI] ;
    int nseeds = NCI ;
    const char *s = getenv ("GXBDIST_TEST_SEED") ;
    if (s != NULL && *s) { seeds [0] = strtoull (s, NULL, 0) ; nseeds = 1 ; }
    else memcpy (seeds, ci_seeds, sizeof (ci_seeds)) ;
    s = getenv ("GXBDIST_RANDOM_CALLS") ;
    if (s != NULL && *s) ncalls = atoi (s) ;
    s = getenv ("GXBDIST_RANDOM_CALL") ;
    if (s != NULL && *s) only_call = atoi (s) ;
    verbose = (getenv ("GXBDIST_RANDOM_VERBOSE") != NULL) ;
    s = getenv ("GXBDIST_RANDOM_PRINT") ;
    if (s != NULL && *s) printed_per_check = atoi (s) ;
    printf ("[ RANDOM   ] %s seeds, %d calls each (the seed line below is test_common's, "
        "unused here)\n", nseeds == 1 ? "one of the" : "the fixed CI", ncalls) ;

    static struct CMUnitTest tests [NCI] ;
    static char names [NCI][48] ;
    for (int q = 0 ; q < nseeds ; q++)
    {
        snprintf (names [q], sizeof (names [q]), "random_calls_seed_%" PRIu64, seeds [q]) ;
        struct CMUnitTest t = { names [q], random_calls, NULL, NULL, &seeds [q] } ;
        tests [q] = t ;
    }
    gxt_setup = setup ;
    gxt_teardown = teardown ;
    return gxt_main ("random_api", tests, (size_t) nseeds) ;
}
