// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// cpu/gxd_cpu.h: the native OpenMP backend
//------------------------------------------------------------------------------

// Raw CSR arrays in, a dense row-major block or a sampled pattern's values
// out (contract: metrics/gxd_metric.h).  Used when no GPU is usable, or when
// the CPU backend is asked for.

#ifndef GXD_CPU_H
#define GXD_CPU_H

#include <GraphBLAS.h>
#include "gxd_metric.h"

// C [i*n+j] = d(A(i,:), B(j,:)), float or double (P->fp64)
GrB_Info GXD_cpu_dense (const gxd_plan *P, const gxd_csr *A, const gxd_csr *B,
    void *C, char *msg) ;

// Cx [q] = d(A(i,:), B(Mj[q],:)) for Mp[i] <= q < Mp[i+1]
GrB_Info GXD_cpu_sampled (const gxd_plan *P, const gxd_csr *A,
    const gxd_csr *B, const int64_t *Mp, const int64_t *Mj, void *Cx,
    char *msg) ;

// for rows i0 <= i < i1 of A and every row j of B (Bt = B transposed, k x
// n): P [(i-i0)*n + j] += the sum of A(i,c) + B(j,c) over the columns c the
// two rows share, and N [(i-i0)*n + j] += their number (N may be NULL); in
// double (fp) or in 64-bit integers that wrap (A's and Bt's values of the
// same kind)
void GXD_cpu_common_sums (const gxd_csr *A, const gxd_csr *Bt, int64_t i0,
    int64_t i1, bool fp, uint64_t *P, uint64_t *N) ;

#endif
