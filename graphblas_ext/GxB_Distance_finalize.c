// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// graphblas_ext/GxB_Distance_finalize.c: free the predefined objects
//------------------------------------------------------------------------------

#include "gxd_internal.h"
#include "gxd_memory.h"
#include "gxd_test_hooks.h"
#ifdef GXD_HAVE_CUDA
#include "gxd_gpu.h"
#endif

GrB_Info GXD_predefined_free (void) ;

GrB_Info GxB_Distance_finalize (void)
{
    GXD_error_clear () ;
    if (!GXD_settings.initialized) return GrB_SUCCESS ;
    GXD_predefined_free () ;
    GXD_registry_clear () ;
    GXD_jit_clear () ;
#ifdef GXD_HAVE_CUDA
    GXD_gpu_staging_free () ;
#endif
    GXD_settings.initialized = false ;
    GXD_memory_set (NULL, NULL, NULL) ;
    return GrB_SUCCESS ;
}
