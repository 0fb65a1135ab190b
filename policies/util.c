#include "policies/util.h"

#include <stdbool.h>

#include "common/err.h"
#include "policies/warp_sched.h"

uint32_t pol_util_valid(const struct pol_warp_view *v, uint32_t n, uint32_t *idx)
{
    uint32_t k = 0;

    for (uint32_t i = 0; i < n; i++)
        if (v[i].valid)
            idx[k++] = i;
    return k;
}

static bool older(const struct pol_warp_view *a, const struct pol_warp_view *b)
{
    if (a->age != b->age)
        return a->age < b->age;
    return a->slot < b->slot;
}

/*
 * Insertion sort: n is at most the SM's warp slots, and the views mostly
 * arrive close to the wanted order, so this is near linear in practice.
 */
void pol_util_sort_age(uint32_t *idx, uint32_t n, const struct pol_warp_view *v)
{
    for (uint32_t i = 1; i < n; i++) {
        uint32_t x = idx[i];
        uint32_t j = i;

        while (j > 0 && older(&v[x], &v[idx[j - 1]])) {
            idx[j] = idx[j - 1];
            j--;
        }
        idx[j] = x;
    }
}

void pol_util_sort_slot_from(uint32_t *idx, uint32_t n, const struct pol_warp_view *v,
                             uint32_t first)
{
    /* Unsigned wrap-around puts the slots below `first` after the others, each part ascending. */
    for (uint32_t i = 1; i < n; i++) {
        uint32_t x = idx[i];
        uint32_t kx = v[x].slot - first;
        uint32_t j = i;

        while (j > 0 && kx < v[idx[j - 1]].slot - first) {
            idx[j] = idx[j - 1];
            j--;
        }
        idx[j] = x;
    }
}

void pol_util_greedy_first(uint32_t *idx, uint32_t n, const struct pol_warp_view *v, uint32_t slot,
                           uint64_t age)
{
    uint32_t k, x;

    if (slot == POL_UTIL_NO_SLOT)
        return;
    for (k = 0; k < n; k++)
        if (v[idx[k]].slot == slot && v[idx[k]].age == age)
            break;
    if (k == n)
        return;
    x = idx[k];
    for (; k > 0; k--)
        idx[k] = idx[k - 1];
    idx[0] = x;
}

int pol_critical_in_group(uint32_t below, uint32_t n)
{
    if (n <= 1)
        return 1;
    return (uint64_t)below * 2 >= (uint64_t)n - 1;
}
