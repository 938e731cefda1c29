// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// graphblas_ext/GxB_Desc_set_annihilator_free.c: union semantics for any semiring
//------------------------------------------------------------------------------

// A descriptor so marked makes GxB_mxm_distance apply the semiring's
// multiply over the union of columns, a missing entry being 0.

#include "gxd_internal.h"

GrB_Info GxB_Desc_set_annihilator_free (GrB_Descriptor d, bool on)
{
    return GXD_desc_set_mark ("GxB_Desc_set_annihilator_free", d, GXD_DESC_UNION, on) ;
}

GrB_Info GxB_Desc_get_annihilator_free (GrB_Descriptor d, bool *on)
{
    return GXD_desc_get_mark ("GxB_Desc_get_annihilator_free", d, GXD_DESC_UNION, on) ;
}
