// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// cuda/gpu_user_templates.cu: the build's tool for the user kernels' templates
//------------------------------------------------------------------------------

// gpu_user_templates DIR writes DIR/<name>.cu, the text of each template
// (gxd_user_template), for nvcc to compile as relocatable device code;
// gpu_user_templates --embed OUT.c DIR writes OUT.c, which holds each
// DIR/<name>.fatbin in the library (CMakeLists.txt runs both).  A host
// program: it compiles no kernel.

#include "gpu_user_program.h"
#include <stdio.h>

int main (int argc, char **argv)
{
    gxd_user_kernels K [GXD_USER_NTEMPLATES] ;
    gxd_user_template_list (K) ;
    const bool embed = (argc == 4 && std::string (argv [1]) == "--embed") ;
    if (argc != 2 && !embed)
    {
        fprintf (stderr, "usage: %s DIR | --embed OUT.c DIR\n", argv [0]) ;
        return 2 ;
    }
    if (!embed)
    {
        for (int t = 0 ; t < GXD_USER_NTEMPLATES ; t++)
        {
            const std::string path = std::string (argv [1]) + "/"
                + gxd_user_template_name (&K [t]) + ".cu" ;
            const std::string text = gxd_user_template (&K [t]) ;
            FILE *f = fopen (path.c_str (), "w") ;
            if (f == NULL || fputs (text.c_str (), f) < 0 || fclose (f) != 0)
            {
                fprintf (stderr, "%s: cannot write %s\n", argv [0], path.c_str ()) ;
                return 1 ;
            }
        }
        return 0 ;
    }
    // each fatbin between two symbols (.incbin: the build reads no bytes),
    // and the table gpu_nvrtc.cu looks them up in
    FILE *f = fopen (argv [2], "w") ;
    if (f == NULL) { fprintf (stderr, "%s: cannot write %s\n", argv [0], argv [2]) ; return 1 ; }
    fprintf (f, "// made by cuda/gpu_user_templates.cu (do not edit): the user "
        "kernels' templates\n#include \"gpu_user_images.h\"\n") ;
    for (int t = 0 ; t < GXD_USER_NTEMPLATES ; t++)
    {
        const std::string name = gxd_user_template_name (&K [t]) ;
        fprintf (f, "__asm__ (\".section .rodata\\n.balign 64\\n"
            ".hidden gxd_tmpl_%s\\n.hidden gxd_tmpl_%s_end\\n"
            "gxd_tmpl_%s:\\n.incbin \\\"%s/%s.fatbin\\\"\\n"
            "gxd_tmpl_%s_end:\\n.previous\\n\") ;\n"
            "extern const char gxd_tmpl_%s [ ], gxd_tmpl_%s_end [ ] ;\n",
            name.c_str (), name.c_str (), name.c_str (), argv [3], name.c_str (),
            name.c_str (), name.c_str (), name.c_str ()) ;
    }
    fprintf (f, "const gxd_user_image gxd_user_images [GXD_USER_NIMAGES] = {\n") ;
    for (int t = 0 ; t < GXD_USER_NTEMPLATES ; t++)
    {
        const std::string name = gxd_user_template_name (&K [t]) ;
        fprintf (f, "    { \"%s\", gxd_tmpl_%s, gxd_tmpl_%s_end },\n",
            name.c_str (), name.c_str (), name.c_str ()) ;
    }
    fprintf (f, "} ;\n") ;
    return (fclose (f) == 0) ? 0 : 1 ;
}
