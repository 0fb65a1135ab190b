/*
 * Driver API modules: cuModuleLoad* from PTX text, fatbin containers,
 * registration wrappers and files. A module is an rt_fatbin like a registered
 * one (marked `driver`), so it loads, reloads after a reset, and launches
 * through the same code as the runtime's fatbins; its kernels are rt_kernels
 * without a host stub, and a CUfunction (or CUkernel) is the rt_kernel itself.
 * ptxsim runs PTX: an image with only cubins gets CUDA_ERROR_NO_BINARY_FOR_GPU
 * and a message naming the missing PTX.
 */
#define _GNU_SOURCE /* program_invocation_short_name */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "runtime/cuda/drv.h"

#define DRV_WRAPPER_MAGIC 0x466243b1u
#define DRV_FATBIN_MAGIC 0xBA55ED50u
#define DRV_EM_CUDA 190 /* e_machine of a cubin */

struct rt_fatbin *drv_module_find(struct rt_ctx *c, const void *handle)
{
    for (struct rt_fatbin *fb = c->fatbins; handle && fb; fb = fb->next)
        if (fb == handle && fb->driver)
            return fb;
    return NULL;
}

void drv_module_unlink(struct rt_ctx *c, struct rt_fatbin *fb)
{
    if (drv_exiting())
        return; /* an abandoned launch may still use it: the library's destructor frees it */
    for (struct rt_fatbin **pf = &c->fatbins; *pf; pf = &(*pf)->next)
        if (*pf == fb) {
            *pf = fb->next;
            rt_fatbin_destroy(c, fb);
            return;
        }
}

struct rt_kernel *drv_kernel_find(struct rt_ctx *c, const void *handle)
{
    for (struct rt_kernel *k = c->kernels; handle && k; k = k->next)
        if ((const void *)k == handle)
            return k;
    return NULL;
}

static CUresult fail(char *log, size_t log_len, CUresult r, const char *fmt, const char *arg)
{
    if (log && log_len) {
        snprintf(log, log_len, fmt, arg);
        fprintf(stderr, "ptxsim: %s\n", log);
    } else {
        fprintf(stderr, "ptxsim: ");
        fprintf(stderr, fmt, arg);
        fputc('\n', stderr);
    }
    return r;
}

/* The cubin architectures of a fatbin without PTX, for the message ("sm_75 sm_80"). */
static void cubin_arches(const struct fatbin *f, char *buf, size_t len)
{
    size_t n = 0;

    buf[0] = '\0';
    for (uint32_t i = 0; i < f->nentries && n + 16 < len; i++)
        n += (size_t)snprintf(buf + n, len - n, "%ssm_%u", n ? " " : "", f->entries[i].sm);
}

/* A fatbin container at data (len 0: its header says): copied, then its PTX picked. */
static CUresult from_fatbin(struct rt_fatbin *fb, const void *data, size_t len, char *log,
                            size_t log_len)
{
    struct fatbin probe;
    struct ps_err err;
    char arches[128];

    ps_err_clear(&err);
    if (fatbin_parse(data, len, &probe, &err))
        return fail(log, log_len, CUDA_ERROR_INVALID_IMAGE, "not a valid fatbin: %s", err.msg);
    fb->image_copy = malloc(probe.total_size ? probe.total_size : 1);
    if (fb->image_copy)
        memcpy(fb->image_copy, data, probe.total_size);
    fatbin_free(&probe);
    if (!fb->image_copy)
        return CUDA_ERROR_OUT_OF_MEMORY;
    if (fatbin_parse(fb->image_copy, 0, &fb->fb, &err))
        return fail(log, log_len, CUDA_ERROR_INVALID_IMAGE, "not a valid fatbin: %s", err.msg);
    fb->ptx_index = fatbin_pick_ptx(&fb->fb, 0);
    if (fb->ptx_index < 0) {
        cubin_arches(&fb->fb, arches, sizeof(arches));
        return fail(log, log_len, CUDA_ERROR_NO_BINARY_FOR_GPU,
                    "the fatbin holds no PTX, only cubins (%s): ptxsim runs PTX, so build "
                    "with -gencode arch=compute_XX,code=compute_XX (or -arch=sm_XX) to embed it",
                    arches);
    }
    return CUDA_SUCCESS;
}

/*
 * A -rdc=true program's device-link wrapper (the static runtime loads it as a library): the
 * nvlink image holds cubins only, so the translation units' own fatbins, listed after it,
 * give their PTX, linked in process on load as for a registered one (rdc.c).
 */
static CUresult from_units(struct rt_fatbin *fb, const void *const *units, char *log,
                           size_t log_len)
{
    struct ps_err err;
    cudaError_t e;

    ps_err_clear(&err);
    e = rt_rdc_parse(fb, units, &err);
    if (e == cudaErrorMemoryAllocation)
        return CUDA_ERROR_OUT_OF_MEMORY;
    if (e)
        return fail(log, log_len,
                    e == cudaErrorNoKernelImageForDevice ? CUDA_ERROR_NO_BINARY_FOR_GPU
                                                         : CUDA_ERROR_INVALID_IMAGE,
                    "%s", err.msg);
    return CUDA_SUCCESS;
}

/* Sorts an image into PTX text, a fatbin (container or wrapper) or a cubin (refused). */
static CUresult classify(struct rt_fatbin *fb, const void *image, size_t len, char *log,
                         size_t log_len)
{
    const unsigned char *b = image;
    uint32_t magic = 0;

    /* The binary magics have no zero byte, so a shorter string is text (read no further). */
    if ((len ? len : strnlen(image, 4)) >= 4)
        memcpy(&magic, image, sizeof(magic));
    if (magic && !memcmp(b, "\177ELF", 4)) {
        uint16_t machine;

        memcpy(&machine, b + 18, sizeof(machine));
        if (machine == DRV_EM_CUDA)
            return fail(log, log_len, CUDA_ERROR_NO_BINARY_FOR_GPU,
                        "%s: the image is a cubin (machine code), which ptxsim cannot run: "
                        "load the PTX instead (nvcc -ptx, NVRTC's PTX, or a fatbin with "
                        "compute_XX PTX)",
                        fb->name);
        return fail(log, log_len, CUDA_ERROR_INVALID_IMAGE,
                    "%s: a host ELF file is not a CUDA module", fb->name);
    }
    if (magic == DRV_WRAPPER_MAGIC) {
        const void *const *units = fatbin_wrapper_prelinked(image);
        const void *data;

        if (units && units[0])
            return from_units(fb, units, log, log_len);

        memcpy(&data, b + 8, sizeof(data)); /* {magic, version, data, ...} */
        return from_fatbin(fb, data, 0, log, log_len);
    }
    if (magic == DRV_FATBIN_MAGIC)
        return from_fatbin(fb, image, len, log, log_len);
    fb->from_text = true;
    fb->ptx_len = len ? strnlen(image, len) : strlen(image);
    fb->ptx = malloc(fb->ptx_len + 1);
    if (!fb->ptx)
        return CUDA_ERROR_OUT_OF_MEMORY;
    memcpy(fb->ptx, image, fb->ptx_len);
    fb->ptx[fb->ptx_len] = '\0';
    return CUDA_SUCCESS;
}

/* One rt_kernel per entry of the loaded module. */
static CUresult add_kernels(struct rt_ctx *c, struct rt_fatbin *fb)
{
    uint32_t n = ptxsim_module_kernel_count(fb->mod);

    for (uint32_t i = 0; i < n; i++) {
        struct rt_kernel *k = calloc(1, sizeof(*k));

        if (k && !(k->name = strdup(ptxsim_module_kernel_name(fb->mod, i)))) {
            free(k);
            k = NULL;
        }
        if (!k)
            return CUDA_ERROR_OUT_OF_MEMORY;
        k->fb = fb;
        k->max_dyn_shared = -1;
        k->next = c->kernels;
        c->kernels = k;
    }
    return CUDA_SUCCESS;
}

/* The load error in the caller's log (the parser's file:line:col and message). */
static void load_log(struct rt_ctx *c, char *log, size_t log_len)
{
    const struct ps_err *e = ptxsim_last_error_info(c->dev);

    if (!log || !log_len)
        return;
    if (e && e->line)
        snprintf(log, log_len, "%s:%u:%u: %s", e->file, e->line, e->col, e->msg);
    else
        snprintf(log, log_len, "%s", e ? e->msg : "the module cannot be loaded");
}

CUresult drv_module_load(struct rt_ctx *c, const void *image, size_t len, const char *name,
                         struct rt_fatbin **out, char *log, size_t log_len)
{
    struct rt_fatbin *fb;
    cudaError_t e;
    CUresult r;

    *out = NULL;
    if (!image || (len && len < 4))
        return CUDA_ERROR_INVALID_VALUE;
    if (!(fb = calloc(1, sizeof(*fb))))
        return CUDA_ERROR_OUT_OF_MEMORY;
    fb->driver = true;
    fb->ptx_index = -1;
    fb->owner = drv_ctx_current();
    snprintf(fb->name, sizeof(fb->name), "%.40s.%u.ptx",
             name ? name : program_invocation_short_name, ++c->nfatbins);
    r = classify(fb, image, len, log, log_len);
    fb->next = c->fatbins; /* listed first, so that destroying it needs no special case */
    c->fatbins = fb;
    if (!r) {
        e = rt_fatbin_load(c, fb);
        if (e == cudaErrorInvalidKernelImage)
            load_log(c, log, log_len);
        r = e == cudaErrorInvalidKernelImage && fb->from_text ? CUDA_ERROR_INVALID_PTX
                                                              : drv_result(e);
    }
    if (!r)
        r = add_kernels(c, fb);
    if (r) {
        c->fatbins = fb->next;
        rt_fatbin_destroy(c, fb);
        return r;
    }
    *out = fb;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuModuleLoadData(CUmodule *module, const void *image)
{
    struct rt_ctx *c;
    struct rt_fatbin *fb = NULL;
    CUresult r = drv_enter(&c);

    if (!r && !module)
        r = CUDA_ERROR_INVALID_VALUE;
    if (!r)
        r = drv_module_load(c, image, 0, NULL, &fb, NULL, 0);
    if (!r)
        *module = (CUmodule)fb;
    return drv_leave(c, r);
}

DRV_API CUresult cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned int numOptions,
                                    CUjit_option *options, void **optionValues)
{
    struct rt_ctx *c;
    struct rt_fatbin *fb = NULL;
    struct drv_jit j;
    char msg[1024] = "";
    CUresult r = drv_enter(&c);

    drv_jit_parse(&j, numOptions, options, optionValues);
    if (!r && !module)
        r = CUDA_ERROR_INVALID_VALUE;
    if (!r)
        r = drv_module_load(c, image, 0, NULL, &fb, msg, sizeof(msg));
    if (!r)
        *module = (CUmodule)fb;
    drv_jit_finish(&j, msg);
    return drv_leave(c, r);
}

DRV_API CUresult cuModuleLoadFatBinary(CUmodule *module, const void *fatCubin)
{
    return cuModuleLoadData(module, fatCubin);
}

/* The whole file, NUL-terminated (malloc'd), or NULL with errno set. */
static char *read_file(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    char *buf = NULL;
    long n;

    if (!fp)
        return NULL;
    if (fseek(fp, 0, SEEK_END) == 0 && (n = ftell(fp)) >= 0 && fseek(fp, 0, SEEK_SET) == 0 &&
        (buf = malloc((size_t)n + 1)) && fread(buf, 1, (size_t)n, fp) == (size_t)n) {
        buf[n] = '\0';
        *len = (size_t)n;
    } else {
        free(buf);
        buf = NULL;
        errno = errno ? errno : EIO;
    }
    fclose(fp);
    return buf;
}

CUresult drv_module_load_file(struct rt_ctx *c, const char *path, struct rt_fatbin **out)
{
    size_t len = 0;
    const char *base;
    char *data;
    CUresult r;

    *out = NULL;
    if (!path)
        return CUDA_ERROR_INVALID_VALUE;
    if (!(data = read_file(path, &len))) {
        fprintf(stderr, "ptxsim: cannot read module %s: %s\n", path, strerror(errno));
        return CUDA_ERROR_FILE_NOT_FOUND;
    }
    base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    r = len < 4 ? CUDA_ERROR_INVALID_IMAGE : drv_module_load(c, data, len, base, out, NULL, 0);
    free(data);
    return r;
}

DRV_API CUresult cuModuleLoad(CUmodule *module, const char *fname)
{
    struct rt_ctx *c;
    struct rt_fatbin *fb = NULL;
    CUresult r = drv_enter(&c);

    if (!r && !module)
        r = CUDA_ERROR_INVALID_VALUE;
    if (!r)
        r = drv_module_load_file(c, fname, &fb);
    if (!r)
        *module = (CUmodule)fb;
    return drv_leave(c, r);
}

DRV_API CUresult cuModuleUnload(CUmodule hmod)
{
    struct rt_ctx *c;
    CUresult r = drv_enter(&c);
    struct rt_fatbin *fb = r ? NULL : drv_module_find(c, hmod);

    if (!r && (!fb || fb->library))
        r = CUDA_ERROR_INVALID_HANDLE; /* a library's module goes with cuLibraryUnload */
    if (!r)
        drv_module_unlink(c, fb);
    return drv_leave(c, r);
}

struct rt_kernel *drv_module_kernel(struct rt_ctx *c, struct rt_fatbin *fb, const char *name)
{
    for (struct rt_kernel *k = c->kernels; name && k; k = k->next)
        if (k->fb == fb && !strcmp(k->name, name))
            return k;
    return NULL;
}

DRV_API CUresult cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name)
{
    struct rt_ctx *c;
    CUresult r = drv_enter(&c);
    struct rt_fatbin *fb = r ? NULL : drv_module_find(c, hmod);
    struct rt_kernel *k = NULL;

    if (!r && (!hfunc || !name))
        r = CUDA_ERROR_INVALID_VALUE;
    if (!r && !fb)
        r = CUDA_ERROR_INVALID_HANDLE;
    if (!r && !(k = drv_module_kernel(c, fb, name)))
        r = CUDA_ERROR_NOT_FOUND;
    if (!r)
        *hfunc = (CUfunction)k;
    return drv_leave(c, r);
}

CUresult drv_module_global(struct rt_ctx *c, struct rt_fatbin *fb, const char *name,
                           CUdeviceptr *dptr, size_t *bytes)
{
    uint64_t addr;
    size_t size;
    cudaError_t e;

    if (!name)
        return CUDA_ERROR_INVALID_VALUE;
    if ((e = rt_fatbin_load(c, fb)))
        return drv_result(e);
    if (ptxsim_module_symbol(fb->mod, name, &addr, &size))
        return CUDA_ERROR_NOT_FOUND;
    if (dptr)
        *dptr = (CUdeviceptr)addr;
    if (bytes)
        *bytes = size;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuModuleGetGlobal(CUdeviceptr *dptr, size_t *bytes, CUmodule hmod,
                                   const char *name)
{
    struct rt_ctx *c;
    CUresult r = drv_enter(&c);
    struct rt_fatbin *fb = r ? NULL : drv_module_find(c, hmod);

    if (!r && !fb)
        r = CUDA_ERROR_INVALID_HANDLE;
    if (!r)
        r = drv_module_global(c, fb, name, dptr, bytes);
    return drv_leave(c, r);
}

/* Kernels of fb, in load order, into fns (at most n; NULL: count only); returns the count. */
unsigned drv_module_kernels(struct rt_ctx *c, struct rt_fatbin *fb, void **fns, unsigned n)
{
    unsigned count = 0;

    for (struct rt_kernel *k = c->kernels; k; k = k->next)
        if (k->fb == fb)
            count++;
    /* c->kernels holds the newest first: walk it backwards by index to return load order. */
    for (unsigned i = 0; fns && i < count && i < n; i++) {
        unsigned skip = count - 1 - i;

        for (struct rt_kernel *k = c->kernels; k; k = k->next)
            if (k->fb == fb && skip-- == 0) {
                fns[i] = k;
                break;
            }
    }
    return count;
}

DRV_API CUresult cuModuleGetFunctionCount(unsigned int *count, CUmodule mod)
{
    struct rt_ctx *c;
    CUresult r = drv_enter(&c);
    struct rt_fatbin *fb = r ? NULL : drv_module_find(c, mod);

    if (!r && !count)
        r = CUDA_ERROR_INVALID_VALUE;
    if (!r && !fb)
        r = CUDA_ERROR_INVALID_HANDLE;
    if (!r)
        *count = drv_module_kernels(c, fb, NULL, 0);
    return drv_leave(c, r);
}

DRV_API CUresult cuModuleEnumerateFunctions(CUfunction *functions, unsigned int numFunctions,
                                            CUmodule mod)
{
    struct rt_ctx *c;
    CUresult r = drv_enter(&c);
    struct rt_fatbin *fb = r ? NULL : drv_module_find(c, mod);

    if (!r && !functions)
        r = CUDA_ERROR_INVALID_VALUE;
    if (!r && !fb)
        r = CUDA_ERROR_INVALID_HANDLE;
    if (!r)
        drv_module_kernels(c, fb, (void **)functions, numFunctions);
    return drv_leave(c, r);
}

/* Modules load when asked for: eagerly, as far as CUDA_MODULE_LOADING is concerned. */
DRV_API CUresult cuModuleGetLoadingMode(CUmoduleLoadingMode *mode)
{
    if (!mode)
        return CUDA_ERROR_INVALID_VALUE;
    *mode = CU_MODULE_EAGER_LOADING;
    return CUDA_SUCCESS;
}
