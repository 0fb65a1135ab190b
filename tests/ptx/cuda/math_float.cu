// Single-precision CUDA math library and fast-math intrinsics.
#include <cuda_runtime.h>

__global__ void math_float_std(const float *__restrict__ in, float *__restrict__ out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = in[i];
    float y = in[(i + 1) % n];
    float acc = 0.0f;
    acc += sinf(x) + cosf(x) + tanf(x);
    acc += asinf(x * 0.5f) + acosf(x * 0.5f) + atanf(x) + atan2f(y, x);
    acc += sinhf(x) + coshf(x) + tanhf(x);
    acc += asinhf(x) + acoshf(1.0f + fabsf(x)) + atanhf(x * 0.25f);
    acc += expf(x) + exp2f(x) + exp10f(x) + expm1f(x);
    acc += logf(fabsf(x) + 1.0f) + log2f(fabsf(x) + 1.0f) + log10f(fabsf(x) + 1.0f) + log1pf(fabsf(x));
    acc += powf(fabsf(x), y) + sqrtf(fabsf(x)) + rsqrtf(fabsf(x) + 1.0f) + cbrtf(x) + rcbrtf(x + 2.0f);
    acc += erff(x) + erfcf(x) + erfinvf(x * 0.5f) + erfcinvf(0.5f + x * 0.1f) + erfcxf(x);
    acc += lgammaf(fabsf(x) + 0.5f) + tgammaf(x + 3.0f);
    acc += hypotf(x, y) + rhypotf(x, y) + norm3df(x, y, 1.0f) + rnorm4df(x, y, 1.0f, 2.0f);
    acc += fmodf(x, y + 3.0f) + remainderf(x, y + 3.0f);
    int quo;
    acc += remquof(x, y + 3.0f, &quo);
    acc += (float)quo;
    acc += rintf(x) + truncf(x) + floorf(x) + ceilf(x) + roundf(x) + nearbyintf(x);
    acc += (float)lrintf(x) + (float)llroundf(y);
    acc += fminf(x, y) + fmaxf(x, y) + fdimf(x, y) + fmaf(x, y, acc) + copysignf(x, y);
    acc += ldexpf(x, 3) + scalbnf(y, -2) + (float)ilogbf(x + 5.0f) + logbf(x + 5.0f);
    int e;
    acc += frexpf(x, &e);
    acc += (float)e;
    float ip;
    acc += modff(x, &ip);
    acc += ip;
    float s, c;
    sincosf(x, &s, &c);
    acc += s * c;
    sincospif(y, &s, &c);
    acc += s + c + sinpif(x) + cospif(y);
    acc += j0f(x) + j1f(x) + y0f(fabsf(x) + 1.0f) + y1f(fabsf(x) + 1.0f) + jnf(2, x) + ynf(2, fabsf(x) + 1.0f);
    acc += cyl_bessel_i0f(x) + cyl_bessel_i1f(x);
    acc += normcdff(x) + normcdfinvf(0.3f) + nextafterf(x, y);
    acc += (isnan(x) ? 1.0f : 0.0f) + (isinf(y) ? 2.0f : 0.0f) + (isfinite(x) ? 4.0f : 0.0f) + (signbit(y) ? 8.0f : 0.0f);
    acc += fdividef(x, y + 4.0f);
    out[i] = acc;
}

__global__ void math_float_intrinsics(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = in[i];
    float y = in[n - 1 - i];
    float r = 0.0f;
    r += __sinf(x) + __cosf(x) + __tanf(x);
    r += __expf(x) + __exp10f(x) + __logf(x + 2.0f) + __log2f(x + 2.0f) + __log10f(x + 2.0f);
    r += __powf(x + 2.0f, y);
    float s, c;
    __sincosf(y, &s, &c);
    r += s - c;
    r += __fdividef(x, y + 1.0f);
    r += __fmaf_rn(x, y, r) + __fmaf_rz(x, y, r) + __fmaf_ru(x, y, r) + __fmaf_rd(x, y, r);
    r += __fadd_rn(x, y) + __fadd_rz(x, y) + __fadd_ru(x, y) + __fadd_rd(x, y);
    r += __fsub_rn(x, y) + __fsub_rz(x, y) + __fmul_ru(x, y) + __fmul_rd(x, y);
    r += __fdiv_rn(x, y) + __fdiv_rz(x, y) + __fdiv_ru(x, y) + __fdiv_rd(x, y);
    r += __frcp_rn(x) + __frcp_rz(x) + __frcp_ru(x) + __frcp_rd(x);
    r += __fsqrt_rn(fabsf(x)) + __fsqrt_rz(fabsf(x)) + __fsqrt_ru(fabsf(y)) + __fsqrt_rd(fabsf(y));
    r += __frsqrt_rn(fabsf(x) + 1.0f);
    r += __saturatef(x) + __fmul_rn(x, __fadd_rn(y, 1.0f));
    r += __fmaf_ieee_rn(x, y, 1.0f);
    out[i] = r;
}

__global__ void math_float_fastmath_loop(float *data, int n, int iters)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = data[i];
#pragma unroll 4
    for (int k = 0; k < iters; ++k) {
        v = fmaf(v, 1.0001f, -0.5f) * __expf(-v * v);
        v = v > 1.0f ? __logf(v) : sqrtf(fabsf(v));
    }
    data[i] = v;
}
