// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// graphblas_ext/GxB_Semiring_new_NAMM.c: a semiring gxbdist knows is union-only
//------------------------------------------------------------------------------

// The result is an ordinary GrB_Semiring (plain GrB_mxm gives intersection
// semantics with it); the registry tells GxB_mxm_distance to apply the
// NAMM's op over the union with the NAMM's identity.  Its monoid is a
// private copy of add, which makes it recognisable (gxd_registry.c).

#include "gxd_internal.h"

GrB_BinaryOp GXD_namm_op (GxB_NAMM namm) ;
double GXD_namm_identity (GxB_NAMM namm) ;

GrB_Info GxB_Semiring_new_NAMM (GrB_Semiring *semiring, GrB_Monoid add,
    GxB_NAMM mult)
{
    GXD_error_clear () ;
    #define GXD_FREE_ALL GrB_Semiring_free (semiring) ; GrB_Monoid_free (&own) ;
    GrB_Monoid own = NULL ;
    if (semiring == NULL)
    {
        return GXD_error (GrB_NULL_POINTER, "GxB_Semiring_new_NAMM: semiring is NULL") ;
    }
    (*semiring) = NULL ;
    GXD_CHECK_INIT ;
    GXD_CHECK_NULL (add, "GxB_Semiring_new_NAMM: add") ;
    GXD_CHECK_NULL (mult, "GxB_Semiring_new_NAMM: mult") ;
    GrB_BinaryOp op = GXD_namm_op (mult) ;
    GXD_TRY (GXD_monoid_private (&own, add)) ;
    GrB_Info info = GrB_Semiring_new (semiring, own, op) ;
    if (info != GrB_SUCCESS && info != GrB_DOMAIN_MISMATCH) GXD_TRY (info) ;
    if (info == GrB_DOMAIN_MISMATCH)
    {
        GXD_FAIL (info, "GxB_Semiring_new_NAMM: the monoid's type must be the "
            "output type of the NAMM's operator (GrB_Semiring_new: %d)", info) ;
    }
    gxd_sr_entry e = { .semiring = *semiring, .mult = op, .add = own,
        .private_add = true, .kind = GXD_SR_NAMM,
        .metric = GXD_GENERIC, .p = 1, .fp64 = false,
        .identity = GXD_namm_identity (mult) } ;
    own = NULL ;                        // the entry owns it now
    GXD_TRY (GXD_registry_add (&e)) ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}
