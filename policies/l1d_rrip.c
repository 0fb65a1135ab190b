/*
 * Re-reference interval prediction, RRIP (Jaleel et al., ISCA 2010): the
 * "Baseline + RRIP" configuration of the locality-bypass paper's Fig. 12,
 * whose variant the paper does not give (seed 002 section 4.7, ambiguity
 * 18); the default is the one the seed suggests, SRRIP with 2-bit RRPVs.
 *
 * Each line has an M-bit re-reference prediction value (RRPV; max = 2^M-1).
 * A hit sets it to 0 (hit priority). The victim is an invalid way if there
 * is one; else the first way, in way order, whose RRPV is max, after every
 * line of the set has been aged (RRPV + 1) until one has; reserved ways are
 * never victims and never stop the aging. Ageing until a line reaches max
 * and taking the first such way is the same as taking the first way of the
 * highest RRPV and adding (max - that RRPV) to all, which is how it is
 * done here: victim() picks without changing anything (the cache asks it
 * again on every retry) and the aging is applied when the line is really
 * inserted there (on_insert). Every read miss allocates.
 *
 * Insertion RRPV by mode:
 *   srrip  insert= (default max-1, "long" re-reference)
 *   brrip  max, except every eps-th insertion, which gets insert= (a
 *          deterministic 1-in-eps in place of the random one)
 *   drrip  set dueling between the two: leaders= sets of the GPU (the L1D
 *          sets of all SMs, numbered sm * sets + set, spread evenly) always
 *          use srrip, as many always brrip; a read miss in an srrip leader
 *          raises the shared psel_bits-bit PSEL, one in a brrip leader
 *          lowers it; the other sets use brrip while PSEL's top bit is set.
 *
 * Arguments: mode=srrip|brrip|drrip (srrip), bits=1..8 (2), insert=0..max
 * (max-1), eps=1..1024 (32), leaders=1..1024 (32), psel_bits=1..16 (10).
 */
#include <stdio.h>
#include <stdlib.h>

#include "policies/args.h"
#include "policies/l1d.h"
#include "policies/l1d_builtin.h"
#include "policies/l1d_util.h"

enum rrip_mode { M_SRRIP, M_BRRIP, M_DRRIP };
enum set_role { R_FOLLOW, R_SRRIP, R_BRRIP };
enum { C_INS0, C_INS1, C_INS2, C_INS3, C_HITS, C_AGING, C_EVICT, C_FOLLOW_BRRIP };

static const char *const rrip_counters[] = {"insert_rrpv0",
                                            "insert_rrpv1",
                                            "insert_rrpv2",
                                            "insert_rrpv3plus",
                                            "hits",
                                            "aging_steps",
                                            "evictions",
                                            "follower_brrip_inserts",
                                            NULL};

struct rrip_cfg {
    uint32_t mode, bits, insert, eps, leaders, psel_bits;
};

/* The PSEL of set dueling: GPU-wide when the GPU made one, else the instance's own. */
struct rrip_psel {
    uint32_t val, max;
};

struct rrip {
    struct rrip_cfg cfg;
    uint32_t nsets, assoc, max;
    uint8_t *rrpv;        /* [set * assoc + way]: the line state the cache keeps */
    void *own_rrpv;       /* rrpv, when no cache gave it */
    uint8_t *role;        /* [set] enum set_role */
    uint32_t nins;        /* brrip insertions so far (the 1-in-eps count) */
    struct rrip_psel own; /* used when no shared PSEL came */
    struct rrip_psel *psel;
    uint32_t pend_set, pend_way, pend_age; /* the last victim and the aging it needs */
    uint64_t *ctr;
};

/* insert's default: max-1, a "long" re-reference interval, whatever bits is. */
#define INSERT_LONG UINT32_MAX

static const struct pol_arg rrip_args[] = {
    POL_KEY_WORD("mode", struct rrip_cfg, mode, M_SRRIP, "srrip|brrip|drrip", "the RRIP variant"),
    POL_KEY_UINT("bits", struct rrip_cfg, bits, 2, 1, 8, "RRPV width"),
    POL_KEY_UINT("insert", struct rrip_cfg, insert, INSERT_LONG, 0, 255,
                 "RRPV of an insertion (default max-1)"),
    POL_KEY_UINT("eps", struct rrip_cfg, eps, 32, 1, 1024, "brrip: every eps-th insert= "),
    POL_KEY_UINT("leaders", struct rrip_cfg, leaders, 32, 1, 1024, "drrip: leader sets per kind"),
    POL_KEY_UINT("psel_bits", struct rrip_cfg, psel_bits, 10, 1, 16, "drrip: PSEL width"),
};

static int rrip_check(void *cfg, char *why, size_t len)
{
    struct rrip_cfg *c = cfg;

    if (c->insert == INSERT_LONG)
        c->insert = (1u << c->bits) - 2;
    if (c->insert > (1u << c->bits) - 1)
        return snprintf(why, len, "insert=%u is above the largest RRPV %u", c->insert,
                        (1u << c->bits) - 1);
    return 0;
}

static const struct pol_argspec rrip_spec =
    POL_ARGSPEC_KEYS(struct rrip_cfg, rrip_args, rrip_check);

static void *rrip_shared_create(const struct pol_l1d_params *p, struct ps_err *err)
{
    const struct rrip_cfg cfg = *(const struct rrip_cfg *)p->cfg;
    struct rrip_psel *ps;

    ps = malloc(sizeof(*ps));
    if (!ps) {
        ps_err_set(err, PS_ENOMEM, "l1d policy rrip: out of memory");
        return NULL;
    }
    ps->max = (1u << cfg.psel_bits) - 1;
    ps->val = ps->max / 2; /* the middle, top bit clear: followers start with srrip */
    return ps;
}

static void rrip_shared_destroy(void *shared)
{
    free(shared);
}

/*
 * Leader sets of the GPU's g = nsm * nsets sets: leaders of each kind, one
 * srrip leader at the start of every stride and one brrip leader half a
 * stride on (Jaleel's spreading, here over SMs and sets).
 */
static void assign_roles(struct rrip *s, const struct pol_l1d_params *p)
{
    uint64_t nsm = p->sm != UINT32_MAX && p->nsms ? p->nsms : 1;
    uint64_t sm = p->sm != UINT32_MAX && p->nsms ? p->sm : 0;
    uint64_t g = nsm * s->nsets, lead = s->cfg.leaders, stride;

    if (lead > g / 2)
        lead = g / 2;
    if (!lead)
        return; /* one set in all: nothing to duel with, it follows PSEL */
    stride = g / lead;
    for (uint32_t set = 0; set < s->nsets; set++) {
        uint64_t id = sm * s->nsets + set;

        if (id / stride >= lead)
            continue;
        if (id % stride == 0)
            s->role[set] = R_SRRIP;
        else if (id % stride == stride / 2)
            s->role[set] = R_BRRIP;
    }
}

static void *rrip_create(const struct pol_l1d_params *p, struct ps_err *err)
{
    struct rrip *s = p->state;

    s->cfg = *(const struct rrip_cfg *)p->cfg;
    s->rrpv = pol_l1d_line_state(p, 1, &s->own_rrpv);
    s->role = calloc(p->nsets ? p->nsets : 1, 1);
    if (!s->rrpv || !s->role)
        goto out_nomem;
    s->nsets = p->nsets;
    s->assoc = p->assoc;
    s->max = (1u << s->cfg.bits) - 1;
    s->own.max = (1u << s->cfg.psel_bits) - 1;
    s->own.val = s->own.max / 2;
    s->psel = p->shared ? p->shared : &s->own;
    s->pend_set = UINT32_MAX;
    s->ctr = p->counters;
    if (s->cfg.mode == M_DRRIP)
        assign_roles(s, p);
    return s;
out_nomem:
    ps_err_set(err, PS_ENOMEM, "l1d policy rrip: out of memory");
    free(s->own_rrpv);
    free(s->role);
    return NULL;
}

static void rrip_destroy(void *st)
{
    struct rrip *s = st;

    if (!s)
        return;
    free(s->own_rrpv);
    free(s->role);
}

static void count(struct rrip *s, int which, uint64_t n)
{
    if (s->ctr)
        s->ctr[which] += n;
}

/* Set dueling: a read miss in a leader set moves PSEL towards the other policy. */
static bool rrip_on_miss(void *st, const struct mem_req *r, uint32_t set, uint64_t now)
{
    struct rrip *s = st;

    (void)r;
    (void)now;
    if (s->cfg.mode != M_DRRIP || set >= s->nsets)
        return true;
    if (s->role[set] == R_SRRIP && s->psel->val < s->psel->max)
        s->psel->val++;
    else if (s->role[set] == R_BRRIP && s->psel->val > 0)
        s->psel->val--;
    return true;
}

static void rrip_on_hit(void *st, const struct mem_req *r, uint32_t set, uint32_t way, uint64_t now)
{
    struct rrip *s = st;

    (void)r;
    (void)now;
    s->rrpv[(size_t)set * s->assoc + way] = 0;
    count(s, C_HITS, 1);
}

/* Invalid unreserved way first; else the first unreserved way of the highest RRPV. */
static uint32_t rrip_victim(void *st, uint32_t set, const struct pol_line_view *lines,
                            uint32_t assoc, uint64_t now)
{
    struct rrip *s = st;
    const uint8_t *rv = &s->rrpv[(size_t)set * s->assoc];
    uint32_t best = assoc;

    (void)now;
    s->pend_set = UINT32_MAX;
    for (uint32_t w = 0; w < assoc && w < s->assoc; w++) {
        if (lines[w].reserved)
            continue;
        if (!lines[w].valid) {
            best = w;
            break;
        }
        if (best == assoc || rv[w] > rv[best])
            best = w;
    }
    if (best == assoc)
        return assoc;
    s->pend_set = set;
    s->pend_way = best;
    s->pend_age = lines[best].valid ? s->max - rv[best] : 0;
    return best;
}

/* The RRPV a line inserted into set gets. */
static uint32_t insert_value(struct rrip *s, uint32_t set)
{
    bool brrip = s->cfg.mode == M_BRRIP;

    if (s->cfg.mode == M_DRRIP) {
        uint8_t role = set < s->nsets ? s->role[set] : R_FOLLOW;

        brrip = role == R_BRRIP || (role == R_FOLLOW && s->psel->val > s->psel->max / 2);
        if (brrip && role == R_FOLLOW)
            count(s, C_FOLLOW_BRRIP, 1);
    }
    if (!brrip)
        return s->cfg.insert;
    return s->nins++ % s->cfg.eps == s->cfg.eps - 1 ? s->cfg.insert : s->max;
}

static void rrip_on_insert(void *st, const struct mem_req *r, uint32_t set, uint32_t way,
                           uint64_t now)
{
    struct rrip *s = st;
    uint8_t *rv = &s->rrpv[(size_t)set * s->assoc];
    uint32_t v;

    (void)r;
    (void)now;
    if (s->pend_set == set && s->pend_way == way && s->pend_age) {
        for (uint32_t w = 0; w < s->assoc; w++)
            rv[w] = (uint8_t)(rv[w] + s->pend_age > s->max ? s->max : rv[w] + s->pend_age);
        count(s, C_AGING, s->pend_age);
    }
    s->pend_set = UINT32_MAX;
    v = insert_value(s, set);
    rv[way] = (uint8_t)v;
    count(s, v < 3 ? C_INS0 + (int)v : C_INS3, 1);
}

static void rrip_on_evict(void *st, const struct pol_line_view *line, uint32_t set, uint32_t way,
                          uint64_t now)
{
    struct rrip *s = st;

    (void)line;
    (void)set;
    (void)way;
    (void)now;
    count(s, C_EVICT, 1);
}

const struct pol_l1d_ops pol_l1d_rrip = {
    .name = "rrip",
    .line_state_bytes = 1,
    .argspec = &rrip_spec,
    .shared_create = rrip_shared_create,
    .shared_destroy = rrip_shared_destroy,
    .state_size = sizeof(struct rrip),
    .create = rrip_create,
    .destroy = rrip_destroy,
    .on_miss = rrip_on_miss,
    .victim = rrip_victim,
    .on_hit = rrip_on_hit,
    .on_insert = rrip_on_insert,
    .on_evict = rrip_on_evict,
    .counter_names = rrip_counters,
};
