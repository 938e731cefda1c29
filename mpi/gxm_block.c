// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// mpi/gxm_block.c: a block of B's rows in CSR, as it travels between ranks
//------------------------------------------------------------------------------

// A block is three plain arrays (row pointers, column indices, values in
// B's own type) so that MPI moves it with no packing.  Blocks are copied
// out of and into GraphBLAS matrices with the GrB_Matrix_export / import
// of the C API (copies, in the block's type: values are never converted),
// so MPI never reads memory that GraphBLAS may reorganise while a send is
// in flight.  The buffers are sized once for the largest block of any rank
// (gxm_facts), so nothing is allocated between a send and its receive.

#include "gxm_internal.h"

// One MPI message carries at most this many bytes: counts are ints, and
// chunks this size stay far below INT_MAX whatever the datatype.  Array a
// of a block, chunk c, travels with tag 3c + a (MPI guarantees tags up to
// 32767: blocks up to 10,000 GiB per array).  The tests build a copy of
// the library with tiny chunks (mpi/CMakeLists.txt), so that blocks of a
// few rows take the many-chunk path.
#ifndef GXM_CHUNK_BYTES
#define GXM_CHUNK_BYTES ((int64_t) 1 << 30)
#endif

// the real built-in types, the ones GxB_kNN orders (X: GraphBLAS suffix,
// C type)
#define GXM_TYPES(X)                                                        \
    X (BOOL, bool) X (INT8, int8_t) X (INT16, int16_t) X (INT32, int32_t)   \
    X (INT64, int64_t) X (UINT8, uint8_t) X (UINT16, uint16_t)              \
    X (UINT32, uint32_t) X (UINT64, uint64_t) X (FP32, float)               \
    X (FP64, double)

bool GXM_block_type_ok (GrB_Type type)
{
    #define GXM_IS(T, C) if (type == GrB_ ## T) return true ;
    GXM_TYPES (GXM_IS)
    #undef GXM_IS
    return false ;
}

GrB_Info GXM_block_alloc (gxm_block *b, int64_t cap_rows, int64_t ncols,
    int64_t cap_nnz, GrB_Type type)
{
    #define GXM_FREE_ALL GXM_block_free (b) ;
    memset (b, 0, sizeof (*b)) ;
    b->type = type ;
    b->ncols = ncols ;
    b->cap_rows = cap_rows ;
    b->cap_nnz = (cap_nnz > 0) ? cap_nnz : 1 ;
    GXM_TRY (GxB_Type_size (&b->xsize, type)) ;
    b->p = malloc ((size_t) (cap_rows + 1) * sizeof (uint64_t)) ;
    b->j = malloc ((size_t) b->cap_nnz * sizeof (uint64_t)) ;
    b->x = malloc ((size_t) b->cap_nnz * b->xsize) ;
    if (b->p == NULL || b->j == NULL || b->x == NULL)
    {
        GXM_FAIL (GrB_OUT_OF_MEMORY, "GxB_kNN_MPI: out of memory for a block "
            "of %lld rows and %lld entries of B", (long long) cap_rows,
            (long long) cap_nnz) ;
    }
    b->p [0] = 0 ;
    return GrB_SUCCESS ;
    #undef GXM_FREE_ALL
}

void GXM_block_free (gxm_block *b)
{
    free (b->p) ; free (b->j) ; free (b->x) ;
    b->p = b->j = NULL ;
    b->x = NULL ;
}

void GXM_block_shape (gxm_block *b, int64_t nrows, int64_t nnz)
{
    b->nrows = nrows ;
    b->nnz = nnz ;
}

GrB_Info GXM_rows (GrB_Matrix *R, GrB_Matrix A, bool tran, int64_t nrows,
    int64_t ncols)
{
    // on failure *R is NULL (never A: the caller's matrix is not freed)
    #define GXM_FREE_ALL GrB_Matrix_free (R) ;
    *R = tran ? NULL : A ;
    if (tran)
    {
        GrB_Type type ;
        GXM_TRY (GxB_Matrix_type (&type, A)) ;
        GXM_TRY (GrB_Matrix_new (R, type, nrows, ncols)) ;
        GXM_TRY (GrB_transpose (*R, NULL, NULL, A, NULL)) ;
    }
    return GrB_SUCCESS ;
    #undef GXM_FREE_ALL
}

GrB_Info GXM_block_from (gxm_block *b, GrB_Matrix B, bool tran,
    int64_t nrows)
{
    #define GXM_FREE_ALL if (D != B) GrB_Matrix_free (&D) ;
    GrB_Matrix D = NULL ;
    GXM_TRY (GXM_rows (&D, B, tran, nrows, b->ncols)) ;
    // in: the room of the arrays; out: what the export wrote
    GrB_Index plen = b->cap_rows + 1, jlen = b->cap_nnz, xlen = b->cap_nnz ;
    #define GXM_EXPORT(T, C)                                                \
    if (b->type == GrB_ ## T)                                               \
    {                                                                       \
        GXM_TRY (GrB_Matrix_export_ ## T (b->p, b->j, (C *) b->x, &plen,    \
            &jlen, &xlen, GrB_CSR_FORMAT, D)) ;                             \
    }
    GXM_TYPES (GXM_EXPORT)
    #undef GXM_EXPORT
    b->nrows = (int64_t) plen - 1 ;
    b->nnz = (int64_t) b->p [b->nrows] ;
    GXM_FREE_ALL ;
    return GrB_SUCCESS ;
    #undef GXM_FREE_ALL
}

GrB_Info GXM_block_matrix (GrB_Matrix *M, const gxm_block *b)
{
    #define GXM_FREE_ALL GrB_Matrix_free (M) ;
    #define GXM_IMPORT(T, C)                                                \
    if (b->type == GrB_ ## T)                                               \
    {                                                                       \
        GXM_TRY (GrB_Matrix_import_ ## T (M, b->type, b->nrows, b->ncols,   \
            b->p, b->j, (const C *) b->x, b->nrows + 1, b->nnz, b->nnz,     \
            GrB_CSR_FORMAT)) ;                                              \
    }
    GXM_TYPES (GXM_IMPORT)
    #undef GXM_IMPORT
    return GrB_SUCCESS ;
    #undef GXM_FREE_ALL
}

// the three arrays of the block's current shape: address and bytes
static void arrays (const gxm_block *b, char *addr [3], int64_t bytes [3])
{
    addr [0] = (char *) b->p ; bytes [0] = (b->nrows + 1) * sizeof (uint64_t) ;
    addr [1] = (char *) b->j ; bytes [1] = b->nnz * sizeof (uint64_t) ;
    addr [2] = (char *) b->x ; bytes [2] = b->nnz * (int64_t) b->xsize ;
}

int GXM_block_nreq (const gxm_block *b)
{
    char *addr [3] ;
    int64_t bytes [3], n = 0 ;
    arrays (b, addr, bytes) ;
    for (int a = 0 ; a < 3 ; a++)
    {
        n += (bytes [a] + GXM_CHUNK_BYTES - 1) / GXM_CHUNK_BYTES ;
    }
    return (int) n ;
}

// post one request per chunk of each array (send or receive)
static GrB_Info post (const gxm_block *b, bool send, int peer, MPI_Comm comm,
    MPI_Request *req)
{
    char *addr [3] ;
    int64_t bytes [3] ;
    arrays (b, addr, bytes) ;
    int r = 0 ;
    for (int a = 0 ; a < 3 ; a++)
    {
        for (int64_t c = 0 ; c * GXM_CHUNK_BYTES < bytes [a] ; c++)
        {
            int64_t off = c * GXM_CHUNK_BYTES ;
            int len = (int) ((bytes [a] - off < GXM_CHUNK_BYTES)
                ? (bytes [a] - off) : GXM_CHUNK_BYTES) ;
            int tag = (int) (3 * c + a) ;
            int rc = send
                ? MPI_Isend (addr [a] + off, len, MPI_BYTE, peer, tag, comm,
                    &req [r++])
                : MPI_Irecv (addr [a] + off, len, MPI_BYTE, peer, tag, comm,
                    &req [r++]) ;
            if (rc != MPI_SUCCESS)
            {
                return GXM_error (GrB_PANIC, "GxB_kNN_MPI: %s of a block "
                    "failed", send ? "MPI_Isend" : "MPI_Irecv") ;
            }
        }
    }
    return GrB_SUCCESS ;
}

GrB_Info GXM_block_isend (const gxm_block *b, int dest, MPI_Comm comm,
    MPI_Request *req)
{
    return post (b, true, dest, comm, req) ;
}

GrB_Info GXM_block_irecv (gxm_block *b, int src, MPI_Comm comm,
    MPI_Request *req)
{
    return post (b, false, src, comm, req) ;
}
