/*
 * DYNCTA ("dyncta"): a per-SM controller of the number of CTAs that run
 * (Kayiran et al., "Neither More Nor Less", PACT 2013; design/seeds/001).
 * Each SM starts a kernel at n = floor(N/2) (at least 1), N being the
 * kernel's occupancy limit. Once per sampling period (-ptxsim_sample_period
 * core cycles, 2048 in the paper) the GPU reports the SM's C_idle and C_mem
 * of that period, and n moves by one following the seed's corrected
 * Algorithm 1 (§4.5): C_idle >= t_idle raises n, else C_mem < t_mem_l
 * raises it, else C_mem >= t_mem_h lowers it, else n stays; a step that
 * would leave [n_min, min(n_max, N)] is not taken.
 *
 * limit() and run_limit() are both n: the GPU issues a new CTA to an SM only
 * while it holds fewer than n, and the SM runs the n earliest-assigned
 * resident CTAs and pauses the rest (soft pausing: their warps go only
 * when no running warp can). That one rule gives every pause and unpause
 * of the seed's semantics: a decrease pauses the most recently assigned
 * running CTA, an increase unpauses the oldest paused one instead of
 * admitting a new CTA, and a completing CTA lets the oldest paused one run
 * at once (A3-A5, A12, oracle 22).
 *
 * The counters are the SM's per-period deltas, so they are zero after every
 * decision (A9, A11). The paper's 11-bit counters saturate at 2047, which
 * cannot change a comparison against a threshold below 2048, so the full
 * counts are compared. Decisions go on after the last CTA is issued (A13).
 * Every change of n is kept as a (kernel, cycle, sm, n) row for
 * pol_cta_dyncta_dump().
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policies/args.h"
#include "policies/cta_sched.h"
#include "policies/sched_builtin.h"
#include "policies/series.h"

/* init values that are not a count of CTAs. */
#define DYN_INIT_HALF 0         /* floor(N/2), at least 1 (the paper) */
#define DYN_INIT_MAX UINT32_MAX /* N (the paper's worse variant, §4.7) */

struct dyn_cfg {
    uint32_t t_idle, t_mem_l, t_mem_h; /* Algorithm 1's thresholds */
    uint32_t init;                     /* DYN_INIT_HALF, DYN_INIT_MAX or a count */
    uint32_t n_min, n_max;             /* bounds of n; n_max 0 = N */
    uint32_t trace;                    /* keep the series of n */
};

static const uint32_t dyn_init_words[] = {DYN_INIT_HALF, DYN_INIT_MAX};

/* The paper's values (Table III, §4.4, §4.7). */
static const struct pol_arg dyn_args[] = {
    POL_KEY_UINT("t_idle", struct dyn_cfg, t_idle, 16, 0, UINT32_MAX, "C_idle at or above: +1"),
    POL_KEY_UINT("t_mem_l", struct dyn_cfg, t_mem_l, 128, 0, UINT32_MAX, "else C_mem below: +1"),
    POL_KEY_UINT("t_mem_h", struct dyn_cfg, t_mem_h, 384, 0, UINT32_MAX,
                 "else C_mem at or above: -1"),
    {.key = "init",
     .type = POL_ARG_UINT,
     .off = offsetof(struct dyn_cfg, init),
     .def = DYN_INIT_HALF,
     .min = 1,
     .max = UINT32_MAX - 1,
     .words = "half|max",
     .word_vals = dyn_init_words,
     .help = "initial n: floor(N/2), N or a count"},
    POL_KEY_UINT("n_min", struct dyn_cfg, n_min, 1, 1, UINT32_MAX, "lower bound of n"),
    POL_KEY_UINT("n_max", struct dyn_cfg, n_max, 0, 0, UINT32_MAX, "upper bound of n; 0 = N"),
    POL_KEY_UINT("trace", struct dyn_cfg, trace, 1, 0, 1, "keep the series of n"),
    POL_KEY_GONE("period", "the sampling period is the option -ptxsim_sample_period"),
};

struct dyn_row {
    uint64_t cycle;
    uint32_t kernel, sm, n;
};

struct dyncta {
    struct dyn_cfg cfg;
    uint32_t nsm;
    uint32_t N;             /* occupancy limit of the current kernel, 0 before the first */
    uint32_t lo, hi;        /* bounds of n in the current kernel */
    uint32_t kernel;        /* launches seen; the current one is number kernel - 1 */
    uint32_t *n;            /* per SM */
    bool *logged;           /* per SM: its initial n of this kernel is in the series */
    struct pol_series rows; /* of struct dyn_row */
};

/* ------------------------------------------------------------------ arguments */

/* Relations between keys that each value alone cannot break. */
static int dyn_check(void *cfg, char *what, size_t len)
{
    const struct dyn_cfg *c = cfg;

    if (c->t_mem_l > c->t_mem_h)
        return snprintf(what, len, "t_mem_l=%" PRIu32 " is above t_mem_h=%" PRIu32, c->t_mem_l,
                        c->t_mem_h);
    if (c->n_max && c->n_min > c->n_max)
        return snprintf(what, len, "n_min=%" PRIu32 " is above n_max=%" PRIu32, c->n_min, c->n_max);
    return 0;
}

static const struct pol_argspec dyn_spec = POL_ARGSPEC_KEYS(struct dyn_cfg, dyn_args, dyn_check);

/* ------------------------------------------------------------------ the controller */

static void dyncta_destroy(void *st)
{
    struct dyncta *d = st;

    if (!d)
        return;
    free(d->n);
    free(d->logged);
    pol_series_free(&d->rows);
}

static void *dyncta_create(const struct pol_cta_sched_params *p, struct ps_err *err)
{
    size_t nsm = p->nsm ? p->nsm : 1;
    const struct dyn_cfg cfg = *(const struct dyn_cfg *)p->cfg;
    struct dyncta *d = p->state;

    d->cfg = cfg;
    pol_series_init(&d->rows, sizeof(struct dyn_row), POL_SERIES_NO_CAP);
    d->nsm = p->nsm;
    d->n = calloc(nsm, sizeof(*d->n));
    d->logged = calloc(nsm, sizeof(*d->logged));
    if (!d->n || !d->logged)
        goto out_nomem;
    return d;
out_nomem:
    dyncta_destroy(d); /* create.c frees d itself */
    ps_err_set(err, PS_ENOMEM, "out of memory creating cta scheduler dyncta");
    return NULL;
}

/* Appends the SM's current n to the series (when kept). */
static void dyn_record(struct dyncta *d, uint64_t cycle, uint32_t sm)
{
    struct dyn_row *r;

    if (!d->cfg.trace || !(r = pol_series_add(&d->rows)))
        return; /* out of memory: the series stops here, and the dump says so */
    *r = (struct dyn_row){cycle, d->kernel - 1, sm, d->n[sm]};
}

/* A kernel starts: new N, bounds and initial n on every SM (A10, A11, §4.9). */
static void dyncta_on_kernel(void *st, uint32_t max_ctas)
{
    struct dyncta *d = st;
    uint32_t init;

    d->N = max_ctas;
    d->kernel++;
    d->hi = d->cfg.n_max && d->cfg.n_max < max_ctas ? d->cfg.n_max : max_ctas;
    d->lo = d->cfg.n_min < d->hi ? d->cfg.n_min : d->hi;
    if (d->cfg.init == DYN_INIT_HALF)
        init = max_ctas / 2;
    else if (d->cfg.init == DYN_INIT_MAX)
        init = max_ctas;
    else
        init = d->cfg.init;
    init = init < d->lo ? d->lo : init > d->hi ? d->hi : init;
    for (uint32_t i = 0; i < d->nsm; i++) {
        d->n[i] = init;
        d->logged[i] = false;
    }
}

/* Algorithm 1's step (seed 001 §4.5 and A2): +1, -1 or 0. */
static int dyn_step(const struct dyn_cfg *c, uint64_t c_idle, uint64_t c_mem)
{
    if (c_idle >= c->t_idle)
        return 1;
    if (c_mem < c->t_mem_l)
        return 1;
    if (c_mem >= c->t_mem_h)
        return -1;
    return 0;
}

static void dyncta_on_sample(void *st, uint32_t sm, const struct pol_sm_sample *s, uint64_t now)
{
    struct dyncta *d = st;
    int step;
    uint32_t n;

    if (sm >= d->nsm || !d->N)
        return;
    if (!d->logged[sm]) {
        /* The initial n, at the start of the kernel's first period on this SM. */
        d->logged[sm] = true;
        dyn_record(d, s->cycles < now ? now - s->cycles : 0, sm);
    }
    step = dyn_step(&d->cfg, s->idle, s->mem_stall);
    n = d->n[sm];
    if (step > 0 && n < d->hi)
        n++;
    else if (step < 0 && n > d->lo)
        n--;
    if (n == d->n[sm])
        return;
    d->n[sm] = n;
    dyn_record(d, now, sm);
}

/* n, for issue and for running alike; no opinion before the first kernel. */
static uint32_t dyncta_limit(void *st, uint32_t sm)
{
    const struct dyncta *d = st;

    if (sm >= d->nsm || !d->N)
        return UINT32_MAX;
    return d->n[sm];
}

static void dyn_write_row(FILE *out, const void *row, const void *ctx)
{
    const struct dyn_row *r = row;

    (void)ctx;
    fprintf(out, "%" PRIu32 ",%" PRIu64 ",%" PRIu32 ",%" PRIu32 "\n", r->kernel, r->cycle, r->sm,
            r->n);
}

int pol_cta_dyncta_dump(const void *st, FILE *out, struct ps_err *err)
{
    const struct dyncta *d = st;

    return pol_series_write(&d->rows, out, "kernel,cycle,sm,n", dyn_write_row, NULL,
                            "the dyncta series of n", err);
}

const struct pol_cta_sched_ops pol_cta_dyncta = {
    .name = "dyncta",
    .argspec = &dyn_spec,
    .state_size = sizeof(struct dyncta),
    .create = dyncta_create,
    .destroy = dyncta_destroy,
    .on_kernel = dyncta_on_kernel,
    .limit = dyncta_limit,
    .on_sample = dyncta_on_sample,
    .run_limit = dyncta_limit,
    .dump = pol_cta_dyncta_dump,
};
