/* HeteroPDP's kernel set (docs/heteropdp.md): 22 small kernels of different character. */
__kernel void vadd(__global const float *a, __global const float *b, __global float *o, int n)
{ int i = get_global_id(0); if (i < n) o[i] = a[i] + b[i]; }
__kernel void saxpy(__global const float *a, __global const float *b, __global float *o, int n)
{ int i = get_global_id(0); if (i < n) o[i] = 2.5f * a[i] + b[i]; }
__kernel void copy(__global const float *a, __global const float *b, __global float *o, int n)
{ int i = get_global_id(0); if (i < n) o[i] = a[i]; }
__kernel void sqrtabs(__global const float *a, __global const float *b, __global float *o, int n)
{ int i = get_global_id(0); if (i < n) o[i] = sqrt(fabs(a[i])) + b[i]; }
__kernel void poly(__global const float *a, __global const float *b, __global float *o, int n)
{ int i = get_global_id(0); if (i < n) { float x = a[i]; o[i] = x * (x * (x * 0.3f + 0.2f) + 0.1f) + b[i]; } }
__kernel void sinexp(__global const float *a, __global const float *b, __global float *o, int n)
{ int i = get_global_id(0); if (i < n) o[i] = sin(a[i]) + exp(-b[i] * b[i]); }
__kernel void loopfma(__global const float *a, __global const float *b, __global float *o, int n)
{
    int i = get_global_id(0); if (i >= n) return;
    float x = a[i], y = b[i];
    for (int k = 0; k < 256; k++) x = fma(x, 0.999f, y * 0.001f);
    o[i] = x;
}
__kernel void mandel(__global const float *a, __global const float *b, __global float *o, int n)
{
    int i = get_global_id(0); if (i >= n) return;
    float cr = a[i] * 2.0f - 1.5f, ci = b[i] * 2.0f - 1.0f, zr = 0, zi = 0; int k = 0;
    for (; k < 64 && zr * zr + zi * zi < 4.0f; k++) { float t = zr * zr - zi * zi + cr; zi = 2.0f * zr * zi + ci; zr = t; }
    o[i] = (float)k;
}
__kernel void stencil(__global const float *a, __global const float *b, __global float *o, int n)
{
    int i = get_global_id(0); if (i >= n) return;
    float l = i > 0 ? a[i - 1] : 0.0f, r = i + 1 < n ? a[i + 1] : 0.0f;
    o[i] = (l + a[i] + r) * (1.0f / 3.0f);
}
__kernel void gather(__global const float *a, __global const float *b, __global float *o, int n)
{ int i = get_global_id(0); if (i < n) o[i] = a[(int)(((long)i * 7919) % n)]; }
__kernel void transpose(__global const float *a, __global const float *b, __global float *o, int n)
{
    int w = (int)sqrt((float)n), i = get_global_id(0); if (i >= w * w) return;
    o[(i % w) * w + i / w] = a[i];
}
__kernel void matmul(__global const float *a, __global const float *b, __global float *o, int n)
{
    int w = (int)sqrt((float)n) / 4, i = get_global_id(0); if (i >= w * w) return;
    int r = i / w, c = i % w; float s = 0;
    for (int k = 0; k < w; k++) s += a[r * w + k] * b[k * w + c];
    o[i] = s;
}
__kernel void reduce(__global const float *a, __global const float *b, __global float *o, int n)
{
    __local float s[64];
    int i = get_global_id(0), l = get_local_id(0);
    s[l] = i < n ? a[i] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int h = 32; h > 0; h >>= 1) { if (l < h) s[l] += s[l + h]; barrier(CLK_LOCAL_MEM_FENCE); }
    if (l == 0) o[get_group_id(0)] = s[0];
}
__kernel void histo(__global const float *a, __global const float *b, __global int *o, int n)
{ int i = get_global_id(0); if (i < n) atomic_inc(&o[(int)(a[i] * 63.0f) & 63]); }
__kernel void inthash(__global const float *a, __global const float *b, __global float *o, int n)
{
    int i = get_global_id(0); if (i >= n) return;
    uint h = (uint)i;
    for (int k = 0; k < 32; k++) { h ^= h >> 16; h *= 0x7feb352dU; h ^= h >> 15; h *= 0x846ca68bU; }
    o[i] = (float)(h & 1023u);
}
__kernel void bits(__global const float *a, __global const float *b, __global float *o, int n)
{
    int i = get_global_id(0); if (i >= n) return;
    uint v = (uint)i * 2654435761u;
    o[i] = (float)(popcount(v) + clz(v | 1u) + (int)rotate(v, 7u) % 5);
}
__kernel void vec4add(__global const float4 *a, __global const float4 *b, __global float4 *o, int n)
{ int i = get_global_id(0); if (i < n / 4) o[i] = a[i] * 1.5f + b[i]; }
__kernel void vec4dot(__global const float4 *a, __global const float4 *b, __global float *o, int n)
{ int i = get_global_id(0); if (i < n / 4) o[i] = dot(a[i], b[i]); }
__kernel void conv9(__global const float *a, __global const float *b, __global float *o, int n)
{
    int i = get_global_id(0); if (i >= n) return;
    float s = 0;
    for (int k = -4; k <= 4; k++) { int j = i + k; s += (j >= 0 && j < n ? a[j] : 0.0f) * (0.1f + 0.01f * k); }
    o[i] = s;
}
__kernel void bsm(__global const float *a, __global const float *b, __global float *o, int n)
{
    int i = get_global_id(0); if (i >= n) return;
    float s = 10.0f + 90.0f * a[i], k = 10.0f + 90.0f * b[i], t = 1.0f, v = 0.3f, r = 0.02f;
    float d1 = (log(s / k) + (r + 0.5f * v * v) * t) / (v * sqrt(t)), d2 = d1 - v * sqrt(t);
    float n1 = 0.5f * erfc(-d1 * M_SQRT1_2_F), n2 = 0.5f * erfc(-d2 * M_SQRT1_2_F);
    o[i] = s * n1 - k * exp(-r * t) * n2;
}
__kernel void nbody(__global const float *a, __global const float *b, __global float *o, int n)
{
    int i = get_global_id(0); if (i >= n) return;
    float x = a[i], f = 0;
    for (int k = 0; k < 64; k++) { float d = x - a[(i + k * 37) % n] + 0.01f; f += d * rsqrt(d * d + 0.1f); }
    o[i] = f;
}
__kernel void diverge(__global const float *a, __global const float *b, __global float *o, int n)
{
    int i = get_global_id(0); if (i >= n) return;
    float x = a[i];
    if (i % 3 == 0) { for (int k = 0; k < 32; k++) x = x * 0.9f + 0.1f; }
    else if (i % 3 == 1) x = sqrt(x + 1.0f);
    else x = -x;
    o[i] = x + b[i];
}
