/* WORKLOAD-OCL: histogram_ocl | regular-memory | 256-bin byte histogram: coalesced streaming input, per-work-group local-memory sub-histograms built with local atomics (hot-bin contention), merged with global atomics */
/*
 * OpenCL variant of histogram.cu: the same kernel (grid-stride loop over 32-bit words,
 * four local atomic increments per word into a 256-bin sub-histogram, then one global
 * atomic add per non-zero bin), the same sizes and input (wl_rand seed 0x5eed0004) and
 * the same exact check against a host histogram. The index is formed from the group
 * and local ids as in CUDA: under ptxsim, get_global_id also loads the global offset
 * from memory. ptxsim's timing model does not yet serialise same-word local atomics
 * (see histogram.cu).
 */
#define WL_NAME "histogram_ocl"
#include "wl_ocl.h"

#define BINS 256

static const char *src =
    "#define BINS 256\n"
    "__kernel void k_histogram(__global const uint *restrict words, int nwords,\n"
    "                          __global uint *restrict hist)\n"
    "{\n"
    "    __local uint sub[BINS];\n"
    "    int lid = get_local_id(0), lsz = get_local_size(0);\n"
    "\n"
    "    for (int b = lid; b < BINS; b += lsz)\n"
    "        sub[b] = 0;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (int i = get_group_id(0) * lsz + lid; i < nwords; i += get_global_size(0)) {\n"
    "        uint w = words[i];\n"
    "        atomic_inc(&sub[w & 0xff]);\n"
    "        atomic_inc(&sub[(w >> 8) & 0xff]);\n"
    "        atomic_inc(&sub[(w >> 16) & 0xff]);\n"
    "        atomic_inc(&sub[w >> 24]);\n"
    "    }\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (int b = lid; b < BINS; b += lsz) {\n"
    "        uint v = sub[b];\n"
    "        if (v)\n"
    "            atomic_add(&hist[b], v);\n"
    "    }\n"
    "}\n";

int main(int argc, char **argv)
{
    enum wl_size sz = wl_parse_size(argc, argv);
    const int nbytes = WL_PICK(sz, 1 << 19, 3 << 22, 1 << 27);
    const int nwords = nbytes / 4;
    const size_t local = 256;
    const size_t global = local * WL_PICK(sz, 60, 120, 240);
    unsigned char *in = malloc(nbytes);
    unsigned got[BINS], want[BINS], zero[BINS];
    wl_rand r;
    struct wl_cl cl;
    cl_int e;

    if (!in)
        wl_fail("out of host memory");
    wl_rand_init(&r, 0x5eed0004);
    /* Image-like intensities: 60% a dark background around 40, 30% a mid-grey object
     * around 140, 10% uniform. */
    for (int i = 0; i < nbytes; i++) {
        uint32_t u = wl_rand_below(&r, 10);
        int v;
        if (u < 6)
            v = 40 + (int)wl_rand_below(&r, 9) - 4;
        else if (u < 9)
            v = 140 + (int)wl_rand_below(&r, 33) - 16;
        else
            v = (int)wl_rand_below(&r, 256);
        in[i] = (unsigned char)v;
    }
    memset(zero, 0, sizeof(zero));

    wl_cl_init(&cl, src);
    cl_kernel k = wl_cl_kernel(&cl, "k_histogram");
    cl_mem dw = clCreateBuffer(cl.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, nbytes, in, &e);
    WL_CL(e);
    cl_mem dh =
        clCreateBuffer(cl.ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(zero), zero, &e);
    WL_CL(e);
    WL_CL(clSetKernelArg(k, 0, sizeof(cl_mem), &dw));
    WL_CL(clSetKernelArg(k, 1, sizeof(int), &nwords));
    WL_CL(clSetKernelArg(k, 2, sizeof(cl_mem), &dh));
    WL_CL(clEnqueueNDRangeKernel(cl.q, k, 1, NULL, &global, &local, 0, NULL, NULL));
    WL_CL(clEnqueueReadBuffer(cl.q, dh, CL_TRUE, 0, sizeof(got), got, 0, NULL, NULL));

    memset(want, 0, sizeof(want));
    for (int i = 0; i < nbytes; i++)
        want[in[i]]++;
    for (int b = 0; b < BINS; b++)
        if (got[b] != want[b])
            wl_fail("bin %d: got %u, want %u", b, got[b], want[b]);
    clReleaseMemObject(dw);
    clReleaseMemObject(dh);
    clReleaseKernel(k);
    wl_cl_fini(&cl);
    free(in);
    return wl_pass();
}
