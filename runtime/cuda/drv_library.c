/*
 * Driver API libraries (cuLibrary*, CUDA 12+): context-independent modules.
 * A CUlibrary is a driver module (drv_module.c) marked `library` and owned by
 * no context; its CUkernels are its rt_kernels, so a CUkernel, the CUfunction
 * cuKernelGetFunction gives for it and a CUfunction of cuModuleGetFunction
 * are the same handle, which cuLaunchKernel takes. Library options (such as
 * CU_LIBRARY_BINARY_IS_PRESERVED) change nothing here.
 */
#include "runtime/cuda/drv.h"

static CUresult library_done(struct rt_ctx *c, CUresult r, struct rt_fatbin *fb, CUlibrary *library)
{
    if (!r) {
        fb->library = true;
        fb->owner = NULL;
        *library = (CUlibrary)fb;
    }
    return drv_leave(c, r);
}

DRV_API CUresult cuLibraryLoadData(CUlibrary *library, const void *code, CUjit_option *jitOptions,
                                   void **jitOptionsValues, unsigned int numJitOptions,
                                   CUlibraryOption *libraryOptions, void **libraryOptionValues,
                                   unsigned int numLibraryOptions)
{
    struct rt_ctx *c;
    struct rt_fatbin *fb = NULL;
    struct drv_jit j;
    char msg[1024] = "";
    CUresult r = drv_enter(&c);

    (void)libraryOptions, (void)libraryOptionValues, (void)numLibraryOptions;
    drv_jit_parse(&j, numJitOptions, jitOptions, jitOptionsValues);
    if (!r && !library)
        r = CUDA_ERROR_INVALID_VALUE;
    if (!r)
        r = drv_module_load(c, code, 0, NULL, &fb, msg, sizeof(msg));
    drv_jit_finish(&j, msg);
    return library_done(c, r, fb, library);
}

DRV_API CUresult cuLibraryLoadFromFile(CUlibrary *library, const char *fileName,
                                       CUjit_option *jitOptions, void **jitOptionsValues,
                                       unsigned int numJitOptions, CUlibraryOption *libraryOptions,
                                       void **libraryOptionValues, unsigned int numLibraryOptions)
{
    struct rt_ctx *c;
    struct rt_fatbin *fb = NULL;
    struct drv_jit j;
    CUresult r = drv_enter(&c);

    (void)libraryOptions, (void)libraryOptionValues, (void)numLibraryOptions;
    drv_jit_parse(&j, numJitOptions, jitOptions, jitOptionsValues);
    if (!r && !library)
        r = CUDA_ERROR_INVALID_VALUE;
    if (!r)
        r = drv_module_load_file(c, fileName, &fb);
    drv_jit_finish(&j, r ? "the library cannot be loaded (see stderr)" : "");
    return library_done(c, r, fb, library);
}

/* Locks and finds the library: the prologue of the calls below. */
static CUresult enter(struct rt_ctx **c, CUlibrary library, struct rt_fatbin **fb)
{
    CUresult r = drv_enter(c);

    *fb = r ? NULL : drv_module_find(*c, library);
    if (!r && (!*fb || !(*fb)->library))
        r = CUDA_ERROR_INVALID_HANDLE;
    return r;
}

DRV_API CUresult cuLibraryUnload(CUlibrary library)
{
    struct rt_ctx *c;
    struct rt_fatbin *fb;
    CUresult r = enter(&c, library, &fb);

    if (!r)
        drv_module_unlink(c, fb);
    return drv_leave(c, r);
}

DRV_API CUresult cuLibraryGetKernel(CUkernel *pKernel, CUlibrary library, const char *name)
{
    struct rt_ctx *c;
    struct rt_fatbin *fb;
    struct rt_kernel *k = NULL;
    CUresult r = enter(&c, library, &fb);

    if (!r && (!pKernel || !name))
        r = CUDA_ERROR_INVALID_VALUE;
    if (!r && !(k = drv_module_kernel(c, fb, name)))
        r = CUDA_ERROR_NOT_FOUND;
    if (!r)
        *pKernel = (CUkernel)k;
    return drv_leave(c, r);
}

DRV_API CUresult cuLibraryGetModule(CUmodule *pMod, CUlibrary library)
{
    struct rt_ctx *c;
    struct rt_fatbin *fb;
    CUresult r = enter(&c, library, &fb);

    if (!r && !pMod)
        r = CUDA_ERROR_INVALID_VALUE;
    if (!r)
        *pMod = (CUmodule)fb;
    return drv_leave(c, r);
}

DRV_API CUresult cuLibraryGetGlobal(CUdeviceptr *dptr, size_t *bytes, CUlibrary library,
                                    const char *name)
{
    struct rt_ctx *c;
    struct rt_fatbin *fb;
    CUresult r = enter(&c, library, &fb);

    if (!r)
        r = drv_module_global(c, fb, name, dptr, bytes);
    return drv_leave(c, r);
}

/* A __managed__ variable: its host copy, which host and device both address (rt_managed_var). */
DRV_API CUresult cuLibraryGetManaged(CUdeviceptr *dptr, size_t *bytes, CUlibrary library,
                                     const char *name)
{
    struct rt_ctx *c;
    struct rt_fatbin *fb;
    void *host;
    size_t size;
    CUresult r = enter(&c, library, &fb);

    if (!r && !name)
        r = CUDA_ERROR_INVALID_VALUE;
    if (!r)
        r = drv_result(rt_managed_var(c, fb, name, &host, &size));
    if (!r && dptr)
        *dptr = (CUdeviceptr)(uintptr_t)host;
    if (!r && bytes)
        *bytes = size;
    return drv_leave(c, r);
}

DRV_API CUresult cuLibraryGetKernelCount(unsigned int *count, CUlibrary lib)
{
    struct rt_ctx *c;
    struct rt_fatbin *fb;
    CUresult r = enter(&c, lib, &fb);

    if (!r && !count)
        r = CUDA_ERROR_INVALID_VALUE;
    if (!r)
        *count = drv_module_kernels(c, fb, NULL, 0);
    return drv_leave(c, r);
}

DRV_API CUresult cuLibraryEnumerateKernels(CUkernel *kernels, unsigned int numKernels,
                                           CUlibrary lib)
{
    struct rt_ctx *c;
    struct rt_fatbin *fb;
    CUresult r = enter(&c, lib, &fb);

    if (!r && !kernels)
        r = CUDA_ERROR_INVALID_VALUE;
    if (!r)
        drv_module_kernels(c, fb, (void **)kernels, numKernels);
    return drv_leave(c, r);
}

/* Locks and finds a kernel (CUkernel or CUfunction: the same rt_kernel). */
static CUresult enter_kernel(struct rt_ctx **c, const void *h, struct rt_kernel **k)
{
    CUresult r = drv_enter(c);

    *k = r ? NULL : drv_kernel_find(*c, h);
    if (!r && !*k)
        r = CUDA_ERROR_INVALID_HANDLE;
    return r;
}

DRV_API CUresult cuKernelGetFunction(CUfunction *pFunc, CUkernel kernel)
{
    struct rt_ctx *c;
    struct rt_kernel *k;
    CUresult r = enter_kernel(&c, kernel, &k);

    if (!r && !pFunc)
        r = CUDA_ERROR_INVALID_VALUE;
    if (!r)
        *pFunc = (CUfunction)k;
    return drv_leave(c, r);
}

DRV_API CUresult cuKernelGetLibrary(CUlibrary *pLib, CUkernel kernel)
{
    struct rt_ctx *c;
    struct rt_kernel *k;
    CUresult r = enter_kernel(&c, kernel, &k);

    if (!r && !pLib)
        r = CUDA_ERROR_INVALID_VALUE;
    if (!r && (!k->fb || !k->fb->library))
        r = CUDA_ERROR_INVALID_HANDLE;
    if (!r)
        *pLib = (CUlibrary)k->fb;
    return drv_leave(c, r);
}

DRV_API CUresult cuKernelGetName(const char **name, CUkernel hfunc)
{
    struct rt_ctx *c;
    struct rt_kernel *k;
    CUresult r = enter_kernel(&c, hfunc, &k);

    if (!r && !name)
        r = CUDA_ERROR_INVALID_VALUE;
    if (!r)
        *name = k->name;
    return drv_leave(c, r);
}

DRV_API CUresult cuFuncGetName(const char **name, CUfunction hfunc)
{
    return cuKernelGetName(name, (CUkernel)hfunc);
}

DRV_API CUresult cuFuncGetModule(CUmodule *hmod, CUfunction hfunc)
{
    struct rt_ctx *c;
    struct rt_kernel *k;
    CUresult r = enter_kernel(&c, hfunc, &k);

    if (!r && !hmod)
        r = CUDA_ERROR_INVALID_VALUE;
    if (!r && !k->fb)
        r = CUDA_ERROR_INVALID_HANDLE;
    if (!r)
        *hmod = (CUmodule)k->fb;
    return drv_leave(c, r);
}

/* Functions are loaded with their module. */
DRV_API CUresult cuFuncIsLoaded(CUfunctionLoadingState *state, CUfunction function)
{
    struct rt_ctx *c;
    struct rt_kernel *k;
    CUresult r = enter_kernel(&c, function, &k);

    if (!r && !state)
        r = CUDA_ERROR_INVALID_VALUE;
    if (!r)
        *state = CU_FUNCTION_LOADING_STATE_LOADED;
    return drv_leave(c, r);
}

DRV_API CUresult cuFuncLoad(CUfunction function)
{
    struct rt_ctx *c;
    struct rt_kernel *k;
    CUresult r = enter_kernel(&c, function, &k);

    if (!r && k->fb)
        r = drv_result(rt_fatbin_load(c, k->fb));
    return drv_leave(c, r);
}
