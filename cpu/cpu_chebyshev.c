// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// cpu/cpu_chebyshev.c: CHEBYSHEV, every pair, by the split of its union
//------------------------------------------------------------------------------

// max |x - y| over the union of rows i and j is the largest of |x - y| over
// their common columns (the intersection product, B by columns), |x| over
// the columns of row i that row j lacks, and |y| over those of row j that
// row i lacks.  With each row's entries in descending order of |x|, the
// second is the first entry of row i's order that row j lacks (the product
// counts how many of row i's first entries row j holds), the third the
// first of row j's order that row i lacks (a step or a few): the MAX union
// of gxd_minmax (cpu/gxd_cpu.h), which user operators take too, with the
// terms computed in place.  Work: the intersection product and a step per
// pair, where a merge of the two rows costs |a| + |b| a pair.  A maximum is
// exact and NaN is omitted by both, so the result is the merge's, bit for
// bit (the merge starts from 0, as the key of f(e,e) = |0 - 0| here).

#include "cpu_internal.h"
#include <omp.h>

// keys of |x| for the entries of R, into key [0 .. nnz-1]
static void abs_keys (uint64_t *key, const cpu_rows *R)
{
    int64_t nnz = R->p [R->nrows] ;
    #pragma omp parallel for schedule(static)
    for (int64_t q = 0 ; q < nnz ; q++) key [q] = gxd_abs_key (R->x [q]) ;
}

// columns [j0, j1) of B transposed: row c of Bt holds (j - j0, B(j,c))
static void block_transpose (int64_t *Tp, int64_t *Tj, double *Tx,
    const cpu_rows *B, int64_t j0, int64_t j1)
{
    int64_t k = B->ncols ;
    memset (Tp, 0, (k + 1) * sizeof (int64_t)) ;
    for (int64_t q = B->p [j0] ; q < B->p [j1] ; q++) Tp [B->j [q] + 1]++ ;
    for (int64_t c = 0 ; c < k ; c++) Tp [c+1] += Tp [c] ;
    for (int64_t j = j0 ; j < j1 ; j++)
    {
        for (int64_t q = B->p [j] ; q < B->p [j+1] ; q++)
        {
            int64_t dst = Tp [B->j [q]]++ ;
            Tj [dst] = j - j0 ;
            Tx [dst] = B->x [q] ;
        }
    }
    for (int64_t c = k ; c > 0 ; c--) Tp [c] = Tp [c-1] ;
    Tp [0] = 0 ;
}

GrB_Info GXD_cpu_chebyshev (const gxd_plan *P, const cpu_rows *A,
    const cpu_rows *B, void *C, const gxd_cpu_sink *sink, char *msg)
{
    const int64_t m = A->nrows, n = B->nrows, k = A->ncols ;
    const int64_t na = A->p [m], nb = B->p [n] ;
    const size_t zs = P->fp64 ? sizeof (double) : sizeof (float) ;
    const int64_t jblock = (n < CPU_JBLOCK) ? (n > 0 ? n : 1) : CPU_JBLOCK ;
    const int nth = omp_get_max_threads () ;
    GrB_Info info = GrB_SUCCESS ;
    // A's rows (columns, keys, values) and B's (columns, keys) each in
    // descending order of |x|; each row of B's first column and key
    int64_t *Aj = GXD_malloc ((na > 0 ? na : 1) * sizeof (int64_t)) ;
    uint64_t *Ak = GXD_malloc ((na > 0 ? na : 1) * sizeof (uint64_t)) ;
    double *Ax = GXD_malloc ((na > 0 ? na : 1) * sizeof (double)) ;
    int64_t *perm = GXD_malloc ((na > nb ? na : nb) * sizeof (int64_t) + 1) ;
    uint64_t *key = GXD_malloc ((na > nb ? na : nb) * sizeof (uint64_t) + 1) ;
    int64_t *Bj = GXD_malloc ((nb > 0 ? nb : 1) * sizeof (int64_t)) ;
    uint64_t *Bk = GXD_malloc ((nb > 0 ? nb : 1) * sizeof (uint64_t)) ;
    int64_t *Bj0 = GXD_malloc ((n > 0 ? n : 1) * sizeof (int64_t)) ;
    uint64_t *Bk0 = GXD_malloc ((n > 0 ? n : 1) * sizeof (uint64_t)) ;
    // B's block transposed, and a workspace a thread (zero): jblock keys, a
    // row of the result for the sink, jblock counts and k + 1 marks
    int64_t bz = 0 ;
    for (int64_t j0 = 0 ; j0 < n ; j0 += jblock)
    {
        int64_t j1 = (j0 + jblock < n) ? j0 + jblock : n ;
        if (B->p [j1] - B->p [j0] > bz) bz = B->p [j1] - B->p [j0] ;
    }
    int64_t *Tp = GXD_malloc ((k + 1) * sizeof (int64_t)) ;
    int64_t *Tj = GXD_malloc ((bz > 0 ? bz : 1) * sizeof (int64_t)) ;
    double *Tx = GXD_malloc ((bz > 0 ? bz : 1) * sizeof (double)) ;
    size_t each = jblock * (sizeof (uint64_t) + sizeof (int32_t) + zs) + k + 1 ;
    each = (each + 63) & ~(size_t) 63 ;
    char *space = GXD_calloc (nth, each) ;
    if (Aj == NULL || Ak == NULL || Ax == NULL || perm == NULL || key == NULL
        || Bj == NULL || Bk == NULL || Bj0 == NULL || Bk0 == NULL || Tp == NULL
        || Tj == NULL || Tx == NULL || space == NULL)
    {
        info = CPU_OOM (msg, "CHEBYSHEV's sorted rows") ;
        goto done ;
    }
    abs_keys (key, A) ;
    if (GXD_cpu_sort_rows (Aj, Ak, perm, A->p, A->j, m, key) != GrB_SUCCESS)
    {
        info = CPU_OOM (msg, "CHEBYSHEV's sorted rows") ;
        goto done ;
    }
    #pragma omp parallel for schedule(static)
    for (int64_t q = 0 ; q < na ; q++) Ax [q] = A->x [perm [q]] ;
    abs_keys (key, B) ;
    if (GXD_cpu_sort_rows (Bj, Bk, NULL, B->p, B->j, n, key) != GrB_SUCCESS)
    {
        info = CPU_OOM (msg, "CHEBYSHEV's sorted rows") ;
        goto done ;
    }
    for (int64_t j = 0 ; j < n ; j++)
    {
        bool empty = (B->p [j+1] == B->p [j]) ;
        Bj0 [j] = empty ? k : Bj [B->p [j]] ;
        Bk0 [j] = empty ? 0 : Bk [B->p [j]] ;
    }
    gxd_csr As = { m, k, A->p, Aj, NULL } ;
    for (int64_t j0 = 0 ; j0 < n ; j0 += jblock)
    {
        int64_t j1 = (j0 + jblock < n) ? j0 + jblock : n ;
        block_transpose (Tp, Tj, Tx, B, j0, j1) ;
        gxd_csr Bt = { k, j1 - j0, Tp, Tj, Tx } ;
        gxd_minmax R = { .A = &As, .Ak = Ak, .Ax = Ax, .Bt = &Bt,
            .Bp = B->p + j0, .Bj = Bj, .Bk = Bk, .Bj0 = Bj0 + j0,
            .Bk0 = Bk0 + j0, .fee = gxd_abs_key (0), .count = false,
            .kind = GXD_KEY_FP, .min = false, .zs = zs } ;
        #pragma omp parallel num_threads(nth)
        {
            char *s = space + each * omp_get_thread_num () ;
            void *row = s + jblock * sizeof (uint64_t) ;
            gxd_minmax_work W = { .K = (uint64_t *) s,
                .run = (int32_t *) (s + jblock * (sizeof (uint64_t) + zs)),
                .cnt = NULL,
                .mark = (uint8_t *) s + jblock * (sizeof (uint64_t) + zs
                    + sizeof (int32_t)) } ;
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
    GXD_free (Bk0) ; GXD_free (Tp) ; GXD_free (Tj) ; GXD_free (Tx) ;
    GXD_free (space) ;
    return info ;
}
