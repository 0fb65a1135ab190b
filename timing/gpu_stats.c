/*
 * The GPU's statistics and its occupancy arithmetic: counters gathered from
 * the SMs, caches and memory system, one kernel's figures at its end, the
 * per-PTX-line file, and how many CTAs of a kernel fit on an SM. Nothing here
 * runs the machine, so the kernel table (kernels.c) and the clocked loop
 * (gpu.c) may both call it without a circle.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/counters.h"
#include "isa/resources.h"
#include "timing/gpu_impl.h"
#include "timing/line_stats.h"
#include "timing/sm.h"

/* ------------------------------------------------------------ statistics */

static void add_cache(struct mem_cache_stats *acc, const struct mem_cache *c)
{
    ps_counters_add(acc, mem_cache_get_stats(c), PS_NCOUNTERS(*acc));
}

void tm_gpu_gather(const struct tm_gpu *g, struct tm_counters *c)
{
    uint64_t lat_max = 0;

    assert(!g->nmem_ticks); /* the memory system is settled (tm_par_settle_side) */
    memset(c, 0, sizeof(*c));
    c->cycles = g->core_now;
    c->dram_cycles = g->dram_now;
    c->warp_insts = g->warp_insts;
    c->thread_insts = g->thread_insts;
    c->ctas = g->ctas;
    c->kernels = g->kernels;
    for (uint32_t i = 0; g->sm && i < g->prm.nsm; i++) {
        const struct tm_sm_counters *k = tm_sm_get_counters(g->sm[i]);

        ps_counters_add(&c->sm, k, PS_NCOUNTERS(c->sm));
        lat_max = k->lat_max > lat_max ? k->lat_max : lat_max;
        add_cache(&c->l1d, tm_sm_l1d(g->sm[i]));
        add_cache(&c->l1i, tm_sm_l1i(g->sm[i]));
        add_cache(&c->l1c, tm_sm_l1c(g->sm[i]));
        add_cache(&c->l1t, tm_sm_l1t(g->sm[i]));
    }
    c->sm.lat_max = lat_max; /* the maximum is not a sum */
    if (g->ms)
        mem_system_get_stats(g->ms, &c->mem);
    /* Machines rebuilt after a fault still count. */
    {
        struct tm_counters r = g->retired;

        r.cycles = r.dram_cycles = r.warp_insts = r.thread_insts = r.ctas = r.kernels = 0;
        r.sm.lat_max = 0;
        tm_counters_add(c, &r);
    }
}

static void per_sm_ratios(const struct tm_gpu *g, const struct tm_sm_counters *before, double *ract,
                          double *util)
{
    double sa = 0, su = 0;

    for (uint32_t i = 0; i < g->prm.nsm; i++) {
        const struct tm_sm_counters *k = tm_sm_get_counters(g->sm[i]);
        const struct tm_sm_counters *b = &before[i];
        uint64_t act = k->n_act - b->n_act, inact = k->n_inact - b->n_inact;
        uint64_t cyc = k->cycles - b->cycles;

        sa += act + inact ? (double)act / (double)(act + inact) : 0;
        su += cyc ? (double)(k->busy_cycles - b->busy_cycles) / (double)cyc : 0;
    }
    *ract = sa / g->prm.nsm;
    *util = su / g->prm.nsm;
}

/* ------------------------------------------------------------- occupancy */

int tm_gpu_occupancy(const struct tm_gpu *g, const struct isa_launch *L, struct occ *o,
                     struct ps_err *err)
{
    const struct tm_params *p = &g->prm;
    const struct isa_program *prog = L->p;
    struct isa_resources r;
    uint32_t threads = L->block[0] * L->block[1] * L->block[2], per_thread, lim;

    if (isa_resources_of(prog->m, L->kernel, &r))
        return ps_err_set(err, PS_ENOMEM, "out of memory");
    if (prog->ki[L->kernel].regs_hw) {
        /*
         * ptxas's count from the embedded cubin, rounded up to GPGPU-Sim's
         * allocation unit of 4 registers and not capped: what GPGPU-Sim
         * sizes a CTA with.
         */
        per_thread = (prog->ki[L->kernel].regs_hw + 3) & ~UINT32_C(3);
        o->regs_per_thread_est = prog->ki[L->kernel].regs_hw;
        o->regs_sm = prog->ki[L->kernel].regs_hw_sm;
    } else {
        /* Peak live registers (ptxas-like), or the declared count if the analysis failed. */
        per_thread = isa_kernel_regs(L->p, L->kernel);
        if (per_thread == UINT32_MAX)
            per_thread = r.regs32;
        o->regs_per_thread_est = per_thread;
        o->regs_sm = 0;
        per_thread = per_thread < p->max_regs_per_thread ? per_thread : p->max_regs_per_thread;
    }
    o->warps = (threads + ISA_WARP_SIZE - 1) / ISA_WARP_SIZE;
    /*
     * PTX declares virtual registers; ptxas fits a kernel into what one CTA
     * may use (spilling if it must), so the estimate is capped to let one
     * CTA fit.
     */
    lim = p->regs / (o->warps * ISA_WARP_SIZE);
    if (per_thread > lim)
        per_thread = lim;
    if (!per_thread)
        per_thread = 1;
    o->regs_per_thread = per_thread;
    o->regs = per_thread * o->warps * ISA_WARP_SIZE;
    o->shared = prog->ki[L->kernel].dyn_off + L->dyn_shared;
    o->max = p->max_ctas;
    o->limiter = "cta_slots";
    lim = p->max_warps / o->warps;
    if (lim < o->max) {
        o->max = lim;
        o->limiter = "threads";
    }
    lim = o->regs ? p->regs / o->regs : o->max;
    if (lim < o->max) {
        o->max = lim;
        o->limiter = "registers";
    }
    lim = o->shared ? p->shmem / o->shared : o->max;
    if (lim < o->max) {
        o->max = lim;
        o->limiter = "shared_memory";
    }
    if (!o->max)
        return ps_err_set(err, PS_EINVAL,
                          "kernel '%s' does not fit on an SM: %u warps, %u registers, %u bytes of "
                          "shared memory per CTA (SM: %u warps, %u registers, %u bytes)",
                          prog->m->funcs[L->kernel]->name, o->warps, o->regs, o->shared,
                          p->max_warps, p->regs, p->shmem);
    return 0;
}

void tm_gpu_fill_stats(struct tm_gpu *g, const struct tm_kernel *r, struct tm_stats *s, double wall)
{
    const struct isa_launch *L = &r->L;
    struct tm_counters now;

    tm_gpu_gather(g, &now);
    memset(s, 0, sizeof(*s));
    snprintf(s->kernel, sizeof(s->kernel), "%s", L->p->m->funcs[L->kernel]->name);
    memcpy(s->grid, L->grid, sizeof(s->grid));
    memcpy(s->block, L->block, sizeof(s->block));
    s->nsm = g->prm.nsm;
    s->max_warps = g->prm.max_warps;
    s->max_ctas_per_sm = r->occ.max;
    s->occ_limiter = r->occ.limiter;
    s->l1d_policy = g->l1p->name;
    s->l1d_counter_names = g->l1p->counter_names;
    s->regs_per_thread = r->occ.regs_per_thread;
    s->regs_sm = r->occ.regs_sm;
    s->core_mhz = g->prm.clk[D_CORE];
    s->dram_mhz = g->prm.clk[D_DRAM];
    s->dram_peak_bytes_per_cycle = (double)g->prm.nmem * g->prm.dram.chips * g->prm.dram.bus_width *
                                   g->prm.dram.data_cmd_ratio;
    s->wall_s = wall;
    tm_counters_sub(&s->c, &now, &r->before);
    s->c.sm.lat_max = now.sm.lat_max;
    /* Its own work, also while other kernels ran alongside (timing/kernels.c). */
    s->c.warp_insts = L->warp_insts;
    s->c.thread_insts = L->thread_insts;
    s->c.ctas = r->next_cta;
    s->c.kernels = 1;
    s->start_cycle = r->start_cycle;
    s->end_cycle = g->core_now;
    s->overlapped = r->max_others;
    per_sm_ratios(g, r->base, &s->ract, &s->util);
    g->total.c = now;
    snprintf(g->total.kernel, sizeof(g->total.kernel), "(all kernels)");
    g->total.nsm = s->nsm;
    g->total.max_warps = s->max_warps;
    g->total.core_mhz = s->core_mhz;
    g->total.dram_mhz = s->dram_mhz;
    g->total.dram_peak_bytes_per_cycle = s->dram_peak_bytes_per_cycle;
    g->total.wall_s += wall;
    g->total.max_ctas_per_sm = s->max_ctas_per_sm;
    g->total.occ_limiter = s->occ_limiter;
    g->total.l1d_policy = s->l1d_policy;
    g->total.l1d_counter_names = s->l1d_counter_names;
}

/* Per-PTX-line statistics: the SMs count into program p's table while they run its kernel. */
struct tm_line_prog *tm_gpu_lines_of(struct tm_gpu *g, const struct isa_program *p)
{
    return g->lines ? tm_lines_program(g->lines, p) : NULL;
}

/* After every launch the file is written again, as GPGPU-Sim does, so it survives a crash. */
void tm_gpu_lines_write(struct tm_gpu *g)
{
    struct ps_err err;

    if (!g->lines)
        return;
    ps_err_clear(&err);
    if (tm_lines_write(g->lines, g->prm.line_stats, &err))
        fprintf(stderr, "ptxsim: per-PTX-line statistics: %s\n", err.msg);
}

const struct tm_stats *tm_gpu_last(const struct tm_gpu *g)
{
    return &g->last;
}

const struct tm_stats *tm_gpu_total(const struct tm_gpu *g)
{
    return &g->total;
}

double tm_gpu_time_ns(const struct tm_gpu *g)
{
    return (double)g->core_now * 1000.0 / g->prm.clk[D_CORE];
}

const struct ps_config *tm_gpu_config(const struct tm_gpu *g)
{
    return &g->cfg;
}
