/*
 * Sampled simulation (-ptxsim_sample; timing/sample.c, timing/sample_run.c):
 * the option's parser, the convergence criterion, the confidence interval
 * and the extrapolation of counters, then a many-CTA kernel through the
 * public API: exact results, a `sampled` estimate with fewer timed CTAs,
 * close to the full run's cycles, the same for every thread count, a run
 * without the option identical to the default, and no sampling of kernels
 * that run beside another.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/config.h"
#include "runtime/ptxsim.h"
#include "timing/sample.h"

/* --------------------------------------------------------------- parsing */

static void test_spec(void **state)
{
    struct tm_sample_spec sp;
    struct ps_err err;

    (void)state;
    ps_err_clear(&err);
    assert_int_equal(tm_sample_spec_parse("off", &sp, &err), 0);
    assert_false(sp.on);
    assert_int_equal(tm_sample_spec_parse("", &sp, &err), 0);
    assert_false(sp.on);
    assert_int_equal(tm_sample_spec_parse("on", &sp, &err), 0);
    assert_true(sp.on);
    assert_int_equal(sp.k, 3);
    assert_int_equal(sp.window, 0);
    assert_true(fabs(sp.waves - 2) < 1e-12);
    assert_int_equal(
        tm_sample_spec_parse("on,window=40,k=5,tol=0.1,mtol=0.02,warmup=2,min_waves=3", &sp, &err),
        0);
    assert_true(sp.on);
    assert_int_equal(sp.window, 40);
    assert_int_equal(sp.k, 5);
    assert_int_equal(sp.warmup, 2);
    assert_true(fabs(sp.tol - 0.1) < 1e-12 && fabs(sp.mtol - 0.02) < 1e-12);
    assert_true(fabs(sp.min_waves - 3) < 1e-12);
    assert_int_equal(tm_sample_spec_parse("on,waves=2.5", &sp, &err), 0);
    assert_true(fabs(sp.waves - 2.5) < 1e-12);
    assert_int_equal(sp.window, 0);
    assert_int_equal(tm_sample_spec_parse("waves=0", &sp, &err), PS_EINVAL);
    assert_int_equal(sp.recheck, 0);
    assert_int_equal(tm_sample_spec_parse("on,recheck=4", &sp, &err), 0);
    assert_int_equal(sp.recheck, 4);
    assert_int_equal(tm_sample_spec_parse("recheck=-1", &sp, &err), PS_EINVAL);
    assert_int_equal(tm_sample_spec_parse("recheck=1.5", &sp, &err), PS_EINVAL);
    assert_int_equal(tm_sample_spec_parse("on", &sp, &err), 0);
    assert_int_equal(sp.reuse, 2);
    assert_int_equal(tm_sample_spec_parse("on,reuse=1", &sp, &err), 0);
    assert_int_equal(sp.reuse, 1);
    assert_int_equal(tm_sample_spec_parse("reuse=33", &sp, &err), PS_EINVAL);
    /* Bad values name the option and the item. */
    assert_int_equal(tm_sample_spec_parse("k=1", &sp, &err), PS_EINVAL);
    assert_non_null(strstr(err.msg, "-ptxsim_sample"));
    assert_non_null(strstr(err.msg, "k=1"));
    assert_false(sp.on);
    assert_int_equal(tm_sample_spec_parse("windows=3", &sp, &err), PS_EINVAL);
    assert_non_null(strstr(err.msg, "unknown key"));
    assert_int_equal(tm_sample_spec_parse("tol=abc", &sp, &err), PS_EINVAL);
    assert_int_equal(tm_sample_spec_parse("window=2.5", &sp, &err), PS_EINVAL);
    assert_int_equal(tm_sample_spec_parse("tol=0", &sp, &err), PS_EINVAL);
    assert_int_equal(tm_sample_spec_parse("maybe", &sp, &err), PS_EINVAL);
}

/* ------------------------------------------------------------- criterion */

static struct tm_sample_window win(uint64_t cycles, uint64_t insts, double l1, double l2)
{
    return (struct tm_sample_window){cycles, insts, l1, l2};
}

static void test_criterion(void **state)
{
    struct tm_sample_window w[3];

    (void)state;
    /* IPC 2.0, 2.04, 1.96: within 5% of the mean 2.0, not within 1%. */
    w[0] = win(1000, 2000, 0.5, 0.2);
    w[1] = win(1000, 2040, 0.5, 0.2);
    w[2] = win(1000, 1960, 0.5, 0.2);
    assert_true(tm_sample_converged(w, 3, 0.05, 0.05));
    assert_false(tm_sample_converged(w, 3, 0.01, 0.05));
    /* A miss rate off by 0.1 from the mean breaks it under mtol 0.05, not under 0.2. */
    w[2].l1d_miss = 0.65;
    assert_false(tm_sample_converged(w, 3, 0.05, 0.05));
    assert_true(tm_sample_converged(w, 3, 0.05, 0.2));
    w[2].l1d_miss = 0.5;
    w[1].l2_miss = 0.35;
    assert_false(tm_sample_converged(w, 3, 0.05, 0.05));
    w[1].l2_miss = 0.2;
    /* An empty window, or fewer than two, never converges. */
    w[1].cycles = 0;
    assert_false(tm_sample_converged(w, 3, 0.05, 0.05));
    assert_false(tm_sample_converged(w, 1, 0.05, 0.05));
    /* Idle windows (IPC 0) agree with each other. */
    w[0] = win(10, 0, 0, 0);
    w[1] = win(20, 0, 0, 0);
    assert_true(tm_sample_converged(w, 2, 0.05, 0.05));
}

static void test_interval(void **state)
{
    struct tm_sample_window w[3];

    (void)state;
    assert_true(fabs(tm_sample_t95(1) - 12.706) < 1e-9);
    assert_true(fabs(tm_sample_t95(2) - 4.303) < 1e-9);
    assert_true(fabs(tm_sample_t95(1000) - 1.96) < 1e-9);
    /* CPI 1, 2, 3: mean 2, sd 1, half-width t(2) / sqrt(3). */
    w[0] = win(100, 100, 0, 0);
    w[1] = win(200, 100, 0, 0);
    w[2] = win(300, 100, 0, 0);
    assert_true(fabs(tm_sample_cpi_half(w, 3) - 4.303 / sqrt(3.0)) < 1e-9);
    /* The same from sums (the re-checks' running figures): sum 6, squares 14. */
    assert_true(fabs(tm_sample_half_from_sums(3, 6, 14) - 4.303 / sqrt(3.0)) < 1e-9);
    assert_true(tm_sample_half_from_sums(1, 2, 4) == 0.0);
    assert_true(tm_sample_half_from_sums(2, 4, 8) == 0.0);
    /* Identical windows: no spread. */
    w[0] = w[1] = w[2] = win(150, 300, 0, 0);
    assert_true(tm_sample_cpi_half(w, 3) == 0.0);
    assert_true(tm_sample_cpi_half(w, 1) == 0.0);
}

/* --------------------------------------------------------- extrapolation */

static void test_extrapolate(void **state)
{
    struct tm_counters d, x;

    (void)state;
    /* 1000 thread instructions left at 500 cycles per 2000 instructions: 250 cycles. */
    assert_int_equal(tm_sample_extra_cycles(1000, 500, 2000), 250);
    assert_int_equal(tm_sample_extra_cycles(3, 2, 3), 2);
    assert_int_equal(tm_sample_extra_cycles(1000, 500, 0), 0);
    memset(&d, 0, sizeof(d));
    d.cycles = 100;
    d.dram_cycles = 50;
    d.thread_insts = 999;
    d.warp_insts = 33;
    d.ctas = 4;
    d.l1d.accesses = 40;
    d.l1d.hits = 3;
    d.mem.dram.reads = 10;
    d.mem.l2.accesses = 7;
    d.sm.lat_max = 900;
    d.sm.lat_hist[3] = 8;
    d.sm.cycles = 1500;
    tm_sample_extrapolate(&x, &d, 250);
    assert_int_equal(x.l1d.accesses, 100);
    assert_int_equal(x.l1d.hits, 8); /* 7.5 rounds to 8 */
    assert_int_equal(x.mem.dram.reads, 25);
    assert_int_equal(x.mem.l2.accesses, 18); /* 17.5 */
    assert_int_equal(x.sm.lat_hist[3], 20);
    assert_int_equal(x.sm.cycles, 3750);
    /* Not rates of work: left to the caller (clocks) or exact (instructions, CTAs). */
    assert_int_equal(x.cycles, 0);
    assert_int_equal(x.dram_cycles, 0);
    assert_int_equal(x.thread_insts, 0);
    assert_int_equal(x.warp_insts, 0);
    assert_int_equal(x.ctas, 0);
    assert_int_equal(x.sm.lat_max, 0);
    /* A window of no cycles extrapolates nothing. */
    d.cycles = 0;
    tm_sample_extrapolate(&x, &d, 250);
    assert_int_equal(x.l1d.accesses, 0);
}

static void test_sampled_add(void **state)
{
    struct tm_sampled a = {0}, b = {0}, t = {0};

    (void)state;
    a.kernels = 1;
    a.detailed_ctas = 10;
    a.functional_ctas = 90;
    a.ci_half = 3;
    a.ipc_mean = a.ipc_min = a.ipc_max = 2;
    b = a;
    b.ci_half = 4;
    b.ipc_mean = b.ipc_min = b.ipc_max = 4;
    tm_sampled_add(&t, &(struct tm_sampled){0}); /* a full kernel adds nothing */
    assert_int_equal(t.kernels, 0);
    tm_sampled_add(&t, &a);
    tm_sampled_add(&t, &b);
    assert_int_equal(t.kernels, 2);
    assert_int_equal(t.functional_ctas, 180);
    assert_true(fabs(t.ci_half - 5) < 1e-12); /* in quadrature */
    assert_true(fabs(t.ipc_mean - 3) < 1e-12);
    assert_true(t.ipc_min == 2 && t.ipc_max == 4);
}

/* ------------------------------------------------- a kernel on the machine */

/* out[tid] = iterate(tid * 3 + seed, n) for the grid's threads. */
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
#define CTAS 720u /* 6 waves of 8 CTAs on 15 SMs */
#define ITERS 40u
#define SEED 7u

static uint32_t want(uint32_t tid)
{
    uint32_t x = tid * 3 + SEED;

    for (uint32_t i = 0; i < ITERS; i++)
        x = x * 1664525u + 1013904223u;
    return x;
}

/*
 * Launches spin over CTAS CTAs n times on one device with the given
 * overrides; checks every output; st[i] gets launch i's statistics.
 */
static void run_spin_n(const char *overrides, struct tm_stats *st, int n)
{
    struct ps_config cfg;
    struct ptxsim_options o;
    struct ptxsim_device *d;
    struct ptxsim_module *m;
    struct ps_err err;
    uint64_t out;
    uint32_t seed = SEED, iters = ITERS, *got = malloc(THREADS * CTAS * 4);
    void *args[3] = {&out, &seed, &iters};

    assert_non_null(got);
    ps_err_clear(&err);
    assert_int_equal(ptxsim_config_build("gtx480", overrides, &cfg, &err), 0);
    ptxsim_options_default(&o);
    o.timing = &cfg;
    assert_int_equal(ptxsim_device_create(&o, &d), 0);
    assert_int_equal(ptxsim_module_load(d, spin_ptx, 0, "spin.ptx", &m), 0);
    assert_int_equal(ptxsim_malloc(d, THREADS * CTAS * 4, &out), 0);
    for (int i = 0; i < n; i++) {
        assert_int_equal(ptxsim_launch(m, "spin", (struct ptxsim_dim3){CTAS, 1, 1},
                                       (struct ptxsim_dim3){THREADS, 1, 1}, 0, args),
                         0);
        st[i] = *ptxsim_timing_last(d);
        assert_int_equal(ptxsim_memcpy_dtoh(d, got, out, THREADS * CTAS * 4), 0);
        for (uint32_t t = 0; t < THREADS * CTAS; t++)
            assert_int_equal(got[t], want(t));
    }
    free(got);
    ptxsim_module_unload(m);
    ptxsim_device_destroy(d);
    ps_config_free(&cfg);
}

static void run_spin(const char *overrides, struct tm_stats *st)
{
    run_spin_n(overrides, st, 1);
}

#define SPEC "ptxsim_sample=window=40,k=3,tol=0.1,mtol=0.1\n"

static void test_machine(void **state)
{
    struct tm_stats full, off, s1, s2;
    const struct tm_sampled *r = &s1.sampled;
    double est, err;

    (void)state;
    run_spin(NULL, &full);
    run_spin("ptxsim_sample=off\n", &off);
    assert_int_equal(off.sampled.kernels, 0);
    assert_int_equal(memcmp(&off.c, &full.c, sizeof(off.c)), 0);
    run_spin(SPEC "ptxsim_threads=1\n", &s1);
    run_spin(SPEC "ptxsim_threads=2\n", &s2);
    assert_int_equal(r->kernels, 1);
    assert_true(r->detailed_ctas > 0 && r->detailed_ctas < CTAS);
    assert_int_equal(r->detailed_ctas + r->functional_ctas, CTAS);
    assert_int_equal(s1.c.ctas, CTAS);
    /* Instructions are exact; the cycles are the estimate. */
    assert_int_equal(s1.c.thread_insts, full.c.thread_insts);
    assert_int_equal(s1.c.warp_insts, full.c.warp_insts);
    assert_int_equal(r->detailed_insts + r->functional_insts, full.c.thread_insts);
    assert_int_equal(s1.c.cycles, r->detailed_cycles + r->extra_cycles);
    est = (double)s1.c.cycles;
    err = fabs(est / (double)full.c.cycles - 1);
    print_message("sampled: %llu of %u CTAs timed, %llu cycles (95%% CI +-%.0f) vs %llu full\n",
                  (unsigned long long)r->detailed_ctas, CTAS, (unsigned long long)s1.c.cycles,
                  r->ci_half, (unsigned long long)full.c.cycles);
    assert_true(err < 0.05);
    assert_true(r->ci_half >= 0);
    /* The same for every thread count. */
    assert_int_equal(memcmp(&s1.c, &s2.c, sizeof(s1.c)), 0);
    assert_int_equal(memcmp(&s1.sampled, &s2.sampled, sizeof(s1.sampled)), 0);
    /* Below min_waves waves nothing is sampled. */
    run_spin("ptxsim_sample=window=40,min_waves=10\n", &s2);
    assert_int_equal(s2.sampled.kernels, 0);
    assert_int_equal(s2.c.cycles, full.c.cycles);
    /* Nor when warm-up, k windows, one more and a wave in flight cannot fit
     * (5 x 150 + 120 CTAs > 720): the statistics are the full run's. */
    run_spin("ptxsim_sample=window=150,tol=0.5,mtol=1\n", &s2);
    assert_int_equal(s2.sampled.kernels, 0);
    assert_int_equal(s2.c.cycles, full.c.cycles);
    /* 5 x 100 CTAs plus the 120 in flight fit: with loose tolerances it is sampled. */
    run_spin("ptxsim_sample=window=100,tol=0.5,mtol=1\n", &s2);
    assert_int_equal(s2.sampled.kernels, 1);
}

/*
 * Reuse: the second launch of the kernel converges as soon as its own first
 * reuse (default 2) windows agree with the first launch's last one, so it
 * times fewer CTAs; with reuse=0 both launches time about the same number
 * (within a window: the second starts its CTAs on other SMs, after the SM
 * that took the first launch's last CTA, and with warm constant caches).
 * (Miss rates are not compared: the first launch's stores miss in the L2,
 * the second's hit.)
 */
static void test_reuse(void **state)
{
    struct tm_stats on[2], off[2];

    (void)state;
    run_spin_n("ptxsim_sample=window=40,k=3,tol=0.1,mtol=1\n", on, 2);
    run_spin_n("ptxsim_sample=window=40,k=3,tol=0.1,mtol=1,reuse=0\n", off, 2);
    assert_int_equal(on[0].sampled.kernels, 1);
    assert_int_equal(on[1].sampled.kernels, 1);
    assert_int_equal(off[1].sampled.kernels, 1);
    assert_int_equal(on[0].sampled.detailed_ctas, off[0].sampled.detailed_ctas);
    assert_true(off[1].sampled.detailed_ctas + 40 >= off[0].sampled.detailed_ctas &&
                off[1].sampled.detailed_ctas <= off[0].sampled.detailed_ctas + 40);
    print_message("reuse: %llu then %llu CTAs timed, windows %llu then %llu\n",
                  (unsigned long long)on[0].sampled.detailed_ctas,
                  (unsigned long long)on[1].sampled.detailed_ctas,
                  (unsigned long long)on[0].sampled.windows,
                  (unsigned long long)on[1].sampled.windows);
    assert_true(on[1].sampled.detailed_ctas < on[0].sampled.detailed_ctas);
    assert_true(on[1].sampled.detailed_ctas < off[1].sampled.detailed_ctas);
    assert_true(on[1].sampled.windows < on[0].sampled.windows);
    assert_int_equal(on[1].c.thread_insts, on[0].c.thread_insts);
    assert_int_equal(on[1].sampled.detailed_ctas + on[1].sampled.functional_ctas, CTAS);
    assert_true(fabs((double)on[1].c.cycles / (double)off[1].c.cycles - 1) < 0.05);
}

/*
 * Re-checks: after convergence the CTAs run functionally in stretches of two
 * windows, each followed by a detailed window. Results stay exact, more CTAs
 * are timed than without, every CTA is counted once, and the figures are
 * the same for every thread count.
 */
static void test_recheck(void **state)
{
    struct tm_stats full, once, s1, s2;
    const struct tm_sampled *r = &s1.sampled;

    (void)state;
    run_spin(NULL, &full);
    run_spin(SPEC, &once);
    run_spin(SPEC "ptxsim_sample=window=40,k=3,tol=0.1,mtol=0.1,recheck=2\nptxsim_threads=1\n",
             &s1);
    run_spin(SPEC "ptxsim_sample=window=40,k=3,tol=0.1,mtol=0.1,recheck=2\nptxsim_threads=2\n",
             &s2);
    assert_int_equal(r->kernels, 1);
    assert_true(r->detailed_ctas > once.sampled.detailed_ctas);
    assert_true(r->functional_ctas > 0);
    assert_int_equal(r->detailed_ctas + r->functional_ctas, CTAS);
    assert_true(r->windows > once.sampled.windows);
    assert_int_equal(s1.c.ctas, CTAS);
    assert_int_equal(s1.c.thread_insts, full.c.thread_insts);
    assert_int_equal(r->detailed_insts + r->functional_insts, full.c.thread_insts);
    assert_int_equal(s1.c.cycles, r->detailed_cycles + r->extra_cycles);
    print_message("recheck: %llu of %u CTAs timed, %llu cycles vs %llu full\n",
                  (unsigned long long)r->detailed_ctas, CTAS, (unsigned long long)s1.c.cycles,
                  (unsigned long long)full.c.cycles);
    assert_true(fabs((double)s1.c.cycles / (double)full.c.cycles - 1) < 0.05);
    assert_int_equal(memcmp(&s1.c, &s2.c, sizeof(s1.c)), 0);
    assert_int_equal(memcmp(&s1.sampled, &s2.sampled, sizeof(s1.sampled)), 0);
}

/*
 * Two kernels in flight together: the first is not sampled (the clock cannot jump for one
 * kernel while another runs); both compute exact results.
 */
static void test_concurrent(void **state)
{
    struct ps_config cfg;
    struct ptxsim_options o;
    struct ptxsim_device *d;
    struct ptxsim_module *m;
    struct ptxsim_run *run[2];
    struct tm_stats st;
    struct ps_err err;
    uint64_t out[2], first_end = 0;
    uint32_t seed = SEED, n = ITERS, *got = malloc(THREADS * CTAS * 4);

    (void)state;
    assert_non_null(got);
    ps_err_clear(&err);
    assert_int_equal(ptxsim_config_build("gtx480", SPEC, &cfg, &err), 0);
    ptxsim_options_default(&o);
    o.timing = &cfg;
    assert_int_equal(ptxsim_device_create(&o, &d), 0);
    assert_int_equal(ptxsim_module_load(d, spin_ptx, 0, "spin.ptx", &m), 0);
    for (int i = 0; i < 2; i++) {
        void *args[3] = {&out[i], &seed, &n}, *params;
        uint32_t bytes;

        assert_int_equal(ptxsim_malloc(d, THREADS * CTAS * 4, &out[i]), 0);
        assert_int_equal(ptxsim_pack_params(m, "spin", args, &params, &bytes), 0);
        assert_int_equal(ptxsim_launch_start(m, "spin", (struct ptxsim_dim3){CTAS, 1, 1},
                                             (struct ptxsim_dim3){THREADS, 1, 1}, 0, params, bytes,
                                             &run[i]),
                         0);
        free(params);
    }
    for (int i = 0; i < 2; i++) {
        ptxsim_run_wait(d, run[i]);
        assert_int_equal(ptxsim_run_finish(d, run[i], &st), 0);
        /* The first ran beside the second; the second was alone after the first ended, and
         * only its windows from then count. */
        if (i == 0) {
            assert_int_equal(st.sampled.kernels, 0);
            first_end = st.end_cycle;
        } else if (st.sampled.kernels) {
            assert_true(st.start_cycle + st.sampled.converged_cycle > first_end);
        }
        assert_int_equal(st.c.ctas, CTAS);
        assert_int_equal(ptxsim_memcpy_dtoh(d, got, out[i], THREADS * CTAS * 4), 0);
        for (uint32_t t = 0; t < THREADS * CTAS; t++)
            assert_int_equal(got[t], want(t));
    }
    free(got);
    ptxsim_module_unload(m);
    ptxsim_device_destroy(d);
    ps_config_free(&cfg);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spec),        cmocka_unit_test(test_criterion),
        cmocka_unit_test(test_interval),    cmocka_unit_test(test_extrapolate),
        cmocka_unit_test(test_sampled_add), cmocka_unit_test(test_machine),
        cmocka_unit_test(test_concurrent),  cmocka_unit_test(test_recheck),
        cmocka_unit_test(test_reuse),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
