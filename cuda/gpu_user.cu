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
//    f(x,e) - f(e,y) + f(e,e), with n0 the rows' sums of f(x,e) - f(e,e).
//    One block per (row i of A, tile of rows of B) walks row i's columns
//    and, for each, B's column within the tile (B by columns), adding g
//    into a shared accumulator per row of B; a barrier separates columns,
//    so the sum for (i,j) is taken in row i's column order, the same bits
//    every run.  Work: the intermediate products of A*B', as the built-in
//    intersection kernel.  A pair whose raw sum is under tau times its
//    scale (cancellation: gxd_needs_exact's rule) is recomputed over the
//    union by the thread that owns it.
//  - gxd_user_select, for (+) = MAX or MIN: the split of
//    gpu_split_select.cuh, the walk k_chebyshev (gpu_chebyshev.cu) takes
//    too, included from memory (gpu_nvrtc.cu).  Its keys are f(x,e) for a's
//    columns and f(e,y) for b's (gxd_user_keys, then a sort per row in
//    (+)'s order), and f(e,e) joins where the rows' union misses a column.
//    Max and min are exact and order free: the bits of the merge below.
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
#include "gpu_tuning.h"

// threads per block of the pair kernel, and blocks at most (grid-stride)
#define GXD_USER_THREADS 256
#define GXD_USER_MAX_BLOCKS (1 << 20)
// rows of B per block of the rewrite kernel: a shared accumulator of 4,096
// doubles (32 KiB, under the 48 KiB a launch gets without asking) lets
// several blocks share an SM; the block is GXD_USER_THREADS threads
#define GXD_USER_TN 4096
// rows of B per block of the select kernel: its best term, the count of
// row i's leading columns and the intersection's size per row (16 bytes),
// and row i's columns as a bit set up to GXD_USER_BITS columns, within the
// same 48 KiB
#define GXD_USER_SEL_TN 2048
#define GXD_USER_BITS 65536

//------------------------------------------------------------------------------
// the kernels' source
//------------------------------------------------------------------------------

// @KERNELS@ which kernels besides gxd_user_pairs (user_kernels: fewer to
// compile, a shorter first call), @T@ the values' type, @DEFNS@ the user's
// definitions, @MULT@ and @ADD@
// the bodies of gxd_f and gxd_a, @ID@ where (+)'s fold starts, @EMPTY@
// the monoid's identity (a pair of no column), @NANKEY@ a NaN key, @FOLD@
// the columns missing from both rows (c of them, c > 0) folded into s
static const char *kernel_template = R"(
@KERNELS@
typedef signed char int8_t ;            typedef unsigned char uint8_t ;
typedef short int16_t ;                 typedef unsigned short uint16_t ;
typedef int int32_t ;                   typedef unsigned int uint32_t ;
typedef long long int64_t ;             typedef unsigned long long uint64_t ;
typedef @T@ gxd_T ;
// before the user's text, so that no macro of theirs can change it
#ifdef GXD_USER_SELECT
#include "gpu_split_select.cuh"
#endif
// <math.h>'s constants, which NVRTC has no header for
#ifndef NAN
#define NAN __int_as_float (0x7FC00000)
#endif
#ifndef INFINITY
#define INFINITY __int_as_float (0x7F800000)
#endif
#ifndef HUGE_VAL
#define HUGE_VAL __longlong_as_double (0x7FF0000000000000LL)
#endif
@DEFNS@
__device__ __forceinline__ double gxd_f (double x, double y) { @MULT@ }
__device__ __forceinline__ double gxd_a (double s, double t) { @ADD@ }

// the pair (i,j) over the union of its rows' columns
__device__ double gxd_union (const long long *Ap, const int *Aj,
    const gxd_T *Ax, const long long *Bp, const int *Bj, const gxd_T *Bx,
    long long i, long long j, long long k, double e, double fee)
{
    long long p = Ap [i], pend = Ap [i+1], r = Bp [j], rend = Bp [j+1] ;
    double s = @ID@ ;
    long long nu = 0 ;
    while (p < pend || r < rend)
    {
        int ca = (p < pend) ? Aj [p] : 0x7fffffff ;
        int cb = (r < rend) ? Bj [r] : 0x7fffffff ;
        double x = (ca <= cb) ? (double) Ax [p] : e ;
        double y = (cb <= ca) ? (double) Bx [r] : e ;
        s = gxd_a (s, gxd_f (x, y)) ;
        nu++ ;
        p += (ca <= cb) ;
        r += (cb <= ca) ;
    }
    long long c = k - nu ;
    if (c > 0) { @FOLD@ }
    // no column, no term: the monoid's own identity
    return (k == 0) ? @EMPTY@ : s ;
}

// npairs pairs: every (i0 + q / n, q % n) when Prow is 0, else the mask's
// (Prow [q], Pj [q]); C [q] each
extern "C" __global__ void gxd_user_pairs (const long long *Ap,
    const int *Aj, const gxd_T *Ax, const long long *Bp, const int *Bj,
    const gxd_T *Bx, const int *Prow, const int *Pj, long long i0,
    long long n, long long npairs, long long k, double e, double fee,
    gxd_T *C)
{
    for (long long q = blockIdx.x * (long long) blockDim.x + threadIdx.x ;
         q < npairs ; q += (long long) gridDim.x * blockDim.x)
    {
        long long i, j ;
        if (Prow == 0) { i = q / n ; j = q - i * n ; i += i0 ; }
        else { i = Prow [q] ; j = Pj [q] ; }
        C [q] = (gxd_T) gxd_union (Ap, Aj, Ax, Bp, Bj, Bx, i, j, k, e, fee) ;
    }
}

#ifdef GXD_USER_SELECT
// (+) = MAX or MIN: f(x,e) (left) or f(e,x) of every value, NaN with the
// sign that sorts it last (which (+) skips, as fmax and fmin do): the keys
// of the sort
extern "C" __global__ void gxd_user_keys (const gxd_T *x, long long nnz,
    int left, double e, double *key)
{
    for (long long q = blockIdx.x * (long long) blockDim.x + threadIdx.x ;
         q < nnz ; q += (long long) gridDim.x * blockDim.x)
    {
        const double v = left ? gxd_f ((double) x [q], e) : gxd_f (e, (double) x [q]) ;
        key [q] = (v == v) ? v : @NANKEY@ ;
    }
}

// (+) = MAX or MIN for gxd_split_select: the terms f(x,y) under (+) from
// NaN, the sorted rows' keys f(x,e) and f(e,y) (gxd_user_keys),
// and f(e,e) where the rows' union misses a column
struct gxd_user_op
{
    const double *Ak, *Bk ;
    double fee ;
    static constexpr bool counts = true ;
    __device__ double id () const { return @ID@ ; }
    __device__ double term (double x, double y) const { return gxd_f (x, y) ; }
    __device__ double add (double s, double t) const { return gxd_a (s, t) ; }
    __device__ double a_key (long long p) const { return Ak [p] ; }
    __device__ double b_key (long long p) const { return Bk [p] ; }
} ;

// row i0 + blockIdx.x of A (its entries in key order: columns Asj, values
// Asx, keys Ak) against rows [j0, j0 + w) of B (by columns: colptr / rows /
// vals; its entries in key order: Bsj, Bk); Aj row i's columns in order,
// their bit set in shared memory if use_bits; C's row blockIdx.x (n wide)
// from column j0
extern "C" __global__ void gxd_user_select (const long long *Ap,
    const int *Aj, const int *Asj, const gxd_T *Asx, const double *Ak,
    const long long *Bp, const int *Bsj, const double *Bk,
    const long long *colptr, const int *rows, const gxd_T *vals,
    long long i0, long long j0, long long w, long long n, long long k,
    int use_bits, double fee, gxd_T *C)
{
    // gxd_user_tile's layout: the best term, h, the common columns' count
    // and a's bit set
    extern __shared__ double acc [] ;
    int *h = (int *) (acc + w) ;
    int *cnt = h + w ;
    unsigned *bits = (unsigned *) (cnt + w) ;
    gxd_split_select (gxd_user_op { Ak, Bk, fee }, Ap, Aj, Asj, Asx, Bp, Bsj,
        colptr, rows, vals, i0, j0, w, n, k, use_bits != 0, acc, h, cnt, bits,
        C) ;
}
#endif

#ifdef GXD_USER_REWRITE
// (+) = PLUS: row i0 + blockIdx.x of A against rows [j0, j0 + w) of B,
// whose columns are colptr / rows (local to the tile) / vals; na, nb the
// rows' n0; C's row blockIdx.x (n wide) from column j0
extern "C" __global__ void gxd_user_rewrite (const long long *Ap,
    const int *Aj, const gxd_T *Ax, const long long *Bp, const int *Bj,
    const gxd_T *Bx, const long long *colptr, const int *rows,
    const gxd_T *vals, const double *na, const double *nb, long long i0,
    long long j0, long long w, long long n, long long k, double e,
    double fee, double tau, gxd_T *C)
{
    extern __shared__ double acc [] ;
    const long long i = i0 + blockIdx.x ;
    const int tid = threadIdx.x, nt = blockDim.x ;
    for (long long jj = tid ; jj < w ; jj += nt) acc [jj] = 0 ;
    __syncthreads () ;
    for (long long p = Ap [i] ; p < Ap [i+1] ; p++)
    {
        const int c = Aj [p] ;
        const double x = (double) Ax [p] ;
        const double fx = gxd_f (x, e) ;
        for (long long q = colptr [c] + tid ; q < colptr [c+1] ; q += nt)
        {
            const double y = (double) vals [q] ;
            acc [rows [q]] += gxd_f (x, y) - fx - gxd_f (e, y) + fee ;
        }
        __syncthreads () ;
    }
    const double kf = (double) k * fee, sa = na [i] ;
    gxd_T *crow = C + (long long) blockIdx.x * n + j0 ;
    for (long long jj = tid ; jj < w ; jj += nt)
    {
        const double sb = nb [j0 + jj] ;
        double raw = kf + sa + sb + acc [jj] ;
        const double scale = fabs (kf) + fabs (sa) + fabs (sb) ;
        if (!(fabs (raw) >= tau * scale) || !(fabs (raw) + scale <= 1.7976931348623157e308))
        {
            raw = gxd_union (Ap, Aj, Ax, Bp, Bj, Bx, i, j0 + jj, k, e, fee) ;
        }
        crow [jj] = (gxd_T) raw ;
    }
}
#endif
)" ;

static void replace_all (std::string &s, const std::string &from,
    const std::string &to)
{
    for (size_t at = s.find (from) ; at != std::string::npos ;
         at = s.find (from, at + to.size ()))
    {
        s.replace (at, from.size (), to) ;
    }
}

// a built-in operator (gxd_binop's opcodes) as an expression in x and y
static const char *builtin_expr (gxd_opcode op)
{
    switch (op)
    {
        case GXD_OP_FIRST:  return "x" ;
        case GXD_OP_SECOND: return "y" ;
        case GXD_OP_PAIR:   return "1.0" ;
        case GXD_OP_PLUS:   return "x + y" ;
        case GXD_OP_MINUS:  return "x - y" ;
        case GXD_OP_RMINUS: return "y - x" ;
        case GXD_OP_TIMES:  return "x * y" ;
        case GXD_OP_DIV:    return "x / y" ;
        case GXD_OP_RDIV:   return "y / x" ;
        case GXD_OP_MIN:    return "fmin (x, y)" ;
        case GXD_OP_MAX:    return "fmax (x, y)" ;
        case GXD_OP_ISEQ:   return "(double) (x == y)" ;
        case GXD_OP_ISNE:   return "(double) (x != y)" ;
        case GXD_OP_ISGT:   return "(double) (x > y)" ;
        case GXD_OP_ISLT:   return "(double) (x < y)" ;
        case GXD_OP_ISGE:   return "(double) (x >= y)" ;
        case GXD_OP_ISLE:   return "(double) (x <= y)" ;
        case GXD_OP_POW:    return "pow (x, y)" ;
        case GXD_OP_HYPOT:  return "hypot (x, y)" ;
        default:            return NULL ;
    }
}

// the body of a function of (a, b) calling the user's operator NAME
static std::string user_call (const char *name, const char *a, const char *b)
{
    return std::string ("gxd_T z ; gxd_T u = (gxd_T) ") + a + " , v = (gxd_T) "
        + b + " ; " + name + " (&z, &u, &v) ; return ((double) z) ;" ;
}

// the kernels a plan takes besides gxd_user_pairs (gxd_user_prepare)
static bool user_select_ok (const gxd_plan *P)
{
    return !P->exact && (P->add == GXD_OP_MAX || P->add == GXD_OP_MIN) ;
}
static bool user_rewrite_ok (const gxd_plan *P)
{
    return !P->exact && !user_select_ok (P) && gxd_generic_rewrite_ok (P) ;
}

// x as a CUDA C++ expression of type double, bit for bit
static std::string double_literal (double x)
{
    if (isinf (x)) return (x > 0) ? "(1.0/0.0)" : "(-1.0/0.0)" ;
    if (isnan (x)) return "__longlong_as_double (0x7FF8000000000000LL)" ;
    char text [64] ;
    snprintf (text, sizeof (text), "%.17g", x) ;
    return text ;
}

static bool kernel_source (std::string &src, const gxd_plan *P)
{
    std::string defns, mult, add, id, fold ;
    if (P->mult == GXD_OP_USER)
    {
        defns += std::string (P->mult_src.defn) + "\n" ;
        mult = user_call (P->mult_src.name, "x", "y") ;
    }
    else
    {
        const char *expr = builtin_expr (P->mult) ;
        if (expr == NULL) return false ;
        mult = std::string ("return (") + expr + ") ;" ;
    }
    // NaN starts MIN and MAX: fmin and fmax skip it, so a pair whose terms
    // are all NaN stays NaN, as GraphBLAS gives it; the keys' NaN sorts
    // after every other value in (+)'s order (CUB's radix order puts -NaN
    // below -inf, +NaN above +inf), so a row's NaN terms come last
    const char *nan_id = "__longlong_as_double (0x7FF8000000000000LL)" ;
    const char *nan_key = "0.0" ;
    switch (P->add)
    {
        case GXD_OP_PLUS:
            add = "return s + t ;" ; id = "0.0" ;
            fold = "s = s + (double) c * fee ;" ;
            break ;
        case GXD_OP_TIMES:
            add = "return s * t ;" ; id = "1.0" ;
            fold = "s = s * pow (fee, (double) c) ;" ;
            break ;
        // of +0 and -0 MIN gives -0 and MAX +0 in any order (the CPU's
        // keys do the same; fmin and fmax may give either): equal values
        // have the same bits but for a zero's sign, which OR (AND) keeps
        case GXD_OP_MIN:
            add = "return (s == t) ? __longlong_as_double (__double_as_longlong (s)"
                " | __double_as_longlong (t)) : fmin (s, t) ;" ; id = nan_id ;
            nan_key = "__longlong_as_double (0x7FF8000000000000LL)" ;
            fold = "s = gxd_a (s, fee) ;" ;
            break ;
        case GXD_OP_MAX:
            add = "return (s == t) ? __longlong_as_double (__double_as_longlong (s)"
                " & __double_as_longlong (t)) : fmax (s, t) ;" ; id = nan_id ;
            nan_key = "__longlong_as_double ((long long) 0xFFF8000000000000ULL)" ;
            fold = "s = gxd_a (s, fee) ;" ;
            break ;
        case GXD_OP_USER:
            if (strcmp (P->add_src.name, P->mult_src.name != NULL ?
                P->mult_src.name : "") != 0)
            {
                defns += std::string (P->add_src.defn) + "\n" ;
            }
            add = user_call (P->add_src.name, "s", "t") ;
            id = double_literal (P->add_identity) ;
            // c copies of fee, by repeated squaring (as gxd_add_repeat)
            fold = "double t = fee ; while (c > 0) { if (c & 1) s = gxd_a "
                "(s, t) ; c >>= 1 ; if (c > 0) t = gxd_a (t, t) ; }" ;
            break ;
        default:
            return false ;
    }
    src = kernel_template ;
    replace_all (src, "@KERNELS@", user_select_ok (P) ? "#define GXD_USER_SELECT"
        : user_rewrite_ok (P) ? "#define GXD_USER_REWRITE" : "") ;
    replace_all (src, "@T@", P->fp64 ? "double" : "float") ;
    replace_all (src, "@MULT@", mult) ;
    replace_all (src, "@ADD@", add) ;
    replace_all (src, "@ID@", id) ;
    replace_all (src, "@NANKEY@", nan_key) ;
    replace_all (src, "@EMPTY@", double_literal (P->add_identity)) ;
    replace_all (src, "@FOLD@", fold) ;
    // the user's text last: it may hold anything, "@" included
    replace_all (src, "@DEFNS@", defns) ;
    return true ;
}

//------------------------------------------------------------------------------
// all pairs: the GXD_STRAT_USER strategy of GXD_gpu_dense
//------------------------------------------------------------------------------

// n0 of every row of H (left: rows of A): the sum of f(x,e) - f(e,e) over
// its entries, in its column order, as the CPU's rows have it
static GrB_Info row_sums (const gxd_plan *P, const gxd_csr *H, bool left,
    double **d, cudaStream_t s, char *msg)
{
    GrB_Info info = GrB_SUCCESS ;
    const int64_t m = H->nrows ;
    double *h = (double *) malloc ((m > 0 ? m : 1) * sizeof (double)) ;
    if (h == NULL) return gxd_fail (GrB_OUT_OF_MEMORY, msg, "out of host memory") ;
    for (int64_t i = 0 ; i < m ; i++)
    {
        double t = 0 ;
        for (int64_t p = H->p [i] ; p < H->p [i+1] ; p++)
        {
            double x = P->fp64 ? ((const double *) H->x) [p]
                : (double) ((const float *) H->x) [p] ;
            t += gxd_norm_term (GXD_GENERIC, P, x, left) ;
        }
        h [i] = t ;
    }
    GXD_CUDA_TRY (cudaMalloc (d, (m > 0 ? m : 1) * sizeof (double))) ;
    GXD_CUDA_TRY (cudaMemcpyAsync (*d, h, m * sizeof (double),
        cudaMemcpyHostToDevice, s)) ;
    GXD_CUDA_TRY (cudaStreamSynchronize (s)) ;
cleanup:
    free (h) ;
    return info ;
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
    long long nb = (npairs + GXD_USER_THREADS - 1) / GXD_USER_THREADS ;
    if (nb > GXD_USER_MAX_BLOCKS) nb = GXD_USER_MAX_BLOCKS ;
    return gxd_nvrtc_launch (fn, (unsigned) nb, 1, GXD_USER_THREADS, 0, s,
        args, msg) ;
}

// one side of gxd_user_select: D's entries in (+)'s order of f(x,e)
// (left) or f(e,y) into sj, sx (if not NULL) and their keys sk
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
        long long nb = (nnz + GXD_USER_THREADS - 1) / GXD_USER_THREADS ;
        if (nb > GXD_USER_MAX_BLOCKS) nb = GXD_USER_MAX_BLOCKS ;
        GXD_GPU_TRY (gxd_nvrtc_launch (G->user.keys, (unsigned) nb, 1,
            GXD_USER_THREADS, 0, s, args, msg)) ;
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
    std::string src ;
    if (!kernel_source (src, P))
    {
        return gxd_fail (GrB_INVALID_VALUE, msg, "no GPU code for this plan") ;
    }
    GXD_GPU_TRY (gxd_nvrtc_function (&U->pairs, src, "gxd_user_pairs", msg)) ;
    U->fee = gxd_mult (P, P->identity, P->identity) ;
    U->tau = P->fp64 ? GXD_TAU_FP64 : GXD_TAU_FP32 ;
    if (user_select_ok (P) && G->A.nnz < INT32_MAX && G->B.nnz < INT32_MAX)
    {
        GXD_GPU_TRY (gxd_nvrtc_function (&U->select, src, "gxd_user_select", msg)) ;
        GXD_GPU_TRY (gxd_nvrtc_function (&U->keys, src, "gxd_user_keys", msg)) ;
        GXD_GPU_TRY (sort_side (G, &G->A, 1, &U->Asj, &U->Asx, &U->Ak, s, msg)) ;
        GXD_GPU_TRY (sort_side (G, &G->B, 0, &U->Bsj, NULL, &U->Bk, s, msg)) ;
        G->tn = (n < GXD_USER_SEL_TN) ? (n > 0 ? n : 1) : GXD_USER_SEL_TN ;
    }
    else if (!user_rewrite_ok (P)) return GrB_SUCCESS ;
    else
    {
        GXD_GPU_TRY (gxd_nvrtc_function (&U->rewrite, src, "gxd_user_rewrite", msg)) ;
        GXD_GPU_TRY (row_sums (P, A, true, &U->na, s, msg)) ;
        GXD_GPU_TRY (row_sums (P, B, false, &U->nb, s, msg)) ;
        G->tn = (n < GXD_USER_TN) ? (n > 0 ? n : 1) : GXD_USER_TN ;
    }
    G->ntiles = (n + G->tn - 1) / G->tn ;
    if (G->ntiles < 1) G->ntiles = 1 ;
    G->csc = (gxd_dcsc *) calloc (G->ntiles, sizeof (gxd_dcsc)) ;
    if (G->csc == NULL) return gxd_fail (GrB_OUT_OF_MEMORY, msg, "out of host memory") ;
    GXD_GPU_TRY (gxd_build_csc_tiles (&G->B, P->fp64, G->tn, G->ntiles, G->csc,
        &G->csc_pool, s, msg)) ;
cleanup:
    return info ;
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
                int use_bits = (k <= GXD_USER_BITS) ;
                const unsigned smem = (unsigned) (w * (sizeof (double) + 2 * sizeof (int))
                    + (use_bits ? (k + 31) / 32 * sizeof (unsigned) : 0)) ;
                void *args [ ] = { &G->A.p, &G->A.j, &U->Asj, &U->Asx, &U->Ak,
                    &G->B.p, &U->Bsj, &U->Bk, &G->csc [t].colptr, &G->csc [t].rows,
                    &G->csc [t].vals, &first, &j0, &w, &n, &k, &use_bits, &U->fee,
                    &C } ;
                GXD_GPU_TRY (gxd_nvrtc_launch (U->select, (unsigned) nr, 1,
                    GXD_USER_THREADS, smem, s, args, msg)) ;
                continue ;
            }
            void *args [ ] = { &G->A.p, &G->A.j, &G->A.x, &G->B.p, &G->B.j,
                &G->B.x, &G->csc [t].colptr, &G->csc [t].rows, &G->csc [t].vals,
                &U->na, &U->nb, &first, &j0, &w, &n, &k, &e, &U->fee, &U->tau,
                &C } ;
            GXD_GPU_TRY (gxd_nvrtc_launch (U->rewrite, (unsigned) nr, 1,
                GXD_USER_THREADS, (unsigned) (w * sizeof (double)), s, args,
                msg)) ;
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
    std::string src ;
    double e = P->identity, fee ;
    const int32_t *Prow = NULL, *Pj = NULL ;
    memset (&dA, 0, sizeof (dA)) ; memset (&dB, 0, sizeof (dB)) ;
    memset (&dM, 0, sizeof (dM)) ;
    if (!kernel_source (src, P))
    {
        return gxd_fail (GrB_INVALID_VALUE, msg, "no GPU code for this plan") ;
    }
    info = gxd_nvrtc_function (&fn, src, "gxd_user_pairs", msg) ;
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
