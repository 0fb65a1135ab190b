// Texture and surface objects: tex1Dfetch, tex1D/2D/3D, tex2DLod, tex2Dgather,
// surf2Dread/write, and legacy-style texture fetch through objects.
#include <cuda_runtime.h>

__global__ void tex1dfetch_kernel(cudaTextureObject_t tf, cudaTextureObject_t ti, cudaTextureObject_t t4,
                                  float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float a = tex1Dfetch<float>(tf, i);
    int b = tex1Dfetch<int>(ti, i + 1);
    float4 c = tex1Dfetch<float4>(t4, i / 4);
    uchar4 d = tex1Dfetch<uchar4>(ti, i);
    out[i] = a + (float)b + c.x + c.y + c.z + c.w + (float)d.x;
}

__global__ void tex_sampled_kernel(cudaTextureObject_t t1, cudaTextureObject_t t2, cudaTextureObject_t t3,
                                   float *out, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    float u = (x + 0.5f) / w, v = (y + 0.5f) / h;
    float r = tex1D<float>(t1, u);
    r += tex2D<float>(t2, u, v);
    r += tex3D<float>(t3, u, v, 0.5f);
    r += tex2DLod<float>(t2, u, v, 1.5f);
    r += tex2DGrad<float>(t2, u, v, make_float2(0.1f, 0.0f), make_float2(0.0f, 0.1f));
    float4 g = tex2Dgather<float4>(t2, u, v, 0);
    r += g.x + g.w;
    r += tex1DLayered<float>(t1, u, 2);
    r += tex2DLayered<float>(t2, u, v, 1);
    float4 cm = texCubemap<float4>(t3, u, v, 1.0f);
    r += cm.y;
    out[y * w + x] = r;
}

__global__ void surface_kernel(cudaSurfaceObject_t in, cudaSurfaceObject_t out, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    float4 p = surf2Dread<float4>(in, x * sizeof(float4), y);
    float q = surf2Dread<float>(in, x * 4, y, cudaBoundaryModeClamp);
    p.x = 1.0f - p.x + q;
    surf2Dwrite(p, out, x * sizeof(float4), y);
    surf1Dwrite(q, out, x * 4, cudaBoundaryModeZero);
    uchar4 c = surf1Dread<uchar4>(in, x * 4);
    surf2Dwrite(c, out, x * 4, y, cudaBoundaryModeTrap);
}

__global__ void tex_query_kernel(cudaTextureObject_t t, int *out)
{
    int w, h;
    asm("txq.width.b32 %0, [%1];" : "=r"(w) : "l"(t));
    asm("txq.height.b32 %0, [%1];" : "=r"(h) : "l"(t));
    out[threadIdx.x] = w * h;
}
