/*
 * The registry of live OpenCL objects. A handle the program passes in is
 * looked up here before anything reads through it, so a garbage pointer or a
 * released object is answered with the API's "invalid object" error instead
 * of a read of unknown or freed memory. An object is registered when it is
 * made and dropped just before its memory is freed; a handle that later
 * names new memory at the same address is that new object (a new identity),
 * as in any implementation whose handles are pointers.
 *
 * An open-addressing hash set of pointers (linear probing, tombstones,
 * rebuilt at 3/4 load), guarded by one mutex: O(1) per lookup.
 */
#include <stdlib.h>

#include "runtime/opencl/ocl.h"

#define TOMB ((const void *)1)

static struct {
    pthread_mutex_t lock;
    const void **slot;
    size_t cap, used, live; /* used counts live entries and tombstones */
} g_reg = {PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0, 0};

static size_t hash(const void *p, size_t cap)
{
    uint64_t h = (uint64_t)(uintptr_t)p;

    h ^= h >> 33;
    h *= UINT64_C(0xff51afd7ed558ccd);
    h ^= h >> 33;
    return (size_t)h & (cap - 1);
}

/* Index of p, or of the first empty slot of its probe run when absent (with *found false). */
static size_t probe(const void *p, bool *found)
{
    size_t i = hash(p, g_reg.cap);

    for (;; i = (i + 1) & (g_reg.cap - 1)) {
        if (g_reg.slot[i] == p) {
            *found = true;
            return i;
        }
        if (!g_reg.slot[i]) {
            *found = false;
            return i;
        }
    }
}

static bool rebuild(size_t cap)
{
    const void **old = g_reg.slot;
    size_t ocap = g_reg.cap;
    bool found;

    g_reg.slot = calloc(cap, sizeof(*g_reg.slot));
    if (!g_reg.slot) {
        g_reg.slot = old;
        return false;
    }
    g_reg.cap = cap;
    g_reg.used = g_reg.live;
    for (size_t i = 0; i < ocap; i++)
        if (old[i] && old[i] != TOMB)
            g_reg.slot[probe(old[i], &found)] = old[i];
    free(old);
    return true;
}

bool ocl_registry_add(const void *obj)
{
    bool ok = true, found;

    pthread_mutex_lock(&g_reg.lock);
    if ((g_reg.used + 1) * 4 > g_reg.cap * 3) {
        size_t cap = 64; /* a power of two (the probe masks with cap - 1), 1/4 full at most */

        while (cap < g_reg.live * 4)
            cap *= 2;
        ok = rebuild(cap);
    }
    if (ok) {
        size_t i = probe(obj, &found);

        if (!found) {
            g_reg.slot[i] = obj;
            g_reg.used++;
            g_reg.live++;
        }
    }
    pthread_mutex_unlock(&g_reg.lock);
    return ok;
}

void ocl_registry_remove(const void *obj)
{
    bool found = false;
    size_t i;

    pthread_mutex_lock(&g_reg.lock);
    i = g_reg.cap ? probe(obj, &found) : 0;
    if (found) {
        g_reg.slot[i] = TOMB;
        g_reg.live--;
    }
    pthread_mutex_unlock(&g_reg.lock);
}

bool ocl_registry_has(const void *obj)
{
    bool found = false;

    if (!obj || obj == TOMB)
        return false;
    pthread_mutex_lock(&g_reg.lock);
    if (g_reg.cap)
        probe(obj, &found);
    pthread_mutex_unlock(&g_reg.lock);
    return found;
}

static struct {
    void *obj[OCL_QUARANTINE];
    size_t next, n;
} g_quar; /* guarded by g_reg.lock */

void ocl_retire(void *obj)
{
    struct _cl_platform_id *o = obj;
    void *old = NULL;

    ocl_registry_remove(obj);
    pthread_mutex_lock(&g_reg.lock);
    o->magic = 0;
    if (g_quar.n == OCL_QUARANTINE)
        old = g_quar.obj[g_quar.next];
    else
        g_quar.n++;
    g_quar.obj[g_quar.next] = obj;
    g_quar.next = (g_quar.next + 1) % OCL_QUARANTINE;
    pthread_mutex_unlock(&g_reg.lock);
    free(old);
}

__attribute__((destructor)) static void registry_fini(void)
{
    pthread_mutex_lock(&g_reg.lock);
    for (size_t i = 0; i < g_quar.n; i++)
        free(g_quar.obj[i]);
    g_quar.n = g_quar.next = 0;
    free(g_reg.slot);
    g_reg.slot = NULL;
    g_reg.cap = g_reg.used = g_reg.live = 0;
    pthread_mutex_unlock(&g_reg.lock);
}
