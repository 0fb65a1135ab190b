/*
 * Determinism of the functional engine, through the public API
 * (runtime/ptxsim.h): the same launch on two fresh devices leaves
 * bit-identical memory (atomics whose return values depend on execution
 * order, %clock/%clock64/%globaltimer reads, device malloc addresses), the
 * same instruction counts, and device addresses from ptxsim_malloc and for
 * module variables follow the same sequence on every device.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/ptxsim.h"

#define HDR ".version 8.0\n.target sm_80\n.address_size 64\n"
#define D3(x, y, z) ((struct ptxsim_dim3){(x), (y), (z)})

enum { NIN = 4096, NBINS = 64, NCTA = 4, NTHR = 96, NT = NCTA * NTHR };

static const char hist_ptx[] =
    HDR ".extern .func (.param .b64 func_retval0) malloc(.param .b64 malloc_param_0);\n"
        ".global .align 4 .u32 gcount;\n"
        ".visible .entry hist(.param .u64 in, .param .u64 bins, .param .u64 rec)\n"
        "{\n"
        ".reg .pred %p<3>;\n.reg .b32 %r<24>;\n.reg .b64 %rd<24>;\n"
        "mov.u32 %r20, %clock;\n"
        "mov.u64 %rd20, %clock64;\n"
        "mov.u32 %r1, %tid.x;\nmov.u32 %r2, %ctaid.x;\nmov.u32 %r3, %ntid.x;\n"
        "mov.u32 %r4, %nctaid.x;\n"
        "mad.lo.u32 %r5, %r2, %r3, %r1;\n"
        "mul.lo.u32 %r6, %r3, %r4;\n"
        "ld.param.u64 %rd1, [in];\nld.param.u64 %rd2, [bins];\nld.param.u64 %rd3, [rec];\n"
        "mov.u32 %r7, %r5;\nmov.u32 %r8, 0;\n"
        "$LOOP:\n"
        "setp.ge.u32 %p1, %r7, 4096;\n"
        "@%p1 bra $DONE;\n"
        "mul.wide.u32 %rd4, %r7, 4;\nadd.s64 %rd5, %rd1, %rd4;\n"
        "ld.global.u32 %r9, [%rd5];\n"
        "and.b32 %r10, %r9, 63;\n"
        "mul.wide.u32 %rd6, %r10, 4;\nadd.s64 %rd7, %rd2, %rd6;\n"
        "atom.global.add.u32 %r11, [%rd7], 1;\n"
        "add.u32 %r8, %r8, %r11;\n"
        "setp.gt.u32 %p2, %r9, 3000000000;\n"
        "@%p2 bra $SKIP;\n"
        "atom.global.exch.b32 %r12, [gcount], %r7;\n"
        "xor.b32 %r8, %r8, %r12;\n"
        "$SKIP:\n"
        "add.u32 %r7, %r7, %r6;\n"
        "bra $LOOP;\n"
        "$DONE:\n"
        "mov.u64 %rd8, 24;\n"
        "call.uni (%rd9), malloc, (%rd8);\n"
        "mov.u32 %r21, %clock;\n"
        "mov.u64 %rd21, %clock64;\n"
        "mov.u64 %rd22, %globaltimer;\n"
        "mul.wide.u32 %rd10, %r5, 48;\nadd.s64 %rd11, %rd3, %rd10;\n"
        "st.global.v4.u32 [%rd11], {%r20, %r21, %r8, %r5};\n"
        "st.global.v2.u64 [%rd11+16], {%rd20, %rd21};\n"
        "st.global.v2.u64 [%rd11+32], {%rd22, %rd9};\n"
        "ret;\n"
        "}\n";

struct result {
    uint32_t bins[NBINS];
    uint32_t rec[NT * 12];
    uint64_t addrs[3], var_addr;
    uint64_t warp_insts, thread_insts;
};

static void run_once(struct result *r)
{
    struct ptxsim_device *d;
    struct ptxsim_module *m;
    uint32_t *in = malloc(NIN * sizeof(uint32_t));
    uint64_t a_in, a_bins, a_rec;
    void *args[3] = {&a_in, &a_bins, &a_rec};
    size_t size;
    uint32_t x = 12345;

    assert_non_null(in);
    for (uint32_t i = 0; i < NIN; i++) {
        x = x * 1103515245u + 12345u;
        in[i] = x;
    }
    memset(r, 0, sizeof(*r));
    assert_int_equal(ptxsim_device_create(NULL, &d), 0);
    assert_int_equal(ptxsim_module_load(d, hist_ptx, strlen(hist_ptx), "hist.ptx", &m), 0);
    assert_int_equal(ptxsim_module_symbol(m, "gcount", &r->var_addr, &size), 0);
    assert_int_equal(ptxsim_malloc(d, NIN * sizeof(uint32_t), &a_in), 0);
    assert_int_equal(ptxsim_malloc(d, sizeof(r->bins), &a_bins), 0);
    assert_int_equal(ptxsim_malloc(d, sizeof(r->rec), &a_rec), 0);
    r->addrs[0] = a_in, r->addrs[1] = a_bins, r->addrs[2] = a_rec;
    assert_int_equal(ptxsim_memcpy_htod(d, a_in, in, NIN * sizeof(uint32_t)), 0);
    assert_int_equal(ptxsim_memset(d, a_bins, 0, sizeof(r->bins)), 0);
    assert_int_equal(ptxsim_launch(m, "hist", D3(NCTA, 1, 1), D3(NTHR, 1, 1), 0, args), 0);
    assert_int_equal(ptxsim_memcpy_dtoh(d, r->bins, a_bins, sizeof(r->bins)), 0);
    assert_int_equal(ptxsim_memcpy_dtoh(d, r->rec, a_rec, sizeof(r->rec)), 0);
    r->warp_insts = ptxsim_warp_insts(d);
    r->thread_insts = ptxsim_thread_insts(d);
    ptxsim_module_unload(m);
    ptxsim_device_destroy(d);
    free(in);
}

static void test_engine_determinism_two_devices(void **state)
{
    struct result *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
    uint32_t want[NBINS] = {0}, x = 12345;

    (void)state;
    assert_non_null(a);
    assert_non_null(b);
    run_once(a);
    run_once(b);
    for (uint32_t i = 0; i < NIN; i++) {
        x = x * 1103515245u + 12345u;
        want[x & 63]++;
    }
    assert_memory_equal(a->bins, want, sizeof(want));
    assert_memory_equal(a, b, sizeof(*a));
    assert_true(a->warp_insts > 0);
    for (uint32_t t = 0; t < NT; t++) {
        const uint32_t *r = &a->rec[t * 12];
        uint64_t c0, c1, heap;

        memcpy(&c0, &r[4], 8);
        memcpy(&c1, &r[6], 8);
        memcpy(&heap, &r[10], 8);
        assert_int_equal(r[3], t);
        assert_true(r[1] > r[0]);      /* %clock advances */
        assert_true(c1 > c0);          /* %clock64 too */
        assert_int_not_equal(heap, 0); /* device malloc succeeded */
    }
    free(a);
    free(b);
}

/* The same sequence of ptxsim_malloc/ptxsim_free gives the same addresses. */
static void alloc_sequence(uint64_t *out, int n)
{
    struct ptxsim_device *d;
    uint64_t keep[16];
    int k = 0;

    assert_int_equal(ptxsim_device_create(NULL, &d), 0);
    for (int i = 0; i < n; i++) {
        size_t size = (size_t)((i * 7919) % 5000) + 1;

        assert_int_equal(ptxsim_malloc(d, size, &out[i]), 0);
        assert_int_not_equal(out[i], 0);
        assert_int_equal(out[i] % 256, 0);
        if (i % 3 == 0 && k < 16)
            keep[k++] = out[i];
        else
            assert_int_equal(ptxsim_free(d, out[i]), 0);
    }
    for (int i = 0; i < k; i++)
        assert_int_equal(ptxsim_free(d, keep[i]), 0);
    ptxsim_device_destroy(d);
}

static void test_engine_determinism_malloc_addresses(void **state)
{
    uint64_t a[40], b[40];

    (void)state;
    alloc_sequence(a, 40);
    alloc_sequence(b, 40);
    assert_memory_equal(a, b, sizeof(a));
}

/* A NUL-terminated text may be loaded with len 0 (runtime/ptxsim.h), and gives the same module. */
static void test_engine_module_load_nul_terminated(void **state)
{
    struct ptxsim_device *d;
    struct ptxsim_module *m;

    (void)state;
    assert_int_equal(ptxsim_device_create(NULL, &d), 0);
    assert_int_equal(ptxsim_module_load(d, hist_ptx, 0, "hist.ptx", &m), 0);
    assert_int_equal(ptxsim_module_kernel_count(m), 1);
    ptxsim_module_unload(m);
    ptxsim_device_destroy(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_engine_determinism_two_devices),
        cmocka_unit_test(test_engine_determinism_malloc_addresses),
        cmocka_unit_test(test_engine_module_load_nul_terminated),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
