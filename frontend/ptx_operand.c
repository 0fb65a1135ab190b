/*
 * PTX reader, operands of an instruction: registers with selectors and vector
 * components, special registers, symbols, labels, immediates, addresses, vectors,
 * pairs and call lists, appended to the function's operand pool.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "common/strmap.h"
#include "frontend/ptx_parser.h"

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
    if (o->kind == ISA_OPND_SREG &&
        (!isa_sreg_has_components((enum isa_sreg)o->a) || c > comps + 2))
        return pp_fail_tok(p, "special register has no component '.%c'", *c);
    if (o->kind == ISA_OPND_REG && p->f->regs[o->a].vec <= (uint32_t)(c - comps))
        return pp_fail_tok(p, "register is not a vector with component '.%c'", *c);
    if (o->kind != ISA_OPND_SREG && o->kind != ISA_OPND_REG)
        return pp_fail_tok(p, "a component needs a register");
    o->comp = (uint8_t)(c - comps + 1);
    return pp_next(p);
}

bool pp_local_sym(struct parser *p, const struct ptx_token *t, struct isa_operand *o)
{
    uint32_t v = ps_strmap_get(p->lsyms, t->text, t->len);

    if (v == PS_STRMAP_NONE || SYM_TAG(v) == L_RANGE)
        v = pp_lookup_range_reg(p, t->text, t->len);
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

    if (pp_local_sym(p, t, o))
        return 0;
    if (t->text[0] == '%' && (sr = isa_sreg_lookup(t->text, t->len)) != ISA_SREG_NONE) {
        o->kind = ISA_OPND_SREG;
        o->a = sr;
        return 0;
    }
    if (ctx == CTX_BRANCH || ps_strmap_get(p->labels, t->text, t->len) != PS_STRMAP_NONE) {
        o->kind = ISA_OPND_LABEL;
        return pp_label_ref(p, t, &o->a);
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

/* Appends n operands contiguously to the pool; *first receives the index. */
int pp_pool_append(struct parser *p, const struct isa_operand *ops, uint32_t n, uint32_t *first)
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
        if ((rc = pp_operand(p, &elems[n], CTX_VALUE, depth + 1)))
            return rc;
        n++;
    }
    o->n = n;
    if ((rc = pp_pool_append(p, elems, n, &o->a)))
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
            if ((rc = pp_operand(p, &elems[n++], CTX_VALUE, depth + 1)))
                return rc;
        }
        o->kind = ISA_OPND_BRLIST;
        o->n = n;
        if ((rc = pp_pool_append(p, elems, n, &o->a)))
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
        return pp_fail(p, p->tok.line, p->tok.col,
                       "an address must be based on a register or a variable");
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

int pp_operand(struct parser *p, struct isa_operand *o, enum ident_ctx ctx, int depth)
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
