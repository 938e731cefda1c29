// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// graphblas_ext/gxd_neighbors.h: neighborhoods over tiles of the product
//------------------------------------------------------------------------------

// GxB_kNN and GxB_radius_graph never hold the m-by-n distance matrix: the
// driver (gxd_neighbors.c) computes it a tile at a time, rows of A by rows
// of B, with the same product GxB_mxm_distance uses (any backend, any
// path), and hands each tile to a selector: the k best per row
// (gxd_knn_select.c) or every pair within a radius (gxd_radius_select.c).
// Column tiles of a row tile come in increasing column order, so a
// selector that keeps the first of equal candidates breaks ties by the
// smaller column index.

#ifndef GXD_NEIGHBORS_H
#define GXD_NEIGHBORS_H

#include "gxd_internal.h"

// Workspace of one tile of distances (computed in the result's type, read
// as double), and the widest column tile: bounded so that memory is the
// inputs, O(m*k) and this, whatever m and n.
#define GXD_NEIGHBOR_TILE_BYTES ((int64_t) 256 << 20)
#define GXD_NEIGHBOR_MAX_COLS   ((int64_t) 65536)
// a tile of fewer candidates is selected by one thread: waking a team
// costs more than the work
#define GXD_PARALLEL_MIN        ((int64_t) 16384)

// one tile of candidate distances: rows r0 .. r0+nr-1 of A, columns (rows
// of B) c0 .. c0+nc-1; dense row-major (Tp == NULL) or CSR with sorted
// columns; values float or double.  skip_p/skip_j: a complemented mask's
// pattern in tile coordinates (pairs that are not candidates), or NULL.
typedef struct
{
    int64_t r0, nr, c0, nc ;
    const int64_t *Tp, *Tj ;
    const void *Tx ;
    bool fp64 ;
    const int64_t *skip_p, *skip_j ;
    bool exclude_self ;     // pairs with r0+i == c0+j are not candidates
}
gxd_tile ;

// the value of entry q of a tile
static inline double gxd_tile_value (const gxd_tile *t, int64_t q)
{
    return t->fp64 ? ((const double *) t->Tx) [q] : ((const float *) t->Tx) [q] ;
}

// row i of a tile: entries q0 .. q1-1, and the cursor s .. s_end of the
// complemented mask's columns of the row
typedef struct { int64_t q0, q1, s, s_end ; } gxd_tile_row ;

static inline gxd_tile_row gxd_tile_row_of (const gxd_tile *t, int64_t i)
{
    gxd_tile_row r ;
    r.q0 = (t->Tp == NULL) ? i * t->nc : t->Tp [i] ;
    r.q1 = (t->Tp == NULL) ? r.q0 + t->nc : t->Tp [i+1] ;
    r.s = (t->skip_p == NULL) ? 0 : t->skip_p [i] ;
    r.s_end = (t->skip_p == NULL) ? 0 : t->skip_p [i+1] ;
    return r ;
}

// the tile column of entry q of the row
static inline int64_t gxd_tile_col (const gxd_tile *t, const gxd_tile_row *r,
    int64_t q)
{
    return (t->Tp == NULL) ? q - r->q0 : t->Tj [q] ;
}

// whether (i, j) is a candidate (entries come in increasing j, so the
// mask's cursor only moves forward)
static inline bool gxd_tile_candidate (const gxd_tile *t, gxd_tile_row *r,
    int64_t i, int64_t j)
{
    if (t->exclude_self && t->c0 + j == t->r0 + i) return false ;
    while (r->s < r->s_end && t->skip_j [r->s] < j) r->s++ ;
    return !(r->s < r->s_end && t->skip_j [r->s] == j) ;
}

// what a selector does with the tiles; row (NULL if the selector has no
// such use) takes one row's distances as the CPU backend computes them
// (gxd_cpu.h, GXD_cpu_rows_to): row r0+i against rows c0 .. c0+nc-1 of B,
// values of the plan's type, rows in any order and from several threads,
// the pieces of one row in increasing c0
typedef struct
{
    void *self ;
    GrB_Info (*rows_begin) (void *self, int64_t r0, int64_t nr) ;
    GrB_Info (*tile) (void *self, const gxd_tile *t) ;
    GrB_Info (*rows_end) (void *self) ;
    void (*row) (void *self, int64_t i, int64_t c0, int64_t nc, const void *x) ;
}
gxd_selector ;

// the order of candidates: "a before b" (smaller distance, or larger for a
// similarity; NaN last); equal values keep their column order
static inline bool gxd_better (double a, double b, bool largest)
{
    if (a != a) return false ;
    if (b != b) return true ;
    return largest ? (a > b) : (a < b) ;
}

// a similarity (DOT): its neighbors are the largest values
static inline bool gxd_largest_first (const gxd_call *call)
{
    return call->path == GXD_PATH_BACKEND && call->plan.metric == GXD_DOT ;
}

// what a neighborhood call resolved to
typedef struct
{
    const char *fn ;            // "GxB_kNN" or "GxB_radius_graph"
    gxd_call call ;
    GrB_Semiring semiring ;     // for the intersection path
    gxd_desc d ;
    bool exclude_self ;
    bool largest ;              // a similarity (DOT): largest first
    GrB_Type type ;             // of the result
    GrB_Index m, n ;
}
gxd_neighbors ;

// the type of a neighborhood's values: FP32 for FP32 products, else FP64
GrB_Info GXD_neighbors_type (GrB_Type *type, const gxd_call *call) ;

// checks and resolution shared by GxB_kNN and GxB_radius_graph
GrB_Info GXD_neighbors_begin (gxd_neighbors *N, const char *fn, GrB_Matrix C,
    GrB_Matrix Mask, GrB_Semiring dist, GrB_Matrix A, GrB_Matrix B,
    GrB_Descriptor desc) ;

// run the tiles of N's product through sel (rows of A, rows of B: the
// descriptor's transposes already applied by the driver)
GrB_Info GXD_neighbors_run (const gxd_neighbors *N, GrB_Matrix Mask,
    GrB_Matrix A, GrB_Matrix B, const gxd_selector *sel, int64_t row_bytes) ;

// whether the whole query may run on the GPU with the selection on the
// device (cuda/gpu_knn.cu, gpu_radius.cu): an unmasked product of built-in
// operators on the backend path, the GPU in use.  If so (*ok), Ar and *Bq
// hold A's and B's rows, checked as the backends check them: *Bq is Br, or
// Ar itself where B is A (a self-query: its rows copied and uploaded once)
GrB_Info GXD_neighbors_gpu_rows (bool *ok, gxd_rows *Ar, gxd_rows *Br,
    const gxd_rows **Bq, const gxd_neighbors *N, GrB_Matrix Mask,
    GrB_Matrix A, GrB_Matrix B) ;

// the selectors: each builds the m-by-n CSR result T (of N->type)
GrB_Info GXD_knn_select (GrB_Matrix *T, const gxd_neighbors *N,
    GrB_Matrix Mask, GrB_Matrix A, GrB_Matrix B, uint64_t k) ;
GrB_Info GXD_radius_select (GrB_Matrix *T, const gxd_neighbors *N,
    GrB_Matrix Mask, GrB_Matrix A, GrB_Matrix B, double eps) ;

// verify mode: sampled rows of T against the reference's brute force
// (k = 0: a radius graph of radius eps)
GrB_Info GXD_verify_neighbors (const gxd_neighbors *N, GrB_Matrix T,
    GrB_Matrix Mask, GrB_Matrix A, GrB_Matrix B, uint64_t k, double eps) ;

// the whole of GxB_kNN (k > 0) and GxB_radius_graph (k = 0)
GrB_Info GXD_neighbors (const char *fn, GrB_Matrix C, GrB_Matrix Mask,
    GrB_Semiring dist, uint64_t k, double eps, GrB_Matrix A, GrB_Matrix B,
    GrB_Descriptor desc) ;

// C<Mask> = T and free T: the end of both calls
GrB_Info GXD_neighbors_finish (const gxd_neighbors *N, GrB_Matrix C,
    GrB_Matrix Mask, GrB_Matrix *T, GrB_Matrix A, GrB_Matrix B, uint64_t k,
    double eps) ;

#endif
