// Double-precision CUDA math library and rounding-mode intrinsics.
#include <cuda_runtime.h>

__device__ double poly_eval(const double *c, int n, double x)
{
    double r = 0.0;
    for (int k = n - 1; k >= 0; --k)
        r = fma(r, x, c[k]);
    return r;
}

__global__ void math_double_std(const double *in, double *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double x = in[i];
    double y = in[(i + 7) % n];
    double acc = 0.0;
    acc += sin(x) + cos(x) + tan(x);
    acc += asin(x * 0.5) + acos(x * 0.5) + atan(x) + atan2(y, x);
    acc += sinh(x) + cosh(x) + tanh(x) + asinh(x) + acosh(1.0 + fabs(x)) + atanh(x * 0.25);
    acc += exp(x) + exp2(x) + exp10(x) + expm1(x);
    acc += log(fabs(x) + 1.0) + log2(fabs(x) + 1.0) + log10(fabs(x) + 1.0) + log1p(fabs(x));
    acc += pow(fabs(x), y) + sqrt(fabs(x)) + rsqrt(fabs(x) + 1.0) + cbrt(x) + rcbrt(x + 2.0);
    acc += erf(x) + erfc(x) + erfinv(x * 0.5) + erfcinv(0.5 + x * 0.1) + erfcx(x);
    acc += lgamma(fabs(x) + 0.5) + tgamma(x + 3.0);
    acc += hypot(x, y) + rhypot(x, y) + norm3d(x, y, 1.0) + rnorm3d(x, y, 2.0);
    acc += fmod(x, y + 3.0) + remainder(x, y + 3.0);
    int quo;
    acc += remquo(x, y + 3.0, &quo);
    acc += (double)quo;
    acc += rint(x) + trunc(x) + floor(x) + ceil(x) + round(x) + nearbyint(x);
    acc += (double)lrint(x) + (double)llround(y) + (double)llrint(x);
    acc += fmin(x, y) + fmax(x, y) + fdim(x, y) + fma(x, y, acc) + copysign(x, y);
    acc += ldexp(x, 5) + scalbn(y, -3) + (double)ilogb(x + 5.0) + logb(x + 5.0);
    int e;
    acc += frexp(x, &e);
    acc += (double)e;
    double ip;
    acc += modf(x, &ip);
    acc += ip;
    double s, c;
    sincos(x, &s, &c);
    acc += s * c;
    sincospi(y, &s, &c);
    acc += s + c + sinpi(x) + cospi(y);
    acc += j0(x) + j1(x) + y0(fabs(x) + 1.0) + y1(fabs(x) + 1.0) + jn(3, x) + yn(3, fabs(x) + 1.0);
    acc += cyl_bessel_i0(x) + cyl_bessel_i1(x);
    acc += normcdf(x) + normcdfinv(0.25) + nextafter(x, y);
    acc += (isnan(x) ? 1.0 : 0.0) + (isinf(y) ? 2.0 : 0.0) + (signbit(x) ? 4.0 : 0.0);
    const double coeffs[5] = {1.0, -0.5, 0.25, -0.125, 0.0625};
    acc += poly_eval(coeffs, 5, x);
    out[i] = acc;
}

__global__ void math_double_intrinsics(const double *a, const double *b, double *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double x = a[i], y = b[i];
    double r = 0.0;
    r += __dadd_rn(x, y) + __dadd_rz(x, y) + __dadd_ru(x, y) + __dadd_rd(x, y);
    r += __dsub_rn(x, y) + __dsub_rz(x, y) + __dsub_ru(x, y) + __dsub_rd(x, y);
    r += __dmul_rn(x, y) + __dmul_rz(x, y) + __dmul_ru(x, y) + __dmul_rd(x, y);
    r += __ddiv_rn(x, y) + __ddiv_rz(x, y) + __ddiv_ru(x, y) + __ddiv_rd(x, y);
    r += __drcp_rn(x) + __drcp_rz(x) + __drcp_ru(x) + __drcp_rd(x);
    r += __dsqrt_rn(fabs(x)) + __dsqrt_rz(fabs(x)) + __dsqrt_ru(fabs(y)) + __dsqrt_rd(fabs(y));
    r += __fma_rn(x, y, r) + __fma_rz(x, y, r) + __fma_ru(x, y, r) + __fma_rd(x, y, r);
    out[i] = r;
}

__global__ void dot_double(const double *a, const double *b, double *partial, int n)
{
    extern __shared__ double sdata[];
    int tid = threadIdx.x;
    double sum = 0.0;
    for (int i = blockIdx.x * blockDim.x + tid; i < n; i += blockDim.x * gridDim.x)
        sum = fma(a[i], b[i], sum);
    sdata[tid] = sum;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) partial[blockIdx.x] = sdata[0];
}
