// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// graphblas_ext/gxd_memory.h: the allocator gxbdist shares with GraphBLAS
//------------------------------------------------------------------------------

// Arrays that gxbdist allocates often end up inside a GrB_Matrix (packed
// results), which GraphBLAS later frees with the free function given to
// GxB_init.  So every allocation of gxbdist, in the API layer and the CPU
// backend alike, goes through the same functions: the C library's by
// default, the caller's after GxB_Distance_init_memory.

#ifndef GXD_MEMORY_H
#define GXD_MEMORY_H

#include <stdbool.h>
#include <stddef.h>

void *GXD_malloc (size_t size) ;
void *GXD_calloc (size_t n, size_t size) ;
void  GXD_free (void *p) ;              // NULL is fine

// an array of size bytes that threads will fill in parallel (a result):
// large ones are advised into transparent huge pages, so that first touch
// costs one fault per 2 MiB instead of one per 4 KiB
void *GXD_malloc_result (size_t size) ;

// whether a result of this many bytes may be built (half the physical
// memory at most): results whose size is found as they grow ask before
// they grow
bool GXD_memory_fits (double bytes) ;

// set by GxB_Distance_init_memory (NULL: the C library's)
void GXD_memory_set (void *(*m) (size_t), void *(*c) (size_t, size_t),
    void (*f) (void *)) ;

#endif
