// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// cuda/gpu_staging.cu: device results into pageable host memory at link rate
//------------------------------------------------------------------------------

// A cudaMemcpy from the device straight into pageable memory (a GrB_Matrix's
// array) runs at a quarter of the link's pinned rate: the driver stages it
// through small pinned buffers of its own, one at a time.  Pinning C in place
// (cudaHostRegister) costs more than the copy it speeds up, and
// cudaMallocHost pins at a few GB/s.  So the writer keeps a few pinned
// staging buffers from call to call (malloc'd, touched, then registered:
// much faster to pin than cudaMallocHost) and pipelines: the link fills one
// buffer while host threads move another into C.  The host copy uses non-temporal
// stores: C is written once and not read back here, and ordinary stores
// would first read every line of C into the cache (a third of the memory
// traffic), and one thread cannot keep up with the link; several can.
// The first touch of a fresh C's pages happens in those threads too, so the
// page faults of a new result are spread over the cores.  Uploads of A and B
// take the same buffers the other way (pageable memory goes up at a tenth
// of the link's rate too), and the threads are kept with the buffers: a
// call that starts them pays more than its upload.

#include "gpu_internal.cuh"
#include <stdlib.h>
#include <sys/mman.h>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

// one staging buffer: large enough that the per-chunk synchronisation is a
// small share of its transfer, small enough to pin quickly on first use
#define GXD_STAGE_BYTES ((size_t) 32 << 20)
// staging buffers a writer cycles through: with two, the link waits
// whenever one chunk's host copy runs late; a third lets it go on with the
// next chunk while the late copy finishes
#define GXD_STAGE_BUFS 3
// host threads moving a chunk into C: one thread copies at a fifth of the
// link's rate, sixteen at more than it
#define GXD_STAGE_THREADS_MAX 16
// a chunk's host copy is taken by the threads a piece at a time, so one
// thread that the OS runs late does not hold up the chunk.  Pieces are
// aligned in C's address space to the size of a huge page: one thread
// faults each page of a new C in (its zeroing is most of a new page's
// cost), where threads writing parts of one page would wait on each other
#define GXD_STAGE_PIECE ((size_t) 2 << 20)
// uploads smaller than this go straight from pageable memory: the staged
// path's set-up would cost more than it saves
#define GXD_UPLOAD_MIN_BYTES ((size_t) 1 << 20)

//------------------------------------------------------------------------------
// non-temporal copy
//------------------------------------------------------------------------------

// dst = src: the loop of non-temporal stores, 32 bytes wide where the CPU
// has AVX2 (a few percent faster at the link's rate), else 16
#if defined (__x86_64__)
#include <immintrin.h>

__attribute__ ((target ("avx2")))
static size_t stream_copy_avx2 (char *dst, const char *src, size_t n)
{
    size_t i = 0 ;
    for ( ; i + 64 <= n ; i += 64)
    {
        __m256i a = _mm256_loadu_si256 ((const __m256i *) (src + i)) ;
        __m256i b = _mm256_loadu_si256 ((const __m256i *) (src + i + 32)) ;
        _mm256_stream_si256 ((__m256i *) (dst + i), a) ;
        _mm256_stream_si256 ((__m256i *) (dst + i + 32), b) ;
    }
    return i ;
}

static size_t stream_copy_sse2 (char *dst, const char *src, size_t n)
{
    size_t i = 0 ;
    for ( ; i + 64 <= n ; i += 64)
    {
        __m128i a = _mm_loadu_si128 ((const __m128i *) (src + i)) ;
        __m128i b = _mm_loadu_si128 ((const __m128i *) (src + i + 16)) ;
        __m128i c = _mm_loadu_si128 ((const __m128i *) (src + i + 32)) ;
        __m128i d = _mm_loadu_si128 ((const __m128i *) (src + i + 48)) ;
        _mm_stream_si128 ((__m128i *) (dst + i), a) ;
        _mm_stream_si128 ((__m128i *) (dst + i + 16), b) ;
        _mm_stream_si128 ((__m128i *) (dst + i + 32), c) ;
        _mm_stream_si128 ((__m128i *) (dst + i + 48), d) ;
    }
    return i ;
}
#endif

static void stream_copy (char *dst, const char *src, size_t n)
{
#if defined (__x86_64__)
    static const bool avx2 = __builtin_cpu_supports ("avx2") ;
    size_t head = (32 - ((uintptr_t) dst & 31)) & 31 ;
    if (head > n) head = n ;
    memcpy (dst, src, head) ;
    dst += head ; src += head ; n -= head ;
    size_t i = avx2 ? stream_copy_avx2 (dst, src, n) : stream_copy_sse2 (dst, src, n) ;
    memcpy (dst + i, src + i, n - i) ;
    _mm_sfence () ;
#else
    memcpy (dst, src, n) ;
#endif
}

//------------------------------------------------------------------------------
// the copy threads: started once per writer, woken once per chunk
//------------------------------------------------------------------------------

struct gxd_copy_pool
{
    std::mutex lock ;
    std::condition_variable wake, done ;
    std::vector<std::thread> threads ;
    char *dst = NULL ;
    const char *src = NULL ;
    size_t bytes = 0 ;          // of dst
    bool narrow = false ;       // src int64, dst int32 (else bytes as they are)
    std::atomic<size_t> next {0} ;     // the next piece to take (counted from
                                       // the piece holding dst)
    uint64_t generation = 0 ;
    int remaining = 0 ;
    bool stop = false ;
} ;

// the current job's pieces, until none is left
static void copy_pieces (gxd_copy_pool *Q)
{
    const uintptr_t d0 = (uintptr_t) Q->dst, d1 = d0 + Q->bytes ;
    const uintptr_t base = d0 & ~(uintptr_t) (GXD_STAGE_PIECE - 1) ;
    for (uintptr_t a ; (a = base + Q->next.fetch_add (1) * GXD_STAGE_PIECE) < d1 ; )
    {
        const size_t lo = (a > d0) ? a - d0 : 0 ;
        const size_t hi = (a + GXD_STAGE_PIECE < d1) ? a + GXD_STAGE_PIECE - d0 : Q->bytes ;
        if (!Q->narrow) { stream_copy (Q->dst + lo, Q->src + lo, hi - lo) ; continue ; }
        int32_t *d = (int32_t *) (Q->dst + lo) ;
        const int64_t *x = (const int64_t *) Q->src + lo / sizeof (int32_t) ;
        for (size_t q = 0 ; q < (hi - lo) / sizeof (int32_t) ; q++) d [q] = (int32_t) x [q] ;
    }
}

static void copy_worker (gxd_copy_pool *Q)
{
    uint64_t seen = 0 ;
    for ( ; ; )
    {
        {
            std::unique_lock<std::mutex> g (Q->lock) ;
            Q->wake.wait (g, [&] { return Q->stop || Q->generation != seen ; }) ;
            if (Q->stop) return ;
            seen = Q->generation ;
        }
        copy_pieces (Q) ;
        std::lock_guard<std::mutex> g (Q->lock) ;
        if (--Q->remaining == 0) Q->done.notify_one () ;
    }
}

// dst [0..bytes) = src with every thread of the pool, the caller's too;
// narrow: dst int32, src the int64 values it holds
static void pool_copy (gxd_copy_pool *Q, char *dst, const char *src, size_t bytes,
    bool narrow = false)
{
    {
        std::lock_guard<std::mutex> g (Q->lock) ;
        Q->dst = dst ; Q->src = src ; Q->bytes = bytes ;
        Q->narrow = narrow ;
        Q->next = 0 ;
        Q->remaining = (int) Q->threads.size () ;
        Q->generation++ ;
    }
    Q->wake.notify_all () ;
    copy_pieces (Q) ;
    std::unique_lock<std::mutex> g (Q->lock) ;
    Q->done.wait (g, [&] { return Q->remaining == 0 ; }) ;
}

// the pool's threads besides the caller's, one per core up to the maximum
static void pool_start (gxd_copy_pool *Q)
{
    unsigned hw = std::thread::hardware_concurrency () ;
    int nt = (hw == 0) ? 4 : (hw > GXD_STAGE_THREADS_MAX) ? GXD_STAGE_THREADS_MAX : (int) hw ;
    for (int t = 1 ; t < nt ; t++) Q->threads.emplace_back (copy_worker, Q) ;
}

static void pool_stop (gxd_copy_pool *Q)
{
    {
        std::lock_guard<std::mutex> g (Q->lock) ;
        Q->stop = true ;
    }
    Q->wake.notify_all () ;
    for (auto &t : Q->threads) t.join () ;
    Q->threads.clear () ;
}

//------------------------------------------------------------------------------
// pinned staging buffers: GXD_STAGE_BUFS kept for the process, or a call's own
//------------------------------------------------------------------------------

static std::mutex kept_lock ;           // held by the writer using kept
static void *kept [GXD_STAGE_BUFS] ;
static gxd_copy_pool *kept_pool = NULL ;    // its threads, started once

static void unpin (void *h)
{
    if (h == NULL) return ;
    cudaHostUnregister (h) ;
    free (h) ;
}

// GXD_STAGE_BYTES of pinned host memory, or NULL
static void *pin (void)
{
    void *h = aligned_alloc ((size_t) 2 << 20, GXD_STAGE_BYTES) ;
    if (h == NULL) return NULL ;
    madvise (h, GXD_STAGE_BYTES, MADV_HUGEPAGE) ;
    memset (h, 0, GXD_STAGE_BYTES) ;    // registering touched pages is faster
    if (cudaHostRegister (h, GXD_STAGE_BYTES, cudaHostRegisterDefault) != cudaSuccess)
    {
        cudaGetLastError () ;
        free (h) ;
        return NULL ;
    }
    return h ;
}

// with kept_lock held: the kept buffers and threads, or false
static bool kept_ready (void)
{
    bool all = true ;
    for (int b = 0 ; b < GXD_STAGE_BUFS ; b++)
    {
        if (kept [b] == NULL) kept [b] = pin () ;
        all = all && kept [b] != NULL ;
    }
    if (kept_pool == NULL)
    {
        kept_pool = new (std::nothrow) gxd_copy_pool () ;
        if (kept_pool != NULL) pool_start (kept_pool) ;
    }
    return all && kept_pool != NULL ;
}

extern "C" void GXD_gpu_staging_free (void)
{
    std::lock_guard<std::mutex> g (kept_lock) ;
    for (int b = 0 ; b < GXD_STAGE_BUFS ; b++) { unpin (kept [b]) ; kept [b] = NULL ; }
    if (kept_pool != NULL) { pool_stop (kept_pool) ; delete kept_pool ; }
    kept_pool = NULL ;
}

//------------------------------------------------------------------------------
// uploads
//------------------------------------------------------------------------------

// the device array dst [0..bytes) = the host array src, through the kept
// buffers when they are free (else a direct copy); narrow: dst int32, src
// the int64 values it holds, cut on the host (half the bytes on the link);
// returns once dst holds it
static GrB_Info stage_upload (void *dst, const void *src, size_t bytes,
    bool narrow, cudaStream_t s, char *msg)
{
    GrB_Info info = GrB_SUCCESS ;
    cudaEvent_t read [2] = { NULL, NULL } ;     // h [b] has gone up
    int32_t *cut = NULL ;
    bool locked = bytes >= GXD_UPLOAD_MIN_BYTES && kept_lock.try_lock () ;
    if (locked && !kept_ready ())
    {
        kept_lock.unlock () ;
        locked = false ;
    }
    if (!locked)
    {
        if (narrow)
        {
            size_t n = bytes / sizeof (int32_t) ;
            cut = (int32_t *) malloc (bytes > 0 ? bytes : 1) ;
            if (cut == NULL) return gxd_fail (GrB_OUT_OF_MEMORY, msg, "out of host memory") ;
            for (size_t q = 0 ; q < n ; q++) cut [q] = (int32_t) ((const int64_t *) src) [q] ;
            src = cut ;
        }
        GXD_CUDA_TRY (cudaMemcpyAsync (dst, src, bytes, cudaMemcpyHostToDevice, s)) ;
        goto cleanup ;
    }
    for (int b = 0 ; b < 2 ; b++)
        GXD_CUDA_TRY (cudaEventCreateWithFlags (&read [b], cudaEventDisableTiming)) ;
    for (size_t off = 0, c = 0 ; off < bytes ; off += GXD_STAGE_BYTES, c++)
    {
        // chunk c fills h [c % 2] while chunk c - 1 is on the link
        const int b = (int) (c % 2) ;
        const size_t len = (bytes - off < GXD_STAGE_BYTES) ? bytes - off : GXD_STAGE_BYTES ;
        if (c >= 2) GXD_CUDA_TRY (cudaEventSynchronize (read [b])) ;
        pool_copy (kept_pool, (char *) kept [b], (const char *) src + (narrow ? 2 * off : off),
            len, narrow) ;
        GXD_CUDA_TRY (cudaMemcpyAsync ((char *) dst + off, kept [b], len,
            cudaMemcpyHostToDevice, s)) ;
        GXD_CUDA_TRY (cudaEventRecord (read [b], s)) ;
    }
cleanup:
    // the buffers (and cut) are free again only once the link has read them
    // (a failed direct copy comes here too, holding no lock)
    cudaStreamSynchronize (s) ;
    for (int b = 0 ; b < 2 ; b++) if (read [b] != NULL) cudaEventDestroy (read [b]) ;
    if (locked) kept_lock.unlock () ;
    free (cut) ;
    return info ;
}

GrB_Info gxd_stage_upload (void *dst, const void *src, size_t bytes,
    cudaStream_t s, char *msg)
{
    return stage_upload (dst, src, bytes, false, s, msg) ;
}

GrB_Info gxd_stage_upload_cols (int32_t *dst, const int64_t *src, size_t n,
    cudaStream_t s, char *msg)
{
    return stage_upload (dst, src, n * sizeof (int32_t), true, s, msg) ;
}

//------------------------------------------------------------------------------
// the writer
//------------------------------------------------------------------------------

struct gxd_host_writer
{
    cudaStream_t s ;
    bool staged ;               // else: cudaMemcpyAsync straight into C
    bool owns_kept ;            // kept_lock is held
    bool own_bufs ;             // h [...] pinned for this writer alone
    void *h [GXD_STAGE_BUFS] ;
    cudaEvent_t landed [GXD_STAGE_BUFS] ;  // chunk in h [b] has arrived
    char *pending_dst [GXD_STAGE_BUFS] ;   // where the chunk in h [b] goes, NULL: none
    size_t pending_len [GXD_STAGE_BUFS] ;
    int64_t chunks ;
    gxd_copy_pool *pool ;       // the kept threads, or own_pool's
    gxd_copy_pool own_pool ;
} ;

// move the chunk waiting in h [b] into C
static GrB_Info drain (gxd_host_writer *W, int b, char *msg)
{
    GrB_Info info = GrB_SUCCESS ;
    if (W->pending_dst [b] == NULL) return GrB_SUCCESS ;
    GXD_CUDA_TRY (cudaEventSynchronize (W->landed [b])) ;
    pool_copy (W->pool, W->pending_dst [b], (const char *) W->h [b], W->pending_len [b]) ;
    W->pending_dst [b] = NULL ;
cleanup:
    return info ;
}

// a writer on stream s; staged only if worth it (and possible: without
// pinned memory it falls back to direct copies, slower but right)
GrB_Info gxd_writer_open (gxd_host_writer **Wp, cudaStream_t s, bool stage,
    char *msg)
{
    GrB_Info info = GrB_SUCCESS ;
    gxd_host_writer *W = new (std::nothrow) gxd_host_writer () ;
    *Wp = W ;
    if (W == NULL) return gxd_fail (GrB_OUT_OF_MEMORY, msg, "no host memory for the writer") ;
    W->s = s ;
    if (!stage) return GrB_SUCCESS ;
    W->owns_kept = kept_lock.try_lock () ;
    if (W->owns_kept && kept_ready ())
    {
        // pinned and started once for the process, freed by
        // GxB_Distance_finalize
        for (int b = 0 ; b < GXD_STAGE_BUFS ; b++) W->h [b] = kept [b] ;
        W->pool = kept_pool ;
    }
    else
    {
        // another call has the kept buffers: this one pins its own
        for (int b = 0 ; b < GXD_STAGE_BUFS ; b++) W->h [b] = pin () ;
        W->own_bufs = true ;
        W->pool = &W->own_pool ;
    }
    W->staged = true ;
    for (int b = 0 ; b < GXD_STAGE_BUFS ; b++) W->staged = W->staged && W->h [b] != NULL ;
    if (!W->staged) return GrB_SUCCESS ;
    for (int b = 0 ; b < GXD_STAGE_BUFS ; b++)
        GXD_CUDA_TRY (cudaEventCreateWithFlags (&W->landed [b], cudaEventDisableTiming)) ;
    if (W->pool == &W->own_pool) pool_start (W->pool) ;
cleanup:
    return info ;
}

// C [0..bytes) = the device array src, once the work queued on the writer's
// stream before this call is done; the host may still be copying when it
// returns, but src may be reused by work queued on the stream after it
GrB_Info gxd_writer_put (gxd_host_writer *W, char *dst, const void *src,
    size_t bytes, char *msg)
{
    GrB_Info info = GrB_SUCCESS ;
    if (!W->staged)
    {
        GXD_CUDA_TRY (cudaMemcpyAsync (dst, src, bytes, cudaMemcpyDeviceToHost, W->s)) ;
        return GrB_SUCCESS ;
    }
    for (size_t off = 0 ; off < bytes ; off += GXD_STAGE_BYTES, W->chunks++)
    {
        // chunk c goes through h [c % GXD_STAGE_BUFS]: first the chunk
        // before it there moves into C, while the ones after that are on
        // the link
        int b = (int) (W->chunks % GXD_STAGE_BUFS) ;
        size_t len = (bytes - off < GXD_STAGE_BYTES) ? bytes - off : GXD_STAGE_BYTES ;
        GXD_GPU_TRY (drain (W, b, msg)) ;
        GXD_CUDA_TRY (cudaMemcpyAsync (W->h [b], (const char *) src + off, len,
            cudaMemcpyDeviceToHost, W->s)) ;
        GXD_CUDA_TRY (cudaEventRecord (W->landed [b], W->s)) ;
        W->pending_dst [b] = dst + off ;
        W->pending_len [b] = len ;
    }
cleanup:
    return info ;
}

// every put is in C
GrB_Info gxd_writer_finish (gxd_host_writer *W, char *msg)
{
    GrB_Info info = GrB_SUCCESS ;
    for (int64_t c = W->chunks ; c < W->chunks + GXD_STAGE_BUFS ; c++)
        GXD_GPU_TRY (drain (W, (int) (c % GXD_STAGE_BUFS), msg)) ;
    GXD_CUDA_TRY (cudaStreamSynchronize (W->s)) ;
cleanup:
    return info ;
}

// free the writer (after a failure too: waits for its stream first, since
// the link may still be writing into the staging buffers)
void gxd_writer_close (gxd_host_writer *W)
{
    if (W == NULL) return ;
    cudaStreamSynchronize (W->s) ;
    pool_stop (&W->own_pool) ;
    for (int b = 0 ; b < GXD_STAGE_BUFS ; b++)
    {
        if (W->landed [b] != NULL) cudaEventDestroy (W->landed [b]) ;
        if (W->own_bufs) unpin (W->h [b]) ;
    }
    if (W->owns_kept) kept_lock.unlock () ;
    delete W ;
}
