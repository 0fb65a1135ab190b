/*
 * What the L1D policy tests that drive a real cache share (test_mrpb.c,
 * test_pdp.c): a small cache with the policy, read and write requests, a
 * next level that answers everything, the policy's counters by name, and
 * the check that bad arguments fail with a given message. Include after
 * <cmocka.h>.
 */
#ifndef PTXSIM_TESTS_UNIT_POLICIES_L1D_CACHE_HARNESS_H
#define PTXSIM_TESTS_UNIT_POLICIES_L1D_CACHE_HARNESS_H

#include <stdint.h>
#include <string.h>

#include "memsys/cache.h"
#include "policies/create.h"

static inline struct mem_cache *mk(const char *geom, const struct pol_l1d_ops *pol,
                                   const char *args)
{
    struct mem_cache_geom g;
    struct ps_err err;
    struct mem_cache *c;

    ps_err_clear(&err);
    assert_int_equal(mem_cache_geom_parse(geom, &g, &err), 0);
    c = mem_cache_create(&g, "test", pol, args, 0, &err);
    if (!c)
        fail_msg("%s", err.msg);
    return c;
}

static inline struct mem_req req(enum mem_type type, uint64_t addr, uint64_t uid)
{
    struct mem_req r;

    memset(&r, 0, sizeof(r));
    r.type = (uint8_t)type;
    r.addr = addr;
    r.bytes = 128;
    r.sector_mask = 0xf;
    r.uid = uid;
    r.space = MEM_GLOBAL;
    return r;
}

static inline enum mem_cache_result rd(struct mem_cache *c, uint64_t addr, uint64_t uid,
                                       uint64_t now)
{
    struct mem_req r = req(MEM_READ, addr, uid);

    return mem_cache_access(c, &r, now);
}

static inline inline enum mem_cache_result wr(struct mem_cache *c, uint64_t addr, uint64_t uid,
                                              uint64_t now)
{
    struct mem_req r = req(MEM_WRITE, addr, uid);

    return mem_cache_access(c, &r, now);
}

/* The next level: answers everything queued at `now`; returns how many requests went down. */
static inline uint32_t serve(struct mem_cache *c, uint64_t now)
{
    struct mem_req m;
    uint32_t n = 0;

    while (mem_cache_pop_miss(c, &m)) {
        n++;
        if (m.type != MEM_WRITE)
            mem_cache_fill(c, &m, now);
    }
    while (mem_cache_pop_ready(c, &m))
        ;
    return n;
}

/* Creating the policy with args fails with PS_EINVAL and a message containing words. */
static inline void expect_bad_args(const struct pol_l1d_ops *pol, const char *args,
                                   const char *words)
{
    struct pol_l1d_params p = {.nsets = 4, .assoc = 4, .line_bytes = 128, .sm = 0, .args = args};
    struct ps_err err;
    void *st;

    ps_err_clear(&err);
    st = pol_l1d_create(pol, &p, &err);
    if (st)
        pol_l1d_destroy(pol, st);
    assert_null(st);
    assert_int_equal(err.code, PS_EINVAL);
    if (!strstr(err.msg, words))
        fail_msg("'%s': message '%s' lacks '%s'", args, err.msg, words);
}

/* The policy counter called name in cache c. */
static inline uint64_t ctr(const struct mem_cache *c, const char *name)
{
    const char *const *names = mem_cache_policy_counter_names(c);

    for (uint32_t i = 0; names && names[i]; i++)
        if (strcmp(names[i], name) == 0)
            return mem_cache_get_stats(c)->pol[i];
    fail_msg("no counter %s", name);
    return 0;
}

#endif
