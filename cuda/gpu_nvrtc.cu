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

#include "gpu_nvrtc.h"
#include "gxd_jit_cache.h"
#include "gpu_nvrtc_headers.h"
#include <cuda.h>
#include <nvrtc.h>
#include <dlfcn.h>
#include <pthread.h>
#include <map>

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

static gxd_rtc rtc ;
static pthread_mutex_t rtc_lock = PTHREAD_MUTEX_INITIALIZER ;
// the modules compiled or loaded in this process, by tool and source
static std::map <std::string, CUmodule> *modules = NULL ;

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

// the module of src on the current device: from the process, the disk or
// NVRTC (under rtc_lock)
static GrB_Info get_module (CUmodule *mod, const std::string &src, char *msg)
{
    GrB_Info info = GrB_SUCCESS ;
    int dev = 0, major = 0, minor = 0, vmaj = 0, vmin = 0 ;
    char arch [64], tool [128] ;
    nvrtcProgram prog = NULL ;
    void *cubin = NULL ;
    size_t size = 0 ;
    GXD_CUDA_TRY (cudaFree (0)) ;           // the primary context, current
    GXD_CUDA_TRY (cudaGetDevice (&dev)) ;
    GXD_CUDA_TRY (cudaDeviceGetAttribute (&major, cudaDevAttrComputeCapabilityMajor, dev)) ;
    GXD_CUDA_TRY (cudaDeviceGetAttribute (&minor, cudaDevAttrComputeCapabilityMinor, dev)) ;
    rtc.version (&vmaj, &vmin) ;
    snprintf (arch, sizeof (arch), "--gpu-architecture=sm_%d%d", major, minor) ;
    snprintf (tool, sizeof (tool), "nvrtc %d.%d sm_%d%d", vmaj, vmin, major, minor) ;
    {
        const std::string text = compiled_text (src) ;
        std::string key = std::string (tool) + "\n" + text ;
        if (modules == NULL) modules = new std::map <std::string, CUmodule> ;
        auto hit = modules->find (key) ;
        if (hit != modules->end ( )) { *mod = hit->second ; return GrB_SUCCESS ; }
        cubin = GXD_jit_cache_read (text.c_str ( ), tool, ".cu", ".cubin", &size) ;
        bool from_disk = (cubin != NULL) ;
        if (!from_disk)
        {
            const char *opts [ ] = { arch, "-default-device", "-std=c++17",
                GXD_NVRTC_SPLIT } ;
            nvrtcResult done = NVRTC_ERROR_INVALID_OPTION ;
            // (an NVRTC older than the option compiles without it)
            for (int nopts = 4 ; nopts >= 3 && done == NVRTC_ERROR_INVALID_OPTION ; nopts--)
            {
                if (prog != NULL) rtc.destroy (&prog) ;
                if (rtc.create (&prog, src.c_str ( ), "gxd_user.cu", NHEADERS,
                    header_texts, header_names)
                    != NVRTC_SUCCESS)
                {
                    info = gxd_fail (GrB_OUT_OF_MEMORY, msg, "NVRTC: cannot create a program") ;
                    goto cleanup ;
                }
                done = rtc.compile (prog, nopts, opts) ;
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
            if (rtc.cubin_size (prog, &size) != NVRTC_SUCCESS
                || (cubin = malloc (size)) == NULL
                || rtc.cubin (prog, (char *) cubin) != NVRTC_SUCCESS)
            {
                info = gxd_fail (GrB_OUT_OF_MEMORY, msg, "NVRTC: no CUBIN") ;
                goto cleanup ;
            }
        }
        if (rtc.load (mod, cubin) != CUDA_SUCCESS)
        {
            info = gxd_fail (GrB_PANIC, msg, "the compiled user operator "
                "does not load") ;
            goto cleanup ;
        }
        if (!from_disk)
        {
            GXD_jit_cache_write (text.c_str ( ), tool, ".cu", ".cubin", cubin, size) ;
        }
        (*modules) [key] = *mod ;
    }
cleanup:
    if (prog != NULL) rtc.destroy (&prog) ;
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

// unload every module (GxB_Distance_finalize, through GXD_jit_clear)
extern "C" void GXD_gpu_user_clear (void)
{
    pthread_mutex_lock (&rtc_lock) ;
    if (modules != NULL)
    {
        for (auto &k : *modules) rtc.unload (k.second) ;
        delete modules ;
        modules = NULL ;
    }
    pthread_mutex_unlock (&rtc_lock) ;
}
