// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// tests/test_common.h: what every gxbdist test file shares
//------------------------------------------------------------------------------

// A seeded random generator (seed from GXBDIST_TEST_SEED, else the clock; it
// is printed at start and in every failure message), builders of random
// matrices of every shape class, storage format and type the spec names, a
// snapshot that proves an input came back bit for bit, a poison fill for C,
// and checks that compare a result with the reference (reference/oracle).
//
// Tolerances (docs/metrics.md): |got - ref| <= rtol * max (|ref|, S), rtol =
// 1e-5 for FP32 and 1e-12 for FP64, S = GXO_scale (DOT, KL_DIVERGENCE; else
// 0, a purely relative test).  COSINE and CORRELATION also get S >= 1: both
// are 1 - r with r rounded relative to itself (|r| <= 1), so 1 - r is only
// good to about rtol absolute, whatever computes it (docs/metrics.md's own
// error bound says "the similarity, of scale 1"); tiny results are checked
// for clamping separately (test_near_duplicates).  The reference must be
// full, and C must be full: no NaN, no infinity where the reference is
// finite, nothing negative except DOT and KL_DIVERGENCE.

#ifndef GXBDIST_TEST_COMMON_H
#define GXBDIST_TEST_COMMON_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "gxbdist.h"
#include "gxd_oracle.h"

//------------------------------------------------------------------------------
// running a file
//------------------------------------------------------------------------------

// main of every test file: GrB_init (GrB_NONBLOCKING), GxB_Distance_init,
// the cmocka group, GxB_Distance_finalize, GrB_finalize.  The backend is left
// as the environment says (GXBDIST_BACKEND), so the same suite runs on a GPU.
int gxt_main (const char *group, const struct CMUnitTest *tests, size_t ntests) ;
#define GXT_MAIN(group, tests) \
    int main (void) { return gxt_main (group, tests, sizeof (tests) / sizeof ((tests) [0])) ; }

// optional group fixtures run inside gxt_main (after GxB_Distance_init)
extern CMFixtureFunction gxt_setup, gxt_teardown ;

// memory functions for GxB_init and GxB_Distance_init_memory, set before
// gxt_main (all NULL: GrB_init and GxB_Distance_init)
typedef struct
{
    void * (*malloc_function) (size_t) ;
    void * (*calloc_function) (size_t, size_t) ;
    void * (*realloc_function) (void *, size_t) ;
    void (*free_function) (void *) ;
}
gxt_memory ;
extern gxt_memory gxt_memory_functions ;
// the state of verify mode found after GxB_Distance_init (before any test)
extern bool gxt_verify_at_init ;

//------------------------------------------------------------------------------
// seeded random numbers
//------------------------------------------------------------------------------

uint64_t gxt_base_seed (void) ;
// restart the stream for one test: base seed mixed with the test's name, so a
// failing test reruns alone with the same data (GXBDIST_TEST_SEED=<base>)
void gxt_reseed (const char *test_name) ;
uint64_t gxt_rand (void) ;
double gxt_uniform (void) ;                    // [0,1)
int64_t gxt_int (int64_t lo, int64_t hi) ;     // lo..hi inclusive
const char *gxt_test (void) ;                  // name given to gxt_reseed

#define GXT_START() gxt_reseed (__func__)

//------------------------------------------------------------------------------
// calling and failing
//------------------------------------------------------------------------------

// assert a call returns GrB_SUCCESS; on failure print the code, the call, the
// message of GxB_Distance_error and the seed
#define GXT_OK(call) gxt_ok ((call), #call, __FILE__, __LINE__)
void gxt_ok (GrB_Info info, const char *call, const char *file, int line) ;

// assert a call returns exactly `expected`, and that a non-success leaves a
// non-empty message in GxB_Distance_error
#define GXT_EXPECT(expected, call) \
    gxt_expect ((expected), (call), #call, __FILE__, __LINE__)
void gxt_expect (GrB_Info expected, GrB_Info info, const char *call,
    const char *file, int line) ;

// fail with a formatted message that also names the test and the seed
#define GXT_FAIL(...) gxt_fail (__FILE__, __LINE__, __VA_ARGS__)
void gxt_fail (const char *file, int line, const char *fmt, ...)
    __attribute__ ((format (printf, 3, 4))) ;

const char *gxt_info_name (GrB_Info info) ;

//------------------------------------------------------------------------------
// the metrics
//------------------------------------------------------------------------------

#define GXT_NONNEG   1      // domain x >= 0 (HELLINGER, JENSEN_SHANNON, KL)
#define GXT_SIGNED   2      // result may be negative (DOT, KL_DIVERGENCE)
#define GXT_UNIT     4      // 1 - r: absolute floor 1 on the scale
#define GXT_NOTZERO  8      // identical rows are not at 0 (DOT, RUSSELLRAO)

typedef struct
{
    const char *name ;          // as in GxB_DIST_<NAME>, and for the oracle
    GrB_Semiring *fp32 ;        // address of the predefined semiring (NULL:
    GrB_Semiring *fp64 ;        // MINKOWSKI, made with its p)
    int flags ;
    double p ;                  // MINKOWSKI only
    double empty ;              // d of two empty rows (the EMPTY column)
}
gxt_metric ;

// the predefined metrics in the order of GXD_METRICS (metrics/
// gxd_metric_list.h), then MINKOWSKI 1, 1.5, 3
extern const gxt_metric gxt_metrics [] ;
extern const int gxt_nmetrics ;
extern const int gxt_npredefined ;         // gxt_metrics [0 .. gxt_npredefined-1]
const gxt_metric *gxt_metric_named (const char *name) ;  // predefined only

// the semiring of metric mt for FP32 or FP64 (a Minkowski one is new: free
// it with gxt_semiring_free)
GrB_Semiring gxt_semiring (const gxt_metric *mt, GrB_Type type) ;
void gxt_semiring_free (const gxt_metric *mt, GrB_Semiring *s) ;

double gxt_rtol (GrB_Type type) ;    // 1e-5 FP32, 1e-12 FP64

//------------------------------------------------------------------------------
// random matrices
//------------------------------------------------------------------------------

typedef enum
{
    GXT_MIXED = 0,      // reals uniform in [-4,4], never 0
    GXT_NONNEG_VALUES,  // multiples of 1/8 in [1/8, 3]: exact in FP32, and no
                        // two different values closer than 1/8 (near-equal
                        // values are test_near_duplicates' business)
    GXT_INTEGERS,       // integers in [-5,5] without 0 (fit every signed type)
    GXT_NATURALS,       // integers in [1,9] (fit every type, BOOL aside)
}
gxt_values ;

typedef enum
{
    GXT_SHAPE_RANDOM = 0,   // m, n in 8..40, k in 3..60, density 0.1..0.6
    GXT_SHAPE_WIDE,         // k 150..300, density 1..4 %
    GXT_SHAPE_EMPTY_ROWS,   // ~30 % empty rows in A and B, row 0 of both empty
    GXT_SHAPE_DENSE_ROW,    // one dense row in A and one in B, the rest sparse
    GXT_SHAPE_POWERLAW,     // degrees 1 + Pareto(1.5), Zipf columns
    GXT_SHAPE_EXPLICIT_ZEROS, // ~25 % of the entries are stored zeros
    GXT_SHAPE_DENSE,        // every entry present
    GXT_SHAPE_K1,           // k = 1
    GXT_SHAPE_M0,           // m = 0
    GXT_SHAPE_N0,           // n = 0
    GXT_SHAPE_M1,           // m = 1
    GXT_SHAPE_N1,           // n = 1
    GXT_SHAPE_M1N1,         // m = n = 1
    GXT_SHAPE_TALL,         // m = 150, n = 3
    GXT_NSHAPES
}
gxt_shape ;

const char *gxt_shape_name (gxt_shape shape) ;

// A (m-by-k) and B (n-by-k), FP64, of the shape class, values of the kind;
// tuples are given to GrB_Matrix_build in shuffled order
void gxt_pair (GrB_Matrix *A, GrB_Matrix *B, gxt_shape shape, gxt_values v) ;

// one random m-by-k FP64 matrix: density in (0,1]; empty_frac of rows empty;
// powerlaw degrees if asked; zero_frac of entries stored as explicit zeros
typedef struct
{
    GrB_Index m, k ;
    double density ;
    double empty_frac ;
    bool powerlaw ;
    double zero_frac ;
    int dense_row ;         // index of a dense row, or -1
    gxt_values values ;
}
gxt_spec ;
void gxt_random (GrB_Matrix *A, const gxt_spec *spec) ;

// every nonzero value of A (FP64) replaced by next (arg), in the order of
// A's tuples; its stored zeros stay: a distribution of values of the
// test's own on gxt_random's patterns
void gxt_revalue (GrB_Matrix A, double (*next) (void *), void *arg) ;

// a value drawn from a pool (next for gxt_revalue): operands drawn from one
// pool meet equal values in common columns
typedef struct { const double *pool ; int npool ; } gxt_pool ;
double gxt_pool_value (void *pool) ;

// B = near-duplicates of A's rows: for n rows, row j copies A row (j mod m)
// and, unless it is one of the exact copies (every 4th), multiplies 1..3 of
// its entries by (1 + rel * u), u in +-[0.5, 1]
void gxt_near_duplicates (GrB_Matrix *B, GrB_Matrix A, GrB_Index n, double rel) ;

// a random mask (m-by-n, BOOL) of about `density` entries, a quarter of them
// stored false
void gxt_mask (GrB_Matrix *M, GrB_Index m, GrB_Index n, double density) ;

// the shape of the distances of A's rows to B's rows: nrows (A)-by-nrows (B).
// *C = a new matrix of type of that shape, with no entries; *M = a random
// mask of that shape (gxt_mask)
void gxt_new_result (GrB_Matrix *C, GrB_Type type, GrB_Matrix A, GrB_Matrix B) ;
void gxt_result_mask (GrB_Matrix *M, GrB_Matrix A, GrB_Matrix B, double density) ;

// r rows over k columns that cancel in the rewrite: each holds 2^60 in
// column 0 and, in about half the other columns, a multiple of 1/8 in
// [1, 2] (every partial sum over a union of two rows is exact in FP32, but
// a row sum with 2^60 loses the small entries: its ulp is 256)
void gxt_cancelling_rows (GrB_Matrix *X, GrB_Type type, GrB_Index r,
    GrB_Index k) ;

// a matrix from row-major values: 0 = no entry, GXT_EZ = a stored zero
#define GXT_EZ 1e300
void gxt_dense_rows (GrB_Matrix *A, GrB_Type type, GrB_Index m, GrB_Index k,
    const double *values) ;

//------------------------------------------------------------------------------
// storage formats and types
//------------------------------------------------------------------------------

typedef enum
{
    GXT_FMT_SPARSE = 0,     // sparse by row
    GXT_FMT_HYPER,          // hypersparse by row
    GXT_FMT_BITMAP,         // bitmap by row
    GXT_FMT_FULL,           // full: missing entries become stored zeros
    GXT_FMT_BYCOL,          // sparse by column
    GXT_FMT_HYPER_BYCOL,    // hypersparse by column
    GXT_FMT_ISO,            // same pattern, every value 1.5 (iso)
    GXT_FMT_JUMBLED,        // sparse, packed with unsorted rows (jumbled)
    GXT_FMT_PENDING,        // sparse with pending tuples and zombies
    GXT_NFORMATS
}
gxt_format ;

const char *gxt_format_name (gxt_format f) ;

// a new matrix with A's content (FULL: and stored zeros elsewhere; ISO: A's
// pattern, every value 1.5) held in format f, and of type `type` (values are
// typecast by GrB_apply); deterministic, so two calls give twins
void gxt_convert (GrB_Matrix *X, GrB_Matrix A, gxt_format f, GrB_Type type) ;

extern GrB_Type gxt_builtin_types [] ;   // BOOL, INT8..UINT64, FP32, FP64
extern const int gxt_nbuiltin_types ;
const char *gxt_type_name (GrB_Type type) ;

//------------------------------------------------------------------------------
// snapshot: an input comes back bit for bit
//------------------------------------------------------------------------------

typedef struct gxt_snapshot_struct *gxt_snapshot ;

// record A's type, dimensions, nvals, orientation, sparsity status, iso flag
// and every tuple (values bit for bit; also user-defined types)
gxt_snapshot gxt_snap (GrB_Matrix A) ;
// assert A still matches, then free the snapshot; `what` names A in messages
void gxt_snap_check (gxt_snapshot *s, GrB_Matrix A, const char *what) ;
void gxt_snapshot_free (gxt_snapshot *s) ;     // without a check

//------------------------------------------------------------------------------
// poison: C must be overwritten
//------------------------------------------------------------------------------

// make C full, every entry NaN (floating types) or 777 (integer; true: BOOL)
void gxt_poison (GrB_Matrix C) ;

//------------------------------------------------------------------------------
// checks against the reference
//------------------------------------------------------------------------------

// C (any FP type, m-by-n) holds d(A(i,:), B(j,:)) for every (i,j) within
// tolerance: full, no NaN, never negative unless the metric allows it, each
// entry within rtol * max (|ref|, S), and never 0 where ref is above the
// tolerance (no clamping).  `type` is the semiring's type (the reference casts
// A and B to it).  `context` is printed on failure.
void gxt_check_metric (GrB_Matrix C, const gxt_metric *mt, GrB_Type type,
    GrB_Matrix A, GrB_Matrix B, const char *context) ;

// the same with an explicit rtol and floor on S (test_near_duplicates)
void gxt_check_metric_tol (GrB_Matrix C, const gxt_metric *mt, GrB_Type type,
    GrB_Matrix A, GrB_Matrix B, double rtol, double floor,
    const char *context) ;

// got and ref have the same pattern (same nvals and the same (i,j)), and
// values within rtol * max (|ref|, scale) (rtol = 0: exactly equal, as
// doubles); no NaN in got unless ref has it there
void gxt_check_same (GrB_Matrix got, GrB_Matrix ref, double rtol,
    double scale, const char *context) ;

// the same, entry (i,j) within rtol * max (|ref|, S(i,j)) (0 where S has
// no entry): S the conditioning of each entry (a sum of magnitudes)
void gxt_check_scaled (GrB_Matrix got, GrB_Matrix ref, double rtol,
    GrB_Matrix S, const char *context) ;

// got and ref are identical bit for bit: type, dims, pattern, values
void gxt_check_bitwise (GrB_Matrix got, GrB_Matrix ref, const char *context) ;

// *s = a NAMM semiring of f (z, x, y all of type, no C definition: the
// pointer path), missing entries 0, under the monoid add; the caller frees
// *s, *namm and *op
void gxt_user_namm (GrB_BinaryOp *op, GxB_NAMM *namm, GrB_Semiring *s,
    GxB_binary_function f, GrB_Type type, GrB_Monoid add) ;

// a row's neighbors sorted in the library's order (smaller distance first,
// larger first when largest, NaN last, ties to the smaller column)
typedef struct { double d ; int64_t j ; } gxt_nb_entry ;
void gxt_nb_sort (gxt_nb_entry *row, int64_t nr, bool largest) ;

// *R = the k best of each row of the full distance matrix D among the
// candidates (Mask, complemented or not; j != i with exclude_self), by
// gxt_nb_sort; k = 0: the entries within
// eps (at least eps when largest)
void gxt_brute_neighbors (GrB_Matrix *R, GrB_Matrix D, GrB_Matrix Mask,
    bool structural, bool comp, bool exclude_self, uint64_t k, double eps,
    bool largest) ;

// value of C(i,j) as double (asserts the entry is present)
double gxt_get (GrB_Matrix C, GrB_Index i, GrB_Index j) ;

// a new m-by-n full matrix of `type` with the given row-major values
void gxt_full (GrB_Matrix *C, GrB_Type type, GrB_Index m, GrB_Index n,
    const double *values) ;

// *C = a new m-by-n matrix of ctype (m = nrows (A), n = nrows (B)), poisoned,
// then GxB_mxm_distance (*C, NULL, NULL, s, A, B, desc); returns its GrB_Info
// (*C is kept either way: free it)
GrB_Info gxt_distance (GrB_Matrix *C, GrB_Type ctype, GrB_Semiring s,
    GrB_Matrix A, GrB_Matrix B, GrB_Descriptor desc) ;

// the message of GxB_Distance_error ("" if none)
const char *gxt_message (void) ;

// a descriptor: structural / complemented mask, replace, transposes
GrB_Descriptor gxt_desc (bool structural, bool complement, bool replace,
    bool tran0, bool tran1) ;

#endif
