// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// cuda/gpu_user_program.h: the CUDA text of a user operator's kernels
//------------------------------------------------------------------------------

// A user operator's kernels (cuda/gpu_user.cu) are compiled either as one
// program with the operator inlined (NVRTC, gxd_user_program), or, where
// the library holds the program's template (the kernels with gxd_f left
// external, compiled by nvcc when the library was built: the tool
// gpu_user_templates.cu writes their text), as the operator alone
// (gxd_user_operator, a few functions NVRTC compiles in a tenth of a
// second) linked with that template (gpu_nvrtc.cu).  Both are made here
// from one text, so the two ways run the same kernels.  Plain C++: the
// tool includes it too.

#ifndef GXD_GPU_USER_PROGRAM_H
#define GXD_GPU_USER_PROGRAM_H

#include "gxd_metric.h"
#include <string>

// threads per block of the user kernels
#define GXD_USER_THREADS 256
// rows of B per block of the rewrite's kNN where every row of A takes the
// narrow form (gxd_user_narrow): one word a row, so twice the rows in the
// same 32 KiB.  On short rows a block's fixed costs (its list, staging,
// zeroing, barriers) are most of its time, and half the blocks pay them
// once for twice the pairs.
#define GXD_USER_TN_WIDE 8192
// the slots of the hash set of B's distinct values (gxd_user_narrow)
#define GXD_USER_VSLOTS 128
// an empty slot of that set: a NaN's bits (NaN is no value the narrow form
// takes)
#define GXD_USER_NOVAL 0xFFFFFFFFFFFFFFFFULL

// the kernels a program holds besides gxd_user_pairs
typedef enum
{
    GXD_USER_PAIRS = 0,     // none: one thread a pair, over the union
    GXD_USER_REWRITE,       // the rewrite, (+) = PLUS
    GXD_USER_SELECT         // the select, (+) = MIN or MAX
}
gxd_user_set ;

typedef struct
{
    bool fp64 ;             // the values are double (else float)
    gxd_user_set set ;
    bool min ;              // the select's (+) is MIN (else MAX)
    bool counts ;           // the select counts f(e,e)
    bool knn ;              // GXD_gpu_knn's kernels, not all pairs'
}
gxd_user_kernels ;

// the whole program of plan P, with the kernels K and the operator
// inlined; false if P's operators have no GPU text
bool gxd_user_program (std::string &src, const gxd_plan *P,
    const gxd_user_kernels *K) ;

// whether kernels K have a template: a rewrite or a select, whose (+) is
// fixed by the kernels (PLUS, MIN or MAX)
bool gxd_user_has_template (const gxd_user_kernels *K) ;

// the template of kernels K: the program less gxd_f and the monoid's
// identity, which are extern "C" functions (gxd_f, gxd_user_empty)
std::string gxd_user_template (const gxd_user_kernels *K) ;

// the operator's part that links with a template: gxd_f and
// gxd_user_empty, from P (its (+) one of the template's)
bool gxd_user_operator (std::string &src, const gxd_plan *P) ;

// the template's name ("rewrite_knn_fp32"): its symbol in the library
std::string gxd_user_template_name (const gxd_user_kernels *K) ;

// every kernel set that has a template, into K [0..GXD_USER_NTEMPLATES)
#define GXD_USER_NTEMPLATES 20
void gxd_user_template_list (gxd_user_kernels K [GXD_USER_NTEMPLATES]) ;

#endif
