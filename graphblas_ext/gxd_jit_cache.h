// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// graphblas_ext/gxd_jit_cache.h: the disk cache of compiled user operators
//------------------------------------------------------------------------------

// gxd_jit.c keeps the CPU's compiled operators on disk; the GPU backend
// (cuda/gpu_user.cu) keeps its compiled kernels there too, through these.
// An entry is the binary beside its exact source and a checksum; it is
// returned only when both hold, so a corrupt or stale entry is compiled
// again, never trusted.

#ifndef GXD_JIT_CACHE_H
#define GXD_JIT_CACHE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

// the binary compiled from source by tool (malloc'd, *n bytes), or NULL
void *GXD_jit_cache_read (const char *source, const char *tool,
    const char *src_ext, const char *bin_ext, size_t *n) ;
// keep it (a compile is counted; failing to write costs a compile later)
void GXD_jit_cache_write (const char *source, const char *tool,
    const char *src_ext, const char *bin_ext, const void *bin, size_t n) ;

#ifdef __cplusplus
}
#endif
#endif
