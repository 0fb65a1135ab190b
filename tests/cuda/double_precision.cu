// Double precision: the IEEE-exact operations (add, sub, mul, div, sqrt, fma,
// min/max) on random operands and special values (signed zeros, subnormals,
// infinities, NaN), the directed-rounding intrinsics (__dadd_ru, __dmul_rz,
// __ddiv_rd, __dsqrt_ru, __fma_rz), and conversions to and from int, long
// long and float with each rounding mode. All compared exactly (bit pattern)
// with the host, which computes directed roundings under fesetround.
#define TEST_NAME "double_precision"
#include "common.h"
#include <cfenv>

// NaN converted to an integer is not checked (the PTX result is 0, C leaves it
// undefined).

#define NOPS 18

__global__ void dops(const double *a, const double *b, const double *c, double *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    double x = a[i], y = b[i], z = c[i];
    double *o = out + (size_t)i * NOPS;
    o[0] = x + y;
    o[1] = x - y;
    o[2] = x * y;
    o[3] = x / y;
    o[4] = sqrt(fabs(x));
    o[5] = fma(x, y, z);
    o[6] = fmin(x, y);
    o[7] = fmax(x, y);
    o[8] = __dadd_ru(x, y);
    o[9] = __dmul_rz(x, y);
    o[10] = __ddiv_rd(x, y);
    o[11] = __dsqrt_ru(fabs(x));
    o[12] = __fma_rz(x, y, z);
    o[13] = (double)__double2float_rn(x);
    o[14] = (double)__double2float_rz(x);
    o[15] = (double)__double2int_rd(x); // saturates out of range
    o[16] = (double)__double2ll_rn(x);
    o[17] = __ll2double_ru((long long)(y * 1e6)) + __int2double_rn((int)z);
}

// Host versions of the directed roundings. The operands go through volatile
// so the compiler cannot evaluate them before fesetround.
static double with_mode(int mode, double (*f)(double, double, double), double x, double y, double z)
{
    volatile double vx = x, vy = y, vz = z;
    fesetround(mode);
    volatile double r = f(vx, vy, vz);
    fesetround(FE_TONEAREST);
    return r;
}
static double f_add(double x, double y, double)
{
    return x + y;
}
static double f_mul(double x, double y, double)
{
    return x * y;
}
static double f_div(double x, double y, double)
{
    return x / y;
}
static double f_sqrt(double x, double, double)
{
    return sqrt(x);
}
static double f_fma(double x, double y, double z)
{
    return fma(x, y, z);
}
static double f_to_float(double x, double, double)
{
    return (double)(float)x;
}
static double f_ll(double x, double, double)
{
    return (double)(long long)x;
}

static double host_ll(double x) // __double2ll_rn: saturating
{
    if (x >= 9.2233720368547758e18)
        return (double)LLONG_MAX;
    if (x <= -9.2233720368547758e18)
        return (double)LLONG_MIN;
    return (double)(long long)nearbyint(x);
}

static double host_int_rd(double x) // __double2int_rd: saturating
{
    double f = floor(x);
    if (f >= 2147483647.0)
        return 2147483647.0;
    if (f <= -2147483648.0)
        return -2147483648.0;
    return (double)(int)f; // an integer: floor(-0.0) becomes +0
}

int main()
{
    const int nrand = 2000;
    const double specials[] = {0.0,       -0.0,     1.0,       -1.0,     0.1,
                               3.0,       1e308,    -1e308,    4.9e-324, 2.2250738585072014e-308,
                               -1.5e-310, INFINITY, -INFINITY, NAN,      123456789.5,
                               -2.5,      0.5,      1.5,       2.5e9,    -3e9};
    const int ns = sizeof(specials) / sizeof(specials[0]);
    const int n = nrand + ns * ns;
    double *a = new double[n], *b = new double[n], *c = new double[n];
    double *out = new double[(size_t)n * NOPS];
    uint32_t seed = 31337;

    for (int i = 0; i < nrand; i++) {
        double m1 = (rng_next(&seed) / 4294967296.0 - 0.5) * 4;
        double m2 = (rng_next(&seed) / 4294967296.0 - 0.5) * 4;
        a[i] = ldexp(m1 + rng_next(&seed) / 1.8e19, (int)(rng_next(&seed) % 80) - 40);
        b[i] = ldexp(m2, (int)(rng_next(&seed) % 80) - 40);
        c[i] = ldexp(m1 * m2, (int)(rng_next(&seed) % 40) - 20);
    }
    for (int i = 0; i < ns * ns; i++) {
        a[nrand + i] = specials[i / ns];
        b[nrand + i] = specials[i % ns];
        c[nrand + i] = specials[(i * 7) % ns];
    }
    double *da, *db, *dc, *dout;
    CK(cudaMalloc(&da, n * sizeof(double)));
    CK(cudaMalloc(&db, n * sizeof(double)));
    CK(cudaMalloc(&dc, n * sizeof(double)));
    CK(cudaMalloc(&dout, (size_t)n * NOPS * sizeof(double)));
    CK(cudaMemcpy(da, a, n * sizeof(double), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(db, b, n * sizeof(double), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dc, c, n * sizeof(double), cudaMemcpyHostToDevice));
    dops<<<(n + 127) / 128, 128>>>(da, db, dc, dout, n);
    CK_LAUNCH();
    CK(cudaMemcpy(out, dout, (size_t)n * NOPS * sizeof(double), cudaMemcpyDeviceToHost));

    static const char *names[NOPS] = {"add",     "sub",      "mul",        "div",     "sqrt",
                                      "fma",     "fmin",     "fmax",       "dadd_ru", "dmul_rz",
                                      "ddiv_rd", "dsqrt_ru", "fma_rz",     "to_f_rn", "to_f_rz",
                                      "to_i_rd", "to_ll_rn", "ll2d_ru+i2d"};
    for (int i = 0; i < n; i++) {
        double x = a[i], y = b[i], z = c[i], w[NOPS];
        w[0] = x + y;
        w[1] = x - y;
        w[2] = x * y;
        w[3] = x / y;
        w[4] = sqrt(fabs(x));
        w[5] = fma(x, y, z);
        w[6] = fmin(x, y);
        w[7] = fmax(x, y);
        w[8] = with_mode(FE_UPWARD, f_add, x, y, 0);
        w[9] = with_mode(FE_TOWARDZERO, f_mul, x, y, 0);
        w[10] = with_mode(FE_DOWNWARD, f_div, x, y, 0);
        w[11] = with_mode(FE_UPWARD, f_sqrt, fabs(x), 0, 0);
        w[12] = with_mode(FE_TOWARDZERO, f_fma, x, y, z);
        w[13] = (double)(float)x;
        w[14] = with_mode(FE_TOWARDZERO, f_to_float, x, 0, 0);
        w[15] = host_int_rd(x);
        w[16] = host_ll(x);
        // (long long)(y * 1e6) and (int)z are C casts: only checked where defined.
        double ys = y * 1e6;
        bool ll_ok = !std::isnan(ys) && fabs(ys) < 9e18 && !std::isnan(z) && fabs(z) < 2e9;
        if (ll_ok)
            w[17] = with_mode(FE_UPWARD, f_ll, (double)(long long)ys, 0, 0) + (double)(int)z;
        for (int k = 0; k < NOPS; k++) {
            double got = out[(size_t)i * NOPS + k];
            bool ok;
            if ((k == 17 && !ll_ok) || ((k == 15 || k == 16) && std::isnan(x)))
                continue; // C-undefined casts; NaN to integer is not checked
            if ((k == 6 || k == 7) && got == 0 && w[k] == 0)
                ok = true; // fmin/fmax of +0 and -0 may return either
            else
                ok = expect_bits(names[k], i, got, w[k]);
            if (!ok)
                fprintf(stderr, "  operands %a %a %a\n", x, y, z);
        }
    }
    CK(cudaFree(da));
    CK(cudaFree(db));
    CK(cudaFree(dc));
    CK(cudaFree(dout));
    delete[] a;
    delete[] b;
    delete[] c;
    delete[] out;
    return finish();
}
