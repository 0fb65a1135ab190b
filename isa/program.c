/*
 * Loading a module onto a device: device addresses and initial values of
 * module variables, per-function frame layouts and CFGs, per-kernel shared
 * memory layouts.
 */
#include <stdlib.h>
#include <string.h>

#include "isa/devmem.h"
#include "isa/exec_int.h"
#include "isa/supported.h"
#include "isa/texture.h"

void isa_device_config_default(struct isa_device_config *cfg)
{
    memset(cfg, 0, sizeof(*cfg));
    cfg->insn_budget = ISA_DEFAULT_BUDGET;
    cfg->local_per_thread = 64 * 1024;
    cfg->shared_per_cta = 48 * 1024;
    cfg->max_threads_per_cta = 1024;
    cfg->nsm = 15;
    cfg->heap_bytes = 8u << 20;
}

void isa_device_abandon(struct isa_device *d)
{
    __atomic_store_n(&d->abandon, 1, __ATOMIC_RELEASE);
}

bool isa_device_abandoned(const struct isa_device *d)
{
    return __atomic_load_n(&d->abandon, __ATOMIC_ACQUIRE) != 0;
}

struct isa_device *isa_device_create(const struct isa_device_config *cfg)
{
    struct isa_device *d = calloc(1, sizeof(*d));

    if (!d)
        return NULL;
    if (cfg)
        d->cfg = *cfg;
    else
        isa_device_config_default(&d->cfg);
    d->mem = isa_devmem_create();
    if (d->mem)
        isa_devmem_set_memcheck(d->mem, d->cfg.memcheck);
    if (!d->mem) {
        free(d);
        return NULL;
    }
    return d;
}

void isa_device_destroy(struct isa_device *d)
{
    if (!d)
        return;
    isa_devmem_destroy(d->mem);
    isa_texobj_free_all(d);
    free(d);
}

int isa_device_set_heap(struct isa_device *d, uint64_t bytes)
{
    if (d->heap_touched)
        return PS_ENOTSUP;
    d->cfg.heap_bytes = bytes;
    return PS_OK;
}

struct isa_devmem *isa_device_mem(struct isa_device *d)
{
    return d->mem;
}

const struct isa_device_config *isa_device_config(const struct isa_device *d)
{
    return &d->cfg;
}

static uint32_t align_to(uint32_t v, uint32_t a)
{
    return a ? (v + a - 1) / a * a : v;
}

static uint32_t var_align(const struct isa_var *v)
{
    uint32_t a = v->align ? v->align : isa_type_size(v->type) * (v->vec ? v->vec : 1);

    return a ? a : 1;
}

/* Lays out a list of variables; returns the end offset or UINT32_MAX on overflow. */
static uint32_t layout(const struct isa_var *vs, uint32_t n, uint32_t *off, uint32_t start,
                       uint8_t space_a, uint8_t space_b)
{
    uint64_t cur = start;

    for (uint32_t i = 0; i < n; i++) {
        if (vs[i].space != space_a && vs[i].space != space_b) {
            continue;
        }
        cur = align_to((uint32_t)cur, var_align(&vs[i]));
        off[i] = (uint32_t)cur;
        cur += vs[i].size_bytes;
        if (cur > UINT32_MAX / 2)
            return UINT32_MAX;
    }
    return (uint32_t)cur;
}

static const struct {
    const char *name;
    enum isa_builtin b;
} builtins[] = {
    {"vprintf", ISA_BUILTIN_VPRINTF},
    {"malloc", ISA_BUILTIN_MALLOC},
    {"free", ISA_BUILTIN_FREE},
    {"__assertfail", ISA_BUILTIN_ASSERTFAIL},
};

static int image_func(struct isa_program *p, uint32_t i, struct ps_err *err)
{
    struct isa_fimage *fi = &p->fi[i];
    const struct isa_func *f = p->m->funcs[i];
    uint32_t end;
    int rc;

    fi->f = f;
    if (f->is_prototype)
        return 0;
    if (!f->has_body) {
        fi->builtin = ISA_BUILTIN_MISSING;
        for (size_t k = 0; k < sizeof(builtins) / sizeof(builtins[0]); k++)
            if (!strcmp(builtins[k].name, f->name))
                fi->builtin = (uint8_t)builtins[k].b;
        return 0;
    }
    fi->local_off = calloc(f->nlocals + 1, sizeof(uint32_t));
    fi->param_off = calloc(f->nparams + 1, sizeof(uint32_t));
    fi->ret_off = calloc(f->nrets + 1, sizeof(uint32_t));
    if (!fi->local_off || !fi->param_off || !fi->ret_off)
        return ps_err_set(err, PS_ENOMEM, "out of memory");
    end = layout(f->locals, f->nlocals, fi->local_off, 0, ISA_SPACE_LOCAL, ISA_SPACE_PARAM);
    if (f->is_entry) {
        fi->param_bytes = layout(f->params, f->nparams, fi->param_off, 0, ISA_SPACE_PARAM,
                                 ISA_SPACE_PARAM);
    } else {
        end = layout(f->params, f->nparams, fi->param_off, end, ISA_SPACE_PARAM, ISA_SPACE_PARAM);
        end = layout(f->rets, f->nrets, fi->ret_off, end, ISA_SPACE_PARAM, ISA_SPACE_PARAM);
    }
    /* .reg parameters (old PTX) are the callee's first register slots, in order. */
    for (uint32_t k = 0, slot = 0; k < f->nparams + f->nrets; k++) {
        bool is_param = k < f->nparams;
        const struct isa_var *v = is_param ? &f->params[k] : &f->rets[k - f->nparams];

        if (v->space == ISA_SPACE_REG)
            (is_param ? fi->param_off : fi->ret_off)[is_param ? k : k - f->nparams] = slot++;
    }
    if (end == UINT32_MAX || fi->param_bytes == UINT32_MAX)
        return ps_err_set(err, PS_ENOTSUP, "function '%s' has too much local memory", f->name);
    fi->frame_bytes = align_to(end, 16);
    for (uint32_t k = 0; k < f->nlocals; k++)
        if (f->locals[k].space == ISA_SPACE_SHARED && !f->is_entry)
            return ps_err_set(err, PS_ENOTSUP,
                              "'.shared' declared inside function '%s' is not supported", f->name);
    if ((rc = isa_func_check_supported(p->m, f, err)))
        return rc;
    if (isa_cfg_build(f, &fi->cfg))
        return ps_err_set(err, PS_ENOMEM, "out of memory");
    fi->cls = malloc(f->ninstrs + 1);
    if (!fi->cls)
        return ps_err_set(err, PS_ENOMEM, "out of memory");
    for (uint32_t k = 0; k < f->ninstrs; k++)
        fi->cls[k] = isa_op_info((enum isa_op)f->instrs[k].op)->xclass;
    return 0;
}

/* Writes one initialiser element of v at dst (element size esz). */
static void init_elem(const struct isa_program *p, const struct isa_var *v,
                      const struct isa_init *e, uint8_t *dst, uint32_t esz)
{
    uint64_t bits = 0;
    enum isa_type t = (enum isa_type)v->type;
    bool is_float = isa_type_info(t)->kind == ISA_TK_FLOAT;

    switch (e->kind) {
    case ISA_INIT_INT:
        bits = (uint64_t)e->v.i;
        if (is_float && esz == 4) {
            float f = (float)e->v.i;
            memcpy(&bits, &f, 4);
        } else if (is_float && esz == 8) {
            double d = (double)e->v.i;
            memcpy(&bits, &d, 8);
        }
        break;
    case ISA_INIT_F32:
    case ISA_INIT_F64:
    case ISA_INIT_FDEC: {
        double d;

        if (e->kind == ISA_INIT_F32) {
            float f;
            uint32_t b = (uint32_t)e->v.bits;
            memcpy(&f, &b, 4);
            d = f;
        } else if (e->kind == ISA_INIT_F64) {
            memcpy(&d, &e->v.bits, 8);
        } else {
            d = e->v.f;
        }
        if (esz == 4) {
            float f = (float)d;
            memcpy(&bits, &f, 4);
        } else if (esz == 8) {
            memcpy(&bits, &d, 8);
        } else {
            bits = (uint64_t)(int64_t)d;
        }
        break;
    }
    case ISA_INIT_FUNC:
        bits = ISA_FUNC_ADDR_BASE + e->sym;
        break;
    default:
        bits = p->var_addr[e->sym] + (uint64_t)e->v.i;
        break;
    }
    memcpy(dst, &bits, esz > 8 ? 8 : esz);
}

static int place_var(struct isa_program *p, uint32_t i, struct ps_err *err)
{
    const struct isa_var *v = &p->m->vars[i];
    struct isa_devmem *mem = p->dev->mem;

    if (v->space != ISA_SPACE_GLOBAL && v->space != ISA_SPACE_CONST)
        return 0;
    if (v->linkage == ISA_LINK_EXTERN && !v->has_init && v->size_bytes == 0)
        return 0;
    if (isa_devmem_alloc(mem, v->size_bytes, var_align(v), ISA_ALLOC_MODULE, &p->var_addr[i]))
        return ps_err_set(err, PS_ENOMEM, "cannot allocate device memory for '%s'", v->name);
    return 0;
}

static int init_var(struct isa_program *p, uint32_t i)
{
    const struct isa_var *v = &p->m->vars[i];
    uint32_t esz = isa_type_size(v->type);
    uint8_t *dst;

    if (!v->has_init || !p->var_addr[i] || !esz)
        return 0;
    dst = isa_devmem_ptr(p->dev->mem, p->var_addr[i], v->size_bytes);
    if (!dst)
        return PS_EFAULT;
    for (uint32_t k = 0; k < v->ninit && (uint64_t)(k + 1) * esz <= v->size_bytes; k++)
        init_elem(p, v, &v->init[k], dst + (uint64_t)k * esz, esz);
    return 0;
}

int isa_program_load(struct isa_device *d, struct isa_module *m, struct isa_program **out,
                     struct ps_err *err)
{
    struct isa_program *p = calloc(1, sizeof(*p));
    int rc = PS_ENOMEM;

    *out = NULL;
    if (!p) {
        isa_module_destroy(m);
        return ps_err_set(err, PS_ENOMEM, "out of memory");
    }
    p->dev = d;
    p->m = m;
    p->fi = calloc(m->nfuncs + 1, sizeof(*p->fi));
    p->ki = calloc(m->nfuncs + 1, sizeof(*p->ki));
    p->var_addr = calloc(m->nvars + 1, sizeof(uint64_t));
    if (!p->fi || !p->ki || !p->var_addr) {
        ps_err_set(err, PS_ENOMEM, "out of memory");
        goto fail;
    }
    for (uint32_t i = 0; i < m->nvars; i++)
        if ((rc = place_var(p, i, err)))
            goto fail;
    for (uint32_t i = 0; i < m->nvars; i++)
        init_var(p, i);
    for (uint32_t i = 0; i < m->nfuncs; i++)
        if ((rc = image_func(p, i, err)))
            goto fail;
    *out = p;
    return 0;
fail:
    isa_program_unload(p);
    return rc ? rc : PS_ENOMEM;
}

void isa_program_unload(struct isa_program *p)
{
    if (!p)
        return;
    for (uint32_t i = 0; p->var_addr && i < p->m->nvars; i++)
        if (p->var_addr[i])
            isa_devmem_free(p->dev->mem, p->var_addr[i]);
    for (uint32_t i = 0; p->fi && i < p->m->nfuncs; i++) {
        free(p->fi[i].local_off);
        free(p->fi[i].param_off);
        free(p->fi[i].ret_off);
        free(p->fi[i].cls);
        isa_cfg_free(&p->fi[i].cfg);
        if (p->ki)
            free(p->ki[i].shared_off);
    }
    free(p->fi);
    free(p->ki);
    free(p->var_addr);
    isa_module_destroy(p->m);
    free(p);
}

const struct isa_module *isa_program_module(const struct isa_program *p)
{
    return p->m;
}

uint32_t isa_program_find_kernel(const struct isa_program *p, const char *name)
{
    for (uint32_t i = 0; i < p->m->nfuncs; i++)
        if (p->m->funcs[i]->is_entry && p->m->funcs[i]->has_body &&
            !strcmp(p->m->funcs[i]->name, name))
            return i;
    return UINT32_MAX;
}

int isa_program_var(const struct isa_program *p, const char *name, uint64_t *addr, uint64_t *size)
{
    uint32_t i = isa_module_find_var(p->m, name);

    if (i == ISA_NONE || !p->var_addr[i])
        return PS_ENOTFOUND;
    *addr = p->var_addr[i];
    *size = p->m->vars[i].size_bytes;
    return 0;
}

uint32_t isa_kernel_nparams(const struct isa_program *p, uint32_t kernel)
{
    return p->m->funcs[kernel]->nparams;
}

int isa_kernel_param(const struct isa_program *p, uint32_t kernel, uint32_t i, uint32_t *offset,
                     uint32_t *size)
{
    const struct isa_func *f = p->m->funcs[kernel];

    if (i >= f->nparams)
        return PS_EINVAL;
    *offset = p->fi[kernel].param_off[i];
    *size = (uint32_t)f->params[i].size_bytes;
    return 0;
}
