#include "policies/l1d_util.h"

#include "policies/l1d.h"

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
