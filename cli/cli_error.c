// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// cli/cli_error.c: the command's one message
//------------------------------------------------------------------------------

// The command stops at its first failure, so one message is all it keeps:
// ours (a bad option, a labels file of the wrong length), the reader's (with
// its line number), or the library's (GxB_Distance_error).  main prints it as
// the one line "gxbdist: <message>".

#include "cli.h"
#include "gxd_info_name.h"

#include <stdarg.h>
#include <stdio.h>

static char message [2048] = "" ;

GrB_Info cli_fail (GrB_Info info, const char *fmt, ...)
{
    va_list ap ;
    va_start (ap, fmt) ;
    vsnprintf (message, sizeof (message), fmt, ap) ;
    va_end (ap) ;
    return info ;
}

const char *cli_message (void)
{
    return message ;
}

const char *cli_info_name (GrB_Info info)
{
    const char *name = GXD_info_name (info) ;
    return (name != NULL) ? name : "an unknown GrB_Info" ;
}

GrB_Info cli_fail_call (GrB_Info info, const char *call)
{
    const char *msg = NULL ;
    if (GxB_Distance_error (&msg) == GrB_SUCCESS && msg != NULL
        && msg [0] != '\0')
    {
        return cli_fail (info, "%s", msg) ;
    }
    // a GraphBLAS call, which leaves no gxbdist message
    if (info == GrB_OUT_OF_MEMORY)
    {
        return cli_fail (info, "out of memory (%s)", call) ;
    }
    return cli_fail (info, "%s failed: %s", call, cli_info_name (info)) ;
}
