#include "isa/devmem.h"

#include <stdlib.h>
#include <string.h>

#include "common/err.h"

#define MIN_ALIGN 256

/* Live allocations sorted by address; binary search finds the owner of an address. */
struct isa_devmem {
    struct isa_alloc *a;
    uint32_t n, cap;
    uint64_t used;
};

struct isa_devmem *isa_devmem_create(void)
{
    return calloc(1, sizeof(struct isa_devmem));
}

void isa_devmem_destroy(struct isa_devmem *m)
{
    if (!m)
        return;
    for (uint32_t i = 0; i < m->n; i++)
        if (m->a[i].owned)
            free(m->a[i].data);
    free(m->a);
    free(m);
}

static uint64_t align_up(uint64_t v, uint64_t a)
{
    return (v + a - 1) & ~(a - 1);
}

/* First address >= base (aligned) with a gap of size before the next allocation. */
static int find_gap(const struct isa_devmem *m, uint64_t size, uint64_t align, uint64_t *addr,
                    uint32_t *pos)
{
    uint64_t cand = align_up(ISA_GLOBAL_BASE, align);

    for (uint32_t i = 0; i <= m->n; i++) {
        uint64_t limit = i < m->n && m->a[i].addr < ISA_GLOBAL_END ? m->a[i].addr : ISA_GLOBAL_END;

        if (cand <= limit && limit - cand >= size) {
            *addr = cand;
            *pos = i;
            return 0;
        }
        if (i < m->n && m->a[i].addr >= ISA_GLOBAL_END)
            break;
        if (i < m->n)
            cand = align_up(m->a[i].addr + align_up(m->a[i].size ? m->a[i].size : 1, MIN_ALIGN),
                            align);
    }
    return PS_ENOMEM;
}

static int insert(struct isa_devmem *m, uint32_t pos, struct isa_alloc a)
{
    if (m->n == m->cap) {
        uint32_t ncap = m->cap ? m->cap * 2 : 16;
        struct isa_alloc *na = realloc(m->a, ncap * sizeof(*na));

        if (!na)
            return PS_ENOMEM;
        m->a = na;
        m->cap = ncap;
    }
    memmove(&m->a[pos + 1], &m->a[pos], (m->n - pos) * sizeof(*m->a));
    m->a[pos] = a;
    m->n++;
    m->used += a.size;
    return 0;
}

int isa_devmem_map(struct isa_devmem *m, uint64_t addr, void *host, uint64_t size,
                   enum isa_alloc_kind kind)
{
    uint32_t pos = 0;

    if (!size || addr + size < addr)
        return PS_EINVAL;
    while (pos < m->n && m->a[pos].addr < addr)
        pos++;
    if ((pos > 0 && m->a[pos - 1].addr + m->a[pos - 1].size > addr) ||
        (pos < m->n && addr + size > m->a[pos].addr))
        return PS_EINVAL;
    return insert(m, pos, (struct isa_alloc){addr, size, (uint8_t)kind, false, host});
}

int isa_devmem_alloc(struct isa_devmem *m, uint64_t size, uint64_t align, enum isa_alloc_kind kind,
                     uint64_t *addr)
{
    uint32_t pos;
    uint8_t *data;

    if (align < MIN_ALIGN)
        align = MIN_ALIGN;
    if (align & (align - 1))
        return PS_EINVAL;
    if (size > ISA_GLOBAL_END - ISA_GLOBAL_BASE || find_gap(m, size, align, addr, &pos))
        return PS_ENOMEM;
    data = calloc(1, size ? size : 1);
    if (!data)
        return PS_ENOMEM;
    if (insert(m, pos, (struct isa_alloc){*addr, size, (uint8_t)kind, true, data})) {
        free(data);
        return PS_ENOMEM;
    }
    return 0;
}

/* Index of the allocation with a->addr <= addr < a->addr + max(size,1), or -1. */
static int64_t lookup(const struct isa_devmem *m, uint64_t addr)
{
    uint32_t lo = 0, hi = m->n;

    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;

        if (m->a[mid].addr <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return -1;
    lo--;
    if (addr - m->a[lo].addr < (m->a[lo].size ? m->a[lo].size : 1))
        return lo;
    return -1;
}

int isa_devmem_free(struct isa_devmem *m, uint64_t addr)
{
    int64_t i = lookup(m, addr);

    if (i < 0 || m->a[i].addr != addr)
        return PS_EINVAL;
    if (m->a[i].owned)
        free(m->a[i].data);
    m->used -= m->a[i].size;
    memmove(&m->a[i], &m->a[i + 1], (m->n - (uint32_t)i - 1) * sizeof(*m->a));
    m->n--;
    return 0;
}

const struct isa_alloc *isa_devmem_find(const struct isa_devmem *m, uint64_t addr, uint64_t size)
{
    int64_t i = lookup(m, addr);

    if (i < 0)
        return NULL;
    if (size > m->a[i].size || addr - m->a[i].addr > m->a[i].size - size)
        return NULL;
    return &m->a[i];
}

uint8_t *isa_devmem_ptr(const struct isa_devmem *m, uint64_t addr, uint64_t size)
{
    const struct isa_alloc *a = isa_devmem_find(m, addr, size);

    return a ? a->data + (addr - a->addr) : NULL;
}

static int range_error(uint64_t addr, uint64_t size, struct ps_err *err)
{
    return ps_err_set(err, PS_EFAULT,
                      "device address range 0x%llx..0x%llx is not inside one allocation",
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

int isa_devmem_write(struct isa_devmem *m, uint64_t addr, const void *src, uint64_t size,
                     struct ps_err *err)
{
    uint8_t *p = size ? isa_devmem_ptr(m, addr, size) : NULL;

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
    uint8_t *p = size ? isa_devmem_ptr(m, addr, size) : NULL;

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
