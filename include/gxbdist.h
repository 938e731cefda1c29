// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// gxbdist.h: pairwise distances between the rows of sparse GraphBLAS matrices
//------------------------------------------------------------------------------

// gxbdist extends the GraphBLAS C API (SuiteSparse:GraphBLAS >= 7.4) with
// C = A (+).(x) B', where A is m-by-k, B is n-by-k and C is m-by-n, including
// products whose (x) has no annihilator (a NAMM, docs/how-it-works.md): such a
// (x) is applied over the UNION of the nonzero columns of a row pair, a
// missing entry taking the NAMM's identity (0 for every predefined metric).
//
// Every function returns GrB_Info.  On failure, GxB_Distance_error returns a
// message saying what was wrong (the message of the last failed call of the
// calling thread).

#ifndef GXBDIST_H
#define GXBDIST_H

#include <GraphBLAS.h>
#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GXBDIST_VERSION_MAJOR 0
#define GXBDIST_VERSION_MINOR 1
#define GXBDIST_VERSION_SUB   0

// The version of the library a program runs with (the macros above are the
// header's it was compiled against); needs no GxB_Distance_init.
GrB_Info GxB_Distance_version (int *major, int *minor, int *sub) ;

// Returned when verify mode finds a result outside the documented tolerance
// of the SuiteSparse reference (distinct from every GrB_Info code).
#define GxB_VERIFY_FAILED ((GrB_Info) -2001)

//------------------------------------------------------------------------------
// library state
//------------------------------------------------------------------------------

// Call after GrB_init and before GrB_finalize: they create and free the
// predefined semirings and descriptors below.  Calling init twice is an error
// (GrB_INVALID_VALUE); finalize without init does nothing.
GrB_Info GxB_Distance_init (void) ;
GrB_Info GxB_Distance_finalize (void) ;

// GxB_Distance_init for a program that started GraphBLAS with GxB_init and
// its own memory functions: pass the same four.  gxbdist hands arrays it
// allocated to GraphBLAS (which frees them with its free function), so the
// two must agree; every allocation of gxbdist then goes through them.
GrB_Info GxB_Distance_init_memory
(
    void * (* user_malloc_function  ) (size_t),
    void * (* user_calloc_function  ) (size_t, size_t),
    void * (* user_realloc_function ) (void *, size_t),
    void   (* user_free_function    ) (void *)
) ;

// Thread safety, as in GraphBLAS: GxB_Distance_init*, _finalize and the
// settings below (set_backend, set_verify, set_exact_union) must not be
// called while any other gxbdist call is running; every other function may
// be called from several threads at once (GxB_mxm_distance on different
// output matrices, semiring creation and freeing, GxB_Distance_error, which
// is per thread).

// The message of the last call of this thread that did not return
// GrB_SUCCESS ("" when there is none).  The string is owned by gxbdist and
// stays valid until the next gxbdist call of this thread.
GrB_Info GxB_Distance_error (const char **message) ;

typedef enum
{
    GxB_BACKEND_AUTO = 0,   // GPU when one is usable, else the CPU backend
    GxB_BACKEND_CPU  = 1,   // native OpenMP backend
    GxB_BACKEND_GPU  = 2    // CUDA backend; GrB_NOT_IMPLEMENTED if none usable
}
GxB_Backend ;

// Default: the environment variable GXBDIST_BACKEND (auto, cpu or gpu), else
// GxB_BACKEND_AUTO.  Setting GPU when no GPU is usable fails with
// GrB_NOT_IMPLEMENTED and leaves the backend unchanged.
GrB_Info GxB_Distance_set_backend (GxB_Backend backend) ;
GrB_Info GxB_Distance_get_backend (GxB_Backend *backend) ;
// The backend the next call will use (AUTO resolved): CPU or GPU.
GrB_Info GxB_Distance_active_backend (GxB_Backend *backend) ;

// Verify mode (default: env GXBDIST_VERIFY=1): every result of
// GxB_mxm_distance is recomputed by the SuiteSparse reference and compared
// within the documented tolerance (docs/metrics.md); a mismatch returns
// GxB_VERIFY_FAILED, naming the metric, the worst (i,j) and both values.
// Every entry is checked where the reference is a sum (PLUS unions, and
// every metric but CHEBYSHEV), at
// about the cost of a few products A*B'; the others check a sample of rows
// (every entry of those rows): GxB_Distance_set_verify_rows.
GrB_Info GxB_Distance_set_verify (bool on) ;
GrB_Info GxB_Distance_get_verify (bool *on) ;

// The rows of A that verify mode checks where it samples (products whose
// (+) is not PLUS, and CHEBYSHEV; and GxB_kNN,
// GxB_radius_graph): nrows of them (default 64; 0 = every row), always row
// 0 and the last row, the others drawn by a fixed-seed generator, so the
// same call samples the same rows every time (docs/metrics.md).
GrB_Info GxB_Distance_set_verify_rows (uint64_t nrows) ;
GrB_Info GxB_Distance_get_verify_rows (uint64_t *nrows) ;

// Exact union (default off): metrics whose (+) is PLUS are normally computed
// as an intersection-only product plus row norms (docs/metrics.md), with pairs
// that cancel recomputed over the union.  With exact union on, every pair is
// computed over the union of its columns.
GrB_Info GxB_Distance_set_exact_union (bool on) ;
GrB_Info GxB_Distance_get_exact_union (bool *on) ;

//------------------------------------------------------------------------------
// NAMM: a multiplicative operator with no annihilator
//------------------------------------------------------------------------------

typedef struct GxB_NAMM_opaque *GxB_NAMM ;

// (x) = op, applied over the union of the nonzero columns of a row pair, a
// missing entry taking the value identity (typecast to op's input types).
// Over the k - |union| columns where both are missing, op(identity,identity)
// is reduced too, so C(i,j) is exactly (+)_{c<k} op(a~_c, b~_c), a~ and b~
// being the rows completed with identity.
GrB_Info GxB_NAMM_new (GxB_NAMM *namm, GrB_BinaryOp op, double identity) ;
GrB_Info GxB_NAMM_free (GxB_NAMM *namm) ;

// A real GrB_Semiring (add, NAMM's op), usable with GrB_mxm (which gives
// intersection semantics), that gxbdist knows to be annihilator-free.  Free it
// with GrB_Semiring_free.  add's type must be op's output type.
GrB_Info GxB_Semiring_new_NAMM (GrB_Semiring *semiring, GrB_Monoid add,
    GxB_NAMM mult) ;

//------------------------------------------------------------------------------
// the annihilator-free descriptor
//------------------------------------------------------------------------------

// Marks d so that GxB_mxm_distance applies union semantics (missing entry =
// 0) to any semiring.  Clear the mark (on = false) before freeing d.
GrB_Info GxB_Desc_set_annihilator_free (GrB_Descriptor d, bool on) ;
GrB_Info GxB_Desc_get_annihilator_free (GrB_Descriptor d, bool *on) ;

// A predefined descriptor with that mark and no other setting.
extern GrB_Descriptor GxB_DESC_UNION ;

//------------------------------------------------------------------------------
// GxB_mxm_distance: C<Mask> = accum (C, A (+).(x) B')
//------------------------------------------------------------------------------

// The rules of GrB_mxm (C, Mask, accum, semiring, A, B', desc): mask
// (structural, valued, complemented), accum, GrB_REPLACE, typecasting,
// dimension checks; desc's GrB_INP0 / GrB_INP1 = GrB_TRAN transpose A / B
// before use.  With a (not complemented) mask, only the masked entries are
// computed.  The semiring decides the product:
//   - a predefined GxB_DIST_* or Minkowski semiring: that metric;
//   - a NAMM semiring, or any semiring with an annihilator-free desc: union;
//   - any other semiring: intersection semantics, exactly as GrB_mxm.
// C may not be the same object as A, B or Mask.  A and B are never modified.
// A predefined metric takes finite values only: a NaN or an infinity in A or
// B (after typecasting) is GrB_INVALID_VALUE, naming the entry.
GrB_Info GxB_mxm_distance
(
    GrB_Matrix C,
    const GrB_Matrix Mask,
    const GrB_BinaryOp accum,
    const GrB_Semiring semiring,
    const GrB_Matrix A,
    const GrB_Matrix B,
    const GrB_Descriptor desc
) ;

//------------------------------------------------------------------------------
// neighborhoods: k nearest neighbors and radius graphs
//------------------------------------------------------------------------------

// GxB_kNN: row i of C (m-by-n) holds the k rows of B nearest to row i of A
// under the distance semiring (any semiring GxB_mxm_distance accepts with
// union or metric semantics), values = distances.  Nearest = smallest,
// except for DOT (a similarity): largest.  Ties go to the smaller column
// index, so the result is deterministic and equal to a stable sort of each
// row of the full distance matrix; NaN distances come last.  Fewer than k
// candidates in a row: all of them.  k = 0: GrB_INVALID_VALUE.
//
// Mask (optional; structural, valued, complemented) restricts the candidate
// pairs (i,j), and C<Mask> = T then follows GrB_mxm's rules (GrB_REPLACE;
// there is no accum).  GxB_Desc_set_exclude_self drops the pairs j == i
// (a self-query, A and B the same rows).  desc's GrB_INP0 / GrB_INP1 =
// GrB_TRAN transpose A / B as in GxB_mxm_distance.
//
// The m-by-n distance matrix is never held: rows of A and rows of B are
// taken in tiles sized to a bounded workspace, the k best of each row are
// kept as the tiles go by, so memory is the inputs, O(m*k) and the
// workspace.  Results are the same bits whatever the tiling, backend
// threads or run.  In verify mode, a sample of rows (every row when m <=
// 64, else 64 rows spread evenly) is recomputed by the SuiteSparse
// reference and its neighbors compared (metric semirings only).
GrB_Info GxB_kNN
(
    GrB_Matrix C,
    const GrB_Matrix Mask,
    const GrB_Semiring dist,
    uint64_t k,
    const GrB_Matrix A,
    const GrB_Matrix B,
    const GrB_Descriptor desc
) ;

// GxB_radius_graph: C(i,j) = d(A(i,:), B(j,:)) for every candidate pair at
// distance <= eps (>= eps for DOT), with GxB_kNN's conventions.  A result
// too large for memory is GrB_OUT_OF_MEMORY with its size in the message.
GrB_Info GxB_radius_graph
(
    GrB_Matrix C,
    const GrB_Matrix Mask,
    const GrB_Semiring dist,
    double eps,
    const GrB_Matrix A,
    const GrB_Matrix B,
    const GrB_Descriptor desc
) ;

// Marks d so that GxB_kNN and GxB_radius_graph skip the pairs j == i.
// Clear the mark (on = false) before freeing d.
GrB_Info GxB_Desc_set_exclude_self (GrB_Descriptor d, bool on) ;
GrB_Info GxB_Desc_get_exclude_self (GrB_Descriptor d, bool *on) ;

//------------------------------------------------------------------------------
// predefined metric semirings (definitions: docs/metrics.md)
//------------------------------------------------------------------------------

// GxB_DIST_<NAME>_FP32 and _FP64 for every NAME of GXB_DIST_METRICS (which
// a program may expand too, e.g. to loop over every metric)
#define GXB_DIST_METRICS(X)                                                 \
    X (EUCLIDEAN)       X (SQEUCLIDEAN)     X (COSINE)                      \
    X (CORRELATION)     X (DICE)            X (DOT)                         \
    X (HELLINGER)       X (JACCARD)         X (RUSSELLRAO)                  \
    X (KL_DIVERGENCE)   X (CANBERRA)        X (CHEBYSHEV)                   \
    X (HAMMING)         X (JENSEN_SHANNON)  X (MANHATTAN)                   \
    X (BRAYCURTIS)      X (SOKALMICHENER)

#define GXB_DIST_DECLARE(NAME) \
    extern GrB_Semiring GxB_DIST_ ## NAME ## _FP32, GxB_DIST_ ## NAME ## _FP64 ;
GXB_DIST_METRICS (GXB_DIST_DECLARE)
#undef GXB_DIST_DECLARE

// Minkowski of degree p (0 < p <= infinity; p = INFINITY is Chebyshev),
// type GrB_FP32 or GrB_FP64; p <= 0 or NaN: GrB_INVALID_VALUE.  Exact for
// any p and any finite values (docs/metrics.md).  Free with
// GrB_Semiring_free.
GrB_Info GxB_Semiring_new_minkowski (GrB_Semiring *semiring, double p,
    GrB_Type type) ;

//------------------------------------------------------------------------------
// for libraries layered on gxbdist (gxbdist_mpi)
//------------------------------------------------------------------------------

// Record message as the calling thread's last message (GxB_Distance_error)
// and return info: a library built on gxbdist reports its failures where
// gxbdist's callers look for them.  message NULL or "" clears it.
GrB_Info GxB_Distance_set_error (GrB_Info info, const char *message) ;

// How GxB_kNN and GxB_radius_graph read dist under desc.  *largest_first:
// nearest means largest (DOT, a similarity).  *result_type: the type in
// which they order and return distances (GrB_FP32 or GrB_FP64).  key (key_size bytes) gets a
// text naming the distance: "metric <name> <fp32|fp64> p=<p>" for the
// predefined and Minkowski semirings, else the semantics (union or
// intersection), the value of a missing entry and GraphBLAS' description
// of the semiring (GxB_Semiring_fprint).  Two processes that compute the
// same distances get the same key, so processes can check that they agree
// (user-defined operators are known by their names).  A key longer than
// key_size - 1: GrB_INSUFFICIENT_SPACE (4096 bytes are enough for every
// semiring of built-in types).
GrB_Info GxB_Distance_describe (char *key, size_t key_size,
    bool *largest_first, GrB_Type *result_type, const GrB_Semiring dist,
    const GrB_Descriptor desc) ;

#ifdef __cplusplus
}
#endif
#endif
