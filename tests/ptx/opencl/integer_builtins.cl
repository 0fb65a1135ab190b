// Integer built-ins: popcount, clz, rotate, mul_hi, add_sat, sub_sat,
// hadd, rhadd, abs, abs_diff, upsample, mul24/mad24, 64-bit and vector forms.
__kernel void int_builtins(__global const uint *a, __global const uint *b, __global uint *out, const int n)
{
    int i = get_global_id(0);
    if (i >= n) return;
    uint x = a[i], y = b[i];
    int sx = (int)x, sy = (int)y;
    uint r = 0;
    r += popcount(x) + clz(y) + rotate(x, y & 31u) + mul_hi(x, y) + mul_hi(x, y) + 7u; /* mad_hi(uint) is missing from libclc-14 */
    r += add_sat(x, y) + sub_sat(x, y) + (uint)add_sat(sx, sy) + (uint)sub_sat(sx, sy);
    r += hadd(x, y) + rhadd(x, y) + (uint)hadd(sx, sy) + abs(sx) + abs_diff(sx, sy) + abs_diff(x, y);
    r += mul24(x & 0xffffffu, y & 0xffffffu) + (uint)mad24(sx & 0xffffff, sy & 0xffffff, 5);
    r += (uint)mad_sat(sx, sy, 100) + max(x, y) + min(x, y) + (uint)clamp(sx, -100, 100);
    r += (uint)upsample((ushort)x, (ushort)y);
    r += (uint)(upsample(x, y) >> 13);
    r += (uint)(x / (y | 1u)) + x % (y | 1u) + (uint)(sx / (sy | 1)) + (uint)(sx % (sy | 1));
    out[i] = r;
}

__kernel void long_builtins(__global const ulong *a, __global const long *b, __global ulong *out)
{
    size_t i = get_global_id(0);
    ulong x = a[i];
    long y = b[i];
    ulong r = popcount(x) + clz(x) + rotate(x, (ulong)(y & 63)) + mul_hi(x, (ulong)y) + (ulong)mul_hi(y, (long)x);
    r += add_sat(x, (ulong)y) + (ulong)sub_sat(y, (long)x) + (ulong)abs(y) + abs_diff(x, (ulong)y);
    r += x / ((ulong)y | 1ul) + (ulong)(y % ((long)x | 1l)) + (x >> 7) + (ulong)(y >> 9) + (x << (y & 63));
    out[i] = r;
}

__kernel void vector_int(__global const int4 *a, __global const uchar16 *b, __global int4 *o, __global uchar16 *ob, __global short8 *os)
{
    size_t i = get_global_id(0);
    int4 x = a[i];
    uchar16 c = b[i];
    o[i] = popcount(x) + clz(x) + rotate(x, (int4)(1, 2, 3, 4)) + mul_hi(x, x.wzyx) + add_sat(x, (int4)(0x7fffffff)) +
           as_int4(abs(x)) + max(x, 0) + (x > 0) + (x == x.yzwx);
    ob[i] = add_sat(c, c.sfedcba9876543210) + hadd(c, (uchar16)(3)) + as_uchar16(c < (uchar)128);
    short8 s = convert_short8_sat(x.xyzwxyzw * 1000);
    os[i] = sub_sat(s, (short8)(30000)) + upsample((char8)(1), convert_uchar8(c.lo));
}

__kernel void bit_tricks(__global uint *data, const int n)
{
    int i = get_global_id(0);
    if (i >= n) return;
    uint v = data[i];
    v = (v & 0x55555555u) + ((v >> 1) & 0x55555555u);
    v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
    uint rev = 0;
    for (int k = 0; k < 32; ++k) rev |= ((data[i] >> k) & 1u) << (31 - k);
    data[i] = v ^ rev ^ (uint)select(1, 2, (int)(v > rev)) ^ bitselect(v, rev, 0xf0f0f0f0u);
}
