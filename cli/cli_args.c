// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// cli/cli_args.c: the command line of gxbdist
//------------------------------------------------------------------------------

// gxbdist COMMAND [options] A [B], options anywhere after the command
// (getopt_long, which also takes --name=value and -k5).  Every check that
// needs no file is made here, so that a mistyped command line fails at once
// with exit status 2, before a large file is read.

#define _GNU_SOURCE
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

//------------------------------------------------------------------------------
// numbers: the whole argument, nothing after it
//------------------------------------------------------------------------------

static GrB_Info parse_count (uint64_t *v, const char *s, const char *opt)
{
    char *end ;
    errno = 0 ;
    unsigned long long x = strtoull (s, &end, 10) ;
    if (s [0] == '\0' || s [0] == '-' || s [0] == '+' || *end != '\0'
        || errno != 0)
    {
        return cli_fail (CLI_USAGE, "%s wants a whole number, not '%s'", opt,
            s) ;
    }
    *v = (uint64_t) x ;
    return GrB_SUCCESS ;
}

static GrB_Info parse_real (double *v, const char *s, const char *opt)
{
    char *end ;
    errno = 0 ;
    double x = strtod (s, &end) ;
    if (s [0] == '\0' || *end != '\0' || errno == ERANGE || isnan (x))
    {
        return cli_fail (CLI_USAGE, "%s wants a number, not '%s'", opt, s) ;
    }
    *v = x ;
    return GrB_SUCCESS ;
}

// one of a list of words: its index in names []
static GrB_Info parse_word (int *v, const char *s, const char *opt,
    const char *const *names, int n)
{
    for (int i = 0 ; i < n ; i++)
    {
        if (strcmp (s, names [i]) == 0) { *v = i ; return GrB_SUCCESS ; }
    }
    char list [256] = "" ;
    for (int i = 0 ; i < n ; i++)
    {
        strncat (list, i ? ", " : "", sizeof (list) - strlen (list) - 1) ;
        strncat (list, names [i], sizeof (list) - strlen (list) - 1) ;
    }
    return cli_fail (CLI_USAGE, "%s wants one of %s, not '%s'", opt, list, s) ;
}

//------------------------------------------------------------------------------
// the options
//------------------------------------------------------------------------------

enum
{
    OPT_METRIC = 'm', OPT_K = 'k', OPT_OUTPUT = 'o', OPT_HELP = 'h',
    OPT_P = 256, OPT_EPS, OPT_EXCLUDE_SELF, OPT_BACKEND, OPT_TYPE, OPT_VERIFY,
    OPT_LABELS, OPT_LABELS_B, OPT_FORMAT, OPT_STATS, OPT_NO_PROGRESS,
    OPT_BLOCK_ROWS, OPT_VERSION
} ;

static const struct option longopts [] =
{
    { "metric",       required_argument, NULL, OPT_METRIC },
    { "p",            required_argument, NULL, OPT_P },
    { "k",            required_argument, NULL, OPT_K },
    { "eps",          required_argument, NULL, OPT_EPS },
    { "exclude-self", no_argument,       NULL, OPT_EXCLUDE_SELF },
    { "backend",      required_argument, NULL, OPT_BACKEND },
    { "type",         required_argument, NULL, OPT_TYPE },
    { "verify",       no_argument,       NULL, OPT_VERIFY },
    { "output",       required_argument, NULL, OPT_OUTPUT },
    { "labels",       required_argument, NULL, OPT_LABELS },
    { "labels-b",     required_argument, NULL, OPT_LABELS_B },
    { "format",       required_argument, NULL, OPT_FORMAT },
    { "stats",        no_argument,       NULL, OPT_STATS },
    { "no-progress",  no_argument,       NULL, OPT_NO_PROGRESS },
    { "block-rows",   required_argument, NULL, OPT_BLOCK_ROWS },
    { "help",         no_argument,       NULL, OPT_HELP },
    { "version",      no_argument,       NULL, OPT_VERSION },
    { NULL, 0, NULL, 0 }
} ;

static const char *const jobs [] = { "knn", "radius", "pairwise" } ;
static const char *const backends [] = { "auto", "cpu", "gpu" } ;
static const char *const types [] = { "fp32", "fp64" } ;
static const char *const formats [] = { "mtx", "labels" } ;

//------------------------------------------------------------------------------
// cli_args_parse
//------------------------------------------------------------------------------

#define CLI_FREE_ALL ;

GrB_Info cli_args_parse (cli_opts *o, cli_action *action, int argc,
    char **argv)
{
    memset (o, 0, sizeof (*o)) ;
    o->metric = "euclidean" ;
    o->k = 5 ;
    o->type = GrB_FP32 ;
    o->out_path = "-" ;
    o->progress = true ;
    o->backend = GxB_BACKEND_AUTO ;
    *action = CLI_RUN ;

    if (argc < 2)
    {
        CLI_FAIL (CLI_USAGE, "no command: knn, radius or pairwise (see "
            "gxbdist --help)") ;
    }
    const char *cmd = argv [1] ;
    if (strcmp (cmd, "--help") == 0 || strcmp (cmd, "-h") == 0
        || strcmp (cmd, "help") == 0)
    {
        *action = CLI_HELP ;
        return GrB_SUCCESS ;
    }
    if (strcmp (cmd, "--version") == 0)
    {
        *action = CLI_VERSION ;
        return GrB_SUCCESS ;
    }
    int job = -1 ;
    for (int i = 0 ; i < 3 ; i++) if (strcmp (cmd, jobs [i]) == 0) job = i ;
    if (job < 0)
    {
        CLI_FAIL (CLI_USAGE, "unknown command '%s': knn, radius or pairwise "
            "(see gxbdist --help)", cmd) ;
    }
    o->job = (cli_job) job ;
    o->job_name = jobs [job] ;

    // options and operands after the command; getopt_long reports problems
    // to us (opterr = 0) so that the message is our one line
    opterr = 0 ;
    optind = 1 ;
    int nargs = argc - 1 ;
    char **args = argv + 1 ;
    bool k_given = false ;
    int c, w ;
    while ((c = getopt_long (nargs, args, ":m:k:o:h", longopts, NULL)) != -1)
    {
        switch (c)
        {
            case OPT_METRIC : o->metric = optarg ; break ;
            case OPT_P :
                CLI_TRY (parse_real (&o->p, optarg, "--p")) ;
                o->p_given = true ;
                break ;
            case OPT_K :
                CLI_TRY (parse_count (&o->k, optarg, "-k")) ;
                if (o->k == 0) CLI_FAIL (CLI_USAGE, "-k must be at least 1") ;
                k_given = true ;
                break ;
            case OPT_EPS :
                CLI_TRY (parse_real (&o->eps, optarg, "--eps")) ;
                o->eps_given = true ;
                break ;
            case OPT_EXCLUDE_SELF : o->exclude_self = true ; break ;
            case OPT_BACKEND :
                CLI_TRY (parse_word (&w, optarg, "--backend", backends, 3)) ;
                o->backend = (w == 0) ? GxB_BACKEND_AUTO
                           : (w == 1) ? GxB_BACKEND_CPU : GxB_BACKEND_GPU ;
                o->backend_given = true ;
                break ;
            case OPT_TYPE :
                CLI_TRY (parse_word (&w, optarg, "--type", types, 2)) ;
                o->type = (w == 0) ? GrB_FP32 : GrB_FP64 ;
                break ;
            case OPT_VERIFY : o->verify = true ; break ;
            case OPT_OUTPUT : o->out_path = optarg ; break ;
            case OPT_LABELS : o->labels_path = optarg ; break ;
            case OPT_LABELS_B : o->labels_b_path = optarg ; break ;
            case OPT_FORMAT :
                CLI_TRY (parse_word (&w, optarg, "--format", formats, 2)) ;
                o->format = (cli_format) w ;
                break ;
            case OPT_STATS : o->stats = true ; break ;
            case OPT_NO_PROGRESS : o->progress = false ; break ;
            case OPT_BLOCK_ROWS :
            {
                uint64_t b = 0 ;
                CLI_TRY (parse_count (&b, optarg, "--block-rows")) ;
                if (b == 0 || b > INT64_MAX)
                {
                    CLI_FAIL (CLI_USAGE, "--block-rows must be at least 1") ;
                }
                o->block_rows = (int64_t) b ;
                break ;
            }
            case OPT_HELP : *action = CLI_HELP ; return GrB_SUCCESS ;
            case OPT_VERSION : *action = CLI_VERSION ; return GrB_SUCCESS ;
            case ':' :
                // args [optind-1] is the option, as typed, at the end
                CLI_FAIL (CLI_USAGE, "%s wants a value", args [optind-1]) ;
            default :
                if (optopt && optopt < 256)
                {
                    CLI_FAIL (CLI_USAGE, "unknown option '-%c' (see gxbdist "
                        "--help)", optopt) ;
                }
                CLI_FAIL (CLI_USAGE, "unknown option '%s' (see gxbdist "
                    "--help)", args [optind-1]) ;
        }
    }

    //--------------------------------------------------------------------------
    // operands, and options that do not go together
    //--------------------------------------------------------------------------

    int nops = nargs - optind ;
    if (nops < 1) CLI_FAIL (CLI_USAGE, "%s: no input file A", o->job_name) ;
    if (nops > 2)
    {
        CLI_FAIL (CLI_USAGE, "%s: too many files ('%s'); want A and at most "
            "B", o->job_name, args [optind+2]) ;
    }
    o->a_path = args [optind] ;
    o->b_path = (nops == 2) ? args [optind+1] : NULL ;
    if (o->b_path != NULL && strcmp (o->a_path, "-") == 0
        && strcmp (o->b_path, "-") == 0)
    {
        CLI_FAIL (CLI_USAGE, "A and B cannot both be standard input ('-')") ;
    }
    if (k_given && o->job != CLI_KNN)
    {
        CLI_FAIL (CLI_USAGE, "-k applies to knn, not %s", o->job_name) ;
    }
    if (o->job == CLI_RADIUS && !o->eps_given)
    {
        CLI_FAIL (CLI_USAGE, "radius needs --eps E (the largest distance "
            "kept)") ;
    }
    if (o->eps_given && o->job != CLI_RADIUS)
    {
        CLI_FAIL (CLI_USAGE, "--eps applies to radius, not %s", o->job_name) ;
    }
    if (o->exclude_self && o->job == CLI_PAIRWISE)
    {
        CLI_FAIL (CLI_USAGE, "--exclude-self applies to knn and radius, not "
            "pairwise") ;
    }
    if (o->format == CLI_FORMAT_LABELS && o->job == CLI_PAIRWISE)
    {
        CLI_FAIL (CLI_USAGE, "--format labels lists neighbors: knn and radius "
            "only") ;
    }
    if ((o->labels_path != NULL || o->labels_b_path != NULL)
        && o->format != CLI_FORMAT_LABELS)
    {
        CLI_FAIL (CLI_USAGE, "--labels%s names rows in the --format labels "
            "listing; the Matrix Market output has no labels",
            (o->labels_path != NULL) ? "" : "-b") ;
    }
    if (o->labels_b_path != NULL && o->b_path == NULL)
    {
        CLI_FAIL (CLI_USAGE, "--labels-b names B's rows, but no B is given "
            "(B is A: use --labels)") ;
    }
    if (o->p_given && strcmp (o->metric, "minkowski") != 0)
    {
        CLI_FAIL (CLI_USAGE, "--p applies to --metric minkowski, not '%s'",
            o->metric) ;
    }
    return GrB_SUCCESS ;
}
