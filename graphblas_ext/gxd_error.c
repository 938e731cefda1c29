// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// graphblas_ext/gxd_error.c: the message of the last failed call
//------------------------------------------------------------------------------

// GraphBLAS keeps an error string per object, but gives no way to set one;
// gxbdist keeps the last message per thread, read with GxB_Distance_error.

#include "gxd_internal.h"
#include "gxd_info_name.h"
#include <stdarg.h>

static _Thread_local char message [1024] ;

GrB_Info GXD_error (GrB_Info info, const char *fmt, ...)
{
    va_list ap ;
    va_start (ap, fmt) ;
    vsnprintf (message, sizeof (message), fmt, ap) ;
    va_end (ap) ;
    return info ;
}

void GXD_error_clear (void)
{
    message [0] = '\0' ;
}

// A failed call that did not set its own message gets one naming the call;
// a more specific message set just before (same info) is kept.
GrB_Info GXD_error_grb (GrB_Info info, const char *call)
{
    if (message [0] == '\0')
    {
        const char *name = GXD_info_name (info) ;
        snprintf (message, sizeof (message), "%s from %s",
            name != NULL ? name : "error", call) ;
    }
    return info ;
}

GrB_Info GxB_Distance_error (const char **msg)
{
    if (msg == NULL) return GrB_NULL_POINTER ;
    (*msg) = message ;
    return GrB_SUCCESS ;
}

GrB_Info GxB_Distance_set_error (GrB_Info info, const char *msg)
{
    snprintf (message, sizeof (message), "%s", (msg == NULL) ? "" : msg) ;
    return info ;
}
