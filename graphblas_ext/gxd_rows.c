// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// graphblas_ext/gxd_rows.c: an owned CSR copy of a matrix for a backend
//------------------------------------------------------------------------------

// The caller's matrix is never touched: it is copied once (O(nnz)) into the
// semiring's type, as sorted non-iso CSR whatever its format (hypersparse,
// bitmap, full, iso, jumbled), and the arrays are unpacked from the copy.
// Free packs them back and frees the copy, so SuiteSparse's allocator owns
// them from start to end.

#include "gxd_internal.h"
#include <inttypes.h>
#include <math.h>
#include <string.h>

void GXD_rows_free (gxd_rows *R)
{
    if (R->T != NULL && R->p != NULL)
    {
        GxB_Matrix_pack_CSR (R->T, &R->p, &R->j, &R->x, R->p_size, R->j_size,
            R->x_size, false, false, NULL) ;
    }
    GrB_Matrix_free (&R->T) ;
    memset (R, 0, sizeof (*R)) ;
}

// unpack R->T (already of the right type and shape) into R
GrB_Info GXD_rows_unpack (gxd_rows *R)
{
    #define GXD_FREE_ALL GXD_rows_free (R) ;
    GrB_Index nrows, ncols ;
    GXD_TRY (GrB_Matrix_nrows (&nrows, R->T)) ;
    GXD_TRY (GrB_Matrix_ncols (&ncols, R->T)) ;
    GXD_TRY (GxB_Matrix_Option_set (R->T, GxB_FORMAT, GxB_BY_ROW)) ;
    GXD_TRY (GxB_Matrix_Option_set (R->T, GxB_SPARSITY_CONTROL, GxB_SPARSE)) ;
    GXD_TRY (GrB_Matrix_wait (R->T, GrB_MATERIALIZE)) ;
    // iso and jumbled NULL: expand iso values, sort the columns
    GXD_TRY (GxB_Matrix_unpack_CSR (R->T, &R->p, &R->j, &R->x, &R->p_size,
        &R->j_size, &R->x_size, NULL, NULL, NULL)) ;
    R->csr.nrows = (int64_t) nrows ;
    R->csr.ncols = (int64_t) ncols ;
    R->csr.p = (const int64_t *) R->p ;
    R->csr.j = (const int64_t *) R->j ;
    R->csr.x = R->x ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

// R->T = the copy (still a GrB_Matrix, for GraphBLAS calls before unpack)
GrB_Info GXD_rows_copy (gxd_rows *R, GrB_Matrix A, bool transpose,
    GrB_Type type)
{
    #define GXD_FREE_ALL GXD_rows_free (R) ;
    memset (R, 0, sizeof (*R)) ;
    GrB_Index nrows, ncols ;
    GXD_TRY (GrB_Matrix_nrows (&nrows, A)) ;
    GXD_TRY (GrB_Matrix_ncols (&ncols, A)) ;
    if (transpose) { GrB_Index t = nrows ; nrows = ncols ; ncols = t ; }
    GXD_TRY (GrB_Matrix_new (&R->T, type, nrows, ncols)) ;
    GXD_TRY (GrB_Matrix_apply (R->T, NULL, NULL, GXD_identity_op (type), A,
        transpose ? GrB_DESC_T0 : NULL)) ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

GrB_Info GXD_rows_get (gxd_rows *R, GrB_Matrix A, bool transpose,
    GrB_Type type)
{
    #define GXD_FREE_ALL GXD_rows_free (R) ;
    GXD_TRY (GXD_rows_copy (R, A, transpose, type)) ;
    GXD_TRY (GXD_rows_unpack (R)) ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

// pack R's arrays back into R->T (unpacked by GXD_rows_unpack), which stays
GrB_Info GXD_rows_pack (gxd_rows *R)
{
    #define GXD_FREE_ALL GXD_rows_free (R) ;
    if (R->p == NULL) return GrB_SUCCESS ;
    GXD_TRY (GxB_Matrix_pack_CSR (R->T, &R->p, &R->j, &R->x, R->p_size,
        R->j_size, R->x_size, false, false, NULL)) ;
    GrB_Matrix T = R->T ;
    memset (R, 0, sizeof (*R)) ;
    R->T = T ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

// whether one value (its bits u, of a float or double: exp its exponent
// field, sign its sign bit) is outside the domain: NaN or an infinity, or
// below -0 where only non-negative values are
#define GXD_OUTSIDE(u, exp, sign, nonneg) \
    ((((u) & (exp)) == (exp)) | ((nonneg) & ((u) > (sign))))

// whether any of R's values is outside the domain: a branch-free pass over
// their bits (it vectorizes), the entry itself found only where one is
static bool any_outside (const gxd_rows *R, bool fp64, bool nonneg)
{
    const int64_t nnz = R->csr.p [R->csr.nrows] ;
    bool bad = false ;
    if (fp64)
    {
        const double *x = (const double *) R->x ;
        for (int64_t q = 0 ; q < nnz ; q++)
        {
            uint64_t u ;
            memcpy (&u, x + q, sizeof (u)) ;
            bad |= GXD_OUTSIDE (u, 0x7FF0000000000000ULL, 0x8000000000000000ULL, nonneg) ;
        }
    }
    else
    {
        const float *x = (const float *) R->x ;
        for (int64_t q = 0 ; q < nnz ; q++)
        {
            uint32_t u ;
            memcpy (&u, x + q, sizeof (u)) ;
            bad |= GXD_OUTSIDE (u, 0x7F800000u, 0x80000000u, nonneg) ;
        }
    }
    return bad ;
}

static GrB_Info check_side (const gxd_rows *R, const gxd_call *call,
    bool nonneg, const char *what)
{
    const bool fp64 = call->plan.fp64 ;
    if (!any_outside (R, fp64, nonneg)) return GrB_SUCCESS ;
    const int64_t nnz = R->csr.p [R->csr.nrows] ;
    for (int64_t q = 0 ; q < nnz ; q++)
    {
        const double v = fp64 ? ((const double *) R->x) [q] : ((const float *) R->x) [q] ;
        if (isfinite (v) && !(nonneg && v < 0)) continue ;
        int64_t i = 0 ;
        while (R->csr.p [i+1] <= q) i++ ;
        return GXD_error (GrB_INVALID_VALUE, "%s: %s needs %s input, but "
            "%s(%" PRId64 ",%" PRId64 ") = %g", call->fn, call->name,
            isfinite (v) ? "non-negative" : "finite", what, i, R->csr.j [q], v) ;
    }
    return GrB_SUCCESS ;
}

GrB_Info GXD_rows_check_domain (const gxd_call *call, const gxd_rows *A,
    const gxd_rows *B)
{
    #define GXD_FREE_ALL ;
    const gxd_metric_id m = call->plan.metric ;
    if (m == GXD_GENERIC) return GrB_SUCCESS ;
    const bool nonneg = gxd_metric_table [m].nonneg ;
    GXD_TRY (check_side (A, call, nonneg, "A")) ;
    if (B != A) GXD_TRY (check_side (B, call, nonneg, "B")) ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

// rows r0 .. r0+nr-1 of A (A itself when that is all of it)
GrB_Info GXD_rows_range (GrB_Matrix *R, GrB_Matrix A, int64_t r0,
    int64_t nr, int64_t m)
{
    #define GXD_FREE_ALL GrB_Matrix_free (R) ;
    if (r0 == 0 && nr == m) { *R = A ; return GrB_SUCCESS ; }
    GrB_Type type ;
    GrB_Index ncols ;
    GXD_TRY (GxB_Matrix_type (&type, A)) ;
    GXD_TRY (GrB_Matrix_ncols (&ncols, A)) ;
    GXD_TRY (GrB_Matrix_new (R, type, nr, ncols)) ;
    GrB_Index I [2] = { (GrB_Index) r0, (GrB_Index) (r0 + nr - 1) } ;
    GXD_TRY (GrB_Matrix_extract (*R, NULL, NULL, A, I, GxB_RANGE, GrB_ALL,
        ncols, NULL)) ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}
