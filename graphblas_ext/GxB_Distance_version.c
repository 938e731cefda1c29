// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// graphblas_ext/GxB_Distance_version.c: the version of the library loaded
//------------------------------------------------------------------------------

// The header's GXBDIST_VERSION_* say what a program was compiled against;
// this says what it runs with (a newer libgxbdist.so may be installed since).
// The header is the one source of the numbers: CMakeLists.txt reads them
// from it for the project and library versions.  Needs no GxB_Distance_init.

#include "gxd_internal.h"

GrB_Info GxB_Distance_version (int *major, int *minor, int *sub)
{
    GXD_error_clear () ;
    if (major == NULL || minor == NULL || sub == NULL)
    {
        return GXD_error (GrB_NULL_POINTER, "GxB_Distance_version: %s is NULL",
            major == NULL ? "major" : (minor == NULL ? "minor" : "sub")) ;
    }
    (*major) = GXBDIST_VERSION_MAJOR ;
    (*minor) = GXBDIST_VERSION_MINOR ;
    (*sub)   = GXBDIST_VERSION_SUB ;
    return GrB_SUCCESS ;
}
