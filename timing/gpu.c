/*
 * The clocked GPU: clock domains, CTA issue to SMs within occupancy and
 * the CTA policy's limit, the per-kernel run loop with its watchdogs
 * (deadlock, cycle and instruction caps, runaway budget), the progress line
 * and the statistics snapshots.
 *
 * Clock domains advance in integer femtoseconds: each step moves to the
 * earliest next edge among core, interconnect, L2 and DRAM and ticks every
 * domain whose edge it is (in that fixed order), so runs are deterministic.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/counters.h"
#include "isa/resources.h"
#include "policies/registry.h"
#include "timing/gpu_impl.h"
#include "timing/l1d_trace.h"
#include "timing/line_stats.h"
#include "timing/parallel.h"
#include "timing/sm.h"

/* Cycles without any issue, with nothing in flight, before a launch is declared deadlocked. */
#define DEADLOCK_CYCLES 100000u

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void machine_free(struct tm_gpu *g)
{
    for (uint32_t i = 0; g->sm && i < g->prm.nsm; i++)
        tm_sm_destroy(g->sm[i]);
    free(g->sm);
    g->sm = NULL;
    if (g->l1_shared && g->l1p->shared_destroy)
        g->l1p->shared_destroy(g->l1_shared);
    g->l1_shared = NULL;
    mem_system_destroy(g->ms);
    g->ms = NULL;
}

static int l1d_shared_build(struct tm_gpu *g, struct ps_err *err);

static int machine_build(struct tm_gpu *g, struct ps_err *err)
{
    const struct tm_params *p = &g->prm;
    struct mem_system_params mp = {0};
    struct tm_sm_env env;
    int rc;

    mp.nsm = p->nsm;
    mp.nmem = p->nmem;
    mp.nsub = p->nsub;
    mp.l2 = p->l2;
    mp.rop_latency = p->rop_latency;
    /*
     * -dram_latency counts core cycles (GPGPU-Sim stamps its DRAM latency
     * queue with the core cycle); the memory system runs it in DRAM cycles.
     */
    mp.dram_latency = (uint32_t)(p->dram_latency * p->clk[D_DRAM] / p->clk[D_CORE] + 0.5);
    memcpy(mp.partq, p->partq, sizeof(mp.partq));
    mp.dram = p->dram;
    mp.amap = p->amap;
    mp.icnt.flit_bytes = p->flit_bytes;
    mp.icnt.latency = p->icnt_latency;
    mp.icnt.in_buf_flits = p->icnt_in_flits;
    mp.icnt.out_buf_pkts = p->eject_pkts;
    mp.sector_replies = p->sector_replies;
    g->ms = mem_system_create(&mp, err);
    if (!g->ms)
        return err && err->code ? err->code : PS_ENOMEM;
    /*
     * The reply network's cycle runs beside the SMs (run_loop) where nothing
     * it delivers can be popped before the SMs' next cycle: its latency must
     * cover every interconnect edge that may fall between two core edges.
     */
    g->replies_staged = p->icnt_latency >= (g->period_fs[D_CORE] + g->period_fs[D_ICNT] - 1) /
                                               g->period_fs[D_ICNT] &&
                        mem_system_stage_replies(g->ms);
    if ((rc = l1d_shared_build(g, err)))
        return rc;
    env = (struct tm_sm_env){.prm = p,
                             .ms = g->ms,
                             .ws = g->ws,
                             .ws_args = g->ws_args,
                             .l1d_pol = g->l1p,
                             .l1d_args = g->l1_args,
                             .nsm = p->nsm,
                             .cs = g->cs,
                             .cs_st = g->cs_st,
                             .l1d_shared = g->l1_shared,
                             .l1d_trace = g->l1d_trace,
                             .warp_profile = g->warp_profile};
    g->sm = calloc(p->nsm, sizeof(*g->sm));
    if (!g->sm)
        return ps_err_set(err, PS_ENOMEM, "out of memory");
    for (uint32_t i = 0; i < p->nsm; i++)
        if (!(g->sm[i] = tm_sm_create(&env, i, err)))
            return err && err->code ? err->code : PS_ENOMEM;
    tm_kernels_attach(g); /* a rebuilt machine: CTA issue's notes start over */
    return 0;
}

/* The L1D policy's GPU-wide state (set dueling across SMs), if it keeps any. */
static int l1d_shared_build(struct tm_gpu *g, struct ps_err *err)
{
    struct pol_l1d_params lp = {0};

    if (!g->l1p->shared_create)
        return 0;
    lp.nsets = g->prm.l1d.nsets;
    lp.assoc = g->prm.l1d.assoc;
    lp.line_bytes = g->prm.l1d.line_bytes;
    lp.sm = UINT32_MAX;
    lp.nsms = g->prm.nsm;
    lp.args = g->l1_args ? g->l1_args : "";
    g->l1_shared = pol_l1d_shared_create(g->l1p, &lp, err);
    if (g->l1_shared)
        return 0;
    if (err && err->code)
        return err->code;
    return ps_err_set(err, PS_EINVAL, "l1d policy %s failed to start", g->l1p->name);
}

static int find_policies(struct tm_gpu *g, struct ps_err *err)
{
    struct pol_cta_sched_params cp = {0};

    g->ws = pol_warp_sched_find(g->prm.warp_sched, &g->ws_args, err);
    if (!g->ws)
        return PS_EINVAL;
    g->cs = pol_cta_sched_find(g->prm.cta_sched, &cp.args, err);
    if (!g->cs)
        return PS_EINVAL;
    g->l1p = pol_l1d_find(g->prm.l1d_policy, &g->l1_args, err);
    if (!g->l1p)
        return PS_EINVAL;
    cp.nsm = g->prm.nsm;
    cp.static_limit = g->prm.cta_limit;
    g->cs_st = pol_cta_sched_create(g->cs, &cp, err);
    return g->cs_st ? 0 : PS_EINVAL;
}

/* -ptxsim_warp_profile's file, and -ptxsim_l1d_trace's with its header (timing/l1d_trace.h). */
static int open_l1d_trace(struct tm_gpu *g, struct ps_err *err)
{
    const char *path = g->prm.l1d_trace;
    struct tm_l1d_trace_header h = {.nsm = g->prm.nsm,
                                    .nsets = g->prm.l1d.nsets,
                                    .assoc = g->prm.l1d.assoc,
                                    .line_bytes = g->prm.l1d.line_bytes};

    if (g->prm.warp_profile && *g->prm.warp_profile) {
        g->warp_profile = fopen(g->prm.warp_profile, "w");
        if (!g->warp_profile || fputs("grid,cta,warp,sm,start,end\n", g->warp_profile) < 0)
            return ps_err_set(err, PS_EIO, "cannot write the warp profile %s", g->prm.warp_profile);
    }
    if (!path || !*path)
        return 0;
    memcpy(h.magic, TM_L1D_TRACE_MAGIC, sizeof(h.magic));
    g->l1d_trace = fopen(path, "wb");
    if (!g->l1d_trace || fwrite(&h, sizeof(h), 1, g->l1d_trace) != 1)
        return ps_err_set(err, PS_EIO, "cannot write the L1D trace %s", path);
    return 0;
}

/* Each clock domain's period in femtoseconds (machine_build reads them). */
static void set_periods(struct tm_gpu *g)
{
    for (int d = 0; d < D_COUNT; d++)
        g->period_fs[d] = (uint64_t)(1e9 / g->prm.clk[d] + 0.5);
}

int tm_gpu_create(const struct ps_config *cfg, struct isa_device *dev, struct tm_gpu **out,
                  struct ps_err *err)
{
    struct tm_gpu *g = calloc(1, sizeof(*g));
    int rc;

    *out = NULL;
    if (!g)
        return ps_err_set(err, PS_ENOMEM, "out of memory");
    g->dev = dev;
    if ((rc = ps_config_copy(&g->cfg, cfg)) ||
        (rc = tm_params_from_config(&g->cfg, &g->prm, err))) {
        tm_gpu_destroy(g);
        return rc;
    }
    set_periods(g);
    for (int d = 0; d < D_COUNT; d++)
        g->t_fs[d] = g->period_fs[d];
    if ((rc = find_policies(g, err)) || (rc = open_l1d_trace(g, err)) ||
        (rc = machine_build(g, err))) {
        tm_gpu_destroy(g);
        return rc;
    }
    if (g->prm.line_stats && !(g->lines = tm_lines_create())) {
        tm_gpu_destroy(g);
        return ps_err_set(err, PS_ENOMEM, "out of memory");
    }
    if ((rc = tm_kernels_init(g, err))) {
        tm_gpu_destroy(g);
        return rc;
    }
    *out = g;
    return 0;
}

int tm_gpu_check(const struct ps_config *cfg, struct ps_err *err)
{
    struct tm_gpu *g = calloc(1, sizeof(*g));
    int rc;

    if (!g)
        return ps_err_set(err, PS_ENOMEM, "out of memory");
    g->check_only = true;
    if (!(rc = ps_config_copy(&g->cfg, cfg)) &&
        !(rc = tm_params_from_config(&g->cfg, &g->prm, err)) &&
        !(rc = tm_params_check_outputs(&g->prm, err)) && !(rc = find_policies(g, err))) {
        set_periods(g);
        rc = machine_build(g, err);
    }
    tm_gpu_destroy(g);
    return rc;
}

/* The policies' state over time, to <prefix>.cta.csv, <prefix>.l1d.csv and <prefix>.warp.csv. */
static int write_cta_trace(const struct tm_gpu *g, FILE *f, struct ps_err *err)
{
    return g->cs->dump(g->cs_st, f, err);
}

static int write_l1d_trace(const struct tm_gpu *g, FILE *f, struct ps_err *err)
{
    for (uint32_t i = 0; i < g->prm.nsm; i++) {
        int rc;

        fprintf(f, "# sm %u\n", i);
        if ((rc = mem_cache_policy_dump(tm_sm_l1d(g->sm[i]), f, err)))
            return rc;
    }
    return 0;
}

static int write_warp_trace(const struct tm_gpu *g, FILE *f, struct ps_err *err)
{
    for (uint32_t i = 0; i < g->prm.nsm; i++) {
        int rc;

        if ((rc = tm_sm_dump_sched(g->sm[i], f, err)))
            return rc;
    }
    return 0;
}

/* Writes <prefix><suffix> with write(); a failure is reported on stderr and loses nothing else. */
static void write_trace_file(const struct tm_gpu *g, const char *suffix,
                             int (*write)(const struct tm_gpu *, FILE *, struct ps_err *))
{
    char path[4096];
    struct ps_err err;
    FILE *f;

    ps_err_clear(&err);
    snprintf(path, sizeof(path), "%s%s", g->prm.policy_trace, suffix);
    if (!(f = fopen(path, "w")) || write(g, f, &err))
        fprintf(stderr, "ptxsim: cannot write %s%s%s\n", path, err.msg[0] ? ": " : "", err.msg);
    if (f)
        fclose(f);
}

static void write_policy_traces(const struct tm_gpu *g)
{
    if (!g->prm.policy_trace || !*g->prm.policy_trace)
        return;
    if (g->cs->dump)
        write_trace_file(g, ".cta.csv", write_cta_trace);
    if (g->l1p && g->l1p->dump && g->sm)
        write_trace_file(g, ".l1d.csv", write_l1d_trace);
    if (g->ws->dump && g->sm)
        write_trace_file(g, ".warp.csv", write_warp_trace);
}

void tm_gpu_host_copy(struct tm_gpu *g, uint64_t addr, uint64_t bytes)
{
    if (g->prm.perf_sim_memcpy && bytes) {
        tm_par_settle_side(&g->par); /* (the loop settles when it returns: no tick waits) */
        mem_system_warm_l2(g->ms, addr, bytes);
    }
}

void tm_gpu_destroy(struct tm_gpu *g)
{
    if (!g)
        return;
    if (g->ws && g->cs && !g->check_only)
        write_policy_traces(g);
    machine_free(g);
    if (g->l1d_trace && fclose(g->l1d_trace))
        fprintf(stderr, "ptxsim: cannot write the L1D trace %s\n", g->prm.l1d_trace);
    if (g->warp_profile && fclose(g->warp_profile))
        fprintf(stderr, "ptxsim: cannot write the warp profile %s\n", g->prm.warp_profile);
    if (g->cs && g->cs_st)
        pol_cta_sched_destroy(g->cs, g->cs_st);
    tm_lines_destroy(g->lines);
    tm_kernels_fini(g);
    tm_par_fini(&g->par);
    ps_config_free(&g->cfg);
    free(g);
}

static void sample(struct tm_gpu *g)
{
    if (!g->cs->on_sample || g->core_now < g->sample_next)
        return;
    g->sample_next = g->core_now + g->prm.sample_period;
    tm_par_settle(&g->par, g->sm, g->prm.nsm);
    for (uint32_t i = 0; i < g->prm.nsm; i++) {
        const struct tm_sm_counters *k = tm_sm_get_counters(g->sm[i]);
        struct tm_sm_counters *b = &g->sample_base[i];
        uint32_t max = g->bound[i] ? g->bound[i]->occ.max : 0;
        struct pol_sm_sample s = {k->cycles - b->cycles, k->c_idle - b->c_idle, k->c_mem - b->c_mem,
                                  k->issued - b->issued, tm_sm_ctas(g->sm[i]),  max};

        g->cs->on_sample(g->cs_st, i, &s, g->core_now);
        *b = *k;
    }
    tm_gpu_issue_changed(g); /* the CTA limits may have moved */
}

static uint64_t ctas_done(const struct tm_gpu *g)
{
    uint64_t n = 0;

    for (uint32_t i = 0; i < g->prm.nsm; i++)
        n += tm_sm_get_counters(g->sm[i])->ctas_done;
    return n;
}

/*
 * The progress line: CTAs finished (not merely issued) and an estimate of
 * the wall-clock time left, from the rate at which they have finished.
 */
static void progress(struct tm_gpu *g, struct tm_kernel *r)
{
    double t, el;
    uint64_t done;
    char eta[48] = "ETA unknown";

    if (!g->prm.progress_interval || (g->core_now & 4095))
        return;
    t = now_s();
    if (t - r->last_progress < g->prm.progress_interval)
        return;
    r->last_progress = t;
    el = t - r->t0;
    done = ctas_done(g) - r->ctas_done0;
    if (done)
        snprintf(eta, sizeof(eta), "ETA %.0f s", el * (double)(r->nctas - done) / (double)done);
    fprintf(stderr,
            "ptxsim: %s: cycle %llu, %llu warp insts, %.0f sim cycles/s, CTAs done %llu/%llu "
            "(%.0f%%, %llu issued), %s\n",
            g->dev ? r->L.p->m->funcs[r->L.kernel]->name : "?", (unsigned long long)g->core_now,
            (unsigned long long)r->L.warp_insts, (double)g->core_now / (el + 1e-9),
            (unsigned long long)done, (unsigned long long)r->nctas,
            100.0 * (double)done / (double)r->nctas, (unsigned long long)r->next_cta, eta);
}

/* A kernel in flight ran past the per-launch warp-instruction budget. */
static bool over_budget(const struct tm_gpu *g)
{
    for (uint32_t i = 0; i < g->nslots; i++)
        if (g->slot[i] && g->slot[i]->L.warp_insts > isa_device_config(g->dev)->insn_budget)
            return true;
    return false;
}

/* Stops the launches that cannot progress or ran past a configured cap. */
static int watchdog(struct tm_gpu *g, struct tm_kernel *r)
{
    uint64_t issued = 0;
    const struct tm_params *p = &g->prm;

    if (p->max_insn && g->thread_insts + tm_kernels_thread_insts(g) >= p->max_insn)
        return ps_err_set(r->L.err, PS_ERUNAWAY,
                          "stopped at -gpgpu_max_insn %llu thread instructions",
                          (unsigned long long)p->max_insn);
    if (g->dev && !(g->core_now & 1023) && isa_device_abandoned(g->dev))
        return ps_err_set(r->L.err, PS_EABANDONED, "launch abandoned: the process is exiting");
    if (p->max_cycle && g->core_now >= p->max_cycle)
        return ps_err_set(r->L.err, PS_ERUNAWAY, "stopped at -gpgpu_max_cycle %llu cycles",
                          (unsigned long long)p->max_cycle);
    if (g->dev && isa_device_config(g->dev)->stop && *isa_device_config(g->dev)->stop)
        return ps_err_set(r->L.err, PS_ERUNAWAY, "stopped by signal %d",
                          *isa_device_config(g->dev)->stop);
    if (g->dev && isa_device_config(g->dev)->insn_budget && over_budget(g)) {
        tm_par_settle(&g->par, g->sm, p->nsm);
        for (uint32_t i = 0; i < p->nsm; i++) {
            struct isa_warp *w = tm_sm_barrier_warp(g->sm[i]);

            if (w)
                return isa_fault(w, 0, PS_ERUNAWAY, 0,
                                 "runaway kernel: more than %llu warp instructions" ISA_BUDGET_HINT,
                                 (unsigned long long)isa_device_config(g->dev)->insn_budget);
        }
    }
    if (!p->deadlock_detect || (g->core_now & 1023))
        return 0;
    tm_par_settle_side(&g->par);
    for (uint32_t i = 0; i < p->nsm; i++)
        issued += tm_sm_issued(g->sm[i]);
    if (issued != g->last_issued || mem_system_busy(g->ms)) {
        g->last_issued = issued;
        g->last_issue_cycle = g->core_now;
        return 0;
    }
    if (g->core_now - g->last_issue_cycle < DEADLOCK_CYCLES)
        return 0;
    tm_par_settle(&g->par, g->sm, p->nsm);
    for (uint32_t i = 0; i < p->nsm; i++) {
        struct isa_warp *w = tm_sm_barrier_warp(g->sm[i]);

        if (w)
            return isa_fault(w, w->live ? (uint32_t)__builtin_ctz(w->live) : 0, PS_EDEADLOCK, 0,
                             "deadlock: no instruction issued for %u cycles; warp %u waits at "
                             "barrier %u",
                             DEADLOCK_CYCLES, w->id, w->bar_id);
    }
    return ps_err_set(r->L.err, PS_EDEADLOCK, "deadlock: no instruction issued for %u cycles",
                      DEADLOCK_CYCLES);
}

static int core_cycle(struct tm_gpu *g)
{
    struct tm_kernel *r;
    int rc;

    g->core_now++;
    mem_system_core_edge(g->ms, g->core_now);
    tm_kernels_issue(g);
    if ((rc = tm_par_cycle(&g->par, g->sm, g->prm.nsm, g->core_now)))
        return rc;
    sample(g);
    if (!(r = tm_kernels_any(g)))
        return 0;
    progress(g, r);
    return watchdog(g, r);
}

/*
 * Runs the reply network, L2 and DRAM ticks the loop passed (tm_par_defer: a
 * task beside the SMs).
 */
static void run_mem_ticks(void *ctx, bool beside)
{
    struct tm_gpu *g = ctx;

    /* beside the SMs' next cycle, the reply network counts the pops of the cycle before it */
    mem_system_set_concurrent(g->ms, beside);
    for (uint32_t i = 0; i < g->nmem_ticks; i++) {
        if (g->mem_ticks[i] == D_ICNT) {
            mem_system_reply_cycle(g->ms);
        } else if (g->mem_ticks[i] == D_L2) {
            mem_system_l2_cycle(g->ms);
        } else {
            g->dram_now++;
            mem_system_dram_cycle(g->ms);
        }
    }
    g->nmem_ticks = 0;
    mem_system_set_concurrent(g->ms, false);
}

/*
 * An L2 or DRAM tick waits for the next core cycle's parallel round, where
 * it runs beside the SMs: the L2 slices and DRAM channels touch only their
 * own queues, the interconnect's inputs they push replies into and outputs
 * they pop requests from, none of which an SM's cycle reads or writes (an
 * SM pops its own reply port and checks its own request input). So does
 * the staged reply network's tick (mem_system_stage_replies): it moves
 * packets from the L2s' queues to stages the SMs drain a core cycle later,
 * and its latency keeps them from being due before. Whatever reads the
 * memory system first (the request network's tick, kernel reaping, the
 * watchdog, statistics) settles them, so every result is that of running
 * them at their edge.
 */
static void mem_tick(struct tm_gpu *g, uint8_t d)
{
    if (g->nmem_ticks == sizeof(g->mem_ticks)) {
        tm_par_settle_side(&g->par); /* runs them: run_mem_ticks empties the list */
        assert(!g->nmem_ticks);      /* (what the compiler cannot see through the pointer) */
    }
    g->mem_ticks[g->nmem_ticks++] = d;
    if (g->nmem_ticks == 1)
        tm_par_defer(&g->par, run_mem_ticks, g);
}

/* The clocked loop; the SMs and the memory system are settled when it returns. */
static int run_loop(struct tm_gpu *g, struct tm_kernel *k)
{
    int rc;

    while (!tm_kernels_reap(g, k)) {
        uint64_t t = g->t_fs[0];

        for (int d = 1; d < D_COUNT; d++)
            if (g->t_fs[d] < t)
                t = g->t_fs[d];
        if (g->t_fs[D_CORE] == t && (rc = core_cycle(g)))
            return rc;
        if (g->t_fs[D_ICNT] == t) {
            tm_par_settle_side(&g->par);
            if (g->replies_staged) {
                mem_system_req_cycle(g->ms);
                mem_system_reply_advance(g->ms);
                mem_tick(g, D_ICNT);
            } else {
                mem_system_icnt_cycle(g->ms);
            }
        }
        if (g->t_fs[D_L2] == t)
            mem_tick(g, D_L2);
        if (g->t_fs[D_DRAM] == t)
            mem_tick(g, D_DRAM);
        for (int d = 0; d < D_COUNT; d++)
            if (g->t_fs[d] == t)
                g->t_fs[d] += g->period_fs[d];
    }
    return 0;
}

int tm_gpu_run_loop(struct tm_gpu *g, struct tm_kernel *k)
{
    int rc = run_loop(g, k);

    tm_par_settle(&g->par, g->sm, g->prm.nsm);
    return rc;
}

/* After a fault the SMs hold half-run CTAs and the memory system in-flight requests: rebuild. */
void tm_gpu_rebuild_after_fault(struct tm_gpu *g)
{
    struct tm_counters c;
    struct ps_err e;

    tm_gpu_gather(g, &c);
    g->retired = c;
    machine_free(g);
    ps_err_clear(&e);
    machine_build(g, &e);
}
