/*
 * Ctrl-C: per-instruction L1D bypassing steered by a control loop (Lee,
 * dissertation ch. 5, ICCD'16; seed 003 section 4.2). Each PC class (the
 * low pc_bits of the instruction index) has a controller: AGG sets the
 * insertion ratio 1/2^AGG, BYP counts the bypasses since the last
 * insertion (Algorithm 11), and the lines a class inserted report at
 * eviction whether they were ever hit (ZERO of INSERT, Algorithm 12). Every
 * SAMPLE_PERIOD >> AGG evictions the zero-reuse fraction is compared with
 * the set points: above thr_hi AGG rises by one, below thr_lo it falls by
 * one (a bang-bang integral controller with a dead band). Replacement is
 * LRU, ties to the lowest way, as the dissertation's baseline.
 *
 * The per-line reuse bit and inserting PC are kept here per (set, way),
 * mirrored from on_insert, on_hit and on_evict. Interpretations follow the
 * seed's ambiguity list (item 8, section 4.2); docs/l1d/ctrlc.md has them.
 */
#include "policies/l1d_ctrlc.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "policies/args.h"
#include "policies/l1d.h"
#include "policies/l1d_builtin.h"
#include "policies/l1d_util.h"
#include "policies/series.h"

enum { CT_BYPASSES, CT_INSERTS, CT_EVICTIONS, CT_ZERO, CT_SAMPLES, CT_UP, CT_DOWN, CT_FIRST_HITS };

static const char *const ctrlc_counter_names[] = {"bypasses",   "inserts",    "evictions",
                                                  "zero_reuse", "samples",    "agg_up",
                                                  "agg_down",   "first_hits", NULL};

struct ctrlc_cfg {
    uint32_t pc_bits, agg_max, agg_init, period, mode, seed, series_cap;
    double thr_lo, thr_hi;
};

enum { MODE_DET, MODE_RAND };

/* One sample of a controller (a closed window): the dump's rows. */
struct ctrlc_row {
    uint64_t cycle;
    uint32_t pc, zero, insert;
    uint8_t agg_before, agg_after;
};

struct ctrlc_line {
    bool valid;
    bool reuse;  /* hit at least once since the insertion */
    uint16_t pc; /* class of the inserting instruction */
};

struct ctrlc {
    struct ctrlc_cfg cfg;
    uint32_t nsets, assoc, sm, mask;
    uint64_t rng;
    uint64_t *counters;
    struct pol_ctrlc_entry *tab;
    struct ctrlc_line *lines;
    void *own_lines;        /* lines, when no cache gave them */
    struct pol_series rows; /* of struct ctrlc_row, at most series_cap */
};

#define KEY(k, d, lo, hi, help) POL_KEY_UINT(#k, struct ctrlc_cfg, k, d, lo, hi, help)
static const struct pol_arg ctrlc_args[] = {
    KEY(pc_bits, 7, 1, 12, "PC bits indexing the aggressiveness table"),
    KEY(agg_max, 7, 0, 16, "largest aggressiveness"),
    KEY(agg_init, 0, 0, 16, "initial aggressiveness (at most agg_max)"),
    KEY(period, 1024, 1, 1 << 20, "insertions per control window"),
    POL_KEY_FRAC("thr_lo", struct ctrlc_cfg, thr_lo, 0.1, 0, 1, "zero-reuse share below: less"),
    POL_KEY_FRAC("thr_hi", struct ctrlc_cfg, thr_hi, 0.4, 0, 1, "zero-reuse share above: more"),
    POL_KEY_WORD("mode", struct ctrlc_cfg, mode, MODE_DET, "det|rand", "bypass decision"),
    KEY(seed, 1, 0, UINT32_MAX, "mode=rand's seed"),
    KEY(series_cap, 65536, 0, 1 << 24, "most rows of the sample series"),
};
#undef KEY

static int ctrlc_check(void *cfg, char *why, size_t len)
{
    const struct ctrlc_cfg *c = cfg;

    if (c->agg_init > c->agg_max)
        return snprintf(why, len, "agg_init=%" PRIu32 " is above agg_max=%" PRIu32, c->agg_init,
                        c->agg_max);
    if (c->thr_lo > c->thr_hi)
        return snprintf(why, len, "thr_lo=%g is above thr_hi=%g", c->thr_lo, c->thr_hi);
    return 0;
}

static const struct pol_argspec ctrlc_spec =
    POL_ARGSPEC_KEYS(struct ctrlc_cfg, ctrlc_args, ctrlc_check);

static void ctrlc_destroy(void *st)
{
    struct ctrlc *s = st;

    if (!s)
        return;
    free(s->tab);
    free(s->own_lines);
    pol_series_free(&s->rows);
}

static void *ctrlc_create(const struct pol_l1d_params *p, struct ps_err *err)
{
    struct ctrlc *s = p->state;

    s->cfg = *(const struct ctrlc_cfg *)p->cfg;
    s->nsets = p->nsets;
    s->assoc = p->assoc;
    s->sm = p->sm;
    s->mask = (1u << s->cfg.pc_bits) - 1;
    s->counters = p->counters;
    /* Per-SM streams, so that SMs do not draw the same sequence (mode=rand only). */
    s->rng = ((uint64_t)s->cfg.seed << 32 | (p->sm + 1u)) * 0x9E3779B97F4A7C15ull | 1;
    s->tab = calloc((size_t)s->mask + 1, sizeof(*s->tab));
    s->lines = pol_l1d_line_state(p, sizeof(*s->lines), &s->own_lines);
    pol_series_init(&s->rows, sizeof(struct ctrlc_row), s->cfg.series_cap);
    if (!s->tab || !s->lines)
        goto oom;
    for (uint32_t i = 0; i <= s->mask; i++)
        s->tab[i].agg = s->cfg.agg_init;
    return s;
oom:
    ctrlc_destroy(s);
    ps_err_set(err, PS_ENOMEM, "l1d policy ctrlc: out of memory");
    return NULL;
}

static void count(struct ctrlc *s, int which)
{
    if (s->counters)
        s->counters[which]++;
}

static uint64_t xorshift(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

/* Algorithm 11: deterministic 1-in-2^AGG (or, mode=rand, probability 1/2^AGG). */
static bool ctrlc_on_miss(void *st, const struct mem_req *r, uint32_t set, uint64_t now)
{
    struct ctrlc *s = st;
    struct pol_ctrlc_entry *c = &s->tab[r->pc & s->mask];
    uint64_t quota = (1ull << c->agg) - 1;
    bool bypass;

    (void)set;
    (void)now;
    if (s->cfg.mode == MODE_RAND)
        bypass = (xorshift(&s->rng) & quota) != 0;
    else
        bypass = c->byp < quota;
    if (bypass) {
        if (c->byp < UINT32_MAX)
            c->byp++;
        c->bypasses++;
        count(s, CT_BYPASSES);
        return false;
    }
    c->byp = 0;
    return true;
}

/* LRU among the ways that are not reserved; an invalid way first; ties to the lowest way. */
static uint32_t ctrlc_victim(void *st, uint32_t set, const struct pol_line_view *lines,
                             uint32_t assoc, uint64_t now)
{
    (void)st;
    (void)set;
    (void)now;
    return pol_l1d_lru_way(lines, assoc, false);
}

static void ctrlc_on_insert(void *st, const struct mem_req *r, uint32_t set, uint32_t way,
                            uint64_t now)
{
    struct ctrlc *s = st;
    struct ctrlc_line *l = &s->lines[(size_t)set * s->assoc + way];

    (void)now;
    l->valid = true;
    l->reuse = false;
    l->pc = (uint16_t)(r->pc & s->mask);
    s->tab[l->pc].inserts++;
    count(s, CT_INSERTS);
}

static void ctrlc_on_hit(void *st, const struct mem_req *r, uint32_t set, uint32_t way,
                         uint64_t now)
{
    struct ctrlc *s = st;
    struct ctrlc_line *l = &s->lines[(size_t)set * s->assoc + way];

    (void)r;
    (void)now;
    if (l->valid && !l->reuse)
        count(s, CT_FIRST_HITS);
    l->reuse = true;
}

static void record(struct ctrlc *s, uint32_t pc, const struct pol_ctrlc_entry *c, uint32_t before,
                   uint64_t now)
{
    struct ctrlc_row *row = pol_series_add(&s->rows);

    if (!row)
        return; /* counted as dropped */
    row->cycle = now;
    row->pc = pc;
    row->zero = c->zero;
    row->insert = c->insert;
    row->agg_before = (uint8_t)before;
    row->agg_after = (uint8_t)c->agg;
}

/* The end of a window (Algorithm 12's test): one step of AGG from the zero-reuse fraction. */
static void ctrlc_sample(struct ctrlc *s, uint32_t pc, struct pol_ctrlc_entry *c, uint64_t now)
{
    double f = (double)c->zero / (double)c->insert;
    uint32_t before = c->agg;

    count(s, CT_SAMPLES);
    if (f > s->cfg.thr_hi && c->agg < s->cfg.agg_max) {
        c->agg++;
        count(s, CT_UP);
    } else if (f < s->cfg.thr_lo && c->agg > 0) {
        c->agg--;
        count(s, CT_DOWN);
    }
    record(s, pc, c, before, now);
    c->insert = 0;
    c->zero = 0;
}

static uint32_t ctrlc_window(const struct ctrlc *s, uint32_t agg)
{
    uint32_t w = agg < 32 ? s->cfg.period >> agg : 0;

    return w ? w : 1;
}

/* Algorithm 12: the eviction trains the controller of the PC that inserted the line. */
static void ctrlc_on_evict(void *st, const struct pol_line_view *line, uint32_t set, uint32_t way,
                           uint64_t now)
{
    struct ctrlc *s = st;
    struct ctrlc_line *l = &s->lines[(size_t)set * s->assoc + way];
    uint32_t pc = l->valid ? l->pc : (line->pc & s->mask);
    bool reuse = l->valid ? l->reuse : line->hits > 0;
    struct pol_ctrlc_entry *c = &s->tab[pc];

    l->valid = false;
    c->insert++;
    c->evictions++;
    count(s, CT_EVICTIONS);
    if (!reuse) {
        c->zero++;
        c->zero_total++;
        count(s, CT_ZERO);
    }
    if (c->insert >= ctrlc_window(s, c->agg))
        ctrlc_sample(s, pc, c, now);
}

static void ctrlc_write_row(FILE *out, const void *row, const void *ctx)
{
    const struct ctrlc_row *r = row;

    (void)ctx;
    fprintf(out, "%" PRIu64 ",%" PRIu32 ",%" PRIu32 ",%" PRIu32 ",%u,%u\n", r->cycle, r->pc,
            r->zero, r->insert, r->agg_before, r->agg_after);
}

static int ctrlc_dump(const void *st, FILE *out, struct ps_err *err)
{
    const struct ctrlc *s = st;
    const struct ctrlc_cfg *c = &s->cfg;

    fprintf(out,
            "# ctrlc pc_bits=%" PRIu32 " agg_max=%" PRIu32 " agg_init=%" PRIu32 " period=%" PRIu32
            " thr_lo=%g thr_hi=%g mode=%s storage_bytes=%" PRIu32 " rows_dropped=%" PRIu64 "\n",
            c->pc_bits, c->agg_max, c->agg_init, c->period, c->thr_lo, c->thr_hi,
            c->mode == MODE_RAND ? "rand" : "det", pol_l1d_ctrlc_storage_bytes(s), s->rows.dropped);
    for (uint32_t i = 0; i <= s->mask; i++) {
        const struct pol_ctrlc_entry *e = &s->tab[i];

        if (!e->inserts && !e->bypasses)
            continue;
        fprintf(out,
                "# pc %" PRIu32 " agg=%" PRIu32 " inserts=%" PRIu64 " bypasses=%" PRIu64
                " evictions=%" PRIu64 " zero_reuse=%" PRIu64 "\n",
                i, e->agg, e->inserts, e->bypasses, e->evictions, e->zero_total);
    }
    return pol_series_write(&s->rows, out, "cycle,pc,zero,insert,agg_before,agg_after",
                            ctrlc_write_row, NULL, "the ctrlc sample series", err);
}

void pol_l1d_ctrlc_entry(const void *st, uint32_t pc, struct pol_ctrlc_entry *out)
{
    const struct ctrlc *s = st;

    *out = s->tab[pc & s->mask];
}

/* Bits to hold 0..v. */
static uint32_t bits_for(uint64_t v)
{
    uint32_t b = 0;

    while (v >> b)
        b++;
    return b ? b : 1;
}

uint32_t pol_l1d_ctrlc_storage_bytes(const void *st)
{
    const struct ctrlc *s = st;
    const struct ctrlc_cfg *c = &s->cfg;
    /* Table 5.2: 1-bit prediction, AGG, BYP (2^agg_max - 1), ZERO and INSERT (period - 1). */
    uint64_t entry = 1 + bits_for(c->agg_max) + (c->agg_max ? c->agg_max : 1) +
                     2 * (uint64_t)bits_for(c->period - 1);
    uint64_t line = 1 + c->pc_bits; /* reuse bit and insertPC */
    uint64_t bits = entry * ((uint64_t)s->mask + 1) + line * s->nsets * s->assoc;

    return (uint32_t)((bits + 7) / 8);
}

const struct pol_l1d_ops pol_l1d_ctrlc = {
    .name = "ctrlc",
    .line_state_bytes = sizeof(struct ctrlc_line),
    .argspec = &ctrlc_spec,
    .state_size = sizeof(struct ctrlc),
    .create = ctrlc_create,
    .destroy = ctrlc_destroy,
    .on_miss = ctrlc_on_miss,
    .victim = ctrlc_victim,
    .on_hit = ctrlc_on_hit,
    .on_insert = ctrlc_on_insert,
    .on_evict = ctrlc_on_evict,
    .counter_names = ctrlc_counter_names,
    .dump = ctrlc_dump,
};
