/*
 * Images: a device with image support (ptxsim's GPU and CPU devices, PoCL)
 * must create them; one without must refuse them with CL_INVALID_OPERATION
 * (OpenCL 1.2, clCreateImage). The support reported is an output line, so
 * the comparison with PoCL checks it too.
 * image_sample.c and image_write.c use them.
 */
#include <stdio.h>

#include "harness.h"

int main(void)
{
    struct h_env h;
    cl_bool support;
    cl_image_format fmt = {CL_RGBA, CL_UNORM_INT8};
    cl_image_desc desc = {0};
    cl_int rc;
    cl_mem img;

    h_init(&h);
    h_check(clGetDeviceInfo(h.dev, CL_DEVICE_IMAGE_SUPPORT, sizeof(support), &support, NULL),
            "image support");
    h_out_i("image_support", support != CL_FALSE);
    desc.image_type = CL_MEM_OBJECT_IMAGE2D;
    desc.image_width = 16;
    desc.image_height = 16;
    img = clCreateImage(h.ctx, CL_MEM_READ_WRITE, &fmt, &desc, NULL, &rc);
    fprintf(stderr, "clCreateImage: %s\n", h_err_name(rc));
    h_out_chk("image_behaviour_ok", support ? img != NULL && rc == CL_SUCCESS
                                            : img == NULL && rc == CL_INVALID_OPERATION);
    if (img)
        clReleaseMemObject(img);
    img = clCreateImage2D(h.ctx, CL_MEM_READ_WRITE, &fmt, 16, 16, 0, NULL, &rc);
    h_out_chk("image2d_behaviour_ok", support ? img != NULL : rc == CL_INVALID_OPERATION);
    if (img)
        clReleaseMemObject(img);
    h_done(&h);
    return 0;
}
