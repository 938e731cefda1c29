// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// cuda/gpu_sorted_rows.cu: each row's entries in the order of a key
//------------------------------------------------------------------------------

// The selective monoids (max, min: Chebyshev, gpu_chebyshev.cu, and a
// user's MAX or MIN semiring, gpu_user.cu) find the best term over the
// columns one row has and the other lacks by walking a row in key order:
// the first entry missing from the other row is the best.  Here: that
// order, once per matrix, by a segmented sort of (key, entry) per row.

#include "gpu_internal.cuh"
#include <cub/device/device_segmented_sort.cuh>

__global__ void k_entry_iota (int32_t *idx, int64_t nnz)
{
    const int64_t q = blockIdx.x * (int64_t) blockDim.x + threadIdx.x ;
    if (q < nnz) idx [q] = (int32_t) q ;
}

template <typename K>
GrB_Info gxd_sort_rows (const gxd_dcsr *D, const K *key, bool descending,
    int32_t *perm, K *skey, cudaStream_t s, char *msg)
{
    GrB_Info info = GrB_SUCCESS ;
    const int64_t nnz = D->nnz ;
    int32_t *idx = NULL ;
    void *tmp = NULL ;
    size_t tb = 0 ;
    if (nnz == 0) return GrB_SUCCESS ;
    if (nnz >= INT32_MAX) return gxd_fail (GrB_NOT_IMPLEMENTED, msg, "nnz >= 2^31 is CPU only") ;
    GXD_CUDA_TRY (cudaMalloc (&idx, (size_t) nnz * sizeof (int32_t))) ;
    k_entry_iota <<<(unsigned) ((nnz + 255) / 256), 256, 0, s>>> (idx, nnz) ;
    GXD_LAUNCH_CHECK () ;
    // stable: ties keep column order
    if (descending)
    {
        GXD_CUDA_TRY (cub::DeviceSegmentedSort::StableSortPairsDescending (NULL, tb,
            key, skey, idx, perm, nnz, D->nrows, D->p, D->p + 1, s)) ;
        GXD_CUDA_TRY (cudaMalloc (&tmp, tb + 16)) ;
        GXD_CUDA_TRY (cub::DeviceSegmentedSort::StableSortPairsDescending (tmp, tb,
            key, skey, idx, perm, nnz, D->nrows, D->p, D->p + 1, s)) ;
    }
    else
    {
        GXD_CUDA_TRY (cub::DeviceSegmentedSort::StableSortPairs (NULL, tb,
            key, skey, idx, perm, nnz, D->nrows, D->p, D->p + 1, s)) ;
        GXD_CUDA_TRY (cudaMalloc (&tmp, tb + 16)) ;
        GXD_CUDA_TRY (cub::DeviceSegmentedSort::StableSortPairs (tmp, tb,
            key, skey, idx, perm, nnz, D->nrows, D->p, D->p + 1, s)) ;
    }
    GXD_CUDA_TRY (cudaStreamSynchronize (s)) ;
cleanup:
    cudaFree (idx) ; cudaFree (tmp) ;
    return info ;
}

template GrB_Info gxd_sort_rows<float> (const gxd_dcsr *, const float *,
    bool, int32_t *, float *, cudaStream_t, char *) ;
template GrB_Info gxd_sort_rows<double> (const gxd_dcsr *, const double *,
    bool, int32_t *, double *, cudaStream_t, char *) ;

template <typename T>
__global__ void k_gather_entries (const int32_t *perm, const int32_t *j,
    const T *x, int32_t *sj, T *sx, int64_t nnz)
{
    const int64_t q = blockIdx.x * (int64_t) blockDim.x + threadIdx.x ;
    if (q >= nnz) return ;
    const int32_t e = perm [q] ;
    sj [q] = j [e] ;
    if (sx != NULL) sx [q] = x [e] ;
}

GrB_Info gxd_gather_entries (const gxd_dcsr *D, bool fp64,
    const int32_t *perm, int32_t *sj, void *sx, cudaStream_t s, char *msg)
{
    GrB_Info info = GrB_SUCCESS ;
    const int64_t nnz = D->nnz ;
    const unsigned nb = (unsigned) ((nnz + 255) / 256) ;
    if (nnz == 0) return GrB_SUCCESS ;
    if (fp64)
        k_gather_entries<double> <<<nb, 256, 0, s>>> (perm, D->j, (const double *) D->x,
            sj, (double *) sx, nnz) ;
    else
        k_gather_entries<float> <<<nb, 256, 0, s>>> (perm, D->j, (const float *) D->x,
            sj, (float *) sx, nnz) ;
    GXD_LAUNCH_CHECK () ;
cleanup:
    return info ;
}
