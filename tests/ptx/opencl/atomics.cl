// OpenCL 1.2 atomics on global and local memory, plus cl_khr atom_* forms.
#pragma OPENCL EXTENSION cl_khr_global_int32_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_global_int32_extended_atomics : enable
#pragma OPENCL EXTENSION cl_khr_local_int32_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_local_int32_extended_atomics : enable

__kernel void histogram(__global const uchar *data, __global uint *hist, const uint n)
{
    __local uint lh[256];
    uint lid = get_local_id(0);
    for (uint k = lid; k < 256; k += get_local_size(0)) lh[k] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = get_global_id(0); i < n; i += get_global_size(0))
        atomic_inc(&lh[data[i]]);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = lid; k < 256; k += get_local_size(0))
        atomic_add(&hist[k], lh[k]);
}

__kernel void all_atomics(__global int *ip, __global uint *up, __global float *fp, __global int *out)
{
    int gid = get_global_id(0);
    int r = 0;
    r += atomic_add(ip, 1);
    r += atomic_sub(ip + 1, 2);
    r += atomic_xchg(ip + 2, gid);
    r += (int)atomic_xchg(fp, (float)gid);
    r += atomic_inc(ip + 3);
    r += atomic_dec(ip + 4);
    r += atomic_cmpxchg(ip + 5, 0, gid);
    r += atomic_min(ip + 6, gid);
    r += atomic_max(ip + 7, gid);
    r += (int)atomic_min(up, (uint)gid);
    r += (int)atomic_max(up + 1, (uint)gid);
    r += atomic_and(ip + 8, 0xff);
    r += atomic_or(ip + 9, 1 << (gid & 31));
    r += atomic_xor(ip + 10, gid);
    r += atom_add(ip + 11, 3);
    r += atom_cmpxchg(ip + 12, gid, gid + 1);
    r += atom_xchg(ip + 13, 7);
    r += atom_max(ip + 14, gid);
    r += (int)atom_inc(up + 2);
    out[gid] = r;
}

__kernel void local_atomics(__global int *out)
{
    __local int counter;
    __local int cas_target;
    if (get_local_id(0) == 0) { counter = 0; cas_target = -1; }
    barrier(CLK_LOCAL_MEM_FENCE);
    int slot = atomic_add(&counter, 1);
    atomic_cmpxchg(&cas_target, -1, (int)get_local_id(0));
    atomic_max(&counter, slot);
    atom_or(&cas_target, 0);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = slot + counter + cas_target;
}

// Spin lock built from cmpxchg
void lock(__global volatile int *m) { while (atomic_cmpxchg(m, 0, 1) != 0) ; }
void unlock(__global volatile int *m) { atomic_xchg(m, 0); }

__kernel void locked_update(__global volatile int *mutex, __global float *acc, __global const float *v)
{
    if (get_local_id(0) == 0) {
        lock(mutex);
        *acc += v[get_group_id(0)];
        mem_fence(CLK_GLOBAL_MEM_FENCE);
        unlock(mutex);
    }
}
