// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// cuda/gpu_sampled.cu: GXD_gpu_sampled, distances along a mask's pattern
//------------------------------------------------------------------------------

// A mask (a graph's edges, a k-NN candidate list) asks for few pairs
// scattered over C; the dense strategies would compute everything.  One
// thread per masked pair merges the two sorted rows over their union
// (gxd_union_merge: exact, every metric, no cancellation) -- seed 001
// Algorithm 2 restricted to the mask.  Work is sum over masked pairs of
// deg(a) + deg(b); the mask and output are O(nnz(M)).

#include "gpu_internal.cuh"

template <int M, typename T>
__global__ void k_sampled (gxd_plan P, const int64_t *Ap, const int32_t *Aj,
    const T *Ax, gxd_drows RA, const int64_t *Bp, const int32_t *Bj,
    const T *Bx, gxd_drows RB, const int32_t *Mrow, const int32_t *Mj,
    int64_t nq, int64_t k, T *Cx)
{
    int64_t q = blockIdx.x * (int64_t) blockDim.x + threadIdx.x ;
    if (q >= nq) return ;
    int64_t i = Mrow [q], j = Mj [q] ;
    gxd_row ra = gxd_load_row (RA, i), rb = gxd_load_row (RB, j) ;
    double d = gxd_union_merge<M, T> (P, Aj + Ap [i], Ax + Ap [i],
        Ap [i+1] - Ap [i], Bj + Bp [j], Bx + Bp [j], Bp [j+1] - Bp [j],
        ra, rb, k) ;
    Cx [q] = (T) gxd_sanitize<M> (d) ;
}

template <int M, typename T>
static GrB_Info launch_sampled (const gxd_plan *P, const gxd_dcsr *A,
    const gxd_dcsr *B, const gxd_drows *RA, const gxd_drows *RB,
    const int32_t *Mrow, const int32_t *Mj, int64_t nq, void *Cx,
    cudaStream_t s, char *msg)
{
    GrB_Info info = GrB_SUCCESS ;
    int64_t nb = (nq + 255) / 256 ;
    if (nq > 0)
    {
        k_sampled<M, T> <<<(unsigned) nb, 256, 0, s>>> (*P, A->p, A->j,
            (const T *) A->x, *RA, B->p, B->j, (const T *) B->x, *RB, Mrow, Mj,
            nq, A->ncols, (T *) Cx) ;
        GXD_LAUNCH_CHECK () ;
    }
cleanup:
    return info ;
}

// launch_sampled for the plan's metric and type
static GrB_Info dispatch_sampled (const gxd_plan *P, const gxd_dcsr *A,
    const gxd_dcsr *B, const gxd_drows *RA, const gxd_drows *RB,
    const int32_t *Mrow, const int32_t *Mj, int64_t nq, void *Cx,
    cudaStream_t s, char *msg)
{
    GXD_DISPATCH (P, launch_sampled, P, A, B, RA, RB, Mrow, Mj, nq, Cx, s, msg) ;
    return gxd_fail (GrB_INVALID_VALUE, msg, "unknown metric in plan") ;
}

extern "C" GrB_Info GXD_gpu_sampled (const gxd_plan *P, const gxd_csr *A,
    const gxd_csr *B, const int64_t *Mp, const int64_t *Mj, void *Cx,
    char *msg)
{
    GrB_Info info = GrB_SUCCESS ;
    const int64_t m = A->nrows, nq = Mp [m] ;
    const size_t tsize = P->fp64 ? sizeof (double) : sizeof (float) ;
    gxd_dcsr dA, dB ;
    gxd_drows RA, RB ;
    gxd_csr mask ;
    gxd_dcsr dM ;
    void *dCx = NULL ;
    cudaStream_t s = NULL ;
    memset (&dA, 0, sizeof (dA)) ; memset (&dB, 0, sizeof (dB)) ;
    memset (&dM, 0, sizeof (dM)) ;
    memset (&RA, 0, sizeof (RA)) ; memset (&RB, 0, sizeof (RB)) ;
    if (nq == 0) return GrB_SUCCESS ;
    GXD_CUDA_TRY (cudaStreamCreateWithFlags (&s, cudaStreamNonBlocking)) ;
    GXD_GPU_TRY (gxd_upload_csr (A, P->fp64, false, &dA, s, msg)) ;
    GXD_GPU_TRY (gxd_upload_csr (B, P->fp64, false, &dB, s, msg)) ;
    GXD_GPU_TRY (gxd_row_contexts (P, &dA, true, &RA, s, msg)) ;
    GXD_GPU_TRY (gxd_row_contexts (P, &dB, false, &RB, s, msg)) ;
    // the mask as a pattern: its row pointers give each entry's row, its
    // columns (rows of B) are narrowed to int32 like every column
    mask.nrows = m ; mask.ncols = B->nrows ; mask.p = Mp ; mask.j = Mj ;
    mask.x = Mj ;   // values unused; an int64 array of the right length
    GXD_GPU_TRY (gxd_upload_csr (&mask, true, true, &dM, s, msg)) ;
    GXD_CUDA_TRY (cudaMalloc (&dCx, nq * tsize)) ;
    GXD_GPU_TRY (dispatch_sampled (P, &dA, &dB, &RA, &RB, dM.row, dM.j, nq, dCx, s, msg)) ;
    GXD_CUDA_TRY (cudaMemcpyAsync (Cx, dCx, nq * tsize, cudaMemcpyDeviceToHost, s)) ;
    GXD_CUDA_TRY (cudaStreamSynchronize (s)) ;
cleanup:
    if (s) cudaStreamSynchronize (s) ;
    gxd_free_csr (&dA) ; gxd_free_csr (&dB) ; gxd_free_csr (&dM) ;
    gxd_free_rows (&RA) ; gxd_free_rows (&RB) ;
    cudaFree (dCx) ;
    if (s) cudaStreamDestroy (s) ;
    return info ;
}
