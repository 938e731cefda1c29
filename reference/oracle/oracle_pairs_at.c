//------------------------------------------------------------------------------
// reference/oracle/oracle_pairs_at.c: the dense-completion product of listed pairs
//------------------------------------------------------------------------------

// GXO_pairs for a few pairs, not all m*n: the exact fallback of the rewritten
// sums (oracle_union_plus.c, and the scaled sums of oracle_metric.c), where
// completing every row of A against every row of B would cost O(m n k).  The
// pairs of one row i are done together: row i of A and the rows of B it is
// paired with are extracted, and GXO_pairs completes and multiplies just
// those, O(k) per pair.

#include "oracle_internal.h"

#undef  FREE_ALL
#define FREE_ALL                                                            \
    GrB_Matrix_free (&As) ; GrB_Matrix_free (&Bs) ; GrB_Matrix_free (&T) ;  \
    GrB_Matrix_free (&T2) ;

GrB_Info GXO_pairs_at (GrB_Matrix D, const gxo_side *a, const gxo_side *b,
    const gxo_product *prod, const GrB_Index *I, const GrB_Index *J,
    GrB_Index np)
{
    GrB_Matrix As = NULL, Bs = NULL, T = NULL, T2 = NULL ;
    GrB_Type dtype, atype, btype ;
    GrB_Index k ;
    TRY (GrB_Matrix_ncols (&k, a->M)) ;
    TRY (GxB_Matrix_type (&dtype, D)) ;
    TRY (GxB_Matrix_type (&atype, a->M)) ;
    TRY (GxB_Matrix_type (&btype, b->M)) ;
    CHECK (prod->semiring != NULL || prod->T2 != NULL, GrB_NULL_POINTER) ;
    // k = 0: D already holds the empty reduction, which GXO_pairs keeps
    if (k == 0) return (GrB_SUCCESS) ;
    for (GrB_Index q0 = 0, q1 ; q0 < np ; q0 = q1)
    {
        // the run of pairs q0 .. q1-1 with the same row of A
        GrB_Index i = I [q0] ;
        for (q1 = q0 + 1 ; q1 < np && I [q1] == i ; q1++) ;
        GrB_Index c = q1 - q0 ;
        TRY (GrB_Matrix_new (&As, atype, 1, k)) ;
        TRY (GrB_Matrix_new (&Bs, btype, c, k)) ;
        TRY (GrB_Matrix_extract (As, NULL, NULL, a->M, &i, 1, GrB_ALL, k,
            NULL)) ;
        TRY (GrB_Matrix_extract (Bs, NULL, NULL, b->M, J + q0, c, GrB_ALL, k,
            NULL)) ;
        // the sides and the product, on the extracted rows (a row transform's
        // zero-row flags are not written: they index the whole operands)
        gxo_side sa = *a, sb = *b ;
        sa.M = As ;
        sb.M = Bs ;
        sa.zero = NULL ;
        sb.zero = NULL ;
        gxo_product pr = *prod ;
        TRY (GrB_Matrix_new (&T, dtype, 1, c)) ;
        if (prod->semiring == NULL)
        {
            TRY (GrB_Matrix_new (&T2, GrB_FP64, 1, c)) ;
            pr.T2 = T2 ;
        }
        TRY (GXO_pairs (T, &sa, &sb, &pr)) ;
        TRY (GrB_Matrix_assign (D, NULL, NULL, T, &i, 1, J + q0, c, NULL)) ;
        if (prod->semiring == NULL)
        {
            TRY (GrB_Matrix_assign (prod->T2, NULL, NULL, T2, &i, 1, J + q0, c,
                NULL)) ;
        }
        FREE_ALL ;
    }
    return (GrB_SUCCESS) ;
}
