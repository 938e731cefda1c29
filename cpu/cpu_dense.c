// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// cpu/cpu_dense.c: all pairs, dense row-major output
//------------------------------------------------------------------------------

// Two schemes, chosen per metric (measurements: docs/benchmarks.md):
//  - rewrite (PLUS and DOT kinds): per row of A, an intersection product
//    with B held by columns into a dense accumulator over a block of rows of
//    B, then each pair is finalized with the row norms; work = intermediate
//    products + one pass over the output.  Pairs that cancel are recomputed
//    over the union (gxd_needs_exact).
//  - MIN and MAX unions (Chebyshev, generic plans under MIN or MAX): the
//    intersection product and a step per pair (cpu_minmax.c).
//  - union (other generic monoids, Minkowski of p above GXD_MINK_PMAX,
//    exact mode): every pair by a merge of the two rows; work = sum over
//    pairs of |a| + |b|.
// Rows of B go in blocks of CPU_JBLOCK so accumulators stay in cache; any
// output size is produced block by block.

#include "cpu_internal.h"
#include <omp.h>

// a user's operator with its compiled module: its columns of terms are the
// module's (P->user_g_col), and f(e, y) of B's entries is taken once per
// block of B (cpu_tile.Fb)
static inline bool user_columns (const gxd_plan *P)
{
    return (P->metric == GXD_GENERIC) && (P->mult == GXD_OP_USER) ;
}

static bool use_rewrite (const gxd_plan *P)
{
    if (P->exact) return false ;
    if (P->metric == GXD_GENERIC) return gxd_generic_rewrite_ok (P) ;
    if (P->metric == GXD_MINKOWSKI && !gxd_minkowski_rewrite (P)) return false ;
    return gxd_metric_table [P->metric].kind != GXD_KIND_MAX ;
}

// one row of A against a block of B by the rewrite; m is a constant in
// each specialisation below, so the metric switches fold away.  P is a
// local copy, so its fields stay in registers while C is written.  The
// pairs are finished in two passes: distances and cancellation flags for
// the whole block (no calls, so the compiler can vectorise it), then the
// rare flagged pairs recomputed over the union as the row is stored.
static inline __attribute__((always_inline)) void rewrite_row
(
    gxd_metric_id m, const gxd_plan *Pin, const cpu_rows *A, int64_t i,
    const cpu_rows *B, const cpu_tile *T, double *acc, double *acc2,
    uint8_t *flag, void *Ci
)
{
    const gxd_plan Pl = *Pin, *P = &Pl ;
    int64_t j0 = T->j0, jw = T->j1 - T->j0, k = A->ncols ;
    bool two = (m == GXD_BRAYCURTIS) ;
    bool guard = (m == GXD_GENERIC) || gxd_metric_table [m].guard ;
    memset (acc, 0, jw * sizeof (double)) ;
    if (two) memset (acc2, 0, jw * sizeof (double)) ;
    const int32_t *Bi = T->Bi ;
    const double *Bx = T->Bx ;
    // a user's operator: its compiled module runs each column's terms with
    // the operator inlined (gxd_jit.c), one call per column, not per term
    bool user = (m == GXD_GENERIC) && user_columns (P) ;
    for (int64_t p = A->p [i] ; p < A->p [i+1] ; p++)
    {
        int64_t c = A->j [p] ;
        double x = A->x [p] ;
        if (user)
        {
            int64_t q0 = T->Bp [c] ;
            P->user_g_col (acc, Bi + q0, Bx + q0, T->Fb + q0,
                T->Bp [c+1] - q0, x, P->identity) ;
            continue ;
        }
        for (int64_t q = T->Bp [c] ; q < T->Bp [c+1] ; q++)
        {
            acc [Bi [q]] += gxd_g (m, P, x, Bx [q]) ;
            if (two) acc2 [Bi [q]] += gxd_g2 (x, Bx [q]) ;
        }
    }
    const gxd_row ra = cpu_row (A, i) ;
    for (int64_t jj = 0 ; jj < jw ; jj++)
    {
        const gxd_row rb = cpu_row (B, j0 + jj) ;
        double a1 = acc [jj], a2 = two ? acc2 [jj] : 0 ;
        double d = gxd_finalize (m, P, a1, a2, &ra, &rb, k) ;
        flag [jj] = guard & gxd_needs_exact (m, P, a1, a2, &ra, &rb, k, d) ;
        acc [jj] = d ;
    }
    if (P->fp64)
    {
        double *Co = (double *) Ci ;
        for (int64_t jj = 0 ; jj < jw ; jj++)
        {
            Co [jj] = flag [jj] ? GXD_cpu_pair (P, A, i, B, j0 + jj) : acc [jj] ;
        }
    }
    else
    {
        float *Co = (float *) Ci ;
        for (int64_t jj = 0 ; jj < jw ; jj++)
        {
            Co [jj] = (float) (flag [jj] ? GXD_cpu_pair (P, A, i, B, j0 + jj)
                : acc [jj]) ;
        }
    }
}

// a specialisation per metric of the PLUS and DOT kinds (GXD_METRICS);
// MAX kinds never take the rewrite (use_rewrite)
#define REWRITE_PLUS(M) \
    case M: rewrite_row (M, P, A, i, B, T, acc, acc2, flag, Ci) ; break ;
#define REWRITE_DOT REWRITE_PLUS
#define REWRITE_MAX(M) case M: break ;
#define REWRITE_ROW(U, NAME, KIND, ...) REWRITE_ ## KIND (GXD_ ## NAME)

static void rewrite_block (const gxd_plan *P, const cpu_rows *A,
    const cpu_rows *B, const cpu_tile *T, double *acc, double *acc2,
    uint8_t *flag, void *Ci, int64_t i)
{
    switch (P->metric)
    {
        GXD_METRICS (REWRITE_ROW, ~)
        REWRITE_PLUS (GXD_GENERIC)
    }
}

// C [i*n + j] (sink NULL), or each row's pieces of CPU_JBLOCK columns
// handed to the sink while they are in cache
static GrB_Info dense_rewrite (const gxd_plan *P, const cpu_rows *A,
    const cpu_rows *B, void *C, const gxd_cpu_sink *sink, char *msg)
{
    int64_t m = A->nrows, n = B->nrows ;
    size_t esize = P->fp64 ? sizeof (double) : sizeof (float) ;
    int64_t jblock = cpu_jblock (n) ;
    int nthreads = omp_get_max_threads () ;
    double *work = GXD_malloc (3 * jblock * nthreads * sizeof (double)) ;
    uint8_t *flags = GXD_malloc (jblock * nthreads) ;
    if (work == NULL || flags == NULL)
    {
        GXD_free (work) ; GXD_free (flags) ;
        return CPU_OOM (msg, "accumulators") ;
    }
    // a user's operator: f(e, y) of each entry of the block, once, where
    // its terms would take it again for every row of A with its column
    const bool user = user_columns (P) ;
    cpu_tile T ;
    GrB_Info info = GXD_cpu_tile_new (&T, B, false, user, msg) ;
    // the walks read only A's columns of B: where A has few of B's entries
    // (a few query rows against many), the blocks hold those columns only
    uint8_t *active = NULL ;
    if (info == GrB_SUCCESS && A->p [m] < B->p [n] / CPU_FEW_COLUMNS)
    {
        active = GXD_calloc (B->ncols + 1, 1) ;
        if (active == NULL) info = CPU_OOM (msg, "A's columns") ;
        for (int64_t q = 0 ; active != NULL && q < A->p [m] ; q++)
        {
            active [A->j [q]] = 1 ;
        }
    }
    for (int64_t j0 = 0 ; j0 < n && info == GrB_SUCCESS ; j0 += jblock)
    {
        int64_t j1 = (j0 + jblock < n) ? j0 + jblock : n ;
        GXD_cpu_tile_fill (&T, B, j0, j1, active) ;
        if (user) P->user_col (T.Fb, T.Bx, T.Bp [B->ncols], P->identity) ;
        #pragma omp parallel num_threads(nthreads)
        {
            int t = omp_get_thread_num () ;
            double *acc = work + 3 * jblock * t, *acc2 = acc + jblock ;
            void *row = acc2 + jblock ;
            uint8_t *flag = flags + jblock * t ;
            #pragma omp for schedule(dynamic, 16)
            for (int64_t i = 0 ; i < m ; i++)
            {
                void *Ci = (sink != NULL) ? row
                    : (char *) C + ((size_t) i * n + j0) * esize ;
                rewrite_block (P, A, B, &T, acc, acc2, flag, Ci, i) ;
                if (sink != NULL) sink->row (sink->self, i, j0, j1 - j0, Ci) ;
            }
        }
    }
    GXD_cpu_tile_free (&T) ;
    GXD_free (active) ;
    GXD_free (work) ;
    GXD_free (flags) ;
    return info ;
}

static GrB_Info dense_union (const gxd_plan *P, const cpu_rows *A,
    const cpu_rows *B, void *C, const gxd_cpu_sink *sink, char *msg)
{
    int64_t m = A->nrows, n = B->nrows ;
    if (sink == NULL)
    {
        #pragma omp parallel for schedule(dynamic, 4) collapse(2)
        for (int64_t i = 0 ; i < m ; i++)
        {
            for (int64_t j = 0 ; j < n ; j++)
            {
                cpu_store (C, i * n + j, GXD_cpu_pair (P, A, i, B, j), P->fp64) ;
            }
        }
        return GrB_SUCCESS ;
    }
    int64_t jblock = cpu_jblock (n) ;
    int nthreads = omp_get_max_threads () ;
    double *work = GXD_malloc (jblock * nthreads * sizeof (double)) ;
    if (work == NULL) return CPU_OOM (msg, "a row of distances") ;
    #pragma omp parallel num_threads(nthreads)
    {
        void *row = work + jblock * omp_get_thread_num () ;
        #pragma omp for schedule(dynamic, 4)
        for (int64_t i = 0 ; i < m ; i++)
        {
            for (int64_t j0 = 0 ; j0 < n ; j0 += jblock)
            {
                int64_t j1 = (j0 + jblock < n) ? j0 + jblock : n ;
                for (int64_t j = j0 ; j < j1 ; j++)
                {
                    cpu_store (row, j - j0, GXD_cpu_pair (P, A, i, B, j), P->fp64) ;
                }
                sink->row (sink->self, i, j0, j1 - j0, row) ;
            }
        }
    }
    GXD_free (work) ;
    return GrB_SUCCESS ;
}

static GrB_Info all_pairs (const gxd_plan *P, const gxd_csr *Acsr,
    const gxd_csr *Bcsr, void *C, const gxd_cpu_sink *sink, char *msg)
{
    cpu_rows A, B ;
    GrB_Info info = GXD_cpu_rows_pair (&A, &B, P, Acsr, Bcsr, msg) ;
    if (info != GrB_SUCCESS) return info ;
    if (GXD_cpu_minmax_plan (P)) info = GXD_cpu_minmax (P, &A, &B, C, sink, msg) ;
    else if (use_rewrite (P)) info = dense_rewrite (P, &A, &B, C, sink, msg) ;
    else info = dense_union (P, &A, &B, C, sink, msg) ;
    GXD_cpu_rows_free (&A) ;
    GXD_cpu_rows_free (&B) ;
    return info ;
}

GrB_Info GXD_cpu_dense (const gxd_plan *P, const gxd_csr *Acsr,
    const gxd_csr *Bcsr, void *C, char *msg)
{
    return all_pairs (P, Acsr, Bcsr, C, NULL, msg) ;
}

GrB_Info GXD_cpu_rows_to (const gxd_plan *P, const gxd_csr *Acsr,
    const gxd_csr *Bcsr, const gxd_cpu_sink *sink, char *msg)
{
    return all_pairs (P, Acsr, Bcsr, NULL, sink, msg) ;
}
