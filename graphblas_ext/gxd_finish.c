//------------------------------------------------------------------------------
// graphblas_ext/gxd_finish.c: C<Mask> = accum (C, T), by GraphBLAS' own rules
//------------------------------------------------------------------------------

// GrB_apply with the identity of T's type has exactly GrB_mxm's output
// semantics (mask, complement, structure, replace, accum, typecast), so
// GraphBLAS itself writes C; only the mask and output fields of the
// caller's descriptor are passed on (its transposes applied to A and B).

#include "gxd_internal.h"

GrB_Info GXD_finish (GrB_Matrix C, GrB_Matrix Mask, GrB_BinaryOp accum,
    GrB_Matrix T, const gxd_desc *d)
{
    #define GXD_FREE_ALL GrB_Descriptor_free (&desc) ;
    GrB_Descriptor desc = NULL ;
    GrB_Type type ;
    GXD_TRY (GxB_Matrix_type (&type, T)) ;
    GXD_TRY (GrB_Descriptor_new (&desc)) ;
    if (d->replace) GXD_TRY (GrB_Descriptor_set (desc, GrB_OUTP, GrB_REPLACE)) ;
    int mask = (d->mask_comp ? GrB_COMP : 0) + (d->mask_struct ? GrB_STRUCTURE : 0) ;
    if (mask != 0)
    {
        GXD_TRY (GrB_Descriptor_set (desc, GrB_MASK, (GrB_Desc_Value) mask)) ;
    }
    GXD_TRY (GrB_Matrix_apply (C, Mask, accum, GXD_identity_op (type), T, desc)) ;
    GrB_Descriptor_free (&desc) ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}
