// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// graphblas_ext/GxB_Semiring_new_minkowski.c: Minkowski distance of degree p
//------------------------------------------------------------------------------

// p is not an operand of a GraphBLAS operator, so the semiring's (x) is
// |x-y| (plain GrB_mxm gives the intersection sum of |x-y|) and p lives in
// the registry entry.  p = +inf is the limit of the p-norms, Chebyshev: the
// semiring is MAX.|x-y|, registered as Chebyshev (the same results as
// GxB_DIST_CHEBYSHEV_*, verified against the reference's Chebyshev).  p <=
// 0, -inf and NaN are not norms: GrB_INVALID_VALUE.

#include "gxd_internal.h"
#include <math.h>

extern GrB_BinaryOp GXD_absdiff_op [2] ;

GrB_Info GxB_Semiring_new_minkowski (GrB_Semiring *semiring, double p,
    GrB_Type type)
{
    GXD_error_clear () ;
    #define GXD_FREE_ALL GrB_Semiring_free (semiring) ; GrB_Monoid_free (&own) ;
    GrB_Monoid own = NULL ;
    if (semiring == NULL)
    {
        return GXD_error (GrB_NULL_POINTER, "GxB_Semiring_new_minkowski: semiring is NULL") ;
    }
    (*semiring) = NULL ;
    GXD_CHECK_INIT ;
    GXD_CHECK_NULL (type, "GxB_Semiring_new_minkowski: type") ;
    if (!(p > 0))
    {
        GXD_FAIL (GrB_INVALID_VALUE, "GxB_Semiring_new_minkowski: p = %g, "
            "must be > 0 (p = inf is Chebyshev)", p) ;
    }
    if (type != GrB_FP32 && type != GrB_FP64)
    {
        GXD_FAIL (GrB_DOMAIN_MISMATCH, "GxB_Semiring_new_minkowski: type must "
            "be GrB_FP32 or GrB_FP64") ;
    }
    int t = (type == GrB_FP64) ;
    GrB_BinaryOp op = GXD_absdiff_op [t] ;
    bool cheb = isinf (p) ;
    GXD_TRY (GXD_monoid_private (&own, cheb
        ? (t ? GrB_MAX_MONOID_FP64 : GrB_MAX_MONOID_FP32)
        : (t ? GrB_PLUS_MONOID_FP64 : GrB_PLUS_MONOID_FP32))) ;
    GXD_TRY (GrB_Semiring_new (semiring, own, op)) ;
    gxd_sr_entry e = { .semiring = *semiring, .mult = op, .add = own,
        .private_add = true, .kind = GXD_SR_METRIC,
        .metric = cheb ? GXD_CHEBYSHEV : GXD_MINKOWSKI, .p = cheb ? 1 : p,
        .fp64 = (t == 1), .identity = 0 } ;
    own = NULL ;                        // the entry owns it now
    GXD_TRY (GXD_registry_add (&e)) ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}
