// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// cpu/cpu_minmax.c: MIN and MAX unions of every pair, by their split
//------------------------------------------------------------------------------

// CHEBYSHEV, and generic plans (a user's compiled operator, or a built-in
// one) under the MIN or MAX monoid.  The best term over the union of rows i
// and j is the best of f over their common columns (the intersection
// product, B by columns), f(x,e) over the columns of row i that row j
// lacks, f(e,y) over those of row j that row i lacks, and f(e,e) where a
// column is in neither.  With each row's entries in (+)'s order of f(x,e)
// (f(e,y)), best first, the second is the first entry of row i's order
// that row j lacks (the product counts how many of row i's first entries
// row j holds), the third the first of row j's order that row i lacks (a
// step or a few): gxd_minmax (cpu/gxd_cpu.h), which operators that only
// GraphBLAS can call take too, with the terms computed in place.  Work: the
// intersection product and a step per pair, where a merge of the two rows
// costs |a| + |b| a pair.  MIN and MAX pick one of the terms and omit NaN
// as the merge does, so the result is the merge's (cpu_pair.c) but for the
// sign of a zero between +0 and -0 (MAX gives +0, MIN -0).  For CHEBYSHEV
// f(e,e) = |0 - 0| = 0 is below every other term, so no column is counted.

#include "cpu_internal.h"
#include <omp.h>

bool GXD_cpu_minmax_plan (const gxd_plan *P)
{
    return P->metric == GXD_CHEBYSHEV || (P->metric == GXD_GENERIC
        && (P->add == GXD_OP_MIN || P->add == GXD_OP_MAX)) ;
}

// f(x,e) (left) or f(e,y) for the entries of R, as keys of (+)'s order
static void side_keys (uint64_t *key, const cpu_rows *R, const gxd_plan *P,
    bool left, bool min)
{
    int64_t nnz = R->p [R->nrows] ;
    const double e = P->identity ;
    if (P->metric == GXD_CHEBYSHEV)
    {
        #pragma omp parallel for schedule(static)
        for (int64_t q = 0 ; q < nnz ; q++) key [q] = gxd_abs_key (R->x [q]) ;
        return ;
    }
    #pragma omp parallel for schedule(static)
    for (int64_t q = 0 ; q < nnz ; q++)
    {
        double z = left ? gxd_mult (P, R->x [q], e) : gxd_mult (P, e, R->x [q]) ;
        key [q] = gxd_double_key (z, min) ;
    }
}

GrB_Info GXD_cpu_minmax (const gxd_plan *P, const cpu_rows *A,
    const cpu_rows *B, void *C, const gxd_cpu_sink *sink, char *msg)
{
    const int64_t m = A->nrows, n = B->nrows, k = A->ncols ;
    const int64_t na = A->p [m], nb = B->p [n] ;
    const size_t zs = P->fp64 ? sizeof (double) : sizeof (float) ;
    const int64_t jblock = cpu_jblock (n) ;
    const int nth = omp_get_max_threads () ;
    const bool cheb = (P->metric == GXD_CHEBYSHEV) ;
    const bool min = !cheb && P->add == GXD_OP_MIN ;
    GrB_Info info = GrB_SUCCESS ;
    cpu_tile T = { 0 } ;
    // A's rows (columns, keys, values) and B's (columns, keys) each in
    // descending order of their keys; each row of B's first column and key
    int64_t *Aj = GXD_malloc ((na > 0 ? na : 1) * sizeof (int64_t)) ;
    uint64_t *Ak = GXD_malloc ((na > 0 ? na : 1) * sizeof (uint64_t)) ;
    double *Ax = GXD_malloc ((na > 0 ? na : 1) * sizeof (double)) ;
    const int64_t nz = (na > nb) ? na : ((nb > 0) ? nb : 1) ;   // keys of A, then of B
    int64_t *perm = GXD_malloc (nz * sizeof (int64_t)) ;
    uint64_t *key = GXD_malloc (nz * sizeof (uint64_t)) ;
    int64_t *Bj = GXD_malloc ((nb > 0 ? nb : 1) * sizeof (int64_t)) ;
    uint64_t *Bk = GXD_malloc ((nb > 0 ? nb : 1) * sizeof (uint64_t)) ;
    int64_t *Bj0 = GXD_malloc ((n > 0 ? n : 1) * sizeof (int64_t)) ;
    uint64_t *Bk0 = GXD_malloc ((n > 0 ? n : 1) * sizeof (uint64_t)) ;
    // a workspace a thread (zero): jblock keys, a row of the result for the
    // sink, 2 x jblock counts, k + 1 marks and (a compiled operator) jblock
    // terms
    const bool user = !cheb && P->mult == GXD_OP_USER ;
    const size_t zoff = (jblock * (sizeof (uint64_t) + 2 * sizeof (int32_t) + zs)
        + k + 1 + 7) & ~(size_t) 7 ;
    size_t each = zoff + (user ? jblock * sizeof (double) : 0) ;
    each = (each + 63) & ~(size_t) 63 ;
    char *space = GXD_calloc (nth, each) ;
    if (Aj == NULL || Ak == NULL || Ax == NULL || perm == NULL || key == NULL
        || Bj == NULL || Bk == NULL || Bj0 == NULL || Bk0 == NULL
        || space == NULL)
    {
        info = CPU_OOM (msg, "the MIN or MAX union's sorted rows") ;
        goto done ;
    }
    // B's blocks by column, as the gxd_csr that gxd_minmax reads (64 bits)
    info = GXD_cpu_tile_new (&T, B, true, false, msg) ;
    if (info != GrB_SUCCESS) goto done ;
    side_keys (key, A, P, true, min) ;
    if (GXD_cpu_sort_rows (Aj, Ak, perm, A->p, A->j, m, key) != GrB_SUCCESS)
    {
        info = CPU_OOM (msg, "the MIN or MAX union's sorted rows") ;
        goto done ;
    }
    #pragma omp parallel for schedule(static)
    for (int64_t q = 0 ; q < na ; q++) Ax [q] = A->x [perm [q]] ;
    side_keys (key, B, P, false, min) ;
    if (GXD_cpu_sort_rows (Bj, Bk, NULL, B->p, B->j, n, key) != GrB_SUCCESS)
    {
        info = CPU_OOM (msg, "the MIN or MAX union's sorted rows") ;
        goto done ;
    }
    for (int64_t j = 0 ; j < n ; j++)
    {
        bool empty = (B->p [j+1] == B->p [j]) ;
        Bj0 [j] = empty ? k : Bj [B->p [j]] ;
        Bk0 [j] = empty ? 0 : Bk [B->p [j]] ;
    }
    gxd_csr As = { m, k, A->p, Aj, NULL } ;
    const uint64_t fee = cheb ? gxd_abs_key (0)
        : gxd_double_key (gxd_mult (P, P->identity, P->identity), min) ;
    for (int64_t j0 = 0 ; j0 < n ; j0 += jblock)
    {
        int64_t j1 = (j0 + jblock < n) ? j0 + jblock : n ;
        GXD_cpu_tile_fill (&T, B, j0, j1, NULL) ;
        gxd_csr Bt = { k, j1 - j0, T.Bp, T.Bj, T.Bx } ;
        gxd_minmax R = { .A = &As, .Ak = Ak, .P = P, .Ax = Ax, .Bt = &Bt,
            .Bp = B->p + j0, .Bj = Bj, .Bk = Bk, .Bj0 = Bj0 + j0,
            .Bk0 = Bk0 + j0, .fee = fee, .count = !cheb, .kind = GXD_KEY_FP,
            .min = min, .zs = zs } ;
        #pragma omp parallel num_threads(nth)
        {
            char *s = space + each * omp_get_thread_num () ;
            void *row = s + jblock * sizeof (uint64_t) ;
            gxd_minmax_work W = { .K = (uint64_t *) s,
                .run = (int32_t *) (s + jblock * (sizeof (uint64_t) + zs)),
                .mark = (uint8_t *) s + jblock * (sizeof (uint64_t) + zs
                    + 2 * sizeof (int32_t)) } ;
            W.cnt = W.run + jblock ;
            W.Z = user ? (double *) (s + zoff) : NULL ;
            W.mark [k] = 1 ;
            #pragma omp for schedule(dynamic, 16)
            for (int64_t i = 0 ; i < m ; i++)
            {
                void *Ci = (sink != NULL) ? row
                    : (char *) C + ((size_t) i * n + j0) * zs ;
                GXD_cpu_minmax_row (&R, i, NULL, NULL, NULL, NULL, 0, &W, Ci) ;
                if (sink != NULL) sink->row (sink->self, i, j0, j1 - j0, Ci) ;
            }
        }
    }
done:
    GXD_free (Aj) ; GXD_free (Ak) ; GXD_free (Ax) ; GXD_free (perm) ;
    GXD_free (key) ; GXD_free (Bj) ; GXD_free (Bk) ; GXD_free (Bj0) ;
    GXD_free (Bk0) ; GXD_free (space) ; GXD_cpu_tile_free (&T) ;
    return info ;
}
