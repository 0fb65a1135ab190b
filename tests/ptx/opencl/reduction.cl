// Work-group reductions in __local memory with barrier, multi-stage.
#define WG 256

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void reduce_sum(__global const float *in, __global float *partial, __local float *scratch, const uint n)
{
    uint lid = get_local_id(0);
    uint gid = get_global_id(0);
    uint gsz = get_global_size(0);
    float acc = 0.0f;
    for (uint i = gid; i < n; i += gsz)
        acc += in[i];
    scratch[lid] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = get_local_size(0) / 2; s > 0; s >>= 1) {
        if (lid < s) scratch[lid] += scratch[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) partial[get_group_id(0)] = scratch[0];
}

__kernel void reduce_minmax(__global const int *in, __global int2 *out, const uint n)
{
    __local int lmin[WG];
    __local int lmax[WG];
    uint lid = get_local_id(0);
    uint gid = get_global_id(0);
    int v = gid < n ? in[gid] : in[0];
    lmin[lid] = v;
    lmax[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = get_local_size(0) >> 1; s > 0; s >>= 1) {
        if (lid < s) {
            lmin[lid] = min(lmin[lid], lmin[lid + s]);
            lmax[lid] = max(lmax[lid], lmax[lid + s]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) out[get_group_id(0)] = (int2)(lmin[0], lmax[0]);
}

__kernel void reduce_double(__global const double *in, __global double *out, __local double *tmp, const uint n)
{
    uint lid = get_local_id(0);
    uint i = get_group_id(0) * get_local_size(0) * 2 + lid;
    double s = 0.0;
    if (i < n) s = in[i];
    if (i + get_local_size(0) < n) s += in[i + get_local_size(0)];
    tmp[lid] = s;
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    for (uint k = get_local_size(0) / 2; k > 0; k /= 2) {
        if (lid < k) tmp[lid] = fma(tmp[lid + k], 1.0, tmp[lid]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) out[get_group_id(0)] = tmp[0];
    mem_fence(CLK_GLOBAL_MEM_FENCE);
}

__kernel void prefix_sum(__global int *data, __local int *tmp, const uint n)
{
    uint lid = get_local_id(0);
    uint gid = get_global_id(0);
    tmp[lid] = gid < n ? data[gid] : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint off = 1; off < get_local_size(0); off <<= 1) {
        int t = lid >= off ? tmp[lid - off] : 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        tmp[lid] += t;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (gid < n) data[gid] = tmp[lid];
}
