// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// mpi/test_knn_mpi.c: GxB_kNN_MPI against GxB_kNN on the gathered matrices
//------------------------------------------------------------------------------

// Run under mpirun with any number of ranks (ctest: 1, 2 and 3).  Every
// rank builds the same global A and B (seeded; the seed is printed, and
// GXBDIST_TEST_SEED=<seed> reruns it), keeps its block of rows, calls
// GxB_kNN_MPI on a poisoned C_local, and compares it bit for bit (pattern,
// global columns, value bits) with its rows of GxB_kNN on the whole A and
// B: every predefined metric in FP32 and FP64, Minkowski, a user's NAMM,
// union and intersection semirings, integer inputs, even, uneven and empty
// blocks, duplicate rows (ties across blocks), exclude-self, transposed
// inputs, k past n, no rows anywhere, C by column or of an integer type,
// and a slice of the bundled fortunes dataset.  Then the failures: ranks
// that disagree (k, metric, Minkowski p, type, descriptor, columns, C's
// columns), a NULL on one rank, a mask, no communicator, a bad value met in
// one block mid-ring: every rank must return the same GrB_Info, with the
// failing rank's message, and leave C_local as it was (ctest's TIMEOUT
// catches a hang).  A_local and B_local come back unchanged from every
// call.  Exit status: 0 when every check passed on every rank.

#include <gxbdist_mpi.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>
#include "gxd_mtx.h"
// setup that cannot fail in a working installation: a failure ends this
// rank, and mpirun the others
#define GXD_PROG "test_knn_mpi"
#include "gxd_prog.h"

static int rank, nranks ;
static int64_t checks = 0, failures = 0 ;
static uint64_t seed, rng ;

#define CHECK(cond, ...)                                                    \
do {                                                                        \
    checks++ ;                                                              \
    if (!(cond))                                                            \
    {                                                                       \
        failures++ ;                                                        \
        printf ("rank %d: FAIL %s (line %d): ", rank, current, __LINE__) ;   \
        printf (__VA_ARGS__) ;                                              \
        printf ("\n") ;                                                     \
    }                                                                       \
} while (0)

static const char *current = "" ;

static uint64_t next (void)         // splitmix64
{
    uint64_t z = (rng += 0x9e3779b97f4a7c15ULL) ;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL ;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL ;
    return z ^ (z >> 31) ;
}

//------------------------------------------------------------------------------
// data
//------------------------------------------------------------------------------

// m-by-d, density about 1/3, values in {0.25, 0.5, 0.75, 1} (so distances
// tie often); every dup-th row repeats the row before it (dup = 0: none)
static GrB_Matrix random_matrix (GrB_Type type, int64_t m, int64_t d, int dup)
{
    GrB_Index *I = malloc ((m * d + 1) * sizeof (GrB_Index)) ;
    GrB_Index *J = malloc ((m * d + 1) * sizeof (GrB_Index)) ;
    double *X = malloc ((m * d + 1) * sizeof (double)) ;
    int64_t nz = 0, prev = 0 ;
    for (int64_t i = 0 ; i < m ; i++)
    {
        int64_t row_start = nz ;
        if (dup > 0 && i > 0 && i % dup == 0)
        {
            for (int64_t q = prev ; q < row_start ; q++)
            {
                I [nz] = i ; J [nz] = J [q] ; X [nz++] = X [q] ;
            }
        }
        else
        {
            for (int64_t j = 0 ; j < d ; j++)
            {
                if (next () % 3 != 0) continue ;
                I [nz] = i ; J [nz] = j ;
                X [nz++] = (double) (1 + next () % 4) / 4 ;
            }
        }
        prev = row_start ;
    }
    GrB_Matrix A = NULL ;
    TRY (GrB_Matrix_new (&A, type, m, d)) ;
    TRY (GrB_Matrix_build_FP64 (A, I, J, X, nz, GrB_PLUS_FP64)) ;
    free (I) ; free (J) ; free (X) ;
    return A ;
}

// rows [r0, r1) of X (transposed: its columns then), a new matrix
static GrB_Matrix rows_of (GrB_Matrix X, int64_t r0, int64_t r1, bool tran)
{
    GrB_Index d ;
    GrB_Type type ;
    TRY (GrB_Matrix_ncols (&d, X)) ;
    TRY (GxB_Matrix_type (&type, X)) ;
    GrB_Matrix R = NULL ;
    TRY (GrB_Matrix_new (&R, type, r1 - r0, d)) ;
    if (r1 > r0)
    {
        GrB_Index I [2] = { r0, r1 - 1 } ;
        TRY (GrB_Matrix_extract (R, NULL, NULL, X, I, GxB_RANGE, GrB_ALL, d,
            NULL)) ;
    }
    if (!tran) return R ;
    GrB_Matrix T = NULL ;
    TRY (GrB_Matrix_new (&T, type, d, r1 - r0)) ;
    TRY (GrB_transpose (T, NULL, NULL, R, NULL)) ;
    GrB_Matrix_free (&R) ;
    return T ;
}

// how total rows are spread over the ranks: off [r] .. off [r+1]
typedef enum { EVEN, UNEVEN, EMPTY_A, EMPTY_B, EMPTY_BOTH } split ;

static void offsets (int64_t *off, int64_t total, split how, bool is_a)
{
    int64_t w [64], sum = 0 ;
    for (int r = 0 ; r < nranks ; r++)
    {
        w [r] = (how == EVEN) ? 1 : 1 + (5 * r + (is_a ? 0 : 2)) % 4 ;
        // (one rank alone keeps its rows: the call needs some)
        bool empty = nranks > 1 && ((how == EMPTY_A && is_a && r == nranks - 1)
            || (how == EMPTY_B && !is_a && r == 0)
            || (how == EMPTY_BOTH && r == nranks / 2)) ;
        if (empty) w [r] = 0 ;
        sum += w [r] ;
    }
    off [0] = 0 ;
    int64_t acc = 0 ;
    for (int r = 0 ; r < nranks ; r++)
    {
        acc += w [r] ;
        off [r+1] = (sum > 0) ? total * acc / sum : 0 ;
    }
}

//------------------------------------------------------------------------------
// checks
//------------------------------------------------------------------------------

typedef struct { GrB_Index i, j ; uint64_t bits ; } entry ;

static int cmp_entry (const void *x, const void *y)
{
    const entry *a = x, *b = y ;
    if (a->i != b->i) return a->i < b->i ? -1 : 1 ;
    if (a->j != b->j) return a->j < b->j ? -1 : 1 ;
    return 0 ;
}

// the entries of C, sorted, values as the bits of their double
static entry *entries (GrB_Matrix C, GrB_Index *n)
{
    TRY (GrB_Matrix_nvals (n, C)) ;
    GrB_Index *I = malloc ((*n + 1) * sizeof (GrB_Index)) ;
    GrB_Index *J = malloc ((*n + 1) * sizeof (GrB_Index)) ;
    double *X = malloc ((*n + 1) * sizeof (double)) ;
    entry *e = malloc ((*n + 1) * sizeof (entry)) ;
    TRY (GrB_Matrix_extractTuples_FP64 (I, J, X, n, C)) ;
    for (GrB_Index q = 0 ; q < *n ; q++)
    {
        e [q].i = I [q] ; e [q].j = J [q] ;
        memcpy (&e [q].bits, &X [q], sizeof (double)) ;
    }
    qsort (e, *n, sizeof (entry), cmp_entry) ;
    free (I) ; free (J) ; free (X) ;
    return e ;
}

// C and R hold the same entries, the same bits
static void check_same (GrB_Matrix C, GrB_Matrix R, const char *what)
{
    GrB_Index nc, nr, mc, mr, cc, cr ;
    TRY (GrB_Matrix_nrows (&mc, C)) ; TRY (GrB_Matrix_nrows (&mr, R)) ;
    TRY (GrB_Matrix_ncols (&cc, C)) ; TRY (GrB_Matrix_ncols (&cr, R)) ;
    CHECK (mc == mr && cc == cr, "%s: C is %llu x %llu, expected %llu x %llu",
        what, (unsigned long long) mc, (unsigned long long) cc,
        (unsigned long long) mr, (unsigned long long) cr) ;
    entry *ec = entries (C, &nc), *er = entries (R, &nr) ;
    GrB_Index bad = nc ;
    for (GrB_Index q = 0 ; q < nc && q < nr && bad == nc ; q++)
    {
        if (cmp_entry (&ec [q], &er [q]) != 0 || ec [q].bits != er [q].bits)
        {
            bad = q ;
        }
    }
    CHECK (nc == nr && bad == nc, "%s: %llu entries, expected %llu; first "
        "difference at entry %llu", what, (unsigned long long) nc,
        (unsigned long long) nr, (unsigned long long) bad) ;
    free (ec) ; free (er) ;
}

// On the GPU, FP32 kernels that scale by B's column maxima may give a block
// of B other last bits than all of B (docs/neighbors.md), so there a run
// is compared within the documented tolerance (docs/metrics.md: 1e-5 FP32,
// 1e-12 FP64, relative, with a floor of 1): each row the same number of
// neighbors, the same sorted values within it, and a column found by one
// side only must tie (within it) with the row's boundary.  On the CPU the
// bitwise check holds, and this one must hold too.
static bool gpu_run = false ;

static bool close_to (double a, double b, double rtol)
{
    double s = fabs (a) > fabs (b) ? fabs (a) : fabs (b) ;
    return (a != a && b != b) || fabs (a - b) <= rtol * (s > 1 ? s : 1) ;
}

static int cmp_double (const void *x, const void *y)
{
    double a = *(const double *) x, b = *(const double *) y ;
    return (a < b) ? -1 : (a > b) ? 1 : 0 ;
}

// the values of entries e [q0 .. q1-1], sorted, into v
static void row_values (double *v, const entry *e, GrB_Index q0, GrB_Index q1)
{
    for (GrB_Index q = q0 ; q < q1 ; q++) memcpy (&v [q - q0], &e [q].bits, 8) ;
    qsort (v, q1 - q0, sizeof (double), cmp_double) ;
}

// column j is among e [r0 .. r1-1]
static bool has_column (const entry *e, GrB_Index r0, GrB_Index r1, GrB_Index j)
{
    for (GrB_Index r = r0 ; r < r1 ; r++) if (e [r].j == j) return true ;
    return false ;
}

static void check_close (GrB_Matrix C, GrB_Matrix R, double rtol,
    const char *what)
{
    GrB_Index nc, nr, m ;
    TRY (GrB_Matrix_nrows (&m, R)) ;
    entry *ec = entries (C, &nc), *er = entries (R, &nr) ;
    double *vc = malloc ((nc + 1) * sizeof (double)) ;
    double *vr = malloc ((nr + 1) * sizeof (double)) ;
    GrB_Index c0 = 0, r0 = 0 ;
    int64_t bad = -1 ;
    for (GrB_Index i = 0 ; i < m && bad < 0 ; i++)
    {
        GrB_Index c1 = c0, r1 = r0 ;
        while (c1 < nc && ec [c1].i == i) c1++ ;
        while (r1 < nr && er [r1].i == i) r1++ ;
        bool ok = (c1 - c0 == r1 - r0) ;
        if (ok)
        {
            row_values (vc, ec, c0, c1) ;
            row_values (vr, er, r0, r1) ;
            for (GrB_Index t = 0 ; t < r1 - r0 && ok ; t++)
            {
                ok = close_to (vc [t], vr [t], rtol) ;
            }
            // the boundary: the first or the last value (DOT keeps the
            // largest, the distances the smallest)
            double lo = vr [0], hi = vr [r1 - r0 - (r1 > r0)] ;
            for (GrB_Index q = c0 ; q < c1 && ok ; q++)
            {
                double v ;
                memcpy (&v, &ec [q].bits, 8) ;
                ok = has_column (er, r0, r1, ec [q].j)
                    || close_to (v, lo, rtol) || close_to (v, hi, rtol) ;
            }
        }
        if (!ok) bad = (int64_t) i ;
        c0 = c1 ; r0 = r1 ;
    }
    CHECK (bad < 0 && c0 == nc && r0 == nr, "%s: row %" PRId64 " differs "
        "beyond the tolerance %g", what, bad, rtol) ;
    free (ec) ; free (er) ; free (vc) ; free (vr) ;
}

// a copy of X (NULL stays NULL), to check X comes back unchanged
static GrB_Matrix copy_of (GrB_Matrix X)
{
    GrB_Matrix Y = NULL ;
    if (X != NULL) TRY (GrB_Matrix_dup (&Y, X)) ;
    return Y ;
}

// X is what its copy was (and free the copy)
static void check_unchanged (GrB_Matrix X, GrB_Matrix *copy, const char *what)
{
    if (X != NULL) check_same (X, *copy, what) ;
    GrB_Matrix_free (copy) ;
}

// C_local, poisoned: entries that a correct call replaces
static GrB_Matrix poisoned (GrB_Type type, GrB_Index m, GrB_Index n)
{
    GrB_Matrix C = NULL ;
    TRY (GrB_Matrix_new (&C, type, m, n)) ;
    for (GrB_Index i = 0 ; i < m && n > 0 ; i += 3)
    {
        TRY (GrB_Matrix_setElement_FP64 (C, -12345.5, i, (i * 7) % n)) ;
    }
    TRY (GrB_Matrix_wait (C, GrB_MATERIALIZE)) ;
    return C ;
}

// every rank got the same code, the expected one
static void check_agreed (GrB_Info info, GrB_Info expected, const char *what)
{
    int mine = (int) info, *all = malloc (nranks * sizeof (int)) ;
    MPI_Allgather (&mine, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD) ;
    for (int r = 0 ; r < nranks ; r++)
    {
        CHECK (all [r] == (int) expected, "%s: rank %d returned %d, expected "
            "%d", what, r, all [r], (int) expected) ;
    }
    free (all) ;
    const char *msg = NULL ;
    GxB_Distance_error (&msg) ;
    if (expected == GrB_SUCCESS)
    {
        CHECK (msg != NULL && msg [0] == '\0', "%s: a message after success: "
            "%s", what, msg) ;
    }
    else
    {
        CHECK (msg != NULL && msg [0] != '\0', "%s: no message", what) ;
    }
}

//------------------------------------------------------------------------------
// one distributed call against the gathered one
//------------------------------------------------------------------------------

typedef struct
{
    GrB_Semiring dist ;
    uint64_t k ;
    split how ;
    bool exclude_self, tran, union_desc ;
    GrB_Type ctype ;
    bool c_by_col ;         // C_local stored by column
    bool same ;             // A is B: B_local is A_local itself, one object
}
query ;

static void run (const char *name, const query *q, GrB_Matrix A, GrB_Matrix B)
{
    current = name ;
    GrB_Index m, n ;
    TRY (GrB_Matrix_nrows (&m, A)) ;
    TRY (GrB_Matrix_nrows (&n, B)) ;
    int64_t aoff [65], boff [65] ;
    offsets (aoff, m, q->how, true) ;
    offsets (boff, n, q->how, q->same) ;
    GrB_Matrix Al = rows_of (A, aoff [rank], aoff [rank+1], q->tran) ;
    GrB_Matrix Bl = q->same ? Al : rows_of (B, boff [rank], boff [rank+1], q->tran) ;
    GrB_Index ml = aoff [rank+1] - aoff [rank] ;
    GrB_Descriptor d = NULL, dref = NULL ;
    TRY (GrB_Descriptor_new (&d)) ;
    TRY (GrB_Descriptor_new (&dref)) ;
    if (q->tran)
    {
        TRY (GrB_Descriptor_set (d, GrB_INP0, GrB_TRAN)) ;
        TRY (GrB_Descriptor_set (d, GrB_INP1, GrB_TRAN)) ;
    }
    TRY (GxB_Desc_set_exclude_self (d, q->exclude_self)) ;
    TRY (GxB_Desc_set_exclude_self (dref, q->exclude_self)) ;
    TRY (GxB_Desc_set_annihilator_free (d, q->union_desc)) ;
    TRY (GxB_Desc_set_annihilator_free (dref, q->union_desc)) ;

    GrB_Matrix C = poisoned (q->ctype, ml, n) ;
    if (q->c_by_col) TRY (GxB_Matrix_Option_set (C, GxB_FORMAT, GxB_BY_COL)) ;
    GrB_Matrix Al0 = copy_of (Al), Bl0 = copy_of (Bl) ;
    GrB_Info info = GxB_kNN_MPI (C, q->dist, q->k, Al, Bl, MPI_COMM_WORLD, d) ;
    check_unchanged (Al, &Al0, "A_local unchanged") ;
    check_unchanged (Bl, &Bl0, "B_local unchanged") ;
    if (info != GrB_SUCCESS)
    {
        const char *msg ;
        GxB_Distance_error (&msg) ;
        printf ("rank %d: %s: GxB_kNN_MPI returned %d: %s\n", rank, name,
            (int) info, msg) ;
    }
    check_agreed (info, GrB_SUCCESS, name) ;

    // the reference: GxB_kNN on the whole of A and B, this rank's rows
    GrB_Matrix R = NULL ;
    TRY (GrB_Matrix_new (&R, q->ctype, m, n)) ;
    TRY (GxB_kNN (R, NULL, q->dist, q->k, A, B, dref)) ;
    GrB_Matrix Rl = rows_of (R, aoff [rank], aoff [rank+1], false) ;
    GrB_Type rtype ;
    TRY (GxB_Matrix_type (&rtype, Rl)) ;
    check_close (C, Rl, rtype == GrB_FP32 ? 1e-5 : 1e-12, name) ;
    if (!gpu_run) check_same (C, Rl, name) ;

    TRY (GxB_Desc_set_exclude_self (d, false)) ;
    TRY (GxB_Desc_set_exclude_self (dref, false)) ;
    TRY (GxB_Desc_set_annihilator_free (d, false)) ;
    TRY (GxB_Desc_set_annihilator_free (dref, false)) ;
    GrB_Descriptor_free (&d) ; GrB_Descriptor_free (&dref) ;
    if (Bl != Al) GrB_Matrix_free (&Bl) ;
    GrB_Matrix_free (&Al) ; GrB_Matrix_free (&C) ;
    GrB_Matrix_free (&R) ; GrB_Matrix_free (&Rl) ;
}

// every predefined metric (gxbdist.h's list)
#define ONE(NAME) + 1
#define NMETRICS (0 GXB_DIST_METRICS (ONE))
#define SEMIRINGS(NAME) { GxB_DIST_ ## NAME ## _FP32, GxB_DIST_ ## NAME ## _FP64 },

static GrB_Semiring metric (int t, bool fp64)
{
    GrB_Semiring s [NMETRICS][2] = { GXB_DIST_METRICS (SEMIRINGS) } ;
    return s [t][fp64] ;
}

static void test_metrics (void)
{
    static const split hows [5] = { EVEN, UNEVEN, EMPTY_A, EMPTY_B, EMPTY_BOTH } ;
    for (int f = 0 ; f < 2 ; f++)
    {
        GrB_Type type = f ? GrB_FP64 : GrB_FP32 ;
        GrB_Matrix A = random_matrix (type, 29, 10, 0) ;
        GrB_Matrix B = random_matrix (type, 37, 10, 3) ;   // ties
        for (int t = 0 ; t < NMETRICS ; t++)
        {
            char name [96] ;
            snprintf (name, sizeof (name), "metric %d fp%d", t, f ? 64 : 32) ;
            query q = { .dist = metric (t, f), .k = 1 + t % 6,
                .how = hows [t % 5], .ctype = type } ;
            run (name, &q, A, B) ;
            // a self-query without the point itself, blocks uneven; every
            // other metric with B_local the very object A_local is
            snprintf (name, sizeof (name), "metric %d fp%d self", t, f ? 64 : 32) ;
            q.exclude_self = true ;
            q.how = hows [(t + 2) % 5] ;
            q.same = (t % 2 == 0) ;
            run (name, &q, B, B) ;
        }
        GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ;
    }
}

// a user's distance term (clipped |x-y|), for a NAMM semiring: evaluated by
// GraphBLAS (no C definition given), known across ranks by its name
static void clipped (double *z, const double *x, const double *y)
{
    double d = fabs ((*x) - (*y)) ;
    (*z) = (d < 0.5) ? d : 0.5 ;
}

static void test_other_semirings (void)
{
    GrB_Matrix A = random_matrix (GrB_FP64, 23, 8, 0) ;
    GrB_Matrix B = random_matrix (GrB_FP64, 31, 8, 2) ;
    GrB_Semiring mink = NULL ;
    TRY (GxB_Semiring_new_minkowski (&mink, 3, GrB_FP64)) ;
    query q = { .dist = mink, .k = 4, .how = UNEVEN, .ctype = GrB_FP64 } ;
    run ("minkowski p=3", &q, A, B) ;
    q.dist = GxB_MAX_MINUS_FP64 ;
    q.union_desc = true ;
    run ("union MAX.MINUS", &q, A, B) ;
    GrB_BinaryOp op = NULL ;
    GxB_NAMM namm = NULL ;
    GrB_Semiring user = NULL ;
    TRY (GxB_BinaryOp_new (&op, (GxB_binary_function) clipped, GrB_FP64,
        GrB_FP64, GrB_FP64, "mpi_test_clipped", NULL)) ;
    TRY (GxB_NAMM_new (&namm, op, 0)) ;
    TRY (GxB_Semiring_new_NAMM (&user, GrB_PLUS_MONOID_FP64, namm)) ;
    q.dist = user ;
    q.union_desc = false ;
    q.how = EMPTY_B ;
    run ("user NAMM, clipped |x-y|", &q, A, B) ;
    GrB_Semiring_free (&user) ; GxB_NAMM_free (&namm) ; GrB_BinaryOp_free (&op) ;
    q.dist = GrB_PLUS_TIMES_SEMIRING_FP64 ;
    q.how = EMPTY_BOTH ;
    run ("intersection PLUS.TIMES", &q, A, B) ;
    // transposed inputs; k past the number of rows of B; k = 1
    q = (query) { .dist = GxB_DIST_MANHATTAN_FP32, .k = 3, .how = UNEVEN,
        .tran = true, .exclude_self = true, .ctype = GrB_FP32 } ;
    run ("transposed, exclude self", &q, B, B) ;
    q = (query) { .dist = GxB_DIST_CANBERRA_FP64, .k = 1000, .how = EMPTY_A,
        .ctype = GrB_FP64 } ;
    run ("k past n", &q, A, B) ;
    q.k = 1 ;
    q.how = EVEN ;
    run ("k = 1", &q, A, B) ;
    // integer inputs travel as integers; C of another type than the result
    GrB_Matrix Ai = random_matrix (GrB_INT32, 17, 8, 0) ;
    GrB_Matrix Bi = random_matrix (GrB_INT32, 25, 8, 4) ;
    q = (query) { .dist = GxB_DIST_EUCLIDEAN_FP64, .k = 5, .how = UNEVEN,
        .ctype = GrB_FP32 } ;
    run ("integer inputs, FP32 C", &q, Ai, Bi) ;
    // C by column, of an integer type (typecast as GxB_kNN does)
    q = (query) { .dist = GxB_DIST_SQEUCLIDEAN_FP64, .k = 3, .how = UNEVEN,
        .ctype = GrB_INT64, .c_by_col = true } ;
    run ("C by column, INT64", &q, Ai, Bi) ;
    // exclude-self where A and B are different rows: global i == j only
    q = (query) { .dist = GxB_DIST_HAMMING_FP32, .k = 4, .how = EMPTY_A,
        .exclude_self = true, .ctype = GrB_FP32 } ;
    run ("exclude self, A and B differ", &q, A, B) ;
    // no rows of B, or of A, on any rank
    GrB_Matrix E = NULL ;
    TRY (GrB_Matrix_new (&E, GrB_FP64, 0, 8)) ;
    q = (query) { .dist = GxB_DIST_COSINE_FP64, .k = 2, .how = UNEVEN,
        .ctype = GrB_FP64 } ;
    run ("no rows of B anywhere", &q, A, E) ;
    run ("no rows of A anywhere", &q, E, B) ;
    GrB_Matrix_free (&E) ;
    GrB_Semiring_free (&mink) ;
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ;
    GrB_Matrix_free (&Ai) ; GrB_Matrix_free (&Bi) ;
}

// the bundled dataset: a slice of its rows (time), a self-query
static void test_fortunes (const char *path)
{
    GrB_Matrix X = NULL ;
    TRY (GXD_mtx_read (&X, GrB_FP64, path)) ;
    GrB_Matrix S = rows_of (X, 0, 700, false) ;
    GrB_Matrix_free (&X) ;
    query q = { .dist = GxB_DIST_COSINE_FP32, .k = 10, .how = UNEVEN,
        .exclude_self = true, .ctype = GrB_FP32, .same = true } ;
    run ("fortunes cosine fp32", &q, S, S) ;
    q = (query) { .dist = GxB_DIST_JACCARD_FP64, .k = 7, .how = EMPTY_BOTH,
        .ctype = GrB_FP64 } ;
    run ("fortunes jaccard fp64", &q, S, S) ;
    GrB_Matrix_free (&S) ;
}

//------------------------------------------------------------------------------
// failures: the same code on every rank, C_local unchanged
//------------------------------------------------------------------------------

// what one rank passes in a failing call
typedef struct
{
    GrB_Semiring dist ;
    uint64_t k ;
    GrB_Matrix A, B ;
    GrB_Index c_cols ;
    GrB_Descriptor d ;
}
call_args ;

static void run_failure (const char *name, const call_args *a,
    GrB_Info expected)
{
    current = name ;
    GrB_Index m = 0 ;
    if (a->A != NULL) TRY (GrB_Matrix_nrows (&m, a->A)) ;
    GrB_Matrix C = poisoned (GrB_FP64, m, a->c_cols) ;
    GrB_Matrix C0 = NULL ;
    TRY (GrB_Matrix_dup (&C0, C)) ;
    GrB_Matrix A0 = copy_of (a->A), B0 = copy_of (a->B) ;
    GrB_Info info = GxB_kNN_MPI (C, a->dist, a->k, a->A, a->B,
        MPI_COMM_WORLD, a->d) ;
    check_unchanged (a->A, &A0, "A_local unchanged") ;
    check_unchanged (a->B, &B0, "B_local unchanged") ;
    check_agreed (info, expected, name) ;
    check_same (C, C0, name) ;
    GrB_Matrix_free (&C) ; GrB_Matrix_free (&C0) ;
}

static void test_failures (void)
{
    GrB_Matrix A = random_matrix (GrB_FP64, 20, 6, 0) ;
    GrB_Matrix B = random_matrix (GrB_FP64, 24, 6, 0) ;
    int64_t aoff [65], boff [65] ;
    offsets (aoff, 20, UNEVEN, true) ;
    offsets (boff, 24, UNEVEN, false) ;
    GrB_Matrix Al = rows_of (A, aoff [rank], aoff [rank+1], false) ;
    GrB_Matrix Bl = rows_of (B, boff [rank], boff [rank+1], false) ;
    GrB_Matrix Aw = random_matrix (GrB_FP64, aoff [rank+1] - aoff [rank], 7, 0) ;
    bool last = (rank == nranks - 1) ;
    GrB_Semiring mink3, mink4 ;
    TRY (GxB_Semiring_new_minkowski (&mink3, 3, GrB_FP64)) ;
    TRY (GxB_Semiring_new_minkowski (&mink4, 4, GrB_FP64)) ;
    GrB_Descriptor self = NULL, masked = NULL ;
    TRY (GrB_Descriptor_new (&self)) ;
    TRY (GxB_Desc_set_exclude_self (self, true)) ;
    TRY (GrB_Descriptor_new (&masked)) ;
    TRY (GrB_Descriptor_set (masked, GrB_MASK, GrB_COMP)) ;
    call_args ok = { GxB_DIST_COSINE_FP64, 3, Al, Bl, 24, NULL } ;
    call_args a ;

    a = ok ; a.k = 0 ;
    run_failure ("k = 0", &a, GrB_INVALID_VALUE) ;
    a = ok ; if (last) a.A = NULL ;
    run_failure ("A_local NULL on the last rank", &a, GrB_NULL_POINTER) ;
    a = ok ; if (last) a.A = Aw ;
    run_failure ("A_local's columns differ", &a, GrB_DIMENSION_MISMATCH) ;
    a = ok ; if (last) a.c_cols = 23 ;
    run_failure ("C_local's columns", &a, GrB_DIMENSION_MISMATCH) ;
    a = ok ; a.d = masked ;
    run_failure ("a mask in desc", &a, GrB_INVALID_VALUE) ;
    if (nranks > 1)
    {
        a = ok ; if (last) a.k = 4 ;
        run_failure ("k differs", &a, GrB_INVALID_VALUE) ;
        a = ok ; if (last) a.dist = GxB_DIST_DOT_FP64 ;
        run_failure ("cosine and dot", &a, GrB_INVALID_VALUE) ;
        a = ok ; a.dist = last ? mink4 : mink3 ;
        run_failure ("minkowski p differs", &a, GrB_INVALID_VALUE) ;
        a = ok ; if (last) a.dist = GxB_DIST_COSINE_FP32 ;
        run_failure ("fp32 and fp64", &a, GrB_INVALID_VALUE) ;
        a = ok ; if (last) a.d = self ;
        run_failure ("exclude-self differs", &a, GrB_INVALID_VALUE) ;
        // the same values in another type on the last rank
        GrB_Matrix A32 = NULL, B32 = NULL ;
        TRY (GrB_Matrix_new (&A32, GrB_FP32, aoff [rank+1] - aoff [rank], 6)) ;
        TRY (GrB_Matrix_new (&B32, GrB_FP32, boff [rank+1] - boff [rank], 6)) ;
        TRY (GrB_Matrix_apply (A32, NULL, NULL, GrB_IDENTITY_FP32, Al, NULL)) ;
        TRY (GrB_Matrix_apply (B32, NULL, NULL, GrB_IDENTITY_FP32, Bl, NULL)) ;
        a = ok ; if (last) a.A = A32 ;
        run_failure ("A's type differs", &a, GrB_DOMAIN_MISMATCH) ;
        a = ok ; if (last) a.B = B32 ;
        run_failure ("B's type differs", &a, GrB_DOMAIN_MISMATCH) ;
        GrB_Matrix_free (&A32) ; GrB_Matrix_free (&B32) ;
    }
    // no communicator: refused on every rank without any collective
    {
        current = "MPI_COMM_NULL" ;
        GrB_Matrix C = poisoned (GrB_FP64, aoff [rank+1] - aoff [rank], 24) ;
        GrB_Info info = GxB_kNN_MPI (C, ok.dist, ok.k, Al, Bl, MPI_COMM_NULL,
            NULL) ;
        check_agreed (info, GrB_NULL_POINTER, current) ;
        GrB_Matrix_free (&C) ;
    }
    // a negative value in the last rank's block of B: KL-divergence fails
    // when that block reaches each rank, at different steps of the ring
    GrB_Matrix Bneg = NULL ;
    TRY (GrB_Matrix_dup (&Bneg, Bl)) ;
    GrB_Index nb ;
    TRY (GrB_Matrix_nrows (&nb, Bneg)) ;
    if (last && nb > 0) TRY (GrB_Matrix_setElement_FP64 (Bneg, -1, 0, 0)) ;
    a = ok ; a.dist = GxB_DIST_KL_DIVERGENCE_FP64 ; a.B = Bneg ;
    // what GxB_kNN says on the gathered matrices
    GrB_Matrix Bg = NULL, Cg = NULL ;
    TRY (GrB_Matrix_dup (&Bg, B)) ;
    TRY (GrB_Matrix_setElement_FP64 (Bg, -1, boff [nranks - 1], 0)) ;
    TRY (GrB_Matrix_new (&Cg, GrB_FP64, 20, 24)) ;
    GrB_Info expected = GxB_kNN (Cg, NULL, a.dist, 3, A, Bg, NULL) ;
    current = "negative value for KL" ;
    CHECK (expected != GrB_SUCCESS, "GxB_kNN accepted a negative value") ;
    run_failure ("negative value for KL, one block", &a, expected) ;
    // every rank's message says why (the failing rank's own message travels)
    const char *msg = NULL ;
    GxB_Distance_error (&msg) ;
    CHECK (msg != NULL && strstr (msg, "non-negative") != NULL, "the message "
        "does not give the failing rank's reason: %s", msg) ;
    // a NaN in the first rank's rows of A only (the first rank that has
    // rows): that rank fails at once, the others would go on; every rank
    // returns GrB_INVALID_VALUE (docs/metrics.md)
    int holder = 0 ;
    while (holder < nranks - 1 && aoff [holder+1] == aoff [holder]) holder++ ;
    GrB_Matrix Anan = NULL ;
    TRY (GrB_Matrix_dup (&Anan, Al)) ;
    if (rank == holder) TRY (GrB_Matrix_setElement_FP64 (Anan, NAN, 0, 2)) ;
    a = ok ; a.dist = GxB_DIST_EUCLIDEAN_FP64 ; a.A = Anan ;
    run_failure ("NaN in one rank's A", &a, GrB_INVALID_VALUE) ;
    GxB_Distance_error (&msg) ;
    CHECK (msg != NULL && strstr (msg, "finite") != NULL, "the message "
        "does not give the failing rank's reason: %s", msg) ;
    GrB_Matrix_free (&Anan) ;

    TRY (GxB_Desc_set_exclude_self (self, false)) ;
    GrB_Descriptor_free (&self) ; GrB_Descriptor_free (&masked) ;
    GrB_Semiring_free (&mink3) ; GrB_Semiring_free (&mink4) ;
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&Al) ;
    GrB_Matrix_free (&Bl) ; GrB_Matrix_free (&Aw) ; GrB_Matrix_free (&Bneg) ;
    GrB_Matrix_free (&Bg) ; GrB_Matrix_free (&Cg) ;
}

int main (int argc, char **argv)
{
    MPI_Init (&argc, &argv) ;
    MPI_Comm_rank (MPI_COMM_WORLD, &rank) ;
    MPI_Comm_size (MPI_COMM_WORLD, &nranks) ;
    if (nranks > 64) MPI_Abort (MPI_COMM_WORLD, 2) ;
    const char *s = getenv ("GXBDIST_TEST_SEED") ;
    seed = (s != NULL && *s) ? strtoull (s, NULL, 0) : (uint64_t) time (NULL) ;
    MPI_Bcast (&seed, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD) ;
    rng = seed ;
    if (rank == 0)
    {
        printf ("[ SEED     ] GXBDIST_TEST_SEED=%" PRIu64 " (%d ranks)\n", seed,
            nranks) ;
    }
    TRY (GrB_init (GrB_NONBLOCKING)) ;
    TRY (GxB_Distance_init ()) ;
    GxB_Backend backend ;
    TRY (GxB_Distance_active_backend (&backend)) ;
    gpu_run = (backend == GxB_BACKEND_GPU) ;
    if (rank == 0 && gpu_run)
    {
        printf ("[ GPU      ] results compared within the tolerance\n") ;
    }

    test_metrics () ;
    test_other_semirings () ;
    if (argc > 1) test_fortunes (argv [1]) ;
    test_failures () ;

    int64_t mine [2] = { checks, failures }, all [2] ;
    MPI_Allreduce (mine, all, 2, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD) ;
    if (rank == 0)
    {
        printf ("%s: %" PRId64 " checks on %d ranks, %" PRId64 " failed%s\n",
            all [1] == 0 ? "PASSED" : "FAILED", all [0], nranks, all [1],
            all [1] == 0 ? "" : " (rerun with the seed above)") ;
    }
    GxB_Distance_finalize () ;
    GrB_finalize () ;
    MPI_Finalize () ;
    return (all [1] == 0) ? 0 : 1 ;
}
