// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// graphblas_ext/gxd_compute.c: run a backend and wrap its output as a matrix
//------------------------------------------------------------------------------

// The backend writes a plain array; it becomes a GrB_Matrix without a copy
// (GxB_Matrix_pack_FullR for all pairs, pack_CSR for a mask's pattern).
// The caller's C is not touched here: it changes only in GXD_finish.
// Under GxB_BACKEND_AUTO a GPU failure falls back to the CPU backend (the
// GPU's message is kept in the final one when the CPU fails too).

#include "gxd_internal.h"
#include "gxd_cpu.h"
#ifdef GXD_HAVE_CUDA
#include "gxd_gpu.h"
#endif
#include <stdint.h>
#include <inttypes.h>

bool GXD_use_gpu (void)
{
    GxB_Backend b ;
    GxB_Distance_active_backend (&b) ;
    return b == GxB_BACKEND_GPU ;
}

// run one backend: dense (Mp == NULL) or sampled
static GrB_Info run (bool gpu, const gxd_plan *P, const gxd_csr *A,
    const gxd_csr *B, const int64_t *Mp, const int64_t *Mj, void *Cx,
    char *msg)
{
#ifdef GXD_HAVE_CUDA
    if (gpu)
    {
        // a user's operator is compiled for the GPU by NVRTC: all pairs in
        // GXD_gpu_dense's tiles, a mask's pairs by GXD_gpu_user
        return (Mp == NULL) ? GXD_gpu_dense (P, A, B, Cx, msg)
            : gxd_plan_user (P) ? GXD_gpu_user (P, A, B, Mp, Mj, Cx, msg)
            : GXD_gpu_sampled (P, A, B, Mp, Mj, Cx, msg) ;
    }
#endif
    return (Mp == NULL) ? GXD_cpu_dense (P, A, B, Cx, msg)
        : GXD_cpu_sampled (P, A, B, Mp, Mj, Cx, msg) ;
}

// fn: the API function, for the message
static GrB_Info run_backend (const char *fn, const gxd_plan *P,
    const gxd_csr *A, const gxd_csr *B, const int64_t *Mp, const int64_t *Mj,
    void *Cx)
{
    char msg [GXD_MSG_LEN] = "", gpu_msg [GXD_MSG_LEN] = "" ;
    bool gpu = GXD_use_gpu () ;
    GrB_Info info = run (gpu, P, A, B, Mp, Mj, Cx, msg) ;
    if (info != GrB_SUCCESS && gpu && GXD_settings.backend == GxB_BACKEND_AUTO)
    {
        memcpy (gpu_msg, msg, sizeof (msg)) ;
        msg [0] = '\0' ;
        gpu = false ;
        info = run (false, P, A, B, Mp, Mj, Cx, msg) ;
    }
    if (info != GrB_SUCCESS)
    {
        if (gpu_msg [0] != '\0')
        {
            return GXD_error (info, "%s: CPU backend: %s (after the GPU "
                "backend failed: %s)", fn, msg, gpu_msg) ;
        }
        return GXD_error (info, "%s: %s backend: %s", fn, gpu ? "GPU" : "CPU",
            msg) ;
    }
    return GrB_SUCCESS ;
}

// testing hook: make the first entry wrong (GXD_set_fault_injection)
static void inject_fault (void *Cx, int64_t n, bool fp64)
{
    if (!GXD_settings.fault || n == 0) return ;
    if (fp64) ((double *) Cx) [0] = GXD_fault_value (((double *) Cx) [0]) ;
    else ((float *) Cx) [0] = (float) GXD_fault_value (((float *) Cx) [0]) ;
}

GrB_Info GXD_compute (GrB_Matrix *T, const gxd_call *call, const gxd_rows *A,
    const gxd_rows *B, gxd_rows *M)
{
    #define GXD_FREE_ALL GXD_free (Cx) ; GXD_free (Mp) ; GXD_free (Mj) ; GrB_Matrix_free (T) ;
    void *Cx = NULL ;
    GrB_Index *Mp = NULL, *Mj = NULL ;
    const gxd_plan *P = &call->plan ;
    size_t esize = P->fp64 ? sizeof (double) : sizeof (float) ;
    int64_t m = A->csr.nrows, n = B->csr.nrows ;
    GXD_TRY (GrB_Matrix_new (T, call->type, m, n)) ;
    if (M == NULL)
    {
        if (n > 0 && (uint64_t) m > SIZE_MAX / esize / (uint64_t) n)
        {
            GXD_FAIL (GrB_OUT_OF_MEMORY, "%s: a %" PRId64 " x %" PRId64
                " result does not fit in memory (use a mask)", call->fn, m, n) ;
        }
        size_t size = (size_t) m * n * esize ;
        if (!GXD_memory_fits ((double) size))
        {
            // refused before any work (overcommit would let it start and
            // be killed later)
            GXD_FAIL (GrB_OUT_OF_MEMORY, "%s: the %" PRId64 " x %" PRId64
                " result (%.3g GB) is more than half the physical memory (use "
                "a mask, or GxB_kNN)", call->fn, m, n, size / 1e9) ;
        }
        Cx = GXD_malloc_result (size > 0 ? size : esize) ;
        if (Cx == NULL)
        {
            GXD_FAIL (GrB_OUT_OF_MEMORY, "%s: out of memory for the %" PRId64
                " x %" PRId64 " result", call->fn, m, n) ;
        }
        GXD_TRY (run_backend (call->fn, P, &A->csr, &B->csr, NULL, NULL,
            Cx)) ;
        inject_fault (Cx, m * n, P->fp64) ;
        GXD_TRY (GxB_Matrix_pack_FullR (*T, &Cx, size > 0 ? size : esize,
            false, NULL)) ;
    }
    else
    {
        // the result takes copies of the mask's pattern and the values
        int64_t nz = M->csr.p [m] ;
        size_t psize = (m + 1) * sizeof (GrB_Index) ;
        size_t jsize = (nz > 0 ? nz : 1) * sizeof (GrB_Index) ;
        size_t xsize = (nz > 0 ? nz : 1) * esize ;
        Mp = GXD_malloc (psize) ; Mj = GXD_malloc (jsize) ; Cx = GXD_malloc (xsize) ;
        if (Mp == NULL || Mj == NULL || Cx == NULL)
        {
            GXD_FAIL (GrB_OUT_OF_MEMORY, "%s: out of memory for the masked "
                "result (%" PRId64 " entries)", call->fn, nz) ;
        }
        memcpy (Mp, M->p, psize) ;
        if (nz > 0) memcpy (Mj, M->j, nz * sizeof (GrB_Index)) ;
        GXD_TRY (run_backend (call->fn, P, &A->csr, &B->csr, M->csr.p,
            M->csr.j, Cx)) ;
        inject_fault (Cx, nz, P->fp64) ;
        GXD_TRY (GxB_Matrix_pack_CSR (*T, &Mp, &Mj, &Cx, psize, jsize, xsize,
            false, false, NULL)) ;
    }
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

GrB_Info GXD_compute_dense (const gxd_call *call, const gxd_csr *A,
    const gxd_csr *B, void *Cx)
{
    #define GXD_FREE_ALL ;
    GXD_TRY (run_backend (call->fn, &call->plan, A, B, NULL, NULL, Cx)) ;
    inject_fault (Cx, A->nrows * B->nrows, call->plan.fp64) ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}
