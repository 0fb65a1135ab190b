/*
 * Pages of the device address space: which ISA_PAGE_SIZE pages are mapped
 * (a reference count of the device allocations overlapping each), and the
 * backing of memory in mapped pages that no allocation holds, made in 64 KiB
 * zero-filled blocks when first touched.
 */
#include <stdlib.h>

#include "isa/devmem_int.h"

void devmem_pages_ref(struct isa_devmem *m, uint64_t addr, uint64_t span, int delta)
{
    uint64_t first, last;

    if (addr + span <= ISA_PAGES_BASE || addr >= ISA_GLOBAL_END)
        return;
    first = (addr < ISA_PAGES_BASE ? 0 : addr - ISA_PAGES_BASE) / ISA_PAGE_SIZE;
    last = (addr + span - 1 - ISA_PAGES_BASE) / ISA_PAGE_SIZE;
    if (last >= ISA_NPAGES)
        last = ISA_NPAGES - 1;
    for (uint64_t p = first; p <= last; p++)
        m->page_refs[p] = (uint32_t)((int64_t)m->page_refs[p] + delta);
}

bool devmem_page_mapped(const struct isa_devmem *m, uint64_t addr, uint32_t size)
{
    uint64_t first, last;

    if (addr < ISA_PAGES_BASE || addr + size > ISA_GLOBAL_END || addr + size < addr || !size)
        return false;
    first = (addr - ISA_PAGES_BASE) / ISA_PAGE_SIZE;
    last = (addr + size - 1 - ISA_PAGES_BASE) / ISA_PAGE_SIZE;
    return m->page_refs[first] && m->page_refs[last];
}

uint8_t *devmem_page_backing(struct isa_devmem *m, uint64_t addr, uint32_t size)
{
    uint64_t off = addr - ISA_PAGES_BASE, b = off / ISA_BACK_BLOCK;

    if ((off + size - 1) / ISA_BACK_BLOCK != b)
        return NULL; /* an access across two blocks (never an aligned one) */
    if (!m->back && !(m->back = calloc(ISA_NBACK, sizeof(*m->back))))
        return NULL;
    if (!m->back[b] && !(m->back[b] = calloc(1, ISA_BACK_BLOCK)))
        return NULL;
    return m->back[b] + off % ISA_BACK_BLOCK;
}

void devmem_pages_free(struct isa_devmem *m)
{
    if (!m->back)
        return;
    for (uint64_t b = 0; b < ISA_NBACK; b++)
        free(m->back[b]);
    free(m->back);
    m->back = NULL;
}
