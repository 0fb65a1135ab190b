// Timing microbenchmark: what limits the CTAs resident on an SM.
// tests/timing/run.sh checks occupancy.max_ctas_per_sm and limited_by of
//   tiny      32-thread CTAs, little state          -> CTA slots
//   big       1024-thread CTAs                      -> threads
//   shmem     64-thread CTAs, 20 KB dynamic shared  -> shared memory
//   regs      256-thread CTAs, 64 floats live per thread -> registers
#include <cstdio>

__global__ void tiny(int *out)
{
    out[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x;
}

__global__ void big(int *out)
{
    out[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x;
}

__global__ void shmem(int *out)
{
    extern __shared__ int dyn[];
    dyn[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = dyn[(threadIdx.x + 1) % blockDim.x];
}

// 64 accumulators live across a rolled loop: ptxas (and any estimate of
// live registers) needs more than 64 registers per thread for this.
#define NACC 64
__global__ void regs(int *out, int n)
{
    float acc[NACC];
#pragma unroll
    for (int k = 0; k < NACC; k++)
        acc[k] = (float)(threadIdx.x + k);
#pragma unroll 1
    for (int i = 0; i < n; i++) {
#pragma unroll
        for (int k = 0; k < NACC; k++)
            acc[k] = acc[k] * acc[(k + 1) % NACC] + 1.0f;
    }
    float s = 0;
#pragma unroll
    for (int k = 0; k < NACC; k++)
        s += acc[k];
    out[blockIdx.x * blockDim.x + threadIdx.x] = (int)(s != 0.0f);
}

static int check(const char *name, int *d, int *h, int n, int (*want)(int))
{
    if (cudaDeviceSynchronize() != cudaSuccess) {
        printf("FAIL occupancy: %s failed\n", name);
        return 1;
    }
    cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++)
        if (h[i] != want(i)) {
            printf("FAIL occupancy: %s: out[%d] = %d\n", name, i, h[i]);
            return 1;
        }
    printf("%s: ok\n", name);
    return 0;
}

static int want_tid32(int i) { return i % 32; }
static int want_tid1024(int i) { return i % 1024; }
static int want_next64(int i) { return (i % 64 + 1) % 64; }
static int want_one(int) { return 1; }

int main()
{
    static int h[4 * 1024];
    int *d, bad = 0;
    cudaMalloc(&d, sizeof(h));
    tiny<<<32, 32>>>(d);
    bad |= check("tiny", d, h, 32 * 32, want_tid32);
    big<<<4, 1024>>>(d);
    bad |= check("big", d, h, 4 * 1024, want_tid1024);
    shmem<<<32, 64, 20 * 1024>>>(d);
    bad |= check("shmem", d, h, 32 * 64, want_next64);
    regs<<<4, 256>>>(d, 2);
    bad |= check("regs", d, h, 4 * 256, want_one);
    if (bad)
        return 1;
    printf("PASS occupancy\n");
    return 0;
}
