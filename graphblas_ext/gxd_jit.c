// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// graphblas_ext/gxd_jit.c: a user's operator compiled for the CPU backend
//------------------------------------------------------------------------------

// SuiteSparse:GraphBLAS keeps the C definition a user gives to
// GxB_BinaryOp_new and prints it with GxB_BinaryOp_fprint (GxB_COMPLETE):
// the public, version-stable way to the source.  That definition is compiled
// here with the system C compiler into a small shared object exporting
//
//      double gxd_jit_op (double x, double y)
//
// which casts x and y to the operator's own types, calls the user's function
// (inlined by the compiler) and returns z as a double, and the CPU
// backend's inner loops with the operator inlined (gxd_metric.h has their
// signatures):
//
//      gxd_jit_g_col   a column of the rewrite's intersection terms
//                      f(x,y) - f(x,e) - f(e,y) + f(e,e) (cpu_dense.c)
//      gxd_jit_col     a column of terms f(x,y), of a MIN or MAX union's
//                      common columns (cpu_common_sums.c)
//      gxd_jit_merge   one pair's union, under a built-in monoid (cpu_pair.c)
//
// so the call through a pointer is paid per column of a row of A, or per
// pair, not per term (that call was most of a compiled operator's cost
// over the built-in metric it equals: docs/benchmarks.md, "User
// operators"), and f(x,e), f(e,e) are computed once per column.
// An operator without a definition has only its function pointer, which
// only GraphBLAS can call: it takes gxd_union_graphblas.c instead.
//
// Modules are cached in the process (by source text) and on disk, in
// $GXBDIST_CACHE_DIR, else $XDG_CACHE_HOME/gxbdist, else ~/.cache/gxbdist:
// gxd_<key>.so beside gxd_<key>.c (the exact source) and gxd_<key>.so.sum
// (a checksum of the .so), key = a hash of the source and the compiler; the
// GPU's compiled kernels (cuda/gpu_user.cu) are kept the same way.  An
// entry is used only when its source is byte for byte ours and its checksum
// holds; anything else is rebuilt, never trusted.  A new module is compiled
// under a name of its own and renamed into place, so processes sharing the
// folder never see a half-written file.

#include "gxd_internal.h"
#include "gxd_jit.h"
#include "gxd_jit_cache.h"
#ifdef GXD_HAVE_CUDA
#include "gxd_gpu.h"
#endif
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <spawn.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ ;

// every file name is the cache folder's, whose length cache_dir keeps under
// PATH_MAX - 64, plus a short suffix: snprintf cannot truncate them
#pragma GCC diagnostic ignored "-Wformat-truncation"

#ifndef GXD_JIT_CC
#define GXD_JIT_CC "cc"
#endif

// the compiler's flags: part of the key, so a change rebuilds every entry
#define GXD_JIT_FLAGS "-O2", "-fPIC", "-shared", "-fvisibility=hidden", "-w"
#define GXD_JIT_FLAGS_KEY "-O2 -fPIC -shared -fvisibility=hidden -w"
// how much of a failed compile's output goes into the error message
#define GXD_JIT_LOG_MAX 640
// modules one process keeps loaded (each a distinct operator source)
#define GXD_JIT_MAX_MODULES 256

//------------------------------------------------------------------------------
// the in-process cache
//------------------------------------------------------------------------------

typedef struct
{
    char *source ;          // the generated source (malloc'd)
    void *handle ;          // dlopen handle
    gxd_jit_fns fns ;       // its entry points
    gxd_user_src src ;      // the user's definition and function name
}
jit_module ;

static pthread_mutex_t jit_lock = PTHREAD_MUTEX_INITIALIZER ;
static jit_module modules [GXD_JIT_MAX_MODULES] ;
static int nmodules = 0 ;
static int64_t ncompiles = 0, ndisk_hits = 0 ;

//------------------------------------------------------------------------------
// the operator's source, from GxB_BinaryOp_fprint
//------------------------------------------------------------------------------

// fprint's text of op: "... z=NAME(x,y)" then three type lines, then the
// definition (absent for an operator made without one)
static GrB_Info op_text (char **text, GrB_BinaryOp op)
{
    size_t len = 0 ;
    FILE *f = open_memstream (text, &len) ;
    if (f == NULL) return GXD_error (GrB_OUT_OF_MEMORY, "out of memory") ;
    GrB_Info info = GxB_BinaryOp_fprint (op, "op", GxB_COMPLETE, f) ;
    fclose (f) ;
    if (info != GrB_SUCCESS) { free (*text) ; *text = NULL ; }
    return info ;
}

// the function's name and its definition within fprint's text (pointers
// into text, which is modified); false when there is no definition
static bool parse_text (char *text, char **name, char **defn)
{
    char *z = strstr (text, " z=") ;
    char *ytype = strstr (text, "ytype") ;
    if (z == NULL || ytype == NULL) return false ;
    *name = z + 3 ;
    char *paren = strchr (*name, '(') ;
    if (paren == NULL) return false ;
    *paren = '\0' ;
    char *eol = strchr (ytype, '\n') ;
    if (eol == NULL) return false ;
    *defn = eol + 1 ;
    // trailing blanks are fprint's, not the user's
    size_t n = strlen (*defn) ;
    while (n > 0 && ((*defn) [n-1] == '\n' || (*defn) [n-1] == ' ')) n-- ;
    (*defn) [n] = '\0' ;
    return n > 0 ;
}

static const char *c_type (GrB_Type t)
{
    return (t == GrB_FP32) ? "float" : (t == GrB_FP64) ? "double" : NULL ;
}

// the module's union merge: the loop of cpu_pair.c with the operator and a
// built-in monoid inlined (add: GXD_USER_MERGE_PLUS, TIMES, MIN, MAX = 0..3),
// the same operations in the same order, so the same bits
#define MERGE_SOURCE                                                        \
    "static inline __attribute__ ((always_inline)) double\n"                \
    "gxd_jit_monoid (int a, double s, double t)\n"                          \
    "{\n    return ((a == 0) ? s + t : (a == 1) ? s * t\n"                  \
    "        : (a == 2) ? fmin (s, t) : fmax (s, t)) ;\n}\n"                 \
    "static inline __attribute__ ((always_inline)) double\n"                \
    "gxd_jit_union (int a, const int64_t *Aj, const double *Ax, int64_t na,\n" \
    "    const int64_t *Bj, const double *Bx, int64_t nb, double e, double s,\n" \
    "    int64_t *nu)\n"                                                     \
    "{\n    int64_t p = 0, q = 0, u = na + nb ;\n"                          \
    "    while (p < na && q < nb)\n    {\n"                                 \
    "        int64_t ca = Aj [p], cb = Bj [q] ;\n"                          \
    "        double x = (ca <= cb) ? Ax [p] : e, y = (cb <= ca) ? Bx [q] : e ;\n" \
    "        s = gxd_jit_monoid (a, s, op (x, y)) ;\n"                       \
    "        u -= (ca == cb) ; p += (ca <= cb) ; q += (cb <= ca) ;\n    }\n"  \
    "    for ( ; p < na ; p++) s = gxd_jit_monoid (a, s, op (Ax [p], e)) ;\n" \
    "    for ( ; q < nb ; q++) s = gxd_jit_monoid (a, s, op (e, Bx [q])) ;\n" \
    "    *nu = u ;\n    return (s) ;\n}\n"                                  \
    "#define GXD_JIT_UNION(a) gxd_jit_union (a, Aj, Ax, na, Bj, Bx, nb, e, s, nu)\n" \
    "__attribute__ ((visibility (\"default\")))\n"                          \
    "double gxd_jit_merge (int a, const int64_t *Aj, const double *Ax,\n"   \
    "    int64_t na, const int64_t *Bj, const double *Bx, int64_t nb,\n"    \
    "    double e, double s, int64_t *nu)\n"                                 \
    "{\n    switch (a)\n    {\n"                                            \
    "        case 0:  return (GXD_JIT_UNION (0)) ;\n"                        \
    "        case 1:  return (GXD_JIT_UNION (1)) ;\n"                        \
    "        case 2:  return (GXD_JIT_UNION (2)) ;\n"                        \
    "        default: return (GXD_JIT_UNION (3)) ;\n    }\n}\n"

// the module's source, or NULL with *has_defn false (no definition)
static GrB_Info module_source (char **source, bool *has_defn,
    gxd_user_src *src, GrB_BinaryOp op)
{
    #define GXD_FREE_ALL free (text) ;
    char *text = NULL, *name, *defn ;
    *source = NULL ;
    *has_defn = false ;
    src->name = src->defn = NULL ;
    GXD_TRY (op_text (&text, op)) ;
    if (!parse_text (text, &name, &defn))
    {
        GXD_FREE_ALL ;
        return GrB_SUCCESS ;
    }
    GrB_Type zt, xt, yt ;
    GXD_TRY (GxB_BinaryOp_ztype (&zt, op)) ;
    GXD_TRY (GxB_BinaryOp_xtype (&xt, op)) ;
    GXD_TRY (GxB_BinaryOp_ytype (&yt, op)) ;
    if (c_type (zt) == NULL || c_type (xt) == NULL || c_type (yt) == NULL)
    {
        GXD_FREE_ALL ;
        return GrB_SUCCESS ;
    }
    const char *fmt =
        "#include <math.h>\n#include <stdint.h>\n#include <stdbool.h>\n"
        "#include <stddef.h>\n#include <stdlib.h>\n#include <string.h>\n"
        "%s\n"
        "static inline double op (double x, double y)\n"
        "{\n    %s z ; %s a = (%s) x ; %s b = (%s) y ;\n"
        "    %s (&z, &a, &b) ;\n    return ((double) z) ;\n}\n"
        "__attribute__ ((visibility (\"default\")))\n"
        "double gxd_jit_op (double x, double y) { return (op (x, y)) ; }\n"
        "__attribute__ ((visibility (\"default\")))\n"
        "void gxd_jit_g_col (double *acc, const int32_t *Bi, const double *Bx,\n"
        "    const double *Fb, int64_t len, double x, double e)\n"
        "{\n    double fxe = op (x, e), fee = op (e, e) ;\n"
        "    for (int64_t q = 0 ; q < len ; q++)\n"
        "    {\n        double y = Bx [q] ;\n"
        "        acc [Bi [q]] += op (x, y) - fxe - Fb [q] + fee ;\n    }\n}\n"
        "__attribute__ ((visibility (\"default\")))\n"
        "void gxd_jit_col (double *z, const double *y, int64_t len, double x)\n"
        "{\n    for (int64_t q = 0 ; q < len ; q++) z [q] = op (x, y [q]) ;\n}\n"
        MERGE_SOURCE ;
    size_t len = strlen (fmt) + strlen (defn) + strlen (name) + 64 ;
    *source = malloc (len) ;
    if (*source == NULL) GXD_FAIL (GrB_OUT_OF_MEMORY, "out of memory") ;
    snprintf (*source, len, fmt, defn, c_type (zt), c_type (xt), c_type (xt),
        c_type (yt), c_type (yt), name) ;
    src->name = strdup (name) ;
    src->defn = strdup (defn) ;
    if (src->name == NULL || src->defn == NULL)
    {
        free ((char *) src->name) ; free ((char *) src->defn) ;
        free (*source) ; *source = NULL ;
        GXD_FAIL (GrB_OUT_OF_MEMORY, "out of memory") ;
    }
    *has_defn = true ;
    GXD_FREE_ALL ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

//------------------------------------------------------------------------------
// files
//------------------------------------------------------------------------------

// FNV-1a, 64 bits
static uint64_t fnv (uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data ;
    for (size_t i = 0 ; i < n ; i++) { h ^= p [i] ; h *= 0x100000001b3ULL ; }
    return h ;
}
#define FNV_BASIS 0xcbf29ce484222325ULL

// the whole of a file (NUL-terminated), or NULL
static char *read_file (const char *path, size_t *n)
{
    FILE *f = fopen (path, "rb") ;
    if (f == NULL) return NULL ;
    size_t cap = 4096, len = 0 ;
    char *buf = malloc (cap + 1) ;
    while (buf != NULL)
    {
        len += fread (buf + len, 1, cap - len, f) ;
        if (len < cap) break ;
        char *bigger = realloc (buf, 2 * cap + 1) ;
        if (bigger == NULL) { free (buf) ; buf = NULL ; break ; }
        buf = bigger ;
        cap *= 2 ;
    }
    bool bad = ferror (f) ;
    fclose (f) ;
    if (buf == NULL || bad) { free (buf) ; return NULL ; }
    buf [len] = '\0' ;
    if (n != NULL) *n = len ;
    return buf ;
}

// write text to path through a private name and a rename (atomic)
static bool write_file (const char *path, const char *text, const char *tmp)
{
    FILE *f = fopen (tmp, "wb") ;
    if (f == NULL) return false ;
    bool ok = fwrite (text, 1, strlen (text), f) == strlen (text) ;
    ok = (fclose (f) == 0) && ok ;
    ok = ok && rename (tmp, path) == 0 ;
    if (!ok) unlink (tmp) ;
    return ok ;
}

// the checksum of a file, as text
static bool file_sum (const char *path, char sum [32])
{
    size_t n ;
    char *bytes = read_file (path, &n) ;
    if (bytes == NULL) return false ;
    snprintf (sum, 32, "%016llx", (unsigned long long) fnv (FNV_BASIS, bytes, n)) ;
    free (bytes) ;
    return true ;
}

// mkdir -p
static bool make_dirs (const char *path)
{
    char buf [PATH_MAX] ;
    if (snprintf (buf, sizeof (buf), "%s", path) >= (int) sizeof (buf)) return false ;
    for (char *p = buf + 1 ; *p ; p++)
    {
        if (*p != '/') continue ;
        *p = '\0' ;
        if (mkdir (buf, 0700) != 0 && errno != EEXIST) return false ;
        *p = '/' ;
    }
    return mkdir (buf, 0700) == 0 || errno == EEXIST ;
}

// the cache folder (created), or false
static bool cache_dir (char dir [PATH_MAX])
{
    const char *env = getenv ("GXBDIST_CACHE_DIR") ;
    const char *xdg = getenv ("XDG_CACHE_HOME") ;
    const char *home = getenv ("HOME") ;
    int n ;
    if (env != NULL && *env) n = snprintf (dir, PATH_MAX, "%s", env) ;
    else if (xdg != NULL && *xdg) n = snprintf (dir, PATH_MAX, "%s/gxbdist", xdg) ;
    else if (home != NULL && *home) n = snprintf (dir, PATH_MAX, "%s/.cache/gxbdist", home) ;
    else return false ;
    return n > 0 && n < PATH_MAX - 64 && make_dirs (dir) ;
}

// dir/gxd_<key>, key a hash of the source and of the tool that compiles it
static void cache_base (char base [PATH_MAX], const char *dir,
    const char *source, const char *tool)
{
    uint64_t h = fnv (FNV_BASIS, source, strlen (source)) ;
    h = fnv (h, tool, strlen (tool)) ;
    snprintf (base, PATH_MAX, "%s/gxd_%016llx", dir, (unsigned long long) h) ;
}

//------------------------------------------------------------------------------
// compiling and loading
//------------------------------------------------------------------------------

// the module at so_path, if it loads and exports all its functions
static bool load (const char *so_path, void **handle, jit_module *mod)
{
    *handle = dlopen (so_path, RTLD_NOW | RTLD_LOCAL) ;
    if (*handle == NULL) return false ;
    gxd_jit_fns *f = &mod->fns ;
    f->op = (gxd_user_fn) dlsym (*handle, "gxd_jit_op") ;
    f->g_col = (gxd_user_g_col) dlsym (*handle, "gxd_jit_g_col") ;
    f->merge = (gxd_user_merge) dlsym (*handle, "gxd_jit_merge") ;
    f->col = (gxd_user_col) dlsym (*handle, "gxd_jit_col") ;
    if (f->op == NULL || f->g_col == NULL || f->merge == NULL || f->col == NULL)
    {
        dlclose (*handle) ; *handle = NULL ;
    }
    return *handle != NULL ;
}

// base + bin_ext is ours when base + src_ext holds exactly source and the
// checksum in base + bin_ext + ".sum" holds
static bool entry_ok (const char *base, const char *src_ext,
    const char *bin_ext, const char *source)
{
    char path [PATH_MAX], sum [32] ;
    snprintf (path, sizeof (path), "%s%s", base, src_ext) ;
    char *old = read_file (path, NULL) ;
    bool same = old != NULL && strcmp (old, source) == 0 ;
    free (old) ;
    if (!same) return false ;
    snprintf (path, sizeof (path), "%s%s.sum", base, bin_ext) ;
    char *want = read_file (path, NULL) ;
    snprintf (path, sizeof (path), "%s%s", base, bin_ext) ;
    bool ok = want != NULL && file_sum (path, sum) && strcmp (want, sum) == 0 ;
    free (want) ;
    return ok ;
}

// publish an entry whose binary is already at bin_path (renamed into place)
static void publish (const char *base, const char *src_ext,
    const char *bin_ext, const char *source, const char *bin_path)
{
    char path [PATH_MAX], tmp [PATH_MAX], sum [32] ;
    snprintf (tmp, sizeof (tmp), "%s.%ld.%lu.tmp", base, (long) getpid (),
        (unsigned long) pthread_self ()) ;
    if (!file_sum (bin_path, sum)) return ;
    snprintf (path, sizeof (path), "%s%s", base, bin_ext) ;
    bool ok = rename (bin_path, path) == 0 ;
    snprintf (path, sizeof (path), "%s%s.sum", base, bin_ext) ;
    ok = ok && write_file (path, sum, tmp) ;
    snprintf (path, sizeof (path), "%s%s", base, src_ext) ;
    ok = ok && write_file (path, source, tmp) ;
    (void) ok ;     // a failure to publish costs only a compile next time
}

// a disk entry that is exactly ours, loaded
static bool load_cached (const char *base, const char *source, void **handle,
    jit_module *fn)
{
    char path [PATH_MAX] ;
    snprintf (path, sizeof (path), "%s.so", base) ;
    return entry_ok (base, ".c", ".so", source) && load (path, handle, fn) ;
}

// run the compiler on src into so; its output into log.  Returns the exit
// status (0: compiled), or -1 when the compiler could not be started.
static int run_compiler (const char *src, const char *so, const char *log)
{
    const char *cc = GXD_JIT_CC ;
    if (access (cc, X_OK) != 0) cc = "cc" ;     // the build's compiler moved
    char *argv [ ] = { (char *) cc, GXD_JIT_FLAGS, "-o", (char *) so,
        (char *) src, "-lm", NULL } ;
    posix_spawn_file_actions_t fa ;
    if (posix_spawn_file_actions_init (&fa) != 0) return -1 ;
    posix_spawn_file_actions_addopen (&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0600) ;
    posix_spawn_file_actions_adddup2 (&fa, 1, 2) ;
    pid_t pid ;
    int rc = posix_spawnp (&pid, cc, &fa, NULL, argv, environ) ;
    posix_spawn_file_actions_destroy (&fa) ;
    if (rc != 0) return -1 ;
    int status ;
    while (waitpid (pid, &status, 0) < 0)
    {
        if (errno != EINTR) return -1 ;
    }
    if (!WIFEXITED (status)) return 1 ;
    // the shell's "command not found"
    return (WEXITSTATUS (status) == 127) ? -1 : WEXITSTATUS (status) ;
}

// compile source into base.so (then base.c, base.sum beside it) and load it
static GrB_Info compile (const char *base, const char *source, void **handle,
    jit_module *fn, bool *no_compiler)
{
    char src [PATH_MAX], so [PATH_MAX], log [PATH_MAX], sum [32] ;
    char tag [64] ;
    snprintf (tag, sizeof (tag), "%ld.%lu", (long) getpid (),
        (unsigned long) pthread_self ()) ;
    snprintf (src, sizeof (src), "%s.%s.tmp.c", base, tag) ;
    snprintf (so, sizeof (so), "%s.%s.tmp.so", base, tag) ;
    snprintf (log, sizeof (log), "%s.%s.log", base, tag) ;
    *no_compiler = false ;
    FILE *f = fopen (src, "wb") ;
    if (f == NULL || fputs (source, f) < 0)
    {
        if (f != NULL) fclose (f) ;
        unlink (src) ;
        return GXD_error (GrB_INVALID_VALUE, "user operator: cannot write "
            "%s (%s)", src, strerror (errno)) ;
    }
    fclose (f) ;
    int rc = run_compiler (src, so, log) ;
    GrB_Info info = GrB_SUCCESS ;
    if (rc < 0)
    {
        *no_compiler = true ;
    }
    else if (rc != 0)
    {
        char *text = read_file (log, NULL) ;
        info = GXD_error (GrB_INVALID_VALUE, "user operator: its definition "
            "does not compile (%s):\n%.*s", GXD_JIT_CC, GXD_JIT_LOG_MAX,
            text != NULL ? text : "(no compiler output)") ;
        free (text) ;
    }
    else if (!load (so, handle, fn) || !file_sum (so, sum))
    {
        const char *why = dlerror ( ) ;
        info = GXD_error (GrB_INVALID_VALUE, "user operator: the compiled "
            "module does not load (%s)", why != NULL ? why : "an entry point is missing") ;
        if (*handle != NULL) { dlclose (*handle) ; *handle = NULL ; }
    }
    else
    {
        // the module is loaded from its private name: publish it
        publish (base, ".c", ".so", source, so) ;
        ncompiles++ ;
    }
    unlink (src) ;
    unlink (so) ;
    unlink (log) ;
    return info ;
}

//------------------------------------------------------------------------------
// GXD_jit_op: the compiled operator, from the cache or the compiler
//------------------------------------------------------------------------------

GrB_Info GXD_jit_op (gxd_jit_fns *fns, gxd_user_src *src, GrB_BinaryOp op)
{
    #define GXD_FREE_ALL                                                    \
        free (source) ; free ((char *) got.src.name) ; free ((char *) got.src.defn) ;
    char *source = NULL ;
    bool has_defn ;
    memset (fns, 0, sizeof (*fns)) ;
    jit_module got ;
    memset (&got, 0, sizeof (got)) ;
    GXD_TRY (module_source (&source, &has_defn, &got.src, op)) ;
    if (!has_defn) return GrB_SUCCESS ;

    pthread_mutex_lock (&jit_lock) ;
    for (int q = 0 ; q < nmodules ; q++)
    {
        if (strcmp (modules [q].source, source) == 0)
        {
            *fns = modules [q].fns ;
            if (src != NULL) *src = modules [q].src ;
            pthread_mutex_unlock (&jit_lock) ;
            GXD_FREE_ALL ;
            return GrB_SUCCESS ;
        }
    }
    GrB_Info info = GrB_SUCCESS ;
    void *handle = NULL ;
    char dir [PATH_MAX], base [PATH_MAX] ;
    bool no_compiler = false ;
    if (nmodules == GXD_JIT_MAX_MODULES)
    {
        info = GXD_error (GrB_INSUFFICIENT_SPACE, "user operator: %d "
            "different operators already compiled in this process",
            GXD_JIT_MAX_MODULES) ;
    }
    else if (!cache_dir (dir))
    {
        // nowhere to compile to: the operator runs through GraphBLAS
        no_compiler = true ;
    }
    else
    {
        cache_base (base, dir, source, GXD_JIT_CC " " GXD_JIT_FLAGS_KEY) ;
        if (load_cached (base, source, &handle, &got))
        {
            ndisk_hits++ ;
        }
        else
        {
            info = compile (base, source, &handle, &got, &no_compiler) ;
        }
    }
    if (info == GrB_SUCCESS && handle != NULL)
    {
        got.source = source ;
        got.handle = handle ;
        modules [nmodules++] = got ;
        source = NULL ;
        *fns = got.fns ;
        if (src != NULL) *src = got.src ;
        got.src.name = got.src.defn = NULL ;   // kept by the module
    }
    pthread_mutex_unlock (&jit_lock) ;
    // no compiler on this machine, or no folder to write to: fns->op stays
    // NULL, and the operator runs through GraphBLAS (gxd_union_graphblas.c)
    (void) no_compiler ;
    GXD_FREE_ALL ;
    return info ;
    #undef GXD_FREE_ALL
}

// unload every module, the GPU's too (GxB_Distance_finalize; tests)
void GXD_jit_clear (void)
{
#ifdef GXD_HAVE_CUDA
    GXD_gpu_user_clear ( ) ;
#endif
    pthread_mutex_lock (&jit_lock) ;
    for (int q = 0 ; q < nmodules ; q++)
    {
        dlclose (modules [q].handle) ;
        free (modules [q].source) ;
        free ((char *) modules [q].src.name) ;
        free ((char *) modules [q].src.defn) ;
    }
    nmodules = 0 ;
    pthread_mutex_unlock (&jit_lock) ;
}

void GXD_jit_gpu_whole (bool on)
{
#ifdef GXD_HAVE_CUDA
    GXD_gpu_user_set_whole (on) ;
#endif
}

void GXD_jit_gpu_tiers (int64_t *linked, int64_t *swaps)
{
    *linked = *swaps = 0 ;
#ifdef GXD_HAVE_CUDA
    GXD_gpu_user_tiers (linked, swaps) ;
#endif
}

void GXD_jit_stats (int64_t *compiles, int64_t *disk_hits)
{
    int64_t linked, swaps ;
    GXD_jit_gpu_tiers (&linked, &swaps) ;   // (once the GPU's threads are done)
    pthread_mutex_lock (&jit_lock) ;
    *compiles = ncompiles ;
    *disk_hits = ndisk_hits ;
    pthread_mutex_unlock (&jit_lock) ;
}

//------------------------------------------------------------------------------
// the disk cache for other compilers (the GPU's: gxd_jit_cache.h)
//------------------------------------------------------------------------------

void *GXD_jit_cache_read (const char *source, const char *tool,
    const char *src_ext, const char *bin_ext, size_t *n)
{
    char dir [PATH_MAX], base [PATH_MAX], path [PATH_MAX] ;
    if (!cache_dir (dir)) return NULL ;
    cache_base (base, dir, source, tool) ;
    snprintf (path, sizeof (path), "%s%s", base, bin_ext) ;
    void *bytes = entry_ok (base, src_ext, bin_ext, source)
        ? read_file (path, n) : NULL ;
    if (bytes != NULL)
    {
        pthread_mutex_lock (&jit_lock) ;
        ndisk_hits++ ;
        pthread_mutex_unlock (&jit_lock) ;
    }
    return bytes ;
}

void GXD_jit_cache_write (const char *source, const char *tool,
    const char *src_ext, const char *bin_ext, const void *bin, size_t n)
{
    char dir [PATH_MAX], base [PATH_MAX], path [PATH_MAX] ;
    pthread_mutex_lock (&jit_lock) ;
    ncompiles++ ;
    pthread_mutex_unlock (&jit_lock) ;
    if (!cache_dir (dir)) return ;
    cache_base (base, dir, source, tool) ;
    snprintf (path, sizeof (path), "%s.%ld.%lu.bin.tmp", base, (long) getpid (),
        (unsigned long) pthread_self ()) ;
    FILE *f = fopen (path, "wb") ;
    if (f == NULL) return ;
    bool ok = fwrite (bin, 1, n, f) == n ;
    ok = (fclose (f) == 0) && ok ;
    if (ok) publish (base, src_ext, bin_ext, source, path) ;
    unlink (path) ;
}
