// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// reference/oracle/oracle_sum.c: the metrics' sums, a block of rows at a time
//------------------------------------------------------------------------------

// GXO_union_plus's rewrite for the metrics' own FP64 operators, whose terms
// are all >= 0 and f(0,0) = 0:
//
//   D(i,j) = ra_i + rb_j + sum over c in A_i n B_j of g(x_c, y_c),
//   g(x,y) = f(x,y) - f(x,0) - f(0,y)
//
// The common columns' part is a few products (gxo_prod), each prepared once
// for every row of A: parts of A and B (for MANHATTAN's min, by the levels
// of their values where there are few), or the classes of A's and B's
// values (few values: counts, ratings), or HAMMING's counts.  Then
// GXO_sum_rows computes the sum for one block of rows of A at a time, into
// a block of the result that the caller checks and reuses for the next: the
// m-by-n reference is never held at once.  A fresh m-by-n array costs the
// kernel's zeroing of every page (about as long as the products themselves
// at 1,600 rows of fortunes, 195 MB), and a block small enough to stay in
// the cache between its product, the row terms and the caller's comparison
// also makes the products faster (GXO_BLOCK_BYTES).
//
// Each block is written once with the row terms ra_i + rb_j, then the
// products are accumulated into its own array by GrB_mxm (no product
// result of their own), then one read of the block finds the pairs that
// may have cancelled.  The metrics' terms are all >= 0, so a pair's
// conditioning S = D + P, P the row terms of its common columns, is at
// most D + ra_i + rb_j: a pair is kept where ra_i + rb_j <= (tau - 1) D,
// which implies S <= tau D, and D is finite.  Every partial sum is within
// 2 S: the row terms are at most S, and the products' terms add up to at
// most S in magnitude (g between -(f(x,0) + f(0,y)) and f(x,y); T1's f(x,y)
// and P's; |-2xy| <= x^2 + y^2 and |-2 min (|x|,|y|)| <= |x| + |y|, the
// row terms of their column).  So whatever order GraphBLAS accumulates in,
// a kept pair of n terms is off by at most about 2 n eps S <= 2 tau n eps
// |D| (GXO_METRIC_TAU).
// The other pairs are done again from their own terms (GXO_pairs_at: the
// product of f over the union of the pair's columns).

#include "oracle_internal.h"
#include <math.h>
#include <string.h>

//------------------------------------------------------------------------------
// gxo_prod: C += L (rows) (+).(x) R
//------------------------------------------------------------------------------

void GXO_prod_free (gxo_prod *p)
{
    GrB_Matrix_free (&p->L) ;
    GrB_Matrix_free (&p->R) ;
    GrB_Matrix_free (&p->Lh) ;
    GrB_Matrix_free (&p->Rh) ;
    p->semiring = NULL ;
}

// the tuples of an FP64 matrix
typedef struct { GrB_Index *I, *J, n ; double *X ; } tuples ;

static void tuples_free (tuples *t)
{
    free (t->I) ; free (t->J) ; free (t->X) ;
    memset (t, 0, sizeof (tuples)) ;
}

#undef  FREE_ALL
#define FREE_ALL tuples_free (t) ;

static GrB_Info tuples_of (tuples *t, GrB_Matrix M)
{
    GrB_Type type ;
    memset (t, 0, sizeof (tuples)) ;
    TRY (GxB_Matrix_type (&type, M)) ;
    CHECK (type == GrB_FP64, GrB_DOMAIN_MISMATCH) ;
    TRY (GrB_Matrix_nvals (&t->n, M)) ;
    t->I = malloc ((t->n + 1) * sizeof (GrB_Index)) ;
    t->J = malloc ((t->n + 1) * sizeof (GrB_Index)) ;
    t->X = malloc ((t->n + 1) * sizeof (double)) ;
    CHECK (t->I != NULL && t->J != NULL && t->X != NULL, GrB_OUT_OF_MEMORY) ;
    TRY (GrB_Matrix_extractTuples_FP64 (t->I, t->J, t->X, &t->n, M)) ;
    return (GrB_SUCCESS) ;
}

// C += A (+).(x) B (FP64, C full, B given as the K-by-n transpose of the
// right operand), by GrB_mxm, its work shared by the threads in chunks of
// GXO_PRODUCT_CHUNK
static GrB_Info accumulate (GrB_Matrix C, GrB_Semiring semiring, GrB_Matrix A,
    GrB_Matrix BT)
{
    GrB_BinaryOp plus ;
    GrB_Monoid add ;
    GrB_Descriptor desc = NULL ;
    GrB_Info info = GxB_Semiring_add (&add, semiring) ;
    if (info == GrB_SUCCESS) info = GxB_Monoid_operator (&plus, add) ;
    if (info == GrB_SUCCESS) info = GrB_Descriptor_new (&desc) ;
    if (info == GrB_SUCCESS)
    {
        info = GxB_Desc_set (desc, GxB_CHUNK, (double) GXO_PRODUCT_CHUNK) ;
    }
    if (info == GrB_SUCCESS)
    {
        info = GrB_mxm (C, NULL, plus, semiring, A, BT, desc) ;
    }
    GrB_Descriptor_free (&desc) ;
    return (info) ;
}

// the bits set in x (libgcc's __builtin_popcountll is a call where the
// target has no popcnt instruction, as x86-64's baseline)
static inline GrB_Index bits_in (uint64_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555ull) ;
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull) ;
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full ;
    return ((x * 0x0101010101010101ull) >> 56) ;
}

// The columns that a set of tuples uses, numbered in order (their ranks): a
// bit for each of K columns and, for each word of 64, the count of those
// before it.  Arrays indexed by rank stand in for arrays of K: 100 rows of
// fortunes use about 1,000 of its 15,639 columns, and an array of K is
// fresh pages on each call (freed memory goes back to the system), whose
// faults cost more than the work on their few entries.
typedef struct { uint64_t *bits ; GrB_Index *before ; GrB_Index n ; } col_set ;

// a tuple whose column is not in the set (prod_parts)
#define NO_RANK UINT64_MAX

static void cols_free (col_set *s)
{
    free (s->bits) ; free (s->before) ;
    memset (s, 0, sizeof (col_set)) ;
}

static inline bool col_in (const col_set *s, GrB_Index c)
{
    return ((s->bits [c >> 6] >> (c & 63)) & 1) ;
}

static inline GrB_Index col_rank (const col_set *s, GrB_Index c)
{
    return (s->before [c >> 6] +
        bits_in (s->bits [c >> 6] & (((uint64_t) 1 << (c & 63)) - 1))) ;
}

#undef  FREE_ALL
#define FREE_ALL cols_free (s) ;

// *s = the columns J [0..nt-1] (each below K) use
static GrB_Info cols_new (col_set *s, const GrB_Index *J, GrB_Index nt,
    GrB_Index K)
{
    GrB_Index nw = K / 64 + 1, n = 0 ;
    s->bits = calloc (nw, sizeof (uint64_t)) ;
    s->before = malloc (nw * sizeof (GrB_Index)) ;
    CHECK (s->bits != NULL && s->before != NULL, GrB_OUT_OF_MEMORY) ;
    for (GrB_Index e = 0 ; e < nt ; e++)
    {
        s->bits [J [e] >> 6] |= (uint64_t) 1 << (J [e] & 63) ;
    }
    for (GrB_Index w = 0 ; w < nw ; w++)
    {
        s->before [w] = n ;
        n += bits_in (s->bits [w]) ;
    }
    s->n = n ;
    return (GrB_SUCCESS) ;
}

// M [s] (new, held sparse, where size [s] > 0) = the tuples e of t whose
// column's rank r = t->J [e] (NO_RANK: none) is in part s (part [r], 0 light
// or 1 heavy): other-by-size [s] with entries (t's row, map [r]) where
// by_col, else size [s]-by-other with (map [r], t's column), both parts in
// one pass over t (a count of each new row, then each tuple at its row's
// next place: t is sorted by row, then column, and map ascends within a
// part, so a row's columns ascend either way).  (GraphBLAS owns what a
// pack hands it, but with its own allocator, which a caller may have set
// and 7.4 does not tell: a build copies.)
#undef  FREE_ALL
#define FREE_ALL                                                            \
    for (int s = 0 ; s < 2 ; s++)                                           \
    {                                                                       \
        free (Ap [s]) ; free (I [s]) ; free (J [s]) ; free (X [s]) ;        \
        GrB_Matrix_free (&M [s]) ;                                          \
    }

static GrB_Info parts_of (GrB_Matrix M [2], const tuples *t, bool by_col,
    const uint8_t *part, const GrB_Index *map, const GrB_Index size [2],
    GrB_Index other)
{
    GrB_Index *Ap [2] = { NULL, NULL }, *I [2] = { NULL, NULL },
        *J [2] = { NULL, NULL }, nrows [2] ;
    double *X [2] = { NULL, NULL } ;
    for (int s = 0 ; s < 2 ; s++)
    {
        M [s] = NULL ;
        nrows [s] = by_col ? other : size [s] ;
        Ap [s] = calloc (nrows [s] + 2, sizeof (GrB_Index)) ;
        CHECK (Ap [s] != NULL, GrB_OUT_OF_MEMORY) ;
    }
    for (GrB_Index e = 0 ; e < t->n ; e++)
    {
        GrB_Index r = t->J [e] ;
        if (r == NO_RANK) continue ;
        Ap [part [r]] [(by_col ? t->I [e] : map [r]) + 2]++ ;
    }
    // Ap [s][i+2] counts row i; summed, Ap [s][i+1] is where row i starts,
    // and each placed tuple moves it on
    for (int s = 0 ; s < 2 ; s++)
    {
        for (GrB_Index i = 0 ; i < nrows [s] ; i++)
        {
            Ap [s][i + 2] += Ap [s][i + 1] ;
        }
        GrB_Index q = Ap [s][nrows [s] + 1] ;
        I [s] = malloc ((q + 1) * sizeof (GrB_Index)) ;
        J [s] = malloc ((q + 1) * sizeof (GrB_Index)) ;
        X [s] = malloc ((q + 1) * sizeof (double)) ;
        CHECK (I [s] != NULL && J [s] != NULL && X [s] != NULL,
            GrB_OUT_OF_MEMORY) ;
    }
    for (GrB_Index e = 0 ; e < t->n ; e++)
    {
        GrB_Index r = t->J [e] ;
        if (r == NO_RANK) continue ;
        int s = part [r] ;
        GrB_Index i = by_col ? t->I [e] : map [r], at = Ap [s][i + 1]++ ;
        I [s][at] = i ;
        J [s][at] = by_col ? map [r] : t->I [e] ;
        X [s][at] = t->X [e] ;
    }
    for (int s = 0 ; s < 2 ; s++)
    {
        if (size [s] == 0) continue ;
        TRY (GrB_Matrix_new (&M [s], GrB_FP64, nrows [s],
            by_col ? size [s] : other)) ;
        TRY (GxB_Matrix_Option_set (M [s], GxB_SPARSITY_CONTROL,
            GxB_SPARSE + GxB_HYPERSPARSE)) ;
        TRY (GrB_Matrix_build_FP64 (M [s], I [s], J [s], X [s],
            Ap [s][nrows [s] + 1], GrB_FIRST_FP64)) ;
    }
    for (int s = 0 ; s < 2 ; s++)
    {
        free (Ap [s]) ; free (I [s]) ; free (J [s]) ; free (X [s]) ;
    }
    return (GrB_SUCCESS) ;
}

// M [s] (new, held sparse, where size [s] > 0) = the rows of R (K-by-n)
// whose columns of L are in part s, in order (cols: L's columns; part,
// by their rank)
#undef  FREE_ALL
#define FREE_ALL free (list) ; GrB_Matrix_free (&M [0]) ; GrB_Matrix_free (&M [1]) ;

static GrB_Info rows_in (GrB_Matrix M [2], GrB_Matrix R, const col_set *cols,
    const uint8_t *part, const GrB_Index size [2])
{
    GrB_Index n, *list = malloc ((cols->n + 1) * sizeof (GrB_Index)) ;
    M [0] = M [1] = NULL ;
    CHECK (list != NULL, GrB_OUT_OF_MEMORY) ;
    TRY (GrB_Matrix_ncols (&n, R)) ;
    for (int s = 0 ; s < 2 ; s++)
    {
        if (size [s] == 0) continue ;
        // the set's columns in order: rank r is the r-th bit set
        GrB_Index q = 0, r = 0 ;
        for (GrB_Index w = 0 ; r < cols->n ; w++)
        {
            for (uint64_t b = cols->bits [w] ; b != 0 ; b &= b - 1, r++)
            {
                if (part [r] == s) list [q++] = 64 * w + __builtin_ctzll (b) ;
            }
        }
        CHECK (q == size [s], GrB_PANIC) ;
        TRY (GrB_Matrix_new (&M [s], GrB_FP64, q, n)) ;
        TRY (GxB_Matrix_Option_set (M [s], GxB_SPARSITY_CONTROL,
            GxB_SPARSE + GxB_HYPERSPARSE)) ;
        TRY (GrB_Matrix_extract (M [s], NULL, NULL, R, list, q, GrB_ALL, n,
            NULL)) ;
    }
    free (list) ;
    return (GrB_SUCCESS) ;
}

// p = L (+).(x) B' from the tuples of L (m-by-K) and of B (n-by-K), both
// by row, then column; or, where tb is NULL, p = L (+).(x) R (R K-by-n, its
// rows taken as they are: HAMMING's counts, whose rows are many and long).
// The tuples' columns are replaced by their ranks among L's (NO_RANK: a
// column of B's that L lacks, which adds nothing).
#undef  FREE_ALL
#define FREE_ALL                                                            \
    cols_free (&cols) ; free (map) ; free (part) ; GXO_prod_free (p) ;

static GrB_Info prod_parts (gxo_prod *p, GrB_Semiring semiring,
    tuples *tl, GrB_Index m, GrB_Index K, tuples *tb, GrB_Matrix R,
    GrB_Index n)
{
    col_set cols = { 0 } ;
    GrB_Index *map = NULL, size [2] = { 0, 0 } ;
    uint8_t *part = NULL ;
    enum { LIGHT, HEAVY } ;
    memset (p, 0, sizeof (gxo_prod)) ;
    p->semiring = semiring ;
    if (m == 0 || n == 0 || tl->n == 0) return (GrB_SUCCESS) ;
    // each of L's columns' count of entries in L, then in its place its
    // index among the heavy columns or among the light ones
    TRY (cols_new (&cols, tl->J, tl->n, K)) ;
    map = calloc (cols.n + 1, sizeof (GrB_Index)) ;
    part = malloc ((cols.n + 1) * sizeof (uint8_t)) ;
    CHECK (map != NULL && part != NULL, GrB_OUT_OF_MEMORY) ;
    for (GrB_Index e = 0 ; e < tl->n ; e++)
    {
        tl->J [e] = col_rank (&cols, tl->J [e]) ;
        map [tl->J [e]]++ ;
    }
    for (GrB_Index r = 0 ; r < cols.n ; r++)
    {
        GrB_Index count = map [r] ;
        part [r] = (count * GXO_HEAVY_DIV >= m && count >= GXO_HEAVY_MIN) ?
            HEAVY : LIGHT ;
        map [r] = size [part [r]]++ ;
    }
    GrB_Matrix left [2], right [2] ;
    TRY (parts_of (left, tl, true, part, map, size, m)) ;
    p->L = left [LIGHT] ; p->Lh = left [HEAVY] ;
    if (tb != NULL)
    {
        for (GrB_Index e = 0 ; e < tb->n ; e++)
        {
            GrB_Index c = tb->J [e] ;
            tb->J [e] = col_in (&cols, c) ? col_rank (&cols, c) : NO_RANK ;
        }
        TRY (parts_of (right, tb, false, part, map, size, n)) ;
    }
    else
    {
        TRY (rows_in (right, R, &cols, part, size)) ;
    }
    p->R = right [LIGHT] ; p->Rh = right [HEAVY] ;
    cols_free (&cols) ; free (map) ; free (part) ;
    return (GrB_SUCCESS) ;
}

#undef  FREE_ALL
#define FREE_ALL tuples_free (&tl) ; tuples_free (&tb) ; GXO_prod_free (p) ;

static GrB_Info prod_of (gxo_prod *p, GrB_Semiring semiring, GrB_Matrix L,
    GrB_Matrix B, bool by_rows)
{
    tuples tl = { 0 }, tb = { 0 } ;
    GrB_Index m, K, n, kb ;
    memset (p, 0, sizeof (gxo_prod)) ;
    TRY (GrB_Matrix_nrows (&m, L)) ;
    TRY (GrB_Matrix_ncols (&K, L)) ;
    TRY (by_rows ? GrB_Matrix_nrows (&n, B) : GrB_Matrix_ncols (&n, B)) ;
    TRY (by_rows ? GrB_Matrix_ncols (&kb, B) : GrB_Matrix_nrows (&kb, B)) ;
    CHECK (K == kb, GrB_DIMENSION_MISMATCH) ;
    TRY (tuples_of (&tl, L)) ;
    if (by_rows && tl.n > 0) TRY (tuples_of (&tb, B)) ;
    TRY (prod_parts (p, semiring, &tl, m, K, by_rows ? &tb : NULL, B, n)) ;
    tuples_free (&tl) ; tuples_free (&tb) ;
    return (GrB_SUCCESS) ;
}

GrB_Info GXO_prod_new (gxo_prod *p, GrB_Semiring semiring, GrB_Matrix A,
    GrB_Matrix B)
{
    return (prod_of (p, semiring, A, B, true)) ;
}

GrB_Info GXO_prod_right (gxo_prod *p, GrB_Semiring semiring, GrB_Matrix L,
    GrB_Matrix R)
{
    return (prod_of (p, semiring, L, R, false)) ;
}

// *R = rows i0 .. i0 + nrows - 1 of M
#undef  FREE_ALL
#define FREE_ALL GrB_Matrix_free (R) ;

GrB_Info GXO_rows_of (GrB_Matrix *R, GrB_Matrix M, GrB_Index i0,
    GrB_Index nrows)
{
    GrB_Type type ;
    GrB_Index ncols ;
    *R = NULL ;
    TRY (GxB_Matrix_type (&type, M)) ;
    TRY (GrB_Matrix_ncols (&ncols, M)) ;
    TRY (GrB_Matrix_new (R, type, nrows, ncols)) ;
    if (nrows == 0) return (GrB_SUCCESS) ;
    GrB_Index range [2] = { i0, i0 + nrows - 1 } ;
    TRY (GrB_Matrix_extract (*R, NULL, NULL, M, range, GxB_RANGE, GrB_ALL,
        ncols, NULL)) ;
    return (GrB_SUCCESS) ;
}

#undef  FREE_ALL
#define FREE_ALL GrB_Matrix_free (&Lb) ;

// C += rows i0 .. of L (held as sparsity) (+).(x) R; L itself where C's
// block is every row (extracting rows of a bitmap converts it to sparse
// first)
static GrB_Info part_rows (GrB_Matrix C, GrB_Semiring semiring, GrB_Matrix L,
    GrB_Matrix R, GrB_Index i0, int sparsity)
{
    GrB_Matrix Lb = NULL ;
    GrB_Index m, mb, nv ;
    if (L == NULL) return (GrB_SUCCESS) ;
    TRY (GrB_Matrix_nrows (&m, L)) ;
    TRY (GrB_Matrix_nrows (&mb, C)) ;
    bool whole = (i0 == 0 && mb == m) ;
    if (!whole) TRY (GXO_rows_of (&Lb, L, i0, mb)) ;
    GrB_Matrix Lr = whole ? L : Lb ;
    TRY (GrB_Matrix_nvals (&nv, Lr)) ;
    if (nv > 0)
    {
        TRY (GxB_Matrix_Option_set (Lr, GxB_SPARSITY_CONTROL, sparsity)) ;
        TRY (accumulate (C, semiring, Lr, R)) ;
    }
    FREE_ALL ;
    return (GrB_SUCCESS) ;
}

#undef  FREE_ALL
#define FREE_ALL ;

GrB_Info GXO_prod_rows (const gxo_prod *p, GrB_Matrix C, GrB_Index i0)
{
    GrB_Index mb ;
    TRY (GrB_Matrix_nrows (&mb, C)) ;
    if (mb == 0) return (GrB_SUCCESS) ;
    TRY (part_rows (C, p->semiring, p->Lh, p->Rh, i0, GxB_BITMAP)) ;
    TRY (part_rows (C, p->semiring, p->L, p->R, i0,
        GxB_SPARSE + GxB_HYPERSPARSE)) ;
    return (GrB_SUCCESS) ;
}

//------------------------------------------------------------------------------
// classes: a sum of f over the common columns where A and B hold few values
//------------------------------------------------------------------------------

// Where A and B each have at most GXO_CLASSES_MAX distinct values (counts,
// ratings, 0/1) and no NaN (which equals nothing), f is called once for
// each pair (u, v) of A's and B's values, by GraphBLAS (class_grid), and
// the sum over the common columns is one product of patterns:
//
//   sum over c in A_i n B_j of g (x_ic, y_jc) = sum over q of L (i,q) R (j,q)
//
// q = (c, v) runs over B's (column, value) pairs, R (j, (c,v)) = 1 where
// y_jc = v, and L (i, (c,v)) = g (x_ic, v) for each value v that column c
// of B holds; g = f, or f(x,y) - f(x,0) - f(0,y) for the common columns'
// part of a union.  The grid's values go into L as GraphBLAS computed them
// (copied, never combined), so each term is f's own and the sum is the
// same up to its order; L PLUS.FIRST R' has the flops of A B'.  L has an
// entry for each of A's entries and each value its column holds in B:
// taken where that is at most GXO_CLASSES_GROWTH times the entries of A
// and B (fortunes' rows against themselves: 1-2 times; 400 rows against
// all: 0.2).  The number of GraphBLAS calls does not grow with the values:
// at 100 rows of fortunes the calls, not the flops, are most of the cost.
#define GXO_CLASSES_MAX 64
#define GXO_CLASSES_GROWTH 4

// the index of x in U [0..nu-1] (ascending, x among them)
static GrB_Index class_of (const double *U, GrB_Index nu, double x)
{
    GrB_Index lo = 0, hi = nu ;
    while (lo < hi)
    {
        GrB_Index mid = (lo + hi) / 2 ;
        if (U [mid] < x) lo = mid + 1 ; else hi = mid ;
    }
    return (lo) ;
}

// U [0..*nu-1] (ascending) = the distinct values of X [0..n-1] and of U;
// false where they are more than max, or one is NaN, or (finite) one is
// infinite, or both zeros are among them (equal, but f may tell them
// apart).  U has room for max values.
static bool distinct_values (double *U, GrB_Index *nu, const double *X,
    GrB_Index n, GrB_Index max, bool finite)
{
    GrB_Index c = *nu ;
    double last = NAN ;
    for (GrB_Index e = 0 ; e < n ; e++)
    {
        // (most values repeat the one before: counts are mostly 1)
        double x = X [e] ;
        if (x == last && signbit (x) == signbit (last)) continue ;
        last = x ;
        GrB_Index lo = class_of (U, c, x) ;
        if (lo < c && U [lo] == x)
        {
            if (signbit (U [lo]) != signbit (x)) return (false) ;
            continue ;
        }
        if (x != x || (finite && isinf (x)) || c == max) return (false) ;
        memmove (U + lo + 1, U + lo, (c - lo) * sizeof (double)) ;
        U [lo] = x ;
        c++ ;
    }
    *nu = c ;
    return (true) ;
}

// grid [u nv + v] (new) = f (U [u], V [v]), less f (U [u], 0) and then
// f (0, V [v]) where common: GraphBLAS's calls on full nu-by-nv matrices
#undef  FREE_ALL
#define FREE_ALL                                                            \
    GrB_Matrix_free (&X) ; GrB_Matrix_free (&Y) ; GrB_Matrix_free (&Z) ;    \
    free (I) ; free (J) ; free (W) ; free (*grid) ; *grid = NULL ;

static GrB_Info class_grid (double **grid, GrB_BinaryOp f, const double *U,
    GrB_Index nu, const double *V, GrB_Index nv, bool common)
{
    GrB_Matrix X = NULL, Y = NULL, Z = NULL ;
    GrB_Index n = nu * nv, *I = malloc ((n + 1) * sizeof (GrB_Index)),
        *J = malloc ((n + 1) * sizeof (GrB_Index)) ;
    double *W = malloc ((n + 1) * sizeof (double)) ;
    *grid = malloc ((n + 1) * sizeof (double)) ;
    CHECK (I != NULL && J != NULL && W != NULL && *grid != NULL,
        GrB_OUT_OF_MEMORY) ;
    for (GrB_Index q = 0 ; q < n ; q++)
    {
        I [q] = q / nv ;
        J [q] = q % nv ;
        W [q] = U [q / nv] ;
    }
    TRY (GrB_Matrix_new (&X, GrB_FP64, nu, nv)) ;
    TRY (GrB_Matrix_build_FP64 (X, I, J, W, n, GrB_FIRST_FP64)) ;
    for (GrB_Index q = 0 ; q < n ; q++) W [q] = V [q % nv] ;
    TRY (GrB_Matrix_new (&Y, GrB_FP64, nu, nv)) ;
    TRY (GrB_Matrix_build_FP64 (Y, I, J, W, n, GrB_FIRST_FP64)) ;
    TRY (GrB_Matrix_new (&Z, GrB_FP64, nu, nv)) ;
    TRY (GrB_Matrix_eWiseMult_BinaryOp (Z, NULL, NULL, f, X, Y, NULL)) ;
    if (common)
    {
        // Z = (Z - f (X, 0)) - f (0, Y), by GraphBLAS's accumulator
        TRY (GrB_Matrix_apply_BinaryOp2nd_FP64 (Z, NULL, GrB_MINUS_FP64, f,
            X, 0, NULL)) ;
        TRY (GrB_Matrix_apply_BinaryOp1st_FP64 (Z, NULL, GrB_MINUS_FP64, f,
            0, Y, NULL)) ;
    }
    GrB_Index nz = n ;
    TRY (GrB_Matrix_extractTuples_FP64 (I, J, W, &nz, Z)) ;
    CHECK (nz == n, GrB_PANIC) ;
    for (GrB_Index q = 0 ; q < n ; q++) (*grid) [I [q] * nv + J [q]] = W [q] ;
    GrB_Matrix_free (&X) ; GrB_Matrix_free (&Y) ; GrB_Matrix_free (&Z) ;
    free (I) ; free (J) ; free (W) ;
    return (GrB_SUCCESS) ;
}

// p = the sum of f (or of g, where common) over the common columns of A_i
// and B_j, by classes; *done is false (p left empty) where A or B has more
// values than GXO_CLASSES_MAX, or a NaN, or L would pass its growth
#undef  FREE_ALL
#define FREE_ALL                                                            \
    tuples_free (&ta) ; tuples_free (&tb) ; tuples_free (&tl) ;             \
    free (grid) ; free (has) ; free (first) ; cols_free (&cb) ;             \
    GXO_prod_free (p) ;

static GrB_Info classes (bool *done, gxo_prod *p, GrB_BinaryOp f,
    GrB_Matrix A, GrB_Matrix B, bool common)
{
    tuples ta = { 0 }, tb = { 0 }, tl = { 0 } ;
    col_set cb = { 0 } ;
    double U [GXO_CLASSES_MAX], V [GXO_CLASSES_MAX], *grid = NULL ;
    uint64_t *has = NULL ;
    GrB_Index *first = NULL, nu = 0, nv = 0, m, n, k ;
    *done = false ;
    memset (p, 0, sizeof (gxo_prod)) ;
    TRY (GrB_Matrix_nrows (&m, A)) ;
    TRY (GrB_Matrix_nrows (&n, B)) ;
    TRY (GrB_Matrix_ncols (&k, A)) ;
    TRY (tuples_of (&ta, A)) ;
    TRY (tuples_of (&tb, B)) ;
    if (!distinct_values (U, &nu, ta.X, ta.n, GXO_CLASSES_MAX, false) ||
        !distinct_values (V, &nv, tb.X, tb.n, GXO_CLASSES_MAX, false))
    {
        FREE_ALL ;
        return (GrB_SUCCESS) ;
    }
    if (nu == 0 || nv == 0)
    {
        *done = true ;
        FREE_ALL ;
        return (GrB_SUCCESS) ;
    }
    // has [r]: the values that B's column of rank r holds, a bit each;
    // B's pairs (c, v) numbered by column, then value: (c, v) is first [r]
    // + the count of c's values below v
    TRY (cols_new (&cb, tb.J, tb.n, k)) ;
    has = calloc (cb.n + 1, sizeof (uint64_t)) ;
    first = malloc ((cb.n + 1) * sizeof (GrB_Index)) ;
    CHECK (has != NULL && first != NULL, GrB_OUT_OF_MEMORY) ;
    for (GrB_Index e = 0 ; e < tb.n ; e++)
    {
        GrB_Index v = class_of (V, nv, tb.X [e]) ;
        tb.J [e] = col_rank (&cb, tb.J [e]) ;
        tb.X [e] = (double) v ;
        has [tb.J [e]] |= (uint64_t) 1 << v ;
    }
    first [0] = 0 ;
    for (GrB_Index r = 0 ; r < cb.n ; r++)
    {
        first [r + 1] = first [r] + bits_in (has [r]) ;
    }
    // R's tuples in place of B's (by row, then column: a row's pairs
    // ascend with their columns)
    for (GrB_Index e = 0 ; e < tb.n ; e++)
    {
        GrB_Index r = tb.J [e], v = (GrB_Index) tb.X [e] ;
        tb.J [e] = first [r] + bits_in (has [r] & (((uint64_t) 1 << v) - 1)) ;
        tb.X [e] = 1 ;
    }
    // A's columns by their rank among B's (NO_RANK: B lacks it)
    for (GrB_Index e = 0 ; e < ta.n ; e++)
    {
        GrB_Index c = ta.J [e] ;
        ta.J [e] = col_in (&cb, c) ? col_rank (&cb, c) : NO_RANK ;
        if (ta.J [e] != NO_RANK) tl.n += bits_in (has [ta.J [e]]) ;
    }
    if (tl.n > GXO_CLASSES_GROWTH * (ta.n + tb.n))
    {
        // so many of B's values share A's columns that L would outgrow
        // the operands: the product of f itself instead
        FREE_ALL ;
        return (GrB_SUCCESS) ;
    }
    *done = true ;
    TRY (class_grid (&grid, f, U, nu, V, nv, common)) ;
    tl.I = malloc ((tl.n + 1) * sizeof (GrB_Index)) ;
    tl.J = malloc ((tl.n + 1) * sizeof (GrB_Index)) ;
    tl.X = malloc ((tl.n + 1) * sizeof (double)) ;
    CHECK (tl.I != NULL && tl.J != NULL && tl.X != NULL, GrB_OUT_OF_MEMORY) ;
    // L's tuples: row i's, by column and then value, as its pairs ascend
    GrB_Index t = 0 ;
    for (GrB_Index e = 0 ; e < ta.n ; e++)
    {
        GrB_Index r = ta.J [e] ;
        if (r == NO_RANK) continue ;
        GrB_Index q = first [r] ;
        const double *gu = grid + class_of (U, nu, ta.X [e]) * nv ;
        for (uint64_t bits = has [r] ; bits != 0 ; bits &= bits - 1, t++)
        {
            tl.I [t] = ta.I [e] ;
            tl.J [t] = q++ ;
            tl.X [t] = gu [__builtin_ctzll (bits)] ;
        }
    }
    TRY (prod_parts (p, GxB_PLUS_FIRST_FP64, &tl, m, first [cb.n], &tb, NULL,
        n)) ;
    tuples_free (&ta) ; tuples_free (&tb) ; tuples_free (&tl) ;
    free (grid) ; free (has) ; free (first) ; cols_free (&cb) ;
    return (GrB_SUCCESS) ;
}

//------------------------------------------------------------------------------
// the products of the common columns' part
//------------------------------------------------------------------------------

// *S = a part of M (FP64), times scale (exact for a power of two)
#undef  FREE_ALL
#define FREE_ALL GrB_Matrix_free (S) ;

static GrB_Info side_part (GrB_Matrix *S, GrB_Matrix M, gxo_part part,
    double scale)
{
    GrB_Index nrows, ncols ;
    TRY (GrB_Matrix_nrows (&nrows, M)) ;
    TRY (GrB_Matrix_ncols (&ncols, M)) ;
    TRY (GrB_Matrix_new (S, GrB_FP64, nrows, ncols)) ;
    switch (part)
    {
        case GXO_PART_POS :
            TRY (GrB_Matrix_select_FP64 (*S, NULL, NULL, GrB_VALUEGT_FP64, M,
                0, NULL)) ;
            break ;
        case GXO_PART_NEG :
            TRY (GrB_Matrix_select_FP64 (*S, NULL, NULL, GrB_VALUELT_FP64, M,
                0, NULL)) ;
            scale = -scale ;
            break ;
        case GXO_PART_SQRT :
            TRY (GrB_Matrix_apply (*S, NULL, NULL, GxB_SQRT_FP64, M, NULL)) ;
            break ;
        default :
            TRY (GrB_Matrix_assign (*S, NULL, NULL, M, GrB_ALL, nrows,
                GrB_ALL, ncols, NULL)) ;
            break ;
    }
    if (scale != 1)
    {
        TRY (GrB_Matrix_apply_BinaryOp2nd_FP64 (*S, NULL, NULL, GrB_TIMES_FP64,
            *S, scale, NULL)) ;
    }
    return (GrB_SUCCESS) ;
}

// the next product of s (at most GXO_SUM_PRODS)
static gxo_prod *next_prod (gxo_sum *s)
{
    return ((s->nprod < GXO_SUM_PRODS) ? &s->prod [s->nprod++] : NULL) ;
}

// T1 - P: T1 = A PLUS.f B', f's own product, and P = F_A PLUS.PLUS F_B'
// added negated (F_A = f(x, 0) and F_B = f(0, y), made for the row terms)
#undef  FREE_ALL
#define FREE_ALL GrB_Matrix_free (&NA) ; GrB_Matrix_free (&NB) ;

static GrB_Info t1_minus_p (gxo_sum *s, GrB_Matrix A, GrB_Matrix B,
    GrB_Matrix FA, GrB_Matrix FB)
{
    GrB_Matrix NA = NULL, NB = NULL ;
    gxo_prod *t1 = next_prod (s), *p = next_prod (s) ;
    CHECK (t1 != NULL && p != NULL, GrB_PANIC) ;
    TRY (GXO_prod_new (t1, s->semiring, A, B)) ;
    TRY (GXO_applied (&NA, GrB_AINV_FP64, FA)) ;
    TRY (GXO_applied (&NB, GrB_AINV_FP64, FB)) ;
    TRY (GXO_prod_new (p, GxB_PLUS_PLUS_FP64, NA, NB)) ;
    FREE_ALL ;
    return (GrB_SUCCESS) ;
}

// the common columns' part of the sum of f: by classes of A's and B's
// values where there are few (g summed directly), else NE's counts (equal)
// or T1 - P.
#undef  FREE_ALL
#define FREE_ALL ;

static GrB_Info common_part (gxo_sum *s, GrB_BinaryOp f, GrB_Matrix A,
    GrB_Matrix B, GrB_Matrix FA, GrB_Matrix FB, bool equal)
{
    bool done ;
    gxo_prod *p = next_prod (s) ;
    CHECK (p != NULL, GrB_PANIC) ;
    TRY (classes (&done, p, f, A, B, true)) ;
    if (done) return (GrB_SUCCESS) ;
    if (equal)
    {
        GrB_Matrix L = NULL, R = NULL ;
        GrB_Info info = GXO_common_ne (&L, &R, A, B) ;
        if (info == GrB_SUCCESS && L != NULL)
        {
            info = GXO_prod_right (p, GxB_PLUS_FIRST_FP64, L, R) ;
        }
        GrB_Matrix_free (&L) ;
        GrB_Matrix_free (&R) ;
        return (info) ;
    }
    s->nprod-- ;
    return (t1_minus_p (s, A, B, FA, FB)) ;
}

// p = A (+).(x) B' ((+) PLUS, (x) the oracle's own operator): by classes
// of A's and B's values where there are few, else the product itself
#undef  FREE_ALL
#define FREE_ALL ;

GrB_Info GXO_prod_user (gxo_prod *p, GrB_Semiring semiring, GrB_Matrix A,
    GrB_Matrix B)
{
    GrB_BinaryOp mul ;
    bool done ;
    TRY (GxB_Semiring_multiply (&mul, semiring)) ;
    TRY (classes (&done, p, mul, A, B, false)) ;
    if (!done) TRY (GXO_prod_new (p, semiring, A, B)) ;
    return (GrB_SUCCESS) ;
}

// one built-in term of the correction, a product of parts of A and B
//------------------------------------------------------------------------------
// levels: sum of min (a, b) by products of patterns
//------------------------------------------------------------------------------

// A term max (s a, s b) = s min (a, b) (s < 0; a, b > 0, the magnitudes of
// parts: MANHATTAN's and BRAYCURTIS's) as a product costs a call of fmax
// per flop in GraphBLAS, about three times a built-in TIMES or FIRST.  Where
// the values take few levels u_1 < ... < u_T (counts, ratings),
//
//   min (a, b) = sum over t of d_t [a >= u_t] [b >= u_t],  d_t = u_t - u_{t-1}
//
// (u_0 = 0), so the sum over the common columns is one product L PLUS.FIRST
// R: a column (c, t) for each of A's columns c and level t up to the
// largest of c's values in A, L (i, (c,t)) = s d_t where a_ic >= u_t, R
// ((c,t), j) = 1 where b_jc >= u_t.  Exact where every value is a multiple
// of one power of two q (the d_t and every partial sum are then multiples
// of q below 2^53 q); taken where that holds, the levels are at most
// GXO_LEVELS_MAX, and L and R hold at most GXO_LEVELS_GROWTH times the
// entries of the parts (1,600 rows of fortunes, 27 levels: 1.31 times).
// The product has GXO_LEVELS_FLOPS flops at least (oracle_internal.h).

// *q = the largest power of two that x (finite, > 0) is a multiple of
static double quantum (double x)
{
    int e ;
    double f = frexp (x, &e) ;          // x = f 2^e, 1/2 <= f < 1
    // f 2^53 is an integer: its lowest bit set
    uint64_t M = (uint64_t) ldexp (f, 53) ;
    int b = 0 ;
    while (b < 63 && !(M & ((uint64_t) 1 << b))) b++ ;
    return (ldexp (1, e - 53 + b)) ;
}

#undef  FREE_ALL
#define FREE_ALL                                                            \
    tuples_free (&ta) ; tuples_free (&tb) ; tuples_free (&tl) ;             \
    tuples_free (&tr) ; free (top) ; free (start) ; cols_free (&ca) ;       \
    GXO_prod_free (p) ;

static GrB_Info levels (bool *done, gxo_prod *p, GrB_Matrix Sa, GrB_Matrix Sb,
    double scale)
{
    tuples ta = { 0 }, tb = { 0 }, tl = { 0 }, tr = { 0 } ;
    col_set ca = { 0 } ;
    GrB_Index *top = NULL, *start = NULL, m, n, k, nu = 0 ;
    double U [GXO_LEVELS_MAX] ;
    *done = false ;
    memset (p, 0, sizeof (gxo_prod)) ;
    TRY (GrB_Matrix_nrows (&m, Sa)) ;
    TRY (GrB_Matrix_nrows (&n, Sb)) ;
    TRY (GrB_Matrix_ncols (&k, Sa)) ;
    // the product's flops first: a small product costs less than setting
    // up its levels.  At most nnz (Sa) n and nnz (Sb) m; else counted
    // (start [c]: A's entries in column c)
    GrB_Index na, nb ;
    TRY (GrB_Matrix_nvals (&na, Sa)) ;
    TRY (GrB_Matrix_nvals (&nb, Sb)) ;
    if ((double) na * n < GXO_LEVELS_FLOPS || (double) nb * m < GXO_LEVELS_FLOPS)
    {
        return (GrB_SUCCESS) ;
    }
    TRY (tuples_of (&ta, Sa)) ;
    TRY (tuples_of (&tb, Sb)) ;
    // columns by their rank among A's (NO_RANK: A lacks it, B's column
    // adds nothing); start [r]: A's entries in column r
    TRY (cols_new (&ca, ta.J, ta.n, k)) ;
    top = calloc (ca.n + 1, sizeof (GrB_Index)) ;
    start = calloc (ca.n + 1, sizeof (GrB_Index)) ;
    CHECK (top != NULL && start != NULL, GrB_OUT_OF_MEMORY) ;
    for (GrB_Index e = 0 ; e < ta.n ; e++)
    {
        ta.J [e] = col_rank (&ca, ta.J [e]) ;
        start [ta.J [e]]++ ;
    }
    double flops = 0 ;
    for (GrB_Index e = 0 ; e < tb.n ; e++)
    {
        GrB_Index c = tb.J [e] ;
        tb.J [e] = col_in (&ca, c) ? col_rank (&ca, c) : NO_RANK ;
        if (tb.J [e] != NO_RANK) flops += start [tb.J [e]] ;
    }
    if (flops < GXO_LEVELS_FLOPS ||
        !distinct_values (U, &nu, ta.X, ta.n, GXO_LEVELS_MAX, true) ||
        !distinct_values (U, &nu, tb.X, tb.n, GXO_LEVELS_MAX, true))
    {
        FREE_ALL ;
        return (GrB_SUCCESS) ;
    }
    // one quantum q for every value, and each pair's sum (at most k terms
    // of at most U [nu-1]) below 2^53 q
    double q = INFINITY ;
    for (GrB_Index t = 0 ; t < nu ; t++)
    {
        double qt = quantum (U [t]) ;
        q = (qt < q) ? qt : q ;
    }
    if (nu == 0 || !(U [nu-1] / q * (double) k < 0x1p53))
    {
        FREE_ALL ;
        return (GrB_SUCCESS) ;
    }
    // top [r] = the level of A's largest value in column r; (r,t) is
    // column start [r] + t - 1 of L
    // (from here on, X holds each entry's level)
    memset (start, 0, (ca.n + 1) * sizeof (GrB_Index)) ;
    GrB_Index nl = 0, nr = 0 ;
    for (GrB_Index e = 0 ; e < ta.n ; e++)
    {
        GrB_Index t = class_of (U, nu, ta.X [e]) + 1, r = ta.J [e] ;
        ta.X [e] = (double) t ;
        nl += t ;
        top [r] = (t > top [r]) ? t : top [r] ;
    }
    for (GrB_Index e = 0 ; e < tb.n ; e++)
    {
        GrB_Index t = class_of (U, nu, tb.X [e]) + 1, r = tb.J [e] ;
        t = (r == NO_RANK) ? 0 : (t < top [r]) ? t : top [r] ;
        tb.X [e] = (double) t ;
        nr += t ;
    }
    if (nl > GXO_LEVELS_GROWTH * ta.n || nr > GXO_LEVELS_GROWTH * tb.n)
    {
        FREE_ALL ;
        return (GrB_SUCCESS) ;
    }
    for (GrB_Index r = 0 ; r < ca.n ; r++) start [r + 1] = start [r] + top [r] ;
    // L's tuples and R's (n-by-K, as prod_parts takes it), in the order of
    // ta's and tb's, by row and then column: the order of (i, (c,t))
    GrB_Index K = start [ca.n] ;
    tl.I = malloc ((nl + 1) * sizeof (GrB_Index)) ;
    tl.J = malloc ((nl + 1) * sizeof (GrB_Index)) ;
    tl.X = malloc ((nl + 1) * sizeof (double)) ;
    tr.I = malloc ((nr + 1) * sizeof (GrB_Index)) ;
    tr.J = malloc ((nr + 1) * sizeof (GrB_Index)) ;
    tr.X = malloc ((nr + 1) * sizeof (double)) ;
    CHECK (tl.I != NULL && tl.J != NULL && tl.X != NULL && tr.I != NULL &&
        tr.J != NULL && tr.X != NULL, GrB_OUT_OF_MEMORY) ;
    for (GrB_Index e = 0 ; e < ta.n ; e++)
    {
        GrB_Index top_e = (GrB_Index) ta.X [e], r = ta.J [e] ;
        for (GrB_Index t = 1 ; t <= top_e ; t++, tl.n++)
        {
            tl.I [tl.n] = ta.I [e] ;
            tl.J [tl.n] = start [r] + t - 1 ;
            tl.X [tl.n] = scale * (U [t-1] - ((t > 1) ? U [t-2] : 0)) ;
        }
    }
    for (GrB_Index e = 0 ; e < tb.n ; e++)
    {
        GrB_Index t_e = (GrB_Index) tb.X [e], r = tb.J [e] ;
        for (GrB_Index t = 1 ; t <= t_e ; t++, tr.n++)
        {
            tr.I [tr.n] = tb.I [e] ;
            tr.J [tr.n] = start [r] + t - 1 ;
            tr.X [tr.n] = 1 ;
        }
    }
    TRY (prod_parts (p, GxB_PLUS_FIRST_FP64, &tl, m, K, &tr, NULL, n)) ;
    *done = true ;
    tuples_free (&ta) ; tuples_free (&tb) ; tuples_free (&tl) ;
    tuples_free (&tr) ; free (top) ; free (start) ; cols_free (&ca) ;
    return (GrB_SUCCESS) ;
}

// one built-in term of the correction, a product of parts of A and B: a
// PLUS_MAX term s min (a, b) by its levels where it can (levels), else as
// the product itself
#undef  FREE_ALL
#define FREE_ALL GrB_Matrix_free (&Sa) ; GrB_Matrix_free (&Sb) ;

static GrB_Info term_product (gxo_sum *s, const gxo_corr_term *term,
    GrB_Matrix A, GrB_Matrix B)
{
    GrB_Matrix Sa = NULL, Sb = NULL ;
    GrB_Index na, nb ;
    gxo_prod *p = next_prod (s) ;
    CHECK (p != NULL, GrB_PANIC) ;
    bool by_levels = (term->semiring == GxB_PLUS_MAX_FP64 &&
        term->ascale == term->bscale && term->ascale < 0 &&
        (term->a == GXO_PART_POS || term->a == GXO_PART_NEG) &&
        (term->b == GXO_PART_POS || term->b == GXO_PART_NEG)) ;
    double scale = by_levels ? 1 : term->ascale ;
    TRY (side_part (&Sa, A, term->a, scale)) ;
    TRY (side_part (&Sb, B, term->b, by_levels ? 1 : term->bscale)) ;
    TRY (GrB_Matrix_nvals (&na, Sa)) ;
    TRY (GrB_Matrix_nvals (&nb, Sb)) ;
    if (na == 0 || nb == 0) { FREE_ALL ; return (GrB_SUCCESS) ; }
    bool done = false ;
    if (by_levels) TRY (levels (&done, p, Sa, Sb, term->ascale)) ;
    if (!done && by_levels)
    {
        // the magnitudes scaled after all
        TRY (GrB_Matrix_apply_BinaryOp2nd_FP64 (Sa, NULL, NULL,
            GrB_TIMES_FP64, Sa, term->ascale, NULL)) ;
        TRY (GrB_Matrix_apply_BinaryOp2nd_FP64 (Sb, NULL, NULL,
            GrB_TIMES_FP64, Sb, term->bscale, NULL)) ;
    }
    if (!done) TRY (GXO_prod_new (p, term->semiring, Sa, Sb)) ;
    FREE_ALL ;
    return (GrB_SUCCESS) ;
}

//------------------------------------------------------------------------------
// GXO_sum_new, GXO_sum_rows, GXO_sum_free
//------------------------------------------------------------------------------

void GXO_sum_free (gxo_sum *s)
{
    for (int t = 0 ; t < GXO_SUM_PRODS ; t++) GXO_prod_free (&s->prod [t]) ;
    s->nprod = 0 ;
    GrB_Semiring_free (&s->semiring) ;
    free (s->ra) ; s->ra = NULL ;
    free (s->rb) ; s->rb = NULL ;
}

// *r (new, nrows) = the row sums of F (0 for an empty row)
#undef  FREE_ALL
#define FREE_ALL GrB_Vector_free (&v) ; free (I) ; free (X) ; free (*r) ;    \
    *r = NULL ;

GrB_Info GXO_row_sums (double **r, GrB_Matrix F)
{
    GrB_Vector v = NULL ;
    GrB_Index *I = NULL, nrows, nv ;
    double *X = NULL ;
    TRY (GrB_Matrix_nrows (&nrows, F)) ;
    *r = calloc (nrows + 1, sizeof (double)) ;
    CHECK (*r != NULL, GrB_OUT_OF_MEMORY) ;
    TRY (GrB_Vector_new (&v, GrB_FP64, nrows)) ;
    TRY (GrB_Matrix_reduce_Monoid (v, NULL, NULL, GrB_PLUS_MONOID_FP64, F,
        NULL)) ;
    TRY (GrB_Vector_nvals (&nv, v)) ;
    I = malloc ((nv + 1) * sizeof (GrB_Index)) ;
    X = malloc ((nv + 1) * sizeof (double)) ;
    CHECK (I != NULL && X != NULL, GrB_OUT_OF_MEMORY) ;
    TRY (GrB_Vector_extractTuples_FP64 (I, X, &nv, v)) ;
    for (GrB_Index q = 0 ; q < nv ; q++) (*r) [I [q]] = X [q] ;
    GrB_Vector_free (&v) ;
    free (I) ;
    free (X) ;
    return (GrB_SUCCESS) ;
}

// *yes: every value of M (FP64) is an integer of at most 2^26
#undef  FREE_ALL
#define FREE_ALL free (X) ;

static GrB_Info integral (bool *yes, GrB_Matrix M)
{
    GrB_Index nv ;
    double *X = NULL ;
    *yes = false ;
    TRY (GrB_Matrix_nvals (&nv, M)) ;
    X = malloc ((nv + 1) * sizeof (double)) ;
    CHECK (X != NULL, GrB_OUT_OF_MEMORY) ;
    TRY (GrB_Matrix_extractTuples_FP64 (NULL, NULL, X, &nv, M)) ;
    bool ok = true ;
    for (GrB_Index e = 0 ; e < nv && ok ; e++)
    {
        ok = (X [e] == nearbyint (X [e]) && fabs (X [e]) <= 0x1p26) ;
    }
    *yes = ok ;
    free (X) ;
    return (GrB_SUCCESS) ;
}

// the largest of r [0..n-1] (0 for none; NaN where one is)
static double largest (const double *r, GrB_Index n)
{
    double big = 0 ;
    for (GrB_Index i = 0 ; i < n ; i++)
    {
        if (!(r [i] <= big)) big = r [i] ;
    }
    return (big) ;
}

#undef  FREE_ALL
#define FREE_ALL GrB_Matrix_free (&FA) ; GrB_Matrix_free (&FB) ;            \
    GXO_sum_free (s) ;

GrB_Info GXO_sum_new (gxo_sum *s, GrB_BinaryOp f, const gxo_corr *corr,
    GrB_Matrix A, GrB_Matrix B, double tau)
{
    GrB_Matrix FA = NULL, FB = NULL ;
    GrB_Index m, n, k ;
    memset (s, 0, sizeof (gxo_sum)) ;
    s->A = A ;
    s->B = B ;
    s->tau = tau ;
    TRY (GrB_Matrix_nrows (&m, A)) ;
    TRY (GrB_Matrix_nrows (&n, B)) ;
    TRY (GrB_Matrix_ncols (&k, A)) ;
    TRY (GrB_Semiring_new (&s->semiring, GrB_PLUS_MONOID_FP64, f)) ;
    // F_A = f(x, 0), F_B = f(0, y), and their row sums
    TRY (GrB_Matrix_new (&FA, GrB_FP64, m, k)) ;
    TRY (GrB_Matrix_new (&FB, GrB_FP64, n, k)) ;
    TRY (GrB_Matrix_apply_BinaryOp2nd_FP64 (FA, NULL, NULL, f, A, 0, NULL)) ;
    TRY (GrB_Matrix_apply_BinaryOp1st_FP64 (FB, NULL, NULL, f, 0, B, NULL)) ;
    TRY (GXO_row_sums (&s->ra, FA)) ;
    TRY (GXO_row_sums (&s->rb, FB)) ;
    if (corr->exact == GXO_EXACT_INTEGERS)
    {
        // integers of at most 2^26 whose row terms are at most 2^49: every
        // partial sum an integer below 2^53
        bool ia, ib ;
        TRY (integral (&ia, A)) ;
        TRY (integral (&ib, B)) ;
        s->exact = ia && ib && largest (s->ra, m) + largest (s->rb, n) <=
            0x1p50 ;
    }
    s->exact = s->exact || (corr->exact == GXO_EXACT_ALWAYS) ;
    if (corr->nterms == 0)
    {
        TRY (common_part (s, f, A, B, FA, FB, corr->equal)) ;
    }
    for (int t = 0 ; t < corr->nterms ; t++)
    {
        TRY (term_product (s, &corr->term [t], A, B)) ;
    }
    GrB_Matrix_free (&FA) ;
    GrB_Matrix_free (&FB) ;
    return (GrB_SUCCESS) ;
}

// C (full FP64, mb-by-n) = a_i + b_j, the row terms of rows i0 .. i0 + mb
// - 1 of A (a = ra + i0) and of B, written in place
#undef  FREE_ALL
#define FREE_ALL (void) GXO_full_close (&F) ;

static GrB_Info row_terms (GrB_Matrix C, const double *a, const double *b)
{
    GrB_Index mb, n ;
    gxo_full F = { NULL, NULL, 0, false } ;
    TRY (GXO_full_values (&F, &mb, &n, C)) ;
    double *x = F.x ;
    #pragma omp parallel for schedule(static)
    for (GrB_Index i = 0 ; i < mb ; i++)
    {
        double *xi = x + i * n ;
        for (GrB_Index j = 0 ; j < n ; j++) xi [j] = a [i] + b [j] ;
    }
    return (GXO_full_close (&F)) ;
}

// *I, *J (rows of C), *np: the pairs of C not to be trusted once the
// products are in it, by one read of C (a = ra + i0, b = rb)
#undef  FREE_ALL
#define FREE_ALL (void) GXO_full_close (&F) ;

static GrB_Info untrusted (GrB_Index **I, GrB_Index **J, GrB_Index *np,
    GrB_Matrix C, const double *a, const double *b, double tau)
{
    GrB_Index mb, n ;
    gxo_full F = { NULL, NULL, 0, false } ;
    TRY (GXO_full_values (&F, &mb, &n, C)) ;
    TRY (GXO_flagged (I, J, np, GXO_FLAG_DISTRUSTED, F.x, NULL, a, b,
        tau - 1, mb, n)) ;
    return (GXO_full_close (&F)) ;
}

#undef  FREE_ALL
#define FREE_ALL GrB_Matrix_free (&Ab) ; free (I) ; free (J) ; free (ZI) ;   \
    free (ZJ) ;                                                             \
    (void) GXO_full_close (&F) ;

GrB_Info GXO_sum_rows (const gxo_sum *s, GrB_Matrix C, GrB_Index i0)
{
    GrB_Matrix Ab = NULL ;
    GrB_Index *I = NULL, *J = NULL, np = 0, mb, n ;
    gxo_full F = { NULL, NULL, 0, false } ;
    GrB_Index *ZI = NULL, *ZJ = NULL, nz = 0 ;
    TRY (GrB_Matrix_nrows (&mb, C)) ;
    TRY (GXO_full_expand (C)) ;
    TRY (row_terms (C, s->ra + i0, s->rb)) ;
    for (int t = 0 ; t < s->nprod ; t++)
    {
        TRY (GXO_prod_rows (&s->prod [t], C, i0)) ;
    }
    if (!s->exact) TRY (untrusted (&I, &J, &np, C, s->ra + i0, s->rb, s->tau)) ;
    if (np > 0 && s->defer)
    {
        TRY (GXO_full_values (&F, &mb, &n, C)) ;
        for (GrB_Index q = 0 ; q < np ; q++) F.x [I [q] * n + J [q]] = NAN ;
        TRY (GXO_full_close (&F)) ;
    }
    else if (np > 0)
    {
        TRY (GXO_rows_of (&Ab, s->A, i0, mb)) ;
        if (s->same)
        {
            // a row with itself whose terms are all 0 is 0, and is not
            // done again (every row once, in a square)
            GrB_BinaryOp f ;
            ZI = malloc (np * sizeof (GrB_Index)) ;
            ZJ = malloc (np * sizeof (GrB_Index)) ;
            CHECK (ZI != NULL && ZJ != NULL, GrB_OUT_OF_MEMORY) ;
            TRY (GxB_Semiring_multiply (&f, s->semiring)) ;
            TRY (GXO_zero_self (I, J, &np, ZI, ZJ, &nz, Ab, i0, f, 0)) ;
            TRY (GXO_full_values (&F, &mb, &n, C)) ;
            for (GrB_Index q = 0 ; q < nz ; q++) F.x [ZI [q] * n + ZJ [q]] = 0 ;
            TRY (GXO_full_close (&F)) ;
        }
    }
    if (np > 0 && !s->defer)
    {
        gxo_side sa = { Ab, GrB_FP64, 0 } ;
        gxo_side sb = { s->B, GrB_FP64, 0 } ;
        gxo_product prod = { s->semiring, NULL, 0, NULL } ;
        TRY (GXO_pairs_at (C, &sa, &sb, &prod, I, J, np)) ;
    }
    FREE_ALL ;
    return (GrB_SUCCESS) ;
}
