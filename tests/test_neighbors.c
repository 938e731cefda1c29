// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// tests/test_neighbors.c: GxB_kNN and GxB_radius_graph against brute force
//------------------------------------------------------------------------------

// Two references for every neighborhood:
//   - exact: the full distance matrix of GxB_mxm_distance (the same
//     arithmetic), each row stably sorted: GxB_kNN must pick the same
//     columns with the same bits, whatever the tiling (tiny tiles are forced
//     so that tiling and merging run here), and the radius graph must be
//     exactly the entries within eps;
//   - independent: verify mode, which checks sampled rows against the
//     SuiteSparse reference's brute force (gxd_verify_neighbors.c), turned
//     on for every call of this file.
// Plus the rules: k = 0, k > n, empty rows, self-queries, masks (structural,
// valued, complemented), DOT largest first, ties to the smaller column,
// GrB_REPLACE, NaN eps, inputs unchanged.

#include "test_common.h"
#include "gxd_test_hooks.h"

// one kNN or radius call checked against the stable sort of the full product,
// with tiles of 3 x 5, of 1 x 1, and sized by memory (one tile here) from
// the tiles_from-th on
static void check_tiles (GrB_Semiring s, GrB_Type type, GrB_Matrix A,
    GrB_Matrix B, GrB_Matrix Mask, bool structural, bool comp,
    bool exclude_self, uint64_t k, double eps, bool largest, const char *what,
    int tiles_from)
{
    GrB_Index m, n ;
    GXT_OK (GrB_Matrix_nrows (&m, A)) ;
    GXT_OK (GrB_Matrix_nrows (&n, B)) ;
    GrB_Matrix D, R, C ;
    GXT_OK (GrB_Matrix_new (&D, type, m, n)) ;
    // a mask that is not complemented is a sampled product (its own
    // kernels, its own last bits): the reference computes the same one
    GrB_Descriptor dd = gxt_desc (structural, false, false, false, false) ;
    GXT_OK (GxB_mxm_distance (D, comp ? NULL : Mask, NULL, s, A, B, dd)) ;
    GrB_Descriptor_free (&dd) ;
    gxt_brute_neighbors (&R, D, Mask, structural, comp, exclude_self, k, eps,
        largest) ;
    GrB_Descriptor d = gxt_desc (structural, comp, true, false, false) ;
    if (exclude_self) GXT_OK (GxB_Desc_set_exclude_self (d, true)) ;
    gxt_snapshot sa = gxt_snap (A), sb = gxt_snap (B) ;
    gxt_snapshot sm = Mask ? gxt_snap (Mask) : NULL ;
    for (int tiles = tiles_from ; tiles < 3 ; tiles++)
    {
        if (tiles == 0) GXD_neighbors_set_tiles (3, 5) ;
        if (tiles == 1) GXD_neighbors_set_tiles (1, 1) ;
        if (tiles == 2) GXD_neighbors_set_tiles (0, 0) ;
        GXT_OK (GrB_Matrix_new (&C, type, m, n)) ;
        gxt_poison (C) ;
        GrB_Info info = (k > 0)
            ? GxB_kNN (C, Mask, s, k, A, B, d)
            : GxB_radius_graph (C, Mask, s, eps, A, B, d) ;
        if (info != GrB_SUCCESS)
        {
            GXT_FAIL ("%s (tiles %d): %s: %s", what, tiles, gxt_info_name (info),
                gxt_message ()) ;
        }
        // with a mask, C<Mask,replace> = T: R is already within the mask
        char ctx [256] ;
        snprintf (ctx, sizeof (ctx), "%s, k %llu, eps %g, tiles %d", what,
            (unsigned long long) k, eps, tiles) ;
        gxt_check_bitwise (C, R, ctx) ;
        GrB_Matrix_free (&C) ;
    }
    GXD_neighbors_set_tiles (0, 0) ;
    gxt_snap_check (&sa, A, "A") ;
    gxt_snap_check (&sb, B, "B") ;
    if (sm) gxt_snap_check (&sm, Mask, "Mask") ;
    if (exclude_self) GXT_OK (GxB_Desc_set_exclude_self (d, false)) ;
    GrB_Descriptor_free (&d) ;
    GrB_Matrix_free (&D) ; GrB_Matrix_free (&R) ;
}

// check_tiles with every tiling on the CPU, the one sized by memory on the
// GPU: there a tile's distances may differ from the whole product's in the
// last bits (the fixed-point kernels scale by the columns' maxima of the
// rows at hand), where the CPU computes every pair alone
static void check_one (GrB_Semiring s, GrB_Type type, GrB_Matrix A,
    GrB_Matrix B, GrB_Matrix Mask, bool structural, bool comp,
    bool exclude_self, uint64_t k, double eps, bool largest, const char *what)
{
    GxB_Backend backend = GxB_BACKEND_CPU ;
    GXT_OK (GxB_Distance_active_backend (&backend)) ;
    check_tiles (s, type, A, B, Mask, structural, comp, exclude_self, k, eps,
        largest, what, (backend == GxB_BACKEND_GPU) ? 2 : 0) ;
}

static int verify_on (void **state)
{
    return GxB_Distance_set_verify (true) == GrB_SUCCESS ? 0 : -1 ;
}

//------------------------------------------------------------------------------
// every metric, both types, k below, at and above n
//------------------------------------------------------------------------------

static void every_metric (void **state)
{
    GXT_START () ;
    GrB_Matrix A, B ;
    gxt_pair (&A, &B, GXT_SHAPE_EMPTY_ROWS, GXT_NONNEG_VALUES) ;
    GrB_Index n ;
    GXT_OK (GrB_Matrix_nrows (&n, B)) ;
    for (int q = 0 ; q < gxt_nmetrics ; q++)
    {
        const gxt_metric *mt = &gxt_metrics [q] ;
        for (int t = 0 ; t < 2 ; t++)
        {
            GrB_Type type = t ? GrB_FP64 : GrB_FP32 ;
            GrB_Semiring s = gxt_semiring (mt, type) ;
            bool largest = (strcmp (mt->name, "DOT") == 0) ;
            uint64_t ks [3] = { 1, 4, n + 3 } ;
            for (int kq = 0 ; kq < 3 ; kq++)
            {
                check_one (s, type, A, B, NULL, false, false, false, ks [kq],
                    0, largest, mt->name) ;
            }
            gxt_semiring_free (mt, &s) ;
        }
    }
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ;
}

//------------------------------------------------------------------------------
// ties, self-queries, masks, unions
//------------------------------------------------------------------------------

static void ties_and_self (void **state)
{
    GXT_START () ;
    // small integers: many exactly equal Manhattan distances, so the order
    // among them is the column order or the test fails
    GrB_Matrix A, B ;
    gxt_pair (&A, &B, GXT_SHAPE_RANDOM, GXT_NATURALS) ;
    check_one (GxB_DIST_MANHATTAN_FP64, GrB_FP64, A, B, NULL, false, false,
        false, 5, 0, false, "ties") ;
    // a self-query, with and without the point itself
    for (int ex = 0 ; ex <= 1 ; ex++)
    {
        check_one (GxB_DIST_EUCLIDEAN_FP32, GrB_FP32, A, A, NULL, false, false,
            ex, 3, 0, false, ex ? "self-query, self excluded" : "self-query") ;
        check_one (GxB_DIST_COSINE_FP64, GrB_FP64, A, A, NULL, false, false,
            ex, 0, 0.25, false, ex ? "radius, self excluded" : "radius self") ;
    }
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ;
}

// k above the GPU's filter selection (32): its radix selection on the GPU,
// the heaps on the CPU.  Small integers make many exactly equal distances,
// so the ties at the k-th place are broken by column or the test fails.
// Radius graphs of the same rows: on the GPU, selected on the device too.
static void large_k (void **state)
{
    GXT_START () ;
    gxt_spec spec = { 0 } ;
    spec.m = 8 ; spec.k = 12 ; spec.density = 0.5 ; spec.empty_frac = 0.05 ;
    spec.dense_row = -1 ; spec.values = GXT_NATURALS ;
    GrB_Matrix A, B, S ;
    gxt_random (&A, &spec) ;
    spec.m = 1100 ;
    gxt_random (&B, &spec) ;
    spec.m = 200 ;
    gxt_random (&S, &spec) ;
    uint64_t ks [3] = { 33, 100, 1024 } ;
    for (int q = 0 ; q < 3 ; q++)
    {
        check_one (GxB_DIST_MANHATTAN_FP32, GrB_FP32, A, B, NULL, false, false,
            false, ks [q], 0, false, "large k, Manhattan") ;
        check_one (GxB_DIST_COSINE_FP64, GrB_FP64, A, B, NULL, false, false,
            false, ks [q], 0, false, "large k, cosine") ;
        check_one (GxB_DIST_DOT_FP32, GrB_FP32, A, B, NULL, false, false,
            false, ks [q], 0, true, "large k, dot (largest first)") ;
    }
    // radius graphs over the same rows (on the GPU: selected on the device),
    // with radii that keep some pairs, every pair and none
    double radii [3] = { 15, 1e300, -1 } ;
    for (int q = 0 ; q < 3 ; q++)
    {
        check_one (GxB_DIST_MANHATTAN_FP32, GrB_FP32, A, B, NULL, false, false,
            false, 0, radii [q], false, "radius, Manhattan") ;
    }
    check_one (GxB_DIST_COSINE_FP64, GrB_FP64, A, B, NULL, false, false,
        false, 0, 0.2, false, "radius, cosine") ;
    check_one (GxB_DIST_DOT_FP64, GrB_FP64, A, B, NULL, false, false,
        false, 0, 150, true, "radius, dot (at least eps)") ;
    check_one (GxB_DIST_JENSEN_SHANNON_FP32, GrB_FP32, S, S, NULL, false, false,
        true, 0, 0.3, false, "radius, self excluded") ;
    // a self-query without the point itself, k above and at n - 1
    check_one (GxB_DIST_EUCLIDEAN_FP64, GrB_FP64, S, S, NULL, false, false,
        true, 64, 0, false, "large k, self excluded") ;
    check_one (GxB_DIST_CHEBYSHEV_FP32, GrB_FP32, S, S, NULL, false, false,
        true, 199, 0, false, "large k = n - 1, self excluded") ;
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&S) ;
}

// |x-y| with its definition: on the GPU, compiled, and its kNN selected
// inside the PLUS rewrite
static void absdiff_defined (void *z, const void *x, const void *y)
{
    *(double *) z = fabs (*(const double *) x - *(const double *) y) ;
}
#define ABSDIFF_DEFN "void t_absdiff (double *z, const double *x, " \
    "const double *y) { (*z) = fabs ((*x) - (*y)) ; }"

// rows of distances longer than the GPU filter's rounds (1,024) and its
// list (2,048), and than the compiled rewrite's tiles (4,096 rows of B), in
// the orders that are hard for a running bound: each candidate better than
// the last (increasing values under DOT, largest first; decreasing under
// MAX.MINUS and PLUS.|x-y|, smallest first), every distance equal (column
// order decides), and NaN among them (last).  One column: row i of A holds
// i + 1, row j of B its pattern's value.  DOT and MAX.MINUS select from
// tiles of distances on the GPU, PLUS.|x-y| inside its rewrite.
static void long_rows (void **state)
{
    GXT_START () ;
    const GrB_Index m = 24, n = 5000 ;
    GrB_Matrix A, B ;
    GXT_OK (GrB_Matrix_new (&A, GrB_FP64, m, 1)) ;
    for (GrB_Index i = 0 ; i < m ; i++) GXT_OK (GrB_Matrix_setElement_FP64 (A, i + 1.0, i, 0)) ;
    GxB_NAMM namm ;
    GrB_Semiring maxminus ;
    GXT_OK (GxB_NAMM_new (&namm, GrB_MINUS_FP64, 0)) ;
    GXT_OK (GxB_Semiring_new_NAMM (&maxminus, GrB_MAX_MONOID_FP64, namm)) ;
    GrB_BinaryOp absop ;
    GxB_NAMM absnamm ;
    GrB_Semiring plusabs ;
    GXT_OK (GxB_BinaryOp_new (&absop, absdiff_defined, GrB_FP64, GrB_FP64,
        GrB_FP64, "t_absdiff", ABSDIFF_DEFN)) ;
    GXT_OK (GxB_NAMM_new (&absnamm, absop, 0)) ;
    GXT_OK (GxB_Semiring_new_NAMM (&plusabs, GrB_PLUS_MONOID_FP64, absnamm)) ;
    const char *what [4] = { "increasing", "decreasing", "all equal", "with NaN" } ;
    for (int pat = 0 ; pat < 4 ; pat++)
    {
        GXT_OK (GrB_Matrix_new (&B, GrB_FP64, n, 1)) ;
        for (GrB_Index j = 0 ; j < n ; j++)
        {
            double v = (pat == 0) ? j + 1.0 : (pat == 1) ? (double) (n - j) : (pat == 2) ? 3
                : (j % 11 == 5) ? NAN : (double) ((j * 7919) % 13) ;
            GXT_OK (GrB_Matrix_setElement_FP64 (B, v, j, 0)) ;
        }
        const uint64_t ks [3] = { 1, 10, 32 } ;
        for (int q = 0 ; q < 3 ; q++)
        {
            char ctx [96] ;
            // (a predefined metric refuses NaN: the semirings below take
            // the NaN distances, which come last)
            snprintf (ctx, sizeof (ctx), "long rows %s, DOT", what [pat]) ;
            if (pat < 3) check_tiles (GxB_DIST_DOT_FP32, GrB_FP32, A, B, NULL, false, false,
                q == 1, ks [q], 0, true, ctx, 2) ;
            snprintf (ctx, sizeof (ctx), "long rows %s, MAX.MINUS", what [pat]) ;
            check_tiles (maxminus, GrB_FP64, A, B, NULL, false, false, q == 2,
                ks [q], 0, false, ctx, 2) ;
            snprintf (ctx, sizeof (ctx), "long rows %s, PLUS.|x-y|", what [pat]) ;
            check_tiles (plusabs, GrB_FP64, A, B, NULL, false, false, q == 0,
                ks [q], 0, false, ctx, 2) ;
        }
        GrB_Matrix_free (&B) ;
    }
    GrB_Semiring_free (&maxminus) ;
    GXT_OK (GxB_NAMM_free (&namm)) ;
    GrB_Semiring_free (&plusabs) ;
    GXT_OK (GxB_NAMM_free (&absnamm)) ;
    GrB_BinaryOp_free (&absop) ;
    GrB_Matrix_free (&A) ;
}

static void masks (void **state)
{
    GXT_START () ;
    GrB_Matrix A, B, M ;
    gxt_pair (&A, &B, GXT_SHAPE_RANDOM, GXT_NONNEG_VALUES) ;
    gxt_result_mask (&M, A, B, 0.4) ;
    for (int structural = 0 ; structural <= 1 ; structural++)
    {
        for (int comp = 0 ; comp <= 1 ; comp++)
        {
            check_one (GxB_DIST_JENSEN_SHANNON_FP64, GrB_FP64, A, B, M,
                structural, comp, false, 3, 0, false, "masked kNN") ;
            check_one (GxB_DIST_CHEBYSHEV_FP32, GrB_FP32, A, B, M, structural,
                comp, false, 0, 1.5, false, "masked radius") ;
        }
    }
    // a self-query with a complemented mask and without the point itself
    // (on the CPU the rows go to the selector in runs between the mask's
    // columns)
    GrB_Matrix MB ;
    gxt_result_mask (&MB, B, B, 0.4) ;
    check_one (GxB_DIST_MANHATTAN_FP32, GrB_FP32, B, B, MB, false, true, true,
        4, 0, false, "complemented mask, self excluded") ;
    GrB_Matrix_free (&MB) ;
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&M) ;
}

static double user_absdiff_cubed (double x, double y)
{
    double d = fabs (x - y) ;
    return d * d * d ;
}

static void user_op (void *z, const void *x, const void *y)
{
    *(double *) z = user_absdiff_cubed (*(const double *) x, *(const double *) y) ;
}

static void unions (void **state)
{
    GXT_START () ;
    GrB_Matrix A, B ;
    gxt_pair (&A, &B, GXT_SHAPE_POWERLAW, GXT_MIXED) ;
    GrB_BinaryOp op ;
    GxB_NAMM user, builtin ;
    GrB_Semiring su, sb ;
    gxt_user_namm (&op, &user, &su, user_op, GrB_FP64, GrB_PLUS_MONOID_FP64) ;
    GXT_OK (GxB_NAMM_new (&builtin, GrB_MINUS_FP64, 0)) ;
    GXT_OK (GxB_Semiring_new_NAMM (&sb, GrB_MAX_MONOID_FP64, builtin)) ;
    check_one (su, GrB_FP64, A, B, NULL, false, false, false, 4, 0, false,
        "user NAMM PLUS.|x-y|^3") ;
    check_one (sb, GrB_FP64, A, B, NULL, false, false, false, 2, 0, false,
        "NAMM MAX.MINUS") ;
    check_one (GrB_PLUS_TIMES_SEMIRING_FP64, GrB_FP64, A, B, NULL, false,
        false, false, 3, 0, false, "intersection PLUS_TIMES") ;
    GrB_Semiring_free (&su) ; GrB_Semiring_free (&sb) ;
    GxB_NAMM_free (&user) ; GxB_NAMM_free (&builtin) ; GrB_BinaryOp_free (&op) ;
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ;

    // MIN and MAX of operators a GPU compiles (selected as the distances
    // are made there): identities that are not 0, the rows against
    // themselves with each row excluded, FP32, and dense rows, where f(e,e)
    // joins pairs whose rows miss a column (counted)
    GxB_NAMM minus2, times2, minus32 ;
    GrB_Semiring smin, smax, smax32 ;
    GXT_OK (GxB_NAMM_new (&minus2, GrB_MINUS_FP64, 2)) ;
    GXT_OK (GxB_NAMM_new (&times2, GrB_TIMES_FP64, 2)) ;
    GXT_OK (GxB_NAMM_new (&minus32, GrB_MINUS_FP32, 0.5)) ;
    GXT_OK (GxB_Semiring_new_NAMM (&smin, GrB_MIN_MONOID_FP64, minus2)) ;
    GXT_OK (GxB_Semiring_new_NAMM (&smax, GrB_MAX_MONOID_FP64, times2)) ;
    GXT_OK (GxB_Semiring_new_NAMM (&smax32, GrB_MAX_MONOID_FP32, minus32)) ;
    for (int q = 0 ; q < 2 ; q++)
    {
        gxt_pair (&A, &B, q ? GXT_SHAPE_DENSE_ROW : GXT_SHAPE_POWERLAW,
            GXT_MIXED) ;
        check_one (smin, GrB_FP64, A, A, NULL, false, false, true, 3, 0,
            false, "NAMM MIN.MINUS, identity 2, self excluded") ;
        check_one (smax, GrB_FP64, A, B, NULL, false, false, false, 4, 0,
            false, "NAMM MAX.TIMES, identity 2") ;
        check_one (smax32, GrB_FP32, A, B, NULL, false, false, false, 5, 0,
            false, "NAMM MAX.MINUS FP32, identity 0.5") ;
        GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ;
    }
    GrB_Semiring_free (&smin) ; GrB_Semiring_free (&smax) ;
    GrB_Semiring_free (&smax32) ;
    GxB_NAMM_free (&minus2) ; GxB_NAMM_free (&times2) ;
    GxB_NAMM_free (&minus32) ;
}

// compiled operators for walked_untouched_rows: |x-y| in float, and
// |x-y| + 1 (f(e,e) = 1: k f(e,e) joins every pair)
static void absdiff_float (void *z, const void *x, const void *y)
{
    *(float *) z = fabsf (*(const float *) x - *(const float *) y) ;
}
#define ABSDIFF_FLOAT_DEFN "void t_absdiff_f (float *z, const float *x, " \
    "const float *y) { (*z) = fabsf ((*x) - (*y)) ; }"
static void absdiff_plus_one (void *z, const void *x, const void *y)
{
    *(double *) z = fabs (*(const double *) x - *(const double *) y) + 1 ;
}
#define ABSDIFF_PLUS_ONE_DEFN "void t_absdiff_p1 (double *z, const double *x, " \
    "const double *y) { (*z) = fabs ((*x) - (*y)) + 1 ; }"
static void minus_defined (void *z, const void *x, const void *y)
{
    *(double *) z = *(const double *) x - *(const double *) y ;
}
#define MINUS_DEFN "void t_minus (double *z, const double *x, " \
    "const double *y) { (*z) = (*x) - (*y) ; }"
static void minus_float (void *z, const void *x, const void *y)
{
    *(float *) z = *(const float *) x - *(const float *) y ;
}
#define MINUS_FLOAT_DEFN "void t_minus_f (float *z, const float *x, " \
    "const float *y) { (*z) = (*x) - (*y) ; }"

// a compiled operator under a monoid, for the kNN tests below
typedef struct
{
    GxB_binary_function f ;
    const char *name, *defn ;
    bool fp32 ;
    GrB_Monoid add ;
    const char *add_name ;
} user_knn_op ;

// the operators' first four fields (function, name, definition, FP32)
#define ABSDIFF_F   absdiff_float, "t_absdiff_f", ABSDIFF_FLOAT_DEFN, true
#define ABSDIFF_P1  absdiff_plus_one, "t_absdiff_p1", ABSDIFF_PLUS_ONE_DEFN, false
#define MINUS_D     minus_defined, "t_minus", MINUS_DEFN, false
#define MINUS_F     minus_float, "t_minus_f", MINUS_FLOAT_DEFN, true

// each of ops on A, the first m rows of B (an FP64 matrix, freed), against
// B, in FP32 where the op is: k = 1 (self kept), 10 (self excluded) and 32
// (kept), every tiling; the kNN against the sorted all-pairs result, bit
// for bit
static void knn_of_user_ops (const user_knn_op *ops, int nops,
    GrB_Matrix *Bh, GrB_Index m, const char *shape)
{
    GrB_Matrix B = *Bh, A, B32, A32 ;
    GrB_Index n, k ;
    GXT_OK (GrB_Matrix_wait (B, GrB_MATERIALIZE)) ;
    GXT_OK (GrB_Matrix_nrows (&n, B)) ;
    GXT_OK (GrB_Matrix_ncols (&k, B)) ;
    GrB_Index *first = malloc (m * sizeof (GrB_Index)) ;
    assert_non_null (first) ;
    for (GrB_Index i = 0 ; i < m ; i++) first [i] = i ;
    GXT_OK (GrB_Matrix_new (&A, GrB_FP64, m, k)) ;
    GXT_OK (GrB_Matrix_extract (A, NULL, NULL, B, first, m, GrB_ALL, k, NULL)) ;
    free (first) ;
    GXT_OK (GrB_Matrix_new (&B32, GrB_FP32, n, k)) ;
    GXT_OK (GrB_Matrix_new (&A32, GrB_FP32, m, k)) ;
    GXT_OK (GrB_Matrix_assign (B32, NULL, NULL, B, GrB_ALL, n, GrB_ALL, k, NULL)) ;
    GXT_OK (GrB_Matrix_assign (A32, NULL, NULL, A, GrB_ALL, m, GrB_ALL, k, NULL)) ;
    for (int o = 0 ; o < nops ; o++)
    {
        GrB_Type type = ops [o].fp32 ? GrB_FP32 : GrB_FP64 ;
        GrB_BinaryOp op ;
        GxB_NAMM namm ;
        GrB_Semiring s ;
        GXT_OK (GxB_BinaryOp_new (&op, ops [o].f, type, type, type,
            ops [o].name, ops [o].defn)) ;
        GXT_OK (GxB_NAMM_new (&namm, op, 0)) ;
        GXT_OK (GxB_Semiring_new_NAMM (&s, ops [o].add, namm)) ;
        const uint64_t ks [3] = { 1, 10, 32 } ;
        for (int q = 0 ; q < 3 ; q++)
        {
            char ctx [96] ;
            snprintf (ctx, sizeof (ctx), "%s, %s, %s, self %s", shape,
                ops [o].name, ops [o].add_name, (q == 1) ? "excluded" : "kept") ;
            check_tiles (s, type, ops [o].fp32 ? A32 : A, ops [o].fp32 ? B32 : B,
                NULL, false, false, q == 1, ks [q], 0, false, ctx, 2) ;
        }
        GrB_Semiring_free (&s) ;
        GXT_OK (GxB_NAMM_free (&namm)) ;
        GrB_BinaryOp_free (&op) ;
    }
    GrB_Matrix_free (&A) ; GrB_Matrix_free (Bh) ;
    GrB_Matrix_free (&A32) ; GrB_Matrix_free (&B32) ;
}

// Rows that share no column with most others (a GPU's compiled PLUS
// rewrite walks those by their row term, its MAX and MIN select by their
// first key, and both finalize only the others):
// 9,000 rows of B over 3,000 columns (three of the rewrite's tiles), one
// or two entries each of 1, 2 or 3 (many rows of one row term: ties that
// the column decides) and some empty; A its first 48 rows, itself
// excluded or not.  Under x - y the row terms have either sign (no walk
// under PLUS; under MIN the keys are of either sign), in FP64 and FP32.
static void walked_untouched_rows (void **state)
{
    GXT_START () ;
    const GrB_Index n = 9000, k = 3000, m = 48 ;
    GrB_Matrix B ;
    GXT_OK (GrB_Matrix_new (&B, GrB_FP64, n, k)) ;
    for (GrB_Index j = 0 ; j < n ; j++)
    {
        const int e = (int) (gxt_rand () % 5) ;       // 0: empty
        for (int q = 0 ; q < (e + 1) / 2 ; q++)
        {
            double v = (double) (1 + gxt_rand () % 3) ;
            if (j % 7 == 3) v = -v ;
            GXT_OK (GrB_Matrix_setElement_FP64 (B, v, j, gxt_rand () % k)) ;
        }
    }
    const user_knn_op ops [7] = {
        { ABSDIFF_F, GrB_PLUS_MONOID_FP32, "PLUS" },
        { ABSDIFF_P1, GrB_PLUS_MONOID_FP64, "PLUS" },
        { MINUS_D, GrB_PLUS_MONOID_FP64, "PLUS" },
        { ABSDIFF_F, GrB_MAX_MONOID_FP32, "MAX" },
        { ABSDIFF_P1, GrB_MAX_MONOID_FP64, "MAX" },
        { MINUS_D, GrB_MIN_MONOID_FP64, "MIN" },
        { MINUS_F, GrB_MIN_MONOID_FP32, "MIN" } } ;
    knn_of_user_ops (ops, 7, &B, m, "walked rows") ;
}

// Long rows that share most of their columns (a GPU's compiled MAX and MIN
// kNN mark, per pair, the ranks of row i's first 31 columns in key order
// that row j has too, and search row j past them): 1,500 rows of B, each
// holding 38 to 44 of 45 columns (and k = 400, so that f(e,e) joins every
// pair), values 1 to 4 of either sign by row, some rows empty; A its first
// 40 rows, itself excluded or not; MAX and MIN, FP64 and FP32.
static void rows_past_the_ranks (void **state)
{
    GXT_START () ;
    const GrB_Index n = 1500, k = 400, m = 40, pool = 45 ;
    GrB_Matrix B ;
    GXT_OK (GrB_Matrix_new (&B, GrB_FP64, n, k)) ;
    for (GrB_Index j = 0 ; j < n ; j++)
    {
        if (j % 11 == 5) continue ;                 // empty
        // a run of pool - skip of the pool's columns (every third column),
        // cyclic from off
        const GrB_Index skip = 1 + gxt_rand () % 7, off = gxt_rand () % pool ;
        for (GrB_Index q = 0 ; q < pool - skip ; q++)
        {
            double v = (double) (1 + gxt_rand () % 4) ;
            if (j % 5 == 2) v = -v ;
            GXT_OK (GrB_Matrix_setElement_FP64 (B, v, j, 3 * ((off + q) % pool))) ;
        }
    }
    const user_knn_op ops [6] = {
        { ABSDIFF_F, GrB_MAX_MONOID_FP32, "MAX" },
        { ABSDIFF_P1, GrB_MAX_MONOID_FP64, "MAX" },
        { MINUS_D, GrB_MAX_MONOID_FP64, "MAX" },
        { MINUS_D, GrB_MIN_MONOID_FP64, "MIN" },
        { ABSDIFF_P1, GrB_MIN_MONOID_FP64, "MIN" },
        { MINUS_F, GrB_MIN_MONOID_FP32, "MIN" } } ;
    knn_of_user_ops (ops, 6, &B, m, "long rows") ;
}

// Counts (a GPU's compiled PLUS kNN takes them in its narrow form, one
// exact word a pair, and where every row of A does, tiles of 8,192 rows of
// B): 17,000 rows of B over 500 columns (three such tiles), 1 to 40 entries
// of 1 to 4 each, some empty, and every tenth of the first 100 rows 400
// entries (more products than a tile's marks take: those rows finalize
// every pair); A its first 30 rows, itself excluded or not.  |x - y| and
// x - y in FP32 (x - y's row terms have either sign: no walk), |x - y| + 1
// in FP64 (the narrow form within tiles of 4,096).
static void wide_tiles_of_counts (void **state)
{
    GXT_START () ;
    const GrB_Index n = 17000, k = 500, m = 30 ;
    GrB_Matrix B ;
    GXT_OK (GrB_Matrix_new (&B, GrB_FP64, n, k)) ;
    for (GrB_Index j = 0 ; j < n ; j++)
    {
        if (j % 13 == 7) continue ;                 // empty
        const GrB_Index len = (j < 100 && j % 10 == 3) ? 400 : 1 + gxt_rand () % 40 ;
        for (GrB_Index q = 0 ; q < len ; q++)
        {
            const double v = (double) (1 + gxt_rand () % 4) ;
            GXT_OK (GrB_Matrix_setElement_FP64 (B, v, j, gxt_rand () % k)) ;
        }
    }
    const user_knn_op ops [3] = {
        { ABSDIFF_F, GrB_PLUS_MONOID_FP32, "PLUS" },
        { MINUS_F, GrB_PLUS_MONOID_FP32, "PLUS" },
        { ABSDIFF_P1, GrB_PLUS_MONOID_FP64, "PLUS" } } ;
    knn_of_user_ops (ops, 3, &B, m, "counts") ;
}

//------------------------------------------------------------------------------
// the rules at the edges
//------------------------------------------------------------------------------

static void edges (void **state)
{
    GXT_START () ;
    GrB_Matrix A, B, C ;
    gxt_pair (&A, &B, GXT_SHAPE_RANDOM, GXT_NONNEG_VALUES) ;
    GrB_Index m, n ;
    GXT_OK (GrB_Matrix_nrows (&m, A)) ;
    GXT_OK (GrB_Matrix_nrows (&n, B)) ;
    GXT_OK (GrB_Matrix_new (&C, GrB_FP64, m, n)) ;
    GXT_EXPECT (GrB_INVALID_VALUE, GxB_kNN (C, NULL, GxB_DIST_COSINE_FP64, 0, A, B, NULL)) ;
    GXT_EXPECT (GrB_INVALID_VALUE, GxB_radius_graph (C, NULL,
        GxB_DIST_COSINE_FP64, NAN, A, B, NULL)) ;
    GXT_EXPECT (GrB_NULL_POINTER, GxB_kNN (C, NULL, NULL, 3, A, B, NULL)) ;
    GXT_EXPECT (GrB_INVALID_VALUE, GxB_kNN (A, NULL, GxB_DIST_COSINE_FP64, 3, A, B, NULL)) ;
    GrB_Matrix Cbad ;
    GXT_OK (GrB_Matrix_new (&Cbad, GrB_FP64, m + 1, n)) ;
    GXT_EXPECT (GrB_DIMENSION_MISMATCH, GxB_kNN (Cbad, NULL, GxB_DIST_COSINE_FP64, 3, A, B, NULL)) ;
    GrB_Matrix_free (&Cbad) ;
    // negative input to a metric of non-negative domain
    GrB_Matrix An ;
    GXT_OK (GrB_Matrix_dup (&An, A)) ;
    GXT_OK (GrB_Matrix_setElement_FP64 (An, -1, 0, 0)) ;
    GXT_EXPECT (GrB_INVALID_VALUE, GxB_kNN (C, NULL,
        GxB_DIST_HELLINGER_FP64, 3, An, B, NULL)) ;
    // NaN or an infinity for any metric (docs/metrics.md), in A or B, C as
    // it was
    const double bad [3] = { NAN, INFINITY, -INFINITY } ;
    for (int q = 0 ; q < 3 ; q++)
    {
        GXT_OK (GrB_Matrix_setElement_FP64 (An, bad [q], 0, 0)) ;
        gxt_poison (C) ;
        GrB_Matrix C1 ;
        GXT_OK (GrB_Matrix_dup (&C1, C)) ;
        GXT_EXPECT (GrB_INVALID_VALUE, GxB_kNN (C, NULL, GxB_DIST_EUCLIDEAN_FP64, 3, An, B, NULL)) ;
        GXT_EXPECT (GrB_INVALID_VALUE, GxB_kNN (C, NULL, GxB_DIST_CHEBYSHEV_FP32, 3, An, B, NULL)) ;
        GXT_EXPECT (GrB_INVALID_VALUE, GxB_radius_graph (C, NULL, GxB_DIST_MANHATTAN_FP64, 2, An, B, NULL)) ;
        gxt_check_bitwise (C, C1, "C after a refused NaN or infinity") ;
        GrB_Matrix_free (&C1) ;
    }
    GrB_Matrix_free (&An) ;
    // the complement of no mask: C unchanged, or cleared with replace
    gxt_poison (C) ;
    GrB_Matrix C0 ;
    GXT_OK (GrB_Matrix_dup (&C0, C)) ;
    GrB_Descriptor d = gxt_desc (false, true, false, false, false) ;
    GXT_OK (GxB_kNN (C, NULL, GxB_DIST_COSINE_FP64, 3, A, B, d)) ;
    gxt_check_bitwise (C, C0, "kNN with GrB_COMP and no mask") ;
    GrB_Descriptor_free (&d) ;
    d = gxt_desc (false, true, true, false, false) ;
    GXT_OK (GxB_kNN (C, NULL, GxB_DIST_COSINE_FP64, 3, A, B, d)) ;
    GrB_Index nvals ;
    GXT_OK (GrB_Matrix_nvals (&nvals, C)) ;
    if (nvals != 0) GXT_FAIL ("GrB_COMP|GrB_REPLACE, no mask: %llu entries", (unsigned long long) nvals) ;
    GrB_Descriptor_free (&d) ;
    // transposed inputs give the same neighbors as the rows themselves
    GrB_Matrix At, Bt, Ct, Cr ;
    GXT_OK (GrB_Matrix_new (&At, GrB_FP64, 0, 0)) ;
    GrB_Matrix_free (&At) ;
    GrB_Index k ;
    GXT_OK (GrB_Matrix_ncols (&k, A)) ;
    GXT_OK (GrB_Matrix_new (&At, GrB_FP64, k, m)) ;
    GXT_OK (GrB_Matrix_new (&Bt, GrB_FP64, k, n)) ;
    GXT_OK (GrB_transpose (At, NULL, NULL, A, NULL)) ;
    GXT_OK (GrB_transpose (Bt, NULL, NULL, B, NULL)) ;
    GXT_OK (GrB_Matrix_new (&Ct, GrB_FP64, m, n)) ;
    GXT_OK (GrB_Matrix_new (&Cr, GrB_FP64, m, n)) ;
    GXT_OK (GxB_kNN (Ct, NULL, GxB_DIST_MANHATTAN_FP64, 4, At, Bt, GrB_DESC_T0T1)) ;
    GXT_OK (GxB_kNN (Cr, NULL, GxB_DIST_MANHATTAN_FP64, 4, A, B, NULL)) ;
    gxt_check_bitwise (Ct, Cr, "kNN of transposed inputs") ;
    GrB_Matrix_free (&At) ; GrB_Matrix_free (&Bt) ;
    GrB_Matrix_free (&Ct) ; GrB_Matrix_free (&Cr) ;
    // no rows of B: every row empty
    GrB_Matrix B0, C1 ;
    GXT_OK (GrB_Matrix_new (&B0, GrB_FP64, 0, k)) ;
    GXT_OK (GrB_Matrix_new (&C1, GrB_FP64, m, 0)) ;
    GXT_OK (GxB_kNN (C1, NULL, GxB_DIST_MANHATTAN_FP64, 4, A, B0, NULL)) ;
    GXT_OK (GrB_Matrix_nvals (&nvals, C1)) ;
    if (nvals != 0) GXT_FAIL ("n = 0: %llu entries", (unsigned long long) nvals) ;
    GrB_Matrix_free (&B0) ; GrB_Matrix_free (&C1) ;
    GrB_Matrix_free (&C) ; GrB_Matrix_free (&C0) ;
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ;
}

// C's rows in neighbor order: with no mask and no accum, unpacking C with a
// jumbled flag hands each row over nearest first (ties to the smaller
// column), as the stable sort of the full product has it; verify mode is
// off here, since its reading of the result may sort it by column
static void neighbor_order (void **state)
{
    GXT_START () ;
    GXT_OK (GxB_Distance_set_verify (false)) ;
    gxt_spec spec = { 0 } ;
    spec.m = 30 ; spec.k = 12 ; spec.density = 0.5 ; spec.empty_frac = 0.05 ;
    spec.dense_row = -1 ; spec.values = GXT_NATURALS ;
    GrB_Matrix A, B ;
    gxt_random (&A, &spec) ;
    spec.m = 900 ;
    gxt_random (&B, &spec) ;
    const uint64_t ks [2] = { 7, 40 } ;
    for (int q = 0 ; q < 4 ; q++)
    {
        bool dot = (q & 1) ;
        uint64_t k = ks [q / 2] ;
        GrB_Semiring s = dot ? GxB_DIST_DOT_FP64 : GxB_DIST_MANHATTAN_FP64 ;
        GrB_Matrix D, C ;
        GXT_OK (GrB_Matrix_new (&D, GrB_FP64, 30, 900)) ;
        GXT_OK (GxB_mxm_distance (D, NULL, NULL, s, A, B, NULL)) ;
        GXT_OK (GrB_Matrix_new (&C, GrB_FP64, 30, 900)) ;
        gxt_poison (C) ;
        GXT_OK (GxB_kNN (C, NULL, s, k, A, B, NULL)) ;
        GrB_Index *Cp, *Cj, p_size, j_size, x_size ;
        double *Cx ;
        bool iso, jumbled ;
        GXT_OK (GxB_Matrix_unpack_CSR (C, &Cp, &Cj, (void **) &Cx, &p_size,
            &j_size, &x_size, &iso, &jumbled, NULL)) ;
        if (!jumbled || iso) GXT_FAIL ("k %llu: C came back sorted by column",
            (unsigned long long) k) ;
        gxt_nb_entry *row = malloc (900 * sizeof (gxt_nb_entry)) ;
        for (GrB_Index i = 0 ; i < 30 ; i++)
        {
            int64_t nr = 0 ;
            for (GrB_Index j = 0 ; j < 900 ; j++)
            {
                double d ;
                if (GrB_Matrix_extractElement_FP64 (&d, D, i, j) == GrB_SUCCESS)
                {
                    row [nr++] = (gxt_nb_entry) { d, (int64_t) j } ;
                }
            }
            gxt_nb_sort (row, nr, dot) ;
            if ((int64_t) (Cp [i+1] - Cp [i]) != (nr < (int64_t) k ? nr : (int64_t) k))
            {
                GXT_FAIL ("k %llu, row %llu: %llu neighbors", (unsigned long long) k,
                    (unsigned long long) i, (unsigned long long) (Cp [i+1] - Cp [i])) ;
            }
            for (GrB_Index p = Cp [i] ; p < Cp [i+1] ; p++)
            {
                const gxt_nb_entry *e = &row [p - Cp [i]] ;
                if ((int64_t) Cj [p] != e->j || memcmp (&Cx [p], &e->d, sizeof (double)))
                {
                    GXT_FAIL ("k %llu, row %llu, place %llu: column %llu (%g), "
                        "expected %lld (%g)", (unsigned long long) k,
                        (unsigned long long) i, (unsigned long long) (p - Cp [i]),
                        (unsigned long long) Cj [p], Cx [p], (long long) e->j, e->d) ;
                }
            }
        }
        free (row) ;
        GXT_OK (GxB_Matrix_pack_CSR (C, &Cp, &Cj, (void **) &Cx, p_size, j_size,
            x_size, iso, jumbled, NULL)) ;
        GrB_Matrix_free (&C) ; GrB_Matrix_free (&D) ;
    }
    GXT_OK (GxB_Distance_set_verify (true)) ;
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ;
}

// verify mode catches a wrong neighborhood: fault injection perturbs the
// first entry of each tile's distances
static void verify_catches (void **state)
{
    GXT_START () ;
    GrB_Matrix A, B, C ;
    gxt_pair (&A, &B, GXT_SHAPE_DENSE, GXT_NONNEG_VALUES) ;
    gxt_new_result (&C, GrB_FP64, A, B) ;
    // k = every row of B: the whole product is the neighborhood
    GrB_Index n ;
    GXT_OK (GrB_Matrix_nrows (&n, B)) ;
    GXD_set_fault_injection (true) ;
    GrB_Info info = GxB_kNN (C, NULL, GxB_DIST_EUCLIDEAN_FP64, n, A, B, NULL) ;
    GXD_set_fault_injection (false) ;
    if (info != GxB_VERIFY_FAILED)
    {
        GXT_FAIL ("a perturbed distance was not caught: %s", gxt_info_name (info)) ;
    }
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&C) ;
}

// a descriptor freed with its exclude-self mark still on does not pass the
// mark to the next descriptor made at its address (allocators hand the
// block straight back): a self-query with the new one keeps each point;
// the mark's trace (docs/api.md) is the chunk setting
static void freed_mark_not_inherited (void **state)
{
    GXT_START () ;
    GrB_Matrix A, B, C ;
    gxt_pair (&A, &B, GXT_SHAPE_RANDOM, GXT_NONNEG_VALUES) ;
    GrB_Matrix_free (&B) ;
    GrB_Index m ;
    GXT_OK (GrB_Matrix_nrows (&m, A)) ;
    int reused = 0 ;
    for (int round = 0 ; round < 8 ; round++)
    {
        GrB_Descriptor d = NULL, d2 = NULL ;
        GXT_OK (GrB_Descriptor_new (&d)) ;
        GXT_OK (GxB_Desc_set_exclude_self (d, true)) ;
        double chunk = -1 ;
        GXT_OK (GxB_Desc_get (d, GxB_DESCRIPTOR_CHUNK, &chunk)) ;
        if (chunk != 65536) GXT_FAIL ("a marked descriptor's chunk is %g", chunk) ;
        void *old = (void *) d ;
        GXT_OK (GrB_Descriptor_free (&d)) ;         // the mark left on
        GXT_OK (GrB_Descriptor_new (&d2)) ;
        reused += ((void *) d2 == old) ;
        bool on = true ;
        GXT_OK (GxB_Desc_get_exclude_self (d2, &on)) ;
        if (on) GXT_FAIL ("round %d: a new descriptor inherited exclude-self "
            "(same address: %d)", round, (void *) d2 == old) ;
        GXT_OK (GrB_Matrix_new (&C, GrB_FP64, m, m)) ;
        GXT_OK (GxB_kNN (C, NULL, GxB_DIST_EUCLIDEAN_FP64, 1, A, A, d2)) ;
        // each row's nearest is itself, at 0 (ties to the smaller column:
        // a duplicate row before it would be at 0 too)
        for (GrB_Index i = 0 ; i < m ; i++)
        {
            GrB_Index nv ;
            GrB_Vector r ;
            GXT_OK (GrB_Vector_new (&r, GrB_FP64, m)) ;
            GXT_OK (GrB_Col_extract (r, NULL, NULL, C, GrB_ALL, m, i, GrB_DESC_T0)) ;
            GXT_OK (GrB_Vector_nvals (&nv, r)) ;
            double x = -1 ;
            GrB_Info info = GrB_Vector_extractElement_FP64 (&x, r, i) ;
            bool dup = (info != GrB_SUCCESS && nv == 1) ;
            if (!dup && (info != GrB_SUCCESS || x != 0))
                GXT_FAIL ("round %d, row %llu: not its own nearest", round,
                    (unsigned long long) i) ;
            GrB_Vector_free (&r) ;
        }
        GrB_Matrix_free (&C) ;
        GrB_Descriptor_free (&d2) ;
    }
    print_message ("[ INFO     ] %d of 8 new descriptors at a freed one's address\n", reused) ;
    // a mark set and cleared leaves the chunk as it was
    GrB_Descriptor d = NULL ;
    GXT_OK (GrB_Descriptor_new (&d)) ;
    GXT_OK (GxB_Desc_set_exclude_self (d, true)) ;
    GXT_OK (GxB_Desc_set_exclude_self (d, false)) ;
    double chunk = -1 ;
    GXT_OK (GxB_Desc_get (d, GxB_DESCRIPTOR_CHUNK, &chunk)) ;
    if (chunk != 0) GXT_FAIL ("a cleared mark left chunk %g", chunk) ;
    GrB_Descriptor_free (&d) ;
    GrB_Matrix_free (&A) ;
}

int main (void)
{
    gxt_setup = verify_on ;
    const struct CMUnitTest tests [] =
    {
        cmocka_unit_test (every_metric),
        cmocka_unit_test (ties_and_self),
        cmocka_unit_test (large_k),
        cmocka_unit_test (long_rows),
        cmocka_unit_test (masks),
        cmocka_unit_test (unions),
        cmocka_unit_test (walked_untouched_rows),
        cmocka_unit_test (rows_past_the_ranks),
        cmocka_unit_test (wide_tiles_of_counts),
        cmocka_unit_test (edges),
        cmocka_unit_test (neighbor_order),
        cmocka_unit_test (verify_catches),
        cmocka_unit_test (freed_mark_not_inherited),
    } ;
    return gxt_main ("neighbors", tests, sizeof (tests) / sizeof (tests [0])) ;
}
