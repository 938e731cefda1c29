// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// metrics/gxd_metric_ops.h: the arithmetic of every metric, host and device
//------------------------------------------------------------------------------

// Included by the CPU backend (C) and the CUDA backend (nvcc), so that each
// metric's terms are written once.  The switches on the metric have no
// default: the library compiles with -Werror=switch, so a metric added to
// gxd_metric_list.h is a compile error in every function that must say
// what it does (the return after each switch is never reached).  All arithmetic is in double; a backend
// may call these with m a compile-time constant so the switches fold away.
//
// Per pair, a backend computes one of two ways (gxd_metric.h):
//  - rewrite: norms N(a), N(b) per row (gxd_norm_*), an intersection sum of
//    gxd_g (and gxd_g2 for Bray-Curtis), then gxd_finalize;
//  - union:   gxd_ustep over every column of a U b (x or y = e where
//    missing), then gxd_uend.  This is exact (no cancellation) and is used
//    for Chebyshev, generic non-plus (+), exact mode, sampled outputs and for
//    pairs the rewrite cannot resolve (gxd_needs_exact).
//
// Extreme values (issue 15): no intermediate may overflow or underflow where
// the result is representable.  The rewrite squares (or raises to p) the
// values and sums whole rows, so it is kept to rows of ordinary magnitude
// (gxd_row_extreme); a pair with an extreme row goes to the union pass,
// whose terms are scaled: Euclidean, Minkowski, Hellinger and Jensen-Shannon
// are p-norms of per-column magnitudes a_c, summed as D^p sum (a_c/D)^p with
// D = max a_c (gxd_sadd), and cosine, correlation and Bray-Curtis, which do
// not change when a row (a pair) is multiplied by a constant, take each row
// times a power of two (gxd_row.sc).  docs/metrics.md, "Extreme values".

#ifndef GXD_METRIC_OPS_H
#define GXD_METRIC_OPS_H

#include "gxd_metric.h"
#include <math.h>
#include <float.h>

#ifdef __CUDACC__
#define GXD_HD static __host__ __device__ __forceinline__
#else
#define GXD_HD static inline
#endif

#define GXD_LN2 0.69314718055994530942

// x * y rounded on its own: never contracted into an FMA with what follows,
// so x*u - y*u is exactly 0 when x == y (a row against itself)
#ifdef __CUDA_ARCH__
#define GXD_MUL(x, y) __dmul_rn (x, y)
#else
#define GXD_MUL(x, y) ((x) * (y))
#endif
#define GXD_INF (1.0/0.0)
#define GXD_NAN (0.0/0.0)

// Pairs whose rewritten raw value is under tau times its scale are
// recomputed over the union.  Double accumulation of n terms errs by about
// n*eps64*scale; tau keeps that under a tenth of the output tolerance
// (1e-5 float, 1e-12 double) for intersections of up to ~300 columns.
#define GXD_TAU_FP32 1e-6
#define GXD_TAU_FP64 2e-2
// Correlation's covariance loses about kappa * eps64 * n to cancellation
// (gxd_needs_exact); above these kappa the pair goes to the union pass.
#define GXD_KAPPA_FP32 1e5
#define GXD_KAPPA_FP64 4

// A row is of ordinary magnitude when its largest |x| lies in [GXD_ROW_LO,
// GXD_ROW_HI]: then its squares lie in [2^-800, 2^800], so sums of up to
// 2^200 of them cannot overflow, and whatever underflows (below 2^-1022) is
// under 2^-222 of the row's largest term, far below the rounding of the
// sums (the guard keeps |raw| >= tau * scale).  Every FP32 row is ordinary
// (floats lie in [2^-149, 2^128]).  Minkowski's terms are |x|^p: its rows
// are ordinary when max|x|^p lies in [2^-800, 2^800].
#define GXD_ROW_LO 0x1p-400
#define GXD_ROW_HI 0x1p+400
// Minkowski takes the rewrite only up to this p.  Beyond it the magnitudes
// whose p-th powers stay in [2^-800, 2^800] shrink below [2^-25, 2^25]
// (p = 64: [2^-12.5, 2^12.5]), so most data would be extreme row by row
// anyway; one decision per plan lets a backend choose its union scheme up
// front (the GPU's SPSV) instead of sending pairs one by one to the exact
// merge.  The rewrite's relative error is divided by p in the root, so this
// is about the range, not the accuracy.  Measured (8 10^6 pairs of
// MovieLens-like data, FP64, one core): rewrite p = 3 0.24 s, 8 0.72 s, 32
// 2.4 s (the guard sends more pairs to the union pass as p grows: |x|^p
// dwarfs |x-y|^p); union pass for every pair p = 33 7.3 s, p = 1e5 2.7 s.
#define GXD_MINK_PMAX 32

// metrics whose intersection terms are integer counts (the TERMS column of
// GXD_METRICS): exact in any order
#ifdef __CUDACC__
#define GXD_HD_CONST static __host__ __device__ constexpr
#else
#define GXD_HD_CONST static inline
#endif
#define GXD_COUNTS_ROW(m, NAME, KIND, NACC, DOMAIN, GUARD, MULT, TERMS, ...) \
    || ((m) == GXD_ ## NAME && GXD_COL_TERMS_ ## TERMS)
GXD_HD_CONST bool gxd_metric_counts (int m)
{
    return false GXD_METRICS (GXD_COUNTS_ROW, m) ;
}
#undef GXD_COUNTS_ROW

//------------------------------------------------------------------------------
// row context: what a row contributes to every pair it is in
//------------------------------------------------------------------------------

typedef struct
{
    double n0 ;             // sum of the norm terms (gxd_norm_term); NaN
                            // marks an extreme row of a PLUS metric: every
                            // pair with it fails the guard (union pass)
    double n1 ;             // correlation: centred sum of squares
    double inv ;            // cosine: 1/||x||; correlation: 1/sigma; NaN
                            // marks an extreme row (union pass only, where
                            // gxd_row_inv gives 1/||x sc||, 1/sigma of x sc)
    double nrm ;            // cosine: ||x sc||; correlation: sigma (of x sc)
    double mu ;             // correlation: mean over k columns (of x sc)
    double sc ;             // a power of two: the row as cosine, correlation
                            // and Bray-Curtis use it is x sc (1 unless the
                            // row is extreme, gxd_row_rescale)
    double hi ;             // max |x| (while the context is computed)
    int64_t nnz ;           // entries in the row
}
gxd_row ;

// built-in binary operators in double (generic plans)
GXD_HD double gxd_binop (gxd_opcode op, double x, double y)
{
    switch (op)
    {
        case GXD_OP_FIRST:  return x ;
        case GXD_OP_SECOND: return y ;
        case GXD_OP_PAIR:   return 1 ;
        case GXD_OP_PLUS:   return x + y ;
        case GXD_OP_MINUS:  return x - y ;
        case GXD_OP_RMINUS: return y - x ;
        case GXD_OP_TIMES:  return x * y ;
        case GXD_OP_DIV:    return x / y ;
        case GXD_OP_RDIV:   return y / x ;
        case GXD_OP_MIN:    return fmin (x, y) ;
        case GXD_OP_MAX:    return fmax (x, y) ;
        case GXD_OP_ISEQ:   return x == y ;
        case GXD_OP_ISNE:   return x != y ;
        case GXD_OP_ISGT:   return x > y ;
        case GXD_OP_ISLT:   return x < y ;
        case GXD_OP_ISGE:   return x >= y ;
        case GXD_OP_ISLE:   return x <= y ;
        case GXD_OP_POW:    return pow (x, y) ;
        case GXD_OP_HYPOT:  return hypot (x, y) ;
        default:            return 0 ;
    }
}

// a generic plan's (x) and (+): built-in, or a user's operator compiled
// for the CPU (the GPU's built-in kernels never get a plan with GXD_OP_USER:
// gxd_compute.c sends it to cuda/gpu_user.cu)
GXD_HD double gxd_mult (const gxd_plan *P, double x, double y)
{
#ifndef __CUDA_ARCH__
    if (P->mult == GXD_OP_USER) return P->user_mult (x, y) ;
#endif
    return gxd_binop (P->mult, x, y) ;
}

GXD_HD double gxd_add (const gxd_plan *P, double s, double t)
{
    if (P->add == GXD_OP_PLUS) return s + t ;
#ifndef __CUDA_ARCH__
    if (P->add == GXD_OP_USER) return P->user_add (s, t) ;
#endif
    return gxd_binop (P->add, s, t) ;
}

// A generic plan may use the rewrite only when (+) is PLUS and f(x,e),
// f(e,y) stay finite for finite x, y (x/0 or 0^-1 would give inf - inf).
// A user's (x) takes it too: a pair whose terms leave the range fails the
// guard (gxd_needs_exact) and is merged over its union.
GXD_HD bool gxd_generic_rewrite_ok (const gxd_plan *P)
{
    if (P->add != GXD_OP_PLUS) return false ;
    switch (P->mult)
    {
        case GXD_OP_DIV: case GXD_OP_RDIV: case GXD_OP_POW: return false ;
        default: return true ;
    }
}

// where a generic pair's fold of (+) starts: the monoid's identity, but NaN
// for MIN and MAX, whose fmin and fmax skip NaN, so that a pair whose terms
// are all NaN comes out NaN as GraphBLAS's MIN and MAX give it (and the
// user's identity, whatever it is, is never folded into a term)
GXD_HD double gxd_add_start (const gxd_plan *P)
{
    switch (P->add)
    {
        case GXD_OP_TIMES: return 1 ;
        case GXD_OP_MIN:
        case GXD_OP_MAX:   return GXD_NAN ;
        case GXD_OP_USER:  return P->add_identity ;
        default:           return 0 ;
    }
}

// s (+) t (+) ... (+) t, with n copies of t, in O(log n) steps of (+) (a
// monoid is associative; the columns missing from both rows of a pair)
GXD_HD double gxd_add_repeat (const gxd_plan *P, double s, double t,
    int64_t n)
{
    while (n > 0)
    {
        if (n & 1) s = gxd_add (P, s, t) ;
        n >>= 1 ;
        if (n > 0) t = gxd_add (P, t, t) ;
    }
    return s ;
}

// v ln(v/w) for v, w > 0, also where v/w would leave the normal range:
// there |ln(v/w)| > 708, and ln v - ln w loses nothing to the difference
// (ln of a subnormal or zero ratio would lose the answer: issue 15)
GXD_HD double gxd_xlogr (double v, double w)
{
    double r = v / w ;
    return (r >= DBL_MIN && r <= DBL_MAX) ? v * log (r)
                                          : v * (log (v) - log (w)) ;
}

// x ln(x/m) with 0 ln 0 = 0, for 0 <= x <= m and a ratio of at least
// DBL_MIN (the rewrite's Jensen-Shannon term, gxd_g)
GXD_HD double gxd_xlog (double x, double m)
{
    double r = x / m ;
    return (x > 0) ? x * log ((r > DBL_MIN) ? r : DBL_MIN) : 0 ;
}

// |sqrt x - sqrt y| for x, y >= 0, as |x - y| / (sqrt x + sqrt y): no
// cancellation when x ~ y, never out of range (it lies between
// sqrt(max) and |x-y|/(2 sqrt(max)), also for subnormal x, y)
GXD_HD double gxd_hellinger_root (double x, double y)
{
    double s = sqrt (x) + sqrt (y) ;
    return (s > 0) ? fabs (x - y) / s : 0 ;
}

// the union term (sqrt x - sqrt y)^2
GXD_HD double gxd_hellinger (double x, double y)
{
    double d = gxd_hellinger_root (x, y) ;
    return d * d ;
}

// the Jensen-Shannon term x ln(x/m) + y ln(y/m), m = (x+y)/2, for x, y >= 0,
// as s w h: s w = x + y (w = 2 where x + y overflows: then s = x/2 + y/2),
// h = phi/2 = qx ln(2 qx) + qy ln(2 qy), q = x/s, y/s in [0, 1], so nothing
// leaves the normal range.  With t = (x-y)/(x+y), phi = (1+t) ln(1+t) +
// (1-t) ln(1-t) = sum_j t^2j / (j (2j-1)): the two logarithms cancel to
// O(t^2) when x ~ y, so small |t| uses the series (Horner, 9 terms: |t| <
// 1/8 leaves t^20 < 1e-18).  Union pass only: the rewrite's intersection
// term (gxd_g) has no cancellation.
GXD_HD double gxd_js_h (double x, double y, double *s, double *w)
{
    *s = x + y ;
    *w = 1 ;
    if (*s > DBL_MAX)
    {
        // both halves are exact, x and y being huge (or negligible)
        x *= 0.5 ; y *= 0.5 ; *s = x + y ; *w = 2 ;
    }
    double t = (x - y) / *s ;
    if (fabs (t) < 0.125)
    {
        // coefficients 1 / (j (2j-1)), j = 1..9
        const double c [9] = { 1.0, 1.0/6, 1.0/15, 1.0/28, 1.0/45, 1.0/66,
            1.0/91, 1.0/120, 1.0/153 } ;
        double t2 = t * t, sum = c [8] ;
        for (int j = 7 ; j >= 0 ; j--) sum = sum * t2 + c [j] ;
        return 0.5 * t2 * sum ;
    }
    double qx = x / *s, qy = y / *s ;
    return ((qx > 0) ? qx * log (2 * qx) : 0) + ((qy > 0) ? qy * log (2 * qy) : 0) ;
}

GXD_HD double gxd_js (double x, double y)
{
    if (x == y) return 0 ;
    double s, w, h = gxd_js_h (x, y, &s, &w) ;
    return s * h * w ;
}

// the square root of the Jensen-Shannon term, sqrt(s) sqrt(w h): a normal
// number for any x != y (sqrt(s) >= 2^-537), where the term itself may be
// subnormal (x = 1e-320) or overflow (x, y near DBL_MAX)
GXD_HD double gxd_js_root (double x, double y)
{
    if (x == y) return 0 ;
    double s, w, h = gxd_js_h (x, y, &s, &w) ;
    return sqrt (s) * sqrt (w * h) ;
}

// x ln(x/y) for x, y > 0.  Near x = y, ln(x/y) is log1p((x-y)/y), whose
// argument is exact up to one rounding; elsewhere ln(x/y), or ln x - ln y
// where x/y leaves the normal range (gxd_xlogr).  log1p((x-y)/y) alone
// fails there: x = 1e-310, y = 1 (or x = 1e-40, y = 3e38 in FP32 data
// held in double) make (x-y)/y exactly -1, and the term -inf (issue 15)
GXD_HD double gxd_kl (double x, double y)
{
    if (!(x > 0 && y > 0)) return 0 ;
    double r = (x - y) / y ;
    return (fabs (r) < 0.5) ? x * log1p (r) : gxd_xlogr (x, y) ;
}

// |x-y| / (|x|+|y|) with 0/0 = 0; where |x|+|y| overflows (x = -y = 1e308),
// the ratio of the halves (exact for the large one; the other is then
// negligible)
GXD_HD double gxd_canberra (double x, double y)
{
    double s = fabs (x) + fabs (y) ;
    if (s == 0) return 0 ;
    if (s <= DBL_MAX) return fabs (x - y) / s ;
    return fabs (0.5 * x - 0.5 * y) / (0.5 * fabs (x) + 0.5 * fabs (y)) ;
}

// Sokal-Michener of rows with na and nb nonzeros, both of them in common:
// R / (S + R), R = 2 (columns where exactly one is nonzero), S = the
// columns where both or neither are, S + R = k + ne; integers, so one
// rounding.  k = 0 (no columns) is 0.
GXD_HD double gxd_sokalmichener (double na, double nb, double both, int64_t k)
{
    double ne = na + nb - 2 * both ;
    return (k > 0) ? 2 * ne / ((double) k + ne) : 0 ;
}

// num / den with 0/0 = 0 (Bray-Curtis: a row against its negation is inf)
GXD_HD double gxd_ratio (double num, double den)
{
    if (den > 0) return num / den ;
    return (num > 0) ? GXD_INF : 0 ;
}

//------------------------------------------------------------------------------
// the union term f(x,y) (PLUS and MAX kinds, generic)
//------------------------------------------------------------------------------

GXD_HD double gxd_f (gxd_metric_id m, const gxd_plan *P, double x, double y)
{
    switch (m)
    {
        case GXD_EUCLIDEAN:
        case GXD_SQEUCLIDEAN:   return (x - y) * (x - y) ;
        case GXD_MANHATTAN:
        case GXD_CHEBYSHEV:     return fabs (x - y) ;
        case GXD_MINKOWSKI:     return pow (fabs (x - y), P->p) ;
        case GXD_CANBERRA:      return gxd_canberra (x, y) ;
        case GXD_HAMMING:       return (x != y) ;
        case GXD_HELLINGER:     return gxd_hellinger (x, y) ;
        case GXD_JENSEN_SHANNON: return gxd_js (x, y) ;
        case GXD_BRAYCURTIS:    return fabs (x - y) ;
        case GXD_GENERIC:       return gxd_mult (P, x, y) ;
        // DOT kinds are sums of their intersection term g alone
        case GXD_COSINE: case GXD_CORRELATION: case GXD_DICE: case GXD_DOT:
        case GXD_JACCARD: case GXD_RUSSELLRAO: case GXD_KL_DIVERGENCE:
        case GXD_SOKALMICHENER: return 0 ;
    }
    return 0 ;
}

// f(e,e): what a column missing from both rows contributes
GXD_HD double gxd_fee (gxd_metric_id m, const gxd_plan *P)
{
    if (m != GXD_GENERIC) return 0 ;
    // a user's operator: computed once (every pair needs it)
    return (P->mult == GXD_OP_USER) ? P->user_fee
        : gxd_f (m, P, P->identity, P->identity) ;
}

//------------------------------------------------------------------------------
// rewrite: norms and intersection terms
//------------------------------------------------------------------------------

// norm term of an entry x of a row of A (left) or B (right)
GXD_HD double gxd_norm_term (gxd_metric_id m, const gxd_plan *P, double x,
    bool left)
{
    switch (m)
    {
        case GXD_EUCLIDEAN:
        case GXD_SQEUCLIDEAN:
        case GXD_COSINE:        return x * x ;
        case GXD_MANHATTAN:
        case GXD_BRAYCURTIS:    return fabs (x) ;
        case GXD_MINKOWSKI:     return pow (fabs (x), P->p) ;
        case GXD_CANBERRA:
        case GXD_HAMMING:
        case GXD_DICE:
        case GXD_JACCARD:
        case GXD_SOKALMICHENER: return (x != 0) ;
        case GXD_HELLINGER:     return x ;
        case GXD_JENSEN_SHANNON: return x * GXD_LN2 ;
        case GXD_CORRELATION:   return x ;      // n0 = sum x (n1 = sum x^2)
        case GXD_GENERIC:
        {
            double e = P->identity ;
            return (left ? gxd_mult (P, x, e) : gxd_mult (P, e, x))
                - gxd_fee (m, P) ;
        }
        // no row sum: Chebyshev is union only, the rest use k or nothing
        case GXD_CHEBYSHEV: case GXD_DOT: case GXD_RUSSELLRAO:
        case GXD_KL_DIVERGENCE: return 0 ;
    }
    return 0 ;
}

// intersection term g(x,y) = f(x,y) - f(x,e) - f(e,y) + f(e,e) for PLUS
// kinds (closed forms where they are exact), or the product of DOT kinds
GXD_HD double gxd_g (gxd_metric_id m, const gxd_plan *P, double x, double y)
{
    switch (m)
    {
        case GXD_EUCLIDEAN:
        case GXD_SQEUCLIDEAN:   return -2 * x * y ;
        case GXD_MANHATTAN:
        case GXD_BRAYCURTIS:    return fabs (x - y) - fabs (x) - fabs (y) ;
        case GXD_MINKOWSKI:
            return pow (fabs (x - y), P->p) - pow (fabs (x), P->p)
                - pow (fabs (y), P->p) ;
        case GXD_CANBERRA:
            return gxd_f (m, P, x, y) - (x != 0) - (y != 0) ;
        case GXD_HAMMING:       return (double) (x != y) - (x != 0) - (y != 0) ;
        case GXD_HELLINGER:     return -2 * sqrt (x) * sqrt (y) ;
        case GXD_JENSEN_SHANNON:
        {
            // f(x,y) - (x+y) ln 2 = x ln(x/s) + y ln(y/s), s = x+y: two
            // terms of one sign, no cancellation.  Rows of ordinary
            // magnitude only (the rewrite's), so s <= 2^401; a ratio below
            // DBL_MIN is taken as DBL_MIN (no branch, and never ln 0 =
            // -inf): that moves the term by less than 37 x < 37 s 2^-1022,
            // nothing next to |raw| >= tau scale >= tau s ln 2 (the guard)
            double s = x + y ;
            return gxd_xlog (x, s) + gxd_xlog (y, s) ;
        }
        case GXD_COSINE:
        case GXD_CORRELATION:
        case GXD_DOT:           return x * y ;
        case GXD_DICE:
        case GXD_JACCARD:
        case GXD_RUSSELLRAO:
        case GXD_SOKALMICHENER: return (x != 0 && y != 0) ;
        case GXD_KL_DIVERGENCE: return gxd_kl (x, y) ;
        case GXD_GENERIC:
        {
            // a user's (x) has its whole column compiled (user_g_col)
            double e = P->identity ;
            return gxd_mult (P, x, y) - gxd_mult (P, x, e)
                - gxd_mult (P, e, y) + gxd_fee (m, P) ;
        }
        case GXD_CHEBYSHEV:     return 0 ;      // union pass only
    }
    return 0 ;
}

// second intersection term (Bray-Curtis denominator: sum |x+y|)
GXD_HD double gxd_g2 (double x, double y)
{
    return fabs (x + y) - fabs (x) - fabs (y) ;
}

//------------------------------------------------------------------------------
// row context: fill r from the row's values (n entries, k columns)
//------------------------------------------------------------------------------

// Pass 1: gxd_row_begin, gxd_row_add for each value; if gxd_row_rescale
// says so, pass 1 again (cosine and correlation rows of extreme magnitude,
// whose statistics are those of x sc); gxd_row_mid; if gxd_row_needs_pass2
// (correlation), gxd_row_add2 for each value; gxd_row_end.  gxd_row_of does
// all of it for a row held in one array; the GPU runs the same steps a warp
// per row (cuda/gpu_csr.cu).
GXD_HD void gxd_row_begin (gxd_row *r)
{
    r->n0 = 0 ; r->n1 = 0 ; r->inv = 0 ; r->nrm = 0 ; r->mu = 0 ; r->nnz = 0 ;
    r->sc = 1 ; r->hi = 0 ;
}

// true when a row whose largest |x| is hi is out of the rewrite's range
// (GXD_ROW_LO, GXD_ROW_HI, GXD_MINK_PMAX).  Its pairs fail the guard (n0 is
// NaN) and go to the union pass, so no sum of the rewrite leaves the range
// and the guard needs no test of its own for that.  Canberra, Hamming and
// the set metrics sum counts; DOT and KL have no rewrite.
GXD_HD bool gxd_row_extreme (gxd_metric_id m, const gxd_plan *P, double hi)
{
    if (!(hi > 0)) return false ;
    switch (m)
    {
        case GXD_MINKOWSKI:
        {
            if (P->p > GXD_MINK_PMAX) return true ;
            double h = pow (hi, P->p) ;
            return !(h >= GXD_ROW_LO * GXD_ROW_LO && h <= GXD_ROW_HI * GXD_ROW_HI) ;
        }
        case GXD_EUCLIDEAN: case GXD_SQEUCLIDEAN: case GXD_COSINE:
        case GXD_CORRELATION: case GXD_HELLINGER: case GXD_JENSEN_SHANNON:
        case GXD_BRAYCURTIS: case GXD_MANHATTAN:
            return hi < GXD_ROW_LO || hi > GXD_ROW_HI ;
        case GXD_CANBERRA: case GXD_HAMMING: case GXD_DICE: case GXD_JACCARD:
        case GXD_RUSSELLRAO: case GXD_SOKALMICHENER: case GXD_DOT:
        case GXD_KL_DIVERGENCE: case GXD_CHEBYSHEV: case GXD_GENERIC:
            return false ;
    }
    return false ;
}

GXD_HD void gxd_row_add (gxd_metric_id m, const gxd_plan *P, gxd_row *r,
    double x, bool left)
{
    r->n0 += gxd_norm_term (m, P, x * r->sc, left) ;
    r->hi = fmax (r->hi, fabs (x)) ;
    r->nnz++ ;
}

// After pass 1: an extreme row gets sc, the power of two that brings its
// largest |x| into [1, 2) (2^1023 at most: a subnormal hi then lands in
// [2^-51, 1), squares still normal).  Multiplying by sc is exact except
// for entries below 2^-1022 of hi, which are negligible.  True when pass 1
// must be run again, on x sc.
GXD_HD bool gxd_row_rescale (gxd_metric_id m, const gxd_plan *P, gxd_row *r)
{
    if (!gxd_row_extreme (m, P, r->hi)) return false ;
    int e = -ilogb (r->hi) ;
    r->sc = ldexp (1.0, (e < 1023) ? e : 1023) ;
    if (m != GXD_COSINE && m != GXD_CORRELATION) return false ;
    r->n0 = 0 ;
    r->nnz = 0 ;
    return true ;
}

GXD_HD bool gxd_row_needs_pass2 (gxd_metric_id m)
{
    return m == GXD_CORRELATION ;
}

// correlation, second pass over the row: the term (x sc - mu)^2
GXD_HD double gxd_row_term2 (const gxd_row *r, double x)
{
    double d = x * r->sc - r->mu ;
    return d * d ;
}

GXD_HD void gxd_row_add2 (gxd_row *r, double x)
{
    r->n1 += gxd_row_term2 (r, x) ;
}

// correlation: call after pass 1 (sets mu) and again after pass 2 (final)
GXD_HD void gxd_row_mid (gxd_metric_id m, gxd_row *r, int64_t k)
{
    if (m == GXD_CORRELATION) r->mu = (k > 0) ? r->n0 / (double) k : 0 ;
}

GXD_HD void gxd_row_end (gxd_metric_id m, const gxd_plan *P, gxd_row *r,
    int64_t k)
{
    if (m == GXD_COSINE || m == GXD_CORRELATION)
    {
        // cosine: the sum of squares; correlation: the centred sum of
        // squares over all k columns, computed stably
        double v = r->n0 ;
        if (m == GXD_CORRELATION)
        {
            r->n1 += (double) (k - r->nnz) * r->mu * r->mu ;
            v = r->n1 ;
        }
        r->nrm = sqrt (v) ;
        r->inv = (v > 0) ? 1 / r->nrm : 0 ;
        // an extreme row (but not one of zero norm, whose rule needs inv 0)
        if (r->sc != 1 && v > 0) r->inv = GXD_NAN ;
    }
    else if (gxd_row_extreme (m, P, r->hi))
    {
        r->n0 = GXD_NAN ;
    }
}

// the context of a row whose n values are x [0..n-1]
GXD_HD void gxd_row_of (gxd_metric_id m, const gxd_plan *P, gxd_row *r,
    const double *x, int64_t n, int64_t k, bool left)
{
    gxd_row_begin (r) ;
    for (int64_t q = 0 ; q < n ; q++) gxd_row_add (m, P, r, x [q], left) ;
    if (gxd_row_rescale (m, P, r))
    {
        for (int64_t q = 0 ; q < n ; q++) gxd_row_add (m, P, r, x [q], left) ;
    }
    gxd_row_mid (m, r, k) ;
    if (gxd_row_needs_pass2 (m))
    {
        for (int64_t q = 0 ; q < n ; q++) gxd_row_add2 (r, x [q]) ;
    }
    gxd_row_end (m, P, r, k) ;
}

//------------------------------------------------------------------------------
// rewrite: finalize, and when a pair must be recomputed over the union
//------------------------------------------------------------------------------

// 1 - s for cosine-like similarities, with the zero-norm rule: two
// zero-norm rows are at 0, one zero-norm row is at 1
GXD_HD double gxd_one_minus (double s, double inva, double invb)
{
    if (inva == 0 || invb == 0) return (inva == 0 && invb == 0) ? 0 : 1 ;
    double d = 1 - s ;
    return (d > 0) ? d : 0 ;
}

GXD_HD double gxd_clamp0 (double x)
{
    return (x > 0) ? x : 0 ;
}

// the raw plus-sum of a PLUS-kind pair (acc = intersection sum of g)
GXD_HD double gxd_raw (gxd_metric_id m, const gxd_plan *P, double acc,
    const gxd_row *a, const gxd_row *b, int64_t k)
{
    return (double) k * gxd_fee (m, P) + a->n0 + b->n0 + acc ;
}

// final distance from the rewrite (acc2: Bray-Curtis denominator sum)
GXD_HD double gxd_finalize (gxd_metric_id m, const gxd_plan *P, double acc,
    double acc2, const gxd_row *a, const gxd_row *b, int64_t k)
{
    double raw = gxd_raw (m, P, acc, a, b, k) ;
    switch (m)
    {
        case GXD_EUCLIDEAN:     return sqrt (gxd_clamp0 (raw)) ;
        case GXD_SQEUCLIDEAN:
        case GXD_MANHATTAN:
        case GXD_CANBERRA:      return gxd_clamp0 (raw) ;
        case GXD_MINKOWSKI:     return pow (gxd_clamp0 (raw), 1 / P->p) ;
        case GXD_HAMMING:       return (k > 0) ? raw / (double) k : 0 ;
        case GXD_HELLINGER:
        case GXD_JENSEN_SHANNON: return sqrt (gxd_clamp0 (raw) * 0.5) ;
        case GXD_BRAYCURTIS:
            return gxd_ratio (gxd_clamp0 (raw), gxd_clamp0 (a->n0 + b->n0 + acc2)) ;
        case GXD_COSINE:
            return gxd_one_minus (acc * a->inv * b->inv, a->inv, b->inv) ;
        case GXD_CORRELATION:
        {
            double cov = acc - (double) k * a->mu * b->mu ;
            return gxd_one_minus (cov * a->inv * b->inv, a->inv, b->inv) ;
        }
        case GXD_DICE:
        {
            double s = a->n0 + b->n0 ;
            return (s > 0) ? 1 - 2 * acc / s : 0 ;
        }
        case GXD_JACCARD:
        {
            double u = a->n0 + b->n0 - acc ;
            return (u > 0) ? 1 - acc / u : 0 ;
        }
        case GXD_RUSSELLRAO:    return (k > 0) ? ((double) k - acc) / k : 0 ;
        case GXD_SOKALMICHENER: return gxd_sokalmichener (a->n0, b->n0, acc, k) ;
        case GXD_DOT:
        case GXD_KL_DIVERGENCE: return acc ;
        case GXD_GENERIC:       return raw ;
        case GXD_CHEBYSHEV:     return 0 ;      // union pass only
    }
    return 0 ;
}

// true when the rewrite's result d (raw for PLUS kinds) may have lost more
// than the tolerance to cancellation, or a row is extreme (n0 or inv NaN,
// making raw NaN or d 0), or a generic plan's sum left the range: recompute
// it over the union.  The tests are written so that a NaN fails them
// (!(x >= y), not x < y).
GXD_HD bool gxd_needs_exact (gxd_metric_id m, const gxd_plan *P, double acc,
    double acc2, const gxd_row *a, const gxd_row *b, int64_t k, double d)
{
    double tau = P->fp64 ? GXD_TAU_FP64 : GXD_TAU_FP32 ;
    switch (m)
    {
        case GXD_COSINE:
            // (an extreme row's inv is NaN: d is then 0, below tau)
            return d < tau && a->inv != 0 && b->inv != 0 ;
        case GXD_CORRELATION:
        {
            // cov = x.y - k mu_a mu_b cancels when the means are large next
            // to the spreads: kappa = (|x||y| + k |mu_a mu_b|) / (sa sb),
            // |x||y| as a product of roots (|x|^2 |y|^2 overflows at 1e77)
            if (a->inv == 0 || b->inv == 0) return false ;
            double kk = (double) k ;
            double xx = a->n1 + kk * a->mu * a->mu, yy = b->n1 + kk * b->mu * b->mu ;
            double kappa = (sqrt (xx) * sqrt (yy) + kk * fabs (a->mu * b->mu))
                * a->inv * b->inv ;
            double kmax = P->fp64 ? GXD_KAPPA_FP64 : GXD_KAPPA_FP32 ;
            return d < tau || kappa > kmax ;
        }
        case GXD_EUCLIDEAN: case GXD_SQEUCLIDEAN: case GXD_MANHATTAN:
        case GXD_MINKOWSKI: case GXD_CANBERRA: case GXD_HELLINGER:
        case GXD_JENSEN_SHANNON: case GXD_GENERIC:
        {
            // on rows of ordinary magnitude raw and scale are finite; a
            // generic plan's own terms may overflow (| not ||: no branch in
            // the CPU's loop over a block of pairs)
            double scale = fabs ((double) k * gxd_fee (m, P)) + fabs (a->n0)
                + fabs (b->n0) ;
            double raw = gxd_raw (m, P, acc, a, b, k) ;
            bool out = (m == GXD_GENERIC) && !(fabs (raw) + scale <= DBL_MAX) ;
            return !(fabs (raw) >= tau * scale) | out ;
        }
        case GXD_BRAYCURTIS:
        {
            double scale = a->n0 + b->n0 ;
            double raw = gxd_raw (m, P, acc, a, b, k) ;
            return !(raw >= tau * scale) | !(a->n0 + b->n0 + acc2 >= tau * scale) ;
        }
        // counts are exact; dot and KL have no rewrite; Chebyshev is union only
        case GXD_HAMMING: case GXD_DICE: case GXD_JACCARD: case GXD_RUSSELLRAO:
        case GXD_SOKALMICHENER: case GXD_DOT: case GXD_KL_DIVERGENCE:
        case GXD_CHEBYSHEV:
            return false ;
    }
    return false ;
}

//------------------------------------------------------------------------------
// union pass: exact, for every metric
//------------------------------------------------------------------------------

// s0, s1: the sums (Bray-Curtis: numerator, denominator); the scaled sums
// (gxd_scaled): s0 = t, s1 = D, so that the sum of a_c^p is D^p t
typedef struct
{
    double s0, s1 ;
}
gxd_ustate ;

// cosine, correlation: the union pass's 1/||x sc|| (1/sigma), also for an
// extreme row, whose inv is NaN (a test the merge loop hoists)
GXD_HD double gxd_row_inv (const gxd_row *r)
{
    return (r->inv == r->inv) ? r->inv : 1 / r->nrm ;
}

// metrics whose union pass is a scaled p-norm of per-column magnitudes a_c:
// their sums of squares (p-th powers) overflow or underflow where the
// distance does not (Euclidean of 1e200 or 1e-200 entries)
GXD_HD bool gxd_scaled (gxd_metric_id m)
{
    return m == GXD_EUCLIDEAN || m == GXD_MINKOWSKI || m == GXD_HELLINGER
        || m == GXD_JENSEN_SHANNON ;
}

// union states that use s1 (kept per pair by the GPU's SPSV)
GXD_HD bool gxd_ustate_two (gxd_metric_id m)
{
    return m == GXD_BRAYCURTIS || gxd_scaled (m) ;
}

// r^p for a scaled magnitude r in [0, 1] (p = 2 but for Minkowski).  For
// large p most r^p underflow, pow's slowest case: where p (1-r) > 42, r^p <=
// exp(-p (1-r)) < 2^-60 is taken as 0, nothing next to the largest term
// (exactly 1; Minkowski p = 1e5, 8 10^6 pairs of MovieLens-like data, one
// core: 19.6 s -> 2.7 s)
GXD_HD double gxd_spow (gxd_metric_id m, const gxd_plan *P, double r)
{
    if (m != GXD_MINKOWSKI) return r * r ;
    return (P->p * (1 - r) > 42) ? 0 : pow (r, P->p) ;
}

// add a >= 0 to the scaled sum: D = max a so far, t = sum (a/D)^p, rescaled
// when D grows.  Every ratio is in [0, 1], so nothing overflows, and what
// underflows is below 2^-1022 of the largest term.  An infinite a (x - y
// overflows) makes D infinite, which gxd_send returns.
GXD_HD void gxd_sadd (gxd_metric_id m, const gxd_plan *P, gxd_ustate *s,
    double a)
{
    if (a > s->s1)
    {
        s->s0 = s->s0 * gxd_spow (m, P, s->s1 / a) + 1 ;
        s->s1 = a ;
    }
    else if (a > 0)
    {
        s->s0 += gxd_spow (m, P, a / s->s1) ;
    }
}

// two scaled sums over disjoint columns; the same bits for (a, b) and (b, a)
GXD_HD gxd_ustate gxd_scombine (gxd_metric_id m, const gxd_plan *P,
    gxd_ustate a, gxd_ustate b)
{
    gxd_ustate big = (a.s1 >= b.s1) ? a : b, small = (a.s1 >= b.s1) ? b : a ;
    gxd_ustate s ;
    s.s1 = big.s1 ;
    s.s0 = big.s0 + ((small.s1 > 0) ? small.s0 * gxd_spow (m, P, small.s1 / big.s1) : 0) ;
    return s ;
}

// the p-norm D t^(1/p) of a scaled sum (Hellinger and Jensen-Shannon: over
// sqrt 2)
GXD_HD double gxd_send (gxd_metric_id m, const gxd_plan *P, const gxd_ustate *s)
{
    double D = s->s1, t = s->s0 ;
    if (!(D <= DBL_MAX)) return D ;     // a term overflowed: so does d
    switch (m)
    {
        case GXD_MINKOWSKI: return D * pow (t, 1 / P->p) ;
        case GXD_EUCLIDEAN: return D * sqrt (t) ;
        default:            return D * sqrt (0.5 * t) ;
    }
}

GXD_HD gxd_ustate gxd_ubegin (gxd_metric_id m, const gxd_plan *P)
{
    gxd_ustate s ;
    s.s0 = (m == GXD_GENERIC) ? gxd_add_start (P) : 0 ;
    s.s1 = 0 ;
    return s ;
}

// one column of a U b: x (or e if a misses it), y (or e if b misses it)
GXD_HD void gxd_ustep (gxd_metric_id m, const gxd_plan *P, gxd_ustate *s,
    double x, double y, const gxd_row *a, const gxd_row *b)
{
    switch (m)
    {
        case GXD_CHEBYSHEV:
            s->s0 = fmax (s->s0, fabs (x - y)) ;
            break ;
        case GXD_EUCLIDEAN:
        case GXD_MINKOWSKI:
            gxd_sadd (m, P, s, fabs (x - y)) ;
            break ;
        case GXD_HELLINGER:
            gxd_sadd (m, P, s, gxd_hellinger_root (x, y)) ;
            break ;
        case GXD_JENSEN_SHANNON:
            gxd_sadd (m, P, s, gxd_js_root (x, y)) ;
            break ;
        case GXD_BRAYCURTIS:
        {
            // the pair times c = min (sc_a, sc_b), which leaves the ratio as
            // it is (1 for rows of ordinary magnitude): the sums cannot
            // overflow (x = -y = 1e308)
            double c = fmin (a->sc, b->sc), u = x * c, v = y * c ;
            s->s0 += fabs (u - v) ;
            s->s1 += fabs (u + v) ;
            break ;
        }
        case GXD_COSINE:
        {
            // x sc times 1/||x sc|| (nonzero here: gxd_uend takes zero norms
            // apart): no division per column
            double d = GXD_MUL (GXD_MUL (x, a->sc), gxd_row_inv (a))
                     - GXD_MUL (GXD_MUL (y, b->sc), gxd_row_inv (b)) ;
            s->s0 += d * d ;
            break ;
        }
        case GXD_CORRELATION:
        {
            double d = GXD_MUL (GXD_MUL (x, a->sc) - a->mu, gxd_row_inv (a))
                     - GXD_MUL (GXD_MUL (y, b->sc) - b->mu, gxd_row_inv (b)) ;
            s->s0 += d * d ;
            break ;
        }
        case GXD_DICE: case GXD_JACCARD: case GXD_RUSSELLRAO:
        case GXD_SOKALMICHENER: case GXD_DOT: case GXD_KL_DIVERGENCE:
            s->s0 += gxd_g (m, P, x, y) ;
            break ;
        case GXD_GENERIC:
        {
            s->s0 = gxd_add (P, s->s0, gxd_mult (P, x, y)) ;
            break ;
        }
        case GXD_SQEUCLIDEAN: case GXD_MANHATTAN: case GXD_CANBERRA:
        case GXD_HAMMING:
            s->s0 += gxd_f (m, P, x, y) ;
            break ;
    }
}

// combine two partial union states over disjoint column sets (the GPU's
// SPSV); the callers fix the order of the arguments, and the result does
// not depend on it, so every lane of a butterfly gets the same bits
GXD_HD gxd_ustate gxd_ucombine (gxd_metric_id m, const gxd_plan *P,
    gxd_ustate a, gxd_ustate b)
{
    gxd_ustate s ;
    if (gxd_scaled (m)) return gxd_scombine (m, P, a, b) ;
    if (m == GXD_CHEBYSHEV)
    {
        s.s0 = fmax (a.s0, b.s0) ; s.s1 = 0 ;
    }
    else if (m == GXD_GENERIC)
    {
        s.s0 = gxd_add (P, a.s0, b.s0) ;
        s.s1 = 0 ;
    }
    else
    {
        s.s0 = a.s0 + b.s0 ; s.s1 = a.s1 + b.s1 ;
    }
    return s ;
}

// the distance, given the union's size nu (columns outside it are missing
// from both rows)
GXD_HD double gxd_uend (gxd_metric_id m, const gxd_plan *P,
    const gxd_ustate *s, int64_t nu, const gxd_row *a, const gxd_row *b,
    int64_t k)
{
    double out = (double) (k - nu) ;
    switch (m)
    {
        case GXD_EUCLIDEAN:
        case GXD_MINKOWSKI:
        case GXD_HELLINGER:
        case GXD_JENSEN_SHANNON: return gxd_send (m, P, s) ;
        case GXD_SQEUCLIDEAN:
        case GXD_MANHATTAN:
        case GXD_CANBERRA:
        case GXD_CHEBYSHEV:
        case GXD_DOT:
        case GXD_KL_DIVERGENCE: return s->s0 ;
        case GXD_HAMMING:       return (k > 0) ? s->s0 / (double) k : 0 ;
        case GXD_BRAYCURTIS:    return gxd_ratio (s->s0, s->s1) ;
        case GXD_COSINE:
            if (a->inv == 0 || b->inv == 0) return gxd_one_minus (0, a->inv, b->inv) ;
            return 0.5 * s->s0 ;
        case GXD_CORRELATION:
        {
            if (a->inv == 0 || b->inv == 0) return gxd_one_minus (0, a->inv, b->inv) ;
            double d = b->mu / b->nrm - a->mu / a->nrm ;
            return 0.5 * (s->s0 + out * d * d) ;
        }
        case GXD_DICE:
        {
            double t = a->n0 + b->n0 ;
            return (t > 0) ? 1 - 2 * s->s0 / t : 0 ;
        }
        case GXD_JACCARD:
        {
            double u = a->n0 + b->n0 - s->s0 ;
            return (u > 0) ? 1 - s->s0 / u : 0 ;
        }
        case GXD_RUSSELLRAO:    return (k > 0) ? ((double) k - s->s0) / k : 0 ;
        case GXD_SOKALMICHENER: return gxd_sokalmichener (a->n0, b->n0, s->s0, k) ;
        case GXD_GENERIC:
        {
            // no column, no term: the monoid's own identity
            if (k == 0) return P->add_identity ;
            if (nu >= k) return s->s0 ;
            double fee = gxd_fee (m, P) ;
            switch (P->add)
            {
                case GXD_OP_PLUS:  return s->s0 + out * fee ;
                case GXD_OP_TIMES: return s->s0 * pow (fee, out) ;
                case GXD_OP_USER:  return gxd_add_repeat (P, s->s0, fee, k - nu) ;
                default:           return gxd_binop (P->add, s->s0, fee) ;
            }
        }
    }
    return 0 ;
}

// Minkowski's rewrite: only up to GXD_MINK_PMAX (above, the union pass)
GXD_HD bool gxd_minkowski_rewrite (const gxd_plan *P)
{
    return P->p <= GXD_MINK_PMAX ;
}

#endif
