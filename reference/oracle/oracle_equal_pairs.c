// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// reference/oracle/oracle_equal_pairs.c: HAMMING's common columns by counts
//------------------------------------------------------------------------------

// HAMMING's term f(x,y) = [x != y] has, over a column that A_i and B_j
// share, the part g(x,y) = f(x,y) - f(x,0) - f(0,y) of GXO_union_plus_terms:
// 0 where x or y is 0 (a stored zero), else -1 - [x == y].  So the common
// columns' sum is -(the common columns where both are nonzero) - (those
// where they are also equal), two counts, and a count is a PLUS.PAIR-like
// product GraphBLAS runs as a compiled kernel: the equal ones are the
// common "columns" of A and B written by (column, value) pair, A(i,c) = v
// as a 1 in column (c, v) of A1 and likewise B1, whose product holds only
// the products of equal values.  Where A and B have few distinct values
// the classes of oracle_sum.c come first.  The
// product of f itself would call f through a pointer once per product of
// common columns; these counts run as GraphBLAS's compiled kernels.
// PLUS.ISEQ would count the equal ones in one product, but Debian's 7.4 has
// no compiled kernel for it: it calls its operator per product too.

#include "oracle_internal.h"

// a (column, value) pair of A, by column then value
typedef struct { GrB_Index c ; double v ; } cv ;

static int cv_order (const void *p, const void *q)
{
    const cv *a = p, *b = q ;
    if (a->c != b->c) return ((a->c < b->c) ? -1 : 1) ;
    return ((a->v < b->v) ? -1 : (a->v > b->v) ? 1 : 0) ;
}

// the index in P [lo, hi) (sorted, distinct) of the pair (c, v), or -1
// (always for a NaN, which equals nothing and compares with nothing)
static int64_t find_pair (const cv *P, GrB_Index lo, GrB_Index hi,
    GrB_Index c, double v)
{
    if (v != v) return (-1) ;
    cv key = { c, v } ;
    while (lo < hi)
    {
        GrB_Index mid = lo + (hi - lo) / 2 ;
        int o = cv_order (&P [mid], &key) ;
        if (o == 0) return ((int64_t) mid) ;
        if (o < 0) lo = mid + 1 ; else hi = mid ;
    }
    return (-1) ;
}

// *I, *J, *X (new), *nv: the tuples of M (FP64)
#undef  FREE_ALL
#define FREE_ALL free (*I) ; free (*J) ; free (*X) ; *I = *J = NULL ; *X = NULL ;

static GrB_Info tuples (GrB_Index **I, GrB_Index **J, double **X,
    GrB_Index *nv, GrB_Matrix M)
{
    *I = *J = NULL ;
    *X = NULL ;
    TRY (GrB_Matrix_nvals (nv, M)) ;
    *I = malloc ((*nv + 1) * sizeof (GrB_Index)) ;
    *J = malloc ((*nv + 1) * sizeof (GrB_Index)) ;
    *X = malloc ((*nv + 1) * sizeof (double)) ;
    CHECK (*I != NULL && *J != NULL && *X != NULL, GrB_OUT_OF_MEMORY) ;
    TRY (GrB_Matrix_extractTuples_FP64 (*I, *J, *X, nv, M)) ;
    return (GrB_SUCCESS) ;
}

// The common columns' part of HAMMING's sum as one built-in product, *L
// PLUS.FIRST *R (both NULL where A has no nonzero entry): *L = Ax (m-by-
// (kc + K)), *R = G, Ax = -1 at (i, c') for each nonzero
// A(i,c) (c' its index among the kc columns where A has one) and at (i, kc
// + p) for its (column, value) pair p, G = 1 at (c', j) for each nonzero
// B(j,c) on those columns and at (kc + p, j) where B(j,c) is A's pair p.
// NaN equals nothing: it has no pair.
#undef  FREE_ALL
#define FREE_ALL                                                            \
    free (IA) ; free (JA) ; free (XA) ; free (IB) ; free (JB) ; free (XB) ; \
    free (P) ; free (cut) ; free (start) ; free (I) ; free (J) ;            \
    GrB_Matrix_free (&Ax) ; GrB_Matrix_free (&G) ; GrB_Scalar_free (&s) ;

GrB_Info GXO_common_ne (GrB_Matrix *L, GrB_Matrix *R, GrB_Matrix A,
    GrB_Matrix B)
{
    GrB_Index *IA = NULL, *JA = NULL, *IB = NULL, *JB = NULL, *I = NULL,
        *J = NULL, *start = NULL, m, n, k, na, nb, np = 0, kc = 0, q ;
    double *XA = NULL, *XB = NULL ;
    int64_t *cut = NULL ;
    cv *P = NULL ;
    GrB_Matrix Ax = NULL, G = NULL ;
    GrB_Scalar s = NULL ;
    *L = NULL ;
    *R = NULL ;
    TRY (GrB_Matrix_nrows (&m, A)) ;
    TRY (GrB_Matrix_nrows (&n, B)) ;
    TRY (GrB_Matrix_ncols (&k, A)) ;
    TRY (tuples (&IA, &JA, &XA, &na, A)) ;
    TRY (tuples (&IB, &JB, &XB, &nb, B)) ;
    // A's distinct (column, value) pairs, sorted; the columns they use
    P = malloc ((na + 1) * sizeof (cv)) ;
    cut = malloc ((k + 1) * sizeof (int64_t)) ;
    CHECK (P != NULL && cut != NULL, GrB_OUT_OF_MEMORY) ;
    for (GrB_Index p = 0 ; p < na ; p++)
    {
        if (XA [p] != 0 && XA [p] == XA [p]) P [np++] = (cv) { JA [p], XA [p] } ;
    }
    qsort (P, np, sizeof (cv), cv_order) ;
    GrB_Index K = 0 ;
    for (GrB_Index p = 0 ; p < np ; p++)
    {
        if (K == 0 || cv_order (&P [K-1], &P [p]) != 0) P [K++] = P [p] ;
    }
    for (GrB_Index c = 0 ; c < k ; c++) cut [c] = -1 ;
    for (GrB_Index p = 0 ; p < na ; p++)
    {
        // a NaN is nonzero: its column counts, though it has no pair
        if (XA [p] != 0 && cut [JA [p]] < 0) cut [JA [p]] = 0 ;
    }
    for (GrB_Index c = 0 ; c < k ; c++) if (cut [c] == 0) cut [c] = (int64_t) kc++ + 1 ;
    // cut [c] = 1 + c's index among the used columns; start [c'] = its
    // first pair
    start = calloc (kc + 2, sizeof (GrB_Index)) ;
    CHECK (start != NULL, GrB_OUT_OF_MEMORY) ;
    for (GrB_Index p = 0 ; p < K ; p++) start [cut [P [p].c]]++ ;
    for (GrB_Index c = 0 ; c < kc ; c++) start [c + 1] += start [c] ;
    if (kc == 0) { FREE_ALL ; return (GrB_SUCCESS) ; }
    // Ax's tuples: two an entry at most, then G's
    GrB_Index nmax = 2 * ((na > nb) ? na : nb) + 1 ;
    I = malloc (nmax * sizeof (GrB_Index)) ;
    J = malloc (nmax * sizeof (GrB_Index)) ;
    CHECK (I != NULL && J != NULL, GrB_OUT_OF_MEMORY) ;
    q = 0 ;
    for (GrB_Index p = 0 ; p < na ; p++)
    {
        if (XA [p] == 0) continue ;
        GrB_Index c = (GrB_Index) cut [JA [p]] - 1 ;
        I [q] = IA [p] ; J [q++] = c ;
        int64_t e = find_pair (P, start [c], start [c + 1], JA [p], XA [p]) ;
        if (e >= 0) { I [q] = IA [p] ; J [q++] = kc + (GrB_Index) e ; }
    }
    TRY (GrB_Scalar_new (&s, GrB_FP64)) ;
    TRY (GrB_Scalar_setElement_FP64 (s, -1)) ;
    TRY (GrB_Matrix_new (&Ax, GrB_FP64, m, kc + K)) ;
    TRY (GxB_Matrix_build_Scalar (Ax, I, J, s, q)) ;
    q = 0 ;
    for (GrB_Index p = 0 ; p < nb ; p++)
    {
        if (XB [p] == 0 || cut [JB [p]] < 0) continue ;
        GrB_Index c = (GrB_Index) cut [JB [p]] - 1 ;
        I [q] = c ; J [q++] = IB [p] ;
        int64_t e = find_pair (P, start [c], start [c + 1], JB [p], XB [p]) ;
        if (e >= 0) { I [q] = kc + (GrB_Index) e ; J [q++] = IB [p] ; }
    }
    TRY (GrB_Matrix_new (&G, GrB_FP64, kc + K, n)) ;
    TRY (GxB_Matrix_build_Scalar (G, I, J, s, q)) ;
    *L = Ax ;
    *R = G ;
    Ax = NULL ;
    G = NULL ;
    FREE_ALL ;
    return (GrB_SUCCESS) ;
}
