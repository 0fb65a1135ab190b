/* WORKLOAD-OCL: blackscholes_ocl | compute | Black-Scholes call/put pricing: transcendental-heavy (log, exp, sqrt, division) per option, streaming coalesced loads, no reuse */
/*
 * OpenCL variant of blackscholes.cu: the same kernel (grid-stride loop over the
 * options, Abramowitz-Stegun cumulative normal), the same inputs (wl_rand seed 0xB5),
 * sizes, launch shape (128-item work-groups; 32, 240, 480 groups; 2, 2, 8 repetitions)
 * and check: host double evaluation, |got - want| <= 1e-4 * |want| + 2e-4 per price.
 */
#define WL_NAME "blackscholes_ocl"
#include "wl_ocl.h"

#define RISKFREE 0.02f
#define VOLATILITY 0.30f

static const char *src =
    "float cnd(float d)\n"
    "{\n"
    "    const float a1 = 0.31938153f, a2 = -0.356563782f, a3 = 1.781477937f, a4 = -1.821255978f,\n"
    "                a5 = 1.330274429f, rsqrt2pi = 0.39894228040143267794f;\n"
    "    float k = 1.0f / (1.0f + 0.2316419f * fabs(d));\n"
    "    float c = rsqrt2pi * exp(-0.5f * d * d) * (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))));\n"
    "    return d > 0 ? 1.0f - c : c;\n"
    "}\n"
    "\n"
    "__kernel void black_scholes(__global float *call, __global float *put, __global const float *restrict spot,\n"
    "                            __global const float *restrict strike, __global const float *restrict years,\n"
    "                            int n, float r, float v)\n"
    "{\n"
    "    int stride = get_global_size(0);\n"
    "\n"
    "    for (int i = get_global_id(0); i < n; i += stride) {\n"
    "        float s = spot[i], x = strike[i], t = years[i];\n"
    "        float sqrt_t = sqrt(t);\n"
    "        float d1 = (log(s / x) + (r + 0.5f * v * v) * t) / (v * sqrt_t);\n"
    "        float d2 = d1 - v * sqrt_t;\n"
    "        float cnd1 = cnd(d1), cnd2 = cnd(d2);\n"
    "        float xexp = x * exp(-r * t);\n"
    "        call[i] = s * cnd1 - xexp * cnd2;\n"
    "        put[i] = xexp * (1.0f - cnd2) - s * (1.0f - cnd1);\n"
    "    }\n"
    "}\n";

static double cnd_host(double d)
{
    const double a1 = 0.31938153, a2 = -0.356563782, a3 = 1.781477937, a4 = -1.821255978,
                 a5 = 1.330274429, rsqrt2pi = 0.39894228040143267794;
    double k = 1.0 / (1.0 + 0.2316419 * fabs(d));
    double c = rsqrt2pi * exp(-0.5 * d * d) * (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))));
    return d > 0 ? 1.0 - c : c;
}

static float rangef(wl_rand *r, float lo, float hi)
{
    return lo + (hi - lo) * wl_rand_unit(r);
}

int main(int argc, char **argv)
{
    enum wl_size sz = wl_parse_size(argc, argv);
    int n = WL_PICK(sz, 8192, 262144, 4000000);
    int iters = WL_PICK(sz, 2, 2, 8);
    size_t threads = 128, blocks = WL_PICK(sz, 32, 240, 480);
    size_t bytes = (size_t)n * sizeof(float);
    float *hs = malloc(bytes), *hx = malloc(bytes), *ht = malloc(bytes), *hc = malloc(bytes), *hp = malloc(bytes);
    float rf = RISKFREE, vol = VOLATILITY;
    struct wl_cl c;
    cl_int e;
    wl_rand r;

    wl_rand_init(&r, 0xB5);
    for (int i = 0; i < n; i++) {
        hs[i] = rangef(&r, 5.0f, 30.0f);
        hx[i] = rangef(&r, 1.0f, 100.0f);
        ht[i] = rangef(&r, 0.25f, 10.0f);
    }
    wl_cl_init(&c, src);
    cl_kernel k = wl_cl_kernel(&c, "black_scholes");
    cl_mem ds = clCreateBuffer(c.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, hs, &e);
    WL_CL(e);
    cl_mem dx = clCreateBuffer(c.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, hx, &e);
    WL_CL(e);
    cl_mem dt = clCreateBuffer(c.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, ht, &e);
    WL_CL(e);
    cl_mem dc = clCreateBuffer(c.ctx, CL_MEM_WRITE_ONLY, bytes, NULL, &e);
    WL_CL(e);
    cl_mem dp = clCreateBuffer(c.ctx, CL_MEM_WRITE_ONLY, bytes, NULL, &e);
    WL_CL(e);
    WL_CL(clSetKernelArg(k, 0, sizeof(cl_mem), &dc));
    WL_CL(clSetKernelArg(k, 1, sizeof(cl_mem), &dp));
    WL_CL(clSetKernelArg(k, 2, sizeof(cl_mem), &ds));
    WL_CL(clSetKernelArg(k, 3, sizeof(cl_mem), &dx));
    WL_CL(clSetKernelArg(k, 4, sizeof(cl_mem), &dt));
    WL_CL(clSetKernelArg(k, 5, sizeof(int), &n));
    WL_CL(clSetKernelArg(k, 6, sizeof(float), &rf));
    WL_CL(clSetKernelArg(k, 7, sizeof(float), &vol));
    size_t global = blocks * threads;
    for (int it = 0; it < iters; it++)
        WL_CL(clEnqueueNDRangeKernel(c.q, k, 1, NULL, &global, &threads, 0, NULL, NULL));
    WL_CL(clEnqueueReadBuffer(c.q, dc, CL_TRUE, 0, bytes, hc, 0, NULL, NULL));
    WL_CL(clEnqueueReadBuffer(c.q, dp, CL_TRUE, 0, bytes, hp, 0, NULL, NULL));

    double maxerr = 0.0;
    for (int i = 0; i < n; i++) {
        double s = hs[i], x = hx[i], t = ht[i], rr = RISKFREE, v = VOLATILITY;
        double d1 = (log(s / x) + (rr + 0.5 * v * v) * t) / (v * sqrt(t));
        double d2 = d1 - v * sqrt(t);
        double c1 = cnd_host(d1), c2 = cnd_host(d2), xexp = x * exp(-rr * t);
        double call = s * c1 - xexp * c2, put = xexp * (1.0 - c2) - s * (1.0 - c1);
        if (!wl_close(hc[i], call, 1e-4, 2e-4))
            wl_fail("call[%d] = %.7g, want %.7g", i, hc[i], call);
        if (!wl_close(hp[i], put, 1e-4, 2e-4))
            wl_fail("put[%d] = %.7g, want %.7g", i, hp[i], put);
        maxerr = fmax(maxerr, fmax(fabs(hc[i] - call), fabs(hp[i] - put)));
    }
    fprintf(stderr, "blackscholes_ocl: max |error| %.3g\n", maxerr);
    clReleaseMemObject(ds);
    clReleaseMemObject(dx);
    clReleaseMemObject(dt);
    clReleaseMemObject(dc);
    clReleaseMemObject(dp);
    clReleaseKernel(k);
    wl_cl_fini(&c);
    free(hs);
    free(hx);
    free(ht);
    free(hc);
    free(hp);
    return wl_pass();
}
