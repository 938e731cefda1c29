// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// cuda/gpu_radius.cu: every row of B within a radius, on the device
//------------------------------------------------------------------------------

// All pairs are computed exactly as GXD_gpu_dense computes them (same
// strategy, same tiles of rows of A), but a tile of distances never leaves
// the device: one block per row counts the row's pairs within the radius,
// a scan of the counts gives the rows' offsets, and a second pass writes
// the pairs in column order (an ordered block scan), so only the graph's
// entries cross the bus.  Its size is known one tile at a time: the caller's
// sink allocates each tile's host arrays and may refuse (out of memory).

#include "gpu_internal.cuh"
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/device/device_scan.cuh>

#define GXD_GPU_RADIUS_THREADS 256

__device__ __forceinline__ bool gxd_within (double d, double eps, bool largest)
{
    return largest ? (d >= eps) : (d <= eps) ;
}

// count [r] = pairs of row r of the tile within the radius
template <typename T>
__global__ void __launch_bounds__ (GXD_GPU_RADIUS_THREADS)
k_radius_count (const T *__restrict__ D, int64_t n, double eps, bool largest,
    int64_t i0, bool exclude_self, int64_t *count)
{
    typedef cub::BlockReduce<int64_t, GXD_GPU_RADIUS_THREADS> reduce_t ;
    __shared__ typename reduce_t::TempStorage tmp ;
    const int64_t r = blockIdx.x, gi = i0 + r ;
    const T *row = D + r * n ;
    int64_t c = 0 ;
    for (int64_t j = threadIdx.x ; j < n ; j += blockDim.x)
    {
        c += (!(exclude_self && j == gi) && gxd_within ((double) row [j], eps, largest)) ;
    }
    int64_t total = reduce_t (tmp).Sum (c) ;
    if (threadIdx.x == 0) count [r] = total ;
}

// the pairs of row r within the radius at p [r] .. in column order
template <typename T>
__global__ void __launch_bounds__ (GXD_GPU_RADIUS_THREADS)
k_radius_fill (const T *__restrict__ D, int64_t n, double eps, bool largest,
    int64_t i0, bool exclude_self, const int64_t *p, int64_t *out_j,
    double *out_d)
{
    typedef cub::BlockScan<int, GXD_GPU_RADIUS_THREADS> scan_t ;
    __shared__ typename scan_t::TempStorage tmp ;
    const int64_t r = blockIdx.x, gi = i0 + r ;
    const T *row = D + r * n ;
    int64_t out = p [r] ;
    for (int64_t base = 0 ; base < n ; base += blockDim.x)
    {
        int64_t j = base + threadIdx.x ;
        double d = 0 ;
        bool in = false ;
        if (j < n && !(exclude_self && j == gi))
        {
            d = (double) row [j] ;
            in = gxd_within (d, eps, largest) ;
        }
        int rank, total ;
        scan_t (tmp).ExclusiveSum (in ? 1 : 0, rank, total) ;
        if (in) { out_j [out + rank] = j ; out_d [out + rank] = d ; }
        out += total ;
        __syncthreads () ;      // tmp is reused by the next chunk's scan
    }
}

extern "C" GrB_Info GXD_gpu_radius (const gxd_plan *P, const gxd_csr *A,
    const gxd_csr *B, double eps, bool largest, bool exclude_self,
    gxd_radius_sink sink, void *self, char *msg)
{
    GrB_Info info = GrB_SUCCESS ;
    const int64_t m = A->nrows, n = B->nrows ;
    const size_t tsize = P->fp64 ? sizeof (double) : sizeof (float) ;
    gxd_gpu_ctx G ;
    cudaStream_t s = NULL ;
    void *dC = NULL, *scan_ws = NULL ;
    int64_t *dcount = NULL, *dp = NULL, *dj = NULL ;
    double *dd = NULL ;
    size_t scan_bytes = 0, out_cap = 0 ;
    memset (&G, 0, sizeof (G)) ;
    if (m == 0 || n == 0) return GrB_SUCCESS ;      // no pairs
    GXD_CUDA_TRY (cudaStreamCreateWithFlags (&s, cudaStreamNonBlocking)) ;
    {
        int strategy = gxd_choose_strategy (P) ;
        int64_t tile = gxd_select_tile_rows (P, m, n, strategy,
            2 * sizeof (int64_t)) ;
        GXD_GPU_TRY (gxd_gpu_open (P, A, B, strategy, tile, false, &G, s, msg)) ;
        GXD_CUDA_TRY (cudaMalloc (&dC, (size_t) tile * n * tsize)) ;
        GXD_CUDA_TRY (cudaMalloc (&dcount, (size_t) (tile + 1) * sizeof (int64_t))) ;
        GXD_CUDA_TRY (cudaMalloc (&dp, (size_t) (tile + 1) * sizeof (int64_t))) ;
        GXD_CUDA_TRY (cub::DeviceScan::ExclusiveSum (NULL, scan_bytes, dcount, dp,
            (int) tile + 1, s)) ;
        GXD_CUDA_TRY (cudaMalloc (&scan_ws, scan_bytes)) ;
        for (int64_t i0 = 0 ; i0 < m ; i0 += tile)
        {
            int64_t rows = (m - i0 < tile) ? (m - i0) : tile ;
            int64_t *hp = NULL, *hj = NULL, nz = 0 ;
            double *hd = NULL ;
            GXD_GPU_TRY (gxd_gpu_run_tile (&G, i0, i0 + rows, dC, s, msg)) ;
            if (P->fp64)
                k_radius_count<double><<<(unsigned) rows, GXD_GPU_RADIUS_THREADS, 0, s>>> (
                    (const double *) dC, n, eps, largest, i0, exclude_self, dcount) ;
            else
                k_radius_count<float><<<(unsigned) rows, GXD_GPU_RADIUS_THREADS, 0, s>>> (
                    (const float *) dC, n, eps, largest, i0, exclude_self, dcount) ;
            GXD_LAUNCH_CHECK () ;
            // p = exclusive sum of the counts, p [rows] the tile's total
            GXD_CUDA_TRY (cudaMemsetAsync (dcount + rows, 0, sizeof (int64_t), s)) ;
            GXD_CUDA_TRY (cub::DeviceScan::ExclusiveSum (scan_ws, scan_bytes,
                dcount, dp, (int) rows + 1, s)) ;
            GXD_CUDA_TRY (cudaMemcpyAsync (&nz, dp + rows, sizeof (int64_t),
                cudaMemcpyDeviceToHost, s)) ;
            GXD_CUDA_TRY (cudaStreamSynchronize (s)) ;
            // the caller's arrays for this tile (it may refuse: too large)
            GXD_GPU_TRY (sink (self, i0, rows, nz, &hp, &hj, &hd, msg)) ;
            GXD_CUDA_TRY (cudaMemcpyAsync (hp, dp, (size_t) (rows + 1) * sizeof (int64_t),
                cudaMemcpyDeviceToHost, s)) ;
            if (nz == 0) { GXD_CUDA_TRY (cudaStreamSynchronize (s)) ; continue ; }
            if ((size_t) nz > out_cap)
            {
                cudaFree (dj) ; cudaFree (dd) ; dj = NULL ; dd = NULL ;
                out_cap = (size_t) nz ;
                GXD_CUDA_TRY (cudaMalloc (&dj, out_cap * sizeof (int64_t))) ;
                GXD_CUDA_TRY (cudaMalloc (&dd, out_cap * sizeof (double))) ;
            }
            if (P->fp64)
                k_radius_fill<double><<<(unsigned) rows, GXD_GPU_RADIUS_THREADS, 0, s>>> (
                    (const double *) dC, n, eps, largest, i0, exclude_self, dp, dj, dd) ;
            else
                k_radius_fill<float><<<(unsigned) rows, GXD_GPU_RADIUS_THREADS, 0, s>>> (
                    (const float *) dC, n, eps, largest, i0, exclude_self, dp, dj, dd) ;
            GXD_LAUNCH_CHECK () ;
            GXD_CUDA_TRY (cudaMemcpyAsync (hj, dj, (size_t) nz * sizeof (int64_t),
                cudaMemcpyDeviceToHost, s)) ;
            GXD_CUDA_TRY (cudaMemcpyAsync (hd, dd, (size_t) nz * sizeof (double),
                cudaMemcpyDeviceToHost, s)) ;
            GXD_CUDA_TRY (cudaStreamSynchronize (s)) ;
        }
    }
cleanup:
    if (s) cudaStreamSynchronize (s) ;
    cudaFree (dC) ; cudaFree (dcount) ; cudaFree (dp) ; cudaFree (scan_ws) ;
    cudaFree (dj) ; cudaFree (dd) ;
    if (s) cudaStreamDestroy (s) ;
    gxd_ctx_free (&G) ;
    return info ;
}
