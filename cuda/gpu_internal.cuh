// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// cuda/gpu_internal.cuh: what the CUDA strategy files share
//------------------------------------------------------------------------------

// One error idiom (GXD_CUDA_TRY, like CUB's CubDebug + SuiteSparse's GB_OK:
// record the first failure with a message, jump to the function's cleanup),
// the device copies of the CSR inputs, the per-row contexts as arrays
// (structure of arrays, so a warp reading row j..j+31 is coalesced), and the
// metric dispatch: every kernel is a template on the metric id so the
// switches of gxd_metric_ops.h fold away at compile time.

#ifndef GXD_GPU_INTERNAL_CUH
#define GXD_GPU_INTERNAL_CUH

#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>
#include <stdint.h>
#include "gxd_gpu.h"
#include "gxd_metric_ops.h"

//------------------------------------------------------------------------------
// errors
//------------------------------------------------------------------------------

// Evaluate a CUDA call; on failure write msg, set info and goto cleanup.
// Allocation failures are GrB_OUT_OF_MEMORY, anything else GrB_PANIC.
#define GXD_CUDA_TRY(call)                                                    \
{                                                                             \
    cudaError_t gxd_e_ = (call) ;                                             \
    if (gxd_e_ != cudaSuccess)                                                \
    {                                                                         \
        info = gxd_cuda_info (gxd_e_, #call, __FILE__, __LINE__, msg) ;       \
        goto cleanup ;                                                        \
    }                                                                         \
}

// propagate a GrB_Info from a helper (which already wrote msg); the API
// layer's GXD_TRY is the same idea with a cleanup macro instead of a label
#define GXD_GPU_TRY(call)                                                         \
{                                                                             \
    info = (call) ;                                                           \
    if (info != GrB_SUCCESS) goto cleanup ;                                   \
}

// a kernel launch: check the launch itself (async faults surface at the next
// synchronizing call, which is checked too)
#define GXD_LAUNCH_CHECK() GXD_CUDA_TRY (cudaGetLastError ())

static inline GrB_Info gxd_cuda_info (cudaError_t e, const char *what,
    const char *file, int line, char *msg)
{
    cudaGetLastError () ;   // clear a sticky non-fatal error
    if (msg != NULL)
    {
        snprintf (msg, GXD_MSG_LEN, "gxbdist GPU: %s failed: %s (%s:%d)",
            what, cudaGetErrorString (e), file, line) ;
    }
    return (e == cudaErrorMemoryAllocation) ? GrB_OUT_OF_MEMORY : GrB_PANIC ;
}

static inline GrB_Info gxd_fail (GrB_Info info, char *msg, const char *text)
{
    if (msg != NULL) snprintf (msg, GXD_MSG_LEN, "gxbdist GPU: %s", text) ;
    return info ;
}

//------------------------------------------------------------------------------
// device data
//------------------------------------------------------------------------------

// a CSR matrix on the device: int64 row pointers (nnz may pass 2^31), int32
// columns (k < 2^31 is required on the GPU; it halves the index traffic),
// values T (float or double, as the plan says), and the COO row of each
// entry (the CSC builds and sampled products need it)
typedef struct
{
    int64_t nrows, ncols, nnz ;
    int64_t *p ;
    int32_t *j ;
    void *x ;
    int32_t *row ;      // row of each entry (nrows < 2^31), or NULL
}
gxd_dcsr ;

// per-row contexts (gxd_row) of a matrix, as arrays on the device
typedef struct
{
    double *n0, *n1, *inv, *nrm, *mu, *sc ;
    int64_t *nnz ;
}
gxd_drows ;

// B by columns for one tile of its rows [j0, j0 + ncols of the tile): colptr
// has k+1 offsets into rows/vals; rows are local to the tile (< 2^31)
typedef struct
{
    int64_t *colptr ;
    int32_t *rows ;
    void *vals ;
}
gxd_dcsc ;

template <typename T> struct gxd_rowview
{
    const int64_t *p ;
    const int32_t *j ;
    const T *x ;
} ;

// load the context of row i into a gxd_row; fields a metric never reads are
// dead and their loads are removed by the compiler
__device__ __forceinline__ gxd_row gxd_load_row (const gxd_drows &R, int64_t i)
{
    gxd_row r ;
    gxd_row_begin (&r) ;        // every field defined, also ones added later
    r.n0 = R.n0 [i] ; r.n1 = R.n1 [i] ; r.inv = R.inv [i] ; r.nrm = R.nrm [i] ;
    r.mu = R.mu [i] ; r.sc = R.sc [i] ; r.nnz = R.nnz [i] ;
    return r ;
}

//------------------------------------------------------------------------------
// metric dispatch
//------------------------------------------------------------------------------

// GXD_DISPATCH (P, F, args): calls F<M,T>(args) with M the plan's metric as a
// compile-time constant and T float or double.  F must be a function template
// returning GrB_Info.
// The cases come from GXD_METRICS (gxd_metric_list.h): the row's U is
// (F, T, args), unpacked by GXD_APPLY into GXD_CASE's arguments.
#define GXD_CASE(M, F, T, ...) case M: return F<M, T> (__VA_ARGS__) ;
#define GXD_CASE_ROW(U, NAME, ...) GXD_APPLY (GXD_CASE, GXD_ ## NAME, GXD_UNPAREN U)
#define GXD_DISPATCH_T(P, F, T, ...)                                          \
    switch ((P)->metric)                                                      \
    {                                                                         \
        GXD_METRICS (GXD_CASE_ROW, (F, T, __VA_ARGS__))                       \
        GXD_CASE (GXD_GENERIC, F, T, __VA_ARGS__)                             \
        default: break ;                                                      \
    }
#define GXD_DISPATCH(P, F, ...)                                               \
{                                                                             \
    if ((P)->fp64) { GXD_DISPATCH_T (P, F, double, __VA_ARGS__) }             \
    else           { GXD_DISPATCH_T (P, F, float,  __VA_ARGS__) }             \
}

// the value a missing entry takes (the NAMM identity)
__host__ __device__ __forceinline__ double gxd_missing (int m, const gxd_plan &P)
{
    return (m == GXD_GENERIC) ? P.identity : 0 ;
}

// combine two partial union states (over disjoint column sets): the
// metric's own rule (gxd_ucombine of gxd_metric_ops.h: max, the monoid, or
// scaled sums rescaled to the larger scale); the order of the arguments is
// fixed by every caller, so results are deterministic
__host__ __device__ __forceinline__ gxd_ustate gxd_ucombine (int m,
    const gxd_plan &P, gxd_ustate a, gxd_ustate b)
{
    return gxd_ucombine ((gxd_metric_id) m, &P, a, b) ;
}

//------------------------------------------------------------------------------
// exact union of two sorted rows (one thread): the reference semantics
//------------------------------------------------------------------------------

// d(a, b) by one merge over a U b with gxd_ustep; used for sampled outputs,
// for pairs the rewrite cannot resolve (gxd_needs_exact), and as the naive
// baseline of the benchmark (seed 001 Algorithm 2)
template <int M, typename T>
__device__ __forceinline__ double gxd_union_merge (const gxd_plan &P,
    const int32_t *aj, const T *ax, int64_t na,
    const int32_t *bj, const T *bx, int64_t nb,
    const gxd_row &ra, const gxd_row &rb, int64_t k)
{
    const gxd_metric_id m = (gxd_metric_id) M ;
    const double e = gxd_missing (M, P) ;
    gxd_ustate s = gxd_ubegin (m, &P) ;
    int64_t pa = 0, pb = 0, nu = 0 ;
    while (pa < na || pb < nb)
    {
        int32_t ca = (pa < na) ? aj [pa] : INT32_MAX ;
        int32_t cb = (pb < nb) ? bj [pb] : INT32_MAX ;
        double x = e, y = e ;
        if (ca <= cb) x = (double) ax [pa++] ;
        if (cb <= ca) y = (double) bx [pb++] ;
        gxd_ustep (m, &P, &s, x, y, &ra, &rb) ;
        nu++ ;
    }
    return gxd_uend (m, &P, &s, nu, &ra, &rb, k) ;
}

// never NaN, never negative: the last guard of every output (a metric that
// can be negative, DOT and generic plans, is left as is)
template <int M>
__device__ __forceinline__ double gxd_sanitize (double d)
{
    if (M == GXD_DOT || M == GXD_GENERIC || M == GXD_KL_DIVERGENCE) return d ;
    return (d > 0) ? d : 0 ;   // also maps NaN to 0
}

//------------------------------------------------------------------------------
// the intersection kernels' shared parts (gpu_intersect*.cu)
//------------------------------------------------------------------------------

// columns of a row of A staged at once
#define GXD_ICH 256

// accumulator slot of output jj: one pad double every 16 slots, so rows of a
// dense column (near-regular strides) spread over the 32 banks
#define GXD_SW(jj) ((jj) + ((jj) >> 4))
#define GXD_SW_LEN(tn) ((tn) + ((tn) >> 4) + 1)
// GXD_SW_LEN rounded up to 4: an accumulator's second array of slots
// starts 16-byte aligned, and both are zeroed 16 bytes a store
#define GXD_FX_LO_LEN(w) ((GXD_SW_LEN (w) + 3) & ~3)

// warp 0: s_off [1..cmax] holds lengths; make it an exclusive prefix sum
// (s_off [0] = 0) and set *cnt to the longest prefix of columns whose
// staged entries fit in GXD_SBUF (at least one: a short column fits)
__device__ __forceinline__ void gxd_stage_scan (int32_t *s_off, int cmax,
    int32_t *cnt, int sbuf)
{
    const int lane = threadIdx.x & 31 ;
    const int per = (GXD_ICH + 31) / 32 ;
    int32_t local = 0 ;
    for (int u = 0 ; u < per ; u++)
    {
        int t = lane * per + u ;
        if (t < cmax) local += s_off [t+1] ;
    }
    int32_t inc = local ;
    for (int off = 1 ; off < 32 ; off <<= 1)
    {
        int32_t v = __shfl_up_sync (0xffffffffu, inc, off) ;
        if (lane >= off) inc += v ;
    }
    int32_t run = inc - local ;
    int last = 0 ;
    for (int u = 0 ; u < per ; u++)
    {
        int t = lane * per + u ;
        if (t < cmax)
        {
            run += s_off [t+1] ;
            s_off [t+1] = run ;
            if (run <= sbuf) last = t + 1 ;
        }
    }
    if (lane == 0) s_off [0] = 0 ;
    // the prefix sums rise with t, so the fitting columns are a prefix
    for (int off = 16 ; off > 0 ; off >>= 1)
        last = max (last, __shfl_xor_sync (0xffffffffu, last, off)) ;
    if (lane == 0) *cnt = (last > 0) ? last : 1 ;
}

// A lane's place in a staged chunk's products as one flat list (product e
// of the chunk: column t with s_off [t] <= e < s_off [t+1], entry s_lo [t]
// + e - s_off [t] of B's tile), for the kernels whose warps split that list
// evenly.  The column's end and its entries' offset are kept while the lane
// stays in it: two shared loads fewer per product than looking them up.
struct gxd_flat_cursor
{
    int col, nxt, pb ;
    // at the lane's first product e (the last t with s_off [t] <= e)
    __device__ __forceinline__ gxd_flat_cursor (const int32_t *s_off,
        const int32_t *s_lo, int cmax, int e)
    {
        int lo = 0, hi = cmax - 1 ;
        while (lo < hi)
        {
            int mid = (lo + hi + 1) / 2 ;
            if (s_off [mid] <= e) lo = mid ; else hi = mid - 1 ;
        }
        col = lo ;
        nxt = s_off [col+1] ;
        pb = s_lo [col] - s_off [col] ;
    }
    // product e (never before the last one asked for): its entry of B;
    // col is its column in the chunk
    __device__ __forceinline__ int entry (const int32_t *s_off,
        const int32_t *s_lo, int e)
    {
        while (nxt <= e)
        {
            col++ ;
            nxt = s_off [col+1] ;
            pb = s_lo [col] - s_off [col] ;
        }
        return pb + e ;
    }
} ;

// the output of pair (i, j) from its intersection sums a1 (a2: Bray-Curtis):
// finalize; where the rewrite may have cancelled (or `force`: the caller's
// sums are not trustworthy for this pair) recompute it by the exact merge
template <int M, typename T>
__device__ __forceinline__ T gxd_finish_pair (const gxd_plan &P, double a1,
    double a2, bool force, const gxd_row &ra, const gxd_row &rb,
    const int32_t *aj, const T *ax, int64_t na,
    const int32_t *Bj, const T *Bx, const int64_t *Bp, int64_t j, int64_t k)
{
    const gxd_metric_id m = (gxd_metric_id) M ;
    double d = gxd_finalize (m, &P, a1, a2, &ra, &rb, k) ;
    bool redo = force || gxd_needs_exact (m, &P, a1, a2, &ra, &rb, k, d) ;
    if (M == GXD_GENERIC) redo = redo || !isfinite (d) ;
    if (redo)
    {
        d = gxd_union_merge<M, T> (P, aj, ax, na, Bj + Bp [j], Bx + Bp [j],
            Bp [j+1] - Bp [j], ra, rb, k) ;
    }
    return (T) gxd_sanitize<M> (d) ;
}

//------------------------------------------------------------------------------
// helpers implemented in gpu_csr.cu
//------------------------------------------------------------------------------

// upload a host CSR (cols int64 -> int32, values copied as they are); with
// want_rows, also the COO row of each entry
GrB_Info gxd_upload_csr (const gxd_csr *H, bool fp64, bool want_rows,
    gxd_dcsr *D, cudaStream_t s, char *msg) ;
void gxd_free_csr (gxd_dcsr *D) ;

// row contexts of every row of D (gxd_row semantics of gxd_metric_ops.h);
// left = rows of A
GrB_Info gxd_row_contexts (const gxd_plan *P, const gxd_dcsr *D, bool left,
    gxd_drows *R, cudaStream_t s, char *msg) ;
void gxd_free_rows (gxd_drows *R) ;

// B by columns, one CSC per tile of tn rows of B (tile t holds rows
// [t*tn, min(n,(t+1)*tn)) ); csc[t] share one allocation
// each row of D's entries in key order (gpu_sorted_rows.cu): perm (entry
// indices) and the keys skey in that order, descending or ascending, ties
// in column order; then any of D's columns (sj) and values (sx, NULL: not
// wanted) gathered in that order
template <typename K>
GrB_Info gxd_sort_rows (const gxd_dcsr *D, const K *key, bool descending,
    int32_t *perm, K *skey, cudaStream_t s, char *msg) ;
GrB_Info gxd_gather_entries (const gxd_dcsr *D, bool fp64,
    const int32_t *perm, int32_t *sj, void *sx, cudaStream_t s, char *msg) ;

GrB_Info gxd_build_csc_tiles (const gxd_dcsr *B, bool fp64, int64_t tn,
    int64_t ntiles, gxd_dcsc *csc, void **pool, cudaStream_t s, char *msg) ;

//------------------------------------------------------------------------------
// the strategies: each computes rows [i0, i1) of C into a device tile Ct
// (row-major, (i1-i0) x n, T) on stream s
//------------------------------------------------------------------------------

// what each strategy keeps between its prepare and its tiles
struct gxd_spsv_ctx
{
    // workspaces (sized for the largest row tile)
    void *ws1 ;
    int32_t *wsint ;
    int64_t ws_rows ;
    // the walk by rows: walked rows by decreasing degree (B once, A per
    // tile), their degree classes, and the sort's workspace
    int32_t *perm_a, *perm_b ;
    int64_t *bnd ;
    void *sort_ws ;
    size_t sort_bytes ;
    int64_t sort_rows ;
} ;

// the fixed-point intersection (gpu_intersect_fx.cu): max |B(:,c)|, E_i per
// row; JS in FP32: v ln v of A's entries, B's entries packed with theirs
// (the tiles' order), and the logarithm's table
struct gxd_fx_ctx
{
    double *colmax ;
    int32_t *exp ;
    double *alog ;
    double2 *bpack ;    // JS, FP32: B's entries as (row and value, v ln v)
    double2 *ltab ;
    double *itab ;      // JS, FP32: s ln s for integers s (fx_js_int)
    uint32_t *bint ;    // JS, FP32: nonzero unless B's values are all such
    uint32_t *brange ;  // Canberra, FP32: min and max |B| (float bits)
    uint32_t *bfrac ;   // the exact form: B's values' largest fraction bits
    bool narrow ;       // every row of A takes the narrow form: the fused
                        // selection's slots need one word (gpu_intersect_fx.cu)
    bool narrow_known ; // found by the first selection, so that calls that
                        // write all pairs do not wait for it
} ;

// Chebyshev: rows of A and B by descending magnitude
struct gxd_cheb_ctx
{
    int32_t *Asj, *Bsj ;
    void *Asx, *Bsx ;
} ;

// a user's operator (gpu_user.cu): its kernels, compiled by NVRTC (the
// rewrite's only for (+) = PLUS), the rows' n0 and f(e,e)
struct gxd_user_ctx
{
    void *pairs, *rewrite, *norms, *range, *select, *keys ;     // CUfunction
    // gxd_user_rewrite_knn, gxd_user_select_knn (GXD_gpu_knn's fused path)
    void *rewrite_knn, *select_knn ;
    double *na, *nb ;
    // (+) = PLUS: each tile of B's smallest and largest value and largest
    // |f(e,y)| (gxd_user_range)
    unsigned long long *trange ;
    // (+) = PLUS: each row of A's E in the narrow form, -1 none (NULL: no
    // row; gxd_user_narrow), and whether the kNN takes wide tiles, one word
    // a pair (FP32, every row narrow)
    void *narrow ;      // CUfunction
    int *nE ;
    bool wide ;
    double fee, tau ;
    // (+) = MAX or MIN: whether f(e,e) is counted (gxd_user_select, else
    // gxd_user_select_nc); rows of A and B in key order
    bool counts ;
    int32_t *Asj, *Bsj ;
    void *Asx ;
    double *Ak, *Bk ;
    // each row of B's first key and column in key order
    double *Bk0 ;
    int32_t *Bc0 ;
} ;

struct gxd_gpu_ctx
{
    gxd_plan P ;
    gxd_dcsr A, B ;
    bool b_is_a ;       // B's arrays are A's (not freed twice)
    gxd_drows RA, RB ;
    int strategy ;      // gxd_strategy
    // intersection and Chebyshev: B by columns per tile of tn rows
    int64_t tn, ntiles ;
    gxd_dcsc *csc ;
    void *csc_pool ;
    // intersection: block size, kernel variant (gpu_intersect.cu), and
    // whether the fixed-point kernels serve this plan (prepared in fx)
    int threads ;
    int kv ;
    bool fixed_point ;
    gxd_fx_ctx fx ;
    gxd_spsv_ctx spsv ;
    gxd_cheb_ctx cheb ;
    gxd_user_ctx user ;
    bool knn ;          // gxd_gpu_open's knn
} ;

// the grid of the intersection-style kernels: for every tile t of B's rows
// (columns [j0, j0 + w) of C) and every run [r0, r0 + nr) of fewer than
// 2^31 rows of the row tile (rows of the grid go in x), in order:
// launch (t, j0, w, r0, nr), which launches one kernel; its launch is checked
template <typename F>
static inline GrB_Info gxd_for_tiles (const gxd_gpu_ctx *G, int64_t rows,
    char *msg, F launch)
{
    const int64_t n = G->B.nrows ;
    for (int64_t t = 0 ; t < G->ntiles ; t++)
    {
        const int64_t j0 = t * G->tn ;
        const int64_t w = (j0 + G->tn < n) ? G->tn : n - j0 ;
        for (int64_t r0 = 0 ; r0 < rows ; r0 += INT32_MAX)
        {
            launch (t, j0, w, r0, (rows - r0 < INT32_MAX) ? rows - r0 : INT32_MAX) ;
            cudaError_t e = cudaGetLastError () ;
            if (e != cudaSuccess)
                return gxd_cuda_info (e, "kernel launch", __FILE__, __LINE__, msg) ;
        }
    }
    return GrB_SUCCESS ;
}

enum gxd_strategy { GXD_STRAT_INTERSECT = 0, GXD_STRAT_SPSV = 1,
    GXD_STRAT_CHEBYSHEV = 2, GXD_STRAT_USER = 3 } ;

gxd_strategy gxd_choose_strategy (const gxd_plan *P) ;

GrB_Info gxd_intersect_prepare (gxd_gpu_ctx *G, cudaStream_t s, char *msg) ;
GrB_Info gxd_intersect_tile (gxd_gpu_ctx *G, int64_t i0, int64_t i1,
    void *Ct, cudaStream_t s, char *msg) ;

// metrics whose intersection term has a bound (gpu_intersect_fx.cu): the
// counts (Hamming, the set metrics) and these
__host__ __device__ constexpr bool gxd_fx_metric (int m)
{
    return m == GXD_MANHATTAN || m == GXD_EUCLIDEAN || m == GXD_SQEUCLIDEAN
        || m == GXD_COSINE || m == GXD_CORRELATION || m == GXD_CANBERRA
        || m == GXD_HELLINGER || m == GXD_JENSEN_SHANNON
        || m == GXD_MINKOWSKI || gxd_metric_counts (m) ;
}
// whether an intersection plan of kernel variant kv (gxd_gpu_tuning.kv; 0:
// by metric) takes the fixed-point kernels: known before any upload
bool gxd_fx_planned (int kv, int metric) ;
GrB_Info gxd_intersect_fx_prepare (gxd_gpu_ctx *G, cudaStream_t s, char *msg) ;
GrB_Info gxd_intersect_fx_tile (gxd_gpu_ctx *G, int64_t i0, int64_t i1,
    void *Ct, cudaStream_t s, char *msg) ;

// the library's order of (distance, column) pairs: smaller first (larger
// first for a similarity), NaN last, ties to the smaller column
__host__ __device__ __forceinline__ bool gxd_kc_before (double ad, int64_t aj,
    double bd, int64_t bj, bool largest)
{
    bool an = (ad != ad), bn = (bd != bd) ;
    if (an != bn) return bn ;
    if (!an && ad != bd) return largest ? (ad > bd) : (ad < bd) ;
    return aj < bj ;
}

// k nearest rows selected inside the fixed-point kernel (GXD_gpu_knn's
// fused path): no tile of distances is written.  Each block (row i of A,
// tile of B) merges its tile's best into row i's k best so far, which also
// bound what its tile must look at.
//
// Untouched pairs (row j of B shares no column with row i: the intersection
// sum is 0) are at F(i, j), the rewrite with a sum of 0.  For the metrics of
// gxd_walk_metric F depends on row j only through one number, its walk key,
// and never decreases as the key grows (sums, a clamp, sqrt, a division by
// k: monotone and correctly rounded; cosine and the set metrics are
// constant but for empty rows).  A tile's rows sorted by (key, row) are then
// walked from the front: the untouched ones give their k best after about k
// steps, and the block finalizes only the touched pairs.  A walked pair the
// rewrite cannot resolve (gxd_fx_coarse, gxd_needs_exact) or a key that is
// not finite ends the walk: the block then finalizes every pair, as the
// dense kernel does.
#define GXD_FX_SEL_MAXK 32
__host__ __device__ constexpr bool gxd_walk_metric (int m)
{
    return m == GXD_MANHATTAN || m == GXD_SQEUCLIDEAN || m == GXD_EUCLIDEAN
        || m == GXD_CANBERRA || m == GXD_HAMMING || m == GXD_COSINE
        || m == GXD_JACCARD || m == GXD_DICE || m == GXD_RUSSELLRAO
        || m == GXD_JENSEN_SHANNON ;
}

// row j's walk key (F's one dependence on row j; + 0.0 makes -0 into +0)
template <int M>
__device__ __forceinline__ double gxd_walk_key (const gxd_row &b)
{
    switch (M)
    {
        case GXD_COSINE:    return (b.inv == 0) ? 0 : (b.inv == b.inv) ? 1 : 2 ;
        case GXD_JACCARD:
        case GXD_DICE:      return (b.n0 > 0) ? 1 : 0 ;
        case GXD_RUSSELLRAO: return 0 ;
        default:            return b.n0 + 0.0 ;
    }
}

struct gxd_fx_sel
{
    int k ;                 // 1 .. GXD_FX_SEL_MAXK
    bool exclude_self ;
    // per row of the launch: its k best so far (columns, distances, sorted
    // by gxd_kc_before) and their number
    int64_t *lj ;
    double *ld ;
    int64_t *ln ;
    // rows of B by tile, each tile's rows (local index) sorted by (walk key,
    // row), and the keys in that order; NULL: no walk
    const int32_t *ord ;
    const double *okey ;
    // the keys by row (Chebyshev's walk, gpu_chebyshev_sel.cu)
    const double *rkey ;
    // pairs that are not candidates (a complemented mask): row i's columns
    // xj [xp [i] .. xp [i+1]), sorted, by row of A; NULL: none
    const int64_t *xp ;
    const int32_t *xj ;
} ;
// rows [i0, i1) of A against all of B; S's lists are those of row i0 on
GrB_Info gxd_intersect_fx_select (gxd_gpu_ctx *G, int64_t i0, int64_t i1,
    const gxd_fx_sel *S, cudaStream_t s, char *msg) ;

GrB_Info gxd_spsv_prepare (gxd_gpu_ctx *G, int64_t tile_rows, cudaStream_t s,
    char *msg) ;
GrB_Info gxd_spsv_tile (gxd_gpu_ctx *G, int64_t i0, int64_t i1, void *Ct,
    cudaStream_t s, char *msg) ;

size_t gxd_spsv_bytes_per_pair (const gxd_plan *P) ;

GrB_Info gxd_chebyshev_prepare (gxd_gpu_ctx *G, cudaStream_t s, char *msg) ;
GrB_Info gxd_chebyshev_tile (gxd_gpu_ctx *G, int64_t i0, int64_t i1,
    void *Ct, cudaStream_t s, char *msg) ;
// the k nearest selected inside the Chebyshev kernel (gpu_chebyshev_sel.cu),
// as gxd_intersect_fx_select; its walk keys are the rows' largest |b|
// (gxd_chebyshev_keys).  Only for finite A and B (gxd_chebyshev_finite)
GrB_Info gxd_chebyshev_select (gxd_gpu_ctx *G, int64_t i0, int64_t i1,
    const gxd_fx_sel *S, cudaStream_t s, char *msg) ;
GrB_Info gxd_chebyshev_keys (const gxd_gpu_ctx *G, double *key, cudaStream_t s,
    char *msg) ;
GrB_Info gxd_chebyshev_finite (const gxd_gpu_ctx *G, bool *finite,
    cudaStream_t s, char *msg) ;

// a plan with a user's operator (gxd_plan_user): the kernels of
// gpu_user.cu, compiled for it (every other strategy's kernels are built in)
GrB_Info gxd_user_prepare (gxd_gpu_ctx *G, const gxd_csr *A,
    const gxd_csr *B, cudaStream_t s, char *msg) ;
GrB_Info gxd_user_tile (gxd_gpu_ctx *G, int64_t i0, int64_t i1, void *Ct,
    cudaStream_t s, char *msg) ;
// GXD_gpu_knn's fused path for a user's (+) = PLUS, MAX or MIN, where
// gxd_user_knn_ok: rows [i0, i1) of A against all of B, selected inside the
// rewrite or the select; S's lists are those of row i0 on (its walk order
// serves the rewrite, where gxd_user_walks; its exclusions are unused)
bool gxd_user_knn_ok (const gxd_gpu_ctx *G) ;
// whether that path walks untouched rows (the rewrite, (+) = PLUS), and its
// walk keys (gpu_knn.cu's walk_prepare): row j's row term and its index
// within its tile
bool gxd_user_walks (const gxd_gpu_ctx *G) ;
GrB_Info gxd_user_walk_keys (const gxd_gpu_ctx *G, double *key, int32_t *loc,
    cudaStream_t s, char *msg) ;
GrB_Info gxd_user_knn (gxd_gpu_ctx *G, int64_t i0, int64_t i1,
    const gxd_fx_sel *S, cudaStream_t s, char *msg) ;

// the driver (gpu_dense.cu): upload A and B, choose a strategy (strategy <
// 0: by gxd_choose_strategy and gxd_gpu_tuning.spsv), prepare for row tiles of
// at most tile_rows rows; then compute tiles into device memory
// rows of A per tile of distances on the device (two tiles, and the SPSV's
// workspace, within a share of the free memory)
int64_t gxd_choose_tile_rows (const gxd_plan *P, int64_t m, int64_t n,
    int strategy) ;
// rows per tile for a selection on the device: one distance buffer plus
// row_bytes a row (gpu_dense.cu)
int64_t gxd_select_tile_rows (const gxd_plan *P, int64_t m, int64_t n,
    int strategy, size_t row_bytes) ;
// knn: the caller (GXD_gpu_knn) selects the k nearest inside the kernels
// where they can (a user's compiled rewrite is then compiled for that only)
GrB_Info gxd_gpu_open (const gxd_plan *P, const gxd_csr *A, const gxd_csr *B,
    int strategy, int64_t tile_rows, bool knn, gxd_gpu_ctx *G, cudaStream_t s,
    char *msg) ;
GrB_Info gxd_gpu_run_tile (gxd_gpu_ctx *G, int64_t i0, int64_t i1, void *Ct,
    cudaStream_t s, char *msg) ;
void gxd_ctx_free (gxd_gpu_ctx *G) ;

// device results into pageable host memory through pinned staging, at the
// link's rate (gpu_staging.cu): open, put the pieces in order, finish, and
// close (always, also after a failure); stage = false copies directly
struct gxd_host_writer ;
GrB_Info gxd_writer_open (gxd_host_writer **W, cudaStream_t s, bool stage,
    char *msg) ;
GrB_Info gxd_writer_put (gxd_host_writer *W, char *dst, const void *src,
    size_t bytes, char *msg) ;
GrB_Info gxd_writer_finish (gxd_host_writer *W, char *msg) ;
void gxd_writer_close (gxd_host_writer *W) ;
// the device array dst = the host array src (pageable), through the same
// staging; returns once dst holds it
GrB_Info gxd_stage_upload (void *dst, const void *src, size_t bytes,
    cudaStream_t s, char *msg) ;
// the same for n column indices, int64 on the host, int32 on the device
GrB_Info gxd_stage_upload_cols (int32_t *dst, const int64_t *src, size_t n,
    cudaStream_t s, char *msg) ;

#endif
