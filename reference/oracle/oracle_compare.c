//------------------------------------------------------------------------------
// reference/oracle/oracle_compare.c: GXO_compare, a result against the oracle
//------------------------------------------------------------------------------

// The one tolerance rule of tests and verify mode: |got - ref| <= rtol *
// max (|ref|, S), S the conditioning scale of GXO_scale.  Only got's present
// entries are compared, so a masked (sampled) result is checked against the
// full reference.  A NaN or Inf where the reference is finite always fails,
// since NaN fails every comparison that would otherwise let it through.

#include "oracle_internal.h"
#include <float.h>
#include <math.h>

// The comparison is GraphBLAS calls over got's entries (a C loop over
// extracted tuples costs several times more on m*n results): z = how far g
// is from r, |g - r| when both are finite, 0 for a NaN where r is NaN or the
// same infinity, infinite for any other non-finite pair
static void deviation (void *z, const void *x, const void *y)
{
    double g = *(const double *) x, r = *(const double *) y, d ;
    if (isnan (r))          d = isnan (g) ? 0 : INFINITY ;
    else if (isinf (r))     d = (g == r) ? 0 : INFINITY ;
    else if (!isfinite (g)) d = INFINITY ;
    else                    d = fabs (g - r) ;
    *(double *) z = d ;
}

// z = d / t: how far, relative to the tolerance's scale t (DBL_MIN at least)
static void relative (void *z, const void *x, const void *y)
{
    double d = *(const double *) x, t = *(const double *) y ;
    *(double *) z = (d == 0) ? 0 : isinf (d) ? INFINITY : d / fmax (t, DBL_MIN) ;
}

#undef  FREE_ALL
#define FREE_ALL                                                            \
    GrB_BinaryOp_free (&dev) ; GrB_BinaryOp_free (&rel) ;                   \
    GrB_Matrix_free (&E) ; GrB_Matrix_free (&T) ; GrB_Matrix_free (&W) ;    \
    free (I) ; free (J) ;

GrB_Info GXO_compare (GrB_Matrix got, GrB_Matrix ref, GrB_Matrix S,
    double rtol, int64_t *nbad, int64_t *worst_i, int64_t *worst_j,
    double *worst_got, double *worst_ref)
{
    GrB_BinaryOp dev = NULL, rel = NULL ;
    GrB_Matrix E = NULL, T = NULL, W = NULL ;
    GrB_Index *I = NULL, *J = NULL ;
    CHECK (got != NULL && ref != NULL && nbad != NULL && worst_i != NULL &&
        worst_j != NULL && worst_got != NULL && worst_ref != NULL,
        GrB_NULL_POINTER) ;
    GrB_Index m, n, rm, rn, rnvals, nvals ;
    TRY (GrB_Matrix_nrows (&m, got)) ;
    TRY (GrB_Matrix_ncols (&n, got)) ;
    TRY (GrB_Matrix_nrows (&rm, ref)) ;
    TRY (GrB_Matrix_ncols (&rn, ref)) ;
    CHECK (rm == m && rn == n, GrB_DIMENSION_MISMATCH) ;
    TRY (GrB_Matrix_nvals (&rnvals, ref)) ;
    CHECK (rnvals == m * n, GrB_INVALID_VALUE) ;        // ref must be full
    if (S != NULL)
    {
        TRY (GrB_Matrix_nrows (&rm, S)) ;
        TRY (GrB_Matrix_ncols (&rn, S)) ;
        CHECK (rm == m && rn == n, GrB_DIMENSION_MISMATCH) ;
    }
    TRY (GxB_BinaryOp_new (&dev, deviation, GrB_FP64, GrB_FP64, GrB_FP64,
        "gxo_deviation", NULL)) ;
    TRY (GxB_BinaryOp_new (&rel, relative, GrB_FP64, GrB_FP64, GrB_FP64,
        "gxo_relative", NULL)) ;
    // E = deviation, T = max (|ref|, S), both on got's entries (typecast to
    // double by GraphBLAS); then E = E / T
    TRY (GrB_Matrix_new (&E, GrB_FP64, m, n)) ;
    TRY (GrB_Matrix_eWiseMult_BinaryOp (E, NULL, NULL, dev, got, ref, NULL)) ;
    TRY (GrB_Matrix_new (&T, GrB_FP64, m, n)) ;
    TRY (GrB_Matrix_apply (T, got, NULL, GrB_ABS_FP64, ref, GrB_DESC_S)) ;
    if (S != NULL)
    {
        TRY (GrB_Matrix_eWiseMult_BinaryOp (T, NULL, NULL, GrB_MAX_FP64, T, S,
            NULL)) ;
    }
    TRY (GrB_Matrix_eWiseMult_BinaryOp (E, NULL, NULL, rel, E, T, NULL)) ;
    // failing: E > rtol (d <= rtol t passes, as d / t <= rtol does)
    TRY (GrB_Matrix_new (&W, GrB_FP64, m, n)) ;
    TRY (GrB_Matrix_select_FP64 (W, NULL, NULL, GrB_VALUEGT_FP64, E, rtol,
        NULL)) ;
    TRY (GrB_Matrix_nvals (&nvals, W)) ;
    *nbad = (int64_t) nvals ;
    // the worst: the first entry holding the largest E
    double worst = 0 ;
    TRY (GrB_Matrix_nvals (&nvals, E)) ;
    *worst_i = *worst_j = -1 ;
    *worst_got = *worst_ref = 0 ;
    if (nvals > 0)
    {
        TRY (GrB_Matrix_reduce_FP64 (&worst, NULL, GrB_MAX_MONOID_FP64, E,
            NULL)) ;
        TRY (GrB_Matrix_select_FP64 (W, NULL, NULL, GrB_VALUEEQ_FP64, E, worst,
            NULL)) ;
        TRY (GrB_Matrix_nvals (&nvals, W)) ;
        I = calloc (nvals + 1, sizeof (GrB_Index)) ;
        J = calloc (nvals + 1, sizeof (GrB_Index)) ;
        CHECK (I != NULL && J != NULL, GrB_OUT_OF_MEMORY) ;
        TRY (GrB_Matrix_extractTuples_FP64 (I, J, NULL, &nvals, W)) ;
        GrB_Index i = I [0], j = J [0] ;
        for (GrB_Index q = 1 ; q < nvals ; q++)
        {
            if (I [q] < i || (I [q] == i && J [q] < j)) { i = I [q] ; j = J [q] ; }
        }
        *worst_i = (int64_t) i ;
        *worst_j = (int64_t) j ;
        TRY (GrB_Matrix_extractElement_FP64 (worst_got, got, i, j)) ;
        TRY (GrB_Matrix_extractElement_FP64 (worst_ref, ref, i, j)) ;
    }
    FREE_ALL ;
    return (GrB_SUCCESS) ;
}
