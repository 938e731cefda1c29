// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// cuda/gpu_user.cu: a user's operator compiled for the GPU
//------------------------------------------------------------------------------

// A user's operator given to GxB_BinaryOp_new with its C definition
// (graphblas_ext/gxd_jit.c reads it) is compiled at run time with NVRTC
// (gpu_nvrtc.cu) into two kernels of its own:
//  - gxd_user_rewrite, for (+) = PLUS: the built-in metrics' rewrite
//    (metrics/gxd_metric_ops.h, GXD_GENERIC), sum over the union =
//    k f(e,e) + n0(a) + n0(b) + the intersection terms g(x,y) = f(x,y) -
//    f(x,e) - f(e,y) + f(e,e), with n0 the rows' sums of f(x,e) - f(e,e)
//    (gxd_user_norms).  One block per (row i of A, tile of rows of B) takes
//    the products of row i's columns with B's columns in the tile (B by
//    columns) as one flat list, adding each g in fixed point into a shared
//    accumulator per row of B: integer sums, the same bits every run in
//    any order, scaled by a bound on the block's |g| (FP32: guessed, then
//    checked by the sweep, which is done again where the guess was off;
//    FP64: found by a first sweep).  Work: the intermediate products of
//    A*B' once (FP32, where the guess holds) or twice.  A pair whose raw
//    sum is under tau times its scale (cancellation: gxd_needs_exact's
//    rule), or whose rounding to the fixed point could pass the tolerance,
//    is recomputed over the union by the thread that owns it.  For
//    GXD_gpu_knn, gxd_user_rewrite_knn instead keeps the k nearest of each
//    row as it goes (gxd_user_knn_select): no tile of distances is written.
//  - gxd_user_select, for (+) = MAX or MIN: the split of
//    gpu_split_select.cuh, the walk k_chebyshev (gpu_chebyshev.cu) takes
//    too, included from memory (gpu_nvrtc.cu).  Its keys are f(x,e) for a's
//    columns and f(e,y) for b's (gxd_user_keys, then a sort per row in
//    (+)'s order), and f(e,e) joins where the rows' union misses a column.
//    Max and min are exact and order free: the bits of the merge below.
//    For GXD_gpu_knn, gxd_user_select_knn keeps each row's k nearest of the
//    block's pairs as they are finalized (gxd_user_knn_select, as the
//    rewrite does): no tile of distances is written.  Where f(e,e) joins
//    every pair, gxd_user_select_knn_nc takes the products as one flat
//    list instead, as the built-in Chebyshev's kNN does.
//  - gxd_user_pairs, every other monoid, exact mode, and masks: one thread
//    per pair (i,j) merges the two sorted rows over the union of their
//    columns, the NAMM identity e where one row misses a column, applying
//    (x) and (+), then adds f(e,e) for each column missing from both rows.
// Both follow the CPU backend's arithmetic: (x) in the operator's own
// type, (+) in double, the result rounded once.  All pairs go through
// GXD_gpu_dense's row tiles and pinned output (the GXD_STRAT_USER
// strategy); a mask's pairs through GXD_gpu_user.

#include "gpu_internal.cuh"
#include "gpu_nvrtc.h"
#include "gpu_user_program.h"
#include "gpu_tuning.h"

// blocks of the pair kernel at most (grid-stride); GXD_USER_THREADS,
// GXD_USER_TN_WIDE, GXD_USER_VSLOTS and GXD_USER_NOVAL are in
// gpu_user_program.h, since the kernels' text holds them too
#define GXD_USER_MAX_BLOCKS (1 << 20)
// rows of B per block of the rewrite kernel: a shared accumulator of 4,096
// outputs of 8 bytes (32 KiB; with the staged columns, under the 48 KiB a
// launch gets without asking) lets several blocks share an SM; the block
// is GXD_USER_THREADS threads
#define GXD_USER_TN 4096
// distinct values of B past which no row takes the narrow form (its check
// evaluates f at each of them for each entry of A; the hash set that finds
// them has GXD_USER_VSLOTS slots)
#define GXD_USER_NVALUES 64
// rows of B per block of the select kernel: its best term, the count of
// row i's leading columns and the intersection's size per row (16 bytes),
// and row i's columns as a bit set up to GXD_USER_BITS columns, within the
// same 48 KiB
#define GXD_USER_SEL_TN 2048
// the same where f(e,e) needs no count (gxd_user_select_nc): 12 bytes a
// row, 45 KiB, and with a's bit set past the 48 KiB a launch gets without
// asking (gxd_nvrtc_launch asks); as wide as the built-in Chebyshev's
// tiles, which made MAX operators on MovieLens-like and text-like sets
// 1.46-1.57x faster than 2,048 rows with counts
#define GXD_USER_SEL_TN_NC 3840
#define GXD_USER_BITS 65536
// blocks of the tiles' range kernel (grid-stride over a tile's entries)
#define GXD_USER_RANGE_BLOCKS 256

//------------------------------------------------------------------------------
// the kernels' program
//------------------------------------------------------------------------------

// the kernels plan P takes besides gxd_user_pairs: the select for MIN and
// MAX, the rewrite for PLUS where its terms stay finite, else none (and
// none in exact mode); knn: GXD_gpu_knn's, else all pairs'; counts:
// whether a select counts f(e,e) (max_degree)
static gxd_user_kernels kernels_of (const gxd_plan *P, bool knn, bool counts)
{
    gxd_user_kernels K ;
    K.fp64 = P->fp64 ;
    K.set = (P->exact) ? GXD_USER_PAIRS
        : (P->add == GXD_OP_MAX || P->add == GXD_OP_MIN) ? GXD_USER_SELECT
        : gxd_generic_rewrite_ok (P) ? GXD_USER_REWRITE : GXD_USER_PAIRS ;
    K.min = (K.set == GXD_USER_SELECT && P->add == GXD_OP_MIN) ;
    K.counts = (K.set == GXD_USER_SELECT && counts) ;
    K.knn = (K.set != GXD_USER_PAIRS && knn) ;
    return K ;
}

// the function `entry` of the program of plan P with kernels K: the
// operator linked with K's template while the whole program compiles,
// where the library holds the template for this GPU (gpu_nvrtc.cu)
static GrB_Info user_function (void **fn, const gxd_plan *P,
    const gxd_user_kernels *K, const char *entry, char *msg)
{
    std::string src, op ;
    if (!gxd_user_program (src, P, K))
    {
        return gxd_fail (GrB_INVALID_VALUE, msg, "no GPU code for this plan") ;
    }
    const bool linked = gxd_user_has_template (K) && gxd_user_operator (op, P) ;
    const std::string name = gxd_user_template_name (K) ;
    return gxd_nvrtc_function (fn, src, linked ? name.c_str ( ) : NULL,
        linked ? &op : NULL, entry, msg) ;
}

//------------------------------------------------------------------------------
// all pairs: the GXD_STRAT_USER strategy of GXD_gpu_dense
//------------------------------------------------------------------------------

// a grid-stride launch of fn over count items, GXD_USER_THREADS a block
static GrB_Info launch_flat (void *fn, long long count, void **args,
    cudaStream_t s, char *msg)
{
    long long nb = (count + GXD_USER_THREADS - 1) / GXD_USER_THREADS ;
    if (nb > GXD_USER_MAX_BLOCKS) nb = GXD_USER_MAX_BLOCKS ;
    if (nb < 1) nb = 1 ;
    return gxd_nvrtc_launch (fn, (unsigned) nb, 1, GXD_USER_THREADS, 0, s,
        args, msg) ;
}

// each tile's range for the rewrite (gxd_user_range; G->csc built)
static GrB_Info rewrite_ranges (gxd_gpu_ctx *G, cudaStream_t s, char *msg)
{
    GrB_Info info = GrB_SUCCESS ;
    gxd_user_ctx *U = &G->user ;
    const size_t bytes = 3 * G->ntiles * sizeof (unsigned long long) ;
    double e = G->P.identity ;
    GXD_CUDA_TRY (cudaMalloc (&U->trange, bytes)) ;
    GXD_CUDA_TRY (cudaMemsetAsync (U->trange, 0, bytes, s)) ;
    for (int64_t t = 0 ; t < G->ntiles ; t++)
    {
        long long j0 = t * G->tn, w = (j0 + G->tn < G->B.nrows) ? G->tn : G->B.nrows - j0 ;
        unsigned long long *st = U->trange + 3 * t ;
        void *args [ ] = { &G->B.p, &G->B.x, &j0, &w, &e, &st } ;
        GXD_GPU_TRY (gxd_nvrtc_launch (U->range, GXD_USER_RANGE_BLOCKS, 1,
            GXD_USER_THREADS, 0, s, args, msg)) ;
    }
cleanup:
    return info ;
}

// n0 of the rows of A and B for the rewrite (gxd_user_norms)
static GrB_Info rewrite_norms (gxd_gpu_ctx *G, cudaStream_t s, char *msg)
{
    GrB_Info info = GrB_SUCCESS ;
    gxd_user_ctx *U = &G->user ;
    long long m = G->A.nrows, n = G->B.nrows ;
    double e = G->P.identity ;
    int left = 1, right = 0 ;
    void *args_a [ ] = { &G->A.p, &G->A.x, &m, &left, &e, &U->fee, &U->na } ;
    void *args_b [ ] = { &G->B.p, &G->B.x, &n, &right, &e, &U->fee, &U->nb } ;
    GXD_CUDA_TRY (cudaMalloc (&U->na, (m > 0 ? m : 1) * sizeof (double))) ;
    GXD_CUDA_TRY (cudaMalloc (&U->nb, (n > 0 ? n : 1) * sizeof (double))) ;
    GXD_GPU_TRY (launch_flat (U->norms, m, args_a, s, msg)) ;
    GXD_GPU_TRY (launch_flat (U->norms, n, args_b, s, msg)) ;
cleanup:
    return info ;
}

// B's distinct values (as doubles' bits) into a hash set of
// GXD_USER_VSLOTS slots (GXD_USER_NOVAL: empty) and their count in *count;
// it stops past GXD_USER_NVALUES, or at a NaN (count then past it too)
template <typename T>
__global__ void k_user_values (const T *x, int64_t nnz,
    unsigned long long *slot, int *count)
{
    for (int64_t q = blockIdx.x * (int64_t) blockDim.x + threadIdx.x ; q < nnz ;
        q += (int64_t) gridDim.x * blockDim.x)
    {
        if (*(volatile int *) count > GXD_USER_NVALUES) return ;
        const double d = (double) x [q] ;
        if (d != d) { atomicExch (count, GXD_USER_NVALUES + 1) ; return ; }
        const unsigned long long key = (unsigned long long) __double_as_longlong (d) ;
        unsigned h = (unsigned) ((key * 0x9E3779B97F4A7C15ULL) >> 32) % GXD_USER_VSLOTS ;
        for (int probe = 0 ; probe < GXD_USER_VSLOTS ; probe++)
        {
            const unsigned long long cur = ((volatile unsigned long long *) slot) [h] ;
            if (cur == key) break ;
            if (cur == GXD_USER_NOVAL)
            {
                const unsigned long long old = atomicCAS (slot + h, GXD_USER_NOVAL, key) ;
                if (old == GXD_USER_NOVAL) { atomicAdd (count, 1) ; break ; }
                if (old == key) break ;
            }
            h = (h + 1) % GXD_USER_VSLOTS ;
        }
    }
}

// U->nE, U->wide: which rows of A take the narrow form (gxd_user_narrow),
// where B has at most GXD_USER_NVALUES distinct values, and whether all do
static GrB_Info narrow_rows (gxd_gpu_ctx *G, cudaStream_t s, char *msg)
{
    GrB_Info info = GrB_SUCCESS ;
    gxd_user_ctx *U = &G->user ;
    long long m = G->A.nrows ;
    const int64_t nnz = G->B.nnz ;
    unsigned long long *slot = NULL ;
    int *flags = NULL, h [2] = { 0, 0 } ;        // the count, unsafe rows
    double e = G->P.identity ;
    U->wide = false ;
    GXD_CUDA_TRY (cudaMalloc (&slot, GXD_USER_VSLOTS * sizeof (unsigned long long))) ;
    GXD_CUDA_TRY (cudaMalloc (&flags, 2 * sizeof (int))) ;
    GXD_CUDA_TRY (cudaMemsetAsync (slot, 0xFF, GXD_USER_VSLOTS * sizeof (unsigned long long), s)) ;
    GXD_CUDA_TRY (cudaMemsetAsync (flags, 0, 2 * sizeof (int), s)) ;
    if (nnz > 0)
    {
        const unsigned blocks = (unsigned) std::min<int64_t> (
            (nnz + GXD_USER_THREADS - 1) / GXD_USER_THREADS, 1024) ;
        if (G->P.fp64) k_user_values<double> <<<blocks, GXD_USER_THREADS, 0, s>>> (
            (const double *) G->B.x, nnz, slot, flags) ;
        else k_user_values<float> <<<blocks, GXD_USER_THREADS, 0, s>>> (
            (const float *) G->B.x, nnz, slot, flags) ;
        GXD_LAUNCH_CHECK () ;
    }
    GXD_CUDA_TRY (cudaMemcpyAsync (h, flags, sizeof (int), cudaMemcpyDeviceToHost, s)) ;
    GXD_CUDA_TRY (cudaStreamSynchronize (s)) ;
    if (h [0] > GXD_USER_NVALUES || m == 0) goto cleanup ;
    GXD_CUDA_TRY (cudaMalloc (&U->nE, m * sizeof (int))) ;
    {
        // a warp a row
        long long nb = (m * 32 + GXD_USER_THREADS - 1) / GXD_USER_THREADS ;
        if (nb > GXD_USER_MAX_BLOCKS) nb = GXD_USER_MAX_BLOCKS ;
        int *unsafe = flags + 1 ;
        void *args [ ] = { &G->A.p, &G->A.x, &m, &slot, &e, &U->fee, &U->nE,
            &unsafe } ;
        GXD_GPU_TRY (gxd_nvrtc_launch (U->narrow, (unsigned) nb, 1,
            GXD_USER_THREADS, 0, s, args, msg)) ;
    }
    GXD_CUDA_TRY (cudaMemcpyAsync (h + 1, flags + 1, sizeof (int), cudaMemcpyDeviceToHost, s)) ;
    GXD_CUDA_TRY (cudaStreamSynchronize (s)) ;
    U->wide = (h [1] == 0) ;
cleanup:
    cudaFree (slot) ; cudaFree (flags) ;
    return info ;
}

// the most entries a row of H holds
static int64_t max_degree (const gxd_csr *H)
{
    int64_t d = 0 ;
    for (int64_t i = 0 ; i < H->nrows ; i++)
        if (H->p [i+1] - H->p [i] > d) d = H->p [i+1] - H->p [i] ;
    return d ;
}

// gxd_user_pairs on npairs pairs: rows i0 + q / n (Prow NULL) or the
// mask's (Prow [q], Pj [q]); C [q] each
static GrB_Info launch_pairs (void *fn, const gxd_dcsr *A, const gxd_dcsr *B,
    const int32_t *Prow, const int32_t *Pj, long long i0, long long n,
    long long npairs, long long k, double e, double fee, void *C,
    cudaStream_t s, char *msg)
{
    void *args [ ] = { (void *) &A->p, (void *) &A->j, (void *) &A->x,
        (void *) &B->p, (void *) &B->j, (void *) &B->x, &Prow, &Pj, &i0, &n,
        &npairs, &k, &e, &fee, &C } ;
    return launch_flat (fn, npairs, args, s, msg) ;
}

// one side of gxd_user_select: D's entries in (+)'s order of f(x,e)
// (left) or f(e,y) into sj, sx (if not NULL) and their keys sk
// each row of B's first key and column in key order (Bk0, Bc0: the b-only
// term's walk starts there, and the select's threads, a row of B each,
// then load them together)
__global__ void k_user_first (const int64_t *Bp, const int32_t *Bsj,
    const double *Bk, int64_t n, double *Bk0, int32_t *Bc0)
{
    for (int64_t j = blockIdx.x * (int64_t) blockDim.x + threadIdx.x ; j < n ;
        j += (int64_t) gridDim.x * blockDim.x)
    {
        const bool any = Bp [j] < Bp [j+1] ;
        // NaN, which MIN and MAX skip: an empty row has no b-only term
        Bk0 [j] = any ? Bk [Bp [j]] : __longlong_as_double (0x7FF8000000000000LL) ;
        Bc0 [j] = any ? Bsj [Bp [j]] : 0 ;
    }
}

static GrB_Info first_keys (gxd_gpu_ctx *G, cudaStream_t s, char *msg)
{
    GrB_Info info = GrB_SUCCESS ;
    gxd_user_ctx *U = &G->user ;
    const int64_t n = G->B.nrows ;
    const size_t nz = (size_t) (n > 0 ? n : 1) ;
    GXD_CUDA_TRY (cudaMalloc (&U->Bk0, nz * sizeof (double))) ;
    GXD_CUDA_TRY (cudaMalloc (&U->Bc0, nz * sizeof (int32_t))) ;
    if (n > 0)
    {
        int64_t blocks = (n + GXD_USER_THREADS - 1) / GXD_USER_THREADS ;
        if (blocks > GXD_USER_MAX_BLOCKS) blocks = GXD_USER_MAX_BLOCKS ;
        k_user_first <<<(unsigned) blocks, GXD_USER_THREADS, 0, s>>> (G->B.p,
            U->Bsj, U->Bk, n, U->Bk0, U->Bc0) ;
        GXD_LAUNCH_CHECK () ;
    }
cleanup:
    return info ;
}

static GrB_Info sort_side (const gxd_gpu_ctx *G, const gxd_dcsr *D, int left,
    int32_t **sj, void **sx, double **sk, cudaStream_t s, char *msg)
{
    GrB_Info info = GrB_SUCCESS ;
    const gxd_plan *P = &G->P ;
    long long nnz = D->nnz ;
    const size_t nz = (size_t) (nnz > 0 ? nnz : 1) ;
    double e = P->identity, *key = NULL ;
    int32_t *perm = NULL ;
    GXD_CUDA_TRY (cudaMalloc (sj, nz * sizeof (int32_t))) ;
    GXD_CUDA_TRY (cudaMalloc (sk, nz * sizeof (double))) ;
    if (sx != NULL) GXD_CUDA_TRY (cudaMalloc (sx, nz * (P->fp64 ? sizeof (double) : sizeof (float)))) ;
    if (nnz == 0) goto cleanup ;
    GXD_CUDA_TRY (cudaMalloc (&key, nz * sizeof (double))) ;
    GXD_CUDA_TRY (cudaMalloc (&perm, nz * sizeof (int32_t))) ;
    {
        void *args [ ] = { (void *) &D->x, &nnz, &left, &e, &key } ;
        GXD_GPU_TRY (launch_flat (G->user.keys, nnz, args, s, msg)) ;
    }
    GXD_GPU_TRY (gxd_sort_rows<double> (D, key, P->add == GXD_OP_MAX, perm, *sk, s, msg)) ;
    GXD_GPU_TRY (gxd_gather_entries (D, P->fp64, perm, *sj, sx ? *sx : NULL, s, msg)) ;
    GXD_CUDA_TRY (cudaStreamSynchronize (s)) ;
cleanup:
    cudaFree (key) ; cudaFree (perm) ;
    return info ;
}

GrB_Info gxd_user_prepare (gxd_gpu_ctx *G, const gxd_csr *A,
    const gxd_csr *B, cudaStream_t s, char *msg)
{
    GrB_Info info = GrB_SUCCESS ;
    const gxd_plan *P = &G->P ;
    gxd_user_ctx *U = &G->user ;
    const int64_t n = G->B.nrows ;
    // GXD_gpu_knn's selection inside the rewrite or the select
    // (gxd_user_knn_ok)
    const bool knn = G->knn && A->ncols > 0 && n < INT32_MAX ;
    // f(e,e) is counted only where two rows may hold every column
    U->counts = (max_degree (A) + max_degree (B) >= A->ncols) ;
    const gxd_user_kernels K = kernels_of (P, knn, U->counts) ;
    GXD_GPU_TRY (user_function (&U->pairs, P, &K, "gxd_user_pairs", msg)) ;
    U->fee = gxd_mult (P, P->identity, P->identity) ;
    U->tau = P->fp64 ? GXD_TAU_FP64 : GXD_TAU_FP32 ;
    if (K.set == GXD_USER_SELECT && G->A.nnz < INT32_MAX && G->B.nnz < INT32_MAX)
    {
        const char *name = knn ? (U->counts ? "gxd_user_select_knn"
            : "gxd_user_select_knn_nc") : (U->counts ? "gxd_user_select"
            : "gxd_user_select_nc") ;
        GXD_GPU_TRY (user_function (knn ? &U->select_knn : &U->select, P, &K,
            name, msg)) ;
        GXD_GPU_TRY (user_function (&U->keys, P, &K, "gxd_user_keys", msg)) ;
        GXD_GPU_TRY (sort_side (G, &G->A, 1, &U->Asj, &U->Asx, &U->Ak, s, msg)) ;
        GXD_GPU_TRY (sort_side (G, &G->B, 0, &U->Bsj, NULL, &U->Bk, s, msg)) ;
        GXD_GPU_TRY (first_keys (G, s, msg)) ;
        const int64_t tn = U->counts ? GXD_USER_SEL_TN : GXD_USER_SEL_TN_NC ;
        G->tn = (n < tn) ? (n > 0 ? n : 1) : tn ;
    }
    else if (K.set != GXD_USER_REWRITE) return GrB_SUCCESS ;
    else
    {
        GXD_GPU_TRY (user_function (knn ? &U->rewrite_knn : &U->rewrite, P, &K,
            knn ? "gxd_user_rewrite_knn" : "gxd_user_rewrite", msg)) ;
        GXD_GPU_TRY (user_function (&U->norms, P, &K, "gxd_user_norms", msg)) ;
        GXD_GPU_TRY (user_function (&U->range, P, &K, "gxd_user_range", msg)) ;
        GXD_GPU_TRY (user_function (&U->narrow, P, &K, "gxd_user_narrow", msg)) ;
        GXD_GPU_TRY (rewrite_norms (G, s, msg)) ;
        GXD_GPU_TRY (narrow_rows (G, s, msg)) ;
        // wide tiles for FP32's kNN only: FP64's larger lists would leave
        // them 4 blocks an SM
        U->wide = U->wide && knn && !P->fp64 ;
        const int64_t tn = U->wide ? GXD_USER_TN_WIDE : GXD_USER_TN ;
        G->tn = (n < tn) ? (n > 0 ? n : 1) : tn ;
    }
    G->ntiles = (n + G->tn - 1) / G->tn ;
    if (G->ntiles < 1) G->ntiles = 1 ;
    G->csc = (gxd_dcsc *) calloc (G->ntiles, sizeof (gxd_dcsc)) ;
    if (G->csc == NULL) return gxd_fail (GrB_OUT_OF_MEMORY, msg, "out of host memory") ;
    GXD_GPU_TRY (gxd_build_csc_tiles (&G->B, P->fp64, G->tn, G->ntiles, G->csc,
        &G->csc_pool, s, msg)) ;
    if (U->rewrite != NULL || U->rewrite_knn != NULL) GXD_GPU_TRY (rewrite_ranges (G, s, msg)) ;
cleanup:
    return info ;
}

// gxd_user_rewrite on rows [first, first + nr) of A and tile t of B
// (columns [j0, j0 + w)) into C, or where S is not NULL
// gxd_user_rewrite_knn into S's lists from their row r0 on
// the kNN lists' arguments of the kernels, from row r0 of S's lists (S
// NULL: none, the kernel writes C)
typedef struct
{
    int64_t *lj, *ln ;
    double *ld ;
    int K, ex ;
    // the rewrite's walk: tile j0's rows by row term (NULL: no walk)
    const int32_t *ord ;
    const double *okey ;
}
knn_lists ;

static knn_lists lists_at (const gxd_fx_sel *S, long long r0, long long j0)
{
    knn_lists L = { NULL, NULL, NULL, 0, 0, NULL, NULL } ;
    if (S != NULL)
    {
        L = (knn_lists) { S->lj + r0 * S->k, S->ln + r0, S->ld + r0 * S->k,
            S->k, S->exclude_self, S->ord ? S->ord + j0 : NULL,
            S->okey ? S->okey + j0 : NULL } ;
    }
    return L ;
}

static GrB_Info launch_rewrite (gxd_gpu_ctx *G, int64_t t, long long first,
    long long j0, long long w, long long nr, void *C, const gxd_fx_sel *S,
    long long r0, cudaStream_t s, char *msg)
{
    gxd_user_ctx *U = &G->user ;
    long long n = G->B.nrows, k = G->A.ncols ;
    double e = G->P.identity ;
    unsigned long long *st = U->trange + 3 * t ;
    knn_lists L = lists_at (S, r0, j0) ;
    // the kNN's wide tiles: one word a slot (every row narrow)
    int one = (S != NULL && U->wide) ;
    void *args [ ] = { &G->A.p, &G->A.j, &G->A.x, &G->B.p, &G->B.j,
        &G->B.x, &G->csc [t].colptr, &G->csc [t].rows, &G->csc [t].vals,
        &U->na, &U->nb, &st, &U->nE, &one, &first, &j0, &w, &n, &k, &e,
        &U->fee, &U->tau,
        // C, or the lists and the walk's order
        S ? (void *) &L.lj : (void *) &C, &L.ld, &L.ln, &L.K, &L.ex, &L.ord,
        &L.okey } ;
    return gxd_nvrtc_launch (S ? U->rewrite_knn : U->rewrite, (unsigned) nr,
        1, GXD_USER_THREADS, (unsigned) ((w + 3) / 4 * 4 * (one ? sizeof (int)
        : sizeof (double))), s, args, msg) ;
}

// gxd_user_select on rows [first, first + nr) of A and tile t of B (columns
// [j0, j0 + w)) into C, or where S is not NULL gxd_user_select_knn into
// S's lists from their row r0 on
static GrB_Info launch_select (gxd_gpu_ctx *G, int64_t t, long long first,
    long long j0, long long w, long long nr, void *C, const gxd_fx_sel *S,
    long long r0, cudaStream_t s, char *msg)
{
    gxd_user_ctx *U = &G->user ;
    long long n = G->B.nrows, k = G->A.ncols ;
    int use_bits = (k <= GXD_USER_BITS) ;
    // the best term, h, the common columns' count (where counted), or
    // (gxd_user_select_knn_nc) a word and a mask, w to a multiple of 16;
    // then a's bit set
    const bool flat = S != NULL && !U->counts ;
    const size_t wsize = G->P.fp64 ? sizeof (double) : sizeof (float) ;
    const unsigned smem = (unsigned) ((flat ? (w + 15) / 16 * 16 * (wsize + sizeof (int))
        : w * (sizeof (double) + (U->counts ? 2 : 1) * sizeof (int)))
        + (use_bits ? (k + 31) / 32 * sizeof (unsigned) : 0)) ;
    knn_lists L = lists_at (S, r0, j0) ;
    void *args [ ] = { &G->A.p, &G->A.j, &U->Asj, &U->Asx, &U->Ak, &G->B.p,
        &U->Bsj, &U->Bk, &U->Bk0, &U->Bc0, &G->csc [t].colptr, &G->csc [t].rows,
        &G->csc [t].vals, &first, &j0, &w, &n, &k, &use_bits, &U->fee,
        // C, or the lists, and the walk's order and B's columns for
        // gxd_user_select_knn_nc
        S ? (void *) &L.lj : (void *) &C, &L.ld, &L.ln, &L.K, &L.ex, &L.ord,
        &L.okey, &G->B.j } ;
    return gxd_nvrtc_launch (S ? U->select_knn : U->select, (unsigned) nr, 1,
        GXD_USER_THREADS, smem, s, args, msg) ;
}

GrB_Info gxd_user_tile (gxd_gpu_ctx *G, int64_t i0, int64_t i1, void *Ct,
    cudaStream_t s, char *msg)
{
    GrB_Info info = GrB_SUCCESS ;
    gxd_user_ctx *U = &G->user ;
    const size_t tsize = G->P.fp64 ? sizeof (double) : sizeof (float) ;
    long long n = G->B.nrows, k = G->A.ncols, rows = i1 - i0 ;
    double e = G->P.identity ;
    if (rows <= 0 || n <= 0) return GrB_SUCCESS ;
    if ((U->rewrite == NULL && U->select == NULL) || k == 0)
    {
        return launch_pairs (U->pairs, &G->A, &G->B, NULL, NULL, i0, n,
            rows * n, k, e, U->fee, Ct, s, msg) ;
    }
    for (int64_t t = 0 ; t < G->ntiles ; t++)
    {
        long long j0 = t * G->tn, w = (j0 + G->tn < n) ? G->tn : n - j0 ;
        for (long long r0 = 0 ; r0 < rows ; r0 += INT32_MAX)
        {
            long long nr = (rows - r0 < INT32_MAX) ? rows - r0 : INT32_MAX ;
            long long first = i0 + r0 ;
            void *C = (char *) Ct + (size_t) r0 * n * tsize ;
            if (U->select != NULL)
            {
                GXD_GPU_TRY (launch_select (G, t, first, j0, w, nr, C, NULL,
                    0, s, msg)) ;
                continue ;
            }
            GXD_GPU_TRY (launch_rewrite (G, t, first, j0, w, nr, C, NULL, 0, s, msg)) ;
        }
    }
cleanup:
    return info ;
}

// the walk keys and each row of B's index within its tile: for the
// rewrite (gxd_user_rewrite_knn) row j's term nb [j], NaN as +inf (the
// rewrite does not walk a tile with such a key); for (+) = MAX or MIN
// without f(e,e) counted (gxd_user_select_knn_nc) its first key Bk0 [j],
// NaN (no term: (+) skips it) as the end where (+) with it leaves a value
// as it is (nan_key)
__global__ void k_user_walk_keys (const double *nb, int64_t n, int64_t tn,
    double nan_key, double *key, int32_t *loc)
{
    for (int64_t j = blockIdx.x * (int64_t) blockDim.x + threadIdx.x ; j < n ;
        j += (int64_t) gridDim.x * blockDim.x)
    {
        const double v = nb [j] + 0.0 ;
        key [j] = (v == v) ? v : nan_key ;
        loc [j] = (int32_t) (j % tn) ;
    }
}

bool gxd_user_walks (const gxd_gpu_ctx *G)
{
    return G->user.rewrite_knn != NULL
        || (G->user.select_knn != NULL && !G->user.counts) ;
}

GrB_Info gxd_user_walk_keys (const gxd_gpu_ctx *G, double *key, int32_t *loc,
    cudaStream_t s, char *msg)
{
    GrB_Info info = GrB_SUCCESS ;
    const int64_t n = G->B.nrows ;
    int64_t blocks = (n + GXD_USER_THREADS - 1) / GXD_USER_THREADS ;
    if (blocks > GXD_USER_MAX_BLOCKS) blocks = GXD_USER_MAX_BLOCKS ;
    if (n > 0)
    {
        const bool sel = G->user.select_knn != NULL ;
        k_user_walk_keys <<<(unsigned) blocks, GXD_USER_THREADS, 0, s>>> (
            sel ? G->user.Bk0 : G->user.nb, n, G->tn,
            (sel && G->P.add == GXD_OP_MAX) ? -HUGE_VAL : HUGE_VAL, key, loc) ;
        GXD_LAUNCH_CHECK () ;
    }
cleanup:
    return info ;
}

bool gxd_user_knn_ok (const gxd_gpu_ctx *G)
{
    return G->user.rewrite_knn != NULL || G->user.select_knn != NULL ;
}

GrB_Info gxd_user_knn (gxd_gpu_ctx *G, int64_t i0, int64_t i1,
    const gxd_fx_sel *S, cudaStream_t s, char *msg)
{
    GrB_Info info = GrB_SUCCESS ;
    const long long n = G->B.nrows, rows = i1 - i0 ;
    for (int64_t t = 0 ; t < G->ntiles ; t++)
    {
        long long j0 = t * G->tn, w = (j0 + G->tn < n) ? G->tn : n - j0 ;
        for (long long r0 = 0 ; r0 < rows ; r0 += INT32_MAX)
        {
            long long nr = (rows - r0 < INT32_MAX) ? rows - r0 : INT32_MAX ;
            GXD_GPU_TRY ((G->user.select_knn != NULL)
                ? launch_select (G, t, i0 + r0, j0, w, nr, NULL, S, r0, s, msg)
                : launch_rewrite (G, t, i0 + r0, j0, w, nr, NULL, S, r0, s, msg)) ;
        }
    }
cleanup:
    return info ;
}

//------------------------------------------------------------------------------
// GXD_gpu_user: a mask's pairs
//------------------------------------------------------------------------------

extern "C" GrB_Info GXD_gpu_user (const gxd_plan *P, const gxd_csr *A,
    const gxd_csr *B, const int64_t *Mp, const int64_t *Mj, void *Cx,
    char *msg)
{
    GrB_Info info = GrB_SUCCESS ;
    const int64_t m = A->nrows, n = B->nrows, k = A->ncols ;
    const int64_t npairs = Mp [m] ;
    const size_t tsize = P->fp64 ? sizeof (double) : sizeof (float) ;
    gxd_dcsr dA, dB, dM ;
    gxd_csr mask ;
    void *dC = NULL, *fn = NULL ;
    cudaStream_t s = NULL ;
    double e = P->identity, fee ;
    const int32_t *Prow = NULL, *Pj = NULL ;
    memset (&dA, 0, sizeof (dA)) ; memset (&dB, 0, sizeof (dB)) ;
    memset (&dM, 0, sizeof (dM)) ;
    // (the program of all pairs that count f(e,e), which holds
    // gxd_user_pairs too)
    const gxd_user_kernels K = kernels_of (P, false, true) ;
    info = user_function (&fn, P, &K, "gxd_user_pairs", msg) ;
    if (info != GrB_SUCCESS || npairs == 0) return info ;
    // f(e,e), as the CPU computes it (the compiled host function)
    fee = gxd_mult (P, e, e) ;
    GXD_CUDA_TRY (cudaStreamCreateWithFlags (&s, cudaStreamNonBlocking)) ;
    GXD_GPU_TRY (gxd_upload_csr (A, P->fp64, false, &dA, s, msg)) ;
    GXD_GPU_TRY (gxd_upload_csr (B, P->fp64, false, &dB, s, msg)) ;
    // the mask as a pattern: each entry's row, and its column (a row of B),
    // as int32 like every column (gpu_sampled.cu does the same)
    mask.nrows = m ; mask.ncols = n ; mask.p = Mp ; mask.j = Mj ;
    mask.x = Mj ;
    GXD_GPU_TRY (gxd_upload_csr (&mask, true, true, &dM, s, msg)) ;
    Prow = dM.row ;
    Pj = dM.j ;
    GXD_CUDA_TRY (cudaMalloc (&dC, npairs * tsize)) ;
    GXD_GPU_TRY (launch_pairs (fn, &dA, &dB, Prow, Pj, 0, n, npairs, k, e,
        fee, dC, s, msg)) ;
    GXD_CUDA_TRY (cudaMemcpyAsync (Cx, dC, npairs * tsize,
        cudaMemcpyDeviceToHost, s)) ;
    GXD_CUDA_TRY (cudaStreamSynchronize (s)) ;
cleanup:
    if (s) cudaStreamSynchronize (s) ;
    gxd_free_csr (&dA) ; gxd_free_csr (&dB) ; gxd_free_csr (&dM) ;
    cudaFree (dC) ;
    if (s) cudaStreamDestroy (s) ;
    return info ;
}
