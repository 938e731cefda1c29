// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// tests/test_mask_accum.c: GxB_mxm_distance follows the rules of GrB_mxm
//------------------------------------------------------------------------------

// C<Mask> = accum (C, A (+).(x) B') must follow GrB_mxm's rules exactly.
// The expected C is built from the reference: T = the reference's full
// distance matrix, typecast to the semiring's type, then
// GrB_Matrix_apply (Cref, Mask, accum, identity, T, desc) -- the same
// mask / accum / replace / typecast rules, applied by SuiteSparse.  Checked:
// structural and valued masks, complemented masks, GrB_REPLACE, accum
// GrB_PLUS_FP64, C of another type (FP64 into FP32, FP32 into FP64, INT64 by
// typecast), GrB_INP0 / GrB_INP1 = GrB_TRAN, masks of every storage format
// and of a valued FP64 type, an empty mask.  Entries of C outside the mask
// must come back exactly as they were.  A, B and Mask come back bit for bit.

#include "test_common.h"

typedef struct
{
    const char *what ;
    bool mask ;                 // use a mask
    gxt_format mask_format ;
    GrB_Type mask_type ;        // NULL: BOOL
    double mask_density ;       // 0: an empty mask
    bool structural, complement, replace ;
    bool accum ;                // GrB_PLUS_FP64
    GrB_Type ctype ;            // NULL: the semiring's type
    bool tran0, tran1 ;
    gxt_shape shape ;
}
mcase ;

static const char *metrics [4] = { "EUCLIDEAN", "MANHATTAN", "CHEBYSHEV", "COSINE" } ;

// run one case for the metrics given (NULL: the four above)
static void run_case_on (const mcase *mc, const gxt_metric **list, int nlist)
{
    GrB_Type stypes [2] = { GrB_FP32, GrB_FP64 } ;
    for (int q = 0 ; q < nlist ; q++)
    {
        const gxt_metric *mt = list ? list [q] : gxt_metric_named (metrics [q]) ;
        // COSINE of rows with no common column is 1, exactly on an integer:
        // truncation to an integer C would turn a last-bit difference into 1
        if (mc->ctype != NULL && mc->ctype != GrB_FP32 && mc->ctype != GrB_FP64 &&
            (mt->flags & GXT_UNIT)) continue ;
        for (int t = 0 ; t < 2 ; t++)
        {
            GrB_Type stype = stypes [t] ;
            GrB_Type ctype = mc->ctype ? mc->ctype : stype ;
            GrB_Matrix A, B, M = NULL, C0, Cgot, Cref, D, T, At = NULL, Bt = NULL ;
            gxt_pair (&A, &B, mc->shape, (mt->flags & GXT_NONNEG) ? GXT_NONNEG_VALUES : GXT_MIXED) ;
            GrB_Index m, n, k ;
            GXT_OK (GrB_Matrix_nrows (&m, A)) ;
            GXT_OK (GrB_Matrix_nrows (&n, B)) ;
            GXT_OK (GrB_Matrix_ncols (&k, A)) ;
            if (mc->mask)
            {
                GrB_Matrix M0 ;
                gxt_mask (&M0, m, n, mc->mask_density) ;
                gxt_convert (&M, M0, mc->mask_format, mc->mask_type ? mc->mask_type : GrB_BOOL) ;
                GrB_Matrix_free (&M0) ;
            }
            // C starts with a random sparse pattern of values 1..9
            gxt_spec cs = { 0 } ;
            cs.m = m ; cs.k = n ; cs.density = 0.4 ; cs.dense_row = -1 ; cs.values = GXT_NATURALS ;
            GrB_Matrix C00 ;
            gxt_random (&C00, &cs) ;
            GXT_OK (GrB_Matrix_new (&C0, ctype, m, n)) ;
            GXT_OK (GrB_Matrix_assign (C0, NULL, NULL, C00, GrB_ALL, m, GrB_ALL, n, NULL)) ;
            GrB_Matrix_free (&C00) ;
            GXT_OK (GrB_Matrix_dup (&Cgot, C0)) ;
            GXT_OK (GrB_Matrix_dup (&Cref, C0)) ;

            // the expected result, by SuiteSparse's own mask/accum rules
            GXT_OK (GXO_metric (&D, mt->name, mt->p, stype, A, B)) ;
            GXT_OK (GrB_Matrix_new (&T, stype, m, n)) ;
            GXT_OK (GrB_Matrix_assign (T, NULL, NULL, D, GrB_ALL, m, GrB_ALL, n, NULL)) ;
            GrB_Descriptor dref = gxt_desc (mc->structural, mc->complement, mc->replace, false, false) ;
            GrB_BinaryOp accum = mc->accum ? GrB_PLUS_FP64 : NULL ;
            GXT_OK (GrB_Matrix_apply (Cref, M, accum,
                stype == GrB_FP32 ? GrB_IDENTITY_FP32 : GrB_IDENTITY_FP64, T, dref)) ;

            // the call under test
            GrB_Matrix Aarg = A, Barg = B ;
            if (mc->tran0)
            {
                GXT_OK (GrB_Matrix_new (&At, GrB_FP64, k, m)) ;
                GXT_OK (GrB_transpose (At, NULL, NULL, A, NULL)) ;
                Aarg = At ;
            }
            if (mc->tran1)
            {
                GXT_OK (GrB_Matrix_new (&Bt, GrB_FP64, k, n)) ;
                GXT_OK (GrB_transpose (Bt, NULL, NULL, B, NULL)) ;
                Barg = Bt ;
            }
            GrB_Descriptor dlib = gxt_desc (mc->structural, mc->complement, mc->replace, mc->tran0, mc->tran1) ;
            gxt_snapshot sa = gxt_snap (Aarg), sb = gxt_snap (Barg), sm = M ? gxt_snap (M) : NULL ;
            GrB_Semiring s = gxt_semiring (mt, stype) ;
            GXT_OK (GxB_mxm_distance (Cgot, M, accum, s, Aarg, Barg, dlib)) ;

            char ctx [256] ;
            snprintf (ctx, sizeof (ctx), "%s: %s p=%g, semiring %s, C %s, %lux%lu vs %lux%lu",
                mc->what, mt->name, mt->p, gxt_type_name (stype), gxt_type_name (ctype),
                (unsigned long) m, (unsigned long) k, (unsigned long) n, (unsigned long) k) ;
            bool integer = !(ctype == GrB_FP32 || ctype == GrB_FP64) ;
            double rtol = integer ? 0 : (stype == GrB_FP32 || ctype == GrB_FP32) ? 1e-5 : 1e-12 ;
            gxt_check_same (Cgot, Cref, rtol, (mt->flags & GXT_UNIT) ? 1.0 : 0.0, ctx) ;
            gxt_snap_check (&sa, Aarg, "A") ;
            gxt_snap_check (&sb, Barg, "B") ;
            if (M) gxt_snap_check (&sm, M, "Mask") ;

            gxt_semiring_free (mt, &s) ;
            GrB_Descriptor_free (&dref) ; GrB_Descriptor_free (&dlib) ;
            GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&M) ;
            GrB_Matrix_free (&At) ; GrB_Matrix_free (&Bt) ;
            GrB_Matrix_free (&C0) ; GrB_Matrix_free (&Cgot) ; GrB_Matrix_free (&Cref) ;
            GrB_Matrix_free (&D) ; GrB_Matrix_free (&T) ;
        }
    }
}

static void run_case (const mcase *mc) { run_case_on (mc, NULL, 4) ; }

#define MASKED(what_, ...) \
    { mcase mc = { .what = what_, .mask = true, .mask_format = GXT_FMT_SPARSE, \
        .mask_density = 0.3, .shape = GXT_SHAPE_RANDOM, __VA_ARGS__ } ; run_case (&mc) ; }
#define UNMASKED(what_, ...) \
    { mcase mc = { .what = what_, .mask = false, .shape = GXT_SHAPE_RANDOM, __VA_ARGS__ } ; run_case (&mc) ; }

static void no_mask_no_accum_replaces_all_of_c (void **state)
{
    GXT_START ( ) ;
    UNMASKED ("no mask", .accum = false) ;
    UNMASKED ("no mask, empty rows", .shape = GXT_SHAPE_EMPTY_ROWS) ;
}

static void structural_mask_writes_only_masked_entries (void **state)
{
    GXT_START ( ) ;
    MASKED ("structural mask", .structural = true) ;
    MASKED ("structural mask, empty rows", .structural = true, .shape = GXT_SHAPE_EMPTY_ROWS) ;
    MASKED ("structural mask, dense mask", .structural = true, .mask_density = 1.0) ;
}

static void valued_mask_ignores_entries_stored_as_false (void **state)
{
    GXT_START ( ) ;
    MASKED ("valued mask") ;
    MASKED ("valued mask, power-law", .shape = GXT_SHAPE_POWERLAW) ;
    MASKED ("valued FP64 mask", .mask_type = GrB_FP64) ;
    MASKED ("valued INT32 mask", .mask_type = GrB_INT32, .mask_density = 0.7) ;
}

static void complemented_mask_writes_only_outside_the_mask (void **state)
{
    GXT_START ( ) ;
    MASKED ("complemented valued mask", .complement = true) ;
    MASKED ("complemented structural mask", .complement = true, .structural = true) ;
    MASKED ("complemented mask, replace", .complement = true, .replace = true) ;
}

static void replace_deletes_entries_of_c_outside_the_mask (void **state)
{
    GXT_START ( ) ;
    MASKED ("replace, valued mask", .replace = true) ;
    MASKED ("replace, structural mask", .replace = true, .structural = true) ;
    UNMASKED ("replace, no mask", .replace = true) ;
}

static void accum_plus_adds_the_distance_to_existing_entries (void **state)
{
    GXT_START ( ) ;
    UNMASKED ("accum PLUS_FP64", .accum = true) ;
    MASKED ("accum PLUS_FP64, valued mask", .accum = true) ;
    MASKED ("accum PLUS_FP64, structural mask, replace", .accum = true, .structural = true, .replace = true) ;
    MASKED ("accum PLUS_FP64, complemented mask", .accum = true, .complement = true) ;
}

static void result_is_typecast_into_c_of_another_type (void **state)
{
    GXT_START ( ) ;
    UNMASKED ("C FP32", .ctype = GrB_FP32) ;
    UNMASKED ("C FP64", .ctype = GrB_FP64) ;
    UNMASKED ("C INT64 (typecast)", .ctype = GrB_INT64) ;
    MASKED ("C INT64, masked, accum", .ctype = GrB_INT64, .accum = true) ;
    MASKED ("C FP32, masked, accum", .ctype = GrB_FP32, .accum = true) ;
}

static void inp0_and_inp1_tran_transpose_a_and_b_before_use (void **state)
{
    GXT_START ( ) ;
    UNMASKED ("INP0 = TRAN", .tran0 = true) ;
    UNMASKED ("INP1 = TRAN", .tran1 = true) ;
    UNMASKED ("INP0 = INP1 = TRAN", .tran0 = true, .tran1 = true) ;
    MASKED ("INP0 = INP1 = TRAN, structural mask, accum", .tran0 = true, .tran1 = true,
        .structural = true, .accum = true) ;
}

static void mask_of_every_storage_format_gives_the_same_result (void **state)
{
    GXT_START ( ) ;
    gxt_format f [6] = { GXT_FMT_SPARSE, GXT_FMT_HYPER, GXT_FMT_BITMAP, GXT_FMT_FULL,
        GXT_FMT_BYCOL, GXT_FMT_JUMBLED } ;
    for (int i = 0 ; i < 6 ; i++)
    {
        char what [64] ;
        snprintf (what, sizeof (what), "valued mask, %s", gxt_format_name (f [i])) ;
        MASKED (what, .mask_format = f [i]) ;
        snprintf (what, sizeof (what), "structural mask, %s", gxt_format_name (f [i])) ;
        MASKED (what, .mask_format = f [i], .structural = true, .mask_density = 0.1) ;
    }
}

static void empty_mask_leaves_c_alone_and_with_replace_clears_it (void **state)
{
    GXT_START ( ) ;
    MASKED ("empty mask", .mask_density = 0) ;
    MASKED ("empty mask, replace", .mask_density = 0, .replace = true) ;
    MASKED ("empty mask, complemented (= no mask)", .mask_density = 0, .complement = true) ;
}

static void masked_calls_handle_degenerate_shapes (void **state)
{
    GXT_START ( ) ;
    gxt_shape sh [6] = { GXT_SHAPE_M0, GXT_SHAPE_N0, GXT_SHAPE_M1, GXT_SHAPE_N1, GXT_SHAPE_K1, GXT_SHAPE_DENSE_ROW } ;
    for (int i = 0 ; i < 6 ; i++)
    {
        char what [64] ;
        snprintf (what, sizeof (what), "valued mask, shape %s", gxt_shape_name (sh [i])) ;
        MASKED (what, .shape = sh [i], .mask_density = 0.5) ;
        snprintf (what, sizeof (what), "accum, shape %s", gxt_shape_name (sh [i])) ;
        UNMASKED (what, .shape = sh [i], .accum = true) ;
    }
}

// a masked product is computed pair by pair (the sampled case): every metric
static void every_metric_masked_matches_the_reference (void **state)
{
    GXT_START ( ) ;
    const gxt_metric *all [32] ;
    int nall = 0 ;
    for (int i = 0 ; i < gxt_nmetrics ; i++)
        if (!(gxt_metrics [i].flags & GXT_SIGNED)) all [nall++] = &gxt_metrics [i] ;
    mcase a = { .what = "valued mask", .mask = true, .mask_format = GXT_FMT_SPARSE,
        .mask_density = 0.3, .shape = GXT_SHAPE_RANDOM } ;
    run_case_on (&a, all, nall) ;
    mcase b = { .what = "structural mask, empty rows", .mask = true, .mask_format = GXT_FMT_SPARSE,
        .mask_density = 0.5, .structural = true, .shape = GXT_SHAPE_EMPTY_ROWS } ;
    run_case_on (&b, all, nall) ;
    mcase c = { .what = "valued mask, power-law", .mask = true, .mask_format = GXT_FMT_BITMAP,
        .mask_density = 0.2, .shape = GXT_SHAPE_POWERLAW } ;
    run_case_on (&c, all, nall) ;
    mcase d = { .what = "valued mask, k = 1", .mask = true, .mask_format = GXT_FMT_SPARSE,
        .mask_density = 0.5, .shape = GXT_SHAPE_K1 } ;
    run_case_on (&d, all, nall) ;
}

// DOT and KL_DIVERGENCE may cancel: masked, compared with their scale
static void dot_and_kl_masked_match_the_reference (void **state)
{
    GXT_START ( ) ;
    const char *names [2] = { "DOT", "KL_DIVERGENCE" } ;
    GrB_Type stypes [2] = { GrB_FP32, GrB_FP64 } ;
    for (int q = 0 ; q < 2 ; q++)
    {
        const gxt_metric *mt = gxt_metric_named (names [q]) ;
        for (int t = 0 ; t < 2 ; t++)
        {
            GrB_Matrix A, B, M, C, D, S ;
            gxt_pair (&A, &B, GXT_SHAPE_RANDOM, (mt->flags & GXT_NONNEG) ? GXT_NONNEG_VALUES : GXT_MIXED) ;
            gxt_result_mask (&M, A, B, 0.4) ;
            gxt_new_result (&C, GrB_FP64, A, B) ;
            GXT_OK (GxB_mxm_distance (C, M, NULL, t ? *mt->fp64 : *mt->fp32, A, B, NULL)) ;
            // C holds exactly the entries where M is true
            GrB_Matrix P ;
            gxt_new_result (&P, GrB_BOOL, A, B) ;
            GXT_OK (GrB_Matrix_select_BOOL (P, NULL, NULL, GrB_VALUEEQ_BOOL, M, true, NULL)) ;
            GrB_Index nc, np ;
            GXT_OK (GrB_Matrix_nvals (&nc, C)) ;
            GXT_OK (GrB_Matrix_nvals (&np, P)) ;
            if (nc != np) GXT_FAIL ("%s masked: C has %lu entries, the mask %lu true ones", names [q],
                (unsigned long) nc, (unsigned long) np) ;
            GXT_OK (GXO_metric (&D, mt->name, 0, stypes [t], A, B)) ;
            GXT_OK (GXO_scale (&S, mt->name, stypes [t], A, B)) ;
            int64_t nbad, wi, wj ; double wg, wr ;
            GXT_OK (GXO_compare (C, D, S, gxt_rtol (stypes [t]), &nbad, &wi, &wj, &wg, &wr)) ;
            if (nbad) GXT_FAIL ("%s %s masked: %ld entries wrong; worst (%ld,%ld) got %.17g ref %.17g",
                names [q], gxt_type_name (stypes [t]), (long) nbad, (long) wi, (long) wj, wg, wr) ;
            GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&M) ; GrB_Matrix_free (&C) ;
            GrB_Matrix_free (&D) ; GrB_Matrix_free (&S) ; GrB_Matrix_free (&P) ;
        }
    }
}

int main (void)
{
    const struct CMUnitTest tests [] =
    {
        cmocka_unit_test (no_mask_no_accum_replaces_all_of_c),
        cmocka_unit_test (structural_mask_writes_only_masked_entries),
        cmocka_unit_test (valued_mask_ignores_entries_stored_as_false),
        cmocka_unit_test (complemented_mask_writes_only_outside_the_mask),
        cmocka_unit_test (replace_deletes_entries_of_c_outside_the_mask),
        cmocka_unit_test (accum_plus_adds_the_distance_to_existing_entries),
        cmocka_unit_test (result_is_typecast_into_c_of_another_type),
        cmocka_unit_test (inp0_and_inp1_tran_transpose_a_and_b_before_use),
        cmocka_unit_test (mask_of_every_storage_format_gives_the_same_result),
        cmocka_unit_test (empty_mask_leaves_c_alone_and_with_replace_clears_it),
        cmocka_unit_test (masked_calls_handle_degenerate_shapes),
        cmocka_unit_test (every_metric_masked_matches_the_reference),
        cmocka_unit_test (dot_and_kl_masked_match_the_reference),
    } ;
    return gxt_main ("mask_accum", tests, sizeof (tests) / sizeof (tests [0])) ;
}
