// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// cli/cli_self.c: --exclude-self on a block of A's rows
//------------------------------------------------------------------------------

// GxB_Desc_set_exclude_self drops the pairs j == i in the numbering of the
// call's own A, so a block of rows r0.. of A cannot use it: its self pairs
// are (i, r0+i).  A mask of those pairs would do, but a masked call leaves
// the GPU's kNN kernel (unmasked calls only) for the generic tile path,
// several times slower.  So the block is computed unmasked and its self
// pairs are dropped here:
//   radius: every pair (i, r0+i) is removed (GrB_OFFDIAG, thunk r0);
//   knn:    the block asks for k+1 neighbors; a row that holds (i, r0+i)
//           loses it, any other row of k+1 loses its last (the worst in
//           GxB_kNN's order: distance, largest first for DOT, then column).
// Either way a row keeps the k best of the candidates other than r0+i, in
// GxB_kNN's total order: what one call with exclude-self gives, bit for bit
// (tests/test_cli.sh compares the bytes).

#include "cli.h"

#include <math.h>
#include <stdlib.h>

// whether candidate a comes after candidate b in GxB_kNN's order
static bool worse (double xa, GrB_Index ja, double xb, GrB_Index jb,
    bool largest)
{
    bool na = isnan (xa), nb = isnan (xb) ;
    if (na != nb) return na ;                   // NaN last
    if (!na && xa != xb) return largest ? (xa < xb) : (xa > xb) ;
    return ja > jb ;                            // ties: larger column last
}

GrB_Info cli_drop_self (GrB_Matrix *C, GrB_Matrix T, int64_t r0, uint64_t k,
    bool largest)
{
    #define CLI_FREE_ALL                                                    \
        GrB_Matrix_free (C) ;                                               \
        free (I) ; free (J) ; free (X) ; free (P) ; free (Q) ;
    GrB_Index *I = NULL, *J = NULL, *P = NULL, *Q = NULL ;
    double *X = NULL ;
    GrB_Index nr, n, nv ;
    GrB_Type type ;
    CLI_TRY (GrB_Matrix_nrows (&nr, T)) ;
    CLI_TRY (GrB_Matrix_ncols (&n, T)) ;
    CLI_TRY (GrB_Matrix_nvals (&nv, T)) ;
    CLI_TRY (GxB_Matrix_type (&type, T)) ;
    CLI_TRY (GrB_Matrix_new (C, type, nr, n)) ;
    if (k == 0)
    {
        // radius: keep the entries with j - i != r0
        CLI_TRY (GrB_Matrix_select_INT64 (*C, NULL, NULL, GrB_OFFDIAG, T,
            r0, NULL)) ;
        return GrB_SUCCESS ;
    }

    // knn: T's entries grouped by row (P: row pointers, Q: entries)
    size_t sz = (size_t) (nv > 0 ? nv : 1) ;
    I = malloc (sz * sizeof (GrB_Index)) ;
    J = malloc (sz * sizeof (GrB_Index)) ;
    X = malloc (sz * sizeof (double)) ;
    Q = malloc (sz * sizeof (GrB_Index)) ;
    P = calloc ((size_t) nr + 1, sizeof (GrB_Index)) ;
    if (!I || !J || !X || !Q || !P) CLI_FAIL (GrB_OUT_OF_MEMORY, "out of memory") ;
    // doubles hold every float exactly, so the values go back unchanged
    CLI_TRY (GrB_Matrix_extractTuples_FP64 (I, J, X, &nv, T)) ;
    for (GrB_Index q = 0 ; q < nv ; q++) P [I [q] + 1]++ ;
    for (GrB_Index i = 0 ; i < nr ; i++) P [i+1] += P [i] ;
    for (GrB_Index q = 0 ; q < nv ; q++) Q [P [I [q]]++] = q ;
    for (GrB_Index i = nr ; i > 0 ; i--) P [i] = P [i-1] ;
    P [0] = 0 ;

    // the entry each row loses, if any, marked by I [q] = nr
    for (GrB_Index i = 0 ; i < nr ; i++)
    {
        int64_t drop = -1 ;
        for (GrB_Index p = P [i] ; p < P [i+1] ; p++)
        {
            GrB_Index q = Q [p] ;
            if (J [q] == i + (GrB_Index) r0) { drop = (int64_t) q ; break ; }
            if (P [i+1] - P [i] > k && (drop < 0 || worse (X [q], J [q],
                X [drop], J [drop], largest)))
            {
                drop = (int64_t) q ;
            }
        }
        if (drop >= 0) I [drop] = nr ;
    }
    GrB_Index e = 0 ;
    for (GrB_Index q = 0 ; q < nv ; q++)
    {
        if (I [q] == nr) continue ;
        I [e] = I [q] ; J [e] = J [q] ; X [e] = X [q] ; e++ ;
    }
    CLI_TRY (GrB_Matrix_build_FP64 (*C, I, J, X, e, GrB_FIRST_FP64)) ;
    CLI_TRY (GrB_Matrix_wait (*C, GrB_MATERIALIZE)) ;
    free (I) ; free (J) ; free (X) ; free (P) ; free (Q) ;
    return GrB_SUCCESS ;
    #undef CLI_FREE_ALL
}
