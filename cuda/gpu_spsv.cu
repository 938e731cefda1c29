// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// cuda/gpu_spsv.cu: the exact union path, load-balanced two-pass SPSV
//------------------------------------------------------------------------------

// Seed 001 §6.2 (Algorithm 3) and seed 004 (segmented reduction by key in a
// warp), written for determinism.  Used where the rewrite cannot be: generic
// monoids without an inverse (max, min, times, any), and exact mode
// (plan.exact: every pair over the union, no cancellation at all).
// Chebyshev has a faster exact scheme (gpu_chebyshev.cu); measured: this
// SPSV runs at 0.8x the naive merge on sparse data, as RAFT's does
// (bench/gpu_measurements.md).
//
// Pass 1: one block per row a of A (rows [i0,i1) of a tile) holds a in
// shared memory: dense (values + presence bits) when k fits, else a hash
// table at <= 50 % load (§6.2.2); rows too long for the table are split
// into column ranges of at most half the table and processed one after the
// other (high-degree partition, §6.2.3).  The block walks every row of B,
// by decreasing degree, each row taken by a group of lanes sized to it
// (spsv_walk_rows; the seed's walk over B's entries in COO order measured
// slower and is gone).  Each (a, b) pair is owned by one group, its
// entries taken in a fixed order: no atomics, the same bits every run.
// Pass 1 covers the columns of b (a∩b and b-only, x = identity where a
// misses).
// Pass 2 swaps the roles (a block per row b, walking A's rows of the tile)
// and applies f(x, e) to the columns of a that b misses.
// A combine kernel merges the two partial states (gxd_ucombine) and
// finishes with gxd_uend.  Workspace: 2-3 values per pair of the tile (4
// for the states that use s1: Bray-Curtis and the scaled sums).

#include "gpu_internal.cuh"
#include <cub/cub.cuh>
#include <stdlib.h>

#define GXD_SPSV_THREADS 256
#define GXD_SPSV_SHMEM (48 * 1024)          // hash table
#define GXD_SPSV_DENSE_MAX (48 * 1024)      // dense row; 112 KB (2 blocks/SM) measured slower than the hash table
// blocks per SM the walk's registers are capped for, and the entries of a
// walked row whose loads each lane has in flight at once
#define GXD_SPSV_MINB 5
#define GXD_SPSV_UNROLL 4
// the walk by rows: classes of walked rows by degree, group widths 32..1
#define GXD_SPSV_CLASSES 6

__device__ __forceinline__ uint32_t gxd_hash (uint32_t c)
{
    // murmur3 finalizer
    c ^= c >> 16 ; c *= 0x85ebca6bu ; c ^= c >> 13 ; c *= 0xc2b2ae35u ;
    c ^= c >> 16 ;
    return c ;
}

// the held row in shared memory
template <typename T, bool DENSE> struct held_row
{
    int32_t *keys ;     // hash: column or -1; dense: presence bits
    T *vals ;
    uint32_t mask ;     // hash capacity - 1
    uint32_t *bits ;    // hash: presence bits in front of the table, or NULL
                        // (most look-ups miss: a bit answers them at once)

    __device__ void clear (int64_t k, int tid, int nt)
    {
        int64_t words = DENSE ? (k + 31) / 32 : (int64_t) mask + 1 ;
        for (int64_t q = tid ; q < words ; q += nt) keys [q] = DENSE ? 0 : -1 ;
        if (!DENSE && bits != NULL)
            for (int64_t q = tid ; q < (k + 31) / 32 ; q += nt) bits [q] = 0 ;
    }

    __device__ void insert (int32_t c, T v)
    {
        if (DENSE)
        {
            vals [c] = v ;
            atomicOr ((unsigned *) &keys [c >> 5], 1u << (c & 31)) ;
        }
        else
        {
            // linear probing; the final layout depends on the order of
            // inserts but every lookup finds the same value
            uint32_t h = gxd_hash ((uint32_t) c) & mask ;
            while (atomicCAS (&keys [h], -1, c) != -1) h = (h + 1) & mask ;
            vals [h] = v ;
            if (bits != NULL) atomicOr (&bits [c >> 5], 1u << (c & 31)) ;
        }
    }

    __device__ bool find (int32_t c, T *v) const
    {
        if (DENSE)
        {
            if (!((keys [c >> 5] >> (c & 31)) & 1)) return false ;
            *v = vals [c] ;
            return true ;
        }
        if (bits != NULL && !((bits [c >> 5] >> (c & 31)) & 1)) return false ;
        uint32_t h = gxd_hash ((uint32_t) c) & mask ;
        for (;;)
        {
            int32_t key = keys [h] ;
            if (key == c) { *v = vals [h] ; return true ; }
            if (key == -1) return false ;
            h = (h + 1) & mask ;
        }
    }
} ;

// write (or, after an earlier column range of the held row, combine into)
// the partial state of one pair
template <int M, int PASS>
__device__ __forceinline__ void spsv_store (const gxd_plan &P, gxd_ustate st,
    int32_t cnt, bool first, int64_t o, double *ws0, double *ws1, int32_t *wsn)
{
    const bool BC = gxd_ustate_two ((gxd_metric_id) M) ;   // s1 kept
    const bool NU = (PASS == 1) && (M == GXD_CORRELATION || M == GXD_GENERIC) ;
    if (!first)
    {
        gxd_ustate old ;
        old.s0 = ws0 [o] ; old.s1 = BC ? ws1 [o] : 0 ;
        st = gxd_ucombine (M, P, old, st) ;
        if (NU) cnt += wsn [o] ;
    }
    ws0 [o] = st.s0 ;
    if (BC) ws1 [o] = st.s1 ;
    if (NU) wsn [o] = cnt ;
}

// one walked entry (column c, value v) against the held row: pass 1 covers
// the columns of the walked row b (x = identity where a misses them), pass
// 2 the columns of a that b misses
template <int M, typename T, int PASS, bool DENSE>
__device__ __forceinline__ void spsv_step (const gxd_plan &P,
    const held_row<T, DENSE> &H, int32_t c, double v, double e,
    const gxd_row &rh, const gxd_row &rw, gxd_ustate *st, int32_t *cnt)
{
    const gxd_metric_id m = (gxd_metric_id) M ;
    T hv ;
    const bool hit = H.find (c, &hv) ;
    if (PASS == 1)
    {
        gxd_ustep (m, &P, st, hit ? (double) hv : e, v, &rh, &rw) ;
        *cnt += hit ;
    }
    else if (!hit) gxd_ustep (m, &P, st, v, e, &rw, &rh) ;
}

// The walk by rows (the default): the walked rows in order of decreasing
// degree (perm, a stable sort: deterministic), cut into six classes by
// degree (bnd); a row of class c is taken by a group of G = 32 >> c lanes
// (G = 32 above 128 entries, then 16, 8, 4, 2 above 8 entries, 1 below),
// so each lane has about four or more entries of its row and the group's
// loads are consecutive.  The G lanes combine by a butterfly (+, max, min
// are commutative, so every lane gets the same bits); rows of like degree
// share a warp, so its groups finish together.  Each pair is owned by one
// group and its entries are taken in a fixed order.  The walked rows may be
// split over gridDim.y blocks per held row (more blocks than one wave).
template <int M, typename T, int PASS, bool DENSE>
__device__ __forceinline__ void spsv_walk_rows (const gxd_plan &P,
    const held_row<T, DENSE> &H, const int64_t *Wp, const int32_t *Wj,
    const T *Wx, const int32_t *perm, int64_t nwalk, const int64_t *bnd,
    int64_t wr0, int32_t clo, int32_t chi, bool first, gxd_drows RW,
    const gxd_row &rh, double *ws0, double *ws1, int32_t *wsn, int64_t ld)
{
    const bool BC = gxd_ustate_two ((gxd_metric_id) M) ;   // s1 kept
    const bool NU = (PASS == 1) && (M == GXD_CORRELATION || M == GXD_GENERIC) ;
    const double e = gxd_missing (M, P) ;
    const int tid = threadIdx.x, nt = blockDim.x ;
    const int lane = tid & 31, wid = tid / 32, nw = nt / 32 ;
    const bool whole = (clo == 0 && chi == INT32_MAX) ;
    for (int cls = 0 ; cls < GXD_SPSV_CLASSES ; cls++)
    {
        const int G = 32 >> cls, per = 32 / G, sub = lane % G ;
        const int64_t lo = bnd [cls], hi = (cls + 1 < GXD_SPSV_CLASSES) ? bnd [cls+1] : nwalk ;
        // the block's slice (blockIdx.y) of the groups, interleaved
        const int64_t g0 = (int64_t) blockIdx.y * nw + wid, gs = (int64_t) gridDim.y * nw ;
        for (int64_t t0 = lo + g0 * per ; t0 < hi ; t0 += gs * per)
        {
            const int64_t t = t0 + lane / G ;
            const bool valid = t < hi ;
            const int32_t r = valid ? perm [t] : 0 ;
            gxd_ustate st = gxd_ubegin ((gxd_metric_id) M, &P) ;
            int32_t cnt = 0 ;
            if (valid)
            {
                const gxd_row rw = gxd_load_row (RW, r) ;
                int64_t q = Wp [r] + sub ;
                const int64_t qe = Wp [r+1] ;
                // U entries' loads in flight at once, then their steps in
                // the entries' order (the same order as one at a time); the
                // last, partial run too, by predicated loads (a remainder
                // loop one load at a time spilled and exposed each load's
                // latency: MovieLens-like Chebyshev 0.2223 -> 0.2061 ms per
                // 10^6 pairs, scRNA-like 0.658 -> 0.589)
                constexpr int U = GXD_SPSV_UNROLL ;
                for ( ; q < qe ; q += U * G)
                {
                    int32_t c [U] ; T v [U] ;
                    #pragma unroll
                    for (int u = 0 ; u < U ; u++)
                    {
                        const bool in = q + u * G < qe ;
                        c [u] = in ? __ldg (Wj + q + u * G) : -1 ;
                        v [u] = in ? __ldg (Wx + q + u * G) : (T) 0 ;
                    }
                    #pragma unroll
                    for (int u = 0 ; u < U ; u++)
                        if (c [u] >= 0 && (whole || (c [u] >= clo && c [u] < chi)))
                            spsv_step<M, T, PASS, DENSE> (P, H, c [u], (double) v [u],
                                e, rh, rw, &st, &cnt) ;
                }
            }
            for (int off = G / 2 ; off > 0 ; off >>= 1)
            {
                gxd_ustate o ;
                o.s0 = __shfl_xor_sync (0xffffffffu, st.s0, off) ;
                o.s1 = BC ? __shfl_xor_sync (0xffffffffu, st.s1, off) : 0 ;
                if (NU) cnt += __shfl_xor_sync (0xffffffffu, cnt, off) ;
                st = gxd_ucombine (M, P, st, o) ;
            }
            if (valid && sub == 0)
                spsv_store<M, PASS> (P, st, cnt, first,
                    (int64_t) blockIdx.x * ld + (r - wr0), ws0, ws1, wsn) ;
        }
    }
}

// PASS 1: held = row of A, walk = rows of B; PASS 2: held = row of B, walk
// = rows of A.  Output partial state of pair (held bid, walked r) at
// bid * ld + (r - wr0).
template <int M, typename T, int PASS, bool DENSE>
__global__ void __launch_bounds__ (GXD_SPSV_THREADS, GXD_SPSV_MINB) k_spsv (gxd_plan P,
    const int64_t *Hp, const int32_t *Hj, const T *Hx, int64_t h0,
    const int64_t *Wp, const int32_t *Wj, const T *Wx, const int32_t *perm, const int64_t *bnd, int64_t wr0, int64_t wr1,
    gxd_drows RA, gxd_drows RB, int64_t k, int hcap, bool use_bits,
    double *ws0, double *ws1, int32_t *wsn, int64_t ld)
{
    extern __shared__ int32_t shraw [] ;
    const int tid = threadIdx.x, nt = blockDim.x ;
    const int64_t h = h0 + blockIdx.x ;

    held_row<T, DENSE> H ;
    H.keys = shraw ;
    int64_t words = DENSE ? (k + 31) / 32 : hcap ;
    H.vals = (T *) (shraw + ((words + 3) & ~3LL)) ;
    H.mask = hcap - 1 ;
    H.bits = (!DENSE && use_bits) ? (uint32_t *) (H.vals + hcap) : NULL ;

    const int64_t plo = Hp [h], phi = Hp [h+1] ;
    const int64_t chunk = DENSE ? (phi - plo + 1) : hcap / 2 ;
    const gxd_row rh = gxd_load_row (PASS == 1 ? RA : RB, h) ;

    for (int64_t c0 = plo ; c0 < phi || c0 == plo ; c0 += chunk)
    {
        const int64_t c1 = (c0 + chunk < phi) ? c0 + chunk : phi ;
        // the column range this chunk answers for: every walked entry falls
        // in exactly one chunk's range
        const int32_t clo = (c0 == plo) ? 0 : Hj [c0] ;
        const int32_t chi = (c1 >= phi) ? INT32_MAX : Hj [c1] ;
        __syncthreads () ;
        H.clear (k, tid, nt) ;
        __syncthreads () ;
        for (int64_t q = c0 + tid ; q < c1 ; q += nt) H.insert (Hj [q], Hx [q]) ;
        __syncthreads () ;
        spsv_walk_rows<M, T, PASS, DENSE> (P, H, Wp, Wj, Wx, perm,
            wr1 - wr0, bnd, wr0, clo, chi, c0 == plo,
            PASS == 1 ? RB : RA, rh, ws0, ws1, wsn, ld) ;
        if (c1 >= phi) break ;
    }
}

// C (i, j) = uend (pass1 (i,j) (+) pass2 (j,i)); pass 2 is stored transposed
// and read through a 32x32 shared tile
template <int M, typename T>
__global__ void k_spsv_combine (gxd_plan P, const double *p1a, const double *p1b,
    const int32_t *p1n, const double *p2a, const double *p2b, gxd_drows RA,
    gxd_drows RB, int64_t i0, int64_t rows, int64_t n, int64_t k, T *Ct)
{
    const gxd_metric_id m = (gxd_metric_id) M ;
    const bool BC = gxd_ustate_two ((gxd_metric_id) M) ;   // s1 kept
    __shared__ double ta [32][33], tb [32][33] ;
    const int64_t ib = blockIdx.y * 32, jb = blockIdx.x * 32 ;
    const int tx = threadIdx.x, ty = threadIdx.y ;   // 32 x 8
    for (int r = ty ; r < 32 ; r += 8)
    {
        int64_t j = jb + r, i = ib + tx ;
        if (j < n && i < rows)
        {
            ta [r][tx] = p2a [j * rows + i] ;
            if (BC) tb [r][tx] = p2b [j * rows + i] ;
        }
    }
    __syncthreads () ;
    for (int r = ty ; r < 32 ; r += 8)
    {
        int64_t i = ib + r, j = jb + tx ;
        if (i >= rows || j >= n) continue ;
        int64_t o = i * n + j ;
        gxd_ustate s1, s2 ;
        s1.s0 = p1a [o] ; s1.s1 = BC ? p1b [o] : 0 ;
        s2.s0 = ta [tx][r] ; s2.s1 = BC ? tb [tx][r] : 0 ;
        gxd_ustate s = gxd_ucombine (M, P, s1, s2) ;
        gxd_row ra = gxd_load_row (RA, i0 + i), rb = gxd_load_row (RB, j) ;
        int64_t nu = 0 ;
        if (M == GXD_CORRELATION || M == GXD_GENERIC) nu = ra.nnz + rb.nnz - p1n [o] ;
        Ct [o] = (T) gxd_sanitize<M> (gxd_uend (m, &P, &s, nu, &ra, &rb, k)) ;
    }
}

//------------------------------------------------------------------------------
// launch
//------------------------------------------------------------------------------

static unsigned nblk (int64_t work, int t)
{
    int64_t b = (work + t - 1) / t ;
    return (unsigned) (b < 1 ? 1 : b) ;
}

// the shared layout: dense when k values + k bits fit, else a hash table of
// hcap slots (a power of two, keys + values)
static bool spsv_dense (int64_t k, size_t tsize, int *hcap, size_t *shmem)
{
    int cap = 32 ;
    while ((size_t) (2 * cap) * (4 + tsize) + 16 <= GXD_SPSV_SHMEM) cap *= 2 ;
    *hcap = cap ;
    size_t dense = (size_t) k * tsize + 4 * ((k + 31) / 32) + 32 ;
    bool use = dense <= GXD_SPSV_DENSE_MAX ;
    *shmem = use ? (dense > GXD_SPSV_SHMEM ? dense : GXD_SPSV_SHMEM) : GXD_SPSV_SHMEM ;
    return use ;
}

template <int M, typename T, int PASS>
static GrB_Info launch_pass (gxd_gpu_ctx *G, const gxd_dcsr *H, int64_t h0,
    int64_t nh, const gxd_dcsr *W, int64_t wr0, int64_t wr1,
    const int32_t *perm, const int64_t *bnd, double *a, double *b,
    int32_t *cnt, int64_t ld, cudaStream_t s, char *msg)
{
    GrB_Info info = GrB_SUCCESS ;
    int hcap, slices = 1 ;
    size_t shmem ;
    bool dense = spsv_dense (G->A.ncols, sizeof (T), &hcap, &shmem) ;
    // presence bits in front of the hash table when k is at most 64K
    // (8 KB on top of the table's 32 KB (FP32) or 24 KB (FP64))
    const bool use_bits = !dense && G->A.ncols <= 65536 ;
    if (use_bits)
        shmem = (size_t) hcap * (4 + sizeof (T)) + (G->A.ncols + 31) / 32 * 4 + 64 ;
    // set on every launch: the limit stays with the kernel, and a smaller one
    // left by an earlier call (k <= 64K, bits) refused the next (k > 64K)
    if (!dense)
    {
        GXD_CUDA_TRY (cudaFuncSetAttribute (k_spsv<M, T, PASS, false>,
            cudaFuncAttributeMaxDynamicSharedMemorySize, (int) shmem)) ;
    }
    else
    {
        GXD_CUDA_TRY (cudaFuncSetAttribute (k_spsv<M, T, PASS, true>,
            cudaFuncAttributeMaxDynamicSharedMemorySize, (int) shmem)) ;
    }
    {
        // few held rows (pass 1 of a small row tile): split the walk so the
        // grid fills the GPU about four times over (at most 8 slices)
        int dev = 0, sms = 1, per_sm = 1 ;
        GXD_CUDA_TRY (cudaGetDevice (&dev)) ;
        GXD_CUDA_TRY (cudaDeviceGetAttribute (&sms, cudaDevAttrMultiProcessorCount, dev)) ;
        GXD_CUDA_TRY (cudaOccupancyMaxActiveBlocksPerMultiprocessor (&per_sm,
            dense ? (const void *) k_spsv<M, T, PASS, true>
                  : (const void *) k_spsv<M, T, PASS, false>,
            GXD_SPSV_THREADS, shmem)) ;
        int64_t want = 4 * (int64_t) sms * (per_sm > 0 ? per_sm : 1) ;
        slices = (int) ((want + nh - 1) / (nh > 0 ? nh : 1)) ;
        slices = (slices < 1) ? 1 : (slices > 8) ? 8 : slices ;
    }
    for (int64_t r0 = 0 ; r0 < nh ; r0 += INT32_MAX)
    {
        int64_t nr = (nh - r0 < INT32_MAX) ? nh - r0 : INT32_MAX ;
        dim3 grid ((unsigned) nr, (unsigned) slices) ;
        #define GXD_SPSV_ARGS G->P, H->p, H->j, (const T *) H->x, h0 + r0,     \
            W->p, W->j, (const T *) W->x, perm, bnd, wr0, wr1,                 \
            G->RA, G->RB, G->A.ncols, hcap, use_bits, a + r0 * ld,             \
            b ? b + r0 * ld : NULL, cnt ? cnt + r0 * ld : NULL, ld
        if (dense)
            k_spsv<M, T, PASS, true> <<<grid, GXD_SPSV_THREADS,
                shmem, s>>> (GXD_SPSV_ARGS) ;
        else
            k_spsv<M, T, PASS, false> <<<grid, GXD_SPSV_THREADS,
                shmem, s>>> (GXD_SPSV_ARGS) ;
        #undef GXD_SPSV_ARGS
        GXD_LAUNCH_CHECK () ;
    }
cleanup:
    return info ;
}

//------------------------------------------------------------------------------
// rows by decreasing degree (the walk by rows)
//------------------------------------------------------------------------------

__global__ void k_degrees (const int64_t *p, int64_t r0, int64_t nr,
    uint32_t *deg, int32_t *idx)
{
    int64_t t = blockIdx.x * (int64_t) blockDim.x + threadIdx.x ;
    if (t >= nr) return ;
    deg [t] = (uint32_t) (p [r0 + t + 1] - p [r0 + t]) ;
    idx [t] = (int32_t) (r0 + t) ;
}

// the class bounds of the sorted (decreasing) degrees: bnd [c] = how many
// rows have more than 4 * (32 >> (c-1)) = 256 >> c entries (four per lane
// of the class above); class 0 starts at 0
__global__ void k_class_bounds (const uint32_t *deg, int64_t nr, int64_t *bnd)
{
    bnd [0] = 0 ;
    for (int c = 1 ; c < GXD_SPSV_CLASSES ; c++)
    {
        const uint32_t thr = 256u >> c ;      // 128, 64, 32, 16, 8
        int64_t lo = 0, hi = nr ;
        while (lo < hi)
        {
            int64_t mid = (lo + hi) / 2 ;
            if (deg [mid] > thr) lo = mid + 1 ; else hi = mid ;
        }
        bnd [c] = lo ;
    }
}

// perm = rows [r0, r1) of p by decreasing degree (stable: ties keep their
// order, so the same perm every run) and the class bounds
static GrB_Info sort_by_degree (gxd_gpu_ctx *G, const int64_t *p, int64_t r0,
    int64_t r1, int32_t *perm, int64_t *bnd, cudaStream_t s, char *msg)
{
    GrB_Info info = GrB_SUCCESS ;
    const int64_t nr = r1 - r0, maxn = G->spsv.sort_rows ;
    uint32_t *din = (uint32_t *) G->spsv.sort_ws, *dout = din + maxn ;
    int32_t *iin = (int32_t *) (dout + maxn) ;
    // CUB's workspace 256-byte aligned (the allocation has room for it)
    void *tmp = (void *) (((uintptr_t) (iin + maxn) + 255) & ~(uintptr_t) 255) ;
    size_t tb = G->spsv.sort_bytes ;
    if (nr <= 0) return GrB_SUCCESS ;
    if (nr > maxn) return gxd_fail (GrB_PANIC, msg, "SPSV sort larger than its workspace") ;
    k_degrees <<<nblk (nr, 256), 256, 0, s>>> (p, r0, nr, din, iin) ;
    GXD_LAUNCH_CHECK () ;
    GXD_CUDA_TRY (cub::DeviceRadixSort::SortPairsDescending (tmp, tb, din, dout,
        iin, perm, (int) nr, 0, 32, s)) ;
    k_class_bounds <<<1, 1, 0, s>>> (dout, nr, bnd) ;
    GXD_LAUNCH_CHECK () ;
cleanup:
    return info ;
}

template <int M, typename T>
static GrB_Info launch_spsv (gxd_gpu_ctx *G, int64_t i0, int64_t i1,
    void *Ct, cudaStream_t s, char *msg)
{
    GrB_Info info = GrB_SUCCESS ;
    const bool bc = gxd_ustate_two ((gxd_metric_id) M) ;
    const bool nu = (M == GXD_CORRELATION || M == GXD_GENERIC) ;
    const int64_t n = G->B.nrows, rows = i1 - i0, len = rows * n ;
    if (rows <= 0 || n <= 0) return GrB_SUCCESS ;
    // workspace: pass 1 [rows][n], pass 2 [n][rows], the states' s1 after
    // (Bray-Curtis's denominators, the scales of scaled sums)
    double *w = (double *) G->spsv.ws1 ;
    double *p1a = w, *p2a = w + len ;
    double *p1b = bc ? w + 2 * len : NULL, *p2b = bc ? w + 3 * len : NULL ;
    int32_t *p1n = nu ? G->spsv.wsint : NULL ;
    GXD_GPU_TRY (sort_by_degree (G, G->A.p, i0, i1, G->spsv.perm_a, G->spsv.bnd + GXD_SPSV_CLASSES, s, msg)) ;
    GXD_GPU_TRY ((launch_pass<M, T, 1> (G, &G->A, i0, rows, &G->B, 0, n,
        G->spsv.perm_b, G->spsv.bnd, p1a, p1b, p1n, n, s, msg))) ;
    GXD_GPU_TRY ((launch_pass<M, T, 2> (G, &G->B, 0, n, &G->A, i0, i1,
        G->spsv.perm_a, G->spsv.bnd + GXD_SPSV_CLASSES, p2a, p2b, NULL, rows, s, msg))) ;
    {
        dim3 grid (nblk (n, 32), nblk (rows, 32)), block (32, 8) ;
        k_spsv_combine<M, T> <<<grid, block, 0, s>>> (G->P, p1a, p1b, p1n,
            p2a, p2b, G->RA, G->RB, i0, rows, n, G->A.ncols, (T *) Ct) ;
        GXD_LAUNCH_CHECK () ;
    }
cleanup:
    return info ;
}

GrB_Info gxd_spsv_tile (gxd_gpu_ctx *G, int64_t i0, int64_t i1, void *Ct,
    cudaStream_t s, char *msg)
{
    const gxd_plan *P = &G->P ;
    if (i1 - i0 > G->spsv.ws_rows)
        return gxd_fail (GrB_PANIC, msg, "SPSV tile larger than its workspace") ;
    GXD_DISPATCH (P, launch_spsv, G, i0, i1, Ct, s, msg) ;
    return gxd_fail (GrB_INVALID_VALUE, msg, "unknown metric in plan") ;
}

// bytes of workspace per output pair of an SPSV tile
size_t gxd_spsv_bytes_per_pair (const gxd_plan *P)
{
    bool bc = gxd_ustate_two (P->metric) ;
    bool nu = P->metric == GXD_CORRELATION || P->metric == GXD_GENERIC ;
    return (bc ? 32 : 16) + (nu ? 4 : 0) ;
}

GrB_Info gxd_spsv_prepare (gxd_gpu_ctx *G, int64_t tile_rows, cudaStream_t s,
    char *msg)
{
    GrB_Info info = GrB_SUCCESS ;
    const int64_t n = G->B.nrows ;
    int64_t len = tile_rows * n ;
    bool bc = gxd_ustate_two (G->P.metric) ;
    bool nu = G->P.metric == GXD_CORRELATION || G->P.metric == GXD_GENERIC ;
    if (len < 1) len = 1 ;
    GXD_GPU_TRY (gxd_row_contexts (&G->P, &G->A, true, &G->RA, s, msg)) ;
    GXD_GPU_TRY (gxd_row_contexts (&G->P, &G->B, false, &G->RB, s, msg)) ;
    GXD_CUDA_TRY (cudaMalloc (&G->spsv.ws1, (size_t) len * (bc ? 4 : 2) * sizeof (double))) ;
    if (nu) GXD_CUDA_TRY (cudaMalloc (&G->spsv.wsint, (size_t) len * sizeof (int32_t))) ;
    G->spsv.ws_rows = tile_rows ;
    {
        // the walk by rows: B's rows sorted once, A's per row tile
        int64_t maxn = (n > tile_rows) ? n : tile_rows ;
        if (maxn < 1) maxn = 1 ;
        size_t tb = 0 ;
        GXD_CUDA_TRY (cub::DeviceRadixSort::SortPairsDescending (NULL, tb,
            (uint32_t *) NULL, (uint32_t *) NULL, (int32_t *) NULL,
            (int32_t *) NULL, (int) maxn, 0, 32, s)) ;
        G->spsv.sort_rows = maxn ;
        G->spsv.sort_bytes = tb ;
        GXD_CUDA_TRY (cudaMalloc (&G->spsv.sort_ws, (size_t) maxn * 12 + 256 + tb)) ;
        GXD_CUDA_TRY (cudaMalloc (&G->spsv.perm_b, (size_t) (n > 0 ? n : 1) * sizeof (int32_t))) ;
        GXD_CUDA_TRY (cudaMalloc (&G->spsv.perm_a, (size_t) maxn * sizeof (int32_t))) ;
        GXD_CUDA_TRY (cudaMalloc (&G->spsv.bnd, 2 * GXD_SPSV_CLASSES * sizeof (int64_t))) ;
        GXD_GPU_TRY (sort_by_degree (G, G->B.p, 0, n, G->spsv.perm_b, G->spsv.bnd, s, msg)) ;
    }
cleanup:
    return info ;
}
