/* The ring buffer's allocation; see ring.h. */
#include "common/ring.h"

#include <stdlib.h>

int ps_ring_init(struct ps_ring *r, size_t esize, uint32_t cap)
{
    r->esize = esize;
    r->cap = r->head = r->n = 0;
    r->buf = NULL;
    if (!cap)
        return 0;
    r->buf = malloc(esize * cap);
    if (!r->buf)
        return -1;
    r->cap = cap;
    return 0;
}

void ps_ring_fini(struct ps_ring *r)
{
    free(r->buf);
    r->buf = NULL;
    r->cap = r->head = r->n = 0;
}

bool ps_ring_reserve(struct ps_ring *r, uint32_t n)
{
    uint32_t cap = r->cap ? r->cap : 8;
    unsigned char *b;

    if (r->n + n <= r->cap)
        return true;
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
    r->head = 0;
    return true;
}
