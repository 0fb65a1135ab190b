/*
 * Unit tests of the driver API of ptxsim's CUDA library (runtime/cuda/drv_*.c),
 * called directly: cuGetProcAddress's version choice and refusals, error names,
 * the context stack, modules from PTX text and fatbin containers (a cubin-only
 * one is refused with CUDA_ERROR_NO_BINARY_FOR_GPU), both APIs on one address
 * space, and the runtime's last error, which driver calls leave alone.
 * The library state is process-wide, so the tests run in order.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <cuda.h>
#include <cuda_runtime_api.h>

/* The ABI names cuda.h hides behind its `#define name name_vN` lines. */
CUresult cuCtxCreate_v2(CUcontext *pctx, unsigned int flags, CUdevice dev);

static const char ptx[] = ".version 7.5\n.target sm_75\n.address_size 64\n"
                          ".visible .global .align 4 .u32 g = 3;\n"
                          ".visible .entry inc(.param .u64 p)\n{\n"
                          "  .reg .b32 %r<3>;\n  .reg .b64 %rd<3>;\n"
                          "  ld.param.u64 %rd1, [p];\n  ld.global.u32 %r1, [%rd1];\n"
                          "  ld.global.u32 %r2, [g];\n  add.u32 %r1, %r1, %r2;\n"
                          "  st.global.u32 [%rd1], %r1;\n  ret;\n}\n";

static void test_before_init(void **state)
{
    int n;

    (void)state;
    assert_int_equal(cuDeviceGetCount(&n), CUDA_ERROR_NOT_INITIALIZED);
    assert_int_equal(cuInit(1), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(cuInit(0), CUDA_SUCCESS);
    assert_int_equal(cuDeviceGetCount(&n), CUDA_SUCCESS);
    assert_int_equal(n, 1);
}

static void test_proc_address(void **state)
{
    CUdriverProcAddressQueryResult st;
    void *fn = NULL;

    (void)state;
    assert_int_equal(cuGetProcAddress("cuCtxCreate", &fn, 13000, 0, &st), CUDA_SUCCESS);
    assert_ptr_equal(fn, (void *)cuCtxCreate);
    assert_int_equal(cuGetProcAddress("cuCtxCreate", &fn, 11000, 0, &st), CUDA_SUCCESS);
    assert_ptr_equal(fn, (void *)cuCtxCreate_v2);
    assert_int_equal(cuGetProcAddress("cuMemAlloc", &fn, 3000, 0, &st), CUDA_ERROR_NOT_FOUND);
    assert_int_equal(st, CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT);
    assert_int_equal(cuGetProcAddress("cuNoSuchThing", &fn, 13000, 0, &st), CUDA_ERROR_NOT_FOUND);
    assert_int_equal(st, CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND);
    /* An unimplemented entry point resolves to a refusal that names itself. */
    assert_int_equal(cuGetProcAddress("cuGraphCreate", &fn, 13000, 0, &st), CUDA_SUCCESS);
    assert_int_equal(((CUresult(*)(CUgraph *, unsigned))fn)(NULL, 0), CUDA_ERROR_NOT_SUPPORTED);
}

static void test_error_names(void **state)
{
    const char *s = NULL;

    (void)state;
    assert_int_equal(cuGetErrorName(CUDA_ERROR_NO_BINARY_FOR_GPU, &s), CUDA_SUCCESS);
    assert_string_equal(s, "CUDA_ERROR_NO_BINARY_FOR_GPU");
    assert_int_equal(cuGetErrorString((CUresult)12345, &s), CUDA_ERROR_INVALID_VALUE);
    assert_null(s);
}

static void test_context_stack(void **state)
{
    CUcontext a, b, cur, primary;
    CUdevice dev = -1;

    (void)state;
    assert_int_equal(cuCtxGetCurrent(&cur), CUDA_SUCCESS);
    assert_null(cur);
    assert_int_equal(cuCtxGetDevice(&dev), CUDA_ERROR_INVALID_CONTEXT);
    assert_int_equal(cuDevicePrimaryCtxRetain(&primary, 0), CUDA_SUCCESS);
    assert_int_equal(cuCtxCreate(&a, NULL, 0, 0), CUDA_SUCCESS);
    assert_int_equal(cuCtxPushCurrent(primary), CUDA_SUCCESS);
    assert_int_equal(cuCtxGetCurrent(&cur), CUDA_SUCCESS);
    assert_ptr_equal(cur, primary);
    assert_int_equal(cuCtxPopCurrent(&b), CUDA_SUCCESS);
    assert_ptr_equal(b, primary);
    assert_int_equal(cuCtxGetCurrent(&cur), CUDA_SUCCESS);
    assert_ptr_equal(cur, a);
    assert_int_equal(cuCtxGetDevice(&dev), CUDA_SUCCESS);
    assert_int_equal(dev, 0);
    assert_int_equal(cuCtxDestroy(primary), CUDA_ERROR_INVALID_CONTEXT);
    assert_int_equal(cuCtxDestroy(a), CUDA_SUCCESS);
    assert_int_equal(cuCtxPushCurrent(a), CUDA_ERROR_INVALID_CONTEXT);
    assert_int_equal(cuDevicePrimaryCtxRelease(0), CUDA_SUCCESS);
    assert_int_equal(cuDevicePrimaryCtxRelease(0), CUDA_ERROR_INVALID_CONTEXT);
}

/* A fatbin container with one uncompressed entry of the given kind (1 PTX, 2 ELF). */
static void make_fatbin(uint8_t *b, size_t cap, uint16_t kind, const char *payload, size_t len)
{
    uint8_t *e = b + 16;
    uint64_t padded = (len + 1 + 7) / 8 * 8, v64;
    uint32_t v32;

    assert_true(16 + 64 + padded <= cap);
    memset(b, 0, cap);
    v32 = 0xBA55ED50u;
    memcpy(b, &v32, 4);
    b[4] = 1, b[6] = 16;
    v64 = 64 + padded;
    memcpy(b + 8, &v64, 8);
    e[0] = (uint8_t)kind, e[2] = 1, e[3] = 1;
    v32 = 64;
    memcpy(e + 4, &v32, 4);
    memcpy(e + 8, &padded, 8);
    e[0x18] = 5, e[0x1a] = 7;
    v32 = 75;
    memcpy(e + 0x1c, &v32, 4);
    memcpy(e + 64, payload, len);
}

static void test_modules_and_mixing(void **state)
{
    static uint8_t fb[4096];
    CUmodule m;
    CUfunction f;
    uint32_t *p = NULL, v = 4;
    void *args[1];

    (void)state;
    assert_int_equal(cuModuleLoadData(&m, "x"), CUDA_ERROR_INVALID_PTX); /* short text */
    make_fatbin(fb, sizeof(fb), 2, "\177ELF", 4);
    assert_int_equal(cuModuleLoadData(&m, fb), CUDA_ERROR_NO_BINARY_FOR_GPU);
    make_fatbin(fb, sizeof(fb), 1, ptx, sizeof(ptx) - 1);
    assert_int_equal(cuModuleLoadFatBinary(&m, fb), CUDA_SUCCESS);
    memset(fb, 0, sizeof(fb)); /* the module keeps its own copy */
    assert_int_equal(cuModuleGetFunction(&f, m, "inc"), CUDA_SUCCESS);
    /* A runtime allocation launched on by the driver, read back by the runtime. */
    assert_int_equal(cudaMalloc((void **)&p, 4), cudaSuccess);
    assert_int_equal(cuMemcpyHtoD((CUdeviceptr)p, &v, 4), CUDA_SUCCESS);
    args[0] = &p;
    assert_int_equal(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL), CUDA_SUCCESS);
    assert_int_equal(cudaMemcpy(&v, p, 4, cudaMemcpyDeviceToHost), cudaSuccess);
    assert_int_equal(v, 7);
    /* A failing driver call does not become the runtime's last error. */
    assert_int_equal(cudaGetLastError(), cudaSuccess);
    assert_int_equal(cuModuleGetFunction(&f, m, "nosuch"), CUDA_ERROR_NOT_FOUND);
    assert_int_equal(cuMemFree(0x1234), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(cudaGetLastError(), cudaSuccess);
    assert_int_equal(cuModuleUnload(m), CUDA_SUCCESS);
    assert_int_equal(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL),
                     CUDA_ERROR_INVALID_HANDLE);
    assert_int_equal(cudaFree(p), cudaSuccess);
}

/* After a runtime call, the thread's current context is the primary one (as in CUDA). */
static void test_runtime_binds_primary(void **state)
{
    CUcontext cur = NULL, primary;

    (void)state;
    assert_int_equal(cuDevicePrimaryCtxRetain(&primary, 0), CUDA_SUCCESS);
    assert_int_equal(cuCtxGetCurrent(&cur), CUDA_SUCCESS);
    assert_ptr_equal(cur, primary);
    assert_int_equal(cuDevicePrimaryCtxRelease(0), CUDA_SUCCESS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_before_init),        cmocka_unit_test(test_proc_address),
        cmocka_unit_test(test_error_names),        cmocka_unit_test(test_context_stack),
        cmocka_unit_test(test_modules_and_mixing), cmocka_unit_test(test_runtime_binds_primary),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
