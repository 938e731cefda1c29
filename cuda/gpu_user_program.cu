// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// cuda/gpu_user_program.cu: the CUDA text of a user operator's kernels
//------------------------------------------------------------------------------

// The kernels themselves are described in gpu_user.cu, which launches them.

#include "gpu_user_program.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

#define GXD_USER_STR(x) GXD_USER_STR2 (x)
#define GXD_USER_STR2(x) #x

// The program's text: @KERNELS@ which kernels besides gxd_user_pairs (a
// gxd_user_kernels: fewer to compile, a shorter first call), @PRELUDE@ the
// integer types and gxd_T, the values' type, @CONSTANTS@ <math.h>'s,
// @GXD_F@ (x) as gxd_f (the user's definitions and the function, or its
// declaration where the operator is linked), @ADD@ the body of gxd_a, @ID@
// where (+)'s fold starts, @EMPTY@ the monoid's identity (a pair of no
// column), @NANKEY@ a NaN key, @FOLD@ the columns missing from both rows (c
// of them, c > 0) folded into s, @THREADS@ GXD_USER_THREADS, @TN@
// GXD_USER_TN_WIDE, @VSLOTS@ GXD_USER_VSLOTS, @NOVAL@ GXD_USER_NOVAL
static const char *kernel_template = R"(
@KERNELS@
@PRELUDE@
// rows of B per tile at most (GXD_USER_TN_WIDE)
#define GXD_USER_TN_MAX @TN@
// products of a chunk of row i's columns past which the rewrite's kNN
// does not mark its touched pairs as their terms are added (a shared atomic
// each): so many products touch many pairs, which are then all finalized,
// with no walk.  A quarter of the tile's rows, and at least this.
#define GXD_USER_MARK 1024
#define GXD_USER_VSLOTS @VSLOTS@
#define GXD_USER_NOVAL @NOVAL@
// before the user's text, so that no macro of theirs can change it
#ifdef GXD_USER_SELECT
#include "gpu_split_select.cuh"
#endif
#if defined (GXD_USER_REWRITE) || defined (GXD_USER_KNN)
// the MIN and MAX kNN's list cut out of line: the program compiles about a
// sixth faster, and its kernel is no slower (the rewrite's is: 3 %)
#ifdef GXD_USER_SELECT
#define GXD_KLIST_CUT_OUTLINED
#endif
#include "gpu_klist.cuh"
#endif
@CONSTANTS@
@GXD_F@
__device__ __forceinline__ double gxd_a (double s, double t) { @ADD@ }

// the pair (i,j) over the union of its rows' columns
__device__ double gxd_union (const long long *Ap, const int *Aj,
    const gxd_T *Ax, const long long *Bp, const int *Bj, const gxd_T *Bx,
    long long i, long long j, long long k, double e, double fee)
{
    long long p = Ap [i], pend = Ap [i+1], r = Bp [j], rend = Bp [j+1] ;
    double s = @ID@ ;
    long long nu = 0 ;
    while (p < pend || r < rend)
    {
        int ca = (p < pend) ? Aj [p] : 0x7fffffff ;
        int cb = (r < rend) ? Bj [r] : 0x7fffffff ;
        double x = (ca <= cb) ? (double) Ax [p] : e ;
        double y = (cb <= ca) ? (double) Bx [r] : e ;
        s = gxd_a (s, gxd_f (x, y)) ;
        nu++ ;
        p += (ca <= cb) ;
        r += (cb <= ca) ;
    }
    long long c = k - nu ;
    if (c > 0) { @FOLD@ }
    // no column, no term: the monoid's own identity
    return (k == 0) ? @EMPTY@ : s ;
}

// npairs pairs: every (i0 + q / n, q % n) when Prow is 0, else the mask's
// (Prow [q], Pj [q]); C [q] each
extern "C" __global__ void gxd_user_pairs (const long long *Ap,
    const int *Aj, const gxd_T *Ax, const long long *Bp, const int *Bj,
    const gxd_T *Bx, const int *Prow, const int *Pj, long long i0,
    long long n, long long npairs, long long k, double e, double fee,
    gxd_T *C)
{
    for (long long q = blockIdx.x * (long long) blockDim.x + threadIdx.x ;
         q < npairs ; q += (long long) gridDim.x * blockDim.x)
    {
        long long i, j ;
        if (Prow == 0) { i = q / n ; j = q - i * n ; i += i0 ; }
        else { i = Prow [q] ; j = Pj [q] ; }
        C [q] = (gxd_T) gxd_union (Ap, Aj, Ax, Bp, Bj, Bx, i, j, k, e, fee) ;
    }
}

// a double's bits as an unsigned key in the order of the values, and back
__device__ __forceinline__ unsigned long long gxd_user_key (double y)
{
    const unsigned long long b = (unsigned long long) __double_as_longlong (y) ;
    return (b >> 63) ? ~b : (b | 0x8000000000000000ULL) ;
}
__device__ __forceinline__ double gxd_user_unkey (unsigned long long k)
{
    return __longlong_as_double ((long long) ((k >> 63) ? (k & 0x7FFFFFFFFFFFFFFFULL) : ~k)) ;
}

#ifdef GXD_USER_KNN
// the k nearest inside the rewrite or the select (GXD_gpu_knn's fused
// path), in gpu_klist.cuh's lists: the library's order of a value, NaN
// last and -0 as 0 (gpu_knn.cu's gxd_key), then the column
struct gxd_user_order
{
    __device__ static unsigned long long key (gxd_T v)
    {
        const double a = (double) v ;
        return (a != a) ? ~0ULL : gxd_user_key (a + 0.0) ;
    }
    __device__ static bool before (gxd_T av, int aj, gxd_T bv, int bj)
    {
        const unsigned long long ka = key (av), kb = key (bv) ;
        return ka < kb || (ka == kb && aj < bj) ;
    }
    __device__ static gxd_T pad_v (void) { return (gxd_T) NAN ; }
    __device__ static int pad_j (void) { return 0x7fffffff ; }
} ;

// the list's room: a round (a pair a thread) starts with at most
// GXD_USER_KNN_CAP - @THREADS@ listed
#define GXD_USER_KNN_CAP (2 * @THREADS@)
// a warp's queue of slots to finalize (gxd_user_knn_scan): 31 left over
// and 32 new
#define GXD_USER_KNN_QLEN 64

// the list's cnt entries (cut) as the row's K best (row blockIdx.x)
__device__ __forceinline__ void gxd_user_knn_store (const gxd_T *lv,
    const int *lj, int cnt, long long *Lj, double *Ld, long long *Ln, int K)
{
    const long long r = blockIdx.x ;
    for (int q = threadIdx.x ; q < cnt ; q += blockDim.x)
    {
        Lj [r*K + q] = lj [q] ; Ld [r*K + q] = (double) lv [q] ;
    }
    if (threadIdx.x == 0) Ln [r] = cnt ;
}

// pass (jj) on each slot jj of [0, w) that takeh (h) marks (bit b: slot
// G h + b), each lane a group of G slots at a time.  Each warp lists its
// marked slots and passes them 32 at a time: where a few slots in 32 are
// marked, passing them where they lie would run the warp at that fraction
// of its lanes (gpu_fused_select.cuh's gxd_sel_scan does the same).  The
// marked slots of similar rows of B are often next to each other, and the
// warp that holds them works while the others wait at the next barrier:
// so they are shared out, either by SPREAD (warp u takes the groups h = u
// mod the warps: for a takeh reading a word per 32 slots; one reading each
// slot would have the lanes' reads fall in one bank) or by small groups
// (G = 4: a warp's 32 lanes take 128 consecutive slots, the next warp the
// next 128).  q: the warp's GXD_USER_KNN_QLEN entries.
template <int G, bool SPREAD, typename TAKEH, typename PASS>
__device__ __forceinline__ void gxd_user_knn_scan (int w, unsigned short *q,
    TAKEH takeh, PASS pass)
{
    const unsigned full = 0xffffffffu ;
    const int lane = threadIdx.x & 31, nh = (w + G - 1) / G ;
    const int warp = threadIdx.x / 32, nwarps = blockDim.x / 32 ;
    const unsigned below = (1u << lane) - 1 ;
    int queued = 0 ;                    // the same in every lane
    for (int base = 0 ; base * (SPREAD ? nwarps : 1) < nh ;
         base += 32 * (SPREAD ? 1 : nwarps))
    {
        const int h = SPREAD ? (base + lane) * nwarps + warp
                             : base + 32 * warp + lane ;
        unsigned bits = (h < nh) ? takeh (h) : 0 ;
        // a slot a lane at a time, the lowest first
        while (__any_sync (full, bits != 0))
        {
            const bool b = bits != 0 ;
            const int jj = G * h + __ffs (bits) - 1 ;
            bits &= bits - 1 ;
            const unsigned ballot = __ballot_sync (full, b) ;
            if (b) q [queued + __popc (ballot & below)] = (unsigned short) jj ;
            queued += __popc (ballot) ;
            __syncwarp () ;
            if (queued >= 32)
            {
                const int mine = q [queued - 32 + lane] ;
                queued -= 32 ;
                __syncwarp () ;
                pass (mine) ;
            }
        }
    }
    __syncwarp () ;
    if (lane < queued) pass (q [lane]) ;
}

// row i's K best so far and the bound (gxd_user_knn_begin's), then the
// list of gxd_user_knn_select
struct gxd_user_klist
{
    gxd_T v [GXD_USER_KNN_CAP] ;
    int j [GXD_USER_KNN_CAP] ;
    gxd_T bv ;
    int bj, bok, cnt, walked, c0 ;
} ;

// L from row blockIdx.x's lists (Lj, Ld, Ln, sorted by gxd_user_order), at
// the kernel's start: their loads then wait on nothing but each other, and
// the barriers before gxd_user_knn_select publish them
__device__ __forceinline__ void gxd_user_knn_begin (gxd_user_klist &L,
    const long long *Lj, const double *Ld, const long long *Ln, int K)
{
    const long long r = blockIdx.x ;
    const int c0 = (int) Ln [r] ;
    for (int u = threadIdx.x ; u < c0 ; u += blockDim.x)
    {
        L.v [u] = (gxd_T) Ld [r*K + u] ; L.j [u] = (int) Lj [r*K + u] ;
    }
    if (threadIdx.x == 0)
    {
        L.c0 = L.cnt = c0 ;
        L.walked = 0 ;
        L.bok = (c0 == K) ;
        if (c0 == K) { L.bv = (gxd_T) Ld [r*K + K-1] ; L.bj = (int) Lj [r*K + K-1] ; }
    }
}

// The block's (row i's) pairs with the tile [j0, j0 + w), final_d (jj) each,
// merged into row i's K best so far (L, from gxd_user_knn_begin), as
// gpu_knn.cu's filter selects from a tile of distances: a bound (the K-th
// best so far, or of a sample of the tile's pairs where fewer than K are
// known) drops almost every pair with one comparison, and the few that pass
// are listed and cut to the K best.
// Each value is the one C would hold (gxd_T), so the neighbors are those
// of the distances the all-pairs kernel writes.  lower (jj): a value the
// pair's cannot come before (NaN: none known), cheaper than final_d: a
// pair whose lower value comes after the bound is dropped without it.
//
// WALK (the rewrite, and the select where f(e,e) joins every pair): first
// warp 0 lists the best of the tile's untouched pairs, walk (lv, lj, have,
// b, c, &nw), after the row's K best; where it could (it returns true),
// only the slots touchedh (h) marks (as gxd_user_knn_scan's takeh, G and
// SPREAD its) are finalized, queued in q, @THREADS@ / 32 * GXD_USER_KNN_QLEN
// entries.
template <bool WALK, bool SPREAD, int G, typename FIN, typename LOW,
    typename TOUCHH, typename WALKER>
__device__ void gxd_user_knn_select (gxd_user_klist &L, FIN final_d,
    LOW lower, TOUCHH touchedh, WALKER walk, long long i, long long j0,
    int w, long long *Lj, double *Ld, long long *Ln, int K,
    int exclude_self, unsigned short *q)
{
    gxd_T *lv = L.v, &bv = L.bv ;
    int *lj = L.j, &bj = L.bj, &bok = L.bok, &cnt = L.cnt, &walked = L.walked ;
    const int tid = threadIdx.x, nt = blockDim.x, c0 = L.c0 ;
    if constexpr (WALK)
    {
        if (tid < 32)
        {
            int nw = 0 ;
            const bool ok = walk (lv + c0, lj + c0, bok, bv, bj, &nw) ;
            if (tid == 0 && ok)
            {
                walked = 1 ;
                cnt = c0 + nw ;
                if (c0 + nw >= K)
                {
                    // the bound: the K-th of the row's K best so far and
                    // the walk's, two sorted lists (columns of other tiles)
                    int a = 0, b = c0 ;
                    for (int u = 0 ; u < K ; u++)
                    {
                        const bool first = b == c0 + nw || (a < c0
                            && gxd_user_order::before (lv [a], lj [a], lv [b], lj [b])) ;
                        const int at = first ? a++ : b++ ;
                        bv = lv [at] ; bj = lj [at] ;
                    }
                    bok = 1 ;
                }
            }
        }
        __syncthreads () ;
    }
    // listed before the tile's other pairs: the row's and the walk's
    const int listed0 = cnt ;
    const bool skip = walked ;
    unsigned short *wq = q + (tid / 32) * GXD_USER_KNN_QLEN ;
    // the slots to finalize: where the walk took the untouched ones, those
    // of G h .. G h + G - 1 that are touched (takeh) or slot jj if touched
    // (take), and not row i itself; else every slot but row i's
    const long long self = exclude_self ? i - j0 : -1 ;
    auto takeh = [&] (int h) -> unsigned
    {
        unsigned t = touchedh (h) ;
        if (w - G * h < G) t &= (1u << (w - G * h)) - 1 ;
        const unsigned long long ds = (unsigned long long) (self - G * h) ;
        if (ds < G) t &= ~(1u << ds) ;
        return t ;
    } ;
    auto take = [&] (int jj) -> bool
    {
        return (WALK && skip) ? ((takeh (jj / G) >> (jj % G)) & 1) : (jj != self) ;
    } ;
    if (bok)
    {
        // one pass with no barrier: the bound, the K-th best of the
        // earlier tiles' pairs and the walk's, lets few of the tile's pass
        // (where more pass than the list holds, the rounds below take the
        // tile again)
        int over = 0 ;
        const unsigned long long bk = gxd_user_order::key (bv) ;
        const int c = bj ;
        auto pass = [&] (int jj)
        {
            const int j = (int) (j0 + jj) ;
            // (rounding to gxd_T keeps the order: the pair's own value
            // comes after the bound too)
            const double lo = lower (jj) ;
            if (lo == lo)
            {
                const unsigned long long lk = gxd_user_order::key ((gxd_T) lo) ;
                if (lk > bk || (lk == bk && j > c)) return ;
            }
            const gxd_T v = (gxd_T) final_d (jj) ;
            const unsigned long long vk = gxd_user_order::key (v) ;
            if (vk < bk || (vk == bk && j <= c))        // not after the bound
            {
                const int u = atomicAdd (&cnt, 1) ;
                if (u < GXD_USER_KNN_CAP) { lv [u] = v ; lj [u] = j ; }
                else over = 1 ;
            }
        } ;
        if (WALK && skip) gxd_user_knn_scan<G, SPREAD> (w, wq, takeh, pass) ;
        else
        {
            for (int jj = tid ; jj < w ; jj += nt) if (jj != self) pass (jj) ;
        }
        if (!__syncthreads_or (over))
        {
            if (cnt == c0) return ;             // the row's K best stand
            gxd_klist_cut<gxd_user_order, GXD_USER_KNN_CAP, @THREADS@> (lv, lj,
                cnt, bv, bj, bok, K) ;
            gxd_user_knn_store (lv, lj, cnt, Lj, Ld, Ln, K) ;
            return ;
        }
        if (tid == 0) cnt = listed0 ;
        __syncthreads () ;
    }
    else
    {
        // the K-th best of nt distinct pairs spread over the tile, sorted
        // in the list's upper half
        gxd_klist_sample<gxd_user_order, @THREADS@> (lv + GXD_USER_KNN_CAP - nt,
            lj + GXD_USER_KNN_CAP - nt, [&] (int t, gxd_T &v, int &j)
        {
            const int jj = (w >= nt) ? (int) ((long long) t * w / nt) : t ;
            if (jj < w && !(exclude_self && j0 + jj == i))
            {
                v = (gxd_T) final_d (jj) ; j = (int) (j0 + jj) ;
            }
        }, K, bv, bj, bok) ;
    }
    // rounds of a pair a thread, a barrier each
    for (int base = 0 ; base < w ; base += nt)
    {
        const int jj = base + tid ;
        const gxd_T b = bv ;
        const int c = bj, have = bok ;
        int top = -1 ;
        if (jj < w && take (jj))
        {
            top = gxd_klist_offer<gxd_user_order> (lv, lj, cnt, have, b, c,
                (gxd_T) final_d (jj), (int) (j0 + jj), top) ;
        }
        gxd_klist_round_end<gxd_user_order, GXD_USER_KNN_CAP, @THREADS@, @THREADS@>
            (lv, lj, cnt, bv, bj, bok, K, top, base + nt >= w) ;
    }
    gxd_user_knn_store (lv, lj, cnt, Lj, Ld, Ln, K) ;
}

// warp 0: the tile's untouched pairs (untouched (jj)) in the order of a
// key of row j (ord, okey: the tile's rows sorted by (key, row)) on which
// their value (jj) depends alone and never decreases as it grows; the K
// best that come before the bound (b, c) where have, sorted, into wv / wj
// (*nw_out of them, lane 0's).  A pair that cannot be listed ends the
// walk: every later one comes after it.  The walk starts at position at,
// with the nw pairs wv / wj hold already (those of every earlier position
// that can be listed).
template <typename VAL, typename UNT>
__device__ void gxd_user_walk (VAL value, UNT untouched, const int *ord,
    const double *okey, int w, long long i, long long j0, int exclude_self,
    int K, int have, gxd_T b, int c, gxd_T *wv, int *wj, int at, int nw,
    int *nw_out)
{
    const unsigned full = 0xffffffffu ;
    const int lane = threadIdx.x & 31 ;
    while (at < w)
    {
        const int idx = at + lane ;
        bool cand = false ;
        gxd_T v = 0 ;
        int j = 0 ;
        double key = 0 ;
        if (idx < w)
        {
            const int jj = ord [idx] ;
            key = okey [idx] ;
            j = (int) (j0 + jj) ;
            cand = untouched (jj) && !(exclude_self && j == i) ;
            if (cand) v = (gxd_T) value (jj) ;
        }
        // lanes past the bound: the first ends the walk
        const unsigned past = __ballot_sync (full, cand && have
            && !gxd_user_order::before (v, j, b, c)) ;
        const int end = past ? __ffs (past) - 1 : 32 ;
        unsigned todo = __ballot_sync (full, cand) & ((end < 32) ? (1u << end) - 1 : full) ;
        // lane 0 takes the candidates in walk order: 0 go on, 1
        // done, 2 skip the rest of a key's rows (the same value,
        // larger columns)
        int act = 0 ;
        double skip = 0 ;
        while (todo)
        {
            const int l = __ffs (todo) - 1 ;
            todo &= todo - 1 ;
            const gxd_T vl = __shfl_sync (full, v, l) ;
            const int jl = __shfl_sync (full, j, l) ;
            const double kl = __shfl_sync (full, key, l) ;
            if (lane != 0 || act != 0) continue ;
            if (nw == K && !gxd_user_order::before (vl, jl, wv [K-1], wj [K-1]))
            {
                if (gxd_user_order::key (vl) == gxd_user_order::key (wv [K-1]))
                {
                    act = 2 ; skip = kl ;
                }
                else act = 1 ;
                continue ;
            }
            int p = (nw < K) ? nw++ : K - 1 ;
            while (p > 0 && gxd_user_order::before (vl, jl, wv [p-1], wj [p-1]))
            {
                wv [p] = wv [p-1] ; wj [p] = wj [p-1] ; p-- ;
            }
            wv [p] = vl ; wj [p] = jl ;
        }
        // (where a key's rows are skipped, the lanes up to the one
        // past the bound are taken again after them)
        if (act == 0 && past) act = 1 ;
        act = __shfl_sync (full, act, 0) ;
        if (act == 1) break ;
        if (act == 2)
        {
            // the first row past the key's rows
            skip = __shfl_sync (full, skip, 0) ;
            int lo_ = at, hi_ = w ;
            while (lo_ < hi_)
            {
                const int mid = (lo_ + hi_) / 2 ;
                if (okey [mid] > skip) hi_ = mid ; else lo_ = mid + 1 ;
            }
            at = lo_ ;
        }
        else at += 32 ;
    }
    *nw_out = nw ;
}

#endif

#if defined (GXD_USER_REWRITE) || defined (GXD_USER_KNN)
// columns of row i staged per chunk (gxd_user_stage): the rewrite's, and
// the flat select's, whose FP64 blocks then keep 4 a SM
#define GXD_USER_ICH 256
#define GXD_USER_SEL_ICH 128

// a chunk of cmax <= ICH columns of row i from entry base (Aj,
// Ax: A's rows, in column or in key order): each one's first entry in the
// tile (s_lo), a_c (s_x), f(a_c, e) (s_fx, where FX), and
// the exclusive prefix sums of their lengths in the tile (s_off [0..cmax]);
// returns the chunk's count of products.  Ends with a barrier.
template <int ICH, bool FX>
__device__ int gxd_user_stage (const int *Aj, const gxd_T *Ax,
    const long long *colptr, long long base, int cmax, double e,
    long long *s_lo, double *s_x, double *s_fx, int *s_off)
{
    const int tid = threadIdx.x ;
    for (int t = tid ; t < cmax ; t += blockDim.x)
    {
        const int c = Aj [base + t] ;
        const long long lo = colptr [c] ;
        const double x = (double) Ax [base + t] ;
        s_lo [t] = lo ;
        s_x [t] = x ;
        if (FX) s_fx [t] = gxd_f (x, e) ;
        s_off [t+1] = (int) (colptr [c+1] - lo) ;      // <= the tile's rows
    }
    __syncthreads () ;
    if (tid < 32)
    {
        // warp 0: the prefix sums, ICH / 32 columns a lane
        const int per = ICH / 32, first = tid * per ;
        int local = 0 ;
        for (int u = 0 ; u < per ; u++)
            if (first + u < cmax) local += s_off [first + u + 1] ;
        int inc = local ;
        for (int off = 1 ; off < 32 ; off <<= 1)
        {
            const int v = __shfl_up_sync (0xffffffffu, inc, off) ;
            if (tid >= off) inc += v ;
        }
        int run = inc - local ;
        for (int u = 0 ; u < per ; u++)
            if (first + u < cmax) { run += s_off [first + u + 1] ; s_off [first + u + 1] = run ; }
        if (tid == 0) s_off [0] = 0 ;
    }
    __syncthreads () ;
    return s_off [cmax] ;
}

// products per lane in flight together (gxd_user_products)
#define GXD_USER_UNROLL 4

// the products of a staged chunk (total of them) with the tile's rows of B
// as one flat list, an equal run of whole steps per warp, lanes strided
// (gpu_intersect_fx.cu's order): act (c, y, s) for each staged column c,
// B's value y in it and its slot s, the row of B within the tile.  A lane
// keeps its column while it stays in it, and its loads for
// GXD_USER_UNROLL products are issued together.
template <typename F>
__device__ __forceinline__ void gxd_user_products (int total, int cmax,
    const int *s_off, const long long *s_lo, const int *__restrict__ rows,
    const gxd_T *__restrict__ vals, F act)
{
    constexpr int U = GXD_USER_UNROLL ;
    const int lane = threadIdx.x & 31, warp = threadIdx.x / 32, nw = blockDim.x / 32 ;
    const int per = ((total + nw - 1) / nw + 32 * U - 1) / (32 * U) * (32 * U) ;
    const int e0 = warp * per, e1 = min (total, e0 + per) ;
    if (e0 >= e1) return ;
    int col = 0, hi = cmax ;        // the last column with s_off [col] <= e0 + lane
    while (col + 1 < hi)
    {
        const int mid = (col + hi) / 2 ;
        if (s_off [mid] <= e0 + lane) col = mid ; else hi = mid ;
    }
    int nxt = s_off [col+1] ;
    long long pb = s_lo [col] - s_off [col] ;
    for (int eb = e0 ; eb < e1 ; eb += 32 * U)
    {
        long long p [U] ;
        int c [U] ;
        bool has [U] ;
        #pragma unroll
        for (int u = 0 ; u < U ; u++)
        {
            const int q = eb + lane + 32 * u ;
            has [u] = q < e1 ;
            if (has [u])
            {
                while (nxt <= q) { col++ ; nxt = s_off [col+1] ; pb = s_lo [col] - s_off [col] ; }
            }
            p [u] = has [u] ? pb + q : 0 ;
            c [u] = col ;
        }
        int j [U] ;
        double y [U] ;
        #pragma unroll
        for (int u = 0 ; u < U ; u++)
        {
            j [u] = has [u] ? __ldg (rows + p [u]) : 0 ;
            y [u] = has [u] ? (double) __ldg (vals + p [u]) : 0 ;
        }
        #pragma unroll
        for (int u = 0 ; u < U ; u++)
        {
            if (has [u]) act (c [u], y [u], j [u]) ;
        }
    }
}

#endif

#ifdef GXD_USER_SELECT
// (+) = MAX or MIN: f(x,e) (left) or f(e,x) of every value, NaN with the
// sign that sorts it last (which (+) skips, as fmax and fmin do): the keys
// of the sort
extern "C" __global__ void gxd_user_keys (const gxd_T *x, long long nnz,
    int left, double e, double *key)
{
    for (long long q = blockIdx.x * (long long) blockDim.x + threadIdx.x ;
         q < nnz ; q += (long long) gridDim.x * blockDim.x)
    {
        const double v = left ? gxd_f ((double) x [q], e) : gxd_f (e, (double) x [q]) ;
        key [q] = (v == v) ? v : @NANKEY@ ;
    }
}

// (+) = MAX or MIN for gxd_split_select: the terms f(x,y) under (+) from
// NaN, the sorted rows' keys f(x,e) and f(e,y) (gxd_user_keys),
// and f(e,e) where the rows' union misses a column: counted (COUNTS), or,
// where every pair's rows have fewer than k columns together (the
// caller's check), joined from the start, which max and min allow
template <bool COUNTS> struct gxd_user_op
{
    const double *Ak, *Bk, *Bk0 ;
    const int *Bc0 ;
    double fee ;
    static constexpr bool counts = COUNTS ;
    __device__ double id () const { return COUNTS ? (@ID@) : gxd_a (@ID@, fee) ; }
    __device__ double term (double x, double y) const { return gxd_f (x, y) ; }
    __device__ double add (double s, double t) const { return gxd_a (s, t) ; }
    __device__ double a_key (long long p) const { return Ak [p] ; }
    __device__ double b_key (long long p) const { return Bk [p] ; }
    __device__ double b_key0 (long long j, long long) const { return Bk0 [j] ; }
    __device__ int b_col0 (long long j, long long, const int *) const { return Bc0 [j] ; }
} ;

// row i0 + blockIdx.x of A (its entries in key order: columns Asj, values
// Asx, keys Ak) against rows [j0, j0 + w) of B (by columns: colptr / rows /
// vals; its entries in key order: Bsj, Bk; each row's first key and column
// Bk0, Bc0); Aj row i's columns in order, their bit set in shared memory if
// use_bits; into C's row blockIdx.x (n
// wide) from column j0, or where SEL into the row's k nearest
// (gxd_user_knn_select: no tile of distances written)
#define GXD_USER_SELECT_ARGS const long long *Ap, const int *Aj,             \
    const int *Asj, const gxd_T *Asx, const double *Ak, const long long *Bp, \
    const int *Bsj, const double *Bk, const double *Bk0, const int *Bc0,    \
    const long long *colptr,                                                \
    const int *rows, const gxd_T *vals, long long i0, long long j0,         \
    long long w, long long n, long long k, int use_bits, double fee
#define GXD_USER_SELECT_PASS Ap, Aj, Asj, Asx, Ak, Bp, Bsj, Bk, Bk0, Bc0,   \
    colptr,                                                                 \
    rows, vals, i0, j0, w, n, k, use_bits, fee
template <bool COUNTS, bool SEL>
__device__ __forceinline__ void gxd_user_select_tile (GXD_USER_SELECT_ARGS,
    gxd_T *C, long long *Lj, double *Ld, long long *Ln, int K,
    int exclude_self)
{
    // launch_select's layout: the best term, h, the common columns' count
    // (COUNTS) and a's bit set
    extern __shared__ double acc [] ;
    int *h = (int *) (acc + w) ;
    int *cnt = h + w ;
    unsigned *bits = (unsigned *) (COUNTS ? cnt + w : h + w) ;
    const gxd_user_op <COUNTS> op { Ak, Bk, Bk0, Bc0, fee } ;
    if constexpr (SEL)
    {
#ifdef GXD_USER_KNN
        __shared__ gxd_user_klist s_kl ;
        gxd_user_knn_begin (s_kl, Lj, Ld, Ln, K) ;
        gxd_split_products (op, Ap, Aj, Asj, Asx, colptr, rows, vals, i0, w,
            k, use_bits != 0, acc, h, cnt, bits) ;
        auto final_d = [&] (int jj) -> double
        {
            return gxd_split_final (op, Ap, Aj, Bp, Bsj, i0, j0 + jj, jj, k,
                use_bits != 0, acc, h, cnt, bits) ;
        } ;
        // the common columns' term and the a-only term are the pair's own:
        // under MAX no later term lowers them; under MIN neither the b-only
        // term, not below row j's first key (NaN for an empty row: no
        // term), nor f(e,e)
        const long long alo = Ap [i0 + blockIdx.x] ;
        const int deg = (int) (Ap [i0 + blockIdx.x + 1] - alo) ;
        auto lower = [&] (int jj) -> double
        {
            double s = acc [jj] ;
            if (h [jj] < deg) s = op.add (s, op.a_key (alo + h [jj])) ;
#ifdef GXD_USER_MIN
            s = op.add (op.add (s, Bk0 [j0 + jj]), fee) ;
#endif
            return s ;
        } ;
        auto none = [] (int) -> unsigned { return 0 ; } ;
        auto no_walk = [] (gxd_T *, int *, int, gxd_T, int, int *) -> bool { return false ; } ;
        gxd_user_knn_select<false, false, 16> (s_kl, final_d, lower, none, no_walk,
            i0 + blockIdx.x, j0, (int) w, Lj, Ld, Ln, K, exclude_self, 0) ;
#endif
    }
    else
    {
        gxd_split_select (op, Ap, Aj, Asj, Asx, Bp, Bsj, colptr, rows, vals,
            i0, j0, w, n, k, use_bits != 0, acc, h, cnt, bits, C) ;
    }
}

#if defined (GXD_USER_KNN) && !defined (GXD_USER_COUNTS)
// the flat select's word (gxd_user_select_knn_nc): a value of gxd_T as a key
// in (+)'s order, the better the larger (MIN: the complement), -0 below +0;
// 0 is no value's (NaN has none: (+) skips it)
template <typename T> struct gxd_user_word_of ;
template <> struct gxd_user_word_of<float>
{
    typedef unsigned type ;
    __device__ static unsigned bits (float v) { return __float_as_uint (v) ; }
    __device__ static float value (unsigned b) { return __uint_as_float (b) ; }
} ;
template <> struct gxd_user_word_of<double>
{
    typedef unsigned long long type ;
    __device__ static unsigned long long bits (double v)
    {
        return (unsigned long long) __double_as_longlong (v) ;
    }
    __device__ static double value (unsigned long long b)
    {
        return __longlong_as_double ((long long) b) ;
    }
} ;
typedef gxd_user_word_of<gxd_T> gxd_user_wt ;
typedef gxd_user_wt::type gxd_user_w ;
#define GXD_USER_WTOP ((gxd_user_w) 1 << (8 * sizeof (gxd_user_w) - 1))
__device__ __forceinline__ gxd_user_w gxd_user_word (gxd_T v)
{
    const gxd_user_w b = gxd_user_wt::bits (v) ;
    const gxd_user_w key = (b & GXD_USER_WTOP) ? ~b : (b | GXD_USER_WTOP) ;
#ifdef GXD_USER_MIN
    return ~key ;
#else
    return key ;
#endif
}
__device__ __forceinline__ gxd_T gxd_user_unword (gxd_user_w key)
{
#ifdef GXD_USER_MIN
    key = ~key ;
#endif
    return gxd_user_wt::value ((key & GXD_USER_WTOP) ? (key & ~GXD_USER_WTOP) : ~key) ;
}

// ranks of row i's columns (in key order) a pair's mask holds one bit
// each; the last bit stands for any later rank
#define GXD_USER_RANKS 32

// The k nearest where f(e,e) joins every pair (no counts), as the built-in
// Chebyshev's (gpu_chebyshev_sel.cu) takes them: row i's products with the
// tile as one flat list that the warps split evenly, with no barrier per
// column.  Per row j of the tile a word holds the best common term
// (gxd_user_word: max and min are exact and order free, so an atomic max
// of the words gives the same bits every run) and a mask the ranks of row
// i's columns in key order that row j has too.  The a-only term is the key
// of the first rank the mask lacks (a search of row j, by Bj, where it
// holds all of them); the b-only term is gxd_split_b_only's.  Each term is
// rounded to gxd_T before its max: rounding is monotone, so the max of the
// rounded terms is the rounded max, and every pair's value is the one
// gxd_user_select_nc writes.
//
// A pair with no common column (mask 0) is at s0 (+) Bk0 [j], with s0
// (+)'s start and row i's first key, which never decreases as row j's
// first key grows (the walk's order, gxd_user_walk_keys; NaN, which (+)
// skips, as the end that leaves s0): walked where s0 is not NaN.
// 5 blocks per SM in FP32, as the shared memory allows (FP64: 4).
extern "C" __global__ void __launch_bounds__ (@THREADS@, (sizeof (gxd_T) == 4) ? 5 : 4)
gxd_user_select_knn_nc (GXD_USER_SELECT_ARGS, long long *Lj, double *Ld,
    long long *Ln, int K, int exclude_self, const int *ord,
    const double *okey, const int *Bj)
{
    // launch_select's layout: the words, the masks (w to a multiple of 16
    // each) and a's bit set
    extern __shared__ uint4 s_words [] ;
    const int ww = (int) w, w16 = (ww + 15) & ~15 ;
    gxd_user_w *word = (gxd_user_w *) s_words ;
    unsigned *mask = (unsigned *) (word + w16) ;
    unsigned *bits = mask + w16 ;
    __shared__ long long s_lo [GXD_USER_SEL_ICH] ;
    __shared__ double s_x [GXD_USER_SEL_ICH] ;
    __shared__ int s_off [GXD_USER_SEL_ICH + 1] ;
    __shared__ gxd_user_klist s_kl ;
    gxd_user_knn_begin (s_kl, Lj, Ld, Ln, K) ;
    const gxd_user_op <false> op { Ak, Bk, Bk0, Bc0, fee } ;
    const long long i = i0 + blockIdx.x ;
    const int tid = threadIdx.x, nt = blockDim.x ;
    const long long alo = Ap [i], ahi = Ap [i+1] ;
    const int deg = (int) (ahi - alo) ;
    for (int q = tid ; q < w16 * (int) (sizeof (gxd_user_w) + 4) / 16 ; q += nt)
        s_words [q] = make_uint4 (0, 0, 0, 0) ;
    if (use_bits) for (long long q = tid ; q < (k + 31) / 32 ; q += nt) bits [q] = 0 ;
    __syncthreads () ;
    if (use_bits)
    {
        for (long long q = alo + tid ; q < ahi ; q += nt)
        {
            const int c = Aj [q] ;
            atomicOr (&bits [c >> 5], 1u << (c & 31)) ;
        }
    }
    for (long long base = alo ; base < ahi ; base += GXD_USER_SEL_ICH)
    {
        const int cmax = (int) min ((long long) GXD_USER_SEL_ICH, ahi - base) ;
        __syncthreads () ;          // the last chunk's readers done
        const int total = gxd_user_stage<GXD_USER_SEL_ICH, false> (Asj, Asx,
            colptr, base, cmax, 0, s_lo, s_x, (double *) 0, s_off) ;
        const int r0 = (int) (base - alo) ;
        gxd_user_products (total, cmax, s_off, s_lo, rows, vals,
            [&] (int c, double y, int jj) {
                const gxd_T v = (gxd_T) gxd_f (s_x [c], y) ;
                if (v == v) atomicMax (word + jj, gxd_user_word (v)) ;
                atomicOr (mask + jj, 1u << min (r0 + c, GXD_USER_RANKS - 1)) ;
            }) ;
    }
    __syncthreads () ;
    // s (+) the best common term and the a-only term of slot jj (row j):
    // past the mask's ranks, row j is searched only while a key can still
    // change s (they come in (+)'s order)
    auto own = [&] (int jj, double s) -> double
    {
        const gxd_user_w wd = word [jj] ;
        if (wd != 0) s = op.add (s, (double) gxd_user_unword (wd)) ;
        const unsigned m = mask [jj] ;
        if (m != 0xffffffffu)
        {
            const int h = __ffs (~m) - 1 ;
            return (h < deg) ? op.add (s, op.a_key (alo + h)) : s ;
        }
        const long long j = j0 + jj, blo = Bp [j], bhi = Bp [j+1] ;
        for (long long t = alo + GXD_USER_RANKS - 1 ; t < ahi ; t++)
        {
            const double kt = op.a_key (t), st = op.add (s, kt) ;
            if (__double_as_longlong (st) == __double_as_longlong (s)) break ;
            const int c = Asj [t] ;
            long long lo = blo, hi = bhi ;
            while (lo < hi)
            {
                const long long mid = (lo + hi) / 2 ;
                if (Bj [mid] < c) lo = mid + 1 ; else hi = mid ;
            }
            if (lo == bhi || Bj [lo] != c) return st ;
        }
        return s ;
    } ;
    auto final_d = [&] (int jj) -> double
    {
        return gxd_split_b_only (op, Ap, Aj, Bp, Bsj, i, j0 + jj,
            use_bits != 0, bits, own (jj, op.id ())) ;
    } ;
    // the common and a-only terms are the pair's own: under MAX no later
    // term lowers them.  Under MIN the b-only term is not below row j's
    // first key (NaN for an empty row: no term), and past the mask's ranks
    // the a-only term not below the last rank's key
    auto lower = [&] (int jj) -> double
    {
#ifdef GXD_USER_MIN
        double s = op.id () ;
        const gxd_user_w wd = word [jj] ;
        if (wd != 0) s = op.add (s, (double) gxd_user_unword (wd)) ;
        const unsigned m = mask [jj] ;
        const int h = (m != 0xffffffffu) ? __ffs (~m) - 1 : GXD_USER_RANKS - 1 ;
        if (h < deg) s = op.add (s, op.a_key (alo + h)) ;
        return op.add (s, Bk0 [j0 + jj]) ;
#else
        const unsigned m = mask [jj] ;
        if (m != 0xffffffffu) return own (jj, op.id ()) ;
        const gxd_user_w wd = word [jj] ;
        return (wd != 0) ? op.add (op.id (), (double) gxd_user_unword (wd)) : op.id () ;
#endif
    } ;
    // the touched slots 4 h .. 4 h + 3, a bit each (one read of 16 bytes a
    // lane: a warp's reads are consecutive, so no bank is read twice)
    auto touchedh = [&] (int hh) -> unsigned
    {
        const uint4 q = ((const uint4 *) mask) [hh] ;
        return (q.x != 0) | (q.y != 0) << 1 | (q.z != 0) << 2 | (q.w != 0) << 3 ;
    } ;
    double wlo = 0 ;
    if (ord != 0 && tid < 32) wlo = okey [0] ;
    auto walk = [&] (gxd_T *wv, int *wj, int have, gxd_T b, int c,
        int *nw_out) -> bool
    {
        if (ord == 0) return false ;
        double s0 = op.id () ;
        if (deg > 0) s0 = op.add (s0, op.a_key (alo)) ;
        if (s0 != s0) return false ;
        if (have && !gxd_user_order::before ((gxd_T) op.add (s0, wlo),
            0x7fffffff, b, c))
        {
            *nw_out = 0 ;
            return true ;
        }
        // final_d's value where mask [jj] is 0 (no column in common, so row
        // j's first key is its b-only term), without final_d's loads
        auto value = [&] (int jj) -> gxd_T
        {
            return (gxd_T) op.add (s0, op.b_key0 (j0 + jj, 0)) ;
        } ;
        auto untouched = [&] (int jj) { return mask [jj] == 0 ; } ;
        // The walk's first ps rows share one value v0 (under MAX, every row
        // whose first key is at most s0 is at s0): ties that the column
        // decides, in an order that is not the columns'.  Where they are
        // many, the tile's rows are taken in column order until K of them
        // are found, as k_chebyshev_sel does (gpu_chebyshev_sel.cu); the
        // walk goes on after them.  (The test above found v0 before the
        // bound where there is one; the list's cut drops any pair after it.)
        const unsigned full = 0xffffffffu ;
        const int lane = tid & 31 ;
        const unsigned long long k0 = gxd_user_order::key (value (ord [0])) ;
        int ps ;
        {
            int lo = 0, hi = ww ;
            while (lo < hi)
            {
                const int mid = (lo + hi) / 2 ;
                if (gxd_user_order::key (value (ord [mid])) == k0) lo = mid + 1 ; else hi = mid ;
            }
            ps = lo ;
        }
        int at = 0, nw = 0 ;
        const bool many = (long long) ps * ps * 32 > (long long) K * ww ;
        if (many)
        {
            const long long self = exclude_self ? i - j0 : -1 ;
            for (int pos = 0 ; pos < ww && nw < K ; pos += 32)
            {
                const int jj = pos + lane ;
                bool cand = jj < ww && jj != self && untouched (jj) ;
                const gxd_T v = cand ? value (jj) : (gxd_T) 0 ;
                cand = cand && gxd_user_order::key (v) == k0 ;
                const unsigned bal = __ballot_sync (full, cand) ;
                const int to = nw + __popc (bal & ((1u << lane) - 1)) ;
                if (cand && to < K) { wv [to] = v ; wj [to] = (int) (j0 + jj) ; }
                nw = min (K, nw + __popc (bal)) ;
            }
            __syncwarp () ;
            at = ps ;
        }
        // (after them, the walk passes over every row of value v0: the
        // scan took those that can be listed)
        if (nw == K) *nw_out = nw ;
        else gxd_user_walk (value, [&] (int jj) { return untouched (jj)
                && !(many && gxd_user_order::key (value (jj)) == k0) ; },
            ord, okey, ww, i, j0, exclude_self, K, have, b, c, wv, wj, at, nw,
            nw_out) ;
        return true ;
    } ;
    gxd_user_knn_select<true, false, 4> (s_kl, final_d, lower, touchedh, walk, i,
        j0, ww, Lj, Ld, Ln, K, exclude_self, (unsigned short *) s_lo) ;
}
#endif

// One of the four is compiled, as GXD_USER_KNN (for GXD_gpu_knn) and
// GXD_USER_COUNTS say (a shorter first call).  Lj, Ld, Ln: the lists of
// the launch's first row
#if !defined (GXD_USER_KNN) && defined (GXD_USER_COUNTS)
extern "C" __global__ void gxd_user_select (GXD_USER_SELECT_ARGS, gxd_T *C)
{
    gxd_user_select_tile <true, false> (GXD_USER_SELECT_PASS, C, 0, 0, 0, 0,
        0) ;
}
#elif !defined (GXD_USER_KNN)
extern "C" __global__ void gxd_user_select_nc (GXD_USER_SELECT_ARGS,
    gxd_T *C)
{
    gxd_user_select_tile <false, false> (GXD_USER_SELECT_PASS, C, 0, 0, 0, 0,
        0) ;
}
#elif defined (GXD_USER_COUNTS)
extern "C" __global__ void gxd_user_select_knn (GXD_USER_SELECT_ARGS,
    long long *Lj, double *Ld, long long *Ln, int K, int exclude_self)
{
    gxd_user_select_tile <true, true> (GXD_USER_SELECT_PASS, 0, Lj, Ld, Ln,
        K, exclude_self) ;
}
#endif
#endif

#ifdef GXD_USER_REWRITE
// n0 of rows [0, m) of H (left: rows of A, f(x,e); else f(e,y)): the sum
// of f - f(e,e) over the row's entries in column order, as the CPU's rows
// have it; a thread a row
extern "C" __global__ void gxd_user_norms (const long long *Hp,
    const gxd_T *Hx, long long m, int left, double e, double fee, double *n0)
{
    for (long long i = blockIdx.x * (long long) blockDim.x + threadIdx.x ;
         i < m ; i += (long long) gridDim.x * blockDim.x)
    {
        double t = 0 ;
        for (long long p = Hp [i] ; p < Hp [i+1] ; p++)
        {
            const double x = (double) Hx [p] ;
            t += (left ? gxd_f (x, e) : gxd_f (e, x)) - fee ;
        }
        n0 [i] = t ;
    }
}

// the largest v of the block's threads, in every thread
__device__ double gxd_user_block_max (double v, double *s_max)
{
    for (int off = 16 ; off > 0 ; off >>= 1)
        v = fmax (v, __shfl_xor_sync (0xffffffffu, v, off)) ;
    __syncthreads () ;
    if ((threadIdx.x & 31) == 0) s_max [threadIdx.x / 32] = v ;
    __syncthreads () ;
    for (int u = 0 ; u < (int) blockDim.x / 32 ; u++) v = fmax (v, s_max [u]) ;
    return v ;
}


// the tile of B's rows [j0, j0 + w): st [0] |= the complement of the key
// of its smallest value, st [1] |= the key of its largest, st [2] |= the
// bits of its largest |f(e,y)| (NaN values left out), maxima over the
// threads (st zeroed first).  Each warp reduces first: one atomic a thread
// on the same three words serializes them.
extern "C" __global__ void gxd_user_range (const long long *Bp,
    const gxd_T *Bx, long long j0, long long w, double e,
    unsigned long long *st)
{
    unsigned long long lo = 0, hi = 0, fe = 0 ;
    for (long long q = Bp [j0] + blockIdx.x * (long long) blockDim.x + threadIdx.x ;
         q < Bp [j0 + w] ; q += (long long) gridDim.x * blockDim.x)
    {
        const double y = (double) Bx [q] ;
        if (y != y) continue ;
        const unsigned long long key = gxd_user_key (y) ;
        lo = (~key > lo) ? ~key : lo ;
        hi = (key > hi) ? key : hi ;
        const double a = fabs (gxd_f (e, y)) ;
        const unsigned long long ab = (a == a) ? (unsigned long long) __double_as_longlong (a)
            : 0x7FF0000000000000ULL ;
        fe = (ab > fe) ? ab : fe ;
    }
    for (int off = 16 ; off > 0 ; off >>= 1)
    {
        const unsigned long long l = __shfl_xor_sync (0xffffffffu, lo, off) ;
        const unsigned long long h = __shfl_xor_sync (0xffffffffu, hi, off) ;
        const unsigned long long f = __shfl_xor_sync (0xffffffffu, fe, off) ;
        lo = (l > lo) ? l : lo ;
        hi = (h > hi) ? h : hi ;
        fe = (f > fe) ? f : fe ;
    }
    if ((threadIdx.x & 31) == 0 && (lo | hi | fe) != 0)
    {
        atomicMax (st, lo) ;
        atomicMax (st + 1, hi) ;
        atomicMax (st + 2, fe) ;
    }
}

// E for the fixed point of terms whose sums are under S: S 2^E < 2^bits
__device__ __forceinline__ int gxd_user_exp (double S, int bits)
{
    int ex = 0 ;
    if (S > 0) frexp (S, &ex) ;                 // S < 2^ex
    return min (bits - ex, 1000) ;
}

// the narrow form's E of each row i of A (nE [i]; -1 where it cannot take
// it, and then *unsafe = 1): every term g = f(x,y) - f(x,e) - f(e,y) +
// f(e,e) of the row, x its values and y each of B's values (vals, in
// GXD_USER_VSLOTS slots, GXD_USER_NOVAL none; computed as the sweep does),
// an integer, and nnz(a) max |g| 2^E < 2^30 with E >= 0, so that every
// term is an integer at scale 2^E too.  A warp a row.
extern "C" __global__ void gxd_user_narrow (const long long *Ap,
    const gxd_T *Ax, long long m, const unsigned long long *vals, double e,
    double fee, int *nE, int *unsafe)
{
    __shared__ double s_v [GXD_USER_VSLOTS] ;
    __shared__ int s_nv ;
    if (threadIdx.x == 0)
    {
        int nv = 0 ;
        for (int u = 0 ; u < GXD_USER_VSLOTS ; u++)
            if (vals [u] != GXD_USER_NOVAL) s_v [nv++] = __longlong_as_double ((long long) vals [u]) ;
        s_nv = nv ;
    }
    __syncthreads () ;
    const int lane = threadIdx.x & 31, nv = s_nv ;
    const long long w0 = (blockIdx.x * (long long) blockDim.x + threadIdx.x) / 32 ;
    const long long nw = (long long) gridDim.x * blockDim.x / 32 ;
    for (long long i = w0 ; i < m ; i += nw)
    {
        double G = 0 ;
        bool ok = true ;
        for (long long p = Ap [i] + lane ; p < Ap [i+1] ; p += 32)
        {
            const double x = (double) Ax [p], fx = gxd_f (x, e) ;
            for (int u = 0 ; u < nv ; u++)
            {
                const double y = s_v [u] ;
                const double g = gxd_f (x, y) - fx - gxd_f (e, y) + fee ;
                ok = ok && g == rint (g) && fabs (g) <= 1.7976931348623157e308 ;
                G = fmax (G, fabs (g)) ;
            }
        }
        for (int off = 16 ; off > 0 ; off >>= 1)
            G = fmax (G, __shfl_xor_sync (0xffffffffu, G, off)) ;
        ok = __all_sync (0xffffffffu, ok) ;
        const double S = (double) (Ap [i+1] - Ap [i]) * G ;
        const int E = gxd_user_exp (S, 30) ;
        ok = ok && S <= 1.7976931348623157e308 && E >= 0 ;
        if (lane == 0)
        {
            nE [i] = ok ? E : -1 ;
            if (!ok) *unsafe = 1 ;
        }
    }
}

// a pair's sum t and the bound nq on its terms' count (final_d) where the
// row is not split: a 64-bit sum (hi, lo) at scale qu, or a sum in double
// (acc, where !fixed)
__device__ __forceinline__ double2 gxd_user_sum (bool fixed,
    const unsigned int *lo, const unsigned int *hi, const double *acc,
    int jj, double qu, const long long *Bp, long long j, long long nnz)
{
    if (!fixed) return make_double2 (acc [jj], (double) nnz) ;
    return make_double2 (
        (double) (long long) (((unsigned long long) hi [jj] << 32) | lo [jj]) * qu,
        (double) min (nnz, Bp [j+1] - Bp [j])) ;
}

// the same, not inlined: FP32 rows are split but for the longest and those
// with a term that is not finite, and inlined beside the split form this
// is computed, its loads included, for every pair (predicated, not skipped)
__device__ __noinline__ double2 gxd_user_sum_apart (bool fixed,
    const unsigned int *lo, const unsigned int *hi, const double *acc,
    int jj, double qu, const long long *Bp, long long j, long long nnz)
{
    return gxd_user_sum (fixed, lo, hi, acc, jj, qu, Bp, j, nnz) ;
}

// (+) = PLUS: row i0 + blockIdx.x of A against rows [j0, j0 + w) of B,
// whose columns are colptr / rows (local to the tile) / vals; na, nb the
// rows' n0; st the tile's range (gxd_user_range); C's row blockIdx.x (n
// wide) from column j0.
//
// The terms are added in fixed point, as the built-in metrics' kernel
// (gpu_intersect_fx.cu) does, so that the block's products are one flat
// list its threads split evenly, with no barrier between columns: integer
// adds give the same bits in any order.  With S >= nnz(a) max |g|, which
// bounds every partial sum, each term is rounded to a multiple of q = 2^-E
// and added into an integer per output:
//  - rows where every term g is an integer (at any value of B) and S < 2^30
//    (gxd_user_narrow, which gives E, E >= 0: each term is exact): one
//    32-bit word per output, one add a term (gpu_intersect_fx.cu's narrow
//    form), and no quantum error.  The sweep checks both again; where one
//    fails (not expected) the row is done again in the split or 64-bit
//    form, or where the launch gives one word a slot (ONE: the kNN's wide
//    tiles), every pair is merged over the union.
//  - other FP32 rows of fewer than 2^16 entries: each term t is split as
//    t = h 2^16 + l (0 <= l < 2^16), the l's added into one 32-bit word,
//    the h's into another: two adds without a return value or carry
//    (gpu_intersect_fx.cu's split form), exact while |t| < 2^51 and the
//    sum is under 2^47.  max |g| is not known before the terms are; G, an
//    estimate of it from f at each column's value with e and with the
//    tile's smallest and largest value, sets S / q <= 2^40, and the sweep
//    finds max |g| as it goes: where it exceeds 128 G (the sums could pass
//    2^47) or is under G / 4096 (q needlessly coarse), the sweep is done
//    again with S from it.
//  - otherwise a first sweep finds max |g|, S / q < 2^61, and a 64-bit two's
//    complement sum (hi, lo): the low word's add returns its old value, so
//    its carry is known exactly.
// A pair's sum is then off by at most min(nnz a, nnz b) q / 2: where that
// could pass 1/8 of the output's tolerance (relative 1e-5 FP32, 1e-12
// FP64) of the union sum, or where the rewrite cancels (gxd_needs_exact's
// rule), the thread that owns the pair merges it over the union instead.
// A row with a term that is not finite adds its terms in double in column
// order, a barrier between columns.
//
// SEL: the k nearest (gxd_user_knn_select) instead of C's row.
#define GXD_USER_REWRITE_ARGS const long long *Ap, const int *Aj,          \
    const gxd_T *Ax, const long long *Bp, const int *Bj, const gxd_T *Bx,   \
    const long long *colptr, const int *rows, const gxd_T *vals,            \
    const double *na, const double *nb, const unsigned long long *st,       \
    const int *nE, int one, long long i0, long long j0, long long w,        \
    long long n, long long k, double e, double fee, double tau
#define GXD_USER_REWRITE_PASS Ap, Aj, Ax, Bp, Bj, Bx, colptr, rows, vals,   \
    na, nb, st, nE, one, i0, j0, w, n, k, e, fee, tau
template <bool SEL>
__device__ __forceinline__ void gxd_user_rewrite_body (GXD_USER_REWRITE_ARGS,
    gxd_T *C, long long *Lj, double *Ld, long long *Ln, int K,
    int exclude_self, const int *ord, const double *okey)
{
    // fixed point: w4 low words, then w4 high words (w4: w to a multiple
    // of 4, so that 4 slots load as one vector); else w doubles.  ONE: the
    // low words only, every row narrow
    extern __shared__ unsigned int lo [] ;
    const int ww = (int) w, w4 = (ww + 3) & ~3 ;
    unsigned int *hi = lo + w4 ;
    double *acc = (double *) lo ;
    __shared__ long long s_lo [GXD_USER_ICH] ;
    __shared__ double s_x [GXD_USER_ICH], s_fx [GXD_USER_ICH] ;
    __shared__ int s_off [GXD_USER_ICH + 1] ;
    __shared__ double s_max [32] ;
    __shared__ int s_flags ;
    // SEL: the slots that take a term (touched), a bit each
    __shared__ unsigned s_tb [SEL ? GXD_USER_TN_MAX / 32 : 1] ;
#ifdef GXD_USER_KNN
    __shared__ gxd_user_klist s_kl ;
    if constexpr (SEL) gxd_user_knn_begin (s_kl, Lj, Ld, Ln, K) ;
#endif
    const long long i = i0 + blockIdx.x ;
    const int tid = threadIdx.x, nt = blockDim.x ;
    const long long alo = Ap [i], ahi = Ap [i+1], nnz = ahi - alo ;
    const bool split = (sizeof (gxd_T) == 4) && (nnz < 65536) ;
    const double kf = (double) k * fee, sa = na [i] ;
    // the walk's first and last keys (warp 0's, gxd_user_knn_select)
    double wlo = 0, whi = 0 ;
    if (SEL && ord != 0 && tid < 32) { wlo = okey [0] ; whi = okey [ww-1] ; }
    // the low words, or both
    auto zero = [&] (bool first, bool both)
    {
        if (!first) __syncthreads () ;              // the last readers done
        const int n4 = both ? w4 / 2 : w4 / 4 ;
        for (int q = tid ; q < n4 ; q += nt) ((uint4 *) lo) [q] = make_uint4 (0, 0, 0, 0) ;
    } ;
    // how the sweep's terms are added: not at all (it finds max |g|), in
    // the narrow or the split form, or as 64-bit sums; up = 2^E
    enum { GXD_MAX_ONLY, GXD_ADD_NARROW, GXD_ADD_SPLIT, GXD_ADD_WIDE } ;
    // the first sweep's flags: a term past 128 G (narrow: a sum that could
    // reach 2^30; or NaN), a term of at least G / 4096, a term that is not
    // a multiple of q (narrow)
    enum { GXD_FAR = 1, GXD_NEAR = 2, GXD_INEXACT = 4 } ;
    int mode = GXD_MAX_ONLY, E = (nE != 0) ? nE [i] : -1 ;
    double up = 1, G = 0 ;
    // every pair merged over the union: a narrow sweep that does not stand
    // where the launch gives one word a slot
    bool by_union = false ;
    // (s_flags is read after the stage's barriers, or where row i is empty
    // after no flag but NEAR, which G = 0 stands for then)
    if (tid == 0) s_flags = 0 ;
    if (SEL) for (int u = tid ; u < (ww + 31) / 32 ; u += nt) s_tb [u] = 0 ;
    if (E >= 0)
    {
        mode = GXD_ADD_NARROW ;
        up = ldexp (1.0, E) ;
    }
    else if (split)
    {
        // each warp finds G alone (the same bits: max is exact), with no
        // barrier
        const double ylo = gxd_user_unkey (~st [0]), yhi = gxd_user_unkey (st [1]) ;
        for (long long p = alo + (tid & 31) ; p < ahi ; p += 32)
        {
            const double x = (double) Ax [p] ;
            G = fmax (G, fabs (gxd_f (x, e) - fee)
                + fmax (fabs (gxd_f (x, ylo)), fabs (gxd_f (x, yhi)))) ;
        }
        for (int off = 16 ; off > 0 ; off >>= 1)
            G = fmax (G, __shfl_xor_sync (0xffffffffu, G, off)) ;
        G += __longlong_as_double ((long long) st [2]) ;
        if (!((double) nnz * G <= 1.7976931348623157e308)) G = 0 ;
        E = gxd_user_exp ((double) nnz * G, 40) ;
        up = ldexp (1.0, E) ;
        mode = GXD_ADD_SPLIT ;
    }
    else E = 0 ;
    zero (true, mode != GXD_ADD_NARROW) ;
    // every product of row i with the tile, added as mode says; mx = the
    // largest |g| (NaN: as inf).  A second sweep where the first could not
    // add (64-bit sums need max |g| first) or chose a poor scale (split:
    // max |g| far from G).  One call site, so that the products' code,
    // most of the program, is compiled once.
    double mx = 0 ;
    // the narrow or split sweep's scale was good (no block maximum needed);
    // SEL: some chunk's products were not marked (GXD_USER_MARK)
    bool good = false, dense = false ;
    for (int pass = 0 ; pass < 2 ; pass++)
    {
        double m = 0 ;
        bool inexact = false ;
        for (long long base = alo ; base < ahi ; base += GXD_USER_ICH)
        {
            const int cmax = (int) min ((long long) GXD_USER_ICH, ahi - base) ;
            __syncthreads () ;          // the last chunk's readers done
            const int total = gxd_user_stage<GXD_USER_ICH, true> (Aj, Ax, colptr, base,
                cmax, e, s_lo, s_x, s_fx, s_off) ;
            // SEL: the first sweep marks the touched slots, where the
            // chunk's products are few (the same in every thread)
            const bool mark = SEL && pass == 0 && mode != GXD_ADD_NARROW
                && total <= max (ww / 4, GXD_USER_MARK) ;
            dense = dense || (SEL && pass == 0 && !mark) ;
            gxd_user_products (total, cmax, s_off, s_lo, rows, vals,
                [&] (int c, double y, int s) {
                    const double g = gxd_f (s_x [c], y) - s_fx [c] - gxd_f (e, y) + fee ;
                    const double a = fabs (g) ;
                    m = (a <= m) ? m : ((a == a) ? a : INFINITY) ;
                    if (mark) atomicOr (s_tb + (s >> 5), 1u << (s & 31)) ;
                    if (mode == GXD_ADD_NARROW)
                    {
                        // g up mod 2^32: the low word of fma (g, up, 1.5
                        // 2^52), where that is g up itself (an integer)
                        const double d = fma (g, up, 0x1.8p52) ;
                        atomicAdd (lo + s, (unsigned int) __double2loint (d)) ;
                        inexact = inexact || (d - 0x1.8p52 != g * up) ;
                    }
                    else if (sizeof (gxd_T) == 4 && mode == GXD_ADD_SPLIT)
                    {
                        // t = round (g up) split: the low word of fma (g,
                        // up, 1.5 2^52) is t mod 2^32, its high word less
                        // 0x43380000 is t >> 32
                        const double d = fma (g, up, 0x1.8p52) ;
                        const unsigned int tl = (unsigned int) __double2loint (d) ;
                        const unsigned int th = (unsigned int) (__double2hiint (d) - 0x43380000) ;
                        atomicAdd (lo + s, tl & 0xffffu) ;
                        atomicAdd (hi + s, (th << 16) | (tl >> 16)) ;
                    }
                    else if (mode == GXD_ADD_WIDE)
                    {
                        // the 64-bit two's complement sum (hi, lo)
                        const unsigned long long u = (unsigned long long) __double2ll_rn (g * up) ;
                        const unsigned int l = (unsigned int) u, old = atomicAdd (lo + s, l) ;
                        const unsigned int h = (unsigned int) (u >> 32) + (unsigned int) (old + l < old) ;
                        if (h != 0) atomicAdd (hi + s, h) ;
                    } }) ;
        }
        if (pass == 0 && (mode == GXD_ADD_SPLIT || mode == GXD_ADD_NARROW))
        {
            // the test below on flags, one barrier: where max |g| <= 128 G
            // (no NaN), max |g| >= G / 4096 and nnz 128 G cannot overflow,
            // the split sweep stands; the narrow one where nnz max |g| 2^E
            // < 2^30 (no sum reaches 2^31) and every term was exact.  max
            // |g| itself is then not needed.
            const bool nar = (mode == GXD_ADD_NARROW) ;
            const unsigned far = __ballot_sync (0xffffffffu,
                nar ? !((double) nnz * m * up < 0x1p30) : !(m <= 128 * G)) ;
            const unsigned near = __ballot_sync (0xffffffffu, m * 4096 >= G) ;
            const unsigned inex = __ballot_sync (0xffffffffu, inexact) ;
            if ((tid & 31) == 0 && (far | near | inex) != 0)
                atomicOr (&s_flags, (far ? GXD_FAR : 0) | (near ? GXD_NEAR : 0)
                    | (inex ? GXD_INEXACT : 0)) ;
            __syncthreads () ;
            const int fl = s_flags ;
            good = nar ? !(fl & (GXD_FAR | GXD_INEXACT))
                : !(fl & GXD_FAR) && ((fl & GXD_NEAR) || G == 0)
                  && (double) nnz * 128 * G <= 1.7976931348623157e308 ;
            if (good) break ;
            if (nar && one) { by_union = true ; break ; }
        }
        m = gxd_user_block_max (m, s_max) ;
        if (pass == 0) mx = m ;
        if (pass == 1 || !((double) nnz * mx <= 1.7976931348623157e308)) break ;
        if (mode == GXD_ADD_SPLIT)
        {
            if (mx <= 128 * G && mx * 4096 >= G) break ;
            E = gxd_user_exp ((double) nnz * mx, 40) ;
            zero (false, true) ;
        }
        else if (mode == GXD_ADD_NARROW && split)
        {
            // (a narrow sweep that does not stand is done again)
            E = gxd_user_exp ((double) nnz * mx, 40) ;
            mode = GXD_ADD_SPLIT ;
            zero (false, true) ;
        }
        else
        {
            if (mode == GXD_ADD_NARROW) zero (false, true) ;
            E = gxd_user_exp ((double) nnz * mx, 61) ;
            mode = GXD_ADD_WIDE ;
        }
        up = ldexp (1.0, E) ;
    }
    const bool fixed = !by_union && (good || ((double) nnz * mx <= 1.7976931348623157e308)) ;
    // SEL: the narrow form's word of a pair is 0 exactly where its terms
    // sum to 0, and its value is then kf + sa + sb, an untouched pair's:
    // so the words tell the pairs to walk, marked or not
    const bool words = SEL && fixed && mode == GXD_ADD_NARROW ;
    if (!fixed && !by_union)
    {
        zero (false, true) ;
        __syncthreads () ;
        for (long long p = alo ; p < ahi ; p++)
        {
            const int c = Aj [p] ;
            const double x = (double) Ax [p] ;
            const double fx = gxd_f (x, e) ;
            for (long long q = colptr [c] + tid ; q < colptr [c+1] ; q += nt)
            {
                const double y = (double) vals [q] ;
                acc [rows [q]] += gxd_f (x, y) - fx - gxd_f (e, y) + fee ;
            }
            __syncthreads () ;
        }
    }
    if (!good) __syncthreads () ;           // (good: after the flags' barrier)
    const double qu = ldexp (1.0, -E) ;
    const double eta = (sizeof (gxd_T) == 8) ? 1e-12 / 8 : 1e-5 / 8 ;
    // the pair (i, j0 + jj), from its slot
    auto final_d = [&] (int jj) -> double
    {
        const long long j = j0 + jj ;
        const double sb = nb [j] ;
        double t = 0, nq = (double) nnz ;
        if (by_union) { }                       // (the union below)
        else if (fixed && mode == GXD_ADD_NARROW)
        {
            t = (double) (int) lo [jj] * qu ;
            nq = 0 ;                            // every term exact
        }
        else if (fixed && split)
        {
            t = (double) ((long long) (int) hi [jj] * 65536 + (long long) lo [jj]) * qu ;
        }
        else
        {
            const double2 tq = (sizeof (gxd_T) == 4)
                ? gxd_user_sum_apart (fixed, lo, hi, acc, jj, qu, Bp, j, nnz)
                : gxd_user_sum (fixed, lo, hi, acc, jj, qu, Bp, j, nnz) ;
            t = tq.x ;
            nq = tq.y ;
        }
        double raw = kf + sa + sb + t ;
        const double scale = fabs (kf) + fabs (sa) + fabs (sb) ;
        if (by_union || !(fabs (raw) >= tau * scale)
            || !(fabs (raw) + scale <= 1.7976931348623157e308)
            || (fixed && 0.5 * qu * nq > eta * fabs (raw)))
        {
            raw = gxd_union (Ap, Aj, Ax, Bp, Bj, Bx, i, j, k, e, fee) ;
        }
        return raw ;
    } ;
    if constexpr (SEL)
    {
#ifdef GXD_USER_KNN
        // (no value below a sum's own is known before its terms are)
        auto none = [] (int) -> double { return __longlong_as_double (0x7FF8000000000000LL) ; } ;
        // the pairs to finalize, slots 4 h .. 4 h + 3: in the narrow form
        // those whose word is not 0, else those marked as their terms were
        // added (a column in common; not where dense: no walk then)
        auto touchedh = [&] (int h) -> unsigned
        {
            if (words)
            {
                const uint4 q = ((const uint4 *) lo) [h] ;
                return (q.x != 0) | (q.y != 0) << 1 | (q.z != 0) << 2 | (q.w != 0) << 3 ;
            }
            return (s_tb [h >> 3] >> (4 * (h & 7))) & 0xFu ;
        } ;
        // warp 0: the tile's untouched pairs (no column in common: a sum
        // of 0) in the order of their row term sb (ord, okey: rows of the
        // tile sorted by (nb, row)), the K best that come before the bound
        // (b, c) where have, sorted, into wv / wj (*nw of them, lane 0's);
        // false where it cannot walk.  Their value kf + sa + sb never
        // decreases as sb grows, so the walk ends at the first that cannot
        // be listed,
        // where final_d takes none of them by the union: kf, sa and the
        // row terms have one sign (no cancellation), nothing nears
        // overflow, and the fixed point's quantum (none in the narrow
        // form) is within the tolerance of the smallest.
        auto walk = [&] (gxd_T *wv, int *wj, int have, gxd_T b, int c,
            int *nw_out) -> bool
        {
            // (dense: the products were too many to mark, and touch many
            // pairs, which the scan then takes as they lie)
            if (ord == 0 || (dense && !words) || by_union) return false ;
            const double klo = wlo, khi = whi ;
            const bool pos = kf >= 0 && sa >= 0 && klo >= 0 ;
            const bool neg = kf <= 0 && sa <= 0 && khi <= 0 ;
            const double big = fabs (kf) + fabs (sa) + fmax (fabs (klo), fabs (khi)) ;
            const double least = fabs (kf) + fabs (sa) + (pos ? klo : -khi) ;
            if (!(pos || neg) || !(4 * big <= 1.7976931348623157e308)
                || (fixed && mode != GXD_ADD_NARROW && !(qu * (double) nnz <= eta * least)))
            {
                return false ;
            }
            // none where the least of their values, the first row's, comes
            // after the bound (the bound's column is in an earlier tile)
            if (have && !gxd_user_order::before ((gxd_T) (kf + sa + klo + 0.0),
                0x7fffffff, b, c))
            {
                *nw_out = 0 ;
                return true ;
            }
            gxd_user_walk (final_d, [&] (int jj) { return words ? lo [jj] == 0
                    : !((s_tb [jj >> 5] >> (jj & 31)) & 1) ; },
                ord, okey, ww, i, j0, exclude_self, K, have, b, c, wv, wj, 0, 0, nw_out) ;
            return true ;
        } ;
        gxd_user_knn_select<true, false, 4> (s_kl, final_d, none, touchedh, walk,
            i, j0, ww, Lj, Ld, Ln, K, exclude_self, (unsigned short *) s_lo) ;
#endif
    }
    else
    {
        gxd_T *crow = C + (long long) blockIdx.x * n + j0 ;
        for (int jj = tid ; jj < ww ; jj += nt) crow [jj] = (gxd_T) final_d (jj) ;
    }
}

// One of the two is compiled (GXD_USER_KNN: for GXD_gpu_knn), since the
// body is most of a program's compile.  5 blocks of @THREADS@ threads per
// SM, as their shared memory allows (FP64's select, 4).
#ifndef GXD_USER_KNN
extern "C" __global__ void __launch_bounds__ (@THREADS@, 5)
gxd_user_rewrite (GXD_USER_REWRITE_ARGS, gxd_T *C)
{
    gxd_user_rewrite_body <false> (GXD_USER_REWRITE_PASS, C, 0, 0, 0, 0, 0,
        0, 0) ;
}
#else
// Lj, Ld, Ln: the lists of the launch's first row; ord, okey: the tile's
// rows by row term (NULL: no walk)
extern "C" __global__ void __launch_bounds__ (@THREADS@, 5)
gxd_user_rewrite_knn (GXD_USER_REWRITE_ARGS, long long *Lj, double *Ld,
    long long *Ln, int K, int exclude_self, const int *ord,
    const double *okey)
{
    gxd_user_rewrite_body <true> (GXD_USER_REWRITE_PASS, 0, Lj, Ld, Ln, K,
        exclude_self, ord, okey) ;
}
#endif
#endif
)" ;

// the integer types a user's definition may name (NVRTC has no <stdint.h>),
// and the values' type
static const char *prelude = R"(#ifdef __CUDACC_RTC__
typedef signed char int8_t ;            typedef unsigned char uint8_t ;
typedef short int16_t ;                 typedef unsigned short uint16_t ;
typedef int int32_t ;                   typedef unsigned int uint32_t ;
typedef long long int64_t ;             typedef unsigned long long uint64_t ;
#else
#include <stdint.h>
#endif
typedef @T@ gxd_T ;
)" ;

// <math.h>'s constants, which NVRTC has no header for
static const char *constants = R"(#ifndef NAN
#define NAN __int_as_float (0x7FC00000)
#endif
#ifndef INFINITY
#define INFINITY __int_as_float (0x7F800000)
#endif
#ifndef HUGE_VAL
#define HUGE_VAL __longlong_as_double (0x7FF0000000000000LL)
#endif
)" ;

static void replace_all (std::string &s, const std::string &from,
    const std::string &to)
{
    for (size_t at = s.find (from) ; at != std::string::npos ;
         at = s.find (from, at + to.size ()))
    {
        s.replace (at, from.size (), to) ;
    }
}

// a built-in operator (gxd_binop's opcodes) as an expression in x and y
static const char *builtin_expr (gxd_opcode op)
{
    switch (op)
    {
        case GXD_OP_FIRST:  return "x" ;
        case GXD_OP_SECOND: return "y" ;
        case GXD_OP_PAIR:   return "1.0" ;
        case GXD_OP_PLUS:   return "x + y" ;
        case GXD_OP_MINUS:  return "x - y" ;
        case GXD_OP_RMINUS: return "y - x" ;
        case GXD_OP_TIMES:  return "x * y" ;
        case GXD_OP_DIV:    return "x / y" ;
        case GXD_OP_RDIV:   return "y / x" ;
        case GXD_OP_MIN:    return "fmin (x, y)" ;
        case GXD_OP_MAX:    return "fmax (x, y)" ;
        case GXD_OP_ISEQ:   return "(double) (x == y)" ;
        case GXD_OP_ISNE:   return "(double) (x != y)" ;
        case GXD_OP_ISGT:   return "(double) (x > y)" ;
        case GXD_OP_ISLT:   return "(double) (x < y)" ;
        case GXD_OP_ISGE:   return "(double) (x >= y)" ;
        case GXD_OP_ISLE:   return "(double) (x <= y)" ;
        case GXD_OP_POW:    return "pow (x, y)" ;
        case GXD_OP_HYPOT:  return "hypot (x, y)" ;
        default:            return NULL ;
    }
}

// the body of a function of (a, b) calling the user's operator NAME
static std::string user_call (const char *name, const char *a, const char *b)
{
    return std::string ("gxd_T z ; gxd_T u = (gxd_T) ") + a + " , v = (gxd_T) "
        + b + " ; " + name + " (&z, &u, &v) ; return ((double) z) ;" ;
}


// x as a CUDA C++ expression of type double, bit for bit
static std::string double_literal (double x)
{
    if (isinf (x)) return (x > 0) ? "(1.0/0.0)" : "(-1.0/0.0)" ;
    if (isnan (x)) return "__longlong_as_double (0x7FF8000000000000LL)" ;
    char text [64] ;
    snprintf (text, sizeof (text), "%.17g", x) ;
    return text ;
}


// gxd_f's body from P's (x), and the user's definitions it needs
static bool mult_parts (const gxd_plan *P, std::string &defns,
    std::string &mult)
{
    if (P->mult == GXD_OP_USER)
    {
        defns += std::string (P->mult_src.defn) + "\n" ;
        mult = user_call (P->mult_src.name, "x", "y") ;
        return true ;
    }
    const char *expr = builtin_expr (P->mult) ;
    if (expr == NULL) return false ;
    mult = std::string ("return (") + expr + ") ;" ;
    return true ;
}

// the program's parts of (+) = add: gxd_a's body, where its fold starts,
// the keys' NaN and the fold of c copies of f(e,e); P (with its user's
// definitions into defns) only where add is a user's
static bool add_parts (gxd_opcode add, const gxd_plan *P, std::string &defns,
    std::string &body, std::string &id, std::string &nan_key,
    std::string &fold)
{
    // NaN starts MIN and MAX: fmin and fmax skip it, so a pair whose terms
    // are all NaN stays NaN, as GraphBLAS gives it; the keys' NaN sorts
    // after every other value in (+)'s order (CUB's radix order puts -NaN
    // below -inf, +NaN above +inf), so a row's NaN terms come last
    const char *nan_id = "__longlong_as_double (0x7FF8000000000000LL)" ;
    nan_key = "0.0" ;
    switch (add)
    {
        case GXD_OP_PLUS:
            body = "return s + t ;" ; id = "0.0" ;
            fold = "s = s + (double) c * fee ;" ;
            return true ;
        case GXD_OP_TIMES:
            body = "return s * t ;" ; id = "1.0" ;
            fold = "s = s * pow (fee, (double) c) ;" ;
            return true ;
        // of +0 and -0 MIN gives -0 and MAX +0 in any order (the CPU's
        // keys do the same; fmin and fmax may give either): equal values
        // have the same bits but for a zero's sign, which OR (AND) keeps
        case GXD_OP_MIN:
            body = "return (s == t) ? __longlong_as_double (__double_as_longlong (s)"
                " | __double_as_longlong (t)) : fmin (s, t) ;" ; id = nan_id ;
            nan_key = "__longlong_as_double (0x7FF8000000000000LL)" ;
            fold = "s = gxd_a (s, fee) ;" ;
            return true ;
        case GXD_OP_MAX:
            body = "return (s == t) ? __longlong_as_double (__double_as_longlong (s)"
                " & __double_as_longlong (t)) : fmax (s, t) ;" ; id = nan_id ;
            nan_key = "__longlong_as_double ((long long) 0xFFF8000000000000ULL)" ;
            fold = "s = gxd_a (s, fee) ;" ;
            return true ;
        case GXD_OP_USER:
            if (strcmp (P->add_src.name, P->mult_src.name != NULL ?
                P->mult_src.name : "") != 0)
            {
                defns += std::string (P->add_src.defn) + "\n" ;
            }
            body = user_call (P->add_src.name, "s", "t") ;
            id = double_literal (P->add_identity) ;
            // c copies of fee, by repeated squaring (as gxd_add_repeat)
            fold = "double t = fee ; while (c > 0) { if (c & 1) s = gxd_a "
                "(s, t) ; c >>= 1 ; if (c > 0) t = gxd_a (t, t) ; }" ;
            return true ;
        default:
            return false ;
    }
}

// the (+) of kernels K's template
static gxd_opcode template_add (const gxd_user_kernels *K)
{
    return (K->set == GXD_USER_REWRITE) ? GXD_OP_PLUS
        : K->min ? GXD_OP_MIN : GXD_OP_MAX ;
}

// the program with kernels K, (+) = add, gxd_f as f_text (after the
// user's text, which may hold anything, "@" included) and the monoid's
// identity as empty
static bool compose (std::string &src, const gxd_user_kernels *K,
    gxd_opcode add, const gxd_plan *P, const std::string &f_text,
    const std::string &empty)
{
    std::string defns, body, id, nan_key, fold ;
    if (!add_parts (add, P, defns, body, id, nan_key, fold)) return false ;
    std::string kernels ;
    if (K->set == GXD_USER_SELECT)
    {
        kernels = "#define GXD_USER_SELECT\n" ;
        if (K->min) kernels += "#define GXD_USER_MIN\n" ;
        if (K->counts) kernels += "#define GXD_USER_COUNTS\n" ;
    }
    if (K->set == GXD_USER_REWRITE) kernels = "#define GXD_USER_REWRITE\n" ;
    if (K->knn && K->set != GXD_USER_PAIRS) kernels += "#define GXD_USER_KNN\n" ;
    src = kernel_template ;
    replace_all (src, "@KERNELS@", kernels) ;
    replace_all (src, "@PRELUDE@", prelude) ;
    replace_all (src, "@T@", K->fp64 ? "double" : "float") ;
    replace_all (src, "@CONSTANTS@", constants) ;
    replace_all (src, "@THREADS@", std::to_string (GXD_USER_THREADS)) ;
    replace_all (src, "@TN@", std::to_string (GXD_USER_TN_WIDE)) ;
    replace_all (src, "@VSLOTS@", std::to_string (GXD_USER_VSLOTS)) ;
    replace_all (src, "@NOVAL@", GXD_USER_STR (GXD_USER_NOVAL)) ;
    replace_all (src, "@ADD@", body) ;
    replace_all (src, "@ID@", id) ;
    replace_all (src, "@NANKEY@", nan_key) ;
    replace_all (src, "@EMPTY@", empty) ;
    replace_all (src, "@FOLD@", fold) ;
    replace_all (src, "@GXD_F@", defns + f_text) ;
    return true ;
}

bool gxd_user_program (std::string &src, const gxd_plan *P,
    const gxd_user_kernels *K)
{
    std::string defns, mult ;
    if (!mult_parts (P, defns, mult)) return false ;
    return compose (src, K, P->add, P, defns + "\n__device__ __forceinline__ "
        "double gxd_f (double x, double y) { " + mult + " }\n",
        double_literal (P->add_identity)) ;
}

bool gxd_user_has_template (const gxd_user_kernels *K)
{
    return K->set != GXD_USER_PAIRS ;
}

std::string gxd_user_template (const gxd_user_kernels *K)
{
    std::string src ;
    compose (src, K, template_add (K), NULL,
        "extern \"C\" __device__ double gxd_f (double x, double y) ;\n"
        "extern \"C\" __device__ double gxd_user_empty (void) ;\n",
        "gxd_user_empty ()") ;
    return src ;
}

bool gxd_user_operator (std::string &src, const gxd_plan *P)
{
    std::string defns, mult ;
    if (!mult_parts (P, defns, mult)) return false ;
    src = std::string (prelude) + constants ;
    replace_all (src, "@T@", P->fp64 ? "double" : "float") ;
    src += "extern \"C\" __device__ double gxd_user_empty (void) { return "
        + double_literal (P->add_identity) + " ; }\n" ;
    // the user's text last: it may hold anything, "@" included
    src += defns + "extern \"C\" __device__ double gxd_f (double x, double y) { "
        + mult + " }\n" ;
    return true ;
}

std::string gxd_user_template_name (const gxd_user_kernels *K)
{
    std::string name = (K->set == GXD_USER_REWRITE) ? "rewrite"
        : K->min ? "select_min" : "select_max" ;
    if (K->set == GXD_USER_SELECT && K->counts) name += "_counts" ;
    if (K->knn) name += "_knn" ;
    return name + (K->fp64 ? "_fp64" : "_fp32") ;
}

void gxd_user_template_list (gxd_user_kernels K [GXD_USER_NTEMPLATES])
{
    int t = 0 ;
    for (int fp64 = 0 ; fp64 <= 1 ; fp64++)
    {
        for (int knn = 0 ; knn <= 1 ; knn++)
        {
            K [t++] = { (bool) fp64, GXD_USER_REWRITE, false, false, (bool) knn } ;
            for (int q = 0 ; q < 4 ; q++)
            {
                K [t++] = { (bool) fp64, GXD_USER_SELECT, (bool) (q & 1),
                    (bool) (q >> 1), (bool) knn } ;
            }
        }
    }
}
