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

static void every_strategy_matches_reference (void **state)
{
    GXT_START ( ) ;
    GxB_Backend backend = GxB_BACKEND_CPU ;
    GXT_OK (GxB_Distance_active_backend (&backend)) ;
    if (backend != GxB_BACKEND_GPU)
    {
        print_message ("[ SKIPPED  ] the GPU backend is not in use\n") ;
        skip ( ) ;
    }
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
    } ;
    return gxt_main ("gpu_strategies", tests, sizeof (tests) / sizeof (tests [0])) ;
}
