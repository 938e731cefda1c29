// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// cuda/gpu_user.cu: GXD_gpu_user, a user's operator compiled for the GPU
//------------------------------------------------------------------------------

// A user's operator given to GxB_BinaryOp_new with its C definition
// (graphblas_ext/gxd_jit.c reads it) is compiled at run time with NVRTC
// into a kernel of its own: one thread per pair (i,j) -- every pair, or a
// mask's -- merges the two sorted rows over the union of their columns,
// the NAMM identity e where one row misses a column, applying (x) and (+),
// then adds f(e,e) for each column missing from both rows.  Exact (no
// cancellation), every monoid, deterministic (one thread, one fixed
// order per pair); the arithmetic is the CPU backend's union pass
// (gxd_ustep/gxd_uend of a GXD_GENERIC plan): (x) in the operator's own
// type, (+) in double, the result rounded once.
//
// NVRTC and the driver API are loaded with dlopen on the first call, so
// the library runs (and builds) where neither is installed: then the call
// fails with GrB_NOT_IMPLEMENTED, and GxB_BACKEND_AUTO takes the CPU.  The
// definition is compiled with -default-device (its functions become device
// functions), for the device's own architecture; the CUBIN is cached in
// the process and on disk (gxd_jit_cache.h), keyed by the whole source,
// the NVRTC version and the architecture.

#include "gpu_internal.cuh"
#include "gxd_jit_cache.h"
#include <cuda.h>
#include <nvrtc.h>
#include <dlfcn.h>
#include <pthread.h>
#include <map>
#include <string>

#ifndef GXD_NVRTC_DIR
#define GXD_NVRTC_DIR ""
#endif

// threads per block of the pair kernel, and blocks at most (grid-stride)
#define GXD_USER_THREADS 256
#define GXD_USER_MAX_BLOCKS (1 << 20)

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
    bool loaded ;
}
gxd_rtc ;

static gxd_rtc rtc ;
static pthread_mutex_t rtc_lock = PTHREAD_MUTEX_INITIALIZER ;
// the kernels compiled in this process, by tool and source
typedef struct { CUmodule mod ; CUfunction fn ; } gxd_kernel ;
static std::map <std::string, gxd_kernel> *kernels = NULL ;

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
        && SYM (hc, unload, "cuModuleUnload") ;
    return rtc.loaded ;
}

//------------------------------------------------------------------------------
// the kernel's source
//------------------------------------------------------------------------------

// @T@ the values' type, @DEFNS@ the user's definitions, @MULT@ and @ADD@
// the bodies of gxd_f and gxd_a, @ID@ (+)'s identity, @FOLD@ the columns
// missing from both rows (c of them, c > 0) folded into s
static const char *kernel_template = R"(
typedef signed char int8_t ;            typedef unsigned char uint8_t ;
typedef short int16_t ;                 typedef unsigned short uint16_t ;
typedef int int32_t ;                   typedef unsigned int uint32_t ;
typedef long long int64_t ;             typedef unsigned long long uint64_t ;
typedef @T@ gxd_T ;
@DEFNS@
__device__ __forceinline__ double gxd_f (double x, double y) { @MULT@ }
__device__ __forceinline__ double gxd_a (double s, double t) { @ADD@ }
extern "C" __global__ void gxd_user_pairs (const long long *Ap,
    const int *Aj, const gxd_T *Ax, const long long *Bp, const int *Bj,
    const gxd_T *Bx, const int *Prow, const int *Pj, long long n,
    long long npairs, long long k, double e, double fee, gxd_T *C)
{
    for (long long q = blockIdx.x * (long long) blockDim.x + threadIdx.x ;
         q < npairs ; q += (long long) gridDim.x * blockDim.x)
    {
        long long i, j ;
        if (Prow == 0) { i = q / n ; j = q - i * n ; }
        else { i = Prow [q] ; j = Pj [q] ; }
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
        C [q] = (gxd_T) s ;
    }
}
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
    char idtext [64] ;
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
        case GXD_OP_MIN:
            add = "return fmin (s, t) ;" ; id = "(1.0/0.0)" ;
            fold = "s = gxd_a (s, fee) ;" ;
            break ;
        case GXD_OP_MAX:
            add = "return fmax (s, t) ;" ; id = "(-1.0/0.0)" ;
            fold = "s = gxd_a (s, fee) ;" ;
            break ;
        case GXD_OP_USER:
            if (strcmp (P->add_src.name, P->mult_src.name != NULL ?
                P->mult_src.name : "") != 0)
            {
                defns += std::string (P->add_src.defn) + "\n" ;
            }
            add = user_call (P->add_src.name, "s", "t") ;
            snprintf (idtext, sizeof (idtext), "%.17g", P->add_identity) ;
            id = isinf (P->add_identity) ? (P->add_identity > 0 ? "(1.0/0.0)"
                : "(-1.0/0.0)") : idtext ;
            // c copies of fee, by repeated squaring (as gxd_add_repeat)
            fold = "double t = fee ; while (c > 0) { if (c & 1) s = gxd_a "
                "(s, t) ; c >>= 1 ; if (c > 0) t = gxd_a (t, t) ; }" ;
            break ;
        default:
            return false ;
    }
    src = kernel_template ;
    replace_all (src, "@T@", P->fp64 ? "double" : "float") ;
    replace_all (src, "@MULT@", mult) ;
    replace_all (src, "@ADD@", add) ;
    replace_all (src, "@ID@", id) ;
    replace_all (src, "@FOLD@", fold) ;
    // the user's text last: it may hold anything, "@" included
    replace_all (src, "@DEFNS@", defns) ;
    return true ;
}

//------------------------------------------------------------------------------
// compiling
//------------------------------------------------------------------------------

// the kernel for src on the current device: from the process, the disk or
// NVRTC (under rtc_lock)
static GrB_Info get_kernel (CUfunction *fn, const std::string &src,
    char *msg)
{
    GrB_Info info = GrB_SUCCESS ;
    int dev = 0, major = 0, minor = 0, vmaj = 0, vmin = 0 ;
    char arch [64], tool [128] ;
    nvrtcProgram prog = NULL ;
    void *cubin = NULL ;
    size_t size = 0 ;
    CUmodule mod ;
    GXD_CUDA_TRY (cudaFree (0)) ;           // the primary context, current
    GXD_CUDA_TRY (cudaGetDevice (&dev)) ;
    GXD_CUDA_TRY (cudaDeviceGetAttribute (&major, cudaDevAttrComputeCapabilityMajor, dev)) ;
    GXD_CUDA_TRY (cudaDeviceGetAttribute (&minor, cudaDevAttrComputeCapabilityMinor, dev)) ;
    rtc.version (&vmaj, &vmin) ;
    snprintf (arch, sizeof (arch), "--gpu-architecture=sm_%d%d", major, minor) ;
    snprintf (tool, sizeof (tool), "nvrtc %d.%d sm_%d%d", vmaj, vmin, major, minor) ;
    {
        std::string key = std::string (tool) + "\n" + src ;
        if (kernels == NULL) kernels = new std::map <std::string, gxd_kernel> ;
        auto hit = kernels->find (key) ;
        if (hit != kernels->end ( )) { *fn = hit->second.fn ; return GrB_SUCCESS ; }
        cubin = GXD_jit_cache_read (src.c_str ( ), tool, ".cu", ".cubin", &size) ;
        bool from_disk = (cubin != NULL) ;
        if (!from_disk)
        {
            const char *opts [ ] = { arch, "-default-device", "-std=c++17" } ;
            if (rtc.create (&prog, src.c_str ( ), "gxd_user.cu", 0, NULL, NULL)
                != NVRTC_SUCCESS)
            {
                info = gxd_fail (GrB_OUT_OF_MEMORY, msg, "NVRTC: cannot create a program") ;
                goto cleanup ;
            }
            if (rtc.compile (prog, 3, opts) != NVRTC_SUCCESS)
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
        if (rtc.load (&mod, cubin) != CUDA_SUCCESS
            || rtc.get_function (fn, mod, "gxd_user_pairs") != CUDA_SUCCESS)
        {
            info = gxd_fail (GrB_PANIC, msg, "the compiled user operator "
                "does not load") ;
            goto cleanup ;
        }
        if (!from_disk)
        {
            GXD_jit_cache_write (src.c_str ( ), tool, ".cu", ".cubin", cubin, size) ;
        }
        (*kernels) [key] = gxd_kernel { mod, *fn } ;
    }
cleanup:
    if (prog != NULL) rtc.destroy (&prog) ;
    free (cubin) ;
    return info ;
}

//------------------------------------------------------------------------------
// GXD_gpu_user
//------------------------------------------------------------------------------

extern "C" GrB_Info GXD_gpu_user (const gxd_plan *P, const gxd_csr *A,
    const gxd_csr *B, const int64_t *Mp, const int64_t *Mj, void *Cx,
    char *msg)
{
    GrB_Info info = GrB_SUCCESS ;
    const int64_t m = A->nrows, n = B->nrows, k = A->ncols ;
    const int64_t npairs = (Mp != NULL) ? Mp [m] : m * n ;
    const size_t tsize = P->fp64 ? sizeof (double) : sizeof (float) ;
    gxd_dcsr dA, dB, dM ;
    gxd_csr mask ;
    void *dC = NULL ;
    cudaStream_t s = NULL ;
    CUfunction fn ;
    std::string src ;
    double e = P->identity, fee ;
    const int *Prow = NULL, *Pj = NULL ;
    memset (&dA, 0, sizeof (dA)) ; memset (&dB, 0, sizeof (dB)) ;
    memset (&dM, 0, sizeof (dM)) ;
    if (!kernel_source (src, P))
    {
        return gxd_fail (GrB_INVALID_VALUE, msg, "no GPU code for this plan") ;
    }
    pthread_mutex_lock (&rtc_lock) ;
    if (!rtc_load ( ))
    {
        pthread_mutex_unlock (&rtc_lock) ;
        return gxd_fail (GrB_NOT_IMPLEMENTED, msg, "user operators on the "
            "GPU need NVRTC and the CUDA driver (libnvrtc, libcuda), not "
            "found") ;
    }
    info = get_kernel (&fn, src, msg) ;
    pthread_mutex_unlock (&rtc_lock) ;
    if (info != GrB_SUCCESS) return info ;
    if (npairs == 0) return GrB_SUCCESS ;
    // f(e,e), as the CPU computes it (the compiled host function)
    fee = gxd_mult (P, e, e) ;
    GXD_CUDA_TRY (cudaStreamCreateWithFlags (&s, cudaStreamNonBlocking)) ;
    GXD_GPU_TRY (gxd_upload_csr (A, P->fp64, false, &dA, s, msg)) ;
    GXD_GPU_TRY (gxd_upload_csr (B, P->fp64, false, &dB, s, msg)) ;
    if (Mp != NULL)
    {
        // the mask as a pattern: each entry's row, and its column (a row
        // of B), as int32 like every column (gpu_sampled.cu does the same)
        mask.nrows = m ; mask.ncols = n ; mask.p = Mp ; mask.j = Mj ;
        mask.x = Mj ;
        GXD_GPU_TRY (gxd_upload_csr (&mask, true, true, &dM, s, msg)) ;
        Prow = dM.row ;
        Pj = dM.j ;
    }
    GXD_CUDA_TRY (cudaMalloc (&dC, npairs * tsize)) ;
    {
        long long n_ = n, np_ = npairs, k_ = k ;
        void *args [ ] = { &dA.p, &dA.j, &dA.x, &dB.p, &dB.j, &dB.x,
            (void *) &Prow, (void *) &Pj, &n_, &np_, &k_, &e, &fee, &dC } ;
        int64_t nb = (npairs + GXD_USER_THREADS - 1) / GXD_USER_THREADS ;
        if (nb > GXD_USER_MAX_BLOCKS) nb = GXD_USER_MAX_BLOCKS ;
        if (rtc.launch (fn, (unsigned) nb, 1, 1, GXD_USER_THREADS, 1, 1, 0,
            (CUstream) s, args, NULL) != CUDA_SUCCESS)
        {
            info = gxd_fail (GrB_PANIC, msg, "the user operator's kernel "
                "did not launch") ;
            goto cleanup ;
        }
    }
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

// unload every kernel (GxB_Distance_finalize, through GXD_jit_clear)
extern "C" void GXD_gpu_user_clear (void)
{
    pthread_mutex_lock (&rtc_lock) ;
    if (kernels != NULL)
    {
        for (auto &k : *kernels) rtc.unload (k.second.mod) ;
        delete kernels ;
        kernels = NULL ;
    }
    pthread_mutex_unlock (&rtc_lock) ;
}
