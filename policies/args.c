/*
 * The one parser of policy arguments (policies/args.h). Every message has
 * the form "<option> <name>: <what>", with <what> naming the field as the
 * user wrote it and what was expected instead.
 */
#include "policies/args.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"

/* What one parse is about, for the messages. */
struct ctx {
    const struct pol_argspec *spec;
    const char *option, *name, *text;
    void *cfg;
    struct ps_err *err;
    const char *form; /* positional: "swl:N", added to a bad value's message */
};

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static int
fail(const struct ctx *c, const char *fmt, ...)
{
    char what[400];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(what, sizeof(what), fmt, ap);
    va_end(ap);
    return ps_err_set(c->err, PS_EINVAL, "%s %s: %s", c->option, c->name, what);
}

/* A field's value is wrong: its own message, plus the whole form in positional forms. */
static int fail_value(const struct ctx *c, const char *what)
{
    if (c->form)
        return fail(c, "%s in %s", what, c->form);
    return fail(c, "%s", what);
}

static bool same(const char *s, size_t len, const char *w)
{
    return strlen(w) == len && memcmp(s, w, len) == 0;
}

/* The index of s[0..len) in the '|'-separated list words, or -1. */
static int word_index(const char *words, const char *s, size_t len)
{
    const char *w = words;

    for (int i = 0; w && *w; i++) {
        size_t wl = strcspn(w, "|");

        if (wl == len && memcmp(w, s, len) == 0)
            return i;
        w += wl + (w[wl] == '|');
    }
    return -1;
}

/* Unsigned decimal digits, at most UINT32_MAX. */
static bool digits(const char *s, size_t len, uint32_t *out)
{
    uint64_t x = 0;

    if (!len)
        return false;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        x = x * 10 + (uint64_t)(s[i] - '0');
        if (x > UINT32_MAX)
            return false;
    }
    *out = (uint32_t)x;
    return true;
}

/* Digits with at most one '.', not "." alone: the text alone fixes the value. */
static bool fraction(const char *s, size_t len, double *out)
{
    char buf[32];
    size_t dots = 0;

    if (!len || len >= sizeof(buf) || (len == 1 && *s == '.'))
        return false;
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '.')
            dots++;
        else if (s[i] < '0' || s[i] > '9')
            return false;
    }
    if (dots > 1)
        return false;
    memcpy(buf, s, len);
    buf[len] = '\0';
    *out = strtod(buf, NULL);
    return true;
}

static int bad_value(const struct ctx *c, const struct pol_arg *a, const char *v, size_t len)
{
    char what[300];

    switch (a->type) {
    case POL_ARG_UINT:
        if (a->words)
            snprintf(what, sizeof(what), "%s=%.*s: expected %s or a whole number from %u to %u",
                     a->key, (int)len, v, a->words, a->min, a->max);
        else
            snprintf(what, sizeof(what), "%s=%.*s: expected a whole number from %u to %u", a->key,
                     (int)len, v, a->min, a->max);
        break;
    case POL_ARG_WORD:
        snprintf(what, sizeof(what), "%s=%.*s: expected one of %s", a->key, (int)len, v, a->words);
        break;
    case POL_ARG_FRAC:
        snprintf(what, sizeof(what), "%s=%.*s: expected a number from %g to %g", a->key, (int)len,
                 v, a->dmin, a->dmax);
        break;
    case POL_ARG_TEXT:
        snprintf(what, sizeof(what), "%s=%.*s: expected a text of 1 to %d characters", a->key,
                 (int)len, v, POL_ARG_TEXT_MAX - 1);
        break;
    case POL_ARG_GONE:
        snprintf(what, sizeof(what), "%s: %s", a->key, a->help);
        break;
    }
    return fail_value(c, what);
}

/* Stores v[0..len) as argument a's value; 0 or PS_EINVAL with the message. */
static int store(const struct ctx *c, const struct pol_arg *a, const char *v, size_t len)
{
    char *field = (char *)c->cfg + a->off;
    uint32_t u;
    double d;
    int w;

    switch (a->type) {
    case POL_ARG_UINT:
        if (a->words && (w = word_index(a->words, v, len)) >= 0) {
            memcpy(field, &a->word_vals[w], sizeof(uint32_t));
            return 0;
        }
        if (!digits(v, len, &u) || u < a->min || u > a->max)
            break;
        memcpy(field, &u, sizeof(u));
        return 0;
    case POL_ARG_WORD:
        if ((w = word_index(a->words, v, len)) < 0)
            break;
        u = (uint32_t)w;
        memcpy(field, &u, sizeof(u));
        return 0;
    case POL_ARG_FRAC:
        if (!fraction(v, len, &d) || d < a->dmin || d > a->dmax)
            break;
        memcpy(field, &d, sizeof(d));
        return 0;
    case POL_ARG_TEXT:
        if (!len || len >= POL_ARG_TEXT_MAX)
            break;
        memcpy(field, v, len);
        field[len] = '\0';
        return 0;
    case POL_ARG_GONE:
        break;
    }
    return bad_value(c, a, v, len);
}

void pol_args_defaults(const struct pol_argspec *spec, void *cfg)
{
    memset(cfg, 0, spec ? spec->cfg_size : 0);
    for (uint32_t i = 0; spec && i < spec->nargs; i++) {
        const struct pol_arg *a = &spec->args[i];
        char *field = (char *)cfg + a->off;

        if (a->type == POL_ARG_UINT || a->type == POL_ARG_WORD)
            memcpy(field, &a->def, sizeof(a->def));
        else if (a->type == POL_ARG_FRAC)
            memcpy(field, &a->ddef, sizeof(a->ddef));
    }
}

/* k[0..len) names no key; eq: it was followed by '='. */
static int unknown_key(const struct ctx *c, const char *k, size_t len, bool eq)
{
    char known[300];
    size_t used = 0;

    known[0] = '\0';
    for (uint32_t i = 0; i < c->spec->nargs && used < sizeof(known); i++) {
        const struct pol_arg *a = &c->spec->args[i];
        int n;

        if (a->type == POL_ARG_GONE)
            continue;
        n = snprintf(known + used, sizeof(known) - used, "%s%s", used ? ", " : "", a->key);
        if (n > 0)
            used += (size_t)n;
    }
    if (!eq)
        return fail(c, "'%.*s': expected key=value (keys: %s)", (int)len, k, known);
    return fail(c, "unknown key '%.*s' (known: %s)", (int)len, k, known);
}

/* One "key=value" of len characters at p; given[] marks the keys already seen. */
static int pair(const struct ctx *c, const char *p, size_t len, bool *given)
{
    const char *eq = memchr(p, '=', len);
    size_t klen = eq ? (size_t)(eq - p) : len;
    uint32_t i;

    for (i = 0; i < c->spec->nargs; i++)
        if (same(p, klen, c->spec->args[i].key))
            break;
    if (i == c->spec->nargs)
        return unknown_key(c, p, klen, eq != NULL);
    if (c->spec->args[i].type == POL_ARG_GONE)
        return fail(c, "%.*s: %s", (int)klen, p, c->spec->args[i].help);
    if (!eq)
        return fail(c, "'%.*s': expected %.*s=value", (int)len, p, (int)klen, p);
    if (given[i])
        return fail(c, "%s given twice", c->spec->args[i].key);
    given[i] = true;
    return store(c, &c->spec->args[i], eq + 1, len - klen - 1);
}

/* The length of the pair at p: a text value runs to the next ',', any other to ',' or ':'. */
static size_t pair_len(const struct ctx *c, const char *p)
{
    size_t klen = strcspn(p, "=,:");

    if (p[klen] == '=')
        for (uint32_t i = 0; i < c->spec->nargs; i++)
            if (c->spec->args[i].type == POL_ARG_TEXT && same(p, klen, c->spec->args[i].key))
                return klen + 1 + strcspn(p + klen + 1, ",");
    return klen + strcspn(p + klen, ",:");
}

static int parse_pairs(const struct ctx *c)
{
    bool given[64] = {false};
    const char *p = c->text;

    if (c->spec->nargs > 64)
        return fail(c, "more than 64 keys in the argument table");
    while (*p) {
        size_t len = pair_len(c, p);
        int rc;

        if (!len)
            return fail(c, "empty field in '%s'", c->text);
        if ((rc = pair(c, p, len, given)))
            return rc;
        p += len;
        if (*p && !*++p)
            return fail(c, "'%s': empty field after the last '%c'", c->text, p[-1]);
    }
    return 0;
}

/* "name:f1:f2..." as the form the policy expects, for messages. */
static void form(const struct ctx *c, char *buf, size_t size)
{
    size_t used = (size_t)snprintf(buf, size, "%s", c->name);

    for (uint32_t i = 0; i < c->spec->npos && used < size; i++) {
        int n = snprintf(buf + used, size - used, "%s%s%s", i == c->spec->min_pos ? "[" : "", ":",
                         c->spec->args[i].key);

        if (n > 0)
            used += (size_t)n;
    }
    if (c->spec->min_pos < c->spec->npos && used + 1 < size)
        strcat(buf, "]");
}

static int parse_fields(const struct ctx *c)
{
    const char *p = c->text;
    uint32_t n = 0;
    char want[160];
    struct ctx cf = *c;

    form(c, want, sizeof(want));
    cf.form = want;
    c = &cf;
    while (*p) {
        size_t len = strcspn(p, ":");
        int rc;

        if (n == c->spec->npos)
            return fail(c, "'%s': too many fields, expected %s", c->text, want);
        if (!len)
            return fail(c, "'%s': empty field, expected %s", c->text, want);
        if ((rc = store(c, &c->spec->args[n], p, len)))
            return rc;
        n++;
        p += len;
        if (*p && !*++p)
            return fail(c, "'%s' ends with ':', expected %s", c->text, want);
    }
    if (n < c->spec->min_pos)
        return fail(c, "'%s': too few fields, expected %s", c->text, want);
    return 0;
}

int pol_args_parse(const struct pol_argspec *spec, const char *option, const char *name,
                   const char *text, void *cfg, struct ps_err *err)
{
    struct ctx c = {spec, option, name, text ? text : "", cfg, err, NULL};
    char why[300];
    int rc;

    if (!spec) {
        if (*c.text)
            return fail(&c, "takes no arguments (got '%s:%s')", name, c.text);
        return 0;
    }
    pol_args_defaults(spec, cfg);
    rc = spec->npos ? parse_fields(&c) : parse_pairs(&c);
    if (rc)
        return rc;
    why[0] = '\0';
    if (spec->check && spec->check(cfg, why, sizeof(why)))
        return fail(&c, "%s", why[0] ? why : "the arguments do not fit together");
    return 0;
}

/* The i-th word of the '|'-separated list words, as *len characters at the result. */
static const char *word_at(const char *words, uint32_t i, size_t *len)
{
    const char *w = words;

    for (; i && *w; i--)
        w += strcspn(w, "|") + (w[strcspn(w, "|")] == '|');
    *len = strcspn(w, "|");
    return w;
}

void pol_args_write(const struct pol_argspec *spec, const void *cfg, FILE *f)
{
    for (uint32_t i = 0; i < spec->nargs; i++) {
        const struct pol_arg *a = &spec->args[i];
        const char *field = (const char *)cfg + a->off;
        uint32_t u;
        double d;
        size_t len;
        const char *w;

        switch (a->type) {
        case POL_ARG_UINT:
            memcpy(&u, field, sizeof(u));
            fprintf(f, " %s=%u", a->key, u);
            break;
        case POL_ARG_WORD:
            memcpy(&u, field, sizeof(u));
            w = word_at(a->words, u, &len);
            fprintf(f, " %s=%.*s", a->key, (int)len, w);
            break;
        case POL_ARG_FRAC:
            memcpy(&d, field, sizeof(d));
            fprintf(f, " %s=%g", a->key, d);
            break;
        case POL_ARG_TEXT:
            fprintf(f, " %s=%s", a->key, field);
            break;
        case POL_ARG_GONE:
            break;
        }
    }
}
