// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// mpi/gxm_agree.c: every rank returns the same GrB_Info, and none waits forever
//------------------------------------------------------------------------------

// A rank that fails alone must not leave the others blocked in a send or a
// collective, and every rank must return the same code.  So the call is a
// sequence of collective decisions that every rank reaches whatever it met:
// before the ring, one reduction of the local checks, then a gather of each
// rank's facts (sizes, k, the distance's key, the descriptor, the types)
// that every rank checks in the same order with the same outcome; after
// each step of the ring, one reduction of that step's results.  A failure
// is reduced to the lowest failing rank and its code.

#include "gxm_internal.h"

#define GXM_NO_FAILURE INT64_MAX

uint64_t GXM_hash (const char *s, uint64_t h)
{
    if (h == 0) h = 0xcbf29ce484222325ULL ;
    for ( ; *s != '\0' ; s++)
    {
        h ^= (unsigned char) *s ;
        h *= 0x100000001b3ULL ;
    }
    return h ;
}

// the lowest failing rank's code on every rank; its message travels too,
// so that every rank's GxB_Distance_error says what went wrong
GrB_Info GXM_agree_step (const gxm_call *G, GrB_Info mine,
    const char *what)
{
    int64_t key = (mine < GrB_SUCCESS)
        ? (((int64_t) G->rank << 32) | (uint32_t) (int32_t) mine)
        : GXM_NO_FAILURE ;
    int64_t first ;
    if (MPI_Allreduce (&key, &first, 1, MPI_INT64_T, MPI_MIN, G->comm)
        != MPI_SUCCESS)
    {
        return GXM_error (GrB_PANIC, "GxB_kNN_MPI: MPI_Allreduce failed "
            "(%s)", what) ;
    }
    if (first == GXM_NO_FAILURE) return GrB_SUCCESS ;
    int rank = (int) (first >> 32) ;
    GrB_Info info = (GrB_Info) (int32_t) (uint32_t) (first & 0xffffffff) ;
    char msg [GXM_MSG_LEN] = "" ;
    const char *mine_msg = NULL ;
    if (rank == G->rank && GxB_Distance_error (&mine_msg) == GrB_SUCCESS
        && mine_msg != NULL)
    {
        snprintf (msg, sizeof (msg), "%s", mine_msg) ;
    }
    if (MPI_Bcast (msg, (int) sizeof (msg), MPI_CHAR, rank, G->comm)
        != MPI_SUCCESS)
    {
        snprintf (msg, sizeof (msg), "(its message could not be sent)") ;
    }
    if (rank != G->rank)
    {
        GXM_error (info, "GxB_kNN_MPI: rank %d failed with GrB_Info %d (%s): "
            "%s", rank, (int) info, what, msg) ;
    }
    return info ;
}

// the first rank whose facts differ from rank 0's in field f
#define GXM_FIRST_DIFFERENT(r, f)                                           \
    for (r = 1 ; r < G->nranks && G->all [r].f == G->all [0].f ; r++) ;

static GrB_Info check_facts (gxm_call *G)
{
    #define GXM_FREE_ALL ;
    const gxm_facts *a = G->all ;
    int r ;
    GXM_FIRST_DIFFERENT (r, k) ;
    if (r < G->nranks)
    {
        GXM_FAIL (GrB_INVALID_VALUE, "GxB_kNN_MPI: k differs across ranks "
            "(rank 0: %llu, rank %d: %llu)", (unsigned long long) a [0].k, r,
            (unsigned long long) a [r].k) ;
    }
    GXM_FIRST_DIFFERENT (r, dist_key) ;
    if (r < G->nranks)
    {
        GXM_FAIL (GrB_INVALID_VALUE, "GxB_kNN_MPI: the distance differs "
            "across ranks (rank 0 and rank %d: GxB_Distance_describe gives "
            "different keys)", r) ;
    }
    GXM_FIRST_DIFFERENT (r, desc_key) ;
    if (r < G->nranks)
    {
        GXM_FAIL (GrB_INVALID_VALUE, "GxB_kNN_MPI: the descriptor differs "
            "across ranks (rank 0 and rank %d: transposes or exclude-self)", r) ;
    }
    GXM_FIRST_DIFFERENT (r, a_type) ;
    if (r < G->nranks)
    {
        GXM_FAIL (GrB_DOMAIN_MISMATCH, "GxB_kNN_MPI: A_local's type differs "
            "across ranks (rank 0 and rank %d)", r) ;
    }
    GXM_FIRST_DIFFERENT (r, b_type) ;
    if (r < G->nranks)
    {
        GXM_FAIL (GrB_DOMAIN_MISMATCH, "GxB_kNN_MPI: B_local's type differs "
            "across ranks (rank 0 and rank %d)", r) ;
    }
    for (r = 0 ; r < G->nranks ; r++)
    {
        if (a [r].a_cols != a [0].a_cols || a [r].b_cols != a [0].a_cols)
        {
            GXM_FAIL (GrB_DIMENSION_MISMATCH, "GxB_kNN_MPI: rows of A and B "
                "must have the same number of columns on every rank (rank 0's "
                "A: %lld; rank %d: A %lld, B %lld)", (long long) a [0].a_cols,
                r, (long long) a [r].a_cols, (long long) a [r].b_cols) ;
        }
    }
    int64_t n = G->b_off [G->nranks] ;
    for (r = 0 ; r < G->nranks ; r++)
    {
        if (a [r].c_cols != n)
        {
            GXM_FAIL (GrB_DIMENSION_MISMATCH, "GxB_kNN_MPI: rank %d's C_local "
                "has %lld columns, B has %lld rows over all ranks", r,
                (long long) a [r].c_cols, (long long) n) ;
        }
    }
    return GrB_SUCCESS ;
    #undef GXM_FREE_ALL
}

GrB_Info GXM_agree_start (gxm_call *G, const gxm_facts *me)
{
    #define GXM_FREE_ALL GXM_call_free (G) ;
    GrB_Info mine = (GrB_Info) me->info ;
    int P = G->nranks ;
    G->all = malloc ((size_t) P * sizeof (gxm_facts)) ;
    G->a_off = malloc ((size_t) (P + 1) * sizeof (int64_t)) ;
    G->b_off = malloc ((size_t) (P + 1) * sizeof (int64_t)) ;
    if (mine == GrB_SUCCESS
        && (G->all == NULL || G->a_off == NULL || G->b_off == NULL))
    {
        mine = GXM_error (GrB_OUT_OF_MEMORY, "GxB_kNN_MPI: out of memory "
            "for the facts of %d ranks", P) ;
    }
    GXM_TRY (GXM_agree_step (G, mine, "checking its arguments")) ;
    if (MPI_Allgather (me, (int) GXM_NFACTS, MPI_INT64_T, G->all,
        (int) GXM_NFACTS, MPI_INT64_T, G->comm) != MPI_SUCCESS)
    {
        GXM_FAIL (GrB_PANIC, "GxB_kNN_MPI: MPI_Allgather failed") ;
    }
    G->a_off [0] = G->b_off [0] = 0 ;
    for (int r = 0 ; r < P ; r++)
    {
        G->a_off [r+1] = G->a_off [r] + G->all [r].m ;
        G->b_off [r+1] = G->b_off [r] + G->all [r].n ;
    }
    GXM_TRY (check_facts (G)) ;
    return GrB_SUCCESS ;
    #undef GXM_FREE_ALL
}

void GXM_call_free (gxm_call *G)
{
    free (G->all) ; G->all = NULL ;
    free (G->a_off) ; G->a_off = NULL ;
    free (G->b_off) ; G->b_off = NULL ;
}
