/*
 * The baseline L1D replacement: least recently used, or first in first out
 * when the args are "fifo" (GPGPU-Sim's 'L' and 'F' replacement letters).
 * Every read miss allocates. Ties go to the lowest way, so a run never
 * depends on anything but the access sequence.
 */
#include <stdlib.h>
#include <string.h>

#include "policies/l1d.h"
#include "policies/l1d_builtin.h"
#include "policies/l1d_util.h"

struct lru_state {
    bool fifo; /* order by insert_time instead of last_use */
};

static void *lru_create(const struct pol_l1d_params *p, struct ps_err *err)
{
    const char *args = p->args ? p->args : "";
    struct lru_state *st;

    if (strcmp(args, "") != 0 && strcmp(args, "lru") != 0 && strcmp(args, "fifo") != 0) {
        ps_err_set(err, PS_EINVAL, "l1d policy lru: unknown argument '%s' (expected lru or fifo)",
                   args);
        return NULL;
    }
    st = malloc(sizeof(*st));
    if (!st) {
        ps_err_set(err, PS_ENOMEM, "l1d policy lru: out of memory");
        return NULL;
    }
    st->fifo = strcmp(args, "fifo") == 0;
    return st;
}

static void lru_destroy(void *st)
{
    free(st);
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
    .create = lru_create,
    .destroy = lru_destroy,
    .on_miss = lru_on_miss,
    .victim = lru_victim,
};
