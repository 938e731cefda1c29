// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// mpi/gxm_error.c: messages of libgxbdist_mpi, read with GxB_Distance_error
//------------------------------------------------------------------------------

// The MPI library keeps no message of its own: it hands its messages to
// gxbdist (GxB_Distance_set_error), so a caller reads every failure the
// same way.  A failed gxbdist call has already left its own message, which
// is kept; a failed GraphBLAS or MPI call gets one naming the call.

#include "gxm_internal.h"
#include <stdarg.h>

GrB_Info GXM_error (GrB_Info info, const char *fmt, ...)
{
    char msg [GXM_MSG_LEN] ;
    va_list ap ;
    va_start (ap, fmt) ;
    vsnprintf (msg, sizeof (msg), fmt, ap) ;
    va_end (ap) ;
    return GxB_Distance_set_error (info, msg) ;
}

GrB_Info GXM_error_call (GrB_Info info, const char *call)
{
    const char *msg = NULL ;
    if (GxB_Distance_error (&msg) == GrB_SUCCESS && msg != NULL
        && msg [0] != '\0')
    {
        return info ;
    }
    return GXM_error (info, "GxB_kNN_MPI: error %d from %s", (int) info, call) ;
}
