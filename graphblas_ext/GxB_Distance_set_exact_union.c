// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// graphblas_ext/GxB_Distance_set_exact_union.c: every pair over the union
//------------------------------------------------------------------------------

#include "gxd_internal.h"

GrB_Info GxB_Distance_set_exact_union (bool on)
{
    GXD_error_clear () ;
    GXD_settings.exact = on ;
    return GrB_SUCCESS ;
}

GrB_Info GxB_Distance_get_exact_union (bool *on)
{
    GXD_error_clear () ;
    if (on == NULL) return GXD_error (GrB_NULL_POINTER, "GxB_Distance_get_exact_union: NULL") ;
    (*on) = GXD_settings.exact ;
    return GrB_SUCCESS ;
}
