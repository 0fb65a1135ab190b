/*
 * Sub-buffers (clCreateSubBuffer, CL_BUFFER_CREATE_TYPE_REGION): kernels
 * and transfers on windows of one buffer, info queries
 * (CL_MEM_ASSOCIATED_MEMOBJECT, CL_MEM_OFFSET, CL_MEM_SIZE), the buffer kept
 * alive by its sub-buffers, and the spec's errors: a misaligned origin
 * (CL_DEVICE_MEM_BASE_ADDR_ALIGN) is CL_MISALIGNED_SUB_BUFFER_OFFSET, a
 * region out of bounds or a bad type CL_INVALID_VALUE, size 0
 * CL_INVALID_BUFFER_SIZE, a sub-buffer of a sub-buffer CL_INVALID_MEM_OBJECT,
 * widened access CL_INVALID_VALUE.
 */
#include <stdio.h>
#include <string.h>

#include "harness.h"

static const char *src =
    "__kernel void add(__global int *a, int v) { a[get_global_id(0)] += v; }\n";

#define N 4096

static cl_mem sub(cl_mem b, cl_mem_flags f, size_t origin, size_t size, cl_int *rc)
{
    cl_buffer_region r = {origin, size};

    return clCreateSubBuffer(b, f, CL_BUFFER_CREATE_TYPE_REGION, &r, rc);
}

static void run_add(struct h_env *h, cl_kernel k, cl_mem m, size_t n, int v)
{
    h_check(clSetKernelArg(k, 0, sizeof(cl_mem), &m), "arg0");
    h_check(clSetKernelArg(k, 1, sizeof(v), &v), "arg1");
    h_check(clEnqueueNDRangeKernel(h->q, k, 1, NULL, &n, NULL, 0, NULL, NULL), "launch");
}

static void errors(struct h_env *h, cl_mem b, cl_mem s1, size_t align)
{
    cl_buffer_region r = {0, 16};
    cl_mem ro = h_buffer(h, CL_MEM_READ_ONLY, 4 * align, NULL);
    cl_int rc;

    sub(b, 0, align / 2, 64, &rc);
    h_out_chk("misaligned", rc == CL_MISALIGNED_SUB_BUFFER_OFFSET);
    sub(b, 0, 0, N * sizeof(int) + 4, &rc);
    h_out_chk("too_big", rc == CL_INVALID_VALUE);
    sub(b, 0, align, N * sizeof(int), &rc);
    h_out_chk("past_end", rc == CL_INVALID_VALUE);
    sub(b, 0, 0, 0, &rc);
    h_out_chk("size_zero", rc == CL_INVALID_BUFFER_SIZE);
    clCreateSubBuffer(b, 0, 0x4321, &r, &rc);
    h_out_chk("bad_type", rc == CL_INVALID_VALUE);
    clCreateSubBuffer(b, 0, CL_BUFFER_CREATE_TYPE_REGION, NULL, &rc);
    h_out_chk("no_region", rc == CL_INVALID_VALUE);
    sub(s1, 0, 0, 16, &rc);
    h_out_chk("sub_of_sub", rc == CL_INVALID_MEM_OBJECT);
    sub(ro, CL_MEM_READ_WRITE, 0, 16, &rc);
    h_out_chk("widened_access", rc == CL_INVALID_VALUE);
    sub(b, CL_MEM_USE_HOST_PTR, 0, 16, &rc);
    h_out_chk("host_ptr_flag", rc == CL_INVALID_VALUE);
    clReleaseMemObject(ro);
}

static void info(cl_mem b, cl_mem s2, size_t align)
{
    cl_mem assoc = NULL;
    size_t off = 1, size = 0;
    cl_mem_flags f = 0;

    clGetMemObjectInfo(s2, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof(assoc), &assoc, NULL);
    clGetMemObjectInfo(s2, CL_MEM_OFFSET, sizeof(off), &off, NULL);
    clGetMemObjectInfo(s2, CL_MEM_SIZE, sizeof(size), &size, NULL);
    clGetMemObjectInfo(s2, CL_MEM_FLAGS, sizeof(f), &f, NULL);
    h_out_chk("assoc_is_parent", assoc == b);
    h_out_chk("offset", off == 2 * align);
    h_out_chk("size", size == 2 * align);
    h_out_chk("flags_read_write", f & CL_MEM_READ_WRITE);
    clGetMemObjectInfo(b, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof(assoc), &assoc, NULL);
    clGetMemObjectInfo(b, CL_MEM_OFFSET, sizeof(off), &off, NULL);
    h_out_chk("parent_has_none", assoc == NULL && off == 0);
}

int main(void)
{
    struct h_env h;
    static int host[N], win[N];
    cl_uint align_bits;
    size_t align, n1, n2;
    cl_int rc;
    char t[32];

    h_init(&h);
    h_check(clGetDeviceInfo(h.dev, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof(align_bits), &align_bits,
                            NULL),
            "align");
    align = align_bits / 8;
    for (int i = 0; i < N; i++)
        host[i] = i;
    cl_program p = h_build(&h, src, NULL);
    cl_kernel k = h_kernel(p, "add");
    cl_mem b = h_buffer(&h, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(host), host);
    cl_mem s1 = sub(b, 0, align, align, &rc);
    h_check(rc, "sub-buffer 1");
    cl_mem s2 = sub(b, CL_MEM_READ_WRITE, 2 * align, 2 * align, &rc);
    h_check(rc, "sub-buffer 2");
    n1 = align / sizeof(int);
    n2 = 2 * align / sizeof(int);
    run_add(&h, k, s1, n1, 1000);
    run_add(&h, k, s2, n2, -7);
    h_check(clEnqueueWriteBuffer(h.q, s2, CL_TRUE, 0, 8, (int[]){-1, -2}, 0, NULL, NULL), "w");
    h_check(clEnqueueReadBuffer(h.q, s1, CL_TRUE, 0, align, win, 0, NULL, NULL), "read sub");
    h_out_chk("sub_read_matches", win[0] == (int)n1 + 1000 && win[n1 - 1] == 2 * (int)n1 + 999);
    info(b, s2, align);
    errors(&h, b, s1, align);
    clReleaseMemObject(b); /* the sub-buffers keep the buffer alive */
    run_add(&h, k, s1, n1, 1);
    h_check(clEnqueueReadBuffer(h.q, s1, CL_TRUE, 0, align, win, 0, NULL, NULL), "read s1");
    h_out_i("s1_first_after_release", win[0] - (int)n1);
    clReleaseMemObject(s1);
    h_check(clEnqueueReadBuffer(h.q, s2, CL_TRUE, 0, 2 * align, win, 0, NULL, NULL), "read s2");
    h_out_i("s2_written0", win[0]);
    h_out_i("s2_written1", win[1]);
    for (size_t i = 2; i < n2; i += n2 / 8) {
        snprintf(t, sizeof(t), "s2_%zu_added", i * 8 / n2);
        h_out_i(t, win[i] - (int)(2 * n1 + i));
    }
    clReleaseMemObject(s2);
    clReleaseKernel(k);
    clReleaseProgram(p);
    h_done(&h);
    return 0;
}
