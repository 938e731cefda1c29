// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// cli/cli_output.c: the --format labels listing of a knn or radius result
//------------------------------------------------------------------------------

// A listing for people (and for cut and grep): for each row of A, one line
// with its number and label, then one line per neighbor, best first,
// indented by a tab: distance, row number of B, label; a blank line between
// rows.  Row numbers are 1-based, as in the Matrix Market output; fields are
// tab-separated (a tab or control character inside a label prints as a
// space).  Distances print with 6 significant digits: the exact values are
// in the Matrix Market output.  Example (docs/cli.md):
//
//     1<TAB>A "critic" is a man who creates nothing ...
//     <TAB>0.4183<TAB>513<TAB>Critics are like ...
//
// Best first is the order GxB_kNN chose: smallest distance first (largest
// for DOT), ties to the smaller row of B, NaN last.

#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { GrB_Index i, j ; double x ; } entry ;

static bool largest_first = false ;

// row, then best first, then the smaller column
static int compare (const void *pa, const void *pb)
{
    const entry *a = pa, *b = pb ;
    if (a->i != b->i) return (a->i < b->i) ? -1 : 1 ;
    bool na = isnan (a->x), nb = isnan (b->x) ;
    if (na != nb) return na ? 1 : -1 ;
    if (!na && a->x != b->x)
    {
        return ((a->x < b->x) != largest_first) ? -1 : 1 ;
    }
    return (a->j < b->j) ? -1 : (a->j > b->j) ;
}

static void put_label (FILE *f, char **labels, GrB_Index i)
{
    if (labels == NULL) return ;
    fputc ('\t', f) ;
    for (const unsigned char *s = (const unsigned char *) labels [i] ; *s ; s++)
    {
        fputc ((*s < 0x20 || *s == 0x7f) ? ' ' : *s, f) ;
    }
}

GrB_Info cli_write_listing (GrB_Matrix C, const char *path, bool largest,
    char **labels_a, char **labels_b)
{
    #define CLI_FREE_ALL                                                    \
        free (I) ; free (J) ; free (X) ; free (E) ;                         \
        if (f != NULL && f != stdout) fclose (f) ;
    GrB_Index *I = NULL, *J = NULL ;
    double *X = NULL ;
    entry *E = NULL ;
    FILE *f = NULL ;
    GrB_Index m, nv ;
    CLI_TRY (GrB_Matrix_nrows (&m, C)) ;
    CLI_TRY (GrB_Matrix_nvals (&nv, C)) ;
    size_t sz = (size_t) (nv > 0 ? nv : 1) ;
    I = malloc (sz * sizeof (GrB_Index)) ;
    J = malloc (sz * sizeof (GrB_Index)) ;
    X = malloc (sz * sizeof (double)) ;
    E = malloc (sz * sizeof (entry)) ;
    if (I == NULL || J == NULL || X == NULL || E == NULL)
    {
        CLI_FAIL (GrB_OUT_OF_MEMORY, "out of memory for the listing of %llu"
            " neighbors", (unsigned long long) nv) ;
    }
    CLI_TRY (GrB_Matrix_extractTuples_FP64 (I, J, X, &nv, C)) ;
    for (GrB_Index q = 0 ; q < nv ; q++)
    {
        E [q] = (entry) { .i = I [q], .j = J [q], .x = X [q] } ;
    }
    largest_first = largest ;
    qsort (E, (size_t) nv, sizeof (entry), compare) ;

    bool to_stdout = (strcmp (path, "-") == 0) ;
    const char *name = to_stdout ? "standard output" : path ;
    f = to_stdout ? stdout : fopen (path, "w") ;
    if (f == NULL) CLI_FAIL (GrB_INVALID_VALUE, "%s: cannot create", name) ;
    GrB_Index q = 0 ;
    for (GrB_Index i = 0 ; i < m ; i++)
    {
        fprintf (f, "%s%llu", (i > 0) ? "\n" : "", (unsigned long long) i + 1) ;
        put_label (f, labels_a, i) ;
        fputc ('\n', f) ;
        for ( ; q < nv && E [q].i == i ; q++)
        {
            fprintf (f, "\t%.6g\t%llu", E [q].x, (unsigned long long) E [q].j + 1) ;
            put_label (f, labels_b, E [q].j) ;
            fputc ('\n', f) ;
        }
    }
    bool bad = (fflush (f) != 0) || ferror (f) ;
    if (f != stdout) bad = (fclose (f) != 0) || bad ;
    f = NULL ;
    if (bad) CLI_FAIL (GrB_INVALID_VALUE, "%s: write error", name) ;
    CLI_FREE_ALL ;
    return GrB_SUCCESS ;
    #undef CLI_FREE_ALL
}
