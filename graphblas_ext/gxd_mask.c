// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// graphblas_ext/gxd_mask.c: the pairs a (not complemented) mask selects
//------------------------------------------------------------------------------

// With a mask, only the masked pairs are computed (the sampled product):
// the mask's pattern (all its entries if structural, the nonzero ones if
// valued) becomes a CSR list of (i,j) for the backend.  The same pattern,
// as a BOOL matrix, is the mask the result is written through, so the
// pairs computed and the pairs written are one reading of the mask.

#include "gxd_internal.h"

GrB_Info GXD_mask_bool (GrB_Matrix *M, GrB_Matrix Mask, bool structural)
{
    #define GXD_FREE_ALL GrB_Matrix_free (M) ; GrB_Matrix_free (&B) ;
    GrB_Matrix B = NULL ;
    GrB_Index nrows, ncols ;
    GXD_TRY (GrB_Matrix_nrows (&nrows, Mask)) ;
    GXD_TRY (GrB_Matrix_ncols (&ncols, Mask)) ;
    GXD_TRY (GrB_Matrix_new (M, GrB_BOOL, nrows, ncols)) ;
    // never full: SuiteSparse 7.4 can fault in C<M> += T with a full M
    // and a sparse T (GB_subassign_08n), the shape of a masked product
    GXD_TRY (GxB_Matrix_Option_set (*M, GxB_SPARSITY_CONTROL,
        GxB_SPARSE + GxB_HYPERSPARSE)) ;
    if (structural)
    {
        // true where Mask has an entry: a structural mask reads no value,
        // so Mask may have any type, user-defined ones included
        GXD_TRY (GrB_Matrix_assign_BOOL (*M, Mask, NULL, true, GrB_ALL,
            nrows, GrB_ALL, ncols, GrB_DESC_S)) ;
    }
    else
    {
        // cast to bool (nonzero = true: -0.0 is false, as in C), then keep
        // the true entries
        GXD_TRY (GrB_Matrix_new (&B, GrB_BOOL, nrows, ncols)) ;
        GXD_TRY (GrB_Matrix_apply (B, NULL, NULL, GrB_IDENTITY_BOOL, Mask, NULL)) ;
        GXD_TRY (GrB_Matrix_select_BOOL (*M, NULL, NULL, GrB_VALUEEQ_BOOL, B,
            true, NULL)) ;
        GrB_Matrix_free (&B) ;
    }
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

GrB_Info GXD_mask_pattern (gxd_rows *M, GrB_Matrix Mask, bool structural)
{
    #define GXD_FREE_ALL GXD_rows_free (M) ;
    memset (M, 0, sizeof (*M)) ;
    GXD_TRY (GXD_mask_bool (&M->T, Mask, structural)) ;
    GXD_TRY (GXD_rows_unpack (M)) ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}
