/*
 * Parser for GPGPU-Sim's -gpgpu_dram_timing_opt string:
 * "nbk=16:CCD=2:RRD=6:RCD=12:...". Items are key=value separated by ':';
 * blanks around keys and values are allowed because shipped configs have
 * them ("RC=40: CL=12"). Keys are the GDDR5 datasheet names, case as
 * written there.
 */
#include "memsys/dram.h"

#include <stddef.h>
#include <string.h>

static const struct {
    const char *name;
    size_t off;
} timing_keys[] = {
    {"nbk", offsetof(struct mem_dram_timing, nbk)},
    {"CCD", offsetof(struct mem_dram_timing, CCD)},
    {"RRD", offsetof(struct mem_dram_timing, RRD)},
    {"RCD", offsetof(struct mem_dram_timing, RCD)},
    {"RAS", offsetof(struct mem_dram_timing, RAS)},
    {"RP", offsetof(struct mem_dram_timing, RP)},
    {"RC", offsetof(struct mem_dram_timing, RC)},
    {"CL", offsetof(struct mem_dram_timing, CL)},
    {"WL", offsetof(struct mem_dram_timing, WL)},
    {"CDLR", offsetof(struct mem_dram_timing, CDLR)},
    {"WR", offsetof(struct mem_dram_timing, WR)},
    {"nbkgrp", offsetof(struct mem_dram_timing, nbkgrp)},
    {"CCDL", offsetof(struct mem_dram_timing, CCDL)},
    {"RTPL", offsetof(struct mem_dram_timing, RTPL)},
};

static bool is_blank(char c)
{
    return c == ' ' || c == '\t';
}

/* [b, e) without leading and trailing blanks. */
static void trim(const char **b, const char **e)
{
    while (*b < *e && is_blank(**b))
        (*b)++;
    while (*e > *b && is_blank((*e)[-1]))
        (*e)--;
}

static uint32_t *field(struct mem_dram_timing *t, const char *k, size_t len)
{
    for (size_t i = 0; i < sizeof(timing_keys) / sizeof(timing_keys[0]); i++) {
        if (strlen(timing_keys[i].name) == len && !memcmp(timing_keys[i].name, k, len))
            return (uint32_t *)((char *)t + timing_keys[i].off);
    }
    return NULL;
}

/* Decimal [b, e) into *v; false when empty, not all digits or above UINT32_MAX. */
static bool parse_u32(const char *b, const char *e, uint32_t *v)
{
    uint64_t x = 0;

    if (b == e)
        return false;
    for (; b < e; b++) {
        if (*b < '0' || *b > '9')
            return false;
        x = x * 10 + (uint64_t)(*b - '0');
        if (x > UINT32_MAX)
            return false;
    }
    *v = (uint32_t)x;
    return true;
}

/* One "key=value" item [b, e). */
static int parse_item(const char *b, const char *e, struct mem_dram_timing *t, struct ps_err *err)
{
    const char *eq = memchr(b, '=', (size_t)(e - b));
    const char *kb = b, *ke = eq ? eq : e, *vb = eq ? eq + 1 : e, *ve = e;
    uint32_t *f;

    trim(&kb, &ke);
    trim(&vb, &ve);
    f = field(t, kb, (size_t)(ke - kb));
    if (!f)
        return ps_err_set(err, PS_EINVAL, "DRAM timing: unknown key '%.*s'", (int)(ke - kb), kb);
    if (!eq || !parse_u32(vb, ve, f))
        return ps_err_set(err, PS_EINVAL, "DRAM timing: bad value '%.*s' for key '%.*s'",
                          (int)(ve - vb), vb, (int)(ke - kb), kb);
    return 0;
}

int mem_dram_timing_parse(const char *s, struct mem_dram_timing *t, struct ps_err *err)
{
    memset(t, 0, sizeof(*t));
    t->nbkgrp = 1;
    if (!s)
        return ps_err_set(err, PS_EINVAL, "DRAM timing: no timing string");
    while (*s) {
        const char *e = strchr(s, ':');
        const char *b = s, *te;
        int rc;

        if (!e)
            e = s + strlen(s);
        te = e;
        trim(&b, &te);
        if (b < te) { /* empty items (a trailing ':') are harmless */
            rc = parse_item(b, te, t, err);
            if (rc)
                return rc;
        }
        s = *e ? e + 1 : e;
    }
    if (!t->nbk)
        return ps_err_set(err, PS_EINVAL, "DRAM timing: nbk must be > 0");
    if (!t->nbkgrp || t->nbk % t->nbkgrp)
        return ps_err_set(err, PS_EINVAL, "DRAM timing: nbkgrp=%u must divide nbk=%u", t->nbkgrp,
                          t->nbk);
    return 0;
}
