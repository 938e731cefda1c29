// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// graphblas_ext/gxd_error.c: the message of the last failed call
//------------------------------------------------------------------------------

// GraphBLAS keeps an error string per object, but gives no way to set one;
// gxbdist keeps the last message per thread, read with GxB_Distance_error.

#include "gxd_internal.h"
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

static const char *info_name (GrB_Info info)
{
    switch ((int) info)
    {
        case GrB_UNINITIALIZED_OBJECT: return "GrB_UNINITIALIZED_OBJECT" ;
        case GrB_NULL_POINTER:      return "GrB_NULL_POINTER" ;
        case GrB_INVALID_VALUE:     return "GrB_INVALID_VALUE" ;
        case GrB_INVALID_INDEX:     return "GrB_INVALID_INDEX" ;
        case GrB_DOMAIN_MISMATCH:   return "GrB_DOMAIN_MISMATCH" ;
        case GrB_DIMENSION_MISMATCH: return "GrB_DIMENSION_MISMATCH" ;
        case GrB_OUTPUT_NOT_EMPTY:  return "GrB_OUTPUT_NOT_EMPTY" ;
        case GrB_NOT_IMPLEMENTED:   return "GrB_NOT_IMPLEMENTED" ;
        case GrB_PANIC:             return "GrB_PANIC" ;
        case GrB_OUT_OF_MEMORY:     return "GrB_OUT_OF_MEMORY" ;
        case GrB_INSUFFICIENT_SPACE: return "GrB_INSUFFICIENT_SPACE" ;
        case GrB_INVALID_OBJECT:    return "GrB_INVALID_OBJECT" ;
        case GrB_INDEX_OUT_OF_BOUNDS: return "GrB_INDEX_OUT_OF_BOUNDS" ;
        case GrB_EMPTY_OBJECT:      return "GrB_EMPTY_OBJECT" ;
        case GxB_VERIFY_FAILED:     return "GxB_VERIFY_FAILED" ;
        default:                    return "error" ;
    }
}

// A failed call that did not set its own message gets one naming the call;
// a more specific message set just before (same info) is kept.
GrB_Info GXD_error_grb (GrB_Info info, const char *call)
{
    if (message [0] == '\0')
    {
        snprintf (message, sizeof (message), "%s from %s", info_name (info),
            call) ;
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
