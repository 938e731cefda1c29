// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// cpu/cpu_sampled.c: only the pairs of a mask's pattern
//------------------------------------------------------------------------------

// A masked product (distances along the edges of a graph) computes just the
// masked pairs, each by an exact merge of its two rows: no accumulator
// over all of B, no work for pairs the mask drops.

#include "cpu_internal.h"

GrB_Info GXD_cpu_sampled (const gxd_plan *P, const gxd_csr *Acsr,
    const gxd_csr *Bcsr, const int64_t *Mp, const int64_t *Mj, void *Cx,
    char *msg)
{
    cpu_rows A, B ;
    GrB_Info info = GXD_cpu_rows_pair (&A, &B, P, Acsr, Bcsr, msg) ;
    if (info != GrB_SUCCESS) return info ;
    #pragma omp parallel for schedule(dynamic, 16)
    for (int64_t i = 0 ; i < A.nrows ; i++)
    {
        for (int64_t q = Mp [i] ; q < Mp [i+1] ; q++)
        {
            cpu_store (Cx, q, GXD_cpu_pair (P, &A, i, &B, Mj [q]), P->fp64) ;
        }
    }
    GXD_cpu_rows_free (&A) ;
    GXD_cpu_rows_free (&B) ;
    return GrB_SUCCESS ;
}
