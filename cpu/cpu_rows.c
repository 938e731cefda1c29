// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// cpu/cpu_rows.c: widen values to double and compute row contexts
//------------------------------------------------------------------------------

// Every pair needs its two rows' norms (gxd_row); computing them once per
// row makes them O(nnz) instead of O(pairs).

#include "cpu_internal.h"

// the context of one row, the metric a constant in each case (the cases
// come from GXD_METRICS): gxd_row_of's switches fold, none runs per entry
#define CONTEXT_CASE(ID) \
    case ID: gxd_row_of (ID, P, r, x, n, k, left) ; break ;
#define CONTEXT_ROW(U, NAME, ...) CONTEXT_CASE (GXD_ ## NAME)

static void row_context (const gxd_plan *P, gxd_row *r, const double *x,
    int64_t n, int64_t k, bool left)
{
    switch (P->metric)
    {
        GXD_METRICS (CONTEXT_ROW, ~)
        CONTEXT_CASE (GXD_GENERIC)
    }
}

GrB_Info GXD_cpu_rows_new (cpu_rows *R, const gxd_plan *P, const gxd_csr *M,
    bool left, char *msg)
{
    memset (R, 0, sizeof (*R)) ;
    int64_t nnz = M->p [M->nrows] ;
    R->nrows = M->nrows ; R->ncols = M->ncols ; R->p = M->p ; R->j = M->j ;
    R->x = GXD_malloc ((nnz > 0 ? nnz : 1) * sizeof (double)) ;
    size_t nr = (M->nrows > 0 ? M->nrows : 1) ;
    R->row = GXD_malloc (nr * sizeof (gxd_row)) ;
    R->n0 = GXD_malloc (nr * sizeof (double)) ; R->n1 = GXD_malloc (nr * sizeof (double)) ;
    R->inv = GXD_malloc (nr * sizeof (double)) ; R->nrm = GXD_malloc (nr * sizeof (double)) ;
    R->mu = GXD_malloc (nr * sizeof (double)) ; R->sc = GXD_malloc (nr * sizeof (double)) ;
    if (R->x == NULL || R->row == NULL || R->n0 == NULL || R->n1 == NULL
        || R->inv == NULL || R->nrm == NULL || R->mu == NULL || R->sc == NULL)
    {
        GXD_cpu_rows_free (R) ;
        return CPU_OOM (msg, "row values") ;
    }
    if (P->fp64 && nnz > 0) memcpy (R->x, M->x, nnz * sizeof (double)) ;
    else
    {
        const float *xf = (const float *) M->x ;
        #pragma omp parallel for schedule(static)
        for (int64_t q = 0 ; q < nnz ; q++) R->x [q] = xf [q] ;
    }
    int64_t k = M->ncols ;
    #pragma omp parallel for schedule(static, 256)
    for (int64_t i = 0 ; i < M->nrows ; i++)
    {
        gxd_row *r = &R->row [i] ;
        row_context (P, r, R->x + M->p [i], M->p [i+1] - M->p [i], k, left) ;
        R->n0 [i] = r->n0 ; R->n1 [i] = r->n1 ; R->inv [i] = r->inv ;
        R->nrm [i] = r->nrm ; R->mu [i] = r->mu ; R->sc [i] = r->sc ;
    }
    return GrB_SUCCESS ;
}

void GXD_cpu_rows_free (cpu_rows *R)
{
    GXD_free (R->x) ; GXD_free (R->row) ;
    GXD_free (R->n0) ; GXD_free (R->n1) ; GXD_free (R->inv) ; GXD_free (R->nrm) ; GXD_free (R->mu) ;
    GXD_free (R->sc) ;
    memset (R, 0, sizeof (*R)) ;
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
