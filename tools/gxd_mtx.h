// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// tools/gxd_mtx.h: Matrix Market input/output for the demo and the benchmarks
//------------------------------------------------------------------------------

// Not part of the gxbdist API: a small reader/writer so that the demo and the
// benchmarks load the datasets of ../shared/datasets (and the bundled data/)
// the same way scipy.io.mmread does.  A file whose name ends in ".gz" is read
// through "gzip -dc" (no zlib dependency).
//
// The files are untrusted input: nothing in them is trusted with memory (see
// gxd_mtx.c), and every way a file can be wrong has its GrB_Info.  Every
// function returns GrB_Info; on failure it prints one line to stderr
// ("gxd_mtx: <file>:<line>: <what>", or "gxd_mtx: <file>: <what>" when no
// line is at fault) and keeps it for GXD_mtx_message:
//   GrB_NULL_POINTER          a pointer argument is NULL
//   GrB_INVALID_VALUE         the file cannot be opened or read (a
//                             directory), gzip -dc failed (a corrupt or
//                             truncated .gz: reported before anything the
//                             missing data would cause), or the file is not a
//                             valid Matrix Market coordinate file: empty, no
//                             or a bad banner, unknown format/field/symmetry,
//                             pattern skew-symmetric, no size line or a bad
//                             one (not three non-negative integers, rows or
//                             columns past 2^60 = GrB_INDEX_MAX+1, the
//                             largest dimension GraphBLAS allows; symmetric
//                             but not square; more entries declared than the
//                             matrix has positions: m*n, m*(m+1)/2 symmetric,
//                             m*(m-1)/2 skew-symmetric), a bad entry (an
//                             index that is not an integer, a missing or bad
//                             value, an integer value outside int64, text
//                             after it, a skew-symmetric diagonal entry), too
//                             few or too many entries, a NUL byte (binary
//                             data) or a line longer than GXD_MTX_LINE_MAX
//   GrB_INDEX_OUT_OF_BOUNDS   an entry's row or column index is an integer
//                             outside 1..m, 1..n (0, negative, past 2^64)
//   GrB_NOT_IMPLEMENTED       a valid but unsupported file: array format,
//                             vector object, complex or hermitian field
//   GrB_DOMAIN_MISMATCH       type is not a built-in numeric type
//   GrB_OUT_OF_MEMORY         an allocation failed
// or any GrB_Info of the GraphBLAS call that failed.  The line is that of
// the fault: the size line for a size that cannot be, the entry for a bad
// entry, the last line for a file that ends too early.  tests/mtx_corpus
// holds one file for each case, and tests/test_mtx_reader.c their results.

#ifndef GXD_MTX_H
#define GXD_MTX_H

#include <GraphBLAS.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// the longest line the readers take, in bytes without the newline: a longer
// one is an error (binary data), so no line costs more memory than this
#define GXD_MTX_LINE_MAX (1 << 20)

// Read a Matrix Market coordinate file (plain or .gz) into a new matrix *A
// of the given built-in type.  Fields integer (int64 values), real (also
// "double") and pattern (every entry 1); symmetry general, symmetric (both
// triangles, the diagonal once) and skew-symmetric (the mirror negated).  An
// entry of a symmetric file may be in either triangle; it is mirrored.
// Duplicate entries are summed (in double, then typecast to type).  Real
// values are read as strtod reads them and, like scipy.io.mmread, NaN and
// Inf are values ("nan", "inf", "-Infinity"), a literal past DBL_MAX is
// +-Inf and one below the smallest subnormal is 0: they are data, not
// errors.  Comment lines start with '%'; blank lines are skipped; "\r\n"
// line ends are fine.  *A is NULL on failure.
GrB_Info GXD_mtx_read (GrB_Matrix *A, GrB_Type type, const char *path) ;

// Write A as "%%MatrixMarket matrix coordinate <field> general", plain text
// (no compression), 1-based, row-major order.  The field is "integer" when
// A's type is an integer or boolean type, else "real" (%.17g, exact).
// comment (may be NULL) is written as "% comment" lines after the header.
GrB_Info GXD_mtx_write (const GrB_Matrix A, const char *path,
    const char *comment) ;

// Read every line of a text file (plain or .gz; e.g. fortunes.rows.txt.gz,
// where line i labels row i) into a new array of *nlines malloc'd strings
// without their "\n" or "\r\n" (the last line needs no newline).  A file
// with no lines gives *lines NULL and *nlines 0.  A NUL byte or a line
// longer than GXD_MTX_LINE_MAX is GrB_INVALID_VALUE (not a text file), as is
// a failing gzip.  Free with GXD_labels_free.  On failure *lines is NULL.
GrB_Info GXD_labels_read (char ***lines, int64_t *nlines, const char *path) ;

// Free what GXD_labels_read returned; sets *lines to NULL.
void GXD_labels_free (char ***lines, int64_t nlines) ;

// The message of the last failed call (of any thread), "" if none.
const char *GXD_mtx_message (void) ;

#ifdef __cplusplus
}
#endif
#endif
