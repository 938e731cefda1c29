// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// examples/user_distance.c: define your own distance (docs/user-operators.md)
//------------------------------------------------------------------------------

// Three distances made from the user's own GrB_BinaryOp, each given to
// GxB_BinaryOp_new with its C definition, so that gxbdist compiles it and
// runs it at the speed of a built-in metric:
//
//   clipped difference   sum_c min (|x_c - y_c|, 1)          NAMM, PLUS
//   tropical min-plus    min_c (x_c + y_c)                   NAMM, MIN
//   Minkowski p = 3      (sum_c |x_c - y_c|^3)^(1/3)          NAMM, PLUS,
//                        then the root with GrB_apply
//
// Missing entries take the NAMM's identity (0 here) over the union of the
// two rows' columns.  The program checks the last one against gxbdist's own
// Minkowski semiring and the clipped difference against a loop over dense
// rows, and exits with 1 when they differ.

#include <gxbdist.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define TRY(call)                                                           \
{                                                                           \
    GrB_Info info_ = (call) ;                                               \
    if (info_ != GrB_SUCCESS)                                               \
    {                                                                       \
        const char *msg_ = "" ;                                             \
        GxB_Distance_error (&msg_) ;                                        \
        fprintf (stderr, "%s failed (%d): %s\n", #call, (int) info_, msg_) ; \
        exit (1) ;                                                          \
    }                                                                       \
}

// the operators: the functions, and the same text for GxB_BinaryOp_new
void clipped (double *z, const double *x, const double *y)
{
    double d = fabs ((*x) - (*y)) ; (*z) = (d < 1) ? d : 1 ;
}
#define CLIPPED_DEFN "void clipped (double *z, const double *x, const double *y) \
{ double d = fabs ((*x) - (*y)) ; (*z) = (d < 1) ? d : 1 ; }"

void plus (double *z, const double *x, const double *y) { (*z) = (*x) + (*y) ; }
#define PLUS_DEFN "void plus (double *z, const double *x, const double *y) \
{ (*z) = (*x) + (*y) ; }"

void cube (double *z, const double *x, const double *y)
{
    double d = fabs ((*x) - (*y)) ; (*z) = d * d * d ;
}
#define CUBE_DEFN "void cube (double *z, const double *x, const double *y) \
{ double d = fabs ((*x) - (*y)) ; (*z) = d * d * d ; }"

#define M 6         // rows
#define K 8         // columns

// a NAMM semiring of op (identity 0) with the monoid add
static GrB_Semiring namm_semiring (GrB_BinaryOp op, GrB_Monoid add)
{
    GxB_NAMM namm ;
    GrB_Semiring s ;
    TRY (GxB_NAMM_new (&namm, op, 0)) ;
    TRY (GxB_Semiring_new_NAMM (&s, add, namm)) ;
    TRY (GxB_NAMM_free (&namm)) ;       // the semiring keeps what it needs
    return s ;
}

int main (void)
{
    TRY (GrB_init (GrB_NONBLOCKING)) ;
    TRY (GxB_Distance_init ( )) ;

    // X: M rows of K columns, about half the entries present
    double dense [M][K] = { { 0 } } ;
    GrB_Matrix X ;
    TRY (GrB_Matrix_new (&X, GrB_FP64, M, K)) ;
    unsigned seed = 7 ;
    for (int i = 0 ; i < M ; i++)
        for (int c = 0 ; c < K ; c++)
        {
            seed = seed * 1103515245u + 12345u ;
            if ((seed >> 16) % 2) continue ;
            dense [i][c] = ((seed >> 8) % 40) / 8.0 - 2 ;      // -2 .. 2.875
            TRY (GrB_Matrix_setElement_FP64 (X, dense [i][c], i, c)) ;
        }

    GrB_BinaryOp op_clipped, op_plus, op_cube ;
    TRY (GxB_BinaryOp_new (&op_clipped, (GxB_binary_function) clipped,
        GrB_FP64, GrB_FP64, GrB_FP64, "clipped", CLIPPED_DEFN)) ;
    TRY (GxB_BinaryOp_new (&op_plus, (GxB_binary_function) plus,
        GrB_FP64, GrB_FP64, GrB_FP64, "plus", PLUS_DEFN)) ;
    TRY (GxB_BinaryOp_new (&op_cube, (GxB_binary_function) cube,
        GrB_FP64, GrB_FP64, GrB_FP64, "cube", CUBE_DEFN)) ;
    GrB_Semiring s_clipped = namm_semiring (op_clipped, GrB_PLUS_MONOID_FP64) ;
    GrB_Semiring s_minplus = namm_semiring (op_plus, GrB_MIN_MONOID_FP64) ;
    GrB_Semiring s_cube = namm_semiring (op_cube, GrB_PLUS_MONOID_FP64) ;

    GrB_Matrix C1, C2, C3, R ;
    TRY (GrB_Matrix_new (&C1, GrB_FP64, M, M)) ;
    TRY (GrB_Matrix_new (&C2, GrB_FP64, M, M)) ;
    TRY (GrB_Matrix_new (&C3, GrB_FP64, M, M)) ;
    TRY (GrB_Matrix_new (&R, GrB_FP64, M, M)) ;
    TRY (GxB_mxm_distance (C1, NULL, NULL, s_clipped, X, X, NULL)) ;
    TRY (GxB_mxm_distance (C2, NULL, NULL, s_minplus, X, X, NULL)) ;
    TRY (GxB_mxm_distance (C3, NULL, NULL, s_cube, X, X, NULL)) ;
    // the root: C3 = C3 .^ (1/3)
    TRY (GrB_Matrix_apply_BinaryOp2nd_FP64 (C3, NULL, NULL, GxB_POW_FP64, C3,
        1.0 / 3, NULL)) ;
    GrB_Semiring mink3 ;
    TRY (GxB_Semiring_new_minkowski (&mink3, 3, GrB_FP64)) ;
    TRY (GxB_mxm_distance (R, NULL, NULL, mink3, X, X, NULL)) ;

    int bad = 0 ;
    printf ("row pair   clipped  min-plus  Minkowski-3 (own / built-in)\n") ;
    for (int i = 0 ; i < M ; i++)
        for (int j = 0 ; j < M ; j++)
        {
            double c1, c2, c3, r ;
            TRY (GrB_Matrix_extractElement_FP64 (&c1, C1, i, j)) ;
            TRY (GrB_Matrix_extractElement_FP64 (&c2, C2, i, j)) ;
            TRY (GrB_Matrix_extractElement_FP64 (&c3, C3, i, j)) ;
            TRY (GrB_Matrix_extractElement_FP64 (&r, R, i, j)) ;
            double want = 0 ;
            for (int c = 0 ; c < K ; c++)
            {
                double d = fabs (dense [i][c] - dense [j][c]) ;
                want += (d < 1) ? d : 1 ;
            }
            bad += fabs (c1 - want) > 1e-12 * fmax (want, 1) ;
            bad += fabs (c3 - r) > 1e-12 * fmax (r, 1) ;
            if (j == i + 1)
                printf ("(%d,%d)      %7.3f  %8.3f  %7.4f / %7.4f\n", i, j, c1,
                    c2, c3, r) ;
        }
    printf ("%s\n", bad ? "MISMATCH" : "all entries agree") ;

    GrB_Matrix_free (&X) ; GrB_Matrix_free (&C1) ; GrB_Matrix_free (&C2) ;
    GrB_Matrix_free (&C3) ; GrB_Matrix_free (&R) ;
    GrB_Semiring_free (&s_clipped) ; GrB_Semiring_free (&s_minplus) ;
    GrB_Semiring_free (&s_cube) ; GrB_Semiring_free (&mink3) ;
    GrB_BinaryOp_free (&op_clipped) ; GrB_BinaryOp_free (&op_plus) ;
    GrB_BinaryOp_free (&op_cube) ;
    TRY (GxB_Distance_finalize ( )) ;
    TRY (GrB_finalize ( )) ;
    return bad ? 1 : 0 ;
}
