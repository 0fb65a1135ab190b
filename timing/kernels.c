/*
 * Kernels in flight: up to -gpgpu_max_concurrent_kernel launches share the
 * GPU, as GPGPU-Sim 4.2 runs them on Fermi.
 *
 * - CTA issue (GPGPU-Sim's select_kernel): an SM keeps issuing CTAs of the
 *   kernel it is bound to. Once that kernel has no CTAs left to issue and the
 *   SM has drained (no CTA resident, nothing in flight), the SM takes the
 *   kernel issued last if it still has CTAs, else the next kernel in slot
 *   order (round robin from the last one) that has CTAs and whose launch
 *   latency has passed. An SM runs CTAs of one kernel at a time
 *   (-gpgpu_concurrent_kernel_sm 0; 1 is refused by timing/params.c).
 * - A kernel submitted to an empty GPU binds every SM and the clock jumps
 *   over its launch latency, exactly as a lone launch always did; one
 *   submitted while others run waits out its latency in simulated cycles.
 * - A kernel is done when all its CTAs were issued and the SMs bound to it
 *   are idle (and, if it is the last kernel in flight, the memory system has
 *   drained). Its SMs then end the kernel (L1 flush) and are free for others.
 * - Statistics per kernel: its own instructions and CTAs; the other counters
 *   are the GPU's over its lifetime (submission to completion), so while
 *   kernels overlap the shared ones (caches, DRAM, cycles) count in each.
 *   start_cycle, end_cycle and overlapped show the overlap.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "timing/gpu_impl.h"
#include "timing/line_stats.h"

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int tm_kernels_init(struct tm_gpu *g, struct ps_err *err)
{
    g->nslots = g->prm.max_kernels ? g->prm.max_kernels : 1;
    g->slot = calloc(g->nslots, sizeof(*g->slot));
    g->bound = calloc(g->prm.nsm, sizeof(*g->bound));
    g->sample_base = calloc(g->prm.nsm, sizeof(*g->sample_base));
    g->full = calloc(g->prm.nsm, sizeof(*g->full));
    g->freed = calloc(g->prm.nsm, sizeof(*g->freed));
    if (!g->slot || !g->bound || !g->sample_base || !g->full || !g->freed)
        return ps_err_set(err, PS_ENOMEM, "out of memory");
    tm_kernels_attach(g);
    return 0;
}

void tm_kernels_attach(struct tm_gpu *g)
{
    for (uint32_t i = 0; g->sm && g->full && i < g->prm.nsm; i++) {
        g->full[i].k = NULL;
        tm_sm_note_freed(g->sm[i], &g->freed[i]);
    }
    tm_gpu_issue_changed(g); /* new SMs (a machine rebuilt after a fault) */
}

void tm_kernels_fini(struct tm_gpu *g)
{
    free(g->slot);
    free(g->bound);
    free(g->sample_base);
    free(g->full);
    free(g->freed);
    g->slot = NULL;
    g->bound = NULL;
    g->sample_base = NULL;
    g->full = NULL;
    g->freed = NULL;
}

uint32_t tm_gpu_in_flight(const struct tm_gpu *g)
{
    uint32_t n = 0;

    for (uint32_t i = 0; i < g->nslots; i++)
        n += g->slot[i] != NULL;
    return n;
}

uint32_t tm_gpu_free_slots(const struct tm_gpu *g)
{
    return g->nslots - tm_gpu_in_flight(g);
}

struct tm_kernel *tm_kernels_any(const struct tm_gpu *g)
{
    struct tm_kernel *best = NULL;

    for (uint32_t i = 0; i < g->nslots; i++)
        if (g->slot[i] && (!best || g->slot[i]->id < best->id))
            best = g->slot[i];
    return best;
}

uint64_t tm_kernels_thread_insts(const struct tm_gpu *g)
{
    uint64_t n = 0;

    for (uint32_t i = 0; i < g->nslots; i++)
        if (g->slot[i])
            n += g->slot[i]->L.thread_insts;
    return n;
}

static void bind(struct tm_gpu *g, uint32_t i, struct tm_kernel *k)
{
    g->bound[i] = k;
    g->full[i].k = NULL;
    tm_gpu_issue_changed(g);
    tm_sm_set_lines(g->sm[i], k->lp);
    tm_sm_kernel_begin(g->sm[i], &k->L, &k->it, k->occ.max);
}

static void unbind(struct tm_gpu *g, uint32_t i)
{
    g->full[i].k = NULL;
    tm_gpu_issue_changed(g);
    tm_sm_kernel_end(g->sm[i]);
    tm_sm_set_lines(g->sm[i], NULL);
    g->bound[i] = NULL;
}

static bool can_issue(const struct tm_gpu *g, const struct tm_kernel *k)
{
    return k && !k->done && k->next_cta < k->issue_end && g->core_now >= k->ready_at;
}

/* GPGPU-Sim's select_kernel: the kernel issued last while it has CTAs, else round robin. */
static struct tm_kernel *select_kernel(struct tm_gpu *g)
{
    if (can_issue(g, g->slot[g->last_slot]))
        return g->slot[g->last_slot];
    for (uint32_t n = 0; n < g->nslots; n++) {
        uint32_t idx = (n + g->last_slot + 1) % g->nslots;

        if (can_issue(g, g->slot[idx])) {
            g->last_slot = idx;
            return g->slot[idx];
        }
    }
    return NULL;
}

/* The kernel SM i issues from this cycle, rebinding a drained SM; NULL if none. */
static struct tm_kernel *kernel_for(struct tm_gpu *g, uint32_t i)
{
    struct tm_kernel *k = g->bound[i], *n;

    if (k && k->next_cta < k->issue_end)
        return g->core_now >= k->ready_at ? k : NULL;
    if (k && (tm_sm_ctas(g->sm[i]) || !tm_sm_idle(g->sm[i])))
        return NULL; /* wait until its CTAs of the old kernel have drained */
    if (!(n = select_kernel(g)))
        return NULL;
    if (n != k) {
        tm_sm_settle(g->sm[i]);
        if (k)
            unbind(g, i);
        bind(g, i, n);
    }
    return n;
}

/* Some kernel in flight may issue a CTA now; if none can, no SM gets one or changes binding. */
static bool any_can_issue(const struct tm_gpu *g)
{
    for (uint32_t i = 0; i < g->nslots; i++)
        if (can_issue(g, g->slot[i]))
            return true;
    return false;
}

/*
 * One cycle of CTA issue, GPGPU-Sim's issue_block2core: the SMs from g->rr on, at
 * most one CTA each, and the next scan starts after the last SM that took one.
 */
void tm_kernels_issue(struct tm_gpu *g)
{
    uint32_t nsm = g->prm.nsm;
    uint64_t freed = 0;
    uint32_t next = g->rr; /* after the last SM that took a CTA */
    bool still = true;

    if (g->sampling) {
        tm_par_settle(&g->par, g->sm, nsm);
        tm_sample_step(g, tm_gpu_in_flight(g) == 1 ? tm_kernels_any(g) : NULL);
    }
    if (!any_can_issue(g))
        return;
    /* not while a kernel is sampled: tm_sample_step, above, may change what the scan reads */
    if (!g->sampling) {
        for (uint32_t i = 0; i < nsm; i++)
            freed += g->freed[i];
        if (g->issue_still.ok && g->issue_still.gen == g->issue_gen &&
            g->issue_still.freed == freed)
            return; /* every SM still full: the scan would find so again */
    }
    for (uint32_t j = 0; j < nsm; j++) {
        uint32_t i = g->rr + j < nsm ? g->rr + j : g->rr + j - nsm; /* rr < nsm */
        struct tm_sm *s = g->sm[i];
        struct tm_kernel *k = kernel_for(g, i);
        struct sm_full *f = &g->full[i];
        uint32_t lim;

        if (!k) {
            still = false;
            continue;
        }
        lim = g->cs->limit(g->cs_st, i);
        if (lim > k->occ.max)
            lim = k->occ.max;
        if (f->k == k && f->lim == lim && f->freed == g->freed[i])
            continue; /* still full: no warp slot freed, the same kernel and limit */
        still = false;
        if (tm_sm_ctas(s) >= lim || !tm_sm_fits(s, k->occ.warps, k->occ.regs, k->occ.shared)) {
            *f = (struct sm_full){k, lim, g->freed[i]};
            continue;
        }
        f->k = NULL;
        tm_sm_settle(s);
        if (tm_sm_launch_cta(s, k->next_cta, k->occ.regs, &g->warp_seq))
            continue;
        k->next_cta++;
        g->ctas++;
        next = i + 1 < nsm ? i + 1 : 0;
    }
    g->issue_still.ok = still && !g->sampling;
    g->issue_still.gen = g->issue_gen;
    g->issue_still.freed = freed;
    g->rr = next;
}

/*
 * Where the busy time k's completion adds begins: the last completion, or
 * the earliest start among the kernels in flight if the GPU idled since.
 */
static uint64_t busy_from(const struct tm_gpu *g, const struct tm_kernel *k)
{
    uint64_t first = k->start_cycle;

    for (uint32_t i = 0; i < g->nslots; i++)
        if (g->slot[i] && g->slot[i]->start_cycle < first)
            first = g->slot[i]->start_cycle;
    if (g->busy_mark > g->core_now) /* a machine rebuilt after a fault keeps its clock */
        return first;
    return first > g->busy_mark ? first : g->busy_mark;
}

/* Ends k on its SMs and takes its statistics; it leaves its slot. */
void tm_kernels_retire(struct tm_gpu *g, struct tm_kernel *k, int rc)
{
    tm_sample_release(g, k);
    k->rc = rc;
    k->done = true;
    g->warp_insts += k->L.warp_insts;
    g->thread_insts += k->L.thread_insts;
    g->kernels++;
    for (uint32_t i = 0; i < g->prm.nsm; i++)
        if (g->bound[i] == k)
            unbind(g, i);
    tm_gpu_lines_write(g);
    tm_gpu_fill_stats(g, k, &k->stats, now_s() - k->t0);
    k->stats.gpu_cycles = g->core_now - busy_from(g, k);
    k->stats.sampled = k->smp.rep;
    g->busy_mark = g->core_now;
    g->last = k->stats;
    for (uint32_t i = 0; i < g->nslots; i++)
        if (g->slot[i] == k)
            g->slot[i] = NULL;
}

static bool finished(struct tm_gpu *g, const struct tm_kernel *k)
{
    if (k->next_cta < k->issue_end)
        return false;
    for (uint32_t i = 0; i < g->prm.nsm; i++)
        if (g->bound[i] == k && !tm_sm_idle(g->sm[i]))
            return false;
    if (tm_gpu_in_flight(g) > 1)
        return true;
    tm_par_settle_side(&g->par); /* the L2 and DRAM ticks the loop passed (gpu.c) */
    return !mem_system_busy(g->ms);
}

bool tm_kernels_reap(struct tm_gpu *g, struct tm_kernel *k)
{
    bool any = false;

    for (uint32_t i = 0; i < g->nslots; i++) {
        struct tm_kernel *r = g->slot[i];

        if (r && finished(g, r)) {
            tm_par_settle(&g->par, g->sm, g->prm.nsm);
            tm_kernels_retire(g, r, tm_sample_finish(g, r));
            any = true;
        }
    }
    return k ? k->done : any || !tm_gpu_in_flight(g);
}

static void kernel_free_parts(struct tm_kernel *k)
{
    tm_itable_fini(&k->it);
    free(k->smp.snap);
    k->smp.snap = NULL;
    free(k->base);
    if (k->L_ok)
        isa_launch_fini(&k->L);
    k->L_ok = false;
    k->base = NULL;
}

void tm_kernel_free(struct tm_kernel *k)
{
    if (!k)
        return;
    kernel_free_parts(k);
    free(k);
}

/* Sets up k's launch, occupancy and snapshots; nothing is in the GPU yet. */
static int prepare(struct tm_gpu *g, struct tm_kernel *k, struct isa_program *p,
                   const struct isa_launch_desc *ld, bool empty)
{
    int rc;

    if ((rc = isa_launch_init(&k->L, p, ld, &k->err)))
        return rc;
    k->L_ok = true;
    k->nctas = (uint64_t)k->L.grid[0] * k->L.grid[1] * k->L.grid[2];
    k->issue_end = k->nctas;
    k->t0 = k->last_progress = now_s();
    k->ctas_done0 = 0;
    for (uint32_t i = 0; i < g->prm.nsm; i++)
        k->ctas_done0 += tm_sm_get_counters(g->sm[i])->ctas_done;
    if (empty)
        g->sample_next = g->core_now + g->prm.sample_period;
    if (!(k->base = calloc(g->prm.nsm, sizeof(*k->base))))
        return ps_err_set(&k->err, PS_ENOMEM, "out of memory");
    if ((rc = tm_gpu_occupancy(g, &k->L, &k->occ, &k->err)) ||
        (rc = tm_itable_init(&k->it, p, &g->prm)) ||
        (rc = tm_par_launch(&g->par, g->sm, g->prm.nsm, &k->it, g->prm.threads,
                            !g->l1_shared && !g->l1d_trace && !g->warp_profile && !g->lines)) ||
        (rc = tm_sample_arm(g, k)))
        return rc;
    for (uint32_t i = 0; i < g->prm.nsm; i++) {
        k->base[i] = *tm_sm_get_counters(g->sm[i]);
        if (empty)
            g->sample_base[i] = k->base[i];
    }
    if (g->lines && !(k->lp = tm_gpu_lines_of(g, p)))
        fprintf(stderr, "ptxsim: out of memory for the per-PTX-line statistics; this kernel "
                        "is left out\n");
    return 0;
}

int tm_gpu_submit(struct tm_gpu *g, struct isa_program *p, const struct isa_launch_desc *ld,
                  struct tm_kernel **out, struct ps_err *err)
{
    struct tm_kernel *k;
    bool empty = !tm_gpu_in_flight(g);
    uint32_t free_slot = UINT32_MAX;
    int rc;

    *out = NULL;
    ps_err_clear(err);
    if (!g->sm)
        return ps_err_set(err, PS_ENOMEM, "the timing model could not be rebuilt after a fault");
    for (uint32_t i = 0; i < g->nslots && free_slot == UINT32_MAX; i++)
        if (!g->slot[i])
            free_slot = i;
    if (free_slot == UINT32_MAX)
        return ps_err_set(err, PS_EINVAL,
                          "all %u kernel slots (-gpgpu_max_concurrent_kernel) "
                          "are in use",
                          g->nslots);
    if (!(k = calloc(1, sizeof(*k))))
        return ps_err_set(err, PS_ENOMEM, "out of memory");
    k->g = g;
    if ((rc = prepare(g, k, p, ld, empty))) {
        *err = k->err;
        tm_kernel_free(k);
        return rc;
    }
    if (!empty)
        tm_sample_cancel_all(g);
    k->id = g->kernels + tm_gpu_in_flight(g);
    for (uint32_t i = 0; i < g->nslots; i++)
        if (g->slot[i]) {
            g->slot[i]->max_others++;
            k->max_others++;
        }
    if (g->cs->on_kernel)
        g->cs->on_kernel(g->cs_st, k->occ.max);
    tm_gpu_issue_changed(g); /* a kernel in flight more, and perhaps new CTA limits */
    tm_par_settle_side(&g->par);
    tm_gpu_gather(g, &k->before);
    k->start_cycle = g->core_now;
    g->slot[free_slot] = k;
    if (empty) {
        /* Alone: every SM takes it, and the GPU idles through the launch latency. */
        g->last_issued = g->last_issue_cycle = 0;
        g->last_slot = free_slot;
        for (uint32_t i = 0; i < g->prm.nsm; i++)
            if (!g->bound[i])
                bind(g, i, k);
        g->core_now += g->prm.kernel_launch_latency;
        k->ready_at = g->core_now;
    } else {
        k->ready_at = g->core_now + g->prm.kernel_launch_latency;
    }
    *out = k;
    return 0;
}

bool tm_kernel_done(const struct tm_kernel *k)
{
    return k->done;
}

int tm_kernel_result(const struct tm_kernel *k, struct ps_err *err)
{
    if (err)
        *err = k->err;
    return k->rc;
}

const struct tm_stats *tm_kernel_stats(const struct tm_kernel *k)
{
    return &k->stats;
}
