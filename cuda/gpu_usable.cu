// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// cuda/gpu_usable.cu: is there a GPU this backend can use?
//------------------------------------------------------------------------------

// Under GxB_BACKEND_AUTO the library asks this once and falls back to the
// CPU backend when it says no: a device must exist and a trivial allocation
// must succeed (a present but broken or exhausted device says no too).

#include "gpu_internal.cuh"

extern "C" bool GXD_gpu_usable (void)
{
    int count = 0 ;
    if (cudaGetDeviceCount (&count) != cudaSuccess || count < 1)
    {
        cudaGetLastError () ;
        return false ;
    }
    void *p = NULL ;
    if (cudaMalloc (&p, 256) != cudaSuccess)
    {
        cudaGetLastError () ;
        return false ;
    }
    return cudaFree (p) == cudaSuccess ;
}
