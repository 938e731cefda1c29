// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// reference/oracle/oracle_union.c: GXO_union, the NAMM definition itself
//------------------------------------------------------------------------------

// D(i,j) = add_{c<k} mult (a~_c, b~_c), a~ and b~ the rows with every missing
// entry set to identity (seed 001 section 4.2: a NAMM has no annihilator, so
// the product runs over the union of the columns, and over the columns
// missing from both it still reduces mult (identity, identity)).  Computed
// literally: both operands completed to full tiles, then GrB_mxm with the
// semiring (add, mult), which on full operands leaves no column out.

#include "oracle_internal.h"

// a type a double can be typecast to (the identity, for completion)
static bool builtin (GrB_Type t)
{
    const GrB_Type list [ ] =
    {
        GrB_BOOL, GrB_INT8, GrB_INT16, GrB_INT32, GrB_INT64, GrB_UINT8,
        GrB_UINT16, GrB_UINT32, GrB_UINT64, GrB_FP32, GrB_FP64, GxB_FC32,
        GxB_FC64
    } ;
    for (size_t q = 0 ; q < sizeof (list) / sizeof (list [0]) ; q++)
    {
        if (t == list [q]) return (true) ;
    }
    return (false) ;
}

//------------------------------------------------------------------------------
// fill_identity: every entry of D = the identity of add (what k = 0 gives)
//------------------------------------------------------------------------------

// GrB_Matrix_assign_UDT refuses a matrix of built-in type, so the identity's
// bytes are passed through the assign of its own C type.
#define FILL(gtype, ctype, assign)                                          \
    if (type == gtype)                                                      \
    {                                                                       \
        return (assign (D, NULL, NULL, *(const ctype *) id, GrB_ALL, m,     \
            GrB_ALL, n, NULL)) ;                                            \
    }

static GrB_Info assign_bytes (GrB_Matrix D, GrB_Type type, const void *id)
{
    GrB_Index m, n ;
    GrB_Info info = GrB_Matrix_nrows (&m, D) ;
    if (info != GrB_SUCCESS) return (info) ;
    info = GrB_Matrix_ncols (&n, D) ;
    if (info != GrB_SUCCESS) return (info) ;
    FILL (GrB_BOOL,   bool,       GrB_Matrix_assign_BOOL)
    FILL (GrB_INT8,   int8_t,     GrB_Matrix_assign_INT8)
    FILL (GrB_INT16,  int16_t,    GrB_Matrix_assign_INT16)
    FILL (GrB_INT32,  int32_t,    GrB_Matrix_assign_INT32)
    FILL (GrB_INT64,  int64_t,    GrB_Matrix_assign_INT64)
    FILL (GrB_UINT8,  uint8_t,    GrB_Matrix_assign_UINT8)
    FILL (GrB_UINT16, uint16_t,   GrB_Matrix_assign_UINT16)
    FILL (GrB_UINT32, uint32_t,   GrB_Matrix_assign_UINT32)
    FILL (GrB_UINT64, uint64_t,   GrB_Matrix_assign_UINT64)
    FILL (GrB_FP32,   float,      GrB_Matrix_assign_FP32)
    FILL (GrB_FP64,   double,     GrB_Matrix_assign_FP64)
    FILL (GxB_FC32,   GxB_FC32_t, GxB_Matrix_assign_FC32)
    FILL (GxB_FC64,   GxB_FC64_t, GxB_Matrix_assign_FC64)
    return (GrB_Matrix_assign_UDT (D, NULL, NULL, (void *) id, GrB_ALL, m,
        GrB_ALL, n, NULL)) ;
}

#undef  FREE_ALL
#define FREE_ALL free (id) ;

GrB_Info GXO_fill_identity (GrB_Matrix D, GrB_Monoid add, GrB_Type type)
{
    void *id = NULL ;
    size_t size ;
    TRY (GxB_Type_size (&size, type)) ;
    id = calloc (1, size > sizeof (GxB_FC64_t) ? size : sizeof (GxB_FC64_t)) ;
    CHECK (id != NULL, GrB_OUT_OF_MEMORY) ;
    TRY (GxB_Monoid_identity (id, add)) ;
    TRY (assign_bytes (D, type, id)) ;
    free (id) ;
    return (GrB_SUCCESS) ;
}

//------------------------------------------------------------------------------
// GXO_union
//------------------------------------------------------------------------------

#undef  FREE_ALL
#define FREE_ALL GrB_Semiring_free (&semiring) ; GrB_Matrix_free (&C) ;

GrB_Info GXO_union (GrB_Matrix *D, GrB_Monoid add, GrB_BinaryOp mult,
    double identity, GrB_Matrix A, GrB_Matrix B)
{
    GrB_Semiring semiring = NULL ;
    GrB_Matrix C = NULL ;
    CHECK (D != NULL && add != NULL && mult != NULL && A != NULL && B != NULL,
        GrB_NULL_POINTER) ;
    *D = NULL ;
    GrB_Type xtype, ytype, ztype ;
    GrB_Index m, n, ka, kb ;
    TRY (GxB_BinaryOp_xtype (&xtype, mult)) ;
    TRY (GxB_BinaryOp_ytype (&ytype, mult)) ;
    TRY (GxB_BinaryOp_ztype (&ztype, mult)) ;
    CHECK (builtin (xtype) && builtin (ytype), GrB_DOMAIN_MISMATCH) ;
    TRY (GrB_Matrix_nrows (&m, A)) ;
    TRY (GrB_Matrix_nrows (&n, B)) ;
    TRY (GrB_Matrix_ncols (&ka, A)) ;
    TRY (GrB_Matrix_ncols (&kb, B)) ;
    CHECK (ka == kb, GrB_DIMENSION_MISMATCH) ;
    // GrB_Semiring_new checks that add's type is mult's ztype
    TRY (GrB_Semiring_new (&semiring, add, mult)) ;
    TRY (GrB_Matrix_new (&C, ztype, m, n)) ;
    TRY (GXO_fill_identity (C, add, ztype)) ;
    gxo_side sa = { A, xtype, identity } ;
    gxo_side sb = { B, ytype, identity } ;
    TRY (GXO_pairs (C, &sa, &sb, semiring)) ;
    GrB_Semiring_free (&semiring) ;
    *D = C ;
    return (GrB_SUCCESS) ;
}
