// Relocatable device code across three translation units (rdc_multi_a.cu,
// rdc_multi_b.cu, rdc_multi_c.cu; built with -rdc=true -lineinfo and linked
// in process from their PTX):
// - extern __device__ functions called across units, one of them calling
//   back into a third unit;
// - an extern __device__ variable defined in b, written by a kernel in a
//   and read by a kernel in c, and a __constant__ table defined in c;
// - a file-static __device__ function and a device printf string in each
//   unit with the same names (internal symbols that must stay apart);
// - one template instantiated in two units (a .weak definition in each);
// - .file/.loc line information from three units.
// Every result is checked against a host reference.
#define TEST_NAME "rdc_multi"
#include "common.h"
#include "rdc_multi.h"

static __device__ __noinline__ int local_twist(int x) // same name in b.cu, different body
{
    return x + 1000;
}

__global__ void kernel_a(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = b_poly(in[i]) + local_twist(i) + shared_scale(in[i]);
    if (i == 0) {
        rdc_counter = 17; // defined in b, read by kernel_c
        printf("kernel_a: n = %d\n", n);
    }
}

int main()
{
    const int n = 200;
    int h[n], o[n], oc[n], *din, *dout, *dc;

    for (int i = 0; i < n; i++)
        h[i] = i * 7 - 300;
    CK(cudaMalloc(&din, sizeof(h)));
    CK(cudaMalloc(&dout, sizeof(o)));
    CK(cudaMalloc(&dc, sizeof(oc)));
    CK(cudaMemcpy(din, h, sizeof(h), cudaMemcpyHostToDevice));
    kernel_a<<<(n + 63) / 64, 64>>>(din, dout, n);
    CK_LAUNCH();
    launch_c(din, dc, n);
    CK_LAUNCH();
    CK(cudaMemcpy(o, dout, sizeof(o), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(oc, dc, sizeof(oc), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        expect_eq("kernel_a", i, o[i], host_b_poly(h[i]) + i + 1000 + host_shared_scale(h[i]));
        expect_eq("kernel_c", i, oc[i], host_c_value(h[i], i) + 17);
    }
    int counter = 0;
    CK(cudaMemcpyFromSymbol(&counter, rdc_counter, sizeof(int)));
    expect_eq("rdc_counter", 0, counter, 17 + 1);
    CK(cudaFree(din));
    CK(cudaFree(dout));
    CK(cudaFree(dc));
    return finish();
}
