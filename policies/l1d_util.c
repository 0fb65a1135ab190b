#include "policies/l1d_util.h"

#include <stdlib.h>

#include "policies/l1d.h"

void *pol_l1d_line_state(const struct pol_l1d_params *p, size_t bytes, void **own)
{
    size_t n = (size_t)p->nsets * p->assoc;

    *own = NULL;
    if (p->line_state)
        return p->line_state;
    *own = calloc(n ? n : 1, bytes);
    return *own;
}

uint32_t pol_l1d_lru_way(const struct pol_line_view *lines, uint32_t assoc, bool by_insert)
{
    uint32_t best = assoc;
    uint64_t best_key = 0, key;

    for (uint32_t w = 0; w < assoc; w++) {
        if (lines[w].reserved)
            continue;
        if (!lines[w].valid)
            return w;
        key = by_insert ? lines[w].insert_time : lines[w].last_use;
        if (best == assoc || key < best_key) {
            best = w;
            best_key = key;
        }
    }
    return best;
}
