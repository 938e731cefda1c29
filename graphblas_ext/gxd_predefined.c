//------------------------------------------------------------------------------
// graphblas_ext/gxd_predefined.c: the GxB_DIST_* semirings
//------------------------------------------------------------------------------

// Each predefined semiring is a real GrB_Semiring: its (x) is the metric's
// column term (|x-y| for Manhattan, x*y for cosine, ...) so that plain
// GrB_mxm gives the intersection-only product; GxB_mxm_distance recognises
// it in the registry and computes the metric.  The operator functions come
// from the one metric table (gxd_metric_ops.h).

#include "gxd_internal.h"
#include "gxd_metric_ops.h"

#define GXD_DEFINE(NAME) \
    GrB_Semiring GxB_DIST_ ## NAME ## _FP32 = NULL, GxB_DIST_ ## NAME ## _FP64 = NULL ;
GXD_DEFINE (EUCLIDEAN)      GXD_DEFINE (SQEUCLIDEAN)    GXD_DEFINE (COSINE)
GXD_DEFINE (CORRELATION)    GXD_DEFINE (DICE)           GXD_DEFINE (DOT)
GXD_DEFINE (HELLINGER)      GXD_DEFINE (JACCARD)        GXD_DEFINE (RUSSELLRAO)
GXD_DEFINE (KL_DIVERGENCE)  GXD_DEFINE (CANBERRA)       GXD_DEFINE (CHEBYSHEV)
GXD_DEFINE (HAMMING)        GXD_DEFINE (JENSEN_SHANNON) GXD_DEFINE (MANHATTAN)
GXD_DEFINE (BRAYCURTIS)
#undef GXD_DEFINE

GrB_Descriptor GxB_DESC_UNION = NULL ;

// the (x) operator of the Minkowski semirings (|x-y|; p is not an operand)
GrB_BinaryOp GXD_absdiff_op [2] = { NULL, NULL } ;

static GrB_Semiring *semiring_of [GXD_NMETRICS][2] =
{
    [GXD_EUCLIDEAN]      = { &GxB_DIST_EUCLIDEAN_FP32,      &GxB_DIST_EUCLIDEAN_FP64 },
    [GXD_SQEUCLIDEAN]    = { &GxB_DIST_SQEUCLIDEAN_FP32,    &GxB_DIST_SQEUCLIDEAN_FP64 },
    [GXD_COSINE]         = { &GxB_DIST_COSINE_FP32,         &GxB_DIST_COSINE_FP64 },
    [GXD_CORRELATION]    = { &GxB_DIST_CORRELATION_FP32,    &GxB_DIST_CORRELATION_FP64 },
    [GXD_DICE]           = { &GxB_DIST_DICE_FP32,           &GxB_DIST_DICE_FP64 },
    [GXD_DOT]            = { &GxB_DIST_DOT_FP32,            &GxB_DIST_DOT_FP64 },
    [GXD_HELLINGER]      = { &GxB_DIST_HELLINGER_FP32,      &GxB_DIST_HELLINGER_FP64 },
    [GXD_JACCARD]        = { &GxB_DIST_JACCARD_FP32,        &GxB_DIST_JACCARD_FP64 },
    [GXD_RUSSELLRAO]     = { &GxB_DIST_RUSSELLRAO_FP32,     &GxB_DIST_RUSSELLRAO_FP64 },
    [GXD_KL_DIVERGENCE]  = { &GxB_DIST_KL_DIVERGENCE_FP32,  &GxB_DIST_KL_DIVERGENCE_FP64 },
    [GXD_CANBERRA]       = { &GxB_DIST_CANBERRA_FP32,       &GxB_DIST_CANBERRA_FP64 },
    [GXD_CHEBYSHEV]      = { &GxB_DIST_CHEBYSHEV_FP32,      &GxB_DIST_CHEBYSHEV_FP64 },
    [GXD_HAMMING]        = { &GxB_DIST_HAMMING_FP32,        &GxB_DIST_HAMMING_FP64 },
    [GXD_JENSEN_SHANNON] = { &GxB_DIST_JENSEN_SHANNON_FP32, &GxB_DIST_JENSEN_SHANNON_FP64 },
    [GXD_MANHATTAN]      = { &GxB_DIST_MANHATTAN_FP32,      &GxB_DIST_MANHATTAN_FP64 },
    [GXD_BRAYCURTIS]     = { &GxB_DIST_BRAYCURTIS_FP32,     &GxB_DIST_BRAYCURTIS_FP64 },
} ;

static GrB_BinaryOp ops [GXD_NMETRICS][2] ;

// the column term of metric M as a GraphBLAS operator function
static const gxd_plan no_plan = { 0 } ;
#define GXD_OPFN(M, T, S)                                                   \
static void op_ ## M ## _ ## S (void *z, const void *x, const void *y)      \
{                                                                           \
    double a = *(const T *) x, b = *(const T *) y ;                         \
    *(T *) z = (T) (gxd_metric_table [M].kind == GXD_KIND_DOT               \
        ? gxd_g (M, &no_plan, a, b) : gxd_f (M, &no_plan, a, b)) ;          \
}
#define GXD_OPFNS(M) GXD_OPFN (M, float, 32) GXD_OPFN (M, double, 64)
GXD_OPFNS (GXD_EUCLIDEAN)    GXD_OPFNS (GXD_SQEUCLIDEAN)   GXD_OPFNS (GXD_DICE)
GXD_OPFNS (GXD_HELLINGER)    GXD_OPFNS (GXD_JACCARD)       GXD_OPFNS (GXD_RUSSELLRAO)
GXD_OPFNS (GXD_KL_DIVERGENCE) GXD_OPFNS (GXD_CANBERRA)     GXD_OPFNS (GXD_CHEBYSHEV)
GXD_OPFNS (GXD_HAMMING)      GXD_OPFNS (GXD_JENSEN_SHANNON) GXD_OPFNS (GXD_MANHATTAN)
GXD_OPFNS (GXD_BRAYCURTIS)

static GxB_binary_function opfn [GXD_NMETRICS][2] =
{
#define GXD_FN(M) [M] = { op_ ## M ## _32, op_ ## M ## _64 }
    GXD_FN (GXD_EUCLIDEAN),     GXD_FN (GXD_SQEUCLIDEAN),   GXD_FN (GXD_DICE),
    GXD_FN (GXD_HELLINGER),     GXD_FN (GXD_JACCARD),       GXD_FN (GXD_RUSSELLRAO),
    GXD_FN (GXD_KL_DIVERGENCE), GXD_FN (GXD_CANBERRA),      GXD_FN (GXD_CHEBYSHEV),
    GXD_FN (GXD_HAMMING),       GXD_FN (GXD_JENSEN_SHANNON), GXD_FN (GXD_MANHATTAN),
    GXD_FN (GXD_BRAYCURTIS),
#undef GXD_FN
} ;

GrB_Info GXD_predefined_free (void) ;

static GrB_Info metric_new (gxd_metric_id m, int t)
{
    #define GXD_FREE_ALL ;
    GrB_Type type = t ? GrB_FP64 : GrB_FP32 ;
    GrB_BinaryOp mult ;
    if (opfn [m][t] == NULL)
    {
        mult = t ? GrB_TIMES_FP64 : GrB_TIMES_FP32 ;     // cosine, correlation, dot
    }
    else
    {
        char name [64] ;
        snprintf (name, sizeof (name), "gxd_%s_fp%d", gxd_metric_table [m].name,
            t ? 64 : 32) ;
        GXD_TRY (GxB_BinaryOp_new (&ops [m][t], opfn [m][t], type, type, type,
            name, NULL)) ;
        mult = ops [m][t] ;
    }
    GrB_Monoid add = (m == GXD_CHEBYSHEV)
        ? (t ? GrB_MAX_MONOID_FP64 : GrB_MAX_MONOID_FP32)
        : (t ? GrB_PLUS_MONOID_FP64 : GrB_PLUS_MONOID_FP32) ;
    GrB_Semiring *s = semiring_of [m][t] ;
    GXD_TRY (GrB_Semiring_new (s, add, mult)) ;
    gxd_sr_entry e = { .semiring = *s, .mult = mult, .add = add,
        .kind = GXD_SR_METRIC,
        .metric = m, .p = 1, .fp64 = (t == 1), .identity = 0 } ;
    GXD_TRY (GXD_registry_add (&e)) ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

GrB_Info GXD_predefined_new (void)
{
    #define GXD_FREE_ALL GXD_predefined_free () ;
    for (int m = 0 ; m < GXD_NMETRICS ; m++)
    {
        if (m == GXD_MINKOWSKI) continue ;
        for (int t = 0 ; t < 2 ; t++) GXD_TRY (metric_new ((gxd_metric_id) m, t)) ;
    }
    GXD_absdiff_op [0] = ops [GXD_MANHATTAN][0] ;
    GXD_absdiff_op [1] = ops [GXD_MANHATTAN][1] ;
    GXD_TRY (GrB_Descriptor_new (&GxB_DESC_UNION)) ;
    GXD_TRY (GXD_desc_mark (GxB_DESC_UNION, GXD_DESC_UNION, true)) ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

GrB_Info GXD_predefined_free (void)
{
    for (int m = 0 ; m < GXD_NMETRICS ; m++)
    {
        for (int t = 0 ; t < 2 ; t++)
        {
            if (semiring_of [m][t] != NULL)
            {
                GXD_registry_remove (*semiring_of [m][t]) ;
                GrB_Semiring_free (semiring_of [m][t]) ;
            }
            GrB_BinaryOp_free (&ops [m][t]) ;
        }
    }
    GXD_absdiff_op [0] = NULL ; GXD_absdiff_op [1] = NULL ;
    GXD_desc_mark (GxB_DESC_UNION, GXD_DESC_UNION, false) ;
    GrB_Descriptor_free (&GxB_DESC_UNION) ;
    return GrB_SUCCESS ;
}
