// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// tests/test_errors.c: every bad input gets its exact GrB_Info
//------------------------------------------------------------------------------

// Each bad input returns exactly the GrB_Info the spec names, leaves a
// non-empty message in GxB_Distance_error, and leaves A, B and Mask bit for
// bit as they were (and C too, for the errors GraphBLAS reports before any
// work: null, uninitialized, dimension, domain, aliasing).  Also the setting
// calls: Minkowski's p, NAMM construction, the backend, init twice, and NULL
// outputs.

#include "test_common.h"

static GrB_Matrix A, B, C, M ;            // A 6x5, B 4x5, C 6x4, M 6x4
static GrB_Index m = 6, n = 4, k = 5 ;

// zeroed memory standing for an object that was never initialized
static _Alignas (64) unsigned char blank [8192] ;

static int setup (void **state)
{
    gxt_reseed ("setup") ;
    gxt_spec s = { 0 } ;
    s.m = m ; s.k = k ; s.density = 0.5 ; s.dense_row = -1 ; s.values = GXT_NONNEG_VALUES ;
    gxt_random (&A, &s) ;
    s.m = n ;
    gxt_random (&B, &s) ;
    gxt_mask (&M, m, n, 0.5) ;
    if (GrB_Matrix_new (&C, GrB_FP64, m, n) != GrB_SUCCESS) return -1 ;
    if (GrB_Matrix_assign_FP64 (C, NULL, NULL, 5, GrB_ALL, m, GrB_ALL, n, NULL)) return -1 ;
    memset (blank, 0, sizeof (blank)) ;
    return 0 ;
}

static int teardown (void **state)
{
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&C) ; GrB_Matrix_free (&M) ;
    return 0 ;
}

static bool is_blank (const void *p) { return p == (const void *) blank ; }

// call GxB_mxm_distance and expect `expected`; every real matrix argument
// (and C if c_kept) must come back bit for bit
static void expect_call (GrB_Info expected, GrB_Matrix c, GrB_Matrix mask,
    GrB_BinaryOp accum, GrB_Semiring s, GrB_Matrix a, GrB_Matrix b,
    GrB_Descriptor d, bool c_kept, const char *what)
{
    GrB_Matrix args [4] = { a, b, mask, c_kept ? c : NULL } ;
    const char *names [4] = { "A", "B", "Mask", "C" } ;
    gxt_snapshot snaps [4] = { NULL, NULL, NULL, NULL } ;
    for (int i = 0 ; i < 4 ; i++)
    {
        if (args [i] == NULL || is_blank (args [i])) continue ;
        bool seen = false ;
        for (int j = 0 ; j < i ; j++) seen = seen || (args [j] == args [i]) ;
        if (!seen) snaps [i] = gxt_snap (args [i]) ;
    }
    GrB_Info info = GxB_mxm_distance (c, mask, accum, s, a, b, d) ;
    const char *msg = gxt_message ( ) ;
    if (info != expected)
        GXT_FAIL ("%s: GxB_mxm_distance returned %s (%d), expected %s (%d); message \"%s\"",
            what, gxt_info_name (info), (int) info, gxt_info_name (expected), (int) expected, msg) ;
    if (msg [0] == '\0')
        GXT_FAIL ("%s: %s returned but GxB_Distance_error is empty", what, gxt_info_name (info)) ;
    for (int i = 0 ; i < 4 ; i++)
    {
        if (snaps [i] == NULL) continue ;
        char w [160] ;
        snprintf (w, sizeof (w), "%s after %s", names [i], what) ;
        gxt_snap_check (&snaps [i], args [i], w) ;
    }
}

#define EXPECT_CALL(expected, c, mask, accum, s, a, b, d, c_kept) \
    expect_call (expected, c, mask, accum, s, a, b, d, c_kept, #expected ": " #c ", " #mask ", " #accum ", " #s ", " #a ", " #b ", " #d)

//------------------------------------------------------------------------------
// GxB_mxm_distance
//------------------------------------------------------------------------------

static void null_c_a_b_or_semiring_is_a_null_pointer (void **state)
{
    GXT_START ( ) ;
    GrB_Semiring s = GxB_DIST_EUCLIDEAN_FP64 ;
    EXPECT_CALL (GrB_NULL_POINTER, NULL, NULL, NULL, s, A, B, NULL, true) ;
    EXPECT_CALL (GrB_NULL_POINTER, C, NULL, NULL, s, NULL, B, NULL, true) ;
    EXPECT_CALL (GrB_NULL_POINTER, C, NULL, NULL, s, A, NULL, NULL, true) ;
    EXPECT_CALL (GrB_NULL_POINTER, C, NULL, NULL, NULL, A, B, NULL, true) ;
    EXPECT_CALL (GrB_NULL_POINTER, C, M, NULL, NULL, A, B, NULL, true) ;
}

static void uninitialized_objects_are_uninitialized_object (void **state)
{
    GXT_START ( ) ;
    GrB_Matrix fake = (GrB_Matrix) blank ;
    GrB_Semiring s = GxB_DIST_MANHATTAN_FP64 ;
    EXPECT_CALL (GrB_UNINITIALIZED_OBJECT, fake, NULL, NULL, s, A, B, NULL, true) ;
    EXPECT_CALL (GrB_UNINITIALIZED_OBJECT, C, NULL, NULL, s, fake, B, NULL, true) ;
    EXPECT_CALL (GrB_UNINITIALIZED_OBJECT, C, NULL, NULL, s, A, fake, NULL, true) ;
    EXPECT_CALL (GrB_UNINITIALIZED_OBJECT, C, fake, NULL, s, A, B, NULL, true) ;
    EXPECT_CALL (GrB_UNINITIALIZED_OBJECT, C, NULL, NULL, (GrB_Semiring) blank, A, B, NULL, true) ;
    EXPECT_CALL (GrB_UNINITIALIZED_OBJECT, C, NULL, NULL, s, A, B, (GrB_Descriptor) blank, true) ;
    EXPECT_CALL (GrB_UNINITIALIZED_OBJECT, C, NULL, (GrB_BinaryOp) blank, s, A, B, NULL, true) ;
}

static void ncols_of_a_and_b_differ_is_a_dimension_mismatch (void **state)
{
    GXT_START ( ) ;
    GrB_Matrix B6 ;
    GXT_OK (GrB_Matrix_new (&B6, GrB_FP64, n, k + 1)) ;
    GXT_OK (GrB_Matrix_setElement_FP64 (B6, 1.0, 0, k)) ;
    EXPECT_CALL (GrB_DIMENSION_MISMATCH, C, NULL, NULL, GxB_DIST_EUCLIDEAN_FP64, A, B6, NULL, true) ;
    EXPECT_CALL (GrB_DIMENSION_MISMATCH, C, NULL, NULL, GxB_DIST_MANHATTAN_FP32, A, B6, NULL, true) ;
    EXPECT_CALL (GrB_DIMENSION_MISMATCH, C, NULL, NULL, GxB_PLUS_MINUS_FP64, A, B6, GxB_DESC_UNION, true) ;
    GrB_Matrix_free (&B6) ;
}

static void c_of_the_wrong_size_is_a_dimension_mismatch (void **state)
{
    GXT_START ( ) ;
    GrB_Matrix C1, C2 ;
    GXT_OK (GrB_Matrix_new (&C1, GrB_FP64, m + 1, n)) ;
    GXT_OK (GrB_Matrix_new (&C2, GrB_FP64, m, n - 1)) ;
    gxt_poison (C1) ; gxt_poison (C2) ;
    EXPECT_CALL (GrB_DIMENSION_MISMATCH, C1, NULL, NULL, GxB_DIST_EUCLIDEAN_FP64, A, B, NULL, true) ;
    EXPECT_CALL (GrB_DIMENSION_MISMATCH, C2, NULL, NULL, GxB_DIST_CHEBYSHEV_FP32, A, B, NULL, true) ;
    // C is n-by-m: right size only if the call wrongly ignored which is which
    GrB_Matrix Ct ;
    GXT_OK (GrB_Matrix_new (&Ct, GrB_FP64, n, m)) ;
    EXPECT_CALL (GrB_DIMENSION_MISMATCH, Ct, NULL, NULL, GxB_DIST_COSINE_FP64, A, B, NULL, true) ;
    GrB_Matrix_free (&C1) ; GrB_Matrix_free (&C2) ; GrB_Matrix_free (&Ct) ;
}

static void mask_of_the_wrong_size_is_a_dimension_mismatch (void **state)
{
    GXT_START ( ) ;
    GrB_Matrix M1, M2 ;
    gxt_mask (&M1, m, n + 1, 0.5) ;
    gxt_mask (&M2, m - 1, n, 0.5) ;
    EXPECT_CALL (GrB_DIMENSION_MISMATCH, C, M1, NULL, GxB_DIST_EUCLIDEAN_FP64, A, B, NULL, true) ;
    EXPECT_CALL (GrB_DIMENSION_MISMATCH, C, M2, NULL, GxB_DIST_JACCARD_FP64, A, B, GrB_DESC_S, true) ;
    GrB_Matrix_free (&M1) ; GrB_Matrix_free (&M2) ;
}

static void transposed_input_of_the_wrong_shape_is_a_dimension_mismatch (void **state)
{
    GXT_START ( ) ;
    // INP0 = TRAN asks for A as k-by-m; A is m-by-k (m != k)
    GrB_Descriptor t0 = gxt_desc (false, false, false, true, false) ;
    GrB_Descriptor t1 = gxt_desc (false, false, false, false, true) ;
    EXPECT_CALL (GrB_DIMENSION_MISMATCH, C, NULL, NULL, GxB_DIST_EUCLIDEAN_FP64, A, B, t0, true) ;
    EXPECT_CALL (GrB_DIMENSION_MISMATCH, C, NULL, NULL, GxB_DIST_EUCLIDEAN_FP64, A, B, t1, true) ;
    GrB_Descriptor_free (&t0) ; GrB_Descriptor_free (&t1) ;
}

static void user_defined_type_for_a_b_c_or_semiring_is_a_domain_mismatch (void **state)
{
    GXT_START ( ) ;
    GrB_Type T = NULL ;
    GXT_OK (GrB_Type_new (&T, 2 * sizeof (double))) ;
    double v [2] = { 1, 2 } ;
    GrB_Matrix AU, BU, CU ;
    GXT_OK (GrB_Matrix_new (&AU, T, m, k)) ;
    GXT_OK (GrB_Matrix_new (&BU, T, n, k)) ;
    GXT_OK (GrB_Matrix_new (&CU, T, m, n)) ;
    GXT_OK (GrB_Matrix_setElement_UDT (AU, v, 0, 0)) ;
    GXT_OK (GrB_Matrix_setElement_UDT (BU, v, 1, 2)) ;
    GXT_OK (GrB_Matrix_setElement_UDT (CU, v, 1, 1)) ;
    GXT_OK (GrB_Matrix_wait (AU, GrB_MATERIALIZE)) ;
    GXT_OK (GrB_Matrix_wait (BU, GrB_MATERIALIZE)) ;
    GXT_OK (GrB_Matrix_wait (CU, GrB_MATERIALIZE)) ;
    GrB_Semiring s [3] = { GxB_DIST_EUCLIDEAN_FP64, GxB_DIST_CHEBYSHEV_FP32, GxB_DIST_COSINE_FP64 } ;
    for (int i = 0 ; i < 3 ; i++)
    {
        EXPECT_CALL (GrB_DOMAIN_MISMATCH, C, NULL, NULL, s [i], AU, B, NULL, true) ;
        EXPECT_CALL (GrB_DOMAIN_MISMATCH, C, NULL, NULL, s [i], A, BU, NULL, true) ;
        EXPECT_CALL (GrB_DOMAIN_MISMATCH, CU, NULL, NULL, s [i], A, B, NULL, true) ;
    }
    // a mask of a user-defined type, used by value
    GrB_Matrix MU ;
    GXT_OK (GrB_Matrix_new (&MU, T, m, n)) ;
    GXT_OK (GrB_Matrix_setElement_UDT (MU, v, 2, 3)) ;
    GXT_OK (GrB_Matrix_wait (MU, GrB_MATERIALIZE)) ;
    EXPECT_CALL (GrB_DOMAIN_MISMATCH, C, MU, NULL, GxB_DIST_EUCLIDEAN_FP64, A, B, NULL, true) ;
    GrB_Matrix_free (&MU) ;
    GrB_Matrix_free (&AU) ; GrB_Matrix_free (&BU) ; GrB_Matrix_free (&CU) ;
    GrB_Type_free (&T) ;
}

static void udt_first (void *z, const void *x, const void *y) { memcpy (z, x, 2 * sizeof (double)) ; }

static void semiring_or_accum_over_a_user_defined_type_is_a_domain_mismatch (void **state)
{
    GXT_START ( ) ;
    GrB_Type T = NULL ;
    GXT_OK (GrB_Type_new (&T, 2 * sizeof (double))) ;
    GrB_BinaryOp first = NULL ;
    GXT_OK (GxB_BinaryOp_new (&first, udt_first, T, T, T, "udt_first", NULL)) ;
    double zero [2] = { 0, 0 } ;
    GrB_Monoid mon = NULL ;
    GXT_OK (GrB_Monoid_new_UDT (&mon, first, zero)) ;
    GrB_Semiring su = NULL ;
    GXT_OK (GrB_Semiring_new (&su, mon, first)) ;
    // FP64 A and B cannot be typecast to the user type
    EXPECT_CALL (GrB_DOMAIN_MISMATCH, C, NULL, NULL, su, A, B, NULL, true) ;
    EXPECT_CALL (GrB_DOMAIN_MISMATCH, C, NULL, NULL, su, A, B, GxB_DESC_UNION, true) ;
    // accum over the user type cannot take the FP64 result
    EXPECT_CALL (GrB_DOMAIN_MISMATCH, C, NULL, first, GxB_DIST_EUCLIDEAN_FP64, A, B, NULL, true) ;
    GrB_Semiring_free (&su) ;
    GrB_Monoid_free (&mon) ;
    GrB_BinaryOp_free (&first) ;
    GrB_Type_free (&T) ;
}

static void negative_entry_for_hellinger_jensen_shannon_kl_is_invalid_value (void **state)
{
    GXT_START ( ) ;
    const char *names [3] = { "HELLINGER", "JENSEN_SHANNON", "KL_DIVERGENCE" } ;
    GrB_Type types [2] = { GrB_FP32, GrB_FP64 } ;
    GrB_Type intypes [2] = { GrB_FP64, GrB_INT32 } ;
    for (int q = 0 ; q < 3 ; q++)
    {
        const gxt_metric *mt = gxt_metric_named (names [q]) ;
        for (int t = 0 ; t < 2 ; t++)
        {
            for (int it = 0 ; it < 2 ; it++)
            {
                for (int exact = 0 ; exact <= 1 ; exact++)
                {
                    GXT_OK (GxB_Distance_set_exact_union (exact)) ;
                    // one negative entry, in A or in B, in the last row
                    GrB_Matrix An, Bn ;
                    gxt_convert (&An, A, GXT_FMT_SPARSE, intypes [it]) ;
                    gxt_convert (&Bn, B, GXT_FMT_SPARSE, intypes [it]) ;
                    GXT_OK (GrB_Matrix_setElement_FP64 (An, -2, m - 1, 1)) ;
                    GXT_OK (GrB_Matrix_setElement_FP64 (Bn, -3, n - 1, 3)) ;
                    GXT_OK (GrB_Matrix_wait (An, GrB_MATERIALIZE)) ;
                    GXT_OK (GrB_Matrix_wait (Bn, GrB_MATERIALIZE)) ;
                    GrB_Matrix Cx ;
                    GXT_OK (GrB_Matrix_new (&Cx, types [t], m, n)) ;
                    char what [128] ;
                    snprintf (what, sizeof (what), "%s %s, %s input, negative in A%s", names [q],
                        gxt_type_name (types [t]), gxt_type_name (intypes [it]), exact ? ", exact union" : "") ;
                    expect_call (GrB_INVALID_VALUE, Cx, NULL, NULL, t ? *mt->fp64 : *mt->fp32,
                        An, B, NULL, false, what) ;
                    snprintf (what, sizeof (what), "%s %s, %s input, negative in B%s", names [q],
                        gxt_type_name (types [t]), gxt_type_name (intypes [it]), exact ? ", exact union" : "") ;
                    expect_call (GrB_INVALID_VALUE, Cx, NULL, NULL, t ? *mt->fp64 : *mt->fp32,
                        A, Bn, NULL, false, what) ;
                    snprintf (what, sizeof (what), "%s %s, negative in A, with a mask", names [q], gxt_type_name (types [t])) ;
                    // the negative entry's row is in the mask's rows
                    GrB_Matrix Mfull ;
                    gxt_mask (&Mfull, m, n, 1.0) ;
                    expect_call (GrB_INVALID_VALUE, Cx, Mfull, NULL, t ? *mt->fp64 : *mt->fp32,
                        An, B, GrB_DESC_S, false, what) ;
                    GrB_Matrix_free (&Mfull) ;
                    GrB_Matrix_free (&An) ; GrB_Matrix_free (&Bn) ; GrB_Matrix_free (&Cx) ;
                }
            }
        }
    }
    GXT_OK (GxB_Distance_set_exact_union (false)) ;
}

// the same check on a long operand: one bad entry, at its start, middle or
// end, is found and named
static void a_bad_entry_in_a_long_operand_is_found (void **state)
{
    GXT_START ( ) ;
    const GrB_Index rows = 3, cols = 50000 ;
    const GrB_Index at [3] = { 0, 25000, cols - 1 } ;
    for (int t = 0 ; t < 2 ; t++)
    for (int w = 0 ; w < 3 ; w++)
    for (int neg = 0 ; neg < 2 ; neg++)
    {
        GrB_Type type = t ? GrB_FP64 : GrB_FP32 ;
        GrB_Matrix L, C ;
        GXT_OK (GrB_Matrix_new (&L, type, rows, cols)) ;
        GXT_OK (GrB_Matrix_assign_FP64 (L, NULL, NULL, 0.5, GrB_ALL, rows,
            GrB_ALL, cols, NULL)) ;
        GXT_OK (GrB_Matrix_setElement_FP64 (L, neg ? -1.0 : NAN, rows - 1,
            at [w])) ;
        GXT_OK (GrB_Matrix_wait (L, GrB_MATERIALIZE)) ;
        GXT_OK (GrB_Matrix_new (&C, type, rows, rows)) ;
        gxt_poison (C) ;
        GrB_Semiring s = neg ? (t ? GxB_DIST_JENSEN_SHANNON_FP64 : GxB_DIST_JENSEN_SHANNON_FP32)
                             : (t ? GxB_DIST_MANHATTAN_FP64 : GxB_DIST_MANHATTAN_FP32) ;
        char what [96], entry [48] ;
        snprintf (what, sizeof (what), "%s, %s at column %d of %d",
            gxt_type_name (type), neg ? "-1 under JENSEN_SHANNON" : "NaN",
            (int) at [w], (int) cols) ;
        expect_call (GrB_INVALID_VALUE, C, NULL, NULL, s, L, L, NULL, true, what) ;
        snprintf (entry, sizeof (entry), "(%d,%d)", (int) rows - 1, (int) at [w]) ;
        if (strstr (gxt_message ( ), entry) == NULL)
            GXT_FAIL ("%s: message \"%s\" does not name %s", what, gxt_message ( ), entry) ;
        GrB_Matrix_free (&L) ; GrB_Matrix_free (&C) ;
    }
}

// docs/metrics.md: a predefined metric takes finite values only; NaN, +inf
// and -inf (also an FP64 value past FLT_MAX, cast into an FP32 metric's
// type) are refused, by name, with A, B and C as they were
static void nan_or_infinite_entry_for_a_metric_is_invalid_value (void **state)
{
    GXT_START ( ) ;
    const double bad [4] = { NAN, INFINITY, -INFINITY, 1e300 } ;
    GrB_Type types [2] = { GrB_FP32, GrB_FP64 } ;
    GrB_Matrix Mfull ;
    gxt_mask (&Mfull, m, n, 1.0) ;
    for (int q = 0 ; q < gxt_nmetrics ; q++)
    {
        const gxt_metric *mt = &gxt_metrics [q] ;
        for (int t = 0 ; t < 2 ; t++)
        for (int b = 0 ; b < 4 ; b++)
        {
            // 1e300 is finite in FP64
            if (b == 3 && t == 1) continue ;
            GrB_Semiring s = gxt_semiring (mt, types [t]) ;
            GrB_Matrix Ab, Bb, Cx ;
            gxt_convert (&Ab, A, GXT_FMT_SPARSE, GrB_FP64) ;
            gxt_convert (&Bb, B, GXT_FMT_SPARSE, GrB_FP64) ;
            GXT_OK (GrB_Matrix_setElement_FP64 (Ab, bad [b], m - 1, 1)) ;
            GXT_OK (GrB_Matrix_setElement_FP64 (Bb, bad [b], n - 1, 3)) ;
            GXT_OK (GrB_Matrix_wait (Ab, GrB_MATERIALIZE)) ;
            GXT_OK (GrB_Matrix_wait (Bb, GrB_MATERIALIZE)) ;
            GXT_OK (GrB_Matrix_new (&Cx, types [t], m, n)) ;
            gxt_poison (Cx) ;
            char what [128] ;
            snprintf (what, sizeof (what), "%s %s (p %g), %g in A", mt->name,
                gxt_type_name (types [t]), mt->p, bad [b]) ;
            expect_call (GrB_INVALID_VALUE, Cx, NULL, NULL, s, Ab, B, NULL, true, what) ;
            char entry [32] ;
            snprintf (entry, sizeof (entry), "A(%d,1)", (int) m - 1) ;
            if (strstr (gxt_message ( ), "finite") == NULL || strstr (gxt_message ( ), entry) == NULL)
                GXT_FAIL ("%s: message \"%s\" names neither the rule nor %s", what, gxt_message ( ), entry) ;
            snprintf (what, sizeof (what), "%s %s (p %g), %g in B", mt->name,
                gxt_type_name (types [t]), mt->p, bad [b]) ;
            expect_call (GrB_INVALID_VALUE, Cx, NULL, NULL, s, A, Bb, NULL, true, what) ;
            snprintf (what, sizeof (what), "%s %s (p %g), %g in A, with a mask", mt->name,
                gxt_type_name (types [t]), mt->p, bad [b]) ;
            expect_call (GrB_INVALID_VALUE, Cx, Mfull, NULL, s, Ab, B, GrB_DESC_S, true, what) ;
            GrB_Matrix_free (&Ab) ; GrB_Matrix_free (&Bb) ; GrB_Matrix_free (&Cx) ;
            gxt_semiring_free (mt, &s) ;
        }
    }
    // a union semiring of the user's keeps GraphBLAS's rules for them
    GrB_Matrix An, Cu ;
    gxt_convert (&An, A, GXT_FMT_SPARSE, GrB_FP64) ;
    GXT_OK (GrB_Matrix_setElement_FP64 (An, NAN, 0, 0)) ;
    GXT_OK (GrB_Matrix_new (&Cu, GrB_FP64, m, n)) ;
    GXT_OK (GxB_mxm_distance (Cu, NULL, NULL, GxB_PLUS_MINUS_FP64, An, B, GxB_DESC_UNION)) ;
    double x = 0 ;
    GXT_OK (GrB_Matrix_extractElement_FP64 (&x, Cu, 0, 0)) ;
    if (!isnan (x)) GXT_FAIL ("PLUS_MINUS union with a NaN in row 0: C(0,0) = %g, not NaN", x) ;
    GXT_OK (GrB_Matrix_extractElement_FP64 (&x, Cu, 1, 0)) ;
    if (isnan (x)) GXT_FAIL ("PLUS_MINUS union: C(1,0) is NaN, row 1 has none") ;
    GrB_Matrix_free (&An) ; GrB_Matrix_free (&Cu) ; GrB_Matrix_free (&Mfull) ;
}

static void c_aliased_with_a_b_or_mask_is_invalid_value (void **state)
{
    GXT_START ( ) ;
    // square shapes so that only the aliasing is wrong: A k-by-k, B k-by-k
    gxt_spec s = { 0 } ;
    s.m = k ; s.k = k ; s.density = 0.5 ; s.dense_row = -1 ; s.values = GXT_NONNEG_VALUES ;
    GrB_Matrix Aq, Bq, Mq ;
    gxt_random (&Aq, &s) ;
    gxt_random (&Bq, &s) ;
    gxt_mask (&Mq, k, k, 0.5) ;
    GrB_Matrix Mf ;
    gxt_convert (&Mf, Mq, GXT_FMT_SPARSE, GrB_FP64) ;
    EXPECT_CALL (GrB_INVALID_VALUE, Aq, NULL, NULL, GxB_DIST_EUCLIDEAN_FP64, Aq, Bq, NULL, true) ;
    EXPECT_CALL (GrB_INVALID_VALUE, Bq, NULL, NULL, GxB_DIST_EUCLIDEAN_FP64, Aq, Bq, NULL, true) ;
    EXPECT_CALL (GrB_INVALID_VALUE, Aq, NULL, NULL, GxB_DIST_MANHATTAN_FP64, Aq, Aq, NULL, true) ;
    EXPECT_CALL (GrB_INVALID_VALUE, Bq, NULL, NULL, GxB_PLUS_MINUS_FP64, Aq, Bq, GxB_DESC_UNION, true) ;
    EXPECT_CALL (GrB_INVALID_VALUE, Mf, Mf, NULL, GxB_DIST_EUCLIDEAN_FP64, Aq, Bq, NULL, true) ;
    GrB_Matrix_free (&Aq) ; GrB_Matrix_free (&Bq) ; GrB_Matrix_free (&Mq) ; GrB_Matrix_free (&Mf) ;
}

//------------------------------------------------------------------------------
// constructors and settings
//------------------------------------------------------------------------------

// (p = +inf is Chebyshev: test_extreme_values)
static void minkowski_p_must_be_positive_and_not_nan (void **state)
{
    GXT_START ( ) ;
    double bad [5] = { 0, -1, -0.5, -0.0, NAN } ;
    for (int i = 0 ; i < 5 ; i++)
    {
        GrB_Semiring s = NULL ;
        GXT_EXPECT (GrB_INVALID_VALUE, GxB_Semiring_new_minkowski (&s, bad [i], GrB_FP64)) ;
        assert_null (s) ;
        GXT_EXPECT (GrB_INVALID_VALUE, GxB_Semiring_new_minkowski (&s, bad [i], GrB_FP32)) ;
        assert_null (s) ;
    }
    GrB_Semiring s = NULL ;
    GXT_EXPECT (GrB_INVALID_VALUE, GxB_Semiring_new_minkowski (&s, -INFINITY, GrB_FP64)) ;
    assert_null (s) ;
}

static void minkowski_of_a_non_floating_type_is_a_domain_mismatch (void **state)
{
    GXT_START ( ) ;
    GrB_Type bad [4] = { GrB_INT32, GrB_UINT8, GrB_BOOL, GrB_INT64 } ;
    for (int i = 0 ; i < 4 ; i++)
    {
        GrB_Semiring s = NULL ;
        GXT_EXPECT (GrB_DOMAIN_MISMATCH, GxB_Semiring_new_minkowski (&s, 2.0, bad [i])) ;
        assert_null (s) ;
    }
    GrB_Semiring s = NULL ;
    GXT_EXPECT (GrB_NULL_POINTER, GxB_Semiring_new_minkowski (NULL, 2.0, GrB_FP64)) ;
    GXT_EXPECT (GrB_NULL_POINTER, GxB_Semiring_new_minkowski (&s, 2.0, NULL)) ;
}

static void namm_of_a_null_operator_is_a_null_pointer (void **state)
{
    GXT_START ( ) ;
    GxB_NAMM namm = NULL ;
    GXT_EXPECT (GrB_NULL_POINTER, GxB_NAMM_new (&namm, NULL, 0)) ;
    assert_null (namm) ;
    GXT_EXPECT (GrB_NULL_POINTER, GxB_NAMM_new (NULL, GrB_MINUS_FP64, 0)) ;
    // like GrB_*_free, freeing NULL (or a NULL object) does nothing
    GXT_OK (GxB_NAMM_free (NULL)) ;
    GXT_OK (GxB_NAMM_new (&namm, GrB_MINUS_FP64, 0)) ;
    GrB_Semiring s = NULL ;
    GXT_EXPECT (GrB_NULL_POINTER, GxB_Semiring_new_NAMM (&s, NULL, namm)) ;
    GXT_EXPECT (GrB_NULL_POINTER, GxB_Semiring_new_NAMM (&s, GrB_PLUS_MONOID_FP64, NULL)) ;
    GXT_EXPECT (GrB_NULL_POINTER, GxB_Semiring_new_NAMM (NULL, GrB_PLUS_MONOID_FP64, namm)) ;
    // add's type must be the operator's output type
    GXT_EXPECT (GrB_DOMAIN_MISMATCH, GxB_Semiring_new_NAMM (&s, GrB_PLUS_MONOID_INT32, namm)) ;
    assert_null (s) ;
    GXT_OK (GxB_NAMM_free (&namm)) ;
}

static void descriptor_mark_of_null_is_a_null_pointer (void **state)
{
    GXT_START ( ) ;
    bool on ;
    GXT_EXPECT (GrB_NULL_POINTER, GxB_Desc_set_annihilator_free (NULL, true)) ;
    GXT_EXPECT (GrB_NULL_POINTER, GxB_Desc_get_annihilator_free (NULL, &on)) ;
    GXT_EXPECT (GrB_NULL_POINTER, GxB_Desc_get_annihilator_free (GxB_DESC_UNION, NULL)) ;
}

static void getters_with_null_outputs_are_null_pointers (void **state)
{
    GXT_START ( ) ;
    GXT_EXPECT (GrB_NULL_POINTER, GxB_Distance_get_backend (NULL)) ;
    GXT_EXPECT (GrB_NULL_POINTER, GxB_Distance_active_backend (NULL)) ;
    GXT_EXPECT (GrB_NULL_POINTER, GxB_Distance_get_verify (NULL)) ;
    GXT_EXPECT (GrB_NULL_POINTER, GxB_Distance_get_exact_union (NULL)) ;
    GrB_Info info = GxB_Distance_error (NULL) ;
    if (info != GrB_NULL_POINTER)
        GXT_FAIL ("GxB_Distance_error (NULL) returned %s, expected GrB_NULL_POINTER", gxt_info_name (info)) ;
}

static void unknown_backend_is_invalid_value_and_changes_nothing (void **state)
{
    GXT_START ( ) ;
    GxB_Backend before, after ;
    GXT_OK (GxB_Distance_get_backend (&before)) ;
    GXT_EXPECT (GrB_INVALID_VALUE, GxB_Distance_set_backend ((GxB_Backend) 7)) ;
    GXT_EXPECT (GrB_INVALID_VALUE, GxB_Distance_set_backend ((GxB_Backend) -1)) ;
    GXT_OK (GxB_Distance_get_backend (&after)) ;
    assert_int_equal (before, after) ;
}

static void gpu_backend_without_a_gpu_is_not_implemented (void **state)
{
    GXT_START ( ) ;
    GxB_Backend orig, b, act ;
    GXT_OK (GxB_Distance_get_backend (&orig)) ;
    GXT_OK (GxB_Distance_set_backend (GxB_BACKEND_CPU)) ;
    GXT_OK (GxB_Distance_active_backend (&act)) ;
    assert_int_equal (act, GxB_BACKEND_CPU) ;
    GXT_OK (GxB_Distance_set_backend (GxB_BACKEND_AUTO)) ;
    GXT_OK (GxB_Distance_active_backend (&act)) ;
    if (act == GxB_BACKEND_GPU)
    {
        // a usable GPU: GPU can be asked for
        GXT_OK (GxB_Distance_set_backend (GxB_BACKEND_GPU)) ;
        GXT_OK (GxB_Distance_get_backend (&b)) ;
        assert_int_equal (b, GxB_BACKEND_GPU) ;
    }
    else
    {
        assert_int_equal (act, GxB_BACKEND_CPU) ;
        GXT_EXPECT (GrB_NOT_IMPLEMENTED, GxB_Distance_set_backend (GxB_BACKEND_GPU)) ;
        GXT_OK (GxB_Distance_get_backend (&b)) ;
        assert_int_equal (b, GxB_BACKEND_AUTO) ;
    }
    GXT_OK (GxB_Distance_set_backend (orig)) ;
}

static void init_twice_is_invalid_value_and_keeps_the_library_working (void **state)
{
    GXT_START ( ) ;
    GrB_Semiring before = GxB_DIST_EUCLIDEAN_FP64 ;
    GXT_EXPECT (GrB_INVALID_VALUE, GxB_Distance_init ( )) ;
    assert_ptr_equal (before, GxB_DIST_EUCLIDEAN_FP64) ;
    GrB_Matrix Cx = NULL ;
    GXT_OK (gxt_distance (&Cx, GrB_FP64, GxB_DIST_EUCLIDEAN_FP64, A, B, NULL)) ;
    gxt_check_metric (Cx, gxt_metric_named ("EUCLIDEAN"), GrB_FP64, A, B, "after init twice") ;
    GrB_Matrix_free (&Cx) ;
}

static void a_failure_then_a_success_still_computes_correctly (void **state)
{
    GXT_START ( ) ;
    // an error on one call must not poison the next
    GrB_Matrix Cx = NULL ;
    EXPECT_CALL (GrB_NULL_POINTER, C, NULL, NULL, NULL, A, B, NULL, true) ;
    GXT_OK (gxt_distance (&Cx, GrB_FP32, GxB_DIST_MANHATTAN_FP32, A, B, NULL)) ;
    gxt_check_metric (Cx, gxt_metric_named ("MANHATTAN"), GrB_FP32, A, B, "after an error") ;
    GrB_Matrix_free (&Cx) ;
}

int main (void)
{
    const struct CMUnitTest tests [] =
    {
        cmocka_unit_test (null_c_a_b_or_semiring_is_a_null_pointer),
        cmocka_unit_test (uninitialized_objects_are_uninitialized_object),
        cmocka_unit_test (ncols_of_a_and_b_differ_is_a_dimension_mismatch),
        cmocka_unit_test (c_of_the_wrong_size_is_a_dimension_mismatch),
        cmocka_unit_test (mask_of_the_wrong_size_is_a_dimension_mismatch),
        cmocka_unit_test (transposed_input_of_the_wrong_shape_is_a_dimension_mismatch),
        cmocka_unit_test (user_defined_type_for_a_b_c_or_semiring_is_a_domain_mismatch),
        cmocka_unit_test (semiring_or_accum_over_a_user_defined_type_is_a_domain_mismatch),
        cmocka_unit_test (negative_entry_for_hellinger_jensen_shannon_kl_is_invalid_value),
        cmocka_unit_test (nan_or_infinite_entry_for_a_metric_is_invalid_value),
        cmocka_unit_test (a_bad_entry_in_a_long_operand_is_found),
        cmocka_unit_test (c_aliased_with_a_b_or_mask_is_invalid_value),
        cmocka_unit_test (minkowski_p_must_be_positive_and_not_nan),
        cmocka_unit_test (minkowski_of_a_non_floating_type_is_a_domain_mismatch),
        cmocka_unit_test (namm_of_a_null_operator_is_a_null_pointer),
        cmocka_unit_test (descriptor_mark_of_null_is_a_null_pointer),
        cmocka_unit_test (getters_with_null_outputs_are_null_pointers),
        cmocka_unit_test (unknown_backend_is_invalid_value_and_changes_nothing),
        cmocka_unit_test (gpu_backend_without_a_gpu_is_not_implemented),
        cmocka_unit_test (init_twice_is_invalid_value_and_keeps_the_library_working),
        cmocka_unit_test (a_failure_then_a_success_still_computes_correctly),
    } ;
    gxt_setup = setup ;
    gxt_teardown = teardown ;
    return gxt_main ("errors", tests, sizeof (tests) / sizeof (tests [0])) ;
}
