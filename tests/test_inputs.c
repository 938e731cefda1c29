// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// tests/test_inputs.c: any GrB_Matrix is a valid input, and comes back intact
//------------------------------------------------------------------------------

// Inputs of every storage format (sparse, hypersparse, bitmap, full, by
// column, iso-valued, jumbled, with pending tuples and zombies), of every
// built-in type (typecast as GraphBLAS does: the reference casts the same
// way), with stored zeros (values 0, the same as missing entries for every
// metric), A and B the same object, C of any format: the result equals the
// reference, and every input comes back bit for bit (type, dimensions,
// nvals, orientation, sparsity status, iso flag, tuples) after every call,
// successful or not.  A jumbled or pending input is compared with an
// untouched twin built the same way.

#include "test_common.h"

static const char *some_metrics [8] =
{
    "EUCLIDEAN", "MANHATTAN", "COSINE", "JACCARD", "CHEBYSHEV", "HELLINGER",
    "CORRELATION", "JENSEN_SHANNON"
} ;

// d(X, Y) for metric mt; X, Y are checked against their twins Xt, Yt (which
// nothing has touched) and then against the reference
static void check_pair (const gxt_metric *mt, GrB_Type type, GrB_Matrix X,
    GrB_Matrix Xt, GrB_Matrix Y, GrB_Matrix Yt, const char *context)
{
    GrB_Semiring s = gxt_semiring (mt, type) ;
    GrB_Matrix C = NULL ;
    GXT_OK (gxt_distance (&C, type, s, X, Y, NULL)) ;
    char w [200] ;
    if (Xt != NULL)
    {
        gxt_snapshot sx = gxt_snap (Xt) ;
        snprintf (w, sizeof (w), "A (%s, %s)", context, mt->name) ;
        gxt_snap_check (&sx, X, w) ;
    }
    if (Yt != NULL && Y != X)
    {
        gxt_snapshot sy = gxt_snap (Yt) ;
        snprintf (w, sizeof (w), "B (%s, %s)", context, mt->name) ;
        gxt_snap_check (&sy, Y, w) ;
    }
    gxt_check_metric (C, mt, type, X, Y, context) ;
    GrB_Matrix_free (&C) ;
    gxt_semiring_free (mt, &s) ;
}

static void every_storage_format_gives_the_reference_result_and_is_unchanged (void **state)
{
    GXT_START ( ) ;
    GrB_Type types [2] = { GrB_FP32, GrB_FP64 } ;
    for (int f = 0 ; f < GXT_NFORMATS ; f++)
    {
        for (int which = 0 ; which < 3 ; which++)     // A, B, or both in format f
        {
            GrB_Matrix A0, B0 ;
            gxt_pair (&A0, &B0, GXT_SHAPE_EMPTY_ROWS, GXT_NONNEG_VALUES) ;
            for (int q = 0 ; q < 8 ; q++)
            {
                const gxt_metric *mt = gxt_metric_named (some_metrics [q]) ;
                for (int t = 0 ; t < 2 ; t++)
                {
                    GrB_Matrix X, Xt, Y, Yt ;
                    gxt_format fa = (which != 1) ? (gxt_format) f : GXT_FMT_SPARSE ;
                    gxt_format fb = (which != 0) ? (gxt_format) f : GXT_FMT_SPARSE ;
                    gxt_convert (&X, A0, fa, GrB_FP64) ;
                    gxt_convert (&Xt, A0, fa, GrB_FP64) ;
                    gxt_convert (&Y, B0, fb, GrB_FP64) ;
                    gxt_convert (&Yt, B0, fb, GrB_FP64) ;
                    char ctx [128] ;
                    snprintf (ctx, sizeof (ctx), "A %s, B %s", gxt_format_name (fa), gxt_format_name (fb)) ;
                    check_pair (mt, types [t], X, Xt, Y, Yt, ctx) ;
                    GrB_Matrix_free (&X) ; GrB_Matrix_free (&Xt) ;
                    GrB_Matrix_free (&Y) ; GrB_Matrix_free (&Yt) ;
                }
            }
            GrB_Matrix_free (&A0) ; GrB_Matrix_free (&B0) ;
        }
    }
}

static void every_storage_format_with_a_dense_row_and_k1 (void **state)
{
    GXT_START ( ) ;
    gxt_shape shapes [3] = { GXT_SHAPE_DENSE_ROW, GXT_SHAPE_K1, GXT_SHAPE_POWERLAW } ;
    for (int f = 0 ; f < GXT_NFORMATS ; f++)
    {
        for (int q = 0 ; q < 3 ; q++)
        {
            GrB_Matrix A0, B0, X, Xt, Y, Yt ;
            gxt_pair (&A0, &B0, shapes [q], GXT_NONNEG_VALUES) ;
            gxt_convert (&X, A0, (gxt_format) f, GrB_FP64) ;
            gxt_convert (&Xt, A0, (gxt_format) f, GrB_FP64) ;
            gxt_convert (&Y, B0, (gxt_format) f, GrB_FP64) ;
            gxt_convert (&Yt, B0, (gxt_format) f, GrB_FP64) ;
            char ctx [128] ;
            snprintf (ctx, sizeof (ctx), "A and B %s, shape %s", gxt_format_name ((gxt_format) f), gxt_shape_name (shapes [q])) ;
            check_pair (gxt_metric_named ("MANHATTAN"), GrB_FP64, X, Xt, Y, Yt, ctx) ;
            GrB_Matrix_free (&X) ; GrB_Matrix_free (&Y) ;
            gxt_convert (&X, A0, (gxt_format) f, GrB_FP64) ;
            gxt_convert (&Y, B0, (gxt_format) f, GrB_FP64) ;
            check_pair (gxt_metric_named ("EUCLIDEAN"), GrB_FP32, X, Xt, Y, Yt, ctx) ;
            GrB_Matrix_free (&A0) ; GrB_Matrix_free (&B0) ;
            GrB_Matrix_free (&X) ; GrB_Matrix_free (&Xt) ;
            GrB_Matrix_free (&Y) ; GrB_Matrix_free (&Yt) ;
        }
    }
}

static void run_types (GrB_Type ta, GrB_Type tb)
{
    GrB_Type types [2] = { GrB_FP32, GrB_FP64 } ;
    bool sa = (ta == GrB_INT8 || ta == GrB_INT16 || ta == GrB_INT32 || ta == GrB_INT64 ||
               ta == GrB_FP32 || ta == GrB_FP64) ;
    bool sb = (tb == GrB_INT8 || tb == GrB_INT16 || tb == GrB_INT32 || tb == GrB_INT64 ||
               tb == GrB_FP32 || tb == GrB_FP64) ;
    for (int i = 0 ; i < gxt_nmetrics ; i++)
    {
        const gxt_metric *mt = &gxt_metrics [i] ;
        bool nonneg = (mt->flags & GXT_NONNEG) != 0 ;
        gxt_values va = (sa && sb && !nonneg) ? GXT_INTEGERS : GXT_NATURALS ;
        GrB_Matrix A0, B0, X, Xt, Y, Yt ;
        gxt_pair (&A0, &B0, (i % 2) ? GXT_SHAPE_RANDOM : GXT_SHAPE_EMPTY_ROWS, va) ;
        gxt_convert (&X, A0, GXT_FMT_SPARSE, ta) ;
        gxt_convert (&Xt, A0, GXT_FMT_SPARSE, ta) ;
        gxt_convert (&Y, B0, GXT_FMT_SPARSE, tb) ;
        gxt_convert (&Yt, B0, GXT_FMT_SPARSE, tb) ;
        for (int t = 0 ; t < 2 ; t++)
        {
            char ctx [128] ;
            snprintf (ctx, sizeof (ctx), "A %s, B %s", gxt_type_name (ta), gxt_type_name (tb)) ;
            check_pair (mt, types [t], X, Xt, Y, Yt, ctx) ;
        }
        GrB_Matrix_free (&A0) ; GrB_Matrix_free (&B0) ;
        GrB_Matrix_free (&X) ; GrB_Matrix_free (&Xt) ;
        GrB_Matrix_free (&Y) ; GrB_Matrix_free (&Yt) ;
    }
}

static void every_builtin_type_is_typecast_like_graphblas (void **state)
{
    GXT_START ( ) ;
    for (int i = 0 ; i < gxt_nbuiltin_types ; i++)
        run_types (gxt_builtin_types [i], gxt_builtin_types [i]) ;
}

static void a_and_b_of_different_types_are_each_typecast (void **state)
{
    GXT_START ( ) ;
    run_types (GrB_INT8, GrB_FP32) ;
    run_types (GrB_BOOL, GrB_UINT16) ;
    run_types (GrB_FP64, GrB_INT64) ;
    run_types (GrB_UINT8, GrB_FP64) ;
}

static void complex_inputs_are_typecast_like_graphblas (void **state)
{
    GXT_START ( ) ;
    // GraphBLAS typecasts complex to real by dropping the imaginary part
    run_types (GxB_FC64, GxB_FC64) ;
    run_types (GxB_FC32, GrB_FP64) ;
}

static void stored_zeros_give_the_same_distances_as_missing_entries (void **state)
{
    GXT_START ( ) ;
    GrB_Type types [2] = { GrB_FP32, GrB_FP64 } ;
    for (int i = 0 ; i < gxt_nmetrics ; i++)
    {
        const gxt_metric *mt = &gxt_metrics [i] ;
        gxt_values v = (mt->flags & GXT_NONNEG) ? GXT_NONNEG_VALUES : GXT_MIXED ;
        GrB_Matrix A, B, A2, B2 ;
        gxt_pair (&A, &B, GXT_SHAPE_EXPLICIT_ZEROS, v) ;
        GrB_Index m, n, k, nz1, nz2 ;
        GXT_OK (GrB_Matrix_nrows (&m, A)) ;
        GXT_OK (GrB_Matrix_nrows (&n, B)) ;
        GXT_OK (GrB_Matrix_ncols (&k, A)) ;
        // the same matrices without their stored zeros
        GXT_OK (GrB_Matrix_new (&A2, GrB_FP64, m, k)) ;
        GXT_OK (GrB_Matrix_new (&B2, GrB_FP64, n, k)) ;
        GXT_OK (GrB_Matrix_select_FP64 (A2, NULL, NULL, GrB_VALUENE_FP64, A, 0, NULL)) ;
        GXT_OK (GrB_Matrix_select_FP64 (B2, NULL, NULL, GrB_VALUENE_FP64, B, 0, NULL)) ;
        GXT_OK (GrB_Matrix_nvals (&nz1, A)) ;
        GXT_OK (GrB_Matrix_nvals (&nz2, A2)) ;
        for (int t = 0 ; t < 2 ; t++)
        {
            GrB_Semiring s = gxt_semiring (mt, types [t]) ;
            GrB_Matrix C1 = NULL ;
            GXT_OK (gxt_distance (&C1, types [t], s, A, B, NULL)) ;
            // against the reference of the matrices without stored zeros
            gxt_check_metric (C1, mt, types [t], A2, B2, "stored zeros vs none") ;
            gxt_check_metric (C1, mt, types [t], A, B, "stored zeros") ;
            GrB_Matrix_free (&C1) ;
            gxt_semiring_free (mt, &s) ;
        }
        GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&A2) ; GrB_Matrix_free (&B2) ;
    }
}

static void a_and_b_may_be_the_same_object (void **state)
{
    GXT_START ( ) ;
    GrB_Type types [2] = { GrB_FP32, GrB_FP64 } ;
    for (int i = 0 ; i < gxt_nmetrics ; i++)
    {
        const gxt_metric *mt = &gxt_metrics [i] ;
        gxt_values v = (mt->flags & GXT_NONNEG) ? GXT_NONNEG_VALUES : GXT_MIXED ;
        GrB_Matrix A, B, At ;
        gxt_pair (&A, &B, GXT_SHAPE_EMPTY_ROWS, v) ;
        GXT_OK (GrB_Matrix_dup (&At, A)) ;
        check_pair (mt, types [i % 2], A, At, A, At, "A = B, same object") ;
        GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&At) ;
    }
}

static void c_of_any_format_receives_every_entry (void **state)
{
    GXT_START ( ) ;
    int controls [4] = { GxB_HYPERSPARSE, GxB_SPARSE, GxB_BITMAP, GxB_FULL } ;
    for (int c = 0 ; c < 4 ; c++)
    {
        for (int bycol = 0 ; bycol <= 1 ; bycol++)
        {
            GrB_Matrix A, B, C ;
            gxt_pair (&A, &B, GXT_SHAPE_RANDOM, GXT_MIXED) ;
            gxt_new_result (&C, GrB_FP64, A, B) ;
            if (bycol) GXT_OK (GxB_Matrix_Option_set (C, GxB_FORMAT, GxB_BY_COL)) ;
            GXT_OK (GxB_Matrix_Option_set (C, GxB_SPARSITY_CONTROL, controls [c])) ;
            GXT_OK (GrB_Matrix_setElement_FP64 (C, 5, 0, 0)) ;    // pending work in C
            GXT_OK (GxB_mxm_distance (C, NULL, NULL, GxB_DIST_CANBERRA_FP64, A, B, NULL)) ;
            char ctx [64] ;
            snprintf (ctx, sizeof (ctx), "C sparsity control %d, by %s", controls [c], bycol ? "col" : "row") ;
            gxt_check_metric (C, gxt_metric_named ("CANBERRA"), GrB_FP64, A, B, ctx) ;
            GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&C) ;
        }
    }
}

static void inputs_are_unchanged_after_a_failed_call_in_every_format (void **state)
{
    GXT_START ( ) ;
    for (int f = 0 ; f < GXT_NFORMATS ; f++)
    {
        GrB_Matrix A0, B0, X, Xt, Y, Yt, Cbad, C ;
        gxt_pair (&A0, &B0, GXT_SHAPE_RANDOM, GXT_MIXED) ;   // mixed signs
        gxt_convert (&X, A0, (gxt_format) f, GrB_FP64) ;
        gxt_convert (&Xt, A0, (gxt_format) f, GrB_FP64) ;
        gxt_convert (&Y, B0, (gxt_format) f, GrB_FP64) ;
        gxt_convert (&Yt, B0, (gxt_format) f, GrB_FP64) ;
        GrB_Index m, n ;
        GXT_OK (GrB_Matrix_nrows (&m, A0)) ;
        GXT_OK (GrB_Matrix_nrows (&n, B0)) ;
        char w [128] ;
        gxt_snapshot s ;
        // a domain error found late: negative entries for HELLINGER (iso
        // matrices hold 1.5 everywhere: no negative entry, the call succeeds)
        GXT_OK (GrB_Matrix_new (&C, GrB_FP64, m, n)) ;
        GrB_Info info = GxB_mxm_distance (C, NULL, NULL, GxB_DIST_HELLINGER_FP64, X, Y, NULL) ;
        GrB_Info expected = (f == GXT_FMT_ISO) ? GrB_SUCCESS : GrB_INVALID_VALUE ;
        if (info != expected)
            GXT_FAIL ("HELLINGER on mixed-sign %s inputs returned %s, expected %s", gxt_format_name ((gxt_format) f),
                gxt_info_name (info), gxt_info_name (expected)) ;
        snprintf (w, sizeof (w), "A (%s) after a failed HELLINGER", gxt_format_name ((gxt_format) f)) ;
        s = gxt_snap (Xt) ; gxt_snap_check (&s, X, w) ;
        snprintf (w, sizeof (w), "B (%s) after a failed HELLINGER", gxt_format_name ((gxt_format) f)) ;
        s = gxt_snap (Yt) ; gxt_snap_check (&s, Y, w) ;
        GrB_Matrix_free (&X) ; GrB_Matrix_free (&Y) ;
        // a dimension error: C of the wrong size
        gxt_convert (&X, A0, (gxt_format) f, GrB_FP64) ;
        gxt_convert (&Y, B0, (gxt_format) f, GrB_FP64) ;
        GXT_OK (GrB_Matrix_new (&Cbad, GrB_FP64, m + 1, n)) ;
        GXT_EXPECT (GrB_DIMENSION_MISMATCH, GxB_mxm_distance (Cbad, NULL, NULL, GxB_DIST_EUCLIDEAN_FP64, X, Y, NULL)) ;
        snprintf (w, sizeof (w), "A (%s) after a dimension mismatch", gxt_format_name ((gxt_format) f)) ;
        s = gxt_snap (Xt) ; gxt_snap_check (&s, X, w) ;
        snprintf (w, sizeof (w), "B (%s) after a dimension mismatch", gxt_format_name ((gxt_format) f)) ;
        s = gxt_snap (Yt) ; gxt_snap_check (&s, Y, w) ;
        GrB_Matrix_free (&A0) ; GrB_Matrix_free (&B0) ;
        GrB_Matrix_free (&X) ; GrB_Matrix_free (&Xt) ; GrB_Matrix_free (&Y) ; GrB_Matrix_free (&Yt) ;
        GrB_Matrix_free (&Cbad) ; GrB_Matrix_free (&C) ;
    }
}

static void masked_call_leaves_a_mask_of_every_format_unchanged (void **state)
{
    GXT_START ( ) ;
    for (int f = 0 ; f < GXT_NFORMATS ; f++)
    {
        GrB_Matrix A, B, M0, Mx, Mt, C ;
        gxt_pair (&A, &B, GXT_SHAPE_RANDOM, GXT_MIXED) ;
        gxt_result_mask (&M0, A, B, 0.3) ;
        gxt_convert (&Mx, M0, (gxt_format) f, GrB_BOOL) ;
        gxt_convert (&Mt, M0, (gxt_format) f, GrB_BOOL) ;
        gxt_new_result (&C, GrB_FP64, A, B) ;
        GXT_OK (GxB_mxm_distance (C, Mx, NULL, GxB_DIST_MANHATTAN_FP64, A, B, NULL)) ;
        char w [64] ;
        snprintf (w, sizeof (w), "Mask (%s)", gxt_format_name ((gxt_format) f)) ;
        gxt_snapshot s = gxt_snap (Mt) ;
        gxt_snap_check (&s, Mx, w) ;
        GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&M0) ;
        GrB_Matrix_free (&Mx) ; GrB_Matrix_free (&Mt) ; GrB_Matrix_free (&C) ;
    }
}

int main (void)
{
    const struct CMUnitTest tests [] =
    {
        cmocka_unit_test (every_storage_format_gives_the_reference_result_and_is_unchanged),
        cmocka_unit_test (every_storage_format_with_a_dense_row_and_k1),
        cmocka_unit_test (every_builtin_type_is_typecast_like_graphblas),
        cmocka_unit_test (a_and_b_of_different_types_are_each_typecast),
        cmocka_unit_test (complex_inputs_are_typecast_like_graphblas),
        cmocka_unit_test (stored_zeros_give_the_same_distances_as_missing_entries),
        cmocka_unit_test (a_and_b_may_be_the_same_object),
        cmocka_unit_test (c_of_any_format_receives_every_entry),
        cmocka_unit_test (inputs_are_unchanged_after_a_failed_call_in_every_format),
        cmocka_unit_test (masked_call_leaves_a_mask_of_every_format_unchanged),
    } ;
    return gxt_main ("inputs", tests, sizeof (tests) / sizeof (tests [0])) ;
}
