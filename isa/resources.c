#include "isa/resources.h"

#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "isa/module.h"

struct walk {
    const struct isa_module *m;
    uint8_t *fseen; /* 1 = visiting, 2 = done */
    uint8_t *vseen;
    struct isa_resources *r;
};

static void add_var(struct walk *w, uint32_t vi)
{
    const struct isa_var *v = &w->m->vars[vi];

    if (w->vseen[vi])
        return;
    w->vseen[vi] = 1;
    switch (v->space) {
    case ISA_SPACE_SHARED:
        if (v->unsized && !v->has_init)
            w->r->dynamic_shared = true;
        else
            w->r->shared_bytes += v->size_bytes;
        break;
    case ISA_SPACE_CONST: w->r->const_bytes += v->size_bytes; break;
    case ISA_SPACE_GLOBAL: w->r->global_bytes += v->size_bytes; break;
    default: break;
    }
    for (uint32_t i = 0; i < v->ninit; i++)
        if (v->init[i].kind == ISA_INIT_SYM || v->init[i].kind == ISA_INIT_GENERIC_SYM)
            add_var(w, v->init[i].sym);
}

static void add_locals(struct walk *w, const struct isa_func *f)
{
    for (uint32_t i = 0; i < f->nregs; i++) {
        enum isa_type t = (enum isa_type)f->regs[i].type;
        unsigned words = (isa_type_info(t)->bits + 31) / 32 * (f->regs[i].vec ? f->regs[i].vec : 1);

        w->r->regs_by_type[t]++;
        if (t != ISA_TYPE_PRED)
            w->r->regs32 += words;
    }
    for (uint32_t i = 0; i < f->nlocals; i++) {
        const struct isa_var *v = &f->locals[i];

        if (v->space == ISA_SPACE_LOCAL)
            w->r->local_bytes += v->size_bytes;
        else if (v->space == ISA_SPACE_SHARED)
            w->r->shared_bytes += v->size_bytes;
    }
}

static void walk_func(struct walk *w, uint32_t fi);

static void walk_operand(struct walk *w, const struct isa_func *f, const struct isa_operand *o)
{
    bool sym = o->kind == ISA_OPND_SYM || (o->kind == ISA_OPND_ADDR && (o->flags & ISA_OPF_ADDR_SYM));

    if (sym && o->symscope == ISA_SYM_MODULE)
        add_var(w, o->a);
    else if (o->kind == ISA_OPND_FUNC)
        walk_func(w, o->a);
    else if (o->kind == ISA_OPND_VEC || o->kind == ISA_OPND_LIST || o->kind == ISA_OPND_BRLIST)
        for (uint32_t i = 0; i < o->n; i++)
            walk_operand(w, f, &f->ops[o->a + i]);
}

static void walk_func(struct walk *w, uint32_t fi)
{
    const struct isa_func *f = w->m->funcs[fi];

    if (w->fseen[fi] == 1)
        w->r->recursive = true;
    if (w->fseen[fi])
        return;
    w->fseen[fi] = 1;
    add_locals(w, f);
    w->r->ninstrs += f->ninstrs;
    for (uint32_t i = 0; i < f->ninstrs; i++) {
        const struct isa_instr *in = &f->instrs[i];

        for (uint32_t k = 0; k < in->nops; k++)
            walk_operand(w, f, &f->ops[in->first_op + k]);
    }
    for (uint32_t i = 0; i < f->nlabels; i++)
        if (f->labels[i].kind == ISA_LABEL_CALLTARGETS)
            for (uint32_t k = 0; k < f->labels[i].count; k++)
                walk_func(w, f->targets[f->labels[i].first + k]);
    w->fseen[fi] = 2;
}

int isa_resources_of(const struct isa_module *m, uint32_t fidx, struct isa_resources *r)
{
    struct walk w = {m, calloc(m->nfuncs + 1, 1), calloc(m->nvars + 1, 1), r};
    const struct isa_func *f = m->funcs[fidx];

    memset(r, 0, sizeof(*r));
    if (!w.fseen || !w.vseen) {
        free(w.fseen);
        free(w.vseen);
        return PS_ENOMEM;
    }
    for (uint32_t i = 0; i < f->nparams; i++)
        r->param_bytes += f->params[i].size_bytes;
    walk_func(&w, fidx);
    for (uint32_t i = 0; i < m->nfuncs; i++)
        r->ncallees += (i != fidx && w.fseen[i]);
    free(w.fseen);
    free(w.vseen);
    return 0;
}
