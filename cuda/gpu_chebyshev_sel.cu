// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// cuda/gpu_chebyshev_sel.cu: Chebyshev's k nearest without a tile of distances
//------------------------------------------------------------------------------

// Chebyshev splits exactly (gpu_chebyshev.cu):
//   d(a,b) = max( max_{c in a^b} |a_c - b_c|,  max_{c in a\b} |a_c|,
//                 max_{c in b\a} |b_c| )
// and this kernel selects row i's k nearest from it as gpu_intersect_fx.cu
// does for the sums (gpu_fused_select.cuh), with one block per row i of A
// and tile of B:
// - products: row i's columns by descending |a_c| as one flat list that the
//   warps split evenly; per row j of the tile, a word holds the largest
//   |a_c - b_c| (its float bits and a touched flag: max is exact and order
//   free, so atomicMax gives the same bits every run) and a mask the ranks
//   (by |a_c|) of row i's first 32 columns that row j has too.  The a-only
//   term is |a| of the first rank not in the mask (rarely past 32: then a
//   search of row j).  The b-only term walks row j's columns by descending
//   |b| until one is not in row i: usually the first.
// - untouched rows (no column shared) are at max (R, key_j), with R row i's
//   largest |a| and key_j row j's largest |b|: every row with key_j <= R
//   ties at R, so the k of them with the smallest columns come first; the
//   rows past R follow by (key, row), as the sums' walk.
// Each |a_c - b_c| is taken in double and rounded to T, and rounding is
// monotone: the maximum of the rounded terms is the rounded maximum that
// gpu_chebyshev.cu writes, so the k nearest keep the product's bits.
// NaN and inf in A or B (no such order) take the tile path instead.

#include "gpu_internal.cuh"
#include "gpu_fused_select.cuh"
#include <algorithm>

// the accumulator word of T: its bits with the sign bit as "touched" (the
// terms are >= 0, so the flagged words order as the values)
template <typename T> struct ch_word ;
template <> struct ch_word<float>
{
    typedef uint32_t type ;
    static constexpr uint32_t flag = 0x80000000u ;
    __device__ static uint32_t of (float v) { return __float_as_uint (v) | flag ; }
    __device__ static float value (uint32_t w) { return __uint_as_float (w & ~flag) ; }
} ;
template <> struct ch_word<double>
{
    typedef unsigned long long type ;
    static constexpr unsigned long long flag = 1ull << 63 ;
    __device__ static unsigned long long of (double v)
    {
        return (unsigned long long) __double_as_longlong (v) | flag ;
    }
    __device__ static double value (unsigned long long w)
    {
        return __longlong_as_double ((long long) (w & ~flag)) ;
    }
} ;

// ranks of row i (by descending |a_c|) that a row's mask can hold
#define GXD_CH_RANKS 32
// k up to which row i's columns are a bit set in shared memory (the b-only
// term's test); past it, a search of row i
#define GXD_CH_SEL_BITS 65536

__device__ __forceinline__ bool ch_has (const int32_t *cols, int64_t n,
    int32_t c)
{
    int64_t lo = 0, hi = n ;
    while (lo < hi)
    {
        const int64_t mid = (lo + hi) / 2 ;
        if (cols [mid] < c) lo = mid + 1 ; else hi = mid ;
    }
    return lo < n && cols [lo] == c ;
}

// warp 0: the tile's untouched rows, best first, into st's walk list
template <typename W>
__device__ void ch_walk (gxd_sel_state &st, const gxd_fx_sel &S, const W *mx,
    const uint32_t *xb, int64_t j0, int w, int self, double R)
{
    const unsigned full = 0xffffffffu ;
    const int lane = threadIdx.x & 31, K = S.k ;
    const int32_t *ord = S.ord + j0 ;
    const double *okey = S.okey + j0, *rkey = S.rkey + j0 ;
    // ps rows have key <= R: all at distance R, the smallest columns first
    int ps ;
    {
        int lo = 0, hi = w ;
        while (lo < hi)
        {
            const int mid = (lo + hi) / 2 ;
            if (okey [mid] <= R) lo = mid + 1 ; else hi = mid ;
        }
        ps = lo ;
    }
    int nw = 0 ;
    if ((int64_t) ps * ps * 32 <= (int64_t) K * w)
    {
        // few: each of them, kept in column order.  A warp step here costs
        // about 32 of the scan's below, which needs about K w / (32 ps)
        // steps to find K of the ps: this side wins while ps^2 32 <= K w
        for (int pos = 0 ; pos < ps ; pos += 32)
        {
            const int idx = pos + lane ;
            const int jj = (idx < ps) ? ord [idx] : 0 ;
            const bool cand = idx < ps && mx [GXD_SW (jj)] == 0 && jj != self
                && !gxd_sel_excluded (xb, jj) ;
            // lane 0 inserts the candidates by column (lanes in turn)
            for (int l = 0 ; l < 32 ; l++)
            {
                const bool c = __shfl_sync (full, cand, l) ;
                const int32_t jl = (int32_t) (j0 + __shfl_sync (full, jj, l)) ;
                if (lane != 0 || !c) continue ;
                if (nw == K && jl > st.wj [K-1]) continue ;
                int p = (nw < K) ? nw++ : K - 1 ;
                while (p > 0 && jl < st.wj [p-1]) { st.wj [p] = st.wj [p-1] ; p-- ; }
                st.wj [p] = jl ;
            }
            nw = __shfl_sync (full, nw, 0) ;
        }
    }
    else
    {
        // many: the tile's rows in column order until K are found
        for (int pos = 0 ; pos < w && nw < K ; pos += 32)
        {
            const int jj = pos + lane ;
            const bool cand = jj < w && rkey [jj] <= R && mx [GXD_SW (jj)] == 0
                && jj != self && !gxd_sel_excluded (xb, jj) ;
            const unsigned b = __ballot_sync (full, cand) ;
            const int at = nw + __popc (b & ((1u << lane) - 1)) ;
            if (cand && at < K) st.wj [at] = (int32_t) (j0 + jj) ;
            nw = min (K, nw + __popc (b)) ;
        }
    }
    for (int e = lane ; e < nw ; e += 32) st.wd [e] = R ;
    // then the rows past R by (key, row): at their key, which grows
    const bool tv = st.tv ;
    const double td = st.td ;
    const int32_t tj = st.tj ;
    for (int pos = ps ; pos < w && nw < K ; pos += 32)
    {
        const int idx = pos + lane ;
        const int jj = (idx < w) ? ord [idx] : 0 ;
        const double key = (idx < w) ? okey [idx] : 0 ;
        const int32_t j = (int32_t) (j0 + jj) ;
        bool cand = idx < w && mx [GXD_SW (jj)] == 0 && jj != self
            && !gxd_sel_excluded (xb, jj) ;
        // past the bound: so is every later row
        const bool past = cand && tv && sel_before (td, tj, key, j) ;
        const unsigned stop = __ballot_sync (full, past) ;
        if (stop) cand = cand && lane < __ffs (stop) - 1 ;
        const unsigned b = __ballot_sync (full, cand) ;
        const int at = nw + __popc (b & ((1u << lane) - 1)) ;
        if (cand && at < K) { st.wd [at] = key ; st.wj [at] = j ; }
        nw = min (K, nw + __popc (b)) ;
        if (stop) break ;
    }
    if (lane == 0) st.nw = nw ;
}

// the a-only term of a touched pair: |a| of row i's first column (by
// descending |a|) that row j lacks; mask: the first GXD_CH_RANKS ranks row j
// has.  Past them, row j (bj, nb columns) is searched, only while |a| can
// still pass lb
template <typename T>
__device__ __forceinline__ T ch_a_only (uint32_t mask, const int32_t *asj,
    const T *asx, int64_t deg, const int32_t *bj, int64_t nb, T lb)
{
    const int h = (mask == 0xffffffffu) ? GXD_CH_RANKS : __ffs (~mask) - 1 ;
    if (h < GXD_CH_RANKS) return (h < deg) ? fabs (asx [h]) : (T) 0 ;
    for (int64_t t = GXD_CH_RANKS ; t < deg ; t++)
    {
        const T a = fabs (asx [t]) ;
        if (a <= lb) break ;
        if (!ch_has (bj, nb, asj [t])) return a ;
    }
    return 0 ;
}

// the b-only term, only while |b| can still pass lb: row j's columns by
// descending |b| (bsj, bsx, nb of them) against row i's (its bit set, or a
// search of aj)
template <typename T>
__device__ __forceinline__ T ch_b_only (const int32_t *bsj, const T *bsx,
    int64_t nb, const uint32_t *bits, const int32_t *aj, int64_t deg, T lb)
{
    for (int64_t p = 0 ; p < nb ; p++)
    {
        const T b = fabs (bsx [p]) ;
        if (b <= lb) break ;
        const int32_t c = bsj [p] ;
        const bool in_a = (bits != NULL) ? (bits [c >> 5] >> (c & 31)) & 1
            : ch_has (aj, deg, c) ;
        if (!in_a) return b ;
    }
    return 0 ;
}

template <typename T>
__global__ void __launch_bounds__ (32 * GXD_FX_SEL_WARPS) k_chebyshev_sel (
    const int64_t *Ap, const int32_t *Aj, const int32_t *Asj, const T *Asx,
    const int64_t *Bp, const int32_t *Bj, const int32_t *Bsj, const T *Bsx,
    gxd_dcsc S, int64_t i0, int64_t j0, int64_t w64, int64_t k,
    bool use_bits, gxd_fx_sel Sel)
{
    typedef ch_word<T> CW ;
    typedef typename CW::type W ;
    extern __shared__ uint4 dyn [] ;
    const int w = (int) w64 ;
    const int len = GXD_FX_LO_LEN (w) ;         // a multiple of 4
    W *mx = (W *) dyn ;
    uint32_t *mk = (uint32_t *) (mx + len) ;
    double *Ed = (double *) (mk + len) ;
    int32_t *Ej = (int32_t *) (Ed + GXD_FX_SEL_LEN) ;
    uint32_t *xb = (uint32_t *) (Ej + GXD_FX_SEL_LEN) ;
    uint32_t *bits = use_bits ? xb + GXD_SEL_XWORDS (w) : NULL ;
    __shared__ int32_t s_lo [GXD_ICH], s_off [GXD_ICH + 1], s_cnt ;
    __shared__ T s_x [GXD_ICH] ;
    __shared__ gxd_sel_state st ;
    __shared__ int s_walk ;
    const int64_t i = i0 + blockIdx.x ;
    const int tid = threadIdx.x, nt = blockDim.x ;
    const int lane = tid & 31, warp = tid / 32, nwarps = nt / 32 ;
    const int64_t alo = Ap [i], ahi = Ap [i+1], deg = ahi - alo ;
    const int32_t *asj = Asj + alo ;
    const T *asx = Asx + alo ;

    // the accumulator's two arrays are one run of 16-byte words
    for (int q = tid ; q < len * (int) (sizeof (W) + 4) / 16 ; q += nt)
        dyn [q] = make_uint4 (0, 0, 0, 0) ;
    if (use_bits)
        for (int64_t q = tid ; q < (k + 31) / 32 ; q += nt) bits [q] = 0 ;
    gxd_sel_exclusions (Sel, i, j0, w, xb) ;
    __syncthreads () ;
    if (use_bits)
        for (int64_t q = alo + tid ; q < ahi ; q += nt)
        {
            const int32_t c = Aj [q] ;
            atomicOr (&bits [c >> 5], 1u << (c & 31)) ;
        }

    // the products, row i's columns by descending |a_c| (rank = position)
    const int32_t *__restrict__ rows = S.rows ;
    const T *__restrict__ vals = (const T *) S.vals ;
    constexpr int U = 4 ;
    for (int64_t base = alo ; base < ahi ; )
    {
        const int cmax = (int) ((ahi - base < GXD_ICH) ? ahi - base : GXD_ICH) ;
        __syncthreads () ;          // the last chunk's readers done
        for (int t = tid ; t < cmax ; t += nt)
        {
            const int32_t c = Asj [base + t] ;
            const int64_t lo = S.colptr [c], hi = S.colptr [c+1] ;
            s_lo [t] = (int32_t) lo ;
            s_x [t] = Asx [base + t] ;
            s_off [t+1] = (int32_t) (hi - lo) ;     // <= tn per tile
        }
        __syncthreads () ;
        if (tid < 32) gxd_stage_scan (s_off, cmax, &s_cnt, INT32_MAX) ;
        __syncthreads () ;
        const int total = s_off [cmax], r0 = (int) (base - alo) ;
        const int per = ((total + nwarps - 1) / nwarps + 32 * U - 1) / (32 * U) * (32 * U) ;
        const int e0 = warp * per, e1 = min (total, e0 + per) ;
        gxd_flat_cursor cur (s_off, s_lo, cmax, e0 + lane) ;
        for (int eb = e0 ; eb < e1 ; eb += 32 * U)
        {
            int c [U], p [U] ;
            #pragma unroll
            for (int u = 0 ; u < U ; u++)
            {
                const int e = eb + lane + 32 * u ;
                p [u] = (e < e1) ? cur.entry (s_off, s_lo, e) : -1 ;
                c [u] = cur.col ;
            }
            int32_t jl [U] ;
            T y [U] ;
            #pragma unroll
            for (int u = 0 ; u < U ; u++)
            {
                jl [u] = (p [u] >= 0) ? __ldg (rows + p [u]) : 0 ;
                y [u] = (p [u] >= 0) ? __ldg (vals + p [u]) : (T) 0 ;
            }
            #pragma unroll
            for (int u = 0 ; u < U ; u++)
            {
                if (p [u] < 0) continue ;
                const int sw = GXD_SW (jl [u]) ;
                const T v = (T) fabs ((double) s_x [c [u]] - (double) y [u]) ;
                atomicMax (mx + sw, CW::of (v)) ;
                const int rank = r0 + c [u] ;
                if (rank < GXD_CH_RANKS) atomicOr (mk + sw, 1u << rank) ;
            }
        }
        base += cmax ;
    }
    __syncthreads () ;

    // the untouched rows first (warp 0); none when no row at R or past it
    // can come before the bound (the bound's column is in an earlier tile)
    const double R = (deg > 0) ? (double) fabs (asx [0]) : 0 ;
    const int64_t self64 = Sel.exclude_self ? i - j0 : -1 ;
    const int self = (self64 >= 0 && self64 < w) ? (int) self64 : -1 ;
    if (tid == 0)
    {
        gxd_sel_begin (st, Sel, blockIdx.x) ;
        s_walk = !st.tv || R < st.td ;
    }
    __syncthreads () ;
    if (s_walk && tid < 32)
    {
        ch_walk<W> (st, Sel, mx, xb, j0, w, self, R) ;
        if (tid == 0) gxd_sel_walked (st, Sel.k) ;
    }
    // then the touched ones: a lower bound (the intersection and a-only
    // terms) before the b-only term's walk
    auto take4 = [&] (int j4) -> unsigned
    {
        const int sw = GXD_SW (j4) ;
        return (mx [sw] != 0) | (mx [sw+1] != 0) << 1 | (mx [sw+2] != 0) << 2
            | (mx [sw+3] != 0) << 3 ;
    } ;
    auto consider = [&] (int jj, int32_t j, bool tv, double td, int32_t tj,
        double *d) -> bool
    {
        const int sw = GXD_SW (jj) ;
        const int64_t blo = Bp [j], nb = Bp [j+1] - blo ;
        T lb = CW::value (mx [sw]) ;
        lb = fmax (lb, ch_a_only<T> (mk [sw], asj, asx, deg, Bj + blo, nb, lb)) ;
        // the bound itself (a rescan's) stays a candidate
        if (tv && sel_before (td, tj, (double) lb, j)) return false ;
        lb = fmax (lb, ch_b_only<T> (Bsj + blo, Bsx + blo, nb, bits, Aj + alo, deg, lb)) ;
        *d = (double) lb ;
        return !(tv && sel_before (td, tj, *d, j)) ;
    } ;
    gxd_sel_scan (st, Sel.k, j0, w, self, xb, Ed, Ej, take4, consider) ;
    gxd_sel_merge (st, Sel, blockIdx.x, Ed, Ej) ;
}

//------------------------------------------------------------------------------
// launch
//------------------------------------------------------------------------------

template <typename T>
static GrB_Info launch_chebyshev_sel (gxd_gpu_ctx *G, int64_t i0, int64_t i1,
    const gxd_fx_sel *S, cudaStream_t s, char *msg)
{
    GrB_Info info = GrB_SUCCESS ;
    const int64_t n = G->B.nrows, rows = i1 - i0, k = G->A.ncols ;
    const bool use_bits = k <= GXD_CH_SEL_BITS ;
    const size_t shmem = (size_t) GXD_FX_LO_LEN (G->tn)
        * (sizeof (typename ch_word<T>::type) + sizeof (uint32_t))
        + GXD_FX_SEL_LEN * (sizeof (double) + sizeof (int32_t))
        + GXD_SEL_XWORDS (G->tn) * sizeof (uint32_t)
        + (use_bits ? (size_t) (k + 31) / 32 * sizeof (uint32_t) : 0) ;
    if (rows <= 0 || n <= 0) return GrB_SUCCESS ;
    GXD_CUDA_TRY (cudaFuncSetAttribute (k_chebyshev_sel<T>,
        cudaFuncAttributeMaxDynamicSharedMemorySize, (int) shmem)) ;
    GXD_GPU_TRY (gxd_for_tiles (G, rows, msg, [&] (int64_t t, int64_t j0, int64_t w,
        int64_t r0, int64_t nr)
    {
        gxd_fx_sel Sr = *S ;
        Sr.lj += r0 * S->k ; Sr.ld += r0 * S->k ; Sr.ln += r0 ;
        k_chebyshev_sel<T> <<<(unsigned) nr, 32 * GXD_FX_SEL_WARPS, shmem, s>>> (
            G->A.p, G->A.j, G->cheb.Asj, (const T *) G->cheb.Asx, G->B.p, G->B.j,
            G->cheb.Bsj, (const T *) G->cheb.Bsx, G->csc [t], i0 + r0, j0, w, k,
            use_bits, Sr) ;
    })) ;
cleanup:
    return info ;
}

GrB_Info gxd_chebyshev_select (gxd_gpu_ctx *G, int64_t i0, int64_t i1,
    const gxd_fx_sel *S, cudaStream_t s, char *msg)
{
    return G->P.fp64 ? launch_chebyshev_sel<double> (G, i0, i1, S, s, msg)
                     : launch_chebyshev_sel<float> (G, i0, i1, S, s, msg) ;
}

//------------------------------------------------------------------------------
// walk keys and the finite check
//------------------------------------------------------------------------------

// row j's largest |b| (its first by magnitude; 0 for an empty row)
template <typename T>
__global__ void k_ch_keys (const int64_t *Bp, const T *Bsx, int64_t n,
    double *key)
{
    for (int64_t j = blockIdx.x * (int64_t) blockDim.x + threadIdx.x ; j < n ;
        j += (int64_t) gridDim.x * blockDim.x)
    {
        key [j] = (Bp [j] < Bp [j+1]) ? (double) fabs (Bsx [Bp [j]]) : 0 ;
    }
}

GrB_Info gxd_chebyshev_keys (const gxd_gpu_ctx *G, double *key, cudaStream_t s,
    char *msg)
{
    GrB_Info info = GrB_SUCCESS ;
    const int64_t n = G->B.nrows ;
    const unsigned blocks = (unsigned) std::min<int64_t> ((n + 255) / 256, 4096) ;
    if (n == 0) return GrB_SUCCESS ;
    if (G->P.fp64)
        k_ch_keys<double> <<<blocks, 256, 0, s>>> (G->B.p, (const double *) G->cheb.Bsx, n, key) ;
    else
        k_ch_keys<float> <<<blocks, 256, 0, s>>> (G->B.p, (const float *) G->cheb.Bsx, n, key) ;
    GXD_LAUNCH_CHECK () ;
cleanup:
    return info ;
}

template <typename T>
__global__ void k_ch_finite (const T *x, int64_t n, uint32_t *bad)
{
    for (int64_t q = blockIdx.x * (int64_t) blockDim.x + threadIdx.x ; q < n ;
        q += (int64_t) gridDim.x * blockDim.x)
    {
        if (!isfinite (x [q])) { *bad = 1 ; return ; }
    }
}

template <typename T>
static GrB_Info ch_finite (const gxd_dcsr *D, uint32_t *bad, cudaStream_t s,
    char *msg)
{
    GrB_Info info = GrB_SUCCESS ;
    if (D->nnz == 0) return GrB_SUCCESS ;
    k_ch_finite<T> <<<(unsigned) std::min<int64_t> ((D->nnz + 255) / 256, 1024), 256, 0, s>>> (
        (const T *) D->x, D->nnz, bad) ;
    GXD_LAUNCH_CHECK () ;
cleanup:
    return info ;
}

GrB_Info gxd_chebyshev_finite (const gxd_gpu_ctx *G, bool *finite,
    cudaStream_t s, char *msg)
{
    GrB_Info info = GrB_SUCCESS ;
    uint32_t *bad = NULL, hbad = 1 ;
    *finite = false ;
    GXD_CUDA_TRY (cudaMalloc (&bad, sizeof (uint32_t))) ;
    GXD_CUDA_TRY (cudaMemsetAsync (bad, 0, sizeof (uint32_t), s)) ;
    if (G->P.fp64)
    {
        GXD_GPU_TRY (ch_finite<double> (&G->A, bad, s, msg)) ;
        GXD_GPU_TRY (ch_finite<double> (&G->B, bad, s, msg)) ;
    }
    else
    {
        GXD_GPU_TRY (ch_finite<float> (&G->A, bad, s, msg)) ;
        GXD_GPU_TRY (ch_finite<float> (&G->B, bad, s, msg)) ;
    }
    GXD_CUDA_TRY (cudaMemcpyAsync (&hbad, bad, sizeof (uint32_t),
        cudaMemcpyDeviceToHost, s)) ;
    GXD_CUDA_TRY (cudaStreamSynchronize (s)) ;
    *finite = (hbad == 0) ;
cleanup:
    cudaFree (bad) ;
    return info ;
}
