// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// reference/oracle/oracle_ops.c: the oracle's own per-column formulas
//------------------------------------------------------------------------------

// Each metric's (x) as a GxB_BinaryOp on doubles, written from the textbook
// formula.  The logarithmic terms are rearranged where the textbook form
// loses the answer to rounding for close x and y (KL, Jensen-Shannon): the
// oracle must stay exact for near-duplicate rows, which is what tests probe.
// No term may overflow or underflow where the distance is representable
// (issue 15): ratios are taken where they stay normal (xlog), and the
// 2-norm metrics (Hellinger, Jensen-Shannon) give per-column roots that the
// scaled sums of oracle_pairs.c combine.

#include "oracle_internal.h"
#include <float.h>
#include <math.h>
#include <pthread.h>

// MINKOWSKI's |x-y|^p: a GrB_BinaryOp carries no parameter (SuiteSparse 7.4
// has neither a JIT nor an operator with a theta), so p is a variable of
// the oracle's, set for a whole reference by GXO_power_hold and kept by a
// mutex until GXO_power_release: a second thread's Minkowski reference
// waits for the first one's.
static pthread_mutex_t power_lock = PTHREAD_MUTEX_INITIALIZER ;
static double power = 1 ;

void GXO_power_hold (double p)
{
    pthread_mutex_lock (&power_lock) ;
    power = p ;
}

void GXO_power_release (void)
{
    pthread_mutex_unlock (&power_lock) ;
}

// v ln(v/w) for v, w > 0, also when v/w would overflow or underflow
static double xlog (double v, double w)
{
    double r = v / w ;
    return ((r >= DBL_MIN && r <= DBL_MAX) ? v * log (r)
                                           : v * (log (v) - log (w))) ;
}

// x ln(x/y) for x > 0 and y > 0, else 0.  Near x = y, ln(x/y) is taken as
// log1p((x-y)/y), whose argument is exact up to one rounding (x-y is exact),
// where log(x/y) would keep only the absolute accuracy of x/y - 1.
static double kl_term (double x, double y)
{
    if (!(x > 0 && y > 0)) return (0) ;
    double r = (x - y) / y ;
    return ((fabs (r) < 0.5) ? x * log1p (r) : xlog (x, y)) ;
}

// sqrt (x ln(x/m) + y ln(y/m)), m = (x+y)/2, for x, y >= 0 with 0 ln 0 =
// 0: the term is m f(d), d = (x-y)/(x+y), f(d) = (1+d) ln(1+d) + (1-d)
// ln(1-d), and its root sqrt(x+y) sqrt(f(d)/2) is a normal number for any
// x != y, where the term itself may be subnormal (x = 1e-320, y = 0) or
// overflow (x, y near DBL_MAX); the distance is the 2-norm of these roots
// (oracle_pairs.c sums them scaled).  For close x and y the two parts of f
// cancel to d^2; there f(d) = 2 d atanh(d) + log1p(-d^2), which loses at
// most a bit for |d| < 1/2 (f = d^2 + d^4/6 + ...).  Elsewhere f = u ln u
// + v ln v, u = 2x/(x+y), v = 2y/(x+y) in [0, 2].  Where x + y overflows,
// the halves of x and y (exact, both being huge or negligible) and twice
// the result squared.
static double js_root (double x, double y)
{
    if (x == y) return (0) ;                        // also 0 and 0
    double w = 1 ;
    if (x + y > DBL_MAX)
    {
        x *= 0.5 ;
        y *= 0.5 ;
        w = 2 ;
    }
    double s = x + y ;
    double d = (x - y) / s ;
    double f ;
    if (fabs (d) < 0.5)
    {
        // f(d) >= 0; fmax only keeps a last-bit rounding from making it < 0
        f = fmax (2 * d * atanh (d) + log1p (-d * d), 0) ;
    }
    else
    {
        double u = 2 * (x / s), v = 2 * (y / s) ;
        f = ((u > 0) ? u * log (u) : 0) + ((v > 0) ? v * log (v) : 0) ;
    }
    return (sqrt (s) * sqrt (0.5 * w * f)) ;
}

// |sqrt x - sqrt y| for x, y >= 0, as |x-y| / (sqrt x + sqrt y): the
// difference of the roots loses the digits they share, x - y does not;
// never out of range (subnormal x, y give a normal root)
static double hellinger_root (double x, double y)
{
    if (x == y) return (0) ;                        // also 0/0
    return (fabs (x - y) / (sqrt (x) + sqrt (y))) ;
}

#define X (*(const double *) x)
#define Y (*(const double *) y)
#define Z (*(double *) z)

static void sqdiff   (void *z, const void *x, const void *y)
{
    double d = X - Y ;
    Z = d * d ;
}
static void absdiff  (void *z, const void *x, const void *y)
{
    Z = fabs (X - Y) ;
}
static void abssum   (void *z, const void *x, const void *y)
{
    Z = fabs (X + Y) ;
}
static void halfabsdiff (void *z, const void *x, const void *y)
{
    Z = fabs (0.5 * X - 0.5 * Y) ;
}
static void halfabssum (void *z, const void *x, const void *y)
{
    Z = fabs (0.5 * X + 0.5 * Y) ;
}
static void canberra (void *z, const void *x, const void *y)
{
    double s = fabs (X) + fabs (Y) ;
    // 0/0 = 0; where |x|+|y| overflows (x = -y = 1e308) the ratio is that
    // of a quarter of each (exact: they are huge, or negligible)
    Z = (s == 0) ? 0 : (s <= DBL_MAX) ? fabs (X - Y) / s
        : fabs (0.25 * X - 0.25 * Y) / (0.25 * fabs (X) + 0.25 * fabs (Y)) ;
}
static void powdiff  (void *z, const void *x, const void *y)
{
    Z = pow (fabs (X - Y), power) ;
}
static void ne       (void *z, const void *x, const void *y)
{
    Z = (X != Y) ? 1 : 0 ;
}
static void hellroot (void *z, const void *x, const void *y)
{
    Z = hellinger_root (X, Y) ;
}
static void hellsq   (void *z, const void *x, const void *y)
{
    double r = hellinger_root (X, Y) ;
    Z = r * r ;
}
static void jsroot   (void *z, const void *x, const void *y)
{
    Z = js_root (X, Y) ;
}
static void jssq     (void *z, const void *x, const void *y)
{
    double r = js_root (X, Y) ;
    Z = r * r ;
}
static void kl       (void *z, const void *x, const void *y)
{
    Z = kl_term (X, Y) ;
}
static void abskl    (void *z, const void *x, const void *y)
{
    Z = fabs (kl_term (X, Y)) ;
}

#undef X
#undef Y
#undef Z

// an FP64 operator from entry code of a table of functions and names
typedef struct { GxB_binary_function f ; const char *name ; } op_entry ;

static GrB_Info op_from (GrB_BinaryOp *op, const op_entry *table, int ncodes,
    gxo_opcode code)
{
    if (op == NULL) return (GrB_NULL_POINTER) ;
    if ((int) code < 0 || (int) code >= ncodes || table [code].f == NULL)
    {
        return (GrB_INVALID_VALUE) ;
    }
    return (GxB_BinaryOp_new (op, table [code].f, GrB_FP64, GrB_FP64,
        GrB_FP64, table [code].name, NULL)) ;
}


GrB_Info GXO_corr_new (gxo_corr *corr, gxo_opcode code)
{
    if (corr == NULL) return (GrB_NULL_POINTER) ;
    corr->nterms = 0 ;
    corr->equal = (code == GXO_OP_NE) ;
    corr->exact = (code == GXO_OP_NE) ? GXO_EXACT_ALWAYS :
        (code == GXO_OP_SQDIFF || code == GXO_OP_ABSDIFF ||
         code == GXO_OP_ABSSUM) ? GXO_EXACT_INTEGERS : GXO_EXACT_NEVER ;
    gxo_corr_term *t = corr->term ;
    switch (code)
    {
        case GXO_OP_SQDIFF :        // (x-y)^2 - x^2 - y^2 = -2xy
            t [0] = (gxo_corr_term) { GrB_PLUS_TIMES_SEMIRING_FP64,
                GXO_PART_ALL, GXO_PART_ALL, -2, 1 } ;
            corr->nterms = 1 ;
            break ;
        case GXO_OP_HELLSQ :        // (sqrt x - sqrt y)^2 - x - y
            t [0] = (gxo_corr_term) { GrB_PLUS_TIMES_SEMIRING_FP64,
                GXO_PART_SQRT, GXO_PART_SQRT, -2, 1 } ;
            corr->nterms = 1 ;
            break ;
        // |x-y| - |x| - |y| = -2 min (|x|, |y|) where x, y have one sign,
        // and |x+y| - |x| - |y| the same where their signs differ; -2 min
        // (u, v) = max (-2u, -2v), every product exact
        case GXO_OP_ABSDIFF :
            t [0] = (gxo_corr_term) { GxB_PLUS_MAX_FP64,
                GXO_PART_POS, GXO_PART_POS, -2, -2 } ;
            t [1] = (gxo_corr_term) { GxB_PLUS_MAX_FP64,
                GXO_PART_NEG, GXO_PART_NEG, -2, -2 } ;
            corr->nterms = 2 ;
            break ;
        case GXO_OP_ABSSUM :
            t [0] = (gxo_corr_term) { GxB_PLUS_MAX_FP64,
                GXO_PART_POS, GXO_PART_NEG, -2, -2 } ;
            t [1] = (gxo_corr_term) { GxB_PLUS_MAX_FP64,
                GXO_PART_NEG, GXO_PART_POS, -2, -2 } ;
            corr->nterms = 2 ;
            break ;
        case GXO_OP_CANBERRA :      // T1 - P
        case GXO_OP_POWDIFF :
        case GXO_OP_NE :
        case GXO_OP_JSSQ :
            break ;
        default :
            return (GrB_INVALID_VALUE) ;
    }
    return (GrB_SUCCESS) ;
}

GrB_Info GXO_op_new (GrB_BinaryOp *op, gxo_opcode code)
{
    static const op_entry table [ ] =
    {
        [GXO_OP_SQDIFF]   = { sqdiff,   "gxo_sqdiff"   },
        [GXO_OP_ABSDIFF]  = { absdiff,  "gxo_absdiff"  },
        [GXO_OP_ABSSUM]   = { abssum,   "gxo_abssum"   },
        [GXO_OP_HALFABSDIFF] = { halfabsdiff, "gxo_halfabsdiff" },
        [GXO_OP_HALFABSSUM]  = { halfabssum,  "gxo_halfabssum"  },
        [GXO_OP_CANBERRA] = { canberra, "gxo_canberra" },
        [GXO_OP_POWDIFF]  = { powdiff,  "gxo_powdiff"  },
        [GXO_OP_NE]       = { ne,       "gxo_ne"       },
        [GXO_OP_HELLROOT] = { hellroot, "gxo_hellroot" },
        [GXO_OP_HELLSQ]   = { hellsq,   "gxo_hellsq"   },
        [GXO_OP_JSROOT]   = { jsroot,   "gxo_jsroot"   },
        [GXO_OP_JSSQ]     = { jssq,     "gxo_jssq"     },
        [GXO_OP_KL]       = { kl,       "gxo_kl"       },
        [GXO_OP_ABSKL]    = { abskl,    "gxo_abskl"    },
    } ;
    return (op_from (op, table, (int) (sizeof (table) / sizeof (table [0])),
        code)) ;
}
