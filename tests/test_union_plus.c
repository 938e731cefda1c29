// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// tests/test_union_plus.c: PLUS unions of operators only GraphBLAS can call
//------------------------------------------------------------------------------

// A user's GrB_BinaryOp without a C definition (or of integer types) under
// a PLUS monoid is computed by intersection products and row terms
// (graphblas_ext/gxd_union_plus.c), its untrusted floating-point pairs again
// over their unions.  Checked against the reference's dense completion
// (GXO_union): FP32 and FP64 within the house tolerance (rtol 1e-5 / 1e-12
// relative to max (|ref|, S), S the sum of |f| over the pair's terms:
// the reference adds FP32 terms in FP32, whose rounding grows with S, not
// with |ref|), integers bit for bit; with f(e,e) != 0,
// empty rows, masks (structural, valued, complemented), several row blocks
// (a test hook makes them small; f called term by term and on the grid of
// distinct values), and the cases the rewrite must not
// trust: sums that cancel (the result must then equal the exact reference,
// which a rewritten sum would miss by far) and non-finite terms.  Every
// output is poisoned first; every input comes back bit for bit; the test
// hook's counters prove which path ran.

#include "test_common.h"
#include "gxd_test_hooks.h"

//------------------------------------------------------------------------------
// operators without definitions
//------------------------------------------------------------------------------

static void absdiff_FP64 (void *z, const void *x, const void *y)
{ *(double *) z = fabs (*(const double *) x - *(const double *) y) ; }
static void absdiff_FP32 (void *z, const void *x, const void *y)
{ *(float *) z = fabsf (*(const float *) x - *(const float *) y) ; }
static void minus_FP64 (void *z, const void *x, const void *y)
{ *(double *) z = *(const double *) x - *(const double *) y ; }
static void minus_FP32 (void *z, const void *x, const void *y)
{ *(float *) z = *(const float *) x - *(const float *) y ; }
// x y + x: f(e,e) != 0 for e != 0, and f(x,e) != f(e,x)
static void mixed_FP64 (void *z, const void *x, const void *y)
{ double a = *(const double *) x, b = *(const double *) y ; *(double *) z = a * b + a ; }
static void mixed_FP32 (void *z, const void *x, const void *y)
{ float a = *(const float *) x, b = *(const float *) y ; *(float *) z = a * b + a ; }
// |x y + x|: each term's magnitude, for the tolerance's scale
static void absmixed_FP64 (void *z, const void *x, const void *y)
{ double a = *(const double *) x, b = *(const double *) y ; *(double *) z = fabs (a * b + a) ; }
static void absmixed_FP32 (void *z, const void *x, const void *y)
{ float a = *(const float *) x, b = *(const float *) y ; *(float *) z = fabsf (a * b + a) ; }
// x - y, but infinite where y is 0
static void gap_FP64 (void *z, const void *x, const void *y)
{
    double a = *(const double *) x, b = *(const double *) y ;
    *(double *) z = (b == 0) ? INFINITY : a - b ;
}
static void minus_INT32 (void *z, const void *x, const void *y)
{ *(int32_t *) z = *(const int32_t *) x - *(const int32_t *) y ; }
// INT8 inputs, INT16 result: x y - 3 x (wraps in INT16)
static void mixed_INT16 (void *z, const void *x, const void *y)
{
    int16_t a = *(const int8_t *) x, b = *(const int8_t *) y ;
    *(int16_t *) z = (int16_t) (a * b * 97 - 3 * a) ;
}
static void minus_UINT8 (void *z, const void *x, const void *y)
{ *(uint8_t *) z = (uint8_t) (*(const uint8_t *) x - *(const uint8_t *) y) ; }

static GrB_BinaryOp op_new (GxB_binary_function f, GrB_Type z, GrB_Type x,
    GrB_Type y)
{
    GrB_BinaryOp op = NULL ;
    GXT_OK (GrB_BinaryOp_new (&op, f, z, x, y)) ;
    return op ;
}

static GrB_Monoid plus (GrB_Type type)
{
    if (type == GrB_FP64) return GrB_PLUS_MONOID_FP64 ;
    if (type == GrB_FP32) return GrB_PLUS_MONOID_FP32 ;
    if (type == GrB_INT32) return GrB_PLUS_MONOID_INT32 ;
    if (type == GrB_INT16) return GrB_PLUS_MONOID_INT16 ;
    return GrB_PLUS_MONOID_UINT8 ;
}

// the hook's counters: pairs the rewrite computed, or (again) those of them
// the union path computed again
static int64_t stat (bool again)
{
    int64_t pairs, redone ;
    GXD_union_plus_stats (&pairs, &redone) ;
    return again ? redone : pairs ;
}
#define rewritten() stat (false)
#define redone() stat (true)

//------------------------------------------------------------------------------
// one call against the reference
//------------------------------------------------------------------------------

// C<M> = d(A,B) into a poisoned C (M NULL: every pair; desc: the mask's
// reading) against the same assignment of GXO_union into a poisoned matrix;
// rtol < 0: bit for bit; absop (|op|, or NULL): within rtol of max (|ref|,
// the pair's sum of |op|), else of max (|ref|, 1)
static void check (GrB_BinaryOp op, GrB_BinaryOp absop, double e,
    GrB_Matrix A, GrB_Matrix B, GrB_Matrix M, GrB_Descriptor desc,
    double rtol, const char *what)
{
    GrB_Type type ;
    GXT_OK (GxB_BinaryOp_ztype (&type, op)) ;
    GxB_NAMM namm = NULL ;
    GrB_Semiring s = NULL ;
    GXT_OK (GxB_NAMM_new (&namm, op, e)) ;
    GXT_OK (GxB_Semiring_new_NAMM (&s, plus (type), namm)) ;
    GrB_Index m, n ;
    GXT_OK (GrB_Matrix_nrows (&m, A)) ;
    GXT_OK (GrB_Matrix_nrows (&n, B)) ;
    gxt_snapshot sa = gxt_snap (A), sb = gxt_snap (B) ;
    GrB_Matrix C = NULL, D = NULL, E = NULL ;
    GXT_OK (GrB_Matrix_new (&C, type, m, n)) ;
    gxt_poison (C) ;
    GXT_OK (GxB_mxm_distance (C, M, NULL, s, A, B, desc)) ;
    gxt_snap_check (&sa, A, "A") ;
    gxt_snap_check (&sb, B, "B") ;
    GXT_OK (GXO_union (&D, plus (type), op, e, A, B)) ;
    GXT_OK (GrB_Matrix_new (&E, type, m, n)) ;
    gxt_poison (E) ;
    GXT_OK (GrB_Matrix_assign (E, M, NULL, D, GrB_ALL, m, GrB_ALL, n, desc)) ;
    if (rtol < 0) gxt_check_bitwise (C, E, what) ;
    else if (absop != NULL)
    {
        GrB_Matrix S = NULL ;
        GXT_OK (GXO_union (&S, plus (type), absop, e, A, B)) ;
        gxt_check_scaled (C, E, rtol, S, what) ;
        GrB_Matrix_free (&S) ;
    }
    else gxt_check_same (C, E, rtol, 1, what) ;
    GrB_Matrix_free (&C) ; GrB_Matrix_free (&D) ; GrB_Matrix_free (&E) ;
    GrB_Semiring_free (&s) ;
    GXT_OK (GxB_NAMM_free (&namm)) ;
}

// A, B of the shape as `type`
static void pair_of (GrB_Matrix *A, GrB_Matrix *B, gxt_shape shape,
    gxt_values v, GrB_Type type)
{
    GrB_Matrix X, Y ;
    gxt_pair (&X, &Y, shape, v) ;
    gxt_convert (A, X, GXT_FMT_SPARSE, type) ;
    gxt_convert (B, Y, GXT_FMT_SPARSE, type) ;
    GrB_Matrix_free (&X) ; GrB_Matrix_free (&Y) ;
}

static const gxt_shape shapes [ ] =
{
    GXT_SHAPE_RANDOM, GXT_SHAPE_EMPTY_ROWS, GXT_SHAPE_POWERLAW, GXT_SHAPE_WIDE,
    GXT_SHAPE_EXPLICIT_ZEROS, GXT_SHAPE_DENSE, GXT_SHAPE_K1, GXT_SHAPE_M0,
    GXT_SHAPE_N1,
} ;
#define NSHAPES ((int) (sizeof (shapes) / sizeof (shapes [0])))

//------------------------------------------------------------------------------
// floating point: every shape, identities 0 and not, masks, small blocks
//------------------------------------------------------------------------------

static void floating_point_sums_match_the_reference (void **state)
{
    GXT_START ( ) ;
    GrB_Type types [2] = { GrB_FP32, GrB_FP64 } ;
    GxB_binary_function f [3][2] =
    {
        { absdiff_FP32, absdiff_FP64 }, { minus_FP32, minus_FP64 },
        { mixed_FP32, mixed_FP64 }
    } ;
    // |f| of each, the tolerance's scale
    GxB_binary_function absf [3][2] =
    {
        { absdiff_FP32, absdiff_FP64 }, { absdiff_FP32, absdiff_FP64 },
        { absmixed_FP32, absmixed_FP64 }
    } ;
    const double ids [3] = { 0, 1.5, -0.75 } ;
    for (int tq = 0 ; tq < 2 ; tq++)
    for (int fq = 0 ; fq < 3 ; fq++)
    for (int iq = 0 ; iq < 3 ; iq++)
    {
        GrB_Type type = types [tq] ;
        GrB_BinaryOp op = op_new (f [fq][tq], type, type, type) ;
        GrB_BinaryOp absop = op_new (absf [fq][tq], type, type, type) ;
        for (int q = 0 ; q < NSHAPES ; q++)
        {
            GrB_Matrix A, B ;
            pair_of (&A, &B, shapes [q], GXT_MIXED, type) ;
            GrB_Index m, n ;
            GXT_OK (GrB_Matrix_nrows (&m, A)) ;
            GXT_OK (GrB_Matrix_nrows (&n, B)) ;
            char what [160] ;
            snprintf (what, sizeof (what), "%s op %d, identity %g, shape %s",
                gxt_type_name (type), fq, ids [iq], gxt_shape_name (shapes [q])) ;
            int64_t before = rewritten ( ) ;
            check (op, absop, ids [iq], A, B, NULL, NULL, gxt_rtol (type), what) ;
            if (m * n > 0 && rewritten ( ) != before + (int64_t) (m * n))
                GXT_FAIL ("[%s]: the rewrite computed %ld pairs, not %ld", what,
                    (long) (rewritten ( ) - before), (long) (m * n)) ;
            // rows in blocks of at most 5 pairs (one row where n > 5), terms
            // in chunks of 7, f called term by term or on the grid of the
            // distinct values
            GXD_union_plus_set_block (5, 7) ;
            for (int grid = -1 ; grid <= 1 ; grid += 2)
            {
                GXD_union_plus_set_grid (grid) ;
                check (op, absop, ids [iq], A, B, NULL, NULL, gxt_rtol (type), what) ;
            }
            GXD_union_plus_set_grid (0) ;
            GXD_union_plus_set_block (0, 0) ;
            GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ;
        }
        GrB_BinaryOp_free (&op) ;
        GrB_BinaryOp_free (&absop) ;
    }
}

// along masks: structural, valued (a quarter of the entries false),
// complemented (every pair computed, the mask applied after)
static void masks_select_the_pairs (void **state)
{
    GXT_START ( ) ;
    GrB_Type types [2] = { GrB_FP32, GrB_FP64 } ;
    for (int tq = 0 ; tq < 2 ; tq++)
    {
        GrB_Type type = types [tq] ;
        GrB_BinaryOp op = op_new (tq ? mixed_FP64 : mixed_FP32, type, type, type) ;
        GrB_BinaryOp absop = op_new (tq ? absmixed_FP64 : absmixed_FP32, type, type, type) ;
        gxt_shape sh [3] = { GXT_SHAPE_RANDOM, GXT_SHAPE_EMPTY_ROWS, GXT_SHAPE_POWERLAW } ;
        for (int q = 0 ; q < 3 ; q++)
        for (int blocks = 0 ; blocks <= 1 ; blocks++)
        {
            GrB_Matrix A, B, M = NULL ;
            pair_of (&A, &B, sh [q], GXT_MIXED, type) ;
            GrB_Index m, n ;
            GXT_OK (GrB_Matrix_nrows (&m, A)) ;
            GXT_OK (GrB_Matrix_nrows (&n, B)) ;
            gxt_mask (&M, m, n, 0.3) ;
            GXD_union_plus_set_block (blocks ? 4 : 0, 0) ;
            for (int d = 0 ; d < 4 ; d++)
            {
                bool structural = (d & 1), comp = (d & 2) ;
                GrB_Descriptor desc = gxt_desc (structural, comp, false, false, false) ;
                char what [160] ;
                snprintf (what, sizeof (what), "%s, shape %s, mask %s%s, blocks %s",
                    gxt_type_name (type), gxt_shape_name (sh [q]),
                    structural ? "structural" : "valued", comp ? " complemented" : "",
                    blocks ? "of 4 pairs" : "default") ;
                check (op, absop, 0.5, A, B, M, desc, gxt_rtol (type), what) ;
                GrB_Descriptor_free (&desc) ;
            }
            GXD_union_plus_set_block (0, 0) ;
            GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&M) ;
        }
        GrB_BinaryOp_free (&op) ;
        GrB_BinaryOp_free (&absop) ;
    }
}

//------------------------------------------------------------------------------
// cancellation: the rewrite's pairs are computed again over their unions
//------------------------------------------------------------------------------

// x - y, e = 0, on rows that share a column holding 2^60 in both (its term
// is 0) beside small entries, multiples of 1/8 in [1, 2]: every partial sum
// of the union is exact in FP32, so the reference is exact and so must the
// result be; but the rewrite's row sums hold 2^60 + the small entries,
// which rounding loses (the ulp of 2^60 is 256 in FP64), so rewritten
// sums would be wrong by the size of the result.  Compared with rtol
// relative to |ref| only, and the hook must show pairs computed again.
static void cancelling_sums_are_computed_again (void **state)
{
    GXT_START ( ) ;
    GrB_Type types [2] = { GrB_FP32, GrB_FP64 } ;
    for (int tq = 0 ; tq < 2 ; tq++)
    {
        GrB_Type type = types [tq] ;
        GrB_BinaryOp op = op_new (tq ? minus_FP64 : minus_FP32, type, type, type) ;
        GrB_Index m = gxt_int (5, 20), n = gxt_int (5, 20), k = gxt_int (4, 30) ;
        GrB_Matrix X [2] ;
        gxt_cancelling_rows (&X [0], type, m, k) ;
        gxt_cancelling_rows (&X [1], type, n, k) ;
        GrB_Matrix M = NULL ;
        gxt_mask (&M, m, n, 0.5) ;
        for (int masked = 0 ; masked <= 1 ; masked++)
        {
            int64_t r0 = redone ( ) ;
            check (op, NULL, 0, X [0], X [1], masked ? M : NULL, masked ? GrB_DESC_S : NULL,
                gxt_rtol (type) / 1e3, masked ? "cancelling sums, masked"
                : "cancelling sums") ;
            if (redone ( ) == r0)
                GXT_FAIL ("%s: no pair was computed again", gxt_type_name (type)) ;
        }
        GrB_Matrix_free (&X [0]) ; GrB_Matrix_free (&X [1]) ; GrB_Matrix_free (&M) ;
        GrB_BinaryOp_free (&op) ;
    }
}

// f(e, 0) = infinity for a stored zero of B: the rewrite would make
// inf - inf, so the whole call takes the union path (no pair rewritten);
// on naturals every finite sum is exact, so the results are the same
static void non_finite_terms_take_the_union_path (void **state)
{
    GXT_START ( ) ;
    GrB_BinaryOp op = op_new (gap_FP64, GrB_FP64, GrB_FP64, GrB_FP64) ;
    GrB_Matrix A, B ;
    pair_of (&A, &B, GXT_SHAPE_RANDOM, GXT_NATURALS, GrB_FP64) ;
    GXT_OK (GrB_Matrix_setElement_FP64 (B, 0, 0, 0)) ;
    GXT_OK (GrB_Matrix_wait (B, GrB_MATERIALIZE)) ;
    int64_t before = rewritten ( ) ;
    check (op, NULL, 1, A, B, NULL, NULL, 0, "x - y or inf, identity 1, B(0,0) = 0") ;
    assert_int_equal (rewritten ( ), before) ;
    // without the zero, the same operator is rewritten
    GXT_OK (GrB_Matrix_setElement_FP64 (B, 2, 0, 0)) ;
    check (op, NULL, 1, A, B, NULL, NULL, 0, "x - y or inf, identity 1") ;
    assert_true (rewritten ( ) > before) ;
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ;
    GrB_BinaryOp_free (&op) ;
}

//------------------------------------------------------------------------------
// integers: exact in wrap-around arithmetic
//------------------------------------------------------------------------------

static void integer_sums_are_exact (void **state)
{
    GXT_START ( ) ;
    struct { GxB_binary_function f ; GrB_Type z, x ; double e ; gxt_values v ; }
    cases [3] =
    {
        { minus_INT32, GrB_INT32, GrB_INT32, 3,  GXT_INTEGERS },
        { mixed_INT16, GrB_INT16, GrB_INT8,  -2, GXT_INTEGERS },  // wraps
        { minus_UINT8, GrB_UINT8, GrB_UINT8, 7,  GXT_NATURALS },  // wraps
    } ;
    for (int c = 0 ; c < 3 ; c++)
    {
        GrB_BinaryOp op = op_new (cases [c].f, cases [c].z, cases [c].x, cases [c].x) ;
        for (int q = 0 ; q < NSHAPES ; q++)
        {
            GrB_Matrix A, B, M = NULL ;
            pair_of (&A, &B, shapes [q], cases [c].v, cases [c].x) ;
            GrB_Index m, n ;
            GXT_OK (GrB_Matrix_nrows (&m, A)) ;
            GXT_OK (GrB_Matrix_nrows (&n, B)) ;
            char what [160] ;
            snprintf (what, sizeof (what), "%s, shape %s", gxt_type_name (cases [c].z),
                gxt_shape_name (shapes [q])) ;
            int64_t before = rewritten ( ), r0 = redone ( ) ;
            check (op, NULL, cases [c].e, A, B, NULL, NULL, -1, what) ;
            if (m * n > 0 && rewritten ( ) == before)
                GXT_FAIL ("[%s]: the rewrite did not run", what) ;
            assert_int_equal (redone ( ), r0) ;
            gxt_mask (&M, m, n, 0.4) ;
            GXD_union_plus_set_block (3, 1) ;
            for (int grid = -1 ; grid <= 1 ; grid += 2)
            {
                GXD_union_plus_set_grid (grid) ;
                check (op, NULL, cases [c].e, A, B, NULL, NULL, -1, what) ;
            }
            GXD_union_plus_set_grid (0) ;
            check (op, NULL, cases [c].e, A, B, M, GrB_DESC_S, -1, what) ;
            GXD_union_plus_set_block (0, 0) ;
            GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&M) ;
        }
        GrB_BinaryOp_free (&op) ;
    }
}

int main (void)
{
    const struct CMUnitTest tests [ ] =
    {
        cmocka_unit_test (floating_point_sums_match_the_reference),
        cmocka_unit_test (masks_select_the_pairs),
        cmocka_unit_test (cancelling_sums_are_computed_again),
        cmocka_unit_test (non_finite_terms_take_the_union_path),
        cmocka_unit_test (integer_sums_are_exact),
    } ;
    return gxt_main ("PLUS unions of operators only GraphBLAS can call", tests,
        sizeof (tests) / sizeof (tests [0])) ;
}
