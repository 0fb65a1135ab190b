/*
 * Criticality-aware warp scheduling with oracle criticality, "caws" (Lee,
 * dissertation ch. 3; seed 003 section 2.4). A baseline run writes every
 * warp's execution time with -ptxsim_warp_profile FILE; this scheduler reads
 * FILE and gives the warps it marks critical more issue slots:
 *
 *   variant=blk  the single slowest warp of each thread block is critical
 *                (ties: the lower warp index);
 *   variant=sm   the N slowest resident warps of the scheduler are critical,
 *                N = the thread blocks resident (re-ranked every cycle);
 *   variant=avg  a warp slower than 1.2 x its block's average is critical,
 *                one faster than 0.8 x the average is fast (the seed's
 *                reading of "more/less than 20% of the average").
 *
 * A warp is identified across runs by (launch number, linear CTA id, warp
 * index in the CTA); one missing from the profile is normal.
 *
 * Issue: each warp has a priority counter. Every cycle every counter drops
 * by one (not below 0); the warp that issues is reset to its class's value:
 * crit=40, normal=47 and fast=58 by default (seed 003: critical 40 from the
 * experiments, normal N - 1 = 47 for 48 warps, fast "set accordingly", here
 * round(1.2 x 48)). The order is by counter, smallest first, ties by lower
 * slot (the seed's interpretation of a not-ready zero-counter warp and of
 * ties), so the SM issues the ready warp with the smallest counter. With
 * every warp normal and normal = warps - 1 this is round robin. A warp
 * arriving in a slot starts with its slot number as its counter (the
 * paper's initial 0..47).
 *
 * Options ("caws:key=value,..."): profile=FILE (required), variant=blk|sm|avg
 * (default avg, the best of the three on BFS), crit=40, normal=47, fast=58,
 * hi=120 and lo=80 (avg's bounds, percent of the block average).
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policies/args.h"
#include "policies/sched_builtin.h"
#include "policies/warp_sched.h"

enum { V_BLK, V_SM, V_AVG };
enum { C_NORMAL, C_CRIT, C_FAST };

/* One warp of the profile. */
struct prof {
    uint64_t grid;
    uint32_t cta, warp;
    uint64_t time; /* execution time, core cycles */
    uint8_t cls;   /* its class under blk or avg */
};

struct caws_slot {
    bool known; /* age and profile entry looked up */
    uint64_t age;
    uint64_t time; /* profiled execution time, 0 if not in the profile */
    uint8_t cls;
    uint32_t counter;
};

struct caws {
    uint32_t variant, reset[3], hi, lo;
    uint32_t max_warps;
    struct prof *p; /* sorted by (grid, cta, warp) */
    size_t np;
    struct caws_slot *s;
    uint32_t *scratch;
    uint64_t last_now;
    bool started;
    uint64_t issued[3]; /* issues per class */
};

/* ------------------------------------------------------------------ options */

struct caws_cfg {
    char profile[POL_ARG_TEXT_MAX];
    uint32_t variant, crit, normal, fast, hi, lo;
};

static const struct pol_arg caws_args[] = {
    POL_KEY_TEXT("profile", struct caws_cfg, profile, "a run's -ptxsim_warp_profile (required)"),
    POL_KEY_WORD("variant", struct caws_cfg, variant, V_AVG, "blk|sm|avg", "criticality variant"),
    POL_KEY_UINT("crit", struct caws_cfg, crit, 40, 0, 1u << 20, "critical warps' counter reset"),
    POL_KEY_UINT("normal", struct caws_cfg, normal, 47, 0, 1u << 20, "normal warps' reset"),
    POL_KEY_UINT("fast", struct caws_cfg, fast, 58, 0, 1u << 20, "fast warps' reset"),
    POL_KEY_UINT("hi", struct caws_cfg, hi, 120, 100, 100000, "critical above this percent"),
    POL_KEY_UINT("lo", struct caws_cfg, lo, 80, 0, 100, "fast below this percent"),
};

static int caws_check(void *cfg, char *why, size_t len)
{
    const struct caws_cfg *c = cfg;

    if (!c->profile[0])
        return snprintf(why, len, "profile=FILE is required (a run's -ptxsim_warp_profile)");
    return 0;
}

static const struct pol_argspec caws_spec =
    POL_ARGSPEC_KEYS(struct caws_cfg, caws_args, caws_check);

/* ------------------------------------------------------------------ profile */

static int cmp_key(uint64_t g1, uint32_t c1, uint32_t w1, const struct prof *b)
{
    if (g1 != b->grid)
        return g1 < b->grid ? -1 : 1;
    if (c1 != b->cta)
        return c1 < b->cta ? -1 : 1;
    return w1 < b->warp ? -1 : w1 > b->warp;
}

static int cmp_prof(const void *a, const void *b)
{
    const struct prof *x = a;

    return cmp_key(x->grid, x->cta, x->warp, b);
}

static const struct prof *find(const struct caws *c, uint64_t grid, uint32_t cta, uint32_t warp)
{
    size_t lo = 0, hi = c->np;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int r = cmp_key(grid, cta, warp, &c->p[mid]);

        if (!r)
            return &c->p[mid];
        if (r < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return NULL;
}

/* Classes for blk and avg, block by block (the profile is sorted by block). */
static void classify(struct caws *c)
{
    for (size_t i = 0, j; i < c->np; i = j) {
        uint64_t sum = 0, max = 0;
        size_t best = i;

        for (j = i; j < c->np && c->p[j].grid == c->p[i].grid && c->p[j].cta == c->p[i].cta; j++) {
            sum += c->p[j].time;
            if (c->p[j].time > max)
                max = c->p[j].time, best = j;
        }
        for (size_t k = i; k < j; k++) {
            /* time * n * 100 against sum * percent: no division, no rounding */
            unsigned __int128 t = (unsigned __int128)c->p[k].time * (j - i) * 100;

            c->p[k].cls = C_NORMAL;
            if (c->variant == V_BLK)
                c->p[k].cls = k == best ? C_CRIT : C_NORMAL;
            else if (t > (unsigned __int128)sum * c->hi)
                c->p[k].cls = C_CRIT;
            else if (t < (unsigned __int128)sum * c->lo)
                c->p[k].cls = C_FAST;
        }
    }
}

static int load(struct caws *c, const char *path, struct ps_err *err)
{
    FILE *f = fopen(path, "r");
    char line[256];
    size_t cap = 0;
    unsigned long lineno = 0;

    if (!f)
        return ps_err_set(err, PS_EINVAL, "warp scheduler caws: cannot read the profile %s", path);
    while (fgets(line, sizeof(line), f)) {
        uint64_t grid, start, end;
        uint32_t cta, warp, sm;

        lineno++;
        if (lineno == 1 && !strncmp(line, "grid,", 5))
            continue;
        if (sscanf(line, "%" SCNu64 ",%" SCNu32 ",%" SCNu32 ",%" SCNu32 ",%" SCNu64 ",%" SCNu64,
                   &grid, &cta, &warp, &sm, &start, &end) != 6 ||
            end < start) {
            fclose(f);
            return ps_err_set(err, PS_EINVAL,
                              "warp scheduler caws: %s:%lu is not grid,cta,warp,sm,start,end", path,
                              lineno);
        }
        if (c->np == cap) {
            struct prof *p;

            cap = cap ? 2 * cap : 1024;
            if (!(p = realloc(c->p, cap * sizeof(*p)))) {
                fclose(f);
                return ps_err_set(err, PS_ENOMEM, "warp scheduler caws: out of memory");
            }
            c->p = p;
        }
        c->p[c->np++] = (struct prof){grid, cta, warp, end - start, C_NORMAL};
    }
    fclose(f);
    qsort(c->p, c->np, sizeof(*c->p), cmp_prof);
    classify(c);
    return 0;
}

/* ---------------------------------------------------------------- lifecycle */

static void caws_destroy(void *st)
{
    struct caws *c = st;

    if (!c)
        return;
    free(c->p);
    free(c->s);
    free(c->scratch);
}

static void *caws_create(const struct pol_warp_sched_params *pp, struct ps_err *err)
{
    struct caws *c = pp->state;
    const struct caws_cfg *cfg = pp->cfg;

    c->max_warps = pp->max_warps;
    c->s = calloc(pp->max_warps ? pp->max_warps : 1, sizeof(*c->s));
    c->scratch = calloc(pp->max_warps ? pp->max_warps : 1, sizeof(*c->scratch));
    if (!c->s || !c->scratch) {
        ps_err_set(err, PS_ENOMEM, "warp scheduler caws: out of memory");
        caws_destroy(c);
        return NULL;
    }
    c->variant = cfg->variant;
    c->reset[C_CRIT] = cfg->crit;
    c->reset[C_NORMAL] = cfg->normal;
    c->reset[C_FAST] = cfg->fast;
    c->hi = cfg->hi;
    c->lo = cfg->lo;
    if (load(c, cfg->profile, err)) {
        caws_destroy(c);
        return NULL;
    }
    return c;
}

/* ------------------------------------------------------------------ the ops */

/* A warp new to the slot: its profile entry and its starting counter. */
static void arrive(struct caws *c, const struct pol_warp_view *v)
{
    struct caws_slot *s = &c->s[v->slot];
    const struct prof *p = find(c, v->grid, v->cta_id, v->warp_in_cta);

    s->known = true;
    s->age = v->age;
    s->time = p ? p->time : 0;
    s->cls = p ? p->cls : C_NORMAL;
    s->counter = v->slot;
}

static void swap(uint32_t *r, uint32_t i, uint32_t j)
{
    uint32_t t = r[i];

    r[i] = r[j];
    r[j] = t;
}

/* variant=sm: the N slowest valid warps (N = their distinct CTAs) are critical, the rest normal. */
static void rank_sm(struct caws *c, const struct pol_warp_view *v, const uint32_t *idx, uint32_t k)
{
    uint32_t nctas = 0, *r = c->scratch;

    for (uint32_t i = 0; i < k; i++) {
        bool seen = false;

        for (uint32_t j = 0; j < i && !seen; j++)
            seen = v[idx[j]].cta == v[idx[i]].cta;
        nctas += !seen;
        r[i] = v[idx[i]].slot;
    }
    /* selection of the nctas largest times; ties: lower slot */
    for (uint32_t i = 0; i < k; i++) {
        uint32_t b = i;

        for (uint32_t j = i + 1; j < k; j++) {
            const struct caws_slot *x = &c->s[r[j]], *y = &c->s[r[b]];

            if (x->time > y->time || (x->time == y->time && r[j] < r[b]))
                b = j;
        }
        swap(r, i, b);
        c->s[r[i]].cls = i < nctas && c->s[r[i]].time ? C_CRIT : C_NORMAL;
    }
}

static uint32_t caws_order(void *st, const struct pol_warp_view *v, uint32_t n, uint32_t *order,
                           uint64_t now)
{
    struct caws *c = st;
    uint64_t dec = c->started && now > c->last_now ? now - c->last_now : 0;
    uint32_t k = 0;

    c->started = true;
    c->last_now = now;
    for (uint32_t i = 0; i < n; i++) {
        struct caws_slot *s;

        if (!v[i].valid || v[i].slot >= c->max_warps)
            continue;
        s = &c->s[v[i].slot];
        if (!s->known || s->age != v[i].age)
            arrive(c, &v[i]);
        s->counter = s->counter > dec ? s->counter - (uint32_t)dec : 0;
        order[k++] = i;
    }
    if (c->variant == V_SM)
        rank_sm(c, v, order, k);
    for (uint32_t i = 1; i < k; i++) { /* by counter, then slot */
        uint32_t x = order[i], j = i;
        const struct caws_slot *sx = &c->s[v[x].slot];

        while (j > 0) {
            const struct caws_slot *sy = &c->s[v[order[j - 1]].slot];

            if (sy->counter < sx->counter ||
                (sy->counter == sx->counter && v[order[j - 1]].slot < v[x].slot))
                break;
            order[j] = order[j - 1];
            j--;
        }
        order[j] = x;
    }
    return k;
}

static void caws_on_issue(void *st, const struct pol_warp_view *w, uint64_t now)
{
    struct caws *c = st;
    struct caws_slot *s;

    (void)now;
    if (w->slot >= c->max_warps)
        return;
    s = &c->s[w->slot];
    /* +1: the next cycle's decrement reaches it too, the paper's issuing warp is not decremented */
    s->counter = c->reset[s->cls] + 1;
    c->issued[s->cls]++;
}

static void caws_on_event(void *st, enum pol_warp_event e, uint32_t slot, uint64_t now)
{
    struct caws *c = st;

    (void)now;
    if (slot < c->max_warps && (e == POL_WARP_LAUNCHED || e == POL_WARP_EXITED))
        c->s[slot].known = false;
}

static int caws_dump(const void *st, FILE *out, struct ps_err *err)
{
    const struct caws *c = st;
    static const char *const vname[] = {"blk", "sm", "avg"};

    fprintf(out,
            "# caws variant=%s crit=%u normal=%u fast=%u hi=%u lo=%u profile_warps=%zu\n"
            "# issued_critical=%" PRIu64 " issued_normal=%" PRIu64 " issued_fast=%" PRIu64 "\n",
            vname[c->variant], c->reset[C_CRIT], c->reset[C_NORMAL], c->reset[C_FAST], c->hi, c->lo,
            c->np, c->issued[C_CRIT], c->issued[C_NORMAL], c->issued[C_FAST]);
    if (ferror(out))
        return ps_err_set(err, PS_EIO, "cannot write the caws counters");
    return 0;
}

/* The class of the warp in slot as of the last cycle: 0 normal, 1 critical, 2 fast; -1 empty. */
int pol_ws_caws_class(const void *st, uint32_t slot)
{
    const struct caws *c = st;

    return slot < c->max_warps && c->s[slot].known ? c->s[slot].cls : -1;
}

uint32_t pol_ws_caws_counter(const void *st, uint32_t slot)
{
    const struct caws *c = st;

    return slot < c->max_warps ? c->s[slot].counter : 0;
}

const struct pol_warp_sched_ops pol_ws_caws = {
    .name = "caws",
    .argspec = &caws_spec,
    .state_size = sizeof(struct caws),
    .create = caws_create,
    .destroy = caws_destroy,
    .order = caws_order,
    .on_issue = caws_on_issue,
    .on_event = caws_on_event,
    .dump = caws_dump,
};
