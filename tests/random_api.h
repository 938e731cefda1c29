// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// tests/random_api.h: what the files of the randomized API test share
//------------------------------------------------------------------------------

// test_random_api draws random calls of GxB_mxm_distance (semiring, types,
// shapes, formats, values, mask, accum, descriptor, aliasing, bad objects),
// runs each one and checks everything the header and docs/metrics.md promise
// about it.  random_api_gen.c draws and builds a call, random_api_check.c
// runs it and checks it against random_api_ref.c's own values, and
// test_random_api.c drives the seeds, counts the failures and holds what
// they all use (random numbers, types, matrix contents, bad objects).  The
// three helper files are compiled into test_random_api.c, so that the test
// is one executable built by the loop of tests/CMakeLists.txt.
//
// Every object handed to the call has a twin built the same way, which the
// call never sees: the references are computed from the twins, and each
// input is compared with its twin afterwards (type, dimensions and every
// entry's bytes, whatever the storage format).

#ifndef RANDOM_API_H
#define RANDOM_API_H

#include "test_common.h"
#include <complex.h>
#include <float.h>
#include <inttypes.h>

//------------------------------------------------------------------------------
// random numbers: one splitmix64 stream per (seed, call), so a call reruns
// alone (GXBDIST_TEST_SEED=<seed> GXBDIST_RANDOM_CALL=<call>)
//------------------------------------------------------------------------------

void ra_seed (uint64_t seed, int call) ;
uint64_t ra_u64 (void) ;
double ra_unif (void) ;                     // [0,1)
int64_t ra_int (int64_t lo, int64_t hi) ;   // lo..hi inclusive
bool ra_bern (double p) ;                   // true with probability p

//------------------------------------------------------------------------------
// types: one table for names, categories, casts and identities
//------------------------------------------------------------------------------

typedef enum { RA_FP, RA_SINT, RA_UINT, RA_BOOL, RA_CPLX, RA_UDT } ra_cat ;

typedef struct
{
    ra_cat cat ;
    int bits ;              // width of one value (complex: of both parts)
    GrB_UnaryOp identity ;  // IDENTITY of the type (casts into it)
}
ra_tinfo ;

ra_tinfo ra_type (GrB_Type t) ;
GrB_Type ra_udt (void) ;                // a 16-byte user-defined type

//------------------------------------------------------------------------------
// the contents of a matrix, whatever its format: sorted CSR, raw bytes
//------------------------------------------------------------------------------

typedef struct
{
    GrB_Type type ;
    size_t tsize ;
    GrB_Index nrows, ncols, nvals ;
    GrB_Index *p, *j ;      // row pointers, column indices (sorted)
    uint8_t *x ;            // nvals values of tsize bytes (iso expanded)
}
ra_content ;

void ra_content_get (ra_content *c, GrB_Matrix A) ;
void ra_content_free (ra_content *c) ;
// NULL when equal (type, dims, pattern, bytes); else a static message, and
// the first (i,j) that differs in *at (-1 if none)
const char *ra_content_diff (const ra_content *got, const ra_content *want,
    int64_t at [2]) ;
// entry q as long double (real types; complex: real part), or its imaginary
// part; integers also as raw two's-complement bits
long double ra_value (const ra_content *c, GrB_Index q) ;
long double ra_value_imag (const ra_content *c, GrB_Index q) ;
uint64_t ra_bits (const ra_content *c, GrB_Index q) ;

//------------------------------------------------------------------------------
// operators, for the references (evaluated by the test, not by GraphBLAS)
//------------------------------------------------------------------------------

typedef enum
{
    OP_FIRST, OP_SECOND, OP_PAIR, OP_PLUS, OP_MINUS, OP_RMINUS, OP_TIMES,
    OP_DIV, OP_RDIV, OP_MIN, OP_MAX, OP_ISEQ, OP_ISNE, OP_ISGT, OP_ISLT,
    OP_ISGE, OP_ISLE, OP_POW, OP_HYPOT, OP_LAND, OP_LOR,
    OP_ABSDIFF, OP_SQDIFF, OP_MINUS_SQ,     // user-defined (GxB_BinaryOp_new)
    OP_N
}
ra_op ;

extern const char *ra_op_name [OP_N] ;

//------------------------------------------------------------------------------
// a call
//------------------------------------------------------------------------------

typedef enum
{
    K_METRIC,           // GxB_DIST_<NAME>_FP32 / _FP64
    K_MINKOWSKI,        // GxB_Semiring_new_minkowski (valid and invalid p)
    K_NAMM_USER,        // a user operator in a NAMM semiring
    K_NAMM_BUILTIN,     // a built-in FP32/FP64 operator in a NAMM semiring
    K_PLAIN,            // an ordinary GraphBLAS semiring: exactly GrB_mxm
    K_PLAIN_UNION,      // an ordinary semiring with the annihilator-free mark
    K_N
}
ra_kind ;

typedef enum
{
    V_ORDINARY,         // reals in +-[0.05, 4]
    V_INTEGERS,         // +-1..9
    V_ZEROS,            // ordinary, and stored 0 and -0 (30 %)
    V_DENORMAL,         // ordinary, and subnormals / FLT_MIN (20 %)
    V_HUGE,             // ordinary, and +-1e300, 1e200, near FLT_MAX (15 %)
    V_SPECIAL,          // ordinary, and NaN, +-Inf (15 %)
    V_BIGINT,           // INT64 around +-2^53 (INT64 NAMMs only)
    V_N
}
ra_values ;

typedef enum
{
    J_NONE,
    J_NULL_C, J_NULL_A, J_NULL_B, J_NULL_S,             // GrB_NULL_POINTER
    J_ALIAS_CA, J_ALIAS_CB, J_ALIAS_CM,                 // GrB_INVALID_VALUE
    J_UDT_A, J_UDT_B, J_UDT_C, J_UDT_MASK_VALUED,       // GrB_DOMAIN_MISMATCH
    J_UDT_ACCUM, J_UDT_SEMIRING,
    J_BLOB_C, J_BLOB_A, J_BLOB_M, J_BLOB_S, J_BLOB_D, J_BLOB_ACCUM, // bad objects
    J_DIM_K, J_DIM_C, J_DIM_MASK, J_DIM_TRAN,           // GrB_DIMENSION_MISMATCH
    J_NAMM_MONOID,      // GxB_Semiring_new_NAMM: monoid of another type
    J_N
}
ra_inject ;

// a bad object: zeroed memory, or a header marked freed / invalid as
// SuiteSparse marks its own (the codes it returns are probed at start)
typedef enum { BLOB_ZERO, BLOB_FREED, BLOB_INVALID, BLOB_N } ra_blob ;
void *ra_blob_object (ra_blob b) ;
GrB_Info ra_blob_info (ra_blob b) ;     // what SuiteSparse returns for it

typedef struct
{
    uint64_t seed ;
    int call ;
    char what [1400] ;      // one line: the call as drawn

    // the semiring
    ra_kind kind ;
    int metric ;            // gxt_metrics index (K_METRIC), -1 otherwise
    double p ;              // K_MINKOWSKI
    GrB_Type ctor_type ;    // K_MINKOWSKI: the type asked for
    GrB_Info ctor_expect ;  // what the semiring's constructor must return
    GrB_Info ctor_info ;    // what it returned
    GrB_Semiring s ;        // the semiring (NULL if its constructor failed)
    bool s_owned ;
    GxB_NAMM namm ;
    GrB_Monoid monoid ;     // (+), for the oracle's GXO_union
    GrB_BinaryOp mult ;     // (x)
    GrB_Type stype, xtype, ytype ;  // (x)'s output and input types
    ra_op add, op ;         // (+) and (x) for the test's own evaluation
    double identity ;       // a missing entry (unions; 0 for metrics)

    // shapes, descriptor, settings
    GrB_Index m, n, k ;     // A is m-by-k, B n-by-k after the transposes
    bool tran0, tran1 ;
    bool has_mask, mask_struct, mask_comp, replace, union_mark, exact ;
    int mask_alias ;        // 0: own mask, 1: Mask is A, 2: Mask is B
    bool alias_ab ;         // B is A
    ra_values values ;
    bool negatives ;        // nonneg metrics: negative entries left in
    ra_inject inject ;
    ra_blob blob ;

    // the arguments of the call (may be NULL, a bad object, or aliases)
    GrB_Matrix C, M, A, B ;
    GrB_BinaryOp accum ;
    GrB_Semiring s_arg ;
    GrB_Descriptor desc ;

    // twins of C, M, A, B (never passed to the call under test)
    GrB_Matrix Ctw, Mtw, Atw, Btw ;

    // everything to free
    GrB_Matrix owned [12] ;
    int nowned ;
    GrB_Descriptor own_desc ;   // marked: cleared before it is freed
    GrB_Semiring own_semiring ;
    GrB_Monoid own_monoid ;
}
ra_call ;

void ra_generate (ra_call *rc, uint64_t seed, int call) ;
void ra_udt_set (GrB_Type t) ;          // ra_ops_init makes the type
void ra_blobs_init (void) ;
void ra_free (ra_call *rc) ;
void ra_run_and_check (ra_call *rc) ;

//------------------------------------------------------------------------------
// the references (random_api_ref.c)
//------------------------------------------------------------------------------

// a number of any type: re (and im) as long double; integers also as exact
// two's-complement bits in u
typedef struct { long double re, im ; uint64_t u ; } ra_num ;

// an operand's rows after its transpose, typecast to the operator's type
typedef struct
{
    GrB_Index rows, k ;
    ra_cat cat ;
    int bits ;
    bool *present ;
    ra_num *v ;
    bool *finite ;          // per row: every entry finite
    bool any_negative, any_nonfinite ;
}
ra_dense ;

void ra_dense_get (ra_dense *D, GrB_Matrix X, bool tran, GrB_Type t) ;
void ra_dense_free (ra_dense *D) ;

// the reference value of the pair (i,j) of a call
typedef struct
{
    ra_num z ;          // the value (integers: z.u exact)
    long double S ;     // tolerance scale
    bool skip ;         // not valued (non-finite input, or out of range)
}
ra_truth ;

// xa, ya: workspace of k entries
ra_truth ra_truth_of (const ra_call *rc, const ra_dense *Ad, const ra_dense *Bd,
    GrB_Index i, GrB_Index j, long double *xa, long double *ya) ;

// the user-defined operators and accum, made once (ra_ops_init)
void ra_ops_init (void) ;
void ra_ops_free (void) ;
GrB_BinaryOp ra_user_op (GrB_Type t, ra_op op) ;
extern GrB_BinaryOp ra_user_accum ;     // FP64: z = 2x + y
extern GrB_BinaryOp ra_udt_op ;         // the user-defined type: z = x
extern GrB_Monoid ra_udt_monoid ;

//------------------------------------------------------------------------------
// failures: counted by check, printed with the seed, the call and its line
//------------------------------------------------------------------------------

void ra_fail (const ra_call *rc, const char *check, const char *fmt, ...)
    __attribute__ ((format (printf, 3, 4))) ;

// what the checks did, for the summary of a seed
typedef struct
{
    int64_t ok, err ;           // calls that returned GrB_SUCCESS / an error
    int64_t valued ;            // product entries compared with the references
    int64_t oracle ;            // entries where the two references were compared
    int64_t mxm ;               // calls compared with GrB_mxm
    int64_t rules ;             // calls compared with GrB_apply's output rules
}
ra_stats ;
extern ra_stats ra_stat ;

#endif
