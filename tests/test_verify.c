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

#include "test_common.h"
#include "gxd_test_hooks.h"
#include <ctype.h>

// fault injection off, verify back to its state after init
static void restore_settings (void)
{
    GXD_set_fault_injection (false) ;
    GXT_OK (GxB_Distance_set_verify (gxt_verify_at_init)) ;
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

static void verify_passes_correct_masked_and_namm_results (void **state)
{
    GXT_START ( ) ;
    GXT_OK (GxB_Distance_set_verify (true)) ;
    GrB_Matrix A, B, M, C ;
    gxt_pair (&A, &B, GXT_SHAPE_RANDOM, GXT_MIXED) ;
    GrB_Index m, n ;
    GXT_OK (GrB_Matrix_nrows (&m, A)) ;
    GXT_OK (GrB_Matrix_nrows (&n, B)) ;
    gxt_mask (&M, m, n, 0.3) ;
    GXT_OK (GrB_Matrix_new (&C, GrB_FP64, m, n)) ;
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
    const char *names [6] = { "EUCLIDEAN", "MANHATTAN", "CHEBYSHEV", "COSINE", "JACCARD", "JENSEN_SHANNON" } ;
    GrB_Type types [2] = { GrB_FP32, GrB_FP64 } ;
    for (int q = 0 ; q < 6 ; q++)
    {
        const gxt_metric *mt = gxt_metric_named (names [q]) ;
        for (int t = 0 ; t < 2 ; t++)
        {
            for (int masked = 0 ; masked <= 1 ; masked++)
            {
                GrB_Matrix A, B, C, M = NULL ;
                gxt_pair (&A, &B, GXT_SHAPE_RANDOM, (mt->flags & GXT_NONNEG) ? GXT_NONNEG_VALUES : GXT_MIXED) ;
                GrB_Index m, n ;
                GXT_OK (GrB_Matrix_nrows (&m, A)) ;
                GXT_OK (GrB_Matrix_nrows (&n, B)) ;
                if (masked) gxt_mask (&M, m, n, 0.5) ;
                GXT_OK (GrB_Matrix_new (&C, types [t], m, n)) ;
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

int main (void)
{
    const struct CMUnitTest tests [] =
    {
        cmocka_unit_test (verify_state_after_init_follows_gxbdist_verify),
        cmocka_unit_test (verify_setting_round_trips),
        cmocka_unit_test (verify_passes_correct_results_of_every_metric),
        cmocka_unit_test (verify_passes_correct_masked_and_namm_results),
        cmocka_unit_test (verify_catches_a_deliberately_wrong_result),
        cmocka_unit_test (fault_injection_without_verify_changes_exactly_one_entry),
    } ;
    return gxt_main ("verify", tests, sizeof (tests) / sizeof (tests [0])) ;
}
