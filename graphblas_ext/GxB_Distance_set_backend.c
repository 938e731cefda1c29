// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// graphblas_ext/GxB_Distance_set_backend.c: choose CPU, GPU or AUTO
//------------------------------------------------------------------------------

#include "gxd_internal.h"

GrB_Info GxB_Distance_set_backend (GxB_Backend backend)
{
    GXD_error_clear () ;
    if (backend != GxB_BACKEND_AUTO && backend != GxB_BACKEND_CPU
        && backend != GxB_BACKEND_GPU)
    {
        return GXD_error (GrB_INVALID_VALUE,
            "GxB_Distance_set_backend: unknown backend %d", (int) backend) ;
    }
    if (backend == GxB_BACKEND_GPU && !GXD_gpu_present ())
    {
        return GXD_error (GrB_NOT_IMPLEMENTED, "GxB_Distance_set_backend: "
            "no usable GPU (none present, or built without CUDA)") ;
    }
    GXD_settings.backend = backend ;
    return GrB_SUCCESS ;
}

GrB_Info GxB_Distance_get_backend (GxB_Backend *backend)
{
    GXD_error_clear () ;
    if (backend == NULL)
    {
        return GXD_error (GrB_NULL_POINTER, "GxB_Distance_get_backend: NULL") ;
    }
    (*backend) = GXD_settings.backend ;
    return GrB_SUCCESS ;
}

GrB_Info GxB_Distance_active_backend (GxB_Backend *backend)
{
    GXD_error_clear () ;
    if (backend == NULL)
    {
        return GXD_error (GrB_NULL_POINTER, "GxB_Distance_active_backend: NULL") ;
    }
    bool gpu = GXD_settings.backend == GxB_BACKEND_GPU
        || (GXD_settings.backend == GxB_BACKEND_AUTO && GXD_gpu_present ()) ;
    (*backend) = gpu ? GxB_BACKEND_GPU : GxB_BACKEND_CPU ;
    return GrB_SUCCESS ;
}
