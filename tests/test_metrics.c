// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// tests/test_metrics.c: every metric x FP32/FP64 against the reference
//------------------------------------------------------------------------------

// For every predefined metric (and Minkowski with p = 1, 1.5, 3), for both
// FP32 and FP64, on fresh random matrices of every shape class (varied
// shape, density and degree skew, empty rows, a dense row, power-law
// degrees, stored zeros, k = 1, m or n = 0 or 1), C = d(A, B) equals the
// SuiteSparse reference within tolerance (test_common.h), is full, has no
// NaN, is never negative (DOT and KL aside), and A and B come back bit for
// bit.  HELLINGER, JENSEN_SHANNON and KL_DIVERGENCE get non-negative data,
// the others mixed signs.  Everything is checked again with the exact union
// (GxB_Distance_set_exact_union).

#include "test_common.h"

static void run_metric (const char *name, double p)
{
    const gxt_metric *mt = NULL ;
    for (int i = 0 ; i < gxt_nmetrics ; i++)
        if (strcmp (gxt_metrics [i].name, name) == 0 &&
            (gxt_metrics [i].fp32 != NULL || gxt_metrics [i].p == p))
            mt = &gxt_metrics [i] ;
    assert_non_null (mt) ;
    gxt_values values = (mt->flags & GXT_NONNEG) ? GXT_NONNEG_VALUES : GXT_MIXED ;
    GrB_Type types [2] = { GrB_FP32, GrB_FP64 } ;
    for (int exact = 0 ; exact <= 1 ; exact++)
    {
        GXT_OK (GxB_Distance_set_exact_union (exact)) ;
        for (int shape = 0 ; shape < GXT_NSHAPES ; shape++)
        {
            for (int t = 0 ; t < 2 ; t++)
            {
                GrB_Matrix A, B, C = NULL ;
                gxt_pair (&A, &B, (gxt_shape) shape, values) ;
                gxt_snapshot sa = gxt_snap (A), sb = gxt_snap (B) ;
                GrB_Semiring s = gxt_semiring (mt, types [t]) ;
                GXT_OK (gxt_distance (&C, types [t], s, A, B, NULL)) ;
                char ctx [128] ;
                GrB_Index m, n, k ;
                GXT_OK (GrB_Matrix_nrows (&m, A)) ;
                GXT_OK (GrB_Matrix_nrows (&n, B)) ;
                GXT_OK (GrB_Matrix_ncols (&k, A)) ;
                snprintf (ctx, sizeof (ctx), "shape %s %lux%lu vs %lux%lu%s",
                    gxt_shape_name ((gxt_shape) shape), (unsigned long) m,
                    (unsigned long) k, (unsigned long) n, (unsigned long) k,
                    exact ? ", exact union" : "") ;
                gxt_check_metric (C, mt, types [t], A, B, ctx) ;
                gxt_snap_check (&sa, A, "A") ;
                gxt_snap_check (&sb, B, "B") ;
                gxt_semiring_free (mt, &s) ;
                GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&C) ;
            }
        }
    }
    GXT_OK (GxB_Distance_set_exact_union (false)) ;
}

#define METRIC_TEST(fn, NAME, P) \
    static void fn (void **state) { GXT_START ( ) ; run_metric (NAME, P) ; }

METRIC_TEST (euclidean_matches_reference_on_every_shape,      "EUCLIDEAN", 0)
METRIC_TEST (sqeuclidean_matches_reference_on_every_shape,    "SQEUCLIDEAN", 0)
METRIC_TEST (cosine_matches_reference_on_every_shape,         "COSINE", 0)
METRIC_TEST (correlation_matches_reference_on_every_shape,    "CORRELATION", 0)
METRIC_TEST (dice_matches_reference_on_every_shape,           "DICE", 0)
METRIC_TEST (dot_matches_reference_on_every_shape,            "DOT", 0)
METRIC_TEST (hellinger_matches_reference_on_every_shape,      "HELLINGER", 0)
METRIC_TEST (jaccard_matches_reference_on_every_shape,        "JACCARD", 0)
METRIC_TEST (russellrao_matches_reference_on_every_shape,     "RUSSELLRAO", 0)
METRIC_TEST (kl_divergence_matches_reference_on_every_shape,  "KL_DIVERGENCE", 0)
METRIC_TEST (canberra_matches_reference_on_every_shape,       "CANBERRA", 0)
METRIC_TEST (chebyshev_matches_reference_on_every_shape,      "CHEBYSHEV", 0)
METRIC_TEST (hamming_matches_reference_on_every_shape,        "HAMMING", 0)
METRIC_TEST (jensen_shannon_matches_reference_on_every_shape, "JENSEN_SHANNON", 0)
METRIC_TEST (manhattan_matches_reference_on_every_shape,      "MANHATTAN", 0)
METRIC_TEST (braycurtis_matches_reference_on_every_shape,     "BRAYCURTIS", 0)
METRIC_TEST (minkowski_p1_matches_reference_on_every_shape,   "MINKOWSKI", 1)
METRIC_TEST (minkowski_p1_5_matches_reference_on_every_shape, "MINKOWSKI", 1.5)
METRIC_TEST (minkowski_p3_matches_reference_on_every_shape,   "MINKOWSKI", 3)

// the predefined semirings exist for both types and are distinct objects
static void every_predefined_semiring_exists_for_fp32_and_fp64 (void **state)
{
    GXT_START ( ) ;
    for (int i = 0 ; i < gxt_nmetrics ; i++)
    {
        const gxt_metric *mt = &gxt_metrics [i] ;
        if (mt->fp32 == NULL) continue ;
        if (*(mt->fp32) == NULL || *(mt->fp64) == NULL)
            GXT_FAIL ("GxB_DIST_%s_FP32/_FP64 is NULL after GxB_Distance_init", mt->name) ;
        if (*(mt->fp32) == *(mt->fp64))
            GXT_FAIL ("GxB_DIST_%s_FP32 and _FP64 are the same object", mt->name) ;
    }
}

// GxB_Distance_set/get_exact_union round-trip; the default is off
static void exact_union_setting_round_trips_and_defaults_off (void **state)
{
    GXT_START ( ) ;
    bool on = true ;
    GXT_OK (GxB_Distance_get_exact_union (&on)) ;
    assert_false (on) ;
    GXT_OK (GxB_Distance_set_exact_union (true)) ;
    GXT_OK (GxB_Distance_get_exact_union (&on)) ;
    assert_true (on) ;
    GXT_OK (GxB_Distance_set_exact_union (false)) ;
    GXT_OK (GxB_Distance_get_exact_union (&on)) ;
    assert_false (on) ;
}

// a Minkowski semiring of p = 1 gives Manhattan, p = 2 Euclidean
static void minkowski_of_p1_and_p2_equal_manhattan_and_euclidean (void **state)
{
    GXT_START ( ) ;
    GrB_Type types [2] = { GrB_FP32, GrB_FP64 } ;
    for (int t = 0 ; t < 2 ; t++)
    {
        GrB_Matrix A, B, C1 = NULL, C2 = NULL ;
        gxt_pair (&A, &B, GXT_SHAPE_RANDOM, GXT_MIXED) ;
        GrB_Semiring m2 = NULL ;
        GXT_OK (GxB_Semiring_new_minkowski (&m2, 2.0, types [t])) ;
        GXT_OK (gxt_distance (&C2, types [t], m2, A, B, NULL)) ;
        gxt_check_metric (C2, gxt_metric_named ("EUCLIDEAN"), types [t], A, B, "Minkowski p=2") ;
        const gxt_metric *mk1 = NULL ;
        for (int i = 0 ; i < gxt_nmetrics ; i++)
            if (gxt_metrics [i].fp32 == NULL && gxt_metrics [i].p == 1) mk1 = &gxt_metrics [i] ;
        GrB_Semiring m1 = gxt_semiring (mk1, types [t]) ;
        GXT_OK (gxt_distance (&C1, types [t], m1, A, B, NULL)) ;
        gxt_check_metric (C1, gxt_metric_named ("MANHATTAN"), types [t], A, B, "Minkowski p=1") ;
        GrB_Semiring_free (&m2) ;
        gxt_semiring_free (mk1, &m1) ;
        GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ;
        GrB_Matrix_free (&C1) ; GrB_Matrix_free (&C2) ;
    }
}

// A larger power-law case (a few hundred rows), every metric once in FP32
static void every_metric_matches_reference_on_a_larger_powerlaw_set (void **state)
{
    GXT_START ( ) ;
    bool small = getenv ("GXBDIST_TEST_SMALL") != NULL ;
    gxt_spec sp = { 0 } ;
    sp.m = small ? 40 : 300 ; sp.k = small ? 100 : 400 ; sp.density = 12.0 / (double) sp.k ;
    sp.powerlaw = true ; sp.dense_row = -1 ; sp.empty_frac = 0.05 ;
    for (int i = 0 ; i < gxt_nmetrics ; i++)
    {
        const gxt_metric *mt = &gxt_metrics [i] ;
        sp.values = (mt->flags & GXT_NONNEG) ? GXT_NONNEG_VALUES : GXT_MIXED ;
        GrB_Matrix A, B, C = NULL ;
        gxt_random (&A, &sp) ;
        gxt_spec sb = sp ; sb.m = small ? 30 : 200 ;
        gxt_random (&B, &sb) ;
        GrB_Type type = (i % 2) ? GrB_FP64 : GrB_FP32 ;
        GrB_Semiring s = gxt_semiring (mt, type) ;
        GXT_OK (gxt_distance (&C, type, s, A, B, NULL)) ;
        gxt_check_metric (C, mt, type, A, B, "larger power-law") ;
        gxt_semiring_free (mt, &s) ;
        GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&C) ;
    }
}

// rows long enough for a GPU's hash table and high-degree partition (k =
// 100,000, rows of up to 20,000 entries), and B with more rows (70,000) than
// one shared-memory output row holds: every metric, FP32 and FP64
static void every_metric_matches_reference_on_long_rows_and_many_rows (void **state)
{
    GXT_START ( ) ;
    bool small = getenv ("GXBDIST_TEST_SMALL") != NULL ;
    for (int config = 0 ; config < 2 ; config++)
    {
        GrB_Matrix A, B ;
        if (config == 0)
        {
            // k = 100,000: most rows ~40 entries, a few of 3,000 and one of 20,000
            gxt_spec sp = { 0 } ;
            sp.m = 12 ; sp.k = small ? 5000 : 100000 ; sp.density = 40.0 / (double) sp.k ;
            sp.dense_row = -1 ; sp.values = GXT_NONNEG_VALUES ;
            gxt_random (&A, &sp) ;
            sp.m = 16 ;
            gxt_random (&B, &sp) ;
            GrB_Index big [3] = { 3, 7, 11 } ;
            GrB_Index deg [3] = { 3000, 20000, 3000 } ;
            for (int r = 0 ; r < 3 ; r++)
            {
                GrB_Index d = small ? deg [r] / 20 : deg [r] ;
                GrB_Index stride = sp.k / d ;
                for (GrB_Index c = 0 ; c < d ; c++)
                {
                    GXT_OK (GrB_Matrix_setElement_FP64 (A, (double) gxt_int (1, 24) / 8, big [r], c * stride)) ;
                    GXT_OK (GrB_Matrix_setElement_FP64 (B, (double) gxt_int (1, 24) / 8, big [r] + 1, c * stride + (c % 2))) ;
                }
            }
            GXT_OK (GrB_Matrix_wait (A, GrB_MATERIALIZE)) ;
            GXT_OK (GrB_Matrix_wait (B, GrB_MATERIALIZE)) ;
        }
        else
        {
            // n = 70,000 rows of B, k = 24
            gxt_spec sp = { 0 } ;
            sp.m = 3 ; sp.k = 24 ; sp.density = 0.2 ; sp.dense_row = -1 ;
            sp.values = GXT_NONNEG_VALUES ; sp.empty_frac = 0.01 ;
            gxt_random (&A, &sp) ;
            sp.m = small ? 3000 : 70000 ;
            gxt_random (&B, &sp) ;
        }
        for (int i = 0 ; i < gxt_nmetrics ; i++)
        {
            const gxt_metric *mt = &gxt_metrics [i] ;
            for (int t = 0 ; t < 2 ; t++)
            {
                GrB_Type type = t ? GrB_FP64 : GrB_FP32 ;
                GrB_Matrix C = NULL ;
                GrB_Semiring s = gxt_semiring (mt, type) ;
                GXT_OK (gxt_distance (&C, type, s, A, B, NULL)) ;
                gxt_check_metric (C, mt, type, A, B, config == 0 ? "k = 100,000, rows up to 20,000 entries"
                    : "n = 70,000 rows of B") ;
                gxt_semiring_free (mt, &s) ;
                GrB_Matrix_free (&C) ;
            }
        }
        GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ;
    }
}

// the same input gives bitwise the same output, call after call
static void repeated_calls_give_bitwise_identical_results (void **state)
{
    GXT_START ( ) ;
    gxt_spec sp = { 0 } ;
    sp.m = 120 ; sp.k = 300 ; sp.density = 10.0 / 300 ; sp.powerlaw = true ;
    sp.dense_row = 5 ; sp.values = GXT_NONNEG_VALUES ;
    GrB_Matrix A, B ;
    gxt_random (&A, &sp) ;
    sp.m = 90 ; sp.dense_row = -1 ;
    gxt_random (&B, &sp) ;
    for (int i = 0 ; i < gxt_nmetrics ; i++)
    {
        const gxt_metric *mt = &gxt_metrics [i] ;
        for (int t = 0 ; t < 2 ; t++)
        {
            GrB_Type type = t ? GrB_FP64 : GrB_FP32 ;
            GrB_Semiring s = gxt_semiring (mt, type) ;
            GrB_Matrix C1 = NULL, C2 = NULL ;
            GXT_OK (gxt_distance (&C1, type, s, A, B, NULL)) ;
            for (int rep = 0 ; rep < 3 ; rep++)
            {
                GXT_OK (gxt_distance (&C2, type, s, A, B, NULL)) ;
                char what [96] ;
                snprintf (what, sizeof (what), "%s p=%g %s, repeat %d", mt->name, mt->p, gxt_type_name (type), rep) ;
                gxt_check_bitwise (C2, C1, what) ;
                GrB_Matrix_free (&C2) ;
            }
            GrB_Matrix_free (&C1) ;
            gxt_semiring_free (mt, &s) ;
        }
    }
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ;
}

// a few rows of A against many of B (the CPU's blocks of B then hold A's
// columns only) give the bits the same rows give among many rows of A
static void a_few_rows_give_the_bits_they_give_among_many (void **state)
{
    GXT_START ( ) ;
    gxt_spec sp = { 0 } ;
    sp.m = 160 ; sp.k = 250 ; sp.density = 12.0 / 250 ; sp.powerlaw = true ;
    sp.dense_row = -1 ; sp.values = GXT_NONNEG_VALUES ; sp.empty_frac = 0.05 ;
    GrB_Matrix A, B, Af = NULL ;
    gxt_random (&A, &sp) ;
    sp.m = 400 ;
    gxt_random (&B, &sp) ;
    GrB_Index few = 3, k = sp.k ;
    GXT_OK (GrB_Matrix_new (&Af, GrB_FP64, few, k)) ;
    GXT_OK (GrB_Matrix_extract (Af, NULL, NULL, A, (GrB_Index [ ]) { 0, few - 1 },
        GxB_RANGE, GrB_ALL, k, NULL)) ;
    for (int i = 0 ; i < gxt_nmetrics ; i++)
    {
        const gxt_metric *mt = &gxt_metrics [i] ;
        for (int t = 0 ; t < 2 ; t++)
        {
            GrB_Type type = t ? GrB_FP64 : GrB_FP32 ;
            GrB_Semiring s = gxt_semiring (mt, type) ;
            GrB_Matrix C = NULL, Cf = NULL, Cr = NULL ;
            GXT_OK (gxt_distance (&C, type, s, A, B, NULL)) ;
            GXT_OK (gxt_distance (&Cf, type, s, Af, B, NULL)) ;
            GrB_Index n ;
            GXT_OK (GrB_Matrix_ncols (&n, C)) ;
            GXT_OK (GrB_Matrix_new (&Cr, type, few, n)) ;
            GXT_OK (GrB_Matrix_extract (Cr, NULL, NULL, C, (GrB_Index [ ]) { 0, few - 1 },
                GxB_RANGE, GrB_ALL, n, NULL)) ;
            char what [96] ;
            snprintf (what, sizeof (what), "%s p=%g %s, %lu rows alone", mt->name,
                mt->p, gxt_type_name (type), (unsigned long) few) ;
            gxt_check_bitwise (Cf, Cr, what) ;
            gxt_check_metric (Cf, mt, type, Af, B, what) ;
            GrB_Matrix_free (&C) ; GrB_Matrix_free (&Cf) ; GrB_Matrix_free (&Cr) ;
            gxt_semiring_free (mt, &s) ;
        }
    }
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&Af) ; GrB_Matrix_free (&B) ;
}

int main (void)
{
    const struct CMUnitTest tests [] =
    {
        cmocka_unit_test (every_predefined_semiring_exists_for_fp32_and_fp64),
        cmocka_unit_test (exact_union_setting_round_trips_and_defaults_off),
        cmocka_unit_test (euclidean_matches_reference_on_every_shape),
        cmocka_unit_test (sqeuclidean_matches_reference_on_every_shape),
        cmocka_unit_test (cosine_matches_reference_on_every_shape),
        cmocka_unit_test (correlation_matches_reference_on_every_shape),
        cmocka_unit_test (dice_matches_reference_on_every_shape),
        cmocka_unit_test (dot_matches_reference_on_every_shape),
        cmocka_unit_test (hellinger_matches_reference_on_every_shape),
        cmocka_unit_test (jaccard_matches_reference_on_every_shape),
        cmocka_unit_test (russellrao_matches_reference_on_every_shape),
        cmocka_unit_test (kl_divergence_matches_reference_on_every_shape),
        cmocka_unit_test (canberra_matches_reference_on_every_shape),
        cmocka_unit_test (chebyshev_matches_reference_on_every_shape),
        cmocka_unit_test (hamming_matches_reference_on_every_shape),
        cmocka_unit_test (jensen_shannon_matches_reference_on_every_shape),
        cmocka_unit_test (manhattan_matches_reference_on_every_shape),
        cmocka_unit_test (braycurtis_matches_reference_on_every_shape),
        cmocka_unit_test (minkowski_p1_matches_reference_on_every_shape),
        cmocka_unit_test (minkowski_p1_5_matches_reference_on_every_shape),
        cmocka_unit_test (minkowski_p3_matches_reference_on_every_shape),
        cmocka_unit_test (minkowski_of_p1_and_p2_equal_manhattan_and_euclidean),
        cmocka_unit_test (every_metric_matches_reference_on_a_larger_powerlaw_set),
        cmocka_unit_test (a_few_rows_give_the_bits_they_give_among_many),
        cmocka_unit_test (every_metric_matches_reference_on_long_rows_and_many_rows),
        cmocka_unit_test (repeated_calls_give_bitwise_identical_results),
    } ;
    return gxt_main ("metrics", tests, sizeof (tests) / sizeof (tests [0])) ;
}
