// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// tests/test_mtx_reader.c: the Matrix Market and label readers on bad input
//------------------------------------------------------------------------------

// tools/gxd_mtx.c reads files nobody checked (issue 15, defect 7: a size line
// of 2^61 entries wrapped `nz * sizeof (GrB_Index)` to 0 and the reader wrote
// past its buffer).  Every file of tests/mtx_corpus (GXD_MTX_CORPUS, from
// CMake) is read here and gets exactly the GrB_Info of the table below, a
// message naming the file and the line at fault (or no line, where none is),
// and *A NULL on failure; a valid file gets its exact dimensions, number of
// entries and values.  Every file of the corpus is in the table and the
// other way round, so a new case cannot be left unchecked.  The sanitizer
// build (scripts/test.sh, build-asan) runs this file under ASan and UBSan.

#include "test_common.h"
#include "gxd_mtx.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef GXD_MTX_CORPUS
#error "GXD_MTX_CORPUS (the corpus directory) must be defined by CMake"
#endif

//------------------------------------------------------------------------------
// the corpus and what each file must give
//------------------------------------------------------------------------------

#define ANY_LINE (-1)       // the message must name the file, any line or none

typedef struct { GrB_Index i, j ; double x ; } entry ;

typedef struct
{
    const char *file ;
    GrB_Info info ;
    int64_t line ;          // line the message names; 0: none; ANY_LINE
    const char *says ;      // words the message must contain (failures)
    GrB_Index nrows, ncols, nvals ;     // valid files
    int nx ;
    entry x [5] ;           // some of the values of a valid file
}
mtx_case ;

#define BAD(file, info, line, says) \
    { file, info, line, says, 0, 0, 0, 0, { { 0, 0, 0 } } }

#define TWO60 ((GrB_Index) 1 << 60)

static const mtx_case mtx_cases [] =
{
    // sizes that cannot be: the overflow of defect 7 and its kin, all at the
    // size line (line 2), before anything is allocated
    BAD ("nz_overflow_2pow61.mtx",        GrB_INVALID_VALUE, 2, "more than the 9 positions"),
    BAD ("nz_overflow_2pow61p1.mtx",      GrB_INVALID_VALUE, 2, "more than the 9 positions"),
    BAD ("symmetric_nz_2pow60.mtx",       GrB_INVALID_VALUE, 2, "more than the 6 positions"),
    BAD ("symmetric_nz_2pow62p1.mtx",     GrB_INVALID_VALUE, 2, "more than the 6 positions"),
    BAD ("nz_exceeds_m_times_n.mtx",      GrB_INVALID_VALUE, 2, "more than the 4 positions"),
    BAD ("symmetric_nz_exceeds_triangle.mtx", GrB_INVALID_VALUE, 2, "more than the 3 positions"),
    BAD ("skew_nz_exceeds_triangle.mtx",  GrB_INVALID_VALUE, 2, "more than the 3 positions"),
    BAD ("nz_nonzero_in_0xn_matrix.mtx",  GrB_INVALID_VALUE, 2, "more than the 0 positions"),
    BAD ("nz_past_uint64.mtx",            GrB_INVALID_VALUE, 2, "number of entries past 2^64"),
    BAD ("size_m_past_index_max.mtx",     GrB_INVALID_VALUE, 2, "number of rows too large"),
    BAD ("size_n_past_index_max.mtx",     GrB_INVALID_VALUE, 2, "number of columns too large"),
    BAD ("size_negative.mtx",             GrB_INVALID_VALUE, 2, "negative number of rows"),
    BAD ("size_missing_entries_count.mtx", GrB_INVALID_VALUE, 2, "bad size line"),
    BAD ("size_extra_field.mtx",          GrB_INVALID_VALUE, 2, "text after"),
    BAD ("size_not_a_number.mtx",         GrB_INVALID_VALUE, 2, "bad size line"),
    BAD ("symmetric_not_square.mtx",      GrB_INVALID_VALUE, 2, "not square"),
    BAD ("size_line_missing.mtx",         GrB_INVALID_VALUE, 4, "no size line"),
    // no file, or not a Matrix Market coordinate file
    BAD ("empty_file.mtx",                GrB_INVALID_VALUE, 0, "empty file"),
    BAD ("comments_only.mtx",             GrB_INVALID_VALUE, 1, "not a Matrix Market file"),
    BAD ("wrong_banner.mtx",              GrB_INVALID_VALUE, 1, "not a Matrix Market file"),
    BAD ("banner_after_comment.mtx",      GrB_INVALID_VALUE, 1, "not a Matrix Market file"),
    BAD ("banner_incomplete.mtx",         GrB_INVALID_VALUE, 1, "incomplete"),
    BAD ("binary_garbage.mtx",            GrB_INVALID_VALUE, 1, "NUL byte"),
    BAD ("unknown_format.mtx",            GrB_INVALID_VALUE, 1, "unknown format 'diagonal'"),
    BAD ("unknown_field.mtx",             GrB_INVALID_VALUE, 1, "unknown field 'quaternion'"),
    BAD ("unknown_symmetry.mtx",          GrB_INVALID_VALUE, 1, "unknown symmetry 'diagonal'"),
    BAD ("pattern_skew_symmetric.mtx",    GrB_INVALID_VALUE, 1, "cannot be skew-symmetric"),
    // valid Matrix Market, not supported
    BAD ("array_format.mtx",              GrB_NOT_IMPLEMENTED, 1, "array (dense) format"),
    BAD ("vector_object.mtx",             GrB_NOT_IMPLEMENTED, 1, "object 'vector'"),
    BAD ("complex_field.mtx",             GrB_NOT_IMPLEMENTED, 1, "complex field"),
    BAD ("hermitian_symmetry.mtx",        GrB_NOT_IMPLEMENTED, 1, "hermitian"),
    // the entries
    BAD ("truncated_entries.mtx",         GrB_INVALID_VALUE, 5, "only 2 of the 4 entries the size line (line 3)"),
    BAD ("truncated_claims_10pow12.mtx",  GrB_INVALID_VALUE, 4, "only 2 of the 1000000000000 entries"),
    BAD ("truncated_mid_entry.mtx",       GrB_INVALID_VALUE, 5, "bad or missing real value"),
    BAD ("too_many_entries.mtx",          GrB_INVALID_VALUE, 6, "more entries than the 2"),
    BAD ("nul_byte_in_entry.mtx",         GrB_INVALID_VALUE, 4, "NUL byte"),
    BAD ("index_zero.mtx",                GrB_INDEX_OUT_OF_BOUNDS, 4, "row index 0 is outside 1..3"),
    BAD ("index_negative.mtx",            GrB_INDEX_OUT_OF_BOUNDS, 4, "column index -1 is outside 1..3"),
    BAD ("index_past_m.mtx",              GrB_INDEX_OUT_OF_BOUNDS, 4, "row index 4 is outside 1..3"),
    BAD ("index_past_n.mtx",              GrB_INDEX_OUT_OF_BOUNDS, 4, "column index 5 is outside 1..4"),
    BAD ("index_past_uint64.mtx",         GrB_INDEX_OUT_OF_BOUNDS, 3, "row index past 2^64"),
    BAD ("index_not_integer.mtx",         GrB_INVALID_VALUE, 3, "bad entry"),
    BAD ("value_missing.mtx",             GrB_INVALID_VALUE, 4, "bad or missing real value"),
    BAD ("value_not_a_number.mtx",        GrB_INVALID_VALUE, 3, "bad or missing real value"),
    BAD ("integer_value_fraction.mtx",    GrB_INVALID_VALUE, 4, "bad or missing integer value"),
    BAD ("integer_value_past_int64.mtx",  GrB_INVALID_VALUE, 3, "out of the range of int64"),
    BAD ("integer_value_nan.mtx",         GrB_INVALID_VALUE, 3, "bad or missing integer value"),
    BAD ("pattern_with_value.mtx",        GrB_INVALID_VALUE, 4, "extra text"),
    BAD ("extra_text_after_entry.mtx",    GrB_INVALID_VALUE, 3, "extra text"),
    BAD ("skew_diagonal_entry.mtx",       GrB_INVALID_VALUE, 4, "diagonal entry"),
    // .gz: a line past the limit, and gzip failing (reported before the
    // missing data makes the file look short, so at no line)
    BAD ("line_past_1mib.mtx.gz",         GrB_INVALID_VALUE, 3, "longer than 1048576 bytes"),
    BAD ("corrupt_not_gzip.mtx.gz",       GrB_INVALID_VALUE, 0, "gzip -dc failed"),
    BAD ("corrupt_crc.mtx.gz",            GrB_INVALID_VALUE, 0, "gzip -dc failed"),
    BAD ("corrupt_truncated_trailer.mtx.gz", GrB_INVALID_VALUE, 0, "gzip -dc failed"),
    BAD ("corrupt_truncated_stream.mtx.gz",  GrB_INVALID_VALUE, 0, "gzip -dc failed"),

    // valid files: dimensions, entries, some values
    { "valid_0_entries.mtx", GrB_SUCCESS, 0, NULL, 3, 4, 0, 0, { { 0 } } },
    { "valid_0x0.mtx", GrB_SUCCESS, 0, NULL, 0, 0, 0, 0, { { 0 } } },
    { "valid_1x1.mtx", GrB_SUCCESS, 0, NULL, 1, 1, 1, 1, { { 0, 0, -2.5 } } },
    { "valid_pattern.mtx", GrB_SUCCESS, 0, NULL, 3, 4, 3, 3,
        { { 0, 0, 1 }, { 1, 3, 1 }, { 2, 1, 1 } } },
    { "valid_pattern_symmetric.mtx", GrB_SUCCESS, 0, NULL, 3, 3, 3, 3,
        { { 0, 0, 1 }, { 2, 0, 1 }, { 0, 2, 1 } } },
    { "valid_symmetric.mtx", GrB_SUCCESS, 0, NULL, 3, 3, 5, 4,
        { { 0, 0, 1 }, { 1, 0, 2 }, { 0, 1, 2 }, { 1, 2, 3 } } },
    { "valid_symmetric_full_triangle.mtx", GrB_SUCCESS, 0, NULL, 2, 2, 4, 4,
        { { 0, 0, 1 }, { 1, 0, 2 }, { 0, 1, 2 }, { 1, 1, 3 } } },
    { "valid_skew_symmetric.mtx", GrB_SUCCESS, 0, NULL, 3, 3, 4, 4,
        { { 1, 0, 4 }, { 0, 1, -4 }, { 2, 0, -1 }, { 0, 2, 1 } } },
    { "valid_integer.mtx", GrB_SUCCESS, 0, NULL, 2, 3, 3, 3,
        { { 0, 0, -7 }, { 1, 2, 9007199254740992.0 }, { 0, 2, 0 } } },
    { "valid_duplicates_summed.mtx", GrB_SUCCESS, 0, NULL, 2, 2, 2, 2,
        { { 0, 0, 3.5 }, { 1, 1, 1 } } },
    { "valid_nan_inf.mtx", GrB_SUCCESS, 0, NULL, 2, 3, 5, 5,
        { { 0, 0, NAN }, { 0, 1, INFINITY }, { 0, 2, -INFINITY },
          { 1, 0, INFINITY }, { 1, 1, 0 } } },
    { "valid_comments_crlf.mtx", GrB_SUCCESS, 0, NULL, 2, 2, 2, 2,
        { { 0, 1, 3.25 }, { 1, 0, -4 } } },
    { "valid_no_final_newline.mtx", GrB_SUCCESS, 0, NULL, 2, 2, 1, 1,
        { { 1, 1, 6 } } },
    { "valid_dimension_2pow60.mtx", GrB_SUCCESS, 0, NULL, TWO60, 1, 1, 1,
        { { TWO60 - 1, 0, 7 } } },
    { "valid.mtx.gz", GrB_SUCCESS, 0, NULL, 3, 3, 2, 2,
        { { 0, 2, 0.5 }, { 2, 0, 0.25 } } },
} ;

#define NMTX ((int) (sizeof (mtx_cases) / sizeof (mtx_cases [0])))

typedef struct
{
    const char *file ;
    GrB_Info info ;
    int64_t line ;
    const char *says ;
    int64_t nlines ;
    const char *first, *last ;
}
labels_case ;

static const labels_case labels_cases [] =
{
    { "labels_valid.txt", GrB_SUCCESS, 0, NULL, 4, "first label",
        "last without newline" },
    { "labels_valid.txt.gz", GrB_SUCCESS, 0, NULL, 3, "a", "c" },
    { "labels_empty.txt", GrB_SUCCESS, 0, NULL, 0, NULL, NULL },
    { "labels_nul_byte.txt", GrB_INVALID_VALUE, 2, "NUL byte", 0, 0, 0 },
    { "labels_line_past_1mib.txt.gz", GrB_INVALID_VALUE, 2,
        "longer than 1048576 bytes", 0, 0, 0 },
    { "labels_corrupt.txt.gz", GrB_INVALID_VALUE, 0, "gzip -dc failed", 0,
        0, 0 },
} ;

#define NLABELS ((int) (sizeof (labels_cases) / sizeof (labels_cases [0])))

//------------------------------------------------------------------------------
// checking
//------------------------------------------------------------------------------

// every check made, and the ones that failed (all are reported, then the
// test fails once)
static int nchecks = 0, nfailed = 0 ;

#define CHECK(cond, ...)                                                    \
{                                                                           \
    nchecks++ ;                                                             \
    if (!(cond))                                                            \
    {                                                                       \
        nfailed++ ;                                                         \
        printf ("[  FAILED  ] %s:%d: ", __FILE__, __LINE__) ;               \
        printf (__VA_ARGS__) ;                                              \
        printf ("\n") ;                                                     \
    }                                                                       \
}

static void path_of (char *path, size_t size, const char *file)
{
    snprintf (path, size, "%s/%s", GXD_MTX_CORPUS, file) ;
}

// the message names the file, then ":<line>: " or (line 0) ": ", and says
// what it must
static void check_message (const char *file, const char *path, int64_t line,
    const char *says)
{
    const char *msg = GXD_mtx_message ( ) ;
    char where [1200] ;
    if (line > 0) snprintf (where, sizeof (where), "%s:%lld: ", path, (long long) line) ;
    else if (line == 0) snprintf (where, sizeof (where), "%s: ", path) ;
    else snprintf (where, sizeof (where), "%s:", path) ;
    CHECK (strstr (msg, where) != NULL, "%s: message '%s' does not name '%s'",
        file, msg, where) ;
    if (says != NULL)
    {
        CHECK (strstr (msg, says) != NULL, "%s: message '%s' does not say '%s'",
            file, msg, says) ;
    }
}

static bool same_value (double got, double want)
{
    return (isnan (want) && isnan (got)) || got == want ;
}

static void check_end (void)
{
    printf ("[ CHECKS   ] %d checks, %d failed\n", nchecks, nfailed) ;
    int failed = nfailed ;
    nchecks = nfailed = 0 ;
    assert_int_equal (failed, 0) ;
}

//------------------------------------------------------------------------------
// tests
//------------------------------------------------------------------------------

static bool in_tables (const char *name)
{
    for (int k = 0 ; k < NMTX ; k++)
    {
        if (strcmp (mtx_cases [k].file, name) == 0) return true ;
    }
    for (int k = 0 ; k < NLABELS ; k++)
    {
        if (strcmp (labels_cases [k].file, name) == 0) return true ;
    }
    return false ;
}

static void every_corpus_file_has_an_expected_result (void **state)
{
    DIR *d = opendir (GXD_MTX_CORPUS) ;
    assert_non_null (d) ;
    int nfiles = 0 ;
    struct dirent *e ;
    while ((e = readdir (d)) != NULL)
    {
        if (e->d_name [0] == '.' || strcmp (e->d_name, "README.md") == 0)
        {
            continue ;
        }
        nfiles++ ;
        CHECK (in_tables (e->d_name), "corpus file %s is not in the table",
            e->d_name) ;
    }
    closedir (d) ;
    for (int k = 0 ; k < NMTX + NLABELS ; k++)
    {
        const char *f = (k < NMTX) ? mtx_cases [k].file
            : labels_cases [k - NMTX].file ;
        char path [1024] ;
        path_of (path, sizeof (path), f) ;
        struct stat st ;
        CHECK (stat (path, &st) == 0 && S_ISREG (st.st_mode),
            "table names %s, not in the corpus", f) ;
    }
    printf ("[ CORPUS   ] %d files: %d Matrix Market, %d labels\n", nfiles,
        NMTX, NLABELS) ;
    CHECK (nfiles == NMTX + NLABELS, "%d files, %d in the table", nfiles,
        NMTX + NLABELS) ;
    check_end ( ) ;
}

static void malformed_files_fail_with_their_exact_info_line_and_a_null_matrix
(
    void **state
)
{
    for (int k = 0 ; k < NMTX ; k++)
    {
        const mtx_case *c = &mtx_cases [k] ;
        if (c->info == GrB_SUCCESS) continue ;
        char path [1024] ;
        path_of (path, sizeof (path), c->file) ;
        // a matrix that is not NULL, to see the reader set it to NULL
        GrB_Matrix A = NULL ;
        GrB_Matrix_new (&A, GrB_FP64, 1, 1) ;
        GrB_Matrix keep = A ;
        GrB_Info info = GXD_mtx_read (&A, GrB_FP64, path) ;
        CHECK (info == c->info, "%s: %s, want %s", c->file,
            gxt_info_name (info), gxt_info_name (c->info)) ;
        CHECK (A == NULL, "%s: *A is not NULL on failure", c->file) ;
        if (A != NULL && A != keep) GrB_Matrix_free (&A) ;
        GrB_Matrix_free (&keep) ;
        check_message (c->file, path, c->line, c->says) ;
    }
    check_end ( ) ;
}

static void valid_files_give_their_exact_dimensions_and_values (void **state)
{
    for (int k = 0 ; k < NMTX ; k++)
    {
        const mtx_case *c = &mtx_cases [k] ;
        if (c->info != GrB_SUCCESS) continue ;
        char path [1024] ;
        path_of (path, sizeof (path), c->file) ;
        GrB_Matrix A = NULL ;
        GrB_Info info = GXD_mtx_read (&A, GrB_FP64, path) ;
        CHECK (info == GrB_SUCCESS && A != NULL, "%s: %s (%s)", c->file,
            gxt_info_name (info), GXD_mtx_message ( )) ;
        if (A == NULL) continue ;
        GrB_Index m = 0, n = 0, nvals = 0 ;
        GrB_Matrix_nrows (&m, A) ;
        GrB_Matrix_ncols (&n, A) ;
        GrB_Matrix_nvals (&nvals, A) ;
        CHECK (m == c->nrows && n == c->ncols && nvals == c->nvals,
            "%s: %llu x %llu with %llu entries, want %llu x %llu with %llu",
            c->file, (unsigned long long) m, (unsigned long long) n,
            (unsigned long long) nvals, (unsigned long long) c->nrows,
            (unsigned long long) c->ncols, (unsigned long long) c->nvals) ;
        for (int q = 0 ; q < c->nx ; q++)
        {
            double x = 0 ;
            info = GrB_Matrix_extractElement_FP64 (&x, A, c->x [q].i,
                c->x [q].j) ;
            CHECK (info == GrB_SUCCESS && same_value (x, c->x [q].x),
                "%s: A(%llu,%llu) = %g (%s), want %g", c->file,
                (unsigned long long) c->x [q].i,
                (unsigned long long) c->x [q].j, x, gxt_info_name (info),
                c->x [q].x) ;
        }
        GrB_Matrix_free (&A) ;
    }
    check_end ( ) ;
}

static void label_files_give_their_lines_or_their_exact_info (void **state)
{
    for (int k = 0 ; k < NLABELS ; k++)
    {
        const labels_case *c = &labels_cases [k] ;
        char path [1024] ;
        path_of (path, sizeof (path), c->file) ;
        char **L = (char **) path ;     // not NULL, to see it set
        int64_t nl = -1 ;
        GrB_Info info = GXD_labels_read (&L, &nl, path) ;
        CHECK (info == c->info, "%s: %s, want %s", c->file,
            gxt_info_name (info), gxt_info_name (c->info)) ;
        if (info != GrB_SUCCESS)
        {
            CHECK (L == NULL && nl == 0, "%s: lines not NULL on failure",
                c->file) ;
            check_message (c->file, path, c->line, c->says) ;
            continue ;
        }
        CHECK (nl == c->nlines, "%s: %lld lines, want %lld", c->file,
            (long long) nl, (long long) c->nlines) ;
        if (c->nlines == 0)
        {
            CHECK (L == NULL, "%s: no lines but lines not NULL", c->file) ;
        }
        else if (nl == c->nlines)
        {
            CHECK (strcmp (L [0], c->first) == 0 && strcmp (L [nl-1],
                c->last) == 0, "%s: first '%s', last '%s'", c->file, L [0],
                L [nl-1]) ;
        }
        GXD_labels_free (&L, nl) ;
        CHECK (L == NULL, "%s: GXD_labels_free leaves lines", c->file) ;
    }
    check_end ( ) ;
}

static void null_arguments_are_null_pointer_and_user_types_domain_mismatch
(
    void **state
)
{
    char path [1024] ;
    path_of (path, sizeof (path), "valid_1x1.mtx") ;
    GrB_Matrix A = NULL ;
    char **L = NULL ;
    int64_t nl = 0 ;
    CHECK (GXD_mtx_read (NULL, GrB_FP64, path) == GrB_NULL_POINTER, "A NULL") ;
    CHECK (GXD_mtx_read (&A, NULL, path) == GrB_NULL_POINTER, "type NULL") ;
    CHECK (GXD_mtx_read (&A, GrB_FP64, NULL) == GrB_NULL_POINTER, "path NULL") ;
    CHECK (GXD_labels_read (NULL, &nl, path) == GrB_NULL_POINTER, "lines") ;
    CHECK (GXD_labels_read (&L, NULL, path) == GrB_NULL_POINTER, "nlines") ;
    CHECK (GXD_labels_read (&L, &nl, NULL) == GrB_NULL_POINTER, "path") ;
    CHECK (GXD_mtx_write (NULL, "/dev/null", NULL) == GrB_NULL_POINTER, "w A") ;
    GrB_Type user = NULL ;
    assert_int_equal (GrB_Type_new (&user, 3), GrB_SUCCESS) ;
    CHECK (GXD_mtx_read (&A, user, path) == GrB_DOMAIN_MISMATCH && A == NULL,
        "user type") ;
    GrB_Type_free (&user) ;
    check_end ( ) ;
}

static void a_missing_file_or_a_directory_is_invalid_value (void **state)
{
    char path [1024] ;
    path_of (path, sizeof (path), "no_such_file.mtx") ;
    GrB_Matrix A = NULL ;
    CHECK (GXD_mtx_read (&A, GrB_FP64, path) == GrB_INVALID_VALUE && A == NULL,
        "missing file") ;
    check_message ("no_such_file.mtx", path, 0, "cannot open") ;
    path_of (path, sizeof (path), "no_such_file.mtx.gz") ;
    CHECK (GXD_mtx_read (&A, GrB_FP64, path) == GrB_INVALID_VALUE && A == NULL,
        "missing .gz") ;
    check_message ("no_such_file.mtx.gz", path, 0, "cannot open") ;
    CHECK (GXD_mtx_read (&A, GrB_FP64, GXD_MTX_CORPUS) == GrB_INVALID_VALUE
        && A == NULL, "a directory") ;
    check_message ("the corpus directory", GXD_MTX_CORPUS, 0, "read error") ;
    char **L = NULL ;
    int64_t nl = 0 ;
    CHECK (GXD_labels_read (&L, &nl, GXD_MTX_CORPUS) == GrB_INVALID_VALUE
        && L == NULL, "labels of a directory") ;
    check_end ( ) ;
}

// a scratch directory of this process, removed with its files
static char scratch [256] ;

static void scratch_file (char *path, size_t size, const char *name)
{
    if (scratch [0] == '\0')
    {
        snprintf (scratch, sizeof (scratch), "/tmp/gxd_mtx_test_XXXXXX") ;
        assert_non_null (mkdtemp (scratch)) ;
    }
    snprintf (path, size, "%s/%s", scratch, name) ;
}

static void copy_file (const char *from, const char *to)
{
    FILE *f = fopen (from, "rb"), *g = fopen (to, "wb") ;
    assert_true (f != NULL && g != NULL) ;
    char buf [4096] ;
    size_t n ;
    while ((n = fread (buf, 1, sizeof (buf), f)) > 0) fwrite (buf, 1, n, g) ;
    fclose (f) ;
    assert_int_equal (fclose (g), 0) ;
}

static void a_quote_in_a_gz_path_is_quoted_for_the_shell (void **state)
{
    char from [1024], path [1024] ;
    path_of (from, sizeof (from), "valid.mtx.gz") ;
    scratch_file (path, sizeof (path), "it's $(false) \"q\".mtx.gz") ;
    copy_file (from, path) ;
    GrB_Matrix A = NULL ;
    GrB_Info info = GXD_mtx_read (&A, GrB_FP64, path) ;
    CHECK (info == GrB_SUCCESS, "%s: %s", path, GXD_mtx_message ( )) ;
    GrB_Index nvals = 0 ;
    if (A != NULL) GrB_Matrix_nvals (&nvals, A) ;
    CHECK (nvals == 2, "%llu entries", (unsigned long long) nvals) ;
    GrB_Matrix_free (&A) ;
    unlink (path) ;
    check_end ( ) ;
}

static void every_builtin_type_reads_an_integer_file (void **state)
{
    char path [1024] ;
    path_of (path, sizeof (path), "valid_integer.mtx") ;
    for (int t = 0 ; t < gxt_nbuiltin_types ; t++)
    {
        GrB_Type type = gxt_builtin_types [t], got = NULL ;
        GrB_Matrix A = NULL ;
        GrB_Info info = GXD_mtx_read (&A, type, path) ;
        CHECK (info == GrB_SUCCESS, "%s: %s", gxt_type_name (type),
            gxt_info_name (info)) ;
        if (A == NULL) continue ;
        GxB_Matrix_type (&got, A) ;
        GrB_Index nvals = 0 ;
        GrB_Matrix_nvals (&nvals, A) ;
        CHECK (got == type && nvals == 3, "%s: type or entries",
            gxt_type_name (type)) ;
        GrB_Matrix_free (&A) ;
    }
    // INT64 keeps 2^53 exactly (it went through a double, which holds it)
    GrB_Matrix A = NULL ;
    CHECK (GXD_mtx_read (&A, GrB_INT64, path) == GrB_SUCCESS, "INT64") ;
    int64_t x = 0 ;
    if (A != NULL) GrB_Matrix_extractElement_INT64 (&x, A, 1, 2) ;
    CHECK (x == ((int64_t) 1 << 53), "A(1,2) = %lld", (long long) x) ;
    GrB_Matrix_free (&A) ;
    check_end ( ) ;
}

static void written_matrices_read_back_bit_for_bit (void **state)
{
    GXT_START ( ) ;
    GrB_Type types [3] = { GrB_FP64, GrB_FP32, GrB_INT64 } ;
    for (int t = 0 ; t < 3 ; t++)
    {
        gxt_spec s = { 0 } ;
        s.m = (GrB_Index) gxt_int (1, 40) ;
        s.k = (GrB_Index) gxt_int (1, 40) ;
        s.density = 0.3 ;
        s.dense_row = -1 ;
        s.values = (types [t] == GrB_INT64) ? GXT_INTEGERS : GXT_MIXED ;
        GrB_Matrix A0 = NULL, A = NULL, B = NULL ;
        gxt_random (&A0, &s) ;
        gxt_convert (&A, A0, GXT_FMT_SPARSE, types [t]) ;
        char path [1024] ;
        scratch_file (path, sizeof (path), "roundtrip.mtx") ;
        CHECK (GXD_mtx_write (A, path, "written by test_mtx_reader\nsecond"
            " line") == GrB_SUCCESS, "write: %s", GXD_mtx_message ( )) ;
        CHECK (GXD_mtx_read (&B, types [t], path) == GrB_SUCCESS, "read: %s",
            GXD_mtx_message ( )) ;
        if (B != NULL) gxt_check_bitwise (B, A, gxt_type_name (types [t])) ;
        GrB_Matrix_free (&A0) ;
        GrB_Matrix_free (&A) ;
        GrB_Matrix_free (&B) ;
        unlink (path) ;
    }
    check_end ( ) ;
}

static int remove_scratch (void **state)
{
    if (scratch [0] != '\0') rmdir (scratch) ;
    return 0 ;
}

int main (void)
{
    const struct CMUnitTest tests [] =
    {
        cmocka_unit_test (every_corpus_file_has_an_expected_result),
        cmocka_unit_test (malformed_files_fail_with_their_exact_info_line_and_a_null_matrix),
        cmocka_unit_test (valid_files_give_their_exact_dimensions_and_values),
        cmocka_unit_test (label_files_give_their_lines_or_their_exact_info),
        cmocka_unit_test (null_arguments_are_null_pointer_and_user_types_domain_mismatch),
        cmocka_unit_test (a_missing_file_or_a_directory_is_invalid_value),
        cmocka_unit_test (a_quote_in_a_gz_path_is_quoted_for_the_shell),
        cmocka_unit_test (every_builtin_type_reads_an_integer_file),
        cmocka_unit_test (written_matrices_read_back_bit_for_bit),
    } ;
    gxt_teardown = remove_scratch ;
    return gxt_main ("mtx_reader", tests, sizeof (tests) / sizeof (tests [0])) ;
}
