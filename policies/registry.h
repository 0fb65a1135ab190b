/* Policies by name, as the configuration selects them. */
#ifndef PTXSIM_POLICIES_REGISTRY_H
#define PTXSIM_POLICIES_REGISTRY_H

#include "policies/create.h"
#include "policies/cta_sched.h"
#include "policies/l1d.h"
#include "policies/warp_sched.h"

/*
 * Finds a policy by the part of `spec` before the first ':' ("gto",
 * "two_level_active:6:0:1"); *args points past that ':' (or at "").
 * NULL when no policy has that name; err then lists the known names.
 */
const struct pol_warp_sched_ops *pol_warp_sched_find(const char *spec, const char **args,
                                                     struct ps_err *err);
const struct pol_cta_sched_ops *pol_cta_sched_find(const char *spec, const char **args,
                                                   struct ps_err *err);
const struct pol_l1d_ops *pol_l1d_find(const char *spec, const char **args, struct ps_err *err);

#endif
