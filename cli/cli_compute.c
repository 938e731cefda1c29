// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// cli/cli_compute.c: the job, in one call or on blocks of A's rows
//------------------------------------------------------------------------------

// GxB_kNN, GxB_radius_graph and GxB_mxm_distance have no progress callback,
// so the progress bar (and --block-rows) runs the library on blocks of A's
// rows, taken out with GrB_Matrix_extract, and puts the blocks' results
// together with GxB_Matrix_concat.  Row i of every result depends on row i
// of A and on B alone, computed by the same code whatever the tiling (see
// gxbdist.h), so the blocks give the bits one call gives.  The one thing a
// block changes is row numbering, which --exclude-self depends on: a block
// drops its self pairs itself (cli_self.c).
//
// Without a bar the job is one call; with it, blocks are sized as they go to
// take about a second each (the first is small, to learn the rate), so the
// bar moves steadily and the library's per-call setup (on a GPU: B's upload,
// the workspace) stays small beside the work.

#include "cli.h"

#include <stdlib.h>

#define BLOCK_SECONDS   1.0
#define FIRST_BLOCK     256
#define MIN_BLOCK       16

typedef struct
{
    const cli_opts *o ;
    GrB_Semiring s ;
    GrB_Matrix A, B ;
    GrB_Descriptor self ;       // exclude-self mark, for a call on all of A
    int64_t m, n ;
    bool largest ;              // DOT: best = largest
}
job ;

// *Cb = the job on rows r0 .. r0+nr-1 of A
static GrB_Info run_block (GrB_Matrix *Cb, const job *J, int64_t r0,
    int64_t nr)
{
    #define CLI_FREE_ALL                                                    \
        GrB_Matrix_free (Cb) ;                                              \
        if (Ab != J->A) GrB_Matrix_free (&Ab) ;                             \
        GrB_Matrix_free (&T) ;
    const cli_opts *o = J->o ;
    GrB_Matrix Ab = J->A, T = NULL ;
    bool whole = (r0 == 0 && nr == J->m) ;
    if (!whole)
    {
        GrB_Index ncols ;
        CLI_TRY (GrB_Matrix_ncols (&ncols, J->A)) ;
        Ab = NULL ;
        CLI_TRY (GrB_Matrix_new (&Ab, o->type, (GrB_Index) nr, ncols)) ;
        GrB_Index I [2] = { (GrB_Index) r0, (GrB_Index) (r0 + nr - 1) } ;
        CLI_TRY (GrB_Matrix_extract (Ab, NULL, NULL, J->A, I, GxB_RANGE,
            GrB_ALL, ncols, NULL)) ;
    }
    // all of A: the library's exclude-self; a block with self pairs (i,
    // r0+i): one more neighbor, and cli_drop_self
    GrB_Descriptor desc = (o->exclude_self && whole) ? J->self : NULL ;
    bool drop = (o->exclude_self && !whole && r0 < J->n) ;
    uint64_t k = o->k + ((drop && o->k < UINT64_MAX) ? 1 : 0) ;
    CLI_TRY (GrB_Matrix_new (&T, o->type, (GrB_Index) nr, (GrB_Index) J->n)) ;
    switch (o->job)
    {
        case CLI_KNN :
            CLI_TRY (GxB_kNN (T, NULL, J->s, k, Ab, J->B, desc)) ;
            break ;
        case CLI_RADIUS :
            CLI_TRY (GxB_radius_graph (T, NULL, J->s, o->eps, Ab, J->B,
                desc)) ;
            break ;
        default :
            CLI_TRY (GxB_mxm_distance (T, NULL, NULL, J->s, Ab, J->B, NULL)) ;
            break ;
    }
    if (drop)
    {
        CLI_TRY (cli_drop_self (Cb, T, r0, (o->job == CLI_KNN) ? o->k : 0,
            J->largest)) ;
        GrB_Matrix_free (&T) ;
    }
    else
    {
        CLI_TRY (GrB_Matrix_wait (T, GrB_MATERIALIZE)) ;
        *Cb = T ;
        T = NULL ;
    }
    if (Ab != J->A) GrB_Matrix_free (&Ab) ;
    return GrB_SUCCESS ;
    #undef CLI_FREE_ALL
}

// the next block: about BLOCK_SECONDS at the rate of the last one, growing
// at most 4x at a time (the first block's rate includes one-time setup)
static int64_t next_block (int64_t nr, double seconds)
{
    double want = (seconds > 1e-3) ? nr * (BLOCK_SECONDS / seconds) : 4.0 * nr ;
    if (want > 4.0 * nr) want = 4.0 * nr ;
    if (want > (double) (INT64_MAX / 8)) want = (double) (INT64_MAX / 8) ;
    return (want < MIN_BLOCK) ? MIN_BLOCK : (int64_t) want ;
}

GrB_Info cli_compute (GrB_Matrix *C, const cli_opts *o, GrB_Semiring s,
    bool largest, GrB_Matrix A, GrB_Matrix B, cli_progress *bar)
{
    #define CLI_FREE_ALL                                                    \
        for (int64_t t = 0 ; t < nt ; t++) GrB_Matrix_free (&tiles [t]) ;   \
        free (tiles) ;                                                      \
        GrB_Matrix_free (C) ;                                               \
        cli_progress_end (bar) ;                                            \
        if (J.self != NULL)                                                 \
        {                                                                   \
            GxB_Desc_set_exclude_self (J.self, false) ;                     \
            GrB_Descriptor_free (&J.self) ;                                 \
        }
    GrB_Matrix *tiles = NULL ;
    int64_t nt = 0, cap = 0 ;
    GrB_Index m, n ;
    job J = { .o = o, .s = s, .A = A, .B = B, .self = NULL,
        .largest = largest } ;
    *C = NULL ;
    CLI_TRY (GrB_Matrix_nrows (&m, A)) ;
    CLI_TRY (GrB_Matrix_nrows (&n, B)) ;
    J.m = (int64_t) m ;
    J.n = (int64_t) n ;
    if (o->exclude_self)
    {
        CLI_TRY (GrB_Descriptor_new (&J.self)) ;
        CLI_TRY (GxB_Desc_set_exclude_self (J.self, true)) ;
    }

    bool fixed = (o->block_rows > 0) ;
    int64_t nr = fixed ? o->block_rows : FIRST_BLOCK ;
    if (J.m == 0 || (!fixed && !bar->enabled) || nr >= J.m)
    {
        CLI_TRY (run_block (C, &J, 0, J.m)) ;
    }
    else
    {
        for (int64_t r0 = 0 ; r0 < J.m ; )
        {
            int64_t nb = (J.m - r0 < nr) ? (J.m - r0) : nr ;
            if (nt == cap)
            {
                cap = (cap == 0) ? 64 : 2 * cap ;
                GrB_Matrix *t2 = realloc (tiles, (size_t) cap * sizeof (*t2)) ;
                if (t2 == NULL) CLI_FAIL (GrB_OUT_OF_MEMORY, "out of memory") ;
                tiles = t2 ;
            }
            double t_block = cli_now () ;
            tiles [nt] = NULL ;
            CLI_TRY (run_block (&tiles [nt], &J, r0, nb)) ;
            nt++ ;
            r0 += nb ;
            cli_progress_update (bar, r0) ;
            if (!fixed) nr = next_block (nb, cli_now () - t_block) ;
        }
        CLI_TRY (GrB_Matrix_new (C, o->type, m, n)) ;
        CLI_TRY (GxB_Matrix_concat (*C, tiles, (GrB_Index) nt, 1, NULL)) ;
        for (int64_t t = 0 ; t < nt ; t++) GrB_Matrix_free (&tiles [t]) ;
        nt = 0 ;
    }
    free (tiles) ;
    tiles = NULL ;
    cli_progress_end (bar) ;
    if (J.self != NULL)
    {
        CLI_TRY (GxB_Desc_set_exclude_self (J.self, false)) ;
        CLI_TRY (GrB_Descriptor_free (&J.self)) ;
    }
    return GrB_SUCCESS ;
    #undef CLI_FREE_ALL
}
