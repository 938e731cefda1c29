// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// cpu/cpu_pair.c: one pair over the union of its columns
//------------------------------------------------------------------------------

// A merge of the two sorted rows (seed 001 Algorithm 2), applying the
// metric's union step to every column of a U b.  Exact (no cancellation):
// used for sampled outputs, exact mode, Chebyshev and generic non-plus
// monoids, and for the pairs the rewrite cannot resolve.

#include "cpu_internal.h"

// a generic plan's built-in monoid, as the compiled merge numbers it
static inline int merge_monoid (gxd_opcode add)
{
    switch (add)
    {
        case GXD_OP_TIMES: return GXD_USER_MERGE_TIMES ;
        case GXD_OP_MIN:   return GXD_USER_MERGE_MIN ;
        case GXD_OP_MAX:   return GXD_USER_MERGE_MAX ;
        default:           return GXD_USER_MERGE_PLUS ;
    }
}

// the merge for metric m (a constant in each specialisation below)
static inline __attribute__((always_inline)) double pair_merge
(
    gxd_metric_id m, const gxd_plan *Pin, const cpu_rows *A, int64_t i,
    const cpu_rows *B, int64_t j
)
{
    const gxd_plan Pl = *Pin, *P = &Pl ;
    double e = (m == GXD_GENERIC) ? P->identity : 0 ;
    const gxd_row *ra = &A->row [i], *rb = &B->row [j] ;
    const int64_t *Aj = A->j, *Bj = B->j ;
    const double *Ax = A->x, *Bx = B->x ;
    int64_t p = A->p [i], pend = A->p [i+1] ;
    int64_t q = B->p [j], qend = B->p [j+1] ;
    gxd_ustate s = gxd_ubegin (m, P) ;
    int64_t nu = (pend - p) + (qend - q) ;
    if (m == GXD_GENERIC && P->mult == GXD_OP_USER && P->add != GXD_OP_USER)
    {
        // a user's operator: its compiled module runs this same merge with
        // the operator inlined (gxd_jit.c), one call per pair, not per term
        s.s0 = P->user_merge (merge_monoid (P->add), Aj + p, Ax + p, pend - p,
            Bj + q, Bx + q, qend - q, e, s.s0, &nu) ;
        return gxd_uend (m, P, &s, nu, ra, rb, A->ncols) ;
    }
    while (p < pend && q < qend)
    {
        int64_t ca = Aj [p], cb = Bj [q] ;
        double x = (ca <= cb) ? Ax [p] : e ;
        double y = (cb <= ca) ? Bx [q] : e ;
        gxd_ustep (m, P, &s, x, y, ra, rb) ;
        nu -= (ca == cb) ;
        p += (ca <= cb) ;
        q += (cb <= ca) ;
    }
    for ( ; p < pend ; p++) gxd_ustep (m, P, &s, Ax [p], e, ra, rb) ;
    for ( ; q < qend ; q++) gxd_ustep (m, P, &s, e, Bx [q], ra, rb) ;
    return gxd_uend (m, P, &s, nu, ra, rb, A->ncols) ;
}

#define PAIR_CASE(M) case M: return pair_merge (M, P, A, i, B, j) ;
#define PAIR_ROW(U, NAME, ...) PAIR_CASE (GXD_ ## NAME)

// a specialisation per metric (GXD_METRICS).  No default: a metric id the
// switch misses is a compile error (-Werror=switch); plans come from
// graphblas_ext/, which makes them of these ids only, so the NaN after it
// is never reached
double GXD_cpu_pair (const gxd_plan *P, const cpu_rows *A, int64_t i,
    const cpu_rows *B, int64_t j)
{
    switch (P->metric)
    {
        GXD_METRICS (PAIR_ROW, ~)
        PAIR_CASE (GXD_GENERIC)
    }
    return GXD_NAN ;
}
