// Device code for the rdc_link program (see rdc_link_a.cu).
__device__ int rdc_scale = 3;

__device__ int rdc_transform(int x)
{
    return x * x - 7;
}
