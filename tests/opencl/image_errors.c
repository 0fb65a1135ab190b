/*
 * ptxsim's answers to image and sampler misuse (OpenCL 1.2 clCreateImage,
 * clEnqueue*Image, clCreateSampler, clSetKernelArg): the error codes the
 * specification lists. PoCL 3.1 accepts several of these calls (and crashes
 * on a released-object check), so run.sh runs this test on ptxsim only.
 */
#include <stdio.h>
#include <string.h>

#include "harness.h"

/* clCreateImage's and the image commands' errors. */
static void image_errors(struct h_env *h)
{
    cl_image_format bad_order = {0x1234, CL_UNORM_INT8}, bad_pair = {CL_RGB, CL_UNORM_INT8};
    cl_image_format ok = {CL_RGBA, CL_FLOAT};
    cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = 4, .image_height = 4};
    cl_image_desc zero = d, buf_type = d;
    size_t o[3] = {2, 0, 0}, r[3] = {3, 1, 1};
    float host[64];
    cl_int rc;
    cl_mem m;

    zero.image_width = 0;
    buf_type.image_type = CL_MEM_OBJECT_BUFFER;
    clCreateImage(h->ctx, CL_MEM_READ_ONLY, &bad_order, &d, NULL, &rc);
    h_out_chk("err_bad_order", rc == CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    clCreateImage(h->ctx, CL_MEM_READ_ONLY, &bad_pair, &d, NULL, &rc);
    h_out_chk("err_rgb_unorm8",
              rc == CL_INVALID_IMAGE_FORMAT_DESCRIPTOR || rc == CL_IMAGE_FORMAT_NOT_SUPPORTED);
    clCreateImage(h->ctx, CL_MEM_READ_ONLY, NULL, &d, NULL, &rc);
    h_out_chk("err_no_format", rc == CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    clCreateImage(h->ctx, CL_MEM_READ_ONLY, &ok, &zero, NULL, &rc);
    h_out_chk("err_zero_width", rc == CL_INVALID_IMAGE_SIZE || rc == CL_INVALID_IMAGE_DESCRIPTOR);
    clCreateImage(h->ctx, CL_MEM_READ_ONLY, &ok, &buf_type, NULL, &rc);
    h_out_chk("err_not_image_type", rc == CL_INVALID_IMAGE_DESCRIPTOR);
    clCreateImage(h->ctx, CL_MEM_READ_ONLY, &ok, &d, host, &rc);
    h_out_chk("err_host_no_flag", rc == CL_INVALID_HOST_PTR);
    m = clCreateImage(h->ctx, CL_MEM_READ_WRITE, &ok, &d, NULL, &rc);
    h_check(rc, "image");
    h_out_chk("err_region_outside", clEnqueueReadImage(h->q, m, CL_TRUE, o, r, 0, 0, host, 0, NULL,
                                                       NULL) == CL_INVALID_VALUE);
    h_out_chk("err_buffer_cmd_on_image", clEnqueueReadBuffer(h->q, m, CL_TRUE, 0, 4, host, 0, NULL,
                                                             NULL) == CL_INVALID_MEM_OBJECT);
    h_out_chk("err_release_sampler", clReleaseSampler((cl_sampler)m) == CL_INVALID_SAMPLER);
    clCreateSampler(h->ctx, CL_TRUE, 0x9999, CL_FILTER_NEAREST, &rc);
    h_out_chk("err_sampler_mode", rc == CL_INVALID_VALUE);
    clReleaseMemObject(m);
}

/* Samplers: info, the combinations OpenCL forbids, and a padded format ptxsim lacks. */
static void sampler_errors(struct h_env *h)
{
    cl_int rc;
    cl_sampler s = clCreateSampler(h->ctx, CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_LINEAR, &rc);
    cl_addressing_mode am = 0;
    cl_filter_mode fm = 0;
    cl_bool norm = CL_TRUE;
    cl_image_format rx = {CL_Rx, CL_FLOAT};
    cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = 4, .image_height = 4};

    h_check(rc, "sampler");
    h_check(clGetSamplerInfo(s, CL_SAMPLER_ADDRESSING_MODE, sizeof(am), &am, NULL), "am");
    h_check(clGetSamplerInfo(s, CL_SAMPLER_FILTER_MODE, sizeof(fm), &fm, NULL), "fm");
    h_check(clGetSamplerInfo(s, CL_SAMPLER_NORMALIZED_COORDS, sizeof(norm), &norm, NULL), "n");
    h_out_chk("sampler_info", am == CL_ADDRESS_CLAMP && fm == CL_FILTER_LINEAR && !norm);
    clCreateSampler(h->ctx, CL_FALSE, CL_ADDRESS_REPEAT, CL_FILTER_NEAREST, &rc);
    h_out_chk("err_repeat_unnormalized", rc == CL_INVALID_VALUE);
    h_out_chk("err_sampler_info_value",
              clGetSamplerInfo(s, 0x9999, sizeof(am), &am, NULL) == CL_INVALID_VALUE);
    clCreateImage(h->ctx, CL_MEM_READ_ONLY, &rx, &d, NULL, &rc);
    h_out_chk("err_rx_not_supported", rc == CL_IMAGE_FORMAT_NOT_SUPPORTED);
    h_check(clReleaseSampler(s), "release");
    h_out_chk("err_released_sampler", clRetainSampler(s) == CL_INVALID_SAMPLER);
}

int main(void)
{
    struct h_env h;

    h_init(&h);
    image_errors(&h);
    sampler_errors(&h);
    h_done(&h);
    return 0;
}
