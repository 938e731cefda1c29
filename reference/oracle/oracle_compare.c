// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// reference/oracle/oracle_compare.c: GXO_compare, a result against the oracle
//------------------------------------------------------------------------------

// The one tolerance rule of tests and verify mode: |got - ref| <= rtol *
// max (|ref|, S), S the conditioning scale of GXO_scale.  Only got's present
// entries are compared, so a masked (sampled) result is checked against the
// full reference.  A NaN or Inf where the reference is finite always fails,
// since NaN fails every comparison that would otherwise let it through.

#include "oracle_internal.h"
#include <float.h>
#include <math.h>

// does g pass against r within tol?  err: how far off, relative
static bool passes (double g, double r, double s, double rtol, double *err)
{
    if (isnan (r))
    {
        *err = isnan (g) ? 0 : INFINITY ;
    }
    else if (isinf (r))
    {
        *err = (g == r) ? 0 : INFINITY ;
    }
    else if (!isfinite (g))
    {
        *err = INFINITY ;
    }
    else
    {
        double d = fabs (g - r), t = fmax (fabs (r), s) ;
        *err = d / fmax (t, DBL_MIN) ;
        return (d <= rtol * t) ;
    }
    return (*err == 0) ;
}

// the running comparison, one entry of got at a time; R [i*n+j] the
// reference (R [0] where riso), S the scale: Sx [i*n+j], or s where Sx is NULL
typedef struct
{
    const double *R, *Sx ;
    bool riso ;
    double s ;
    GrB_Index n ;
    double rtol ;
    int64_t bad, wi, wj ;
    double wg, wr, worst ;
}
tally ;

static void check (void *arg, GrB_Index i, GrB_Index j, double g)
{
    tally *t = arg ;
    GrB_Index p = i * t->n + j ;
    double err, r = t->R [t->riso ? 0 : p] ;
    double s = (t->Sx == NULL) ? t->s : t->Sx [p] ;
    if (isfinite (g) && isfinite (r))
    {
        // passes () without a division where the entry is no worse than
        // the worst so far, as almost all are
        double d = fabs (g - r), a = fabs (r), tol = (a > s) ? a : s ;
        t->bad += !(d <= t->rtol * tol) ;
        if (t->worst >= 0 && d <= t->worst * tol) return ;
        err = d / ((tol > DBL_MIN) ? tol : DBL_MIN) ;
    }
    else if (!passes (g, r, s, t->rtol, &err))
    {
        t->bad++ ;
    }
    if (err > t->worst)
    {
        t->worst = err ;
        t->wi = (int64_t) i ;
        t->wj = (int64_t) j ;
        t->wg = g ;
        t->wr = r ;
    }
}

// The values of M (m-by-n), read in place where the oracle may (M is full,
// FP64, and not got itself, which is iterated meanwhile): *X into F, else a
// copy in *copy (missing entries 0).  *iso: one value for all.
#undef  FREE_ALL
#define FREE_ALL ;

static GrB_Info values_of (const double **X, bool *iso, gxo_full *F,
    double **copy, GrB_Matrix M, GrB_Matrix got)
{
    GrB_Info info = (M != got) ? GXO_full_open (F, M) : GrB_NO_VALUE ;
    TRY (info) ;
    if (info == GrB_SUCCESS)
    {
        *X = F->x ;
        *iso = F->iso ;
    }
    else
    {
        TRY (GXO_to_dense (copy, M)) ;
        *X = *copy ;
        *iso = false ;
    }
    return (GrB_SUCCESS) ;
}

// got's entries from its own array, in place, where got is full FP64 held
// by row (an all-pairs result): a block of rows a tally, as the iterators
// of GXO_compare would visit them, with no call per entry (an iterator
// call per entry cost more than the comparison).  *done false: got is held
// otherwise, and left as it is.
#undef  FREE_ALL
#define FREE_ALL (void) GXO_full_close (&F) ;

static GrB_Info compare_full (bool *done, tally *tallies, int nb,
    GrB_Matrix got)
{
    gxo_full F = { NULL, NULL, 0, false } ;
    int32_t status = 0 ;
    GxB_Format_Value format = GxB_BY_COL ;
    GrB_Index m, n ;
    *done = false ;
    TRY (GrB_Matrix_nrows (&m, got)) ;
    TRY (GrB_Matrix_ncols (&n, got)) ;
    TRY (GxB_Matrix_Option_get (got, GxB_SPARSITY_STATUS, &status)) ;
    TRY (GxB_Matrix_Option_get (got, GxB_FORMAT, &format)) ;
    if (status != GxB_FULL || format != GxB_BY_ROW) return (GrB_SUCCESS) ;
    GrB_Info info = GXO_full_open (&F, got) ;
    TRY (info) ;
    if (info == GrB_NO_VALUE) return (GrB_SUCCESS) ;
    const double *x = F.x ;
    GrB_Index stride = F.iso ? 0 : 1 ;
    #pragma omp parallel for schedule(dynamic, 1)
    for (int b = 0 ; b < nb ; b++)
    {
        for (GrB_Index i = m * b / nb ; i < m * (b + 1) / nb ; i++)
        {
            const double *xi = x + i * n * stride ;
            for (GrB_Index j = 0 ; j < n ; j++)
            {
                check (&tallies [b], i, j, xi [j * stride]) ;
            }
        }
    }
    *done = true ;
    return (GXO_full_close (&F)) ;
}

#undef  FREE_ALL
#define FREE_ALL free (I) ; free (J) ; free (V) ; free (R) ; free (Sx) ;   \
    free (tallies) ; (void) GXO_full_close (&FR) ;                          \
    (void) GXO_full_close (&FS) ;

GrB_Info GXO_compare (GrB_Matrix got, GrB_Matrix ref, GrB_Matrix S,
    double rtol, int64_t *nbad, int64_t *worst_i, int64_t *worst_j,
    double *worst_got, double *worst_ref)
{
    GrB_Index *I = NULL, *J = NULL ;
    double *V = NULL, *R = NULL, *Sx = NULL ;
    tally *tallies = NULL ;
    gxo_full FR = { NULL, NULL, 0, false }, FS = { NULL, NULL, 0, false } ;
    CHECK (got != NULL && ref != NULL && nbad != NULL && worst_i != NULL &&
        worst_j != NULL && worst_got != NULL && worst_ref != NULL,
        GrB_NULL_POINTER) ;
    GrB_Index m, n, rm, rn, rnvals, nvals ;
    TRY (GrB_Matrix_nrows (&m, got)) ;
    TRY (GrB_Matrix_ncols (&n, got)) ;
    TRY (GrB_Matrix_nrows (&rm, ref)) ;
    TRY (GrB_Matrix_ncols (&rn, ref)) ;
    CHECK (rm == m && rn == n, GrB_DIMENSION_MISMATCH) ;
    TRY (GrB_Matrix_nvals (&rnvals, ref)) ;
    CHECK (rnvals == m * n, GrB_INVALID_VALUE) ;        // ref must be full
    tally t = { NULL, NULL, false, 0, n, rtol, 0, -1, -1, 0, 0, -1 } ;
    if (S != NULL)
    {
        TRY (GrB_Matrix_nrows (&rm, S)) ;
        TRY (GrB_Matrix_ncols (&rn, S)) ;
        CHECK (rm == m && rn == n, GrB_DIMENSION_MISMATCH) ;
    }
    // S may be ref itself: then its values are a copy, taken first
    if (S != NULL && S == ref)
    {
        TRY (GXO_to_dense (&Sx, S)) ;
        t.Sx = Sx ;
    }
    else if (S != NULL)
    {
        bool siso ;
        TRY (values_of (&t.Sx, &siso, &FS, &Sx, S, got)) ;
        if (siso)
        {
            t.s = t.Sx [0] ;
            t.Sx = NULL ;
        }
    }
    TRY (values_of (&t.R, &t.riso, &FR, &R, ref, got)) ;
    // got's entries, typecast to double: from its own array where it is
    // full FP64 held by row, else by iterators where it can (FP64 and FP32
    // held by row), a tally per block of rows, the blocks' tallies
    // then taken in row order (the worst entry is the first of the largest
    // error, as one pass in row order finds it); else as extracted tuples
    int nb = GXO_iterate_blocks () ;
    tallies = malloc (nb * sizeof (tally)) ;
    CHECK (tallies != NULL, GrB_OUT_OF_MEMORY) ;
    for (int b = 0 ; b < nb ; b++) tallies [b] = t ;
    bool fp64, ok = true, done ;
    GrB_Index nrows ;
    TRY (compare_full (&done, tallies, nb, got)) ;
    if (!done && GXO_iterable (got, &fp64, &nrows))
    {
        // (check named here, inside the loop, so that it is inlined)
        #pragma omp parallel for schedule(dynamic, 1) reduction(&&:ok)
        for (int b = 0 ; b < nb ; b++)
        {
            GrB_Index i0 = nrows * b / nb, i1 = nrows * (b + 1) / nb ;
            if (i0 < i1)
            {
                ok = GXO_visit_rows (got, fp64, i0, i1, check, &tallies [b])
                    && ok ;
            }
        }
        CHECK (ok, GrB_OUT_OF_MEMORY) ;
        done = true ;
    }
    if (done)
    {
        for (int b = 0 ; b < nb ; b++)
        {
            t.bad += tallies [b].bad ;
            if (tallies [b].worst > t.worst)
            {
                t.worst = tallies [b].worst ; t.wi = tallies [b].wi ;
                t.wj = tallies [b].wj ; t.wg = tallies [b].wg ;
                t.wr = tallies [b].wr ;
            }
        }
    }
    else
    {
        TRY (GrB_Matrix_nvals (&nvals, got)) ;
        I = calloc (nvals + 1, sizeof (GrB_Index)) ;
        J = calloc (nvals + 1, sizeof (GrB_Index)) ;
        V = calloc (nvals + 1, sizeof (double)) ;
        CHECK (I != NULL && J != NULL && V != NULL, GrB_OUT_OF_MEMORY) ;
        TRY (GrB_Matrix_extractTuples_FP64 (I, J, V, &nvals, got)) ;
        for (GrB_Index q = 0 ; q < nvals ; q++) check (&t, I [q], J [q], V [q]) ;
    }
    *nbad = t.bad ;
    *worst_i = t.wi ;
    *worst_j = t.wj ;
    *worst_got = t.wg ;
    *worst_ref = t.wr ;
    GrB_Info info = GXO_full_close (&FR) ;
    GrB_Info sinfo = GXO_full_close (&FS) ;
    FREE_ALL ;
    return ((info == GrB_SUCCESS) ? sinfo : info) ;
}
