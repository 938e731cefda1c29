//------------------------------------------------------------------------------
// reference/oracle/oracle_ops.c: the oracle's own per-column formulas
//------------------------------------------------------------------------------

// Each metric's (x) as a GxB_BinaryOp on doubles, written from the textbook
// formula.  The logarithmic terms are rearranged where the textbook form
// loses the answer to rounding for close x and y (KL, Jensen-Shannon): the
// oracle must stay exact for near-duplicate rows, which is what tests probe.

#include "oracle_internal.h"
#include <float.h>
#include <math.h>

static const double ln2 = 0.693147180559945309417232121458176568 ;

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

// x ln(x/m) + y ln(y/m), m = (x+y)/2, for x, y >= 0 with 0 ln 0 = 0.  For
// close x and y the two terms, each about |x-y|/2, cancel to (x-y)^2/(4m);
// there it is computed as m f(d), d = (x-y)/(x+y), with
// f(d) = (1+d) ln(1+d) + (1-d) ln(1-d) = 2 d atanh(d) + log1p(-d^2),
// which loses at most a bit for |d| < 1/2 (f = d^2 + d^4/6 + ...).
static double js_term (double x, double y)
{
    if (x <= 0 && y <= 0) return (0) ;
    if (x <= 0 || y <= 0) return ((x + y) * ln2) ;   // x ln 2 or y ln 2
    double m = 0.5 * x + 0.5 * y ;                    // cannot overflow
    double d = (0.5 * x - 0.5 * y) / m ;
    if (fabs (d) >= 0.5) return (xlog (x, m) + xlog (y, m)) ;
    // f(d) >= 0; fmax only keeps a last-bit rounding from making it negative
    return (m * fmax (2 * d * atanh (d) + log1p (-d * d), 0)) ;
}

// (sqrt x - sqrt y)^2 for x, y >= 0, as ((x-y) / (sqrt x + sqrt y))^2: the
// difference of the roots loses the digits they share, x - y does not
static double hellinger_term (double x, double y)
{
    if (x == y) return (0) ;                        // also 0/0
    double d = (x - y) / (sqrt (x) + sqrt (y)) ;
    return (d * d) ;
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
static void canberra (void *z, const void *x, const void *y)
{
    double s = fabs (X) + fabs (Y) ;
    Z = (s == 0) ? 0 : fabs (X - Y) / s ;               // 0/0 = 0
}
static void ne       (void *z, const void *x, const void *y)
{
    Z = (X != Y) ? 1 : 0 ;
}
static void hellinger (void *z, const void *x, const void *y)
{
    Z = hellinger_term (X, Y) ;
}
static void js       (void *z, const void *x, const void *y)
{
    Z = js_term (X, Y) ;
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

GrB_Info GXO_op_new (GrB_BinaryOp *op, gxo_opcode code)
{
    static const struct { GxB_binary_function f ; const char *name ; }
    table [ ] =
    {
        [GXO_OP_SQDIFF]   = { sqdiff,   "gxo_sqdiff"   },
        [GXO_OP_ABSDIFF]  = { absdiff,  "gxo_absdiff"  },
        [GXO_OP_ABSSUM]   = { abssum,   "gxo_abssum"   },
        [GXO_OP_CANBERRA] = { canberra, "gxo_canberra" },
        [GXO_OP_NE]       = { ne,       "gxo_ne"       },
        [GXO_OP_HELLINGER] = { hellinger, "gxo_hellinger" },
        [GXO_OP_JS]       = { js,       "gxo_js"       },
        [GXO_OP_KL]       = { kl,       "gxo_kl"       },
        [GXO_OP_ABSKL]    = { abskl,    "gxo_abskl"    },
    } ;
    if (op == NULL) return (GrB_NULL_POINTER) ;
    int ncodes = (int) (sizeof (table) / sizeof (table [0])) ;
    if ((int) code < 0 || (int) code >= ncodes)
    {
        return (GrB_INVALID_VALUE) ;
    }
    return (GxB_BinaryOp_new (op, table [code].f, GrB_FP64, GrB_FP64,
        GrB_FP64, table [code].name, NULL)) ;
}
