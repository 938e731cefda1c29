// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// reference/oracle/oracle_util.c: typecasts, dense arrays, plain products
//------------------------------------------------------------------------------

// The oracle's plumbing between GraphBLAS objects and the plain row-major
// arrays on which it does its own element-wise arithmetic.  Arrays are copied
// out (extractTuples) and in (build), never unpacked, so they stay the
// oracle's memory and the caller's GraphBLAS allocator does not matter.

#include "oracle_internal.h"
#include <float.h>
#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <string.h>

// a zeroed array of n1*n2 items of the given size (at least one item), or
// NULL if it cannot be had: n1*n2 overflowing is out of memory too
static void *alloc_array (GrB_Index n1, GrB_Index n2, size_t size)
{
    if (n2 > 0 && n1 > (SIZE_MAX / size) / n2) return (NULL) ;
    size_t n = (size_t) (n1 * n2) ;
    return (calloc (n > 0 ? n : 1, size)) ;
}

//------------------------------------------------------------------------------
// GXO_cast: C = (double) (type) A
//------------------------------------------------------------------------------

#undef  FREE_ALL
#define FREE_ALL GrB_Matrix_free (&T) ; GrB_Matrix_free (&C64) ;

GrB_Info GXO_cast (GrB_Matrix *C, GrB_Type type, GrB_Matrix A)
{
    GrB_Matrix T = NULL, C64 = NULL ;
    GrB_Index m, k ;
    TRY (GrB_Matrix_nrows (&m, A)) ;
    TRY (GrB_Matrix_ncols (&k, A)) ;
    // assign typecasts A into T's type and keeps every entry, explicit
    // zeros included, whatever A's format (sparse, hyper, bitmap, full, iso)
    TRY (GrB_Matrix_new (&T, type, m, k)) ;
    TRY (GrB_Matrix_assign (T, NULL, NULL, A, GrB_ALL, m, GrB_ALL, k, NULL)) ;
    TRY (GrB_Matrix_new (&C64, GrB_FP64, m, k)) ;
    TRY (GrB_Matrix_assign (C64, NULL, NULL, T, GrB_ALL, m, GrB_ALL, k, NULL));
    GrB_Matrix_free (&T) ;
    *C = C64 ;
    return (GrB_SUCCESS) ;
}

//------------------------------------------------------------------------------
// GXO_operands: Ad, Bd = A, B cast to type (FP32 or FP64), then FP64
//------------------------------------------------------------------------------

#undef  FREE_ALL
#define FREE_ALL GrB_Matrix_free (Ad) ; GrB_Matrix_free (Bd) ;

GrB_Info GXO_operands (GrB_Matrix *Ad, GrB_Matrix *Bd, GrB_Type type,
    GrB_Matrix A, GrB_Matrix B)
{
    if (Ad != NULL) *Ad = NULL ;
    if (Bd != NULL) *Bd = NULL ;
    CHECK (type != NULL && A != NULL && B != NULL, GrB_NULL_POINTER) ;
    CHECK (type == GrB_FP32 || type == GrB_FP64, GrB_DOMAIN_MISMATCH) ;
    GrB_Index ka, kb ;
    TRY (GrB_Matrix_ncols (&ka, A)) ;
    TRY (GrB_Matrix_ncols (&kb, B)) ;
    CHECK (ka == kb, GrB_DIMENSION_MISMATCH) ;
    if (Ad == NULL || Bd == NULL) return (GrB_SUCCESS) ;
    TRY (GXO_cast (Ad, type, A)) ;
    TRY (GXO_cast (Bd, type, B)) ;
    return (GrB_SUCCESS) ;
}

//------------------------------------------------------------------------------
// GXO_to_dense: X = M as a row-major array, missing entries 0
//------------------------------------------------------------------------------

#undef  FREE_ALL
#define FREE_ALL free (I) ; free (J) ; free (V) ; free (Y) ;

GrB_Index GXO_block_rows (GrB_Index n)
{
    GrB_Index rows = GXO_BLOCK_BYTES / ((n > 0 ? n : 1) * sizeof (double)) ;
    return ((rows > 0) ? rows : 1) ;
}

int GXO_iterate_blocks (void)
{
    return 4 * omp_get_max_threads () ;
}

bool GXO_iterable (GrB_Matrix M, bool *fp64, GrB_Index *nrows)
{
    GrB_Type type ;
    if (GxB_Matrix_type (&type, M) != GrB_SUCCESS) return (false) ;
    if (type != GrB_FP64 && type != GrB_FP32) return (false) ;
    if (GrB_Matrix_wait (M, GrB_MATERIALIZE) != GrB_SUCCESS) return (false) ;
    if (GrB_Matrix_nrows (nrows, M) != GrB_SUCCESS) return (false) ;
    // a probe: a matrix held by column cannot be iterated by row
    GxB_Iterator it = NULL ;
    if (GxB_Iterator_new (&it) != GrB_SUCCESS) return (false) ;
    bool by_row = (GxB_rowIterator_attach (it, M, NULL) == GrB_SUCCESS) ;
    GrB_free (&it) ;
    *fp64 = (type == GrB_FP64) ;
    return (by_row) ;
}

bool GXO_iterate (GrB_Matrix M, int nblocks,
    void (*visit) (void *, GrB_Index, GrB_Index, double), void **args)
{
    bool fp64, ok = true ;
    GrB_Index nrows ;
    if (!GXO_iterable (M, &fp64, &nrows)) return (false) ;
    if (nblocks < 1) nblocks = 1 ;
    #pragma omp parallel for schedule(dynamic, 1) reduction(&&:ok)
    for (int b = 0 ; b < nblocks ; b++)
    {
        GrB_Index i0 = nrows * b / nblocks, i1 = nrows * (b + 1) / nblocks ;
        if (i0 < i1)
        {
            ok = GXO_visit_rows (M, fp64, i0, i1, visit, args [b]) && ok ;
        }
    }
    return (ok) ;
}

typedef struct { double *Y ; GrB_Index ncols ; } dense_arg ;

static void put (void *arg, GrB_Index i, GrB_Index j, double x)
{
    dense_arg *d = arg ;
    d->Y [i * d->ncols + j] = x ;
}

GrB_Info GXO_to_dense (double **X, GrB_Matrix M)
{
    GrB_Index *I = NULL, *J = NULL ;
    double *V = NULL, *Y = NULL ;
    GrB_Index nrows, ncols, nvals ;
    TRY (GrB_Matrix_nrows (&nrows, M)) ;
    TRY (GrB_Matrix_ncols (&ncols, M)) ;
    TRY (GrB_Matrix_nvals (&nvals, M)) ;
    Y = alloc_array (nrows, ncols, sizeof (double)) ;
    CHECK (Y != NULL, GrB_OUT_OF_MEMORY) ;
    // every block writes its own rows of Y: one shared argument
    dense_arg d = { Y, ncols } ;
    int nb = GXO_iterate_blocks () ;
    void **args = malloc (nb * sizeof (void *)) ;
    CHECK (args != NULL, GrB_OUT_OF_MEMORY) ;
    for (int b = 0 ; b < nb ; b++) args [b] = &d ;
    bool done = GXO_iterate (M, nb, put, args) ;
    free (args) ;
    if (done)
    {
        *X = Y ;
        return (GrB_SUCCESS) ;
    }
    I = alloc_array (nvals, 1, sizeof (GrB_Index)) ;
    J = alloc_array (nvals, 1, sizeof (GrB_Index)) ;
    V = alloc_array (nvals, 1, sizeof (double)) ;
    CHECK (Y != NULL && I != NULL && J != NULL && V != NULL,
        GrB_OUT_OF_MEMORY) ;
    // the tuples come in no promised order: each is placed by its (i,j)
    TRY (GrB_Matrix_extractTuples_FP64 (I, J, V, &nvals, M)) ;
    for (GrB_Index q = 0 ; q < nvals ; q++)
    {
        Y [I [q] * ncols + J [q]] = V [q] ;
    }
    free (I) ;
    free (J) ;
    free (V) ;
    *X = Y ;
    return (GrB_SUCCESS) ;
}

//------------------------------------------------------------------------------
// GXO_full_open, GXO_full_close: a full FP64 matrix's own array, in place
//------------------------------------------------------------------------------

#undef  FREE_ALL
#define FREE_ALL ;

GrB_Info GXO_full_open (gxo_full *F, GrB_Matrix M)
{
    GrB_Type type ;
    GrB_Index nrows, ncols, nvals ;
    F->M = NULL ;
    F->x = NULL ;
    TRY (GxB_Matrix_type (&type, M)) ;
    TRY (GrB_Matrix_nrows (&nrows, M)) ;
    TRY (GrB_Matrix_ncols (&ncols, M)) ;
    TRY (GrB_Matrix_nvals (&nvals, M)) ;
    if (type != GrB_FP64 || nvals != nrows * ncols) return (GrB_NO_VALUE) ;
    void *x = NULL ;
    TRY (GxB_Matrix_unpack_FullR (M, &x, &F->size, &F->iso, NULL)) ;
    F->M = M ;
    F->x = x ;
    return (GrB_SUCCESS) ;
}

GrB_Info GXO_full_close (gxo_full *F)
{
    if (F->M == NULL) return (GrB_SUCCESS) ;
    void *x = F->x ;
    GrB_Info info = GxB_Matrix_pack_FullR (F->M, &x, F->size, F->iso, NULL) ;
    F->M = NULL ;
    F->x = NULL ;
    return (info) ;
}

//------------------------------------------------------------------------------
// GXO_applied: S = op applied to M
//------------------------------------------------------------------------------

#undef  FREE_ALL
#define FREE_ALL GrB_Matrix_free (S) ;

GrB_Info GXO_applied (GrB_Matrix *S, GrB_UnaryOp op, GrB_Matrix M)
{
    GrB_Index nrows, ncols ;
    TRY (GrB_Matrix_nrows (&nrows, M)) ;
    TRY (GrB_Matrix_ncols (&ncols, M)) ;
    TRY (GrB_Matrix_new (S, GrB_FP64, nrows, ncols)) ;
    TRY (GrB_Matrix_apply (*S, NULL, NULL, op, M, NULL)) ;
    return (GrB_SUCCESS) ;
}

//------------------------------------------------------------------------------
// GXO_full_values: a full FP64 matrix's values, open
//------------------------------------------------------------------------------

#undef  FREE_ALL
#define FREE_ALL (void) GXO_full_close (F) ;

GrB_Info GXO_full_values (gxo_full *F, GrB_Index *nrows, GrB_Index *ncols,
    GrB_Matrix C)
{
    F->M = NULL ;
    TRY (GrB_Matrix_nrows (nrows, C)) ;
    TRY (GrB_Matrix_ncols (ncols, C)) ;
    TRY (GXO_full_open (F, C)) ;
    CHECK (F->M != NULL && (!F->iso || *nrows * *ncols <= 1),
        GrB_INVALID_VALUE) ;
    return (GrB_SUCCESS) ;
}

//------------------------------------------------------------------------------
// GXO_flagged: the pairs of a block that a test marks
//------------------------------------------------------------------------------

// Each test gives 1 where it marks a pair, else 0: a double, so that the
// count of a row is vectorised (an integer count of double comparisons is
// not, on x86-64's baseline), each in a loop of its own.

static inline double distrusted (double x, double r, double c)
{
    double ax = fabs (x), big = (r > ax) ? r : ax ;
    return ((r <= c * ax && big <= DBL_MAX) ? 0.0 : 1.0) ;
}

static inline double norm_out (double x)
{
    return ((x >= 0x1p-900 && x <= DBL_MAX) ? 0.0 : 1.0) ;
}

static inline double over_out (double x)
{
    return ((x <= DBL_MAX) ? 0.0 : 1.0) ;
}

static inline double ratio_out (double x, double y)
{
    return ((x <= DBL_MAX && y <= DBL_MAX) ? 0.0 : 1.0) ;
}

static inline double unknown (double x)
{
    return ((x == x) ? 0.0 : 1.0) ;
}

// LOOP (test) once for each flag, with its test of pair j of the row (x,
// y: the row's values; a: the row's term; b, c: as GXO_flagged's), so that
// each loop is compiled with its own test
#define EACH_FLAG(LOOP)                                                     \
    switch (flag)                                                           \
    {                                                                       \
        case GXO_FLAG_DISTRUSTED :                                          \
            LOOP (distrusted (x [j], a + b [j], c)) ; break ;               \
        case GXO_FLAG_NORM :                                                \
            LOOP (norm_out (x [j])) ; break ;                               \
        case GXO_FLAG_OVERFLOW :                                            \
            LOOP (over_out (x [j])) ; break ;                               \
        case GXO_FLAG_NAN :                                                 \
            LOOP (unknown (x [j])) ; break ;                                \
        default :                                                           \
            LOOP (ratio_out (x [j], y [j])) ; break ;                       \
    }

// the pairs that flag marks in a row
static GrB_Index row_count (gxo_flag flag, const double *x, const double *y,
    double a, const double *b, double c, GrB_Index n)
{
    double cnt = 0 ;
    #define COUNT(test)                                                     \
        _Pragma ("omp simd reduction(+:cnt)")                               \
        for (GrB_Index j = 0 ; j < n ; j++) cnt += test
    EACH_FLAG (COUNT)
    #undef COUNT
    return ((GrB_Index) cnt) ;
}

// I [q..], J [q..] = row i's pairs that flag marks, up to q = end
static void row_list (gxo_flag flag, const double *x, const double *y,
    double a, const double *b, double c, GrB_Index i, GrB_Index *I,
    GrB_Index *J, GrB_Index q, GrB_Index end)
{
    #define LIST(test)                                                      \
        for (GrB_Index j = 0 ; q < end ; j++)                               \
        {                                                                   \
            if (test != 0) { I [q] = i ; J [q++] = j ; }                    \
        }
    EACH_FLAG (LIST)
    #undef LIST
}

#undef  FREE_ALL
#define FREE_ALL free (start) ; free (*I) ; free (*J) ; *I = NULL ;           \
    *J = NULL ;

GrB_Info GXO_flagged (GrB_Index **I, GrB_Index **J, GrB_Index *np,
    gxo_flag flag, const double *x, const double *y, const double *a,
    const double *b, double c, GrB_Index mb, GrB_Index n)
{
    GrB_Index *start = NULL ;
    *I = NULL ;
    *J = NULL ;
    *np = 0 ;
    CHECK (flag != GXO_FLAG_DISTRUSTED || (a != NULL && b != NULL),
        GrB_NULL_POINTER) ;
    CHECK (flag != GXO_FLAG_RATIO || y != NULL, GrB_NULL_POINTER) ;
    start = calloc (mb + 1, sizeof (GrB_Index)) ;
    CHECK (start != NULL, GrB_OUT_OF_MEMORY) ;
    // a row at a time on every thread, a count first, then the pairs of
    // the rows that have any
    #pragma omp parallel for schedule(dynamic, 16)
    for (GrB_Index i = 0 ; i < mb ; i++)
    {
        start [i + 1] = row_count (flag, x + i * n, y ? y + i * n : NULL,
            a ? a [i] : 0, b, c, n) ;
    }
    for (GrB_Index i = 0 ; i < mb ; i++) start [i + 1] += start [i] ;
    *I = calloc (start [mb] + 1, sizeof (GrB_Index)) ;
    *J = calloc (start [mb] + 1, sizeof (GrB_Index)) ;
    CHECK (*I != NULL && *J != NULL, GrB_OUT_OF_MEMORY) ;
    #pragma omp parallel for schedule(dynamic, 16)
    for (GrB_Index i = 0 ; i < mb ; i++)
    {
        row_list (flag, x + i * n, y ? y + i * n : NULL, a ? a [i] : 0, b, c,
            i, *I, *J, start [i], start [i + 1]) ;
    }
    *np = start [mb] ;
    free (start) ;
    return (GrB_SUCCESS) ;
}

//------------------------------------------------------------------------------
// GXO_full_new, GXO_full_zero: a full FP64 matrix to write in place
//------------------------------------------------------------------------------

#undef  FREE_ALL
#define FREE_ALL GrB_Matrix_free (C) ;

GrB_Info GXO_full_new (GrB_Matrix *C, GrB_Index nrows, GrB_Index ncols)
{
    TRY (GrB_Matrix_new (C, GrB_FP64, nrows, ncols)) ;
    TRY (GxB_Matrix_Option_set (*C, GxB_FORMAT, GxB_BY_ROW)) ;
    TRY (GrB_Matrix_assign_FP64 (*C, NULL, NULL, 0, GrB_ALL, nrows, GrB_ALL,
        ncols, NULL)) ;
    TRY (GXO_full_expand (*C)) ;
    return (GrB_SUCCESS) ;
}

#undef  FREE_ALL
#define FREE_ALL ;

GrB_Info GXO_full_expand (GrB_Matrix C)
{
    GrB_Index nrows, ncols ;
    bool iso ;
    double x ;
    TRY (GrB_Matrix_nrows (&nrows, C)) ;
    TRY (GrB_Matrix_ncols (&ncols, C)) ;
    TRY (GxB_Matrix_iso (&iso, C)) ;
    if (!iso || nrows * ncols <= 1) return (GrB_SUCCESS) ;
    // an iso matrix with one entry changed holds a value per entry
    TRY (GrB_Matrix_extractElement_FP64 (&x, C, 0, 0)) ;
    TRY (GrB_Matrix_setElement_FP64 (C, (x == 0) ? 1 : 0, 0, 0)) ;
    TRY (GrB_Matrix_setElement_FP64 (C, x, 0, 0)) ;
    TRY (GrB_Matrix_wait (C, GrB_MATERIALIZE)) ;
    return (GrB_SUCCESS) ;
}

#undef  FREE_ALL
#define FREE_ALL (void) GXO_full_close (&FC) ; (void) GXO_full_close (&FM) ;   \
    GrB_Matrix_free (&M64) ;

GrB_Info GXO_full_copy (GrB_Matrix C, GrB_Matrix M)
{
    gxo_full FC = { NULL, NULL, 0, false }, FM = { NULL, NULL, 0, false } ;
    GrB_Matrix M64 = NULL ;
    GrB_Index nrows, ncols ;
    TRY (GrB_Matrix_nrows (&nrows, M)) ;
    TRY (GrB_Matrix_ncols (&ncols, M)) ;
    TRY (GrB_Matrix_new (&M64, GrB_FP64, nrows, ncols)) ;
    TRY (GrB_Matrix_assign (M64, NULL, NULL, M, GrB_ALL, nrows, GrB_ALL,
        ncols, NULL)) ;
    TRY (GXO_full_open (&FC, C)) ;
    TRY (GXO_full_open (&FM, M64)) ;
    CHECK (FC.M != NULL && FM.M != NULL && !(FC.iso && nrows * ncols > 1),
        GrB_INVALID_VALUE) ;
    double *x = FC.x ;
    const double *y = FM.x ;
    GrB_Index n = nrows * ncols ;
    for (GrB_Index q = 0 ; q < n ; q++) x [q] = y [FM.iso ? 0 : q] ;
    FREE_ALL ;
    return (GrB_SUCCESS) ;
}

#undef  FREE_ALL
#define FREE_ALL (void) GXO_full_close (&F) ;

GrB_Info GXO_full_zero (GrB_Matrix C)
{
    gxo_full F = { NULL, NULL, 0, false } ;
    GrB_Index nrows, ncols ;
    TRY (GXO_full_expand (C)) ;
    TRY (GXO_full_values (&F, &nrows, &ncols, C)) ;
    double *x = F.x ;
    #pragma omp parallel for schedule(static)
    for (GrB_Index i = 0 ; i < nrows ; i++)
    {
        if (ncols > 0) memset (x + i * ncols, 0, ncols * sizeof (double)) ;
    }
    return (GXO_full_close (&F)) ;
}

//------------------------------------------------------------------------------
// GXO_from_dense: M = a full FP64 matrix holding the row-major array X
//------------------------------------------------------------------------------

// GraphBLAS makes a full FP64 matrix of distinct values (a Kronecker sum of a
// column and a row, which cannot be iso), whose own row-major array is then
// overwritten with X (unpacked and packed back in place: the array stays
// GraphBLAS's, whatever allocator it uses).  Where that matrix comes out iso
// (one entry), the array is built from tuples instead.
#undef  FREE_ALL
#define FREE_ALL                                                            \
    free (I) ; free (J) ; GrB_Matrix_free (&C) ; GrB_Matrix_free (&a) ;     \
    GrB_Matrix_free (&b) ;

GrB_Info GXO_from_dense (GrB_Matrix *M, GrB_Index nrows, GrB_Index ncols,
    const double *X)
{
    GrB_Index *I = NULL, *J = NULL ;
    GrB_Matrix C = NULL, a = NULL, b = NULL ;
    GrB_Index n = nrows * ncols ;
    TRY (GrB_Matrix_new (&C, GrB_FP64, nrows, ncols)) ;
    if (n >= 2)
    {
        TRY (GrB_Matrix_new (&a, GrB_FP64, nrows, 1)) ;
        TRY (GrB_Matrix_new (&b, GrB_FP64, 1, ncols)) ;
        TRY (GrB_Matrix_assign_FP64 (a, NULL, NULL, 0, GrB_ALL, nrows, GrB_ALL,
            1, NULL)) ;
        TRY (GrB_Matrix_assign_FP64 (b, NULL, NULL, 0, GrB_ALL, 1, GrB_ALL,
            ncols, NULL)) ;
        TRY (GrB_Matrix_setElement_FP64 (a, 1, 0, 0)) ;
        TRY (GrB_Matrix_setElement_FP64 (b, 2, 0, 0)) ;
        TRY (GrB_Matrix_kronecker_BinaryOp (C, NULL, NULL, GrB_PLUS_FP64, a, b,
            NULL)) ;
        void *Cx = NULL ;
        GrB_Index size = 0 ;
        bool iso = true ;
        TRY (GxB_Matrix_unpack_FullR (C, &Cx, &size, &iso, NULL)) ;
        bool ok = !iso && size >= n * sizeof (double) ;
        if (ok) memcpy (Cx, X, n * sizeof (double)) ;
        TRY (GxB_Matrix_pack_FullR (C, &Cx, size, iso, NULL)) ;
        if (ok)
        {
            GrB_Matrix_free (&a) ;
            GrB_Matrix_free (&b) ;
            *M = C ;
            return (GrB_SUCCESS) ;
        }
    }
    I = alloc_array (nrows, ncols, sizeof (GrB_Index)) ;
    J = alloc_array (nrows, ncols, sizeof (GrB_Index)) ;
    CHECK (I != NULL && J != NULL, GrB_OUT_OF_MEMORY) ;
    for (GrB_Index q = 0 ; q < n ; q++)
    {
        I [q] = q / ncols ;
        J [q] = q % ncols ;
    }
    // no (i,j) repeats, so the dup operator is never applied
    TRY (GrB_Matrix_clear (C)) ;
    TRY (GrB_Matrix_build_FP64 (C, I, J, X, n, GrB_FIRST_FP64)) ;
    free (I) ;
    free (J) ;
    GrB_Matrix_free (&a) ;
    GrB_Matrix_free (&b) ;
    *M = C ;
    return (GrB_SUCCESS) ;
}

//------------------------------------------------------------------------------
// GXO_product: X = dense (A (+).(x) B'), intersection semantics
//------------------------------------------------------------------------------

#undef  FREE_ALL
#define FREE_ALL GrB_Matrix_free (&T) ;

GrB_Info GXO_product (double **X, GrB_Semiring semiring, GrB_Matrix A,
    GrB_Matrix B)
{
    GrB_Matrix T = NULL ;
    GrB_Index m, n ;
    TRY (GrB_Matrix_nrows (&m, A)) ;
    TRY (GrB_Matrix_nrows (&n, B)) ;
    TRY (GrB_Matrix_new (&T, GrB_FP64, m, n)) ;
    TRY (GrB_mxm (T, NULL, NULL, semiring, A, B, GrB_DESC_T1)) ;
    TRY (GXO_to_dense (X, T)) ;
    GrB_Matrix_free (&T) ;
    return (GrB_SUCCESS) ;
}

//------------------------------------------------------------------------------
// GXO_apply_scalars: z = f (x, y) of two scalars
//------------------------------------------------------------------------------

// GraphBLAS applies an operator to matrices only: x goes into a 1-by-1
// matrix of xtype, f (., y) is applied to it, and the one entry comes back

#undef  FREE_ALL
#define FREE_ALL                                                            \
    GrB_Matrix_free (&X) ; GrB_Matrix_free (&Z) ; GrB_Scalar_free (z) ;

GrB_Info GXO_apply_scalars (GrB_Scalar *z, double *z64, GrB_BinaryOp f,
    GrB_Type xtype, GrB_Scalar x, GrB_Scalar y)
{
    GrB_Matrix X = NULL, Z = NULL ;
    *z = NULL ;
    GrB_Type ztype ;
    TRY (GxB_BinaryOp_ztype (&ztype, f)) ;
    TRY (GrB_Matrix_new (&X, xtype, 1, 1)) ;
    TRY (GrB_Matrix_setElement_Scalar (X, x, 0, 0)) ;
    TRY (GrB_Matrix_new (&Z, ztype, 1, 1)) ;
    TRY (GrB_Matrix_apply_BinaryOp2nd_Scalar (Z, NULL, NULL, f, X, y, NULL)) ;
    TRY (GrB_Scalar_new (z, ztype)) ;
    TRY (GrB_Matrix_extractElement_Scalar (*z, Z, 0, 0)) ;
    TRY (GrB_Scalar_extractElement_FP64 (z64, *z)) ;
    GrB_Matrix_free (&X) ;
    GrB_Matrix_free (&Z) ;
    return (GrB_SUCCESS) ;
}

//------------------------------------------------------------------------------
// GXO_type_ops: TIMES, FIRST and SECOND of a built-in real type
//------------------------------------------------------------------------------

#define OPS(T)                                                              \
    if (type == GrB_ ## T)                                                  \
    {                                                                       \
        if (times != NULL) *times = GrB_TIMES_ ## T ;                       \
        if (first != NULL) *first = GrB_FIRST_ ## T ;                       \
        if (second != NULL) *second = GrB_SECOND_ ## T ;                    \
        return (true) ;                                                     \
    }

bool GXO_type_ops (GrB_BinaryOp *times, GrB_BinaryOp *first,
    GrB_BinaryOp *second, GrB_Type type)
{
    OPS (BOOL) OPS (INT8) OPS (INT16) OPS (INT32) OPS (INT64) OPS (UINT8)
    OPS (UINT16) OPS (UINT32) OPS (UINT64) OPS (FP32) OPS (FP64)
    return (false) ;
}

#undef OPS
