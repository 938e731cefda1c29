// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// cli/cli_stats.c: --stats, the time of each phase and the peak memory
//------------------------------------------------------------------------------

// On stderr, so that the output on stdout stays a clean Matrix Market file.
// Pairs are m*n, the distances the job evaluated (a knn or radius job keeps
// fewer); peak memory is getrusage's ru_maxrss (resident set, KiB on Linux),
// which includes the inputs, the result and GraphBLAS' workspace.

#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <stdio.h>
#include <sys/resource.h>

void cli_stats_print (const cli_stats *st, const cli_opts *o)
{
    double pairs = (double) st->m * (double) st->n ;
    GxB_Backend backend = GxB_BACKEND_CPU ;
    GxB_Distance_active_backend (&backend) ;
    int nthreads = 0 ;
    GxB_Global_Option_get (GxB_NTHREADS, &nthreads) ;
    struct rusage ru ;
    double peak = (getrusage (RUSAGE_SELF, &ru) == 0)
        ? (double) ru.ru_maxrss / 1024.0 : 0 ;

    fprintf (stderr, "gxbdist %s --metric %s (%s), backend %s",
        o->job_name, o->metric, (o->type == GrB_FP64) ? "fp64" : "fp32",
        (backend == GxB_BACKEND_GPU) ? "gpu" : "cpu") ;
    if (backend != GxB_BACKEND_GPU) fprintf (stderr, " (%d threads)", nthreads) ;
    fprintf (stderr, "\n  read     %9.3f s   A %llu x %llu (%llu entries)",
        st->read, (unsigned long long) st->m, (unsigned long long) st->cols,
        (unsigned long long) st->nnz_a) ;
    if (o->b_path != NULL)
    {
        fprintf (stderr, ", B %llu x %llu (%llu entries)",
            (unsigned long long) st->n, (unsigned long long) st->cols,
            (unsigned long long) st->nnz_b) ;
    }
    fprintf (stderr, "\n  compute  %9.3f s   %.4g pairs, %.4g pairs/s\n",
        st->compute, pairs, (st->compute > 0) ? pairs / st->compute : 0.0) ;
    fprintf (stderr, "  write    %9.3f s   %llu entries\n", st->write,
        (unsigned long long) st->nnz_c) ;
    fprintf (stderr, "  total    %9.3f s   peak memory %.1f MiB (ru_maxrss)\n",
        st->read + st->compute + st->write, peak) ;
}
