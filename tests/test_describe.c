// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// tests/test_describe.c: the hooks for libraries layered on gxbdist
//------------------------------------------------------------------------------

// GxB_Distance_describe: a key that tells every distance apart (the FP32
// and FP64 semirings of every predefined metric, Minkowski's p, a NAMM's
// identity, union from intersection) and is equal for equal distances made
// separately (what processes compare: gxbdist_mpi); DOT alone is
// largest-first; the result type is GxB_kNN's.  GxB_Distance_set_error:
// its message is what GxB_Distance_error returns.

#include "test_common.h"

#define KEY 4096

static void describe (char *key, bool *largest, GrB_Type *type, GrB_Semiring s,
    GrB_Descriptor d)
{
    GXT_OK (GxB_Distance_describe (key, KEY, largest, type, s, d)) ;
}

static void every_predefined_metric_has_its_own_key (void **state)
{
    static char keys [64][KEY] ;
    assert_true (2 * gxt_npredefined <= 64) ;
    int n = 0 ;
    for (int t = 0 ; t < gxt_nmetrics ; t++)
    {
        const gxt_metric *mt = &gxt_metrics [t] ;
        if (mt->fp32 == NULL) continue ;            // Minkowski: below
        for (int f = 0 ; f < 2 ; f++)
        {
            bool largest ;
            GrB_Type type ;
            describe (keys [n], &largest, &type, f ? *mt->fp64 : *mt->fp32, NULL) ;
            if (largest != (strcmp (mt->name, "DOT") == 0))
            {
                GXT_FAIL ("%s: largest_first %d", mt->name, largest) ;
            }
            if (type != (f ? GrB_FP64 : GrB_FP32))
            {
                GXT_FAIL ("%s fp%d: result type %s", mt->name, f ? 64 : 32,
                    gxt_type_name (type)) ;
            }
            for (int q = 0 ; q < n ; q++)
            {
                if (strcmp (keys [q], keys [n]) == 0)
                {
                    GXT_FAIL ("%s fp%d: the key of another metric: %s",
                        mt->name, f ? 64 : 32, keys [n]) ;
                }
            }
            n++ ;
        }
    }
    assert_int_equal (n, 2 * gxt_npredefined) ;
}

static void minkowski_keys_are_equal_exactly_for_equal_p (void **state)
{
    GrB_Semiring s3 = NULL, t3 = NULL, s4 = NULL, inf = NULL ;
    char k3 [KEY], kt3 [KEY], k4 [KEY], kinf [KEY], kcheb [KEY] ;
    bool largest ;
    GrB_Type type ;
    GXT_OK (GxB_Semiring_new_minkowski (&s3, 3, GrB_FP64)) ;
    GXT_OK (GxB_Semiring_new_minkowski (&t3, 3, GrB_FP64)) ;
    GXT_OK (GxB_Semiring_new_minkowski (&s4, 3 + 1e-15, GrB_FP64)) ;
    GXT_OK (GxB_Semiring_new_minkowski (&inf, INFINITY, GrB_FP64)) ;
    describe (k3, &largest, &type, s3, NULL) ;
    describe (kt3, &largest, &type, t3, NULL) ;
    describe (k4, &largest, &type, s4, NULL) ;
    describe (kinf, &largest, &type, inf, NULL) ;
    describe (kcheb, &largest, &type, GxB_DIST_CHEBYSHEV_FP64, NULL) ;
    assert_string_equal (k3, kt3) ;
    assert_string_not_equal (k3, k4) ;
    assert_string_equal (kinf, kcheb) ;         // p = inf is Chebyshev
    GrB_Semiring_free (&s3) ; GrB_Semiring_free (&t3) ;
    GrB_Semiring_free (&s4) ; GrB_Semiring_free (&inf) ;
}

static void union_intersection_and_namm_identity_are_told_apart (void **state)
{
    char ki [KEY], ku [KEY], kn0 [KEY], kn0b [KEY], kn1 [KEY] ;
    bool largest ;
    GrB_Type type ;
    describe (ki, &largest, &type, GrB_PLUS_TIMES_SEMIRING_FP64, NULL) ;
    describe (ku, &largest, &type, GrB_PLUS_TIMES_SEMIRING_FP64, GxB_DESC_UNION) ;
    assert_string_not_equal (ki, ku) ;
    assert_false (largest) ;
    // an integer product: GxB_kNN orders and returns it in FP64
    describe (ki, &largest, &type, GrB_PLUS_TIMES_SEMIRING_INT32, NULL) ;
    assert_true (type == GrB_FP64) ;
    GxB_NAMM n0 = NULL, n1 = NULL ;
    GrB_Semiring s0 = NULL, s0b = NULL, s1 = NULL ;
    GXT_OK (GxB_NAMM_new (&n0, GrB_MINUS_FP64, 0)) ;
    GXT_OK (GxB_NAMM_new (&n1, GrB_MINUS_FP64, 1)) ;
    GXT_OK (GxB_Semiring_new_NAMM (&s0, GrB_PLUS_MONOID_FP64, n0)) ;
    GXT_OK (GxB_Semiring_new_NAMM (&s0b, GrB_PLUS_MONOID_FP64, n0)) ;
    GXT_OK (GxB_Semiring_new_NAMM (&s1, GrB_PLUS_MONOID_FP64, n1)) ;
    describe (kn0, &largest, &type, s0, NULL) ;
    describe (kn0b, &largest, &type, s0b, NULL) ;
    describe (kn1, &largest, &type, s1, NULL) ;
    assert_string_equal (kn0, kn0b) ;
    assert_string_not_equal (kn0, kn1) ;
    GrB_Semiring_free (&s0) ; GrB_Semiring_free (&s0b) ; GrB_Semiring_free (&s1) ;
    GxB_NAMM_free (&n0) ; GxB_NAMM_free (&n1) ;
}

static void describe_of_bad_arguments_fails_with_a_message (void **state)
{
    char key [KEY] ;
    bool largest ;
    GrB_Type type ;
    GXT_EXPECT (GrB_NULL_POINTER, GxB_Distance_describe (NULL, KEY, &largest,
        &type, GxB_DIST_COSINE_FP32, NULL)) ;
    GXT_EXPECT (GrB_NULL_POINTER, GxB_Distance_describe (key, KEY, NULL,
        &type, GxB_DIST_COSINE_FP32, NULL)) ;
    GXT_EXPECT (GrB_NULL_POINTER, GxB_Distance_describe (key, KEY, &largest,
        NULL, GxB_DIST_COSINE_FP32, NULL)) ;
    GXT_EXPECT (GrB_NULL_POINTER, GxB_Distance_describe (key, KEY, &largest,
        &type, NULL, NULL)) ;
    // a key longer than the room given
    GXT_EXPECT (GrB_INSUFFICIENT_SPACE, GxB_Distance_describe (key, 8,
        &largest, &type, GrB_PLUS_TIMES_SEMIRING_FP64, GxB_DESC_UNION)) ;
}

static void set_error_is_what_distance_error_returns (void **state)
{
    assert_int_equal (GxB_Distance_set_error (GrB_INVALID_VALUE, "rank 3 "
        "failed"), GrB_INVALID_VALUE) ;
    assert_string_equal (gxt_message (), "rank 3 failed") ;
    assert_int_equal (GxB_Distance_set_error (GrB_SUCCESS, NULL), GrB_SUCCESS) ;
    assert_string_equal (gxt_message (), "") ;
}

int main (void)
{
    const struct CMUnitTest tests [] =
    {
        cmocka_unit_test (every_predefined_metric_has_its_own_key),
        cmocka_unit_test (minkowski_keys_are_equal_exactly_for_equal_p),
        cmocka_unit_test (union_intersection_and_namm_identity_are_told_apart),
        cmocka_unit_test (describe_of_bad_arguments_fails_with_a_message),
        cmocka_unit_test (set_error_is_what_distance_error_returns),
    } ;
    return gxt_main ("describe", tests, sizeof (tests) / sizeof (tests [0])) ;
}
