/*
 * Statistics kept as structs of uint64_t counters only (cache, DRAM, SM and
 * GPU counters) are summed and differenced field by field through these,
 * so snapshots and totals need no per-field code. n is the number of
 * counters: sizeof(struct) / sizeof(uint64_t).
 */
#ifndef PTXSIM_COMMON_COUNTERS_H
#define PTXSIM_COMMON_COUNTERS_H

#include <stddef.h>
#include <stdint.h>

#define PS_NCOUNTERS(s) (sizeof(s) / sizeof(uint64_t))

/* acc[i] += x[i] for the n counters. */
static inline void ps_counters_add(void *acc, const void *x, size_t n)
{
    uint64_t *a = acc;
    const uint64_t *b = x;

    for (size_t i = 0; i < n; i++)
        a[i] += b[i];
}

/* out[i] = a[i] - b[i] for the n counters. */
static inline void ps_counters_sub(void *out, const void *a, const void *b, size_t n)
{
    uint64_t *o = out;
    const uint64_t *x = a, *y = b;

    for (size_t i = 0; i < n; i++)
        o[i] = x[i] - y[i];
}

#endif
