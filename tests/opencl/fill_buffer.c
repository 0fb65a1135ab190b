/*
 * clEnqueueFillBuffer with every pattern size OpenCL 1.2 allows (1 to 128
 * bytes, powers of two), at offsets, on a sub-buffer, followed by a kernel
 * that reads the filled bytes, and its errors: a pattern size that is not a
 * power of two or over 128, an offset or size not a multiple of it, a range
 * out of bounds (all CL_INVALID_VALUE).
 */
#include <stdio.h>
#include <string.h>

#include "harness.h"

static const char *src = "__kernel void sum16(__global const uchar *b, __global uint *out) {\n"
                         "  size_t i = get_global_id(0); uint s = 0;\n"
                         "  for (int j = 0; j < 16; j++) s = s * 31u + b[i * 16 + j];\n"
                         "  out[i] = s;\n"
                         "}\n";

#define SIZE 2048

static unsigned char host[SIZE];

static void fill(struct h_env *h, cl_mem m, size_t psize, size_t off, size_t n)
{
    unsigned char pat[128];

    for (size_t i = 0; i < psize; i++)
        pat[i] = (unsigned char)(psize * 5 + i * 11 + 1);
    h_check(clEnqueueFillBuffer(h->q, m, pat, psize, off, n, 0, NULL, NULL), "fill");
    for (size_t i = 0; i < n; i++)
        host[off + i] = pat[i % psize];
}

static void errors(struct h_env *h, cl_mem m)
{
    int pat = 7;

    h_out_chk("psize_3",
              clEnqueueFillBuffer(h->q, m, &pat, 3, 0, 12, 0, NULL, NULL) == CL_INVALID_VALUE);
    h_out_chk("psize_256",
              clEnqueueFillBuffer(h->q, m, host, 256, 0, 512, 0, NULL, NULL) == CL_INVALID_VALUE);
    h_out_chk("offset_unaligned",
              clEnqueueFillBuffer(h->q, m, &pat, 4, 2, 8, 0, NULL, NULL) == CL_INVALID_VALUE);
    h_out_chk("size_unaligned",
              clEnqueueFillBuffer(h->q, m, &pat, 4, 0, 6, 0, NULL, NULL) == CL_INVALID_VALUE);
    h_out_chk("out_of_bounds", clEnqueueFillBuffer(h->q, m, &pat, 4, SIZE - 4, 8, 0, NULL, NULL) ==
                                   CL_INVALID_VALUE);
    h_out_chk("null_pattern",
              clEnqueueFillBuffer(h->q, m, NULL, 4, 0, 8, 0, NULL, NULL) == CL_INVALID_VALUE);
}

int main(void)
{
    struct h_env h;
    static unsigned char back[SIZE];
    static cl_uint sums[SIZE / 16];
    size_t global = SIZE / 16, off = 0;
    cl_uint align_bits;
    cl_int rc;
    char t[32];

    h_init(&h);
    cl_mem m = h_buffer(&h, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, SIZE, host);
    for (size_t ps = 1; ps <= 128; ps *= 2) {
        fill(&h, m, ps, off, ps * 3);
        off += ps * 3 + ps; /* the next offset stays a multiple of the next size */
        off = (off + 2 * ps - 1) / (2 * ps) * (2 * ps);
    }
    h_check(clGetDeviceInfo(h.dev, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof(align_bits), &align_bits,
                            NULL),
            "align");
    cl_buffer_region r = {SIZE - align_bits / 8, align_bits / 8};
    cl_mem s = clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &rc);
    h_check(rc, "sub-buffer");
    h_check(clEnqueueFillBuffer(h.q, s, (cl_uint[]){0xa5a5a5a5u}, 4, 0, r.size, 0, NULL, NULL),
            "fill sub");
    memset(host + r.origin, 0xa5, r.size);
    h_read(&h, m, SIZE, back);
    h_out_chk("fills_match_model", !memcmp(back, host, SIZE));
    cl_program p = h_build(&h, src, NULL);
    cl_kernel k = h_kernel(p, "sum16");
    cl_mem mo = h_buffer(&h, CL_MEM_WRITE_ONLY, sizeof(sums), NULL);
    h_check(clSetKernelArg(k, 0, sizeof(cl_mem), &m), "arg0");
    h_check(clSetKernelArg(k, 1, sizeof(cl_mem), &mo), "arg1");
    h_check(clEnqueueNDRangeKernel(h.q, k, 1, NULL, &global, NULL, 0, NULL, NULL), "launch");
    h_read(&h, mo, sizeof(sums), sums);
    for (size_t i = 0; i < global - 32; i += 3) { /* the sub-buffer's bytes depend on its size */
        snprintf(t, sizeof(t), "sum%zu", i);
        h_out_i(t, sums[i]);
    }
    errors(&h, m);
    clReleaseMemObject(s);
    clReleaseMemObject(mo);
    clReleaseMemObject(m);
    clReleaseKernel(k);
    clReleaseProgram(p);
    h_done(&h);
    return 0;
}
