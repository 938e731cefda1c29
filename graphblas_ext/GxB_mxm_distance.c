//------------------------------------------------------------------------------
// graphblas_ext/GxB_mxm_distance.c: C<Mask> = accum (C, A (+).(x) B')
//------------------------------------------------------------------------------

// The one entry point.  Data flows one way: check every argument before any
// work; take owned CSR copies of A and B (the caller's matrices are never
// modified, on any path); a backend computes all pairs or just the mask's
// (not complemented) pattern; verify mode compares with the SuiteSparse
// reference; GraphBLAS itself applies mask, accum and replace to C.  C is
// written only after everything else has succeeded, and a failure leaves it
// exactly as it was (gxd_finish.c).

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
static GrB_Info check_args (GrB_Matrix C, GrB_Matrix Mask, GrB_BinaryOp accum,
    GrB_Matrix A, GrB_Matrix B, const gxd_desc *d)
{
    #define GXD_FREE_ALL ;
    GrB_Index m, k, n, kb, cm, cn ;
    GXD_TRY (shape (&m, &k, A, d->tran_a)) ;
    GXD_TRY (shape (&n, &kb, B, d->tran_b)) ;
    GXD_TRY (GrB_Matrix_nrows (&cm, C)) ;
    GXD_TRY (GrB_Matrix_ncols (&cn, C)) ;
    if (C == A || C == B || C == Mask)
    {
        GXD_FAIL (GrB_INVALID_VALUE, "GxB_mxm_distance: C is the same object "
            "as %s; inputs are never modified, use another output",
            C == A ? "A" : C == B ? "B" : "Mask") ;
    }
    if (k != kb)
    {
        GXD_FAIL (GrB_DIMENSION_MISMATCH, "GxB_mxm_distance: A has %llu columns "
            "but B has %llu (rows of A and B must have the same length)",
            (unsigned long long) k, (unsigned long long) kb) ;
    }
    if (cm != m || cn != n)
    {
        GXD_FAIL (GrB_DIMENSION_MISMATCH, "GxB_mxm_distance: C is %llu x %llu "
            "but must be %llu x %llu (rows of A x rows of B)",
            (unsigned long long) cm, (unsigned long long) cn,
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
            GXD_FAIL (GrB_DIMENSION_MISMATCH, "GxB_mxm_distance: Mask is %llu "
                "x %llu but C is %llu x %llu", (unsigned long long) mm,
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
                GXD_FAIL (GrB_DOMAIN_MISMATCH, "GxB_mxm_distance: accum has a "
                    "user-defined type") ;
            }
        }
    }
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

// the union/metric product T, by a backend or by SuiteSparse
static GrB_Info product (GrB_Matrix *T, const gxd_call *call,
    GrB_Matrix Mask, GrB_Matrix A, GrB_Matrix B, const gxd_desc *d)
{
    #define GXD_FREE_ALL GXD_rows_free (&Ar) ; GXD_rows_free (&Br) ; GXD_rows_free (&Mr) ;
    gxd_rows Ar = { 0 }, Br = { 0 }, Mr = { 0 } ;
    if (call->path == GXD_PATH_GRAPHBLAS)
    {
        GXD_TRY (GXD_union_graphblas (T, call, Mask, A, B, d)) ;
        return GrB_SUCCESS ;
    }
    GXD_TRY (GXD_rows_get (&Ar, A, d->tran_a, call->type)) ;
    GXD_TRY (GXD_rows_get (&Br, B, d->tran_b, call->type)) ;
    gxd_metric_id m = call->plan.metric ;
    if (m != GXD_GENERIC && gxd_metric_table [m].nonneg)
    {
        GXD_TRY (GXD_rows_check_nonneg (&Ar, call->plan.fp64, "A", call->name)) ;
        GXD_TRY (GXD_rows_check_nonneg (&Br, call->plan.fp64, "B", call->name)) ;
    }
    bool sampled = (Mask != NULL && !d->mask_comp) ;
    if (sampled) GXD_TRY (GXD_mask_pattern (&Mr, Mask, d->mask_struct)) ;
    GXD_TRY (GXD_compute (T, call, &Ar, &Br, sampled ? &Mr : NULL)) ;
    GXD_FREE_ALL ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

// intersection semantics: GrB_mxm itself, with B transposed (into Z, so
// that a failure leaves C as it was)
static GrB_Info intersect (GrB_Matrix C, GrB_Matrix Mask, GrB_BinaryOp accum,
    GrB_Semiring s, GrB_Matrix A, GrB_Matrix B, const gxd_desc *d)
{
    #define GXD_FREE_ALL GrB_Descriptor_free (&desc) ; GrB_Matrix_free (&Z) ;
    GrB_Descriptor desc = NULL ;
    GrB_Matrix Z = NULL ;
    GXD_TRY (GXD_output_new (&Z, C, Mask == NULL && accum == NULL)) ;
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

GrB_Info GxB_mxm_distance
(
    GrB_Matrix C,
    const GrB_Matrix Mask,
    const GrB_BinaryOp accum,
    const GrB_Semiring semiring,
    const GrB_Matrix A,
    const GrB_Matrix B,
    const GrB_Descriptor desc
)
{
    #define GXD_FREE_ALL GrB_Matrix_free (&T) ;
    GrB_Matrix T = NULL ;
    GXD_error_clear () ;
    GXD_CHECK_INIT ;
    GXD_CHECK_NULL (C, "GxB_mxm_distance: C") ;
    GXD_CHECK_NULL (semiring, "GxB_mxm_distance: semiring") ;
    GXD_CHECK_NULL (A, "GxB_mxm_distance: A") ;
    GXD_CHECK_NULL (B, "GxB_mxm_distance: B") ;
    gxd_desc d ;
    GXD_TRY (GXD_desc_read (&d, desc)) ;
    GXD_TRY (check_args (C, Mask, accum, A, B, &d)) ;
    gxd_call call ;
    GXD_TRY (GXD_resolve (&call, semiring, desc)) ;
    if (Mask == NULL && d.mask_comp)
    {
        // GrB_mxm's rule: the complement of no mask selects no entry, so
        // nothing is computed and C is only cleared if asked to be
        if (d.replace) GXD_TRY (GrB_Matrix_clear (C)) ;
        return GrB_SUCCESS ;
    }
    if (call.path == GXD_PATH_INTERSECT)
    {
        GXD_TRY (intersect (C, Mask, accum, semiring, A, B, &d)) ;
        return GrB_SUCCESS ;
    }
    GXD_TRY (product (&T, &call, Mask, A, B, &d)) ;
    if (GXD_settings.verify)
    {
        GXD_TRY (GXD_verify (&call, T, A, B, d.tran_a, d.tran_b)) ;
    }
    GXD_TRY (GXD_finish (C, Mask, accum, T, &d)) ;
    GrB_Matrix_free (&T) ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}
