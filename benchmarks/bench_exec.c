/*
 * Functional-mode throughput: thread instructions per second of the PTX
 * interpreter on one host core, for a compute-bound kernel (a long chain of
 * dependent FMAs and integer ops per thread) and a memory-bound one (a
 * grid-stride copy-scale). Prints figures; asserts nothing about time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "runtime/ptxsim.h"

static const char compute_ptx[] =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".visible .entry compute(.param .u64 out, .param .u32 iters)\n{\n"
    "  .reg .pred %p<2>;\n  .reg .f32 %f<4>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n  ld.param.u32 %r1, [iters];\n"
    "  mov.u32 %r2, %tid.x;\n  mov.u32 %r3, %ctaid.x;\n  mov.u32 %r4, %ntid.x;\n"
    "  mad.lo.s32 %r5, %r3, %r4, %r2;\n  cvt.rn.f32.s32 %f1, %r5;\n  mov.f32 %f2, 0f3F800000;\n"
    "  mov.u32 %r6, 0;\n"
    "LOOP:\n"
    "  fma.rn.f32 %f2, %f2, 0f3F7FF000, %f1;\n  fma.rn.f32 %f1, %f1, 0f3F000000, %f2;\n"
    "  add.s32 %r6, %r6, 1;\n  xor.b32 %r7, %r6, %r5;\n  setp.lt.u32 %p1, %r6, %r1;\n"
    "  @%p1 bra LOOP;\n"
    "  mul.wide.s32 %rd2, %r5, 4;\n  add.s64 %rd3, %rd1, %rd2;\n  st.global.f32 [%rd3], %f2;\n"
    "  ret;\n}\n";

static const char memory_ptx[] =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".visible .entry copy(.param .u64 dst, .param .u64 src, .param .u32 n)\n{\n"
    "  .reg .pred %p<2>;\n  .reg .f32 %f<3>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [dst];\n  ld.param.u64 %rd2, [src];\n  ld.param.u32 %r1, [n];\n"
    "  mov.u32 %r2, %tid.x;\n  mov.u32 %r3, %ctaid.x;\n  mov.u32 %r4, %ntid.x;\n"
    "  mov.u32 %r6, %nctaid.x;\n  mul.lo.s32 %r7, %r6, %r4;\n"
    "  mad.lo.s32 %r5, %r3, %r4, %r2;\n"
    "LOOP:\n  setp.ge.u32 %p1, %r5, %r1;\n  @%p1 bra DONE;\n"
    "  mul.wide.u32 %rd3, %r5, 4;\n  add.s64 %rd4, %rd2, %rd3;\n  add.s64 %rd5, %rd1, %rd3;\n"
    "  ld.global.f32 %f1, [%rd4];\n  mul.f32 %f2, %f1, 0f40000000;\n  st.global.f32 [%rd5], %f2;\n"
    "  add.s32 %r5, %r5, %r7;\n  bra.uni LOOP;\n"
    "DONE:\n  ret;\n}\n";

/* CPU time of this process: steadier than wall time on a shared machine. */
static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int run(const char *label, const char *ptx, const char *kernel, uint32_t grid,
               uint32_t block, void *const *args, struct ptxsim_device *d)
{
    struct ptxsim_module *m;
    double best = 1e30;
    uint64_t insts = 0;

    if (ptxsim_module_load(d, ptx, strlen(ptx), label, &m)) {
        ps_err_print(ptxsim_last_error_info(d), stderr);
        return 1;
    }
    for (int rep = 0; rep < 3; rep++) {
        uint64_t before = ptxsim_thread_insts(d);
        double t0 = now();

        if (ptxsim_launch(m, kernel, (struct ptxsim_dim3){grid, 1, 1},
                          (struct ptxsim_dim3){block, 1, 1}, 0, args)) {
            ps_err_print(ptxsim_last_error_info(d), stderr);
            ptxsim_module_unload(m);
            return 1;
        }
        t0 = now() - t0;
        insts = ptxsim_thread_insts(d) - before;
        if (t0 < best)
            best = t0;
    }
    printf("%-14s %12llu thread-insts  %8.3f s CPU  %8.1f M thread-insts/s  %7.2f M warp-insts/s\n",
           label, (unsigned long long)insts, best, insts / best / 1e6, insts / 32.0 / best / 1e6);
    ptxsim_module_unload(m);
    return 0;
}

int main(void)
{
    struct ptxsim_device *d;
    uint64_t out, src, dst;
    uint32_t iters = 2000, n = 1u << 22;
    int rc = 0;

    if (ptxsim_device_create(NULL, &d))
        return 1;
    if (ptxsim_malloc(d, 60 * 256 * 4, &out) || ptxsim_malloc(d, (size_t)n * 4, &src) ||
        ptxsim_malloc(d, (size_t)n * 4, &dst))
        return 1;
    printf("functional mode, one host core, full 32-lane warps\n");
    {
        void *args[] = {&out, &iters};
        rc |= run("compute-bound", compute_ptx, "compute", 60, 256, args, d);
    }
    {
        void *args[] = {&dst, &src, &n};
        rc |= run("memory-bound", memory_ptx, "copy", 120, 256, args, d);
    }
    ptxsim_device_destroy(d);
    return rc;
}
