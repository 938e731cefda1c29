// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// graphblas_ext/gxd_radius_select.c: every candidate within a radius
//------------------------------------------------------------------------------

// Each tile's pairs within the radius become a chunk (counted, then filled,
// rows in parallel); the chunks are assembled into CSR at the end.  Chunks
// of a row tile come in column order, so rows come out sorted.  The size
// of the result is not known in advance: when it outgrows memory the call
// fails with its size so far, never a crash.

#include "gxd_neighbors.h"
#include <inttypes.h>
#ifdef GXD_HAVE_CUDA
#include "gxd_gpu.h"
#endif

typedef struct
{
    int64_t r0, nr ;
    int64_t *p ;            // nr+1 offsets into j and d
    int64_t *j ;
    double *d ;
}
chunk ;

typedef struct
{
    const gxd_neighbors *N ;
    double eps ;
    bool largest ;
    chunk *chunks ;
    int64_t nchunks, cap ;
    int64_t total ;
    bool refused ;          // the GPU's sink ran out of host memory
}
radius ;

static inline bool within (double d, double eps, bool largest)
{
    return largest ? (d >= eps) : (d <= eps) ;
}

static GrB_Info rows_begin (void *self, int64_t r0, int64_t nr)
{
    return GrB_SUCCESS ;
}

static GrB_Info rows_end (void *self)
{
    return GrB_SUCCESS ;
}

static void chunk_free (chunk *c)
{
    GXD_free (c->p) ; GXD_free (c->j) ; GXD_free (c->d) ;
    memset (c, 0, sizeof (*c)) ;
}

// pass 1 counts (fill false), pass 2 writes (fill true) the pairs of row i
static int64_t scan (const gxd_tile *t, int64_t i, double eps, bool largest,
    chunk *c, bool fill)
{
    int64_t found = 0, out = fill ? c->p [i] : 0 ;
    gxd_tile_row r = gxd_tile_row_of (t, i) ;
    for (int64_t q = r.q0 ; q < r.q1 ; q++)
    {
        int64_t j = gxd_tile_col (t, &r, q) ;
        if (!gxd_tile_candidate (t, &r, i, j)) continue ;
        double d = gxd_tile_value (t, q) ;
        if (!within (d, eps, largest)) continue ;
        if (fill)
        {
            c->j [out] = t->c0 + j ;
            c->d [out] = d ;
            out++ ;
        }
        found++ ;
    }
    return found ;
}

// room for nz more entries in c (whose p is there): within the machine's
// memory, counting the chunks so far (16 bytes an entry) and, at the end,
// the CSR (up to 16 more)
static GrB_Info chunk_grow (radius *S, chunk *c, int64_t nz)
{
    #define GXD_FREE_ALL ;
    if (!GXD_memory_fits ((double) (S->total + nz) * 32))
    {
        GXD_FAIL (GrB_OUT_OF_MEMORY, "%s: the radius graph has at least %"
            PRId64 " entries (%.3g GB to build), more than this machine's "
            "memory allows", S->N->fn, S->total + nz,
            (double) (S->total + nz) * 32 / 1e9) ;
    }
    if (nz == 0) return GrB_SUCCESS ;
    c->j = GXD_malloc (nz * sizeof (int64_t)) ;
    c->d = GXD_malloc (nz * sizeof (double)) ;
    if (c->j == NULL || c->d == NULL)
    {
        GXD_FAIL (GrB_OUT_OF_MEMORY, "%s: out of memory: the radius graph "
            "has at least %" PRId64 " entries (%.3g GB so far)", S->N->fn,
            S->total + nz, (double) (S->total + nz) * 16 / 1e9) ;
    }
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

// keep c, of nz entries, in S (c is S's from then on)
static GrB_Info chunk_push (radius *S, chunk *c, int64_t nz)
{
    #define GXD_FREE_ALL ;
    if (S->nchunks == S->cap)
    {
        int64_t cap = (S->cap > 0) ? 2 * S->cap : 64 ;
        chunk *a = GXD_malloc (cap * sizeof (chunk)) ;
        if (a == NULL) GXD_FAIL (GrB_OUT_OF_MEMORY, "%s: out of memory", S->N->fn) ;
        if (S->nchunks > 0) memcpy (a, S->chunks, S->nchunks * sizeof (chunk)) ;
        GXD_free (S->chunks) ;
        S->chunks = a ;
        S->cap = cap ;
    }
    S->chunks [S->nchunks++] = *c ;
    S->total += nz ;
    memset (c, 0, sizeof (*c)) ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

static GrB_Info tile (void *self, const gxd_tile *t)
{
    #define GXD_FREE_ALL chunk_free (&c) ;
    radius *S = self ;
    chunk c = { .r0 = t->r0, .nr = t->nr } ;
    c.p = GXD_malloc ((t->nr + 1) * sizeof (int64_t)) ;
    if (c.p == NULL) GXD_FAIL (GrB_OUT_OF_MEMORY, "%s: out of memory", S->N->fn) ;
    #pragma omp parallel for schedule(dynamic, 16) if (t->nr * t->nc >= GXD_PARALLEL_MIN)
    for (int64_t i = 0 ; i < t->nr ; i++)
    {
        c.p [i+1] = scan (t, i, S->eps, S->largest, &c, false) ;
    }
    c.p [0] = 0 ;
    for (int64_t i = 0 ; i < t->nr ; i++) c.p [i+1] += c.p [i] ;
    int64_t nz = c.p [t->nr] ;
    GXD_TRY (chunk_grow (S, &c, nz)) ;
    if (nz > 0)
    {
        #pragma omp parallel for schedule(dynamic, 16) if (t->nr * t->nc >= GXD_PARALLEL_MIN)
        for (int64_t i = 0 ; i < t->nr ; i++)
        {
            scan (t, i, S->eps, S->largest, &c, true) ;
        }
    }
    GXD_TRY (chunk_push (S, &c, nz)) ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

#ifdef GXD_HAVE_CUDA
// the GPU's sink: host arrays for one tile of rows, kept as a chunk
static GrB_Info gpu_sink (void *self, int64_t r0, int64_t nr, int64_t nz,
    int64_t **p, int64_t **j, double **d, char *msg)
{
    #define GXD_FREE_ALL chunk_free (&c) ; S->refused = true ;
    radius *S = self ;
    chunk c = { .r0 = r0, .nr = nr } ;
    c.p = GXD_malloc ((nr + 1) * sizeof (int64_t)) ;
    if (c.p == NULL) GXD_FAIL (GrB_OUT_OF_MEMORY, "%s: out of memory", S->N->fn) ;
    GXD_TRY (chunk_grow (S, &c, nz)) ;
    GXD_TRY (chunk_push (S, &c, nz)) ;
    const chunk *kept = &S->chunks [S->nchunks - 1] ;
    *p = kept->p ; *j = kept->j ; *d = kept->d ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

// On the GPU, all of A against all of B with the selection on the device
// (cuda/gpu_radius.cu): only the graph's entries come back.  For metric and
// union products of built-in operators with no mask; the tiles of the host
// path serve the rest.  A graph too large for host memory fails here
// (the host path would fail the same way, later).
static GrB_Info gpu_radius (bool *done, radius *S, GrB_Matrix Mask,
    GrB_Matrix A, GrB_Matrix B)
{
    #define GXD_FREE_ALL GXD_rows_free (&Ar) ; GXD_rows_free (&Br) ;
    gxd_rows Ar = { 0 }, Br = { 0 } ;
    const gxd_neighbors *N = S->N ;
    bool ok ;
    *done = false ;
    const gxd_rows *Bq ;
    GXD_TRY (GXD_neighbors_gpu_rows (&ok, &Ar, &Br, &Bq, N, Mask, A, B)) ;
    if (!ok) return GrB_SUCCESS ;
    char msg [GXD_MSG_LEN] = "" ;
    GrB_Info info = GXD_gpu_radius (&N->call.plan, &Ar.csr, &Bq->csr, S->eps,
        S->largest, N->exclude_self, gpu_sink, S, msg) ;
    if (S->refused)
    {
        GXD_FREE_ALL ;
        return info ;       // the sink's message stands
    }
    if (info != GrB_SUCCESS && GXD_settings.backend != GxB_BACKEND_AUTO)
    {
        GXD_FAIL (info, "%s: GPU backend: %s", N->fn, msg) ;
    }
    // under AUTO a GPU failure leaves the work to the host path, from the
    // start
    *done = (info == GrB_SUCCESS) ;
    if (!*done)
    {
        for (int64_t c = 0 ; c < S->nchunks ; c++) chunk_free (&S->chunks [c]) ;
        S->nchunks = 0 ;
        S->total = 0 ;
    }
    GXD_FREE_ALL ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}
#endif

GrB_Info GXD_radius_select (GrB_Matrix *T, const gxd_neighbors *N,
    GrB_Matrix Mask, GrB_Matrix A, GrB_Matrix B, double eps)
{
    #define GXD_FREE_ALL                                                    \
        for (int64_t c = 0 ; c < S.nchunks ; c++) chunk_free (&S.chunks [c]) ; \
        GXD_free (S.chunks) ; GXD_free (Tp) ; GXD_free (Tj) ; GXD_free (Tx) ; \
        GXD_free (cursor) ; GrB_Matrix_free (T) ;
    radius S = { .N = N, .eps = eps, .largest = N->largest } ;
    GrB_Index *Tp = NULL, *Tj = NULL ;
    void *Tx = NULL ;
    int64_t *cursor = NULL ;
    gxd_selector sel = { &S, rows_begin, tile, rows_end, NULL } ;
    bool done = false ;
    #ifdef GXD_HAVE_CUDA
    GXD_TRY (gpu_radius (&done, &S, Mask, A, B)) ;
    #endif
    if (!done) GXD_TRY (GXD_neighbors_run (N, Mask, A, B, &sel, 0)) ;
    // assemble: rows' sizes, then each chunk's rows at their cursors
    int64_t m = (int64_t) N->m, nz = S.total ;
    bool fp64 = (N->type == GrB_FP64) ;
    size_t esize = fp64 ? sizeof (double) : sizeof (float) ;
    Tp = GXD_calloc (m + 1, sizeof (GrB_Index)) ;
    cursor = GXD_malloc ((m > 0 ? m : 1) * sizeof (int64_t)) ;
    Tj = GXD_malloc ((nz > 0 ? nz : 1) * sizeof (GrB_Index)) ;
    Tx = GXD_malloc ((nz > 0 ? nz : 1) * esize) ;
    if (Tp == NULL || cursor == NULL || Tj == NULL || Tx == NULL)
    {
        GXD_FAIL (GrB_OUT_OF_MEMORY, "%s: out of memory for the radius graph "
            "of %" PRId64 " entries (%.3g GB)", N->fn, nz,
            (double) nz * (8 + esize) / 1e9) ;
    }
    for (int64_t c = 0 ; c < S.nchunks ; c++)
    {
        const chunk *ch = &S.chunks [c] ;
        for (int64_t i = 0 ; i < ch->nr ; i++)
        {
            Tp [ch->r0 + i + 1] += ch->p [i+1] - ch->p [i] ;
        }
    }
    for (int64_t i = 0 ; i < m ; i++) { Tp [i+1] += Tp [i] ; cursor [i] = Tp [i] ; }
    for (int64_t c = 0 ; c < S.nchunks ; c++)
    {
        const chunk *ch = &S.chunks [c] ;
        #pragma omp parallel for schedule(dynamic, 64)
        for (int64_t i = 0 ; i < ch->nr ; i++)
        {
            int64_t out = cursor [ch->r0 + i] ;
            for (int64_t q = ch->p [i] ; q < ch->p [i+1] ; q++, out++)
            {
                Tj [out] = ch->j [q] ;
                if (fp64) ((double *) Tx) [out] = ch->d [q] ;
                else ((float *) Tx) [out] = (float) ch->d [q] ;
            }
            cursor [ch->r0 + i] = out ;
        }
    }
    for (int64_t c = 0 ; c < S.nchunks ; c++) chunk_free (&S.chunks [c]) ;
    GXD_free (S.chunks) ; S.chunks = NULL ; S.nchunks = 0 ;
    GXD_free (cursor) ; cursor = NULL ;
    GXD_TRY (GrB_Matrix_new (T, N->type, N->m, N->n)) ;
    GXD_TRY (GxB_Matrix_pack_CSR (*T, &Tp, &Tj, &Tx, (m + 1) * sizeof (GrB_Index),
        (nz > 0 ? nz : 1) * sizeof (GrB_Index), (nz > 0 ? nz : 1) * esize,
        false, false, NULL)) ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}
