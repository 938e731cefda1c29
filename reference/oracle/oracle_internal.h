// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// reference/oracle/oracle_internal.h: what the oracle's files share
//------------------------------------------------------------------------------

// The error idiom (TRY / CHECK running the function's FREE_ALL, as
// SuiteSparse's GB_OK / GB_FREE_ALL), the dense-array helpers, the oracle's
// own binary operators and the tiled dense-completion engine.  Included by
// reference/oracle/*.c only.

#ifndef ORACLE_INTERNAL_H
#define ORACLE_INTERNAL_H

#include "gxd_oracle.h"
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

//------------------------------------------------------------------------------
// errors: every function defines FREE_ALL, then uses TRY and CHECK
//------------------------------------------------------------------------------

#define TRY(call)                                                           \
    do                                                                      \
    {                                                                       \
        GrB_Info try_info_ = (call) ;                                       \
        if (try_info_ < GrB_SUCCESS)                                        \
        {                                                                   \
            FREE_ALL ;                                                      \
            return (try_info_) ;                                            \
        }                                                                   \
    } while (0)

#define CHECK(ok, info)                                                     \
    do                                                                      \
    {                                                                       \
        if (!(ok))                                                          \
        {                                                                   \
            FREE_ALL ;                                                      \
            return (info) ;                                                 \
        }                                                                   \
    } while (0)

//------------------------------------------------------------------------------
// metrics by name
//------------------------------------------------------------------------------

typedef enum
{
    GXO_EUCLIDEAN, GXO_SQEUCLIDEAN, GXO_COSINE, GXO_CORRELATION, GXO_DICE,
    GXO_DOT, GXO_HELLINGER, GXO_JACCARD, GXO_RUSSELLRAO, GXO_KL_DIVERGENCE,
    GXO_CANBERRA, GXO_CHEBYSHEV, GXO_HAMMING, GXO_JENSEN_SHANNON,
    GXO_MANHATTAN, GXO_BRAYCURTIS, GXO_SOKALMICHENER, GXO_MINKOWSKI
}
gxo_metric ;

// *id = the metric called name; GrB_INVALID_VALUE if there is none
GrB_Info GXO_metric_id (gxo_metric *id, const char *name) ;

// The metrics' PLUS sums are rewritten (GXO_union_plus) where the
// conditioning S of a pair is at most GXO_METRIC_TAU times the sum, and
// computed by dense completion elsewhere.  A sum of n terms rewritten so is
// off by at most about 2 n eps S <= 32 n eps |sum| (eps = 2^-53; its terms'
// magnitudes add up to at most 2 S: oracle_sum.c), 3.6e-15 n
// relative: within the 1e-12 of verify mode's FP64 tolerance for rows of up
// to some 280 entries even in the worst case of every rounding adding up
// (typically sqrt(n) eps S).  Smaller costs more exact pairs: every pair
// whose common columns hold most of both rows' magnitude.
#define GXO_METRIC_TAU 16

//------------------------------------------------------------------------------
// matrices and dense arrays (oracle_util.c)
//------------------------------------------------------------------------------

// C = A typecast to type (GraphBLAS's rules), then to FP64
GrB_Info GXO_cast (GrB_Matrix *C, GrB_Type type, GrB_Matrix A) ;

// the operands of GXO_metric and GXO_scale: A and B non-NULL, with as many
// columns, type GrB_FP32 or GrB_FP64; *Ad, *Bd = A, B cast to type, then FP64
// (Ad or Bd NULL: the checks alone)
GrB_Info GXO_operands (GrB_Matrix *Ad, GrB_Matrix *Bd, GrB_Type type,
    GrB_Matrix A, GrB_Matrix B) ;

// TIMES, FIRST and SECOND of a built-in real type (BOOL included); each
// output may be NULL.  false for any other type.
bool GXO_type_ops (GrB_BinaryOp *times, GrB_BinaryOp *first,
    GrB_BinaryOp *second, GrB_Type type) ;

// visit (args [b], i, j, M(i,j)) for every entry of M, by row iterators:
// the rows split into nblocks even blocks, taken by threads at once, each
// block's rows in order by an iterator of its own (visit must be safe for
// distinct args, or for one shared arg when it writes only its own (i,j)).
// Where M is FP64 or FP32 and held by row: true; else false, and nothing
// visited.  The fast way through an m-by-n result.
// (GXO_visit_rows is static inline: a caller's own static visit, named in
// the call, is inlined into its loop, a few nanoseconds an entry less than
// a call through a pointer)
// rows [i0, i1) of M in order, by an iterator of its own (M is only read:
// its pending work was finished first, so threads may share it); false if
// the iterator cannot be made or attached
static inline bool GXO_visit_rows (GrB_Matrix M, bool fp64, GrB_Index i0,
    GrB_Index i1, void (*visit) (void *, GrB_Index, GrB_Index, double),
    void *arg)
{
    GxB_Iterator it = NULL ;
    if (GxB_Iterator_new (&it) != GrB_SUCCESS) return (false) ;
    if (GxB_rowIterator_attach (it, M, NULL) != GrB_SUCCESS)
    {
        GrB_free (&it) ;
        return (false) ;
    }
    GrB_Info info = GxB_rowIterator_seekRow (it, i0) ;
    while (info != GxB_EXHAUSTED)
    {
        GrB_Index i = GxB_rowIterator_getRowIndex (it) ;
        if (i >= i1) break ;
        while (info == GrB_SUCCESS)
        {
            GrB_Index j = GxB_rowIterator_getColIndex (it) ;
            visit (arg, i, j, fp64 ? GxB_Iterator_get_FP64 (it)
                                   : (double) GxB_Iterator_get_FP32 (it)) ;
            info = GxB_rowIterator_nextCol (it) ;
        }
        info = GxB_rowIterator_nextRow (it) ;
    }
    GrB_free (&it) ;
    return (true) ;
}

// The pairs of a block of rows that one of the oracle's tests marks, to
// be done again another way: *I, *J (new, rows of the block), *np, in row
// order, of the mb-by-n row-major arrays x (and y) (oracle_util.c)
typedef enum
{
    GXO_FLAG_DISTRUSTED,    // a rewritten sum x whose row terms a_i + b_j
                            // exceed c |x| (c = tau - 1), or not finite
                            // (oracle_sum.c)
    GXO_FLAG_NORM,          // a plain sum of squares x that may have
                            // overflowed or lost digits to underflow: not
                            // in [2^-900, DBL_MAX] (0 too)
    GXO_FLAG_OVERFLOW,      // a plain sum x that overflowed, where every
                            // term is 0 or at least 2^-900 (nothing lost
                            // to underflow: oracle_metric.c, no_tiny)
    GXO_FLAG_RATIO,         // a numerator x or denominator y that
                            // overflowed (BRAYCURTIS)
    GXO_FLAG_NAN            // a value x not known yet: NaN (CORRELATION)
}
gxo_flag ;

GrB_Info GXO_flagged (GrB_Index **I, GrB_Index **J, GrB_Index *np,
    gxo_flag flag, const double *x, const double *y, const double *a,
    const double *b, double c, GrB_Index mb, GrB_Index n) ;

// Can M be iterated by GXO_visit_rows (FP64 or FP32, held by row)?  Its
// pending work is finished; *fp64, *nrows: its type and rows.
bool GXO_iterable (GrB_Matrix M, bool *fp64, GrB_Index *nrows) ;

bool GXO_iterate (GrB_Matrix M, int nblocks,
    void (*visit) (void *, GrB_Index, GrB_Index, double), void **args) ;

// blocks for GXO_iterate: a few per thread, so uneven rows even out
int GXO_iterate_blocks (void) ;

// The values of a full FP64 matrix the oracle holds, in place: GXO_full_open
// unpacks them (no copy: the array stays GraphBLAS's), x [i*n+j] = M(i,j),
// or x [0] for every entry where the matrix is iso; GXO_full_close packs
// them back, M as it was (GrB_NO_VALUE, nothing done: M is not full FP64).
// Passes over an m-by-n reference then cost one
// read of it, where a copy would cost a fresh m*n array and its page faults.
typedef struct
{
    GrB_Matrix M ;
    double *x ;
    GrB_Index size ;        // bytes
    bool iso ;
}
gxo_full ;

GrB_Info GXO_full_open (gxo_full *F, GrB_Matrix M) ;
GrB_Info GXO_full_close (gxo_full *F) ;

// *C = a new nrows-by-ncols full FP64 matrix held by row, every entry 0,
// its values one per entry (not iso, but for a single entry: GraphBLAS
// accumulates into an iso matrix by a product of its own and an assign,
// not in place), and GXO_full_zero (C): every value of such a matrix 0 again
GrB_Info GXO_full_new (GrB_Matrix *C, GrB_Index nrows, GrB_Index ncols) ;
GrB_Info GXO_full_zero (GrB_Matrix C) ;

// C (full FP64) with a value per entry again where GraphBLAS made it iso
// (an assign of an iso matrix over all of it), the same values
GrB_Info GXO_full_expand (GrB_Matrix C) ;

// C (full FP64, values one per entry) = M (full, any real type), in place
GrB_Info GXO_full_copy (GrB_Matrix C, GrB_Matrix M) ;

// *r (new, nrows doubles) = the row sums of F (0 for an empty row)
GrB_Info GXO_row_sums (double **r, GrB_Matrix F) ;

// F = the values of C (full FP64, held by row, a value per entry: x
// [i*ncols+j] = C(i,j)), open as GXO_full_open (a single entry may be
// iso); *nrows, *ncols its dimensions.  Another C: GrB_INVALID_VALUE.
GrB_Info GXO_full_values (gxo_full *F, GrB_Index *nrows, GrB_Index *ncols,
    GrB_Matrix C) ;

// *S = op applied to M, a new FP64 matrix
GrB_Info GXO_applied (GrB_Matrix *S, GrB_UnaryOp op, GrB_Matrix M) ;

// *X = a new row-major array of M's values as double, missing entries 0
GrB_Info GXO_to_dense (double **X, GrB_Matrix M) ;

// *M = a new full FP64 nrows-by-ncols matrix holding the row-major array X
GrB_Info GXO_from_dense (GrB_Matrix *M, GrB_Index nrows, GrB_Index ncols,
    const double *X) ;

// *X = dense (A (+).(x) B') for a semiring: an intersection product, where
// a pair with no common column gets 0
GrB_Info GXO_product (double **X, GrB_Semiring semiring, GrB_Matrix A,
    GrB_Matrix B) ;

// *z = f (x, y) (a new scalar of f's output type, x taken as xtype, as a
// matrix of xtype holding it would be) and *z64 = its value as double
GrB_Info GXO_apply_scalars (GrB_Scalar *z, double *z64, GrB_BinaryOp f,
    GrB_Type xtype, GrB_Scalar x, GrB_Scalar y) ;

// every entry of D (of type, add's type) = the identity of add, which is
// what a reduction over k = 0 columns gives (oracle_union.c)
GrB_Info GXO_fill_identity (GrB_Matrix D, GrB_Monoid add, GrB_Type type) ;

// GXO_union_rows' result for add a built-in MAX or MIN, by three products
// for every row at once (oracle_union_idem.c): *done, or false (*D NULL)
// where add is another monoid or a pair may hold every column
GrB_Info GXO_union_idem (GrB_Matrix *D, bool *done, GrB_Monoid add,
    GrB_BinaryOp mult, double identity, GrB_Matrix A, GrB_Matrix B) ;

//------------------------------------------------------------------------------
// the oracle's binary operators, FP64 x FP64 -> FP64 (oracle_ops.c)
//------------------------------------------------------------------------------

typedef enum
{
    GXO_OP_SQDIFF,      // (x-y)^2
    GXO_OP_ABSDIFF,     // |x-y|
    GXO_OP_ABSSUM,      // |x+y|
    GXO_OP_HALFABSDIFF, // |x/2 - y/2|
    GXO_OP_HALFABSSUM,  // |x/2 + y/2|
    GXO_OP_CANBERRA,    // |x-y| / (|x|+|y|), 0/0 = 0
    GXO_OP_POWDIFF,     // |x-y|^p, p as held (GXO_power_hold)
    GXO_OP_NE,          // x != y
    GXO_OP_HELLROOT,    // |sqrt x - sqrt y|
    GXO_OP_HELLSQ,      // its square
    GXO_OP_JSROOT,      // sqrt (x ln(x/m) + y ln(y/m)), m = (x+y)/2, 0 ln 0 = 0
    GXO_OP_JSSQ,        // its square
    GXO_OP_KL,          // x ln(x/y) if x > 0 and y > 0, else 0
    GXO_OP_ABSKL        // |x ln(x/y)| likewise
}
gxo_opcode ;

GrB_Info GXO_op_new (GrB_BinaryOp *op, gxo_opcode code) ;

// GXO_OP_POWDIFF's p, for every call of the operator until the release
// (which the holder must call; others holding it wait)
void GXO_power_hold (double p) ;
void GXO_power_release (void) ;

// The correction of a common column, g(x,y) = f(x,y) - f(x,0) - f(0,y),
// for the f of code (one whose terms are >= 0 and f(0,0) = 0: SQDIFF
// ABSDIFF ABSSUM CANBERRA NE HELLSQ JSSQ; others GrB_INVALID_VALUE), summed
// over the common columns by GXO_union_plus_terms.  Where algebra gives g
// exactly in GraphBLAS's own arithmetic, as products of parts of the rows
// (SQDIFF: -2xy; ABSDIFF: -2 min(|x|,|y|) where x, y have one sign, else 0;
// ABSSUM: the same where their signs differ; HELLSQ: -2 sqrt(x) sqrt(y)),
// the sum is those built-in products (term), which GraphBLAS runs as
// compiled kernels.  NE: -1 - [x == y] where x and y are both nonzero, else
// 0, two built-in counts (equal: true, GXO_common_ne).  Else (nterms 0) it
// is T1 - P: one product with f itself, and P = F_A PLUS.PLUS F_B' built in
// (f evaluated once a common column, not three times as g would be).
typedef enum
{
    GXO_PART_ALL,           // every entry
    GXO_PART_POS,           // the entries > 0
    GXO_PART_NEG,           // |x| of the entries < 0
    GXO_PART_SQRT           // sqrt(x) of every entry (x >= 0)
}
gxo_part ;

typedef struct
{
    GrB_Semiring semiring ;     // built-in FP64
    gxo_part a, b ;             // parts of A and of B,
    double ascale, bscale ;     // times these
}
gxo_corr_term ;

// when every partial sum of the rewrite is exact, so that no pair can have
// cancelled: NE's sums are counts; ABSDIFF's, ABSSUM's and SQDIFF's terms
// are integers where the values are (|x| <= 2^26: x^2 is exact), and their
// partial sums are at most 4 (ra_i + rb_j) in magnitude (GXO_sum_new)
typedef enum { GXO_EXACT_NEVER, GXO_EXACT_INTEGERS, GXO_EXACT_ALWAYS }
gxo_exact ;

typedef struct
{
    int nterms ;                // the sum of these products, or 0: T1 - P
    gxo_corr_term term [2] ;
    bool equal ;                // NE's counts instead (nterms 0)
    gxo_exact exact ;
}
gxo_corr ;

GrB_Info GXO_corr_new (gxo_corr *corr, gxo_opcode code) ;

// *R = rows i0 .. i0 + nrows - 1 of M, a new matrix of M's type
GrB_Info GXO_rows_of (GrB_Matrix *R, GrB_Matrix M, GrB_Index i0,
    GrB_Index nrows) ;

// A product prepared once for every row of A and computed a block of rows
// at a time (oracle_sum.c): C (the block of rows i0 .., full FP64) += L
// (those rows, :) (+).(x) R.  L is m-by-K (K columns of A's, or of B's
// (column, value) pairs), R K-by-n; both NULL where there is no product (A
// has no entry).
//
// GXO_prod_new divides it by L's columns: a column that many of L's rows
// share (below; its rows meet nearly every row of R under it: the common
// words of text) goes to Lh, held as a bitmap, with its rows of
// R in Rh, held sparse, so that GraphBLAS adds their products straight into
// C's own array (saxpy4, one pass over a bitmap row for each entry of Rh).
// The other columns stay in L and R: a sparse product there builds a result
// of its own before it is added, but a small one.  (The whole of 1,600 rows
// of fortunes against themselves as one sparse product: 30-39 ms of writing
// a nearly dense result; split, 14 + 1.5 ms, 2 cores.)
typedef struct
{
    GrB_Semiring semiring ;     // not owned (built in, or a gxo_sum's)
    GrB_Matrix L, R ;           // the light columns (or NULL)
    GrB_Matrix Lh, Rh ;         // the heavy ones (or NULL)
}
gxo_prod ;

// a column of L is heavy where at least 1/GXO_HEAVY_DIV of L's rows have
// it, and at least GXO_HEAVY_MIN of them (where L has few rows, a column of
// a few entries costs less in a sparse product than in the bitmap)
#define GXO_HEAVY_DIV 128
#define GXO_HEAVY_MIN 4

// MANHATTAN's and BRAYCURTIS's terms s min (a, b) by the levels of the
// values where they take at most GXO_LEVELS_MAX, which are multiples of
// one power of two, and make at most GXO_LEVELS_GROWTH times the entries,
// in a product of GXO_LEVELS_FLOPS flops at least (oracle_sum.c).  (200
// rows of fortunes against themselves, 80,000 flops: setting the levels up
// cost more than the product's fmax; 400 rows, 323,000 flops: the product
// 1.0 -> 0.35 ms, 2 cores.)
#define GXO_LEVELS_MAX 64
#define GXO_LEVELS_GROWTH 2
#define GXO_LEVELS_FLOPS 262144

// p = A (+).(x) B' (A m-by-K, B n-by-K, both FP64) over the columns where
// A has entries, divided into heavy and light columns (new matrices, made
// from the tuples of A and B: the cost of extracting columns or of a
// transpose grows with K, 15,639 on fortunes, where 100 of its rows hold
// 2,100 entries); GXO_prod_right: p = L (+).(x) R, R K-by-n, its rows
// extracted as they are
GrB_Info GXO_prod_new (gxo_prod *p, GrB_Semiring semiring, GrB_Matrix A,
    GrB_Matrix B) ;
GrB_Info GXO_prod_right (gxo_prod *p, GrB_Semiring semiring, GrB_Matrix L,
    GrB_Matrix R) ;

// the same product for a semiring of the oracle's own operator ((+) must be
// PLUS) by the classes of A's and B's values where there are few
// (oracle_sum.c), else GXO_prod_new.  A built-in semiring takes
// GXO_prod_new: its product runs as one of GraphBLAS's compiled kernels,
// which with many threads outruns the preparation of the classes
GrB_Info GXO_prod_user (gxo_prod *p, GrB_Semiring semiring, GrB_Matrix A,
    GrB_Matrix B) ;
GrB_Info GXO_prod_rows (const gxo_prod *p, GrB_Matrix C, GrB_Index i0) ;
void GXO_prod_free (gxo_prod *p) ;

// The common columns' part of HAMMING's sum, g = [x != y] - [x != 0] - [0
// != y] summed over the columns that rows A_i and B_j share, as one
// built-in product *L PLUS.FIRST *R of two counts (oracle_equal_pairs.c)
GrB_Info GXO_common_ne (GrB_Matrix *L, GrB_Matrix *R, GrB_Matrix A,
    GrB_Matrix B) ;

// The metrics' sums (oracle_sum.c): GXO_union_plus for the metrics' own
// FP64 operators, whose terms are all >= 0, given their correction
// (GXO_corr_new) and identity 0: D = ra_i + rb_j + the correction summed
// over the common columns, prepared once (GXO_sum_new) and computed for a
// block of rows of A at a time (GXO_sum_rows), the pairs that may have
// cancelled done again from their own terms.  A and B (FP64) must outlive
// the sum.
#define GXO_SUM_PRODS 2
typedef struct
{
    gxo_prod prod [GXO_SUM_PRODS] ;     // the common columns' part
    int nprod ;
    double *ra, *rb ;                   // the row terms, sum of f(x,0), f(0,y)
    GrB_Matrix A, B ;                   // the operands (not owned)
    GrB_Semiring semiring ;             // PLUS.f, for the pairs done again
    double tau ;
    bool exact ;                        // no pair to do again (gxo_exact)
    bool defer ;                        // the pairs to do again left NaN,
                                        // for the caller to do (GXO_sum_rows)
    bool same ;                         // A and B are one matrix (set by the
                                        // caller: GXO_zero_self)
}
gxo_sum ;

GrB_Info GXO_sum_new (gxo_sum *s, GrB_BinaryOp f, const gxo_corr *corr,
    GrB_Matrix A, GrB_Matrix B, double tau) ;

// C (mb-by-n, full FP64, not iso but for one entry) = the sum for rows
// i0 .. i0 + mb - 1 of A, every entry overwritten (NaN where the pair is
// to be done again and s->defer is set)
GrB_Info GXO_sum_rows (const gxo_sum *s, GrB_Matrix C, GrB_Index i0) ;
void GXO_sum_free (gxo_sum *s) ;

// GXO_union_plus with the metrics' correction (corr NULL: GXO_union_plus),
// every row of A at once (GXO_sum_new, GXO_sum_rows)
GrB_Info GXO_union_plus_terms (GrB_Matrix *D, GrB_Monoid add,
    GrB_BinaryOp mult, double identity, GrB_Matrix A, GrB_Matrix B,
    double tau, const gxo_corr *corr) ;

//------------------------------------------------------------------------------
// the metrics a block of rows at a time (oracle_metric.c)
//------------------------------------------------------------------------------

// A block's scale (GXO_scale), made only where it is asked for: DOT's and
// KL's scale is a product as costly as the metric's own, and adds nothing
// to the tolerance of an entry that passes without it (max (|ref|, S) >=
// |ref|), so verify mode asks for it only in a block with an entry that
// fails without it.  GXO_scale_rows (sc, &S): S = the scale of the block
// (full FP64, its shape), owned by the engine, made at the first call.
typedef struct gxo_scaler gxo_scaler ;
GrB_Info GXO_scale_rows (gxo_scaler *sc, GrB_Matrix *S) ;

// visit (arg, i0, &D, sc, s): D (full FP64, nrows (D)-by-n, held by row)
// holds the distances of rows i0 .. i0 + nrows (D) - 1 of A; their scale is
// s for every pair, or, where sc is not NULL, s (0) up to the pair's own
// scale, given by GXO_scale_rows (sc, ...).  The visit may take D (and set
// it NULL); else D is reused for the next block, and must be left full FP64.
typedef GrB_Info (*gxo_rows_visit) (void *arg, GrB_Index i0, GrB_Matrix *D,
    gxo_scaler *sc, double s) ;

// GXO_metric for blocks of at most rows rows of A, one after another, each
// given to visit (in row order); scale: with DOT's and KL's scale on demand
// (else sc NULL and s 0 for them).  What does not depend on the block is
// done once.
GrB_Info GXO_metric_rows (const char *metric, double p, GrB_Type type,
    GrB_Matrix A, GrB_Matrix B, GrB_Index rows, bool scale,
    gxo_rows_visit visit, void *arg) ;

// every row of A in one block
#define GXO_ALL_ROWS UINT64_MAX

// Rows of a block of an m-by-n result for verify mode: GXO_BLOCK_BYTES of
// FP64 values, at least one row.  A block that size stays in the last
// level cache between the products written into it, the row terms, the
// check of its pairs and the comparison, and is reused from block to block,
// so its pages are zeroed by the kernel once (a fresh 195 MB reference at
// 1,600 rows of fortunes cost 110-150 ms in page faults alone, 2 cores).
#define GXO_BLOCK_BYTES (8 << 20)

// The work per thread that GraphBLAS is told to take in the products
// accumulated into a block (its descriptor's GxB_CHUNK, 64K by default):
// at 400 rows of fortunes the product's 332K flops otherwise ran on one
// thread, and most of a product's time is writing its nearly dense result
// (2.6M entries at 1,600 rows), which more threads share.
#define GXO_PRODUCT_CHUNK 4096
GrB_Index GXO_block_rows (GrB_Index n) ;

//------------------------------------------------------------------------------
// the tiled dense-completion engine (oracle_pairs.c)
//------------------------------------------------------------------------------

// one operand: its rows are completed tile by tile
typedef struct
{
    GrB_Matrix M ;          // the rows (any type)
    GrB_Type type ;         // a completed tile has this (built-in) type
    double identity ;       // the value of a missing entry
}
gxo_side ;

// D(i,j) = completed row i of a->M (+).(x) completed row j of b->M, the
// semiring's product, for every i, j.  D (m-by-n, the product's type) is
// created by the caller holding the value of an empty reduction, which is
// what D keeps when k = 0.
GrB_Info GXO_pairs (GrB_Matrix D, const gxo_side *a, const gxo_side *b,
    GrB_Semiring semiring) ;

// the product of listed pairs of rows, both completed:
//   semiring != NULL: D(i,j) = row i (+).(x) row j ((+) must be PLUS)
//   else, a scaled sum of the magnitudes a_c = op (x~_c, y~_c) >= 0 (op(e,e)
//       must be 0): D(i,j) = M = max_c a_c, and T2(i,j) = sum_c (a_c /
//       M)^p (0 where M = 0), so that sum_c a_c^p = M^p T2 with no power of
//       an a_c formed (1e200^2 overflows, 1e-200^2 underflows, where the
//       p-norm M T2^(1/p) is representable).  T2 is m-by-n FP64, like D.
typedef struct
{
    GrB_Semiring semiring ;
    GrB_BinaryOp op ;
    double p ;
    GrB_Matrix T2 ;
}
gxo_product ;

// D(I [q], J [q]) (and prod->T2's) for q < np (no pair twice), every other
// entry left as it is, computed over the union of each pair's columns
// (oracle_pairs_at.c): O(sum of the pairs' row lengths)
GrB_Info GXO_pairs_at (GrB_Matrix D, const gxo_side *a, const gxo_side *b,
    const gxo_product *prod, const GrB_Index *I, const GrB_Index *J,
    GrB_Index np) ;

// Of the *np pairs (I [q], J [q]), row i0 + I [q] of A (Ab: A's rows from
// i0) against row J [q] of B, where A and B are one matrix: those of a row
// with itself whose union sum of f (identity e) is exactly 0, f(v, v) = 0
// for every value v it holds and f(e, e) = 0, moved to ZI, ZJ (*nz of
// them, room for *np), the others kept in I, J in order (*np of them)
// (oracle_pairs_at.c)
GrB_Info GXO_zero_self (GrB_Index *I, GrB_Index *J, GrB_Index *np,
    GrB_Index *ZI, GrB_Index *ZJ, GrB_Index *nz, GrB_Matrix Ab, GrB_Index i0,
    GrB_BinaryOp f, double e) ;

#endif
