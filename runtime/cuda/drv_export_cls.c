/*
 * Context-local storage (private table c693336e): the CUDA runtime keeps its
 * state for each context under a key of its own, with a destructor to call
 * when the context goes away (cuCtxDestroy, cuDevicePrimaryCtxReset). Slots:
 * 0 put(ctx, key, value, destructor), 1 remove(ctx, key), 2 get(&value,
 * ctx, key) (CUDA_ERROR_INVALID_HANDLE when nothing is stored); a NULL
 * context is the current one. docs/cuda-driver.md.
 */
#include <pthread.h>
#include <stdlib.h>

#include "runtime/cuda/drv_export.h"

typedef void (*cls_dtor)(CUcontext ctx, void *key, void *value);

struct cls_entry {
    CUcontext ctx;
    void *key, *value;
    cls_dtor dtor;
    struct cls_entry *next;
};

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static struct cls_entry *g_entries;

static CUcontext which(CUcontext ctx)
{
    CUcontext cur;

    if (ctx)
        return ctx;
    cur = drv_ctx_current();
    return cur ? cur : drv_ctx_primary();
}

static struct cls_entry **find(CUcontext ctx, void *key)
{
    struct cls_entry **e = &g_entries;

    while (*e && ((*e)->ctx != ctx || (*e)->key != key))
        e = &(*e)->next;
    return e;
}

static CUresult cls_put(CUcontext ctx, void *key, void *value, cls_dtor dtor)
{
    struct cls_entry **e, *n;

    TRACE("cls slot 0 (ctx %p, key %p, value %p, dtor %p)", (void *)ctx, key, value, (void *)dtor);
    ctx = which(ctx);
    pthread_mutex_lock(&g_lock);
    e = find(ctx, key);
    if (!*e) {
        if (!(n = calloc(1, sizeof(*n)))) {
            pthread_mutex_unlock(&g_lock);
            return CUDA_ERROR_OUT_OF_MEMORY;
        }
        n->ctx = ctx;
        n->key = key;
        n->next = g_entries;
        g_entries = n;
        e = &g_entries;
    }
    (*e)->value = value;
    (*e)->dtor = dtor;
    pthread_mutex_unlock(&g_lock);
    return CUDA_SUCCESS;
}

static CUresult cls_remove(CUcontext ctx, void *key)
{
    struct cls_entry **e, *dead = NULL;

    TRACE("cls slot 1 (ctx %p, key %p)", (void *)ctx, key);
    ctx = which(ctx);
    pthread_mutex_lock(&g_lock);
    e = find(ctx, key);
    if (*e) {
        dead = *e;
        *e = dead->next;
    }
    pthread_mutex_unlock(&g_lock);
    free(dead);
    return dead ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

static CUresult cls_get(void **value, CUcontext ctx, void *key)
{
    struct cls_entry **e;
    CUresult r = CUDA_ERROR_INVALID_HANDLE;

    if (!value)
        return CUDA_ERROR_INVALID_VALUE;
    ctx = which(ctx);
    pthread_mutex_lock(&g_lock);
    e = find(ctx, key);
    *value = *e ? (*e)->value : NULL;
    if (*e)
        r = CUDA_SUCCESS;
    pthread_mutex_unlock(&g_lock);
    TRACE("cls slot 2 (ctx %p, key %p): %p", (void *)ctx, key, *value);
    return r;
}

static CUresult cls_3(void)
{
    TRACE("cls slot 3: refused");
    return drv_unsupported("private table cls slot 3", "its use is not known");
}

const void *const drv_cls_table[4] = {(void *)cls_put, (void *)cls_remove, (void *)cls_get,
                                      (void *)cls_3};

void drv_cls_release(CUcontext ctx)
{
    struct cls_entry **e = &g_entries, *gone = NULL, *n;

    pthread_mutex_lock(&g_lock);
    while (*e) {
        if ((*e)->ctx == ctx) {
            n = *e;
            *e = n->next;
            n->next = gone;
            gone = n;
        } else {
            e = &(*e)->next;
        }
    }
    pthread_mutex_unlock(&g_lock);
    while ((n = gone)) { /* outside the lock: a destructor may call back into the table */
        gone = n->next;
        if (n->dtor)
            n->dtor(n->ctx, n->key, n->value);
        free(n);
    }
}
