// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// graphblas_ext/GxB_kNN.c: the k nearest rows of B to each row of A
//------------------------------------------------------------------------------

// The product a tile at a time, the k best of each row kept as the tiles go
// by (gxd_neighbors.c, gxd_knn_select.c); C<Mask> = the result, with
// GrB_mxm's output rules.

#include "gxd_neighbors.h"

GrB_Info GxB_kNN
(
    GrB_Matrix C,
    const GrB_Matrix Mask,
    const GrB_Semiring dist,
    uint64_t k,
    const GrB_Matrix A,
    const GrB_Matrix B,
    const GrB_Descriptor desc
)
{
    // k = 0 would be a radius graph to the driver: refused here
    if (k == 0)
    {
        GXD_error_clear () ;
        return GXD_error (GrB_INVALID_VALUE, "GxB_kNN: k = 0; ask for at "
            "least one neighbor") ;
    }
    return GXD_neighbors ("GxB_kNN", C, Mask, dist, k, 0, A, B, desc) ;
}
