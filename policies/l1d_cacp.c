/*
 * CACP: criticality-aware cache prioritisation, the L1D half of CAWA (Lee,
 * dissertation ch. 4, ISCA'15; seed 003 section 3.5, Algorithms 7-9). The
 * ways of every set are split into a critical partition (ways 0 .. cways-1)
 * and a non-critical one (the rest). An access's signature, (PC XOR line
 * address) in sig_bits bits, indexes two tables of saturating counters:
 * CCBP predicts reuse by a critical warp and picks the partition a miss
 * fills (CCBP > threshold: critical), SHiP predicts reuse at all and picks
 * the insertion RRPV (0: distant 3, else long 2). Within a partition the
 * victim is 2-bit SRRIP's; a hit promotes to RRPV 0 (hit priority). Hits
 * train the tables up by the hitting warp's criticality, evictions of
 * mispredicted or dead lines train them down. CACP never bypasses.
 *
 * Which warp is critical comes from the SM (params.warp_query): gCAWS's CPL
 * with the top-half-of-the-thread-block rule, so CACP wants
 * -gpgpu_scheduler gcaws (CAWA). Under a scheduler without a criticality
 * predictor every hit counts as non-critical (counter no_predictor).
 */
#include "policies/l1d_cacp.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "policies/args.h"
#include "policies/l1d.h"
#include "policies/l1d_builtin.h"
#include "policies/l1d_util.h"

/* zero_reuse: dead lines evicted, each a SHiP decrement (Algorithm 9). */
enum { CT_CINS, CT_NCINS, CT_CHITS, CT_NCHITS, CT_CCBP_DEC, CT_ZERO, CT_EVICTIONS, CT_NOPRED };

static const char *const cacp_counter_names[] = {"crit_inserts", "noncrit_inserts", "crit_hits",
                                                 "noncrit_hits", "ccbp_dec",        "zero_reuse",
                                                 "evictions",    "no_predictor",    NULL};

#define RRPV_MAX 3u
#define RRPV_LONG 2u

struct cacp_cfg {
    uint32_t cways, threshold, ccbp_bits, ship_bits, ccbp_init, ship_init, sig_bits, sig_addr;
};

#define KEY(k, d, lo, hi, help) POL_KEY_UINT(#k, struct cacp_cfg, k, d, lo, hi, help)
static const struct pol_arg cacp_args[] = {
    KEY(cways, 0, 0, 255, "critical ways, 1 to assoc-1; 0 = assoc/2"),
    KEY(threshold, 1, 0, 255, "CCBP above it is critical"),
    KEY(ccbp_bits, 2, 1, 8, "CCBP counter width"),
    KEY(ship_bits, 2, 1, 8, "SHiP counter width"),
    KEY(ccbp_init, 0, 0, 255, "initial CCBP (fits ccbp_bits)"),
    KEY(ship_init, 1, 0, 255, "initial SHiP (fits ship_bits)"),
    KEY(sig_bits, 8, 1, 12, "signature width"),
    POL_KEY_WORD("sig_addr", struct cacp_cfg, sig_addr, 0, "line|byte", "signature address"),
};
#undef KEY

static int cacp_check(void *cfg, char *why, size_t len)
{
    const struct cacp_cfg *c = cfg;

    if (c->ccbp_init >= 1u << c->ccbp_bits || c->ship_init >= 1u << c->ship_bits)
        return snprintf(why, len, "ccbp_init or ship_init does not fit its counter width");
    return 0;
}

static const struct pol_argspec cacp_spec =
    POL_ARGSPEC_KEYS(struct cacp_cfg, cacp_args, cacp_check);

struct cacp {
    struct cacp_cfg cfg;
    uint32_t assoc, cways, line_shift, mask, ccbp_max, ship_max;
    uint64_t *counters;
    pol_l1d_critical_fn critical;
    void *critical_ctx;
    uint8_t *ccbp, *ship;
    struct pol_cacp_line *lines;
    void *own_lines;   /* lines, when no cache gave them */
    bool cur_critical; /* partition of the request on_miss saw last (see l1d.h, victim) */
};

/* The parts of the arguments that depend on the cache's shape. */
static int cacp_fit(const struct pol_l1d_params *p, const struct cacp_cfg *c, struct ps_err *err)
{
    if (p->assoc < 2)
        return ps_err_set(err, PS_EINVAL,
                          "-ptxsim_l1d_policy cacp: the cache needs at least 2 ways to partition");
    if (c->cways >= p->assoc)
        return ps_err_set(err, PS_EINVAL,
                          "-ptxsim_l1d_policy cacp: cways=%" PRIu32
                          " leaves no non-critical way in a %" PRIu32 "-way cache",
                          c->cways, p->assoc);
    return 0;
}

static void cacp_destroy(void *st)
{
    struct cacp *s = st;

    if (!s)
        return;
    free(s->ccbp);
    free(s->ship);
    free(s->own_lines);
}

static void *cacp_create(const struct pol_l1d_params *p, struct ps_err *err)
{
    struct cacp *s = p->state;

    s->cfg = *(const struct cacp_cfg *)p->cfg;
    if (cacp_fit(p, &s->cfg, err))
        return NULL;
    s->assoc = p->assoc;
    s->cways = s->cfg.cways ? s->cfg.cways : p->assoc / 2;
    s->line_shift = p->line_bytes ? (uint32_t)__builtin_ctz(p->line_bytes) : 7;
    s->mask = (1u << s->cfg.sig_bits) - 1;
    s->ccbp_max = (1u << s->cfg.ccbp_bits) - 1;
    s->ship_max = (1u << s->cfg.ship_bits) - 1;
    s->counters = p->counters;
    s->critical = p->warp_query;
    s->critical_ctx = p->warp_query_ctx;
    s->ccbp = malloc((size_t)s->mask + 1);
    s->ship = malloc((size_t)s->mask + 1);
    s->lines = pol_l1d_line_state(p, sizeof(*s->lines), &s->own_lines);
    if (!s->ccbp || !s->ship || !s->lines)
        goto oom;
    memset(s->ccbp, (int)s->cfg.ccbp_init, (size_t)s->mask + 1);
    memset(s->ship, (int)s->cfg.ship_init, (size_t)s->mask + 1);
    return s;
oom:
    cacp_destroy(s);
    ps_err_set(err, PS_ENOMEM, "l1d policy cacp: out of memory");
    return NULL;
}

static void count(struct cacp *s, int which)
{
    if (s->counters)
        s->counters[which]++;
}

static uint32_t sig_of(const struct cacp *s, uint32_t pc, uint64_t addr)
{
    uint64_t a = s->cfg.sig_addr == 0 ? addr >> s->line_shift : addr;

    return (uint32_t)((pc ^ a) & s->mask);
}

/* Algorithm 7's partition choice; CACP allocates every read miss. */
static bool cacp_on_miss(void *st, const struct mem_req *r, uint32_t set, uint64_t now)
{
    struct cacp *s = st;

    (void)set;
    (void)now;
    s->cur_critical = s->ccbp[sig_of(s, r->pc, r->addr)] > s->cfg.threshold;
    return true;
}

/* 2-bit SRRIP inside [lo, hi): the lowest way at RRPV 3, aging the partition until one is. */
static uint32_t cacp_victim(void *st, uint32_t set, const struct pol_line_view *lines,
                            uint32_t assoc, uint64_t now)
{
    struct cacp *s = st;
    struct pol_cacp_line *l = &s->lines[(size_t)set * s->assoc];
    uint32_t lo = s->cur_critical ? 0 : s->cways, hi = s->cur_critical ? s->cways : assoc;
    uint32_t best = assoc, top = 0, age;

    (void)now;
    for (uint32_t w = lo; w < hi; w++) {
        uint32_t v = l[w].valid ? l[w].rrpv : RRPV_MAX;

        if (lines[w].reserved)
            continue;
        if (!lines[w].valid)
            return w;
        if (best == assoc || v > top) {
            best = w;
            top = v;
        }
    }
    /* Aging by RRPV_MAX - top at once is SRRIP's repeated increment; a retry finds top = 3. */
    age = best == assoc ? 0 : RRPV_MAX - top;
    for (uint32_t w = lo; age && w < hi; w++)
        if (l[w].valid)
            l[w].rrpv = (uint8_t)(l[w].rrpv + age < RRPV_MAX ? l[w].rrpv + age : RRPV_MAX);
    return best;
}

/* Algorithm 7's insertion: new signature, no reuse yet, RRPV from SHiP. */
static void cacp_on_insert(void *st, const struct mem_req *r, uint32_t set, uint32_t way,
                           uint64_t now)
{
    struct cacp *s = st;
    struct pol_cacp_line *l = &s->lines[(size_t)set * s->assoc + way];

    (void)now;
    l->valid = true;
    l->sig = (uint16_t)sig_of(s, r->pc, r->addr);
    l->c_reuse = l->nc_reuse = false;
    l->rrpv = (uint8_t)(s->ship[l->sig] == 0 ? RRPV_MAX : RRPV_LONG);
    count(s, way < s->cways ? CT_CINS : CT_NCINS);
}

static bool is_critical(struct cacp *s, uint32_t warp, uint64_t now)
{
    int c = s->critical ? s->critical(s->critical_ctx, warp, now) : -1;

    if (c < 0)
        count(s, CT_NOPRED);
    return c > 0;
}

static void inc_sat(uint8_t *ctr, uint32_t max)
{
    if (*ctr < max)
        (*ctr)++;
}

/* Algorithm 8: promote, then train by the hitting warp's criticality. */
static void cacp_on_hit(void *st, const struct mem_req *r, uint32_t set, uint32_t way, uint64_t now)
{
    struct cacp *s = st;
    struct pol_cacp_line *l = &s->lines[(size_t)set * s->assoc + way];

    if (!l->valid)
        return;
    l->rrpv = 0;
    if (is_critical(s, r->warp, now)) {
        l->c_reuse = true;
        inc_sat(&s->ccbp[l->sig], s->ccbp_max);
        inc_sat(&s->ship[l->sig], s->ship_max);
        count(s, CT_CHITS);
    } else {
        l->nc_reuse = true;
        inc_sat(&s->ship[l->sig], s->ship_max);
        count(s, CT_NCHITS);
    }
}

/* Algorithm 9: a critical-partition line only non-critical warps used, or a dead line. */
static void cacp_on_evict(void *st, const struct pol_line_view *line, uint32_t set, uint32_t way,
                          uint64_t now)
{
    struct cacp *s = st;
    struct pol_cacp_line *l = &s->lines[(size_t)set * s->assoc + way];

    (void)line;
    (void)now;
    if (!l->valid)
        return;
    l->valid = false;
    count(s, CT_EVICTIONS);
    if (!l->c_reuse && l->nc_reuse && way < s->cways) {
        if (s->ccbp[l->sig])
            s->ccbp[l->sig]--;
        count(s, CT_CCBP_DEC);
    } else if (!l->c_reuse && !l->nc_reuse) {
        if (s->ship[l->sig])
            s->ship[l->sig]--;
        count(s, CT_ZERO);
    }
}

/* The tables at the end of the run: how many signatures hold each counter value. */
static int cacp_dump(const void *st, FILE *out, struct ps_err *err)
{
    const struct cacp *s = st;
    const struct cacp_cfg *c = &s->cfg;

    fprintf(out,
            "# cacp cways=%" PRIu32 " assoc=%" PRIu32 " threshold=%" PRIu32 " ccbp_bits=%" PRIu32
            " ship_bits=%" PRIu32 " ccbp_init=%" PRIu32 " ship_init=%" PRIu32 " sig_bits=%" PRIu32
            " sig_addr=%s\n",
            s->cways, s->assoc, c->threshold, c->ccbp_bits, c->ship_bits, c->ccbp_init,
            c->ship_init, c->sig_bits, c->sig_addr ? "byte" : "line");
    fprintf(out, "table,value,signatures\n");
    for (uint32_t v = 0; v <= s->ccbp_max || v <= s->ship_max; v++) {
        uint32_t nc = 0, ns = 0;

        for (uint32_t i = 0; i <= s->mask; i++) {
            nc += s->ccbp[i] == v;
            ns += s->ship[i] == v;
        }
        if (v <= s->ccbp_max)
            fprintf(out, "ccbp,%" PRIu32 ",%" PRIu32 "\n", v, nc);
        if (v <= s->ship_max)
            fprintf(out, "ship,%" PRIu32 ",%" PRIu32 "\n", v, ns);
    }
    if (ferror(out))
        return ps_err_set(err, PS_EIO, "l1d policy cacp: write failed");
    return 0;
}

uint32_t pol_l1d_cacp_sig(const void *st, uint32_t pc, uint64_t addr)
{
    return sig_of(st, pc, addr);
}

void pol_l1d_cacp_tables(const void *st, uint32_t sig, uint32_t *ccbp, uint32_t *ship)
{
    const struct cacp *s = st;

    *ccbp = s->ccbp[sig & s->mask];
    *ship = s->ship[sig & s->mask];
}

void pol_l1d_cacp_set_tables(void *st, uint32_t sig, uint32_t ccbp, uint32_t ship)
{
    struct cacp *s = st;

    s->ccbp[sig & s->mask] = (uint8_t)(ccbp < s->ccbp_max ? ccbp : s->ccbp_max);
    s->ship[sig & s->mask] = (uint8_t)(ship < s->ship_max ? ship : s->ship_max);
}

void pol_l1d_cacp_line(const void *st, uint32_t set, uint32_t way, struct pol_cacp_line *out)
{
    const struct cacp *s = st;

    *out = s->lines[(size_t)set * s->assoc + way];
}

uint32_t pol_l1d_cacp_cways(const void *st)
{
    return ((const struct cacp *)st)->cways;
}

const struct pol_l1d_ops pol_l1d_cacp = {
    .name = "cacp",
    .line_state_bytes = sizeof(struct pol_cacp_line),
    .argspec = &cacp_spec,
    .state_size = sizeof(struct cacp),
    .create = cacp_create,
    .destroy = cacp_destroy,
    .on_miss = cacp_on_miss,
    .victim = cacp_victim,
    .on_hit = cacp_on_hit,
    .on_insert = cacp_on_insert,
    .on_evict = cacp_on_evict,
    .counter_names = cacp_counter_names,
    .dump = cacp_dump,
};
