// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// graphblas_ext/gxd_info_name.h: the name of a GrB_Info, for messages
//------------------------------------------------------------------------------

// GraphBLAS gives no name for its return codes; the library's messages, the
// test suite's failures and the command's errors all print one.  One table
// here, inline (the command and the tests include it without reaching
// anything the shared library does not export).  NULL for a code it does not
// know: each caller words that case its own way.

#ifndef GXD_INFO_NAME_H
#define GXD_INFO_NAME_H

#include "gxbdist.h"

static inline const char *GXD_info_name (GrB_Info info)
{
    switch ((int) info)
    {
        case GrB_SUCCESS:               return "GrB_SUCCESS" ;
        case GrB_NO_VALUE:              return "GrB_NO_VALUE" ;
        case GrB_UNINITIALIZED_OBJECT:  return "GrB_UNINITIALIZED_OBJECT" ;
        case GrB_NULL_POINTER:          return "GrB_NULL_POINTER" ;
        case GrB_INVALID_VALUE:         return "GrB_INVALID_VALUE" ;
        case GrB_INVALID_INDEX:         return "GrB_INVALID_INDEX" ;
        case GrB_DOMAIN_MISMATCH:       return "GrB_DOMAIN_MISMATCH" ;
        case GrB_DIMENSION_MISMATCH:    return "GrB_DIMENSION_MISMATCH" ;
        case GrB_OUTPUT_NOT_EMPTY:      return "GrB_OUTPUT_NOT_EMPTY" ;
        case GrB_NOT_IMPLEMENTED:       return "GrB_NOT_IMPLEMENTED" ;
        case GrB_PANIC:                 return "GrB_PANIC" ;
        case GrB_OUT_OF_MEMORY:         return "GrB_OUT_OF_MEMORY" ;
        case GrB_INSUFFICIENT_SPACE:    return "GrB_INSUFFICIENT_SPACE" ;
        case GrB_INVALID_OBJECT:        return "GrB_INVALID_OBJECT" ;
        case GrB_INDEX_OUT_OF_BOUNDS:   return "GrB_INDEX_OUT_OF_BOUNDS" ;
        case GrB_EMPTY_OBJECT:          return "GrB_EMPTY_OBJECT" ;
        case (int) GxB_VERIFY_FAILED:   return "GxB_VERIFY_FAILED" ;
        default:                        return NULL ;
    }
}

#endif
