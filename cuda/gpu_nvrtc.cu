// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// cuda/gpu_nvrtc.cu: kernels compiled at run time with NVRTC, cached
//------------------------------------------------------------------------------

// NVRTC and the driver API are loaded with dlopen on the first call, so
// the library runs (and builds) where neither is installed: then the call
// fails with GrB_NOT_IMPLEMENTED, and GxB_BACKEND_AUTO takes the CPU.  A
// source is compiled with -default-device (its functions become device
// functions), for the device's own architecture, with the project's
// device headers that NVRTC should see (gpu_split_select.cuh,
// gpu_klist.cuh) given from memory; the CUBIN is cached in the process and
// on disk (gxd_jit_cache.h), keyed by the whole text compiled (those
// headers and the source), the NVRTC version, the architecture and the
// options that change the code.
//
// A program is built twice.  Its first call waits only for a quick build
// (ptxas at -O1: it compiles in about half the time, and its kernels ran
// within 1.5 % (PLUS kNN) to 6 % (MAX kNN) of the optimized ones); the
// optimized build (ptxas's default, -O3) is compiled meanwhile by a thread
// of its own, written to the disk cache, and used from the program's next
// call on.  Both are built with --fmad=false: no multiply and add are
// contracted, every operation rounds as written, and so the two builds
// give the same bits.  A process waits for its optimized builds before it
// unloads its modules (GXD_gpu_user_clear) and before it exits.

#include "gpu_nvrtc.h"
#include "gxd_jit_cache.h"
#include "gpu_nvrtc_headers.h"
#include <cuda.h>
#include <nvrtc.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <map>
#include <vector>

#ifndef GXD_NVRTC_DIR
#define GXD_NVRTC_DIR ""
#endif

//------------------------------------------------------------------------------
// NVRTC and the driver API, loaded on first use
//------------------------------------------------------------------------------

typedef struct
{
    nvrtcResult (*create) (nvrtcProgram *, const char *, const char *, int,
        const char * const *, const char * const *) ;
    nvrtcResult (*compile) (nvrtcProgram, int, const char * const *) ;
    nvrtcResult (*log_size) (nvrtcProgram, size_t *) ;
    nvrtcResult (*log) (nvrtcProgram, char *) ;
    nvrtcResult (*cubin_size) (nvrtcProgram, size_t *) ;
    nvrtcResult (*cubin) (nvrtcProgram, char *) ;
    nvrtcResult (*destroy) (nvrtcProgram *) ;
    nvrtcResult (*version) (int *, int *) ;
    CUresult (*load) (CUmodule *, const void *) ;
    CUresult (*get_function) (CUfunction *, CUmodule, const char *) ;
    CUresult (*launch) (CUfunction, unsigned, unsigned, unsigned, unsigned,
        unsigned, unsigned, unsigned, CUstream, void **, void **) ;
    CUresult (*unload) (CUmodule) ;
    CUresult (*set_attribute) (CUfunction, CUfunction_attribute, int) ;
    bool loaded ;
}
gxd_rtc ;

// NVRTC's optimizer and ptxas run on this many threads: the kNN programs
// (one large kernel and a few small ones) compiled about a quarter faster
// on 16 cores with 4 than with 1, and no faster with all of them
#define GXD_NVRTC_SPLIT "--split-compile=4"

// the options every build has (after the architecture), and the quick
// build's own
#define GXD_NVRTC_COMMON "-default-device", "-std=c++17", "--fmad=false"
#define GXD_NVRTC_NCOMMON 4
#define GXD_NVRTC_QUICK "--ptxas-options=-O1"

// a program in this process: the module its calls use, the modules it used
// before (a call on another thread may still run their kernels: unloaded
// with the rest by GXD_gpu_user_clear), and its optimized CUBIN once the
// thread compiling it is done (loaded at the program's next call)
typedef struct
{
    CUmodule mod ;
    std::vector <CUmodule> *old ;
    void *better ;
}
gxd_program ;

static gxd_rtc rtc ;
static pthread_mutex_t rtc_lock = PTHREAD_MUTEX_INITIALIZER ;
// signalled (under rtc_lock) when an optimized build is done
static pthread_cond_t rtc_built = PTHREAD_COND_INITIALIZER ;
// the programs compiled or loaded in this process, by tool and source
static std::map <std::string, gxd_program> *programs = NULL ;
// optimized builds being compiled; quick builds made and optimized builds
// taken over in this process (GXD_gpu_user_tiers)
static int pending = 0 ;
static int64_t nquick = 0, nswaps = 0 ;

static void *open_first (const char *const *names)
{
    for (int q = 0 ; names [q] != NULL ; q++)
    {
        if (names [q][0] == '\0') continue ;
        void *h = dlopen (names [q], RTLD_NOW | RTLD_LOCAL) ;
        if (h != NULL) return h ;
    }
    return NULL ;
}

#define SYM(h, field, name) \
    (*(void **) &rtc.field = dlsym (h, name), rtc.field != NULL)

// under rtc_lock
static bool rtc_load (void)
{
    if (rtc.loaded) return true ;
    const char *nv [ ] = { GXD_NVRTC_DIR "/libnvrtc.so", "libnvrtc.so.13",
        "libnvrtc.so.12", "libnvrtc.so", NULL } ;
    const char *cu [ ] = { "libcuda.so.1", "libcuda.so", NULL } ;
    void *hn = open_first (nv), *hc = open_first (cu) ;
    if (hn == NULL || hc == NULL) return false ;
    rtc.loaded = SYM (hn, create, "nvrtcCreateProgram")
        && SYM (hn, compile, "nvrtcCompileProgram")
        && SYM (hn, log_size, "nvrtcGetProgramLogSize")
        && SYM (hn, log, "nvrtcGetProgramLog")
        && SYM (hn, cubin_size, "nvrtcGetCUBINSize")
        && SYM (hn, cubin, "nvrtcGetCUBIN")
        && SYM (hn, destroy, "nvrtcDestroyProgram")
        && SYM (hn, version, "nvrtcVersion")
        && SYM (hc, load, "cuModuleLoadData")
        && SYM (hc, get_function, "cuModuleGetFunction")
        && SYM (hc, launch, "cuLaunchKernel")
        && SYM (hc, unload, "cuModuleUnload")
        && SYM (hc, set_attribute, "cuFuncSetAttribute") ;
    return rtc.loaded ;
}

//------------------------------------------------------------------------------
// compiling and launching
//------------------------------------------------------------------------------

// the headers a source may #include, by name, and their text (made from
// the files by CMakeLists.txt, so nvcc and NVRTC compile the same code)
#define NHEADERS 2
static const char *const header_names [NHEADERS] = { "gpu_split_select.cuh",
    "gpu_klist.cuh" } ;
static const char *const header_texts [NHEADERS] = { gxd_split_select_text,
    gxd_klist_text } ;

// all that NVRTC reads for src: the headers, then src.  The caches key on
// it, so an edited header never reuses a CUBIN compiled from the old one
static std::string compiled_text (const std::string &src)
{
    std::string text ;
    for (int q = 0 ; q < NHEADERS ; q++)
    {
        text += std::string ("// #include \"") + header_names [q] + "\"\n"
            + header_texts [q] + "\n" ;
    }
    return text + src ;
}

// src compiled by NVRTC with its first nopts options, dropping the last of
// the optional ones while this NVRTC does not know it (an older NVRTC
// compiles without --split-compile, and its quick build is the optimized
// one): the CUBIN (malloc'd), its size and how many options were taken
static GrB_Info rtc_compile (void **cubin, size_t *size, int *taken,
    const std::string &src, const char **opts, int nopts, int optional,
    char *msg)
{
    GrB_Info info = GrB_SUCCESS ;
    nvrtcProgram prog = NULL ;
    nvrtcResult done = NVRTC_ERROR_INVALID_OPTION ;
    *cubin = NULL ;
    *taken = nopts + 1 ;
    while (done == NVRTC_ERROR_INVALID_OPTION && *taken > nopts - optional)
    {
        (*taken)-- ;
        if (prog != NULL) rtc.destroy (&prog) ;
        if (rtc.create (&prog, src.c_str ( ), "gxd_user.cu", NHEADERS,
            header_texts, header_names) != NVRTC_SUCCESS)
        {
            prog = NULL ;
            info = gxd_fail (GrB_OUT_OF_MEMORY, msg, "NVRTC: cannot create a program") ;
            goto cleanup ;
        }
        done = rtc.compile (prog, *taken, opts) ;
    }
    if (done != NVRTC_SUCCESS)
    {
        size_t n = 0 ;
        rtc.log_size (prog, &n) ;
        std::string log (n + 1, '\0') ;
        rtc.log (prog, &log [0]) ;
        snprintf (msg, GXD_MSG_LEN, "gxbdist GPU: the user operator "
            "does not compile for the GPU (NVRTC):\n%s", log.c_str ( )) ;
        info = GrB_INVALID_VALUE ;
        goto cleanup ;
    }
    if (rtc.cubin_size (prog, size) != NVRTC_SUCCESS
        || (*cubin = malloc (*size)) == NULL
        || rtc.cubin (prog, (char *) *cubin) != NVRTC_SUCCESS)
    {
        free (*cubin) ;
        *cubin = NULL ;
        info = gxd_fail (GrB_OUT_OF_MEMORY, msg, "NVRTC: no CUBIN") ;
    }
cleanup:
    if (prog != NULL) rtc.destroy (&prog) ;
    return info ;
}

// an optimized build to make: its program (key), its text as the disk
// cache keeps it, its source, tool and architecture option
typedef struct
{
    std::string key, text, src, tool, arch ;
}
gxd_later ;

// the thread of an optimized build.  A build that fails (it did not at the
// quick level: memory, then) leaves the program on its quick build
static void *optimize (void *arg)
{
    gxd_later *L = (gxd_later *) arg ;
    void *cubin = NULL ;
    size_t size = 0 ;
    int taken ;
    char msg [GXD_MSG_LEN] ;
    const char *opts [ ] = { L->arch.c_str ( ), GXD_NVRTC_COMMON, GXD_NVRTC_SPLIT } ;
    if (rtc_compile (&cubin, &size, &taken, L->src, opts, GXD_NVRTC_NCOMMON + 1,
        1, msg) == GrB_SUCCESS)
    {
        GXD_jit_cache_write (L->text.c_str ( ), L->tool.c_str ( ), ".cu",
            ".cubin", cubin, size) ;
    }
    pthread_mutex_lock (&rtc_lock) ;
    auto p = programs->find (L->key) ;      // (kept until pending is 0)
    if (p != programs->end ( ) && cubin != NULL)
    {
        p->second.better = cubin ;
        cubin = NULL ;
    }
    pending-- ;
    pthread_cond_broadcast (&rtc_built) ;
    pthread_mutex_unlock (&rtc_lock) ;
    free (cubin) ;
    delete L ;
    return NULL ;
}

// under rtc_lock: wait for every optimized build being compiled
static void wait_pending (void)
{
    while (pending > 0) pthread_cond_wait (&rtc_built, &rtc_lock) ;
}

// the process does not exit while a thread compiles (NVRTC's library would
// be torn down under it); a child of fork has none of its parent's threads
static void wait_built (void)
{
    pthread_mutex_lock (&rtc_lock) ;
    wait_pending ( ) ;
    pthread_mutex_unlock (&rtc_lock) ;
}
static void fork_prepare (void) { pthread_mutex_lock (&rtc_lock) ; }
static void fork_parent (void) { pthread_mutex_unlock (&rtc_lock) ; }
static void fork_child (void) { pending = 0 ; pthread_mutex_unlock (&rtc_lock) ; }
static void at_exit_and_fork (void)
{
    atexit (wait_built) ;
    pthread_atfork (fork_prepare, fork_parent, fork_child) ;
}
static pthread_once_t registered = PTHREAD_ONCE_INIT ;

// under rtc_lock: start L's optimized build on a thread of its own; where
// no thread can be started the program keeps its quick build
static void start_optimized (gxd_later *L)
{
    pthread_once (&registered, at_exit_and_fork) ;
    pthread_attr_t attr ;
    pthread_t t ;
    bool started = false ;
    if (pthread_attr_init (&attr) == 0)
    {
        pthread_attr_setdetachstate (&attr, PTHREAD_CREATE_DETACHED) ;
        started = (pthread_create (&t, &attr, optimize, L) == 0) ;
        pthread_attr_destroy (&attr) ;
    }
    if (started) pending++ ;
    else delete L ;
}

// the module of src on the current device: from the process, the disk or
// NVRTC (under rtc_lock)
static GrB_Info get_module (CUmodule *mod, const std::string &src, char *msg)
{
    GrB_Info info = GrB_SUCCESS ;
    int dev = 0, major = 0, minor = 0, vmaj = 0, vmin = 0, taken = 0 ;
    char arch [64], tool [160] ;
    void *cubin = NULL ;
    size_t size = 0 ;
    bool from_disk = false, quick = false ;
    GXD_CUDA_TRY (cudaFree (0)) ;           // the primary context, current
    GXD_CUDA_TRY (cudaGetDevice (&dev)) ;
    GXD_CUDA_TRY (cudaDeviceGetAttribute (&major, cudaDevAttrComputeCapabilityMajor, dev)) ;
    GXD_CUDA_TRY (cudaDeviceGetAttribute (&minor, cudaDevAttrComputeCapabilityMinor, dev)) ;
    rtc.version (&vmaj, &vmin) ;
    snprintf (arch, sizeof (arch), "--gpu-architecture=sm_%d%d", major, minor) ;
    snprintf (tool, sizeof (tool), "nvrtc %d.%d sm_%d%d --fmad=false", vmaj,
        vmin, major, minor) ;
    {
        const std::string text = compiled_text (src) ;
        const std::string key = std::string (tool) + "\n" + text ;
        if (programs == NULL) programs = new std::map <std::string, gxd_program> ;
        auto hit = programs->find (key) ;
        if (hit != programs->end ( ))
        {
            gxd_program &p = hit->second ;
            CUmodule better ;
            if (p.better != NULL && rtc.load (&better, p.better) == CUDA_SUCCESS)
            {
                p.old->push_back (p.mod) ;
                p.mod = better ;
                nswaps++ ;
            }
            free (p.better) ;
            p.better = NULL ;
            *mod = p.mod ;
            return GrB_SUCCESS ;
        }
        cubin = GXD_jit_cache_read (text.c_str ( ), tool, ".cu", ".cubin", &size) ;
        from_disk = (cubin != NULL) ;
        if (!from_disk)
        {
            const char *opts [ ] = { arch, GXD_NVRTC_COMMON, GXD_NVRTC_SPLIT,
                GXD_NVRTC_QUICK } ;
            GXD_GPU_TRY (rtc_compile (&cubin, &size, &taken, src, opts,
                GXD_NVRTC_NCOMMON + 2, 2, msg)) ;
            quick = (taken == GXD_NVRTC_NCOMMON + 2) ;
        }
        if (rtc.load (mod, cubin) != CUDA_SUCCESS)
        {
            info = gxd_fail (GrB_PANIC, msg, "the compiled user operator does "
                "not load") ;
            goto cleanup ;
        }
        if (!from_disk && !quick)
        {
            GXD_jit_cache_write (text.c_str ( ), tool, ".cu", ".cubin", cubin, size) ;
        }
        (*programs) [key] = { *mod, new std::vector <CUmodule>, NULL } ;
        if (quick)
        {
            nquick++ ;
            start_optimized (new gxd_later { key, text, src, tool, arch }) ;
        }
    }
cleanup:
    free (cubin) ;
    return info ;
}

GrB_Info gxd_nvrtc_function (void **fn, const std::string &src,
    const char *entry, char *msg)
{
    CUmodule mod ;
    pthread_mutex_lock (&rtc_lock) ;
    if (!rtc_load ( ))
    {
        pthread_mutex_unlock (&rtc_lock) ;
        return gxd_fail (GrB_NOT_IMPLEMENTED, msg, "user operators on the "
            "GPU need NVRTC and the CUDA driver (libnvrtc, libcuda), not "
            "found") ;
    }
    GrB_Info info = get_module (&mod, src, msg) ;
    if (info == GrB_SUCCESS
        && rtc.get_function ((CUfunction *) fn, mod, entry) != CUDA_SUCCESS)
    {
        info = gxd_fail (GrB_PANIC, msg, "a compiled user operator's kernel "
            "is missing") ;
    }
    pthread_mutex_unlock (&rtc_lock) ;
    return info ;
}

GrB_Info gxd_nvrtc_launch (void *fn, unsigned gx, unsigned gy,
    unsigned threads, unsigned smem, cudaStream_t s, void **args, char *msg)
{
    // rtc is loaded: fn came from gxd_nvrtc_function.  Dynamic shared
    // memory is asked for first: a launch gets 48 KiB by default, less the
    // kernel's static arrays (the kNN kernels' lists)
    if (smem > 0 && rtc.set_attribute ((CUfunction) fn,
        CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int) smem) != CUDA_SUCCESS)
    {
        return gxd_fail (GrB_PANIC, msg, "a user operator's kernel could not "
            "have the shared memory it needs") ;
    }
    if (rtc.launch ((CUfunction) fn, gx, gy, 1, threads, 1, 1, smem,
        (CUstream) s, args, NULL) != CUDA_SUCCESS)
    {
        return gxd_fail (GrB_PANIC, msg, "a user operator's kernel did not "
            "launch") ;
    }
    return GrB_SUCCESS ;
}

// unload every module (GxB_Distance_finalize, through GXD_jit_clear), once
// the optimized builds being compiled are done
extern "C" void GXD_gpu_user_clear (void)
{
    pthread_mutex_lock (&rtc_lock) ;
    wait_pending ( ) ;
    if (programs != NULL)
    {
        for (auto &k : *programs)
        {
            rtc.unload (k.second.mod) ;
            for (CUmodule m : *k.second.old) rtc.unload (m) ;
            delete k.second.old ;
            free (k.second.better) ;
        }
        delete programs ;
        programs = NULL ;
    }
    pthread_mutex_unlock (&rtc_lock) ;
}

// wait for the optimized builds being compiled (tests, benchmarks)
extern "C" void GXD_gpu_user_wait (void)
{
    wait_built ( ) ;
}

// quick builds made, and optimized builds taken over, in this process
extern "C" void GXD_gpu_user_tiers (int64_t *quick, int64_t *swaps)
{
    pthread_mutex_lock (&rtc_lock) ;
    *quick = nquick ;
    *swaps = nswaps ;
    pthread_mutex_unlock (&rtc_lock) ;
}
