/*
 * Two-level active scheduling ("two_level_active:N:inner:outer", GPGPU-Sim's
 * option spelling and numbering; after Narasiman et al., MICRO 2011, and
 * Gebhart et al., ISCA 2011).
 *
 * How GPGPU-Sim's documented behaviour reads, and what this file does:
 * - Each scheduler keeps its warps in two sets: an active set of at most N
 *   warps, the only ones offered for issue, and a pending set. N is per
 *   scheduler, as in GPGPU-Sim, where each scheduler unit holds its own
 *   active set.
 * - Demotion: every cycle, before the order is made, an active warp that
 *   is waiting goes to the tail of the pending set. GPGPU-Sim's test is
 *   "waiting" (barrier, membar) or "the next instruction reads a register
 *   still being loaded by a long-latency (global/local) load"; here that is
 *   view.at_barrier or view.long_wait. A warp is not demoted merely for
 *   issuing a load (POL_WARP_LOAD_ISSUED): that is the Gebhart variant that
 *   also demotes on loads that hit, which the CCWS paper (section 4) found
 *   to lose performance, while demoting only warps that really stall
 *   "behaves like Narasiman's two-level scheduler".
 * - Promotion: free active places are filled from the pending set in the
 *   outer order. GPGPU-Sim's only outer policy, 1 (strict round robin),
 *   takes the pending set's front, the warp demoted longest ago. Here only
 *   pending warps that could run are promoted (not at a barrier, no
 *   long_wait), so a promoted warp is never demoted again at once; the
 *   active set may stay below N while every pending warp still waits.
 *   Outer 0 is read the same as 1 (round robin over a FIFO is the FIFO);
 *   outer 2 (greedy then oldest) and 5 (oldest) promote the oldest
 *   eligible pending warp instead.
 * - Inner order within the active set. 0 (loose round robin), GPGPU-Sim's
 *   only inner policy: the active set is a list that rotates on every
 *   issue so that the warp that issued goes last; promoted warps join at
 *   the end. 2 (greedy then oldest): the warp that issued last first while
 *   it stays active, then the others by age (the CCWS paper's 2LVL-GTO
 *   inner rule). 5 (oldest): by age. Numbers 1, 3, 4 and 6 are
 *   GPGPU-Sim's strict round robin, greedy-then-LRR, greedy-then-youngest
 *   and youngest-first; GPGPU-Sim rejects them as inner policies and so
 *   does this file.
 * - New warps (a CTA launched) join the pending set's tail, oldest first,
 *   so the first N warps of a kernel start out active. A warp that exits
 *   leaves whichever set holds it; a warp is known by (slot, age), so a
 *   new warp in a recycled slot is a new warp.
 * The default GTX 480 line "two_level_active:6:0:1" thus means 6 active
 * warps per scheduler, loose round robin inside, FIFO promotion. Slots are
 * numbered below params->max_warps (the SM never publishes others); a view
 * with a larger slot is ignored.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policies/args.h"
#include "policies/sched_builtin.h"
#include "policies/util.h"
#include "policies/warp_sched.h"

/* GPGPU-Sim's numbers for the prioritisations (its -gpgpu_scheduler syntax). */
enum { TL_LRR = 0, TL_SRR = 1, TL_GTO = 2, TL_OLDEST = 5 };

enum tl_where { TL_NONE, TL_ACTIVE, TL_PENDING };

#define TL_NO_VIEW UINT32_MAX

struct two_level {
    uint32_t max_active;
    uint32_t inner;    /* TL_LRR, TL_GTO or TL_OLDEST */
    bool outer_oldest; /* promote the oldest eligible pending warp, else the FIFO's first */
    uint32_t nslots;   /* the SM's warp slots: slot numbers index the arrays below */
    uint32_t *active;  /* slots, in inner round-robin order */
    uint32_t nactive;
    uint32_t *pending; /* slots, in demotion order */
    uint32_t npending;
    uint32_t *vidx; /* per slot: index of its view this cycle, or TL_NO_VIEW */
    uint64_t *age;  /* per slot: age of the warp a set holds there */
    uint8_t *where; /* per slot: enum tl_where */
    uint32_t greedy_slot;
    uint64_t greedy_age;
};

static void tl_destroy(void *st)
{
    struct two_level *s = st;

    if (!s)
        return;
    free(s->active);
    free(s->pending);
    free(s->vidx);
    free(s->age);
    free(s->where);
}

/* Sets up the state create.c made: the per-slot arrays. */
static struct two_level *tl_alloc(struct two_level *s, uint32_t nslots)
{
    s->nslots = nslots;
    s->active = calloc(nslots, sizeof(*s->active));
    s->pending = calloc(nslots, sizeof(*s->pending));
    s->vidx = calloc(nslots, sizeof(*s->vidx));
    s->age = calloc(nslots, sizeof(*s->age));
    s->where = calloc(nslots, sizeof(*s->where));
    s->greedy_slot = POL_UTIL_NO_SLOT;
    if (!s->active || !s->pending || !s->vidx || !s->age || !s->where) {
        tl_destroy(s); /* create.c frees s itself */
        return NULL;
    }
    return s;
}

struct tl_cfg {
    uint32_t n, inner, outer;
};

static const struct pol_arg tl_args[] = {
    POL_KEY_UINT("N", struct tl_cfg, n, 0, 1, UINT32_MAX, "active warps per scheduler"),
    POL_KEY_UINT("inner", struct tl_cfg, inner, 0, 0, UINT32_MAX,
                 "order in the active set: 0 = lrr, 2 = gto, 5 = oldest"),
    POL_KEY_UINT("outer", struct tl_cfg, outer, 0, 0, UINT32_MAX,
                 "pending order: 0 or 1 = fifo, 2 or 5 = oldest"),
};

/* The policy numbers GPGPU-Sim's numbering has and this scheduler implements. */
static int tl_check(void *cfg, char *why, size_t len)
{
    const struct tl_cfg *c = cfg;

    if (c->inner != TL_LRR && c->inner != TL_GTO && c->inner != TL_OLDEST)
        return snprintf(why, len, "inner=%u is not supported (0 = lrr, 2 = gto, 5 = oldest)",
                        c->inner);
    if (c->outer != TL_LRR && c->outer != TL_SRR && c->outer != TL_GTO && c->outer != TL_OLDEST)
        return snprintf(why, len, "outer=%u is not supported (0 or 1 = fifo, 2 or 5 = oldest)",
                        c->outer);
    return 0;
}

static const struct pol_argspec tl_spec = POL_ARGSPEC_POS(struct tl_cfg, tl_args, 3, tl_check);

static void *tl_create(const struct pol_warp_sched_params *p, struct ps_err *err)
{
    const struct tl_cfg *c = p->cfg;
    const uint32_t a[3] = {c->n, c->inner, c->outer};
    struct two_level *s;

    if (p->max_warps == 0) {
        ps_err_set(
            err, PS_EINVAL,
            "warp scheduler two_level_active needs the SM's warp slot count (max_warps is 0)");
        return NULL;
    }
    s = tl_alloc(p->state, p->max_warps);
    if (!s) {
        ps_err_set(err, PS_ENOMEM, "out of memory creating warp scheduler two_level_active");
        return NULL;
    }
    s->max_active = a[0];
    s->inner = a[1];
    s->outer_oldest = a[2] == TL_GTO || a[2] == TL_OLDEST;
    return s;
}

/* Notes which view holds each slot this cycle (valid views only). */
static void map_views(struct two_level *s, const struct pol_warp_view *v, uint32_t n)
{
    for (uint32_t i = 0; i < s->nslots; i++)
        s->vidx[i] = TL_NO_VIEW;
    for (uint32_t i = 0; i < n; i++)
        if (v[i].valid && v[i].slot < s->nslots)
            s->vidx[v[i].slot] = i;
}

/* The view of the warp a set holds in slot, or NULL when that warp has gone. */
static const struct pol_warp_view *held(const struct two_level *s, const struct pol_warp_view *v,
                                        uint32_t slot)
{
    uint32_t i = s->vidx[slot];

    if (i == TL_NO_VIEW || v[i].age != s->age[slot])
        return NULL;
    return &v[i];
}

/* Drops the warps that exited (or whose slot now holds another warp) from list. */
static uint32_t drop_gone(struct two_level *s, const struct pol_warp_view *v, uint32_t *list,
                          uint32_t len)
{
    uint32_t k = 0;

    for (uint32_t i = 0; i < len; i++) {
        if (held(s, v, list[i]))
            list[k++] = list[i];
        else
            s->where[list[i]] = TL_NONE;
    }
    return k;
}

/* Appends warps no set holds yet to the pending tail, oldest first; scratch has n entries. */
static void admit_new(struct two_level *s, const struct pol_warp_view *v, uint32_t n,
                      uint32_t *scratch)
{
    uint32_t k = 0;

    for (uint32_t i = 0; i < n; i++)
        if (v[i].valid && v[i].slot < s->nslots && s->where[v[i].slot] == TL_NONE)
            scratch[k++] = i;
    pol_util_sort_age(scratch, k, v);
    for (uint32_t j = 0; j < k; j++) {
        const struct pol_warp_view *w = &v[scratch[j]];

        s->pending[s->npending++] = w->slot;
        s->where[w->slot] = TL_PENDING;
        s->age[w->slot] = w->age;
    }
}

static bool waiting(const struct pol_warp_view *w)
{
    return w->long_wait || w->at_barrier;
}

/* Moves the waiting active warps to the pending tail, in active order. */
static void demote(struct two_level *s, const struct pol_warp_view *v)
{
    uint32_t k = 0;

    for (uint32_t i = 0; i < s->nactive; i++) {
        uint32_t slot = s->active[i];

        if (!waiting(held(s, v, slot))) {
            s->active[k++] = slot;
            continue;
        }
        s->pending[s->npending++] = slot;
        s->where[slot] = TL_PENDING;
    }
    s->nactive = k;
}

/* Index in pending of the next warp to promote, or TL_NO_VIEW when none may run. */
static uint32_t next_promotion(const struct two_level *s, const struct pol_warp_view *v)
{
    uint32_t best = TL_NO_VIEW;

    for (uint32_t j = 0; j < s->npending; j++) {
        const struct pol_warp_view *w = held(s, v, s->pending[j]);

        if (waiting(w))
            continue;
        if (!s->outer_oldest)
            return j;
        if (best == TL_NO_VIEW || w->age < s->age[s->pending[best]])
            best = j;
    }
    return best;
}

static void promote(struct two_level *s, const struct pol_warp_view *v)
{
    while (s->nactive < s->max_active) {
        uint32_t j = next_promotion(s, v);
        uint32_t slot;

        if (j == TL_NO_VIEW)
            break;
        slot = s->pending[j];
        memmove(&s->pending[j], &s->pending[j + 1], (s->npending - j - 1) * sizeof(*s->pending));
        s->npending--;
        s->active[s->nactive++] = slot;
        s->where[slot] = TL_ACTIVE;
    }
}

static uint32_t tl_order(void *st, const struct pol_warp_view *v, uint32_t n, uint32_t *order,
                         uint64_t now)
{
    struct two_level *s = st;

    (void)now;
    map_views(s, v, n);
    s->nactive = drop_gone(s, v, s->active, s->nactive);
    s->npending = drop_gone(s, v, s->pending, s->npending);
    admit_new(s, v, n, order);
    demote(s, v);
    promote(s, v);
    for (uint32_t i = 0; i < s->nactive; i++)
        order[i] = s->vidx[s->active[i]];
    if (s->inner != TL_LRR)
        pol_util_sort_age(order, s->nactive, v);
    if (s->inner == TL_GTO)
        pol_util_greedy_first(order, s->nactive, v, s->greedy_slot, s->greedy_age);
    return s->nactive;
}

static void reverse(uint32_t *a, uint32_t lo, uint32_t hi)
{
    while (lo + 1 < hi) {
        uint32_t t = a[lo];

        a[lo++] = a[--hi];
        a[hi] = t;
    }
}

static void tl_on_issue(void *st, const struct pol_warp_view *w, uint64_t now)
{
    struct two_level *s = st;
    uint32_t k;

    (void)now;
    s->greedy_slot = w->slot;
    s->greedy_age = w->age;
    for (k = 0; k < s->nactive && s->active[k] != w->slot; k++)
        ;
    if (k == s->nactive)
        return;
    /* Rotate left by k + 1: the warp that issued goes last, the one after it first. */
    reverse(s->active, 0, k + 1);
    reverse(s->active, k + 1, s->nactive);
    reverse(s->active, 0, s->nactive);
}

const struct pol_warp_sched_ops pol_ws_two_level = {
    .name = "two_level_active",
    .argspec = &tl_spec,
    .state_size = sizeof(struct two_level),
    .create = tl_create,
    .destroy = tl_destroy,
    .order = tl_order,
    .on_issue = tl_on_issue,
};
