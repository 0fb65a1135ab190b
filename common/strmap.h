/*
 * String-keyed hash map to 32-bit values, with open addressing.
 *
 * Used for symbol tables while parsing. Keys are (pointer, length) pairs that
 * the caller keeps alive for the map's lifetime (usually arena strings); the
 * map never copies them. Iteration order is never exposed, so nothing that
 * depends on hash order can leak into output.
 */
#ifndef PTXSIM_COMMON_STRMAP_H
#define PTXSIM_COMMON_STRMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ps_strmap;

#define PS_STRMAP_NONE UINT32_MAX

struct ps_strmap *ps_strmap_create(void);
void ps_strmap_destroy(struct ps_strmap *m);

/* Value for key, or PS_STRMAP_NONE. */
uint32_t ps_strmap_get(const struct ps_strmap *m, const char *key, size_t len);

/*
 * Sets key to val (val != PS_STRMAP_NONE) and returns the previous value or
 * PS_STRMAP_NONE. On allocation failure sets *oom and changes nothing.
 */
uint32_t ps_strmap_put(struct ps_strmap *m, const char *key, size_t len, uint32_t val, bool *oom);

/* Removes key; returns its old value or PS_STRMAP_NONE. */
uint32_t ps_strmap_del(struct ps_strmap *m, const char *key, size_t len);

size_t ps_strmap_count(const struct ps_strmap *m);

/* FNV-1a, exposed for tables built at compile time elsewhere. */
uint32_t ps_strhash(const char *s, size_t len);

#endif
