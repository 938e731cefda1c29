// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// tools/gxd_csr_file.c: the benchmarks' binary sparse matrices (.csr)
//------------------------------------------------------------------------------

// A .csr file (fast to load, 100M entries in a second or two; written by
// bench/seed_to_csr.py), little-endian, no padding:
//   bytes  0..7   magic "GXDCSR01"
//          8..15  int64 0x0102030405060708 (byte order check)
//         16..23  int64 m (rows)
//         24..31  int64 n (columns)
//         32..39  int64 nnz
//         40..47  int64 index bytes: 4 (int32 column indices) or 8 (int64)
//         48..55  int64 value bytes: 4 (float32 values; the only one)
//         56..63  int64 0 (reserved)
//   then int64 row pointers [m+1] (0 first, nondecreasing, nnz last), the
//   column indices [nnz] (strictly increasing within each row: sorted, no
//   duplicates; 0 <= j < n), float32 values [nnz]; the file ends there.
//   Everything is checked before the arrays are handed to GraphBLAS
//   (GxB_Matrix_pack_CSR: no copy).

#define _POSIX_C_SOURCE 200809L
#define _FILE_OFFSET_BITS 64
#include "gxd_csr_file.h"
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static GrB_Info csr_fail (GrB_Info info, const char *path, const char *fmt, ...)
{
    va_list ap ;
    va_start (ap, fmt) ;
    fprintf (stderr, "gxd_csr_file: %s: ", path) ;
    vfprintf (stderr, fmt, ap) ;
    fprintf (stderr, "\n") ;
    va_end (ap) ;
    return info ;
}

static bool read_all (FILE *f, void *p, size_t size, size_t count)
{
    // in pieces of at most 1 GiB (some C libraries stop short of 2 GiB)
    char *q = p ;
    size_t total = size * count, done = 0 ;
    while (done < total)
    {
        size_t piece = total - done ;
        if (piece > ((size_t) 1 << 30)) piece = (size_t) 1 << 30 ;
        if (fread (q + done, 1, piece, f) != piece) return false ;
        done += piece ;
    }
    return true ;
}

// a .csr file (format at the top) into a new FP32 matrix *A
GrB_Info GXD_csr_read (GrB_Matrix *A, const char *path)
{
    *A = NULL ;
    FILE *f = fopen (path, "rb") ;
    if (f == NULL) return csr_fail (GrB_INVALID_VALUE, path, "cannot open") ;
    struct stat st ;
    char magic [8] ;
    int64_t h [7] ;
    if (fstat (fileno (f), &st) != 0 || fread (magic, 1, 8, f) != 8
        || fread (h, sizeof (int64_t), 7, f) != 7)
    {
        fclose (f) ;
        return csr_fail (GrB_INVALID_VALUE, path, "shorter than the 64-byte header") ;
    }
    int64_t m = h [1], n = h [2], nnz = h [3], ib = h [4], vb = h [5] ;
    const char *bad = NULL ;
    if (memcmp (magic, "GXDCSR01", 8)) bad = "not a .csr file (magic)" ;
    else if (h [0] != 0x0102030405060708LL) bad = "byte order (big-endian?)" ;
    else if (m < 0 || n < 0 || nnz < 0 || m >= ((int64_t) 1 << 60)
        || n >= ((int64_t) 1 << 60) || nnz >= ((int64_t) 1 << 60))
        bad = "m, n or nnz negative or past 2^60" ;
    else if (ib != 4 && ib != 8) bad = "index bytes not 4 or 8" ;
    else if (vb != 4) bad = "value bytes not 4 (float32)" ;
    else if (h [6] != 0) bad = "reserved field not 0" ;
    if (bad == NULL)
    {
        unsigned __int128 want = 64 + 8 * ((unsigned __int128) m + 1)
            + (unsigned __int128) (ib + vb) * (unsigned __int128) nnz ;
        if (want != (unsigned __int128) st.st_size)
            bad = "size not 64 + 8 (m+1) + (index bytes + 4) nnz" ;
    }
    if (bad != NULL)
    {
        fclose (f) ;
        return csr_fail (GrB_INVALID_VALUE, path, "%s", bad) ;
    }
    // sizes are bounded by the file's, so these allocations are sane
    size_t ap_size = (size_t) (m + 1) * sizeof (GrB_Index) ;
    size_t aj_size = (size_t) (nnz > 0 ? nnz : 1) * sizeof (GrB_Index) ;
    size_t ax_size = (size_t) (nnz > 0 ? nnz : 1) * sizeof (float) ;
    GrB_Index *Ap = malloc (ap_size), *Aj = malloc (aj_size) ;
    float *Ax = malloc (ax_size) ;
    int32_t *buf = (ib == 4) ? malloc (((size_t) 1 << 20) * sizeof (int32_t))
        : NULL ;
    bool ok = (Ap && Aj && Ax && (ib == 8 || buf)) ;
    GrB_Info fail = ok ? GrB_INVALID_VALUE : GrB_OUT_OF_MEMORY ;
    if (!ok) bad = "out of memory" ;
    // row pointers (int64 bits into uint64: the checks below see them)
    if (ok && !read_all (f, Ap, sizeof (int64_t), (size_t) m + 1))
    {
        ok = false ; bad = "read error (row pointers)" ;
    }
    // column indices: int64 directly, int32 through buf
    if (ok && ib == 8 && !read_all (f, Aj, sizeof (int64_t), (size_t) nnz))
    {
        ok = false ; bad = "read error (column indices)" ;
    }
    for (int64_t p = 0 ; ok && ib == 4 && p < nnz ; )
    {
        size_t c = (size_t) (nnz - p) ;
        if (c > ((size_t) 1 << 20)) c = (size_t) 1 << 20 ;
        if (fread (buf, sizeof (int32_t), c, f) != c)
        {
            ok = false ; bad = "read error (column indices)" ;
            break ;
        }
        for (size_t q = 0 ; q < c ; q++)
        {
            // a negative int32 becomes a huge index, refused below
            Aj [p + (int64_t) q] = (GrB_Index) (int64_t) buf [q] ;
        }
        p += (int64_t) c ;
    }
    if (ok && !read_all (f, Ax, sizeof (float), (size_t) nnz))
    {
        ok = false ; bad = "read error (values)" ;
    }
    free (buf) ;
    fclose (f) ;
    // every row pointer and column index is checked before GraphBLAS sees it
    int64_t fault = -1 ;
    if (ok && (Ap [0] != 0 || Ap [m] != (GrB_Index) nnz))
    {
        ok = false ; bad = "row pointers do not start at 0 and end at nnz" ;
    }
    for (int64_t i = 0 ; ok && i < m ; i++)
    {
        if (Ap [i] > Ap [i+1] || Ap [i+1] > (GrB_Index) nnz)
        {
            ok = false ; bad = "row pointers decrease or pass nnz at row" ;
            fault = i ;
            break ;
        }
        for (GrB_Index p = Ap [i] ; p < Ap [i+1] ; p++)
        {
            if (Aj [p] >= (GrB_Index) n || (p > Ap [i] && Aj [p] <= Aj [p-1]))
            {
                ok = false ; fault = i ;
                bad = "column index out of range, unsorted or repeated in row" ;
                break ;
            }
        }
    }
    if (ok)
    {
        GrB_Info info = GrB_Matrix_new (A, GrB_FP32, (GrB_Index) m,
            (GrB_Index) n) ;
        if (info == GrB_SUCCESS)
        {
            info = GxB_Matrix_pack_CSR (*A, &Ap, &Aj, (void **) &Ax, ap_size,
                aj_size, ax_size, false, false, NULL) ;
        }
        if (info != GrB_SUCCESS)
        {
            ok = false ; bad = "GraphBLAS refused the arrays" ;
            fail = info ;
            GrB_Matrix_free (A) ;
        }
    }
    // after a pack the pointers are NULL
    free (Ap) ; free (Aj) ; free (Ax) ;
    if (!ok)
    {
        if (fault >= 0) return csr_fail (fail, path, "%s %" PRId64, bad, fault) ;
        return csr_fail (fail, path, "%s", bad) ;
    }
    return GrB_SUCCESS ;
}
