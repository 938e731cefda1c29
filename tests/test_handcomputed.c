// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// tests/test_handcomputed.c: distances worked out by hand
//------------------------------------------------------------------------------

// Checks each metric's definition (issue 7, docs/metrics.md) against values
// computed by hand, not by the reference: the paper's Manhattan example
// (seed 000, Appendix A.1: a = [1,0,1], b = [0,1,0] gives 3), a 2x3 case per
// metric, identical rows at 0, two empty rows at 0 (RUSSELLRAO 1), an empty
// row against a non-empty one (cosine, correlation, Jaccard, Dice: 1), stored
// zeros outside the pattern of Jaccard/Dice/RussellRao/Sokal-Michener, no NaN anywhere, and
// BRAYCURTIS of opposite rows (x/0 with x > 0) infinite like scipy's.
// FP64 is checked to 1e-14 relative, FP32 to 1e-6.

#include "test_common.h"

#define HAND_TOL(type) ((type) == GrB_FP32 ? 1e-6 : 1e-14)

static const GrB_Type *types (void)
{
    static GrB_Type t [2] ;
    t [0] = GrB_FP32 ; t [1] = GrB_FP64 ;
    return t ;
}

// C = d(A, B) must equal expect (row-major m*n) within tol (0: exactly)
static void expect_values (const gxt_metric *mt, GrB_Type type,
    GrB_Matrix A, GrB_Matrix B, const double *expect, bool exact,
    const char *what)
{
    GrB_Index m, n ;
    GXT_OK (GrB_Matrix_nrows (&m, A)) ;
    GXT_OK (GrB_Matrix_nrows (&n, B)) ;
    GrB_Semiring s = gxt_semiring (mt, type) ;
    GrB_Matrix C = NULL ;
    GXT_OK (gxt_distance (&C, type, s, A, B, NULL)) ;
    GrB_Index nvals ;
    GXT_OK (GrB_Matrix_nvals (&nvals, C)) ;
    if (nvals != m * n)
        GXT_FAIL ("%s %s p=%g [%s]: C has %lu entries, expected %lu", mt->name,
            gxt_type_name (type), mt->p, what, (unsigned long) nvals, (unsigned long) (m * n)) ;
    for (GrB_Index i = 0 ; i < m ; i++)
    {
        for (GrB_Index j = 0 ; j < n ; j++)
        {
            double g = gxt_get (C, i, j), e = expect [i*n+j] ;
            double tol = exact ? 0 : HAND_TOL (type) * fmax (1, fabs (e)) ;
            if (isnan (g) || !(fabs (g - e) <= tol))
                GXT_FAIL ("%s %s p=%g [%s]: C(%lu,%lu) = %.17g, expected %.17g (by hand)",
                    mt->name, gxt_type_name (type), mt->p, what,
                    (unsigned long) i, (unsigned long) j, g, e) ;
        }
    }
    GrB_Matrix_free (&C) ;
    gxt_semiring_free (mt, &s) ;
}

//------------------------------------------------------------------------------
// the paper's example
//------------------------------------------------------------------------------

static void manhattan_of_the_papers_example_is_3 (void **state)
{
    GXT_START ( ) ;
    const double a [3] = { 1, 0, 1 }, b [6] = { 0, 1, 0,   0, 1, 1 } ;
    // |1-0| + |0-1| + |1-0| = 3 ; and against [0,1,1]: 1 + 1 + 0 = 2
    const double expect [2] = { 3, 2 } ;
    for (int t = 0 ; t < 2 ; t++)
    {
        GrB_Matrix A, B ;
        gxt_dense_rows (&A, types ( ) [t], 1, 3, a) ;
        gxt_dense_rows (&B, types ( ) [t], 2, 3, b) ;
        expect_values (gxt_metric_named ("MANHATTAN"), types ( ) [t], A, B, expect, false, "A.1") ;
        // the plain (intersection) semiring annihilates: the paper's 0
        GrB_Matrix C = NULL ;
        GXT_OK (GrB_Matrix_new (&C, GrB_FP64, 1, 2)) ;
        GXT_OK (GxB_mxm_distance (C, NULL, NULL, GxB_PLUS_MINUS_FP64, A, B, NULL)) ;
        // intersection of [1,0,1] and [0,1,0] is empty: no entry
        double x ;
        if (GrB_Matrix_extractElement_FP64 (&x, C, 0, 0) != GrB_NO_VALUE)
            GXT_FAIL ("intersection semantics: C(0,0) should be absent, got %g", x) ;
        GrB_Matrix_free (&C) ;
        GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ;
    }
}

//------------------------------------------------------------------------------
// a 2x3 case per metric
//------------------------------------------------------------------------------

// A rows x0 = [1,0,2], x1 = [0,3,0]; B rows y0 = [2,0,0], y1 = [1,1,2]; k = 3.
// The arithmetic of each expected value is in the comment beside it.
static const double hA [6] = { 1, 0, 2,   0, 3, 0 } ;
static const double hB [6] = { 2, 0, 0,   1, 1, 2 } ;

typedef struct { const char *name ; double p ; double d [4] ; } hand_case ;

#define NHAND 20
static hand_case hand_cases [NHAND] ;

static void fill_hand_cases (void)
{
    const double l2 = log (2.0), l3 = log (3.0), l15 = log (1.5) ;
    hand_case h [NHAND] =
    {
        // diffs x-y: (x0,y0) [-1,0,2]  (x0,y1) [0,-1,0]  (x1,y0) [-2,3,0]  (x1,y1) [-1,2,-2]
        { "EUCLIDEAN",   0, { sqrt (5.0), 1, sqrt (13.0), 3 } },
        { "SQEUCLIDEAN", 0, { 5, 1, 13, 9 } },
        { "MANHATTAN",   0, { 3, 1, 5, 5 } },
        { "CHEBYSHEV",   0, { 2, 1, 3, 2 } },
        { "MINKOWSKI",   3, { cbrt (9.0), 1, cbrt (35.0), cbrt (17.0) } },
        { "MINKOWSKI",   1, { 3, 1, 5, 5 } },
        // (1+0+2^1.5)^(1/1.5), 1, (2^1.5+3^1.5)^(1/1.5), (1+2^1.5+2^1.5)^(1/1.5)
        { "MINKOWSKI", 1.5, { pow (1 + pow (2, 1.5), 1/1.5), 1,
            pow (pow (2, 1.5) + pow (3, 1.5), 1/1.5), pow (1 + 2 * pow (2, 1.5), 1/1.5) } },
        // sum |x-y|/(|x|+|y|), 0/0 = 0: 1/3+0+1 ; 0+1+0 ; 1+1+0 ; 1+1/2+1
        { "CANBERRA",    0, { 4.0/3, 1, 2, 2.5 } },
        // sum|x-y| / sum|x+y|: 3/5 ; 1/7 ; 5/5 ; 5/7
        { "BRAYCURTIS",  0, { 3.0/5, 1.0/7, 1, 5.0/7 } },
        // #{x != y}/3: 2 ; 1 ; 2 ; 3
        { "HAMMING",     0, { 2.0/3, 1.0/3, 2.0/3, 1 } },
        // |x0| = sqrt5, |x1| = 3, |y0| = 2, |y1| = sqrt6; dots 2, 5, 0, 3
        { "COSINE",      0, { 1 - 1/sqrt (5.0), 1 - sqrt (5.0/6), 1, 1 - 1/sqrt (6.0) } },
        // centred: x0 [0,-1,1], x1 [-1,2,-1], y0 [4,-2,-2]/3, y1 [-1,-1,2]/3
        // r = 0 ; 1/(sqrt2 sqrt6/3) = sqrt3/2 ; -2/(sqrt6 2sqrt6/3) = -1/2 ; -1/(sqrt6 sqrt6/3) = -1/2
        { "CORRELATION", 0, { 1, 1 - sqrt (3.0)/2, 1.5, 1.5 } },
        { "DOT",         0, { 2, 5, 0, 3 } },
        // X0 = {0,2}, X1 = {1}, Y0 = {0}, Y1 = {0,1,2}: |X^Y| 1,2,0,1 ; |XuY| 2,3,2,3
        { "JACCARD",     0, { 0.5, 1.0/3, 1, 2.0/3 } },
        // 1 - 2|X^Y|/(|X|+|Y|): 1-2/3 ; 1-4/5 ; 1 ; 1-2/4
        { "DICE",        0, { 1.0/3, 1.0/5, 1, 0.5 } },
        // (3 - |X^Y|)/3
        { "RUSSELLRAO",  0, { 2.0/3, 1.0/3, 1, 2.0/3 } },
        // R/(S+R), R = 2 #{exactly one nonzero}, S = 3 - #{exactly one}:
        // exactly one 1, 1, 2, 2: 2/(2+2) ; 2/(2+2) ; 4/(1+4) ; 4/(1+4)
        { "SOKALMICHENER", 0, { 0.5, 0.5, 0.8, 0.8 } },
        // sqrt(sum (sqrt x - sqrt y)^2 / 2):
        // (1-sqrt2)^2 + 2 = 5 - 2sqrt2 ; 1 ; 2 + 3 = 5 ; 1 + (sqrt3-1)^2 + 2 = 7 - 2sqrt3
        { "HELLINGER",   0, { sqrt ((5 - 2*sqrt (2.0))/2), sqrt (0.5), sqrt (2.5), sqrt ((7 - 2*sqrt (3.0))/2) } },
        // sqrt(S/2), S = sum x ln(x/m) + y ln(y/m), m = (x+y)/2:
        // ln(2/3) + 2ln(4/3) + 2ln2 ; ln2 ; 2ln2 + 3ln2 ; ln2 + 3ln1.5 - ln2 + 2ln2
        { "JENSEN_SHANNON", 0, { sqrt ((log (2.0/3) + 2*log (4.0/3) + 2*l2)/2), sqrt (l2/2),
            sqrt (5*l2/2), sqrt ((3*l15 + 2*l2)/2) } },
        // sum over x>0, y>0 of x ln(x/y): 1 ln(1/2) ; 1 ln1 + 2 ln1 ; none ; 3 ln3
        { "KL_DIVERGENCE", 0, { -l2, 0, 0, 3*l3 } },
    } ;
    memcpy (hand_cases, h, sizeof (h)) ;
}

static const gxt_metric *metric_of (const char *name, double p)
{
    for (int i = 0 ; i < gxt_nmetrics ; i++)
        if (strcmp (gxt_metrics [i].name, name) == 0 && (gxt_metrics [i].fp32 != NULL || gxt_metrics [i].p == p))
            return &gxt_metrics [i] ;
    GXT_FAIL ("no metric %s p=%g", name, p) ;
    return NULL ;
}

// every hand case on the 2x3 rows hA, hB, in each result type
static void expect_every_hand_case (const char *what)
{
    for (int t = 0 ; t < 2 ; t++)
    {
        GrB_Matrix A, B ;
        gxt_dense_rows (&A, GrB_FP64, 2, 3, hA) ;
        gxt_dense_rows (&B, GrB_FP64, 2, 3, hB) ;
        for (int h = 0 ; h < NHAND ; h++)
            expect_values (metric_of (hand_cases [h].name, hand_cases [h].p),
                types ( ) [t], A, B, hand_cases [h].d, false, what) ;
        GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ;
    }
}

static void every_metric_gives_the_hand_computed_2x3_values (void **state)
{
    GXT_START ( ) ;
    fill_hand_cases ( ) ;
    // every predefined metric has a case
    for (int i = 0 ; i < gxt_nmetrics ; i++)
    {
        bool found = false ;
        for (int h = 0 ; h < NHAND ; h++)
            found = found || (strcmp (hand_cases [h].name, gxt_metrics [i].name) == 0 &&
                (gxt_metrics [i].fp32 != NULL || hand_cases [h].p == gxt_metrics [i].p)) ;
        if (!found) GXT_FAIL ("no hand case for %s", gxt_metrics [i].name) ;
    }
    expect_every_hand_case ("2x3") ;
}

static void exact_union_gives_the_same_hand_computed_values (void **state)
{
    GXT_START ( ) ;
    fill_hand_cases ( ) ;
    GXT_OK (GxB_Distance_set_exact_union (true)) ;
    expect_every_hand_case ("2x3, exact union") ;
    GXT_OK (GxB_Distance_set_exact_union (false)) ;
}

//------------------------------------------------------------------------------
// identical rows, empty rows
//------------------------------------------------------------------------------

static void identical_rows_are_at_distance_exactly_zero (void **state)
{
    GXT_START ( ) ;
    // rows that cancel badly in expanded forms: large norm, mixed signs
    const double a [9] = { 3, 0, -1.25,   1e3, 1e3 + 0.1, 0,   0.1, 0.2, 0.3 } ;
    const double p [9] = { 1.5, 0, 2.5,   1e3, 1e3 + 0.1, 0,   0.1, 0.2, 0.3 } ;
    for (int t = 0 ; t < 2 ; t++)
    {
        for (int i = 0 ; i < gxt_nmetrics ; i++)
        {
            const gxt_metric *mt = &gxt_metrics [i] ;
            const double *v = (mt->flags & GXT_NONNEG) ? p : a ;
            GrB_Matrix A, B ;
            gxt_dense_rows (&A, GrB_FP64, 3, 3, v) ;
            gxt_dense_rows (&B, GrB_FP64, 3, 3, v) ;
            GrB_Semiring s = gxt_semiring (mt, types ( ) [t]) ;
            GrB_Matrix C = NULL ;
            GXT_OK (gxt_distance (&C, types ( ) [t], s, A, B, NULL)) ;
            for (GrB_Index r = 0 ; r < 3 ; r++)
            {
                double g = gxt_get (C, r, r), e = 0 ;
                if (strcmp (mt->name, "DOT") == 0)
                {
                    // x.x, in the semiring's type
                    e = 0 ; for (int c = 0 ; c < 3 ; c++) e += v [r*3+c] * v [r*3+c] ;
                    if (types ( ) [t] == GrB_FP32) e = (float) e ;
                    if (fabs (g - e) <= 1e-5 * e) continue ;
                }
                else if (strcmp (mt->name, "RUSSELLRAO") == 0)
                {
                    // (k - |X|)/k
                    int nx = 0 ; for (int c = 0 ; c < 3 ; c++) nx += (v [r*3+c] != 0) ;
                    e = (3.0 - nx) / 3.0 ;
                    if (fabs (g - e) <= 1e-6) continue ;
                }
                else if (g == 0) continue ;
                GXT_FAIL ("%s p=%g %s: identical rows %lu: d = %.17g, expected %.17g",
                    mt->name, mt->p, gxt_type_name (types ( ) [t]), (unsigned long) r, g, e) ;
            }
            GrB_Matrix_free (&C) ;
            gxt_semiring_free (mt, &s) ;
            GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ;
        }
    }
}

static void two_empty_rows_are_at_zero_except_russellrao_at_one (void **state)
{
    GXT_START ( ) ;
    const double z [4] = { 0, 0, 0, 0 } ;
    for (int t = 0 ; t < 2 ; t++)
    {
        for (int i = 0 ; i < gxt_nmetrics ; i++)
        {
            const gxt_metric *mt = &gxt_metrics [i] ;
            GrB_Matrix A, B ;
            gxt_dense_rows (&A, GrB_FP64, 1, 4, z) ;
            gxt_dense_rows (&B, GrB_FP64, 1, 4, z) ;
            double e = mt->empty ;
            expect_values (mt, types ( ) [t], A, B, &e, true, "two empty rows") ;
            GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ;
        }
    }
}

static void empty_row_against_nonempty_row_has_the_defined_value (void **state)
{
    GXT_START ( ) ;
    // x = empty, y = [1, 0, 4, 1] (k = 4, |Y| = 3, sum 6, sum y^2 18)
    const double x [4] = { 0, 0, 0, 0 }, y [4] = { 1, 0, 4, 1 } ;
    const double l2 = log (2.0) ;
    struct { const char *name ; double p ; double d ; } e [] =
    {
        { "EUCLIDEAN", 0, sqrt (18.0) }, { "SQEUCLIDEAN", 0, 18 },
        { "MANHATTAN", 0, 6 }, { "CHEBYSHEV", 0, 4 },
        { "MINKOWSKI", 3, cbrt (66.0) }, { "MINKOWSKI", 1, 6 },
        { "MINKOWSKI", 1.5, pow (2 + 8, 1/1.5) },
        { "CANBERRA", 0, 3 },           // each column |y|/|y| = 1, 0/0 = 0
        { "BRAYCURTIS", 0, 1 },         // 6/6
        { "HAMMING", 0, 0.75 },         // 3 of 4 differ
        { "COSINE", 0, 1 }, { "CORRELATION", 0, 1 },
        { "JACCARD", 0, 1 }, { "DICE", 0, 1 },
        { "DOT", 0, 0 },
        { "RUSSELLRAO", 0, 1 },         // (4 - 0)/4
        { "SOKALMICHENER", 0, 6.0/7 },  // R = 2*3, S = 1: 6/(1+6)
        { "HELLINGER", 0, sqrt (6.0/2) },   // sum (sqrt y)^2 = 6
        { "JENSEN_SHANNON", 0, sqrt (6*l2/2) },  // y ln(y/(y/2)) = y ln2
        { "KL_DIVERGENCE", 0, 0 },
    } ;
    int ne = (int) (sizeof (e) / sizeof (e [0])) ;
    assert_int_equal (ne, gxt_nmetrics) ;
    for (int t = 0 ; t < 2 ; t++)
    {
        for (int q = 0 ; q < ne ; q++)
        {
            const gxt_metric *mt = metric_of (e [q].name, e [q].p) ;
            GrB_Matrix A, B ;
            // both orders: d(empty, y) and d(y, empty)
            gxt_dense_rows (&A, GrB_FP64, 1, 4, x) ;
            gxt_dense_rows (&B, GrB_FP64, 1, 4, y) ;
            expect_values (mt, types ( ) [t], A, B, &e [q].d, false, "empty vs non-empty") ;
            double d2 = e [q].d ;
            expect_values (mt, types ( ) [t], B, A, &d2, false, "non-empty vs empty") ;
            GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ;
        }
    }
}

static void stored_zeros_are_values_not_pattern (void **state)
{
    GXT_START ( ) ;
    // x = [1, 0 (stored), 2], y = [0, 1, 0]: X = {0,2}, Y = {1}
    const double x [3] = { 1, GXT_EZ, 2 }, y [3] = { 0, 1, 0 } ;
    struct { const char *name ; double d ; } e [] =
    {
        { "JACCARD", 1 }, { "DICE", 1 }, { "RUSSELLRAO", 1 },
        { "MANHATTAN", 4 }, { "HAMMING", 1 }, { "CHEBYSHEV", 2 },
        { "COSINE", 1 }, { "DOT", 0 }, { "CANBERRA", 3 },
        { "SOKALMICHENER", 1 },         // all 3 columns differ: 6/(0+6)
    } ;
    // and x against itself with its stored zero: Jaccard 0, RussellRao 1/3
    struct { const char *name ; double d ; } s [] =
    {
        { "JACCARD", 0 }, { "DICE", 0 }, { "RUSSELLRAO", 1.0/3 }, { "HAMMING", 0 },
        { "SOKALMICHENER", 0 },
    } ;
    for (int t = 0 ; t < 2 ; t++)
    {
        GrB_Matrix A, B ;
        gxt_dense_rows (&A, GrB_FP64, 1, 3, x) ;
        gxt_dense_rows (&B, GrB_FP64, 1, 3, y) ;
        GrB_Index nv ;
        GXT_OK (GrB_Matrix_nvals (&nv, A)) ;
        assert_int_equal (nv, 3) ;
        for (size_t q = 0 ; q < sizeof (e) / sizeof (e [0]) ; q++)
            expect_values (gxt_metric_named (e [q].name), types ( ) [t], A, B, &e [q].d, false, "stored zero") ;
        for (size_t q = 0 ; q < sizeof (s) / sizeof (s [0]) ; q++)
            expect_values (gxt_metric_named (s [q].name), types ( ) [t], A, A, &s [q].d, false, "stored zero, self") ;
        GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ;
    }
}

static void no_metric_returns_nan_on_zero_rows_or_zero_columns (void **state)
{
    GXT_START ( ) ;
    // rows: empty, one stored zero, all stored zeros, a constant row, a
    // normal row; every pair among them, every metric, both types
    const double v [15] =
    {
        0, 0, 0,
        GXT_EZ, 0, 0,
        GXT_EZ, GXT_EZ, GXT_EZ,
        2, 2, 2,
        1, 0, 3,
    } ;
    for (int t = 0 ; t < 2 ; t++)
    {
        GrB_Matrix A ;
        gxt_dense_rows (&A, GrB_FP64, 5, 3, v) ;
        for (int i = 0 ; i < gxt_nmetrics ; i++)
        {
            const gxt_metric *mt = &gxt_metrics [i] ;
            GrB_Semiring s = gxt_semiring (mt, types ( ) [t]) ;
            GrB_Matrix C = NULL ;
            GXT_OK (gxt_distance (&C, types ( ) [t], s, A, A, NULL)) ;
            for (GrB_Index r = 0 ; r < 5 ; r++)
                for (GrB_Index c = 0 ; c < 5 ; c++)
                {
                    double g = gxt_get (C, r, c) ;
                    if (isnan (g) || isinf (g))
                        GXT_FAIL ("%s p=%g %s: d(row %lu, row %lu) = %g", mt->name, mt->p,
                            gxt_type_name (types ( ) [t]), (unsigned long) r, (unsigned long) c, g) ;
                }
            // and the reference agrees wherever it is defined
            gxt_check_metric (C, mt, types ( ) [t], A, A, "zero rows") ;
            GrB_Matrix_free (&C) ;
            gxt_semiring_free (mt, &s) ;
        }
        GrB_Matrix_free (&A) ;
    }
}

// BRAYCURTIS of y = -x: sum|x-y| = 2 sum|x| over sum|x+y| = 0.  The issue
// defines BRAYCURTIS as scipy's braycurtis, sum|x-y| / sum|x+y|, with only
// 0/0 = 0 made finite: 4/0 is +infinity (scipy's value), not 0
static void braycurtis_of_opposite_rows_is_infinite_like_scipy (void **state)
{
    GXT_START ( ) ;
    const double x [3] = { 1, 0, -1 }, y [3] = { -1, 0, 1 } ;
    const double e = INFINITY ;
    for (int t = 0 ; t < 2 ; t++)
    {
        GrB_Matrix A, B ;
        gxt_dense_rows (&A, GrB_FP64, 1, 3, x) ;
        gxt_dense_rows (&B, GrB_FP64, 1, 3, y) ;
        GrB_Matrix C = NULL ;
        GXT_OK (gxt_distance (&C, types ( ) [t], *(t ? gxt_metric_named ("BRAYCURTIS")->fp64
            : gxt_metric_named ("BRAYCURTIS")->fp32), A, B, NULL)) ;
        double g = gxt_get (C, 0, 0) ;
        if (g != e)
            GXT_FAIL ("BRAYCURTIS %s of [1,0,-1] and [-1,0,1] = %.17g, expected 4/0 = inf (scipy)",
                gxt_type_name (types ( ) [t]), g) ;
        GrB_Matrix_free (&C) ; GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ;
    }
}

int main (void)
{
    const struct CMUnitTest tests [] =
    {
        cmocka_unit_test (manhattan_of_the_papers_example_is_3),
        cmocka_unit_test (every_metric_gives_the_hand_computed_2x3_values),
        cmocka_unit_test (exact_union_gives_the_same_hand_computed_values),
        cmocka_unit_test (identical_rows_are_at_distance_exactly_zero),
        cmocka_unit_test (two_empty_rows_are_at_zero_except_russellrao_at_one),
        cmocka_unit_test (empty_row_against_nonempty_row_has_the_defined_value),
        cmocka_unit_test (stored_zeros_are_values_not_pattern),
        cmocka_unit_test (no_metric_returns_nan_on_zero_rows_or_zero_columns),
        cmocka_unit_test (braycurtis_of_opposite_rows_is_infinite_like_scipy),
    } ;
    return gxt_main ("handcomputed", tests, sizeof (tests) / sizeof (tests [0])) ;
}
