#include "frontend/ptx_lex.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

void ptx_lex_init(struct ptx_lexer *lx, const char *text, size_t len)
{
    const char *nul = memchr(text, '\0', len);

    lx->p = text;
    lx->end = nul ? nul : text + len;
    lx->line_start = text;
    lx->line = 1;
}

static bool is_ident_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c == '%';
}

static bool is_ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '$';
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static int hex_val(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static void set_error(struct ptx_token *t, const char *msg)
{
    t->kind = PTX_TOK_ERROR;
    t->text = msg;
    t->len = (uint32_t)strlen(msg);
}

/* Skips blanks and comments; returns an error message or NULL. */
static const char *skip_space(struct ptx_lexer *lx, uint32_t *eline, uint32_t *ecol)
{
    while (lx->p < lx->end) {
        char c = *lx->p;

        if (c == '\n') {
            lx->p++;
            lx->line++;
            lx->line_start = lx->p;
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            lx->p++;
        } else if (c == '/' && lx->p + 1 < lx->end && lx->p[1] == '/') {
            while (lx->p < lx->end && *lx->p != '\n')
                lx->p++;
        } else if (c == '/' && lx->p + 1 < lx->end && lx->p[1] == '*') {
            *eline = lx->line;
            *ecol = (uint32_t)(lx->p - lx->line_start) + 1;
            lx->p += 2;
            for (;;) {
                if (lx->p + 1 >= lx->end) {
                    lx->p = lx->end;
                    return "unterminated comment";
                }
                if (lx->p[0] == '*' && lx->p[1] == '/')
                    break;
                if (*lx->p == '\n') {
                    lx->line++;
                    lx->line_start = lx->p + 1;
                }
                lx->p++;
            }
            lx->p += 2;
        } else {
            break;
        }
    }
    return NULL;
}

/* 0f / 0d hexadecimal float literals: exactly 8 / 16 digits. */
static void lex_hexfloat(struct ptx_lexer *lx, struct ptx_token *t, int digits)
{
    const char *q = lx->p + 2;
    uint64_t v = 0;
    int n = 0;

    while (q < lx->end && hex_val(*q) >= 0) {
        v = (v << 4) | (uint64_t)hex_val(*q);
        q++;
        n++;
    }
    if (n != digits || (q < lx->end && is_ident_char(*q))) {
        set_error(t, digits == 8 ? "malformed single-precision literal (0f needs 8 hex digits)"
                                 : "malformed double-precision literal (0d needs 16 hex digits)");
        return;
    }
    t->kind = digits == 8 ? PTX_TOK_F32 : PTX_TOK_F64;
    t->u = v;
    t->len = (uint32_t)(q - lx->p);
    lx->p = q;
}

static bool lex_decfloat(struct ptx_lexer *lx, struct ptx_token *t)
{
    const char *q = lx->p;
    char buf[128];
    size_t n;

    while (q < lx->end && is_digit(*q))
        q++;
    if (q < lx->end && *q == '.') {
        q++;
        while (q < lx->end && is_digit(*q))
            q++;
    }
    if (q < lx->end && (*q == 'e' || *q == 'E')) {
        const char *e = q + 1;

        if (e < lx->end && (*e == '+' || *e == '-'))
            e++;
        if (e >= lx->end || !is_digit(*e))
            return false;
        while (e < lx->end && is_digit(*e))
            e++;
        q = e;
    }
    n = (size_t)(q - lx->p);
    if (n >= sizeof(buf) || (q < lx->end && is_ident_char(*q)))
        return false;
    memcpy(buf, lx->p, n);
    buf[n] = '\0';
    t->f = strtod(buf, NULL);
    t->kind = PTX_TOK_FDEC;
    t->len = (uint32_t)n;
    lx->p = q;
    return true;
}

static bool is_decfloat(const struct ptx_lexer *lx)
{
    const char *q = lx->p;

    while (q < lx->end && is_digit(*q))
        q++;
    return q < lx->end && (*q == '.' || *q == 'e' || *q == 'E');
}

static int digit_in_base(char c, unsigned base)
{
    int v = hex_val(c);

    return (v >= 0 && (unsigned)v < base) ? v : -1;
}

static void lex_number(struct ptx_lexer *lx, struct ptx_token *t)
{
    const char *q = lx->p;
    unsigned base = 10;
    uint64_t v = 0;
    bool overflow = false, any = false;

    if (q[0] == '0' && q + 1 < lx->end) {
        char c = q[1];

        if (c == 'f' || c == 'F' || c == 'd' || c == 'D') {
            lex_hexfloat(lx, t, (c == 'f' || c == 'F') ? 8 : 16);
            return;
        }
        if (c == 'x' || c == 'X')
            base = 16, q += 2;
        else if (c == 'b' || c == 'B')
            base = 2, q += 2;
        else if (is_digit(c))
            base = 8, q += 1;
    }
    if (base == 10 && is_decfloat(lx)) {
        if (!lex_decfloat(lx, t))
            set_error(t, "malformed floating-point literal");
        return;
    }
    for (; q < lx->end && digit_in_base(*q, base) >= 0; q++) {
        uint64_t d = (uint64_t)digit_in_base(*q, base);

        any = true;
        if (v > (UINT64_MAX - d) / base)
            overflow = true;
        v = v * base + d;
    }
    if (base == 10)
        any = true;
    if (q < lx->end && *q == 'U')
        q++;
    if (!any || (q < lx->end && is_ident_char(*q))) {
        set_error(t, "malformed integer literal");
        return;
    }
    if (overflow) {
        set_error(t, "integer literal does not fit in 64 bits");
        return;
    }
    t->kind = PTX_TOK_INT;
    t->u = v;
    t->len = (uint32_t)(q - lx->p);
    lx->p = q;
}

static void lex_string(struct ptx_lexer *lx, struct ptx_token *t)
{
    const char *q = lx->p + 1;

    while (q < lx->end && *q != '"' && *q != '\n') {
        if (*q == '\\' && q + 1 < lx->end && q[1] != '\n')
            q++;
        q++;
    }
    if (q >= lx->end || *q != '"') {
        set_error(t, "unterminated string");
        return;
    }
    t->kind = PTX_TOK_STRING;
    t->text = lx->p + 1;
    t->len = (uint32_t)(q - lx->p - 1);
    lx->p = q + 1;
}

/* .name, with ::-joined parts (.L2::cache_hint, .mbarrier::complete_tx::bytes). */
static void lex_dot(struct ptx_lexer *lx, struct ptx_token *t)
{
    const char *q = lx->p + 1;

    for (;;) {
        while (q < lx->end && is_ident_char(*q))
            q++;
        if (q + 2 < lx->end && q[0] == ':' && q[1] == ':' && is_ident_char(q[2]))
            q += 2;
        else
            break;
    }
    if (q == lx->p + 1) {
        set_error(t, "expected a name after '.'");
        return;
    }
    t->kind = PTX_TOK_DOT;
    t->text = lx->p + 1;
    t->len = (uint32_t)(q - lx->p - 1);
    lx->p = q;
}

static void lex_ident(struct ptx_lexer *lx, struct ptx_token *t)
{
    const char *q = lx->p + 1;

    while (q < lx->end && is_ident_char(*q))
        q++;
    if (*lx->p == '%' && q == lx->p + 1) {
        set_error(t, "expected a register name after '%'");
        return;
    }
    t->kind = PTX_TOK_IDENT;
    t->text = lx->p;
    t->len = (uint32_t)(q - lx->p);
    lx->p = q;
}

static bool is_punct(char c)
{
    switch (c) {
    case '{': case '}': case '[': case ']': case '(': case ')': case ',': case ';': case ':':
    case '+': case '-': case '!': case '|': case '<': case '>': case '=': case '@':
        return true;
    default:
        return false;
    }
}

void ptx_lex_next(struct ptx_lexer *lx, struct ptx_token *t)
{
    uint32_t eline = 0, ecol = 0;
    const char *msg = skip_space(lx, &eline, &ecol);
    char c;

    memset(t, 0, sizeof(*t));
    if (msg) {
        t->line = eline;
        t->col = ecol;
        set_error(t, msg);
        return;
    }
    t->line = lx->line;
    t->col = (uint32_t)(lx->p - lx->line_start) + 1;
    t->text = lx->p;
    if (lx->p >= lx->end) {
        t->kind = PTX_TOK_EOF;
        return;
    }
    c = *lx->p;
    if (is_digit(c))
        lex_number(lx, t);
    else if (c == '.')
        lex_dot(lx, t);
    else if (is_ident_start(c))
        lex_ident(lx, t);
    else if (c == '"')
        lex_string(lx, t);
    else if (is_punct(c)) {
        t->kind = PTX_TOK_PUNCT;
        t->c = c;
        t->len = 1;
        lx->p++;
    } else {
        set_error(t, "invalid character");
    }
}
