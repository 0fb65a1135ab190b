// Element-wise vector kernels: saxpy, vector types, swizzles, conversions.
__kernel void saxpy(const float a, __global const float *x, __global float *y, const int n)
{
    int i = get_global_id(0);
    if (i < n)
        y[i] = a * x[i] + y[i];
}

__kernel void vec_add4(__global const float4 *a, __global const float4 *b, __global float4 *c)
{
    size_t i = get_global_id(0);
    float4 va = a[i], vb = b[i];
    float4 r = va + vb;
    r.xy = r.yx * 2.0f;
    r.w = dot(va, vb);
    r.z += length(va.xyz);
    c[i] = r;
}

__kernel void swizzle_int8(__global const int8 *in, __global int8 *out, __global int4 *o4)
{
    size_t i = get_global_id(0);
    int8 v = in[i];
    int8 r;
    r.lo = v.hi;
    r.hi = v.lo + (int4)(1, 2, 3, 4);
    r.s0 ^= v.s7;
    r.s1357 = v.s0246 * 3;
    r.even = r.odd >> 1;
    out[i] = r;
    o4[i] = v.s3210 & (int4)(0xff);
}

__kernel void conversions(__global const float4 *f, __global int4 *i4, __global uchar4 *u4, __global float *fs,
                          __global double *d)
{
    size_t i = get_global_id(0);
    float4 v = f[i];
    i4[i] = convert_int4_rtz(v) + convert_int4_sat_rte(v * 100.0f);
    u4[i] = convert_uchar4_sat(v * 255.0f);
    int4 bits = as_int4(v);
    fs[i] = as_float(bits.x ^ 0x80000000) + convert_float(convert_short_sat(v.y * 40000.0f));
    uint u = convert_uint_rtp(v.z);
    d[i] = (double)u;
}

__kernel void select_shuffle(__global const float4 *a, __global const float4 *b, __global float4 *out,
                             __global const uint4 *mask)
{
    size_t i = get_global_id(0);
    float4 x = a[i], y = b[i];
    int4 cmp = isgreater(x, y);
    float4 r = select(x, y, cmp);
    r = bitselect(r, x, as_float4(mask[i]));
    r += shuffle(x, mask[i] & 3u);
    r += shuffle2(x, y, mask[i] & 7u);
    out[i] = r;
}

__kernel void vload_vstore(__global const float *in, __global float *out, __global const short *sin, __global short *sout)
{
    size_t i = get_global_id(0);
    float3 v3 = vload3(i, in);
    float4 v4 = vload4(i, in + 1);
    float2 v2 = vload2(i, in + 2);
    vstore3(v3 * 2.0f, i, out);
    vstore4(v4 + v3.x, i, out + 3 * get_global_size(0));
    vstore2(v2.yx, i, out + 7 * get_global_size(0));
    short8 s8 = vload8(i, sin);
    vstore8(s8 + (short8)(1), i, sout);
    float16 f16 = vload16(0, in);
    out[i] += f16.s5 + f16.sf + dot(f16.lo.lo, f16.hi.hi);
}
