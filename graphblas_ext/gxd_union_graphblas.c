//------------------------------------------------------------------------------
// graphblas_ext/gxd_union_graphblas.c: union semantics for user-defined ops
//------------------------------------------------------------------------------

// A user's GrB_BinaryOp is opaque (its function cannot be called from the
// backends), so SuiteSparse evaluates it: each row block of A and B is
// completed to a full matrix with the NAMM identity in the missing places,
// and GrB_mxm with the user's own semiring reduces over all k columns.
// That is the definition itself, at O(m n k) cost, or O(|mask| k) with a
// mask: built-in operators take the backends' fast paths (gxd_resolve.c).

#include "gxd_internal.h"

// SECOND of a built-in type: A's entries overwrite the identity in their
// own type (FP64 would round integers past 2^53 and drop imaginary parts)
static GrB_BinaryOp second_op (GrB_Type t)
{
    return t == GrB_BOOL   ? GrB_SECOND_BOOL   : t == GrB_INT8   ? GrB_SECOND_INT8
         : t == GrB_UINT8  ? GrB_SECOND_UINT8  : t == GrB_INT16  ? GrB_SECOND_INT16
         : t == GrB_UINT16 ? GrB_SECOND_UINT16 : t == GrB_INT32  ? GrB_SECOND_INT32
         : t == GrB_UINT32 ? GrB_SECOND_UINT32 : t == GrB_INT64  ? GrB_SECOND_INT64
         : t == GrB_UINT64 ? GrB_SECOND_UINT64 : t == GrB_FP32   ? GrB_SECOND_FP32
         : t == GrB_FP64   ? GrB_SECOND_FP64   : t == GxB_FC32   ? GxB_SECOND_FC32
         : t == GxB_FC64   ? GxB_SECOND_FC64   : NULL ;
}

// a full copy of the rows of A (transposed first if tran), missing = e
static GrB_Info complete (GrB_Matrix *F, GrB_Matrix A, bool tran,
    GrB_Type type, double e)
{
    #define GXD_FREE_ALL GrB_Matrix_free (F) ;
    GrB_Index nrows, ncols ;
    GXD_TRY (GrB_Matrix_nrows (&nrows, A)) ;
    GXD_TRY (GrB_Matrix_ncols (&ncols, A)) ;
    if (tran) { GrB_Index t = nrows ; nrows = ncols ; ncols = t ; }
    GrB_BinaryOp second = second_op (type) ;
    if (second == NULL)
    {
        GXD_FAIL (GrB_DOMAIN_MISMATCH, "GxB_mxm_distance: union semantics "
            "need an operator on built-in types (a missing entry takes the "
            "NAMM's identity, a number)") ;
    }
    GXD_TRY (GrB_Matrix_new (F, type, nrows, ncols)) ;
    GXD_TRY (GrB_Matrix_assign_FP64 (*F, NULL, NULL, e, GrB_ALL, nrows,
        GrB_ALL, ncols, NULL)) ;
    // accum SECOND: A's entries overwrite e, the rest of F stays (a plain
    // assign would delete F's entries outside A's pattern)
    GXD_TRY (GrB_Matrix_assign (*F, NULL, second, A, GrB_ALL, nrows,
        GrB_ALL, ncols, tran ? GrB_DESC_T0 : NULL)) ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

GrB_Info GXD_union_graphblas (GrB_Matrix *T, const gxd_call *call,
    GrB_Matrix Mask, GrB_Matrix A, GrB_Matrix B, const gxd_desc *d)
{
    #define GXD_FREE_ALL                                                    \
        GrB_Matrix_free (&Af) ; GrB_Matrix_free (&Bf) ;                     \
        GrB_Semiring_free (&s) ; GrB_Matrix_free (T) ;                      \
        GrB_Descriptor_free (&desc) ; GrB_Scalar_free (&id) ;
    GrB_Matrix Af = NULL, Bf = NULL ;
    GrB_Scalar id = NULL ;
    GrB_Semiring s = NULL ;
    GrB_Descriptor desc = NULL ;
    GXD_TRY (complete (&Af, A, d->tran_a, call->xtype, call->identity)) ;
    GXD_TRY (complete (&Bf, B, d->tran_b, call->ytype, call->identity)) ;
    GrB_Index m, n, k ;
    GXD_TRY (GrB_Matrix_nrows (&m, Af)) ;
    GXD_TRY (GrB_Matrix_nrows (&n, Bf)) ;
    GXD_TRY (GrB_Matrix_ncols (&k, Af)) ;
    GXD_TRY (GrB_Semiring_new (&s, call->add, call->mult)) ;
    GXD_TRY (GrB_Matrix_new (T, call->type, m, n)) ;
    if (k == 0)
    {
        // (+) over no columns is the monoid's identity, in its own type
        GrB_BinaryOp addop ;
        GrB_Type addtype ;
        size_t size ;
        GXD_TRY (GxB_Monoid_operator (&addop, call->add)) ;
        GXD_TRY (GxB_BinaryOp_ztype (&addtype, addop)) ;
        GXD_TRY (GxB_Type_size (&size, addtype)) ;
        void *value = GXD_calloc (1, size) ;
        if (value == NULL) GXD_FAIL (GrB_OUT_OF_MEMORY, "out of memory") ;
        GrB_Info info = GxB_Monoid_identity (value, call->add) ;
        if (info == GrB_SUCCESS) info = GrB_Scalar_new (&id, addtype) ;
        if (info == GrB_SUCCESS) info = GXD_scalar_set (id, addtype, value) ;
        GXD_free (value) ;
        GXD_TRY (info) ;
        GXD_TRY (GrB_Matrix_assign_Scalar (*T, NULL, NULL, id, GrB_ALL, m,
            GrB_ALL, n, NULL)) ;
        GrB_Scalar_free (&id) ;
    }
    else
    {
        // with a mask, SuiteSparse's masked dot products compute only the
        // pairs the mask keeps (a complemented mask: only the others)
        GXD_TRY (GrB_Descriptor_new (&desc)) ;
        GXD_TRY (GrB_Descriptor_set (desc, GrB_INP1, GrB_TRAN)) ;
        int mk = (d->mask_comp ? GrB_COMP : 0) + (d->mask_struct ? GrB_STRUCTURE : 0) ;
        if (Mask != NULL && mk != 0)
        {
            GXD_TRY (GrB_Descriptor_set (desc, GrB_MASK, (GrB_Desc_Value) mk)) ;
        }
        GXD_TRY (GrB_mxm (*T, Mask, NULL, s, Af, Bf, desc)) ;
        GrB_Descriptor_free (&desc) ;
    }
    GrB_Matrix_free (&Af) ;
    GrB_Matrix_free (&Bf) ;
    GrB_Semiring_free (&s) ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}
