/*
 * `ptxsim ptx FILE...`: parse PTX and list each kernel's parameters and
 * resources; `--print` regenerates the text; `--roundtrip` checks that
 * parse -> print -> parse gives an equal representation.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "frontend/ptx_parse.h"
#include "isa/module.h"
#include "isa/print.h"
#include "isa/resources.h"
#include "tools/verbs.h"

enum ptx_mode { MODE_SUMMARY, MODE_PRINT, MODE_ROUNDTRIP };

static void print_params(const struct isa_func *f)
{
    uint64_t bytes = 0;

    for (uint32_t i = 0; i < f->nparams; i++)
        bytes += f->params[i].size_bytes;
    printf("  params: %u (%llu bytes)\n", f->nparams, (unsigned long long)bytes);
    for (uint32_t i = 0; i < f->nparams; i++) {
        const struct isa_var *v = &f->params[i];

        printf("    %-40s .%s", v->name, isa_type_name((enum isa_type)v->type));
        if (v->ndims)
            printf("[%llu]", (unsigned long long)v->dims[0]);
        if (v->is_ptr)
            printf(" (pointer to .%s)", v->ptr_space ? isa_space_name(v->ptr_space) : "generic");
        printf(", %llu bytes\n", (unsigned long long)v->size_bytes);
    }
}

static void print_regs(const struct isa_resources *r)
{
    bool first = true;

    printf("  registers: %u 32-bit words (", r->regs32);
    for (unsigned t = 1; t < ISA_TYPE_COUNT; t++) {
        if (!r->regs_by_type[t])
            continue;
        printf("%s%u .%s", first ? "" : ", ", r->regs_by_type[t], isa_type_name(t));
        first = false;
    }
    printf(")\n");
}

static int summarise(const struct isa_module *m, const char *path)
{
    uint32_t nk = 0, nf = 0;

    for (uint32_t i = 0; i < m->nfuncs; i++) {
        nk += m->funcs[i]->is_entry;
        nf += !m->funcs[i]->is_entry && !m->funcs[i]->is_prototype;
    }
    printf("%s: PTX %u.%u, target %s, %u-bit addresses, %u kernel%s, %u function%s, %u variable%s\n",
           path, m->version_major, m->version_minor, m->target,
           m->address_size ? m->address_size : 32, nk, nk == 1 ? "" : "s", nf, nf == 1 ? "" : "s",
           m->nvars, m->nvars == 1 ? "" : "s");
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        const struct isa_func *f = m->funcs[i];
        struct isa_resources r;

        if (!f->is_entry)
            continue;
        if (isa_resources_of(m, i, &r)) {
            fprintf(stderr, "ptxsim: out of memory\n");
            return 1;
        }
        printf("kernel %s%s\n", f->name, f->has_body ? "" : " (declaration only)");
        print_params(f);
        print_regs(&r);
        printf("  shared: %llu bytes static%s\n", (unsigned long long)r.shared_bytes,
               r.dynamic_shared ? " + dynamic" : "");
        printf("  local: %llu bytes%s\n", (unsigned long long)r.local_bytes,
               r.recursive ? " (recursive: plus stack)" : "");
        printf("  const: %llu bytes\n", (unsigned long long)r.const_bytes);
        printf("  instructions: %u in the kernel and %u callee%s\n", r.ninstrs, r.ncallees,
               r.ncallees == 1 ? "" : "s");
    }
    return 0;
}

/* Parse -> print -> parse; both parses must be equal and the second print identical. */
static int roundtrip(const struct isa_module *m, const char *path)
{
    char *t1 = NULL, *t2 = NULL, why[256] = "";
    size_t n1 = 0, n2 = 0;
    struct isa_module *m2 = NULL;
    struct ps_err err;
    FILE *f1 = open_memstream(&t1, &n1), *f2 = NULL;
    int rc = 1;

    if (!f1 || isa_print_module(m, f1) || fclose(f1))
        goto out;
    m2 = ptx_parse(t1, n1, path, &err);
    if (!m2) {
        fprintf(stderr, "%s: reprinted text does not parse: ", path);
        ps_err_print(&err, stderr);
        goto out;
    }
    if (!isa_module_equal(m, m2, why, sizeof(why))) {
        fprintf(stderr, "%s: round trip changed the module: %s\n", path, why);
        goto out;
    }
    f2 = open_memstream(&t2, &n2);
    if (!f2 || isa_print_module(m2, f2) || fclose(f2))
        goto out;
    if (n1 != n2 || memcmp(t1, t2, n1)) {
        fprintf(stderr, "%s: printing is not stable across a round trip\n", path);
        goto out;
    }
    printf("roundtrip ok: %s\n", path);
    rc = 0;
out:
    isa_module_destroy(m2);
    free(t1);
    free(t2);
    return rc;
}

static void usage(FILE *out)
{
    fprintf(out, "usage: ptxsim ptx [--print | --roundtrip] FILE...\n"
                 "  (default)    list kernels, parameters, registers, shared/local/const sizes\n"
                 "  --print      print the PTX regenerated from ptxsim's representation\n"
                 "  --roundtrip  check that parse -> print -> parse gives the same module\n");
}

int verb_ptx(int argc, char **argv)
{
    enum ptx_mode mode = MODE_SUMMARY;
    int status = 0, nfiles = 0;

    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--help")) {
            usage(stdout);
            return 0;
        }
        if (!strcmp(argv[i], "--print"))
            mode = MODE_PRINT;
        else if (!strcmp(argv[i], "--roundtrip"))
            mode = MODE_ROUNDTRIP;
        else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "ptxsim ptx: unknown option '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        }
    }
    for (int i = 0; i < argc; i++) {
        struct isa_module *m;
        struct ps_err err;

        if (argv[i][0] == '-' && argv[i][1])
            continue;
        nfiles++;
        m = ptx_parse_file(argv[i], &err);
        if (!m) {
            ps_err_print(&err, stderr);
            status = 1;
            continue;
        }
        if (mode == MODE_PRINT && isa_print_module(m, stdout))
            status = 1;
        else if (mode == MODE_SUMMARY && summarise(m, argv[i]))
            status = 1;
        else if (mode == MODE_ROUNDTRIP && roundtrip(m, argv[i]))
            status = 1;
        isa_module_destroy(m);
    }
    if (!nfiles) {
        usage(stderr);
        return 2;
    }
    return status;
}
