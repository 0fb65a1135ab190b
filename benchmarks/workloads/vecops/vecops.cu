// WORKLOAD: vecops | regular-memory | STREAM-like bandwidth-bound streaming (copy, scale, add, triad) over large arrays: coalesced, no reuse, DRAM-bound
//
// Four STREAM kernels, each a grid-stride loop over n floats, run `passes` times:
//   copy:  c = a           scale: b = s*c
//   add:   c = a + b       triad: a = b + s*c   (explicit fused multiply-add)
// Every element is touched once per kernel, so L1 hits come only from the 128-byte line
// being shared by a warp's 32 accesses; the kernels stand for memory-bandwidth-bound
// streaming applications. The host replays the same sequence; since every operation is a
// single correctly rounded IEEE operation (triad uses fmaf on both sides), results are
// compared exactly.
#define WL_NAME "vecops"
#include "wl.h"

#include <vector>

__global__ void k_copy(const float *__restrict__ a, float *__restrict__ c, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        c[i] = a[i];
}

__global__ void k_scale(float *__restrict__ b, const float *__restrict__ c, float s, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        b[i] = s * c[i];
}

__global__ void k_add(const float *__restrict__ a, const float *__restrict__ b,
                      float *__restrict__ c, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        c[i] = a[i] + b[i];
}

__global__ void k_triad(float *__restrict__ a, const float *__restrict__ b,
                        const float *__restrict__ c, float s, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        a[i] = __fmaf_rn(s, c[i], b[i]);
}

int main(int argc, char **argv)
{
    wl_size sz = wl_parse_size(argc, argv);
    const int n = wl_pick(sz, 1 << 16, 1 << 20, 1 << 24);
    const int passes = wl_pick(sz, 1, 1, 4);
    const int block = 256;
    // Enough CTAs to fill a GTX 480 several times over (15 SMs x 6 CTAs of 256), each
    // thread then loops over a few elements.
    const int grid = wl_pick(sz, 128, 480, 960);
    const float s = 3.0f;
    wl_rand r(0x5eed0001);
    std::vector<float> a(n), b(n), c(n);

    for (int i = 0; i < n; i++) {
        a[i] = r.range(-1.0f, 1.0f);
        b[i] = r.range(-1.0f, 1.0f);
        c[i] = 0.0f;
    }

    float *da, *db, *dc;
    size_t bytes = (size_t)n * sizeof(float);
    WL_CK(cudaMalloc(&da, bytes));
    WL_CK(cudaMalloc(&db, bytes));
    WL_CK(cudaMalloc(&dc, bytes));
    WL_CK(cudaMemcpy(da, a.data(), bytes, cudaMemcpyHostToDevice));
    WL_CK(cudaMemcpy(db, b.data(), bytes, cudaMemcpyHostToDevice));
    WL_CK(cudaMemcpy(dc, c.data(), bytes, cudaMemcpyHostToDevice));

    for (int p = 0; p < passes; p++) {
        k_copy<<<grid, block>>>(da, dc, n);
        WL_LAUNCH_CK();
        k_scale<<<grid, block>>>(db, dc, s, n);
        WL_LAUNCH_CK();
        k_add<<<grid, block>>>(da, db, dc, n);
        WL_LAUNCH_CK();
        k_triad<<<grid, block>>>(da, db, dc, s, n);
        WL_LAUNCH_CK();
    }

    std::vector<float> ga(n), gb(n), gc(n);
    WL_CK(cudaMemcpy(ga.data(), da, bytes, cudaMemcpyDeviceToHost));
    WL_CK(cudaMemcpy(gb.data(), db, bytes, cudaMemcpyDeviceToHost));
    WL_CK(cudaMemcpy(gc.data(), dc, bytes, cudaMemcpyDeviceToHost));

    // Host reference: the same sequence of IEEE operations.
    for (int p = 0; p < passes; p++) {
        for (int i = 0; i < n; i++)
            c[i] = a[i];
        for (int i = 0; i < n; i++)
            b[i] = s * c[i];
        for (int i = 0; i < n; i++)
            c[i] = a[i] + b[i];
        for (int i = 0; i < n; i++)
            a[i] = fmaf(s, c[i], b[i]);
    }
    for (int i = 0; i < n; i++) {
        if (ga[i] != a[i] || gb[i] != b[i] || gc[i] != c[i])
            wl_fail("element %d: got a=%.9g b=%.9g c=%.9g, want a=%.9g b=%.9g c=%.9g", i, ga[i],
                    gb[i], gc[i], a[i], b[i], c[i]);
    }
    WL_CK(cudaFree(da));
    WL_CK(cudaFree(db));
    WL_CK(cudaFree(dc));
    return wl_pass();
}
