// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// graphblas_ext/gxd_neighbors.c: the product a tile at a time, for selectors
//------------------------------------------------------------------------------

// See gxd_neighbors.h.  A tile is computed by exactly the code that computes
// GxB_mxm_distance (GXD_product: a backend, or SuiteSparse for user
// operators; GXD_intersect for ordinary semirings), on rows extracted from
// A and B, so a neighborhood is what a stable sort of the rows of the full
// product would give.  Only a mask that is not complemented restricts what
// is computed (the sampled product); a complemented one is skipped by the
// selector while it reads the tile.

#include "gxd_neighbors.h"
#include "gxd_cpu.h"
#include "gxd_test_hooks.h"
#include <math.h>
#include <inttypes.h>

// test hook: tiles of at most this many rows / columns (0: sized by memory)
static int64_t forced_rows = 0, forced_cols = 0 ;

void GXD_neighbors_set_tiles (int64_t rows, int64_t cols)
{
    forced_rows = rows > 0 ? rows : 0 ;
    forced_cols = cols > 0 ? cols : 0 ;
}

GrB_Info GXD_neighbors_begin (gxd_neighbors *N, const char *fn, GrB_Matrix C,
    GrB_Matrix Mask, GrB_Semiring dist, GrB_Matrix A, GrB_Matrix B,
    GrB_Descriptor desc)
{
    #define GXD_FREE_ALL ;
    memset (N, 0, sizeof (*N)) ;
    N->fn = fn ;
    GXD_TRY (GXD_desc_read (&N->d, desc)) ;
    GXD_TRY (GXD_check_args (fn, C, Mask, NULL, A, B, &N->d)) ;
    GXD_TRY (GXD_resolve (&N->call, N->fn, dist, desc)) ;
    N->semiring = dist ;
    N->exclude_self = GXD_desc_marked (desc, GXD_DESC_EXCLUDE_SELF) ;
    N->largest = gxd_largest_first (&N->call) ;
    GXD_TRY (GXD_neighbors_type (&N->type, &N->call)) ;
    GXD_TRY (GrB_Matrix_nrows (&N->m, C)) ;
    GXD_TRY (GrB_Matrix_ncols (&N->n, C)) ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

GrB_Info GXD_neighbors_type (GrB_Type *type, const gxd_call *call)
{
    #define GXD_FREE_ALL ;
    GrB_Type t = call->type ;
    if (call->path == GXD_PATH_INTERSECT)
    {
        GrB_BinaryOp addop ;
        GXD_TRY (GxB_Monoid_operator (&addop, call->add)) ;
        GXD_TRY (GxB_BinaryOp_ztype (&t, addop)) ;
    }
    // candidates are ordered in double: other types are typecast to it
    (*type) = (t == GrB_FP32) ? GrB_FP32 : GrB_FP64 ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

// the tile of Mask (Mask itself when that is all of it)
static GrB_Info mask_tile (GrB_Matrix *R, GrB_Matrix Mask, int64_t r0,
    int64_t nr, int64_t c0, int64_t nc, int64_t m, int64_t n)
{
    #define GXD_FREE_ALL GrB_Matrix_free (R) ;
    if (r0 == 0 && nr == m && c0 == 0 && nc == n) { *R = Mask ; return GrB_SUCCESS ; }
    GrB_Type type ;
    GXD_TRY (GxB_Matrix_type (&type, Mask)) ;
    GXD_TRY (GrB_Matrix_new (R, type, nr, nc)) ;
    GrB_Index I [2] = { (GrB_Index) r0, (GrB_Index) (r0 + nr - 1) } ;
    GrB_Index J [2] = { (GrB_Index) c0, (GrB_Index) (c0 + nc - 1) } ;
    GXD_TRY (GrB_Matrix_extract (*R, NULL, NULL, Mask, I, GxB_RANGE, J,
        GxB_RANGE, NULL)) ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

// T = the product of the tile, of N->type
static GrB_Info product (GrB_Matrix *T, const gxd_neighbors *N, GrB_Matrix Mt,
    GrB_Matrix At, GrB_Matrix Bt)
{
    #define GXD_FREE_ALL GrB_Matrix_free (T) ; GrB_Matrix_free (&P) ;
    GrB_Matrix P = NULL ;
    gxd_desc d = N->d ;
    d.tran_a = d.tran_b = false ;
    d.replace = false ;
    if (d.mask_comp) { Mt = NULL ; d.mask_comp = false ; }
    GrB_Index nr, nc ;
    GXD_TRY (GrB_Matrix_nrows (&nr, At)) ;
    GXD_TRY (GrB_Matrix_nrows (&nc, Bt)) ;
    if (N->call.path == GXD_PATH_INTERSECT)
    {
        GXD_TRY (GrB_Matrix_new (&P, N->type, nr, nc)) ;
        GXD_TRY (GXD_intersect (P, Mt, NULL, N->semiring, At, Bt, &d)) ;
    }
    else
    {
        GXD_TRY (GXD_product (&P, &N->call, Mt, At, Bt, &d)) ;
    }
    GrB_Type ptype ;
    GXD_TRY (GxB_Matrix_type (&ptype, P)) ;
    if (ptype == N->type)
    {
        *T = P ;
        return GrB_SUCCESS ;
    }
    GXD_TRY (GrB_Matrix_new (T, N->type, nr, nc)) ;
    GXD_TRY (GrB_Matrix_apply (*T, NULL, NULL, GXD_identity_op (N->type), P,
        NULL)) ;
    GrB_Matrix_free (&P) ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

// hand the tile T to the selector, dense or CSR as T happens to be; T's
// arrays are lent to the selector and packed back (T stays the caller's)
static GrB_Info select_tile (const gxd_selector *sel, gxd_tile *t,
    GrB_Matrix T)
{
    #define GXD_FREE_ALL ;
    int sparsity ;
    bool iso = false ;
    GXD_TRY (GrB_Matrix_wait (T, GrB_MATERIALIZE)) ;
    GXD_TRY (GxB_Matrix_Option_get (T, GxB_SPARSITY_STATUS, &sparsity)) ;
    GXD_TRY (GxB_Matrix_iso (&iso, T)) ;
    GrB_Info info ;
    if (sparsity == GxB_FULL && !iso)
    {
        void *Tx = NULL ;
        GrB_Index size = 0 ;
        GXD_TRY (GxB_Matrix_unpack_FullR (T, &Tx, &size, NULL, NULL)) ;
        t->Tp = t->Tj = NULL ;
        t->Tx = Tx ;
        info = sel->tile (sel->self, t) ;
        if (GxB_Matrix_pack_FullR (T, &Tx, size, false, NULL) != GrB_SUCCESS)
        {
            GXD_free (Tx) ;
        }
    }
    else
    {
        GrB_Index *Tp = NULL, *Tj = NULL, p_size, j_size, x_size ;
        void *Tx = NULL ;
        GXD_TRY (GxB_Matrix_Option_set (T, GxB_FORMAT, GxB_BY_ROW)) ;
        GXD_TRY (GxB_Matrix_Option_set (T, GxB_SPARSITY_CONTROL, GxB_SPARSE)) ;
        GXD_TRY (GxB_Matrix_unpack_CSR (T, &Tp, &Tj, &Tx, &p_size, &j_size,
            &x_size, NULL, NULL, NULL)) ;
        t->Tp = (const int64_t *) Tp ;
        t->Tj = (const int64_t *) Tj ;
        t->Tx = Tx ;
        info = sel->tile (sel->self, t) ;
        if (GxB_Matrix_pack_CSR (T, &Tp, &Tj, &Tx, p_size, j_size, x_size,
            false, false, NULL) != GrB_SUCCESS)
        {
            GXD_free (Tp) ; GXD_free (Tj) ; GXD_free (Tx) ;
        }
    }
    GXD_TRY (info) ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

GrB_Info GXD_neighbors_gpu_rows (bool *ok, gxd_rows *Ar, gxd_rows *Br,
    const gxd_rows **Bq, const gxd_neighbors *N, GrB_Matrix Mask,
    GrB_Matrix A, GrB_Matrix B)
{
    #define GXD_FREE_ALL GXD_rows_free (Ar) ; GXD_rows_free (Br) ;
    *ok = false ;
    if (N->call.path != GXD_PATH_BACKEND || Mask != NULL || GXD_settings.fault
        || !GXD_use_gpu ())
    {
        return GrB_SUCCESS ;
    }
    const gxd_call *call = &N->call ;
    GXD_TRY (GXD_rows_get (Ar, A, false, call->type)) ;
    if (B != A) GXD_TRY (GXD_rows_get (Br, B, false, call->type)) ;
    *Bq = (B == A) ? Ar : Br ;
    GXD_TRY (GXD_rows_check_domain (call, Ar, *Bq)) ;
    *ok = true ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

// rows [r0, r0 + nr) of R as a CSR of their own: p rebased into p_tile,
// columns and values where R has them
static void rows_view (gxd_csr *V, const gxd_csr *R, int64_t r0, int64_t nr,
    int64_t *p_tile, size_t esize)
{
    int64_t base = R->p [r0] ;
    for (int64_t i = 0 ; i <= nr ; i++) p_tile [i] = R->p [r0 + i] - base ;
    V->nrows = nr ;
    V->ncols = R->ncols ;
    V->p = p_tile ;
    V->j = R->j + base ;
    V->x = (const char *) R->x + base * esize ;
}

// a column tile's rows for the selector: its columns from c0; with a
// complemented mask (xp, xj: its pattern, rows of the result from r0), the
// runs of candidates between the row's masked columns, in column order
typedef struct
{
    const gxd_selector *sel ;
    int64_t c0, r0 ;
    const int64_t *xp, *xj ;
    size_t esize ;
}
row_sink ;

static void sink_row (void *self, int64_t i, int64_t c0, int64_t nc,
    const void *x)
{
    const row_sink *rs = self ;
    const int64_t lo = rs->c0 + c0, hi = lo + nc ;
    if (rs->xp == NULL)
    {
        rs->sel->row (rs->sel->self, i, lo, nc, x) ;
        return ;
    }
    // the row's first masked column at or past lo
    const int64_t gi = rs->r0 + i, pend = rs->xp [gi + 1] ;
    int64_t p = rs->xp [gi], q = pend ;
    while (p < q)
    {
        int64_t mid = p + (q - p) / 2 ;
        if (rs->xj [mid] < lo) p = mid + 1 ; else q = mid ;
    }
    int64_t start = lo ;
    for ( ; p < pend && rs->xj [p] < hi ; p++)
    {
        const int64_t c = rs->xj [p] ;
        if (c > start)
        {
            rs->sel->row (rs->sel->self, i, start, c - start,
                (const char *) x + (start - lo) * rs->esize) ;
        }
        start = c + 1 ;
    }
    if (start < hi)
    {
        rs->sel->row (rs->sel->self, i, start, hi - start,
            (const char *) x + (start - lo) * rs->esize) ;
    }
}

// the CPU's selectors take rows as they are computed (run_direct)
static bool rows_direct (const gxd_selector *sel)
{
    return sel->row != NULL && !GXD_use_gpu () && !GXD_settings.fault ;
}

// The common case: a backend's product with no mask (or, on the CPU, a
// complemented one: Skip its pattern), of the result's own type.  A and B
// are read once, a tile is a view of their rows, and every tile's
// distances go into one workspace (a fresh array per tile costs the
// kernel's zeroing of its pages, more than the distances themselves on
// short rows), or, on the CPU, to the selector row by row.  The same
// backend and arithmetic as GXD_product's.
static GrB_Info run_direct (const gxd_neighbors *N, GrB_Matrix A,
    GrB_Matrix B, const gxd_rows *Skip, const gxd_selector *sel,
    int64_t nr_max, int64_t nc_max, int64_t row_bytes)
{
    #define GXD_FREE_ALL GXD_rows_free (&Ar) ; GXD_rows_free (&Br) ;        \
        GXD_free (W) ; GXD_free (ap) ; GXD_free (bp) ;
    gxd_rows Ar = { 0 }, Br = { 0 } ;
    void *W = NULL ;
    int64_t *ap = NULL, *bp = NULL ;
    const gxd_call *call = &N->call ;
    int64_t m = (int64_t) N->m, n = (int64_t) N->n ;
    size_t esize = call->plan.fp64 ? sizeof (double) : sizeof (float) ;
    GXD_TRY (GXD_rows_get (&Ar, A, false, call->type)) ;
    // a self-query: one copy of the rows serves as both
    if (B != A) GXD_TRY (GXD_rows_get (&Br, B, false, call->type)) ;
    const gxd_rows *Bq = (B == A) ? &Ar : &Br ;
    GXD_TRY (GXD_rows_check_domain (call, &Ar, Bq)) ;
    // on the CPU, each row's distances go to the selector as they are
    // computed: no tile of distances at all, so rows of A go in tiles as
    // large as the selector's rows allow, against all of B (the test
    // hook's tiles, where set, so that merging runs on small inputs)
    bool rows_to = rows_direct (sel) ;
    if (rows_to)
    {
        nr_max = GXD_NEIGHBOR_TILE_BYTES / (row_bytes > 0 ? row_bytes : 1) ;
        if (forced_rows > 0) nr_max = forced_rows ;
        nr_max = (nr_max > m) ? m : (nr_max < 1) ? 1 : nr_max ;
        nc_max = (forced_cols > 0 && forced_cols < n) ? forced_cols : (n > 0 ? n : 1) ;
    }
    else
    {
        W = GXD_malloc_result ((size_t) nr_max * nc_max * esize) ;
    }
    ap = GXD_malloc ((nr_max + 1) * sizeof (int64_t)) ;
    bp = GXD_malloc ((nc_max + 1) * sizeof (int64_t)) ;
    if ((W == NULL && !rows_to) || ap == NULL || bp == NULL)
    {
        GXD_FAIL (GrB_OUT_OF_MEMORY, "%s: out of memory for a tile of %"
            PRId64 " x %" PRId64 " distances", N->fn, nr_max, nc_max) ;
    }
    for (int64_t r0 = 0 ; r0 < m ; r0 += nr_max)
    {
        int64_t nr = (m - r0 < nr_max) ? (m - r0) : nr_max ;
        gxd_csr Av, Bv ;
        rows_view (&Av, &Ar.csr, r0, nr, ap, esize) ;
        GXD_TRY (sel->rows_begin (sel->self, r0, nr)) ;
        for (int64_t c0 = 0 ; c0 < n ; c0 += nc_max)
        {
            int64_t nc = (n - c0 < nc_max) ? (n - c0) : nc_max ;
            rows_view (&Bv, &Bq->csr, c0, nc, bp, esize) ;
            if (rows_to)
            {
                row_sink rs = { sel, c0, r0, NULL, NULL, esize } ;
                if (Skip != NULL)
                {
                    rs.xp = Skip->csr.p ;
                    rs.xj = Skip->csr.j ;
                }
                gxd_cpu_sink sink = { &rs, sink_row } ;
                char msg [GXD_MSG_LEN] = "" ;
                GrB_Info info = GXD_cpu_rows_to (&call->plan, &Av, &Bv, &sink, msg) ;
                if (info != GrB_SUCCESS) GXD_FAIL (info, "%s: CPU backend: %s", N->fn, msg) ;
                continue ;
            }
            GXD_TRY (GXD_compute_dense (call, &Av, &Bv, W)) ;
            gxd_tile t = { .r0 = r0, .nr = nr, .c0 = c0, .nc = nc, .Tx = W,
                .fp64 = call->plan.fp64, .exclude_self = N->exclude_self } ;
            GXD_TRY (sel->tile (sel->self, &t)) ;
        }
        GXD_TRY (sel->rows_end (sel->self)) ;
    }
    GXD_FREE_ALL ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

GrB_Info GXD_neighbors_run (const gxd_neighbors *N, GrB_Matrix Mask,
    GrB_Matrix A, GrB_Matrix B, const gxd_selector *sel, int64_t row_bytes)
{
    #define GXD_FREE_ALL                                                    \
        if (At != A) GrB_Matrix_free (&At) ;                                \
        if (Bt != B) GrB_Matrix_free (&Bt) ;                                \
        if (Mt != Mask) GrB_Matrix_free (&Mt) ;                             \
        GrB_Matrix_free (&T) ; GXD_rows_free (&Skip) ;
    GrB_Matrix At = NULL, Bt = NULL, Mt = NULL, T = NULL ;
    gxd_rows Skip = { 0 } ;
    int64_t m = (int64_t) N->m, n = (int64_t) N->n ;
    // tile shape: a row of B's side at most GXD_NEIGHBOR_MAX_COLS wide; as
    // many rows as the workspace holds (distances and the selector's rows)
    int64_t nc_max = (n < GXD_NEIGHBOR_MAX_COLS) ? n : GXD_NEIGHBOR_MAX_COLS ;
    if (forced_cols > 0 && forced_cols < nc_max) nc_max = forced_cols ;
    if (nc_max < 1) nc_max = 1 ;
    int64_t per_row = nc_max * (int64_t) sizeof (double) + row_bytes ;
    int64_t nr_max = GXD_NEIGHBOR_TILE_BYTES / (per_row > 0 ? per_row : 1) ;
    if (forced_rows > 0 && forced_rows < nr_max) nr_max = forced_rows ;
    if (nr_max > m) nr_max = m ;
    if (nr_max < 1) nr_max = 1 ;
    if (N->call.path == GXD_PATH_BACKEND && N->call.type == N->type
        && (Mask == NULL || (N->d.mask_comp && rows_direct (sel))))
    {
        // a complemented mask: its pairs are skipped as the rows go by
        if (Mask != NULL) GXD_TRY (GXD_mask_pattern (&Skip, Mask, N->d.mask_struct)) ;
        GXD_TRY (run_direct (N, A, B, (Mask != NULL) ? &Skip : NULL, sel,
            nr_max, nc_max, row_bytes)) ;
        GXD_FREE_ALL ;
        return GrB_SUCCESS ;
    }
    for (int64_t r0 = 0 ; r0 < m ; r0 += nr_max)
    {
        int64_t nr = (m - r0 < nr_max) ? (m - r0) : nr_max ;
        GXD_TRY (GXD_rows_range (&At, A, r0, nr, m)) ;
        GXD_TRY (sel->rows_begin (sel->self, r0, nr)) ;
        for (int64_t c0 = 0 ; c0 < n ; c0 += nc_max)
        {
            int64_t nc = (n - c0 < nc_max) ? (n - c0) : nc_max ;
            GXD_TRY (GXD_rows_range (&Bt, B, c0, nc, n)) ;
            if (Mask != NULL) GXD_TRY (mask_tile (&Mt, Mask, r0, nr, c0, nc, m, n)) ;
            GXD_TRY (product (&T, N, Mt, At, Bt)) ;
            gxd_tile t = { .r0 = r0, .nr = nr, .c0 = c0, .nc = nc,
                .fp64 = (N->type == GrB_FP64),
                .exclude_self = N->exclude_self } ;
            if (Mask != NULL && N->d.mask_comp)
            {
                GXD_TRY (GXD_mask_pattern (&Skip, Mt, N->d.mask_struct)) ;
                t.skip_p = Skip.csr.p ;
                t.skip_j = Skip.csr.j ;
            }
            GXD_TRY (select_tile (sel, &t, T)) ;
            GrB_Matrix_free (&T) ;
            GXD_rows_free (&Skip) ;
            if (Mt != Mask) GrB_Matrix_free (&Mt) ;
            Mt = NULL ;
            if (Bt != B) GrB_Matrix_free (&Bt) ;
            Bt = NULL ;
        }
        GXD_TRY (sel->rows_end (sel->self)) ;
        if (At != A) GrB_Matrix_free (&At) ;
        At = NULL ;
    }
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

GrB_Info GXD_neighbors_finish (const gxd_neighbors *N, GrB_Matrix C,
    GrB_Matrix Mask, GrB_Matrix *T, GrB_Matrix A, GrB_Matrix B, uint64_t k,
    double eps)
{
    #define GXD_FREE_ALL GrB_Matrix_free (T) ;
    if (GXD_settings.verify)
    {
        GXD_TRY (GXD_verify_neighbors (N, *T, Mask, A, B, k, eps)) ;
    }
    gxd_desc d = N->d ;
    GXD_TRY (GXD_finish (C, Mask, NULL, *T, &d)) ;
    GrB_Matrix_free (T) ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

// the whole of GxB_kNN and GxB_radius_graph after their own checks
GrB_Info GXD_neighbors (const char *fn, GrB_Matrix C, GrB_Matrix Mask,
    GrB_Semiring dist, uint64_t k, double eps, GrB_Matrix A, GrB_Matrix B,
    GrB_Descriptor desc)
{
    #define GXD_FREE_ALL                                                    \
        GrB_Matrix_free (&T) ; GrB_Matrix_free (&M) ;                       \
        if (Ae != A) GrB_Matrix_free (&Ae) ;                                \
        if (Be != B) GrB_Matrix_free (&Be) ;
    GrB_Matrix T = NULL, M = NULL, Ae = A, Be = B ;
    GXD_error_clear () ;
    GXD_CHECK_INIT ;
    if (C == NULL || dist == NULL || A == NULL || B == NULL)
    {
        GXD_FAIL (GrB_NULL_POINTER, "%s: %s is NULL", fn, C == NULL ? "C"
            : dist == NULL ? "dist" : A == NULL ? "A" : "B") ;
    }
    if (k == 0 && isnan (eps)) GXD_FAIL (GrB_INVALID_VALUE, "%s: eps is NaN", fn) ;
    gxd_neighbors N ;
    GXD_TRY (GXD_neighbors_begin (&N, fn, C, Mask, dist, A, B, desc)) ;
    if (N.call.path != GXD_PATH_INTERSECT) GXD_TRY (GXD_union_types (&N.call)) ;
    if (Mask == NULL && N.d.mask_comp)
    {
        // GrB_mxm's rule: the complement of no mask selects no entry
        if (N.d.replace) GXD_TRY (GrB_Matrix_clear (C)) ;
        return GrB_SUCCESS ;
    }
    GXD_TRY (GXD_rows_effective (&Ae, A, N.d.tran_a)) ;
    GXD_TRY (GXD_rows_effective (&Be, B, N.d.tran_b)) ;
    if (Mask != NULL)
    {
        // one reading of the mask for the candidates and the output
        GXD_TRY (GXD_mask_bool (&M, Mask, N.d.mask_struct)) ;
        N.d.mask_struct = true ;
    }
    if (k > 0) GXD_TRY (GXD_knn_select (&T, &N, M, Ae, Be, k))
    else       GXD_TRY (GXD_radius_select (&T, &N, M, Ae, Be, eps))
    GXD_TRY (GXD_neighbors_finish (&N, C, M, &T, Ae, Be, k, eps)) ;
    GXD_FREE_ALL ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}
