// OpenCL math built-ins (full, native_, half_), common and geometric functions.
__kernel void math_float(__global const float *in, __global float *out, const int n)
{
    int i = get_global_id(0);
    if (i >= n) return;
    float x = in[i], y = in[(i + 1) % n];
    float r = 0.0f;
    r += sin(x) + cos(x) + tan(x) + asin(x * 0.5f) + acos(x * 0.5f) + atan(x) + atan2(y, x);
    r += sinh(x) + cosh(x) + tanh(x) + asinh(x) + acosh(fabs(x) + 1.0f) + atanh(x * 0.25f);
    r += exp(x) + exp2(x) + exp10(x) + expm1(x) + log(fabs(x) + 1.0f) + log2(fabs(y) + 1.0f) + log10(fabs(x) + 2.0f) + log1p(fabs(x));
    r += pow(fabs(x), y) + pown(x, 3) + powr(fabs(x), 2.5f) + rootn(fabs(x), 3) + sqrt(fabs(x)) + rsqrt(fabs(y) + 1.0f) + cbrt(x);
    r += erf(x) + erfc(y) + lgamma(fabs(x) + 0.5f) + tgamma(x + 3.0f);
    r += hypot(x, y) + fmod(x, y + 3.0f) + remainder(x, y + 3.0f) + copysign(x, y) + fdim(x, y) + nextafter(x, y);
    r += rint(x) + trunc(x) + floor(x) + ceil(y) + round(y);
    r += fmin(x, y) + fmax(x, y) + fma(x, y, r) + mad(x, y, 1.0f) + ldexp(x, 3) + logb(x + 5.0f) + (float)ilogb(x + 5.0f);
    float ip;
    r += fract(x, &ip) + ip;
    float c;
    r += sincos(x, &c) + c;
    int e;
    r += frexp(x, &e) + (float)e;
    r += sinpi(x) + cospi(y) + tanpi(x * 0.1f) + asinpi(x * 0.5f) + atan2pi(y, x);
    /* native_sin/cos/exp/exp2/exp10/log/log2/log10/tan/powr are not usable with
       libclc-14 on nvptx (they lower to LLVM intrinsics without an NVPTX
       lowering and fail with "Undefined external symbol"); the native_ forms
       used here compile. */
    r += native_sqrt(fabs(x)) + native_rsqrt(fabs(x) + 1.0f) + native_recip(y + 2.0f) + native_divide(x, y + 2.0f);
    r += half_sin(x) + half_cos(y) + half_exp(x) + half_exp2(y) + half_log(fabs(x) + 1.0f) + half_sqrt(fabs(x));
    r += half_rsqrt(fabs(y) + 1.0f) + half_recip(x + 3.0f) + half_powr(fabs(x) + 1.0f, y) + half_divide(x, y + 4.0f);
    r += clamp(x, -1.0f, 1.0f) + mix(x, y, 0.25f) + step(0.5f, x) + smoothstep(0.0f, 1.0f, y) + sign(x) + degrees(x) + radians(y);
    r += isnan(x) + isinf(y) + isfinite(x) + signbit(y) + isless(x, y);
    out[i] = r;
}

__kernel void geometric(__global const float4 *a, __global const float4 *b, __global float4 *out)
{
    size_t i = get_global_id(0);
    float4 x = a[i], y = b[i];
    float4 r = normalize(x) + fast_normalize(y);
    r += cross(x, y);
    r.w = dot(x, y) + distance(x, y) + length(x) + fast_length(y) + fast_distance(x, y);
    r += max(x, y) + min(x, 1.0f) + clamp(y, 0.0f, 1.0f) + mix(x, y, (float4)(0.5f));
    r += sin(x) * exp(y) + native_rsqrt(fabs(y) + 2.0f) + rsqrt(fabs(x) + 1.0f) + fma(x, y, r) + mad(x, y, r);
    out[i] = r;
}

__kernel void math_double(__global const double *in, __global double *out, const int n)
{
    int i = get_global_id(0);
    if (i >= n) return;
    double x = in[i], y = in[(i + 3) % n];
    double r = sin(x) + cos(y) + exp(x) + log(fabs(y) + 1.0) + pow(fabs(x), y) + sqrt(fabs(x)) + rsqrt(fabs(y) + 1.0);
    r += fma(x, y, r) + fmod(x, y + 5.0) + floor(x) + ceil(y) + atan2(y, x) + hypot(x, y) + erf(x) + cbrt(y);
    r += clamp(x, -1.0, 1.0) + mix(x, y, 0.5) + (double)convert_long_rtn(x) + (double)(float)y;
    out[i] = r;
}
