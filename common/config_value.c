/*
 * Text to numbers, the way option values and lists read them (common/config_value.h):
 * decimal or 0x hex integers, finite decimals, and separated lists of either. A leaf
 * of common/config.c, which parses option values and files with it.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/config.h"
#include "common/config_value.h"
#include "common/err.h"

bool ps_config_is_blank(char ch)
{
    return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\v' || ch == '\f';
}

/* Numbers are decimal, or hex after 0x; s is already trimmed and non-empty. */
bool ps_config_parse_int(const char *s, bool is_unsigned, int64_t *out)
{
    const char *digits = (s[0] == '-' || s[0] == '+') ? s + 1 : s;
    bool hex = digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X');
    char *end;

    if (!isdigit((unsigned char)digits[0]) || (is_unsigned && digits != s))
        return false;
    errno = 0;
    if (is_unsigned) {
        unsigned long long v = strtoull(s, &end, hex ? 16 : 10);
        if (errno || *end || end == digits || v > UINT32_MAX)
            return false;
        *out = (int64_t)v;
        return true;
    }
    long long v = strtoll(s, &end, hex ? 16 : 10);
    if (errno || *end || end == digits)
        return false;
    *out = v;
    return true;
}

bool ps_config_parse_double(const char *s, double *out)
{
    char *end;

    if (!*s || ps_config_is_blank(*s))
        return false;
    errno = 0;
    *out = strtod(s, &end);
    return !*end && end != s && isfinite(*out) && errno != ERANGE;
}

/* Splits s at sep and calls item() on each trimmed item; shared by both list parsers. */
static int parse_list(const char *s, char sep, uint32_t max, uint32_t *n, struct ps_err *err,
                      bool (*item)(const char *text, void *out, uint32_t k), void *out)
{
    char buf[64];

    *n = 0;
    if (!s)
        return ps_err_set(err, PS_EINVAL, "no list given");
    if (!s[strspn(s, " \t\r\v\f")])
        return 0; /* an empty list */
    for (uint32_t k = 0;; k++) {
        const char *end = strchr(s, sep), *b = s;
        size_t len = end ? (size_t)(end - s) : strlen(s);

        while (len && ps_config_is_blank(b[0]))
            b++, len--;
        while (len && ps_config_is_blank(b[len - 1]))
            len--;
        if (k >= max)
            return ps_err_set(err, PS_EINVAL, "more than %" PRIu32 " items", max);
        if (!len || len >= sizeof(buf))
            return ps_err_set(err, PS_EINVAL, "item %" PRIu32 " is empty or too long", k + 1);
        snprintf(buf, sizeof(buf), "%.*s", (int)len, b);
        if (!item(buf, out, k))
            return ps_err_set(err, PS_EINVAL, "item %" PRIu32 " '%s' is not valid", k + 1, buf);
        *n = k + 1;
        if (!end)
            return 0;
        s = end + 1;
    }
}

static bool uint_item(const char *text, void *out, uint32_t k)
{
    int64_t v;

    if (!ps_config_parse_int(text, true, &v))
        return false;
    ((uint32_t *)out)[k] = (uint32_t)v;
    return true;
}

static bool double_item(const char *text, void *out, uint32_t k)
{
    return ps_config_parse_double(text, &((double *)out)[k]);
}

int ps_parse_uint_list(const char *s, char sep, uint32_t *out, uint32_t max, uint32_t *n,
                       struct ps_err *err)
{
    return parse_list(s, sep, max, n, err, uint_item, out);
}

int ps_parse_double_list(const char *s, char sep, double *out, uint32_t max, uint32_t *n,
                         struct ps_err *err)
{
    return parse_list(s, sep, max, n, err, double_item, out);
}
