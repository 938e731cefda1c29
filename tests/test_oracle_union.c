// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// tests/test_oracle_union.c: the reference's union products without dense completion
//------------------------------------------------------------------------------

// Verify mode's reference computes a PLUS union (GXO_union_plus) from
// intersection products and row sums instead of completing the rows densely,
// and a union of any other monoid row by row over the columns of each row of
// A (GXO_union_rows).  Both must equal the definition, GXO_union's dense
// completion, on small random cases:
//   - every real type (INT8 .. UINT64, FP32, FP64) with built-in operators
//     whose terms have both signs (MINUS, TIMES, FIRST), identity 0 and not 0
//     (2, 3): integer results exactly (wrap-around included: INT64 values
//     above 2^53, products that overflow), floating-point ones on small
//     integer values exactly too (every sum is exact there);
//   - user operators (GxB_BinaryOp_new): |x-y|, (x-y)^2, a clipped
//     difference max(-1, min(1, x-y)), in FP64 and FP32 on reals, within
//     1e-12 (FP64) and 1e-5 (FP32) of max (|ref|, the sum of the terms'
//     magnitudes);
//   - cancellation and non-finite terms: rows that share huge values (|x-y|
//     of 1e16 and 1e16 + 1: the row sums cancel to the small rest), and
//     x / y with identity 0 (infinite and NaN terms), which the oracle must
//     recompute exactly, pair by pair, to the same value (NaN where NaN);
//   - the metrics' sums (GXO_union_plus_terms with their correction: built-in
//     products where algebra gives it, else T1 - P), each of the metrics'
//     operators on every shape, values of both signs (each sign part of the
//     min form of |x-y| and |x+y|), within 1e-12; the same rows sharing
//     huge values, exactly; and an entry of a result put off by one part in
//     1e9 is found by GXO_compare, where it is;
//   - the same sums where A's and B's values fall in few classes (the
//     product by (column, value) pairs), at and past the number of classes
//     taken, with negative values, stored zeros and empty rows, within
//     1e-12; sums of other operators by classes exactly, one of them
//     telling -0 from +0 among the stored zeros;
//   - and where A and B hold many distinct values drawn from one pool, so
//     that equal values meet (HAMMING's counts of equal pairs), with a -0
//     and a NaN, within 1e-12 (HAMMING exactly);
//   - the other idempotent monoids' three products (BOR, BAND of unsigned
//     types; LOR, LAND of booleans), exactly, and taken where rows are
//     sparse.

#include "test_common.h"
#include "oracle_internal.h"

//------------------------------------------------------------------------------
// user operators
//------------------------------------------------------------------------------

#define D64(p) (*(const double *) (p))
#define D32(p) (*(const float *) (p))
static void absdiff64 (void *z, const void *x, const void *y)
{ *(double *) z = fabs (D64 (x) - D64 (y)) ; }
static void sqdiff64 (void *z, const void *x, const void *y)
{ double d = D64 (x) - D64 (y) ; *(double *) z = d * d ; }
static void clip64 (void *z, const void *x, const void *y)
{ *(double *) z = fmax (-1, fmin (1, D64 (x) - D64 (y))) ; }
static void absdiff32 (void *z, const void *x, const void *y)
{ *(float *) z = fabsf (D32 (x) - D32 (y)) ; }
static void sqdiff32 (void *z, const void *x, const void *y)
{ float d = D32 (x) - D32 (y) ; *(float *) z = d * d ; }
static void clip32 (void *z, const void *x, const void *y)
{ *(float *) z = fmaxf (-1, fminf (1, D32 (x) - D32 (y))) ; }
// the magnitude of each: a term's |f|, for the tolerance's scale
static void absclip64 (void *z, const void *x, const void *y)
{ *(double *) z = fabs (fmax (-1, fmin (1, D64 (x) - D64 (y)))) ; }

//------------------------------------------------------------------------------
// the built-in types and their operators
//------------------------------------------------------------------------------

typedef struct
{
    GrB_Type type ;
    GrB_Monoid plus ;
    GrB_Monoid monoids [4] ;    // PLUS, MAX, MIN, TIMES
    GrB_BinaryOp ops [3] ;      // MINUS, TIMES, FIRST: terms of both signs
    GrB_BinaryOp ne ;
    bool is_signed, is_float ;
}
type_ops ;

#define TYPE_OPS(T, sgn, flt)                                               \
    { GrB_ ## T, GrB_PLUS_MONOID_ ## T,                                     \
      { GrB_PLUS_MONOID_ ## T, GrB_MAX_MONOID_ ## T, GrB_MIN_MONOID_ ## T,   \
        GrB_TIMES_MONOID_ ## T },                                           \
      { GrB_MINUS_ ## T, GrB_TIMES_ ## T, GrB_FIRST_ ## T }, GrB_NE_ ## T,   \
      sgn, flt }

static type_ops types [10] ;

static void init_types (void)
{
    type_ops t [10] =
    {
        TYPE_OPS (INT8, true, false),   TYPE_OPS (INT16, true, false),
        TYPE_OPS (INT32, true, false),  TYPE_OPS (INT64, true, false),
        TYPE_OPS (UINT8, false, false), TYPE_OPS (UINT16, false, false),
        TYPE_OPS (UINT32, false, false), TYPE_OPS (UINT64, false, false),
        TYPE_OPS (FP32, true, true),    TYPE_OPS (FP64, true, true),
    } ;
    memcpy (types, t, sizeof (t)) ;
}

//------------------------------------------------------------------------------
// helpers
//------------------------------------------------------------------------------

// X and Y are both full m-by-n of type t, equal entry by entry in t itself
// (no typecast to double: INT64 above 2^53); else fail naming what
static void check_identical (GrB_Matrix X, GrB_Matrix Y, const type_ops *t,
    const char *what)
{
    GrB_Index m, n, nx, ny, nne ;
    GrB_Type tx, ty ;
    GXT_OK (GrB_Matrix_nrows (&m, Y)) ;
    GXT_OK (GrB_Matrix_ncols (&n, Y)) ;
    GXT_OK (GrB_Matrix_nvals (&nx, X)) ;
    GXT_OK (GrB_Matrix_nvals (&ny, Y)) ;
    GXT_OK (GxB_Matrix_type (&tx, X)) ;
    GXT_OK (GxB_Matrix_type (&ty, Y)) ;
    if (tx != t->type || ty != t->type || nx != m * n || ny != m * n)
        GXT_FAIL ("%s %s: %llu and %llu entries of types %s, %s; expected "
            "%llu of %s", what, gxt_type_name (t->type),
            (unsigned long long) nx, (unsigned long long) ny,
            gxt_type_name (tx), gxt_type_name (ty),
            (unsigned long long) (m * n), gxt_type_name (t->type)) ;
    GrB_Matrix E ;
    GXT_OK (GrB_Matrix_new (&E, GrB_BOOL, m, n)) ;
    GXT_OK (GrB_Matrix_eWiseMult_BinaryOp (E, NULL, NULL, t->ne, X, Y, NULL)) ;
    GXT_OK (GrB_Matrix_select_BOOL (E, NULL, NULL, GrB_VALUEEQ_BOOL, E, true,
        NULL)) ;
    GXT_OK (GrB_Matrix_nvals (&nne, E)) ;
    if (nne > 0)
    {
        // (extractTuples takes every entry or none)
        GrB_Index *I = malloc (nne * sizeof (GrB_Index)) ;
        GrB_Index *J = malloc (nne * sizeof (GrB_Index)) ;
        assert_non_null (I) ;
        assert_non_null (J) ;
        GXT_OK (GrB_Matrix_extractTuples_BOOL (I, J, NULL, &nne, E)) ;
        GrB_Index i = I [0], j = J [0] ;
        free (I) ;
        free (J) ;
        double x, y ;
        GXT_OK (GrB_Matrix_extractElement_FP64 (&x, X, i, j)) ;
        GXT_OK (GrB_Matrix_extractElement_FP64 (&y, Y, i, j)) ;
        GXT_FAIL ("%s %s: %llu of %llu entries differ from dense completion; "
            "e.g. (%llu,%llu): %.17g, dense %.17g", what,
            gxt_type_name (t->type), (unsigned long long) nne,
            (unsigned long long) (m * n), (unsigned long long) i,
            (unsigned long long) j, x, y) ;
    }
    GrB_Matrix_free (&E) ;
}

// a random pair (A m-by-k, B n-by-k) of type t: small integers (naturals
// for unsigned types), and for the 64-bit ones 2^60 added to every entry
static void int_pair (GrB_Matrix *A, GrB_Matrix *B, const type_ops *t,
    gxt_shape shape)
{
    GrB_Matrix A0, B0 ;
    gxt_pair (&A0, &B0, shape, t->is_signed ? GXT_INTEGERS : GXT_NATURALS) ;
    gxt_convert (A, A0, GXT_FMT_SPARSE, t->type) ;
    gxt_convert (B, B0, GXT_FMT_SPARSE, t->type) ;
    if (t->type == GrB_INT64 || t->type == GrB_UINT64)
    {
        GrB_BinaryOp plus = (t->type == GrB_INT64) ? GrB_PLUS_INT64
                                                   : GrB_PLUS_UINT64 ;
        GXT_OK (GrB_Matrix_apply_BinaryOp2nd_UINT64 (*A, NULL, NULL, plus, *A,
            (uint64_t) 1 << 60, NULL)) ;
        GXT_OK (GrB_Matrix_apply_BinaryOp2nd_UINT64 (*B, NULL, NULL, plus, *B,
            ((uint64_t) 1 << 60) + 7, NULL)) ;
    }
    GrB_Matrix_free (&A0) ;
    GrB_Matrix_free (&B0) ;
}

//------------------------------------------------------------------------------
// the tests
//------------------------------------------------------------------------------

static const gxt_shape shapes [6] = { GXT_SHAPE_RANDOM, GXT_SHAPE_EMPTY_ROWS,
    GXT_SHAPE_EXPLICIT_ZEROS, GXT_SHAPE_DENSE, GXT_SHAPE_K1, GXT_SHAPE_M0 } ;
static const double identities [3] = { 0, 2, 3 } ;

// built-in operators and monoids of every type on integer values: both
// oracles give exactly the definition.  GXO_union_plus with PLUS;
// GXO_union_rows with PLUS, MAX, MIN and TIMES (TIMES of floats aside:
// products of 60 terms are not exact; integers wrap exactly)
static void unions_equal_dense_completion_exactly (void **state)
{
    GXT_START ( ) ;
    for (int q = 0 ; q < 10 ; q++)
    {
        const type_ops *t = &types [q] ;
        for (int s = 0 ; s < 6 ; s++)
        {
            GrB_Matrix A, B ;
            int_pair (&A, &B, t, shapes [s]) ;
            // mo = -1: GXO_union_plus; else GXO_union_rows with monoid mo
            for (int mo = -1 ; mo < 4 ; mo++)
            {
                if (mo == 3 && t->is_float) continue ;
                GrB_Monoid mon = (mo < 0) ? t->plus : t->monoids [mo] ;
                for (int o = 0 ; o < 3 ; o++)
                {
                    for (int e = 0 ; e < 3 ; e++)
                    {
                        GrB_Matrix D = NULL, R = NULL ;
                        double id = identities [e] ;
                        GXT_OK ((mo < 0)
                            ? GXO_union_plus (&D, mon, t->ops [o], id, A, B, 16)
                            : GXO_union_rows (&D, mon, t->ops [o], id, A, B)) ;
                        GXT_OK (GXO_union (&R, mon, t->ops [o], id, A, B)) ;
                        char what [128] ;
                        snprintf (what, sizeof (what), "%s: monoid %d, op %d, "
                            "identity %g, shape %s", (mo < 0) ? "plus" : "rows",
                            mo, o, id, gxt_shape_name (shapes [s])) ;
                        check_identical (D, R, t, what) ;
                        GrB_Matrix_free (&D) ;
                        GrB_Matrix_free (&R) ;
                    }
                }
            }
            GrB_Matrix_free (&A) ;
            GrB_Matrix_free (&B) ;
        }
    }
}

// the other idempotent monoids (GXO_union_idem's three products): BOR and
// BAND of the unsigned types under MINUS (wrapping), TIMES and FIRST, and
// LOR and LAND of booleans under NE, LAND and FIRST, identities 0 and 2
// (true), against the definition, bit for bit.  On the wide shape (rows of
// a few of 150-300 columns) the three products must be taken (done), on
// the others where no pair may hold every column; GXO_union_rows must
// agree on all.
static void bitwise_and_logical_unions_take_three_products (void **state)
{
    GXT_START ( ) ;
    const gxt_shape sh [5] = { GXT_SHAPE_WIDE, GXT_SHAPE_RANDOM,
        GXT_SHAPE_EMPTY_ROWS, GXT_SHAPE_EXPLICIT_ZEROS, GXT_SHAPE_DENSE } ;
    type_ops tb = { GrB_BOOL, GrB_LOR_MONOID_BOOL,
        { GrB_LOR_MONOID_BOOL, GrB_LAND_MONOID_BOOL, NULL, NULL },
        { GrB_NE_BOOL, GrB_LAND, GrB_FIRST_BOOL }, GrB_NE_BOOL, false, false } ;
    for (int q = 4 ; q <= 8 ; q++)
    {
        // types [4..7]: the unsigned types; 8: BOOL
        type_ops t = (q < 8) ? types [q] : tb ;
        GrB_Monoid mons [2] = { tb.monoids [0], tb.monoids [1] } ;
        if (q < 8)
        {
            const GrB_Monoid bor [4] = { GxB_BOR_UINT8_MONOID,
                GxB_BOR_UINT16_MONOID, GxB_BOR_UINT32_MONOID,
                GxB_BOR_UINT64_MONOID } ;
            const GrB_Monoid band [4] = { GxB_BAND_UINT8_MONOID,
                GxB_BAND_UINT16_MONOID, GxB_BAND_UINT32_MONOID,
                GxB_BAND_UINT64_MONOID } ;
            mons [0] = bor [q - 4] ;
            mons [1] = band [q - 4] ;
        }
        for (int s = 0 ; s < 5 ; s++)
        {
            GrB_Matrix A, B ;
            int_pair (&A, &B, (q < 8) ? &t : &types [4], sh [s]) ;
            if (q == 8)
            {
                GrB_Matrix A1, B1 ;
                gxt_convert (&A1, A, GXT_FMT_SPARSE, GrB_BOOL) ;
                gxt_convert (&B1, B, GXT_FMT_SPARSE, GrB_BOOL) ;
                GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ;
                A = A1 ; B = B1 ;
            }
            for (int mo = 0 ; mo < 2 ; mo++)
            {
                for (int o = 0 ; o < 3 ; o++)
                {
                    for (int e = 0 ; e < 2 ; e++)
                    {
                        GrB_Matrix D = NULL, D2 = NULL, R = NULL ;
                        bool done = false ;
                        double id = identities [e] ;
                        GXT_OK (GXO_union_idem (&D, &done, mons [mo],
                            t.ops [o], id, A, B)) ;
                        GXT_OK (GXO_union_rows (&D2, mons [mo], t.ops [o], id,
                            A, B)) ;
                        GXT_OK (GXO_union (&R, mons [mo], t.ops [o], id, A, B)) ;
                        char what [128] ;
                        snprintf (what, sizeof (what), "%s: monoid %d, op %d, "
                            "identity %g, shape %s", (q < 8) ? "BOR/BAND"
                            : "LOR/LAND", mo, o, id, gxt_shape_name (sh [s])) ;
                        if (sh [s] == GXT_SHAPE_WIDE && !done)
                            GXT_FAIL ("%s: not taken by three products", what) ;
                        if (done) check_identical (D, R, &t, what) ;
                        check_identical (D2, R, &t, what) ;
                        GrB_Matrix_free (&D) ;
                        GrB_Matrix_free (&D2) ;
                        GrB_Matrix_free (&R) ;
                    }
                }
            }
            GrB_Matrix_free (&A) ;
            GrB_Matrix_free (&B) ;
        }
    }
}

// a matrix against itself (one object): GXO_metric takes a row with itself
// as 0 where every term f(v, v) is (GXO_zero_self), and must give what it
// gives against a copy of itself, bit for bit: NaN where a row holds an
// infinity or a NaN, 0 for rows of finite values, huge ones included
static void a_matrix_against_itself_equals_against_its_copy (void **state)
{
    GXT_START ( ) ;
    const GrB_Index m = 10, k = 20 ;
    GrB_Matrix A, A2 ;
    GXT_OK (GrB_Matrix_new (&A, GrB_FP64, m, k)) ;
    for (GrB_Index i = 0 ; i < m ; i++)
    {
        for (int e = 0 ; e < 3 ; e++)
        {
            double v = 1 + (double) (gxt_rand ( ) % 9) ;
            if (i == 2 && e == 1) v = INFINITY ;
            if (i == 4 && e == 2) v = NAN ;
            if (i == 6) v *= 1e300 ;
            GXT_OK (GrB_Matrix_setElement_FP64 (A, v, i, (3 * i + 5 * e) % k)) ;
        }
    }
    GXT_OK (GrB_Matrix_dup (&A2, A)) ;
    const char *names [11] = { "EUCLIDEAN", "SQEUCLIDEAN", "MANHATTAN",
        "COSINE", "CANBERRA", "HELLINGER", "JENSEN_SHANNON", "MINKOWSKI",
        "CORRELATION", "HAMMING", "BRAYCURTIS" } ;
    for (int q = 0 ; q < 11 ; q++)
    {
        GrB_Matrix D = NULL, R = NULL ;
        GXT_OK (GXO_metric (&D, names [q], 3, GrB_FP64, A, A)) ;
        GXT_OK (GXO_metric (&R, names [q], 3, GrB_FP64, A, A2)) ;
        for (GrB_Index i = 0 ; i < m ; i++)
        {
            for (GrB_Index j = 0 ; j < m ; j++)
            {
                double x = 0, y = 0 ;
                GXT_OK (GrB_Matrix_extractElement_FP64 (&x, D, i, j)) ;
                GXT_OK (GrB_Matrix_extractElement_FP64 (&y, R, i, j)) ;
                if (!(x == y || (x != x && y != y)))
                    GXT_FAIL ("%s: (%llu,%llu) is %.17g against itself, %.17g "
                        "against its copy", names [q], (unsigned long long) i,
                        (unsigned long long) j, x, y) ;
            }
        }
        GrB_Matrix_free (&D) ;
        GrB_Matrix_free (&R) ;
    }
    GrB_Matrix_free (&A) ;
    GrB_Matrix_free (&A2) ;
}

// user operators on reals, FP64 and FP32: within rtol of max (|ref|, sum of
// the terms' magnitudes)
static void plus_union_of_user_operators_equals_dense_completion (void **state)
{
    GXT_START ( ) ;
    struct { GxB_binary_function f, fabs64 ; GrB_Type t ; const char *name ; }
    ops [6] =
    {
        { absdiff64, NULL,      GrB_FP64, "|x-y| FP64" },
        { sqdiff64,  NULL,      GrB_FP64, "(x-y)^2 FP64" },
        { clip64,    absclip64, GrB_FP64, "clipped x-y FP64" },
        { absdiff32, NULL,      GrB_FP32, "|x-y| FP32" },
        { sqdiff32,  NULL,      GrB_FP32, "(x-y)^2 FP32" },
        { clip32,    absclip64, GrB_FP32, "clipped x-y FP32" },
    } ;
    for (int o = 0 ; o < 6 ; o++)
    {
        GrB_BinaryOp op = NULL, mag = NULL ;
        GrB_Type t = ops [o].t ;
        GrB_Monoid plus = (t == GrB_FP32) ? GrB_PLUS_MONOID_FP32
                                          : GrB_PLUS_MONOID_FP64 ;
        GXT_OK (GxB_BinaryOp_new (&op, ops [o].f, t, t, t, ops [o].name,
            NULL)) ;
        if (ops [o].fabs64 != NULL)
        {
            GXT_OK (GxB_BinaryOp_new (&mag, ops [o].fabs64, GrB_FP64, GrB_FP64,
                GrB_FP64, "magnitude", NULL)) ;
        }
        for (int s = 0 ; s < 6 ; s++)
        {
            for (int e = 0 ; e < 3 ; e++)
            {
                GrB_Matrix A, B, D = NULL, R = NULL, S = NULL ;
                gxt_pair (&A, &B, shapes [s], GXT_MIXED) ;
                GXT_OK (GXO_union_plus (&D, plus, op, identities [e], A, B,
                    16)) ;
                GXT_OK (GXO_union (&R, plus, op, identities [e], A, B)) ;
                if (mag != NULL)
                {
                    GXT_OK (GXO_union (&S, GrB_PLUS_MONOID_FP64, mag,
                        identities [e], A, B)) ;
                }
                GrB_Type dt ;
                GrB_Index m, n, nd ;
                GXT_OK (GxB_Matrix_type (&dt, D)) ;
                GXT_OK (GrB_Matrix_nrows (&m, R)) ;
                GXT_OK (GrB_Matrix_ncols (&n, R)) ;
                GXT_OK (GrB_Matrix_nvals (&nd, D)) ;
                if (dt != t || nd != m * n)
                    GXT_FAIL ("%s: the result is %s with %llu entries, "
                        "expected %s, full %llu x %llu", ops [o].name,
                        gxt_type_name (dt), (unsigned long long) nd,
                        gxt_type_name (t), (unsigned long long) m,
                        (unsigned long long) n) ;
                // the reference in FP64, for GXO_compare
                GrB_Matrix R64 ;
                GXT_OK (GrB_Matrix_new (&R64, GrB_FP64, m, n)) ;
                GXT_OK (GrB_Matrix_assign (R64, NULL, NULL, R, GrB_ALL, m,
                    GrB_ALL, n, NULL)) ;
                int64_t nbad, wi, wj ;
                double wg, wr, rtol = gxt_rtol (t) ;
                GXT_OK (GXO_compare (D, R64, S, rtol, &nbad, &wi, &wj, &wg,
                    &wr)) ;
                if (nbad > 0)
                    GXT_FAIL ("%s, identity %g, shape %s: %ld entries beyond "
                        "rtol %g of dense completion; worst (%ld,%ld): %.17g, "
                        "dense %.17g", ops [o].name, identities [e],
                        gxt_shape_name (shapes [s]), (long) nbad, rtol,
                        (long) wi, (long) wj, wg, wr) ;
                GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ;
                GrB_Matrix_free (&D) ; GrB_Matrix_free (&R) ;
                GrB_Matrix_free (&R64) ; GrB_Matrix_free (&S) ;
            }
        }
        GrB_BinaryOp_free (&op) ;
        GrB_BinaryOp_free (&mag) ;
    }
}

// rows sharing huge values: sum |x-y| of A's rows against B's is 2.75, 3
// and 0.5 at (0,0), (0,1), (1,1), but the row sums are 1e16 and the half
// that they hold is below their rounding
static void cancelling_rows (GrB_Matrix *A, GrB_Matrix *B)
{
    const double a [2*4] = { 1e16, 0.5, 0, 0,     1e16, 0, 0, 3 } ;
    const double b [3*4] = { 1e16 + 2, 0, 0.25, 0,   1e16, 0.5, 0, 3,
                             0, 0, 0, 1 } ;
    gxt_dense_rows (A, GrB_FP64, 2, 4, a) ;
    gxt_dense_rows (B, GrB_FP64, 3, 4, b) ;
}

static void check_cancelling (GrB_Matrix D, const char *what)
{
    double d00, d01, d11 ;
    GXT_OK (GrB_Matrix_extractElement_FP64 (&d00, D, 0, 0)) ;
    GXT_OK (GrB_Matrix_extractElement_FP64 (&d01, D, 0, 1)) ;
    GXT_OK (GrB_Matrix_extractElement_FP64 (&d11, D, 1, 1)) ;
    if (d00 != 2.75 || d01 != 3 || d11 != 0.5)
        GXT_FAIL ("%s, cancelling rows: got %.17g, %.17g, %.17g; expected "
            "2.75, 3, 0.5", what, d00, d01, d11) ;
}

// rows sharing huge values (cancelling_rows); and x / y with
// identity 0: infinite terms (x/0) and NaN ones (0/0).  Both need the exact
// pair-by-pair recomputation to match dense completion.
static void plus_union_recomputes_cancelling_and_nonfinite_pairs (void **state)
{
    GXT_START ( ) ;
    GrB_BinaryOp op ;
    GXT_OK (GxB_BinaryOp_new (&op, absdiff64, GrB_FP64, GrB_FP64, GrB_FP64,
        "absdiff64", NULL)) ;
    GrB_Matrix A, B, D = NULL, R = NULL ;
    cancelling_rows (&A, &B) ;
    GXT_OK (GXO_union_plus (&D, GrB_PLUS_MONOID_FP64, op, 0, A, B, 16)) ;
    GXT_OK (GXO_union (&R, GrB_PLUS_MONOID_FP64, op, 0, A, B)) ;
    check_cancelling (D, "GXO_union_plus") ;
    int64_t nbad, wi, wj ;
    double wg, wr ;
    GXT_OK (GXO_compare (D, R, NULL, 1e-12, &nbad, &wi, &wj, &wg, &wr)) ;
    if (nbad > 0)
        GXT_FAIL ("cancelling rows: %ld entries differ from dense completion, "
            "worst (%ld,%ld): %.17g vs %.17g", (long) nbad, (long) wi,
            (long) wj, wg, wr) ;
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ;
    GrB_Matrix_free (&D) ; GrB_Matrix_free (&R) ;
    // x / y: infinities and NaN, on sparse and dense rows
    gxt_shape sh [2] = { GXT_SHAPE_RANDOM, GXT_SHAPE_DENSE } ;
    for (int s = 0 ; s < 2 ; s++)
    {
        gxt_pair (&A, &B, sh [s], GXT_MIXED) ;
        GXT_OK (GXO_union_plus (&D, GrB_PLUS_MONOID_FP64, GrB_DIV_FP64, 0, A,
            B, 16)) ;
        GXT_OK (GXO_union (&R, GrB_PLUS_MONOID_FP64, GrB_DIV_FP64, 0, A, B)) ;
        GXT_OK (GXO_compare (D, R, NULL, 1e-12, &nbad, &wi, &wj, &wg, &wr)) ;
        if (nbad > 0)
            GXT_FAIL ("x/y, shape %s: %ld entries differ from dense "
                "completion, worst (%ld,%ld): %.17g vs %.17g",
                gxt_shape_name (sh [s]), (long) nbad, (long) wi, (long) wj,
                wg, wr) ;
        GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ;
        GrB_Matrix_free (&D) ; GrB_Matrix_free (&R) ;
    }
    GrB_BinaryOp_free (&op) ;
}

// the metrics' operators whose sums GXO_union_plus_terms rewrites
static const gxo_opcode metric_codes [7] = { GXO_OP_SQDIFF, GXO_OP_ABSDIFF,
    GXO_OP_ABSSUM, GXO_OP_CANBERRA, GXO_OP_NE, GXO_OP_HELLSQ, GXO_OP_JSSQ } ;

// the operator and correction of metric_codes [c], and whether its domain
// is x, y >= 0
static void metric_op (GrB_BinaryOp *op, gxo_corr *corr, bool *nonneg, int c)
{
    GXT_OK (GXO_op_new (op, metric_codes [c])) ;
    GXT_OK (GXO_corr_new (corr, metric_codes [c])) ;
    *nonneg = (metric_codes [c] == GXO_OP_HELLSQ ||
        metric_codes [c] == GXO_OP_JSSQ) ;
}

// *D = the rewritten sum of op over the union, *R = dense completion's, and
// the entries of D beyond 1e-12 of R (GXO_compare's outputs)
static void metric_sum_against_dense (GrB_Matrix *D, GrB_Matrix *R,
    int64_t *nbad, int64_t *wi, int64_t *wj, double *wg, double *wr,
    GrB_BinaryOp op, const gxo_corr *corr, GrB_Matrix A, GrB_Matrix B)
{
    GXT_OK (GXO_union_plus_terms (D, GrB_PLUS_MONOID_FP64, op, 0, A, B,
        GXO_METRIC_TAU, corr)) ;
    GXT_OK (GXO_union (R, GrB_PLUS_MONOID_FP64, op, 0, A, B)) ;
    GXT_OK (GXO_compare (*D, *R, NULL, 1e-12, nbad, wi, wj, wg, wr)) ;
}

// the metrics' operators: GXO_union_plus_terms (in place, with the
// correction) against dense completion, and GXO_compare finding one entry
// put off by 1e-9
static void metric_sums_equal_dense_completion (void **state)
{
    GXT_START ( ) ;
    const gxo_opcode *codes = metric_codes ;
    for (int c = 0 ; c < 7 ; c++)
    {
        GrB_BinaryOp op = NULL ;
        gxo_corr corr ;
        bool nonneg ;
        metric_op (&op, &corr, &nonneg, c) ;
        // every shape, and (s = GXT_NSHAPES) A without entries: no column
        // in common at all; reals (more distinct values than the oracle's
        // classes of A's values take) and integers (few: by classes)
        for (int s = 0 ; s <= 2 * GXT_NSHAPES + 1 ; s++)
        {
            GrB_Matrix A, B, D = NULL, R = NULL, G = NULL ;
            gxt_pair (&A, &B, (gxt_shape) (s % (GXT_NSHAPES + 1) % GXT_NSHAPES),
                (s <= GXT_NSHAPES) ? GXT_MIXED : GXT_INTEGERS) ;
            if (s % (GXT_NSHAPES + 1) == GXT_NSHAPES) GXT_OK (GrB_Matrix_clear (A)) ;
            if (nonneg)
            {
                GXT_OK (GrB_Matrix_apply (A, NULL, NULL, GrB_ABS_FP64, A,
                    NULL)) ;
                GXT_OK (GrB_Matrix_apply (B, NULL, NULL, GrB_ABS_FP64, B,
                    NULL)) ;
            }
            int64_t nbad, wi, wj ;
            double wg, wr ;
            metric_sum_against_dense (&D, &R, &nbad, &wi, &wj, &wg, &wr, op,
                &corr, A, B) ;
            if (nbad > 0)
                GXT_FAIL ("operator %d, shape %s: %ld entries beyond 1e-12 of "
                    "dense completion; worst (%ld,%ld): %.17g, dense %.17g",
                    (int) codes [c], (s % (GXT_NSHAPES + 1) < GXT_NSHAPES) ?
                    gxt_shape_name ((gxt_shape) (s % (GXT_NSHAPES + 1))) : "empty A", (long) nbad,
                    (long) wi, (long) wj, wg, wr) ;
            GrB_Index m, n ;
            GXT_OK (GrB_Matrix_nrows (&m, D)) ;
            GXT_OK (GrB_Matrix_ncols (&n, D)) ;
            if (m * n > 0)
            {
                GrB_Index i = m / 2, j = n / 2 ;
                double d ;
                GXT_OK (GrB_Matrix_dup (&G, D)) ;
                GXT_OK (GrB_Matrix_extractElement_FP64 (&d, G, i, j)) ;
                GXT_OK (GrB_Matrix_setElement_FP64 (G, d + 1e-9 *
                    ((fabs (d) > 1) ? fabs (d) : 1), i, j)) ;
                GXT_OK (GXO_compare (G, R, NULL, 1e-12, &nbad, &wi, &wj, &wg,
                    &wr)) ;
                if (nbad != 1 || wi != (int64_t) i || wj != (int64_t) j)
                    GXT_FAIL ("operator %d, shape %s: an error put at "
                        "(%lu,%lu) was seen at (%ld,%ld), %ld entries",
                        (int) codes [c],
                        gxt_shape_name ((gxt_shape) (s % (GXT_NSHAPES + 1) % GXT_NSHAPES)),
                        (unsigned long) i,
                        (unsigned long) j, (long) wi, (long) wj, (long) nbad) ;
            }
            GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ;
            GrB_Matrix_free (&D) ; GrB_Matrix_free (&R) ;
            GrB_Matrix_free (&G) ;
        }
        GrB_BinaryOp_free (&op) ;
    }
    // rows sharing huge values (cancelling_rows): the row terms cancel, and
    // the pairs they leave untrusted are done again over their unions
    GrB_Matrix A, B, D = NULL ;
    GrB_BinaryOp op = NULL ;
    gxo_corr corr ;
    cancelling_rows (&A, &B) ;
    GXT_OK (GXO_op_new (&op, GXO_OP_ABSDIFF)) ;
    GXT_OK (GXO_corr_new (&corr, GXO_OP_ABSDIFF)) ;
    GXT_OK (GXO_union_plus_terms (&D, GrB_PLUS_MONOID_FP64, op, 0, A, B,
        GXO_METRIC_TAU, &corr)) ;
    check_cancelling (D, "metric sum") ;
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&D) ;
    GrB_BinaryOp_free (&op) ;
}

// the values of class_matrix: multiples of 3/4, lo, lo + 1, ... cycling
// (where neg_zero, half the zeros -0)
typedef struct { int lo, c, nclass ; bool neg_zero ; } class_cycle ;

static double next_class (void *arg)
{
    class_cycle *cc = arg ;
    double v = 0.75 * (cc->lo + (cc->c++ % cc->nclass)) ;
    return ((v == 0 && cc->neg_zero && gxt_uniform ( ) < 0.5) ? -0.0 : v) ;
}

// *A = a random m-by-k matrix (a fifth of its rows empty, a tenth of its
// entries stored zeros) whose values are nclass distinct ones, every one
// present: multiples of 3/4, 0 among them (half of them -0 where
// neg_zero), of both signs unless nonneg
static void class_matrix_z (GrB_Matrix *A, GrB_Index m, GrB_Index k,
    double density, int nclass, bool nonneg, bool neg_zero)
{
    gxt_spec spec = { m, k, density, 0.2, false, 0.1, -1, GXT_INTEGERS } ;
    gxt_random (A, &spec) ;
    // the stored zeros stay (0 is one of the classes)
    class_cycle cc = { nonneg ? 0 : -(nclass / 2),
        (int) gxt_int (0, nclass - 1), nclass, neg_zero } ;
    gxt_revalue (*A, next_class, &cc) ;
}

static void class_matrix (GrB_Matrix *A, GrB_Index m, GrB_Index k,
    double density, int nclass, bool nonneg)
{
    class_matrix_z (A, m, k, density, nclass, nonneg, false) ;
}

// the metrics' sums where A's and B's values fall in classes (the common
// columns' part then one product of patterns by B's (column, value)
// pairs), against dense completion: A with 1, 2, 63 and 64 classes, and 65
// and 300 (more than the classes take: the product of A itself), B with 9;
// then B with 1, 64, 65 and 300 and A with 9; with negative values, stored
// zeros and empty rows; B with more columns than A has entries in a column
// (the pairs held as a bitmap) and with fewer (held sparse)
static void metric_sums_by_classes_equal_dense_completion (void **state)
{
    GXT_START ( ) ;
    const gxo_opcode *codes = metric_codes ;
    const int nclasses [10][2] = { { 1, 9 }, { 2, 9 }, { 63, 9 }, { 64, 9 },
        { 65, 9 }, { 300, 9 }, { 9, 1 }, { 9, 64 }, { 9, 65 }, { 9, 300 } } ;
    // (m, k, n): A's pairs fewer than n, and more
    const GrB_Index dims [2][3] = { { 40, 20, 300 }, { 40, 80, 5 } } ;
    for (int c = 0 ; c < 7 ; c++)
    {
        GrB_BinaryOp op = NULL ;
        gxo_corr corr ;
        bool nonneg ;
        metric_op (&op, &corr, &nonneg, c) ;
        for (int q = 0 ; q < 10 ; q++)
        {
            for (int d = 0 ; d < 2 ; d++)
            {
                GrB_Matrix A, B, D = NULL, R = NULL ;
                class_matrix (&A, dims [d][0], dims [d][1], 0.3,
                    nclasses [q][0], nonneg) ;
                class_matrix (&B, dims [d][2], dims [d][1], 0.3,
                    nclasses [q][1], nonneg) ;
                int64_t nbad, wi, wj ;
                double wg, wr ;
                metric_sum_against_dense (&D, &R, &nbad, &wi, &wj, &wg, &wr,
                    op, &corr, A, B) ;
                if (nbad > 0)
                    GXT_FAIL ("operator %d, %d and %d classes, n = %lu: %ld "
                        "entries beyond 1e-12 of dense completion; worst "
                        "(%ld,%ld): %.17g, dense %.17g", (int) codes [c],
                        nclasses [q][0], nclasses [q][1],
                        (unsigned long) dims [d][2], (long) nbad, (long) wi,
                        (long) wj, wg, wr) ;
                GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ;
                GrB_Matrix_free (&D) ; GrB_Matrix_free (&R) ;
            }
        }
        GrB_BinaryOp_free (&op) ;
    }
}

// a term that tells -0 from +0 (which the classes' values, compared by ==,
// would not), also in g = f(x,y) - f(x,0) - f(0,y)
static void zero_signs64 (void *z, const void *x, const void *y)
{
    *(double *) z = D64 (x) * D64 (y) +
        ((signbit (D64 (x)) && D64 (y) != 0) ? 1 : 0) ;
}

// sums by classes (GXO_union_plus_terms with no correction terms: the
// common columns' part by classes where A and B have few values) against
// dense completion exactly (values multiples of 3/4, >= 0: every sum is
// exact): |x-y| and a term that tells -0 from +0, with and without -0
// among the stored zeros (a class holds values equal by ==, so both zeros
// at once must not take the classes), B with 9, 64 and 65 classes
static void sums_by_classes_equal_dense_completion_exactly (void **state)
{
    GXT_START ( ) ;
    GrB_BinaryOp ops [2] = { NULL, NULL } ;
    GXT_OK (GxB_BinaryOp_new (&ops [0], absdiff64, GrB_FP64, GrB_FP64,
        GrB_FP64, "absdiff", NULL)) ;
    GXT_OK (GxB_BinaryOp_new (&ops [1], zero_signs64, GrB_FP64, GrB_FP64,
        GrB_FP64, "zero_signs", NULL)) ;
    const gxo_corr corr = { 0 } ;
    const int nb [3] = { 9, 64, 65 } ;
    for (int o = 0 ; o < 2 ; o++)
    {
        for (int q = 0 ; q < 3 ; q++)
        {
            for (int z = 0 ; z < 2 ; z++)
            {
                GrB_Matrix A, B, D = NULL, R = NULL ;
                class_matrix_z (&A, 30, 40, 0.3, 7, true, z) ;
                class_matrix_z (&B, 50, 40, 0.3, nb [q], true, z) ;
                GXT_OK (GXO_union_plus_terms (&D, GrB_PLUS_MONOID_FP64,
                    ops [o], 0, A, B, GXO_METRIC_TAU, &corr)) ;
                GXT_OK (GXO_union (&R, GrB_PLUS_MONOID_FP64, ops [o], 0, A,
                    B)) ;
                check_identical (D, R, &types [9], z ? "by classes, -0"
                    : "by classes") ;
                GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ;
                GrB_Matrix_free (&D) ; GrB_Matrix_free (&R) ;
            }
        }
    }
    GrB_BinaryOp_free (&ops [0]) ;
    GrB_BinaryOp_free (&ops [1]) ;
}

// a value of either sign, step times a level 1 .. a [1] drawn as counts
// are (1 mostly, then 2, rarely more), or 0 (a stored zero)
static double next_level (void *arg)
{
    const double *a = arg ;     // { step, levels }
    double u = gxt_uniform ( ), sign = (gxt_uniform ( ) < 0.5) ? -1 : 1 ;
    if (u < 0.05) return (0) ;
    double level = (u < 0.7) ? 1 : (u < 0.9) ? 2 :
        3 + floor ((u - 0.9) / 0.1 * (a [1] - 2)) ;
    return (sign * a [0] * fmin (level, a [1])) ;
}

// MANHATTAN's and BRAYCURTIS's terms by the levels of the values (products
// of at least GXO_LEVELS_FLOPS flops: A 400-by-40 and B 500-by-40, half
// full), against dense completion: 9 integers, 9 multiples of 3/4 (a power
// of two divides them: by levels), 9 multiples of 0.1 (none does: the
// product of MAX itself) and 65 integers (more than GXO_LEVELS_MAX: MAX),
// each of both signs and with stored zeros
static void metric_sums_by_levels_equal_dense_completion (void **state)
{
    GXT_START ( ) ;
    const double steps [4][2] = { { 1, 9 }, { 0.75, 9 }, { 0.1, 9 },
        { 1, 65 } } ;
    const gxo_opcode codes [2] = { GXO_OP_ABSDIFF, GXO_OP_ABSSUM } ;
    // every product (of a part: the values > 0, or those < 0, some 45 % of
    // the entries) has about 40 columns of 400 * 0.5 * 0.45 of A's rows and
    // 500 * 0.5 * 0.45 of B's
    assert_true (40 * 90 * 112 >= GXO_LEVELS_FLOPS) ;
    for (int c = 0 ; c < 2 ; c++)
    {
        GrB_BinaryOp op = NULL ;
        gxo_corr corr ;
        GXT_OK (GXO_op_new (&op, codes [c])) ;
        GXT_OK (GXO_corr_new (&corr, codes [c])) ;
        for (int q = 0 ; q < 4 ; q++)
        {
            GrB_Matrix A, B, D = NULL, R = NULL ;
            gxt_spec sa = { 400, 40, 0.5, 0, false, 0, -1, GXT_INTEGERS } ;
            gxt_spec sb = { 500, 40, 0.5, 0, false, 0, -1, GXT_INTEGERS } ;
            gxt_random (&A, &sa) ;
            gxt_random (&B, &sb) ;
            gxt_revalue (A, next_level, (void *) steps [q]) ;
            gxt_revalue (B, next_level, (void *) steps [q]) ;
            int64_t nbad, wi, wj ;
            double wg, wr ;
            metric_sum_against_dense (&D, &R, &nbad, &wi, &wj, &wg, &wr, op,
                &corr, A, B) ;
            if (nbad > 0)
                GXT_FAIL ("operator %d, %g levels of %g: %ld entries beyond "
                    "1e-12 of dense completion; worst (%ld,%ld): %.17g, "
                    "dense %.17g", (int) codes [c], steps [q][1],
                    steps [q][0], (long) nbad, (long) wi, (long) wj, wg, wr) ;
            GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ;
            GrB_Matrix_free (&D) ; GrB_Matrix_free (&R) ;
        }
        GrB_BinaryOp_free (&op) ;
    }
}

// the sum of metric_codes [c] on A (m-by-k) and B (n-by-k), dims = (m, k,
// n), whose values are drawn from one pool of 200 fresh random values (a
// -0 among them and, for NE, a NaN), against dense completion: within
// 1e-12, NE's integer sums exactly
static void many_values_case (int c, const GrB_Index *dims)
{
    GrB_BinaryOp op = NULL ;
    gxo_corr corr ;
    bool nonneg ;
    metric_op (&op, &corr, &nonneg, c) ;
    double pool [200] ;
    for (int q = 0 ; q < 200 ; q++)
    {
        pool [q] = nonneg ? 3 * gxt_uniform ( ) : 8 * (gxt_uniform ( ) - 0.5) ;
    }
    pool [0] = -0.0 ;
    if (metric_codes [c] == GXO_OP_NE) pool [1] = NAN ;
    gxt_pool pd = { pool, 200 } ;
    GrB_Matrix A, B, D = NULL, R = NULL ;
    gxt_spec sa = { dims [0], dims [1], 0.3, 0.2, false, 0.1, -1, GXT_INTEGERS } ;
    gxt_spec sb = { dims [2], dims [1], 0.3, 0.2, false, 0.1, -1, GXT_INTEGERS } ;
    gxt_random (&A, &sa) ;
    gxt_random (&B, &sb) ;
    gxt_revalue (A, gxt_pool_value, &pd) ;
    gxt_revalue (B, gxt_pool_value, &pd) ;
    int64_t nbad, wi, wj ;
    double wg, wr ;
    metric_sum_against_dense (&D, &R, &nbad, &wi, &wj, &wg, &wr, op, &corr,
        A, B) ;
    if (nbad == 0 && metric_codes [c] == GXO_OP_NE)
        GXT_OK (GXO_compare (D, R, NULL, 0, &nbad, &wi, &wj, &wg, &wr)) ;
    if (nbad > 0)
        GXT_FAIL ("operator %d, many values, n = %lu: %ld entries beyond the "
            "tolerance of dense completion; worst (%ld,%ld): %.17g, dense "
            "%.17g", (int) metric_codes [c], (unsigned long) dims [2],
            (long) nbad, (long) wi, (long) wj, wg, wr) ;
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ;
    GrB_Matrix_free (&D) ; GrB_Matrix_free (&R) ;
    GrB_BinaryOp_free (&op) ;
}

// the metrics' sums where A and B have many distinct values (more than the
// classes of A's values take: the product of f itself, or HAMMING's counts
// of (column, value) pairs), drawn from one pool so that equal values meet
// in common columns, with stored zeros, a -0 and, for HAMMING, a NaN (equal
// to nothing); A with fewer columns than B has rows (held as a bitmap) and
// with more (held sparse)
static void metric_sums_of_many_shared_values_equal_dense_completion (
    void **state)
{
    GXT_START ( ) ;
    const GrB_Index dims [2][3] = { { 40, 30, 50 }, { 60, 12, 5 } } ;
    for (int c = 0 ; c < 7 ; c++)
    {
        many_values_case (c, dims [0]) ;
        many_values_case (c, dims [1]) ;
    }
}

// a user operator in a user monoid (max of |x-y| where both are user-made),
// on reals: exactly dense completion (MAX does not round)
static void maxop64 (void *z, const void *x, const void *y)
{ *(double *) z = fmax (D64 (x), D64 (y)) ; }

static void union_rows_of_user_monoid_equals_dense_completion (void **state)
{
    GXT_START ( ) ;
    GrB_BinaryOp op, maxop ;
    GrB_Monoid mon ;
    GXT_OK (GxB_BinaryOp_new (&op, absdiff64, GrB_FP64, GrB_FP64, GrB_FP64,
        "absdiff64", NULL)) ;
    GXT_OK (GxB_BinaryOp_new (&maxop, maxop64, GrB_FP64, GrB_FP64, GrB_FP64,
        "maxop64", NULL)) ;
    GXT_OK (GrB_Monoid_new_FP64 (&mon, maxop, -INFINITY)) ;
    for (int s = 0 ; s < 6 ; s++)
    {
        for (int e = 0 ; e < 3 ; e++)
        {
            GrB_Matrix A, B, D = NULL, R = NULL ;
            gxt_pair (&A, &B, shapes [s], GXT_MIXED) ;
            GXT_OK (GXO_union_rows (&D, mon, op, identities [e], A, B)) ;
            GXT_OK (GXO_union (&R, mon, op, identities [e], A, B)) ;
            check_identical (D, R, &types [9], "rows: user max of |x-y|") ;
            GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ;
            GrB_Matrix_free (&D) ; GrB_Matrix_free (&R) ;
        }
    }
    GrB_Monoid_free (&mon) ;
    GrB_BinaryOp_free (&maxop) ;
    GrB_BinaryOp_free (&op) ;
}

// MAX and MIN of NaN terms, as GraphBLAS has them: NaN omitted where a pair
// has another term, NaN where every term is (never the monoid's identity,
// which GraphBLAS does not add in).  Row 0 of A and of B NaN in every
// column: pairs (0, j) and (i, 0) have NaN terms only.
static void union_rows_of_nan_terms_equal_dense_completion (void **state)
{
    GXT_START ( ) ;
    const gxt_shape nshapes [3] = { GXT_SHAPE_RANDOM, GXT_SHAPE_DENSE, GXT_SHAPE_K1 } ;
    const GrB_Monoid mons [2] = { GrB_MAX_MONOID_FP64, GrB_MIN_MONOID_FP64 } ;
    for (int s = 0 ; s < 3 ; s++)
    {
        GrB_Matrix A, B ;
        gxt_pair (&A, &B, nshapes [s], GXT_MIXED) ;
        GrB_Index m, n, k ;
        GXT_OK (GrB_Matrix_nrows (&m, A)) ;
        GXT_OK (GrB_Matrix_nrows (&n, B)) ;
        GXT_OK (GrB_Matrix_ncols (&k, A)) ;
        for (GrB_Index c = 0 ; c < k && m > 0 && n > 0 ; c++)
        {
            GXT_OK (GrB_Matrix_setElement_FP64 (A, NAN, 0, c)) ;
            GXT_OK (GrB_Matrix_setElement_FP64 (B, NAN, 0, c)) ;
        }
        for (int mo = 0 ; mo < 2 ; mo++)
        {
            for (int e = 0 ; e < 2 ; e++)
            {
                GrB_Matrix D = NULL, R = NULL ;
                GXT_OK (GXO_union_rows (&D, mons [mo], GrB_MINUS_FP64,
                    identities [e], A, B)) ;
                GXT_OK (GXO_union (&R, mons [mo], GrB_MINUS_FP64,
                    identities [e], A, B)) ;
                GrB_Index nnan = 0 ;
                for (GrB_Index i = 0 ; i < m ; i++)
                {
                    for (GrB_Index j = 0 ; j < n ; j++)
                    {
                        double x, y ;
                        GXT_OK (GrB_Matrix_extractElement_FP64 (&x, D, i, j)) ;
                        GXT_OK (GrB_Matrix_extractElement_FP64 (&y, R, i, j)) ;
                        nnan += (x != x) ;
                        if (!(x == y || (x != x && y != y)))
                        {
                            GXT_FAIL ("%s, identity %g, shape %s: (%llu,%llu) "
                                "is %.17g, dense completion %.17g", mo ? "MIN"
                                : "MAX", identities [e],
                                gxt_shape_name (nshapes [s]),
                                (unsigned long long) i, (unsigned long long) j,
                                x, y) ;
                        }
                    }
                }
                if (m > 0 && n > 0 && nnan < m + n - 1)
                {
                    GXT_FAIL ("%s, shape %s: %llu NaN, expected at least %llu",
                        mo ? "MIN" : "MAX", gxt_shape_name (nshapes [s]),
                        (unsigned long long) nnan, (unsigned long long) (m + n - 1)) ;
                }
                GrB_Matrix_free (&D) ; GrB_Matrix_free (&R) ;
            }
        }
        GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ;
    }
}

// M's stored values, every 5th NaN, every 7th +-inf, every 11th -0, every
// 13th 1e300 (from entry `from` on)
static void spoil (GrB_Matrix M, GrB_Index from)
{
    GrB_Index nv, m, k ;
    GXT_OK (GrB_Matrix_nvals (&nv, M)) ;
    GXT_OK (GrB_Matrix_nrows (&m, M)) ;
    GXT_OK (GrB_Matrix_ncols (&k, M)) ;
    GrB_Index *I = malloc ((nv + 1) * sizeof (GrB_Index)) ;
    GrB_Index *J = malloc ((nv + 1) * sizeof (GrB_Index)) ;
    double *X = malloc ((nv + 1) * sizeof (double)) ;
    assert_true (I != NULL && J != NULL && X != NULL) ;
    GXT_OK (GrB_Matrix_extractTuples_FP64 (I, J, X, &nv, M)) ;
    for (GrB_Index q = 0 ; q < nv ; q++)
    {
        GrB_Index t = q + from ;
        if (t % 5 == 0) X [q] = NAN ;
        else if (t % 7 == 0) X [q] = (t % 2) ? INFINITY : -INFINITY ;
        else if (t % 11 == 0) X [q] = -0.0 ;
        else if (t % 13 == 0) X [q] = 1e300 ;
    }
    GXT_OK (GrB_Matrix_clear (M)) ;
    GXT_OK (GrB_Matrix_build_FP64 (M, I, J, X, nv, GrB_FIRST_FP64)) ;
    free (I) ; free (J) ; free (X) ;
}

// CHEBYSHEV's reference (its three products, or by rows where a pair may
// hold every column) is the MAX of |x-y| over all k columns, bit for bit
// (NaN where every term is), on every shape, with NaN, infinities, -0 and
// huge values among the entries
static void chebyshev_reference_equals_dense_completion (void **state)
{
    GXT_START ( ) ;
    const gxt_shape sh [9] = { GXT_SHAPE_RANDOM, GXT_SHAPE_WIDE,
        GXT_SHAPE_EMPTY_ROWS, GXT_SHAPE_DENSE_ROW, GXT_SHAPE_POWERLAW,
        GXT_SHAPE_EXPLICIT_ZEROS, GXT_SHAPE_DENSE, GXT_SHAPE_K1,
        GXT_SHAPE_N0 } ;
    GrB_BinaryOp op ;
    GXT_OK (GxB_BinaryOp_new (&op, absdiff64, GrB_FP64, GrB_FP64, GrB_FP64,
        "absdiff64", NULL)) ;
    for (int s = 0 ; s < 9 ; s++)
    {
        for (int bad = 0 ; bad < 2 ; bad++)
        {
            GrB_Matrix A, B, D = NULL, R = NULL ;
            gxt_pair (&A, &B, sh [s], GXT_MIXED) ;
            if (bad) { spoil (A, 0) ; spoil (B, 3) ; }
            GrB_Index m, n ;
            GXT_OK (GrB_Matrix_nrows (&m, A)) ;
            GXT_OK (GrB_Matrix_nrows (&n, B)) ;
            GXT_OK (GXO_metric (&D, "CHEBYSHEV", 0, GrB_FP64, A, B)) ;
            GXT_OK (GXO_union (&R, GrB_MAX_MONOID_FP64, op, 0, A, B)) ;
            for (GrB_Index i = 0 ; i < m ; i++)
            {
                for (GrB_Index j = 0 ; j < n ; j++)
                {
                    double x = 0, y = 0 ;
                    GXT_OK (GrB_Matrix_extractElement_FP64 (&x, D, i, j)) ;
                    GrB_Info info = GrB_Matrix_extractElement_FP64 (&y, R, i, j) ;
                    if (info == GrB_NO_VALUE) y = 0 ;       // k = 0
                    else GXT_OK (info) ;
                    if (!(x == y || (x != x && y != y)))
                    {
                        GXT_FAIL ("CHEBYSHEV, shape %s%s: (%llu,%llu) is "
                            "%.17g, dense completion %.17g",
                            gxt_shape_name (sh [s]), bad ? ", NaN, inf, -0"
                            : "", (unsigned long long) i,
                            (unsigned long long) j, x, y) ;
                    }
                }
            }
            GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ;
            GrB_Matrix_free (&D) ; GrB_Matrix_free (&R) ;
        }
    }
    GrB_BinaryOp_free (&op) ;
}

// a monoid other than PLUS is refused, not computed wrongly
static void plus_union_refuses_other_monoids (void **state)
{
    GXT_START ( ) ;
    GrB_Matrix A, B, D = NULL ;
    gxt_pair (&A, &B, GXT_SHAPE_RANDOM, GXT_MIXED) ;
    GrB_Info info = GXO_union_plus (&D, GrB_MAX_MONOID_FP64, GrB_MINUS_FP64,
        0, A, B, 16) ;
    if (info != GrB_DOMAIN_MISMATCH || D != NULL)
        GXT_FAIL ("MAX monoid: returned %s, expected GrB_DOMAIN_MISMATCH and "
            "no result", gxt_info_name (info)) ;
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ;
}

int main (void)
{
    init_types ( ) ;
    const struct CMUnitTest tests [] =
    {
        cmocka_unit_test (unions_equal_dense_completion_exactly),
        cmocka_unit_test (plus_union_of_user_operators_equals_dense_completion),
        cmocka_unit_test (plus_union_recomputes_cancelling_and_nonfinite_pairs),
        cmocka_unit_test (metric_sums_equal_dense_completion),
        cmocka_unit_test (metric_sums_by_classes_equal_dense_completion),
        cmocka_unit_test (sums_by_classes_equal_dense_completion_exactly),
        cmocka_unit_test (metric_sums_by_levels_equal_dense_completion),
        cmocka_unit_test (metric_sums_of_many_shared_values_equal_dense_completion),
        cmocka_unit_test (plus_union_refuses_other_monoids),
        cmocka_unit_test (union_rows_of_user_monoid_equals_dense_completion),
        cmocka_unit_test (union_rows_of_nan_terms_equal_dense_completion),
        cmocka_unit_test (chebyshev_reference_equals_dense_completion),
        cmocka_unit_test (bitwise_and_logical_unions_take_three_products),
        cmocka_unit_test (a_matrix_against_itself_equals_against_its_copy),
    } ;
    return gxt_main ("oracle_union", tests, sizeof (tests) / sizeof (tests [0])) ;
}
