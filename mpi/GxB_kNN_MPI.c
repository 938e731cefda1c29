// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// mpi/GxB_kNN_MPI.c: k nearest neighbors of distributed rows (gxbdist_mpi.h)
//------------------------------------------------------------------------------

// The ranks check their arguments and agree (gxm_agree.c); then B's blocks
// go around the ranks in a ring: at step s a rank holds the block of rank
// (rank - s) mod P, sends it on to rank + 1 while it receives the next one
// from rank - 1, and meanwhile runs GxB_kNN of its rows of A against the
// block in hand, merging the candidates into each row's k best
// (gxm_merge.c).  After P steps every rank has seen all of B; only blocks
// of B and nothing of the distances travel.  With exclude-self, a block
// that holds some of the rank's own global rows is asked for k + 1
// neighbors, so that k remain when the self pair is dropped by its global
// index.  Transposed inputs are transposed once, before the ring: B's block
// travels as rows, and A's rows serve every step.

#include "gxm_internal.h"

// what this rank reads from its arguments
typedef struct
{
    bool tran_a, tran_b, union_desc ;
    GrB_Type b_type ;
}
gxm_local ;

static GrB_Info matrix_facts (int64_t *rows, int64_t *cols, uint64_t *type,
    GrB_Matrix A, bool tran)
{
    #define GXM_FREE_ALL ;
    GrB_Index nr, nc ;
    char name [GxB_MAX_NAME_LEN] ;
    GXM_TRY (GrB_Matrix_nrows (&nr, A)) ;
    GXM_TRY (GrB_Matrix_ncols (&nc, A)) ;
    GXM_TRY (GxB_Matrix_type_name (name, A)) ;
    (*rows) = (int64_t) (tran ? nc : nr) ;
    (*cols) = (int64_t) (tran ? nr : nc) ;
    (*type) = GXM_hash (name, 0) ;
    return GrB_SUCCESS ;
    #undef GXM_FREE_ALL
}

// this rank's checks, and its facts for the others
static GrB_Info local_checks (gxm_facts *me, gxm_call *G, gxm_local *L,
    GrB_Matrix C, GrB_Semiring dist, uint64_t k, GrB_Matrix A, GrB_Matrix B,
    GrB_Descriptor desc)
{
    #define GXM_FREE_ALL ;
    if (C == NULL || dist == NULL || A == NULL || B == NULL)
    {
        GXM_FAIL (GrB_NULL_POINTER, "GxB_kNN_MPI: %s is NULL", C == NULL
            ? "C_local" : dist == NULL ? "dist" : A == NULL ? "A_local"
            : "B_local") ;
    }
    if (k == 0)
    {
        GXM_FAIL (GrB_INVALID_VALUE, "GxB_kNN_MPI: k = 0; ask for at least "
            "one neighbor") ;
    }
    char key [4096] ;
    GXM_TRY (GxB_Distance_describe (key, sizeof (key), &G->largest,
        &G->result, dist, desc)) ;
    if (desc != NULL)
    {
        GrB_Desc_Value in0, in1, mask ;
        GXM_TRY (GxB_Desc_get (desc, GrB_INP0, &in0)) ;
        GXM_TRY (GxB_Desc_get (desc, GrB_INP1, &in1)) ;
        GXM_TRY (GxB_Desc_get (desc, GrB_MASK, &mask)) ;
        if (mask != GxB_DEFAULT)
        {
            GXM_FAIL (GrB_INVALID_VALUE, "GxB_kNN_MPI: takes no mask; leave "
                "desc's GrB_MASK at its default") ;
        }
        L->tran_a = (in0 == GrB_TRAN) ;
        L->tran_b = (in1 == GrB_TRAN) ;
        GXM_TRY (GxB_Desc_get_exclude_self (desc, &G->exclude_self)) ;
        GXM_TRY (GxB_Desc_get_annihilator_free (desc, &L->union_desc)) ;
    }
    GXM_TRY (matrix_facts (&me->m, &me->a_cols, &me->a_type, A, L->tran_a)) ;
    GXM_TRY (matrix_facts (&me->n, &me->b_cols, &me->b_type, B, L->tran_b)) ;
    GXM_TRY (GxB_Matrix_type (&L->b_type, B)) ;
    if (!GXM_block_type_ok (L->b_type))
    {
        GXM_FAIL (GrB_DOMAIN_MISMATCH, "GxB_kNN_MPI: B_local's type must be "
            "a real built-in type (its values travel in it)") ;
    }
    GrB_Index nnz, cm, cn ;
    GXM_TRY (GrB_Matrix_nvals (&nnz, B)) ;
    GXM_TRY (GrB_Matrix_nrows (&cm, C)) ;
    GXM_TRY (GrB_Matrix_ncols (&cn, C)) ;
    if ((int64_t) cm != me->m)
    {
        GXM_FAIL (GrB_DIMENSION_MISMATCH, "GxB_kNN_MPI: C_local has %llu "
            "rows, A_local %lld", (unsigned long long) cm, (long long) me->m) ;
    }
    me->b_nnz = (int64_t) nnz ;
    me->c_cols = (int64_t) cn ;
    me->k = k ;
    me->dist_key = GXM_hash (key, 0) ;
    me->desc_key = (uint64_t) L->tran_a | ((uint64_t) L->tran_b << 1)
        | ((uint64_t) G->exclude_self << 2) ;
    return GrB_SUCCESS ;
    #undef GXM_FREE_ALL
}

// the descriptor of the calls on blocks: union semantics as asked (A's
// rows are transposed once, before the ring; exclude-self is done on
// global indices, in the merge)
static GrB_Info block_desc (GrB_Descriptor *d, const gxm_local *L)
{
    #define GXM_FREE_ALL GrB_Descriptor_free (d) ;
    GXM_TRY (GrB_Descriptor_new (d)) ;
    if (L->union_desc) GXM_TRY (GxB_Desc_set_annihilator_free (*d, true)) ;
    return GrB_SUCCESS ;
    #undef GXM_FREE_ALL
}

// clearing the mark is a gxbdist call, which clears the message of the
// thread: the message of a failure being reported is kept
static void block_desc_free (GrB_Descriptor *d)
{
    if (*d == NULL) return ;
    const char *msg = NULL ;
    char keep [GXM_MSG_LEN] = "" ;
    if (GxB_Distance_error (&msg) == GrB_SUCCESS && msg != NULL)
    {
        snprintf (keep, sizeof (keep), "%s", msg) ;
    }
    GxB_Desc_set_annihilator_free (*d, false) ;
    GrB_Descriptor_free (d) ;
    GxB_Distance_set_error (GrB_SUCCESS, keep) ;
}

// GxB_kNN of the rank's rows of A against block b (in hand as blk; or
// own, the rank's B_local itself, for its own block: no copy made, and
// where A_local is B_local too GxB_kNN sees a query of rows against
// themselves), merged into best
static GrB_Info step (gxm_best *best, const gxm_call *G, const gxm_block *blk,
    int b, GrB_Semiring dist, uint64_t k, GrB_Matrix A, GrB_Matrix own,
    GrB_Descriptor d)
{
    #define GXM_FREE_ALL GrB_Matrix_free (&Bb) ; GrB_Matrix_free (&Cb) ;
    GrB_Matrix Bb = NULL, Cb = NULL ;
    int64_t a0 = G->a_off [G->rank], m = G->all [G->rank].m ;
    int64_t b0 = G->b_off [b], nb = blk->nrows ;
    bool own_rows = G->exclude_self && a0 < b0 + nb && b0 < a0 + m ;
    uint64_t kb = (own_rows && k < UINT64_MAX) ? k + 1 : k ;
    if (b != G->rank || own == NULL) GXM_TRY (GXM_block_matrix (&Bb, blk)) ;
    GXM_TRY (GrB_Matrix_new (&Cb, G->result, (GrB_Index) m, (GrB_Index) nb)) ;
    GXM_TRY (GxB_kNN (Cb, NULL, dist, kb, A, (Bb != NULL) ? Bb : own, d)) ;
    GXM_TRY (GXM_best_merge (best, Cb, b0, a0, G->exclude_self)) ;
    GXM_FREE_ALL ;
    return GrB_SUCCESS ;
    #undef GXM_FREE_ALL
}

// run the ring: best = this rank's neighbors (its failures are every
// rank's: a failure returned here was agreed on)
static GrB_Info ring (gxm_best *best, const gxm_call *G, const gxm_local *L,
    GrB_Semiring dist, uint64_t k, GrB_Matrix A, GrB_Matrix B)
{
    #define GXM_FREE_ALL                                                    \
        GXM_block_free (&cur) ; GXM_block_free (&nxt) ; free (req) ;        \
        block_desc_free (&d) ; if (Ar != A) GrB_Matrix_free (&Ar) ;
    gxm_block cur = { 0 }, nxt = { 0 } ;
    GrB_Descriptor d = NULL ;
    GrB_Matrix Ar = A ;
    MPI_Request *req = NULL ;
    int P = G->nranks, me = G->rank ;
    int64_t max_n = 0, max_nnz = 0, n = G->b_off [P] ;
    for (int r = 0 ; r < P ; r++)
    {
        if (G->all [r].n > max_n) max_n = G->all [r].n ;
        if (G->all [r].b_nnz > max_nnz) max_nnz = G->all [r].b_nnz ;
    }
    // a row has at most n candidates: k beyond that asks for no more room
    uint64_t kk = (k < (uint64_t) n) ? k : (uint64_t) n ;
    int64_t a_cols = G->all [me].a_cols ;
    // every rank's buffers, the block's copy and the workspace are ready,
    // or every rank stops: nothing is allocated between a send and its
    // receive
    GrB_Info info = GXM_block_alloc (&cur, max_n, a_cols, max_nnz, L->b_type) ;
    if (info == GrB_SUCCESS)
    {
        info = GXM_block_alloc (&nxt, max_n, a_cols, max_nnz, L->b_type) ;
    }
    if (info == GrB_SUCCESS)
    {
        info = GXM_block_from (&cur, B, L->tran_b, G->all [me].n) ;
    }
    if (info == GrB_SUCCESS)
    {
        info = GXM_best_alloc (best, G->all [me].m, kk > 0 ? kk : 1,
            G->largest) ;
    }
    if (info == GrB_SUCCESS) info = block_desc (&d, L) ;
    if (info == GrB_SUCCESS)
    {
        info = GXM_rows (&Ar, A, L->tran_a, G->all [me].m, a_cols) ;
    }
    int nreq = 0 ;
    if (info == GrB_SUCCESS)
    {
        GXM_block_shape (&nxt, max_n, max_nnz) ;
        nreq = GXM_block_nreq (&nxt) ;
        req = malloc ((size_t) (2 * nreq + 1) * sizeof (MPI_Request)) ;
        if (req == NULL)
        {
            info = GXM_error (GrB_OUT_OF_MEMORY, "GxB_kNN_MPI: out of memory") ;
        }
    }
    GXM_TRY (GXM_agree_step (G, info, "preparing the ring")) ;
    int right = (me + 1) % P, left = (me + P - 1) % P ;
    for (int s = 0 ; s < P ; s++)
    {
        int b = (me + P - s) % P ;      // the block in hand
        int nr = 0 ;
        if (s < P - 1)
        {
            // the next block comes from the left while this one goes right
            int bn = (me + P - s - 1) % P ;
            GXM_block_shape (&nxt, G->all [bn].n, G->all [bn].b_nnz) ;
            info = GXM_block_irecv (&nxt, left, G->comm, req) ;
            nr = GXM_block_nreq (&nxt) ;
            if (info == GrB_SUCCESS)
            {
                info = GXM_block_isend (&cur, right, G->comm, req + nr) ;
                nr += GXM_block_nreq (&cur) ;
            }
        }
        if (info == GrB_SUCCESS)
        {
            info = step (best, G, &cur, b, dist, k, Ar, L->tran_b ? NULL : B, d) ;
        }
        if (nr > 0 && MPI_Waitall (nr, req, MPI_STATUSES_IGNORE) != MPI_SUCCESS
            && info == GrB_SUCCESS)
        {
            info = GXM_error (GrB_PANIC, "GxB_kNN_MPI: MPI_Waitall failed") ;
        }
        char what [64] ;
        snprintf (what, sizeof (what), "ring step %d of %d", s + 1, P) ;
        GXM_TRY (GXM_agree_step (G, info, what)) ;
        gxm_block t = cur ; cur = nxt ; nxt = t ;
    }
    GXM_FREE_ALL ;
    return GrB_SUCCESS ;
    #undef GXM_FREE_ALL
}

GrB_Info GxB_kNN_MPI
(
    GrB_Matrix C_local,
    const GrB_Semiring dist,
    uint64_t k,
    const GrB_Matrix A_local,
    const GrB_Matrix B_local,
    MPI_Comm comm,
    const GrB_Descriptor desc
)
{
    #define GXM_FREE_ALL                                                    \
        GrB_Matrix_free (&T) ; GrB_Matrix_free (&Z) ; GXM_call_free (&G) ;  \
        GXM_best_free (&best) ;                                             \
        if (G.comm != MPI_COMM_NULL) MPI_Comm_free (&G.comm) ;
    GrB_Matrix T = NULL, Z = NULL ;
    gxm_call G = { 0 } ;
    gxm_best best = { 0 } ;
    G.comm = MPI_COMM_NULL ;
    GxB_Distance_set_error (GrB_SUCCESS, "") ;
    if (comm == MPI_COMM_NULL)
    {
        // no collective can run on it: every rank that passed it says so
        GXM_FAIL (GrB_NULL_POINTER, "GxB_kNN_MPI: comm is MPI_COMM_NULL") ;
    }
    // a communicator of its own: no message of the caller's can match ours
    if (MPI_Comm_dup (comm, &G.comm) != MPI_SUCCESS
        || MPI_Comm_rank (G.comm, &G.rank) != MPI_SUCCESS
        || MPI_Comm_size (G.comm, &G.nranks) != MPI_SUCCESS)
    {
        GXM_FAIL (GrB_PANIC, "GxB_kNN_MPI: the communicator is not usable") ;
    }
    gxm_facts me = { 0 } ;
    gxm_local L = { 0 } ;
    me.info = local_checks (&me, &G, &L, C_local, dist, k, A_local, B_local,
        desc) ;
    GXM_TRY (GXM_agree_start (&G, &me)) ;
    GXM_TRY (ring (&best, &G, &L, dist, k, A_local, B_local)) ;
    // C changes on every rank or on none
    GrB_Info info = GXM_best_matrix (&T, &best, G.b_off [G.nranks], G.result) ;
    if (info == GrB_SUCCESS) info = GXM_output_new (&Z, C_local, T) ;
    GXM_TRY (GXM_agree_step (&G, info, "building C_local")) ;
    GXM_TRY (GXM_output_move (C_local, Z)) ;
    GXM_FREE_ALL ;
    GxB_Distance_set_error (GrB_SUCCESS, "") ;
    return GrB_SUCCESS ;
    #undef GXM_FREE_ALL
}
