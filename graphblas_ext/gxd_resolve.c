// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// graphblas_ext/gxd_resolve.c: what a semiring and a descriptor ask for
//------------------------------------------------------------------------------

// A predefined metric semiring -> that metric.  A NAMM semiring, or any
// semiring with an annihilator-free descriptor -> union semantics; when its
// monoid and operator are FP32/FP64 ones, built-in or user operators with a
// C definition (compiled by gxd_jit.c), the backends compute it (a
// GXD_GENERIC plan), otherwise SuiteSparse evaluates the user's operator
// (gxd_union_graphblas.c).  Anything else -> intersection semantics, exactly GrB_mxm.

#include "gxd_internal.h"
#include "gxd_jit.h"

// the built-in operators a generic plan understands, by opcode
static GrB_BinaryOp *const op_table [GXD_NOPS][2] =
{
    [GXD_OP_FIRST]  = { &GrB_FIRST_FP32,  &GrB_FIRST_FP64 },
    [GXD_OP_SECOND] = { &GrB_SECOND_FP32, &GrB_SECOND_FP64 },
    [GXD_OP_PAIR]   = { &GrB_ONEB_FP32,   &GrB_ONEB_FP64 },
    [GXD_OP_PLUS]   = { &GrB_PLUS_FP32,   &GrB_PLUS_FP64 },
    [GXD_OP_MINUS]  = { &GrB_MINUS_FP32,  &GrB_MINUS_FP64 },
    [GXD_OP_RMINUS] = { &GxB_RMINUS_FP32, &GxB_RMINUS_FP64 },
    [GXD_OP_TIMES]  = { &GrB_TIMES_FP32,  &GrB_TIMES_FP64 },
    [GXD_OP_DIV]    = { &GrB_DIV_FP32,    &GrB_DIV_FP64 },
    [GXD_OP_RDIV]   = { &GxB_RDIV_FP32,   &GxB_RDIV_FP64 },
    [GXD_OP_MIN]    = { &GrB_MIN_FP32,    &GrB_MIN_FP64 },
    [GXD_OP_MAX]    = { &GrB_MAX_FP32,    &GrB_MAX_FP64 },
    [GXD_OP_ISEQ]   = { &GxB_ISEQ_FP32,   &GxB_ISEQ_FP64 },
    [GXD_OP_ISNE]   = { &GxB_ISNE_FP32,   &GxB_ISNE_FP64 },
    [GXD_OP_ISGT]   = { &GxB_ISGT_FP32,   &GxB_ISGT_FP64 },
    [GXD_OP_ISLT]   = { &GxB_ISLT_FP32,   &GxB_ISLT_FP64 },
    [GXD_OP_ISGE]   = { &GxB_ISGE_FP32,   &GxB_ISGE_FP64 },
    [GXD_OP_ISLE]   = { &GxB_ISLE_FP32,   &GxB_ISLE_FP64 },
    [GXD_OP_POW]    = { &GxB_POW_FP32,    &GxB_POW_FP64 },
    [GXD_OP_HYPOT]  = { &GxB_HYPOT_FP32,  &GxB_HYPOT_FP64 },
} ;

static int opcode_of (GrB_BinaryOp op, int t)
{
    if (op == (t ? GxB_PAIR_FP64 : GxB_PAIR_FP32)) return GXD_OP_PAIR ;
    for (int c = 0 ; c < GXD_OP_ANY ; c++)
    {
        if (op_table [c][t] != NULL && *op_table [c][t] == op) return c ;
    }
    return -1 ;
}

static void resolve_metric (gxd_call *call, const gxd_sr_entry *e)
{
    call->path = GXD_PATH_BACKEND ;
    call->plan.metric = e->metric ;
    call->plan.p = e->p ;
    call->plan.fp64 = e->fp64 ;
    call->plan.exact = GXD_settings.exact ;
    call->type = e->fp64 ? GrB_FP64 : GrB_FP32 ;
    call->xtype = call->ytype = call->type ;
    call->name = gxd_metric_table [e->metric].name ;
}

// union semantics: a backend plan when everything is built-in FP32/FP64
static GrB_Info resolve_union (gxd_call *call)
{
    #define GXD_FREE_ALL ;
    GXD_TRY (GxB_BinaryOp_ztype (&call->type, call->mult)) ;
    GXD_TRY (GxB_BinaryOp_xtype (&call->xtype, call->mult)) ;
    GXD_TRY (GxB_BinaryOp_ytype (&call->ytype, call->mult)) ;
    call->name = "union" ;
    call->path = GXD_PATH_GRAPHBLAS ;
    GrB_Type t = call->type ;
    if ((t != GrB_FP32 && t != GrB_FP64) || call->xtype != t || call->ytype != t)
    {
        return GrB_SUCCESS ;
    }
    int f = (t == GrB_FP64) ;
    GrB_BinaryOp addop ;
    GXD_TRY (GxB_Monoid_operator (&addop, call->add)) ;
    int add = opcode_of (addop, f), mult = opcode_of (call->mult, f) ;
    bool add_ok = add == GXD_OP_PLUS || add == GXD_OP_TIMES
        || add == GXD_OP_MIN || add == GXD_OP_MAX ;
    // a user's operator with a C definition is compiled (gxd_jit.c); one
    // without (or another built-in one) is left to SuiteSparse
    gxd_jit_fns user_add, user_mult ;
    memset (&user_add, 0, sizeof (user_add)) ;
    memset (&user_mult, 0, sizeof (user_mult)) ;
    if (!add_ok)
    {
        GXD_TRY (GXD_jit_op (&user_add, &call->plan.add_src, addop)) ;
        if (user_add.op == NULL) return GrB_SUCCESS ;
        add = GXD_OP_USER ;
    }
    // the monoid's identity, which a built-in operator's monoid may have of
    // the user's choice too (GrB_Monoid_new (&m, GrB_MAX_FP64, 0))
    double add_identity = 0 ;
    float id32 = 0 ;
    if (f) GXD_TRY (GxB_Monoid_identity (&add_identity, call->add))
    else   GXD_TRY (GxB_Monoid_identity (&id32, call->add))
    if (!f) add_identity = id32 ;
    if (mult < 0)
    {
        GXD_TRY (GXD_jit_op (&user_mult, &call->plan.mult_src, call->mult)) ;
        if (user_mult.op == NULL) return GrB_SUCCESS ;
        mult = GXD_OP_USER ;
    }
    call->path = GXD_PATH_BACKEND ;
    call->plan.metric = GXD_GENERIC ;
    call->plan.add = (gxd_opcode) add ;
    call->plan.mult = (gxd_opcode) mult ;
    call->plan.user_add = user_add.op ;
    call->plan.user_mult = user_mult.op ;
    call->plan.user_g_col = user_mult.g_col ;
    call->plan.user_col = user_mult.col ;
    call->plan.user_merge = user_mult.merge ;
    call->plan.user_fee = (user_mult.op != NULL)
        ? user_mult.op (call->identity, call->identity) : 0 ;
    call->plan.add_identity = add_identity ;
    call->plan.identity = call->identity ;
    call->plan.fp64 = (f == 1) ;
    call->plan.exact = GXD_settings.exact ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

GrB_Info GXD_resolve (gxd_call *call, const char *fn, GrB_Semiring s,
    GrB_Descriptor desc)
{
    #define GXD_FREE_ALL ;
    memset (call, 0, sizeof (*call)) ;
    call->fn = fn ;
    GXD_TRY (GxB_Semiring_add (&call->add, s)) ;        // rejects a bad object
    GXD_TRY (GxB_Semiring_multiply (&call->mult, s)) ;
    gxd_sr_entry e ;
    bool known = GXD_registry_find (s, &e) ;
    if (known && e.kind == GXD_SR_METRIC)
    {
        resolve_metric (call, &e) ;
        return GrB_SUCCESS ;
    }
    if (!known && !GXD_desc_marked (desc, GXD_DESC_UNION))
    {
        call->path = GXD_PATH_INTERSECT ;
        call->name = "intersection" ;
        return GrB_SUCCESS ;
    }
    call->identity = known ? e.identity : 0 ;
    return resolve_union (call) ;
    #undef GXD_FREE_ALL
}

GrB_Info GXD_union_types (const gxd_call *call)
{
    if (GXD_identity_op (call->type) == NULL || GXD_identity_op (call->xtype) == NULL
        || GXD_identity_op (call->ytype) == NULL)
    {
        return GXD_error (GrB_DOMAIN_MISMATCH, "union semantics need an "
            "operator on built-in types (a missing entry takes the NAMM's "
            "identity, a number): %s has a user-defined type", call->name) ;
    }
    return GrB_SUCCESS ;
}
