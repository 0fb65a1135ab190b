#include "isa/module.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "common/err.h"

struct isa_module *isa_module_create(void)
{
    struct isa_module *m = calloc(1, sizeof(*m));

    if (!m)
        return NULL;
    m->arena = ps_arena_create();
    if (!m->arena) {
        free(m);
        return NULL;
    }
    return m;
}

static void func_free_arrays(struct isa_func *f)
{
    free(f->regdecls);
    free(f->regs);
    free(f->locals);
    free(f->instrs);
    free(f->ops);
    free(f->labels);
    free(f->targets);
    free(f->scopes);
    free(f->body_pragmas);
    free(f->stmts);
}

void isa_module_destroy(struct isa_module *m)
{
    if (!m)
        return;
    for (uint32_t i = 0; i < m->nfuncs; i++)
        func_free_arrays(m->funcs[i]);
    free(m->funcs);
    free(m->vars);
    free(m->items);
    free(m->files);
    free(m->pragmas);
    free(m->target_opts);
    ps_arena_destroy(m->arena);
    free(m);
}

uint32_t isa_module_find_func(const struct isa_module *m, const char *name)
{
    for (uint32_t i = 0; i < m->nfuncs; i++)
        if (!m->funcs[i]->is_prototype && !strcmp(m->funcs[i]->name, name))
            return i;
    return ISA_NONE;
}

uint32_t isa_module_find_var(const struct isa_module *m, const char *name)
{
    for (uint32_t i = 0; i < m->nvars; i++)
        if (!strcmp(m->vars[i].name, name))
            return i;
    return ISA_NONE;
}

bool isa_func_ctas_interact(const struct isa_func *f)
{
    for (uint32_t i = 0; i < f->ninstrs; i++) {
        const struct isa_instr *in = &f->instrs[i];

        switch ((enum isa_op)in->op) {
        case ISA_OP_ATOM:
        case ISA_OP_RED:
            if (in->space != ISA_SPACE_SHARED)
                return true;
            break;
        case ISA_OP_SURED:
        case ISA_OP_MEMBAR:
        case ISA_OP_FENCE:
        case ISA_OP_CALL:
            return true;
        case ISA_OP_LD:
        case ISA_OP_ST:
            if (isa_instr_has_mod(in, ISA_MOD_VOLATILE) ||
                (in->sem != ISA_SEM_NONE && in->sem != ISA_SEM_WEAK))
                return true;
            break;
        default:
            break;
        }
    }
    return false;
}

const char *isa_reg_name(const struct isa_func *f, uint32_t r, char *buf, size_t len)
{
    const struct isa_regdecl *d;

    if (r >= f->nregs) {
        snprintf(buf, len, "%%<bad-reg-%u>", r);
        return buf;
    }
    d = &f->regdecls[f->regs[r].decl];
    if (d->is_range)
        snprintf(buf, len, "%s%u", d->base, r - d->first_slot);
    else
        snprintf(buf, len, "%s", d->base);
    return buf;
}

int isa_grow(void **arr, uint32_t n, uint32_t *cap, size_t esz)
{
    uint32_t ncap;
    void *p;

    if (n < *cap)
        return 0;
    if (*cap >= UINT32_MAX / 2)
        return PS_ENOMEM;
    ncap = *cap ? *cap * 2 : 8;
    p = realloc(*arr, (size_t)ncap * esz);
    if (!p)
        return PS_ENOMEM;
    *arr = p;
    *cap = ncap;
    return 0;
}
