// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// graphblas_ext/gxd_union_graphblas.c: union products SuiteSparse evaluates
//------------------------------------------------------------------------------

// A user's GrB_BinaryOp made without a C definition (or with types other
// than FP32/FP64, or a built-in operator the backends do not know) has only
// a function pointer, which only GraphBLAS can call.  Under a PLUS monoid
// the sums are rewritten into sparse products and row terms
// (gxd_union_plus.c), and only the pairs that rewrite does not trust come
// here.  Otherwise all the pairs are evaluated in bulk: for a block of
// pairs (i,j), the rows A(i,:) and B(j,:)
// are merged over the union of their columns into two value arrays X and Y
// (the NAMM identity e where one row misses a column), then
//
//      Z = mult (X, Y)                     GrB_eWiseMult on full vectors
//      w(t) = add over pair t's segment    GrB_reduce of a CSR matrix whose
//                                          row t holds pair t's segment
//      w(t) = w(t) add f(e,e) ... add f(e,e)   once for each of the k - |union|
//                                          columns missing from both rows,
//                                          by repeated squaring (add is a
//                                          monoid), GrB_assign with accum
//
// all in the operator's own types (integers past 2^53 stay exact, complex
// keeps its imaginary part).  Work is proportional to the union sizes of
// the pairs computed (never m n k), memory to one block (GXD_UNION_BLOCK
// merged entries) plus the result.  With a mask only its pairs are
// computed; a complemented mask computes every pair (GXD_finish applies it).

#include "gxd_internal.h"
#include <inttypes.h>

// merged entries per block: X, Y, Z and the segments' column positions
// hold about 32 bytes each for FP64, so a block takes about 64 MiB
#define GXD_UNION_BLOCK (1 << 21)

//------------------------------------------------------------------------------
// one value in a type's bytes
//------------------------------------------------------------------------------

// the bytes of a full one-entry vector (consumed)
static GrB_Info take_bytes (void *out, GrB_Vector *v)
{
    #define GXD_FREE_ALL GXD_free (x) ; GrB_Vector_free (v) ;
    void *x = NULL ;
    GrB_Index size ;
    GrB_Type type ;
    size_t s ;
    GXD_TRY (GxB_Vector_type (&type, *v)) ;
    GXD_TRY (GxB_Type_size (&s, type)) ;
    GXD_TRY (GxB_Vector_unpack_Full (*v, &x, &size, NULL, NULL)) ;
    memcpy (out, x, s) ;
    GXD_FREE_ALL ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

// v typecast to type, as bytes
static GrB_Info double_bytes (void *out, GrB_Type type, double v)
{
    #define GXD_FREE_ALL GrB_Vector_free (&t) ;
    GrB_Vector t = NULL ;
    GXD_TRY (GrB_Vector_new (&t, type, 1)) ;
    GXD_TRY (GrB_Vector_setElement_FP64 (t, v, 0)) ;
    GXD_TRY (take_bytes (out, &t)) ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

// a one-entry vector holding the bytes x of type
static GrB_Info bytes_vector (GrB_Vector *v, GrB_Type type, const void *x)
{
    #define GXD_FREE_ALL GrB_Scalar_free (&s) ; GrB_Vector_free (v) ;
    GrB_Scalar s = NULL ;
    GXD_TRY (GrB_Scalar_new (&s, type)) ;
    GXD_TRY (GXD_scalar_set (s, type, x)) ;
    GXD_TRY (GrB_Vector_new (v, type, 1)) ;
    GXD_TRY (GrB_Vector_assign_Scalar (*v, NULL, NULL, s, GrB_ALL, 1, NULL)) ;
    GrB_Scalar_free (&s) ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

//------------------------------------------------------------------------------
// the pairs of the result
//------------------------------------------------------------------------------

typedef struct
{
    const gxd_csr *A, *B ;
    const int64_t *Mp, *Mj ;    // the mask's pattern, or NULL: every pair
    int64_t m, n, npairs ;
    size_t xs, ys, zs ;         // sizes of the x, y and z types
    const void *ex, *ey ;       // the identity in the x and y types
}
pairs ;

// (i, j) of pair t (Mp: a row found by bisection)
static inline void pair_at (const pairs *P, int64_t t, int64_t *i, int64_t *j)
{
    if (P->Mp == NULL) { *i = t / P->n ; *j = t % P->n ; return ; }
    int64_t lo = 0, hi = P->m ;
    while (hi - lo > 1)
    {
        int64_t mid = (lo + hi) / 2 ;
        if (P->Mp [mid] <= t) lo = mid ; else hi = mid ;
    }
    *i = lo ;
    *j = P->Mj [t] ;
}

static inline int64_t row_len (const gxd_csr *R, int64_t i)
{
    return R->p [i+1] - R->p [i] ;
}

// the union size of rows i of A and j of B
static int64_t union_size (const pairs *P, int64_t i, int64_t j)
{
    const int64_t *Aj = P->A->j, *Bj = P->B->j ;
    int64_t p = P->A->p [i], pend = P->A->p [i+1] ;
    int64_t r = P->B->p [j], rend = P->B->p [j+1] ;
    int64_t both = 0 ;
    while (p < pend && r < rend)
    {
        int64_t ca = Aj [p], cb = Bj [r] ;
        both += (ca == cb) ;
        p += (ca <= cb) ;
        r += (cb <= ca) ;
    }
    return (P->A->p [i+1] - P->A->p [i]) + (P->B->p [j+1] - P->B->p [j]) - both ;
}

// merge rows i of A and j of B into X, Y from position q, with the
// position of each value in the segment in Ri; values of types held in
// TX and TY (unsigned integers of their sizes: the bytes are copied)
#define MERGE(name, TX, TY)                                                 \
static void name (const pairs *P, int64_t i, int64_t j, void *Xv, void *Yv, \
    int64_t *Ri, int64_t q)                                                 \
{                                                                           \
    const TX *Ax = P->A->x, ex = *(const TX *) P->ex ;                      \
    const TY *Bx = P->B->x, ey = *(const TY *) P->ey ;                      \
    TX *X = Xv ;                                                            \
    TY *Y = Yv ;                                                            \
    const int64_t *Aj = P->A->j, *Bj = P->B->j ;                            \
    int64_t p = P->A->p [i], pend = P->A->p [i+1] ;                         \
    int64_t r = P->B->p [j], rend = P->B->p [j+1] ;                         \
    int64_t q0 = q ;                                                        \
    while (p < pend && r < rend)                                            \
    {                                                                       \
        int64_t ca = Aj [p], cb = Bj [r] ;                                  \
        X [q] = (ca <= cb) ? Ax [p] : ex ;                                  \
        Y [q] = (cb <= ca) ? Bx [r] : ey ;                                  \
        Ri [q] = q - q0 ;                                                   \
        q++ ;                                                               \
        p += (ca <= cb) ;                                                   \
        r += (cb <= ca) ;                                                   \
    }                                                                       \
    for ( ; p < pend ; p++, q++) { X [q] = Ax [p] ; Y [q] = ey ; Ri [q] = q - q0 ; } \
    for ( ; r < rend ; r++, q++) { X [q] = ex ; Y [q] = Bx [r] ; Ri [q] = q - q0 ; } \
}

MERGE (merge_4_4, uint32_t, uint32_t)
MERGE (merge_8_8, uint64_t, uint64_t)

// any other sizes: one byte-copy at a time
static void merge_any (const pairs *P, int64_t i, int64_t j, void *Xv,
    void *Yv, int64_t *Ri, int64_t q)
{
    const char *Ax = P->A->x, *Bx = P->B->x ;
    char *X = Xv, *Y = Yv ;
    size_t xs = P->xs, ys = P->ys ;
    const int64_t *Aj = P->A->j, *Bj = P->B->j ;
    int64_t p = P->A->p [i], pend = P->A->p [i+1] ;
    int64_t r = P->B->p [j], rend = P->B->p [j+1] ;
    int64_t q0 = q ;
    while (p < pend || r < rend)
    {
        int64_t ca = (p < pend) ? Aj [p] : INT64_MAX ;
        int64_t cb = (r < rend) ? Bj [r] : INT64_MAX ;
        memcpy (X + xs * q, (ca <= cb) ? Ax + xs * p : (const char *) P->ex, xs) ;
        memcpy (Y + ys * q, (cb <= ca) ? Bx + ys * r : (const char *) P->ey, ys) ;
        Ri [q] = q - q0 ;
        q++ ;
        p += (ca <= cb) ;
        r += (cb <= ca) ;
    }
}

typedef void (*merge_fn) (const pairs *, int64_t, int64_t, void *, void *,
    int64_t *, int64_t) ;

static merge_fn merge_for (const pairs *P)
{
    if (P->xs == 4 && P->ys == 4) return merge_4_4 ;
    if (P->xs == 8 && P->ys == 8) return merge_8_8 ;
    return merge_any ;
}

//------------------------------------------------------------------------------
// one block of pairs [t0, t1) into Cx
//------------------------------------------------------------------------------

typedef struct
{
    const gxd_call *call ;
    GrB_BinaryOp addop ;
    int64_t k ;
    bool fold ;                 // f(e,e) is not add's identity
    GrB_Vector fee ;            // f(e,e), one entry
    GrB_Scalar id ;             // add's identity
}
ops ;

// w (t) = w (t) add f(e,e) ... add f(e,e), cnt [t] times, by the bits of
// cnt (cnt is consumed)
static GrB_Info fold_missing (GrB_Vector w, int64_t np, int64_t *cnt,
    const ops *O)
{
    #define GXD_FREE_ALL                                                    \
        GrB_Vector_free (&pw) ; GrB_Vector_free (&pw2) ;                    \
        GrB_Vector_free (&M) ; GrB_Scalar_free (&s) ; GXD_free (bits) ;
    GrB_Vector pw = NULL, pw2 = NULL, M = NULL ;
    GrB_Scalar s = NULL ;
    bool *bits = NULL ;
    GrB_Type ztype = O->call->type ;
    GXD_TRY (GrB_Vector_dup (&pw, O->fee)) ;
    GXD_TRY (GrB_Scalar_new (&s, ztype)) ;
    GXD_TRY (GrB_Vector_new (&M, GrB_BOOL, np)) ;
    bool more = true ;
    while (more)
    {
        bits = GXD_malloc (np > 0 ? np : 1) ;
        if (bits == NULL) GXD_FAIL (GrB_OUT_OF_MEMORY, "out of memory") ;
        more = false ;
        bool any = false ;
        for (int64_t t = 0 ; t < np ; t++)
        {
            bits [t] = (cnt [t] & 1) ;
            any |= bits [t] ;
            cnt [t] >>= 1 ;
            more |= (cnt [t] != 0) ;
        }
        GXD_TRY (GxB_Vector_pack_Full (M, (void **) &bits, np > 0 ? np : 1,
            false, NULL)) ;
        if (any)
        {
            GXD_TRY (GrB_Vector_extractElement_Scalar (s, pw, 0)) ;
            GXD_TRY (GrB_Vector_assign_Scalar (w, M, O->addop, s, GrB_ALL,
                np, NULL)) ;
        }
        GrB_Index size ;
        GXD_TRY (GxB_Vector_unpack_Full (M, (void **) &bits, &size, NULL, NULL)) ;
        GXD_free (bits) ;
        bits = NULL ;
        if (more)
        {
            // pw = pw add pw
            GXD_TRY (GrB_Vector_new (&pw2, ztype, 1)) ;
            GXD_TRY (GrB_Vector_eWiseAdd_BinaryOp (pw2, NULL, NULL, O->addop,
                pw, pw, NULL)) ;
            GrB_Vector_free (&pw) ;
            pw = pw2 ;
            pw2 = NULL ;
        }
    }
    GXD_FREE_ALL ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

// the arrays a block fills, kept from one block to the next (first touch
// of fresh pages for every block cost more than the merge itself)
typedef struct
{
    char *X, *Y ;               // merged values of A and of B
    int64_t *Rp, *Ri ;          // segments: starts, positions in a segment
    int64_t *cnt ;              // columns missing from both rows
    size_t X_size, Y_size, Rp_size, Ri_size, cnt_size ;
}
work ;

static void work_free (work *W)
{
    GXD_free (W->X) ; GXD_free (W->Y) ; GXD_free (W->Rp) ; GXD_free (W->Ri) ;
    GXD_free (W->cnt) ;
    memset (W, 0, sizeof (*W)) ;
}

// *p holds at least need bytes (grown by a quarter more than asked)
static bool reserve (void **p, size_t *size, size_t need)
{
    if (*size >= need && *p != NULL) return true ;
    GXD_free (*p) ;
    need += need / 4 ;
    *p = GXD_malloc (need) ;
    *size = (*p != NULL) ? need : 0 ;
    return *p != NULL ;
}

// *Z (new, of type ztype, size in *Z_size) = mult (X (t), Y (t)) for t < L:
// GrB_eWiseMult on full vectors, the user's function called in bulk.  X and
// Y (GXD_malloc'd, of sizes *X_size and *Y_size) are lent to GraphBLAS and
// given back.
GrB_Info GXD_mult_pairs (void **Z, size_t *Z_size, GrB_Type ztype,
    void **X, size_t *X_size, void **Y, size_t *Y_size, int64_t L,
    const gxd_call *call)
{
    #define GXD_FREE_ALL                                                    \
        GrB_Vector_free (&Xv) ; GrB_Vector_free (&Yv) ;                     \
        GrB_Vector_free (&Zv) ;
    GrB_Vector Xv = NULL, Yv = NULL, Zv = NULL ;
    GrB_Index xsize = *X_size, ysize = *Y_size, zsize ;
    GXD_TRY (GrB_Vector_new (&Xv, call->xtype, L)) ;
    GXD_TRY (GrB_Vector_new (&Yv, call->ytype, L)) ;
    GXD_TRY (GxB_Vector_pack_Full (Xv, X, xsize, false, NULL)) ;
    GXD_TRY (GxB_Vector_pack_Full (Yv, Y, ysize, false, NULL)) ;
    GXD_TRY (GrB_Vector_new (&Zv, ztype, L)) ;
    GXD_TRY (GrB_Vector_eWiseMult_BinaryOp (Zv, NULL, NULL, call->mult, Xv,
        Yv, NULL)) ;
    GXD_TRY (GxB_Vector_unpack_Full (Xv, X, &xsize, NULL, NULL)) ;
    GXD_TRY (GxB_Vector_unpack_Full (Yv, Y, &ysize, NULL, NULL)) ;
    GXD_TRY (GxB_Vector_unpack_Full (Zv, Z, &zsize, NULL, NULL)) ;
    *X_size = xsize ;
    *Y_size = ysize ;
    *Z_size = zsize ;
    GXD_FREE_ALL ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

// w (t) = add over segment t of mult (X, Y) (no entry for an empty one);
// W's arrays are lent to GraphBLAS and taken back
static GrB_Info segments (GrB_Vector w, work *W, int64_t np, int64_t L,
    int64_t maxlen, const pairs *P, const gxd_call *call)
{
    #define GXD_FREE_ALL GrB_Matrix_free (&R) ; GXD_free (Z) ;
    GrB_Matrix R = NULL ;
    void *Z = NULL ;
    size_t zsize ;
    GXD_TRY (GXD_mult_pairs (&Z, &zsize, call->type, (void **) &W->X,
        &W->X_size, (void **) &W->Y, &W->Y_size, L, call)) ;
    GXD_TRY (GrB_Matrix_new (&R, call->type, np, maxlen)) ;
    GXD_TRY (GxB_Matrix_pack_CSR (R, (GrB_Index **) &W->Rp, (GrB_Index **) &W->Ri,
        &Z, W->Rp_size, W->Ri_size, zsize, false, false, NULL)) ;
    GXD_TRY (GrB_Matrix_reduce_Monoid (w, NULL, NULL, call->add, R, NULL)) ;
    GXD_TRY (GxB_Matrix_unpack_CSR (R, (GrB_Index **) &W->Rp, (GrB_Index **) &W->Ri,
        &Z, &W->Rp_size, &W->Ri_size, &zsize, NULL, NULL, NULL)) ;
    GXD_FREE_ALL ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

static GrB_Info block (char *Cx, work *W, const pairs *P, const ops *O,
    int64_t t0, int64_t t1)
{
    #define GXD_FREE_ALL GXD_free (w_x) ; GrB_Vector_free (&w) ;
    void *w_x = NULL ;
    GrB_Vector w = NULL ;
    const gxd_call *call = O->call ;
    int64_t np = t1 - t0 ;

    // segments: the union size of each pair, then their starts
    if (!reserve ((void **) &W->Rp, &W->Rp_size, (np + 1) * sizeof (int64_t))
     || !reserve ((void **) &W->cnt, &W->cnt_size, np * sizeof (int64_t)))
    {
        GXD_FAIL (GrB_OUT_OF_MEMORY, "out of memory") ;
    }
    int64_t *Rp = W->Rp, *cnt = W->cnt ;
    #pragma omp parallel for schedule(dynamic, 256)
    for (int64_t t = 0 ; t < np ; t++)
    {
        int64_t i, j ;
        pair_at (P, t0 + t, &i, &j) ;
        cnt [t] = union_size (P, i, j) ;
    }
    Rp [0] = 0 ;
    int64_t maxlen = 1 ;
    for (int64_t t = 0 ; t < np ; t++)
    {
        Rp [t+1] = Rp [t] + cnt [t] ;
        if (cnt [t] > maxlen) maxlen = cnt [t] ;
        cnt [t] = O->k - cnt [t] ;      // the columns missing from both
    }
    int64_t L = Rp [np] ;

    // the merged values, and each one's position in its segment
    GXD_TRY (GrB_Vector_new (&w, call->type, np)) ;
    if (L > 0)
    {
        if (!reserve ((void **) &W->X, &W->X_size, L * P->xs)
         || !reserve ((void **) &W->Y, &W->Y_size, L * P->ys)
         || !reserve ((void **) &W->Ri, &W->Ri_size, L * sizeof (int64_t)))
        {
            GXD_FAIL (GrB_OUT_OF_MEMORY, "out of memory") ;
        }
        merge_fn merge = merge_for (P) ;
        #pragma omp parallel for schedule(dynamic, 256)
        for (int64_t t = 0 ; t < np ; t++)
        {
            int64_t i, j ;
            pair_at (P, t0 + t, &i, &j) ;
            merge (P, i, j, W->X, W->Y, W->Ri, Rp [t]) ;
        }
        GXD_TRY (segments (w, W, np, L, maxlen, P, call)) ;
    }

    // the columns missing from both rows, then add's identity where nothing
    // was added (k = 0)
    if (O->fold) GXD_TRY (fold_missing (w, np, W->cnt, O)) ;
    GXD_TRY (GrB_Vector_assign_Scalar (w, w, NULL, O->id, GrB_ALL, np,
        GrB_DESC_SC)) ;
    GrB_Index wsize ;
    GXD_TRY (GxB_Vector_unpack_Full (w, &w_x, &wsize, NULL, NULL)) ;
    memcpy (Cx + t0 * P->zs, w_x, np * P->zs) ;
    GXD_FREE_ALL ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

//------------------------------------------------------------------------------
// the operators' constants: f(e,e) and add's identity
//------------------------------------------------------------------------------

static GrB_Info ops_new (ops *O, const gxd_call *call, const void *ex,
    const void *ey, size_t zs)
{
    #define GXD_FREE_ALL                                                    \
        GrB_Vector_free (&vx) ; GrB_Vector_free (&vy) ; GXD_free (idz) ;    \
        GXD_free (feez) ;
    GrB_Vector vx = NULL, vy = NULL ;
    void *idz = GXD_calloc (1, zs), *feez = GXD_calloc (1, zs) ;
    if (idz == NULL || feez == NULL) GXD_FAIL (GrB_OUT_OF_MEMORY, "out of memory") ;
    GXD_TRY (GxB_Monoid_operator (&O->addop, call->add)) ;
    GXD_TRY (GxB_Monoid_identity (idz, call->add)) ;
    GXD_TRY (GrB_Scalar_new (&O->id, call->type)) ;
    GXD_TRY (GXD_scalar_set (O->id, call->type, idz)) ;
    GXD_TRY (bytes_vector (&vx, call->xtype, ex)) ;
    GXD_TRY (bytes_vector (&vy, call->ytype, ey)) ;
    GXD_TRY (GrB_Vector_new (&O->fee, call->type, 1)) ;
    GXD_TRY (GrB_Vector_eWiseMult_BinaryOp (O->fee, NULL, NULL, call->mult,
        vx, vy, NULL)) ;
    GrB_Vector t = NULL ;
    GXD_TRY (GrB_Vector_dup (&t, O->fee)) ;
    GXD_TRY (take_bytes (feez, &t)) ;
    O->fold = memcmp (feez, idz, zs) != 0 ;
    GXD_FREE_ALL ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

static void ops_free (ops *O)
{
    GrB_Vector_free (&O->fee) ;
    GrB_Scalar_free (&O->id) ;
}

//------------------------------------------------------------------------------
// the pairs of P into Cx, in blocks
//------------------------------------------------------------------------------

// blocks of about GXD_UNION_BLOCK merged entries (at least one pair)
static GrB_Info eval_pairs (char *Cx, work *W, const pairs *P, const ops *O)
{
    #define GXD_FREE_ALL ;
    int64_t t0 = 0 ;
    while (t0 < P->npairs)
    {
        int64_t t1 = t0, work = 0 ;
        while (t1 < P->npairs && (t1 == t0 || work < GXD_UNION_BLOCK))
        {
            int64_t i, j ;
            pair_at (P, t1, &i, &j) ;
            work += row_len (P->A, i) + row_len (P->B, j) + 1 ;
            t1++ ;
        }
        GXD_TRY (block (Cx, W, P, O, t0, t1)) ;
        t0 = t1 ;
    }
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

// the pairs the PLUS rewrite left (redo, in row order) computed again over
// their union, into their places in Cx
static GrB_Info eval_redo (char *Cx, work *W, const pairs *P, const ops *O,
    const gxd_redo *R)
{
    #define GXD_FREE_ALL GXD_free (Rp) ; GXD_free (Rx) ;
    int64_t *Rp = GXD_calloc (P->m + 1, sizeof (int64_t)) ;
    char *Rx = GXD_malloc ((R->n > 0 ? R->n : 1) * P->zs) ;
    if (Rp == NULL || Rx == NULL) GXD_FAIL (GrB_OUT_OF_MEMORY, "out of memory") ;
    for (int64_t q = 0 ; q < R->n ; q++) Rp [R->i [q] + 1]++ ;
    for (int64_t i = 0 ; i < P->m ; i++) Rp [i+1] += Rp [i] ;
    pairs Q = *P ;
    Q.Mp = Rp ;
    Q.Mj = R->j ;
    Q.npairs = R->n ;
    GXD_TRY (eval_pairs (Rx, W, &Q, O)) ;
    for (int64_t q = 0 ; q < R->n ; q++)
    {
        memcpy (Cx + R->pos [q] * P->zs, Rx + q * P->zs, P->zs) ;
    }
    GXD_FREE_ALL ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

//------------------------------------------------------------------------------
// GXD_union_graphblas
//------------------------------------------------------------------------------

GrB_Info GXD_union_graphblas (GrB_Matrix *T, const gxd_call *call,
    GrB_Matrix Mask, GrB_Matrix A, GrB_Matrix B, const gxd_desc *d)
{
    #define GXD_FREE_ALL                                                    \
        GXD_rows_free (&Ar) ; GXD_rows_free (&Br) ; GXD_rows_free (&Mr) ;   \
        ops_free (&O) ; GXD_free (Cx) ; GXD_free (Tp) ; GXD_free (Tj) ;     \
        work_free (&W) ; GXD_redo_free (&redo) ; GrB_Matrix_free (T) ;
    gxd_rows Ar = { 0 }, Br = { 0 }, Mr = { 0 } ;
    ops O = { 0 } ;
    work W = { 0 } ;
    gxd_redo redo = { 0 } ;
    char *Cx = NULL ;
    GrB_Index *Tp = NULL, *Tj = NULL ;
    char ex [64], ey [64] ;     // the identity (the largest type: FC64, 16)
    pairs P = { 0 } ;
    GXD_TRY (GXD_rows_copy (&Ar, A, d->tran_a, call->xtype)) ;
    GXD_TRY (GXD_rows_copy (&Br, B, d->tran_b, call->ytype)) ;
    bool sampled = (Mask != NULL && !d->mask_comp) ;
    if (sampled) GXD_TRY (GXD_mask_pattern (&Mr, Mask, d->mask_struct)) ;
    GXD_TRY (GxB_Type_size (&P.xs, call->xtype)) ;
    GXD_TRY (GxB_Type_size (&P.ys, call->ytype)) ;
    GXD_TRY (GxB_Type_size (&P.zs, call->type)) ;
    GXD_TRY (double_bytes (ex, call->xtype, call->identity)) ;
    GXD_TRY (double_bytes (ey, call->ytype, call->identity)) ;
    GrB_Index m, n, k ;
    GXD_TRY (GrB_Matrix_nrows (&m, Ar.T)) ;
    GXD_TRY (GrB_Matrix_nrows (&n, Br.T)) ;
    GXD_TRY (GrB_Matrix_ncols (&k, Ar.T)) ;
    P.A = &Ar.csr ; P.B = &Br.csr ; P.ex = ex ; P.ey = ey ;
    P.m = (int64_t) m ; P.n = (int64_t) n ;
    if (sampled)
    {
        P.Mp = Mr.csr.p ; P.Mj = Mr.csr.j ; P.npairs = Mr.csr.p [P.m] ;
    }
    else
    {
        if (P.n > 0 && (uint64_t) P.m > SIZE_MAX / P.zs / (uint64_t) P.n)
        {
            GXD_FAIL (GrB_OUT_OF_MEMORY, "%s: a %" PRId64 " x %" PRId64
                " result does not fit in memory (use a mask)", call->fn, P.m,
                P.n) ;
        }
        P.npairs = P.m * P.n ;
    }
    O.call = call ;
    O.k = (int64_t) k ;
    GXD_TRY (ops_new (&O, call, ex, ey, P.zs)) ;

    size_t csize = (P.npairs > 0 ? P.npairs : 1) * P.zs ;
    if (!GXD_memory_fits ((double) csize))
    {
        GXD_FAIL (GrB_OUT_OF_MEMORY, "%s: the result (%" PRId64 " entries, "
            "%.3g GB) is more than half the physical memory%s", call->fn,
            P.npairs, csize / 1e9, sampled ? "" : " (use a mask, or GxB_kNN)") ;
    }
    Cx = GXD_malloc_result (csize) ;
    if (Cx == NULL)
    {
        GXD_FAIL (GrB_OUT_OF_MEMORY, "%s: out of memory for the result (%"
            PRId64 " entries of %zu bytes)", call->fn, P.npairs, P.zs) ;
    }

    // a MIN or MAX union by its terms, a PLUS union by its products and row
    // terms, where they apply; the pairs the PLUS rewrite does not trust (or
    // all of them) merged over their unions
    bool done ;
    GXD_TRY (GXD_union_max (&done, Cx, call, &Ar, &Br,
        sampled ? &Mr.csr : NULL)) ;
    if (!done)
    {
        GXD_TRY (GXD_union_plus (&done, &redo, Cx, call, &Ar, &Br,
            sampled ? &Mr.csr : NULL)) ;
    }
    if (!done || redo.n > 0)
    {
        GXD_TRY (GXD_rows_unpack (&Ar)) ;
        GXD_TRY (GXD_rows_unpack (&Br)) ;
        if (done) GXD_TRY (eval_redo (Cx, &W, &P, &O, &redo))
        else GXD_TRY (eval_pairs (Cx, &W, &P, &O)) ;
    }

    GXD_TRY (GrB_Matrix_new (T, call->type, P.m, P.n)) ;
    if (sampled)
    {
        // the result takes copies of the mask's pattern
        size_t psize = (P.m + 1) * sizeof (GrB_Index) ;
        size_t jsize = (P.npairs > 0 ? P.npairs : 1) * sizeof (GrB_Index) ;
        Tp = GXD_malloc (psize) ;
        Tj = GXD_malloc (jsize) ;
        if (Tp == NULL || Tj == NULL) GXD_FAIL (GrB_OUT_OF_MEMORY, "out of memory") ;
        memcpy (Tp, Mr.p, psize) ;
        if (P.npairs > 0) memcpy (Tj, Mr.j, P.npairs * sizeof (GrB_Index)) ;
        GXD_TRY (GxB_Matrix_pack_CSR (*T, &Tp, &Tj, (void **) &Cx, psize,
            jsize, csize, false, false, NULL)) ;
    }
    else
    {
        GXD_TRY (GxB_Matrix_pack_FullR (*T, (void **) &Cx, csize, false, NULL)) ;
    }
    GrB_Matrix T_keep = *T ;
    *T = NULL ;                 // not freed by the cleanup
    GXD_FREE_ALL ;
    *T = T_keep ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}
