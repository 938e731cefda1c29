// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// cuda/gpu_klist.cuh: a block's list of candidates, cut to its k best
//------------------------------------------------------------------------------

// The kNN selections that filter keep the candidates that pass a bound in
// a list in shared memory and cut it to its k best when it nears its room:
// k_topk over a tile of distances (gpu_knn.cu, compiled by nvcc) and
// gxd_user_rewrite_knn inside a user's compiled rewrite (the NVRTC source
// of gpu_user.cu).  The order is O's: O::before (v, j, w, l) on a value and
// its column, a total order, and O::pad_v (), O::pad_j () an entry after
// every real one.  A bound (bv, bj) where bok: a candidate passes when it
// does not come after it.
//
// Cutting by sorting the whole list cost a few times a row's own loads in
// shared memory traffic; instead, while more than a block's threads (NT)
// are listed, the first NT are sorted and every entry past their k-th is
// dropped, which leaves k of those and shortens the list by at least
// NT - k each time; at most NT left are sorted whole.
//
// NVRTC reads this file's text from memory (gpu_nvrtc.cu; CMakeLists.txt
// makes the string), with no include path: so it includes nothing and names
// only what both compilers know.

#ifndef GXD_GPU_KLIST_CUH
#define GXD_GPU_KLIST_CUH

// gxd_klist_cut is inlined unless its includer asks for one copy, called
// (it runs once a block at most, outside the products)
#ifdef GXD_KLIST_CUT_OUTLINED
#define GXD_KLIST_CUT_INLINE __noinline__
#else
#define GXD_KLIST_CUT_INLINE
#endif

// all threads: lv / lj [0, len) sorted by O (len a power of 2, bitonic);
// ends with a barrier
template <class O, typename V, typename J>
__device__ void gxd_klist_sort (V *lv, J *lj, int len)
{
    for (int size = 2 ; size <= len ; size <<= 1)
    {
        for (int stride = size / 2 ; stride > 0 ; stride >>= 1)
        {
            for (int t = threadIdx.x ; t < len / 2 ; t += blockDim.x)
            {
                const int lo = 2 * t - (t & (stride - 1)), hi = lo + stride ;
                if (O::before (lv [hi], lj [hi], lv [lo], lj [lo]) == ((lo & size) == 0))
                {
                    const V v = lv [lo] ; lv [lo] = lv [hi] ; lv [hi] = v ;
                    const J j = lj [lo] ; lj [lo] = lj [hi] ; lj [hi] = j ;
                }
            }
            __syncthreads () ;
        }
    }
}

// all threads: the bound (bv, bj, bok) from a sample of NT candidates, get
// (t, v, j) setting the t-th (distinct ones; left as the pad where there is
// none): their k-th best, where there are k.  Uses lv / lj [0, NT); ends
// with a barrier.
template <class O, int NT, typename V, typename J, typename Get>
__device__ void gxd_klist_sample (V *lv, J *lj, Get get, int k, V &bv,
    J &bj, int &bok)
{
    const int tid = threadIdx.x ;
    V v = O::pad_v () ;
    J j = O::pad_j () ;
    get (tid, v, j) ;
    lv [tid] = v ; lj [tid] = j ;
    __syncthreads () ;
    gxd_klist_sort<O> (lv, lj, NT) ;
    if (tid == 0)
    {
        bok = (lj [k-1] != O::pad_j ()) ;
        if (bok) { bv = lv [k-1] ; bj = lj [k-1] ; }
    }
    __syncthreads () ;
}

// lists of at most this many entries are sorted by rank (gxd_klist_cut)
#define GXD_KLIST_RANKED 64

// all threads, after a barrier: the list (cnt entries, at most CAP, a
// block of NT threads) cut to its k best, sorted, and the bound tightened
// to the k-th; ends with a barrier
template <class O, int CAP, int NT, typename V, typename J>
__device__ GXD_KLIST_CUT_INLINE void gxd_klist_cut (V *lv, J *lj, int &cnt, V &bv, J &bj,
    int &bok, int k)
{
    constexpr int PER = CAP / NT ;
    const int tid = threadIdx.x ;
    int listed = cnt ;
    while (listed > NT)
    {
        gxd_klist_sort<O> (lv, lj, NT) ;
        const V b = lv [k-1] ;
        const J c = lj [k-1] ;
        V rv [PER] ;
        J rj [PER] ;
        #pragma unroll
        for (int u = 0 ; u < PER ; u++)
        {
            const int q = tid + u * NT ;
            rv [u] = (q < listed) ? lv [q] : O::pad_v () ;
            rj [u] = (q < listed) ? lj [q] : O::pad_j () ;
        }
        __syncthreads () ;
        if (tid == 0) cnt = 0 ;
        __syncthreads () ;
        #pragma unroll
        for (int u = 0 ; u < PER ; u++)
        {
            if (tid + u * NT < listed && !O::before (b, c, rv [u], rj [u]))
            {
                const int q = atomicAdd (&cnt, 1) ;
                lv [q] = rv [u] ; lj [q] = rj [u] ;
            }
        }
        __syncthreads () ;
        listed = cnt ;
    }
    if (listed <= GXD_KLIST_RANKED)
    {
        // a short list: each entry's rank among them (entries are distinct
        // in O's order), two barriers instead of the sort's log^2
        V v = O::pad_v () ;
        J j = O::pad_j () ;
        int rank = 0 ;
        if (tid < listed)
        {
            v = lv [tid] ; j = lj [tid] ;
            for (int f = 0 ; f < listed ; f++) rank += O::before (lv [f], lj [f], v, j) ;
        }
        __syncthreads () ;
        if (tid < listed) { lv [rank] = v ; lj [rank] = j ; }
        __syncthreads () ;
    }
    else
    {
        int len = 2 ;
        while (len < listed) len *= 2 ;
        for (int q = listed + tid ; q < len ; q += NT)
        {
            lv [q] = O::pad_v () ; lj [q] = O::pad_j () ;
        }
        __syncthreads () ;
        gxd_klist_sort<O> (lv, lj, len) ;
    }
    if (tid == 0)
    {
        cnt = (listed < k) ? listed : k ;
        if (listed >= k) { bv = lv [k-1] ; bj = lj [k-1] ; bok = 1 ; }
    }
    __syncthreads () ;
}

// a thread's candidate (v, j) listed if it passes the bound (b, c; have):
// returns its slot, else top (the last slot the thread took, -1: none)
template <class O, typename V, typename J>
__device__ __forceinline__ int gxd_klist_offer (V *lv, J *lj, int &cnt,
    int have, V b, J c, V v, J j, int top)
{
    if (have && O::before (b, c, v, j)) return top ;
    const int q = atomicAdd (&cnt, 1) ;
    lv [q] = v ; lj [q] = j ;
    return q ;
}

// all threads, at the end of a round of at most ROUND offers: a barrier
// (__syncthreads_or: whether some thread took a slot past CAP - ROUND),
// then the cut where the list nears its room or where last
template <class O, int CAP, int NT, int ROUND, typename V, typename J>
__device__ __forceinline__ void gxd_klist_round_end (V *lv, J *lj, int &cnt,
    V &bv, J &bj, int &bok, int k, int top, bool last)
{
    if (__syncthreads_or (top >= CAP - ROUND) || last)
    {
        gxd_klist_cut<O, CAP, NT> (lv, lj, cnt, bv, bj, bok, k) ;
    }
}

#endif
