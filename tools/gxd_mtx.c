// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// tools/gxd_mtx.c: Matrix Market reader/writer and label reader
//------------------------------------------------------------------------------

// Used by demo/ and bench/ only (see gxd_mtx.h).  Compressed files are read
// through popen ("gzip -dc ...") so the project needs no zlib; gzip is on
// every Debian machine.  Entries are collected as (i, j, x) in double and
// given to GrB_Matrix_build with GrB_PLUS_FP64, which sums duplicates and
// typecasts to the requested type.
//
// The input is untrusted (issue 15, defect 7: a size line declaring 2^61
// entries made `nz * sizeof (GrB_Index)` wrap to 0, and the reader wrote past
// its buffer).  So no number from the file is trusted with memory: each size
// is checked against what GraphBLAS allows and the entry count against the
// positions the matrix has, without overflow; the arrays grow with the
// entries actually read; and a line is at most GXD_MTX_LINE_MAX bytes.
// tests/test_mtx_reader.c reads every file of tests/mtx_corpus under ASan.

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
#include <sys/wait.h>
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
// input: a plain file, or "gzip -dc" of a .gz file, read line by line
//------------------------------------------------------------------------------

typedef struct
{
    FILE *f ;
    bool pipe ;
    const char *path ;
    char *line ;        // the current line, '\0'-terminated, without its '\n'
    size_t cap ;        // bytes allocated for line
    int64_t lineno ;    // number of the current line (1-based; 0 before any)
}
input ;

static bool ends_with (const char *s, const char *suffix)
{
    size_t ls = strlen (s), lx = strlen (suffix) ;
    return ls >= lx && strcmp (s + ls - lx, suffix) == 0 ;
}

static GrB_Info open_input (input *in, const char *path)
{
    memset (in, 0, sizeof (input)) ;
    in->path = path ;
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

// close the input and free its line.  Closing a pipe before its end may
// kill gzip with SIGPIPE, so its status is only looked at in next_line, at
// the end of the data.
static void close_input (input *in)
{
    if (in->f != NULL)
    {
        if (in->pipe) pclose (in->f) ; else fclose (in->f) ;
        in->f = NULL ;
    }
    free (in->line) ;
    in->line = NULL ;
    in->cap = 0 ;
}

// Read the next line into in->line.  GrB_SUCCESS: a line; GrB_NO_VALUE: the
// end of the data, which gzip produced in full; else the failure, with its
// message.  A line with a NUL byte or longer than GXD_MTX_LINE_MAX is an
// error (binary data, or not a line-oriented text file): nothing from the
// file decides how much memory a line takes beyond that bound.
static GrB_Info read_line (input *in)
{
    if (in->f == NULL) return GrB_NO_VALUE ;   // a pipe already closed
    if (in->line == NULL)
    {
        in->line = malloc (256) ;
        if (in->line == NULL)
        {
            return fail (GrB_OUT_OF_MEMORY, in->path, in->lineno + 1,
                "out of memory") ;
        }
        in->cap = 256 ;
    }
    size_t n = 0 ;
    bool nul = false ;
    int c = EOF ;
    while ((c = getc_unlocked (in->f)) != EOF && c != '\n')
    {
        if (n == GXD_MTX_LINE_MAX)
        {
            return fail (GrB_INVALID_VALUE, in->path, in->lineno + 1,
                "line longer than %d bytes: binary data, not a text file",
                GXD_MTX_LINE_MAX) ;
        }
        if (n + 1 >= in->cap)
        {
            // n < GXD_MTX_LINE_MAX, so the new size cannot overflow
            size_t cap = 2 * in->cap ;
            char *line = realloc (in->line, cap) ;
            if (line == NULL)
            {
                return fail (GrB_OUT_OF_MEMORY, in->path, in->lineno + 1,
                    "out of memory") ;
            }
            in->line = line ;
            in->cap = cap ;
        }
        nul = nul || (c == '\0') ;
        in->line [n++] = (char) c ;
    }
    if (c == EOF)
    {
        // the end of the data: a reading error, or gzip failing, is the
        // cause of whatever comes next, so it is reported first
        if (ferror (in->f))
        {
            return fail (GrB_INVALID_VALUE, in->path, 0, "read error after"
                " line %lld: %s", (long long) in->lineno, strerror (errno)) ;
        }
        if (in->pipe)
        {
            int status = pclose (in->f) ;
            in->f = NULL ;
            if (status != 0)
            {
                return fail (GrB_INVALID_VALUE, in->path, 0, "gzip -dc failed"
                    " (exit status %d) after line %lld: not a valid .gz file",
                    WIFEXITED (status) ? WEXITSTATUS (status) : -1,
                    (long long) in->lineno) ;
            }
        }
        if (n == 0) return GrB_NO_VALUE ;
    }
    in->lineno++ ;
    if (nul)
    {
        return fail (GrB_INVALID_VALUE, in->path, in->lineno,
            "NUL byte in the line: not a text file") ;
    }
    in->line [n] = '\0' ;
    return GrB_SUCCESS ;
}

//------------------------------------------------------------------------------
// small parsing helpers
//------------------------------------------------------------------------------

static bool blank (const char *s)
{
    while (*s && isspace ((unsigned char) *s)) s++ ;
    return *s == '\0' ;
}

static char *skip_space (char *s)
{
    while (*s == ' ' || *s == '\t') s++ ;
    return s ;
}

static bool token_ends (const char *s)
{
    return *s == '\0' || isspace ((unsigned char) *s) ;
}

// the next line that is not a comment ('%' first) or blank
static GrB_Info next_data_line (input *in)
{
    GrB_Info info ;
    while ((info = read_line (in)) == GrB_SUCCESS)
    {
        if (in->line [0] != '%' && !blank (in->line)) break ;
    }
    return info ;
}

typedef enum { TOKEN_OK, TOKEN_BAD, TOKEN_NEGATIVE, TOKEN_HUGE } token ;

// a decimal integer token ("-" then digits is read as TOKEN_NEGATIVE, more
// than 64 bits as TOKEN_HUGE: both are numbers, just out of every range);
// advances *s past it
static token parse_uint (char **s, uint64_t *v)
{
    char *p = skip_space (*s) ;
    bool negative = (*p == '-') ;
    if (negative) p++ ;
    if (!isdigit ((unsigned char) *p)) return TOKEN_BAD ;
    uint64_t x = 0 ;
    bool huge = false ;
    for ( ; isdigit ((unsigned char) *p) ; p++)
    {
        uint64_t d = (uint64_t) (*p - '0') ;
        if (x > (UINT64_MAX - d) / 10) huge = true ;
        else x = 10 * x + d ;
    }
    if (!token_ends (p)) return TOKEN_BAD ;
    *s = p ;
    *v = x ;
    return negative ? TOKEN_NEGATIVE : (huge ? TOKEN_HUGE : TOKEN_OK) ;
}

// a value: an integer field takes int64 integers only; a real field takes
// what strtod takes, "nan" and "inf" included, and like scipy an overflowing
// literal is +-inf and an underflowing one its rounded value (so ERANGE is
// no error).  false if the token is missing or not a number of the field.
static bool parse_value (char **s, double *v, bool integer, bool *range)
{
    char *p = skip_space (*s), *end ;
    *range = false ;
    if (*p == '\0') return false ;
    double x ;
    errno = 0 ;
    if (integer)
    {
        long long y = strtoll (p, &end, 10) ;
        *range = (errno == ERANGE) ;
        x = (double) y ;
    }
    else
    {
        x = strtod (p, &end) ;
    }
    if (end == p || !token_ends (end) || *range) return false ;
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

// a * b, false if it does not fit in 64 bits
static bool mul (uint64_t a, uint64_t b, uint64_t *c)
{
    if (a != 0 && b > UINT64_MAX / a) return false ;
    *c = a * b ;
    return true ;
}

// the positions an m-by-n file may list: m*n (general), m*(m+1)/2
// (symmetric: one triangle and the diagonal), m*(m-1)/2 (skew-symmetric: no
// diagonal); false if the count does not fit in 64 bits (then any nz fits)
static bool positions (uint64_t m, uint64_t n, int sym, uint64_t *p)
{
    if (sym == 0) return mul (m, n, p) ;
    uint64_t other = (sym == 1) ? m + 1 : (m == 0 ? 0 : m - 1) ;
    // one of m and other is even: halve it first so nothing overflows early
    return (m % 2 == 0) ? mul (m / 2, other, p) : mul (m, other / 2, p) ;
}

//------------------------------------------------------------------------------
// entries: (I, J, X) grown as entries are read
//------------------------------------------------------------------------------

typedef struct
{
    GrB_Index *I, *J ;
    double *X ;
    size_t n, cap ;
}
tuples ;

// room for one more entry.  The capacity doubles; it starts at what the
// size line declares but at most 2^20 entries (24 MiB), so a file that only
// claims many entries gets no more memory than the entries it has.
static bool tuples_grow (tuples *t, uint64_t declared)
{
    if (t->n < t->cap) return true ;
    size_t cap ;
    if (t->cap == 0)
    {
        cap = (declared < (1 << 20)) ? (size_t) declared : (1 << 20) ;
        if (cap == 0) cap = 1 ;
    }
    else
    {
        if (t->cap > SIZE_MAX / (2 * sizeof (double))) return false ;
        cap = 2 * t->cap ;
    }
    // each array is kept as soon as it has grown: on failure t still holds
    // every array it owns, to be freed
    GrB_Index *I = realloc (t->I, cap * sizeof (GrB_Index)) ;
    if (I != NULL) t->I = I ;
    GrB_Index *J = realloc (t->J, cap * sizeof (GrB_Index)) ;
    if (J != NULL) t->J = J ;
    double *X = realloc (t->X, cap * sizeof (double)) ;
    if (X != NULL) t->X = X ;
    if (I == NULL || J == NULL || X == NULL) return false ;
    t->cap = cap ;
    return true ;
}

static bool tuples_push (tuples *t, GrB_Index i, GrB_Index j, double x,
    uint64_t declared)
{
    if (!tuples_grow (t, declared)) return false ;
    t->I [t->n] = i ; t->J [t->n] = j ; t->X [t->n] = x ;
    t->n++ ;
    return true ;
}

//------------------------------------------------------------------------------
// GXD_mtx_read
//------------------------------------------------------------------------------

#undef  FREE_ALL
#define FREE_ALL                                \
{                                               \
    free (t.I) ; free (t.J) ; free (t.X) ;      \
    close_input (&in) ;                         \
}

// fail at the current line
#undef  FAIL
#define FAIL(info, ...)                         \
{                                               \
    GrB_Info fail_info = fail (info, path, in.lineno, __VA_ARGS__) ; \
    FREE_ALL ;                                  \
    return fail_info ;                          \
}

// read_line has said what failed
#undef  TRY
#define TRY(call)                               \
{                                               \
    GrB_Info try_info = (call) ;                \
    if (try_info != GrB_SUCCESS && try_info != GrB_NO_VALUE) \
    {                                           \
        FREE_ALL ;                              \
        return try_info ;                       \
    }                                           \
}

// the largest dimension GraphBLAS allows
#define DIM_MAX (GrB_INDEX_MAX + 1)

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

    input in ;
    tuples t = { NULL, NULL, NULL, 0, 0 } ;
    GrB_Info info = open_input (&in, path) ;
    if (info != GrB_SUCCESS) { FREE_ALL ; return info ; }

    //--------------------------------------------------------------------------
    // header: %%MatrixMarket matrix coordinate <field> <symmetry>
    //--------------------------------------------------------------------------

    info = read_line (&in) ;
    TRY (info) ;
    if (info == GrB_NO_VALUE) FAIL (GrB_INVALID_VALUE, "empty file") ;
    char banner [64] = "", object [64] = "", format [64] = "",
        field [64] = "", symmetry [64] = "" ;
    int ntok = sscanf (in.line, "%63s %63s %63s %63s %63s", banner, object,
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
    // size line, after comments and blank lines: m, n, nz checked
    //--------------------------------------------------------------------------

    info = next_data_line (&in) ;
    TRY (info) ;
    if (info == GrB_NO_VALUE) FAIL (GrB_INVALID_VALUE, "no size line") ;
    uint64_t size [3] = { 0, 0, 0 } ;
    const char *names [3] = { "rows", "columns", "entries" } ;
    char *s = in.line ;
    for (int k = 0 ; k < 3 ; k++)
    {
        token tk = parse_uint (&s, &size [k]) ;
        if (tk == TOKEN_BAD)
        {
            FAIL (GrB_INVALID_VALUE, "bad size line (want: rows columns"
                " entries)") ;
        }
        if (tk == TOKEN_NEGATIVE)
        {
            FAIL (GrB_INVALID_VALUE, "bad size line: negative number of %s",
                names [k]) ;
        }
        if (k == 2 && tk == TOKEN_HUGE)
        {
            FAIL (GrB_INVALID_VALUE, "bad size line: number of entries past"
                " 2^64") ;
        }
        if (tk == TOKEN_HUGE || (k < 2 && size [k] > DIM_MAX))
        {
            FAIL (GrB_INVALID_VALUE, "bad size line: number of %s too large"
                " (GraphBLAS allows at most 2^60)", names [k]) ;
        }
    }
    if (!blank (s))
    {
        FAIL (GrB_INVALID_VALUE, "bad size line: text after rows columns"
            " entries") ;
    }
    uint64_t m = size [0], n = size [1], nz = size [2] ;
    if (sym != 0 && m != n)
    {
        FAIL (GrB_INVALID_VALUE, "%s matrix is not square (%llu x %llu)",
            symmetry, (unsigned long long) m, (unsigned long long) n) ;
    }
    // a file lists each position at most once (duplicates are summed, but
    // cannot make a file longer than the matrix has room for)
    uint64_t npos ;
    if (positions (m, n, sym, &npos) && nz > npos)
    {
        FAIL (GrB_INVALID_VALUE, "the size line declares %llu entries, more"
            " than the %llu positions of a %llu x %llu %s matrix can hold",
            (unsigned long long) nz, (unsigned long long) npos,
            (unsigned long long) m, (unsigned long long) n, symmetry) ;
    }
    int64_t size_line = in.lineno ;

    //--------------------------------------------------------------------------
    // entries
    //--------------------------------------------------------------------------

    // what the entries would take, capped: only a first capacity
    uint64_t declared = (sym != 0 && nz <= UINT64_MAX / 2) ? 2 * nz : nz ;
    uint64_t got = 0 ;
    while (true)
    {
        info = next_data_line (&in) ;
        TRY (info) ;
        if (info == GrB_NO_VALUE) break ;
        if (got == nz)
        {
            FAIL (GrB_INVALID_VALUE, "more entries than the %llu the size"
                " line (line %lld) declares", (unsigned long long) nz,
                (long long) size_line) ;
        }
        s = in.line ;
        uint64_t ij [2] ;
        for (int k = 0 ; k < 2 ; k++)
        {
            token tk = parse_uint (&s, &ij [k]) ;
            if (tk == TOKEN_BAD)
            {
                FAIL (GrB_INVALID_VALUE, "bad entry: want 'row column%s'",
                    pattern ? "" : " value") ;
            }
            uint64_t lim = (k == 0) ? m : n ;
            if (tk != TOKEN_OK || ij [k] < 1 || ij [k] > lim)
            {
                char what [32] = "past 2^64" ;
                if (tk != TOKEN_HUGE)
                {
                    snprintf (what, sizeof (what), "%s%llu",
                        tk == TOKEN_NEGATIVE ? "-" : "",
                        (unsigned long long) ij [k]) ;
                }
                FAIL (GrB_INDEX_OUT_OF_BOUNDS, "%s index %s is outside"
                    " 1..%llu of the %llu x %llu matrix (indices are"
                    " 1-based)", k == 0 ? "row" : "column", what,
                    (unsigned long long) lim, (unsigned long long) m,
                    (unsigned long long) n) ;
            }
        }
        double x = 1 ;
        bool range = false ;
        if (!pattern && !parse_value (&s, &x, integer, &range))
        {
            FAIL (GrB_INVALID_VALUE, range ? "integer value out of the range"
                " of int64" : "bad or missing %s value", field) ;
        }
        if (!blank (s)) FAIL (GrB_INVALID_VALUE, "extra text after the entry") ;
        GrB_Index i = ij [0] - 1, j = ij [1] - 1 ;
        if (sym == -1 && i == j)
        {
            FAIL (GrB_INVALID_VALUE, "diagonal entry in a skew-symmetric"
                " matrix") ;
        }
        bool ok = tuples_push (&t, i, j, x, declared) ;
        if (ok && sym != 0 && i != j)
        {
            ok = tuples_push (&t, j, i, (sym == 1) ? x : -x, declared) ;
        }
        if (!ok) FAIL (GrB_OUT_OF_MEMORY, "out of memory") ;
        got++ ;
    }
    if (got < nz)
    {
        FAIL (GrB_INVALID_VALUE, "only %llu of the %llu entries the size line"
            " (line %lld) declares: the file ends here", (unsigned long long)
            got, (unsigned long long) nz, (long long) size_line) ;
    }
    close_input (&in) ;

    //--------------------------------------------------------------------------
    // build; duplicates summed in double
    //--------------------------------------------------------------------------

    // GraphBLAS wants arrays even for no entries
    if (!tuples_grow (&t, 1)) FAIL (GrB_OUT_OF_MEMORY, "out of memory") ;
    info = GrB_Matrix_new (A, type, m, n) ;
    if (info == GrB_SUCCESS)
    {
        info = GrB_Matrix_build_FP64 (*A, t.I, t.J, t.X, t.n, GrB_PLUS_FP64) ;
    }
    if (info == GrB_SUCCESS) info = GrB_Matrix_wait (*A, GrB_MATERIALIZE) ;
    if (info != GrB_SUCCESS)
    {
        GrB_Matrix_free (A) ;
        in.lineno = 0 ;
        FAIL (info, "GraphBLAS failed to build the matrix (GrB_Info %d)",
            (int) info) ;
    }
    FREE_ALL ;
    return GrB_SUCCESS ;
}

#undef FREE_ALL
#undef FAIL
#undef TRY

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

#undef  FREE_ALL
#define FREE_ALL                                \
{                                               \
    GXD_labels_free (&L, nl) ;                  \
    close_input (&in) ;                         \
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
    char **L = NULL ;
    int64_t nl = 0, lcap = 0 ;
    input in ;
    GrB_Info info = open_input (&in, path) ;
    if (info != GrB_SUCCESS) { FREE_ALL ; return info ; }
    bool oom = false ;
    while ((info = read_line (&in)) == GrB_SUCCESS)
    {
        // lines of any ending: "\n" is gone, a "\r" before it goes too
        size_t len = strlen (in.line) ;
        if (len > 0 && in.line [len-1] == '\r') in.line [len-1] = '\0' ;
        if (nl == lcap)
        {
            // lines are at least one byte each, so lcap is bounded by the
            // input; the check only keeps the product honest
            if (lcap > (int64_t) (SIZE_MAX / (2 * sizeof (char *))))
            {
                oom = true ;
                break ;
            }
            int64_t cap = (lcap == 0) ? 1024 : 2 * lcap ;
            char **L2 = realloc (L, (size_t) cap * sizeof (char *)) ;
            if (L2 == NULL) { oom = true ; break ; }
            L = L2 ;
            lcap = cap ;
        }
        L [nl] = strdup (in.line) ;
        if (L [nl] == NULL) { oom = true ; break ; }
        nl++ ;
    }
    if (oom) info = fail (GrB_OUT_OF_MEMORY, path, in.lineno, "out of memory") ;
    if (info != GrB_NO_VALUE) { FREE_ALL ; return info ; }
    close_input (&in) ;
    *lines = L ;
    *nlines = nl ;
    return GrB_SUCCESS ;
}

#undef FREE_ALL
