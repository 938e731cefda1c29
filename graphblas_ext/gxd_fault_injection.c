// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// graphblas_ext/gxd_fault_injection.c: a wrong result, on purpose
//------------------------------------------------------------------------------

// A test hook (gxd_test_hooks.h), not part of the API: it lets the tests
// and the demo prove that verify mode catches a wrong result (gxd_compute.c
// perturbs the first entry of each backend result while this is on).

#include "gxd_internal.h"
#include "gxd_test_hooks.h"

void GXD_set_fault_injection (bool on)
{
    GXD_settings.fault = on ;
}
