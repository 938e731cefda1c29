//------------------------------------------------------------------------------
// graphblas_ext/gxd_mask.c: the pairs a (not complemented) mask selects
//------------------------------------------------------------------------------

// With a mask, only the masked pairs are computed (the sampled product):
// the mask's pattern (all its entries if structural, the nonzero ones if
// valued) becomes a CSR list of (i,j) for the backend.

#include "gxd_internal.h"

GrB_Info GXD_mask_pattern (gxd_rows *M, GrB_Matrix Mask, bool structural)
{
    #define GXD_FREE_ALL GXD_rows_free (M) ; GrB_Matrix_free (&B) ;
    GrB_Matrix B = NULL ;
    memset (M, 0, sizeof (*M)) ;
    GrB_Index nrows, ncols ;
    GXD_TRY (GrB_Matrix_nrows (&nrows, Mask)) ;
    GXD_TRY (GrB_Matrix_ncols (&ncols, Mask)) ;
    GXD_TRY (GrB_Matrix_new (&M->T, GrB_BOOL, nrows, ncols)) ;
    if (structural)
    {
        // true where Mask has an entry: a structural mask reads no value,
        // so Mask may have any type, user-defined ones included
        GXD_TRY (GrB_Matrix_assign_BOOL (M->T, Mask, NULL, true, GrB_ALL,
            nrows, GrB_ALL, ncols, GrB_DESC_S)) ;
    }
    else
    {
        // cast to bool (nonzero = true), then keep the true entries
        GXD_TRY (GrB_Matrix_new (&B, GrB_BOOL, nrows, ncols)) ;
        GXD_TRY (GrB_Matrix_apply (B, NULL, NULL, GrB_IDENTITY_BOOL, Mask, NULL)) ;
        GXD_TRY (GrB_Matrix_select_BOOL (M->T, NULL, NULL, GrB_VALUEEQ_BOOL, B,
            true, NULL)) ;
        GrB_Matrix_free (&B) ;
    }
    GXD_TRY (GXD_rows_unpack (M)) ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}
