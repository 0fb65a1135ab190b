/*
 * Making a policy instance: the one path from an ops table and its
 * parameters to a running policy. It parses params->args against the
 * table's argument spec (policies/args.h) into the policy's config struct,
 * hands that to create() as params->cfg (valid during the call only; create
 * copies what it keeps), and frees it. Everything that makes policies, the
 * timing model and the tests alike, goes through here, so a create() never
 * reads argument text itself. A table with a state_size gets its state
 * allocated here too (params->state), and pol_<kind>_destroy frees it after
 * the table's destroy; every instance is ended through pol_<kind>_destroy.
 */
#ifndef PTXSIM_POLICIES_CREATE_H
#define PTXSIM_POLICIES_CREATE_H

#include "policies/cta_sched.h"
#include "policies/l1d.h"
#include "policies/warp_sched.h"

/* The options whose values select each kind, as messages name them. */
#define POL_WARP_SCHED_OPTION "-gpgpu_scheduler"
#define POL_CTA_SCHED_OPTION "-ptxsim_cta_scheduler"
#define POL_L1D_OPTION "-ptxsim_l1d_policy"

void *pol_warp_sched_create(const struct pol_warp_sched_ops *ops,
                            const struct pol_warp_sched_params *p, struct ps_err *err);
void *pol_cta_sched_create(const struct pol_cta_sched_ops *ops,
                           const struct pol_cta_sched_params *p, struct ps_err *err);
void *pol_l1d_create(const struct pol_l1d_ops *ops, const struct pol_l1d_params *p,
                     struct ps_err *err);
/* ops->shared_create through the same parse (NULL without error when the table has none). */
void *pol_l1d_shared_create(const struct pol_l1d_ops *ops, const struct pol_l1d_params *p,
                            struct ps_err *err);

/* Ends an instance made above: ops->destroy (if any), then the state block if create.c made it. */
void pol_warp_sched_destroy(const struct pol_warp_sched_ops *ops, void *st);
void pol_cta_sched_destroy(const struct pol_cta_sched_ops *ops, void *st);
void pol_l1d_destroy(const struct pol_l1d_ops *ops, void *st);

#endif
