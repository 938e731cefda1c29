// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// cuda/gpu_intersect.cu: intersection + row norms, the main dense kernel
//------------------------------------------------------------------------------

// Every metric whose (+) is + (and the dot-kind metrics) is computed as
// norms + an intersection sum + finalize (../shared/design/floors.md), so the
// work is the intermediate products sum_c cA(c)*cB(c) of A*B', not m*nnz(B).
//
// One block per (row i of A, tile of tn rows of B).  The block keeps a
// shared-memory accumulator of tn doubles, walks row i's columns one at a
// time and, for column c, adds g(a_c, b_jc) for every entry of B's column c
// (B by columns, gpu_csr.cu).  Within one column each j appears once, so the
// threads never collide; a barrier separates columns.  No atomics: the sum
// for each (i,j) is taken in row i's column order, the same bits every run
// (issue 8: the probe with float atomics was slower and not reproducible).
// Accumulating in double keeps FP32 outputs within 1e-5 of the FP64
// reference; pairs that cancel (gxd_needs_exact: near-duplicate rows) are
// recomputed by an exact merge over the union, by the thread that owns j.

#include "gpu_internal.cuh"

// the longest column whose entries are copied to shared memory, and the
// room for those entries (GXD_ICH, columns staged at once: gpu_internal.cuh)
#define GXD_SHORT 64
#define GXD_SBUF 768

// kernel variants (gxd_gpu_tuning.kv, gpu_tuning.h; 0: gxd_default_kv):
//  1: each term g(x, y) computed inside its column's phase (the v5 kernel
//     of bench/gpu_measurements.md), registers as the compiler likes
//  3: no barrier per column, terms added in fixed point with atomics
//     (gpu_intersect_fx.cu); deterministic too (integer sums).
// (A variant 2, computing the staged columns' terms while staging, was
// never faster than 1 and is gone.)  Every metric with a fixed-point form
// takes 3: GxB_kNN selects inside that kernel (no distance is written), and
// a kNN must give the bits of GxB_mxm_distance on the same data
// (docs/neighbors.md), so both take the same kernel.  Writing all pairs, 1
// is up to 22 % faster on rows of under 16 entries (cosine, Euclidean) or
// 6 (Manhattan), bench/gpu_measurements.md "Kernel variants"; all pairs
// into host memory are bound by the copy, not by that kernel.  The other
// metrics take 1.
__host__ __device__ constexpr int gxd_default_kv (int m)
{
    return gxd_fx_metric (m) ? 3 : 1 ;
}

template <int M, typename T, bool TWO>
__global__ void __launch_bounds__ (1024, 1)
k_intersect (gxd_plan P,
    const int64_t *Ap, const int32_t *Aj, const T *Ax, gxd_drows RA,
    const int64_t *Bp, const int32_t *Bj, const T *Bx, gxd_drows RB,
    gxd_dcsc S, int64_t i0, int64_t j0, int64_t w, int64_t n, int64_t k,
    int64_t tn, T *Ct)
{
    const gxd_metric_id m = (gxd_metric_id) M ;
    extern __shared__ double acc [] ;
    double *acc2 = acc + GXD_SW_LEN (tn) ;
    const int64_t i = i0 + blockIdx.x ;
    const int tid = threadIdx.x, nt = blockDim.x ;

    for (int64_t jj = tid ; jj < GXD_SW_LEN (w) ; jj += nt)
    {
        acc [jj] = 0 ;
        if (TWO) acc2 [jj] = 0 ;
    }
    __syncthreads () ;

    const int64_t alo = Ap [i], ahi = Ap [i+1] ;
    const int32_t *__restrict__ rows = S.rows ;
    const T *__restrict__ vals = (const T *) S.vals ;
    // Each column costs a barrier; with the loads of a short column inside
    // its phase, every phase waits one L2 round trip (measured: ~900 clocks
    // per phase, most columns of a row are short).  So a chunk of up to
    // GXD_ICH columns is staged first: their extents, and the entries of
    // the short ones (<= GXD_SHORT) copied into shared memory with all
    // threads loading at once; the phases then read shared memory.
    __shared__ int32_t s_lo [GXD_ICH], s_hi [GXD_ICH] ;   // < 2^31 per tile
    __shared__ double s_x [GXD_ICH] ;
    __shared__ int32_t s_off [GXD_ICH + 1] ;
    __shared__ int32_t s_cnt ;
    __shared__ int32_t sb_j [GXD_SBUF] ;
    __shared__ T sb_y [GXD_SBUF] ;
    for (int64_t base = alo ; base < ahi ; )
    {
        const int cmax = (int) ((ahi - base < GXD_ICH) ? ahi - base : GXD_ICH) ;
        __syncthreads () ;                  // the last chunk's readers are done
        for (int t = tid ; t < cmax ; t += nt)
        {
            const int32_t c = Aj [base + t] ;
            const int64_t lo = S.colptr [c], hi = S.colptr [c+1] ;
            s_lo [t] = (int32_t) lo ; s_hi [t] = (int32_t) hi ;
            s_x [t] = (double) Ax [base + t] ;
            s_off [t+1] = (hi - lo <= GXD_SHORT) ? (int32_t) (hi - lo) : 0 ;
        }
        __syncthreads () ;
        if (tid < 32) gxd_stage_scan (s_off, cmax, &s_cnt, GXD_SBUF) ;
        __syncthreads () ;
        const int cnt = s_cnt ;
        // one warp per staged column (<= GXD_SHORT entries each): no search
        for (int t = tid / 32 ; t < cnt ; t += nt / 32)
        {
            const int off = s_off [t], len = s_off [t+1] - off ;
            const int64_t lo = s_lo [t] ;
            for (int e = (tid & 31) ; e < len ; e += 32)
            {
                sb_j [off + e] = __ldg (rows + lo + e) ;
                sb_y [off + e] = __ldg (vals + lo + e) ;
            }
        }
        __syncthreads () ;
        for (int t = 0 ; t < cnt ; t++)
        {
            const int64_t lo = s_lo [t], hi = s_hi [t] ;
            if (lo == hi) continue ;        // uniform over the block
            const double x = s_x [t] ;
            if (hi - lo <= GXD_SHORT)
            {
                if (tid < hi - lo)
                {
                    const int e = s_off [t] + tid ;
                    const int32_t jj = sb_j [e] ;
                    const double y = (double) sb_y [e] ;
                    acc [GXD_SW (jj)] += gxd_g (m, &P, x, y) ;
                    if (TWO) acc2 [GXD_SW (jj)] += gxd_g2 (x, y) ;
                }
            }
            else
            {
                // a long column, two entries per thread per step
                for (int64_t q = lo + tid ; q < hi ; q += 2 * nt)
                {
                    const int64_t q2 = q + nt ;
                    const bool has2 = q2 < hi ;
                    const int32_t j1 = __ldg (rows + q) ;
                    const double y1 = (double) __ldg (vals + q) ;
                    int32_t j2 = 0 ; double y2 = 0 ;
                    if (has2) { j2 = __ldg (rows + q2) ; y2 = (double) __ldg (vals + q2) ; }
                    acc [GXD_SW (j1)] += gxd_g (m, &P, x, y1) ;
                    if (TWO) acc2 [GXD_SW (j1)] += gxd_g2 (x, y1) ;
                    if (has2)
                    {
                        acc [GXD_SW (j2)] += gxd_g (m, &P, x, y2) ;
                        if (TWO) acc2 [GXD_SW (j2)] += gxd_g2 (x, y2) ;
                    }
                }
            }
            __syncthreads () ;
        }
        base += cnt ;
    }

    const gxd_row ra = gxd_load_row (RA, i) ;
    T *crow = Ct + (int64_t) blockIdx.x * n + j0 ;
    for (int64_t jj = tid ; jj < w ; jj += nt)
    {
        const int64_t j = j0 + jj ;
        const gxd_row rb = gxd_load_row (RB, j) ;
        const double a1 = acc [GXD_SW (jj)], a2 = TWO ? acc2 [GXD_SW (jj)] : 0 ;
        crow [jj] = gxd_finish_pair<M, T> (P, a1, a2, false, ra, rb,
            Aj + alo, Ax + alo, ahi - alo, Bj, Bx, Bp, j, k) ;
    }
}

//------------------------------------------------------------------------------
// launch
//------------------------------------------------------------------------------

template <int M, typename T>
static GrB_Info launch_intersect (gxd_gpu_ctx *G, int64_t i0, int64_t i1,
    void *Ct, cudaStream_t s, char *msg)
{
    GrB_Info info = GrB_SUCCESS ;
    constexpr bool two = (M == GXD_BRAYCURTIS) ;
    const int64_t n = G->B.nrows, rows = i1 - i0 ;
    const int nt = G->threads ;
    size_t shmem = (size_t) GXD_SW_LEN (G->tn) * sizeof (double) * (two ? 2 : 1) ;
    if (rows <= 0 || n <= 0) return GrB_SUCCESS ;
    GXD_CUDA_TRY (cudaFuncSetAttribute (k_intersect<M, T, two>,
        cudaFuncAttributeMaxDynamicSharedMemorySize, (int) shmem)) ;
    GXD_GPU_TRY (gxd_for_tiles (G, rows, msg, [&] (int64_t t, int64_t j0, int64_t w,
        int64_t r0, int64_t nr)
    {
        k_intersect<M, T, two> <<<(unsigned) nr, nt, shmem, s>>> (G->P,
            G->A.p, G->A.j, (const T *) G->A.x, G->RA,
            G->B.p, G->B.j, (const T *) G->B.x, G->RB,
            G->csc [t], i0 + r0, j0, w, n, G->A.ncols, G->tn, (T *) Ct + r0 * n) ;
    })) ;
cleanup:
    return info ;
}

GrB_Info gxd_intersect_tile (gxd_gpu_ctx *G, int64_t i0, int64_t i1,
    void *Ct, cudaStream_t s, char *msg)
{
    const gxd_plan *P = &G->P ;
    if (G->fixed_point) return gxd_intersect_fx_tile (G, i0, i1, Ct, s, msg) ;
    GXD_DISPATCH (P, launch_intersect, G, i0, i1, Ct, s, msg) ;
    return gxd_fail (GrB_INVALID_VALUE, msg, "unknown metric in plan") ;
}

bool gxd_fx_planned (int kv, int metric)
{
    if (kv < 1 || kv > 3) kv = gxd_default_kv (metric) ;
    return kv == 3 && gxd_fx_metric (metric) ;
}

// row contexts of A and B, and B by columns in tiles of tn rows
GrB_Info gxd_intersect_prepare (gxd_gpu_ctx *G, cudaStream_t s, char *msg)
{
    GrB_Info info = GrB_SUCCESS ;
    const int64_t n = G->B.nrows ;
    if (G->tn <= 0 || G->tn > n) G->tn = (n > 0) ? n : 1 ;
    G->ntiles = (n + G->tn - 1) / G->tn ;
    if (G->ntiles < 1) G->ntiles = 1 ;
    G->csc = (gxd_dcsc *) calloc (G->ntiles, sizeof (gxd_dcsc)) ;
    if (G->csc == NULL) return gxd_fail (GrB_OUT_OF_MEMORY, msg, "out of host memory") ;
    GXD_GPU_TRY (gxd_row_contexts (&G->P, &G->A, true, &G->RA, s, msg)) ;
    GXD_GPU_TRY (gxd_row_contexts (&G->P, &G->B, false, &G->RB, s, msg)) ;
    GXD_GPU_TRY (gxd_build_csc_tiles (&G->B, G->P.fp64, G->tn, G->ntiles, G->csc,
        &G->csc_pool, s, msg)) ;
    // variant 3: the fixed-point kernel (gpu_intersect_fx.cu)
    if (gxd_fx_planned (G->kv, G->P.metric))
        GXD_GPU_TRY (gxd_intersect_fx_prepare (G, s, msg)) ;
cleanup:
    return info ;
}
