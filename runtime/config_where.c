/*
 * Putting configuration errors back where the value came from. Messages of
 * the checks name their option ("-gpgpu_cache:dl1: ...", "invalid value ...
 * for -gpgpu_n_mem"), the policy registry names the kind of policy ("unknown
 * warp scheduler 'lrrr'"); both lead to one option, whose last setting is
 * looked up in the overrides and the file with the loader's line syntax.
 */
#include "runtime/config_where.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/config.h"

/* Kinds of value named in messages that do not spell out their option. */
static const struct {
    const char *words, *option;
} kinds[] = {
    {"warp scheduler", "gpgpu_scheduler"},     {"cta scheduler", "ptxsim_cta_scheduler"},
    {"l1d policy", "ptxsim_l1d_policy"},       {"DRAM timing", "gpgpu_dram_timing_opt"},
    {"address map", "gpgpu_mem_addr_mapping"},
};

static int is_name_char(int c)
{
    return isalnum(c) || c == '_' || c == ':';
}

/* The option spelt "-name" at msg[i], trailing ':' dropped; -1 if none. */
static int32_t option_at(const char *msg, size_t i)
{
    char name[128];
    size_t n = 0;

    while (is_name_char((unsigned char)msg[i + 1 + n]) && n + 1 < sizeof(name)) {
        name[n] = msg[i + 1 + n];
        n++;
    }
    while (n && name[n - 1] == ':')
        n--;
    name[n] = '\0';
    return n && isalpha((unsigned char)name[0]) ? ps_config_find(name) : -1;
}

int32_t rt_config_blame(const char *msg)
{
    for (size_t i = 0; msg[i]; i++) {
        int32_t opt;

        if (msg[i] != '-' || (i && is_name_char((unsigned char)msg[i - 1])))
            continue;
        if ((opt = option_at(msg, i)) >= 0)
            return opt;
    }
    for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
        if (strstr(msg, kinds[k].words))
            return ps_config_find(kinds[k].option);
    return -1;
}

/* The option named at the start of "name=value" or "-name value" text of length n, or -1. */
static int32_t named(const char *s, size_t n, const char *stop)
{
    char name[128];
    size_t k = 0;

    if (n && *s == '-')
        s++, n--;
    while (k < n && !strchr(stop, s[k]) && k + 1 < sizeof(name)) {
        name[k] = s[k];
        k++;
    }
    name[k] = '\0';
    return k ? ps_config_find(name) : -1;
}

static int place_override(struct ps_err *err, int32_t opt, const char *ov)
{
    const char *hit = NULL;
    size_t hit_len = 0;

    for (const char *p = ov; p && *p;) {
        size_t n = strcspn(p, "\n");

        if (named(p, n, "=") == opt)
            hit = p, hit_len = n;
        p += n + (p[n] == '\n');
    }
    if (!hit)
        return 0;
    snprintf(err->file, sizeof(err->file), "-o %.*s", (int)hit_len, hit);
    err->line = err->col = 0;
    return 1;
}

/* The last line of text (the loader's syntax) that sets opt, and the column of its value. */
static void find_line(const char *text, int32_t opt, uint32_t *line, uint32_t *col)
{
    uint32_t ln = 1;
    int quoted = 0;

    for (const char *p = text; *p;) {
        size_t n = strcspn(p, "\n");
        const char *s = p;

        while (s < p + n && (*s == ' ' || *s == '\t'))
            s++;
        if (!quoted && *s == '-' && named(s, n - (size_t)(s - p), " \t\r#") == opt) {
            const char *v = s + strcspn(s, " \t\r\n");

            while (*v == ' ' || *v == '\t')
                v++;
            *line = ln;
            *col = (uint32_t)(v - p) + 1;
        }
        for (const char *q = p; q < p + n && (quoted || *q != '#'); q++)
            quoted ^= *q == '"';
        p += n + (p[n] == '\n');
        ln++;
    }
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    long len;

    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (buf = malloc((size_t)len + 1))) {
        buf[fread(buf, 1, (size_t)len, f)] = '\0';
    }
    fclose(f);
    return buf;
}

void rt_config_place(struct ps_err *err, int32_t opt, const char *path, const char *overrides)
{
    uint32_t line = 0, col = 0;
    char *text;

    if (opt < 0 || place_override(err, opt, overrides) || !path || !*path)
        return;
    if (!(text = slurp(path)))
        return;
    find_line(text, opt, &line, &col);
    free(text);
    if (!line)
        return;
    snprintf(err->file, sizeof(err->file), "%s", path);
    err->line = line;
    err->col = col;
}
