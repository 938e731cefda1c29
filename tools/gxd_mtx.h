//------------------------------------------------------------------------------
// tools/gxd_mtx.h: Matrix Market input/output for the demo and the benchmarks
//------------------------------------------------------------------------------

// Not part of the gxbdist API: a small reader/writer so that the demo and the
// benchmarks load the datasets of ../shared/datasets (and the bundled data/)
// the same way scipy.io.mmread does.  A file whose name ends in ".gz" is read
// through "gzip -dc" (no zlib dependency).
//
// Every function returns GrB_Info; on failure it prints one line to stderr
// ("gxd_mtx: <file>:<line>: <what>") and keeps it for GXD_mtx_message:
//   GrB_NULL_POINTER          a pointer argument is NULL
//   GrB_INVALID_VALUE         the file cannot be opened or read, or is not a
//                             valid Matrix Market coordinate file (bad
//                             header, bad size line, bad entry, too few or
//                             too many entries, gzip failed)
//   GrB_INDEX_OUT_OF_BOUNDS   an entry's row or column is outside 1..m, 1..n
//   GrB_NOT_IMPLEMENTED       a valid but unsupported file: array format,
//                             complex or hermitian field
//   GrB_DOMAIN_MISMATCH       type is not a built-in numeric type
//   GrB_OUT_OF_MEMORY         an allocation failed
// or any GrB_Info of the GraphBLAS call that failed.

#ifndef GXD_MTX_H
#define GXD_MTX_H

#include <GraphBLAS.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// Read a Matrix Market coordinate file (plain or .gz) into a new matrix *A
// of the given built-in type.  Fields integer, real (also "double") and
// pattern (every entry 1); symmetry general, symmetric (both triangles,
// the diagonal once) and skew-symmetric (the mirror negated).  Duplicate
// entries are summed (in double, then typecast to type).  *A is NULL on
// failure.
GrB_Info GXD_mtx_read (GrB_Matrix *A, GrB_Type type, const char *path) ;

// Write A as "%%MatrixMarket matrix coordinate <field> general", plain text
// (no compression), 1-based, row-major order.  The field is "integer" when
// A's type is an integer or boolean type, else "real" (%.17g, exact).
// comment (may be NULL) is written as "% comment" lines after the header.
GrB_Info GXD_mtx_write (const GrB_Matrix A, const char *path,
    const char *comment) ;

// Read every line of a text file (plain or .gz; e.g. fortunes.rows.txt.gz,
// where line i labels row i) into a new array of *nlines malloc'd strings
// without their newline.  Free with GXD_labels_free.
GrB_Info GXD_labels_read (char ***lines, int64_t *nlines, const char *path) ;

// Free what GXD_labels_read returned; sets *lines to NULL.
void GXD_labels_free (char ***lines, int64_t nlines) ;

// The message of the last failed call (of any thread), "" if none.
const char *GXD_mtx_message (void) ;

#ifdef __cplusplus
}
#endif
#endif
