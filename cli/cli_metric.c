//------------------------------------------------------------------------------
// cli/cli_metric.c: metric names (scipy, scikit-learn) to gxbdist semirings
//------------------------------------------------------------------------------

// The names users already type in scipy.spatial.distance.cdist and
// sklearn.neighbors, each mapped to its predefined GxB_DIST_* semiring
// (definitions and the few differences from scipy: docs/metrics.md).
// The semirings are variables set by GxB_Distance_init, so the table holds
// their addresses.

#include "cli.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct
{
    const char *name ;
    GrB_Semiring *fp32, *fp64 ;     // NULL: minkowski, made from --p
}
metric_name ;

#define M(name, NAME) { name, &GxB_DIST_ ## NAME ## _FP32, &GxB_DIST_ ## NAME ## _FP64 }

static const metric_name table [] =
{
    M ("euclidean",     EUCLIDEAN),
    M ("l2",            EUCLIDEAN),
    M ("sqeuclidean",   SQEUCLIDEAN),
    M ("cityblock",     MANHATTAN),
    M ("manhattan",     MANHATTAN),
    M ("l1",            MANHATTAN),
    M ("cosine",        COSINE),
    M ("chebyshev",     CHEBYSHEV),
    { "minkowski", NULL, NULL },
    M ("canberra",      CANBERRA),
    M ("braycurtis",    BRAYCURTIS),
    M ("hamming",       HAMMING),
    M ("jaccard",       JACCARD),
    M ("dice",          DICE),
    M ("russellrao",    RUSSELLRAO),
    M ("correlation",   CORRELATION),
    M ("hellinger",     HELLINGER),
    M ("jensenshannon", JENSEN_SHANNON),
    M ("kl",            KL_DIVERGENCE),
    M ("kl_divergence", KL_DIVERGENCE),
    M ("dot",           DOT),
} ;

#undef M

#define NMETRICS ((int) (sizeof (table) / sizeof (table [0])))

#define CLI_FREE_ALL ;

GrB_Info cli_metric_semiring (GrB_Semiring *s, bool *owned, bool *largest,
    const cli_opts *o)
{
    *s = NULL ;
    *owned = false ;
    *largest = false ;
    const metric_name *e = NULL ;
    for (int i = 0 ; i < NMETRICS ; i++)
    {
        if (strcmp (o->metric, table [i].name) == 0) e = &table [i] ;
    }
    if (e == NULL)
    {
        char known [512] = "" ;
        for (int i = 0 ; i < NMETRICS ; i++)
        {
            strncat (known, i ? ", " : "", sizeof (known) - strlen (known) - 1) ;
            strncat (known, table [i].name, sizeof (known) - strlen (known) - 1) ;
        }
        CLI_FAIL (CLI_USAGE, "unknown metric '%s'; known: %s", o->metric,
            known) ;
    }
    if (e->fp32 != NULL)
    {
        *s = (o->type == GrB_FP64) ? *(e->fp64) : *(e->fp32) ;
        *largest = (e->fp32 == &GxB_DIST_DOT_FP32) ;
        return GrB_SUCCESS ;
    }

    // minkowski: p = 2 when not given (scipy's and scikit-learn's default);
    // p = inf is Chebyshev, as in scikit-learn
    double p = o->p_given ? o->p : 2 ;
    if (!(p > 0))
    {
        CLI_FAIL (CLI_USAGE, "--p must be positive for minkowski, not %g", p) ;
    }
    if (isinf (p))
    {
        *s = (o->type == GrB_FP64) ? GxB_DIST_CHEBYSHEV_FP64
                                   : GxB_DIST_CHEBYSHEV_FP32 ;
        return GrB_SUCCESS ;
    }
    CLI_TRY (GxB_Semiring_new_minkowski (s, p, o->type)) ;
    *owned = true ;
    return GrB_SUCCESS ;
}
