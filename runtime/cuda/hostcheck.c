/*
 * Validation of host memory the program hands to the device
 * (cudaHostRegister): the range must be mapped in this process, readable,
 * and writable unless registered read-only. The kernel's view of the
 * process (/proc/self/maps) is read rather than probing the memory, so an
 * unmapped or protected range is refused without touching it. Before every
 * launch the registered ranges are checked again: one the program unmapped
 * since is dropped from the device (its accesses then fault as unmapped
 * device memory), so a kernel never dereferences host memory that is gone.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "runtime/cuda/cudart.h"

/*
 * Whether [p, p+n) is covered by consecutive mappings that are readable and,
 * when need_write, writable. /proc/self/maps lists mappings sorted by address.
 */
bool rt_host_range_ok(const void *p, size_t n, bool need_write)
{
    uintptr_t at = (uintptr_t)p, end = at + n;
    char line[512];
    FILE *f;

    if (!p || !n || end < at)
        return false;
    f = fopen("/proc/self/maps", "re");
    if (!f)
        return false;
    while (at < end && fgets(line, sizeof(line), f)) {
        uintptr_t lo, hi;
        char perms[8] = "";

        if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR " %7s", &lo, &hi, perms) != 3)
            continue;
        if (hi <= at)
            continue;
        if (lo > at || perms[0] != 'r' || (need_write && perms[1] != 'w'))
            break; /* a hole or a protected mapping inside the range */
        at = hi;
        if (!strchr(line, '\n')) /* a long path: skip the rest of the line */
            while (fgets(line, sizeof(line), f) && !strchr(line, '\n'))
                ;
    }
    fclose(f);
    return at >= end;
}

void rt_host_revalidate(struct rt_ctx *c)
{
    for (struct rt_host *h = c->host; h; h = h->next) {
        bool ro = h->flags & cudaHostRegisterReadOnly;

        if (h->kind != RT_HOST_REGISTERED || h->gone || rt_host_range_ok(h->base, h->size, !ro))
            continue;
        fprintf(stderr,
                "ptxsim: registered host memory %p (%zu bytes) is no longer mapped in the "
                "process (unmapped without cudaHostUnregister); the device no longer sees it\n",
                h->base, h->size);
        ptxsim_free(c->dev, (uint64_t)(uintptr_t)h->base);
        h->gone = true;
    }
}
