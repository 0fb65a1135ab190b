/*
 * Parsing policy variants. The option names are checked only for their
 * characters here; `ptxsim sweep` loads every machine with every variant
 * before it runs anything, so unknown options and bad values are reported
 * by the configuration loader with its own message.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/config.h"
#include "tools/sweep_variant.h"

static bool is_name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-';
}

/* Whether p (just after a comma, or at the start) begins "name=" before any comma. */
static bool starts_option(const char *p)
{
    size_t n = strcspn(p, ",="), i;

    if (p[n] != '=' || !n)
        return false;
    for (i = p[0] == '-'; i < n; i++)
        if (!is_name_char(p[i]) && p[i] != ':')
            return false;
    return i > (size_t)(p[0] == '-');
}

/*
 * Whether p starts a new option: "name=" with a name the option table knows.
 * Any other "word=" after a comma belongs to the value (policy arguments:
 * gpgpu_scheduler=ccws:decay=inst,vta_entries=64).
 */
static bool starts_known_option(const char *p)
{
    char name[128];
    size_t n = strcspn(p, "="), skip = p[0] == '-';

    if (!starts_option(p) || n - skip >= sizeof(name))
        return false;
    memcpy(name, p + skip, n - skip);
    name[n - skip] = '\0';
    return ps_config_find(name) >= 0;
}

static int add_opt(struct sweep_variant *v, const char *p, size_t n)
{
    char **opts = realloc(v->opts, (v->nopts + 1) * sizeof(*opts));

    if (!opts)
        return -2;
    v->opts = opts;
    if (!(v->opts[v->nopts] = strndup(p, n)))
        return -2;
    v->nopts++;
    return 0;
}

int sweep_variant_parse(const char *spec, struct sweep_variant *v, char *err, size_t errlen)
{
    size_t n = strcspn(spec, ":");
    const char *p;

    memset(v, 0, sizeof(*v));
    for (size_t i = 0; i < n; i++)
        if (!is_name_char(spec[i]))
            n = 0;
    if (!n || n >= sizeof(v->name)) {
        snprintf(err, errlen,
                 "bad variant '%s': NAME[:opt=val,...] with a name of letters, digits, '_' and '-'",
                 spec);
        return -1;
    }
    snprintf(v->name, sizeof(v->name), "%.*s", (int)n, spec);
    for (p = spec[n] ? spec + n + 1 : spec + n; *p;) {
        const char *q = p + strcspn(p, ",");

        if (!starts_option(p)) {
            snprintf(err, errlen, "variant %s: expected option=value at '%s'", v->name, p);
            return -1;
        }
        while (*q == ',' && !starts_known_option(q + 1))
            q += 1 + strcspn(q + 1, ",");
        if (add_opt(v, p, (size_t)(q - p)))
            return -2;
        p = *q ? q + 1 : q;
    }
    return 0;
}

void sweep_variant_free(struct sweep_variant *v)
{
    for (size_t i = 0; i < v->nopts; i++)
        free(v->opts[i]);
    free(v->opts);
    memset(v, 0, sizeof(*v));
}
