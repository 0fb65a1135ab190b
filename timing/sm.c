/*
 * The SM core: warp and CTA residency and the cycle function. One core
 * cycle:
 *   1. replies from the memory system fill the L1s; finished loads release
 *      their destination registers (timing/ldst.c);
 *   2. one L1 miss per cycle leaves for the interconnect;
 *   3. the LD/ST unit presents one request of the current memory
 *      instruction to its cache;
 *   4. each warp scheduler issues at most one instruction, executed at
 *      issue (timing/sm_issue.c, timing/scoreboard.c);
 *   5. the fetch stage refills one warp's I-buffer through the L1I
 *      (timing/fetch.c).
 */
#include <stdlib.h>
#include <string.h>

#include "common/counters.h"
#include "policies/create.h"
#include "timing/line_stats.h"
#include "timing/sm_int.h"

/* ------------------------------------------------------------------ setup */

static int make_caches(struct tm_sm *s, struct ps_err *err)
{
    const struct tm_params *p = s->prm;
    struct pol_l1d_link link;
    char name[32];

    snprintf(name, sizeof(name), "L1D[%u]", s->id);
    tm_sm_policy_link(s, &link);
    s->l1d = mem_cache_create_linked(&p->l1d, name, s->env.l1d_pol, s->env.l1d_args, &link, err);
    snprintf(name, sizeof(name), "L1I[%u]", s->id);
    s->l1i = s->l1d ? mem_cache_create(&p->l1i, name, NULL, "", s->id, err) : NULL;
    snprintf(name, sizeof(name), "L1C[%u]", s->id);
    s->l1c = s->l1i ? mem_cache_create(&p->l1c, name, NULL, "", s->id, err) : NULL;
    snprintf(name, sizeof(name), "L1T[%u]", s->id);
    s->l1t = s->l1c ? mem_cache_create(&p->l1t, name, NULL, "", s->id, err) : NULL;
    return s->l1t ? 0 : -1;
}

static int make_ldst(struct tm_sm *s, struct ps_err *err)
{
    struct tm_ldst_env e = {s->prm,           s->env.ms, s->id,           s->env.nsm,
                            s->l1d,           s->l1i,    s->l1c,          s->l1t,
                            s->env.l1d_trace, &s->k,     tm_sm_ldst_hooks};

    e.hooks.ctx = s;
    s->ldst = tm_ldst_create(&e, err);
    return s->ldst ? 0 : -1;
}

static void set_units(struct tm_sm *s)
{
    const struct tm_params *p = s->prm;

    s->nunits[TM_UNIT_SP] = p->n_sp ? p->n_sp : 1;
    s->nunits[TM_UNIT_SFU] = p->n_sfu ? p->n_sfu : 1;
    s->nunits[TM_UNIT_DP] = p->n_dp ? p->n_dp : 1;
    s->nunits[TM_UNIT_MEM] = 1;
    for (uint32_t u = 0; u < TM_UNIT_COUNT; u++)
        if (s->nunits[u] > 8)
            s->nunits[u] = 8;
}

struct tm_sm *tm_sm_create(const struct tm_sm_env *env, uint32_t id, struct ps_err *err)
{
    const struct tm_params *p = env->prm;
    struct tm_sm *s = calloc(1, sizeof(*s));

    if (!s)
        goto oom;
    s->env = *env;
    s->prm = p;
    s->id = id;
    s->wp = aligned_alloc(_Alignof(struct hwarp), (size_t)p->max_warps * sizeof(*s->wp));
    if (s->wp)
        memset(s->wp, 0, (size_t)p->max_warps * sizeof(*s->wp));
    s->ctas = calloc(p->max_ctas, sizeof(*s->ctas));
    s->sched = calloc(p->nsched, sizeof(*s->sched));
    s->nviews_per_sched = (p->max_warps + p->nsched - 1) / p->nsched;
    s->views = calloc(s->nviews_per_sched, sizeof(*s->views));
    s->sorder = calloc((size_t)p->nsched * s->nviews_per_sched, sizeof(*s->sorder));
    s->nsorder = calloc(p->nsched, sizeof(*s->nsorder));
    s->order = calloc(s->nviews_per_sched, sizeof(*s->order));
    s->cyc.def = calloc(p->nsched ? p->nsched : 1, sizeof(*s->cyc.def));
    s->cyc.plain = calloc(p->nsched ? p->nsched : 1, sizeof(*s->cyc.plain));
    s->memo = calloc(p->nsched ? p->nsched : 1, sizeof(*s->memo));
    s->sepoch = calloc(p->nsched ? p->nsched : 1, sizeof(*s->sepoch));
    if (!s->wp || !s->ctas || !s->sched || !s->views || !s->order || !s->sorder || !s->nsorder ||
        !s->cyc.def || !s->cyc.plain || !s->memo || !s->sepoch)
        goto oom;
    set_units(s);
    for (uint32_t i = 0; i < p->nsched; i++) {
        struct pol_warp_sched_params wp = {.sched_id = i,
                                           .nsched = p->nsched,
                                           .max_warps = p->max_warps,
                                           .sm = id,
                                           .args = env->ws_args,
                                           .sm_shared = &s->ws_shared};

        s->sched[i] = pol_warp_sched_create(env->ws, &wp, err);
        if (!s->sched[i])
            goto fail;
    }
    if (tm_sm_policy_create(s))
        goto oom;
    if (make_caches(s, err) || make_ldst(s, err))
        goto fail;
    tm_sm_policy_attach(s);
    return s;
oom:
    ps_err_set(err, PS_ENOMEM, "out of memory");
fail:
    tm_sm_destroy(s);
    return NULL;
}

void tm_sm_destroy(struct tm_sm *s)
{
    if (!s)
        return;
    tm_ldst_destroy(s->ldst);
    tm_sm_policy_destroy(s);
    for (uint32_t i = 0; s->ctas && i < s->prm->max_ctas; i++)
        if (s->ctas[i].used)
            isa_cta_fini(&s->ctas[i].c);
    for (uint32_t i = 0; s->wp && i < s->prm->max_warps; i++)
        tm_sb_reset(&s->wp[i].sb);
    for (uint32_t i = 0; s->sched && i < s->prm->nsched; i++)
        if (s->sched[i])
            pol_warp_sched_destroy(s->env.ws, s->sched[i]);
    mem_cache_destroy(s->l1d);
    mem_cache_destroy(s->l1i);
    mem_cache_destroy(s->l1c);
    mem_cache_destroy(s->l1t);
    free(s->wp);
    free(s->ctas);
    free(s->sched);
    free(s->views);
    free(s->sorder);
    free(s->nsorder);
    free(s->order);
    free(s->cyc.def);
    free(s->cyc.plain);
    free(s->memo);
    free(s->sepoch);
    free(s);
}

void tm_sm_kernel_begin(struct tm_sm *s, struct isa_launch *L, struct tm_itable *it,
                        uint32_t max_ctas)
{
    s->L = L;
    s->Lreal = NULL;
    s->drained = false;
    tm_sm_changed(s);
    if (s->par) {
        s->Lv = *L;
        s->Lv.warp_insts = s->Lv.thread_insts = 0;
        s->Lreal = L;
        s->L = &s->Lv;
    }
    s->it = it;
    tm_ldst_kernel_begin(s->ldst, (uint64_t)L->block[0] * L->block[1] * L->block[2], max_ctas);
}

void tm_sm_kernel_end(struct tm_sm *s)
{
    tm_ldst_kernel_end(s->ldst);
    s->drained = false;
    tm_sm_changed(s);
    s->L = NULL;
    s->Lreal = NULL;
    s->it = NULL;
}

void tm_sm_set_parallel(struct tm_sm *s, bool on)
{
    s->par = on;
}

/* -------------------------------------------------------------- residency */

uint32_t tm_sm_ctas(const struct tm_sm *s)
{
    return s->nctas;
}

void tm_sm_note_freed(struct tm_sm *s, uint32_t *note)
{
    s->freed_note = note;
}

bool tm_sm_fits(const struct tm_sm *s, uint32_t warps, uint32_t regs, uint32_t shared)
{
    const struct tm_params *p = s->prm;

    return s->nctas < p->max_ctas && s->nwarps_res + warps <= p->max_warps &&
           s->regs_used + regs <= p->regs && s->shared_used + shared <= p->shmem;
}

/* Warp i of CTA c enters the free slot `slot`. */
static int warp_enter(struct tm_sm *s, struct cta *c, uint32_t i, uint32_t slot, uint64_t *warp_seq)
{
    struct hwarp *h = &s->wp[slot];
    uint32_t sid = slot % s->prm->nsched;

    h->w = &c->c.warps[i];
    h->wid = h->w->id;
    h->cta = c;
    tm_sm_warp_changed(s, slot);
    if (slot >= s->slots_hi)
        s->slots_hi = slot + 1;
    h->age = (*warp_seq)++;
    h->born = s->now;
    tm_ibuf_reset(&h->ib);
    h->exited = false;
    h->loads = h->stores = 0;
    h->insts = h->last_issue = 0;
    s->slot_cta[slot] = (int32_t)(c - s->ctas);
    h->nx_ii = NULL;
    tm_sm_pc_sync(h);
    tm_sb_reset(&h->sb);
    if (tm_sb_grow(&h->sb, h->w->regs_cap / ISA_WARP_SIZE + 1))
        return ps_err_set(s->L->err, PS_ENOMEM, "out of memory");
    s->nwarps_res++;
    s->sorder[sid * s->nviews_per_sched + s->nsorder[sid]++] = slot;
    tm_sm_event(s, POL_WARP_LAUNCHED, slot);
    return 0;
}

int tm_sm_launch_cta(struct tm_sm *s, uint64_t linear, uint32_t regs, uint64_t *warp_seq)
{
    struct cta *c = NULL;
    uint32_t slot = 0;
    int rc;

    for (uint32_t i = 0; i < s->prm->max_ctas && !c; i++)
        if (!s->ctas[i].used)
            c = &s->ctas[i];
    if (!c)
        return PS_EINVAL;
    s->drained = false;
    if (isa_cta_init(&c->c, s->L, linear)) {
        isa_cta_fini(&c->c);
        return ps_err_set(s->L->err, PS_ENOMEM, "out of memory creating a CTA");
    }
    s->sleep_until = 0;
    s->quiet = s->quiet_stuck = false;
    c->c.smid = s->id;
    c->c.clock = &s->now;
    c->used = true;
    c->paused = false;
    c->seq = s->cta_seq++;
    c->warps_left = c->c.nwarps;
    c->regs = regs;
    s->nctas++;
    s->regs_used += regs;
    s->shared_used += c->c.shared_bytes;
    for (uint32_t i = 0; i < c->c.nwarps; i++) {
        while (s->wp[slot].w)
            slot++;
        if ((rc = warp_enter(s, c, i, slot, warp_seq)))
            return rc;
    }
    return 0;
}

/* ------------------------------------------------------------------ fetch */

/* Warp h may fetch: resident, running, and its I-buffer empty with no fetch outstanding. */
static bool wants_fetch(const struct hwarp *h)
{
    return h->w && !h->exited && !h->ib.n && !h->ib.fetching && h->state != ISA_WARP_DONE &&
           h->cur_in_pc;
}

/*
 * Up to fetch_per_cycle warps, round robin from the last one served; while
 * CTAs are paused, running CTAs' warps first and paused ones only when no
 * running warp wants the slot.
 */
bool tm_sm_fetch(struct tm_sm *s)
{
    uint32_t nw = s->prm->max_warps, hi = s->slots_hi;
    bool any = false, wanted = false;

    /* No warp wanted to fetch at the last scan and nothing changed since (the epoch). */
    if (tm_sm_fetch_idle(s))
        return false;
    /* Slots from slots_hi on are empty, so the round robin over them would only skip. */
    for (uint32_t f = 0; f < s->prm->fetch_per_cycle; f++) {
        uint32_t slot = s->fetch_rr < hi ? s->fetch_rr : 0;

        for (uint32_t k = 0; k < 2 * hi; k++, slot = slot + 1 < hi ? slot + 1 : 0) {
            struct hwarp *h = &s->wp[slot];

            if (k >= hi && !s->any_paused)
                break;
            if (!wants_fetch(h) || (s->any_paused && h->cta->paused != (k >= hi)))
                continue;
            wanted = true;
            if (!tm_fetch_warp(&h->ib, s->l1i, s->prm, s->id, slot, h->w->fr[h->w->nfr - 1].fidx,
                               h->w->st[h->w->sp - 1].pc, s->now))
                continue;
            s->k.ifetch_reqs++;
            tm_sm_warp_changed(s, slot);
            s->fetch_rr = (slot + 1) % nw;
            any = true;
            break;
        }
    }
    s->fetch_idle = !wanted;
    s->fetch_idle_epoch = s->epoch;
    return any;
}

/* -------------------------------------------------------------- accessors */

bool tm_sm_idle(const struct tm_sm *s)
{
    return !s->nctas && (s->drained || tm_ldst_idle(s->ldst));
}

uint64_t tm_sm_issued(const struct tm_sm *s)
{
    return s->k.issued;
}

struct isa_warp *tm_sm_barrier_warp(const struct tm_sm *s)
{
    for (uint32_t i = 0; i < s->prm->max_warps; i++)
        if (s->wp[i].w && s->wp[i].state == ISA_WARP_BARRIER)
            return s->wp[i].w;
    for (uint32_t i = 0; i < s->prm->max_warps; i++)
        if (s->wp[i].w && !s->wp[i].exited)
            return s->wp[i].w;
    return NULL;
}

int tm_sm_dump_sched(const struct tm_sm *s, FILE *out, struct ps_err *err)
{
    for (uint32_t i = 0; s->env.ws->dump && i < s->prm->nsched; i++) {
        int rc;

        fprintf(out, "# sm %u scheduler %u\n", s->id, i);
        if ((rc = s->env.ws->dump(s->sched[i], out, err)))
            return rc;
    }
    return 0;
}

void tm_sm_set_lines(struct tm_sm *s, struct tm_line_prog *lines)
{
    s->lines = lines;
    tm_ldst_set_lines(s->ldst, lines);
}

const struct tm_sm_counters *tm_sm_get_counters(const struct tm_sm *s)
{
    return &s->k;
}

const struct mem_cache *tm_sm_l1d(const struct tm_sm *s)
{
    return s->l1d;
}

const struct mem_cache *tm_sm_l1i(const struct tm_sm *s)
{
    return s->l1i;
}

const struct mem_cache *tm_sm_l1c(const struct tm_sm *s)
{
    return s->l1c;
}

const struct mem_cache *tm_sm_l1t(const struct tm_sm *s)
{
    return s->l1t;
}
