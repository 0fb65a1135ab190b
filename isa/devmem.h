/*
 * The device's global address space: deterministic addresses for global
 * allocations, module variables and constant banks, independent of the host's
 * address layout, in pages of ISA_PAGE_SIZE (docs/engine.md, "Device memory"):
 * a kernel access inside an allocation, or inside a mapped page but outside
 * every allocation (counted; it faults under memcheck), succeeds; any other
 * access faults. Host-side copies are always checked against one allocation.
 *
 * Generic address map (the same for 32- and 64-bit modules, so PTX with
 * .address_size 32 works unchanged):
 *   [ISA_FUNC_ADDR_BASE, +functions)    function pointers (not memory)
 *   [ISA_GLOBAL_BASE, ISA_GLOBAL_END)   global and constant memory
 *   [ISA_PARAM_WINDOW, +16 MiB)         kernel parameters (cvta.param)
 *   [ISA_SHARED_WINDOW, +16 MiB)        the executing CTA's shared memory
 *   [ISA_LOCAL_WINDOW, +256 MiB)        the executing thread's local memory
 * Anything else, including the first 256 MiB, faults.
 */
#ifndef PTXSIM_ISA_DEVMEM_H
#define PTXSIM_ISA_DEVMEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ps_err;

#define ISA_GLOBAL_BASE UINT64_C(0x10000000)
/* The device maps memory in 2 MiB pages, the granularity of the CUDA allocator's chunks. */
#define ISA_PAGE_SIZE UINT64_C(0x200000)
#define ISA_GLOBAL_END UINT64_C(0xC0000000)
#define ISA_PARAM_WINDOW UINT64_C(0xC8000000)
#define ISA_SHARED_WINDOW UINT64_C(0xD0000000)
#define ISA_LOCAL_WINDOW UINT64_C(0xE0000000)
#define ISA_WINDOW_SIZE UINT64_C(0x01000000)
#define ISA_LOCAL_WINDOW_SIZE UINT64_C(0x10000000)
/* Function pointers (mov of a function, indirect calls) are this plus the function index. */
#define ISA_FUNC_ADDR_BASE UINT64_C(0x08000000)

enum isa_alloc_kind { ISA_ALLOC_DEVICE, ISA_ALLOC_HOST, ISA_ALLOC_MANAGED, ISA_ALLOC_MODULE,
                      ISA_ALLOC_HEAP };

struct isa_alloc {
    uint64_t addr;
    uint64_t size;
    uint8_t kind; /* enum isa_alloc_kind */
    bool owned;   /* data belongs to the device (false for mapped host memory) */
    bool readonly; /* host memory mapped read-only: stores and copies into it are refused */
    uint8_t *data;
};

struct isa_devmem;

struct isa_devmem *isa_devmem_create(void);
void isa_devmem_destroy(struct isa_devmem *m);

/*
 * Allocates size bytes (zero-filled) aligned to align (a power of two, at
 * least 256 is used). Addresses are handed out in increasing order and freed
 * ranges are reused first-fit, so the same sequence of calls gives the same
 * addresses; O(log n) in the live allocations. Returns 0 and *addr, or
 * PS_ENOMEM / PS_EINVAL.
 */
int isa_devmem_alloc(struct isa_devmem *m, uint64_t size, uint64_t align, enum isa_alloc_kind kind,
                     uint64_t *addr);
/*
 * Makes host memory [host, host+size) visible to the device at the device
 * address addr (usually the host address itself, for managed and mapped
 * host memory, so that one pointer works on both sides). The memory stays
 * the caller's; PS_EINVAL if the range overlaps an existing allocation.
 */
int isa_devmem_map(struct isa_devmem *m, uint64_t addr, void *host, uint64_t size,
                   enum isa_alloc_kind kind);

/* Marks the mapping starting at addr read-only (cudaHostRegisterReadOnly); PS_EINVAL if none. */
int isa_devmem_set_readonly(struct isa_devmem *m, uint64_t addr);

/* Frees (or unmaps) the allocation starting exactly at addr; PS_EINVAL if there is none. */
int isa_devmem_free(struct isa_devmem *m, uint64_t addr);

/* Exact per-allocation checking of kernel accesses (memcheck) on or off (the default). */
void isa_devmem_set_memcheck(struct isa_devmem *m, bool on);

/*
 * Host pointer for a kernel's access of size bytes at addr (size <= 256,
 * aligned): inside an allocation (*hit set to it), or, without memcheck,
 * inside a mapped page (*hit NULL; counted). NULL: the access faults.
 */
uint8_t *isa_devmem_access(struct isa_devmem *m, uint64_t addr, uint32_t size,
                           const struct isa_alloc **hit);
/* Kernel accesses so far that succeeded outside every allocation. */
uint64_t isa_devmem_outside_count(const struct isa_devmem *m);

/* The allocation containing [addr, addr+size), or NULL. */
const struct isa_alloc *isa_devmem_find(const struct isa_devmem *m, uint64_t addr, uint64_t size);

/*
 * Host pointer for [addr, addr+size) when the range lies inside one
 * allocation, else NULL. Valid until the allocation is freed.
 */
uint8_t *isa_devmem_ptr(const struct isa_devmem *m, uint64_t addr, uint64_t size);

/* Checked copies between host and device; PS_EFAULT with a message when out of bounds. */
int isa_devmem_read(const struct isa_devmem *m, uint64_t addr, void *dst, uint64_t size,
                    struct ps_err *err);
int isa_devmem_write(struct isa_devmem *m, uint64_t addr, const void *src, uint64_t size,
                     struct ps_err *err);
int isa_devmem_set(struct isa_devmem *m, uint64_t addr, int value, uint64_t size,
                   struct ps_err *err);

/* Bytes currently allocated and the number of live allocations. */
uint64_t isa_devmem_used(const struct isa_devmem *m);
uint32_t isa_devmem_count(const struct isa_devmem *m);

#endif
