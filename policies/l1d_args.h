/*
 * "key=value,key=value" argument text for L1D policies (the part after
 * "name:" in -ptxsim_l1d_policy). Each policy lists the keys it knows with
 * their bounds and defaults; a value is an unsigned decimal number or, for
 * a key with a list of words, one of those words (its index is stored).
 * Unknown keys, repeated keys, empty or out-of-range values are errors with
 * a message naming the policy, the key and what was expected.
 */
#ifndef PTXSIM_POLICIES_L1D_ARGS_H
#define PTXSIM_POLICIES_L1D_ARGS_H

#include <stdbool.h>
#include <stdint.h>

struct ps_err;

struct pol_l1d_arg {
    const char *key;
    uint32_t *val;     /* in: the default; out: the value given, if any */
    uint32_t min, max; /* bounds of a number (ignored with words) */
    double *dval;      /* non-NULL: a fraction in [dmin, dmax] goes here instead of val */
    double dmin, dmax;
    const char *const *words; /* NULL: a number; else NULL-terminated names, val = index */
    bool given;               /* out: the key appeared */
};

/*
 * Parses args (NULL or "" = all defaults) against keys[0..n); fields are
 * separated by any character of seps ("," or ",:"). Returns 0, or
 * PS_EINVAL with err filled ("l1d policy <policy>: ...").
 */
int pol_l1d_args_parse(const char *policy, const char *args, const char *seps,
                       struct pol_l1d_arg *keys, uint32_t n, struct ps_err *err);

#endif
