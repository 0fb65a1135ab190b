/*
 * PC-based adaptive bypassing (Tian et al., GPGPU-8 2015), as the
 * dissertation describes its comparison point for Ctrl-C (seed 003 section
 * 4.4): a table of saturating confidence counters indexed by the low
 * pc_bits of the instruction index, trained when a line leaves the cache:
 * a line evicted without a hit raises its inserting PC's counter, a line
 * that was hit lowers it. A read miss of a PC whose counter is at or above
 * the threshold is bypassed, all of them (no partial insertion), so a PC
 * that reaches the threshold inserts nothing more and is retrained only by
 * its lines still in the cache: the loss of correction the dissertation
 * blames for FLD's slowdown. Widths, threshold and steps are free
 * parameters (the dissertation gives none). Replacement is LRU.
 */
#include "policies/l1d_pcbypass.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "policies/args.h"
#include "policies/l1d.h"
#include "policies/l1d_builtin.h"
#include "policies/l1d_util.h"
#include "policies/series.h"

enum { CT_BYPASSES, CT_INSERTS, CT_EVICTIONS, CT_ZERO, CT_INC, CT_DEC, CT_ON, CT_OFF };

static const char *const pcb_counter_names[] = {"bypasses",     "inserts",      "evictions",
                                                "zero_reuse",   "ctr_inc",      "ctr_dec",
                                                "pc_to_bypass", "pc_to_insert", NULL};

struct pcb_cfg {
    uint32_t pc_bits, bits, threshold, init, inc, dec, series_cap;
};

#define KEY(k, d, lo, hi, help) POL_KEY_UINT(#k, struct pcb_cfg, k, d, lo, hi, help)
static const struct pol_arg pcb_args[] = {
    KEY(pc_bits, 7, 1, 12, "PC bits indexing the counter table"),
    KEY(bits, 3, 1, 8, "counter width"),
    KEY(threshold, 4, 1, 255, "bypass at or above this count (fits in bits)"),
    KEY(init, 0, 0, 255, "initial count (fits in bits)"),
    KEY(inc, 1, 0, 255, "step up on a line evicted without reuse"),
    KEY(dec, 1, 0, 255, "step down on a reused line"),
    KEY(series_cap, 65536, 0, 1 << 24, "most rows of the threshold-crossing series"),
};
#undef KEY

static int pcb_check(void *cfg, char *why, size_t len)
{
    const struct pcb_cfg *c = cfg;
    uint32_t max = (1u << c->bits) - 1;

    if (c->threshold > max || c->init > max)
        return snprintf(why, len,
                        "threshold=%" PRIu32 " and init=%" PRIu32 " must fit in bits=%" PRIu32
                        " (at most %" PRIu32 ")",
                        c->threshold, c->init, c->bits, max);
    return 0;
}

static const struct pol_argspec pcb_spec = POL_ARGSPEC_KEYS(struct pcb_cfg, pcb_args, pcb_check);

/* A PC crossing the threshold (either way): the dump's rows. */
struct pcb_row {
    uint64_t cycle;
    uint32_t pc, ctr;
};

struct pcb_line {
    bool valid, reuse;
    uint16_t pc;
};

struct pcbypass {
    struct pcb_cfg cfg;
    uint32_t assoc, mask, max;
    uint64_t *counters;
    struct pol_pcb_entry *tab;
    struct pcb_line *lines;
    void *own_lines;        /* lines, when no cache gave them */
    struct pol_series rows; /* of struct pcb_row, at most series_cap */
};

static void pcb_destroy(void *st)
{
    struct pcbypass *s = st;

    if (!s)
        return;
    free(s->tab);
    free(s->own_lines);
    pol_series_free(&s->rows);
}

static void *pcb_create(const struct pol_l1d_params *p, struct ps_err *err)
{
    struct pcbypass *s = p->state;

    s->cfg = *(const struct pcb_cfg *)p->cfg;
    s->assoc = p->assoc;
    s->mask = (1u << s->cfg.pc_bits) - 1;
    s->max = (1u << s->cfg.bits) - 1;
    s->counters = p->counters;
    s->tab = calloc((size_t)s->mask + 1, sizeof(*s->tab));
    s->lines = pol_l1d_line_state(p, sizeof(*s->lines), &s->own_lines);
    pol_series_init(&s->rows, sizeof(struct pcb_row), s->cfg.series_cap);
    if (!s->tab || !s->lines)
        goto oom;
    for (uint32_t i = 0; i <= s->mask; i++)
        s->tab[i].ctr = s->cfg.init;
    return s;
oom:
    pcb_destroy(s);
    ps_err_set(err, PS_ENOMEM, "l1d policy pcbypass: out of memory");
    return NULL;
}

static void count(struct pcbypass *s, int which)
{
    if (s->counters)
        s->counters[which]++;
}

static bool pcb_on_miss(void *st, const struct mem_req *r, uint32_t set, uint64_t now)
{
    struct pcbypass *s = st;
    struct pol_pcb_entry *e = &s->tab[r->pc & s->mask];

    (void)set;
    (void)now;
    if (e->ctr < s->cfg.threshold)
        return true;
    e->bypasses++;
    count(s, CT_BYPASSES);
    return false;
}

static uint32_t pcb_victim(void *st, uint32_t set, const struct pol_line_view *lines,
                           uint32_t assoc, uint64_t now)
{
    (void)st;
    (void)set;
    (void)now;
    return pol_l1d_lru_way(lines, assoc, false);
}

static void pcb_on_insert(void *st, const struct mem_req *r, uint32_t set, uint32_t way,
                          uint64_t now)
{
    struct pcbypass *s = st;
    struct pcb_line *l = &s->lines[(size_t)set * s->assoc + way];

    (void)now;
    l->valid = true;
    l->reuse = false;
    l->pc = (uint16_t)(r->pc & s->mask);
    s->tab[l->pc].inserts++;
    count(s, CT_INSERTS);
}

static void pcb_on_hit(void *st, const struct mem_req *r, uint32_t set, uint32_t way, uint64_t now)
{
    struct pcbypass *s = st;

    (void)r;
    (void)now;
    s->lines[(size_t)set * s->assoc + way].reuse = true;
}

static void record(struct pcbypass *s, uint32_t pc, uint64_t now)
{
    struct pcb_row *row = pol_series_add(&s->rows);

    if (row) /* else counted as dropped */
        *row = (struct pcb_row){now, pc, s->tab[pc].ctr};
}

/* Training at eviction: up without reuse, down with it; a crossing of the threshold is logged. */
static void pcb_on_evict(void *st, const struct pol_line_view *line, uint32_t set, uint32_t way,
                         uint64_t now)
{
    struct pcbypass *s = st;
    struct pcb_line *l = &s->lines[(size_t)set * s->assoc + way];
    uint32_t pc = l->valid ? l->pc : (line->pc & s->mask);
    bool reuse = l->valid ? l->reuse : line->hits > 0;
    struct pol_pcb_entry *e = &s->tab[pc];
    bool was = e->ctr >= s->cfg.threshold;

    l->valid = false;
    count(s, CT_EVICTIONS);
    if (reuse) {
        e->ctr = e->ctr > s->cfg.dec ? e->ctr - s->cfg.dec : 0;
        count(s, CT_DEC);
    } else {
        e->ctr = e->ctr + s->cfg.inc < s->max ? e->ctr + s->cfg.inc : s->max;
        e->zero++;
        count(s, CT_ZERO);
        count(s, CT_INC);
    }
    if (was != (e->ctr >= s->cfg.threshold)) {
        count(s, was ? CT_OFF : CT_ON);
        record(s, pc, now);
    }
}

/* ctx: the config, whose threshold says whether the PC now bypasses. */
static void pcb_write_row(FILE *out, const void *row, const void *ctx)
{
    const struct pcb_row *r = row;
    const struct pcb_cfg *c = ctx;

    fprintf(out, "%" PRIu64 ",%" PRIu32 ",%" PRIu32 ",%d\n", r->cycle, r->pc, r->ctr,
            r->ctr >= c->threshold);
}

static int pcb_dump(const void *st, FILE *out, struct ps_err *err)
{
    const struct pcbypass *s = st;
    const struct pcb_cfg *c = &s->cfg;

    fprintf(out,
            "# pcbypass pc_bits=%" PRIu32 " bits=%" PRIu32 " threshold=%" PRIu32 " init=%" PRIu32
            " inc=%" PRIu32 " dec=%" PRIu32 " rows_dropped=%" PRIu64 "\n",
            c->pc_bits, c->bits, c->threshold, c->init, c->inc, c->dec, s->rows.dropped);
    for (uint32_t i = 0; i <= s->mask; i++) {
        const struct pol_pcb_entry *e = &s->tab[i];

        if (!e->inserts && !e->bypasses)
            continue;
        fprintf(out,
                "# pc %" PRIu32 " ctr=%" PRIu32 " inserts=%" PRIu64 " bypasses=%" PRIu64
                " zero_reuse=%" PRIu64 "\n",
                i, e->ctr, e->inserts, e->bypasses, e->zero);
    }
    return pol_series_write(&s->rows, out, "cycle,pc,ctr,bypassing", pcb_write_row, c,
                            "the pcbypass crossing series", err);
}

void pol_l1d_pcbypass_entry(const void *st, uint32_t pc, struct pol_pcb_entry *out)
{
    const struct pcbypass *s = st;

    *out = s->tab[pc & s->mask];
}

const struct pol_l1d_ops pol_l1d_pcbypass = {
    .name = "pcbypass",
    .line_state_bytes = sizeof(struct pcb_line),
    .argspec = &pcb_spec,
    .state_size = sizeof(struct pcbypass),
    .create = pcb_create,
    .destroy = pcb_destroy,
    .on_miss = pcb_on_miss,
    .victim = pcb_victim,
    .on_hit = pcb_on_hit,
    .on_insert = pcb_on_insert,
    .on_evict = pcb_on_evict,
    .counter_names = pcb_counter_names,
    .dump = pcb_dump,
};
