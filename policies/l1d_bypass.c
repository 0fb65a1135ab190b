/*
 * Bypass every read miss: no read allocates a line, so the L1D holds only
 * what writes put there (a write-allocate or lazy-fetch write policy), and
 * hits on those lines still hit. The lower bound that cache-bypassing
 * policies are measured against. Victims (for writes that allocate) are
 * chosen as by lru, whose state this policy borrows; args go to lru
 * ("fifo" for FIFO order).
 */
#include "policies/l1d.h"
#include "policies/l1d_builtin.h"

static bool bypass_on_miss(void *st, const struct mem_req *r, uint32_t set, uint64_t now)
{
    (void)st;
    (void)r;
    (void)set;
    (void)now;
    return false;
}

static void *bypass_create(const struct pol_l1d_params *p, struct ps_err *err)
{
    return pol_l1d_lru.create(p, err);
}

static void bypass_destroy(void *st)
{
    pol_l1d_lru.destroy(st);
}

static uint32_t bypass_victim(void *st, uint32_t set, const struct pol_line_view *lines,
                              uint32_t assoc, uint64_t now)
{
    return pol_l1d_lru.victim(st, set, lines, assoc, now);
}

const struct pol_l1d_ops pol_l1d_bypass_all = {
    .name = "bypass",
    .argspec = &pol_l1d_lru_argspec, /* its state and arguments are lru\'s */
    .create = bypass_create,
    .destroy = bypass_destroy,
    .on_miss = bypass_on_miss,
    .victim = bypass_victim,
};
