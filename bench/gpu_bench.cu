// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// bench/gpu_bench.cu: check and time the CUDA backend on its own
//------------------------------------------------------------------------------

// A program over cuda/'s internal entry points (no GraphBLAS calls; GrB_Info
// only), built with the library when CUDA is (bench/CMakeLists.txt), so the
// GPU backend is checked and timed apart from the API layer: (1) every
// metric, FP32 and FP64, both strategies and the sampled kernel against a
// host double-precision union loop built from gxd_ubegin/gxd_ustep/gxd_uend,
// on small random matrices with the hard cases of issue 8; (2) bitwise determinism over repeated runs; (3) timing
// against the naive one-thread-per-pair merge and cuSPARSE SpGEMM A*A' in
// the same run, on issue 8's synthetic sets and the shared datasets.
//
//   gpu_bench check            correctness + determinism, exit 1 on failure
//   gpu_bench bench [dir]      timing table (datasets read from dir/*.mtx[.gz])
//   gpu_bench small [full]     a small case (for compute-sanitizer)
//   gpu_bench big [dir]        > 2^31 products (text-like), > 2^31 outputs
//                              (debian_depends), sampled against the host
//   gpu_bench e2e              GXD_gpu_dense with host output, timed
//   gpu_bench variants [dir]   intersection kernel variants side by side
//   gpu_bench spsv [dir]       the SPSV against the naive merge
//   gpu_bench one METRIC SET [dir [kv]]   one metric, one set (kv: force a
//                              kernel variant), e.g. under a profiler
//
// Strategies, kernel variants and tile sizes are forced through the
// tuning override of cuda/gpu_tuning.h (TUNE below).  Without a usable GPU
// it prints so and exits 77, which ctest reads as skipped (gpu_check).

#include "gpu_internal.cuh"
#include "gpu_tuning.h"
#include <cusparse.h>
#include <vector>
#include <algorithm>
#include <random>
#include <chrono>
#include <sys/mman.h>
#include <string>
#include <stdlib.h>

#define CK(call) do { cudaError_t e_ = (call) ; if (e_ != cudaSuccess) { \
    fprintf (stderr, "CUDA %s: %s (%s:%d)\n", #call, cudaGetErrorString (e_), \
    __FILE__, __LINE__) ; exit (2) ; } } while (0)
#define CKS(call) do { cusparseStatus_t e_ = (call) ; if (e_ != CUSPARSE_STATUS_SUCCESS) { \
    fprintf (stderr, "cuSPARSE %s: %d (%s:%d)\n", #call, (int) e_, __FILE__, \
    __LINE__) ; exit (2) ; } } while (0)
// set one field of the tuning override (gpu_tuning.h), keep the others;
// 0 (false) puts that field back to its default
#define TUNE(field, value) do { gxd_gpu_tuning t_ ; GXD_gpu_get_tuning (&t_) ; \
    t_.field = (value) ; GXD_gpu_set_tuning (&t_) ; } while (0)
#define OK(call) do { char msg_ [GXD_MSG_LEN] = "" ; GrB_Info i_ = (call) ; \
    if (i_ != GrB_SUCCESS) { fprintf (stderr, "%s: %d %s\n", #call, (int) i_, \
    msg_) ; exit (2) ; } } while (0)

//------------------------------------------------------------------------------
// host matrices
//------------------------------------------------------------------------------

struct hmat
{
    int64_t m = 0, k = 0 ;
    std::vector<int64_t> p, j ;
    std::vector<double> x ;
    std::vector<float> xf ;
    gxd_csr csr (bool fp64) const
    {
        gxd_csr c ;
        c.nrows = m ; c.ncols = k ; c.p = p.data () ; c.j = j.data () ;
        c.x = fp64 ? (const void *) x.data () : (const void *) xf.data () ;
        return c ;
    }
    int64_t nnz () const { return p [m] ; }
} ;

// rows as (col, value) lists -> sorted CSR with duplicates summed
static hmat from_rows (int64_t k, std::vector<std::vector<std::pair<int64_t,double>>> &rows)
{
    hmat A ;
    A.m = rows.size () ; A.k = k ;
    A.p.push_back (0) ;
    for (auto &r : rows)
    {
        std::sort (r.begin (), r.end (), [] (const std::pair<int64_t,double> &a,
            const std::pair<int64_t,double> &b) { return a.first < b.first ; }) ;
        for (size_t q = 0 ; q < r.size () ; q++)
        {
            if (!A.j.empty () && (int64_t) A.j.size () > A.p.back ()
                && A.j.back () == r [q].first)
                A.x.back () += r [q].second ;
            else { A.j.push_back (r [q].first) ; A.x.push_back (r [q].second) ; }
        }
        A.p.push_back (A.j.size ()) ;
    }
    // float values: round once; the reference uses the rounded values too
    A.xf.resize (A.x.size ()) ;
    for (size_t q = 0 ; q < A.x.size () ; q++) A.xf [q] = (float) A.x [q] ;
    return A ;
}

static void use_float_values (hmat &A)
{
    for (size_t q = 0 ; q < A.x.size () ; q++) A.x [q] = (double) A.xf [q] ;
}

// issue 8's synthetic sets: degrees 1 + Pareto(1.5) * d/2 (Lomax, mean
// d + 1) capped at k/4, columns Zipf(1.1) over a random permutation, values
// uniform integers 1..5, duplicates summed
static hmat gen_powerlaw (int64_t m, int64_t k, double d, uint64_t seed)
{
    std::mt19937_64 g (seed) ;
    std::uniform_real_distribution<double> U (0, 1) ;
    std::vector<double> cdf (k) ;
    double s = 0 ;
    for (int64_t c = 0 ; c < k ; c++) { s += pow ((double) (c + 1), -1.1) ; cdf [c] = s ; }
    std::vector<int64_t> perm (k) ;
    for (int64_t c = 0 ; c < k ; c++) perm [c] = c ;
    std::shuffle (perm.begin (), perm.end (), g) ;
    std::vector<std::vector<std::pair<int64_t,double>>> rows (m) ;
    for (int64_t i = 0 ; i < m ; i++)
    {
        double lomax = pow (1 - U (g), -1 / 1.5) - 1 ;
        int64_t deg = 1 + (int64_t) (lomax * d / 2) ;
        if (deg > k / 4) deg = (k / 4 > 1) ? k / 4 : 1 ;
        for (int64_t t = 0 ; t < deg ; t++)
        {
            double u = U (g) * s ;
            int64_t c = std::lower_bound (cdf.begin (), cdf.end (), u) - cdf.begin () ;
            if (c >= k) c = k - 1 ;
            rows [i].push_back ({ perm [c], (double) (1 + (int) (U (g) * 5)) }) ;
        }
    }
    return from_rows (k, rows) ;
}

// Matrix Market (general; pattern -> 1), read through zcat when gzipped
static bool read_mtx (const std::string &path, hmat &A)
{
    std::string cmd = (path.size () > 3 && path.substr (path.size () - 3) == ".gz")
        ? "zcat '" + path + "'" : "cat '" + path + "'" ;
    FILE *f = popen (cmd.c_str (), "r") ;
    if (!f) return false ;
    char line [1024] ;
    bool pattern = false, first = true ;
    int64_t m = 0, k = 0, nz = 0 ;
    while (fgets (line, sizeof line, f))
    {
        if (first) { pattern = strstr (line, "pattern") != NULL ; first = false ; continue ; }
        if (line [0] == '%') continue ;
        sscanf (line, "%ld %ld %ld", &m, &k, &nz) ;
        break ;
    }
    if (m == 0) { pclose (f) ; return false ; }
    std::vector<std::vector<std::pair<int64_t,double>>> rows (m) ;
    for (int64_t q = 0 ; q < nz && fgets (line, sizeof line, f) ; q++)
    {
        long i, c ; double v = 1 ;
        if (pattern) sscanf (line, "%ld %ld", &i, &c) ;
        else sscanf (line, "%ld %ld %lf", &i, &c, &v) ;
        rows [i-1].push_back ({ c - 1, v }) ;
    }
    pclose (f) ;
    A = from_rows (k, rows) ;
    return true ;
}

//------------------------------------------------------------------------------
// host reference: the exact union in double
//------------------------------------------------------------------------------

static std::vector<gxd_row> host_rows (const gxd_plan &P, const hmat &A, bool left)
{
    gxd_metric_id m = P.metric ;
    std::vector<gxd_row> R (A.m) ;
    for (int64_t i = 0 ; i < A.m ; i++)
    {
        gxd_row_of (m, &P, &R [i], A.x.data () + A.p [i], A.p [i+1] - A.p [i],
            A.k, left) ;
    }
    return R ;
}

// distance and the tolerance scale of one pair
static double ref_pair (const gxd_plan &P, const hmat &A, int64_t i,
    const hmat &B, int64_t j, const gxd_row &ra, const gxd_row &rb, double *scale)
{
    gxd_metric_id m = P.metric ;
    double e = (m == GXD_GENERIC) ? P.identity : 0 ;
    gxd_ustate s = gxd_ubegin (m, &P) ;
    int64_t pa = A.p [i], pb = B.p [j], nu = 0 ;
    double sc = 0 ;
    while (pa < A.p [i+1] || pb < B.p [j+1])
    {
        int64_t ca = (pa < A.p [i+1]) ? A.j [pa] : INT64_MAX ;
        int64_t cb = (pb < B.p [j+1]) ? B.j [pb] : INT64_MAX ;
        double x = e, y = e ;
        if (ca <= cb) x = A.x [pa++] ;
        if (cb <= ca) y = B.x [pb++] ;
        if (ca == cb)
        {
            if (m == GXD_DOT) sc += fabs (x * y) ;
            if (m == GXD_KL_DIVERGENCE && x > 0 && y > 0) sc += fabs (x * log (x / y)) ;
        }
        gxd_ustep (m, &P, &s, x, y, &ra, &rb) ;
        nu++ ;
    }
    // cosine and correlation below ~1e-7 are conditioned by the last bit of
    // the row norms: an error of eps64 in 1/||x|| moves d by about
    // sqrt(2d)*eps64, more than 1e-12*d once d < 2.4e-8 (seen: 9.05e-14
    // differing in the 10th digit when the norms were summed in another
    // order).  So their FP64 scale is 1e-7; FP32 outputs are unaffected.
    if ((m == GXD_COSINE || m == GXD_CORRELATION) && P.fp64) sc = 1e-7 ;
    *scale = sc ;
    return gxd_uend (m, &P, &s, nu, &ra, &rb, A.k) ;
}

//------------------------------------------------------------------------------
// checks
//------------------------------------------------------------------------------

static int nfail = 0, ncheck = 0 ;

static bool close_enough (double got, double ref, double scale, bool fp64)
{
    double tol = fp64 ? 1e-12 : 1e-5 ;
    if (std::isnan (got)) return std::isnan (ref) ;
    if (std::isinf (ref) || std::isinf (got)) return got == ref ;
    return fabs (got - ref) <= tol * std::max (fabs (ref), scale) + 1e-300 ;
}

static const char *mname (const gxd_plan &P)
{
    static char buf [64] ;
    if (P.metric == GXD_GENERIC)
    {
        snprintf (buf, sizeof buf, "GENERIC(add %d, mult %d, id %g)", P.add, P.mult, P.identity) ;
        return buf ;
    }
    return gxd_metric_table [P.metric].name ;
}

// compare a dense GPU result with the reference; report the worst pair
static void compare_dense (const gxd_plan &P, const hmat &A, const hmat &B,
    const void *C, const char *what)
{
    auto RA = host_rows (P, A, true), RB = host_rows (P, B, false) ;
    double worst = 0 ; int64_t wi = -1, wj = -1 ; double wg = 0, wr = 0 ;
    int64_t bad = 0 ;
    for (int64_t i = 0 ; i < A.m ; i++)
        for (int64_t j = 0 ; j < B.m ; j++)
        {
            double sc, ref = ref_pair (P, A, i, B, j, RA [i], RB [j], &sc) ;
            double got = P.fp64 ? ((const double *) C) [i * B.m + j]
                                : ((const float *) C) [i * B.m + j] ;
            if (!close_enough (got, ref, sc, P.fp64))
            {
                double err = fabs (got - ref) / std::max (std::max (fabs (ref), sc), 1e-300) ;
                if (bad == 0 || err > worst) { worst = err ; wi = i ; wj = j ; wg = got ; wr = ref ; }
                bad++ ;
            }
        }
    ncheck++ ;
    if (bad)
    {
        nfail++ ;
        printf ("FAIL %-34s %s %s: %ld bad, worst (%ld,%ld) got %.17g ref %.17g\n",
            mname (P), P.fp64 ? "fp64" : "fp32", what, (long) bad, (long) wi,
            (long) wj, wg, wr) ;
    }
}

static void check_dense (gxd_plan P, hmat A, hmat B, const char *what)
{
    if (!P.fp64) { use_float_values (A) ; use_float_values (B) ; }
    size_t ts = P.fp64 ? 8 : 4 ;
    std::vector<char> C (std::max<int64_t> (1, A.m * B.m) * ts, 0x7f) ;
    char msg [GXD_MSG_LEN] = "" ;
    gxd_csr a = A.csr (P.fp64), b = B.csr (P.fp64) ;
    GrB_Info info = GXD_gpu_dense (&P, &a, &b, C.data (), msg) ;
    if (info != GrB_SUCCESS)
    {
        nfail++ ; ncheck++ ;
        printf ("FAIL %s %s: GrB_Info %d: %s\n", mname (P), what, (int) info, msg) ;
        return ;
    }
    compare_dense (P, A, B, C.data (), what) ;
}

static void check_sampled (gxd_plan P, hmat A, hmat B, uint64_t seed)
{
    if (!P.fp64) { use_float_values (A) ; use_float_values (B) ; }
    std::mt19937_64 g (seed) ;
    std::vector<int64_t> Mp (1, 0), Mj ;
    for (int64_t i = 0 ; i < A.m ; i++)
    {
        for (int64_t j = 0 ; j < B.m ; j++) if (g () % 3 == 0) Mj.push_back (j) ;
        Mp.push_back (Mj.size ()) ;
    }
    size_t ts = P.fp64 ? 8 : 4 ;
    std::vector<char> Cx (std::max<size_t> (1, Mj.size ()) * ts) ;
    char msg [GXD_MSG_LEN] = "" ;
    gxd_csr a = A.csr (P.fp64), b = B.csr (P.fp64) ;
    GrB_Info info = GXD_gpu_sampled (&P, &a, &b, Mp.data (), Mj.data (), Cx.data (), msg) ;
    ncheck++ ;
    if (info != GrB_SUCCESS) { nfail++ ; printf ("FAIL sampled %s: %s\n", mname (P), msg) ; return ; }
    auto RA = host_rows (P, A, true), RB = host_rows (P, B, false) ;
    int64_t bad = 0 ;
    for (int64_t i = 0 ; i < A.m ; i++)
        for (int64_t q = Mp [i] ; q < Mp [i+1] ; q++)
        {
            double sc, ref = ref_pair (P, A, i, B, Mj [q], RA [i], RB [Mj [q]], &sc) ;
            double got = P.fp64 ? ((double *) Cx.data ()) [q] : ((float *) Cx.data ()) [q] ;
            if (!close_enough (got, ref, sc, P.fp64)) bad++ ;
        }
    if (bad) { nfail++ ; printf ("FAIL sampled %s %s: %ld bad\n", mname (P), P.fp64 ? "fp64" : "fp32", (long) bad) ; }
}

// small random matrix: some empty rows, one dense row, values per sign
static hmat gen_small (int64_t m, int64_t k, double dens, bool nonneg, uint64_t seed,
    bool dense_row = true)
{
    std::mt19937_64 g (seed) ;
    std::uniform_real_distribution<double> U (0, 1) ;
    std::vector<std::vector<std::pair<int64_t,double>>> rows (m) ;
    for (int64_t i = 0 ; i < m ; i++)
    {
        if (i % 7 == 3) continue ;                          // empty rows
        bool full = dense_row && (i == 1) ;
        for (int64_t c = 0 ; c < k ; c++)
            if (full || U (g) < dens)
            {
                double v = (U (g) < 0.5) ? (double) (1 + g () % 5) : U (g) * 4 ;
                if (!nonneg && U (g) < 0.4) v = -v ;
                rows [i].push_back ({ c, v }) ;
            }
    }
    return from_rows (k, rows) ;
}

// B = rows of A, some scaled or perturbed slightly: near-duplicates
static hmat near_dups (const hmat &A, uint64_t seed)
{
    std::mt19937_64 g (seed) ;
    std::vector<std::vector<std::pair<int64_t,double>>> rows (A.m) ;
    for (int64_t i = 0 ; i < A.m ; i++)
        for (int64_t q = A.p [i] ; q < A.p [i+1] ; q++)
        {
            double v = A.x [q] ;
            // one entry off by 2^-20 (or two by 2^-22): distances tiny next
            // to the norms, yet well defined (an exactly scaled row would
            // give a cosine that is rounding noise)
            if (i % 3 == 1 && q == A.p [i]) v *= (1 + 1.0 / (1 << 20)) ;
            if (i % 3 == 2 && (q == A.p [i] || q + 1 == A.p [i+1])) v *= (1 - 1.0 / (1 << 22)) ;
            rows [i].push_back ({ A.j [q], v }) ;
        }
    return from_rows (A.k, rows) ;
}

// B = n copies of row r of A
static hmat copies (const hmat &A, int64_t r, int64_t n)
{
    std::vector<std::vector<std::pair<int64_t,double>>> rows (n) ;
    for (int64_t i = 0 ; i < n ; i++)
        for (int64_t q = A.p [r] ; q < A.p [r+1] ; q++) rows [i].push_back ({ A.j [q], A.x [q] }) ;
    return from_rows (A.k, rows) ;
}

static gxd_plan plan_of (int metric, bool fp64)
{
    gxd_plan P ;
    memset (&P, 0, sizeof P) ;
    P.metric = (gxd_metric_id) metric ; P.fp64 = fp64 ; P.p = 3 ;
    return P ;
}

static void run_checks (void)
{
    struct shape { const char *name ; int64_t m, n, k ; double dens ; } shapes [] =
    {
        { "mixed 37x29 k50", 37, 29, 50, 0.15 },
        { "k<32 (k=7)", 23, 19, 7, 0.4 },
        { "one row", 1, 1, 40, 0.3 },
        { "hash k=60000", 9, 11, 60000, 0.0005 },
        { "high-degree k=60000", 5, 6, 60000, 0.09 },   // rows of ~5400 entries
        // row 1 is full: 70,000 entries, past the fixed-point kernel's split
        // form (< 2^16 terms per output), so its 64-bit form in FP32
        { "a row of 70000 entries", 3, 3, 70000, 0.001 },
    } ;
    for (int fp = 0 ; fp < 2 ; fp++)
    for (int metric = 0 ; metric < GXD_NMETRICS ; metric++)
    {
        gxd_plan P = plan_of (metric, fp) ;
        bool nonneg = gxd_metric_table [metric].nonneg ;
        for (size_t s = 0 ; s < sizeof shapes / sizeof shapes [0] ; s++)
        {
            hmat A = gen_small (shapes [s].m, shapes [s].k, shapes [s].dens, nonneg, 11 + s) ;
            hmat B = gen_small (shapes [s].n, shapes [s].k, shapes [s].dens, nonneg, 101 + s) ;
            check_dense (P, A, B, shapes [s].name) ;
            if (s == 0)
            {
                check_dense (P, A, A, "self") ;
                check_dense (P, A, near_dups (A, 5), "near-duplicates") ;
                check_sampled (P, A, B, 9) ;
                // n tiles of 5 columns and row tiles of a few rows
                TUNE (tn, 5) ;
                TUNE (tile_bytes, 600) ;
                check_dense (P, A, B, "tiled n=5, row tiles") ;
                TUNE (tn, 0) ;
                TUNE (tile_bytes, 0) ;
                P.exact = true ;
                check_dense (P, A, near_dups (A, 5), "exact mode near-dups") ;
                P.exact = false ;
            }
            // every metric through the SPSV too
            TUNE (spsv, true) ;
            check_dense (P, A, B, (std::string ("spsv ") + shapes [s].name).c_str ()) ;
            TUNE (spsv, false) ;
        }
    }
    // 300 outputs of one row of A that need the exact merge (B: copies of
    // it): past the fixed-point kernel's list of 256, every output is
    // rechecked
    for (int fp = 0 ; fp < 2 ; fp++)
        for (int metric = 0 ; metric < GXD_NMETRICS ; metric++)
        {
            gxd_plan P = plan_of (metric, fp) ;
            hmat A = gen_small (5, 50, 0.3, gxd_metric_table [metric].nonneg, 21) ;
            check_dense (P, A, copies (A, 0, 300), "300 copies of one row") ;
        }
    // explicit zeros (entries whose value is 0) in A and B; for Canberra
    // also values at both ends of float's range (|x|+|y| past FLT_MAX,
    // subnormals): the fixed-point kernel's fast Canberra form must step
    // aside for all of them (fx_canberra_q22's range test)
    for (int fp = 0 ; fp < 2 ; fp++)
        for (int metric = 0 ; metric < GXD_NMETRICS ; metric++)
        {
            if (metric == GXD_KL_DIVERGENCE) continue ;    // log 0
            gxd_plan P = plan_of (metric, fp) ;
            bool nonneg = gxd_metric_table [metric].nonneg ;
            hmat A = gen_small (37, 50, 0.15, nonneg, 31), B = gen_small (29, 50, 0.15, nonneg, 32) ;
            // changed values: rounded to float once, the reference takes those
            auto refloat = [] (hmat &H)
            {
                for (size_t q = 0 ; q < H.x.size () ; q++) H.xf [q] = (float) H.x [q] ;
                use_float_values (H) ;
            } ;
            for (size_t q = 0 ; q < A.x.size () ; q++) if (q % 9 == 4) A.x [q] = 0 ;
            for (size_t q = 0 ; q < B.x.size () ; q++) if (q % 11 == 2) B.x [q] = 0 ;
            refloat (A) ; refloat (B) ;
            check_dense (P, A, B, "explicit zeros") ;
            if (metric != GXD_CANBERRA) continue ;
            A = gen_small (37, 50, 0.15, false, 33) ; B = gen_small (29, 50, 0.15, false, 34) ;
            for (size_t q = 0 ; q < A.x.size () ; q++) if (q % 13 == 5) A.x [q] *= 1e-40 ;
            for (size_t q = 0 ; q < B.x.size () ; q++) if (q % 17 == 1) B.x [q] *= 6e37 ;
            refloat (A) ; refloat (B) ;
            check_dense (P, A, B, "values at float's ends") ;
        }
    // Jensen-Shannon on integers (the fixed-point kernel's table form,
    // fx_js_int): every shape with values rounded to integers (some 0), then
    // some past the table (s >= 4096: the logarithm's form per product),
    // then every other row of A not all integers (those rows take the
    // logarithm's form), then one value of B not an integer (all of B does)
    for (int fp = 0 ; fp < 2 ; fp++)
        for (size_t s = 0 ; s < sizeof shapes / sizeof shapes [0] ; s++)
        {
            gxd_plan P = plan_of (GXD_JENSEN_SHANNON, fp) ;
            const hmat A0 = gen_small (shapes [s].m, shapes [s].k, shapes [s].dens, true, 41 + s) ;
            const hmat B0 = gen_small (shapes [s].n, shapes [s].k, shapes [s].dens, true, 141 + s) ;
            hmat A, B ;
            // values x 60 rounded (up to 300), every 7th x big instead
            auto to_ints = [] (const hmat &H0, double big)
            {
                hmat H = H0 ;
                for (size_t q = 0 ; q < H.x.size () ; q++)
                    H.x [q] = (q % 9 == 4) ? 0 : std::round (H.x [q] * ((q % 7 == 1) ? big : 60)) ;
                for (size_t q = 0 ; q < H.x.size () ; q++) H.xf [q] = (float) H.x [q] ;
                return H ;
            } ;
            A = to_ints (A0, 60) ; B = to_ints (B0, 60) ;
            std::string name = std::string ("integers ") + shapes [s].name ;
            check_dense (P, A, B, name.c_str ()) ;
            check_dense (P, A, A, (name + ", self").c_str ()) ;
            A = to_ints (A0, 7000) ; B = to_ints (B0, 5000) ;
            check_dense (P, A, B, (name + ", some past 4096").c_str ()) ;
            for (int64_t i = 0 ; i < A.m ; i += 2)
                if (A.p [i] < A.p [i+1]) { A.x [A.p [i]] += 0.25 ; A.xf [A.p [i]] += 0.25f ; }
            check_dense (P, A, B, (name + ", half the rows of A not").c_str ()) ;
            if (!B.x.empty ()) { B.x [0] += 0.5 ; B.xf [0] += 0.5f ; }
            check_dense (P, A, B, (name + ", a value of B not").c_str ()) ;
        }
    // generic plans of built-in ops
    struct gen { gxd_opcode add, mult ; double id ; } gens [] =
    {
        { GXD_OP_PLUS, GXD_OP_TIMES, 0 }, { GXD_OP_PLUS, GXD_OP_MINUS, 0 },
        { GXD_OP_PLUS, GXD_OP_ISNE, 0 }, { GXD_OP_MAX, GXD_OP_MINUS, 0 },
        { GXD_OP_MIN, GXD_OP_PLUS, 0 }, { GXD_OP_MAX, GXD_OP_TIMES, 1 },
        { GXD_OP_PLUS, GXD_OP_MAX, 0.5 }, { GXD_OP_TIMES, GXD_OP_MAX, 1 },
    } ;
    for (int fp = 0 ; fp < 2 ; fp++)
        for (auto &G : gens)
        {
            gxd_plan P = plan_of (GXD_GENERIC, fp) ;
            P.add = G.add ; P.mult = G.mult ; P.identity = G.id ;
            hmat A = gen_small (37, 50, 0.15, G.add == GXD_OP_TIMES, 3) ;
            hmat B = gen_small (29, 50, 0.15, G.add == GXD_OP_TIMES, 4) ;
            if (G.add == GXD_OP_TIMES)
            {
                // keep products of 50 terms in range
                for (auto &v : A.x) v = 1 + 0.01 * v ;
                for (auto &v : B.x) v = 1 + 0.01 * v ;
                for (size_t q = 0 ; q < A.x.size () ; q++) A.xf [q] = (float) A.x [q] ;
                for (size_t q = 0 ; q < B.x.size () ; q++) B.xf [q] = (float) B.x [q] ;
            }
            check_dense (P, A, B, "generic") ;
            check_dense (P, A, near_dups (A, 2), "generic near-dups") ;
            check_sampled (P, A, B, 7) ;
        }
    // Chebyshev with k > 65536: a's columns by binary search, not bits
    for (int fp = 0 ; fp < 2 ; fp++)
    {
        gxd_plan P = plan_of (GXD_CHEBYSHEV, fp) ;
        hmat A = gen_small (9, 100000, 0.0005, false, 21) ;
        hmat B = gen_small (11, 100000, 0.0005, false, 22) ;
        check_dense (P, A, B, "k=100000") ;
        check_dense (P, A, near_dups (A, 3), "k=100000 near-dups") ;
    }
}

//------------------------------------------------------------------------------
// determinism
//------------------------------------------------------------------------------

static bool same_bits (gxd_plan P, const hmat &A, int reps)
{
    size_t bytes = (size_t) A.m * A.m * (P.fp64 ? 8 : 4) ;
    std::vector<char> C0 (bytes), C1 (bytes) ;
    gxd_csr a = A.csr (P.fp64) ;
    OK (GXD_gpu_dense (&P, &a, &a, C0.data (), msg_)) ;
    for (int r = 1 ; r < reps ; r++)
    {
        memset (C1.data (), r, bytes) ;
        OK (GXD_gpu_dense (&P, &a, &a, C1.data (), msg_)) ;
        if (memcmp (C0.data (), C1.data (), bytes) != 0) return false ;
    }
    return true ;
}

static int run_determinism (void)
{
    hmat A = gen_powerlaw (6000, 20000, 60, 42) ;
    int bad = 0 ;
    int metrics [] = { GXD_MANHATTAN, GXD_COSINE, GXD_EUCLIDEAN, GXD_JENSEN_SHANNON,
        GXD_CHEBYSHEV } ;
    // the default kernels (mostly the fixed-point variant 3), then variant 1
    for (int kv : { 0, 1 })
    {
        TUNE (kv, kv) ;
        for (int metric : metrics)
        {
            gxd_plan P = plan_of (metric, false) ;
            bool same = same_bits (P, A, 3) ;
            printf ("determinism %-16s fp32 6000x6000 kv %d (3 runs): %s\n",
                gxd_metric_table [metric].name, kv, same ? "bitwise identical" : "DIFFERENT") ;
            bad += !same ;
        }
    }
    TUNE (kv, 0) ;
    // the exact union path (a plus-sum: the order matters)
    TUNE (spsv, true) ;
    {
        hmat S = gen_powerlaw (1500, 20000, 60, 43) ;
        bool same = same_bits (plan_of (GXD_MANHATTAN, false), S, 3) ;
        printf ("determinism MANHATTAN        fp32 1500x1500 SPSV (3 runs): %s\n",
            same ? "bitwise identical" : "DIFFERENT") ;
        bad += !same ;
    }
    TUNE (spsv, false) ;
    return bad ;
}

//------------------------------------------------------------------------------
// timing
//------------------------------------------------------------------------------

template <int M, typename T>
__global__ void k_naive (gxd_plan P, const int64_t *Ap, const int32_t *Aj,
    const T *Ax, const int64_t *Bp, const int32_t *Bj, const T *Bx,
    int64_t rows, int64_t n, int64_t k, T *C)
{
    int64_t q = blockIdx.x * (int64_t) blockDim.x + threadIdx.x ;
    if (q >= rows * n) return ;
    int64_t i = q / n, j = q % n ;
    gxd_row r ;
    gxd_row_begin (&r) ;
    // (no row context: the metrics timed here, L1, Canberra and JS, take none)
    C [q] = (T) gxd_union_merge<M, T> (P, Aj + Ap [i], Ax + Ap [i],
        Ap [i+1] - Ap [i], Bj + Bp [j], Bx + Bp [j], Bp [j+1] - Bp [j], r, r, k) ;
}

struct timer
{
    cudaEvent_t a, b ;
    timer () { CK (cudaEventCreate (&a)) ; CK (cudaEventCreate (&b)) ; }
    void start () { CK (cudaEventRecord (a)) ; }
    float stop () { CK (cudaEventRecord (b)) ; CK (cudaEventSynchronize (b)) ;
        float ms ; CK (cudaEventElapsedTime (&ms, a, b)) ; return ms ; }
} ;

static size_t used_bytes (void)
{
    size_t f, t ; CK (cudaMemGetInfo (&f, &t)) ; return t - f ;
}

// ms for all m x n pairs of metric through gxbdist (device output, tiles of
// at most tile_bytes), the median of reps; *extra = device bytes of the
// context (inputs, B by columns, norms, workspace)
static double time_gxd (int metric, const hmat &A, int64_t rows, int strategy,
    int reps, size_t *extra, double *checksum)
{
    gxd_plan P = plan_of (metric, false) ;
    gxd_csr a = A.csr (false) ;
    int64_t n = A.m ;
    a.nrows = A.m ;
    size_t tile_bytes = (size_t) 2 << 30 ;
    int64_t tile = std::min<int64_t> (rows, tile_bytes / (n * 4)) ;
    if (strategy == GXD_STRAT_SPSV) tile = std::min<int64_t> (tile, (size_t) 1500000000 / (n * 24)) ;
    size_t u0 = used_bytes () ;
    gxd_gpu_ctx G ;
    OK (gxd_gpu_open (&P, &a, &a, strategy, tile, false, &G, 0, msg_)) ;
    size_t u1 = used_bytes () ;
    float *dC ;
    CK (cudaMalloc (&dC, (size_t) tile * n * 4)) ;
    std::vector<double> t ;
    timer T ;
    for (int r = 0 ; r <= reps ; r++)
    {
        T.start () ;
        for (int64_t i0 = 0 ; i0 < rows ; i0 += tile)
            OK (gxd_gpu_run_tile (&G, i0, std::min (rows, i0 + tile), dC, 0, msg_)) ;
        float ms = T.stop () ;
        if (r > 0) t.push_back (ms) ;      // r = 0 warms up
    }
    CK (cudaGetLastError ()) ;
    // a value of the last tile, so the work cannot be skipped unnoticed
    float probe ;
    CK (cudaMemcpy (&probe, dC, 4, cudaMemcpyDeviceToHost)) ;
    *checksum = probe ;
    CK (cudaFree (dC)) ;
    gxd_ctx_free (&G) ;
    *extra = u1 - u0 ;
    std::sort (t.begin (), t.end ()) ;
    return t [t.size () / 2] ;
}

template <int M = GXD_MANHATTAN>
static double time_naive (const hmat &A, int64_t rows)
{
    gxd_plan P = plan_of (M, false) ;
    gxd_csr a = A.csr (false) ;
    gxd_dcsr D ;
    OK (gxd_upload_csr (&a, false, false, &D, 0, msg_)) ;
    float *dC ;
    int64_t n = A.m ;
    CK (cudaMalloc (&dC, (size_t) rows * n * 4)) ;
    timer T ;
    float ms = 0 ;
    for (int r = 0 ; r < 2 ; r++)
    {
        T.start () ;
        k_naive<M, float> <<<(unsigned) ((rows * n + 255) / 256), 256>>> (P, D.p, D.j,
            (const float *) D.x, D.p, D.j, (const float *) D.x, rows, n, A.k, dC) ;
        ms = T.stop () ;
    }
    CK (cudaGetLastError ()) ;
    CK (cudaFree (dC)) ;
    gxd_free_csr (&D) ;
    return ms ;
}

// cuSPARSE SpGEMM A * A' (sparse result), batches of 2048 rows of A;
// returns ms for all m x m pairs; *nnzC = entries of the product
static double time_cusparse (const hmat &A, int64_t *nnzC)
{
    int64_t m = A.m, k = A.k, nz = A.nnz () ;
    // A in int32 CSR, A' in int32 CSR (= A by columns), built on the host
    std::vector<int32_t> ap (m + 1), aj (nz), tp (k + 1, 0), tj (nz) ;
    std::vector<float> tx (nz) ;
    for (int64_t i = 0 ; i <= m ; i++) ap [i] = (int32_t) A.p [i] ;
    for (int64_t q = 0 ; q < nz ; q++) { aj [q] = (int32_t) A.j [q] ; tp [A.j [q] + 1]++ ; }
    for (int64_t c = 0 ; c < k ; c++) tp [c+1] += tp [c] ;
    std::vector<int32_t> fill (tp.begin (), tp.end () - 1) ;
    for (int64_t i = 0 ; i < m ; i++)
        for (int64_t q = A.p [i] ; q < A.p [i+1] ; q++)
        { int32_t d = fill [A.j [q]]++ ; tj [d] = (int32_t) i ; tx [d] = A.xf [q] ; }
    int32_t *dap, *daj, *dtp, *dtj, *dbp ; float *dax, *dtx ;
    CK (cudaMalloc (&dap, (m + 1) * 4)) ; CK (cudaMalloc (&daj, nz * 4 + 4)) ;
    CK (cudaMalloc (&dax, nz * 4 + 4)) ; CK (cudaMalloc (&dtp, (k + 1) * 4)) ;
    CK (cudaMalloc (&dtj, nz * 4 + 4)) ; CK (cudaMalloc (&dtx, nz * 4 + 4)) ;
    CK (cudaMalloc (&dbp, (2048 + 1) * 4)) ;
    CK (cudaMemcpy (dap, ap.data (), (m + 1) * 4, cudaMemcpyHostToDevice)) ;
    CK (cudaMemcpy (daj, aj.data (), nz * 4, cudaMemcpyHostToDevice)) ;
    CK (cudaMemcpy (dax, A.xf.data (), nz * 4, cudaMemcpyHostToDevice)) ;
    CK (cudaMemcpy (dtp, tp.data (), (k + 1) * 4, cudaMemcpyHostToDevice)) ;
    CK (cudaMemcpy (dtj, tj.data (), nz * 4, cudaMemcpyHostToDevice)) ;
    CK (cudaMemcpy (dtx, tx.data (), nz * 4, cudaMemcpyHostToDevice)) ;
    cusparseHandle_t h ;
    CKS (cusparseCreate (&h)) ;
    cusparseSpMatDescr_t mT ;
    CKS (cusparseCreateCsr (&mT, k, m, nz, dtp, dtj, dtx, CUSPARSE_INDEX_32I,
        CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F)) ;
    float alpha = 1, beta = 0 ;
    timer T ;
    double total = 0 ;
    *nnzC = 0 ;
    for (int pass = 0 ; pass < 2 ; pass++)
    {
        T.start () ;
        int64_t nzc = 0 ;
        for (int64_t r0 = 0 ; r0 < m ; r0 += 2048)
        {
            int64_t r1 = std::min (m, r0 + 2048), br = r1 - r0 ;
            std::vector<int32_t> bp (br + 1) ;
            for (int64_t i = 0 ; i <= br ; i++) bp [i] = ap [r0 + i] - ap [r0] ;
            CK (cudaMemcpy (dbp, bp.data (), (br + 1) * 4, cudaMemcpyHostToDevice)) ;
            cusparseSpMatDescr_t mA, mC ;
            CKS (cusparseCreateCsr (&mA, br, k, bp [br], dbp, daj + ap [r0],
                dax + ap [r0], CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F)) ;
            CKS (cusparseCreateCsr (&mC, br, m, 0, NULL, NULL, NULL,
                CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                CUDA_R_32F)) ;
            cusparseSpGEMMDescr_t sd ;
            CKS (cusparseSpGEMM_createDescr (&sd)) ;
            size_t b1 = 0, b2 = 0 ; void *w1 = NULL, *w2 = NULL ;
            auto op = CUSPARSE_OPERATION_NON_TRANSPOSE ;
            CKS (cusparseSpGEMM_workEstimation (h, op, op, &alpha, mA, mT, &beta,
                mC, CUDA_R_32F, CUSPARSE_SPGEMM_DEFAULT, sd, &b1, NULL)) ;
            CK (cudaMalloc (&w1, b1 + 1)) ;
            CKS (cusparseSpGEMM_workEstimation (h, op, op, &alpha, mA, mT, &beta,
                mC, CUDA_R_32F, CUSPARSE_SPGEMM_DEFAULT, sd, &b1, w1)) ;
            CKS (cusparseSpGEMM_compute (h, op, op, &alpha, mA, mT, &beta, mC,
                CUDA_R_32F, CUSPARSE_SPGEMM_DEFAULT, sd, &b2, NULL)) ;
            CK (cudaMalloc (&w2, b2 + 1)) ;
            CKS (cusparseSpGEMM_compute (h, op, op, &alpha, mA, mT, &beta, mC,
                CUDA_R_32F, CUSPARSE_SPGEMM_DEFAULT, sd, &b2, w2)) ;
            int64_t cr, cc, cn ;
            CKS (cusparseSpMatGetSize (mC, &cr, &cc, &cn)) ;
            int32_t *cp, *cj ; float *cx ;
            CK (cudaMalloc (&cp, (br + 1) * 4)) ; CK (cudaMalloc (&cj, cn * 4 + 4)) ;
            CK (cudaMalloc (&cx, cn * 4 + 4)) ;
            CKS (cusparseCsrSetPointers (mC, cp, cj, cx)) ;
            CKS (cusparseSpGEMM_copy (h, op, op, &alpha, mA, mT, &beta, mC,
                CUDA_R_32F, CUSPARSE_SPGEMM_DEFAULT, sd)) ;
            nzc += cn ;
            CK (cudaFree (cp)) ; CK (cudaFree (cj)) ; CK (cudaFree (cx)) ;
            CK (cudaFree (w1)) ; CK (cudaFree (w2)) ;
            CKS (cusparseSpGEMM_destroyDescr (sd)) ;
            CKS (cusparseDestroySpMat (mA)) ; CKS (cusparseDestroySpMat (mC)) ;
        }
        total = T.stop () ;
        *nnzC = nzc ;
    }
    CKS (cusparseDestroySpMat (mT)) ;
    CKS (cusparseDestroy (h)) ;
    cudaFree (dap) ; cudaFree (daj) ; cudaFree (dax) ; cudaFree (dtp) ;
    cudaFree (dtj) ; cudaFree (dtx) ; cudaFree (dbp) ;
    return total ;
}

// intermediate products of A*A': sum over columns of count^2
static double products (const hmat &A)
{
    std::vector<double> cnt (A.k, 0) ;
    for (int64_t q = 0 ; q < A.nnz () ; q++) cnt [A.j [q]]++ ;
    double s = 0 ;
    for (double c : cnt) s += c * c ;
    return s ;
}

// the benchmark's data: the three synthetic sets of issue 8 and the shared
// datasets found in dir (only: a part of a name, or NULL for all)
struct bench_set { std::string name ; hmat A ; } ;
static std::vector<bench_set> bench_sets (const char *dir, const char *only)
{
    std::vector<bench_set> sets ;
    auto want = [&] (const char *nm) { return only == NULL || strstr (nm, only) ; } ;
    if (want ("movielens")) sets.push_back ({ "movielens-like", gen_powerlaw (20000, 20000, 60, 1) }) ;
    if (want ("text")) sets.push_back ({ "text-like", gen_powerlaw (20000, 50000, 100, 2) }) ;
    if (want ("scrna")) sets.push_back ({ "scrna-like", gen_powerlaw (8000, 5000, 350, 3) }) ;
    for (const char *f : { "fortunes", "wordnet_lemma_3grams", "debian_depends" })
    {
        if (!want (f)) continue ;
        hmat A ;
        std::string base = std::string (dir) + "/" + f + ".mtx" ;
        if (read_mtx (base + ".gz", A) || read_mtx (base, A)) sets.push_back ({ f, A }) ;
        else printf ("(%s not found in %s)\n", f, dir) ;
    }
    return sets ;
}

static void run_bench (const char *dir, const char *only)
{
    std::vector<bench_set> sets = bench_sets (dir, only) ;
    int metrics [] = { GXD_MANHATTAN, GXD_CANBERRA, GXD_JENSEN_SHANNON, GXD_COSINE,
        GXD_EUCLIDEAN } ;
    std::vector<std::string> table ;
    char line [512] ;
    for (auto &S : sets)
    {
        hmat &A = S.A ;
        int64_t m = A.m ;
        double pairs = (double) m * m, mp = pairs / 1e6 ;
        printf ("\n== %s: %ld x %ld, nnz %ld, intermediate products %.3g, pairs %.3g\n",
            S.name.c_str (), (long) m, (long) A.k, (long) A.nnz (), products (A), pairs) ;
        fflush (stdout) ;
        double ms [5] ; size_t extra = 0 ; double cs ;
        for (int q = 0 ; q < 5 ; q++)
        {
            ms [q] = time_gxd (metrics [q], A, m, GXD_STRAT_INTERSECT, 3, &extra, &cs) ;
            printf ("  gxbdist %-15s %9.3f ms  %.4f ms/1e6 pairs  %.3g pairs/s  ctx %.1f MB\n",
                gxd_metric_table [metrics [q]].name, ms [q], ms [q] / mp,
                pairs / ms [q] * 1e3, extra / 1e6) ;
            fflush (stdout) ;
        }
        // JS on values that are not integers (x 1.1): fx_ln's form, not the
        // small-integer table's
        double ms_jsr ;
        {
            hmat R = A ;
            for (size_t q = 0 ; q < R.x.size () ; q++)
            {
                R.xf [q] = (float) (R.x [q] * 1.1) ; R.x [q] = R.xf [q] ;
            }
            size_t jsx ;    // (ctx MB stays the five metrics')
            ms_jsr = time_gxd (GXD_JENSEN_SHANNON, R, m, GXD_STRAT_INTERSECT, 3, &jsx, &cs) ;
            printf ("  gxbdist %-15s %9.3f ms  %.4f ms/1e6 pairs (values x 1.1: not integers)\n",
                "JENSEN_SHANNON", ms_jsr, ms_jsr / mp) ;
        }
        // naive and SPSV on a slice of rows (their cost is linear in rows)
        int64_t rs = std::min<int64_t> (m, 2048) ;
        const double rmp = (double) rs * m / 1e6 ;
        double naive = time_naive (A, rs) / rmp ;
        double naive_c = time_naive<GXD_CANBERRA> (A, rs) / rmp ;
        double naive_js = time_naive<GXD_JENSEN_SHANNON> (A, rs) / rmp ;
        printf ("  naive (%ld rows): L1 %.4f, Canberra %.4f, JS %.4f ms/1e6 pairs\n",
            (long) rs, naive, naive_c, naive_js) ;
        fflush (stdout) ;
        size_t sx ;
        int64_t rsp = std::min<int64_t> (m, 1024) ;
        double cheb = time_gxd (GXD_CHEBYSHEV, A, rsp, GXD_STRAT_SPSV, 1, &sx, &cs)
            / ((double) rsp * m / 1e6) ;
        TUNE (spsv, true) ;
        double spsvl1 = time_gxd (GXD_MANHATTAN, A, rsp, GXD_STRAT_SPSV, 1, &sx, &cs)
            / ((double) rsp * m / 1e6) ;
        TUNE (spsv, false) ;
        double chebf = time_gxd (GXD_CHEBYSHEV, A, m, GXD_STRAT_CHEBYSHEV, 3, &sx, &cs) / mp ;
        printf ("  spsv chebyshev %.4f, spsv L1 (exact) %.4f, chebyshev (intersection + extremes) %.4f ms/1e6 pairs\n",
            cheb, spsvl1, chebf) ;
        fflush (stdout) ;
        int64_t nnzC = 0 ;
        double csp = time_cusparse (A, &nnzC) / mp ;
        printf ("  cuSPARSE SpGEMM A*A' (2048-row batches) %.4f ms/1e6 pairs, nnz(C) %ld\n",
            csp, (long) nnzC) ;
        double floor_ms = 4.0 / 3.0e12 * 1e6 * 1e3 ;   // FP32 write of 1e6 outputs
        snprintf (line, sizeof line,
            "| %-20s | %7.4f | %7.4f | %7.4f | %7.4f | %7.4f | %7.4f | %7.4f | %7.4f | %7.4f | %7.4f | %7.4f | %7.4f | %7.4f | %.1fx %.1fx %.1fx | %.1fx %.1fx %.1fx | %6.0f | %.4f |",
            S.name.c_str (), ms [0] / mp, ms [1] / mp, ms [2] / mp, ms_jsr / mp, ms [3] / mp,
            ms [4] / mp, chebf, naive, naive_c, naive_js, cheb, spsvl1, csp,
            naive / (ms [0] / mp), naive_c / (ms [1] / mp), naive_js / (ms [2] / mp),
            naive / (ms [1] / mp), naive / (ms [2] / mp), naive / (ms_jsr / mp),
            extra / 1e6, floor_ms) ;
        table.push_back (line) ;
    }
    printf ("\nms per 10^6 output pairs, all pairs of one matrix, FP32, device-resident output"
            " (H100; median of 3)\n") ;
    printf ("| data | L1 | Canberra | JS | JS x1.1 | cosine | Euclid | Chebyshev | naive L1 | naive Canb |"
            " naive JS | SPSV Cheb | SPSV L1 exact | cuSPARSE | x naive, same metric (L1 Canb JS) |"
            " x naive L1 (Canb JS JSx1.1) | ctx MB | write floor |\n") ;
    printf ("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n") ;
    for (auto &l : table) printf ("%s\n", l.c_str ()) ;
}

// intersection kernel variants (gxd_gpu_tuning.kv, gpu_intersect.cu) side by
// side in one run: ms per 10^6 pairs, all pairs, FP32, device output
static void run_variants (const char *dir)
{
    std::vector<bench_set> sets = bench_sets (dir, NULL) ;
    int metrics [] = { GXD_MANHATTAN, GXD_CANBERRA, GXD_JENSEN_SHANNON, GXD_COSINE,
        GXD_EUCLIDEAN, GXD_SQEUCLIDEAN, GXD_HAMMING } ;
    std::vector<std::string> table ;
    char line [256] ;
    for (auto &S : sets)
    {
        hmat &A = S.A ;
        int64_t m = A.m ;
        double mp = (double) m * m / 1e6 ;
        int64_t rs = std::min<int64_t> (m, 2048) ;
        double naive = time_naive (A, rs) / ((double) rs * m / 1e6) ;
        for (int metric : metrics)
        {
            double r [2], cs [2] ; size_t extra ;
            const int kvs [2] = { 1, 3 } ;
            for (int v = 0 ; v < 2 ; v++)
            {
                TUNE (kv, kvs [v]) ;
                r [v] = time_gxd (metric, A, m, GXD_STRAT_INTERSECT, 5, &extra, &cs [v]) / mp ;
            }
            TUNE (kv, 0) ;
            snprintf (line, sizeof line,
                "| %-15s | %-15s | %7.4f | %7.4f | %5.2fx | %5.1fx | %5.1fx |",
                S.name.c_str (), gxd_metric_table [metric].name, r [0], r [1],
                r [0] / r [1], naive / r [0], naive / std::min (r [0], r [1])) ;
            printf ("%s\n", line) ;
            fflush (stdout) ;
            table.push_back (line) ;
        }
        snprintf (line, sizeof line, "| %-15s | naive L1        | %7.4f |", S.name.c_str (), naive) ;
        table.push_back (line) ;
    }
    printf ("\nkernel variants, ms per 10^6 pairs (median of 5), FP32, all pairs, device output\n") ;
    printf ("| data | metric | kv 1 (terms in phase) | kv 3 (fixed point) | kv1/kv3 | naive/kv1 | naive/best |\n") ;
    printf ("|---|---|---|---|---|---|---|\n") ;
    for (auto &l : table) printf ("%s\n", l.c_str ()) ;
}

// the SPSV against the naive merge, in one run: ms per 10^6 pairs, FP32,
// 1,024 rows x all rows, device output
static void run_spsv (const char *dir)
{
    std::vector<bench_set> sets = bench_sets (dir, NULL) ;
    std::vector<std::string> table ;
    char line [256] ;
    for (auto &S : sets)
    {
        const hmat &A = S.A ;
        const int64_t m = A.m, rs = std::min<int64_t> (m, 1024) ;
        const double mp = (double) rs * m / 1e6 ;
        double naive = time_naive (A, std::min<int64_t> (m, 2048))
            / ((double) std::min<int64_t> (m, 2048) * m / 1e6) ;
        double r [2], cs [2] ; size_t sx ;
        r [0] = time_gxd (GXD_CHEBYSHEV, A, rs, GXD_STRAT_SPSV, 3, &sx, &cs [0]) / mp ;
        TUNE (spsv, true) ;
        r [1] = time_gxd (GXD_MANHATTAN, A, rs, GXD_STRAT_SPSV, 3, &sx, &cs [1]) / mp ;
        TUNE (spsv, false) ;
        snprintf (line, sizeof line, "| %-20s | %7.4f | %7.4f | %7.4f | %5.2fx |",
            S.name.c_str (), naive, r [0], r [1], naive / r [1]) ;
        printf ("%s\n", line) ;
        fflush (stdout) ;
        table.push_back (line) ;
    }
    printf ("\nthe SPSV, ms per 10^6 pairs (median of 3), FP32, 1,024 rows x all, device output\n") ;
    printf ("| data | naive L1 | Chebyshev | L1 exact | naive/L1 exact |\n") ;
    printf ("|---|---|---|---|---|\n") ;
    for (auto &l : table) printf ("%s\n", l.c_str ()) ;
}

// one metric (its name in gxd_metric_table, e.g. MANHATTAN) on one set, all
// pairs, the default strategy and kernel (or kernel variant kv, when > 0),
// median of 5: a small run to compare builds or to put under a profiler
static int run_one (const char *metric, const char *set, const char *dir, int kv)
{
    int id = -1 ;
    for (int q = 0 ; q < GXD_NMETRICS ; q++)
        if (gxd_metric_table [q].name && !strcasecmp (gxd_metric_table [q].name, metric)) id = q ;
    std::vector<bench_set> sets = bench_sets (dir, set) ;
    if (id < 0 || sets.empty ()) { printf ("one: unknown metric or set\n") ; return 2 ; }
    hmat &A = sets [0].A ;
    // GXD_BENCH_SCALE: every value times this (1.1: JS's logarithm form)
    if (getenv ("GXD_BENCH_SCALE"))
    {
        const double f = atof (getenv ("GXD_BENCH_SCALE")) ;
        for (size_t q = 0 ; q < A.x.size () ; q++) { A.xf [q] = (float) (A.x [q] * f) ; A.x [q] = A.xf [q] ; }
    }
    size_t extra ; double cs ;
    TUNE (kv, kv) ;
    double ms = time_gxd (id, A, A.m, -1, 5, &extra, &cs) ;
    TUNE (kv, 0) ;
    printf ("%s %s: %.3f ms, %.4f ms/1e6 pairs\n", sets [0].name.c_str (), metric, ms,
        ms / ((double) A.m * A.m / 1e6)) ;
    return 0 ;
}

//------------------------------------------------------------------------------
// end-to-end: GXD_gpu_dense with host output (tiles streamed back)
//------------------------------------------------------------------------------

// the link's own device-to-host rate into pinned memory: the ceiling of
// any end-to-end run, measured on this machine in this run
static double pinned_rate (void)
{
    size_t bytes = (size_t) 1 << 30 ;
    void *d = NULL, *h = NULL ;
    CK (cudaMalloc (&d, bytes)) ;
    CK (cudaMallocHost (&h, bytes)) ;
    CK (cudaMemset (d, 1, bytes)) ;
    double best = 0 ;
    for (int r = 0 ; r < 3 ; r++)
    {
        auto t0 = std::chrono::steady_clock::now () ;
        CK (cudaMemcpy (h, d, bytes, cudaMemcpyDeviceToHost)) ;
        double s = std::chrono::duration<double> (std::chrono::steady_clock::now () - t0).count () ;
        if (bytes / 1e9 / s > best) best = bytes / 1e9 / s ;
    }
    CK (cudaFree (d)) ;
    CK (cudaFreeHost (h)) ;
    return best ;
}

// GXD_gpu_dense of all pairs of an m-row movielens-like set into host
// memory, Manhattan FP32: the floors (opening: upload and B by columns; all
// tiles computed on the device with nothing moved; the link alone), then
// reps calls into a result reused from call to call (its pages touched
// before) and reps into a new one each time, as GxB_mxm_distance allocates
// it (GXD_malloc_result: untouched, advised into huge pages).  The first
// call of the process also pins the staging buffers.  Returns the best
// reused-result rate as a share of the link.
static double e2e_case (int64_t m, double link, int reps)
{
    hmat A = gen_powerlaw (m, 20000, 60, 1) ;
    gxd_plan P = plan_of (GXD_MANHATTAN, false) ;
    gxd_csr a = A.csr (false) ;
    size_t bytes = (size_t) m * m * sizeof (float) ;
    std::vector<float> C ((size_t) m * m) ;
    auto now = [] { return std::chrono::steady_clock::now () ; } ;
    auto sec = [] (std::chrono::steady_clock::time_point t0)
        { return std::chrono::duration<double> (std::chrono::steady_clock::now () - t0).count () ; } ;
    auto t0 = now () ;
    gxd_gpu_ctx G ;
    OK (gxd_gpu_open (&P, &a, &a, -1, m, false, &G, 0, msg_)) ;
    CK (cudaDeviceSynchronize ()) ;
    double open = sec (t0) ;
    gxd_ctx_free (&G) ;
    size_t extra ; double sum ;
    double compute = time_gxd (GXD_MANHATTAN, A, m, GXD_STRAT_INTERSECT, 3, &extra, &sum) / 1e3 ;
    double reused = 1e30, fresh = 1e30 ;
    for (int r = 0 ; r < reps ; r++)
    {
        t0 = now () ;
        OK (GXD_gpu_dense (&P, &a, &a, C.data (), msg_)) ;
        reused = std::min (reused, sec (t0)) ;
    }
    bool same = true ;
    for (int r = 0 ; r < reps ; r++)
    {
        void *D = aligned_alloc ((size_t) 2 << 20, bytes) ;
        madvise (D, bytes, MADV_HUGEPAGE) ;
        t0 = now () ;
        OK (GXD_gpu_dense (&P, &a, &a, D, msg_)) ;
        fresh = std::min (fresh, sec (t0)) ;
        same = same && memcmp (D, C.data (), bytes) == 0 ;
        free (D) ;
    }
    double gb = bytes / 1e9 ;
    printf ("end-to-end %lld x %lld L1 fp32 (%.2f GB into host memory), best of %d: "
        "reused result %.1f ms = %.1f GB/s, new result %.1f ms = %.1f GB/s; "
        "floors: open %.1f ms, compute %.1f ms, link %.1f ms; output phase "
        "(reused minus open) %.0f %% of the link%s\n",
        (long long) m, (long long) m, gb, reps, reused * 1e3, gb / reused,
        fresh * 1e3, gb / fresh, open * 1e3, compute * 1e3, gb / link * 1e3,
        100 * gb / (reused - open) / link, same ? "" : "; RESULTS DIFFER") ;
    if (!same) exit (1) ;
    return gb / reused / link ;
}

static void run_end_to_end (void)
{
    double link = pinned_rate () ;
    printf ("device-to-host into pinned memory (cudaMemcpy, 1 GiB, best of 3): %.2f GB/s\n", link) ;
    double small = e2e_case (20000, link, 5) ;
    double large = e2e_case (40000, link, 3) ;
    printf ("e2e summary: whole call, reused result: 1.6 GB %.0f %%, 6.4 GB %.0f %% of the pinned link rate\n",
        100 * small, 100 * large) ;
}

//------------------------------------------------------------------------------
// big: more than 2^31 intermediate products, more than 2^31 outputs
//------------------------------------------------------------------------------

// GXD_gpu_dense into host memory, then random pairs and the corners checked
// against the host union loop: int64 offsets everywhere counts pass 2^31
static int check_big (const char *name, const hmat &A)
{
    gxd_plan P = plan_of (GXD_MANHATTAN, false) ;
    hmat F = A ;
    use_float_values (F) ;
    gxd_csr a = F.csr (false) ;
    size_t len = (size_t) F.m * F.m ;
    float *C = (float *) malloc (len * sizeof (float)) ;
    if (C == NULL) { printf ("big %s: no host memory\n", name) ; return 1 ; }
    auto t0 = std::chrono::steady_clock::now () ;
    OK (GXD_gpu_dense (&P, &a, &a, C, msg_)) ;
    double sec = std::chrono::duration<double> (std::chrono::steady_clock::now () - t0).count () ;
    auto RA = host_rows (P, F, true), RB = host_rows (P, F, false) ;
    std::mt19937_64 g (7) ;
    int64_t bad = 0, n = F.m ;
    for (int s = 0 ; s < 20004 ; s++)
    {
        int64_t i = (s < 4) ? ((s & 1) ? n - 1 : 0) : (int64_t) (g () % n) ;
        int64_t j = (s < 4) ? ((s & 2) ? n - 1 : 0) : (int64_t) (g () % n) ;
        double sc, ref = ref_pair (P, F, i, F, j, RA [i], RB [j], &sc) ;
        if (!close_enough (C [(size_t) i * n + j], ref, sc, false)) bad++ ;
    }
    printf ("big %-20s %ld x %ld: %.3g outputs, %.3g intermediate products, host output in %.2f s; 20004 sampled pairs: %ld wrong\n",
        name, (long) n, (long) n, (double) len, products (F), sec, (long) bad) ;
    free (C) ;
    return bad != 0 ;
}

static int run_big (const char *dir)
{
    // more than 2^31 intermediate products; more than 2^31 outputs (48,000^2
    // = 2.3e9, 9.2 GB of host memory), and the real set that has them
    // (debian_depends, 4.05e9 outputs) where dir holds it
    int bad = check_big ("text-like", gen_powerlaw (20000, 50000, 100, 2)) ;
    bad += check_big ("sparse 48000 rows", gen_powerlaw (48000, 30000, 5, 5)) ;
    hmat D ;
    std::string base = std::string (dir) + "/debian_depends.mtx" ;
    if (read_mtx (base + ".gz", D) || read_mtx (base, D)) bad += check_big ("debian_depends", D) ;
    else printf ("big: debian_depends not in %s: its case skipped\n", dir) ;
    return bad ;
}

int main (int argc, char **argv)
{
    const char *mode = argc > 1 ? argv [1] : "check" ;
    // 77: ctest's skip (gpu_check on a machine without a GPU); the
    // [ BACKEND  ] line is the one the cmocka suites print (scripts/test.sh
    // counts them)
    const bool check = !strcmp (mode, "check") ;
    if (!GXD_gpu_usable ())
    {
        printf (check ? "[ BACKEND  ] none (no GPU found: gpu_check skipped)\n"
            : "no usable GPU: skipped\n") ;
        return 77 ;
    }
    cudaDeviceProp prop ;
    CK (cudaGetDeviceProperties (&prop, 0)) ;
    if (check) printf ("[ BACKEND  ] gpu (gpu_bench check: the CUDA backend directly)\n") ;
    printf ("device: %s, %d SMs, %.1f GB\n", prop.name, prop.multiProcessorCount,
        prop.totalGlobalMem / 1e9) ;
    if (check)
    {
        run_checks () ;
        // every check again with each intersection variant forced on every
        // metric (3, then 1)
        TUNE (kv, 3) ;
        run_checks () ;
        TUNE (kv, 1) ;
        run_checks () ;
        TUNE (kv, 0) ;
        printf ("checks: %d of %d failed (defaults; variant 3; variant 1)\n",
            nfail, ncheck) ;
        int bad = run_determinism () ;
        return (nfail || bad) ? 1 : 0 ;
    }
    if (!strcmp (mode, "small"))
    {
        for (int metric : { GXD_MANHATTAN, GXD_COSINE, GXD_CHEBYSHEV, GXD_BRAYCURTIS })
        {
            gxd_plan P = plan_of (metric, false) ;
            hmat A = gen_small (37, 300, 0.1, true, 1), B = gen_small (29, 300, 0.1, true, 2) ;
            check_dense (P, A, B, "small") ;
            check_sampled (P, A, B, 3) ;
            TUNE (spsv, true) ;
            check_dense (P, A, B, "small spsv") ;
            TUNE (spsv, false) ;
            if (argc > 2 && !strcmp (argv [2], "full"))
            {
                // hash table and high-degree partition (slow under racecheck)
                hmat H = gen_small (4, 60000, 0.09, true, 5) ;
                check_dense (P, H, H, "small high-degree") ;
            }
        }
        printf ("small: %d of %d failed\n", nfail, ncheck) ;
        return nfail ? 1 : 0 ;
    }
    if (!strcmp (mode, "bench"))
    {
        run_bench (argc > 2 ? argv [2] : ".carry", argc > 3 ? argv [3] : NULL) ;
        return 0 ;
    }
    if (!strcmp (mode, "variants")) { run_variants (argc > 2 ? argv [2] : ".carry") ; return 0 ; }
    if (!strcmp (mode, "spsv")) { run_spsv (argc > 2 ? argv [2] : ".carry") ; return 0 ; }
    if (!strcmp (mode, "e2e")) { run_end_to_end () ; return 0 ; }
    if (!strcmp (mode, "big")) return run_big (argc > 2 ? argv [2] : ".carry") ? 1 : 0 ;
    if (!strcmp (mode, "one") && argc > 3)
        return run_one (argv [2], argv [3], argc > 4 ? argv [4] : ".carry",
            argc > 5 ? atoi (argv [5]) : 0) ;
    fprintf (stderr, "usage: gpu_bench check|small [full]|bench [dir [only]]|big [dir]|e2e|variants [dir]|spsv [dir]|one METRIC SET [dir [kv]]\n") ;
    return 2 ;
}
