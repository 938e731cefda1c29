//------------------------------------------------------------------------------
// cuda/gxd_gpu.h: the CUDA backend, callable from C
//------------------------------------------------------------------------------

// Same contract as the CPU backend (metrics/gxd_metric.h): host CSR arrays
// in, host output out.  Compiled only when nvcc is found (GXD_HAVE_CUDA).

#ifndef GXD_GPU_H
#define GXD_GPU_H

#include <GraphBLAS.h>
#include "gxd_metric.h"

#ifdef __cplusplus
extern "C" {
#endif

// true when a CUDA device is present and a trivial allocation works
bool GXD_gpu_usable (void) ;

GrB_Info GXD_gpu_dense (const gxd_plan *P, const gxd_csr *A, const gxd_csr *B,
    void *C, char *msg) ;

GrB_Info GXD_gpu_sampled (const gxd_plan *P, const gxd_csr *A,
    const gxd_csr *B, const int64_t *Mp, const int64_t *Mj, void *Cx,
    char *msg) ;

#ifdef __cplusplus
}
#endif
#endif
