// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// cuda/gpu_tuning.h: the CUDA backend's tuning values, and a test override
//------------------------------------------------------------------------------

// The values the GPU backend runs with, named once (CUB's policy headers are
// the model), each with the reason for it; measured on the H100 (sm_90),
// bench/gpu_measurements.md has the runs.  The library reads no environment
// for them.  gxd_gpu_tuning lets gxbdist's own checks and benchmarks
// (bench/gpu_bench.cu) force a strategy, a kernel variant, tiny tiles or
// another walk, so those paths run on small inputs; like the hooks of
// graphblas_ext/gxd_test_hooks.h it is not part of the API: libgxbdist.so
// does not export it (cmake/gxbdist.map), libgxbdist.a has it.

#ifndef GXD_GPU_TUNING_H
#define GXD_GPU_TUNING_H

#include <stdbool.h>
#include <stdint.h>

// rows of B (columns of C) per tile of the intersection and Chebyshev
// kernels: the shared accumulator of 3,840 doubles lets 5 blocks of 256
// threads share an SM (62 % occupancy); 4,096 and 8,192 measured 1 % and
// 16 % slower on MovieLens-like L1
#define GXD_GPU_TN 3840

// threads per block of the intersection kernel (whole warps, at least
// GXD_SHORT, gpu_intersect.cu, needs): 256 to 1,024 measured no faster
// (occupancy is not the limit)
#define GXD_GPU_THREADS 256

// a row tile of distances on the device takes at most 1/4 of the free
// memory and at most this: two tiles are allocated (one computes while the
// other is copied out).  256 MiB of FP32 is 6.7e7 pairs, work enough that a
// tile's launches do not show, while the first tile (the link idles until
// it is done) comes sooner, and the device memory a call allocates and
// frees (both take time on the host) is smaller
#define GXD_GPU_TILE_BYTES ((int64_t) 256 << 20)

#ifdef __cplusplus
extern "C" {
#endif

// A test or benchmark's override; every field 0 (false): the values above
// and the choices of the code (a zeroed struct is the default).
typedef struct
{
    bool spsv ;             // every dense plan through the exact SPSV (always
                            // valid: the SPSV is exact for any plan)
    int kv ;                // intersection kernel variant 1 or 3
                            // (gpu_intersect.cu); 0: gxd_default_kv
    int64_t tn ;            // > 0: rows of B per tile instead of GXD_GPU_TN
    int threads ;           // > 0: instead of GXD_GPU_THREADS (clamped to
                            // 64 .. 1024, whole warps)
    int64_t tile_bytes ;    // > 0: instead of GXD_GPU_TILE_BYTES
}
gxd_gpu_tuning ;

// set the override (NULL: back to the defaults); not thread-safe: set it
// between calls, as the checks do
void GXD_gpu_set_tuning (const gxd_gpu_tuning *t) ;
// the override now set (zeros where a default is used)
void GXD_gpu_get_tuning (gxd_gpu_tuning *t) ;

#ifdef __cplusplus
}

// the values in force: the override where set, the constants above elsewhere
// (tn, threads, tile_bytes always > 0)
gxd_gpu_tuning gxd_tuning (void) ;
#endif

#endif
