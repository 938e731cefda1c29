// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// graphblas_ext/gxd_fault_injection.c: a wrong result, on purpose
//------------------------------------------------------------------------------

// A test hook (gxd_test_hooks.h), not part of the API: it lets the tests
// and the demo prove that verify mode catches a wrong result (gxd_compute.c
// and gxd_product.c perturb the first entry of each result while this is
// on, by GXD_fault_value).

#include "gxd_internal.h"
#include "gxd_test_hooks.h"

void GXD_set_fault_injection (bool on)
{
    GXD_settings.fault = on ;
}

// the wrong value that replaces a floating-point x: 2x + 1, except at its
// fixed point x = -1
double GXD_fault_value (double x)
{
    return (x == -1) ? 1 : 2 * x + 1 ;
}
