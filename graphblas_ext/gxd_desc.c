// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// graphblas_ext/gxd_desc.c: read the descriptor fields GrB_mxm honours
//------------------------------------------------------------------------------

#include "gxd_internal.h"

GrB_Info GXD_desc_read (gxd_desc *d, GrB_Descriptor desc)
{
    #define GXD_FREE_ALL ;
    memset (d, 0, sizeof (*d)) ;
    if (desc == NULL) return GrB_SUCCESS ;
    GrB_Desc_Value outp, mask, in0, in1 ;
    GXD_TRY (GxB_Desc_get (desc, GrB_OUTP, &outp)) ;
    GXD_TRY (GxB_Desc_get (desc, GrB_MASK, &mask)) ;
    GXD_TRY (GxB_Desc_get (desc, GrB_INP0, &in0)) ;
    GXD_TRY (GxB_Desc_get (desc, GrB_INP1, &in1)) ;
    d->replace = (outp == GrB_REPLACE) ;
    d->mask_comp = (mask & GrB_COMP) != 0 ;
    d->mask_struct = (mask & GrB_STRUCTURE) != 0 ;
    d->tran_a = (in0 == GrB_TRAN) ;
    d->tran_b = (in1 == GrB_TRAN) ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

GrB_Info GXD_desc_set_mark (const char *fn, GrB_Descriptor d, int flag,
    bool on)
{
    GXD_error_clear () ;
    if (d == NULL) return GXD_error (GrB_NULL_POINTER, "%s: descriptor is NULL", fn) ;
    GrB_Desc_Value v ;
    GrB_Info info = GxB_Desc_get (d, GrB_OUTP, &v) ;    // rejects an invalid d
    if (info != GrB_SUCCESS) return GXD_error (info, "%s: invalid descriptor", fn) ;
    return GXD_desc_mark (d, flag, on) ;
}

GrB_Info GXD_desc_get_mark (const char *fn, GrB_Descriptor d, int flag,
    bool *on)
{
    GXD_error_clear () ;
    if (d == NULL || on == NULL) return GXD_error (GrB_NULL_POINTER, "%s: NULL argument", fn) ;
    (*on) = GXD_desc_marked (d, flag) ;
    return GrB_SUCCESS ;
}
