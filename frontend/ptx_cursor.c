/*
 * PTX reader, lowest layer: the token cursor (advance, test, expect), error
 * records at a token's line and column, strings kept in the module's arena,
 * statement records, and scoped name bindings with their undo log. Every other
 * ptx_*.c of the parser sits on it; it calls none of them.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "common/strmap.h"
#include "frontend/ptx_parser.h"

int pp_fail(struct parser *p, uint32_t line, uint32_t col, const char *fmt, ...)
{
    va_list ap;

    if (p->err && p->err->code == PS_OK) {
        p->err->code = PS_EPARSE;
        snprintf(p->err->file, sizeof(p->err->file), "%s", p->fname);
        p->err->line = line;
        p->err->col = col;
        va_start(ap, fmt);
        vsnprintf(p->err->msg, sizeof(p->err->msg), fmt, ap);
        va_end(ap);
    }
    return PS_EPARSE;
}

int pp_fail_tok(struct parser *p, const char *fmt, ...)
{
    char msg[PS_ERR_MSG_MAX];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    return pp_fail(p, p->tok.line, p->tok.col, "%s", msg);
}

int pp_oom(struct parser *p)
{
    ps_err_set(p->err, PS_ENOMEM, "out of memory while parsing %s", p->fname);
    return PS_ENOMEM;
}

int pp_next(struct parser *p)
{
    ptx_lex_next(&p->lx, &p->tok);
    if (p->tok.kind == PTX_TOK_ERROR) {
        if (!strcmp(p->tok.text, "invalid character")) {
            unsigned char c = (unsigned char)*p->lx.p;

            if (c >= 0x20 && c < 0x7f)
                return pp_fail_tok(p, "invalid character '%c'", c);
            return pp_fail_tok(p, "invalid character (byte 0x%02x)", c);
        }
        return pp_fail_tok(p, "%.*s", (int)p->tok.len, p->tok.text);
    }
    return 0;
}

bool pp_is(const struct parser *p, char punct)
{
    return p->tok.kind == PTX_TOK_PUNCT && p->tok.c == punct;
}

bool pp_is_dot_n(const struct parser *p, const char *name, size_t len)
{
    return p->tok.kind == PTX_TOK_DOT && len == p->tok.len && !memcmp(p->tok.text, name, len);
}

const char *pp_tok_desc(const struct parser *p, char *buf, size_t len)
{
    const struct ptx_token *t = &p->tok;

    switch (t->kind) {
    case PTX_TOK_EOF:
        return "end of file";
    case PTX_TOK_DOT:
        snprintf(buf, len, "'.%.*s'", (int)(t->len > 40 ? 40 : t->len), t->text);
        return buf;
    case PTX_TOK_STRING:
        return "a string";
    case PTX_TOK_PUNCT:
        snprintf(buf, len, "'%c'", t->c);
        return buf;
    default:
        snprintf(buf, len, "'%.*s'", (int)(t->len > 40 ? 40 : t->len), t->text);
        return buf;
    }
}

int pp_expect(struct parser *p, char punct)
{
    char buf[64];

    if (!pp_is(p, punct))
        return pp_fail_tok(p, "expected '%c' but found %s", punct,
                           pp_tok_desc(p, buf, sizeof(buf)));
    return pp_next(p);
}

int pp_expect_uint(struct parser *p, uint64_t *v, const char *what)
{
    char buf[64];

    *v = 0;
    if (p->tok.kind != PTX_TOK_INT)
        return pp_fail_tok(p, "expected %s but found %s", what, pp_tok_desc(p, buf, sizeof(buf)));
    *v = p->tok.u;
    return pp_next(p);
}

char *pp_strdup(struct parser *p, const char *s, size_t len)
{
    return ps_arena_strndup(p->m->arena, s, len);
}

int pp_const_bank(struct parser *p, uint8_t *bank)
{
    uint32_t line = p->tok.line, col = p->tok.col;
    uint64_t v;
    int rc;

    if ((rc = pp_expect(p, '[')) || (rc = pp_expect_uint(p, &v, "a constant bank number")))
        return rc;
    if (v > 10)
        return pp_fail(p, line, col, "constant bank %llu does not exist (0 to 10)",
                       (unsigned long long)v);
    *bank = (uint8_t)v;
    return pp_expect(p, ']');
}

int pp_pragma_text(struct parser *p, const char **text)
{
    int rc;

    if (p->tok.kind != PTX_TOK_STRING)
        return pp_fail_tok(p, "expected a string after .pragma");
    *text = pp_strdup(p, p->tok.text, p->tok.len);
    if ((rc = pp_next(p)))
        return rc;
    if (pp_is(p, ','))
        return pp_fail_tok(p, "only one string is supported in .pragma");
    return pp_expect(p, ';');
}

/* ---- statements and scoped bindings ------------------------------------ */

int pp_add_stmt(struct parser *p, enum isa_stmt_kind kind, uint32_t index)
{
    struct isa_func *f = p->f;

    if (isa_grow((void **)&f->stmts, f->nstmts, &f->cap_stmts, sizeof(*f->stmts)))
        return pp_oom(p);
    f->stmts[f->nstmts].kind = (uint8_t)kind;
    f->stmts[f->nstmts++].index = index;
    return 0;
}

/* Block in which an existing binding was made (params count as outside the body). */
uint32_t pp_binding_scope(const struct parser *p, uint32_t v)
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
int pp_bind(struct parser *p, struct ps_strmap *map, const char *name, uint32_t len, uint32_t val)
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

    if (old != PS_STRMAP_NONE && pp_binding_scope(p, old) == p->scope)
        return pp_fail(p, line, col, "redeclaration of '%.*s'", (int)len, name);
    return pp_bind(p, p->lsyms, name, len, val);
}

/* Restores the bindings made since the undo log had `mark` entries. */
void pp_unbind_to(struct parser *p, uint32_t mark)
{
    while (p->nundo > mark) {
        struct undo *u = &p->undo[--p->nundo];

        if (u->old == PS_STRMAP_NONE)
            ps_strmap_del(u->map, u->name, u->len);
        else
            ps_strmap_put(u->map, u->name, u->len, u->old, NULL);
    }
}
