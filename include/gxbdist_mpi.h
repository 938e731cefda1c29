// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// gxbdist_mpi.h: k nearest neighbors over the ranks of an MPI communicator
//------------------------------------------------------------------------------

// A separate library (libgxbdist_mpi) so that gxbdist itself never depends
// on MPI.  It runs the public GxB_kNN of gxbdist on each rank, one block of
// B at a time, while B's blocks travel around the ranks in a ring, and
// merges the candidates: see docs/mpi.md.

#ifndef GXBDIST_MPI_H
#define GXBDIST_MPI_H

#include <gxbdist.h>
#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

// GxB_kNN_MPI: every rank of comm holds a block of rows of A (A_local) and
// a block of rows of B (B_local); the blocks are stacked in comm's rank
// order (rank r's first row of A is global row sum over q < r of q's
// rows; the same for B; a rank may hold no rows of either).  On return
// C_local (A_local's rows by the global number of rows of B) holds, for
// each of the rank's rows of A, its k nearest rows of the whole of B, with
// global column indices: exactly what GxB_kNN (C, NULL, dist, k, A, B,
// desc) gives on the gathered A and B, with the same ties (the smaller
// global column first) and the same bits when every rank runs the same
// backend.  A collective call: every rank of comm must call it.
//
// desc: GrB_INP0 / GrB_INP1 = GrB_TRAN (A_local / B_local given
// transposed: their columns are the rows), GxB_Desc_set_exclude_self (the
// pairs global i == global j are skipped) and GxB_Desc_set_annihilator_free
// act as in GxB_kNN; there is no mask, and desc's GrB_MASK must be left at
// its default.  The result replaces C_local's content, typecast to its
// type.
//
// Every rank returns the same GrB_Info.  Ranks that disagree on k, on the
// distance (GxB_Distance_describe's key), on the descriptor or on the
// types of A or B: GrB_INVALID_VALUE or GrB_DOMAIN_MISMATCH; on the number
// of columns: GrB_DIMENSION_MISMATCH.  A failure on one rank (a NULL
// argument, a bad value met by GxB_kNN, memory) fails every rank with its
// code; comm = MPI_COMM_NULL: GrB_NULL_POINTER (no rank can talk to
// another).  GxB_Distance_error says what was wrong: on the rank that
// failed, its own message; on the others, which rank failed, at which
// stage, and that rank's message.  A_local, B_local are never changed;
// C_local is unchanged on failure.
GrB_Info GxB_kNN_MPI
(
    GrB_Matrix C_local,
    const GrB_Semiring dist,
    uint64_t k,
    const GrB_Matrix A_local,
    const GrB_Matrix B_local,
    MPI_Comm comm,
    const GrB_Descriptor desc
) ;

#ifdef __cplusplus
}
#endif
#endif
