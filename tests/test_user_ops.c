// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// tests/test_user_ops.c: a user's own operators at built-in speed
//------------------------------------------------------------------------------

// A user's GrB_BinaryOp made with GxB_BinaryOp_new and its C definition is
// compiled for the CPU backend (graphblas_ext/gxd_jit.c); one without a
// definition, or of non-floating types, is evaluated in bulk by GraphBLAS
// (gxd_union_graphblas.c).  Both are checked against the reference's dense
// completion (GXO_union) on every example of docs/user-operators.md: |x-y|,
// (x-y)^2, a clipped difference min(|x-y|, 1), |x-y|^3, a tropical
// min-plus, max |x-y| under MAX, and a (+) monoid that is itself a user
// operator; FP32 and FP64; integers past 2^53 exactly.  Also: a definition
// that does not compile, the disk cache (hit, miss, corrupt and stale
// entries, two processes compiling the same operator at once), masks, kNN,
// and on a GPU the kernels NVRTC compiles (run with GXBDIST_BACKEND=gpu,
// every test here runs there, the cache's own on the CPU).  Tolerance: rtol 1e-5 (FP32) / 1e-12 (FP64)
// relative to max (|ref|, 1): the values are of order 1, and the compiled
// path rewrites sums of |x-y| as the built-in metrics do (intersection and
// row terms, cancellation guarded), so a result may carry rounding of the
// size of its terms.

#include "test_common.h"
#include "gxd_test_hooks.h"
#include <dirent.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ ;

//------------------------------------------------------------------------------
// the operators: each a C function and its definition, FP32 and FP64
//------------------------------------------------------------------------------

#define OPS(X)                                                               \
    X (absdiff, (void) 0 ; (*z) = fabs ((*x) - (*y)) ;)                                 \
    X (sqdiff,  T d = (*x) - (*y) ; (*z) = d * d ;)                          \
    X (clipped, T d = fabs ((*x) - (*y)) ; (*z) = (d < 1) ? d : 1 ;)         \
    X (cube,    T d = fabs ((*x) - (*y)) ; (*z) = d * d * d ;)               \
    X (plus,    (*z) = (*x) + (*y) ;)                                       \
    X (minus,   (*z) = (*x) - (*y) ;)                                       \
    X (nanifeq, (*z) = ((*x) == (*y)) ? (T) NAN : (T) fabs ((*x) - (*y)) ;) \
    X (nanbig, (*z) = ((*x) * (*y) > 4) ? (T) NAN : (*x) - (*y) ;) \
    X (spike,  (*z) = (fabs ((*x) - (*y)) < 0.1) ? (T) 1e5 : (*x) - (*y) ;)

#define DEFINE(name, ...)                                                    \
    static void name ## _FP64 (void *zv, const void *xv, const void *yv)     \
    { typedef double T ; T *z = zv ; const T *x = xv, *y = yv ; __VA_ARGS__ } \
    static void name ## _FP32 (void *zv, const void *xv, const void *yv)     \
    { typedef float T ; T *z = zv ; const T *x = xv, *y = yv ; __VA_ARGS__ }
OPS (DEFINE)

// |f|: each term's magnitude, the scale of a PLUS sum's tolerance
#define DEFINE_ABS(name, ...)                                                \
    static void name ## _abs_FP64 (void *z, const void *x, const void *y)    \
    { name ## _FP64 (z, x, y) ; *(double *) z = fabs (*(double *) z) ; }      \
    static void name ## _abs_FP32 (void *z, const void *x, const void *y)    \
    { name ## _FP32 (z, x, y) ; *(float *) z = fabsf (*(float *) z) ; }
OPS (DEFINE_ABS)

typedef struct
{
    const char *name, *body ;
    GxB_binary_function f32, f64 ;
    GxB_binary_function abs32, abs64 ;     // |f|
}
user_op ;

#define ENTRY(name, ...) { #name, #__VA_ARGS__, name ## _FP32, name ## _FP64, \
    name ## _abs_FP32, name ## _abs_FP64 },
static const user_op user_ops [ ] = { OPS (ENTRY) } ;
#define NOPS ((int) (sizeof (user_ops) / sizeof (user_ops [0])))

static const user_op *op_named (const char *name)
{
    for (int q = 0 ; q < NOPS ; q++)
        if (strcmp (user_ops [q].name, name) == 0) return &user_ops [q] ;
    fail_msg ("no operator %s", name) ;
    return NULL ;
}

// op of `type`, with its C definition (defn) or without; tag makes the
// function's name unique, so two tests never share a cached module
static GrB_BinaryOp make_op (const user_op *u, GrB_Type type, bool defn,
    const char *tag)
{
    bool f64 = (type == GrB_FP64) ;
    const char *c = f64 ? "double" : "float" ;
    char name [128], text [1024] ;
    snprintf (name, sizeof (name), "%s_%s%s", u->name, f64 ? "FP64" : "FP32", tag) ;
    snprintf (text, sizeof (text), "void %s (%s *z, const %s *x, const %s *y)\n"
        "{\n    typedef %s T ;\n    %s\n}", name, c, c, c, c, u->body) ;
    GrB_BinaryOp op = NULL ;
    GXT_OK (GxB_BinaryOp_new (&op, f64 ? u->f64 : u->f32, type, type, type,
        name, defn ? text : NULL)) ;
    return op ;
}

static GrB_Monoid monoid (const char *name, GrB_Type type)
{
    bool f64 = (type == GrB_FP64) ;
    if (strcmp (name, "PLUS") == 0) return f64 ? GrB_PLUS_MONOID_FP64 : GrB_PLUS_MONOID_FP32 ;
    if (strcmp (name, "MIN") == 0) return f64 ? GrB_MIN_MONOID_FP64 : GrB_MIN_MONOID_FP32 ;
    return f64 ? GrB_MAX_MONOID_FP64 : GrB_MAX_MONOID_FP32 ;
}

//------------------------------------------------------------------------------
// checks
//------------------------------------------------------------------------------

// C = the union product (full) against GXO_union within rtol max (|ref|, 1),
// or, given |f| (absf) for a PLUS monoid, within rtol max (|ref|, the sum
// of |f| over the pair's terms): the FP32 reference adds FP32 terms in
// FP32, whose rounding grows with that sum, not with |ref|
static void check_union (GrB_Matrix C, GrB_Monoid add, GrB_BinaryOp op,
    GxB_binary_function absf, double identity, GrB_Type type, GrB_Matrix A,
    GrB_Matrix B, double rtol, const char *what)
{
    GrB_Matrix D = NULL, S = NULL ;
    GXT_OK (GXO_union (&D, add, op, identity, A, B)) ;
    if (absf == NULL) gxt_check_same (C, D, rtol, 1, what) ;
    else
    {
        GrB_BinaryOp absop = NULL ;
        GXT_OK (GrB_BinaryOp_new (&absop, absf, type, type, type)) ;
        GXT_OK (GXO_union (&S, add, absop, identity, A, B)) ;
        gxt_check_scaled (C, D, rtol, S, what) ;
        GrB_BinaryOp_free (&absop) ;
        GrB_Matrix_free (&S) ;
    }
    GrB_Matrix_free (&D) ;
}

// a fresh folder for the disk cache, used from here on by this process
static char cache [256] ;
static void fresh_cache (void)
{
    snprintf (cache, sizeof (cache), "/tmp/gxd_test_jit_XXXXXX") ;
    assert_non_null (mkdtemp (cache)) ;
    setenv ("GXBDIST_CACHE_DIR", cache, 1) ;
    GXD_jit_clear ( ) ;
}

// how many files of the cache end with suffix
static int cache_files (const char *suffix)
{
    DIR *d = opendir (cache) ;
    assert_non_null (d) ;
    int count = 0 ;
    struct dirent *e ;
    size_t ls = strlen (suffix) ;
    while ((e = readdir (d)) != NULL)
    {
        size_t l = strlen (e->d_name) ;
        count += (l > ls && strcmp (e->d_name + l - ls, suffix) == 0) ;
    }
    closedir (d) ;
    return count ;
}

static void remove_cache (void)
{
    DIR *d = opendir (cache) ;
    if (d == NULL) return ;
    struct dirent *e ;
    char path [512] ;
    while ((e = readdir (d)) != NULL)
    {
        if (e->d_name [0] == '.') continue ;
        snprintf (path, sizeof (path), "%s/%s", cache, e->d_name) ;
        unlink (path) ;
    }
    closedir (d) ;
    rmdir (cache) ;
}

static int on_gpu (void)
{
    GxB_Backend b ;
    GXT_OK (GxB_Distance_active_backend (&b)) ;
    return b == GxB_BACKEND_GPU ;
}

static int64_t compiles (void)
{
    int64_t c, h ;
    GXD_jit_stats (&c, &h) ;
    return c ;
}

static int64_t disk_hits (void)
{
    int64_t c, h ;
    GXD_jit_stats (&c, &h) ;
    return h ;
}

// the GPU's linked modules so far (once its whole programs are compiled)
static int64_t gpu_linked (void)
{
    int64_t linked, swaps ;
    GXD_jit_gpu_tiers (&linked, &swaps) ;
    return linked ;
}

// the most entries a row of H holds
static GrB_Index max_degree (GrB_Matrix H)
{
    GrB_Index m, k ;
    GXT_OK (GrB_Matrix_nrows (&m, H)) ;
    GXT_OK (GrB_Matrix_ncols (&k, H)) ;
    GrB_Matrix P ;
    GrB_Vector d ;
    GXT_OK (GrB_Matrix_new (&P, GrB_INT64, m, k)) ;
    GXT_OK (GrB_Matrix_apply (P, NULL, NULL, GxB_ONE_INT64, H, NULL)) ;
    GXT_OK (GrB_Vector_new (&d, GrB_INT64, m)) ;
    GXT_OK (GrB_Matrix_reduce_Monoid (d, NULL, NULL, GrB_PLUS_MONOID_INT64, P, NULL)) ;
    int64_t most = 0 ;
    GXT_OK (GrB_Vector_reduce_INT64 (&most, NULL, GrB_MAX_MONOID_INT64, d, NULL)) ;
    GrB_Matrix_free (&P) ;
    GrB_Vector_free (&d) ;
    return (GrB_Index) most ;
}

// C = d(A, B), a new poisoned C, on the backend the environment chose (a
// compiled operator runs on the GPU there, with NVRTC)
static GrB_Info distance (GrB_Matrix *C, GrB_Type type, GrB_Semiring s,
    GrB_Matrix A, GrB_Matrix B)
{
    return gxt_distance (C, type, s, A, B, NULL) ;
}

// run the rest of a test on the CPU backend (the disk cache's tests count
// the CPU's compiles); back to what it was with cpu_end
static GxB_Backend cpu_begin (void)
{
    GxB_Backend was ;
    GXT_OK (GxB_Distance_get_backend (&was)) ;
    GXT_OK (GxB_Distance_set_backend (GxB_BACKEND_CPU)) ;
    return was ;
}

static void cpu_end (GxB_Backend was)
{
    GXT_OK (GxB_Distance_set_backend (was)) ;
}

// run the rest of a test on the GPU backend, or skip it where there is none
// (cpu_end goes back)
static GxB_Backend gpu_begin (void)
{
    GxB_Backend was ;
    GXT_OK (GxB_Distance_get_backend (&was)) ;
    if (GxB_Distance_set_backend (GxB_BACKEND_GPU) != GrB_SUCCESS)
    {
        printf ("[ SKIP     ] no GPU\n") ;
        GXT_OK (GxB_Distance_set_backend (was)) ;
        skip ( ) ;
    }
    return was ;
}

//------------------------------------------------------------------------------
// the examples, compiled and through GraphBLAS
//------------------------------------------------------------------------------

static const gxt_shape shapes [ ] =
{
    GXT_SHAPE_RANDOM, GXT_SHAPE_EMPTY_ROWS, GXT_SHAPE_POWERLAW, GXT_SHAPE_WIDE,
    GXT_SHAPE_EXPLICIT_ZEROS, GXT_SHAPE_K1, GXT_SHAPE_M0, GXT_SHAPE_N1,
} ;
#define NSHAPES ((int) (sizeof (shapes) / sizeof (shapes [0])))

// C = A s B' with s = op under the monoid addname, identity e, of type
// type, checked against the oracle's union (PLUS: within rtol of each pair's
// sum of |f|); A and B must come back as they were
static void check_pair (const char *opname, const char *addname, double e,
    GrB_Type type, GrB_BinaryOp op, GrB_Semiring s, GrB_Matrix A,
    GrB_Matrix B, const char *what)
{
    GrB_Matrix C = NULL ;
    gxt_snapshot sa = gxt_snap (A), sb = gxt_snap (B) ;
    GXT_OK (distance (&C, type, s, A, B)) ;
    const user_op *u = op_named (opname) ;
    GxB_binary_function absf = (strcmp (addname, "PLUS") != 0) ? NULL
        : (type == GrB_FP64) ? u->abs64 : u->abs32 ;
    check_union (C, monoid (addname, type), op, absf, e, type, A, B,
        gxt_rtol (type), what) ;
    gxt_snap_check (&sa, A, "A") ;
    gxt_snap_check (&sb, B, "B") ;
    GrB_Matrix_free (&C) ;
}

// (x) = op under the monoid addname, identity e, compiled and not
static void run_example (const char *opname, const char *addname, double e)
{
    static int serial = 0 ;
    char tag [32] ;
    snprintf (tag, sizeof (tag), "_%d", serial++) ;
    GrB_Type types [2] = { GrB_FP32, GrB_FP64 } ;
    for (int tq = 0 ; tq < 2 ; tq++)
    {
        GrB_Type type = types [tq] ;
        GrB_Monoid add = monoid (addname, type) ;
        for (int defn = 1 ; defn >= 0 ; defn--)
        {
            GrB_BinaryOp op = make_op (op_named (opname), type, defn, tag) ;
            GxB_NAMM namm = NULL ;
            GrB_Semiring s = NULL ;
            GXT_OK (GxB_NAMM_new (&namm, op, e)) ;
            GXT_OK (GxB_Semiring_new_NAMM (&s, add, namm)) ;
            int64_t before = compiles ( ) + disk_hits ( ) ;
            const int64_t linked_before = gpu_linked ( ) ;
            // the GPU's MAX and MIN programs: one where f(e,e) is counted
            // (two rows may hold every column together), one where it is
            // not, as the shapes take them
            const bool select = strcmp (addname, "MAX") == 0
                || strcmp (addname, "MIN") == 0 ;
            bool counted [2] = { false, false } ;
            for (int q = 0 ; q < NSHAPES ; q++)
            {
                GrB_Matrix A, B ;
                gxt_pair (&A, &B, shapes [q], GXT_MIXED) ;
                GrB_Index k ;
                GXT_OK (GrB_Matrix_ncols (&k, A)) ;
                counted [max_degree (A) + max_degree (B) >= k] = true ;
                char what [160] ;
                snprintf (what, sizeof (what), "%s %s, %s, identity %g, %s, shape %s",
                    opname, gxt_type_name (type), addname, e,
                    defn ? "compiled" : "no definition", gxt_shape_name (shapes [q])) ;
                check_pair (opname, addname, e, type, op, s, A, B, what) ;
                GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ;
            }
            // the definition was compiled (or found on disk) once (and
            // each of its GPU programs once, as a whole program, and as the
            // operator linked with the program's template where it has
            // one), an operator without one never was
            const int programs = select ? counted [0] + counted [1] : 1 ;
            const int64_t expected = defn ? 1 + on_gpu ( ) * programs
                + (gpu_linked ( ) - linked_before) : 0 ;
            int64_t built = compiles ( ) + disk_hits ( ) - before ;
            if (built != expected)
                GXT_FAIL ("%s %s (%s): %ld modules built, expected %ld", opname,
                    gxt_type_name (type), defn ? "compiled" : "no definition",
                    (long) built, (long) expected) ;
            GrB_Semiring_free (&s) ;
            GXT_OK (GxB_NAMM_free (&namm)) ;
            GrB_BinaryOp_free (&op) ;
        }
    }
}

static int setup (void **state) { fresh_cache ( ) ; return 0 ; }
static int teardown (void **state) { GXD_jit_clear ( ) ; remove_cache ( ) ; return 0 ; }

static void absdiff_plus_is_manhattan (void **state)
{
    GXT_START ( ) ;
    run_example ("absdiff", "PLUS", 0) ;
}

static void sqdiff_plus_is_sqeuclidean (void **state)
{
    GXT_START ( ) ;
    run_example ("sqdiff", "PLUS", 0) ;
}

static void clipped_difference_and_cube (void **state)
{
    GXT_START ( ) ;
    run_example ("clipped", "PLUS", 0) ;
    run_example ("cube", "PLUS", 0) ;
}

static void absdiff_max_is_chebyshev_and_identity_one (void **state)
{
    GXT_START ( ) ;
    run_example ("absdiff", "MAX", 0) ;
    run_example ("absdiff", "PLUS", 1) ;
}

// a term that is not a number on some products only (x y > 4 of values in
// [-4, 4]): those pairs are NaN, the others finite (the GPU's rewrite sums
// the rows that hold such a term in double, the others in fixed point)
static void not_a_number_on_some_products (void **state)
{
    GXT_START ( ) ;
    run_example ("nanbig", "PLUS", 0) ;
}

// terms far larger on a few products (values within 0.1 of each other) than
// anywhere else: the GPU's rewrite guesses its fixed point's scale from f
// at each tile's extreme values and sums again where the terms pass it
static void a_spike_on_near_values (void **state)
{
    GXT_START ( ) ;
    run_example ("spike", "PLUS", 0) ;
}

// rows of more than 2^16 entries, FP32: the GPU's rewrite sums those rows
// in 64 bits (its two split words hold fewer terms an output)
static void rows_of_more_than_65536_entries (void **state)
{
    GXT_START ( ) ;
    gxt_spec sa = { .m = 3, .k = 70000, .density = 0.02, .dense_row = 0,
        .values = GXT_MIXED } ;
    gxt_spec sb = { .m = 5, .k = 70000, .density = 0.02, .dense_row = 3,
        .values = GXT_MIXED } ;
    GrB_Matrix A, B ;
    gxt_random (&A, &sa) ;
    gxt_random (&B, &sb) ;
    GrB_Type type = GrB_FP32 ;
    GrB_BinaryOp op = make_op (op_named ("absdiff"), type, true, "_long") ;
    GxB_NAMM namm = NULL ;
    GrB_Semiring s = NULL ;
    GXT_OK (GxB_NAMM_new (&namm, op, 0)) ;
    GXT_OK (GxB_Semiring_new_NAMM (&s, monoid ("PLUS", type), namm)) ;
    check_pair ("absdiff", "PLUS", 0, type, op, s, A, B,
        "absdiff FP32, PLUS, rows of 70,000 entries") ;
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ;
    GrB_Semiring_free (&s) ;
    GXT_OK (GxB_NAMM_free (&namm)) ;
    GrB_BinaryOp_free (&op) ;
}

// min over the union of x + y: the tropical (min, +) product
static void tropical_min_plus (void **state)
{
    GXT_START ( ) ;
    run_example ("plus", "MIN", 0) ;
    run_example ("plus", "MIN", 2.5) ;
}

// the monoid's operator is a user's operator too (compiled: no built-in
// opcode), with (x) = |x-y|; results as with GrB_PLUS_MONOID
static void a_user_monoid_is_compiled (void **state)
{
    GXT_START ( ) ;
    GrB_Type types [2] = { GrB_FP32, GrB_FP64 } ;
    for (int tq = 0 ; tq < 2 ; tq++)
    {
        GrB_Type type = types [tq] ;
        for (int defn = 1 ; defn >= 0 ; defn--)
        {
            GrB_BinaryOp plus = make_op (op_named ("plus"), type, defn, "_monoid") ;
            GrB_BinaryOp op = make_op (op_named ("absdiff"), type, true, "_m") ;
            GrB_Monoid add = NULL ;
            if (type == GrB_FP64) GXT_OK (GrB_Monoid_new_FP64 (&add, plus, 0.0)) ;
            else GXT_OK (GrB_Monoid_new_FP32 (&add, plus, 0.0f)) ;
            GxB_NAMM namm = NULL ;
            GrB_Semiring s = NULL ;
            GXT_OK (GxB_NAMM_new (&namm, op, 0)) ;
            GXT_OK (GxB_Semiring_new_NAMM (&s, add, namm)) ;
            for (int q = 0 ; q < NSHAPES ; q++)
            {
                GrB_Matrix A, B, C = NULL ;
                gxt_pair (&A, &B, shapes [q], GXT_MIXED) ;
                GXT_OK (distance (&C, type, s, A, B)) ;
                char what [160] ;
                snprintf (what, sizeof (what), "user monoid (%s) over |x-y| %s, shape %s",
                    defn ? "compiled" : "no definition", gxt_type_name (type),
                    gxt_shape_name (shapes [q])) ;
                check_union (C, add, op, NULL, 0, type, A, B, gxt_rtol (type), what) ;
                GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&C) ;
            }
            GrB_Semiring_free (&s) ;
            GXT_OK (GxB_NAMM_free (&namm)) ;
            GrB_Monoid_free (&add) ;
            GrB_BinaryOp_free (&plus) ;
            GrB_BinaryOp_free (&op) ;
        }
    }
}

//------------------------------------------------------------------------------
// integers: exact in their own type
//------------------------------------------------------------------------------

static void minus_INT64 (void *z, const void *x, const void *y)
{ *(int64_t *) z = *(const int64_t *) x - *(const int64_t *) y ; }
static void minus_UINT8 (void *z, const void *x, const void *y)
{ *(uint8_t *) z = (uint8_t) (*(const uint8_t *) x - *(const uint8_t *) y) ; }

// INT64 past 2^53 and UINT8 sums that wrap, with and without definitions
static void integer_operators_are_exact (void **state)
{
    GXT_START ( ) ;
    // rows of 2^53 + small integers: a double holds none of them exactly
    const int64_t big = INT64_C (1) << 53 ;
    GrB_Matrix A = NULL ;
    GXT_OK (GrB_Matrix_new (&A, GrB_INT64, 6, 9)) ;
    for (int i = 0 ; i < 6 ; i++)
        for (int c = 0 ; c < 9 ; c++)
            if (gxt_uniform ( ) < 0.6)
                GXT_OK (GrB_Matrix_setElement_INT64 (A, big + gxt_int (1, 7), i, c)) ;
    for (int defn = 0 ; defn <= 1 ; defn++)
    {
        GrB_BinaryOp op = NULL ;
        GXT_OK (GxB_BinaryOp_new (&op, minus_INT64, GrB_INT64, GrB_INT64,
            GrB_INT64, "minus_INT64", defn ? "void minus_INT64 (int64_t *z, "
            "const int64_t *x, const int64_t *y) { (*z) = (*x) - (*y) ; }" : NULL)) ;
        GxB_NAMM namm = NULL ;
        GrB_Semiring s = NULL ;
        GXT_OK (GxB_NAMM_new (&namm, op, 0)) ;
        GXT_OK (GxB_Semiring_new_NAMM (&s, GrB_PLUS_MONOID_INT64, namm)) ;
        GrB_Matrix C = NULL, D = NULL ;
        GXT_OK (distance (&C, GrB_INT64, s, A, A)) ;
        GXT_OK (GXO_union (&D, GrB_PLUS_MONOID_INT64, op, 0, A, A)) ;
        gxt_check_bitwise (C, D, "INT64 x - y past 2^53") ;
        // and one pair by hand: sum (x_c - y_c) over the union, exact
        int64_t got, want = 0 ;
        GXT_OK (GrB_Matrix_extractElement_INT64 (&got, C, 0, 1)) ;
        for (int c = 0 ; c < 9 ; c++)
        {
            int64_t x = 0, y = 0 ;
            GrB_Info ix = GrB_Matrix_extractElement_INT64 (&x, A, 0, c) ;
            GrB_Info iy = GrB_Matrix_extractElement_INT64 (&y, A, 1, c) ;
            if (ix == GrB_NO_VALUE) x = 0 ;
            if (iy == GrB_NO_VALUE) y = 0 ;
            want += x - y ;
        }
        assert_int_equal (got, want) ;
        GrB_Matrix_free (&C) ; GrB_Matrix_free (&D) ;
        GrB_Semiring_free (&s) ;
        GXT_OK (GxB_NAMM_free (&namm)) ;
        GrB_BinaryOp_free (&op) ;
    }
    GrB_Matrix_free (&A) ;
    // UINT8: sums wrap around as GraphBLAS's do
    GrB_Matrix X, Y ;
    gxt_pair (&X, &Y, GXT_SHAPE_DENSE, GXT_NATURALS) ;
    GrB_Matrix X8 = NULL, Y8 = NULL ;
    gxt_convert (&X8, X, GXT_FMT_SPARSE, GrB_UINT8) ;
    gxt_convert (&Y8, Y, GXT_FMT_SPARSE, GrB_UINT8) ;
    GrB_BinaryOp op8 = NULL ;
    GXT_OK (GxB_BinaryOp_new (&op8, minus_UINT8, GrB_UINT8, GrB_UINT8, GrB_UINT8,
        "minus_UINT8", NULL)) ;
    GxB_NAMM namm8 = NULL ;
    GrB_Semiring s8 = NULL ;
    GXT_OK (GxB_NAMM_new (&namm8, op8, 3)) ;
    GXT_OK (GxB_Semiring_new_NAMM (&s8, GrB_PLUS_MONOID_UINT8, namm8)) ;
    GrB_Matrix C8 = NULL, D8 = NULL ;
    GXT_OK (distance (&C8, GrB_UINT8, s8, X8, Y8)) ;
    GXT_OK (GXO_union (&D8, GrB_PLUS_MONOID_UINT8, op8, 3, X8, Y8)) ;
    gxt_check_bitwise (C8, D8, "UINT8 x - y, identity 3") ;
    GrB_Matrix_free (&C8) ; GrB_Matrix_free (&D8) ;
    GrB_Matrix_free (&X8) ; GrB_Matrix_free (&Y8) ;
    GrB_Matrix_free (&X) ; GrB_Matrix_free (&Y) ;
    GrB_Semiring_free (&s8) ;
    GXT_OK (GxB_NAMM_free (&namm8)) ;
    GrB_BinaryOp_free (&op8) ;
}

//------------------------------------------------------------------------------
// MIN and MAX without a definition: the terms path (gxd_union_max.c)
//------------------------------------------------------------------------------

// x - y in each type (wrapping for the unsigned ones, as C computes it)
#define MINUS(T, NAME) static void minus_ ## NAME (void *z, const void *x,  \
    const void *y) { *(T *) z = (T) (*(const T *) x - *(const T *) y) ; }
MINUS (int8_t, I8) MINUS (int32_t, I32) MINUS (uint16_t, U16)
MINUS (uint64_t, U64) MINUS (float, F32) MINUS (double, F64)

// NaN where x equals y (f(e,e) among them), else |x - y|: NaN terms are
// omitted by MIN and MAX, a pair of NaN terms alone gives NaN
static void nan_if_equal (void *z, const void *x, const void *y)
{
    double a = *(const double *) x, b = *(const double *) y ;
    *(double *) z = (a == b) ? NAN : fabs (a - b) ;
}

// C = add over the union of f (no definition: the terms path, whose pair
// count must rise by every pair) bit for bit GXO_union's, on fresh random
// pairs of each shape, the grid of distinct values forced on and off and
// the terms in chunks of 7
static void check_minmax (GxB_binary_function f, GrB_Type type, GrB_Monoid add,
    double e, gxt_values values, const char *what)
{
    const gxt_shape shapes [ ] = { GXT_SHAPE_RANDOM, GXT_SHAPE_EMPTY_ROWS,
        GXT_SHAPE_POWERLAW, GXT_SHAPE_WIDE, GXT_SHAPE_EXPLICIT_ZEROS,
        GXT_SHAPE_DENSE, GXT_SHAPE_DENSE_ROW, GXT_SHAPE_K1, GXT_SHAPE_M1,
        GXT_SHAPE_N1, GXT_SHAPE_M0 } ;
    GrB_BinaryOp op = NULL ;
    GxB_NAMM namm = NULL ;
    GrB_Semiring s = NULL ;
    GXT_OK (GxB_BinaryOp_new (&op, f, type, type, type, "minmax_op", NULL)) ;
    GXT_OK (GxB_NAMM_new (&namm, op, e)) ;
    GXT_OK (GxB_Semiring_new_NAMM (&s, add, namm)) ;
    const int grids [3] = { 1, -1, 0 } ;
    for (int q = 0 ; q < (int) (sizeof (shapes) / sizeof (shapes [0])) ; q++)
    {
        for (int g = 0 ; g < 3 ; g++)
        {
            GXD_union_plus_set_grid (grids [g]) ;
            GXD_union_plus_set_block (0, (g == 2) ? 7 : 0) ;
            GrB_Matrix A0, B0, A = NULL, B = NULL, C = NULL, D = NULL ;
            gxt_pair (&A0, &B0, shapes [q], values) ;
            gxt_convert (&A, A0, GXT_FMT_SPARSE, type) ;
            gxt_convert (&B, B0, GXT_FMT_SPARSE, type) ;
            GrB_Index m, n ;
            GXT_OK (GrB_Matrix_nrows (&m, A)) ;
            GXT_OK (GrB_Matrix_nrows (&n, B)) ;
            int64_t before = GXD_union_max_stats ( ) ;
            GXT_OK (distance (&C, type, s, A, B)) ;
            GXT_OK (GXO_union (&D, add, op, e, A, B)) ;
            char ctx [160] ;
            snprintf (ctx, sizeof (ctx), "%s, identity %g, shape %s, grid %d",
                what, e, gxt_shape_name (shapes [q]), grids [g]) ;
            gxt_check_same (C, D, 0, 1, ctx) ;
            int64_t ran = GXD_union_max_stats ( ) - before ;
            if (m > 0 && n > 0 && ran != (int64_t) (m * n))
                GXT_FAIL ("%s: %ld pairs by the terms path, expected %lu", ctx,
                    (long) ran, (unsigned long) (m * n)) ;
            GrB_Matrix_free (&A0) ; GrB_Matrix_free (&B0) ;
            GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ;
            GrB_Matrix_free (&C) ; GrB_Matrix_free (&D) ;
        }
    }
    GXD_union_plus_set_grid (0) ;
    GXD_union_plus_set_block (0, 0) ;
    GrB_Semiring_free (&s) ;
    GXT_OK (GxB_NAMM_free (&namm)) ;
    GrB_BinaryOp_free (&op) ;
}

static void min_and_max_without_a_definition (void **state)
{
    GXT_START ( ) ;
    GxB_Backend was = cpu_begin ( ) ;
    check_minmax (minus_F64, GrB_FP64, GrB_MAX_MONOID_FP64, 0, GXT_MIXED, "FP64 x-y MAX") ;
    check_minmax (minus_F64, GrB_FP64, GrB_MIN_MONOID_FP64, 1.5, GXT_MIXED, "FP64 x-y MIN") ;
    check_minmax (minus_F32, GrB_FP32, GrB_MAX_MONOID_FP32, -2, GXT_INTEGERS, "FP32 x-y MAX") ;
    check_minmax (minus_F32, GrB_FP32, GrB_MIN_MONOID_FP32, 0, GXT_MIXED, "FP32 x-y MIN") ;
    check_minmax (minus_I8, GrB_INT8, GrB_MAX_MONOID_INT8, 0, GXT_INTEGERS, "INT8 x-y MAX") ;
    check_minmax (minus_I32, GrB_INT32, GrB_MIN_MONOID_INT32, 3, GXT_INTEGERS, "INT32 x-y MIN") ;
    check_minmax (minus_U16, GrB_UINT16, GrB_MAX_MONOID_UINT16, 0, GXT_NATURALS, "UINT16 x-y MAX") ;
    check_minmax (minus_U16, GrB_UINT16, GrB_MIN_MONOID_UINT16, 4, GXT_NATURALS, "UINT16 x-y MIN") ;
    check_minmax (minus_U64, GrB_UINT64, GrB_MAX_MONOID_UINT64, 2, GXT_NATURALS, "UINT64 x-y MAX") ;
    check_minmax (minus_U64, GrB_UINT64, GrB_MIN_MONOID_UINT64, 0, GXT_NATURALS, "UINT64 x-y MIN") ;
    check_minmax (nan_if_equal, GrB_FP64, GrB_MAX_MONOID_FP64, 0, GXT_INTEGERS, "FP64 NaN terms MAX") ;
    check_minmax (nan_if_equal, GrB_FP64, GrB_MIN_MONOID_FP64, 0, GXT_INTEGERS, "FP64 NaN terms MIN") ;
    cpu_end (was) ;
}

// MIN and MAX monoids made by the user with an identity of their choice
// (GrB_Monoid_new (&m, GrB_MAX_FP64, 0)): a pair with no term (k = 0) or
// whose terms are all NaN takes that identity, as GraphBLAS gives it, on
// every path; with (x) = x - y, and NaN where x equals y (|x - y| else)
static void min_and_max_monoids_of_any_identity (void **state)
{
    GXT_START ( ) ;
    const double ids [3] = { 0, 7.5, -INFINITY } ;
    GrB_Type types [2] = { GrB_FP32, GrB_FP64 } ;
    static int serial = 0 ;
    for (int tq = 0 ; tq < 2 ; tq++)
    {
        GrB_Type type = types [tq] ;
        bool f64 = (type == GrB_FP64) ;
        for (int mx = 0 ; mx < 2 ; mx++)
        for (int iq = 0 ; iq < 3 ; iq++)
        for (int defn = 1 ; defn >= 0 ; defn--)
        for (int oq = 0 ; oq < 3 ; oq++)
        {
            if (oq == 2 && !defn) continue ;
            double id = (iq == 2 && !mx) ? INFINITY : ids [iq] ;
            GrB_BinaryOp maxop = mx ? (f64 ? GrB_MAX_FP64 : GrB_MAX_FP32)
                                    : (f64 ? GrB_MIN_FP64 : GrB_MIN_FP32) ;
            GrB_Monoid add = NULL ;
            if (f64) GXT_OK (GrB_Monoid_new_FP64 (&add, maxop, id)) ;
            else GXT_OK (GrB_Monoid_new_FP32 (&add, maxop, (float) id)) ;
            char tag [32] ;
            snprintf (tag, sizeof (tag), "_id%d", serial++) ;
            // x - y as a user's operator and as GraphBLAS's own
            const char *opname = (oq == 1) ? "nanifeq" : (oq ? "built-in minus" : "minus") ;
            GrB_BinaryOp op = (oq == 2) ? (f64 ? GrB_MINUS_FP64 : GrB_MINUS_FP32)
                : make_op (op_named (opname), type, defn, tag) ;
            GxB_NAMM namm = NULL ;
            GrB_Semiring s = NULL ;
            GXT_OK (GxB_NAMM_new (&namm, op, 0)) ;
            GXT_OK (GxB_Semiring_new_NAMM (&s, add, namm)) ;
            for (int q = 0 ; q < 3 ; q++)
            {
                GrB_Matrix A = NULL, B = NULL, C = NULL ;
                if (q == 2)
                {
                    // no column: every pair has no term
                    GXT_OK (GrB_Matrix_new (&A, type, 5, 0)) ;
                    GXT_OK (GrB_Matrix_new (&B, type, 4, 0)) ;
                }
                else
                {
                    GrB_Matrix A0, B0 ;
                    gxt_pair (&A0, &B0, q ? GXT_SHAPE_DENSE : GXT_SHAPE_EMPTY_ROWS,
                        GXT_INTEGERS) ;
                    gxt_convert (&A, A0, GXT_FMT_SPARSE, type) ;
                    gxt_convert (&B, B0, GXT_FMT_SPARSE, type) ;
                    GrB_Matrix_free (&A0) ; GrB_Matrix_free (&B0) ;
                }
                GXT_OK (distance (&C, type, s, A, B)) ;
                char what [160] ;
                snprintf (what, sizeof (what), "%s %s %s identity %g, %s, %s",
                    opname, gxt_type_name (type), mx ? "MAX" : "MIN", id,
                    defn ? "compiled" : "no definition",
                    q == 2 ? "k = 0" : (q ? "dense" : "empty rows")) ;
                check_union (C, add, op, NULL, 0, type, A, B, 0, what) ;
                GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&C) ;
            }
            GrB_Semiring_free (&s) ;
            GXT_OK (GxB_NAMM_free (&namm)) ;
            GrB_Monoid_free (&add) ;
            if (oq < 2) GrB_BinaryOp_free (&op) ;
        }
    }
}

//------------------------------------------------------------------------------
// errors
//------------------------------------------------------------------------------

// of two zero terms of opposite signs, MAX gives +0 and MIN -0 (docs/
// user-operators.md), whichever comes first: x - y (missing entries 0) on
// rows whose zero terms are 1 - 1 = +0 and -0 - 0 = -0, the -0 once from a
// column only row i holds and once from a common one; compiled and without
// a definition, FP32 and FP64, on the backend of the environment
static void zeros_of_either_sign_under_max_and_min (void **state)
{
    GXT_START ( ) ;
    // A's rows a0..a3 and B's b0..b3 over 3 columns (NA: no entry); the
    // pairs (0,0), (1,1) under MAX and (2,2), (3,3) under MIN tie a +0 and
    // a -0 as their best terms (the other term -2 or 2)
    #define NA NAN
    const double a [4][3] = { { 1, 1, -0.0 }, { -0.0, 1, 0 }, { 1, 3, -0.0 },
        { -0.0, 3, 0 } } ;
    const double b [4][3] = { { 1, 3, NA }, { 0, 3, NA }, { 1, 1, NA },
        { 0, 1, NA } } ;
    GrB_Type types [2] = { GrB_FP32, GrB_FP64 } ;
    for (int tq = 0 ; tq < 2 ; tq++)
    {
        GrB_Type type = types [tq] ;
        GrB_Matrix A = NULL, B = NULL ;
        GXT_OK (GrB_Matrix_new (&A, type, 4, 3)) ;
        GXT_OK (GrB_Matrix_new (&B, type, 4, 3)) ;
        for (int i = 0 ; i < 4 ; i++)
            for (int c = 0 ; c < 3 ; c++)
            {
                GXT_OK (GrB_Matrix_setElement_FP64 (A, a [i][c], i, c)) ;
                if (!isnan (b [i][c])) GXT_OK (GrB_Matrix_setElement_FP64 (B, b [i][c], i, c)) ;
            }
        for (int defn = 1 ; defn >= 0 ; defn--)
        {
            for (int mx = 0 ; mx < 2 ; mx++)
            {
                GrB_BinaryOp op = make_op (op_named ("minus"), type, defn, "_zeros") ;
                GxB_NAMM namm = NULL ;
                GrB_Semiring s = NULL ;
                GXT_OK (GxB_NAMM_new (&namm, op, 0)) ;
                GXT_OK (GxB_Semiring_new_NAMM (&s, monoid (mx ? "MAX" : "MIN", type), namm)) ;
                GrB_Matrix C = NULL ;
                GXT_OK (distance (&C, type, s, A, B)) ;
                for (int i = mx ? 0 : 2 ; i < (mx ? 2 : 4) ; i++)
                {
                    double d = gxt_get (C, i, i) ;
                    if (d != 0 || (signbit (d) != 0) != !mx)
                        GXT_FAIL ("x - y under %s (%s, %s): (%d,%d) = %g%s, expected %s",
                            mx ? "MAX" : "MIN", defn ? "compiled" : "no definition",
                            gxt_type_name (type), i, i, d,
                            signbit (d) ? " (negative)" : "", mx ? "+0" : "-0") ;
                }
                GrB_Matrix_free (&C) ;
                GrB_Semiring_free (&s) ;
                GxB_NAMM_free (&namm) ;
                GrB_BinaryOp_free (&op) ;
            }
        }
        GrB_Matrix_free (&A) ;
        GrB_Matrix_free (&B) ;
    }
    #undef NA
}

static void a_definition_that_does_not_compile_is_refused (void **state)
{
    GXT_START ( ) ;
    GrB_BinaryOp op = NULL ;
    GXT_OK (GxB_BinaryOp_new (&op, absdiff_FP64, GrB_FP64, GrB_FP64, GrB_FP64,
        "broken", "void broken (double *z, const double *x, const double *y)\n"
        "{ (*z) = fabs ((*x) - (*y) }")) ;
    GxB_NAMM namm = NULL ;
    GrB_Semiring s = NULL ;
    GXT_OK (GxB_NAMM_new (&namm, op, 0)) ;
    GXT_OK (GxB_Semiring_new_NAMM (&s, GrB_PLUS_MONOID_FP64, namm)) ;
    GrB_Matrix A, B, C = NULL ;
    gxt_pair (&A, &B, GXT_SHAPE_RANDOM, GXT_MIXED) ;
    int so_before = cache_files (".so") ;
    GXT_EXPECT (GrB_INVALID_VALUE, gxt_distance (&C, GrB_FP64, s, A, B, NULL)) ;
    const char *msg = gxt_message ( ) ;
    if (strstr (msg, "does not compile") == NULL || strstr (msg, "error") == NULL)
        GXT_FAIL ("the message does not carry the compiler's log: %s", msg) ;
    // nothing cached, and C as it was (poisoned: every entry NaN)
    assert_int_equal (cache_files (".so"), so_before) ;
    assert_true (isnan (gxt_get (C, 0, 0))) ;
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&C) ;
    GrB_Semiring_free (&s) ;
    GXT_OK (GxB_NAMM_free (&namm)) ;
    GrB_BinaryOp_free (&op) ;
}

//------------------------------------------------------------------------------
// the disk cache
//------------------------------------------------------------------------------

// one call of |x-y| (compiled, unique name) against MANHATTAN on naturals
// (exact sums: the same bits)
static void one_call (const char *tag)
{
    GrB_BinaryOp op = make_op (op_named ("absdiff"), GrB_FP64, true, tag) ;
    GxB_NAMM namm = NULL ;
    GrB_Semiring s = NULL ;
    GXT_OK (GxB_NAMM_new (&namm, op, 0)) ;
    GXT_OK (GxB_Semiring_new_NAMM (&s, GrB_PLUS_MONOID_FP64, namm)) ;
    GrB_Matrix A, B, C = NULL, D = NULL ;
    gxt_pair (&A, &B, GXT_SHAPE_RANDOM, GXT_NATURALS) ;
    GXT_OK (distance (&C, GrB_FP64, s, A, B)) ;
    GXT_OK (distance (&D, GrB_FP64, GxB_DIST_MANHATTAN_FP64, A, B)) ;
    gxt_check_same (C, D, 0, 0, "compiled |x-y| vs MANHATTAN on naturals") ;
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ;
    GrB_Matrix_free (&C) ; GrB_Matrix_free (&D) ;
    GrB_Semiring_free (&s) ;
    GXT_OK (GxB_NAMM_free (&namm)) ;
    GrB_BinaryOp_free (&op) ;
}

// overwrite the one file of the cache ending with suffix
static void spoil (const char *suffix, const char *text)
{
    DIR *d = opendir (cache) ;
    assert_non_null (d) ;
    struct dirent *e ;
    char path [512] = "" ;
    size_t ls = strlen (suffix) ;
    while ((e = readdir (d)) != NULL)
    {
        size_t l = strlen (e->d_name) ;
        if (l > ls && strcmp (e->d_name + l - ls, suffix) == 0)
            snprintf (path, sizeof (path), "%s/%s", cache, e->d_name) ;
    }
    closedir (d) ;
    assert_true (path [0] != '\0') ;
    FILE *f = fopen (path, "ab") ;
    assert_non_null (f) ;
    fputs (text, f) ;
    fclose (f) ;
}

static void the_disk_cache_is_used_and_never_trusted (void **state)
{
    GXT_START ( ) ;
    GxB_Backend was = cpu_begin ( ) ;
    int64_t c0 = compiles ( ), h0 = disk_hits ( ) ;
    one_call ("_disk") ;                        // miss: compiled
    assert_int_equal (compiles ( ), c0 + 1) ;
    assert_int_equal (cache_files (".so"), 1) ;
    one_call ("_disk") ;                        // in the process: nothing new
    assert_int_equal (compiles ( ) + disk_hits ( ), c0 + h0 + 1) ;
    GXD_jit_clear ( ) ;
    one_call ("_disk") ;                        // from the disk
    assert_int_equal (disk_hits ( ), h0 + 1) ;
    assert_int_equal (compiles ( ), c0 + 1) ;
    // a corrupt module (bytes appended: its checksum fails) is rebuilt
    GXD_jit_clear ( ) ;
    spoil (".so", "garbage") ;
    one_call ("_disk") ;
    assert_int_equal (compiles ( ), c0 + 2) ;
    // a stale entry (its source is not ours) is rebuilt
    GXD_jit_clear ( ) ;
    spoil (".c", "/* another operator */\n") ;
    one_call ("_disk") ;
    assert_int_equal (compiles ( ), c0 + 3) ;
    GXD_jit_clear ( ) ;
    one_call ("_disk") ;                        // and then found again
    assert_int_equal (disk_hits ( ), h0 + 2) ;
    assert_int_equal (cache_files (".so"), 1) ;
    assert_int_equal (cache_files (".log"), 0) ;
    cpu_end (was) ;
}

// two processes compiling the same new operator into one folder at once:
// both succeed, and one entry remains (each process is this program, run
// with GXT_USER_OPS_CHILD: see main)
static void two_processes_compile_at_once (void **state)
{
    GXT_START ( ) ;
    pid_t pid [2] ;
    char *argv [ ] = { "test_user_ops", NULL } ;
    setenv ("GXT_USER_OPS_CHILD", "1", 1) ;
    for (int c = 0 ; c < 2 ; c++)
        assert_int_equal (posix_spawn (&pid [c], "/proc/self/exe", NULL, NULL,
            argv, environ), 0) ;
    unsetenv ("GXT_USER_OPS_CHILD") ;
    for (int c = 0 ; c < 2 ; c++)
    {
        int status ;
        assert_int_equal (waitpid (pid [c], &status, 0), pid [c]) ;
        if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
            GXT_FAIL ("process %d of 2 failed (status %d)", c, status) ;
    }
    assert_int_equal (cache_files (".so"), 1) ;
    assert_int_equal (cache_files (".c"), 1) ;
}

// the child's whole job: compile |x-y| into the shared folder and compare
static int child (void)
{
    if (GrB_init (GrB_NONBLOCKING) != GrB_SUCCESS) return 2 ;
    if (GxB_Distance_init ( ) != GrB_SUCCESS) return 2 ;
    if (GxB_Distance_set_backend (GxB_BACKEND_CPU) != GrB_SUCCESS) return 2 ;
    gxt_reseed ("child") ;
    one_call ("_race") ;
    int64_t c, h ;
    GXD_jit_stats (&c, &h) ;
    GxB_Distance_finalize ( ) ;
    GrB_finalize ( ) ;
    return (c + h == 1) ? 0 : 3 ;
}

// on a GPU, a compiled operator runs there (its kernel compiled by NVRTC,
// kept on disk like the CPU's modules) and gives the CPU's results
static void compiled_operators_run_on_the_gpu (void **state)
{
    GXT_START ( ) ;
    GxB_Backend was = gpu_begin ( ) ;
    const char *adds [3] = { "PLUS", "MAX", "MIN" } ;
    for (int q = 0 ; q < 3 ; q++)
    {
        GrB_Type type = (q == 1) ? GrB_FP32 : GrB_FP64 ;
        GrB_BinaryOp op = make_op (op_named (q == 2 ? "plus" : "clipped"),
            type, true, "_gpu") ;
        GrB_Monoid add = monoid (adds [q], type) ;
        GxB_NAMM namm = NULL ;
        GrB_Semiring s = NULL ;
        GXT_OK (GxB_NAMM_new (&namm, op, 0.5)) ;
        GXT_OK (GxB_Semiring_new_NAMM (&s, add, namm)) ;
        for (int sh = 0 ; sh < NSHAPES ; sh++)
        {
            GrB_Matrix A, B, C = NULL, M = NULL, CM = NULL, D = NULL ;
            gxt_pair (&A, &B, shapes [sh], GXT_MIXED) ;
            GrB_Index m, n ;
            GXT_OK (GrB_Matrix_nrows (&m, A)) ;
            GXT_OK (GrB_Matrix_nrows (&n, B)) ;
            GXT_OK (gxt_distance (&C, type, s, A, B, NULL)) ;
            char what [128] ;
            snprintf (what, sizeof (what), "GPU, %s, shape %s", adds [q],
                gxt_shape_name (shapes [sh])) ;
            check_union (C, add, op, NULL, 0.5, type, A, B, gxt_rtol (type), what) ;
            // along a mask: the same values where the mask has entries
            gxt_mask (&M, m, n, 0.3) ;
            GXT_OK (GrB_Matrix_new (&CM, type, m, n)) ;
            GXT_OK (GxB_mxm_distance (CM, M, NULL, s, A, B, GrB_DESC_S)) ;
            GXT_OK (GrB_Matrix_new (&D, type, m, n)) ;
            GXT_OK (GrB_Matrix_assign (D, M, NULL, C, GrB_ALL, m, GrB_ALL, n,
                GrB_DESC_S)) ;
            gxt_check_same (CM, D, gxt_rtol (type), 1, "GPU, masked") ;
            GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&C) ;
            GrB_Matrix_free (&M) ; GrB_Matrix_free (&CM) ; GrB_Matrix_free (&D) ;
        }
        GrB_Semiring_free (&s) ;
        GXT_OK (GxB_NAMM_free (&namm)) ;
        GrB_BinaryOp_free (&op) ;
    }
    // the kernel comes back from the disk once the process forgot it
    one_call ("_gpu_disk") ;
    int64_t c0 = compiles ( ), h0 = disk_hits ( ) ;
    GXD_jit_clear ( ) ;
    one_call ("_gpu_disk") ;
    assert_int_equal (disk_hits ( ), h0 + 2) ;     // the CPU's and the GPU's
    assert_int_equal (compiles ( ), c0) ;
    GXT_OK (GxB_Distance_set_backend (was)) ;
}

// a row against itself: the rewrite's sum cancels to rounding, so the
// guard sends the pair over the union, which gives exactly 0 (on the
// backend in force: the CPU's loops, or the GPU's compiled kernels)
static void self_distances_are_exactly_zero (void **state)
{
    GXT_START ( ) ;
    GrB_Type types [2] = { GrB_FP32, GrB_FP64 } ;
    for (int tq = 0 ; tq < 2 ; tq++)
    {
        GrB_Type type = types [tq] ;
        const char *names [2] = { "absdiff", "sqdiff" } ;
        for (int q = 0 ; q < 2 ; q++)
        {
            GrB_BinaryOp op = make_op (op_named (names [q]), type, true, "_self") ;
            GxB_NAMM namm = NULL ;
            GrB_Semiring s = NULL ;
            GXT_OK (GxB_NAMM_new (&namm, op, 0)) ;
            GXT_OK (GxB_Semiring_new_NAMM (&s, monoid ("PLUS", type), namm)) ;
            GrB_Matrix A, B, C = NULL ;
            gxt_pair (&A, &B, GXT_SHAPE_DENSE_ROW, GXT_MIXED) ;
            GrB_Index m ;
            GXT_OK (GrB_Matrix_nrows (&m, A)) ;
            GXT_OK (distance (&C, type, s, A, A)) ;
            check_union (C, monoid ("PLUS", type), op, NULL, 0, type, A, A,
                gxt_rtol (type), "self distances") ;
            for (GrB_Index i = 0 ; i < m ; i++)
            {
                double d = -1 ;
                GXT_OK (GrB_Matrix_extractElement_FP64 (&d, C, i, i)) ;
                if (d != 0) GXT_FAIL ("%s %s: d(%llu, %llu) = %g, not 0", names [q],
                    gxt_type_name (type), (unsigned long long) i,
                    (unsigned long long) i, d) ;
            }
            GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&C) ;
            GrB_Semiring_free (&s) ;
            GXT_OK (GxB_NAMM_free (&namm)) ;
            GrB_BinaryOp_free (&op) ;
        }
    }
}

//------------------------------------------------------------------------------
// cancellation
//------------------------------------------------------------------------------

// a compiled |x-y| under PLUS on rows sharing a column of 2^60 (its term is
// 0) beside small entries (gxt_cancelling_rows): the union's sums are
// exact, but the rewrite's would be wrong by the size of the result, so
// every pair must be caught by the guard and merged over its union: equal
// to the exact reference within rtol / 1000 (FP32 and FP64, the CPU backend)
static void cancelling_sums_of_a_compiled_operator_are_computed_again (void **state)
{
    GXT_START ( ) ;
    GxB_Backend was = cpu_begin ( ) ;
    GrB_Type types [2] = { GrB_FP32, GrB_FP64 } ;
    for (int tq = 0 ; tq < 2 ; tq++)
    {
        GrB_Type type = types [tq] ;
        GrB_BinaryOp op = make_op (op_named ("absdiff"), type, true, "_cancel") ;
        GxB_NAMM namm = NULL ;
        GrB_Semiring s = NULL ;
        GXT_OK (GxB_NAMM_new (&namm, op, 0)) ;
        GrB_Monoid add = monoid ("PLUS", type) ;
        GXT_OK (GxB_Semiring_new_NAMM (&s, add, namm)) ;
        GrB_Index m = gxt_int (5, 20), n = gxt_int (5, 20), k = gxt_int (4, 30) ;
        GrB_Matrix X [2], C = NULL ;
        gxt_cancelling_rows (&X [0], type, m, k) ;
        gxt_cancelling_rows (&X [1], type, n, k) ;
        GXT_OK (distance (&C, type, s, X [0], X [1])) ;
        check_union (C, add, op, NULL, 0, type, X [0], X [1], gxt_rtol (type) / 1e3,
            tq ? "cancelling sums, FP64" : "cancelling sums, FP32") ;
        GrB_Matrix_free (&X [0]) ; GrB_Matrix_free (&X [1]) ; GrB_Matrix_free (&C) ;
        GrB_Semiring_free (&s) ;
        GXT_OK (GxB_NAMM_free (&namm)) ;
        GrB_BinaryOp_free (&op) ;
    }
    cpu_end (was) ;
}

// on a GPU, an operator whose kernels the library holds as a template
// (every PLUS, MIN and MAX here) is first compiled alone and linked with
// it, while the whole program, the operator inlined, compiles on a thread
// and then takes over: the two give the same bits
static void linked_and_whole_gpu_programs_agree (void **state)
{
    GXT_START ( ) ;
    GxB_Backend was = gpu_begin ( ) ;
    const char *adds [3] = { "PLUS", "MAX", "MIN" } ;
    for (int q = 0 ; q < 6 ; q++)
    {
        GrB_Type type = (q % 2) ? GrB_FP64 : GrB_FP32 ;
        char suffix [32] ;
        snprintf (suffix, sizeof (suffix), "_linked%d", q) ;
        GrB_BinaryOp op = make_op (op_named ("clipped"), type, true, suffix) ;
        GrB_Monoid add = monoid (adds [q / 2], type) ;
        GxB_NAMM namm = NULL ;
        GrB_Semiring s = NULL ;
        GXT_OK (GxB_NAMM_new (&namm, op, 0.5)) ;
        GXT_OK (GxB_Semiring_new_NAMM (&s, add, namm)) ;
        GrB_Matrix A, B, C [2] = { NULL, NULL }, K [2] = { NULL, NULL } ;
        gxt_pair (&A, &B, GXT_SHAPE_POWERLAW, GXT_MIXED) ;
        GrB_Index m, n ;
        GXT_OK (GrB_Matrix_nrows (&m, A)) ;
        GXT_OK (GrB_Matrix_nrows (&n, B)) ;
        int64_t linked [3], swaps [3] ;
        GXD_jit_gpu_tiers (&linked [0], &swaps [0]) ;
        for (int r = 0 ; r < 2 ; r++)
        {
            // (r = 1: after GXD_jit_gpu_tiers, which waits for the threads)
            GXT_OK (gxt_distance (&C [r], type, s, A, B, NULL)) ;
            GXT_OK (GrB_Matrix_new (&K [r], type, m, n)) ;
            GXT_OK (GxB_kNN (K [r], NULL, s, 5, A, B, NULL)) ;
            GXD_jit_gpu_tiers (&linked [r+1], &swaps [r+1]) ;
        }
        // the all-pairs and kNN programs: linked first, whole next (each
        // linked program taken over by its whole program)
        assert_true (linked [1] - linked [0] >= 2) ;
        assert_int_equal (linked [2], linked [1]) ;
        assert_int_equal (swaps [2] - swaps [0], linked [1] - linked [0]) ;
        char what [64] ;
        snprintf (what, sizeof (what), "GPU, %s, linked", adds [q / 2]) ;
        check_union (C [0], add, op, NULL, 0.5, type, A, B, gxt_rtol (type), what) ;
        gxt_check_bitwise (C [1], C [0], "all pairs: whole program vs linked") ;
        gxt_check_bitwise (K [1], K [0], "kNN: whole program vs linked") ;
        for (int r = 0 ; r < 2 ; r++)
        {
            GrB_Matrix_free (&C [r]) ;
            GrB_Matrix_free (&K [r]) ;
        }
        GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ;
        GrB_Semiring_free (&s) ;
        GXT_OK (GxB_NAMM_free (&namm)) ;
        GrB_BinaryOp_free (&op) ;
    }
    GXT_OK (GxB_Distance_set_backend (was)) ;
}

//------------------------------------------------------------------------------
// masks and neighbors
//------------------------------------------------------------------------------

// a compiled |x-y| gives MANHATTAN's bits on naturals: sampled along a
// mask, as kNN and as a radius graph (on a GPU: selected on the device);
// under MAX, CHEBYSHEV's as kNN (on a GPU: selected as the select kernel
// makes the distances)
static void masks_and_knn_take_compiled_operators (void **state)
{
    GXT_START ( ) ;
    GrB_BinaryOp op = make_op (op_named ("absdiff"), GrB_FP64, true, "_knn") ;
    GxB_NAMM namm = NULL ;
    GrB_Semiring s = NULL ;
    GXT_OK (GxB_NAMM_new (&namm, op, 0)) ;
    GXT_OK (GxB_Semiring_new_NAMM (&s, GrB_PLUS_MONOID_FP64, namm)) ;
    GxB_Backend was ;
    GXT_OK (GxB_Distance_get_backend (&was)) ;
    if (was == GxB_BACKEND_GPU) GXT_OK (GxB_Distance_set_backend (GxB_BACKEND_AUTO)) ;
    GrB_Matrix A, B, M = NULL ;
    gxt_pair (&A, &B, GXT_SHAPE_POWERLAW, GXT_NATURALS) ;
    GrB_Index m, n ;
    GXT_OK (GrB_Matrix_nrows (&m, A)) ;
    GXT_OK (GrB_Matrix_nrows (&n, B)) ;
    gxt_mask (&M, m, n, 0.3) ;
    for (int q = 0 ; q < 4 ; q++)
    {
        GrB_Matrix C = NULL, D = NULL ;
        GXT_OK (GrB_Matrix_new (&C, GrB_FP64, m, n)) ;
        GXT_OK (GrB_Matrix_new (&D, GrB_FP64, m, n)) ;
        if (q == 0)
        {
            GXT_OK (GxB_mxm_distance (C, M, NULL, s, A, B, NULL)) ;
            GXT_OK (GxB_mxm_distance (D, M, NULL, GxB_DIST_MANHATTAN_FP64, A, B, NULL)) ;
        }
        else if (q == 3)
        {
            GXT_OK (GxB_radius_graph (C, NULL, s, 40, A, B, NULL)) ;
            GXT_OK (GxB_radius_graph (D, NULL, GxB_DIST_MANHATTAN_FP64, 40, A, B, NULL)) ;
        }
        else
        {
            uint64_t k = (q == 1) ? 3 : 50 ;
            GXT_OK (GxB_kNN (C, NULL, s, k, A, B, NULL)) ;
            GXT_OK (GxB_kNN (D, NULL, GxB_DIST_MANHATTAN_FP64, k, A, B, NULL)) ;
        }
        gxt_check_bitwise (C, D, q == 0 ? "masked" : q == 3 ? "radius" : "kNN") ;
        GrB_Matrix_free (&C) ; GrB_Matrix_free (&D) ;
    }
    GrB_Semiring smax = NULL ;
    GXT_OK (GxB_Semiring_new_NAMM (&smax, GrB_MAX_MONOID_FP64, namm)) ;
    for (uint64_t k = 3 ; k <= 50 ; k += 47)
    {
        GrB_Matrix C = NULL, D = NULL ;
        GXT_OK (GrB_Matrix_new (&C, GrB_FP64, m, n)) ;
        GXT_OK (GrB_Matrix_new (&D, GrB_FP64, m, n)) ;
        GXT_OK (GxB_kNN (C, NULL, smax, k, A, B, NULL)) ;
        GXT_OK (GxB_kNN (D, NULL, GxB_DIST_CHEBYSHEV_FP64, k, A, B, NULL)) ;
        gxt_check_bitwise (C, D, "kNN under MAX") ;
        GrB_Matrix_free (&C) ; GrB_Matrix_free (&D) ;
    }
    GXT_OK (GxB_Distance_set_backend (was)) ;
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&M) ;
    GrB_Semiring_free (&s) ;
    GrB_Semiring_free (&smax) ;
    GXT_OK (GxB_NAMM_free (&namm)) ;
    GrB_BinaryOp_free (&op) ;
}

int main (void)
{
    if (getenv ("GXT_USER_OPS_CHILD") != NULL) return child ( ) ;
    const struct CMUnitTest tests [ ] =
    {
        cmocka_unit_test_setup_teardown (absdiff_plus_is_manhattan, setup, teardown),
        cmocka_unit_test_setup_teardown (sqdiff_plus_is_sqeuclidean, setup, teardown),
        cmocka_unit_test_setup_teardown (clipped_difference_and_cube, setup, teardown),
        cmocka_unit_test_setup_teardown (absdiff_max_is_chebyshev_and_identity_one, setup, teardown),
        cmocka_unit_test_setup_teardown (not_a_number_on_some_products, setup, teardown),
        cmocka_unit_test_setup_teardown (a_spike_on_near_values, setup, teardown),
        cmocka_unit_test_setup_teardown (rows_of_more_than_65536_entries, setup, teardown),
        cmocka_unit_test_setup_teardown (tropical_min_plus, setup, teardown),
        cmocka_unit_test_setup_teardown (a_user_monoid_is_compiled, setup, teardown),
        cmocka_unit_test_setup_teardown (integer_operators_are_exact, setup, teardown),
        cmocka_unit_test_setup_teardown (min_and_max_without_a_definition, setup, teardown),
        cmocka_unit_test_setup_teardown (zeros_of_either_sign_under_max_and_min, setup, teardown),
        cmocka_unit_test_setup_teardown (min_and_max_monoids_of_any_identity, setup, teardown),
        cmocka_unit_test_setup_teardown (a_definition_that_does_not_compile_is_refused, setup, teardown),
        cmocka_unit_test_setup_teardown (compiled_operators_run_on_the_gpu, setup, teardown),
        cmocka_unit_test_setup_teardown (linked_and_whole_gpu_programs_agree, setup, teardown),
        cmocka_unit_test_setup_teardown (self_distances_are_exactly_zero, setup, teardown),
        cmocka_unit_test_setup_teardown (the_disk_cache_is_used_and_never_trusted, setup, teardown),
        cmocka_unit_test_setup_teardown (two_processes_compile_at_once, setup, teardown),
        cmocka_unit_test_setup_teardown (cancelling_sums_of_a_compiled_operator_are_computed_again, setup, teardown),
        cmocka_unit_test_setup_teardown (masks_and_knn_take_compiled_operators, setup, teardown),
    } ;
    return gxt_main ("user operators", tests, sizeof (tests) / sizeof (tests [0])) ;
}
