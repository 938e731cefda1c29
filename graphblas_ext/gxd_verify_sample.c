// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// graphblas_ext/gxd_verify_sample.c: the rows verify mode samples
//------------------------------------------------------------------------------

// ns = min (m, GxB_Distance_set_verify_rows's n) rows of A (every row for 0):
// row 0 and row m-1 always (the ends, where off-by-one errors live, and row
// 0 holds the first entry of an unmasked result), the others drawn without
// repetition by splitmix64 from a fixed seed (Floyd's algorithm), so that a
// call samples the same rows every time and a failure reproduces.

#include "gxd_internal.h"

#define GXD_VERIFY_SEED 0x9e3779b97f4a7c15ULL

static uint64_t splitmix64 (uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL) ;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL ;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL ;
    return z ^ (z >> 31) ;
}

static int ascending (const void *a, const void *b)
{
    GrB_Index x = *(const GrB_Index *) a, y = *(const GrB_Index *) b ;
    return (x > y) - (x < y) ;
}

GrB_Info GXD_verify_sample (GrB_Index **I, GrB_Index *ns, GrB_Index m)
{
    #define GXD_FREE_ALL GXD_free (*I) ; *I = NULL ; GXD_free (taken) ;
    bool *taken = NULL ;
    uint64_t want = GXD_settings.verify_rows ;
    GrB_Index n = (want == 0 || want >= m) ? m : want ;
    *I = GXD_malloc ((n + 1) * sizeof (GrB_Index)) ;
    if (*I == NULL) GXD_FAIL (GrB_OUT_OF_MEMORY, "verify: out of memory") ;
    *ns = n ;
    if (n == m)
    {
        for (GrB_Index i = 0 ; i < m ; i++) (*I) [i] = i ;
        return GrB_SUCCESS ;
    }
    taken = GXD_malloc (m * sizeof (bool)) ;
    if (taken == NULL) GXD_FAIL (GrB_OUT_OF_MEMORY, "verify: out of memory") ;
    memset (taken, 0, m * sizeof (bool)) ;
    // n < m here, so m >= 2: rows 0 and m-1 first (just row 0 if n = 1),
    // then n - c of the m - 2 rows between them
    GrB_Index c = 0 ;
    (*I) [c++] = 0 ;
    if (n >= 2) (*I) [c++] = m - 1 ;
    // Floyd over 0 .. mid-1 (row t + 1): for r = mid-(n-c) .. mid-1, pick t
    // in [0, r]; if t is taken already, take r (which cannot be)
    GrB_Index mid = m - 2 ;
    uint64_t state = GXD_VERIFY_SEED ;
    for (GrB_Index r = mid - (n - c) ; c < n ; r++)
    {
        GrB_Index t = splitmix64 (&state) % (r + 1) ;
        if (taken [t]) t = r ;
        taken [t] = true ;
        (*I) [c++] = t + 1 ;
    }
    qsort (*I, n, sizeof (GrB_Index), ascending) ;
    GXD_free (taken) ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

GrB_Info GXD_verify_rows_at (GrB_Matrix *R, GrB_Matrix M, const GrB_Index *I,
    GrB_Index ns)
{
    #define GXD_FREE_ALL GrB_Matrix_free (R) ;
    GrB_Type type ;
    GrB_Index ncols ;
    GXD_TRY (GxB_Matrix_type (&type, M)) ;
    GXD_TRY (GrB_Matrix_ncols (&ncols, M)) ;
    GXD_TRY (GrB_Matrix_new (R, type, ns, ncols)) ;
    GXD_TRY (GrB_Matrix_extract (*R, NULL, NULL, M, I, ns, GrB_ALL, ncols, NULL)) ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}
