/*
 * `ptxsim exec FILE.ptx KERNEL [ARG...]`: runs one kernel of a PTX file
 * functionally, with scalar arguments and device buffers given on the
 * command line (or read from files), then prints or saves buffers.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/types.h"
#include "runtime/ptxsim.h"
#include "tools/verbs.h"

#define MAX_ARGS 64
/* Largest buffer (the simulated device's global memory window, 2.75 GiB). */
#define MAX_BUF_BYTES (UINT64_C(11) << 28)

struct buf {
    char name[64];
    uint64_t addr;
    size_t bytes;
    enum isa_type type;
};

struct exec_opts {
    struct ptxsim_dim3 grid, block;
    uint32_t shared;
    uint64_t budget;
    int has_budget; /* --budget given (else the default watchdog of ptxsim_options_default) */
    const char *print[MAX_ARGS];
    const char *out[MAX_ARGS];
    int nprint, nout;
    int repeat;
    int stats;
    int memcheck;
};

struct exec_state {
    struct ptxsim_device *d;
    struct buf bufs[MAX_ARGS];
    int nbufs;
    uint64_t scalars[MAX_ARGS];
    void *args[MAX_ARGS];
    int nargs;
};

static void usage(FILE *out)
{
    fprintf(out,
            "usage: ptxsim exec [OPTIONS] FILE.ptx KERNEL [ARG...]\n"
            "  --grid X[,Y[,Z]]      grid size in CTAs (default 1)\n"
            "  --block X[,Y[,Z]]     CTA size in threads (default 1)\n"
            "  --shared BYTES        dynamic shared memory\n"
            "  --budget N            stop a runaway kernel after N warp instructions\n"
            "                        (default 10000000000; 0 = no limit)\n"
            "  --print NAME[:COUNT]  print a buffer after the launch\n"
            "  --out NAME:FILE       write a buffer to a file after the launch\n"
            "  --repeat N            launch N times\n"
            "  --stats               print instruction counts to stderr\n"
            "  --memcheck            fault at any access outside an allocation (default: an\n"
            "                        access inside a mapped 2 MiB page succeeds, counted)\n"
            "arguments, in kernel parameter order:\n"
            "  TYPE:VALUE                 a scalar (u8..u64, s8..s64, f32, f64, b32, b64)\n"
            "  NAME=TYPE[COUNT]:INIT      a device buffer of COUNT elements, passed as its address;\n"
            "                             INIT is zero, iota, fill=V, list=V,V,... or file=PATH\n");
}

/* One dimension: a whole number from 1 to 2^32-1 (the launch checks CUDA's limits). */
static int parse_dim1(const char *s, char **end, uint32_t *v)
{
    unsigned long long x;

    if (*s < '0' || *s > '9')
        return -1;
    x = strtoull(s, end, 0);
    if (!x || x > UINT32_MAX)
        return -1;
    *v = (uint32_t)x;
    return 0;
}

static int parse_dim(const char *s, struct ptxsim_dim3 *d)
{
    uint32_t v[3] = {1, 1, 1};
    char *end = (char *)s;

    for (int i = 0; i < 3; i++) {
        if (parse_dim1(i ? end + 1 : s, &end, &v[i]))
            return -1;
        if (*end != ',')
            break;
        if (i == 2)
            return -1;
    }
    if (*end)
        return -1;
    d->x = v[0], d->y = v[1], d->z = v[2];
    return 0;
}

/* Converts a textual value to the bits of type t. */
static int value_bits(enum isa_type t, const char *s, uint64_t *bits)
{
    const struct isa_type_info *ti = isa_type_info(t);
    char *end;

    if (ti->kind == ISA_TK_FLOAT && ti->bits == 32) {
        float f = strtof(s, &end);
        uint32_t u;
        memcpy(&u, &f, 4);
        *bits = u;
    } else if (ti->kind == ISA_TK_FLOAT && ti->bits == 64) {
        double f = strtod(s, &end);
        memcpy(bits, &f, 8);
    } else if (ti->kind == ISA_TK_SINT) {
        *bits = (uint64_t)strtoll(s, &end, 0);
    } else {
        *bits = strtoull(s, &end, 0);
    }
    if (end == s || (*end && *end != ','))
        return -1;
    if (ti->bits < 64)
        *bits &= (UINT64_C(1) << ti->bits) - 1;
    return 0;
}

static enum isa_type type_named(const char *s, size_t n)
{
    enum isa_type t = isa_type_lookup(s, (unsigned)n);
    const struct isa_type_info *ti = isa_type_info(t);

    if (ti->kind == ISA_TK_NONE || ti->kind == ISA_TK_PRED || ti->kind == ISA_TK_OPAQUE ||
        ti->bits < 8 || ti->bits > 64)
        return ISA_TYPE_NONE;
    return t;
}

static int fill_buffer(uint8_t *host, size_t count, enum isa_type t, const char *init)
{
    unsigned sz = isa_type_size(t);
    uint64_t bits;

    if (!strcmp(init, "zero"))
        return 0;
    if (!strcmp(init, "iota")) {
        for (size_t i = 0; i < count; i++) {
            char num[32];

            snprintf(num, sizeof(num), "%zu", i);
            if (value_bits(t, num, &bits))
                return -1;
            memcpy(host + i * sz, &bits, sz);
        }
        return 0;
    }
    if (!strncmp(init, "fill=", 5)) {
        if (value_bits(t, init + 5, &bits))
            return -1;
        for (size_t i = 0; i < count; i++)
            memcpy(host + i * sz, &bits, sz);
        return 0;
    }
    if (!strncmp(init, "list=", 5)) {
        const char *p = init + 5;

        for (size_t i = 0; i < count && *p; i++) {
            if (value_bits(t, p, &bits))
                return -1;
            memcpy(host + i * sz, &bits, sz);
            p = strchr(p, ',');
            if (!p)
                break;
            p++;
        }
        return 0;
    }
    if (!strncmp(init, "file=", 5)) {
        FILE *fp = fopen(init + 5, "rb");
        size_t got;

        if (!fp)
            return -1;
        got = fread(host, 1, count * sz, fp);
        fclose(fp);
        return got == count * sz ? 0 : -1;
    }
    return -1;
}

/* COUNT of NAME=TYPE[COUNT]: a whole number > 0 that ends at `end` (the ']'). */
static int parse_count(const char *s, const char *end, size_t *count)
{
    char *e;
    unsigned long long v;

    if (*s < '0' || *s > '9')
        return -1;
    errno = 0;
    v = strtoull(s, &e, 0);
    if (errno || e != end || !v || v > SIZE_MAX)
        return -1;
    *count = (size_t)v;
    return 0;
}

/* NAME=TYPE[COUNT]:INIT */
static int add_buffer(struct exec_state *st, const char *spec)
{
    const char *eq = strchr(spec, '='), *lb, *rb, *colon;
    struct buf *b = &st->bufs[st->nbufs];
    uint8_t *host;
    size_t count;
    int rc;

    lb = eq ? strchr(eq, '[') : NULL;
    rb = lb ? strchr(lb, ']') : NULL;
    colon = rb ? strchr(rb, ':') : NULL;
    if (!eq || !lb || !rb || (size_t)(eq - spec) >= sizeof(b->name) || st->nbufs == MAX_ARGS)
        return -1;
    memcpy(b->name, spec, (size_t)(eq - spec));
    b->name[eq - spec] = '\0';
    b->type = type_named(eq + 1, (size_t)(lb - eq - 1));
    if (b->type == ISA_TYPE_NONE || parse_count(lb + 1, rb, &count))
        return -1;
    if (count > MAX_BUF_BYTES / isa_type_size(b->type)) {
        fprintf(stderr, "ptxsim exec: buffer '%s' of %zu elements is larger than %llu bytes\n",
                b->name, count, (unsigned long long)MAX_BUF_BYTES);
        return -1;
    }
    b->bytes = count * isa_type_size(b->type);
    host = calloc(1, b->bytes);
    if (!host)
        return -1;
    rc = fill_buffer(host, count, b->type, colon ? colon + 1 : "zero");
    if (!rc)
        rc = ptxsim_malloc(st->d, b->bytes, &b->addr);
    if (!rc)
        rc = ptxsim_memcpy_htod(st->d, b->addr, host, b->bytes);
    free(host);
    if (rc)
        return -1;
    st->scalars[st->nargs] = b->addr;
    st->args[st->nargs] = &st->scalars[st->nargs];
    st->nargs++;
    st->nbufs++;
    return 0;
}

static int add_arg(struct exec_state *st, const char *spec)
{
    const char *colon = strchr(spec, ':');
    enum isa_type t;

    if (st->nargs == MAX_ARGS)
        return -1;
    if (strchr(spec, '=') && (!colon || strchr(spec, '=') < colon))
        return add_buffer(st, spec);
    if (!colon)
        return -1;
    t = type_named(spec, (size_t)(colon - spec));
    if (t == ISA_TYPE_NONE || value_bits(t, colon + 1, &st->scalars[st->nargs]))
        return -1;
    st->args[st->nargs] = &st->scalars[st->nargs];
    st->nargs++;
    return 0;
}

static struct buf *find_buf(struct exec_state *st, const char *name, size_t n)
{
    for (int i = 0; i < st->nbufs; i++)
        if (strlen(st->bufs[i].name) == n && !strncmp(st->bufs[i].name, name, n))
            return &st->bufs[i];
    return NULL;
}

static void print_value(enum isa_type t, const uint8_t *p)
{
    const struct isa_type_info *ti = isa_type_info(t);
    uint64_t v = 0;

    memcpy(&v, p, ti->bits / 8);
    if (ti->kind == ISA_TK_FLOAT && ti->bits == 32) {
        float f;
        memcpy(&f, p, 4);
        printf("%.9g", f);
    } else if (ti->kind == ISA_TK_FLOAT && ti->bits == 64) {
        double f;
        memcpy(&f, p, 8);
        printf("%.17g", f);
    } else if (ti->kind == ISA_TK_SINT) {
        printf("%" PRId64, ti->bits < 64 ? (int64_t)(v << (64 - ti->bits)) >> (64 - ti->bits)
                                         : (int64_t)v);
    } else {
        printf("%" PRIu64, v);
    }
}

static int print_buffer(struct exec_state *st, const char *spec)
{
    const char *colon = strchr(spec, ':');
    struct buf *b = find_buf(st, spec, colon ? (size_t)(colon - spec) : strlen(spec));
    unsigned sz;
    size_t count;
    uint8_t *host;

    if (!b)
        return -1;
    sz = isa_type_size(b->type);
    count = b->bytes / sz;
    if (colon && strtoull(colon + 1, NULL, 0) < count)
        count = strtoull(colon + 1, NULL, 0);
    host = malloc(b->bytes);
    if (!host || ptxsim_memcpy_dtoh(st->d, host, b->addr, b->bytes)) {
        free(host);
        return -1;
    }
    printf("%s:", b->name);
    for (size_t i = 0; i < count; i++) {
        putchar(' ');
        print_value(b->type, host + i * sz);
    }
    putchar('\n');
    free(host);
    return 0;
}

static int save_buffer(struct exec_state *st, const char *spec)
{
    const char *colon = strchr(spec, ':');
    struct buf *b = colon ? find_buf(st, spec, (size_t)(colon - spec)) : NULL;
    uint8_t *host;
    FILE *fp;
    int rc = -1;

    if (!b || !(host = malloc(b->bytes)))
        return -1;
    if (!ptxsim_memcpy_dtoh(st->d, host, b->addr, b->bytes) && (fp = fopen(colon + 1, "wb"))) {
        rc = fwrite(host, 1, b->bytes, fp) == b->bytes ? 0 : -1;
        if (fclose(fp))
            rc = -1;
    }
    free(host);
    return rc;
}

static int parse_budget(const char *s, uint64_t *v)
{
    char *end;

    if (*s < '0' || *s > '9')
        return -1;
    errno = 0;
    *v = strtoull(s, &end, 0);
    return errno || *end ? -1 : 0;
}

/* Options may appear anywhere; the rest (FILE KERNEL ARG...) is moved to the front of argv. */
static int parse_opts(int argc, char **argv, struct exec_opts *o, int *npos)
{
    int n = 0;

    memset(o, 0, sizeof(*o));
    o->grid = o->block = (struct ptxsim_dim3){1, 1, 1};
    o->repeat = 1;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

        if (a[0] != '-' || a[1] != '-') {
            argv[n++] = argv[i];
            continue;
        }
        if (!strcmp(a, "--stats")) {
            o->stats = 1;
            continue;
        }
        if (!strcmp(a, "--memcheck")) {
            o->memcheck = 1;
            continue;
        }
        if (!strcmp(a, "--help"))
            return 1;
        if (!v)
            return -1;
        i++;
        if (!strcmp(a, "--grid") && !parse_dim(v, &o->grid))
            continue;
        if (!strcmp(a, "--block") && !parse_dim(v, &o->block))
            continue;
        if (!strcmp(a, "--shared"))
            o->shared = (uint32_t)strtoul(v, NULL, 0);
        else if (!strcmp(a, "--budget") && !parse_budget(v, &o->budget))
            o->has_budget = 1;
        else if (!strcmp(a, "--repeat") && atoi(v) > 0)
            o->repeat = atoi(v);
        else if (!strcmp(a, "--print") && o->nprint < MAX_ARGS)
            o->print[o->nprint++] = v;
        else if (!strcmp(a, "--out") && o->nout < MAX_ARGS)
            o->out[o->nout++] = v;
        else
            return -1;
    }
    *npos = n;
    return n < 2 ? -1 : 0;
}

/* The arguments must match the kernel's parameters one for one (none ignored, none missing). */
static int check_arg_count(struct ptxsim_module *m, const char *kernel, int nargs)
{
    struct ptxsim_kernel_info info;

    if (ptxsim_kernel_info(m, kernel, &info))
        return 0; /* the launch reports the missing kernel */
    if ((uint32_t)nargs == info.nparams)
        return 0;
    fprintf(stderr, "ptxsim exec: kernel '%s' takes %u parameter%s, %d argument%s given\n", kernel,
            info.nparams, info.nparams == 1 ? "" : "s", nargs, nargs == 1 ? "" : "s");
    return -1;
}

static int run(struct exec_opts *o, int argc, char **argv, struct exec_state *st)
{
    struct ptxsim_module *m;
    int status = 0;

    if (ptxsim_module_load_file(st->d, argv[0], &m)) {
        ps_err_print(ptxsim_last_error_info(st->d), stderr);
        return 1;
    }
    for (int i = 2; i < argc; i++)
        if (add_arg(st, argv[i])) {
            fprintf(stderr, "ptxsim exec: bad argument '%s'\n", argv[i]);
            ptxsim_module_unload(m);
            return 2;
        }
    if (check_arg_count(m, argv[1], st->nargs)) {
        ptxsim_module_unload(m);
        return 2;
    }
    for (int r = 0; r < o->repeat && !status; r++)
        if (ptxsim_launch(m, argv[1], o->grid, o->block, o->shared, st->args)) {
            ps_err_print(ptxsim_last_error_info(st->d), stderr);
            status = 1;
        }
    for (int i = 0; i < o->nprint && !status; i++)
        if (print_buffer(st, o->print[i]))
            fprintf(stderr, "ptxsim exec: cannot print '%s'\n", o->print[i]), status = 2;
    for (int i = 0; i < o->nout && !status; i++)
        if (save_buffer(st, o->out[i]))
            fprintf(stderr, "ptxsim exec: cannot write '%s'\n", o->out[i]), status = 1;
    if (o->stats)
        fprintf(stderr, "ptxsim: %" PRIu64 " warp instructions, %" PRIu64 " thread instructions\n",
                ptxsim_warp_insts(st->d), ptxsim_thread_insts(st->d));
    if (ptxsim_outside_accesses(st->d))
        fprintf(stderr,
                "ptxsim exec: %" PRIu64 " device accesses fell outside every allocation (inside "
                "mapped pages, where a GPU lets them succeed); run with --memcheck to stop at the "
                "first with its PTX line, CTA and thread\n",
                ptxsim_outside_accesses(st->d));
    ptxsim_module_unload(m);
    return status;
}

int verb_exec(int argc, char **argv)
{
    struct ptxsim_options po;
    struct exec_opts o;
    struct exec_state st;
    int npos, rc = parse_opts(argc, argv, &o, &npos);

    if (rc) {
        usage(rc > 0 ? stdout : stderr);
        return rc > 0 ? 0 : 2;
    }
    memset(&st, 0, sizeof(st));
    ptxsim_options_default(&po);
    if (o.has_budget)
        po.insn_budget = o.budget;
    po.memcheck = o.memcheck;
    if (ptxsim_device_create(&po, &st.d)) {
        fprintf(stderr, "ptxsim: out of memory\n");
        return 1;
    }
    rc = run(&o, npos, argv, &st);
    ptxsim_device_destroy(st.d);
    return rc;
}
