// Surface objects over CUDA arrays made with cudaArraySurfaceLoadStore:
// surf2Dwrite / surf2Dread of float4 and int texels (x in bytes, as in CUDA),
// surf3Dwrite into a 3D array, surf2DLayeredwrite into a layered array,
// the zero and clamp boundary modes on reads and writes outside the array,
// read back with cudaMemcpy2DFromArray / cudaMemcpy3D and checked on the
// host; a trapping out-of-bounds write becomes a sticky launch error.
#define TEST_NAME "surfaces"
#include "common.h"

#define W 19
#define H 7
#define D 3

__global__ void transform(cudaSurfaceObject_t src, cudaSurfaceObject_t dst)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x >= W)
        return;
    float4 v = surf2Dread<float4>(src, x * sizeof(float4), y);
    surf2Dwrite(make_float4(v.x * 2, v.y + x, v.z - y, v.w * v.x), dst, x * sizeof(float4), y);
}

// Reads around the edges: zero mode gives 0 outside, clamp mode the edge texel.
__global__ void edges(cudaSurfaceObject_t s, int *zero_out, int *clamp_out)
{
    int i = threadIdx.x, x = i - 4, y = i % (H + 4) - 2;
    zero_out[i] = surf2Dread<int>(s, x * 4, y, cudaBoundaryModeZero);
    clamp_out[i] = surf2Dread<int>(s, x * 4, y, cudaBoundaryModeClamp);
    surf2Dwrite(-1, s, (W + 3) * 4, y, cudaBoundaryModeZero); // ignored
}

__global__ void fill3d(cudaSurfaceObject_t s)
{
    int x = threadIdx.x, y = blockIdx.x, z = blockIdx.y;
    surf3Dwrite((float)(x + 100 * y + 10000 * z), s, x * 4, y, z);
}

__global__ void fill_layers(cudaSurfaceObject_t s)
{
    int x = threadIdx.x, y = blockIdx.x, l = blockIdx.y;
    surf2DLayeredwrite((short)(x - y * 3 + l * 50), s, x * 2, y, l);
}

__global__ void trap_write(cudaSurfaceObject_t s)
{
    surf2Dwrite(1, s, (W + threadIdx.x) * 4, 0); // default boundary mode: trap
}

static cudaSurfaceObject_t surface(cudaArray_t a)
{
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a;
    cudaSurfaceObject_t s;
    CK(cudaCreateSurfaceObject(&s, &rd));
    return s;
}

int main()
{
    static float4 img[H][W], out[H][W];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            img[y][x] = make_float4(x * 0.5f, y * 1.5f, (float)(x ^ y), 2.0f - x);
    cudaChannelFormatDesc f4 = cudaCreateChannelDesc<float4>();
    cudaArray_t a, b;
    CK(cudaMallocArray(&a, &f4, W, H, cudaArraySurfaceLoadStore));
    CK(cudaMallocArray(&b, &f4, W, H, cudaArraySurfaceLoadStore));
    CK(cudaMemcpy2DToArray(a, 0, 0, img, W * 16, W * 16, H, cudaMemcpyHostToDevice));
    cudaSurfaceObject_t sa = surface(a), sb = surface(b);
    transform<<<dim3(1, H), 32>>>(sa, sb);
    CK_LAUNCH();
    CK(cudaMemcpy2DFromArray(out, W * 16, b, 0, 0, W * 16, H, cudaMemcpyDeviceToHost));
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            float4 v = img[y][x], o = out[y][x];
            int i = y * W + x;
            expect_bitsf("surf x", i, o.x, v.x * 2);
            expect_bitsf("surf y", i, o.y, v.y + x);
            expect_bitsf("surf z", i, o.z, v.z - y);
            expect_bitsf("surf w", i, o.w, v.w * v.x);
        }
    cudaResourceDesc back;
    CK(cudaGetSurfaceObjectResourceDesc(&back, sa));
    expect_true(back.res.array.array == a, "surface resource read back");

    // Boundary modes on a 2D int array.
    static int iv[H][W];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            iv[y][x] = y * 1000 + x;
    cudaChannelFormatDesc i1 = cudaCreateChannelDesc<int>();
    cudaArray_t c;
    CK(cudaMallocArray(&c, &i1, W, H, cudaArraySurfaceLoadStore));
    CK(cudaMemcpy2DToArray(c, 0, 0, iv, W * 4, W * 4, H, cudaMemcpyHostToDevice));
    cudaSurfaceObject_t sc = surface(c);
    const int n = 32;
    int *dz, *dcl, hz[n], hcl[n];
    CK(cudaMalloc(&dz, sizeof(hz)));
    CK(cudaMalloc(&dcl, sizeof(hcl)));
    edges<<<1, n>>>(sc, dz, dcl);
    CK_LAUNCH();
    CK(cudaMemcpy(hz, dz, sizeof(hz), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hcl, dcl, sizeof(hcl), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        int x = i - 4, y = i % (H + 4) - 2;
        bool in = x >= 0 && x < W && y >= 0 && y < H;
        int cx = x < 0 ? 0 : x >= W ? W - 1 : x, cy = y < 0 ? 0 : y >= H ? H - 1 : y;
        expect_eq("zero mode", i, hz[i], in ? iv[y][x] : 0);
        expect_eq("clamp mode", i, hcl[i], iv[cy][cx]);
    }

    // 3D and layered arrays.
    cudaArray_t v3, lay;
    cudaChannelFormatDesc f1 = cudaCreateChannelDesc<float>(), s1 = cudaCreateChannelDesc<short>();
    CK(cudaMalloc3DArray(&v3, &f1, make_cudaExtent(W, H, D), cudaArraySurfaceLoadStore));
    CK(cudaMalloc3DArray(&lay, &s1, make_cudaExtent(W, H, D),
                         cudaArraySurfaceLoadStore | cudaArrayLayered));
    cudaSurfaceObject_t s3 = surface(v3), sl = surface(lay);
    fill3d<<<dim3(H, D), W>>>(s3);
    CK_LAUNCH();
    fill_layers<<<dim3(H, D), W>>>(sl);
    CK_LAUNCH();
    static float o3[D][H][W];
    static short ol[D][H][W];
    cudaMemcpy3DParms p = {};
    p.srcArray = v3;
    p.dstPtr = make_cudaPitchedPtr(o3, W * 4, W, H);
    p.extent = make_cudaExtent(W, H, D);
    p.kind = cudaMemcpyDeviceToHost;
    CK(cudaMemcpy3D(&p));
    p.srcArray = lay;
    p.dstPtr = make_cudaPitchedPtr(ol, W * 2, W, H);
    CK(cudaMemcpy3D(&p));
    for (int z = 0; z < D; z++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                int i = (z * H + y) * W + x;
                expect_bitsf("surf3D", i, o3[z][y][x], (float)(x + 100 * y + 10000 * z));
                expect_eq("layered", i, ol[z][y][x], (short)(x - y * 3 + z * 50));
            }

    // A trapping write outside the array is a launch error (sticky, like a GPU fault).
    trap_write<<<1, 4>>>(sc);
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaErrorIllegalAddress && e != cudaErrorLaunchFailure)
        fail("trapping surface write: %s, want a launch error", cudaGetErrorName(e));
    return finish();
}
