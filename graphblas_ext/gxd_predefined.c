// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// graphblas_ext/gxd_predefined.c: the GxB_DIST_* semirings
//------------------------------------------------------------------------------

// Each predefined semiring is a real GrB_Semiring: its (x) is the metric's
// column term (|x-y| for Manhattan, x*y for cosine, ...) so that plain
// GrB_mxm gives the intersection-only product; GxB_mxm_distance recognises
// it in the registry and computes the metric.  The list of them, and the
// operator of each, come from GXD_METRICS (gxd_metric_list.h); the operator
// functions from the metric's arithmetic (gxd_metric_ops.h).

#include "gxd_internal.h"
#include "gxd_metric_ops.h"

// the public variables, as gxbdist.h names them
#define DEFINE(NAME) \
    GrB_Semiring GxB_DIST_ ## NAME ## _FP32 = NULL, GxB_DIST_ ## NAME ## _FP64 = NULL ;
GXB_DIST_METRICS (DEFINE)
#undef DEFINE

GrB_Descriptor GxB_DESC_UNION = NULL ;

// the (x) operator of the Minkowski semirings (|x-y|; p is not an operand)
GrB_BinaryOp GXD_absdiff_op [2] = { NULL, NULL } ;

// how each metric's predefined semiring gets its (x) (the MULT column)
typedef enum { MULT_NONE, MULT_TERM, MULT_TIMES } mult_kind ;

#define MULT_ROW(U, NAME, KIND, NACC, DOMAIN, GUARD, MULT, ...) \
    [GXD_ ## NAME] = MULT_ ## MULT,
static const mult_kind mult_of [GXD_NMETRICS] = { GXD_METRICS (MULT_ROW, ~) } ;
#undef MULT_ROW

// gxbdist.h declares exactly the metrics of GXD_METRICS that have a
// predefined semiring: a row missing there is an undeclared identifier in
// semiring_of, a name there without a row fails this count
#define PUBLIC_ONE(NAME) + 1
#define PREDEFINED_ONE(U, NAME, KIND, NACC, DOMAIN, GUARD, MULT, ...) \
    + GXD_COL_MULT_ ## MULT
_Static_assert (0 GXB_DIST_METRICS (PUBLIC_ONE) == 0 GXD_METRICS (PREDEFINED_ONE, ~),
    "gxbdist.h's GXB_DIST_METRICS and gxd_metric_list.h disagree") ;
#undef PUBLIC_ONE
#undef PREDEFINED_ONE

#define SEMIRING_NONE(NAME)
#define SEMIRING_TERM(NAME) \
    [GXD_ ## NAME] = { &GxB_DIST_ ## NAME ## _FP32, &GxB_DIST_ ## NAME ## _FP64 },
#define SEMIRING_TIMES SEMIRING_TERM
#define SEMIRING_ROW(U, NAME, KIND, NACC, DOMAIN, GUARD, MULT, ...) \
    SEMIRING_ ## MULT (NAME)
static GrB_Semiring *semiring_of [GXD_NMETRICS][2] = { GXD_METRICS (SEMIRING_ROW, ~) } ;

static GrB_BinaryOp ops [GXD_NMETRICS][2] ;

// the column term of metric NAME as a GraphBLAS operator function: the
// intersection term g of DOT kinds, the union term f of the others
static const gxd_plan no_plan = { 0 } ;
#define OPFN(NAME, KIND, T, S)                                              \
static void op_ ## NAME ## _ ## S (void *z, const void *x, const void *y)   \
{                                                                           \
    double a = *(const T *) x, b = *(const T *) y ;                         \
    *(T *) z = (T) ((GXD_KIND_ ## KIND == GXD_KIND_DOT)                     \
        ? gxd_g (GXD_ ## NAME, &no_plan, a, b)                              \
        : gxd_f (GXD_ ## NAME, &no_plan, a, b)) ;                           \
}
#define OPFN_NONE(NAME, KIND)
#define OPFN_TIMES(NAME, KIND)
#define OPFN_TERM(NAME, KIND) OPFN (NAME, KIND, float, 32) OPFN (NAME, KIND, double, 64)
#define OPFN_ROW(U, NAME, KIND, NACC, DOMAIN, GUARD, MULT, ...) \
    OPFN_ ## MULT (NAME, KIND)
GXD_METRICS (OPFN_ROW, ~)

#define FN_NONE(NAME)
#define FN_TIMES(NAME)
#define FN_TERM(NAME) [GXD_ ## NAME] = { op_ ## NAME ## _32, op_ ## NAME ## _64 },
#define FN_ROW(U, NAME, KIND, NACC, DOMAIN, GUARD, MULT, ...) FN_ ## MULT (NAME)
static GxB_binary_function opfn [GXD_NMETRICS][2] = { GXD_METRICS (FN_ROW, ~) } ;

GrB_Info GXD_predefined_free (void) ;

static GrB_Info metric_new (gxd_metric_id m, int t)
{
    #define GXD_FREE_ALL ;
    GrB_Type type = t ? GrB_FP64 : GrB_FP32 ;
    GrB_BinaryOp mult = NULL ;
    switch (mult_of [m])
    {
        case MULT_TIMES:
            mult = t ? GrB_TIMES_FP64 : GrB_TIMES_FP32 ;
            break ;
        case MULT_TERM:
        {
            char name [64] ;
            snprintf (name, sizeof (name), "gxd_%s_fp%d",
                gxd_metric_table [m].name, t ? 64 : 32) ;
            GXD_TRY (GxB_BinaryOp_new (&ops [m][t], opfn [m][t], type, type,
                type, name, NULL)) ;
            mult = ops [m][t] ;
            break ;
        }
        case MULT_NONE:
            GXD_FAIL (GrB_PANIC, "%s has no predefined semiring",
                gxd_metric_table [m].name) ;
    }
    GrB_Monoid add = (gxd_metric_table [m].kind == GXD_KIND_MAX)
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
        if (mult_of [m] == MULT_NONE) continue ;
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
