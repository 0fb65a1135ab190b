/*
 * `ptxsim objdump FILE...`: a cuobjdump replacement for what ptxsim needs.
 * Lists the fat binary entries of an executable, a shared library or a raw
 * fatbin file (kind, sm, PTX or cubin version, sizes, compression) and the
 * kernels of each PTX entry; `--ptx` prints each PTX entry's text,
 * decompressed; `--list` lists the entries only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "frontend/fatbin.h"
#include "frontend/ptx_parse.h"
#include "isa/module.h"
#include "tools/verbs.h"

enum objdump_mode { MODE_SUMMARY, MODE_LIST, MODE_PTX };

static const char *kind_name(uint16_t kind)
{
    switch (kind) {
    case FATBIN_PTX:
        return "PTX";
    case FATBIN_ELF:
        return "ELF";
    case 8:
        return "LTO-IR"; /* -gencode ...,code=lto_NN */
    default:
        return "unknown";
    }
}

static const char *compression_name(uint64_t flags)
{
    switch (flags & 0xF000u) {
    case 0:
        return NULL;
    case 0x1000u:
        return "zlib";
    case 0x2000u:
        return "lz4";
    case 0x8000u:
        return "zstd";
    default:
        return "unknown compression";
    }
}

static void print_entry(const struct fatbin_entry *e, uint32_t i, const char *prefix)
{
    const char *c = compression_name(e->flags);

    printf("%sentry %u: %s sm_%u, %s %u.%u, ", prefix, i, kind_name(e->kind), e->sm,
           e->kind == FATBIN_PTX ? "PTX" : "version", e->ptx_major, e->ptx_minor);
    if (c)
        printf("%llu bytes %s -> %llu bytes", (unsigned long long)e->payload_size, c,
               (unsigned long long)e->uncompressed_size);
    else
        printf("%llu bytes uncompressed", (unsigned long long)e->payload_size);
    if (e->flags & 0x2u)
        printf(", debug");
    if (e->identifier[0])
        printf(", identifier \"%s\"", e->identifier);
    printf(" (flags %#llx)\n", (unsigned long long)e->flags);
}

static void print_kernels(const char *text, size_t len, const char *name, int *status)
{
    struct ps_err err;
    struct isa_module *m = ptx_parse(text, len, name, &err);

    if (!m) {
        fprintf(stderr, "ptxsim objdump: %s: PTX does not parse: ", name);
        ps_err_print(&err, stderr);
        *status = 1;
        return;
    }
    for (uint32_t k = 0; k < m->nfuncs; k++)
        if (m->funcs[k]->is_entry)
            printf("  kernel %s\n", m->funcs[k]->name);
    isa_module_destroy(m);
}

/* One PTX entry: its kernels (MODE_SUMMARY) or its text (MODE_PTX). */
static void show_ptx(const struct fatbin_entry *e, uint32_t i, const char *path,
                     enum objdump_mode mode, int *status)
{
    struct ps_err err;
    uint8_t *data;
    size_t len;
    char name[512];

    if (fatbin_entry_data(e, &data, &len, &err)) {
        fprintf(stderr, "ptxsim objdump: %s: entry %u: %s\n", path, i, err.msg);
        *status = 1;
        return;
    }
    len = strnlen((const char *)data, len);
    snprintf(name, sizeof(name), "%s[entry %u]", path, i);
    if (mode == MODE_SUMMARY)
        print_kernels((const char *)data, len, name, status);
    if (mode == MODE_PTX) {
        snprintf(name, sizeof(name), "// %s: ", path);
        print_entry(e, i, name);
        fwrite(data, 1, len, stdout);
        if (len && data[len - 1] != '\n')
            putchar('\n');
    }
    free(data);
}

/* Reads a raw fatbin file or the fatbin sections of an ELF file. */
static int load(const char *path, uint8_t **data, size_t *len, struct ps_err *err)
{
    static const uint8_t magic[4] = {0x50, 0xed, 0x55, 0xba};
    uint8_t head[4] = {0};
    FILE *f = fopen(path, "rb");
    size_t n;

    if (!f)
        return ps_err_set(err, PS_EIO, "cannot open %s", path);
    n = fread(head, 1, sizeof(head), f);
    if (n == sizeof(head) && !memcmp(head, magic, sizeof(magic)) && !fseek(f, 0, SEEK_END)) {
        long size = ftell(f);

        *data = size > 0 ? malloc((size_t)size) : NULL;
        if (*data && !fseek(f, 0, SEEK_SET) && fread(*data, 1, (size_t)size, f) == (size_t)size) {
            *len = (size_t)size;
            fclose(f);
            return 0;
        }
        free(*data);
        fclose(f);
        return ps_err_set(err, PS_EIO, "cannot read %s", path);
    }
    fclose(f);
    return fatbin_read_elf_section(path, data, len, err);
}

static int objdump_file(const char *path, enum objdump_mode mode)
{
    struct fatbin fb;
    struct ps_err err;
    uint8_t *data = NULL;
    size_t len = 0;
    int status = 0, rc = load(path, &data, &len, &err);

    if (rc == PS_ENOTFOUND) {
        fprintf(stderr, "ptxsim objdump: %s: no fat binary (no .nv_fatbin section)\n", path);
        return 1;
    }
    if (!rc)
        rc = fatbin_parse(data, len, &fb, &err);
    if (rc) {
        fprintf(stderr, "ptxsim objdump: %s\n", err.msg);
        free(data);
        return 1;
    }
    if (mode != MODE_PTX)
        printf("%s: %u entr%s, %llu bytes of fat binary\n", path, fb.nentries,
               fb.nentries == 1 ? "y" : "ies", (unsigned long long)fb.total_size);
    for (uint32_t i = 0; i < fb.nentries; i++) {
        if (mode != MODE_PTX)
            print_entry(&fb.entries[i], i, "");
        if (fb.entries[i].kind == FATBIN_PTX && mode != MODE_LIST)
            show_ptx(&fb.entries[i], i, path, mode, &status);
    }
    fatbin_free(&fb);
    free(data);
    return status;
}

static void usage(FILE *out)
{
    fprintf(out, "usage: ptxsim objdump [--ptx | --list] FILE...\n"
                 "  FILE is a CUDA executable, a shared library or a raw fatbin\n"
                 "  (default)  list the fat binary entries and the kernels of each PTX entry\n"
                 "  --list     list the entries only\n"
                 "  --ptx      print the (decompressed) text of each PTX entry\n");
}

int verb_objdump(int argc, char **argv)
{
    enum objdump_mode mode = MODE_SUMMARY;
    int status = 0, nfiles = 0;

    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--help")) {
            usage(stdout);
            return 0;
        }
        if (!strcmp(argv[i], "--ptx"))
            mode = MODE_PTX;
        else if (!strcmp(argv[i], "--list"))
            mode = MODE_LIST;
        else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "ptxsim objdump: unknown option '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        }
    }
    for (int i = 0; i < argc; i++) {
        if (argv[i][0] == '-' && argv[i][1])
            continue;
        nfiles++;
        status |= objdump_file(argv[i], mode);
    }
    if (!nfiles) {
        usage(stderr);
        return 2;
    }
    return status;
}
