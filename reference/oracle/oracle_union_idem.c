// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// reference/oracle/oracle_union_idem.c: a MAX or MIN union in three products
//------------------------------------------------------------------------------

// GXO_union's definition, add_{c<k} f(a~_c, b~_c), for add a built-in MAX,
// MIN, LOR, LAND, BOR or BAND (idempotent: x add x = x, so that f(e,e) is
// added once however many columns both rows miss), for every row of A at
// once.  Where every
// pair leaves a column out (|A_i| + |B_j| < k), each pair's terms are those
// of three products, each added into D:
//
//   c in A_i and B_j:   f (x_c, y_c)   A add.f B'
//   c in A_i only:      f (x_c, e)     F_A(:,U) add.FIRST N_B',  F_A = f(A,e),
//                                       N_B = 1 where B lacks a column of U
//   c in B_j only:      f (e, y_c)     N_A add.SECOND F_B(:,V)', F_B = f(e,B),
//                                       N_A = 1 where A lacks a column of V
//   c in neither:       f (e, e)       D's start, every pair
//
// (U, V: the columns A, B hold).  A term that two products both give is
// the same, and add takes it once.  N_A and N_B are as dense as completed
// rows, but GraphBLAS runs its compiled FIRST and SECOND kernels on them,
// in parts of at most GXO_IDEM_PART entries; f itself is called for the
// common columns only.  Where some pair may hold every column, or add is
// another monoid (TIMES, a user's; PLUS has GXO_union_plus),
// GXO_union_rows goes a row at a time.

#include "oracle_internal.h"

#define GXO_IDEM_PART (1 << 20)

// is add's operator a built-in MAX, MIN, LOR, LAND, BOR or BAND?  (A
// monoid a library made of one, as gxbdist's semirings do, is not
// GrB_MAX_MONOID_FP64 itself.)  GxB_LOR_FP64 and its like are not: x LOR x
// is 1, not x.
static bool idempotent (GrB_Monoid add)
{
    const GrB_BinaryOp ops [ ] =
    {
        GrB_MAX_INT8,   GrB_MAX_INT16,  GrB_MAX_INT32,  GrB_MAX_INT64,
        GrB_MAX_UINT8,  GrB_MAX_UINT16, GrB_MAX_UINT32, GrB_MAX_UINT64,
        GrB_MAX_FP32,   GrB_MAX_FP64,   GrB_MIN_INT8,   GrB_MIN_INT16,
        GrB_MIN_INT32,  GrB_MIN_INT64,  GrB_MIN_UINT8,  GrB_MIN_UINT16,
        GrB_MIN_UINT32, GrB_MIN_UINT64, GrB_MIN_FP32,   GrB_MIN_FP64,
        GrB_LOR,        GrB_LAND,       GrB_BOR_UINT8,  GrB_BOR_UINT16,
        GrB_BOR_UINT32, GrB_BOR_UINT64, GrB_BAND_UINT8, GrB_BAND_UINT16,
        GrB_BAND_UINT32, GrB_BAND_UINT64
    } ;
    GrB_BinaryOp op = NULL ;
    if (GxB_Monoid_operator (&op, add) != GrB_SUCCESS) return (false) ;
    for (size_t q = 0 ; q < sizeof (ops) / sizeof (ops [0]) ; q++)
    {
        if (op == ops [q]) return (true) ;
    }
    return (false) ;
}

// *J (new), *nj: the columns M holds, in order
#undef  FREE_ALL
#define FREE_ALL GrB_Vector_free (&u) ; free (*J) ; *J = NULL ;

static GrB_Info held_columns (GrB_Index **J, GrB_Index *nj, GrB_Matrix M)
{
    GrB_Vector u = NULL ;
    GrB_Index k ;
    *J = NULL ;
    TRY (GrB_Matrix_ncols (&k, M)) ;
    TRY (GrB_Vector_new (&u, GrB_BOOL, k)) ;
    TRY (GrB_Matrix_reduce_Monoid (u, NULL, NULL, GxB_ANY_BOOL_MONOID, M,
        GrB_DESC_T0)) ;
    TRY (GrB_Vector_nvals (nj, u)) ;
    *J = malloc ((*nj + 1) * sizeof (GrB_Index)) ;
    CHECK (*J != NULL, GrB_OUT_OF_MEMORY) ;
    TRY (GrB_Vector_extractTuples_BOOL (*J, NULL, nj, u)) ;
    GrB_Vector_free (&u) ;
    return (GrB_SUCCESS) ;
}

// the most entries a row of M holds
#undef  FREE_ALL
#define FREE_ALL GrB_Matrix_free (&P) ; GrB_Vector_free (&r) ;

static GrB_Info most_per_row (GrB_Index *most, GrB_Matrix M)
{
    GrB_Matrix P = NULL ;
    GrB_Vector r = NULL ;
    GrB_Index m, k ;
    uint64_t top = 0 ;
    TRY (GrB_Matrix_nrows (&m, M)) ;
    TRY (GrB_Matrix_ncols (&k, M)) ;
    TRY (GrB_Matrix_new (&P, GrB_UINT64, m, k)) ;
    TRY (GrB_Matrix_apply (P, NULL, NULL, GxB_ONE_UINT64, M, NULL)) ;
    TRY (GrB_Vector_new (&r, GrB_UINT64, m)) ;
    TRY (GrB_Matrix_reduce_Monoid (r, NULL, NULL, GrB_PLUS_MONOID_UINT64, P,
        NULL)) ;
    TRY (GrB_Vector_reduce_UINT64 (&top, NULL, GrB_MAX_MONOID_UINT64, r,
        NULL)) ;
    *most = top ;
    FREE_ALL ;
    return (GrB_SUCCESS) ;
}

// *F (nr-by-nj, of first's type) = 1 where M (rows r0 .. r0 + nr - 1,
// columns J [0..nj-1]) has no entry: ones everywhere (iso), then those
// outside M's pattern by an apply (an assign under the complemented mask
// instead goes through pending tuples and a sort)
#undef  FREE_ALL
#define FREE_ALL GrB_Matrix_free (&T) ; GrB_Matrix_free (&O) ;                \
    GrB_Matrix_free (F) ;

static GrB_Info missing (GrB_Matrix *F, GrB_BinaryOp first, GrB_Matrix M,
    GrB_Index r0, GrB_Index nr, const GrB_Index *J, GrB_Index nj)
{
    GrB_Matrix T = NULL, O = NULL ;
    GrB_Type mt, t ;
    TRY (GxB_BinaryOp_ztype (&t, first)) ;
    GrB_Index rows [2] = { r0, r0 + nr - 1 } ;
    TRY (GxB_Matrix_type (&mt, M)) ;
    TRY (GrB_Matrix_new (&T, mt, nr, nj)) ;
    TRY (GrB_Matrix_extract (T, NULL, NULL, M, rows, GxB_RANGE, J, nj, NULL)) ;
    TRY (GrB_Matrix_new (&O, t, nr, nj)) ;
    TRY (GrB_Matrix_assign_INT32 (O, NULL, NULL, 1, GrB_ALL, nr, GrB_ALL, nj,
        NULL)) ;
    TRY (GrB_Matrix_new (F, t, nr, nj)) ;
    TRY (GrB_Matrix_apply_BinaryOp2nd_INT32 (*F, T, NULL, first, O, 1,
        GrB_DESC_SC)) ;
    GrB_Matrix_free (&T) ;
    GrB_Matrix_free (&O) ;
    return (GrB_SUCCESS) ;
}

// D (rows r0 .., columns c0 .. of it, full) add= L (+).(x) R'
#undef  FREE_ALL
#define FREE_ALL GrB_Matrix_free (&T) ;

static GrB_Info add_into (GrB_Matrix D, GrB_Index r0, GrB_Index c0,
    GrB_BinaryOp addop, GrB_Semiring ring, GrB_Matrix L, GrB_Matrix R)
{
    GrB_Matrix T = NULL ;
    GrB_Type t ;
    GrB_Index nl, nr ;
    TRY (GrB_Matrix_nrows (&nl, L)) ;
    TRY (GrB_Matrix_nrows (&nr, R)) ;
    if (nl == 0 || nr == 0) return (GrB_SUCCESS) ;
    TRY (GxB_Matrix_type (&t, D)) ;
    TRY (GrB_Matrix_new (&T, t, nl, nr)) ;
    TRY (GrB_mxm (T, NULL, NULL, ring, L, R, GrB_DESC_T1)) ;
    GrB_Index rows [2] = { r0, r0 + nl - 1 }, cols [2] = { c0, c0 + nr - 1 } ;
    TRY (GrB_Matrix_assign (D, NULL, addop, T, rows, GxB_RANGE, cols,
        GxB_RANGE, NULL)) ;
    FREE_ALL ;
    return (GrB_SUCCESS) ;
}

// D add= the terms of the columns only one row of a pair holds: F (that
// side's terms, f(x,e) or f(e,y), by row of M) at the columns U that M
// holds, against the pattern of the columns of U each row of O (the other
// side) lacks, in parts of O's rows.  left: M is D's rows' side (A), ring
// add.FIRST; else D's columns' (B), add.SECOND.
#undef  FREE_ALL
#define FREE_ALL GrB_Matrix_free (&L) ; GrB_Matrix_free (&N) ; free (U) ;

static GrB_Info own_columns (GrB_Matrix D, GrB_BinaryOp addop,
    GrB_Semiring ring, GrB_BinaryOp first, GrB_Matrix F, GrB_Matrix M,
    GrB_Matrix O, bool left)
{
    GrB_Matrix L = NULL, N = NULL ;
    GrB_Index *U = NULL, nu, mm, no ;
    GrB_Type t ;
    TRY (held_columns (&U, &nu, M)) ;
    if (nu == 0) { FREE_ALL ; return (GrB_SUCCESS) ; }
    TRY (GrB_Matrix_nrows (&mm, F)) ;
    TRY (GrB_Matrix_nrows (&no, O)) ;
    TRY (GxB_Matrix_type (&t, F)) ;
    GrB_Index all [2] = { 0, mm - 1 } ;
    TRY (GrB_Matrix_new (&L, t, mm, nu)) ;
    TRY (GrB_Matrix_extract (L, NULL, NULL, F, all, GxB_RANGE, U, nu, NULL)) ;
    GrB_Index part = GXO_IDEM_PART / nu + 1 ;
    for (GrB_Index r0 = 0 ; r0 < no ; r0 += part)
    {
        GrB_Index nr = (part < no - r0) ? part : no - r0 ;
        TRY (missing (&N, first, O, r0, nr, U, nu)) ;
        TRY (left ? add_into (D, 0, r0, addop, ring, L, N)
                  : add_into (D, r0, 0, addop, ring, N, L)) ;
        GrB_Matrix_free (&N) ;
    }
    FREE_ALL ;
    return (GrB_SUCCESS) ;
}

#undef  FREE_ALL
#define FREE_ALL                                                            \
    GrB_Semiring_free (&ring) ; GrB_Semiring_free (&rfirst) ;               \
    GrB_Semiring_free (&rsecond) ; GrB_Scalar_free (&ex) ;                  \
    GrB_Scalar_free (&ey) ; GrB_Scalar_free (&fee) ; GrB_Matrix_free (&FA) ;\
    GrB_Matrix_free (&FB) ; GrB_Matrix_free (&C) ;

GrB_Info GXO_union_idem (GrB_Matrix *D, bool *done, GrB_Monoid add,
    GrB_BinaryOp mult, double identity, GrB_Matrix A, GrB_Matrix B)
{
    GrB_Semiring ring = NULL, rfirst = NULL, rsecond = NULL ;
    GrB_Scalar ex = NULL, ey = NULL, fee = NULL ;
    GrB_Matrix FA = NULL, FB = NULL, C = NULL ;
    GrB_Index m, n, k, ma, nb ;
    GrB_Type xtype, ytype, ztype ;
    GrB_BinaryOp addop, first, second ;
    double fee64 ;
    *D = NULL ;
    *done = false ;
    TRY (GrB_Matrix_nrows (&m, A)) ;
    TRY (GrB_Matrix_nrows (&n, B)) ;
    TRY (GrB_Matrix_ncols (&k, A)) ;
    TRY (GxB_BinaryOp_xtype (&xtype, mult)) ;
    TRY (GxB_BinaryOp_ytype (&ytype, mult)) ;
    TRY (GxB_BinaryOp_ztype (&ztype, mult)) ;
    if (!idempotent (add) || k == 0 || m == 0 || n == 0 ||
        !GXO_type_ops (NULL, &first, &second, ztype))
    {
        return (GrB_SUCCESS) ;
    }
    TRY (most_per_row (&ma, A)) ;
    TRY (most_per_row (&nb, B)) ;
    if (ma + nb >= k) return (GrB_SUCCESS) ;
    TRY (GxB_Monoid_operator (&addop, add)) ;
    TRY (GrB_Semiring_new (&ring, add, mult)) ;
    TRY (GrB_Semiring_new (&rfirst, add, first)) ;
    TRY (GrB_Semiring_new (&rsecond, add, second)) ;
    TRY (GrB_Scalar_new (&ex, xtype)) ;
    TRY (GrB_Scalar_new (&ey, ytype)) ;
    TRY (GrB_Scalar_setElement_FP64 (ex, identity)) ;
    TRY (GrB_Scalar_setElement_FP64 (ey, identity)) ;
    // D = f(e,e) everywhere: every pair leaves a column out
    TRY (GXO_apply_scalars (&fee, &fee64, mult, xtype, ex, ey)) ;
    TRY (GrB_Matrix_new (&C, ztype, m, n)) ;
    TRY (GrB_Matrix_assign_Scalar (C, NULL, NULL, fee, GrB_ALL, m, GrB_ALL, n,
        NULL)) ;
    // the common columns
    TRY (add_into (C, 0, 0, addop, ring, A, B)) ;
    // the columns only row i holds, f(x, e), and only row j, f(e, y)
    TRY (GrB_Matrix_new (&FA, ztype, m, k)) ;
    TRY (GrB_Matrix_apply_BinaryOp2nd_Scalar (FA, NULL, NULL, mult, A, ey,
        NULL)) ;
    TRY (own_columns (C, addop, rfirst, first, FA, A, B, true)) ;
    TRY (GrB_Matrix_new (&FB, ztype, n, k)) ;
    TRY (GrB_Matrix_apply_BinaryOp1st_Scalar (FB, NULL, NULL, mult, ex, B,
        NULL)) ;
    TRY (own_columns (C, addop, rsecond, first, FB, B, A, false)) ;
    *D = C ;
    C = NULL ;
    *done = true ;
    FREE_ALL ;
    return (GrB_SUCCESS) ;
}
