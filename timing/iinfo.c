/*
 * Instruction decoding for the timing model: pipeline class, latency and
 * initiation interval (GPGPU-Sim's -ptx_opcode_latency_* tables, indexed
 * ADD, MAX, MUL, MAD, DIV and, for integers, SHFL), and register operands.
 */
#include <stdlib.h>

#include "isa/alu.h"
#include "isa/opcode.h"
#include "isa/types.h"
#include "timing/iinfo.h"

static void add_reg(uint16_t *arr, uint8_t *n, uint8_t max, uint32_t slot)
{
    if (slot == ISA_NONE || slot > UINT16_MAX)
        return;
    for (uint8_t i = 0; i < *n; i++)
        if (arr[i] == slot)
            return;
    if (*n < max)
        arr[(*n)++] = (uint16_t)slot;
}

static void operand_regs(const struct isa_func *f, const struct isa_operand *o, bool dst,
                         struct tm_iinfo *ii)
{
    uint16_t *arr = dst ? ii->dst : ii->src;
    uint8_t *n = dst ? &ii->ndst : &ii->nsrc;
    uint8_t max = dst ? TM_MAX_DST : TM_MAX_SRC;

    switch (o->kind) {
    case ISA_OPND_REG:
        add_reg(arr, n, max, o->a);
        if (o->flags & ISA_OPF_PAIR)
            add_reg(arr, n, max, o->b);
        break;
    case ISA_OPND_ADDR:
        if (o->flags & ISA_OPF_ADDR_REG)
            add_reg(ii->src, &ii->nsrc, TM_MAX_SRC, o->a);
        break;
    case ISA_OPND_VEC:
    case ISA_OPND_LIST:
        for (uint32_t i = 0; i < o->n; i++)
            operand_regs(f, &f->ops[o->a + i], dst, ii);
        break;
    default:
        break;
    }
}

static bool is_f64(const struct isa_instr *in)
{
    for (uint32_t i = 0; i < in->ntypes; i++)
        if (in->types[i] == ISA_TYPE_F64)
            return true;
    return false;
}

static bool is_float(const struct isa_instr *in)
{
    return in->ntypes && isa_type_info((enum isa_type)in->types[0])->kind == ISA_TK_FLOAT;
}

static void timing_of(const struct tm_params *prm, const struct isa_instr *in, struct tm_iinfo *ii)
{
    enum isa_op op = (enum isa_op)in->op;
    const struct isa_op_info *oi = isa_op_info(op);
    enum isa_lat lc = (enum isa_lat)oi->lat;

    ii->unit = TM_UNIT_SP;
    switch (oi->unit) {
    case ISA_UNIT_MEM:
        ii->unit = TM_UNIT_MEM;
        ii->is_mem = true;
        ii->lat = 1;
        ii->ii = 1;
        return;
    case ISA_UNIT_SFU:
        ii->unit = is_f64(in) ? TM_UNIT_DP : TM_UNIT_SFU;
        ii->lat = (uint16_t)(is_f64(in) ? prm->lat_dp[ISA_LAT_DIV] : prm->lat_sfu);
        ii->ii = (uint16_t)(is_f64(in) ? prm->ii_dp[ISA_LAT_DIV] : prm->ii_sfu);
        break;
    default:
        if (is_f64(in) && oi->unit != ISA_UNIT_CTRL && oi->unit != ISA_UNIT_SYNC) {
            uint32_t k = lc > ISA_LAT_DIV ? ISA_LAT_ADD : lc;
            ii->unit = TM_UNIT_DP;
            ii->lat = (uint16_t)prm->lat_dp[k];
            ii->ii = (uint16_t)prm->ii_dp[k];
        } else if (is_float(in) && lc != ISA_LAT_SHFL) {
            ii->lat = (uint16_t)prm->lat_fp[lc];
            ii->ii = (uint16_t)prm->ii_fp[lc];
        } else {
            ii->lat = (uint16_t)prm->lat_int[lc];
            ii->ii = (uint16_t)prm->ii_int[lc];
        }
        break;
    }
    /* Without DP units (GTX 480: DP runs on the SFU path) double work goes to the SFU. */
    if (ii->unit == TM_UNIT_DP && prm->n_dp == 0)
        ii->unit = TM_UNIT_SFU;
    if (!ii->lat)
        ii->lat = 1;
    if (!ii->ii)
        ii->ii = 1;
    ii->is_ctrl = (oi->flags & (ISA_OPF_BRANCH | ISA_OPF_CALL)) || oi->unit == ISA_UNIT_CTRL;
    ii->is_bar = op == ISA_OP_BAR || op == ISA_OP_BARRIER;
}

/* See tm_iinfo.local_fx: a whitelist, so anything new or unusual is ordered. */
static bool effects_local(const struct isa_func *f, const struct isa_instr *in)
{
    for (uint32_t i = 0; i < in->nops; i++) {
        const struct isa_operand *o = &f->ops[in->first_op + i];

        if (o->kind == ISA_OPND_SREG &&
            (o->a == ISA_SREG_GLOBALTIMER || o->a == ISA_SREG_GLOBALTIMER_LO ||
             o->a == ISA_SREG_GLOBALTIMER_HI)) /* counts the whole launch's instructions */
            return false;
    }
    switch ((enum isa_op)in->op) {
    case ISA_OP_BRA:
    case ISA_OP_RET:
    case ISA_OP_EXIT:
    case ISA_OP_BAR:
    case ISA_OP_BARRIER:
    case ISA_OP_MOV:
        return true;
    case ISA_OP_LD:
    case ISA_OP_ST:
        return in->space == ISA_SPACE_SHARED || in->space == ISA_SPACE_LOCAL ||
               (in->op == ISA_OP_LD &&
                (in->space == ISA_SPACE_PARAM || in->space == ISA_SPACE_CONST));
    case ISA_OP_ATOM:
    case ISA_OP_RED:
        return in->space == ISA_SPACE_SHARED;
    default:
        return isa_alu_handles((enum isa_op)in->op);
    }
}

static void decode(const struct tm_params *prm, const struct isa_func *f, uint32_t pc,
                   struct tm_iinfo *ii)
{
    const struct isa_instr *in = &f->instrs[pc];
    const struct isa_op_info *oi = isa_op_info((enum isa_op)in->op);

    timing_of(prm, in, ii);
    if (in->guard != ISA_NONE)
        add_reg(ii->src, &ii->nsrc, TM_MAX_SRC, in->guard);
    for (uint32_t i = 0; i < in->nops; i++) {
        const struct isa_operand *o = &f->ops[in->first_op + i];
        bool dst = i == 0 && !(oi->flags & ISA_OPF_NODST) && o->kind != ISA_OPND_ADDR;

        operand_regs(f, o, dst, ii);
    }
    ii->local_fx = effects_local(f, in);
    ii->global_read = isa_instr_global_read(in);
}

int tm_itable_init(struct tm_itable *t, const struct isa_program *p, const struct tm_params *prm)
{
    t->p = p;
    t->prm = prm;
    t->nfuncs = p->m->nfuncs;
    t->fn = calloc(t->nfuncs ? t->nfuncs : 1, sizeof(*t->fn));
    return t->fn ? 0 : PS_ENOMEM;
}

void tm_itable_fini(struct tm_itable *t)
{
    for (uint32_t i = 0; t->fn && i < t->nfuncs; i++)
        free(t->fn[i]);
    free(t->fn);
    t->fn = NULL;
}

const struct tm_iinfo *tm_itable_get(struct tm_itable *t, uint32_t fidx, uint32_t pc)
{
    if (!t->fn[fidx]) {
        const struct isa_func *f = t->p->m->funcs[fidx];

        t->fn[fidx] = calloc(f->ninstrs ? f->ninstrs : 1, sizeof(struct tm_iinfo));
        if (!t->fn[fidx])
            return NULL;
        for (uint32_t i = 0; i < f->ninstrs; i++)
            decode(t->prm, f, i, &t->fn[fidx][i]);
    }
    return &t->fn[fidx][pc];
}

int tm_itable_decode_all(struct tm_itable *t)
{
    for (uint32_t i = 0; i < t->nfuncs; i++)
        if (!tm_itable_get(t, i, 0))
            return PS_ENOMEM;
    return 0;
}
