// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// graphblas_ext/gxd_jit.h: user operators compiled for the CPU backend
//------------------------------------------------------------------------------

// gxd_jit.c compiles the C definition of a user's GrB_BinaryOp (as
// GxB_BinaryOp_new keeps it) into a function on doubles that the CPU
// backend calls like a built-in operator.

#ifndef GXD_JIT_H
#define GXD_JIT_H

#include "gxd_metric.h"
#include <GraphBLAS.h>

// *fn = op compiled (cached in the process and on disk), or NULL when op has
// no definition, its types are not FP32/FP64, or no compiler can be run
// (or no cache folder written).
// A definition that does not compile: GrB_INVALID_VALUE with the
// compiler's output in the message.
// *g (if g is not NULL) = its intersection term (gxd_plan.user_g), *src (if
// not NULL) its definition and name (kept until GxB_Distance_finalize).
GrB_Info GXD_jit_op (gxd_user_fn *fn, gxd_user_g *g, gxd_user_src *src,
    GrB_BinaryOp op) ;

#endif
