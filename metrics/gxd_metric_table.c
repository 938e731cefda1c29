// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// metrics/gxd_metric_table.c: one row per metric, expanded from GXD_METRICS
//------------------------------------------------------------------------------

// The rows of gxd_metric_list.h as data, for the code that looks a metric
// up at run time (names, kind, domain, guard); the arithmetic is in
// gxd_metric_ops.h.  Formulas: docs/metrics.md.

#include "gxd_metric.h"

#define ROW(U, NAME, KIND, NACC, DOMAIN, GUARD, MULT, TERMS, SIGN, SELF,     \
    EMPTY, FLOOR, SCIPY)                                                    \
    [GXD_ ## NAME] = { #NAME, GXD_KIND_ ## KIND, NACC,                      \
        GXD_COL_DOMAIN_ ## DOMAIN, GUARD, GXD_COL_TERMS_ ## TERMS,          \
        GXD_COL_MULT_ ## MULT, SCIPY },

const gxd_metric_info gxd_metric_table [GXD_NMETRICS] =
{
    GXD_METRICS (ROW, ~)
} ;
