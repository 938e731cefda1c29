// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// reference/oracle/oracle_scale.c: GXO_scale, the conditioning of a distance
//------------------------------------------------------------------------------

// A result within rtol of |ref| cannot be asked of a sum whose terms cancel:
// DOT and KL_DIVERGENCE may sum terms of both signs, so their error is judged
// against the sum of the terms' magnitudes (the condition of the sum).
// COSINE and CORRELATION are distances between unit vectors, each rounded
// in its last bit by the row norm: d = |u - v|^2 / 2 carries an absolute
// error of about sqrt(2d) eps64 whatever the method, so below d ~ 1e-7 they
// are judged absolutely: S = 1e-7 (rtol * S = 1e-19 for FP64, 1e-12 for
// FP32).  Every other metric is a sum of non-negative terms, or a formula
// the oracle holds to rtol of the value itself: its scale is 0.

#include "oracle_internal.h"

#undef  FREE_ALL
#define FREE_ALL                                                            \
    GrB_Matrix_free (&Ad) ; GrB_Matrix_free (&Bd) ; GrB_Matrix_free (&C) ;  \
    GrB_BinaryOp_free (&op) ; GrB_Semiring_free (&semiring) ; free (X) ;

GrB_Info GXO_scale (GrB_Matrix *S, const char *metric, GrB_Type type,
    GrB_Matrix A, GrB_Matrix B)
{
    GrB_Matrix Ad = NULL, Bd = NULL, C = NULL ;
    GrB_BinaryOp op = NULL ;
    GrB_Semiring semiring = NULL ;
    double *X = NULL ;
    CHECK (S != NULL && metric != NULL, GrB_NULL_POINTER) ;
    *S = NULL ;
    gxo_metric id ;
    TRY (GXO_metric_id (&id, metric)) ;
    // the operands are cast only where the scale is made of them
    bool products = (id == GXO_DOT || id == GXO_KL_DIVERGENCE) ;
    TRY (GXO_operands (products ? &Ad : NULL, products ? &Bd : NULL, type,
        A, B)) ;
    GrB_Index m, n ;
    TRY (GrB_Matrix_nrows (&m, A)) ;
    TRY (GrB_Matrix_nrows (&n, B)) ;
    if (id == GXO_DOT)
    {
        // sum_c |a_c| |b_c|
        TRY (GrB_Matrix_apply (Ad, NULL, NULL, GrB_ABS_FP64, Ad, NULL)) ;
        TRY (GrB_Matrix_apply (Bd, NULL, NULL, GrB_ABS_FP64, Bd, NULL)) ;
        TRY (GXO_product (&X, GrB_PLUS_TIMES_SEMIRING_FP64, Ad, Bd)) ;
        TRY (GXO_from_dense (&C, m, n, X)) ;
    }
    else if (id == GXO_KL_DIVERGENCE)
    {
        // sum over a_c > 0, b_c > 0 of |a_c ln (a_c / b_c)|
        TRY (GXO_op_new (&op, GXO_OP_ABSKL)) ;
        TRY (GrB_Semiring_new (&semiring, GrB_PLUS_MONOID_FP64, op)) ;
        TRY (GXO_product (&X, semiring, Ad, Bd)) ;
        TRY (GXO_from_dense (&C, m, n, X)) ;
    }
    else
    {
        double s = (id == GXO_COSINE || id == GXO_CORRELATION) ? 1e-7 : 0 ;
        TRY (GrB_Matrix_new (&C, GrB_FP64, m, n)) ;
        TRY (GrB_Matrix_assign_FP64 (C, NULL, NULL, s, GrB_ALL, m, GrB_ALL, n,
            NULL)) ;
    }
    *S = C ;
    C = NULL ;
    FREE_ALL ;
    return (GrB_SUCCESS) ;
}
