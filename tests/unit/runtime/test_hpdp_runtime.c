/*
 * Unit tests for HeteroPDP's runtime pieces: the GPU instruction taxonomy
 * from PTX (runtime/hpdp_features.h), the factor vectors of the four models,
 * the modelled transfer time, the model and Bubble-up files
 * (runtime/hpdp_models.h, a bit-identical round trip), the Bubble-up
 * curves per co-runner class and the kernel's pressure on each device, and the co-runner
 * telemetry (runtime/hpdp_telemetry.h); the perf-counter test skips where
 * the machine has no usable PMU.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "common/err.h"
#include "runtime/hpdp_features.h"
#include "runtime/hpdp_models.h"
#include "runtime/hpdp_telemetry.h"

static const char ptx[] =
    ".version 6.0\n.target sm_20\n.address_size 64\n"
    ".visible .entry k(.param .u64 p, .param .f32 x)\n{\n"
    "  .reg .b32 %r<4>; .reg .f32 %f<4>; .reg .b64 %rd<3>; .reg .pred %p<2>;\n"
    "  ld.param.u64 %rd1, [p];\n  ld.param.f32 %f1, [x];\n"
    "  mov.u32 %r1, %tid.x;\n  add.s32 %r2, %r1, 1;\n  setp.lt.s32 %p1, %r2, 4;\n"
    "  @%p1 bra L1;\n  mul.f32 %f2, %f1, %f1;\n  sin.approx.f32 %f3, %f2;\n"
    "  st.global.f32 [%rd1], %f3;\nL1:\n  bar.sync 0;\n  ret;\n}\n"
    ".visible .entry loop()\n{\n  .reg .b32 %r<3>; .reg .pred %p<2>;\n  mov.u32 %r1, 0;\n"
    "LOOP:\n  add.s32 %r1, %r1, 1;\n  setp.lt.s32 %p1, %r1, 100;\n  @%p1 bra LOOP;\n  ret;\n}\n";

static void test_gpu_counts(void **state)
{
    double g[RT_HPDP_G_N];
    struct ps_err err;

    (void)state;
    memset(&err, 0, sizeof(err));
    assert_int_equal(rt_hpdp_gpu_counts(ptx, "k", g, &err), 0);
    assert_true(g[RT_HPDP_G_MEM] == 3);     /* two ld.param, one st.global */
    assert_true(g[RT_HPDP_G_INT] == 3);     /* mov, add, setp.s32 */
    assert_true(g[RT_HPDP_G_FP] == 1);      /* mul.f32 */
    assert_true(g[RT_HPDP_G_SFU] == 1);     /* sin */
    assert_true(g[RT_HPDP_G_BRANCH] == 2);  /* bra, ret */
    assert_true(g[RT_HPDP_G_BARRIER] == 1); /* bar.sync */
    /* a loop's body counts once per trip: the setp's immediate bound, 100 */
    assert_int_equal(rt_hpdp_gpu_counts(ptx, "loop", g, &err), 0);
    assert_true(g[RT_HPDP_G_INT] == 1 + 100 + 100); /* mov; add and setp in the loop */
    assert_true(g[RT_HPDP_G_BRANCH] == 100 + 1);    /* the bra in the loop; ret */
    assert_int_equal(rt_hpdp_gpu_counts(ptx, "nope", g, &err), PS_ENOTFOUND);
    assert_int_equal(rt_hpdp_gpu_counts("not ptx", "k", g, &err), PS_EPARSE);
}

static void test_factors_and_xfer(void **state)
{
    const double c[RT_HPDP_C_N] = {1, 2, 3, 4, 5, 6}, g[RT_HPDP_G_N] = {1, 2, 3, 4, 5, 6};
    const struct rt_hpdp_dyn d = {.threads = 100, .buffer_bytes = 4096, .transfer_bytes = 1e9};
    const struct rt_hpdp_sys s = {.llc_mps = 7, .dram_gbs = 9};
    double f[16];

    (void)state;
    assert_int_equal(rt_hpdp_cpu_factors(c, &d, NULL, f), 8);
    assert_true(f[0] == 100 && f[1] == 1 && f[6] == 6 && f[7] == 4096);
    assert_int_equal(rt_hpdp_cpu_factors(c, &d, &s, f), 10);
    assert_true(f[8] == 7 && f[9] == 9);
    assert_int_equal(rt_hpdp_gpu_factors(g, &d, NULL, f), 8);
    assert_int_equal(rt_hpdp_gpu_factors(g, &d, &s, f), 9);
    assert_true(f[8] == 9);                   /* DRAM bandwidth only */
    for (int w = 0; w < RT_HPDP_NMODELS; w++) /* the files' factor counts agree */
        assert_int_equal(rt_hpdp_model_factors((enum rt_hpdp_which)w), w == 0 || w == 1 ? 8
                                                                       : w == 2         ? 10
                                                                                        : 9);
    /* PCIe-bound alone; host-bound when co-runners leave less than the link */
    assert_true(fabs(rt_hpdp_xfer_s(1e9, 16, 22, 0) - 1.0 / 16) < 1e-12);
    assert_true(fabs(rt_hpdp_xfer_s(1e9, 16, 22, 18) - 1.0 / 4) < 1e-12);
    assert_true(fabs(rt_hpdp_xfer_s(1e9, 16, 22, 30) - 1.0 / 1.1) < 1e-12); /* 5% floor */
    assert_true(rt_hpdp_xfer_s(1e9, 16, 22, 0) <= rt_hpdp_xfer_s(1e9, 16, 22, 10));
}

static void test_models_roundtrip(void **state)
{
    char dir[] = "/tmp/ptxsim-hpdp-XXXXXX", path[256];
    struct rt_hpdp_models a, b;
    struct ps_err err;
    FILE *f;

    (void)state;
    memset(&a, 0, sizeof(a));
    assert_non_null(mkdtemp(dir));
    for (int w = 0; w < RT_HPDP_NMODELS; w++) {
        a.have[w] = true;
        a.m[w].nf = rt_hpdp_model_factors((enum rt_hpdp_which)w);
        for (uint32_t t = 0; t < hpdp_term_count(a.m[w].nf); t++)
            a.m[w].coef[t] = (t + 1) * 1.0 / 3.0 * (w + 1) * (t % 2 ? -1e-9 : 1e3);
    }
    assert_int_equal(hpdp_bubble_add(&a.llc, 2, 1.25), 0);
    assert_int_equal(hpdp_bubble_add(&a.dram, 4, 1.5), 0);
    snprintf(path, sizeof(path), "%s/models.txt", dir);
    assert_non_null(f = fopen(path, "w"));
    assert_int_equal(rt_hpdp_models_write(f, &a), 0);
    fclose(f);
    snprintf(path, sizeof(path), "%s/bubble.txt", dir);
    assert_non_null(f = fopen(path, "w"));
    assert_int_equal(rt_hpdp_bubble_write(f, &a), 0);
    fclose(f);
    memset(&err, 0, sizeof(err));
    assert_int_equal(rt_hpdp_models_load(dir, &b, &err), 0);
    assert_memory_equal(a.m, b.m, sizeof(a.m));
    assert_memory_equal(&a.llc, &b.llc, sizeof(a.llc));
    assert_memory_equal(&a.dram, &b.dram, sizeof(a.dram));
    /* a wrong term order is refused with the line */
    snprintf(path, sizeof(path), "%s/models.txt", dir);
    assert_non_null(f = fopen(path, "w"));
    fprintf(f, "model cpu_alone 8\nterm 1 1 2.0\n");
    fclose(f);
    assert_int_equal(rt_hpdp_models_load(dir, &b, &err), PS_EPARSE);
    assert_non_null(strstr(err.msg, "models.txt:2"));
    unlink(path);
    snprintf(path, sizeof(path), "%s/bubble.txt", dir);
    unlink(path);
    rmdir(dir);
}

/* Per-class curves: a class's own where bubble.txt has them, else the shared ones. */
static void test_class_curves(void **state)
{
    char dir[] = "/tmp/ptxsim-hpdp-XXXXXX", path[256];
    const char cls[2][16] = {"mem", "compute"};
    struct rt_hpdp_dyn d = {.threads = 4, .buffer_bytes = 4e6, .transfer_bytes = 2e9};
    struct rt_hpdp_press p = {.lanes = 8, .llc_mb = 8, .pcie_gbs = 16};
    struct rt_hpdp_models a, b;
    const struct hpdp_bubble *llc, *dram;
    double sd[2][HPDP_MAX_CORUNNERS], lp, dp;
    struct ps_err err;
    FILE *f;

    (void)state;
    memset(&err, 0, sizeof(err));
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof(path), "%s/models.txt", dir);
    assert_non_null(f = fopen(path, "w"));
    fprintf(f, "# ptxsim-heteropdp-models 1\n");
    fclose(f);
    snprintf(path, sizeof(path), "%s/bubble.txt", dir);
    assert_non_null(f = fopen(path, "w"));
    fprintf(f, "# ptxsim-heteropdp-bubble 1\nllc 4 2\ndram 1 1.5\nllc 4 3 mem\nllc 8 5 mem\n");
    fclose(f);
    assert_int_equal(rt_hpdp_models_load(dir, &a, &err), 0);
    assert_int_equal(a.ncls, 1);
    rt_hpdp_curves(&a, "mem", &llc, &dram);
    assert_ptr_equal(llc, &a.cls[0].llc);
    assert_ptr_equal(dram, &a.dram); /* mem has no DRAM curve of its own */
    rt_hpdp_curves(&a, "compute", &llc, &dram);
    assert_ptr_equal(llc, &a.llc);
    /* 4 threads of 8 lanes keep half of 4 MB live; 2 GB in 1 s is 2 GB/s, in 10 ms the link's 16 */
    rt_hpdp_pressure(&d, 1.0, &p, &lp, &dp);
    assert_true(fabs(lp - 2.0) < 1e-12 && fabs(dp - 2.0) < 1e-12);
    rt_hpdp_pressure(&d, 0.01, &p, &lp, &dp);
    assert_true(fabs(dp - 16.0) < 1e-12);
    rt_hpdp_corunner_slowdowns(&a, &d, 1.0, &p, 2, cls, sd);
    assert_true(fabs(sd[HPDP_CPU][0] - 2.0) < 1e-12); /* mem: 1 + (3 - 1) * 2 / 4 */
    assert_true(fabs(sd[HPDP_CPU][1] - 1.5) < 1e-12); /* shared: 1 + (2 - 1) * 2 / 4 */
    assert_true(fabs(sd[HPDP_GPU][0] - 1.5) < 1e-12); /* shared DRAM curve held beyond 1 */
    /* written and read back bit-identically, classes included */
    assert_non_null(f = fopen(path, "w"));
    assert_int_equal(rt_hpdp_bubble_write(f, &a), 0);
    fclose(f);
    assert_int_equal(rt_hpdp_models_load(dir, &b, &err), 0);
    assert_int_equal(b.ncls, 1);
    assert_memory_equal(&a.cls[0], &b.cls[0], sizeof(a.cls[0]));
    /* a class curve must increase too */
    assert_non_null(f = fopen(path, "w"));
    fprintf(f, "llc 4 3 mem\nllc 2 5 mem\n");
    fclose(f);
    assert_int_equal(rt_hpdp_models_load(dir, &b, &err), PS_EPARSE);
    assert_non_null(strstr(err.msg, "bubble.txt:2"));
    unlink(path);
    snprintf(path, sizeof(path), "%s/models.txt", dir);
    unlink(path);
    rmdir(dir);
}

static void test_telemetry(void **state)
{
    char dir[] = "/tmp/ptxsim-hpdp-XXXXXX", path[256];
    struct rt_hpdp_telemetry t;
    struct ps_err err;
    FILE *f;

    (void)state;
    memset(&err, 0, sizeof(err));
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof(path), "%s/%d.corunner", dir, (int)getpid());
    assert_non_null(f = fopen(path, "w"));
    fprintf(f, "corunner-mem mem 2 3.5 40\n");
    fclose(f);
    snprintf(path, sizeof(path), "%s/999999999.corunner", dir); /* no such process: skipped */
    assert_non_null(f = fopen(path, "w"));
    fprintf(f, "gone mem 1 100 100\n");
    fclose(f);
    assert_int_equal(rt_hpdp_telemetry_read(dir, &t, &err), 0);
    assert_int_equal(t.n, 1);
    assert_true(t.co[0].weight == 2 && t.sum.dram_gbs == 3.5 && t.sum.llc_mps == 40);
    unlink(path);
    snprintf(path, sizeof(path), "%s/%d.corunner", dir, (int)getpid());
    unlink(path);
    rmdir(dir);
    assert_int_equal(rt_hpdp_telemetry_read(dir, &t, &err), PS_EIO);
}

/* Needs a hardware PMU the process may use; skips cleanly otherwise. */
static void test_perf_llc(void **state)
{
    struct ps_err err;
    double mps = -1;
    int rc;

    (void)state;
    memset(&err, 0, sizeof(err));
    rc = rt_hpdp_perf_llc(getpid(), 20, &mps, &err);
    if (rc == PS_ENOTSUP) {
        fprintf(stderr, "perf LLC counter not available (%s): skipped\n", err.msg);
        skip();
    }
    assert_int_equal(rc, 0);
    assert_true(mps >= 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gpu_counts),       cmocka_unit_test(test_factors_and_xfer),
        cmocka_unit_test(test_models_roundtrip), cmocka_unit_test(test_class_curves),
        cmocka_unit_test(test_telemetry),        cmocka_unit_test(test_perf_llc),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
