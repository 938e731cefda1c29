// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// cuda/gpu_dense.cu: GXD_gpu_dense, strategy choice, tiles and streaming
//------------------------------------------------------------------------------

// The host-facing driver: uploads A and B, picks the strategy by the plan
// (bench/gpu_measurements.md has the measurements: the intersection kernel for
// every (+) = + metric, intersection + extremes for Chebyshev, the SPSV for
// (+) without an inverse, Minkowski of p above GXD_MINK_PMAX and exact
// mode, and a user's operator's own kernels, gpu_user.cu), then produces C in tiles of whole rows of A, so outputs larger than the
// GPU's free memory work.  Tile t is computed on one stream while tile t-1
// goes into C on another, through the pinned staging of gpu_staging.cu.

#include "gpu_internal.cuh"
#include "gpu_tuning.h"
#include <stdlib.h>
#include <algorithm>

// the smallest result worth staging (starting the copy threads and, on the
// first call, pinning the staging buffers costs milliseconds)
#define GXD_STAGE_MIN_BYTES ((size_t) 32 << 20)

// multiplicative ops whose f(x, e) and f(e, y) stay finite for finite x, y:
// with these a generic plus-plan can use the rewrite
static bool generic_rewrite_ok (gxd_opcode op)
{
    switch (op)
    {
        case GXD_OP_DIV: case GXD_OP_RDIV: case GXD_OP_POW: return false ;
        default: return true ;
    }
}

gxd_strategy gxd_choose_strategy (const gxd_plan *P)
{
    if (gxd_plan_user (P)) return GXD_STRAT_USER ;
    if (P->exact) return GXD_STRAT_SPSV ;
    if (P->metric == GXD_CHEBYSHEV) return GXD_STRAT_CHEBYSHEV ;
    // Minkowski of large p: every pair by its scaled union sum
    if (P->metric == GXD_MINKOWSKI && !gxd_minkowski_rewrite (P)) return GXD_STRAT_SPSV ;
    if (P->metric == GXD_GENERIC)
    {
        return (P->add == GXD_OP_PLUS && generic_rewrite_ok (P->mult))
            ? GXD_STRAT_INTERSECT : GXD_STRAT_SPSV ;
    }
    return GXD_STRAT_INTERSECT ;
}

void gxd_ctx_free (gxd_gpu_ctx *G)
{
    gxd_free_csr (&G->A) ;
    if (!G->b_is_a) gxd_free_csr (&G->B) ;
    gxd_free_rows (&G->RA) ;
    gxd_free_rows (&G->RB) ;
    cudaFree (G->csc_pool) ;
    free (G->csc) ;
    cudaFree (G->spsv.ws1) ;
    cudaFree (G->spsv.wsint) ;
    cudaFree (G->cheb.Asj) ; cudaFree (G->cheb.Asx) ; cudaFree (G->cheb.Bsj) ; cudaFree (G->cheb.Bsx) ;
    cudaFree (G->fx.colmax) ; cudaFree (G->fx.exp) ;
    cudaFree (G->fx.alog) ; cudaFree (G->fx.bpack) ; cudaFree (G->fx.ltab) ; cudaFree (G->fx.brange) ;
    cudaFree (G->fx.itab) ; cudaFree (G->fx.bint) ; cudaFree (G->fx.bfrac) ;
    cudaFree (G->spsv.perm_a) ; cudaFree (G->spsv.perm_b) ; cudaFree (G->spsv.bnd) ;
    cudaFree (G->spsv.sort_ws) ;
    cudaFree (G->user.na) ; cudaFree (G->user.nb) ; cudaFree (G->user.trange) ;
    cudaFree (G->user.nE) ;
    cudaFree (G->user.Asj) ; cudaFree (G->user.Bsj) ; cudaFree (G->user.Asx) ;
    cudaFree (G->user.Ak) ; cudaFree (G->user.Bk) ;
    cudaFree (G->user.Bk0) ; cudaFree (G->user.Bc0) ;
    memset (G, 0, sizeof (*G)) ;
}

GrB_Info gxd_gpu_open (const gxd_plan *P, const gxd_csr *A, const gxd_csr *B,
    int strategy, int64_t tile_rows, bool knn, gxd_gpu_ctx *G, cudaStream_t s,
    char *msg)
{
    GrB_Info info = GrB_SUCCESS ;
    memset (G, 0, sizeof (*G)) ;
    G->P = *P ;
    G->knn = knn ;
    const gxd_gpu_tuning T = gxd_tuning () ;
    if (strategy < 0)
    {
        strategy = gxd_choose_strategy (P) ;
        // forcing the SPSV is always valid (it is exact) for built-in
        // operators; the intersection cannot serve (+) without an inverse
        if (T.spsv && strategy != GXD_STRAT_USER) strategy = GXD_STRAT_SPSV ;
    }
    G->strategy = strategy ;
    G->tn = T.tn ;
    // the intersection kernel needs >= GXD_SHORT (64) threads, whole warps
    G->threads = (T.threads < 64) ? 64 : (T.threads > 1024) ? 1024 : T.threads & ~31 ;
    // intersection kernel variant (gpu_intersect.cu; 0: by metric)
    G->kv = T.kv ;
    if (A->ncols != B->ncols)
        return gxd_fail (GrB_DIMENSION_MISMATCH, msg, "A and B differ in columns") ;
    GXD_GPU_TRY (gxd_upload_csr (A, P->fp64, true, &G->A, s, msg)) ;
    if (B->p == A->p && B->j == A->j && B->x == A->x && B->nrows == A->nrows)
    {
        // the same arrays (a self-query): one copy serves as both
        G->B = G->A ;
        G->b_is_a = true ;
    }
    else GXD_GPU_TRY (gxd_upload_csr (B, P->fp64, true, &G->B, s, msg)) ;
    if (strategy == GXD_STRAT_USER)
        GXD_GPU_TRY (gxd_user_prepare (G, A, B, s, msg))
    else if (strategy == GXD_STRAT_SPSV)
        GXD_GPU_TRY (gxd_spsv_prepare (G, tile_rows, s, msg))
    else if (strategy == GXD_STRAT_CHEBYSHEV)
        GXD_GPU_TRY (gxd_chebyshev_prepare (G, s, msg))
    else
        GXD_GPU_TRY (gxd_intersect_prepare (G, s, msg))
    GXD_CUDA_TRY (cudaStreamSynchronize (s)) ;
cleanup:
    if (info != GrB_SUCCESS) gxd_ctx_free (G) ;
    return info ;
}

GrB_Info gxd_gpu_run_tile (gxd_gpu_ctx *G, int64_t i0, int64_t i1, void *Ct,
    cudaStream_t s, char *msg)
{
    switch (G->strategy)
    {
        case GXD_STRAT_SPSV:      return gxd_spsv_tile (G, i0, i1, Ct, s, msg) ;
        case GXD_STRAT_CHEBYSHEV: return gxd_chebyshev_tile (G, i0, i1, Ct, s, msg) ;
        case GXD_STRAT_USER:      return gxd_user_tile (G, i0, i1, Ct, s, msg) ;
        default:                  return gxd_intersect_tile (G, i0, i1, Ct, s, msg) ;
    }
}

// rows per output tile: two output buffers and (SPSV) its workspace within
// a share of the free memory
int64_t gxd_choose_tile_rows (const gxd_plan *P, int64_t m, int64_t n,
    int strategy)
{
    size_t freeb = 0, total = 0 ;
    if (cudaMemGetInfo (&freeb, &total) != cudaSuccess) freeb = 1 << 30 ;
    size_t budget = freeb / 4 ;
    size_t cap = (size_t) gxd_tuning ().tile_bytes ;
    if (budget > cap) budget = cap ;
    size_t per_pair = 2 * (P->fp64 ? 8 : 4) ;
    if (strategy == GXD_STRAT_SPSV) per_pair += gxd_spsv_bytes_per_pair (P) ;
    int64_t rows = (int64_t) (budget / ((size_t) (n > 0 ? n : 1) * per_pair)) ;
    if (rows < 1) rows = 1 ;
    if (rows > m) rows = m ;
    return rows ;
}

// rows per tile when the tile's distances are selected on the device
// (gpu_knn.cu, gpu_radius.cu): one buffer of distances (nothing is copied
// out of it) plus row_bytes a row, within a quarter of the free memory and
// at most GXD_GPU_SELECT_TILE_BYTES: large tiles keep the per-tile costs of
// the distance kernels small
#define GXD_GPU_SELECT_TILE_BYTES ((size_t) 4 << 30)
int64_t gxd_select_tile_rows (const gxd_plan *P, int64_t m, int64_t n,
    int strategy, size_t row_bytes)
{
    size_t freeb = 0, total = 0 ;
    if (cudaMemGetInfo (&freeb, &total) != cudaSuccess) freeb = (size_t) 1 << 30 ;
    size_t budget = freeb / 4 ;
    if (budget > GXD_GPU_SELECT_TILE_BYTES) budget = GXD_GPU_SELECT_TILE_BYTES ;
    size_t per_pair = P->fp64 ? 8 : 4 ;
    if (strategy == GXD_STRAT_SPSV) per_pair += gxd_spsv_bytes_per_pair (P) ;
    int64_t rows = (int64_t) (budget / ((size_t) (n > 0 ? n : 1) * per_pair + row_bytes)) ;
    return (rows < 1) ? 1 : (rows > m) ? m : rows ;
}

// the first tile's share of a tile's rows (GXD_gpu_dense)
#define GXD_FIRST_TILE_PART 8

// row where output tile t starts: a first tile of `first` rows, then `tile`
static int64_t tile_start (int64_t t, int64_t first, int64_t tile, int64_t m)
{
    const int64_t r = (t == 0) ? 0 : first + (t - 1) * tile ;
    return (r < m) ? r : m ;
}

extern "C" GrB_Info GXD_gpu_dense (const gxd_plan *P, const gxd_csr *A,
    const gxd_csr *B, void *C, char *msg)
{
    GrB_Info info = GrB_SUCCESS ;
    const int64_t m = A->nrows, n = B->nrows ;
    const size_t tsize = P->fp64 ? sizeof (double) : sizeof (float) ;
    gxd_gpu_ctx G ;
    cudaStream_t sc = NULL, sx = NULL ;
    cudaEvent_t computed [2] = { NULL, NULL }, copied [2] = { NULL, NULL } ;
    void *dC [2] = { NULL, NULL } ;
    gxd_host_writer *W = NULL ;
    int64_t tile, first, ntiles ;
    memset (&G, 0, sizeof (G)) ;
    if (m == 0 || n == 0) return GrB_SUCCESS ;
    GXD_CUDA_TRY (cudaStreamCreateWithFlags (&sc, cudaStreamNonBlocking)) ;
    GXD_CUDA_TRY (cudaStreamCreateWithFlags (&sx, cudaStreamNonBlocking)) ;
    for (int b = 0 ; b < 2 ; b++)
    {
        GXD_CUDA_TRY (cudaEventCreateWithFlags (&computed [b], cudaEventDisableTiming)) ;
        GXD_CUDA_TRY (cudaEventCreateWithFlags (&copied [b], cudaEventDisableTiming)) ;
    }
    {
        int strategy = gxd_choose_strategy (P) ;
        if (gxd_tuning ().spsv && strategy != GXD_STRAT_USER) strategy = GXD_STRAT_SPSV ;
        tile = gxd_choose_tile_rows (P, m, n, strategy) ;
        GXD_GPU_TRY (gxd_gpu_open (P, A, B, strategy, tile, false, &G, sc, msg)) ;
    }
    // the link idles until the first tile is computed: that one is smaller
    first = std::max<int64_t> (1, tile / GXD_FIRST_TILE_PART) ;
    ntiles = (m <= first) ? 1 : 1 + (m - first + tile - 1) / tile ;
    for (int b = 0 ; b < 2 && b < ntiles ; b++)
    {
        GXD_CUDA_TRY (cudaMalloc (&dC [b], (size_t) tile * n * tsize)) ;
    }
    GXD_GPU_TRY (gxd_writer_open (&W, sx,
        (size_t) m * n * tsize >= GXD_STAGE_MIN_BYTES, msg)) ;
    for (int64_t t = 0 ; t <= ntiles ; t++)
    {
        if (t < ntiles)
        {
            // compute tile t while tile t-1 goes out below
            int b = t % 2 ;
            int64_t i0 = tile_start (t, first, tile, m), i1 = tile_start (t + 1, first, tile, m) ;
            if (t >= 2) GXD_CUDA_TRY (cudaStreamWaitEvent (sc, copied [b], 0)) ;
            GXD_GPU_TRY (gxd_gpu_run_tile (&G, i0, i1, dC [b], sc, msg)) ;
            GXD_CUDA_TRY (cudaEventRecord (computed [b], sc)) ;
        }
        if (t == 0) continue ;
        int64_t u = t - 1 ;
        int b = u % 2 ;
        int64_t i0 = tile_start (u, first, tile, m), i1 = tile_start (u + 1, first, tile, m) ;
        GXD_CUDA_TRY (cudaStreamWaitEvent (sx, computed [b], 0)) ;
        GXD_GPU_TRY (gxd_writer_put (W, (char *) C + (size_t) i0 * n * tsize,
            dC [b], (size_t) (i1 - i0) * n * tsize, msg)) ;
        // dC [b] may be overwritten once its copies are done
        GXD_CUDA_TRY (cudaEventRecord (copied [b], sx)) ;
    }
    GXD_GPU_TRY (gxd_writer_finish (W, msg)) ;
    GXD_CUDA_TRY (cudaStreamSynchronize (sx)) ;
    GXD_CUDA_TRY (cudaStreamSynchronize (sc)) ;
cleanup:
    if (sc) cudaStreamSynchronize (sc) ;
    if (sx) cudaStreamSynchronize (sx) ;
    gxd_writer_close (W) ;
    cudaFree (dC [0]) ;
    cudaFree (dC [1]) ;
    for (int b = 0 ; b < 2 ; b++)
    {
        if (computed [b]) cudaEventDestroy (computed [b]) ;
        if (copied [b]) cudaEventDestroy (copied [b]) ;
    }
    if (sc) cudaStreamDestroy (sc) ;
    if (sx) cudaStreamDestroy (sx) ;
    gxd_ctx_free (&G) ;
    return info ;
}
