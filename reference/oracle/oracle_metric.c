//------------------------------------------------------------------------------
// reference/oracle/oracle_metric.c: GXO_metric, every metric from its formula
//------------------------------------------------------------------------------

// Two stages.  The GraphBLAS stage computes one raw m-by-n sum per pair:
// union metrics by dense completion (oracle_pairs.c: every column of every
// pair, missing = 0, never an expanded form that cancels), intersection
// metrics (DOT, KL) and set metrics (patterns of nonzero values) by GrB_mxm
// with B transposed.  The finishing stage is a C loop applying the textbook
// formula, with its zero rules, to each raw value: the formulas of the
// metric definitions (issue 7, docs/metrics.md) can be read off finish().

#include "oracle_internal.h"
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
    [GXO_MINKOWSKI]      = "MINKOWSKI",
} ;

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
    double *X ;             // m*n row-major raw sums
    double *Y ;             // BRAYCURTIS: the denominators
    double *ra, *rb ;       // set metrics: nonzero values per row of A, B
    bool *za, *zb ;         // COSINE, CORRELATION: rows that count as zero
}
work ;

static void work_free (work *w)
{
    GrB_Matrix_free (&w->A) ;
    GrB_Matrix_free (&w->B) ;
    free (w->X) ;
    free (w->Y) ;
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
// from the constant in the last bit, so the row itself is tested.
static void centre (double *x, GrB_Index k, bool *zero)
{
    double lo = x [0], hi = x [0] ;
    ksum sum = { 0, 0 }, r = { 0, 0 } ;
    for (GrB_Index c = 0 ; c < k ; c++)
    {
        lo = fmin (lo, x [c]) ;
        hi = fmax (hi, x [c]) ;
        kadd (&sum, x [c]) ;
    }
    *zero = (lo == hi) ;
    if (*zero)
    {
        for (GrB_Index c = 0 ; c < k ; c++) x [c] = 0 ;
        return ;
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

// *X = dense raw sums of the completed (and prepped) rows of w->A and w->B
#undef  FREE_ALL
#define FREE_ALL GrB_Matrix_free (&R) ;

static GrB_Info pairs (double **X, work *w, gxo_prep prep,
    const gxo_product *prod)
{
    GrB_Matrix R = NULL ;
    // 0 is what every raw sum of the oracle is over k = 0 columns
    TRY (GrB_Matrix_new (&R, GrB_FP64, w->m, w->n)) ;
    TRY (GrB_Matrix_assign_FP64 (R, NULL, NULL, 0, GrB_ALL, w->m, GrB_ALL,
        w->n, NULL)) ;
    gxo_side a = { w->A, GrB_FP64, 0, prep, w->za } ;
    gxo_side b = { w->B, GrB_FP64, 0, prep, w->zb } ;
    TRY (GXO_pairs (R, &a, &b, prod)) ;
    TRY (GXO_to_dense (X, R)) ;
    GrB_Matrix_free (&R) ;
    return (GrB_SUCCESS) ;
}

// *X = dense (add_c op (x~_c, y~_c)), add = PLUS or MAX, over every column
#undef  FREE_ALL
#define FREE_ALL GrB_BinaryOp_free (&op) ; GrB_Semiring_free (&semiring) ;

static GrB_Info union_sum (double **X, work *w, gxo_opcode code,
    GrB_Monoid add, gxo_prep prep)
{
    GrB_BinaryOp op = NULL ;
    GrB_Semiring semiring = NULL ;
    TRY (GXO_op_new (&op, code)) ;
    TRY (GrB_Semiring_new (&semiring, add, op)) ;
    gxo_product prod = { semiring, 0 } ;
    TRY (pairs (X, w, prep, &prod)) ;
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
    gxo_product minkowski = { NULL, w->p } ;
    switch (w->id)
    {
        case GXO_HELLINGER :
            return (union_sum (&w->X, w, GXO_OP_HELLINGER, plus, NULL)) ;
        case GXO_EUCLIDEAN :
        case GXO_SQEUCLIDEAN :
            return (union_sum (&w->X, w, GXO_OP_SQDIFF, plus, NULL)) ;
        case GXO_COSINE :
            return (union_sum (&w->X, w, GXO_OP_SQDIFF, plus, normalise)) ;
        case GXO_CORRELATION :
            return (union_sum (&w->X, w, GXO_OP_SQDIFF, plus, centre)) ;
        case GXO_MANHATTAN :
            return (union_sum (&w->X, w, GXO_OP_ABSDIFF, plus, NULL)) ;
        case GXO_CHEBYSHEV :
            // k = 0 keeps the 0 that pairs () starts from, not MAX's -inf
            return (union_sum (&w->X, w, GXO_OP_ABSDIFF, GrB_MAX_MONOID_FP64,
                NULL)) ;
        case GXO_CANBERRA :
            return (union_sum (&w->X, w, GXO_OP_CANBERRA, plus, NULL)) ;
        case GXO_HAMMING :
            return (union_sum (&w->X, w, GXO_OP_NE, plus, NULL)) ;
        case GXO_JENSEN_SHANNON :
            return (union_sum (&w->X, w, GXO_OP_JS, plus, NULL)) ;
        case GXO_BRAYCURTIS :
            TRY (union_sum (&w->X, w, GXO_OP_ABSDIFF, plus, NULL)) ;
            return (union_sum (&w->Y, w, GXO_OP_ABSSUM, plus, NULL)) ;
        case GXO_MINKOWSKI :
            return (pairs (&w->X, w, NULL, &minkowski)) ;
        case GXO_DOT :
            return (GXO_product (&w->X, GrB_PLUS_TIMES_SEMIRING_FP64, w->A,
                w->B)) ;
        case GXO_KL_DIVERGENCE :
            // x ln(x/y) is 0 unless both are present (and positive)
            return (intersection_sum (&w->X, w, GXO_OP_KL)) ;
        default :       // JACCARD, DICE, RUSSELLRAO
            return (set_counts (w)) ;
    }
}

//------------------------------------------------------------------------------
// the finishing stage: the textbook formula on the raw sum x of pair (i,j)
//------------------------------------------------------------------------------

static double finish (const work *w, GrB_Index i, GrB_Index j, double x)
{
    double k = (double) w->k ;
    switch (w->id)
    {
        case GXO_EUCLIDEAN :
            return (sqrt (x)) ;
        case GXO_MINKOWSKI :
            return (pow (x, 1 / w->p)) ;
        case GXO_HELLINGER :            // ||sqrt x - sqrt y|| / sqrt 2
        case GXO_JENSEN_SHANNON :       // sqrt (sum / 2)
            return (sqrt (0.5 * x)) ;
        case GXO_COSINE :               // x = ||u - v||^2, u, v unit rows,
        case GXO_CORRELATION :          // and 1 - u.v = ||u - v||^2 / 2
            if (w->za [i] && w->zb [j]) return (0) ;
            if (w->za [i] || w->zb [j]) return (1) ;
            return (0.5 * x) ;
        case GXO_BRAYCURTIS :           // 0/0 = 0
            return ((x == 0) ? 0 : x / w->Y [i * w->n + j]) ;
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
        default :       // SQEUCLIDEAN MANHATTAN CHEBYSHEV CANBERRA DOT KL
            return (x) ;
    }
}

//------------------------------------------------------------------------------
// GXO_metric
//------------------------------------------------------------------------------

// a negative entry is outside the domain of HELLINGER, JENSEN_SHANNON, KL
static GrB_Info check_nonnegative (GrB_Matrix A)
{
    double lo ;     // +inf if A has no entries
    GrB_Info info = GrB_Matrix_reduce_FP64 (&lo, NULL, GrB_MIN_MONOID_FP64, A,
        NULL) ;
    if (info != GrB_SUCCESS) return (info) ;
    return ((lo < 0) ? GrB_INVALID_VALUE : GrB_SUCCESS) ;
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
    CHECK (w.id != GXO_MINKOWSKI || (p > 0 && isfinite (p)),
        GrB_INVALID_VALUE) ;
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
    w.za = calloc (w.m + 1, sizeof (bool)) ;
    w.zb = calloc (w.n + 1, sizeof (bool)) ;
    CHECK (w.za != NULL && w.zb != NULL, GrB_OUT_OF_MEMORY) ;
    TRY (raw (&w)) ;
    for (GrB_Index i = 0 ; i < w.m ; i++)
    {
        for (GrB_Index j = 0 ; j < w.n ; j++)
        {
            double *x = &w.X [i * w.n + j] ;
            *x = finish (&w, i, j, *x) ;
        }
    }
    TRY (GXO_from_dense (D, w.m, w.n, w.X)) ;
    work_free (&w) ;
    return (GrB_SUCCESS) ;
}
