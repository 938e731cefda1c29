// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// cuda/gpu_csr.cu: inputs on the device, row contexts, B by columns
//------------------------------------------------------------------------------

// Upload of the caller's host CSR arrays (never modified), the per-row
// contexts (norms, means; seed 001 §6.3: one warp per row, a fixed shuffle
// tree so the sums are the same bits every run), and B by columns for the
// intersection kernel: a stable radix sort of each tile's entries by column
// (O(nnz(B)) memory, rows stay ascending within a column).

#include "gpu_internal.cuh"
#include <cub/device/device_radix_sort.cuh>

//------------------------------------------------------------------------------
// upload
//------------------------------------------------------------------------------

// COO row of each entry: one warp per row writes its entries
__global__ void k_coo_rows (const int64_t *p, int64_t nrows, int32_t *row)
{
    int64_t i = (blockIdx.x * (int64_t) blockDim.x + threadIdx.x) / 32 ;
    int lane = threadIdx.x & 31 ;
    if (i >= nrows) return ;
    for (int64_t q = p [i] + lane ; q < p [i+1] ; q += 32) row [q] = (int32_t) i ;
}

static unsigned nblocks (int64_t work, int threads)
{
    int64_t b = (work + threads - 1) / threads ;
    return (unsigned) (b < 1 ? 1 : b) ;
}

GrB_Info gxd_upload_csr (const gxd_csr *H, bool fp64, bool want_rows,
    gxd_dcsr *D, cudaStream_t s, char *msg)
{
    GrB_Info info = GrB_SUCCESS ;
    memset (D, 0, sizeof (*D)) ;
    D->nrows = H->nrows ;
    D->ncols = H->ncols ;
    D->nnz = H->p [H->nrows] ;
    size_t tsize = fp64 ? sizeof (double) : sizeof (float) ;
    if (H->ncols >= INT32_MAX || H->nrows >= INT32_MAX)
    {
        return gxd_fail (GrB_NOT_IMPLEMENTED, msg,
            "matrices with 2^31 or more rows or columns are CPU only") ;
    }
    int64_t nz = D->nnz > 0 ? D->nnz : 1 ;
    GXD_CUDA_TRY (cudaMalloc (&D->p, (H->nrows + 1) * sizeof (int64_t))) ;
    GXD_CUDA_TRY (cudaMalloc (&D->j, nz * sizeof (int32_t))) ;
    GXD_CUDA_TRY (cudaMalloc (&D->x, nz * tsize)) ;
    GXD_GPU_TRY (gxd_stage_upload (D->p, H->p, (H->nrows + 1) * sizeof (int64_t),
        s, msg)) ;
    if (D->nnz > 0)
    {
        GXD_GPU_TRY (gxd_stage_upload_cols (D->j, H->j, D->nnz, s, msg)) ;
        GXD_GPU_TRY (gxd_stage_upload (D->x, H->x, D->nnz * tsize, s, msg)) ;
    }
    if (want_rows)
    {
        GXD_CUDA_TRY (cudaMalloc (&D->row, nz * sizeof (int32_t))) ;
        if (D->nrows > 0)
        {
            k_coo_rows <<<nblocks (D->nrows * 32, 256), 256, 0, s>>> (D->p,
                D->nrows, D->row) ;
            GXD_LAUNCH_CHECK () ;
        }
    }
    GXD_CUDA_TRY (cudaStreamSynchronize (s)) ;
cleanup:
    if (info != GrB_SUCCESS) gxd_free_csr (D) ;
    return info ;
}

void gxd_free_csr (gxd_dcsr *D)
{
    cudaFree (D->p) ; cudaFree (D->j) ; cudaFree (D->x) ; cudaFree (D->row) ;
    D->p = NULL ; D->j = NULL ; D->x = NULL ; D->row = NULL ;
}

//------------------------------------------------------------------------------
// row contexts
//------------------------------------------------------------------------------

__device__ __forceinline__ double warp_sum (double v)
{
    // butterfly: every lane ends with the same bits, in a fixed order
    for (int off = 16 ; off > 0 ; off >>= 1) v += __shfl_xor_sync (0xffffffffu, v, off) ;
    return v ;
}

__device__ __forceinline__ double warp_max (double v)
{
    for (int off = 16 ; off > 0 ; off >>= 1) v = fmax (v, __shfl_xor_sync (0xffffffffu, v, off)) ;
    return v ;
}

// the steps of gxd_row_of (metrics/gxd_metric_ops.h), a warp per row; every
// lane holds the same row context after each reduction, so the branches on
// it are uniform
template <int M, typename T>
__global__ void k_row_ctx (gxd_plan P, const int64_t *p, const T *x,
    int64_t nrows, int64_t k, bool left, gxd_drows R)
{
    const gxd_metric_id m = (gxd_metric_id) M ;
    int64_t i = (blockIdx.x * (int64_t) blockDim.x + threadIdx.x) / 32 ;
    int lane = threadIdx.x & 31 ;
    if (i >= nrows) return ;
    int64_t lo = p [i], qe = p [i+1] ;
    gxd_row r ;
    gxd_row_begin (&r) ;
    // pass 1, and again on x sc for a cosine or correlation row of extreme
    // magnitude (gxd_row_rescale)
    for (int pass = 0 ; pass < 2 ; pass++)
    {
        double t = 0, h = 0 ;
        for (int64_t q = lo + lane ; q < qe ; q += 32)
        {
            const double v = (double) x [q] ;
            t += gxd_norm_term (m, &P, v * r.sc, left) ;
            h = fmax (h, fabs (v)) ;
        }
        r.n0 = warp_sum (t) ;
        r.hi = warp_max (h) ;
        r.nnz = qe - lo ;
        if (pass == 1 || !gxd_row_rescale (m, &P, &r)) break ;
    }
    gxd_row_mid (m, &r, k) ;
    if (gxd_row_needs_pass2 (m))
    {
        double t2 = 0 ;
        for (int64_t q = lo + lane ; q < qe ; q += 32)
        {
            t2 += gxd_row_term2 (&r, (double) x [q]) ;
        }
        r.n1 = warp_sum (t2) ;
    }
    gxd_row_end (m, &P, &r, k) ;
    if (lane == 0)
    {
        R.n0 [i] = r.n0 ; R.n1 [i] = r.n1 ; R.inv [i] = r.inv ; R.nrm [i] = r.nrm ;
        R.mu [i] = r.mu ; R.sc [i] = r.sc ; R.nnz [i] = r.nnz ;
    }
}

template <int M, typename T>
static GrB_Info launch_row_ctx (const gxd_plan *P, const gxd_dcsr *D,
    bool left, gxd_drows *R, cudaStream_t s, char *msg)
{
    GrB_Info info = GrB_SUCCESS ;
    if (D->nrows > 0)
    {
        k_row_ctx<M, T> <<<nblocks (D->nrows * 32, 256), 256, 0, s>>> (*P, D->p,
            (const T *) D->x, D->nrows, D->ncols, left, *R) ;
        GXD_LAUNCH_CHECK () ;
    }
cleanup:
    return info ;
}

GrB_Info gxd_row_contexts (const gxd_plan *P, const gxd_dcsr *D, bool left,
    gxd_drows *R, cudaStream_t s, char *msg)
{
    GrB_Info info = GrB_SUCCESS ;
    memset (R, 0, sizeof (*R)) ;
    int64_t n = D->nrows > 0 ? D->nrows : 1 ;
    GXD_CUDA_TRY (cudaMalloc (&R->n0, n * sizeof (double))) ;
    GXD_CUDA_TRY (cudaMalloc (&R->n1, n * sizeof (double))) ;
    GXD_CUDA_TRY (cudaMalloc (&R->inv, n * sizeof (double))) ;
    GXD_CUDA_TRY (cudaMalloc (&R->nrm, n * sizeof (double))) ;
    GXD_CUDA_TRY (cudaMalloc (&R->mu, n * sizeof (double))) ;
    GXD_CUDA_TRY (cudaMalloc (&R->sc, n * sizeof (double))) ;
    GXD_CUDA_TRY (cudaMalloc (&R->nnz, n * sizeof (int64_t))) ;
    GXD_DISPATCH (P, launch_row_ctx, P, D, left, R, s, msg) ;
    info = gxd_fail (GrB_INVALID_VALUE, msg, "unknown metric in plan") ;
cleanup:
    if (info != GrB_SUCCESS) gxd_free_rows (R) ;
    return info ;
}

void gxd_free_rows (gxd_drows *R)
{
    cudaFree (R->n0) ; cudaFree (R->n1) ; cudaFree (R->inv) ; cudaFree (R->nrm) ;
    cudaFree (R->mu) ; cudaFree (R->sc) ;
    cudaFree (R->nnz) ;
    memset (R, 0, sizeof (*R)) ;
}

//------------------------------------------------------------------------------
// B by columns, per tile of rows of B
//------------------------------------------------------------------------------

__global__ void k_iota (int32_t *v, int64_t n)
{
    int64_t q = blockIdx.x * (int64_t) blockDim.x + threadIdx.x ;
    if (q < n) v [q] = (int32_t) q ;
}

// colptr [c] = first position of column c in the sorted keys (binary search)
__global__ void k_colptr (const int32_t *keys, int64_t nz, int64_t k,
    int64_t base, int64_t *colptr)
{
    int64_t c = blockIdx.x * (int64_t) blockDim.x + threadIdx.x ;
    if (c > k) return ;
    int64_t lo = 0, hi = nz ;
    while (lo < hi)
    {
        int64_t mid = (lo + hi) / 2 ;
        if (keys [mid] < c) lo = mid + 1 ; else hi = mid ;
    }
    colptr [c] = base + lo ;
}

// gather rows (local to the tile) and values in column order
template <typename T>
__global__ void k_csc_gather (const int32_t *perm, const int32_t *row,
    const T *x, int64_t nz, int64_t src0, int32_t row0, int32_t *rows, T *vals)
{
    int64_t q = blockIdx.x * (int64_t) blockDim.x + threadIdx.x ;
    if (q >= nz) return ;
    int64_t e = src0 + perm [q] ;
    rows [q] = row [e] - row0 ;
    vals [q] = x [e] ;
}

// the first entry of each tile of tn rows, and the end (ntiles + 1 of them)
__global__ void k_tile_bounds (const int64_t *p, int64_t nrows, int64_t tn,
    int64_t ntiles, int64_t *bound)
{
    int64_t t = blockIdx.x * (int64_t) blockDim.x + threadIdx.x ;
    if (t <= ntiles) bound [t] = p [(t * tn < nrows) ? t * tn : nrows] ;
}

GrB_Info gxd_build_csc_tiles (const gxd_dcsr *B, bool fp64, int64_t tn,
    int64_t ntiles, gxd_dcsc *csc, void **pool, cudaStream_t s, char *msg)
{
    GrB_Info info = GrB_SUCCESS ;
    size_t tsize = fp64 ? sizeof (double) : sizeof (float) ;
    int64_t k = B->ncols, nnz = B->nnz ;
    int64_t nz1 = nnz > 0 ? nnz : 1 ;
    int32_t *keys_out = NULL, *perm_in = NULL, *perm_out = NULL ;
    void *tmp = NULL ;
    size_t tmp_bytes = 0 ;
    char *base = NULL ;
    // the tiles' bounds in B's entries, fetched at once (a wait per tile
    // was a host round trip per tile)
    int64_t *dbound = NULL, *hbound = (int64_t *) malloc ((ntiles + 1) * sizeof (int64_t)) ;
    if (hbound == NULL) return gxd_fail (GrB_OUT_OF_MEMORY, msg, "out of host memory") ;
    // one pool: colptr (ntiles x (k+1)), rows (nnz), vals (nnz)
    size_t colbytes = (size_t) ntiles * (k + 1) * sizeof (int64_t) ;
    size_t bytes = colbytes + nz1 * sizeof (int32_t) + nz1 * tsize + 16 ;
    GXD_CUDA_TRY (cudaMalloc (pool, bytes)) ;
    base = (char *) *pool ;
    GXD_CUDA_TRY (cudaMalloc (&keys_out, nz1 * sizeof (int32_t))) ;
    GXD_CUDA_TRY (cudaMalloc (&perm_in, nz1 * sizeof (int32_t))) ;
    GXD_CUDA_TRY (cudaMalloc (&perm_out, nz1 * sizeof (int32_t))) ;
    if (nnz >= INT32_MAX)
    {
        info = gxd_fail (GrB_NOT_IMPLEMENTED, msg, "nnz(B) >= 2^31 is CPU only") ;
        goto cleanup ;
    }
    {
        // sizing the sort's workspace for the largest tile: use all of B
        int nbits = 1 ;
        while ((1LL << nbits) <= k) nbits++ ;
        GXD_CUDA_TRY (cub::DeviceRadixSort::SortPairs (NULL, tmp_bytes,
            B->j, keys_out, perm_in, perm_out, (int) nz1, 0, nbits, s)) ;
        GXD_CUDA_TRY (cudaMalloc (&tmp, tmp_bytes + 16)) ;
        int32_t *rows_all = (int32_t *) (base + colbytes) ;
        char *vals_all = base + colbytes + nz1 * sizeof (int32_t) ;
        // align the values
        vals_all = (char *) (((uintptr_t) vals_all + 15) & ~(uintptr_t) 15) ;
        GXD_CUDA_TRY (cudaMalloc (&dbound, (ntiles + 1) * sizeof (int64_t))) ;
        k_tile_bounds <<<nblocks (ntiles + 1, 256), 256, 0, s>>> (B->p, B->nrows,
            tn, ntiles, dbound) ;
        GXD_LAUNCH_CHECK () ;
        GXD_CUDA_TRY (cudaMemcpyAsync (hbound, dbound, (ntiles + 1) * sizeof (int64_t),
            cudaMemcpyDeviceToHost, s)) ;
        GXD_CUDA_TRY (cudaStreamSynchronize (s)) ;
        for (int64_t t = 0 ; t < ntiles ; t++)
        {
            int64_t r0 = t * tn ;
            int64_t e0 = hbound [t], nz = hbound [t+1] - hbound [t] ;
            csc [t].colptr = (int64_t *) base + t * (k + 1) ;
            csc [t].rows = rows_all + e0 ;
            csc [t].vals = vals_all + e0 * tsize ;
            if (nz > 0)
            {
                k_iota <<<nblocks (nz, 256), 256, 0, s>>> (perm_in, nz) ;
                GXD_LAUNCH_CHECK () ;
                size_t tb = tmp_bytes ;
                // stable: entries of one column keep their row order
                GXD_CUDA_TRY (cub::DeviceRadixSort::SortPairs (tmp, tb,
                    B->j + e0, keys_out, perm_in, perm_out, (int) nz, 0, nbits, s)) ;
                if (fp64)
                    k_csc_gather<double> <<<nblocks (nz, 256), 256, 0, s>>> (
                        perm_out, B->row, (const double *) B->x, nz, e0,
                        (int32_t) r0, csc [t].rows, (double *) csc [t].vals) ;
                else
                    k_csc_gather<float> <<<nblocks (nz, 256), 256, 0, s>>> (
                        perm_out, B->row, (const float *) B->x, nz, e0,
                        (int32_t) r0, csc [t].rows, (float *) csc [t].vals) ;
                GXD_LAUNCH_CHECK () ;
            }
            // offsets local to the tile: rows/vals already start at e0
            k_colptr <<<nblocks (k + 1, 256), 256, 0, s>>> (keys_out, nz, k, 0,
                csc [t].colptr) ;
            GXD_LAUNCH_CHECK () ;
        }
        GXD_CUDA_TRY (cudaStreamSynchronize (s)) ;
    }
cleanup:
    cudaFree (keys_out) ; cudaFree (perm_in) ; cudaFree (perm_out) ;
    cudaFree (tmp) ; cudaFree (dbound) ; free (hbound) ;
    if (info != GrB_SUCCESS) { cudaFree (*pool) ; *pool = NULL ; }
    return info ;
}
