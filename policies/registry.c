/*
 * The policy tables by name. Adding a policy is one line in
 * policies/registry.def (plus its file). Names are matched exactly on the
 * text before the first ':' of the option value; the rest is the policy's
 * argument text, which policies/create.c parses against the policy's
 * argument table before its create() runs. A table that lacks a
 * required hook is refused at lookup with an error rather than called
 * through a NULL pointer later. The names of a table are unique (the unit
 * test checks it).
 */
#include "policies/registry.h"

#include <stdio.h>
#include <string.h>

struct entry {
    const char *name;
    const void *ops; /* const struct pol_<kind>_ops * */
};

/* The tables, declared from registry.def (a new policy needs no header). */
#define WARP(name, ops) extern const struct pol_warp_sched_ops ops;
#define CTA(name, ops) extern const struct pol_cta_sched_ops ops;
#define L1D(name, ops) extern const struct pol_l1d_ops ops;
#include "policies/registry.def"
#undef WARP
#undef CTA
#undef L1D

#define ENTRY(name, ops) {name, &ops},
#define NONE(name, ops)

static const struct entry warp_tab[] = {
#define WARP ENTRY
#define CTA NONE
#define L1D NONE
#include "policies/registry.def"
#undef WARP
#undef CTA
#undef L1D
};

static const struct entry cta_tab[] = {
#define WARP NONE
#define CTA ENTRY
#define L1D NONE
#include "policies/registry.def"
#undef WARP
#undef CTA
#undef L1D
};

static const struct entry l1d_tab[] = {
#define WARP NONE
#define CTA NONE
#define L1D ENTRY
#include "policies/registry.def"
#undef WARP
#undef CTA
#undef L1D
};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static void unknown(const char *kind, const struct entry *tab, size_t n, const char *spec,
                    size_t len, struct ps_err *err)
{
    char known[256];
    size_t used = 0;

    known[0] = '\0';
    for (size_t i = 0; i < n && used < sizeof(known); i++) {
        int w = snprintf(known + used, sizeof(known) - used, "%s%s", i ? ", " : "", tab[i].name);

        if (w > 0)
            used += (size_t)w;
    }
    ps_err_set(err, PS_EINVAL, "unknown %s '%.*s' (known: %s)", kind, (int)len, spec, known);
}

static const struct entry *lookup(const char *kind, const struct entry *tab, size_t n,
                                  const char *spec, const char **args, struct ps_err *err)
{
    const char *colon;
    size_t len;

    if (!spec)
        spec = "";
    colon = strchr(spec, ':');
    len = colon ? (size_t)(colon - spec) : strlen(spec);
    for (size_t i = 0; i < n; i++) {
        if (strlen(tab[i].name) != len || memcmp(tab[i].name, spec, len) != 0)
            continue;
        if (args)
            *args = colon ? colon + 1 : spec + len;
        return &tab[i];
    }
    unknown(kind, tab, n, spec, len, err);
    return NULL;
}

static void *missing_hook(const char *kind, const char *name, struct ps_err *err)
{
    ps_err_set(err, PS_EINVAL, "%s '%s' lacks a required hook", kind, name);
    return NULL;
}

const struct pol_warp_sched_ops *pol_warp_sched_find(const char *spec, const char **args,
                                                     struct ps_err *err)
{
    const char *kind = "warp scheduler";
    const struct entry *e = lookup(kind, warp_tab, NELEM(warp_tab), spec, args, err);
    const struct pol_warp_sched_ops *ops = e ? e->ops : NULL;

    if (ops && (!ops->create || !ops->state_size || !ops->order))
        return missing_hook(kind, e->name, err);
    return ops;
}

const struct pol_cta_sched_ops *pol_cta_sched_find(const char *spec, const char **args,
                                                   struct ps_err *err)
{
    const char *kind = "cta scheduler";
    const struct entry *e = lookup(kind, cta_tab, NELEM(cta_tab), spec, args, err);
    const struct pol_cta_sched_ops *ops = e ? e->ops : NULL;

    if (ops &&
        (!ops->create || !ops->state_size || !ops->on_kernel || !ops->limit))
        return missing_hook(kind, e->name, err);
    return ops;
}

const struct pol_l1d_ops *pol_l1d_find(const char *spec, const char **args, struct ps_err *err)
{
    const char *kind = "l1d policy";
    const struct entry *e = lookup(kind, l1d_tab, NELEM(l1d_tab), spec, args, err);
    const struct pol_l1d_ops *ops = e ? e->ops : NULL;

    if (ops &&
        (!ops->create || !ops->state_size || !ops->on_miss || !ops->victim))
        return missing_hook(kind, e->name, err);
    return ops;
}
