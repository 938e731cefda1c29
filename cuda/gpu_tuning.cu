// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// cuda/gpu_tuning.cu: the tuning override of gxbdist's own checks
//------------------------------------------------------------------------------

// A test hook (gpu_tuning.h), not part of the API: the GPU checks and
// benchmarks force a strategy, a kernel variant or tiny tiles through it,
// so the library itself reads its tuning from named constants only.

#include "gpu_tuning.h"

// zero: every default
static gxd_gpu_tuning tuning_set ;

void GXD_gpu_set_tuning (const gxd_gpu_tuning *t)
{
    static const gxd_gpu_tuning none = { } ;
    tuning_set = (t != NULL) ? *t : none ;
}

void GXD_gpu_get_tuning (gxd_gpu_tuning *t)
{
    *t = tuning_set ;
}

gxd_gpu_tuning gxd_tuning (void)
{
    gxd_gpu_tuning t = tuning_set ;
    if (t.tn <= 0) t.tn = GXD_GPU_TN ;
    if (t.threads <= 0) t.threads = GXD_GPU_THREADS ;
    if (t.tile_bytes <= 0) t.tile_bytes = GXD_GPU_TILE_BYTES ;
    return t ;
}
