// Special registers and timers: %laneid and the %lanemask_* registers (inline
// PTX) against threadIdx, %warpid < %nwarpid, %smid < %nsmid, clock() and
// clock64() never decreasing within a thread across work, %globaltimer never
// decreasing, __nanosleep returning, and %gridid / %nctaid consistency
// (gridDim). Exact where defined; the timers only by order.
#define TEST_NAME "special_regs"
#include "common.h"

#define NOUT 12

__device__ unsigned sreg_laneid()
{
    unsigned r;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(r));
    return r;
}

__global__ void regs(unsigned *out, int spin)
{
    int g = (blockIdx.y * gridDim.x + blockIdx.x) * blockDim.x * blockDim.y +
            threadIdx.y * blockDim.x + threadIdx.x;
    int linear = threadIdx.y * blockDim.x + threadIdx.x;
    unsigned *o = out + g * NOUT;
    unsigned lt, le, gt, ge, eq, warpid, nwarpid, smid, nsmid, nctaid_x;

    asm volatile("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
    asm volatile("mov.u32 %0, %%lanemask_le;" : "=r"(le));
    asm volatile("mov.u32 %0, %%lanemask_gt;" : "=r"(gt));
    asm volatile("mov.u32 %0, %%lanemask_ge;" : "=r"(ge));
    asm volatile("mov.u32 %0, %%lanemask_eq;" : "=r"(eq));
    asm volatile("mov.u32 %0, %%warpid;" : "=r"(warpid));
    asm volatile("mov.u32 %0, %%nwarpid;" : "=r"(nwarpid));
    asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
    asm volatile("mov.u32 %0, %%nsmid;" : "=r"(nsmid));
    asm volatile("mov.u32 %0, %%nctaid.x;" : "=r"(nctaid_x));
    long long c0 = clock64();
    unsigned k0 = (unsigned)clock();
    unsigned long long t0;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    float x = (float)g;
    for (int i = 0; i < spin; i++)
        x = x * 1.0001f + 1.0f;
    __nanosleep(100);
    long long c1 = clock64();
    unsigned k1 = (unsigned)clock();
    unsigned long long t1;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1));

    o[0] = sreg_laneid();
    o[1] = lt;
    o[2] = le;
    o[3] = gt;
    o[4] = ge;
    o[5] = eq;
    o[6] = warpid < nwarpid;
    o[7] = smid < nsmid;
    o[8] = c1 >= c0;
    o[9] = k1 - k0 < 0x80000000u; // wrapping difference is "forward"
    o[10] = t1 >= t0;
    o[11] = nctaid_x == gridDim.x && x > 0.0f ? (unsigned)(linear & 31) : 999u;
}

int main()
{
    const dim3 grid(3, 2), block(16, 6); // 96 threads per block: lanes cross rows
    const int n = 6 * 96;
    unsigned *out = new unsigned[n * NOUT], *dout;

    CK(cudaMalloc(&dout, n * NOUT * sizeof(unsigned)));
    regs<<<grid, block>>>(dout, 50);
    CK_LAUNCH();
    CK(cudaMemcpy(out, dout, n * NOUT * sizeof(unsigned), cudaMemcpyDeviceToHost));
    static const char *names[NOUT] = {"laneid",           "lanemask_lt",       "lanemask_le",
                                      "lanemask_gt",      "lanemask_ge",       "lanemask_eq",
                                      "warpid < nwarpid", "smid < nsmid",      "clock64 order",
                                      "clock order",      "globaltimer order", "nctaid/lane"};
    for (int g = 0; g < n; g++) {
        unsigned lane = (g % 96) % 32, w[NOUT];
        w[0] = lane;
        w[1] = (1u << lane) - 1;
        w[2] = lane == 31 ? 0xffffffffu : (2u << lane) - 1;
        w[3] = ~w[2];
        w[4] = ~w[1];
        w[5] = 1u << lane;
        w[6] = w[7] = w[8] = w[9] = w[10] = 1;
        w[11] = lane;
        for (int k = 0; k < NOUT; k++)
            expect_equ(names[k], g, out[g * NOUT + k], w[k]);
    }
    CK(cudaFree(dout));
    delete[] out;
    return finish();
}
