// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// graphblas_ext/GxB_Distance_set_verify_rows.c: how many rows verify samples
//------------------------------------------------------------------------------

// Where verify mode cannot afford the reference on every row (gxd_verify.c,
// gxd_verify_neighbors.c), it checks every entry of a sample of rows of A;
// this sets the sample's size (0: every row).  Which rows: gxd_verify_sample.c.

#include "gxd_internal.h"

GrB_Info GxB_Distance_set_verify_rows (uint64_t nrows)
{
    GXD_error_clear () ;
    GXD_settings.verify_rows = nrows ;
    return GrB_SUCCESS ;
}

GrB_Info GxB_Distance_get_verify_rows (uint64_t *nrows)
{
    GXD_error_clear () ;
    if (nrows == NULL)
    {
        return GXD_error (GrB_NULL_POINTER, "GxB_Distance_get_verify_rows: NULL") ;
    }
    (*nrows) = GXD_settings.verify_rows ;
    return GrB_SUCCESS ;
}
