//------------------------------------------------------------------------------
// graphblas_ext/gxd_verify.c: compare a result with the SuiteSparse reference
//------------------------------------------------------------------------------

// Verify mode recomputes the product with reference/oracle/ (SuiteSparse
// calls only, textbook formulas, FP64) and compares within the documented
// tolerance: |got - ref| <= rtol * max(|ref|, S), rtol 1e-5 for FP32 and
// 1e-12 for FP64 results, S the conditioning of DOT and KL (docs/metrics.md);
// integer results must match exactly.

#include "gxd_internal.h"
#include "gxd_oracle.h"
#include <inttypes.h>

GrB_Info GXD_verify (const gxd_call *call, GrB_Matrix T, GrB_Matrix A,
    GrB_Matrix B, bool tran_a, bool tran_b)
{
    #define GXD_FREE_ALL                                                    \
        GrB_Matrix_free (&D) ; GrB_Matrix_free (&S) ;                       \
        if (Ar != A) GrB_Matrix_free (&Ar) ;                                \
        if (Br != B) GrB_Matrix_free (&Br) ;
    GrB_Matrix D = NULL, S = NULL, Ar = A, Br = B ;
    GXD_TRY (GXD_rows_effective (&Ar, A, tran_a)) ;
    GXD_TRY (GXD_rows_effective (&Br, B, tran_b)) ;
    bool metric = call->path == GXD_PATH_BACKEND
        && call->plan.metric != GXD_GENERIC ;
    if (metric)
    {
        GXD_TRY (GXO_metric (&D, call->name, call->plan.p, call->type, Ar, Br)) ;
        GXD_TRY (GXO_scale (&S, call->name, call->type, Ar, Br)) ;
    }
    else
    {
        GXD_TRY (GXO_union (&D, call->add, call->mult, call->identity, Ar, Br)) ;
    }
    double rtol = (call->type == GrB_FP32) ? 1e-5
        : (call->type == GrB_FP64) ? 1e-12 : 0 ;
    int64_t nbad = 0, wi = 0, wj = 0 ;
    double got = 0, ref = 0 ;
    GXD_TRY (GXO_compare (T, D, S, rtol, &nbad, &wi, &wj, &got, &ref)) ;
    if (nbad > 0)
    {
        GXD_FAIL (GxB_VERIFY_FAILED, "GxB_mxm_distance: verify: %s differs "
            "from the SuiteSparse reference in %" PRId64 " entries (rtol %g); "
            "worst at (i,j) = (%" PRId64 ",%" PRId64 "): got %.17g, reference "
            "%.17g", call->name, nbad, rtol, wi, wj, got, ref) ;
    }
    GXD_FREE_ALL ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}
