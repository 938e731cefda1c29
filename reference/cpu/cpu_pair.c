//------------------------------------------------------------------------------
// reference/cpu/cpu_pair.c: one pair over the union of its columns
//------------------------------------------------------------------------------

// A merge of the two sorted rows (seed 001 Algorithm 2), applying the
// metric's union step to every column of a U b.  Exact (no cancellation):
// used for sampled outputs, exact mode, Chebyshev and generic non-plus
// monoids, and for the pairs the rewrite cannot resolve.

#include "cpu_internal.h"

double GXD_cpu_pair (const gxd_plan *P, const cpu_rows *A, int64_t i,
    const cpu_rows *B, int64_t j)
{
    gxd_metric_id m = P->metric ;
    double e = (m == GXD_GENERIC) ? P->identity : 0 ;
    const gxd_row *ra = &A->row [i], *rb = &B->row [j] ;
    int64_t p = A->p [i], pend = A->p [i+1] ;
    int64_t q = B->p [j], qend = B->p [j+1] ;
    gxd_ustate s = gxd_ubegin (m, P) ;
    int64_t nu = 0 ;
    while (p < pend && q < qend)
    {
        int64_t ca = A->j [p], cb = B->j [q] ;
        if (ca == cb)      gxd_ustep (m, P, &s, A->x [p++], B->x [q++], ra, rb) ;
        else if (ca < cb)  gxd_ustep (m, P, &s, A->x [p++], e, ra, rb) ;
        else               gxd_ustep (m, P, &s, e, B->x [q++], ra, rb) ;
        nu++ ;
    }
    for ( ; p < pend ; p++, nu++) gxd_ustep (m, P, &s, A->x [p], e, ra, rb) ;
    for ( ; q < qend ; q++, nu++) gxd_ustep (m, P, &s, e, B->x [q], ra, rb) ;
    return gxd_uend (m, P, &s, nu, ra, rb, A->ncols) ;
}
