// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// graphblas_ext/gxd_settings.c: global settings and GPU presence
//------------------------------------------------------------------------------

#include "gxd_internal.h"
#ifdef GXD_HAVE_CUDA
#include "gxd_gpu.h"
#endif

gxd_settings GXD_settings = { false, GxB_BACKEND_AUTO, false,
    GXD_VERIFY_ROWS_DEFAULT, false, false } ;

// probed once: a CUDA device that takes an allocation
bool GXD_gpu_present (void)
{
#ifdef GXD_HAVE_CUDA
    static int known = -1 ;
    if (known < 0) known = GXD_gpu_usable () ? 1 : 0 ;
    return known == 1 ;
#else
    return false ;
#endif
}
