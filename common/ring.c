/* The ring buffer's allocation; see ring.h. */
#include "common/ring.h"

#include <stdlib.h>

/* The smallest power of two >= n (n >= 1). */
static uint32_t pow2_at_least(uint32_t n)
{
    uint32_t p = 1;

    while (p < n)
        p *= 2;
    return p;
}

int ps_ring_init(struct ps_ring *r, size_t esize, uint32_t cap)
{
    uint32_t size = cap ? pow2_at_least(cap) : 0;

    r->esize = esize;
    r->cap = r->mask = r->head = r->n = 0;
    r->buf = NULL;
    if (!cap)
        return 0;
    r->buf = malloc(esize * size);
    if (!r->buf)
        return -1;
    r->cap = cap;
    r->mask = size - 1;
    return 0;
}

void ps_ring_fini(struct ps_ring *r)
{
    free(r->buf);
    r->buf = NULL;
    r->cap = r->mask = r->head = r->n = 0;
}

bool ps_ring_reserve(struct ps_ring *r, uint32_t n)
{
    uint32_t cap;
    unsigned char *b;

    if (r->n + n <= r->cap) /* the common case: checked before any rounding */
        return true;
    cap = r->cap ? pow2_at_least(r->cap) : 8;
    while (cap < r->n + n)
        cap *= 2;
    b = malloc(r->esize * cap);
    if (!b)
        return false;
    for (uint32_t i = 0; i < r->n; i++)
        memcpy(b + (size_t)i * r->esize, ps_ring_at(r, i), r->esize);
    free(r->buf);
    r->buf = b;
    r->cap = cap;
    r->mask = cap - 1;
    r->head = 0;
    return true;
}
