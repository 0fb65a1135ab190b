/*
 * Images shared by ptxsim's two devices (docs/heteropdp.md): in a context of
 * the GPU and the CPU device, one image is written in turn by a kernel on
 * each device (the CPU launch migrates it into a PoCL image and back, and
 * its sampler argument becomes a PoCL sampler), and every step sees the
 * previous one. The context lists only the formats both devices support,
 * and an image larger than PoCL's limits (but within the GPU's) runs on the
 * GPU and is refused on the CPU. ptxsim only (PoCL's platform has one
 * device); without the CPU device it prints the same checks, passing.
 */
#include <stdio.h>
#include <string.h>

#include "harness.h"

#define W 8
#define H 4

static const char *src =
    "__kernel void inc(read_only image2d_t s, sampler_t smp, write_only image2d_t d) {\n"
    "    int2 p = (int2)(get_global_id(0), get_global_id(1));\n"
    "    write_imageui(d, p, read_imageui(s, smp, p) + (uint4)(1, 2, 3, 4));\n"
    "}\n";

static cl_mem image(cl_context c, size_t w, const void *host)
{
    cl_image_format f = {CL_RGBA, CL_UNSIGNED_INT8};
    cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = w, .image_height = H};
    cl_int rc;
    cl_mem m = clCreateImage(c, CL_MEM_READ_WRITE | (host ? CL_MEM_COPY_HOST_PTR : 0), &f, &d,
                             (void *)host, &rc);

    h_check(rc, "clCreateImage");
    return m;
}

static cl_int step(cl_command_queue q, cl_kernel k, cl_mem s, cl_sampler smp, cl_mem d, size_t w)
{
    size_t g[2] = {w, H};

    h_check(clSetKernelArg(k, 0, sizeof(s), &s), "arg0");
    h_check(clSetKernelArg(k, 1, sizeof(smp), &smp), "arg1");
    h_check(clSetKernelArg(k, 2, sizeof(d), &d), "arg2");
    return clEnqueueNDRangeKernel(q, k, 2, NULL, g, NULL, 0, NULL, NULL);
}

static cl_uint formats(cl_context c)
{
    cl_uint n = 0;

    h_check(clGetSupportedImageFormats(c, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 0, NULL, &n),
            "formats");
    return n;
}

/* GPU, CPU, GPU: a -> b -> a -> b, each adding (1, 2, 3, 4); then a too-wide image. */
static void two_devices(struct h_env *h, cl_device_id cpu)
{
    cl_device_id devs[2] = {h->dev, cpu};
    unsigned char in[W * H * 4], out[W * H * 4];
    const size_t o[3] = {0, 0, 0}, r[3] = {W, H, 1};
    cl_int rc;
    cl_context c = clCreateContext(NULL, 2, devs, NULL, NULL, &rc);
    cl_command_queue qg, qc;
    cl_program p;
    cl_kernel k;
    cl_sampler smp;
    cl_mem a, b, wa, wb;
    int same = 1;

    h_check(rc, "two-device context");
    h_out_chk("formats_intersection", formats(c) > 0 && formats(c) <= formats(h->ctx));
    qg = clCreateCommandQueue(c, h->dev, 0, &rc);
    qc = clCreateCommandQueue(c, cpu, 0, &rc);
    h_check(rc, "queues");
    p = clCreateProgramWithSource(c, 1, &src, NULL, &rc);
    h_check(clBuildProgram(p, 2, devs, NULL, NULL, NULL), "build");
    k = clCreateKernel(p, "inc", &rc);
    smp = clCreateSampler(c, CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST, &rc);
    h_check(rc, "sampler");
    for (size_t i = 0; i < sizeof(in); i++)
        in[i] = (unsigned char)(i * 7 % 200); /* no saturation at 255 */
    a = image(c, W, in);
    b = image(c, W, NULL);
    h_check(step(qg, k, a, smp, b, W), "gpu step");
    h_check(step(qc, k, b, smp, a, W), "cpu step");
    h_check(step(qg, k, a, smp, b, W), "gpu step 2");
    h_check(clEnqueueReadImage(qg, b, CL_TRUE, o, r, 0, 0, out, 0, NULL, NULL), "read");
    for (size_t i = 0; i < sizeof(in); i++)
        same &= out[i] == (unsigned char)(in[i] + 3 * (1 + i % 4));
    h_out_chk("gpu_cpu_gpu_chain", same);
    /* 10000 texels wide: within the GPU's 16384, beyond PoCL's 8192 */
    wa = image(c, 10000, NULL);
    wb = image(c, 10000, NULL);
    h_out_chk("wide_on_gpu", step(qg, k, wa, smp, wb, 10000) == CL_SUCCESS);
    h_out_chk("wide_refused_on_cpu", step(qc, k, wa, smp, wb, 10000) == CL_INVALID_IMAGE_SIZE);
    clReleaseMemObject(wa);
    clReleaseMemObject(wb);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseSampler(smp);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseCommandQueue(qg);
    clReleaseCommandQueue(qc);
    clReleaseContext(c);
}

int main(void)
{
    struct h_env h;
    cl_device_id cpu = NULL;
    cl_bool support = CL_FALSE;

    h_init(&h);
    if (clGetDeviceIDs(h.plat, CL_DEVICE_TYPE_CPU, 1, &cpu, NULL) == CL_SUCCESS)
        h_check(clGetDeviceInfo(cpu, CL_DEVICE_IMAGE_SUPPORT, sizeof(support), &support, NULL),
                "cpu image support");
    if (cpu && support) {
        two_devices(&h, cpu);
    } else {
        fprintf(stderr, "no CPU device with images: the two-device part is not run\n");
        h_out_chk("formats_intersection", 1);
        h_out_chk("gpu_cpu_gpu_chain", 1);
        h_out_chk("wide_on_gpu", 1);
        h_out_chk("wide_refused_on_cpu", 1);
    }
    h_done(&h);
    return 0;
}
