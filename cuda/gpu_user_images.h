// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// cuda/gpu_user_images.h: the user kernels' templates held in the library
//------------------------------------------------------------------------------

// Each template (gpu_user_program.h) compiled by nvcc at build time as
// relocatable device code, for the architectures the library was built
// for, one fatbin each: the bytes [begin, end).  The table is made by
// gpu_user_templates.cu and is there only where GXD_USER_IMAGES is 1.

#ifndef GXD_GPU_USER_IMAGES_H
#define GXD_GPU_USER_IMAGES_H

typedef struct
{
    const char *name ;          // gxd_user_template_name
    const char *begin, *end ;
}
gxd_user_image ;

// GXD_USER_NTEMPLATES
#define GXD_USER_NIMAGES 20

#ifdef __cplusplus
extern "C"
#else
extern
#endif
const gxd_user_image gxd_user_images [GXD_USER_NIMAGES] ;

#endif
