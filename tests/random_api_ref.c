// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// tests/random_api_ref.c: the randomized test's own reference values
//------------------------------------------------------------------------------

// Compiled into test_random_api.c (see random_api.h).  The value a product
// must have at one pair (i,j), computed by the test alone in long double
// from the dense rows (each operand typecast by GraphBLAS to the operator's
// input type, then transposed as the descriptor says):
//   - each metric from its formula in docs/metrics.md, written so that
//     nothing cancels (1 - cos as |u - v|^2 / 2 of unit vectors, Jensen-
//     Shannon's term by its series when x ~ y, KL by log1p) and nothing
//     under- or overflows in long double (Minkowski scaled by max |x-y|);
//   - unions and NAMMs by dense completion, C(i,j) = (+)_{c<k} op (a~, b~),
//     with the test's own arithmetic: long double for FP32/FP64, complex
//     long double, integers in their own width (wrapping, as C's unsigned
//     arithmetic and GraphBLAS's operators do).

#include "random_api.h"
#include "gxd_metric_list.h"

//------------------------------------------------------------------------------
// the metrics: M_<NAME> in the order of GXD_METRICS, as gxt_metrics holds
// the predefined ones (Minkowski is last)
//------------------------------------------------------------------------------

#define M_ROW(U, NAME, ...) M_ ## NAME,
enum { GXD_METRICS (M_ROW, ~) } ;
#undef M_ROW

static long double js_term (long double x, long double y)
{
    long double s = x + y ;
    if (s <= 0 || x == y) return 0 ;
    long double m = s / 2, t = (x - y) / s ;
    if (fabsl (t) < 0.25L)
    {
        // (1+t) ln(1+t) + (1-t) ln(1-t) = sum_j t^2j / (j (2j-1)): no
        // cancellation when x ~ y
        long double t2 = t * t, pw = t2, sum = 0 ;
        for (int j = 1 ; j <= 40 ; j++) { sum += pw / (j * (2.0L * j - 1)) ; pw *= t2 ; }
        return m * sum ;
    }
    return (x > 0 ? x * logl (x / m) : 0) + (y > 0 ? y * logl (y / m) : 0) ;
}

static long double kl_term (long double x, long double y)
{
    if (!(x > 0 && y > 0)) return 0 ;
    if (fabsl (x - y) <= y / 2) return x * log1pl ((x - y) / y) ;
    return x * (logl (x) - logl (y)) ;
}

// d(x, y) of rows x and y (missing entries 0), and the tolerance scale S
static long double metric_truth (int id, double p, const long double *x,
    const long double *y, GrB_Index k, long double *S)
{
    long double s = 0, s2 = 0, nx = 0, ny = 0, mx = 0, my = 0 ;
    *S = 0 ;
    switch (id)
    {
        case M_EUCLIDEAN:
        case M_SQEUCLIDEAN:
            for (GrB_Index c = 0 ; c < k ; c++) s += (x [c] - y [c]) * (x [c] - y [c]) ;
            return id == M_EUCLIDEAN ? sqrtl (s) : s ;
        case M_MANHATTAN:
            for (GrB_Index c = 0 ; c < k ; c++) s += fabsl (x [c] - y [c]) ;
            return s ;
        case M_CHEBYSHEV:
        case M_MINKOWSKI:
            for (GrB_Index c = 0 ; c < k ; c++) s = fmaxl (s, fabsl (x [c] - y [c])) ;
            if (id == M_CHEBYSHEV || s == 0) return s ;
            for (GrB_Index c = 0 ; c < k ; c++) s2 += powl (fabsl (x [c] - y [c]) / s, p) ;
            return s * powl (s2, 1.0L / p) ;
        case M_CANBERRA:
            for (GrB_Index c = 0 ; c < k ; c++)
            {
                long double den = fabsl (x [c]) + fabsl (y [c]) ;
                if (den > 0) s += fabsl (x [c] - y [c]) / den ;
            }
            return s ;
        case M_BRAYCURTIS:
            for (GrB_Index c = 0 ; c < k ; c++) { s += fabsl (x [c] - y [c]) ; s2 += fabsl (x [c] + y [c]) ; }
            return s2 > 0 ? s / s2 : s > 0 ? INFINITY : 0 ;
        case M_HAMMING:
            for (GrB_Index c = 0 ; c < k ; c++) s += (x [c] != y [c]) ;
            return k > 0 ? s / k : 0 ;
        case M_COSINE:
        case M_CORRELATION:
            *S = 1e-7 ;
            if (id == M_CORRELATION)
            {
                if (k == 0) return 0 ;
                for (GrB_Index c = 0 ; c < k ; c++) { mx += x [c] ; my += y [c] ; }
                mx /= k ; my /= k ;
            }
            for (GrB_Index c = 0 ; c < k ; c++)
            {
                nx += (x [c] - mx) * (x [c] - mx) ;
                ny += (y [c] - my) * (y [c] - my) ;
            }
            nx = sqrtl (nx) ; ny = sqrtl (ny) ;
            if (nx == 0 || ny == 0) return (nx == 0 && ny == 0) ? 0 : 1 ;
            // 1 - cos = |u - v|^2 / 2 for unit vectors: no cancellation
            for (GrB_Index c = 0 ; c < k ; c++)
            {
                long double d = (x [c] - mx) / nx - (y [c] - my) / ny ;
                s += d * d ;
            }
            return s / 2 ;
        case M_DOT:
            for (GrB_Index c = 0 ; c < k ; c++) { s += x [c] * y [c] ; *S += fabsl (x [c] * y [c]) ; }
            return s ;
        case M_JACCARD:
        case M_DICE:
        case M_RUSSELLRAO:
        case M_SOKALMICHENER:
        {
            long double inter = 0 ;
            for (GrB_Index c = 0 ; c < k ; c++)
            {
                inter += (x [c] != 0 && y [c] != 0) ;
                nx += (x [c] != 0) ;
                ny += (y [c] != 0) ;
            }
            if (id == M_JACCARD) return (nx + ny - inter > 0) ? 1 - inter / (nx + ny - inter) : 0 ;
            if (id == M_DICE) return (nx + ny > 0) ? 1 - 2 * inter / (nx + ny) : 0 ;
            if (id == M_SOKALMICHENER)
            {
                // R / (S + R): R = 2 (true-false + false-true), S = the rest
                long double r = 2 * (nx + ny - 2 * inter), sz = k - (nx + ny - 2 * inter) ;
                return k > 0 ? r / (sz + r) : 0 ;
            }
            return k > 0 ? (k - inter) / k : 0 ;
        }
        case M_HELLINGER:
            for (GrB_Index c = 0 ; c < k ; c++)
            {
                long double r = sqrtl (x [c]) + sqrtl (y [c]) ;
                if (r > 0) { long double d = (x [c] - y [c]) / r ; s += d * d ; }
            }
            return sqrtl (s / 2) ;
        case M_JENSEN_SHANNON:
            for (GrB_Index c = 0 ; c < k ; c++) s += js_term (x [c], y [c]) ;
            return sqrtl (s / 2) ;
        case M_KL_DIVERGENCE:
            for (GrB_Index c = 0 ; c < k ; c++) { long double t = kl_term (x [c], y [c]) ; s += t ; *S += fabsl (t) ; }
            return s ;
        default:
            return NAN ;
    }
}

//------------------------------------------------------------------------------
// the test's own arithmetic for unions and NAMMs
//------------------------------------------------------------------------------

// integers: two's complement in `bits`, sign-extended when signed
static uint64_t wrap (uint64_t v, int bits, bool sgn)
{
    if (bits >= 64) return v ;
    v &= (1ULL << bits) - 1 ;
    if (sgn && ((v >> (bits - 1)) & 1)) v |= ~((1ULL << bits) - 1) ;
    return v ;
}

static bool int_gt (uint64_t a, uint64_t b, bool sgn)
{
    return sgn ? (int64_t) a > (int64_t) b : a > b ;
}

// the operators every category evaluates alike (integers then wrap)
#define ARITHMETIC(x, y, r)                                                 \
    case OP_FIRST:  r = x ; break ;                                         \
    case OP_SECOND: r = y ; break ;                                         \
    case OP_PAIR:   r = 1 ; break ;                                         \
    case OP_PLUS:   r = x + y ; break ;                                     \
    case OP_MINUS:  r = x - y ; break ;                                     \
    case OP_RMINUS: r = y - x ; break ;                                     \
    case OP_TIMES:  r = x * y ; break ;
#define LOGICAL(x, y, r)                                                    \
    case OP_ISEQ:   r = (x == y) ; break ;                                  \
    case OP_LAND:   r = (x != 0 && y != 0) ; break ;                        \
    case OP_LOR:    r = (x != 0 || y != 0) ; break ;

static ra_num op_eval (ra_op op, ra_cat cat, int bits, ra_num a, ra_num b)
{
    ra_num z = { 0, 0, 0 } ;
    if (cat == RA_SINT || cat == RA_UINT || cat == RA_BOOL)
    {
        bool s = (cat == RA_SINT) ;
        uint64_t x = a.u, y = b.u, r = 0 ;
        switch (op)
        {
            ARITHMETIC (x, y, r)
            LOGICAL (x, y, r)
            case OP_MIN:    r = int_gt (x, y, s) ? y : x ; break ;
            case OP_MAX:    r = int_gt (x, y, s) ? x : y ; break ;
            case OP_ABSDIFF: r = int_gt (x, y, s) ? x - y : y - x ; break ;
            case OP_SQDIFF: r = (x - y) * (x - y) ; break ;
            default:        r = 0 ; break ;
        }
        z.u = wrap (r, cat == RA_BOOL ? 64 : bits, s) ;
        z.re = s ? (long double) (int64_t) z.u : (long double) z.u ;
        return z ;
    }
    if (cat == RA_CPLX)
    {
        long double complex x = a.re + _Complex_I * a.im, y = b.re + _Complex_I * b.im, r = 0 ;
        switch (op)
        {
            ARITHMETIC (x, y, r)
            case OP_MINUS_SQ: r = (x - y) * (x - y) ; break ;
            default:        r = NAN ; break ;
        }
        z.re = creall (r) ; z.im = cimagl (r) ;
        return z ;
    }
    long double x = a.re, y = b.re, r ;
    switch (op)
    {
        ARITHMETIC (x, y, r)
        LOGICAL (x, y, r)
        case OP_DIV:     r = x / y ; break ;
        case OP_RDIV:    r = y / x ; break ;
        case OP_MIN:     r = fminl (x, y) ; break ;
        case OP_MAX:     r = fmaxl (x, y) ; break ;
        case OP_ISNE:    r = (x != y) ; break ;
        case OP_ISGT:    r = (x > y) ; break ;
        case OP_ISLT:    r = (x < y) ; break ;
        case OP_ISGE:    r = (x >= y) ; break ;
        case OP_ISLE:    r = (x <= y) ; break ;
        case OP_POW:     r = powl (x, y) ; break ;
        case OP_HYPOT:   r = hypotl (x, y) ; break ;
        case OP_ABSDIFF: r = fabsl (x - y) ; break ;
        case OP_SQDIFF:  r = (x - y) * (x - y) ; break ;
        default:         r = NAN ; break ;
    }
    z.re = r ;
    return z ;
}

static ra_num monoid_identity (ra_op add, ra_cat cat, int bits)
{
    ra_num z = { 0, 0, 0 } ;
    bool s = (cat == RA_SINT) ;
    uint64_t top = (bits >= 64) ? ~0ULL : (1ULL << bits) - 1 ;
    switch (add)
    {
        case OP_TIMES: z.re = 1 ; z.u = 1 ; break ;
        case OP_MIN:   z.re = INFINITY ; z.u = s ? top >> 1 : top ; break ;
        case OP_MAX:   z.re = -INFINITY ; z.u = s ? wrap (~(top >> 1), bits, true) : 0 ; break ;
        default:       break ;
    }
    return z ;
}

// a value of type t (the identity of a NAMM, cast as GraphBLAS casts it)
static ra_num of_double (double v, ra_cat cat, int bits)
{
    ra_num z = { 0, 0, 0 } ;
    if (cat == RA_FP || cat == RA_CPLX) z.re = (bits == 32 || (cat == RA_CPLX && bits == 64)) ? (float) v : v ;
    else { z.u = wrap ((uint64_t) (int64_t) v, bits, cat == RA_SINT) ; z.re = (long double) (int64_t) z.u ; }
    return z ;
}

//------------------------------------------------------------------------------
// dense rows: an operand after its transpose, cast to the operator's type
//------------------------------------------------------------------------------

void ra_dense_get (ra_dense *D, GrB_Matrix X, bool tran, GrB_Type t)
{
    memset (D, 0, sizeof (*D)) ;
    GrB_Index nr, nc ;
    GXT_OK (GrB_Matrix_nrows (&nr, X)) ;
    GXT_OK (GrB_Matrix_ncols (&nc, X)) ;
    D->rows = tran ? nc : nr ;
    D->k = tran ? nr : nc ;
    ra_tinfo ti = ra_type (t) ;
    D->cat = ti.cat ;
    D->bits = ti.bits ;
    GrB_Matrix Y = NULL ;
    GXT_OK (GrB_Matrix_new (&Y, t, D->rows, D->k)) ;
    GXT_OK (GrB_Matrix_apply (Y, NULL, NULL, ti.identity, X, tran ? GrB_DESC_T0 : NULL)) ;
    ra_content c ;
    ra_content_get (&c, Y) ;
    GrB_Matrix_free (&Y) ;
    GrB_Index cells = D->rows * D->k + 1 ;
    D->present = calloc (cells, sizeof (bool)) ;
    D->v = calloc (cells, sizeof (ra_num)) ;
    D->finite = malloc ((D->rows + 1) * sizeof (bool)) ;
    assert_non_null (D->present) ; assert_non_null (D->v) ; assert_non_null (D->finite) ;
    for (GrB_Index i = 0 ; i < D->rows ; i++)
    {
        D->finite [i] = true ;
        for (GrB_Index q = c.p [i] ; q < c.p [i+1] ; q++)
        {
            ra_num *z = &D->v [i * D->k + c.j [q]] ;
            D->present [i * D->k + c.j [q]] = true ;
            z->re = ra_value (&c, q) ;
            z->im = ra_value_imag (&c, q) ;
            if (ti.cat != RA_FP && ti.cat != RA_CPLX) z->u = ra_bits (&c, q) ;
            if (!isfinite (z->re) || !isfinite (z->im)) D->finite [i] = false ;
            if (z->re < 0) D->any_negative = true ;
            D->any_nonfinite |= !D->finite [i] ;
        }
    }
    ra_content_free (&c) ;
}

void ra_dense_free (ra_dense *D)
{
    free (D->present) ; free (D->v) ; free (D->finite) ;
    memset (D, 0, sizeof (*D)) ;
}

//------------------------------------------------------------------------------
// the reference value of one pair
//------------------------------------------------------------------------------

static long double type_max (GrB_Type t)
{
    return (t == GrB_FP32 || t == GxB_FC32) ? FLT_MAX : DBL_MAX ;
}

ra_truth ra_truth_of (const ra_call *rc, const ra_dense *Ad, const ra_dense *Bd,
    GrB_Index i, GrB_Index j, long double *xa, long double *ya)
{
    ra_truth t ;
    memset (&t, 0, sizeof (t)) ;
    GrB_Index k = rc->k ;
    if (!Ad->finite [i] || !Bd->finite [j]) { t.skip = true ; return t ; }
    if (rc->kind == K_METRIC || rc->kind == K_MINKOWSKI)
    {
        for (GrB_Index c = 0 ; c < k ; c++)
        {
            xa [c] = Ad->v [i * k + c].re ;
            ya [c] = Bd->v [j * k + c].re ;
        }
        int id = (rc->kind == K_MINKOWSKI) ? M_MINKOWSKI : rc->metric ;
        t.z.re = metric_truth (id, rc->p, xa, ya, k, &t.S) ;
        // DOT and KL: terms past double's range (both backends and the
        // docs compute in double) leave no accuracy to ask for
        t.skip = (t.S > DBL_MAX) ;
        return t ;
    }
    // a union: (+)_{c<k} op (a~_c, b~_c), missing entries the identity
    ra_tinfo ti = ra_type (rc->stype) ;
    ra_num ex = of_double (rc->identity, Ad->cat, Ad->bits) ;
    ra_num acc = monoid_identity (rc->add, ti.cat, ti.bits) ;
    // (TIMES: the products of the terms' magnitudes above 1 and below 1,
    // which bound every partial product, whatever the order)
    long double big = type_max (rc->stype), grow = 1, shrink = 1 ;
    bool fp = (ti.cat == RA_FP || ti.cat == RA_CPLX), all_nan = (k > 0) ;
    for (GrB_Index c = 0 ; c < k ; c++)
    {
        ra_num x = Ad->present [i * k + c] ? Ad->v [i * k + c] : ex ;
        ra_num y = Bd->present [j * k + c] ? Bd->v [j * k + c] : ex ;
        ra_num term = op_eval (rc->op, ti.cat, ti.bits, x, y) ;
        acc = op_eval (rc->add, ti.cat, ti.bits, acc, term) ;
        long double mag = hypotl (term.re, term.im) ;
        if (rc->add == OP_PLUS) t.S += mag ;
        if (rc->add == OP_TIMES && mag > 1 && isfinite (mag)) grow *= mag ;
        if (rc->add == OP_TIMES && mag < 1 && mag != 0) shrink *= mag ;
        all_nan = all_nan && isnan (term.re) ;
    }
    // MIN or MAX of only NaN terms: the monoid's identity (fmin, fmax from
    // the identity) or NaN (from the first term, as SuiteSparse reduces)
    if (fp && all_nan && (rc->add == OP_MIN || rc->add == OP_MAX)) t.skip = true ;
    // a sum past the type's range, or a product that some order of its
    // terms takes past double's range (either way: a partial product that
    // overflows, or underflows to 0 and then meets inf), depends on the
    // order of evaluation: not valued
    if (fp && (t.S > big || grow > DBL_MAX / 1e10 || shrink < DBL_MIN * 1e10)) t.skip = true ;
    t.z = acc ;
    return t ;
}
