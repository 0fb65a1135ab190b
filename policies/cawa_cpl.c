/* CAWA's criticality prediction logic; see cawa_cpl.h. */
#include "policies/cawa_cpl.h"

#include <stdlib.h>
#include <string.h>

#include "policies/sm_view.h"
#include "policies/util.h"
#include "policies/warp_sched.h"

int64_t cawa_cpl_delta_signed(uint32_t curr, uint32_t next, uint32_t inst_size)
{
    int64_t d = (int64_t)next - (int64_t)curr;

    return d / (int64_t)(inst_size ? inst_size : 1) + 1;
}

int64_t cawa_cpl_delta_abs(uint32_t curr, uint32_t next, uint32_t inst_size)
{
    int64_t d = (int64_t)next - (int64_t)curr;

    if (d < 0)
        d = -d;
    return d / (int64_t)(inst_size ? inst_size : 1) + 1;
}

int cawa_cpl_init(struct cawa_cpl *c, uint32_t nslots, cawa_cpl_delta_fn delta, uint32_t inst_size,
                  enum cawa_cpl_stall stall)
{
    c->nslots = nslots;
    c->w = calloc(nslots ? nslots : 1, sizeof(*c->w));
    c->delta = delta ? delta : cawa_cpl_delta_signed;
    c->inst_size = inst_size ? inst_size : 1;
    c->stall = stall;
    return c->w ? 0 : -1;
}

void cawa_cpl_fini(struct cawa_cpl *c)
{
    free(c->w);
    c->w = NULL;
    c->nslots = 0;
}

void cawa_cpl_launch(struct cawa_cpl *c, uint32_t slot, uint64_t now)
{
    if (slot >= c->nslots)
        return;
    memset(&c->w[slot], 0, sizeof(c->w[slot]));
    c->w[slot].start = now;
}

void cawa_cpl_issue(struct cawa_cpl *c, uint32_t slot, uint64_t now)
{
    struct cawa_cpl_warp *w;

    if (slot >= c->nslots)
        return;
    w = &c->w[slot];
    if (w->issued && now > w->last) {
        uint64_t gap = now - w->last;

        w->nstall += c->stall == CAWA_CPL_STALL_GAP ? gap - 1 : gap;
    }
    w->issued = true;
    w->last = now;
}

void cawa_cpl_commit(struct cawa_cpl *c, uint32_t slot, uint64_t k)
{
    if (slot >= c->nslots)
        return;
    c->w[slot].ninst -= (int64_t)k;
    c->w[slot].committed += k;
}

void cawa_cpl_branch(struct cawa_cpl *c, uint32_t slot, uint32_t curr, uint32_t next)
{
    if (slot >= c->nslots)
        return;
    c->w[slot].ninst += c->delta(curr, next, c->inst_size);
}

double cawa_cpl_cpi(const struct cawa_cpl *c, uint32_t slot, uint64_t now)
{
    const struct cawa_cpl_warp *w;
    uint64_t cycles;

    if (slot >= c->nslots)
        return 0.0;
    w = &c->w[slot];
    cycles = now > w->start ? now - w->start : 0;
    return (double)cycles / (double)(w->committed ? w->committed : 1);
}

double cawa_cpl_formula(int64_t ninst, double cpi_avg, uint64_t nstall)
{
    return (double)ninst * cpi_avg + (double)nstall;
}

double cawa_cpl_criticality(const struct cawa_cpl *c, uint32_t slot, uint64_t now)
{
    if (slot >= c->nslots)
        return 0.0;
    return cawa_cpl_formula(c->w[slot].ninst, cawa_cpl_cpi(c, slot, now), c->w[slot].nstall);
}

/* ------------------------------------------------------------ the SM monitor */

struct cawa_monitor {
    const struct pol_sm_view *v;
    uint32_t *samples, *slow; /* per warp slot: accuracy samples taken, those that said slow */
};

static void *monitor_create(const struct pol_sm_view *v)
{
    struct cawa_monitor *m = calloc(1, sizeof(*m));

    if (!m)
        return NULL;
    m->v = v;
    m->samples = calloc(v->max_warps, sizeof(*m->samples));
    m->slow = calloc(v->max_warps, sizeof(*m->slow));
    if (m->samples && m->slow)
        return m;
    free(m->samples);
    free(m->slow);
    free(m);
    return NULL;
}

static void monitor_destroy(void *st)
{
    struct cawa_monitor *m = st;

    if (!m)
        return;
    free(m->samples);
    free(m->slow);
    free(m);
}

static int monitor_query(void *st, uint32_t warp, uint64_t now)
{
    const struct pol_sm_view *v = ((struct cawa_monitor *)st)->v;
    const struct pol_warp_sched_ops *ws = v->ws;
    double mine, c;
    uint32_t below = 0, n = 0;
    int32_t cta;

    if (!ws->criticality || warp >= v->max_warps || v->slot_cta[warp] < 0)
        return -1;
    if (!ws->criticality(v->sched[warp % v->nsched], warp, now, &mine))
        return -1;
    cta = v->slot_cta[warp];
    for (uint32_t i = 0; i < v->max_warps; i++) {
        if (v->slot_cta[i] != cta)
            continue;
        n++;
        if (i != warp && ws->criticality(v->sched[i % v->nsched], i, now, &c) && c < mine)
            below++;
    }
    return pol_critical_in_group(below, n);
}

static void monitor_sample(void *st, uint64_t now)
{
    struct cawa_monitor *m = st;

    for (uint32_t i = 0; i < m->v->max_warps; i++) {
        int r;

        if (m->v->slot_cta[i] < 0 || (r = monitor_query(m, i, now)) < 0)
            continue;
        m->samples[i]++;
        m->slow[i] += (uint32_t)r;
    }
}

static void monitor_warp_left(void *st, uint32_t slot, bool cta_done, uint64_t *samples,
                              uint64_t *hits)
{
    struct cawa_monitor *m = st;

    if (slot >= m->v->max_warps)
        return;
    /* The CTA's last warp to finish was its critical warp: how often was it predicted slow? */
    if (cta_done) {
        *samples += m->samples[slot];
        *hits += m->slow[slot];
    }
    m->samples[slot] = m->slow[slot] = 0;
}

/* CAWA's accuracy statistics, under the dissertation's names. */
const struct pol_sm_monitor_names pol_sm_monitor_names = {
    .block = "criticality",
    .samples = "samples",
    .hits = "critical_predicted_slow",
    .ratio = "accuracy",
    .text_ratio = "cawa_prediction_accuracy",
};

const struct pol_sm_monitor_ops cawa_sm_monitor = {
    .create = monitor_create,
    .destroy = monitor_destroy,
    .query = monitor_query,
    .sample = monitor_sample,
    .warp_left = monitor_warp_left,
};
