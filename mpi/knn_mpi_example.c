// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// mpi/knn_mpi_example.c: the example of docs/mpi.md
//------------------------------------------------------------------------------

// The 5 nearest quotes of every quote of the fortunes dataset (cosine, the
// quote itself excluded), its rows spread over the ranks.  Each rank reads
// the file and keeps only its block of rows, as a program whose data is
// already distributed would hold it; then one collective call.
//
//   mpirun -np 2 build/mpi/knn_mpi_example data/fortunes.mtx.gz

#include <gxbdist_mpi.h>
#include <stdio.h>
#include "gxd_mtx.h"

#define K 5

// rank r of p: rows [r*m/p, (r+1)*m/p) of X
static GrB_Info my_block (GrB_Matrix *B, GrB_Matrix X, int r, int p)
{
    GrB_Index m, d ;
    GrB_Matrix_nrows (&m, X) ;
    GrB_Matrix_ncols (&d, X) ;
    GrB_Index i0 = m * r / p, i1 = m * (r + 1) / p ;
    GrB_Info info = GrB_Matrix_new (B, GrB_FP32, i1 - i0, d) ;
    if (info != GrB_SUCCESS || i1 == i0) return info ;
    GrB_Index I [2] = { i0, i1 - 1 } ;
    return GrB_Matrix_extract (*B, NULL, NULL, X, I, GxB_RANGE, GrB_ALL, d,
        NULL) ;
}

int main (int argc, char **argv)
{
    MPI_Init (&argc, &argv) ;
    int rank, nranks ;
    MPI_Comm_rank (MPI_COMM_WORLD, &rank) ;
    MPI_Comm_size (MPI_COMM_WORLD, &nranks) ;
    GrB_init (GrB_NONBLOCKING) ;
    GxB_Distance_init () ;

    GrB_Matrix X = NULL, A = NULL, C = NULL ;
    GrB_Descriptor d = NULL ;
    const char *path = (argc > 1) ? argv [1] : "data/fortunes.mtx.gz" ;
    int ok = (GXD_mtx_read (&X, GrB_FP32, path) == GrB_SUCCESS)
        && (my_block (&A, X, rank, nranks) == GrB_SUCCESS) ;
    GrB_Matrix_free (&X) ;
    // every rank calls GxB_kNN_MPI even if its read failed (A NULL): then
    // every rank returns the same error instead of waiting for it
    GrB_Index m = 0, n = 0 ;
    if (ok) GrB_Matrix_nrows (&m, A) ;
    MPI_Allreduce (&m, &n, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD) ;
    GrB_Matrix_new (&C, GrB_FP32, m, n) ;
    GrB_Descriptor_new (&d) ;
    GxB_Desc_set_exclude_self (d, true) ;

    // A is both the queries and the data: a self-query
    GrB_Info info = GxB_kNN_MPI (C, GxB_DIST_COSINE_FP32, K, A, A,
        MPI_COMM_WORLD, d) ;
    if (info != GrB_SUCCESS)
    {
        const char *msg ;
        GxB_Distance_error (&msg) ;
        fprintf (stderr, "rank %d: GxB_kNN_MPI failed (%d): %s\n", rank,
            (int) info, msg) ;
    }
    else
    {
        GrB_Index nvals ;
        GrB_Matrix_nvals (&nvals, C) ;
        printf ("rank %d: %llu rows, %llu neighbors\n", rank,
            (unsigned long long) m, (unsigned long long) nvals) ;
        if (rank == 0 && m > 0)
        {
            // row 0's neighbors, global row numbers of the whole dataset
            GrB_Index J [K] ;
            float x [K] ;
            GrB_Index nk = K ;
            GrB_Vector v = NULL ;
            GrB_Vector_new (&v, GrB_FP32, n) ;
            GrB_Col_extract (v, NULL, NULL, C, GrB_ALL, n, 0, GrB_DESC_T0) ;
            GrB_Vector_extractTuples_FP32 (J, x, &nk, v) ;
            for (GrB_Index t = 0 ; t < nk ; t++)
            {
                printf ("  row 0 ~ row %llu: cosine distance %.4f\n",
                    (unsigned long long) J [t], x [t]) ;
            }
            GrB_Vector_free (&v) ;
        }
    }
    GxB_Desc_set_exclude_self (d, false) ;
    GrB_Descriptor_free (&d) ;
    GrB_Matrix_free (&A) ;
    GrB_Matrix_free (&C) ;
    GxB_Distance_finalize () ;
    GrB_finalize () ;
    MPI_Finalize () ;
    return (info == GrB_SUCCESS) ? 0 : 1 ;
}
