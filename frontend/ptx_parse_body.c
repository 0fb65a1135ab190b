/*
 * PTX reader, function bodies: blocks, directives, .loc and .pragma, and
 * instructions with their guards and modifiers. Names (registers, labels) are in
 * ptx_names.c, operands in ptx_operand.c, declarations in ptx_decl.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "common/strmap.h"
#include "frontend/ptx_parser.h"

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
    return pp_add_stmt(p, ISA_STMT_PRAGMA, f->nbody_pragmas++);
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
    bool pack = isa_instr_has_mod(in, ISA_MOD_PACK);

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
    if (p->tok.kind == PTX_TOK_IDENT && !pp_local_sym(p, &p->tok, &g) &&
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
        if ((rc = pp_operand(p, &ops[in.nops], ctx, 0)))
            return rc;
        in.nops++;
    }
    if ((rc = decode_mods(p, &in, line, col)) || (rc = check_instr(p, &in, ops, line, col)))
        return rc;
    if ((rc = pp_pool_append(p, ops, in.nops, &in.first_op)))
        return rc;
    in.loc_file = p->loc_file;
    in.loc_line = p->loc_line;
    in.loc_col = p->loc_col;
    if (isa_grow((void **)&f->instrs, f->ninstrs, &f->cap_instrs, sizeof(in)))
        return pp_oom(p);
    f->instrs[f->ninstrs] = in;
    if ((rc = pp_add_stmt(p, ISA_STMT_INSTR, f->ninstrs++)))
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

            rc = pp_new_regdecl(p, &d, v->line, v->col);
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
    if (s && pp_add_stmt(p, ISA_STMT_OPEN, s))
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
    pp_unbind_to(p, bs->marks[s]);
    for (uint32_t i = 0; i < ncarry; i++)
        if (pp_bind(p, p->labels, f->labels[carry[i]].name,
                    (uint32_t)strlen(f->labels[carry[i]].name), carry[i]))
            return PS_ENOMEM;
    if (s && pp_add_stmt(p, ISA_STMT_CLOSE, s))
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
        return pp_next(p) ? PS_EPARSE : pp_reg_decl(p);
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

        return pp_next(p) ? PS_EPARSE : pp_label_def(p, &name);
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
    pp_unbind_to(p, 0);
    free(bs.marks);
    ps_strmap_destroy(p->labels);
    p->labels = ps_strmap_create();
    if (!p->labels && !rc)
        rc = pp_oom(p);
    p->f = NULL;
    return rc;
}
