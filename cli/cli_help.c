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
"usage: gxbdist knn      [options] A [B]    the k nearest rows of B to each row of A\n"
"       gxbdist radius   --eps E [options] A [B]    the rows of B within E of each\n"
"       gxbdist pairwise [options] A [B]    every distance: an m x n matrix\n"
"       gxbdist --help | --version\n"
"\n"
"A and B are Matrix Market coordinate files (.mtx, or .mtx.gz); B defaults to A;\n"
"'-' is standard input.  Row i of the result holds distances from row i of A to\n"
"rows of B, written as Matrix Market (1-based) to standard output or -o FILE.\n"
"\n"
"options:\n"
"  --metric NAME       euclidean (default), l2, sqeuclidean, cityblock, manhattan,\n"
"                      l1, cosine, chebyshev, minkowski, canberra, braycurtis,\n"
"                      hamming, jaccard, dice, russellrao, correlation, hellinger,\n"
"                      jensenshannon, kl (kl_divergence), dot (a similarity:\n"
"                      largest first); definitions: docs/metrics.md\n"
"  --p P               minkowski's degree (default 2; inf is chebyshev)\n"
"  -k N                knn: neighbors per row (default 5)\n"
"  --eps E             radius: the largest distance kept (dot: smallest similarity)\n"
"  --exclude-self      knn, radius: skip the pairs (i, i), for A and B the same rows\n"
"  --type fp32|fp64    precision of the distances (default fp32)\n"
"  --backend auto|cpu|gpu\n"
"                      default auto: the GPU when one is usable (or GXBDIST_BACKEND)\n"
"  --verify            check the result with the SuiteSparse reference (knn, radius:\n"
"                      a sample of rows); a mismatch is an error\n"
"  -o FILE             write the result to FILE ('-': standard output, the default)\n"
"  --format mtx|labels knn, radius: Matrix Market (default), or a listing: each row\n"
"                      of A, then its neighbors best first: distance, row, label\n"
"  --labels FILE       labels of A's rows, one per line (.gz read through gzip);\n"
"                      also B's when B is A\n"
"  --labels-b FILE     labels of B's rows\n"
"  --stats             time of each phase, pairs/s and peak memory, on stderr\n"
"  --no-progress       no progress bar (one is drawn on a terminal after 1 s)\n"
"  --block-rows N      compute N rows of A at a time (the result is the same)\n"
"  -h, --help          this help;  --version  the version\n"
"\n"
"exit status: 0 success, 1 bad data or a failed computation, 2 bad command line\n"
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
