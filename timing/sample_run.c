/*
 * Sampled simulation on the machine (-ptxsim_sample; timing/sample.h has the
 * method, docs/timing.md "Sampled simulation" the user's view). The kernel
 * table (kernels.c) calls in at four points: a launch is armed when it has
 * more CTAs than min_waves waves; every core cycle, before CTA issue, the
 * windows are closed and the criterion checked; a kernel submitted beside a
 * sampled one turns sampling off for it (the GPU's clock cannot jump for one
 * kernel while another runs); and at the end the CTAs never issued run
 * functionally, in linear order, and the estimate is booked.
 *
 * Everything here runs in the sequential part of the cycle, so the decisions
 * are the same for every -ptxsim_threads.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "timing/gpu_impl.h"
#include "timing/sample.h"

static uint64_t ctas_done(const struct tm_gpu *g)
{
    uint64_t n = 0;

    for (uint32_t i = 0; i < g->prm.nsm; i++)
        n += tm_sm_get_counters(g->sm[i])->ctas_done;
    return n;
}

/* The GPU's counters now, with the kernel's own instruction counts (it runs alone). */
static void snapshot(const struct tm_gpu *g, const struct tm_kernel *k, struct tm_counters *c)
{
    tm_gpu_gather(g, c);
    c->warp_insts = k->L.warp_insts;
    c->thread_insts = k->L.thread_insts;
}

int tm_sample_arm(struct tm_gpu *g, struct tm_kernel *k)
{
    const struct tm_sample_spec *sp = &g->prm.sample;
    struct tm_sampler *s = &k->smp;
    uint64_t wave = (uint64_t)g->prm.nsm * k->occ.max;
    double w;

    memset(s, 0, sizeof(*s));
    if (!sp->on || (double)k->nctas <= sp->min_waves * (double)wave)
        return 0;
    w = sp->window ? (double)sp->window : ceil(sp->waves * (double)wave);
    /*
     * The criterion looks after warmup + k windows, with a wave in flight,
     * and needs a window still to issue: a smaller kernel cannot converge
     * in the steady state, and an armed kernel settles the SMs every cycle
     * (tm_kernels_issue), which costs the parallel stepper its fused rounds.
     */
    if ((double)k->nctas < (double)(sp->warmup + sp->k + 1) * w + (double)wave)
        return 0;
    if (!(s->snap = calloc(sp->k, sizeof(*s->snap))))
        return ps_err_set(&k->err, PS_ENOMEM, "out of memory");
    s->window = w < UINT32_MAX ? (uint32_t)w : UINT32_MAX;
    s->armed = true;
    g->sampling++;
    return 0;
}

void tm_sample_release(struct tm_gpu *g, struct tm_kernel *k)
{
    if (k->smp.armed && g->sampling)
        g->sampling--;
    k->smp.armed = false;
    free(k->smp.snap);
    k->smp.snap = NULL;
}

void tm_sample_cancel_all(struct tm_gpu *g)
{
    for (uint32_t i = 0; i < g->nslots; i++) {
        struct tm_kernel *k = g->slot[i];

        if (!k)
            continue;
        tm_sample_release(g, k);
        if (k->smp.converged) /* the rest of its CTAs are timed after all */
            k->issue_end = k->nctas;
        k->smp.converged = false;
    }
}

/* The window [s->start, now] as figures for the criterion. */
static struct tm_sample_window measure(const struct tm_counters *now, const struct tm_counters *b)
{
    struct tm_counters d;
    struct tm_sample_window w;

    tm_counters_sub(&d, now, b);
    w.cycles = d.cycles;
    w.insts = d.thread_insts;
    w.l1d_miss = d.l1d.accesses ? (double)tm_cache_misses(&d.l1d) / (double)d.l1d.accesses : 0;
    w.l2_miss =
        d.mem.l2.accesses ? (double)tm_cache_misses(&d.mem.l2) / (double)d.mem.l2.accesses : 0;
    return w;
}

/* The last k windows, oldest first (window j after the warm-up is in slot j mod k). */
static void ordered(const struct tm_sampler *s, uint32_t k, struct tm_sample_window *out)
{
    for (uint32_t i = 0; i < k; i++)
        out[i] = s->win[(s->n - k + i) % k];
}

/* Stops CTA issue in detail: what is left runs functionally at the kernel's end. */
static void converge(struct tm_gpu *g, struct tm_kernel *k, const struct tm_counters *now)
{
    struct tm_sampler *s = &k->smp;
    uint32_t kk = g->prm.sample.k;
    const struct tm_counters *first = &s->snap[(s->n - kk) % kk];
    double ipc;

    ordered(s, kk, s->conv);
    tm_counters_sub(&s->delta, now, first);
    s->converged = true;
    k->issue_end = k->next_cta;
    s->rep.windows = s->closed;
    s->rep.window_ctas = s->window;
    s->rep.converged_cycle = g->core_now - k->start_cycle;
    s->rep.ipc_min = 1e300;
    for (uint32_t i = 0; i < kk; i++) {
        ipc = (double)s->conv[i].insts / (double)s->conv[i].cycles;
        s->rep.ipc_mean += ipc / kk;
        s->rep.ipc_min = ipc < s->rep.ipc_min ? ipc : s->rep.ipc_min;
        s->rep.ipc_max = ipc > s->rep.ipc_max ? ipc : s->rep.ipc_max;
    }
    tm_sample_release(g, k);
}

static void close_window(struct tm_gpu *g, struct tm_kernel *k, uint64_t done)
{
    const struct tm_sample_spec *sp = &g->prm.sample;
    struct tm_sampler *s = &k->smp;
    struct tm_sample_window w[TM_SAMPLE_MAX_K];
    struct tm_counters now;

    snapshot(g, k, &now);
    s->closed++;
    if (s->closed > sp->warmup) {
        s->win[s->n % sp->k] = measure(&now, &s->start);
        s->snap[s->n % sp->k] = s->start;
        s->n++;
    }
    s->start = now;
    s->start_done = done;
    if (s->n < sp->k || k->nctas - k->next_cta < s->window)
        return;
    ordered(s, sp->k, w);
    if (tm_sample_converged(w, sp->k, sp->tol, sp->mtol))
        converge(g, k, &now);
}

void tm_sample_step(struct tm_gpu *g, struct tm_kernel *alone)
{
    struct tm_kernel *k = alone;
    uint64_t done;

    if (!g->sampling)
        return;
    if (!k) { /* windows are taken only while the kernel runs alone */
        for (uint32_t i = 0; i < g->nslots; i++)
            if (g->slot[i])
                g->slot[i]->smp.started = false;
        return;
    }
    if (!k->smp.armed || g->core_now < k->ready_at)
        return;
    done = ctas_done(g) - k->ctas_done0;
    if (!k->smp.started) {
        snapshot(g, k, &k->smp.start);
        k->smp.start_done = done;
        k->smp.started = true;
        k->smp.n = 0; /* a window broken by another kernel does not count */
        return;
    }
    if (done - k->smp.start_done >= k->smp.window)
        close_window(g, k, done);
}

/* Runs CTAs [issue_end, nctas) functionally, in order. */
static int run_rest(struct tm_gpu *g, struct tm_kernel *k)
{
    uint64_t budget = g->dev ? isa_device_config(g->dev)->insn_budget : 0, cap = 0;

    if (g->prm.max_insn)
        cap = g->prm.max_insn > g->thread_insts ? g->prm.max_insn - g->thread_insts : 1;
    for (uint64_t lin = k->issue_end; lin < k->nctas; lin++) {
        struct isa_cta c;
        int rc = isa_cta_init(&c, &k->L, lin);

        if (rc)
            rc = ps_err_set(&k->err, PS_ENOMEM, "out of memory creating a CTA");
        else
            rc = isa_cta_run(&c, budget, cap);
        isa_cta_fini(&c);
        if (rc)
            return rc;
        k->next_cta = lin + 1;
    }
    return 0;
}

int tm_sample_finish(struct tm_gpu *g, struct tm_kernel *k)
{
    struct tm_sampler *s = &k->smp;
    struct tm_sampled *r = &s->rep;
    struct tm_counters extra;
    uint64_t insts0 = k->L.thread_insts, detailed = g->core_now - k->start_cycle;
    double dram_f;
    int rc;

    tm_sample_release(g, k);
    if (!s->converged)
        return 0;
    s->converged = false;
    r->detailed_ctas = k->issue_end;
    r->detailed_cycles = detailed;
    r->detailed_insts = insts0;
    if ((rc = run_rest(g, k)))
        return rc;
    r->kernels = 1;
    r->functional_ctas = k->nctas - r->detailed_ctas;
    r->functional_insts = k->L.thread_insts - insts0;
    r->extra_cycles =
        tm_sample_extra_cycles(r->functional_insts, s->delta.cycles, s->delta.thread_insts);
    r->ci_half = tm_sample_cpi_half(s->conv, g->prm.sample.k) * (double)r->functional_insts;
    tm_sample_extrapolate(&extra, &s->delta, r->extra_cycles);
    tm_counters_add(&g->retired, &extra);
    dram_f = s->delta.cycles ? (double)s->delta.dram_cycles / (double)s->delta.cycles : 0;
    g->core_now += r->extra_cycles;
    g->dram_now += (uint64_t)((double)r->extra_cycles * dram_f + 0.5);
    return 0;
}
