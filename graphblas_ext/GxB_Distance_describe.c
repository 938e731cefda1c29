// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// graphblas_ext/GxB_Distance_describe.c: what a distance semiring computes
//------------------------------------------------------------------------------

// A library that runs GxB_kNN in pieces (gxbdist_mpi, one piece per
// process) must know the order of the candidates (largest first for DOT)
// and their type, and must check that every process asks for the same
// distance.  Handles of predefined semirings are addresses, different in
// every process, and GraphBLAS' own description of a semiring cannot tell
// cosine from dot (both PLUS.TIMES) nor carry a Minkowski p or a NAMM
// identity, which gxbdist keeps in its registry: the key names the metric
// from the registry, else the semantics and GraphBLAS' text of the
// semiring.

#include "gxd_neighbors.h"
#include <stdio.h>

GrB_Info GxB_Distance_describe (char *key, size_t key_size,
    bool *largest_first, GrB_Type *result_type, const GrB_Semiring dist,
    const GrB_Descriptor desc)
{
    #define GXD_FREE_ALL if (f != NULL) fclose (f) ; free (text) ;
    FILE *f = NULL ;
    char *text = NULL ;
    size_t len = 0 ;
    GXD_error_clear () ;
    GXD_CHECK_INIT ;
    GXD_CHECK_NULL (key, "GxB_Distance_describe: key") ;
    GXD_CHECK_NULL (largest_first, "GxB_Distance_describe: largest_first") ;
    GXD_CHECK_NULL (result_type, "GxB_Distance_describe: result_type") ;
    GXD_CHECK_NULL (dist, "GxB_Distance_describe: dist") ;
    gxd_call call ;
    GXD_TRY (GXD_resolve (&call, "GxB_Distance_describe", dist, desc)) ;
    (*largest_first) = gxd_largest_first (&call) ;
    GXD_TRY (GXD_neighbors_type (result_type, &call)) ;
    int n ;
    gxd_sr_entry e ;
    if (GXD_registry_find (dist, &e) && e.kind == GXD_SR_METRIC)
    {
        // p and the type are all a metric semiring holds; %a is exact
        n = snprintf (key, key_size, "metric %s %s p=%a", call.name,
            e.fp64 ? "fp64" : "fp32", e.p) ;
    }
    else
    {
        f = open_memstream (&text, &len) ;
        if (f == NULL)
        {
            GXD_FAIL (GrB_OUT_OF_MEMORY, "GxB_Distance_describe: out of memory") ;
        }
        GXD_TRY (GxB_Semiring_fprint (dist, "dist", GxB_COMPLETE, f)) ;
        if (fclose (f) != 0)
        {
            f = NULL ;
            GXD_FAIL (GrB_OUT_OF_MEMORY, "GxB_Distance_describe: out of memory") ;
        }
        f = NULL ;
        n = snprintf (key, key_size, "%s identity=%a\n%s", call.name,
            call.identity, text) ;
    }
    if (n < 0 || (size_t) n >= key_size)
    {
        GXD_FAIL (GrB_INSUFFICIENT_SPACE, "GxB_Distance_describe: the key "
            "needs %d bytes, key_size is %zu", n + 1, key_size) ;
    }
    GXD_FREE_ALL ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}
