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
// headers and the source), the NVRTC version and the architecture.
//
// An operator whose kernels have a template in the library
// (gpu_user_images.h) is served in two tiers.  Its first call compiles
// the operator alone as relocatable code (-rdc) and links it with the
// template's fatbin (nvJitLink, also loaded with dlopen): a tenth of a
// second where the whole program takes one or two.  The whole program
// (the operator inlined: its kernels ran 1.1-1.4x faster than the linked
// ones, whose calls to gxd_f follow the ABI and spill) compiles meanwhile
// on a thread of its own, goes to the disk cache, and serves from the next
// call on.  Both give the same bits (the kernels are the same text; the
// operator's products round as written either way).  Where the fatbin has
// no code for the device, or nvJitLink is missing or fails, the first call
// compiles the whole program itself.  A process waits for the threads
// before it unloads its modules and before it exits.

#include "gpu_nvrtc.h"
#include "gxd_jit_cache.h"
#include "gpu_nvrtc_headers.h"
#include <cuda.h>
#include <nvrtc.h>
#include <nvJitLink.h>
#include <dlfcn.h>
#include <pthread.h>
#include <map>
#include <set>
#if GXD_USER_IMAGES
#include "gpu_user_images.h"
#endif

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
    // nvJitLink (CUDA 13's entry points; linker: all found)
    nvJitLinkResult (*link_create) (nvJitLinkHandle *, uint32_t, const char **) ;
    nvJitLinkResult (*link_add) (nvJitLinkHandle, nvJitLinkInputType,
        const void *, size_t, const char *) ;
    nvJitLinkResult (*link_complete) (nvJitLinkHandle) ;
    nvJitLinkResult (*link_cubin_size) (nvJitLinkHandle, size_t *) ;
    nvJitLinkResult (*link_cubin) (nvJitLinkHandle, void *) ;
    nvJitLinkResult (*link_destroy) (nvJitLinkHandle *) ;
    bool loaded, linker ;
}
gxd_rtc ;

// NVRTC's optimizer and ptxas run on this many threads: the kNN programs
// (one large kernel and a few small ones) compiled about a quarter faster
// on 16 cores with 4 than with 1, and no faster with all of them
#define GXD_NVRTC_SPLIT "--split-compile=4"

static gxd_rtc rtc ;
static pthread_mutex_t rtc_lock = PTHREAD_MUTEX_INITIALIZER ;
// signalled (under rtc_lock) when a whole program's thread is done
static pthread_cond_t rtc_built = PTHREAD_COND_INITIALIZER ;
// in this process, by tool and text: the modules made or loaded; the whole
// programs being compiled on threads; their CUBINs once done (loaded at
// their next call); those that did not compile (their linked modules
// serve); and the templates that did not link on the device (by tool and
// name)
static std::map <std::string, CUmodule> *modules = NULL ;
static std::set <std::string> *pending = NULL ;
static std::map <std::string, std::pair <void *, size_t> > *built = NULL ;
static std::set <std::string> *failed = NULL ;
static std::set <std::string> *unlinkable = NULL ;
// tests (GXD_gpu_user_set_whole): no linking; linked modules made or read,
// and whole programs that took over from them
static bool whole_only = false ;
static int64_t nlinked = 0, nswaps = 0 ;

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
    const char *jl [ ] = { GXD_NVRTC_DIR "/libnvJitLink.so",
        "libnvJitLink.so.13", "libnvJitLink.so", NULL } ;
    void *hj = rtc.loaded ? open_first (jl) : NULL ;
    rtc.linker = hj != NULL
        && SYM (hj, link_create, "__nvJitLinkCreate_13_0")
        && SYM (hj, link_add, "__nvJitLinkAddData_13_0")
        && SYM (hj, link_complete, "__nvJitLinkComplete_13_0")
        && SYM (hj, link_cubin_size, "__nvJitLinkGetLinkedCubinSize_13_0")
        && SYM (hj, link_cubin, "__nvJitLinkGetLinkedCubin_13_0")
        && SYM (hj, link_destroy, "__nvJitLinkDestroy_13_0") ;
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

// src compiled by NVRTC with opts [0..nopts), less the last while this
// NVRTC does not know it (optional of them; an older NVRTC compiles
// without --split-compile): the CUBIN (malloc'd) and its size
static GrB_Info rtc_compile (void **cubin, size_t *size, const std::string &src,
    const char **opts, int nopts, int optional, char *msg)
{
    GrB_Info info = GrB_SUCCESS ;
    nvrtcProgram prog = NULL ;
    nvrtcResult done = NVRTC_ERROR_INVALID_OPTION ;
    *cubin = NULL ;
    for (int n = nopts ; n >= nopts - optional && done == NVRTC_ERROR_INVALID_OPTION ; n--)
    {
        if (prog != NULL) rtc.destroy (&prog) ;
        if (rtc.create (&prog, src.c_str ( ), "gxd_user.cu", NHEADERS,
            header_texts, header_names) != NVRTC_SUCCESS)
        {
            prog = NULL ;
            info = gxd_fail (GrB_OUT_OF_MEMORY, msg, "NVRTC: cannot create a program") ;
            goto cleanup ;
        }
        done = rtc.compile (prog, n, opts) ;
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

// cubin loaded as the module of key
static GrB_Info load (CUmodule *mod, const std::string &key, const void *cubin,
    char *msg)
{
    if (rtc.load (mod, cubin) != CUDA_SUCCESS)
    {
        return gxd_fail (GrB_PANIC, msg, "the compiled user operator does "
            "not load") ;
    }
    (*modules) [key] = *mod ;
    return GrB_SUCCESS ;
}

// the device's architecture as NVRTC's option, nvJitLink's option, and the
// caches' tool (with NVRTC's version)
typedef struct { char arch [64], link [32], tool [96] ; } gxd_target ;

static GrB_Info target (gxd_target *T, char *msg)
{
    GrB_Info info = GrB_SUCCESS ;
    int dev = 0, major = 0, minor = 0, vmaj = 0, vmin = 0 ;
    GXD_CUDA_TRY (cudaFree (0)) ;           // the primary context, current
    GXD_CUDA_TRY (cudaGetDevice (&dev)) ;
    GXD_CUDA_TRY (cudaDeviceGetAttribute (&major, cudaDevAttrComputeCapabilityMajor, dev)) ;
    GXD_CUDA_TRY (cudaDeviceGetAttribute (&minor, cudaDevAttrComputeCapabilityMinor, dev)) ;
    rtc.version (&vmaj, &vmin) ;
    snprintf (T->arch, sizeof (T->arch), "--gpu-architecture=sm_%d%d", major, minor) ;
    snprintf (T->link, sizeof (T->link), "-arch=sm_%d%d", major, minor) ;
    snprintf (T->tool, sizeof (T->tool), "nvrtc %d.%d sm_%d%d", vmaj, vmin, major, minor) ;
cleanup:
    return info ;
}

//------------------------------------------------------------------------------
// the whole program's thread
//------------------------------------------------------------------------------

// a whole program to compile: its key, its text as the disk cache keeps
// it, its source and target
typedef struct
{
    std::string key, text, src ;
    gxd_target T ;
}
gxd_later ;

static void *compile_whole (void *arg)
{
    gxd_later *L = (gxd_later *) arg ;
    void *cubin = NULL ;
    size_t size = 0 ;
    char msg [GXD_MSG_LEN] ;
    const char *opts [ ] = { L->T.arch, "-default-device", "-std=c++17",
        GXD_NVRTC_SPLIT } ;
    if (rtc_compile (&cubin, &size, L->src, opts, 4, 1, msg) == GrB_SUCCESS)
    {
        GXD_jit_cache_write (L->text.c_str ( ), L->T.tool, ".cu", ".cubin",
            cubin, size) ;
    }
    pthread_mutex_lock (&rtc_lock) ;
    if (cubin != NULL) (*built) [L->key] = std::make_pair (cubin, size) ;
    else failed->insert (L->key) ;
    pending->erase (L->key) ;
    pthread_cond_broadcast (&rtc_built) ;
    pthread_mutex_unlock (&rtc_lock) ;
    delete L ;
    return NULL ;
}

// under rtc_lock: wait for every whole program being compiled
static void wait_pending (void)
{
    while (pending != NULL && !pending->empty ( )) pthread_cond_wait (&rtc_built, &rtc_lock) ;
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
static void fork_child (void)
{
    if (pending != NULL) pending->clear ( ) ;
    pthread_mutex_unlock (&rtc_lock) ;
}
static void at_exit_and_fork (void)
{
    atexit (wait_built) ;
    pthread_atfork (fork_prepare, fork_parent, fork_child) ;
}
static pthread_once_t registered = PTHREAD_ONCE_INIT ;

// under rtc_lock: compile L's whole program on a thread of its own; false
// where no thread can be started
static bool start_whole (gxd_later *L)
{
    pthread_once (&registered, at_exit_and_fork) ;
    pthread_attr_t attr ;
    pthread_t t ;
    bool started = false ;
    if (pthread_attr_init (&attr) == 0)
    {
        pthread_attr_setdetachstate (&attr, PTHREAD_CREATE_DETACHED) ;
        started = (pthread_create (&t, &attr, compile_whole, L) == 0) ;
        pthread_attr_destroy (&attr) ;
    }
    if (started) pending->insert (L->key) ;
    else delete L ;
    return started ;
}

//------------------------------------------------------------------------------
// modules
//------------------------------------------------------------------------------

// FNV-1a of n bytes: a template's fingerprint in the caches' keys
static unsigned long long fingerprint (const char *p, size_t n)
{
    unsigned long long h = 1469598103934665603ULL ;
    for (size_t q = 0 ; q < n ; q++) h = (h ^ (unsigned char) p [q]) * 1099511628211ULL ;
    return h ;
}

// the linked CUBIN of the relocatable CUBIN *cubin (replaced, and *size)
// and the fatbin [begin, end): false where they do not link (no code for
// the architecture in the fatbin, or a linker older than the compiler)
static bool link_cubin (void **cubin, size_t *size, const char *begin,
    const char *end, const char *arch)
{
    nvJitLinkHandle h = NULL ;
    const char *opts [ ] = { arch } ;
    void *linked = NULL ;
    size_t n = 0 ;
    bool ok = rtc.link_create (&h, 1, opts) == NVJITLINK_SUCCESS
        && rtc.link_add (h, NVJITLINK_INPUT_FATBIN, begin, end - begin,
            "gxd_user_template") == NVJITLINK_SUCCESS
        && rtc.link_add (h, NVJITLINK_INPUT_CUBIN, *cubin, *size,
            "gxd_user_operator") == NVJITLINK_SUCCESS
        && rtc.link_complete (h) == NVJITLINK_SUCCESS
        && rtc.link_cubin_size (h, &n) == NVJITLINK_SUCCESS
        && (linked = malloc (n)) != NULL
        && rtc.link_cubin (h, linked) == NVJITLINK_SUCCESS ;
    if (h != NULL) rtc.link_destroy (&h) ;
    if (!ok) { free (linked) ; return false ; }
    free (*cubin) ;
    *cubin = linked ;
    *size = n ;
    return true ;
}

// the library's template called name, or NULL
static const char *template_image (const char *name, const char **end)
{
#if GXD_USER_IMAGES
    for (int t = 0 ; t < GXD_USER_NIMAGES ; t++)
    {
        if (strcmp (gxd_user_images [t].name, name) == 0)
        {
            *end = gxd_user_images [t].end ;
            return gxd_user_images [t].begin ;
        }
    }
#endif
    return NULL ;
}

// under rtc_lock: the module of operator op linked with the template
// name, from the process, the disk or NVRTC and nvJitLink; GrB_NO_VALUE
// where there is no such template for this device
static GrB_Info linked_module (CUmodule *mod, const std::string &op,
    const char *name, const gxd_target *T, char *msg)
{
    GrB_Info info = GrB_SUCCESS ;
    const char *end = NULL, *image = template_image (name, &end) ;
    const std::string no_link = std::string (T->tool) + " " + name ;
    void *cubin = NULL ;
    size_t size = 0 ;
    if (image == NULL || whole_only || !rtc.linker || unlinkable->count (no_link))
    {
        return GrB_NO_VALUE ;
    }
    // the key: the template by name and fingerprint (a rebuilt library's
    // new template is another key), then the operator
    char line [160] ;
    snprintf (line, sizeof (line), "// linked with %s (%zu bytes, %016llx)\n",
        name, (size_t) (end - image), fingerprint (image, end - image)) ;
    const std::string text = line + op ;
    const std::string key = std::string (T->tool) + "\n" + text ;
    auto hit = modules->find (key) ;
    if (hit != modules->end ( )) { *mod = hit->second ; return GrB_SUCCESS ; }
    cubin = GXD_jit_cache_read (text.c_str ( ), T->tool, ".cu", ".cubin", &size) ;
    if (cubin == NULL)
    {
        const char *opts [ ] = { T->arch, "-default-device", "-std=c++17",
            "-rdc=true" } ;
        GXD_GPU_TRY (rtc_compile (&cubin, &size, op, opts, 4, 0, msg)) ;
        if (!link_cubin (&cubin, &size, image, end, T->link))
        {
            unlinkable->insert (no_link) ;
            info = GrB_NO_VALUE ;
            goto cleanup ;
        }
        GXD_jit_cache_write (text.c_str ( ), T->tool, ".cu", ".cubin", cubin, size) ;
    }
    GXD_GPU_TRY (load (mod, key, cubin, msg)) ;
    nlinked++ ;
cleanup:
    free (cubin) ;
    return info ;
}

// under rtc_lock: the module of the whole program src: from the process
// (made, or compiled on a thread since), the disk, or else, where op is
// not NULL, op linked with the template name while src compiles on a
// thread; else NVRTC now
static GrB_Info get_module (CUmodule *mod, const std::string &src,
    const char *name, const std::string *op, char *msg)
{
    GrB_Info info = GrB_SUCCESS ;
    gxd_target T ;
    void *cubin = NULL ;
    size_t size = 0 ;
    GXD_GPU_TRY (target (&T, msg)) ;
    {
        const std::string text = compiled_text (src) ;
        const std::string key = std::string (T.tool) + "\n" + text ;
        for ( ; ; )
        {
            auto hit = modules->find (key) ;
            if (hit != modules->end ( )) { *mod = hit->second ; return GrB_SUCCESS ; }
            auto done = built->find (key) ;
            if (done != built->end ( ))
            {
                cubin = done->second.first ;
                built->erase (done) ;
                GXD_GPU_TRY (load (mod, key, cubin, msg)) ;
                nswaps++ ;
                goto cleanup ;
            }
            // the whole program is being compiled: its linked module
            // serves meanwhile, or else wait for it
            if (!pending->count (key)) break ;
            if (op != NULL && !failed->count (key))
            {
                info = linked_module (mod, *op, name, &T, msg) ;
                if (info != GrB_NO_VALUE) return info ;
            }
            pthread_cond_wait (&rtc_built, &rtc_lock) ;
        }
        cubin = GXD_jit_cache_read (text.c_str ( ), T.tool, ".cu", ".cubin", &size) ;
        if (cubin != NULL)
        {
            GXD_GPU_TRY (load (mod, key, cubin, msg)) ;
            goto cleanup ;
        }
        if (op != NULL)
        {
            info = linked_module (mod, *op, name, &T, msg) ;
            if (info != GrB_NO_VALUE)
            {
                // the whole program, where it compiles, serves later
                if (info == GrB_SUCCESS && !failed->count (key))
                {
                    start_whole (new gxd_later { key, text, src, T }) ;
                }
                return info ;
            }
            info = GrB_SUCCESS ;
        }
        const char *opts [ ] = { T.arch, "-default-device", "-std=c++17",
            GXD_NVRTC_SPLIT } ;
        GXD_GPU_TRY (rtc_compile (&cubin, &size, src, opts, 4, 1, msg)) ;
        GXD_GPU_TRY (load (mod, key, cubin, msg)) ;
        GXD_jit_cache_write (text.c_str ( ), T.tool, ".cu", ".cubin", cubin, size) ;
    }
cleanup:
    free (cubin) ;
    return info ;
}

GrB_Info gxd_nvrtc_function (void **fn, const std::string &src,
    const char *name, const std::string *op, const char *entry, char *msg)
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
    if (modules == NULL)
    {
        modules = new std::map <std::string, CUmodule> ;
        pending = new std::set <std::string> ;
        built = new std::map <std::string, std::pair <void *, size_t> > ;
        failed = new std::set <std::string> ;
        unlinkable = new std::set <std::string> ;
    }
    GrB_Info info = get_module (&mod, src, name, op, msg) ;
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

extern "C" void GXD_gpu_user_set_whole (bool on)
{
    pthread_mutex_lock (&rtc_lock) ;
    whole_only = on ;
    pthread_mutex_unlock (&rtc_lock) ;
}

extern "C" void GXD_gpu_user_tiers (int64_t *linked, int64_t *swaps)
{
    pthread_mutex_lock (&rtc_lock) ;
    wait_pending ( ) ;
    *linked = nlinked ;
    *swaps = nswaps ;
    pthread_mutex_unlock (&rtc_lock) ;
}

// unload every module (GxB_Distance_finalize, through GXD_jit_clear), once
// the whole programs being compiled are done
extern "C" void GXD_gpu_user_clear (void)
{
    pthread_mutex_lock (&rtc_lock) ;
    wait_pending ( ) ;
    if (modules != NULL)
    {
        for (auto &k : *modules) rtc.unload (k.second) ;
        for (auto &k : *built) free (k.second.first) ;
        delete modules ; delete pending ; delete built ; delete failed ;
        delete unlinkable ;
        // (every one NULL: wait_pending, GXD_gpu_user_tiers and the next
        // clear read pending before any call makes them again)
        modules = NULL ; pending = NULL ; built = NULL ; failed = NULL ;
        unlinkable = NULL ;
    }
    pthread_mutex_unlock (&rtc_lock) ;
}
