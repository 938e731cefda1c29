// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// metrics/gxd_metric.h: the one metric table and the backend contract
//------------------------------------------------------------------------------

// Every metric is declared once, in gxd_metric_list.h; its arithmetic,
// shared by the CPU and CUDA backends, is in gxd_metric_ops.h.
// graphblas_ext/ turns a GrB_Semiring into a gxd_plan; a backend gets the plan and raw CSR arrays (never a
// GrB_Matrix) and writes a dense row-major tile or the values of a sampled
// pattern.  The reference (reference/oracle/) shares none of this.
//
// Plus-reducible metrics (kind GXD_KIND_PLUS) are computed exactly as
//   raw(a,b) = k*f(e,e) + N(a) + N(b) + sum_{c in a^b} g(a_c, b_c)
//   N(a) = sum_{c in a} [f(a_c,e) - f(e,e)],  g = f(x,y) - f(x,e) - f(e,y) + f(e,e)
// (../shared/design/floors.md), then d = finalize(raw).  Pairs where raw is
// small next to the scale N(a)+N(b) (cancellation) are recomputed over the
// union by the backend (gxd_guard).  Other kinds: see gxd_kind.

#ifndef GXD_METRIC_H
#define GXD_METRIC_H

#include <stdbool.h>
#include <stdint.h>
#include "gxd_metric_list.h"

#ifdef __cplusplus
extern "C" {
#endif

// the metric ids, in the order of GXD_METRICS (gxd_metric_list.h); a switch
// on a gxd_metric_id has no default, so that a metric it misses is a
// compile error (-Werror=switch)
#define GXD_ID_ROW(U, NAME, ...) GXD_ ## NAME,
typedef enum
{
    GXD_METRICS (GXD_ID_ROW, ~)
    GXD_GENERIC = 100       // a union semiring of built-in ops (gxd_plan.add/mult)
}
gxd_metric_id ;
#undef GXD_ID_ROW

// number of metrics (ids 0 .. GXD_NMETRICS-1)
#define GXD_COUNT_ROW(U, ...) + 1
enum { GXD_NMETRICS = 0 GXD_METRICS (GXD_COUNT_ROW, ~) } ;
#undef GXD_COUNT_ROW

// how a metric is computed
typedef enum
{
    GXD_KIND_PLUS,          // (+) = +: norms + intersection + finalize (above)
    GXD_KIND_DOT,           // intersection of g, with row norms: cosine, correlation,
                            // dice, jaccard, russellrao, dot, kl
    GXD_KIND_MAX            // (+) = max (Chebyshev): union pass only
}
gxd_kind ;

// built-in operators a generic plan may use (FP32/FP64 versions of GrB ops)
typedef enum
{
    GXD_OP_FIRST = 0, GXD_OP_SECOND, GXD_OP_PAIR, GXD_OP_PLUS, GXD_OP_MINUS,
    GXD_OP_RMINUS, GXD_OP_TIMES, GXD_OP_DIV, GXD_OP_RDIV, GXD_OP_MIN,
    GXD_OP_MAX, GXD_OP_ISEQ, GXD_OP_ISNE, GXD_OP_ISGT, GXD_OP_ISLT,
    GXD_OP_ISGE, GXD_OP_ISLE, GXD_OP_POW, GXD_OP_HYPOT, GXD_OP_ANY,
    GXD_OP_USER,            // a user's operator, compiled (gxd_plan.user_*)
    GXD_NOPS
}
gxd_opcode ;

// a user's operator compiled for the CPU (graphblas_ext/gxd_jit.c): its
// own types inside, double at the boundary (values of FP32/FP64 data)
typedef double (*gxd_user_fn) (double x, double y) ;
// and the CPU backend's inner loops with the operator inlined: a column of
// the rewrite's intersection terms, g(x,y) = f(x,y) - f(x,e) - f(e,y) +
// f(e,e), acc [Bi [q]] += g(x, Bx [q]) for q < len, with f(e, Bx [q]) given
// in Fb [q] ...
typedef void (*gxd_user_g_col) (double *acc, const int32_t *Bi,
    const double *Bx, const double *Fb, int64_t len, double x, double e) ;
// ... and one pair's merge over the union of its columns, s (+) f(x,y) for
// each column (x or y = e where a row misses it), under the built-in
// monoid add (GXD_USER_MERGE_*); *nu = the size of the union
// ... and f(x, y [q]) into z [q] for q < len (the terms of a MIN or MAX
// union's common column) ...
typedef void (*gxd_user_col) (double *z, const double *y, int64_t len,
    double x) ;
typedef double (*gxd_user_merge) (int add, const int64_t *Aj,
    const double *Ax, int64_t na, const int64_t *Bj, const double *Bx,
    int64_t nb, double e, double s, int64_t *nu) ;
// the monoids of gxd_user_merge (numbers of the compiled source, gxd_jit.c)
enum { GXD_USER_MERGE_PLUS = 0, GXD_USER_MERGE_TIMES = 1,
    GXD_USER_MERGE_MIN = 2, GXD_USER_MERGE_MAX = 3 } ;
// the user's C definition and function name, for a backend that compiles
// the operator itself (the GPU's, with NVRTC)
typedef struct { const char *name, *defn ; } gxd_user_src ;

// one row of the metric table (the columns of GXD_METRICS)
typedef struct
{
    const char *name ;      // "EUCLIDEAN", as in GxB_DIST_EUCLIDEAN_FP32
    gxd_kind kind ;
    int nacc ;              // intersection accumulators per pair (1, or 2 for Bray-Curtis)
    bool nonneg ;           // input must be >= 0 (else GrB_INVALID_VALUE)
    bool guard ;            // cancellation possible: recompute small pairs exactly
    bool counts ;           // intersection terms are integers (set metrics, Hamming)
    bool predefined ;       // has GxB_DIST_<name>_FP32 / _FP64 (all but Minkowski)
    const char *scipy ;     // scipy's / scikit-learn's name
}
gxd_metric_info ;

extern const gxd_metric_info gxd_metric_table [GXD_NMETRICS] ;

// what to compute: built by graphblas_ext/ from the semiring and descriptor
typedef struct
{
    gxd_metric_id metric ;
    double p ;              // Minkowski degree
    gxd_opcode add ;        // GXD_GENERIC only: PLUS, TIMES, MIN, MAX or USER
    gxd_opcode mult ;       // GXD_GENERIC only
    double identity ;       // GXD_GENERIC only: the NAMM identity
    gxd_user_fn user_mult ; // mult == GXD_OP_USER: the compiled (x) ...
    gxd_user_g_col user_g_col ; // ... a column of its intersection terms
    gxd_user_col user_col ;     // ... a column of f(x,y)
    gxd_user_merge user_merge ; // ... a pair's union, and f(e,e)
    double user_fee ;
    gxd_user_fn user_add ;  // add == GXD_OP_USER: the compiled (+)
    double add_identity ;   // GXD_GENERIC only: (+)'s monoid's identity
    gxd_user_src mult_src, add_src ;    // the sources of the user's ops
    bool fp64 ;             // values and output are double (else float)
    bool exact ;            // compute every pair over the union (no rewrite)
}
gxd_plan ;

// a plan with a user's compiled operator (graphblas_ext/gxd_jit.c): the CPU
// runs it in its generic loops, the GPU in kernels NVRTC compiles for it
// (cuda/gpu_user.cu), never in the GPU's built-in kernels
static inline bool gxd_plan_user (const gxd_plan *P)
{
    return P->metric == GXD_GENERIC
        && (P->mult == GXD_OP_USER || P->add == GXD_OP_USER) ;
}

// a matrix in CSR form, columns sorted within each row, values of type
// double (plan.fp64) or float; no duplicates.  nnz = p[nrows].
typedef struct
{
    int64_t nrows ;
    int64_t ncols ;         // k
    const int64_t *p ;      // nrows+1 row pointers
    const int64_t *j ;      // column indices
    const void *x ;         // values
}
gxd_csr ;

// The backend contract (cpu/gxd_cpu.h, cuda/gxd_gpu.h):
//   dense:   C [i*n + j] = d(A(i,:), B(j,:)) for all i < m, j < n
//   sampled: Cx [q] = d(A(i,:), B(Mj[q],:)) for Mp[i] <= q < Mp[i+1]
// C and Cx are float or double (plan.fp64).  A failure returns a GrB_Info
// and writes a message of at most GXD_MSG_LEN bytes into msg.
#define GXD_MSG_LEN 512

#ifdef __cplusplus
}
#endif
#endif
