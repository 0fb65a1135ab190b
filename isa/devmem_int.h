/* Internals of the device address space shared by devmem.c and devmem_page.c. Private to isa/. */
#ifndef PTXSIM_ISA_DEVMEM_INT_H
#define PTXSIM_ISA_DEVMEM_INT_H

#include <stddef.h>

#include "isa/addrtree.h"
#include "isa/devmem.h"

#define ISA_MIN_ALIGN 256
/* Pages from the driver's page below the window to the window's end. */
#define ISA_PAGES_BASE (ISA_GLOBAL_BASE - ISA_PAGE_SIZE)
#define ISA_NPAGES ((ISA_GLOBAL_END - ISA_PAGES_BASE) / ISA_PAGE_SIZE)
/* Backing of memory outside allocations comes in blocks of this size, made on first touch. */
#define ISA_BACK_BLOCK UINT64_C(0x10000)
#define ISA_NBACK ((ISA_GLOBAL_END - ISA_PAGES_BASE) / ISA_BACK_BLOCK)

/* The lookup index (devmem_index.c) cuts the window into blocks of this size. */
#define ISA_IDX_BLOCK UINT64_C(0x4000)
#define ISA_NIDX ((ISA_GLOBAL_END - ISA_GLOBAL_BASE) / ISA_IDX_BLOCK)

struct idx_ent;
struct idx_blk {
    uint32_t n, cap;
    struct idx_ent *e; /* sorted by address */
};

struct alloc_rec {
    struct isa_anode node; /* key = address, len = the span it occupies */
    struct isa_alloc a;
};

struct free_range {
    struct isa_anode node;
};

struct isa_devmem {
    struct isa_anode *allocs; /* by address */
    struct isa_anode *free;   /* free ranges of the global window, by address */
    uint32_t n;
    uint64_t used;
    bool memcheck;
    uint64_t outside;               /* accesses outside every allocation that succeeded */
    uint32_t page_refs[ISA_NPAGES]; /* device allocations overlapping each page */
    uint8_t **back;                 /* ISA_NBACK blocks, NULL until one is touched */
    struct idx_blk *idx;            /* ISA_NIDX blocks of the lookup index, NULL until used */
};

static inline struct alloc_rec *rec_of(struct isa_anode *n)
{
    return (struct alloc_rec *)((char *)n - offsetof(struct alloc_rec, node));
}

static inline struct free_range *free_of(struct isa_anode *n)
{
    return (struct free_range *)((char *)n - offsetof(struct free_range, node));
}

/* devmem_index.c: allocations overlapping the window, for lookups. */
int devmem_index_add(struct isa_devmem *m, struct alloc_rec *r);
void devmem_index_del(struct isa_devmem *m, const struct alloc_rec *r);
/*
 * The allocation whose span holds addr (addr inside the window), or NULL;
 * *span_end is where its span ends. Valid until the next alloc or free.
 */
const struct isa_alloc *devmem_index_find(const struct isa_devmem *m, uint64_t addr,
                                          uint64_t *span_end);
void devmem_index_free(struct isa_devmem *m);

/* devmem_page.c */
void devmem_pages_ref(struct isa_devmem *m, uint64_t addr, uint64_t span, int delta);
bool devmem_page_mapped(const struct isa_devmem *m, uint64_t addr, uint32_t size);
uint8_t *devmem_page_backing(struct isa_devmem *m, uint64_t addr, uint32_t size);
void devmem_pages_free(struct isa_devmem *m);

#endif
