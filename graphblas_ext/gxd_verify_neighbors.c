// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// graphblas_ext/gxd_verify_neighbors.c: neighborhoods against brute force
//------------------------------------------------------------------------------

// Verify mode for GxB_kNN and GxB_radius_graph.  A sample of rows of A
// (GXD_verify_sample: GxB_Distance_set_verify_rows rows, default 64, first
// and last included; every row when m is no more) is recomputed against all
// of B by the SuiteSparse reference (reference/oracle), and each sampled row
// of the result is checked:
//   - every neighbor is a candidate (mask, self) and its value is the
//     reference's within the tolerance of verify mode (docs/metrics.md);
//   - kNN: it has min (k, candidates) neighbors, and no candidate left out
//     is better than the worst one kept by more than the tolerance (equal
//     values within the tolerance may be chosen either way);
//   - radius: every neighbor is within eps and every candidate within eps
//     by more than the tolerance is there.
// Ordinary (intersection) semirings are computed by GrB_mxm itself and are
// not checked again.

#include "gxd_neighbors.h"
#include "gxd_oracle.h"
#include <inttypes.h>
#include <math.h>

// the entries of an FP64-castable matrix as a dense row-major array
static GrB_Info dense (double **X, GrB_Matrix D, GrB_Index ns, GrB_Index n,
    double fill)
{
    #define GXD_FREE_ALL GXD_free (*X) ; *X = NULL ; GXD_free (I) ; GXD_free (J) ; GXD_free (V) ;
    GrB_Index *I = NULL, *J = NULL, nvals ;
    double *V = NULL ;
    *X = GXD_malloc ((ns * n > 0 ? ns * n : 1) * sizeof (double)) ;
    GXD_TRY (GrB_Matrix_nvals (&nvals, D)) ;
    I = GXD_malloc ((nvals + 1) * sizeof (GrB_Index)) ;
    J = GXD_malloc ((nvals + 1) * sizeof (GrB_Index)) ;
    V = GXD_malloc ((nvals + 1) * sizeof (double)) ;
    if (*X == NULL || I == NULL || J == NULL || V == NULL)
    {
        GXD_FAIL (GrB_OUT_OF_MEMORY, "verify: out of memory") ;
    }
    for (GrB_Index q = 0 ; q < ns * n ; q++) (*X) [q] = fill ;
    GXD_TRY (GrB_Matrix_extractTuples_FP64 (I, J, V, &nvals, D)) ;
    for (GrB_Index q = 0 ; q < nvals ; q++) (*X) [I [q] * n + J [q]] = V [q] ;
    GXD_free (I) ; GXD_free (J) ; GXD_free (V) ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

static bool near (double got, double ref, double tol)
{
    if (got != got || ref != ref) return (got != got) && (ref != ref) ;
    if (isinf (ref) || isinf (got)) return got == ref ;
    return fabs (got - ref) <= tol ;
}

GrB_Info GXD_verify_neighbors (const gxd_neighbors *N, GrB_Matrix T,
    GrB_Matrix Mask, GrB_Matrix A, GrB_Matrix B, uint64_t k, double eps)
{
    #define GXD_FREE_ALL                                                    \
        GrB_Matrix_free (&As) ; GrB_Matrix_free (&Ts) ;                     \
        GrB_Matrix_free (&Ms) ; GrB_Matrix_free (&D) ; GrB_Matrix_free (&S) ; \
        GXD_rows_free (&Mr) ; GXD_free (I) ; GXD_free (ref) ;               \
        GXD_free (scale) ; GXD_free (got) ; GXD_free (cand) ;              \
        GrB_Matrix_free (&P) ; GXD_free (present) ;
    GrB_Matrix As = NULL, Ts = NULL, Ms = NULL, D = NULL, S = NULL, P = NULL ;
    double *present = NULL ;
    gxd_rows Mr = { 0 } ;
    GrB_Index *I = NULL ;
    double *ref = NULL, *scale = NULL, *got = NULL ;
    bool *cand = NULL ;
    const gxd_call *call = &N->call ;
    if (call->path == GXD_PATH_INTERSECT) return GrB_SUCCESS ;
    GrB_Index m = N->m, n = N->n ;
    GrB_Index ns ;
    if (m == 0 || n == 0) return GrB_SUCCESS ;
    GXD_TRY (GXD_verify_sample (&I, &ns, m)) ;
    cand = GXD_malloc (ns * n * sizeof (bool)) ;
    if (cand == NULL) GXD_FAIL (GrB_OUT_OF_MEMORY, "verify: out of memory") ;
    // the reference distances of the sampled rows, and their scale
    GXD_TRY (GXD_verify_rows_at (&As, A, I, ns)) ;
    bool metric = call->plan.metric != GXD_GENERIC && call->path == GXD_PATH_BACKEND ;
    if (metric)
    {
        GXD_TRY (GXO_metric (&D, call->name, call->plan.p, call->type, As, B)) ;
        GXD_TRY (GXO_scale (&S, call->name, call->type, As, B)) ;
        GXD_TRY (dense (&scale, S, ns, n, 0)) ;
    }
    else
    {
        // a union: without completing the rows (reference/oracle)
        GXD_TRY (GXO_monoid_is_plus (call->add)
            ? GXO_union_plus (&D, call->add, call->mult, call->identity, As, B,
                GXD_VERIFY_TAU)
            : GXO_union_rows (&D, call->add, call->mult, call->identity, As, B)) ;
    }
    GXD_TRY (dense (&ref, D, ns, n, NAN)) ;
    GXD_TRY (GXD_verify_rows_at (&Ts, T, I, ns)) ;
    GXD_TRY (dense (&got, Ts, ns, n, NAN)) ;
    // the candidates of each sampled row
    for (GrB_Index q = 0 ; q < ns * n ; q++) cand [q] = (Mask == NULL || N->d.mask_comp) ;
    if (Mask != NULL)
    {
        GXD_TRY (GXD_verify_rows_at (&Ms, Mask, I, ns)) ;
        GXD_TRY (GXD_mask_pattern (&Mr, Ms, N->d.mask_struct)) ;
        for (GrB_Index t = 0 ; t < ns ; t++)
        {
            for (int64_t q = Mr.csr.p [t] ; q < Mr.csr.p [t+1] ; q++)
            {
                cand [t * n + Mr.csr.j [q]] = !N->d.mask_comp ;
            }
        }
    }
    if (N->exclude_self)
    {
        for (GrB_Index t = 0 ; t < ns ; t++) if (I [t] < n) cand [t * n + I [t]] = false ;
    }
    // where the result has entries (a NaN distance is an entry too)
    GXD_TRY (GrB_Matrix_new (&P, GrB_FP64, ns, n)) ;
    GXD_TRY (GrB_Matrix_apply (P, NULL, NULL, GxB_ONE_FP64, Ts, NULL)) ;
    GXD_TRY (dense (&present, P, ns, n, 0)) ;
    double rtol = (N->type == GrB_FP32) ? 1e-5 : 1e-12 ;
    for (GrB_Index t = 0 ; t < ns ; t++)
    {
        GrB_Index i = I [t], have = 0, ncand = 0 ;
        const double *r = ref + t * n, *g = got + t * n, *sc = scale ? scale + t * n : NULL ;
        const bool *c = cand + t * n ;
        const double *in = present + t * n ;
        double worst = 0 ;
        bool any = false ;
        for (GrB_Index j = 0 ; j < n ; j++)
        {
            ncand += c [j] ;
            if (!in [j]) continue ;
            have++ ;
            double tol = rtol * fmax (fabs (r [j]), sc ? sc [j] : 0) ;
            if (!c [j] || !near (g [j], r [j], tol))
            {
                GXD_FAIL (GxB_VERIFY_FAILED, "%s: verify: row %" PRIu64
                    ", neighbor %" PRIu64 ": %s (got %.17g, reference %.17g)",
                    N->fn, i, j, c [j] ? "value differs" : "not a candidate",
                    g [j], r [j]) ;
            }
            if (!any || gxd_better (worst, r [j], N->largest)) worst = r [j] ;
            any = true ;
        }
        for (GrB_Index j = 0 ; j < n ; j++)
        {
            if (!c [j] || in [j]) continue ;
            double tol = rtol * fmax (fabs (r [j]), sc ? sc [j] : 0) ;
            bool missing ;
            if (k > 0)
            {
                // a candidate left out must not beat the worst kept
                missing = any && gxd_better (r [j], worst, N->largest)
                    && !near (r [j], worst, tol + rtol * fabs (worst)) ;
            }
            else
            {
                // a candidate clearly within eps must be there
                missing = N->largest ? (r [j] - tol >= eps) : (r [j] + tol <= eps) ;
            }
            if (missing)
            {
                GXD_FAIL (GxB_VERIFY_FAILED, "%s: verify: row %" PRIu64
                    " misses neighbor %" PRIu64 " at distance %.17g (%s %.17g)",
                    N->fn, i, j, r [j], k > 0 ? "worst kept" : "eps",
                    k > 0 ? worst : eps) ;
            }
        }
        GrB_Index want = (k > 0) ? ((k < ncand) ? k : ncand) : have ;
        if (have != want)
        {
            GXD_FAIL (GxB_VERIFY_FAILED, "%s: verify: row %" PRIu64 " has %"
                PRIu64 " neighbors, expected %" PRIu64 " (of %" PRIu64
                " candidates)", N->fn, i, have, want, ncand) ;
        }
    }
    GXD_FREE_ALL ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}
