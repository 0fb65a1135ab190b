/*
 * The CUDA driver API on ptxsim: modules from PTX text (cuModuleLoadData),
 * launches with a parameter array and with a packed `extra` buffer, module
 * globals, sets and copies, streams and events, function attributes and
 * occupancy, pointer attributes, cuLink over two PTX units, cuLibrary* (and a
 * __managed__ variable through cuLibraryGetManaged),
 * CUDA arrays with 2D copies and a texture object, cuGetProcAddress, and the refusals (a cubin, bad
 * PTX, an unsupported call). Every result is checked against a host reference.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "drv_common.h"

#define N 1000

static const char saxpy_ptx[] =
    ".version 7.5\n.target sm_75\n.address_size 64\n"
    ".visible .global .align 4 .u32 counter;\n"
    ".visible .entry saxpy(.param .f32 a, .param .u64 x, .param .u64 y, .param .u32 n)\n{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<7>;\n  .reg .f32 %f<4>;\n  .reg .b64 %rd<8>;\n"
    "  ld.param.f32 %f1, [a];\n  ld.param.u64 %rd1, [x];\n  ld.param.u64 %rd2, [y];\n"
    "  ld.param.u32 %r1, [n];\n  mov.u32 %r2, %ctaid.x;\n  mov.u32 %r3, %ntid.x;\n"
    "  mov.u32 %r4, %tid.x;\n  mad.lo.s32 %r5, %r2, %r3, %r4;\n"
    "  setp.ge.s32 %p1, %r5, %r1;\n  @%p1 bra DONE;\n"
    "  cvta.to.global.u64 %rd3, %rd1;\n  cvta.to.global.u64 %rd4, %rd2;\n"
    "  mul.wide.s32 %rd5, %r5, 4;\n  add.s64 %rd6, %rd3, %rd5;\n  add.s64 %rd7, %rd4, %rd5;\n"
    "  ld.global.f32 %f2, [%rd6];\n  ld.global.f32 %f3, [%rd7];\n"
    "  fma.rn.f32 %f3, %f1, %f2, %f3;\n  st.global.f32 [%rd7], %f3;\n"
    "  atom.global.add.u32 %r6, [counter], 1;\n"
    "DONE:\n  ret;\n}\n";

static const char apply_ptx[] =
    ".version 7.5\n.target sm_75\n.address_size 64\n"
    ".extern .func (.param .b32 ret) twice (.param .b32 v);\n"
    ".visible .entry apply(.param .u64 p)\n{\n"
    "  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [p];\n  cvta.to.global.u64 %rd1, %rd1;\n"
    "  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd3, %rd1, %rd2;\n"
    "  ld.global.u32 %r2, [%rd3];\n"
    "  {\n  .param .b32 pa;\n  .param .b32 pr;\n  st.param.b32 [pa], %r2;\n"
    "  call.uni (pr), twice, (pa);\n  ld.param.b32 %r3, [pr];\n  }\n"
    "  st.global.u32 [%rd3], %r3;\n  ret;\n}\n";

static const char twice_ptx[] =
    ".version 7.5\n.target sm_75\n.address_size 64\n"
    ".visible .func (.param .b32 ret) twice (.param .b32 v)\n{\n"
    "  .reg .b32 %r<3>;\n  ld.param.b32 %r1, [v];\n  add.s32 %r2, %r1, %r1;\n"
    "  st.param.b32 [ret], %r2;\n  ret;\n}\n";

static const char tex_ptx[] =
    ".version 7.5\n.target sm_75\n.address_size 64\n"
    ".visible .entry texread(.param .u64 tex, .param .u64 out, .param .u32 w)\n{\n"
    "  .reg .b32 %r<6>;\n  .reg .f32 %f<8>;\n  .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [tex];\n  ld.param.u64 %rd2, [out];\n  ld.param.u32 %r1, [w];\n"
    "  mov.u32 %r2, %tid.x;\n  mov.u32 %r3, %tid.y;\n"
    "  cvt.rn.f32.u32 %f1, %r2;\n  cvt.rn.f32.u32 %f2, %r3;\n"
    "  add.f32 %f1, %f1, 0f3F000000;\n  add.f32 %f2, %f2, 0f3F000000;\n"
    "  tex.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd1, {%f1, %f2}];\n"
    "  mad.lo.u32 %r4, %r3, %r1, %r2;\n  cvta.to.global.u64 %rd3, %rd2;\n"
    "  mul.wide.u32 %rd4, %r4, 4;\n  add.s64 %rd5, %rd3, %rd4;\n"
    "  st.global.f32 [%rd5], %f3;\n  ret;\n}\n";

static void device_checks(CUdevice *dev)
{
    int count = 0, version = 0, major = 0, minor = 0, sms = 0;
    char name[128];
    size_t mem = 0;

    CHECK_IS(cuDeviceGetCount(&count), CUDA_ERROR_NOT_INITIALIZED);
    CHECK(cuInit(0));
    CHECK(cuDriverGetVersion(&version));
    EXPECT(version >= 13000);
    CHECK(cuDeviceGetCount(&count));
    EXPECT(count == 1);
    CHECK(cuDeviceGet(dev, 0));
    CHECK_IS(cuDeviceGet(dev, 1), CUDA_ERROR_INVALID_DEVICE);
    CHECK(cuDeviceGetName(name, sizeof(name), *dev));
    EXPECT(strncmp(name, "ptxsim", 6) == 0);
    CHECK(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, *dev));
    CHECK(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, *dev));
    EXPECT(major * 10 + minor >= 75); /* what CUDA 13 toolchains accept */
    CHECK(cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, *dev));
    EXPECT(sms == 15); /* the GTX 480 machine */
    CHECK(cuDeviceTotalMem(&mem, *dev));
    EXPECT(mem > 0);
}

static void launch_checks(CUmodule mod, CUstream stream)
{
    CUfunction f;
    CUdeviceptr dx, dy, dcounter;
    float x[N], y[N], out[N], a = 2.5f;
    unsigned n = N, counter = 0;
    size_t bytes = 0;
    void *params[] = {&a, &dx, &dy, &n};

    CHECK(cuModuleGetFunction(&f, mod, "saxpy"));
    CHECK_IS(cuModuleGetFunction(&f, mod, "nosuch"), CUDA_ERROR_NOT_FOUND);
    CHECK(cuModuleGetFunction(&f, mod, "saxpy"));
    for (int i = 0; i < N; i++) {
        x[i] = (float)i;
        y[i] = (float)(N - i);
    }
    CHECK(cuMemAlloc(&dx, sizeof(x)));
    CHECK(cuMemAlloc(&dy, sizeof(y)));
    CHECK(cuMemcpyHtoD(dx, x, sizeof(x)));
    CHECK(cuMemcpyHtoDAsync(dy, y, sizeof(y), stream));
    CHECK(cuLaunchKernel(f, (N + 127) / 128, 1, 1, 128, 1, 1, 0, stream, params, NULL));
    CHECK(cuStreamSynchronize(stream));
    CHECK(cuMemcpyDtoH(out, dy, sizeof(out)));
    for (int i = 0; i < N; i++)
        EXPECT(out[i] == fmaf(a, x[i], y[i]));

    /* The same launch with the arguments packed at their PTX offsets (f32, pad, u64, u64, u32). */
    struct {
        float a;
        uint32_t pad;
        CUdeviceptr x, y;
        uint32_t n;
    } packed = {1.0f, 0, dx, dy, N};
    size_t size = sizeof(packed);
    void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &packed, CU_LAUNCH_PARAM_BUFFER_SIZE, &size,
                     CU_LAUNCH_PARAM_END};
    CHECK(cuLaunchKernel(f, (N + 255) / 256, 1, 1, 256, 1, 1, 0, NULL, NULL, extra));
    CHECK(cuMemcpyDtoH(out, dy, sizeof(out)));
    for (int i = 0; i < N; i++)
        EXPECT(out[i] == fmaf(a, x[i], y[i]) + x[i]);
    CHECK_IS(cuLaunchKernel(f, 1, 1, 1, 2048, 1, 1, 0, NULL, params, NULL),
             CUDA_ERROR_INVALID_VALUE);

    CHECK(cuModuleGetGlobal(&dcounter, &bytes, mod, "counter"));
    EXPECT(bytes == 4);
    CHECK(cuMemcpyDtoH(&counter, dcounter, 4));
    EXPECT(counter == 2 * N);
    CHECK(cuMemFree(dx));
    CHECK(cuMemFree(dy));
}

static void memory_checks(void)
{
    CUdeviceptr d, base;
    uint32_t w[64];
    uint16_t h[64];
    unsigned type = 0;
    size_t size = 0, free_b = 0, total = 0;
    void *host;

    CHECK(cuMemAlloc(&d, sizeof(w)));
    CHECK(cuMemsetD32(d, 0xdeadbeefu, 64));
    CHECK(cuMemcpyDtoH(w, d, sizeof(w)));
    for (int i = 0; i < 64; i++)
        EXPECT(w[i] == 0xdeadbeefu);
    CHECK(cuMemsetD16(d + 2, 0x1234, 10));
    CHECK(cuMemcpyDtoH(h, d, sizeof(h)));
    EXPECT(h[0] == 0xbeef && h[1] == 0x1234 && h[10] == 0x1234 && h[11] == 0xdead);
    CHECK(cuMemsetD8(d, 7, 3));
    CHECK(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, d + 8));
    EXPECT(type == CU_MEMORYTYPE_DEVICE);
    CHECK(cuMemGetAddressRange(&base, &size, d + 8));
    EXPECT(base == d && size >= sizeof(w));
    CHECK(cuMemAllocHost(&host, 4096));
    CHECK(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)host));
    EXPECT(type == CU_MEMORYTYPE_HOST);
    CHECK_IS(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)w),
             CUDA_ERROR_INVALID_VALUE);
    memset(host, 0, 4096);
    CHECK(cuMemcpy((CUdeviceptr)host, d, 12)); /* unified addressing: kinds from the pointers */
    EXPECT(((unsigned char *)host)[0] == 7 && ((uint32_t *)host)[1] == 0x12341234u);
    CHECK(cuMemFreeHost(host));
    CHECK(cuMemGetInfo(&free_b, &total));
    EXPECT(free_b <= total && total > 0);
    CHECK(cuMemFree(d));
    CHECK_IS(cuMemAlloc(&d, 0), CUDA_ERROR_INVALID_VALUE);
}

static void attribute_checks(CUmodule mod)
{
    CUfunction f;
    int regs = 0, maxt = 0, grid = 0, block = 0, blocks = 0;
    const char *name = NULL;

    CHECK(cuModuleGetFunction(&f, mod, "saxpy"));
    CHECK(cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, f));
    CHECK(cuFuncGetAttribute(&maxt, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f));
    EXPECT(regs > 0 && regs <= 63 && maxt > 0 && maxt <= 1024);
    CHECK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, f, 256, 0));
    EXPECT(blocks >= 1 && blocks <= 8);
    CHECK(cuOccupancyMaxPotentialBlockSize(&grid, &block, f, NULL, 0, 0));
    EXPECT(block > 0 && block % 32 == 0 && grid >= 15);
    CHECK(cuFuncGetName(&name, f));
    EXPECT(strcmp(name, "saxpy") == 0);
}

static void stream_checks(void)
{
    CUstream s;
    CUevent e0, e1;
    float ms = -1.0f;

    CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CHECK(cuEventCreate(&e0, CU_EVENT_DEFAULT));
    CHECK(cuEventCreate(&e1, CU_EVENT_DEFAULT));
    CHECK(cuEventRecord(e0, s));
    CHECK(cuEventRecord(e1, s));
    CHECK(cuEventSynchronize(e1));
    CHECK(cuEventQuery(e1));
    CHECK(cuEventElapsedTime(&ms, e0, e1));
    EXPECT(ms >= 0.0f);
    CHECK(cuStreamWaitEvent(s, e1, 0));
    CHECK(cuStreamQuery(s));
    CHECK(cuEventDestroy(e0));
    CHECK(cuEventDestroy(e1));
    CHECK(cuStreamDestroy(s));
}

static void link_and_library_checks(void)
{
    CUlinkState ls;
    CUmodule mod;
    CUfunction f;
    CUlibrary lib;
    CUkernel k;
    CUdeviceptr d;
    void *image;
    size_t image_size;
    uint32_t v[32];
    char log[256];
    CUjit_option opt[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *val[] = {log, (void *)(uintptr_t)sizeof(log)};

    CHECK(cuLinkCreate(2, opt, val, &ls));
    CHECK(cuLinkAddData(ls, CU_JIT_INPUT_PTX, (void *)apply_ptx, sizeof(apply_ptx), "a", 0, NULL,
                        NULL));
    CHECK(cuLinkAddData(ls, CU_JIT_INPUT_PTX, (void *)twice_ptx, sizeof(twice_ptx), "b", 0, NULL,
                        NULL));
    CHECK(cuLinkComplete(ls, &image, &image_size));
    CHECK(cuModuleLoadData(&mod, image));
    CHECK(cuLinkDestroy(ls));
    CHECK(cuModuleGetFunction(&f, mod, "apply"));
    for (int i = 0; i < 32; i++)
        v[i] = (uint32_t)i * 3u;
    CHECK(cuMemAlloc(&d, sizeof(v)));
    CHECK(cuMemcpyHtoD(d, v, sizeof(v)));
    void *params[] = {&d};
    CHECK(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, params, NULL));
    CHECK(cuMemcpyDtoH(v, d, sizeof(v)));
    for (int i = 0; i < 32; i++)
        EXPECT(v[i] == (uint32_t)i * 6u);
    CHECK(cuModuleUnload(mod));

    /* A library's CUkernel launches as a CUfunction. */
    CHECK(cuLibraryLoadData(&lib, saxpy_ptx, NULL, NULL, 0, NULL, NULL, 0));
    CHECK(cuLibraryGetKernel(&k, lib, "saxpy"));
    CHECK(cuKernelGetFunction(&f, k));
    float a = 1.0f;
    unsigned n = 32;
    CHECK(cuMemsetD32(d, 0x3f800000u, 32)); /* 1.0f */
    void *sp[] = {&a, &d, &d, &n};
    CHECK(cuLaunchKernel((CUfunction)k, 1, 1, 1, 32, 1, 1, 0, NULL, sp, NULL));
    CHECK(cuMemcpyDtoH(v, d, sizeof(v)));
    EXPECT(v[0] == 0x40000000u && v[31] == 0x40000000u); /* 2.0f */
    CHECK(cuLibraryUnload(lib));
    CHECK(cuMemFree(d));
}

static const char managed_ptx[] =
    ".version 7.5\n.target sm_75\n.address_size 64\n"
    ".visible .global .attribute(.managed) .align 4 .u32 hits = 7;\n"
    ".visible .entry bump()\n{\n  .reg .b32 %r<2>;\n"
    "  ld.global.u32 %r1, [hits];\n  add.u32 %r1, %r1, 1;\n  st.global.u32 [hits], %r1;\n"
    "  ret;\n}\n";

/* A library's __managed__ variable: one address that host and kernels both read and write. */
static void managed_checks(void)
{
    CUlibrary lib;
    CUkernel k;
    CUdeviceptr p, p2;
    size_t size = 0;

    CHECK(cuLibraryLoadData(&lib, managed_ptx, NULL, NULL, 0, NULL, NULL, 0));
    CHECK(cuLibraryGetKernel(&k, lib, "bump"));
    CHECK(cuLibraryGetManaged(&p, &size, lib, "hits"));
    EXPECT(size == 4);
    EXPECT(*(volatile uint32_t *)(uintptr_t)p == 7); /* the initial value */
    CHECK(cuLaunchKernel((CUfunction)k, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL));
    CHECK(cuCtxSynchronize());
    EXPECT(*(volatile uint32_t *)(uintptr_t)p == 8);
    *(volatile uint32_t *)(uintptr_t)p = 100; /* the host's write reaches the kernel */
    CHECK(cuLaunchKernel((CUfunction)k, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL));
    CHECK(cuCtxSynchronize());
    CHECK(cuLibraryGetManaged(&p2, NULL, lib, "hits"));
    EXPECT(p2 == p && *(volatile uint32_t *)(uintptr_t)p == 101);
    CHECK_IS(cuLibraryGetManaged(&p2, NULL, lib, "nothere"), CUDA_ERROR_NOT_FOUND);
    CHECK(cuLibraryUnload(lib));
}

/* An 8x4 float array: 2D copies in and out, and a texture object a kernel reads it through. */
static void array_checks(void)
{
    enum { W = 8, H = 4 };
    CUDA_ARRAY_DESCRIPTOR ad = {W, H, CU_AD_FORMAT_FLOAT, 1}, got;
    CUDA_MEMCPY2D cp;
    CUDA_RESOURCE_DESC rd;
    CUDA_TEXTURE_DESC td;
    CUarray arr;
    CUtexObject tex;
    CUmodule mod;
    CUfunction f;
    CUdeviceptr out;
    float in[H][W], back[H][W], res[H][W];
    unsigned w = W;

    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            in[y][x] = (float)(y * 100 + x);
    CHECK(cuArrayCreate(&arr, &ad));
    CHECK(cuArrayGetDescriptor(&got, arr));
    EXPECT(got.Width == W && got.Height == H && got.Format == CU_AD_FORMAT_FLOAT &&
           got.NumChannels == 1);
    memset(&cp, 0, sizeof(cp));
    cp.srcMemoryType = CU_MEMORYTYPE_HOST, cp.srcHost = in, cp.srcPitch = sizeof(in[0]);
    cp.dstMemoryType = CU_MEMORYTYPE_ARRAY, cp.dstArray = arr;
    cp.WidthInBytes = sizeof(in[0]), cp.Height = H;
    CHECK(cuMemcpy2D(&cp));
    memset(&cp, 0, sizeof(cp));
    cp.srcMemoryType = CU_MEMORYTYPE_ARRAY, cp.srcArray = arr;
    cp.dstMemoryType = CU_MEMORYTYPE_HOST, cp.dstHost = back, cp.dstPitch = sizeof(back[0]);
    cp.WidthInBytes = sizeof(back[0]), cp.Height = H;
    CHECK(cuMemcpy2D(&cp));
    EXPECT(memcmp(in, back, sizeof(in)) == 0);

    memset(&rd, 0, sizeof(rd));
    rd.resType = CU_RESOURCE_TYPE_ARRAY, rd.res.array.hArray = arr;
    memset(&td, 0, sizeof(td));
    td.addressMode[0] = td.addressMode[1] = CU_TR_ADDRESS_MODE_CLAMP;
    td.filterMode = CU_TR_FILTER_MODE_POINT;
    CHECK(cuTexObjectCreate(&tex, &rd, &td, NULL));
    CHECK(cuModuleLoadData(&mod, tex_ptx));
    CHECK(cuModuleGetFunction(&f, mod, "texread"));
    CHECK(cuMemAlloc(&out, sizeof(res)));
    void *params[] = {&tex, &out, &w};
    CHECK(cuLaunchKernel(f, 1, 1, 1, W, H, 1, 0, NULL, params, NULL));
    CHECK(cuMemcpyDtoH(res, out, sizeof(res)));
    EXPECT(memcmp(in, res, sizeof(in)) == 0);
    CHECK(cuTexObjectDestroy(tex));
    CHECK(cuMemFree(out));
    CHECK(cuModuleUnload(mod));
    CHECK(cuArrayDestroy(arr));
}

/* A 4x3x2 float 3D array: cuMemcpy3D in from the host, out to device memory, 1D copies back. */
static void array3d_checks(void)
{
    enum { W = 4, H = 3, D = 2 };
    CUDA_ARRAY3D_DESCRIPTOR ad = {W, H, D, CU_AD_FORMAT_FLOAT, 1, 0};
    CUDA_MEMCPY3D cp;
    CUarray arr;
    CUdeviceptr dev;
    float in[D][H][W], out[D][H][W], row[W];

    for (int z = 0; z < D; z++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                in[z][y][x] = (float)(z * 1000 + y * 10 + x);
    CHECK(cuArray3DCreate(&arr, &ad));
    memset(&cp, 0, sizeof(cp));
    cp.srcMemoryType = CU_MEMORYTYPE_HOST, cp.srcHost = in;
    cp.srcPitch = W * sizeof(float), cp.srcHeight = H;
    cp.dstMemoryType = CU_MEMORYTYPE_ARRAY, cp.dstArray = arr;
    cp.WidthInBytes = W * sizeof(float), cp.Height = H, cp.Depth = D;
    CHECK(cuMemcpy3D(&cp));
    CHECK(cuMemAlloc(&dev, sizeof(in)));
    memset(&cp, 0, sizeof(cp));
    cp.srcMemoryType = CU_MEMORYTYPE_ARRAY, cp.srcArray = arr;
    cp.dstMemoryType = CU_MEMORYTYPE_DEVICE, cp.dstDevice = dev;
    cp.dstPitch = W * sizeof(float), cp.dstHeight = H;
    cp.WidthInBytes = W * sizeof(float), cp.Height = H, cp.Depth = D;
    CHECK(cuMemcpy3D(&cp));
    CHECK(cuMemcpyDtoH(out, dev, sizeof(out)));
    EXPECT(memcmp(in, out, sizeof(in)) == 0);
    CHECK(cuMemcpyAtoH(row, arr, 0, sizeof(row)));
    EXPECT(memcmp(row, in[0][0], sizeof(row)) == 0);
    CHECK(cuMemFree(dev));
    CHECK(cuArrayDestroy(arr));
}

static void refusal_checks(void)
{
    unsigned char cubin[64] = {0x7f, 'E', 'L', 'F', 2, 1, 1};
    CUmodule mod;
    char log[512] = "";
    CUjit_option opt[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *val[] = {log, (void *)(uintptr_t)sizeof(log)};
    void *fn = NULL;
    CUdriverProcAddressQueryResult st;
    const char *s = NULL;
    CUgraph g;

    cubin[18] = 190; /* EM_CUDA */
    CHECK_IS(cuModuleLoadData(&mod, cubin), CUDA_ERROR_NO_BINARY_FOR_GPU);
    CHECK_IS(cuModuleLoadDataEx(&mod, ".version 7.5\n.target sm_75\n.address_size 64\nbogus;\n", 2,
                                opt, val),
             CUDA_ERROR_INVALID_PTX);
    EXPECT(log[0] != '\0');
    CHECK(cuGetProcAddress("cuMemAlloc", &fn, 13000, CU_GET_PROC_ADDRESS_DEFAULT, &st));
    EXPECT(st == CU_GET_PROC_ADDRESS_SUCCESS && fn == (void *)cuMemAlloc);
    CHECK_IS(cuGetProcAddress("cuNoSuchCall", &fn, 13000, 0, &st), CUDA_ERROR_NOT_FOUND);
    EXPECT(st == CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND);
    CHECK(cuGetErrorName(CUDA_ERROR_INVALID_VALUE, &s));
    EXPECT(strcmp(s, "CUDA_ERROR_INVALID_VALUE") == 0);
    CHECK(cuGetErrorString(CUDA_ERROR_OUT_OF_MEMORY, &s));
    EXPECT(s && *s);
    CHECK_IS(cuGraphCreate(&g, 0), CUDA_ERROR_NOT_SUPPORTED);
}

int main(void)
{
    CUdevice dev;
    CUcontext ctx, cur;
    CUmodule mod;
    CUstream stream;

    g_test_name = "driver_api";
    device_checks(&dev);
    CHECK(cuCtxCreate(&ctx, NULL, 0, dev));
    CHECK(cuCtxGetCurrent(&cur));
    EXPECT(cur == ctx);
    CHECK(cuModuleLoadData(&mod, saxpy_ptx));
    CHECK(cuStreamCreate(&stream, 0));
    launch_checks(mod, stream);
    memory_checks();
    attribute_checks(mod);
    stream_checks();
    link_and_library_checks();
    managed_checks();
    array_checks();
    array3d_checks();
    refusal_checks();
    CHECK(cuStreamDestroy(stream));
    CHECK(cuModuleUnload(mod));
    CHECK_IS(cuModuleUnload(mod), CUDA_ERROR_INVALID_HANDLE);
    CHECK(cuCtxDestroy(ctx));
    printf("PASS driver_api\n");
    return 0;
}
