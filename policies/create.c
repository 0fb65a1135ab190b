#include "policies/create.h"

#include <stdlib.h>

#include "policies/args.h"

/* The parsed config of spec for args, or NULL with err set; *cfg_out is freed by the caller. */
static int parse(const struct pol_argspec *spec, const char *option, const char *name,
                 const char *args, void **cfg_out, struct ps_err *err)
{
    void *cfg = calloc(1, spec && spec->cfg_size ? spec->cfg_size : 1);

    *cfg_out = cfg;
    if (!cfg)
        return ps_err_set(err, PS_ENOMEM, "%s %s: out of memory", option, name);
    return pol_args_parse(spec, option, name, args, cfg, err);
}

/* The state block of a table with a state_size (NULL with err set when out of memory). */
static int state(size_t size, const char *option, const char *name, void **out, struct ps_err *err)
{
    *out = size ? calloc(1, size) : NULL;
    if (size && !*out)
        return ps_err_set(err, PS_ENOMEM, "%s %s: out of memory", option, name);
    return 0;
}

/* After create: a failed create leaves the block to be freed here. */
static void *made(void *st, void *block)
{
    if (!st)
        free(block);
    return st;
}

void *pol_warp_sched_create(const struct pol_warp_sched_ops *ops,
                            const struct pol_warp_sched_params *p, struct ps_err *err)
{
    struct pol_warp_sched_params q = *p;
    void *cfg, *st = NULL;

    if (!parse(ops->argspec, POL_WARP_SCHED_OPTION, ops->name, p->args, &cfg, err) &&
        !state(ops->state_size, POL_WARP_SCHED_OPTION, ops->name, &q.state, err)) {
        q.cfg = cfg;
        st = made(ops->create(&q, err), q.state);
    }
    free(cfg);
    return st;
}

void *pol_cta_sched_create(const struct pol_cta_sched_ops *ops,
                           const struct pol_cta_sched_params *p, struct ps_err *err)
{
    struct pol_cta_sched_params q = *p;
    void *cfg, *st = NULL;

    if (!parse(ops->argspec, POL_CTA_SCHED_OPTION, ops->name, p->args, &cfg, err) &&
        !state(ops->state_size, POL_CTA_SCHED_OPTION, ops->name, &q.state, err)) {
        q.cfg = cfg;
        st = made(ops->create(&q, err), q.state);
    }
    free(cfg);
    return st;
}

/* create or shared_create of an L1D policy over the parsed arguments. */
static void *l1d_make(const struct pol_l1d_ops *ops, const struct pol_l1d_params *p,
                      void *(*make)(const struct pol_l1d_params *, struct ps_err *),
                      size_t state_size, struct ps_err *err)
{
    struct pol_l1d_params q = *p;
    void *cfg, *st = NULL;

    if (!parse(ops->argspec, POL_L1D_OPTION, ops->name, p->args, &cfg, err) &&
        !state(state_size, POL_L1D_OPTION, ops->name, &q.state, err)) {
        q.cfg = cfg;
        st = made(make(&q, err), q.state);
    }
    free(cfg);
    return st;
}

void *pol_l1d_create(const struct pol_l1d_ops *ops, const struct pol_l1d_params *p,
                     struct ps_err *err)
{
    return l1d_make(ops, p, ops->create, ops->state_size, err);
}

/* The shared state is the policy's own (shared_destroy frees it). */
void *pol_l1d_shared_create(const struct pol_l1d_ops *ops, const struct pol_l1d_params *p,
                            struct ps_err *err)
{
    return ops->shared_create ? l1d_make(ops, p, ops->shared_create, 0, err) : NULL;
}

/* An instance ends with the policy's destroy, then the registry frees the state it allocated. */
static void unmake(void (*destroy)(void *), size_t state_size, void *st)
{
    if (!st)
        return;
    if (destroy)
        destroy(st);
    if (state_size)
        free(st);
}

void pol_warp_sched_destroy(const struct pol_warp_sched_ops *ops, void *st)
{
    unmake(ops->destroy, ops->state_size, st);
}

void pol_cta_sched_destroy(const struct pol_cta_sched_ops *ops, void *st)
{
    unmake(ops->destroy, ops->state_size, st);
}

void pol_l1d_destroy(const struct pol_l1d_ops *ops, void *st)
{
    unmake(ops->destroy, ops->state_size, st);
}
