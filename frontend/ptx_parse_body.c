/*
 * PTX reader, function bodies: blocks, register and local declarations,
 * labels, branch/call target lists, .loc, and instructions with their
 * modifiers and operands.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "common/strmap.h"
#include "frontend/ptx_parser.h"

#define MAX_RANGE (1u << 24)

enum ident_ctx { CTX_VALUE, CTX_BRANCH };

static int add_stmt(struct parser *p, enum isa_stmt_kind kind, uint32_t index)
{
    struct isa_func *f = p->f;

    if (isa_grow((void **)&f->stmts, f->nstmts, &f->cap_stmts, sizeof(*f->stmts)))
        return pp_oom(p);
    f->stmts[f->nstmts].kind = (uint8_t)kind;
    f->stmts[f->nstmts++].index = index;
    return 0;
}

/* Block in which an existing binding was made (params count as outside the body). */
static uint32_t binding_scope(const struct parser *p, uint32_t v)
{
    switch (SYM_TAG(v)) {
    case L_REG:
        return p->f->regdecls[p->f->regs[SYM_IDX(v)].decl].scope;
    case L_RANGE:
        return p->f->regdecls[SYM_IDX(v)].scope;
    case L_LOCAL:
        return p->f->locals[SYM_IDX(v)].scope;
    default:
        return ISA_NONE;
    }
}

/* Binds name in map for the current block, remembering what to restore when it closes. */
static int bind(struct parser *p, struct ps_strmap *map, const char *name, uint32_t len,
                uint32_t val)
{
    uint32_t old;
    bool oom = false;

    if (isa_grow((void **)&p->undo, p->nundo, &p->cap_undo, sizeof(*p->undo)))
        return pp_oom(p);
    old = ps_strmap_put(map, name, len, val, &oom);
    if (oom)
        return pp_oom(p);
    p->undo[p->nundo++] = (struct undo){map, name, len, old};
    return 0;
}

int pp_bind_local(struct parser *p, const char *name, uint32_t len, uint32_t val, uint32_t line,
                  uint32_t col)
{
    uint32_t old = ps_strmap_get(p->lsyms, name, len);

    if (old != PS_STRMAP_NONE && binding_scope(p, old) == p->scope)
        return pp_fail(p, line, col, "redeclaration of '%.*s'", (int)len, name);
    return bind(p, p->lsyms, name, len, val);
}

/* Restores the bindings made since the undo log had `mark` entries. */
static void unbind_to(struct parser *p, uint32_t mark)
{
    while (p->nundo > mark) {
        struct undo *u = &p->undo[--p->nundo];

        if (u->old == PS_STRMAP_NONE)
            ps_strmap_del(u->map, u->name, u->len);
        else
            ps_strmap_put(u->map, u->name, u->len, u->old, NULL);
    }
}

/* ---- registers -------------------------------------------------------- */

static uint32_t lookup_range_reg(const struct parser *p, const char *s, uint32_t len);

static int new_regdecl(struct parser *p, const struct isa_regdecl *d, uint32_t line, uint32_t col)
{
    struct isa_func *f = p->f;
    uint32_t di = f->nregdecls;
    uint32_t nslots = d->is_range ? d->count : 1;

    if (f->nregs + (uint64_t)nslots >= SYM_MAX_INDEX)
        return pp_fail(p, line, col, "too many registers in '%s'", f->name);
    if (!d->is_range) {
        uint32_t v = lookup_range_reg(p, d->base, (uint32_t)strlen(d->base));

        if (v != PS_STRMAP_NONE && binding_scope(p, v) == p->scope)
            return pp_fail(p, line, col, "redeclaration of '%s'", d->base);
    }
    if (isa_grow((void **)&f->regdecls, f->nregdecls, &f->cap_regdecls, sizeof(*d)))
        return pp_oom(p);
    while (f->cap_regs < f->nregs + nslots)
        if (isa_grow((void **)&f->regs, f->cap_regs, &f->cap_regs, sizeof(*f->regs)))
            return pp_oom(p);
    f->regdecls[di] = *d;
    f->regdecls[di].first_slot = f->nregs;
    f->nregdecls++;
    for (uint32_t i = 0; i < nslots; i++)
        f->regs[f->nregs++] = (struct isa_reg){d->type, d->vec, di};
    return pp_bind_local(p, d->base, (uint32_t)strlen(d->base),
                         d->is_range ? SYM_MAKE(L_RANGE, di) : SYM_MAKE(L_REG, f->nregs - 1),
                         line, col);
}

static int reg_name(struct parser *p, struct isa_regdecl *d)
{
    uint32_t line = p->tok.line, col = p->tok.col;
    uint64_t n;
    int rc;

    if (p->tok.kind != PTX_TOK_IDENT)
        return pp_fail_tok(p, "expected a register name");
    d->base = pp_strdup(p, p->tok.text, p->tok.len);
    d->is_range = false;
    d->count = 1;
    if ((rc = pp_next(p)))
        return rc;
    if (pp_is(p, '<')) {
        if ((rc = pp_next(p)) || (rc = pp_expect_uint(p, &n, "a register count")))
            return rc;
        if (n > MAX_RANGE)
            return pp_fail(p, line, col, "register range %s<%llu> is too large", d->base,
                           (unsigned long long)n);
        d->is_range = true;
        d->count = (uint32_t)n;
        if ((rc = pp_expect(p, '>')))
            return rc;
    }
    if ((rc = new_regdecl(p, d, line, col)))
        return rc;
    return add_stmt(p, ISA_STMT_REGDECL, p->f->nregdecls - 1);
}

static int reg_decl(struct parser *p)
{
    struct isa_regdecl d;
    enum isa_type t;
    int rc;

    memset(&d, 0, sizeof(d));
    d.scope = p->scope;
    if (pp_is_dot(p, "v2") || pp_is_dot(p, "v4") || pp_is_dot(p, "v8")) {
        d.vec = (uint8_t)(p->tok.text[1] - '0');
        if ((rc = pp_next(p)))
            return rc;
    }
    t = p->tok.kind == PTX_TOK_DOT ? isa_type_lookup(p->tok.text, p->tok.len) : ISA_TYPE_NONE;
    if (t == ISA_TYPE_NONE || isa_type_info(t)->kind == ISA_TK_OPAQUE)
        return pp_fail_tok(p, "expected a register type after .reg");
    d.type = (uint8_t)t;
    if ((rc = pp_next(p)))
        return rc;
    for (;;) {
        if ((rc = reg_name(p, &d)))
            return rc;
        if (!pp_is(p, ','))
            break;
        if ((rc = pp_next(p)))
            return rc;
    }
    return pp_expect(p, ';');
}

/* %r12 with a %r<N> range in scope: slot of element 12. */
static uint32_t lookup_range_reg(const struct parser *p, const char *s, uint32_t len)
{
    uint32_t k = len, n = 0, v;

    while (k > 0 && s[k - 1] >= '0' && s[k - 1] <= '9')
        k--;
    if (k == len || k == 0 || len - k > 8 || (s[k] == '0' && len - k > 1))
        return PS_STRMAP_NONE;
    for (uint32_t i = k; i < len; i++)
        n = n * 10 + (uint32_t)(s[i] - '0');
    v = ps_strmap_get(p->lsyms, s, k);
    /* An inner %r<2> shadows an outer %r<10> only for %r0 and %r1. */
    for (uint32_t u = p->nundo;; u--) {
        if (v != PS_STRMAP_NONE && SYM_TAG(v) == L_RANGE && n < p->f->regdecls[SYM_IDX(v)].count)
            return SYM_MAKE(L_REG, p->f->regdecls[SYM_IDX(v)].first_slot + n);
        while (u > 0 && !(p->undo[u - 1].map == p->lsyms && p->undo[u - 1].len == k &&
                          !memcmp(p->undo[u - 1].name, s, k)))
            u--;
        if (u == 0)
            return PS_STRMAP_NONE;
        v = p->undo[u - 1].old;
    }
}

/* ---- labels ----------------------------------------------------------- */

static int new_label(struct parser *p, const struct ptx_token *t, uint32_t *idx);

/* The label a name refers to here; an unknown name becomes a forward reference. */
static int label_ref(struct parser *p, const struct ptx_token *t, uint32_t *idx)
{
    uint32_t v = ps_strmap_get(p->labels, t->text, t->len);

    if (v != PS_STRMAP_NONE) {
        *idx = v;
        return 0;
    }
    return new_label(p, t, idx);
}

static int new_label(struct parser *p, const struct ptx_token *t, uint32_t *idx)
{
    struct isa_func *f = p->f;
    struct isa_label *l;

    if (f->nlabels >= SYM_MAX_INDEX ||
        isa_grow((void **)&f->labels, f->nlabels, &f->cap_labels, sizeof(*l)))
        return pp_oom(p);
    l = &f->labels[f->nlabels];
    memset(l, 0, sizeof(*l));
    l->name = pp_strdup(p, t->text, t->len);
    if (!l->name)
        return pp_oom(p);
    l->use_line = t->line;
    l->use_col = t->col;
    l->scope = ISA_NONE;
    *idx = f->nlabels++;
    return bind(p, p->labels, l->name, t->len, *idx);
}

static int add_targets(struct parser *p, struct isa_label *l, bool functions)
{
    struct isa_func *f = p->f;
    int rc;

    l->first = f->ntargets;
    for (;;) {
        uint32_t idx;

        if (p->tok.kind != PTX_TOK_IDENT)
            return pp_fail_tok(p, "expected a %s name in the target list",
                               functions ? "function" : "label");
        if (functions) {
            uint32_t v = ps_strmap_get(p->gsyms, p->tok.text, p->tok.len);

            if (v == PS_STRMAP_NONE || SYM_TAG(v) != G_FUNC)
                return pp_fail_tok(p, "'%.*s' is not a declared function", (int)p->tok.len,
                                   p->tok.text);
            idx = SYM_IDX(v);
        } else if ((rc = label_ref(p, &p->tok, &idx))) {
            return rc;
        }
        if (isa_grow((void **)&f->targets, f->ntargets, &f->cap_targets, sizeof(uint32_t)))
            return pp_oom(p);
        f->targets[f->ntargets++] = idx;
        l = NULL; /* f->labels may not move, but keep the contract simple */
        if ((rc = pp_next(p)))
            return rc;
        if (!pp_is(p, ','))
            break;
        if ((rc = pp_next(p)))
            return rc;
    }
    return pp_expect(p, ';');
}

static int call_prototype(struct parser *p, uint32_t label)
{
    struct isa_module *m = p->m;
    struct isa_func *f;
    uint32_t idx;
    int rc;

    if (isa_grow((void **)&m->funcs, m->nfuncs, &m->cap_funcs, sizeof(*m->funcs)))
        return pp_oom(p);
    f = ps_arena_alloc(m->arena, sizeof(*f));
    if (!f)
        return pp_oom(p);
    f->name = p->f->labels[label].name;
    f->is_prototype = true;
    if (pp_is(p, '(')) {
        f->has_rets = true;
        if ((rc = pp_param_list(p, &f->rets, &f->nrets, false)))
            return rc;
    }
    if (p->tok.kind != PTX_TOK_IDENT || p->tok.len != 1 || p->tok.text[0] != '_')
        return pp_fail_tok(p, "expected '_' in .callprototype");
    if ((rc = pp_next(p)))
        return rc;
    if (pp_is(p, '(') && (rc = pp_param_list(p, &f->params, &f->nparams, false)))
        return rc;
    if (pp_is_dot(p, "noreturn")) {
        f->perf.noreturn = true;
        if ((rc = pp_next(p)))
            return rc;
    }
    idx = m->nfuncs;
    m->funcs[m->nfuncs++] = f;
    p->f->labels[label].first = idx;
    return pp_expect(p, ';');
}

static int label_def(struct parser *p, const struct ptx_token *name)
{
    struct isa_label *l;
    uint32_t idx;
    int rc;

    if ((rc = label_ref(p, name, &idx)))
        return rc;
    l = &p->f->labels[idx];
    if (l->defined && l->scope == p->scope)
        return pp_fail(p, name->line, name->col, "redefinition of label '%s'", l->name);
    if (l->defined) { /* labels are block-scoped: an inner block may reuse an outer name */
        if ((rc = new_label(p, name, &idx)))
            return rc;
        l = &p->f->labels[idx];
    }
    l->defined = true;
    l->pos = p->f->ninstrs;
    l->scope = p->scope;
    if ((rc = add_stmt(p, ISA_STMT_LABEL, idx)) || (rc = pp_next(p)))
        return rc; /* now past ':' */
    if (pp_is_dot(p, "branchtargets") || pp_is_dot(p, "calltargets")) {
        bool fn = pp_is_dot(p, "calltargets");

        l->kind = fn ? ISA_LABEL_CALLTARGETS : ISA_LABEL_BRANCHTARGETS;
        if ((rc = pp_next(p)))
            return rc;
        rc = add_targets(p, l, fn);
        l = &p->f->labels[idx];
        l->count = p->f->ntargets - l->first;
        return rc;
    }
    if (pp_is_dot(p, "callprototype")) {
        l->kind = ISA_LABEL_CALLPROTOTYPE;
        return pp_next(p) ? PS_EPARSE : call_prototype(p, idx);
    }
    return 0;
}

/* ---- .loc and .pragma --------------------------------------------------- */

int pp_loc(struct parser *p)
{
    uint64_t file, line, col;
    int rc;

    if ((rc = pp_expect_uint(p, &file, "a file number")) ||
        (rc = pp_expect_uint(p, &line, "a line number")) ||
        (rc = pp_expect_uint(p, &col, "a column number")))
        return rc;
    p->loc_file = (uint32_t)file;
    p->loc_line = (uint32_t)line;
    p->loc_col = (uint32_t)col;
    /* Inlining records (", function_name L, inlined_at f l c") carry nothing we use. */
    while (pp_is(p, ',')) {
        uint64_t x;

        if ((rc = pp_next(p)))
            return rc;
        if (p->tok.kind == PTX_TOK_IDENT && p->tok.len == 13 &&
            !memcmp(p->tok.text, "function_name", 13)) {
            if ((rc = pp_next(p)))
                return rc;
            if (p->tok.kind != PTX_TOK_IDENT)
                return pp_fail_tok(p, "expected a label after function_name");
            if ((rc = pp_next(p)))
                return rc;
        } else if (p->tok.kind == PTX_TOK_IDENT && p->tok.len == 10 &&
                   !memcmp(p->tok.text, "inlined_at", 10)) {
            if ((rc = pp_next(p)) || (rc = pp_expect_uint(p, &x, "a file number")) ||
                (rc = pp_expect_uint(p, &x, "a line number")) ||
                (rc = pp_expect_uint(p, &x, "a column number")))
                return rc;
        } else {
            return pp_fail_tok(p, "expected function_name or inlined_at in .loc");
        }
    }
    return 0;
}

static int body_pragma(struct parser *p)
{
    struct isa_func *f = p->f;
    const char *text;
    int rc = pp_pragma_text(p, &text);

    if (rc)
        return rc;
    if (isa_grow((void **)&f->body_pragmas, f->nbody_pragmas, &f->cap_body_pragmas,
                 sizeof(struct isa_pragma)))
        return pp_oom(p);
    f->body_pragmas[f->nbody_pragmas] = (struct isa_pragma){f->ninstrs, p->scope, text};
    return add_stmt(p, ISA_STMT_PRAGMA, f->nbody_pragmas++);
}

/* ---- operands --------------------------------------------------------- */

/* Byte and half-word selectors of video instructions (%r1.b0, %r2.h1). */
static int set_selector(struct parser *p, struct isa_operand *o)
{
    static const char *const sels[] = {"b0", "b1", "b2", "b3", "h0", "h1"};

    if (o->kind != ISA_OPND_REG)
        return pp_fail_tok(p, "a selector needs a register");
    for (unsigned i = 0; i < 6; i++)
        if (p->tok.len == 2 && !memcmp(p->tok.text, sels[i], 2)) {
            o->comp = (uint8_t)(5 + i);
            return pp_next(p);
        }
    return pp_fail_tok(p, "invalid component '.%.*s'", (int)p->tok.len, p->tok.text);
}

static int set_component(struct parser *p, struct isa_operand *o)
{
    static const char comps[] = "xyzw";
    const char *c;

    if (p->tok.len == 2)
        return set_selector(p, o);
    if (p->tok.len != 1 || !(c = strchr(comps, p->tok.text[0])))
        return pp_fail_tok(p, "invalid component '.%.*s'", (int)p->tok.len, p->tok.text);
    if (o->kind == ISA_OPND_SREG && (!isa_sreg_has_components((enum isa_sreg)o->a) || c > comps + 2))
        return pp_fail_tok(p, "special register has no component '.%c'", *c);
    if (o->kind == ISA_OPND_REG && p->f->regs[o->a].vec <= (uint32_t)(c - comps))
        return pp_fail_tok(p, "register is not a vector with component '.%c'", *c);
    if (o->kind != ISA_OPND_SREG && o->kind != ISA_OPND_REG)
        return pp_fail_tok(p, "a component needs a register");
    o->comp = (uint8_t)(c - comps + 1);
    return pp_next(p);
}

static bool local_sym(struct parser *p, const struct ptx_token *t, struct isa_operand *o)
{
    uint32_t v = ps_strmap_get(p->lsyms, t->text, t->len);

    if (v == PS_STRMAP_NONE || SYM_TAG(v) == L_RANGE)
        v = lookup_range_reg(p, t->text, t->len);
    if (v == PS_STRMAP_NONE)
        return false;
    o->a = SYM_IDX(v);
    switch (SYM_TAG(v)) {
    case L_REG:
        o->kind = ISA_OPND_REG;
        return true;
    case L_LOCAL:
        o->symscope = ISA_SYM_LOCAL;
        break;
    case L_PARAM:
        o->symscope = ISA_SYM_PARAM;
        break;
    default:
        o->symscope = ISA_SYM_RET;
        break;
    }
    o->kind = ISA_OPND_SYM;
    return true;
}

/* Resolves a name: register, local/param symbol, special register, label, module symbol. */
static int resolve_ident(struct parser *p, struct isa_operand *o, enum ident_ctx ctx)
{
    const struct ptx_token *t = &p->tok;
    uint32_t v;
    enum isa_sreg sr;

    if (local_sym(p, t, o))
        return 0;
    if (t->text[0] == '%' && (sr = isa_sreg_lookup(t->text, t->len)) != ISA_SREG_NONE) {
        o->kind = ISA_OPND_SREG;
        o->a = sr;
        return 0;
    }
    if (ctx == CTX_BRANCH || ps_strmap_get(p->labels, t->text, t->len) != PS_STRMAP_NONE) {
        o->kind = ISA_OPND_LABEL;
        return label_ref(p, t, &o->a);
    }
    v = ps_strmap_get(p->gsyms, t->text, t->len);
    if (v != PS_STRMAP_NONE) {
        o->kind = SYM_TAG(v) == G_FUNC ? ISA_OPND_FUNC : ISA_OPND_SYM;
        o->symscope = ISA_SYM_MODULE;
        o->a = SYM_IDX(v);
        return 0;
    }
    if (t->len == 7 && !memcmp(t->text, "WARP_SZ", 7)) {
        o->kind = ISA_OPND_IMM;
        o->v.i = 32;
        return 0;
    }
    return pp_fail_tok(p, "use of undeclared identifier '%.*s'", (int)t->len, t->text);
}

static int parse_offset(struct parser *p, int64_t *off)
{
    bool neg = pp_is(p, '-');
    int rc;

    if ((rc = pp_next(p)))
        return rc;
    if (pp_is(p, '-')) { /* nvcc writes [%rd1+-8] */
        neg = !neg;
        if ((rc = pp_next(p)))
            return rc;
    }
    if (p->tok.kind != PTX_TOK_INT)
        return pp_fail_tok(p, "expected an integer offset");
    *off = (int64_t)(neg ? UINT64_C(0) - p->tok.u : p->tok.u);
    return pp_next(p);
}

#define MAX_LIST 64

static int parse_operand(struct parser *p, struct isa_operand *o, enum ident_ctx ctx, int depth);

/* Appends n operands contiguously to the pool; *first receives the index. */
static int pool_append(struct parser *p, const struct isa_operand *ops, uint32_t n,
                       uint32_t *first)
{
    struct isa_func *f = p->f;

    *first = f->nops;
    if (!n)
        return 0;
    while (f->cap_ops < f->nops + n)
        if (isa_grow((void **)&f->ops, f->cap_ops, &f->cap_ops, sizeof(*f->ops)))
            return pp_oom(p);
    memcpy(&f->ops[f->nops], ops, n * sizeof(*ops));
    f->nops += n;
    return 0;
}

/* Elements of {..}, (..) or [..,..]; the opening bracket has been consumed. */
static int operand_list(struct parser *p, struct isa_operand *o, char close, int depth)
{
    struct isa_operand elems[MAX_LIST];
    uint32_t n = 0;
    int rc;

    if (depth > 3)
        return pp_fail_tok(p, "operand lists nested too deeply");
    while (!pp_is(p, close)) {
        if (n && (rc = pp_expect(p, ',')))
            return rc;
        if (n == MAX_LIST)
            return pp_fail_tok(p, "too many elements in an operand list (at most %d)", MAX_LIST);
        memset(&elems[n], 0, sizeof(elems[n]));
        if ((rc = parse_operand(p, &elems[n], CTX_VALUE, depth + 1)))
            return rc;
        n++;
    }
    o->n = n;
    if ((rc = pool_append(p, elems, n, &o->a)))
        return rc;
    return pp_next(p);
}

/* [reg+off], [sym+off], [imm], or a bracketed texture/surface list [a, b, {..}]. */
static int parse_address(struct parser *p, struct isa_operand *o, int depth)
{
    struct isa_operand elems[MAX_LIST], base;
    uint32_t n = 1;
    int rc;

    memset(&base, 0, sizeof(base));
    if (p->tok.kind == PTX_TOK_INT) {
        o->kind = ISA_OPND_ADDR;
        o->v.i = (int64_t)p->tok.u;
        return pp_next(p) ? PS_EPARSE : pp_expect(p, ']');
    }
    if (p->tok.kind != PTX_TOK_IDENT)
        return pp_fail_tok(p, "expected a register or symbol in the address");
    if ((rc = resolve_ident(p, &base, CTX_VALUE)) || (rc = pp_next(p)))
        return rc;
    if (pp_is(p, ',')) {
        elems[0] = base;
        while (pp_is(p, ',')) {
            if (n == MAX_LIST)
                return pp_fail_tok(p, "too many elements in a texture operand");
            if ((rc = pp_next(p)))
                return rc;
            memset(&elems[n], 0, sizeof(elems[n]));
            if ((rc = parse_operand(p, &elems[n++], CTX_VALUE, depth + 1)))
                return rc;
        }
        o->kind = ISA_OPND_BRLIST;
        o->n = n;
        if ((rc = pool_append(p, elems, n, &o->a)))
            return rc;
        return pp_expect(p, ']');
    }
    o->kind = ISA_OPND_ADDR;
    if (base.kind == ISA_OPND_REG) {
        o->flags = ISA_OPF_ADDR_REG;
    } else if (base.kind == ISA_OPND_SYM) {
        o->flags = ISA_OPF_ADDR_SYM;
        o->symscope = base.symscope;
    } else {
        return pp_fail(p, p->tok.line, p->tok.col, "an address must be based on a register or a variable");
    }
    o->a = base.a;
    if ((pp_is(p, '+') || pp_is(p, '-')) && (rc = parse_offset(p, &o->v.i)))
        return rc;
    return pp_expect(p, ']');
}

static int negated_literal(struct parser *p, struct isa_operand *o)
{
    int rc;

    if ((rc = pp_next(p)))
        return rc;
    switch (p->tok.kind) {
    case PTX_TOK_INT:
        o->kind = ISA_OPND_IMM;
        o->v.i = (int64_t)(UINT64_C(0) - p->tok.u);
        break;
    case PTX_TOK_F32:
        o->kind = ISA_OPND_F32;
        o->v.bits = p->tok.u ^ 0x80000000u;
        o->flags = ISA_OPF_MINUS;
        break;
    case PTX_TOK_F64:
        o->kind = ISA_OPND_F64;
        o->v.bits = p->tok.u ^ (UINT64_C(1) << 63);
        o->flags = ISA_OPF_MINUS;
        break;
    case PTX_TOK_FDEC:
        o->kind = ISA_OPND_FDEC;
        o->v.f = -p->tok.f;
        if (!isfinite(o->v.f))
            return pp_fail_tok(p, "floating-point literal out of range");
        break;
    default:
        return pp_fail_tok(p, "expected a number after '-'");
    }
    return pp_next(p);
}

static int pair_operand(struct parser *p, struct isa_operand *o)
{
    struct isa_operand q;
    int rc;

    if (o->kind != ISA_OPND_REG)
        return pp_fail_tok(p, "'|' must follow a register");
    if ((rc = pp_next(p)))
        return rc;
    memset(&q, 0, sizeof(q));
    if (p->tok.kind == PTX_TOK_IDENT && p->tok.len == 1 && p->tok.text[0] == '_') {
        q.kind = ISA_OPND_SINK;
        q.a = ISA_NONE;
    } else if (p->tok.kind != PTX_TOK_IDENT || (rc = resolve_ident(p, &q, CTX_VALUE))) {
        return rc ? rc : pp_fail_tok(p, "expected a register after '|'");
    } else if (q.kind != ISA_OPND_REG) {
        return pp_fail_tok(p, "expected a register after '|'");
    }
    o->flags |= ISA_OPF_PAIR;
    o->b = q.a;
    return pp_next(p);
}

static int ident_operand(struct parser *p, struct isa_operand *o, enum ident_ctx ctx)
{
    int rc;

    if (p->tok.len == 1 && p->tok.text[0] == '_') {
        o->kind = ISA_OPND_SINK;
        return pp_next(p);
    }
    if ((rc = resolve_ident(p, o, ctx)) || (rc = pp_next(p)))
        return rc;
    if (p->tok.kind == PTX_TOK_DOT && (rc = set_component(p, o)))
        return rc;
    if (pp_is(p, '|'))
        return pair_operand(p, o);
    if (o->kind == ISA_OPND_SYM && (pp_is(p, '+') || pp_is(p, '-')))
        return parse_offset(p, &o->v.i);
    return 0;
}

static int parse_operand(struct parser *p, struct isa_operand *o, enum ident_ctx ctx, int depth)
{
    char buf[64];
    int rc;

    switch (p->tok.kind) {
    case PTX_TOK_IDENT:
        return ident_operand(p, o, ctx);
    case PTX_TOK_INT:
        o->kind = ISA_OPND_IMM;
        o->v.i = (int64_t)p->tok.u;
        return pp_next(p);
    case PTX_TOK_F32:
    case PTX_TOK_F64:
        o->kind = p->tok.kind == PTX_TOK_F32 ? ISA_OPND_F32 : ISA_OPND_F64;
        o->v.bits = p->tok.u;
        return pp_next(p);
    case PTX_TOK_FDEC:
        o->kind = ISA_OPND_FDEC;
        o->v.f = p->tok.f;
        if (!isfinite(o->v.f))
            return pp_fail_tok(p, "floating-point literal out of range");
        return pp_next(p);
    case PTX_TOK_PUNCT:
        break;
    default:
        return pp_fail_tok(p, "expected an operand but found %s", pp_tok_desc(p, buf, sizeof(buf)));
    }
    switch (p->tok.c) {
    case '-':
        return negated_literal(p, o);
    case '!': {
        uint32_t line = p->tok.line, col = p->tok.col;

        if ((rc = pp_next(p)))
            return rc;
        if (p->tok.kind != PTX_TOK_IDENT || (rc = ident_operand(p, o, CTX_VALUE)))
            return rc ? rc : pp_fail_tok(p, "expected a predicate after '!'");
        if (o->kind != ISA_OPND_REG || p->f->regs[o->a].type != ISA_TYPE_PRED)
            return pp_fail(p, line, col, "'!' applies only to predicate registers");
        o->flags |= ISA_OPF_NEG;
        return 0;
    }
    case '{':
        o->kind = ISA_OPND_VEC;
        return pp_next(p) ? PS_EPARSE : operand_list(p, o, '}', depth);
    case '(':
        o->kind = ISA_OPND_LIST;
        return pp_next(p) ? PS_EPARSE : operand_list(p, o, ')', depth);
    case '[':
        return pp_next(p) ? PS_EPARSE : parse_address(p, o, depth);
    default:
        return pp_fail_tok(p, "expected an operand but found %s", pp_tok_desc(p, buf, sizeof(buf)));
    }
}

/* ---- instructions ----------------------------------------------------- */

/* ld.const[2].b32: '[' INT ']' followed by another modifier (not an address operand). */
static bool const_bank_follows(const struct parser *p)
{
    struct ptx_lexer save = p->lx;
    struct ptx_token a, b, c;

    ptx_lex_next(&save, &a);
    ptx_lex_next(&save, &b);
    ptx_lex_next(&save, &c);
    return a.kind == PTX_TOK_INT && b.kind == PTX_TOK_PUNCT && b.c == ']' && c.kind == PTX_TOK_DOT;
}

static int parse_mods(struct parser *p, struct isa_instr *in, const struct isa_op_info *oi)
{
    while (p->tok.kind == PTX_TOK_DOT) {
        uint32_t m = ps_strmap_get(p->mods, p->tok.text, p->tok.len);
        uint32_t first = m;

        while (m != PS_STRMAP_NONE && m && !(oi->cats & (UINT64_C(1) << isa_mod_info(m)->cat)))
            m = p->mod_next[m] ? p->mod_next[m] : PS_STRMAP_NONE;
        if (first == PS_STRMAP_NONE)
            return pp_fail_tok(p, "unknown modifier '.%.*s'", (int)p->tok.len, p->tok.text);
        if (m == PS_STRMAP_NONE || !m)
            return pp_fail_tok(p, "modifier '.%.*s' is not valid for '%s'", (int)p->tok.len,
                               p->tok.text, oi->name);
        if (in->nmods == ISA_MAX_MODS)
            return pp_fail_tok(p, "too many modifiers (at most %d)", ISA_MAX_MODS);
        in->mods[in->nmods++] = (uint16_t)m;
        if (pp_next(p))
            return PS_EPARSE;
        if (m == ISA_MOD_CONST && pp_is(p, '[') && const_bank_follows(p)) {
            if (pp_const_bank(p, &in->bank))
                return PS_EPARSE;
        }
    }
    return 0;
}

/* Fills the decoded fields from the modifier list; rejects contradictions. */
static int decode_mods(struct parser *p, struct isa_instr *in, uint32_t line, uint32_t col)
{
    static const uint64_t repeatable = ISA_CAT_BIT(TYPE) | ISA_CAT_BIT(SPACE) |
                                       ISA_CAT_BIT(MISC) | ISA_CAT_BIT(FENCE) | ISA_CAT_BIT(GEOM);
    uint64_t seen = 0;

    for (unsigned i = 0; i < in->nmods; i++) {
        const struct isa_mod_info *mi = isa_mod_info(in->mods[i]);
        uint64_t bit = UINT64_C(1) << mi->cat;
        uint8_t v = (uint8_t)mi->value;

        if ((seen & bit) && !(bit & repeatable))
            return pp_fail(p, line, col, "conflicting or repeated modifier '.%s'", mi->name);
        seen |= bit;
        switch (mi->cat) {
        case ISA_CAT_TYPE:
            if (in->ntypes == 4)
                return pp_fail(p, line, col, "too many type modifiers");
            in->types[in->ntypes++] = v;
            break;
        case ISA_CAT_VEC: in->vec = v; break;
        case ISA_CAT_SPACE: if (!in->space) in->space = v; break;
        case ISA_CAT_ROUND: in->round = v; break;
        case ISA_CAT_FTZ: in->ftz = v == 1; break;
        case ISA_CAT_SAT: in->sat = true; break;
        case ISA_CAT_PREC: in->prec = v; break;
        case ISA_CAT_CC: in->cc = true; break;
        case ISA_CAT_UNI: in->uni = true; break;
        case ISA_CAT_SYNC: in->sync = true; break;
        case ISA_CAT_CMP: in->cmp = v; break;
        case ISA_CAT_BOOL: in->boolop = v; break;
        case ISA_CAT_MUL: in->mulmode = v; break;
        case ISA_CAT_ATOM: in->atomop = v; break;
        case ISA_CAT_SHFL: in->shfl = v; break;
        case ISA_CAT_VOTE: in->vote = v; break;
        case ISA_CAT_SCOPE: in->scope = v; break;
        case ISA_CAT_SEM: in->sem = v; break;
        case ISA_CAT_CACHE: in->cache = v; break;
        default: break;
        }
    }
    return 0;
}

static bool needs_type(enum isa_op op)
{
    const struct isa_op_info *oi = isa_op_info(op);

    switch (op) {
    case ISA_OP_ELECT: case ISA_OP_MMA: case ISA_OP_WMMA: case ISA_OP_WGMMA:
    case ISA_OP_ISSPACEP: case ISA_OP_MOVMATRIX:
        return false;
    case ISA_OP_LD: case ISA_OP_LDU: case ISA_OP_ST: case ISA_OP_ATOM: case ISA_OP_RED:
        return true;
    default:
        return oi->unit == ISA_UNIT_INT || oi->unit == ISA_UNIT_FP || oi->unit == ISA_UNIT_SFU;
    }
}

/* Checks that follow from the PTX grammar of each opcode family. */
static int check_instr(struct parser *p, const struct isa_instr *in, const struct isa_operand *ops,
                       uint32_t line, uint32_t col)
{
    const struct isa_op_info *oi = isa_op_info(in->op);
    bool pack = false;

    for (unsigned i = 0; i < in->nmods; i++)
        pack |= in->mods[i] == ISA_MOD_PACK;
    if (needs_type(in->op) && !in->ntypes)
        return pp_fail(p, line, col, "'%s' needs a type modifier", oi->name);
    if (in->op == ISA_OP_CVT && in->ntypes < 2 && !pack)
        return pp_fail(p, line, col, "'cvt' needs a destination and a source type");
    if ((in->op == ISA_OP_SETP || in->op == ISA_OP_SET) && !in->cmp)
        return pp_fail(p, line, col, "'%s' needs a comparison operator", oi->name);
    if (in->op == ISA_OP_BRA && in->nops == 1 && ops[0].kind != ISA_OPND_LABEL)
        return pp_fail(p, line, col, "the target of 'bra' must be a label");
    if ((in->op == ISA_OP_ATOM || in->op == ISA_OP_RED) && !in->atomop)
        return pp_fail(p, line, col, "'%s' needs an operation such as .add", oi->name);
    if (in->op == ISA_OP_SHFL && !in->shfl)
        return pp_fail(p, line, col, "'shfl' needs a mode (.up, .down, .bfly or .idx)");
    if (in->op == ISA_OP_VOTE && !in->vote)
        return pp_fail(p, line, col, "'vote' needs a mode (.all, .any, .uni or .ballot)");
    if (in->nops < oi->min_ops || in->nops > oi->max_ops) {
        if (oi->min_ops == oi->max_ops)
            return pp_fail(p, line, col, "'%s' takes %u operand%s, not %u", oi->name,
                           oi->min_ops, oi->min_ops == 1 ? "" : "s", in->nops);
        return pp_fail(p, line, col, "'%s' takes %u to %u operands, not %u", oi->name,
                       oi->min_ops, oi->max_ops, in->nops);
    }
    return 0;
}

static int parse_guard(struct parser *p, struct isa_instr *in)
{
    struct isa_operand g;
    int rc;

    if ((rc = pp_next(p)))
        return rc;
    if (pp_is(p, '!')) {
        in->guard_neg = true;
        if ((rc = pp_next(p)))
            return rc;
    }
    memset(&g, 0, sizeof(g));
    if (p->tok.kind == PTX_TOK_IDENT && !local_sym(p, &p->tok, &g) &&
        isa_sreg_lookup(p->tok.text, p->tok.len) == ISA_SREG_NONE &&
        ps_strmap_get(p->gsyms, p->tok.text, p->tok.len) == PS_STRMAP_NONE)
        return pp_fail_tok(p, "use of undeclared identifier '%.*s'", (int)p->tok.len, p->tok.text);
    if (p->tok.kind != PTX_TOK_IDENT || g.kind != ISA_OPND_REG ||
        p->f->regs[g.a].type != ISA_TYPE_PRED)
        return pp_fail_tok(p, "a guard must be a predicate register");
    in->guard = g.a;
    return pp_next(p);
}

static int parse_instr(struct parser *p)
{
    struct isa_operand ops[ISA_MAX_OPERANDS];
    struct isa_func *f = p->f;
    struct isa_instr in;
    uint32_t v, line, col;
    int rc;

    memset(&in, 0, sizeof(in));
    in.guard = ISA_NONE;
    if (pp_is(p, '@') && (rc = parse_guard(p, &in)))
        return rc;
    if (p->tok.kind != PTX_TOK_IDENT)
        return pp_fail_tok(p, "expected an instruction after the guard");
    line = in.line = p->tok.line;
    col = in.col = p->tok.col;
    v = ps_strmap_get(p->ops, p->tok.text, p->tok.len);
    if (v == PS_STRMAP_NONE)
        return pp_fail_tok(p, "unknown instruction '%.*s'", (int)p->tok.len, p->tok.text);
    in.op = (uint16_t)v;
    if ((rc = pp_next(p)) || (rc = parse_mods(p, &in, isa_op_info(v))))
        return rc;
    while (!pp_is(p, ';')) {
        enum ident_ctx ctx = CTX_VALUE;
        char buf[64];

        if (in.nops && !pp_is(p, ','))
            return pp_fail_tok(p, "expected ',' or ';' but found %s",
                               pp_tok_desc(p, buf, sizeof(buf)));
        if (in.nops && (rc = pp_next(p)))
            return rc;
        if (in.nops == ISA_MAX_OPERANDS)
            return pp_fail_tok(p, "too many operands");
        if ((in.op == ISA_OP_BRA && in.nops == 0) || (in.op == ISA_OP_BRX && in.nops == 1))
            ctx = CTX_BRANCH;
        memset(&ops[in.nops], 0, sizeof(ops[0]));
        if ((rc = parse_operand(p, &ops[in.nops], ctx, 0)))
            return rc;
        in.nops++;
    }
    if ((rc = decode_mods(p, &in, line, col)) || (rc = check_instr(p, &in, ops, line, col)))
        return rc;
    if ((rc = pool_append(p, ops, in.nops, &in.first_op)))
        return rc;
    in.loc_file = p->loc_file;
    in.loc_line = p->loc_line;
    in.loc_col = p->loc_col;
    if (isa_grow((void **)&f->instrs, f->ninstrs, &f->cap_instrs, sizeof(in)))
        return pp_oom(p);
    f->instrs[f->ninstrs] = in;
    if ((rc = add_stmt(p, ISA_STMT_INSTR, f->ninstrs++)))
        return rc;
    return pp_next(p);
}

/* ---- bodies ----------------------------------------------------------- */

/* Whether the identifier just read is a label definition (followed by ':'). */
static bool next_is_colon(const struct parser *p)
{
    const char *q = p->lx.p;

    while (q < p->lx.end && (*q == ' ' || *q == '\t'))
        q++;
    if (q < p->lx.end && *q != '/' && *q != '\n' && *q != '\r')
        return *q == ':';
    {
        struct ptx_lexer save = p->lx; /* a comment or line break: ask the lexer */
        struct ptx_token t;

        ptx_lex_next(&save, &t);
        return t.kind == PTX_TOK_PUNCT && t.c == ':';
    }
}

static int bind_params(struct parser *p, struct isa_var *vs, uint32_t n, int tag)
{
    for (uint32_t i = 0; i < n; i++) {
        struct isa_var *v = &vs[i];
        uint32_t len = (uint32_t)strlen(v->name);
        int rc;

        if (v->space == ISA_SPACE_REG) {
            struct isa_regdecl d = {.base = v->name, .type = v->type, .vec = v->vec,
                                    .count = 1, .scope = ISA_NONE};

            rc = new_regdecl(p, &d, v->line, v->col);
        } else {
            rc = pp_bind_local(p, v->name, len, SYM_MAKE(tag, i), v->line, v->col);
        }
        if (rc)
            return rc;
    }
    return 0;
}

struct block_stack {
    uint32_t *marks; /* undo-log length when each block opened */
    uint32_t cap;
};

static int open_block(struct parser *p, struct block_stack *bs)
{
    struct isa_func *f = p->f;
    uint32_t s = f->nscopes;

    if (s > 4096)
        return pp_fail_tok(p, "too many nested blocks");
    if (isa_grow((void **)&f->scopes, f->nscopes, &f->cap_scopes, sizeof(*f->scopes)) ||
        isa_grow((void **)&bs->marks, s, &bs->cap, sizeof(uint32_t)))
        return pp_oom(p);
    f->scopes[s] = (struct isa_block){p->scope, f->ninstrs, f->ninstrs};
    bs->marks[s] = p->nundo;
    f->nscopes++;
    if (s && add_stmt(p, ISA_STMT_OPEN, s))
        return PS_ENOMEM;
    p->scope = s;
    return pp_next(p);
}

#define MAX_CARRY 256

static int close_block(struct parser *p, struct block_stack *bs)
{
    struct isa_func *f = p->f;
    uint32_t s = p->scope, carry[MAX_CARRY], ncarry;

    f->scopes[s].end = f->ninstrs;
    /* Forward references still undefined may be defined by an enclosing block. */
    ncarry = 0;
    for (uint32_t u = bs->marks[s]; u < p->nundo; u++)
        if (p->undo[u].map == p->labels) {
            uint32_t li = ps_strmap_get(p->labels, p->undo[u].name, p->undo[u].len);

            if (li != PS_STRMAP_NONE && !f->labels[li].defined && ncarry < MAX_CARRY)
                carry[ncarry++] = li;
        }
    unbind_to(p, bs->marks[s]);
    for (uint32_t i = 0; i < ncarry; i++)
        if (bind(p, p->labels, f->labels[carry[i]].name,
                 (uint32_t)strlen(f->labels[carry[i]].name), carry[i]))
            return PS_ENOMEM;
    if (s && add_stmt(p, ISA_STMT_CLOSE, s))
        return PS_ENOMEM;
    p->scope = f->scopes[s].parent;
    return pp_next(p);
}

static int body_directive(struct parser *p)
{
    static const struct { const char *n; enum isa_space s; } decls[] = {
        {"local", ISA_SPACE_LOCAL}, {"shared", ISA_SPACE_SHARED}, {"param", ISA_SPACE_PARAM},
        {"const", ISA_SPACE_CONST}, {"global", ISA_SPACE_GLOBAL},
    };

    if (pp_is_dot(p, "reg"))
        return pp_next(p) ? PS_EPARSE : reg_decl(p);
    if (pp_is_dot(p, "loc"))
        return pp_next(p) ? PS_EPARSE : pp_loc(p);
    if (pp_is_dot(p, "pragma"))
        return pp_next(p) ? PS_EPARSE : body_pragma(p);
    for (size_t i = 0; i < sizeof(decls) / sizeof(decls[0]); i++)
        if (pp_is_dot_n(p, decls[i].n, strlen(decls[i].n)))
            return pp_next(p) ? PS_EPARSE : pp_var_decl(p, decls[i].s, ISA_LINK_NONE, true);
    return pp_fail_tok(p, "unexpected '.%.*s' in a function body", (int)p->tok.len, p->tok.text);
}

static int body_statement(struct parser *p, struct block_stack *bs)
{
    char buf[64];

    if (p->tok.kind == PTX_TOK_DOT)
        return body_directive(p);
    if (pp_is(p, '{'))
        return open_block(p, bs);
    if (pp_is(p, '}'))
        return close_block(p, bs);
    if (pp_is(p, ';'))
        return pp_next(p);
    if (p->tok.kind == PTX_TOK_IDENT && next_is_colon(p)) {
        struct ptx_token name = p->tok;

        return pp_next(p) ? PS_EPARSE : label_def(p, &name);
    }
    if (pp_is(p, '@') || p->tok.kind == PTX_TOK_IDENT)
        return parse_instr(p);
    if (p->tok.kind == PTX_TOK_EOF)
        return pp_fail_tok(p, "unexpected end of file in the body of '%s'", p->f->name);
    return pp_fail_tok(p, "expected an instruction but found %s", pp_tok_desc(p, buf, sizeof(buf)));
}

static int check_labels(struct parser *p)
{
    for (uint32_t i = 0; i < p->f->nlabels; i++) {
        const struct isa_label *l = &p->f->labels[i];

        if (!l->defined)
            return pp_fail(p, l->use_line, l->use_col, "undefined label '%s'", l->name);
    }
    return 0;
}

int pp_body(struct parser *p, uint32_t fidx)
{
    struct block_stack bs = {0};
    struct isa_func *f = p->m->funcs[fidx];
    int rc;

    p->f = f;
    f->has_body = true;
    p->scope = ISA_NONE;
    p->loc_file = p->loc_line = p->loc_col = 0;
    if ((rc = bind_params(p, f->params, f->nparams, L_PARAM)) ||
        (rc = bind_params(p, f->rets, f->nrets, L_RET)) || (rc = open_block(p, &bs)))
        goto out;
    while (p->scope != ISA_NONE)
        if ((rc = body_statement(p, &bs)))
            goto out;
    rc = check_labels(p);
out:
    unbind_to(p, 0);
    free(bs.marks);
    ps_strmap_destroy(p->labels);
    p->labels = ps_strmap_create();
    if (!p->labels && !rc)
        rc = pp_oom(p);
    p->f = NULL;
    return rc;
}
