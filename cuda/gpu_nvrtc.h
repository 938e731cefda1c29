// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// cuda/gpu_nvrtc.h: kernels compiled at run time (NVRTC), for user operators
//------------------------------------------------------------------------------

#ifndef GXD_GPU_NVRTC_H
#define GXD_GPU_NVRTC_H

#include "gpu_internal.cuh"
#include <string>

// the function `entry` of the CUDA program src, compiled for the current
// device: from this process, the disk cache or NVRTC.  Where name is not
// NULL and the library holds that template for the device (gpu_user_images.h),
// and src was not compiled yet: the operator's part *op (gxd_user_operator)
// linked with it, while src compiles on a thread of its own and serves
// from a later call on.  GrB_NOT_IMPLEMENTED where NVRTC or the driver
// library is missing; GrB_INVALID_VALUE with the compiler's log in msg
// where the operator does not compile (nothing is cached)
GrB_Info gxd_nvrtc_function (void **fn, const std::string &src,
    const char *name, const std::string *op, const char *entry, char *msg) ;

// launch fn (a grid of gx x gy blocks of `threads`, smem bytes of dynamic
// shared memory) on stream s with the kernel's arguments args
GrB_Info gxd_nvrtc_launch (void *fn, unsigned gx, unsigned gy,
    unsigned threads, unsigned smem, cudaStream_t s, void **args, char *msg) ;

#endif
