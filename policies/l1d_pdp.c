/*
 * Static protecting-distance policy, PDP (Duong et al., MICRO 2012), as the
 * locality-bypass paper uses it for comparison ("PDP-best": the best static
 * PD per workload; seed 002 section 4.5, oracle 8.19).
 *
 * Each line has a remaining protecting distance (RPD). It is set to PD when
 * the line is inserted and on every hit. Every access to the set first
 * lowers the RPD of all its lines by one (not below 0). A line with RPD 0
 * is unprotected. A read miss replaces the least recently used unprotected
 * line that is not reserved (an invalid way first); when there is none, the
 * read bypasses the L1D. So PD = p keeps a line for any reuse that comes
 * within p accesses to its set.
 *
 * The accesses the policy counts are those it is told of: on_hit (read hits
 * and, under a write-through policy, write hits) and on_miss (read misses
 * that find neither the line nor an MSHR for it). Write misses, merges into
 * a pending MSHR and .cg/.cs reads are not seen and do not age the set.
 *
 * Call order (memsys/cache.c, allocate-on-miss): for a read miss the cache
 * picks the victim before it asks on_miss, and picks it again on each
 * retry. The victim is therefore computed as the set will be after this
 * access has aged it: before on_miss has been asked for the access, a line
 * with RPD 1 already counts as unprotected; after, RPD 0. A miss that
 * on_miss lets allocate but that finds every unprotected line reserved
 * comes back through on_stall (POL_L1D_STALL_LINE) and bypasses too.
 *
 * Argument: pd=N (0..65535, default 16). The paper's PDP-best is the best
 * pd of a sweep per workload; pd=0 protects nothing (plain LRU order).
 */
#include <stdlib.h>

#include "policies/l1d.h"
#include "policies/args.h"
#include "policies/l1d_builtin.h"
#include "policies/l1d_util.h"

#define NO_SET UINT32_MAX

enum { C_HITS, C_INSERTS, C_BYP_PROTECTED, C_BYP_RESERVED, C_EVICT, C_EVICT_PROTECTED };

static const char *const pdp_counters[] = {
    "hits", "inserts", "bypass_protected", "bypass_reserved", "evictions", "evict_protected", NULL};

/* The state of one line, kept by the cache (params.line_state). */
struct pdp_line {
    uint32_t rpd; /* remaining protecting distance */
    bool present; /* inserted and not evicted since */
};

struct pdp {
    uint32_t nsets, assoc, pd;
    struct pdp_line *lines; /* [set * assoc + way] */
    void *own_lines;        /* lines, when no cache gave them */
    uint32_t aged;          /* set whose current miss on_miss has already aged, or NO_SET */
    uint64_t *ctr;          /* params.counters, or NULL */
};

static void count(struct pdp *s, int which)
{
    if (s->ctr)
        s->ctr[which]++;
}

struct pdp_cfg {
    uint32_t pd;
};

static const struct pol_arg pdp_args[] = {
    POL_KEY_UINT("pd", struct pdp_cfg, pd, 16, 0, 65535, "protecting distance, in set accesses"),
};

static const struct pol_argspec pdp_spec = POL_ARGSPEC_KEYS(struct pdp_cfg, pdp_args, NULL);

static void *pdp_create(const struct pol_l1d_params *p, struct ps_err *err)
{
    const uint32_t pd = ((const struct pdp_cfg *)p->cfg)->pd;
    struct pdp *s = p->state;

    s->lines = pol_l1d_line_state(p, sizeof(*s->lines), &s->own_lines);
    if (!s->lines) {
        ps_err_set(err, PS_ENOMEM, "l1d policy pdp: out of memory");
        return NULL;
    }
    s->nsets = p->nsets;
    s->assoc = p->assoc;
    s->pd = pd;
    s->aged = NO_SET;
    s->ctr = p->counters;
    return s;
}

static void pdp_destroy(void *st)
{
    struct pdp *s = st;

    if (!s)
        return;
    free(s->own_lines);
}

/* One access to the set: every line's RPD drops by one. */
static void age_set(struct pdp *s, uint32_t set)
{
    struct pdp_line *l = &s->lines[(size_t)set * s->assoc];

    for (uint32_t w = 0; w < s->assoc; w++)
        if (l[w].rpd)
            l[w].rpd--;
}

static void pdp_on_hit(void *st, const struct mem_req *r, uint32_t set, uint32_t way, uint64_t now)
{
    struct pdp *s = st;

    (void)r;
    (void)now;
    s->aged = NO_SET;
    age_set(s, set);
    s->lines[(size_t)set * s->assoc + way].rpd = s->pd;
    count(s, C_HITS);
}

/* Allocate when some way is empty or unprotected (reserved or not: see on_stall). */
static bool pdp_on_miss(void *st, const struct mem_req *r, uint32_t set, uint64_t now)
{
    struct pdp *s = st;
    size_t base = (size_t)set * s->assoc;

    (void)r;
    (void)now;
    age_set(s, set);
    s->aged = NO_SET;
    for (uint32_t w = 0; w < s->assoc; w++) {
        if (!s->lines[base + w].present || s->lines[base + w].rpd == 0) {
            s->aged = set;
            return true;
        }
    }
    count(s, C_BYP_PROTECTED);
    return false;
}

/* Every unprotected line is reserved: bypass. Other stalls wait as in the baseline. */
static bool pdp_on_stall(void *st, const struct mem_req *r, uint32_t set, enum pol_l1d_stall why,
                         uint64_t now)
{
    struct pdp *s = st;

    (void)r;
    (void)set;
    (void)now;
    if (why != POL_L1D_STALL_LINE)
        return false;
    s->aged = NO_SET;
    count(s, C_BYP_RESERVED);
    return true;
}

/*
 * An invalid unreserved way first; else the least recently used unreserved
 * line whose RPD is 0 once this access has aged the set; else none. Lines
 * the cache has dropped without telling (kernel-end invalidate) are
 * forgotten here.
 */
static uint32_t pdp_victim(void *st, uint32_t set, const struct pol_line_view *lines,
                           uint32_t assoc, uint64_t now)
{
    struct pdp *s = st;
    size_t base = (size_t)set * s->assoc;
    uint32_t limit = s->aged == set ? 0 : 1, best = assoc;

    (void)now;
    for (uint32_t w = 0; w < assoc && w < s->assoc; w++) {
        if (lines[w].reserved)
            continue;
        if (!lines[w].valid) {
            s->lines[base + w].present = false;
            s->lines[base + w].rpd = 0;
            return w;
        }
        if (s->lines[base + w].rpd <= limit &&
            (best == assoc || lines[w].last_use < lines[best].last_use))
            best = w;
    }
    return best;
}

static void pdp_on_insert(void *st, const struct mem_req *r, uint32_t set, uint32_t way,
                          uint64_t now)
{
    struct pdp *s = st;
    size_t i = (size_t)set * s->assoc + way;

    (void)r;
    (void)now;
    s->aged = NO_SET;
    s->lines[i].present = true;
    s->lines[i].rpd = s->pd;
    count(s, C_INSERTS);
}

static void pdp_on_evict(void *st, const struct pol_line_view *line, uint32_t set, uint32_t way,
                         uint64_t now)
{
    struct pdp *s = st;
    size_t i = (size_t)set * s->assoc + way;

    (void)line;
    (void)now;
    count(s, C_EVICT);
    if (s->lines[i].rpd > 0)
        count(s, C_EVICT_PROTECTED); /* a write-evict, or a write that allocates */
    s->lines[i].present = false;
    s->lines[i].rpd = 0;
}

const struct pol_l1d_ops pol_l1d_pdp = {
    .name = "pdp",
    .line_state_bytes = sizeof(struct pdp_line),
    .argspec = &pdp_spec,
    .state_size = sizeof(struct pdp),
    .create = pdp_create,
    .destroy = pdp_destroy,
    .on_miss = pdp_on_miss,
    .on_stall = pdp_on_stall,
    .victim = pdp_victim,
    .on_hit = pdp_on_hit,
    .on_insert = pdp_on_insert,
    .on_evict = pdp_on_evict,
    .counter_names = pdp_counters,
};
