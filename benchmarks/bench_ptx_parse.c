/*
 * PTX front-end throughput: parses one large PTX text three times and prints
 * its size, the best time, MB/s and instructions/s. It prints figures and
 * asserts nothing about them; it fails only if the text does not parse.
 *
 *   bench_ptx_parse            generate ~64 MB of PTX in memory (deterministic)
 *   bench_ptx_parse FILE.ptx   parse FILE instead
 *
 * The generated text repeats an nvcc-style sm_80 kernel (grid-stride load,
 * FMA, shared-memory tree reduction, atomic add, .loc line records) with a
 * unique name and shared array per copy, so symbol tables grow as in a real
 * large module.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/err.h"
#include "frontend/ptx_parse.h"
#include "isa/module.h"

#define TARGET_BYTES (64u << 20)
#define RUNS 3

struct buf {
    char *p;
    size_t len, cap;
};

static void append(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void append(struct buf *b, const char *fmt, ...)
{
    va_list ap;
    int n;

    for (;;) {
        va_start(ap, fmt);
        n = vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
        va_end(ap);
        if (n < 0) {
            fprintf(stderr, "bench_ptx_parse: formatting failed\n");
            exit(1);
        }
        if ((size_t)n < b->cap - b->len)
            break;
        b->cap = b->cap * 2 + (size_t)n + 1;
        b->p = realloc(b->p, b->cap);
        if (!b->p) {
            fprintf(stderr, "bench_ptx_parse: out of memory\n");
            exit(1);
        }
    }
    b->len += (size_t)n;
}

/* One kernel; %1$u is its unique number. */
static const char kernel_fmt[] = ".shared .align 4 .b8 s%1$u[1024];\n"
                                 "\n"
                                 "\t// .globl\tk%1$u\n"
                                 ".visible .entry k%1$u(\n"
                                 "\t.param .u64 .ptr .global .align 4 k%1$u_param_0,\n"
                                 "\t.param .u64 .ptr .global .align 4 k%1$u_param_1,\n"
                                 "\t.param .u32 k%1$u_param_2\n"
                                 ")\n"
                                 ".maxntid 256, 1, 1\n"
                                 "{\n"
                                 "\t.reg .pred \t%%p<5>;\n"
                                 "\t.reg .b32 \t%%r<16>;\n"
                                 "\t.reg .f32 \t%%f<10>;\n"
                                 "\t.reg .b64 \t%%rd<12>;\n"
                                 "\n"
                                 "\t.loc\t1 %1$u 0\n"
                                 "\tld.param.u64 \t%%rd3, [k%1$u_param_0];\n"
                                 "\tld.param.u64 \t%%rd4, [k%1$u_param_1];\n"
                                 "\tld.param.u32 \t%%r5, [k%1$u_param_2];\n"
                                 "\tcvta.to.global.u64 \t%%rd1, %%rd3;\n"
                                 "\tcvta.to.global.u64 \t%%rd2, %%rd4;\n"
                                 "\t.loc\t1 12 13\n"
                                 "\tmov.u32 \t%%r6, %%ctaid.x;\n"
                                 "\tmov.u32 \t%%r7, %%ntid.x;\n"
                                 "\tmov.u32 \t%%r1, %%tid.x;\n"
                                 "\tmad.lo.s32 \t%%r2, %%r6, %%r7, %%r1;\n"
                                 "\tsetp.ge.s32 \t%%p1, %%r2, %%r5;\n"
                                 "\tmov.f32 \t%%f7, 0f00000000;\n"
                                 "\t@%%p1 bra \t$L__BB0_2;\n"
                                 "\n"
                                 "\t.loc\t1 14 9\n"
                                 "\tmul.wide.s32 \t%%rd5, %%r2, 4;\n"
                                 "\tadd.s64 \t%%rd6, %%rd1, %%rd5;\n"
                                 "\tld.global.nc.f32 \t%%f4, [%%rd6+-4];\n"
                                 "\tfma.rn.f32 \t%%f5, %%f4, 0f3FC00000, 0fBF800000;\n"
                                 "\tmul.f32 \t%%f7, %%f5, %%f5;\n"
                                 "\n"
                                 "$L__BB0_2:\n"
                                 "\tshl.b32 \t%%r8, %%r1, 2;\n"
                                 "\tmov.u32 \t%%r9, s%1$u;\n"
                                 "\tadd.s32 \t%%r3, %%r9, %%r8;\n"
                                 "\tst.shared.f32 \t[%%r3], %%f7;\n"
                                 "\tbar.sync \t0;\n"
                                 "\tmov.u32 \t%%r15, %%r7;\n"
                                 "\n"
                                 "$L__BB0_3:\n"
                                 "\tshr.u32 \t%%r4, %%r15, 1;\n"
                                 "\tsetp.ge.u32 \t%%p2, %%r1, %%r4;\n"
                                 "\t@%%p2 bra \t$L__BB0_5;\n"
                                 "\n"
                                 "\tshl.b32 \t%%r10, %%r4, 2;\n"
                                 "\tadd.s32 \t%%r11, %%r3, %%r10;\n"
                                 "\tld.shared.f32 \t%%f2, [%%r11];\n"
                                 "\tld.shared.f32 \t%%f3, [%%r3];\n"
                                 "\tadd.f32 \t%%f6, %%f3, %%f2;\n"
                                 "\tst.shared.f32 \t[%%r3], %%f6;\n"
                                 "\n"
                                 "$L__BB0_5:\n"
                                 "\tbar.sync \t0;\n"
                                 "\tsetp.gt.u32 \t%%p3, %%r15, 3;\n"
                                 "\tmov.u32 \t%%r15, %%r4;\n"
                                 "\t@%%p3 bra \t$L__BB0_3;\n"
                                 "\n"
                                 "\tsetp.ne.s32 \t%%p4, %%r1, 0;\n"
                                 "\t@%%p4 bra \t$L__BB0_7;\n"
                                 "\n"
                                 "\tld.shared.f32 \t%%f1, [s%1$u];\n"
                                 "\tmul.wide.u32 \t%%rd7, %%r6, 4;\n"
                                 "\tadd.s64 \t%%rd8, %%rd2, %%rd7;\n"
                                 "\tatom.global.add.f32 \t%%f8, [%%rd8], %%f1;\n"
                                 "\n"
                                 "$L__BB0_7:\n"
                                 "\tret;\n"
                                 "\n"
                                 "}\n";

static char *generate(size_t *len)
{
    struct buf b = {malloc(1 << 20), 0, 1 << 20};

    if (!b.p) {
        fprintf(stderr, "bench_ptx_parse: out of memory\n");
        exit(1);
    }
    append(&b, "//\n// Generated by bench_ptx_parse\n//\n\n.version 8.0\n.target sm_80\n"
               ".address_size 64\n\n\t.file\t1 \"bench.cu\"\n\n");
    for (unsigned k = 0; b.len < TARGET_BYTES; k++)
        append(&b, kernel_fmt, k);
    *len = b.len;
    return b.p;
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *p = NULL;
    long n;

    if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) ||
        !(p = malloc((size_t)n + 1)) || fread(p, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, "bench_ptx_parse: cannot read %s\n", path);
        exit(1);
    }
    fclose(f);
    p[n] = '\0';
    *len = (size_t)n;
    return p;
}

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t count_instrs(const struct isa_module *m, uint32_t *nkernels)
{
    uint64_t n = 0;

    *nkernels = 0;
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        n += m->funcs[i]->ninstrs;
        *nkernels += m->funcs[i]->is_entry;
    }
    return n;
}

int main(int argc, char **argv)
{
    const char *name = argc > 1 ? argv[1] : "generated";
    size_t len;
    char *text = argc > 1 ? read_file(argv[1], &len) : generate(&len);
    double best = 0;
    uint64_t ninstrs = 0;
    uint32_t nkernels = 0;

    for (int run = 0; run < RUNS; run++) {
        struct ps_err err;
        double t0 = now_s(), dt;
        struct isa_module *m = ptx_parse(text, len, name, &err);

        dt = now_s() - t0;
        if (!m) {
            ps_err_print(&err, stderr);
            free(text);
            return 1;
        }
        ninstrs = count_instrs(m, &nkernels);
        isa_module_destroy(m);
        if (run == 0 || dt < best)
            best = dt;
    }
    printf("bench_ptx_parse: %s: %.1f MB, %u kernels, %llu instructions\n", name, (double)len / 1e6,
           nkernels, (unsigned long long)ninstrs);
    printf("bench_ptx_parse: best of %d: %.3f s, %.1f MB/s, %.2f M instructions/s\n", RUNS, best,
           (double)len / 1e6 / best, (double)ninstrs / 1e6 / best);
    free(text);
    return 0;
}
