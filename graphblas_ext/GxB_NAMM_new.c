// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// graphblas_ext/GxB_NAMM_new.c: a multiplicative operator with no annihilator
//------------------------------------------------------------------------------

// A NAMM (seed 001 section 4.2) is an operator plus the value a missing
// entry takes; GxB_Semiring_new_NAMM pairs it with a monoid.

#include "gxd_internal.h"
#include <math.h>

struct GxB_NAMM_opaque
{
    GrB_BinaryOp op ;
    double identity ;
} ;

GrB_BinaryOp GXD_namm_op (GxB_NAMM namm) { return namm->op ; }
double GXD_namm_identity (GxB_NAMM namm) { return namm->identity ; }

GrB_Info GxB_NAMM_new (GxB_NAMM *namm, GrB_BinaryOp op, double identity)
{
    GXD_error_clear () ;
    #define GXD_FREE_ALL ;
    GXD_CHECK_NULL (namm, "GxB_NAMM_new: namm") ;
    (*namm) = NULL ;
    GXD_CHECK_NULL (op, "GxB_NAMM_new: op") ;
    GrB_Type ztype ;
    GXD_TRY (GxB_BinaryOp_ztype (&ztype, op)) ;     // rejects an invalid op
    if (isnan (identity))
    {
        GXD_FAIL (GrB_INVALID_VALUE, "GxB_NAMM_new: identity is NaN") ;
    }
    GxB_NAMM t = GXD_malloc (sizeof (struct GxB_NAMM_opaque)) ;
    if (t == NULL) GXD_FAIL (GrB_OUT_OF_MEMORY, "GxB_NAMM_new: out of memory") ;
    t->op = op ;
    t->identity = identity ;
    (*namm) = t ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}
