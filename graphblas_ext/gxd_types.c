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
