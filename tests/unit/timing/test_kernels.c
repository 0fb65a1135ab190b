/*
 * Concurrent kernels in the timing model (timing/kernels.c) through the
 * public API (runtime/ptxsim.h): two kernels started together overlap,
 * compute the right results and add their common cycles to the GPU's time
 * once; with -gpgpu_max_concurrent_kernel 1 a second start is refused until
 * the first finishes and they run one after the other; a lone kernel started
 * and waited for gets the figures of ptxsim_launch; a fault in one kernel
 * ends the other too; runs are deterministic.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "common/config.h"
#include "runtime/ptxsim.h"

/* out[tid] = iterate(tid * 3 + seed, n) for the grid's threads; a null out faults. */
static const char spin_ptx[] =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry spin(.param .u64 out, .param .u32 seed, .param .u32 n)\n"
    "{\n"
    ".reg .pred %p<2>;\n.reg .b32 %r<10>;\n.reg .b64 %rd<4>;\n"
    "ld.param.u64 %rd1, [out];\nld.param.u32 %r1, [seed];\nld.param.u32 %r2, [n];\n"
    "mov.u32 %r3, %ctaid.x;\nmov.u32 %r4, %ntid.x;\nmov.u32 %r5, %tid.x;\n"
    "mad.lo.u32 %r6, %r3, %r4, %r5;\n"
    "mad.lo.u32 %r7, %r6, 3, %r1;\n"
    "mov.u32 %r8, 0;\n"
    "LOOP:\n"
    "mad.lo.u32 %r7, %r7, 1664525, 1013904223;\n"
    "add.u32 %r8, %r8, 1;\n"
    "setp.lt.u32 %p1, %r8, %r2;\n"
    "@%p1 bra LOOP;\n"
    "mul.wide.u32 %rd2, %r6, 4;\nadd.u64 %rd3, %rd1, %rd2;\n"
    "st.global.u32 [%rd3], %r7;\n"
    "ret;\n}\n";

#define THREADS 64u
#define CTAS 2u
#define ITERS 300u

struct rig {
    struct ps_config cfg;
    struct ptxsim_device *d;
    struct ptxsim_module *m;
    uint64_t out[2];
};

static void rig_open(struct rig *r, const char *overrides)
{
    struct ptxsim_options o;
    struct ps_err err;

    memset(r, 0, sizeof(*r));
    ps_err_clear(&err);
    assert_int_equal(ptxsim_config_build("gtx480", overrides, &r->cfg, &err), 0);
    ptxsim_options_default(&o);
    o.timing = &r->cfg;
    assert_int_equal(ptxsim_device_create(&o, &r->d), 0);
    assert_int_equal(ptxsim_module_load(r->d, spin_ptx, 0, "spin.ptx", &r->m), 0);
    for (int i = 0; i < 2; i++)
        assert_int_equal(ptxsim_malloc(r->d, THREADS * CTAS * 4, &r->out[i]), 0);
}

static void rig_close(struct rig *r)
{
    ptxsim_module_unload(r->m);
    ptxsim_device_destroy(r->d);
    ps_config_free(&r->cfg);
}

static uint32_t want(uint32_t tid, uint32_t seed)
{
    uint32_t x = tid * 3 + seed;

    for (uint32_t i = 0; i < ITERS; i++)
        x = x * 1664525u + 1013904223u;
    return x;
}

static struct ptxsim_run *start_n(struct rig *r, uint64_t out, uint32_t seed, uint32_t n,
                                  int expect)
{
    struct ptxsim_dim3 g = {CTAS, 1, 1}, b = {THREADS, 1, 1};
    void *args[3] = {&out, &seed, &n};
    void *params;
    uint32_t bytes;
    struct ptxsim_run *run = NULL;

    assert_int_equal(ptxsim_pack_params(r->m, "spin", args, &params, &bytes), 0);
    assert_int_equal(ptxsim_launch_start(r->m, "spin", g, b, 0, params, bytes, &run) != 0,
                     expect != 0);
    free(params);
    return run;
}

static struct ptxsim_run *start(struct rig *r, uint64_t out, uint32_t seed, int expect)
{
    return start_n(r, out, seed, ITERS, expect);
}

static void check_out(struct rig *r, int i, uint32_t seed)
{
    uint32_t got[THREADS * CTAS];

    assert_int_equal(ptxsim_memcpy_dtoh(r->d, got, r->out[i], sizeof(got)), 0);
    for (uint32_t t = 0; t < THREADS * CTAS; t++)
        assert_int_equal(got[t], want(t, seed));
}

static void overlap_pair(struct tm_stats *a, struct tm_stats *b)
{
    struct rig r;
    struct ptxsim_run *k1, *k2;

    rig_open(&r, NULL);
    assert_int_equal(ptxsim_kernel_slots(r.d), 8);
    k1 = start(&r, r.out[0], 1, 0);
    k2 = start(&r, r.out[1], 2, 0);
    assert_int_equal(ptxsim_kernels_in_flight(r.d), 2);
    ptxsim_run_wait(r.d, k2);
    ptxsim_run_wait(r.d, k1);
    assert_true(ptxsim_run_done(k1) && ptxsim_run_done(k2));
    assert_int_equal(ptxsim_run_finish(r.d, k1, a), 0);
    assert_int_equal(ptxsim_run_finish(r.d, k2, b), 0);
    check_out(&r, 0, 1);
    check_out(&r, 1, 2);
    rig_close(&r);
}

static void test_overlap(void **state)
{
    struct tm_stats a, b, a2, b2;

    (void)state;
    overlap_pair(&a, &b);
    assert_int_equal(a.overlapped, 1);
    assert_int_equal(b.overlapped, 1);
    assert_true(a.start_cycle < b.end_cycle && b.start_cycle < a.end_cycle);
    assert_int_equal(a.c.warp_insts, b.c.warp_insts);
    assert_int_equal(a.c.ctas, CTAS);
    /* The GPU's time counts the common cycles once. */
    assert_true(a.gpu_cycles + b.gpu_cycles < a.c.cycles + b.c.cycles);
    assert_int_equal(a.gpu_cycles + b.gpu_cycles,
                     (a.end_cycle > b.end_cycle ? a.end_cycle : b.end_cycle) -
                         (a.start_cycle < b.start_cycle ? a.start_cycle : b.start_cycle));
    overlap_pair(&a2, &b2); /* deterministic */
    assert_int_equal(a.c.cycles, a2.c.cycles);
    assert_int_equal(b.end_cycle, b2.end_cycle);
}

static void test_one_slot(void **state)
{
    struct rig r;
    struct ptxsim_run *k1, *k2;
    struct tm_stats a, b;

    (void)state;
    rig_open(&r, "gpgpu_max_concurrent_kernel=1");
    assert_int_equal(ptxsim_kernel_slots(r.d), 1);
    k1 = start(&r, r.out[0], 1, 0);
    assert_null(start(&r, r.out[1], 2, 1)); /* no slot */
    ptxsim_run_wait(r.d, NULL);
    assert_true(ptxsim_run_done(k1));
    assert_int_equal(ptxsim_run_finish(r.d, k1, &a), 0);
    k2 = start(&r, r.out[1], 2, 0);
    ptxsim_run_wait(r.d, k2);
    assert_int_equal(ptxsim_run_finish(r.d, k2, &b), 0);
    assert_int_equal(a.overlapped, 0);
    assert_true(b.start_cycle >= a.end_cycle);
    assert_int_equal(a.gpu_cycles, a.c.cycles);
    assert_int_equal(b.gpu_cycles, b.c.cycles);
    check_out(&r, 0, 1);
    check_out(&r, 1, 2);
    rig_close(&r);
}

static void test_lone_matches_launch(void **state)
{
    struct rig r;
    struct ptxsim_run *k;
    struct tm_stats a;
    uint64_t cycles;
    uint32_t seed = 5, n = ITERS;
    void *args[3] = {&r.out[0], &seed, &n};

    (void)state;
    rig_open(&r, NULL);
    args[0] = &r.out[0];
    assert_int_equal(ptxsim_launch(r.m, "spin", (struct ptxsim_dim3){CTAS, 1, 1},
                                   (struct ptxsim_dim3){THREADS, 1, 1}, 0, args),
                     0);
    cycles = ptxsim_timing_last(r.d)->c.cycles;
    rig_close(&r);
    rig_open(&r, NULL);
    k = start(&r, r.out[0], 5, 0);
    ptxsim_run_wait(r.d, k);
    assert_int_equal(ptxsim_run_finish(r.d, k, &a), 0);
    assert_int_equal(a.c.cycles, cycles);
    check_out(&r, 0, 5);
    rig_close(&r);
}

static void test_fault_ends_all(void **state)
{
    struct rig r;
    struct ptxsim_run *k1, *k2;
    struct tm_stats a, b;

    (void)state;
    rig_open(&r, NULL);
    k1 = start_n(&r, r.out[0], 1, 20 * ITERS, 0);
    k2 = start_n(&r, 0, 2, 1, 0); /* soon stores through a null pointer */
    ptxsim_run_wait(r.d, k1);
    assert_true(ptxsim_run_done(k1) && ptxsim_run_done(k2));
    assert_int_equal(ptxsim_kernels_in_flight(r.d), 0);
    assert_int_equal(ptxsim_run_finish(r.d, k2, &b), PS_EFAULT);
    assert_int_not_equal(ptxsim_run_finish(r.d, k1, &a), 0);
    assert_int_equal(ptxsim_synchronize(r.d), PS_EFAULT);
    rig_close(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_overlap),
        cmocka_unit_test(test_one_slot),
        cmocka_unit_test(test_lone_matches_launch),
        cmocka_unit_test(test_fault_ends_all),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
