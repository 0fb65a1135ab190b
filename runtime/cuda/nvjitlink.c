/*
 * ptxsim's nvJitLink (libnvJitLink.so.13, a third name of libcudart.so.13;
 * docs/cuda-driver.md "nvJitLink"). The toolkit's nvJitLink turns PTX into
 * machine code for a real GPU, which ptxsim cannot run, so `ptxsim run` puts
 * this one first: it links PTX (and the PTX of fatbins) with the driver's
 * linker (cuLink*, drv_jit.c), and its "cubin" is the linked PTX text, which
 * cuModuleLoadData and cuLibraryLoadData take. Cubins, host objects and
 * libraries and LTO IR are refused by name, as is -lto: ptxsim has no
 * link-time optimiser. It offers the API of nvJitLink 12.0 to 12.2, without
 * nvJitLinkVersion (12.3): libraries that need LTO and detect it by that
 * entry point (numba-cuda, cuda.core) then link through the driver's cuLink*,
 * as their documentation says they do without nvJitLink 12.3.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NVJITLINK_NO_INLINE /* the header's inline wrappers would clash with the definitions */
#include <nvJitLink.h>

#include "runtime/cuda/drv.h"

#define NVJL_API __attribute__((visibility("default")))

/* The exported entry points (NVJITLINK_NO_INLINE leaves the header without them). */
NVJL_API nvJitLinkResult nvJitLinkCreate(nvJitLinkHandle *handle, uint32_t n,
                                         const char *const *opt);
NVJL_API nvJitLinkResult nvJitLinkDestroy(nvJitLinkHandle *handle);
NVJL_API nvJitLinkResult nvJitLinkAddData(nvJitLinkHandle h, nvJitLinkInputType type,
                                          const void *data, size_t size, const char *name);
NVJL_API nvJitLinkResult nvJitLinkAddFile(nvJitLinkHandle h, nvJitLinkInputType type,
                                          const char *path);
NVJL_API nvJitLinkResult nvJitLinkComplete(nvJitLinkHandle h);
NVJL_API nvJitLinkResult nvJitLinkGetLinkedCubinSize(nvJitLinkHandle h, size_t *size);
NVJL_API nvJitLinkResult nvJitLinkGetLinkedCubin(nvJitLinkHandle h, void *cubin);
NVJL_API nvJitLinkResult nvJitLinkGetLinkedPtxSize(nvJitLinkHandle h, size_t *size);
NVJL_API nvJitLinkResult nvJitLinkGetLinkedPtx(nvJitLinkHandle h, char *ptx);
NVJL_API nvJitLinkResult nvJitLinkGetErrorLogSize(nvJitLinkHandle h, size_t *size);
NVJL_API nvJitLinkResult nvJitLinkGetErrorLog(nvJitLinkHandle h, char *log);
NVJL_API nvJitLinkResult nvJitLinkGetInfoLogSize(nvJitLinkHandle h, size_t *size);
NVJL_API nvJitLinkResult nvJitLinkGetInfoLog(nvJitLinkHandle h, char *log);

struct nvJitLink {
    CUlinkState link;
    const void *out; /* the linked PTX, owned by link */
    size_t out_len;  /* with its NUL */
    char error[2048];
};

/* Records a refusal in the error log (and on stderr, once per kind); returns r. */
static nvJitLinkResult refuse(nvJitLinkHandle h, nvJitLinkResult r, const char *what)
{
    if (h)
        snprintf(h->error, sizeof(h->error), "ptxsim's nvJitLink: %s", what);
    fprintf(stderr, "ptxsim: nvJitLink: %s\n", what);
    return r;
}

/* -arch=sm_NN is required (as nvJitLink requires it); -lto is refused; the rest tune code. */
static nvJitLinkResult check_options(nvJitLinkHandle h, uint32_t n, const char *const *opt)
{
    bool arch = false;

    for (uint32_t i = 0; i < n; i++) {
        if (!opt || !opt[i])
            return NVJITLINK_ERROR_NULL_INPUT;
        if (!strncmp(opt[i], "-arch=", 6))
            arch = true;
        else if (!strcmp(opt[i], "-lto") || !strcmp(opt[i], "-ptx"))
            return refuse(h, NVJITLINK_ERROR_UNRECOGNIZED_OPTION,
                          "link-time optimisation (-lto, -ptx) is not supported: ptxsim "
                          "links PTX only");
    }
    return arch ? NVJITLINK_SUCCESS
                : refuse(h, NVJITLINK_ERROR_MISSING_ARCH, "option -arch=sm_NN is missing");
}

NVJL_API nvJitLinkResult nvJitLinkCreate(nvJitLinkHandle *handle, uint32_t n,
                                         const char *const *opt)
{
    nvJitLinkHandle h;
    nvJitLinkResult r;

    if (!handle)
        return NVJITLINK_ERROR_NULL_INPUT;
    *handle = NULL;
    if (!(h = calloc(1, sizeof(*h))))
        return NVJITLINK_ERROR_INTERNAL;
    if ((r = check_options(h, n, opt)) || cuInit(0) || cuLinkCreate(0, NULL, NULL, &h->link)) {
        free(h);
        return r ? r : NVJITLINK_ERROR_INTERNAL;
    }
    *handle = h;
    return NVJITLINK_SUCCESS;
}

NVJL_API nvJitLinkResult nvJitLinkDestroy(nvJitLinkHandle *handle)
{
    if (!handle || !*handle)
        return NVJITLINK_ERROR_NULL_INPUT;
    cuLinkDestroy((*handle)->link);
    free(*handle);
    *handle = NULL;
    return NVJITLINK_SUCCESS;
}

/* The kind of an input of type NVJITLINK_INPUT_ANY, from its first bytes. */
static nvJitLinkInputType guess(const void *data, size_t size)
{
    const unsigned char *b = data;

    if (size >= 4 && !memcmp(b, "\177ELF", 4))
        return NVJITLINK_INPUT_CUBIN;
    if (size >= 4 && b[0] == 0x50 && b[1] == 0xed && b[2] == 0x55 && b[3] == 0xba)
        return NVJITLINK_INPUT_FATBIN;
    if (size >= 4 && b[0] == 0xed && b[1] == 'C' && b[2] == 'N' && b[3] == 0x7f)
        return NVJITLINK_INPUT_LTOIR;
    return NVJITLINK_INPUT_PTX;
}

NVJL_API nvJitLinkResult nvJitLinkAddData(nvJitLinkHandle h, nvJitLinkInputType type,
                                          const void *data, size_t size, const char *name)
{
    CUjitInputType cu;

    if (!h || !data)
        return NVJITLINK_ERROR_NULL_INPUT;
    if (type == NVJITLINK_INPUT_ANY)
        type = guess(data, size);
    switch (type) {
    case NVJITLINK_INPUT_PTX:
        cu = CU_JIT_INPUT_PTX;
        break;
    case NVJITLINK_INPUT_FATBIN:
        cu = CU_JIT_INPUT_FATBINARY;
        break;
    case NVJITLINK_INPUT_CUBIN:
        return refuse(h, NVJITLINK_ERROR_INVALID_INPUT,
                      "a cubin (machine code) cannot be linked: ptxsim runs PTX");
    case NVJITLINK_INPUT_LTOIR:
        return refuse(h, NVJITLINK_ERROR_INVALID_INPUT,
                      "LTO IR cannot be linked: ptxsim has no link-time optimiser");
    default:
        return refuse(h, NVJITLINK_ERROR_INVALID_INPUT,
                      "host objects, libraries and index files cannot be linked: ptxsim "
                      "links PTX only");
    }
    if (cuLinkAddData(h->link, cu, (void *)data, size, name ? name : "input", 0, NULL, NULL))
        return refuse(h, NVJITLINK_ERROR_INVALID_INPUT, "the input holds no PTX");
    return NVJITLINK_SUCCESS;
}

NVJL_API nvJitLinkResult nvJitLinkAddFile(nvJitLinkHandle h, nvJitLinkInputType type,
                                          const char *path)
{
    FILE *fp;
    char *data = NULL;
    long len;
    nvJitLinkResult r = NVJITLINK_ERROR_INVALID_INPUT;

    if (!h || !path)
        return NVJITLINK_ERROR_NULL_INPUT;
    if (!(fp = fopen(path, "rb")))
        return refuse(h, NVJITLINK_ERROR_INVALID_INPUT, "an input file cannot be opened");
    if (!fseek(fp, 0, SEEK_END) && (len = ftell(fp)) >= 0 && !fseek(fp, 0, SEEK_SET) &&
        (data = calloc(1, (size_t)len + 1)) && fread(data, 1, (size_t)len, fp) == (size_t)len)
        r = nvJitLinkAddData(h, type, data, (size_t)len, path);
    fclose(fp);
    free(data);
    return r;
}

NVJL_API nvJitLinkResult nvJitLinkComplete(nvJitLinkHandle h)
{
    void *out = NULL;
    size_t len = 0;

    if (!h)
        return NVJITLINK_ERROR_NULL_INPUT;
    if (cuLinkComplete(h->link, &out, &len))
        return refuse(h, NVJITLINK_ERROR_PTX_COMPILE, "the PTX inputs do not link");
    h->out = out;
    h->out_len = len;
    return NVJITLINK_SUCCESS;
}

/* The linked PTX, asked for as a "cubin" or as PTX: the same text. */
static nvJitLinkResult linked_size(nvJitLinkHandle h, size_t *size)
{
    if (!h || !size)
        return NVJITLINK_ERROR_NULL_INPUT;
    if (!h->out)
        return NVJITLINK_ERROR_INTERNAL; /* nvJitLinkComplete has not succeeded */
    *size = h->out_len;
    return NVJITLINK_SUCCESS;
}

static nvJitLinkResult linked(nvJitLinkHandle h, void *buf)
{
    if (!h || !buf)
        return NVJITLINK_ERROR_NULL_INPUT;
    if (!h->out)
        return NVJITLINK_ERROR_INTERNAL;
    memcpy(buf, h->out, h->out_len);
    return NVJITLINK_SUCCESS;
}

NVJL_API nvJitLinkResult nvJitLinkGetLinkedCubinSize(nvJitLinkHandle h, size_t *size)
{
    return linked_size(h, size);
}

NVJL_API nvJitLinkResult nvJitLinkGetLinkedCubin(nvJitLinkHandle h, void *cubin)
{
    return linked(h, cubin);
}

NVJL_API nvJitLinkResult nvJitLinkGetLinkedPtxSize(nvJitLinkHandle h, size_t *size)
{
    return linked_size(h, size);
}

NVJL_API nvJitLinkResult nvJitLinkGetLinkedPtx(nvJitLinkHandle h, char *ptx)
{
    return linked(h, ptx);
}

NVJL_API nvJitLinkResult nvJitLinkGetErrorLogSize(nvJitLinkHandle h, size_t *size)
{
    if (!h || !size)
        return NVJITLINK_ERROR_NULL_INPUT;
    *size = strlen(h->error) + 1;
    return NVJITLINK_SUCCESS;
}

NVJL_API nvJitLinkResult nvJitLinkGetErrorLog(nvJitLinkHandle h, char *log)
{
    if (!h || !log)
        return NVJITLINK_ERROR_NULL_INPUT;
    memcpy(log, h->error, strlen(h->error) + 1);
    return NVJITLINK_SUCCESS;
}

NVJL_API nvJitLinkResult nvJitLinkGetInfoLogSize(nvJitLinkHandle h, size_t *size)
{
    if (!h || !size)
        return NVJITLINK_ERROR_NULL_INPUT;
    *size = 1;
    return NVJITLINK_SUCCESS;
}

NVJL_API nvJitLinkResult nvJitLinkGetInfoLog(nvJitLinkHandle h, char *log)
{
    if (!h || !log)
        return NVJITLINK_ERROR_NULL_INPUT;
    *log = '\0';
    return NVJITLINK_SUCCESS;
}

/* The names nvJitLink.h's inline wrappers call, for programs linked with -lnvJitLink. */
#define NVJL_ALIAS(fn) RT_ALIAS(fn, __##fn##_13_0)
NVJL_ALIAS(nvJitLinkCreate);
NVJL_ALIAS(nvJitLinkDestroy);
NVJL_ALIAS(nvJitLinkAddData);
NVJL_ALIAS(nvJitLinkAddFile);
NVJL_ALIAS(nvJitLinkComplete);
NVJL_ALIAS(nvJitLinkGetLinkedCubinSize);
NVJL_ALIAS(nvJitLinkGetLinkedCubin);
NVJL_ALIAS(nvJitLinkGetLinkedPtxSize);
NVJL_ALIAS(nvJitLinkGetLinkedPtx);
NVJL_ALIAS(nvJitLinkGetErrorLogSize);
NVJL_ALIAS(nvJitLinkGetErrorLog);
NVJL_ALIAS(nvJitLinkGetInfoLogSize);
NVJL_ALIAS(nvJitLinkGetInfoLog);
