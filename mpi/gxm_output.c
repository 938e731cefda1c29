// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// mpi/gxm_output.c: the merged neighbors into C_local, all at once
//------------------------------------------------------------------------------

// GxB_kNN replaces C with its result, typecast to C's type.  The new
// content is built in a matrix Z of C's type and orientation (where a
// failure leaves C as it was), and only once every rank has built its Z
// do the arrays move into C, by unpack and pack, which allocate nothing.

#include "gxm_internal.h"

GrB_Info GXM_output_new (GrB_Matrix *Z, GrB_Matrix C, GrB_Matrix T)
{
    #define GXM_FREE_ALL GrB_Matrix_free (Z) ;
    GrB_Type ctype, ttype ;
    GrB_Index m, n ;
    int format ;
    GXM_TRY (GxB_Matrix_type (&ctype, C)) ;
    GXM_TRY (GxB_Matrix_type (&ttype, T)) ;
    GXM_TRY (GrB_Matrix_nrows (&m, C)) ;
    GXM_TRY (GrB_Matrix_ncols (&n, C)) ;
    GXM_TRY (GxB_Matrix_Option_get (C, GxB_FORMAT, &format)) ;
    GXM_TRY (GrB_Matrix_new (Z, ctype, m, n)) ;
    GXM_TRY (GxB_Matrix_Option_set (*Z, GxB_FORMAT, format)) ;
    GXM_TRY (GxB_Matrix_Option_set (*Z, GxB_SPARSITY_CONTROL, GxB_SPARSE)) ;
    GXM_TRY (GrB_Matrix_apply (*Z, NULL, NULL, (ttype == GrB_FP32)
        ? GrB_IDENTITY_FP32 : GrB_IDENTITY_FP64, T, NULL)) ;
    GXM_TRY (GrB_Matrix_wait (*Z, GrB_MATERIALIZE)) ;
    return GrB_SUCCESS ;
    #undef GXM_FREE_ALL
}

GrB_Info GXM_output_move (GrB_Matrix C, GrB_Matrix Z)
{
    // the arrays are freed only if a pack failed, which takes arguments
    // these are not
    #define GXM_FREE_ALL free (p) ; free (i) ; free (x) ;
    GrB_Index *p = NULL, *i = NULL, p_size, i_size, x_size ;
    void *x = NULL ;
    bool iso = false, jumbled = false ;
    int format ;
    GXM_TRY (GxB_Matrix_Option_get (Z, GxB_FORMAT, &format)) ;
    bool row = (format == GxB_BY_ROW) ;
    GXM_TRY ((row ? GxB_Matrix_unpack_CSR : GxB_Matrix_unpack_CSC) (Z, &p, &i,
        &x, &p_size, &i_size, &x_size, &iso, &jumbled, NULL)) ;
    GXM_TRY ((row ? GxB_Matrix_pack_CSR : GxB_Matrix_pack_CSC) (C, &p, &i,
        &x, p_size, i_size, x_size, iso, jumbled, NULL)) ;
    return GrB_SUCCESS ;
    #undef GXM_FREE_ALL
}
