// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// cli/cli_help.c: gxbdist --help and --version
//------------------------------------------------------------------------------

// The summary of docs/cli.md that fits a terminal; docs/cli.md is the full
// manual.  Keep the two in step when an option changes.

#include "cli.h"

#include <stdio.h>

void cli_help (void)
{
    printf (
"usage: gxbdist knn      [options] A [B]  the k nearest rows of B to each of A\n"
"       gxbdist radius   --eps E [options] A [B]  the rows of B within E\n"
"       gxbdist pairwise [options] A [B]  every distance: an m x n matrix\n"
"       gxbdist --help | --version\n"
"\n"
"A and B are Matrix Market coordinate files (.mtx, or .mtx.gz); B defaults\n"
"to A; '-' is standard input.  Row i of the result holds distances from row\n"
"i of A to rows of B, as Matrix Market (1-based) on stdout or in -o FILE.\n"
"\n"
"options:\n"
"  --metric NAME     euclidean (default), l2, sqeuclidean, cityblock,\n"
"                    manhattan, l1, cosine, chebyshev, minkowski, canberra,\n"
"                    braycurtis, hamming, jaccard, dice, russellrao,\n"
"                    sokalmichener, correlation, hellinger, jensenshannon, kl\n"
"                    (kl_divergence), dot (a similarity: largest first)\n"
"  --p P             minkowski's degree (default 2; inf is chebyshev)\n"
"  -k N              knn: neighbors per row (default 5)\n"
"  --eps E           radius: the largest distance kept (dot: the smallest\n"
"                    similarity)\n"
"  --exclude-self    knn, radius: skip the pairs (i, i) (A and B the same)\n"
"  --type fp32|fp64  precision of the distances (default fp32)\n"
"  --backend auto|cpu|gpu  auto (default): the GPU when one is usable\n"
"                    (environment: GXBDIST_BACKEND)\n"
"  --verify          check with the SuiteSparse reference (knn, radius: a\n"
"                    sample of rows); a mismatch is an error\n"
"  -o FILE           the output file ('-': standard output, the default)\n"
"  --format mtx|labels  knn, radius: Matrix Market (default), or a listing:\n"
"                    each row of A, then its neighbors best first (distance,\n"
"                    row, label)\n"
"  --labels FILE     labels of A's rows, one per line (.gz too); B's when B\n"
"                    is A\n"
"  --labels-b FILE   labels of B's rows\n"
"  --stats           time of each phase, pairs/s, peak memory (stderr)\n"
"  --no-progress     no progress bar (drawn on a terminal after a second)\n"
"  --block-rows N    compute N rows of A at a time (the same result)\n"
"  -h, --help        this help;  --version: the version\n"
"\n"
"exit status: 0 success, 1 bad data or a failed computation, 2 bad usage\n"
"manual: docs/cli.md; metrics: docs/metrics.md\n"
"\n"
"example: the 3 nearest quotes of each fortune, by cosine distance\n"
"  gxbdist knn --metric cosine -k 3 --exclude-self --format labels \\\n"
"      --labels data/fortunes.rows.txt.gz data/fortunes.mtx.gz\n") ;
}

void cli_version (void)
{
    printf ("gxbdist %d.%d.%d (built with SuiteSparse:GraphBLAS %d.%d.%d)\n",
        GXBDIST_VERSION_MAJOR, GXBDIST_VERSION_MINOR, GXBDIST_VERSION_SUB,
        GxB_IMPLEMENTATION_MAJOR, GxB_IMPLEMENTATION_MINOR,
        GxB_IMPLEMENTATION_SUB) ;
}
