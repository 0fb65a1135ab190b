/*
 * Unit tests of the private interface tables of ptxsim's libcuda.so.1
 * (runtime/cuda/drv_export*.c, docs/cuda-driver.md): MD2 against RFC 1319's
 * test vectors, which tables cuGetExportTable gives and refuses, their sizes,
 * the runtime interface's primary context and module load, the tools hooks'
 * buffers, context-local storage (stored, found, removed, destructors called
 * when the context is destroyed), and the handshake's answer: the fixed ones
 * and the HMAC-MD2 of the documented message. Also ptxsim's nvJitLink
 * (runtime/cuda/nvjitlink.c), through nvJitLink.h's inline wrappers: PTX
 * links into PTX that loads; -lto, a missing -arch and cubins are refused.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <cuda.h>
#include <nvJitLink.h>

#include "runtime/cuda/drv_md2.h"

CUresult cuCtxCreate_v2(CUcontext *pctx, unsigned int flags, CUdevice dev);

static const char ptx[] = ".version 7.5\n.target sm_75\n.address_size 64\n"
                          ".visible .entry nop()\n{\n  ret;\n}\n";

/* A table by the hex of its UUID. */
static const void *const *table(const char *hex)
{
    CUuuid id;
    const void *t = NULL;

    for (int i = 0; i < 16; i++) {
        unsigned v;

        sscanf(hex + 2 * i, "%2x", &v);
        id.bytes[i] = (char)v;
    }
    if (cuGetExportTable(&t, &id))
        return NULL;
    return t;
}

#define CUDART "6bd5fb6c5bf4e74a8987d93912fd9df9"
#define HOOKS "a094798c2e742e7493f20800200c0a66"
#define CLS "c693336e1121df11a8c368f355d89593"
#define HANDSHAKE "d4082055bde6704b8d34ba123c66e1f2"

static void md2_hex(const char *msg, char out[33])
{
    unsigned char d[16];
    struct drv_md2 m;

    drv_md2_init(&m);
    drv_md2_update(&m, msg, strlen(msg));
    drv_md2_final(&m, d);
    for (int i = 0; i < 16; i++)
        snprintf(out + 2 * i, 3, "%02x", d[i]);
}

static void test_md2_rfc1319(void **state)
{
    char h[33];

    (void)state;
    md2_hex("", h);
    assert_string_equal(h, "8350e5a3e24c153df2275c9f80692773");
    md2_hex("abc", h);
    assert_string_equal(h, "da853b0d3f88d99b30283a69e6ded6bb");
    md2_hex("message digest", h);
    assert_string_equal(h, "ab4f496bfb2a530b219ff33031fe06b0");
    md2_hex("12345678901234567890123456789012345678901234567890123456789012345678901234567890", h);
    assert_string_equal(h, "d5976f79d83d3a0dc9806c3c66f3efd8");
}

static void test_tables_given_and_refused(void **state)
{
    const void *t = (void *)1;
    CUuuid probe = {{(char)0xf8, (char)0xcf, (char)0xf9, 0x51}};

    (void)state;
    assert_int_equal(cuInit(0), CUDA_SUCCESS);
    assert_non_null(table(CUDART));
    assert_int_equal((uintptr_t)table(CUDART)[0], 10 * sizeof(void *));
    assert_int_equal((uintptr_t)table(HOOKS)[0], 7 * sizeof(void *));
    assert_int_equal((uintptr_t)table("42d85a8123f6cb478298f6e78a3aecdc")[0], 4 * sizeof(void *));
    assert_int_equal((uintptr_t)table("263e88607cd2614392f6bbd5006dfa7e")[0], 4 * sizeof(void *));
    assert_int_equal((uintptr_t)table(HANDSHAKE)[0], 3 * sizeof(void *));
    assert_non_null(table(CLS));
    /* The static runtime's probe must be refused: it takes another start-up path otherwise. */
    assert_int_equal(cuGetExportTable(&t, &probe), CUDA_ERROR_NOT_SUPPORTED);
    assert_null(t);
    assert_null(table("00112233445566778899aabbccddeeff"));
    assert_int_equal(cuGetExportTable(NULL, &probe), CUDA_ERROR_INVALID_VALUE);
}

static void test_cudart_interface(void **state)
{
    CUresult (*primary)(CUcontext *, CUdevice) =
        (CUresult(*)(CUcontext *, CUdevice))table(CUDART)[2];
    CUresult (*load)(CUmodule *, const void *) =
        (CUresult(*)(CUmodule *, const void *))table(CUDART)[1];
    CUresult (*unknown)(void) = (CUresult(*)(void))table(CUDART)[3];
    CUcontext ctx = NULL, retained = NULL;
    CUmodule mod = NULL;
    CUfunction fn = NULL;

    (void)state;
    assert_int_equal(primary(&ctx, 0), CUDA_SUCCESS);
    assert_int_equal(cuDevicePrimaryCtxRetain(&retained, 0), CUDA_SUCCESS);
    assert_ptr_equal(ctx, retained);
    assert_int_equal(primary(&ctx, 1), CUDA_ERROR_INVALID_DEVICE);
    assert_int_equal(load(&mod, ptx), CUDA_SUCCESS);
    assert_int_equal(cuModuleGetFunction(&fn, mod, "nop"), CUDA_SUCCESS);
    assert_int_equal(cuModuleUnload(mod), CUDA_SUCCESS);
    assert_int_equal(unknown(), CUDA_ERROR_NOT_SUPPORTED);
    assert_int_equal(cuDevicePrimaryCtxRelease(0), CUDA_SUCCESS);
}

static void test_hooks(void **state)
{
    void (*get)(void **, size_t *) = (void (*)(void **, size_t *))table(HOOKS)[2];
    void *buf = NULL;
    size_t size = 0;

    (void)state;
    get(&buf, &size);
    assert_non_null(buf);
    assert_int_equal(size, 4096);
    assert_int_equal(((unsigned char *)buf)[0], 0); /* no tool attached */
    get = (void (*)(void **, size_t *))table(HOOKS)[6];
    get(&buf, &size);
    assert_int_equal(size, 56);
}

static int g_dtor_calls;
static void *g_dtor_value;

static void dtor(CUcontext ctx, void *key, void *value)
{
    (void)ctx;
    (void)key;
    g_dtor_calls++;
    g_dtor_value = value;
}

static void test_context_local_storage(void **state)
{
    const void *const *t = table(CLS);
    CUresult (*put)(CUcontext, void *, void *, void (*)(CUcontext, void *, void *)) =
        (CUresult(*)(CUcontext, void *, void *, void (*)(CUcontext, void *, void *)))t[0];
    CUresult (*rm)(CUcontext, void *) = (CUresult(*)(CUcontext, void *))t[1];
    CUresult (*get)(void **, CUcontext, void *) = (CUresult(*)(void **, CUcontext, void *))t[2];
    static int key, value, other;
    void *v = (void *)1;
    CUcontext ctx = NULL;

    (void)state;
    assert_int_equal(get(&v, NULL, &key), CUDA_ERROR_INVALID_HANDLE);
    assert_null(v);
    assert_int_equal(put(NULL, &key, &value, dtor), CUDA_SUCCESS);
    assert_int_equal(get(&v, NULL, &key), CUDA_SUCCESS);
    assert_ptr_equal(v, &value);
    assert_int_equal(rm(NULL, &key), CUDA_SUCCESS);
    assert_int_equal(get(&v, NULL, &key), CUDA_ERROR_INVALID_HANDLE);
    assert_int_equal(rm(NULL, &key), CUDA_ERROR_INVALID_HANDLE);
    /* Values of a created context are separate, and destroyed with it. */
    assert_int_equal(cuCtxCreate_v2(&ctx, 0, 0), CUDA_SUCCESS);
    assert_int_equal(put(ctx, &key, &other, dtor), CUDA_SUCCESS);
    assert_int_equal(get(&v, ctx, &key), CUDA_SUCCESS);
    assert_ptr_equal(v, &other);
    assert_int_equal(cuCtxDestroy(ctx), CUDA_SUCCESS);
    assert_int_equal(g_dtor_calls, 1);
    assert_ptr_equal(g_dtor_value, &other);
}

/* The handshake's message, as docs/cuda-driver.md describes it, and its HMAC-MD2. */
static void expected(uint32_t version, uint64_t seconds, uint64_t out[2])
{
    static const unsigned char key[16] = {0x14, 0x6a, 0xdd, 0xae, 0x53, 0xa9, 0xa7, 0x52,
                                          0xaa, 0x08, 0x41, 0x36, 0x0b, 0xf5, 0x5a, 0x9f};
    unsigned char msg[48 + 28], *at = msg;
    uint32_t words[4] = {13000, version, (uint32_t)getpid(), (uint32_t)pthread_self()};
    const void *ptrs[3] = {table(CUDART), table(HANDSHAKE), table(HANDSHAKE)[1]};
    int pci[3];
    CUuuid uuid;

    memcpy(at, words, 16), at += 16;
    memcpy(at, ptrs, 24), at += 24;
    memcpy(at, &seconds, 8), at += 8;
    assert_int_equal(cuDeviceGetUuid(&uuid, 0), CUDA_SUCCESS);
    memcpy(at, uuid.bytes, 16), at += 16;
    cuDeviceGetAttribute(&pci[0], CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID, 0);
    cuDeviceGetAttribute(&pci[1], CU_DEVICE_ATTRIBUTE_PCI_BUS_ID, 0);
    cuDeviceGetAttribute(&pci[2], CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID, 0);
    memcpy(at, pci, 12);
    drv_hmac_md2(key, msg, sizeof(msg), (unsigned char *)out);
}

static void test_handshake(void **state)
{
    CUresult (*check)(uint32_t, uint64_t, uint64_t *) =
        (CUresult(*)(uint32_t, uint64_t, uint64_t *))table(HANDSHAKE)[1];
    uint64_t got[2], want[2], later[2];

    (void)state;
    assert_int_equal(check(13000, 1, got), CUDA_SUCCESS);
    assert_true(got[0] == 0x3341181C03CB675Cull && got[1] == 0x8ED383AA1F4CD1E8ull);
    assert_int_equal(check(13001, 1, got), CUDA_SUCCESS);
    assert_true(got[0] == 0x1841181C03CB675Cull && got[1] == 0x8ED383AA1F4CD1E8ull);
    assert_int_equal(check(13002, 1795751976, got), CUDA_SUCCESS);
    expected(13002, 1795751976, want);
    assert_memory_equal(got, want, sizeof(got));
    assert_int_equal(check(13002, 1795751977, later), CUDA_SUCCESS); /* the time is hashed */
    assert_memory_not_equal(got, later, sizeof(got));
    assert_int_equal(check(13002, 1, NULL), CUDA_ERROR_INVALID_VALUE);
}

static void test_nvjitlink(void **state)
{
    const char *opts[] = {"-arch=sm_75", "-O3"}, *lto[] = {"-arch=sm_75", "-lto"};
    static const char elf[] = "\177ELF....";
    nvJitLinkHandle h = NULL;
    size_t size = 0;
    char out[4096], log[256];
    CUmodule mod = NULL;
    CUfunction fn = NULL;

    (void)state;
    assert_int_equal(nvJitLinkCreate(&h, 1, opts + 1), NVJITLINK_ERROR_MISSING_ARCH);
    assert_null(h);
    assert_int_equal(nvJitLinkCreate(&h, 2, lto), NVJITLINK_ERROR_UNRECOGNIZED_OPTION);
    assert_int_equal(nvJitLinkCreate(&h, 2, opts), NVJITLINK_SUCCESS);
    assert_int_equal(nvJitLinkAddData(h, NVJITLINK_INPUT_ANY, elf, sizeof(elf), "x.cubin"),
                     NVJITLINK_ERROR_INVALID_INPUT);
    assert_int_equal(nvJitLinkGetErrorLogSize(h, &size), NVJITLINK_SUCCESS);
    assert_true(size > 1 && size <= sizeof(log));
    assert_int_equal(nvJitLinkGetErrorLog(h, log), NVJITLINK_SUCCESS);
    assert_non_null(strstr(log, "cubin"));
    assert_int_equal(nvJitLinkGetLinkedCubinSize(h, &size), NVJITLINK_ERROR_INTERNAL);
    assert_int_equal(nvJitLinkAddData(h, NVJITLINK_INPUT_PTX, ptx, sizeof(ptx), "nop.ptx"),
                     NVJITLINK_SUCCESS);
    assert_int_equal(nvJitLinkComplete(h), NVJITLINK_SUCCESS);
    assert_int_equal(nvJitLinkGetLinkedCubinSize(h, &size), NVJITLINK_SUCCESS);
    assert_true(size > 1 && size <= sizeof(out));
    assert_int_equal(nvJitLinkGetLinkedCubin(h, out), NVJITLINK_SUCCESS);
    assert_non_null(strstr(out, ".entry nop")); /* the "cubin" is PTX text */
    assert_int_equal(cuModuleLoadData(&mod, out), CUDA_SUCCESS);
    assert_int_equal(cuModuleGetFunction(&fn, mod, "nop"), CUDA_SUCCESS);
    assert_int_equal(cuModuleUnload(mod), CUDA_SUCCESS);
    assert_int_equal(nvJitLinkDestroy(&h), NVJITLINK_SUCCESS);
    assert_null(h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_md2_rfc1319),
        cmocka_unit_test(test_tables_given_and_refused),
        cmocka_unit_test(test_cudart_interface),
        cmocka_unit_test(test_hooks),
        cmocka_unit_test(test_context_local_storage),
        cmocka_unit_test(test_handshake),
        cmocka_unit_test(test_nvjitlink),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
