// Structs passed to kernels by value: mixed field sizes and alignments (char,
// double, int3, an __align__(16) float4, short array, bool, nested struct,
// pointer member), a 1 KiB parameter struct, several struct parameters in
// one launch interleaved with scalars, and a struct returned from a device
// function. The kernel copies every field out; all checks exact.
#define TEST_NAME "struct_by_value"
#include "common.h"

struct Inner {
    char tag;
    double scale;
};

struct Mixed {
    char c;
    double d;
    int3 i3;
    float4 f4; // 16-byte aligned
    short s[5];
    bool flag;
    Inner inner;
    int *ptr;
    unsigned long long u64;
};

struct Big {
    int vals[256]; // 1 KiB
};

struct Vec2 {
    float x, y;
};

__device__ Vec2 rotate90(Vec2 v)
{
    Vec2 r = {-v.y, v.x};
    return r;
}

__global__ void unpack(Mixed m, char sep, Big big, Vec2 v, double *out, int *ptr_out)
{
    int t = threadIdx.x;
    if (t == 0) {
        out[0] = m.c;
        out[1] = m.d;
        out[2] = m.i3.x;
        out[3] = m.i3.y;
        out[4] = m.i3.z;
        out[5] = m.f4.x;
        out[6] = m.f4.y;
        out[7] = m.f4.z;
        out[8] = m.f4.w;
        for (int k = 0; k < 5; k++)
            out[9 + k] = m.s[k];
        out[14] = m.flag ? 1.0 : 0.0;
        out[15] = m.inner.tag;
        out[16] = m.inner.scale;
        out[17] = (double)(m.u64 >> 32);
        out[18] = (double)(m.u64 & 0xffffffffu);
        out[19] = sep;
        Vec2 r = rotate90(v);
        out[20] = r.x;
        out[21] = r.y;
        *m.ptr = 4242; // through the pointer member
    }
    // every thread reads a slice of the big struct
    for (int k = t; k < 256; k += blockDim.x)
        ptr_out[k] = big.vals[k] * 3;
}

int main()
{
    Mixed m;
    Big big;
    int *dptr, *dbig, hv, hbig[256];
    double *dout, out[22];

    memset(&m, 0, sizeof(m));
    m.c = -5;
    m.d = 3.141592653589793;
    m.i3 = make_int3(-1, 2000000000, 7);
    m.f4 = make_float4(1.5f, -2.25f, 1e-30f, 3e30f);
    for (int k = 0; k < 5; k++)
        m.s[k] = (short)(-300 * k + 11);
    m.flag = true;
    m.inner.tag = 'Q';
    m.inner.scale = -0.001;
    m.u64 = 0x89abcdef01234567ull;
    for (int k = 0; k < 256; k++)
        big.vals[k] = k * k - 1000;
    CK(cudaMalloc(&dptr, sizeof(int)));
    CK(cudaMalloc(&dbig, sizeof(hbig)));
    CK(cudaMalloc(&dout, sizeof(out)));
    m.ptr = dptr;
    Vec2 v = {0.75f, -8.5f};
    unpack<<<1, 96>>>(m, '#', big, v, dout, dbig);
    CK_LAUNCH();
    CK(cudaMemcpy(out, dout, sizeof(out), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&hv, dptr, sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hbig, dbig, sizeof(hbig), cudaMemcpyDeviceToHost));
    const double want[22] = {-5,
                             3.141592653589793,
                             -1,
                             2000000000,
                             7,
                             1.5f,
                             -2.25f,
                             1e-30f,
                             3e30f,
                             11,
                             -289,
                             -589,
                             -889,
                             -1189,
                             1,
                             'Q',
                             -0.001,
                             (double)0x89abcdefu,
                             (double)0x01234567u,
                             '#',
                             8.5f,
                             0.75f};
    for (int k = 0; k < 22; k++)
        expect_bits("field", k, out[k], want[k]);
    expect_eq("through ptr member", 0, hv, 4242);
    for (int k = 0; k < 256; k++)
        expect_eq("big", k, hbig[k], 3 * (k * k - 1000));
    CK(cudaFree(dptr));
    CK(cudaFree(dbig));
    CK(cudaFree(dout));
    return finish();
}
