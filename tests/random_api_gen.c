// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// tests/random_api_gen.c: draw one random call of GxB_mxm_distance, build it
//------------------------------------------------------------------------------

// Compiled into test_random_api.c (see random_api.h).  A call draws, in this
// order: the semiring (a metric, Minkowski of a valid or invalid p, a NAMM of
// a user or built-in operator, an ordinary semiring with or without the
// union mark), at most one deliberate error, the shapes (m, n in {0, 1,
// 2..8, 30..40}, k in {0, 1, 2..10, 40..60}) and transposes, aliases, the
// values, the types and storage formats of A, B, Mask and C, the mask's
// kind, accum, GrB_REPLACE and exact union.  Each matrix is built twice from
// the same tuples (gxt_convert is deterministic), so that the call gets one
// and the checks the other.

#include "random_api.h"

#define PICK(array) (array [ra_int (0, (int64_t) (sizeof (array) / sizeof (array [0])) - 1)])

//------------------------------------------------------------------------------
// user-defined operators: |x-y|, (x-y)^2, x-y, max, in FP32, FP64, INT32,
// INT64 (integers wrap, as C's unsigned arithmetic), and FC64
//------------------------------------------------------------------------------

#define FLOAT_OPS(T, ctype, absfn)                                            \
static void absdiff_ ## T (void *z, const void *x, const void *y)            \
{ *(ctype *) z = absfn (*(const ctype *) x - *(const ctype *) y) ; }          \
static void sqdiff_ ## T (void *z, const void *x, const void *y)             \
{ ctype d = *(const ctype *) x - *(const ctype *) y ; *(ctype *) z = d * d ; } \
static void minus_ ## T (void *z, const void *x, const void *y)              \
{ *(ctype *) z = *(const ctype *) x - *(const ctype *) y ; }                  \
static void max_ ## T (void *z, const void *x, const void *y)                \
{ ctype a = *(const ctype *) x, b = *(const ctype *) y ; *(ctype *) z = (a > b) ? a : b ; }

#define INT_OPS(T, ctype, utype)                                              \
static void absdiff_ ## T (void *z, const void *x, const void *y)            \
{                                                                             \
    ctype a = *(const ctype *) x, b = *(const ctype *) y ;                    \
    *(ctype *) z = (ctype) ((a > b) ? (utype) a - (utype) b : (utype) b - (utype) a) ; \
}                                                                             \
static void sqdiff_ ## T (void *z, const void *x, const void *y)             \
{                                                                             \
    utype d = (utype) *(const ctype *) x - (utype) *(const ctype *) y ;       \
    *(ctype *) z = (ctype) (d * d) ;                                          \
}                                                                             \
static void minus_ ## T (void *z, const void *x, const void *y)              \
{ *(ctype *) z = (ctype) ((utype) *(const ctype *) x - (utype) *(const ctype *) y) ; } \
static void max_ ## T (void *z, const void *x, const void *y)                \
{ ctype a = *(const ctype *) x, b = *(const ctype *) y ; *(ctype *) z = (a > b) ? a : b ; }

FLOAT_OPS (FP32, float, fabsf)
FLOAT_OPS (FP64, double, fabs)
INT_OPS (INT32, int32_t, uint32_t)
INT_OPS (INT64, int64_t, uint64_t)

static void minus_FC64 (void *z, const void *x, const void *y)
{
    *(GxB_FC64_t *) z = *(const GxB_FC64_t *) x - *(const GxB_FC64_t *) y ;
}
static void minus_sq_FC64 (void *z, const void *x, const void *y)
{
    GxB_FC64_t d = *(const GxB_FC64_t *) x - *(const GxB_FC64_t *) y ;
    *(GxB_FC64_t *) z = d * d ;
}
static void accum_FP64 (void *z, const void *x, const void *y)
{
    *(double *) z = 2 * *(const double *) x + *(const double *) y ;
}
static void udt_first (void *z, const void *x, const void *y) { memcpy (z, x, 16) ; }

// the floating-point ones carry their C definition (so they are compiled
// for the CPU backend, graphblas_ext/gxd_jit.c), the others do not
// (GraphBLAS evaluates them, gxd_union_graphblas.c)
typedef struct { GrB_Type *type ; ra_op op ; GxB_binary_function f ;
    const char *name ; const char *defn ; } user_def ;

#define SIG(name, c) "void " name " (" c " *z, const " c " *x, const " c " *y) "
#define USER4(T, c, absfn) \
    { &GrB_ ## T, OP_ABSDIFF, absdiff_ ## T, "absdiff_" #T,                  \
      SIG ("absdiff_" #T, c) "{ (*z) = " absfn " ((*x) - (*y)) ; }" },        \
    { &GrB_ ## T, OP_SQDIFF, sqdiff_ ## T, "sqdiff_" #T,                     \
      SIG ("sqdiff_" #T, c) "{ " c " d = (*x) - (*y) ; (*z) = d * d ; }" },   \
    { &GrB_ ## T, OP_MINUS, minus_ ## T, "minus_" #T,                        \
      SIG ("minus_" #T, c) "{ (*z) = (*x) - (*y) ; }" },                      \
    { &GrB_ ## T, OP_MAX, max_ ## T, "max_" #T,                              \
      SIG ("max_" #T, c) "{ (*z) = ((*x) > (*y)) ? (*x) : (*y) ; }" }
#define USER4_PLAIN(T) \
    { &GrB_ ## T, OP_ABSDIFF, absdiff_ ## T, "absdiff_" #T, NULL }, \
    { &GrB_ ## T, OP_SQDIFF, sqdiff_ ## T, "sqdiff_" #T, NULL },    \
    { &GrB_ ## T, OP_MINUS, minus_ ## T, "minus_" #T, NULL },       \
    { &GrB_ ## T, OP_MAX, max_ ## T, "max_" #T, NULL }

static const user_def user_defs [] =
{
    USER4 (FP32, "float", "fabsf"), USER4 (FP64, "double", "fabs"),
    USER4_PLAIN (INT32), USER4_PLAIN (INT64),
    { &GxB_FC64, OP_MINUS, minus_FC64, "minus_FC64", NULL },
    { &GxB_FC64, OP_MINUS_SQ, minus_sq_FC64, "minus_sq_FC64", NULL },
} ;
#define NUSER ((int) (sizeof (user_defs) / sizeof (user_defs [0])))

static GrB_BinaryOp user_ops [NUSER] ;
GrB_BinaryOp ra_user_accum = NULL, ra_udt_op = NULL ;
GrB_Monoid ra_udt_monoid = NULL ;
static GrB_Semiring udt_semiring = NULL ;

const char *ra_op_name [OP_N] =
{
    "FIRST", "SECOND", "PAIR", "PLUS", "MINUS", "RMINUS", "TIMES", "DIV",
    "RDIV", "MIN", "MAX", "ISEQ", "ISNE", "ISGT", "ISLT", "ISGE", "ISLE",
    "POW", "HYPOT", "LAND", "LOR", "ABSDIFF", "SQDIFF", "MINUS_SQ"
} ;

void ra_ops_init (void)
{
    GrB_Type udt ;
    GXT_OK (GrB_Type_new (&udt, 16)) ;
    ra_udt_set (udt) ;
    for (int q = 0 ; q < NUSER ; q++)
    {
        GrB_Type t = *user_defs [q].type ;
        GXT_OK (GxB_BinaryOp_new (&user_ops [q], user_defs [q].f, t, t, t,
            user_defs [q].name, user_defs [q].defn)) ;
    }
    GXT_OK (GxB_BinaryOp_new (&ra_user_accum, accum_FP64, GrB_FP64, GrB_FP64,
        GrB_FP64, "accum_FP64", NULL)) ;
    GXT_OK (GxB_BinaryOp_new (&ra_udt_op, udt_first, ra_udt (), ra_udt (), ra_udt (), "udt_first", NULL)) ;
    unsigned char zero [16] = { 0 } ;
    GXT_OK (GrB_Monoid_new_UDT (&ra_udt_monoid, ra_udt_op, zero)) ;
    GXT_OK (GrB_Semiring_new (&udt_semiring, ra_udt_monoid, ra_udt_op)) ;
}

void ra_ops_free (void)
{
    for (int q = 0 ; q < NUSER ; q++) GrB_BinaryOp_free (&user_ops [q]) ;
    GrB_Semiring_free (&udt_semiring) ;
    GrB_Monoid_free (&ra_udt_monoid) ;
    GrB_BinaryOp_free (&ra_udt_op) ;
    GrB_BinaryOp_free (&ra_user_accum) ;
    GrB_Type udt = ra_udt () ;
    GrB_Type_free (&udt) ;
    ra_udt_set (NULL) ;
}

GrB_BinaryOp ra_user_op (GrB_Type t, ra_op op)
{
    for (int q = 0 ; q < NUSER ; q++)
    {
        if (*user_defs [q].type == t && user_defs [q].op == op) return user_ops [q] ;
    }
    return NULL ;
}

//------------------------------------------------------------------------------
// built-in operators, monoids and ordinary semirings
//------------------------------------------------------------------------------

// the operators a NAMM of built-in FP32/FP64 operators may use (gxd_resolve)
static const struct { ra_op op ; GrB_BinaryOp *f32, *f64 ; } builtin_ops [] =
{
    { OP_FIRST, &GrB_FIRST_FP32, &GrB_FIRST_FP64 },
    { OP_SECOND, &GrB_SECOND_FP32, &GrB_SECOND_FP64 },
    { OP_PAIR, &GrB_ONEB_FP32, &GrB_ONEB_FP64 },
    { OP_PLUS, &GrB_PLUS_FP32, &GrB_PLUS_FP64 },
    { OP_MINUS, &GrB_MINUS_FP32, &GrB_MINUS_FP64 },
    { OP_RMINUS, &GxB_RMINUS_FP32, &GxB_RMINUS_FP64 },
    { OP_TIMES, &GrB_TIMES_FP32, &GrB_TIMES_FP64 },
    { OP_DIV, &GrB_DIV_FP32, &GrB_DIV_FP64 },
    { OP_RDIV, &GxB_RDIV_FP32, &GxB_RDIV_FP64 },
    { OP_MIN, &GrB_MIN_FP32, &GrB_MIN_FP64 },
    { OP_MAX, &GrB_MAX_FP32, &GrB_MAX_FP64 },
    { OP_ISEQ, &GxB_ISEQ_FP32, &GxB_ISEQ_FP64 },
    { OP_ISNE, &GxB_ISNE_FP32, &GxB_ISNE_FP64 },
    { OP_ISGT, &GxB_ISGT_FP32, &GxB_ISGT_FP64 },
    { OP_ISLT, &GxB_ISLT_FP32, &GxB_ISLT_FP64 },
    { OP_ISGE, &GxB_ISGE_FP32, &GxB_ISGE_FP64 },
    { OP_ISLE, &GxB_ISLE_FP32, &GxB_ISLE_FP64 },
    { OP_POW, &GxB_POW_FP32, &GxB_POW_FP64 },
    { OP_HYPOT, &GxB_HYPOT_FP32, &GxB_HYPOT_FP64 },
} ;

static GrB_Monoid monoid_of (ra_op add, GrB_Type t)
{
    const struct { ra_op add ; GrB_Type *type ; GrB_Monoid *m ; } table [] =
    {
        { OP_PLUS, &GrB_FP32, &GrB_PLUS_MONOID_FP32 }, { OP_PLUS, &GrB_FP64, &GrB_PLUS_MONOID_FP64 },
        { OP_PLUS, &GrB_INT32, &GrB_PLUS_MONOID_INT32 }, { OP_PLUS, &GrB_INT64, &GrB_PLUS_MONOID_INT64 },
        { OP_TIMES, &GrB_FP32, &GrB_TIMES_MONOID_FP32 }, { OP_TIMES, &GrB_FP64, &GrB_TIMES_MONOID_FP64 },
        { OP_MIN, &GrB_FP32, &GrB_MIN_MONOID_FP32 }, { OP_MIN, &GrB_FP64, &GrB_MIN_MONOID_FP64 },
        { OP_MIN, &GrB_INT32, &GrB_MIN_MONOID_INT32 }, { OP_MIN, &GrB_INT64, &GrB_MIN_MONOID_INT64 },
        { OP_MAX, &GrB_FP32, &GrB_MAX_MONOID_FP32 }, { OP_MAX, &GrB_FP64, &GrB_MAX_MONOID_FP64 },
        { OP_MAX, &GrB_INT32, &GrB_MAX_MONOID_INT32 }, { OP_MAX, &GrB_INT64, &GrB_MAX_MONOID_INT64 },
        { OP_PLUS, &GxB_FC64, &GxB_PLUS_FC64_MONOID }, { OP_TIMES, &GxB_FC64, &GxB_TIMES_FC64_MONOID },
    } ;
    for (size_t q = 0 ; q < sizeof (table) / sizeof (table [0]) ; q++)
    {
        if (table [q].add == add && *table [q].type == t) return *table [q].m ;
    }
    return NULL ;
}

typedef struct { GrB_Semiring *s ; ra_op add, op ; GrB_Type *type ; const char *name ; } plain_def ;

#define PLAIN(S, add, op, T) { &S, add, op, &T, #S }
static const plain_def plain_defs [] =
{
    PLAIN (GrB_PLUS_TIMES_SEMIRING_FP64, OP_PLUS, OP_TIMES, GrB_FP64),
    PLAIN (GrB_PLUS_TIMES_SEMIRING_FP32, OP_PLUS, OP_TIMES, GrB_FP32),
    PLAIN (GrB_PLUS_TIMES_SEMIRING_INT32, OP_PLUS, OP_TIMES, GrB_INT32),
    PLAIN (GrB_PLUS_TIMES_SEMIRING_INT64, OP_PLUS, OP_TIMES, GrB_INT64),
    PLAIN (GrB_PLUS_TIMES_SEMIRING_UINT8, OP_PLUS, OP_TIMES, GrB_UINT8),
    PLAIN (GxB_PLUS_MINUS_FP64, OP_PLUS, OP_MINUS, GrB_FP64),
    PLAIN (GxB_PLUS_MINUS_FP32, OP_PLUS, OP_MINUS, GrB_FP32),
    PLAIN (GxB_MAX_MINUS_FP64, OP_MAX, OP_MINUS, GrB_FP64),
    PLAIN (GxB_MAX_MINUS_FP32, OP_MAX, OP_MINUS, GrB_FP32),
    PLAIN (GxB_MAX_MINUS_INT32, OP_MAX, OP_MINUS, GrB_INT32),
    PLAIN (GrB_MIN_PLUS_SEMIRING_FP64, OP_MIN, OP_PLUS, GrB_FP64),
    PLAIN (GrB_MIN_PLUS_SEMIRING_FP32, OP_MIN, OP_PLUS, GrB_FP32),
    PLAIN (GrB_MIN_PLUS_SEMIRING_INT64, OP_MIN, OP_PLUS, GrB_INT64),
    PLAIN (GrB_MAX_PLUS_SEMIRING_FP64, OP_MAX, OP_PLUS, GrB_FP64),
    PLAIN (GrB_MAX_TIMES_SEMIRING_FP32, OP_MAX, OP_TIMES, GrB_FP32),
    PLAIN (GrB_MIN_TIMES_SEMIRING_INT32, OP_MIN, OP_TIMES, GrB_INT32),
    PLAIN (GrB_LOR_LAND_SEMIRING_BOOL, OP_LOR, OP_LAND, GrB_BOOL),
    PLAIN (GxB_PLUS_PAIR_INT64, OP_PLUS, OP_PAIR, GrB_INT64),
    PLAIN (GxB_MIN_FIRST_FP64, OP_MIN, OP_FIRST, GrB_FP64),
    PLAIN (GxB_MAX_SECOND_FP32, OP_MAX, OP_SECOND, GrB_FP32),
    PLAIN (GxB_PLUS_ISEQ_FP64, OP_PLUS, OP_ISEQ, GrB_FP64),
    PLAIN (GxB_PLUS_TIMES_FC64, OP_PLUS, OP_TIMES, GxB_FC64),
    PLAIN (GxB_TIMES_PLUS_FP64, OP_TIMES, OP_PLUS, GrB_FP64),
    PLAIN (GxB_PLUS_DIV_FP64, OP_PLUS, OP_DIV, GrB_FP64),
    PLAIN (GxB_MIN_MAX_FP64, OP_MIN, OP_MAX, GrB_FP64),
    PLAIN (GxB_PLUS_RMINUS_FP32, OP_PLUS, OP_RMINUS, GrB_FP32),
    PLAIN (GxB_PLUS_MIN_INT32, OP_PLUS, OP_MIN, GrB_INT32),
} ;
static const char *plain_name = "" ;

//------------------------------------------------------------------------------
// the semiring
//------------------------------------------------------------------------------

static const double identities [] = { 0, 0, 0, 1, -2, 0.5 } ;

static void draw_semiring (ra_call *rc)
{
    rc->ctor_expect = GrB_SUCCESS ;
    switch (rc->kind)
    {
        case K_METRIC:
        {
            rc->metric = (int) ra_int (0, gxt_npredefined - 1) ;
            bool fp64 = ra_bern (0.5) ;
            const gxt_metric *mt = &gxt_metrics [rc->metric] ;
            rc->s = fp64 ? *mt->fp64 : *mt->fp32 ;
            rc->stype = fp64 ? GrB_FP64 : GrB_FP32 ;
            break ;
        }
        case K_MINKOWSKI:
        {
            // p = +inf is Chebyshev, the limit of the p-norms
            const double good [] = { 0.5, 1, 2, 3, 7.5, 50, 1e5, 1e300, INFINITY } ;
            const double bad [] = { 0, -0.0, -1, NAN, -INFINITY } ;
            bool valid = ra_bern (0.8) ;
            rc->p = valid ? PICK (good) : PICK (bad) ;
            rc->stype = ra_bern (0.5) ? GrB_FP64 : GrB_FP32 ;
            rc->ctor_type = rc->stype ;
            if (!valid) rc->ctor_expect = GrB_INVALID_VALUE ;
            else if (ra_bern (0.08))
            {
                GrB_Type wrong [] = { GrB_INT32, GxB_FC64, GrB_BOOL } ;
                rc->ctor_type = PICK (wrong) ;
                rc->ctor_expect = GrB_DOMAIN_MISMATCH ;
            }
            rc->ctor_info = GxB_Semiring_new_minkowski (&rc->own_semiring,
                rc->p, rc->ctor_type) ;
            rc->s = rc->own_semiring ;
            break ;
        }
        case K_NAMM_USER:
        case K_NAMM_BUILTIN:
        {
            bool user = (rc->kind == K_NAMM_USER) ;
            if (user)
            {
                GrB_Type types [] = { GrB_FP32, GrB_FP64, GrB_INT32, GrB_INT64, GxB_FC64 } ;
                rc->stype = PICK (types) ;
                ra_op cops [] = { OP_MINUS, OP_MINUS_SQ }, rops [] = { OP_ABSDIFF,
                    OP_SQDIFF, OP_MINUS, OP_MAX } ;
                ra_op cadd [] = { OP_PLUS, OP_TIMES }, radd [] = { OP_PLUS, OP_MAX, OP_MIN } ;
                bool cx = (rc->stype == GxB_FC64) ;
                rc->op = cx ? PICK (cops) : PICK (rops) ;
                rc->add = cx ? PICK (cadd) : PICK (radd) ;
                rc->mult = ra_user_op (rc->stype, rc->op) ;
            }
            else
            {
                rc->stype = ra_bern (0.5) ? GrB_FP64 : GrB_FP32 ;
                int q = (int) ra_int (0, (int64_t) (sizeof (builtin_ops) / sizeof (builtin_ops [0])) - 1) ;
                rc->op = builtin_ops [q].op ;
                rc->mult = (rc->stype == GrB_FP64) ? *builtin_ops [q].f64 : *builtin_ops [q].f32 ;
                ra_op add [] = { OP_PLUS, OP_PLUS, OP_TIMES, OP_MIN, OP_MAX } ;
                rc->add = PICK (add) ;
            }
            rc->identity = PICK (identities) ;
            if (ra_type (rc->stype).cat != RA_FP && rc->identity == 0.5) rc->identity = 1 ;
            rc->monoid = monoid_of (rc->add, rc->stype) ;
            if (rc->inject == J_NAMM_MONOID)
            {
                rc->monoid = (rc->stype == GrB_INT32) ? GrB_PLUS_MONOID_FP64 : GrB_PLUS_MONOID_INT32 ;
                rc->ctor_expect = GrB_DOMAIN_MISMATCH ;
            }
            GXT_OK (GxB_NAMM_new (&rc->namm, rc->mult, rc->identity)) ;
            rc->ctor_info = GxB_Semiring_new_NAMM (&rc->own_semiring, rc->monoid, rc->namm) ;
            rc->s = rc->own_semiring ;
            break ;
        }
        default:
        {
            const plain_def *d = &PICK (plain_defs) ;
            rc->s = *d->s ;
            rc->add = d->add ;
            rc->op = d->op ;
            rc->stype = *d->type ;
            plain_name = d->name ;
            GXT_OK (GxB_Semiring_add (&rc->monoid, rc->s)) ;
            GXT_OK (GxB_Semiring_multiply (&rc->mult, rc->s)) ;
            rc->union_mark = (rc->kind == K_PLAIN_UNION) ;
            break ;
        }
    }
    rc->xtype = rc->ytype = rc->stype ;
    rc->s_arg = rc->s ;
}

//------------------------------------------------------------------------------
// shapes, errors and aliases
//------------------------------------------------------------------------------

static GrB_Index draw_dim (bool inner)
{
    int r = (int) ra_int (0, 99) ;
    if (inner) return r < 4 ? 0 : r < 16 ? 1 : r < 66 ? (GrB_Index) ra_int (2, 10) : (GrB_Index) ra_int (40, 60) ;
    return r < 5 ? 0 : r < 20 ? 1 : r < 72 ? (GrB_Index) ra_int (2, 8) : (GrB_Index) ra_int (30, 40) ;
}

static void draw_inject (ra_call *rc)
{
    rc->inject = J_NONE ;
    if (!ra_bern (0.22)) return ;
    if (rc->kind == K_NAMM_USER && ra_bern (0.15)) { rc->inject = J_NAMM_MONOID ; return ; }
    rc->inject = (ra_inject) ra_int (J_NULL_C, J_DIM_TRAN) ;
    rc->blob = (ra_blob) ra_int (0, BLOB_N - 1) ;
}

// the stored shape of an operand whose rows (after the descriptor) are
// rows-by-k must equal a mask-shaped (m-by-n) matrix: adjust the dimensions
static void same_as_mn (ra_call *rc, bool is_a)
{
    bool tran = is_a ? rc->tran0 : rc->tran1 ;
    if (is_a)
    {
        if (tran) { rc->k = rc->m ; rc->n = rc->m ; }      // A stored k-by-m
        else rc->n = rc->k ;                                // A stored m-by-k
    }
    else
    {
        if (tran) rc->k = rc->m ;                           // B stored k-by-n
        else { rc->n = rc->m ; rc->k = rc->m ; }            // B stored n-by-k
    }
}

static void draw_shapes (ra_call *rc)
{
    rc->m = draw_dim (false) ;
    rc->n = draw_dim (false) ;
    rc->k = draw_dim (true) ;
    rc->tran0 = ra_bern (0.25) ;
    rc->tran1 = ra_bern (0.25) ;
    bool free_to_alias = (rc->inject == J_NONE) ;
    rc->alias_ab = free_to_alias && ra_bern (0.08) ;
    rc->has_mask = ra_bern (0.55) || rc->inject == J_ALIAS_CM
        || rc->inject == J_DIM_MASK || rc->inject == J_UDT_MASK_VALUED
        || rc->inject == J_BLOB_M ;
    if (rc->has_mask && free_to_alias && ra_bern (0.08)) rc->mask_alias = (int) ra_int (1, 2) ;
    if (rc->alias_ab)
    {
        if (rc->tran0 == rc->tran1) rc->n = rc->m ;
        else { rc->n = rc->m ; rc->k = rc->m ; }
    }
    if (rc->mask_alias == 1 || rc->inject == J_ALIAS_CA) same_as_mn (rc, true) ;
    if (rc->mask_alias == 2 || rc->inject == J_ALIAS_CB) same_as_mn (rc, false) ;
    if (rc->alias_ab && rc->mask_alias)
    {
        rc->n = rc->m ; rc->k = rc->m ;
    }
    if (rc->inject == J_DIM_TRAN)
    {
        rc->tran0 = false ;
        if (rc->m == rc->k) rc->m = rc->k + 1 ;
    }
}

//------------------------------------------------------------------------------
// values
//------------------------------------------------------------------------------

static double ordinary (void)
{
    double x = 0.05 + 3.95 * ra_unif () ;
    return ra_bern (0.5) ? x : -x ;
}

static double draw_value (const ra_call *rc, bool first, bool nonneg)
{
    double v = ordinary () ;
    switch (rc->values)
    {
        case V_INTEGERS: v = (double) (ra_int (1, 9) * (ra_bern (0.5) ? 1 : -1)) ; break ;
        case V_ZEROS:    if (ra_bern (0.3)) v = ra_bern (0.5) ? 0.0 : -0.0 ; break ;
        case V_DENORMAL:
            if (!first && ra_bern (0.2))
            {
                const double tiny [] = { 4.9406564584124654e-324, 1e-310, -2.2e-309,
                    1e-40, -1e-42, 1.1754943508222875e-38, 1e-300 } ;
                v = PICK (tiny) ;
            }
            break ;
        case V_HUGE:
            if (ra_bern (0.15))
            {
                const double huge [] = { 1e300, -1e300, 1e200, 3.0e38, -3.3e38, 1.7e38 } ;
                v = PICK (huge) ;
            }
            break ;
        case V_SPECIAL:
            if (ra_bern (0.15))
            {
                const double special [] = { NAN, INFINITY, -INFINITY } ;
                v = PICK (special) ;
            }
            break ;
        default: break ;
    }
    if (nonneg)
    {
        if (rc->negatives && ra_bern (0.12)) v = (v < 0) ? v : (v > 0) ? -v : -1 ;
        else if (v < 0) v = -v ;
    }
    return v ;
}

static int64_t draw_bigint (void)
{
    const int64_t big = (int64_t) 1 << 53 ;
    int r = (int) ra_int (0, 9) ;
    if (r < 6) return big + ra_int (-2, 2) ;
    if (r < 8) return -(big + ra_int (0, 2)) ;
    return ra_int (-9, 9) ;
}

// shuffled tuples of a random rows-by-k matrix (stored transposed if tran):
// FP64, or INT64 for V_BIGINT
static GrB_Matrix draw_base (const ra_call *rc, GrB_Index rows, GrB_Index k,
    bool tran, bool nonneg)
{
    int r = (int) ra_int (0, 99) ;
    double density = r < 5 ? 0 : r < 50 ? 0.05 + 0.25 * ra_unif ()
        : r < 85 ? 0.3 + 0.4 * ra_unif () : 1.0 ;
    double empty_frac = ra_bern (0.3) ? 0.3 : 0 ;
    GrB_Index cap = rows * k + 1, nz = 0 ;
    GrB_Index *I = malloc (cap * sizeof (GrB_Index)) ;
    GrB_Index *J = malloc (cap * sizeof (GrB_Index)) ;
    double *X = malloc (cap * sizeof (double)) ;
    int64_t *XI = malloc (cap * sizeof (int64_t)) ;
    assert_non_null (I) ; assert_non_null (J) ; assert_non_null (X) ; assert_non_null (XI) ;
    for (GrB_Index i = 0 ; i < rows ; i++)
    {
        if (empty_frac > 0 && ra_bern (empty_frac)) continue ;
        bool first = true ;
        for (GrB_Index c = 0 ; c < k ; c++)
        {
            if (!(density >= 1 || ra_bern (density))) continue ;
            I [nz] = tran ? c : i ;
            J [nz] = tran ? i : c ;
            if (rc->values == V_BIGINT) XI [nz] = draw_bigint () ;
            else X [nz] = draw_value (rc, first, nonneg) ;
            first = false ;
            nz++ ;
        }
    }
    for (GrB_Index t = nz ; t > 1 ; t--)
    {
        GrB_Index s = ra_u64 () % t ;
        GrB_Index ti = I [t-1] ; I [t-1] = I [s] ; I [s] = ti ;
        GrB_Index tj = J [t-1] ; J [t-1] = J [s] ; J [s] = tj ;
        double tx = X [t-1] ; X [t-1] = X [s] ; X [s] = tx ;
        int64_t tq = XI [t-1] ; XI [t-1] = XI [s] ; XI [s] = tq ;
    }
    GrB_Matrix base = NULL ;
    GrB_Index nr = tran ? k : rows, nc = tran ? rows : k ;
    if (rc->values == V_BIGINT)
    {
        GXT_OK (GrB_Matrix_new (&base, GrB_INT64, nr, nc)) ;
        GXT_OK (GrB_Matrix_build_INT64 (base, I, J, XI, nz, NULL)) ;
    }
    else
    {
        GXT_OK (GrB_Matrix_new (&base, GrB_FP64, nr, nc)) ;
        GXT_OK (GrB_Matrix_build_FP64 (base, I, J, X, nz, NULL)) ;
    }
    free (I) ; free (J) ; free (X) ; free (XI) ;
    return base ;
}

//------------------------------------------------------------------------------
// building matrices and their twins
//------------------------------------------------------------------------------

static GrB_Matrix own (ra_call *rc, GrB_Matrix X)
{
    assert_true (rc->nowned < (int) (sizeof (rc->owned) / sizeof (rc->owned [0]))) ;
    rc->owned [rc->nowned++] = X ;
    return X ;
}

// X and its twin, of type t and format f, from base (freed)
static void twins (ra_call *rc, GrB_Matrix *X, GrB_Matrix *Xtw, GrB_Matrix base,
    gxt_format f, GrB_Type t, char *what, size_t size, const char *name)
{
    GrB_Index nr, nc ;
    GXT_OK (GrB_Matrix_nrows (&nr, base)) ;
    GXT_OK (GrB_Matrix_ncols (&nc, base)) ;
    if (t == ra_udt ())
    {
        // a user-defined type: the base's pattern, bytes from the values
        GrB_Matrix Y [2] ;
        GrB_Index nz ;
        GXT_OK (GrB_Matrix_nvals (&nz, base)) ;
        GrB_Index *I = malloc ((nz + 1) * sizeof (GrB_Index)) ;
        GrB_Index *J = malloc ((nz + 1) * sizeof (GrB_Index)) ;
        double *V = malloc ((nz + 1) * sizeof (double)) ;
        GrB_Index got = nz ;
        GXT_OK (GrB_Matrix_extractTuples_FP64 (I, J, V, &got, base)) ;
        for (int w = 0 ; w < 2 ; w++)
        {
            GXT_OK (GrB_Matrix_new (&Y [w], ra_udt (), nr, nc)) ;
            for (GrB_Index q = 0 ; q < nz ; q++)
            {
                double u [2] = { V [q], (double) q } ;
                GXT_OK (GrB_Matrix_setElement_UDT (Y [w], u, I [q], J [q])) ;
            }
            GXT_OK (GrB_Matrix_wait (Y [w], GrB_MATERIALIZE)) ;
        }
        free (I) ; free (J) ; free (V) ;
        *X = own (rc, Y [0]) ;
        *Xtw = own (rc, Y [1]) ;
        f = GXT_FMT_SPARSE ;
    }
    else
    {
        gxt_convert (X, base, f, t) ;
        gxt_convert (Xtw, base, f, t) ;
        own (rc, *X) ;
        own (rc, *Xtw) ;
    }
    GrB_Matrix_free (&base) ;
    snprintf (what, size, "%s %" PRIu64 "x%" PRIu64 " %s %s", name, nr, nc,
        gxt_type_name (t), gxt_format_name (f)) ;
}

static gxt_format draw_format (bool bigint)
{
    gxt_format f = (gxt_format) ra_int (0, GXT_NFORMATS - 1) ;
    if (bigint && (f == GXT_FMT_ISO || f == GXT_FMT_PENDING)) f = GXT_FMT_SPARSE ;
    return f ;
}

static GrB_Type draw_input_type (const ra_call *rc)
{
    if (rc->values == V_BIGINT) return GrB_INT64 ;
    int r = (int) ra_int (0, 99) ;
    bool real = ra_type (rc->xtype).cat != RA_CPLX ;
    if (r < 55) return real ? rc->xtype : GxB_FC64 ;
    if (r < 95) return gxt_builtin_types [ra_int (0, gxt_nbuiltin_types - 1)] ;
    return ra_bern (0.5) ? GxB_FC32 : GxB_FC64 ;
}

// a mask-shaped (m-by-n) base of mask-like values
static GrB_Matrix draw_mask_base (GrB_Index m, GrB_Index n)
{
    const double density [] = { 0, 0.2, 0.5, 0.5, 1.0 } ;
    const double values [] = { 1, 1, 1, 1, 0, 0, -0.0, -0.0, 2.5, NAN, -3 } ;
    double d = PICK (density) ;
    GrB_Matrix M = NULL ;
    GXT_OK (GrB_Matrix_new (&M, GrB_FP64, m, n)) ;
    for (GrB_Index i = 0 ; i < m ; i++)
        for (GrB_Index j = 0 ; j < n ; j++)
            if (d >= 1 || ra_bern (d)) GXT_OK (GrB_Matrix_setElement_FP64 (M, PICK (values), i, j)) ;
    GXT_OK (GrB_Matrix_wait (M, GrB_MATERIALIZE)) ;
    return M ;
}

// C's old content: empty, some or every entry, poison values
static GrB_Matrix draw_c_base (GrB_Index m, GrB_Index n)
{
    const double density [] = { 0, 0.3, 1.0, 1.0 } ;
    double d = PICK (density) ;
    GrB_Matrix C = NULL ;
    GXT_OK (GrB_Matrix_new (&C, GrB_FP64, m, n)) ;
    for (GrB_Index i = 0 ; i < m ; i++)
        for (GrB_Index j = 0 ; j < n ; j++)
        {
            if (!(d >= 1 || ra_bern (d))) continue ;
            int r = (int) ra_int (0, 9) ;
            double v = r < 4 ? -7 : r < 7 ? NAN : ordinary () ;
            GXT_OK (GrB_Matrix_setElement_FP64 (C, v, i, j)) ;
        }
    GXT_OK (GrB_Matrix_wait (C, GrB_MATERIALIZE)) ;
    return C ;
}

//------------------------------------------------------------------------------
// the call
//------------------------------------------------------------------------------

static const char *kind_names [K_N] =
{
    "metric", "minkowski", "NAMM(user op)", "NAMM(built-in op)", "plain", "plain+DESC_UNION"
} ;
static const char *value_names [V_N] =
{
    "ordinary", "integers", "zeros/-0", "denormals", "huge", "NaN/Inf", "bigint"
} ;
static const char *inject_names [J_N] =
{
    "none", "C=NULL", "A=NULL", "B=NULL", "semiring=NULL", "C is A", "C is B",
    "C is Mask", "A of a user type", "B of a user type", "C of a user type",
    "valued Mask of a user type", "accum of a user type",
    "semiring of a user type", "C bad object", "A bad object",
    "Mask bad object", "semiring bad object", "desc bad object",
    "accum bad object", "B has k+1 columns", "C has m+1 rows",
    "Mask has n+1 columns", "INP0=TRAN of the wrong shape",
    "monoid of another type"
} ;
static const char *blob_names [BLOB_N] = { "zeroed", "freed", "invalid" } ;

static void describe (ra_call *rc, const char *wa, const char *wb,
    const char *wm, const char *wc, const char *accum_name)
{
    char sr [200] ;
    if (rc->kind == K_METRIC)
        snprintf (sr, sizeof (sr), "%s_%s", gxt_metrics [rc->metric].name, gxt_type_name (rc->stype)) ;
    else if (rc->kind == K_MINKOWSKI)
        snprintf (sr, sizeof (sr), "MINKOWSKI p=%g %s", rc->p, gxt_type_name (rc->ctor_type)) ;
    else if (rc->kind == K_NAMM_USER || rc->kind == K_NAMM_BUILTIN)
        snprintf (sr, sizeof (sr), "(+)=%s (x)=%s_%s identity=%g", ra_op_name [rc->add],
            ra_op_name [rc->op], gxt_type_name (rc->stype), rc->identity) ;
    else snprintf (sr, sizeof (sr), "%s", plain_name) ;
    char mask [200] ;
    if (!rc->has_mask) snprintf (mask, sizeof (mask), "Mask NULL%s%s", rc->mask_comp ? " complemented" : "",
        rc->mask_struct ? " structural" : "") ;
    else snprintf (mask, sizeof (mask), "Mask %s%s %s%s", rc->mask_alias == 1 ? "is A " :
        rc->mask_alias == 2 ? "is B " : "", wm, rc->mask_struct ? "structural" : "valued",
        rc->mask_comp ? " complemented" : "") ;
    snprintf (rc->what, sizeof (rc->what), "%s %s | A %s%s | B %s%s%s | values %s%s | C %s | "
        "%s | accum %s%s%s%s%s | error: %s%s%s",
        kind_names [rc->kind], sr, wa, rc->tran0 ? " INP0=TRAN" : "",
        rc->alias_ab ? "(B is A)" : wb, rc->tran1 ? " INP1=TRAN" : "",
        "", value_names [rc->values], rc->negatives ? " with negatives" : "", wc, mask,
        accum_name, rc->replace ? " | REPLACE" : "", rc->union_mark ? " | union mark" : "",
        rc->exact ? " | exact union" : "", rc->desc == NULL ? " | desc NULL" : "",
        inject_names [rc->inject],
        (rc->inject >= J_BLOB_C && rc->inject <= J_BLOB_ACCUM) ? " " : "",
        (rc->inject >= J_BLOB_C && rc->inject <= J_BLOB_ACCUM) ? blob_names [rc->blob] : "") ;
}

static GrB_BinaryOp draw_accum (ra_call *rc, GrB_Type ctype, const char **name)
{
    int r = (int) ra_int (0, 99) ;
    *name = "none" ;
    if (rc->inject == J_UDT_ACCUM) { *name = "udt_first" ; return ra_udt_op ; }
    if (rc->inject == J_BLOB_ACCUM) { *name = "bad object" ; return (GrB_BinaryOp) ra_blob_object (rc->blob) ; }
    if (r < 55) return NULL ;
    if (r < 67) { *name = "GrB_PLUS_FP64" ; return GrB_PLUS_FP64 ; }
    if (r < 77)
    {
        const struct { GrB_Type *t ; GrB_BinaryOp *op ; const char *name ; } plus [] =
        {
            { &GrB_INT8, &GrB_PLUS_INT8, "GrB_PLUS_INT8" }, { &GrB_INT16, &GrB_PLUS_INT16, "GrB_PLUS_INT16" },
            { &GrB_INT32, &GrB_PLUS_INT32, "GrB_PLUS_INT32" }, { &GrB_INT64, &GrB_PLUS_INT64, "GrB_PLUS_INT64" },
            { &GrB_UINT8, &GrB_PLUS_UINT8, "GrB_PLUS_UINT8" }, { &GrB_UINT16, &GrB_PLUS_UINT16, "GrB_PLUS_UINT16" },
            { &GrB_UINT32, &GrB_PLUS_UINT32, "GrB_PLUS_UINT32" }, { &GrB_UINT64, &GrB_PLUS_UINT64, "GrB_PLUS_UINT64" },
            { &GrB_FP32, &GrB_PLUS_FP32, "GrB_PLUS_FP32" },
        } ;
        for (size_t q = 0 ; q < sizeof (plus) / sizeof (plus [0]) ; q++)
        {
            if (*plus [q].t == ctype) { *name = plus [q].name ; return *plus [q].op ; }
        }
        *name = "GrB_PLUS_FP64" ;
        return GrB_PLUS_FP64 ;
    }
    if (r < 85) { *name = "GrB_MIN_FP32" ; return GrB_MIN_FP32 ; }
    if (r < 90) { *name = "GrB_MIN_INT32" ; return GrB_MIN_INT32 ; }
    *name = "user z=2x+y (FP64)" ;
    return ra_user_accum ;
}

static void build_desc (ra_call *rc)
{
    bool t0 = rc->tran0 || rc->inject == J_DIM_TRAN ;
    bool any = rc->mask_struct || rc->mask_comp || rc->replace || t0 || rc->tran1 ;
    rc->desc = NULL ;
    if (rc->inject == J_BLOB_D)
    {
        rc->desc = (GrB_Descriptor) ra_blob_object (rc->blob) ;
        return ;
    }
    if (!any && !rc->union_mark && ra_bern (0.7)) return ;
    if (!any && rc->union_mark && ra_bern (0.5)) { rc->desc = GxB_DESC_UNION ; return ; }
    GXT_OK (GrB_Descriptor_new (&rc->own_desc)) ;
    int mask = (rc->mask_comp ? GrB_COMP : 0) + (rc->mask_struct ? GrB_STRUCTURE : 0) ;
    if (mask) GXT_OK (GrB_Descriptor_set (rc->own_desc, GrB_MASK, (GrB_Desc_Value) mask)) ;
    if (rc->replace) GXT_OK (GrB_Descriptor_set (rc->own_desc, GrB_OUTP, GrB_REPLACE)) ;
    if (t0) GXT_OK (GrB_Descriptor_set (rc->own_desc, GrB_INP0, GrB_TRAN)) ;
    if (rc->tran1) GXT_OK (GrB_Descriptor_set (rc->own_desc, GrB_INP1, GrB_TRAN)) ;
    if (rc->union_mark) GXT_OK (GxB_Desc_set_annihilator_free (rc->own_desc, true)) ;
    rc->desc = rc->own_desc ;
}

void ra_generate (ra_call *rc, uint64_t seed, int call)
{
    memset (rc, 0, sizeof (*rc)) ;
    rc->seed = seed ;
    rc->call = call ;
    rc->metric = -1 ;
    ra_seed (seed, call) ;
    int r = (int) ra_int (0, 99) ;
    rc->kind = r < 40 ? K_METRIC : r < 48 ? K_MINKOWSKI : r < 64 ? K_NAMM_USER
        : r < 72 ? K_NAMM_BUILTIN : r < 86 ? K_PLAIN : K_PLAIN_UNION ;
    draw_inject (rc) ;
    draw_semiring (rc) ;
    if (rc->ctor_expect != GrB_SUCCESS || rc->ctor_info != GrB_SUCCESS)
    {
        describe (rc, "-", "-", "-", "-", "-") ;
        return ;
    }
    if (rc->kind != K_PLAIN_UNION && ra_bern (0.1)) rc->union_mark = true ;
    draw_shapes (rc) ;

    // values
    bool nonneg = rc->kind == K_METRIC && (gxt_metrics [rc->metric].flags & GXT_NONNEG) ;
    ra_cat scat = ra_type (rc->stype).cat ;
    rc->negatives = nonneg && ra_bern (0.15) ;
    if (rc->kind == K_NAMM_USER && rc->stype == GrB_INT64 && rc->op != OP_SQDIFF && ra_bern (0.5))
    {
        rc->values = V_BIGINT ;
    }
    else
    {
        r = (int) ra_int (0, 99) ;
        rc->values = r < 34 ? V_ORDINARY : r < 50 ? V_INTEGERS : r < 62 ? V_ZEROS
            : r < 75 ? V_DENORMAL : r < 87 ? V_HUGE : V_SPECIAL ;
        // integer semirings: no overflow (GraphBLAS's signed overflow is
        // undefined); their saturating casts are still tested through A and B
        if ((scat == RA_SINT || scat == RA_UINT) && rc->values == V_HUGE) rc->values = V_INTEGERS ;
    }

    // A and B
    char wa [160], wb [160], wm [160] = "", wc [160] ;
    bool bigint = (rc->values == V_BIGINT) ;
    GrB_Type ta = (rc->inject == J_UDT_A) ? ra_udt () : draw_input_type (rc) ;
    twins (rc, &rc->A, &rc->Atw, draw_base (rc, rc->m, rc->k, rc->tran0, nonneg),
        draw_format (bigint), ta, wa, sizeof (wa), "") ;
    if (rc->alias_ab)
    {
        rc->B = rc->A ; rc->Btw = rc->Atw ; snprintf (wb, sizeof (wb), "(B is A)") ;
    }
    else
    {
        GrB_Type tb = (rc->inject == J_UDT_B) ? ra_udt () : draw_input_type (rc) ;
        GrB_Index kb = rc->k + (rc->inject == J_DIM_K) ;
        twins (rc, &rc->B, &rc->Btw, draw_base (rc, rc->n, kb, rc->tran1, nonneg),
            draw_format (bigint), tb, wb, sizeof (wb), "") ;
    }

    // the mask
    rc->mask_comp = ra_bern (rc->has_mask ? 0.35 : 0.3) ;
    rc->mask_struct = ra_bern (0.4) ;
    if (rc->has_mask && rc->mask_alias == 1) { rc->M = rc->A ; rc->Mtw = rc->Atw ; snprintf (wm, sizeof (wm), "%s", wa) ; }
    else if (rc->has_mask && rc->mask_alias == 2) { rc->M = rc->B ; rc->Mtw = rc->Btw ; snprintf (wm, sizeof (wm), "%s", wb) ; }
    else if (rc->has_mask)
    {
        GrB_Type mtypes [] = { GrB_BOOL, GrB_BOOL, GrB_BOOL, GrB_BOOL, GrB_BOOL, GrB_FP64,
            GrB_FP64, GrB_INT8, GrB_FP32, GrB_UINT16, GrB_INT64, GxB_FC32 } ;
        GrB_Type mt = PICK (mtypes) ;
        if ((ra_bern (0.08) && rc->inject != J_ALIAS_CM) || rc->inject == J_UDT_MASK_VALUED) mt = ra_udt () ;
        if (mt == ra_udt ()) rc->mask_struct = (rc->inject != J_UDT_MASK_VALUED) ;
        GrB_Index mn = rc->n + (rc->inject == J_DIM_MASK) ;
        twins (rc, &rc->M, &rc->Mtw, draw_mask_base (rc->m, mn), draw_format (false),
            mt, wm, sizeof (wm), "") ;
    }
    if (rc->inject == J_BLOB_M) rc->M = (GrB_Matrix) ra_blob_object (rc->blob) ;

    // C
    GrB_Type tc ;
    r = (int) ra_int (0, 99) ;
    if (rc->inject == J_UDT_C) tc = ra_udt () ;
    else if (r < 50 && scat != RA_CPLX) tc = rc->stype ;
    else if (r < 95) tc = gxt_builtin_types [ra_int (0, gxt_nbuiltin_types - 1)] ;
    else tc = ra_bern (0.5) ? GxB_FC32 : GxB_FC64 ;
    twins (rc, &rc->C, &rc->Ctw, draw_c_base (rc->m + (rc->inject == J_DIM_C), rc->n),
        draw_format (false), tc, wc, sizeof (wc), "") ;

    const char *accum_name ;
    rc->accum = draw_accum (rc, tc, &accum_name) ;
    rc->replace = ra_bern (0.3) ;
    rc->exact = ra_bern (0.2) ;

    // the deliberate error
    switch (rc->inject)
    {
        case J_NULL_C: rc->C = NULL ; break ;
        case J_NULL_A: rc->A = NULL ; break ;
        case J_NULL_B: rc->B = NULL ; break ;
        case J_NULL_S: rc->s_arg = NULL ; break ;
        case J_ALIAS_CA: rc->C = rc->A ; break ;
        case J_ALIAS_CB: rc->C = rc->B ; break ;
        case J_ALIAS_CM: rc->C = rc->M ; break ;
        case J_UDT_SEMIRING: rc->s_arg = udt_semiring ; break ;
        case J_BLOB_C: rc->C = (GrB_Matrix) ra_blob_object (rc->blob) ; break ;
        case J_BLOB_A: rc->A = (GrB_Matrix) ra_blob_object (rc->blob) ; break ;
        case J_BLOB_S: rc->s_arg = (GrB_Semiring) ra_blob_object (rc->blob) ; break ;
        default: break ;
    }
    build_desc (rc) ;
    describe (rc, wa, wb, wm, wc, accum_name) ;
}

void ra_free (ra_call *rc)
{
    for (int q = 0 ; q < rc->nowned ; q++) GrB_Matrix_free (&rc->owned [q]) ;
    if (rc->own_desc != NULL)
    {
        GxB_Desc_set_annihilator_free (rc->own_desc, false) ;
        GrB_Descriptor_free (&rc->own_desc) ;
    }
    GrB_Semiring_free (&rc->own_semiring) ;
    GxB_NAMM_free (&rc->namm) ;
}
