/*
 * A fixed CTA limit per SM ("static", "static:N"): every SM holds at most N
 * CTAs of each kernel, or fewer when the kernel's occupancy limit is lower
 * (DYNCTA's and the CCWS paper's static-limit baselines). N comes from the
 * policy's argument when one is given, else from -ptxsim_cta_limit; one of
 * them must be at least 1.
 */
#include <stdlib.h>

#include "policies/args.h"
#include "policies/cta_sched.h"
#include "policies/sched_builtin.h"

struct cta_static {
    uint32_t limit;    /* N */
    uint32_t max_ctas; /* occupancy limit of the current kernel, 0 before the first */
};

struct static_cfg {
    uint32_t n; /* 0: not given */
};

static const struct pol_arg static_args[] = {
    POL_KEY_UINT("N", struct static_cfg, n, 0, 1, UINT32_MAX,
                 "CTAs per SM (else -ptxsim_cta_limit)"),
};

static const struct pol_argspec static_spec =
    POL_ARGSPEC_POS(struct static_cfg, static_args, 0, NULL);

/* N from "static:N" or params->static_limit; 0 with a message when neither gives one. */
static uint32_t static_n(const struct pol_cta_sched_params *p, struct ps_err *err)
{
    const struct static_cfg *c = p->cfg;

    if (c->n)
        return c->n;
    if (p->static_limit == 0)
        ps_err_set(
            err, PS_EINVAL,
            "cta scheduler static needs a limit: give static:N or -ptxsim_cta_limit N (N >= 1)");
    return p->static_limit;
}

static void *static_create(const struct pol_cta_sched_params *p, struct ps_err *err)
{
    uint32_t n = static_n(p, err);
    struct cta_static *st;

    if (n == 0)
        return NULL;
    st = p->state;
    st->limit = n;
    st->max_ctas = 0;
    return st;
}

static void static_on_kernel(void *st, uint32_t max_ctas)
{
    struct cta_static *s = st;

    s->max_ctas = max_ctas;
}

static uint32_t static_limit(void *st, uint32_t sm)
{
    const struct cta_static *s = st;

    (void)sm;
    if (s->max_ctas && s->max_ctas < s->limit)
        return s->max_ctas;
    return s->limit;
}

const struct pol_cta_sched_ops pol_cta_static = {
    .name = "static",
    .argspec = &static_spec,
    .create = static_create,
    .state_size = sizeof(struct cta_static),
    .on_kernel = static_on_kernel,
    .limit = static_limit,
};
