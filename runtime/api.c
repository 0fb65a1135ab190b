/* The public C API (runtime/ptxsim.h) over the functional engine. */
#include "runtime/ptxsim.h"

#include <stdlib.h>
#include <string.h>

#include "frontend/ptx_parse.h"
#include "isa/devmem.h"
#include "isa/engine.h"
#include "isa/module.h"
#include "isa/resources.h"
#include "isa/texture.h"
#include "timing/gpu.h"

struct ptxsim_device {
    struct isa_device *dev;
    struct tm_gpu *gpu; /* timing mode; NULL for functional */
    struct ps_err last;
    struct ps_err fault; /* sticky */
    uint64_t warp_insts, thread_insts;
    uint64_t max_thread_insts; /* functional-mode -gpgpu_max_insn; 0 = none */
};

struct ptxsim_module {
    struct ptxsim_device *d;
    struct isa_program *prog;
};

void ptxsim_options_default(struct ptxsim_options *o)
{
    struct isa_device_config c;

    isa_device_config_default(&c);
    memset(o, 0, sizeof(*o));
    o->insn_budget = c.insn_budget;
    o->local_per_thread = c.local_per_thread;
    o->shared_per_cta = c.shared_per_cta;
    o->max_threads_per_cta = c.max_threads_per_cta;
    o->nsm = c.nsm;
    o->heap_bytes = c.heap_bytes;
}

int ptxsim_device_create(const struct ptxsim_options *o, struct ptxsim_device **out)
{
    struct ptxsim_options def;
    struct isa_device_config c;
    struct ptxsim_device *d = calloc(1, sizeof(*d));

    *out = NULL;
    if (!d)
        return PS_ENOMEM;
    if (!o) {
        ptxsim_options_default(&def);
        o = &def;
    }
    isa_device_config_default(&c);
    c.insn_budget = o->insn_budget;
    c.local_per_thread = o->local_per_thread;
    c.shared_per_cta = o->shared_per_cta;
    c.max_threads_per_cta = o->max_threads_per_cta;
    c.nsm = o->nsm;
    c.heap_bytes = o->heap_bytes;
    c.memcheck = o->memcheck != 0;
    c.printf_out = o->printf_out;
    c.stop = o->stop;
    d->max_thread_insts = o->max_thread_insts;
    d->dev = isa_device_create(&c);
    if (!d->dev) {
        free(d);
        return PS_ENOMEM;
    }
    if (o->timing) {
        int rc = tm_gpu_create(o->timing, d->dev, &d->gpu, &d->last);

        if (rc) {
            if (o->timing_err)
                *o->timing_err = d->last;
            isa_device_destroy(d->dev);
            free(d);
            return rc;
        }
    }
    *out = d;
    return 0;
}

void ptxsim_device_destroy(struct ptxsim_device *d)
{
    if (!d)
        return;
    tm_gpu_destroy(d->gpu);
    isa_device_destroy(d->dev);
    free(d);
}

static int fail(struct ptxsim_device *d, int code, const char *msg)
{
    return ps_err_set(&d->last, code, "%s", msg);
}

/* Loads a parsed module (or reports the parse error already in d->last). */
static int load_parsed(struct ptxsim_device *d, struct isa_module *m, struct ptxsim_module **out)
{
    struct ptxsim_module *pm;
    int rc;

    if (!m)
        return d->last.code;
    pm = calloc(1, sizeof(*pm));
    if (!pm) {
        isa_module_destroy(m);
        return fail(d, PS_ENOMEM, "out of memory");
    }
    rc = isa_program_load(d->dev, m, &pm->prog, &d->last);
    if (rc) {
        free(pm);
        return rc;
    }
    pm->d = d;
    *out = pm;
    return 0;
}

int ptxsim_module_load(struct ptxsim_device *d, const char *text, size_t len, const char *name,
                       struct ptxsim_module **out)
{
    *out = NULL;
    ps_err_clear(&d->last);
    if (!len) /* as documented: a NUL-terminated text may be passed without its length */
        len = strlen(text);
    return load_parsed(d, ptx_parse(text, len, name, &d->last), out);
}

int ptxsim_module_load_file(struct ptxsim_device *d, const char *path, struct ptxsim_module **out)
{
    *out = NULL;
    ps_err_clear(&d->last);
    return load_parsed(d, ptx_parse_file(path, &d->last), out);
}

void ptxsim_module_unload(struct ptxsim_module *m)
{
    if (!m)
        return;
    isa_program_unload(m->prog);
    free(m);
}

int ptxsim_module_symbol(struct ptxsim_module *m, const char *name, uint64_t *addr, size_t *size)
{
    uint64_t sz = 0;

    if (isa_program_var(m->prog, name, addr, &sz))
        return ps_err_set(&m->d->last, PS_ENOTFOUND, "no device variable named '%s'", name);
    *size = (size_t)sz;
    return 0;
}

uint32_t ptxsim_module_kernel_count(const struct ptxsim_module *m)
{
    const struct isa_module *mod = isa_program_module(m->prog);
    uint32_t n = 0;

    for (uint32_t i = 0; i < mod->nfuncs; i++)
        n += mod->funcs[i]->is_entry && mod->funcs[i]->has_body;
    return n;
}

const char *ptxsim_module_kernel_name(const struct ptxsim_module *m, uint32_t i)
{
    const struct isa_module *mod = isa_program_module(m->prog);

    for (uint32_t k = 0; k < mod->nfuncs; k++)
        if (mod->funcs[k]->is_entry && mod->funcs[k]->has_body && i-- == 0)
            return mod->funcs[k]->name;
    return NULL;
}

int ptxsim_module_set_kernel_regs(struct ptxsim_module *m, const char *name, uint32_t regs,
                                  uint32_t sm)
{
    uint32_t k = isa_program_find_kernel(m->prog, name);

    if (k == UINT32_MAX)
        return PS_ENOTFOUND;
    m->prog->ki[k].regs_hw = regs;
    m->prog->ki[k].regs_hw_sm = sm;
    return 0;
}

int ptxsim_kernel_info(struct ptxsim_module *m, const char *name, struct ptxsim_kernel_info *info)
{
    const struct isa_module *mod = isa_program_module(m->prog);
    uint32_t k = isa_program_find_kernel(m->prog, name);
    const struct isa_func *f;
    struct isa_resources r;

    memset(info, 0, sizeof(*info));
    if (k == UINT32_MAX)
        return ps_err_set(&m->d->last, PS_ENOTFOUND, "no kernel named '%s'", name);
    f = mod->funcs[k];
    if (f->nparams > PTXSIM_MAX_PARAMS)
        return ps_err_set(&m->d->last, PS_ENOTSUP, "kernel '%s' has more than %d parameters", name,
                          PTXSIM_MAX_PARAMS);
    if (isa_resources_of(mod, k, &r))
        return ps_err_set(&m->d->last, PS_ENOMEM, "out of memory");
    info->name = f->name;
    info->nparams = f->nparams;
    for (uint32_t i = 0; i < f->nparams; i++) {
        isa_kernel_param(m->prog, k, i, &info->param_offset[i], &info->param_size[i]);
        info->param_ptr_space[i] = f->params[i].is_ptr ? f->params[i].ptr_space : 0;
        if (f->params[i].type == ISA_TYPE_TEXREF || f->params[i].type == ISA_TYPE_SAMPLERREF ||
            f->params[i].type == ISA_TYPE_SURFREF)
            info->param_ptr_space[i] = ISA_SPACE_GLOBAL; /* an OpenCL image or sampler object */
    }
    info->static_shared = isa_kernel_static_shared(m->prog, k);
    info->regs = r.regs32;
    info->local_bytes = r.local_bytes;
    info->const_bytes = r.const_bytes;
    for (int d = 0; d < 3; d++) {
        info->reqntid[d] = d < f->perf.reqntid_n ? f->perf.reqntid[d] : 0;
        info->maxntid[d] = d < f->perf.maxntid_n ? f->perf.maxntid[d] : 0;
    }
    return 0;
}

int ptxsim_malloc(struct ptxsim_device *d, size_t size, uint64_t *addr)
{
    if (isa_devmem_alloc(isa_device_mem(d->dev), size, 256, ISA_ALLOC_DEVICE, addr))
        return ps_err_set(&d->last, PS_ENOMEM, "cannot allocate %zu bytes of device memory", size);
    return 0;
}

int ptxsim_set_heap(struct ptxsim_device *d, uint64_t bytes)
{
    if (isa_device_set_heap(d->dev, bytes))
        return ps_err_set(&d->last, PS_ENOTSUP,
                          "the malloc heap's size is fixed once a kernel has called malloc");
    return 0;
}

int ptxsim_texobj_create(struct ptxsim_device *d, const struct isa_texobj *t, uint64_t *handle)
{
    int rc = isa_texobj_create(d->dev, t, handle);

    return rc ? ps_err_set(&d->last, rc, "cannot create the texture or surface object") : 0;
}

int ptxsim_texobj_destroy(struct ptxsim_device *d, uint64_t handle)
{
    if (isa_texobj_destroy(d->dev, handle))
        return ps_err_set(&d->last, PS_EINVAL, "0x%llx is not a live texture or surface object",
                          (unsigned long long)handle);
    return 0;
}

const struct isa_texobj *ptxsim_texobj_get(const struct ptxsim_device *d, uint64_t handle,
                                           bool surface)
{
    return isa_texobj_get(d->dev, handle, surface);
}

int ptxsim_free(struct ptxsim_device *d, uint64_t addr)
{
    if (!addr)
        return 0;
    if (isa_devmem_free(isa_device_mem(d->dev), addr))
        return ps_err_set(&d->last, PS_EINVAL, "0x%llx is not the start of a device allocation",
                          (unsigned long long)addr);
    return 0;
}

int ptxsim_map_host(struct ptxsim_device *d, void *host, size_t size)
{
    if (isa_devmem_map(isa_device_mem(d->dev), (uint64_t)(uintptr_t)host, host, size,
                       ISA_ALLOC_MANAGED))
        return ps_err_set(&d->last, PS_EINVAL, "cannot map %zu bytes of host memory", size);
    return 0;
}

int ptxsim_map_host_readonly(struct ptxsim_device *d, void *host, size_t size)
{
    int rc = ptxsim_map_host(d, host, size);

    if (!rc && isa_devmem_set_readonly(isa_device_mem(d->dev), (uint64_t)(uintptr_t)host)) {
        ptxsim_free(d, (uint64_t)(uintptr_t)host);
        return ps_err_set(&d->last, PS_ENOMEM, "out of memory");
    }
    return rc;
}

int ptxsim_pointer_kind(struct ptxsim_device *d, uint64_t addr, uint64_t *base, size_t *size)
{
    const struct isa_alloc *a = isa_devmem_find(isa_device_mem(d->dev), addr, 1);

    if (!a)
        return 0;
    *base = a->addr;
    *size = (size_t)a->size;
    return a->kind + 1;
}

int ptxsim_memcpy_htod_cold(struct ptxsim_device *d, uint64_t dst, const void *src, size_t n)
{
    return isa_devmem_write(isa_device_mem(d->dev), dst, src, n, &d->last);
}

int ptxsim_memcpy_dtoh_cold(struct ptxsim_device *d, void *dst, uint64_t src, size_t n)
{
    return isa_devmem_read(isa_device_mem(d->dev), src, dst, n, &d->last);
}

int ptxsim_memcpy_htod(struct ptxsim_device *d, uint64_t dst, const void *src, size_t n)
{
    int rc = ptxsim_memcpy_htod_cold(d, dst, src, n);

    if (!rc && d->gpu)
        tm_gpu_host_copy(d->gpu, dst, n);
    return rc;
}

int ptxsim_memcpy_dtoh(struct ptxsim_device *d, void *dst, uint64_t src, size_t n)
{
    int rc = ptxsim_memcpy_dtoh_cold(d, dst, src, n);

    if (!rc && d->gpu)
        tm_gpu_host_copy(d->gpu, src, n);
    return rc;
}

int ptxsim_memcpy_dtod(struct ptxsim_device *d, uint64_t dst, uint64_t src, size_t n)
{
    struct isa_devmem *mem = isa_device_mem(d->dev);
    uint8_t *s = n ? isa_devmem_ptr(mem, src, n) : NULL,
            *t = n ? isa_devmem_ptr(mem, dst, n) : NULL;

    if (!n)
        return 0;
    if (!s || !t)
        return ps_err_set(&d->last, PS_EFAULT, "device-to-device copy outside an allocation");
    memmove(t, s, n);
    return 0;
}

int ptxsim_memset(struct ptxsim_device *d, uint64_t dst, int value, size_t n)
{
    return isa_devmem_set(isa_device_mem(d->dev), dst, value, n, &d->last);
}

int ptxsim_launch(struct ptxsim_module *m, const char *name, struct ptxsim_dim3 grid,
                  struct ptxsim_dim3 block, uint32_t dyn_shared, void *const *args)
{
    struct ptxsim_device *d = m->d;
    struct isa_launch_stats st = {0};
    struct isa_launch_desc ld;
    uint32_t k = isa_program_find_kernel(m->prog, name);
    int rc;

    if (k == UINT32_MAX)
        return ps_err_set(&d->last, PS_ENOTFOUND, "no kernel named '%s'", name);
    memset(&ld, 0, sizeof(ld));
    ld.kernel = k;
    ld.grid[0] = grid.x, ld.grid[1] = grid.y, ld.grid[2] = grid.z;
    ld.block[0] = block.x, ld.block[1] = block.y, ld.block[2] = block.z;
    ld.dyn_shared = dyn_shared;
    ld.args = args;
    if (d->gpu) {
        rc = tm_gpu_launch(d->gpu, m->prog, &ld, &d->last);
        st.warp_insts = tm_gpu_last(d->gpu)->c.warp_insts;
        st.thread_insts = tm_gpu_last(d->gpu)->c.thread_insts;
    } else {
        if (d->max_thread_insts && d->thread_insts >= d->max_thread_insts)
            return ps_err_set(&d->last, PS_ERUNAWAY,
                              "stopped at the instruction cap (-gpgpu_max_insn %llu): no "
                              "instructions left for this launch",
                              (unsigned long long)d->max_thread_insts);
        ld.thread_cap = d->max_thread_insts ? d->max_thread_insts - d->thread_insts : 0;
        rc = isa_launch_run(m->prog, &ld, &st, &d->last);
    }
    d->warp_insts += st.warp_insts;
    d->thread_insts += st.thread_insts;
    if (rc && d->last.has_fault && !d->fault.code)
        d->fault = d->last;
    return rc;
}

unsigned ptxsim_kernel_slots(const struct ptxsim_device *d)
{
    return d->gpu ? tm_gpu_free_slots(d->gpu) + tm_gpu_in_flight(d->gpu) : 0;
}

unsigned ptxsim_kernels_in_flight(const struct ptxsim_device *d)
{
    return d->gpu ? tm_gpu_in_flight(d->gpu) : 0;
}

int ptxsim_pack_params(struct ptxsim_module *m, const char *name, void *const *args, void **buf,
                       uint32_t *bytes)
{
    uint32_t k = isa_program_find_kernel(m->prog, name), n, end = 0, off, size;
    uint8_t *b;

    *buf = NULL;
    if (k == UINT32_MAX)
        return ps_err_set(&m->d->last, PS_ENOTFOUND, "no kernel named '%s'", name);
    n = isa_kernel_nparams(m->prog, k);
    for (uint32_t i = 0; i < n; i++)
        if (!isa_kernel_param(m->prog, k, i, &off, &size) && off + size > end)
            end = off + size;
    if (n && !args)
        return ps_err_set(&m->d->last, PS_EINVAL, "kernel '%s' needs %u arguments", name, n);
    /* Padded: the layout may round the buffer up past the last parameter. */
    if (!(b = calloc(1, (size_t)end + 256)))
        return ps_err_set(&m->d->last, PS_ENOMEM, "out of memory");
    for (uint32_t i = 0; i < n; i++) {
        if (isa_kernel_param(m->prog, k, i, &off, &size) || !args[i]) {
            free(b);
            return ps_err_set(&m->d->last, PS_EINVAL, "argument %u of kernel '%s' is NULL", i,
                              name);
        }
        memcpy(b + off, args[i], size);
    }
    *buf = b;
    *bytes = end + 256;
    return 0;
}

int ptxsim_launch_start(struct ptxsim_module *m, const char *name, struct ptxsim_dim3 grid,
                        struct ptxsim_dim3 block, uint32_t dyn_shared, const void *params,
                        uint32_t param_bytes, struct ptxsim_run **out)
{
    struct ptxsim_device *d = m->d;
    struct isa_launch_desc ld;
    uint32_t k = isa_program_find_kernel(m->prog, name);

    *out = NULL;
    if (!d->gpu)
        return ps_err_set(&d->last, PS_ENOTSUP, "concurrent launches need the timing model");
    if (k == UINT32_MAX)
        return ps_err_set(&d->last, PS_ENOTFOUND, "no kernel named '%s'", name);
    memset(&ld, 0, sizeof(ld));
    ld.kernel = k;
    ld.grid[0] = grid.x, ld.grid[1] = grid.y, ld.grid[2] = grid.z;
    ld.block[0] = block.x, ld.block[1] = block.y, ld.block[2] = block.z;
    ld.dyn_shared = dyn_shared;
    ld.param_buf = params;
    ld.param_bytes = param_bytes;
    return tm_gpu_submit(d->gpu, m->prog, &ld, (struct tm_kernel **)out, &d->last);
}

void ptxsim_run_wait(struct ptxsim_device *d, struct ptxsim_run *r)
{
    if (d->gpu)
        tm_gpu_wait(d->gpu, (struct tm_kernel *)r);
}

bool ptxsim_run_done(const struct ptxsim_run *r)
{
    return tm_kernel_done((const struct tm_kernel *)r);
}

int ptxsim_run_finish(struct ptxsim_device *d, struct ptxsim_run *r, struct tm_stats *stats)
{
    struct tm_kernel *k = (struct tm_kernel *)r;
    int rc = tm_kernel_result(k, &d->last);

    *stats = *tm_kernel_stats(k);
    d->warp_insts += stats->c.warp_insts;
    d->thread_insts += stats->c.thread_insts;
    if (rc && d->last.has_fault && !d->fault.code)
        d->fault = d->last;
    tm_kernel_free(k);
    return rc;
}

double ptxsim_timing_time_ns(const struct ptxsim_device *d)
{
    return d->gpu ? tm_gpu_time_ns(d->gpu) : 0;
}

void ptxsim_abandon(struct ptxsim_device *d)
{
    if (d)
        isa_device_abandon(d->dev);
}

uint64_t ptxsim_outside_accesses(const struct ptxsim_device *d)
{
    return d ? isa_devmem_outside_count(isa_device_mem(d->dev)) : 0;
}

int ptxsim_synchronize(struct ptxsim_device *d)
{
    return d->fault.code;
}

void ptxsim_clear_fault(struct ptxsim_device *d)
{
    ps_err_clear(&d->fault);
}

int ptxsim_last_error(const struct ptxsim_device *d)
{
    return d->last.code;
}

const struct ps_err *ptxsim_last_error_info(const struct ptxsim_device *d)
{
    return &d->last;
}

uint64_t ptxsim_warp_insts(const struct ptxsim_device *d)
{
    return d->warp_insts;
}

uint64_t ptxsim_thread_insts(const struct ptxsim_device *d)
{
    return d->thread_insts;
}

const struct tm_stats *ptxsim_timing_last(const struct ptxsim_device *d)
{
    return d->gpu ? tm_gpu_last(d->gpu) : NULL;
}

const struct tm_stats *ptxsim_timing_total(const struct ptxsim_device *d)
{
    return d->gpu ? tm_gpu_total(d->gpu) : NULL;
}

const struct ps_config *ptxsim_timing_config(const struct ptxsim_device *d)
{
    return d->gpu ? tm_gpu_config(d->gpu) : NULL;
}
