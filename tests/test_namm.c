// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// tests/test_namm.c: user NAMMs, the annihilator-free descriptor, and plain
// semirings
//------------------------------------------------------------------------------

// A NAMM applies (x) over the union of a row pair's columns, a missing entry
// taking the NAMM's identity: C(i,j) = (+)_{c<k} op(a~_c, b~_c).  Checked
// against the reference's dense completion (GXO_union): user operators made
// with GxB_BinaryOp_new (|x-y|, (x-y)^2 and the non-symmetric 2x-y), identity
// 0 and 1, PLUS and MAX monoids, FP32 and FP64; NAMMs of built-in operators
// (GrB_MINUS, GrB_TIMES with identity 1); GxB_DESC_UNION and a user
// descriptor marked with GxB_Desc_set_annihilator_free on ordinary
// semirings.  Without the mark, an ordinary semiring gives exactly
// GrB_mxm (C, M, accum, s, A, B, GrB_DESC_T1), bit for bit, and a NAMM
// semiring used with plain GrB_mxm gives intersection semantics.

#include "test_common.h"

//------------------------------------------------------------------------------
// user operators
//------------------------------------------------------------------------------

static void absdiff64 (void *z, const void *x, const void *y)
{ *(double *) z = fabs (*(const double *) x - *(const double *) y) ; }
static void sqdiff64 (void *z, const void *x, const void *y)
{ double d = *(const double *) x - *(const double *) y ; *(double *) z = d * d ; }
static void twoxmy64 (void *z, const void *x, const void *y)
{ *(double *) z = 2 * *(const double *) x - *(const double *) y ; }
static void absdiff32 (void *z, const void *x, const void *y)
{ *(float *) z = fabsf (*(const float *) x - *(const float *) y) ; }
// scales: the sum of these bounds the rounding of the sums above
static void absxy64 (void *z, const void *x, const void *y)
{ *(double *) z = fabs (*(const double *) x) + fabs (*(const double *) y) ; }
static void abs2xy64 (void *z, const void *x, const void *y)
{ *(double *) z = 2 * fabs (*(const double *) x) + fabs (*(const double *) y) ; }
static void abstimes64 (void *z, const void *x, const void *y)
{ *(double *) z = fabs (*(const double *) x * *(const double *) y) ; }

static GrB_BinaryOp op_absdiff, op_sqdiff, op_twoxmy, op_absdiff32, op_absxy,
    op_abs2xy, op_abstimes ;

static int make_ops (void **state)
{
    GrB_Info info = GrB_SUCCESS ;
    info |= GxB_BinaryOp_new (&op_absdiff, absdiff64, GrB_FP64, GrB_FP64, GrB_FP64, "absdiff64", NULL) ;
    info |= GxB_BinaryOp_new (&op_sqdiff, sqdiff64, GrB_FP64, GrB_FP64, GrB_FP64, "sqdiff64", NULL) ;
    info |= GxB_BinaryOp_new (&op_twoxmy, twoxmy64, GrB_FP64, GrB_FP64, GrB_FP64, "twoxmy64", NULL) ;
    info |= GxB_BinaryOp_new (&op_absdiff32, absdiff32, GrB_FP32, GrB_FP32, GrB_FP32, "absdiff32", NULL) ;
    info |= GxB_BinaryOp_new (&op_absxy, absxy64, GrB_FP64, GrB_FP64, GrB_FP64, "absxy64", NULL) ;
    info |= GxB_BinaryOp_new (&op_abs2xy, abs2xy64, GrB_FP64, GrB_FP64, GrB_FP64, "abs2xy64", NULL) ;
    info |= GxB_BinaryOp_new (&op_abstimes, abstimes64, GrB_FP64, GrB_FP64, GrB_FP64, "abstimes64", NULL) ;
    return info == GrB_SUCCESS ? 0 : -1 ;
}

static int free_ops (void **state)
{
    GrB_BinaryOp_free (&op_absdiff) ; GrB_BinaryOp_free (&op_sqdiff) ;
    GrB_BinaryOp_free (&op_twoxmy) ; GrB_BinaryOp_free (&op_absdiff32) ;
    GrB_BinaryOp_free (&op_absxy) ; GrB_BinaryOp_free (&op_abs2xy) ;
    GrB_BinaryOp_free (&op_abstimes) ;
    return 0 ;
}

static const gxt_shape shapes [] =
{
    GXT_SHAPE_RANDOM, GXT_SHAPE_EMPTY_ROWS, GXT_SHAPE_DENSE_ROW, GXT_SHAPE_POWERLAW,
    GXT_SHAPE_EXPLICIT_ZEROS, GXT_SHAPE_K1, GXT_SHAPE_M0, GXT_SHAPE_N1, GXT_SHAPE_M1N1,
} ;
#define NSHAPES ((int) (sizeof (shapes) / sizeof (shapes [0])))

//------------------------------------------------------------------------------
// checking a union product against GXO_union
//------------------------------------------------------------------------------

// C (m-by-n, full) = the union product; scale_op (or NULL): S = sum of
// scale_op over the completed rows, the size of what the sum cancels
static void check_union (GrB_Matrix C, GrB_Monoid add, GrB_BinaryOp op,
    double identity, GrB_BinaryOp scale_op, GrB_Type type, GrB_Matrix A,
    GrB_Matrix B, const char *what)
{
    GrB_Index m, n, nv ;
    GXT_OK (GrB_Matrix_nrows (&m, A)) ;
    GXT_OK (GrB_Matrix_nrows (&n, B)) ;
    GXT_OK (GrB_Matrix_nvals (&nv, C)) ;
    if (nv != m * n)
        GXT_FAIL ("%s: C has %lu entries, expected all %lu (union products are full)",
            what, (unsigned long) nv, (unsigned long) (m * n)) ;
    GrB_Matrix D = NULL, S = NULL ;
    GXT_OK (GXO_union (&D, add, op, identity, A, B)) ;
    if (scale_op) GXT_OK (GXO_union (&S, GrB_PLUS_MONOID_FP64, scale_op, identity, A, B)) ;
    int64_t nbad = 0, wi = -1, wj = -1 ;
    double wg = 0, wr = 0 ;
    double rtol = gxt_rtol (type) ;
    GXT_OK (GXO_compare (C, D, S, rtol, &nbad, &wi, &wj, &wg, &wr)) ;
    GrB_Matrix_free (&D) ; GrB_Matrix_free (&S) ;
    if (nbad > 0)
        GXT_FAIL ("%s: %ld of %lu entries differ from GXO_union (rtol %g); worst (i,j) = (%ld,%ld): "
            "got %.17g, reference %.17g", what, (long) nbad, (unsigned long) (m * n), rtol,
            (long) wi, (long) wj, wg, wr) ;
}

// the NAMM (op, identity) with monoid add, on every shape class
static void run_namm (GrB_BinaryOp op, const char *opname, double identity,
    GrB_Monoid add, const char *addname, GrB_BinaryOp scale_op, GrB_Type type)
{
    GxB_NAMM namm = NULL ;
    GrB_Semiring s = NULL ;
    GXT_OK (GxB_NAMM_new (&namm, op, identity)) ;
    GXT_OK (GxB_Semiring_new_NAMM (&s, add, namm)) ;
    for (int exact = 0 ; exact <= 1 ; exact++)
    {
        GXT_OK (GxB_Distance_set_exact_union (exact)) ;
        for (int q = 0 ; q < NSHAPES ; q++)
        {
            GrB_Matrix A, B, C = NULL ;
            gxt_pair (&A, &B, shapes [q], GXT_MIXED) ;
            gxt_snapshot sa = gxt_snap (A), sb = gxt_snap (B) ;
            GXT_OK (gxt_distance (&C, type, s, A, B, NULL)) ;
            char what [160] ;
            snprintf (what, sizeof (what), "NAMM %s identity %g, monoid %s, shape %s%s",
                opname, identity, addname, gxt_shape_name (shapes [q]), exact ? ", exact union" : "") ;
            check_union (C, add, op, identity, scale_op, type, A, B, what) ;
            gxt_snap_check (&sa, A, "A") ;
            gxt_snap_check (&sb, B, "B") ;
            GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&C) ;
        }
    }
    GXT_OK (GxB_Distance_set_exact_union (false)) ;
    GrB_Semiring_free (&s) ;
    GXT_OK (GxB_NAMM_free (&namm)) ;
    assert_null (namm) ;
}

//------------------------------------------------------------------------------
// user NAMMs
//------------------------------------------------------------------------------

static void user_namm_absdiff_plus_is_the_union_sum (void **state)
{
    GXT_START ( ) ;
    run_namm (op_absdiff, "|x-y|", 0, GrB_PLUS_MONOID_FP64, "PLUS", NULL, GrB_FP64) ;
    run_namm (op_sqdiff, "(x-y)^2", 0, GrB_PLUS_MONOID_FP64, "PLUS", NULL, GrB_FP64) ;
}

static void user_namm_absdiff_max_is_the_union_max (void **state)
{
    GXT_START ( ) ;
    run_namm (op_absdiff, "|x-y|", 0, GrB_MAX_MONOID_FP64, "MAX", NULL, GrB_FP64) ;
}

static void user_namm_keeps_the_order_of_its_arguments (void **state)
{
    GXT_START ( ) ;
    run_namm (op_twoxmy, "2x-y", 0, GrB_PLUS_MONOID_FP64, "PLUS", op_abs2xy, GrB_FP64) ;
    run_namm (op_twoxmy, "2x-y", 0, GrB_MAX_MONOID_FP64, "MAX", NULL, GrB_FP64) ;
}

static void user_namm_identity_one_fills_missing_entries_with_one (void **state)
{
    GXT_START ( ) ;
    run_namm (op_absdiff, "|x-y|", 1, GrB_PLUS_MONOID_FP64, "PLUS", NULL, GrB_FP64) ;
    run_namm (op_twoxmy, "2x-y", 1, GrB_PLUS_MONOID_FP64, "PLUS", op_abs2xy, GrB_FP64) ;
    run_namm (op_twoxmy, "2x-y", 1, GrB_MAX_MONOID_FP64, "MAX", NULL, GrB_FP64) ;
}

static void user_namm_in_fp32 (void **state)
{
    GXT_START ( ) ;
    run_namm (op_absdiff32, "|x-y| FP32", 0, GrB_PLUS_MONOID_FP32, "PLUS_FP32", NULL, GrB_FP32) ;
    run_namm (op_absdiff32, "|x-y| FP32", 0, GrB_MAX_MONOID_FP32, "MAX_FP32", NULL, GrB_FP32) ;
}

static void namm_of_builtin_operators (void **state)
{
    GXT_START ( ) ;
    run_namm (GrB_MINUS_FP64, "GrB_MINUS_FP64", 0, GrB_PLUS_MONOID_FP64, "PLUS", op_absxy, GrB_FP64) ;
    run_namm (GrB_MINUS_FP64, "GrB_MINUS_FP64", 1, GrB_MAX_MONOID_FP64, "MAX", NULL, GrB_FP64) ;
    run_namm (GrB_TIMES_FP64, "GrB_TIMES_FP64", 1, GrB_PLUS_MONOID_FP64, "PLUS", op_abstimes, GrB_FP64) ;
    run_namm (GrB_MAX_FP64, "GrB_MAX_FP64", 0, GrB_PLUS_MONOID_FP64, "PLUS", op_absxy, GrB_FP64) ;
    run_namm (GrB_MINUS_FP32, "GrB_MINUS_FP32", 0, GrB_PLUS_MONOID_FP32, "PLUS_FP32", op_absxy, GrB_FP32) ;
}

static void namm_new_and_free_leave_nothing_behind (void **state)
{
    GXT_START ( ) ;
    for (int i = 0 ; i < 20 ; i++)
    {
        GxB_NAMM namm = NULL ;
        GrB_Semiring s = NULL ;
        GXT_OK (GxB_NAMM_new (&namm, op_absdiff, (double) i)) ;
        assert_non_null (namm) ;
        GXT_OK (GxB_Semiring_new_NAMM (&s, GrB_PLUS_MONOID_FP64, namm)) ;
        assert_non_null (s) ;
        GrB_Semiring_free (&s) ;
        GXT_OK (GxB_NAMM_free (&namm)) ;
        assert_null (namm) ;
    }
    // freeing NULL is fine
    GxB_NAMM none = NULL ;
    GXT_OK (GxB_NAMM_free (&none)) ;
}

//------------------------------------------------------------------------------
// the annihilator-free descriptor on ordinary semirings
//------------------------------------------------------------------------------

// ordinary semiring (add, op) under union semantics (missing = 0)
static void run_union_desc (GrB_Semiring s, GrB_Monoid add, GrB_BinaryOp op,
    GrB_BinaryOp scale_op, GrB_Type type, GrB_Descriptor desc, const char *name)
{
    for (int q = 0 ; q < NSHAPES ; q++)
    {
        GrB_Matrix A, B, C = NULL ;
        gxt_pair (&A, &B, shapes [q], GXT_MIXED) ;
        gxt_snapshot sa = gxt_snap (A), sb = gxt_snap (B) ;
        GXT_OK (gxt_distance (&C, type, s, A, B, desc)) ;
        char what [160] ;
        snprintf (what, sizeof (what), "%s under union semantics, shape %s", name, gxt_shape_name (shapes [q])) ;
        check_union (C, add, op, 0, scale_op, type, A, B, what) ;
        gxt_snap_check (&sa, A, "A") ;
        gxt_snap_check (&sb, B, "B") ;
        GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&C) ;
    }
}

static void desc_union_gives_union_semantics_to_builtin_semirings (void **state)
{
    GXT_START ( ) ;
    bool on = false ;
    GXT_OK (GxB_Desc_get_annihilator_free (GxB_DESC_UNION, &on)) ;
    assert_true (on) ;
    run_union_desc (GxB_PLUS_MINUS_FP64, GrB_PLUS_MONOID_FP64, GrB_MINUS_FP64, op_absxy,
        GrB_FP64, GxB_DESC_UNION, "GxB_PLUS_MINUS_FP64") ;
    run_union_desc (GxB_MAX_MINUS_FP64, GrB_MAX_MONOID_FP64, GrB_MINUS_FP64, NULL,
        GrB_FP64, GxB_DESC_UNION, "GxB_MAX_MINUS_FP64") ;
    run_union_desc (GrB_PLUS_TIMES_SEMIRING_FP64, GrB_PLUS_MONOID_FP64, GrB_TIMES_FP64, op_abstimes,
        GrB_FP64, GxB_DESC_UNION, "GrB_PLUS_TIMES_SEMIRING_FP64") ;
    run_union_desc (GrB_MIN_PLUS_SEMIRING_FP64, GrB_MIN_MONOID_FP64, GrB_PLUS_FP64, NULL,
        GrB_FP64, GxB_DESC_UNION, "GrB_MIN_PLUS_SEMIRING_FP64") ;
}

static void user_descriptor_marked_annihilator_free_gives_union_semantics (void **state)
{
    GXT_START ( ) ;
    GrB_Descriptor d = NULL ;
    GXT_OK (GrB_Descriptor_new (&d)) ;
    bool on = true ;
    GXT_OK (GxB_Desc_get_annihilator_free (d, &on)) ;
    assert_false (on) ;
    GXT_OK (GxB_Desc_set_annihilator_free (d, true)) ;
    GXT_OK (GxB_Desc_get_annihilator_free (d, &on)) ;
    assert_true (on) ;
    // a semiring the user wrote: PLUS and |x-y| (an operator of its own, so
    // that no NAMM made by another test can be mistaken for it)
    GrB_BinaryOp mine = NULL ;
    GXT_OK (GxB_BinaryOp_new (&mine, absdiff64, GrB_FP64, GrB_FP64, GrB_FP64, "absdiff64_mine", NULL)) ;
    GrB_Semiring s = NULL ;
    GXT_OK (GrB_Semiring_new (&s, GrB_PLUS_MONOID_FP64, mine)) ;
    run_union_desc (s, GrB_PLUS_MONOID_FP64, mine, NULL, GrB_FP64, d, "user semiring PLUS.|x-y|") ;
    GrB_Semiring_free (&s) ;
    GrB_BinaryOp_free (&mine) ;
    GXT_OK (GrB_Semiring_new (&s, GrB_MAX_MONOID_FP64, op_twoxmy)) ;
    run_union_desc (s, GrB_MAX_MONOID_FP64, op_twoxmy, NULL, GrB_FP64, d, "user semiring MAX.(2x-y)") ;
    GrB_Semiring_free (&s) ;
    run_union_desc (GxB_PLUS_MINUS_FP64, GrB_PLUS_MONOID_FP64, GrB_MINUS_FP64, op_absxy,
        GrB_FP64, d, "GxB_PLUS_MINUS_FP64, user descriptor") ;
    // the mark can be cleared again
    GXT_OK (GxB_Desc_set_annihilator_free (d, false)) ;
    GXT_OK (GxB_Desc_get_annihilator_free (d, &on)) ;
    assert_false (on) ;
    GrB_Descriptor_free (&d) ;
}

static void annihilator_free_descriptor_keeps_its_mask_settings (void **state)
{
    GXT_START ( ) ;
    // structural mask + replace + the mark: C<M,struct,replace> = union product
    GrB_Descriptor d = gxt_desc (true, false, true, false, false) ;
    GXT_OK (GxB_Desc_set_annihilator_free (d, true)) ;
    GrB_Descriptor dref = gxt_desc (true, false, true, false, false) ;
    GrB_Matrix A, B, M, C, Cref, D ;
    gxt_pair (&A, &B, GXT_SHAPE_RANDOM, GXT_MIXED) ;
    gxt_result_mask (&M, A, B, 0.3) ;
    gxt_new_result (&C, GrB_FP64, A, B) ;
    gxt_poison (C) ;
    GXT_OK (GrB_Matrix_dup (&Cref, C)) ;
    GXT_OK (GxB_mxm_distance (C, M, NULL, GxB_PLUS_MINUS_FP64, A, B, d)) ;
    GXT_OK (GXO_union (&D, GrB_PLUS_MONOID_FP64, GrB_MINUS_FP64, 0, A, B)) ;
    GXT_OK (GrB_Matrix_apply (Cref, M, NULL, GrB_IDENTITY_FP64, D, dref)) ;
    // entries outside the mask are deleted (replace); masked ones are union
    // sums, which cancel: compare with a scale of 8 * k (|x|,|y| <= 4)
    GrB_Index k ;
    GXT_OK (GrB_Matrix_ncols (&k, A)) ;
    gxt_check_same (C, Cref, 1e-12, 8.0 * (double) k, "PLUS_MINUS, union mark + structural mask + replace") ;
    GXT_OK (GxB_Desc_set_annihilator_free (d, false)) ;
    GrB_Descriptor_free (&d) ; GrB_Descriptor_free (&dref) ;
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&M) ;
    GrB_Matrix_free (&C) ; GrB_Matrix_free (&Cref) ; GrB_Matrix_free (&D) ;
}

//------------------------------------------------------------------------------
// without the mark: exactly GrB_mxm
//------------------------------------------------------------------------------

static void ordinary_semiring_without_the_mark_is_exactly_grb_mxm (void **state)
{
    GXT_START ( ) ;
    // the user semiring gets an operator of its own, so that no NAMM made by
    // another test (at a reused address) can be mistaken for it
    GrB_BinaryOp mine = NULL ;
    GXT_OK (GxB_BinaryOp_new (&mine, absdiff64, GrB_FP64, GrB_FP64, GrB_FP64, "absdiff64_plain", NULL)) ;
    GrB_Semiring user = NULL ;
    GXT_OK (GrB_Semiring_new (&user, GrB_PLUS_MONOID_FP64, mine)) ;
    GrB_Semiring sr [5] = { GrB_PLUS_TIMES_SEMIRING_FP64, GxB_PLUS_MINUS_FP64,
        GxB_MAX_MINUS_FP64, user, GrB_MIN_PLUS_SEMIRING_FP32 } ;
    const char *names [5] = { "GrB_PLUS_TIMES_SEMIRING_FP64", "GxB_PLUS_MINUS_FP64",
        "GxB_MAX_MINUS_FP64", "user PLUS.|x-y|", "GrB_MIN_PLUS_SEMIRING_FP32" } ;
    GrB_Type ctypes [5] = { GrB_FP64, GrB_FP64, GrB_FP64, GrB_FP64, GrB_FP32 } ;
    for (int q = 0 ; q < 5 ; q++)
    {
        for (int variant = 0 ; variant < 4 ; variant++)
        {
            // 0: plain; 1: valued mask + accum PLUS; 2: INP0 = TRAN;
            // 3: complemented structural mask + replace
            GrB_Matrix A, B, M = NULL, C0, C, Cref, At = NULL ;
            gxt_pair (&A, &B, (variant == 2) ? GXT_SHAPE_WIDE : GXT_SHAPE_RANDOM, GXT_MIXED) ;
            GrB_Index m, n, k ;
            GXT_OK (GrB_Matrix_nrows (&m, A)) ;
            GXT_OK (GrB_Matrix_nrows (&n, B)) ;
            GXT_OK (GrB_Matrix_ncols (&k, A)) ;
            gxt_spec cs = { 0 } ;
            cs.m = m ; cs.k = n ; cs.density = 0.3 ; cs.dense_row = -1 ; cs.values = GXT_NATURALS ;
            GrB_Matrix C00 ;
            gxt_random (&C00, &cs) ;
            GXT_OK (GrB_Matrix_new (&C0, ctypes [q], m, n)) ;
            GXT_OK (GrB_Matrix_assign (C0, NULL, NULL, C00, GrB_ALL, m, GrB_ALL, n, NULL)) ;
            GrB_Matrix_free (&C00) ;
            GXT_OK (GrB_Matrix_dup (&C, C0)) ;
            GXT_OK (GrB_Matrix_dup (&Cref, C0)) ;
            GrB_BinaryOp accum = NULL ;
            GrB_Descriptor dlib = NULL, dref = NULL ;
            GrB_Matrix Aarg = A ;
            if (variant == 1 || variant == 3) gxt_mask (&M, m, n, 0.4) ;
            if (variant == 1)
            {
                accum = GrB_PLUS_FP64 ;
                dlib = NULL ;
                dref = gxt_desc (false, false, false, false, true) ;
            }
            else if (variant == 2)
            {
                GXT_OK (GrB_Matrix_new (&At, GrB_FP64, k, m)) ;
                GXT_OK (GrB_transpose (At, NULL, NULL, A, NULL)) ;
                Aarg = At ;
                dlib = gxt_desc (false, false, false, true, false) ;
                dref = gxt_desc (false, false, false, true, true) ;
            }
            else if (variant == 3)
            {
                dlib = gxt_desc (true, true, true, false, false) ;
                dref = gxt_desc (true, true, true, false, true) ;
            }
            else
            {
                dref = gxt_desc (false, false, false, false, true) ;
            }
            gxt_snapshot sa = gxt_snap (Aarg), sb = gxt_snap (B) ;
            GXT_OK (GxB_mxm_distance (C, M, accum, sr [q], Aarg, B, dlib)) ;
            GXT_OK (GrB_mxm (Cref, M, accum, sr [q], Aarg, B, dref)) ;
            char what [160] ;
            snprintf (what, sizeof (what), "%s, variant %d (0 plain, 1 mask+accum, 2 INP0 TRAN, 3 comp struct replace)",
                names [q], variant) ;
            gxt_check_bitwise (C, Cref, what) ;
            gxt_snap_check (&sa, Aarg, "A") ;
            gxt_snap_check (&sb, B, "B") ;
            GrB_Descriptor_free (&dlib) ; GrB_Descriptor_free (&dref) ;
            GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&M) ;
            GrB_Matrix_free (&At) ; GrB_Matrix_free (&C0) ; GrB_Matrix_free (&C) ;
            GrB_Matrix_free (&Cref) ;
        }
    }
    GrB_Semiring_free (&user) ;
    GrB_BinaryOp_free (&mine) ;
}

static void namm_semiring_with_plain_grb_mxm_gives_intersection_semantics (void **state)
{
    GXT_START ( ) ;
    GxB_NAMM namm = NULL ;
    GrB_Semiring s = NULL, plain = NULL ;
    GXT_OK (GxB_NAMM_new (&namm, op_absdiff, 0)) ;
    GXT_OK (GxB_Semiring_new_NAMM (&s, GrB_PLUS_MONOID_FP64, namm)) ;
    GXT_OK (GrB_Semiring_new (&plain, GrB_PLUS_MONOID_FP64, op_absdiff)) ;
    GrB_Matrix A, B, C1, C2 ;
    gxt_pair (&A, &B, GXT_SHAPE_RANDOM, GXT_MIXED) ;
    gxt_new_result (&C1, GrB_FP64, A, B) ;
    gxt_new_result (&C2, GrB_FP64, A, B) ;
    GXT_OK (GrB_mxm (C1, NULL, NULL, s, A, B, GrB_DESC_T1)) ;
    GXT_OK (GrB_mxm (C2, NULL, NULL, plain, A, B, GrB_DESC_T1)) ;
    gxt_check_bitwise (C1, C2, "NAMM semiring in GrB_mxm") ;
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&C1) ; GrB_Matrix_free (&C2) ;
    GrB_Semiring_free (&s) ; GrB_Semiring_free (&plain) ;
    GXT_OK (GxB_NAMM_free (&namm)) ;
}

static void desc_union_on_a_namm_semiring_changes_nothing (void **state)
{
    GXT_START ( ) ;
    GxB_NAMM namm = NULL ;
    GrB_Semiring s = NULL ;
    GXT_OK (GxB_NAMM_new (&namm, op_twoxmy, 0)) ;
    GXT_OK (GxB_Semiring_new_NAMM (&s, GrB_PLUS_MONOID_FP64, namm)) ;
    GrB_Matrix A, B, C = NULL ;
    gxt_pair (&A, &B, GXT_SHAPE_EMPTY_ROWS, GXT_MIXED) ;
    GXT_OK (gxt_distance (&C, GrB_FP64, s, A, B, GxB_DESC_UNION)) ;
    check_union (C, GrB_PLUS_MONOID_FP64, op_twoxmy, 0, op_abs2xy, GrB_FP64, A, B,
        "NAMM 2x-y with GxB_DESC_UNION") ;
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&C) ;
    GrB_Semiring_free (&s) ;
    GXT_OK (GxB_NAMM_free (&namm)) ;
}

// A NAMM semiring is freed with GrB_Semiring_free, which gxbdist never
// sees; a plain semiring later allocated at the same address, with the same
// operator, must still be a plain semiring (intersection, exactly GrB_mxm)
static void plain_semiring_at_the_address_of_a_freed_namm_is_not_a_namm (void **state)
{
    GXT_START ( ) ;
    int reused = 0 ;
    for (int trial = 0 ; trial < 8 ; trial++)
    {
        GxB_NAMM namm = NULL ;
        GrB_Semiring s = NULL, plain = NULL ;
        GXT_OK (GxB_NAMM_new (&namm, op_absdiff, 19)) ;
        GXT_OK (GxB_Semiring_new_NAMM (&s, GrB_PLUS_MONOID_FP64, namm)) ;
        GrB_Semiring old = s ;
        GrB_Semiring_free (&s) ;
        GXT_OK (GxB_NAMM_free (&namm)) ;
        GXT_OK (GrB_Semiring_new (&plain, GrB_PLUS_MONOID_FP64, op_absdiff)) ;
        reused += (plain == old) ;
        GrB_Matrix A, B, C = NULL, Cref ;
        gxt_pair (&A, &B, GXT_SHAPE_RANDOM, GXT_MIXED) ;
        gxt_new_result (&C, GrB_FP64, A, B) ;
        gxt_new_result (&Cref, GrB_FP64, A, B) ;
        GXT_OK (GxB_mxm_distance (C, NULL, NULL, plain, A, B, NULL)) ;
        GXT_OK (GrB_mxm (Cref, NULL, NULL, plain, A, B, GrB_DESC_T1)) ;
        char what [128] ;
        snprintf (what, sizeof (what), "plain PLUS.|x-y| semiring %s the freed NAMM's address",
            (plain == old) ? "at" : "not at") ;
        gxt_check_bitwise (C, Cref, what) ;
        GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&C) ; GrB_Matrix_free (&Cref) ;
        GrB_Semiring_free (&plain) ;
    }
    print_message ("[          ] address reused in %d of 8 trials\n", reused) ;
}

int main (void)
{
    const struct CMUnitTest tests [] =
    {
        cmocka_unit_test (user_namm_absdiff_plus_is_the_union_sum),
        cmocka_unit_test (user_namm_absdiff_max_is_the_union_max),
        cmocka_unit_test (user_namm_keeps_the_order_of_its_arguments),
        cmocka_unit_test (user_namm_identity_one_fills_missing_entries_with_one),
        cmocka_unit_test (user_namm_in_fp32),
        cmocka_unit_test (namm_of_builtin_operators),
        cmocka_unit_test (namm_new_and_free_leave_nothing_behind),
        cmocka_unit_test (desc_union_gives_union_semantics_to_builtin_semirings),
        cmocka_unit_test (user_descriptor_marked_annihilator_free_gives_union_semantics),
        cmocka_unit_test (annihilator_free_descriptor_keeps_its_mask_settings),
        cmocka_unit_test (ordinary_semiring_without_the_mark_is_exactly_grb_mxm),
        cmocka_unit_test (namm_semiring_with_plain_grb_mxm_gives_intersection_semantics),
        cmocka_unit_test (desc_union_on_a_namm_semiring_changes_nothing),
        cmocka_unit_test (plain_semiring_at_the_address_of_a_freed_namm_is_not_a_namm),
    } ;
    gxt_setup = make_ops ;
    gxt_teardown = free_ops ;
    return gxt_main ("namm", tests, sizeof (tests) / sizeof (tests [0])) ;
}
