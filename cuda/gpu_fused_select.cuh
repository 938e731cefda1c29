// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// cuda/gpu_fused_select.cuh: a block's k best inside a distance kernel
//------------------------------------------------------------------------------

// The kNN kernels that select as they go (gpu_intersect_fx.cu for the
// fixed-point metrics, gpu_chebyshev_sel.cu for Chebyshev) end the same
// way: each block (row i of A, one tile of B) holds one accumulator slot per
// row of the tile, has already listed the untouched rows' best (its walk),
// and must finalize the touched slots against row i's bound, then merge its
// candidates into row i's k best so far (gxd_fx_sel's lists).  What differs
// is what "touched" and "finalize" mean; the scan, the bound's tightening
// and the merge are here, once.

#ifndef GXD_GPU_FUSED_SELECT_CUH
#define GXD_GPU_FUSED_SELECT_CUH

#include "gpu_internal.cuh"

// candidates a block lists before it tightens its bound (a rescan), and its
// list's length with room for the walk's and the row's k best
#define GXD_FX_SEL_CAP 256
// warps of a fused block (its 256 threads)
#define GXD_FX_SEL_WARPS 8
#define GXD_FX_SEL_LEN (GXD_FX_SEL_CAP + 2 * GXD_FX_SEL_MAXK)

// distances here are never NaN (gxd_sanitize): value, then column
__device__ __forceinline__ bool sel_before (double ad, int32_t aj, double bd,
    int32_t bj)
{
    return ad < bd || (ad == bd && aj < bj) ;
}

// the block's bound and lists in shared memory: the walk's sorted list
// (wd/wj, nw of them), the bound (td, tj) when tv, the scan's count nc, and
// each warp's queue of slots to finalize (31 left over and 4 from each lane)
struct gxd_sel_state
{
    double wd [GXD_FX_SEL_MAXK], td ;
    int32_t wj [GXD_FX_SEL_MAXK], tj ;
    int nw, nc, tv ;
    uint16_t q [GXD_FX_SEL_WARPS][160] ;
} ;

// a tile's pairs that are not candidates (gxd_fx_sel's xp, xj), one bit
// each, in shared memory
#define GXD_SEL_XWORDS(w) (((w) + 31) / 32)

__device__ __forceinline__ bool gxd_sel_excluded (const uint32_t *xb, int jj)
{
    return (xb [jj >> 5] >> (jj & 31)) & 1 ;
}

// all threads: the bit set xb of row i's pairs in the tile [j0, j0 + w)
// that are not candidates; readers after the next barrier
__device__ __forceinline__ void gxd_sel_exclusions (const gxd_fx_sel &S,
    int64_t i, int64_t j0, int w, uint32_t *xb)
{
    const int tid = threadIdx.x, nt = blockDim.x ;
    for (int q = tid ; q < GXD_SEL_XWORDS (w) ; q += nt) xb [q] = 0 ;
    if (S.xp == NULL) return ;
    __syncthreads () ;
    // the row's first column at or past j0
    int64_t lo = S.xp [i], hi = S.xp [i+1] ;
    while (lo < hi)
    {
        const int64_t mid = (lo + hi) / 2 ;
        if (S.xj [mid] < j0) lo = mid + 1 ; else hi = mid ;
    }
    for (int64_t p = lo + tid ; p < S.xp [i+1] && S.xj [p] < j0 + w ; p += nt)
    {
        const int c = (int) (S.xj [p] - j0) ;
        atomicOr (&xb [c >> 5], 1u << (c & 31)) ;
    }
}

// thread 0: row r's k-th best so far (from earlier tiles) is the bound
__device__ __forceinline__ void gxd_sel_begin (gxd_sel_state &st,
    const gxd_fx_sel &S, int64_t r)
{
    const int K = S.k ;
    st.nw = 0 ;
    st.tv = (S.ln [r] == K) ;
    if (st.tv) { st.td = S.ld [r*K + K-1] ; st.tj = (int32_t) S.lj [r*K + K-1] ; }
}

// thread 0, after the walk: its k-th best tightens the bound
__device__ __forceinline__ void gxd_sel_walked (gxd_sel_state &st, int K)
{
    if (st.nw == K && (!st.tv || sel_before (st.wd [K-1], st.wj [K-1], st.td, st.tj)))
    {
        st.tv = 1 ; st.td = st.wd [K-1] ; st.tj = st.wj [K-1] ;
    }
}

// The slots of the tile's w rows (columns j0 + jj) that take4 (j4) marks
// (bit e: slot j4 + e, for j4 a multiple of 4) are finalized by consider
// (jj, j, tv, td, tj, &d), which returns false for a pair that cannot come
// before the bound (tv, td, tj); the others are listed in Ed/Ej.  When more than the list holds
// pass the bound, the k-th best of those listed is a tighter bound: the
// scan runs again.  Each warp queues the slots it must finalize and
// finalizes them 32 at a time: on short rows a few slots in 32 are
// touched, and finalizing them where they lie would run the warp at that
// fraction of its lanes.  self: the local slot excluded (-1: none); xb:
// the tile's slots that are not candidates (gxd_sel_exclusions).
template <typename Take4, typename Consider>
__device__ void gxd_sel_scan (gxd_sel_state &st, int K, int64_t j0, int w,
    int self, const uint32_t *xb, double *Ed, int32_t *Ej, Take4 take4,
    Consider consider)
{
    const unsigned full = 0xffffffffu ;
    const int tid = threadIdx.x, nt = blockDim.x, lane = tid & 31 ;
    uint16_t *wq = st.q [tid >> 5] ;
    for (;;)
    {
        if (tid == 0) st.nc = 0 ;
        __syncthreads () ;
        const bool tv = st.tv ;
        const double td = st.td ;
        const int32_t tj = st.tj ;
        auto list = [&] (int jj)
        {
            const int32_t j = (int32_t) (j0 + jj) ;
            double d ;
            if (!consider (jj, j, tv, td, tj, &d)) return ;
            const int c = atomicAdd (&st.nc, 1) ;
            if (c < GXD_FX_SEL_CAP) { Ed [c] = d ; Ej [c] = j ; }
        } ;
        int queued = 0 ;                    // the same in every lane
        const unsigned below = (1u << lane) - 1 ;
        for (int base = 4 * (tid - lane) ; base < w ; base += 4 * nt)
        {
            const int j4 = base + 4 * lane ;
            unsigned take = 0 ;
            if (j4 < w)
            {
                take = take4 (j4) ;
                if (w - j4 < 4) take &= (1u << (w - j4)) - 1 ;
                const unsigned ds = (unsigned) (self - j4) ;
                if (ds < 4) take &= ~(1u << ds) ;
                take &= ~(xb [j4 >> 5] >> (j4 & 31)) ;     // j4: a multiple of 4
            }
            int at = queued, added = 0 ;
            #pragma unroll
            for (int e = 0 ; e < 4 ; e++)
            {
                const unsigned ballot = __ballot_sync (full, (take >> e) & 1) ;
                at += __popc (ballot & below) ;
                added += __popc (ballot) ;
            }
            #pragma unroll
            for (int e = 0 ; e < 4 ; e++)
            {
                if ((take >> e) & 1) wq [at++] = (uint16_t) (j4 + e) ;
            }
            queued += added ;
            __syncwarp () ;
            // the last 32 queued, 32 at a time
            while (queued >= 32)
            {
                const int mine = wq [queued - 32 + lane] ;
                queued -= 32 ;
                __syncwarp () ;
                list (mine) ;
            }
        }
        __syncwarp () ;
        if (lane < queued) list (wq [lane]) ;
        __syncthreads () ;
        if (st.nc <= GXD_FX_SEL_CAP) break ;
        for (int c = tid ; c < GXD_FX_SEL_CAP ; c += nt)
        {
            int rank = 0 ;
            for (int e = 0 ; e < GXD_FX_SEL_CAP ; e++)
                rank += sel_before (Ed [e], Ej [e], Ed [c], Ej [c]) ;
            if (rank == K - 1) { st.td = Ed [c] ; st.tj = Ej [c] ; st.tv = 1 ; }
        }
        __syncthreads () ;
    }
}

// rank the scan's candidates, the walk's
// and row r's k best together (every column once: the walk's are
// untouched, the scan's not, the row's from earlier tiles) and keep the k
// first.  E: GXD_FX_SEL_LEN entries.
__device__ __forceinline__ void gxd_sel_merge (const gxd_sel_state &st,
    const gxd_fx_sel &S, int64_t r, double *Ed, int32_t *Ej)
{
    const int tid = threadIdx.x, nt = blockDim.x, K = S.k ;
    const int nc = st.nc, nw = st.nw, c0 = (int) S.ln [r], total = nc + nw + c0 ;
    if (nc == 0 && nw == 0) return ;
    for (int e = tid ; e < nw + c0 ; e += nt)
    {
        if (e < nw) { Ed [nc + e] = st.wd [e] ; Ej [nc + e] = st.wj [e] ; }
        else { Ed [nc + e] = S.ld [r*K + e - nw] ; Ej [nc + e] = (int32_t) S.lj [r*K + e - nw] ; }
    }
    __syncthreads () ;
    for (int e = tid ; e < total ; e += nt)
    {
        int rank = 0 ;
        for (int f = 0 ; f < total ; f++) rank += sel_before (Ed [f], Ej [f], Ed [e], Ej [e]) ;
        if (rank < K) { S.lj [r*K + rank] = Ej [e] ; S.ld [r*K + rank] = Ed [e] ; }
    }
    if (tid == 0) S.ln [r] = (total < K) ? total : K ;
}

#endif
