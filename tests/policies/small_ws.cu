// Policy oracle program: every warp re-reads its own 512-byte slice, and
// the slices of the CTAs on one core fit in the 16 KB L1D without conflicts
// (one line per set), so no line is ever evicted. CCWS then has no lost
// locality to act on and must behave exactly as GTO (CCWS oracle 27); with
// an L1D large enough for everything, misses are the distinct 128-byte
// blocks touched (oracle 34). No thread stores unless the data is wrong, so
// the L1D sees reads only. tests/policies/run.sh runs it.
#include <cstdio>
#include <cstdlib>

#define SLICE 128 // floats per warp: 512 B, 4 lines
#define REPS 6
#define THREADS 128
#define BLOCKS 60

__global__ void reread(const float *a, int *bad)
{
    int gtid = blockIdx.x * blockDim.x + threadIdx.x;
    int warp = gtid >> 5, lane = threadIdx.x & 31;
    const float *s = a + (size_t)warp * SLICE + lane;
    float acc = 0;
#pragma unroll 1
    for (int r = 0; r < REPS; r++)
        for (int i = 0; i < SLICE / 32; i++)
            acc += s[32 * i];
    float want = 0;
    for (int i = 0; i < SLICE / 32; i++)
        want += (float)((warp * SLICE + lane + 32 * i) % 5);
    if (acc != want * REPS)
        atomicAdd(bad, 1);
}

int main()
{
    const int n = BLOCKS * THREADS / 32 * SLICE;
    float *h = (float *)malloc(n * sizeof(float)), *d;
    int *bad, hb = 0;
    for (int i = 0; i < n; i++)
        h[i] = (float)(i % 5);
    cudaMalloc(&d, n * sizeof(float));
    cudaMalloc(&bad, sizeof(int));
    cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(bad, &hb, sizeof(int), cudaMemcpyHostToDevice);
    reread<<<BLOCKS, THREADS>>>(d, bad);
    if (cudaDeviceSynchronize() != cudaSuccess) {
        printf("FAIL small_ws: launch failed\n");
        return 1;
    }
    cudaMemcpy(&hb, bad, sizeof(int), cudaMemcpyDeviceToHost);
    if (hb) {
        printf("FAIL small_ws: %d threads summed wrongly\n", hb);
        return 1;
    }
    printf("PASS small_ws %d blocks of 128 B\n", n * 4 / 128);
    return 0;
}
