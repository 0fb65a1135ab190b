-cl-kernel-arg-info
typedef struct { float4 v; int k; } item;
__constant float scale[4] = {1.0f, 2.0f, 3.0f, 4.0f};
__kernel void types(__global item *it, __global double *d, __global uchar4 *c, __global atomic_int *n)
{
    size_t i = get_global_id(0);
    it[i].v = it[i].v * scale[i & 3] + (float4)(it[i].k);
    d[i] = sqrt(d[i]) + convert_double(c[i].x);
    c[i] = convert_uchar4_sat(it[i].v);
    atomic_inc((volatile __global int *)n);
}
