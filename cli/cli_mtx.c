// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// cli/cli_mtx.c: the command's files, through tools/gxd_mtx.h
//------------------------------------------------------------------------------

// The Matrix Market reader and writer are the project's (tools/gxd_mtx.c);
// this file only adapts them to a command that prints one line per failure:
// the reader prints its message on stderr itself and gzip adds its own, so
// stderr is muted during each call and the reader's message (kept by
// GXD_mtx_message, with its line number) becomes the command's one line.
// "-" is standard input or output.  A matrix that holds a NaN or an infinity
// (data to the reader, as to scipy.io.mmread; also what a value too large
// for fp32 becomes) is refused here: a distance to it is meaningless (docs/metrics.md: inputs
// are expected to be finite), and a listing of NaN neighbors would hide the
// mistake.

#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "gxd_mtx.h"

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

//------------------------------------------------------------------------------
// stderr muted for one call of the reader or the writer
//------------------------------------------------------------------------------

static int mute_stderr (void)
{
    fflush (stderr) ;
    int saved = dup (STDERR_FILENO) ;
    int null = open ("/dev/null", O_WRONLY) ;
    if (saved >= 0 && null >= 0) dup2 (null, STDERR_FILENO) ;
    if (null >= 0) close (null) ;
    return saved ;
}

static void unmute_stderr (int saved)
{
    if (saved < 0) return ;
    dup2 (saved, STDERR_FILENO) ;
    close (saved) ;
}

// the reader's message without its "gxd_mtx: " prefix (main adds ours)
static GrB_Info reader_fail (GrB_Info info)
{
    const char *msg = GXD_mtx_message () ;
    const char *prefix = "gxd_mtx: " ;
    if (strncmp (msg, prefix, strlen (prefix)) == 0) msg += strlen (prefix) ;
    return cli_fail (info, "%s", msg [0] ? msg : cli_info_name (info)) ;
}

static const char *input_path (const char *path)
{
    return strcmp (path, "-") == 0 ? "/dev/stdin" : path ;
}

//------------------------------------------------------------------------------
// input
//------------------------------------------------------------------------------

static void not_finite_fp32 (void *z, const void *x, GrB_Index i,
    GrB_Index j, const void *y)
{
    *(bool *) z = !isfinite (*(const float *) x) ;
}

static void not_finite_fp64 (void *z, const void *x, GrB_Index i,
    GrB_Index j, const void *y)
{
    *(bool *) z = !isfinite (*(const double *) x) ;
}

// refuse a matrix (FP32 or FP64) with a value that is not finite, naming
// the first such entry (1-based, as in the file)
static GrB_Info check_finite (GrB_Matrix A, const char *path)
{
    #define CLI_FREE_ALL                                                    \
        GrB_IndexUnaryOp_free (&op) ; GrB_Matrix_free (&F) ;                \
        free (I) ; free (J) ;
    GrB_IndexUnaryOp op = NULL ;
    GrB_Matrix F = NULL ;
    GrB_Index *I = NULL, *J = NULL ;
    GrB_Type type ;
    GrB_Index m, n, nf ;
    CLI_TRY (GxB_Matrix_type (&type, A)) ;
    CLI_TRY (GrB_Matrix_nrows (&m, A)) ;
    CLI_TRY (GrB_Matrix_ncols (&n, A)) ;
    bool fp32 = (type == GrB_FP32) ;
    CLI_TRY (GrB_IndexUnaryOp_new (&op, fp32 ? not_finite_fp32
        : not_finite_fp64, GrB_BOOL, type, type)) ;
    CLI_TRY (GrB_Matrix_new (&F, GrB_BOOL, m, n)) ;
    CLI_TRY (GrB_Matrix_select_BOOL (F, NULL, NULL, op, A, false, NULL)) ;
    CLI_TRY (GrB_Matrix_nvals (&nf, F)) ;
    if (nf == 0)
    {
        CLI_FREE_ALL ;
        return GrB_SUCCESS ;
    }
    I = malloc (nf * sizeof (GrB_Index)) ;
    J = malloc (nf * sizeof (GrB_Index)) ;
    if (I == NULL || J == NULL) CLI_FAIL (GrB_OUT_OF_MEMORY, "out of memory") ;
    CLI_TRY (GrB_Matrix_extractTuples_BOOL (I, J, NULL, &nf, F)) ;
    GrB_Index q0 = 0 ;
    for (GrB_Index q = 1 ; q < nf ; q++)
    {
        if (I [q] < I [q0] || (I [q] == I [q0] && J [q] < J [q0])) q0 = q ;
    }
    char more [64] = "" ;
    if (nf > 1) snprintf (more, sizeof (more), " (and %llu more)",
        (unsigned long long) (nf - 1)) ;
    CLI_FAIL (GrB_INVALID_VALUE, "%s: entry (%llu,%llu) is %s%s: distances"
        " need finite values", path, (unsigned long long) I [q0] + 1,
        (unsigned long long) J [q0] + 1, fp32 ? "NaN, infinite, or beyond"
        " fp32's 3.4e38 (for that, use --type fp64)" : "NaN or infinite",
        more) ;
    #undef CLI_FREE_ALL
}

GrB_Info cli_read_matrix (GrB_Matrix *A, GrB_Type type, const char *path)
{
    int saved = mute_stderr () ;
    GrB_Info info = GXD_mtx_read (A, type, input_path (path)) ;
    unmute_stderr (saved) ;
    if (info != GrB_SUCCESS) return reader_fail (info) ;
    info = check_finite (*A, path) ;
    if (info != GrB_SUCCESS) GrB_Matrix_free (A) ;
    return info ;
}

GrB_Info cli_read_labels (char ***labels, int64_t *nlabels, const char *path,
    int64_t nrows, const char *whose)
{
    int saved = mute_stderr () ;
    GrB_Info info = GXD_labels_read (labels, nlabels, input_path (path)) ;
    unmute_stderr (saved) ;
    if (info != GrB_SUCCESS) return reader_fail (info) ;
    // a label per row, or the listing would name the wrong rows
    if (*nlabels != nrows)
    {
        info = cli_fail (GrB_INVALID_VALUE, "%s: %lld labels for the %lld rows"
            " of %s (one line per row)", path, (long long) *nlabels,
            (long long) nrows, whose) ;
        GXD_labels_free (labels, *nlabels) ;
        *nlabels = 0 ;
    }
    return info ;
}

//------------------------------------------------------------------------------
// output
//------------------------------------------------------------------------------

static GrB_Info write_path (GrB_Matrix C, const char *path,
    const char *comment)
{
    int saved = mute_stderr () ;
    GrB_Info info = GXD_mtx_write (C, path, comment) ;
    unmute_stderr (saved) ;
    return (info == GrB_SUCCESS) ? GrB_SUCCESS : reader_fail (info) ;
}

// copy a file to standard output
static GrB_Info copy_to_stdout (const char *path)
{
    FILE *f = fopen (path, "r") ;
    if (f == NULL) return cli_fail (GrB_INVALID_VALUE, "cannot reread %s", path) ;
    char buf [1 << 16] ;
    size_t got ;
    bool ok = true ;
    while (ok && (got = fread (buf, 1, sizeof (buf), f)) > 0)
    {
        ok = (fwrite (buf, 1, got, stdout) == got) ;
    }
    ok = ok && !ferror (f) && fflush (stdout) == 0 ;
    fclose (f) ;
    return ok ? GrB_SUCCESS
              : cli_fail (GrB_INVALID_VALUE, "write error on standard output") ;
}

GrB_Info cli_write_matrix (GrB_Matrix C, const char *path,
    const char *comment)
{
    if (strcmp (path, "-") != 0) return write_path (C, path, comment) ;
    fflush (stdout) ;
    // GXD_mtx_write opens its path with "w": a pipe or a terminal can be
    // reopened so, but a regular file through /dev/stdout would be truncated
    // (>> or "{ ...; } > file" would lose what is already there) and a
    // socket cannot be reopened: those get a temporary file, then a copy
    struct stat st ;
    if (fstat (STDOUT_FILENO, &st) == 0
        && (S_ISFIFO (st.st_mode) || S_ISCHR (st.st_mode)))
    {
        return write_path (C, "/dev/stdout", comment) ;
    }
    const char *dir = getenv ("TMPDIR") ;
    if (dir == NULL || dir [0] == '\0') dir = "/tmp" ;
    char tmp [4096] ;
    snprintf (tmp, sizeof (tmp), "%s/gxbdist-XXXXXX", dir) ;
    int fd = mkstemp (tmp) ;
    if (fd < 0)
    {
        return cli_fail (GrB_INVALID_VALUE, "cannot create a temporary file in"
            " %s for standard output", dir) ;
    }
    close (fd) ;
    GrB_Info info = write_path (C, tmp, comment) ;
    if (info == GrB_SUCCESS) info = copy_to_stdout (tmp) ;
    unlink (tmp) ;
    return info ;
}
