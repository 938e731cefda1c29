// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// tests/test_csr_file.c: the benchmarks' .csr reader on good and bad files
//------------------------------------------------------------------------------

// tools/gxd_csr_file.c reads files nobody checked (bench/knn_bench.c and
// mpi/bench_knn_mpi.c take them from the command line): a valid file gives
// its exact matrix, with 32- and 64-bit column indices; every way a file can
// be wrong (short, a bad header, a size that does not add up, row pointers
// that do not start at 0, end at nnz or increase, a column index out of
// range, repeated or unsorted) gives GrB_INVALID_VALUE and *A NULL.  The
// sanitizer build runs this file under ASan and UBSan.

#include "test_common.h"
#include "gxd_csr_file.h"

#include <unistd.h>

// a .csr file's parts, written as they are (so that each can be wrong)
typedef struct
{
    char magic [8] ;
    int64_t order, m, n, nnz, ib, vb, reserved ;
    const int64_t *p ;          // m+1
    const int64_t *j ;          // nx, written in ib bytes each
    const float *x ;            // nx
    int64_t nx ;                // the entries written (nnz claims a count)
    int64_t cut ;               // bytes left off the end (0: none)
}
csr_parts ;

static char path [64] ;

static void write_parts (const csr_parts *c)
{
    snprintf (path, sizeof (path), "/tmp/gxt_csr_XXXXXX") ;
    int fd = mkstemp (path) ;
    assert_true (fd >= 0) ;
    FILE *f = fdopen (fd, "wb") ;
    assert_non_null (f) ;
    fwrite (c->magic, 1, 8, f) ;
    int64_t h [7] = { c->order, c->m, c->n, c->nnz, c->ib, c->vb, c->reserved } ;
    fwrite (h, sizeof (int64_t), 7, f) ;
    if (c->p != NULL) fwrite (c->p, sizeof (int64_t), (size_t) c->m + 1, f) ;
    for (int64_t q = 0 ; c->j != NULL && q < c->nx ; q++)
    {
        int32_t j32 = (int32_t) c->j [q] ;
        if (c->ib == 4) fwrite (&j32, 4, 1, f) ;
        else fwrite (&c->j [q], 8, 1, f) ;
    }
    if (c->x != NULL) fwrite (c->x, sizeof (float), (size_t) c->nx, f) ;
    long size = ftell (f) ;
    fclose (f) ;
    if (c->cut > 0) assert_int_equal (truncate (path, size - c->cut), 0) ;
}

// the file of c gives want (and *A NULL on failure)
static GrB_Matrix read_parts (const csr_parts *c, GrB_Info want, const char *what)
{
    write_parts (c) ;
    GrB_Matrix A = (GrB_Matrix) (uintptr_t) 1 ;
    GrB_Info info = GXD_csr_read (&A, path) ;
    unlink (path) ;
    if (info != want) GXT_FAIL ("%s: GrB_Info %d, want %d", what, (int) info, (int) want) ;
    if (want != GrB_SUCCESS && A != NULL) GXT_FAIL ("%s: *A not NULL on failure", what) ;
    return A ;
}

// a 3 x 5 matrix: row 0 {1, 4}, row 1 empty, row 2 {0, 2, 3}
static const int64_t P [4] = { 0, 2, 2, 5 } ;
static const int64_t J [5] = { 1, 4, 0, 2, 3 } ;
static const float X [5] = { 1.5f, -2, 0, 3.25f, 1e-30f } ;

static csr_parts good (int64_t ib)
{
    csr_parts c = { { 'G', 'X', 'D', 'C', 'S', 'R', '0', '1' }, 0x0102030405060708LL,
        3, 5, 5, ib, 4, 0, P, J, X, 5, 0 } ;
    return c ;
}

static void valid_files_give_their_exact_matrix (void **state)
{
    GXT_START ( ) ;
    for (int64_t ib = 4 ; ib <= 8 ; ib += 4)
    {
        csr_parts c = good (ib) ;
        GrB_Matrix A = read_parts (&c, GrB_SUCCESS, "valid") ;
        GrB_Index m, n, nv ;
        GrB_Type type ;
        GXT_OK (GrB_Matrix_nrows (&m, A)) ;
        GXT_OK (GrB_Matrix_ncols (&n, A)) ;
        GXT_OK (GrB_Matrix_nvals (&nv, A)) ;
        GXT_OK (GxB_Matrix_type (&type, A)) ;
        assert_int_equal (m, 3) ;
        assert_int_equal (n, 5) ;
        assert_int_equal (nv, 5) ;
        assert_true (type == GrB_FP32) ;
        for (int i = 0 ; i < 3 ; i++)
        {
            for (int64_t q = P [i] ; q < P [i+1] ; q++)
            {
                float v = -1 ;
                GXT_OK (GrB_Matrix_extractElement_FP32 (&v, A, i, J [q])) ;
                assert_memory_equal (&v, &X [q], sizeof (float)) ;   // bit for bit
            }
        }
        GrB_Matrix_free (&A) ;
    }
    // no rows, no entries
    csr_parts c = good (4) ;
    const int64_t p0 [1] = { 0 } ;
    c.m = 0 ; c.nnz = 0 ; c.nx = 0 ; c.p = p0 ; c.j = NULL ; c.x = NULL ;
    GrB_Matrix E = read_parts (&c, GrB_SUCCESS, "empty") ;
    GrB_Index nv ;
    GXT_OK (GrB_Matrix_nvals (&nv, E)) ;
    assert_int_equal (nv, 0) ;
    GrB_Matrix_free (&E) ;
}

static void bad_files_are_invalid_value_and_a_null_matrix (void **state)
{
    GXT_START ( ) ;
    const int64_t p_first [4] = { 1, 2, 2, 5 }, p_last [4] = { 0, 2, 2, 4 } ;
    const int64_t p_down [4] = { 0, 2, 1, 5 } ;
    const int64_t j_past [5] = { 1, 5, 0, 2, 3 }, j_unsorted [5] = { 4, 1, 0, 2, 3 } ;
    const int64_t j_repeat [5] = { 1, 4, 0, 2, 2 }, j_negative [5] = { 1, 4, -1, 2, 3 } ;
    for (int64_t ib = 4 ; ib <= 8 ; ib += 4)
    {
        csr_parts c ;
        #define BAD(what, change) \
            { c = good (ib) ; change ; (void) read_parts (&c, GrB_INVALID_VALUE, what) ; }
        BAD ("magic", c.magic [7] = '2')
        BAD ("byte order", c.order = 0x0807060504030201LL)
        BAD ("negative m", c.m = -1)
        BAD ("m past 2^60", c.m = (int64_t) 1 << 61)
        BAD ("index bytes", c.ib = 2)
        BAD ("value bytes", c.vb = 8)
        BAD ("reserved", c.reserved = 7)
        BAD ("more entries claimed", c.nnz = 6)
        BAD ("one byte short", c.cut = 1)
        BAD ("header only", { c.p = NULL ; c.j = NULL ; c.x = NULL ; })
        BAD ("pointers not from 0", c.p = p_first)
        BAD ("pointers not to nnz", c.p = p_last)
        BAD ("pointers decrease", c.p = p_down)
        BAD ("column past n", c.j = j_past)
        BAD ("columns unsorted", c.j = j_unsorted)
        BAD ("column repeated", c.j = j_repeat)
        BAD ("column negative", c.j = j_negative)
        #undef BAD
    }
    // shorter than the header, and no file at all
    csr_parts c = good (4) ;
    write_parts (&c) ;
    assert_int_equal (truncate (path, 20), 0) ;
    GrB_Matrix A = (GrB_Matrix) (uintptr_t) 1 ;
    assert_int_equal (GXD_csr_read (&A, path), GrB_INVALID_VALUE) ;
    assert_null (A) ;
    unlink (path) ;
    A = (GrB_Matrix) (uintptr_t) 1 ;
    assert_int_equal (GXD_csr_read (&A, "/nonexistent/gxt.csr"), GrB_INVALID_VALUE) ;
    assert_null (A) ;
}

static const struct CMUnitTest tests [ ] =
{
    cmocka_unit_test (valid_files_give_their_exact_matrix),
    cmocka_unit_test (bad_files_are_invalid_value_and_a_null_matrix),
} ;

GXT_MAIN ("the .csr reader", tests)
