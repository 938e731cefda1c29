// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// cpu/cpu_common_sums.c: sums over the common columns of row pairs
//------------------------------------------------------------------------------

// A PLUS union of an operator only GraphBLAS can call
// (graphblas_ext/gxd_union_plus.c) needs, for a block of rows of A and
// every row of B, the sum of A0(i,c) + B0(j,c) over the columns c the two
// rows share, and how many there are.  GrB_mxm with PLUS_PLUS computes the
// same, but builds a sparse matrix the caller then scatters into its dense
// block: that assembly cost as much as the user's own product (fortunes,
// 400 rows, issue 18).  Here the terms go straight into the block, row by
// row (saxpy over B transposed), at the cost of the flops alone.

#include "gxd_cpu.h"
#include <stdbool.h>
#include <string.h>

void GXD_cpu_common_sums (const gxd_csr *A, const gxd_csr *Bt, int64_t i0,
    int64_t i1, bool fp, uint64_t *P, uint64_t *N)
{
    const int64_t *Ap = A->p, *Aj = A->j, *Btp = Bt->p, *Btj = Bt->j ;
    int64_t n = Bt->ncols ;
    #pragma omp parallel for schedule(dynamic, 4)
    for (int64_t i = i0 ; i < i1 ; i++)
    {
        uint64_t *Pr = P + (i - i0) * n ;
        uint64_t *Nr = (N != NULL) ? N + (i - i0) * n : NULL ;
        for (int64_t p = Ap [i] ; p < Ap [i+1] ; p++)
        {
            int64_t c = Aj [p] ;
            if (fp)
            {
                double a = ((const double *) A->x) [p], *Pd = (double *) Pr ;
                const double *b = Bt->x ;
                for (int64_t q = Btp [c] ; q < Btp [c+1] ; q++)
                {
                    Pd [Btj [q]] += a + b [q] ;
                }
            }
            else
            {
                uint64_t a = ((const uint64_t *) A->x) [p] ;
                const uint64_t *b = Bt->x ;
                for (int64_t q = Btp [c] ; q < Btp [c+1] ; q++)
                {
                    Pr [Btj [q]] += a + b [q] ;
                }
            }
            if (Nr != NULL)
            {
                // counts in the same representation as P
                for (int64_t q = Btp [c] ; q < Btp [c+1] ; q++)
                {
                    if (fp) ((double *) Nr) [Btj [q]] += 1 ;
                    else Nr [Btj [q]] += 1 ;
                }
            }
        }
    }
}
