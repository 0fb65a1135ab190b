/*
 * JIT options and the driver's linker. ptxsim has no code generator, so the
 * options that tune one (optimisation level, register caps, targets, ...) are
 * accepted and change nothing; the log buffers and the wall time are filled.
 * cuLink* joins PTX units with frontend/ptx_link.h, as ptxsim joins -rdc=true
 * programs, and its "cubin" is the linked PTX text, which cuModuleLoadData
 * takes like any image.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "frontend/fatbin.h"
#include "frontend/ptx_link.h"
#include "runtime/cuda/drv.h"

#define DRV_LINK_MAGIC 0x706c6e6bu /* "plnk" */

void drv_jit_parse(struct drv_jit *j, unsigned n, const CUjit_option *opt, void **val)
{
    memset(j, 0, sizeof(*j));
    for (unsigned i = 0; opt && val && i < n; i++) {
        switch (opt[i]) {
        case CU_JIT_INFO_LOG_BUFFER:
            j->info_log = val[i];
            break;
        case CU_JIT_ERROR_LOG_BUFFER:
            j->error_log = val[i];
            break;
        case CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES:
            j->info_len = (size_t)(uintptr_t)val[i];
            j->info_slot = &val[i];
            break;
        case CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES:
            j->error_len = (size_t)(uintptr_t)val[i];
            j->error_slot = &val[i];
            break;
        case CU_JIT_WALL_TIME:
            j->wall_slot = &val[i];
            break;
        default:
            break; /* code generation options: nothing to tune */
        }
    }
}

/* Writes text into a log buffer of len bytes and its length (with the NUL) into the slot. */
static void put_log(char *buf, size_t len, void **slot, const char *text)
{
    size_t n = 0;

    if (buf && len) {
        snprintf(buf, len, "%s", text);
        n = strlen(buf) + 1;
    }
    if (slot)
        *slot = (void *)(uintptr_t)n;
}

void drv_jit_finish(const struct drv_jit *j, const char *msg)
{
    put_log(j->info_log, j->info_len, j->info_slot, "");
    put_log(j->error_log, j->error_len, j->error_slot, msg ? msg : "");
    if (j->wall_slot) {
        float ms = 0.0f;

        memcpy(j->wall_slot, &ms, sizeof(ms));
    }
}

struct CUlinkState_st {
    uint32_t magic;
    struct drv_jit jit;
    char **texts; /* one PTX text per unit (owned) */
    size_t *lens;
    uint32_t n;
    char *out; /* the linked PTX (owned; valid until cuLinkDestroy) */
    size_t out_len;
};

DRV_API CUresult cuLinkCreate(unsigned int numOptions, CUjit_option *options, void **optionValues,
                              CUlinkState *stateOut)
{
    CUresult r = drv_ready();
    struct CUlinkState_st *s;

    if (r)
        return r;
    if (!stateOut)
        return CUDA_ERROR_INVALID_VALUE;
    if (!(s = calloc(1, sizeof(*s))))
        return CUDA_ERROR_OUT_OF_MEMORY;
    s->magic = DRV_LINK_MAGIC;
    drv_jit_parse(&s->jit, numOptions, options, optionValues);
    *stateOut = s;
    return CUDA_SUCCESS;
}

static CUresult add_text(struct CUlinkState_st *s, const char *text, size_t len)
{
    char **t = realloc(s->texts, (s->n + 1) * sizeof(*t));
    size_t *l;

    if (!t)
        return CUDA_ERROR_OUT_OF_MEMORY;
    s->texts = t;
    if (!(l = realloc(s->lens, (s->n + 1) * sizeof(*l))))
        return CUDA_ERROR_OUT_OF_MEMORY;
    s->lens = l;
    if (!(s->texts[s->n] = malloc(len + 1)))
        return CUDA_ERROR_OUT_OF_MEMORY;
    memcpy(s->texts[s->n], text, len);
    s->texts[s->n][len] = '\0';
    s->lens[s->n++] = len;
    return CUDA_SUCCESS;
}

/* A fatbin unit: its PTX entry (the highest architecture). */
static CUresult add_fatbin(struct CUlinkState_st *s, const void *data, size_t size,
                           const char *name)
{
    struct fatbin f;
    struct ps_err err;
    uint8_t *ptx;
    size_t len;
    int i;
    CUresult r;

    ps_err_clear(&err);
    if (fatbin_parse(data, size, &f, &err)) {
        fprintf(stderr, "ptxsim: cuLinkAddData: %s: not a fatbin: %s\n", name, err.msg);
        return CUDA_ERROR_INVALID_IMAGE;
    }
    if ((i = fatbin_pick_ptx(&f, 0)) < 0) {
        fatbin_free(&f);
        fprintf(stderr,
                "ptxsim: cuLinkAddData: %s: the fatbin holds no PTX, only cubins, which "
                "ptxsim cannot run\n",
                name);
        return CUDA_ERROR_NO_BINARY_FOR_GPU;
    }
    if (fatbin_entry_data(&f.entries[i], &ptx, &len, &err)) {
        r = CUDA_ERROR_INVALID_IMAGE;
    } else {
        r = add_text(s, (char *)ptx, len);
        free(ptx);
    }
    fatbin_free(&f);
    return r;
}

static CUresult add_unit(struct CUlinkState_st *s, CUjitInputType type, const void *data,
                         size_t size, const char *name)
{
    switch (type) {
    case CU_JIT_INPUT_PTX:
        return add_text(s, data, size ? strnlen(data, size) : strlen(data));
    case CU_JIT_INPUT_FATBINARY:
        return add_fatbin(s, data, size, name);
    case CU_JIT_INPUT_CUBIN:
        fprintf(stderr,
                "ptxsim: cuLinkAddData: %s is a cubin (machine code), which ptxsim "
                "cannot run: add its PTX instead\n",
                name);
        return CUDA_ERROR_NO_BINARY_FOR_GPU;
    case CU_JIT_INPUT_OBJECT:
        return drv_unsupported("cuLinkAddData(CU_JIT_INPUT_OBJECT)",
                               "linking host objects: add the units' PTX or fatbins");
    case CU_JIT_INPUT_LIBRARY:
        return drv_unsupported("cuLinkAddData(CU_JIT_INPUT_LIBRARY)",
                               "linking static libraries such as libcudadevrt.a");
    default:
        return drv_unsupported("cuLinkAddData(CU_JIT_INPUT_NVVM)", "link-time optimisation IR");
    }
}

static bool link_ok(CUlinkState s)
{
    return s && s->magic == DRV_LINK_MAGIC;
}

DRV_API CUresult cuLinkAddData(CUlinkState state, CUjitInputType type, void *data, size_t size,
                               const char *name, unsigned int numOptions, CUjit_option *options,
                               void **optionValues)
{
    (void)numOptions, (void)options, (void)optionValues;
    if (!link_ok(state) || !data)
        return CUDA_ERROR_INVALID_VALUE;
    return add_unit(state, type, data, size, name ? name : "(unnamed)");
}

DRV_API CUresult cuLinkAddFile(CUlinkState state, CUjitInputType type, const char *path,
                               unsigned int numOptions, CUjit_option *options, void **optionValues)
{
    FILE *fp;
    char *buf = NULL;
    long n = -1;
    CUresult r;

    (void)numOptions, (void)options, (void)optionValues;
    if (!link_ok(state) || !path)
        return CUDA_ERROR_INVALID_VALUE;
    if ((fp = fopen(path, "rb")) && !fseek(fp, 0, SEEK_END) && (n = ftell(fp)) >= 0 &&
        !fseek(fp, 0, SEEK_SET) && (buf = malloc((size_t)n + 1)) &&
        fread(buf, 1, (size_t)n, fp) == (size_t)n) {
        buf[n] = '\0';
        r = add_unit(state, type, buf, (size_t)n, path);
    } else {
        fprintf(stderr, "ptxsim: cuLinkAddFile: cannot read %s\n", path);
        r = CUDA_ERROR_FILE_NOT_FOUND;
    }
    if (fp)
        fclose(fp);
    free(buf);
    return r;
}

DRV_API CUresult cuLinkComplete(CUlinkState state, void **cubinOut, size_t *sizeOut)
{
    struct ptx_link_unit *u;
    struct ps_err err;
    int rc;

    if (!link_ok(state) || !cubinOut || !sizeOut)
        return CUDA_ERROR_INVALID_VALUE;
    if (!state->n)
        return CUDA_ERROR_INVALID_VALUE;
    if (!(u = calloc(state->n, sizeof(*u))))
        return CUDA_ERROR_OUT_OF_MEMORY;
    for (uint32_t i = 0; i < state->n; i++)
        u[i] = (struct ptx_link_unit){state->texts[i], state->lens[i]};
    free(state->out);
    state->out = NULL;
    ps_err_clear(&err);
    rc = ptx_link(u, state->n, &state->out, &state->out_len, &err);
    free(u);
    drv_jit_finish(&state->jit, rc ? err.msg : "");
    if (rc) {
        fprintf(stderr, "ptxsim: cuLinkComplete: %s\n", err.msg);
        return rc == PS_ENOMEM ? CUDA_ERROR_OUT_OF_MEMORY : CUDA_ERROR_INVALID_PTX;
    }
    *cubinOut = state->out;
    *sizeOut = state->out_len + 1;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuLinkDestroy(CUlinkState state)
{
    if (!link_ok(state))
        return CUDA_ERROR_INVALID_VALUE;
    for (uint32_t i = 0; i < state->n; i++)
        free(state->texts[i]);
    free(state->texts);
    free(state->lens);
    free(state->out);
    state->magic = 0;
    free(state);
    return CUDA_SUCCESS;
}
