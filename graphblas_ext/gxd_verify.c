// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// graphblas_ext/gxd_verify.c: compare a result with the SuiteSparse reference
//------------------------------------------------------------------------------

// Verify mode recomputes the product with reference/oracle/ (SuiteSparse
// calls only, textbook formulas) and compares within the documented
// tolerance: |got - ref| <= rtol * max(|ref|, S), rtol 1e-5 for FP32 and
// 1e-12 for FP64 results, S the conditioning of DOT and KL (docs/metrics.md);
// integer results must match exactly.  What is recomputed:
//   - every entry where the reference is a sum it can form from products
//     and row sums at about the cost of the product itself: a union whose
//     (+) is PLUS (GXO_union_plus) and the metrics GXO_metric_fast names;
//   - every entry of a sample of rows of A otherwise (another monoid:
//     GXO_union_rows; CHEBYSHEV: GXO_metric),
//     the rows of GXD_verify_sample (GxB_Distance_set_verify_rows).

#include "gxd_internal.h"
#include "gxd_oracle.h"
#include <inttypes.h>

// Integer results must equal the reference exactly, which a comparison in
// double cannot see above 2^53: *nbad = the entries of got (an integer
// type) that differ from ref in INT64 (a typecast that wraps, so distinct
// 64-bit integers stay distinct), *wi, *wj the first of them
static GrB_Info int_mismatch (int64_t *nbad, int64_t *wi, int64_t *wj,
    GrB_Matrix got, GrB_Matrix ref)
{
    #define GXD_FREE_ALL GrB_Matrix_free (&E) ; GXD_free (I) ; GXD_free (J) ;
    GrB_Matrix E = NULL ;
    GrB_Index *I = NULL, *J = NULL, m, n, ne ;
    GXD_TRY (GrB_Matrix_nrows (&m, got)) ;
    GXD_TRY (GrB_Matrix_ncols (&n, got)) ;
    GXD_TRY (GrB_Matrix_new (&E, GrB_BOOL, m, n)) ;
    GXD_TRY (GrB_Matrix_eWiseMult_BinaryOp (E, NULL, NULL, GrB_NE_INT64, got, ref, NULL)) ;
    GXD_TRY (GrB_Matrix_select_BOOL (E, NULL, NULL, GrB_VALUEEQ_BOOL, E, true, NULL)) ;
    GXD_TRY (GrB_Matrix_nvals (&ne, E)) ;
    *nbad = (int64_t) ne ;
    if (ne > 0)
    {
        I = GXD_malloc (ne * sizeof (GrB_Index)) ;
        J = GXD_malloc (ne * sizeof (GrB_Index)) ;
        if (I == NULL || J == NULL) GXD_FAIL (GrB_OUT_OF_MEMORY, "verify: out of memory") ;
        GXD_TRY (GrB_Matrix_extractTuples_BOOL (I, J, NULL, &ne, E)) ;
        *wi = (int64_t) I [0] ;
        *wj = (int64_t) J [0] ;
    }
    GXD_FREE_ALL ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

GrB_Info GXD_verify (const gxd_call *call, GrB_Matrix T, GrB_Matrix A,
    GrB_Matrix B, bool tran_a, bool tran_b)
{
    #define GXD_FREE_ALL                                                    \
        GrB_Matrix_free (&D) ;                                              \
        GrB_Matrix_free (&As) ; GrB_Matrix_free (&Ts) ; GXD_free (I) ;      \
        if (Ar != A) GrB_Matrix_free (&Ar) ;                                \
        if (Br != B) GrB_Matrix_free (&Br) ;
    GrB_Matrix D = NULL, Ar = A, Br = B, As = NULL, Ts = NULL ;
    GrB_Index *I = NULL, m, ns ;
    GXD_TRY (GXD_rows_effective (&Ar, A, tran_a)) ;
    GXD_TRY (GXD_rows_effective (&Br, B, tran_b)) ;
    GXD_TRY (GrB_Matrix_nrows (&m, Ar)) ;
    bool metric = call->path == GXD_PATH_BACKEND
        && call->plan.metric != GXD_GENERIC ;
    bool every = metric ? GXO_metric_fast (call->name, call->plan.p)
                        : GXO_monoid_is_plus (call->add) ;
    ns = m ;
    if (!every)
    {
        GXD_TRY (GXD_verify_sample (&I, &ns, m)) ;
        if (ns < m)
        {
            GXD_TRY (GXD_verify_rows_at (&As, Ar, I, ns)) ;
            GXD_TRY (GXD_verify_rows_at (&Ts, T, I, ns)) ;
        }
    }
    GrB_Matrix Ac = (As != NULL) ? As : Ar, Tc = (Ts != NULL) ? Ts : T ;
    double rtol = (call->type == GrB_FP32) ? 1e-5
        : (call->type == GrB_FP64) ? 1e-12 : 0 ;
    int64_t nbad = 0, wi = 0, wj = 0 ;
    double got = 0, ref = 0 ;
    if (metric)
    {
        // a block of rows at a time, never the whole reference at once
        GXD_TRY (GXO_metric_compare (Tc, call->name, call->plan.p, call->type,
            Ac, Br, rtol, &nbad, &wi, &wj, &got, &ref)) ;
    }
    else if (every)
    {
        GXD_TRY (GXO_union_plus (&D, call->add, call->mult, call->identity,
            Ac, Br, GXD_VERIFY_TAU)) ;
    }
    else
    {
        GXD_TRY (GXO_union_rows (&D, call->add, call->mult, call->identity,
            Ac, Br)) ;
    }
    if (D != NULL)
    {
        GXD_TRY (GXO_compare (Tc, D, NULL, rtol, &nbad, &wi, &wj, &got,
            &ref)) ;
    }
    if (D != NULL && nbad == 0 && call->type != GrB_FP32 &&
        call->type != GrB_FP64)
    {
        GXD_TRY (int_mismatch (&nbad, &wi, &wj, Tc, D)) ;
        if (nbad > 0)
        {
            GXD_TRY (GrB_Matrix_extractElement_FP64 (&got, Tc, wi, wj)) ;
            GXD_TRY (GrB_Matrix_extractElement_FP64 (&ref, D, wi, wj)) ;
        }
    }
    if (nbad > 0)
    {
        // a sampled row's index in A
        if (As != NULL && wi >= 0) wi = (int64_t) I [wi] ;
        char rows [96] = "" ;
        if (ns < m)
        {
            snprintf (rows, sizeof (rows), " (of the %" PRIu64 " sampled rows "
                "of %" PRIu64 ")", (uint64_t) ns, (uint64_t) m) ;
        }
        GXD_FAIL (GxB_VERIFY_FAILED, "%s: verify: %s differs from the "
            "SuiteSparse reference in %" PRId64 " entries%s (rtol %g); worst "
            "at (i,j) = (%" PRId64 ",%" PRId64 "): got %.17g, reference %.17g",
            call->fn, call->name, nbad, rows, rtol, wi, wj, got, ref) ;
    }
    GXD_FREE_ALL ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}
