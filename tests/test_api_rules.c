// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// tests/test_api_rules.c: GrB_mxm's rules at their edges, and objects' lives
//------------------------------------------------------------------------------

// Each test pins down one rule a GraphBLAS user relies on, at an edge where
// gxbdist once broke it:
//   - the complement of no mask selects nothing: C unchanged, or cleared
//     with GrB_REPLACE (every path: metric, NAMM, union descriptor, plain);
//   - a union product is exact in its operator's own type (INT64 past 2^53,
//     complex), not rounded through double;
//   - a structural mask may have any type, a user-defined one included; a
//     valued one of a user-defined type is refused, as GrB_mxm refuses it;
//   - semirings made and freed a million times leave memory flat;
//   - matrices and masks with no entries at all (no value arrays);
//   - the version the library reports at run time is its header's.

#include "test_common.h"
#include <unistd.h>

// a 4-by-3 full C of every entry -7, the poison the NULL-mask tests look for
static GrB_Matrix minus_seven (GrB_Type type)
{
    double v [12] ;
    for (int q = 0 ; q < 12 ; q++) v [q] = -7 ;
    GrB_Matrix C ;
    gxt_full (&C, type, 4, 3, v) ;
    return C ;
}

static void pair_4x3 (GrB_Matrix *A, GrB_Matrix *B)
{
    const double a [4*5] = { 1, 0, 2, 0, 0,   0, 0, 0, 0, 0,
                             3, 1, 0, 0, 4,   0.5, 0, 0, 2, 0 } ;
    const double b [3*5] = { 0, 1, 2, 0, 0,   2, 0, 0, 0, 1,   0, 0, 0, 0, 0 } ;
    gxt_dense_rows (A, GrB_FP64, 4, 5, a) ;
    gxt_dense_rows (B, GrB_FP64, 3, 5, b) ;
}

//------------------------------------------------------------------------------
// GrB_COMP with Mask = NULL
//------------------------------------------------------------------------------

static double user_absdiff_value (double x, double y) { return fabs (x - y) ; }
static void user_absdiff (void *z, const void *x, const void *y)
{
    *(double *) z = user_absdiff_value (*(const double *) x, *(const double *) y) ;
}

static void null_mask_complement (void **state)
{
    GXT_START () ;
    GrB_Matrix A, B ;
    pair_4x3 (&A, &B) ;
    GrB_BinaryOp op = NULL ;
    GxB_NAMM namm = NULL ;
    GrB_Semiring user = NULL ;
    GXT_OK (GrB_BinaryOp_new (&op, user_absdiff, GrB_FP64, GrB_FP64, GrB_FP64)) ;
    GXT_OK (GxB_NAMM_new (&namm, op, 0)) ;
    GXT_OK (GxB_Semiring_new_NAMM (&user, GrB_PLUS_MONOID_FP64, namm)) ;
    struct { GrB_Semiring s ; bool union_desc ; const char *what ; } run [] =
    {
        { GxB_DIST_EUCLIDEAN_FP64, false, "metric" },
        { GxB_DIST_MANHATTAN_FP32, false, "metric FP32" },
        { user, false, "user NAMM" },
        { GxB_PLUS_MINUS_FP64, true, "GxB_DESC_UNION" },
        { GrB_PLUS_TIMES_SEMIRING_FP64, false, "intersection" },
    } ;
    for (size_t r = 0 ; r < sizeof (run) / sizeof (run [0]) ; r++)
    {
        for (int replace = 0 ; replace <= 1 ; replace++)
        {
            for (int accum = 0 ; accum <= 1 ; accum++)
            {
                GrB_Descriptor d = gxt_desc (false, true, replace, false, false) ;
                if (run [r].union_desc) GXT_OK (GxB_Desc_set_annihilator_free (d, true)) ;
                GrB_Matrix C = minus_seven (GrB_FP64), C0 = minus_seven (GrB_FP64) ;
                GXT_OK (GxB_mxm_distance (C, NULL, accum ? GrB_PLUS_FP64 : NULL,
                    run [r].s, A, B, d)) ;
                GrB_Index nvals ;
                GXT_OK (GrB_Matrix_nvals (&nvals, C)) ;
                if (replace && nvals != 0)
                {
                    GXT_FAIL ("%s, accum %d, GrB_COMP|GrB_REPLACE, no mask: C "
                        "has %llu entries, expected 0", run [r].what, accum,
                        (unsigned long long) nvals) ;
                }
                if (!replace) gxt_check_bitwise (C, C0, run [r].what) ;
                if (run [r].union_desc) GXT_OK (GxB_Desc_set_annihilator_free (d, false)) ;
                GrB_Matrix_free (&C) ; GrB_Matrix_free (&C0) ;
                GrB_Descriptor_free (&d) ;
            }
        }
    }
    GrB_Semiring_free (&user) ; GxB_NAMM_free (&namm) ; GrB_BinaryOp_free (&op) ;
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ;
}

//------------------------------------------------------------------------------
// union products in the operator's own type
//------------------------------------------------------------------------------

static void int_minus (void *z, const void *x, const void *y)
{
    *(int64_t *) z = *(const int64_t *) x - *(const int64_t *) y ;
}

static void union_int64_exact (void **state)
{
    GXT_START () ;
    // a = [2^53+1, 0, 5], b = [2^53, 7, 0]: the union's differences are
    // 1, -7, 5 (sum -1); through double the first would be 0
    const int64_t big = ((int64_t) 1 << 53) ;
    GrB_Matrix A, B, C ;
    GXT_OK (GrB_Matrix_new (&A, GrB_INT64, 1, 3)) ;
    GXT_OK (GrB_Matrix_new (&B, GrB_INT64, 1, 3)) ;
    GXT_OK (GrB_Matrix_setElement_INT64 (A, big + 1, 0, 0)) ;
    GXT_OK (GrB_Matrix_setElement_INT64 (A, 5, 0, 2)) ;
    GXT_OK (GrB_Matrix_setElement_INT64 (B, big, 0, 0)) ;
    GXT_OK (GrB_Matrix_setElement_INT64 (B, 7, 0, 1)) ;
    GrB_BinaryOp op ;
    GxB_NAMM namm ;
    GrB_Semiring s ;
    GXT_OK (GrB_BinaryOp_new (&op, int_minus, GrB_INT64, GrB_INT64, GrB_INT64)) ;
    GXT_OK (GxB_NAMM_new (&namm, op, 0)) ;
    GXT_OK (GxB_Semiring_new_NAMM (&s, GrB_PLUS_MONOID_INT64, namm)) ;
    struct { GrB_Monoid add ; int64_t want ; } run [] =
    {
        { GrB_PLUS_MONOID_INT64, -1 }, { GrB_MAX_MONOID_INT64, 5 },
        { GrB_MIN_MONOID_INT64, -7 },
    } ;
    for (int r = 0 ; r < 3 ; r++)
    {
        GrB_Semiring sr ;
        GXT_OK (GxB_Semiring_new_NAMM (&sr, run [r].add, namm)) ;
        GXT_OK (GrB_Matrix_new (&C, GrB_INT64, 1, 1)) ;
        GXT_OK (GxB_mxm_distance (C, NULL, NULL, sr, A, B, NULL)) ;
        int64_t got = 0 ;
        GXT_OK (GrB_Matrix_extractElement_INT64 (&got, C, 0, 0)) ;
        if (got != run [r].want)
        {
            GXT_FAIL ("INT64 union, monoid %d: got %lld, expected %lld", r,
                (long long) got, (long long) run [r].want) ;
        }
        GrB_Matrix_free (&C) ;
        GrB_Semiring_free (&sr) ;
    }
    // the product over a single pair (2^53+1) - 2^53 = 1 exactly
    GrB_Matrix A1, B1 ;
    GXT_OK (GrB_Matrix_new (&A1, GrB_INT64, 1, 1)) ;
    GXT_OK (GrB_Matrix_new (&B1, GrB_INT64, 1, 1)) ;
    GXT_OK (GrB_Matrix_setElement_INT64 (A1, big + 1, 0, 0)) ;
    GXT_OK (GrB_Matrix_setElement_INT64 (B1, big, 0, 0)) ;
    GXT_OK (GrB_Matrix_new (&C, GrB_INT64, 1, 1)) ;
    GXT_OK (GxB_mxm_distance (C, NULL, NULL, s, A1, B1, NULL)) ;
    int64_t got = 0 ;
    GXT_OK (GrB_Matrix_extractElement_INT64 (&got, C, 0, 0)) ;
    if (got != 1) GXT_FAIL ("(2^53+1) - 2^53: got %lld, expected 1", (long long) got) ;
    // no columns at all: the monoid's identity, in its own type
    GrB_Matrix A0, B0 ;
    GrB_Semiring smin ;
    GXT_OK (GxB_Semiring_new_NAMM (&smin, GrB_MIN_MONOID_INT64, namm)) ;
    GXT_OK (GrB_Matrix_new (&A0, GrB_INT64, 2, 0)) ;
    GXT_OK (GrB_Matrix_new (&B0, GrB_INT64, 2, 0)) ;
    GrB_Matrix C0 ;
    GXT_OK (GrB_Matrix_new (&C0, GrB_INT64, 2, 2)) ;
    GXT_OK (GxB_mxm_distance (C0, NULL, NULL, smin, A0, B0, NULL)) ;
    GXT_OK (GrB_Matrix_extractElement_INT64 (&got, C0, 1, 0)) ;
    if (got != INT64_MAX) GXT_FAIL ("k = 0, MIN: got %lld, expected INT64_MAX", (long long) got) ;
    GrB_Matrix_free (&A0) ; GrB_Matrix_free (&B0) ; GrB_Matrix_free (&C0) ;
    GrB_Semiring_free (&smin) ;
    GrB_Matrix_free (&A1) ; GrB_Matrix_free (&B1) ;
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&C) ;
    GrB_Semiring_free (&s) ; GxB_NAMM_free (&namm) ; GrB_BinaryOp_free (&op) ;
}

static void cplx_minus_sq (void *z, const void *x, const void *y)
{
    GxB_FC64_t d = *(const GxB_FC64_t *) x - *(const GxB_FC64_t *) y ;
    *(GxB_FC64_t *) z = d * d ;
}

static void union_complex (void **state)
{
    GXT_START () ;
    // a = [1+2i, 0, 3], b = [1, 1i, 0]: (2i)^2 + (-i)^2 + 3^2 = -4 - 1 + 9 = 4
    GrB_Matrix A, B, C ;
    GXT_OK (GrB_Matrix_new (&A, GxB_FC64, 1, 3)) ;
    GXT_OK (GrB_Matrix_new (&B, GxB_FC64, 1, 3)) ;
    GXT_OK (GxB_Matrix_setElement_FC64 (A, GxB_CMPLX (1, 2), 0, 0)) ;
    GXT_OK (GxB_Matrix_setElement_FC64 (A, GxB_CMPLX (3, 0), 0, 2)) ;
    GXT_OK (GxB_Matrix_setElement_FC64 (B, GxB_CMPLX (1, 0), 0, 0)) ;
    GXT_OK (GxB_Matrix_setElement_FC64 (B, GxB_CMPLX (0, 1), 0, 1)) ;
    GrB_BinaryOp op ;
    GxB_NAMM namm ;
    GrB_Semiring s ;
    GXT_OK (GrB_BinaryOp_new (&op, cplx_minus_sq, GxB_FC64, GxB_FC64, GxB_FC64)) ;
    GXT_OK (GxB_NAMM_new (&namm, op, 0)) ;
    GXT_OK (GxB_Semiring_new_NAMM (&s, GxB_PLUS_FC64_MONOID, namm)) ;
    GXT_OK (GrB_Matrix_new (&C, GxB_FC64, 1, 1)) ;
    GXT_OK (GxB_mxm_distance (C, NULL, NULL, s, A, B, NULL)) ;
    GxB_FC64_t got = 0 ;
    GXT_OK (GxB_Matrix_extractElement_FC64 (&got, C, 0, 0)) ;
    if (creal (got) != 4 || cimag (got) != 0)
    {
        GXT_FAIL ("complex union: got %g%+gi, expected 4", creal (got), cimag (got)) ;
    }
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&C) ;
    GrB_Semiring_free (&s) ; GxB_NAMM_free (&namm) ; GrB_BinaryOp_free (&op) ;
}

//------------------------------------------------------------------------------
// masks of a user-defined type
//------------------------------------------------------------------------------

typedef struct { double re, im ; int tag ; } gxt_udt ;

static void udt_mask (void **state)
{
    GXT_START () ;
    GrB_Matrix A, B ;
    pair_4x3 (&A, &B) ;
    GrB_Type udt ;
    GXT_OK (GrB_Type_new (&udt, sizeof (gxt_udt))) ;
    GrB_Matrix Mu, Mb ;
    GXT_OK (GrB_Matrix_new (&Mu, udt, 4, 3)) ;
    GXT_OK (GrB_Matrix_new (&Mb, GrB_BOOL, 4, 3)) ;
    const GrB_Index pi [5] = { 0, 1, 2, 3, 3 }, pj [5] = { 0, 2, 1, 0, 2 } ;
    for (int q = 0 ; q < 5 ; q++)
    {
        gxt_udt u = { 0, 0, q } ;
        GXT_OK (GrB_Matrix_setElement_UDT (Mu, &u, pi [q], pj [q])) ;
        GXT_OK (GrB_Matrix_setElement_BOOL (Mb, false, pi [q], pj [q])) ;
    }
    for (int comp = 0 ; comp <= 1 ; comp++)
    {
        GrB_Descriptor d = gxt_desc (true, comp, true, false, false) ;
        GrB_Matrix C = minus_seven (GrB_FP64), R = minus_seven (GrB_FP64) ;
        gxt_snapshot snap = gxt_snap (Mu) ;
        GXT_OK (GxB_mxm_distance (C, Mu, NULL, GxB_DIST_MANHATTAN_FP64, A, B, d)) ;
        gxt_snap_check (&snap, Mu, "Mask (user-defined type)") ;
        // the same pattern as a BOOL mask (all false: structure only)
        GXT_OK (GxB_mxm_distance (R, Mb, NULL, GxB_DIST_MANHATTAN_FP64, A, B, d)) ;
        gxt_check_bitwise (C, R, comp ? "complemented structural UDT mask"
            : "structural UDT mask") ;
        GrB_Matrix_free (&C) ; GrB_Matrix_free (&R) ;
        GrB_Descriptor_free (&d) ;
    }
    // valued: a user-defined type has no truth value, as for GrB_mxm
    GrB_Matrix C = minus_seven (GrB_FP64), C0 = minus_seven (GrB_FP64) ;
    GXT_EXPECT (GrB_DOMAIN_MISMATCH, GxB_mxm_distance (C, Mu, NULL,
        GxB_DIST_MANHATTAN_FP64, A, B, NULL)) ;
    gxt_check_bitwise (C, C0, "C after a refused valued UDT mask") ;
    GrB_Matrix_free (&C) ; GrB_Matrix_free (&C0) ;
    GrB_Matrix_free (&Mu) ; GrB_Matrix_free (&Mb) ; GrB_Type_free (&udt) ;
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ;
}

//------------------------------------------------------------------------------
// matrices with no entries
//------------------------------------------------------------------------------

static void no_entries (void **state)
{
    GXT_START () ;
    // A and the mask have no entries (no value arrays); B has one row
    GrB_Matrix A, B, M, C ;
    GXT_OK (GrB_Matrix_new (&A, GrB_FP64, 3, 4)) ;
    GXT_OK (GrB_Matrix_new (&B, GrB_FP64, 2, 4)) ;
    GXT_OK (GrB_Matrix_setElement_FP64 (B, 2.5, 1, 3)) ;
    GXT_OK (GrB_Matrix_new (&M, GrB_BOOL, 3, 2)) ;
    GXT_OK (GrB_Matrix_new (&C, GrB_FP64, 3, 2)) ;
    GXT_OK (GxB_mxm_distance (C, NULL, NULL, GxB_DIST_MANHATTAN_FP64, A, B, NULL)) ;
    if (gxt_get (C, 2, 1) != 2.5 || gxt_get (C, 0, 0) != 0)
    {
        GXT_FAIL ("empty A: C(2,1) = %g (2.5), C(0,0) = %g (0)",
            gxt_get (C, 2, 1), gxt_get (C, 0, 0)) ;
    }
    GXT_OK (GxB_mxm_distance (C, M, NULL, GxB_DIST_MANHATTAN_FP64, A, B,
        GrB_DESC_R)) ;
    GrB_Index nvals ;
    GXT_OK (GrB_Matrix_nvals (&nvals, C)) ;
    if (nvals != 0) GXT_FAIL ("empty mask with replace: %llu entries", (unsigned long long) nvals) ;
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&M) ;
    GrB_Matrix_free (&C) ;
}

//------------------------------------------------------------------------------
// semirings made and freed: memory stays flat
//------------------------------------------------------------------------------

static double rss_mb (void)
{
    long pages = 0, resident = 0 ;
    FILE *f = fopen ("/proc/self/statm", "r") ;
    if (f == NULL) return 0 ;
    if (fscanf (f, "%ld %ld", &pages, &resident) != 2) resident = 0 ;
    fclose (f) ;
    return resident * (double) sysconf (_SC_PAGESIZE) / 1e6 ;
}

// create and free a NAMM and a Minkowski semiring, once each
static void round_trip (GrB_BinaryOp op)
{
    GxB_NAMM namm ;
    GrB_Semiring s, mk ;
    GXT_OK (GxB_NAMM_new (&namm, op, 0)) ;
    GXT_OK (GxB_Semiring_new_NAMM (&s, GrB_PLUS_MONOID_FP64, namm)) ;
    GXT_OK (GxB_Semiring_new_minkowski (&mk, 3, GrB_FP64)) ;
    GXT_OK (GrB_Semiring_free (&s)) ;
    GXT_OK (GrB_Semiring_free (&mk)) ;
    GXT_OK (GxB_NAMM_free (&namm)) ;
}

static void semirings_forgotten (void **state)
{
    GXT_START () ;
    const char *env = getenv ("GXBDIST_TEST_SMALL") ;
    const int rounds = (env != NULL) ? 2000 : 200000 ;
    GrB_BinaryOp op ;
    GXT_OK (GrB_BinaryOp_new (&op, user_absdiff, GrB_FP64, GrB_FP64, GrB_FP64)) ;
    for (int r = 0 ; r < 1000 ; r++) round_trip (op) ;     // warm the allocator
    double before = rss_mb () ;
    for (int r = 0 ; r < rounds ; r++) round_trip (op) ;
    double after = rss_mb () ;
    // one entry and monoid kept per round would be about 100 B each: 20 MB
    // over 200,000 rounds
    if (env == NULL && after - before > 2.0)
    {
        GXT_FAIL ("%d create/free rounds grew RSS from %.1f MB to %.1f MB",
            rounds, before, after) ;
    }
    // the semirings still work after all that
    GxB_NAMM namm ;
    GrB_Semiring s ;
    GXT_OK (GxB_NAMM_new (&namm, op, 0)) ;
    GXT_OK (GxB_Semiring_new_NAMM (&s, GrB_PLUS_MONOID_FP64, namm)) ;
    GrB_Matrix A, B, C ;
    pair_4x3 (&A, &B) ;
    GXT_OK (GrB_Matrix_new (&C, GrB_FP64, 4, 3)) ;
    GXT_OK (GxB_mxm_distance (C, NULL, NULL, s, A, B, NULL)) ;
    // row 2 = [3 1 0 0 4], row 1 of B = [2 0 0 0 1]: 1 + 1 + 3 = 5
    if (gxt_get (C, 2, 1) != 5) GXT_FAIL ("user NAMM after the rounds: %g, expected 5", gxt_get (C, 2, 1)) ;
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&C) ;
    GrB_Semiring_free (&s) ; GxB_NAMM_free (&namm) ; GrB_BinaryOp_free (&op) ;
}

// a user semiring made at the address of a freed NAMM semiring is an
// ordinary one (intersection), and the NAMM made after it is a NAMM
static void address_reuse (void **state)
{
    GXT_START () ;
    GrB_Matrix A, B ;
    pair_4x3 (&A, &B) ;
    GrB_BinaryOp op ;
    GXT_OK (GrB_BinaryOp_new (&op, user_absdiff, GrB_FP64, GrB_FP64, GrB_FP64)) ;
    for (int r = 0 ; r < 50 ; r++)
    {
        GxB_NAMM namm ;
        GrB_Semiring s, plain ;
        GXT_OK (GxB_NAMM_new (&namm, op, 0)) ;
        GXT_OK (GxB_Semiring_new_NAMM (&s, GrB_PLUS_MONOID_FP64, namm)) ;
        GXT_OK (GrB_Semiring_free (&s)) ;
        GXT_OK (GrB_Semiring_new (&plain, GrB_PLUS_MONOID_FP64, op)) ;
        GrB_Matrix C ;
        GXT_OK (GrB_Matrix_new (&C, GrB_FP64, 4, 3)) ;
        GXT_OK (GxB_mxm_distance (C, NULL, NULL, plain, A, B, NULL)) ;
        // intersection: A row 2 and B row 1 share columns 0 and 4:
        // |3-2| + |4-1| = 4 (the union would add |1-0|: 5)
        if (gxt_get (C, 2, 1) != 4) GXT_FAIL ("round %d: a plain semiring "
            "gave %g (union?), expected 4", r, gxt_get (C, 2, 1)) ;
        GrB_Matrix_free (&C) ;
        GXT_OK (GrB_Semiring_free (&plain)) ;
        GXT_OK (GxB_NAMM_free (&namm)) ;
    }
    GrB_BinaryOp_free (&op) ;
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ;
}

// GxB_Distance_version: the numbers of the header this test was compiled
// with (the library is built from the same tree); a NULL output is refused
static void version_is_the_headers (void **state)
{
    GXT_START () ;
    int major = -1, minor = -1, sub = -1 ;
    GXT_OK (GxB_Distance_version (&major, &minor, &sub)) ;
    if (major != GXBDIST_VERSION_MAJOR || minor != GXBDIST_VERSION_MINOR
        || sub != GXBDIST_VERSION_SUB)
    {
        GXT_FAIL ("GxB_Distance_version gave %d.%d.%d, the header says %d.%d.%d",
            major, minor, sub, GXBDIST_VERSION_MAJOR, GXBDIST_VERSION_MINOR,
            GXBDIST_VERSION_SUB) ;
    }
    GXT_EXPECT (GrB_NULL_POINTER, GxB_Distance_version (NULL, &minor, &sub)) ;
    GXT_EXPECT (GrB_NULL_POINTER, GxB_Distance_version (&major, NULL, &sub)) ;
    GXT_EXPECT (GrB_NULL_POINTER, GxB_Distance_version (&major, &minor, NULL)) ;
}

int main (void)
{
    const struct CMUnitTest tests [] =
    {
        cmocka_unit_test (null_mask_complement),
        cmocka_unit_test (union_int64_exact),
        cmocka_unit_test (union_complex),
        cmocka_unit_test (udt_mask),
        cmocka_unit_test (no_entries),
        cmocka_unit_test (semirings_forgotten),
        cmocka_unit_test (address_reuse),
        cmocka_unit_test (version_is_the_headers),
    } ;
    return gxt_main ("api_rules", tests, sizeof (tests) / sizeof (tests [0])) ;
}
