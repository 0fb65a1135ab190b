/*
 * Sampled simulation on the machine (-ptxsim_sample; timing/sample.h has the
 * method, docs/timing.md "Sampled simulation" the user's view). The kernel
 * table (kernels.c) calls in at four points: a launch is armed when it has
 * more CTAs than min_waves waves; every core cycle, before CTA issue, the
 * windows are closed and the criterion checked; a kernel submitted beside a
 * sampled one turns sampling off for it (the GPU's clock cannot jump for one
 * kernel while another runs); and at the end the CTAs never issued run
 * functionally (run_ctas) and the estimate is booked. With re-checks the
 * functional CTAs run in stretches between detailed windows instead.
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

/*
 * The GPU's counters now, with the kernel's own instruction counts (it runs
 * alone) less those of its CTAs run functionally: the windows time only the
 * CTAs the machine ran.
 */
static void snapshot(const struct tm_gpu *g, const struct tm_kernel *k, struct tm_counters *c)
{
    tm_gpu_gather(g, c);
    c->warp_insts = k->L.warp_insts - k->smp.func_warp_insts;
    c->thread_insts = k->L.thread_insts - k->smp.func_insts;
}

/* A window's counters d as figures for the criterion. */
static struct tm_sample_window figures(const struct tm_counters *d)
{
    struct tm_sample_window w;

    w.cycles = d->cycles;
    w.insts = d->thread_insts;
    w.l1d_miss = d->l1d.accesses ? (double)tm_cache_misses(&d->l1d) / (double)d->l1d.accesses : 0;
    w.l2_miss =
        d->mem.l2.accesses ? (double)tm_cache_misses(&d->mem.l2) / (double)d->mem.l2.accesses : 0;
    return w;
}

/* The window [b, now] as figures for the criterion. */
static struct tm_sample_window measure(const struct tm_counters *now, const struct tm_counters *b)
{
    struct tm_counters d;

    tm_counters_sub(&d, now, b);
    return figures(&d);
}

/*
 * Runs CTAs [next_cta, end) functionally; next_cta follows. CTAs that may
 * see each other's progress (isa_func_ctas_interact) run a wave at once, as
 * on the machine; others one after the other, which is faster and, for a
 * race-free program, does the same.
 */
static int run_ctas(struct tm_gpu *g, struct tm_kernel *k, uint64_t end)
{
    uint64_t budget = g->dev ? isa_device_config(g->dev)->insn_budget : 0, cap = 0;
    uint64_t wave = (uint64_t)g->prm.nsm * k->occ.max;
    int rc;

    if (!isa_func_ctas_interact(k->L.p->m->funcs[k->L.kernel]))
        wave = 1;
    if (g->prm.max_insn)
        cap = g->prm.max_insn > g->thread_insts ? g->prm.max_insn - g->thread_insts : 1;
    rc = isa_ctas_run(&k->L, k->next_cta, end, wave < UINT32_MAX ? (uint32_t)wave : UINT32_MAX,
                      budget, cap);
    if (!rc)
        k->next_cta = end;
    return rc;
}

/* A window behind the estimate: its rates for the interval and the report. */
static void count_window(struct tm_sampler *s, const struct tm_sample_window *w)
{
    double ipc = (double)w->insts / (double)w->cycles, cpi = 1.0 / ipc;

    s->ipc_min = !s->nw || ipc < s->ipc_min ? ipc : s->ipc_min;
    s->ipc_max = !s->nw || ipc > s->ipc_max ? ipc : s->ipc_max;
    s->nw++;
    s->ipc_sum += ipc;
    s->cpi_sum += cpi;
    s->cpi_sq += cpi * cpi;
}

/*
 * The next stretch: recheck windows' worth of CTAs run functionally now, or
 * all that are left when less than a window would remain after it. Running
 * them at once, ahead of the CTAs still to issue, is a schedule the program
 * may have (CTAs are unordered); the machine goes on with the next CTAs in
 * its steady state. A fault stops the issue; the kernel ends with it.
 */
static void skip(struct tm_gpu *g, struct tm_kernel *k)
{
    struct tm_sampler *s = &k->smp;
    uint64_t n = (uint64_t)g->prm.sample.recheck * s->window, left = k->nctas - k->next_cta;
    uint64_t end = left <= n + s->window ? k->nctas : k->next_cta + n;
    uint64_t i0 = k->L.thread_insts, w0 = k->L.warp_insts, c0 = k->next_cta;
    int rc = run_ctas(g, k, end);

    s->func_insts += k->L.thread_insts - i0;
    s->func_warp_insts += k->L.warp_insts - w0;
    s->pending_insts += k->L.thread_insts - i0;
    s->func_ctas += k->next_cta - c0;
    if (rc) {
        s->rc = rc;
        k->issue_end = k->next_cta;
        tm_gpu_issue_changed(g);
    }
}

/* A window after a stretch: it costs the stretch and starts the next one. */
static void recheck(struct tm_gpu *g, struct tm_kernel *k, const struct tm_counters *now)
{
    struct tm_sampler *s = &k->smp;
    struct tm_counters d;
    struct tm_sample_window w;
    double cpi;

    tm_counters_sub(&d, now, &s->start);
    w = figures(&d);
    if (s->pending_insts && w.insts && w.cycles) { /* else a window of the drain: unused */
        cpi = (double)w.cycles / (double)w.insts;
        s->extra += (double)s->pending_insts * (s->left_cpi + cpi) / 2;
        s->pending_insts = 0;
        s->left_cpi = cpi;
        tm_counters_add(&s->delta, &d);
        count_window(s, &w);
    }
    if (k->next_cta < k->issue_end)
        skip(g, k);
}

/*
 * The entry for k's kernel with k's block and dynamic shared memory, or
 * NULL. The grid may differ: the windows measure the steady state of CTAs
 * of the same shape (lud's and gaussian's shrinking grids), and a launch
 * that behaves otherwise does not agree with them.
 */
static struct tm_sample_ref *find_ref(struct tm_gpu *g, const struct tm_kernel *k)
{
    for (uint32_t i = 0; i < TM_SAMPLE_REFS; i++) {
        struct tm_sample_ref *r = &g->sample_refs[i];

        if (r->used && r->prog == (const void *)k->L.p && r->kernel == k->L.kernel &&
            r->dyn_shared == k->L.dyn_shared && !memcmp(r->block, k->L.block, sizeof(r->block)))
            return r;
    }
    return NULL;
}

/* k converged on w[0..n-1]: the entry its next launches compare with. */
static void keep_ref(struct tm_gpu *g, const struct tm_kernel *k, const struct tm_sample_window *w,
                     uint32_t n)
{
    struct tm_sample_ref *r = find_ref(g, k);

    if (!r) {
        r = &g->sample_refs[g->sample_ref_next];
        g->sample_ref_next = (g->sample_ref_next + 1) % TM_SAMPLE_REFS;
    }
    r->used = true;
    r->prog = k->L.p;
    r->kernel = k->L.kernel;
    r->dyn_shared = k->L.dyn_shared;
    memcpy(r->block, k->L.block, sizeof(r->block));
    memcpy(r->w, w, n * sizeof(*w));
}

int tm_sample_arm(struct tm_gpu *g, struct tm_kernel *k)
{
    const struct tm_sample_spec *sp = &g->prm.sample;
    struct tm_sampler *s = &k->smp;
    const struct tm_sample_ref *ref = sp->reuse && sp->reuse < sp->k ? find_ref(g, k) : NULL;
    uint64_t wave = (uint64_t)g->prm.nsm * k->occ.max;
    double w;

    memset(s, 0, sizeof(*s));
    if (!sp->on || (double)k->nctas <= sp->min_waves * (double)wave)
        return 0;
    w = sp->window ? (double)sp->window : ceil(sp->waves * (double)wave);
    /*
     * The criterion looks after warmup + k windows (warmup + reuse with an
     * earlier launch's windows to agree with), with a wave in flight, and
     * needs a window still to issue: a smaller kernel cannot converge in the
     * steady state, and an armed kernel settles the SMs every cycle
     * (tm_kernels_issue), which costs the parallel stepper its fused rounds.
     */
    if ((double)k->nctas < (double)(sp->warmup + (ref ? sp->reuse : sp->k) + 1) * w + (double)wave)
        return 0;
    if (!(s->snap = calloc(sp->k, sizeof(*s->snap))))
        return ps_err_set(&k->err, PS_ENOMEM, "out of memory");
    s->window = w < UINT32_MAX ? (uint32_t)w : UINT32_MAX;
    s->armed = true;
    if (ref) {
        s->has_ref = true;
        memcpy(s->ref, ref->w, sp->k * sizeof(*s->ref));
    }
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
        if (k->smp.periodic) /* the stretches run stay estimated; the rest is timed */
            continue;
        if (k->smp.converged) { /* the rest of its CTAs are timed after all */
            k->issue_end = k->nctas;
            tm_gpu_issue_changed(g);
        }
        k->smp.converged = false;
    }
}

/* The last k windows, oldest first (window j after the warm-up is in slot j mod k). */
static void ordered(const struct tm_sampler *s, uint32_t k, struct tm_sample_window *out)
{
    for (uint32_t i = 0; i < k; i++)
        out[i] = s->win[(s->n - k + i) % k];
}

/*
 * Stops CTA issue in detail: what is left runs functionally at the kernel's
 * end; with re-checks, the first stretch runs now and the windows go on.
 */
static void converge(struct tm_gpu *g, struct tm_kernel *k, const struct tm_counters *now,
                     const struct tm_sample_window *w, uint32_t own)
{
    struct tm_sampler *s = &k->smp;
    uint32_t kk = g->prm.sample.k;
    const struct tm_counters *first = &s->snap[(s->n - own) % kk];
    double ipc;

    memcpy(s->conv, w, kk * sizeof(*w));
    keep_ref(g, k, w, kk);
    tm_counters_sub(&s->delta, now, first); /* the rates: this launch's own windows */
    s->converged = true;
    s->rep.window_ctas = s->window;
    s->rep.converged_cycle = g->core_now - k->start_cycle;
    if (g->prm.sample.recheck) {
        s->periodic = true;
        s->left_cpi = (double)s->delta.cycles / (double)s->delta.thread_insts;
        for (uint32_t i = 0; i < kk; i++)
            count_window(s, &s->conv[i]);
        skip(g, k);
        return;
    }
    k->issue_end = k->next_cta;
    tm_gpu_issue_changed(g);
    s->rep.windows = s->closed;
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
    if (s->periodic) {
        recheck(g, k, &now);
        s->start = now;
        s->start_done = done;
        return;
    }
    if (s->closed > sp->warmup) {
        s->win[s->n % sp->k] = measure(&now, &s->start);
        s->snap[s->n % sp->k] = s->start;
        s->n++;
    }
    s->start = now;
    s->start_done = done;
    if (!s->n || k->nctas - k->next_cta < s->window)
        return;
    if (s->n >= sp->k) {
        ordered(s, sp->k, w);
        if (tm_sample_converged(w, sp->k, sp->tol, sp->mtol))
            converge(g, k, &now, w, sp->k);
        return;
    }
    if (!s->has_ref || s->n < sp->reuse) /* else: the earlier launch's last windows, then ours */
        return;
    memcpy(w, s->ref + s->n, (sp->k - s->n) * sizeof(*w));
    ordered(s, s->n, w + sp->k - s->n);
    if (tm_sample_converged(w, sp->k, sp->tol, sp->mtol))
        converge(g, k, &now, w, s->n);
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

/* The estimate of a kernel with re-checks: its stretches, the last at the rate before it. */
static void book_periodic(struct tm_kernel *k, uint64_t detailed)
{
    struct tm_sampler *s = &k->smp;
    struct tm_sampled *r = &s->rep;

    s->extra += (double)s->pending_insts * s->left_cpi;
    s->pending_insts = 0;
    r->detailed_ctas = k->nctas - s->func_ctas;
    r->functional_ctas = s->func_ctas;
    r->detailed_cycles = detailed;
    r->detailed_insts = k->L.thread_insts - s->func_insts;
    r->functional_insts = s->func_insts;
    r->extra_cycles = (uint64_t)llround(s->extra);
    r->ci_half = tm_sample_half_from_sums(s->nw, s->cpi_sum, s->cpi_sq) * (double)s->func_insts;
    r->windows = s->closed;
    r->ipc_mean = s->ipc_sum / s->nw;
    r->ipc_min = s->ipc_min;
    r->ipc_max = s->ipc_max;
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
    if (s->periodic) {
        if (s->rc)
            return s->rc;
        book_periodic(k, detailed);
    } else {
        r->detailed_ctas = k->issue_end;
        r->detailed_cycles = detailed;
        r->detailed_insts = insts0;
        if ((rc = run_ctas(g, k, k->nctas)))
            return rc;
        r->functional_ctas = k->nctas - r->detailed_ctas;
        r->functional_insts = k->L.thread_insts - insts0;
        r->extra_cycles =
            tm_sample_extra_cycles(r->functional_insts, s->delta.cycles, s->delta.thread_insts);
        r->ci_half = tm_sample_cpi_half(s->conv, g->prm.sample.k) * (double)r->functional_insts;
    }
    r->kernels = 1;
    tm_sample_extrapolate(&extra, &s->delta, r->extra_cycles);
    tm_counters_add(&g->retired, &extra);
    dram_f = s->delta.cycles ? (double)s->delta.dram_cycles / (double)s->delta.cycles : 0;
    g->core_now += r->extra_cycles;
    g->dram_now += (uint64_t)((double)r->extra_cycles * dram_f + 0.5);
    return 0;
}
