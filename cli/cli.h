// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// cli/cli.h: what the files of the gxbdist command share
//------------------------------------------------------------------------------

// The gxbdist command (docs/cli.md) runs GxB_kNN, GxB_radius_graph or
// GxB_mxm_distance on Matrix Market files.  Data flows one way: options
// (cli_args.c) -> settings and the semiring (cli_metric.c) -> the inputs
// (cli_mtx.c) -> the computation on row blocks of A (cli_compute.c, which
// drives the progress bar of cli_progress.c) -> the output (cli_mtx.c,
// cli_output.c) -> statistics (cli_stats.c).
//
// One error idiom, as in graphblas_ext/: every function that can fail returns
// GrB_Info and leaves one message (cli_fail, or the library's own message
// through GxB_Distance_error); a function defines CLI_FREE_ALL and calls
// through CLI_TRY.  main prints "gxbdist: <message>" once and exits 2 for a
// usage error (CLI_USAGE), else 1.

#ifndef GXBDIST_CLI_H
#define GXBDIST_CLI_H

#include <gxbdist.h>
#include <stdbool.h>
#include <stdint.h>

//------------------------------------------------------------------------------
// errors
//------------------------------------------------------------------------------

// A bad command line: exit status 2 (distinct from every GrB_Info code and
// from GxB_VERIFY_FAILED).
#define CLI_USAGE ((GrB_Info) -2101)

// keep a message (printf format) and return info
GrB_Info cli_fail (GrB_Info info, const char *fmt, ...)
    __attribute__ ((format (printf, 2, 3))) ;

// the kept message; "" when none
const char *cli_message (void) ;

// keep the message of a failed library call: gxbdist's own message
// (GxB_Distance_error) when it has one, else the call and the GrB_Info's name
GrB_Info cli_fail_call (GrB_Info info, const char *call) ;

// the name of a GrB_Info ("GrB_OUT_OF_MEMORY")
const char *cli_info_name (GrB_Info info) ;

// CLI_TRY: any call returning GrB_Info (library or ours); on failure clean up
// with the caller's CLI_FREE_ALL and return the GrB_Info, the message kept
#define CLI_TRY(call)                                                       \
{                                                                           \
    GrB_Info cli_info_ = (call) ;                                           \
    if (cli_info_ != GrB_SUCCESS)                                           \
    {                                                                       \
        if (cli_message () [0] == '\0') cli_fail_call (cli_info_, #call) ;  \
        CLI_FREE_ALL ;                                                      \
        return (cli_info_) ;                                                \
    }                                                                       \
}

// fail with a message: clean up and return info
#define CLI_FAIL(info, ...)                                                 \
{                                                                           \
    GrB_Info cli_fail_ = cli_fail ((info), __VA_ARGS__) ;                   \
    CLI_FREE_ALL ;                                                          \
    return (cli_fail_) ;                                                    \
}

//------------------------------------------------------------------------------
// the command line
//------------------------------------------------------------------------------

typedef enum { CLI_KNN, CLI_RADIUS, CLI_PAIRWISE } cli_job ;
typedef enum { CLI_FORMAT_MTX, CLI_FORMAT_LABELS } cli_format ;

typedef struct
{
    cli_job job ;
    const char *job_name ;          // "knn", "radius", "pairwise"
    const char *a_path ;            // "-": standard input
    const char *b_path ;            // NULL: B is A
    const char *metric ;            // as given (default "euclidean")
    double p ;                      // --p, for minkowski
    bool p_given ;
    uint64_t k ;                    // -k (default 5, scikit-learn's)
    double eps ;                    // --eps (radius: required)
    bool eps_given ;
    bool exclude_self ;
    GxB_Backend backend ;
    bool backend_given ;
    GrB_Type type ;                 // GrB_FP32 (default) or GrB_FP64
    bool verify ;
    const char *out_path ;          // "-": standard output (default)
    const char *labels_path ;       // --labels: A's rows
    const char *labels_b_path ;     // --labels-b: B's rows (default: A's
                                    // labels when B is A)
    cli_format format ;
    bool stats ;
    bool progress ;                 // false: --no-progress
    int64_t block_rows ;            // --block-rows N (0: chosen here)
}
cli_opts ;

// what main does after parsing
typedef enum { CLI_RUN, CLI_HELP, CLI_VERSION } cli_action ;

// parse argv into *o; CLI_USAGE with a message on a bad command line
GrB_Info cli_args_parse (cli_opts *o, cli_action *action, int argc,
    char **argv) ;

// --help and --version, on stdout
void cli_help (void) ;
void cli_version (void) ;

//------------------------------------------------------------------------------
// metrics
//------------------------------------------------------------------------------

// the semiring of o->metric (scipy / scikit-learn names) in o->type; *owned
// when it was created here (Minkowski) and must be freed with
// GrB_Semiring_free.  CLI_USAGE for an unknown name (the message lists the
// known ones).  *largest: the metric is a similarity (DOT), best = largest.
GrB_Info cli_metric_semiring (GrB_Semiring *s, bool *owned, bool *largest,
    const cli_opts *o) ;

//------------------------------------------------------------------------------
// Matrix Market input and output (through tools/gxd_mtx.h)
//------------------------------------------------------------------------------

// read a matrix or a labels file; on failure the reader's message with its
// line number, and nothing on stderr (main prints the one line)
GrB_Info cli_read_matrix (GrB_Matrix *A, GrB_Type type, const char *path) ;
GrB_Info cli_read_labels (char ***labels, int64_t *nlabels, const char *path,
    int64_t nrows, const char *whose) ;

// write C as Matrix Market to path ("-": standard output)
GrB_Info cli_write_matrix (GrB_Matrix C, const char *path,
    const char *comment) ;

// the --format labels listing of a knn or radius result
GrB_Info cli_write_listing (GrB_Matrix C, const char *path, bool largest,
    char **labels_a, char **labels_b) ;

//------------------------------------------------------------------------------
// the computation, its progress bar and its statistics
//------------------------------------------------------------------------------

typedef struct
{
    bool enabled ;          // stderr is a terminal and --no-progress absent
    bool shown ;            // the bar has been drawn at least once
    double t0 ;             // start of the job
    int64_t total ;         // rows of A
    const char *what ;      // "knn", ...
}
cli_progress ;

// monotonic seconds
double cli_now (void) ;

void cli_progress_start (cli_progress *bar, bool enabled, int64_t total,
    const char *what) ;
// rows done so far: the bar is drawn once the job has run a second
void cli_progress_update (cli_progress *bar, int64_t done) ;
// erase the bar
void cli_progress_end (cli_progress *bar) ;

// C = the job on all of A: one library call, or one per block of A's rows
// (o->block_rows, or blocks sized as they go when the bar is enabled),
// assembled into the result one call would give.  largest: DOT's order.
GrB_Info cli_compute (GrB_Matrix *C, const cli_opts *o, GrB_Semiring s,
    bool largest, GrB_Matrix A, GrB_Matrix B, cli_progress *bar) ;

// C = a block's result T (rows r0.. of A) without its self pairs (i, r0+i):
// for knn (k > 0) T holds k+1 per row and C the k best others; for radius
// (k = 0) every other pair
GrB_Info cli_drop_self (GrB_Matrix *C, GrB_Matrix T, int64_t r0, uint64_t k,
    bool largest) ;

typedef struct
{
    double read, compute, write ;   // seconds per phase
    uint64_t m, n, cols, nnz_a, nnz_b, nnz_c ;
}
cli_stats ;

// --stats: the phases, pairs per second and peak memory, on stderr
void cli_stats_print (const cli_stats *st, const cli_opts *o) ;

#endif
