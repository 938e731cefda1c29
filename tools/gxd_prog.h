// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// tools/gxd_prog.h: what the example and benchmark programs share
//------------------------------------------------------------------------------

// A program's one error idiom: a call that fails prints the program's name,
// the call, its GrB_Info and gxbdist's message, and exits (GXD_PROG names
// the program before this header is included); and a monotonic clock.

#ifndef GXD_PROG_H
#define GXD_PROG_H

#include <gxbdist.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifndef GXD_PROG
#define GXD_PROG "gxbdist"
#endif

#define TRY(call)                                                           \
{                                                                           \
    GrB_Info info_ = (call) ;                                               \
    if (info_ != GrB_SUCCESS)                                               \
    {                                                                       \
        const char *msg_ = "" ;                                             \
        GxB_Distance_error (&msg_) ;                                        \
        fflush (stdout) ;                                                   \
        fprintf (stderr, "%s:%d: %s failed (GrB_Info %d)\n  %s\n",          \
            GXD_PROG, __LINE__, #call, (int) info_, msg_) ;                 \
        exit (1) ;                                                          \
    }                                                                       \
}

// seconds on a monotonic clock
static inline double now (void)
{
    struct timespec t ;
    clock_gettime (CLOCK_MONOTONIC, &t) ;
    return (double) t.tv_sec + 1e-9 * (double) t.tv_nsec ;
}

#endif
