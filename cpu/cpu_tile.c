// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// cpu/cpu_tile.c: a column block of B, held by column
//------------------------------------------------------------------------------

// The intersection product walks, for each column c of a row of A, the rows
// of B that have c (Gustavson, B by columns): work = intermediate products.
// Rows of B are taken in blocks [j0, j1) so a thread's accumulator (j1-j0
// doubles) stays in cache; within a column, rows come in increasing order.
// The rewrite (cpu_dense.c) and the MIN and MAX unions (cpu_minmax.c) both
// walk B this way, so one transpose serves them, in the index width each
// reads: room for the largest block is taken once, each block written over
// it, the column pointers doubling as the cursors (no second array).

#include "cpu_internal.h"

GrB_Info GXD_cpu_tile_new (cpu_tile *T, const cpu_rows *B, bool wide,
    bool fb, char *msg)
{
    memset (T, 0, sizeof (*T)) ;
    int64_t n = B->nrows, k = B->ncols, jblock = cpu_jblock (n), nz = 1 ;
    for (int64_t j0 = 0 ; j0 < n ; j0 += jblock)
    {
        int64_t j1 = (j0 + jblock < n) ? j0 + jblock : n ;
        if (B->p [j1] - B->p [j0] > nz) nz = B->p [j1] - B->p [j0] ;
    }
    T->Bp = GXD_malloc ((k + 1) * sizeof (int64_t)) ;
    if (wide) T->Bj = GXD_malloc (nz * sizeof (int64_t)) ;
    else T->Bi = GXD_malloc (nz * sizeof (int32_t)) ;
    T->Bx = GXD_malloc (nz * sizeof (double)) ;
    if (fb) T->Fb = GXD_malloc (nz * sizeof (double)) ;
    if (T->Bp == NULL || (T->Bi == NULL && T->Bj == NULL) || T->Bx == NULL
        || (fb && T->Fb == NULL))
    {
        GXD_cpu_tile_free (T) ;
        return CPU_OOM (msg, "column block of B") ;
    }
    return GrB_SUCCESS ;
}

// wide and (active != NULL) are constants in each call below, so the index
// store folds to one and the test of a column goes where there is none
static inline __attribute__((always_inline)) void fill (cpu_tile *T,
    const cpu_rows *B, int64_t j0, int64_t j1, bool wide,
    const uint8_t *active)
{
    // B's arrays and each row's end in locals: the 64-bit stores could
    // alias them, and would make the compiler load them again every entry
    const int64_t k = B->ncols, *p = B->p, *col = B->j ;
    const double *x = B->x ;
    int64_t *Bp = T->Bp, *Bj = T->Bj ;
    int32_t *Bi = T->Bi ;
    double *Bx = T->Bx ;
    T->j0 = j0 ; T->j1 = j1 ;
    memset (Bp, 0, (k + 1) * sizeof (int64_t)) ;
    for (int64_t q = p [j0] ; q < p [j1] ; q++)
    {
        if (active == NULL || active [col [q]]) Bp [col [q] + 1]++ ;
    }
    for (int64_t c = 0 ; c < k ; c++) Bp [c+1] += Bp [c] ;
    for (int64_t j = j0 ; j < j1 ; j++)
    {
        for (int64_t q = p [j], q1 = p [j+1] ; q < q1 ; q++)
        {
            if (active != NULL && !active [col [q]]) continue ;
            int64_t dst = Bp [col [q]]++ ;
            if (wide) Bj [dst] = j - j0 ;
            else Bi [dst] = (int32_t) (j - j0) ;
            Bx [dst] = x [q] ;
        }
    }
    // each cursor now stands at its column's end, the next column's start
    memmove (Bp + 1, Bp, k * sizeof (int64_t)) ;
    Bp [0] = 0 ;
}

void GXD_cpu_tile_fill (cpu_tile *T, const cpu_rows *B, int64_t j0,
    int64_t j1, const uint8_t *active)
{
    if (T->Bj != NULL) fill (T, B, j0, j1, true, active) ;
    else if (active != NULL) fill (T, B, j0, j1, false, active) ;
    else fill (T, B, j0, j1, false, NULL) ;
}

void GXD_cpu_tile_free (cpu_tile *T)
{
    GXD_free (T->Bp) ; GXD_free (T->Bi) ; GXD_free (T->Bj) ;
    GXD_free (T->Bx) ; GXD_free (T->Fb) ;
    memset (T, 0, sizeof (*T)) ;
}
