// Half precision (cuda_fp16.h) and bfloat16 (cuda_bf16.h) arithmetic and conversions.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

__global__ void half_scalar(const __half *a, const __half *b, __half *out, float *fout, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __half x = a[i], y = b[i];
    __half r = __hadd(x, y);
    r = __hmul(r, __hsub(x, y));
    r = __hfma(r, x, y);
    r = __hadd_sat(r, __float2half(0.25f));
    r = __hdiv(r, __hadd(y, __float2half_rn(2.0f)));
    r = __hneg(r);
    r = __habs(r);
    r = r + x * y - __half(1.0f);
    r = __hmax(r, __hmin(x, y));
    r = hsqrt(__habs(r)) + hexp(x) + hlog(__habs(y) + __half(1.0f)) + hsin(x) + hcos(y) + hrcp(y + __half(3.0f));
    r = hfloor(r) + hceil(x) + htrunc(y) + hrint(r) + hrsqrt(__habs(x) + __half(1.0f)) + hexp2(y) + hlog2(__habs(x) + __half(2.0f));
    bool lt = __hlt(x, y) || __hge(x, y) || __heq(x, __float2half(0.0f)) || __hisnan(y) || __hisinf(x);
    if (x > y) r = r * __half(2.0f);
    out[i] = r;
    float f = __half2float(r) + __low2float(__halves2half2(x, y)) + (lt ? 1.0f : 0.0f);
    f += (float)__half2int_rn(x) + (float)__half2uint_rz(y) + (float)__half2short_rd(x) + (float)__half2ll_ru(y);
    f += __half2float(__int2half_rn(i)) + __half2float(__uint2half_rz((unsigned)i)) + __half2float(__ll2half_rd((long long)i));
    f += __half2float(__float2half_rz(f)) + __half2float(__float2half_ru(f)) + __half2float(__float2half_rd(f));
    f += __half2float(__double2half((double)f));
    f += (float)__half_as_ushort(x) + __half2float(__ushort_as_half((unsigned short)i));
    fout[i] = f;
}

__global__ void half2_vector(const __half2 *a, const __half2 *b, __half2 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __half2 x = a[i], y = b[i];
    __half2 r = __hadd2(x, y);
    r = __hmul2(r, y);
    r = __hfma2(x, y, r);
    r = __hfma2_sat(r, x, y);
    r = __hsub2(r, __float2half2_rn(0.5f));
    r = __h2div(r, __hadd2(y, __floats2half2_rn(3.0f, 4.0f)));
    r = __hneg2(r);
    r = __habs2(r);
    r = __hmax2(r, __hmin2(x, y));
    r = h2sqrt(__habs2(r)) + h2exp(x) + h2sin(y) + h2cos(x) + h2rcp(__hadd2(y, __float2half2_rn(5.0f)));
    r = __lowhigh2highlow(r);
    r = __halves2half2(__high2half(r), __low2half(x));
    r = __lows2half2(r, y) + __highs2half2(x, r);
    __half2 cmp = __hlt2(x, y);
    r = r + cmp + __hgt2(x, y) + __heq2(x, r);
    bool both = __hbgt2(x, y);
    float2 f2 = __half22float2(r);
    if (both) f2.x += 1.0f;
    r = __float22half2_rn(f2);
    r = __shfl_xor_sync(0xffffffffu, r, 1);
    out[i] = r;
}

__global__ void half_atomics(__half *hp, __half2 *h2p, __nv_bfloat16 *bp, __nv_bfloat162 *b2p)
{
    atomicAdd(h2p, __float2half2_rn(1.0f));
    atomicAdd(hp, __float2half(0.5f));
    atomicAdd(b2p, __floats2bfloat162_rn(1.0f, 2.0f));
    atomicAdd(bp, __float2bfloat16(0.5f));
}

__global__ void bf16_kernel(const __nv_bfloat16 *a, const __nv_bfloat16 *b, __nv_bfloat16 *out,
                            const __nv_bfloat162 *a2, __nv_bfloat162 *o2, float *fout, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __nv_bfloat16 x = a[i], y = b[i];
    __nv_bfloat16 r = __hadd(x, y);
    r = __hmul(r, y);
#if __CUDA_ARCH__ >= 800
    r = __hfma(x, y, r);
#else
    r = __hadd(__hmul(x, y), r);
#endif
    r = __hsub(r, __float2bfloat16(1.5f));
    r = __hmax(r, __hmin(x, y));
    r = __habs(__hneg(r));
    r = r + x * y;
    r = hsqrt(__habs(r)) + hexp(x) + hfloor(y);
    out[i] = r;
    __nv_bfloat162 v = a2[i];
#if __CUDA_ARCH__ >= 800
    v = __hfma2(v, v, __floats2bfloat162_rn(1.0f, -1.0f));
#else
    v = __hadd2(__hmul2(v, v), __floats2bfloat162_rn(1.0f, -1.0f));
#endif
    v = __hmul2(v, __bfloat162bfloat162(y));
    v = __hadd2(v, __lows2bfloat162(v, v));
    o2[i] = v;
    float f = __bfloat162float(r) + __low2float(v) + __high2float(v);
    f += (float)__bfloat162int_rn(x) + __bfloat162float(__int2bfloat16_rn(i)) + __bfloat162float(__float2bfloat16_rz(f));
    f += __bfloat162float(__double2bfloat16((double)f)) + (float)__bfloat16_as_ushort(y);
    f += (__hlt(x, y) ? 1.0f : 0.0f) + (__hisnan(x) ? 2.0f : 0.0f);
    fout[i] = f;
}

__global__ void mixed_precision_gemv(const __half *A, const __half *x, float *y, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    float acc = 0.0f;
    const __half2 *row2 = reinterpret_cast<const __half2 *>(A + (size_t)r * cols);
    const __half2 *x2 = reinterpret_cast<const __half2 *>(x);
    for (int c = 0; c < cols / 2; ++c) {
        float2 p = __half22float2(__hmul2(row2[c], x2[c]));
        acc += p.x + p.y;
    }
    y[r] = acc;
}
