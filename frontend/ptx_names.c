/*
 * PTX reader, names in a body: register declarations (including %r<N> ranges)
 * and their lookup, labels with forward references, branch and call target
 * lists, and call prototypes.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "common/strmap.h"
#include "frontend/ptx_parser.h"

#define MAX_RANGE (1u << 24)

/* ---- registers -------------------------------------------------------- */

int pp_new_regdecl(struct parser *p, const struct isa_regdecl *d, uint32_t line, uint32_t col)
{
    struct isa_func *f = p->f;
    uint32_t di = f->nregdecls;
    uint32_t nslots = d->is_range ? d->count : 1;

    if (f->nregs + (uint64_t)nslots >= SYM_MAX_INDEX)
        return pp_fail(p, line, col, "too many registers in '%s'", f->name);
    if (!d->is_range) {
        uint32_t v = pp_lookup_range_reg(p, d->base, (uint32_t)strlen(d->base));

        if (v != PS_STRMAP_NONE && pp_binding_scope(p, v) == p->scope)
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
                         d->is_range ? SYM_MAKE(L_RANGE, di) : SYM_MAKE(L_REG, f->nregs - 1), line,
                         col);
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
    if ((rc = pp_new_regdecl(p, d, line, col)))
        return rc;
    return pp_add_stmt(p, ISA_STMT_REGDECL, p->f->nregdecls - 1);
}

int pp_reg_decl(struct parser *p)
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
uint32_t pp_lookup_range_reg(const struct parser *p, const char *s, uint32_t len)
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
int pp_label_ref(struct parser *p, const struct ptx_token *t, uint32_t *idx)
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
    return pp_bind(p, p->labels, l->name, t->len, *idx);
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
        } else if ((rc = pp_label_ref(p, &p->tok, &idx))) {
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

int pp_label_def(struct parser *p, const struct ptx_token *name)
{
    struct isa_label *l;
    uint32_t idx;
    int rc;

    if ((rc = pp_label_ref(p, name, &idx)))
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
    if ((rc = pp_add_stmt(p, ISA_STMT_LABEL, idx)) || (rc = pp_next(p)))
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
