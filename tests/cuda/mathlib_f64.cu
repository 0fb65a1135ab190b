// Double-precision math library (libdevice) against the host's libm.
// Tolerances: correctly rounded operations (sqrt, fmod, remainder, floor,
// ceil, trunc, round, rint, fabs, ldexp, frexp, copysign, fdim) exact;
// library functions |got - want| <= 1e-14 * |want| + atol (CUDA documents
// at most 1 to 4 ulp, about 2e-16 to 9e-16 relative, for these; the host's
// libm has its own sub-ulp error), where atol is 1e-15 for sin, cos, tanh,
// erf and lgamma (results bounded by 1 or with zeros in range) and 0 else.
#define TEST_NAME "mathlib_f64"
#include "common.h"

// clang-format off
enum { SIN, COS, TAN, EXP, EXP2, LOG, LOG2, LOG10, LOG1P, EXPM1, POW, ATAN2, ACOS, ATAN, SINH,
       COSH, TANH, ASINH, ERF, ERFC, CBRT, HYPOT, LGAMMA, NLIB,
       /* exact */ SQRT = NLIB, FMOD, REM, FLOOR, CEIL, TRUNC, ROUND, RINT, LDEXP, FREXP_M,
       FREXP_E, COPYSIGN, FDIM, NALL };
// clang-format on

__global__ void mathd(const double *x, const double *y, double *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    double a = x[i], b = y[i], *o = out + (size_t)i * NALL;
    int e;
    o[SIN] = sin(a);
    o[COS] = cos(a);
    o[TAN] = tan(a);
    o[EXP] = exp(a);
    o[EXP2] = exp2(b);
    o[LOG] = log(fabs(a));
    o[LOG2] = log2(fabs(a));
    o[LOG10] = log10(fabs(a));
    o[LOG1P] = log1p(fabs(b));
    o[EXPM1] = expm1(b);
    o[POW] = pow(fabs(a), b);
    o[ATAN2] = atan2(a, b);
    o[ACOS] = acos(b / 8.0);
    o[ATAN] = atan(a);
    o[SINH] = sinh(b);
    o[COSH] = cosh(b);
    o[TANH] = tanh(a);
    o[ASINH] = asinh(a);
    o[ERF] = erf(b);
    o[ERFC] = erfc(b);
    o[CBRT] = cbrt(a);
    o[HYPOT] = hypot(a, b);
    o[LGAMMA] = lgamma(fabs(b) + 0.5);
    o[SQRT] = sqrt(fabs(a));
    o[FMOD] = fmod(a, b);
    o[REM] = remainder(a, b);
    o[FLOOR] = floor(a);
    o[CEIL] = ceil(a);
    o[TRUNC] = trunc(a);
    o[ROUND] = round(a * 2.0);
    o[RINT] = rint(a * 2.0);
    o[LDEXP] = ldexp(a, (int)(b * 10.0));
    o[FREXP_M] = frexp(a, &e);
    o[FREXP_E] = e;
    o[COPYSIGN] = copysign(a, b);
    o[FDIM] = fdim(a, b);
}

int main()
{
    const int n = 2000;
    double *x = new double[n], *y = new double[n], *out = new double[(size_t)n * NALL];
    uint32_t seed = 1618;
    static const char *names[NALL] = {
        "sin",   "cos",   "tan",   "exp",   "exp2",   "log",     "log2",    "log10",     "log1p",
        "expm1", "pow",   "atan2", "acos",  "atan",   "sinh",    "cosh",    "tanh",      "asinh",
        "erf",   "erfc",  "cbrt",  "hypot", "lgamma", "sqrt",    "fmod",    "remainder", "floor",
        "ceil",  "trunc", "round", "rint",  "ldexp",  "frexp.m", "frexp.e", "copysign",  "fdim"};

    for (int i = 0; i < n; i++) {
        double u = rng_next(&seed) / 4294967296.0 + rng_next(&seed) / 1.8446744073709552e19;
        if (i % 3 == 0)
            x[i] = (u - 0.5) * 200.0;
        else if (i % 3 == 1)
            x[i] = (u - 0.5) * 1e-6;
        else
            x[i] = (i % 17) * 0.7853981633974483 + (u - 0.5) * 1e-3;
        y[i] = (rng_next(&seed) / 4294967296.0 - 0.5) * 16.0 + 1.0 / 4096;
    }
    x[0] = 0.0;
    x[1] = 1.0;
    x[2] = -2.5;
    double *dx, *dy, *dout;
    CK(cudaMalloc(&dx, n * sizeof(double)));
    CK(cudaMalloc(&dy, n * sizeof(double)));
    CK(cudaMalloc(&dout, (size_t)n * NALL * sizeof(double)));
    CK(cudaMemcpy(dx, x, n * sizeof(double), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dy, y, n * sizeof(double), cudaMemcpyHostToDevice));
    mathd<<<(n + 127) / 128, 128>>>(dx, dy, dout, n);
    CK_LAUNCH();
    CK(cudaMemcpy(out, dout, (size_t)n * NALL * sizeof(double), cudaMemcpyDeviceToHost));

    for (int i = 0; i < n; i++) {
        double a = x[i], b = y[i], w[NALL];
        int e;
        w[SIN] = sin(a);
        w[COS] = cos(a);
        w[TAN] = tan(a);
        w[EXP] = exp(a);
        w[EXP2] = exp2(b);
        w[LOG] = log(fabs(a));
        w[LOG2] = log2(fabs(a));
        w[LOG10] = log10(fabs(a));
        w[LOG1P] = log1p(fabs(b));
        w[EXPM1] = expm1(b);
        w[POW] = pow(fabs(a), b);
        w[ATAN2] = atan2(a, b);
        w[ACOS] = acos(b / 8.0);
        w[ATAN] = atan(a);
        w[SINH] = sinh(b);
        w[COSH] = cosh(b);
        w[TANH] = tanh(a);
        w[ASINH] = asinh(a);
        w[ERF] = erf(b);
        w[ERFC] = erfc(b);
        w[CBRT] = cbrt(a);
        w[HYPOT] = hypot(a, b);
        w[LGAMMA] = lgamma(fabs(b) + 0.5);
        w[SQRT] = sqrt(fabs(a));
        w[FMOD] = fmod(a, b);
        w[REM] = remainder(a, b);
        w[FLOOR] = floor(a);
        w[CEIL] = ceil(a);
        w[TRUNC] = trunc(a);
        w[ROUND] = round(a * 2.0);
        w[RINT] = rint(a * 2.0);
        w[LDEXP] = ldexp(a, (int)(b * 10.0));
        w[FREXP_M] = frexp(a, &e);
        w[FREXP_E] = e;
        w[COPYSIGN] = copysign(a, b);
        w[FDIM] = fdim(a, b);
        for (int k = 0; k < NALL; k++) {
            double got = out[(size_t)i * NALL + k];
            bool ok;
            if (k >= NLIB)
                ok = expect_bits(names[k], i, got, w[k]);
            else
                ok = expect_near(
                    names[k], i, got, w[k], 1e-14,
                    k == SIN || k == COS || k == TANH || k == ERF || k == LGAMMA ? 1e-15 : 0.0);
            if (!ok)
                fprintf(stderr, "  x %a y %a\n", a, b);
        }
    }
    CK(cudaFree(dx));
    CK(cudaFree(dy));
    CK(cudaFree(dout));
    delete[] x;
    delete[] y;
    delete[] out;
    return finish();
}
