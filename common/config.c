/*
 * Configuration table, parser and printers. Everything is driven by one descriptor array
 * expanded from common/options.def: name, default text, help, the field's offset in
 * struct ps_config, its type and whether it is modelled.
 */
#include "common/config.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "common/config_value.h"
#include "common/err.h"

enum opt_type { OPT_T_INT, OPT_T_UINT, OPT_T_DOUBLE, OPT_T_BOOL, OPT_T_STR };

#define OPT_NOT_MODELLED 1u

struct opt_desc {
    const char *name; /* without the leading '-' */
    const char *def;  /* default as text; STR fields point here until set */
    const char *help;
    size_t off; /* of the field in struct ps_config */
    uint8_t type;
    uint8_t flags;
};

#define OPT_ROW(type, field, name, def, help, flags)                                               \
    {name, def, help, offsetof(struct ps_config, field), OPT_T_##type, flags},

static const struct opt_desc opts[] = {
#define PS_OPT(type, field, name, def, help) OPT_ROW(type, field, name, def, help, 0)
#define PS_OPT_NM(type, field, name, def, help)                                                    \
    OPT_ROW(type, field, name, def, help, OPT_NOT_MODELLED)
#include "common/options.def"
};

#define NOPTS ((uint32_t)(sizeof(opts) / sizeof(opts[0])))

/* Older spellings, resolved to the option whose field has the same offset. */
struct opt_alias {
    const char *name;
    size_t off;
};

static const struct opt_alias aliases[] = {
#define PS_OPT(type, field, name, def, help)
#define PS_OPT_ALIAS(field, name) {name, offsetof(struct ps_config, field)},
#include "common/options.def"
    {NULL, 0},
};

/* A parsed value before it is stored; s borrows the text it was parsed from. */
union opt_val {
    int64_t i;
    uint32_t u;
    double d;
    bool b;
    const char *s;
};

/* Longest option name the lexer copies; longer names are unknown anyway. */
#define NAME_MAX_LEN 127

/* ---- table access ------------------------------------------------------------------- */

static void *field_of(struct ps_config *c, const struct opt_desc *d)
{
    return (char *)c + d->off;
}

static const void *cfield_of(const struct ps_config *c, const struct opt_desc *d)
{
    return (const char *)c + d->off;
}

static int32_t index_by_offset(size_t off)
{
    for (uint32_t i = 0; i < NOPTS; i++)
        if (opts[i].off == off)
            return (int32_t)i;
    return -1;
}

int32_t ps_config_find(const char *name)
{
    if (!name)
        return -1;
    if (name[0] == '-')
        name++;
    for (uint32_t i = 0; i < NOPTS; i++)
        if (strcmp(opts[i].name, name) == 0)
            return (int32_t)i;
    for (const struct opt_alias *a = aliases; a->name; a++)
        if (strcmp(a->name, name) == 0)
            return index_by_offset(a->off);
    return -1;
}

uint32_t ps_config_count(void)
{
    return NOPTS;
}

const char *ps_config_name(uint32_t i)
{
    return i < NOPTS ? opts[i].name : NULL;
}

const char *ps_config_help(uint32_t i)
{
    return i < NOPTS ? opts[i].help : NULL;
}

const char *ps_config_default(uint32_t i)
{
    return i < NOPTS ? opts[i].def : NULL;
}

bool ps_config_modelled(uint32_t i)
{
    return i < NOPTS && !(opts[i].flags & OPT_NOT_MODELLED);
}

/* ---- "did you mean" ----------------------------------------------------------------- */

/* Case-insensitive Levenshtein distance; UINT_MAX when a name is too long to compare. */
static unsigned edit_distance(const char *a, const char *b)
{
    unsigned row[NAME_MAX_LEN + 2];
    size_t la = strlen(a), lb = strlen(b);

    if (la > NAME_MAX_LEN || lb > NAME_MAX_LEN)
        return UINT_MAX;
    for (size_t j = 0; j <= lb; j++)
        row[j] = (unsigned)j;
    for (size_t i = 1; i <= la; i++) {
        unsigned diag = row[0];
        row[0] = (unsigned)i;
        for (size_t j = 1; j <= lb; j++) {
            unsigned up = row[j];
            unsigned cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
            unsigned best = diag + cost;
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

/* The closest option name within a quarter of the name's length (at least 2 edits), else
 * the shortest name that contains it; NULL when nothing is close. */
static const char *suggest(const char *name)
{
    size_t len = strlen(name);
    unsigned limit = len / 4 > 2 ? (unsigned)(len / 4) : 2, best = UINT_MAX;
    const char *pick = NULL;

    for (uint32_t i = 0; i < NOPTS; i++) {
        unsigned d = edit_distance(name, opts[i].name);
        if (d <= limit && d < best) {
            best = d;
            pick = opts[i].name;
        }
    }
    if (pick || len < 4)
        return pick;
    for (uint32_t i = 0; i < NOPTS; i++)
        if (strstr(opts[i].name, name) && (!pick || strlen(opts[i].name) < strlen(pick)))
            pick = opts[i].name;
    return pick;
}

static int unknown_option(const char *name, struct ps_err *err)
{
    const char *bare = name[0] == '-' ? name + 1 : name;
    const char *hint = suggest(bare);

    if (hint)
        return ps_err_set(err, PS_EINVAL, "unknown option '-%.*s'; did you mean '-%s'?",
                          NAME_MAX_LEN, bare, hint);
    return ps_err_set(err, PS_EINVAL, "unknown option '-%.*s'", NAME_MAX_LEN, bare);
}

/* ---- parsing one value -------------------------------------------------------------- */

static char *dup_text(const char *s, size_t len)
{
    char *p = malloc(len + 1);

    if (p) {
        memcpy(p, s, len);
        p[len] = '\0';
    }
    return p;
}

static const char *type_expect(uint8_t type)
{
    switch (type) {
    case OPT_T_INT:
        return "an integer";
    case OPT_T_UINT:
        return "an unsigned integer (0 to 4294967295)";
    case OPT_T_DOUBLE:
        return "a finite number";
    case OPT_T_BOOL:
        return "0 or 1";
    }
    return "text without double quotes or line breaks";
}

/* Parses text (trimmed first unless STR) into v; STR values borrow text. */
static bool parse_trimmed(const struct opt_desc *d, const char *text, union opt_val *v)
{
    int64_t i;

    switch (d->type) {
    case OPT_T_INT:
        return ps_config_parse_int(text, false, &v->i);
    case OPT_T_UINT:
        if (!ps_config_parse_int(text, true, &i))
            return false;
        v->u = (uint32_t)i;
        return true;
    case OPT_T_DOUBLE:
        return ps_config_parse_double(text, &v->d);
    case OPT_T_BOOL:
        v->b = text[0] == '1';
        return (text[0] == '0' || text[0] == '1') && !text[1];
    }
    v->s = text;
    return !strpbrk(text, "\"\n\r");
}

static int parse_value(const struct opt_desc *d, const char *text, union opt_val *v,
                       struct ps_err *err)
{
    const char *s = text;
    size_t len = strlen(text);
    char *trimmed = NULL;
    bool ok;

    if (d->type != OPT_T_STR) {
        while (ps_config_is_blank(*s))
            s++, len--;
        while (len && ps_config_is_blank(s[len - 1]))
            len--;
        if (!(trimmed = dup_text(s, len)))
            return ps_err_set(err, PS_ENOMEM, "out of memory setting -%s", d->name);
        s = trimmed;
    }
    ok = parse_trimmed(d, s, v);
    free(trimmed);
    if (!ok)
        return ps_err_set(err, PS_EINVAL, "invalid value '%.64s' for -%s: expected %s", text,
                          d->name, type_expect(d->type));
    return 0;
}

/* Stores v; a STR value is copied. The old string is released unless it is the default. */
static int store_value(struct ps_config *c, const struct opt_desc *d, const union opt_val *v,
                       struct ps_err *err)
{
    void *f = field_of(c, d);
    const char **sp = f;
    char *copy;

    switch (d->type) {
    case OPT_T_INT:
        *(int64_t *)f = v->i;
        return 0;
    case OPT_T_UINT:
        *(uint32_t *)f = v->u;
        return 0;
    case OPT_T_DOUBLE:
        *(double *)f = v->d;
        return 0;
    case OPT_T_BOOL:
        *(bool *)f = v->b;
        return 0;
    }
    if (!(copy = dup_text(v->s, strlen(v->s))))
        return ps_err_set(err, PS_ENOMEM, "out of memory setting -%s", d->name);
    if (*sp != d->def)
        free((void *)*sp);
    *sp = copy;
    return 0;
}

static int set_index(struct ps_config *c, uint32_t i, const char *value, struct ps_err *err)
{
    union opt_val v;
    int rc;

    if (!value)
        return ps_err_set(err, PS_EINVAL, "missing value for -%s", opts[i].name);
    if ((rc = parse_value(&opts[i], value, &v, err)) != 0)
        return rc;
    return store_value(c, &opts[i], &v, err);
}

int ps_config_set(struct ps_config *c, const char *name, const char *value, struct ps_err *err)
{
    int32_t i;

    if (!c || !name)
        return ps_err_set(err, PS_EINVAL, "ps_config_set: no config or no option name");
    if ((i = ps_config_find(name)) < 0)
        return unknown_option(name, err);
    return set_index(c, (uint32_t)i, value, err);
}

int ps_config_override(struct ps_config *c, const char *assignment, struct ps_err *err)
{
    const char *eq = assignment ? strchr(assignment, '=') : NULL;
    char name[NAME_MAX_LEN + 1];
    size_t len;

    if (!eq || eq == assignment)
        return ps_err_set(err, PS_EINVAL, "override '%.64s' is not of the form name=value",
                          assignment ? assignment : "(null)");
    len = (size_t)(eq - assignment);
    if (len > NAME_MAX_LEN)
        len = NAME_MAX_LEN;
    memcpy(name, assignment, len);
    name[len] = '\0';
    return ps_config_set(c, name, eq + 1, err);
}

/* ---- lifetime ----------------------------------------------------------------------- */

void ps_config_init(struct ps_config *c)
{
    for (uint32_t i = 0; i < NOPTS; i++) {
        const struct opt_desc *d = &opts[i];
        union opt_val v;
        bool ok;

        if (d->type == OPT_T_STR) {
            *(const char **)field_of(c, d) = d->def;
            continue;
        }
        ok = parse_trimmed(d, d->def, &v);
        assert(ok && "options.def holds a default that does not parse");
        (void)ok;
        store_value(c, d, &v, NULL);
    }
}

void ps_config_free(struct ps_config *c)
{
    if (!c)
        return;
    for (uint32_t i = 0; i < NOPTS; i++) {
        const char **sp = field_of(c, &opts[i]);
        if (opts[i].type == OPT_T_STR && *sp != opts[i].def)
            free((void *)*sp);
    }
    ps_config_init(c);
}

int ps_config_copy(struct ps_config *dst, const struct ps_config *src)
{
    uint32_t i;

    *dst = *src;
    for (i = 0; i < NOPTS; i++) {
        const char **sp = field_of(dst, &opts[i]);

        if (opts[i].type != OPT_T_STR || *sp == opts[i].def)
            continue;
        if (!(*sp = dup_text(*sp, strlen(*sp))))
            break;
    }
    if (i == NOPTS)
        return 0;
    /* Fields from i on still borrow src's strings: drop them before freeing the rest. */
    for (; i < NOPTS; i++)
        if (opts[i].type == OPT_T_STR)
            *(const char **)field_of(dst, &opts[i]) = opts[i].def;
    ps_config_free(dst);
    return PS_ENOMEM;
}

/* ---- config files ------------------------------------------------------------------- */

struct lexer {
    const char *p;          /* next character */
    const char *line_start; /* first character of the current line */
    uint32_t line;
    const char *name; /* for messages; may be NULL */
};

struct pos {
    uint32_t line, col;
};

static struct pos pos_of(const struct lexer *lx, const char *at)
{
    struct pos p = {lx->line, (uint32_t)(at - lx->line_start) + 1};
    return p;
}

/* Re-issues the message already in err (from ps_config_set) with a source position. */
static int reposition(struct ps_err *err, int code, const struct lexer *lx, struct pos at)
{
    char msg[PS_ERR_MSG_MAX];

    if (!err)
        return code;
    memcpy(msg, err->msg, sizeof(msg));
    return ps_err_set_at(err, code, lx->name, at.line, at.col, "%s", msg);
}

static void next_line(struct lexer *lx, const char *newline)
{
    lx->p = newline + 1;
    lx->line_start = lx->p;
    lx->line++;
}

/* Reads "..." starting at lx->p (the opening quote) into *out, dropping each line break
 * with the blanks around it. */
static int read_quoted(struct lexer *lx, char **out, struct ps_err *err)
{
    struct pos open = pos_of(lx, lx->p);
    const char *close = strchr(lx->p + 1, '"');
    char *buf;
    size_t n = 0;

    if (!close)
        return ps_err_set_at(err, PS_EPARSE, lx->name, open.line, open.col,
                             "unterminated quoted value");
    if (!(buf = malloc((size_t)(close - lx->p))))
        return ps_err_set(err, PS_ENOMEM, "out of memory reading a quoted value");
    for (const char *s = lx->p + 1; s < close; s++) {
        if (*s != '\n') {
            buf[n++] = *s;
            continue;
        }
        while (n && ps_config_is_blank(buf[n - 1]))
            n--;
        next_line(lx, s);
        while (s + 1 < close && ps_config_is_blank(s[1]))
            s++;
    }
    buf[n] = '\0';
    lx->p = close + 1;
    *out = buf;
    return 0;
}

/* Reads the value after an option name: quoted, or the rest of the line before '#'. */
static int read_value(struct lexer *lx, char **out, struct ps_err *err)
{
    const char *s = lx->p, *end;

    if (*s == '"') {
        int rc = read_quoted(lx, out, err);
        if (rc)
            return rc;
        while (ps_config_is_blank(*lx->p))
            lx->p++;
        if (*lx->p && *lx->p != '\n' && *lx->p != '#') {
            struct pos at = pos_of(lx, lx->p);
            free(*out);
            return ps_err_set_at(err, PS_EPARSE, lx->name, at.line, at.col,
                                 "unexpected text after a quoted value");
        }
        return 0;
    }
    end = s + strcspn(s, "#\n");
    while (end > s && ps_config_is_blank(end[-1]))
        end--;
    if (!(*out = dup_text(s, (size_t)(end - s))))
        return ps_err_set(err, PS_ENOMEM, "out of memory reading a value");
    lx->p = end;
    return 0;
}

/* lx->p is at the '-' of "-name value". */
static int load_option(struct ps_config *c, struct lexer *lx, struct ps_err *err)
{
    struct pos at = pos_of(lx, lx->p);
    const char *name = lx->p + 1;
    size_t len = strcspn(name, " \t\r\v\f#\n");
    char buf[NAME_MAX_LEN + 2], *value = NULL;
    int32_t i;
    int rc;

    if (!len)
        return ps_err_set_at(err, PS_EPARSE, lx->name, at.line, at.col,
                             "expected an option name after '-'");
    snprintf(buf, sizeof(buf), "%.*s", (int)(len > NAME_MAX_LEN ? NAME_MAX_LEN : len), name);
    if ((i = ps_config_find(buf)) < 0)
        return reposition(err, unknown_option(buf, err), lx, at);
    lx->p = name + len;
    while (ps_config_is_blank(*lx->p))
        lx->p++;
    at = pos_of(lx, lx->p);
    if ((rc = read_value(lx, &value, err)) != 0)
        return rc;
    rc = set_index(c, (uint32_t)i, value, err);
    free(value);
    return rc ? reposition(err, rc, lx, at) : 0;
}

static int load_lines(struct ps_config *c, struct lexer *lx, struct ps_err *err)
{
    int rc;

    while (*lx->p) {
        while (ps_config_is_blank(*lx->p))
            lx->p++;
        if (*lx->p == '-') {
            if ((rc = load_option(c, lx, err)) != 0)
                return rc;
        } else if (*lx->p && *lx->p != '#' && *lx->p != '\n') {
            struct pos at = pos_of(lx, lx->p);
            return ps_err_set_at(err, PS_EPARSE, lx->name, at.line, at.col,
                                 "expected an option such as '-gpgpu_n_clusters 15'");
        }
        lx->p += strcspn(lx->p, "\n");
        if (*lx->p == '\n')
            next_line(lx, lx->p);
    }
    return 0;
}

int ps_config_load_text(struct ps_config *c, const char *text, const char *name, struct ps_err *err)
{
    struct lexer lx = {text, text, 1, name};
    struct ps_config tmp;
    int rc;

    if (!c || !text)
        return ps_err_set(err, PS_EINVAL, "ps_config_load_text: no config or no text");
    if (ps_config_copy(&tmp, c) != 0)
        return ps_err_set(err, PS_ENOMEM, "out of memory loading a configuration");
    if ((rc = load_lines(&tmp, &lx, err)) != 0) {
        ps_config_free(&tmp);
        return rc;
    }
    ps_config_free(c);
    *c = tmp;
    return 0;
}

/* Reads a whole file, NUL-terminated. Config files are small, so 64 MiB is plenty. */
static int read_file(const char *path, char **out, struct ps_err *err)
{
    FILE *f = fopen(path, "rb");
    size_t cap = 4096, n = 0;
    char *buf = NULL, *grown;
    bool ok = false;

    if (!f)
        return ps_err_set_at(err, PS_EIO, path, 0, 0, "cannot open config file: %s",
                             strerror(errno));
    while (cap <= (64u << 20) && (grown = realloc(buf, cap + 1))) {
        buf = grown;
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap) {
            ok = !ferror(f);
            break;
        }
        cap *= 2;
    }
    fclose(f);
    if (!ok) {
        free(buf);
        return ps_err_set_at(err, PS_EIO, path, 0, 0,
                             "cannot read config file (read error, out of memory or over 64 MiB)");
    }
    buf[n] = '\0';
    *out = buf;
    return 0;
}

int ps_config_load_file(struct ps_config *c, const char *path, struct ps_err *err)
{
    char *text = NULL;
    int rc;

    if (!path)
        return ps_err_set(err, PS_EINVAL, "ps_config_load_file: no path");
    if ((rc = read_file(path, &text, err)) != 0)
        return rc;
    rc = ps_config_load_text(c, text, path, err);
    free(text);
    return rc;
}

/* ---- printing ----------------------------------------------------------------------- */

/* Shortest %g form that reads back as the same double. */
static void format_double(char *buf, size_t n, double v)
{
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, n, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            return;
    }
}

/* Numbers and BOOL as text ("1"/"0"); STR is handled by the callers. */
static void format_number(const struct ps_config *c, const struct opt_desc *d, char *buf, size_t n)
{
    const void *f = cfield_of(c, d);

    switch (d->type) {
    case OPT_T_INT:
        snprintf(buf, n, "%" PRId64, *(const int64_t *)f);
        break;
    case OPT_T_UINT:
        snprintf(buf, n, "%" PRIu32, *(const uint32_t *)f);
        break;
    case OPT_T_DOUBLE:
        format_double(buf, n, *(const double *)f);
        break;
    default:
        snprintf(buf, n, "%d", *(const bool *)f ? 1 : 0);
        break;
    }
}

static bool needs_quotes(const char *s)
{
    size_t len = strlen(s);

    return !len || strchr(s, '#') || ps_config_is_blank(s[0]) || ps_config_is_blank(s[len - 1]);
}

void ps_config_print(const struct ps_config *c, FILE *out)
{
    char num[64];

    for (uint32_t i = 0; i < NOPTS; i++) {
        const struct opt_desc *d = &opts[i];
        const char *s = num, *q = "";

        if (d->type == OPT_T_STR) {
            s = *(const char *const *)cfield_of(c, d);
            q = needs_quotes(s) ? "\"" : "";
        } else {
            format_number(c, d, num, sizeof(num));
            s = num;
        }
        fprintf(out, "-%-44s %s%s%s  # %s%s\n", d->name, q, s, q,
                (d->flags & OPT_NOT_MODELLED) ? "(not modelled) " : "", d->help);
    }
}

static void print_json_string(const char *s, FILE *out)
{
    fputc('"', out);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(out, "\\%c", ch);
        else if (ch < 0x20)
            fprintf(out, "\\u%04x", ch);
        else
            fputc(ch, out);
    }
    fputc('"', out);
}

void ps_config_print_json(const struct ps_config *c, FILE *out)
{
    char num[64];

    fputs("{\n", out);
    for (uint32_t i = 0; i < NOPTS; i++) {
        const struct opt_desc *d = &opts[i];
        const void *f = cfield_of(c, d);

        fputs("  ", out);
        print_json_string(d->name, out);
        fputs(": ", out);
        if (d->type == OPT_T_STR) {
            print_json_string(*(const char *const *)f, out);
        } else if (d->type == OPT_T_BOOL) {
            fputs(*(const bool *)f ? "true" : "false", out);
        } else {
            format_number(c, d, num, sizeof(num));
            fputs(num, out);
        }
        fputs(i + 1 < NOPTS ? ",\n" : "\n", out);
    }
    fputs("}\n", out);
}
