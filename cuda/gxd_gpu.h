// SPDX-License-Identifier: Apache-2.0
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

// a mask's pairs of a plan with a user's operator (GXD_OP_USER, its source
// in the plan), compiled with NVRTC (GXD_gpu_dense takes all pairs of any
// plan); Mp, Mj the mask's CSR pattern, C its entries' distances
GrB_Info GXD_gpu_user (const gxd_plan *P, const gxd_csr *A, const gxd_csr *B,
    const int64_t *Mp, const int64_t *Mj, void *C, char *msg) ;
// unload the kernels compiled for user operators
void GXD_gpu_user_clear (void) ;
// tests: whole programs only (no operator linked with a template); and,
// once the whole programs being compiled on threads are done, how many
// linked modules this process has made or read from the disk, and how many
// whole programs took over from them
void GXD_gpu_user_set_whole (bool on) ;
void GXD_gpu_user_tiers (int64_t *linked, int64_t *swaps) ;
// free the pinned staging kept for results into host memory
void GXD_gpu_staging_free (void) ;

// the k best rows of B for every row of A (1 <= k <= min (n,
// GXD_GPU_KNN_MAX_K)): Cj / Cd hold k slots per row (column, distance) in
// the library's order (gxd_neighbors.h), count [i] how many are used;
// exclude_self skips j == i; X (or NULL): pairs that are not candidates
// (a complemented mask's pattern, X->nrows = A->nrows), which only the
// kernels that select as they go take: elsewhere *done is false and
// nothing is computed (the host's tiles serve such a query)
// (the largest selection keeps its k candidates in shared memory, 16 bytes
// each, and ranks them in O(k^2) comparisons a row: both stay small up to
// here, and t-SNE's 3 x perplexity or UMAP's n_neighbors are well below)
#define GXD_GPU_KNN_MAX_K 1024
GrB_Info GXD_gpu_knn (const gxd_plan *P, const gxd_csr *A, const gxd_csr *B,
    int64_t k, bool largest, bool exclude_self, const gxd_csr *X, bool *done,
    int64_t *Cj, double *Cd, int64_t *count, char *msg) ;
// whether GXD_gpu_knn selects inside the kernels for plan P, k and largest
// (so takes a complemented mask's pattern X), known before any upload; on
// values that are not finite Chebyshev's kernel still leaves the query to
// the host
bool GXD_gpu_knn_fused (const gxd_plan *P, int64_t k, bool largest) ;

// every row of B within eps of each row of A (d <= eps; d >= eps when
// largest), exclude_self skips j == i.  Row tile by row tile, the sink
// gives host arrays for the tile's rows [r0, r0 + nr) and nz pairs: p
// (nr + 1 offsets from 0), j and d (nz each, rows in column order), or
// refuses with a GrB_Info and msg; GXD_gpu_radius fills them
typedef GrB_Info (*gxd_radius_sink) (void *self, int64_t r0, int64_t nr,
    int64_t nz, int64_t **p, int64_t **j, double **d, char *msg) ;
GrB_Info GXD_gpu_radius (const gxd_plan *P, const gxd_csr *A,
    const gxd_csr *B, double eps, bool largest, bool exclude_self,
    gxd_radius_sink sink, void *self, char *msg) ;

#ifdef __cplusplus
}
#endif
#endif
