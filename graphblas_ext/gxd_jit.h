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

// a compiled operator's entry points (gxd_plan.user_*)
typedef struct
{
    gxd_user_fn op ;            // f(x,y)
    gxd_user_g_col g_col ;      // a column of intersection terms
    gxd_user_col col ;          // a column of f(x,y)
    gxd_user_merge merge ;      // a pair's union under a built-in monoid
}
gxd_jit_fns ;

// fns->op = op compiled (cached in the process and on disk), with its
// other entry points, or all NULL when op has no definition, its types are
// not FP32/FP64, or no compiler can be run (or no cache folder written).
// A definition that does not compile: GrB_INVALID_VALUE with the
// compiler's output in the message.
// *src (if not NULL) = its definition and name (kept until
// GxB_Distance_finalize).
GrB_Info GXD_jit_op (gxd_jit_fns *fns, gxd_user_src *src, GrB_BinaryOp op) ;

#endif
