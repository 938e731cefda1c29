// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// cpu/cpu_tile.c: a column block of B, held by column
//------------------------------------------------------------------------------

// The intersection product walks, for each column c of a row of A, the rows
// of B that have c (Gustavson, B by columns): work = intermediate products.
// Rows of B are taken in blocks [j0, j1) so a thread's accumulator (j1-j0
// doubles) stays in cache; within a column, rows come in increasing order.

#include "cpu_internal.h"

GrB_Info GXD_cpu_tile_new (cpu_tile *T, const cpu_rows *B, int64_t j0,
    int64_t j1, char *msg)
{
    memset (T, 0, sizeof (*T)) ;
    T->j0 = j0 ; T->j1 = j1 ;
    int64_t k = B->ncols ;
    int64_t nz = B->p [j1] - B->p [j0] ;
    T->Bp = GXD_calloc (k + 1, sizeof (int64_t)) ;
    T->Bi = GXD_malloc ((nz > 0 ? nz : 1) * sizeof (int32_t)) ;
    T->Bx = GXD_malloc ((nz > 0 ? nz : 1) * sizeof (double)) ;
    if (T->Bp == NULL || T->Bi == NULL || T->Bx == NULL)
    {
        GXD_cpu_tile_free (T) ;
        return CPU_OOM (msg, "column block of B") ;
    }
    for (int64_t q = B->p [j0] ; q < B->p [j1] ; q++) T->Bp [B->j [q] + 1]++ ;
    for (int64_t c = 0 ; c < k ; c++) T->Bp [c+1] += T->Bp [c] ;
    int64_t *next = GXD_malloc ((k > 0 ? k : 1) * sizeof (int64_t)) ;
    if (next == NULL)
    {
        GXD_cpu_tile_free (T) ;
        return CPU_OOM (msg, "column block of B") ;
    }
    memcpy (next, T->Bp, k * sizeof (int64_t)) ;
    for (int64_t j = j0 ; j < j1 ; j++)
    {
        for (int64_t q = B->p [j] ; q < B->p [j+1] ; q++)
        {
            int64_t dst = next [B->j [q]]++ ;
            T->Bi [dst] = (int32_t) (j - j0) ;
            T->Bx [dst] = B->x [q] ;
        }
    }
    GXD_free (next) ;
    return GrB_SUCCESS ;
}

void GXD_cpu_tile_free (cpu_tile *T)
{
    GXD_free (T->Bp) ; GXD_free (T->Bi) ; GXD_free (T->Bx) ;
    memset (T, 0, sizeof (*T)) ;
}
