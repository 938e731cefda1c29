// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// graphblas_ext/GxB_Desc_set_exclude_self.c: neighborhoods without i itself
//------------------------------------------------------------------------------

// A descriptor so marked makes GxB_kNN and GxB_radius_graph skip the pairs
// j == i: a self-query (A and B the same rows) then finds each row's
// neighbors other than itself, as scikit-learn's kneighbors () does.

#include "gxd_internal.h"

GrB_Info GxB_Desc_set_exclude_self (GrB_Descriptor d, bool on)
{
    return GXD_desc_set_mark ("GxB_Desc_set_exclude_self", d, GXD_DESC_EXCLUDE_SELF, on) ;
}

GrB_Info GxB_Desc_get_exclude_self (GrB_Descriptor d, bool *on)
{
    return GXD_desc_get_mark ("GxB_Desc_get_exclude_self", d, GXD_DESC_EXCLUDE_SELF, on) ;
}
