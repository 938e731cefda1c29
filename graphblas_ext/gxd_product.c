// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// graphblas_ext/gxd_product.c: checks and products shared by every entry point
//------------------------------------------------------------------------------

// GxB_mxm_distance, GxB_kNN and GxB_radius_graph check their arguments the
// same way and compute (tiles of) the same product T = A (+).(x) B'.

#include "gxd_internal.h"

// the shape of A's (or B's) rows after the descriptor's transpose
static GrB_Info shape (GrB_Index *rows, GrB_Index *cols, GrB_Matrix A,
    bool tran)
{
    #define GXD_FREE_ALL ;
    GXD_TRY (GrB_Matrix_nrows (tran ? cols : rows, A)) ;
    GXD_TRY (GrB_Matrix_ncols (tran ? rows : cols, A)) ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

// argument checks that need no computation
GrB_Info GXD_check_args (const char *fn, GrB_Matrix C, GrB_Matrix Mask,
    GrB_BinaryOp accum, GrB_Matrix A, GrB_Matrix B, const gxd_desc *d)
{
    #define GXD_FREE_ALL ;
    GrB_Index m, k, n, kb, cm, cn ;
    GXD_TRY (shape (&m, &k, A, d->tran_a)) ;
    GXD_TRY (shape (&n, &kb, B, d->tran_b)) ;
    GXD_TRY (GrB_Matrix_nrows (&cm, C)) ;
    GXD_TRY (GrB_Matrix_ncols (&cn, C)) ;
    if (C == A || C == B || C == Mask)
    {
        GXD_FAIL (GrB_INVALID_VALUE, "%s: C is the same object "
            "as %s; inputs are never modified, use another output", fn,
            C == A ? "A" : C == B ? "B" : "Mask") ;
    }
    if (k != kb)
    {
        GXD_FAIL (GrB_DIMENSION_MISMATCH, "%s: A has %llu columns "
            "but B has %llu (rows of A and B must have the same length)",
            fn, (unsigned long long) k, (unsigned long long) kb) ;
    }
    if (cm != m || cn != n)
    {
        GXD_FAIL (GrB_DIMENSION_MISMATCH, "%s: C is %llu x %llu "
            "but must be %llu x %llu (rows of A x rows of B)",
            fn, (unsigned long long) cm, (unsigned long long) cn,
            (unsigned long long) m, (unsigned long long) n) ;
    }
    GrB_Type type ;
    GXD_TRY (GXD_builtin_type (&type, A, "A")) ;
    GXD_TRY (GXD_builtin_type (&type, B, "B")) ;
    GXD_TRY (GXD_builtin_type (&type, C, "C")) ;
    if (Mask != NULL)
    {
        GrB_Index mm, mn ;
        GXD_TRY (GrB_Matrix_nrows (&mm, Mask)) ;
        GXD_TRY (GrB_Matrix_ncols (&mn, Mask)) ;
        if (mm != m || mn != n)
        {
            GXD_FAIL (GrB_DIMENSION_MISMATCH, "%s: Mask is %llu "
                "x %llu but C is %llu x %llu", fn, (unsigned long long) mm,
                (unsigned long long) mn, (unsigned long long) m,
                (unsigned long long) n) ;
        }
        if (!d->mask_struct) GXD_TRY (GXD_builtin_type (&type, Mask, "Mask")) ;
    }
    if (accum != NULL)
    {
        GrB_Type t [3] ;
        GXD_TRY (GxB_BinaryOp_ztype (&t [0], accum)) ;
        GXD_TRY (GxB_BinaryOp_xtype (&t [1], accum)) ;
        GXD_TRY (GxB_BinaryOp_ytype (&t [2], accum)) ;
        for (int q = 0 ; q < 3 ; q++)
        {
            if (GXD_identity_op (t [q]) == NULL)
            {
                GXD_FAIL (GrB_DOMAIN_MISMATCH, "%s: accum has a "
                    "user-defined type", fn) ;
            }
        }
    }
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

// testing hook (GXD_set_fault_injection): the first entry, in row
// order, of a product SuiteSparse computed is made wrong as gxd_compute.c
// makes a backend's (GXD_fault_value; in an integer type its lowest bit
// flipped), so that verify mode is tested on every path
static GrB_Info inject_fault (GrB_Matrix T)
{
    #define GXD_FREE_ALL GXD_free (I) ; GXD_free (J) ; GXD_free (X) ;
    GrB_Index *I = NULL, *J = NULL, nvals, first = 0 ;
    double *X = NULL ;
    if (!GXD_settings.fault) return GrB_SUCCESS ;
    GXD_TRY (GrB_Matrix_nvals (&nvals, T)) ;
    if (nvals == 0) return GrB_SUCCESS ;
    I = GXD_malloc (nvals * sizeof (GrB_Index)) ;
    J = GXD_malloc (nvals * sizeof (GrB_Index)) ;
    X = GXD_malloc (nvals * sizeof (double)) ;
    if (I == NULL || J == NULL || X == NULL)
    {
        GXD_FAIL (GrB_OUT_OF_MEMORY, "fault injection: out of memory") ;
    }
    GXD_TRY (GrB_Matrix_extractTuples_FP64 (I, J, X, &nvals, T)) ;
    for (GrB_Index q = 1 ; q < nvals ; q++)
    {
        if (I [q] < I [first] || (I [q] == I [first] && J [q] < J [first])) first = q ;
    }
    GrB_Type type ;
    GXD_TRY (GxB_Matrix_type (&type, T)) ;
    GrB_Index i = I [first], j = J [first] ;
    if (type == GrB_FP32 || type == GrB_FP64)
    {
        GXD_TRY (GrB_Matrix_setElement_FP64 (T, GXD_fault_value (X [first]), i, j)) ;
    }
    else if (type == GrB_INT8 || type == GrB_INT16 || type == GrB_INT32
        || type == GrB_INT64)
    {
        // the lowest bit flipped: a different value the type holds (a
        // double cannot tell integers above 2^53 apart)
        int64_t v ;
        GXD_TRY (GrB_Matrix_extractElement_INT64 (&v, T, i, j)) ;
        GXD_TRY (GrB_Matrix_setElement_INT64 (T, v ^ 1, i, j)) ;
    }
    else
    {
        uint64_t v ;
        GXD_TRY (GrB_Matrix_extractElement_UINT64 (&v, T, i, j)) ;
        GXD_TRY (GrB_Matrix_setElement_UINT64 (T, v ^ 1, i, j)) ;
    }
    GXD_TRY (GrB_Matrix_wait (T, GrB_MATERIALIZE)) ;
    GXD_FREE_ALL ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

// the union/metric product T, by a backend or by SuiteSparse
GrB_Info GXD_product (GrB_Matrix *T, const gxd_call *call,
    GrB_Matrix Mask, GrB_Matrix A, GrB_Matrix B, const gxd_desc *d)
{
    #define GXD_FREE_ALL GXD_rows_free (&Ar) ; GXD_rows_free (&Br) ; GXD_rows_free (&Mr) ;
    gxd_rows Ar = { 0 }, Br = { 0 }, Mr = { 0 } ;
    if (call->path == GXD_PATH_GRAPHBLAS)
    {
        GXD_TRY (GXD_union_graphblas (T, call, Mask, A, B, d)) ;
        GXD_TRY (inject_fault (*T)) ;
        return GrB_SUCCESS ;
    }
    GXD_TRY (GXD_rows_get (&Ar, A, d->tran_a, call->type)) ;
    // a self-product (the same matrix, the same way round): one copy of its
    // rows serves as both (the GPU then uploads it once)
    const bool self = (B == A && d->tran_b == d->tran_a) ;
    if (!self) GXD_TRY (GXD_rows_get (&Br, B, d->tran_b, call->type)) ;
    const gxd_rows *Bq = self ? &Ar : &Br ;
    GXD_TRY (GXD_rows_check_domain (call, &Ar, Bq)) ;
    bool sampled = (Mask != NULL && !d->mask_comp) ;
    if (sampled) GXD_TRY (GXD_mask_pattern (&Mr, Mask, d->mask_struct)) ;
    GXD_TRY (GXD_compute (T, call, &Ar, Bq, sampled ? &Mr : NULL)) ;
    GXD_FREE_ALL ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

// intersection semantics: GrB_mxm itself, with B transposed (into Z, so
// that a failure leaves C as it was)
GrB_Info GXD_intersect (GrB_Matrix C, GrB_Matrix Mask, GrB_BinaryOp accum,
    GrB_Semiring s, GrB_Matrix A, GrB_Matrix B, const gxd_desc *d)
{
    #define GXD_FREE_ALL GrB_Descriptor_free (&desc) ; GrB_Matrix_free (&Z) ;
    GrB_Descriptor desc = NULL ;
    GrB_Matrix Z = NULL ;
    GXD_TRY (GXD_output_new (&Z, C, Mask == NULL && accum == NULL
        && !d->mask_comp)) ;
    GXD_TRY (GrB_Descriptor_new (&desc)) ;
    if (d->replace) GXD_TRY (GrB_Descriptor_set (desc, GrB_OUTP, GrB_REPLACE)) ;
    int mask = (d->mask_comp ? GrB_COMP : 0) + (d->mask_struct ? GrB_STRUCTURE : 0) ;
    if (mask) GXD_TRY (GrB_Descriptor_set (desc, GrB_MASK, (GrB_Desc_Value) mask)) ;
    if (d->tran_a) GXD_TRY (GrB_Descriptor_set (desc, GrB_INP0, GrB_TRAN)) ;
    if (!d->tran_b) GXD_TRY (GrB_Descriptor_set (desc, GrB_INP1, GrB_TRAN)) ;
    GXD_TRY (GrB_mxm (Z, Mask, accum, s, A, B, desc)) ;
    GXD_TRY (GXD_output_move (C, Z)) ;
    GXD_FREE_ALL ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

// the effective row matrix (transposed if the descriptor says so)
GrB_Info GXD_rows_effective (GrB_Matrix *R, GrB_Matrix A, bool tran)
{
    #define GXD_FREE_ALL GrB_Matrix_free (R) ;
    if (!tran) { *R = A ; return GrB_SUCCESS ; }
    GrB_Type type ;
    GrB_Index nrows, ncols ;
    GXD_TRY (GxB_Matrix_type (&type, A)) ;
    GXD_TRY (GrB_Matrix_nrows (&nrows, A)) ;
    GXD_TRY (GrB_Matrix_ncols (&ncols, A)) ;
    GXD_TRY (GrB_Matrix_new (R, type, ncols, nrows)) ;
    GXD_TRY (GrB_transpose (*R, NULL, NULL, A, NULL)) ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}
