// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// graphblas_ext/GxB_Distance_init.c: create the predefined objects
//------------------------------------------------------------------------------

// Called after GrB_init: the predefined semirings are GraphBLAS objects.
// Settings start from the environment (GXBDIST_BACKEND, GXBDIST_VERIFY).

#include "gxd_internal.h"
#include "gxd_memory.h"
#include <strings.h>

GrB_Info GXD_predefined_new (void) ;
GrB_Info GXD_predefined_free (void) ;

static GxB_Backend backend_from_env (void)
{
    const char *s = getenv ("GXBDIST_BACKEND") ;
    if (s == NULL) return GxB_BACKEND_AUTO ;
    if (strcasecmp (s, "cpu") == 0) return GxB_BACKEND_CPU ;
    if (strcasecmp (s, "gpu") == 0) return GxB_BACKEND_GPU ;
    return GxB_BACKEND_AUTO ;
}

GrB_Info GxB_Distance_init (void)
{
    #define GXD_FREE_ALL GXD_predefined_free () ;
    GXD_error_clear () ;
    if (GXD_settings.initialized)
    {
        return GXD_error (GrB_INVALID_VALUE,
            "GxB_Distance_init: already initialized") ;
    }
    const char *v = getenv ("GXBDIST_VERIFY") ;
    GXD_settings.verify = (v != NULL && strcmp (v, "1") == 0) ;
    GXD_settings.verify_rows = GXD_VERIFY_ROWS_DEFAULT ;
    GXD_settings.exact = false ;
    GXD_settings.fault = false ;
    GXD_settings.backend = backend_from_env () ;
    if (GXD_settings.backend == GxB_BACKEND_GPU && !GXD_gpu_present ())
    {
        return GXD_error (GrB_NOT_IMPLEMENTED,
            "GxB_Distance_init: GXBDIST_BACKEND=gpu but no usable GPU") ;
    }
    GXD_TRY (GXD_predefined_new ()) ;
    GXD_settings.initialized = true ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

GrB_Info GxB_Distance_init_memory
(
    void * (* user_malloc_function  ) (size_t),
    void * (* user_calloc_function  ) (size_t, size_t),
    void * (* user_realloc_function ) (void *, size_t),
    void   (* user_free_function    ) (void *)
)
{
    GXD_error_clear () ;
    if (user_malloc_function == NULL || user_free_function == NULL)
    {
        return GXD_error (GrB_NULL_POINTER, "GxB_Distance_init_memory: the "
            "malloc and free functions are required (calloc and realloc may "
            "be NULL)") ;
    }
    if (GXD_settings.initialized)
    {
        return GXD_error (GrB_INVALID_VALUE,
            "GxB_Distance_init_memory: already initialized") ;
    }
    // realloc is not needed: gxbdist never grows a block it handed over
    GXD_memory_set (user_malloc_function, user_calloc_function,
        user_free_function) ;
    GrB_Info info = GxB_Distance_init () ;
    if (info != GrB_SUCCESS) GXD_memory_set (NULL, NULL, NULL) ;
    return info ;
}
