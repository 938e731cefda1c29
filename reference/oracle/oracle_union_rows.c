// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// reference/oracle/oracle_union_rows.c: a union of any monoid, row by row
//------------------------------------------------------------------------------

// GXO_union's definition, add_{c<k} f(a~_c, b~_c), for any monoid, without
// completing every row of B to all k columns.  For row i of A with pattern
// A_i (nc columns), the columns split three ways for each row j of B:
//
//   c in A_i:             f (x_c, y~_c)   B's columns A_i completed (n x nc),
//                                          one product with row i
//   c in B_j, not in A_i: f (e, y_c)      F_B = f(e, .) applied to B, reduced
//                                          over the columns outside A_i
//   c in neither:         f (e, e)        cnt_j = k - nc - |B_j \ A_i| times:
//                                          add-powers of f(e,e) by the bits of
//                                          cnt_j (f(e,e), its double, ...)
//
// and D(i,j) is the add of the three (a part with no term is left out; a
// pair with no term at all, k = 0, is add's identity).  A built-in MAX or
// MIN goes by three products for every row at once instead, where it can
// (oracle_union_idem.c).  Only the order in
// which add combines the same k terms differs from the definition: exact for
// integers and for MAX, MIN, LOR, ...; a rounding's worth for floating-point
// PLUS or TIMES.  Cost per row of A: O(n nc + nnz(B) + n log k); meant for
// a sample of rows (verify mode) or for small problems.

#include "oracle_internal.h"
#include <string.h>

// what every row shares
typedef struct
{
    GrB_Monoid add ;
    GrB_BinaryOp addop ;
    GrB_Semiring semiring ;     // (add, f)
    GrB_Semiring add_second ;   // (add, SECOND): F_B reduced over u's columns
    GrB_Type ztype, ytype ;
    GrB_Index n, k ;
    GrB_Matrix Bt ;             // B', k-by-n
    GrB_Matrix FBt ;            // F_B', k-by-n
    GrB_Matrix nb ;             // |B_j| (1-by-n INT64, every entry)
    GrB_Matrix u ;              // 1-by-k BOOL: the columns outside A_i
    GrB_Scalar e ;              // the identity, of ytype
    GrB_Matrix pow ;            // 1-by-1: f(e,e) add-ed 2^b times
    bool once ;                 // f(e,e) add f(e,e) is f(e,e) (MIN, MAX, a
                                // PLUS of 0, ...): any count of it is one
}
shared ;

// *same: x add x == x, bit for bit, for x = the 1-by-1 X of type t
#undef  FREE_ALL
#define FREE_ALL GrB_Matrix_free (&X2) ;

static GrB_Info adds_to_itself (bool *same, GrB_Matrix X, GrB_BinaryOp addop,
    GrB_Type t)
{
    GrB_Matrix X2 = NULL ;
    TRY (GrB_Matrix_new (&X2, t, 1, 1)) ;
    TRY (GrB_Matrix_eWiseAdd_BinaryOp (X2, NULL, NULL, addop, X, X, NULL)) ;
    if (t == GrB_FP32 || t == GrB_FP64)
    {
        double a = 0, b = 0 ;       // an FP32 value is exact in a double
        TRY (GrB_Matrix_extractElement_FP64 (&a, X, 0, 0)) ;
        TRY (GrB_Matrix_extractElement_FP64 (&b, X2, 0, 0)) ;
        *same = (memcmp (&a, &b, sizeof (a)) == 0) ;
    }
    else
    {
        uint64_t a = 0, b = 0 ;
        TRY (GrB_Matrix_extractElement_UINT64 (&a, X, 0, 0)) ;
        TRY (GrB_Matrix_extractElement_UINT64 (&b, X2, 0, 0)) ;
        *same = (a == b) ;
    }
    FREE_ALL ;
    return (GrB_SUCCESS) ;
}

//------------------------------------------------------------------------------
// one row: R (1-by-n) = the row's terms; entries with no term left out
//------------------------------------------------------------------------------

#undef  FREE_ALL
#define FREE_ALL                                                            \
    GrB_Matrix_free (&Ai) ; GrB_Matrix_free (&Bc) ; GrB_Matrix_free (&Bf) ; \
    GrB_Matrix_free (&T) ; GrB_Matrix_free (&cnt) ; GrB_Matrix_free (&bit) ;\
    GrB_Matrix_free (&P) ; GrB_Scalar_free (&pb) ; GrB_Matrix_free (&nbo) ;

static GrB_Info one_row (GrB_Matrix R, shared *w, GrB_Matrix arow,
    const GrB_Index *ci, GrB_Index nc)
{
    GrB_Matrix Ai = NULL, Bc = NULL, Bf = NULL, T = NULL, cnt = NULL,
        bit = NULL, P = NULL, nbo = NULL ;
    GrB_Scalar pb = NULL ;
    GrB_Index n = w->n, k = w->k ;
    GrB_Type atype ;
    TRY (GxB_Matrix_type (&atype, arow)) ;
    TRY (GrB_Matrix_new (&cnt, GrB_INT64, 1, n)) ;
    if (nc > 0)
    {
        // the columns of A_i: row i against B's columns A_i completed
        GrB_Index zero = 0 ;
        TRY (GrB_Matrix_new (&Ai, atype, 1, nc)) ;
        TRY (GrB_Matrix_extract (Ai, NULL, NULL, arow, &zero, 1, ci, nc,
            NULL)) ;
        TRY (GrB_Matrix_new (&Bc, w->ytype, nc, n)) ;
        TRY (GrB_Matrix_extract (Bc, NULL, NULL, w->Bt, ci, nc, GrB_ALL, n,
            NULL)) ;
        TRY (GrB_Matrix_new (&Bf, w->ytype, nc, n)) ;
        TRY (GrB_Matrix_assign_Scalar (Bf, NULL, NULL, w->e, GrB_ALL, nc,
            GrB_ALL, n, NULL)) ;
        TRY (GrB_Matrix_assign (Bf, Bc, NULL, Bc, GrB_ALL, nc, GrB_ALL, n,
            GrB_DESC_S)) ;
        TRY (GrB_mxm (R, NULL, NULL, w->semiring, Ai, Bf, NULL)) ;
        // |B_j n A_i| (where not 0), for the count
        TRY (GrB_mxm (cnt, NULL, NULL, GxB_PLUS_PAIR_INT64, Ai, Bc, NULL)) ;
        for (GrB_Index q = 0 ; q < nc ; q++)
        {
            TRY (GrB_Matrix_removeElement (w->u, 0, ci [q])) ;
        }
    }
    // the columns of B_j outside A_i
    TRY (GrB_Matrix_new (&T, w->ztype, 1, n)) ;
    TRY (GrB_mxm (T, NULL, NULL, w->add_second, w->u, w->FBt, NULL)) ;
    TRY (GrB_Matrix_eWiseAdd_BinaryOp (R, NULL, NULL, w->addop, R, T, NULL)) ;
    for (GrB_Index q = 0 ; q < nc ; q++)
    {
        TRY (GrB_Matrix_setElement_BOOL (w->u, true, 0, ci [q])) ;
    }
    // the columns in neither: cnt_j = k - nc - (|B_j| - |B_j n A_i|)
    TRY (GrB_Matrix_dup (&nbo, w->nb)) ;
    TRY (GrB_Matrix_assign (nbo, NULL, GrB_MINUS_INT64, cnt, GrB_ALL, 1,
        GrB_ALL, n, NULL)) ;
    TRY (GrB_Matrix_apply_BinaryOp1st_INT64 (cnt, NULL, NULL, GrB_MINUS_INT64,
        (int64_t) (k - nc), nbo, NULL)) ;
    // add f(e,e) 2^b times wherever bit b of cnt_j is set, or once where
    // cnt_j > 0 if that is the same
    TRY (GrB_Matrix_dup (&P, w->pow)) ;
    TRY (GrB_Scalar_new (&pb, w->ztype)) ;
    TRY (GrB_Matrix_new (&bit, GrB_INT64, 1, n)) ;
    if (w->once && k > nc)
    {
        TRY (GrB_Matrix_select_INT64 (bit, NULL, NULL, GrB_VALUEGT_INT64, cnt,
            0, NULL)) ;
        TRY (GrB_Matrix_extractElement_Scalar (pb, P, 0, 0)) ;
        TRY (GrB_Matrix_assign_Scalar (R, bit, w->addop, pb, GrB_ALL, 1,
            GrB_ALL, n, GrB_DESC_S)) ;
    }
    for (int b = 0 ; !w->once && b < 63 && ((k - nc) >> b) > 0 ; b++)
    {
        TRY (GrB_Matrix_apply_BinaryOp2nd_INT64 (bit, NULL, NULL,
            GrB_BAND_INT64, cnt, (int64_t) 1 << b, NULL)) ;
        TRY (GrB_Matrix_select_INT64 (bit, NULL, NULL, GrB_VALUENE_INT64, bit,
            0, NULL)) ;
        TRY (GrB_Matrix_extractElement_Scalar (pb, P, 0, 0)) ;
        TRY (GrB_Matrix_assign_Scalar (R, bit, w->addop, pb, GrB_ALL, 1,
            GrB_ALL, n, GrB_DESC_S)) ;
        TRY (GrB_Matrix_eWiseAdd_BinaryOp (P, NULL, NULL, w->addop, P, P,
            NULL)) ;
    }
    FREE_ALL ;
    return (GrB_SUCCESS) ;
}

//------------------------------------------------------------------------------
// GXO_union_rows
//------------------------------------------------------------------------------

#undef  FREE_ALL
#define FREE_ALL                                                            \
    GrB_Semiring_free (&w.semiring) ; GrB_Semiring_free (&w.add_second) ;   \
    GrB_Matrix_free (&w.Bt) ; GrB_Matrix_free (&w.FBt) ;                    \
    GrB_Matrix_free (&w.nb) ; GrB_Matrix_free (&w.u) ;                      \
    GrB_Scalar_free (&w.e) ; GrB_Matrix_free (&w.pow) ;                     \
    GrB_Scalar_free (&ex) ; GrB_Matrix_free (&one) ;                        \
    GrB_Matrix_free (&arow) ; GrB_Matrix_free (&R) ; GrB_Matrix_free (&C) ; \
    free (ci) ;

GrB_Info GXO_union_rows (GrB_Matrix *D, GrB_Monoid add, GrB_BinaryOp mult,
    double identity, GrB_Matrix A, GrB_Matrix B)
{
    shared w = { 0 } ;
    GrB_Scalar ex = NULL ;
    GrB_Matrix one = NULL, arow = NULL, R = NULL, C = NULL ;
    GrB_Index *ci = NULL ;
    CHECK (D != NULL && add != NULL && mult != NULL && A != NULL && B != NULL,
        GrB_NULL_POINTER) ;
    *D = NULL ;
    GrB_Type xtype, atype ;
    GrB_Index m, kb ;
    GrB_BinaryOp first, second ;
    TRY (GxB_BinaryOp_xtype (&xtype, mult)) ;
    TRY (GxB_BinaryOp_ytype (&w.ytype, mult)) ;
    TRY (GxB_BinaryOp_ztype (&w.ztype, mult)) ;
    CHECK (GXO_type_ops (NULL, &first, &second, w.ztype),
        GrB_DOMAIN_MISMATCH) ;
    TRY (GxB_Matrix_type (&atype, A)) ;
    TRY (GrB_Matrix_nrows (&m, A)) ;
    TRY (GrB_Matrix_nrows (&w.n, B)) ;
    TRY (GrB_Matrix_ncols (&w.k, A)) ;
    TRY (GrB_Matrix_ncols (&kb, B)) ;
    CHECK (w.k == kb, GrB_DIMENSION_MISMATCH) ;
    // a built-in MAX or MIN where every pair leaves a column out: three
    // products for every row at once
    bool done = false ;
    TRY (GXO_union_idem (D, &done, add, mult, identity, A, B)) ;
    if (done) return (GrB_SUCCESS) ;
    GrB_Index n = w.n, k = w.k ;
    // GrB_Semiring_new checks that add's type is mult's ztype
    w.add = add ;
    TRY (GxB_Monoid_operator (&w.addop, add)) ;
    TRY (GrB_Semiring_new (&w.semiring, add, mult)) ;
    TRY (GrB_Semiring_new (&w.add_second, add, second)) ;
    // the identity, F_B' = f(e, B)', B', |B_j|, u, f(e,e)
    TRY (GrB_Scalar_new (&ex, xtype)) ;
    TRY (GrB_Scalar_new (&w.e, w.ytype)) ;
    TRY (GrB_Scalar_setElement_FP64 (ex, identity)) ;
    TRY (GrB_Scalar_setElement_FP64 (w.e, identity)) ;
    TRY (GrB_Matrix_new (&w.Bt, w.ytype, k, n)) ;
    TRY (GrB_transpose (w.Bt, NULL, NULL, B, NULL)) ;
    TRY (GrB_Matrix_new (&w.FBt, w.ztype, k, n)) ;
    TRY (GrB_Matrix_apply_BinaryOp1st_Scalar (w.FBt, NULL, NULL, mult, ex,
        w.Bt, NULL)) ;
    TRY (GrB_Matrix_new (&w.u, GrB_BOOL, 1, k)) ;
    TRY (GrB_Matrix_assign_BOOL (w.u, NULL, NULL, true, GrB_ALL, 1, GrB_ALL, k,
        NULL)) ;
    TRY (GrB_Matrix_new (&w.nb, GrB_INT64, 1, n)) ;
    TRY (GrB_Matrix_assign_INT64 (w.nb, NULL, NULL, 0, GrB_ALL, 1, GrB_ALL, n,
        NULL)) ;
    TRY (GrB_mxm (w.nb, NULL, GrB_PLUS_INT64, GxB_PLUS_PAIR_INT64, w.u, w.Bt,
        NULL)) ;
    TRY (GrB_Matrix_new (&one, xtype, 1, 1)) ;
    TRY (GrB_Matrix_setElement_Scalar (one, ex, 0, 0)) ;
    TRY (GrB_Matrix_new (&w.pow, w.ztype, 1, 1)) ;
    TRY (GrB_Matrix_apply_BinaryOp2nd_Scalar (w.pow, NULL, NULL, mult, one,
        w.e, NULL)) ;
    TRY (adds_to_itself (&w.once, w.pow, w.addop, w.ztype)) ;
    // D = add's identity (the pairs with no term, k = 0), then each row's
    // terms
    TRY (GrB_Matrix_new (&C, w.ztype, m, n)) ;
    TRY (GXO_fill_identity (C, add, w.ztype)) ;
    ci = calloc (k + 1, sizeof (GrB_Index)) ;
    CHECK (ci != NULL, GrB_OUT_OF_MEMORY) ;
    TRY (GrB_Matrix_new (&arow, atype, 1, k)) ;
    TRY (GrB_Matrix_new (&R, w.ztype, 1, n)) ;
    for (GrB_Index i = 0 ; i < m ; i++)
    {
        GrB_Index nc = k ;
        TRY (GrB_Matrix_extract (arow, NULL, NULL, A, &i, 1, GrB_ALL, k,
            NULL)) ;
        TRY (GrB_Matrix_extractTuples_BOOL (NULL, ci, NULL, &nc, arow)) ;
        TRY (GrB_Matrix_clear (R)) ;
        TRY (one_row (R, &w, arow, ci, nc)) ;
        // R's entries over the identity, not added to it: GraphBLAS adds
        // a pair's terms only (a MAX of NaN terms is NaN, where NaN added
        // to MAX's identity -inf would be -inf)
        TRY (GxB_Matrix_subassign (C, R, NULL, R, &i, 1, GrB_ALL, n,
            GrB_DESC_S)) ;
    }
    *D = C ;
    C = NULL ;
    FREE_ALL ;
    return (GrB_SUCCESS) ;
}
