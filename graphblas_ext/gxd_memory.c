// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// graphblas_ext/gxd_memory.c: the allocator gxbdist shares with GraphBLAS
//------------------------------------------------------------------------------

#define _DEFAULT_SOURCE
#include "gxd_memory.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

// Results at least this large are advised into huge pages: below it the
// 4 KiB faults cost less than the call itself.
#define GXD_HUGE_PAGE_MIN ((size_t) 4 << 20)
#define GXD_HUGE_PAGE     ((uintptr_t) 2 << 20)
// the share of physical memory a growing result may take
#define GXD_RESULT_SHARE  0.5

static void *(*mem_malloc) (size_t) = malloc ;
static void *(*mem_calloc) (size_t, size_t) = calloc ;
static void (*mem_free) (void *) = free ;

void GXD_memory_set (void *(*m) (size_t), void *(*c) (size_t, size_t),
    void (*f) (void *))
{
    // a caller's malloc without its calloc: calloc by malloc and memset,
    // never the C library's (its blocks would reach the caller's free)
    mem_malloc = m ? m : malloc ;
    mem_calloc = m ? c : calloc ;
    mem_free   = m ? f : free ;
}

void *GXD_malloc (size_t size) { return mem_malloc (size > 0 ? size : 1) ; }

void *GXD_calloc (size_t n, size_t size)
{
    if (n == 0 || size == 0) { n = 1 ; size = 1 ; }
    if (mem_calloc != NULL) return mem_calloc (n, size) ;
    if (n > SIZE_MAX / size) return NULL ;
    void *p = mem_malloc (n * size) ;
    if (p != NULL) memset (p, 0, n * size) ;
    return p ;
}

void GXD_free (void *p) { if (p != NULL) mem_free (p) ; }

bool GXD_memory_fits (double bytes)
{
    // Linux grants memory it does not have (overcommit) and kills the
    // process when it is touched, so a result that is built up as it is
    // found checks itself against the machine's memory, not against malloc
    long pages = sysconf (_SC_PHYS_PAGES), page = sysconf (_SC_PAGESIZE) ;
    if (pages <= 0 || page <= 0) return true ;
    return bytes <= GXD_RESULT_SHARE * (double) pages * (double) page ;
}

void *GXD_malloc_result (size_t size)
{
    void *p = GXD_malloc (size) ;
    if (p != NULL && size >= GXD_HUGE_PAGE_MIN)
    {
        // only the whole 2 MiB pages inside the block; advice is a hint and
        // its failure (THP off, a foreign allocator's memory) changes nothing
        uintptr_t lo = ((uintptr_t) p + GXD_HUGE_PAGE - 1) & ~(GXD_HUGE_PAGE - 1) ;
        uintptr_t hi = ((uintptr_t) p + size) & ~(GXD_HUGE_PAGE - 1) ;
        if (hi > lo) madvise ((void *) lo, hi - lo, MADV_HUGEPAGE) ;
    }
    return p ;
}
