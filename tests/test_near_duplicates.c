// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// tests/test_near_duplicates.c: tiny distances next to large row norms
//------------------------------------------------------------------------------

// Rows of B are copies of rows of A, some exact, the others with 1 to 3
// entries changed by a relative 1e-3, 1e-6 or 1e-9: distances tiny next to
// the row norms, where expanded forms (norms + dot products) cancel.  For
// EUCLIDEAN, SQEUCLIDEAN, COSINE, CORRELATION, MANHATTAN, CANBERRA,
// HELLINGER, JENSEN_SHANNON and BRAYCURTIS, FP32 and FP64, with and without
// the exact union: results within tolerance of the FP64 reference, never
// negative, never clamped (a reference above the tolerance never comes back
// as 0), exact copies exactly 0, and d(A,A) exactly 0 on the diagonal.
//
// Tolerance (docs/metrics.md): rtol * max (|ref|, S), rtol 1e-5 (FP32) or
// 1e-12 (FP64), S = GXO_scale, except COSINE and CORRELATION, where S >= 1:
// both are 1 - r with r computed to a relative rounding of its own, so 1 - r
// is only good to about rtol absolute (the terms that cancel are of size 1).
// For those two, "never clamped" is checked on its own: in FP64 a reference
// above 1e-14 (far above rounding noise) must not come back as 0.  The
// reference is exact here (it rewrites sqrt x - sqrt y and x ln(x/m) so that
// close x and y lose nothing).  In FP32 the data are cast to FP32 first (the
// reference does the same), a 1e-9 perturbation vanishes, and those rows
// must come back exactly 0.

#include "test_common.h"

static const char *names [9] =
{
    "EUCLIDEAN", "SQEUCLIDEAN", "COSINE", "CORRELATION", "MANHATTAN",
    "CANBERRA", "HELLINGER", "JENSEN_SHANNON", "BRAYCURTIS"
} ;

static double rtol_for (const gxt_metric *mt, GrB_Type type, double rel)
{
    return gxt_rtol (type) ;
}

// COSINE, CORRELATION in FP64: no reference above 1e-14 comes back as 0
static void unit_metric_not_clamped (GrB_Matrix C, const gxt_metric *mt,
    GrB_Type type, GrB_Matrix A, GrB_Matrix B, const char *ctx)
{
    if (!(mt->flags & GXT_UNIT) || type != GrB_FP64) return ;
    GrB_Matrix D = NULL ;
    GXT_OK (GXO_metric (&D, mt->name, mt->p, type, A, B)) ;
    GrB_Index m, n ;
    GXT_OK (GrB_Matrix_nrows (&m, D)) ;
    GXT_OK (GrB_Matrix_ncols (&n, D)) ;
    for (GrB_Index i = 0 ; i < m ; i++)
        for (GrB_Index j = 0 ; j < n ; j++)
        {
            double r = gxt_get (D, i, j), g = gxt_get (C, i, j) ;
            if (r > 1e-14 && !(g > 0))
            {
                GrB_Matrix_free (&D) ;
                GXT_FAIL ("%s FP64 [%s]: C(%lu,%lu) = %.17g but the reference is %.17g: clamped to 0",
                    mt->name, ctx, (unsigned long) i, (unsigned long) j, g, r) ;
            }
        }
    GrB_Matrix_free (&D) ;
}

// C(j mod m, j) for every exact copy j (j mod 4 == 0) must be exactly 0
static void exact_copies_are_zero (GrB_Matrix C, GrB_Index m, GrB_Index n,
    const gxt_metric *mt, GrB_Type type, const char *ctx)
{
    for (GrB_Index j = 0 ; j < n ; j += 4)
    {
        double g = gxt_get (C, j % m, j) ;
        if (g != 0)
            GXT_FAIL ("%s %s [%s]: row %lu of B is an exact copy of row %lu of A, but d = %.17g",
                mt->name, gxt_type_name (type), ctx, (unsigned long) j, (unsigned long) (j % m), g) ;
    }
}

// A: m rows; kind 0: sparse (density 0.2, k 200), 1: dense (k 48) with a
// large common part (values 100 + j/8), 2: power-law; mixed signs unless
// nonneg
static void make_rows (GrB_Matrix *A, int kind, bool nonneg)
{
    gxt_spec sp = { 0 } ;
    sp.dense_row = -1 ;
    sp.values = nonneg ? GXT_NONNEG_VALUES : GXT_MIXED ;
    if (kind == 0) { sp.m = 24 ; sp.k = 200 ; sp.density = 0.2 ; }
    else if (kind == 1) { sp.m = 16 ; sp.k = 48 ; sp.density = 1 ; }
    else { sp.m = 40 ; sp.k = 300 ; sp.density = 10.0 / 300 ; sp.powerlaw = true ; }
    GrB_Matrix T ;
    gxt_random (&T, &sp) ;
    if (kind == 1)
    {
        // shift away from 0 (keeping signs): |x| = 100 + original
        GrB_Matrix S ;
        GXT_OK (GrB_Matrix_new (&S, GrB_FP64, sp.m, sp.k)) ;
        GXT_OK (GrB_Matrix_apply (S, NULL, NULL, GrB_ABS_FP64, T, NULL)) ;
        GXT_OK (GrB_Matrix_apply_BinaryOp2nd_FP64 (S, NULL, NULL, GrB_PLUS_FP64, S, 100, NULL)) ;
        if (!nonneg)
        {
            // negate every other column
            GrB_Matrix Neg ;
            GXT_OK (GrB_Matrix_new (&Neg, GrB_FP64, sp.m, sp.k)) ;
            GXT_OK (GrB_Matrix_apply (Neg, NULL, NULL, GrB_AINV_FP64, S, NULL)) ;
            for (GrB_Index c = 0 ; c < sp.k ; c += 2)
            {
                GrB_Index J [1] = { c } ;
                GrB_Matrix col ;
                GXT_OK (GrB_Matrix_new (&col, GrB_FP64, sp.m, 1)) ;
                GXT_OK (GrB_Matrix_extract (col, NULL, NULL, Neg, GrB_ALL, sp.m, J, 1, NULL)) ;
                GXT_OK (GrB_Matrix_assign (S, NULL, NULL, col, GrB_ALL, sp.m, J, 1, NULL)) ;
                GrB_Matrix_free (&col) ;
            }
            GrB_Matrix_free (&Neg) ;
        }
        GrB_Matrix_free (&T) ;
        T = S ;
    }
    *A = T ;
}

static void run (const char *name, GrB_Type type, double rel)
{
    const gxt_metric *mt = gxt_metric_named (name) ;
    bool nonneg = (mt->flags & GXT_NONNEG) != 0 ;
    for (int exact = 0 ; exact <= 1 ; exact++)
    {
        GXT_OK (GxB_Distance_set_exact_union (exact)) ;
        for (int kind = 0 ; kind < 3 ; kind++)
        {
            for (int sign = 0 ; sign < (nonneg ? 1 : 2) ; sign++)
            {
                GrB_Matrix A, B, C = NULL ;
                make_rows (&A, kind, nonneg || sign == 0) ;
                GrB_Index m ;
                GXT_OK (GrB_Matrix_nrows (&m, A)) ;
                GrB_Index n = 2 * m ;
                gxt_near_duplicates (&B, A, n, rel) ;
                gxt_snapshot sa = gxt_snap (A), sb = gxt_snap (B) ;
                GXT_OK (gxt_distance (&C, type, *(type == GrB_FP32 ? mt->fp32 : mt->fp64), A, B, NULL)) ;
                char ctx [160] ;
                snprintf (ctx, sizeof (ctx), "near duplicates rel %g, %s rows, %s%s", rel,
                    kind == 0 ? "sparse" : kind == 1 ? "dense large-norm" : "power-law",
                    (nonneg || sign == 0) ? "non-negative" : "mixed signs", exact ? ", exact union" : "") ;
                gxt_check_metric_tol (C, mt, type, A, B, rtol_for (mt, type, rel),
                    (mt->flags & GXT_UNIT) ? 1.0 : 0.0, ctx) ;
                exact_copies_are_zero (C, m, n, mt, type, ctx) ;
                unit_metric_not_clamped (C, mt, type, A, B, ctx) ;
                gxt_snap_check (&sa, A, "A") ;
                gxt_snap_check (&sb, B, "B") ;
                GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&C) ;
            }
        }
    }
    GXT_OK (GxB_Distance_set_exact_union (false)) ;
}

#define NEAR_DUP_TEST(fn, NAME) \
    static void fn (void **state) \
    { \
        GXT_START ( ) ; \
        double rels [3] = { 1e-3, 1e-6, 1e-9 } ; \
        for (int r = 0 ; r < 3 ; r++) { run (NAME, GrB_FP32, rels [r]) ; run (NAME, GrB_FP64, rels [r]) ; } \
    }

NEAR_DUP_TEST (euclidean_of_near_duplicates_is_within_tolerance, "EUCLIDEAN")
NEAR_DUP_TEST (sqeuclidean_of_near_duplicates_is_within_tolerance, "SQEUCLIDEAN")
NEAR_DUP_TEST (cosine_of_near_duplicates_is_within_tolerance, "COSINE")
NEAR_DUP_TEST (correlation_of_near_duplicates_is_within_tolerance, "CORRELATION")
NEAR_DUP_TEST (manhattan_of_near_duplicates_is_within_tolerance, "MANHATTAN")
NEAR_DUP_TEST (canberra_of_near_duplicates_is_within_tolerance, "CANBERRA")
NEAR_DUP_TEST (hellinger_of_near_duplicates_is_within_tolerance, "HELLINGER")
NEAR_DUP_TEST (jensen_shannon_of_near_duplicates_is_within_tolerance, "JENSEN_SHANNON")
NEAR_DUP_TEST (braycurtis_of_near_duplicates_is_within_tolerance, "BRAYCURTIS")

static void self_distance_is_exactly_zero_on_the_diagonal (void **state)
{
    GXT_START ( ) ;
    GrB_Type types [2] = { GrB_FP32, GrB_FP64 } ;
    for (int q = 0 ; q < 9 ; q++)
    {
        const gxt_metric *mt = gxt_metric_named (names [q]) ;
        bool nonneg = (mt->flags & GXT_NONNEG) != 0 ;
        for (int kind = 0 ; kind < 3 ; kind++)
        {
            for (int t = 0 ; t < 2 ; t++)
            {
                for (int same = 0 ; same <= 1 ; same++)
                {
                    GrB_Matrix A, A2, C = NULL ;
                    make_rows (&A, kind, nonneg) ;
                    GrB_Index m ;
                    GXT_OK (GrB_Matrix_nrows (&m, A)) ;
                    // d(A, A) with A passed twice, or with a copy of A
                    if (same) A2 = A ; else GXT_OK (GrB_Matrix_dup (&A2, A)) ;
                    GXT_OK (gxt_distance (&C, types [t], *(t ? mt->fp64 : mt->fp32), A, A2, NULL)) ;
                    for (GrB_Index i = 0 ; i < m ; i++)
                    {
                        double g = gxt_get (C, i, i) ;
                        if (g != 0)
                            GXT_FAIL ("%s %s: d(A(%lu,:), A(%lu,:)) = %.17g, expected exactly 0 (%s, kind %d)",
                                mt->name, gxt_type_name (types [t]), (unsigned long) i, (unsigned long) i, g,
                                same ? "A passed twice" : "A and a copy", kind) ;
                    }
                    gxt_check_metric (C, mt, types [t], A, A2, "self distances") ;
                    if (!same) GrB_Matrix_free (&A2) ;
                    GrB_Matrix_free (&A) ; GrB_Matrix_free (&C) ;
                }
            }
        }
    }
}

int main (void)
{
    const struct CMUnitTest tests [] =
    {
        cmocka_unit_test (euclidean_of_near_duplicates_is_within_tolerance),
        cmocka_unit_test (sqeuclidean_of_near_duplicates_is_within_tolerance),
        cmocka_unit_test (cosine_of_near_duplicates_is_within_tolerance),
        cmocka_unit_test (correlation_of_near_duplicates_is_within_tolerance),
        cmocka_unit_test (manhattan_of_near_duplicates_is_within_tolerance),
        cmocka_unit_test (canberra_of_near_duplicates_is_within_tolerance),
        cmocka_unit_test (hellinger_of_near_duplicates_is_within_tolerance),
        cmocka_unit_test (jensen_shannon_of_near_duplicates_is_within_tolerance),
        cmocka_unit_test (braycurtis_of_near_duplicates_is_within_tolerance),
        cmocka_unit_test (self_distance_is_exactly_zero_on_the_diagonal),
    } ;
    return gxt_main ("near_duplicates", tests, sizeof (tests) / sizeof (tests [0])) ;
}
