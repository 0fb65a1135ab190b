/*
 * Unit tests of ptxsim's libcudart.so.13 (runtime/cuda/), called directly
 * with no nvcc: the test registers hand-made fatbins (raw PTX entries) the
 * way nvcc's generated code does, then launches through both launch paths,
 * checks copies, symbols, managed variables, streams and events, errors,
 * faults and their stickiness, reset, and the unsupported stubs.
 *
 * The runtime context is process-wide, so the tests run in order and some
 * rely on the registrations made by the first one.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <cuda_runtime_api.h>

/* nvcc's registration and launch hooks (crt/host_runtime.h is C++ only). */
void **__cudaRegisterFatBinary(void *fatCubin);
void __cudaRegisterFatBinaryEnd(void **fatCubinHandle);
void __cudaUnregisterFatBinary(void **fatCubinHandle);
void __cudaRegisterFunction(void **fatCubinHandle, const char *hostFun, char *deviceFun,
                            const char *deviceName, int thread_limit, uint3 *tid, uint3 *bid,
                            dim3 *bDim, dim3 *gDim, int *wSize);
void __cudaRegisterVar(void **fatCubinHandle, char *hostVar, char *deviceAddress,
                       const char *deviceName, int ext, size_t size, int constant, int global);
void __cudaRegisterManagedVar(void **fatCubinHandle, void **hostVarPtrAddress,
                              char *deviceAddress, const char *deviceName, int ext, size_t size,
                              int constant, int global);
char __cudaInitModule(void **fatCubinHandle);
unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem,
                                     struct CUstream_st *stream);
cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem,
                                       void *stream);
cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *func);
cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args,
                               size_t sharedMem, cudaStream_t stream);

static const char ptx_good[] =
    ".version 7.5\n"
    ".target sm_75\n"
    ".address_size 64\n"
    ".const .align 4 .u32 c_k[4];\n"
    ".global .align 4 .u32 g_var = 7;\n"
    ".global .align 4 .u32 m_count = 5;\n"
    ".visible .entry k_fill(.param .u64 p, .param .u32 n, .param .u32 v)\n"
    "{\n"
    "    .reg .pred %p<2>;\n"
    "    .reg .b32 %r<8>;\n"
    "    .reg .b64 %rd<4>;\n"
    "    mov.u32 %r1, %ctaid.x;\n"
    "    mov.u32 %r2, %ntid.x;\n"
    "    mov.u32 %r3, %tid.x;\n"
    "    mad.lo.u32 %r4, %r1, %r2, %r3;\n"
    "    ld.param.u32 %r5, [n];\n"
    "    setp.ge.u32 %p1, %r4, %r5;\n"
    "    @%p1 bra DONE;\n"
    "    ld.param.u32 %r6, [v];\n"
    "    ld.const.u32 %r7, [c_k];\n"
    "    add.u32 %r6, %r6, %r7;\n"
    "    ld.global.u32 %r7, [g_var];\n"
    "    add.u32 %r6, %r6, %r7;\n"
    "    add.u32 %r6, %r6, %r4;\n"
    "    ld.param.u64 %rd1, [p];\n"
    "    mul.wide.u32 %rd2, %r4, 4;\n"
    "    add.u64 %rd3, %rd1, %rd2;\n"
    "    st.global.u32 [%rd3], %r6;\n"
    "DONE:\n"
    "    ret;\n"
    "}\n"
    ".visible .entry k_managed()\n"
    "{\n"
    "    .reg .b32 %r<2>;\n"
    "    atom.global.add.u32 %r1, [m_count], 1;\n"
    "    ret;\n"
    "}\n"
    ".visible .entry k_store(.param .u64 p)\n"
    "{\n"
    "    .reg .b32 %r<2>;\n"
    "    .reg .b64 %rd<2>;\n"
    "    ld.param.u64 %rd1, [p];\n"
    "    mov.u32 %r1, 1;\n"
    "    st.global.u32 [%rd1], %r1;\n"
    "    ret;\n"
    "}\n"
    ".visible .entry k_spin()\n"
    "{\n"
    "LOOP:\n"
    "    bra LOOP;\n"
    "}\n"
    ".visible .entry k_trap()\n"
    "{\n"
    "    trap;\n"
    "}\n";

static const char ptx_bad[] = ".version 7.5\n.target sm_75\n.address_size 64\n"
                              ".visible .entry k_bad()\n{\n    frobnicate.u32 %r1;\n}\n";

/* A registration wrapper and one fatbin container holding one entry. */
struct image {
    uint32_t magic, version;
    const void *data, *filename;
    uint64_t buf[512];
};

static struct image img_good, img_bad, img_elf;
static void **h_good, **h_bad, **h_elf;

/* Host stubs and shadows stand in for the ones nvcc generates. */
static void stub_fill(void) {}
static void stub_managed(void) {}
static void stub_store(void) {}
static void stub_spin(void) {}
static void stub_trap(void) {}
static void stub_bad(void) {}
static void stub_elf(void) {}
static uint32_t shadow_c_k[4], shadow_g_var;
static uint32_t *m_count_ptr;

static void put32(uint8_t *p, uint32_t v)
{
    memcpy(p, &v, 4);
}

static void put64(uint8_t *p, uint64_t v)
{
    memcpy(p, &v, 8);
}

/* Builds img: a container with one raw entry of the given kind (1 PTX, 2 ELF). */
static void make_image(struct image *img, uint16_t kind, const char *payload, size_t len)
{
    uint8_t *b = (uint8_t *)img->buf, *e = b + 16;
    size_t padded = (len + 1 + 7) / 8 * 8;

    assert_true(16 + 64 + padded <= sizeof(img->buf));
    memset(img, 0, sizeof(*img));
    put32(b, 0xBA55ED50u);
    b[4] = 1;                  /* version */
    b[6] = 16;                 /* header size */
    put64(b + 8, 64 + padded); /* entries */
    e[0] = (uint8_t)kind;
    e[2] = 1, e[3] = 1;
    put32(e + 4, 64);
    put64(e + 8, padded);
    e[0x18] = 5, e[0x1a] = 7; /* PTX ISA 7.5 */
    put32(e + 0x1c, 75);
    put64(e + 0x28, 0x11);
    memcpy(e + 64, payload, len);
    img->magic = 0x466243B1u;
    img->version = 1;
    img->data = img->buf;
}

static void reg_fn(void **h, void (*stub)(void), const char *name)
{
    __cudaRegisterFunction(h, (const char *)stub, (char *)name, name, -1, NULL, NULL, NULL, NULL,
                           NULL);
}

/* Runs fn with stderr captured; returns what it printed (static buffer). */
static const char *capture_stderr(void (*fn)(void))
{
    static char text[4096];
    FILE *tmp = tmpfile();
    int saved = dup(2);
    size_t n;

    assert_non_null(tmp);
    fflush(stderr);
    dup2(fileno(tmp), 2);
    fn();
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    rewind(tmp);
    n = fread(text, 1, sizeof(text) - 1, tmp);
    text[n] = '\0';
    fclose(tmp);
    return text;
}

static void register_all(void)
{
    make_image(&img_good, 1, ptx_good, sizeof(ptx_good) - 1);
    h_good = __cudaRegisterFatBinary(&img_good);
    reg_fn(h_good, stub_fill, "k_fill");
    reg_fn(h_good, stub_managed, "k_managed");
    reg_fn(h_good, stub_store, "k_store");
    reg_fn(h_good, stub_spin, "k_spin");
    reg_fn(h_good, stub_trap, "k_trap");
    __cudaRegisterVar(h_good, (char *)shadow_c_k, (char *)"c_k", "c_k", 0, 16, 1, 0);
    __cudaRegisterVar(h_good, (char *)&shadow_g_var, (char *)"g_var", "g_var", 0, 4, 0, 0);
    __cudaRegisterManagedVar(h_good, (void **)&m_count_ptr, (char *)"m_count", "m_count", 0, 4,
                             0, 0);
    __cudaRegisterFatBinaryEnd(h_good);

    make_image(&img_bad, 1, ptx_bad, sizeof(ptx_bad) - 1);
    h_bad = __cudaRegisterFatBinary(&img_bad);
    reg_fn(h_bad, stub_bad, "k_bad");
    __cudaRegisterFatBinaryEnd(h_bad);
}

static void test_cudart_register(void **state)
{
    (void)state;
    assert_non_null(h_good);
    assert_non_null(h_bad);
    assert_int_equal(__cudaInitModule(h_good), 1);
    assert_non_null(m_count_ptr);
    assert_int_equal(*m_count_ptr, 5); /* the PTX initialiser reached the host copy */
}

static void test_cudart_push_pop(void **state)
{
    dim3 g = {3, 2, 1}, b = {32, 4, 1}, g2, b2;
    size_t sh = 0;
    cudaStream_t s = (cudaStream_t)1;

    (void)state;
    assert_int_equal(__cudaPopCallConfiguration(&g2, &b2, &sh, &s), cudaErrorMissingConfiguration);
    assert_int_equal(cudaGetLastError(), cudaErrorMissingConfiguration);
    assert_int_equal(__cudaPushCallConfiguration(g, b, 128, NULL), 0);
    assert_int_equal(__cudaPopCallConfiguration(&g2, &b2, &sh, &s), cudaSuccess);
    assert_int_equal(g2.x, 3);
    assert_int_equal(g2.y, 2);
    assert_int_equal(b2.x, 32);
    assert_int_equal(b2.y, 4);
    assert_int_equal(sh, 128);
    assert_null(s);
}

static void test_cudart_launch(void **state)
{
    const uint32_t k[4] = {100, 0, 0, 0};
    uint32_t out[300], n = 300, v = 1000;
    void *args[3], *d = NULL;
    cudaKernel_t kh;

    (void)state;
    assert_int_equal(cudaMalloc(&d, sizeof(out)), cudaSuccess);
    assert_int_equal(cudaMemcpyToSymbol(shadow_c_k, k, sizeof(k), 0, cudaMemcpyHostToDevice),
                     cudaSuccess);
    args[0] = &d, args[1] = &n, args[2] = &v;
    /* The nvcc 13 path: a handle from __cudaGetKernel, then __cudaLaunchKernel. */
    assert_int_equal(__cudaGetKernel(&kh, (const void *)stub_fill), cudaSuccess);
    assert_int_equal(__cudaLaunchKernel(kh, (dim3){3, 1, 1}, (dim3){128, 1, 1}, args, 0, NULL),
                     cudaSuccess);
    assert_int_equal(cudaMemcpy(out, d, sizeof(out), cudaMemcpyDeviceToHost), cudaSuccess);
    for (uint32_t i = 0; i < n; i++)
        assert_int_equal(out[i], 1000 + 100 + 7 + i);
    /* The legacy path, by host stub; the grid and block come from the call. */
    v = 1;
    assert_int_equal(cudaLaunchKernel((const void *)stub_fill, (dim3){1, 1, 1},
                                      (dim3){300, 1, 1}, args, 0, NULL),
                     cudaSuccess);
    assert_int_equal(cudaMemcpy(out, d, sizeof(out), cudaMemcpyDefault), cudaSuccess);
    assert_int_equal(out[299], 1 + 100 + 7 + 299);
    assert_int_equal(cudaFree(d), cudaSuccess);
}

static void test_cudart_launch_errors(void **state)
{
    int x = 0;
    void *args[1] = {&x};

    (void)state;
    assert_int_equal(cudaLaunchKernel((const void *)&x, (dim3){1, 1, 1}, (dim3){1, 1, 1}, args,
                                      0, NULL),
                     cudaErrorInvalidDeviceFunction);
    assert_int_equal(cudaLaunchKernel((const void *)stub_spin, (dim3){1, 1, 1},
                                      (dim3){2048, 1, 1}, NULL, 0, NULL),
                     cudaErrorInvalidConfiguration);
    assert_int_equal(cudaLaunchKernel((const void *)stub_spin, (dim3){0, 1, 1}, (dim3){1, 1, 1},
                                      NULL, 0, NULL),
                     cudaErrorInvalidConfiguration);
    assert_int_equal(cudaLaunchKernel((const void *)stub_spin, (dim3){1, 1, 1}, (dim3){1, 1, 1},
                                      NULL, 0, (cudaStream_t)&x),
                     cudaErrorInvalidResourceHandle);
    assert_int_equal(cudaGetLastError(), cudaErrorInvalidResourceHandle);
    assert_int_equal(cudaGetLastError(), cudaSuccess);
}

static void launch_bad_twice(void)
{
    assert_int_equal(cudaLaunchKernel((const void *)stub_bad, (dim3){1, 1, 1}, (dim3){1, 1, 1},
                                      NULL, 0, NULL),
                     cudaErrorInvalidKernelImage);
    assert_int_equal(cudaLaunchKernel((const void *)stub_bad, (dim3){1, 1, 1}, (dim3){1, 1, 1},
                                      NULL, 0, NULL),
                     cudaErrorInvalidKernelImage);
}

static void test_cudart_bad_image(void **state)
{
    const char *err = capture_stderr(launch_bad_twice);
    const char *first = strstr(err, ":6:");

    (void)state;
    /* The parse error, with its position, is printed once. */
    assert_non_null(first);
    assert_non_null(strstr(err, "ptxsim: cannot load the device code"));
    assert_null(strstr(first + 1, "ptxsim:"));
    assert_int_equal(cudaGetLastError(), cudaErrorInvalidKernelImage);
}

static void register_elf(void)
{
    make_image(&img_elf, 2, "\177ELF", 4);
    h_elf = __cudaRegisterFatBinary(&img_elf);
    reg_fn(h_elf, stub_elf, "k_elf");
    __cudaRegisterFatBinaryEnd(h_elf);
}

static void test_cudart_no_ptx(void **state)
{
    const char *err = capture_stderr(register_elf);

    (void)state;
    assert_non_null(strstr(err, "no PTX"));
    assert_int_equal(cudaLaunchKernel((const void *)stub_elf, (dim3){1, 1, 1}, (dim3){1, 1, 1},
                                      NULL, 0, NULL),
                     cudaErrorNoKernelImageForDevice);
    __cudaUnregisterFatBinary(h_elf);
    assert_int_equal(cudaLaunchKernel((const void *)stub_elf, (dim3){1, 1, 1}, (dim3){1, 1, 1},
                                      NULL, 0, NULL),
                     cudaErrorInvalidDeviceFunction);
}

static void test_cudart_symbols(void **state)
{
    uint32_t v = 0, *addr = NULL;
    size_t size = 0;

    (void)state;
    assert_int_equal(cudaMemcpyFromSymbol(&v, &shadow_g_var, 4, 0, cudaMemcpyDeviceToHost),
                     cudaSuccess);
    assert_int_equal(v, 7);
    assert_int_equal(cudaGetSymbolSize(&size, shadow_c_k), cudaSuccess);
    assert_int_equal(size, 16);
    assert_int_equal(cudaGetSymbolAddress((void **)&addr, shadow_c_k), cudaSuccess);
    assert_int_equal(cudaMemcpy(&v, addr, 4, cudaMemcpyDeviceToHost), cudaSuccess);
    assert_int_equal(v, 100);
    assert_int_equal(cudaMemcpyToSymbol(shadow_c_k, &v, 4, 16, cudaMemcpyHostToDevice),
                     cudaErrorInvalidValue);
    assert_int_equal(cudaMemcpyToSymbol(&v, &v, 4, 0, cudaMemcpyHostToDevice),
                     cudaErrorInvalidSymbol);
    assert_int_equal(cudaMemcpyToSymbol(shadow_c_k, &v, 4, 0, cudaMemcpyDeviceToHost),
                     cudaErrorInvalidMemcpyDirection);
}

static void test_cudart_managed_var(void **state)
{
    (void)state;
    *m_count_ptr = 5;
    assert_int_equal(cudaLaunchKernel((const void *)stub_managed, (dim3){3, 1, 1},
                                      (dim3){32, 1, 1}, NULL, 0, NULL),
                     cudaSuccess);
    assert_int_equal(*m_count_ptr, 5 + 96);
    *m_count_ptr = 1000; /* host writes reach the device at the next launch */
    assert_int_equal(cudaLaunchKernel((const void *)stub_managed, (dim3){1, 1, 1},
                                      (dim3){32, 1, 1}, NULL, 0, NULL),
                     cudaSuccess);
    assert_int_equal(*m_count_ptr, 1032);
}

static void test_cudart_func_attributes(void **state)
{
    struct cudaFuncAttributes a;
    const char *name = NULL;
    int blocks = -1;

    (void)state;
    assert_int_equal(cudaFuncGetAttributes(&a, (const void *)stub_fill), cudaSuccess);
    assert_int_equal(a.ptxVersion, 75);
    assert_int_equal(a.binaryVersion, 75);
    /* Peak live 32-bit words (isa/regpressure.c): %r6, %rd1 and %rd2 at the address add. */
    assert_int_equal(a.numRegs, 5);
    assert_int_equal(a.maxThreadsPerBlock, 1024);
    assert_int_equal(a.sharedSizeBytes, 0);
    assert_int_equal(a.constSizeBytes, 16);
    assert_int_equal(a.maxDynamicSharedSizeBytes, 49152);
    /* 256 threads: 1536 threads per SM allow 6 CTAs, 32768 registers 8. */
    assert_int_equal(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks,
                                                                   (const void *)stub_fill, 256, 0),
                     cudaSuccess);
    assert_int_equal(blocks, 6);
    assert_int_equal(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                         &blocks, (const void *)stub_fill, 64, 20000),
                     cudaSuccess);
    assert_int_equal(blocks, 2); /* shared memory: 49152 / 20000 */
    assert_int_equal(cudaFuncGetName(&name, (const void *)stub_fill), cudaSuccess);
    assert_string_equal(name, "k_fill");
    assert_int_equal(cudaFuncSetAttribute((const void *)stub_fill,
                                          cudaFuncAttributeMaxDynamicSharedMemorySize, 1024),
                     cudaSuccess);
    assert_int_equal(cudaFuncGetAttributes(&a, (const void *)stub_fill), cudaSuccess);
    assert_int_equal(a.maxDynamicSharedSizeBytes, 1024);
    assert_int_equal(cudaLaunchKernel((const void *)stub_fill, (dim3){1, 1, 1}, (dim3){1, 1, 1},
                                      NULL, 4096, NULL),
                     cudaErrorInvalidValue);
}

static void test_cudart_memcpy_kinds(void **state)
{
    char host[64] = "ptxsim", back[64] = {0};
    void *d = NULL, *d2 = NULL;

    (void)state;
    assert_int_equal(cudaMalloc(&d, 64), cudaSuccess);
    assert_int_equal(cudaMalloc(&d2, 64), cudaSuccess);
    assert_true((uintptr_t)d >= 0x10000000u && (uintptr_t)d < 0xC0000000u);
    assert_int_equal(cudaMemcpy(d, host, 64, cudaMemcpyHostToDevice), cudaSuccess);
    assert_int_equal(cudaMemcpy(d2, d, 64, cudaMemcpyDeviceToDevice), cudaSuccess);
    assert_int_equal(cudaMemcpy(back, d2, 64, cudaMemcpyDefault), cudaSuccess);
    assert_string_equal(back, "ptxsim");
    /* Wrong directions are refused instead of touching the wrong side. */
    assert_int_equal(cudaMemcpy(host, d, 64, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    assert_int_equal(cudaMemcpy(d, host, 64, cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
    assert_int_equal(cudaMemcpy(d, host, 64, (enum cudaMemcpyKind)7),
                     cudaErrorInvalidMemcpyDirection);
    assert_int_equal(cudaMemcpy(d, host, 65, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    assert_int_equal(cudaMemset(d, 'x', 3), cudaSuccess);
    assert_int_equal(cudaMemcpy(back, d, 4, cudaMemcpyDeviceToHost), cudaSuccess);
    assert_memory_equal(back, "xxxx", 3);
    assert_int_equal(cudaMemset2D(d, 16, 'y', 4, 4), cudaSuccess);
    assert_int_equal(cudaMemcpy2D(back, 4, d, 16, 4, 4, cudaMemcpyDeviceToHost), cudaSuccess);
    assert_memory_equal(back, "yyyyyyyyyyyyyyyy", 16);
    assert_int_equal(cudaMemcpy2D(back, 2, d, 16, 4, 4, cudaMemcpyDeviceToHost),
                     cudaErrorInvalidPitchValue);
    assert_int_equal(cudaFree(d), cudaSuccess);
    assert_int_equal(cudaFree(d), cudaErrorInvalidValue);
    assert_int_equal(cudaFree(d2), cudaSuccess);
    assert_int_equal(cudaFree(NULL), cudaSuccess);
}

static void test_cudart_host_memory(void **state)
{
    struct cudaPointerAttributes pa;
    void *m = NULL, *h = NULL, *dp = NULL, *d = NULL;
    char *reg = malloc(100);

    (void)state;
    assert_non_null(reg);
    assert_int_equal(cudaMallocManaged(&m, 1000, cudaMemAttachGlobal), cudaSuccess);
    assert_true((uintptr_t)m >= 0x200000000000u); /* the fixed, reproducible range */
    assert_int_equal(cudaMallocHost(&h, 100), cudaSuccess);
    assert_int_equal(cudaHostGetDevicePointer(&dp, h, 0), cudaSuccess);
    assert_ptr_equal(dp, h);
    memset(h, 'h', 100);
    assert_int_equal(cudaMalloc(&d, 100), cudaSuccess);
    assert_int_equal(cudaMemcpy(d, h, 100, cudaMemcpyHostToDevice), cudaSuccess);
    assert_int_equal(cudaMemcpy(m, d, 100, cudaMemcpyDefault), cudaSuccess);
    assert_int_equal(((char *)m)[99], 'h');
    assert_int_equal(cudaPointerGetAttributes(&pa, m), cudaSuccess);
    assert_int_equal(pa.type, cudaMemoryTypeManaged);
    assert_int_equal(cudaPointerGetAttributes(&pa, h), cudaSuccess);
    assert_int_equal(pa.type, cudaMemoryTypeHost);
    assert_int_equal(cudaPointerGetAttributes(&pa, d), cudaSuccess);
    assert_int_equal(pa.type, cudaMemoryTypeDevice);
    assert_null(pa.hostPointer);
    assert_int_equal(cudaPointerGetAttributes(&pa, reg), cudaSuccess);
    assert_int_equal(pa.type, cudaMemoryTypeUnregistered);
    assert_int_equal(cudaHostRegister(reg, 100, cudaHostRegisterDefault), cudaSuccess);
    assert_int_equal(cudaHostRegister(reg, 100, cudaHostRegisterDefault),
                     cudaErrorHostMemoryAlreadyRegistered);
    assert_int_equal(cudaMemcpy(reg, d, 100, cudaMemcpyDeviceToDevice), cudaSuccess);
    assert_int_equal(reg[0], 'h');
    assert_int_equal(cudaHostUnregister(reg), cudaSuccess);
    assert_int_equal(cudaHostUnregister(reg), cudaErrorHostMemoryNotRegistered);
    assert_int_equal(cudaFreeHost(m), cudaErrorInvalidValue); /* managed: cudaFree */
    assert_int_equal(cudaFree(m), cudaSuccess);
    assert_int_equal(cudaFreeHost(h), cudaSuccess);
    assert_int_equal(cudaFree(d), cudaSuccess);
    assert_int_equal(cudaMallocManaged(&m, 0, cudaMemAttachGlobal), cudaErrorInvalidValue);
    free(reg);
}

static void test_cudart_streams_events(void **state)
{
    static char buf[177400];
    cudaEvent_t a, b, nt;
    cudaStream_t s;
    void *d = NULL;
    float ms = 0;
    unsigned flags = 99;

    (void)state;
    assert_int_equal(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), cudaSuccess);
    assert_int_equal(cudaStreamGetFlags(s, &flags), cudaSuccess);
    assert_int_equal(flags, cudaStreamNonBlocking);
    assert_int_equal(cudaEventCreate(&a), cudaSuccess);
    assert_int_equal(cudaEventCreate(&b), cudaSuccess);
    assert_int_equal(cudaEventCreateWithFlags(&nt, cudaEventDisableTiming), cudaSuccess);
    assert_int_equal(cudaEventElapsedTime(&ms, a, b), cudaErrorInvalidResourceHandle);
    assert_int_equal(cudaMalloc(&d, sizeof(buf)), cudaSuccess);
    assert_int_equal(cudaEventRecord(a, s), cudaSuccess);
    assert_int_equal(cudaMemcpyAsync(d, buf, sizeof(buf), cudaMemcpyHostToDevice, s),
                     cudaSuccess);
    assert_int_equal(cudaEventRecord(b, s), cudaSuccess);
    assert_int_equal(cudaStreamSynchronize(s), cudaSuccess);
    assert_int_equal(cudaEventSynchronize(b), cudaSuccess);
    /* Simulated time: 177400 bytes at 177.4 GB/s take one microsecond. */
    assert_int_equal(cudaEventElapsedTime(&ms, a, b), cudaSuccess);
    assert_true(ms > 0.00099f && ms < 0.00101f);
    assert_int_equal(cudaEventRecord(nt, s), cudaSuccess);
    assert_int_equal(cudaEventElapsedTime(&ms, a, nt), cudaErrorInvalidResourceHandle);
    assert_int_equal(cudaStreamWaitEvent(s, b, 0), cudaSuccess);
    assert_int_equal(cudaFree(d), cudaSuccess);
    assert_int_equal(cudaEventDestroy(a), cudaSuccess);
    assert_int_equal(cudaEventDestroy(a), cudaErrorInvalidResourceHandle);
    assert_int_equal(cudaEventDestroy(b), cudaSuccess);
    assert_int_equal(cudaEventDestroy(nt), cudaSuccess);
    assert_int_equal(cudaStreamDestroy(s), cudaSuccess);
    assert_int_equal(cudaStreamSynchronize(s), cudaErrorInvalidResourceHandle);
    assert_int_equal(cudaStreamSynchronize(cudaStreamPerThread), cudaSuccess);
    assert_int_equal(cudaStreamDestroy(NULL), cudaErrorInvalidResourceHandle);
}

static cudaError_t launch_store(void *p)
{
    void *args[1] = {&p};

    return cudaLaunchKernel((const void *)stub_store, (dim3){1, 1, 1}, (dim3){1, 1, 1}, args, 0,
                            NULL);
}

static void fault_oob(void)
{
    void *d = NULL;

    /* The launch succeeds; the fault is sticky from the next call on. */
    assert_int_equal(launch_store((void *)(uintptr_t)0x100), cudaSuccess);
    assert_int_equal(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    assert_int_equal(cudaMalloc(&d, 4), cudaErrorIllegalAddress);
    assert_int_equal(cudaGetLastError(), cudaErrorIllegalAddress);
    assert_int_equal(cudaGetLastError(), cudaErrorIllegalAddress);
    assert_int_equal(launch_store((void *)(uintptr_t)0x100), cudaErrorIllegalAddress);
}

static void test_cudart_faults(void **state)
{
    const char *err = capture_stderr(fault_oob);
    void *d = NULL;

    (void)state;
    assert_non_null(strstr(err, "ptxsim: "));
    assert_non_null(strstr(err, "k_store"));
    assert_non_null(strstr(err, "CTA (0,0,0), thread (0,0,0)"));
    assert_null(strstr(strstr(err, "k_store") + 1, "k_store")); /* printed once */
    assert_int_equal(cudaDeviceReset(), cudaSuccess);
    assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
    assert_int_equal(cudaGetLastError(), cudaSuccess);
    assert_int_equal(cudaMalloc(&d, 64), cudaSuccess);
    assert_int_equal(launch_store((char *)d + 2), cudaSuccess);
    assert_int_equal(cudaDeviceSynchronize(), cudaErrorMisalignedAddress);
    assert_int_equal(cudaDeviceReset(), cudaSuccess);
    assert_int_equal(cudaLaunchKernel((const void *)stub_trap, (dim3){1, 1, 1}, (dim3){1, 1, 1},
                                      NULL, 0, NULL),
                     cudaSuccess);
    assert_int_equal(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    assert_int_equal(cudaDeviceReset(), cudaSuccess);
    /* PTXSIM_BUDGET (set in main) stops the endless loop. */
    assert_int_equal(cudaLaunchKernel((const void *)stub_spin, (dim3){1, 1, 1}, (dim3){1, 1, 1},
                                      NULL, 0, NULL),
                     cudaSuccess);
    assert_int_equal(cudaDeviceSynchronize(), cudaErrorLaunchTimeout);
    assert_int_equal(cudaDeviceReset(), cudaSuccess);
    /* Modules reload after the reset; the managed variable keeps its host copy. */
    assert_int_equal(*m_count_ptr, 1032);
    test_cudart_launch(state);
}

static void test_cudart_device(void **state)
{
    struct cudaDeviceProp p;
    int v = 0, n = 0;
    size_t lim = 0, fr = 0, tot = 0;

    (void)state;
    assert_int_equal(cudaGetDeviceCount(&n), cudaSuccess);
    assert_int_equal(n, 1);
    assert_int_equal(cudaSetDevice(1), cudaErrorInvalidDevice);
    assert_int_equal(cudaSetDevice(0), cudaSuccess);
    assert_int_equal(cudaGetDeviceProperties(&p, 0), cudaSuccess);
    assert_string_equal(p.name, "ptxsim GTX 480");
    assert_int_equal(p.multiProcessorCount, 15);
    assert_int_equal(p.major * 10 + p.minor, 75);
    assert_int_equal(p.sharedMemPerBlock, 49152);
    assert_int_equal(p.totalGlobalMem, (size_t)3 << 30);
    assert_int_equal(cudaDeviceGetAttribute(&v, cudaDevAttrClockRate, 0), cudaSuccess);
    assert_int_equal(v, 1400000); /* 2 x the configured 700 MHz core clock (docs/cuda-runtime.md) */
    assert_int_equal(cudaDeviceGetAttribute(&v, cudaDevAttrL2CacheSize, 0), cudaSuccess);
    assert_int_equal(v, 786432);
    assert_int_equal(cudaDeviceGetAttribute(&v, cudaDevAttrMax, 0), cudaErrorInvalidValue);
    assert_int_equal(cudaDriverGetVersion(&v), cudaSuccess);
    assert_int_equal(v, 13000);
    assert_int_equal(cudaRuntimeGetVersion(&v), cudaSuccess);
    assert_int_equal(v, 13000);
    assert_int_equal(cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 1 << 22), cudaSuccess);
    assert_int_equal(cudaDeviceGetLimit(&lim, cudaLimitPrintfFifoSize), cudaSuccess);
    assert_int_equal(lim, 1 << 22);
    assert_int_equal(cudaDeviceSetLimit(cudaLimitStackSize, 1024), cudaSuccess);
    assert_int_equal(cudaDeviceGetLimit(&lim, cudaLimitStackSize), cudaSuccess);
    assert_int_equal(lim, 1024);
    assert_int_equal(cudaDeviceSetLimit(cudaLimitDevRuntimeSyncDepth, 2),
                     cudaErrorUnsupportedLimit);
    assert_int_equal(cudaMemGetInfo(&fr, &tot), cudaSuccess);
    assert_int_equal(tot, (size_t)3 << 30);
    assert_true(fr <= tot);
}

static void test_cudart_errors(void **state)
{
    (void)state;
    cudaGetLastError();
    assert_string_equal(cudaGetErrorName(cudaSuccess), "cudaSuccess");
    assert_string_equal(cudaGetErrorName(cudaErrorIllegalAddress), "cudaErrorIllegalAddress");
    assert_string_equal(cudaGetErrorName(cudaErrorNotSupported), "cudaErrorNotSupported");
    assert_string_equal(cudaGetErrorName((cudaError_t)12345), "cudaErrorUnknown");
    assert_string_equal(cudaGetErrorString((cudaError_t)12345), "unrecognized error code");
    assert_true(strlen(cudaGetErrorString(cudaErrorLaunchTimeout)) > 0);
    assert_int_equal(cudaPeekAtLastError(), cudaSuccess);
}

static void call_stub_twice(void)
{
    cudaGraph_t g;

    assert_int_equal(cudaGraphCreate(&g, 0), cudaErrorNotSupported);
    assert_int_equal(cudaGraphCreate(&g, 0), cudaErrorNotSupported);
}

static void test_cudart_unsupported(void **state)
{
    const char *err = capture_stderr(call_stub_twice);

    (void)state;
    assert_string_equal(err, "ptxsim: cudaGraphCreate is not supported (CUDA graphs): it returns "
                             "cudaErrorNotSupported and the program goes on\n");
    assert_int_equal(cudaPeekAtLastError(), cudaErrorNotSupported);
    assert_int_equal(cudaGetLastError(), cudaErrorNotSupported);
    assert_int_equal(cudaGetLastError(), cudaSuccess);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cudart_register),
        cmocka_unit_test(test_cudart_push_pop),
        cmocka_unit_test(test_cudart_launch),
        cmocka_unit_test(test_cudart_launch_errors),
        cmocka_unit_test(test_cudart_bad_image),
        cmocka_unit_test(test_cudart_no_ptx),
        cmocka_unit_test(test_cudart_symbols),
        cmocka_unit_test(test_cudart_managed_var),
        cmocka_unit_test(test_cudart_func_attributes),
        cmocka_unit_test(test_cudart_memcpy_kinds),
        cmocka_unit_test(test_cudart_host_memory),
        cmocka_unit_test(test_cudart_streams_events),
        cmocka_unit_test(test_cudart_faults),
        cmocka_unit_test(test_cudart_device),
        cmocka_unit_test(test_cudart_errors),
        cmocka_unit_test(test_cudart_unsupported),
    };

    setenv("PTXSIM_BUDGET", "100000", 1);
    unsetenv("PTXSIM_MODE");
    unsetenv("PTXSIM_CONFIG");
    unsetenv("PTXSIM_STATS");
    register_all();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
