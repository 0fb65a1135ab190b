#include "policies/l1d_util.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "policies/l1d.h"

struct kv_ctx {
    const char *who, *args, *expected;
    struct ps_err *err;
};

static int kv_bad(const struct kv_ctx *x, const char *what)
{
    return ps_err_set(x->err, PS_EINVAL, "bad l1d policy arguments '%s:%s': %s; expected %s",
                      x->who, x->args, what, x->expected);
}

/* Unsigned decimal digits only. */
static bool kv_u32(const char *s, size_t len, double lo, double hi, uint32_t *out)
{
    uint64_t v = 0;

    if (!len)
        return false;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        v = v * 10 + (uint64_t)(s[i] - '0');
        if (v > UINT32_MAX)
            return false;
    }
    if ((double)v < lo || (double)v > hi)
        return false;
    *out = (uint32_t)v;
    return true;
}

/* Digits with at most one '.', no sign or exponent: the text alone fixes the value. */
static bool kv_dbl(const char *s, size_t len, double lo, double hi, double *out)
{
    char buf[32];
    size_t dots = 0;
    double v;

    if (!len || len >= sizeof(buf))
        return false;
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '.')
            dots++;
        else if (s[i] < '0' || s[i] > '9')
            return false;
    }
    if (dots > 1 || (dots == 1 && len == 1))
        return false;
    memcpy(buf, s, len);
    buf[len] = '\0';
    v = strtod(buf, NULL);
    if (v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

static bool kv_word(const char *s, size_t len, const char *words, uint32_t *out)
{
    const char *w = words;

    for (uint32_t i = 0; *w; i++) {
        size_t wl = strcspn(w, "|");

        if (wl == len && !memcmp(w, s, len)) {
            *out = i;
            return true;
        }
        w += wl;
        if (*w)
            w++;
    }
    return false;
}

static bool kv_value(const struct pol_kv *k, const char *s, size_t len)
{
    switch (k->kind) {
    case POL_KV_U32:
        return kv_u32(s, len, k->lo, k->hi, k->dst);
    case POL_KV_DBL:
        return kv_dbl(s, len, k->lo, k->hi, k->dst);
    case POL_KV_WORD:
        return kv_word(s, len, k->words, k->dst);
    }
    return false;
}

/* One "key=value" of len characters at p; seen[i] marks keys already given. */
static int kv_item(const struct kv_ctx *x, const char *p, size_t len, const struct pol_kv *keys,
                   uint32_t n, bool *seen)
{
    const char *eq = memchr(p, '=', len);
    char what[160];
    size_t kl, vl;
    uint32_t i;

    if (!eq) {
        snprintf(what, sizeof(what), "'%.*s' is not key=value", (int)len, p);
        return kv_bad(x, what);
    }
    kl = (size_t)(eq - p);
    vl = len - kl - 1;
    for (i = 0; i < n; i++)
        if (strlen(keys[i].key) == kl && !memcmp(keys[i].key, p, kl))
            break;
    if (i == n) {
        snprintf(what, sizeof(what), "unknown key '%.*s'", (int)kl, p);
        return kv_bad(x, what);
    }
    if (seen[i]) {
        snprintf(what, sizeof(what), "%s given twice", keys[i].key);
        return kv_bad(x, what);
    }
    seen[i] = true;
    if (!kv_value(&keys[i], eq + 1, vl)) {
        snprintf(what, sizeof(what), "bad value '%.*s' for %s", (int)vl, eq + 1, keys[i].key);
        return kv_bad(x, what);
    }
    return 0;
}

int pol_kv_parse(const char *who, const char *args, const struct pol_kv *keys, uint32_t n,
                 const char *expected, struct ps_err *err)
{
    struct kv_ctx x = {who, args ? args : "", expected, err};
    const char *p = x.args;
    bool seen[32] = {false};
    int rc;

    if (n > 32)
        return ps_err_set(err, PS_EINVAL, "l1d policy %s: too many keys", who);
    while (*p) {
        size_t len = strcspn(p, ",:");

        if (!len)
            return kv_bad(&x, "empty field");
        if ((rc = kv_item(&x, p, len, keys, n, seen)))
            return rc;
        p += len;
        if (*p && !*++p)
            return kv_bad(&x, "empty field");
    }
    return 0;
}

uint32_t pol_l1d_lru_way(const struct pol_line_view *lines, uint32_t lo, uint32_t hi,
                         uint32_t assoc)
{
    uint32_t best = assoc;

    for (uint32_t w = lo; w < hi && w < assoc; w++) {
        if (lines[w].reserved)
            continue;
        if (!lines[w].valid)
            return w;
        if (best == assoc || lines[w].last_use < lines[best].last_use)
            best = w;
    }
    return best;
}
