// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// tests/test_alloc_failures.c: every allocation of a call fails in turn
//------------------------------------------------------------------------------

// SuiteSparse's malloc debug and LAGraph's brutal malloc, for gxbdist: the
// program starts GraphBLAS with GxB_init and gxbdist with
// GxB_Distance_init_memory, both on a counting allocator, so every block of
// either library comes from it.  For each representative call, allocation
// 1, 2, 3, ... is made to fail (and every one after it), until the call
// succeeds.  Each failed call must return GrB_OUT_OF_MEMORY with a message,
// leave no block behind, leave A, B and Mask bit for bit as they were, and
// leave C valid and unchanged; the call that finally succeeds must give
// what an undisturbed call gives.

#include "test_common.h"
#include <stdatomic.h>

//------------------------------------------------------------------------------
// the counting allocator
//------------------------------------------------------------------------------

static atomic_llong live = 0 ;          // blocks allocated and not freed
static atomic_llong countdown = 0 ;     // > 0: allocations until failure
static atomic_bool armed = false ;

static bool fails (void)
{
    if (!atomic_load (&armed)) return false ;
    return atomic_fetch_sub (&countdown, 1) <= 1 ;
}

static void *t_malloc (size_t n)
{
    if (fails ()) return NULL ;
    void *p = malloc (n) ;
    if (p != NULL) atomic_fetch_add (&live, 1) ;
    return p ;
}

static void *t_calloc (size_t n, size_t s)
{
    if (fails ()) return NULL ;
    void *p = calloc (n, s) ;
    if (p != NULL) atomic_fetch_add (&live, 1) ;
    return p ;
}

static void *t_realloc (void *p, size_t n)
{
    if (fails ()) return NULL ;
    void *q = realloc (p, n) ;
    if (q != NULL && p == NULL) atomic_fetch_add (&live, 1) ;
    return q ;
}

static void t_free (void *p)
{
    if (p != NULL) atomic_fetch_sub (&live, 1) ;
    free (p) ;
}

static void arm (int64_t n) { atomic_store (&countdown, n) ; atomic_store (&armed, true) ; }
static void disarm (void) { atomic_store (&armed, false) ; }

static int64_t total_failures = 0, total_cases = 0 ;

//------------------------------------------------------------------------------
// one representative call
//------------------------------------------------------------------------------

typedef struct
{
    const char *what ;
    GrB_Matrix C, Mask, A, B ;
    GrB_BinaryOp accum ;
    GrB_Semiring s ;
    GrB_Descriptor desc ;
    bool verify ;
    uint64_t k ;        // > 0: GxB_kNN with this k
    double eps ;        // > 0: GxB_radius_graph within eps
}
gxt_call ;

static GrB_Info call (const gxt_call *c)
{
    if (c->k > 0) return GxB_kNN (c->C, c->Mask, c->s, c->k, c->A, c->B, c->desc) ;
    if (c->eps > 0) return GxB_radius_graph (c->C, c->Mask, c->s, c->eps, c->A, c->B, c->desc) ;
    return GxB_mxm_distance (c->C, c->Mask, c->accum, c->s, c->A, c->B, c->desc) ;
}

// the function a failed call's message may name (and no other)
static const char *call_name (const gxt_call *c)
{
    return (c->k > 0) ? "GxB_kNN" : (c->eps > 0) ? "GxB_radius_graph"
        : "GxB_mxm_distance" ;
}

// fail allocation 1, 2, ... until the call succeeds; then compare the
// result with an undisturbed call on a copy of the original C
static void brutal (gxt_call *c)
{
    GrB_Matrix C0 = NULL, R = NULL ;
    GXT_OK (GrB_Matrix_dup (&C0, c->C)) ;
    GXT_OK (GrB_Matrix_dup (&R, c->C)) ;
    GXT_OK (GxB_Distance_set_verify (c->verify)) ;
    gxt_call ref = *c ;
    ref.C = R ;
    GXT_OK (call (&ref)) ;              // also makes lazy allocations happen
    int64_t n = 1 ;
    for ( ; n < 100000 ; n++)
    {
        gxt_snapshot sa = gxt_snap (c->A), sb = gxt_snap (c->B), sc = gxt_snap (c->C) ;
        gxt_snapshot sm = (c->Mask != NULL) ? gxt_snap (c->Mask) : NULL ;
        long long before = atomic_load (&live) ;
        arm (n) ;
        GrB_Info info = call (c) ;
        disarm () ;
        long long after = atomic_load (&live) ;
        gxt_snap_check (&sa, c->A, "A") ;
        gxt_snap_check (&sb, c->B, "B") ;
        if (sm != NULL) gxt_snap_check (&sm, c->Mask, "Mask") ;
        if (info == GrB_SUCCESS)
        {
            gxt_snapshot_free (&sc) ;
            break ;
        }
        total_failures++ ;
        if (info != GrB_OUT_OF_MEMORY)
        {
            GXT_FAIL ("%s: allocation %lld failed: %s (%d), expected "
                "GrB_OUT_OF_MEMORY; message: %s", c->what, (long long) n,
                gxt_info_name (info), (int) info, gxt_message ()) ;
        }
        if (gxt_message () [0] == '\0')
        {
            GXT_FAIL ("%s: allocation %lld failed: no message", c->what, (long long) n) ;
        }
        const char *fns [3] = { "GxB_mxm_distance", "GxB_kNN", "GxB_radius_graph" } ;
        for (int q = 0 ; q < 3 ; q++)
        {
            if (strcmp (fns [q], call_name (c)) != 0 && strstr (gxt_message (), fns [q]))
            {
                GXT_FAIL ("%s: allocation %lld failed: the message names %s, "
                    "not %s: %s", c->what, (long long) n, fns [q],
                    call_name (c), gxt_message ()) ;
            }
        }
        if (after != before)
        {
            GXT_FAIL ("%s: allocation %lld failed: %lld blocks leaked",
                c->what, (long long) n, after - before) ;
        }
        if (GxB_Matrix_fprint (c->C, "C", GxB_SILENT, NULL) != GrB_SUCCESS)
        {
            GXT_FAIL ("%s: allocation %lld failed: C is not valid", c->what,
                (long long) n) ;
        }
        gxt_snap_check (&sc, c->C, "C after a failed call") ;
    }
    printf ("[ BRUTAL   ] %-44s %5lld allocations failed in turn\n", c->what,
        (long long) n - 1) ;
    if (n == 1) GXT_FAIL ("%s: the call allocates nothing?", c->what) ;
    gxt_check_same (c->C, R, 0, 0, c->what) ;
    GXT_OK (GxB_Distance_set_verify (false)) ;
    total_cases++ ;
    GrB_Matrix_free (&C0) ;
    GrB_Matrix_free (&R) ;
}

//------------------------------------------------------------------------------
// the paths
//------------------------------------------------------------------------------

static GrB_Matrix A, B, Mask ;

static void user_absdiff (void *z, const void *x, const void *y)
{
    *(double *) z = fabs (*(const double *) x - *(const double *) y) ;
}

static int setup (void **state)
{
    gxt_reseed ("alloc_failures") ;
    // no free pool: every block GraphBLAS frees goes back to t_free, and
    // every block it needs comes from t_malloc, where it can fail
    int64_t pool [64] = { 0 } ;
    GXT_OK (GxB_Global_Option_set (GxB_MEMORY_POOL, pool)) ;
    gxt_spec sa = { .m = 12, .k = 20, .density = 0.3, .empty_frac = 0.1,
        .dense_row = -1, .values = GXT_NONNEG_VALUES } ;
    gxt_spec sb = sa ;
    sb.m = 9 ;
    gxt_random (&A, &sa) ;
    gxt_random (&B, &sb) ;
    gxt_mask (&Mask, 12, 9, 0.3) ;
    return 0 ;
}

static int teardown (void **state)
{
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&Mask) ;
    printf ("[ BRUTAL   ] %lld calls, %lld injected failures\n",
        (long long) total_cases, (long long) total_failures) ;
    return 0 ;
}

// a C of the given type: empty, or full (every entry -7: a reused full C)
static GrB_Matrix output (GrB_Type type, bool full)
{
    GrB_Matrix C ;
    GXT_OK (GrB_Matrix_new (&C, type, 12, 9)) ;
    if (full)
    {
        GXT_OK (GrB_Matrix_assign_FP64 (C, NULL, NULL, -7, GrB_ALL, 12,
            GrB_ALL, 9, NULL)) ;
        GXT_OK (GrB_Matrix_wait (C, GrB_MATERIALIZE)) ;
    }
    return C ;
}

static void metrics (void **state)
{
    GXT_START () ;
    gxt_call c [] =
    {
        { "Manhattan FP64, new C", output (GrB_FP64, false), NULL, A, B,
            NULL, GxB_DIST_MANHATTAN_FP64, NULL, false, 0, 0 },
        { "cosine FP32, full C of its type", output (GrB_FP32, true), NULL,
            A, B, NULL, GxB_DIST_COSINE_FP32, NULL, false, 0, 0 },
        { "Euclidean FP64, full C, typecast", output (GrB_FP32, true), NULL,
            A, B, NULL, GxB_DIST_EUCLIDEAN_FP64, NULL, false, 0, 0 },
        { "Jensen-Shannon, masked (sampled)", output (GrB_FP64, true), Mask,
            A, B, NULL, GxB_DIST_JENSEN_SHANNON_FP64, GrB_DESC_S, false, 0, 0 },
        { "Chebyshev, GrB_DESC_RSC", output (GrB_FP64, true), Mask, A, B,
            NULL, GxB_DIST_CHEBYSHEV_FP64, GrB_DESC_RSC, false, 0, 0 },
        { "Canberra, accum PLUS", output (GrB_FP64, true), NULL, A, B,
            GrB_PLUS_FP64, GxB_DIST_CANBERRA_FP64, NULL, false, 0, 0 },
        { "Manhattan, verify mode", output (GrB_FP64, false), NULL, A, B,
            NULL, GxB_DIST_MANHATTAN_FP64, NULL, true, 0, 0 },
        { "Jensen-Shannon, verify mode", output (GrB_FP64, false), NULL, A,
            B, NULL, GxB_DIST_JENSEN_SHANNON_FP64, NULL, true, 0, 0 },
        { "Chebyshev, verify mode (rows)", output (GrB_FP64, false), NULL, A,
            B, NULL, GxB_DIST_CHEBYSHEV_FP64, NULL, true, 0, 0 },
        { "intersection (PLUS_TIMES)", output (GrB_FP64, true), NULL, A, B,
            NULL, GrB_PLUS_TIMES_SEMIRING_FP64, NULL, false, 0, 0 },
    } ;
    for (size_t q = 0 ; q < sizeof (c) / sizeof (c [0]) ; q++)
    {
        brutal (&c [q]) ;
        GrB_Matrix_free (&c [q].C) ;
    }
}

// GxB_kNN and GxB_radius_graph, host and backend paths: built-in metrics,
// a mask, the exclude-self mark, a user operator with no C definition,
// verify mode
static void neighborhoods (void **state)
{
    GXT_START () ;
    // PLUS and a user |x-y| made with no C definition (the pointer path)
    GrB_BinaryOp op ;
    GxB_NAMM user ;
    GrB_Semiring su ;
    gxt_user_namm (&op, &user, &su, user_absdiff, GrB_FP64, GrB_PLUS_MONOID_FP64) ;
    GrB_Descriptor ex = gxt_desc (false, false, false, false, false) ;
    GXT_OK (GxB_Desc_set_exclude_self (ex, true)) ;
    gxt_call c [] =
    {
        { "kNN Manhattan, k 3", output (GrB_FP64, false), NULL, A, B, NULL,
            GxB_DIST_MANHATTAN_FP64, NULL, false, 3, 0 },
        { "kNN cosine FP32, full C, self excluded", output (GrB_FP32, true),
            NULL, A, B, NULL, GxB_DIST_COSINE_FP32, ex, false, 2, 0 },
        { "kNN Jensen-Shannon, masked", output (GrB_FP64, false), Mask, A, B,
            NULL, GxB_DIST_JENSEN_SHANNON_FP64, GrB_DESC_S, false, 2, 0 },
        { "kNN user |x-y| (no definition)", output (GrB_FP64, false), NULL, A,
            B, NULL, su, NULL, false, 3, 0 },
        { "kNN Manhattan, verify mode", output (GrB_FP64, false), NULL, A, B,
            NULL, GxB_DIST_MANHATTAN_FP64, NULL, true, 3, 0 },
        { "radius Euclidean", output (GrB_FP64, false), NULL, A, B, NULL,
            GxB_DIST_EUCLIDEAN_FP64, NULL, false, 0, 2.5 },
        { "radius Chebyshev, verify mode", output (GrB_FP64, false), NULL, A,
            B, NULL, GxB_DIST_CHEBYSHEV_FP64, NULL, true, 0, 1.5 },
    } ;
    for (size_t q = 0 ; q < sizeof (c) / sizeof (c [0]) ; q++)
    {
        brutal (&c [q]) ;
        GrB_Matrix_free (&c [q].C) ;
    }
    GXT_OK (GxB_Desc_set_exclude_self (ex, false)) ;
    GrB_Descriptor_free (&ex) ;
    GrB_Semiring_free (&su) ;
    GxB_NAMM_free (&user) ;
    GrB_BinaryOp_free (&op) ;
}

static void unions (void **state)
{
    GXT_START () ;
    GrB_BinaryOp op ;
    GxB_NAMM user, builtin ;
    GrB_Semiring su, sb ;
    gxt_user_namm (&op, &user, &su, user_absdiff, GrB_FP64, GrB_PLUS_MONOID_FP64) ;
    GXT_OK (GxB_NAMM_new (&builtin, GrB_MINUS_FP64, 0)) ;
    GXT_OK (GxB_Semiring_new_NAMM (&sb, GrB_MAX_MONOID_FP64, builtin)) ;
    gxt_call c [] =
    {
        { "user NAMM (SuiteSparse path)", output (GrB_FP64, true), NULL, A,
            B, NULL, su, NULL, false, 0, 0 },
        { "user NAMM, masked", output (GrB_FP64, false), Mask, A, B, NULL,
            su, GrB_DESC_S, false, 0, 0 },
        { "built-in NAMM MAX.MINUS", output (GrB_FP64, true), NULL, A, B,
            NULL, sb, NULL, false, 0, 0 },
        { "GxB_DESC_UNION PLUS_MINUS", output (GrB_FP64, false), NULL, A, B,
            NULL, GxB_PLUS_MINUS_FP64, GxB_DESC_UNION, false, 0, 0 },
        { "user NAMM, verify mode", output (GrB_FP64, true), NULL, A, B,
            NULL, su, NULL, true, 0, 0 },
        { "built-in NAMM MAX.MINUS, verify mode", output (GrB_FP64, true),
            NULL, A, B, NULL, sb, NULL, true, 0, 0 },
        { "GxB_DESC_UNION PLUS_MINUS, verify mode", output (GrB_FP64, false),
            NULL, A, B, NULL, GxB_PLUS_MINUS_FP64, GxB_DESC_UNION, true, 0, 0 },
    } ;
    for (size_t q = 0 ; q < sizeof (c) / sizeof (c [0]) ; q++)
    {
        brutal (&c [q]) ;
        GrB_Matrix_free (&c [q].C) ;
    }
    GrB_Semiring_free (&su) ; GrB_Semiring_free (&sb) ;
    GxB_NAMM_free (&user) ; GxB_NAMM_free (&builtin) ;
    GrB_BinaryOp_free (&op) ;
}

// object creation: a failure leaves nothing behind and the object NULL
// (each constructor armed alone, so a success is not counted as a leak)

static GxB_NAMM made_namm ;

static GrB_Info make_namm (void **object)
{
    return GxB_NAMM_new ((GxB_NAMM *) object, GrB_MINUS_FP64, 0) ;
}

static GrB_Info make_namm_semiring (void **object)
{
    return GxB_Semiring_new_NAMM ((GrB_Semiring *) object,
        GrB_PLUS_MONOID_FP64, made_namm) ;
}

static GrB_Info make_minkowski (void **object)
{
    return GxB_Semiring_new_minkowski ((GrB_Semiring *) object, 3, GrB_FP64) ;
}

static void brutal_make (GrB_Info (*make) (void **), const char *what,
    bool namm)
{
    int64_t n ;
    for (n = 1 ; n < 10000 ; n++)
    {
        void *object = NULL ;
        long long before = atomic_load (&live) ;
        arm (n) ;
        GrB_Info info = make (&object) ;
        disarm () ;
        long long after = atomic_load (&live) ;
        if (info == GrB_SUCCESS)
        {
            if (namm) GxB_NAMM_free ((GxB_NAMM *) &object) ;
            else GrB_Semiring_free ((GrB_Semiring *) &object) ;
            break ;
        }
        total_failures++ ;
        if (info != GrB_OUT_OF_MEMORY)
        {
            GXT_FAIL ("%s, allocation %lld: %s", what, (long long) n,
                gxt_info_name (info)) ;
        }
        if (object != NULL)
        {
            GXT_FAIL ("%s, allocation %lld: the failed call left an object",
                what, (long long) n) ;
        }
        if (after != before)
        {
            GXT_FAIL ("%s, allocation %lld: %lld blocks leaked", what,
                (long long) n, after - before) ;
        }
    }
    printf ("[ BRUTAL   ] %-44s %5lld allocations failed in turn\n", what,
        (long long) n - 1) ;
}

static void creation (void **state)
{
    GXT_START () ;
    brutal_make (make_namm, "GxB_NAMM_new", true) ;
    GXT_OK (GxB_NAMM_new (&made_namm, GrB_MINUS_FP64, 0)) ;
    brutal_make (make_namm_semiring, "GxB_Semiring_new_NAMM", false) ;
    brutal_make (make_minkowski, "GxB_Semiring_new_minkowski", false) ;
    GxB_NAMM_free (&made_namm) ;
}

int main (void)
{
    gxt_memory_functions = (gxt_memory) { t_malloc, t_calloc, t_realloc, t_free } ;
    gxt_setup = setup ;
    gxt_teardown = teardown ;
    const struct CMUnitTest tests [] =
    {
        cmocka_unit_test (metrics),
        cmocka_unit_test (unions),
        cmocka_unit_test (neighborhoods),
        cmocka_unit_test (creation),
    } ;
    return gxt_main ("alloc_failures", tests, sizeof (tests) / sizeof (tests [0])) ;
}
