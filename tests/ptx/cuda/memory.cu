// Memory spaces and memory-access flavours: static and dynamic shared memory,
// __constant__ arrays with initialisers, __device__ globals with initialisers
// (including pointers to other globals), volatile, __ldg, cache-hint loads and
// stores, fences, __nanosleep, clock/clock64, globaltimer.
#include <cuda_runtime.h>
#include <stdint.h>

__constant__ float c_coeffs[8] = {0.5f, 0.25f, 0.125f, 0.0625f, -1.0f, 2.0f, 3.5f, 1e-3f};
__constant__ int c_offsets[4] = {-2, -1, 1, 2};
__constant__ double c_dcoef[3] = {1.0 / 3.0, 2.718281828459045, -0.0};
__constant__ unsigned char c_bytes[5] = {1, 2, 3, 4, 255};
__constant__ struct { int a; float b; short c[2]; } c_struct = {7, 1.5f, {3, -4}};

__device__ int g_table[16] = {0, 1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377, 610};
__device__ float g_scale = 1.25f;
__device__ double g_dvals[2] = {3.141592653589793, -1e300};
__device__ long long g_ll = -9000000000ll;
__device__ int *g_table_ptr = g_table;
__device__ int *g_table_mid = &g_table[8];
__device__ float *g_scale_ptr = &g_scale;
__device__ const char g_msg[] = "ptxsim";
__device__ const char *g_msg_ptr = g_msg;
__device__ int g_uninit[32];
__device__ unsigned g_flag;
__device__ volatile int g_volatile_counter;
static __device__ int s_internal = 42;

__global__ void stencil_static_shared(const float *in, float *out, int n)
{
    __shared__ float tile[256 + 4];
    __shared__ int sh_count;
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int l = threadIdx.x + 2;
    if (threadIdx.x == 0) sh_count = 0;
    tile[l] = g < n ? in[g] : 0.0f;
    if (threadIdx.x < 2) {
        tile[threadIdx.x] = g >= 2 ? in[g - 2] : 0.0f;
        tile[l + blockDim.x] = g + blockDim.x < n ? in[g + blockDim.x] : 0.0f;
    }
    __syncthreads();
    float r = c_coeffs[0] * tile[l];
    for (int k = 0; k < 4; ++k) r += c_coeffs[k + 1] * tile[l + c_offsets[k]];
    atomicAdd(&sh_count, 1);
    __syncthreads();
    if (g < n) out[g] = r * (float)c_dcoef[0] + (float)c_bytes[g % 5] + (float)c_struct.c[g & 1] + sh_count;
}

__global__ void dynamic_shared(const int *in, int *out, int n)
{
    extern __shared__ int dyn[];
    float *fpart = (float *)&dyn[blockDim.x];
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    dyn[threadIdx.x] = g < n ? in[g] : 0;
    fpart[threadIdx.x] = (float)dyn[threadIdx.x] * g_scale;
    __syncthreads();
    int v = dyn[blockDim.x - 1 - threadIdx.x];
    float f = fpart[(threadIdx.x + 1) % blockDim.x];
    __syncthreads_or(v > 0);
    int cnt = __syncthreads_count(v & 1);
    int all = __syncthreads_and(v >= 0);
    if (g < n) out[g] = v + (int)f + cnt + all + g_table_ptr[g & 15] + g_table_mid[g & 7] + (int)*g_scale_ptr + g_msg_ptr[g % 6] + s_internal;
}

__global__ void globals_kernel(long long *out)
{
    int t = threadIdx.x;
    g_uninit[t & 31] = g_table[t & 15] * 2;
    out[t] = g_ll + (long long)g_dvals[t & 1] + g_uninit[(t + 1) & 31];
    g_volatile_counter = g_volatile_counter + 1;
}

__global__ void cache_hints(const float *__restrict__ in, float *__restrict__ out, const float4 *v4, float4 *o4, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float a = __ldg(in + i);
    float b = __ldcg(in + (i + 1) % n);
    float c = __ldca(in + (i + 2) % n);
    float d = __ldcs(in + (i + 3) % n);
    float e = __ldlu(in + (i + 4) % n);
    float f = __ldcv(in + (i + 5) % n);
    float4 q = __ldg(v4 + i);
    float4 q2 = __ldcs(v4 + (i + 1) % n);
    int2 ii = __ldg((const int2 *)in + i / 2);
    __stcg(out + i, a + b);
    __stcs(out + (i + 1) % n, c + d);
    __stwb(out + (i + 2) % n, e + f);
    __stwt(out + (i + 3) % n, (float)ii.x + (float)ii.y);
    q.x += q2.y;
    __stcs(o4 + i, q);
    __stwt(o4 + (i + 1) % n, q2);
}

__global__ void volatile_and_fences(volatile int *flag, int *data, unsigned long long *times)
{
    unsigned long long t0 = clock64();
    unsigned c0 = clock();
    unsigned long long gt0;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(gt0));
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        data[0] = 123;
        __threadfence();
        *flag = 1;
    } else if (threadIdx.x == 0) {
        int spins = 0;
        while (*flag == 0) {
            __nanosleep(100 + spins);
            if (++spins > 1000000) break;
        }
        __threadfence_block();
        data[blockIdx.x] = data[0] + spins;
    }
    __threadfence_system();
    volatile float *vf = (volatile float *)data;
    vf[1] = vf[2] + 1.0f;
    unsigned long long gt1;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(gt1));
    unsigned smid, warpid, laneid;
    asm("mov.u32 %0, %%smid;" : "=r"(smid));
    asm volatile("mov.u32 %0, %%warpid;" : "=r"(warpid));
    asm("mov.u32 %0, %%laneid;" : "=r"(laneid));
    unsigned c1 = clock();
    times[blockIdx.x * blockDim.x + threadIdx.x] = (clock64() - t0) + (gt1 - gt0) + (c1 - c0) + smid + warpid + laneid;
}

__global__ void generic_addressing(int *gp, int sel)
{
    __shared__ int sh[64];
    int local_arr[4] = {1, 2, 3, 4};
    int *p = sel == 0 ? gp : (sel == 1 ? sh : local_arr);
    sh[threadIdx.x & 63] = threadIdx.x;
    __syncthreads();
    p[threadIdx.x & 3] += 5;
    gp[threadIdx.x] = __isGlobal(p) + 2 * __isShared(p) + 4 * __isLocal(p) + local_arr[sel & 3] + sh[sel & 63];
    size_t saddr = __cvta_generic_to_shared(sh);
    gp[threadIdx.x + 64] = (int)saddr;
}
