//------------------------------------------------------------------------------
// graphblas_ext/gxd_finish.c: C<Mask> = accum (C, T), by GraphBLAS' own rules
//------------------------------------------------------------------------------

// GrB_apply with the identity of T's type has exactly GrB_mxm's output
// semantics (mask, complement, structure, replace, accum, typecast), so
// GraphBLAS itself writes C; only the mask and output fields of the
// caller's descriptor are passed on (its transposes applied to A and B).

#include "gxd_internal.h"

// C = T when T is full, of C's type, with no mask and no accum: move T's
// array into C (no copy of the m*n values).  Returns false when it does not
// apply.  Pack is preceded by a clear; pack only fails on invalid arguments,
// which these are not.
static bool move_full (GrB_Matrix C, GrB_Matrix Mask, GrB_BinaryOp accum,
    GrB_Matrix T, GrB_Type type)
{
    GrB_Type ctype ;
    int sparsity ;
    if (Mask != NULL || accum != NULL) return false ;
    if (GxB_Matrix_type (&ctype, C) != GrB_SUCCESS || ctype != type) return false ;
    if (GxB_Matrix_Option_get (T, GxB_SPARSITY_STATUS, &sparsity) != GrB_SUCCESS
        || sparsity != GxB_FULL) return false ;
    void *Tx = NULL ;
    GrB_Index size = 0 ;
    bool iso = false ;
    if (GxB_Matrix_unpack_FullR (T, &Tx, &size, &iso, NULL) != GrB_SUCCESS)
    {
        return false ;
    }
    if (GrB_Matrix_clear (C) != GrB_SUCCESS
        || GxB_Matrix_pack_FullR (C, &Tx, size, iso, NULL) != GrB_SUCCESS)
    {
        // put the values back in T so the general path can still run
        GxB_Matrix_pack_FullR (T, &Tx, size, iso, NULL) ;
        return false ;
    }
    return true ;
}

GrB_Info GXD_finish (GrB_Matrix C, GrB_Matrix Mask, GrB_BinaryOp accum,
    GrB_Matrix T, const gxd_desc *d)
{
    #define GXD_FREE_ALL GrB_Descriptor_free (&desc) ;
    GrB_Descriptor desc = NULL ;
    GrB_Type type ;
    GXD_TRY (GxB_Matrix_type (&type, T)) ;
    if (move_full (C, Mask, accum, T, type)) return GrB_SUCCESS ;
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
