// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// cuda/gpu_knn.cu: the k nearest rows of B on the device
//------------------------------------------------------------------------------

// All pairs are computed exactly as GXD_gpu_dense computes them (same
// strategy, same tiles of rows of A), but a tile of distances never leaves
// the device: one block per row selects the row's k best, and only those
// (k per row) are copied back.  The order is the library's (smaller first,
// larger first for a similarity, NaN last, ties to the smaller column), a
// total order, so the k selected do not depend on how the work is split.
//
// Selection, one block per row, two ways by k.  Each distance maps to an
// unsigned key whose order is the library's (gxd_key), and (key, column)
// is a total order.
// - k <= GXD_GPU_KNN_FILTER_K: a filter.  A bound, the k-th best of 256
//   columns spread over the row, lets a thread drop almost every distance
//   with one comparison as the block streams through the row; those that
//   pass are listed in shared memory, and when the list nears its room it
//   is cut to its k best (gpu_klist.cuh), whose last is the new bound.
//   One pass over the row whatever its order: the sample's bound lets
//   about k n / 256 distances pass, an increasing or decreasing row
//   included.
// - larger k: radix select.  Histograms of the keys' 8-bit digits, most
//   significant first, narrow the key range that holds the k-th best until
//   that range holds exactly the candidates still needed (or the key is
//   exact: ties).  One more pass collects the rows before the range and the
//   first ones inside it in column order (ties to the smaller column), and
//   the k candidates are ranked in shared memory.  A few passes over the
//   row, shared memory of O(k).

#include "gpu_internal.cuh"
#include "gpu_tuning.h"
#include "gpu_klist.cuh"
#include <math.h>
#include <math_constants.h>
#include <cub/block/block_scan.cuh>
#include <cub/device/device_segmented_sort.cuh>
#include <algorithm>

#define GXD_GPU_KNN_THREADS 256

//------------------------------------------------------------------------------
// the library's order as keys
//------------------------------------------------------------------------------

template <typename T> struct gxd_key_of ;
template <> struct gxd_key_of<float>  { typedef uint32_t U ; } ;
template <> struct gxd_key_of<double> { typedef uint64_t U ; } ;

// the library's order as unsigned integers: a before b (better value) iff
// key (a) < key (b); -0 is 0, every NaN the largest key (NaN last)
template <typename T>
__device__ __forceinline__ typename gxd_key_of<T>::U gxd_key (T v, bool largest)
{
    typedef typename gxd_key_of<T>::U U ;
    const int top = 8 * sizeof (U) - 1 ;
    if (v != v) return ~(U) 0 ;
    if (v == 0) v = 0 ;
    U u ;
    memcpy (&u, &v, sizeof (U)) ;
    u = (u >> top) ? ~u : (u | ((U) 1 << top)) ;    // ascending values
    if (largest) u = ~u ;
    // a finite or infinite value never maps to the NaN key: ~u of +inf or
    // -inf is not all ones
    return u ;
}

//------------------------------------------------------------------------------
// filter selection
//------------------------------------------------------------------------------

// the filter's limit on k, the distances a block's round takes (4 a
// thread), and its list's room: a round starts with at most
// GXD_KNN_LIST - GXD_KNN_ROUND listed, so it never overflows; a power of 2
// for the sort
#define GXD_GPU_KNN_FILTER_K 32
#define GXD_KNN_ROUND (4 * GXD_GPU_KNN_THREADS)
#define GXD_KNN_LIST 2048

// gpu_klist.cuh's order: (key, column)
template <typename U> struct gxd_key_order
{
    __device__ static bool before (U a, int64_t aj, U b, int64_t bj)
    {
        return a < b || (a == b && aj < bj) ;
    }
    __device__ static U pad_v (void) { return ~(U) 0 ; }
    __device__ static int64_t pad_j (void) { return INT64_MAX ; }
} ;

// rows i0 + blockIdx.x of the tile D (row-major, n columns): the k best
// (k <= GXD_GPU_KNN_FILTER_K) into out_j / out_d (k slots per row), their
// number into out_n
template <typename T>
__global__ void __launch_bounds__ (GXD_GPU_KNN_THREADS)
k_topk (const T *__restrict__ D, int64_t n, int k, bool largest, int64_t i0,
    bool exclude_self, int64_t *out_j, double *out_d, int64_t *out_n)
{
    typedef typename gxd_key_of<T>::U U ;
    typedef gxd_key_order<U> O ;
    constexpr int NT = GXD_GPU_KNN_THREADS ;
    __shared__ U lk [GXD_KNN_LIST] ;
    __shared__ int64_t lj [GXD_KNN_LIST] ;
    __shared__ U bk ;                       // the bound, where bok
    __shared__ int64_t bj ;
    __shared__ int bok, cnt ;
    const int tid = threadIdx.x ;
    const int64_t r = blockIdx.x ;
    const T *row = D + r * n ;
    const int64_t gi = i0 + r ;
    const bool self_in = exclude_self && gi < n ;
    // each round's distances are loaded during the round before (the
    // first round's during the sample's sort), so that a thread has two
    // rounds' loads in flight across the round's one barrier
    constexpr int PER = GXD_KNN_ROUND / NT ;
    auto load = [&] (int64_t base, T *v)
    {
        #pragma unroll
        for (int u = 0 ; u < PER ; u++)
        {
            const int64_t j = base + tid + u * NT ;
            v [u] = (j < n) ? row [j] : (T) 0 ;
        }
    } ;
    T v [PER] ;
    load (0, v) ;
    // the first bound: the k-th best of NT columns spread over the row
    gxd_klist_sample<O, NT> (lk, lj, [&] (int t, U &key, int64_t &j)
    {
        const int64_t c = (n <= NT) ? t : t * n / NT ;
        if (c < n && !(self_in && c == gi)) { key = gxd_key<T> (row [c], largest) ; j = c ; }
    }, k, bk, bj, bok) ;
    if (tid == 0) cnt = 0 ;
    __syncthreads () ;
    for (int64_t base = 0 ; base < n ; base += GXD_KNN_ROUND)
    {
        T next [PER] ;
        load (base + GXD_KNN_ROUND, next) ;
        const U b = bk ;
        const int64_t c = bj ;
        const int have = bok ;
        int top = -1 ;
        #pragma unroll
        for (int u = 0 ; u < PER ; u++)
        {
            const int64_t j = base + tid + u * NT ;
            if (j >= n || (self_in && j == gi)) continue ;
            top = gxd_klist_offer<O> (lk, lj, cnt, have, b, c,
                gxd_key<T> (v [u], largest), j, top) ;
        }
        gxd_klist_round_end<O, GXD_KNN_LIST, NT, GXD_KNN_ROUND> (lk, lj, cnt,
            bk, bj, bok, k, top, base + GXD_KNN_ROUND >= n) ;
        #pragma unroll
        for (int u = 0 ; u < PER ; u++) v [u] = next [u] ;
    }
    const int found = cnt ;
    for (int q = tid ; q < found ; q += NT)
    {
        out_j [r * k + q] = lj [q] ;
        out_d [r * k + q] = (double) row [lj [q]] ;
    }
    if (tid == 0) out_n [r] = found ;
}

//------------------------------------------------------------------------------
// radix selection
//------------------------------------------------------------------------------

#define GXD_RADIX_BITS 8
#define GXD_RADIX_BINS (1 << GXD_RADIX_BITS)

// the k best of row blockIdx.x (k <= GXD_GPU_KNN_MAX_K), as k_topk
template <typename T>
__global__ void __launch_bounds__ (GXD_GPU_KNN_THREADS)
k_topk_radix (const T *__restrict__ D, int64_t n, int k, bool largest,
    int64_t i0, bool exclude_self, int64_t *out_j, double *out_d,
    int64_t *out_n)
{
    typedef typename gxd_key_of<T>::U U ;
    typedef cub::BlockScan<int, GXD_GPU_KNN_THREADS> scan_t ;
    __shared__ typename scan_t::TempStorage scan_tmp ;
    __shared__ int hist [GXD_RADIX_BINS] ;
    __shared__ U prefix, mask ;
    __shared__ int need, taken, eq_base ;
    extern __shared__ char cand_mem [] ;
    double *cd = (double *) cand_mem ;
    int64_t *cj = (int64_t *) (cd + k) ;
    const int64_t r = blockIdx.x ;
    const T *row = D + r * n ;
    const int64_t gi = i0 + r ;
    const bool self_in = exclude_self && gi < n ;
    const int kk = (int) ((n - self_in < k) ? n - self_in : k) ;
    if (threadIdx.x == 0)
    {
        prefix = 0 ; mask = 0 ; need = kk ; taken = 0 ; eq_base = 0 ;
    }
    // narrow the key range of the kk-th best, one digit a pass
    for (int shift = 8 * (int) sizeof (U) - GXD_RADIX_BITS ; shift >= 0 ;
        shift -= GXD_RADIX_BITS)
    {
        for (int b = threadIdx.x ; b < GXD_RADIX_BINS ; b += blockDim.x) hist [b] = 0 ;
        __syncthreads () ;
        if (need == 0) break ;
        const U pf = prefix, mk = mask ;
        for (int64_t j = threadIdx.x ; j < n ; j += blockDim.x)
        {
            if (self_in && j == gi) continue ;
            U key = gxd_key<T> (row [j], largest) ;
            if ((key & mk) == pf) atomicAdd (&hist [(key >> shift) & (GXD_RADIX_BINS - 1)], 1) ;
        }
        __syncthreads () ;
        if (threadIdx.x == 0)
        {
            int before = 0, b = 0 ;
            while (before + hist [b] < need) before += hist [b++] ;
            need -= before ;
            prefix |= (U) b << shift ;
            mask |= (U) (GXD_RADIX_BINS - 1) << shift ;
            // every key in the range is wanted: no finer digit needed
            hist [0] = (hist [b] == need) ? -1 : 0 ;
        }
        __syncthreads () ;
        if (hist [0] < 0) break ;
        __syncthreads () ;
    }
    __syncthreads () ;
    // collect: keys before the range, then the first `need` keys inside it
    // in column order
    const U pf = prefix, mk = mask ;
    const int want_eq = need ;
    for (int64_t base = 0 ; base < n ; base += blockDim.x)
    {
        int64_t j = base + threadIdx.x ;
        bool lt = false, eq = false ;
        T v = 0 ;
        if (j < n && !(self_in && j == gi))
        {
            v = row [j] ;
            U key = gxd_key<T> (v, largest) & mk ;
            lt = key < pf ;
            eq = key == pf ;
        }
        int rank, total ;
        scan_t (scan_tmp).ExclusiveSum (eq ? 1 : 0, rank, total) ;
        if (lt || (eq && eq_base + rank < want_eq))
        {
            int q = atomicAdd (&taken, 1) ;
            cd [q] = (double) v ;
            cj [q] = j ;
        }
        __syncthreads () ;
        if (threadIdx.x == 0) eq_base += total ;
        __syncthreads () ;
    }
    // rank the kk candidates (a total order: value, then column)
    for (int q = threadIdx.x ; q < kk ; q += blockDim.x)
    {
        double d = cd [q] ;
        int64_t j = cj [q] ;
        U key = gxd_key<T> ((T) d, largest) ;
        int pos = 0 ;
        for (int p = 0 ; p < kk ; p++)
        {
            U kp = gxd_key<T> ((T) cd [p], largest) ;
            pos += (kp < key) || (kp == key && cj [p] < j) ;
        }
        out_j [r * k + pos] = j ;
        out_d [r * k + pos] = d ;
    }
    if (threadIdx.x == 0) out_n [r] = kk ;
}

template <typename T>
static GrB_Info launch_topk (const void *D, int64_t rows, int64_t n, int k,
    bool largest, int64_t i0, bool exclude_self, int64_t *dj, double *dd,
    int64_t *dn, cudaStream_t s, char *msg)
{
    GrB_Info info = GrB_SUCCESS ;
    if (k <= GXD_GPU_KNN_FILTER_K)
    {
        k_topk<T><<<(unsigned) rows, GXD_GPU_KNN_THREADS, 0, s>>> ((const T *) D,
            n, k, largest, i0, exclude_self, dj, dd, dn) ;
    }
    else
    {
        size_t smem = (size_t) k * (sizeof (double) + sizeof (int64_t)) ;
        k_topk_radix<T><<<(unsigned) rows, GXD_GPU_KNN_THREADS, smem, s>>> (
            (const T *) D, n, k, largest, i0, exclude_self, dj, dd, dn) ;
    }
    GXD_LAUNCH_CHECK () ;
cleanup:
    return info ;
}

//------------------------------------------------------------------------------
// the fused path: selection inside the fixed-point kernel (gxd_fx_sel)
//------------------------------------------------------------------------------

// every row of B: its walk key (NaN as +inf: such rows end a walk) and its
// index within its tile
template <int M, typename T>
__global__ void k_walk_keys (gxd_drows RB, int64_t n, int64_t tn, double *key,
    int32_t *loc)
{
    for (int64_t j = blockIdx.x * (int64_t) blockDim.x + threadIdx.x ; j < n ;
        j += (int64_t) gridDim.x * blockDim.x)
    {
        double v = 0 ;
        if constexpr (gxd_walk_metric (M)) v = gxd_walk_key<M> (gxd_load_row (RB, j)) ;
        key [j] = (v == v) ? v : CUDART_INF ;
        loc [j] = (int32_t) (j % tn) ;
    }
}

template <int M, typename T>
static GrB_Info launch_walk_keys (const gxd_gpu_ctx *G, double *key,
    int32_t *loc, cudaStream_t s, char *msg)
{
    GrB_Info info = GrB_SUCCESS ;
    const int64_t n = G->B.nrows ;
    k_walk_keys<M, T> <<<(unsigned) std::min<int64_t> ((n + 255) / 256, 4096), 256, 0, s>>> (
        G->RB, n, G->tn, key, loc) ;
    GXD_LAUNCH_CHECK () ;
cleanup:
    return info ;
}

static GrB_Info walk_keys (const gxd_gpu_ctx *G, double *key, int32_t *loc,
    cudaStream_t s, char *msg)
{
    const gxd_plan *P = &G->P ;
    GXD_DISPATCH (P, launch_walk_keys, G, key, loc, s, msg) ;
    return gxd_fail (GrB_INVALID_VALUE, msg, "unknown metric in plan") ;
}

// each tile's rows of B sorted by (walk key, row) into *ord, the keys into
// *okey (a stable sort of rows in order: ties stay by row), and the keys by
// row into *rkey
static GrB_Info walk_prepare (const gxd_gpu_ctx *G, int32_t **ord,
    double **okey, double **rkey, cudaStream_t s, char *msg)
{
    GrB_Info info = GrB_SUCCESS ;
    const int64_t n = G->B.nrows, nt = G->ntiles ;
    double *key = NULL ;
    int32_t *loc = NULL ;
    int64_t *off = NULL, *hoff = NULL ;
    void *tmp = NULL ;
    size_t bytes = 0 ;
    hoff = (int64_t *) malloc ((size_t) (nt + 1) * sizeof (int64_t)) ;
    if (hoff == NULL) return gxd_fail (GrB_OUT_OF_MEMORY, msg, "out of host memory") ;
    for (int64_t t = 0 ; t <= nt ; t++) hoff [t] = std::min<int64_t> (t * G->tn, n) ;
    GXD_CUDA_TRY (cudaMalloc (&key, (size_t) n * sizeof (double))) ;
    GXD_CUDA_TRY (cudaMalloc (&loc, (size_t) n * sizeof (int32_t))) ;
    GXD_CUDA_TRY (cudaMalloc (okey, (size_t) n * sizeof (double))) ;
    GXD_CUDA_TRY (cudaMalloc (ord, (size_t) n * sizeof (int32_t))) ;
    GXD_CUDA_TRY (cudaMalloc (&off, (size_t) (nt + 1) * sizeof (int64_t))) ;
    GXD_CUDA_TRY (cudaMemcpyAsync (off, hoff, (size_t) (nt + 1) * sizeof (int64_t),
        cudaMemcpyHostToDevice, s)) ;
    if (G->strategy == GXD_STRAT_USER) GXD_GPU_TRY (gxd_user_walk_keys (G, key, loc, s, msg))
    else GXD_GPU_TRY (walk_keys (G, key, loc, s, msg)) ;
    // Chebyshev's keys: the rows' largest |b| (gpu_chebyshev_sel.cu)
    if (G->strategy == GXD_STRAT_CHEBYSHEV) GXD_GPU_TRY (gxd_chebyshev_keys (G, key, s, msg)) ;
    GXD_CUDA_TRY (cub::DeviceSegmentedSort::StableSortPairs (NULL, bytes, key,
        *okey, loc, *ord, (int) n, (int) nt, off, off + 1, s)) ;
    GXD_CUDA_TRY (cudaMalloc (&tmp, bytes)) ;
    GXD_CUDA_TRY (cub::DeviceSegmentedSort::StableSortPairs (tmp, bytes, key,
        *okey, loc, *ord, (int) n, (int) nt, off, off + 1, s)) ;
    GXD_CUDA_TRY (cudaStreamSynchronize (s)) ;
    *rkey = key ;
    key = NULL ;
cleanup:
    if (info != GrB_SUCCESS)
    {
        cudaStreamSynchronize (s) ;
        cudaFree (*ord) ; cudaFree (*okey) ;
        *ord = NULL ; *okey = NULL ;
    }
    cudaFree (key) ; cudaFree (loc) ; cudaFree (off) ; cudaFree (tmp) ;
    free (hoff) ;
    return info ;
}

// rows per tile of the fused path: only the lists (row_bytes a row) live on
// the device, within a quarter of the free memory
static int64_t fused_tile_rows (int64_t m, size_t row_bytes)
{
    size_t freeb = 0, total = 0 ;
    if (cudaMemGetInfo (&freeb, &total) != cudaSuccess) freeb = 1 << 30 ;
    int64_t rows = (int64_t) (freeb / 4 / row_bytes) ;
    return (rows < 1) ? 1 : (rows > m) ? m : rows ;
}

extern "C" bool GXD_gpu_knn_fused (const gxd_plan *P, int64_t k, bool largest)
{
    if (largest || k > GXD_FX_SEL_MAXK) return false ;
    gxd_strategy s = gxd_choose_strategy (P) ;
    return s == GXD_STRAT_CHEBYSHEV
        || (s == GXD_STRAT_INTERSECT && gxd_fx_planned (gxd_tuning ().kv, P->metric)) ;
}

extern "C" GrB_Info GXD_gpu_knn (const gxd_plan *P, const gxd_csr *A,
    const gxd_csr *B, int64_t k, bool largest, bool exclude_self,
    const gxd_csr *X, bool *done, int64_t *Cj, double *Cd, int64_t *count,
    char *msg)
{
    GrB_Info info = GrB_SUCCESS ;
    const int64_t m = A->nrows, n = B->nrows ;
    const size_t tsize = P->fp64 ? sizeof (double) : sizeof (float) ;
    const size_t row_bytes = (size_t) k * (sizeof (int64_t) + sizeof (double))
        + sizeof (int64_t) ;
    gxd_gpu_ctx G ;
    cudaStream_t s = NULL ;
    void *dC = NULL ;
    int64_t *dj = NULL, *dn = NULL ;
    double *dd = NULL, *okey = NULL, *rkey = NULL ;
    int32_t *ord = NULL ;
    bool fused = false ;
    gxd_fx_sel S ;
    gxd_dcsr dX ;
    memset (&G, 0, sizeof (G)) ;
    memset (&S, 0, sizeof (S)) ;
    memset (&dX, 0, sizeof (dX)) ;
    *done = false ;
    if (k < 1 || k > GXD_GPU_KNN_MAX_K || k > n)
    {
        return gxd_fail (GrB_INVALID_VALUE, msg, "k outside 1 .. min (n, "
            "GXD_GPU_KNN_MAX_K)") ;
    }
    if (m == 0) { *done = true ; return GrB_SUCCESS ; }
    // pairs that are not candidates: only where the selection is fused
    if (X != NULL && !GXD_gpu_knn_fused (P, k, largest)) return GrB_SUCCESS ;
    GXD_CUDA_TRY (cudaStreamCreateWithFlags (&s, cudaStreamNonBlocking)) ;
    {
        int strategy = gxd_choose_strategy (P) ;
        int64_t tile = gxd_select_tile_rows (P, m, n, strategy, row_bytes) ;
        // a user's (+) = PLUS, MAX or MIN selects inside its rewrite or
        // select (no exclusions)
        const bool inside = X == NULL && !largest && k <= GXD_FX_SEL_MAXK ;
        GXD_GPU_TRY (gxd_gpu_open (P, A, B, strategy, tile, inside, &G, s, msg)) ;
        // the fixed-point and Chebyshev kernels select as they go (the
        // latter on finite values); other kernels write tiles of distances
        // that k_topk selects from
        bool cheb = G.strategy == GXD_STRAT_CHEBYSHEV && !largest
            && k <= GXD_FX_SEL_MAXK ;
        if (cheb) GXD_GPU_TRY (gxd_chebyshev_finite (&G, &cheb, s, msg)) ;
        const bool user = G.strategy == GXD_STRAT_USER && gxd_user_knn_ok (&G) ;
        fused = cheb || user || (G.strategy == GXD_STRAT_INTERSECT && G.fixed_point
            && !largest && k <= GXD_FX_SEL_MAXK) ;
        if (X != NULL && !fused) goto cleanup ;     // not done: the host's path
        if (X != NULL)
        {
            // the pattern alone (its columns stand in for its values)
            gxd_csr pattern = *X ;
            pattern.x = X->j ;
            GXD_GPU_TRY (gxd_upload_csr (&pattern, true, false, &dX, s, msg)) ;
            S.xp = dX.p ;
            S.xj = dX.j ;
        }
        if (fused)
        {
            tile = fused_tile_rows (m, row_bytes) ;
            if (gxd_walk_metric (P->metric) || cheb || (user && gxd_user_walks (&G)))
                GXD_GPU_TRY (walk_prepare (&G, &ord, &okey, &rkey, s, msg)) ;
            S.k = (int) k ;
            S.exclude_self = exclude_self ;
            S.ord = ord ;
            S.okey = okey ;
            S.rkey = rkey ;
        }
        else GXD_CUDA_TRY (cudaMalloc (&dC, (size_t) tile * n * tsize)) ;
        GXD_CUDA_TRY (cudaMalloc (&dj, (size_t) tile * k * sizeof (int64_t))) ;
        GXD_CUDA_TRY (cudaMalloc (&dd, (size_t) tile * k * sizeof (double))) ;
        GXD_CUDA_TRY (cudaMalloc (&dn, (size_t) tile * sizeof (int64_t))) ;
        for (int64_t i0 = 0 ; i0 < m ; i0 += tile)
        {
            int64_t rows = (m - i0 < tile) ? (m - i0) : tile ;
            if (fused)
            {
                S.lj = dj ; S.ld = dd ; S.ln = dn ;
                GXD_CUDA_TRY (cudaMemsetAsync (dn, 0, rows * sizeof (int64_t), s)) ;
                if (cheb) GXD_GPU_TRY (gxd_chebyshev_select (&G, i0, i0 + rows, &S, s, msg))
                else if (user) GXD_GPU_TRY (gxd_user_knn (&G, i0, i0 + rows, &S, s, msg))
                else GXD_GPU_TRY (gxd_intersect_fx_select (&G, i0, i0 + rows, &S, s, msg))
            }
            else
            {
                GXD_GPU_TRY (gxd_gpu_run_tile (&G, i0, i0 + rows, dC, s, msg)) ;
                if (P->fp64)
                    GXD_GPU_TRY (launch_topk<double> (dC, rows, n, (int) k, largest,
                        i0, exclude_self, dj, dd, dn, s, msg))
                else
                    GXD_GPU_TRY (launch_topk<float> (dC, rows, n, (int) k, largest,
                        i0, exclude_self, dj, dd, dn, s, msg))
            }
            GXD_CUDA_TRY (cudaMemcpyAsync (Cj + i0 * k, dj, rows * k * sizeof (int64_t),
                cudaMemcpyDeviceToHost, s)) ;
            GXD_CUDA_TRY (cudaMemcpyAsync (Cd + i0 * k, dd, rows * k * sizeof (double),
                cudaMemcpyDeviceToHost, s)) ;
            GXD_CUDA_TRY (cudaMemcpyAsync (count + i0, dn, rows * sizeof (int64_t),
                cudaMemcpyDeviceToHost, s)) ;
        }
        GXD_CUDA_TRY (cudaStreamSynchronize (s)) ;
        *done = true ;
    }
cleanup:
    if (s) cudaStreamSynchronize (s) ;
    cudaFree (dC) ; cudaFree (dj) ; cudaFree (dd) ; cudaFree (dn) ;
    cudaFree (ord) ; cudaFree (okey) ; cudaFree (rkey) ;
    gxd_free_csr (&dX) ;
    if (s) cudaStreamDestroy (s) ;
    gxd_ctx_free (&G) ;
    return info ;
}
