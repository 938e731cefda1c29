// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// cuda/gpu_split_select.cuh: a (+) = MAX or MIN reduction split in three
//------------------------------------------------------------------------------

// Max and min are selective, so a pair's reduction over the union of its
// rows' columns splits exactly:
//   d(a,b) = (+)( (+)_{c in a^b} f(a_c, b_c),  (+)_{c in a\b} f(a_c, e),
//                 (+)_{c in b\a} f(e, b_c),    f(e,e) if a column is in neither )
// For the second, row a's columns are walked in (+)'s order of their keys
// f(x,e) (a per-row sorted copy of A): h[j] counts the leading columns that
// b_j also has, and the a-only term is the key of the h[j]-th.  For the
// third, b_j's columns in the order of f(e,y) (a sorted copy of B) are
// tested against a's columns (a bit set in shared memory where use_bits:
// both callers set it up to 65,536 columns; else a binary search) until
// one is missing (usually the first) or its key can no longer change the
// pair's value.
// Work: the intermediate products plus O(1) per pair, instead of a merge
// of both rows per pair.  Max and min are exact and order free: the same
// bits every run.
//
// k_chebyshev (gpu_chebyshev.cu, compiled by nvcc) takes it, and so do a
// user's operator's kernels (the NVRTC source of gpu_user.cu):
// gxd_user_select, and gxd_user_select_knn, which keeps each row's k
// nearest of gxd_split_final's pairs instead of writing them
// (gxd_user_select_knn_nc takes only gxd_split_b_only).
// NVRTC reads this file's text from memory (gpu_nvrtc.cu; CMakeLists.txt
// makes the string), with no include path: so it includes nothing and names
// only what both compilers know (int, long long, unsigned, CUDA's
// built-ins).

#ifndef GXD_GPU_SPLIT_SELECT_CUH
#define GXD_GPU_SPLIT_SELECT_CUH

// One block: row i0 + blockIdx.x of A against rows [j0, j0 + w) of B.  A
// by rows is Ap/Aj (columns in order) and Asj/Asx (each row's entries in
// key order); B's rows in key order are Bp/Bsj; the tile of B by columns is
// colptr/rows (local to the tile)/vals.  acc [w], h [w], cnt [w] (where
// Op::counts) and bits [(k+31)/32] (where use_bits) are the caller's shared
// memory, laid out as its launch sized it.  What the kernels differ in is
// op:
//   id ()        the accumulator's start
//   term (x, y)  the term of a column both rows have
//   add (s, t)   (+)
//   a_key (p)    the a-only term of A's sorted entry p; b_key (p) of B's
//   b_key0 (j, p), b_col0 (j, p, Bsj)  the key and column of row j's first
//                sorted entry p (where op keeps them by row: pairs of
//                consecutive rows then load them together)
//   counts       whether f(e,e) joins where the rows' union misses one of
//                the k columns (then cnt counts the common columns), with
//   fee          f(e,e)
// gxd_split_products sums the common columns' terms into acc (and h, cnt),
// ending with a barrier; gxd_split_final then gives the pair of slot jj
// (row j0 + jj of B), whose b-only term is gxd_split_b_only's;
// gxd_split_select writes every pair into C's row blockIdx.x (n wide) from
// column j0.

// all threads: the block's common columns' terms
template <typename Op, typename T, typename I>
__device__ __forceinline__ void gxd_split_products (const Op &op,
    const I *Ap, const int *Aj, const int *Asj, const T *Asx,
    const I *colptr, const int *__restrict__ rows,
    const T *__restrict__ vals, long long i0, long long w, long long k,
    bool use_bits, double *acc, int *h, int *cnt, unsigned *bits)
{
    const long long i = i0 + blockIdx.x ;
    const int tid = threadIdx.x, nt = blockDim.x ;
    const long long alo = Ap [i], ahi = Ap [i+1], deg = ahi - alo ;

    for (long long jj = tid ; jj < w ; jj += nt)
    {
        acc [jj] = op.id () ; h [jj] = 0 ;
        if constexpr (Op::counts) cnt [jj] = 0 ;
    }
    if (use_bits)
    {
        for (long long q = tid ; q < (k + 31) / 32 ; q += nt) bits [q] = 0 ;
        __syncthreads () ;
        for (long long q = alo + tid ; q < ahi ; q += nt)
        {
            const int c = Aj [q] ;
            atomicOr (&bits [c >> 5], 1u << (c & 31)) ;
        }
    }
    __syncthreads () ;

    // a's columns in key order: the common columns' terms and the prefix
    // count (a barrier per column keeps h exact)
    for (long long t = 0 ; t < deg ; t++)
    {
        const int c = Asj [alo + t] ;
        const long long lo = colptr [c], hi = colptr [c+1] ;
        if (lo == hi) continue ;            // uniform over the block
        const double x = (double) Asx [alo + t] ;
        for (long long q = lo + tid ; q < hi ; q += nt)
        {
            const int jj = __ldg (rows + q) ;
            acc [jj] = op.add (acc [jj], op.term (x, (double) __ldg (vals + q))) ;
            if constexpr (Op::counts) cnt [jj]++ ;
            if (h [jj] == t) h [jj] = (int) (t + 1) ;
        }
        __syncthreads () ;
    }
}

// s (+) the b-only term of the pair (i, j): the first of b_j's columns in
// key order that row i (its bit set, or a search of Aj) lacks.  The keys
// come in (+)'s order, so once one leaves s as it is (bit for bit: a zero
// of the other sign would change it), no later one can change it, and the
// walk stops there
template <typename Op, typename I>
__device__ __forceinline__ double gxd_split_b_only (const Op &op,
    const I *Ap, const int *Aj, const I *Bp, const int *Bsj, long long i,
    long long j, bool use_bits, const unsigned *bits, double s)
{
    const long long alo = Ap [i], ahi = Ap [i+1] ;
    const long long blo = Bp [j], bhi = Bp [j+1] ;
    for (long long p = blo ; p < bhi ; p++)
    {
        const double kp = (p == blo) ? op.b_key0 (j, p) : op.b_key (p) ;
        if (__double_as_longlong (op.add (s, kp)) == __double_as_longlong (s)) break ;
        const int c = (p == blo) ? op.b_col0 (j, p, Bsj) : Bsj [p] ;
        bool in_a ;
        if (use_bits) in_a = (bits [c >> 5] >> (c & 31)) & 1 ;
        else
        {
            long long lo = alo, hi = ahi ;
            while (lo < hi)
            {
                const long long mid = (lo + hi) / 2 ;
                if (Aj [mid] < c) lo = mid + 1 ; else hi = mid ;
            }
            in_a = (lo < ahi && Aj [lo] == c) ;
        }
        if (!in_a) return op.add (s, kp) ;
    }
    return s ;
}

// one thread: the pair of slot jj (row j = j0 + jj of B), after
// gxd_split_products
template <typename Op, typename I>
__device__ __forceinline__ double gxd_split_final (const Op &op,
    const I *Ap, const int *Aj, const I *Bp, const int *Bsj, long long i0,
    long long j, long long jj, long long k, bool use_bits, const double *acc,
    const int *h, const int *cnt, const unsigned *bits)
{
    const long long i = i0 + blockIdx.x ;
    const long long deg = Ap [i+1] - Ap [i] ;
    double s = acc [jj] ;
    // a-only: the first of a's columns in key order that b_j lacks
    if (h [jj] < deg) s = op.add (s, op.a_key (Ap [i] + h [jj])) ;
    s = gxd_split_b_only (op, Ap, Aj, Bp, Bsj, i, j, use_bits, bits, s) ;
    if constexpr (Op::counts)
    {
        if (deg + (Bp [j+1] - Bp [j]) - cnt [jj] < k) s = op.add (s, op.fee) ;
    }
    return s ;
}

template <typename Op, typename T, typename I>
__device__ __forceinline__ void gxd_split_select (const Op &op,
    const I *Ap, const int *Aj, const int *Asj, const T *Asx, const I *Bp,
    const int *Bsj, const I *colptr, const int *__restrict__ rows,
    const T *__restrict__ vals, long long i0, long long j0, long long w,
    long long n, long long k, bool use_bits, double *acc, int *h, int *cnt,
    unsigned *bits, T *C)
{
    gxd_split_products (op, Ap, Aj, Asj, Asx, colptr, rows, vals, i0, w, k,
        use_bits, acc, h, cnt, bits) ;
    T *crow = C + (long long) blockIdx.x * n + j0 ;
    for (long long jj = threadIdx.x ; jj < w ; jj += blockDim.x)
    {
        crow [jj] = (T) gxd_split_final (op, Ap, Aj, Bp, Bsj, i0, j0 + jj,
            jj, k, use_bits, acc, h, cnt, bits) ;
    }
}

#endif
