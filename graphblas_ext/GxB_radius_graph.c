// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// graphblas_ext/GxB_radius_graph.c: every pair within a distance
//------------------------------------------------------------------------------

// The product a tile at a time, the pairs within eps kept as the tiles go
// by (gxd_neighbors.c, gxd_radius_select.c); C<Mask> = the result, with
// GrB_mxm's output rules.

#include "gxd_neighbors.h"
#include <math.h>

GrB_Info GxB_radius_graph
(
    GrB_Matrix C,
    const GrB_Matrix Mask,
    const GrB_Semiring dist,
    double eps,
    const GrB_Matrix A,
    const GrB_Matrix B,
    const GrB_Descriptor desc
)
{
    return GXD_neighbors ("GxB_radius_graph", C, Mask, dist, 0, eps, A, B,
        desc) ;
}
