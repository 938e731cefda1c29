//------------------------------------------------------------------------------
// tools/gxd_mtx.c: Matrix Market reader/writer and label reader
//------------------------------------------------------------------------------

// Used by demo/ and bench/ only (see gxd_mtx.h).  Compressed files are read
// through popen ("gzip -dc ...") so the project needs no zlib; gzip is on
// every Debian machine.  Entries are collected as (i, j, x) in double and
// given to GrB_Matrix_build with GrB_PLUS_FP64, which sums duplicates and
// typecasts to the requested type.

#define _POSIX_C_SOURCE 200809L
#include "gxd_mtx.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

//------------------------------------------------------------------------------
// messages
//------------------------------------------------------------------------------

static char message [1024] = "" ;

static GrB_Info fail (GrB_Info info, const char *path, int64_t line,
    const char *fmt, ...)
{
    char what [768] ;
    va_list ap ;
    va_start (ap, fmt) ;
    vsnprintf (what, sizeof (what), fmt, ap) ;
    va_end (ap) ;
    if (line > 0)
    {
        snprintf (message, sizeof (message), "gxd_mtx: %s:%lld: %s",
            path ? path : "(null)", (long long) line, what) ;
    }
    else
    {
        snprintf (message, sizeof (message), "gxd_mtx: %s: %s",
            path ? path : "(null)", what) ;
    }
    fprintf (stderr, "%s\n", message) ;
    return info ;
}

const char *GXD_mtx_message (void)
{
    return message ;
}

//------------------------------------------------------------------------------
// input: a plain file, or "gzip -dc" of a .gz file
//------------------------------------------------------------------------------

typedef struct
{
    FILE *f ;
    bool pipe ;
}
input ;

static bool ends_with (const char *s, const char *suffix)
{
    size_t ls = strlen (s), lx = strlen (suffix) ;
    return ls >= lx && strcmp (s + ls - lx, suffix) == 0 ;
}

static GrB_Info open_input (input *in, const char *path)
{
    in->f = NULL ;
    in->pipe = false ;
    if (access (path, R_OK) != 0)
    {
        return fail (GrB_INVALID_VALUE, path, 0, "cannot open: %s",
            strerror (errno)) ;
    }
    if (!ends_with (path, ".gz"))
    {
        in->f = fopen (path, "r") ;
        if (in->f == NULL)
        {
            return fail (GrB_INVALID_VALUE, path, 0, "cannot open: %s",
                strerror (errno)) ;
        }
        return GrB_SUCCESS ;
    }
    // quote the path for the shell: ' becomes '\''
    size_t len = strlen (path) ;
    char *cmd = malloc (4 * len + 32) ;
    if (cmd == NULL) return fail (GrB_OUT_OF_MEMORY, path, 0, "out of memory") ;
    char *c = cmd + sprintf (cmd, "gzip -dc -- '") ;
    for (const char *s = path ; *s ; s++)
    {
        if (*s == '\'') { memcpy (c, "'\\''", 4) ; c += 4 ; }
        else *c++ = *s ;
    }
    strcpy (c, "'") ;
    fflush (NULL) ;
    in->f = popen (cmd, "r") ;
    free (cmd) ;
    if (in->f == NULL)
    {
        return fail (GrB_INVALID_VALUE, path, 0, "cannot run gzip -dc: %s",
            strerror (errno)) ;
    }
    in->pipe = true ;
    return GrB_SUCCESS ;
}

// close; on a pipe, report whether gzip succeeded (only when ok so far)
static GrB_Info close_input (input *in, const char *path, bool ok)
{
    if (in->f == NULL) return GrB_SUCCESS ;
    GrB_Info info = GrB_SUCCESS ;
    if (in->pipe)
    {
        int status = pclose (in->f) ;
        if (ok && status != 0)
        {
            info = fail (GrB_INVALID_VALUE, path, 0,
                "gzip -dc failed (status %d): not a valid .gz file", status) ;
        }
    }
    else
    {
        bool err = ferror (in->f) ;
        fclose (in->f) ;
        if (ok && err)
        {
            info = fail (GrB_INVALID_VALUE, path, 0, "read error") ;
        }
    }
    in->f = NULL ;
    return info ;
}

//------------------------------------------------------------------------------
// small parsing helpers
//------------------------------------------------------------------------------

static bool blank (const char *s)
{
    while (*s && isspace ((unsigned char) *s)) s++ ;
    return *s == '\0' ;
}

// parse a non-negative decimal integer token; advances *s
static bool parse_index (char **s, int64_t *v)
{
    char *p = *s, *end ;
    while (*p == ' ' || *p == '\t') p++ ;
    if (!isdigit ((unsigned char) *p)) return false ;
    errno = 0 ;
    long long x = strtoll (p, &end, 10) ;
    if (errno != 0 || end == p) return false ;
    if (*end && !isspace ((unsigned char) *end)) return false ;
    *v = (int64_t) x ;
    *s = end ;
    return true ;
}

static bool parse_value (char **s, double *v, bool integer)
{
    char *p = *s, *end ;
    while (*p == ' ' || *p == '\t') p++ ;
    errno = 0 ;
    double x ;
    if (integer)
    {
        long long y = strtoll (p, &end, 10) ;
        x = (double) y ;
    }
    else
    {
        x = strtod (p, &end) ;
    }
    if (end == p || errno == ERANGE) return false ;
    if (*end && !isspace ((unsigned char) *end)) return false ;
    *v = x ;
    *s = end ;
    return true ;
}

static bool builtin_type (GrB_Type t)
{
    return t == GrB_BOOL || t == GrB_INT8 || t == GrB_INT16 || t == GrB_INT32
        || t == GrB_INT64 || t == GrB_UINT8 || t == GrB_UINT16
        || t == GrB_UINT32 || t == GrB_UINT64 || t == GrB_FP32
        || t == GrB_FP64 ;
}

//------------------------------------------------------------------------------
// GXD_mtx_read
//------------------------------------------------------------------------------

#undef  FREE_ALL
#define FREE_ALL                                \
{                                               \
    free (line) ; free (I) ; free (J) ; free (X) ; \
    close_input (&in, path, false) ;            \
}

#undef  FAIL
#define FAIL(info, ...)                         \
{                                               \
    GrB_Info fail_info = fail (info, path, lineno, __VA_ARGS__) ; \
    FREE_ALL ;                                  \
    return fail_info ;                          \
}

GrB_Info GXD_mtx_read (GrB_Matrix *A, GrB_Type type, const char *path)
{
    if (A == NULL || type == NULL || path == NULL)
    {
        return fail (GrB_NULL_POINTER, path, 0,
            "GXD_mtx_read: A, type and path must not be NULL") ;
    }
    *A = NULL ;
    if (!builtin_type (type))
    {
        return fail (GrB_DOMAIN_MISMATCH, path, 0,
            "type must be a built-in GraphBLAS type") ;
    }

    input in = { NULL, false } ;
    char *line = NULL ;
    size_t cap = 0 ;
    GrB_Index *I = NULL, *J = NULL ;
    double *X = NULL ;
    int64_t lineno = 0 ;

    GrB_Info info = open_input (&in, path) ;
    if (info != GrB_SUCCESS) return info ;

    //--------------------------------------------------------------------------
    // header: %%MatrixMarket matrix coordinate <field> <symmetry>
    //--------------------------------------------------------------------------

    ssize_t len = getline (&line, &cap, in.f) ;
    lineno = 1 ;
    if (len < 0)
    {
        FAIL (GrB_INVALID_VALUE, in.pipe ? "empty, or not a valid .gz file"
            : "empty file") ;
    }
    char banner [64] = "", object [64] = "", format [64] = "",
        field [64] = "", symmetry [64] = "" ;
    int ntok = sscanf (line, "%63s %63s %63s %63s %63s", banner, object,
        format, field, symmetry) ;
    if (ntok < 1 || strcasecmp (banner, "%%MatrixMarket") != 0)
    {
        FAIL (GrB_INVALID_VALUE, "not a Matrix Market file (no %%%%MatrixMarket"
            " header)") ;
    }
    if (ntok != 5) FAIL (GrB_INVALID_VALUE, "incomplete Matrix Market header") ;
    if (strcasecmp (object, "matrix") != 0)
    {
        FAIL (GrB_NOT_IMPLEMENTED, "object '%s' is not supported (only matrix)",
            object) ;
    }
    if (strcasecmp (format, "array") == 0)
    {
        FAIL (GrB_NOT_IMPLEMENTED, "array (dense) format is not supported,"
            " only coordinate") ;
    }
    if (strcasecmp (format, "coordinate") != 0)
    {
        FAIL (GrB_INVALID_VALUE, "unknown format '%s'", format) ;
    }
    bool pattern = false, integer = false ;
    if (strcasecmp (field, "pattern") == 0) pattern = true ;
    else if (strcasecmp (field, "integer") == 0) integer = true ;
    else if (strcasecmp (field, "real") == 0 || strcasecmp (field, "double") == 0) ;
    else if (strcasecmp (field, "complex") == 0)
    {
        FAIL (GrB_NOT_IMPLEMENTED, "complex field is not supported") ;
    }
    else FAIL (GrB_INVALID_VALUE, "unknown field '%s'", field) ;
    int sym = 0 ;   // 0 general, 1 symmetric, -1 skew-symmetric
    if (strcasecmp (symmetry, "general") == 0) sym = 0 ;
    else if (strcasecmp (symmetry, "symmetric") == 0) sym = 1 ;
    else if (strcasecmp (symmetry, "skew-symmetric") == 0) sym = -1 ;
    else if (strcasecmp (symmetry, "hermitian") == 0)
    {
        FAIL (GrB_NOT_IMPLEMENTED, "hermitian symmetry is not supported") ;
    }
    else FAIL (GrB_INVALID_VALUE, "unknown symmetry '%s'", symmetry) ;
    if (sym == -1 && pattern)
    {
        FAIL (GrB_INVALID_VALUE, "a pattern matrix cannot be skew-symmetric") ;
    }

    //--------------------------------------------------------------------------
    // size line, after comments and blank lines
    //--------------------------------------------------------------------------

    int64_t m = -1, n = -1, nz = -1 ;
    while ((len = getline (&line, &cap, in.f)) >= 0)
    {
        lineno++ ;
        if (line [0] == '%' || blank (line)) continue ;
        char *s = line ;
        if (!parse_index (&s, &m) || !parse_index (&s, &n)
            || !parse_index (&s, &nz) || !blank (s))
        {
            FAIL (GrB_INVALID_VALUE, "bad size line (want: rows cols"
                " entries)") ;
        }
        break ;
    }
    if (nz < 0) FAIL (GrB_INVALID_VALUE, "no size line") ;
    if (sym != 0 && m != n)
    {
        FAIL (GrB_INVALID_VALUE, "%s matrix is not square (%lld x %lld)",
            symmetry, (long long) m, (long long) n) ;
    }
    if (nz > 0 && (m == 0 || n == 0))
    {
        FAIL (GrB_INVALID_VALUE, "%lld entries in an empty matrix",
            (long long) nz) ;
    }

    //--------------------------------------------------------------------------
    // entries
    //--------------------------------------------------------------------------

    int64_t maxnz = (sym != 0) ? 2 * nz : nz ;
    size_t sz = (size_t) (maxnz > 0 ? maxnz : 1) ;
    I = malloc (sz * sizeof (GrB_Index)) ;
    J = malloc (sz * sizeof (GrB_Index)) ;
    X = malloc (sz * sizeof (double)) ;
    if (I == NULL || J == NULL || X == NULL)
    {
        FAIL (GrB_OUT_OF_MEMORY, "out of memory for %lld entries",
            (long long) nz) ;
    }
    int64_t got = 0, e = 0 ;
    while ((len = getline (&line, &cap, in.f)) >= 0)
    {
        lineno++ ;
        if (line [0] == '%' || blank (line)) continue ;
        if (got == nz)
        {
            FAIL (GrB_INVALID_VALUE, "more entries than the %lld the size"
                " line declares", (long long) nz) ;
        }
        char *s = line ;
        int64_t i, j ;
        double x = 1 ;
        if (!parse_index (&s, &i) || !parse_index (&s, &j))
        {
            FAIL (GrB_INVALID_VALUE, "bad entry: want 'row col%s'",
                pattern ? "" : " value") ;
        }
        if (!pattern && !parse_value (&s, &x, integer))
        {
            FAIL (GrB_INVALID_VALUE, "bad or missing %s value", field) ;
        }
        if (!blank (s))
        {
            FAIL (GrB_INVALID_VALUE, "extra text after the entry") ;
        }
        if (i < 1 || i > m || j < 1 || j > n)
        {
            FAIL (GrB_INDEX_OUT_OF_BOUNDS, "entry (%lld,%lld) outside the"
                " %lld x %lld matrix (indices are 1-based)", (long long) i,
                (long long) j, (long long) m, (long long) n) ;
        }
        if (sym == -1 && i == j)
        {
            FAIL (GrB_INVALID_VALUE, "diagonal entry in a skew-symmetric"
                " matrix") ;
        }
        I [e] = (GrB_Index) (i - 1) ; J [e] = (GrB_Index) (j - 1) ; X [e] = x ;
        e++ ;
        if (sym != 0 && i != j)
        {
            I [e] = (GrB_Index) (j - 1) ; J [e] = (GrB_Index) (i - 1) ;
            X [e] = (sym == 1) ? x : -x ;
            e++ ;
        }
        got++ ;
    }
    if (got < nz)
    {
        FAIL (GrB_INVALID_VALUE, "only %lld of the %lld entries the size line"
            " declares", (long long) got, (long long) nz) ;
    }
    free (line) ; line = NULL ;
    info = close_input (&in, path, true) ;
    if (info != GrB_SUCCESS) { FREE_ALL ; return info ; }

    //--------------------------------------------------------------------------
    // build; duplicates summed in double
    //--------------------------------------------------------------------------

    info = GrB_Matrix_new (A, type, (GrB_Index) m, (GrB_Index) n) ;
    if (info == GrB_SUCCESS)
    {
        info = GrB_Matrix_build_FP64 (*A, I, J, X, (GrB_Index) e,
            GrB_PLUS_FP64) ;
    }
    if (info == GrB_SUCCESS) info = GrB_Matrix_wait (*A, GrB_MATERIALIZE) ;
    if (info != GrB_SUCCESS)
    {
        GrB_Matrix_free (A) ;
        lineno = 0 ;
        FAIL (info, "GraphBLAS failed to build the matrix (GrB_Info %d)",
            (int) info) ;
    }
    FREE_ALL ;
    return GrB_SUCCESS ;
}

#undef FREE_ALL
#undef FAIL

//------------------------------------------------------------------------------
// GXD_mtx_write
//------------------------------------------------------------------------------

GrB_Info GXD_mtx_write (const GrB_Matrix A, const char *path,
    const char *comment)
{
    if (A == NULL || path == NULL)
    {
        return fail (GrB_NULL_POINTER, path, 0,
            "GXD_mtx_write: A and path must not be NULL") ;
    }
    GrB_Index m, n, nvals ;
    GrB_Type type ;
    GrB_Info info = GrB_Matrix_nrows (&m, A) ;
    if (info == GrB_SUCCESS) info = GrB_Matrix_ncols (&n, A) ;
    if (info == GrB_SUCCESS) info = GrB_Matrix_nvals (&nvals, A) ;
    if (info == GrB_SUCCESS) info = GxB_Matrix_type (&type, A) ;
    if (info != GrB_SUCCESS)
    {
        return fail (info, path, 0, "invalid matrix (GrB_Info %d)", (int) info) ;
    }
    bool isfloat = (type == GrB_FP32 || type == GrB_FP64) ;
    if (!isfloat && !builtin_type (type))
    {
        return fail (GrB_DOMAIN_MISMATCH, path, 0,
            "only built-in types can be written") ;
    }
    size_t sz = (size_t) (nvals > 0 ? nvals : 1) ;
    GrB_Index *I = malloc (sz * sizeof (GrB_Index)) ;
    GrB_Index *J = malloc (sz * sizeof (GrB_Index)) ;
    double *X = isfloat ? malloc (sz * sizeof (double)) : NULL ;
    int64_t *Y = isfloat ? NULL : malloc (sz * sizeof (int64_t)) ;
    if (I == NULL || J == NULL || (X == NULL && Y == NULL))
    {
        free (I) ; free (J) ; free (X) ; free (Y) ;
        return fail (GrB_OUT_OF_MEMORY, path, 0, "out of memory") ;
    }
    GrB_Index nv = nvals ;
    info = isfloat ? GrB_Matrix_extractTuples_FP64 (I, J, X, &nv, A)
                   : GrB_Matrix_extractTuples_INT64 (I, J, Y, &nv, A) ;
    if (info != GrB_SUCCESS)
    {
        free (I) ; free (J) ; free (X) ; free (Y) ;
        return fail (info, path, 0, "extractTuples failed (GrB_Info %d)",
            (int) info) ;
    }
    FILE *f = fopen (path, "w") ;
    if (f == NULL)
    {
        free (I) ; free (J) ; free (X) ; free (Y) ;
        return fail (GrB_INVALID_VALUE, path, 0, "cannot create: %s",
            strerror (errno)) ;
    }
    fprintf (f, "%%%%MatrixMarket matrix coordinate %s general\n",
        isfloat ? "real" : "integer") ;
    if (comment != NULL)
    {
        // one "% " line per line of the comment
        const char *s = comment ;
        while (*s)
        {
            const char *nl = strchr (s, '\n') ;
            int l = nl ? (int) (nl - s) : (int) strlen (s) ;
            fprintf (f, "%% %.*s\n", l, s) ;
            s += l + (nl ? 1 : 0) ;
        }
    }
    fprintf (f, "%llu %llu %llu\n", (unsigned long long) m,
        (unsigned long long) n, (unsigned long long) nv) ;
    const char *ffmt = (type == GrB_FP32) ? "%llu %llu %.9g\n"
                                          : "%llu %llu %.17g\n" ;
    for (GrB_Index q = 0 ; q < nv ; q++)
    {
        if (isfloat)
        {
            fprintf (f, ffmt, (unsigned long long) I [q] + 1,
                (unsigned long long) J [q] + 1, X [q]) ;
        }
        else
        {
            fprintf (f, "%llu %llu %lld\n", (unsigned long long) I [q] + 1,
                (unsigned long long) J [q] + 1, (long long) Y [q]) ;
        }
    }
    bool err = ferror (f) ;
    err = (fclose (f) != 0) || err ;
    free (I) ; free (J) ; free (X) ; free (Y) ;
    if (err) return fail (GrB_INVALID_VALUE, path, 0, "write error") ;
    return GrB_SUCCESS ;
}

//------------------------------------------------------------------------------
// GXD_labels_read / GXD_labels_free
//------------------------------------------------------------------------------

void GXD_labels_free (char ***lines, int64_t nlines)
{
    if (lines == NULL || *lines == NULL) return ;
    for (int64_t i = 0 ; i < nlines ; i++) free ((*lines) [i]) ;
    free (*lines) ;
    *lines = NULL ;
}

GrB_Info GXD_labels_read (char ***lines, int64_t *nlines, const char *path)
{
    if (lines == NULL || nlines == NULL || path == NULL)
    {
        return fail (GrB_NULL_POINTER, path, 0,
            "GXD_labels_read: lines, nlines and path must not be NULL") ;
    }
    *lines = NULL ;
    *nlines = 0 ;
    input in ;
    GrB_Info info = open_input (&in, path) ;
    if (info != GrB_SUCCESS) return info ;
    char **L = NULL ;
    int64_t nl = 0, lcap = 0 ;
    char *line = NULL ;
    size_t cap = 0 ;
    ssize_t len ;
    while ((len = getline (&line, &cap, in.f)) >= 0)
    {
        while (len > 0 && (line [len-1] == '\n' || line [len-1] == '\r'))
        {
            line [--len] = '\0' ;
        }
        if (nl == lcap)
        {
            lcap = (lcap == 0) ? 1024 : 2 * lcap ;
            char **L2 = realloc (L, (size_t) lcap * sizeof (char *)) ;
            if (L2 == NULL) goto oom ;
            L = L2 ;
        }
        L [nl] = strdup (line) ;
        if (L [nl] == NULL) goto oom ;
        nl++ ;
    }
    free (line) ;
    info = close_input (&in, path, true) ;
    if (info != GrB_SUCCESS)
    {
        GXD_labels_free (&L, nl) ;
        return info ;
    }
    *lines = L ;
    *nlines = nl ;
    return GrB_SUCCESS ;

oom:
    free (line) ;
    GXD_labels_free (&L, nl) ;
    close_input (&in, path, false) ;
    return fail (GrB_OUT_OF_MEMORY, path, 0, "out of memory") ;
}
