// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// graphblas_ext/gxd_knn_select.c: the k best candidates of every row
//------------------------------------------------------------------------------

// Each row of the current row tile keeps a max-heap of its k best
// candidates so far, the worst at the root; a candidate enters only if it
// comes strictly before the root.  Candidates arrive in increasing column
// order, so among equal distances the earlier (smaller) column stays: the
// result is a stable sort's first k whatever the tiling.  Rows are
// independent, so a tile's rows are selected in parallel.  The m*k best
// are written at k slots per row and compacted into CSR at the end.

#include "gxd_neighbors.h"
#include <inttypes.h>
#ifdef GXD_HAVE_CUDA
#include "gxd_gpu.h"
#endif

typedef struct
{
    double d ;
    int64_t j ;
}
cand ;

typedef struct
{
    int64_t k ;             // min (k, n): slots per row
    bool largest ;
    int64_t r0, nr ;        // the current row tile
    cand *heap ;            // nr * k
    int64_t *count ;        // per row of the tile: candidates in its heap
    int64_t *rowcount ;     // m: neighbors found per row
    int64_t *Cj ;           // m * k
    double *Cd ;            // m * k
    int64_t cap_rows ;      // rows the heap was allocated for
    bool fp64 ;             // row: the values' type
    bool exclude_self ;     // row: j == i is no candidate
}
knn ;

// a before b in the final order: better value, or equal and smaller column
static inline bool before (const cand *a, const cand *b, bool largest)
{
    if (gxd_better (a->d, b->d, largest)) return true ;
    if (gxd_better (b->d, a->d, largest)) return false ;
    return a->j < b->j ;
}

static inline void sift_down (cand *h, int64_t n, int64_t i, bool largest)
{
    for (;;)
    {
        int64_t l = 2*i + 1, r = l + 1, w = i ;
        if (l < n && before (&h [w], &h [l], largest)) w = l ;
        if (r < n && before (&h [w], &h [r], largest)) w = r ;
        if (w == i) return ;
        cand t = h [i] ; h [i] = h [w] ; h [w] = t ;
        i = w ;
    }
}

static inline void push (cand *h, int64_t *count, int64_t k, double d,
    int64_t j, bool largest)
{
    cand c = { d, j } ;
    if (*count < k)
    {
        // sift up: the worst rises to the root
        int64_t i = (*count)++ ;
        while (i > 0)
        {
            int64_t p = (i - 1) / 2 ;
            if (!before (&h [p], &c, largest)) break ;
            h [i] = h [p] ;
            i = p ;
        }
        h [i] = c ;
    }
    else if (before (&c, &h [0], largest))
    {
        h [0] = c ;
        sift_down (h, k, 0, largest) ;
    }
}

static GrB_Info rows_begin (void *self, int64_t r0, int64_t nr)
{
    knn *S = self ;
    if (nr > S->cap_rows)
    {
        GXD_free (S->heap) ; GXD_free (S->count) ;
        S->heap = GXD_malloc ((size_t) nr * S->k * sizeof (cand)) ;
        S->count = GXD_malloc ((size_t) nr * sizeof (int64_t)) ;
        S->cap_rows = nr ;
        if (S->heap == NULL || S->count == NULL)
        {
            S->cap_rows = 0 ;
            return GXD_error (GrB_OUT_OF_MEMORY, "GxB_kNN: out of memory for "
                "the candidates of %" PRId64 " rows", nr) ;
        }
    }
    S->r0 = r0 ;
    S->nr = nr ;
    memset (S->count, 0, (size_t) nr * sizeof (int64_t)) ;
    return GrB_SUCCESS ;
}

// a dense row x [0..nc-1] (columns c0 ..), self its own column (-1: none):
// a candidate comes after every one in the heap in column order, so it
// enters only if strictly better than the root; once the heap is full that
// is one comparison against a value kept in a register, and the loop has
// no other branch to take
#define DENSE_ROW(T, LARGEST)                                               \
{                                                                           \
    const T *xr = (const T *) x ;                                           \
    int64_t jj = 0 ;                                                        \
    for ( ; jj < nc && *count < k ; jj++)                                   \
    {                                                                       \
        if (jj != self) push (h, count, k, xr [jj], c0 + jj, LARGEST) ;     \
    }                                                                       \
    double worst = (*count > 0) ? h [0].d : 0 ;                             \
    for ( ; jj < nc ; jj++)                                                 \
    {                                                                       \
        double d = xr [jj] ;                                                \
        if (gxd_better (d, worst, LARGEST) && jj != self)                   \
        {                                                                   \
            push (h, count, k, d, c0 + jj, LARGEST) ;                       \
            worst = h [0].d ;                                               \
        }                                                                   \
    }                                                                       \
}

static inline void dense_row (cand *h, int64_t *count, int64_t k,
    bool largest, bool fp64, const void *x, int64_t c0, int64_t nc,
    int64_t self)
{
    if (fp64 && largest)  DENSE_ROW (double, true)
    else if (fp64)        DENSE_ROW (double, false)
    else if (largest)     DENSE_ROW (float, true)
    else                  DENSE_ROW (float, false)
}

// GXD_cpu_rows_to's rows: row i of the row tile
static void row (void *self, int64_t i, int64_t c0, int64_t nc, const void *x)
{
    knn *S = self ;
    int64_t gi = S->r0 + i ;
    dense_row (S->heap + i * S->k, &S->count [i], S->k, S->largest,
        S->fp64, x, c0, nc, S->exclude_self ? gi - c0 : -1) ;
}

static GrB_Info tile (void *self, const gxd_tile *t)
{
    knn *S = self ;
    const int64_t k = S->k ;
    const bool largest = S->largest ;
    const bool dense = (t->Tp == NULL && t->skip_p == NULL) ;
    #pragma omp parallel for schedule(dynamic, 16) if (t->nr * t->nc >= GXD_PARALLEL_MIN)
    for (int64_t i = 0 ; i < t->nr ; i++)
    {
        cand *h = S->heap + i * k ;
        int64_t *count = &S->count [i] ;
        if (dense)
        {
            dense_row (h, count, k, largest, t->fp64,
                (const char *) t->Tx + i * t->nc * (t->fp64 ? 8 : 4), t->c0,
                t->nc, t->exclude_self ? t->r0 + i - t->c0 : -1) ;
            continue ;
        }
        gxd_tile_row r = gxd_tile_row_of (t, i) ;
        for (int64_t q = r.q0 ; q < r.q1 ; q++)
        {
            int64_t j = gxd_tile_col (t, &r, q) ;
            if (!gxd_tile_candidate (t, &r, i, j)) continue ;
            push (h, count, k, gxd_tile_value (t, q), t->c0 + j, largest) ;
        }
    }
    return GrB_SUCCESS ;
}

static GrB_Info rows_end (void *self)
{
    knn *S = self ;
    const int64_t k = S->k ;
    #pragma omp parallel for schedule(static)
    for (int64_t i = 0 ; i < S->nr ; i++)
    {
        // heapsort: the root (worst) goes to the end, leaving the order
        cand *h = S->heap + i * k ;
        int64_t n = S->count [i] ;
        for (int64_t e = n - 1 ; e > 0 ; e--)
        {
            cand t = h [0] ; h [0] = h [e] ; h [e] = t ;
            sift_down (h, e, 0, S->largest) ;
        }
        int64_t gi = S->r0 + i ;
        for (int64_t q = 0 ; q < n ; q++)
        {
            S->Cj [gi * k + q] = h [q].j ;
            S->Cd [gi * k + q] = h [q].d ;
        }
        S->rowcount [gi] = n ;
    }
    return GrB_SUCCESS ;
}

// T (m-by-n CSR of N->type) from the rows' k slots
static GrB_Info build (GrB_Matrix *T, const gxd_neighbors *N, knn *S)
{
    #define GXD_FREE_ALL GXD_free (Tp) ; GXD_free (Tj) ; GXD_free (Tx) ;
    int64_t m = (int64_t) N->m, k = S->k ;
    bool fp64 = (N->type == GrB_FP64) ;
    GrB_Index *Tp = GXD_malloc ((m + 1) * sizeof (GrB_Index)) ;
    GrB_Index *Tj = NULL ;
    void *Tx = NULL ;
    if (Tp == NULL) GXD_FAIL (GrB_OUT_OF_MEMORY, "%s: out of memory", N->fn) ;
    Tp [0] = 0 ;
    for (int64_t i = 0 ; i < m ; i++) Tp [i+1] = Tp [i] + S->rowcount [i] ;
    int64_t nz = Tp [m] ;
    Tj = GXD_malloc ((nz > 0 ? nz : 1) * sizeof (GrB_Index)) ;
    Tx = GXD_malloc ((nz > 0 ? nz : 1) * (fp64 ? sizeof (double) : sizeof (float))) ;
    if (Tj == NULL || Tx == NULL)
    {
        GXD_FAIL (GrB_OUT_OF_MEMORY, "%s: out of memory for the %" PRId64
            " neighbors", N->fn, nz) ;
    }
    #pragma omp parallel for schedule(static)
    for (int64_t i = 0 ; i < m ; i++)
    {
        for (int64_t q = 0 ; q < S->rowcount [i] ; q++)
        {
            int64_t p = Tp [i] + q ;
            Tj [p] = S->Cj [i * k + q] ;
            if (fp64) ((double *) Tx) [p] = S->Cd [i * k + q] ;
            else ((float *) Tx) [p] = (float) S->Cd [i * k + q] ;
        }
    }
    GXD_TRY (GrB_Matrix_new (T, N->type, N->m, N->n)) ;
    // jumbled: each row is in neighbor order, not column order
    GXD_TRY (GxB_Matrix_pack_CSR (*T, &Tp, &Tj, &Tx, (m + 1) * sizeof (GrB_Index),
        (nz > 0 ? nz : 1) * sizeof (GrB_Index),
        (nz > 0 ? nz : 1) * (fp64 ? sizeof (double) : sizeof (float)),
        false, true, NULL)) ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

#ifdef GXD_HAVE_CUDA
// On the GPU, all of A against all of B with the selection on the device
// (cuda/gpu_knn.cu): only k per row come back.  For metric and union
// products (built-in or compiled operators) with no mask, up to
// GXD_GPU_KNN_MAX_K neighbors, and with a complemented mask (its pattern:
// the pairs that are not candidates) where the device selects inside its
// kernels; the tiles of the host path serve the rest.
static GrB_Info gpu_knn (bool *done, knn *S, const gxd_neighbors *N,
    GrB_Matrix Mask, GrB_Matrix A, GrB_Matrix B)
{
    #define GXD_FREE_ALL                                                    \
        GXD_rows_free (&Ar) ; GXD_rows_free (&Br) ; GXD_rows_free (&Skip) ;
    gxd_rows Ar = { 0 }, Br = { 0 }, Skip = { 0 } ;
    bool ok, gpu_done = false ;
    *done = false ;
    // a complemented mask only where the kernels select (decided before
    // the rows are made and uploaded: other plans take the host's tiles)
    if (S->k > GXD_GPU_KNN_MAX_K || (Mask != NULL && (!N->d.mask_comp
        || !GXD_gpu_knn_fused (&N->call.plan, S->k, S->largest))))
    {
        return GrB_SUCCESS ;
    }
    // the rows do not depend on a complemented mask
    const gxd_rows *Bq ;
    GXD_TRY (GXD_neighbors_gpu_rows (&ok, &Ar, &Br, &Bq, N, NULL, A, B)) ;
    if (!ok) return GrB_SUCCESS ;
    if (Mask != NULL) GXD_TRY (GXD_mask_pattern (&Skip, Mask, N->d.mask_struct)) ;
    const gxd_call *call = &N->call ;
    char msg [GXD_MSG_LEN] = "" ;
    GrB_Info info = GXD_gpu_knn (&call->plan, &Ar.csr, &Bq->csr, S->k,
        S->largest, N->exclude_self, (Mask != NULL) ? &Skip.csr : NULL,
        &gpu_done, S->Cj, S->Cd, S->rowcount, msg) ;
    if (info != GrB_SUCCESS && GXD_settings.backend != GxB_BACKEND_AUTO)
    {
        GXD_FAIL (info, "%s: GPU backend: %s", N->fn, msg) ;
    }
    // under AUTO a GPU failure leaves the work to the host path
    *done = (info == GrB_SUCCESS) && gpu_done ;
    GXD_FREE_ALL ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}
#endif

GrB_Info GXD_knn_select (GrB_Matrix *T, const gxd_neighbors *N,
    GrB_Matrix Mask, GrB_Matrix A, GrB_Matrix B, uint64_t k)
{
    #define GXD_FREE_ALL                                                    \
        GXD_free (S.heap) ; GXD_free (S.count) ; GXD_free (S.rowcount) ;    \
        GXD_free (S.Cj) ; GXD_free (S.Cd) ; GrB_Matrix_free (T) ;
    knn S = { 0 } ;
    S.largest = N->largest ;
    uint64_t kk = (k < N->n) ? k : N->n ;
    S.k = (int64_t) (kk > 0 ? kk : 1) ;
    uint64_t m = N->m ;
    if (m > 0 && (uint64_t) S.k > SIZE_MAX / 16 / m)
    {
        GXD_FAIL (GrB_OUT_OF_MEMORY, "%s: %" PRIu64 " rows x k = %" PRIu64
            " neighbors do not fit in memory", N->fn, m, kk) ;
    }
    if (!GXD_memory_fits ((double) m * S.k * 28))
    {
        GXD_FAIL (GrB_OUT_OF_MEMORY, "%s: %" PRIu64 " rows x %" PRIu64
            " neighbors (%.3g GB) are more than this machine's memory allows",
            N->fn, m, kk, (double) m * S.k * 28 / 1e9) ;
    }
    S.rowcount = GXD_calloc (m > 0 ? m : 1, sizeof (int64_t)) ;
    S.Cj = GXD_malloc ((m > 0 ? m : 1) * S.k * sizeof (int64_t)) ;
    S.Cd = GXD_malloc ((m > 0 ? m : 1) * S.k * sizeof (double)) ;
    if (S.rowcount == NULL || S.Cj == NULL || S.Cd == NULL)
    {
        GXD_FAIL (GrB_OUT_OF_MEMORY, "%s: out of memory for %" PRIu64
            " rows x %" PRIu64 " neighbors (%.3g GB)", N->fn, m, kk,
            (double) m * S.k * 16 / 1e9) ;
    }
    bool done = false ;
    #ifdef GXD_HAVE_CUDA
    if (kk > 0) GXD_TRY (gpu_knn (&done, &S, N, Mask, A, B)) ;
    #endif
    if (kk > 0 && !done)
    {
        S.fp64 = N->call.plan.fp64 ;
        S.exclude_self = N->exclude_self ;
        gxd_selector sel = { &S, rows_begin, tile, rows_end, row } ;
        GXD_TRY (GXD_neighbors_run (N, Mask, A, B, &sel,
            S.k * (int64_t) sizeof (cand))) ;
    }
    GXD_TRY (build (T, N, &S)) ;
    GXD_free (S.heap) ; GXD_free (S.count) ; GXD_free (S.rowcount) ;
    GXD_free (S.Cj) ; GXD_free (S.Cd) ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}
