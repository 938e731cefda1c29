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

// the running comparison, one entry of got at a time, for rows i0 .. of
// it; R [(i-i0)*n+j] the reference (R [0] where riso), S the scale:
// Sx [(i-i0)*n+j], or s where Sx is NULL
typedef struct
{
    const double *R, *Sx ;
    bool riso ;
    double s ;
    GrB_Index n, i0 ;
    double rtol ;
    int64_t bad, wi, wj ;
    double wg, wr, worst ;
}
tally ;

static void check (void *arg, GrB_Index i, GrB_Index j, double g)
{
    tally *t = arg ;
    GrB_Index p = (i - t->i0) * t->n + j ;
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

// the error e of one entry (d = |g - r| and its tolerance tol = max (|r|,
// s) as check has them), and what check_row's vectorised pass takes of it
#define ENTRY_ERROR(gj, rj, sj)                                             \
    double d = fabs ((gj) - (rj)), a = fabs (rj) ;                          \
    double tol = (a > (sj)) ? a : (sj) ;                                    \
    double e = d / ((tol > DBL_MIN) ? tol : DBL_MIN) ;

#define ENTRY_PASS(gj, rj, sj)                                              \
{                                                                           \
    ENTRY_ERROR (gj, rj, sj) ;                                              \
    odd += (fabs (gj) <= DBL_MAX && a <= DBL_MAX) ? 0 : 1 ;                 \
    bad += (d <= rtol * tol) ? 0 : 1 ;                                      \
    big = (e > big) ? e : big ;                                             \
}

// check for row i of got (its values g [0..n-1]), where the reference is
// not iso: one vectorised pass counts the failing entries and the values
// that are not finite (NaN fails every comparison: counted) and finds the
// largest error (counts in double, exact below 2^53, so that SSE2
// vectorises them), then the first entry of that error is taken where it
// is worse than the worst so far, as check would have found it.  A row
// with a value that is not finite goes entry by entry (check).
static void check_row (tally *t, GrB_Index i, const double *g, GrB_Index n)
{
    const double *r = t->R + (i - t->i0) * t->n ;
    const double *sx = (t->Sx == NULL) ? NULL : t->Sx + (i - t->i0) * t->n ;
    double big = 0, odd = 0, bad = 0, rtol = t->rtol, s = t->s ;
    if (sx == NULL)
    {
        #pragma omp simd reduction(max:big) reduction(+:bad,odd)
        for (GrB_Index j = 0 ; j < n ; j++) ENTRY_PASS (g [j], r [j], s) ;
    }
    else
    {
        #pragma omp simd reduction(max:big) reduction(+:bad,odd)
        for (GrB_Index j = 0 ; j < n ; j++) ENTRY_PASS (g [j], r [j], sx [j]) ;
    }
    if (odd > 0)
    {
        for (GrB_Index j = 0 ; j < n ; j++) check (t, i, j, g [j]) ;
        return ;
    }
    t->bad += (int64_t) bad ;
    if (n == 0 || !(big > t->worst)) return ;
    for (GrB_Index j = 0 ; j < n ; j++)
    {
        ENTRY_ERROR (g [j], r [j], (sx == NULL) ? s : sx [j]) ;
        if (e == big)
        {
            t->worst = e ; t->wi = (int64_t) i ; t->wj = (int64_t) j ;
            t->wg = g [j] ; t->wr = r [j] ;
            return ;
        }
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

// got's entries in rows [i0, i1) from its own array, in place, where got
// is full FP64 held by row (an all-pairs result): a block of rows a tally,
// as the iterators of compare_rows would visit them, with no call per
// entry (an iterator call per entry cost more than the comparison).
// *done false: got is held otherwise, and left as it is.
#undef  FREE_ALL
#define FREE_ALL (void) GXO_full_close (&F) ;

static GrB_Info compare_full (bool *done, tally *tallies, int nb,
    GrB_Matrix got, GrB_Index i0, GrB_Index i1)
{
    gxo_full F = { NULL, NULL, 0, false } ;
    int32_t status = 0 ;
    GxB_Format_Value format = GxB_BY_COL ;
    GrB_Index n ;
    *done = false ;
    TRY (GrB_Matrix_ncols (&n, got)) ;
    TRY (GxB_Matrix_Option_get (got, GxB_SPARSITY_STATUS, &status)) ;
    TRY (GxB_Matrix_Option_get (got, GxB_FORMAT, &format)) ;
    if (status != GxB_FULL || format != GxB_BY_ROW) return (GrB_SUCCESS) ;
    GrB_Info info = GXO_full_open (&F, got) ;
    TRY (info) ;
    if (info == GrB_NO_VALUE) return (GrB_SUCCESS) ;
    const double *x = F.x ;
    GrB_Index stride = F.iso ? 0 : 1, m = i1 - i0 ;
    #pragma omp parallel for schedule(dynamic, 1)
    for (int b = 0 ; b < nb ; b++)
    {
        for (GrB_Index i = i0 + m * b / nb ; i < i0 + m * (b + 1) / nb ; i++)
        {
            const double *xi = x + i * n * stride ;
            if (stride == 1 && !tallies [b].riso)
            {
                check_row (&tallies [b], i, xi, n) ;
                continue ;
            }
            for (GrB_Index j = 0 ; j < n ; j++)
            {
                check (&tallies [b], i, j, xi [j * stride]) ;
            }
        }
    }
    *done = true ;
    return (GXO_full_close (&F)) ;
}

// t += the comparison of rows [i0, i1) of got with t's reference (those
// rows: t->i0 = i0), got's entries typecast to double: from its own array
// where it is full FP64 held by row, else by iterators where it can (FP64
// and FP32 held by row), a tally per block of rows, the blocks' tallies
// then taken in row order (the worst entry is the first of the largest
// error, as one pass in row order finds it).  *done false (t as it was):
// got cannot be read by rows.
#undef  FREE_ALL
#define FREE_ALL free (tallies) ;

static GrB_Info compare_rows (bool *done, tally *t, GrB_Matrix got,
    GrB_Index i0, GrB_Index i1)
{
    tally *tallies = NULL ;
    bool fp64, ok = true ;
    GrB_Index nrows ;
    int nb = GXO_iterate_blocks () ;
    tallies = malloc (nb * sizeof (tally)) ;
    CHECK (tallies != NULL, GrB_OUT_OF_MEMORY) ;
    for (int b = 0 ; b < nb ; b++)
    {
        // each starts from the worst so far, counting its own bad entries
        tallies [b] = *t ;
        tallies [b].bad = 0 ;
    }
    TRY (compare_full (done, tallies, nb, got, i0, i1)) ;
    if (!*done && GXO_iterable (got, &fp64, &nrows))
    {
        // (check named here, inside the loop, so that it is inlined)
        GrB_Index m = i1 - i0 ;
        #pragma omp parallel for schedule(dynamic, 1) reduction(&&:ok)
        for (int b = 0 ; b < nb ; b++)
        {
            GrB_Index b0 = i0 + m * b / nb, b1 = i0 + m * (b + 1) / nb ;
            if (b0 < b1)
            {
                ok = GXO_visit_rows (got, fp64, b0, b1, check, &tallies [b])
                    && ok ;
            }
        }
        CHECK (ok, GrB_OUT_OF_MEMORY) ;
        *done = true ;
    }
    if (*done)
    {
        for (int b = 0 ; b < nb ; b++)
        {
            t->bad += tallies [b].bad ;
            if (tallies [b].worst > t->worst)
            {
                t->worst = tallies [b].worst ; t->wi = tallies [b].wi ;
                t->wj = tallies [b].wj ; t->wg = tallies [b].wg ;
                t->wr = tallies [b].wr ;
            }
        }
    }
    FREE_ALL ;
    return (GrB_SUCCESS) ;
}

#undef  FREE_ALL
#define FREE_ALL free (I) ; free (J) ; free (V) ; free (R) ; free (Sx) ;   \
    (void) GXO_full_close (&FR) ; (void) GXO_full_close (&FS) ;

GrB_Info GXO_compare (GrB_Matrix got, GrB_Matrix ref, GrB_Matrix S,
    double rtol, int64_t *nbad, int64_t *worst_i, int64_t *worst_j,
    double *worst_got, double *worst_ref)
{
    GrB_Index *I = NULL, *J = NULL ;
    double *V = NULL, *R = NULL, *Sx = NULL ;
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
    tally t = { NULL, NULL, false, 0, n, 0, rtol, 0, -1, -1, 0, 0, -1 } ;
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
    bool done ;
    TRY (compare_rows (&done, &t, got, 0, m)) ;
    if (!done)
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

//------------------------------------------------------------------------------
// GXO_metric_compare: got against GXO_metric, a block of rows at a time
//------------------------------------------------------------------------------

// the comparison of every block so far, and the result it reads
typedef struct
{
    tally t ;
    GrB_Matrix got ;
}
blocks ;

// t += the comparison of the block D (rows i0 ..) of the reference, its
// scale S (NULL: s for every pair)
#undef  FREE_ALL
#define FREE_ALL (void) GXO_full_close (&FD) ; (void) GXO_full_close (&FS) ;

static GrB_Info compare_scaled (tally *t, GrB_Matrix got, GrB_Index i0,
    GrB_Matrix D, GrB_Matrix S, double s)
{
    gxo_full FD = { NULL, NULL, 0, false }, FS = { NULL, NULL, 0, false } ;
    GrB_Index mb, n ;
    bool done ;
    TRY (GXO_full_values (&FD, &mb, &n, D)) ;
    t->R = FD.x ;
    t->riso = FD.iso ;
    t->i0 = i0 ;
    t->s = s ;
    t->Sx = NULL ;
    if (S != NULL)
    {
        TRY (GXO_full_values (&FS, &mb, &n, S)) ;
        if (FS.iso) t->s = FS.x [0] ; else t->Sx = FS.x ;
    }
    TRY (compare_rows (&done, t, got, i0, i0 + mb)) ;
    CHECK (done, GrB_INVALID_VALUE) ;
    GrB_Info info = GXO_full_close (&FD) ;
    GrB_Info sinfo = GXO_full_close (&FS) ;
    return ((info == GrB_SUCCESS) ? sinfo : info) ;
}

// GXO_metric_compare's visit: the block compared without the pairs' own
// scale, and again with it where an entry fails without it (a block of a
// correct result has none: the scale's product is then not made)
#undef  FREE_ALL
#define FREE_ALL ;

static GrB_Info compare_block (void *arg, GrB_Index i0, GrB_Matrix *D,
    gxo_scaler *sc, double s)
{
    blocks *c = arg ;
    tally before = c->t ;
    TRY (compare_scaled (&c->t, c->got, i0, *D, NULL, s)) ;
    if (sc != NULL && c->t.bad > before.bad)
    {
        GrB_Matrix S ;
        c->t = before ;
        TRY (GXO_scale_rows (sc, &S)) ;
        TRY (compare_scaled (&c->t, c->got, i0, *D, S, s)) ;
    }
    return (GrB_SUCCESS) ;
}

#undef  FREE_ALL
#define FREE_ALL GrB_Matrix_free (&G) ;

GrB_Info GXO_metric_compare (GrB_Matrix got, const char *metric, double p,
    GrB_Type type, GrB_Matrix A, GrB_Matrix B, double rtol, int64_t *nbad,
    int64_t *worst_i, int64_t *worst_j, double *worst_got, double *worst_ref)
{
    GrB_Matrix G = NULL ;
    CHECK (got != NULL && A != NULL && B != NULL && nbad != NULL &&
        worst_i != NULL && worst_j != NULL && worst_got != NULL &&
        worst_ref != NULL, GrB_NULL_POINTER) ;
    GrB_Index m, n, gm, gn, nrows ;
    TRY (GrB_Matrix_nrows (&m, A)) ;
    TRY (GrB_Matrix_nrows (&n, B)) ;
    TRY (GrB_Matrix_nrows (&gm, got)) ;
    TRY (GrB_Matrix_ncols (&gn, got)) ;
    CHECK (gm == m && gn == n, GrB_DIMENSION_MISMATCH) ;
    bool fp64 ;
    if (!GXO_iterable (got, &fp64, &nrows))
    {
        // got held by column, or of another type: read from an FP64 copy
        // held by row
        TRY (GrB_Matrix_new (&G, GrB_FP64, m, n)) ;
        TRY (GxB_Matrix_Option_set (G, GxB_FORMAT, GxB_BY_ROW)) ;
        TRY (GrB_Matrix_assign (G, NULL, NULL, got, GrB_ALL, m, GrB_ALL, n,
            NULL)) ;
    }
    blocks c = { { NULL, NULL, false, 0, n, 0, rtol, 0, -1, -1, 0, 0, -1 },
        (G != NULL) ? G : got } ;
    TRY (GXO_metric_rows (metric, p, type, A, B, GXO_block_rows (n), true,
        compare_block, &c)) ;
    *nbad = c.t.bad ;
    *worst_i = c.t.wi ;
    *worst_j = c.t.wj ;
    *worst_got = c.t.wg ;
    *worst_ref = c.t.wr ;
    FREE_ALL ;
    return (GrB_SUCCESS) ;
}
