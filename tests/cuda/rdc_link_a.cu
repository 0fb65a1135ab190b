// Separate compilation (-rdc=true): a kernel here calls a __device__ function
// and reads a __device__ variable defined in rdc_link_b.cu, resolved by the
// device linker. Such binaries register a linked image through
// __cudaRegisterLinkedBinary_* (the device-link stub); ptxsim links the
// units' PTX in process (runtime/cuda/rdc.c), so the launch must work and
// give the right results.
#define TEST_NAME "rdc_link"
#include "common.h"

extern __device__ int rdc_scale;
extern __device__ int rdc_transform(int x);

__global__ void rdc_kernel(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = rdc_transform(in[i]) * rdc_scale;
}

int main()
{
    const int n = 300;
    int h[n], o[n], *din, *dout;

    for (int i = 0; i < n; i++)
        h[i] = i * 3 - 100;
    CK(cudaMalloc(&din, sizeof(h)));
    CK(cudaMalloc(&dout, sizeof(o)));
    CK(cudaMemcpy(din, h, sizeof(h), cudaMemcpyHostToDevice));
    rdc_kernel<<<(n + 127) / 128, 128>>>(din, dout, n);
    CK_LAUNCH();
    CK(cudaMemcpy(o, dout, sizeof(o), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        expect_eq("out", i, o[i], (h[i] * h[i] - 7) * 3);
    CK(cudaFree(din));
    CK(cudaFree(dout));
    return finish();
}
