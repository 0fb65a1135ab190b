/*
 * Device faults and load errors of the functional engine, through the public
 * API (runtime/ptxsim.h): out-of-bounds, null and misaligned accesses,
 * out-of-bounds shared memory, barrier deadlock, runaway kernels, trap and
 * __assertfail, stack overflow, bad brx.idx and free. Each fault must name
 * the kernel, the PTX line of the faulting instruction, the CTA and thread
 * of the first faulting thread (and the address for memory faults); it must
 * stay sticky in ptxsim_synchronize until ptxsim_clear_fault, while the same
 * device keeps working and memory allocated before the fault stays intact.
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
#define CANARY_WORDS 64

/* Tests of known engine bugs are skipped unless PTXSIM_RUN_SKIPPED is set. */
#define ENGINE_BUG_SKIP()                                                                          \
    do {                                                                                           \
        if (!getenv("PTXSIM_RUN_SKIPPED"))                                                         \
            skip();                                                                                \
    } while (0)

/* A device with a canary buffer and a module holding a correct kernel. */
struct fx {
    struct ptxsim_device *d;
    struct ptxsim_module *good;
    struct ptxsim_module *m;
    uint64_t canary;
};

static const char good_ptx[] =
    HDR ".visible .entry copy(.param .u64 dst, .param .u64 src)\n"
        "{\n.reg .b32 %r<3>;\n.reg .b64 %rd<6>;\n"
        "ld.param.u64 %rd1, [dst];\nld.param.u64 %rd2, [src];\n"
        "mov.u32 %r1, %tid.x;\nmul.wide.u32 %rd3, %r1, 4;\n"
        "add.s64 %rd4, %rd2, %rd3;\nld.global.u32 %r2, [%rd4];\n"
        "add.s64 %rd5, %rd1, %rd3;\nadd.u32 %r2, %r2, 1;\nst.global.u32 [%rd5], %r2;\n"
        "ret;\n}\n";

static uint32_t canary_word(uint32_t i)
{
    return 0xc0ffee00u ^ (i * 2654435761u);
}

static void fx_open(struct fx *f, uint64_t budget, uint32_t local_per_thread)
{
    struct ptxsim_options o;
    uint32_t host[CANARY_WORDS];

    memset(f, 0, sizeof(*f));
    ptxsim_options_default(&o);
    o.insn_budget = budget;
    o.memcheck = 1; /* exact per-allocation checks: every access past a buffer faults */
    if (local_per_thread)
        o.local_per_thread = local_per_thread;
    assert_int_equal(ptxsim_device_create(&o, &f->d), 0);
    assert_int_equal(ptxsim_module_load(f->d, good_ptx, strlen(good_ptx), "good.ptx", &f->good), 0);
    for (uint32_t i = 0; i < CANARY_WORDS; i++)
        host[i] = canary_word(i);
    assert_int_equal(ptxsim_malloc(f->d, sizeof(host), &f->canary), 0);
    assert_int_equal(ptxsim_memcpy_htod(f->d, f->canary, host, sizeof(host)), 0);
}

static void fx_load(struct fx *f, const char *ptx)
{
    int rc = ptxsim_module_load(f->d, ptx, strlen(ptx), "fault.ptx", &f->m);

    if (rc)
        print_error("load: %s\n", ptxsim_last_error_info(f->d)->msg);
    assert_int_equal(rc, 0);
}

static void fx_close(struct fx *f)
{
    ptxsim_module_unload(f->m);
    ptxsim_module_unload(f->good);
    ptxsim_device_destroy(f->d);
}

/* 1-based line of the first line of ptx that contains marker. */
static uint32_t line_of(const char *ptx, const char *marker)
{
    const char *at = strstr(ptx, marker);
    uint32_t line = 1;

    assert_non_null(at);
    for (const char *p = ptx; p < at; p++)
        line += *p == '\n';
    return line;
}

/* Checks the last error of f->d against a fault at the line containing marker. */
static const struct ps_err *expect_fault(struct fx *f, int rc, int code, const char *ptx,
                                         const char *marker, const char *kernel,
                                         struct ptxsim_dim3 cta, struct ptxsim_dim3 thr)
{
    const struct ps_err *e = ptxsim_last_error_info(f->d);
    uint32_t line = marker ? line_of(ptx, marker) : 0;

    if (rc != code)
        print_error("rc %d (%s), want %d\n", rc, e->msg, code);
    assert_int_equal(rc, code);
    assert_int_equal(e->code, code);
    assert_int_equal(ptxsim_last_error(f->d), code);
    assert_true(e->has_fault);
    assert_string_equal(e->fault.kernel, kernel);
    if (marker) {
        assert_int_equal(e->fault.ptx_line, line);
        assert_int_equal(e->line, line);
    }
    assert_string_equal(e->file, "fault.ptx");
    assert_non_null(strstr(e->msg, kernel));
    assert_int_equal(e->fault.cta[0], cta.x);
    assert_int_equal(e->fault.cta[1], cta.y);
    assert_int_equal(e->fault.cta[2], cta.z);
    assert_int_equal(e->fault.thread[0], thr.x);
    assert_int_equal(e->fault.thread[1], thr.y);
    assert_int_equal(e->fault.thread[2], thr.z);
    return e;
}

/*
 * After a fault with code: the fault is sticky, a correct kernel still runs
 * on the same device, the canary is intact, and clearing the fault works.
 */
static void expect_recovery(struct fx *f, int code)
{
    uint32_t src[32], dst[32], host[CANARY_WORDS];
    uint64_t a_src, a_dst;
    void *args[2] = {&a_dst, &a_src};

    assert_int_equal(ptxsim_synchronize(f->d), code);
    assert_int_equal(ptxsim_synchronize(f->d), code);
    for (uint32_t i = 0; i < 32; i++)
        src[i] = i * 11;
    assert_int_equal(ptxsim_malloc(f->d, sizeof(src), &a_src), 0);
    assert_int_equal(ptxsim_malloc(f->d, sizeof(dst), &a_dst), 0);
    assert_int_equal(ptxsim_memcpy_htod(f->d, a_src, src, sizeof(src)), 0);
    assert_int_equal(ptxsim_launch(f->good, "copy", D3(1, 1, 1), D3(32, 1, 1), 0, args), 0);
    assert_int_equal(ptxsim_memcpy_dtoh(f->d, dst, a_dst, sizeof(dst)), 0);
    for (uint32_t i = 0; i < 32; i++)
        assert_int_equal(dst[i], i * 11 + 1);
    assert_int_equal(ptxsim_synchronize(f->d), code); /* still sticky */
    assert_int_equal(ptxsim_memcpy_dtoh(f->d, host, f->canary, sizeof(host)), 0);
    for (uint32_t i = 0; i < CANARY_WORDS; i++)
        assert_int_equal(host[i], canary_word(i));
    ptxsim_clear_fault(f->d);
    assert_int_equal(ptxsim_synchronize(f->d), 0);
    assert_int_equal(ptxsim_free(f->d, a_src), 0);
    assert_int_equal(ptxsim_free(f->d, a_dst), 0);
}

/* ---- memory faults ------------------------------------------------------ */

static const char mem_ptx[] =
    HDR ".visible .entry oob_ld(.param .u64 in, .param .u64 out)\n"
        "{\n.reg .b32 %r<6>;\n.reg .b64 %rd<8>;\n"
        "ld.param.u64 %rd1, [in];\nld.param.u64 %rd2, [out];\n"
        "mov.u32 %r1, %tid.x;\nmov.u32 %r2, %ctaid.x;\nmov.u32 %r3, %ntid.x;\n"
        "mad.lo.u32 %r4, %r2, %r3, %r1;\nmul.wide.u32 %rd3, %r4, 4;\n"
        "add.s64 %rd4, %rd1, %rd3;\n"
        "ld.global.u32 %r5, [%rd4]; // OOB_LD\n"
        "add.s64 %rd5, %rd2, %rd3;\nst.global.u32 [%rd5], %r5;\nret;\n}\n"
        ".visible .entry oob_st(.param .u64 out)\n"
        "{\n.reg .b32 %r<6>;\n.reg .b64 %rd<8>;\n"
        "ld.param.u64 %rd1, [out];\n"
        "mov.u32 %r1, %tid.x;\nmov.u32 %r2, %tid.y;\nmov.u32 %r3, %ntid.x;\n"
        "mad.lo.u32 %r4, %r2, %r3, %r1;\nmul.wide.u32 %rd3, %r4, 4;\n"
        "add.s64 %rd4, %rd1, %rd3;\n"
        "st.global.u32 [%rd4], %r4; // OOB_ST\n"
        "ret;\n}\n"
        ".visible .entry nullp(.param .u64 out)\n"
        "{\n.reg .pred %p<2>;\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n"
        "mov.u32 %r1, %tid.x;\nsetp.eq.u32 %p1, %r1, 3;\n"
        "mov.u64 %rd1, 0;\n"
        "@%p1 ld.u32 %r2, [%rd1]; // NULL_LD\n"
        "ret;\n}\n"
        ".visible .entry misal(.param .u64 in)\n"
        "{\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n"
        "ld.param.u64 %rd1, [in];\n"
        "ld.global.u32 %r1, [%rd1+8];\n"
        "ld.global.u32 %r2, [%rd1+2]; // MISAL\n"
        "ret;\n}\n"
        ".visible .entry misal_v4(.param .u64 in)\n"
        "{\n.reg .b32 %r<5>;\n.reg .b64 %rd<4>;\n"
        "ld.param.u64 %rd1, [in];\n"
        "ld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd1+8]; // MISAL_V4\n"
        "ret;\n}\n"
        ".visible .entry sh_oob()\n"
        "{\n.shared .align 4 .u32 s[32];\n.reg .b32 %r<3>;\n.reg .b64 %rd<4>;\n"
        "mov.u32 %r1, %tid.x;\nmov.u64 %rd1, s;\nmul.wide.u32 %rd2, %r1, 4;\n"
        "add.s64 %rd3, %rd1, %rd2;\n"
        "st.shared.u32 [%rd3], %r1;\n"
        "ld.shared.u32 %r2, [%rd3+256]; // SH_OOB\n"
        "ret;\n}\n";

static void test_engine_fault_oob_load(void **state)
{
    struct fx f;
    uint64_t in, out;
    void *args[2] = {&in, &out};
    const struct ps_err *e;
    int rc;

    (void)state;
    fx_open(&f, 0, 0);
    fx_load(&f, mem_ptx);
    assert_int_equal(ptxsim_malloc(f.d, 40 * 4, &in), 0);
    assert_int_equal(ptxsim_malloc(f.d, 64 * 4, &out), 0);
    rc = ptxsim_launch(f.m, "oob_ld", D3(2, 1, 1), D3(32, 1, 1), 0, args);
    e = expect_fault(&f, rc, PS_EFAULT, mem_ptx, "// OOB_LD", "oob_ld", D3(1, 0, 0), D3(8, 0, 0));
    assert_int_equal(e->fault.addr, in + 160);
    expect_recovery(&f, PS_EFAULT);
    fx_close(&f);
}

static void test_engine_fault_oob_store_2d(void **state)
{
    struct fx f;
    uint64_t out;
    void *args[1] = {&out};
    const struct ps_err *e;
    int rc;

    (void)state;
    fx_open(&f, 0, 0);
    fx_load(&f, mem_ptx);
    assert_int_equal(ptxsim_malloc(f.d, 20 * 4, &out), 0);
    rc = ptxsim_launch(f.m, "oob_st", D3(1, 1, 1), D3(8, 4, 1), 0, args);
    e = expect_fault(&f, rc, PS_EFAULT, mem_ptx, "// OOB_ST", "oob_st", D3(0, 0, 0), D3(4, 2, 0));
    assert_int_equal(e->fault.addr, out + 80);
    expect_recovery(&f, PS_EFAULT);
    fx_close(&f);
}

static void test_engine_fault_null_pointer(void **state)
{
    struct fx f;
    uint64_t out = 0;
    void *args[1] = {&out};
    const struct ps_err *e;
    int rc;

    (void)state;
    fx_open(&f, 0, 0);
    fx_load(&f, mem_ptx);
    rc = ptxsim_launch(f.m, "nullp", D3(1, 1, 1), D3(32, 1, 1), 0, args);
    e = expect_fault(&f, rc, PS_EFAULT, mem_ptx, "// NULL_LD", "nullp", D3(0, 0, 0), D3(3, 0, 0));
    assert_int_equal(e->fault.addr, 0);
    assert_non_null(strstr(e->msg, "null"));
    expect_recovery(&f, PS_EFAULT);
    fx_close(&f);
}

static void test_engine_fault_misaligned(void **state)
{
    struct fx f;
    uint64_t in;
    void *args[1] = {&in};
    const struct ps_err *e;
    int rc;

    (void)state;
    fx_open(&f, 0, 0);
    fx_load(&f, mem_ptx);
    assert_int_equal(ptxsim_malloc(f.d, 256, &in), 0);
    rc = ptxsim_launch(f.m, "misal", D3(1, 1, 1), D3(4, 1, 1), 0, args);
    e = expect_fault(&f, rc, PS_EFAULT, mem_ptx, "// MISAL\n", "misal", D3(0, 0, 0), D3(0, 0, 0));
    assert_int_equal(e->fault.addr, in + 2);
    assert_non_null(strstr(e->msg, "misaligned"));
    expect_recovery(&f, PS_EFAULT);
    rc = ptxsim_launch(f.m, "misal_v4", D3(1, 1, 1), D3(4, 1, 1), 0, args);
    e = expect_fault(&f, rc, PS_EFAULT, mem_ptx, "// MISAL_V4", "misal_v4", D3(0, 0, 0),
                     D3(0, 0, 0));
    assert_int_equal(e->fault.addr, in + 8);
    expect_recovery(&f, PS_EFAULT);
    fx_close(&f);
}

static void test_engine_fault_shared_oob(void **state)
{
    struct fx f;
    const struct ps_err *e;
    int rc;

    (void)state;
    fx_open(&f, 0, 0);
    fx_load(&f, mem_ptx);
    /* 32 words of shared memory: thread 0 reads word 64 (offset 256) */
    rc = ptxsim_launch(f.m, "sh_oob", D3(3, 1, 1), D3(32, 1, 1), 0, NULL);
    e = expect_fault(&f, rc, PS_EFAULT, mem_ptx, "// SH_OOB", "sh_oob", D3(0, 0, 0), D3(0, 0, 0));
    assert_non_null(strstr(e->msg, "shared"));
    expect_recovery(&f, PS_EFAULT);
    fx_close(&f);
}

/* ---- deadlock, runaway, trap, assertion ----------------------------------- */

static const char ctl_ptx[] =
    HDR ".extern .func __assertfail(.param .b64 __assertfail_param_0, .param .b64 "
        "__assertfail_param_1, .param .b32 __assertfail_param_2, .param .b64 __assertfail_param_3, "
        ".param .b64 __assertfail_param_4);\n"
        ".global .align 1 .b8 $msg[6] = {120, 32, 60, 32, 51, 0};\n"
        ".global .align 1 .b8 $file[7] = {102, 111, 111, 46, 99, 117, 0};\n"
        ".global .align 1 .b8 $fn[5] = {107, 101, 114, 110, 0};\n"
        ".visible .entry dead()\n"
        "{\n.reg .pred %p<2>;\n.reg .b32 %r<3>;\n"
        "mov.u32 %r1, %tid.x;\nsetp.lt.u32 %p1, %r1, 64;\n"
        "@%p1 bra $LO;\n"
        "bar.sync 1;\nbra.uni $END;\n"
        "$LO:\nbar.sync 0;\n"
        "$END:\nret;\n}\n"
        ".visible .entry spin()\n"
        "{\n.reg .b32 %r<3>;\n"
        "mov.u32 %r1, 0;\n"
        "$L:\nadd.u32 %r1, %r1, 1;\nbra.uni $L;\n}\n"
        ".visible .entry trapk()\n"
        "{\n.reg .pred %p<2>;\n.reg .b32 %r<4>;\n"
        "mov.u32 %r1, %tid.x;\nmov.u32 %r2, %tid.y;\nmov.u32 %r3, %ntid.x;\n"
        "mad.lo.u32 %r1, %r2, %r3, %r1;\nsetp.eq.u32 %p1, %r1, 37;\n"
        "@%p1 trap; // TRAP\n"
        "ret;\n}\n"
        ".visible .entry assertk()\n"
        "{\n.reg .pred %p<2>;\n.reg .b32 %r<3>;\n.reg .b64 %rd<8>;\n"
        "mov.u32 %r1, %tid.x;\nsetp.lt.u32 %p1, %r1, 3;\n"
        "@%p1 bra $OK;\n"
        "mov.u64 %rd1, $msg;\ncvta.global.u64 %rd2, %rd1;\n"
        "mov.u64 %rd3, $file;\ncvta.global.u64 %rd4, %rd3;\n"
        "mov.u64 %rd5, $fn;\ncvta.global.u64 %rd6, %rd5;\n"
        "mov.u32 %r2, 42;\nmov.u64 %rd7, 1;\n"
        "call.uni __assertfail, (%rd2, %rd4, %r2, %rd6, %rd7); // ASSERT\n"
        "$OK:\nret;\n}\n";

static void test_engine_fault_barrier_deadlock(void **state)
{
    struct fx f;
    const struct ps_err *e;
    int rc;

    (void)state;
    fx_open(&f, 0, 0);
    fx_load(&f, ctl_ptx);
    /* warps 0-1 wait at barrier 0, warps 2-3 at barrier 1: nobody else can arrive */
    rc = ptxsim_launch(f.m, "dead", D3(1, 1, 1), D3(128, 1, 1), 0, NULL);
    e = ptxsim_last_error_info(f.d);
    assert_int_equal(rc, PS_EDEADLOCK);
    assert_int_equal(e->code, PS_EDEADLOCK);
    assert_true(e->has_fault);
    assert_string_equal(e->fault.kernel, "dead");
    assert_non_null(strstr(e->msg, "dead"));
    assert_non_null(strstr(e->msg, "barrier"));
    expect_recovery(&f, PS_EDEADLOCK);
    fx_close(&f);
}

static void test_engine_fault_runaway(void **state)
{
    struct fx f;
    const struct ps_err *e;
    uint32_t l1 = line_of(ctl_ptx, "add.u32 %r1, %r1, 1;"), l2 = line_of(ctl_ptx, "bra.uni $L;");
    int rc;

    (void)state;
    fx_open(&f, 10000, 0);
    fx_load(&f, ctl_ptx);
    rc = ptxsim_launch(f.m, "spin", D3(2, 1, 1), D3(64, 1, 1), 0, NULL);
    e = ptxsim_last_error_info(f.d);
    assert_int_equal(rc, PS_ERUNAWAY);
    assert_true(e->has_fault);
    assert_string_equal(e->fault.kernel, "spin");
    assert_true(e->fault.ptx_line == l1 || e->fault.ptx_line == l2);
    assert_int_equal(e->fault.cta[0], 0);
    expect_recovery(&f, PS_ERUNAWAY);
    fx_close(&f);
}

static void test_engine_fault_trap(void **state)
{
    struct fx f;
    int rc;

    (void)state;
    fx_open(&f, 0, 0);
    fx_load(&f, ctl_ptx);
    rc = ptxsim_launch(f.m, "trapk", D3(1, 2, 1), D3(16, 4, 1), 0, NULL);
    expect_fault(&f, rc, PS_ETRAP, ctl_ptx, "// TRAP", "trapk", D3(0, 0, 0), D3(5, 2, 0));
    expect_recovery(&f, PS_ETRAP);
    fx_close(&f);
}

static void test_engine_fault_assertfail(void **state)
{
    struct fx f;
    const struct ps_err *e;
    int rc;

    (void)state;
    fx_open(&f, 0, 0);
    fx_load(&f, ctl_ptx);
    rc = ptxsim_launch(f.m, "assertk", D3(1, 1, 1), D3(8, 1, 1), 0, NULL);
    e = expect_fault(&f, rc, PS_ETRAP, ctl_ptx, "// ASSERT", "assertk", D3(0, 0, 0), D3(3, 0, 0));
    assert_non_null(strstr(e->msg, "x < 3"));
    assert_non_null(strstr(e->msg, "foo.cu"));
    assert_non_null(strstr(e->msg, "42"));
    assert_non_null(strstr(e->msg, "kern"));
    expect_recovery(&f, PS_ETRAP);
    fx_close(&f);
}

/* ---- stack overflow, brx.idx out of range, bad free -------------------------- */

static const char misc_ptx[] =
    HDR ".extern .func free(.param .b64 free_param_0);\n"
        ".func (.param .b32 rv) deep(.param .b32 n)\n"
        "{\n.local .align 8 .b8 __local_depot0[64];\n.reg .b64 %SPL;\n"
        ".reg .pred %p<2>;\n.reg .b32 %r<4>;\n"
        "mov.u64 %SPL, __local_depot0;\n"
        "ld.param.u32 %r1, [n];\nst.local.u32 [%SPL], %r1;\n"
        "setp.eq.u32 %p1, %r1, 0;\n@%p1 bra $D;\n"
        "add.s32 %r2, %r1, -1;\n"
        "{\n.param .b32 p0;\nst.param.b32 [p0], %r2;\n.param .b32 r0;\n"
        "call.uni (r0), deep, (p0); // DEEP\nld.param.b32 %r1, [r0];\n}\n"
        "$D:\nst.param.b32 [rv], %r1;\nret;\n}\n"
        ".visible .entry recur()\n"
        "{\n.reg .b32 %r<3>;\n"
        "mov.u32 %r1, 100000;\n"
        "call.uni (%r2), deep, (%r1);\n"
        "ret;\n}\n"
        ".visible .entry brxbad()\n"
        "{\n.reg .b32 %r<3>;\n"
        "mov.u32 %r1, %tid.x;\n"
        "$T: .branchtargets $A, $B;\n"
        "brx.idx %r1, $T; // BRX\n"
        "$A:\nret;\n$B:\nret;\n}\n"
        ".visible .entry badfree(.param .u64 p)\n"
        "{\n.reg .b64 %rd<3>;\n"
        "ld.param.u64 %rd1, [p];\nadd.u64 %rd2, %rd1, 16;\n"
        "call.uni free, (%rd2); // FREE\n"
        "ret;\n}\n";

static void stack_overflow(const char *marker)
{
    struct fx f;
    const struct ps_err *e;
    int rc;

    fx_open(&f, 0, 4096);
    fx_load(&f, misc_ptx);
    rc = ptxsim_launch(f.m, "recur", D3(1, 1, 1), D3(32, 1, 1), 0, NULL);
    e = expect_fault(&f, rc, PS_EFAULT, misc_ptx, marker, "recur", D3(0, 0, 0), D3(0, 0, 0));
    assert_non_null(strstr(e->msg, "stack"));
    assert_non_null(strstr(e->msg, "deep"));
    expect_recovery(&f, PS_EFAULT);
    fx_close(&f);
}

static void test_engine_fault_stack_overflow(void **state)
{
    (void)state;
    stack_overflow(NULL);
}

static void test_engine_fault_stack_overflow_line(void **state)
{
    (void)state;
    stack_overflow("// DEEP");
}

static void test_engine_fault_brx_out_of_range(void **state)
{
    struct fx f;
    int rc;

    (void)state;
    fx_open(&f, 0, 0);
    fx_load(&f, misc_ptx);
    rc = ptxsim_launch(f.m, "brxbad", D3(1, 1, 1), D3(8, 1, 1), 0, NULL);
    expect_fault(&f, rc, PS_EFAULT, misc_ptx, "// BRX", "brxbad", D3(0, 0, 0), D3(2, 0, 0));
    expect_recovery(&f, PS_EFAULT);
    fx_close(&f);
}

static void test_engine_fault_bad_free(void **state)
{
    struct fx f;
    void *args[1] = {&f.canary};
    const struct ps_err *e;
    int rc;

    (void)state;
    fx_open(&f, 0, 0);
    fx_load(&f, misc_ptx);
    rc = ptxsim_launch(f.m, "badfree", D3(1, 1, 1), D3(1, 1, 1), 0, args);
    e = expect_fault(&f, rc, PS_EFAULT, misc_ptx, "// FREE", "badfree", D3(0, 0, 0), D3(0, 0, 0));
    assert_int_equal(e->fault.addr, f.canary + 16);
    expect_recovery(&f, PS_EFAULT);
    fx_close(&f);
}

/* ---- the first fault sticks; API errors are not sticky ----------------------- */

static void test_engine_fault_first_sticks(void **state)
{
    struct fx f;
    uint64_t in, out = 0;
    void *args[2] = {&in, &out};

    (void)state;
    fx_open(&f, 0, 0);
    fx_load(&f, ctl_ptx);
    assert_int_equal(ptxsim_launch(f.m, "trapk", D3(1, 1, 1), D3(64, 1, 1), 0, NULL), PS_ETRAP);
    ptxsim_module_unload(f.m);
    fx_load(&f, mem_ptx);
    assert_int_equal(ptxsim_malloc(f.d, 16, &in), 0);
    assert_int_equal(ptxsim_launch(f.m, "nullp", D3(1, 1, 1), D3(32, 1, 1), 0, args), PS_EFAULT);
    assert_int_equal(ptxsim_last_error(f.d), PS_EFAULT);
    expect_recovery(&f, PS_ETRAP);
    fx_close(&f);
}

static void test_engine_api_errors_not_sticky(void **state)
{
    struct fx f;
    uint64_t in, out;
    uint32_t big[64];
    void *args[2] = {&in, &out};

    (void)state;
    fx_open(&f, 0, 0);
    fx_load(&f, mem_ptx);
    assert_int_equal(ptxsim_malloc(f.d, 64, &in), 0);
    assert_int_equal(ptxsim_malloc(f.d, 64, &out), 0);
    assert_int_equal(ptxsim_launch(f.m, "nosuch", D3(1, 1, 1), D3(1, 1, 1), 0, args), PS_ENOTFOUND);
    assert_int_equal(ptxsim_launch(f.m, "oob_ld", D3(1, 1, 1), D3(2048, 1, 1), 0, args), PS_EINVAL);
    assert_int_equal(ptxsim_launch(f.m, "oob_ld", D3(0, 1, 1), D3(1, 1, 1), 0, args), PS_EINVAL);
    assert_int_equal(ptxsim_launch(f.m, "oob_ld", D3(1, 1, 1), D3(1, 1, 1), 1 << 24, args),
                     PS_EINVAL);
    assert_int_equal(ptxsim_memcpy_dtoh(f.d, big, in, sizeof(big) + 4), PS_EFAULT);
    assert_int_equal(ptxsim_memcpy_htod(f.d, in + 32, big, 64), PS_EFAULT);
    assert_int_equal(ptxsim_free(f.d, in + 4), PS_EINVAL);
    assert_int_equal(ptxsim_synchronize(f.d), 0);
    assert_int_equal(ptxsim_launch(f.m, "oob_ld", D3(1, 1, 1), D3(16, 1, 1), 0, args), 0);
    assert_int_equal(ptxsim_last_error(f.d), 0);
    fx_close(&f);
}

/* ---- parse errors through ptxsim_module_load ------------------------------- */

static void expect_parse_error(const char *ptx, const char *marker, const char *word)
{
    struct ptxsim_device *d;
    struct ptxsim_module *m = (struct ptxsim_module *)&m;
    const struct ps_err *e;

    assert_int_equal(ptxsim_device_create(NULL, &d), 0);
    assert_int_equal(ptxsim_module_load(d, ptx, strlen(ptx), "bad.ptx", &m), PS_EPARSE);
    assert_null(m);
    e = ptxsim_last_error_info(d);
    assert_int_equal(e->code, PS_EPARSE);
    assert_int_equal(ptxsim_last_error(d), PS_EPARSE);
    assert_string_equal(e->file, "bad.ptx");
    assert_int_equal(e->line, line_of(ptx, marker));
    assert_true(e->col > 0);
    assert_false(e->has_fault);
    if (word && !strstr(e->msg, word))
        print_error("message '%s' lacks '%s'\n", e->msg, word);
    assert_true(!word || strstr(e->msg, word));
    assert_int_equal(ptxsim_synchronize(d), 0);
    ptxsim_device_destroy(d);
}

static void test_engine_parse_errors(void **state)
{
    (void)state;
    expect_parse_error(HDR ".visible .entry k()\n{\n.reg .b32 %r<3>;\n"
                           "add.u32 %r1, %r2;\nret;\n}\n",
                       "add.u32", NULL);
    expect_parse_error(HDR ".visible .entry k()\n{\n.reg .b32 %r<3>;\n"
                           "frobnicate.u32 %r1, %r2, %r2;\nret;\n}\n",
                       "frobnicate", "frobnicate");
    expect_parse_error(HDR ".visible .entry k()\n{\n.reg .b32 %r<3>;\n"
                           "mov.u32 %r1, %r9;\nret;\n}\n",
                       "%r9", "%r9");
    expect_parse_error(HDR ".visible .entry k()\n{\nbra $NOWHERE;\nret;\n}\n", "$NOWHERE",
                       "NOWHERE");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_engine_fault_oob_load),
        cmocka_unit_test(test_engine_fault_oob_store_2d),
        cmocka_unit_test(test_engine_fault_null_pointer),
        cmocka_unit_test(test_engine_fault_misaligned),
        cmocka_unit_test(test_engine_fault_shared_oob),
        cmocka_unit_test(test_engine_fault_barrier_deadlock),
        cmocka_unit_test(test_engine_fault_runaway),
        cmocka_unit_test(test_engine_fault_trap),
        cmocka_unit_test(test_engine_fault_assertfail),
        cmocka_unit_test(test_engine_fault_stack_overflow),
        cmocka_unit_test(test_engine_fault_stack_overflow_line),
        cmocka_unit_test(test_engine_fault_brx_out_of_range),
        cmocka_unit_test(test_engine_fault_bad_free),
        cmocka_unit_test(test_engine_fault_first_sticks),
        cmocka_unit_test(test_engine_api_errors_not_sticky),
        cmocka_unit_test(test_engine_parse_errors),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
