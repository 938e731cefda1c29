// SPDX-License-Identifier: Apache-2.0
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
// (E_i per row, computed once; 2^30 and one 32-bit word per output where
// that is fine enough, see gxd_fx_narrow_ok).  A pair's error is then at most
// min(nnz a, nnz b)/2 quanta 2^-E_i, known after the fact: where it could
// pass 1/8 of the output's tolerance (a row of B far smaller than the
// column maxima) the pair is recomputed by the exact merge (gxd_fx_coarse),
// as are the rows whose S_i is not finite.
//
// Metrics with an unbounded term (KL, dot, generic plans) and Bray-Curtis
// (two sums) stay on gpu_intersect.cu's kernel.

#include "gpu_internal.cuh"
#include "gpu_fused_select.cuh"

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
        case GXD_JENSEN_SHANNON:
        {
            // |g| = x ln (1 + y/x) + y ln (1 + x/y) <= x (1 + ln (1 + mc/x))
            // and <= (x + mc) ln 2; plus the FP32 term's own error
            // (fx_js_term, < 2^-38.4 (x + y)), so the bound holds for the
            // computed term too (x = 0 gives a tiny one)
            const double loose = (x + mc) * 0.6931471805599453 ;
            const double tight = (x > 0) ? x * (1 + log1p (mc / x)) : 0 ;
            return ((tight < loose) ? tight : loose) + 0x1p-37 * (x + mc) ;
        }
        case GXD_MINKOWSKI:
            return pow (x + mc, P.p) + pow (x, P.p) + pow (mc, P.p) ;
        default:                return 1 ;              // counts: 0 or 1
    }
}

// Canberra in FP32 plans runs in float: row i's a_c are staged as floats
// (gxd_fx_xs) and the ratio r = |x-y| / (|x|+|y|) is taken by __fdividef:
// |x-y| and |x|+|y| rounded once each, the quotient within 2 ulp, so r is
// off by less than 1.25 2^-21 of itself (plus 2^-140 where it is
// subnormal).  The ratios are terms of the distance, all >= 0: their errors
// add up to at most 1.25 2^-21 of the raw union sum (gxd_fx_term_rel, which
// the a-posteriori test below counts).  Narrow rows whose values are in
// range take r and its quantum in float without a test or a branch
// (fx_canberra_q22: what made Canberra fast, ncu counted 1.5x Manhattan's
// instructions with the tests); the others take the tested quotient below,
// in double where |x|+|y| is too large for it.  (measured:
// bench/gpu_measurements.md, variant 3, fourth session)
template <int M, typename T> __host__ __device__ constexpr bool gxd_fx_xf ()
{
    return M == GXD_CANBERRA && sizeof (T) == sizeof (float) ;
}
template <int M, typename T> struct gxd_fx_xs { typedef double type ; } ;
template <> struct gxd_fx_xs<GXD_CANBERRA, float> { typedef float type ; } ;

__device__ __forceinline__ float fx_canberra_ratio (float x, float y)
{
    const float sd = fabsf (x) + fabsf (y) ;
    if (sd < 0x1p126f)
        return (sd > 0) ? fminf (__fdividef (fabsf (x - y), sd), 1.0f) : 0.0f ;
    return (float) (fabs ((double) x - y) / (fabs ((double) x) + fabs ((double) y))) ;
}

// The narrow form's term round(g 2^22), g = r - 2, on rows whose values and
// B's are all nonzero and within [2^-125, 2^124] (checked in k_fx_exp):
// then |x|+|y| is a normal float that the approximate reciprocal (1 ulp,
// flushing nothing there) takes, r is off by less than 1.25 2^-22, and no
// check or branch is needed.  r 2^22 <= 2^22 is rounded to an integer by
// the FMA against 1.5 2^23 (its bits minus those of 1.5 2^23; r = 1 gives
// 2^24, whose bits are 2^22 on from them too).
#define GXD_FX_CANB_MIN 0x01000000u     // the bits of 2^-125
#define GXD_FX_CANB_MAX 0x7D800000u     // the bits of 2^124
__device__ __forceinline__ uint32_t fx_canberra_q22 (float x, float y)
{
    float rcp ;
    asm ("rcp.approx.ftz.f32 %0, %1;" : "=f" (rcp) : "f" (fabsf (x) + fabsf (y))) ;
    const float f = fmaf (fminf (fabsf (x - y) * rcp, 1.0f), 0x1p22f, 0x1.8p23f) ;
    return __float_as_uint (f) - (0x4B400000u + (2u << 22)) ;
}

// the term g(x, y) of one product: in double (gxd_g) except Canberra's in
// FP32 plans (above)
template <int M, typename T, typename XS>
__device__ __forceinline__ double gxd_fx_term (const gxd_plan &P, XS x, T y)
{
    if constexpr (gxd_fx_xf<M, T> ())
        return (double) fx_canberra_ratio (x, y)
            - ((x != 0) ? 1.0 : 0.0) - ((y != 0) ? 1.0 : 0.0) ;
    else
        return gxd_g ((gxd_metric_id) M, &P, x, (double) y) ;
}

// a term's own error: relative to the raw union sum (all terms >= 0), and
// absolute per term
template <int M, typename T> __host__ __device__ constexpr double gxd_fx_term_rel ()
{
    return gxd_fx_xf<M, T> () ? 0x1.4p-21 : 0 ;
}
template <int M, typename T> __host__ __device__ constexpr double gxd_fx_term_err ()
{
    return gxd_fx_xf<M, T> () ? 0x1p-140 : 0 ;
}

// Jensen-Shannon in FP32 plans: g = x ln(x/s) + y ln(y/s) = x ln x + y ln y
// - s ln s (s = x + y), with v ln v of every entry of A and B computed once
// (gxd_fx_logs): one logarithm per product (fx_ln, by a table) instead of
// two and two divisions.  The three parts may cancel: x ln x and y ln y are
// off by a few ulp of themselves (|ln v| <= 104 for a float v), ln s by less
// than 2^-38.5 (fx_ln), so a term is off by less than 2^-38.4 s, and the sum
// of s over the pair's intersection is at most (n0(a) + n0(b)) / ln 2:
// 4e-12 (n0(a) + n0(b)) in all (gxd_fx_norm_err, which gxd_fx_coarse
// counts: pairs whose raw sum is under 3.2e-6 (n0(a) + n0(b)), near-duplicate
// rows, go to the exact merge).  FP64 plans keep gxd_g: their tolerance is
// 1e-12.
template <int M, typename T> __host__ __device__ constexpr bool gxd_fx_logs ()
{
    return M == GXD_JENSEN_SHANNON && sizeof (T) == sizeof (float) ;
}
template <int M, typename T> __host__ __device__ constexpr double gxd_fx_norm_err ()
{
    return gxd_fx_logs<M, T> () ? 4e-12 : 0 ;
}

// v ln v (0 for v = 0; JS values are >= 0): one expression for A's entries,
// B's and the integer table, so that a term with a zero on either side
// cancels to exactly 0 in fx_js_int
__device__ __forceinline__ double fx_xlogx (double v)
{
    return (v > 0) ? v * log (v) : 0 ;
}

// v ln v of every entry
template <typename T>
__global__ void k_fx_xlogx (const T *x, int64_t n, double *out)
{
    for (int64_t e = blockIdx.x * (int64_t) blockDim.x + threadIdx.x ; e < n ;
         e += (int64_t) gridDim.x * blockDim.x)
        out [e] = fx_xlogx ((double) x [e]) ;
}

// Jensen-Shannon on integers (counts, ratings: every value of row i and of
// B an integer in [0, 2^24]): s = x + y is an integer, and below
// GXD_FX_ITAB its s ln s comes from a table (k_fx_itab) instead of fx_ln's
// series (fx_js_int).  Each of the three parts is then within 2 ulp of
// itself (< 2^-48 s), far inside the error fx_ln's terms are allowed
// (gxd_fx_norm_err).
#define GXD_FX_ITAB 4096

__global__ void k_fx_itab (double *it)
{
    for (int i = threadIdx.x ; i < GXD_FX_ITAB ; i += blockDim.x)
        it [i] = fx_xlogx ((double) i) ;
}

// an integer in [0, 2^24] (exact in float)
template <typename T> __host__ __device__ __forceinline__ bool gxd_fx_small_int (T v)
{
    return v >= 0 && v <= 0x1p24 && v == (T) (int) v ;
}

// *bad made nonzero unless every value is such an integer
template <typename T>
__global__ void k_fx_ints (const T *x, int64_t n, uint32_t *bad)
{
    bool ok = true ;
    for (int64_t e = blockIdx.x * (int64_t) blockDim.x + threadIdx.x ; e < n ;
         e += (int64_t) gridDim.x * blockDim.x)
        ok = ok && gxd_fx_small_int (x [e]) ;
    if (!__all_sync (0xffffffffu, ok) && (threadIdx.x & 31) == 0) atomicOr (bad, 1u) ;
}

// ln s for a positive finite double s = 2^e m (1 <= m < 2), without the
// library's log: m lies within 2^-6 of c_i = 1 + (i + 1/2)/32 (i: the top 5
// bits of m), the table holds t_i = (1/c_i rounded, -ln of that), so ln s =
// e ln 2 - ln t_i.x + log1p (r) with r = m t_i.x - 1 (one rounding, |r| <
// 2^-6) and log1p by five terms of its series (remainder < r^6/6 < 2^-38.6).
// With the roundings (|ln s| < 2^7: 2^-47 each) it is off by less than
// 2^-38.5.  A small table because the look-ups are gathers: the L1/TEX unit
// was the bound with 256 entries (4 KB, 32 lines; MovieLens-like JS on
// real values 0.0178 ms per 10^6 pairs, 64 entries and four terms 0.0164,
// 32 and five 0.0163; scRNA-like 0.0805 -> 0.0655).  Measured:
// bench/gpu_measurements.md (variant 3)
#define GXD_FX_LTAB_BITS 5
#define GXD_FX_LTAB (1 << GXD_FX_LTAB_BITS)

__global__ void k_fx_ltab (double2 *lt)
{
    const int i = threadIdx.x ;
    const double inv = 1 / (1 + (i + 0.5) / GXD_FX_LTAB) ;
    lt [i] = make_double2 (inv, -log (inv)) ;
}

// JS, FP32: B's entries (the tiles' order) packed as (row and value, v ln v),
// so a product takes one 16-byte load instead of three (scRNA-like 0.107 ->
// 0.097 ms per 10^6 pairs, text-like -2 %, MovieLens-like the same)
template <typename T>
__global__ void k_fx_pack (const int32_t *rows, const T *x, int64_t n, double2 *out)
{
    for (int64_t e = blockIdx.x * (int64_t) blockDim.x + threadIdx.x ; e < n ;
         e += (int64_t) gridDim.x * blockDim.x)
    {
        const float v = (float) x [e] ;
        out [e] = make_double2 (__hiloint2double (__float_as_int (v), rows [e]),
            fx_xlogx ((double) v)) ;
    }
}

__device__ __forceinline__ double fx_ln (double s, const double2 *__restrict__ lt)
{
    const int hi = __double2hiint (s), lo = __double2loint (s) ;
    const double2 t = __ldg (lt + ((hi >> (20 - GXD_FX_LTAB_BITS)) & (GXD_FX_LTAB - 1))) ;
    const double m = __hiloint2double ((hi & 0x000fffff) | 0x3ff00000, lo) ;
    // the biased exponent b as 2^52 + b (exact), minus 2^52 + 1023
    const double e = __hiloint2double (0x43300000, hi >> 20) - 0x1.00000000003ffp52 ;
    const double r = fma (m, t.x, -1.0) ;
    double p = fma (r, 0.2, -0.25) ;
    p = fma (p, r, 1.0 / 3) ;
    p = fma (p, r, -0.5) ;
    return fma (e, 0.6931471805599453, t.y) + fma (p, r * r, r) ;
}

// no branch (measured 2 % faster on MovieLens-like, 7 % on fortunes): for
// s = 0 (explicit zeros) fx_ln (0) is finite (-709 and some), so the term is
// 0 + 0 - 0
__device__ __forceinline__ double fx_js_term (double x, double y, double xl,
    double yl, const double2 *__restrict__ lt)
{
    const double s = x + y ;
    return xl + yl - s * fx_ln (s, lt) ;
}

// the integer form: s ln s from the table where s < GXD_FX_ITAB (s's index:
// the low word of s + 2^52), else fx_ln as in fx_js_term
__device__ __forceinline__ double fx_js_int (double x, float y, double xl,
    double yl, const double2 *__restrict__ lt, const double *__restrict__ it)
{
    const double s = x + y ;
    double sl ;
    if (s < GXD_FX_ITAB) sl = __ldg (it + __double2loint (s + 0x1p52)) ;
    else sl = s * fx_ln (s, lt) ;
    return xl + yl - sl ;
}

// true when the quantum q = 2^-E_i is too coarse for pair (a, b) with sum
// a1 and distance d: its error, at most min(nnz a, nnz b) times half a
// quantum (one rounding per term of the pair) plus the terms' own errors,
// passes 1/8 of the output's tolerance (relative 1e-5 FP32, 1e-12 FP64) in
// the raw union sum (cosine and correlation: in d).  Counts are integers:
// exact while q <= 1.
template <int M, typename T>
__device__ __forceinline__ bool gxd_fx_coarse (const gxd_plan &P, double q,
    double a1, double d, const gxd_row &a, const gxd_row &b, int64_t k)
{
    const double nq = (double) ((a.nnz < b.nnz) ? a.nnz : b.nnz) ;
    const double err = (0.5 * q + gxd_fx_term_err<M, T> ()) * nq
        + gxd_fx_norm_err<M, T> () * (fabs (a.n0) + fabs (b.n0)) ;
    double eta = P.fp64 ? 1e-12 / 8 : 1e-5 / 8 ;
    // d = raw^(1/p) carries 1/p times the relative error of raw
    if (M == GXD_MINKOWSKI && P.p < 1) eta *= P.p ;
    if (gxd_metric_counts (M)) return q > 1 ;
    switch (M)
    {
        case GXD_COSINE: case GXD_CORRELATION:
            return err * a.inv * b.inv > eta * d ;
        default:
            return err > (eta - gxd_fx_term_rel<M, T> ())
                * fabs (gxd_raw ((gxd_metric_id) M, &P, a1, &a, &b, k)) ;
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

// Canberra in FP32 plans: the smallest and largest |B| (zeros included) as
// float bits (non-negative floats order like their bits, NaN above inf),
// for fx_canberra_q22's condition
template <typename T>
__global__ void k_fx_range (const T *Bx, int64_t nnz, uint32_t *mm)
{
    uint32_t lo = 0xffffffffu, hi = 0 ;
    for (int64_t e = blockIdx.x * (int64_t) blockDim.x + threadIdx.x ; e < nnz ;
         e += (int64_t) gridDim.x * blockDim.x)
    {
        const uint32_t u = __float_as_uint (fabsf ((float) Bx [e])) ;
        lo = min (lo, u) ; hi = max (hi, u) ;
    }
    lo = __reduce_min_sync (0xffffffffu, lo) ;
    hi = __reduce_max_sync (0xffffffffu, hi) ;
    if ((threadIdx.x & 31) == 0) { atomicMin (mm, lo) ; atomicMax (mm + 1, hi) ; }
}

// The accumulator's width per row of A.  64 bits (two 32-bit words, S_i *
// 2^E_i < 2^62) in general; 32 bits (S_i * 2^E_i < 2^30: one atomic per
// product instead of two plus a carry) in FP32 plans where that quantum is
// fine enough: counts (terms are integers, exact while q <= 1) and the
// metrics whose bound does not depend on the column maxima or only by its
// logarithm (Manhattan, Canberra, JS: beta is within a small factor of the
// actual sums) on rows of up to GXD_FX_NARROW_NNZ entries (longer rows that
// overlap much send many pairs to the exact merge: MovieLens-like Manhattan
// 0.0124 ms per 10^6 pairs with 128, 0.0156 with 1024; doing such rows
// again wide instead of merging measured no better; JS 0.0208 -> 0.0196
// narrow).  Where the bound holds the maxima (cosine, Euclidean, ...) a few
// heavy rows of B make it loose by orders of magnitude: 30 bits then sent
// most pairs to the exact merge (measured).  A wide row's E_i is stored plus
// GXD_FX_WIDE; in FP32 plans (counts apart) a row of fewer than 2^16 entries
// is "split" instead (plus 2 GXD_FX_WIDE, see fx_add_split).
#define GXD_FX_NARROW_NNZ 128
#define GXD_FX_WIDE 4096
// JS rows of small integers (fx_js_int): E_i stored plus this too
#define GXD_FX_INTS (4 * GXD_FX_WIDE)
// Rows whose terms are exact in the narrow quantum (gxd_fx_exact_ok): E_i
// stored plus this
#define GXD_FX_EXACT (8 * GXD_FX_WIDE)

template <int M> __host__ __device__ constexpr bool gxd_fx_count ()
{
    return gxd_metric_counts (M) ;
}
template <int M, typename T> __host__ __device__ constexpr bool gxd_fx_narrow_ok ()
{
    return sizeof (T) == sizeof (float) && (gxd_fx_count<M> ()
        || M == GXD_MANHATTAN || M == GXD_CANBERRA
        || M == GXD_JENSEN_SHANNON) ;
}
// The narrow form without rounding, in FP32 plans of the metrics whose
// term is a product (x y, -2 x y: exact in double): where every value of
// row i is a multiple of 2^-fa and every value of B of 2^-fb (dyadic data:
// counts, ratings by halves, binary), each term is a multiple of
// 2^-(fa+fb), so with E_i >= fa + fb (and S_i 2^E_i < 2^30) the 32-bit sum
// is the exact intersection sum: no quantum error, no pair for the exact
// merge on its account, one add per product instead of split's two words
// (which binary data such as the SEC-EDGAR-like shape would take).
template <int M, typename T> __host__ __device__ constexpr bool gxd_fx_exact_ok ()
{
    return sizeof (T) == sizeof (float) && (M == GXD_COSINE
        || M == GXD_CORRELATION || M == GXD_EUCLIDEAN || M == GXD_SQEUCLIDEAN) ;
}
// the forms compiled for (M, T): narrow, exact narrow
template <int M, typename T> __host__ __device__ constexpr bool gxd_fx_narrow_form ()
{
    return gxd_fx_narrow_ok<M, T> () || gxd_fx_exact_ok<M, T> () ;
}
// FP32 rows too long for the narrow form: split (fx_add_split; counts are
// always narrow).  Manhattan and Canberra took wide64 before: split measured
// 1-2 % faster on MovieLens-like and text-like, 5-9 % on scRNA-like
template <int M, typename T> __host__ __device__ constexpr bool gxd_fx_split_ok ()
{
    return sizeof (T) == sizeof (float) && !gxd_fx_count<M> () ;
}
// 32-bit words per output in shared memory
template <int M, typename T> __host__ __device__ constexpr int gxd_fx_words ()
{
    return (sizeof (T) == sizeof (float) && gxd_fx_count<M> ()) ? 1 : 2 ;
}

// the fraction bits of a finite float v: the least f >= 0 with v 2^f an
// integer (0 for v = 0)
__device__ __forceinline__ int fx_frac_bits (float v)
{
    const uint32_t u = __float_as_uint (fabsf (v)) ;
    const int ex = (int) (u >> 23) ;
    const uint32_t mant = (u & 0x7fffffu) | (ex ? 0x800000u : 0) ;
    if (mant == 0) return 0 ;
    // v = mant 2^(max (ex, 1) - 150)
    return max (0, 150 - max (ex, 1) - (__ffs (mant) - 1)) ;
}

// the exact form: the largest fraction bits of B's values (finite ones;
// the others make S_i infinite anyway)
template <typename T>
__global__ void k_fx_frac (const T *Bx, int64_t nnz, uint32_t *fb)
{
    uint32_t f = 0 ;
    for (int64_t e = blockIdx.x * (int64_t) blockDim.x + threadIdx.x ; e < nnz ;
         e += (int64_t) gridDim.x * blockDim.x)
    {
        if (isfinite ((float) Bx [e])) f = max (f, (uint32_t) fx_frac_bits ((float) Bx [e])) ;
    }
    f = __reduce_max_sync (0xffffffffu, f) ;
    if ((threadIdx.x & 31) == 0) atomicMax (fb, f) ;
}

// one warp per row: S_i by a fixed shuffle tree (the same bits every run),
// then E_i for the row's width
template <int M, typename T>
__global__ void k_fx_exp (gxd_plan P, const int64_t *Ap, const int32_t *Aj,
    const T *Ax, int64_t m, const double *cm, const uint32_t *brange,
    const uint32_t *bint, const uint32_t *bfrac, int32_t *E)
{
    const int lane = threadIdx.x & 31 ;
    const int64_t i = (blockIdx.x * (int64_t) blockDim.x + threadIdx.x) / 32 ;
    if (i >= m) return ;
    double s = 0 ;
    bool in_range = true ;      // Canberra: every |a| in [2^-125, 2^124]
    bool ints = true ;          // JS: every a a small integer (fx_js_int)
    uint32_t fa = 0 ;           // the exact form: the row's fraction bits
    for (int64_t p = Ap [i] + lane ; p < Ap [i+1] ; p += 32)
    {
        s += gxd_fx_bound<M> (P, fabs ((double) Ax [p]), cm [Aj [p]]) ;
        const uint32_t u = __float_as_uint (fabsf ((float) Ax [p])) ;
        in_range = in_range && u >= GXD_FX_CANB_MIN && u <= GXD_FX_CANB_MAX ;
        ints = ints && gxd_fx_small_int (Ax [p]) ;
        if constexpr (gxd_fx_exact_ok<M, T> ())
            fa = max (fa, (uint32_t) fx_frac_bits ((float) Ax [p])) ;
    }
    for (int off = 16 ; off > 0 ; off >>= 1) s += __shfl_xor_sync (0xffffffffu, s, off) ;
    fa = __reduce_max_sync (0xffffffffu, fa) ;
    in_range = __all_sync (0xffffffffu, in_range) ;
    ints = __all_sync (0xffffffffu, ints) && gxd_fx_logs<M, T> () && bint != NULL
        && *bint == 0 ;
    if (lane != 0) return ;
    int e = 0 ;
    // margin: the rounding of the bound's own sum is < 2^-40 of it
    if (s > 0) frexp (s * (1 + 0x1p-30), &e) ;     // s < 2^e
    // narrow Canberra rows take 2^22 whatever S_i (fx_canberra_q22): terms in
    // [-2^23, -2^22], so fewer than 256 of them fit the signed word; and
    // their values and B's must be in its range
    const int64_t nmax = (gxd_fx_xf<M, T> () && GXD_FX_NARROW_NNZ > 255) ? 255
        : GXD_FX_NARROW_NNZ ;
    const bool fits = !gxd_fx_xf<M, T> () || (in_range && brange != NULL
        && brange [0] >= GXD_FX_CANB_MIN && brange [1] <= GXD_FX_CANB_MAX) ;
    const bool narrow = gxd_fx_narrow_ok<M, T> () && fits
        && (gxd_fx_count<M> () || Ap [i+1] - Ap [i] <= nmax) ;
    const bool split = gxd_fx_split_ok<M, T> () && !narrow
        && Ap [i+1] - Ap [i] < 65536 ;
    int ex = max (-1000, min (1000, (narrow ? 30 : split ? 40 : 62) - e)) ;
    if (narrow && gxd_fx_xf<M, T> ()) ex = 22 ;
    if (gxd_fx_exact_ok<M, T> () && isfinite (s) && bfrac != NULL
        && (int) (fa + *bfrac) <= min (1000, 30 - e))
    {
        E [i] = min (1000, 30 - e) + GXD_FX_EXACT ;
        return ;
    }
    E [i] = !isfinite (s) ? GXD_FX_BAD
        : (narrow ? ex : split ? ex + 2 * GXD_FX_WIDE : ex + GXD_FX_WIDE)
          + ((ints && (narrow || split)) ? GXD_FX_INTS : 0) ;
}

//------------------------------------------------------------------------------
// the kernel
//------------------------------------------------------------------------------

// FP64 plans: add round(v) to the 64-bit two's complement accumulator
// (hi, lo) of slot s: the low word's add returns the old value, so its carry
// is known exactly; the sum mod 2^64 is the same whatever order the adds take
__device__ __forceinline__ void fx_add64 (uint32_t *lo, uint32_t *hi, int s,
    double v)
{
    const unsigned long long u = (unsigned long long) __double2ll_rn (v) ;
    const uint32_t l = (uint32_t) u ;
    uint32_t h = (uint32_t) (u >> 32) ;
    const uint32_t old = atomicAdd (lo + s, l) ;
    h += (uint32_t) (old + l < old) ;
    if (h != 0) atomicAdd (hi + s, h) ;
}

// FP32 plans: add round(g * up) to the 32-bit accumulator of slot s.  With
// |g * up| < 2^31 the low word of fma (g, up, 1.5 * 2^52) is that integer mod
// 2^32 (the FMA rounds to an integer ulp, to nearest); partial sums may wrap,
// the final sum (< 2^30 + nnz/2) does not.  No return value: a reduction.
__device__ __forceinline__ void fx_add32 (uint32_t *acc, int s, double g,
    double up)
{
    atomicAdd (acc + s, (uint32_t) __double2loint (fma (g, up, 0x1.8p52))) ;
}

// FP32 plans, wide rows of fewer than 2^16 entries: S_i 2^E_i < 2^40 (a
// quantum the FP32 tolerance leaves ample room; the a-posteriori test still
// checks every pair) and each term t = round(g * up), |t| < 2^40, is split
// as t = h 2^16 + l, 0 <= l < 2^16: the l's go to one word (fewer than 2^16
// terms per output: no overflow), the h's (|h| < 2^24) to the other (its
// sum fits once complete; partial sums may wrap).  Two adds without a
// return value or a carry, unlike fx_add64.  The low word of fma (g, up,
// 1.5 2^52) is t mod 2^32, its high word minus 0x43380000 is t >> 32.
__device__ __forceinline__ void fx_add_split (uint32_t *lo, uint32_t *hi, int s,
    double g, double up)
{
    const double d = fma (g, up, 0x1.8p52) ;
    const uint32_t tl = (uint32_t) __double2loint (d) ;
    const uint32_t th = (uint32_t) (__double2hiint (d) - 0x43380000) ;
    atomicAdd (lo + s, tl & 0xffffu) ;
    atomicAdd (hi + s, (th << 16) | (tl >> 16)) ;
}

// row modes: the accumulator's form (fx_add32, fx_add64, fx_add_split)
enum { GXD_FX_NARROW = 0, GXD_FX_WIDE64 = 1, GXD_FX_SPLIT = 2 } ;

// the intersection sum of slot s, times the quantum q (only the two forms
// a metric and type can take are compiled)
template <int M, typename T>
__device__ __forceinline__ double fx_sum (const uint32_t *lo, const uint32_t *hi,
    int s, double q, int mode)
{
    constexpr bool nar = gxd_fx_narrow_form<M, T> () ;
    constexpr bool spl = gxd_fx_split_ok<M, T> () ;
    if (nar && mode == GXD_FX_NARROW) return (double) (int32_t) lo [s] * q ;
    if (spl && mode == GXD_FX_SPLIT)
        return (double) ((long long) (int32_t) hi [s] * 65536 + (long long) lo [s]) * q ;
    return (double) (long long) (((unsigned long long) hi [s] << 32) | lo [s]) * q ;
}

// the products of one staged chunk of row i's columns (s_off: exclusive
// prefix sums of their lengths in this tile, s_lo: first entry, s_x: a_c;
// al: v ln v of the chunk's entries of A, bl: the tile's packed entries of
// B, k_fx_pack; JS only)
// in column order, an equal run of whole steps per warp, GXD_FX_UNROLL
// products per lane per step so their loads are in flight together; spare:
// a slot no output reads (the last of GXD_SW_LEN)
#define GXD_FX_UNROLL 4

template <int M, typename T, int MODE, bool INT>
__device__ __forceinline__ void fx_products (const gxd_plan &P,
    const int32_t *s_off, const int32_t *s_lo,
    const typename gxd_fx_xs<M, T>::type *s_x, int cmax,
    const int32_t *__restrict__ rows, const T *__restrict__ vals,
    const double *al, const double2 *__restrict__ bl, const double2 *lt,
    const double *it, uint32_t *flo, uint32_t *fhi, int spare, double up)
{
    const int lane = threadIdx.x & 31, warp = threadIdx.x / 32, nw = blockDim.x / 32 ;
    const int total = s_off [cmax] ;
    // JS in FP32, whose term takes more registers: three (1.5 % faster than
    // four on MovieLens-like and text-like; two were 2-3 % slower)
    constexpr int U = gxd_fx_logs<M, T> () ? 3 : GXD_FX_UNROLL ;
    const int per = ((total + nw - 1) / nw + 32 * U - 1) / (32 * U) * (32 * U) ;
    const int e0 = warp * per, e1 = min (total, e0 + per) ;
    gxd_flat_cursor cur (s_off, s_lo, cmax, e0 + lane) ;
    // the same step count for every lane of the warp
    for (int eb = e0 ; eb < e1 ; eb += 32 * U)
    {
        int c [U], p [U] ;
        bool has [U] ;
        #pragma unroll
        for (int u = 0 ; u < U ; u++)
        {
            const int e = eb + lane + 32 * u ;
            has [u] = e < e1 ;
            p [u] = has [u] ? cur.entry (s_off, s_lo, e) : 0 ;
            c [u] = cur.col ;
        }
        int32_t j [U] ;
        T y [U] ;
        double yl [U] ;
        #pragma unroll
        for (int u = 0 ; u < U ; u++)
        {
            if constexpr (gxd_fx_logs<M, T> ())
            {
                const double2 q = __ldg (bl + p [u]) ;
                j [u] = __double2loint (q.x) ;
                y [u] = __int_as_float (__double2hiint (q.x)) ;
                yl [u] = q.y ;
            }
            else
            {
                j [u] = __ldg (rows + p [u]) ;
                y [u] = __ldg (vals + p [u]) ;
            }
        }
        #pragma unroll
        for (int u = 0 ; u < U ; u++)
        {
            if constexpr (MODE == GXD_FX_NARROW && gxd_fx_xf<M, T> ())
            {
                atomicAdd (flo + (has [u] ? GXD_SW (j [u]) : spare),
                    has [u] ? fx_canberra_q22 (s_x [c [u]], y [u]) : 0u) ;
                continue ;
            }
            double g ;
            if constexpr (gxd_fx_logs<M, T> () && INT)
                g = fx_js_int (s_x [c [u]], y [u], al [c [u]], yl [u], lt, it) ;
            else if constexpr (gxd_fx_logs<M, T> ())
                g = fx_js_term (s_x [c [u]], y [u], al [c [u]], yl [u], lt) ;
            else
                g = gxd_fx_term<M, T> (P, s_x [c [u]], y [u]) ;
            // a lane past the end adds 0 to the spare slot: no branch
            // around the adds, so the compiler keeps the loads ahead of them
            const int slot = has [u] ? GXD_SW (j [u]) : spare ;
            if constexpr (MODE == GXD_FX_WIDE64) fx_add64 (flo, fhi, slot, has [u] ? g * up : 0) ;
            else if constexpr (MODE == GXD_FX_SPLIT) fx_add_split (flo, fhi, slot, has [u] ? g : 0, up) ;
            else fx_add32 (flo, slot, has [u] ? g : 0, up) ;
        }
    }
}

// one staged chunk's products in accumulator form MODE: JS rows of small
// integers take fx_js_int
template <int M, typename T, int MODE>
__device__ __forceinline__ void fx_chunk (const gxd_plan &P, bool ints,
    const int32_t *s_off, const int32_t *s_lo,
    const typename gxd_fx_xs<M, T>::type *s_x, int cmax,
    const int32_t *rows, const T *vals, const double *al, const double2 *bl,
    const double2 *lt, const double *it, uint32_t *flo, uint32_t *fhi,
    int spare, double up)
{
    if constexpr (gxd_fx_logs<M, T> ())
        if (ints)
        {
            fx_products<M, T, MODE, true> (P, s_off, s_lo, s_x, cmax, rows, vals,
                al, bl, lt, it, flo, fhi, spare, up) ;
            return ;
        }
    fx_products<M, T, MODE, false> (P, s_off, s_lo, s_x, cmax, rows, vals,
        al, bl, lt, it, flo, fhi, spare, up) ;
}

// the distance from the sum a1 (gxd_finalize), except the square root of
// JS and Hellinger in FP32 plans: float's, correctly rounded (fewer
// instructions than double's, Euclidean measured 3 % slower with it so it
// keeps double's).  Not the hardware's approximate one: that is not
// monotone, and the walk of untouched rows (gxd_walk_metric, JS) needs F
// to grow with the key.  Values float cannot hold well take double's
template <int M, typename T>
__device__ __forceinline__ double fx_finalize (const gxd_plan &P, double a1,
    const gxd_row &ra, const gxd_row &rb, int64_t k)
{
    const gxd_metric_id m = (gxd_metric_id) M ;
    if constexpr (sizeof (T) == sizeof (float)
        && (M == GXD_JENSEN_SHANNON || M == GXD_HELLINGER))
    {
        const double v = 0.5 * gxd_clamp0 (gxd_raw (m, &P, a1, &ra, &rb, k)) ;
        if (v == 0 || (v > 0x1p-100 && v < 0x1p100))
        {
            return __fsqrt_rn ((float) v) ;
        }
    }
    return gxd_finalize (m, &P, a1, 0, &ra, &rb, k) ;
}

// pair (i, j) from its sum a1: its distance *d, and whether the rewrite or
// the quantum may be off by more than the tolerance (then: the exact merge).
// q: the quantum each term was rounded to (0: the sum is exact)
template <int M, typename T>
__device__ __forceinline__ bool fx_pair (const gxd_plan &P, double a1, double q,
    bool bad, const gxd_row &ra, const gxd_row &rb, int64_t k, double *d)
{
    const gxd_metric_id m = (gxd_metric_id) M ;
    *d = fx_finalize<M, T> (P, a1, ra, rb, k) ;
    return bad || gxd_fx_coarse<M, T> (P, q, a1, *d, ra, rb, k)
        || gxd_needs_exact (m, &P, a1, 0, &ra, &rb, k, *d) ;
}


//------------------------------------------------------------------------------
// selection inside the kernel (gxd_fx_sel, GXD_gpu_knn's fused path)
//------------------------------------------------------------------------------

// slot sw holds a sum of 0: no term of the pair, or terms that cancelled to
// 0 exactly, which the rewrite finalizes the same way
__device__ __forceinline__ bool fx_untouched (const uint32_t *flo,
    const uint32_t *fhi, int sw, bool wide)
{
    return flo [sw] == 0 && (!wide || fhi [sw] == 0) ;
}

// warp 0: the tile's untouched rows by increasing walk key (gxd_fx_sel),
// into the sorted list wd/wj (at most S.k); false when the walk had to end.
// With tv, (td, tj) is the row's k-th best from earlier tiles: a row at or
// past it ends the walk (this tile's columns are all larger than tj)
template <int M, typename T>
__device__ bool fx_walk (const gxd_plan &P, const gxd_fx_sel &S, int64_t i,
    const uint32_t *flo, const uint32_t *fhi, bool wide, double qe,
    const gxd_row &ra, const gxd_drows &RB, int64_t j0, int w, int64_t k,
    const uint32_t *xb, bool tv, double td, int32_t tj, double *wd,
    int32_t *wj, int *nw_out)
{
    const unsigned full = 0xffffffffu ;
    const int lane = threadIdx.x & 31, K = S.k ;
    const int32_t *ord = S.ord + j0 ;
    const double *okey = S.okey + j0 ;
    int nw = 0, pos = 0 ;
    while (pos < w)
    {
        const int idx = pos + lane ;
        bool cand = false, stop_walk = false ;
        double dT = 0, key = 0 ;
        int32_t j = 0 ;
        if (idx < w)
        {
            const int32_t jj = ord [idx] ;
            key = okey [idx] ;
            j = (int32_t) (j0 + jj) ;
            cand = fx_untouched (flo, fhi, GXD_SW (jj), wide)
                && !(S.exclude_self && j == i) && !gxd_sel_excluded (xb, jj) ;
            if (cand)
            {
                double d ;
                const gxd_row rb = gxd_load_row (RB, j) ;
                stop_walk = !isfinite (key)
                    || fx_pair<M, T> (P, 0.0, qe, false, ra, rb, k, &d) || d != d ;
                dT = (double) (T) gxd_sanitize<M> (d) ;
            }
        }
        if (__any_sync (full, stop_walk)) return false ;
        // lane 0 takes the candidates in walk order: 0 go on, 1 done, 2 skip
        // the rest of a key's rows (equal distances, larger columns)
        int act = 0 ;
        double skip = 0 ;
        for (int l = 0 ; l < 32 ; l++)
        {
            const bool c = __shfl_sync (full, cand, l) ;
            const double dl = __shfl_sync (full, dT, l) ;
            const int32_t jl = __shfl_sync (full, j, l) ;
            const double kl = __shfl_sync (full, key, l) ;
            if (lane != 0 || act != 0 || !c) continue ;
            if (tv && !sel_before (dl, jl, td, tj)) { act = 1 ; continue ; }
            if (nw == K)
            {
                if (dl > wd [K-1]) { act = 1 ; continue ; }
                if (dl == wd [K-1] && jl > wj [K-1]) { act = 2 ; skip = kl ; continue ; }
            }
            int p = (nw < K) ? nw++ : K - 1 ;
            while (p > 0 && sel_before (dl, jl, wd [p-1], wj [p-1]))
            {
                wd [p] = wd [p-1] ; wj [p] = wj [p-1] ; p-- ;
            }
            wd [p] = dl ; wj [p] = jl ;
        }
        act = __shfl_sync (full, act, 0) ;
        if (act == 1) break ;
        if (act == 2)
        {
            // the first row past the key's rows
            skip = __shfl_sync (full, skip, 0) ;
            int lo = pos, hi = w ;
            while (lo < hi)
            {
                const int mid = (lo + hi) / 2 ;
                if (okey [mid] > skip) hi = mid ; else lo = mid + 1 ;
            }
            pos = lo ;
        }
        else pos += 32 ;
    }
    *nw_out = nw ;
    return true ;
}

// the block's epilogue in the fused path: row i's best of this tile merged
// into its k best so far (row r of S's lists).  E: GXD_FX_SEL_LEN entries
// of shared memory.
template <int M, typename T>
__device__ void fx_select (const gxd_plan &P, const gxd_fx_sel &S, int64_t r,
    int64_t i, const uint32_t *flo, const uint32_t *fhi, int mode, double q,
    double qe, bool bad, const gxd_row &ra, const gxd_drows &RB, int64_t j0, int w,
    int64_t k, const int32_t *aj, const T *ax, int64_t na, const int64_t *Bp,
    const int32_t *Bj, const T *Bx, const uint32_t *xb, double *Ed, int32_t *Ej)
{
    __shared__ gxd_sel_state st ;
    __shared__ int s_walk, s_skip ;
    const int tid = threadIdx.x, K = S.k ;
    const bool wide = (mode != GXD_FX_NARROW) ;
    if (tid == 0)
    {
        gxd_sel_begin (st, S, r) ;
        s_walk = (gxd_walk_metric (M) && S.okey != NULL && !bad) ;
        // no walk when the tile's first row by key, touched or not, would
        // not come before the bound: no untouched row can (F grows with the
        // key; the bound's column is in an earlier tile)
        s_skip = 0 ;
        if (s_walk && st.tv)
        {
            const int64_t j = j0 + S.ord [j0] ;
            const gxd_row rb = gxd_load_row (RB, j) ;
            double d ;
            if (isfinite (S.okey [j0]) && !fx_pair<M, T> (P, 0.0, qe, false, ra, rb, k, &d)
                && d == d)
            {
                s_skip = !sel_before ((double) (T) gxd_sanitize<M> (d), (int32_t) j,
                    st.td, st.tj) ;
            }
        }
    }
    __syncthreads () ;
    if (s_walk && !s_skip && tid < 32)
    {
        int nw = 0 ;
        const bool ok = fx_walk<M, T> (P, S, i, flo, fhi, wide, qe, ra, RB, j0, w,
            k, xb, st.tv, st.td, st.tj, st.wd, st.wj, &nw) ;
        if (tid == 0)
        {
            s_walk = ok ;
            st.nw = ok ? nw : 0 ;
            if (ok) gxd_sel_walked (st, K) ;
        }
    }
    __syncthreads () ;
    // the pairs not walked, against the bound
    const bool walked = s_walk ;
    const int64_t self64 = S.exclude_self ? i - j0 : -1 ;
    const int self = (self64 >= 0 && self64 < w) ? (int) self64 : -1 ;
    // each lane takes 4 slots in a row (one group of 16 in GXD_SW: 4 words
    // in a row)
    auto take4 = [&] (int j4) -> unsigned
    {
        if (!walked) return 0xFu ;
        const int sw = GXD_SW (j4) ;
        uint32_t v0 = flo [sw], v1 = flo [sw+1], v2 = flo [sw+2], v3 = flo [sw+3] ;
        if (wide)
        {
            v0 |= fhi [sw] ; v1 |= fhi [sw+1] ; v2 |= fhi [sw+2] ; v3 |= fhi [sw+3] ;
        }
        return (v0 != 0) | (v1 != 0) << 1 | (v2 != 0) << 2 | (v3 != 0) << 3 ;
    } ;
    auto consider = [&] (int jj, int32_t j, bool tv, double td, int32_t tj,
        double *dT) -> bool
    {
        const gxd_row rb = gxd_load_row (RB, j) ;
        double d ;
        if (fx_pair<M, T> (P, fx_sum<M, T> (flo, fhi, GXD_SW (jj), q, mode), qe,
            bad, ra, rb, k, &d))
        {
            d = gxd_union_merge<M, T> (P, aj, ax, na, Bj + Bp [j], Bx + Bp [j],
                Bp [j+1] - Bp [j], ra, rb, k) ;
        }
        *dT = (double) (T) gxd_sanitize<M> (d) ;
        return !(tv && sel_before (td, tj, *dT, j)) ;
    } ;
    gxd_sel_scan (st, K, j0, w, self, xb, Ed, Ej, take4, consider) ;
    gxd_sel_merge (st, S, r, Ed, Ej) ;
}

// pairs sent to the exact merge, listed per block; past this many the block
// rechecks every output
#define GXD_FX_REDO 256

// columns of row i staged per chunk: JS in FP32 stages v ln v of A too (a
// shared load per product instead of a global one), and takes half as many
// so that its block keeps to 1/6 of the SM's shared memory (6 blocks per
// SM): 1-3 % faster on four sets; all 256 with 5 blocks per SM was 3 %
// faster on text-like but 4 % slower on fortunes
#define GXD_FX_JSICH 128
template <int M, typename T> __host__ __device__ constexpr int gxd_fx_ich ()
{
    return gxd_fx_logs<M, T> () ? GXD_FX_JSICH : GXD_ICH ;
}
template <int M, typename T> __host__ __device__ constexpr int gxd_fx_redo ()
{
    return (gxd_fx_logs<M, T> () && GXD_FX_JSICH == GXD_ICH) ? GXD_FX_REDO / 2 : GXD_FX_REDO ;
}

#define GXD_FX_MINB 6

// the fused selection's shared memory (two words a slot and its list) fits
// 5 blocks per SM: registers capped for 6 would only spill
template <int M, typename T, bool SEL, bool ONE> __host__ __device__ constexpr int gxd_fx_minb ()
{
    return (SEL && !ONE && gxd_fx_words<M, T> () == 2) ? 5 : GXD_FX_MINB ;
}

// a row's accumulator as its stored E_i (fxE) says: the exact and integer
// marks taken off, the form, and E for that form
struct gxd_fx_row
{
    bool exact, ints, bad ;
    int mode ;
    int32_t E ;
} ;

__host__ __device__ __forceinline__ gxd_fx_row fx_row_of (int32_t stored)
{
    gxd_fx_row r ;
    r.exact = stored != GXD_FX_BAD && stored >= GXD_FX_EXACT - GXD_FX_WIDE / 2 ;
    const int32_t Ex = stored - (r.exact ? GXD_FX_EXACT : 0) ;
    r.ints = Ex != GXD_FX_BAD && Ex >= GXD_FX_INTS - GXD_FX_WIDE / 2 ;
    const int32_t E0 = Ex - (r.ints ? GXD_FX_INTS : 0) ;
    r.bad = (E0 == GXD_FX_BAD) ;
    r.mode = r.bad ? GXD_FX_NARROW : (E0 >= 3 * GXD_FX_WIDE / 2) ? GXD_FX_SPLIT
        : (E0 >= GXD_FX_WIDE / 2) ? GXD_FX_WIDE64 : GXD_FX_NARROW ;
    r.E = E0 - r.mode * GXD_FX_WIDE ;
    return r ;
}

// *wide nonzero if a row of A takes another form than the narrow one
__global__ void k_fx_any_wide (const int32_t *fxE, int64_t m, int *wide)
{
    for (int64_t i = blockIdx.x * (int64_t) blockDim.x + threadIdx.x ; i < m ;
         i += (int64_t) gridDim.x * blockDim.x)
    {
        if (fx_row_of (fxE [i]).mode != GXD_FX_NARROW) *wide = 1 ;
    }
}

// the selection's kernel where every row is narrow (gxd_fx_ctx.narrow):
// one word a slot halves its shared memory, which holds 6 blocks a SM
// instead of 5
template <int M, typename T> __host__ __device__ constexpr bool gxd_fx_one_ok ()
{
    return gxd_fx_words<M, T> () == 2 && gxd_fx_narrow_form<M, T> () ;
}

// SEL: select into S (fx_select) instead of writing Ct; ONE: every row
// narrow, one word a slot (SEL only)
template <int M, typename T, bool SEL, bool ONE = false>
// 6 blocks per SM (40 registers; some metrics spill up to ~70 bytes):
// measured faster than uncapped on all seven metrics of gpu_bench variants
// (bench/gpu_measurements.md)
__global__ void __launch_bounds__ (256, (gxd_fx_minb<M, T, SEL, ONE> ()))
k_intersect_fx (gxd_plan P,
    const int64_t *Ap, const int32_t *Aj, const T *Ax, gxd_drows RA,
    const int64_t *Bp, const int32_t *Bj, const T *Bx, gxd_drows RB,
    gxd_dcsc S, const int32_t *fxE, const double *Al, const double2 *Bl,
    const double2 *Lt, const double *It, int64_t i0, int64_t j0, int64_t w64,
    int64_t n, int64_t k, T *Ct, gxd_fx_sel Sel)
{
    // one or two 32-bit words per output (gxd_fx_words): 64-bit shared
    // atomics are a compare-and-swap loop on sm_90, 32-bit adds are native
    extern __shared__ uint32_t flo [] ;
    const int w = (int) w64 ;                   // <= tn
    constexpr int WORDS = ONE ? 1 : gxd_fx_words<M, T> () ;
    uint32_t *fhi = flo + (WORDS - 1) * GXD_FX_LO_LEN (w) ;     // (unused if ONE)
    constexpr int ICH = gxd_fx_ich<M, T> () ;
    __shared__ int32_t s_lo [ICH] ;
    typedef typename gxd_fx_xs<M, T>::type XS ;
    __shared__ XS s_x [ICH] ;
    __shared__ int32_t s_off [ICH + 1] ;
    __shared__ int32_t s_cnt, s_nredo ;
    constexpr int REDO = gxd_fx_redo<M, T> () ;
    __shared__ int32_t s_redo [SEL ? 1 : REDO] ;     // (not used by SEL)
    // JS in FP32: v ln v of the staged columns of A
    __shared__ double s_xl [gxd_fx_logs<M, T> () ? ICH : 1] ;
    const int64_t i = i0 + blockIdx.x ;
    const int tid = threadIdx.x, nt = blockDim.x ;
    const gxd_fx_row fr = fx_row_of (fxE [i]) ;
    const bool exact = fr.exact, ints = fr.ints, bad = fr.bad ;
    const int mode = ONE ? GXD_FX_NARROW : fr.mode ;
    const bool wide = (mode != GXD_FX_NARROW) ;
    const int32_t E = fr.E ;
    for (int jj = 4 * tid ; jj < GXD_FX_LO_LEN (w) ; jj += 4 * nt)
    {
        *(uint4 *) (flo + jj) = make_uint4 (0, 0, 0, 0) ;
        if (wide) *(uint4 *) (fhi + jj) = make_uint4 (0, 0, 0, 0) ;
    }
    if (tid == 0) s_nredo = 0 ;

    const double up = bad ? 1 : ldexp (1.0, E) ;
    const int64_t alo = Ap [i], ahi = Ap [i+1] ;
    for (int64_t base = alo ; !bad && base < ahi ; )
    {
        const int cmax = (int) ((ahi - base < ICH) ? ahi - base : ICH) ;
        __syncthreads () ;          // zeroing / the last chunk's readers done
        for (int t = tid ; t < cmax ; t += nt)
        {
            const int32_t c = Aj [base + t] ;
            const int64_t lo = S.colptr [c], hi = S.colptr [c+1] ;
            s_lo [t] = (int32_t) lo ;
            s_x [t] = (XS) Ax [base + t] ;
            if constexpr (gxd_fx_logs<M, T> ()) s_xl [t] = Al [base + t] ;
            s_off [t+1] = (int32_t) (hi - lo) ;     // <= tn per tile
        }
        __syncthreads () ;
        if (tid < 32) gxd_stage_scan (s_off, cmax, &s_cnt, INT32_MAX) ;
        __syncthreads () ;
        const int32_t *rows = S.rows ;
        const T *vals = (const T *) S.vals ;
        const double *al = s_xl ;
        const int spare = GXD_SW_LEN (w) - 1 ;
        // the forms per metric and type: FP32 counts: narrow; other FP32
        // metrics: narrow (Manhattan, Canberra, JS), split, or wide64 for
        // rows of 2^16 entries or more; FP64: wide64
        constexpr bool nar = gxd_fx_narrow_form<M, T> () ;
        constexpr bool spl = gxd_fx_split_ok<M, T> () ;
        if (!ONE && mode == GXD_FX_WIDE64 && gxd_fx_words<M, T> () == 2)
        {
            if constexpr (!ONE)
                fx_products<M, T, GXD_FX_WIDE64, false> (P, s_off, s_lo, s_x, cmax, rows,
                    vals, al, Bl, Lt, It, flo, fhi, spare, up) ;
        }
        else if (!ONE && mode == GXD_FX_SPLIT)
        {
            if constexpr (spl && !ONE)
                fx_chunk<M, T, GXD_FX_SPLIT> (P, ints, s_off, s_lo, s_x, cmax, rows,
                    vals, al, Bl, Lt, It, flo, fhi, spare, up) ;
        }
        else if constexpr (nar)
            fx_chunk<M, T, GXD_FX_NARROW> (P, ints, s_off, s_lo, s_x, cmax, rows,
                vals, al, Bl, Lt, It, flo, fhi, spare, up) ;
        base += cmax ;
    }
    __syncthreads () ;

    // finalize; pairs for the exact merge are listed, not merged here, so
    // this loop stays short (the merge's registers and branches apart)
    const double q = bad ? 0 : ldexp (1.0, -E) ;
    // the quantum's error per term: none in the exact form
    const double qe = exact ? 0 : q ;
    const gxd_row ra = gxd_load_row (RA, i) ;
    if constexpr (SEL)
    {
        // the list after the accumulator's words, 8-byte aligned, then
        // the tile's pairs that are not candidates
        const int words = GXD_FX_LO_LEN (w) * WORDS ;
        double *Ed = (double *) (flo + words) ;
        int32_t *Ej = (int32_t *) (Ed + GXD_FX_SEL_LEN) ;
        uint32_t *xb = (uint32_t *) (Ej + GXD_FX_SEL_LEN) ;
        gxd_sel_exclusions (Sel, i, j0, w, xb) ;
        fx_select<M, T> (P, Sel, blockIdx.x, i, flo, fhi, mode, q, qe, bad, ra, RB, j0,
            w, k, Aj + alo, Ax + alo, ahi - alo, Bp, Bj, Bx, xb, Ed, Ej) ;
        return ;
    }
    T *crow = Ct + (int64_t) blockIdx.x * n + j0 ;
    for (int jj = tid ; jj < w ; jj += nt)
    {
        const gxd_row rb = gxd_load_row (RB, j0 + jj) ;
        double d ;
        if (fx_pair<M, T> (P, fx_sum<M, T> (flo, fhi, GXD_SW (jj), q, mode), qe, bad,
            ra, rb, k, &d))
        {
            const int t = atomicAdd (&s_nredo, 1) ;
            if (t < REDO) s_redo [t] = jj ;
        }
        else crow [jj] = (T) gxd_sanitize<M> (d) ;
    }
    __syncthreads () ;

    // the listed pairs by the exact merge, one thread each (all outputs
    // rechecked when the list overflowed)
    const int nredo = s_nredo ;
    const bool all = nredo > REDO ;
    for (int t = tid ; t < (all ? w : nredo) ; t += nt)
    {
        const int jj = all ? t : s_redo [t] ;
        const int64_t j = j0 + jj ;
        const gxd_row rb = gxd_load_row (RB, j) ;
        double d ;
        if (all && !fx_pair<M, T> (P, fx_sum<M, T> (flo, fhi, GXD_SW (jj), q, mode), qe,
            bad, ra, rb, k, &d)) continue ;
        d = gxd_union_merge<M, T> (P, Aj + alo, Ax + alo, ahi - alo,
            Bj + Bp [j], Bx + Bp [j], Bp [j+1] - Bp [j], ra, rb, k) ;
        crow [jj] = (T) gxd_sanitize<M> (d) ;
    }
}

//------------------------------------------------------------------------------
// launch and prepare
//------------------------------------------------------------------------------

// tile t's packed entries of B (the tiles' entries are one array)
static const double2 *fx_tile_pack (const gxd_gpu_ctx *G, int64_t t)
{
    if (G->fx.bpack == NULL) return NULL ;
    return G->fx.bpack + (G->csc [t].rows - G->csc [0].rows) ;
}

// G->fx.narrow: whether every row of A takes the narrow form (one flag back)
static GrB_Info fx_find_narrow (gxd_gpu_ctx *G, cudaStream_t s, char *msg)
{
    GrB_Info info = GrB_SUCCESS ;
    const int64_t m = G->A.nrows ;
    int *dwide = NULL, wide = 1 ;
    GXD_CUDA_TRY (cudaMalloc (&dwide, sizeof (int))) ;
    GXD_CUDA_TRY (cudaMemsetAsync (dwide, 0, sizeof (int), s)) ;
    if (m > 0)
    {
        k_fx_any_wide <<<(unsigned) std::min<int64_t> ((m + 255) / 256, 1024), 256, 0, s>>> (
            G->fx.exp, m, dwide) ;
        GXD_LAUNCH_CHECK () ;
    }
    GXD_CUDA_TRY (cudaMemcpyAsync (&wide, dwide, sizeof (int), cudaMemcpyDeviceToHost, s)) ;
    GXD_CUDA_TRY (cudaStreamSynchronize (s)) ;
    G->fx.narrow = (wide == 0) ;
    G->fx.narrow_known = true ;
cleanup:
    cudaFree (dwide) ;
    return info ;
}

// Ct: the tile of distances; or S: select into its lists (Ct unused)
template <int M, typename T>
static GrB_Info launch_fx_ok (gxd_gpu_ctx *G, int64_t i0, int64_t i1, void *Ct,
    const gxd_fx_sel *S, cudaStream_t s, char *msg)
{
    GrB_Info info = GrB_SUCCESS ;
    const int64_t n = G->B.nrows, rows = i1 - i0 ;
    if (S != NULL && gxd_fx_one_ok<M, T> () && !G->fx.narrow_known)
    {
        info = fx_find_narrow (G, s, msg) ;
        if (info != GrB_SUCCESS) return info ;
    }
    const bool one = (S != NULL && gxd_fx_one_ok<M, T> () && G->fx.narrow) ;
    const size_t words = (size_t) GXD_FX_LO_LEN (G->tn) * (one ? 1 : gxd_fx_words<M, T> ()) ;
    size_t shmem = words * sizeof (uint32_t) ;
    if (S != NULL)
    {
        shmem = words * sizeof (uint32_t)
            + GXD_FX_SEL_LEN * (sizeof (double) + sizeof (int32_t))
            + GXD_SEL_XWORDS (G->tn) * sizeof (uint32_t) ;
    }
    if (rows <= 0 || n <= 0) return GrB_SUCCESS ;
    if (one)
    {
        if constexpr (gxd_fx_one_ok<M, T> ())
            GXD_CUDA_TRY (cudaFuncSetAttribute (k_intersect_fx<M, T, true, true>,
                cudaFuncAttributeMaxDynamicSharedMemorySize, (int) shmem))
    }
    else if (S != NULL)
        GXD_CUDA_TRY (cudaFuncSetAttribute (k_intersect_fx<M, T, true>,
            cudaFuncAttributeMaxDynamicSharedMemorySize, (int) shmem))
    else
        GXD_CUDA_TRY (cudaFuncSetAttribute (k_intersect_fx<M, T, false>,
            cudaFuncAttributeMaxDynamicSharedMemorySize, (int) shmem))
    GXD_GPU_TRY (gxd_for_tiles (G, rows, msg, [&] (int64_t t, int64_t j0, int64_t w,
        int64_t r0, int64_t nr)
    {
        gxd_fx_sel Sr ;
        memset (&Sr, 0, sizeof (Sr)) ;
        if (S != NULL)
        {
            Sr = *S ;
            Sr.lj += r0 * S->k ; Sr.ld += r0 * S->k ; Sr.ln += r0 ;
            if constexpr (gxd_fx_one_ok<M, T> ())
            {
                if (one)
                {
                    k_intersect_fx<M, T, true, true> <<<(unsigned) nr, 32 * GXD_FX_SEL_WARPS, shmem, s>>> (G->P,
                        G->A.p, G->A.j, (const T *) G->A.x, G->RA,
                        G->B.p, G->B.j, (const T *) G->B.x, G->RB,
                        G->csc [t], G->fx.exp, G->fx.alog, fx_tile_pack (G, t), G->fx.ltab,
                        G->fx.itab, i0 + r0, j0, w, n, G->A.ncols, (T *) NULL, Sr) ;
                    return ;
                }
            }
            k_intersect_fx<M, T, true> <<<(unsigned) nr, 32 * GXD_FX_SEL_WARPS, shmem, s>>> (G->P,
                G->A.p, G->A.j, (const T *) G->A.x, G->RA,
                G->B.p, G->B.j, (const T *) G->B.x, G->RB,
                G->csc [t], G->fx.exp, G->fx.alog, fx_tile_pack (G, t), G->fx.ltab,
                G->fx.itab, i0 + r0, j0, w, n, G->A.ncols, (T *) NULL, Sr) ;
        }
        else
        {
            k_intersect_fx<M, T, false> <<<(unsigned) nr, 256, shmem, s>>> (G->P,
                G->A.p, G->A.j, (const T *) G->A.x, G->RA,
                G->B.p, G->B.j, (const T *) G->B.x, G->RB,
                G->csc [t], G->fx.exp, G->fx.alog, fx_tile_pack (G, t), G->fx.ltab,
                G->fx.itab, i0 + r0, j0, w, n, G->A.ncols, (T *) Ct + r0 * n, Sr) ;
        }
    })) ;
cleanup:
    return info ;
}

template <int M, typename T>
static GrB_Info prepare_fx_ok (gxd_gpu_ctx *G, cudaStream_t s, char *msg)
{
    GrB_Info info = GrB_SUCCESS ;
    const int64_t k = G->A.ncols, m = G->A.nrows, nnz = G->B.nnz ;
    GXD_CUDA_TRY (cudaMalloc (&G->fx.colmax, (size_t) (k > 0 ? k : 1) * sizeof (double))) ;
    GXD_CUDA_TRY (cudaMalloc (&G->fx.exp, (size_t) (m > 0 ? m : 1) * sizeof (int32_t))) ;
    GXD_CUDA_TRY (cudaMemsetAsync (G->fx.colmax, 0, (size_t) k * sizeof (double), s)) ;
    if (nnz > 0)
    {
        int blocks = (int) ((nnz + 255) / 256 < 4096 ? (nnz + 255) / 256 : 4096) ;
        k_fx_colmax<T> <<<blocks, 256, 0, s>>> (G->B.j, (const T *) G->B.x, nnz,
            (unsigned long long *) G->fx.colmax) ;
        GXD_LAUNCH_CHECK () ;
    }
    if (gxd_fx_exact_ok<M, T> ())
    {
        GXD_CUDA_TRY (cudaMalloc (&G->fx.bfrac, sizeof (uint32_t))) ;
        GXD_CUDA_TRY (cudaMemsetAsync (G->fx.bfrac, 0, sizeof (uint32_t), s)) ;
        if (nnz > 0)
        {
            k_fx_frac<T> <<<(unsigned) std::min<int64_t> ((nnz + 255) / 256, 1024), 256, 0, s>>> (
                (const T *) G->B.x, nnz, G->fx.bfrac) ;
            GXD_LAUNCH_CHECK () ;
        }
    }
    if (gxd_fx_xf<M, T> ())
    {
        GXD_CUDA_TRY (cudaMalloc (&G->fx.brange, 2 * sizeof (uint32_t))) ;
        GXD_CUDA_TRY (cudaMemsetAsync (G->fx.brange, 0xff, sizeof (uint32_t), s)) ;
        GXD_CUDA_TRY (cudaMemsetAsync (G->fx.brange + 1, 0, sizeof (uint32_t), s)) ;
        if (nnz > 0)
        {
            k_fx_range<T> <<<(unsigned) std::min<int64_t> ((nnz + 255) / 256, 1024), 256, 0, s>>> (
                (const T *) G->B.x, nnz, G->fx.brange) ;
            GXD_LAUNCH_CHECK () ;
        }
    }
    if (gxd_fx_logs<M, T> ())
    {
        const int64_t na = G->A.nnz ;
        GXD_CUDA_TRY (cudaMalloc (&G->fx.alog, (size_t) (na > 0 ? na : 1) * sizeof (double))) ;
        GXD_CUDA_TRY (cudaMalloc (&G->fx.bpack, (size_t) (nnz > 0 ? nnz : 1) * sizeof (double2))) ;
        GXD_CUDA_TRY (cudaMalloc (&G->fx.ltab, GXD_FX_LTAB * sizeof (double2))) ;
        k_fx_ltab <<<1, GXD_FX_LTAB, 0, s>>> (G->fx.ltab) ;
        GXD_LAUNCH_CHECK () ;
        GXD_CUDA_TRY (cudaMalloc (&G->fx.itab, GXD_FX_ITAB * sizeof (double))) ;
        GXD_CUDA_TRY (cudaMalloc (&G->fx.bint, sizeof (uint32_t))) ;
        GXD_CUDA_TRY (cudaMemsetAsync (G->fx.bint, 0, sizeof (uint32_t), s)) ;
        k_fx_itab <<<1, 256, 0, s>>> (G->fx.itab) ;
        GXD_LAUNCH_CHECK () ;
        if (nnz > 0)
        {
            k_fx_ints<T> <<<(unsigned) std::min<int64_t> ((nnz + 255) / 256, 1024), 256, 0, s>>> (
                (const T *) G->B.x, nnz, G->fx.bint) ;
            GXD_LAUNCH_CHECK () ;
        }
        if (na > 0)
        {
            k_fx_xlogx<T> <<<(unsigned) std::min<int64_t> ((na + 255) / 256, 4096), 256, 0, s>>> (
                (const T *) G->A.x, na, G->fx.alog) ;
            GXD_LAUNCH_CHECK () ;
        }
        if (nnz > 0)
        {
            k_fx_pack<T> <<<(unsigned) std::min<int64_t> ((nnz + 255) / 256, 4096), 256, 0, s>>> (
                G->csc [0].rows, (const T *) G->csc [0].vals, nnz, G->fx.bpack) ;
            GXD_LAUNCH_CHECK () ;
        }
    }
    if (m > 0)
    {
        k_fx_exp<M, T> <<<(unsigned) ((m * 32 + 255) / 256), 256, 0, s>>> (G->P,
            G->A.p, G->A.j, (const T *) G->A.x, m, G->fx.colmax, G->fx.brange,
            G->fx.bint, G->fx.bfrac, G->fx.exp) ;
        GXD_LAUNCH_CHECK () ;
    }
cleanup:
    return info ;
}

// only metrics with a fixed-point form are instantiated
template <int M, typename T>
static GrB_Info launch_fx (gxd_gpu_ctx *G, int64_t i0, int64_t i1, void *Ct,
    const gxd_fx_sel *S, cudaStream_t s, char *msg)
{
    if constexpr (gxd_fx_ok<M> ()) return launch_fx_ok<M, T> (G, i0, i1, Ct, S, s, msg) ;
    return gxd_fail (GrB_INVALID_VALUE, msg, "no fixed-point form") ;
}

template <int M, typename T>
static GrB_Info prepare_fx (gxd_gpu_ctx *G, cudaStream_t s, char *msg)
{
    if constexpr (gxd_fx_ok<M> ())
    {
        G->fixed_point = true ;     // its tiles take the fixed-point kernels
        return prepare_fx_ok<M, T> (G, s, msg) ;
    }
    return GrB_SUCCESS ;
}

GrB_Info gxd_intersect_fx_tile (gxd_gpu_ctx *G, int64_t i0, int64_t i1,
    void *Ct, cudaStream_t s, char *msg)
{
    const gxd_plan *P = &G->P ;
    GXD_DISPATCH (P, launch_fx, G, i0, i1, Ct, (const gxd_fx_sel *) NULL, s, msg) ;
    return gxd_fail (GrB_INVALID_VALUE, msg, "unknown metric in plan") ;
}

GrB_Info gxd_intersect_fx_select (gxd_gpu_ctx *G, int64_t i0, int64_t i1,
    const gxd_fx_sel *S, cudaStream_t s, char *msg)
{
    const gxd_plan *P = &G->P ;
    GXD_DISPATCH (P, launch_fx, G, i0, i1, (void *) NULL, S, s, msg) ;
    return gxd_fail (GrB_INVALID_VALUE, msg, "unknown metric in plan") ;
}

// column maxima and row scales (after gxd_intersect_prepare); sets
// G->fixed_point, or leaves it false for a plan without a fixed-point form
// (M, T), whose tiles keep the floating-point kernels
GrB_Info gxd_intersect_fx_prepare (gxd_gpu_ctx *G, cudaStream_t s, char *msg)
{
    const gxd_plan *P = &G->P ;
    GXD_DISPATCH (P, prepare_fx, G, s, msg) ;
    return gxd_fail (GrB_INVALID_VALUE, msg, "unknown metric in plan") ;
}

