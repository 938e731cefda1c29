// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// graphblas_ext/GxB_Distance_set_verify.c: check every result against SuiteSparse
//------------------------------------------------------------------------------

#include "gxd_internal.h"

GrB_Info GxB_Distance_set_verify (bool on)
{
    GXD_error_clear () ;
    GXD_settings.verify = on ;
    return GrB_SUCCESS ;
}

GrB_Info GxB_Distance_get_verify (bool *on)
{
    GXD_error_clear () ;
    if (on == NULL) return GXD_error (GrB_NULL_POINTER, "GxB_Distance_get_verify: NULL") ;
    (*on) = GXD_settings.verify ;
    return GrB_SUCCESS ;
}
