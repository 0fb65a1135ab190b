// Pitched memory: cudaMallocPitch (pitch >= width, aligned), cudaMemcpy2D
// host-to-device with a host pitch larger than the row, a kernel indexing
// rows by pitch, cudaMemcpy2D device-to-host, a device-to-device cudaMemcpy2D
// of a sub-rectangle, cudaMemset2D of a sub-rectangle, and cudaMemcpy2DAsync
// on a stream. Exact; padding bytes past each row must be left alone by
// cudaMemcpy2D into the host buffer.
#define TEST_NAME "memcpy2d_pitch"
#include "common.h"

__global__ void scale_rows(float *p, size_t pitch, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) {
        float *row = (float *)((char *)p + y * pitch);
        row[x] = row[x] * 2.0f + (float)y;
    }
}

int main()
{
    const int w = 37, h = 23, hpitch = 40; // host rows are 40 floats, 37 used
    float *hsrc = new float[hpitch * h], *hdst = new float[hpitch * h];
    float *d, *d2;
    size_t pitch = 0, pitch2 = 0;

    for (int i = 0; i < hpitch * h; i++)
        hsrc[i] = (float)i;
    CK(cudaMallocPitch(&d, &pitch, w * sizeof(float), h));
    expect_true(pitch >= w * sizeof(float), "pitch < row width");
    expect_true(pitch % 4 == 0, "pitch not a multiple of 4");
    CK(cudaMemcpy2D(d, pitch, hsrc, hpitch * sizeof(float), w * sizeof(float), h,
                    cudaMemcpyHostToDevice));
    dim3 block(16, 8), grid((w + 15) / 16, (h + 7) / 8);
    scale_rows<<<grid, block>>>(d, pitch, w, h);
    CK_LAUNCH();
    for (int i = 0; i < hpitch * h; i++)
        hdst[i] = -1.0f;
    CK(cudaMemcpy2D(hdst, hpitch * sizeof(float), d, pitch, w * sizeof(float), h,
                    cudaMemcpyDeviceToHost));
    for (int y = 0; y < h; y++)
        for (int x = 0; x < hpitch; x++) {
            float want = x < w ? hsrc[y * hpitch + x] * 2.0f + y : -1.0f;
            expect_bitsf("scaled", y * hpitch + x, hdst[y * hpitch + x], want);
        }

    // Sub-rectangle (columns 5..24, rows 3..17) device to device.
    const int sx = 5, sy = 3, sw = 20, sh = 15;
    CK(cudaMallocPitch(&d2, &pitch2, sw * sizeof(float), sh));
    CK(cudaMemcpy2D(d2, pitch2, (char *)d + sy * pitch + sx * sizeof(float), pitch,
                    sw * sizeof(float), sh, cudaMemcpyDeviceToDevice));
    // Zero a 4x6 block inside it (bytes: memset 0 gives 0.0f).
    CK(cudaMemset2D((char *)d2 + 2 * pitch2 + 3 * sizeof(float), pitch2, 0, 4 * sizeof(float), 6));
    cudaStream_t st;
    CK(cudaStreamCreate(&st));
    float *sub = new float[sw * sh];
    CK(cudaMemcpy2DAsync(sub, sw * sizeof(float), d2, pitch2, sw * sizeof(float), sh,
                         cudaMemcpyDeviceToHost, st));
    CK(cudaStreamSynchronize(st));
    for (int y = 0; y < sh; y++)
        for (int x = 0; x < sw; x++) {
            bool zeroed = y >= 2 && y < 8 && x >= 3 && x < 7;
            float want = zeroed ? 0.0f : hsrc[(y + sy) * hpitch + x + sx] * 2.0f + (y + sy);
            expect_bitsf("sub-rectangle", y * sw + x, sub[y * sw + x], want);
        }
    CK(cudaStreamDestroy(st));
    CK(cudaFree(d));
    CK(cudaFree(d2));
    delete[] hsrc;
    delete[] hdst;
    delete[] sub;
    return finish();
}
