// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// graphblas_ext/GxB_NAMM_free.c: free a NAMM (semirings made from it stay valid)
//------------------------------------------------------------------------------

#include "gxd_internal.h"

GrB_Info GxB_NAMM_free (GxB_NAMM *namm)
{
    GXD_error_clear () ;
    if (namm != NULL)
    {
        GXD_free (*namm) ;
        (*namm) = NULL ;
    }
    return GrB_SUCCESS ;
}
