// Policy oracle program: one warp on one core walks a pointer chain whose
// every step misses in the L1 (a 4 KB stride), so the busy core waits on
// global loads almost every cycle and every other core is idle (DYNCTA
// oracles 6 and 7: C_mem and C_idle). tests/policies/run.sh runs it.
#include <cstdio>
#include <cstdlib>

#define STEPS 96
#define STRIDE 1024 // ints: 4 KB

__global__ void chase(const int *next, int *out)
{
    int p = threadIdx.x;
    for (int s = 0; s < STEPS; s++)
        p = next[p];
    out[threadIdx.x] = p;
}

int main()
{
    const int n = (STEPS + 1) * STRIDE;
    int *h = (int *)malloc(n * sizeof(int)), *d, *out, ho[32];
    for (int i = 0; i < n; i++)
        h[i] = (i + STRIDE) % n;
    cudaMalloc(&d, n * sizeof(int));
    cudaMalloc(&out, 32 * sizeof(int));
    cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice);
    chase<<<1, 32>>>(d, out);
    if (cudaDeviceSynchronize() != cudaSuccess) {
        printf("FAIL chase: launch failed\n");
        return 1;
    }
    cudaMemcpy(ho, out, sizeof(ho), cudaMemcpyDeviceToHost);
    for (int t = 0; t < 32; t++)
        if (ho[t] != t + STEPS * STRIDE) {
            printf("FAIL chase: out[%d] = %d, want %d\n", t, ho[t], t + STEPS * STRIDE);
            return 1;
        }
    printf("PASS chase\n");
    return 0;
}
