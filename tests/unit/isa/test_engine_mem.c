/*
 * Functional tests of the engine's memory instructions, through the public
 * API (runtime/ptxsim.h): static and dynamic shared memory, module .global
 * variables with initialisers (generic() pointers included) and .const
 * banks, atomics and reductions under contention, vector and narrow loads
 * and stores, device printf (vprintf) and device malloc/free. Kernels are
 * hand-written PTX; results are checked against plain C computed here.
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

struct env {
    struct ptxsim_device *d;
    struct ptxsim_module *m;
};

static void fail_with(struct ptxsim_device *d, const char *what)
{
    const struct ps_err *e = ptxsim_last_error_info(d);

    print_error("%s failed: %s (%s:%u:%u)\n", what, e->msg, e->file, e->line, e->col);
    fail();
}

static void env_open(struct env *e, const char *ptx, const struct ptxsim_options *o)
{
    assert_int_equal(ptxsim_device_create(o, &e->d), 0);
    if (ptxsim_module_load(e->d, ptx, strlen(ptx), "test.ptx", &e->m))
        fail_with(e->d, "module load");
}

static void env_close(struct env *e)
{
    ptxsim_module_unload(e->m);
    ptxsim_device_destroy(e->d);
}

/* Copies each buffer to fresh device memory, launches with their addresses, copies back. */
static void env_launch(struct env *e, const char *kernel, struct ptxsim_dim3 grid,
                       struct ptxsim_dim3 block, uint32_t dyn, struct kbuf *b, int nb)
{
    uint64_t addr[8];
    void *args[8];

    assert_true(nb <= 8);
    for (int i = 0; i < nb; i++) {
        assert_int_equal(ptxsim_malloc(e->d, b[i].bytes, &addr[i]), 0);
        assert_int_equal(ptxsim_memcpy_htod(e->d, addr[i], b[i].host, b[i].bytes), 0);
        args[i] = &addr[i];
    }
    if (ptxsim_launch(e->m, kernel, grid, block, dyn, args))
        fail_with(e->d, "launch");
    for (int i = 0; i < nb; i++) {
        assert_int_equal(ptxsim_memcpy_dtoh(e->d, b[i].host, addr[i], b[i].bytes), 0);
        assert_int_equal(ptxsim_free(e->d, addr[i]), 0);
    }
}

static void run(const char *ptx, const char *kernel, struct ptxsim_dim3 grid,
                struct ptxsim_dim3 block, uint32_t dyn, struct kbuf *b, int nb)
{
    struct env e;

    env_open(&e, ptx, NULL);
    env_launch(&e, kernel, grid, block, dyn, b, nb);
    env_close(&e);
}

/* ---- address width: 32-bit registers wrap, 64-bit ones do not ---------------- */

/* out[tid] = sh[tid] read as [%r+64] with %r = sh + 4*tid - 64 + 2^32 (wraps back). */
static const char wrap_ptx[] = HDR ".visible .entry wrap(.param .u64 out, .param .u64 far)\n"
                                   "{\n"
                                   ".shared .align 4 .u32 sh[32];\n"
                                   ".reg .pred %p<2>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n"
                                   "mov.u32 %r1, %tid.x;\n"
                                   "mov.u32 %r2, sh;\n"
                                   "shl.b32 %r3, %r1, 2;\n"
                                   "add.s32 %r4, %r2, %r3;\n"
                                   "mad.lo.u32 %r5, %r1, 9, 2;\n"
                                   "st.shared.u32 [%r4], %r5;\n"
                                   "sub.s32 %r6, %r4, 64;\n"
                                   "ld.shared.u32 %r7, [%r6+64];\n"
                                   "ld.param.u64 %rd1, [out];\n"
                                   "mul.wide.u32 %rd2, %r1, 4;\n"
                                   "add.s64 %rd3, %rd1, %rd2;\n"
                                   "st.global.u32 [%rd3], %r7;\n"
                                   "ld.param.u64 %rd4, [far];\n"
                                   "setp.eq.u64 %p1, %rd4, 0;\n"
                                   "@%p1 ret;\n"
                                   "st.global.u32 [%rd3+4294967296], %r7;\n"
                                   "ret;\n"
                                   "}\n";

static void test_engine_address_width(void **state)
{
    struct env e;
    uint64_t out, far0 = 0, far1 = 1;
    uint32_t host[32];
    void *args[2] = {&out, &far0};

    (void)state;
    env_open(&e, wrap_ptx, NULL);
    assert_int_equal(ptxsim_malloc(e.d, sizeof(host), &out), 0);
    if (ptxsim_launch(e.m, "wrap", D3(1, 1, 1), D3(32, 1, 1), 0, args))
        fail_with(e.d, "launch");
    assert_int_equal(ptxsim_memcpy_dtoh(e.d, host, out, sizeof(host)), 0);
    for (uint32_t i = 0; i < 32; i++)
        assert_int_equal(host[i], i * 9 + 2);
    /* A 64-bit address plus 2^32 stays 64 bits wide: outside every allocation. */
    args[1] = &far1;
    assert_int_equal(ptxsim_launch(e.m, "wrap", D3(1, 1, 1), D3(32, 1, 1), 0, args), PS_EFAULT);
    ptxsim_free(e.d, out);
    env_close(&e);
}

/* ---- static and dynamic shared memory -------------------------------------- */

static const char dsh_ptx[] = HDR ".extern .shared .align 16 .b8 dyn[];\n"
                                  ".visible .entry dsh(.param .u64 out)\n"
                                  "{\n"
                                  ".shared .align 4 .u32 sst[16];\n"
                                  ".reg .pred %p<2>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<16>;\n"
                                  "mov.u32 %r1, %tid.x;\n"
                                  "mul.wide.u32 %rd1, %r1, 4;\n"
                                  "mov.u64 %rd2, sst;\n"
                                  "mov.u64 %rd3, dyn;\n"
                                  "cvta.shared.u64 %rd4, %rd3;\n"
                                  "setp.ge.u32 %p1, %r1, 16;\n"
                                  "add.u32 %r2, %r1, 5000;\n"
                                  "add.s64 %rd5, %rd2, %rd1;\n"
                                  "@!%p1 st.shared.u32 [%rd5], %r2;\n"
                                  "mul.lo.u32 %r3, %r1, 5;\n"
                                  "add.s64 %rd6, %rd3, %rd1;\n"
                                  "st.shared.u32 [%rd6], %r3;\n"
                                  "mul.lo.u32 %r4, %r1, 7;\n"
                                  "add.s64 %rd7, %rd4, %rd1;\n"
                                  "st.u32 [%rd7+256], %r4;\n"
                                  "bar.sync 0;\n"
                                  "add.u32 %r5, %r1, 1;\nrem.u32 %r5, %r5, 64;\n"
                                  "mul.wide.u32 %rd8, %r5, 4;\nadd.s64 %rd9, %rd3, %rd8;\n"
                                  "ld.shared.u32 %r6, [%rd9];\n"
                                  "rem.u32 %r7, %r1, 16;\n"
                                  "mul.wide.u32 %rd10, %r7, 4;\nadd.s64 %rd11, %rd2, %rd10;\n"
                                  "ld.shared.u32 %r8, [%rd11];\n"
                                  "add.u32 %r9, %r1, 3;\nrem.u32 %r9, %r9, 64;\n"
                                  "mul.wide.u32 %rd12, %r9, 4;\nadd.s64 %rd13, %rd4, %rd12;\n"
                                  "ld.u32 %r10, [%rd13+256];\n"
                                  "mov.u32 %r11, %dynamic_smem_size;\n"
                                  "ld.param.u64 %rd14, [out];\n"
                                  "mul.wide.u32 %rd15, %r1, 16;\n"
                                  "add.s64 %rd14, %rd14, %rd15;\n"
                                  "st.global.v4.u32 [%rd14], {%r6, %r8, %r10, %r11};\n"
                                  "ret;\n"
                                  "}\n";

static void test_engine_dynamic_and_static_shared(void **state)
{
    uint32_t out[64 * 4];
    struct kbuf b[] = {{out, sizeof(out)}};

    (void)state;
    memset(out, 0, sizeof(out));
    run(dsh_ptx, "dsh", D3(2, 1, 1), D3(64, 1, 1), 512, b, 1);
    for (uint32_t t = 0; t < 64; t++) {
        const uint32_t want[4] = {(t + 1) % 64 * 5, t % 16 + 5000, (t + 3) % 64 * 7, 512};

        assert_memory_equal(&out[t * 4], want, sizeof(want));
    }
}

/* ---- module .global variables with initialisers; .const banks ----------- */

static const char gvar_ptx[] =
    HDR ".global .align 4 .u32 gtab[4] = {10, 20, 30, 40};\n"
        ".global .align 8 .u64 gptr = generic(gtab);\n"
        ".global .align 8 .u64 gptr2[2] = {gtab, generic(gtab)+8};\n"
        ".global .align 4 .f32 gf = 0f3FC00000;\n"
        ".global .align 8 .f64 gd[2] = {2.5, 0d4010000000000000};\n"
        ".global .align 1 .s8 gs8[3] = {-1, 2, -3};\n"
        ".global .align 4 .u32 ghost[4];\n"
        ".global .align 4 .u32 gcnt;\n"
        ".const .align 4 .u32 ctab[8] = {3, 1, 4, 1, 5, 9, 2, 6};\n"
        ".const .align 8 .f64 cd = 0d400921FB54442D18;\n"
        ".const .align 4 .u32 chost[32];\n"
        ".visible .entry gvars(.param .u64 out)\n"
        "{\n"
        ".reg .b32 %r<16>;\n.reg .b64 %rd<16>;\n.reg .f32 %f<2>;\n.reg .f64 %fd<4>;\n"
        "mov.u32 %r1, %tid.x;\n"
        "ld.global.u64 %rd1, [gptr];\n"
        "ld.u32 %r2, [%rd1+4];\n"
        "ld.global.u64 %rd2, [gptr2+8];\n"
        "ld.u32 %r3, [%rd2];\n"
        "ld.global.u64 %rd3, [gptr2];\n"
        "ld.global.u32 %r4, [%rd3+12];\n"
        "ld.global.f32 %f1, [gf];\n"
        "mov.b32 %r5, %f1;\n"
        "ld.global.s8 %r6, [gs8+2];\n"
        "ld.global.u32 %r7, [ghost+8];\n"
        "st.global.u32 [gcnt], 77;\n"
        "rem.u32 %r8, %r1, 8;\n"
        "mul.wide.u32 %rd4, %r8, 4;\n"
        "mov.u64 %rd5, ctab;\n"
        "add.s64 %rd6, %rd5, %rd4;\n"
        "ld.const.u32 %r9, [%rd6];\n"
        "mul.wide.u32 %rd7, %r1, 4;\n"
        "mov.u64 %rd8, chost;\n"
        "add.s64 %rd9, %rd8, %rd7;\n"
        "ld.const.u32 %r10, [%rd9];\n"
        "add.u32 %r9, %r9, %r10;\n"
        "ld.global.f64 %fd1, [gd];\n"
        "ld.global.f64 %fd2, [gd+8];\n"
        "ld.const.f64 %fd3, [cd];\n"
        "ld.param.u64 %rd10, [out];\n"
        "mul.wide.u32 %rd11, %r1, 64;\n"
        "add.s64 %rd12, %rd10, %rd11;\n"
        "st.global.v4.u32 [%rd12], {%r2, %r3, %r4, %r5};\n"
        "st.global.v4.u32 [%rd12+16], {%r6, %r7, %r9, %r1};\n"
        "st.global.f64 [%rd12+32], %fd1;\n"
        "st.global.f64 [%rd12+40], %fd2;\n"
        "st.global.f64 [%rd12+48], %fd3;\n"
        "st.global.u64 [%rd12+56], %rd3;\n"
        "ret;\n"
        "}\n";

static void test_engine_module_variables(void **state)
{
    static const uint32_t ctab[8] = {3, 1, 4, 1, 5, 9, 2, 6};
    uint32_t out[32 * 16], ghost[4] = {0, 0, 1234567, 0}, chost[32], gcnt = 0;
    uint64_t a_gtab, a_gptr, a_ghost, a_chost, a_gcnt, v;
    struct kbuf b[] = {{out, sizeof(out)}};
    struct env e;
    size_t size;

    (void)state;
    for (uint32_t i = 0; i < 32; i++)
        chost[i] = 1000 * i;
    memset(out, 0, sizeof(out));
    env_open(&e, gvar_ptx, NULL);
    assert_int_equal(ptxsim_module_symbol(e.m, "gtab", &a_gtab, &size), 0);
    assert_int_equal(size, 16);
    assert_int_equal(ptxsim_module_symbol(e.m, "gptr", &a_gptr, &size), 0);
    assert_int_equal(size, 8);
    assert_int_equal(ptxsim_memcpy_dtoh(e.d, &v, a_gptr, 8), 0);
    assert_int_equal(v, a_gtab);
    assert_int_equal(ptxsim_module_symbol(e.m, "ghost", &a_ghost, &size), 0);
    assert_int_equal(ptxsim_memcpy_htod(e.d, a_ghost, ghost, sizeof(ghost)), 0);
    assert_int_equal(ptxsim_module_symbol(e.m, "chost", &a_chost, &size), 0);
    assert_int_equal(size, sizeof(chost));
    assert_int_equal(ptxsim_memcpy_htod(e.d, a_chost, chost, sizeof(chost)), 0);
    assert_int_equal(ptxsim_module_symbol(e.m, "nosuch", &v, &size), PS_ENOTFOUND);
    env_launch(&e, "gvars", D3(1, 1, 1), D3(32, 1, 1), 0, b, 1);
    assert_int_equal(ptxsim_module_symbol(e.m, "gcnt", &a_gcnt, &size), 0);
    assert_int_equal(ptxsim_memcpy_dtoh(e.d, &gcnt, a_gcnt, 4), 0);
    assert_int_equal(gcnt, 77);
    for (uint32_t t = 0; t < 32; t++) {
        const uint32_t *o = &out[t * 16];
        const uint32_t want[8] = {
            20, 30, 40, 0x3fc00000, (uint32_t)-3, 1234567, ctab[t % 8] + 1000 * t, t};
        double d[3];

        assert_memory_equal(o, want, sizeof(want));
        memcpy(d, &o[8], sizeof(d));
        assert_true(d[0] == 2.5 && d[1] == 4.0 && d[2] == 3.141592653589793);
        memcpy(&v, &o[14], 8);
        assert_int_equal(v, a_gtab);
    }
    env_close(&e);
}

/* ---- atomics and reductions under contention ----------------------------- */

static const char atom_ptx[] =
    HDR ".visible .entry atoms(.param .u64 cells, .param .u64 olds)\n"
        "{\n"
        ".shared .align 4 .u32 scnt;\n"
        ".reg .pred %p<4>;\n.reg .b32 %r<32>;\n.reg .b64 %rd<24>;\n"
        ".reg .f32 %f<4>;\n.reg .f64 %fd<4>;\n"
        "mov.u32 %r1, %tid.x;\nmov.u32 %r2, %ctaid.x;\nmov.u32 %r3, %ntid.x;\n"
        "mad.lo.u32 %r4, %r2, %r3, %r1;\n"
        "ld.param.u64 %rd1, [cells];\n"
        "ld.param.u64 %rd2, [olds];\n"
        "mul.wide.u32 %rd3, %r4, 4;\n"
        "add.s64 %rd4, %rd2, %rd3;\n"
        "setp.ne.u32 %p1, %r1, 0;\n"
        "@!%p1 st.shared.u32 [scnt], 0;\n"
        "bar.sync 0;\n"
        "atom.global.add.u32 %r5, [%rd1], 1;\n"
        "st.global.u32 [%rd4], %r5;\n"
        "add.u32 %r6, %r4, 1;\n"
        "red.global.add.u32 [%rd1+4], %r6;\n"
        "$SPIN:\n"
        "ld.volatile.global.u32 %r7, [%rd1+8];\n"
        "add.u32 %r8, %r7, 1;\n"
        "atom.global.cas.b32 %r9, [%rd1+8], %r7, %r8;\n"
        "setp.ne.u32 %p2, %r9, %r7;\n"
        "@%p2 bra $SPIN;\n"
        "st.global.u32 [%rd4+2048], %r7;\n"
        "atom.global.inc.u32 %r10, [%rd1+12], 9;\n"
        "atom.global.dec.u32 %r10, [%rd1+16], 9;\n"
        "atom.global.exch.b32 %r11, [%rd1+20], %r4;\n"
        "st.global.u32 [%rd4+4096], %r11;\n"
        "sub.u32 %r12, %r4, 300;\n"
        "atom.global.min.s32 %r13, [%rd1+24], %r12;\n"
        "atom.global.min.u32 %r13, [%rd1+28], %r12;\n"
        "atom.global.max.s32 %r13, [%rd1+32], %r12;\n"
        "atom.global.max.u32 %r13, [%rd1+36], %r12;\n"
        "and.b32 %r14, %r4, 31;\n"
        "shl.b32 %r15, 1, %r14;\n"
        "not.b32 %r16, %r15;\n"
        "atom.global.and.b32 %r13, [%rd1+40], %r16;\n"
        "rem.u32 %r17, %r4, 31;\n"
        "shl.b32 %r18, 1, %r17;\n"
        "atom.global.or.b32 %r13, [%rd1+44], %r18;\n"
        "atom.global.xor.b32 %r13, [%rd1+48], %r4;\n"
        "cvt.rn.f32.u32 %f1, %r4;\n"
        "mul.rn.f32 %f1, %f1, 0f3E800000;\n"
        "atom.global.add.f32 %f2, [%rd1+52], %f1;\n"
        "cvt.rn.f64.u32 %fd1, %r4;\n"
        "fma.rn.f64 %fd1, %fd1, 0d3FE0000000000000, 0d4130000000000000;\n"
        "atom.global.add.f64 %fd2, [%rd1+56], %fd1;\n"
        "atom.global.add.u64 %rd5, [%rd1+64], 4294967297;\n"
        "cvt.u64.u32 %rd6, %r4;\n"
        "sub.s64 %rd7, %rd6, 1000;\n"
        "atom.global.min.s64 %rd8, [%rd1+72], %rd7;\n"
        "red.global.add.u64 [%rd1+80], 8589934592;\n"
        "red.global.or.b32 [%rd1+88], %r15;\n"
        "atom.shared.add.u32 %r19, [scnt], %r1;\n"
        "bar.sync 0;\n"
        "@%p1 bra $END;\n"
        "ld.shared.u32 %r20, [scnt];\n"
        "mul.wide.u32 %rd9, %r2, 4;\n"
        "add.s64 %rd10, %rd1, %rd9;\n"
        "st.global.u32 [%rd10+96], %r20;\n"
        "$END:\n"
        "ret;\n"
        "}\n";

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

    return x < y ? -1 : x > y;
}

/* Whether v[0..n) sorted is base, base+1, ..., base+n-1. */
static int is_permutation(uint32_t *v, uint32_t n, uint32_t base)
{
    qsort(v, n, sizeof(*v), cmp_u32);
    for (uint32_t i = 0; i < n; i++)
        if (v[i] != base + i)
            return 0;
    return 1;
}

enum { NATOM = 512 };

/* The float and 64-bit cells of the atoms kernel. */
static void check_wide_cells(const uint32_t *cells)
{
    const uint32_t n = NATOM;
    uint64_t u64;
    int64_t s64;
    float f;
    double d;

    memcpy(&f, &cells[13], 4);
    assert_true(f == 0.25f * (float)(n * (n - 1) / 2));
    memcpy(&d, &cells[14], 8);
    assert_true(d == 0.5 * (n * (n - 1) / 2) + (double)n * 1048576.0);
    memcpy(&u64, &cells[16], 8);
    assert_int_equal(u64, (uint64_t)n * UINT64_C(0x100000001));
    memcpy(&s64, &cells[18], 8);
    assert_int_equal(s64, -1000);
    memcpy(&u64, &cells[20], 8);
    assert_int_equal(u64, (uint64_t)n << 33);
}

static void test_engine_atomics_contention(void **state)
{
    enum { N = NATOM };
    uint32_t cells[28] = {0}, *olds = calloc(3 * N + 1, sizeof(uint32_t)), xo = 0, dec = 0;
    struct kbuf b[] = {{cells, sizeof(cells)}, {olds, 3 * N * sizeof(uint32_t)}};

    (void)state;
    assert_non_null(olds);
    cells[5] = 0xabcdef; /* exch: the first old value */
    cells[6] = (uint32_t)INT32_MAX;
    cells[7] = UINT32_MAX;
    cells[8] = (uint32_t)INT32_MIN;
    cells[10] = UINT32_MAX;
    run(atom_ptx, "atoms", D3(4, 1, 1), D3(128, 1, 1), 0, b, 2);
    for (uint32_t i = 0; i < N; i++) {
        xo ^= i;
        dec = (dec == 0 || dec > 9) ? 9 : dec - 1;
    }
    assert_int_equal(cells[0], N);
    assert_int_equal(cells[1], N * (N + 1) / 2);
    assert_int_equal(cells[2], N);
    assert_int_equal(cells[3], N % 10);
    assert_int_equal(cells[4], dec);
    assert_int_equal((int32_t)cells[6], -300);
    assert_int_equal(cells[7], 0);
    assert_int_equal((int32_t)cells[8], N - 1 - 300);
    assert_int_equal(cells[9], UINT32_MAX);
    assert_int_equal(cells[10], 0);
    assert_int_equal(cells[11], 0x7fffffff);
    assert_int_equal(cells[12], xo);
    check_wide_cells(cells);
    assert_int_equal(cells[22], UINT32_MAX);
    for (int c = 0; c < 4; c++)
        assert_int_equal(cells[24 + c], 128 * 127 / 2);
    assert_true(is_permutation(olds, N, 0));     /* atom.add olds */
    assert_true(is_permutation(olds + N, N, 0)); /* successful CAS olds */
    olds[3 * N] = cells[5];                      /* exch: olds + final = init + tids */
    for (uint32_t i = 2 * N; i <= 3 * N; i++)
        if (olds[i] == 0xabcdef)
            olds[i] = N;
    assert_true(is_permutation(olds + 2 * N, N + 1, 0));
    free(olds);
}

/* ---- half-precision atomics ------------------------------------------------ */

static const char hatom_ptx[] = HDR ".visible .entry hatom(.param .u64 cells)\n"
                                    "{\n"
                                    ".reg .b16 %h<3>;\n.reg .b32 %r<6>;\n.reg .b64 %rd<2>;\n"
                                    "ld.param.u64 %rd1, [cells];\n"
                                    "mov.b32 %r1, 0x3C003C00;\n"
                                    "atom.global.add.noftz.f16x2 %r2, [%rd1], %r1;\n"
                                    "mov.b32 %r3, 0x3F803F80;\n"
                                    "atom.global.add.noftz.bf16x2 %r4, [%rd1+4], %r3;\n"
                                    "mov.b16 %h1, 0x3C00;\n"
                                    "atom.global.add.noftz.f16 %h2, [%rd1+8], %h1;\n"
                                    "ret;\n"
                                    "}\n";

static void test_engine_half_atomics(void **state)
{
    uint32_t cells[3] = {0, 0, 0};
    struct kbuf b[] = {{cells, sizeof(cells)}};

    (void)state;
    run(hatom_ptx, "hatom", D3(1, 1, 1), D3(4, 1, 1), 0, b, 1);
    assert_int_equal(cells[0], 0x44004400);
    assert_int_equal(cells[1], 0x40804080);
    assert_int_equal(cells[2], 0x4400);
}

/* ---- vector loads and stores ----------------------------------------------- */

static const char vec_ptx[] =
    HDR ".visible .entry vec(.param .u64 in, .param .u64 out)\n"
        "{\n"
        ".shared .align 16 .u32 sv[128];\n"
        ".reg .b32 %r<16>;\n.reg .b64 %rd<16>;\n.reg .f32 %f<4>;\n.reg .b16 %h<4>;\n"
        "mov.u32 %r1, %tid.x;\n"
        "ld.param.u64 %rd1, [in];\nld.param.u64 %rd2, [out];\n"
        "mul.wide.u32 %rd3, %r1, 64;\n"
        "add.s64 %rd4, %rd1, %rd3;\nadd.s64 %rd5, %rd2, %rd3;\n"
        "ld.global.v4.u32 {%r2, %r3, %r4, %r5}, [%rd4];\n"
        "st.global.v4.u32 [%rd5], {%r5, %r4, %r3, %r2};\n"
        "ld.global.v2.f32 {%f1, %f2}, [%rd4+16];\n"
        "add.rn.f32 %f3, %f1, %f2;\n"
        "st.global.v2.f32 [%rd5+16], {%f2, %f3};\n"
        "ld.global.v2.u64 {%rd6, %rd7}, [%rd4+32];\n"
        "xor.b64 %rd8, %rd6, %rd7;\n"
        "st.global.v2.u64 [%rd5+32], {%rd7, %rd8};\n"
        "ld.global.v4.u16 {%h0, %h1, %h2, %h3}, [%rd4+48];\n"
        "st.global.v4.u16 [%rd5+48], {%h3, %h2, %h1, %h0};\n"
        "mov.u64 %rd9, sv;\n"
        "mul.wide.u32 %rd10, %r1, 16;\n"
        "add.s64 %rd11, %rd9, %rd10;\n"
        "st.shared.v4.u32 [%rd11], {%r2, %r3, %r4, %r5};\n"
        "bar.sync 0;\n"
        "add.u32 %r6, %r1, 1;\nrem.u32 %r6, %r6, 32;\n"
        "mul.wide.u32 %rd12, %r6, 16;\nadd.s64 %rd13, %rd9, %rd12;\n"
        "ld.shared.v4.u32 {%r7, %r8, %r9, %r10}, [%rd13];\n"
        "st.global.v2.u32 [%rd5+56], {%r7, %r10};\n"
        "ret;\n"
        "}\n";

static void test_engine_vector_ld_st(void **state)
{
    uint32_t in[32 * 16], out[32 * 16];
    struct kbuf b[] = {{in, sizeof(in)}, {out, sizeof(out)}};

    (void)state;
    for (uint32_t i = 0; i < 32 * 16; i++)
        in[i] = i * 2654435761u;
    for (uint32_t t = 0; t < 32; t++) {
        float f[2] = {(float)t * 1.5f, 0.25f};
        memcpy(&in[t * 16 + 4], f, sizeof(f));
    }
    memset(out, 0, sizeof(out));
    run(vec_ptx, "vec", D3(1, 1, 1), D3(32, 1, 1), 0, b, 2);
    for (uint32_t t = 0; t < 32; t++) {
        const uint32_t *i = &in[t * 16], *o = &out[t * 16], *n = &in[(t + 1) % 32 * 16];
        const uint32_t w4[4] = {i[3], i[2], i[1], i[0]};
        uint64_t x[2], y[2];
        uint16_t h[4], g[4];
        float f[2], fi[2];

        assert_memory_equal(o, w4, sizeof(w4));
        memcpy(fi, &i[4], 8);
        memcpy(f, &o[4], 8);
        assert_true(f[0] == fi[1] && f[1] == fi[0] + fi[1]);
        memcpy(x, &i[8], 16);
        memcpy(y, &o[8], 16);
        assert_true(y[0] == x[1] && y[1] == (x[0] ^ x[1]));
        memcpy(h, &i[12], 8);
        memcpy(g, &o[12], 8);
        assert_true(g[0] == h[3] && g[1] == h[2] && g[2] == h[1] && g[3] == h[0]);
        assert_true(o[14] == n[0] && o[15] == n[3]);
    }
}

/* ---- u8/s8/u16/s16 loads (sign and zero extension) and narrow stores ---- */

static const char narrow_ptx[] = HDR ".visible .entry narrow(.param .u64 in, .param .u64 out)\n"
                                     "{\n"
                                     ".reg .b32 %r<16>;\n.reg .b64 %rd<8>;\n.reg .b16 %rs<2>;\n"
                                     "ld.param.u64 %rd1, [in];\nld.param.u64 %rd2, [out];\n"
                                     "ld.global.s8 %r1, [%rd1];\n"
                                     "ld.global.u8 %r2, [%rd1];\n"
                                     "ld.global.s8 %r3, [%rd1+1];\n"
                                     "ld.global.s8 %r4, [%rd1+2];\n"
                                     "ld.global.s16 %r5, [%rd1+4];\n"
                                     "ld.global.u16 %r6, [%rd1+4];\n"
                                     "ld.global.s16 %rs1, [%rd1+6];\n"
                                     "cvt.s32.s16 %r7, %rs1;\n"
                                     "ld.global.s8 %rd3, [%rd1];\n"
                                     "ld.global.u8 %rd4, [%rd1+2];\n"
                                     "st.global.v4.u32 [%rd2], {%r1, %r2, %r3, %r4};\n"
                                     "st.global.v4.u32 [%rd2+16], {%r5, %r6, %r7, %r7};\n"
                                     "st.global.v2.u64 [%rd2+32], {%rd3, %rd4};\n"
                                     "mov.u32 %r8, 0x12345678;\n"
                                     "st.global.u8 [%rd2+49], %r8;\n"
                                     "st.global.u16 [%rd2+52], %r8;\n"
                                     "st.global.s8 [%rd2+55], %r4;\n"
                                     "ret;\n"
                                     "}\n";

static void test_engine_narrow_loads_stores(void **state)
{
    uint8_t in[8] = {0xf0, 0x7f, 0x80, 0x01, 0x01, 0x80, 0xff, 0xff}, out[64];
    struct kbuf b[] = {{in, sizeof(in)}, {out, sizeof(out)}};
    const uint32_t w32[8] = {0xfffffff0, 0xf0,   0x7f,       0xffffff80,
                             0xffff8001, 0x8001, 0xffffffff, 0xffffffff};
    const uint64_t w64[2] = {UINT64_C(0xfffffffffffffff0), 0x80};
    const uint8_t wtail[8] = {0xee, 0x78, 0xee, 0xee, 0x78, 0x56, 0xee, 0x80};

    (void)state;
    memset(out, 0xee, sizeof(out));
    run(narrow_ptx, "narrow", D3(1, 1, 1), D3(1, 1, 1), 0, b, 2);
    assert_memory_equal(out, w32, sizeof(w32));
    assert_memory_equal(out + 32, w64, sizeof(w64));
    assert_memory_equal(out + 48, wtail, sizeof(wtail));
}

/* ---- device printf (vprintf) ------------------------------------------------ */

/* PTX byte list {99, 116, ...} of s with its NUL. */
static void byte_list(char *dst, size_t cap, const char *s)
{
    size_t n = 0;

    n += (size_t)snprintf(dst + n, cap - n, "{");
    for (const char *p = s;; p++) {
        n += (size_t)snprintf(dst + n, cap - n, "%d%s", (unsigned char)*p, *p ? ", " : "}");
        if (!*p)
            break;
    }
}

static const char printf_tmpl[] = HDR
    ".extern .func (.param .b32 func_retval0) vprintf(.param .b64 vprintf_param_0, "
    ".param .b64 vprintf_param_1);\n"
    ".global .align 1 .b8 $str[%zu] = %s;\n"
    ".global .align 1 .b8 $str1[%zu] = %s;\n"
    ".global .align 1 .b8 $str2[%zu] = %s;\n"
    ".visible .entry pf(.param .u64 out)\n"
    "{\n"
    ".local .align 8 .b8 __local_depot0[32];\n"
    ".reg .b64 %%SP;\n.reg .b64 %%SPL;\n"
    ".reg .pred %%p<2>;\n.reg .b32 %%r<16>;\n.reg .b64 %%rd<16>;\n.reg .f64 %%fd<2>;\n"
    "mov.u64 %%SPL, __local_depot0;\n"
    "cvta.local.u64 %%SP, %%SPL;\n"
    "mov.u32 %%r1, %%tid.x;\nmov.u32 %%r2, %%ctaid.x;\n"
    "st.local.v2.u32 [%%SPL], {%%r2, %%r1};\n"
    "mov.u64 %%rd1, $str1;\ncvta.global.u64 %%rd2, %%rd1;\n"
    "st.local.u64 [%%SPL+8], %%rd2;\n"
    "cvt.rn.f64.u32 %%fd1, %%r1;\nmul.rn.f64 %%fd1, %%fd1, 0d3FD0000000000000;\n"
    "st.local.f64 [%%SPL+16], %%fd1;\n"
    "add.s32 %%r3, %%r1, -2;\nmul.wide.s32 %%rd3, %%r3, 1000000000;\n"
    "mul.lo.s64 %%rd3, %%rd3, 1000;\n"
    "st.local.u64 [%%SPL+24], %%rd3;\n"
    "mov.u64 %%rd4, $str;\ncvta.global.u64 %%rd5, %%rd4;\n"
    "add.u64 %%rd6, %%SP, 0;\n"
    "call.uni (%%r4), vprintf, (%%rd5, %%rd6);\n"
    "and.b32 %%r5, %%r1, 1;\nsetp.eq.u32 %%p1, %%r5, 0;\n"
    "mov.u32 %%r6, 0;\n"
    "@%%p1 bra $SKIP;\n"
    "st.local.u32 [%%SPL], %%r1;\n"
    "mov.u64 %%rd7, $str2;\ncvta.global.u64 %%rd8, %%rd7;\n"
    "call.uni (%%r6), vprintf, (%%rd8, %%rd6);\n"
    "$SKIP:\n"
    "ld.param.u64 %%rd9, [out];\n"
    "mov.u32 %%r7, %%ntid.x;\nmad.lo.u32 %%r8, %%r2, %%r7, %%r1;\n"
    "mul.wide.u32 %%rd10, %%r8, 8;\nadd.s64 %%rd11, %%rd9, %%rd10;\n"
    "st.global.v2.u32 [%%rd11], {%%r4, %%r6};\n"
    "ret;\n"
    "}\n";

static void test_engine_device_printf(void **state)
{
    const char *f0 = "cta %d tid %d: %s %.2f %lld\n", *f1 = "hi", *f2 = "odd %d\n";
    char l0[256], l1[64], l2[128], ptx[4096], text[1024], want[1024];
    uint32_t out[16];
    struct kbuf b[] = {{out, sizeof(out)}};
    struct ptxsim_options o;
    struct env e;
    size_t n = 0, got;
    FILE *fp = tmpfile();

    (void)state;
    assert_non_null(fp);
    byte_list(l0, sizeof(l0), f0);
    byte_list(l1, sizeof(l1), f1);
    byte_list(l2, sizeof(l2), f2);
    snprintf(ptx, sizeof(ptx), printf_tmpl, strlen(f0) + 1, l0, strlen(f1) + 1, l1, strlen(f2) + 1,
             l2);
    ptxsim_options_default(&o);
    o.printf_out = fp;
    memset(out, 0xee, sizeof(out));
    env_open(&e, ptx, &o);
    env_launch(&e, "pf", D3(2, 1, 1), D3(4, 1, 1), 0, b, 1);
    env_close(&e);
    rewind(fp);
    got = fread(text, 1, sizeof(text) - 1, fp);
    text[got] = '\0';
    fclose(fp);
    for (int c = 0; c < 2; c++) {
        for (int t = 0; t < 4; t++)
            n += (size_t)snprintf(want + n, sizeof(want) - n, f0, c, t, "hi", t * 0.25,
                                  (long long)(t - 2) * 1000000000000LL);
        n += (size_t)snprintf(want + n, sizeof(want) - n, "odd 1\nodd 3\n");
    }
    assert_string_equal(text, want);
    for (int i = 0; i < 8; i++) {
        assert_int_equal(out[2 * i], 5);
        assert_int_equal(out[2 * i + 1], (i & 1) ? 1 : 0);
    }
}

static const char printf_null_ptx[] =
    HDR ".extern .func (.param .b32 func_retval0) vprintf(.param .b64 vprintf_param_0, "
        ".param .b64 vprintf_param_1);\n"
        ".visible .entry pfnull(.param .u64 out)\n"
        "{\n.reg .b32 %r<2>;\n.reg .b64 %rd<3>;\n"
        "mov.u64 %rd1, 0;\n"
        "call.uni (%r1), vprintf, (%rd1, %rd1);\n"
        "ld.param.u64 %rd2, [out];\nst.global.u32 [%rd2], %r1;\nret;\n}\n";

static void test_engine_printf_null_format(void **state)
{
    int32_t out = 0;
    struct kbuf b[] = {{&out, sizeof(out)}};

    (void)state;
    run(printf_null_ptx, "pfnull", D3(1, 1, 1), D3(1, 1, 1), 0, b, 1);
    assert_int_equal(out, -1);
}

/* ---- device malloc and free ------------------------------------------------- */

static const char malloc_ptx[] =
    HDR ".extern .func (.param .b64 func_retval0) malloc(.param .b64 malloc_param_0);\n"
        ".extern .func free(.param .b64 free_param_0);\n"
        ".visible .entry dmalloc(.param .u64 out, .param .u64 keep)\n"
        "{\n"
        ".reg .pred %p<4>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<16>;\n"
        "mov.u32 %r1, %tid.x;\n"
        "add.u32 %r2, %r1, 4;\n"
        "mul.wide.u32 %rd1, %r2, 4;\n"
        "call.uni (%rd2), malloc, (%rd1);\n"
        "mov.u32 %r3, 0;\n"
        "$W:\n"
        "mad.lo.u32 %r4, %r3, %r1, 1;\n"
        "mul.wide.u32 %rd3, %r3, 4;\nadd.s64 %rd4, %rd2, %rd3;\n"
        "st.u32 [%rd4], %r4;\n"
        "add.u32 %r3, %r3, 1;\n"
        "setp.lt.u32 %p1, %r3, %r2;\n"
        "@%p1 bra $W;\n"
        "mov.u32 %r5, 0;\nmov.u32 %r3, 0;\n"
        "$R:\n"
        "mul.wide.u32 %rd3, %r3, 4;\nadd.s64 %rd4, %rd2, %rd3;\n"
        "ld.u32 %r6, [%rd4];\nadd.u32 %r5, %r5, %r6;\n"
        "add.u32 %r3, %r3, 1;\n"
        "setp.lt.u32 %p1, %r3, %r2;\n"
        "@%p1 bra $R;\n"
        "and.b64 %rd5, %rd2, 15;\ncvt.u32.u64 %r7, %rd5;\n"
        "ld.param.u64 %rd6, [out];\n"
        "mul.wide.u32 %rd7, %r1, 8;\nadd.s64 %rd8, %rd6, %rd7;\n"
        "st.global.v2.u32 [%rd8], {%r5, %r7};\n"
        "setp.eq.u32 %p2, %r1, 0;\n"
        "@%p2 bra $KEEP;\n"
        "call.uni free, (%rd2);\n"
        "ret;\n"
        "$KEEP:\n"
        "ld.param.u64 %rd9, [keep];\n"
        "st.global.u64 [%rd9], %rd2;\n"
        "ret;\n"
        "}\n"
        ".visible .entry dread(.param .u64 out, .param .u64 keep)\n"
        "{\n"
        ".reg .b32 %r<4>;\n.reg .b64 %rd<8>;\n"
        "ld.param.u64 %rd1, [keep];\nld.global.u64 %rd2, [%rd1];\n"
        "ld.u32 %r1, [%rd2+8];\n"
        "st.u32 [%rd2+8], 99;\n"
        "call.uni free, (%rd2);\n"
        "mov.u64 %rd3, 1073741824;\n"
        "call.uni (%rd4), malloc, (%rd3);\n"
        "ld.param.u64 %rd5, [out];\n"
        "st.global.u32 [%rd5], %r1;\n"
        "st.global.u64 [%rd5+8], %rd4;\n"
        "ret;\n"
        "}\n";

static void test_engine_device_malloc_free(void **state)
{
    uint32_t out[64 * 2];
    uint64_t keep = 0, out2[2];
    struct kbuf b[] = {{out, sizeof(out)}, {&keep, sizeof(keep)}};
    struct kbuf b2[] = {{out2, sizeof(out2)}, {&keep, sizeof(keep)}};
    struct env e;

    (void)state;
    memset(out, 0xee, sizeof(out));
    memset(out2, 0, sizeof(out2));
    env_open(&e, malloc_ptx, NULL);
    env_launch(&e, "dmalloc", D3(1, 1, 1), D3(64, 1, 1), 0, b, 2);
    for (uint32_t t = 0; t < 64; t++) {
        uint32_t n = t + 4;

        assert_int_equal(out[2 * t], t * (n - 1) * n / 2 + n);
        assert_int_equal(out[2 * t + 1], 0);
    }
    assert_int_not_equal(keep, 0);
    env_launch(&e, "dread", D3(1, 1, 1), D3(1, 1, 1), 0, b2, 2);
    assert_int_equal(out2[0], 1); /* thread 0 wrote 2 * 0 + 1 there */
    assert_int_equal(out2[1], 0); /* more than the heap: NULL */
    env_close(&e);
}

/* The heap's size is a budget the live device takes until a kernel calls malloc. */
static void test_engine_heap_resize(void **state)
{
    uint32_t out[64 * 2];
    uint64_t keep = 0, out2[2] = {0, 0};
    struct kbuf b[] = {{out, sizeof(out)}, {&keep, sizeof(keep)}};
    struct kbuf b2[] = {{out2, sizeof(out2)}, {&keep, sizeof(keep)}};
    struct env e;

    (void)state;
    env_open(&e, malloc_ptx, NULL);
    assert_int_equal(ptxsim_set_heap(e.d, (uint64_t)2 << 30), 0); /* the module is loaded */
    env_launch(&e, "dmalloc", D3(1, 1, 1), D3(64, 1, 1), 0, b, 2);
    assert_int_equal(ptxsim_set_heap(e.d, 1 << 20), PS_ENOTSUP);
    env_launch(&e, "dread", D3(1, 1, 1), D3(1, 1, 1), 0, b2, 2);
    assert_int_equal(out2[0], 1);
    assert_int_not_equal(out2[1], 0); /* 1 GiB now fits the 2 GiB heap */
    env_close(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_engine_dynamic_and_static_shared),
        cmocka_unit_test(test_engine_module_variables),
        cmocka_unit_test(test_engine_atomics_contention),
        cmocka_unit_test(test_engine_half_atomics),
        cmocka_unit_test(test_engine_vector_ld_st),
        cmocka_unit_test(test_engine_narrow_loads_stores),
        cmocka_unit_test(test_engine_device_printf),
        cmocka_unit_test(test_engine_printf_null_format),
        cmocka_unit_test(test_engine_device_malloc_free),
        cmocka_unit_test(test_engine_heap_resize),
        cmocka_unit_test(test_engine_address_width),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
