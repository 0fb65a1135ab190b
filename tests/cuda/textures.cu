// Texture objects over CUDA arrays, pitched and linear memory, checked
// against a host model of the CUDA Programming Guide's "Texture Fetching"
// formulas (point sampling; linear filtering with weights in 8-bit fixed
// point; clamp, border, wrap and mirror addressing; normalized
// coordinates; element and normalized-float read modes):
// - a 2D float array: point and linear, clamp and border, unnormalized;
//   wrap and mirror with normalized coordinates;
// - a 2D uchar4 array read as normalized floats with linear filtering;
// - tex1Dfetch on linear memory (ints; out of range reads 0);
// - a pitched 2D float2 texture;
// - a 3D float array (cudaMemcpy3D) with linear filtering;
// - a layered 2D array (tex2DLayered);
// - tex2Dgather of component 1 (tld4);
// - a 1D array, tex1DLod / tex1DGrad (level 0), raw uchar4 texels;
// and the descriptor getters, cudaArrayGetInfo and bad-argument errors.
#define TEST_NAME "textures"
#include "common.h"

#define W 13
#define H 9
#define D 5

// ---- host model ----------------------------------------------------------------
static int addr_idx(int i, int n, cudaTextureAddressMode m, bool norm, bool *border)
{
    *border = false;
    if (!norm && (m == cudaAddressModeWrap || m == cudaAddressModeMirror))
        m = cudaAddressModeClamp;
    if (m == cudaAddressModeWrap)
        return ((i % n) + n) % n;
    if (m == cudaAddressModeMirror) {
        int k = ((i % (2 * n)) + 2 * n) % (2 * n);
        return k < n ? k : 2 * n - 1 - k;
    }
    if (m == cudaAddressModeBorder) {
        *border = i < 0 || i >= n;
        return i;
    }
    return i < 0 ? 0 : i >= n ? n - 1 : i;
}

struct model {
    const float *data; // channels interleaved
    int nch, w, h, d;
    cudaTextureAddressMode mode;
    bool norm, linear;
    float border;
};

static float texel(const model &m, int x, int y, int z, int ch)
{
    bool b1, b2, b3;
    x = addr_idx(x, m.w, m.mode, m.norm, &b1);
    y = m.h > 1 ? addr_idx(y, m.h, m.mode, m.norm, &b2) : (b2 = false, 0);
    z = m.d > 1 ? addr_idx(z, m.d, m.mode, m.norm, &b3) : (b3 = false, 0);
    if (b1 || b2 || b3)
        return m.border;
    return m.data[((z * m.h + y) * m.w + x) * m.nch + ch];
}

static float frac8(float x, int *i)
{
    float xb = x - 0.5f, f = floorf(xb);
    *i = (int)f;
    return floorf((xb - f) * 256.0f + 0.5f) / 256.0f;
}

static float sample(const model &m, float x, float y, float z, int ch, int dims)
{
    if (m.norm) {
        x *= m.w;
        y *= m.h;
        z *= m.d;
    }
    if (!m.linear)
        return texel(m, (int)floorf(x), (int)floorf(y), (int)floorf(z), ch);
    int i, j = 0, k = 0;
    float a = frac8(x, &i), b = dims > 1 ? frac8(y, &j) : 0, g = dims > 2 ? frac8(z, &k) : 0;
    float s = 0;
    for (int c = 0; c < (1 << dims); c++) {
        int hx = c & 1, hy = c >> 1 & 1, hz = c >> 2 & 1;
        float wgt = (hx ? a : 1 - a);
        if (dims > 1)
            wgt *= hy ? b : 1 - b;
        if (dims > 2)
            wgt *= hz ? g : 1 - g;
        s += wgt * texel(m, i + hx, j + hy, k + hz, ch);
    }
    return s;
}

// ---- kernels ----------------------------------------------------------------------
__global__ void fetch2d(cudaTextureObject_t t, const float2 *c, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex2D<float>(t, c[i].x, c[i].y);
}

__global__ void fetch2d_uchar4(cudaTextureObject_t t, const float2 *c, float4 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex2D<float4>(t, c[i].x, c[i].y);
}

__global__ void fetch1d_linear(cudaTextureObject_t t, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex1Dfetch<int>(t, i - 3);
}

__global__ void fetch_pitch(cudaTextureObject_t t, const float2 *c, float2 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex2D<float2>(t, c[i].x, c[i].y);
}

__global__ void fetch3d(cudaTextureObject_t t, const float4 *c, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex3D<float>(t, c[i].x, c[i].y, c[i].z);
}

__global__ void fetch_layered(cudaTextureObject_t t, const float4 *c, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex2DLayered<float>(t, c[i].x, c[i].y, (int)c[i].z);
}

__global__ void gather(cudaTextureObject_t t, const float2 *c, float4 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex2Dgather<float4>(t, c[i].x, c[i].y, 1);
}

__global__ void lod_and_elements(cudaTextureObject_t t1, cudaTextureObject_t t2, float *o,
                                 unsigned *u)
{
    int i = threadIdx.x;
    o[i] = tex1D<float>(t1, i + 0.5f);
    o[32 + i] = tex1DLod<float>(t1, i + 0.5f, 0.0f);        // tex.level: level 0
    o[64 + i] = tex1DGrad<float>(t1, i + 0.5f, 0.0f, 0.0f); // tex.grad: level 0
    uchar4 v = tex2D<uchar4>(t2, i % 4 + 0.5f, 0.5f);       // element read mode: raw bytes
    u[i] = v.x | v.y << 8 | v.z << 16 | (unsigned)v.w << 24;
}

// ---- helpers ------------------------------------------------------------------------
static const int N = 256;

template <typename T> static T *dev_copy(const T *h, int n)
{
    T *d;
    CK(cudaMalloc(&d, sizeof(T) * n));
    CK(cudaMemcpy(d, h, sizeof(T) * n, cudaMemcpyHostToDevice));
    return d;
}

template <typename T> static void host_copy(T *h, const T *d, int n)
{
    CK(cudaMemcpy(h, d, sizeof(T) * n, cudaMemcpyDeviceToHost));
}

static float rnd(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return (float)(*s >> 8) / (float)(1 << 24);
}

static cudaTextureObject_t make_tex(const cudaResourceDesc &r, cudaTextureAddressMode m,
                                    cudaTextureFilterMode f, bool norm,
                                    cudaTextureReadMode rm = cudaReadModeElementType,
                                    float border = 0)
{
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = m;
    td.filterMode = f;
    td.readMode = rm;
    td.normalizedCoords = norm;
    td.borderColor[0] = td.borderColor[1] = td.borderColor[2] = td.borderColor[3] = border;
    cudaTextureObject_t t;
    CK(cudaCreateTextureObject(&t, &r, &td, NULL));
    return t;
}

static void test_2d_float(uint32_t *seed)
{
    static float img[H][W];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            img[y][x] = rnd(seed) * 100 - 50;
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
    cudaArray_t arr;
    CK(cudaMallocArray(&arr, &cd, W, H));
    CK(cudaMemcpy2DToArray(arr, 0, 0, img, W * sizeof(float), W * sizeof(float), H,
                           cudaMemcpyHostToDevice));
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = arr;

    float2 hc[N];
    float out[N];
    float2 *dc;
    float *dout;
    CK(cudaMalloc(&dout, sizeof(out)));
    struct {
        cudaTextureAddressMode m;
        cudaTextureFilterMode f;
        bool norm;
        const char *what;
    } cases[] = {{cudaAddressModeClamp, cudaFilterModePoint, false, "2d clamp point"},
                 {cudaAddressModeClamp, cudaFilterModeLinear, false, "2d clamp linear"},
                 {cudaAddressModeBorder, cudaFilterModeLinear, false, "2d border linear"},
                 {cudaAddressModeWrap, cudaFilterModeLinear, true, "2d wrap linear norm"},
                 {cudaAddressModeMirror, cudaFilterModePoint, true, "2d mirror point norm"},
                 {cudaAddressModeMirror, cudaFilterModeLinear, true, "2d mirror linear norm"}};
    for (auto &cs : cases) {
        for (int i = 0; i < N; i++) {
            float sx = cs.norm ? 3.0f : (float)W + 6, sy = cs.norm ? 3.0f : (float)H + 6;
            hc[i] = make_float2(rnd(seed) * sx - sx / 3, rnd(seed) * sy - sy / 3);
        }
        dc = dev_copy(hc, N);
        cudaTextureObject_t t = make_tex(rd, cs.m, cs.f, cs.norm, cudaReadModeElementType, 7.5f);
        fetch2d<<<(N + 127) / 128, 128>>>(t, dc, dout, N);
        CK_LAUNCH();
        host_copy(out, dout, N);
        model m = {&img[0][0], 1, W, H, 1, cs.m, cs.norm, cs.f == cudaFilterModeLinear, 7.5f};
        for (int i = 0; i < N; i++)
            expect_near(cs.what, i, out[i], sample(m, hc[i].x, hc[i].y, 0, 0, 2), 1e-5, 1e-5);
        if (cs.m == cudaAddressModeMirror && cs.f == cudaFilterModeLinear) {
            cudaTextureDesc back;
            cudaResourceDesc rback;
            CK(cudaGetTextureObjectTextureDesc(&back, t));
            CK(cudaGetTextureObjectResourceDesc(&rback, t));
            expect_true(back.addressMode[0] == cudaAddressModeMirror && back.normalizedCoords &&
                            rback.res.array.array == arr,
                        "texture object descriptors read back");
        }
        CK(cudaDestroyTextureObject(t));
        CK(cudaFree(dc));
    }
    // Read back through the array copy, and its info.
    static float back[H][W];
    CK(cudaMemcpy2DFromArray(back, W * sizeof(float), arr, 0, 0, W * sizeof(float), H,
                             cudaMemcpyDeviceToHost));
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            expect_bitsf("array round trip", y * W + x, back[y][x], img[y][x]);
    cudaChannelFormatDesc gd;
    cudaExtent ext;
    unsigned flags;
    CK(cudaArrayGetInfo(&gd, &ext, &flags, arr));
    expect_true(gd.x == 32 && gd.f == cudaChannelFormatKindFloat && ext.width == W &&
                    ext.height == H && ext.depth == 0 && flags == 0,
                "cudaArrayGetInfo");
    CK(cudaFreeArray(arr));
    CK(cudaFree(dout));
}

static void test_uchar4(uint32_t *seed)
{
    static uchar4 img[H][W];
    static float ref[H][W][4];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            unsigned char v[4];
            for (int k = 0; k < 4; k++) {
                v[k] = (unsigned char)(rnd(seed) * 256);
                ref[y][x][k] = v[k] / 255.0f;
            }
            img[y][x] = make_uchar4(v[0], v[1], v[2], v[3]);
        }
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<uchar4>();
    cudaArray_t arr;
    CK(cudaMallocArray(&arr, &cd, W, H));
    CK(cudaMemcpy2DToArray(arr, 0, 0, img, W * 4, W * 4, H, cudaMemcpyHostToDevice));
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = arr;
    cudaTextureObject_t t =
        make_tex(rd, cudaAddressModeClamp, cudaFilterModeLinear, true, cudaReadModeNormalizedFloat);
    float2 hc[N];
    float4 out[N];
    for (int i = 0; i < N; i++)
        hc[i] = make_float2(rnd(seed) * 1.2f - 0.1f, rnd(seed) * 1.2f - 0.1f);
    float2 *dc = dev_copy(hc, N);
    float4 *dout;
    CK(cudaMalloc(&dout, sizeof(out)));
    fetch2d_uchar4<<<(N + 127) / 128, 128>>>(t, dc, dout, N);
    CK_LAUNCH();
    host_copy(out, dout, N);
    model m = {&ref[0][0][0], 4, W, H, 1, cudaAddressModeClamp, true, true, 0};
    for (int i = 0; i < N; i++) {
        const float got[4] = {out[i].x, out[i].y, out[i].z, out[i].w};
        for (int k = 0; k < 4; k++)
            expect_near("uchar4 normalized linear", i * 4 + k, got[k],
                        sample(m, hc[i].x, hc[i].y, 0, k, 2), 1e-5, 1e-5);
    }
    CK(cudaDestroyTextureObject(t));
    CK(cudaFreeArray(arr));
    CK(cudaFree(dc));
    CK(cudaFree(dout));
}

static void test_linear_and_pitch(uint32_t *seed)
{
    const int n = 40;
    int hv[n], out[N];
    for (int i = 0; i < n; i++)
        hv[i] = (int)(rnd(seed) * 2000) - 1000;
    int *dv = dev_copy(hv, n);
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeLinear;
    rd.res.linear.devPtr = dv;
    rd.res.linear.desc = cudaCreateChannelDesc<int>();
    rd.res.linear.sizeInBytes = n * sizeof(int);
    cudaTextureObject_t t = make_tex(rd, cudaAddressModeClamp, cudaFilterModePoint, false);
    int *dout;
    CK(cudaMalloc(&dout, sizeof(out)));
    fetch1d_linear<<<1, 64>>>(t, dout, 64);
    CK_LAUNCH();
    host_copy(out, dout, 64);
    for (int i = 0; i < 64; i++) // out of range reads 0, whatever the addressing mode
        expect_eq("tex1Dfetch", i, out[i], i - 3 >= 0 && i - 3 < n ? hv[i - 3] : 0);
    CK(cudaDestroyTextureObject(t));

    // Pitched 2D float2 texture, point sampling, clamp.
    static float2 img[H][W];
    static float ref[H][W][2];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            img[y][x] = make_float2(rnd(seed), rnd(seed) - 2);
            ref[y][x][0] = img[y][x].x;
            ref[y][x][1] = img[y][x].y;
        }
    float2 *dimg;
    size_t pitch;
    CK(cudaMallocPitch(&dimg, &pitch, W * sizeof(float2), H));
    CK(cudaMemcpy2D(dimg, pitch, img, W * sizeof(float2), W * sizeof(float2), H,
                    cudaMemcpyHostToDevice));
    cudaResourceDesc pd = {};
    pd.resType = cudaResourceTypePitch2D;
    pd.res.pitch2D.devPtr = dimg;
    pd.res.pitch2D.desc = cudaCreateChannelDesc<float2>();
    pd.res.pitch2D.width = W;
    pd.res.pitch2D.height = H;
    pd.res.pitch2D.pitchInBytes = pitch;
    t = make_tex(pd, cudaAddressModeClamp, cudaFilterModeLinear, false);
    float2 hc[N], o2[N];
    for (int i = 0; i < N; i++)
        hc[i] = make_float2(rnd(seed) * (W + 4) - 2, rnd(seed) * (H + 4) - 2);
    float2 *dc = dev_copy(hc, N), *do2;
    CK(cudaMalloc(&do2, sizeof(o2)));
    fetch_pitch<<<(N + 127) / 128, 128>>>(t, dc, do2, N);
    CK_LAUNCH();
    host_copy(o2, do2, N);
    model m = {&ref[0][0][0], 2, W, H, 1, cudaAddressModeClamp, false, true, 0};
    for (int i = 0; i < N; i++) {
        expect_near("pitch2D x", i, o2[i].x, sample(m, hc[i].x, hc[i].y, 0, 0, 2), 1e-5, 1e-5);
        expect_near("pitch2D y", i, o2[i].y, sample(m, hc[i].x, hc[i].y, 0, 1, 2), 1e-5, 1e-5);
    }
    CK(cudaDestroyTextureObject(t));
    CK(cudaFree(dv));
    CK(cudaFree(dout));
    CK(cudaFree(dimg));
    CK(cudaFree(dc));
    CK(cudaFree(do2));
}

static void test_3d_and_layered(uint32_t *seed)
{
    static float vol[D][H][W];
    for (int z = 0; z < D; z++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                vol[z][y][x] = rnd(seed) * 10;
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
    float4 hc[N];
    float out[N], *dout;
    CK(cudaMalloc(&dout, sizeof(out)));
    for (int layered = 0; layered < 2; layered++) {
        cudaArray_t arr;
        CK(cudaMalloc3DArray(&arr, &cd, make_cudaExtent(W, H, D), layered ? cudaArrayLayered : 0));
        cudaMemcpy3DParms p = {};
        p.srcPtr = make_cudaPitchedPtr(vol, W * sizeof(float), W, H);
        p.dstArray = arr;
        p.extent = make_cudaExtent(W, H, D);
        p.kind = cudaMemcpyHostToDevice;
        CK(cudaMemcpy3D(&p));
        cudaResourceDesc rd = {};
        rd.resType = cudaResourceTypeArray;
        rd.res.array.array = arr;
        cudaTextureObject_t t = make_tex(rd, cudaAddressModeClamp, cudaFilterModeLinear, false);
        for (int i = 0; i < N; i++)
            hc[i] = make_float4(rnd(seed) * (W + 2) - 1, rnd(seed) * (H + 2) - 1,
                                layered ? (float)(i % D) : rnd(seed) * (D + 2) - 1, 0);
        float4 *dc = dev_copy(hc, N);
        if (layered)
            fetch_layered<<<(N + 127) / 128, 128>>>(t, dc, dout, N);
        else
            fetch3d<<<(N + 127) / 128, 128>>>(t, dc, dout, N);
        CK_LAUNCH();
        host_copy(out, dout, N);
        for (int i = 0; i < N; i++) {
            if (layered) {
                model m = {&vol[(int)hc[i].z][0][0], 1,     W,    H, 1,
                           cudaAddressModeClamp,     false, true, 0};
                expect_near("layered", i, out[i], sample(m, hc[i].x, hc[i].y, 0, 0, 2), 1e-5, 1e-5);
            } else {
                model m = {&vol[0][0][0], 1, W, H, D, cudaAddressModeClamp, false, true, 0};
                expect_near("3d", i, out[i], sample(m, hc[i].x, hc[i].y, hc[i].z, 0, 3), 1e-5,
                            1e-5);
            }
        }
        CK(cudaDestroyTextureObject(t));
        CK(cudaFreeArray(arr));
        CK(cudaFree(dc));
    }
    CK(cudaFree(dout));
}

static void test_gather_and_errors(uint32_t *seed)
{
    static float2 img[H][W];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            img[y][x] = make_float2(rnd(seed), rnd(seed) * 3);
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<float2>();
    cudaArray_t arr;
    CK(cudaMallocArray(&arr, &cd, W, H, cudaArrayTextureGather));
    CK(cudaMemcpy2DToArray(arr, 0, 0, img, W * 8, W * 8, H, cudaMemcpyHostToDevice));
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = arr;
    cudaTextureObject_t t = make_tex(rd, cudaAddressModeClamp, cudaFilterModePoint, false);
    float2 hc[N];
    float4 out[N];
    for (int i = 0; i < N; i++)
        hc[i] = make_float2(rnd(seed) * (W + 2) - 1, rnd(seed) * (H + 2) - 1);
    float2 *dc = dev_copy(hc, N);
    float4 *dout;
    CK(cudaMalloc(&dout, sizeof(out)));
    gather<<<(N + 127) / 128, 128>>>(t, dc, dout, N);
    CK_LAUNCH();
    host_copy(out, dout, N);
    static float ref[H][W][2];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            ref[y][x][0] = img[y][x].x, ref[y][x][1] = img[y][x].y;
    model m = {&ref[0][0][0], 2, W, H, 1, cudaAddressModeClamp, false, false, 0};
    for (int i = 0; i < N; i++) {
        int x0, y0;
        frac8(hc[i].x, &x0);
        frac8(hc[i].y, &y0);
        // tld4 order: (i, j+1), (i+1, j+1), (i+1, j), (i, j)
        expect_bitsf("gather x", i, out[i].x, texel(m, x0, y0 + 1, 0, 1));
        expect_bitsf("gather y", i, out[i].y, texel(m, x0 + 1, y0 + 1, 0, 1));
        expect_bitsf("gather z", i, out[i].z, texel(m, x0 + 1, y0, 0, 1));
        expect_bitsf("gather w", i, out[i].w, texel(m, x0, y0, 0, 1));
    }
    CK(cudaDestroyTextureObject(t));

    // API misuse gets CUDA's errors.
    cudaChannelFormatDesc bad = cudaCreateChannelDesc(8, 8, 8, 0, cudaChannelFormatKindUnsigned);
    cudaArray_t a2;
    expect_eq("3-channel array", 0, cudaMallocArray(&a2, &bad, 4, 4),
              cudaErrorInvalidChannelDescriptor);
    cudaChannelFormatDesc fcd = cudaCreateChannelDesc<float>();
    expect_eq("cube-map array", 0,
              cudaMalloc3DArray(&a2, &fcd, make_cudaExtent(4, 4, 6), cudaArrayCubemap),
              cudaErrorNotSupported);
    cudaSurfaceObject_t s;
    expect_eq("surface over a non-surface array", 0, cudaCreateSurfaceObject(&s, &rd),
              cudaErrorInvalidValue);
    expect_eq("destroy twice", 0, cudaDestroyTextureObject(t), cudaErrorInvalidValue);
    expect_eq("copy past the array", 0,
              cudaMemcpy2DToArray(arr, 8, 0, img, W * 8, W * 8, H, cudaMemcpyHostToDevice),
              cudaErrorInvalidValue);
    cudaGetLastError();
    CK(cudaFreeArray(arr));
    CK(cudaFree(dc));
    CK(cudaFree(dout));
}

// A 1D array (cudaMemcpyToArray), tex.level and tex.grad, and raw uchar4 texels.
static void test_lod_and_elements()
{
    float h[32];
    for (int i = 0; i < 32; i++)
        h[i] = i * 1.5f - 7;
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
    cudaArray_t a, b;
    CK(cudaMallocArray(&a, &cd, 32));
    CK(cudaMemcpyToArray(a, 0, 0, h, sizeof(h), cudaMemcpyHostToDevice));
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a;
    cudaTextureObject_t t1 = make_tex(rd, cudaAddressModeClamp, cudaFilterModePoint, false);
    const uchar4 img[4] = {{1, 2, 3, 4}, {5, 6, 7, 8}, {250, 251, 252, 253}, {9, 10, 11, 12}};
    cudaChannelFormatDesc c4 = cudaCreateChannelDesc<uchar4>();
    CK(cudaMallocArray(&b, &c4, 4, 1));
    CK(cudaMemcpy2DToArray(b, 0, 0, img, 16, 16, 1, cudaMemcpyHostToDevice));
    rd.res.array.array = b;
    cudaTextureObject_t t2 = make_tex(rd, cudaAddressModeClamp, cudaFilterModePoint, false);
    float *o, ho[96];
    unsigned *u, hu[32];
    CK(cudaMalloc(&o, sizeof(ho)));
    CK(cudaMalloc(&u, sizeof(hu)));
    lod_and_elements<<<1, 32>>>(t1, t2, o, u);
    CK_LAUNCH();
    host_copy(ho, o, 96);
    host_copy(hu, u, 32);
    for (int i = 0; i < 32; i++) {
        const uchar4 &v = img[i % 4];
        expect_bitsf("tex1D", i, ho[i], h[i]);
        expect_bitsf("tex1DLod", i, ho[32 + i], h[i]);
        expect_bitsf("tex1DGrad", i, ho[64 + i], h[i]);
        expect_equ("uchar4 element", i, hu[i], v.x | v.y << 8 | v.z << 16 | (unsigned)v.w << 24);
    }
    CK(cudaDestroyTextureObject(t1));
    CK(cudaDestroyTextureObject(t2));
    CK(cudaFreeArray(a));
    CK(cudaFreeArray(b));
    CK(cudaFree(o));
    CK(cudaFree(u));
}

int main()
{
    uint32_t seed = 12345;
    test_2d_float(&seed);
    test_uchar4(&seed);
    test_linear_and_pitch(&seed);
    test_3d_and_layered(&seed);
    test_gather_and_errors(&seed);
    test_lod_and_elements();
    return finish();
}
