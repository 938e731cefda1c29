// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// tests/test_gpu_strategies.c: every GPU strategy and kernel variant against
// the reference
//------------------------------------------------------------------------------

// The GPU picks one strategy per plan (cuda/gpu_dense.cu), so the other
// paths a plan could take are not reached by the rest of the suite.  Here
// the test-only override (cuda/gpu_tuning.h) forces each in turn: the exact
// SPSV for every metric, each intersection kernel variant, and tiles of 5
// rows of B in 600-byte tiles of C (so tiling, the tile edges and the
// streaming of several tiles run on small inputs).  Every
// metric, FP32 and FP64, on several shape classes, against the SuiteSparse
// reference at the suite's tolerances.  Skipped (exit 77) when the GPU
// backend is not the one in use (no GPU, or GXBDIST_BACKEND=cpu).

#include "test_common.h"
#include "gpu_tuning.h"
#include "gxd_gpu.h"

typedef struct { const char *name ; gxd_gpu_tuning t ; } forced ;

static const forced configs [ ] =
{
    { "SPSV",                     { .spsv = true } },
    { "intersection variant 1",   { .kv = 1 } },
    { "intersection variant 3",   { .kv = 3 } },
    { "tiny tiles",               { .tn = 5, .tile_bytes = 600 } },
} ;

static const gxt_shape shapes [ ] =
{
    GXT_SHAPE_RANDOM, GXT_SHAPE_EMPTY_ROWS, GXT_SHAPE_DENSE_ROW,
    GXT_SHAPE_POWERLAW, GXT_SHAPE_EXPLICIT_ZEROS, GXT_SHAPE_WIDE
} ;

// the test is skipped unless the GPU backend is the one in use
static void gpu_or_skip (void)
{
    GxB_Backend backend = GxB_BACKEND_CPU ;
    GXT_OK (GxB_Distance_active_backend (&backend)) ;
    if (backend != GxB_BACKEND_GPU)
    {
        print_message ("[ SKIPPED  ] the GPU backend is not in use\n") ;
        skip ( ) ;
    }
}

static void every_strategy_matches_reference (void **state)
{
    GXT_START ( ) ;
    gpu_or_skip ( ) ;
    GrB_Type types [2] = { GrB_FP32, GrB_FP64 } ;
    for (size_t c = 0 ; c < sizeof (configs) / sizeof (configs [0]) ; c++)
    {
        GXD_gpu_set_tuning (&configs [c].t) ;
        for (int i = 0 ; i < gxt_nmetrics ; i++)
        {
            const gxt_metric *mt = &gxt_metrics [i] ;
            gxt_values values = (mt->flags & GXT_NONNEG) ? GXT_NONNEG_VALUES : GXT_MIXED ;
            for (size_t q = 0 ; q < sizeof (shapes) / sizeof (shapes [0]) ; q++)
            {
                GrB_Type type = types [(i + q) % 2] ;
                GrB_Matrix A, B, C = NULL ;
                gxt_pair (&A, &B, shapes [q], values) ;
                GrB_Semiring s = gxt_semiring (mt, type) ;
                GXT_OK (gxt_distance (&C, type, s, A, B, NULL)) ;
                char ctx [160] ;
                snprintf (ctx, sizeof (ctx), "%s, shape %s", configs [c].name,
                    gxt_shape_name (shapes [q])) ;
                gxt_check_metric (C, mt, type, A, B, ctx) ;
                gxt_semiring_free (mt, &s) ;
                GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&C) ;
            }
        }
    }
    GXD_gpu_set_tuning (NULL) ;
}

//------------------------------------------------------------------------------
// kNN with the selection inside the fixed-point kernel
//------------------------------------------------------------------------------

// GxB_kNN on the GPU selects inside the fixed-point kernel where the plan
// takes it (cuda/gpu_knn.cu): tile by tile of B, with the walk over rows
// that share no column with the query row.  Its result must be the stable
// sort of the full product's rows, bit for bit, whatever the tiles of B
// (and with a complemented mask, whose pairs are not candidates):
// one tile, tiles of 5 and 37 rows (many tiles, walks of a few rows), and
// 1,000 rows (more candidates than a block lists: the rescan).  Small
// integers make many equal distances (ties at the k-th place, equal walk
// keys); empty rows, a dense row and stored zeros give the walk's edges.
static void knn_fused_matches_product (void **state)
{
    GXT_START ( ) ;
    gpu_or_skip ( ) ;
    static const forced fx [ ] =
    {
        { "fixed point",               { .kv = 3 } },
        { "fixed point, tiles of 5",   { .kv = 3, .tn = 5 } },
        { "fixed point, tiles of 37",  { .kv = 3, .tn = 37 } },
        { "fixed point, tiles of 1000", { .kv = 3, .tn = 1000 } },
    } ;
    gxt_spec big = { 0 } ;
    big.m = 24 ; big.k = 40 ; big.density = 0.3 ; big.empty_frac = 0.05 ;
    big.dense_row = -1 ; big.values = GXT_NATURALS ;
    GrB_Matrix Abig, Bbig ;
    gxt_random (&Abig, &big) ;
    big.m = 1300 ;
    gxt_random (&Bbig, &big) ;
    const gxt_values vals [2] = { GXT_NATURALS, GXT_NONNEG_VALUES } ;
    for (size_t c = 0 ; c < sizeof (fx) / sizeof (fx [0]) ; c++)
    {
        GXD_gpu_set_tuning (&fx [c].t) ;
        for (int i = 0 ; i < gxt_nmetrics ; i++)
        {
            const gxt_metric *mt = &gxt_metrics [i] ;
            if (strcmp (mt->name, "DOT") == 0) continue ;   // not fixed point
            for (size_t q = 0 ; q <= sizeof (shapes) / sizeof (shapes [0]) ; q++)
            {
                GrB_Type type = ((i + q) % 2) ? GrB_FP64 : GrB_FP32 ;
                GrB_Matrix A, B, D, R, C ;
                bool own = (q < sizeof (shapes) / sizeof (shapes [0])) ;
                if (own) gxt_pair (&A, &B, shapes [q], vals [(i + q / 2) % 2]) ;
                else { A = Abig ; B = Bbig ; }
                GrB_Index m, n ;
                GXT_OK (GrB_Matrix_nrows (&m, A)) ;
                GXT_OK (GrB_Matrix_nrows (&n, B)) ;
                GrB_Semiring s = gxt_semiring (mt, type) ;
                // against B, and the self-query of B without the point
                for (int self = 0 ; self <= 1 ; self++)
                {
                    GrB_Matrix Q = self ? B : A ;
                    GrB_Index mq = self ? n : m ;
                    GXT_OK (GrB_Matrix_new (&D, type, mq, n)) ;
                    GXT_OK (GxB_mxm_distance (D, NULL, NULL, s, Q, B, NULL)) ;
                    uint64_t ks [3] = { 1, 7, 32 } ;
                    for (int kq = 0 ; kq < 3 ; kq++)
                    {
                        gxt_brute_neighbors (&R, D, NULL, false, false, self,
                            ks [kq], 0, false) ;
                        GrB_Descriptor d = NULL ;
                        GXT_OK (GrB_Descriptor_new (&d)) ;
                        if (self) GXT_OK (GxB_Desc_set_exclude_self (d, true)) ;
                        GXT_OK (GrB_Matrix_new (&C, type, mq, n)) ;
                        gxt_poison (C) ;
                        GXT_OK (GxB_kNN (C, NULL, s, ks [kq], Q, B, d)) ;
                        char ctx [200] ;
                        snprintf (ctx, sizeof (ctx), "kNN %s, %s, %s, k %d%s",
                            mt->name, fx [c].name, own ? gxt_shape_name (shapes [q])
                            : "1300 rows", (int) ks [kq], self ? ", self" : "") ;
                        gxt_check_bitwise (C, R, ctx) ;
                        GrB_Matrix_free (&C) ; GrB_Matrix_free (&R) ;
                        if (self) GXT_OK (GxB_Desc_set_exclude_self (d, false)) ;
                        GrB_Descriptor_free (&d) ;
                    }
                    // a complemented mask: its pairs are not candidates
                    // (selected inside the kernels too)
                    GrB_Matrix M ;
                    gxt_result_mask (&M, Q, B, 0.3) ;
                    gxt_brute_neighbors (&R, D, M, false, true, self, 7, 0, false) ;
                    GrB_Descriptor dc = gxt_desc (false, true, true, false, false) ;
                    if (self) GXT_OK (GxB_Desc_set_exclude_self (dc, true)) ;
                    GXT_OK (GrB_Matrix_new (&C, type, mq, n)) ;
                    gxt_poison (C) ;
                    GXT_OK (GxB_kNN (C, M, s, 7, Q, B, dc)) ;
                    char ctx [200] ;
                    snprintf (ctx, sizeof (ctx), "kNN %s, %s, %s, k 7, complemented mask%s",
                        mt->name, fx [c].name, own ? gxt_shape_name (shapes [q])
                        : "1300 rows", self ? ", self" : "") ;
                    gxt_check_bitwise (C, R, ctx) ;
                    GrB_Matrix_free (&C) ; GrB_Matrix_free (&R) ; GrB_Matrix_free (&M) ;
                    GrB_Descriptor_free (&dc) ;
                    GrB_Matrix_free (&D) ;
                }
                gxt_semiring_free (mt, &s) ;
                if (own) { GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; }
            }
        }
    }
    GXD_gpu_set_tuning (NULL) ;
    GrB_Matrix_free (&Abig) ; GrB_Matrix_free (&Bbig) ;
}

int main (void)
{
    // ctest's SKIP_RETURN_CODE: no GPU, or the CPU backend asked for
    const char *b = getenv ("GXBDIST_BACKEND") ;
    if (!GXD_gpu_usable ( ) || (b != NULL && strcmp (b, "cpu") == 0))
    {
        printf ("test_gpu_strategies: skipped: %s\n", GXD_gpu_usable ( )
            ? "GXBDIST_BACKEND=cpu" : "no usable GPU") ;
        return 77 ;
    }
    const struct CMUnitTest tests [ ] =
    {
        cmocka_unit_test (every_strategy_matches_reference),
        cmocka_unit_test (knn_fused_matches_product),
    } ;
    return gxt_main ("gpu_strategies", tests, sizeof (tests) / sizeof (tests [0])) ;
}
