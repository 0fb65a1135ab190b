// cudaMemcpy in every direction and kind: host-to-device, device-to-host,
// device-to-device (overlapping-free, at offsets), host-to-host through the
// runtime, cudaMemcpyDefault inferring the direction from the pointers,
// cudaMemcpyAsync on the legacy default stream (0) followed by
// cudaStreamSynchronize(0), a 4 MiB copy, odd sizes and unaligned offsets,
// and a zero-byte copy. Exact.
#define TEST_NAME "memcpy_kinds"
#include "common.h"

int main()
{
    const size_t big = 4 << 20;
    unsigned char *h = (unsigned char *)malloc(big), *h2 = (unsigned char *)malloc(big);
    unsigned char *d, *d2;

    for (size_t i = 0; i < big; i++)
        h[i] = (unsigned char)(i * 131 + (i >> 12));
    CK(cudaMalloc(&d, big));
    CK(cudaMalloc(&d2, big));
    CK(cudaMemcpy(d, h, big, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d2, d, big, cudaMemcpyDeviceToDevice));
    memset(h2, 0, big);
    CK(cudaMemcpy(h2, d2, big, cudaMemcpyDeviceToHost));
    expect_true(memcmp(h, h2, big) == 0, "4 MiB round trip differs");

    // Odd sizes at unaligned offsets, D2D within and across buffers.
    CK(cudaMemcpy(d2 + 3, d + 1001, 777, cudaMemcpyDeviceToDevice));
    CK(cudaMemcpy(d2 + 5000, h + 17, 333, cudaMemcpyDefault));
    CK(cudaMemcpy(h2, d2, 6000, cudaMemcpyDefault));
    for (int i = 0; i < 6000; i++) {
        unsigned char want = h[i];
        if (i >= 3 && i < 3 + 777)
            want = h[i - 3 + 1001];
        if (i >= 5000 && i < 5000 + 333)
            want = h[i - 5000 + 17];
        expect_eq("offset copies", i, h2[i], want);
    }
    // Host to host through the runtime.
    CK(cudaMemcpy(h2, h + 100, 1000, cudaMemcpyHostToHost));
    expect_true(memcmp(h2, h + 100, 1000) == 0, "host-to-host copy differs");
    CK(cudaMemcpy(h2 + 2000, h + 7, 500, cudaMemcpyDefault));
    expect_true(memcmp(h2 + 2000, h + 7, 500) == 0, "default-kind host-to-host copy differs");
    // Zero bytes: succeeds, changes nothing.
    unsigned char keep = h2[0];
    CK(cudaMemcpy(h2, d, 0, cudaMemcpyDeviceToHost));
    expect_eq("zero-byte copy", 0, h2[0], keep);
    // Async on the default stream.
    CK(cudaMemcpyAsync(d + 64, h + 9999, 4096, cudaMemcpyHostToDevice, 0));
    CK(cudaMemcpyAsync(h2, d + 64, 4096, cudaMemcpyDeviceToHost, 0));
    CK(cudaStreamSynchronize(0));
    expect_true(memcmp(h2, h + 9999, 4096) == 0, "async default-stream copy differs");
    CK(cudaFree(d));
    CK(cudaFree(d2));
    free(h);
    free(h2);
    return finish();
}
