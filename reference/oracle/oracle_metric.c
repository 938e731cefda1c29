// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// reference/oracle/oracle_metric.c: GXO_metric, every metric from its formula
//------------------------------------------------------------------------------

// Two stages.  The GraphBLAS stage computes one raw m-by-n sum per pair:
// union sums by GXO_union_plus (products and row sums; the pairs where they
// cancel, or are not finite, recomputed from their own terms), CHEBYSHEV by
// GXO_union_rows, CORRELATION (dense centred rows) and MINKOWSKI p != 2 by
// dense completion (oracle_pairs.c: every column of every pair, missing =
// 0), intersection metrics (DOT, KL) and set metrics (patterns of nonzero
// values) by GrB_mxm with B transposed.  The p-norms (EUCLIDEAN, MINKOWSKI, HELLINGER,
// JENSEN_SHANNON) and Bray-Curtis's sums are kept as scaled sums, a largest
// magnitude M and t = sum (a_c/M)^p, so that no sum of squares (of p-th
// powers) overflows or underflows where the distance is representable
// (issue 15: Euclidean of 1e200 entries, Minkowski with p = 1e5).  The finishing stage is a C loop applying the textbook
// formula, with its zero rules, to each raw value: the formulas of the
// metric definitions (issue 7, docs/metrics.md) can be read off finish().

#include "oracle_internal.h"
#include <float.h>
#include <math.h>
#include <string.h>

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

typedef struct
{
    gxo_metric id ;
    double p ;              // MINKOWSKI
    GrB_Matrix A, B ;       // the operands, typecast, then FP64
    GrB_Index m, n, k ;
    double *X ;             // m*n row-major raw sums (scaled sums: M)
    gxo_full F ;            // or X in place: the values of a result of
                            // GraphBLAS's (F.M), which becomes D
    bool *fixed ;           // NULL, or the pairs whose X is already final
    double *Y ;             // BRAYCURTIS: the denominators (M)
    double *Xt, *Yt ;       // scaled sums: t (p = 2 norms: Xt NULL, X = t
                            // and M = 1)
    double *ra, *rb ;       // set metrics: nonzero values per row of A, B
    bool *za, *zb ;         // COSINE, CORRELATION: rows that count as zero
}
work ;

static void work_free (work *w)
{
    GrB_Matrix_free (&w->A) ;
    GrB_Matrix_free (&w->B) ;
    if (w->F.M != NULL)
    {
        GrB_Matrix M = w->F.M ;
        (void) GXO_full_close (&w->F) ;
        GrB_Matrix_free (&M) ;
        w->X = NULL ;
    }
    free (w->X) ;
    free (w->fixed) ;
    free (w->Y) ;
    free (w->Xt) ;
    free (w->Yt) ;
    free (w->ra) ;
    free (w->rb) ;
    free (w->za) ;
    free (w->zb) ;
}

//------------------------------------------------------------------------------
// row transforms for COSINE and CORRELATION (applied to completed rows)
//------------------------------------------------------------------------------

// Sums along a row are compensated (Neumaier): a long completed row has k
// terms, and a plain sum of k equal terms drifts by up to k/2 roundings.
typedef struct { double s, c ; } ksum ;

static void kadd (ksum *a, double x)
{
    double t = a->s + x ;
    a->c += (fabs (a->s) >= fabs (x)) ? (a->s - t) + x : (x - t) + a->s ;
    a->s = t ;
}

// x / ||x||.  Scaled by max |x_c| first, so that the sum of squares can
// neither overflow nor underflow.  A zero row stays 0 and is flagged.
static void normalise (double *x, GrB_Index k, bool *zero)
{
    double amax = 0 ;
    for (GrB_Index c = 0 ; c < k ; c++) amax = fmax (amax, fabs (x [c])) ;
    *zero = (amax == 0) ;
    if (*zero) return ;
    ksum ss = { 0, 0 } ;
    for (GrB_Index c = 0 ; c < k ; c++)
    {
        x [c] /= amax ;
        kadd (&ss, x [c] * x [c]) ;
    }
    double norm = sqrt (ss.s + ss.c) ;
    for (GrB_Index c = 0 ; c < k ; c++) x [c] /= norm ;
}

// (x - mean) / ||x - mean||, the mean over all k columns (k > 0).  A
// constant row has centred norm exactly 0, but its computed mean may differ
// from the constant in the last bit, so the row itself is tested.  The row
// is first multiplied by the power of two that brings max |x_c| into [1, 2)
// (exact, but for entries 2^1022 times smaller, which are negligible;
// correlation does not change): its sums then neither overflow (entries near
// DBL_MAX) nor lose digits to subnormals (entries near 1e-310).
static void centre (double *x, GrB_Index k, bool *zero)
{
    double lo = x [0], hi = x [0], amax = 0 ;
    ksum sum = { 0, 0 }, r = { 0, 0 } ;
    for (GrB_Index c = 0 ; c < k ; c++)
    {
        lo = fmin (lo, x [c]) ;
        hi = fmax (hi, x [c]) ;
        amax = fmax (amax, fabs (x [c])) ;
    }
    *zero = (lo == hi) ;
    if (*zero)
    {
        for (GrB_Index c = 0 ; c < k ; c++) x [c] = 0 ;
        return ;
    }
    int e = -ilogb (amax) ;
    double scale = ldexp (1.0, (e < 1023) ? e : 1023) ;
    for (GrB_Index c = 0 ; c < k ; c++)
    {
        x [c] *= scale ;
        kadd (&sum, x [c]) ;
    }
    // the corrected two-pass mean: a pass over the residuals removes what
    // rounding the mean itself left
    double mean = (sum.s + sum.c) / (double) k ;
    for (GrB_Index c = 0 ; c < k ; c++) kadd (&r, x [c] - mean) ;
    mean += (r.s + r.c) / (double) k ;
    for (GrB_Index c = 0 ; c < k ; c++) x [c] -= mean ;
    normalise (x, k, zero) ;        // lo < hi: some x [c] - mean is not 0
}

//------------------------------------------------------------------------------
// the GraphBLAS stage
//------------------------------------------------------------------------------

// *R = the raw sums (full FP64) of the completed (and prepped) rows of w->A
// and w->B
#undef  FREE_ALL
#define FREE_ALL GrB_Matrix_free (R) ;

static GrB_Info pairs (GrB_Matrix *R, work *w, gxo_prep prep,
    const gxo_product *prod)
{
    // 0 is what every raw sum of the oracle is over k = 0 columns
    TRY (GrB_Matrix_new (R, GrB_FP64, w->m, w->n)) ;
    TRY (GrB_Matrix_assign_FP64 (*R, NULL, NULL, 0, GrB_ALL, w->m, GrB_ALL,
        w->n, NULL)) ;
    gxo_side a = { w->A, GrB_FP64, 0, prep, w->za } ;
    gxo_side b = { w->B, GrB_FP64, 0, prep, w->zb } ;
    TRY (GXO_pairs (*R, &a, &b, prod)) ;
    return (GrB_SUCCESS) ;
}

// w->X = the values of R (full FP64, taken): in place where GraphBLAS holds
// them as one array per entry (w->F, and R becomes the result), else a copy
#undef  FREE_ALL
#define FREE_ALL GrB_Matrix_free (R) ;

static GrB_Info take_sums (work *w, GrB_Matrix *R)
{
    GrB_Info info = GXO_full_open (&w->F, *R) ;
    TRY (info) ;
    if (info == GrB_SUCCESS && !w->F.iso)
    {
        w->X = w->F.x ;
        *R = NULL ;
        return (GrB_SUCCESS) ;
    }
    TRY (GXO_full_close (&w->F)) ;
    TRY (GXO_to_dense (&w->X, *R)) ;
    GrB_Matrix_free (R) ;
    return (GrB_SUCCESS) ;
}

// *N = the rows of M (FP64), each transformed by prep as a completed row
// would be (normalise: a missing entry is 0 before and after, and adds
// nothing to the row's sums), and zero [i] = its flag
#undef  FREE_ALL
#define FREE_ALL free (I) ; free (J) ; free (X) ; free (Y) ; free (P) ;     \
    free (start) ;

static GrB_Info prep_sparse (GrB_Matrix *N, bool *zero, gxo_prep prep,
    GrB_Matrix M)
{
    GrB_Index *I = NULL, *J = NULL, *P = NULL, *start = NULL ;
    double *X = NULL, *Y = NULL ;
    GrB_Index nrows, ncols, nvals ;
    TRY (GrB_Matrix_nrows (&nrows, M)) ;
    TRY (GrB_Matrix_ncols (&ncols, M)) ;
    TRY (GrB_Matrix_nvals (&nvals, M)) ;
    I = calloc (nvals + 1, sizeof (GrB_Index)) ;
    J = calloc (nvals + 1, sizeof (GrB_Index)) ;
    P = calloc (nvals + 1, sizeof (GrB_Index)) ;
    X = calloc (nvals + 1, sizeof (double)) ;
    Y = calloc (nvals + 1, sizeof (double)) ;
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
        prep (Y + start [i], start [i + 1] - start [i], &zero [i]) ;
    }
    for (GrB_Index q = 0 ; q < nvals ; q++) X [q] = Y [P [q]] ;
    TRY (GrB_Matrix_new (N, GrB_FP64, nrows, ncols)) ;
    TRY (GrB_Matrix_build_FP64 (*N, I, J, X, nvals, GrB_FIRST_FP64)) ;
    FREE_ALL ;
    return (GrB_SUCCESS) ;
}

// *R = full (add_c op (x~_c, y~_c)), add = PLUS or MAX, over every column.
// PLUS: GXO_union_plus (cancelling pairs recomputed exactly: GXO_METRIC_TAU),
// on rows transformed first where prep keeps them sparse (normalise);
// MAX: GXO_union_rows; a prep that fills the rows (centre): dense completion.
#undef  FREE_ALL
#define FREE_ALL                                                            \
    GrB_BinaryOp_free (&op) ; GrB_Semiring_free (&semiring) ;               \
    GrB_Matrix_free (&An) ; GrB_Matrix_free (&Bn) ; GrB_Matrix_free (&D) ;

static GrB_Info union_sum (GrB_Matrix *R, work *w, gxo_opcode code,
    GrB_Monoid add, gxo_prep prep)
{
    GrB_BinaryOp op = NULL ;
    gxo_corr corr = { 0 } ;
    GrB_Semiring semiring = NULL ;
    GrB_Matrix An = NULL, Bn = NULL, D = NULL ;
    TRY (GXO_op_new (&op, code)) ;
    if (prep == centre || w->k == 0)
    {
        // (k = 0 keeps the 0 that pairs () starts from, not MAX's -inf)
        TRY (GrB_Semiring_new (&semiring, add, op)) ;
        gxo_product prod = { semiring, NULL, 0, NULL } ;
        TRY (pairs (R, w, prep, &prod)) ;
        FREE_ALL ;
        return (GrB_SUCCESS) ;
    }
    if (prep != NULL)
    {
        TRY (prep_sparse (&An, w->za, prep, w->A)) ;
        TRY (prep_sparse (&Bn, w->zb, prep, w->B)) ;
    }
    GrB_Matrix A = (An != NULL) ? An : w->A, B = (Bn != NULL) ? Bn : w->B ;
    if (add == GrB_PLUS_MONOID_FP64)
    {
        TRY (GXO_corr_new (&corr, code)) ;
        TRY (GXO_union_plus_terms (&D, add, op, 0, A, B, GXO_METRIC_TAU,
            &corr)) ;
    }
    else
    {
        TRY (GXO_union_rows (&D, add, op, 0, A, B)) ;
    }
    *R = D ;
    D = NULL ;
    FREE_ALL ;
    return (GrB_SUCCESS) ;
}

// w->X = union_sum's sums, in place where it may (take_sums)
#undef  FREE_ALL
#define FREE_ALL GrB_Matrix_free (&R) ;

static GrB_Info sums (work *w, gxo_opcode code, GrB_Monoid add,
    gxo_prep prep)
{
    GrB_Matrix R = NULL ;
    TRY (union_sum (&R, w, code, add, prep)) ;
    TRY (take_sums (w, &R)) ;
    return (GrB_SUCCESS) ;
}

// the pairs (i,j) with flag [i*n+j], in row order: *I, *J, *np
static GrB_Info pair_list (GrB_Index **I, GrB_Index **J, GrB_Index *np,
    const work *w, const bool *flag)
{
    GrB_Index mn = w->m * w->n, c = 0 ;
    for (GrB_Index q = 0 ; q < mn ; q++) c += flag [q] ;
    *I = calloc (c + 1, sizeof (GrB_Index)) ;
    *J = calloc (c + 1, sizeof (GrB_Index)) ;
    if (*I == NULL || *J == NULL)
    {
        free (*I) ; *I = NULL ;
        free (*J) ; *J = NULL ;
        return (GrB_OUT_OF_MEMORY) ;
    }
    c = 0 ;
    for (GrB_Index q = 0 ; q < mn ; q++)
    {
        if (!flag [q]) continue ;
        (*I) [c] = q / w->n ;
        (*J) [c++] = q % w->n ;
    }
    *np = c ;
    return (GrB_SUCCESS) ;
}

// put (w, i*n+j, M, t) for every pair (pair = NULL) or for those with
// pair [i*n+j]: the scaled sums of a_c = op (x~_c, y~_c) >= 0 over every
// column, sum_c a_c^p = M^p t, by dense completion of those pairs
typedef void (*gxo_put) (work *w, GrB_Index q, double M, double t) ;

#undef  FREE_ALL
#define FREE_ALL                                                            \
    GrB_BinaryOp_free (&op) ; GrB_Matrix_free (&R) ; GrB_Matrix_free (&R2) ;\
    free (I) ; free (J) ; free (I2) ; free (J2) ; free (Ms) ; free (ts) ;

static GrB_Info scaled (work *w, const bool *pair, gxo_opcode code, double p,
    gxo_put put)
{
    GrB_BinaryOp op = NULL ;
    GrB_Matrix R = NULL, R2 = NULL ;
    GrB_Index *I = NULL, *J = NULL, *I2 = NULL, *J2 = NULL, np = 0, nr = 0 ;
    double *Ms = NULL, *ts = NULL ;
    TRY (GXO_op_new (&op, code)) ;
    TRY (GrB_Matrix_new (&R, GrB_FP64, w->m, w->n)) ;
    TRY (GrB_Matrix_new (&R2, GrB_FP64, w->m, w->n)) ;
    gxo_side a = { w->A, GrB_FP64, 0, NULL, NULL } ;
    gxo_side b = { w->B, GrB_FP64, 0, NULL, NULL } ;
    gxo_product prod = { NULL, op, p, R2 } ;
    if (pair == NULL)
    {
        // 0 is M and t over k = 0 columns
        TRY (GrB_Matrix_assign_FP64 (R, NULL, NULL, 0, GrB_ALL, w->m, GrB_ALL,
            w->n, NULL)) ;
        TRY (GrB_Matrix_assign_FP64 (R2, NULL, NULL, 0, GrB_ALL, w->m, GrB_ALL,
            w->n, NULL)) ;
        TRY (GXO_pairs (R, &a, &b, &prod)) ;
    }
    else
    {
        TRY (pair_list (&I, &J, &np, w, pair)) ;
        TRY (GXO_pairs_at (R, &a, &b, &prod, I, J, np)) ;
        free (I) ; I = NULL ;
        free (J) ; J = NULL ;
    }
    // R and R2 have the same entries, the pairs computed, which come out
    // in the same order (checked)
    TRY (GrB_Matrix_nvals (&nr, R)) ;
    I = calloc (nr + 1, sizeof (GrB_Index)) ;
    J = calloc (nr + 1, sizeof (GrB_Index)) ;
    I2 = calloc (nr + 1, sizeof (GrB_Index)) ;
    J2 = calloc (nr + 1, sizeof (GrB_Index)) ;
    Ms = calloc (nr + 1, sizeof (double)) ;
    ts = calloc (nr + 1, sizeof (double)) ;
    CHECK (I != NULL && J != NULL && I2 != NULL && J2 != NULL && Ms != NULL
        && ts != NULL, GrB_OUT_OF_MEMORY) ;
    TRY (GrB_Matrix_extractTuples_FP64 (I, J, Ms, &nr, R)) ;
    TRY (GrB_Matrix_extractTuples_FP64 (I2, J2, ts, &nr, R2)) ;
    CHECK (memcmp (I, I2, nr * sizeof (GrB_Index)) == 0 &&
        memcmp (J, J2, nr * sizeof (GrB_Index)) == 0, GrB_PANIC) ;
    for (GrB_Index q = 0 ; q < nr ; q++)
    {
        put (w, I [q] * w->n + J [q], Ms [q], ts [q]) ;
    }
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

// the outputs of scaled ()
static void put_x (work *w, GrB_Index q, double M, double t)
{
    w->X [q] = M ;
    w->Xt [q] = t ;
}

static void put_y (work *w, GrB_Index q, double M, double t)
{
    w->Y [q] = M ;
    w->Yt [q] = t ;
}

static void put_norm (work *w, GrB_Index q, double M, double t)
{
    w->X [q] = norm_value (w, M, t) ;
}

// The p-norm metrics, sum_c a_c^p = M^p t, a_c = root (x~_c, y~_c).  p =
// 2: w->X = the plain sum of the squares (sq), Xt NULL (M = 1), where no
// square can have overflowed (the sum is finite) or mattered in
// underflowing (the sum is at least 2^-900); every other pair (0 included:
// a square may have underflowed to it) is done again as a scaled sum, its
// distance put in X at once (w->fixed).  p != 2 (Minkowski): w->X = M,
// w->Xt = t, scaled sums for every pair.
#undef  FREE_ALL
#define FREE_ALL ;

static GrB_Info norm_sums (work *w, gxo_opcode sq, gxo_opcode root, double p)
{
    GrB_Index mn = w->m * w->n ;
    if (p == 2)
    {
        TRY (sums (w, sq, GrB_PLUS_MONOID_FP64, NULL)) ;
        w->fixed = calloc (mn + 1, sizeof (bool)) ;
        CHECK (w->fixed != NULL, GrB_OUT_OF_MEMORY) ;
        const double *x = w->X ;
        bool *fixed = w->fixed ;
        #pragma omp parallel for schedule(static)
        for (GrB_Index q = 0 ; q < mn ; q++)
        {
            fixed [q] = !(x [q] >= 0x1p-900 && x [q] <= DBL_MAX) ;
        }
        TRY (scaled (w, w->fixed, root, p, put_norm)) ;
    }
    else
    {
        w->X = calloc (mn + 1, sizeof (double)) ;
        w->Xt = calloc (mn + 1, sizeof (double)) ;
        CHECK (w->X != NULL && w->Xt != NULL, GrB_OUT_OF_MEMORY) ;
        TRY (scaled (w, NULL, root, p, put_x)) ;
    }
    return (GrB_SUCCESS) ;
}

// Bray-Curtis: w->X, w->Xt and w->Y, w->Yt, the numerator's and the
// denominator's sums as above with p = 1: the plain sums (of |x-y| and
// |x+y|, exact down to subnormals) where both are finite; where one
// overflows (x = -y = 1e308: the ratio of two infinities, where the
// distance is 1), the scaled sums of |x/2 - y/2| and |x/2 + y/2|, whose
// ratio is the same and whose magnitudes cannot overflow (halving loses
// nothing there: the pair holds a value near DBL_MAX)
#undef  FREE_ALL
#define FREE_ALL free (bad) ; GrB_Matrix_free (&R) ;

static GrB_Info braycurtis_sums (work *w)
{
    bool *bad = NULL ;
    GrB_Matrix R = NULL ;
    GrB_Index mn = w->m * w->n ;
    GrB_Monoid plus = GrB_PLUS_MONOID_FP64 ;
    bad = calloc (mn + 1, sizeof (bool)) ;
    w->Xt = calloc (mn + 1, sizeof (double)) ;
    w->Yt = calloc (mn + 1, sizeof (double)) ;
    CHECK (bad != NULL && w->Xt != NULL && w->Yt != NULL, GrB_OUT_OF_MEMORY) ;
    TRY (sums (w, GXO_OP_ABSDIFF, plus, NULL)) ;
    TRY (union_sum (&R, w, GXO_OP_ABSSUM, plus, NULL)) ;
    TRY (GXO_to_dense (&w->Y, R)) ;
    GrB_Matrix_free (&R) ;
    for (GrB_Index q = 0 ; q < mn ; q++)
    {
        bad [q] = !(w->X [q] <= DBL_MAX && w->Y [q] <= DBL_MAX) ;
        w->Xt [q] = w->X [q] ; w->X [q] = 1 ;
        w->Yt [q] = w->Y [q] ; w->Y [q] = 1 ;
    }
    TRY (scaled (w, bad, GXO_OP_HALFABSDIFF, 1, put_x)) ;
    TRY (scaled (w, bad, GXO_OP_HALFABSSUM, 1, put_y)) ;
    FREE_ALL ;
    return (GrB_SUCCESS) ;
}

// *X = dense (A (+).(x) B') over the intersection, (x) one of the oracle's
#undef  FREE_ALL
#define FREE_ALL GrB_BinaryOp_free (&op) ; GrB_Semiring_free (&semiring) ;

static GrB_Info intersection_sum (double **X, work *w, gxo_opcode code)
{
    GrB_BinaryOp op = NULL ;
    GrB_Semiring semiring = NULL ;
    TRY (GXO_op_new (&op, code)) ;
    TRY (GrB_Semiring_new (&semiring, GrB_PLUS_MONOID_FP64, op)) ;
    TRY (GXO_product (X, semiring, w->A, w->B)) ;
    FREE_ALL ;
    return (GrB_SUCCESS) ;
}

// set metrics: X = |X and Y| per pair, ra, rb = |X|, |Y| per row, X and Y
// the columns of nonzero VALUE (an explicit zero is not in the set)
#undef  FREE_ALL
#define FREE_ALL                                                            \
    GrB_Matrix_free (&PA) ; GrB_Matrix_free (&PB) ; GrB_Matrix_free (&ones) ;

static GrB_Info set_counts (work *w)
{
    GrB_Matrix PA = NULL, PB = NULL, ones = NULL ;
    TRY (GrB_Matrix_new (&PA, GrB_FP64, w->m, w->k)) ;
    TRY (GrB_Matrix_new (&PB, GrB_FP64, w->n, w->k)) ;
    TRY (GrB_Matrix_select_FP64 (PA, NULL, NULL, GrB_VALUENE_FP64, w->A, 0,
        NULL)) ;
    TRY (GrB_Matrix_select_FP64 (PB, NULL, NULL, GrB_VALUENE_FP64, w->B, 0,
        NULL)) ;
    TRY (GrB_Matrix_apply (PA, NULL, NULL, GxB_ONE_FP64, PA, NULL)) ;
    TRY (GrB_Matrix_apply (PB, NULL, NULL, GxB_ONE_FP64, PB, NULL)) ;
    // sums of ones are exact integers in double
    TRY (GXO_product (&w->X, GrB_PLUS_TIMES_SEMIRING_FP64, PA, PB)) ;
    TRY (GrB_Matrix_new (&ones, GrB_FP64, 1, w->k)) ;
    TRY (GrB_Matrix_assign_FP64 (ones, NULL, NULL, 1, GrB_ALL, 1, GrB_ALL,
        w->k, NULL)) ;
    TRY (GXO_product (&w->ra, GrB_PLUS_TIMES_SEMIRING_FP64, PA, ones)) ;
    TRY (GXO_product (&w->rb, GrB_PLUS_TIMES_SEMIRING_FP64, PB, ones)) ;
    FREE_ALL ;
    return (GrB_SUCCESS) ;
}

// the GraphBLAS stage of each metric (what it makes, w holds: the caller
// frees it)
#undef  FREE_ALL
#define FREE_ALL ;

static GrB_Info raw (work *w)
{
    GrB_Monoid plus = GrB_PLUS_MONOID_FP64 ;
    switch (w->id)
    {
        case GXO_HELLINGER :
            return (norm_sums (w, GXO_OP_HELLSQ, GXO_OP_HELLROOT, 2)) ;
        case GXO_EUCLIDEAN :
            return (norm_sums (w, GXO_OP_SQDIFF, GXO_OP_ABSDIFF, 2)) ;
        case GXO_SQEUCLIDEAN :
            // (x-y)^2 overflows only where the result does
            return (sums (w, GXO_OP_SQDIFF, plus, NULL)) ;
        case GXO_COSINE :
            return (sums (w, GXO_OP_SQDIFF, plus, normalise)) ;
        case GXO_CORRELATION :
            return (sums (w, GXO_OP_SQDIFF, plus, centre)) ;
        case GXO_MANHATTAN :
            return (sums (w, GXO_OP_ABSDIFF, plus, NULL)) ;
        case GXO_CHEBYSHEV :
            // k = 0 keeps the 0 that pairs () starts from, not MAX's -inf
            return (sums (w, GXO_OP_ABSDIFF, GrB_MAX_MONOID_FP64,
                NULL)) ;
        case GXO_CANBERRA :
            return (sums (w, GXO_OP_CANBERRA, plus, NULL)) ;
        case GXO_HAMMING :
            return (sums (w, GXO_OP_NE, plus, NULL)) ;
        case GXO_JENSEN_SHANNON :
            return (norm_sums (w, GXO_OP_JSSQ, GXO_OP_JSROOT, 2)) ;
        case GXO_BRAYCURTIS :
            return (braycurtis_sums (w)) ;
        case GXO_MINKOWSKI :
            // (the plain sum of squares is used when p = 2)
            return (norm_sums (w, GXO_OP_SQDIFF, GXO_OP_ABSDIFF, w->p)) ;
        case GXO_DOT :
            return (GXO_product (&w->X, GrB_PLUS_TIMES_SEMIRING_FP64, w->A,
                w->B)) ;
        case GXO_KL_DIVERGENCE :
            // x ln(x/y) is 0 unless both are present (and positive)
            return (intersection_sum (&w->X, w, GXO_OP_KL)) ;
        default :       // JACCARD, DICE, RUSSELLRAO, SOKALMICHENER
            return (set_counts (w)) ;
    }
}

//------------------------------------------------------------------------------
// the finishing stage: the textbook formula on the raw sum x of pair (i,j)
//------------------------------------------------------------------------------

static double finish (const work *w, GrB_Index i, GrB_Index j, double x)
{
    double k = (double) w->k ;
    GrB_Index q = i * w->n + j ;
    switch (w->id)
    {
        case GXO_EUCLIDEAN :
        case GXO_MINKOWSKI :
        case GXO_HELLINGER :
        case GXO_JENSEN_SHANNON :
            return ((w->Xt != NULL) ? norm_value (w, x, w->Xt [q])
                                    : norm_value (w, 1, x)) ;
        case GXO_COSINE :               // x = ||u - v||^2, u, v unit rows,
        case GXO_CORRELATION :          // and 1 - u.v = ||u - v||^2 / 2
            if (w->za [i] && w->zb [j]) return (0) ;
            if (w->za [i] || w->zb [j]) return (1) ;
            return (0.5 * x) ;
        case GXO_BRAYCURTIS :           // (Mx tx) / (My ty), 0/0 = 0
        {
            double y = w->Y [q], tx = w->Xt [q], ty = w->Yt [q] ;
            if (x == 0 || tx == 0) return (0) ;
            if (y == 0 || ty == 0) return (INFINITY) ;
            return ((x / y) * (tx / ty)) ;
        }
        case GXO_HAMMING :
            return ((k == 0) ? 0 : x / k) ;
        case GXO_JACCARD :              // 1 - |X^Y| / |XuY|, in one rounding
        {
            double u = w->ra [i] + w->rb [j] - x ;
            return ((u == 0) ? 0 : (u - x) / u) ;
        }
        case GXO_DICE :                 // 1 - 2|X^Y| / (|X|+|Y|)
        {
            double s = w->ra [i] + w->rb [j] ;
            return ((s == 0) ? 0 : (s - 2 * x) / s) ;
        }
        case GXO_RUSSELLRAO :
            return ((k == 0) ? 0 : (k - x) / k) ;
        case GXO_SOKALMICHENER :        // R / (S + R) of the four counts
        {
            double ntt = x, ntf = w->ra [i] - x, nft = w->rb [j] - x ;
            double nff = k - ntt - ntf - nft ;
            double r = 2 * (ntf + nft), s = ntt + nff ;
            return ((k == 0) ? 0 : r / (s + r)) ;
        }
        default :       // SQEUCLIDEAN MANHATTAN CHEBYSHEV CANBERRA DOT KL
            return (x) ;
    }
}

//------------------------------------------------------------------------------
// GXO_metric_fast, GXO_metric
//------------------------------------------------------------------------------

bool GXO_metric_fast (const char *metric, double p)
{
    gxo_metric id ;
    if (GXO_metric_id (&id, metric) != GrB_SUCCESS) return (false) ;
    if (id == GXO_MINKOWSKI) return (p == 2) ;
    return (id != GXO_CHEBYSHEV && id != GXO_CORRELATION) ;
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

// The sums whose finish () is the sum itself (HAMMING: over k) need no
// array: *D = the rewritten sum's matrix, k > 0.  Other ids: *D = NULL.
#undef  FREE_ALL
#define FREE_ALL GrB_BinaryOp_free (&op) ; GrB_Matrix_free (D) ;

static GrB_Info plain_sum (GrB_Matrix *D, const work *w)
{
    GrB_BinaryOp op = NULL ;
    gxo_corr corr = { 0 } ;
    *D = NULL ;
    gxo_opcode code ;
    switch (w->id)
    {
        case GXO_MANHATTAN :   code = GXO_OP_ABSDIFF ;  break ;
        case GXO_SQEUCLIDEAN : code = GXO_OP_SQDIFF ;   break ;
        case GXO_CANBERRA :    code = GXO_OP_CANBERRA ; break ;
        case GXO_HAMMING :     code = GXO_OP_NE ;       break ;
        default : return (GrB_SUCCESS) ;
    }
    if (w->k == 0) return (GrB_SUCCESS) ;
    TRY (GXO_op_new (&op, code)) ;
    TRY (GXO_corr_new (&corr, code)) ;
    TRY (GXO_union_plus_terms (D, GrB_PLUS_MONOID_FP64, op, 0, w->A, w->B,
        GXO_METRIC_TAU, &corr)) ;
    if (w->id == GXO_HAMMING)
    {
        TRY (GrB_Matrix_apply_BinaryOp2nd_FP64 (*D, NULL, NULL, GrB_DIV_FP64,
            *D, (double) w->k, NULL)) ;
    }
    GrB_BinaryOp_free (&op) ;
   
    return (GrB_SUCCESS) ;
}

#undef  FREE_ALL
#define FREE_ALL work_free (&w) ;

GrB_Info GXO_metric (GrB_Matrix *D, const char *metric, double p,
    GrB_Type type, GrB_Matrix A, GrB_Matrix B)
{
    work w ;
    memset (&w, 0, sizeof (w)) ;
    CHECK (D != NULL && metric != NULL, GrB_NULL_POINTER) ;
    *D = NULL ;
    TRY (GXO_metric_id (&w.id, metric)) ;
    CHECK (w.id != GXO_MINKOWSKI || p > 0, GrB_INVALID_VALUE) ;
    // the limit of the p-norms
    if (w.id == GXO_MINKOWSKI && isinf (p)) w.id = GXO_CHEBYSHEV ;
    w.p = p ;
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
    TRY (plain_sum (D, &w)) ;
    if (*D != NULL)
    {
        work_free (&w) ;
        return (GrB_SUCCESS) ;
    }
    w.za = calloc (w.m + 1, sizeof (bool)) ;
    w.zb = calloc (w.n + 1, sizeof (bool)) ;
    CHECK (w.za != NULL && w.zb != NULL, GrB_OUT_OF_MEMORY) ;
    TRY (raw (&w)) ;
    #pragma omp parallel for schedule(static)
    for (GrB_Index i = 0 ; i < w.m ; i++)
    {
        for (GrB_Index j = 0 ; j < w.n ; j++)
        {
            GrB_Index q = i * w.n + j ;
            if (w.fixed == NULL || !w.fixed [q])
            {
                w.X [q] = finish (&w, i, j, w.X [q]) ;
            }
        }
    }
    if (w.F.M != NULL)
    {
        // X is the array of a result of GraphBLAS's: that is D
        GrB_Matrix M = w.F.M ;
        w.X = NULL ;
        TRY (GXO_full_close (&w.F)) ;
        *D = M ;
    }
    else
    {
        TRY (GXO_from_dense (D, w.m, w.n, w.X)) ;
    }
    work_free (&w) ;
    return (GrB_SUCCESS) ;
}
