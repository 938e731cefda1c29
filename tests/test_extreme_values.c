// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// tests/test_extreme_values.c: answers that stay right under extreme values
//------------------------------------------------------------------------------

// Issue 15, defects 3 and 9: no intermediate may overflow or underflow where
// the result is representable (docs/metrics.md, "Extreme values").
//
//  - MIN and MAX unions of every pair (CHEBYSHEV bit for bit, x - y under
//    MAX and MIN) equal the merge of each pair's rows on rows of NaN,
//    infinities, signed zeros and extremes.
//  - Minkowski of large p (1e5, 1e300) is the largest difference, not 0; p =
//    INFINITY is Chebyshev (bit for bit); p <= 0, -0, -inf and NaN are
//    GrB_INVALID_VALUE; p in {0.5, 3, 1e5, 1e300, inf}, FP32 and FP64,
//    against closed forms worked out by hand and against the reference.
//  - KL_DIVERGENCE of a subnormal entry (FP64 x = 1e-310) or of entries near
//    FLT_MAX and 1e-40 (FP32) is finite, not -inf.
//  - one case per metric whose textbook intermediates leave the range:
//    Canberra and Bray-Curtis of x = -y = 1e308, cosine of 1e300 entries,
//    Euclidean of 1e200 and of subnormal entries, Jensen-Shannon and
//    Hellinger of a subnormal entry, correlation of entries near DBL_MAX.
//  - a table of extreme rows (subnormals, +-1e300, values near DBL_MAX and
//    FLT_MAX, FLT_MIN and float subnormals, +-0, explicit zeros, empty rows,
//    rows mixing 1e300 and 1e-300) for every metric (the non-negative ones on
//    its absolute values), FP32 and FP64, plain, with a mask (the sampled
//    path) and with the exact union (the GPU's SPSV), against a long-double
//    reference computed here, and the SuiteSparse reference (GXO_metric)
//    against the same.
//  - correlation of rows far from their mean (1e5 times the spread) and of
//    rows nearly alike, shifted or scaled (r = 1 exactly, 1 - 1e-13),
//    every mode and the reference against the long-double reference.
//
// The reference here sums in long double (64-bit significand, exponents to
// 16383: no square of a double overflows or underflows in it), on values
// scaled by powers of two (ref_metric), and takes the p-norms scaled, M (sum
// (a/M)^p)^(1/p) with M = max a, as no long double holds 3^100000.  Tolerance: |got - ref| <= rtol max (|ref|, S) + 4 u_min,
// rtol 1e-5 (FP32 results) or 1e-12 (FP64; the reference GXO_metric always),
// S the conditioning scale of docs/metrics.md (DOT: sum |x y|; KL: sum |x
// ln(x/y)|, terms of both signs may cancel; COSINE, CORRELATION: 1e-7, as
// 1 - r is good to rtol absolute), u_min the smallest subnormal of the
// result's type: a result below DBL_MIN (FLT_MIN) carries the absolute
// rounding of the subnormal range whatever computes it.  A reference beyond
// the largest finite value of the result's type must come back as that
// infinity.  Never NaN; never negative but for DOT and KL.  The terms x y of
// DOT and x ln(x/y) of KL are part of the result: pairs where one of them is
// beyond DBL_MAX are outside the documented input range and not checked.
// The backend is the environment's (GXBDIST_BACKEND): the same file runs on
// the GPU.

#include "test_common.h"
#include <float.h>

#define NA NAN                  // no entry (0 and -0.0 are stored zeros)
typedef long double ld ;

//------------------------------------------------------------------------------
// matrices
//------------------------------------------------------------------------------

// A (m-by-k, type) from row-major values, NA = no entry
static void rows_of (GrB_Matrix *A, GrB_Type type, GrB_Index m, GrB_Index k,
    const double *v)
{
    GrB_Index I [1024], J [1024] ;
    double X [1024] ;
    GrB_Index nz = 0 ;
    assert_true (m * k <= 1024) ;
    for (GrB_Index i = 0 ; i < m ; i++)
        for (GrB_Index j = 0 ; j < k ; j++)
            if (!isnan (v [i*k+j]))
            {
                I [nz] = i ; J [nz] = j ; X [nz] = v [i*k+j] ; nz++ ;
            }
    GrB_Matrix T = NULL ;
    GXT_OK (GrB_Matrix_new (&T, GrB_FP64, m, k)) ;
    GXT_OK (GrB_Matrix_build_FP64 (T, I, J, X, nz, GrB_FIRST_FP64)) ;
    GXT_OK (GrB_Matrix_new (A, type, m, k)) ;
    GXT_OK (GrB_Matrix_assign (*A, NULL, NULL, T, GrB_ALL, m, GrB_ALL, k, NULL)) ;
    GrB_Matrix_free (&T) ;
}

// the values of A as the semiring sees them (typecast), dense, 0 = missing
static void dense_of (ld *X, GrB_Matrix A)
{
    GrB_Index m, k ;
    GXT_OK (GrB_Matrix_nrows (&m, A)) ;
    GXT_OK (GrB_Matrix_ncols (&k, A)) ;
    for (GrB_Index i = 0 ; i < m ; i++)
        for (GrB_Index j = 0 ; j < k ; j++)
        {
            double x = 0 ;
            GrB_Info info = GrB_Matrix_extractElement_FP64 (&x, A, i, j) ;
            if (info == GrB_NO_VALUE) x = 0 ;
            else GXT_OK (info) ;
            X [i*k+j] = x ;
        }
}

//------------------------------------------------------------------------------
// the long-double reference
//------------------------------------------------------------------------------

// the p-norm of a [0..k-1] >= 0, scaled by its largest entry
static ld pnorm (const ld *a, int k, ld p)
{
    ld M = 0, t = 0 ;
    for (int c = 0 ; c < k ; c++) M = fmaxl (M, a [c]) ;
    if (M == 0 || isinf (p) || isinf (M)) return M ;
    for (int c = 0 ; c < k ; c++) t += powl (a [c] / M, p) ;
    return M * powl (t, 1 / p) ;
}

// d(x, y) of metric `name` (p: MINKOWSKI) on values of at most 2 in
// magnitude (ref_metric scales them); *S the conditioning scale; *ok false
// where a term of DOT or KL is beyond `big`
static ld ref_scaled (const char *name, double p, const ld *x, const ld *y,
    int k, ld *S, bool *ok, ld big)
{
    ld a [64], sum = 0, s2 = 0, s3 = 0 ;
    *S = 0 ;
    *ok = true ;
    #define IS(N) (strcmp (name, N) == 0)
    if (IS ("EUCLIDEAN") || IS ("MINKOWSKI"))
    {
        for (int c = 0 ; c < k ; c++) a [c] = fabsl (x [c] - y [c]) ;
        return pnorm (a, k, IS ("EUCLIDEAN") ? 2 : p) ;
    }
    if (IS ("SQEUCLIDEAN"))
    {
        for (int c = 0 ; c < k ; c++) sum += (x [c] - y [c]) * (x [c] - y [c]) ;
        return sum ;
    }
    if (IS ("MANHATTAN") || IS ("CHEBYSHEV") || IS ("BRAYCURTIS"))
    {
        for (int c = 0 ; c < k ; c++)
        {
            ld d = fabsl (x [c] - y [c]) ;
            sum += d ;
            s2 = fmaxl (s2, d) ;
            s3 += fabsl (x [c] + y [c]) ;
        }
        if (IS ("MANHATTAN")) return sum ;
        if (IS ("CHEBYSHEV")) return s2 ;
        return (s3 > 0) ? sum / s3 : (sum > 0) ? INFINITY : 0 ;
    }
    if (IS ("CANBERRA"))
    {
        for (int c = 0 ; c < k ; c++)
        {
            ld s = fabsl (x [c]) + fabsl (y [c]) ;
            if (s > 0) sum += fabsl (x [c] - y [c]) / s ;
        }
        return sum ;
    }
    if (IS ("HAMMING") || IS ("JACCARD") || IS ("DICE") || IS ("RUSSELLRAO")
        || IS ("SOKALMICHENER"))
    {
        ld ne = 0, both = 0, nx = 0, ny = 0 ;
        for (int c = 0 ; c < k ; c++)
        {
            ne += (x [c] != y [c]) ;
            both += (x [c] != 0 && y [c] != 0) ;
            nx += (x [c] != 0) ;
            ny += (y [c] != 0) ;
        }
        if (IS ("HAMMING")) return (k > 0) ? ne / k : 0 ;
        if (IS ("RUSSELLRAO")) return (k > 0) ? (k - both) / k : 0 ;
        if (IS ("DICE")) return (nx + ny > 0) ? 1 - 2 * both / (nx + ny) : 0 ;
        if (IS ("SOKALMICHENER"))
        {
            ld one = nx + ny - 2 * both ;     // columns where exactly one is nonzero
            return (k > 0) ? 2 * one / (k + one) : 0 ;
        }
        ld u = nx + ny - both ;
        return (u > 0) ? 1 - both / u : 0 ;
    }
    if (IS ("COSINE") || IS ("CORRELATION"))
    {
        // d = |u - v|^2 / 2 for the unit rows u, v (no cancellation, so
        // identical rows give 0 exactly); constant rows (correlation) and
        // zero rows (cosine) by the zero rules
        ld mx = 0, my = 0 ;
        bool cx = true, cy = true ;
        for (int c = 0 ; c < k ; c++)
        {
            mx += x [c] / k ; my += y [c] / k ;
            cx = cx && (x [c] == x [0]) ; cy = cy && (y [c] == y [0]) ;
        }
        bool corr = IS ("CORRELATION") ;
        if (!corr) { mx = 0 ; my = 0 ; }
        ld xx = 0, yy = 0 ;
        for (int c = 0 ; c < k ; c++)
        {
            xx += (x [c] - mx) * (x [c] - mx) ;
            yy += (y [c] - my) * (y [c] - my) ;
        }
        bool zx = corr ? cx : (xx == 0), zy = corr ? cy : (yy == 0) ;
        *S = 1e-7L ;
        if (zx && zy) return 0 ;
        if (zx || zy) return 1 ;
        ld nx = sqrtl (xx), ny = sqrtl (yy) ;
        for (int c = 0 ; c < k ; c++)
        {
            ld d = (x [c] - mx) / nx - (y [c] - my) / ny ;
            sum += d * d ;
        }
        return sum / 2 ;
    }
    if (IS ("DOT"))
    {
        for (int c = 0 ; c < k ; c++)
        {
            ld t = x [c] * y [c] ;
            sum += t ;
            *S += fabsl (t) ;
            *ok = *ok && fabsl (t) <= big ;
        }
        return sum ;
    }
    if (IS ("HELLINGER"))
    {
        for (int c = 0 ; c < k ; c++) a [c] = fabsl (sqrtl (x [c]) - sqrtl (y [c])) ;
        return pnorm (a, k, 2) / sqrtl (2) ;
    }
    if (IS ("JENSEN_SHANNON"))
    {
        for (int c = 0 ; c < k ; c++)
        {
            ld m = (x [c] + y [c]) / 2 ;
            if (x [c] > 0) sum += x [c] * logl (x [c] / m) ;
            if (y [c] > 0) sum += y [c] * logl (y [c] / m) ;
        }
        return sqrtl (fmaxl (sum, 0) / 2) ;
    }
    #undef IS
    fail_msg ("no reference for %s", name) ;
    return 0 ;
}

// the (even) exponent of the largest |x_c| (0 for a zero row)
static int row_exponent (const ld *x, int k)
{
    ld amax = 0 ;
    for (int c = 0 ; c < k ; c++) amax = fmaxl (amax, fabsl (x [c])) ;
    int e = (amax > 0) ? ilogbl (amax) : 0 ;
    return e - (e & 1) ;
}

// d(x, y), computed on values scaled by powers of two so that the
// reference holds also where long double has no more range than double
// (valgrind's): cosine and correlation each row by its own (they do not
// change), KL as 2^a x' ln(x/y) with x' = 2^-a x (the ratio needs no
// scaling), every other metric the pair by one 2^-e, and the result by
// 2^(deg e), deg the degree of its homogeneity (d(cx, cy) = c^deg d(x, y))
static ld ref_metric (const char *name, double p, const ld *x, const ld *y,
    int k, ld *S, bool *ok)
{
    ld xs [64], ys [64] ;
    int a = row_exponent (x, k), b = row_exponent (y, k) ;
    #define IS(N) (strcmp (name, N) == 0)
    if (IS ("COSINE") || IS ("CORRELATION"))
    {
        for (int c = 0 ; c < k ; c++)
        {
            xs [c] = ldexpl (x [c], -a) ;
            ys [c] = ldexpl (y [c], -b) ;
        }
        *ok = true ;
        return ref_scaled (name, p, xs, ys, k, S, ok, 0) ;
    }
    if (IS ("KL_DIVERGENCE"))
    {
        ld sum = 0 ;
        *S = 0 ;
        *ok = true ;
        for (int c = 0 ; c < k ; c++)
        {
            if (!(x [c] > 0 && y [c] > 0)) continue ;
            // ln(x/y) unscaled: the ratio of two doubles is in long
            // double's range, and x = y gives 0 exactly (ln u - ln v + (a -
            // b) ln 2 leaves a rounding of ln 2's multiple where a != b)
            ld u = ldexpl (x [c], -a), q = x [c] / y [c] ;
            ld t = u * ((fabsl (q - 1) < 0.5L) ? log1pl ((x [c] - y [c]) / y [c])
                                                : logl (q)) ;
            sum += t ;
            *S += fabsl (t) ;
            *ok = *ok && fabsl (t) <= ldexpl (DBL_MAX, -a) ;
        }
        *S = ldexpl (*S, a) ;
        return ldexpl (sum, a) ;
    }
    // (the set metrics count nonzeros: unscaled)
    bool counts = IS ("HAMMING") || IS ("JACCARD") || IS ("DICE")
        || IS ("RUSSELLRAO") || IS ("SOKALMICHENER") ;
    int e = counts ? 0 : (a > b) ? a : b ;
    for (int c = 0 ; c < k ; c++)
    {
        xs [c] = ldexpl (x [c], -e) ;
        ys [c] = ldexpl (y [c], -e) ;
    }
    int twice_deg = (IS ("SQEUCLIDEAN") || IS ("DOT")) ? 4
        : (IS ("HELLINGER") || IS ("JENSEN_SHANNON")) ? 1
        : (IS ("EUCLIDEAN") || IS ("MINKOWSKI") || IS ("MANHATTAN")
           || IS ("CHEBYSHEV")) ? 2 : 0 ;
    #undef IS
    int shift = twice_deg * e / 2 ;
    ld r = ref_scaled (name, p, xs, ys, k, S, ok, ldexpl (DBL_MAX, -shift)) ;
    *S = ldexpl (*S, shift) ;
    return ldexpl (r, shift) ;
}

// The reference needs long double wider than double (x86's 64-bit
// significand, or quad): valgrind emulates it as double, so under valgrind
// (and on a platform whose long double is double) the tests that compare
// with it are skipped
static void need_wide_long_double (void)
{
    volatile ld one = 1, tiny = 0x1p-60L ;
    if (one + tiny == one)
    {
        printf ("[ SKIP     ] long double is no wider than double here\n") ;
        skip ( ) ;
    }
}

//------------------------------------------------------------------------------
// checking one value
//------------------------------------------------------------------------------

// got (a result of type `type`) against the reference r
static bool close_to (double got, ld r, ld S, GrB_Type type, double rtol,
    bool signed_ok)
{
    bool fp64 = (type == GrB_FP64) ;
    ld big = fp64 ? DBL_MAX : FLT_MAX ;
    if (isnan (got)) return false ;
    if (!signed_ok && got < 0) return false ;
    if (fabsl (r) > big) return isinf (got) && (got > 0) == (r > 0) ;
    if (isinf (got)) return false ;
    ld umin = fp64 ? 4 * (ld) DBL_TRUE_MIN : 4 * (ld) FLT_TRUE_MIN ;
    return fabsl ((ld) got - r) <= rtol * fmaxl (fabsl (r), S) + umin ;
}

// C (m-by-n) against the reference of every pair (rows of the dense X, Y)
static void check_all (GrB_Matrix C, const gxt_metric *mt, GrB_Type ctype,
    double rtol, const ld *X, const ld *Y, GrB_Index m, GrB_Index n, int k,
    const char *what)
{
    GrB_Index nvals ;
    GXT_OK (GrB_Matrix_nvals (&nvals, C)) ;
    if (nvals != m * n)
        GXT_FAIL ("%s p=%g [%s]: %lu entries, expected %lu", mt->name, mt->p,
            what, (unsigned long) nvals, (unsigned long) (m * n)) ;
    bool signed_ok = (mt->flags & GXT_SIGNED) != 0 ;
    for (GrB_Index i = 0 ; i < m ; i++)
        for (GrB_Index j = 0 ; j < n ; j++)
        {
            ld S ;
            bool ok ;
            ld r = ref_metric (mt->name, mt->p, X + i*k, Y + j*k, k, &S, &ok) ;
            if (!ok) continue ;         // outside DOT's / KL's input range
            double g = gxt_get (C, i, j) ;
            if (!close_to (g, r, S, ctype, rtol, signed_ok))
                GXT_FAIL ("%s p=%g [%s]: C(%lu,%lu) = %.17g, reference %.20Lg "
                    "(scale %Lg, rtol %g)", mt->name, mt->p, what,
                    (unsigned long) i, (unsigned long) j, g, r, S, rtol) ;
        }
}

//------------------------------------------------------------------------------
// running a metric
//------------------------------------------------------------------------------

typedef enum { PLAIN = 0, MASKED, EXACT, NMODES } mode ;
static const char *mode_name [NMODES] = { "plain", "masked", "exact union" } ;

// C = d(A, B) by metric mt in mode md (a new matrix of `type`)
static void run (GrB_Matrix *C, const gxt_metric *mt, GrB_Type type, mode md,
    GrB_Matrix A, GrB_Matrix B)
{
    GrB_Index m, n ;
    GXT_OK (GrB_Matrix_nrows (&m, A)) ;
    GXT_OK (GrB_Matrix_nrows (&n, B)) ;
    GrB_Semiring s = gxt_semiring (mt, type) ;
    GrB_Matrix M = NULL ;
    GXT_OK (GrB_Matrix_new (C, type, m, n)) ;
    if (md == MASKED)
    {
        // every pair through the mask: the sampled path
        GXT_OK (GrB_Matrix_new (&M, GrB_BOOL, m, n)) ;
        GXT_OK (GrB_Matrix_assign_BOOL (M, NULL, NULL, true, GrB_ALL, m,
            GrB_ALL, n, NULL)) ;
    }
    GXT_OK (GxB_Distance_set_exact_union (md == EXACT)) ;
    GrB_Info info = GxB_mxm_distance (*C, M, NULL, s, A, B, NULL) ;
    GXT_OK (GxB_Distance_set_exact_union (false)) ;
    GXT_OK (info) ;
    GrB_Matrix_free (&M) ;
    gxt_semiring_free (mt, &s) ;
}

// mt on A and B of `type` in every mode, and the reference GXO_metric, all
// against the long-double reference
static void check_metric (const gxt_metric *mt, GrB_Type type, GrB_Matrix A,
    GrB_Matrix B, const char *table)
{
    GrB_Index m, n, k ;
    GXT_OK (GrB_Matrix_nrows (&m, A)) ;
    GXT_OK (GrB_Matrix_nrows (&n, B)) ;
    GXT_OK (GrB_Matrix_ncols (&k, A)) ;
    ld *X = calloc (m * k + 1, sizeof (ld)), *Y = calloc (n * k + 1, sizeof (ld)) ;
    assert_non_null (X) ;
    assert_non_null (Y) ;
    dense_of (X, A) ;
    dense_of (Y, B) ;
    char what [128] ;
    for (int md = 0 ; md < NMODES ; md++)
    {
        GrB_Matrix C = NULL ;
        run (&C, mt, type, (mode) md, A, B) ;
        snprintf (what, sizeof (what), "%s %s, %s", table, gxt_type_name (type),
            mode_name [md]) ;
        check_all (C, mt, type, gxt_rtol (type), X, Y, m, n, (int) k, what) ;
        GrB_Matrix_free (&C) ;
    }
    // the reference of verify mode and of every other test: FP64 results,
    // held to 1e-12 whatever the input type
    GrB_Matrix D = NULL ;
    GXT_OK (GXO_metric (&D, mt->name, mt->p, type, A, B)) ;
    snprintf (what, sizeof (what), "%s %s, GXO_metric", table, gxt_type_name (type)) ;
    check_all (D, mt, GrB_FP64, 1e-12, X, Y, m, n, (int) k, what) ;
    GrB_Matrix_free (&D) ;
    free (X) ;
    free (Y) ;
}

//------------------------------------------------------------------------------
// the tables of extreme rows
//------------------------------------------------------------------------------

#define K 4
#define NROWS64 14
static const double table64 [NROWS64 * K] =
{
    1e300,   -1e300,   NA,     2e300,       // +-1e300
    -1e300,  1e300,    3e299,  0,           // and a stored zero
    1e-310,  NA,       2e-309, -3e-310,     // subnormals
    1.5e308, -1.7e308, NA,     1e308,       // near DBL_MAX
    2.5e-300, -1e-300, 4e-301, NA,          // +-1e-300
    0,       0,        NA,     0,           // stored zeros only
    NA,      NA,       NA,     NA,          // empty
    -0.0,    1e-320,   0.5,    NA,          // -0, a deep subnormal, 0.5
    1,       2,        3,      4,           // ordinary
    1e-200,  3e-200,   1e-200, NA,          // squares underflow
    1e200,   2e200,    NA,     -5e199,      // squares overflow
    1.7e308, 1.7e308,  1.7e308, 1.7e308,    // sums overflow; constant
    -1.7e308, 1.7e308, -1.7e308, 1.7e308,   // sums overflow, cancel
    1e300,   1e-300,   NA,     NA,          // 1e300 and 1e-300 in a row
} ;

#define NROWS32 11
static const double table32 [NROWS32 * K] =
{
    3e38,    -3.4e38,  NA,     1e38,        // near FLT_MAX
    -3.4e38, 3e38,     2e38,   0,
    1e-40,   NA,       1.4e-45, -3e-39,     // float subnormals
    1.2e-38, -1.1e-38, NA,     2e-38,       // near FLT_MIN
    3.4e38,  3.4e38,   3.4e38, 3.4e38,      // constant, near FLT_MAX
    0,       0,        NA,     0,
    NA,      NA,       NA,     NA,
    -0.0,    1e-45,    0.5,    NA,
    1,       2,        3,      4,
    1e-30,   3e-30,    1e-30,  NA,
    3e38,    1e-45,    NA,     NA,          // FLT_MAX and 1e-45 in a row
} ;

static const double mink_p [5] = { 0.5, 3, 1e5, 1e300, INFINITY } ;

// every metric (the non-negative ones on |table|) on the table against
// itself
static void every_metric_on (const double *table, GrB_Index nrows,
    GrB_Type type, const char *name)
{
    double absval [NROWS64 * K] ;
    for (GrB_Index q = 0 ; q < nrows * K ; q++) absval [q] = fabs (table [q]) ;
    GrB_Matrix A = NULL, N = NULL ;
    rows_of (&A, type, nrows, K, table) ;
    rows_of (&N, type, nrows, K, absval) ;
    for (int i = 0 ; i < gxt_nmetrics ; i++)
    {
        const gxt_metric *mt = &gxt_metrics [i] ;
        if (mt->fp32 == NULL) continue ;        // MINKOWSKI: below
        GrB_Matrix X = (mt->flags & GXT_NONNEG) ? N : A ;
        check_metric (mt, type, X, X, name) ;
    }
    for (int q = 0 ; q < 5 ; q++)
    {
        gxt_metric mk = { "MINKOWSKI", NULL, NULL, 0, mink_p [q], 0 } ;
        check_metric (&mk, type, A, A, name) ;
    }
    GrB_Matrix_free (&A) ;
    GrB_Matrix_free (&N) ;
}

static void every_metric_is_right_on_extreme_fp64_values (void **state)
{
    GXT_START ( ) ;
    need_wide_long_double ( ) ;
    every_metric_on (table64, NROWS64, GrB_FP64, "FP64 extremes") ;
}

static void every_metric_is_right_on_extreme_fp32_values (void **state)
{
    GXT_START ( ) ;
    need_wide_long_double ( ) ;
    every_metric_on (table32, NROWS32, GrB_FP32, "FP32 extremes") ;
}

//------------------------------------------------------------------------------
// Minkowski: large p, p = inf, bad p
//------------------------------------------------------------------------------

// C (2-by-2 of x and y against themselves) must be [0 d ; d 0] within tol
static void expect_pair (GrB_Semiring s, GrB_Type type, const double *xy,
    GrB_Index k, ld d, const char *what)
{
    GrB_Matrix A = NULL, C = NULL ;
    rows_of (&A, type, 2, k, xy) ;
    GXT_OK (gxt_distance (&C, type, s, A, A, NULL)) ;
    double tol = (type == GrB_FP32) ? 1e-6 : 1e-14 ;
    for (int i = 0 ; i < 2 ; i++)
        for (int j = 0 ; j < 2 ; j++)
        {
            ld e = (i == j) ? 0 : d ;
            double g = gxt_get (C, i, j) ;
            if (isnan (g) || !(fabsl ((ld) g - e) <= tol * fabsl (e)))
                GXT_FAIL ("[%s] %s: C(%d,%d) = %.17g, expected %.17Lg (by hand)",
                    what, gxt_type_name (type), i, j, g, e) ;
        }
    GrB_Matrix_free (&A) ;
    GrB_Matrix_free (&C) ;
}

// x = [2, 0, 0.25], y = [0.5, 3, 0]: |x - y| = [1.5, 3, 0.25], so d_p =
// (1.5^p + 3^p + 0.25^p)^(1/p) = 3 (1 + 2^-p + 12^-p)^(1/p): 3 for p = 1e5,
// 1e300 and inf (to the last bit: 2^-1e5 is far below it), cbrt(30.390625)
// for p = 3, (sqrt 1.5 + sqrt 3 + 1/2)^2 for p = 1/2.  Also scaled by 1e300
// and 1e-300 (FP64), 1e37 and 1e-37 (FP32): d scales with them, where the
// p-th powers overflow or underflow.  Before issue 15 p = 1e5 gave 0.
static void minkowski_of_large_p_is_the_largest_difference (void **state)
{
    GXT_START ( ) ;
    need_wide_long_double ( ) ;
    const double x [3] = { 2, 0, 0.25 }, y [3] = { 0.5, 3, 0 } ;
    const ld hand [5] =
    {
        (sqrtl (1.5L) + sqrtl (3) + 0.5L) * (sqrtl (1.5L) + sqrtl (3) + 0.5L),
        cbrtl (30.390625L), 3, 3, 3
    } ;
    for (int t = 0 ; t < 2 ; t++)
    {
        GrB_Type type = t ? GrB_FP64 : GrB_FP32 ;
        const double scales [3] = { 1, t ? 1e300 : 1e37, t ? 1e-300 : 1e-37 } ;
        for (int q = 0 ; q < 5 ; q++)
        {
            GrB_Semiring s = NULL ;
            GXT_OK (GxB_Semiring_new_minkowski (&s, mink_p [q], type)) ;
            for (int sc = 0 ; sc < 3 ; sc++)
            {
                double xy [6] ;
                for (int c = 0 ; c < 3 ; c++)
                {
                    xy [c] = x [c] * scales [sc] ;
                    xy [3+c] = y [c] * scales [sc] ;
                    if (xy [c] == 0) xy [c] = NA ;
                    if (xy [3+c] == 0) xy [3+c] = NA ;
                }
                // the scaled values as the type holds them: d scales exactly
                // with 1 and with powers of ten only to rounding, so the hand
                // value is scaled in long double and compared to 1e-6 / 1e-14
                ld d = hand [q] * (ld) scales [sc] ;
                if (type == GrB_FP32) d = hand [q] * (ld) (float) scales [sc] ;
                char what [64] ;
                snprintf (what, sizeof (what), "MINKOWSKI p=%g, values x %g",
                    mink_p [q], scales [sc]) ;
                if (sc == 0) expect_pair (s, type, xy, 3, d, what) ;
                else
                {
                    // x and y scaled in the type: compare with the
                    // long-double reference of the stored values instead
                    GrB_Matrix A = NULL ;
                    rows_of (&A, type, 2, 3, xy) ;
                    gxt_metric mk = { "MINKOWSKI", NULL, NULL, 0, mink_p [q], 0 } ;
                    check_metric (&mk, type, A, A, what) ;
                    GrB_Matrix_free (&A) ;
                }
            }
            GrB_Semiring_free (&s) ;
        }
        // and the reference on the unscaled pair
        GrB_Matrix A = NULL ;
        double xy [6] = { 2, NA, 0.25, 0.5, 3, NA } ;
        rows_of (&A, type, 2, 3, xy) ;
        for (int q = 0 ; q < 5 ; q++)
        {
            GrB_Matrix D = NULL ;
            GXT_OK (GXO_metric (&D, "MINKOWSKI", mink_p [q], type, A, A)) ;
            double g = gxt_get (D, 0, 1) ;
            if (!(fabsl ((ld) g - hand [q]) <= 1e-14 * hand [q]))
                GXT_FAIL ("GXO_metric MINKOWSKI p=%g %s: %.17g, expected %.17Lg",
                    mink_p [q], gxt_type_name (type), g, hand [q]) ;
            GrB_Matrix_free (&D) ;
        }
        GrB_Matrix_free (&A) ;
    }
}

// p = INFINITY is Chebyshev: the same bits, on the extreme table and on
// random data
static void minkowski_of_infinite_p_is_chebyshev (void **state)
{
    GXT_START ( ) ;
    for (int t = 0 ; t < 2 ; t++)
    {
        GrB_Type type = t ? GrB_FP64 : GrB_FP32 ;
        GrB_Matrix A = NULL, B = NULL, C1 = NULL, C2 = NULL ;
        for (int data = 0 ; data < 2 ; data++)
        {
            if (data == 0) rows_of (&A, type, t ? NROWS64 : NROWS32, K,
                t ? table64 : table32) ;
            else
            {
                GrB_Matrix A64 = NULL ;
                gxt_pair (&A64, &B, GXT_SHAPE_RANDOM, GXT_MIXED) ;
                gxt_convert (&A, A64, GXT_FMT_SPARSE, type) ;
                GrB_Matrix_free (&A64) ;
                GrB_Matrix_free (&B) ;
            }
            GrB_Semiring s = NULL ;
            GXT_OK (GxB_Semiring_new_minkowski (&s, INFINITY, type)) ;
            GXT_OK (gxt_distance (&C1, type, s, A, A, NULL)) ;
            GXT_OK (gxt_distance (&C2, type, t ? GxB_DIST_CHEBYSHEV_FP64
                : GxB_DIST_CHEBYSHEV_FP32, A, A, NULL)) ;
            gxt_check_bitwise (C1, C2, data ? "p = inf, random data"
                : "p = inf, extreme table") ;
            GrB_Semiring_free (&s) ;
            GrB_Matrix_free (&A) ;
            GrB_Matrix_free (&C1) ;
            GrB_Matrix_free (&C2) ;
        }
    }
}

// MIN and MAX unions of every pair (on the CPU: the intersection product
// and rows sorted by their terms with the missing value) equal the merge of
// each pair's two rows (the sampled path, here under a full mask): CHEBYSHEV
// bit for bit (its rows made finite), x - y under MAX (missing entries 0)
// and under MIN (missing entries 1.5) in value (zeros of either sign are
// equal), on rows of NaN, infinities, signed zeros, extremes and ties, some
// empty; B wider than the
// CPU's block of rows (16,384) so that several blocks run
static void minmax_all_pairs_equal_the_merge (void **state)
{
    GXT_START ( ) ;
    const double pool [14] = { NAN, INFINITY, -INFINITY, 0.0, -0.0, 1e300,
        -1e300, 5e-324, 1.5, -1.5, 3, -7, 7, 0.25 } ;
    const GrB_Index m = 37, n = 2 * 16384 + 77, k = 40 ;
    for (int t = 0 ; t < 2 ; t++)
    {
        GrB_Type type = t ? GrB_FP64 : GrB_FP32 ;
        GxB_NAMM nmax = NULL, nmin = NULL ;
        GrB_Semiring s [3] = { t ? GxB_DIST_CHEBYSHEV_FP64 : GxB_DIST_CHEBYSHEV_FP32,
            NULL, NULL } ;
        GXT_OK (GxB_NAMM_new (&nmax, t ? GrB_MINUS_FP64 : GrB_MINUS_FP32, 0)) ;
        GXT_OK (GxB_NAMM_new (&nmin, t ? GrB_MINUS_FP64 : GrB_MINUS_FP32, 1.5)) ;
        GXT_OK (GxB_Semiring_new_NAMM (&s [1], t ? GrB_MAX_MONOID_FP64
            : GrB_MAX_MONOID_FP32, nmax)) ;
        GXT_OK (GxB_Semiring_new_NAMM (&s [2], t ? GrB_MIN_MONOID_FP64
            : GrB_MIN_MONOID_FP32, nmin)) ;
        const char *what [3] = { "CHEBYSHEV", "x - y under MAX", "x - y under MIN" } ;
        GrB_Matrix X [2] = { NULL, NULL }, Xf [2] = { NULL, NULL } ;
        for (int w = 0 ; w < 2 ; w++)
        {
            GrB_Index rows = w ? n : m, nz = 0 ;
            GrB_Index *I = malloc (rows * 8 * sizeof (GrB_Index)) ;
            GrB_Index *J = malloc (rows * 8 * sizeof (GrB_Index)) ;
            double *V = malloc (rows * 8 * sizeof (double)) ;
            assert_non_null (I) ; assert_non_null (J) ; assert_non_null (V) ;
            for (GrB_Index i = 0 ; i < rows ; i++)
            {
                int len = (int) (gxt_rand ( ) % 8) ;     // 0 .. 7, some empty
                for (int e = 0 ; e < len ; e++)
                {
                    I [nz] = i ;
                    J [nz] = gxt_rand ( ) % k ;
                    V [nz] = (gxt_rand ( ) % 3 == 0) ? gxt_uniform ( ) * 10 - 5
                        : pool [gxt_rand ( ) % 14] ;
                    nz++ ;
                }
            }
            GXT_OK (GrB_Matrix_new (&X [w], type, rows, k)) ;
            GXT_OK (GrB_Matrix_build_FP64 (X [w], I, J, V, nz, GrB_FIRST_FP64)) ;
            // CHEBYSHEV's: the same with each value that is not finite in
            // the type (NaN, ±inf, ±1e300 in FP32) made the largest finite
            const double big = t ? DBL_MAX : FLT_MAX ;
            for (GrB_Index e = 0 ; e < nz ; e++)
                V [e] = isnan (V [e]) ? 2.5 : fmax (-big, fmin (big, V [e])) ;
            GXT_OK (GrB_Matrix_new (&Xf [w], type, rows, k)) ;
            GXT_OK (GrB_Matrix_build_FP64 (Xf [w], I, J, V, nz, GrB_FIRST_FP64)) ;
            free (I) ; free (J) ; free (V) ;
        }
        for (int q = 0 ; q < 6 ; q++)
        {
            int pairs = q & 1 ;
            // a predefined metric refuses NaN and infinities (docs/metrics.md)
            GrB_Matrix *Y = (q < 2) ? Xf : X ;
            GrB_Matrix A = Y [0], B = pairs ? Y [1] : Y [0] ;
            if (q < 2)
            {
                GrB_Matrix C0 = NULL ;
                GXT_EXPECT (GrB_INVALID_VALUE, gxt_distance (&C0, type, s [0], X [0], X [pairs], NULL)) ;
                GrB_Matrix_free (&C0) ;
            }
            GrB_Matrix C1 = NULL, C2 = NULL, M = NULL ;
            GrB_Index mb ;
            GXT_OK (GrB_Matrix_nrows (&mb, B)) ;
            GXT_OK (gxt_distance (&C1, type, s [q/2], A, B, NULL)) ;
            GXT_OK (GrB_Matrix_new (&M, GrB_BOOL, m, mb)) ;
            GXT_OK (GrB_Matrix_assign_BOOL (M, NULL, NULL, true, GrB_ALL, m,
                GrB_ALL, mb, NULL)) ;
            gxt_new_result (&C2, type, A, B) ;
            gxt_poison (C2) ;
            GXT_OK (GxB_mxm_distance (C2, M, NULL, s [q/2], A, B, GrB_DESC_S)) ;
            char context [64] ;
            snprintf (context, sizeof (context), "%s, %s", what [q/2],
                pairs ? "A x wide B" : "A x A") ;
            if (q < 2) gxt_check_bitwise (C1, C2, context) ;
            else gxt_check_same (C1, C2, 0, 0, context) ;
            GrB_Matrix_free (&C1) ; GrB_Matrix_free (&C2) ; GrB_Matrix_free (&M) ;
        }
        GrB_Matrix_free (&X [0]) ; GrB_Matrix_free (&X [1]) ;
        GrB_Matrix_free (&Xf [0]) ; GrB_Matrix_free (&Xf [1]) ;
        GrB_Semiring_free (&s [1]) ; GrB_Semiring_free (&s [2]) ;
        GxB_NAMM_free (&nmax) ; GxB_NAMM_free (&nmin) ;
    }
}

static void minkowski_p_not_positive_or_nan_is_invalid (void **state)
{
    GXT_START ( ) ;
    const double bad [6] = { 0, -0.0, -1, -1e300, -INFINITY, NAN } ;
    for (int t = 0 ; t < 2 ; t++)
        for (int i = 0 ; i < 6 ; i++)
        {
            GrB_Semiring s = NULL ;
            GXT_EXPECT (GrB_INVALID_VALUE, GxB_Semiring_new_minkowski (&s,
                bad [i], t ? GrB_FP64 : GrB_FP32)) ;
            assert_null (s) ;
        }
    // the reference agrees
    GrB_Matrix A = NULL, D = NULL ;
    const double v [2] = { 1, 2 } ;
    rows_of (&A, GrB_FP64, 1, 2, v) ;
    for (int i = 0 ; i < 6 ; i++)
    {
        GXT_EXPECT (GrB_INVALID_VALUE, GXO_metric (&D, "MINKOWSKI", bad [i],
            GrB_FP64, A, A)) ;
        assert_null (D) ;
    }
    GrB_Matrix_free (&A) ;
}

//------------------------------------------------------------------------------
// KL_DIVERGENCE and the other textbook intermediates
//------------------------------------------------------------------------------

// d(row 0, row 1) of a 2-row table must be the long-double reference (and
// finite), by every mode and by GXO_metric; the hand value (when given) too
static void expect_metric_pair (const char *name, GrB_Type type,
    const double *xy, GrB_Index k, double hand)
{
    const gxt_metric *mt = gxt_metric_named (name) ;
    GrB_Matrix A = NULL ;
    rows_of (&A, type, 2, k, xy) ;
    char what [64] ;
    snprintf (what, sizeof (what), "%s pair", name) ;
    check_metric (mt, type, A, A, what) ;
    if (!isnan (hand))
    {
        GrB_Matrix C = NULL ;
        GXT_OK (gxt_distance (&C, type, gxt_semiring (mt, type), A, A, NULL)) ;
        double g = gxt_get (C, 0, 1) ;
        double tol = ((type == GrB_FP32) ? 1e-6 : 1e-14) * fabs (hand) ;
        if (!(fabs (g - hand) <= tol))
            GXT_FAIL ("%s %s: d = %.17g, expected %.17g (by hand)", name,
                gxt_type_name (type), g, hand) ;
        GrB_Matrix_free (&C) ;
    }
    GrB_Matrix_free (&A) ;
}

// FP64: x = [1e-310, 1e-38], y = [1e300, 2e-38]: (x-y)/y is exactly -1 in
// the first column, so log1p gave -inf; the value is 1e-310 ln(1e-610) +
// 1e-38 ln(1/2) = -6.93e-39.  FP32: x = [1e-40, 2], y = [3e38, 1] (held in
// double): (x-y)/y is -1 again; the value is 2 ln 2 + 1e-40 ln(3.3e-79).
// Both were -inf before issue 15.
static void kl_of_subnormal_and_huge_entries_is_finite (void **state)
{
    GXT_START ( ) ;
    need_wide_long_double ( ) ;
    const double a [4] = { 1e-310, 1e-38, 1e300, 2e-38 } ;
    expect_metric_pair ("KL_DIVERGENCE", GrB_FP64, a, 2, NAN) ;
    const double b [2] = { 1e-310, 1 } ;
    // a single column: 1e-310 ln(1e-310), a normal number
    expect_metric_pair ("KL_DIVERGENCE", GrB_FP64, b, 1,
        (double) ((ld) b [0] * logl ((ld) b [0]))) ;
    const double c [4] = { 1e-40, 2, 3e38, 1 } ;
    expect_metric_pair ("KL_DIVERGENCE", GrB_FP32, c, 2, NAN) ;
    // the FP32 case of the issue: one entry near FLT_MAX, one near 1e-40
    const double d [4] = { 1e-40, 1, 1, 3e38 } ;
    expect_metric_pair ("KL_DIVERGENCE", GrB_FP32, d, 2, NAN) ;
}

// one case per metric whose textbook form leaves the range; each came back
// wrong (NaN, 0, inf or a subnormal's few digits) before issue 15
static void textbook_intermediates_out_of_range_are_avoided (void **state)
{
    GXT_START ( ) ;
    need_wide_long_double ( ) ;
    // Canberra: |x-y| / (|x|+|y|) with x = -y = 1e308: inf / inf; each
    // column gives 1
    const double can [4] = { 1e308, -1e308, -1e308, 1e308 } ;
    expect_metric_pair ("CANBERRA", GrB_FP64, can, 2, 2) ;
    // Bray-Curtis: sum |x-y| = sum |x+y| = 2e308 (both overflow): 1
    const double bc [4] = { 1e308, 1e308, -1e308, 1e308 } ;
    expect_metric_pair ("BRAYCURTIS", GrB_FP64, bc, 2, 1) ;
    // cosine of [1e300, 1e300] and [1e300, 0]: the squared norms overflow;
    // 1 - 1/sqrt 2
    const double cs [4] = { 1e300, 1e300, 1e300, NA } ;
    expect_metric_pair ("COSINE", GrB_FP64, cs, 2, (double) (1 - 1 / sqrtl (2))) ;
    // ... and of subnormal rows: their squares underflow
    const double cs2 [4] = { 3e-320, 3e-320, 3e-320, NA } ;
    expect_metric_pair ("COSINE", GrB_FP64, cs2, 2, NAN) ;
    // Euclidean: 1e200 (its square overflows), and 3 2^-1060, 4 2^-1060
    // (subnormals, whose squares underflow): 5 2^-1060 exactly
    const double eu [2] = { 1e200, NA } ;
    expect_metric_pair ("EUCLIDEAN", GrB_FP64, eu, 1, 1e200) ;
    const double eu2 [4] = { 3 * 0x1p-1060, 4 * 0x1p-1060, NA, NA } ;
    expect_metric_pair ("EUCLIDEAN", GrB_FP64, eu2, 2, 5 * 0x1p-1060) ;
    // Jensen-Shannon of [2^-1063] and [0]: the term x ln 2 is subnormal,
    // the distance sqrt(x ln 2 / 2) is not
    const double js [2] = { 0x1p-1063, NA } ;
    expect_metric_pair ("JENSEN_SHANNON", GrB_FP64, js, 1,
        (double) sqrtl (0x1p-1063L * logl (2) / 2)) ;
    // ... and near DBL_MAX: x + y overflows
    const double js2 [4] = { 1.7e308, 1.6e308, 1.5e308, 1e300 } ;
    expect_metric_pair ("JENSEN_SHANNON", GrB_FP64, js2, 2, NAN) ;
    // Hellinger of [2^-1070] and [0]: sqrt(x/2)
    const double he [2] = { 0x1p-1070, NA } ;
    expect_metric_pair ("HELLINGER", GrB_FP64, he, 1, (double) sqrtl (0x1p-1071L)) ;
    // ... of two rows near DBL_MAX: sum (sqrt x - sqrt y)^2 = 3.4e308
    const double he2 [4] = { 1.7e308, 1.7e308, NA, NA } ;
    expect_metric_pair ("HELLINGER", GrB_FP64, he2, 2, (double) sqrtl ((ld) he2 [0])) ;
    // correlation of rows near DBL_MAX: the sums and means overflow
    const double co [6] = { 1.7e308, -1.7e308, 1.7e308, 1.7e308, 1.7e308, -1.7e308 } ;
    expect_metric_pair ("CORRELATION", GrB_FP64, co, 3, NAN) ;
    // Manhattan and squared Euclidean of two rows near DBL_MAX whose sums
    // overflow but whose distance does not
    const double ma [4] = { 1.7e308, 1.7e308, 1.7e308, 1.6e308 } ;
    expect_metric_pair ("MANHATTAN", GrB_FP64, ma, 2, 1.7e308 - 1.6e308) ;
    const double sq [4] = { 1e154, 1e154, 1e154, NA } ;
    expect_metric_pair ("SQEUCLIDEAN", GrB_FP64, sq, 2, NAN) ;
}

//------------------------------------------------------------------------------
// correlation: rows far from their mean, and rows nearly alike
//------------------------------------------------------------------------------

// Correlation's sums cancel where the rows are alike (d near 0) and where a
// row's mean is large against its spread (1 - r from sums of x y, or of
// the rows' standardised values, loses the digits the offset takes).  Rows
// of every kind, against the long-double reference, by every mode and by
// GXO_metric (which takes such pairs again from their centred terms).
#define KC 40
#define NC 22

// row r of V (NA = no entry): a kind of row, from the rows before it
static void corr_row_of (double *V, int r)
{
    double *x = V + r * KC ;
    const double *prev = V + (r - 1) * KC ;
    for (int c = 0 ; c < KC ; c++) x [c] = NA ;
    switch (r % 11)
    {
        case 0 :    // sparse, both signs
            for (int c = 0 ; c < KC ; c++)
                if (gxt_uniform ( ) < 0.25) x [c] = 2 * gxt_uniform ( ) - 1 ;
            x [r % KC] = 0.5 ;
            break ;
        case 1 :    // the sparse row, one entry 1 + 1e-9 times as large
        case 4 :    // the dense row, one entry moved by 1e-6
            memcpy (x, prev, KC * sizeof (double)) ;
            x [r % KC] = (r % 11 == 1) ? x [r % KC] * (1 + 1e-9) : x [r % KC] + 1e-6 ;
            break ;
        case 2 :    // the sparse row with an entry of 1e-8 more
            memcpy (x, V + (r - 2) * KC, KC * sizeof (double)) ;
            for (int c = 0 ; c < KC ; c++) if (isnan (x [c])) { x [c] = 1e-8 ; break ; }
            break ;
        case 3 :    // dense, mean 1e5 times the spread
            for (int c = 0 ; c < KC ; c++) x [c] = 1e5 + gxt_uniform ( ) ;
            break ;
        case 5 :    // dense, every entry but one, mean about the spread
            for (int c = 1 ; c < KC ; c++) x [c] = 0.5 + (2 * gxt_uniform ( ) - 1) ;
            break ;
        case 6 :    // that row times 3 (r = 1)
        case 7 :    // ... and plus 2 (r = 1, every column now held)
            memcpy (x, prev, KC * sizeof (double)) ;
            for (int c = 0 ; c < KC ; c++)
            {
                if (r % 11 == 6 && !isnan (x [c])) x [c] *= 3 ;
                if (r % 11 == 7) x [c] = (isnan (x [c]) ? 0 : x [c]) + 2 ;
            }
            break ;
        case 8 :    // the dense row of mean 1e5 reversed: the same mean and
                    // spread, unrelated (alpha = beta, and both large)
            for (int c = 0 ; c < KC ; c++) x [c] = V [(r - 5) * KC + KC - 1 - c] ;
            break ;
        case 9 :    // the row of mean about its spread less 0.5 (mean 0),
                    // and 1e-6 of noise: r = 1 - 1e-12 or so, alpha - beta
                    // about 1 / sqrt (k)
            for (int c = 0 ; c < KC ; c++)
            {
                x [c] = V [(r - 4) * KC + c] ;
                x [c] = (isnan (x [c]) ? 0 : x [c]) - 0.5 + 1e-6 * gxt_uniform ( ) ;
            }
            break ;
        default :   // constant, empty, explicit zeros, a single entry
            if (r == 10) for (int c = 0 ; c < KC ; c++) x [c] = 7 ;
            if (r == 21) { x [3] = 0 ; x [9] = 0 ; }
            break ;
    }
}

static void correlation_is_right_on_offsets_and_near_duplicates (void **state)
{
    GXT_START ( ) ;
    need_wide_long_double ( ) ;
    double V [NC * KC] ;
    for (int r = 0 ; r < NC ; r++) corr_row_of (V, r) ;
    const gxt_metric *mt = gxt_metric_named ("CORRELATION") ;
    for (int t = 0 ; t < 2 ; t++)
    {
        GrB_Type type = (t == 0) ? GrB_FP64 : GrB_FP32 ;
        GrB_Matrix A = NULL ;
        rows_of (&A, type, NC, KC, V) ;
        check_metric (mt, type, A, A, "correlation's rows") ;
        GrB_Matrix_free (&A) ;
    }
}

//------------------------------------------------------------------------------

static const struct CMUnitTest tests [ ] =
{
    cmocka_unit_test (minkowski_of_large_p_is_the_largest_difference),
    cmocka_unit_test (minkowski_of_infinite_p_is_chebyshev),
    cmocka_unit_test (minmax_all_pairs_equal_the_merge),
    cmocka_unit_test (minkowski_p_not_positive_or_nan_is_invalid),
    cmocka_unit_test (kl_of_subnormal_and_huge_entries_is_finite),
    cmocka_unit_test (textbook_intermediates_out_of_range_are_avoided),
    cmocka_unit_test (every_metric_is_right_on_extreme_fp64_values),
    cmocka_unit_test (every_metric_is_right_on_extreme_fp32_values),
    cmocka_unit_test (correlation_is_right_on_offsets_and_near_duplicates),
} ;

GXT_MAIN ("extreme values", tests)
