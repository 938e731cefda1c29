//------------------------------------------------------------------------------
// reference/cpu/cpu_rows.c: widen values to double and compute row contexts
//------------------------------------------------------------------------------

// Every pair needs its two rows' norms (gxd_row); computing them once per
// row makes them O(nnz) instead of O(pairs).

#include "cpu_internal.h"

GrB_Info GXD_cpu_rows_new (cpu_rows *R, const gxd_plan *P, const gxd_csr *M,
    bool left, char *msg)
{
    memset (R, 0, sizeof (*R)) ;
    int64_t nnz = M->p [M->nrows] ;
    R->nrows = M->nrows ; R->ncols = M->ncols ; R->p = M->p ; R->j = M->j ;
    R->x = malloc ((nnz > 0 ? nnz : 1) * sizeof (double)) ;
    R->row = malloc ((M->nrows > 0 ? M->nrows : 1) * sizeof (gxd_row)) ;
    if (R->x == NULL || R->row == NULL)
    {
        GXD_cpu_rows_free (R) ;
        return CPU_OOM (msg, "row values") ;
    }
    if (P->fp64) memcpy (R->x, M->x, nnz * sizeof (double)) ;
    else
    {
        const float *xf = (const float *) M->x ;
        #pragma omp parallel for schedule(static)
        for (int64_t q = 0 ; q < nnz ; q++) R->x [q] = xf [q] ;
    }
    gxd_metric_id m = P->metric ;
    int64_t k = M->ncols ;
    #pragma omp parallel for schedule(static, 256)
    for (int64_t i = 0 ; i < M->nrows ; i++)
    {
        gxd_row *r = &R->row [i] ;
        gxd_row_begin (r) ;
        for (int64_t q = M->p [i] ; q < M->p [i+1] ; q++)
        {
            gxd_row_add (m, P, r, R->x [q], left) ;
        }
        gxd_row_mid (m, r, k) ;
        if (gxd_row_needs_pass2 (m))
        {
            for (int64_t q = M->p [i] ; q < M->p [i+1] ; q++)
            {
                gxd_row_add2 (r, R->x [q]) ;
            }
        }
        gxd_row_end (m, r, k) ;
    }
    return GrB_SUCCESS ;
}

void GXD_cpu_rows_free (cpu_rows *R)
{
    free (R->x) ; free (R->row) ;
    R->x = NULL ; R->row = NULL ;
}

GrB_Info GXD_cpu_rows_pair (cpu_rows *A, cpu_rows *B, const gxd_plan *P,
    const gxd_csr *Acsr, const gxd_csr *Bcsr, char *msg)
{
    GrB_Info info = GXD_cpu_rows_new (A, P, Acsr, true, msg) ;
    if (info != GrB_SUCCESS) return info ;
    info = GXD_cpu_rows_new (B, P, Bcsr, false, msg) ;
    if (info != GrB_SUCCESS) GXD_cpu_rows_free (A) ;
    return info ;
}
