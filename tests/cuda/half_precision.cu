// Half precision (cuda_fp16.h): __half and __half2 add, sub, mul, fma, neg,
// abs, min/max and comparisons, conversions float<->half in each rounding
// mode, int<->half, and half-precision overflow to infinity and subnormals.
// Exact: each device result must equal the correctly rounded value, computed
// on the host in float or double (wide enough that the double rounding is
// innocuous: float's 24 bits >= 2*11+2 for add/sub/mul; the fma addend is
// kept within [1/16, 16], so a*b+c is exact in double) and rounded once to
// half.
#define TEST_NAME "half_precision"
#include "common.h"
#include <cuda_fp16.h>

#define NOUT 16

__global__ void hops(const __half *a, const __half *b, const __half *c, const float *f, __half *out,
                     int *iout, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    __half x = a[i], y = b[i], z = c[i];
    __half *o = out + i * NOUT;
    o[0] = __hadd(x, y);
    o[1] = __hsub(x, y);
    o[2] = __hmul(x, y);
    o[3] = __hfma(x, y, z);
    o[4] = __hneg(x);
    o[5] = __habs(y);
    o[6] = __hmax(x, y);
    o[7] = __hmin(x, y);
    o[8] = __float2half_rn(f[i]);
    o[9] = __float2half_rz(f[i]);
    o[10] = __float2half_rd(f[i]);
    o[11] = __float2half_ru(f[i]);
    o[12] = __int2half_rn(i * 37 - 20000);
    __half2 p = __halves2half2(x, y), q = __halves2half2(y, z);
    __half2 s = __hadd2(p, q), m = __hmul2(p, q), fm = __hfma2(p, q, p);
    o[13] = __hadd(__low2half(s), __high2half(m)); // two roundings, both emulated on the host
    o[14] = __high2half(s);
    o[15] = __low2half(fm);
    iout[i * 4 + 0] = __hlt(x, y) | (__heq(x, y) << 1) | (__hge(x, y) << 2) | (__hisnan(x) << 3);
    iout[i * 4 + 1] = __half2int_rz(x);
    iout[i * 4 + 2] = __half2int_rn(y);
    iout[i * 4 + 3] = (int)__half_as_ushort(__low2half(m));
}

static float h2f(__half h)
{
    return __half2float(h);
}
static __half rnd(double v)
{
    return __double2half(v);
} // round-to-nearest-even, once

int main()
{
    const int n = 4096;
    __half *a = new __half[n], *b = new __half[n], *c = new __half[n], *out = new __half[n * NOUT];
    float *f = new float[n];
    int *iout = new int[n * 4];
    uint32_t seed = 5;

    for (int i = 0; i < n; i++) {
        if (i < n / 2) { // general operands: any finite half, some specials
            unsigned short ba = rng_next(&seed) & 0x7bff, bb = rng_next(&seed) & 0x7bff;
            a[i] = __ushort_as_half((unsigned short)(ba | ((rng_next(&seed) & 1) << 15)));
            b[i] = __ushort_as_half((unsigned short)(bb | ((rng_next(&seed) & 1) << 15)));
        } else { // fma-safe range [1/16, 16]
            a[i] =
                rnd(ldexp(1.0 + (rng_next(&seed) % 1024) / 1024.0, (int)(rng_next(&seed) % 8) - 4));
            b[i] = rnd(
                -ldexp(1.0 + (rng_next(&seed) % 1024) / 1024.0, (int)(rng_next(&seed) % 8) - 4));
        }
        c[i] = rnd(ldexp(1.0 + (rng_next(&seed) % 1024) / 1024.0, (int)(rng_next(&seed) % 8) - 4));
        f[i] = ldexpf(1.0f + (rng_next(&seed) % 8388608) / 8388608.0f,
                      (int)(rng_next(&seed) % 50) - 30) *
               ((rng_next(&seed) & 1) ? -1.0f : 1.0f);
    }
    a[0] = __float2half(65504.0f); // overflow to infinity
    b[0] = __float2half(32.0f);
    a[1] = __ushort_as_half(0x0001); // smallest subnormal
    b[1] = __ushort_as_half(0x0003);
    a[2] = __ushort_as_half(0x7e00); // NaN
    f[3] = 1e10f;
    f[4] = -6e-8f;

    __half *da, *db, *dc, *dout;
    float *df;
    int *diout;
    CK(cudaMalloc(&da, n * sizeof(__half)));
    CK(cudaMalloc(&db, n * sizeof(__half)));
    CK(cudaMalloc(&dc, n * sizeof(__half)));
    CK(cudaMalloc(&df, n * sizeof(float)));
    CK(cudaMalloc(&dout, n * NOUT * sizeof(__half)));
    CK(cudaMalloc(&diout, n * 4 * sizeof(int)));
    CK(cudaMemcpy(da, a, n * sizeof(__half), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(db, b, n * sizeof(__half), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dc, c, n * sizeof(__half), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(df, f, n * sizeof(float), cudaMemcpyHostToDevice));
    hops<<<(n + 255) / 256, 256>>>(da, db, dc, df, dout, diout, n);
    CK_LAUNCH();
    CK(cudaMemcpy(out, dout, n * NOUT * sizeof(__half), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(iout, diout, n * 4 * sizeof(int), cudaMemcpyDeviceToHost));

    static const char *names[NOUT] = {
        "hadd",     "hsub",    "hmul",   "hfma",   "hneg",   "habs",        "hmax",
        "hmin",     "f2h_rn",  "f2h_rz", "f2h_rd", "f2h_ru", "int2half_rn", "hadd2.lo+hmul2.hi",
        "hadd2.hi", "hfma2.lo"};
    for (int i = 0; i < n; i++) {
        double x = h2f(a[i]), y = h2f(b[i]), z = h2f(c[i]);
        __half w[NOUT];
        w[0] = rnd(x + y);
        w[1] = rnd(x - y);
        w[2] = rnd(x * y);
        w[3] = rnd(x * y + z);
        w[4] = __ushort_as_half(__half_as_ushort(a[i]) ^ 0x8000);
        w[5] = __ushort_as_half(__half_as_ushort(b[i]) & 0x7fff);
        w[6] = std::isnan(x) ? b[i] : (x > y ? a[i] : b[i]);
        w[7] = std::isnan(x) ? b[i] : (x < y ? a[i] : b[i]);
        w[8] = __float2half_rn(f[i]);
        w[9] = __float2half_rz(f[i]);
        w[10] = __float2half_rd(f[i]);
        w[11] = __float2half_ru(f[i]);
        w[12] = rnd((double)(i * 37 - 20000));
        w[13] = rnd(h2f(rnd(x + y)) + h2f(rnd(y * z)));
        w[14] = rnd(y + z);
        w[15] = rnd(x * y + x);
        for (int k = 0; k < NOUT; k++) {
            __half g = out[i * NOUT + k];
            bool both_zero = h2f(g) == 0 && h2f(w[k]) == 0 && (k == 6 || k == 7);
            bool ok = __half_as_ushort(g) == __half_as_ushort(w[k]) ||
                      (std::isnan(h2f(g)) && std::isnan(h2f(w[k]))) || both_zero;
            if (!ok)
                fail("%s[%d] = 0x%04x (%g), want 0x%04x (%g); operands %g %g %g / %a", names[k], i,
                     __half_as_ushort(g), h2f(g), __half_as_ushort(w[k]), h2f(w[k]), x, y, z, f[i]);
        }
        if (std::isnan(x))
            continue;
        int flags = (x < y) | ((x == y) << 1) | ((x >= y) << 2);
        expect_eq("compare flags", i, iout[i * 4], flags);
        if (fabs(x) < 2e9)
            expect_eq("half2int_rz", i, iout[i * 4 + 1], (long long)trunc(x));
        if (fabs(y) < 2e9)
            expect_eq("half2int_rn", i, iout[i * 4 + 2], (long long)nearbyint(y));
        expect_eq("hmul2.lo bits", i, iout[i * 4 + 3], __half_as_ushort(rnd(x * y)));
    }
    CK(cudaFree(da));
    CK(cudaFree(db));
    CK(cudaFree(dc));
    CK(cudaFree(df));
    CK(cudaFree(dout));
    CK(cudaFree(diout));
    delete[] a;
    delete[] b;
    delete[] c;
    delete[] f;
    delete[] out;
    delete[] iout;
    return finish();
}
