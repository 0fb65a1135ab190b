#include "policies/l1d_args.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"

/* The key of keys[0..n) spelled s[0..len), or NULL. */
static struct pol_l1d_arg *find_key(struct pol_l1d_arg *keys, uint32_t n, const char *s, size_t len)
{
    for (uint32_t i = 0; i < n; i++)
        if (strlen(keys[i].key) == len && memcmp(keys[i].key, s, len) == 0)
            return &keys[i];
    return NULL;
}

static int parse_number(const char *policy, struct pol_l1d_arg *k, const char *v, size_t len,
                        struct ps_err *err)
{
    uint64_t x = 0;

    for (size_t i = 0; i < len; i++) {
        if (v[i] < '0' || v[i] > '9' || x > UINT32_MAX)
            break;
        x = x * 10 + (uint64_t)(v[i] - '0');
        if (i + 1 == len && x >= k->min && x <= k->max) {
            *k->val = (uint32_t)x;
            return 0;
        }
    }
    return ps_err_set(err, PS_EINVAL, "l1d policy %s: %s='%.*s' is not a number from %u to %u",
                      policy, k->key, (int)len, v, k->min, k->max);
}

/* Digits with at most one '.', no sign or exponent: the text alone fixes the value. */
static int parse_fraction(const char *policy, struct pol_l1d_arg *k, const char *v, size_t len,
                          struct ps_err *err)
{
    char buf[32];
    size_t dots = 0, i;
    double x;

    for (i = 0; i < len && len < sizeof(buf); i++) {
        if (v[i] == '.')
            dots++;
        else if (v[i] < '0' || v[i] > '9')
            break;
    }
    if (i == len && len < sizeof(buf) && dots <= 1 && !(dots == 1 && len == 1)) {
        memcpy(buf, v, len);
        buf[len] = '\0';
        x = strtod(buf, NULL);
        if (x >= k->dmin && x <= k->dmax) {
            *k->dval = x;
            return 0;
        }
    }
    return ps_err_set(err, PS_EINVAL, "l1d policy %s: %s='%.*s' is not a number from %g to %g",
                      policy, k->key, (int)len, v, k->dmin, k->dmax);
}

static int parse_word(const char *policy, struct pol_l1d_arg *k, const char *v, size_t len,
                      struct ps_err *err)
{
    char known[128];
    size_t used = 0;

    for (uint32_t i = 0; k->words[i]; i++) {
        if (strlen(k->words[i]) == len && memcmp(k->words[i], v, len) == 0) {
            *k->val = i;
            return 0;
        }
    }
    known[0] = '\0';
    for (uint32_t i = 0; k->words[i] && used < sizeof(known); i++) {
        int w = snprintf(known + used, sizeof(known) - used, "%s%s", i ? ", " : "", k->words[i]);

        if (w > 0)
            used += (size_t)w;
    }
    return ps_err_set(err, PS_EINVAL, "l1d policy %s: %s='%.*s' is not one of %s", policy, k->key,
                      (int)len, v, known);
}

/* One "key=value" field s[0..len). */
static int parse_field(const char *policy, const char *s, size_t len, struct pol_l1d_arg *keys,
                       uint32_t n, struct ps_err *err)
{
    const char *eq = memchr(s, '=', len);
    struct pol_l1d_arg *k;
    size_t klen = eq ? (size_t)(eq - s) : len;

    k = find_key(keys, n, s, klen);
    if (!k) {
        char known[160];
        size_t used = 0;

        known[0] = '\0';
        for (uint32_t i = 0; i < n && used < sizeof(known); i++) {
            int w =
                snprintf(known + used, sizeof(known) - used, "%s%s", i ? ", " : "", keys[i].key);

            if (w > 0)
                used += (size_t)w;
        }
        return ps_err_set(err, PS_EINVAL, "l1d policy %s: unknown argument '%.*s' (known: %s)",
                          policy, (int)len, s, n ? known : "none");
    }
    if (!eq || eq + 1 == s + len)
        return ps_err_set(err, PS_EINVAL, "l1d policy %s: argument '%.*s' needs a value (%s=...)",
                          policy, (int)len, s, k->key);
    if (k->given)
        return ps_err_set(err, PS_EINVAL, "l1d policy %s: %s given twice", policy, k->key);
    k->given = true;
    if (k->words)
        return parse_word(policy, k, eq + 1, (size_t)(s + len - eq - 1), err);
    if (k->dval)
        return parse_fraction(policy, k, eq + 1, (size_t)(s + len - eq - 1), err);
    return parse_number(policy, k, eq + 1, (size_t)(s + len - eq - 1), err);
}

int pol_l1d_args_parse(const char *policy, const char *args, const char *seps,
                       struct pol_l1d_arg *keys, uint32_t n, struct ps_err *err)
{
    const char *p = args ? args : "";

    for (uint32_t i = 0; i < n; i++)
        keys[i].given = false;
    while (*p) {
        size_t len = strcspn(p, seps);
        int rc = parse_field(policy, p, len, keys, n, err);

        if (rc)
            return rc;
        if (!p[len])
            break;
        p += len + 1;
        if (!*p)
            return ps_err_set(err, PS_EINVAL, "l1d policy %s: argument text ends with '%c'", policy,
                              p[-1]);
    }
    return 0;
}
