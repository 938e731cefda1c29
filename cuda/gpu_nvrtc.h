// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// cuda/gpu_nvrtc.h: kernels compiled at run time (NVRTC), for user operators
//------------------------------------------------------------------------------

#ifndef GXD_GPU_NVRTC_H
#define GXD_GPU_NVRTC_H

#include "gpu_internal.cuh"
#include <string>

// the function `entry` of the CUDA source src, compiled for the current
// device: from this process, the disk cache or NVRTC.  GrB_NOT_IMPLEMENTED
// where NVRTC or the driver library is missing; GrB_INVALID_VALUE with the
// compiler's log in msg where src does not compile (nothing is cached)
GrB_Info gxd_nvrtc_function (void **fn, const std::string &src,
    const char *entry, char *msg) ;

// launch fn (a grid of gx x gy blocks of `threads`, smem bytes of dynamic
// shared memory) on stream s with the kernel's arguments args
GrB_Info gxd_nvrtc_launch (void *fn, unsigned gx, unsigned gy,
    unsigned threads, unsigned smem, cudaStream_t s, void **args, char *msg) ;

#endif
