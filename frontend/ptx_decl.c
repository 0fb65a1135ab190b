/*
 * PTX reader: variable declarations (module scope and bodies: spaces, alignment,
 * array dimensions, initialisers, extern merging) and function parameter lists.
 * Used by the module level (ptx_parse.c) and bodies (ptx_parse_body.c); it reads
 * tokens through ptx_cursor.c only.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "common/strmap.h"
#include "frontend/ptx_parser.h"

/* ---- variable declarations ------------------------------------------- */

struct decl_attrs {
    struct isa_var v; /* attributes shared by every name in the declaration */
    bool after_ptr;
};

static int parse_align(struct parser *p, uint32_t *align)
{
    uint32_t line = p->tok.line, col = p->tok.col;
    uint64_t v;
    int rc;

    if ((rc = pp_next(p)) || (rc = pp_expect_uint(p, &v, "an alignment")))
        return rc;
    if (!v || (v & (v - 1)) || v > (1u << 20))
        return pp_fail(p, line, col, "alignment must be a power of two, not %llu",
                       (unsigned long long)v);
    *align = (uint32_t)v;
    return 0;
}

static int parse_attribute(struct parser *p, struct isa_var *v)
{
    int rc;

    if ((rc = pp_next(p)) || (rc = pp_expect(p, '(')))
        return rc;
    if (!pp_is_dot(p, "managed"))
        return pp_fail_tok(p, "unsupported variable attribute (only .managed is supported)");
    v->managed = true;
    if ((rc = pp_next(p)))
        return rc;
    return pp_expect(p, ')');
}

int pp_space_of_dot(const struct parser *p)
{
    static const struct {
        const char *n;
        enum isa_space s;
    } spaces[] = {
        {"global", ISA_SPACE_GLOBAL}, {"shared", ISA_SPACE_SHARED}, {"const", ISA_SPACE_CONST},
        {"local", ISA_SPACE_LOCAL},   {"param", ISA_SPACE_PARAM},   {"reg", ISA_SPACE_REG},
        {"tex", ISA_SPACE_TEX},       {"surf", ISA_SPACE_SURF},
    };

    for (size_t i = 0; i < sizeof(spaces) / sizeof(spaces[0]); i++)
        if (pp_is_dot_n(p, spaces[i].n, strlen(spaces[i].n)))
            return spaces[i].s;
    return ISA_SPACE_NONE;
}

/* One attribute token (.align, .v4, .ptr, a type, ...); *done when a name follows. */
static int decl_attr(struct parser *p, struct decl_attrs *d)
{
    enum isa_type t = isa_type_lookup(p->tok.text, p->tok.len);
    int sp = pp_space_of_dot(p);

    if (pp_is_dot(p, "align"))
        return parse_align(p, d->after_ptr ? &d->v.ptr_align : &d->v.align);
    if (pp_is_dot(p, "attribute"))
        return parse_attribute(p, &d->v);
    if (pp_is_dot(p, "ptr") && d->v.space == ISA_SPACE_PARAM) {
        d->v.is_ptr = d->after_ptr = true;
        return pp_next(p);
    }
    if (d->after_ptr && sp && !d->v.ptr_space) {
        d->v.ptr_space = (uint8_t)sp;
        return pp_next(p);
    }
    if (pp_is_dot(p, "v2") || pp_is_dot(p, "v4") || pp_is_dot(p, "v8")) {
        if (d->v.vec)
            return pp_fail_tok(p, "more than one vector width in a declaration");
        d->v.vec = (uint8_t)(p->tok.text[1] - '0');
        return pp_next(p);
    }
    if (t != ISA_TYPE_NONE && t != ISA_TYPE_B1 && t != ISA_TYPE_S4 && t != ISA_TYPE_U4) {
        if (d->v.type)
            return pp_fail_tok(p, "more than one type in a declaration");
        d->v.type = (uint8_t)t;
        return pp_next(p);
    }
    return pp_fail_tok(p, "unexpected '.%.*s' in a declaration", (int)p->tok.len, p->tok.text);
}

static int parse_dims(struct parser *p, struct isa_var *v)
{
    uint64_t n;
    int rc;

    while (pp_is(p, '[')) {
        uint32_t line = p->tok.line, col = p->tok.col;

        if (v->ndims == ISA_MAX_DIMS)
            return pp_fail_tok(p, "too many array dimensions (at most %d)", ISA_MAX_DIMS);
        if ((rc = pp_next(p)))
            return rc;
        if (pp_is(p, ']') && v->ndims == 0) {
            v->unsized = true;
            v->dims[v->ndims++] = 0;
            if ((rc = pp_next(p)))
                return rc;
            continue;
        }
        if ((rc = pp_expect_uint(p, &n, "an array size")))
            return rc;
        if (!n || n > (UINT64_C(1) << 40))
            return pp_fail(p, line, col, "invalid array size %llu", (unsigned long long)n);
        v->dims[v->ndims++] = n;
        if ((rc = pp_expect(p, ']')))
            return rc;
    }
    return 0;
}

static uint64_t elem_count(const struct isa_var *v)
{
    uint64_t n = v->vec ? v->vec : 1;

    for (uint32_t i = 0; i < v->ndims; i++)
        n *= v->dims[i];
    return n;
}

/* One initialiser element: a number or a symbol address. */
static int init_elem(struct parser *p, struct isa_init *e)
{
    bool neg = false, generic = false;
    uint32_t idx;
    int rc;

    if (pp_is(p, '-')) {
        neg = true;
        if ((rc = pp_next(p)))
            return rc;
    }
    switch (p->tok.kind) {
    case PTX_TOK_INT:
        e->kind = ISA_INIT_INT;
        e->v.i = (int64_t)(neg ? UINT64_C(0) - p->tok.u : p->tok.u);
        return pp_next(p);
    case PTX_TOK_F32:
    case PTX_TOK_F64:
        e->kind = p->tok.kind == PTX_TOK_F32 ? ISA_INIT_F32 : ISA_INIT_F64;
        e->v.bits =
            p->tok.u ^ (neg ? (p->tok.kind == PTX_TOK_F32 ? 0x80000000u : UINT64_C(1) << 63) : 0);
        return pp_next(p);
    case PTX_TOK_FDEC:
        e->kind = ISA_INIT_FDEC;
        e->v.f = neg ? -p->tok.f : p->tok.f;
        if (!isfinite(e->v.f))
            return pp_fail_tok(p, "floating-point literal out of range");
        return pp_next(p);
    case PTX_TOK_IDENT:
        break;
    default:
        return pp_fail_tok(p, "expected an initialiser value");
    }
    if (neg)
        return pp_fail_tok(p, "a symbol address cannot be negated");
    if (p->tok.len == 7 && !memcmp(p->tok.text, "generic", 7)) {
        generic = true;
        if ((rc = pp_next(p)) || (rc = pp_expect(p, '(')))
            return rc;
        if (p->tok.kind != PTX_TOK_IDENT)
            return pp_fail_tok(p, "expected a variable name inside generic()");
    }
    idx = ps_strmap_get(p->gsyms, p->tok.text, p->tok.len);
    if (idx == PS_STRMAP_NONE)
        return pp_fail_tok(p, "use of undeclared identifier '%.*s'", (int)p->tok.len, p->tok.text);
    if (SYM_TAG(idx) == G_FUNC && generic)
        return pp_fail_tok(p, "generic() takes a variable, not a function");
    e->kind =
        SYM_TAG(idx) == G_FUNC ? ISA_INIT_FUNC : (generic ? ISA_INIT_GENERIC_SYM : ISA_INIT_SYM);
    e->sym = SYM_IDX(idx);
    if ((rc = pp_next(p)) || (generic && (rc = pp_expect(p, ')'))))
        return rc;
    if (pp_is(p, '+')) {
        uint64_t off;

        if ((rc = pp_next(p)) || (rc = pp_expect_uint(p, &off, "an offset")))
            return rc;
        e->v.i = (int64_t)off;
    }
    return 0;
}

struct init_buf {
    struct isa_init *e;
    uint32_t n, cap;
};

static int init_list(struct parser *p, struct init_buf *b, uint32_t depth)
{
    int rc;

    if (depth > 8)
        return pp_fail_tok(p, "initialiser nested too deeply");
    if (!pp_is(p, '{')) {
        if (isa_grow((void **)&b->e, b->n, &b->cap, sizeof(*b->e)))
            return pp_oom(p);
        memset(&b->e[b->n], 0, sizeof(b->e[0]));
        if ((rc = init_elem(p, &b->e[b->n])))
            return rc;
        b->n++;
        return 0;
    }
    if ((rc = pp_next(p)))
        return rc;
    for (;;) {
        if ((rc = init_list(p, b, depth + 1)))
            return rc;
        if (!pp_is(p, ','))
            break;
        if ((rc = pp_next(p)))
            return rc;
    }
    return pp_expect(p, '}');
}

/* { addr_mode_0 = clamp_to_edge, filter_mode = nearest, ... } for .texref/.samplerref/.surfref */
static int parse_props(struct parser *p, struct isa_var *v)
{
    struct init_buf b = {0};
    int rc;

    if ((rc = pp_expect(p, '{')))
        return rc;
    while (!pp_is(p, '}')) {
        struct isa_init *e;

        if (b.n && (rc = pp_expect(p, ',')))
            goto out;
        if (p->tok.kind != PTX_TOK_IDENT) {
            rc = pp_fail_tok(p, "expected a property name in the initialiser of '%s'", v->name);
            goto out;
        }
        if (isa_grow((void **)&b.e, b.n, &b.cap, sizeof(*b.e))) {
            rc = pp_oom(p);
            goto out;
        }
        e = &b.e[b.n++];
        memset(e, 0, sizeof(*e));
        e->kind = ISA_INIT_PROP;
        e->prop = pp_strdup(p, p->tok.text, p->tok.len);
        if ((rc = pp_next(p)) || (rc = pp_expect(p, '=')))
            goto out;
        if (p->tok.kind != PTX_TOK_IDENT && p->tok.kind != PTX_TOK_INT) {
            rc = pp_fail_tok(p, "expected a value for property '%s'", e->prop);
            goto out;
        }
        e->prop_value = pp_strdup(p, p->tok.text, p->tok.len);
        if ((rc = pp_next(p)))
            goto out;
    }
    v->init = b.n ? ps_arena_alloc(p->m->arena, b.n * sizeof(*b.e)) : NULL;
    if (b.n && !v->init) {
        rc = pp_oom(p);
        goto out;
    }
    if (b.n)
        memcpy(v->init, b.e, b.n * sizeof(*b.e));
    v->ninit = b.n;
    v->has_init = v->init_braced = true;
    rc = pp_next(p);
out:
    free(b.e);
    return rc;
}

static int parse_init(struct parser *p, struct isa_var *v)
{
    struct init_buf b = {0};
    uint32_t line = p->tok.line, col = p->tok.col;
    uint64_t room;
    int rc;

    if (isa_type_info((enum isa_type)v->type)->kind == ISA_TK_OPAQUE)
        return parse_props(p, v);
    if (v->space != ISA_SPACE_GLOBAL && v->space != ISA_SPACE_CONST)
        return pp_fail_tok(p, "initialiser not allowed for a .%s variable",
                           isa_space_name(v->space));
    v->init_braced = pp_is(p, '{');
    rc = init_list(p, &b, 0);
    if (!rc && b.n) {
        v->init = ps_arena_alloc(p->m->arena, b.n * sizeof(*b.e));
        if (!v->init)
            rc = pp_oom(p);
        else
            memcpy(v->init, b.e, b.n * sizeof(*b.e));
    }
    free(b.e);
    if (rc)
        return rc;
    v->has_init = true;
    v->ninit = b.n;
    if (v->unsized) {
        uint64_t rest = v->vec ? v->vec : 1;

        for (uint32_t i = 1; i < v->ndims; i++)
            rest *= v->dims[i];
        v->dims[0] = (b.n + rest - 1) / rest;
    }
    room = elem_count(v);
    if (b.n > room)
        return pp_fail(p, line, col, "too many initialisers for '%s' (%u for %llu elements)",
                       v->name, b.n, (unsigned long long)room);
    return 0;
}

static void finish_size(struct isa_var *v)
{
    v->size_bytes = v->unsized && !v->has_init ? 0 : elem_count(v) * isa_type_size(v->type);
}

/*
 * Attributes, then a name with optional dimensions and initialiser. The
 * current token is the first attribute; v->space is already set.
 */
static int decl_one(struct parser *p, struct decl_attrs *d, struct isa_var *v, bool allow_init)
{
    char buf[64];
    int rc;

    while (p->tok.kind == PTX_TOK_DOT)
        if ((rc = decl_attr(p, d)))
            return rc;
    *v = d->v;
    if (p->tok.kind != PTX_TOK_IDENT)
        return pp_fail_tok(p, "expected a name in the declaration but found %s",
                           pp_tok_desc(p, buf, sizeof(buf)));
    if (!v->type)
        return pp_fail_tok(p, "missing type in the declaration of '%.*s'", (int)p->tok.len,
                           p->tok.text);
    v->name = pp_strdup(p, p->tok.text, p->tok.len);
    v->line = p->tok.line;
    v->col = p->tok.col;
    if ((rc = pp_next(p)) || (rc = parse_dims(p, v)))
        return rc;
    if (pp_is(p, '=')) {
        if (!allow_init && v->space != ISA_SPACE_PARAM)
            return pp_fail_tok(p, "initialiser not allowed for a .%s variable",
                               isa_space_name((enum isa_space)v->space));
        if (!allow_init)
            return pp_fail_tok(p, "initialiser not allowed here");
        if ((rc = pp_next(p)) || (rc = parse_init(p, v)))
            return rc;
    }
    finish_size(v);
    return 0;
}

/*
 * A variable declared .extern and also defined in this module (what linking several
 * translation units' PTX gives, frontend/ptx_link.h): the definition, wherever it comes,
 * is the variable, at the index the first declaration took. Returns 1 when v was merged.
 */
static int merge_extern_var(struct parser *p, struct isa_var *v, uint32_t sym)
{
    struct isa_var *old;

    if (SYM_TAG(sym) != G_VAR)
        return 0;
    old = &p->m->vars[SYM_IDX(sym)];
    if (old->space != v->space ||
        (old->linkage != ISA_LINK_EXTERN && v->linkage != ISA_LINK_EXTERN))
        return 0;
    if (v->linkage != ISA_LINK_EXTERN) {
        *old = *v; /* the definition replaces the declaration */
        old->scope = ISA_NONE;
    }
    return 1;
}

static int add_module_var(struct parser *p, struct isa_var *v)
{
    struct isa_module *m = p->m;
    uint32_t sym = ps_strmap_get(p->gsyms, v->name, strlen(v->name));
    bool oom = false;

    if (sym != PS_STRMAP_NONE && merge_extern_var(p, v, sym))
        return 0;
    if (sym != PS_STRMAP_NONE)
        return pp_fail(p, v->line, v->col, "redeclaration of '%s'", v->name);
    if (m->nvars >= SYM_MAX_INDEX ||
        isa_grow((void **)&m->vars, m->nvars, &m->cap_vars, sizeof(*v)) ||
        isa_grow((void **)&m->items, m->nitems, &m->cap_items, sizeof(struct isa_item)))
        return pp_oom(p);
    v->scope = ISA_NONE;
    ps_strmap_put(p->gsyms, v->name, strlen(v->name), SYM_MAKE(G_VAR, m->nvars), &oom);
    if (oom)
        return pp_oom(p);
    m->items[m->nitems++] = (struct isa_item){ISA_ITEM_VAR, m->nvars};
    m->vars[m->nvars++] = *v;
    return 0;
}

static int add_body_var(struct parser *p, struct isa_var *v)
{
    struct isa_func *f = p->f;

    if (f->nlocals >= SYM_MAX_INDEX ||
        isa_grow((void **)&f->locals, f->nlocals, &f->cap_locals, sizeof(*v)) ||
        isa_grow((void **)&f->stmts, f->nstmts, &f->cap_stmts, sizeof(struct isa_stmt)))
        return pp_oom(p);
    v->scope = p->scope;
    if (pp_bind_local(p, v->name, (uint32_t)strlen(v->name), SYM_MAKE(L_LOCAL, f->nlocals), v->line,
                      v->col))
        return PS_EPARSE;
    f->stmts[f->nstmts].kind = ISA_STMT_LOCAL;
    f->stmts[f->nstmts++].index = f->nlocals;
    f->locals[f->nlocals++] = *v;
    return 0;
}

int pp_var_decl(struct parser *p, enum isa_space space, enum isa_linkage link, bool in_body)
{
    struct decl_attrs d;
    struct isa_var v;
    int rc;

    memset(&d, 0, sizeof(d));
    d.v.space = (uint8_t)space;
    d.v.linkage = (uint8_t)link;
    if (p->pending_bank >= 0) {
        d.v.bank = (uint8_t)p->pending_bank;
        d.v.has_bank = true;
        p->pending_bank = -1;
    }
    for (;;) {
        if ((rc = decl_one(p, &d, &v, space == ISA_SPACE_GLOBAL || space == ISA_SPACE_CONST)))
            return rc;
        if (v.unsized && !v.has_init && link != ISA_LINK_EXTERN && space != ISA_SPACE_PARAM)
            return pp_fail(p, v.line, v.col, "array '%s' needs a size (or .extern)", v.name);
        rc = in_body ? add_body_var(p, &v) : add_module_var(p, &v);
        if (rc)
            return rc;
        if (!pp_is(p, ','))
            break;
        if ((rc = pp_next(p)))
            return rc;
    }
    return pp_expect(p, ';');
}

/* ---- function signatures ---------------------------------------------- */

static int param_one(struct parser *p, struct isa_var *v, bool allow_reg)
{
    struct decl_attrs d;
    int sp = pp_space_of_dot(p);
    int rc;

    if (sp != ISA_SPACE_PARAM && !(sp == ISA_SPACE_REG && allow_reg))
        return pp_fail_tok(p, "expected .param in a parameter list");
    memset(&d, 0, sizeof(d));
    d.v.space = (uint8_t)sp;
    if ((rc = pp_next(p)))
        return rc;
    return decl_one(p, &d, v, false);
}

int pp_param_list(struct parser *p, struct isa_var **out, uint32_t *n, bool allow_reg)
{
    struct isa_var *vs = NULL, *res;
    uint32_t cnt = 0, cap = 0;
    int rc;

    if ((rc = pp_expect(p, '(')))
        return rc;
    while (!pp_is(p, ')')) {
        if (cnt && (rc = pp_expect(p, ',')))
            goto out;
        if (isa_grow((void **)&vs, cnt, &cap, sizeof(*vs))) {
            rc = pp_oom(p);
            goto out;
        }
        if ((rc = param_one(p, &vs[cnt], allow_reg)))
            goto out;
        vs[cnt].scope = ISA_NONE;
        cnt++;
    }
    res = cnt ? ps_arena_alloc(p->m->arena, cnt * sizeof(*vs)) : NULL;
    if (cnt && !res) {
        rc = pp_oom(p);
        goto out;
    }
    if (cnt)
        memcpy(res, vs, cnt * sizeof(*vs));
    *out = res;
    *n = cnt;
    rc = pp_next(p);
out:
    free(vs);
    return rc;
}
