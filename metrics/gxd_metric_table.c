//------------------------------------------------------------------------------
// metrics/gxd_metric_table.c: one row per predefined metric
//------------------------------------------------------------------------------

// The single source of each metric's name, scheme and domain; the
// arithmetic is in gxd_metric_ops.h.  Formulas: docs/metrics.md.

#include "gxd_metric.h"

const gxd_metric_info gxd_metric_table [GXD_NMETRICS] =
{
    // name              kind            nacc nonneg guard
    [GXD_EUCLIDEAN]      = { "EUCLIDEAN",      GXD_KIND_PLUS, 1, false, true  },
    [GXD_SQEUCLIDEAN]    = { "SQEUCLIDEAN",    GXD_KIND_PLUS, 1, false, true  },
    [GXD_COSINE]         = { "COSINE",         GXD_KIND_DOT,  1, false, true  },
    [GXD_CORRELATION]    = { "CORRELATION",    GXD_KIND_DOT,  1, false, true  },
    [GXD_DICE]           = { "DICE",           GXD_KIND_DOT,  1, false, false },
    [GXD_DOT]            = { "DOT",            GXD_KIND_DOT,  1, false, false },
    [GXD_HELLINGER]      = { "HELLINGER",      GXD_KIND_PLUS, 1, true,  true  },
    [GXD_JACCARD]        = { "JACCARD",        GXD_KIND_DOT,  1, false, false },
    [GXD_RUSSELLRAO]     = { "RUSSELLRAO",     GXD_KIND_DOT,  1, false, false },
    [GXD_KL_DIVERGENCE]  = { "KL_DIVERGENCE",  GXD_KIND_DOT,  1, true,  false },
    [GXD_CANBERRA]       = { "CANBERRA",       GXD_KIND_PLUS, 1, false, true  },
    [GXD_CHEBYSHEV]      = { "CHEBYSHEV",      GXD_KIND_MAX,  1, false, false },
    [GXD_HAMMING]        = { "HAMMING",        GXD_KIND_PLUS, 1, false, false },
    [GXD_JENSEN_SHANNON] = { "JENSEN_SHANNON", GXD_KIND_PLUS, 1, true,  true  },
    [GXD_MANHATTAN]      = { "MANHATTAN",      GXD_KIND_PLUS, 1, false, true  },
    [GXD_BRAYCURTIS]     = { "BRAYCURTIS",     GXD_KIND_PLUS, 2, false, true  },
    [GXD_MINKOWSKI]      = { "MINKOWSKI",      GXD_KIND_PLUS, 1, false, true  },
} ;
