// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// graphblas_ext/gxd_types.c: built-in types and their identity operators
//------------------------------------------------------------------------------

// Inputs are typecast as GraphBLAS does (complex to real keeps the real
// part); a user-defined type has no cast to a distance.

#include "gxd_internal.h"

static GrB_Type *const types [] =
{
    &GrB_BOOL, &GrB_INT8, &GrB_UINT8, &GrB_INT16, &GrB_UINT16, &GrB_INT32,
    &GrB_UINT32, &GrB_INT64, &GrB_UINT64, &GrB_FP32, &GrB_FP64, &GxB_FC32,
    &GxB_FC64
} ;
static GrB_UnaryOp *const identities [] =
{
    &GrB_IDENTITY_BOOL, &GrB_IDENTITY_INT8, &GrB_IDENTITY_UINT8,
    &GrB_IDENTITY_INT16, &GrB_IDENTITY_UINT16, &GrB_IDENTITY_INT32,
    &GrB_IDENTITY_UINT32, &GrB_IDENTITY_INT64, &GrB_IDENTITY_UINT64,
    &GrB_IDENTITY_FP32, &GrB_IDENTITY_FP64, &GxB_IDENTITY_FC32,
    &GxB_IDENTITY_FC64
} ;
#define NTYPES (int) (sizeof (types) / sizeof (types [0]))

GrB_UnaryOp GXD_identity_op (GrB_Type type)
{
    for (int t = 0 ; t < NTYPES ; t++)
    {
        if (*types [t] == type) return *identities [t] ;
    }
    return NULL ;
}

GrB_Info GXD_builtin_type (GrB_Type *type, GrB_Matrix A, const char *what)
{
    #define GXD_FREE_ALL ;
    GXD_TRY (GxB_Matrix_type (type, A)) ;
    if (GXD_identity_op (*type) == NULL)
    {
        GXD_FAIL (GrB_DOMAIN_MISMATCH, "%s: type is not a built-in type "
            "(a user-defined type cannot be typecast to a distance)",
            what) ;
    }
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

GrB_Info GXD_scalar_set (GrB_Scalar s, GrB_Type t, const void *x)
{
    if (t == GrB_BOOL)   return GrB_Scalar_setElement_BOOL   (s, *(const bool     *) x) ;
    if (t == GrB_INT8)   return GrB_Scalar_setElement_INT8   (s, *(const int8_t   *) x) ;
    if (t == GrB_UINT8)  return GrB_Scalar_setElement_UINT8  (s, *(const uint8_t  *) x) ;
    if (t == GrB_INT16)  return GrB_Scalar_setElement_INT16  (s, *(const int16_t  *) x) ;
    if (t == GrB_UINT16) return GrB_Scalar_setElement_UINT16 (s, *(const uint16_t *) x) ;
    if (t == GrB_INT32)  return GrB_Scalar_setElement_INT32  (s, *(const int32_t  *) x) ;
    if (t == GrB_UINT32) return GrB_Scalar_setElement_UINT32 (s, *(const uint32_t *) x) ;
    if (t == GrB_INT64)  return GrB_Scalar_setElement_INT64  (s, *(const int64_t  *) x) ;
    if (t == GrB_UINT64) return GrB_Scalar_setElement_UINT64 (s, *(const uint64_t *) x) ;
    if (t == GrB_FP32)   return GrB_Scalar_setElement_FP32   (s, *(const float    *) x) ;
    if (t == GrB_FP64)   return GrB_Scalar_setElement_FP64   (s, *(const double   *) x) ;
    if (t == GxB_FC32)   return GxB_Scalar_setElement_FC32   (s, *(const GxB_FC32_t *) x) ;
    if (t == GxB_FC64)   return GxB_Scalar_setElement_FC64   (s, *(const GxB_FC64_t *) x) ;
    return GrB_Scalar_setElement_UDT (s, (void *) x) ;
}
