// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// mpi/gxm_internal.h: the pieces of GxB_kNN_MPI and their error idiom
//------------------------------------------------------------------------------

// libgxbdist_mpi uses only the public API of gxbdist and GraphBLAS.  Its
// error idiom is gxbdist's (graphblas_ext/gxd_internal.h): a function
// defines GXM_FREE_ALL, every call that can fail goes through GXM_TRY, and
// messages reach GxB_Distance_error through GxB_Distance_set_error.

#ifndef GXM_INTERNAL_H
#define GXM_INTERNAL_H

#include "gxbdist_mpi.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//------------------------------------------------------------------------------
// errors
//------------------------------------------------------------------------------

// the longest message kept (as gxbdist's own)
#define GXM_MSG_LEN 1024

// record a message for info and return info
GrB_Info GXM_error (GrB_Info info, const char *fmt, ...)
    __attribute__ ((format (printf, 2, 3))) ;
// a failed call that left no message gets one naming the call
GrB_Info GXM_error_call (GrB_Info info, const char *call) ;

#define GXM_TRY(call)                                                       \
{                                                                           \
    GrB_Info gxm_info_ = (call) ;                                           \
    if (gxm_info_ < GrB_SUCCESS)                                            \
    {                                                                       \
        GXM_error_call (gxm_info_, #call) ;                                 \
        GXM_FREE_ALL ;                                                      \
        return (gxm_info_) ;                                                \
    }                                                                       \
}

#define GXM_FAIL(info, ...)                                                 \
{                                                                           \
    GrB_Info gxm_fail_ = GXM_error ((info), __VA_ARGS__) ;                  \
    GXM_FREE_ALL ;                                                          \
    return (gxm_fail_) ;                                                    \
}

//------------------------------------------------------------------------------
// what the ranks agree on before the ring starts (gxm_agree.c)
//------------------------------------------------------------------------------

// one rank's facts, gathered by every rank
typedef struct
{
    int64_t info ;          // GrB_SUCCESS, or this rank's own failure
    int64_t m ;             // rows of A (after desc's transpose)
    int64_t a_cols ;
    int64_t n ;             // rows of B
    int64_t b_cols ;
    int64_t b_nnz ;
    int64_t c_cols ;        // C_local's columns
    uint64_t k ;
    uint64_t dist_key ;     // hash of GxB_Distance_describe's key
    uint64_t desc_key ;     // transposes, exclude self
    uint64_t a_type, b_type ;   // hashes of the type names
}
gxm_facts ;

#define GXM_NFACTS (sizeof (gxm_facts) / sizeof (int64_t))

// the whole call as every rank sees it
typedef struct
{
    MPI_Comm comm ;
    int rank, nranks ;
    gxm_facts *all ;        // nranks facts
    int64_t *a_off ;        // nranks + 1: global first row of A per rank
    int64_t *b_off ;        // nranks + 1: the same for B
    bool largest ;          // nearest = largest (DOT)
    bool exclude_self ;
    GrB_Type result ;       // GxB_kNN's result type (FP32 or FP64)
}
gxm_call ;

// gather every rank's facts (me: this rank's, me->info its local checks)
// and decide, identically on every rank, whether the call may go on
GrB_Info GXM_agree_start (gxm_call *G, const gxm_facts *me) ;
// every rank's info after a step: the first failing rank's code, or
// success; mine = this rank's result of the step
GrB_Info GXM_agree_step (const gxm_call *G, GrB_Info mine, const char *what) ;
void GXM_call_free (gxm_call *G) ;

// FNV-1a: a hash of a text, equal in every process
uint64_t GXM_hash (const char *s, uint64_t h) ;

//------------------------------------------------------------------------------
// blocks of B in CSR, as they travel (gxm_block.c)
//------------------------------------------------------------------------------

typedef struct
{
    int64_t nrows, ncols, nnz ;
    int64_t cap_rows, cap_nnz ;     // the room of the arrays
    uint64_t *p ;           // nrows + 1
    uint64_t *j ;           // nnz
    void *x ;               // nnz values of the type's size
    size_t xsize ;
    GrB_Type type ;
}
gxm_block ;

// B's values travel in B's type: one of the real built-in types
bool GXM_block_type_ok (GrB_Type type) ;
// room for blocks of up to cap_rows rows and cap_nnz entries
GrB_Info GXM_block_alloc (gxm_block *b, int64_t cap_rows, int64_t ncols,
    int64_t cap_nnz, GrB_Type type) ;
// the block about to be received has nrows rows and nnz entries
void GXM_block_shape (gxm_block *b, int64_t nrows, int64_t nnz) ;
void GXM_block_free (gxm_block *b) ;
// *R = A, or when tran a new transpose of A, nrows-by-ncols (free it if
// *R != A)
GrB_Info GXM_rows (GrB_Matrix *R, GrB_Matrix A, bool tran, int64_t nrows,
    int64_t ncols) ;
// b = the nrows rows of B (of B' when tran), a copy
GrB_Info GXM_block_from (gxm_block *b, GrB_Matrix B, bool tran,
    int64_t nrows) ;
// a new GraphBLAS matrix holding a copy of b
GrB_Info GXM_block_matrix (GrB_Matrix *M, const gxm_block *b) ;
// post the sends of b to rank dest / the receives into b (sized) from
// rank src; req gets GXM_block_nreq (b) requests
int GXM_block_nreq (const gxm_block *b) ;
GrB_Info GXM_block_isend (const gxm_block *b, int dest, MPI_Comm comm,
    MPI_Request *req) ;
GrB_Info GXM_block_irecv (gxm_block *b, int src, MPI_Comm comm,
    MPI_Request *req) ;

//------------------------------------------------------------------------------
// the k best candidates of each row, over the blocks (gxm_merge.c)
//------------------------------------------------------------------------------

typedef struct { double d ; int64_t j ; } gxm_cand ;

typedef struct
{
    int64_t m, k ;
    bool largest ;
    gxm_cand *c ;           // m * k, each row in the final order
    int64_t *count ;        // m: candidates kept per row
}
gxm_best ;

GrB_Info GXM_best_alloc (gxm_best *B, int64_t m, uint64_t k, bool largest) ;
void GXM_best_free (gxm_best *B) ;
// merge the neighbors in Cb (the rank's rows of A by a block of B whose
// first global row is b0) into B; with exclude_self, global row a0 + i of
// B is no candidate of row i (a0: the rank's first global row of A)
GrB_Info GXM_best_merge (gxm_best *B, GrB_Matrix Cb, int64_t b0, int64_t a0,
    bool exclude_self) ;
// T (m-by-n, of type) holding the best
GrB_Info GXM_best_matrix (GrB_Matrix *T, const gxm_best *B, int64_t n,
    GrB_Type type) ;

//------------------------------------------------------------------------------
// the result into C (GxB_kNN_MPI.c's last step)
//------------------------------------------------------------------------------

// Z (C's type, C's orientation, sparse) = T typecast; then C takes Z's
// arrays without allocating
GrB_Info GXM_output_new (GrB_Matrix *Z, GrB_Matrix C, GrB_Matrix T) ;
GrB_Info GXM_output_move (GrB_Matrix C, GrB_Matrix Z) ;

#endif
