/*
 * Helpers of the L1D policies: reading "key=value,key=value" argument text
 * ("ctrlc:agg_max=5") and the baseline LRU way choice that several policies
 * replace within.
 *
 * A policy describes its keys in a table (name, kind, bounds, where the
 * value goes) and pol_kv_parse() fills the destinations, leaving the
 * defaults the policy stored there for keys not given. Pairs are separated
 * by ',' or ':' (':' suits `ptxsim sweep`, where ',' starts a new option).
 */
#ifndef PTXSIM_POLICIES_L1D_UTIL_H
#define PTXSIM_POLICIES_L1D_UTIL_H

#include <stdint.h>

struct ps_err;
struct pol_line_view;

enum pol_kv_kind {
    POL_KV_U32,  /* unsigned decimal in [lo, hi], stored as uint32_t */
    POL_KV_DBL,  /* decimal number in [lo, hi], stored as double */
    POL_KV_WORD, /* one of words ("a|b|c"), stored as its index (uint32_t) */
};

struct pol_kv {
    const char *key;
    enum pol_kv_kind kind;
    double lo, hi;
    const char *words;
    void *dst; /* uint32_t * or double *, by kind */
};

/*
 * Parses args ("" or NULL: nothing to do) against keys[0..n). Returns 0, or
 * PS_EINVAL with a message "bad l1d policy arguments 'WHO:ARGS': WHAT;
 * expected EXPECTED" for an item that is not key=value, an unknown or
 * repeated key, an empty field or a bad value. Destinations of keys parsed
 * before the error may have changed.
 */
int pol_kv_parse(const char *who, const char *args, const struct pol_kv *keys, uint32_t n,
                 const char *expected, struct ps_err *err);

/*
 * The least recently used of lines[lo..hi) that is not reserved, an invalid
 * one first; ties go to the lowest way. Returns assoc when every way in the
 * range is reserved.
 */
uint32_t pol_l1d_lru_way(const struct pol_line_view *lines, uint32_t lo, uint32_t hi,
                         uint32_t assoc);

#endif
