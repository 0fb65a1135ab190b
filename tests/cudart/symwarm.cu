// L2 warm-up by host copies (-gpgpu_perf_sim_memcpy): a cudaMemcpy to a
// __constant__ array's address leaves its lines in the L2, a
// cudaMemcpyToSymbol does not (as GPGPU-Sim's symbol copies). With SYMWARM_MEMCPY
// set the array is copied with cudaMemcpy, else with cudaMemcpyToSymbol; smoke.sh
// compares the two runs' L2 misses.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__constant__ int k[64]; // 256 bytes: four 64-byte constant-cache lines

__global__ void sum(int *out)
{
    int s = 0;
    for (int i = 0; i < 64; i++)
        s += k[(i + threadIdx.x) % 64];
    out[threadIdx.x] = s;
}

int main()
{
    int h[64], out[32], *dout, *dk, bad = 0;
    const char *e = getenv("SYMWARM_MEMCPY");
    bool by_memcpy = e && *e;

    for (int i = 0; i < 64; i++)
        h[i] = i;
    if (cudaMalloc(&dout, sizeof(out)) ||
        cudaMemcpy(dout, out, sizeof(out), cudaMemcpyHostToDevice))
        return 1;
    if (by_memcpy) {
        if (cudaGetSymbolAddress((void **)&dk, k) ||
            cudaMemcpy(dk, h, sizeof(h), cudaMemcpyHostToDevice))
            return 1;
    } else if (cudaMemcpyToSymbol(k, h, sizeof(h))) {
        return 1;
    }
    sum<<<1, 32>>>(dout);
    if (cudaMemcpy(out, dout, sizeof(out), cudaMemcpyDeviceToHost))
        return 1;
    for (int t = 0; t < 32; t++)
        bad += out[t] != 64 * 63 / 2;
    printf("symwarm: %s, %d wrong\n", by_memcpy ? "memcpy" : "symbol", bad);
    return bad != 0;
}
