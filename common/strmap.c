#include "common/strmap.h"

#include <stdlib.h>
#include <string.h>

/* Deleted slots keep their place in a probe chain. */
#define TOMBSTONE ((const char *)1)

struct slot {
    const char *key;
    uint32_t len;
    uint32_t hash;
    uint32_t val;
};

struct ps_strmap {
    struct slot *slots;
    size_t cap; /* power of two */
    size_t count;
    size_t used; /* count + tombstones */
};

uint32_t ps_strhash(const char *s, size_t len)
{
    uint32_t h = 2166136261u;

    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)s[i];
        h *= 16777619u;
    }
    return h;
}

struct ps_strmap *ps_strmap_create(void)
{
    return calloc(1, sizeof(struct ps_strmap));
}

void ps_strmap_destroy(struct ps_strmap *m)
{
    if (!m)
        return;
    free(m->slots);
    free(m);
}

static struct slot *find(const struct ps_strmap *m, const char *key, size_t len, uint32_t h)
{
    size_t mask, i;

    if (!m->cap)
        return NULL;
    mask = m->cap - 1;
    for (i = h & mask;; i = (i + 1) & mask) {
        struct slot *s = &m->slots[i];

        if (!s->key)
            return NULL;
        if (s->key != TOMBSTONE && s->hash == h && s->len == len && !memcmp(s->key, key, len))
            return s;
    }
}

/* Rehashes into a table twice as big, or the same size when tombstones fill it. */
static int grow(struct ps_strmap *m)
{
    size_t ncap = !m->cap ? 64 : (m->count * 4 >= m->cap ? m->cap * 2 : m->cap);
    struct slot *ns = calloc(ncap, sizeof(*ns));

    if (!ns)
        return -1;
    for (size_t i = 0; i < m->cap; i++) {
        struct slot *s = &m->slots[i];
        size_t j;

        if (!s->key || s->key == TOMBSTONE)
            continue;
        for (j = s->hash & (ncap - 1); ns[j].key; j = (j + 1) & (ncap - 1))
            ;
        ns[j] = *s;
    }
    free(m->slots);
    m->slots = ns;
    m->cap = ncap;
    m->used = m->count;
    return 0;
}

uint32_t ps_strmap_get(const struct ps_strmap *m, const char *key, size_t len)
{
    const struct slot *s = find(m, key, len, ps_strhash(key, len));

    return s ? s->val : PS_STRMAP_NONE;
}

uint32_t ps_strmap_put(struct ps_strmap *m, const char *key, size_t len, uint32_t val, bool *oom)
{
    uint32_t h = ps_strhash(key, len);
    struct slot *s = find(m, key, len, h);
    size_t i;

    if (s) {
        uint32_t old = s->val;
        s->val = val;
        return old;
    }
    if ((m->used + 1) * 4 >= m->cap * 3 && grow(m)) {
        if (oom)
            *oom = true;
        return PS_STRMAP_NONE;
    }
    for (i = h & (m->cap - 1); m->slots[i].key && m->slots[i].key != TOMBSTONE;
         i = (i + 1) & (m->cap - 1))
        ;
    if (!m->slots[i].key)
        m->used++;
    m->slots[i] = (struct slot){key, (uint32_t)len, h, val};
    m->count++;
    return PS_STRMAP_NONE;
}

uint32_t ps_strmap_del(struct ps_strmap *m, const char *key, size_t len)
{
    struct slot *s = find(m, key, len, ps_strhash(key, len));
    uint32_t old;

    if (!s)
        return PS_STRMAP_NONE;
    old = s->val;
    s->key = TOMBSTONE;
    m->count--;
    return old;
}

size_t ps_strmap_count(const struct ps_strmap *m)
{
    return m->count;
}
