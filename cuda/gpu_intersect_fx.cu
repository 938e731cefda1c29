//------------------------------------------------------------------------------
// cuda/gpu_intersect_fx.cu: intersection + row norms, fixed-point accumulator
//------------------------------------------------------------------------------

// The same sums as gpu_intersect.cu (one block per row i of A and tile of
// rows of B, a shared accumulator per output), but without a barrier per
// column of row i: the block's intermediate products are one flat list that
// the warps split evenly, and each term is added with an atomic.  Integer
// addition is associative, so the terms are added in fixed point: the same
// bits in any order, deterministic without a fixed order.
//
// The scale: every term of row i is bounded, |g(a_c, y)| <= beta(|a_c|, M_c)
// with M_c the largest |B(:,c)|, so S_i = sum_c beta bounds every partial
// sum of row i; terms are taken as round(g * 2^E_i) with S_i * 2^E_i < 2^62
// (E_i per row, computed once).  A pair's error is then at most
// min(nnz a, nnz b)/2 quanta 2^-E_i, known after the fact: where it could
// pass 1/8 of the output's tolerance (a row of B far smaller than the
// column maxima) the pair is recomputed by the exact merge (gxd_fx_coarse),
// as are the rows whose S_i is not finite.
//
// Metrics with an unbounded term (KL, dot, generic plans) and Bray-Curtis
// (two sums) stay on gpu_intersect.cu's kernel.

#include "gpu_internal.cuh"

// E_i of a row whose bound is not finite (inf or NaN in its columns)
#define GXD_FX_BAD INT32_MIN

template <int M> __host__ __device__ constexpr bool gxd_fx_ok ()
{
    return gxd_fx_metric (M) ;
}

// beta(x, mc) >= |g(x, y)| for every |y| <= mc (x >= 0 here: |a_c|)
template <int M>
__device__ __forceinline__ double gxd_fx_bound (const gxd_plan &P, double x,
    double mc)
{
    switch (M)
    {
        case GXD_MANHATTAN:     return 2 * x ;          // 2 min(|x|,|y|)
        case GXD_EUCLIDEAN:
        case GXD_SQEUCLIDEAN:   return 2 * x * mc ;
        case GXD_COSINE:
        case GXD_CORRELATION:   return x * mc ;
        case GXD_CANBERRA:
        case GXD_HAMMING:       return 2 ;
        case GXD_HELLINGER:     return 2 * sqrt (x * mc) ;
        case GXD_JENSEN_SHANNON: return (x + mc) * 0.6931471805599453 ;
        case GXD_MINKOWSKI:
            return pow (x + mc, P.p) + pow (x, P.p) + pow (mc, P.p) ;
        default:                return 1 ;              // counts: 0 or 1
    }
}

// the term g(x, y) of one product.  Canberra in FP32 plans takes its ratio
// |x-y| / (|x|+|y|) in float instead of a double division (measured 7-9 %
// faster on the synthetic sets, docs/gpu_strategy.md):
// three roundings of at most 2^-24 relative, and the ratio is at most 1, so
// the term is off by less than 2^-22 (gxd_fx_term_err), an error the
// a-posteriori test below accounts for; an overflow (NaN) falls back to
// double.  Every other term is computed in double (gxd_g).
template <int M, typename T>
__device__ __forceinline__ double gxd_fx_term (const gxd_plan &P, double x, T y)
{
    if constexpr (M == GXD_CANBERRA && sizeof (T) == sizeof (float))
    {
        const float xf = (float) x ;        // x is a float of the plan
        const float sd = fabsf (xf) + fabsf (y) ;
        const float f = (sd == 0) ? 0.0f : fabsf (xf - y) / sd ;
        if (f <= 1.0f) return (double) f - (xf != 0) - (y != 0) ;
    }
    return gxd_g ((gxd_metric_id) M, &P, x, (double) y) ;
}

template <int M, typename T> __host__ __device__ constexpr double gxd_fx_term_err ()
{
    return (M == GXD_CANBERRA && sizeof (T) == sizeof (float)) ? 0x1p-22 : 0 ;
}

// true when the quantum q = 2^-E_i is too coarse for pair (a, b) with sum
// a1 and distance d: its error, at most min(nnz a, nnz b) times half a
// quantum (one rounding per term of the pair) plus the term's own error,
// passes 1/8 of the output's tolerance (relative 1e-5 FP32, 1e-12 FP64) in
// the raw union sum (cosine and correlation: in d).  Counts are integers:
// exact while q <= 1.
template <int M, typename T>
__device__ __forceinline__ bool gxd_fx_coarse (const gxd_plan &P, double q,
    double a1, double d, const gxd_row &a, const gxd_row &b, int64_t k)
{
    const double err = (0.5 * q + gxd_fx_term_err<M, T> ())
        * (double) ((a.nnz < b.nnz) ? a.nnz : b.nnz) ;
    double eta = P.fp64 ? 1e-12 / 8 : 1e-5 / 8 ;
    // d = raw^(1/p) carries 1/p times the relative error of raw
    if (M == GXD_MINKOWSKI && P.p < 1) eta *= P.p ;
    switch (M)
    {
        case GXD_DICE: case GXD_JACCARD: case GXD_RUSSELLRAO: return q > 1 ;
        case GXD_COSINE: case GXD_CORRELATION:
            return err * a.inv * b.inv > eta * d ;
        default:
            return err > eta * fabs (gxd_raw ((gxd_metric_id) M, &P, a1, &a, &b, k)) ;
    }
}

//------------------------------------------------------------------------------
// the scales: column maxima of |B|, then E_i per row of A
//------------------------------------------------------------------------------

// M_c = max |B(:,c)| as the bits of a non-negative double (the bits of
// non-negative doubles order like the values; NaN sorts above inf)
template <typename T>
__global__ void k_fx_colmax (const int32_t *Bj, const T *Bx, int64_t nnz,
    unsigned long long *cm)
{
    for (int64_t e = blockIdx.x * (int64_t) blockDim.x + threadIdx.x ; e < nnz ;
         e += (int64_t) gridDim.x * blockDim.x)
    {
        double v = fabs ((double) Bx [e]) ;
        if (v != 0) atomicMax (cm + Bj [e], (unsigned long long) __double_as_longlong (v)) ;
    }
}

// one warp per row: S_i by a fixed shuffle tree (the same bits every run),
// then E_i with S_i * 2^E_i < 2^62
template <int M, typename T>
__global__ void k_fx_exp (gxd_plan P, const int64_t *Ap, const int32_t *Aj,
    const T *Ax, int64_t m, const double *cm, int32_t *E)
{
    const int lane = threadIdx.x & 31 ;
    const int64_t i = (blockIdx.x * (int64_t) blockDim.x + threadIdx.x) / 32 ;
    if (i >= m) return ;
    double s = 0 ;
    for (int64_t p = Ap [i] + lane ; p < Ap [i+1] ; p += 32)
        s += gxd_fx_bound<M> (P, fabs ((double) Ax [p]), cm [Aj [p]]) ;
    for (int off = 16 ; off > 0 ; off >>= 1) s += __shfl_xor_sync (0xffffffffu, s, off) ;
    if (lane != 0) return ;
    int e = 0 ;
    // margin: the rounding of the bound's own sum is < 2^-40 of it
    if (s > 0) frexp (s * (1 + 0x1p-30), &e) ;     // s < 2^e
    E [i] = isfinite (s) ? max (-1000, min (1000, 62 - e)) : GXD_FX_BAD ;
}

//------------------------------------------------------------------------------
// the kernel
//------------------------------------------------------------------------------

// add round(v) to the 64-bit two's complement accumulator (hi, lo) of slot
// s: the low word's add returns the old value, so its carry is known
// exactly; the sum mod 2^64 is the same whatever order the adds take
__device__ __forceinline__ void fx_add (uint32_t *lo, uint32_t *hi, int64_t s,
    double v)
{
    const unsigned long long u = (unsigned long long) __double2ll_rn (v) ;
    const uint32_t l = (uint32_t) u ;
    uint32_t h = (uint32_t) (u >> 32) ;
    const uint32_t old = atomicAdd (lo + s, l) ;
    h += (uint32_t) (old + l < old) ;
    if (h != 0) atomicAdd (hi + s, h) ;
}

template <int M, typename T>
// registers uncapped: capping them for 6 blocks per SM (cosine takes 53,
// so 4 blocks) measured 1.3x slower for Manhattan and no faster for cosine
__global__ void __launch_bounds__ (256)
k_intersect_fx (gxd_plan P,
    const int64_t *Ap, const int32_t *Aj, const T *Ax, gxd_drows RA,
    const int64_t *Bp, const int32_t *Bj, const T *Bx, gxd_drows RB,
    gxd_dcsc S, const int32_t *fxE, int64_t i0, int64_t j0, int64_t w,
    int64_t n, int64_t k, T *Ct)
{
    const gxd_metric_id m = (gxd_metric_id) M ;
    // each 64-bit accumulator as two 32-bit words: 64-bit shared atomics
    // are a compare-and-swap loop on sm_90, 32-bit adds are native
    extern __shared__ uint32_t flo [] ;
    uint32_t *fhi = flo + GXD_SW_LEN (w) ;
    __shared__ int32_t s_lo [GXD_ICH] ;
    __shared__ double s_x [GXD_ICH] ;
    __shared__ int32_t s_off [GXD_ICH + 1] ;
    __shared__ int32_t s_cnt ;
    const int64_t i = i0 + blockIdx.x ;
    const int tid = threadIdx.x, nt = blockDim.x ;
    const int lane = tid & 31, warp = tid / 32, nw = nt / 32 ;
    for (int64_t jj = tid ; jj < GXD_SW_LEN (w) ; jj += nt) { flo [jj] = 0 ; fhi [jj] = 0 ; }

    const int32_t E = fxE [i] ;
    const bool bad = (E == GXD_FX_BAD) ;
    const double up = bad ? 1 : ldexp (1.0, E) ;
    const int64_t alo = Ap [i], ahi = Ap [i+1] ;
    const int32_t *__restrict__ rows = S.rows ;
    const T *__restrict__ vals = (const T *) S.vals ;
    for (int64_t base = alo ; !bad && base < ahi ; )
    {
        const int cmax = (int) ((ahi - base < GXD_ICH) ? ahi - base : GXD_ICH) ;
        __syncthreads () ;          // zeroing / the last chunk's readers done
        for (int t = tid ; t < cmax ; t += nt)
        {
            const int32_t c = Aj [base + t] ;
            const int64_t lo = S.colptr [c], hi = S.colptr [c+1] ;
            s_lo [t] = (int32_t) lo ;
            s_x [t] = (double) Ax [base + t] ;
            s_off [t+1] = (int32_t) (hi - lo) ;     // <= tn per tile
        }
        __syncthreads () ;
        if (tid < 32) gxd_stage_scan (s_off, cmax, &s_cnt, INT32_MAX) ;
        __syncthreads () ;
        // the chunk's products 0..total-1 in column order, an equal run of
        // whole 32-product steps per warp
        const int total = s_off [cmax] ;
        const int per = (((total + nw - 1) / nw) + 31) & ~31 ;
        const int e0 = warp * per, e1 = min (total, e0 + per) ;
        int col = 0 ;
        {
            // the column of this lane's first product: the last t with
            // s_off [t] <= e (then s_off [t+1] > e)
            const int e = e0 + lane ;
            int lo = 0, hi = cmax - 1 ;
            while (lo < hi)
            {
                int mid = (lo + hi + 1) / 2 ;
                if (s_off [mid] <= e) lo = mid ; else hi = mid - 1 ;
            }
            col = lo ;
        }
        // two products per lane per step: both loads in flight together
        for (int e = e0 + lane ; e < e1 ; e += 64)
        {
            const int f = e + 32 ;
            const bool has2 = f < e1 ;
            while (s_off [col+1] <= e) col++ ;
            const int c1 = col ;
            if (has2) while (s_off [col+1] <= f) col++ ;
            const int p1 = s_lo [c1] + (e - s_off [c1]) ;
            const int p2 = has2 ? s_lo [col] + (f - s_off [col]) : p1 ;
            const int32_t j1 = __ldg (rows + p1), j2 = __ldg (rows + p2) ;
            const T y1 = __ldg (vals + p1), y2 = __ldg (vals + p2) ;
            fx_add (flo, fhi, GXD_SW (j1), gxd_fx_term<M, T> (P, s_x [c1], y1) * up) ;
            if (has2) fx_add (flo, fhi, GXD_SW (j2), gxd_fx_term<M, T> (P, s_x [col], y2) * up) ;
        }
        base += cmax ;
    }
    __syncthreads () ;

    const double q = bad ? 0 : ldexp (1.0, -E) ;
    const gxd_row ra = gxd_load_row (RA, i) ;
    T *crow = Ct + (int64_t) blockIdx.x * n + j0 ;
    for (int64_t jj = tid ; jj < w ; jj += nt)
    {
        const int64_t j = j0 + jj ;
        const gxd_row rb = gxd_load_row (RB, j) ;
        const int64_t sw = GXD_SW (jj) ;
        const double a1 = (double) (long long) (((unsigned long long) fhi [sw] << 32)
            | flo [sw]) * q ;
        const bool force = bad || gxd_fx_coarse<M, T> (P, q, a1,
            gxd_finalize (m, &P, a1, 0, &ra, &rb, k), ra, rb, k) ;
        crow [jj] = gxd_finish_pair<M, T> (P, a1, 0, force, ra, rb,
            Aj + alo, Ax + alo, ahi - alo, Bj, Bx, Bp, j, k) ;
    }
}

//------------------------------------------------------------------------------
// launch and prepare
//------------------------------------------------------------------------------

template <int M, typename T>
static GrB_Info launch_fx_ok (gxd_gpu_ctx *G, int64_t i0, int64_t i1, void *Ct,
    cudaStream_t s, char *msg)
{
    GrB_Info info = GrB_SUCCESS ;
    const int64_t n = G->B.nrows, rows = i1 - i0 ;
    size_t shmem = (size_t) GXD_SW_LEN (G->tn) * 2 * sizeof (uint32_t) ;
    if (rows <= 0 || n <= 0) return GrB_SUCCESS ;
    GXD_CUDA_TRY (cudaFuncSetAttribute (k_intersect_fx<M, T>,
        cudaFuncAttributeMaxDynamicSharedMemorySize, (int) shmem)) ;
    GXD_TRY (gxd_for_tiles (G, rows, msg, [&] (int64_t t, int64_t j0, int64_t w,
        int64_t r0, int64_t nr)
    {
        k_intersect_fx<M, T> <<<(unsigned) nr, 256, shmem, s>>> (G->P,
            G->A.p, G->A.j, (const T *) G->A.x, G->RA,
            G->B.p, G->B.j, (const T *) G->B.x, G->RB,
            G->csc [t], G->fx_exp, i0 + r0, j0, w, n, G->A.ncols,
            (T *) Ct + r0 * n) ;
    })) ;
cleanup:
    return info ;
}

template <int M, typename T>
static GrB_Info prepare_fx_ok (gxd_gpu_ctx *G, cudaStream_t s, char *msg)
{
    GrB_Info info = GrB_SUCCESS ;
    const int64_t k = G->A.ncols, m = G->A.nrows, nnz = G->B.nnz ;
    GXD_CUDA_TRY (cudaMalloc (&G->fx_colmax, (size_t) (k > 0 ? k : 1) * sizeof (double))) ;
    GXD_CUDA_TRY (cudaMalloc (&G->fx_exp, (size_t) (m > 0 ? m : 1) * sizeof (int32_t))) ;
    GXD_CUDA_TRY (cudaMemsetAsync (G->fx_colmax, 0, (size_t) k * sizeof (double), s)) ;
    if (nnz > 0)
    {
        int blocks = (int) ((nnz + 255) / 256 < 4096 ? (nnz + 255) / 256 : 4096) ;
        k_fx_colmax<T> <<<blocks, 256, 0, s>>> (G->B.j, (const T *) G->B.x, nnz,
            (unsigned long long *) G->fx_colmax) ;
        GXD_LAUNCH_CHECK () ;
    }
    if (m > 0)
    {
        k_fx_exp<M, T> <<<(unsigned) ((m * 32 + 255) / 256), 256, 0, s>>> (G->P,
            G->A.p, G->A.j, (const T *) G->A.x, m, G->fx_colmax, G->fx_exp) ;
        GXD_LAUNCH_CHECK () ;
    }
cleanup:
    return info ;
}

// only metrics with a fixed-point form are instantiated
template <int M, typename T>
static GrB_Info launch_fx (gxd_gpu_ctx *G, int64_t i0, int64_t i1, void *Ct,
    cudaStream_t s, char *msg)
{
    if constexpr (gxd_fx_ok<M> ()) return launch_fx_ok<M, T> (G, i0, i1, Ct, s, msg) ;
    return gxd_fail (GrB_INVALID_VALUE, msg, "no fixed-point form") ;
}

template <int M, typename T>
static GrB_Info prepare_fx (gxd_gpu_ctx *G, cudaStream_t s, char *msg)
{
    if constexpr (gxd_fx_ok<M> ()) return prepare_fx_ok<M, T> (G, s, msg) ;
    return GrB_SUCCESS ;
}

GrB_Info gxd_intersect_fx_tile (gxd_gpu_ctx *G, int64_t i0, int64_t i1,
    void *Ct, cudaStream_t s, char *msg)
{
    const gxd_plan *P = &G->P ;
    GXD_DISPATCH (P, launch_fx, G, i0, i1, Ct, s, msg) ;
    return gxd_fail (GrB_INVALID_VALUE, msg, "unknown metric in plan") ;
}

// column maxima and row scales (after gxd_intersect_prepare: fills nothing
// for a metric without a fixed-point form)
GrB_Info gxd_intersect_fx_prepare (gxd_gpu_ctx *G, cudaStream_t s, char *msg)
{
    const gxd_plan *P = &G->P ;
    GXD_DISPATCH (P, prepare_fx, G, s, msg) ;
    return gxd_fail (GrB_INVALID_VALUE, msg, "unknown metric in plan") ;
}

