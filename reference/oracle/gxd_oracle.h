// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// reference/oracle/gxd_oracle.h: the SuiteSparse reference (the oracle)
//------------------------------------------------------------------------------

// The oracle of every test and of verify mode.  It computes each metric from
// its textbook formula in FP64 with SuiteSparse:GraphBLAS calls only (plus C
// loops over arrays taken out of GraphBLAS objects) and shares no code with
// the backends.  The definition of a union product is dense completion
// (every missing entry written as the identity: GXO_union, O(m*n*k)); the
// sums are formed without it (GXO_union_plus: products and row sums, pairs
// that cancel recomputed from their own terms) and other monoids row by row
// (GXO_union_rows), so that verify mode costs about what the product does.
// Every function returns GrB_Info; on failure no output is left allocated.

#ifndef GXD_ORACLE_H
#define GXD_ORACLE_H

#include <GraphBLAS.h>
#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// D: a new m-by-n full GrB_FP64 matrix of the distances between the rows of
// A (m-by-k) and the rows of B (n-by-k).  A and B (any built-in type) are
// first typecast to type (GrB_FP32 or GrB_FP64), as GraphBLAS would typecast
// them into the semiring's type, then computed in double.  metric: one of
// EUCLIDEAN SQEUCLIDEAN COSINE CORRELATION DICE DOT HELLINGER JACCARD
// RUSSELLRAO KL_DIVERGENCE CANBERRA CHEBYSHEV HAMMING JENSEN_SHANNON MANHATTAN
// BRAYCURTIS SOKALMICHENER MINKOWSKI (GXO_metric_name); p is used by MINKOWSKI only (0 < p <= inf; p = inf
// is CHEBYSHEV).  Right for any finite values: no intermediate overflows or
// underflows where the distance is representable (docs/metrics.md, "Extreme
// values", names the input range of DOT, KL_DIVERGENCE and SQEUCLIDEAN,
// whose terms are part of their result).  Unknown name or bad p:
// GrB_INVALID_VALUE.  A negative entry for HELLINGER,
// JENSEN_SHANNON or KL_DIVERGENCE: GrB_INVALID_VALUE.  Another type:
// GrB_DOMAIN_MISMATCH; A, B with different k: GrB_DIMENSION_MISMATCH.
// A and B are not modified.
GrB_Info GXO_metric (GrB_Matrix *D, const char *metric, double p,
    GrB_Type type, GrB_Matrix A, GrB_Matrix B) ;

// Compares got (m-by-n, as GXO_compare does) with GXO_metric (metric, p,
// type, A, B) and its scale (GXO_scale), by the rule of GXO_compare, with
// the same outputs, a block of rows of A at a time: what does not depend
// on the block is computed once, and the m-by-n reference is never held
// at once (verify mode).  got's dimensions must be A's rows by B's.  The
// scale of DOT and KL is made only for a block with an entry that fails
// without it; where no entry fails, worst_* may then be the worst without
// it.
GrB_Info GXO_metric_compare (GrB_Matrix got, const char *metric, double p,
    GrB_Type type, GrB_Matrix A, GrB_Matrix B, double rtol, int64_t *nbad,
    int64_t *worst_i, int64_t *worst_j, double *worst_got,
    double *worst_ref) ;

// The name of the oracle's q-th metric (q = 0, 1, ...), NULL past the last:
// the tests check this list against the library's.
const char *GXO_metric_name (int q) ;

// Is GXO_metric's cost that of a few products A*B' and O(m n) more (every
// metric whose sum it rewrites, and the intersection and set metrics), as
// opposed to O(m n |A_i|) (CHEBYSHEV, and MINKOWSKI with p = inf, by
// rows)?  An unknown name: false.
bool GXO_metric_fast (const char *metric, double p) ;

// S: a new m-by-n full GrB_FP64 matrix, the conditioning scale used in
// tolerances.  DOT: S(i,j) = sum_c |a_c| |b_c|.  KL_DIVERGENCE: S(i,j) = sum
// over c with a_c > 0 and b_c > 0 of |a_c ln(a_c/b_c)|.  Any other metric: 0.
GrB_Info GXO_scale (GrB_Matrix *S, const char *metric, GrB_Type type,
    GrB_Matrix A, GrB_Matrix B) ;

// The generic union product (the NAMM definition):
//   D(i,j) = add_{c<k} mult (a~_c, b~_c)
// where a~ is row i of A with every missing entry replaced by identity, b~
// row j of B likewise.  A is cast to mult's xtype, B to its ytype, identity
// to both (these must be built-in types); D is a new m-by-n full matrix of
// mult's ztype (add's type).  For k = 0 every D(i,j) is add's identity.
GrB_Info GXO_union (GrB_Matrix *D, GrB_Monoid add, GrB_BinaryOp mult,
    double identity, GrB_Matrix A, GrB_Matrix B) ;

// The same product for add = PLUS (GXO_monoid_is_plus) without dense
// completion: intersection products and row sums of the operator's own
// values (oracle_union_plus.c), O(flops of A B' + m n + nnz) time and
// O(nnz + m n) memory.  Integer types: exact (wrap-around) in mult's type.
// Floating point: the row terms in FP64, and every pair whose conditioning
// S (the same sum over the terms' magnitudes) exceeds tau |D(i,j)|, or that
// is not finite, recomputed from its own terms over the union of its
// columns (nothing cancels there that the definition does not cancel).  add not
// PLUS (or of type BOOL or complex): GrB_DOMAIN_MISMATCH.
GrB_Info GXO_union_plus (GrB_Matrix *D, GrB_Monoid add, GrB_BinaryOp mult,
    double identity, GrB_Matrix A, GrB_Matrix B, double tau) ;

// The same product for any monoid, row by row: for row i of A, its own
// columns by one product with B's columns completed there, B's other
// columns by a reduction of f(e, y), and the columns in neither by powers of
// f(e,e) (oracle_union_rows.c).  The same terms as GXO_union, combined in
// another order.  Cost O(n |A_i| + nnz(B) + n log k) per row of A: for a
// sample of rows.  add of a complex type: GrB_DOMAIN_MISMATCH.
GrB_Info GXO_union_rows (GrB_Matrix *D, GrB_Monoid add, GrB_BinaryOp mult,
    double identity, GrB_Matrix A, GrB_Matrix B) ;

// is add the PLUS monoid of a real, non-BOOL type (GXO_union_plus's case)?
bool GXO_monoid_is_plus (GrB_Monoid add) ;

// Compares got (m-by-n, any built-in real type, may be sparse: only its
// present entries are compared) with ref (full FP64) and the scale S (full
// FP64, or NULL for 0).  An entry passes when |got - ref| <= rtol *
// max (|ref|, S); NaN or Inf in got where ref is finite fails (an infinite
// ref needs the same infinity, a NaN ref a NaN).  *nbad: the number failing;
// worst_*: the entry of largest |got-ref| / max (|ref|, S, DBL_MIN) (a
// failing non-finite counts as infinite), or i = j = -1 if got is empty.
// ref and S are read in place (unpacked and packed back, unchanged) where
// they are full FP64 matrices other than got.
GrB_Info GXO_compare (GrB_Matrix got, GrB_Matrix ref, GrB_Matrix S,
    double rtol, int64_t *nbad, int64_t *worst_i, int64_t *worst_j,
    double *worst_got, double *worst_ref) ;

#ifdef __cplusplus
}
#endif
#endif
