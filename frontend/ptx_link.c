/*
 * PTX text linking for relocatable device code (see ptx_link.h). Each unit
 * is cut into tokens and its module-scope statements (header directives,
 * .file lines, variable and function declarations and definitions); the
 * statements are then written out unit by unit, with tokens renamed or
 * renumbered where needed, and with declarations that another unit already
 * satisfied left out. The text between the tokens of a statement is copied
 * as it is, so comments and layout inside bodies survive.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "frontend/ptx_link.h"

enum tok_kind { T_IDENT, T_DIR, T_NUM, T_STR, T_PUNCT };

struct tok {
    size_t off;
    uint32_t len;
    uint8_t kind;
    bool nl_before; /* a newline lies between the previous token and this one */
};

enum stmt_kind { S_VERSION, S_TARGET, S_ADDR, S_FILE, S_DECL, S_OTHER };
enum link_kind { L_NONE, L_VISIBLE, L_EXTERN, L_WEAK, L_COMMON };

struct stmt {
    uint32_t t0, t1; /* tokens [t0, t1) */
    uint8_t kind;
    uint8_t link;
    bool is_func, is_entry, defines; /* defines: a body, or a variable that is not .extern */
    uint32_t name;                   /* token of the declared name, UINT32_MAX when none */
};

struct unit {
    const char *s;
    size_t len;
    struct tok *t;
    uint32_t nt, capt;
    struct stmt *st;
    uint32_t nst, capst;
    uint32_t max_file;  /* highest .file number */
    uint32_t file_base; /* added to its .file / .loc numbers */
    bool *renamed;      /* per statement with a name: its name is renamed in this unit */
    uint32_t *ren;      /* the statements whose names are renamed */
    uint32_t nren;
};

/* Names of the linked module's symbols, as the writer has seen them. */
struct seen {
    const char *name;
    uint32_t len;
    bool def, ext;
};

struct linker {
    struct unit *u;
    uint32_t n;
    char *out;
    size_t len, cap;
    struct seen *seen;
    uint32_t nseen, capseen;
    struct ps_err *err;
    bool oom;
};

/* ---- tokens ------------------------------------------------------------- */

static bool ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '$';
}

static bool grow(void **p, uint32_t n, uint32_t *cap, size_t elem)
{
    void *q;

    if (n < *cap)
        return true;
    q = realloc(*p, (size_t)(*cap ? *cap * 2 : 256) * elem);
    if (!q)
        return false;
    *p = q;
    *cap = *cap ? *cap * 2 : 256;
    return true;
}

/* Skips blanks and comments from i; sets *nl when a newline was skipped. */
static size_t skip_space(const char *s, size_t len, size_t i, bool *nl)
{
    while (i < len) {
        if (s[i] == '\n')
            *nl = true;
        if (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n') {
            i++;
        } else if (s[i] == '/' && i + 1 < len && s[i + 1] == '/') {
            while (i < len && s[i] != '\n')
                i++;
        } else if (s[i] == '/' && i + 1 < len && s[i + 1] == '*') {
            for (i += 2; i + 1 < len && !(s[i] == '*' && s[i + 1] == '/'); i++)
                *nl |= s[i] == '\n';
            i = i + 2 < len ? i + 2 : len;
        } else {
            break;
        }
    }
    return i;
}

/* Length and kind of the token at s[i]. */
static uint32_t token_at(const char *s, size_t len, size_t i, uint8_t *kind)
{
    size_t j = i + 1;

    if (s[i] == '"') {
        while (j < len && s[j] != '"')
            j += s[j] == '\\' ? 2 : 1;
        *kind = T_STR;
        return (uint32_t)((j < len ? j + 1 : len) - i);
    }
    if (s[i] == '.' || s[i] == '%' || ident_char(s[i])) {
        while (j < len && (ident_char(s[j]) || (s[i] >= '0' && s[i] <= '9' && s[j] == '.')))
            j++;
        *kind = s[i] == '.' ? T_DIR : (s[i] >= '0' && s[i] <= '9') ? T_NUM : T_IDENT;
        return (uint32_t)(j - i);
    }
    *kind = T_PUNCT;
    return 1;
}

static int tokenize(struct linker *lk, struct unit *u)
{
    size_t i = 0;
    bool nl = true;

    for (;;) {
        struct tok *t;

        i = skip_space(u->s, u->len, i, &nl);
        if (i >= u->len || !u->s[i])
            return 0;
        if (!grow((void **)&u->t, u->nt, &u->capt, sizeof(*u->t)))
            return ps_err_set(lk->err, PS_ENOMEM, "out of memory linking PTX");
        t = &u->t[u->nt++];
        t->off = i;
        t->len = token_at(u->s, u->len, i, &t->kind);
        t->nl_before = nl;
        nl = false;
        i += t->len;
    }
}

static bool tok_is(const struct unit *u, uint32_t k, const char *text)
{
    size_t n = strlen(text);

    return k < u->nt && u->t[k].len == n && !memcmp(u->s + u->t[k].off, text, n);
}

/* The decimal or hex number of token k (0 when it is not one); never reads past the token. */
static unsigned long tok_number(const struct unit *u, uint32_t k)
{
    char buf[32];
    uint32_t n = k < u->nt ? u->t[k].len : 0;

    if (!n || n >= sizeof(buf))
        return 0;
    memcpy(buf, u->s + u->t[k].off, n);
    buf[n] = 0;
    return strtoul(buf, NULL, 0);
}

static bool same_text(const struct unit *a, uint32_t ka, const struct unit *b, uint32_t kb)
{
    if (ka >= a->nt || kb >= b->nt)
        return false;
    return a->t[ka].len == b->t[kb].len &&
           !memcmp(a->s + a->t[ka].off, b->s + b->t[kb].off, a->t[ka].len);
}

/* ---- statements --------------------------------------------------------- */

/* One past the last token of the statement starting at token k. */
static uint32_t stmt_end(const struct unit *u, uint32_t k, bool *ok)
{
    int paren = 0, brace = 0;
    bool assign = false;

    *ok = true;
    if (tok_is(u, k, ".version") || tok_is(u, k, ".target") || tok_is(u, k, ".address_size") ||
        tok_is(u, k, ".file")) {
        for (k++; k < u->nt && !u->t[k].nl_before; k++)
            ;
        return k;
    }
    for (; k < u->nt; k++) {
        char c = u->t[k].kind == T_PUNCT ? u->s[u->t[k].off] : 0;

        paren += (c == '(') - (c == ')');
        assign |= c == '=' && !brace && !paren;
        if (c == '{')
            brace++;
        if (c == '}' && --brace == 0 && !assign)
            return k + 1; /* end of a body */
        if (c == ';' && !brace && !paren)
            return k + 1;
    }
    *ok = false;
    return k;
}

static void classify_decl(const struct unit *u, struct stmt *s)
{
    uint32_t k, last_ident = UINT32_MAX;

    s->kind = S_DECL;
    for (k = s->t0; k < s->t1; k++) {
        const struct tok *t = &u->t[k];
        char c = t->kind == T_PUNCT ? u->s[t->off] : 0;

        if (tok_is(u, k, ".visible"))
            s->link = L_VISIBLE;
        else if (tok_is(u, k, ".extern"))
            s->link = L_EXTERN;
        else if (tok_is(u, k, ".weak"))
            s->link = L_WEAK;
        else if (tok_is(u, k, ".common"))
            s->link = L_COMMON;
        if (tok_is(u, k, ".func") || tok_is(u, k, ".entry")) {
            s->is_func = true;
            s->is_entry = tok_is(u, k, ".entry");
            for (k++; k < s->t1 && tok_is(u, k, "("); k++) /* a return list */
                for (int depth = 0; k < s->t1; k++) {
                    depth += tok_is(u, k, "(") - tok_is(u, k, ")");
                    if (!depth)
                        break;
                }
            s->name = k < s->t1 && u->t[k].kind == T_IDENT ? k : UINT32_MAX;
            s->defines = tok_is(u, s->t1 - 1, "}");
            if (s->name == UINT32_MAX)
                s->kind = S_OTHER; /* malformed: passed on for the parser to report */
            return;
        }
        if (c == '=' || c == ';' || c == '[' || c == '<')
            break;
        if (t->kind == T_IDENT)
            last_ident = k;
    }
    s->name = last_ident;
    s->defines = s->link != L_EXTERN;
    if (s->name == UINT32_MAX)
        s->kind = S_OTHER;
}

static int split(struct linker *lk, struct unit *u, uint32_t which)
{
    for (uint32_t k = 0; k < u->nt;) {
        struct stmt *s;
        bool ok;

        if (!grow((void **)&u->st, u->nst, &u->capst, sizeof(*u->st)))
            return ps_err_set(lk->err, PS_ENOMEM, "out of memory linking PTX");
        s = &u->st[u->nst++];
        memset(s, 0, sizeof(*s));
        s->t0 = k;
        s->t1 = stmt_end(u, k, &ok);
        s->name = UINT32_MAX;
        if (!ok)
            return ps_err_set(lk->err, PS_EPARSE,
                              "PTX of unit %u: a statement at byte %zu never ends", which,
                              u->t[k].off);
        if (tok_is(u, k, ".version"))
            s->kind = S_VERSION;
        else if (tok_is(u, k, ".target"))
            s->kind = S_TARGET;
        else if (tok_is(u, k, ".address_size"))
            s->kind = S_ADDR;
        else if (tok_is(u, k, ".file"))
            s->kind = S_FILE;
        else
            classify_decl(u, s);
        if (s->kind == S_FILE && k + 1 < u->nt && u->t[k + 1].kind == T_NUM) {
            uint32_t f = (uint32_t)tok_number(u, k + 1);

            u->max_file = f > u->max_file ? f : u->max_file;
        }
        k = s->t1;
    }
    return 0;
}

/* ---- which names clash, what is already written --------------------------- */

static bool external(const struct stmt *s)
{
    return s->link != L_NONE || s->is_entry;
}

/* An internal symbol of unit i whose name another unit also declares. */
static bool clashes(const struct linker *lk, uint32_t i, const struct stmt *s)
{
    const struct unit *u = &lk->u[i];

    if (s->kind != S_DECL || external(s))
        return false;
    for (uint32_t j = 0; j < lk->n; j++) {
        if (j == i)
            continue;
        for (uint32_t k = 0; k < lk->u[j].nst; k++) {
            const struct stmt *o = &lk->u[j].st[k];

            if (o->kind == S_DECL && same_text(u, s->name, &lk->u[j], o->name))
                return true;
        }
    }
    return false;
}

static int mark_renames(struct linker *lk, uint32_t i)
{
    struct unit *u = &lk->u[i];

    u->renamed = calloc(u->nst + 1, sizeof(bool));
    u->ren = calloc(u->nst + 1, sizeof(uint32_t));
    if (!u->renamed || !u->ren)
        return ps_err_set(lk->err, PS_ENOMEM, "out of memory linking PTX");
    for (uint32_t k = 0; k < u->nst; k++)
        if ((u->renamed[k] = clashes(lk, i, &u->st[k])))
            u->ren[u->nren++] = k;
    return 0;
}

/* Whether token k of unit u names one of its renamed internal symbols. */
static bool is_renamed(const struct unit *u, uint32_t k)
{
    if (u->t[k].kind != T_IDENT)
        return false;
    for (uint32_t j = 0; j < u->nren; j++)
        if (same_text(u, k, u, u->st[u->ren[j]].name))
            return true;
    return false;
}

static struct seen *seen_get(struct linker *lk, const struct unit *u, uint32_t k)
{
    const char *name = u->s + u->t[k].off;
    uint32_t len = u->t[k].len;

    for (uint32_t i = 0; i < lk->nseen; i++)
        if (lk->seen[i].len == len && !memcmp(lk->seen[i].name, name, len))
            return &lk->seen[i];
    if (!grow((void **)&lk->seen, lk->nseen, &lk->capseen, sizeof(*lk->seen))) {
        lk->oom = true;
        return NULL;
    }
    lk->seen[lk->nseen] = (struct seen){name, len, false, false};
    return &lk->seen[lk->nseen++];
}

/*
 * Whether statement s of unit u goes out: a declaration another unit's definition already
 * satisfied, a second declaration, and a second copy of a .weak or .common definition do
 * not. Two strong definitions of one name are an error, as for the device linker.
 */
static int keep(struct linker *lk, const struct unit *u, uint32_t idx, bool *out)
{
    const struct stmt *s = &u->st[idx];
    struct seen *n;

    *out = true;
    if (s->kind != S_DECL || !external(s) || u->renamed[idx])
        return 0;
    if (!(n = seen_get(lk, u, s->name)))
        return ps_err_set(lk->err, PS_ENOMEM, "out of memory linking PTX");
    if (!s->defines) {
        *out = !n->def && !n->ext;
        n->ext = true;
        return 0;
    }
    if (n->def && s->link != L_WEAK && s->link != L_COMMON)
        return ps_err_set(lk->err, PS_EINVAL, "multiple definitions of '%.*s'", (int)n->len,
                          n->name);
    *out = !n->def;
    n->def = true;
    return 0;
}

/* ---- output --------------------------------------------------------------- */

static void put(struct linker *lk, const char *s, size_t n)
{
    if (lk->oom)
        return;
    if (lk->len + n + 1 > lk->cap) {
        size_t cap = (lk->len + n + 1) * 2;
        char *o = realloc(lk->out, cap);

        if (!o) {
            lk->oom = true;
            return;
        }
        lk->out = o;
        lk->cap = cap;
    }
    memcpy(lk->out + lk->len, s, n);
    lk->len += n;
    lk->out[lk->len] = 0;
}

static void put_str(struct linker *lk, const char *s)
{
    put(lk, s, strlen(s));
}

/* A .file / .loc number (after `.file`, `.loc` or `inlined_at`): moved to the unit's range. */
static bool file_number(const struct unit *u, uint32_t k, const struct stmt *s)
{
    return u->t[k].kind == T_NUM && k > s->t0 &&
           (tok_is(u, k - 1, ".file") || tok_is(u, k - 1, ".loc") ||
            tok_is(u, k - 1, "inlined_at"));
}

static void put_stmt(struct linker *lk, uint32_t i, const struct stmt *s)
{
    const struct unit *u = &lk->u[i];
    char buf[32];

    for (uint32_t k = s->t0; k < s->t1; k++) {
        const struct tok *t = &u->t[k];

        if (k > s->t0)
            put(lk, u->s + u->t[k - 1].off + u->t[k - 1].len,
                t->off - (u->t[k - 1].off + u->t[k - 1].len));
        if (file_number(u, k, s) && u->file_base) {
            snprintf(buf, sizeof(buf), "%lu", tok_number(u, k) + (unsigned long)u->file_base);
            put_str(lk, buf);
            continue;
        }
        put(lk, u->s + t->off, t->len);
        if (is_renamed(u, k)) {
            snprintf(buf, sizeof(buf), "_ptxsim_tu%u", i);
            put_str(lk, buf);
        }
    }
    put_str(lk, "\n");
}

/* The header: the highest .version, the first unit's .target and .address_size. */
static int put_header(struct linker *lk)
{
    const struct stmt *ver = NULL, *tgt = NULL, *addr = NULL;
    uint32_t vu = 0, major = 0, minor = 0;

    for (uint32_t i = 0; i < lk->n; i++)
        for (uint32_t k = 0; k < lk->u[i].nst; k++) {
            const struct unit *u = &lk->u[i];
            const struct stmt *s = &u->st[k];
            unsigned a = 0, b = 0;
            char vbuf[32] = "";

            if (s->kind == S_VERSION && s->t0 + 1 < u->nt && u->t[s->t0 + 1].len < sizeof(vbuf))
                memcpy(vbuf, u->s + u->t[s->t0 + 1].off, u->t[s->t0 + 1].len);
            if (s->kind == S_VERSION && sscanf(vbuf, "%u.%u", &a, &b) == 2 &&
                (!ver || a > major || (a == major && b > minor)))
                ver = s, vu = i, major = a, minor = b;
            if (s->kind == S_TARGET && !tgt && i == 0)
                tgt = s;
            if (s->kind == S_ADDR && !addr && i == 0)
                addr = s;
            if (s->kind == S_ADDR && i > 0 &&
                (!lk->u[0].nst || !addr || !same_text(u, s->t0 + 1, &lk->u[0], addr->t0 + 1)))
                return ps_err_set(lk->err, PS_EINVAL,
                                  "PTX units disagree on .address_size (unit %u)", i);
        }
    if (ver)
        put_stmt(lk, vu, ver);
    if (tgt)
        put_stmt(lk, 0, tgt);
    if (addr)
        put_stmt(lk, 0, addr);
    return 0;
}

static int put_unit(struct linker *lk, uint32_t i)
{
    struct unit *u = &lk->u[i];
    bool out;
    int rc;

    for (uint32_t k = 0; k < u->nst; k++) {
        const struct stmt *s = &u->st[k];

        if (s->kind == S_VERSION || s->kind == S_TARGET || s->kind == S_ADDR)
            continue;
        if ((rc = keep(lk, u, k, &out)))
            return rc;
        if (out)
            put_stmt(lk, i, s);
    }
    return 0;
}

static void units_free(struct linker *lk)
{
    for (uint32_t i = 0; i < lk->n; i++) {
        free(lk->u[i].t);
        free(lk->u[i].st);
        free(lk->u[i].renamed);
        free(lk->u[i].ren);
    }
    free(lk->u);
    free(lk->seen);
}

static int link_all(struct linker *lk)
{
    int rc;

    for (uint32_t i = 0; i < lk->n; i++) {
        if ((rc = tokenize(lk, &lk->u[i])) || (rc = split(lk, &lk->u[i], i)))
            return rc;
        if (i)
            lk->u[i].file_base = lk->u[i - 1].file_base + lk->u[i - 1].max_file;
    }
    for (uint32_t i = 0; i < lk->n; i++)
        if ((rc = mark_renames(lk, i)))
            return rc;
    if ((rc = put_header(lk)))
        return rc;
    for (uint32_t i = 0; i < lk->n; i++) {
        put_str(lk, "\n");
        if ((rc = put_unit(lk, i)))
            return rc;
    }
    return lk->oom ? ps_err_set(lk->err, PS_ENOMEM, "out of memory linking PTX") : 0;
}

int ptx_link(const struct ptx_link_unit *units, uint32_t n, char **out, size_t *out_len,
             struct ps_err *err)
{
    struct linker lk;
    int rc;

    *out = NULL;
    *out_len = 0;
    if (!n)
        return ps_err_set(err, PS_EINVAL, "no PTX to link");
    memset(&lk, 0, sizeof(lk));
    lk.err = err;
    lk.n = n;
    if (!(lk.u = calloc(n, sizeof(*lk.u))))
        return ps_err_set(err, PS_ENOMEM, "out of memory linking PTX");
    for (uint32_t i = 0; i < n; i++) {
        lk.u[i].s = units[i].text;
        lk.u[i].len = units[i].len;
    }
    rc = link_all(&lk);
    units_free(&lk);
    if (rc) {
        free(lk.out);
        return rc;
    }
    *out = lk.out;
    *out_len = lk.len;
    return 0;
}
