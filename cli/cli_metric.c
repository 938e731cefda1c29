// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// cli/cli_metric.c: metric names (scipy, scikit-learn) to gxbdist semirings
//------------------------------------------------------------------------------

// The names users already type in scipy.spatial.distance.cdist and
// sklearn.neighbors, each mapped to its predefined GxB_DIST_* semiring
// (definitions and the few differences from scipy: docs/metrics.md).
// The semirings are variables set by GxB_Distance_init, so the table holds
// their addresses.

#include "cli.h"
#include "gxd_metric_list.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct
{
    const char *name ;
    GrB_Semiring *fp32, *fp64 ;     // NULL: minkowski, made from --p
}
metric_name ;

// every metric of the list (metrics/gxd_metric_list.h) by its scipy name,
// then the other names scikit-learn and scipy know them by
#define ENTRY_NONE(name, NAME) { name, NULL, NULL },
#define ENTRY_TERM(name, NAME) { name, &GxB_DIST_ ## NAME ## _FP32, &GxB_DIST_ ## NAME ## _FP64 },
#define ENTRY_TIMES ENTRY_TERM
#define ENTRY(U, NAME, KIND, NACC, DOMAIN, GUARD, MULT, TERMS, SIGN, SELF,   \
    EMPTY, FLOOR, SCIPY) ENTRY_ ## MULT (SCIPY, NAME)

static const metric_name table [] =
{
    GXD_METRICS (ENTRY, ~)
    ENTRY_TERM ("l2",            EUCLIDEAN)
    ENTRY_TERM ("manhattan",     MANHATTAN)
    ENTRY_TERM ("l1",            MANHATTAN)
    ENTRY_TERM ("kl",            KL_DIVERGENCE)
} ;

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
    if (o->job == CLI_RADIUS && o->eps < 0 && e->fp32 != &GxB_DIST_DOT_FP32)
    {
        // no distance is negative: such a radius keeps nothing
        CLI_FAIL (CLI_USAGE, "--eps must be >= 0 for a distance, not %g "
            "(dot, a similarity, takes any)", o->eps) ;
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
