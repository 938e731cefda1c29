//------------------------------------------------------------------------------
// graphblas_ext/GxB_Desc_set_annihilator_free.c: union semantics for any semiring
//------------------------------------------------------------------------------

// A descriptor so marked makes GxB_mxm_distance apply the semiring's
// multiply over the union of columns, a missing entry being 0.

#include "gxd_internal.h"

GrB_Info GxB_Desc_set_annihilator_free (GrB_Descriptor d, bool on)
{
    GXD_error_clear () ;
    if (d == NULL)
    {
        return GXD_error (GrB_NULL_POINTER,
            "GxB_Desc_set_annihilator_free: descriptor is NULL") ;
    }
    GrB_Desc_Value v ;
    GrB_Info info = GxB_Desc_get (d, GrB_OUTP, &v) ;    // rejects an invalid d
    if (info != GrB_SUCCESS)
    {
        return GXD_error (info, "GxB_Desc_set_annihilator_free: invalid descriptor") ;
    }
    return GXD_desc_mark (d, on) ;
}

GrB_Info GxB_Desc_get_annihilator_free (GrB_Descriptor d, bool *on)
{
    GXD_error_clear () ;
    if (d == NULL || on == NULL)
    {
        return GXD_error (GrB_NULL_POINTER,
            "GxB_Desc_get_annihilator_free: NULL argument") ;
    }
    (*on) = GXD_desc_marked (d) ;
    return GrB_SUCCESS ;
}
