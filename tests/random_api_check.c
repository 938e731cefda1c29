// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// tests/random_api_check.c: run one drawn call and check all it promises
//------------------------------------------------------------------------------

// Compiled into test_random_api.c (see random_api.h).  For each call, the
// checks (named as the failure lines and the summary name them):
//
//   info       the GrB_Info is what the rules say (GrB_NULL_POINTER,
//              GrB_INVALID_VALUE for aliased C, a metric's NaN or infinite
//              entry, or a negative entry of a non-negative metric,
//              GrB_DOMAIN_MISMATCH for user-defined
//              types, GrB_DIMENSION_MISMATCH, what SuiteSparse itself returns
//              for a bad object, GrB_mxm's own code on the intersection path;
//              a constructor's code for Minkowski's p and a NAMM's monoid);
//   message    every failure leaves a message in GxB_Distance_error;
//   inputs     A, B and Mask come back bit for bit (compared with twins);
//   C kept     C too, when the call failed;
//   GrB_mxm    ordinary semirings without the union mark: C equals
//              GrB_mxm (C, Mask, accum, s, A, B') on a copy of C, bit for bit;
//   NULL comp  a complemented NULL mask writes nothing (C unchanged, or
//              cleared with GrB_REPLACE);
//   product    otherwise: T = the unmasked product (into a new matrix) has
//              every pair;
//   mask       Tm = the product under the call's mask (into a new matrix) has
//              exactly the pairs the mask selects as GraphBLAS reads it
//              (structure or values, complement, a complemented NULL mask
//              selecting nothing);
//   output     C equals GrB_apply (copy of C, Mask, accum, identity, Tm,
//              desc) bit for bit: GrB_mxm's output rules;
//   -0 mask    the same, where a valued mask holds -0.0, which SuiteSparse
//              7.4 itself reads both ways (true by its bytes, false once
//              typecast, by C's orientation): the call may follow either
//              reading, but one, in Tm and in C alike;
//   values     T and Tm against random_api_ref.c's long double values:
//              tolerance rtol * max (|ref|, S) (rtol 1e-5 FP32, 1e-12 FP64,
//              integers exact; S: DOT sum |x||y|, KL sum |x ln(x/y)|, COSINE
//              and CORRELATION 1e-7 as docs/metrics.md says, a PLUS union sum
//              |terms|, since its terms may cancel; else 0), plus one
//              subnormal step of the output type; no NaN, and nothing
//              negative but DOT, KL and unions, on finite input.  Not valued:
//              a union's pairs with a NaN or an infinity in their rows (their
//              value depends on the order of evaluation), and sums whose S, or products whose
//              terms, pass the range of the type they are computed in (their
//              value depends on the order of evaluation);
//   oracle     on ordinary values, the reference's GXO_metric / GXO_union
//              agree with random_api_ref.c (a check of the references).

#include "random_api.h"

//------------------------------------------------------------------------------
// comparing a product with the references
//------------------------------------------------------------------------------

static double rtol_of (GrB_Type t)
{
    return (t == GrB_FP32 || t == GxB_FC32) ? 1e-5 : 1e-12 ;
}

// NULL when got is within tolerance of the reference, else why not
static const char *judge (long double got, long double ref, long double S,
    GrB_Type t, bool may_be_negative)
{
    bool f32 = (t == GrB_FP32 || t == GxB_FC32) ;
    long double rounded = f32 ? (long double) (float) ref : (long double) (double) ref ;
    if (isnan (ref)) return isnan (got) ? NULL : "not NaN where the reference is NaN" ;
    if (isnan (got)) return "NaN" ;
    if (isinf (rounded)) return (got == rounded) ? NULL : "finite where the reference overflows" ;
    if (isinf (got)) return "infinite where the reference is finite" ;
    if (got < 0 && !may_be_negative) return "negative" ;
    long double tol = rtol_of (t) * fmaxl (fabsl (ref), S)
        + 2 * (f32 ? FLT_TRUE_MIN : DBL_TRUE_MIN) ;
    if (!(fabsl (got - ref) <= tol)) return (got == 0 && ref != 0) ? "0 where the reference is not" : "outside tolerance" ;
    return NULL ;
}

// every entry of T (a product of stype) against the references
static void check_values (ra_call *rc, GrB_Matrix T, const ra_dense *Ad,
    const ra_dense *Bd, const char *which)
{
    ra_content c ;
    ra_content_get (&c, T) ;
    long double *xa = malloc ((rc->k + 1) * sizeof (long double)) ;
    long double *ya = malloc ((rc->k + 1) * sizeof (long double)) ;
    ra_tinfo ti = ra_type (rc->stype) ;
    bool signed_metric = (rc->kind == K_METRIC && (gxt_metrics [rc->metric].flags & GXT_SIGNED))
        || (rc->kind != K_METRIC && rc->kind != K_MINKOWSKI) ;
    int64_t nbad = 0 ;
    for (GrB_Index i = 0 ; i < c.nrows ; i++)
    {
        for (GrB_Index q = c.p [i] ; q < c.p [i+1] ; q++)
        {
            GrB_Index j = c.j [q] ;
            ra_truth t = ra_truth_of (rc, Ad, Bd, i, j, xa, ya) ;
            if (t.skip) continue ;
            ra_stat.valued++ ;
            const char *why = NULL ;
            long double got = ra_value (&c, q), goti = ra_value_imag (&c, q) ;
            if (ti.cat == RA_FP)
            {
                why = judge (got, t.z.re, t.S, rc->stype, signed_metric) ;
            }
            else if (ti.cat == RA_CPLX)
            {
                long double S = fmaxl (t.S, hypotl (t.z.re, t.z.im)) ;
                why = judge (got, t.z.re, S, rc->stype, true) ;
                if (why == NULL) why = judge (goti, t.z.im, S, rc->stype, true) ;
            }
            else if (ra_bits (&c, q) != t.z.u)
            {
                why = "integers differ" ;
            }
            if (why == NULL) continue ;
            if (nbad++ == 0)
            {
                char row [400] = "" ;
                size_t len = 0 ;
                for (GrB_Index col = 0 ; col < rc->k && len < 300 ; col++)
                {
                    const ra_num *a = &Ad->v [i * rc->k + col], *b = &Bd->v [j * rc->k + col] ;
                    bool pa = Ad->present [i * rc->k + col], pb = Bd->present [j * rc->k + col] ;
                    if (!pa && !pb) continue ;
                    len += snprintf (row + len, sizeof (row) - len, " c%" PRIu64 ":%s/%s", col,
                        pa ? "" : "-", pb ? "" : "-") ;
                    if (pa) len += snprintf (row + len, sizeof (row) - len, "a=%.17Lg ", a->re) ;
                    if (pb) len += snprintf (row + len, sizeof (row) - len, "b=%.17Lg", b->re) ;
                }
                char val [200] ;
                if (ti.cat == RA_FP) snprintf (val, sizeof (val), "%.17Lg, reference %.17Lg",
                    got, t.z.re) ;
                else if (ti.cat == RA_CPLX) snprintf (val, sizeof (val), "%.17Lg%+.17Lgi, "
                    "reference %.17Lg%+.17Lgi", got, goti, t.z.re, t.z.im) ;
                else snprintf (val, sizeof (val), "%" PRId64 ", reference %" PRId64,
                    (int64_t) ra_bits (&c, q), (int64_t) t.z.u) ;
                ra_fail (rc, "values", "%s(%" PRIu64 ",%" PRIu64 ") = %s, scale %.3Lg: %s; "
                    "rows (c:a/b, - missing):%s", which, i, j, val, t.S, why, row) ;
            }
        }
    }
    if (nbad > 1) ra_fail (rc, "values", "%s: %" PRId64 " entries wrong in all", which, nbad) ;
    free (xa) ; free (ya) ;
    ra_content_free (&c) ;
}

// the reference's own values (GXO_metric, GXO_union) against the test's:
// a check that the two references agree, on ordinary values only
static void check_oracle (ra_call *rc, const ra_dense *Ad, const ra_dense *Bd,
    GrB_Matrix Aeff, GrB_Matrix Beff)
{
    if (rc->values != V_ORDINARY && rc->values != V_INTEGERS && rc->values != V_ZEROS) return ;
    if (rc->kind == K_MINKOWSKI && rc->p > 50) return ;  // the oracle's sum of |x-y|^p under/overflows
    if (ra_type (rc->stype).cat == RA_CPLX) return ;
    // GXO_union reduces in the operator's type: a product of FP32 terms may
    // under- or overflow in float where the backends' double does not
    if (rc->stype == GrB_FP32 && rc->add == OP_TIMES) return ;
    GrB_Matrix D = NULL, S = NULL ;
    GrB_Info info ;
    if (rc->kind == K_METRIC || rc->kind == K_MINKOWSKI)
    {
        const char *name = (rc->kind == K_METRIC) ? gxt_metrics [rc->metric].name : "MINKOWSKI" ;
        info = GXO_metric (&D, name, rc->p, rc->stype, Aeff, Beff) ;
        if (info == GrB_SUCCESS) info = GXO_scale (&S, name, rc->stype, Aeff, Beff) ;
    }
    else info = GXO_union (&D, rc->monoid, rc->mult, rc->identity, Aeff, Beff) ;
    if (info != GrB_SUCCESS)
    {
        ra_fail (rc, "oracle", "the reference failed: %s", gxt_info_name (info)) ;
        return ;
    }
    ra_content dc, sc ;
    ra_content_get (&dc, D) ;
    if (S != NULL) ra_content_get (&sc, S) ;
    long double *xa = malloc ((rc->k + 1) * sizeof (long double)) ;
    long double *ya = malloc ((rc->k + 1) * sizeof (long double)) ;
    ra_tinfo ti = ra_type (rc->stype) ;
    for (GrB_Index i = 0 ; i < dc.nrows ; i++)
    {
        for (GrB_Index q = dc.p [i] ; q < dc.p [i+1] ; q++)
        {
            ra_truth t = ra_truth_of (rc, Ad, Bd, i, dc.j [q], xa, ya) ;
            if (t.skip) continue ;
            ra_stat.oracle++ ;
            const char *why ;
            if (ti.cat == RA_FP)
            {
                long double Sx = (S != NULL) ? fmaxl (t.S, ra_value (&sc, q)) : t.S ;
                // the oracle computes in double from the cast inputs
                why = judge (ra_value (&dc, q), t.z.re, Sx, GrB_FP64, true) ;
                if (why != NULL && rc->stype == GrB_FP32)
                    why = judge (ra_value (&dc, q), t.z.re, Sx, GrB_FP32, true) ;
            }
            else why = (ra_bits (&dc, q) != t.z.u) ? "integers differ" : NULL ;
            if (why != NULL)
            {
                ra_fail (rc, "oracle", "reference (%" PRIu64 ",%" PRIu64 ") = %.17Lg, the test's "
                    "own %.17Lg: %s", i, dc.j [q], ra_value (&dc, q), t.z.re, why) ;
                i = dc.nrows ;
                break ;
            }
        }
    }
    free (xa) ; free (ya) ;
    ra_content_free (&dc) ;
    if (S != NULL) ra_content_free (&sc) ;
    GrB_Matrix_free (&D) ;
    GrB_Matrix_free (&S) ;
}

//------------------------------------------------------------------------------
// what the call must return
//------------------------------------------------------------------------------

static bool is_intersection (const ra_call *rc)
{
    return rc->kind == K_PLAIN && !rc->union_mark ;
}

static GrB_Descriptor desc_new (bool structural, bool comp, bool replace,
    bool tran0, bool tran1, bool union_mark)
{
    GrB_Descriptor d = gxt_desc (structural, comp, replace, tran0, tran1) ;
    if (union_mark) GXT_OK (GxB_Desc_set_annihilator_free (d, true)) ;
    return d ;
}

static void desc_free (GrB_Descriptor *d)
{
    if (*d == NULL) return ;
    GXT_OK (GxB_Desc_set_annihilator_free (*d, false)) ;
    GrB_Descriptor_free (d) ;
}

// the mask as the references pass it: the twin of the call's mask
static GrB_Matrix mask_twin (const ra_call *rc)
{
    return !rc->has_mask ? NULL : rc->mask_alias == 1 ? rc->Atw
        : rc->mask_alias == 2 ? rc->Btw : rc->Mtw ;
}

// the expected GrB_Info; *either: GrB_INVALID_VALUE is right too
static GrB_Info expected_info (ra_call *rc, const ra_dense *Ad,
    const ra_dense *Bd, GrB_Info mxm_info, bool *either)
{
    *either = false ;
    switch (rc->inject)
    {
        case J_NULL_C: case J_NULL_A: case J_NULL_B: case J_NULL_S:
            return GrB_NULL_POINTER ;
        case J_ALIAS_CA: case J_ALIAS_CB: case J_ALIAS_CM:
            return GrB_INVALID_VALUE ;
        case J_UDT_A: case J_UDT_B: case J_UDT_C: case J_UDT_MASK_VALUED:
        case J_UDT_ACCUM: case J_UDT_SEMIRING:
            return GrB_DOMAIN_MISMATCH ;
        case J_BLOB_C: case J_BLOB_A: case J_BLOB_M: case J_BLOB_S:
        case J_BLOB_D: case J_BLOB_ACCUM:
            return ra_blob_info (rc->blob) ;
        case J_DIM_K: case J_DIM_C: case J_DIM_MASK: case J_DIM_TRAN:
            return GrB_DIMENSION_MISMATCH ;
        default: break ;
    }
    if (is_intersection (rc)) return mxm_info ;
    if (rc->kind == K_METRIC || rc->kind == K_MINKOWSKI)
    {
        // docs/metrics.md: a NaN or an infinity, or a negative entry for a
        // non-negative metric (after the cast to the semiring's type), is
        // GrB_INVALID_VALUE; with a complemented NULL mask (nothing to
        // compute) success is right too
        const bool nonneg = rc->kind == K_METRIC && (gxt_metrics [rc->metric].flags & GXT_NONNEG) ;
        if (Ad->any_nonfinite || Bd->any_nonfinite
            || (nonneg && (Ad->any_negative || Bd->any_negative)))
        {
            *either = !rc->has_mask && rc->mask_comp ;
            return GrB_INVALID_VALUE ;
        }
    }
    return GrB_SUCCESS ;
}

//------------------------------------------------------------------------------
// checks after the call
//------------------------------------------------------------------------------

static bool real_matrix (const ra_call *rc, GrB_Matrix X)
{
    for (int b = 0 ; b < BLOB_N ; b++) if ((void *) X == ra_blob_object (b)) return false ;
    return X != NULL ;
}

// "name(i,j) = value" of each matrix in show (entry values as double)
static void show_entries (char *buf, size_t size, int64_t i, int64_t j,
    GrB_Matrix show [3], const char *names [3])
{
    size_t len = strlen (buf) ;
    for (int q = 0 ; q < 3 && show [q] != NULL && i >= 0 ; q++)
    {
        double v = 0 ;
        GrB_Type t ;
        GXT_OK (GxB_Matrix_type (&t, show [q])) ;
        GrB_Info info = (ra_type (t).cat == RA_UDT) ? GrB_NO_VALUE
            : GrB_Matrix_extractElement_FP64 (&v, show [q], (GrB_Index) i, (GrB_Index) j) ;
        if (len + 80 >= size) break ;
        if (info == GrB_SUCCESS)
            len += snprintf (buf + len, size - len, "; %s(%" PRId64 ",%" PRId64 ") = %.17g",
                names [q], i, j, v) ;
        else
            len += snprintf (buf + len, size - len, "; %s(%" PRId64 ",%" PRId64 ") %s", names [q],
                i, j, ra_type (t).cat == RA_UDT ? "(user type)" : "absent") ;
    }
}

static void check_same (ra_call *rc, GrB_Matrix got, GrB_Matrix want,
    const char *check, const char *what, GrB_Matrix show [3], const char *names [3])
{
    ra_content g, w ;
    ra_content_get (&g, got) ;
    ra_content_get (&w, want) ;
    int64_t at [2] ;
    const char *diff = ra_content_diff (&g, &w, at) ;
    if (diff != NULL)
    {
        char buf [1000] ;
        snprintf (buf, sizeof (buf), "%s", diff) ;
        if (show != NULL) show_entries (buf, sizeof (buf), at [0], at [1], show, names) ;
        ra_fail (rc, check, "%s: %s", what, buf) ;
    }
    ra_content_free (&g) ;
    ra_content_free (&w) ;
}

static void check_inputs (ra_call *rc)
{
    if (real_matrix (rc, rc->A)) check_same (rc, rc->A, rc->Atw, "inputs", "A changed", NULL, NULL) ;
    if (real_matrix (rc, rc->B) && !rc->alias_ab) check_same (rc, rc->B, rc->Btw, "inputs", "B changed", NULL, NULL) ;
    if (real_matrix (rc, rc->M) && rc->mask_alias == 0) check_same (rc, rc->M, rc->Mtw, "inputs", "Mask changed", NULL, NULL) ;
}

// C against GrB_mxm's own result on a copy of C: bit for bit (the same
// GraphBLAS call on the same data)
static void check_intersection (ra_call *rc, GrB_Matrix Cref)
{
    GrB_Matrix show [3] = { rc->Ctw, mask_twin (rc), NULL } ;
    const char *names [3] = { "C before", "Mask", NULL } ;
    ra_stat.mxm++ ;
    check_same (rc, rc->C, Cref, "GrB_mxm", "C differs from GrB_mxm (C, Mask, accum, semiring, "
        "A, B') on a copy of C", show, names) ;
}

// true if a floating-point mask holds a -0.0 (a complex one: -0.0 parts)
static bool negative_zeros (GrB_Matrix M)
{
    ra_content c ;
    ra_content_get (&c, M) ;
    ra_tinfo ti = ra_type (c.type) ;
    bool found = false ;
    static const uint8_t zero [16] = { 0 } ;
    for (GrB_Index q = 0 ; q < c.nvals && !found && (ti.cat == RA_FP || ti.cat == RA_CPLX) ; q++)
    {
        found = ra_value (&c, q) == 0 && ra_value_imag (&c, q) == 0
            && memcmp (c.x + q * c.tsize, zero, c.tsize) != 0 ;
    }
    ra_content_free (&c) ;
    return found ;
}

// the mask the references use: a sparse copy of M (SuiteSparse 7.4.0
// crashes in C<M> += T for a full M and a sparse T, GB_subassign_08n; the
// references must not, whatever the call under test does), with every -0.0
// entry (both parts, if complex) set to v unless v is NaN
static GrB_Matrix mask_reading (GrB_Matrix M, double v)
{
    GrB_Matrix R = NULL ;
    if (M == NULL) return NULL ;
    ra_content c ;
    ra_content_get (&c, M) ;
    GXT_OK (GrB_Matrix_dup (&R, M)) ;
    GXT_OK (GxB_Matrix_Option_set (R, GxB_SPARSITY_CONTROL, GxB_SPARSE)) ;
    static const uint8_t zero [16] = { 0 } ;
    for (GrB_Index i = 0 ; i < c.nrows && !isnan (v) ; i++)
        for (GrB_Index q = c.p [i] ; q < c.p [i+1] ; q++)
            if (ra_type (c.type).cat != RA_UDT && ra_value (&c, q) == 0
                && ra_value_imag (&c, q) == 0 && memcmp (c.x + q * c.tsize, zero, c.tsize) != 0)
                GXT_OK (GrB_Matrix_setElement_FP64 (R, v, i, c.j [q])) ;
    GXT_OK (GrB_Matrix_wait (R, GrB_MATERIALIZE)) ;
    ra_content_free (&c) ;
    return R ;
}

// the union or metric product: unmasked, masked, and C by GrB_mxm's rules
static void check_product (ra_call *rc, const ra_dense *Ad, const ra_dense *Bd,
    bool either)
{
    GrB_Matrix Tf = NULL, Tm = NULL, E = NULL, Cexp = NULL, Aeff = NULL, Beff = NULL ;
    GrB_Matrix Mref = mask_twin (rc) ;
    GrB_Descriptor dm = NULL ;
    GrB_Index m = rc->m, n = rc->n ;

    // T = the whole product, into a new matrix of the semiring's type
    GrB_Descriptor dt = desc_new (false, false, false, rc->tran0, rc->tran1, rc->union_mark) ;
    GXT_OK (GrB_Matrix_new (&Tf, rc->stype, m, n)) ;
    GrB_Info info = GxB_mxm_distance (Tf, NULL, NULL, rc->s, rc->Atw, rc->Btw, dt) ;
    desc_free (&dt) ;
    if (info == GrB_INVALID_VALUE && either)
    {
        // refused where success is right too: nothing to value
        goto done ;
    }
    if (info != GrB_SUCCESS)
    {
        ra_fail (rc, "info", "the unmasked product (no mask, accum, replace) returned %s: \"%s\"",
            gxt_info_name (info), gxt_message ()) ;
    }
    else
    {
        GrB_Index nvals ;
        GXT_OK (GrB_Matrix_nvals (&nvals, Tf)) ;
        if (nvals != m * n)
            ra_fail (rc, "product", "the unmasked product has %" PRIu64 " entries, expected every "
                "one of the %" PRIu64 " pairs", nvals, m * n) ;
        check_values (rc, Tf, Ad, Bd, "T") ;
    }

    // Tm = the product under the call's mask (no accum, no replace)
    dm = desc_new (rc->mask_struct, rc->mask_comp, false, rc->tran0, rc->tran1, rc->union_mark) ;
    GXT_OK (GrB_Matrix_new (&Tm, rc->stype, m, n)) ;
    info = GxB_mxm_distance (Tm, Mref, NULL, rc->s, rc->Atw, rc->Btw, dm) ;
    if (info != GrB_SUCCESS)
    {
        ra_fail (rc, "info", "the masked product into an empty matrix returned %s: \"%s\"",
            gxt_info_name (info), gxt_message ()) ;
        goto done ;
    }
    check_values (rc, Tm, Ad, Bd, "Tm") ;

    // E: the pairs the mask selects, as GraphBLAS itself reads the mask.
    // A valued mask entry -0.0 is read both ways by SuiteSparse 7.4 (true
    // by its bytes, false when the mask is typecast: by C's orientation), so
    // such a mask is tried as both readings, each without any -0.0; the
    // call must follow one of them, in Tm and in C alike.
    GrB_Matrix Mv [2] = { mask_reading (Mref, NAN), NULL } ;
    int nv = 1, v = 0 ;
    if (Mref != NULL && !rc->mask_struct && negative_zeros (Mref))
    {
        GrB_Matrix_free (&Mv [0]) ;
        Mv [0] = mask_reading (Mref, 1.0) ;
        Mv [1] = mask_reading (Mref, 0.0) ;
        nv = 2 ;
    }
    {
        ra_content te ;
        ra_content_get (&te, Tm) ;
        GrB_Index ev [2] = { 0, 0 } ;
        bool same = false ;
        for (v = 0 ; v < nv && !same ; v++)
        {
            ra_content ee ;
            GXT_OK (GrB_Matrix_new (&E, GrB_BOOL, m, n)) ;
            GXT_OK (GrB_Matrix_assign_BOOL (E, Mv [v], NULL, true, GrB_ALL, m, GrB_ALL, n, dm)) ;
            ra_content_get (&ee, E) ;
            GrB_Matrix_free (&E) ;
            ev [v] = ee.nvals ;
            same = te.nvals == ee.nvals
                && memcmp (te.p, ee.p, (m + 1) * sizeof (GrB_Index)) == 0
                && memcmp (te.j, ee.j, te.nvals * sizeof (GrB_Index)) == 0 ;
            ra_content_free (&ee) ;
        }
        v = same ? v - 1 : 0 ;
        if (!same)
        {
            ra_fail (rc, "mask", "the masked product has %" PRIu64 " entries where the mask "
                "selects %" PRIu64 " pairs%s", te.nvals, ev [0], nv == 1 ? ""
                : " (reading -0.0 as true; as false it selects another set)") ;
        }
        ra_content_free (&te) ;
    }

    // C must be GrB_apply (copy of C, Mask, accum, identity, Tm, desc)
    {
        GrB_Descriptor d0 = desc_new (rc->mask_struct, rc->mask_comp, rc->replace, false, false, false) ;
        GXT_OK (GrB_Matrix_dup (&Cexp, rc->Ctw)) ;
        info = GrB_Matrix_apply (Cexp, Mv [v], rc->accum, ra_type (rc->stype).identity, Tm, d0) ;
        ra_stat.rules++ ;
        desc_free (&d0) ;
        if (info != GrB_SUCCESS)
            ra_fail (rc, "output", "GrB_apply of the rules returned %s (the call succeeded)",
                gxt_info_name (info)) ;
        else
        {
            GrB_Matrix show [3] = { rc->Ctw, Tm, Mref } ;
            const char *names [3] = { "C before", "T", "Mask" } ;
            // differences where the mask holds -0.0 are counted apart: one
            // cause (the pairs computed and the mask applied read -0.0
            // differently)
            const char *check = "output" ;
            if (nv == 2)
            {
                ra_content g, w ;
                int64_t at [2] ;
                ra_content_get (&g, rc->C) ;
                ra_content_get (&w, Cexp) ;
                double mv = 1 ;
                if (ra_content_diff (&g, &w, at) != NULL && GrB_Matrix_extractElement_FP64 (&mv,
                    Mref, (GrB_Index) at [0], (GrB_Index) at [1]) == GrB_SUCCESS
                    && mv == 0 && signbit (mv)) check = "-0 mask" ;
                ra_content_free (&g) ;
                ra_content_free (&w) ;
            }
            check_same (rc, rc->C, Cexp, check, "C differs from "
                "GrB_apply (C, Mask, accum, identity, T, desc) on a copy of C, T the masked "
                "product", show, names) ;
        }
    }
    GrB_Matrix_free (&Mv [0]) ;
    GrB_Matrix_free (&Mv [1]) ;

    // the references agree with each other
    GXT_OK (GrB_Matrix_new (&Aeff, rc->xtype, rc->m, rc->k)) ;
    GXT_OK (GrB_Matrix_new (&Beff, rc->ytype, rc->n, rc->k)) ;
    GXT_OK (GrB_Matrix_apply (Aeff, NULL, NULL, ra_type (rc->xtype).identity, rc->Atw, rc->tran0 ? GrB_DESC_T0 : NULL)) ;
    GXT_OK (GrB_Matrix_apply (Beff, NULL, NULL, ra_type (rc->ytype).identity, rc->Btw, rc->tran1 ? GrB_DESC_T0 : NULL)) ;
    check_oracle (rc, Ad, Bd, Aeff, Beff) ;

done:
    desc_free (&dm) ;
    GrB_Matrix_free (&Tf) ; GrB_Matrix_free (&Tm) ; GrB_Matrix_free (&E) ;
    GrB_Matrix_free (&Cexp) ; GrB_Matrix_free (&Aeff) ; GrB_Matrix_free (&Beff) ;
}

//------------------------------------------------------------------------------
// one call
//------------------------------------------------------------------------------

void ra_run_and_check (ra_call *rc)
{
    // the semiring's constructor
    if (rc->ctor_info != rc->ctor_expect)
    {
        ra_fail (rc, "info", "the semiring's constructor returned %s, expected %s: \"%s\"",
            gxt_info_name (rc->ctor_info), gxt_info_name (rc->ctor_expect), gxt_message ()) ;
        return ;
    }
    if (rc->ctor_expect != GrB_SUCCESS)
    {
        ra_stat.err++ ;
        if (gxt_message () [0] == '\0')
            ra_fail (rc, "message", "the constructor returned %s with an empty GxB_Distance_error",
                gxt_info_name (rc->ctor_info)) ;
        if (rc->own_semiring != NULL)
            ra_fail (rc, "info", "the failed constructor left a semiring") ;
        return ;
    }

    // dense rows (of the twins) and, on the intersection path, GrB_mxm
    ra_dense Ad, Bd ;
    memset (&Ad, 0, sizeof (Ad)) ;
    memset (&Bd, 0, sizeof (Bd)) ;
    GrB_Matrix Cref = NULL ;
    GrB_Info mxm_info = GrB_SUCCESS ;
    bool valued = (rc->inject == J_NONE) ;
    if (valued)
    {
        ra_dense_get (&Ad, rc->Atw, rc->tran0, rc->xtype) ;
        ra_dense_get (&Bd, rc->Btw, rc->tran1, rc->ytype) ;
        if (is_intersection (rc))
        {
            GrB_Descriptor d = desc_new (rc->mask_struct, rc->mask_comp, rc->replace,
                rc->tran0, !rc->tran1, false) ;
            GXT_OK (GrB_Matrix_dup (&Cref, rc->Ctw)) ;
            mxm_info = GrB_mxm (Cref, mask_twin (rc), rc->accum, rc->s, rc->Atw, rc->Btw, d) ;
            desc_free (&d) ;
        }
    }
    bool either ;
    GrB_Info expect = expected_info (rc, &Ad, &Bd, mxm_info, &either) ;

    // the call
    GXT_OK (GxB_Distance_set_exact_union (rc->exact)) ;
    GrB_Info info = GxB_mxm_distance (rc->C, rc->M, rc->accum, rc->s_arg, rc->A, rc->B, rc->desc) ;
    char msg [600] ;
    snprintf (msg, sizeof (msg), "%s", gxt_message ()) ;
    if (info == GrB_SUCCESS) ra_stat.ok++ ; else ra_stat.err++ ;

    bool ok = (info == expect) || (either && (info == GrB_SUCCESS || info == GrB_INVALID_VALUE)) ;
    if (!ok)
    {
        ra_fail (rc, "info", "returned %s, expected %s%s; message \"%s\"", gxt_info_name (info),
            gxt_info_name (expect), either ? " (GrB_SUCCESS and GrB_INVALID_VALUE both allowed)" : "", msg) ;
    }
    if (info != GrB_SUCCESS && msg [0] == '\0')
    {
        ra_fail (rc, "message", "returned %s with an empty GxB_Distance_error", gxt_info_name (info)) ;
    }
    check_inputs (rc) ;
    bool c_input = (rc->C == rc->A || rc->C == rc->B || rc->C == rc->M) ;
    if (info != GrB_SUCCESS && real_matrix (rc, rc->C) && !c_input)
    {
        check_same (rc, rc->C, rc->Ctw, "C kept", "C changed by a call that failed", NULL, NULL) ;
    }
    if (info == GrB_SUCCESS && ok && valued)
    {
        if (is_intersection (rc)) check_intersection (rc, Cref) ;
        else check_product (rc, &Ad, &Bd, either) ;
        if (!rc->has_mask && rc->mask_comp)
        {
            // GrB_mxm's rule: the complement of no mask selects nothing: C
            // unchanged, or cleared by GrB_REPLACE
            GrB_Index nvals ;
            GXT_OK (GrB_Matrix_nvals (&nvals, rc->C)) ;
            if (rc->replace && nvals != 0)
                ra_fail (rc, "NULL comp", "complemented NULL Mask with GrB_REPLACE: C has %"
                    PRIu64 " entries, expected none", nvals) ;
            if (!rc->replace)
                check_same (rc, rc->C, rc->Ctw, "NULL comp", "complemented NULL Mask: C "
                    "changed (nothing may be written)", NULL, NULL) ;
        }
    }
    GXT_OK (GxB_Distance_set_exact_union (false)) ;
    GrB_Matrix_free (&Cref) ;
    ra_dense_free (&Ad) ;
    ra_dense_free (&Bd) ;
}
