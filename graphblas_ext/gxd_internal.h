// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// graphblas_ext/gxd_internal.h: the API layer's shared state and error idiom
//------------------------------------------------------------------------------

// graphblas_ext/ checks arguments, reads the descriptor, takes CSR arrays
// out of (copies of) the caller's matrices, picks a backend, and puts the
// result into C with GraphBLAS' own mask/accum/replace rules.  A backend
// never sees a GrB_Matrix; this layer never sees a kernel.

#ifndef GXD_INTERNAL_H
#define GXD_INTERNAL_H

#include "gxbdist.h"
#include "gxd_metric.h"
#include "gxd_memory.h"
#include "gxd_cpu.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//------------------------------------------------------------------------------
// errors: every failure leaves a message (GxB_Distance_error)
//------------------------------------------------------------------------------

// record a message for info and return info
GrB_Info GXD_error (GrB_Info info, const char *fmt, ...)
    __attribute__ ((format (printf, 2, 3))) ;
void GXD_error_clear (void) ;
// keep the message of a failed GraphBLAS call on object obj (or a generic one)
GrB_Info GXD_error_grb (GrB_Info info, const char *call) ;

// The one idiom: a function defines GXD_FREE_ALL (its cleanup), then every
// call that can fail goes through GXD_TRY, which cleans up and returns.
#define GXD_TRY(call)                                                       \
{                                                                           \
    GrB_Info gxd_info_ = (call) ;                                           \
    if (gxd_info_ < GrB_SUCCESS)                                            \
    {                                                                       \
        GXD_error_grb (gxd_info_, #call) ;                                  \
        GXD_FREE_ALL ;                                                      \
        return (gxd_info_) ;                                                \
    }                                                                       \
}

// fail with a message: clean up and return info
#define GXD_FAIL(info, ...)                                                 \
{                                                                           \
    GrB_Info gxd_fail_ = GXD_error ((info), __VA_ARGS__) ;                  \
    GXD_FREE_ALL ;                                                          \
    return (gxd_fail_) ;                                                    \
}

#define GXD_CHECK_NULL(p, name)                                             \
    do { if ((p) == NULL) GXD_FAIL (GrB_NULL_POINTER, "%s is NULL", name) } \
    while (0)

//------------------------------------------------------------------------------
// global settings
//------------------------------------------------------------------------------

typedef struct
{
    bool initialized ;
    GxB_Backend backend ;
    bool verify ;
    uint64_t verify_rows ;  // rows sampled where verify samples (0: all)
    bool exact ;
    bool fault ;            // testing: perturb the next results
}
gxd_settings ;

extern gxd_settings GXD_settings ;

#define GXD_CHECK_INIT                                                      \
    if (!GXD_settings.initialized)                                          \
        GXD_FAIL (GrB_PANIC, "GxB_Distance_init has not been called")

bool GXD_gpu_present (void) ;       // a GPU backend is built and usable
bool GXD_use_gpu (void) ;           // the next call runs on the GPU
// the value fault injection (gxd_test_hooks.h) puts in place of a
// floating-point x: never x
double GXD_fault_value (double x) ;

//------------------------------------------------------------------------------
// registry: what gxbdist knows about a GrB_Semiring or a GrB_Descriptor
//------------------------------------------------------------------------------

typedef enum { GXD_SR_METRIC, GXD_SR_NAMM } gxd_sr_kind ;

typedef struct
{
    GrB_Semiring semiring ;
    GrB_BinaryOp mult ;     // to detect a freed-and-reused address
    GrB_Monoid add ;        // the semiring's monoid
    bool private_add ;      // add is a private copy owned by the entry
    gxd_sr_kind kind ;
    gxd_metric_id metric ;  // GXD_SR_METRIC
    double p ;              // Minkowski
    bool fp64 ;
    double identity ;       // GXD_SR_NAMM
}
gxd_sr_entry ;

// add e; with e->private_add, the entry owns e->add from then on (also when
// the add fails: the monoid is freed then)
GrB_Info GXD_registry_add (const gxd_sr_entry *e) ;
// a private copy of a monoid, for a registry entry to own
GrB_Info GXD_monoid_private (GrB_Monoid *copy, GrB_Monoid add) ;
int64_t GXD_registry_size (void) ;      // entries held (for tests)
bool GXD_registry_find (GrB_Semiring s, gxd_sr_entry *e) ;
void GXD_registry_remove (GrB_Semiring s) ;
void GXD_registry_clear (void) ;
// marks gxbdist keeps for a descriptor (GrB_Descriptor has no room for them)
#define GXD_DESC_UNION        1     // GxB_Desc_set_annihilator_free
#define GXD_DESC_EXCLUDE_SELF 2     // GxB_Desc_set_exclude_self
GrB_Info GXD_desc_mark (GrB_Descriptor d, int flag, bool on) ;
bool GXD_desc_marked (GrB_Descriptor d, int flag) ;
// the public setters and getters of the marks (fn names the caller)
GrB_Info GXD_desc_set_mark (const char *fn, GrB_Descriptor d, int flag, bool on) ;
GrB_Info GXD_desc_get_mark (const char *fn, GrB_Descriptor d, int flag, bool *on) ;

//------------------------------------------------------------------------------
// the pieces of GxB_mxm_distance
//------------------------------------------------------------------------------

// what a call computes, resolved from the semiring and the descriptor
typedef enum
{
    GXD_PATH_INTERSECT,     // ordinary semiring: exactly GrB_mxm
    GXD_PATH_BACKEND,       // a plan the backends compute
    GXD_PATH_GRAPHBLAS      // union with user-defined ops: computed by SuiteSparse
}
gxd_path ;

typedef struct
{
    gxd_path path ;
    gxd_plan plan ;         // GXD_PATH_BACKEND
    GrB_Type type ;         // result type (and input type for the backend)
    GrB_Type xtype, ytype ; // input types of (x) (GXD_PATH_GRAPHBLAS)
    GrB_Monoid add ;        // union semantics: the (+) monoid
    GrB_BinaryOp mult ;     // union semantics: (x)
    double identity ;       // union semantics: missing entries
    const char *name ;      // for messages: metric or "union"
    const char *fn ;        // for messages: the API function called
}
gxd_call ;

// fn: the API function (call->fn, which messages name)
GrB_Info GXD_resolve (gxd_call *call, const char *fn, GrB_Semiring s,
    GrB_Descriptor desc) ;
// a union or metric call's types are built-in (else GrB_DOMAIN_MISMATCH)
GrB_Info GXD_union_types (const gxd_call *call) ;

// descriptor fields as GrB_mxm reads them
typedef struct
{
    bool tran_a, tran_b, mask_comp, mask_struct, replace ;
}
gxd_desc ;

GrB_Info GXD_desc_read (gxd_desc *d, GrB_Descriptor desc) ;

// an owned CSR copy of a matrix, typecast and sorted, for a backend
typedef struct
{
    GrB_Matrix T ;          // the unpacked shell (packed back on free)
    GrB_Index *p, *j ;
    void *x ;
    GrB_Index p_size, j_size, x_size ;
    gxd_csr csr ;
}
gxd_rows ;

GrB_Info GXD_rows_get (gxd_rows *R, GrB_Matrix A, bool transpose,
    GrB_Type type) ;
void GXD_rows_free (gxd_rows *R) ;
GrB_Info GXD_rows_unpack (gxd_rows *R) ;   // R->T set
// the copy alone (R->T, not unpacked); GXD_rows_unpack then gives the arrays,
// GXD_rows_pack puts them back into R->T
GrB_Info GXD_rows_copy (gxd_rows *R, GrB_Matrix A, bool transpose,
    GrB_Type type) ;
GrB_Info GXD_rows_pack (gxd_rows *R) ;
// *R = rows r0 .. r0+nr-1 of A (m rows): a new matrix, or A itself when
// that is all of it
GrB_Info GXD_rows_range (GrB_Matrix *R, GrB_Matrix A, int64_t r0,
    int64_t nr, int64_t m) ;
// a predefined metric's A and B (B may be A): every value finite, and
// non-negative for HELLINGER, JENSEN_SHANNON and KL_DIVERGENCE, else
// GrB_INVALID_VALUE naming the first entry that is not (GXD_GENERIC: any)
GrB_Info GXD_rows_check_domain (const gxd_call *call, const gxd_rows *A,
    const gxd_rows *B) ;

// a BOOL matrix, true exactly where Mask selects (never stored full)
GrB_Info GXD_mask_bool (GrB_Matrix *M, GrB_Matrix Mask, bool structural) ;
// the same pattern as CSR
GrB_Info GXD_mask_pattern (gxd_rows *M, GrB_Matrix Mask, bool structural) ;

// compute T = d(A, B) for a backend plan: full, or with the mask's pattern
GrB_Info GXD_compute (GrB_Matrix *T, const gxd_call *call, const gxd_rows *A,
    const gxd_rows *B, gxd_rows *M) ;
// every pair of A and B into Cx (A->nrows x B->nrows, row-major, of the
// plan's type) by the backend in force, as GXD_compute (fault hook
// included) but into the caller's array: neighborhoods' tiles reuse one
GrB_Info GXD_compute_dense (const gxd_call *call, const gxd_csr *A,
    const gxd_csr *B, void *Cx) ;

// union with user-defined ops, by SuiteSparse calls (GXD_PATH_GRAPHBLAS)
GrB_Info GXD_union_graphblas (GrB_Matrix *T, const gxd_call *call,
    GrB_Matrix Mask, GrB_Matrix A, GrB_Matrix B, const gxd_desc *d) ;

// *Z (new, ztype) = mult (X (t), Y (t)), t < L, by GrB_eWiseMult on full
// vectors (the user's function in bulk); X and Y are lent and given back
GrB_Info GXD_mult_pairs (void **Z, size_t *Z_size, GrB_Type ztype,
    void **X, size_t *X_size, void **Y, size_t *Y_size, int64_t L,
    const gxd_call *call) ;

// the terms of every pair's common columns, f evaluated on them in bulk
// (gxd_union_terms.c): row i's terms are for each entry (i,c) of A (in A's
// order), for each entry (c,j) of Bt; row i's first is term start [i]
typedef struct
{
    const gxd_call *call ;
    const gxd_csr *A, *Bt ;     // A's rows (x type), B transposed (y type)
    int64_t *start ;            // m+1 prefix sums of the rows' terms
    size_t zs ;                 // f's values: bytes, and signed integers
    bool zsigned ;
    gxd_fvalues grid ;          // f on the distinct values' grid (grid.ia
    void *G ;                   // NULL: none), its values and indices, and
    int32_t *ia, *ib ;          // how many values it holds
    int64_t grid_n ;
    void *X, *Y ;               // no grid: a chunk's values of A and B ...
    size_t X_size, Y_size ;     // ... and their sizes (lent to GraphBLAS)
    int64_t chunk, room ;       // terms per chunk, and the most of a chunk
}
gxd_terms ;
GrB_Info GXD_terms_new (gxd_terms *T, const gxd_call *call, const gxd_csr *A,
    const gxd_csr *Bt, size_t zs, bool zsigned) ;
void GXD_terms_free (gxd_terms *T) ;
// rows [i0, i1) of A in chunks of rows [r0, r1), each handed to visit with
// f's values: F->Z [t] for the term t of row r0's first (the grid: by its
// indices, for every row)
GrB_Info GXD_terms_each (gxd_terms *T, int64_t i0, int64_t i1,
    GrB_Info (*visit) (void *self, int64_t r0, int64_t r1,
    const gxd_fvalues *F), void *self) ;
// f(e,e) (ex, ey: e in the x and y types) as a value of type w (FP64,
// INT64 or UINT64), its 64 bits
GrB_Info GXD_terms_fee (uint64_t *bits, const gxd_call *call, GrB_Type w,
    GrB_Scalar ex, GrB_Scalar ey) ;
// testing hook's half (GXD_union_plus_set_block): terms per chunk
void GXD_terms_set_chunk (int64_t terms) ;

// pairs of a PLUS union the rewrite does not trust: (i, j) and the position
// of the pair in the result's values
typedef struct
{
    int64_t *i, *j, *pos ;
    int64_t n, cap ;
}
gxd_redo ;
void GXD_redo_free (gxd_redo *R) ;

// a union whose (+) is PLUS, by intersection products and row terms
// (gxd_union_plus.c) into Cx (every pair, row-major m x n, or the pairs of
// the mask's pattern M): *done false where it does not apply (nothing
// written); pairs it may have computed badly are left in redo for the
// union path.  A (m x k) and B (n x k) hold the rows in the operator's x
// and y types, as matrices (->T, not unpacked; so they are left).
GrB_Info GXD_union_plus (bool *done, gxd_redo *redo, void *Cx,
    const gxd_call *call, gxd_rows *A, gxd_rows *B, const gxd_csr *M) ;

// a union whose (+) is MIN or MAX (of the built-in monoids), every pair
// (M NULL), by common columns' terms and per-entry terms (gxd_union_max.c)
// into Cx (row-major m x n): *done false where it does not apply (nothing
// written).  A and B as for GXD_union_plus.
GrB_Info GXD_union_max (bool *done, void *Cx, const gxd_call *call,
    gxd_rows *A, gxd_rows *B, const gxd_csr *M) ;

// argument checks of GrB_mxm's rules (fn names the caller in messages)
GrB_Info GXD_check_args (const char *fn, GrB_Matrix C, GrB_Matrix Mask,
    GrB_BinaryOp accum, GrB_Matrix A, GrB_Matrix B, const gxd_desc *d) ;

// T = A (+).(x) B' for a union or metric call: by a backend (only the
// mask's pattern when Mask is not complemented) or by SuiteSparse
GrB_Info GXD_product (GrB_Matrix *T, const gxd_call *call, GrB_Matrix Mask,
    GrB_Matrix A, GrB_Matrix B, const gxd_desc *d) ;

// C<Mask> = accum (C, A (+).(x) B') with intersection semantics (GrB_mxm)
GrB_Info GXD_intersect (GrB_Matrix C, GrB_Matrix Mask, GrB_BinaryOp accum,
    GrB_Semiring s, GrB_Matrix A, GrB_Matrix B, const gxd_desc *d) ;

// *R = A, or a new transpose of A when tran (free it if *R != A)
GrB_Info GXD_rows_effective (GrB_Matrix *R, GrB_Matrix A, bool tran) ;

// verify T against the SuiteSparse reference
GrB_Info GXD_verify (const gxd_call *call, GrB_Matrix T, GrB_Matrix A,
    GrB_Matrix B, bool tran_a, bool tran_b) ;
// the rows verify mode samples out of m (GxB_Distance_set_verify_rows):
// *ns of them in *I (new, ascending; every row when the setting is 0 or at
// least m)
#define GXD_VERIFY_ROWS_DEFAULT 64
// A PLUS union's pairs whose conditioning passes GXD_VERIFY_TAU times their
// value are recomputed exactly by the reference (GXO_union_plus): the same
// bound as its metrics' (GXO_METRIC_TAU, reference/oracle/oracle_internal.h),
// a rounding error of at most about 16 n eps relative for n terms.
#define GXD_VERIFY_TAU 16
GrB_Info GXD_verify_sample (GrB_Index **I, GrB_Index *ns, GrB_Index m) ;
// *R = the rows I [0..ns-1] of M, a new matrix of M's type
GrB_Info GXD_verify_rows_at (GrB_Matrix *R, GrB_Matrix M, const GrB_Index *I,
    GrB_Index ns) ;

// C<Mask> = accum (C, T) with desc's mask and replace settings; C is left
// unchanged when it fails
GrB_Info GXD_finish (GrB_Matrix C, GrB_Matrix Mask, GrB_BinaryOp accum,
    GrB_Matrix T, const gxd_desc *d) ;
// a matrix Z to build C's new value in: a copy of C, or (replaces: no mask
// and no accum) an empty one of C's type and layout; then C takes Z's
// content without allocating, so C changes all at once or not at all
GrB_Info GXD_output_new (GrB_Matrix *Z, GrB_Matrix C, bool replaces) ;
GrB_Info GXD_output_move (GrB_Matrix C, GrB_Matrix Z) ;

// the built-in GrB_Type of a matrix, or an error for user-defined types
GrB_Info GXD_builtin_type (GrB_Type *type, GrB_Matrix A, const char *what) ;
GrB_UnaryOp GXD_identity_op (GrB_Type type) ;
// s = *x, x of type t (any type, built-in or not)
GrB_Info GXD_scalar_set (GrB_Scalar s, GrB_Type t, const void *x) ;

#endif
