/*
 * Bypass every read miss: no read allocates a line, so the L1D holds only
 * what writes put there (a write-allocate or lazy-fetch write policy), and
 * hits on those lines still hit. The lower bound that cache-bypassing
 * policies are measured against. Victims (for writes that allocate) are
 * chosen as lru chooses them, with lru's arguments ("fifo" for FIFO order).
 */
#include "policies/l1d.h"
#include "policies/l1d_builtin.h"
#include "policies/l1d_util.h"

struct bypass {
    bool fifo; /* order by insert_time instead of last_use */
};

static void *bypass_create(const struct pol_l1d_params *p, struct ps_err *err)
{
    struct bypass *s = p->state;

    (void)err; /* create.c made the state; nothing here can fail */
    s->fifo = ((const struct pol_l1d_lru_cfg *)p->cfg)->order == 1;
    return s;
}

static bool bypass_on_miss(void *st, const struct mem_req *r, uint32_t set, uint64_t now)
{
    (void)st;
    (void)r;
    (void)set;
    (void)now;
    return false;
}

static uint32_t bypass_victim(void *st, uint32_t set, const struct pol_line_view *lines,
                              uint32_t assoc, uint64_t now)
{
    const struct bypass *s = st;

    (void)set;
    (void)now;
    return pol_l1d_lru_way(lines, assoc, s->fifo);
}

const struct pol_l1d_ops pol_l1d_bypass_all = {
    .name = "bypass",
    .argspec = &pol_l1d_lru_argspec,
    .state_size = sizeof(struct bypass),
    .create = bypass_create,
    .on_miss = bypass_on_miss,
    .victim = bypass_victim,
};
