// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// tests/test_verify.c: verify mode passes good results and catches bad ones
//------------------------------------------------------------------------------

// With GxB_Distance_set_verify (true) every result is recomputed by the
// reference: correct results still return GrB_SUCCESS (every metric, FP32
// and FP64, masked, NAMM); a deliberately wrong result (fault injection:
// one entry changed) returns GxB_VERIFY_FAILED with a message naming the
// metric and the worst (i,j), and leaves A and B intact.
// Without verify, fault injection shows up in C as exactly one wrong entry.
// The setting round-trips, and its state after GxB_Distance_init is what the
// environment says (GXBDIST_VERIFY=1: on; otherwise off).
// At scale: user operators (PLUS, checked on every entry; MAX, on sampled
// rows) pass when right and fail when their result is corrupted; a product
// checked on sampled rows (GxB_Distance_set_verify_rows) catches an error in
// a sampled row, and - the sample's documented limit - not one outside it;
// INT64 results above 2^53 are compared exactly; every union metric passes
// verify on rows of the bundled fortunes dataset
// (15,639 columns, where dense completion would cost O(m n k)); CANBERRA,
// HAMMING and JENSEN_SHANNON on many distinct values pass when right and
// fail when corrupted.

#include "test_common.h"
#include "gxd_mtx.h"
#include "gxd_test_hooks.h"
#include <ctype.h>

// fault injection off, verify back to its state after init
static void restore_settings (void)
{
    GXD_set_fault_injection (false) ;
    GXT_OK (GxB_Distance_set_verify (gxt_verify_at_init)) ;
    GXT_OK (GxB_Distance_set_verify_rows (64)) ;
}

static void verify_state_after_init_follows_gxbdist_verify (void **state)
{
    GXT_START ( ) ;
    const char *v = getenv ("GXBDIST_VERIFY") ;
    bool expect = (v != NULL && strcmp (v, "1") == 0) ;
    if (gxt_verify_at_init != expect)
        GXT_FAIL ("verify was %s after GxB_Distance_init with GXBDIST_VERIFY=%s",
            gxt_verify_at_init ? "on" : "off", v ? v : "(unset)") ;
}

static void verify_setting_round_trips (void **state)
{
    GXT_START ( ) ;
    bool on ;
    GXT_OK (GxB_Distance_set_verify (true)) ;
    GXT_OK (GxB_Distance_get_verify (&on)) ;
    assert_true (on) ;
    GXT_OK (GxB_Distance_set_verify (false)) ;
    GXT_OK (GxB_Distance_get_verify (&on)) ;
    assert_false (on) ;
    restore_settings ( ) ;
}

static void verify_rows_setting_round_trips_from_its_default (void **state)
{
    GXT_START ( ) ;
    uint64_t r ;
    GXT_OK (GxB_Distance_get_verify_rows (&r)) ;
    if (r != 64) GXT_FAIL ("verify rows is %lu after init, expected 64", (unsigned long) r) ;
    GXT_OK (GxB_Distance_set_verify_rows (0)) ;
    GXT_OK (GxB_Distance_get_verify_rows (&r)) ;
    assert_int_equal (r, 0) ;
    GXT_OK (GxB_Distance_set_verify_rows (5)) ;
    GXT_OK (GxB_Distance_get_verify_rows (&r)) ;
    assert_int_equal (r, 5) ;
    GXT_EXPECT (GrB_NULL_POINTER, GxB_Distance_get_verify_rows (NULL)) ;
    restore_settings ( ) ;
}

static void verify_passes_correct_results_of_every_metric (void **state)
{
    GXT_START ( ) ;
    GXT_OK (GxB_Distance_set_verify (true)) ;
    GrB_Type types [2] = { GrB_FP32, GrB_FP64 } ;
    gxt_shape shapes [3] = { GXT_SHAPE_RANDOM, GXT_SHAPE_EMPTY_ROWS, GXT_SHAPE_K1 } ;
    for (int i = 0 ; i < gxt_nmetrics ; i++)
    {
        const gxt_metric *mt = &gxt_metrics [i] ;
        gxt_values v = (mt->flags & GXT_NONNEG) ? GXT_NONNEG_VALUES : GXT_MIXED ;
        for (int q = 0 ; q < 3 ; q++)
        {
            for (int t = 0 ; t < 2 ; t++)
            {
                GrB_Matrix A, B, C = NULL ;
                gxt_pair (&A, &B, shapes [q], v) ;
                GrB_Semiring s = gxt_semiring (mt, types [t]) ;
                GrB_Info info = gxt_distance (&C, types [t], s, A, B, NULL) ;
                if (info != GrB_SUCCESS)
                    GXT_FAIL ("verify mode: %s p=%g %s shape %s returned %s: \"%s\"", mt->name, mt->p,
                        gxt_type_name (types [t]), gxt_shape_name (shapes [q]), gxt_info_name (info), gxt_message ( )) ;
                gxt_check_metric (C, mt, types [t], A, B, "verify on") ;
                gxt_semiring_free (mt, &s) ;
                GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&C) ;
            }
        }
    }
    restore_settings ( ) ;
}

// A matrix against itself (one object, as a kNN graph of a set is made):
// the reference takes a row with itself as 0 where every term f(v, v) is
// (GXO_zero_self; test_oracle_union checks it where a term is NaN).  Rows
// of small integers and one of values near 1e300, every metric of the
// union sums that cancels there, FP64, verify on: the call must pass, and
// d(i, i) is 0.
static void verify_of_a_matrix_with_itself (void **state)
{
    GXT_START ( ) ;
    GXT_OK (GxB_Distance_set_verify (true)) ;
    const GrB_Index m = 12, k = 30 ;
    GrB_Matrix A ;
    GXT_OK (GrB_Matrix_new (&A, GrB_FP64, m, k)) ;
    for (GrB_Index i = 0 ; i < m ; i++)
    {
        for (int e = 0 ; e < 4 ; e++)
        {
            double v = 1 + (double) (gxt_rand ( ) % 9) ;
            if (i == 7) v *= 1e300 ;
            GXT_OK (GrB_Matrix_setElement_FP64 (A, v, i, (3 * i + 7 * e) % k)) ;
        }
    }
    const char *names [8] = { "EUCLIDEAN", "SQEUCLIDEAN", "MANHATTAN",
        "COSINE", "CANBERRA", "HELLINGER", "JENSEN_SHANNON", "MINKOWSKI" } ;
    for (int q = 0 ; q < 8 ; q++)
    {
        const gxt_metric *mt = NULL ;
        for (int i = 0 ; i < gxt_nmetrics ; i++)
        {
            if (strcmp (gxt_metrics [i].name, names [q]) == 0) mt = &gxt_metrics [i] ;
        }
        assert_non_null (mt) ;
        GrB_Semiring s = gxt_semiring (mt, GrB_FP64) ;
        GrB_Matrix C = NULL ;
        GrB_Info info = gxt_distance (&C, GrB_FP64, s, A, A, NULL) ;
        if (info != GrB_SUCCESS)
            GXT_FAIL ("verify mode, %s of a matrix with itself: %s: \"%s\"",
                mt->name, gxt_info_name (info), gxt_message ( )) ;
        for (GrB_Index i = 0 ; i < m ; i++)
        {
            double d = -1 ;
            GXT_OK (GrB_Matrix_extractElement_FP64 (&d, C, i, i)) ;
            if (d != 0)
                GXT_FAIL ("%s: d(%llu, %llu) = %.17g, not 0", mt->name,
                    (unsigned long long) i, (unsigned long long) i, d) ;
        }
        gxt_semiring_free (mt, &s) ;
        GrB_Matrix_free (&C) ;
    }
    GrB_Matrix_free (&A) ;
    restore_settings ( ) ;
}

static void verify_passes_correct_masked_and_namm_results (void **state)
{
    GXT_START ( ) ;
    GXT_OK (GxB_Distance_set_verify (true)) ;
    GrB_Matrix A, B, M, C ;
    gxt_pair (&A, &B, GXT_SHAPE_RANDOM, GXT_MIXED) ;
    gxt_result_mask (&M, A, B, 0.3) ;
    gxt_new_result (&C, GrB_FP64, A, B) ;
    GXT_OK (GxB_mxm_distance (C, M, NULL, GxB_DIST_MANHATTAN_FP64, A, B, NULL)) ;
    GXT_OK (GxB_mxm_distance (C, M, GrB_PLUS_FP64, GxB_DIST_COSINE_FP32, A, B, GrB_DESC_RSC)) ;
    GxB_NAMM namm = NULL ;
    GrB_Semiring s = NULL ;
    GXT_OK (GxB_NAMM_new (&namm, GrB_MINUS_FP64, 0)) ;
    GXT_OK (GxB_Semiring_new_NAMM (&s, GrB_MAX_MONOID_FP64, namm)) ;
    GXT_OK (GxB_mxm_distance (C, NULL, NULL, s, A, B, NULL)) ;
    GXT_OK (GxB_mxm_distance (C, NULL, NULL, GxB_PLUS_MINUS_FP64, A, B, GxB_DESC_UNION)) ;
    GrB_Semiring_free (&s) ;
    GXT_OK (GxB_NAMM_free (&namm)) ;
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&M) ; GrB_Matrix_free (&C) ;
    restore_settings ( ) ;
}

// does msg contain the metric's name (any case) and an "(i,j)" position?
static bool names_metric (const char *msg, const char *name)
{
    size_t n = strlen (name) ;
    for (const char *p = msg ; *p ; p++)
    {
        size_t i = 0 ;
        while (i < n && p [i] && tolower ((unsigned char) p [i]) == tolower ((unsigned char) name [i])) i++ ;
        if (i == n) return true ;
    }
    return false ;
}

static bool has_position (const char *msg)
{
    for (const char *p = strchr (msg, '(') ; p != NULL ; p = strchr (p + 1, '('))
    {
        long i, j ;
        char close ;
        if (sscanf (p, "(%ld ,%ld %c", &i, &j, &close) == 3 && close == ')') return true ;
        if (sscanf (p, "(%ld,%ld%c", &i, &j, &close) == 3 && close == ')') return true ;
    }
    return false ;
}

static void verify_catches_a_deliberately_wrong_result (void **state)
{
    GXT_START ( ) ;
    const char *names [7] = { "EUCLIDEAN", "MANHATTAN", "CHEBYSHEV", "COSINE", "JACCARD", "JENSEN_SHANNON",
        "CORRELATION" } ;
    GrB_Type types [2] = { GrB_FP32, GrB_FP64 } ;
    for (int q = 0 ; q < 7 ; q++)
    {
        const gxt_metric *mt = gxt_metric_named (names [q]) ;
        for (int t = 0 ; t < 2 ; t++)
        {
            for (int masked = 0 ; masked <= 1 ; masked++)
            {
                GrB_Matrix A, B, C, M = NULL ;
                gxt_pair (&A, &B, GXT_SHAPE_RANDOM, (mt->flags & GXT_NONNEG) ? GXT_NONNEG_VALUES : GXT_MIXED) ;
                if (masked) gxt_result_mask (&M, A, B, 0.5) ;
                gxt_new_result (&C, types [t], A, B) ;
                gxt_snapshot sa = gxt_snap (A), sb = gxt_snap (B) ;
                GXT_OK (GxB_Distance_set_verify (true)) ;
                GXD_set_fault_injection (true) ;
                GrB_Info info = GxB_mxm_distance (C, M, NULL, t ? *mt->fp64 : *mt->fp32, A, B,
                    masked ? GrB_DESC_S : NULL) ;
                const char *msg = gxt_message ( ) ;
                char copy [1024] ;
                snprintf (copy, sizeof (copy), "%s", msg) ;
                restore_settings ( ) ;
                if (info != GxB_VERIFY_FAILED)
                    GXT_FAIL ("%s %s%s: a wrong result under verify returned %s (%d), expected GxB_VERIFY_FAILED; \"%s\"",
                        names [q], gxt_type_name (types [t]), masked ? " masked" : "", gxt_info_name (info),
                        (int) info, copy) ;
                if (!names_metric (copy, names [q]))
                    GXT_FAIL ("%s %s: the verify message does not name the metric: \"%s\"", names [q],
                        gxt_type_name (types [t]), copy) ;
                if (!has_position (copy))
                    GXT_FAIL ("%s %s: the verify message has no (i,j) position: \"%s\"", names [q],
                        gxt_type_name (types [t]), copy) ;
                gxt_snap_check (&sa, A, "A after GxB_VERIFY_FAILED") ;
                gxt_snap_check (&sb, B, "B after GxB_VERIFY_FAILED") ;
                GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&C) ; GrB_Matrix_free (&M) ;
            }
        }
    }
}

static void fault_injection_without_verify_changes_exactly_one_entry (void **state)
{
    GXT_START ( ) ;
    const char *names [3] = { "EUCLIDEAN", "MANHATTAN", "CHEBYSHEV" } ;
    for (int q = 0 ; q < 3 ; q++)
    {
        const gxt_metric *mt = gxt_metric_named (names [q]) ;
        GrB_Matrix A, B, C = NULL, D = NULL ;
        gxt_pair (&A, &B, GXT_SHAPE_RANDOM, GXT_MIXED) ;
        GXT_OK (GxB_Distance_set_verify (false)) ;
        GXD_set_fault_injection (true) ;
        GrB_Info info = gxt_distance (&C, GrB_FP64, *mt->fp64, A, B, NULL) ;
        restore_settings ( ) ;
        GXT_OK (info) ;
        GXT_OK (GXO_metric (&D, mt->name, 0, GrB_FP64, A, B)) ;
        int64_t nbad = 0, wi, wj ;
        double wg, wr ;
        GXT_OK (GXO_compare (C, D, NULL, 1e-12, &nbad, &wi, &wj, &wg, &wr)) ;
        if (nbad != 1)
            GXT_FAIL ("%s: fault injection without verify: %ld entries differ from the reference, expected exactly 1",
                names [q], (long) nbad) ;
        // the injected fault is far outside any tolerance
        if (!(fabs (wg - wr) > 0.5))
            GXT_FAIL ("%s: the faulty entry (%ld,%ld) is %.17g, the reference %.17g: not a deliberate fault",
                names [q], (long) wi, (long) wj, wg, wr) ;
        // once off, results are right again
        GrB_Matrix_free (&C) ;
        GXT_OK (gxt_distance (&C, GrB_FP64, *mt->fp64, A, B, NULL)) ;
        gxt_check_metric (C, mt, GrB_FP64, A, B, "after fault injection is off") ;
        GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&C) ; GrB_Matrix_free (&D) ;
    }
}

//------------------------------------------------------------------------------
// verify at scale
//------------------------------------------------------------------------------

static void absdiff64 (void *z, const void *x, const void *y)
{ *(double *) z = fabs (*(const double *) x - *(const double *) y) ; }
static void sqdiff32 (void *z, const void *x, const void *y)
{ float d = *(const float *) x - *(const float *) y ; *(float *) z = d * d ; }

// *info = GxB_mxm_distance (poisoned C, s) under verify with or without the
// fault; the message copied into msg
static GrB_Info run_verified (GrB_Type ctype, GrB_Semiring s, GrB_Matrix A,
    GrB_Matrix B, GrB_Matrix M, GrB_Descriptor desc, bool fault, char *msg,
    size_t len)
{
    GrB_Matrix C ;
    gxt_new_result (&C, ctype, A, B) ;
    gxt_poison (C) ;
    GXT_OK (GxB_Distance_set_verify (true)) ;
    GXD_set_fault_injection (fault) ;
    GrB_Info info = GxB_mxm_distance (C, M, NULL, s, A, B, desc) ;
    snprintf (msg, len, "%s", gxt_message ( )) ;
    GXD_set_fault_injection (false) ;
    GrB_Matrix_free (&C) ;
    return info ;
}

// user operators: |x-y| with PLUS (FP64, identity 0 and 1), (x-y)^2 with
// PLUS in FP32, |x-y| with MAX (sampled rows): right results pass, a
// corrupted one fails naming the worst (i,j)
static void verify_checks_user_operator_results (void **state)
{
    GXT_START ( ) ;
    GrB_BinaryOp op64, op32 ;
    GXT_OK (GxB_BinaryOp_new (&op64, absdiff64, GrB_FP64, GrB_FP64, GrB_FP64, "absdiff64", NULL)) ;
    GXT_OK (GxB_BinaryOp_new (&op32, sqdiff32, GrB_FP32, GrB_FP32, GrB_FP32, "sqdiff32", NULL)) ;
    struct { GrB_BinaryOp op ; GrB_Monoid mon ; double id ; GrB_Type t ; } cases [4] =
    {
        { op64, GrB_PLUS_MONOID_FP64, 0, GrB_FP64 },
        { op64, GrB_PLUS_MONOID_FP64, 1, GrB_FP64 },
        { op32, GrB_PLUS_MONOID_FP32, 0, GrB_FP32 },
        { op64, GrB_MAX_MONOID_FP64,  0, GrB_FP64 },
    } ;
    for (int q = 0 ; q < 4 ; q++)
    {
        GxB_NAMM namm ;
        GrB_Semiring s ;
        GXT_OK (GxB_NAMM_new (&namm, cases [q].op, cases [q].id)) ;
        GXT_OK (GxB_Semiring_new_NAMM (&s, cases [q].mon, namm)) ;
        GrB_Matrix A, B ;
        gxt_pair (&A, &B, GXT_SHAPE_RANDOM, GXT_MIXED) ;
        char msg [1024] ;
        GrB_Info info = run_verified (cases [q].t, s, A, B, NULL, NULL, false, msg, sizeof (msg)) ;
        if (info != GrB_SUCCESS)
            GXT_FAIL ("user operator case %d: a right result under verify returned %s: \"%s\"", q,
                gxt_info_name (info), msg) ;
        info = run_verified (cases [q].t, s, A, B, NULL, NULL, true, msg, sizeof (msg)) ;
        if (info != GxB_VERIFY_FAILED || !has_position (msg))
            GXT_FAIL ("user operator case %d: a corrupted result under verify returned %s, expected "
                "GxB_VERIFY_FAILED with an (i,j): \"%s\"", q, gxt_info_name (info), msg) ;
        GrB_Semiring_free (&s) ;
        GXT_OK (GxB_NAMM_free (&namm)) ;
        GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ;
    }
    GrB_BinaryOp_free (&op64) ;
    GrB_BinaryOp_free (&op32) ;
    restore_settings ( ) ;
}

// an INT64 union whose values pass 2^53 (where doubles no longer hold every
// integer): a right result passes the exact comparison, a corrupted one fails
static void verify_compares_integer_results_exactly (void **state)
{
    GXT_START ( ) ;
    GrB_Matrix A0, B0, A, B ;
    gxt_pair (&A0, &B0, GXT_SHAPE_RANDOM, GXT_INTEGERS) ;
    gxt_convert (&A, A0, GXT_FMT_SPARSE, GrB_INT64) ;
    gxt_convert (&B, B0, GXT_FMT_SPARSE, GrB_INT64) ;
    GXT_OK (GrB_Matrix_apply_BinaryOp2nd_INT64 (A, NULL, NULL, GrB_PLUS_INT64, A, (int64_t) 1 << 60, NULL)) ;
    GXT_OK (GrB_Matrix_apply_BinaryOp2nd_INT64 (B, NULL, NULL, GrB_PLUS_INT64, B, ((int64_t) 1 << 60) + 3, NULL)) ;
    GxB_NAMM namm ;
    GrB_Semiring s ;
    GXT_OK (GxB_NAMM_new (&namm, GrB_MINUS_INT64, 0)) ;
    GXT_OK (GxB_Semiring_new_NAMM (&s, GrB_PLUS_MONOID_INT64, namm)) ;
    char msg [1024] ;
    GrB_Info info = run_verified (GrB_INT64, s, A, B, NULL, NULL, false, msg, sizeof (msg)) ;
    if (info != GrB_SUCCESS)
        GXT_FAIL ("INT64 union above 2^53: a right result under verify returned %s: \"%s\"",
            gxt_info_name (info), msg) ;
    info = run_verified (GrB_INT64, s, A, B, NULL, NULL, true, msg, sizeof (msg)) ;
    if (info != GxB_VERIFY_FAILED)
        GXT_FAIL ("INT64 union above 2^53: a corrupted result returned %s: \"%s\"", gxt_info_name (info), msg) ;
    GrB_Semiring_free (&s) ;
    GXT_OK (GxB_NAMM_free (&namm)) ;
    GrB_Matrix_free (&A0) ; GrB_Matrix_free (&B0) ; GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ;
    restore_settings ( ) ;
}

// CHEBYSHEV is checked on sampled rows: with 4 of 150 rows sampled, the
// corrupted first entry (row 0, always sampled) is caught and the message
// says the check was sampled.  The limit, as documented: with a mask whose
// row 0 is empty the first entry lies in a later row, which a sample of just
// row 0 does not see (GrB_SUCCESS), while every row (0) catches it.
static void verify_samples_rows_and_catches_errors_in_them (void **state)
{
    GXT_START ( ) ;
    const gxt_metric *mt = gxt_metric_named ("CHEBYSHEV") ;
    GrB_Matrix A, B, M ;
    gxt_pair (&A, &B, GXT_SHAPE_TALL, GXT_MIXED) ;
    GrB_Index m, n ;
    GXT_OK (GrB_Matrix_nrows (&m, A)) ;
    GXT_OK (GrB_Matrix_nrows (&n, B)) ;
    char msg [1024] ;
    GXT_OK (GxB_Distance_set_verify_rows (4)) ;
    GrB_Info info = run_verified (GrB_FP64, *mt->fp64, A, B, NULL, NULL, false, msg, sizeof (msg)) ;
    if (info != GrB_SUCCESS)
        GXT_FAIL ("sampled CHEBYSHEV: a right result returned %s: \"%s\"", gxt_info_name (info), msg) ;
    info = run_verified (GrB_FP64, *mt->fp64, A, B, NULL, NULL, true, msg, sizeof (msg)) ;
    if (info != GxB_VERIFY_FAILED || strstr (msg, "sampled") == NULL || !has_position (msg))
        GXT_FAIL ("sampled CHEBYSHEV: a corrupted row 0 returned %s, expected GxB_VERIFY_FAILED naming "
            "the sampled rows and (i,j): \"%s\"", gxt_info_name (info), msg) ;
    // a mask with row 0 empty, rows 1 .. m-1 full
    GXT_OK (GrB_Matrix_new (&M, GrB_BOOL, m, n)) ;
    GrB_Index rows [2] = { 1, m - 1 } ;
    GXT_OK (GrB_Matrix_assign_BOOL (M, NULL, NULL, true, rows, GxB_RANGE, GrB_ALL, n, NULL)) ;
    GXT_OK (GxB_Distance_set_verify_rows (1)) ;
    info = run_verified (GrB_FP64, *mt->fp64, A, B, M, GrB_DESC_S, true, msg, sizeof (msg)) ;
    if (info != GrB_SUCCESS)
        GXT_FAIL ("a corrupted row 1 with only row 0 sampled returned %s (the documented limit is that "
            "it is not seen): \"%s\"", gxt_info_name (info), msg) ;
    GXT_OK (GxB_Distance_set_verify_rows (0)) ;
    info = run_verified (GrB_FP64, *mt->fp64, A, B, M, GrB_DESC_S, true, msg, sizeof (msg)) ;
    if (info != GxB_VERIFY_FAILED || strstr (msg, "(1,") == NULL)
        GXT_FAIL ("a corrupted row 1 with every row checked returned %s, expected GxB_VERIFY_FAILED at "
            "(1,j): \"%s\"", gxt_info_name (info), msg) ;
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&M) ;
    restore_settings ( ) ;
}

// every union metric and a user |x-y| pass verify on rows of fortunes
// (A: its first rows, B: more of them, all 15,639 columns), FP32 and FP64
static void verify_passes_every_union_metric_on_fortunes (void **state)
{
    GXT_START ( ) ;
    bool small = getenv ("GXBDIST_TEST_SMALL") != NULL ;     // valgrind
    GrB_Index ma = small ? 4 : 48, nb = small ? 40 : 600, k ;
    GrB_Matrix F, A, B ;
    GXT_OK (GXD_mtx_read (&F, GrB_FP64, GXD_DATA_DIR "/fortunes.mtx.gz")) ;
    GXT_OK (GrB_Matrix_ncols (&k, F)) ;
    GrB_Index ra [2] = { 0, ma - 1 }, rb [2] = { 0, nb - 1 } ;
    GXT_OK (GrB_Matrix_new (&A, GrB_FP64, ma, k)) ;
    GXT_OK (GrB_Matrix_new (&B, GrB_FP64, nb, k)) ;
    GXT_OK (GrB_Matrix_extract (A, NULL, NULL, F, ra, GxB_RANGE, GrB_ALL, k, NULL)) ;
    GXT_OK (GrB_Matrix_extract (B, NULL, NULL, F, rb, GxB_RANGE, GrB_ALL, k, NULL)) ;
    GrB_Matrix_free (&F) ;
    const char *names [9] = { "MANHATTAN", "CHEBYSHEV", "CANBERRA", "HAMMING", "JENSEN_SHANNON",
        "BRAYCURTIS", "EUCLIDEAN", "COSINE", "CORRELATION" } ;
    GrB_BinaryOp op ;
    GxB_NAMM namm ;
    GrB_Semiring user, mink ;
    GXT_OK (GxB_BinaryOp_new (&op, absdiff64, GrB_FP64, GrB_FP64, GrB_FP64, "absdiff64", NULL)) ;
    GXT_OK (GxB_NAMM_new (&namm, op, 0)) ;
    GXT_OK (GxB_Semiring_new_NAMM (&user, GrB_PLUS_MONOID_FP64, namm)) ;
    GrB_Type types [2] = { GrB_FP32, GrB_FP64 } ;
    for (int t = 0 ; t < 2 ; t++)
    {
        GXT_OK (GxB_Semiring_new_minkowski (&mink, 3, types [t])) ;
        for (int q = 0 ; q < 11 ; q++)
        {
            GrB_Semiring s = (q == 9) ? mink : (q == 10) ? user
                : (t ? *gxt_metric_named (names [q])->fp64 : *gxt_metric_named (names [q])->fp32) ;
            const char *name = (q == 9) ? "MINKOWSKI 3" : (q == 10) ? "user |x-y|" : names [q] ;
            char msg [1024] ;
            GrB_Type ct = (q == 10) ? GrB_FP64 : types [t] ;
            GrB_Info info = run_verified (ct, s, A, B, NULL, NULL, false, msg, sizeof (msg)) ;
            if (info != GrB_SUCCESS)
                GXT_FAIL ("fortunes %lu x %lu rows, %s %s: verify returned %s: \"%s\"",
                    (unsigned long) ma, (unsigned long) nb, name, gxt_type_name (types [t]),
                    gxt_info_name (info), msg) ;
        }
        GrB_Semiring_free (&mink) ;
    }
    GrB_Semiring_free (&user) ;
    GXT_OK (GxB_NAMM_free (&namm)) ;
    GrB_BinaryOp_free (&op) ;
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ;
    restore_settings ( ) ;
}

// CANBERRA, HAMMING and JENSEN_SHANNON on many distinct values (more than
// the reference's classes of A's values take), A and B drawn from one pool
// of 300 fresh random values so that equal values meet in common columns:
// right FP32 and FP64 results pass verify, a wrong entry fails it
static void verify_checks_sums_of_many_distinct_values (void **state)
{
    GXT_START ( ) ;
    const char *names [3] = { "CANBERRA", "HAMMING", "JENSEN_SHANNON" } ;
    GrB_Type types [2] = { GrB_FP32, GrB_FP64 } ;
    double pool [300] ;
    gxt_pool pd = { pool, 300 } ;
    for (int q = 0 ; q < 3 ; q++)
    {
        const gxt_metric *mt = gxt_metric_named (names [q]) ;
        bool nonneg = (mt->flags & GXT_NONNEG) != 0 ;
        for (int v = 0 ; v < 300 ; v++)
        {
            pool [v] = nonneg ? 2 * gxt_uniform ( ) : 4 * (gxt_uniform ( ) - 0.5) ;
        }
        GrB_Matrix A, B ;
        gxt_spec sa = { 50, 40, 0.3, 0.1, false, 0.05, -1, GXT_INTEGERS } ;
        gxt_spec sb = { 70, 40, 0.3, 0.1, false, 0.05, -1, GXT_INTEGERS } ;
        gxt_random (&A, &sa) ;
        gxt_random (&B, &sb) ;
        gxt_revalue (A, gxt_pool_value, &pd) ;
        gxt_revalue (B, gxt_pool_value, &pd) ;
        for (int t = 0 ; t < 2 ; t++)
        {
            GrB_Semiring s = t ? *mt->fp64 : *mt->fp32 ;
            char msg [1024] ;
            GrB_Info info = run_verified (types [t], s, A, B, NULL, NULL, false, msg, sizeof (msg)) ;
            if (info != GrB_SUCCESS)
                GXT_FAIL ("%s %s, many distinct values: verify returned %s: \"%s\"", names [q],
                    gxt_type_name (types [t]), gxt_info_name (info), msg) ;
            info = run_verified (types [t], s, A, B, NULL, NULL, true, msg, sizeof (msg)) ;
            if (info != GxB_VERIFY_FAILED || !names_metric (msg, names [q]) || !has_position (msg))
                GXT_FAIL ("%s %s, many distinct values: a wrong result under verify returned %s, "
                    "expected GxB_VERIFY_FAILED naming the metric and (i,j): \"%s\"", names [q],
                    gxt_type_name (types [t]), gxt_info_name (info), msg) ;
            GrB_Matrix C ;
            GXT_OK (gxt_distance (&C, types [t], s, A, B, NULL)) ;
            gxt_check_metric (C, mt, types [t], A, B, "many distinct values") ;
            GrB_Matrix_free (&C) ;
        }
        GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ;
    }
    restore_settings ( ) ;
}

int main (void)
{
    const struct CMUnitTest tests [] =
    {
        cmocka_unit_test (verify_state_after_init_follows_gxbdist_verify),
        cmocka_unit_test (verify_setting_round_trips),
        cmocka_unit_test (verify_rows_setting_round_trips_from_its_default),
        cmocka_unit_test (verify_passes_correct_results_of_every_metric),
        cmocka_unit_test (verify_of_a_matrix_with_itself),
        cmocka_unit_test (verify_passes_correct_masked_and_namm_results),
        cmocka_unit_test (verify_catches_a_deliberately_wrong_result),
        cmocka_unit_test (fault_injection_without_verify_changes_exactly_one_entry),
        cmocka_unit_test (verify_checks_user_operator_results),
        cmocka_unit_test (verify_compares_integer_results_exactly),
        cmocka_unit_test (verify_samples_rows_and_catches_errors_in_them),
        cmocka_unit_test (verify_passes_every_union_metric_on_fortunes),
        cmocka_unit_test (verify_checks_sums_of_many_distinct_values),
    } ;
    return gxt_main ("verify", tests, sizeof (tests) / sizeof (tests [0])) ;
}
