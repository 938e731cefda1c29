// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// mpi/gxm_merge.c: each row's k best candidates, merged over blocks of B
//------------------------------------------------------------------------------

// GxB_kNN's result is the first k of a stable sort of each row of the
// distance matrix: candidates ordered by distance (largest first for a
// similarity, NaN last), ties by the smaller column.  That order is total
// on (distance, global column), and the first k of a union are the first
// k of the union of each part's first k, so merging the k best of every
// block, each in that order, gives exactly GxB_kNN's result on the whole
// of B.  The order is gxbdist's (graphblas_ext/gxd_neighbors.h,
// gxd_better), applied to the same values: the block's distances in
// GxB_kNN's result type, read as double (exact for FP32 and FP64).

#include "gxm_internal.h"
#include <omp.h>

// a before b: the better value, or equal values and the smaller column
static inline bool better (double a, double b, bool largest)
{
    if (a != a) return false ;
    if (b != b) return true ;
    return largest ? (a > b) : (a < b) ;
}

static inline bool before (const gxm_cand *a, const gxm_cand *b,
    bool largest)
{
    if (better (a->d, b->d, largest)) return true ;
    if (better (b->d, a->d, largest)) return false ;
    return a->j < b->j ;
}

// a row's candidates in order: an insertion sort (a block gives each row
// at most k, often 10 to 100), a shell sort past GXM_INSERTION
#define GXM_INSERTION 64
static void sort_row (gxm_cand *c, int64_t n, bool largest)
{
    int64_t gap = 1 ;
    if (n > GXM_INSERTION) while (gap < n / 3) gap = 3 * gap + 1 ;
    for ( ; gap > 0 ; gap /= 3)
    {
        for (int64_t q = gap ; q < n ; q++)
        {
            gxm_cand t = c [q] ;
            int64_t p = q ;
            for ( ; p >= gap && before (&t, &c [p-gap], largest) ; p -= gap)
            {
                c [p] = c [p-gap] ;
            }
            c [p] = t ;
        }
    }
}

GrB_Info GXM_best_alloc (gxm_best *B, int64_t m, uint64_t k, bool largest)
{
    #define GXM_FREE_ALL GXM_best_free (B) ;
    memset (B, 0, sizeof (*B)) ;
    B->m = m ;
    B->k = (int64_t) k ;
    B->largest = largest ;
    if (m > 0 && k > (uint64_t) (SIZE_MAX / 4 / sizeof (gxm_cand) / m))
    {
        GXM_FAIL (GrB_OUT_OF_MEMORY, "GxB_kNN_MPI: %lld rows x k = %llu "
            "neighbors do not fit in memory", (long long) m,
            (unsigned long long) k) ;
    }
    B->c = malloc ((size_t) (m > 0 ? m : 1) * (size_t) k * sizeof (gxm_cand)) ;
    B->count = calloc ((size_t) (m > 0 ? m : 1), sizeof (int64_t)) ;
    if (B->c == NULL || B->count == NULL)
    {
        GXM_FAIL (GrB_OUT_OF_MEMORY, "GxB_kNN_MPI: out of memory for %lld "
            "rows x %llu neighbors", (long long) m, (unsigned long long) k) ;
    }
    return GrB_SUCCESS ;
    #undef GXM_FREE_ALL
}

void GXM_best_free (gxm_best *B)
{
    free (B->c) ; B->c = NULL ;
    free (B->count) ; B->count = NULL ;
}

// row i's kept candidates (sorted, cnt of them) merged with the block's
// new ones (sorted, nn): the first k of both, written into the row
static void merge_row (gxm_best *B, int64_t i, const gxm_cand *nw,
    int64_t nn, gxm_cand *tmp)
{
    gxm_cand *old = B->c + i * B->k ;
    int64_t cnt = B->count [i], a = 0, b = 0, t = 0 ;
    while (t < B->k && (a < cnt || b < nn))
    {
        bool take_old = (b == nn)
            || (a < cnt && before (&old [a], &nw [b], B->largest)) ;
        tmp [t++] = take_old ? old [a++] : nw [b++] ;
    }
    memcpy (old, tmp, (size_t) t * sizeof (gxm_cand)) ;
    B->count [i] = t ;
}

GrB_Info GXM_best_merge (gxm_best *B, GrB_Matrix Cb, int64_t b0, int64_t a0,
    bool exclude_self)
{
    #define GXM_FREE_ALL free (I) ; free (J) ; free (X) ; free (start) ; \
        free (cand) ; free (tmp) ;
    GrB_Index *I = NULL, *J = NULL, nv = 0 ;
    double *X = NULL ;
    int64_t *start = NULL ;
    gxm_cand *cand = NULL, *tmp = NULL ;
    // (a thread a row at most: each holds a list of k)
    int nt = omp_get_max_threads ( ) ;
    if ((int64_t) nt > B->m) nt = (B->m > 0) ? (int) B->m : 1 ;
    GXM_TRY (GrB_Matrix_nvals (&nv, Cb)) ;
    size_t n1 = (nv > 0) ? nv : 1 ;
    I = malloc (n1 * sizeof (GrB_Index)) ;
    J = malloc (n1 * sizeof (GrB_Index)) ;
    X = malloc (n1 * sizeof (double)) ;
    start = calloc ((size_t) B->m + 1, sizeof (int64_t)) ;
    cand = malloc (n1 * sizeof (gxm_cand)) ;
    tmp = malloc ((size_t) nt * (size_t) (B->k > 0 ? B->k : 1) * sizeof (gxm_cand)) ;
    if (!I || !J || !X || !start || !cand || !tmp)
    {
        GXM_FAIL (GrB_OUT_OF_MEMORY, "GxB_kNN_MPI: out of memory for %llu "
            "candidates", (unsigned long long) nv) ;
    }
    GXM_TRY (GrB_Matrix_extractTuples_FP64 (I, J, X, &nv, Cb)) ;
    // the candidates by row (a counting sort: no order of the tuples is
    // assumed), global columns, the self pair left out
    for (GrB_Index q = 0 ; q < nv ; q++) start [I [q] + 1]++ ;
    for (int64_t i = 0 ; i < B->m ; i++) start [i+1] += start [i] ;
    for (GrB_Index q = 0 ; q < nv ; q++)
    {
        int64_t i = (int64_t) I [q], j = b0 + (int64_t) J [q] ;
        cand [start [i]++] = (gxm_cand) { X [q], j } ;
    }
    for (int64_t i = B->m ; i > 0 ; i--) start [i] = start [i-1] ;
    start [0] = 0 ;
    // rows are independent: each thread merges its own, with its own tmp
    #pragma omp parallel for num_threads(nt) schedule(static)
    for (int64_t i = 0 ; i < B->m ; i++)
    {
        gxm_cand *c = cand + start [i] ;
        int64_t nn = 0 ;
        for (int64_t q = 0 ; q < start [i+1] - start [i] ; q++)
        {
            if (exclude_self && c [q].j == a0 + i) continue ;
            c [nn++] = c [q] ;
        }
        sort_row (c, nn, B->largest) ;
        merge_row (B, i, c, nn, tmp + (size_t) omp_get_thread_num ( ) * B->k) ;
    }
    GXM_FREE_ALL ;
    return GrB_SUCCESS ;
    #undef GXM_FREE_ALL
}

GrB_Info GXM_best_matrix (GrB_Matrix *T, const gxm_best *B, int64_t n,
    GrB_Type type)
{
    #define GXM_FREE_ALL free (I) ; free (J) ; free (X) ; GrB_Matrix_free (T) ;
    GrB_Index *I = NULL, *J = NULL ;
    double *X = NULL ;
    int64_t nv = 0 ;
    for (int64_t i = 0 ; i < B->m ; i++) nv += B->count [i] ;
    size_t n1 = (nv > 0) ? (size_t) nv : 1 ;
    I = malloc (n1 * sizeof (GrB_Index)) ;
    J = malloc (n1 * sizeof (GrB_Index)) ;
    X = malloc (n1 * sizeof (double)) ;
    if (!I || !J || !X)
    {
        GXM_FAIL (GrB_OUT_OF_MEMORY, "GxB_kNN_MPI: out of memory for %lld "
            "neighbors", (long long) nv) ;
    }
    int64_t q = 0 ;
    for (int64_t i = 0 ; i < B->m ; i++)
    {
        for (int64_t t = 0 ; t < B->count [i] ; t++, q++)
        {
            I [q] = (GrB_Index) i ;
            J [q] = (GrB_Index) B->c [i * B->k + t].j ;
            X [q] = B->c [i * B->k + t].d ;
        }
    }
    // the values are of type already (read from it as double): exact
    GXM_TRY (GrB_Matrix_new (T, type, (GrB_Index) B->m, (GrB_Index) n)) ;
    GXM_TRY (GrB_Matrix_build_FP64 (*T, I, J, X, (GrB_Index) nv, NULL)) ;
    free (I) ; free (J) ; free (X) ;
    return GrB_SUCCESS ;
    #undef GXM_FREE_ALL
}
