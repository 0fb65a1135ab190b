// cudaEvent timing: events recorded around kernels on the default stream and
// on a created stream; cudaEventElapsedTime must succeed and be >= 0 (the
// value itself is simulated time, not checked further), also for an event
// against itself; an event created with cudaEventDisableTiming must make
// cudaEventElapsedTime fail (not sticky: later calls succeed).
#define TEST_NAME "event_timing"
#include "common.h"

__global__ void busy(float *v, int n, int reps)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = v[i];
    for (int r = 0; r < reps; r++)
        x = fmaf(x, 0.999f, 0.5f);
    v[i] = x;
}

int main()
{
    const int n = 4096;
    float *d;
    cudaEvent_t start, mid, stop, notiming;
    cudaStream_t s;
    float ms = -1.0f;

    CK(cudaMalloc(&d, n * sizeof(float)));
    CK(cudaMemset(d, 0, n * sizeof(float)));
    CK(cudaEventCreate(&start));
    CK(cudaEventCreate(&mid));
    CK(cudaEventCreateWithFlags(&stop, cudaEventDefault));
    CK(cudaEventCreateWithFlags(&notiming, cudaEventDisableTiming));
    CK(cudaStreamCreate(&s));

    CK(cudaEventRecord(start));
    busy<<<n / 128, 128>>>(d, n, 50);
    CK(cudaGetLastError());
    CK(cudaEventRecord(mid));
    busy<<<n / 128, 128>>>(d, n, 100);
    CK(cudaGetLastError());
    CK(cudaEventRecord(stop));
    CK(cudaEventSynchronize(stop));
    CK(cudaEventQuery(stop));
    CK(cudaEventElapsedTime(&ms, start, stop));
    if (!(ms >= 0.0f))
        fail("elapsed(start, stop) = %g ms, want >= 0", ms);
    ms = -1.0f;
    CK(cudaEventElapsedTime(&ms, start, mid));
    if (!(ms >= 0.0f))
        fail("elapsed(start, mid) = %g ms, want >= 0", ms);
    ms = -1.0f;
    CK(cudaEventElapsedTime(&ms, mid, mid));
    if (!(ms >= 0.0f))
        fail("elapsed(mid, mid) = %g ms, want >= 0", ms);

    // On a created stream.
    CK(cudaEventRecord(start, s));
    busy<<<n / 256, 256, 0, s>>>(d, n, 20);
    CK(cudaGetLastError());
    CK(cudaEventRecord(stop, s));
    CK(cudaEventRecord(notiming, s));
    CK(cudaStreamSynchronize(s));
    ms = -1.0f;
    CK(cudaEventElapsedTime(&ms, start, stop));
    if (!(ms >= 0.0f))
        fail("elapsed on a stream = %g ms, want >= 0", ms);
    cudaError_t e = cudaEventElapsedTime(&ms, start, notiming);
    if (e == cudaSuccess)
        fail("cudaEventElapsedTime with a cudaEventDisableTiming event succeeded");
    (void)cudaGetLastError();
    CK(cudaEventQuery(notiming));
    CK(cudaDeviceSynchronize());

    float h[4];
    CK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
    float want = 0.0f;
    for (int r = 0; r < 170; r++)
        want = fmaf(want, 0.999f, 0.5f);
    for (int k = 0; k < 4; k++)
        expect_bitsf("busy result", k, h[k], want);
    CK(cudaEventDestroy(start));
    CK(cudaEventDestroy(mid));
    CK(cudaEventDestroy(stop));
    CK(cudaEventDestroy(notiming));
    CK(cudaStreamDestroy(s));
    CK(cudaFree(d));
    return finish();
}
