/*
 * PTX reader, module level: header directives, function signatures and the
 * module's items, and the entry points ptx_parse / ptx_parse_file. Below it:
 * bodies (ptx_parse_body.c), declarations (ptx_decl.c) and the token cursor
 * (ptx_cursor.c).
 */
#include "frontend/ptx_parse.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "common/strmap.h"
#include "frontend/ptx_parser.h"

/* ---- header directives ---------------------------------------------- */

/* Digits of t[from..to) as a number (at most 6 digits), or -1. */
static long digits(const char *t, uint32_t from, uint32_t to)
{
    long v = 0;

    if (from >= to || to - from > 6)
        return -1;
    for (uint32_t i = from; i < to; i++) {
        if (t[i] < '0' || t[i] > '9')
            return -1;
        v = v * 10 + (t[i] - '0');
    }
    return v;
}

static int parse_version(struct parser *p)
{
    const char *t = p->tok.text, *dot;
    long major, minor;
    uint32_t d;

    if (p->tok.kind != PTX_TOK_FDEC || !(dot = memchr(t, '.', p->tok.len)))
        return pp_fail_tok(p, "expected a version number like 7.0 after .version");
    d = (uint32_t)(dot - t);
    major = digits(t, 0, d);
    minor = digits(t, d + 1, p->tok.len);
    if (major < 0 || minor < 0)
        return pp_fail_tok(p, "malformed version number '%.*s'", (int)p->tok.len, t);
    if (major < 1 || major > 9 || minor > 9)
        return pp_fail_tok(p, "unsupported PTX version %ld.%ld (ptxsim reads 1.0 to 9.x)", major,
                           minor);
    p->m->version_major = (uint32_t)major;
    p->m->version_minor = (uint32_t)minor;
    return pp_next(p);
}

static bool valid_target(const char *s, uint32_t len, uint32_t *sm)
{
    static const unsigned known[] = {10, 11, 12, 13, 20, 21, 30, 32, 35, 37, 50, 52, 53, 60, 61,
                                     62, 70, 72, 75, 80, 86, 87, 88, 89, 90, 100, 101, 103, 110,
                                     120, 121};
    unsigned n = 0, i = 3;

    if (len < 5 || memcmp(s, "sm_", 3))
        return false;
    for (; i < len && s[i] >= '0' && s[i] <= '9'; i++)
        n = n * 10 + (unsigned)(s[i] - '0');
    if (i < len && (s[i] == 'a' || s[i] == 'f') && i + 1 == len)
        i++;
    if (i != len)
        return false;
    for (size_t k = 0; k < sizeof(known) / sizeof(known[0]); k++)
        if (known[k] == n) {
            *sm = n;
            return true;
        }
    return false;
}

static int add_target_opt(struct parser *p)
{
    static const char *const opts[] = {"texmode_unified", "texmode_independent", "debug",
                                       "map_f64_to_f32"};
    struct isa_module *m = p->m;
    bool ok = false;

    for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
        ok |= strlen(opts[i]) == p->tok.len && !memcmp(opts[i], p->tok.text, p->tok.len);
    if (!ok)
        return pp_fail_tok(p, "unknown .target option '%.*s'", (int)p->tok.len, p->tok.text);
    if (isa_grow((void **)&m->target_opts, m->ntarget_opts, &m->cap_target_opts, sizeof(char *)))
        return pp_oom(p);
    m->target_opts[m->ntarget_opts++] = pp_strdup(p, p->tok.text, p->tok.len);
    return pp_next(p);
}

static int parse_target(struct parser *p)
{
    int rc;

    if (p->tok.kind != PTX_TOK_IDENT || !valid_target(p->tok.text, p->tok.len, &p->m->sm))
        return pp_fail_tok(p, "unknown target '%.*s'", (int)p->tok.len, p->tok.text);
    p->m->target = pp_strdup(p, p->tok.text, p->tok.len);
    if ((rc = pp_next(p)))
        return rc;
    while (pp_is(p, ',')) {
        if ((rc = pp_next(p)))
            return rc;
        if (p->tok.kind != PTX_TOK_IDENT)
            return pp_fail_tok(p, "expected a .target option after ','");
        if ((rc = add_target_opt(p)))
            return rc;
    }
    return 0;
}

static int parse_address_size(struct parser *p)
{
    uint64_t v;
    uint32_t line = p->tok.line, col = p->tok.col;
    int rc = pp_expect_uint(p, &v, "32 or 64");

    if (rc)
        return rc;
    if (v != 32 && v != 64)
        return pp_fail(p, line, col, "address size must be 32 or 64, not %llu",
                       (unsigned long long)v);
    p->m->address_size = (uint32_t)v;
    p->m->has_address_size = true;
    return 0;
}

static int parse_file(struct parser *p)
{
    struct isa_module *m = p->m;
    struct isa_file fl = {0};
    uint64_t id;
    int rc;

    if ((rc = pp_expect_uint(p, &id, "a file number")))
        return rc;
    if (p->tok.kind != PTX_TOK_STRING)
        return pp_fail_tok(p, "expected a file name string after .file %llu",
                           (unsigned long long)id);
    fl.id = (uint32_t)id;
    fl.name = pp_strdup(p, p->tok.text, p->tok.len);
    if ((rc = pp_next(p)))
        return rc;
    if (pp_is(p, ',')) {
        fl.has_meta = true;
        if ((rc = pp_next(p)) || (rc = pp_expect_uint(p, &fl.timestamp, "a timestamp")) ||
            (rc = pp_expect(p, ',')) || (rc = pp_expect_uint(p, &fl.size, "a file size")))
            return rc;
    }
    if (isa_grow((void **)&m->files, m->nfiles, &m->cap_files, sizeof(fl)))
        return pp_oom(p);
    m->files[m->nfiles++] = fl;
    return 0;
}

/* .section name { ... }: DWARF and other sections carry nothing we execute. */
static int skip_section(struct parser *p)
{
    uint32_t depth = 0, line = p->tok.line, col = p->tok.col;
    int rc;

    if (p->tok.kind != PTX_TOK_DOT && p->tok.kind != PTX_TOK_IDENT)
        return pp_fail_tok(p, "expected a section name after .section");
    if ((rc = pp_next(p)))
        return rc;
    if (!pp_is(p, '{'))
        return pp_fail_tok(p, "expected '{' after the section name");
    do {
        if (p->tok.kind == PTX_TOK_EOF)
            return pp_fail(p, line, col, "unterminated .section");
        if (pp_is(p, '{'))
            depth++;
        else if (pp_is(p, '}'))
            depth--;
        if ((rc = pp_next(p)))
            return rc;
    } while (depth);
    return 0;
}

static int module_pragma(struct parser *p)
{
    struct isa_module *m = p->m;
    const char *text;
    int rc = pp_pragma_text(p, &text);

    if (rc)
        return rc;
    if (isa_grow((void **)&m->pragmas, m->npragmas, &m->cap_pragmas, sizeof(char *)) ||
        isa_grow((void **)&m->items, m->nitems, &m->cap_items, sizeof(struct isa_item)))
        return pp_oom(p);
    m->items[m->nitems++] = (struct isa_item){ISA_ITEM_PRAGMA, m->npragmas};
    m->pragmas[m->npragmas++] = text;
    return 0;
}

static int perf_triple(struct parser *p, uint32_t out[3], uint8_t *n)
{
    uint64_t v;
    int rc;

    *n = 0;
    do {
        if (*n && (rc = pp_next(p)))
            return rc;
        if (*n == 3)
            return pp_fail_tok(p, "at most three dimensions");
        if ((rc = pp_expect_uint(p, &v, "a dimension")))
            return rc;
        out[(*n)++] = (uint32_t)v;
    } while (pp_is(p, ','));
    return 0;
}

static int perf_single(struct parser *p, uint32_t *out, bool *has)
{
    uint64_t v;
    int rc = pp_expect_uint(p, &v, "a number");

    if (rc)
        return rc;
    *out = (uint32_t)v;
    *has = true;
    return 0;
}

static int add_func_pragma(struct parser *p, struct isa_func *f)
{
    const char *text, **np;
    int rc = pp_pragma_text(p, &text);

    if (rc)
        return rc;
    np = ps_arena_alloc(p->m->arena, (f->npragmas + 1) * sizeof(*np));
    if (!np)
        return pp_oom(p);
    if (f->npragmas)
        memcpy(np, f->pragmas, f->npragmas * sizeof(*np));
    np[f->npragmas++] = text;
    f->pragmas = np;
    return 0;
}

/* Performance-tuning directives between a signature and its body. */
static int parse_perf(struct parser *p, struct isa_func *f)
{
    struct isa_perf *q = &f->perf;
    int rc = 0;

    while (p->tok.kind == PTX_TOK_DOT) {
        bool flag = pp_is_dot(p, "explicitcluster") || pp_is_dot(p, "noreturn");

        if (!flag && !pp_is_dot(p, "maxntid") && !pp_is_dot(p, "reqntid") &&
            !pp_is_dot(p, "minnctapersm") && !pp_is_dot(p, "maxnctapersm") &&
            !pp_is_dot(p, "maxnreg") && !pp_is_dot(p, "maxclusterrank") &&
            !pp_is_dot(p, "reqnctapercluster") && !pp_is_dot(p, "pragma"))
            return pp_fail_tok(p, "unexpected '.%.*s' after a function signature",
                               (int)p->tok.len, p->tok.text);
        if (pp_is_dot(p, "explicitcluster"))
            q->explicitcluster = true;
        if (pp_is_dot(p, "noreturn"))
            q->noreturn = true;
        if (pp_is_dot(p, "pragma")) {
            if ((rc = pp_next(p)) || (rc = add_func_pragma(p, f)))
                return rc;
            continue;
        }
        const char *name = p->tok.text;
        if ((rc = pp_next(p)) || flag)
            continue;
        if (!strncmp(name, "maxntid", 7))
            rc = perf_triple(p, q->maxntid, &q->maxntid_n);
        else if (!strncmp(name, "reqntid", 7))
            rc = perf_triple(p, q->reqntid, &q->reqntid_n);
        else if (!strncmp(name, "reqnctapercluster", 17))
            rc = perf_triple(p, q->reqnctapercluster, &q->reqnctapercluster_n);
        else if (!strncmp(name, "minnctapersm", 12))
            rc = perf_single(p, &q->minnctapersm, &q->has_minnctapersm);
        else if (!strncmp(name, "maxnctapersm", 12))
            rc = perf_single(p, &q->maxnctapersm, &q->has_maxnctapersm);
        else if (!strncmp(name, "maxnreg", 7))
            rc = perf_single(p, &q->maxnreg, &q->has_maxnreg);
        else
            rc = perf_single(p, &q->maxclusterrank, &q->has_maxclusterrank);
        if (rc)
            return rc;
    }
    return 0;
}

static int new_func(struct parser *p, const char *name, uint32_t len, uint32_t *idx)
{
    struct isa_module *m = p->m;
    struct isa_func *f;

    if (m->nfuncs >= SYM_MAX_INDEX ||
        isa_grow((void **)&m->funcs, m->nfuncs, &m->cap_funcs, sizeof(*m->funcs)))
        return pp_oom(p);
    f = ps_arena_alloc(m->arena, sizeof(*f));
    if (!f || !(f->name = pp_strdup(p, name, len)))
        return pp_oom(p);
    *idx = m->nfuncs;
    m->funcs[m->nfuncs++] = f;
    return 0;
}

/* Finds or creates the function being declared; fails on redefinition. */
static int declare_func(struct parser *p, bool is_entry, uint32_t *idx)
{
    uint32_t v = ps_strmap_get(p->gsyms, p->tok.text, p->tok.len);
    bool oom = false;
    int rc;

    if (v != PS_STRMAP_NONE && SYM_TAG(v) != G_FUNC)
        return pp_fail_tok(p, "'%.*s' is already declared as a variable", (int)p->tok.len,
                           p->tok.text);
    if (v != PS_STRMAP_NONE) {
        *idx = SYM_IDX(v);
        if (p->m->funcs[*idx]->is_entry != is_entry)
            return pp_fail_tok(p, "'%.*s' was declared as %s", (int)p->tok.len, p->tok.text,
                               is_entry ? ".func" : ".entry");
        return 0;
    }
    if ((rc = new_func(p, p->tok.text, p->tok.len, idx)))
        return rc;
    ps_strmap_put(p->gsyms, p->m->funcs[*idx]->name, p->tok.len, SYM_MAKE(G_FUNC, *idx), &oom);
    return oom ? pp_oom(p) : 0;
}

static int add_item(struct parser *p, enum isa_item_kind kind, uint32_t idx)
{
    struct isa_module *m = p->m;

    if (isa_grow((void **)&m->items, m->nitems, &m->cap_items, sizeof(struct isa_item)))
        return pp_oom(p);
    m->items[m->nitems++] = (struct isa_item){kind, idx};
    return 0;
}

static int parse_function(struct parser *p, bool is_entry, enum isa_linkage link)
{
    struct isa_var *rets = NULL, *params = NULL;
    uint32_t nrets = 0, nparams = 0, idx = 0, line, col;
    bool has_rets = false;
    struct isa_func *f;
    char buf[64];
    int rc;

    if (!is_entry && pp_is(p, '(')) {
        has_rets = true;
        if ((rc = pp_param_list(p, &rets, &nrets, true)))
            return rc;
    }
    if (p->tok.kind != PTX_TOK_IDENT)
        return pp_fail_tok(p, "expected a function name but found %s",
                           pp_tok_desc(p, buf, sizeof(buf)));
    line = p->tok.line;
    col = p->tok.col;
    if ((rc = declare_func(p, is_entry, &idx)) || (rc = pp_next(p)))
        return rc;
    f = p->m->funcs[idx];
    if (pp_is(p, '(') && (rc = pp_param_list(p, &params, &nparams, !is_entry)))
        return rc;
    f->is_entry = is_entry;
    f->linkage = (uint8_t)link;
    f->has_rets = has_rets;
    f->rets = rets;
    f->nrets = nrets;
    f->params = params;
    f->nparams = nparams;
    f->line = line;
    f->col = col;
    memset(&f->perf, 0, sizeof(f->perf));
    f->npragmas = 0;
    if ((rc = parse_perf(p, f)))
        return rc;
    if (pp_is(p, ';')) {
        if ((rc = add_item(p, ISA_ITEM_FUNC_DECL, idx)))
            return rc;
        return pp_next(p);
    }
    if (!pp_is(p, '{'))
        return pp_fail_tok(p, "expected '{' or ';' after the signature of '%s'", f->name);
    if (f->has_body)
        return pp_fail(p, line, col, "redefinition of '%s'", f->name);
    if ((rc = add_item(p, ISA_ITEM_FUNC_DEF, idx)))
        return rc;
    return pp_body(p, idx);
}

/* ---- module ----------------------------------------------------------- */

static int linkage_of_dot(const struct parser *p)
{
    if (pp_is_dot(p, "visible"))
        return ISA_LINK_VISIBLE;
    if (pp_is_dot(p, "extern"))
        return ISA_LINK_EXTERN;
    if (pp_is_dot(p, "weak"))
        return ISA_LINK_WEAK;
    if (pp_is_dot(p, "common"))
        return ISA_LINK_COMMON;
    return ISA_LINK_NONE;
}

static int module_decl(struct parser *p)
{
    enum isa_linkage link = (enum isa_linkage)linkage_of_dot(p);
    int sp, rc;

    if (link != ISA_LINK_NONE && (rc = pp_next(p)))
        return rc;
    if (pp_is_dot(p, "entry") || pp_is_dot(p, "func")) {
        bool entry = pp_is_dot(p, "entry");

        if ((rc = pp_next(p)))
            return rc;
        return parse_function(p, entry, link);
    }
    sp = pp_space_of_dot(p);
    if (pp_is_dot(p, "samplerref") || pp_is_dot(p, "texref") || pp_is_dot(p, "surfref"))
        return pp_var_decl(p, ISA_SPACE_GLOBAL, link, false);
    if (sp && sp != ISA_SPACE_REG && sp != ISA_SPACE_PARAM) {
        if ((rc = pp_next(p)))
            return rc;
        if (sp == ISA_SPACE_CONST && pp_is(p, '[')) {
            uint8_t bank;

            if ((rc = pp_const_bank(p, &bank)))
                return rc;
            p->pending_bank = bank;
        }
        return pp_var_decl(p, (enum isa_space)sp, link, false);
    }
    if (p->tok.kind != PTX_TOK_DOT)
        return pp_fail_tok(p, "expected a directive at module scope");
    return pp_fail_tok(p, "unknown directive '.%.*s'", (int)p->tok.len, p->tok.text);
}

static int module_directive(struct parser *p)
{
    int rc;

    if (pp_is_dot(p, "version"))
        return pp_fail_tok(p, ".version may only appear once, at the start");
    if (pp_is_dot(p, "target") && p->m->target)
        return pp_fail_tok(p, "more than one .target directive");
    if (pp_is_dot(p, "target"))
        return pp_next(p) ? PS_EPARSE : parse_target(p);
    if (pp_is_dot(p, "address_size"))
        return pp_next(p) ? PS_EPARSE : parse_address_size(p);
    if (pp_is_dot(p, "file"))
        return pp_next(p) ? PS_EPARSE : parse_file(p);
    if (pp_is_dot(p, "loc"))
        return pp_next(p) ? PS_EPARSE : pp_loc(p);
    if (pp_is_dot(p, "section"))
        return pp_next(p) ? PS_EPARSE : skip_section(p);
    if (pp_is_dot(p, "pragma"))
        return pp_next(p) ? PS_EPARSE : module_pragma(p);
    if (!p->m->target && !pp_is_dot(p, "file")) {
        rc = pp_fail_tok(p, "missing .target directive before the first declaration");
        return rc;
    }
    return module_decl(p);
}

static int parse_module(struct parser *p)
{
    int rc;

    if ((rc = pp_next(p)))
        return rc;
    if (!pp_is_dot(p, "version"))
        return pp_fail_tok(p, "a PTX module must start with .version");
    if ((rc = pp_next(p)) || (rc = parse_version(p)))
        return rc;
    while (p->tok.kind != PTX_TOK_EOF) {
        if (p->tok.kind != PTX_TOK_DOT) {
            char buf[64];

            return pp_fail_tok(p, "expected a directive at module scope but found %s",
                               pp_tok_desc(p, buf, sizeof(buf)));
        }
        if ((rc = module_directive(p)))
            return rc;
    }
    if (!p->m->target)
        return pp_fail_tok(p, "missing .target directive");
    return 0;
}

static int build_vocab(struct parser *p)
{
    bool oom = false;

    p->ops = ps_strmap_create();
    p->mods = ps_strmap_create();
    p->gsyms = ps_strmap_create();
    p->lsyms = ps_strmap_create();
    p->labels = ps_strmap_create();
    if (!p->ops || !p->mods || !p->gsyms || !p->lsyms || !p->labels)
        return PS_ENOMEM;
    for (unsigned op = 1; op < ISA_OP_COUNT; op++) {
        const char *n = isa_op_info((enum isa_op)op)->name;

        ps_strmap_put(p->ops, n, strlen(n), op, &oom);
    }
    /* Walk backwards so each chain runs in table order (first category first). */
    for (unsigned m = ISA_MOD_COUNT - 1; m > 0; m--) {
        const char *n = isa_mod_info((enum isa_mod)m)->name;
        uint32_t prev;

        if (!n[0])
            continue;
        prev = ps_strmap_put(p->mods, n, strlen(n), m, &oom);
        p->mod_next[m] = (uint16_t)(prev == PS_STRMAP_NONE ? 0 : prev);
    }
    return oom ? PS_ENOMEM : 0;
}

static void free_vocab(struct parser *p)
{
    ps_strmap_destroy(p->ops);
    ps_strmap_destroy(p->mods);
    ps_strmap_destroy(p->gsyms);
    ps_strmap_destroy(p->lsyms);
    ps_strmap_destroy(p->labels);
    free(p->undo);
}

struct isa_module *ptx_parse(const char *text, size_t len, const char *name, struct ps_err *err)
{
    struct parser *p = calloc(1, sizeof(*p));
    struct isa_module *m = isa_module_create();
    int rc;

    ps_err_clear(err);
    if (!p || !m || build_vocab(p)) {
        ps_err_set(err, PS_ENOMEM, "out of memory");
        goto fail;
    }
    p->m = m;
    p->err = err;
    p->pending_bank = -1;
    p->fname = name ? name : "<input>";
    m->source_name = pp_strdup(p, p->fname, strlen(p->fname));
    ptx_lex_init(&p->lx, text, len);
    rc = parse_module(p);
    if (rc) {
        if (err && err->code == PS_OK)
            ps_err_set(err, rc, "parse failed");
        goto fail;
    }
    free_vocab(p);
    free(p);
    return m;
fail:
    if (p)
        free_vocab(p);
    free(p);
    isa_module_destroy(m);
    return NULL;
}

struct isa_module *ptx_parse_file(const char *path, struct ps_err *err)
{
    struct isa_module *m;
    FILE *fp = fopen(path, "rb");
    char *buf = NULL;
    long size;

    if (!fp) {
        ps_err_set(err, PS_EIO, "cannot open %s", path);
        return NULL;
    }
    if (fseek(fp, 0, SEEK_END) || (size = ftell(fp)) < 0 || fseek(fp, 0, SEEK_SET) ||
        !(buf = malloc((size_t)size + 1)) || fread(buf, 1, (size_t)size, fp) != (size_t)size) {
        ps_err_set(err, PS_EIO, "cannot read %s", path);
        free(buf);
        fclose(fp);
        return NULL;
    }
    fclose(fp);
    buf[size] = '\0';
    m = ptx_parse(buf, (size_t)size, path, err);
    free(buf);
    return m;
}
