/*
 * isa_warp_step_plain and isa_warp_reload (isa/warp.h): the engine's step
 * for a global load that only reads inside allocations, which the timing
 * model's parallel part runs, and the re-read the ordered part asks for when
 * an earlier SM wrote meanwhile. A step it refuses must change nothing
 * (registers, pc, instruction counts, the out-of-allocation count); a reload
 * must see memory as it is now, and fault at the load's own line when the
 * allocation has gone.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "common/err.h"
#include "frontend/ptx_parse.h"
#include "isa/devmem.h"
#include "isa/engine.h"
#include "isa/warp.h"

/* One warp: v = *p; p[1] = v + 1; the load is on line 9. */
static const char ptx[] = ".version 8.0\n.target sm_80\n.address_size 64\n"
                          ".visible .entry k(.param .u64 p)\n"
                          "{\n"
                          ".reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n"
                          "ld.param.u64 %rd1, [p];\n"
                          "ld.global.u32 %r1, [%rd1];\n"
                          "add.u32 %r2, %r1, 1;\n"
                          "st.global.u32 [%rd1+4], %r2;\n"
                          "ret;\n"
                          "}\n";
#define LOAD_LINE 9

struct fx {
    struct isa_device *d;
    struct isa_program *p;
    struct isa_launch L;
    struct isa_cta c;
    struct ps_err err;
    uint64_t buf; /* 8 bytes: the value read, then the value written */
};

/* Launches one 32-thread CTA of k with p = base + off (base: a fresh 8-byte allocation). */
static void fx_open(struct fx *f, uint64_t off)
{
    struct isa_module *m;
    struct isa_launch_desc ld = {0};
    uint32_t v[2] = {41, 0};
    uint64_t arg;
    void *args[1] = {&arg};

    memset(f, 0, sizeof(*f));
    f->d = isa_device_create(NULL);
    assert_non_null(f->d);
    m = ptx_parse(ptx, strlen(ptx), "k.ptx", &f->err);
    assert_non_null(m);
    assert_int_equal(isa_program_load(f->d, m, &f->p, &f->err), 0);
    assert_int_equal(isa_devmem_alloc(isa_device_mem(f->d), 8, 256, ISA_ALLOC_DEVICE, &f->buf), 0);
    assert_int_equal(isa_devmem_write(isa_device_mem(f->d), f->buf, v, 8, &f->err), 0);
    arg = f->buf + off;
    ld.kernel = isa_program_find_kernel(f->p, "k");
    ld.grid[0] = ld.grid[1] = ld.grid[2] = 1;
    ld.block[0] = 32, ld.block[1] = ld.block[2] = 1;
    ld.args = args;
    assert_int_equal(isa_launch_init(&f->L, f->p, &ld, &f->err), 0);
    assert_int_equal(isa_cta_init(&f->c, &f->L, 0), 0);
}

static void fx_close(struct fx *f)
{
    isa_cta_fini(&f->c);
    isa_launch_fini(&f->L);
    isa_program_unload(f->p);
    isa_device_destroy(f->d);
}

static uint32_t pc_of(const struct isa_warp *w)
{
    return w->st[w->sp - 1].pc;
}

/* Runs the warp to its end with ordinary steps. */
static void finish(struct isa_warp *w)
{
    for (int i = 0; i < 16 && w->state != ISA_WARP_DONE; i++)
        assert_int_equal(isa_warp_step(w, NULL), 0);
    assert_int_equal(w->state, ISA_WARP_DONE);
}

static uint32_t word(struct fx *f, uint32_t i)
{
    uint32_t v[2];

    assert_int_equal(isa_devmem_read(isa_device_mem(f->d), f->buf, v, 8, &f->err), 0);
    return v[i];
}

/* Only a global load is plain; a refused step changes nothing. */
static void test_plain_runs_only_global_loads(void **state)
{
    struct fx f;
    struct isa_warp *w;
    struct isa_step_info info;

    (void)state;
    fx_open(&f, 0);
    w = &f.c.warps[0];
    assert_int_equal(isa_warp_step_plain(w, &info), ISA_STEP_NOT_PLAIN); /* ld.param */
    assert_int_equal(pc_of(w), 0);
    assert_int_equal(f.L.warp_insts, 0);
    assert_int_equal(f.L.thread_insts, 0);
    assert_int_equal(w->insts, 0);
    assert_int_equal(isa_warp_step(w, NULL), 0);
    assert_int_equal(isa_warp_step_plain(w, &info), 0); /* ld.global */
    assert_int_equal(pc_of(w), 2);
    assert_int_equal(f.L.warp_insts, 2);
    assert_int_equal(f.L.thread_insts, 64);
    assert_int_equal(info.active, 0xffffffffu);
    assert_int_equal(info.addr[5], f.buf);
    assert_int_equal(isa_warp_step_plain(w, &info), ISA_STEP_NOT_PLAIN); /* add */
    assert_int_equal(pc_of(w), 2);
    finish(w);
    assert_int_equal(word(&f, 1), 42);
    fx_close(&f);
}

/* A lane outside every allocation is refused untouched; the ordinary step then reads it. */
static void test_plain_refuses_outside_and_misaligned(void **state)
{
    static const uint64_t offs[] = {4096, 2}; /* past the allocation's slot; misaligned */

    (void)state;
    for (size_t i = 0; i < sizeof(offs) / sizeof(offs[0]); i++) {
        struct fx f;
        struct isa_warp *w;
        struct isa_step_info info;
        uint64_t outside;
        int rc;

        fx_open(&f, offs[i]);
        w = &f.c.warps[0];
        assert_int_equal(isa_warp_step(w, NULL), 0);
        outside = isa_devmem_outside_count(isa_device_mem(f.d));
        assert_int_equal(isa_warp_step_plain(w, &info), ISA_STEP_NOT_PLAIN);
        assert_int_equal(pc_of(w), 1);
        assert_int_equal(f.L.warp_insts, 1);
        assert_int_equal(f.L.thread_insts, 32);
        assert_int_equal(w->insts, 1);
        assert_int_equal(isa_devmem_outside_count(isa_device_mem(f.d)), outside);
        assert_false(f.err.has_fault);
        rc = isa_warp_step(w, NULL); /* as before: the fault, or a read outside */
        assert_true(rc == PS_EFAULT || (rc == 0 && pc_of(w) == 2));
        fx_close(&f);
    }
}

/* A reload sees memory written after the plain step. */
static void test_reload_reads_again(void **state)
{
    struct fx f;
    struct isa_warp *w;
    struct isa_step_info info;
    uint32_t v = 99;

    (void)state;
    fx_open(&f, 0);
    w = &f.c.warps[0];
    assert_int_equal(isa_warp_step(w, NULL), 0);
    assert_int_equal(isa_warp_step_plain(w, &info), 0);
    assert_int_equal(isa_devmem_write(isa_device_mem(f.d), f.buf, &v, 4, &f.err), 0);
    assert_int_equal(isa_warp_reload(w, &info), 0);
    assert_int_equal(f.L.warp_insts, 2); /* counted once */
    finish(w);
    assert_int_equal(word(&f, 1), 100);
    fx_close(&f);
}

/* The allocation freed between the plain step and its reload: the fault names the load. */
static void test_reload_faults_at_the_load(void **state)
{
    struct fx f;
    struct isa_warp *w;
    struct isa_step_info info;

    (void)state;
    fx_open(&f, 0);
    isa_devmem_set_memcheck(isa_device_mem(f.d), true);
    w = &f.c.warps[0];
    assert_int_equal(isa_warp_step(w, NULL), 0);
    assert_int_equal(isa_warp_step_plain(w, &info), 0);
    assert_int_equal(isa_devmem_free(isa_device_mem(f.d), f.buf), 0);
    assert_int_equal(isa_warp_reload(w, &info), PS_EFAULT);
    assert_true(f.err.has_fault);
    assert_int_equal(f.err.fault.ptx_line, LOAD_LINE);
    assert_int_equal(pc_of(w), 2); /* the warp's stack is as the step left it */
    fx_close(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain_runs_only_global_loads),
        cmocka_unit_test(test_plain_refuses_outside_and_misaligned),
        cmocka_unit_test(test_reload_reads_again),
        cmocka_unit_test(test_reload_faults_at_the_load),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
