//------------------------------------------------------------------------------
// graphblas_ext/GxB_Distance_set_fault_injection.c: a wrong result, on purpose
//------------------------------------------------------------------------------

// Lets tests prove that verify mode catches a wrong result (gxd_compute.c
// perturbs the first entry of each backend result while this is on).

#include "gxd_internal.h"

GrB_Info GxB_Distance_set_fault_injection (bool on)
{
    GXD_error_clear () ;
    GXD_settings.fault = on ;
    return GrB_SUCCESS ;
}
