/*
 * Launching a kernel: parameter marshalling, the per-kernel layout of shared
 * memory and stack, CTA and warp creation, and the functional launcher that
 * runs a grid CTA by CTA with barrier release and deadlock/runaway detection.
 */
#include <stdlib.h>
#include <string.h>

#include "isa/exec_int.h"
#include "isa/regpressure.h"

struct kwalk {
    const struct isa_program *p;
    struct isa_kimage *ki;
    uint8_t *state;     /* per function: 0 new, 1 on the DFS path, 2 done */
    uint32_t *depth;    /* per function: deepest stack from it */
    uint8_t *addr_taken;
    bool recursive, indirect;
    uint64_t shared_end;
};

/* Static shared memory of 4 GiB or more is recorded as this (and refused at launch). */
#define SHARED_SATURATED (UINT32_MAX - 15)

static uint32_t align_up32(uint64_t v, uint32_t a)
{
    return (uint32_t)((v + a - 1) / a * a);
}

static void note_shared(struct kwalk *k, uint32_t vi)
{
    const struct isa_var *v = &k->p->m->vars[vi];
    uint32_t a = v->align ? v->align : 16;

    if (v->space != ISA_SPACE_SHARED || k->ki->shared_off[vi] != UINT32_MAX)
        return;
    if (v->unsized && !v->has_init) {
        k->ki->shared_off[vi] = UINT32_MAX - 1; /* dynamic: placed after static data */
        return;
    }
    k->shared_end = align_up32(k->shared_end, a);
    k->ki->shared_off[vi] = (uint32_t)k->shared_end;
    k->shared_end += v->size_bytes;
}

static uint32_t walk(struct kwalk *k, uint32_t fi);

static uint32_t walk_operand(struct kwalk *k, const struct isa_func *f, const struct isa_operand *o,
                             bool is_call_target)
{
    uint32_t d = 0;
    bool sym = o->kind == ISA_OPND_SYM || (o->kind == ISA_OPND_ADDR && (o->flags & ISA_OPF_ADDR_SYM));

    if (sym && o->symscope == ISA_SYM_MODULE)
        note_shared(k, o->a);
    else if (o->kind == ISA_OPND_FUNC && is_call_target)
        d = walk(k, o->a);
    else if (o->kind == ISA_OPND_FUNC)
        k->addr_taken[o->a] = 1;
    else if (o->kind == ISA_OPND_VEC || o->kind == ISA_OPND_LIST || o->kind == ISA_OPND_BRLIST)
        for (uint32_t i = 0; i < o->n; i++)
            walk_operand(k, f, &f->ops[o->a + i], false);
    return d;
}

/* Deepest per-thread stack needed from function fi (its frame plus its deepest callee). */
static uint32_t walk(struct kwalk *k, uint32_t fi)
{
    const struct isa_func *f = k->p->m->funcs[fi];
    uint32_t deepest = 0;

    if (k->state[fi] == 1)
        k->recursive = true;
    if (k->state[fi])
        return k->depth[fi];
    k->state[fi] = 1;
    for (uint32_t i = 0; i < f->ninstrs; i++) {
        const struct isa_instr *in = &f->instrs[i];

        for (uint32_t j = 0; j < in->nops; j++) {
            const struct isa_operand *o = &f->ops[in->first_op + j];
            bool target = in->op == ISA_OP_CALL && o->kind == ISA_OPND_FUNC;
            uint32_t d = walk_operand(k, f, o, target);

            if (in->op == ISA_OP_CALL && o->kind == ISA_OPND_REG)
                k->indirect = true;
            if (d > deepest)
                deepest = d;
        }
    }
    k->depth[fi] = k->p->fi[fi].frame_bytes + deepest;
    k->state[fi] = 2;
    return k->depth[fi];
}

static void shared_locals(struct kwalk *k, uint32_t kernel)
{
    struct isa_fimage *fi = &k->p->fi[kernel];
    const struct isa_func *f = fi->f;

    for (uint32_t i = 0; i < f->nlocals; i++) {
        if (f->locals[i].space != ISA_SPACE_SHARED)
            continue;
        k->shared_end = align_up32(k->shared_end, f->locals[i].align ? f->locals[i].align : 16);
        fi->local_off[i] = (uint32_t)k->shared_end;
        k->shared_end += f->locals[i].size_bytes;
    }
}

static int kernel_image(struct isa_program *p, uint32_t kernel, struct ps_err *err)
{
    struct isa_kimage *ki = &p->ki[kernel];
    uint32_t n = p->m->nfuncs, stack;
    struct kwalk k = {p, ki, calloc(n, 1), calloc(n, sizeof(uint32_t)), calloc(n, 1), false,
                      false, 0};

    ki->shared_off = malloc((p->m->nvars + 1) * sizeof(uint32_t));
    if (!k.state || !k.depth || !k.addr_taken || !ki->shared_off) {
        free(k.state);
        free(k.depth);
        free(k.addr_taken);
        return ps_err_set(err, PS_ENOMEM, "out of memory");
    }
    memset(ki->shared_off, 0xff, (p->m->nvars + 1) * sizeof(uint32_t));
    stack = walk(&k, kernel);
    for (uint32_t i = 0; i < n; i++) /* address-taken functions may be called indirectly */
        if (k.addr_taken[i] && p->m->funcs[i]->has_body) {
            uint32_t d = walk(&k, i) + p->fi[kernel].frame_bytes;
            if (d > stack)
                stack = d;
        }
    shared_locals(&k, kernel);
    /* Sizes past 4 GiB saturate, so the launch check below refuses them instead of wrapping. */
    if (k.shared_end > SHARED_SATURATED)
        k.shared_end = SHARED_SATURATED;
    ki->static_shared = (uint32_t)k.shared_end;
    ki->dyn_off = align_up32(k.shared_end, 16);
    for (uint32_t i = 0; i < p->m->nvars; i++)
        if (ki->shared_off[i] == UINT32_MAX - 1)
            ki->shared_off[i] = ki->dyn_off;
    if (k.recursive || k.indirect)
        stack = stack > p->dev->cfg.local_per_thread ? stack : p->dev->cfg.local_per_thread;
    if (stack > UINT32_MAX - 16)
        stack = UINT32_MAX - 16;
    ki->stack_bytes = align_up32(stack ? stack : 16, 16);
    ki->ready = true;
    free(k.state);
    free(k.depth);
    free(k.addr_taken);
    return 0;
}

uint32_t isa_kernel_regs(struct isa_program *p, uint32_t kernel)
{
    struct isa_kimage *ki = &p->ki[kernel];

    if (!ki->regs_est) {
        uint32_t r = isa_reg_pressure(p->m, kernel);

        ki->regs_est = r == UINT32_MAX ? UINT32_MAX : r ? r : 1;
    }
    return ki->regs_est;
}

uint32_t isa_kernel_static_shared(const struct isa_program *p, uint32_t kernel)
{
    if (!p->ki[kernel].ready && kernel_image((struct isa_program *)p, kernel, NULL))
        return 0;
    return p->ki[kernel].static_shared;
}

static int pack_params(struct isa_launch *L, const struct isa_launch_desc *ld, struct ps_err *err)
{
    const struct isa_fimage *fi = &L->p->fi[ld->kernel];
    const struct isa_func *f = fi->f;

    L->param_bytes = fi->param_bytes;
    L->params = calloc(1, fi->param_bytes + 16);
    if (!L->params)
        return ps_err_set(err, PS_ENOMEM, "out of memory");
    if (ld->param_buf) {
        if (ld->param_bytes < fi->param_bytes)
            return ps_err_set(err, PS_EINVAL, "kernel '%s' takes %u bytes of parameters, %u given",
                              f->name, fi->param_bytes, ld->param_bytes);
        memcpy(L->params, ld->param_buf, fi->param_bytes);
        return 0;
    }
    if (f->nparams && !ld->args)
        return ps_err_set(err, PS_EINVAL, "kernel '%s' needs %u arguments", f->name, f->nparams);
    for (uint32_t i = 0; i < f->nparams; i++) {
        if (!ld->args[i])
            return ps_err_set(err, PS_EINVAL, "argument %u of kernel '%s' is NULL", i, f->name);
        memcpy(L->params + fi->param_off[i], ld->args[i], f->params[i].size_bytes);
    }
    return 0;
}

/* Grid and block against the limits CUDA documents (compute capability 3.0 and later). */
static int check_dims(const struct isa_launch_desc *ld, const struct isa_device_config *cfg,
                      struct ps_err *err)
{
    uint64_t threads = (uint64_t)ld->block[0] * ld->block[1] * ld->block[2];

    if (!threads || threads > cfg->max_threads_per_cta || !ld->grid[0] || !ld->grid[1] ||
        !ld->grid[2] || ld->grid[0] > ISA_MAX_GRID_X || ld->grid[1] > ISA_MAX_GRID_YZ ||
        ld->grid[2] > ISA_MAX_GRID_YZ)
        return ps_err_set(err, PS_EINVAL,
                          "invalid launch configuration: grid (%u,%u,%u), block (%u,%u,%u) "
                          "(limits: grid %u x %u x %u, %u threads per block)",
                          ld->grid[0], ld->grid[1], ld->grid[2], ld->block[0], ld->block[1],
                          ld->block[2], ISA_MAX_GRID_X, ISA_MAX_GRID_YZ, ISA_MAX_GRID_YZ,
                          cfg->max_threads_per_cta);
    return 0;
}

/* Shared memory per CTA and local memory per thread against the device's limits. */
static int check_memory(const struct isa_program *p, const struct isa_launch_desc *ld,
                        struct ps_err *err)
{
    const struct isa_kimage *ki = &p->ki[ld->kernel];
    const char *name = p->m->funcs[ld->kernel]->name;
    uint64_t shared = (uint64_t)ki->dyn_off + ld->dyn_shared;

    if (ki->static_shared == SHARED_SATURATED)
        return ps_err_set(err, PS_EINVAL,
                          "kernel '%s' needs 4 GiB or more of shared memory, more than %u", name,
                          p->dev->cfg.shared_per_cta);
    if (shared > p->dev->cfg.shared_per_cta)
        return ps_err_set(err, PS_EINVAL,
                          "kernel '%s' needs %llu bytes of shared memory, more than %u", name,
                          (unsigned long long)shared, p->dev->cfg.shared_per_cta);
    if (ki->stack_bytes > ISA_MAX_LOCAL_PER_THREAD)
        return ps_err_set(err, PS_EINVAL,
                          "kernel '%s' needs %u bytes of local memory per thread, more than %u",
                          name, ki->stack_bytes, ISA_MAX_LOCAL_PER_THREAD);
    return 0;
}

int isa_launch_init(struct isa_launch *L, struct isa_program *p, const struct isa_launch_desc *ld,
                    struct ps_err *err)
{
    int rc;

    memset(L, 0, sizeof(*L));
    L->p = p;
    L->dev = p->dev;
    L->err = err;
    if (ld->kernel >= p->m->nfuncs || !p->m->funcs[ld->kernel]->is_entry ||
        !p->m->funcs[ld->kernel]->has_body)
        return ps_err_set(err, PS_EINVAL, "launch of something that is not a kernel");
    if ((rc = check_dims(ld, &p->dev->cfg, err)))
        return rc;
    if (!p->ki[ld->kernel].ready && (rc = kernel_image(p, ld->kernel, err)))
        return rc;
    if ((rc = check_memory(p, ld, err)))
        return rc;
    L->kernel = ld->kernel;
    memcpy(L->grid, ld->grid, sizeof(L->grid));
    memcpy(L->block, ld->block, sizeof(L->block));
    L->dyn_shared = ld->dyn_shared;
    L->gridid = ++p->dev->launches;
    return pack_params(L, ld, err);
}

void isa_launch_fini(struct isa_launch *L)
{
    free(L->params);
    L->params = NULL;
}

static int warp_init(struct isa_cta *c, struct isa_warp *w, uint32_t id)
{
    struct isa_launch *L = c->L;
    const struct isa_fimage *fi = &L->p->fi[L->kernel];
    uint32_t first = id * ISA_WARP_SIZE, n = c->nthreads - first;
    size_t nregs = (size_t)fi->f->nregs * ISA_WARP_SIZE;

    w->cta = c;
    w->id = id;
    w->exists = n >= ISA_WARP_SIZE ? ISA_LANES_ALL : (UINT32_C(1) << n) - 1;
    w->live = w->exists;
    w->st_cap = 16;
    w->st = malloc(w->st_cap * sizeof(*w->st));
    w->fr_cap = 4;
    w->fr = malloc(w->fr_cap * sizeof(*w->fr));
    w->regs_cap = nregs ? nregs : 1;
    w->regs = calloc(w->regs_cap, sizeof(uint64_t));
    w->local = calloc(ISA_WARP_SIZE, L->p->ki[L->kernel].stack_bytes);
    if (!w->st || !w->fr || !w->regs || !w->local)
        return PS_ENOMEM;
    w->regs_used = nregs;
    w->fr[0] = (struct isa_frame){L->kernel, ISA_NONE, 0, 0, 0};
    w->nfr = 1;
    w->st[0] = (struct isa_simt){0, fi->f->ninstrs, w->exists};
    w->sp = 1;
    return x_reconverge(w);
}

int isa_cta_init(struct isa_cta *c, struct isa_launch *L, uint64_t linear)
{
    const struct isa_kimage *ki = &L->p->ki[L->kernel];

    memset(c, 0, sizeof(*c));
    c->L = L;
    c->linear = linear;
    /* 64-bit: a grid may hold up to (2^31-1) x 65535 x 65535 CTAs. */
    c->ctaid[0] = (uint32_t)(linear % L->grid[0]);
    c->ctaid[1] = (uint32_t)(linear / L->grid[0] % L->grid[1]);
    c->ctaid[2] = (uint32_t)(linear / ((uint64_t)L->grid[0] * L->grid[1]));
    c->smid = (uint32_t)(linear % (L->dev->cfg.nsm ? L->dev->cfg.nsm : 1));
    c->nthreads = L->block[0] * L->block[1] * L->block[2];
    c->nwarps = (c->nthreads + ISA_WARP_SIZE - 1) / ISA_WARP_SIZE;
    c->shared_bytes = ki->dyn_off + L->dyn_shared;
    c->shared = calloc(1, c->shared_bytes ? c->shared_bytes : 1);
    c->warps = calloc(c->nwarps, sizeof(*c->warps));
    for (uint32_t i = 0; i < ISA_NUM_BARRIERS; i++)
        c->bar[i].red_and = 1;
    if (!c->shared || !c->warps)
        return PS_ENOMEM;
    for (uint32_t i = 0; i < c->nwarps; i++)
        if (warp_init(c, &c->warps[i], i))
            return PS_ENOMEM;
    c->live_warps = c->nwarps;
    return 0;
}

void isa_cta_fini(struct isa_cta *c)
{
    for (uint32_t i = 0; c->warps && i < c->nwarps; i++) {
        free(c->warps[i].st);
        free(c->warps[i].fr);
        free(c->warps[i].regs);
        free(c->warps[i].local);
    }
    free(c->warps);
    free(c->shared);
    memset(c, 0, sizeof(*c));
}

static int deadlock(struct isa_cta *c)
{
    for (uint32_t i = 0; i < c->nwarps; i++) {
        struct isa_warp *w = &c->warps[i];

        if (w->state == ISA_WARP_BARRIER)
            return isa_fault(w, w->live ? (uint32_t)__builtin_ctz(w->live) : 0, PS_EDEADLOCK, 0,
                             "barrier deadlock: warp %u waits at barrier %u, which the CTA's other "
                             "warps can never reach",
                             w->id, w->bar_id);
    }
    return isa_fault(&c->warps[0], 0, PS_EDEADLOCK, 0, "barrier deadlock");
}

/*
 * Warps take turns of at most this many instructions, so a warp spinning on a
 * flag another warp sets still finishes.
 */
#define SLICE 1024

/* PS_ERUNAWAY when the launch must stop: the thread-instruction cap, or a stop request. */
static int stop_check(struct isa_launch *L, uint64_t thread_cap, const volatile int *stop)
{
    if (thread_cap && L->thread_insts >= thread_cap)
        return ps_err_set(L->err, PS_ERUNAWAY,
                          "stopped at the instruction cap (-gpgpu_max_insn): %llu thread "
                          "instructions in this launch",
                          (unsigned long long)L->thread_insts);
    if (stop && *stop)
        return ps_err_set(L->err, PS_ERUNAWAY, "stopped by signal %d", *stop);
    return 0;
}

/* Runs one CTA to completion, warps round robin. */
static int run_cta(struct isa_cta *c, uint64_t budget, uint64_t thread_cap)
{
    struct isa_launch *L = c->L;
    const volatile int *stop = L->p->dev->cfg.stop;

    for (;;) {
        bool progress = false, all_done = true;

        for (uint32_t i = 0; i < c->nwarps; i++) {
            struct isa_warp *w = &c->warps[i];
            int rc;

            for (uint32_t n = 0; n < SLICE && w->state == ISA_WARP_READY; n++) {
                progress = true;
                if ((rc = isa_warp_step(w, NULL)))
                    return rc;
                if (budget && L->warp_insts > budget)
                    return isa_fault(w, 0, PS_ERUNAWAY, 0,
                                     "runaway kernel: more than %llu warp instructions"
                                     ISA_BUDGET_HINT,
                                     (unsigned long long)budget);
            }
            all_done &= w->state == ISA_WARP_DONE;
            if ((rc = stop_check(L, thread_cap, stop)))
                return rc;
        }
        if (isa_device_abandoned(L->dev))
            return ps_err_set(L->err, PS_EABANDONED, "launch of '%s' abandoned: the process is exiting",
                              L->p->m->funcs[L->kernel]->name);
        if (all_done)
            return 0;
        if (isa_cta_release_barriers(c))
            continue;
        if (!progress)
            return deadlock(c);
    }
}

/* Instructions each warp runs per turn in isa_ctas_run. */
#define TURN 16

/* One turn of every warp of c; *done once they have all finished. */
static int cta_turn(struct isa_cta *c, uint64_t budget, uint64_t thread_cap, bool *done)
{
    struct isa_launch *L = c->L;
    bool progress = false, all_done = true;
    int rc;

    for (uint32_t i = 0; i < c->nwarps; i++) {
        struct isa_warp *w = &c->warps[i];

        for (uint32_t n = 0; n < TURN && w->state == ISA_WARP_READY; n++) {
            progress = true;
            if ((rc = isa_warp_step(w, NULL)))
                return rc;
            if (budget && L->warp_insts > budget)
                return isa_fault(w, 0, PS_ERUNAWAY, 0,
                                 "runaway kernel: more than %llu warp instructions" ISA_BUDGET_HINT,
                                 (unsigned long long)budget);
        }
        all_done &= w->state == ISA_WARP_DONE;
    }
    if ((rc = stop_check(L, thread_cap, L->p->dev->cfg.stop)))
        return rc;
    *done = all_done;
    if (all_done || isa_cta_release_barriers(c) || progress)
        return 0;
    return deadlock(c);
}

int isa_ctas_run(struct isa_launch *L, uint64_t first, uint64_t end, uint32_t resident,
                 uint64_t budget, uint64_t thread_cap)
{
    struct isa_cta *c;
    uint64_t next = first;
    uint32_t live = 0;
    int rc = 0;

    if (first >= end)
        return 0;
    if (!resident)
        resident = 1;
    if (end - first < resident)
        resident = (uint32_t)(end - first);
    if (!(c = calloc(resident, sizeof(*c))))
        return ps_err_set(L->err, PS_ENOMEM, "out of memory creating CTAs");
    for (uint32_t i = 0; i < resident && !rc; i++, live++)
        if (isa_cta_init(&c[i], L, next++))
            rc = ps_err_set(L->err, PS_ENOMEM, "out of memory creating a CTA");
    while (live && !rc) {
        for (uint32_t i = 0; i < resident && !rc; i++) {
            bool done = false;

            if (!c[i].warps || (rc = cta_turn(&c[i], budget, thread_cap, &done)) || !done)
                continue;
            isa_cta_fini(&c[i]); /* its place goes to the next CTA in linear order */
            if (next >= end)
                live--;
            else if (isa_cta_init(&c[i], L, next++))
                rc = ps_err_set(L->err, PS_ENOMEM, "out of memory creating a CTA");
        }
        if (!rc && isa_device_abandoned(L->dev))
            rc = ps_err_set(L->err, PS_EABANDONED,
                            "launch of '%s' abandoned: the process is exiting",
                            L->p->m->funcs[L->kernel]->name);
    }
    for (uint32_t i = 0; i < resident; i++)
        isa_cta_fini(&c[i]);
    free(c);
    return rc;
}

int isa_launch_run(struct isa_program *p, const struct isa_launch_desc *ld,
                   struct isa_launch_stats *stats, struct ps_err *err)
{
    struct isa_launch L;
    uint64_t nctas = (uint64_t)ld->grid[0] * ld->grid[1] * ld->grid[2];
    int rc;

    ps_err_clear(err);
    if ((rc = isa_launch_init(&L, p, ld, err)))
        goto out;
    for (uint64_t i = 0; i < nctas && !rc; i++) {
        struct isa_cta c;

        rc = isa_cta_init(&c, &L, i);
        if (rc)
            ps_err_set(err, rc, "out of memory creating a CTA");
        else
            rc = run_cta(&c, p->dev->cfg.insn_budget, ld->thread_cap);
        isa_cta_fini(&c);
        if (stats)
            stats->ctas++;
    }
out:
    if (stats) {
        stats->warp_insts += L.warp_insts;
        stats->thread_insts += L.thread_insts;
    }
    isa_launch_fini(&L);
    return rc;
}
