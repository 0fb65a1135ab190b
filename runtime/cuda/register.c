/*
 * Registration: the calls nvcc's generated host code makes from static
 * constructors (__cudaRegisterFatBinary, one __cudaRegisterFunction /
 * __cudaRegisterVar / __cudaRegisterManagedVar per entity,
 * __cudaRegisterFatBinaryEnd) and at exit (__cudaUnregisterFatBinary).
 *
 * A fatbin's containers are parsed at registration (cheap: headers only);
 * its PTX is decompressed, parsed and loaded on first use, so programs pay
 * only for the modules they run. A load error is printed once, with the
 * parser's file:line:col, and every later use of the image returns it.
 */
#define _GNU_SOURCE /* program_invocation_short_name */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "frontend/cubin.h"
#include "runtime/cuda/cudart.h"
#include "runtime/cuda/sched.h"

/* Declared by crt/host_runtime.h, which is C++ only. */
RT_API void **__cudaRegisterFatBinary(void *fatCubin);
RT_API void __cudaRegisterFatBinaryEnd(void **fatCubinHandle);
RT_API void __cudaUnregisterFatBinary(void **fatCubinHandle);
RT_API void __cudaRegisterFunction(void **fatCubinHandle, const char *hostFun, char *deviceFun,
                                   const char *deviceName, int thread_limit, uint3 *tid, uint3 *bid,
                                   dim3 *bDim, dim3 *gDim, int *wSize);
RT_API void __cudaRegisterVar(void **fatCubinHandle, char *hostVar, char *deviceAddress,
                              const char *deviceName, int ext, size_t size, int constant,
                              int global);
RT_API void __cudaRegisterManagedVar(void **fatCubinHandle, void **hostVarPtrAddress,
                                     char *deviceAddress, const char *deviceName, int ext,
                                     size_t size, int constant, int global);
RT_API char __cudaInitModule(void **fatCubinHandle);

#define RT_VAR_ALIGN 256

static struct rt_fatbin *fatbin_of(struct rt_ctx *c, void **handle)
{
    for (struct rt_fatbin *fb = c->fatbins; fb; fb = fb->next)
        if ((void **)fb == handle)
            return fb;
    return NULL;
}

static void report(struct rt_fatbin *fb, const struct ps_err *err)
{
    if (fb->reported)
        return;
    fb->reported = true;
    fprintf(stderr, "ptxsim: cannot load the device code of %s: ", fb->name);
    if (err->file[0] || err->line)
        ps_err_print(err, stderr);
    else
        fprintf(stderr, "%s\n", err->msg);
}

void **__cudaRegisterFatBinary(void *fatCubin)
{
    struct rt_ctx *c;
    struct rt_fatbin *fb;
    struct ps_err err;
    unsigned sm = 0;

    if (rt_lock(&c))
        return NULL;
    fb = calloc(1, sizeof(*fb));
    if (!fb) {
        rt_unlock(c, cudaErrorMemoryAllocation);
        return NULL;
    }
    ps_err_clear(&err);
    fb->wrapper = fatCubin;
    fb->ptx_index = -1;
    if (fatbin_parse_wrapper(fatCubin, &fb->fb, &err)) {
        fb->parse_err = cudaErrorInvalidKernelImage;
    } else if (fatbin_wrapper_prelinked(fatCubin) && fatbin_wrapper_prelinked(fatCubin)[0]) {
        fb->parse_err = rt_rdc_parse(fb, fatbin_wrapper_prelinked(fatCubin), &err);
        sm = fb->parse_err ? 0 : rt_rdc_sm(fb);
    } else if ((fb->ptx_index = fatbin_pick_ptx(&fb->fb, 0)) < 0) {
        fb->parse_err = cudaErrorNoKernelImageForDevice;
        ps_err_set(&err, PS_ENOTFOUND,
                   "the fatbin holds no PTX, only cubins: build with "
                   "-arch=sm_XX or -gencode ...,code=compute_XX to embed PTX");
    } else {
        sm = fb->fb.entries[fb->ptx_index].sm;
    }
    if (sm)
        snprintf(fb->name, sizeof(fb->name), "%s.%u.sm_%u.ptx", program_invocation_short_name,
                 ++c->nfatbins, sm);
    else
        snprintf(fb->name, sizeof(fb->name), "%s.%u", program_invocation_short_name, ++c->nfatbins);
    if (fb->parse_err) {
        fb->load_err = fb->parse_err;
        report(fb, &err);
    }
    fb->next = c->fatbins;
    c->fatbins = fb;
    rt_unlock(c, cudaSuccess);
    return (void **)fb;
}

void __cudaRegisterFatBinaryEnd(void **fatCubinHandle)
{
    (void)fatCubinHandle;
}

static void free_vars(struct rt_ctx *c, struct rt_fatbin *fb)
{
    for (struct rt_var **pv = &c->vars; *pv;) {
        struct rt_var *v = *pv;

        if (fb && v->fb != fb) {
            pv = &v->next;
            continue;
        }
        *pv = v->next;
        if (v->own_host)
            rt_host_free(c, (void *)(uintptr_t)v->host, RT_HOST_VARS);
        free(v->name);
        free(v);
    }
}

/* Kernels of fb (or all) move to the retired list: their names back the statistics. */
static void retire_kernels(struct rt_ctx *c, struct rt_fatbin *fb)
{
    for (struct rt_kernel **pk = &c->kernels; *pk;) {
        struct rt_kernel *k = *pk;

        if (fb && k->fb != fb) {
            pk = &k->next;
            continue;
        }
        *pk = k->next;
        k->fb = NULL;
        k->next = c->retired;
        c->retired = k;
    }
}

void rt_fatbin_destroy(struct rt_ctx *c, struct rt_fatbin *fb)
{
    retire_kernels(c, fb);
    free_vars(c, fb);
    ptxsim_module_unload(fb->mod);
    if (fb->managed_host)
        rt_host_free(c, fb->managed_host, RT_HOST_VARS);
    fatbin_free(&fb->fb);
    rt_rdc_free(fb);
    free(fb->ptx);
    free(fb->image_copy);
    free(fb);
}

void __cudaUnregisterFatBinary(void **fatCubinHandle)
{
    struct rt_ctx *c;

    if (rt_lock_for_exit(&c))
        return;
    rt_sched_drain(c); /* work the program queued and never waited for runs before exit */
    for (struct rt_fatbin **pf = &c->fatbins; *pf; pf = &(*pf)->next) {
        if ((void **)*pf == fatCubinHandle) {
            struct rt_fatbin *fb = *pf;

            *pf = fb->next;
            rt_fatbin_destroy(c, fb);
            break;
        }
    }
    rt_unlock(c, cudaSuccess);
}

void rt_registry_free(struct rt_ctx *c)
{
    while (c->fatbins) {
        struct rt_fatbin *fb = c->fatbins;

        c->fatbins = fb->next;
        rt_fatbin_destroy(c, fb);
    }
    retire_kernels(c, NULL);
    free_vars(c, NULL);
    while (c->retired) {
        struct rt_kernel *k = c->retired;

        c->retired = k->next;
        free(k->name);
        free(k);
    }
}

void __cudaRegisterFunction(void **fatCubinHandle, const char *hostFun, char *deviceFun,
                            const char *deviceName, int thread_limit, uint3 *tid, uint3 *bid,
                            dim3 *bDim, dim3 *gDim, int *wSize)
{
    struct rt_ctx *c;
    struct rt_fatbin *fb;
    struct rt_kernel *k;

    (void)deviceFun, (void)thread_limit, (void)tid, (void)bid, (void)bDim, (void)gDim;
    (void)wSize;
    if (rt_lock(&c))
        return;
    fb = fatbin_of(c, fatCubinHandle);
    k = fb && deviceName ? calloc(1, sizeof(*k)) : NULL;
    if (k && !(k->name = strdup(deviceName))) {
        free(k);
        k = NULL;
    }
    if (k) {
        k->fb = fb;
        k->host_fun = hostFun;
        k->max_dyn_shared = -1;
        k->next = c->kernels;
        c->kernels = k;
    }
    rt_unlock(c, cudaSuccess);
}

static void add_var(void **handle, const void *host, void **managed_ptr, const char *name,
                    size_t size)
{
    struct rt_ctx *c;
    struct rt_fatbin *fb;
    struct rt_var *v;

    if (rt_lock(&c))
        return;
    fb = fatbin_of(c, handle);
    v = fb && name ? calloc(1, sizeof(*v)) : NULL;
    if (v && !(v->name = strdup(name))) {
        free(v);
        v = NULL;
    }
    if (v) {
        v->fb = fb;
        v->host = host;
        v->managed_ptr = managed_ptr;
        v->managed = managed_ptr != NULL;
        v->size = size;
        v->next = c->vars;
        c->vars = v;
    }
    rt_unlock(c, cudaSuccess);
}

void __cudaRegisterVar(void **fatCubinHandle, char *hostVar, char *deviceAddress,
                       const char *deviceName, int ext, size_t size, int constant, int global)
{
    (void)deviceAddress, (void)ext, (void)constant, (void)global;
    add_var(fatCubinHandle, hostVar, NULL, deviceName, size);
}

/*
 * A __managed__ variable: the program reaches it through *hostVarPtrAddress
 * once __cudaInitModule has run. It points to a host copy that the device
 * can also address (mapped host memory); the copy and the module variable
 * are kept equal around every launch (see rt_managed_sync).
 */
void __cudaRegisterManagedVar(void **fatCubinHandle, void **hostVarPtrAddress, char *deviceAddress,
                              const char *deviceName, int ext, size_t size, int constant,
                              int global)
{
    (void)deviceAddress, (void)ext, (void)constant, (void)global;
    if (hostVarPtrAddress)
        add_var(fatCubinHandle, NULL, hostVarPtrAddress, deviceName, size);
}

static size_t var_span(size_t size)
{
    return (size + RT_VAR_ALIGN - 1) / RT_VAR_ALIGN * RT_VAR_ALIGN;
}

/* Gives fb's managed variables their host copies (zero-filled until the module loads). */
static cudaError_t managed_setup(struct rt_ctx *c, struct rt_fatbin *fb)
{
    size_t total = 0, off = 0;
    cudaError_t e;
    char *base;

    if (fb->managed_host)
        return cudaSuccess;
    for (struct rt_var *v = c->vars; v; v = v->next)
        if (v->fb == fb && v->managed && !v->own_host)
            total += var_span(v->size);
    if (!total)
        return cudaSuccess;
    e = rt_host_alloc(c, total, RT_HOST_VARS, 0, &fb->managed_host);
    if (e)
        return e;
    base = fb->managed_host;
    for (struct rt_var *v = c->vars; v; v = v->next) {
        if (v->fb != fb || !v->managed || v->own_host)
            continue;
        v->host = base + off;
        *v->managed_ptr = base + off;
        off += var_span(v->size);
    }
    return cudaSuccess;
}

/* Finds the module variables behind fb's managed variables; copies initial values once. */
static cudaError_t managed_bind(struct rt_ctx *c, struct rt_fatbin *fb)
{
    for (struct rt_var *v = c->vars; v; v = v->next) {
        size_t size;

        if (v->fb != fb || !v->managed)
            continue;
        if (ptxsim_module_symbol(fb->mod, v->name, &v->dev_addr, &size) || size < v->size)
            return cudaErrorInvalidSymbol;
        if (!fb->managed_init &&
            ptxsim_memcpy_dtoh(c->dev, (void *)(uintptr_t)v->host, v->dev_addr, v->size))
            return cudaErrorInvalidSymbol;
    }
    fb->managed_init = true;
    return cudaSuccess;
}

/* PTXSIM_DUMP_PTX=DIR: write each loaded PTX module there, for reading fault line numbers. */
static void dump_ptx(const struct rt_fatbin *fb)
{
    const char *dir = getenv("PTXSIM_DUMP_PTX");
    char path[4096];
    FILE *fp;

    if (!dir || !*dir)
        return;
    snprintf(path, sizeof(path), "%s/%s", dir, fb->name);
    fp = fopen(path, "w");
    if (!fp || fwrite(fb->ptx, 1, fb->ptx_len, fp) != fb->ptx_len)
        fprintf(stderr, "ptxsim: PTXSIM_DUMP_PTX: cannot write %s: %s\n", path, strerror(errno));
    if (fp)
        fclose(fp);
}

/*
 * The register counts ptxas gave the kernels, from the fatbin's cubin for
 * the PTX's architecture (else the newest cubin), so the timing model sizes
 * CTAs as GPGPU-Sim does with ptxas's counts. A fatbin without a cubin, or
 * a cubin that cannot be read, leaves the PTX liveness estimate in place.
 */
static void use_cubin_regs(struct rt_fatbin *fb)
{
    uint32_t want, pick = 0;

    if (fb->ptx_index < 0) /* -rdc programs: PTX linked from several units, no one cubin */
        return;
    want = fb->fb.entries[fb->ptx_index].sm;

    for (uint32_t i = 0; i < fb->fb.nentries; i++) {
        const struct fatbin_entry *e = &fb->fb.entries[i];

        if (e->kind == FATBIN_ELF && pick != want && (e->sm == want || e->sm > pick))
            pick = e->sm;
    }
    /* nvcc may put several ELF entries of one architecture in a fatbin; not all hold code. */
    for (uint32_t i = 0; pick && i < fb->fb.nentries; i++) {
        const struct fatbin_entry *e = &fb->fb.entries[i];
        struct cubin_kernel *k = NULL;
        struct ps_err err;
        uint32_t n = 0;
        uint8_t *data;
        size_t len;

        if (e->kind != FATBIN_ELF || e->sm != pick || fatbin_entry_data(e, &data, &len, &err))
            continue;
        if (!cubin_kernels(data, len, &k, &n, &err))
            for (uint32_t j = 0; j < n; j++)
                ptxsim_module_set_kernel_regs(fb->mod, k[j].name, k[j].regs, pick);
        cubin_kernels_free(k, n);
        free(data);
    }
}

static cudaError_t load_ptx(struct rt_ctx *c, struct rt_fatbin *fb)
{
    struct ps_err err;
    uint8_t *data;
    int rc;

    ps_err_clear(&err);
    if (!fb->ptx && fb->nunits) {
        if ((rc = rt_rdc_link(fb, &err))) {
            report(fb, &err);
            return rc == PS_ENOMEM ? cudaErrorMemoryAllocation : cudaErrorInvalidKernelImage;
        }
        dump_ptx(fb);
    } else if (!fb->ptx) {
        rc = fatbin_entry_data(&fb->fb.entries[fb->ptx_index], &data, &fb->ptx_len, &err);
        if (rc) {
            report(fb, &err);
            return rc == PS_ENOMEM ? cudaErrorMemoryAllocation : cudaErrorInvalidKernelImage;
        }
        fb->ptx = (char *)data;
        dump_ptx(fb);
    } else if (fb->driver) {
        dump_ptx(fb); /* a driver module from PTX text (drv_module.c) */
    }
    rc = ptxsim_module_load(c->dev, fb->ptx, fb->ptx_len, fb->name, &fb->mod);
    if (rc) {
        report(fb, ptxsim_last_error_info(c->dev));
        return rc == PS_ENOMEM ? cudaErrorMemoryAllocation : cudaErrorInvalidKernelImage;
    }
    use_cubin_regs(fb);
    c->dev_used = true;
    return cudaSuccess;
}

cudaError_t rt_fatbin_load(struct rt_ctx *c, struct rt_fatbin *fb)
{
    cudaError_t e;

    if (fb->mod)
        return cudaSuccess;
    if (fb->load_err)
        return fb->load_err;
    e = managed_setup(c, fb);
    if (!e)
        e = load_ptx(c, fb);
    if (!e && (e = managed_bind(c, fb)) != cudaSuccess) {
        ptxsim_module_unload(fb->mod);
        fb->mod = NULL;
    }
    if (e != cudaErrorMemoryAllocation)
        fb->load_err = e;
    return e;
}

char __cudaInitModule(void **fatCubinHandle)
{
    struct rt_ctx *c;
    struct rt_fatbin *fb;
    cudaError_t e;

    if (rt_lock(&c))
        return 0;
    fb = fatbin_of(c, fatCubinHandle);
    e = fb ? rt_fatbin_load(c, fb) : cudaErrorInvalidResourceHandle;
    /* Even when the image cannot load, host code gets (zeroed) copies to read. */
    if (e && fb && !fb->managed_host)
        managed_setup(c, fb);
    rt_unlock(c, e);
    return e == cudaSuccess || (fb && fb->managed_host);
}

void rt_fatbin_unload_all(struct rt_ctx *c)
{
    for (struct rt_fatbin *fb = c->fatbins; fb; fb = fb->next) {
        ptxsim_module_unload(fb->mod);
        fb->mod = NULL;
    }
}

cudaError_t rt_managed_sync(struct rt_ctx *c, bool to_dev)
{
    for (struct rt_var *v = c->vars; v; v = v->next) {
        void *h = (void *)(uintptr_t)v->host;
        int rc;

        if (!v->managed || !v->fb->mod)
            continue;
        rc = to_dev ? ptxsim_memcpy_htod(c->dev, v->dev_addr, h, v->size)
                    : ptxsim_memcpy_dtoh(c->dev, h, v->dev_addr, v->size);
        if (rc)
            return cudaErrorIllegalAddress;
    }
    return cudaSuccess;
}

/* A managed variable found by name: its own host copy, holding the module's initial value. */
static cudaError_t managed_add(struct rt_ctx *c, struct rt_fatbin *fb, const char *name,
                               uint64_t addr, size_t size, struct rt_var **out)
{
    struct rt_var *v = calloc(1, sizeof(*v));
    void *host = NULL;
    cudaError_t e = v && (v->name = strdup(name)) ? cudaSuccess : cudaErrorMemoryAllocation;

    if (!e)
        e = rt_host_alloc(c, size ? size : 1, RT_HOST_VARS, 0, &host);
    if (!e && ptxsim_memcpy_dtoh(c->dev, host, addr, size))
        e = cudaErrorInvalidSymbol;
    if (e) {
        if (host)
            rt_host_free(c, host, RT_HOST_VARS);
        if (v)
            free(v->name);
        free(v);
        return e;
    }
    v->fb = fb;
    v->host = host;
    v->size = size;
    v->managed = v->own_host = true;
    v->dev_addr = addr;
    v->next = c->vars;
    c->vars = v;
    *out = v;
    return cudaSuccess;
}

cudaError_t rt_managed_var(struct rt_ctx *c, struct rt_fatbin *fb, const char *name, void **host,
                           size_t *size)
{
    struct rt_var *v;
    uint64_t addr;
    size_t n;
    cudaError_t e = rt_fatbin_load(c, fb);

    if (e)
        return e;
    for (v = c->vars; v; v = v->next)
        if (v->fb == fb && v->managed && !strcmp(v->name, name))
            break;
    if (!v && ptxsim_module_symbol(fb->mod, name, &addr, &n))
        return cudaErrorInvalidSymbol;
    if (!v && (e = managed_add(c, fb, name, addr, n, &v)))
        return e;
    fb->managed_init = true; /* a reload after a device reset keeps the host copy's values */
    *host = (void *)(uintptr_t)v->host;
    *size = v->size;
    return cudaSuccess;
}

struct rt_kernel *rt_kernel_find(struct rt_ctx *c, const void *func)
{
    if (!func)
        return NULL;
    for (struct rt_kernel *k = c->kernels; k; k = k->next)
        if (k->host_fun == func || (const void *)k == func)
            return k;
    return NULL;
}

unsigned rt_target_sm(struct rt_ctx *c)
{
    unsigned sm = 0;

    for (struct rt_fatbin *fb = c->fatbins; fb; fb = fb->next) {
        if (fb->driver) /* driver modules do not change the device (docs/cuda-driver.md) */
            continue;
        if (fb->ptx_index >= 0 && fb->fb.entries[fb->ptx_index].sm > sm)
            sm = fb->fb.entries[fb->ptx_index].sm;
        if (rt_rdc_sm(fb) > sm)
            sm = rt_rdc_sm(fb);
    }
    return sm ? sm : RT_DEFAULT_SM;
}
