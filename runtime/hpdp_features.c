/* HeteroPDP features (hpdp_features.h). */
#include "runtime/hpdp_features.h"

#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "frontend/ptx_parse.h"
#include "isa/module.h"
#include "isa/opcode.h"
#include "isa/types.h"

static enum rt_hpdp_gpu_feat classify(const struct isa_instr *in)
{
    const struct isa_op_info *oi = isa_op_info((enum isa_op)in->op);
    const struct isa_type_info *ti = in->ntypes ? isa_type_info((enum isa_type)in->types[0]) : NULL;

    switch (oi ? oi->unit : ISA_UNIT_INT) {
    case ISA_UNIT_MEM:
        return RT_HPDP_G_MEM;
    case ISA_UNIT_SFU:
        return RT_HPDP_G_SFU;
    case ISA_UNIT_CTRL:
        return RT_HPDP_G_BRANCH;
    case ISA_UNIT_SYNC:
        return RT_HPDP_G_BARRIER;
    default:
        return ti && ti->kind == ISA_TK_FLOAT ? RT_HPDP_G_FP : RT_HPDP_G_INT;
    }
}

#define LOOP_GUESS 16.0 /* trip count of a loop whose bound is not an immediate */
#define LOOP_MAX 4096.0

static double clamp_trip(double c)
{
    c = c < 0 ? -c : c;
    return c < 1 ? 1 : c > LOOP_MAX ? LOOP_MAX : c;
}

/* An immediate operand of in, or 0 when none. */
static bool imm_operand(const struct isa_func *fn, const struct isa_instr *in, uint32_t from,
                        double *v)
{
    for (uint32_t o = from; o < in->nops; o++) {
        const struct isa_operand *op = &fn->ops[in->first_op + o];
        if (op->kind == ISA_OPND_IMM) {
            *v = (double)op->v.i;
            return true;
        }
    }
    return false;
}

/*
 * The loop's counter is compared with the immediate bound: its trip count is
 * |bound - init| / |step|, init the counter's immediate before the loop (the
 * last mov of it before p; 0 when there is none) and step the immediate of
 * its add inside [p, i] (1 when there is none).
 */
static double counter_trip(const struct isa_func *fn, const struct isa_instr *setp, uint32_t p,
                           uint32_t i, double bound)
{
    const struct isa_operand *r = NULL;
    double init = 0, step = 0;
    bool have_init = false;

    for (uint32_t o = 1; o < setp->nops && !r; o++) /* the compared register */
        if (fn->ops[setp->first_op + o].kind == ISA_OPND_REG)
            r = &fn->ops[setp->first_op + o];
    if (!r)
        return clamp_trip(bound);
    for (uint32_t j = p; j-- > 0 && !have_init;) {
        const struct isa_instr *in = &fn->instrs[j];
        const struct isa_operand *d = in->nops ? &fn->ops[in->first_op] : NULL;
        if (in->op == ISA_OP_MOV && d && d->kind == ISA_OPND_REG && d->a == r->a)
            have_init = imm_operand(fn, in, 1, &init);
    }
    for (uint32_t j = p; j <= i; j++) {
        const struct isa_instr *in = &fn->instrs[j];
        const struct isa_operand *d = in->nops ? &fn->ops[in->first_op] : NULL;
        if ((in->op == ISA_OP_ADD || in->op == ISA_OP_SUB) && d && d->kind == ISA_OPND_REG &&
            d->a == r->a)
            imm_operand(fn, in, 1, &step);
    }
    if (!have_init && bound == 0)
        return LOOP_GUESS;
    return clamp_trip((bound - init) / (step != 0 ? step : 1));
}

/* The loop [p, i] closed by a backward bra at i: its trip count from the last setp in it. */
static double trip_count(const struct isa_func *fn, uint32_t p, uint32_t i)
{
    for (uint32_t j = i; j-- > p;) {
        const struct isa_instr *in = &fn->instrs[j];
        double c;
        if (in->op != ISA_OP_SETP)
            continue;
        if (!imm_operand(fn, in, 1, &c))
            return LOOP_GUESS;
        return counter_trip(fn, in, p, i, c);
    }
    return LOOP_GUESS;
}

/*
 * Each instruction's weight: the product of the trip counts of the loops
 * around it. A loop is a label with backward bras to it, spanning from the
 * label to the last of them (counted once however many bras close it).
 */
static void loop_weights(const struct isa_func *fn, double *w)
{
    bool *done = calloc(fn->nlabels + 1, sizeof(bool));

    for (uint32_t i = 0; i < fn->ninstrs; i++)
        w[i] = 1;
    for (uint32_t i = fn->ninstrs; done && i-- > 0;) {
        const struct isa_instr *in = &fn->instrs[i];
        const struct isa_operand *op = in->nops ? &fn->ops[in->first_op] : NULL;
        uint32_t p;
        double trip;
        if (in->op != ISA_OP_BRA || !op || op->kind != ISA_OPND_LABEL || op->a >= fn->nlabels ||
            done[op->a] || (p = fn->labels[op->a].pos) > i)
            continue;
        done[op->a] = true;
        trip = trip_count(fn, p, i);
        for (uint32_t j = p; j <= i; j++)
            w[j] *= trip;
    }
    free(done);
}

int rt_hpdp_gpu_counts(const char *ptx, const char *kernel, double out[RT_HPDP_G_N],
                       struct ps_err *err)
{
    struct isa_module *m = ptx_parse(ptx, strlen(ptx), "heteropdp", err);
    int rc = PS_ENOTFOUND;

    memset(out, 0, sizeof(double) * RT_HPDP_G_N);
    if (!m)
        return PS_EPARSE;
    for (uint32_t f = 0; f < m->nfuncs; f++) {
        const struct isa_func *fn = m->funcs[f];
        if (!fn->is_entry || !fn->has_body || strcmp(fn->name, kernel))
            continue;
        double *w = calloc(fn->ninstrs + 1, sizeof(double));
        if (!w) {
            rc = PS_ENOMEM;
            break;
        }
        loop_weights(fn, w);
        for (uint32_t i = 0; i < fn->ninstrs; i++)
            out[classify(&fn->instrs[i])] += w[i];
        free(w);
        rc = 0;
        break;
    }
    isa_module_destroy(m);
    if (rc)
        ps_err_set(err, rc, rc == PS_ENOMEM ? "out of memory" : "no kernel %s in the PTX", kernel);
    return rc;
}

uint32_t rt_hpdp_cpu_factors(const double cpu[RT_HPDP_C_N], const struct rt_hpdp_dyn *d,
                             const struct rt_hpdp_sys *s, double *f)
{
    uint32_t n = 0;

    f[n++] = d->threads;
    for (int i = 0; i < RT_HPDP_C_N; i++)
        f[n++] = cpu[i];
    f[n++] = d->buffer_bytes;
    if (s) { /* co-located: LLC misses and DRAM bandwidth */
        f[n++] = s->llc_mps;
        f[n++] = s->dram_gbs;
    }
    return n;
}

uint32_t rt_hpdp_gpu_factors(const double gpu[RT_HPDP_G_N], const struct rt_hpdp_dyn *d,
                             const struct rt_hpdp_sys *s, double *f)
{
    uint32_t n = 0;

    f[n++] = d->threads;
    for (int i = 0; i < RT_HPDP_G_N; i++)
        f[n++] = gpu[i];
    f[n++] = d->buffer_bytes;
    if (s) /* co-located: DRAM bandwidth only (the GPU does not share the LLC) */
        f[n++] = s->dram_gbs;
    return n;
}

double rt_hpdp_xfer_s(double bytes, double pcie_gbs, double host_gbs, double corunner_gbs)
{
    double avail = host_gbs - corunner_gbs, bw;

    if (avail < 0.05 * host_gbs)
        avail = 0.05 * host_gbs;
    bw = pcie_gbs < avail ? pcie_gbs : avail;
    return bw > 0 ? bytes / (bw * 1e9) : 0.0;
}
