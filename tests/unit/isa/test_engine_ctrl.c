/*
 * Functional tests of the engine's control flow, through the public API
 * (runtime/ptxsim.h): nested divergence and reconvergence, loops with break
 * and continue, early exit/ret before a barrier, calls (divergent, with
 * .param arguments, recursive with a local-memory stack, indirect through a
 * function pointer), brx.idx, barriers in loops, and the special registers
 * of multi-CTA 2D/3D launches. Each kernel is hand-written PTX
 * and every result is checked against a plain C reference computed here.
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

/* Tests of known engine bugs are skipped unless PTXSIM_RUN_SKIPPED is set. */
#define ENGINE_BUG_SKIP()                                                                          \
    do {                                                                                           \
        if (!getenv("PTXSIM_RUN_SKIPPED"))                                                         \
            skip();                                                                                \
    } while (0)

struct kbuf {
    void *host;
    size_t bytes;
};

static void fail_with(struct ptxsim_device *d, const char *what)
{
    const struct ps_err *e = ptxsim_last_error_info(d);

    print_error("%s failed: %s (%s:%u:%u)\n", what, e->msg, e->file, e->line, e->col);
    fail();
}

/*
 * Loads ptx on a fresh device, copies each buffer in, launches kernel with
 * the buffers' device addresses as its parameters, and copies them back.
 */
static void run(const char *ptx, const char *kernel, struct ptxsim_dim3 grid,
                struct ptxsim_dim3 block, uint32_t dyn, struct kbuf *b, int nb)
{
    struct ptxsim_device *d;
    struct ptxsim_module *m;
    uint64_t addr[8];
    void *args[8];

    assert_true(nb <= 8);
    assert_int_equal(ptxsim_device_create(NULL, &d), 0);
    if (ptxsim_module_load(d, ptx, strlen(ptx), "test.ptx", &m))
        fail_with(d, "module load");
    for (int i = 0; i < nb; i++) {
        assert_int_equal(ptxsim_malloc(d, b[i].bytes, &addr[i]), 0);
        assert_int_equal(ptxsim_memcpy_htod(d, addr[i], b[i].host, b[i].bytes), 0);
        args[i] = &addr[i];
    }
    if (ptxsim_launch(m, kernel, grid, block, dyn, args))
        fail_with(d, "launch");
    assert_int_equal(ptxsim_synchronize(d), 0);
    for (int i = 0; i < nb; i++)
        assert_int_equal(ptxsim_memcpy_dtoh(d, b[i].host, addr[i], b[i].bytes), 0);
    ptxsim_module_unload(m);
    ptxsim_device_destroy(d);
}

/* ---- nested if/else on laneid bits ----------------------------------------- */

static const char nest_ptx[] = HDR ".visible .entry nest(.param .u64 out, .param .u64 am)\n"
                                   "{\n"
                                   ".reg .pred %p<6>;\n.reg .b32 %r<12>;\n.reg .b64 %rd<8>;\n"
                                   "ld.param.u64 %rd1, [out];\n"
                                   "ld.param.u64 %rd2, [am];\n"
                                   "mov.u32 %r1, %tid.x;\nmov.u32 %r2, %laneid;\n"
                                   "mul.wide.u32 %rd3, %r1, 8;\n"
                                   "add.s64 %rd4, %rd2, %rd3;\n"
                                   "mul.wide.u32 %rd3, %r1, 4;\n"
                                   "add.s64 %rd5, %rd1, %rd3;\n"
                                   "and.b32 %r3, %r2, 1;\n"
                                   "setp.eq.u32 %p1, %r3, 0;\n"
                                   "@%p1 bra $EVEN;\n"
                                   "and.b32 %r3, %r2, 2;\n"
                                   "setp.eq.u32 %p2, %r3, 0;\n"
                                   "@%p2 bra $O_ELSE;\n"
                                   "mov.u32 %r4, 1;\n"
                                   "bra.uni $O_JOIN;\n"
                                   "$O_ELSE:\n"
                                   "mov.u32 %r4, 2;\n"
                                   "$O_JOIN:\n"
                                   "add.u32 %r4, %r4, 10;\n"
                                   "activemask.b32 %r5;\n"
                                   "bra.uni $JOIN;\n"
                                   "$EVEN:\n"
                                   "and.b32 %r3, %r2, 4;\n"
                                   "setp.ne.u32 %p3, %r3, 0;\n"
                                   "@%p3 bra $E_THEN;\n"
                                   "and.b32 %r3, %r2, 8;\n"
                                   "setp.ne.u32 %p4, %r3, 0;\n"
                                   "@%p4 bra $E_IN;\n"
                                   "mov.u32 %r4, 5;\n"
                                   "bra.uni $E_INJ;\n"
                                   "$E_IN:\n"
                                   "mov.u32 %r4, 4;\n"
                                   "$E_INJ:\n"
                                   "activemask.b32 %r5;\n"
                                   "bra.uni $E_JOIN;\n"
                                   "$E_THEN:\n"
                                   "mov.u32 %r4, 3;\n"
                                   "activemask.b32 %r5;\n"
                                   "$E_JOIN:\n"
                                   "add.u32 %r4, %r4, 20;\n"
                                   "$JOIN:\n"
                                   "activemask.b32 %r6;\n"
                                   "mad.lo.u32 %r7, %r4, 100, %r2;\n"
                                   "st.global.u32 [%rd5], %r7;\n"
                                   "st.global.u32 [%rd4], %r5;\n"
                                   "st.global.u32 [%rd4+4], %r6;\n"
                                   "ret;\n"
                                   "}\n";

static void test_engine_nested_divergence(void **state)
{
    uint32_t out[64], am[128];
    struct kbuf b[] = {{out, sizeof(out)}, {am, sizeof(am)}};

    (void)state;
    memset(out, 0, sizeof(out));
    memset(am, 0, sizeof(am));
    run(nest_ptx, "nest", D3(1, 1, 1), D3(64, 1, 1), 0, b, 2);
    for (uint32_t t = 0; t < 64; t++) {
        uint32_t l = t % 32, code, mask;

        if (l & 1) {
            code = ((l & 2) ? 1 : 2) + 10;
            mask = 0xaaaaaaaau; /* odd lanes */
        } else if (l & 4) {
            code = 3 + 20;
            mask = 0x50505050u; /* even lanes with bit 2 set */
        } else {
            code = ((l & 8) ? 4 : 5) + 20;
            mask = 0x05050505u; /* even lanes with bit 2 clear */
        }
        assert_int_equal(out[t], code * 100 + l);
        assert_int_equal(am[2 * t], mask);
        assert_int_equal(am[2 * t + 1], 0xffffffffu);
    }
}

/* ---- loops with break/continue and lane-dependent trip counts ----------- */

static const char loop_ptx[] =
    HDR ".visible .entry loops(.param .u64 out, .param .u64 out2, .param .u64 am)\n"
        "{\n"
        ".reg .pred %p<6>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<10>;\n"
        "mov.u32 %r1, %tid.x;\nmov.u32 %r2, %laneid;\n"
        "mov.u32 %r3, 0;\n"
        "mov.u32 %r4, 0;\n"
        "mov.u32 %r9, 0;\n"
        "add.u32 %r5, %r2, 3;\n"
        "and.b32 %r10, %r2, 3;\n"
        "$LOOP:\n"
        "setp.ge.u32 %p1, %r4, %r5;\n"
        "@%p1 bra $DONE;\n"
        "mov.u32 %r11, 0;\n"
        "$INNER:\n"
        "setp.ge.u32 %p4, %r11, %r10;\n"
        "@%p4 bra $INNER_END;\n"
        "add.u32 %r12, %r4, %r11;\n"
        "add.u32 %r9, %r9, %r12;\n"
        "add.u32 %r11, %r11, 1;\n"
        "bra $INNER;\n"
        "$INNER_END:\n"
        "rem.u32 %r6, %r4, 3;\n"
        "setp.eq.u32 %p2, %r6, 1;\n"
        "@%p2 bra $CONT;\n"
        "mul.lo.u32 %r7, %r4, %r2;\n"
        "setp.gt.u32 %p3, %r7, 40;\n"
        "@%p3 bra $DONE;\n"
        "add.u32 %r3, %r3, %r4;\n"
        "$CONT:\n"
        "add.u32 %r4, %r4, 1;\n"
        "bra $LOOP;\n"
        "$DONE:\n"
        "activemask.b32 %r8;\n"
        "shl.b32 %r7, %r4, 16;\n"
        "or.b32 %r7, %r7, %r3;\n"
        "mul.wide.u32 %rd1, %r1, 4;\n"
        "ld.param.u64 %rd2, [out];\n"
        "add.s64 %rd3, %rd2, %rd1;\n"
        "st.global.u32 [%rd3], %r7;\n"
        "ld.param.u64 %rd2, [out2];\n"
        "add.s64 %rd3, %rd2, %rd1;\n"
        "st.global.u32 [%rd3], %r9;\n"
        "ld.param.u64 %rd2, [am];\n"
        "add.s64 %rd3, %rd2, %rd1;\n"
        "st.global.u32 [%rd3], %r8;\n"
        "ret;\n"
        "}\n";

static void test_engine_loops_break_continue(void **state)
{
    uint32_t out[64], out2[64], am[64];
    struct kbuf b[] = {{out, sizeof(out)}, {out2, sizeof(out2)}, {am, sizeof(am)}};

    (void)state;
    memset(out, 0, sizeof(out));
    memset(out2, 0, sizeof(out2));
    memset(am, 0, sizeof(am));
    run(loop_ptx, "loops", D3(1, 1, 1), D3(64, 1, 1), 0, b, 3);
    for (uint32_t t = 0; t < 64; t++) {
        uint32_t l = t % 32, sum = 0, sum2 = 0, i;

        for (i = 0; i < l + 3; i++) {
            for (uint32_t j = 0; j < (l & 3); j++)
                sum2 += i + j;
            if (i % 3 == 1)
                continue;
            if (i * l > 40)
                break;
            sum += i;
        }
        assert_int_equal(out[t], sum | i << 16);
        assert_int_equal(out2[t], sum2);
        assert_int_equal(am[t], 0xffffffffu);
    }
}

/* ---- exit and ret of some lanes, then barriers among the rest ----------- */

static const char exitbar_ptx[] = HDR ".visible .entry exitbar(.param .u64 out)\n"
                                      "{\n"
                                      ".shared .align 4 .u32 sh[128];\n"
                                      ".reg .pred %p<6>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<10>;\n"
                                      "ld.param.u64 %rd1, [out];\n"
                                      "mov.u32 %r1, %tid.x;\nmov.u32 %r2, %laneid;\n"
                                      "mul.wide.u32 %rd2, %r1, 4;\n"
                                      "add.s64 %rd3, %rd1, %rd2;\n"
                                      "setp.lt.u32 %p1, %r1, 96;\n"
                                      "@%p1 bra $A;\n"
                                      "st.global.u32 [%rd3], 1;\n"
                                      "exit;\n"
                                      "$A:\n"
                                      "setp.lt.u32 %p1, %r1, 64;\n"
                                      "@%p1 bra $B;\n"
                                      "and.b32 %r3, %r2, 1;\n"
                                      "setp.eq.u32 %p2, %r3, 0;\n"
                                      "@%p2 bra $WORK;\n"
                                      "st.global.u32 [%rd3], 2;\n"
                                      "ret;\n"
                                      "$B:\n"
                                      "setp.lt.u32 %p1, %r1, 32;\n"
                                      "@%p1 bra $WORK;\n"
                                      "setp.lt.u32 %p2, %r2, 16;\n"
                                      "@%p2 bra $WORK;\n"
                                      "st.global.u32 [%rd3], 3;\n"
                                      "exit;\n"
                                      "$WORK:\n"
                                      "mov.u64 %rd4, sh;\n"
                                      "add.s64 %rd5, %rd4, %rd2;\n"
                                      "mad.lo.u32 %r6, %r1, 3, 1;\n"
                                      "st.shared.u32 [%rd5], %r6;\n"
                                      "bar.sync 0;\n"
                                      "setp.lt.u32 %p3, %r1, 48;\n"
                                      "add.u32 %r7, %r1, 16;\n"
                                      "rem.u32 %r7, %r7, 48;\n"
                                      "sub.u32 %r8, %r1, 64;\n"
                                      "selp.u32 %r9, %r7, %r8, %p3;\n"
                                      "mul.wide.u32 %rd6, %r9, 4;\n"
                                      "add.s64 %rd7, %rd4, %rd6;\n"
                                      "ld.shared.u32 %r10, [%rd7];\n"
                                      "add.u32 %r10, %r10, 1000;\n"
                                      "bar.sync 0;\n"
                                      "st.shared.u32 [%rd5], %r10;\n"
                                      "bar.sync 0;\n"
                                      "ld.shared.u32 %r11, [%rd7];\n"
                                      "st.global.u32 [%rd3], %r11;\n"
                                      "ret;\n"
                                      "}\n";

static uint32_t partner(uint32_t t)
{
    return t < 48 ? (t + 16) % 48 : t - 64;
}

static void test_engine_exit_then_barrier(void **state)
{
    uint32_t out[128];
    struct kbuf b[] = {{out, sizeof(out)}};

    (void)state;
    memset(out, 0, sizeof(out));
    run(exitbar_ptx, "exitbar", D3(1, 1, 1), D3(128, 1, 1), 0, b, 1);
    for (uint32_t t = 0; t < 128; t++) {
        uint32_t want;

        if (t >= 96)
            want = 1;
        else if (t >= 64 && (t & 1))
            want = 2;
        else if (t >= 48 && t < 64)
            want = 3;
        else
            want = 3 * partner(partner(t)) + 1 + 1000;
        assert_int_equal(out[t], want);
    }
}

/* ---- calls: divergent, .param arguments of several types ---------------- */

static const char call_ptx[] =
    HDR ".func (.param .b32 rv) tri(.param .b32 a, .param .b64 pm)\n"
        "{\n"
        ".reg .b32 %r<4>;\n.reg .b64 %rd<2>;\n"
        "ld.param.u32 %r1, [a];\n"
        "ld.param.u64 %rd1, [pm];\n"
        "activemask.b32 %r2;\n"
        "st.global.u32 [%rd1], %r2;\n"
        "mul.lo.u32 %r3, %r1, 3;\n"
        "st.param.b32 [rv], %r3;\n"
        "ret;\n"
        "}\n"
        ".func (.param .f64 rv) mix(.param .u64 x, .param .f32 f, .param .s32 k, .param .u8 c)\n"
        "{\n"
        ".reg .b32 %r<4>;\n.reg .b64 %rd<2>;\n.reg .f32 %f<2>;\n.reg .f64 %fd<8>;\n"
        "ld.param.u64 %rd1, [x];\n"
        "ld.param.f32 %f1, [f];\n"
        "ld.param.s32 %r1, [k];\n"
        "ld.param.u8 %r2, [c];\n"
        "cvt.rn.f64.u64 %fd1, %rd1;\n"
        "cvt.f64.f32 %fd2, %f1;\n"
        "cvt.rn.f64.s32 %fd3, %r1;\n"
        "mul.rn.f64 %fd4, %fd2, %fd3;\n"
        "add.rn.f64 %fd5, %fd1, %fd4;\n"
        "cvt.rn.f64.u32 %fd6, %r2;\n"
        "add.rn.f64 %fd7, %fd5, %fd6;\n"
        "st.param.f64 [rv], %fd7;\n"
        "ret;\n"
        "}\n"
        ".visible .entry dcall(.param .u64 out, .param .u64 am, .param .u64 out2)\n"
        "{\n"
        ".reg .pred %p<4>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<12>;\n.reg .f32 %f<2>;\n"
        ".reg .f64 %fd<2>;\n"
        "mov.u32 %r1, %tid.x;\nmov.u32 %r2, %laneid;\n"
        "mul.wide.u32 %rd1, %r1, 4;\n"
        "ld.param.u64 %rd2, [am];\n"
        "add.s64 %rd3, %rd2, %rd1;\n"
        "rem.u32 %r3, %r2, 3;\n"
        "setp.ne.u32 %p1, %r3, 0;\n"
        "@%p1 bra $SKIP;\n"
        "mul.lo.u32 %r5, %r1, 5;\n"
        "call.uni (%r4), tri, (%r5, %rd3);\n"
        "bra.uni $J;\n"
        "$SKIP:\n"
        "mov.u32 %r4, 7;\n"
        "activemask.b32 %r6;\n"
        "st.global.u32 [%rd3], %r6;\n"
        "$J:\n"
        "ld.param.u64 %rd4, [out];\n"
        "add.s64 %rd5, %rd4, %rd1;\n"
        "st.global.u32 [%rd5], %r4;\n"
        "cvt.u64.u32 %rd6, %r1;\n"
        "add.u64 %rd6, %rd6, 1099511627776;\n"
        "cvt.rn.f32.u32 %f1, %r2;\n"
        "mul.rn.f32 %f1, %f1, 0f3F000000;\n"
        "neg.s32 %r7, %r2;\n"
        "add.u32 %r8, %r2, 250;\n"
        "call.uni (%fd1), mix, (%rd6, %f1, %r7, %r8);\n"
        "ld.param.u64 %rd7, [out2];\n"
        "mul.wide.u32 %rd8, %r1, 8;\n"
        "add.s64 %rd9, %rd7, %rd8;\n"
        "st.global.f64 [%rd9], %fd1;\n"
        "ret;\n"
        "}\n";

static void test_engine_divergent_call_params(void **state)
{
    uint32_t out[64], am[64];
    double out2[64];
    struct kbuf b[] = {{out, sizeof(out)}, {am, sizeof(am)}, {out2, sizeof(out2)}};

    (void)state;
    memset(out, 0, sizeof(out));
    memset(am, 0, sizeof(am));
    memset(out2, 0, sizeof(out2));
    run(call_ptx, "dcall", D3(1, 1, 1), D3(64, 1, 1), 0, b, 3);
    for (uint32_t t = 0; t < 64; t++) {
        uint32_t l = t % 32, called = l % 3 == 0;
        double x = (double)((uint64_t)t + (UINT64_C(1) << 40));
        double want =
            x + (double)((float)l * 0.5f) * (double)-(int32_t)l + (double)((l + 250) & 255);

        assert_int_equal(out[t], called ? t * 5 * 3 : 7);
        assert_int_equal(am[t], called ? 0x49249249u : ~0x49249249u);
        assert_true(out2[t] == want);
    }
}

/* ---- recursion with a local-memory stack (as nvcc emits it) ------------- */

static const char rec_ptx[] = HDR ".func (.param .b32 rv) fib(.param .b32 n)\n"
                                  "{\n"
                                  ".local .align 8 .b8 __local_depot0[8];\n"
                                  ".reg .b64 %SP;\n.reg .b64 %SPL;\n"
                                  ".reg .pred %p<2>;\n.reg .b32 %r<8>;\n"
                                  "mov.u64 %SPL, __local_depot0;\n"
                                  "cvta.local.u64 %SP, %SPL;\n"
                                  "ld.param.u32 %r1, [n];\n"
                                  "st.u32 [%SP+0], %r1;\n"
                                  "setp.lt.u32 %p1, %r1, 2;\n"
                                  "@%p1 bra $FIB_END;\n"
                                  "add.s32 %r2, %r1, -1;\n"
                                  "{\n.param .b32 p0;\nst.param.b32 [p0], %r2;\n.param .b32 r0;\n"
                                  "call.uni (r0), fib, (p0);\nld.param.b32 %r3, [r0];\n}\n"
                                  "st.local.u32 [%SPL+4], %r3;\n"
                                  "ld.u32 %r4, [%SP+0];\n"
                                  "add.s32 %r4, %r4, -2;\n"
                                  "{\n.param .b32 p0;\nst.param.b32 [p0], %r4;\n.param .b32 r0;\n"
                                  "call.uni (r0), fib, (p0);\nld.param.b32 %r5, [r0];\n}\n"
                                  "ld.local.u32 %r6, [%SPL+4];\n"
                                  "add.u32 %r1, %r6, %r5;\n"
                                  "$FIB_END:\n"
                                  "st.param.b32 [rv], %r1;\n"
                                  "ret;\n"
                                  "}\n"
                                  ".func (.param .b64 rv) fact(.param .b32 n)\n"
                                  "{\n"
                                  ".local .align 8 .b8 __local_depot1[16];\n"
                                  ".reg .b64 %SP;\n.reg .b64 %SPL;\n"
                                  ".reg .pred %p<2>;\n.reg .b32 %r<4>;\n.reg .b64 %rd<5>;\n"
                                  "mov.u64 %SPL, __local_depot1;\n"
                                  "cvta.local.u64 %SP, %SPL;\n"
                                  "ld.param.u32 %r1, [n];\n"
                                  "cvt.u64.u32 %rd1, %r1;\n"
                                  "st.local.u64 [%SPL+8], %rd1;\n"
                                  "mov.u64 %rd2, 1;\n"
                                  "setp.lt.u32 %p1, %r1, 2;\n"
                                  "@%p1 bra $F_END;\n"
                                  "add.s32 %r2, %r1, -1;\n"
                                  "{\n.param .b32 p0;\nst.param.b32 [p0], %r2;\n.param .b64 r0;\n"
                                  "call.uni (r0), fact, (p0);\nld.param.b64 %rd3, [r0];\n}\n"
                                  "ld.u64 %rd4, [%SP+8];\n"
                                  "mul.lo.u64 %rd2, %rd3, %rd4;\n"
                                  "$F_END:\n"
                                  "st.param.b64 [rv], %rd2;\n"
                                  "ret;\n"
                                  "}\n"
                                  ".visible .entry rec(.param .u64 fo, .param .u64 ko)\n"
                                  "{\n"
                                  ".reg .b32 %r<8>;\n.reg .b64 %rd<10>;\n"
                                  "mov.u32 %r1, %tid.x;\nmov.u32 %r2, %laneid;\n"
                                  "rem.u32 %r3, %r2, 16;\n"
                                  "call.uni (%r4), fib, (%r3);\n"
                                  "rem.u32 %r5, %r2, 21;\n"
                                  "call.uni (%rd1), fact, (%r5);\n"
                                  "ld.param.u64 %rd2, [fo];\n"
                                  "mul.wide.u32 %rd3, %r1, 4;\n"
                                  "add.s64 %rd4, %rd2, %rd3;\n"
                                  "st.global.u32 [%rd4], %r4;\n"
                                  "ld.param.u64 %rd5, [ko];\n"
                                  "mul.wide.u32 %rd6, %r1, 8;\n"
                                  "add.s64 %rd7, %rd5, %rd6;\n"
                                  "st.global.u64 [%rd7], %rd1;\n"
                                  "ret;\n"
                                  "}\n";

static void test_engine_recursion_local_stack(void **state)
{
    uint32_t fo[64];
    uint64_t ko[64];
    struct kbuf b[] = {{fo, sizeof(fo)}, {ko, sizeof(ko)}};

    (void)state;
    memset(fo, 0, sizeof(fo));
    memset(ko, 0, sizeof(ko));
    run(rec_ptx, "rec", D3(1, 1, 1), D3(64, 1, 1), 0, b, 2);
    for (uint32_t t = 0; t < 64; t++) {
        uint32_t l = t % 32, fa = 0, fb = 1;
        uint64_t f = 1;

        for (uint32_t i = 0; i < l % 16; i++) {
            uint32_t s = fa + fb;
            fa = fb;
            fb = s;
        }
        for (uint64_t i = 2; i <= l % 21; i++)
            f *= i;
        assert_int_equal(fo[t], fa);
        assert_int_equal(ko[t], f);
    }
}

/* ---- indirect calls through function pointers ---------------------------- */

static const char fptr_ptx[] =
    HDR ".func (.param .b32 rv) f_add(.param .b32 a, .param .b32 b)\n"
        "{\n.reg .b32 %r<4>;\nld.param.u32 %r1, [a];\nld.param.u32 %r2, [b];\n"
        "add.u32 %r3, %r1, %r2;\nst.param.b32 [rv], %r3;\nret;\n}\n"
        ".func (.param .b32 rv) f_mul(.param .b32 a, .param .b32 b)\n"
        "{\n.reg .b32 %r<4>;\nld.param.u32 %r1, [a];\nld.param.u32 %r2, [b];\n"
        "mul.lo.u32 %r3, %r1, %r2;\nst.param.b32 [rv], %r3;\nret;\n}\n"
        ".func (.param .b32 rv) f_sub(.param .b32 a, .param .b32 b)\n"
        "{\n.reg .b32 %r<4>;\nld.param.u32 %r1, [a];\nld.param.u32 %r2, [b];\n"
        "sub.u32 %r3, %r1, %r2;\nst.param.b32 [rv], %r3;\nret;\n}\n"
        ".global .align 8 .u64 ftab[3] = {f_add, f_mul, f_sub};\n"
        ".visible .entry fptr(.param .u64 out, .param .u64 out2, .param .u64 same)\n"
        "{\n"
        ".reg .pred %p<2>;\n.reg .b32 %r<12>;\n.reg .b64 %rd<14>;\n"
        "mov.u32 %r1, %tid.x;\nmov.u32 %r2, %laneid;\n"
        "rem.u32 %r3, %r2, 3;\n"
        "mov.u64 %rd1, ftab;\n"
        "mul.wide.u32 %rd2, %r3, 8;\n"
        "add.s64 %rd3, %rd1, %rd2;\n"
        "ld.global.u64 %rd4, [%rd3];\n"
        "add.u32 %r4, %r1, 3;\n"
        "proto0 : .callprototype (.param .b32 _) _ (.param .b32 _, .param .b32 _);\n"
        "call (%r5), %rd4, (%r4, %r2), proto0;\n"
        "mov.u64 %rd5, f_sub;\n"
        "mov.u32 %r8, 100;\n"
        "call (%r6), %rd5, (%r8, %r1), proto0;\n"
        "mul.wide.u32 %rd6, %r1, 4;\n"
        "ld.param.u64 %rd7, [out];\n"
        "add.s64 %rd8, %rd7, %rd6;\n"
        "st.global.u32 [%rd8], %r5;\n"
        "ld.param.u64 %rd7, [out2];\n"
        "add.s64 %rd8, %rd7, %rd6;\n"
        "st.global.u32 [%rd8], %r6;\n"
        "ld.global.u64 %rd9, [ftab+16];\n"
        "setp.eq.u64 %p1, %rd9, %rd5;\n"
        "selp.u32 %r7, 1, 0, %p1;\n"
        "ld.param.u64 %rd7, [same];\n"
        "add.s64 %rd8, %rd7, %rd6;\n"
        "st.global.u32 [%rd8], %r7;\n"
        "ret;\n"
        "}\n";

static void test_engine_indirect_call(void **state)
{
    uint32_t out[64], out2[64], same[64];
    struct kbuf b[] = {{out, sizeof(out)}, {out2, sizeof(out2)}, {same, sizeof(same)}};

    (void)state;
    memset(out, 0, sizeof(out));
    memset(out2, 0, sizeof(out2));
    memset(same, 0, sizeof(same));
    run(fptr_ptx, "fptr", D3(1, 1, 1), D3(64, 1, 1), 0, b, 3);
    for (uint32_t t = 0; t < 64; t++) {
        uint32_t l = t % 32, a = t + 3;
        uint32_t want = l % 3 == 0 ? a + l : l % 3 == 1 ? a * l : a - l;

        assert_int_equal(out[t], want);
        assert_int_equal(out2[t], 100 - t);
        assert_int_equal(same[t], 1);
    }
}

/* ---- brx.idx with .branchtargets, divergent and uniform -------------------- */

static const char brx_ptx[] = HDR ".visible .entry brx(.param .u64 out, .param .u64 am)\n"
                                  "{\n"
                                  ".reg .b32 %r<12>;\n.reg .b64 %rd<8>;\n"
                                  "mov.u32 %r1, %tid.x;\nmov.u32 %r2, %laneid;\n"
                                  "and.b32 %r3, %r2, 3;\n"
                                  "$TS: .branchtargets $L0, $L1, $L2, $L3;\n"
                                  "brx.idx %r3, $TS;\n"
                                  "$L0:\nmov.u32 %r4, 100;\nbra $J;\n"
                                  "$L1:\nmov.u32 %r4, 200;\nbra $J;\n"
                                  "$L2:\nmov.u32 %r4, 300;\nbra $J;\n"
                                  "$L3:\nmov.u32 %r4, 400;\n"
                                  "$J:\n"
                                  "activemask.b32 %r5;\n"
                                  "shr.u32 %r6, %r1, 5;\n"
                                  "$TU: .branchtargets $U0, $U1;\n"
                                  "brx.idx.uni %r6, $TU;\n"
                                  "$U0:\nadd.u32 %r4, %r4, 10;\nbra $K;\n"
                                  "$U1:\nadd.u32 %r4, %r4, 20;\n"
                                  "$K:\n"
                                  "add.u32 %r4, %r4, %r2;\n"
                                  "mul.wide.u32 %rd1, %r1, 4;\n"
                                  "ld.param.u64 %rd2, [out];\n"
                                  "add.s64 %rd3, %rd2, %rd1;\n"
                                  "st.global.u32 [%rd3], %r4;\n"
                                  "ld.param.u64 %rd2, [am];\n"
                                  "add.s64 %rd3, %rd2, %rd1;\n"
                                  "st.global.u32 [%rd3], %r5;\n"
                                  "ret;\n"
                                  "}\n";

static void test_engine_brx_idx(void **state)
{
    uint32_t out[64], am[64];
    struct kbuf b[] = {{out, sizeof(out)}, {am, sizeof(am)}};

    (void)state;
    memset(out, 0, sizeof(out));
    memset(am, 0, sizeof(am));
    run(brx_ptx, "brx", D3(1, 1, 1), D3(64, 1, 1), 0, b, 2);
    for (uint32_t t = 0; t < 64; t++) {
        uint32_t l = t % 32;

        assert_int_equal(out[t], 100 * ((l & 3) + 1) + (t < 32 ? 10 : 20) + l);
        assert_int_equal(am[t], 0xffffffffu);
    }
}

/* ---- bar.sync inside a loop, after divergent code reconverges ----------- */

static const char barloop_ptx[] = HDR ".visible .entry barloop(.param .u64 out)\n"
                                      "{\n"
                                      ".shared .align 4 .u32 sh[96];\n"
                                      ".reg .pred %p<4>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<10>;\n"
                                      "mov.u32 %r1, %tid.x;\nmov.u32 %r2, %laneid;\n"
                                      "mov.u32 %r3, %r1;\n"
                                      "mov.u32 %r4, 0;\n"
                                      "mov.u64 %rd1, sh;\n"
                                      "mul.wide.u32 %rd2, %r1, 4;\n"
                                      "add.s64 %rd3, %rd1, %rd2;\n"
                                      "add.u32 %r5, %r1, 33;\n"
                                      "rem.u32 %r5, %r5, 96;\n"
                                      "mul.wide.u32 %rd4, %r5, 4;\n"
                                      "add.s64 %rd5, %rd1, %rd4;\n"
                                      "$LOOP:\n"
                                      "and.b32 %r6, %r2, 1;\n"
                                      "setp.eq.u32 %p1, %r6, 0;\n"
                                      "@%p1 bra $EV;\n"
                                      "add.u32 %r3, %r3, 1;\n"
                                      "bra $JN;\n"
                                      "$EV:\n"
                                      "mul.lo.u32 %r3, %r3, 3;\n"
                                      "$JN:\n"
                                      "st.shared.u32 [%rd3], %r3;\n"
                                      "bar.sync 0;\n"
                                      "ld.shared.u32 %r7, [%rd5];\n"
                                      "add.u32 %r3, %r7, %r4;\n"
                                      "bar.sync 0;\n"
                                      "add.u32 %r4, %r4, 1;\n"
                                      "setp.lt.u32 %p2, %r4, 8;\n"
                                      "@%p2 bra $LOOP;\n"
                                      "ld.param.u64 %rd6, [out];\n"
                                      "add.s64 %rd7, %rd6, %rd2;\n"
                                      "st.global.u32 [%rd7], %r3;\n"
                                      "ret;\n"
                                      "}\n";

static void test_engine_barrier_in_loop(void **state)
{
    uint32_t out[96], val[96], sh[96];
    struct kbuf b[] = {{out, sizeof(out)}};

    (void)state;
    memset(out, 0, sizeof(out));
    run(barloop_ptx, "barloop", D3(1, 1, 1), D3(96, 1, 1), 0, b, 1);
    for (uint32_t t = 0; t < 96; t++)
        val[t] = t;
    for (uint32_t it = 0; it < 8; it++) {
        for (uint32_t t = 0; t < 96; t++)
            sh[t] = (t & 1) ? val[t] + 1 : val[t] * 3;
        for (uint32_t t = 0; t < 96; t++)
            val[t] = sh[(t + 33) % 96] + it;
    }
    assert_memory_equal(out, val, sizeof(out));
}

/* ---- nvcc's call sequence in a kernel: .param variables in a { } scope --- */

static const char callseq_ptx[] =
    HDR ".func (.param .b32 rv) twice(.param .b32 a)\n"
        "{\n.reg .b32 %r<3>;\nld.param.u32 %r1, [a];\nadd.u32 %r2, %r1, %r1;\n"
        "st.param.b32 [rv], %r2;\nret;\n}\n"
        ".visible .entry callseq(.param .u64 out)\n"
        "{\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n"
        "mov.u32 %r1, %tid.x;\n"
        "{\n.param .b32 p0;\nst.param.b32 [p0], %r1;\n.param .b32 r0;\n"
        "call.uni (r0), twice, (p0);\nld.param.b32 %r2, [r0];\n}\n"
        "ld.param.u64 %rd1, [out];\nmul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\n"
        "st.global.u32 [%rd3], %r2;\nret;\n}\n";

static void test_engine_call_param_scope_in_kernel(void **state)
{
    uint32_t out[40];
    struct kbuf b[] = {{out, sizeof(out)}};

    (void)state;
    memset(out, 0, sizeof(out));
    run(callseq_ptx, "callseq", D3(1, 1, 1), D3(40, 1, 1), 0, b, 1);
    for (uint32_t t = 0; t < 40; t++)
        assert_int_equal(out[t], 2 * t);
}

/* ---- special registers in multi-CTA 2D/3D launches ------------------------ */

static const char ids_ptx[] =
    HDR ".visible .entry ids(.param .u64 out)\n"
        "{\n"
        ".reg .b32 %r<32>;\n.reg .b64 %rd<6>;\n"
        "mov.u32 %r1, %tid.x;\nmov.u32 %r2, %tid.y;\nmov.u32 %r3, %tid.z;\n"
        "mov.u32 %r4, %ntid.x;\nmov.u32 %r5, %ntid.y;\nmov.u32 %r6, %ntid.z;\n"
        "mov.u32 %r7, %ctaid.x;\nmov.u32 %r8, %ctaid.y;\nmov.u32 %r9, %ctaid.z;\n"
        "mov.u32 %r10, %nctaid.x;\nmov.u32 %r11, %nctaid.y;\nmov.u32 %r12, %nctaid.z;\n"
        "mov.u32 %r13, %laneid;\nmov.u32 %r14, %warpid;\n"
        "mad.lo.u32 %r15, %r5, %r3, %r2;\n"
        "mad.lo.u32 %r15, %r4, %r15, %r1;\n"
        "mad.lo.u32 %r16, %r11, %r9, %r8;\n"
        "mad.lo.u32 %r16, %r10, %r16, %r7;\n"
        "mul.lo.u32 %r17, %r4, %r5;\n"
        "mul.lo.u32 %r17, %r17, %r6;\n"
        "mad.lo.u32 %r18, %r16, %r17, %r15;\n"
        "mul.lo.u32 %r18, %r18, 16;\n"
        "ld.param.u64 %rd1, [out];\n"
        "mul.wide.u32 %rd2, %r18, 4;\n"
        "add.s64 %rd3, %rd1, %rd2;\n"
        "st.global.v4.u32 [%rd3], {%r1, %r2, %r3, %r4};\n"
        "st.global.v4.u32 [%rd3+16], {%r5, %r6, %r7, %r8};\n"
        "st.global.v4.u32 [%rd3+32], {%r9, %r10, %r11, %r12};\n"
        "st.global.v2.u32 [%rd3+48], {%r13, %r14};\n"
        "ret;\n"
        "}\n";

static void check_ids(struct ptxsim_dim3 g, struct ptxsim_dim3 bl)
{
    uint32_t nthr = bl.x * bl.y * bl.z, n = g.x * g.y * g.z * nthr;
    uint32_t *out = calloc(n * 16, sizeof(uint32_t));
    struct kbuf b[] = {{out, n * 16 * sizeof(uint32_t)}};

    assert_non_null(out);
    run(ids_ptx, "ids", g, bl, 0, b, 1);
    for (uint32_t c = 0; c < g.x * g.y * g.z; c++) {
        for (uint32_t t = 0; t < nthr; t++) {
            const uint32_t want[14] = {
                t % bl.x, t / bl.x % bl.y, t / (bl.x * bl.y), bl.x, bl.y, bl.z,
                c % g.x,  c / g.x % g.y,   c / (g.x * g.y),   g.x,  g.y,  g.z,
                t % 32,   t / 32};

            assert_memory_equal(&out[(c * nthr + t) * 16], want, sizeof(want));
        }
    }
    free(out);
}

static void test_engine_special_registers_3d(void **state)
{
    (void)state;
    check_ids(D3(3, 2, 2), D3(5, 4, 3)); /* 60 threads: the second warp is partial */
    check_ids(D3(4, 3, 1), D3(16, 8, 1));
    check_ids(D3(1, 1, 5), D3(1, 1, 33));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_engine_nested_divergence),
        cmocka_unit_test(test_engine_loops_break_continue),
        cmocka_unit_test(test_engine_exit_then_barrier),
        cmocka_unit_test(test_engine_divergent_call_params),
        cmocka_unit_test(test_engine_recursion_local_stack),
        cmocka_unit_test(test_engine_indirect_call),
        cmocka_unit_test(test_engine_brx_idx),
        cmocka_unit_test(test_engine_barrier_in_loop),
        cmocka_unit_test(test_engine_call_param_scope_in_kernel),
        cmocka_unit_test(test_engine_special_registers_3d),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
