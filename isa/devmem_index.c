/*
 * A direct index of the allocations in the global window, for the lookup on
 * every kernel access: the window is cut into ISA_IDX_BLOCK blocks, and each
 * block keeps a sorted array of the allocations that overlap it (at most
 * ISA_IDX_BLOCK / 256 of them, as allocations take whole 256-byte units).
 * A lookup is one table read and a binary search in one small contiguous
 * array, so it stays cache-friendly with 100,000 live allocations, where a
 * walk down the address tree misses the cache at nearly every level.
 * Adding or removing an allocation touches the blocks it spans.
 */
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "isa/devmem_int.h"

/* A copy of the allocation, so a lookup reads one array and not the record it came from. */
struct idx_ent {
    uint64_t hi; /* end of the allocation's span */
    struct isa_alloc a;
    struct alloc_rec *r;
};

/* The block range [*first, *last] of [lo, hi) clipped to the window; false when outside. */
static bool blocks(uint64_t lo, uint64_t hi, uint64_t *first, uint64_t *last)
{
    if (hi <= ISA_GLOBAL_BASE || lo >= ISA_GLOBAL_END || hi <= lo)
        return false;
    lo = lo < ISA_GLOBAL_BASE ? ISA_GLOBAL_BASE : lo;
    hi = hi > ISA_GLOBAL_END ? ISA_GLOBAL_END : hi;
    *first = (lo - ISA_GLOBAL_BASE) / ISA_IDX_BLOCK;
    *last = (hi - 1 - ISA_GLOBAL_BASE) / ISA_IDX_BLOCK;
    return true;
}

/* Position of the first entry with lo > addr. */
static uint32_t upper(const struct idx_blk *b, uint64_t addr)
{
    uint32_t lo = 0, hi = b->n;

    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;

        if (b->e[mid].a.addr <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static int blk_add(struct idx_blk *b, struct idx_ent e)
{
    uint32_t at;

    if (b->n == b->cap) {
        uint32_t ncap = b->cap ? b->cap * 2 : 4;
        struct idx_ent *ne = realloc(b->e, ncap * sizeof(*ne));

        if (!ne)
            return PS_ENOMEM;
        b->e = ne;
        b->cap = ncap;
    }
    at = upper(b, e.a.addr);
    memmove(&b->e[at + 1], &b->e[at], (b->n - at) * sizeof(*b->e));
    b->e[at] = e;
    b->n++;
    return 0;
}

static void blk_del(struct idx_blk *b, uint64_t lo)
{
    uint32_t at = upper(b, lo);

    if (at && b->e[at - 1].a.addr == lo) {
        memmove(&b->e[at - 1], &b->e[at], (b->n - at) * sizeof(*b->e));
        b->n--;
    }
}

void devmem_index_del(struct isa_devmem *m, const struct alloc_rec *r)
{
    uint64_t first, last;

    if (!m->idx || !blocks(r->node.key, r->node.key + r->node.len, &first, &last))
        return;
    for (uint64_t i = first; i <= last; i++)
        blk_del(&m->idx[i], r->node.key);
}

int devmem_index_add(struct isa_devmem *m, struct alloc_rec *r)
{
    uint64_t first, last;
    struct idx_ent e = {r->node.key + r->node.len, r->a, r};

    if (!blocks(r->node.key, e.hi, &first, &last))
        return 0;
    /* Large and zero-filled: the system maps its pages as blocks are first used. */
    if (!m->idx && !(m->idx = calloc(ISA_NIDX, sizeof(*m->idx))))
        return PS_ENOMEM;
    for (uint64_t i = first; i <= last; i++) {
        if (blk_add(&m->idx[i], e)) {
            devmem_index_del(m, r); /* undo the blocks done so far */
            return PS_ENOMEM;
        }
    }
    return 0;
}

const struct isa_alloc *devmem_index_find(const struct isa_devmem *m, uint64_t addr,
                                          uint64_t *span_end)
{
    const struct idx_blk *b;
    uint32_t at;

    b = m->idx ? &m->idx[(addr - ISA_GLOBAL_BASE) / ISA_IDX_BLOCK] : NULL;
    if (!b || !(at = upper(b, addr)) || addr >= b->e[at - 1].hi)
        return NULL;
    *span_end = b->e[at - 1].hi;
    return &b->e[at - 1].a;
}

void devmem_index_free(struct isa_devmem *m)
{
    if (!m->idx)
        return;
    for (uint64_t i = 0; i < ISA_NIDX; i++)
        free(m->idx[i].e);
    free(m->idx);
    m->idx = NULL;
}
