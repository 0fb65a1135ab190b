// Source of the fat binary fixtures in this directory (see regen.sh): two
// kernels, one __device__ and one __constant__ variable.
__device__ int vadd_calls;
__constant__ float vadd_scale[4];

__global__ void vadd(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;

    if (i < n)
        c[i] = (a[i] + b[i]) * vadd_scale[0];
}

__global__ void vscale(float *c, float s, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;

    if (i < n) {
        c[i] *= s;
        atomicAdd(&vadd_calls, 1);
    }
}

int main()
{
    float *p;

    cudaMalloc(&p, 16 * sizeof(float));
    vadd<<<1, 16>>>(p, p, p, 16);
    vscale<<<1, 16>>>(p, 2.0f, 16);
    return cudaDeviceSynchronize() != cudaSuccess;
}
