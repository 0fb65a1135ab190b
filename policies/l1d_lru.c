/*
 * The baseline L1D replacement: least recently used, or first in first out
 * when the args are "fifo" (GPGPU-Sim's 'L' and 'F' replacement letters).
 * Every read miss allocates. Ties go to the lowest way, so a run never
 * depends on anything but the access sequence.
 */
#include <stdlib.h>

#include "policies/args.h"
#include "policies/l1d.h"
#include "policies/l1d_builtin.h"
#include "policies/l1d_util.h"

struct lru_state {
    bool fifo; /* order by insert_time instead of last_use */
};

static const struct pol_arg lru_args[] = {
    POL_KEY_WORD("order", struct pol_l1d_lru_cfg, order, 0, "lru|fifo", "the replacement order"),
};

const struct pol_argspec pol_l1d_lru_argspec =
    POL_ARGSPEC_POS(struct pol_l1d_lru_cfg, lru_args, 0, NULL);

static void *lru_create(const struct pol_l1d_params *p, struct ps_err *err)
{
    const struct pol_l1d_lru_cfg *c = p->cfg;
    struct lru_state *st;

    (void)err; /* create.c made the state; nothing here can fail */
    st = p->state;
    st->fifo = c->order == 1;
    return st;
}

static bool lru_on_miss(void *st, const struct mem_req *r, uint32_t set, uint64_t now)
{
    (void)st;
    (void)r;
    (void)set;
    (void)now;
    return true;
}

/* An invalid unreserved way first; else the oldest by last use (LRU) or by insertion (FIFO). */
static uint32_t lru_victim(void *st, uint32_t set, const struct pol_line_view *lines,
                           uint32_t assoc, uint64_t now)
{
    const struct lru_state *s = st;

    (void)set;
    (void)now;
    return pol_l1d_lru_way(lines, assoc, s->fifo);
}

const struct pol_l1d_ops pol_l1d_lru = {
    .name = "lru",
    .argspec = &pol_l1d_lru_argspec,
    .create = lru_create,
    .state_size = sizeof(struct lru_state),
    .on_miss = lru_on_miss,
    .victim = lru_victim,
    .choices_pure = true,
};
