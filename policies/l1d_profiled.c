/*
 * Profiled-BYPASS, the static comparison scheme of Li et al. (ICS 2015),
 * design/seeds/002_locality_bypass.md section 4.3: a profiling run counts
 * the read references of every 128-byte block per SM ("local") and over all
 * SMs ("global"); a measured run caches a block when its local count or its
 * global count reaches T, and bypasses it otherwise.
 *
 * mode=record bypasses every read, so that every read request reaches
 * on_miss (hits and MSHR merges are not reported to a policy) and the
 * counts are those of the coalesced request stream; the counts go to `file`
 * when the GPU-wide state is destroyed. mode=use loads `file` and decides.
 * Counts cover the whole run (all kernels): the policy is not told where
 * one kernel ends (ambiguity 15: the combining rule is an argument).
 */
#include <stdlib.h>
#include <string.h>

#include "policies/args.h"
#include "policies/l1d.h"
#include "policies/l1d_builtin.h"

enum { C_RECORDED, C_CACHED, C_BYPASSED, C_BY_LOCAL, C_BY_GLOBAL };

static const char *const prof_counter_names[] = {"recorded",     "cached",        "bypassed",
                                                 "cached_local", "cached_global", NULL};

enum prof_combine { COMB_OR, COMB_SUM, COMB_LOCAL, COMB_GLOBAL };

/* Line address -> count, open addressing (key + 1 stored, 0 = empty). */
struct cmap {
    uint64_t *keys;
    uint32_t *vals;
    uint32_t cap, n;
};

/* The arguments. */
struct prof_cfg {
    char file[POL_ARG_TEXT_MAX];
    uint32_t t, record, combine; /* record: mode=record; combine: enum prof_combine */
};

static int prof_check(void *cfg, char *why, size_t len)
{
    if (!((const struct prof_cfg *)cfg)->file[0])
        return snprintf(why, len, "file=PATH is required");
    return 0;
}

static const struct pol_arg prof_args[] = {
    POL_KEY_TEXT("file", struct prof_cfg, file, "the count file (written or read)"),
    POL_KEY_UINT("t", struct prof_cfg, t, 2, 1, 1u << 20, "cache blocks with at least t refs"),
    POL_KEY_WORD("mode", struct prof_cfg, record, 0, "use|record", "read or write the counts"),
    POL_KEY_WORD("combine", struct prof_cfg, combine, COMB_OR, "or|sum|local|global",
                 "how an SM's and the GPU's counts decide"),
};

static const struct pol_argspec prof_spec =
    POL_ARGSPEC_KEYS(struct prof_cfg, prof_args, prof_check);

struct prof_shared {
    char file[POL_ARG_TEXT_MAX];
    uint32_t t;
    bool record;
    enum prof_combine combine;
    uint32_t nsms;
    struct cmap global;
    struct cmap *local; /* nsms */
};

struct prof_state {
    struct prof_shared *sh;
    uint32_t sm, line_shift;
    uint64_t *ctr;
    uint64_t scratch[POL_L1D_NCOUNTERS];
};

/* ---- count maps ---- */

static uint32_t cmap_home(const struct cmap *m, uint64_t key)
{
    return (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> 32) & (m->cap - 1);
}

static uint32_t *cmap_slot(struct cmap *m, uint64_t line, bool add);

static int cmap_grow(struct cmap *m)
{
    struct cmap o = *m;
    uint32_t cap = m->cap ? m->cap * 2 : 1024;

    m->keys = calloc(cap, sizeof(*m->keys));
    m->vals = calloc(cap, sizeof(*m->vals));
    if (!m->keys || !m->vals) {
        free(m->keys);
        free(m->vals);
        *m = o;
        return PS_ENOMEM;
    }
    m->cap = cap;
    m->n = 0;
    for (uint32_t i = 0; i < o.cap; i++)
        if (o.keys[i])
            *cmap_slot(m, o.keys[i] - 1, true) = o.vals[i];
    free(o.keys);
    free(o.vals);
    return 0;
}

/* The count of line; NULL when absent and !add (or out of host memory). */
static uint32_t *cmap_slot(struct cmap *m, uint64_t line, bool add)
{
    uint32_t h;

    if (add && 2 * (m->n + 1) > m->cap && cmap_grow(m))
        return NULL;
    if (!m->cap)
        return NULL;
    for (h = cmap_home(m, line + 1); m->keys[h]; h = (h + 1) & (m->cap - 1))
        if (m->keys[h] == line + 1)
            return &m->vals[h];
    if (!add)
        return NULL;
    m->keys[h] = line + 1;
    m->vals[h] = 0;
    m->n++;
    return &m->vals[h];
}

static uint32_t cmap_get(struct cmap *m, uint64_t line)
{
    uint32_t *v = cmap_slot(m, line, false);

    return v ? *v : 0;
}

static void cmap_add(struct cmap *m, uint64_t line, uint32_t n)
{
    uint32_t *v = cmap_slot(m, line, true);

    if (v)
        *v = *v > UINT32_MAX - n ? UINT32_MAX : *v + n;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

    return x < y ? -1 : x > y;
}

/* Writes the map's entries in line order as "<prefix><line hex> <count>". */
static int cmap_write(struct cmap *m, FILE *f, const char *prefix)
{
    uint64_t *k = malloc(sizeof(*k) * (m->n ? m->n : 1));
    uint32_t n = 0;

    if (!k)
        return PS_ENOMEM;
    for (uint32_t i = 0; i < m->cap; i++)
        if (m->keys[i])
            k[n++] = m->keys[i] - 1;
    qsort(k, n, sizeof(*k), cmp_u64);
    for (uint32_t i = 0; i < n; i++)
        fprintf(f, "%s%llx %u\n", prefix, (unsigned long long)k[i], cmap_get(m, k[i]));
    free(k);
    return 0;
}

/* ---- arguments and the count file ---- */

/* Reads "G <line> <count>" and "L <sm> <line> <count>" lines ('#' lines are comments). */
static int prof_load(struct prof_shared *sh, struct ps_err *err)
{
    FILE *f = fopen(sh->file, "r");
    char buf[256];
    unsigned long long line;
    unsigned sm, cnt;
    uint32_t no = 0;

    if (!f)
        return ps_err_set(err, PS_EIO, "l1d policy profiled: cannot read '%s'", sh->file);
    while (fgets(buf, sizeof(buf), f)) {
        no++;
        if (buf[0] == '#' || buf[0] == '\n')
            continue;
        if (sscanf(buf, "G %llx %u", &line, &cnt) == 2) {
            cmap_add(&sh->global, line, cnt);
        } else if (sscanf(buf, "L %u %llx %u", &sm, &line, &cnt) == 3) {
            if (sm < sh->nsms)
                cmap_add(&sh->local[sm], line, cnt);
        } else {
            fclose(f);
            return ps_err_set(err, PS_EPARSE, "l1d policy profiled: %s:%u: malformed line",
                              sh->file, no);
        }
    }
    fclose(f);
    return 0;
}

static int prof_save(struct prof_shared *sh)
{
    FILE *f = fopen(sh->file, "w");
    char prefix[32];
    int rc = 0;

    if (!f)
        return PS_EIO;
    fprintf(f, "# ptxsim profiled-bypass read references per 128-byte block: "
               "G line count (all SMs), L sm line count\n");
    rc = cmap_write(&sh->global, f, "G ");
    for (uint32_t s = 0; !rc && s < sh->nsms; s++) {
        snprintf(prefix, sizeof(prefix), "L %u ", s);
        rc = cmap_write(&sh->local[s], f, prefix);
    }
    if (fclose(f) && !rc)
        rc = PS_EIO;
    return rc;
}

/* ---- the ops ---- */

static void prof_free(struct prof_shared *sh)
{
    for (uint32_t s = 0; sh->local && s < sh->nsms; s++) {
        free(sh->local[s].keys);
        free(sh->local[s].vals);
    }
    free(sh->local);
    free(sh->global.keys);
    free(sh->global.vals);
    free(sh);
}

static void prof_take(struct prof_shared *sh, const struct prof_cfg *c)
{
    memcpy(sh->file, c->file, sizeof(sh->file));
    sh->t = c->t;
    sh->record = c->record == 1;
    sh->combine = (enum prof_combine)c->combine;
}

static void *prof_shared_create(const struct pol_l1d_params *p, struct ps_err *err)
{
    struct prof_shared *sh = calloc(1, sizeof(*sh));

    if (!sh)
        goto out_nomem;
    sh->nsms = p->nsms ? p->nsms : 1;
    sh->local = calloc(sh->nsms, sizeof(*sh->local));
    if (!sh->local)
        goto out_nomem;
    prof_take(sh, p->cfg);
    if (!sh->record && prof_load(sh, err))
        goto out_free;
    return sh;
out_nomem:
    ps_err_set(err, PS_ENOMEM, "l1d policy profiled: out of memory");
out_free:
    if (sh)
        prof_free(sh);
    return NULL;
}

/* In record mode, writes the counts to the file (a message on stderr if it cannot). */
static void prof_shared_destroy(void *st)
{
    struct prof_shared *sh = st;

    if (!sh)
        return;
    if (sh->record && prof_save(sh))
        fprintf(stderr, "ptxsim: l1d policy profiled: cannot write '%s'\n", sh->file);
    prof_free(sh);
}

static void *prof_create(const struct pol_l1d_params *p, struct ps_err *err)
{
    struct prof_state *s;

    if (!p->shared || p->sm == UINT32_MAX) {
        ps_err_set(err, PS_EINVAL, "l1d policy profiled: needs an SM's L1D and GPU-wide state");
        return NULL;
    }
    s = p->state;
    s->sh = p->shared;
    s->sm = p->sm;
    s->line_shift = (uint32_t)__builtin_ctz(p->line_bytes ? p->line_bytes : 128);
    s->ctr = p->counters ? p->counters : s->scratch;
    return s;
}

/* The filter: local (this SM) and global counts against T, combined as configured. */
static bool prof_cache(struct prof_state *s, uint64_t line)
{
    struct prof_shared *sh = s->sh;
    uint32_t loc = s->sm < sh->nsms ? cmap_get(&sh->local[s->sm], line) : 0;
    uint32_t glo = cmap_get(&sh->global, line);
    bool l = loc >= sh->t, g = glo >= sh->t;

    switch (sh->combine) {
    case COMB_SUM:
        return (uint64_t)loc + glo >= sh->t;
    case COMB_LOCAL:
        return l;
    case COMB_GLOBAL:
        return g;
    default:
        if (l || g)
            s->ctr[l ? C_BY_LOCAL : C_BY_GLOBAL]++;
        return l || g;
    }
}

static bool prof_on_miss(void *st, const struct mem_req *r, uint32_t set, uint64_t now)
{
    struct prof_state *s = st;
    uint64_t line = r->addr >> s->line_shift;
    bool cache;

    (void)set;
    (void)now;
    if (s->sh->record) {
        if (s->sm < s->sh->nsms)
            cmap_add(&s->sh->local[s->sm], line, 1);
        cmap_add(&s->sh->global, line, 1);
        s->ctr[C_RECORDED]++;
        return false;
    }
    cache = prof_cache(s, line);
    s->ctr[cache ? C_CACHED : C_BYPASSED]++;
    return cache;
}

/* LRU among unreserved lines, invalid first, ties to the lowest way. */
static uint32_t prof_victim(void *st, uint32_t set, const struct pol_line_view *lines,
                            uint32_t assoc, uint64_t now)
{
    uint32_t best = assoc;

    (void)st;
    (void)set;
    (void)now;
    for (uint32_t w = 0; w < assoc; w++) {
        if (lines[w].reserved)
            continue;
        if (!lines[w].valid)
            return w;
        if (best == assoc || lines[w].last_use < lines[best].last_use)
            best = w;
    }
    return best;
}

const struct pol_l1d_ops pol_l1d_profiled = {
    .name = "profiled",
    .argspec = &prof_spec,
    .shared_create = prof_shared_create,
    .shared_destroy = prof_shared_destroy,
    .state_size = sizeof(struct prof_state),
    .create = prof_create,
    .on_miss = prof_on_miss,
    .victim = prof_victim,
    .counter_names = prof_counter_names,
};
