// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// cuda/gpu_chebyshev.cu: Chebyshev without the union pass
//------------------------------------------------------------------------------

// (+) = max has no inverse, so Chebyshev cannot be split into norms plus an
// intersection sum; the SPSV (gpu_spsv.cu) does it exactly but, like RAFT's,
// slower than the naive merge on sparse data (bench/gpu_measurements.md).  Max is
// selective instead, which allows an exact split:
//   d(a,b) = max( max_{c in a^b} |a_c - b_c|,  max_{c in a\b} |a_c|,
//                 max_{c in b\a} |b_c| )
// the walk of gpu_split_select.cuh (shared with the user operators' select
// kernel), with |x| as both rows' keys: rows sorted by descending |x| here.
// Work: the intermediate products plus O(1) per pair.  Max is exact and
// order free: the same bits every run.

#include "gpu_internal.cuh"
#include "gpu_split_select.cuh"

#define GXD_CH_THREADS 256
#define GXD_CH_BITS_MAX 65536   // k up to which a's columns are a shared bit set

// Chebyshev for gxd_split_select: |x - y| under max from 0 (every term is
// >= 0, NaN left out by fmax), the keys |a| and |b| of the sorted copies;
// f(e,e) = 0 changes no maximum, so it is not counted
template <typename T> struct cheb_op
{
    const T *Asx, *Bsx ;
    static constexpr bool counts = false ;
    __device__ double id () const { return 0 ; }
    __device__ double term (double x, double y) const { return fabs (x - y) ; }
    __device__ double add (double s, double t) const { return fmax (s, t) ; }
    __device__ double a_key (long long p) const { return fabs ((double) Asx [p]) ; }
    __device__ double b_key (long long p) const { return fabs ((double) Bsx [p]) ; }
    __device__ double b_key0 (long long, long long p) const { return b_key (p) ; }
    __device__ int b_col0 (long long, long long p, const int *Bsj) const { return Bsj [p] ; }
} ;

template <typename T>
__global__ void __launch_bounds__ (GXD_CH_THREADS) k_chebyshev (
    const int64_t *Ap, const int32_t *Aj, const int32_t *Asj, const T *Asx,
    const int64_t *Bp, const int32_t *Bsj, const T *Bsx, gxd_dcsc S,
    int64_t i0, int64_t j0, int64_t w, int64_t n, int64_t k, int64_t tn,
    bool use_bits, T *Ct)
{
    // cheb_shmem's layout: the accumulator, h and a's bit set
    extern __shared__ double cacc [] ;
    int32_t *h = (int32_t *) (cacc + tn) ;
    uint32_t *bits = (uint32_t *) (h + ((tn + 1) & ~1LL)) ;
    gxd_split_select (cheb_op<T> { Asx, Bsx }, Ap, Aj, Asj, Asx, Bp, Bsj,
        (const int64_t *) S.colptr, S.rows, (const T *) S.vals, i0, j0, w, n,
        k, use_bits, cacc, h, (int *) NULL, bits, Ct) ;
}

//------------------------------------------------------------------------------
// rows sorted by descending magnitude
//------------------------------------------------------------------------------

// |x|, and -1 for NaN: the descending orders put NaN after every number,
// so the first entry a walk finds missing from the other row has the
// largest |x| of those missing (fmax omits NaN; as the first it would hide
// them)
template <typename T>
__global__ void k_abs (const T *x, T *key, int64_t nnz)
{
    int64_t q = blockIdx.x * (int64_t) blockDim.x + threadIdx.x ;
    if (q < nnz) key [q] = isnan (x [q]) ? (T) -1 : (T) fabs ((double) x [q]) ;
}

// sj/sx: the entries of each row of D by descending |x| (stable: ties keep
// column order), allocated here
template <typename T>
static GrB_Info sort_rows_by_magnitude (const gxd_dcsr *D, int32_t **sj,
    T **sx, cudaStream_t s, char *msg)
{
    GrB_Info info = GrB_SUCCESS ;
    int64_t nz = D->nnz > 0 ? D->nnz : 1 ;
    T *key = NULL, *skey = NULL ;
    int32_t *perm = NULL ;
    GXD_CUDA_TRY (cudaMalloc (sj, nz * sizeof (int32_t))) ;
    GXD_CUDA_TRY (cudaMalloc (sx, nz * sizeof (T))) ;
    if (D->nnz == 0) goto cleanup ;
    GXD_CUDA_TRY (cudaMalloc (&key, nz * sizeof (T))) ;
    GXD_CUDA_TRY (cudaMalloc (&skey, nz * sizeof (T))) ;
    GXD_CUDA_TRY (cudaMalloc (&perm, nz * sizeof (int32_t))) ;
    k_abs<T> <<<(unsigned) ((nz + 255) / 256), 256, 0, s>>> ((const T *) D->x, key, D->nnz) ;
    GXD_LAUNCH_CHECK () ;
    GXD_GPU_TRY (gxd_sort_rows<T> (D, key, true, perm, skey, s, msg)) ;
    GXD_GPU_TRY (gxd_gather_entries (D, sizeof (T) == sizeof (double), perm, *sj, *sx, s, msg)) ;
    GXD_CUDA_TRY (cudaStreamSynchronize (s)) ;
cleanup:
    cudaFree (key) ; cudaFree (skey) ; cudaFree (perm) ;
    return info ;
}

//------------------------------------------------------------------------------
// prepare and launch
//------------------------------------------------------------------------------

static size_t cheb_shmem (int64_t tn, int64_t k, bool use_bits)
{
    return (size_t) tn * 8 + (size_t) ((tn + 1) & ~1LL) * 4
        + (use_bits ? (size_t) (k + 31) / 32 * 4 : 0) + 16 ;
}

GrB_Info gxd_chebyshev_prepare (gxd_gpu_ctx *G, cudaStream_t s, char *msg)
{
    GrB_Info info = GrB_SUCCESS ;
    const int64_t n = G->B.nrows ;
    const bool fp64 = G->P.fp64 ;
    // the accumulator, h and a's bit set share the block's shared memory
    if (G->tn <= 0 || G->tn > n) G->tn = (n > 0) ? n : 1 ;
    G->ntiles = (n + G->tn - 1) / G->tn ;
    if (G->ntiles < 1) G->ntiles = 1 ;
    G->csc = (gxd_dcsc *) calloc (G->ntiles, sizeof (gxd_dcsc)) ;
    if (G->csc == NULL) return gxd_fail (GrB_OUT_OF_MEMORY, msg, "out of host memory") ;
    GXD_GPU_TRY (gxd_build_csc_tiles (&G->B, fp64, G->tn, G->ntiles, G->csc,
        &G->csc_pool, s, msg)) ;
    if (fp64)
    {
        GXD_GPU_TRY (sort_rows_by_magnitude<double> (&G->A, &G->cheb.Asj, (double **) &G->cheb.Asx, s, msg)) ;
        GXD_GPU_TRY (sort_rows_by_magnitude<double> (&G->B, &G->cheb.Bsj, (double **) &G->cheb.Bsx, s, msg)) ;
    }
    else
    {
        GXD_GPU_TRY (sort_rows_by_magnitude<float> (&G->A, &G->cheb.Asj, (float **) &G->cheb.Asx, s, msg)) ;
        GXD_GPU_TRY (sort_rows_by_magnitude<float> (&G->B, &G->cheb.Bsj, (float **) &G->cheb.Bsx, s, msg)) ;
    }
cleanup:
    return info ;
}

template <typename T>
static GrB_Info launch_chebyshev (gxd_gpu_ctx *G, int64_t i0, int64_t i1,
    void *Ct, cudaStream_t s, char *msg)
{
    GrB_Info info = GrB_SUCCESS ;
    const int64_t n = G->B.nrows, rows = i1 - i0, k = G->A.ncols ;
    const bool use_bits = k <= GXD_CH_BITS_MAX ;
    const size_t shmem = cheb_shmem (G->tn, k, use_bits) ;
    if (rows <= 0 || n <= 0) return GrB_SUCCESS ;
    GXD_CUDA_TRY (cudaFuncSetAttribute (k_chebyshev<T>,
        cudaFuncAttributeMaxDynamicSharedMemorySize, (int) shmem)) ;
    GXD_GPU_TRY (gxd_for_tiles (G, rows, msg, [&] (int64_t t, int64_t j0, int64_t w,
        int64_t r0, int64_t nr)
    {
        k_chebyshev<T> <<<(unsigned) nr, GXD_CH_THREADS, shmem, s>>> (
            G->A.p, G->A.j, G->cheb.Asj, (const T *) G->cheb.Asx, G->B.p, G->cheb.Bsj,
            (const T *) G->cheb.Bsx, G->csc [t], i0 + r0, j0, w, n, k, G->tn,
            use_bits, (T *) Ct + r0 * n) ;
    })) ;
cleanup:
    return info ;
}

GrB_Info gxd_chebyshev_tile (gxd_gpu_ctx *G, int64_t i0, int64_t i1,
    void *Ct, cudaStream_t s, char *msg)
{
    return G->P.fp64 ? launch_chebyshev<double> (G, i0, i1, Ct, s, msg)
                     : launch_chebyshev<float> (G, i0, i1, Ct, s, msg) ;
}
