//------------------------------------------------------------------------------
// metrics/gxd_metric_ops.h: the arithmetic of every metric, host and device
//------------------------------------------------------------------------------

// Included by the CPU backend (C) and the CUDA backend (nvcc), so that each
// metric's terms are written once.  All arithmetic is in double; a backend
// may call these with m a compile-time constant so the switches fold away.
//
// Per pair, a backend computes one of two ways (gxd_metric.h):
//  - rewrite: norms N(a), N(b) per row (gxd_norm_*), an intersection sum of
//    gxd_g (and gxd_g2 for Bray-Curtis), then gxd_finalize;
//  - union:   gxd_ustep over every column of a U b (x or y = e where
//    missing), then gxd_uend.  This is exact (no cancellation) and is used
//    for Chebyshev, generic non-plus (+), exact mode, sampled outputs and for
//    pairs the rewrite cannot resolve (gxd_needs_exact).

#ifndef GXD_METRIC_OPS_H
#define GXD_METRIC_OPS_H

#include "gxd_metric.h"
#include <math.h>

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

//------------------------------------------------------------------------------
// row context: what a row contributes to every pair it is in
//------------------------------------------------------------------------------

typedef struct
{
    double n0, n1 ;         // norms (meaning per metric, gxd_row_ctx)
    double inv ;            // cosine: 1/||x||; correlation: 1/sigma
    double nrm ;            // cosine: ||x||; correlation: sigma
    double mu ;             // correlation: mean over k columns
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

// A generic plan may use the rewrite only when (+) is PLUS and f(x,e),
// f(e,y) stay finite for finite x, y (x/0 or 0^-1 would give inf - inf)
GXD_HD bool gxd_generic_rewrite_ok (const gxd_plan *P)
{
    if (P->add != GXD_OP_PLUS) return false ;
    switch (P->mult)
    {
        case GXD_OP_DIV: case GXD_OP_RDIV: case GXD_OP_POW: return false ;
        default: return true ;
    }
}

// identity of a generic (+) monoid
GXD_HD double gxd_add_identity (gxd_opcode add)
{
    switch (add)
    {
        case GXD_OP_TIMES: return 1 ;
        case GXD_OP_MIN:   return GXD_INF ;
        case GXD_OP_MAX:   return -GXD_INF ;
        default:           return 0 ;
    }
}

// x log(x/m) with 0 log 0 = 0 (Jensen-Shannon)
GXD_HD double gxd_xlog (double x, double m)
{
    return (x > 0) ? x * log (x / m) : 0 ;
}

// (sqrt x - sqrt y)^2 without the cancellation of sqrt x - sqrt y when
// x ~ y: (x - y) / (sqrt x + sqrt y)
GXD_HD double gxd_hellinger (double x, double y)
{
    double s = sqrt (x) + sqrt (y) ;
    if (s == 0) return 0 ;
    double d = (x - y) / s ;
    return d * d ;
}

// x ln(x/m) + y ln(y/m), m = (x+y)/2.  With t = (x-y)/(x+y) this is
// m [(1+t) ln(1+t) + (1-t) ln(1-t)] = m sum_j t^2j / (j (2j-1)); the two
// logarithms cancel to O(t^2) when x ~ y, so small |t| uses the series
// (Horner, 9 terms: |t| < 1/8 leaves t^20 < 1e-18).  Union pass only: the
// rewrite's intersection term (gxd_g) has no cancellation.
GXD_HD double gxd_js (double x, double y)
{
    double s = x + y ;
    if (s <= 0 || x == y) return 0 ;
    double m = 0.5 * s, t = (x - y) / s ;
    if (fabs (t) < 0.125)
    {
        // coefficients 1 / (j (2j-1)), j = 1..9
        const double c [9] = { 1.0, 1.0/6, 1.0/15, 1.0/28, 1.0/45, 1.0/66,
            1.0/91, 1.0/120, 1.0/153 } ;
        double t2 = t * t, sum = c [8] ;
        for (int j = 7 ; j >= 0 ; j--) sum = sum * t2 + c [j] ;
        return m * t2 * sum ;
    }
    return gxd_xlog (x, m) + gxd_xlog (y, m) ;
}

// x ln(x/y) for x, y > 0, with ln(x/y) = log1p((x-y)/y) accurate when x ~ y
GXD_HD double gxd_kl (double x, double y)
{
    return (x > 0 && y > 0) ? x * log1p ((x - y) / y) : 0 ;
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
        case GXD_CANBERRA:
        {
            double s = fabs (x) + fabs (y) ;
            return (s == 0) ? 0 : fabs (x - y) / s ;
        }
        case GXD_HAMMING:       return (x != y) ;
        case GXD_HELLINGER:     return gxd_hellinger (x, y) ;
        case GXD_JENSEN_SHANNON: return gxd_js (x, y) ;
        case GXD_BRAYCURTIS:    return fabs (x - y) ;
        case GXD_GENERIC:       return gxd_binop (P->mult, x, y) ;
        default:                return 0 ;
    }
}

// f(e,e): what a column missing from both rows contributes
GXD_HD double gxd_fee (gxd_metric_id m, const gxd_plan *P)
{
    return (m == GXD_GENERIC) ? gxd_f (m, P, P->identity, P->identity) : 0 ;
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
        case GXD_JACCARD:       return (x != 0) ;
        case GXD_HELLINGER:     return x ;
        case GXD_JENSEN_SHANNON: return x * GXD_LN2 ;
        case GXD_CORRELATION:   return x ;      // n0 = sum x (n1 = sum x^2)
        case GXD_GENERIC:
        {
            double e = P->identity ;
            return (left ? gxd_binop (P->mult, x, e) : gxd_binop (P->mult, e, x))
                - gxd_fee (m, P) ;
        }
        default:                return 0 ;
    }
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
            // terms of one sign, no cancellation
            double s = x + y ;
            return gxd_xlog (x, s) + gxd_xlog (y, s) ;
        }
        case GXD_COSINE:
        case GXD_CORRELATION:
        case GXD_DOT:           return x * y ;
        case GXD_DICE:
        case GXD_JACCARD:
        case GXD_RUSSELLRAO:    return (x != 0 && y != 0) ;
        case GXD_KL_DIVERGENCE: return gxd_kl (x, y) ;
        case GXD_GENERIC:
        {
            double e = P->identity ;
            return gxd_binop (P->mult, x, y) - gxd_binop (P->mult, x, e)
                - gxd_binop (P->mult, e, y) + gxd_fee (m, P) ;
        }
        default:                return 0 ;
    }
}

// second intersection term (Bray-Curtis denominator: sum |x+y|)
GXD_HD double gxd_g2 (double x, double y)
{
    return fabs (x + y) - fabs (x) - fabs (y) ;
}

//------------------------------------------------------------------------------
// row context: fill r from the row's values (n entries, k columns)
//------------------------------------------------------------------------------

// call gxd_row_begin, gxd_row_add for each value, then gxd_row_end; the
// correlation's centred sum of squares needs a second pass (gxd_row_add2)
GXD_HD void gxd_row_begin (gxd_row *r)
{
    r->n0 = 0 ; r->n1 = 0 ; r->inv = 0 ; r->nrm = 0 ; r->mu = 0 ; r->nnz = 0 ;
}

GXD_HD void gxd_row_add (gxd_metric_id m, const gxd_plan *P, gxd_row *r,
    double x, bool left)
{
    r->n0 += gxd_norm_term (m, P, x, left) ;
    r->nnz++ ;
}

GXD_HD bool gxd_row_needs_pass2 (gxd_metric_id m)
{
    return m == GXD_CORRELATION ;
}

// correlation, second pass over the row: n1 += (x - mu)^2
GXD_HD void gxd_row_add2 (gxd_row *r, double x)
{
    double d = x - r->mu ;
    r->n1 += d * d ;
}

// correlation: call after pass 1 (sets mu) and again after pass 2 (final)
GXD_HD void gxd_row_mid (gxd_metric_id m, gxd_row *r, int64_t k)
{
    if (m == GXD_CORRELATION) r->mu = (k > 0) ? r->n0 / (double) k : 0 ;
}

GXD_HD void gxd_row_end (gxd_metric_id m, gxd_row *r, int64_t k)
{
    if (m == GXD_COSINE)
    {
        r->nrm = sqrt (r->n0) ;
        r->inv = (r->n0 > 0) ? 1 / r->nrm : 0 ;
    }
    else if (m == GXD_CORRELATION)
    {
        // n1: centred sum of squares over all k columns, computed stably
        r->n1 += (double) (k - r->nnz) * r->mu * r->mu ;
        r->nrm = sqrt (r->n1) ;
        r->inv = (r->n1 > 0) ? 1 / r->nrm : 0 ;
    }
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
        case GXD_DOT:
        case GXD_KL_DIVERGENCE: return acc ;
        case GXD_GENERIC:       return raw ;
        default:                return 0 ;
    }
}

// true when the rewrite's result d (raw for PLUS kinds) may have lost more
// than the tolerance to cancellation: recompute it over the union
GXD_HD bool gxd_needs_exact (gxd_metric_id m, const gxd_plan *P, double acc,
    double acc2, const gxd_row *a, const gxd_row *b, int64_t k, double d)
{
    double tau = P->fp64 ? GXD_TAU_FP64 : GXD_TAU_FP32 ;
    switch (m)
    {
        case GXD_COSINE:
            return d < tau && a->inv != 0 && b->inv != 0 ;
        case GXD_CORRELATION:
        {
            // cov = x.y - k mu_a mu_b cancels when the means are large next
            // to the spreads: kappa = (|x||y| + k |mu_a mu_b|) / (sa sb)
            if (a->inv == 0 || b->inv == 0) return false ;
            double kk = (double) k ;
            double xx = a->n1 + kk * a->mu * a->mu, yy = b->n1 + kk * b->mu * b->mu ;
            double kappa = (sqrt (xx * yy) + kk * fabs (a->mu * b->mu))
                * a->inv * b->inv ;
            double kmax = P->fp64 ? GXD_KAPPA_FP64 : GXD_KAPPA_FP32 ;
            return d < tau || kappa > kmax ;
        }
        case GXD_EUCLIDEAN: case GXD_SQEUCLIDEAN: case GXD_MANHATTAN:
        case GXD_MINKOWSKI: case GXD_CANBERRA: case GXD_HELLINGER:
        case GXD_JENSEN_SHANNON: case GXD_GENERIC:
        {
            double scale = fabs ((double) k * gxd_fee (m, P)) + fabs (a->n0)
                + fabs (b->n0) ;
            double raw = gxd_raw (m, P, acc, a, b, k) ;
            return fabs (raw) < tau * scale ;
        }
        case GXD_BRAYCURTIS:
        {
            double scale = a->n0 + b->n0 ;
            double raw = gxd_raw (m, P, acc, a, b, k) ;
            return raw < tau * scale || a->n0 + b->n0 + acc2 < tau * scale ;
        }
        default:
            return false ;  // counts are exact; dot and KL have no rewrite
    }
}

//------------------------------------------------------------------------------
// union pass: exact, for every metric
//------------------------------------------------------------------------------

typedef struct
{
    double s0, s1 ;
}
gxd_ustate ;

GXD_HD gxd_ustate gxd_ubegin (gxd_metric_id m, const gxd_plan *P)
{
    gxd_ustate s ;
    s.s0 = (m == GXD_GENERIC) ? gxd_add_identity (P->add) : 0 ;
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
        case GXD_BRAYCURTIS:
            s->s0 += fabs (x - y) ;
            s->s1 += fabs (x + y) ;
            break ;
        case GXD_COSINE:
        {
            // times 1/||x|| (inv, nonzero here: gxd_uend takes zero norms
            // apart): no division per column
            double d = GXD_MUL (x, a->inv) - GXD_MUL (y, b->inv) ;
            s->s0 += d * d ;
            break ;
        }
        case GXD_CORRELATION:
        {
            double d = GXD_MUL (x - a->mu, a->inv) - GXD_MUL (y - b->mu, b->inv) ;
            s->s0 += d * d ;
            break ;
        }
        case GXD_DICE: case GXD_JACCARD: case GXD_RUSSELLRAO:
        case GXD_DOT: case GXD_KL_DIVERGENCE:
            s->s0 += gxd_g (m, P, x, y) ;
            break ;
        case GXD_GENERIC:
        {
            double t = gxd_binop (P->mult, x, y) ;
            s->s0 = (P->add == GXD_OP_PLUS) ? s->s0 + t : gxd_binop (P->add, s->s0, t) ;
            break ;
        }
        default:
            s->s0 += gxd_f (m, P, x, y) ;
            break ;
    }
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
        case GXD_EUCLIDEAN:     return sqrt (s->s0) ;
        case GXD_SQEUCLIDEAN:
        case GXD_MANHATTAN:
        case GXD_CANBERRA:
        case GXD_CHEBYSHEV:
        case GXD_DOT:
        case GXD_KL_DIVERGENCE: return s->s0 ;
        case GXD_MINKOWSKI:     return pow (s->s0, 1 / P->p) ;
        case GXD_HAMMING:       return (k > 0) ? s->s0 / (double) k : 0 ;
        case GXD_HELLINGER:
        case GXD_JENSEN_SHANNON: return sqrt (s->s0 * 0.5) ;
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
        case GXD_GENERIC:
        {
            if (nu >= k) return s->s0 ;
            double fee = gxd_fee (m, P) ;
            switch (P->add)
            {
                case GXD_OP_PLUS:  return s->s0 + out * fee ;
                case GXD_OP_TIMES: return s->s0 * pow (fee, out) ;
                default:           return gxd_binop (P->add, s->s0, fee) ;
            }
        }
        default:                return 0 ;
    }
}

#endif
