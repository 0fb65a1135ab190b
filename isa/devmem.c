/*
 * The device address space. Allocations and free ranges of the global window
 * are two address trees (isa/addrtree.h): placement is first fit in address
 * order, lookups find the allocation holding an address, both O(log n).
 *
 * Pages: the device maps memory in ISA_PAGE_SIZE pages, as the CUDA
 * allocator maps 2 MiB chunks and packs small allocations into them. A page
 * is mapped while any device allocation overlaps it, and the page just below
 * the window (the driver's own memory) always is. A kernel access inside a
 * mapped page but outside every allocation succeeds as on a GPU: it reads and
 * writes the page's backing (devmem_page.c), and is counted. Under memcheck
 * every such access faults instead, as every access to an unmapped page does.
 */
#include "isa/devmem.h"

#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "isa/devmem_int.h"

struct isa_devmem *isa_devmem_create(void)
{
    struct isa_devmem *m = calloc(1, sizeof(*m));
    struct free_range *f = calloc(1, sizeof(*f));

    if (!m || !f) {
        free(m);
        free(f);
        return NULL;
    }
    f->node.key = ISA_GLOBAL_BASE;
    f->node.len = ISA_GLOBAL_END - ISA_GLOBAL_BASE;
    isa_atree_insert(&m->free, &f->node);
    m->page_refs[0] = 1; /* the driver's page below the window */
    return m;
}

static void free_tree(struct isa_anode *t, bool allocs)
{
    if (!t)
        return;
    free_tree(t->l, allocs);
    free_tree(t->r, allocs);
    if (allocs) {
        struct alloc_rec *r = rec_of(t);

        if (r->a.owned)
            free(r->a.data);
        free(r);
    } else {
        free(free_of(t));
    }
}

void isa_devmem_destroy(struct isa_devmem *m)
{
    if (!m)
        return;
    free_tree(m->allocs, true);
    free_tree(m->free, false);
    devmem_pages_free(m);
    devmem_index_free(m);
    free(m);
}

void isa_devmem_set_memcheck(struct isa_devmem *m, bool on)
{
    m->memcheck = on;
}

static uint64_t align_up(uint64_t v, uint64_t a)
{
    return (v + a - 1) & ~(a - 1);
}

/* Bytes an allocation occupies in the address space: its size, whole 256-byte units. */
static uint64_t slot_of(uint64_t size)
{
    return align_up(size ? size : 1, ISA_MIN_ALIGN);
}

/* Takes [lo, hi) (inside the window and free) out of the free ranges; PS_EINVAL if not free. */
static int take(struct isa_devmem *m, uint64_t lo, uint64_t hi)
{
    struct isa_anode *n = isa_atree_floor(m->free, lo);
    uint64_t start, end;
    struct free_range *tail;

    if (!n || n->key + n->len < hi)
        return PS_EINVAL;
    start = n->key;
    end = n->key + n->len;
    tail = end > hi ? calloc(1, sizeof(*tail)) : NULL;
    if (end > hi && !tail)
        return PS_ENOMEM;
    isa_atree_remove(&m->free, start);
    if (lo > start) { /* the part before stays free */
        n->len = lo - start;
        isa_atree_insert(&m->free, n);
    } else {
        free(free_of(n));
    }
    if (tail) {
        tail->node.key = hi;
        tail->node.len = end - hi;
        isa_atree_insert(&m->free, &tail->node);
    }
    return 0;
}

/* Returns [lo, hi) to the free ranges, joined with free neighbours. */
static void give_back(struct isa_devmem *m, uint64_t lo, uint64_t hi)
{
    struct isa_anode *prev = isa_atree_floor(m->free, lo), *next = isa_atree_ceil(m->free, hi);
    struct free_range *f;

    if (next && next->key == hi) {
        hi += next->len;
        free(free_of(isa_atree_remove(&m->free, next->key)));
    }
    if (prev && prev->key + prev->len == lo) {
        isa_atree_remove(&m->free, prev->key);
        prev->len = hi - prev->key;
        isa_atree_insert(&m->free, prev);
        return;
    }
    f = calloc(1, sizeof(*f));
    if (!f)
        return; /* the range stays unusable; nothing else is lost */
    f->node.key = lo;
    f->node.len = hi - lo;
    isa_atree_insert(&m->free, &f->node);
}

/* The window part [lo, hi) of [addr, addr+size); false when there is none. */
static bool in_window(uint64_t addr, uint64_t size, uint64_t *lo, uint64_t *hi)
{
    *lo = addr > ISA_GLOBAL_BASE ? addr : ISA_GLOBAL_BASE;
    *hi = addr + size < ISA_GLOBAL_END ? addr + size : ISA_GLOBAL_END;
    return *lo < *hi;
}

static int add_rec(struct isa_devmem *m, struct isa_alloc a, uint64_t span)
{
    struct alloc_rec *r = calloc(1, sizeof(*r));

    if (!r)
        return PS_ENOMEM;
    r->a = a;
    r->node.key = a.addr;
    r->node.len = span;
    if (devmem_index_add(m, r)) {
        free(r);
        return PS_ENOMEM;
    }
    isa_atree_insert(&m->allocs, &r->node);
    m->n++;
    m->used += a.size;
    if (a.owned)
        devmem_pages_ref(m, a.addr, span, 1);
    return 0;
}

int isa_devmem_map(struct isa_devmem *m, uint64_t addr, void *host, uint64_t size,
                   enum isa_alloc_kind kind)
{
    struct isa_anode *p;
    uint64_t lo, hi;
    int rc;

    if (!size || addr + size < addr)
        return PS_EINVAL;
    p = isa_atree_floor(m->allocs, addr + size - 1);
    if (p && p->key + p->len > addr)
        return PS_EINVAL; /* overlaps an allocation */
    if (in_window(addr, size, &lo, &hi) && (rc = take(m, lo, hi)))
        return rc;
    rc = add_rec(m, (struct isa_alloc){addr, size, (uint8_t)kind, false, false, host}, size);
    if (rc && in_window(addr, size, &lo, &hi))
        give_back(m, lo, hi);
    return rc;
}

int isa_devmem_alloc(struct isa_devmem *m, uint64_t size, uint64_t align, enum isa_alloc_kind kind,
                     uint64_t *addr)
{
    uint64_t span = slot_of(size);
    struct isa_anode *f;
    uint8_t *data;

    if (align < ISA_MIN_ALIGN)
        align = ISA_MIN_ALIGN;
    if (align & (align - 1))
        return PS_EINVAL;
    if (size > ISA_GLOBAL_END - ISA_GLOBAL_BASE)
        return PS_ENOMEM;
    f = isa_atree_first_fit(m->free, span, align);
    if (!f)
        return PS_ENOMEM;
    *addr = align_up(f->key, align);
    /* The whole slot is backed, so an access just past the end stays inside one buffer. */
    data = calloc(1, span);
    if (!data)
        return PS_ENOMEM;
    if (take(m, *addr, *addr + span)) {
        free(data);
        return PS_ENOMEM;
    }
    if (add_rec(m, (struct isa_alloc){*addr, size, (uint8_t)kind, true, false, data}, span)) {
        give_back(m, *addr, *addr + span);
        free(data);
        return PS_ENOMEM;
    }
    return 0;
}

/* The allocation whose span holds addr (its span ends at *span_end), or NULL. */
static const struct isa_alloc *lookup(const struct isa_devmem *m, uint64_t addr, uint64_t *span_end)
{
    struct isa_anode *n;

    if (addr >= ISA_GLOBAL_BASE && addr < ISA_GLOBAL_END) /* the common case: the index */
        return devmem_index_find(m, addr, span_end);
    n = isa_atree_floor(m->allocs, addr);
    if (!n || addr - n->key >= n->len)
        return NULL;
    *span_end = n->key + n->len;
    return &rec_of(n)->a;
}

int isa_devmem_set_readonly(struct isa_devmem *m, uint64_t addr)
{
    struct isa_anode *n = isa_atree_floor(m->allocs, addr);
    struct alloc_rec *r = n && n->key == addr ? rec_of(n) : NULL;

    if (!r || r->a.owned)
        return PS_EINVAL;
    /* The index holds a copy of the record: take it out and put it back with the flag. */
    devmem_index_del(m, r);
    r->a.readonly = true;
    return devmem_index_add(m, r);
}

int isa_devmem_free(struct isa_devmem *m, uint64_t addr)
{
    struct isa_anode *n = isa_atree_floor(m->allocs, addr);
    struct alloc_rec *r = n && n->key == addr ? rec_of(n) : NULL;
    uint64_t lo, hi, span;

    if (!r)
        return PS_EINVAL;
    span = r->node.len;
    devmem_index_del(m, r);
    isa_atree_remove(&m->allocs, addr);
    if (r->a.owned) {
        devmem_pages_ref(m, addr, span, -1);
        free(r->a.data);
    }
    if (in_window(addr, span, &lo, &hi))
        give_back(m, lo, hi);
    m->used -= r->a.size;
    m->n--;
    free(r);
    return 0;
}

const struct isa_alloc *isa_devmem_find(const struct isa_devmem *m, uint64_t addr, uint64_t size)
{
    uint64_t end;
    const struct isa_alloc *a = lookup(m, addr, &end);

    if (!a || size > a->size || addr - a->addr > a->size - size)
        return NULL;
    return a;
}

uint8_t *isa_devmem_ptr(const struct isa_devmem *m, uint64_t addr, uint64_t size)
{
    const struct isa_alloc *a = isa_devmem_find(m, addr, size);

    return a ? a->data + (addr - a->addr) : NULL;
}

uint8_t *isa_devmem_access(struct isa_devmem *m, uint64_t addr, uint32_t size,
                           const struct isa_alloc **hit)
{
    uint64_t end = 0;
    const struct isa_alloc *a = lookup(m, addr, &end);
    uint8_t *p;

    *hit = NULL;
    if (a && size <= a->size && addr - a->addr <= a->size - size) {
        *hit = a;
        return a->data + (addr - a->addr);
    }
    if (m->memcheck)
        return NULL;
    if (a && a->owned && size <= end - addr) {
        m->outside++; /* past the end, inside the allocation's 256-byte slot */
        return a->data + (addr - a->addr);
    }
    if (a || !devmem_page_mapped(m, addr, size))
        return NULL;
    p = devmem_page_backing(m, addr, size);
    m->outside += p != NULL;
    return p;
}

uint64_t isa_devmem_outside_count(const struct isa_devmem *m)
{
    return m->outside;
}

static int range_error(uint64_t addr, uint64_t size, struct ps_err *err)
{
    return ps_err_set(err, PS_EFAULT,
                      "device address range 0x%llx..0x%llx is not inside one (writable) allocation",
                      (unsigned long long)addr, (unsigned long long)(addr + size));
}

int isa_devmem_read(const struct isa_devmem *m, uint64_t addr, void *dst, uint64_t size,
                    struct ps_err *err)
{
    uint8_t *p = size ? isa_devmem_ptr(m, addr, size) : NULL;

    if (!size)
        return 0;
    if (!p)
        return range_error(addr, size, err);
    memcpy(dst, p, size);
    return 0;
}

/* Host pointer for a copy or set into [addr, addr+size): one writable allocation. */
static uint8_t *writable(const struct isa_devmem *m, uint64_t addr, uint64_t size)
{
    const struct isa_alloc *a = isa_devmem_find(m, addr, size);

    return a && !a->readonly ? a->data + (addr - a->addr) : NULL;
}

int isa_devmem_write(struct isa_devmem *m, uint64_t addr, const void *src, uint64_t size,
                     struct ps_err *err)
{
    uint8_t *p = size ? writable(m, addr, size) : NULL;

    if (!size)
        return 0;
    if (!p)
        return range_error(addr, size, err);
    memcpy(p, src, size);
    return 0;
}

int isa_devmem_set(struct isa_devmem *m, uint64_t addr, int value, uint64_t size,
                   struct ps_err *err)
{
    uint8_t *p = size ? writable(m, addr, size) : NULL;

    if (!size)
        return 0;
    if (!p)
        return range_error(addr, size, err);
    memset(p, value, size);
    return 0;
}

uint64_t isa_devmem_used(const struct isa_devmem *m)
{
    return m->used;
}

uint32_t isa_devmem_count(const struct isa_devmem *m)
{
    return m->n;
}
