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

#endif
