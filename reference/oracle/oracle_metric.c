// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// reference/oracle/oracle_metric.c: GXO_metric, every metric from its formula
//------------------------------------------------------------------------------

// Two stages, a block of rows of A at a time (GXO_metric_rows).  The
// GraphBLAS stage computes one raw sum per pair: union sums by the
// metrics' rewritten sums (oracle_sum.c: products and row sums, the pairs
// where they cancel, or are not finite, recomputed from their own terms),
// CORRELATION too, as the union sum of its standardised rows (standardise),
// MINKOWSKI as the sum of |x-y|^p (GXO_OP_POWDIFF), CHEBYSHEV by
// GXO_union_rows, intersection metrics (DOT, KL) and set metrics (patterns of nonzero values) by
// products with B transposed.  What does not depend on the block (B's side,
// A cut to its columns, the classes of the values, normalised or
// standardised rows, row sums) is prepared once.  The p-norms (EUCLIDEAN,
// MINKOWSKI, HELLINGER, JENSEN_SHANNON) and Bray-Curtis's sums are done
// again as scaled sums, a largest magnitude M and t = sum (a_c/M)^p, where
// the plain sum may have overflowed or underflowed, so that nothing is lost
// where the distance is representable (issue 15: Euclidean of 1e200
// entries, Minkowski with p = 1e5); CORRELATION's pairs whose difference
// cancels, from their centred terms (centred_pairs).  The finishing stage
// is a C loop applying the textbook formula, with its zero rules, to each
// raw value: the formulas of the metric definitions (issue 7,
// docs/metrics.md) can be read off finish_row().  A block of the result
// goes to the caller's visit before the next is made: verify mode compares
// it and lets it go (GXO_metric_compare), GXO_metric takes the one block of
// every row.

#include "oracle_internal.h"
#include <float.h>
#include <math.h>
#include <string.h>

// CORRELATION's pairs are differences S - K of its union sum S and the
// offsets' term K (standardise), trusted where the difference is at least
// 1 / GXO_CORR_CANCEL of the size its error is proportional to (corr_row):
// the error is then within twice the sums' own bound (GXO_METRIC_TAU).
// Otherwise, and for every pair of a row whose offset k alpha^2 exceeds
// GXO_CORR_OFFSET (the rounding of a_c = u_c + alpha, eps |alpha|, is then
// more than twice u_c's own, ||a|| = sqrt (1 + k alpha^2) against ||u|| =
// 1), the pair is done again from its centred terms.  Sparse rows have k
// alpha^2 <= |X| / k or so (fortunes: below 0.02), and a pair cancels where
// its rows are alike: about as many pairs as COSINE's sums take again.
#define GXO_CORR_CANCEL 2
#define GXO_CORR_OFFSET 3

//------------------------------------------------------------------------------
// names
//------------------------------------------------------------------------------

static const char *names [ ] =
{
    [GXO_EUCLIDEAN]      = "EUCLIDEAN",
    [GXO_SQEUCLIDEAN]    = "SQEUCLIDEAN",
    [GXO_COSINE]         = "COSINE",
    [GXO_CORRELATION]    = "CORRELATION",
    [GXO_DICE]           = "DICE",
    [GXO_DOT]            = "DOT",
    [GXO_HELLINGER]      = "HELLINGER",
    [GXO_JACCARD]        = "JACCARD",
    [GXO_RUSSELLRAO]     = "RUSSELLRAO",
    [GXO_KL_DIVERGENCE]  = "KL_DIVERGENCE",
    [GXO_CANBERRA]       = "CANBERRA",
    [GXO_CHEBYSHEV]      = "CHEBYSHEV",
    [GXO_HAMMING]        = "HAMMING",
    [GXO_JENSEN_SHANNON] = "JENSEN_SHANNON",
    [GXO_MANHATTAN]      = "MANHATTAN",
    [GXO_BRAYCURTIS]     = "BRAYCURTIS",
    [GXO_SOKALMICHENER]  = "SOKALMICHENER",
    [GXO_MINKOWSKI]      = "MINKOWSKI",
} ;

const char *GXO_metric_name (int q)
{
    return (q >= 0 && q < (int) (sizeof (names) / sizeof (names [0])))
        ? names [q] : NULL ;
}

GrB_Info GXO_metric_id (gxo_metric *id, const char *name)
{
    if (id == NULL || name == NULL) return (GrB_NULL_POINTER) ;
    for (size_t q = 0 ; q < sizeof (names) / sizeof (names [0]) ; q++)
    {
        if (strcmp (name, names [q]) == 0)
        {
            *id = (gxo_metric) q ;
            return (GrB_SUCCESS) ;
        }
    }
    return (GrB_INVALID_VALUE) ;
}

//------------------------------------------------------------------------------
// what one call works on
//------------------------------------------------------------------------------

// CORRELATION: a row's moments (standardise)
typedef struct
{
    double scale ;      // the power of two that brings max |x_c| into [1, 2)
    double mean, sd ;   // of the scaled row, over all k columns: its mean,
                        // and its centred norm ||x - mean||
    double alpha ;      // mean / sd
}
moments ;

typedef struct
{
    gxo_metric id ;
    double p ;              // MINKOWSKI
    bool power_held ;       // MINKOWSKI p != 2: GXO_power_hold (p) holds
    double tau ;            // the sums' GXO_METRIC_TAU (p < 1: less)
    GrB_Matrix A, B ;       // the operands, typecast, then FP64 (COSINE:
                            // their rows normalised)
    GrB_Index m, n, k ;
    GrB_BinaryOp op [2] ;   // the sums' operators (the sums refer to them)
    gxo_sum sum [2] ;       // the union sums: the metric's (BRAYCURTIS: its
    int nsum ;              // numerator, then its denominator)
    GrB_Semiring ring [2] ; // KL's semirings, of op [0] and op [1]
    gxo_prod prod [2] ;     // DOT, KL, the set metrics: their product, then
                            // DOT's and KL's scale (GXO_scale)
    double *ra, *rb ;       // set metrics: nonzero values per row of A, B
    bool *za, *zb ;         // COSINE, CORRELATION: rows that count as zero
    GrB_Matrix A0, B0 ;     // CORRELATION: the operands (FP64) before their
    moments *ma, *mb ;      // rows were standardised, their moments, and
    double *aa, *ab ;       // the moments' alpha, by row (rows_prepared)
    bool same ;             // the caller's A and B are one matrix
    bool no_tiny ;          // EUCLIDEAN, MINKOWSKI: every term is 0 or at
                            // least 2^-900 (no_tiny)
}
work ;

static void work_free (work *w)
{
    if (w->power_held) GXO_power_release ( ) ;
    for (int s = 0 ; s < 2 ; s++)
    {
        GXO_sum_free (&w->sum [s]) ;
        GXO_prod_free (&w->prod [s]) ;
        GrB_Semiring_free (&w->ring [s]) ;
        GrB_BinaryOp_free (&w->op [s]) ;
    }
    GrB_Matrix_free (&w->A) ;
    GrB_Matrix_free (&w->B) ;
    GrB_Matrix_free (&w->A0) ;
    GrB_Matrix_free (&w->B0) ;
    free (w->ma) ;
    free (w->mb) ;
    free (w->aa) ;
    free (w->ab) ;
    free (w->ra) ;
    free (w->rb) ;
    free (w->za) ;
    free (w->zb) ;
    memset (w, 0, sizeof (work)) ;
}

//------------------------------------------------------------------------------
// row transforms for COSINE and CORRELATION
//------------------------------------------------------------------------------

// Sums along a row are compensated (Neumaier): a row's sums have up to k
// terms, and a plain sum of k equal terms drifts by up to k/2 roundings.
typedef struct { double s, c ; } ksum ;

static void kadd (ksum *a, double x)
{
    double t = a->s + x ;
    a->c += (fabs (a->s) >= fabs (x)) ? (a->s - t) + x : (x - t) + a->s ;
    a->s = t ;
}

// A row transform works on the stored entries x [0..nx-1] of a row of k
// columns (every other entry 0) in place, and sets *zero where the row is
// to count as a zero row; mo, where not NULL, takes its moments (moments).
typedef void (*row_prep) (double *x, GrB_Index nx, GrB_Index k, bool *zero,
    moments *mo) ;

// COSINE: x / ||x||.  Scaled by max |x_c| first, so that the sum of squares
// can neither overflow nor underflow.  A zero row stays 0 and is flagged.
static void normalise (double *x, GrB_Index nx, GrB_Index k, bool *zero,
    moments *mo)
{
    double amax = 0 ;
    for (GrB_Index c = 0 ; c < nx ; c++) amax = fmax (amax, fabs (x [c])) ;
    *zero = (amax == 0) ;
    if (*zero) return ;
    ksum ss = { 0, 0 } ;
    for (GrB_Index c = 0 ; c < nx ; c++)
    {
        x [c] /= amax ;
        kadd (&ss, x [c] * x [c]) ;
    }
    double norm = sqrt (ss.s + ss.c) ;
    for (GrB_Index c = 0 ; c < nx ; c++) x [c] /= norm ;
}

// the sum over all k columns of (x_c - mean)^2, the k - nx missing entries
// 0, and *mean: the corrected two-pass mean (a pass over the residuals
// removes what rounding the mean itself left), compensated sums
static double centred_ss (const double *x, GrB_Index nx, GrB_Index k,
    double *mean)
{
    ksum s = { 0, 0 }, r = { 0, 0 }, q = { 0, 0 } ;
    const double missing = (double) (k - nx) ;
    for (GrB_Index c = 0 ; c < nx ; c++) kadd (&s, x [c]) ;
    double m = (s.s + s.c) / (double) k ;
    for (GrB_Index c = 0 ; c < nx ; c++) kadd (&r, x [c] - m) ;
    kadd (&r, -missing * m) ;
    m += (r.s + r.c) / (double) k ;
    for (GrB_Index c = 0 ; c < nx ; c++) kadd (&q, (x [c] - m) * (x [c] - m)) ;
    kadd (&q, missing * m * m) ;
    *mean = m ;
    return (q.s + q.c) ;
}

// CORRELATION: the centred unit row is u_c = (scale x_c - mean) / sd over
// all k columns, -alpha where x has no entry.  Its stored entries become
// a_c = scale x_c / sd = u_c + alpha, so that
//     |u - v|^2 = sum_c (a_c - b_c)^2 - k (alpha - beta)^2,
// the sum a union sum of the sparse rows a and b (sum (a - b - (alpha -
// beta))^2, expanded: sum_c (a_c - b_c) = k (alpha - beta)).  The power of
// two first is exact, but for entries 2^1022 times smaller, which are
// negligible (correlation does not change): the sums then neither overflow
// (entries near DBL_MAX) nor lose digits to subnormals (entries near
// 1e-310).  A constant row (an empty one too) has centred norm exactly 0,
// but its computed mean may differ from the constant in the last bit, so
// the row itself is tested.
static void standardise (double *x, GrB_Index nx, GrB_Index k, bool *zero,
    moments *mo)
{
    double lo = 0, hi = 0, amax = 0 ;
    if (nx == k && nx > 0) lo = hi = x [0] ;    // else the row holds a 0
    for (GrB_Index c = 0 ; c < nx ; c++)
    {
        lo = fmin (lo, x [c]) ;
        hi = fmax (hi, x [c]) ;
        amax = fmax (amax, fabs (x [c])) ;
    }
    *mo = (moments) { 1, 0, 1, 0 } ;
    *zero = (lo == hi) ;
    if (!*zero)
    {
        int e = -ilogb (amax) ;
        mo->scale = ldexp (1.0, (e < 1023) ? e : 1023) ;
        for (GrB_Index c = 0 ; c < nx ; c++) x [c] *= mo->scale ;
        double ss = centred_ss (x, nx, k, &mo->mean) ;
        *zero = !(ss > 0) ;
        mo->sd = sqrt (ss) ;
        mo->alpha = mo->mean / mo->sd ;
    }
    if (*zero)
    {
        *mo = (moments) { 1, 0, 1, 0 } ;
        for (GrB_Index c = 0 ; c < nx ; c++) x [c] = 0 ;
        return ;
    }
    for (GrB_Index c = 0 ; c < nx ; c++) x [c] /= mo->sd ;
}

// *N = the rows of M (FP64), each transformed by prep, zero [i] its flag
// and mo [i] (where mo is not NULL) its moments
#undef  FREE_ALL
#define FREE_ALL free (I) ; free (J) ; free (X) ; free (Y) ; free (P) ;     \
    free (start) ;

static GrB_Info prep_sparse (GrB_Matrix *N, bool *zero, moments *mo,
    row_prep prep, GrB_Matrix M)
{
    GrB_Index *I = NULL, *J = NULL, *P = NULL, *start = NULL ;
    double *X = NULL, *Y = NULL ;
    GrB_Index nrows, ncols, nvals ;
    TRY (GrB_Matrix_nrows (&nrows, M)) ;
    TRY (GrB_Matrix_ncols (&ncols, M)) ;
    TRY (GrB_Matrix_nvals (&nvals, M)) ;
    // (each array but start is written whole before it is read)
    I = malloc ((nvals + 1) * sizeof (GrB_Index)) ;
    J = malloc ((nvals + 1) * sizeof (GrB_Index)) ;
    P = malloc ((nvals + 1) * sizeof (GrB_Index)) ;
    X = malloc ((nvals + 1) * sizeof (double)) ;
    Y = malloc ((nvals + 1) * sizeof (double)) ;
    start = calloc (nrows + 2, sizeof (GrB_Index)) ;
    CHECK (I != NULL && J != NULL && P != NULL && X != NULL && Y != NULL &&
        start != NULL, GrB_OUT_OF_MEMORY) ;
    TRY (GrB_Matrix_extractTuples_FP64 (I, J, X, &nvals, M)) ;
    // the tuples come in no promised order: gathered by row (Y), so that
    // each row is one segment, P [q] its place there
    for (GrB_Index q = 0 ; q < nvals ; q++) start [I [q] + 2]++ ;
    for (GrB_Index i = 0 ; i < nrows ; i++) start [i + 2] += start [i + 1] ;
    for (GrB_Index q = 0 ; q < nvals ; q++)
    {
        P [q] = start [I [q] + 1]++ ;
        Y [P [q]] = X [q] ;
    }
    for (GrB_Index i = 0 ; i < nrows ; i++)
    {
        prep (Y + start [i], start [i + 1] - start [i], ncols, &zero [i],
            (mo != NULL) ? &mo [i] : NULL) ;
    }
    for (GrB_Index q = 0 ; q < nvals ; q++) X [q] = Y [P [q]] ;
    TRY (GrB_Matrix_new (N, GrB_FP64, nrows, ncols)) ;
    TRY (GrB_Matrix_build_FP64 (*N, I, J, X, nvals, GrB_FIRST_FP64)) ;
    FREE_ALL ;
    return (GrB_SUCCESS) ;
}

// a p-norm from its scaled sum: M t^(1/p) (M = inf: a magnitude overflowed).
// p = 2 by sqrt, correctly rounded, where pow took a ninth of
// JENSEN_SHANNON's reference on 400 rows of fortunes (once a pair)
static double pnorm (double M, double t, double p)
{
    double r = (p == 2) ? sqrt (t) : pow (t, 1 / p) ;
    return ((M > 0 && M <= DBL_MAX) ? M * r : M) ;
}

// the distance of the p-norm metrics from a scaled sum M, t
static double norm_value (const work *w, double M, double t)
{
    switch (w->id)
    {
        case GXO_HELLINGER :            // ||sqrt x - sqrt y|| / sqrt 2
        case GXO_JENSEN_SHANNON :       // sqrt (sum / 2)
            return (pnorm (M, 0.5 * t, 2)) ;
        case GXO_MINKOWSKI :
            return (pnorm (M, t, w->p)) ;
        default :                       // EUCLIDEAN
            return (pnorm (M, t, 2)) ;
    }
}

// a negative entry is outside the domain of HELLINGER, JENSEN_SHANNON, KL
static GrB_Info check_nonnegative (GrB_Matrix A)
{
    double lo ;     // +inf if A has no entries
    GrB_Info info = GrB_Matrix_reduce_FP64 (&lo, NULL, GrB_MIN_MONOID_FP64, A,
        NULL) ;
    if (info != GrB_SUCCESS) return (info) ;
    return ((lo < 0) ? GrB_INVALID_VALUE : GrB_SUCCESS) ;
}

bool GXO_metric_fast (const char *metric, double p)
{
    gxo_metric id ;
    if (GXO_metric_id (&id, metric) != GrB_SUCCESS) return (false) ;
    return (id != GXO_CHEBYSHEV && !(id == GXO_MINKOWSKI && isinf (p))) ;
}

//------------------------------------------------------------------------------
// what is prepared once: the sums and products of every row of A
//------------------------------------------------------------------------------

#undef  FREE_ALL
#define FREE_ALL ;

// w->sum [s] = the rewritten union sum of the oracle's operator code (its
// terms >= 0, f(0,0) = 0) over w->A and w->B
static GrB_Info sum_of (work *w, int s, gxo_opcode code)
{
    gxo_corr corr = { 0 } ;
    TRY (GXO_op_new (&w->op [s], code)) ;
    TRY (GXO_corr_new (&corr, code)) ;
    TRY (GXO_sum_new (&w->sum [s], w->op [s], &corr, w->A, w->B, w->tau)) ;
    // the p-norms' pairs to do again are done once, as scaled sums
    // (finished: a NaN sum is out of range)
    w->sum [s].defer = (w->id == GXO_EUCLIDEAN || w->id == GXO_HELLINGER ||
        w->id == GXO_JENSEN_SHANNON || w->id == GXO_MINKOWSKI) ;
    w->nsum = s + 1 ;
    return (GrB_SUCCESS) ;
}

// w->ring [s] = PLUS with the oracle's operator code; w->prod [s] = its
// product of A and B (an intersection: 0 where no column is shared)
static GrB_Info ring_product (work *w, int s, gxo_opcode code, GrB_Matrix A,
    GrB_Matrix B)
{
    TRY (GXO_op_new (&w->op [s], code)) ;
    TRY (GrB_Semiring_new (&w->ring [s], GrB_PLUS_MONOID_FP64, w->op [s])) ;
    TRY (GXO_prod_user (&w->prod [s], w->ring [s], A, B)) ;
    return (GrB_SUCCESS) ;
}

// set metrics: the patterns of nonzero VALUE (an explicit zero is not in
// the set) as ones, their product (|X and Y| per pair) and their row
// counts (|X|, |Y|: sums of ones, exact integers in double)
#undef  FREE_ALL
#define FREE_ALL GrB_Matrix_free (&PA) ; GrB_Matrix_free (&PB) ;

static GrB_Info set_counts (work *w)
{
    GrB_Matrix PA = NULL, PB = NULL ;
    TRY (GrB_Matrix_new (&PA, GrB_FP64, w->m, w->k)) ;
    TRY (GrB_Matrix_new (&PB, GrB_FP64, w->n, w->k)) ;
    TRY (GrB_Matrix_select_FP64 (PA, NULL, NULL, GrB_VALUENE_FP64, w->A, 0,
        NULL)) ;
    TRY (GrB_Matrix_select_FP64 (PB, NULL, NULL, GrB_VALUENE_FP64, w->B, 0,
        NULL)) ;
    TRY (GrB_Matrix_apply (PA, NULL, NULL, GxB_ONE_FP64, PA, NULL)) ;
    TRY (GrB_Matrix_apply (PB, NULL, NULL, GxB_ONE_FP64, PB, NULL)) ;
    TRY (GXO_prod_new (&w->prod [0], GrB_PLUS_TIMES_SEMIRING_FP64, PA, PB)) ;
    TRY (GXO_row_sums (&w->ra, PA)) ;
    TRY (GXO_row_sums (&w->rb, PB)) ;
    FREE_ALL ;
    return (GrB_SUCCESS) ;
}

// *one = M has entries of one sign only (0 either way; a NaN is none)
#undef  FREE_ALL
#define FREE_ALL ;

static GrB_Info one_sign (bool *one, GrB_Matrix M)
{
    double lo, hi ;     // +inf and -inf where M has no entries
    TRY (GrB_Matrix_reduce_FP64 (&lo, NULL, GrB_MIN_MONOID_FP64, M, NULL)) ;
    TRY (GrB_Matrix_reduce_FP64 (&hi, NULL, GrB_MAX_MONOID_FP64, M, NULL)) ;
    *one = (lo >= 0 || hi <= 0) ;
    return (GrB_SUCCESS) ;
}

// DOT's scale, sum_c |a_c| |b_c|.  Where A and B each have entries of one
// sign, every product a_c b_c has one sign, so the scale is |DOT| exactly
// (|a| |b| = |a b|, exactly), which adds nothing to the tolerance max
// (|ref|, S): no product then.
#undef  FREE_ALL
#define FREE_ALL GrB_Matrix_free (&Aa) ; GrB_Matrix_free (&Ba) ;

static GrB_Info dot_scale (work *w)
{
    GrB_Matrix Aa = NULL, Ba = NULL ;
    bool a1, b1 ;
    TRY (one_sign (&a1, w->A)) ;
    TRY (one_sign (&b1, w->B)) ;
    if (a1 && b1) return (GrB_SUCCESS) ;
    TRY (GXO_applied (&Aa, GrB_ABS_FP64, w->A)) ;
    TRY (GXO_applied (&Ba, GrB_ABS_FP64, w->B)) ;
    TRY (GXO_prod_new (&w->prod [1], GrB_PLUS_TIMES_SEMIRING_FP64, Aa, Ba)) ;
    FREE_ALL ;
    return (GrB_SUCCESS) ;
}

// COSINE: the rows of w->A and w->B normalised (still sparse: a missing
// entry is 0 before and after); CORRELATION: standardised (a_c = u_c +
// alpha), the operands and the rows' moments kept for the pairs done again
// from their centred terms.  Their zero rows flagged.
#undef  FREE_ALL
#define FREE_ALL GrB_Matrix_free (&N) ;

static GrB_Info rows_prepared (work *w)
{
    GrB_Matrix N = NULL ;
    bool corr = (w->id == GXO_CORRELATION) ;
    row_prep prep = corr ? standardise : normalise ;
    if (corr)
    {
        w->ma = malloc ((w->m + 1) * sizeof (moments)) ;
        w->mb = malloc ((w->n + 1) * sizeof (moments)) ;
        w->aa = malloc ((w->m + 1) * sizeof (double)) ;
        w->ab = malloc ((w->n + 1) * sizeof (double)) ;
        CHECK (w->ma != NULL && w->mb != NULL && w->aa != NULL &&
            w->ab != NULL, GrB_OUT_OF_MEMORY) ;
    }
    TRY (prep_sparse (&N, w->za, w->ma, prep, w->A)) ;
    if (corr) w->A0 = w->A ; else GrB_Matrix_free (&w->A) ;
    w->A = N ;
    N = NULL ;
    TRY (prep_sparse (&N, w->zb, w->mb, prep, w->B)) ;
    if (corr) w->B0 = w->B ; else GrB_Matrix_free (&w->B) ;
    w->B = N ;
    // alpha by row, NaN where the row's offset k alpha^2 is large
    // (GXO_CORR_OFFSET)
    double k = (double) w->k ;
    for (GrB_Index i = 0 ; corr && i < w->m ; i++)
    {
        double a = w->ma [i].alpha ;
        w->aa [i] = (k * a * a > GXO_CORR_OFFSET) ? NAN : a ;
    }
    for (GrB_Index j = 0 ; corr && j < w->n ; j++)
    {
        double b = w->mb [j].alpha ;
        w->ab [j] = (k * b * b > GXO_CORR_OFFSET) ? NAN : b ;
    }
    return (GrB_SUCCESS) ;
}

// what each metric computes once for every block (scale: DOT's and KL's
// scale too)
#undef  FREE_ALL
#define FREE_ALL ;

static GrB_Info prepare (work *w, bool scale)
{
    switch (w->id)
    {
        case GXO_MANHATTAN :      return (sum_of (w, 0, GXO_OP_ABSDIFF)) ;
        case GXO_CANBERRA :       return (sum_of (w, 0, GXO_OP_CANBERRA)) ;
        case GXO_HAMMING :        return (sum_of (w, 0, GXO_OP_NE)) ;
        case GXO_HELLINGER :      return (sum_of (w, 0, GXO_OP_HELLSQ)) ;
        case GXO_JENSEN_SHANNON : return (sum_of (w, 0, GXO_OP_JSSQ)) ;
        case GXO_SQEUCLIDEAN :
        case GXO_EUCLIDEAN :
            // (x-y)^2 overflows only where the result does (SQEUCLIDEAN)
            return (sum_of (w, 0, GXO_OP_SQDIFF)) ;
        case GXO_MINKOWSKI :
            // (the plain sum of squares is used when p = 2)
            if (w->p == 2) return (sum_of (w, 0, GXO_OP_SQDIFF)) ;
            GXO_power_hold (w->p) ;
            w->power_held = true ;
            return (sum_of (w, 0, GXO_OP_POWDIFF)) ;
        case GXO_COSINE :
        case GXO_CORRELATION :
            TRY (rows_prepared (w)) ;
            return (sum_of (w, 0, GXO_OP_SQDIFF)) ;
        case GXO_BRAYCURTIS :
            TRY (sum_of (w, 0, GXO_OP_ABSDIFF)) ;
            return (sum_of (w, 1, GXO_OP_ABSSUM)) ;
        case GXO_DOT :
            TRY (GXO_prod_new (&w->prod [0], GrB_PLUS_TIMES_SEMIRING_FP64,
                w->A, w->B)) ;
            return (scale ? dot_scale (w) : GrB_SUCCESS) ;
        case GXO_KL_DIVERGENCE :
            // x ln(x/y) is 0 unless both are present (and positive); its
            // scale, sum over those of |x ln(x/y)|
            TRY (ring_product (w, 0, GXO_OP_KL, w->A, w->B)) ;
            return (scale ? ring_product (w, 1, GXO_OP_ABSKL, w->A, w->B)
                          : GrB_SUCCESS) ;
        case GXO_JACCARD :
        case GXO_DICE :
        case GXO_RUSSELLRAO :
        case GXO_SOKALMICHENER :
            return (set_counts (w)) ;
        default :       // CHEBYSHEV: by its union (chebyshev)
            return (GrB_SUCCESS) ;
    }
}

// w->no_tiny: whether every term |x - y|^p of a p-norm (x, y values of A
// and B or a missing entry's 0) is 0 or at least 2^-900, so that a sum of
// them lost no digits to underflow and a sum of 0 is exact: the pairs of
// such a sum need not be done again (finished), which in a square are at
// least its diagonal.  Two distinct doubles of magnitude lo or more differ
// by lo 2^-53 or more (the spacing of doubles at lo), so the least nonzero
// term is (lo 2^-53)^p, lo the least magnitude of A's and B's values (an
// explicit 0 makes lo 0: the test fails, and the pairs are done again).
#undef  FREE_ALL
#define FREE_ALL GrB_Matrix_free (&T) ;

static GrB_Info least_magnitude (double *lo, GrB_Matrix M)
{
    GrB_Matrix T = NULL ;
    GrB_Index nrows, ncols ;
    TRY (GrB_Matrix_nrows (&nrows, M)) ;
    TRY (GrB_Matrix_ncols (&ncols, M)) ;
    TRY (GrB_Matrix_new (&T, GrB_FP64, nrows, ncols)) ;
    TRY (GrB_Matrix_apply (T, NULL, NULL, GrB_ABS_FP64, M, NULL)) ;
    TRY (GrB_Matrix_reduce_FP64 (lo, NULL, GrB_MIN_MONOID_FP64, T, NULL)) ;
    FREE_ALL ;
    return (GrB_SUCCESS) ;
}

#undef  FREE_ALL
#define FREE_ALL ;

static GrB_Info no_tiny (work *w)
{
    double la, lb = INFINITY ;
    double p = (w->id == GXO_MINKOWSKI) ? w->p : 2 ;
    w->no_tiny = false ;
    if (w->id != GXO_EUCLIDEAN && w->id != GXO_MINKOWSKI) return (GrB_SUCCESS) ;
    TRY (least_magnitude (&la, w->A)) ;
    if (!w->same) TRY (least_magnitude (&lb, w->B)) ;
    double lo = fmin (la, lb) ;
    w->no_tiny = (lo > 0 && p * (log2 (lo) - 53) >= -900) ;
    return (GrB_SUCCESS) ;
}

//------------------------------------------------------------------------------
// the GraphBLAS stage of one block: rows i0 .. i0 + mb - 1 of A
//------------------------------------------------------------------------------

// one block: its rows of A, and its raw values in C and C2 (mb-by-n full
// FP64 matrices of the caller's, overwritten)
typedef struct
{
    GrB_Index i0, mb ;
    GrB_Matrix Ab ;                 // rows i0 .. of A, where needed
    GrB_Matrix C, C2 ;
}
block ;

// *Ab = rows i0 .. i0 + mb - 1 of w->A, made once a block
static GrB_Info block_rows (block *b, const work *w)
{
    if (b->Ab != NULL) return (GrB_SUCCESS) ;
    return (GXO_rows_of (&b->Ab, w->A, b->i0, b->mb)) ;
}

// CHEBYSHEV: b->C = its MAX union (GXO_union_rows: by three products where
// every pair leaves a column out; k = 0 keeps the 0 it holds, not MAX's
// -inf)
#undef  FREE_ALL
#define FREE_ALL GrB_BinaryOp_free (&op) ; GrB_Matrix_free (&D) ;

static GrB_Info chebyshev (block *b, const work *w)
{
    GrB_BinaryOp op = NULL ;
    GrB_Matrix D = NULL ;
    TRY (GXO_full_zero (b->C)) ;
    if (w->k == 0) return (GrB_SUCCESS) ;
    TRY (block_rows (b, w)) ;
    TRY (GXO_op_new (&op, GXO_OP_ABSDIFF)) ;
    TRY (GXO_union_rows (&D, GrB_MAX_MONOID_FP64, op, 0, b->Ab, w->B)) ;
    TRY (GXO_full_copy (b->C, D)) ;
    FREE_ALL ;
    return (GrB_SUCCESS) ;
}

// the raw values of the block (the caller's b->C, b->C2, overwritten)
#undef  FREE_ALL
#define FREE_ALL ;

static GrB_Info raw (block *b, const work *w)
{
    switch (w->id)
    {
        case GXO_CHEBYSHEV :
            return (chebyshev (b, w)) ;
        case GXO_DOT :
        case GXO_KL_DIVERGENCE :
        case GXO_JACCARD :
        case GXO_DICE :
        case GXO_RUSSELLRAO :
        case GXO_SOKALMICHENER :
            TRY (GXO_full_zero (b->C)) ;
            return (GXO_prod_rows (&w->prod [0], b->C, b->i0)) ;
        default :
            break ;
    }
    // the union sums
    TRY (GXO_sum_rows (&w->sum [0], b->C, b->i0)) ;
    if (w->nsum > 1) TRY (GXO_sum_rows (&w->sum [1], b->C2, b->i0)) ;
    return (GrB_SUCCESS) ;
}

//------------------------------------------------------------------------------
// the pairs done again as scaled sums
//------------------------------------------------------------------------------

// a list of pairs of a block (rows of the block), and two scaled sums of
// each (M, t; BRAYCURTIS: M2, t2 of its denominator)
typedef struct
{
    GrB_Index *I, *J, np ;
    double *M, *t, *M2, *t2 ;
}
pairs ;

static void pairs_free (pairs *P)
{
    free (P->I) ; free (P->J) ;
    free (P->M) ; free (P->t) ;
    free (P->M2) ; free (P->t2) ;
    memset (P, 0, sizeof (pairs)) ;
}

// P = the pairs of the block that flag marks (GXO_flagged), with room for
// their scaled sums
#undef  FREE_ALL
#define FREE_ALL pairs_free (P) ;

static GrB_Info pair_list (pairs *P, gxo_flag flag, const double *x,
    const double *y, double c, GrB_Index mb, GrB_Index n)
{
    TRY (GXO_flagged (&P->I, &P->J, &P->np, flag, x, y, NULL, NULL, c, mb,
        n)) ;
    GrB_Index np = P->np ;
    P->M = calloc (np + 1, sizeof (double)) ;
    P->t = calloc (np + 1, sizeof (double)) ;
    P->M2 = calloc (np + 1, sizeof (double)) ;
    P->t2 = calloc (np + 1, sizeof (double)) ;
    CHECK (P->M != NULL && P->t != NULL && P->M2 != NULL && P->t2 != NULL,
        GrB_OUT_OF_MEMORY) ;
    return (GrB_SUCCESS) ;
}

// M [q], t [q]: the scaled sums of a_c = op (x~_c, y~_c) >= 0 over every
// column of the listed pair q, sum_c a_c^p = M^p t (0 and 0 where k = 0)
#undef  FREE_ALL
#define FREE_ALL                                                            \
    GrB_BinaryOp_free (&op) ; GrB_Matrix_free (&R) ; GrB_Matrix_free (&R2) ;\
    free (I) ; free (J) ; free (I2) ; free (J2) ;

static GrB_Info scaled (double *M, double *t, const pairs *P, block *b,
    const work *w, gxo_opcode code, double p)
{
    GrB_BinaryOp op = NULL ;
    GrB_Matrix R = NULL, R2 = NULL ;
    GrB_Index *I = NULL, *J = NULL, *I2 = NULL, *J2 = NULL, nr = 0 ;
    if (P->np == 0 || w->k == 0) return (GrB_SUCCESS) ;
    TRY (block_rows (b, w)) ;
    TRY (GXO_op_new (&op, code)) ;
    TRY (GrB_Matrix_new (&R, GrB_FP64, b->mb, w->n)) ;
    TRY (GrB_Matrix_new (&R2, GrB_FP64, b->mb, w->n)) ;
    gxo_side sa = { b->Ab, GrB_FP64, 0 } ;
    gxo_side sb = { w->B, GrB_FP64, 0 } ;
    gxo_product prod = { NULL, op, p, R2 } ;
    TRY (GXO_pairs_at (R, &sa, &sb, &prod, P->I, P->J, P->np)) ;
    // R and R2 hold the listed pairs, which come out in row order, as
    // listed (checked)
    TRY (GrB_Matrix_nvals (&nr, R)) ;
    CHECK (nr == P->np, GrB_PANIC) ;
    I = calloc (nr + 1, sizeof (GrB_Index)) ;
    J = calloc (nr + 1, sizeof (GrB_Index)) ;
    I2 = calloc (nr + 1, sizeof (GrB_Index)) ;
    J2 = calloc (nr + 1, sizeof (GrB_Index)) ;
    CHECK (I != NULL && J != NULL && I2 != NULL && J2 != NULL,
        GrB_OUT_OF_MEMORY) ;
    TRY (GrB_Matrix_extractTuples_FP64 (I, J, M, &nr, R)) ;
    TRY (GrB_Matrix_extractTuples_FP64 (I2, J2, t, &nr, R2)) ;
    size_t bytes = nr * sizeof (GrB_Index) ;
    CHECK (memcmp (I, P->I, bytes) == 0 && memcmp (J, P->J, bytes) == 0 &&
        memcmp (I2, P->I, bytes) == 0 && memcmp (J2, P->J, bytes) == 0,
        GrB_PANIC) ;
    FREE_ALL ;
    return (GrB_SUCCESS) ;
}

//------------------------------------------------------------------------------
// CORRELATION: the pairs done again from their centred terms
//------------------------------------------------------------------------------

// A row of stacked rows of an operand (A0 (L [q], :)) centred as dense
// completion centres it, u_c = (scale x_c - mean) / sd with the moments of
// the row L [q]: the stored entries of *R transformed in place
#undef  FREE_ALL
#define FREE_ALL free (I) ; free (J) ; free (X) ;

static GrB_Info centred_rows (GrB_Matrix *R, GrB_Matrix M, const GrB_Index *L,
    GrB_Index np, GrB_Index k, const moments *mo)
{
    GrB_Index *I = NULL, *J = NULL, nv ;
    double *X = NULL ;
    TRY (GrB_Matrix_new (R, GrB_FP64, np, k)) ;
    TRY (GrB_Matrix_extract (*R, NULL, NULL, M, L, np, GrB_ALL, k, NULL)) ;
    TRY (GrB_Matrix_nvals (&nv, *R)) ;
    I = malloc ((nv + 1) * sizeof (GrB_Index)) ;
    J = malloc ((nv + 1) * sizeof (GrB_Index)) ;
    X = malloc ((nv + 1) * sizeof (double)) ;
    CHECK (I != NULL && J != NULL && X != NULL, GrB_OUT_OF_MEMORY) ;
    TRY (GrB_Matrix_extractTuples_FP64 (I, J, X, &nv, *R)) ;
    for (GrB_Index t = 0 ; t < nv ; t++)
    {
        const moments *r = &mo [L [I [t]]] ;
        X [t] = (X [t] * r->scale - r->mean) / r->sd ;
    }
    TRY (GrB_Matrix_clear (*R)) ;
    TRY (GrB_Matrix_build_FP64 (*R, I, J, X, nv, GrB_FIRST_FP64)) ;
    FREE_ALL ;
    return (GrB_SUCCESS) ;
}

// acc [I [t]] += (X [t] - shift [I [t]])^2 over the tuples of T (shift
// NULL: 0), cnt [I [t]]++
#undef  FREE_ALL
#define FREE_ALL free (I) ; free (X) ;

static GrB_Info add_squares (ksum *acc, GrB_Index *cnt, GrB_Matrix T,
    const double *shift)
{
    GrB_Index *I = NULL, nv ;
    double *X = NULL ;
    TRY (GrB_Matrix_nvals (&nv, T)) ;
    I = malloc ((nv + 1) * sizeof (GrB_Index)) ;
    X = malloc ((nv + 1) * sizeof (double)) ;
    CHECK (I != NULL && X != NULL, GrB_OUT_OF_MEMORY) ;
    TRY (GrB_Matrix_extractTuples_FP64 (I, NULL, X, &nv, T)) ;
    for (GrB_Index t = 0 ; t < nv ; t++)
    {
        double d = X [t] - ((shift != NULL) ? shift [I [t]] : 0) ;
        kadd (&acc [I [t]], d * d) ;
        cnt [I [t]]++ ;
    }
    FREE_ALL ;
    return (GrB_SUCCESS) ;
}

// x2 [q] = |u - v|^2 of the listed pairs from their centred terms, each
// formed as dense completion forms it (a missing entry's is -mean / sd),
// over the union of the pair's columns: the stacked rows U = A0 (I, :),
// V = B0 (J, :) centred, then the columns both hold (U - V), U's alone
// (u_c - v_missing) and V's alone (u_missing - v_c), and the k - |U|
// columns that neither holds, (u_missing - v_missing)^2 each.
// O(sum of the pairs' row lengths) and a fixed number of GraphBLAS calls.
#undef  FREE_ALL
#define FREE_ALL                                                            \
    GrB_Matrix_free (&U) ; GrB_Matrix_free (&V) ; GrB_Matrix_free (&T) ;    \
    free (L) ; free (um) ; free (vm) ; free (acc) ; free (cnt) ;

static GrB_Info centred_pairs (double *x2, const pairs *P, const block *b,
    const work *w)
{
    GrB_Matrix U = NULL, V = NULL, T = NULL ;
    GrB_Index *L = NULL, *cnt = NULL, np = P->np ;
    double *um = NULL, *vm = NULL ;
    ksum *acc = NULL ;
    L = malloc ((np + 1) * sizeof (GrB_Index)) ;
    um = malloc ((np + 1) * sizeof (double)) ;
    vm = malloc ((np + 1) * sizeof (double)) ;
    acc = calloc (np + 1, sizeof (ksum)) ;
    cnt = calloc (np + 1, sizeof (GrB_Index)) ;
    CHECK (L != NULL && um != NULL && vm != NULL && acc != NULL &&
        cnt != NULL, GrB_OUT_OF_MEMORY) ;
    for (GrB_Index q = 0 ; q < np ; q++)
    {
        L [q] = b->i0 + P->I [q] ;
        um [q] = (0 - w->ma [L [q]].mean) / w->ma [L [q]].sd ;
        vm [q] = (0 - w->mb [P->J [q]].mean) / w->mb [P->J [q]].sd ;
    }
    TRY (centred_rows (&U, w->A0, L, np, w->k, w->ma)) ;
    TRY (centred_rows (&V, w->B0, P->J, np, w->k, w->mb)) ;
    TRY (GrB_Matrix_new (&T, GrB_FP64, np, w->k)) ;
    TRY (GrB_Matrix_eWiseMult_BinaryOp (T, NULL, NULL, GrB_MINUS_FP64, U, V,
        NULL)) ;
    TRY (add_squares (acc, cnt, T, NULL)) ;
    TRY (GrB_Matrix_clear (T)) ;
    TRY (GrB_Matrix_apply (T, V, NULL, GrB_IDENTITY_FP64, U, GrB_DESC_SC)) ;
    TRY (add_squares (acc, cnt, T, vm)) ;
    TRY (GrB_Matrix_clear (T)) ;
    TRY (GrB_Matrix_apply (T, U, NULL, GrB_IDENTITY_FP64, V, GrB_DESC_SC)) ;
    // (u_missing - v_c)^2 = (v_c - u_missing)^2
    TRY (add_squares (acc, cnt, T, um)) ;
    for (GrB_Index q = 0 ; q < np ; q++)
    {
        double d = um [q] - vm [q] ;
        kadd (&acc [q], (double) (w->k - cnt [q]) * (d * d)) ;
        x2 [q] = acc [q].s + acc [q].c ;
    }
    FREE_ALL ;
    return (GrB_SUCCESS) ;
}

// COSINE's and CORRELATION's distance d of a pair, by the zero rules
// where row i or j counts as a zero row (zi, zj)
static inline double zero_rule (bool zi, bool zj, double d)
{
    return ((zi && zj) ? 0 : (zi || zj) ? 1 : d) ;
}

// CORRELATION, row i of a block, finished: its raw sums S = sum (a - b)^2
// become d = |u - v|^2 / 2 = (S - k (alpha - beta)^2) / 2, where d is at
// least 1 / GXO_CORR_CANCEL of the size its error is proportional to: S / 2
// (the sum's own bound, GXO_METRIC_TAU) and k |alpha - beta| (|alpha| +
// |beta|) / 2 (the rounding of alpha - beta); elsewhere NaN, for the pair
// to be done from its centred terms (as is every pair of a row whose alpha
// is NaN, rows_prepared).  The zero rules decide the pairs of zero rows.
static void corr_row (const work *w, GrB_Index i, double *x, GrB_Index n)
{
    const double k = (double) w->k, ai = w->aa [i], *ab = w->ab ;
    const bool zi = w->za [i], *zb = w->zb ;
    for (GrB_Index j = 0 ; j < n ; j++)
    {
        const double bj = ab [j], e = ai - bj ;
        const double d = 0.5 * (x [j] - k * e * e) ;
        const double size = 0.5 * (x [j] + k * fabs (e) * (fabs (ai) +
            fabs (bj))) ;
        x [j] = zero_rule (zi, zb [j], (size <= GXO_CORR_CANCEL * d) ? d : NAN) ;
    }
}

//------------------------------------------------------------------------------
// the finishing stage: the textbook formula on the raw sums of pair (i,j)
//------------------------------------------------------------------------------

// Bray-Curtis from its scaled sums: (Mx tx) / (My ty), 0/0 = 0
static double braycurtis (double Mx, double tx, double My, double ty)
{
    if (Mx == 0 || tx == 0) return (0) ;
    if (My == 0 || ty == 0) return (INFINITY) ;
    return ((Mx / My) * (tx / ty)) ;
}

// The textbook formula on row i's n raw sums x, in place (y: the second
// sums, BRAYCURTIS's denominator).  The metric is
// chosen once a row, a loop of its own each: GCC 13 at -O3 compiled one
// loop that chose it per pair (its unswitching of the switch) into code
// that left x as it was, and these loops are vectorised.
static void finish_row (const work *w, GrB_Index i, double *x,
    const double *y, GrB_Index n)
{
    const double k = (double) w->k ;
    switch (w->id)
    {
        case GXO_EUCLIDEAN :
        case GXO_HELLINGER :            // ||sqrt x - sqrt y|| / sqrt 2
        case GXO_JENSEN_SHANNON :       // sqrt (sum / 2)
        {
            // pnorm (1, h x, 2) is sqrt (h x), bit for bit
            const double h = (w->id == GXO_EUCLIDEAN) ? 1 : 0.5 ;
            for (GrB_Index j = 0 ; j < n ; j++) x [j] = sqrt (h * x [j]) ;
            return ;
        }
        case GXO_MINKOWSKI :
            for (GrB_Index j = 0 ; j < n ; j++) x [j] = pnorm (1, x [j], w->p) ;
            return ;
        case GXO_COSINE :               // x = ||u - v||^2, u, v unit rows,
        {                               // and 1 - u.v = ||u - v||^2 / 2
            const bool zi = w->za [i] ;
            const bool *zb = w->zb ;
            for (GrB_Index j = 0 ; j < n ; j++)
            {
                x [j] = zero_rule (zi, zb [j], 0.5 * x [j]) ;
            }
            return ;
        }
        case GXO_BRAYCURTIS :
            for (GrB_Index j = 0 ; j < n ; j++) x [j] = braycurtis (1, x [j], 1, y [j]) ;
            return ;
        case GXO_HAMMING :
            for (GrB_Index j = 0 ; j < n ; j++) x [j] = (k == 0) ? 0 : x [j] / k ;
            return ;
        case GXO_JACCARD :              // 1 - |X^Y| / |XuY|, in one rounding
            for (GrB_Index j = 0 ; j < n ; j++)
            {
                double u = w->ra [i] + w->rb [j] - x [j] ;
                x [j] = (u == 0) ? 0 : (u - x [j]) / u ;
            }
            return ;
        case GXO_DICE :                 // 1 - 2|X^Y| / (|X|+|Y|)
            for (GrB_Index j = 0 ; j < n ; j++)
            {
                double s = w->ra [i] + w->rb [j] ;
                x [j] = (s == 0) ? 0 : (s - 2 * x [j]) / s ;
            }
            return ;
        case GXO_RUSSELLRAO :
            for (GrB_Index j = 0 ; j < n ; j++) x [j] = (k == 0) ? 0 : (k - x [j]) / k ;
            return ;
        case GXO_SOKALMICHENER :        // R / (S + R) of the four counts
            for (GrB_Index j = 0 ; j < n ; j++)
            {
                double ntt = x [j], ntf = w->ra [i] - x [j], nft = w->rb [j] - x [j] ;
                double nff = k - ntt - ntf - nft ;
                double r = 2 * (ntf + nft), s = ntt + nff ;
                x [j] = (k == 0) ? 0 : r / (s + r) ;
            }
            return ;
        default :       // SQEUCLIDEAN MANHATTAN CHEBYSHEV CANBERRA DOT KL,
            return ;    // CORRELATION (corr_row)
    }
}

// the finished block in b->C: the pairs whose plain sums may have lost
// the distance (the p-norms, BRAYCURTIS) listed first and done again as
// scaled sums after the formula is applied to every pair (CORRELATION's
// that cancel, from their centred terms)
#undef  FREE_ALL
#define FREE_ALL                                                            \
    pairs_free (&P) ; (void) GXO_full_close (&F) ;                          \
    (void) GXO_full_close (&F2) ; GrB_BinaryOp_free (&op) ; free (ZI) ;     \
    free (ZJ) ;

static GrB_Info finished (block *b, const work *w)
{
    GrB_BinaryOp op = NULL ;
    GrB_Index *ZI = NULL, *ZJ = NULL, nz = 0 ;
    // a raw sum that is the distance itself needs no pass
    if (w->id == GXO_MANHATTAN || w->id == GXO_SQEUCLIDEAN ||
        w->id == GXO_CANBERRA || w->id == GXO_CHEBYSHEV || w->id == GXO_DOT ||
        w->id == GXO_KL_DIVERGENCE)
    {
        return (GrB_SUCCESS) ;
    }
    pairs P = { 0 } ;
    gxo_full F = { NULL, NULL, 0, false }, F2 = { NULL, NULL, 0, false } ;
    GrB_Index n = w->n, mb = b->mb ;
    bool norm = (w->id == GXO_EUCLIDEAN || w->id == GXO_HELLINGER ||
        w->id == GXO_JENSEN_SHANNON || w->id == GXO_MINKOWSKI) ;
    bool bc = (w->id == GXO_BRAYCURTIS) ;
    bool corr = (w->id == GXO_CORRELATION) ;
    bool two = bc ;
    TRY (GXO_full_expand (b->C)) ;
    TRY (GXO_full_values (&F, &mb, &n, b->C)) ;
    if (two)
    {
        TRY (GXO_full_expand (b->C2)) ;
        TRY (GXO_full_values (&F2, &mb, &n, b->C2)) ;
    }
    double *x = F.x, *y = two ? F2.x : NULL ;
    if (norm)
    {
        TRY (pair_list (&P, w->no_tiny ? GXO_FLAG_OVERFLOW : GXO_FLAG_NORM, x,
            NULL, 0, mb, n)) ;
    }
    if (bc) TRY (pair_list (&P, GXO_FLAG_RATIO, x, y, 0, mb, n)) ;
    if (corr)
    {
        #pragma omp parallel for schedule(static)
        for (GrB_Index i = 0 ; i < mb ; i++)
        {
            corr_row (w, b->i0 + i, x + i * n, n) ;
        }
        TRY (pair_list (&P, GXO_FLAG_NAN, x, NULL, 0, mb, n)) ;
    }
    #pragma omp parallel for schedule(static)
    for (GrB_Index i = 0 ; i < mb ; i++)
    {
        finish_row (w, b->i0 + i, x + i * n, two ? y + i * n : NULL, n) ;
    }
    TRY (GXO_full_close (&F)) ;
    TRY (GXO_full_close (&F2)) ;
    if (P.np == 0) { FREE_ALL ; return (GrB_SUCCESS) ; }
    // the p-norms, sum_c a_c^p = M^p t, a_c = root (x~_c, y~_c)
    gxo_opcode root = (w->id == GXO_HELLINGER) ? GXO_OP_HELLROOT
        : (w->id == GXO_JENSEN_SHANNON) ? GXO_OP_JSROOT : GXO_OP_ABSDIFF ;
    if (norm && w->same && w->k > 0)
    {
        // a row with itself whose terms are all 0 is at 0, and is not done
        // again (every row once, in a square): moved to ZI, ZJ
        ZI = malloc (P.np * sizeof (GrB_Index)) ;
        ZJ = malloc (P.np * sizeof (GrB_Index)) ;
        CHECK (ZI != NULL && ZJ != NULL, GrB_OUT_OF_MEMORY) ;
        TRY (block_rows (b, w)) ;
        TRY (GXO_op_new (&op, root)) ;
        TRY (GXO_zero_self (P.I, P.J, &P.np, ZI, ZJ, &nz, b->Ab, b->i0, op,
            0)) ;
    }
    if (corr)
    {
        TRY (centred_pairs (P.M, &P, b, w)) ;
    }
    else if (norm)
    {
        TRY (scaled (P.M, P.t, &P, b, w, root,
            (w->id == GXO_MINKOWSKI) ? w->p : 2)) ;
    }
    else
    {
        // where |x-y| or |x+y| sums overflow, the scaled sums of |x/2 -
        // y/2| and |x/2 + y/2|, whose ratio is the same and whose
        // magnitudes cannot overflow (halving loses nothing there: the
        // pair holds a value near DBL_MAX)
        TRY (scaled (P.M, P.t, &P, b, w, GXO_OP_HALFABSDIFF, 1)) ;
        TRY (scaled (P.M2, P.t2, &P, b, w, GXO_OP_HALFABSSUM, 1)) ;
    }
    TRY (GXO_full_values (&F, &mb, &n, b->C)) ;
    x = F.x ;
    for (GrB_Index q = 0 ; q < P.np ; q++)
    {
        // (no pair of a zero row is listed: CORRELATION's is 0.5 x)
        x [P.I [q] * n + P.J [q]] = corr ? 0.5 * P.M [q]
            : norm ? norm_value (w, P.M [q], P.t [q])
            : braycurtis (P.M [q], P.t [q], P.M2 [q], P.t2 [q]) ;
    }
    for (GrB_Index q = 0 ; q < nz ; q++)
    {
        x [ZI [q] * n + ZJ [q]] = norm_value (w, 0, 0) ;
    }
    TRY (GXO_full_close (&F)) ;
    FREE_ALL ;
    return (GrB_SUCCESS) ;
}

//------------------------------------------------------------------------------
// GXO_scale_rows: a block's scale, on demand
//------------------------------------------------------------------------------

struct gxo_scaler
{
    const work *w ;
    GrB_Index i0 ;
    GrB_Matrix S ;          // the block's scale, or a block of as many rows
    bool made ;             // S holds the block's scale
} ;

#undef  FREE_ALL
#define FREE_ALL ;

GrB_Info GXO_scale_rows (gxo_scaler *sc, GrB_Matrix *S)
{
    if (!sc->made)
    {
        TRY (GXO_full_zero (sc->S)) ;
        TRY (GXO_prod_rows (&sc->w->prod [1], sc->S, sc->i0)) ;
        sc->made = true ;
    }
    *S = sc->S ;
    return (GrB_SUCCESS) ;
}

//------------------------------------------------------------------------------
// GXO_metric_rows, GXO_metric
//------------------------------------------------------------------------------

#undef  FREE_ALL
#define FREE_ALL                                                            \
    work_free (&w) ; GrB_Matrix_free (&b.Ab) ; GrB_Matrix_free (&b.C) ;     \
    GrB_Matrix_free (&b.C2) ; GrB_Matrix_free (&sc.S) ;

GrB_Info GXO_metric_rows (const char *metric, double p, GrB_Type type,
    GrB_Matrix A, GrB_Matrix B, GrB_Index rows, bool scale,
    gxo_rows_visit visit, void *arg)
{
    work w ;
    block b = { 0, 0, NULL, NULL, NULL } ;
    gxo_scaler sc = { &w, 0, NULL, false } ;
    memset (&w, 0, sizeof (w)) ;
    CHECK (metric != NULL && visit != NULL, GrB_NULL_POINTER) ;
    TRY (GXO_metric_id (&w.id, metric)) ;
    CHECK (w.id != GXO_MINKOWSKI || p > 0, GrB_INVALID_VALUE) ;
    // the limit of the p-norms
    if (w.id == GXO_MINKOWSKI && isinf (p)) w.id = GXO_CHEBYSHEV ;
    w.p = p ;
    // a p-norm's relative error is 1/p times its sum's: p < 1 trusts a sum
    // that much less
    w.tau = (w.id == GXO_MINKOWSKI && p < 1) ? 1 + (GXO_METRIC_TAU - 1) * p
        : GXO_METRIC_TAU ;
    w.same = (A == B) ;
    TRY (GXO_operands (&w.A, &w.B, type, A, B)) ;
    TRY (GrB_Matrix_nrows (&w.m, w.A)) ;
    TRY (GrB_Matrix_nrows (&w.n, w.B)) ;
    TRY (GrB_Matrix_ncols (&w.k, w.A)) ;
    if (w.id == GXO_HELLINGER || w.id == GXO_JENSEN_SHANNON ||
        w.id == GXO_KL_DIVERGENCE)
    {
        TRY (check_nonnegative (w.A)) ;
        TRY (check_nonnegative (w.B)) ;
    }
    w.za = calloc (w.m + 1, sizeof (bool)) ;
    w.zb = calloc (w.n + 1, sizeof (bool)) ;
    CHECK (w.za != NULL && w.zb != NULL, GrB_OUT_OF_MEMORY) ;
    scale = scale && (w.id == GXO_DOT || w.id == GXO_KL_DIVERGENCE) ;
    TRY (prepare (&w, scale)) ;
    TRY (no_tiny (&w)) ;
    for (int t = 0 ; t < w.nsum ; t++) w.sum [t].same = w.same ;
    // (a scale not prepared adds nothing to the tolerance: dot_scale)
    scale = scale && (w.prod [1].semiring != NULL) ;
    // COSINE and CORRELATION are distances between unit vectors (GXO_scale)
    double s = (w.id == GXO_COSINE || w.id == GXO_CORRELATION) ? 1e-7 : 0 ;
    bool two = (w.id == GXO_BRAYCURTIS) ;
    if (rows == 0) rows = 1 ;
    for (b.i0 = 0 ; b.i0 < w.m ; b.i0 += b.mb)
    {
        // the block's matrices are kept for the next block of as many rows
        GrB_Index mb = (rows < w.m - b.i0) ? rows : w.m - b.i0 ;
        if (b.C == NULL || mb != b.mb)
        {
            GrB_Matrix_free (&b.C) ;
            GrB_Matrix_free (&b.C2) ;
            GrB_Matrix_free (&sc.S) ;
            TRY (GXO_full_new (&b.C, mb, w.n)) ;
            if (two) TRY (GXO_full_new (&b.C2, mb, w.n)) ;
            if (scale) TRY (GXO_full_new (&sc.S, mb, w.n)) ;
        }
        b.mb = mb ;
        GrB_Matrix_free (&b.Ab) ;
        TRY (raw (&b, &w)) ;
        TRY (finished (&b, &w)) ;
        sc.i0 = b.i0 ;
        sc.made = false ;
        TRY (visit (arg, b.i0, &b.C, scale ? &sc : NULL, s)) ;
    }
    FREE_ALL ;
    return (GrB_SUCCESS) ;
}

// GXO_metric's visit: the block of every row becomes D
static GrB_Info take (void *arg, GrB_Index i0, GrB_Matrix *C, gxo_scaler *sc,
    double s)
{
    GrB_Matrix *D = arg ;
    *D = *C ;
    *C = NULL ;
    return (GrB_SUCCESS) ;
}

#undef  FREE_ALL
#define FREE_ALL GrB_Matrix_free (D) ;

GrB_Info GXO_metric (GrB_Matrix *D, const char *metric, double p,
    GrB_Type type, GrB_Matrix A, GrB_Matrix B)
{
    GrB_Index m, n ;
    CHECK (D != NULL, GrB_NULL_POINTER) ;
    *D = NULL ;
    TRY (GXO_metric_rows (metric, p, type, A, B, GXO_ALL_ROWS, false, take,
        D)) ;
    if (*D == NULL)
    {
        // no rows: an empty full matrix of A's rows and B's
        TRY (GrB_Matrix_nrows (&m, A)) ;
        TRY (GrB_Matrix_nrows (&n, B)) ;
        TRY (GXO_full_new (D, m, n)) ;
    }
    return (GrB_SUCCESS) ;
}
