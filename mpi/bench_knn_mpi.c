// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// mpi/bench_knn_mpi.c: GxB_kNN_MPI's time, and what its ring alone costs
//------------------------------------------------------------------------------

// A program, not a test: an all-rows kNN self-query (the row itself
// excluded, FP32) of a Matrix Market or .csr file (tools/gxd_csr_file.h:
// the paper's shapes at full size), its rows spread evenly over the
// ranks, timed end to end (the slowest rank, best of REPEAT); then the same
// blocks sent around the same ring with nothing computed (MPI_Sendrecv of
// each block's bytes: row pointers, column indices, values), which bounds
// the share of the time spent communicating from above (the library
// overlaps it with the kNN of the block in hand).  Beside them, GxB_kNN of
// each rank's rows against all of B in one call (no ring, no merge; the
// self pairs kept): the same pairs, what the ring and the merge add to.
//
//   mpirun -np 2 build/mpi/bench_knn_mpi FILE.mtx[.gz]|FILE.csr [k] [metric] [rows]
//   (k 10; metric manhattan or cosine, default cosine; rows: the first
//   rows of the file only, default all)
//
// Run ranks one per GPU with mpi/gpu_per_rank.sh; on the CPU, give each
// rank its cores (OMP_NUM_THREADS).

#include <gxbdist_mpi.h>
#include <string.h>
#include "gxd_mtx.h"
#include "gxd_csr_file.h"
#define GXD_PROG "bench_knn_mpi"
#include "gxd_prog.h"

#define REPEAT 2

static int rank, nranks ;

// the slowest rank's time of what ran since t0
static double slowest (double t0)
{
    double t = MPI_Wtime () - t0, tmax ;
    MPI_Allreduce (&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD) ;
    return tmax ;
}

// the best of REPEAT runs of GxB_kNN_MPI (mpi) or of GxB_kNN on this rank
static double best_time (bool mpi, GrB_Matrix C, GrB_Semiring dist,
    uint64_t k, GrB_Matrix A, GrB_Matrix B, GrB_Descriptor desc)
{
    double best = 1e300 ;
    for (int r = 0 ; r < REPEAT ; r++)
    {
        MPI_Barrier (MPI_COMM_WORLD) ;
        double t0 = MPI_Wtime () ;
        if (mpi) TRY (GxB_kNN_MPI (C, dist, k, A, B, MPI_COMM_WORLD, desc))
        else     TRY (GxB_kNN (C, NULL, dist, k, A, B, desc))
        double t = slowest (t0) ;
        if (t < best) best = t ;
    }
    return best ;
}

// P - 1 steps of the ring with every rank's block bytes, nothing computed
static double ring_alone (int64_t mine)
{
    int64_t *bytes = malloc (nranks * sizeof (int64_t)), max = 0 ;
    MPI_Allgather (&mine, 1, MPI_INT64_T, bytes, 1, MPI_INT64_T,
        MPI_COMM_WORLD) ;
    for (int r = 0 ; r < nranks ; r++) if (bytes [r] > max) max = bytes [r] ;
    char *cur = calloc (max + 1, 1), *nxt = calloc (max + 1, 1) ;
    int right = (rank + 1) % nranks, left = (rank + nranks - 1) % nranks ;
    MPI_Barrier (MPI_COMM_WORLD) ;
    double t0 = MPI_Wtime () ;
    for (int s = 0 ; s < nranks - 1 ; s++)
    {
        int64_t out = bytes [(rank + nranks - s) % nranks] ;
        int64_t in = bytes [(rank + nranks - s - 1) % nranks] ;
        // (the library splits messages past 1 GiB; this bench's are less)
        MPI_Sendrecv (cur, (int) out, MPI_BYTE, right, 0, nxt, (int) in,
            MPI_BYTE, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE) ;
        char *t = cur ; cur = nxt ; nxt = t ;
    }
    double t = slowest (t0) ;
    free (cur) ; free (nxt) ; free (bytes) ;
    return t ;
}

int main (int argc, char **argv)
{
    MPI_Init (&argc, &argv) ;
    MPI_Comm_rank (MPI_COMM_WORLD, &rank) ;
    MPI_Comm_size (MPI_COMM_WORLD, &nranks) ;
    if (argc < 2)
    {
        if (rank == 0) fprintf (stderr, "usage: bench_knn_mpi FILE [k] "
            "[manhattan|cosine] [rows]\n") ;
        MPI_Finalize () ;
        return 1 ;
    }
    uint64_t k = (argc > 2) ? strtoull (argv [2], NULL, 10) : 10 ;
    const char *metric = (argc > 3) ? argv [3] : "cosine" ;
    TRY (GrB_init (GrB_NONBLOCKING)) ;
    TRY (GxB_Distance_init ()) ;
    GrB_Semiring dist = strcmp (metric, "manhattan") == 0
        ? GxB_DIST_MANHATTAN_FP32 : GxB_DIST_COSINE_FP32 ;

    GrB_Matrix X = NULL, A = NULL, C = NULL ;
    const size_t len = strlen (argv [1]) ;
    if (len > 4 && strcmp (argv [1] + len - 4, ".csr") == 0)
        TRY (GXD_csr_read (&X, argv [1]))
    else
        TRY (GXD_mtx_read (&X, GrB_FP32, argv [1]))
    GrB_Index m, d ;
    TRY (GrB_Matrix_nrows (&m, X)) ;
    TRY (GrB_Matrix_ncols (&d, X)) ;
    if (argc > 4 && strtoull (argv [4], NULL, 10) < m)
    {
        m = strtoull (argv [4], NULL, 10) ;
    }
    GrB_Index i0 = m * rank / nranks, i1 = m * (rank + 1) / nranks ;
    TRY (GrB_Matrix_new (&A, GrB_FP32, i1 - i0, d)) ;
    if (i1 > i0)
    {
        GrB_Index I [2] = { i0, i1 - 1 } ;
        TRY (GrB_Matrix_extract (A, NULL, NULL, X, I, GxB_RANGE, GrB_ALL, d,
            NULL)) ;
    }
    GrB_Matrix Bg = NULL ;
    TRY (GrB_Matrix_new (&Bg, GrB_FP32, m, d)) ;
    GrB_Index J [2] = { 0, m - 1 } ;
    TRY (GrB_Matrix_extract (Bg, NULL, NULL, X, J, GxB_RANGE, GrB_ALL, d, NULL)) ;
    GrB_Matrix_free (&X) ;
    GrB_Descriptor desc = NULL ;
    TRY (GrB_Descriptor_new (&desc)) ;
    TRY (GxB_Desc_set_exclude_self (desc, true)) ;
    TRY (GrB_Matrix_new (&C, GrB_FP32, i1 - i0, m)) ;

    double best = best_time (true, C, dist, k, A, A, desc) ;
    double one = best_time (false, C, dist, k, A, Bg, NULL) ;
    GrB_Matrix_free (&Bg) ;
    GrB_Index nnz ;
    TRY (GrB_Matrix_nvals (&nnz, A)) ;
    int64_t bytes = (int64_t) nnz * (8 + 4) + (int64_t) (i1 - i0 + 1) * 8 ;
    double ring = 1e300 ;
    for (int r = 0 ; r < REPEAT ; r++)
    {
        double t = ring_alone (bytes) ;
        if (t < ring) ring = t ;
    }
    int64_t total ;
    MPI_Allreduce (&bytes, &total, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD) ;
    if (rank == 0)
    {
        printf ("%d ranks, %llu rows, k %llu, %s FP32, self excluded: "
            "GxB_kNN_MPI %.3f s; GxB_kNN of the same rows against all of B "
            "%.3f s; the ring alone %.4f s (%.1f MB received per rank), "
            "%.2f%% of GxB_kNN_MPI\n", nranks, (unsigned long long) m,
            (unsigned long long) k, metric, best, one, ring,
            (double) total * (nranks - 1) / nranks / 1e6, 100 * ring / best) ;
    }
    TRY (GxB_Desc_set_exclude_self (desc, false)) ;
    GrB_Descriptor_free (&desc) ;
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&C) ;
    GxB_Distance_finalize () ;
    GrB_finalize () ;
    MPI_Finalize () ;
    return 0 ;
}
