// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// cli/gxbdist_main.c: the gxbdist command
//------------------------------------------------------------------------------

// gxbdist knn | radius | pairwise [options] A [B] (docs/cli.md).  main
// parses the command line, runs the phases (read, compute, write) and turns
// the one kept message into the one line "gxbdist: <message>" on stderr:
// exit status 2 for a bad command line, 1 for bad data or a failed
// computation, 0 otherwise.

#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "gxd_mtx.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

// the Matrix Market comment that says what the output holds
static void describe (char *s, size_t len, const cli_opts *o)
{
    char what [256] ;
    const char *self = o->exclude_self ? ", pairs (i,i) excluded" : "" ;
    switch (o->job)
    {
        case CLI_KNN :
            snprintf (what, sizeof (what), "row i: the %llu nearest rows of B"
                " to row i of A%s", (unsigned long long) o->k, self) ;
            break ;
        case CLI_RADIUS :
            snprintf (what, sizeof (what), "row i: the rows of B within %.17g"
                " of row i of A%s", o->eps, self) ;
            break ;
        default :
            snprintf (what, sizeof (what), "C(i,j): the distance of row i of"
                " A and row j of B") ;
            break ;
    }
    snprintf (s, len, "gxbdist %d.%d.%d %s, metric %s, %s: %s\nA: %s\nB: %s",
        GXBDIST_VERSION_MAJOR, GXBDIST_VERSION_MINOR, GXBDIST_VERSION_SUB,
        o->job_name, o->metric, (o->type == GrB_FP64) ? "fp64" : "fp32",
        what, o->a_path, o->b_path ? o->b_path : "A") ;
}

//------------------------------------------------------------------------------
// run: the phases
//------------------------------------------------------------------------------

#define CLI_FREE_ALL                                                        \
    GrB_Matrix_free (&C) ;                                                  \
    if (B != A) GrB_Matrix_free (&B) ;                                      \
    GrB_Matrix_free (&A) ;                                                  \
    if (owned) GrB_Semiring_free (&s) ;                                     \
    if (labels_b != labels_a) GXD_labels_free (&labels_b, nlabels_b) ;      \
    GXD_labels_free (&labels_a, nlabels_a) ;                                \
    GxB_Distance_finalize () ;                                              \
    GrB_finalize () ;

static GrB_Info run (const cli_opts *o)
{
    GrB_Matrix A = NULL, B = NULL, C = NULL ;
    GrB_Semiring s = NULL ;
    bool owned = false, largest = false ;
    char **labels_a = NULL, **labels_b = NULL ;
    int64_t nlabels_a = 0, nlabels_b = 0 ;
    cli_stats st = { 0 } ;

    CLI_TRY (GrB_init (GrB_NONBLOCKING)) ;
    CLI_TRY (GxB_Distance_init ()) ;
    if (o->backend_given) CLI_TRY (GxB_Distance_set_backend (o->backend)) ;
    if (o->verify) CLI_TRY (GxB_Distance_set_verify (true)) ;
    // an unknown metric fails before a large file is read
    CLI_TRY (cli_metric_semiring (&s, &owned, &largest, o)) ;

    //--------------------------------------------------------------------------
    // read
    //--------------------------------------------------------------------------

    double t = cli_now () ;
    CLI_TRY (cli_read_matrix (&A, o->type, o->a_path)) ;
    B = A ;
    if (o->b_path != NULL)
    {
        B = NULL ;
        CLI_TRY (cli_read_matrix (&B, o->type, o->b_path)) ;
    }
    GrB_Index cols_b ;
    CLI_TRY (GrB_Matrix_nrows (&st.m, A)) ;
    CLI_TRY (GrB_Matrix_ncols (&st.cols, A)) ;
    CLI_TRY (GrB_Matrix_nrows (&st.n, B)) ;
    CLI_TRY (GrB_Matrix_ncols (&cols_b, B)) ;
    CLI_TRY (GrB_Matrix_nvals (&st.nnz_a, A)) ;
    CLI_TRY (GrB_Matrix_nvals (&st.nnz_b, B)) ;
    if (st.cols != cols_b)
    {
        CLI_FAIL (GrB_DIMENSION_MISMATCH, "A (%s) has %llu columns and B (%s)"
            " %llu: rows are compared column by column, so both need the same"
            " columns", o->a_path, (unsigned long long) st.cols, o->b_path,
            (unsigned long long) cols_b) ;
    }
    if (o->format == CLI_FORMAT_LABELS)
    {
        if (o->labels_path != NULL)
        {
            CLI_TRY (cli_read_labels (&labels_a, &nlabels_a, o->labels_path,
                (int64_t) st.m, "A")) ;
        }
        if (o->labels_b_path != NULL)
        {
            CLI_TRY (cli_read_labels (&labels_b, &nlabels_b,
                o->labels_b_path, (int64_t) st.n, "B")) ;
        }
        else if (o->b_path == NULL)
        {
            labels_b = labels_a ;
        }
    }
    st.read = cli_now () - t ;

    //--------------------------------------------------------------------------
    // compute
    //--------------------------------------------------------------------------

    t = cli_now () ;
    cli_progress bar ;
    cli_progress_start (&bar, o->progress && isatty (STDERR_FILENO),
        (int64_t) st.m, o->job_name) ;
    CLI_TRY (cli_compute (&C, o, s, largest, A, B, &bar)) ;
    CLI_TRY (GrB_Matrix_nvals (&st.nnz_c, C)) ;
    st.compute = cli_now () - t ;

    //--------------------------------------------------------------------------
    // write
    //--------------------------------------------------------------------------

    t = cli_now () ;
    if (o->format == CLI_FORMAT_LABELS)
    {
        CLI_TRY (cli_write_listing (C, o->out_path, largest, labels_a,
            labels_b)) ;
    }
    else
    {
        char comment [2048] ;
        describe (comment, sizeof (comment), o) ;
        CLI_TRY (cli_write_matrix (C, o->out_path, comment)) ;
    }
    st.write = cli_now () - t ;

    if (o->stats) cli_stats_print (&st, o) ;
    CLI_FREE_ALL ;
    return GrB_SUCCESS ;
}

#undef CLI_FREE_ALL

//------------------------------------------------------------------------------
// main
//------------------------------------------------------------------------------

static int report (GrB_Info info)
{
    if (info == GrB_SUCCESS) return 0 ;
    fflush (stdout) ;
    fprintf (stderr, "gxbdist: %s\n", cli_message ()) ;
    return (info == CLI_USAGE) ? 2 : 1 ;
}

int main (int argc, char **argv)
{
    cli_opts o ;
    cli_action action ;
    GrB_Info info = cli_args_parse (&o, &action, argc, argv) ;
    if (info == GrB_SUCCESS && action == CLI_HELP) cli_help () ;
    if (info == GrB_SUCCESS && action == CLI_VERSION) cli_version () ;
    if (info == GrB_SUCCESS && action == CLI_RUN) info = run (&o) ;
    return report (info) ;
}
