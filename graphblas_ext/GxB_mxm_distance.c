// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// graphblas_ext/GxB_mxm_distance.c: C<Mask> = accum (C, A (+).(x) B')
//------------------------------------------------------------------------------

// The one entry point.  Data flows one way: check every argument before any
// work; take owned CSR copies of A and B (the caller's matrices are never
// modified, on any path); a backend computes all pairs or just the mask's
// (not complemented) pattern; verify mode compares with the SuiteSparse
// reference; GraphBLAS itself applies mask, accum and replace to C.  C is
// written only after everything else has succeeded, and a failure leaves it
// exactly as it was (gxd_finish.c).

#include "gxd_internal.h"

GrB_Info GxB_mxm_distance
(
    GrB_Matrix C,
    const GrB_Matrix Mask,
    const GrB_BinaryOp accum,
    const GrB_Semiring semiring,
    const GrB_Matrix A,
    const GrB_Matrix B,
    const GrB_Descriptor desc
)
{
    #define GXD_FREE_ALL GrB_Matrix_free (&T) ; GrB_Matrix_free (&M) ;
    GrB_Matrix T = NULL, M = NULL ;
    GXD_error_clear () ;
    GXD_CHECK_INIT ;
    GXD_CHECK_NULL (C, "GxB_mxm_distance: C") ;
    GXD_CHECK_NULL (semiring, "GxB_mxm_distance: semiring") ;
    GXD_CHECK_NULL (A, "GxB_mxm_distance: A") ;
    GXD_CHECK_NULL (B, "GxB_mxm_distance: B") ;
    gxd_desc d ;
    GXD_TRY (GXD_desc_read (&d, desc)) ;
    GXD_TRY (GXD_check_args ("GxB_mxm_distance", C, Mask, accum, A, B, &d)) ;
    gxd_call call ;
    GXD_TRY (GXD_resolve (&call, "GxB_mxm_distance", semiring, desc)) ;
    if (call.path == GXD_PATH_INTERSECT)
    {
        // GrB_mxm itself, every rule included
        GXD_TRY (GXD_intersect (C, Mask, accum, semiring, A, B, &d)) ;
        return GrB_SUCCESS ;
    }
    GXD_TRY (GXD_union_types (&call)) ;
    if (Mask == NULL && d.mask_comp)
    {
        // GrB_mxm's rule: the complement of no mask selects no entry, so
        // nothing is computed and C is only cleared if asked to be
        if (d.replace) GXD_TRY (GrB_Matrix_clear (C)) ;
        return GrB_SUCCESS ;
    }
    if (Mask != NULL)
    {
        // one reading of the mask for the pairs computed and those written
        GXD_TRY (GXD_mask_bool (&M, Mask, d.mask_struct)) ;
        d.mask_struct = true ;
    }
    GXD_TRY (GXD_product (&T, &call, M, A, B, &d)) ;
    if (GXD_settings.verify)
    {
        GXD_TRY (GXD_verify (&call, T, A, B, d.tran_a, d.tran_b)) ;
    }
    GXD_TRY (GXD_finish (C, M, accum, T, &d)) ;
    GXD_FREE_ALL ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}
