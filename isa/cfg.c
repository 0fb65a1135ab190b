#include "isa/cfg.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "isa/module.h"

/* Successor lists in one flat array (CSR form). */
struct edges {
    uint32_t *off; /* nblocks + 2 */
    uint32_t *dst;
};

struct cfg_work {
    const struct isa_func *f;
    struct isa_cfg *cfg;
    uint32_t exit;      /* virtual exit block id = nblocks */
    struct edges succ;  /* forward successors */
    struct edges pred;  /* forward predecessors */
    uint32_t *order;    /* postorder number in the reversed graph */
};

static bool is_uncond(const struct isa_instr *in)
{
    return in->guard == ISA_NONE;
}

uint32_t isa_cfg_targets(const struct isa_func *f, uint32_t i, uint32_t *out, uint32_t max)
{
    const struct isa_instr *in = &f->instrs[i];
    const struct isa_operand *o;
    uint32_t n = 0;

    if (in->op == ISA_OP_BRA) {
        o = &f->ops[in->first_op];
        if (o->kind == ISA_OPND_LABEL)
            out[n++] = f->labels[o->a].pos;
    } else if (in->op == ISA_OP_BRX) {
        o = &f->ops[in->first_op + 1];
        if (o->kind == ISA_OPND_LABEL) {
            const struct isa_label *l = &f->labels[o->a];

            for (uint32_t k = 0; k < l->count && n < max; k++)
                out[n++] = f->labels[f->targets[l->first + k]].pos;
        }
    }
    return n;
}

static bool ends_block(const struct isa_instr *in)
{
    return in->op == ISA_OP_BRA || in->op == ISA_OP_BRX || in->op == ISA_OP_RET ||
           in->op == ISA_OP_EXIT || in->op == ISA_OP_TRAP;
}

static int find_blocks(struct cfg_work *w)
{
    const struct isa_func *f = w->f;
    uint32_t n = f->ninstrs, nb = 0;
    uint8_t *leader = calloc(n + 1, 1);
    uint32_t *tg = malloc((f->ntargets + 1) * sizeof(uint32_t));

    if (!leader || !tg) {
        free(leader);
        free(tg);
        return PS_ENOMEM;
    }
    leader[0] = 1;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t k = isa_cfg_targets(f, i, tg, f->ntargets + 1);

        while (k--)
            leader[tg[k]] = 1;
        if (ends_block(&f->instrs[i]))
            leader[i + 1] = 1;
    }
    for (uint32_t i = 0; i < n; i++)
        nb += leader[i];
    w->cfg->nblocks = nb;
    w->cfg->block_start = malloc((nb + 1) * sizeof(uint32_t));
    w->cfg->block_of = malloc((n + 1) * sizeof(uint32_t));
    if (!w->cfg->block_start || !w->cfg->block_of) {
        free(leader);
        free(tg);
        return PS_ENOMEM;
    }
    nb = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (leader[i])
            w->cfg->block_start[nb++] = i;
        w->cfg->block_of[i] = nb - 1;
    }
    w->cfg->block_start[nb] = n;
    w->cfg->block_of[n] = nb;
    free(leader);
    free(tg);
    return 0;
}

/* Successors of block b, written to out; returns the count. */
static uint32_t block_succs(struct cfg_work *w, uint32_t b, uint32_t *out, uint32_t *tg)
{
    const struct isa_func *f = w->f;
    uint32_t last = w->cfg->block_start[b + 1] - 1, n = 0, k;
    const struct isa_instr *in = &f->instrs[last];

    k = isa_cfg_targets(f, last, tg, f->ntargets + 1);
    for (uint32_t i = 0; i < k; i++)
        out[n++] = w->cfg->block_of[tg[i]];
    if (in->op == ISA_OP_RET || in->op == ISA_OP_EXIT || in->op == ISA_OP_TRAP)
        out[n++] = w->exit;
    if (!(ends_block(in) && is_uncond(in)) || in->op == ISA_OP_BRX) {
        /* Falls through (also past a guarded branch); past the end is the exit. */
        if (!(in->op == ISA_OP_BRX && is_uncond(in)))
            out[n++] = last + 1 < f->ninstrs ? w->cfg->block_of[last + 1] : w->exit;
    }
    return n;
}

static int build_edges(struct cfg_work *w)
{
    uint32_t nb = w->cfg->nblocks, total = 0, maxs = w->f->ntargets + 3;
    uint32_t *tmp = malloc(maxs * sizeof(uint32_t)), *tg = malloc(maxs * sizeof(uint32_t));
    uint32_t *cnt = calloc(nb + 2, sizeof(uint32_t));
    int rc = PS_ENOMEM;

    w->succ.off = calloc(nb + 2, sizeof(uint32_t));
    w->pred.off = calloc(nb + 2, sizeof(uint32_t));
    if (!tmp || !tg || !cnt || !w->succ.off || !w->pred.off)
        goto out;
    for (uint32_t b = 0; b < nb; b++) {
        uint32_t k = block_succs(w, b, tmp, tg);

        w->succ.off[b + 1] = w->succ.off[b] + k;
        for (uint32_t i = 0; i < k; i++)
            cnt[tmp[i]]++;
        total += k;
    }
    w->succ.off[nb + 1] = total;
    for (uint32_t b = 0; b <= nb; b++)
        w->pred.off[b + 1] = w->pred.off[b] + cnt[b];
    w->succ.dst = malloc((total + 1) * sizeof(uint32_t));
    w->pred.dst = malloc((total + 1) * sizeof(uint32_t));
    if (!w->succ.dst || !w->pred.dst)
        goto out;
    memset(cnt, 0, (nb + 2) * sizeof(uint32_t));
    for (uint32_t b = 0; b < nb; b++) {
        uint32_t k = block_succs(w, b, tmp, tg);

        for (uint32_t i = 0; i < k; i++) {
            w->succ.dst[w->succ.off[b] + i] = tmp[i];
            w->pred.dst[w->pred.off[tmp[i]] + cnt[tmp[i]]++] = b;
        }
    }
    rc = 0;
out:
    free(tmp);
    free(tg);
    free(cnt);
    return rc;
}

/*
 * Postorder of the reversed graph from the exit (iterative DFS over forward
 * predecessors). Returns the nodes in postorder; unreached nodes get no number.
 */
static uint32_t *reverse_postorder(struct cfg_work *w, uint32_t *count)
{
    uint32_t nn = w->exit + 1, sp = 0, k = 0;
    uint32_t *post = malloc(nn * sizeof(uint32_t));
    uint32_t *stack = malloc(nn * sizeof(uint32_t)), *it = calloc(nn, sizeof(uint32_t));
    uint8_t *seen = calloc(nn, 1);

    if (!post || !stack || !it || !seen)
        goto fail;
    stack[sp++] = w->exit;
    seen[w->exit] = 1;
    while (sp) {
        uint32_t v = stack[sp - 1];

        if (w->pred.off[v] + it[v] < w->pred.off[v + 1]) {
            uint32_t u = w->pred.dst[w->pred.off[v] + it[v]++];

            if (!seen[u]) {
                seen[u] = 1;
                stack[sp++] = u;
            }
            continue;
        }
        w->order[v] = k;
        post[k++] = v;
        sp--;
    }
    free(stack);
    free(it);
    free(seen);
    *count = k;
    return post;
fail:
    free(post);
    free(stack);
    free(it);
    free(seen);
    return NULL;
}

static uint32_t intersect(const struct cfg_work *w, const uint32_t *idom, uint32_t a, uint32_t b)
{
    while (a != b) {
        while (w->order[a] < w->order[b])
            a = idom[a];
        while (w->order[b] < w->order[a])
            b = idom[b];
    }
    return a;
}

/* Cooper, Harvey and Kennedy's iterative dominator algorithm on the reversed CFG. */
static int postdominators(struct cfg_work *w)
{
    uint32_t nn = w->exit + 1, count, *post, *idom = w->cfg->ipdom;
    bool changed = true;

    w->order = malloc(nn * sizeof(uint32_t));
    if (!w->order)
        return PS_ENOMEM;
    for (uint32_t i = 0; i < nn; i++)
        w->order[i] = UINT32_MAX, idom[i] = UINT32_MAX;
    post = reverse_postorder(w, &count);
    if (!post)
        return PS_ENOMEM;
    idom[w->exit] = w->exit;
    while (changed) {
        changed = false;
        for (uint32_t k = count - 1; k-- > 0;) {
            uint32_t b = post[k], nd = UINT32_MAX;

            for (uint32_t e = w->succ.off[b]; e < w->succ.off[b + 1]; e++) {
                uint32_t s = w->succ.dst[e];

                if (idom[s] == UINT32_MAX)
                    continue;
                nd = nd == UINT32_MAX ? s : intersect(w, idom, s, nd);
            }
            if (nd != UINT32_MAX && idom[b] != nd) {
                idom[b] = nd;
                changed = true;
            }
        }
    }
    /* Blocks that never reach the exit (infinite loops) reconverge at the exit. */
    for (uint32_t i = 0; i < nn; i++)
        if (idom[i] == UINT32_MAX)
            idom[i] = w->exit;
    free(post);
    return 0;
}

int isa_cfg_build(const struct isa_func *f, struct isa_cfg *cfg)
{
    struct cfg_work w = {f, cfg, 0, {0}, {0}, NULL};
    int rc;

    memset(cfg, 0, sizeof(*cfg));
    if (!f->ninstrs) {
        cfg->reconv_pc = calloc(1, sizeof(uint32_t));
        return cfg->reconv_pc ? 0 : PS_ENOMEM;
    }
    if ((rc = find_blocks(&w)))
        goto out;
    w.exit = cfg->nblocks;
    cfg->ipdom = malloc((cfg->nblocks + 1) * sizeof(uint32_t));
    cfg->reconv_pc = malloc((f->ninstrs + 1) * sizeof(uint32_t));
    if (!cfg->ipdom || !cfg->reconv_pc) {
        rc = PS_ENOMEM;
        goto out;
    }
    if ((rc = build_edges(&w)) || (rc = postdominators(&w)))
        goto out;
    for (uint32_t i = 0; i <= f->ninstrs; i++)
        cfg->reconv_pc[i] = cfg->block_start[cfg->ipdom[cfg->block_of[i]]];
out:
    free(w.succ.off);
    free(w.succ.dst);
    free(w.pred.off);
    free(w.pred.dst);
    free(w.order);
    if (rc)
        isa_cfg_free(cfg);
    return rc;
}

void isa_cfg_free(struct isa_cfg *cfg)
{
    free(cfg->block_start);
    free(cfg->block_of);
    free(cfg->ipdom);
    free(cfg->reconv_pc);
    memset(cfg, 0, sizeof(*cfg));
}
