// Grid-stride loops over 2D and 3D index spaces with 2D and 3D grids and
// blocks whose extents do not divide the data; every element is written
// exactly once (counted with atomicAdd) with a value derived from its
// coordinates and the thread/block indices are checked against the bounds.
#define TEST_NAME "grid_stride_2d3d"
#include "common.h"

__global__ void fill2d(int w, int h, unsigned *out, unsigned *hits)
{
    for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < h; y += blockDim.y * gridDim.y)
        for (int x = blockIdx.x * blockDim.x + threadIdx.x; x < w; x += blockDim.x * gridDim.x) {
            out[y * w + x] = (unsigned)(y * 1000 + x);
            atomicAdd(&hits[y * w + x], 1u);
        }
}

__global__ void fill3d(int nx, int ny, int nz, unsigned *out, unsigned *hits, unsigned *bad)
{
    if (threadIdx.x >= blockDim.x || threadIdx.y >= blockDim.y || threadIdx.z >= blockDim.z ||
        blockIdx.x >= gridDim.x || blockIdx.y >= gridDim.y || blockIdx.z >= gridDim.z)
        atomicAdd(bad, 1u);
    for (int z = blockIdx.z * blockDim.z + threadIdx.z; z < nz; z += blockDim.z * gridDim.z)
        for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < ny; y += blockDim.y * gridDim.y)
            for (int x = blockIdx.x * blockDim.x + threadIdx.x; x < nx;
                 x += blockDim.x * gridDim.x) {
                int i = (z * ny + y) * nx + x;
                out[i] = (unsigned)((z << 20) | (y << 10) | x);
                atomicAdd(&hits[i], 1u);
            }
}

static void check_2d(dim3 grid, dim3 block)
{
    const int w = 97, h = 61, n = w * h;
    unsigned *dout, *dhits;
    unsigned *out = new unsigned[n], *hits = new unsigned[n];

    CK(cudaMalloc(&dout, n * sizeof(unsigned)));
    CK(cudaMalloc(&dhits, n * sizeof(unsigned)));
    CK(cudaMemset(dhits, 0, n * sizeof(unsigned)));
    fill2d<<<grid, block>>>(w, h, dout, dhits);
    CK_LAUNCH();
    CK(cudaMemcpy(out, dout, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hits, dhits, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            expect_equ("out2d", y * w + x, out[y * w + x], (unsigned)(y * 1000 + x));
            expect_equ("hits2d", y * w + x, hits[y * w + x], 1);
        }
    CK(cudaFree(dout));
    CK(cudaFree(dhits));
    delete[] out;
    delete[] hits;
}

static void check_3d(dim3 grid, dim3 block)
{
    const int nx = 33, ny = 17, nz = 11, n = nx * ny * nz;
    unsigned *dout, *dhits, *dbad, bad = 0;
    unsigned *out = new unsigned[n], *hits = new unsigned[n];

    CK(cudaMalloc(&dout, n * sizeof(unsigned)));
    CK(cudaMalloc(&dhits, n * sizeof(unsigned)));
    CK(cudaMalloc(&dbad, sizeof(unsigned)));
    CK(cudaMemset(dhits, 0, n * sizeof(unsigned)));
    CK(cudaMemset(dbad, 0, sizeof(unsigned)));
    fill3d<<<grid, block>>>(nx, ny, nz, dout, dhits, dbad);
    CK_LAUNCH();
    CK(cudaMemcpy(out, dout, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hits, dhits, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&bad, dbad, sizeof(unsigned), cudaMemcpyDeviceToHost));
    expect_equ("indices out of range", 0, bad, 0);
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++) {
                int i = (z * ny + y) * nx + x;
                expect_equ("out3d", i, out[i], (unsigned)((z << 20) | (y << 10) | x));
                expect_equ("hits3d", i, hits[i], 1);
            }
    CK(cudaFree(dout));
    CK(cudaFree(dhits));
    CK(cudaFree(dbad));
    delete[] out;
    delete[] hits;
}

int main()
{
    check_2d(dim3(1, 1), dim3(1, 1));
    check_2d(dim3(3, 2), dim3(16, 8));
    check_2d(dim3(4, 5), dim3(32, 4));
    check_2d(dim3(2, 9), dim3(8, 3));
    check_3d(dim3(1, 1, 1), dim3(4, 4, 4));
    check_3d(dim3(2, 3, 2), dim3(8, 4, 2));
    check_3d(dim3(3, 2, 4), dim3(16, 2, 3));
    return finish();
}
