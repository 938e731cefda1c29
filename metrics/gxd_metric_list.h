// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// metrics/gxd_metric_list.h: the list of metrics, one row each
//------------------------------------------------------------------------------

// Every metric is declared once, in GXD_METRICS below; everything that
// lists metrics is expanded from it: the metric ids and gxd_metric_table
// (gxd_metric.h, gxd_metric_table.c), the predefined semirings
// (graphblas_ext/gxd_predefined.c, checked against include/gxbdist.h), the
// CPU and GPU dispatch switches (cpu/cpu_dense.c, cpu_pair.c,
// cuda/gpu_internal.cuh), the tests' metric list (tests/test_common.c),
// the command's metric names (cli/cli_metric.c); tests/test_metric_list.c
// checks docs/metrics.md and the oracle's names against it.  A metric's
// arithmetic is in gxd_metric_ops.h, its textbook formula in
// reference/oracle/oracle_metric.c.  Adding a metric: a row here, its cases
// in gxd_metric_ops.h, its formula in the oracle, its GXB_DIST_METRICS
// entry in gxbdist.h, its row in docs/metrics.md.
//
// Pure macros (no types, no GraphBLAS), so C, CUDA, the tests and the
// command can all expand it.  GXD_METRICS (X, U) calls X (U, columns...)
// once per metric; U is passed through untouched (the CUDA dispatch passes
// its template arguments in it).  The columns:
//
//   NAME    GxB_DIST_<NAME>_FP32 / _FP64, GXD_<NAME>, the oracle's name
//   KIND    PLUS | DOT | MAX: how it is computed (gxd_kind, gxd_metric.h)
//   NACC    intersection accumulators per pair (2: Bray-Curtis's num, den)
//   DOMAIN  ANY | NONNEG: NONNEG rejects a negative entry (GrB_INVALID_VALUE)
//   GUARD   1: the rewrite may cancel, small pairs are recomputed exactly
//   MULT    the (x) of its predefined semiring: TERM (the metric's own
//           column term, so plain GrB_mxm gives the intersection sum), TIMES
//           (GrB_TIMES), or NONE (no predefined semiring: Minkowski, made
//           by GxB_Semiring_new_minkowski with its p)
//   TERMS   COUNT: intersection terms are integers (set metrics, Hamming:
//           exact in any order), REAL otherwise
//   SIGN    POS: d >= 0; ANY: a similarity or divergence that may be < 0
//   SELF    d(x, x): ZERO for a distance, ANY where it depends on x
//   EMPTY   d of two empty rows (k > 0): scipy's value
//   FLOOR   absolute floor of the tolerance's scale: 1 where d = 1 - r
//   SCIPY   its name in scipy.spatial.distance / scikit-learn (the
//           command's and the Python package's name)
//
// The ⊕ of every metric is + but for MAX kind (max); the value of a missing
// entry is 0 for every metric.  The rows are in the order of the metric ids.

#ifndef GXD_METRIC_LIST_H
#define GXD_METRIC_LIST_H

#define GXD_METRICS(X, U)                                                                         \
/*     NAME            KIND  NACC DOMAIN GUARD MULT   TERMS  SIGN SELF  EMPTY FLOOR SCIPY       */ \
  X (U, EUCLIDEAN,      PLUS, 1,  ANY,    1,   TERM,  REAL,  POS, ZERO, 0,    0,    "euclidean")     \
  X (U, SQEUCLIDEAN,    PLUS, 1,  ANY,    1,   TERM,  REAL,  POS, ZERO, 0,    0,    "sqeuclidean")   \
  X (U, COSINE,         DOT,  1,  ANY,    1,   TIMES, REAL,  POS, ZERO, 0,    1,    "cosine")        \
  X (U, CORRELATION,    DOT,  1,  ANY,    1,   TIMES, REAL,  POS, ZERO, 0,    1,    "correlation")   \
  X (U, DICE,           DOT,  1,  ANY,    0,   TERM,  COUNT, POS, ZERO, 0,    0,    "dice")          \
  X (U, DOT,            DOT,  1,  ANY,    0,   TIMES, REAL,  ANY, ANY,  0,    0,    "dot")           \
  X (U, HELLINGER,      PLUS, 1,  NONNEG, 1,   TERM,  REAL,  POS, ZERO, 0,    0,    "hellinger")     \
  X (U, JACCARD,        DOT,  1,  ANY,    0,   TERM,  COUNT, POS, ZERO, 0,    0,    "jaccard")       \
  X (U, RUSSELLRAO,     DOT,  1,  ANY,    0,   TERM,  COUNT, POS, ANY,  1,    0,    "russellrao")    \
  X (U, KL_DIVERGENCE,  DOT,  1,  NONNEG, 0,   TERM,  REAL,  ANY, ZERO, 0,    0,    "kl_divergence") \
  X (U, CANBERRA,       PLUS, 1,  ANY,    1,   TERM,  REAL,  POS, ZERO, 0,    0,    "canberra")      \
  X (U, CHEBYSHEV,      MAX,  1,  ANY,    0,   TERM,  REAL,  POS, ZERO, 0,    0,    "chebyshev")     \
  X (U, HAMMING,        PLUS, 1,  ANY,    0,   TERM,  COUNT, POS, ZERO, 0,    0,    "hamming")       \
  X (U, JENSEN_SHANNON, PLUS, 1,  NONNEG, 1,   TERM,  REAL,  POS, ZERO, 0,    0,    "jensenshannon") \
  X (U, MANHATTAN,      PLUS, 1,  ANY,    1,   TERM,  REAL,  POS, ZERO, 0,    0,    "cityblock")     \
  X (U, BRAYCURTIS,     PLUS, 2,  ANY,    1,   TERM,  REAL,  POS, ZERO, 0,    0,    "braycurtis")    \
  X (U, SOKALMICHENER,  DOT,  1,  ANY,    0,   TERM,  COUNT, POS, ZERO, 0,    0,    "sokalmichener") \
  X (U, MINKOWSKI,      PLUS, 1,  ANY,    1,   NONE,  REAL,  POS, ZERO, 0,    0,    "minkowski")

// the column tokens as values (GXD_COL_<column>_<token>), where the
// library reads them (the tests map SIGN, SELF and FLOOR to their flags)
#define GXD_COL_DOMAIN_ANY    0
#define GXD_COL_DOMAIN_NONNEG 1
#define GXD_COL_TERMS_REAL    0
#define GXD_COL_TERMS_COUNT   1
// (MULT as a value: 1 where the metric has a predefined semiring)
#define GXD_COL_MULT_NONE     0
#define GXD_COL_MULT_TERM     1
#define GXD_COL_MULT_TIMES    1

// for an X that gets a list in U (the CUDA dispatch):
// GXD_APPLY (F, a, GXD_UNPAREN U) calls F (a, the items of U)
#define GXD_UNPAREN(...) __VA_ARGS__
#define GXD_APPLY(F, ...) F (__VA_ARGS__)

#endif
