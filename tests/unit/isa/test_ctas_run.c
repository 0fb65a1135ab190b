/*
 * isa_ctas_run (isa/warp.h): CTAs run functionally with a wave of them
 * resident at once, as the sampled simulation runs the CTAs it does not
 * time. Every CTA runs once; CTAs resident together see each other's
 * progress as on a GPU (one after the other, each would see all of the
 * earlier ones' stores); a fault stops the run and frees every CTA.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "common/err.h"
#include "frontend/ptx_parse.h"
#include "isa/devmem.h"
#include "isa/engine.h"
#include "isa/module.h"
#include "isa/warp.h"

/*
 * One warp per CTA. CTA 0 counts to 200 and then sets p[0] = 1; every CTA
 * then writes the p[0] it reads to p[1 + its index].
 */
static const char ptx[] = ".version 8.0\n.target sm_80\n.address_size 64\n"
                          ".visible .entry k(.param .u64 p)\n"
                          "{\n"
                          ".reg .b32 %r<6>;\n.reg .b64 %rd<4>;\n.reg .pred %p<3>;\n"
                          "ld.param.u64 %rd1, [p];\n"
                          "mov.u32 %r1, %ctaid.x;\n"
                          "setp.ne.u32 %p1, %r1, 0;\n"
                          "@%p1 bra READ;\n"
                          "mov.u32 %r2, 0;\n"
                          "LOOP:\n"
                          "add.u32 %r2, %r2, 1;\n"
                          "setp.lt.u32 %p2, %r2, 200;\n"
                          "@%p2 bra LOOP;\n"
                          "mov.u32 %r3, 1;\n"
                          "st.global.u32 [%rd1], %r3;\n"
                          "READ:\n"
                          "ld.global.u32 %r4, [%rd1];\n"
                          "mul.wide.u32 %rd2, %r1, 4;\n"
                          "add.u64 %rd3, %rd1, %rd2;\n"
                          "st.global.u32 [%rd3+4], %r4;\n"
                          "ret;\n"
                          "}\n";

#define NCTAS 6

struct fx {
    struct isa_device *d;
    struct isa_program *p;
    struct isa_launch L;
    struct ps_err err;
    uint64_t buf;
};

/* A launch of NCTAS CTAs over a buffer of 1 + NCTAS words, all 7 but p[0] = 0 (p = 0: null). */
static void fx_open(struct fx *f, bool null)
{
    struct isa_module *m;
    struct isa_launch_desc ld = {0};
    uint32_t v[1 + NCTAS];
    uint64_t arg;
    void *args[1] = {&arg};

    memset(f, 0, sizeof(*f));
    for (uint32_t i = 0; i < 1 + NCTAS; i++)
        v[i] = i ? 7 : 0;
    f->d = isa_device_create(NULL);
    assert_non_null(f->d);
    m = ptx_parse(ptx, strlen(ptx), "k.ptx", &f->err);
    assert_non_null(m);
    assert_int_equal(isa_program_load(f->d, m, &f->p, &f->err), 0);
    assert_int_equal(
        isa_devmem_alloc(isa_device_mem(f->d), sizeof(v), 256, ISA_ALLOC_DEVICE, &f->buf), 0);
    assert_int_equal(isa_devmem_write(isa_device_mem(f->d), f->buf, v, sizeof(v), &f->err), 0);
    arg = null ? 0 : f->buf;
    ld.kernel = isa_program_find_kernel(f->p, "k");
    ld.grid[0] = NCTAS;
    ld.grid[1] = ld.grid[2] = 1;
    ld.block[0] = 32, ld.block[1] = ld.block[2] = 1;
    ld.args = args;
    assert_int_equal(isa_launch_init(&f->L, f->p, &ld, &f->err), 0);
}

static void fx_close(struct fx *f)
{
    isa_launch_fini(&f->L);
    isa_program_unload(f->p);
    isa_device_destroy(f->d);
}

static void seen(struct fx *f, uint32_t *out)
{
    uint32_t v[1 + NCTAS];

    assert_int_equal(isa_devmem_read(isa_device_mem(f->d), f->buf, v, sizeof(v), &f->err), 0);
    memcpy(out, v + 1, NCTAS * sizeof(*out));
}

/* One at a time: every CTA after CTA 0 sees its store. */
static void test_one_resident_is_in_order(void **state)
{
    struct fx f;
    uint32_t out[NCTAS];

    (void)state;
    fx_open(&f, false);
    assert_int_equal(isa_ctas_run(&f.L, 0, NCTAS, 1, 0, 0), 0);
    seen(&f, out);
    for (uint32_t i = 0; i < NCTAS; i++)
        assert_int_equal(out[i], 1);
    fx_close(&f);
}

/*
 * Four resident: CTAs 1-3 run beside CTA 0 and finish before its loop ends,
 * and so do CTAs 4 and 5, which take the places of 1 and 2: none sees the
 * store. Each CTA runs once, and the instruction counts are those of the
 * same CTAs run one at a time.
 */
static void test_resident_ctas_interleave(void **state)
{
    struct fx f;
    uint32_t out[NCTAS];
    uint64_t one_by_one;

    (void)state;
    fx_open(&f, false);
    assert_int_equal(isa_ctas_run(&f.L, 0, NCTAS, 1, 0, 0), 0);
    one_by_one = f.L.thread_insts;
    fx_close(&f);
    fx_open(&f, false);
    assert_int_equal(isa_ctas_run(&f.L, 0, NCTAS, 4, 0, 0), 0);
    seen(&f, out);
    assert_int_equal(out[0], 1);
    for (uint32_t i = 1; i < NCTAS; i++)
        assert_int_equal(out[i], 0);
    assert_int_equal(f.L.thread_insts, one_by_one);
    fx_close(&f);
}

/* A range runs only its own CTAs; more resident places than CTAs is fine. */
static void test_range_runs_only_its_ctas(void **state)
{
    struct fx f;
    uint32_t out[NCTAS];

    (void)state;
    fx_open(&f, false);
    assert_int_equal(isa_ctas_run(&f.L, 2, 5, 64, 0, 0), 0);
    assert_int_equal(isa_ctas_run(&f.L, 5, 5, 64, 0, 0), 0);
    seen(&f, out);
    assert_int_equal(out[0], 7);
    assert_int_equal(out[1], 7);
    for (uint32_t i = 2; i < 5; i++)
        assert_int_equal(out[i], 0);
    assert_int_equal(out[5], 7);
    fx_close(&f);
}

/* A null pointer: the run stops with the first fault, its CTAs freed (ASan checks). */
static void test_fault_stops_the_run(void **state)
{
    struct fx f;

    (void)state;
    fx_open(&f, true);
    assert_int_equal(isa_ctas_run(&f.L, 0, NCTAS, 2, 0, 0), PS_EFAULT);
    assert_non_null(strstr(f.L.err->msg, "null or invalid"));
    fx_close(&f);
}

/* The warp-instruction budget is checked across the resident CTAs. */
static void test_budget_is_a_runaway_fault(void **state)
{
    struct fx f;

    (void)state;
    fx_open(&f, false);
    assert_int_equal(isa_ctas_run(&f.L, 0, NCTAS, 3, 100, 0), PS_ERUNAWAY);
    fx_close(&f);
}

/* Whether a one-instruction kernel body makes its CTAs interact. */
static bool interacts(const char *body)
{
    char text[1024];
    struct ps_err err;
    struct isa_module *m;
    bool r;

    snprintf(text, sizeof(text),
             ".version 8.0\n.target sm_80\n.address_size 64\n"
             ".visible .entry k(.param .u64 p)\n{\n"
             ".reg .b32 %%r<4>;\n.reg .b64 %%rd<4>;\n"
             "ld.param.u64 %%rd1, [p];\n%s\nret;\n}\n",
             body);
    m = ptx_parse(text, strlen(text), "k.ptx", &err);
    assert_non_null(m);
    r = isa_func_ctas_interact(m->funcs[isa_module_find_func(m, "k")]);
    isa_module_destroy(m);
    return r;
}

/* What makes CTAs see each other's progress, and what does not. */
static void test_interact(void **state)
{
    (void)state;
    assert_false(interacts("ld.global.u32 %r1, [%rd1];\nst.global.u32 [%rd1+4], %r1;"));
    assert_false(interacts("atom.shared.add.u32 %r1, [%rd1], 1;"));
    assert_false(interacts("ld.global.nc.u32 %r1, [%rd1];"));
    assert_true(interacts("atom.global.add.u32 %r1, [%rd1], 1;"));
    assert_true(interacts("atom.add.u32 %r1, [%rd1], 1;"));
    assert_true(interacts("red.global.min.s32 [%rd1], 1;"));
    assert_true(interacts("ld.volatile.global.u32 %r1, [%rd1];"));
    assert_true(interacts("ld.relaxed.gpu.global.u32 %r1, [%rd1];"));
    assert_true(interacts("st.release.gpu.global.u32 [%rd1], %r1;"));
    assert_true(interacts("membar.gl;"));
    assert_true(interacts("fence.acq_rel.gpu;"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_resident_is_in_order),
        cmocka_unit_test(test_resident_ctas_interleave),
        cmocka_unit_test(test_range_runs_only_its_ctas),
        cmocka_unit_test(test_fault_stops_the_run),
        cmocka_unit_test(test_budget_is_a_runaway_fault),
        cmocka_unit_test(test_interact),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
