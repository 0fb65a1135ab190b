// async_work_group_copy / wait_group_events / prefetch, private arrays,
// helper functions, structs, constant tables and control flow.
typedef struct {
    float4 pos;
    float mass;
    int id;
} Body;

__constant int primes[8] = {2, 3, 5, 7, 11, 13, 17, 19};
__constant float weights[4] = {0.1f, 0.2f, 0.3f, 0.4f};

static float weighted(const float *v, int n)
{
    float s = 0.0f;
    for (int k = 0; k < n; ++k) s += v[k] * weights[k & 3];
    return s;
}

int collatz_steps(int x)
{
    int steps = 0;
    while (x > 1 && steps < 1000) {
        x = (x & 1) ? 3 * x + 1 : x >> 1;
        ++steps;
    }
    return steps;
}

__kernel void async_copy_scale(__global const float *in, __global float *out, __local float *buf, const float k)
{
    size_t lsz = get_local_size(0);
    size_t base = get_group_id(0) * lsz;
    event_t e = async_work_group_copy(buf, in + base, lsz, 0);
    wait_group_events(1, &e);
    size_t lid = get_local_id(0);
    buf[lid] = buf[lid] * k + buf[(lid + 1) % lsz];
    barrier(CLK_LOCAL_MEM_FENCE);
    event_t e2 = async_work_group_copy(out + base, buf, lsz, 0);
    wait_group_events(1, &e2);
}

__kernel void async_strided(__global const float4 *in, __global float4 *out, const int stride)
{
    __local float4 tile[64];
    event_t e = async_work_group_strided_copy(tile, in + get_group_id(0) * 64 * stride, 64, stride, 0);
    wait_group_events(1, &e);
    prefetch(in + (get_group_id(0) + 1) * 64 * stride, 64);
    int lid = get_local_id(0);
    out[get_global_id(0)] = tile[lid & 63] + tile[(lid + 5) & 63];
}

__kernel void private_arrays(__global const int *idx, __global const float *in, __global float *out, const int n)
{
    int i = get_global_id(0);
    if (i >= n) return;
    float priv[32];
    int hist[8] = {0};
    for (int k = 0; k < 32; ++k) priv[k] = in[(i + k) % n];
    for (int k = 0; k < 16; ++k) {
        int j = idx[(i + k) % n] & 31;
        priv[j] += 1.0f;
        hist[j & 7]++;
    }
    float s = weighted(priv, 32);
    s += (float)hist[idx[i] & 7] + (float)primes[i & 7];
    s += (float)collatz_steps(i + 1);
    out[i] = s;
}

__kernel void bodies(__global Body *b, const int n, const float dt)
{
    int i = get_global_id(0);
    if (i >= n) return;
    Body me = b[i];
    float4 acc = (float4)(0.0f);
    for (int j = 0; j < n; ++j) {
        if (j == i) continue;
        float4 d = b[j].pos - me.pos;
        d.w = 0.0f;
        float r2 = dot(d, d) + 1e-3f;
        acc += d * (b[j].mass * native_rsqrt(r2 * r2 * r2));
    }
    me.pos += acc * dt;
    me.id = (me.id << 1) | (int)(length(acc) > 1.0f);
    b[i] = me;
}

__kernel void control_flow(__global int *data, const int n)
{
    int i = get_global_id(0);
    if (i >= n) return;
    int v = data[i];
    switch (v & 7) {
    case 0: v += 10; break;
    case 1: v *= 3; break;
    case 2: v = -v; break;
    case 3: v ^= 0x5a5a; break;
    case 4: v = v / 7; break;
    case 5: v = collatz_steps(v & 0xffff); break;
    default: v = 0; break;
    }
    do { v >>= 1; } while (v > 1000);
    data[i] = v;
}
