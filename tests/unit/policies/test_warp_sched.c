/*
 * Unit tests for the warp scheduler tables and the policy registry: lookups
 * by name (with GPGPU-Sim's spellings and the error that lists the known
 * names), argument checking at create(), and the issue order of each
 * built-in scheduler. A tiny SM stand-in drives them: every cycle it asks
 * for the order, issues the first ready warp in it and reports the issue,
 * as the timing model does. The oracle numbers are seed 004's (CCWS,
 * design/seeds/004_ccws.md, section 6).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "policies/l1d_builtin.h"
#include "policies/registry.h"

#define MAXW 32
#define NONE UINT32_MAX

struct sched {
    const struct pol_warp_sched_ops *ops;
    void *st;
    uint64_t now;
};

static void *try_create(const char *spec, uint32_t max_warps, uint32_t nsched, uint32_t sched_id,
                        struct ps_err *err)
{
    const char *args = NULL;
    const struct pol_warp_sched_ops *ops = pol_warp_sched_find(spec, &args, err);
    struct pol_warp_sched_params p = {
        .sched_id = sched_id, .nsched = nsched, .max_warps = max_warps, .args = args};

    assert_non_null(ops);
    return pol_warp_sched_create(ops, &p, err);
}

static struct sched make_sched(const char *spec, uint32_t max_warps, uint32_t nsched,
                               uint32_t sched_id)
{
    struct ps_err err;
    struct sched s = {0};

    ps_err_clear(&err);
    s.ops = pol_warp_sched_find(spec, NULL, &err);
    s.st = try_create(spec, max_warps, nsched, sched_id, &err);
    if (!s.st)
        fail_msg("%s: %s", spec, err.msg);
    return s;
}

static struct sched make(const char *spec)
{
    return make_sched(spec, MAXW, 1, 0);
}

static void drop(struct sched *s)
{
    pol_warp_sched_destroy(s->ops, s->st);
}

/* n warps in slots 0..n-1, all valid and ready, older in lower slots. */
static void views_init(struct pol_warp_view *v, uint32_t n)
{
    memset(v, 0, n * sizeof(*v));
    for (uint32_t i = 0; i < n; i++) {
        v[i].slot = i;
        v[i].valid = true;
        v[i].ready = true;
        v[i].age = 100 + i;
    }
}

/* The order as slots; checks that every entry is a valid view. */
static uint32_t order_slots(struct sched *s, const struct pol_warp_view *v, uint32_t n,
                            uint32_t *slots)
{
    uint32_t order[MAXW];
    uint32_t k = s->ops->order(s->st, v, n, order, s->now);

    assert_true(k <= n);
    for (uint32_t j = 0; j < k; j++) {
        assert_true(order[j] < n);
        assert_true(v[order[j]].valid);
        slots[j] = v[order[j]].slot;
    }
    return k;
}

/* One cycle of the SM stand-in: the slot that issued, or NONE. */
static uint32_t step(struct sched *s, const struct pol_warp_view *v, uint32_t n)
{
    uint32_t order[MAXW];
    uint32_t k = s->ops->order(s->st, v, n, order, ++s->now);

    for (uint32_t j = 0; j < k; j++) {
        const struct pol_warp_view *w = &v[order[j]];

        assert_true(w->valid);
        if (!w->ready)
            continue;
        if (s->ops->may_issue && !s->ops->may_issue(s->st, w, NULL))
            continue;
        if (s->ops->on_issue)
            s->ops->on_issue(s->st, w, s->now);
        return w->slot;
    }
    return NONE;
}

static void expect_order(struct sched *s, const struct pol_warp_view *v, uint32_t n,
                         const uint32_t *want, uint32_t nwant)
{
    uint32_t got[MAXW];
    uint32_t k = order_slots(s, v, n, got);

    assert_int_equal(k, nwant);
    for (uint32_t j = 0; j < k; j++)
        assert_int_equal(got[j], want[j]);
}

#define EXPECT_ORDER(s, v, n, ...)                                                                 \
    do {                                                                                           \
        const uint32_t want_[] = {__VA_ARGS__};                                                    \
        expect_order((s), (v), (n), want_, sizeof(want_) / sizeof(want_[0]));                      \
    } while (0)

static const char *const warp_names[] = {"lrr",    "gto", "two_level_active",
                                         "oldest", "swl", "warp_limiting"};

/* ---- registry ---- */

static void test_warp_sched_registry_names(void **state)
{
    const struct pol_warp_sched_ops *seen[6];
    struct ps_err err;

    (void)state;
    for (size_t i = 0; i < 6; i++) {
        const char *args = NULL;
        const struct pol_warp_sched_ops *ops = pol_warp_sched_find(warp_names[i], &args, &err);

        assert_non_null(ops);
        assert_string_equal(ops->name, warp_names[i]);
        assert_string_equal(args, "");
        assert_non_null(ops->create);
        assert_true(ops->destroy || ops->state_size);
        assert_non_null(ops->order);
        for (size_t j = 0; j < i; j++)
            assert_ptr_not_equal(seen[j], ops);
        seen[i] = ops;
    }
}

static void test_warp_sched_registry_args(void **state)
{
    const char *args = NULL;
    const char *spec = "two_level_active:6:0:1";
    struct ps_err err;
    const struct pol_warp_sched_ops *ops;

    (void)state;
    ops = pol_warp_sched_find(spec, &args, &err);
    assert_non_null(ops);
    assert_string_equal(ops->name, "two_level_active");
    assert_ptr_equal(args, spec + strlen("two_level_active:"));
    ops = pol_warp_sched_find("swl:4", &args, &err);
    assert_string_equal(ops->name, "swl");
    assert_string_equal(args, "4");
    ops = pol_warp_sched_find("gto:", &args, &err);
    assert_string_equal(ops->name, "gto");
    assert_string_equal(args, "");
    /* args may be NULL when the caller does not want it */
    assert_non_null(pol_warp_sched_find("lrr", NULL, &err));
}

static void test_warp_sched_registry_unknown(void **state)
{
    const char *bad[] = {"fifo", "gt", "gtox", "GTO", "", ":gto", "two_level", "lrr "};
    struct ps_err err;

    (void)state;
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        ps_err_clear(&err);
        assert_null(pol_warp_sched_find(bad[i], NULL, &err));
        assert_int_equal(err.code, PS_EINVAL);
    }
    ps_err_clear(&err);
    assert_null(pol_warp_sched_find("fifo:3", NULL, &err));
    assert_non_null(strstr(err.msg, "unknown warp scheduler 'fifo'"));
    for (size_t i = 0; i < 6; i++)
        assert_non_null(strstr(err.msg, warp_names[i]));
    ps_err_clear(&err);
    assert_null(pol_warp_sched_find(NULL, NULL, &err));
    assert_int_equal(err.code, PS_EINVAL);
}

static void test_warp_sched_registry_cta_l1d(void **state)
{
    const char *args = NULL;
    struct ps_err err;

    (void)state;
    assert_string_equal(pol_cta_sched_find("rr", &args, &err)->name, "rr");
    assert_string_equal(pol_cta_sched_find("static:3", &args, &err)->name, "static");
    assert_string_equal(args, "3");
    assert_ptr_equal(pol_l1d_find("lru", &args, &err), &pol_l1d_lru);
    assert_ptr_equal(pol_l1d_find("bypass", &args, &err), &pol_l1d_bypass_all);
    ps_err_clear(&err);
    assert_null(pol_l1d_find("belady", &args, &err));
    assert_int_equal(err.code, PS_EINVAL);
    assert_non_null(strstr(err.msg, "unknown l1d policy 'belady'"));
    assert_non_null(strstr(err.msg, "lru"));
    assert_non_null(strstr(err.msg, "bypass"));
}

/* ---- arguments ---- */

static void test_warp_sched_gpgpusim_spellings(void **state)
{
    const char *ok[] = {"lrr",
                        "gto",
                        "oldest",
                        "two_level_active:6:0:1",
                        "two_level_active:2:2:2",
                        "two_level_active:4:5:5",
                        "two_level_active:4:0:0",
                        "swl:32",
                        "swl:1",
                        "warp_limiting:2:4"};

    (void)state;
    for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
        struct sched s = make(ok[i]);

        drop(&s);
    }
}

static void expect_bad(const char *spec, const char *in_msg)
{
    struct ps_err err;

    ps_err_clear(&err);
    assert_null(try_create(spec, MAXW, 1, 0, &err));
    assert_int_equal(err.code, PS_EINVAL);
    if (!strstr(err.msg, in_msg))
        fail_msg("%s: message '%s' lacks '%s'", spec, err.msg, in_msg);
}

static void test_warp_sched_bad_args(void **state)
{
    (void)state;
    expect_bad("swl:0", "-gpgpu_scheduler swl: N=0: expected a whole number from 1 to");
    expect_bad("swl:x", "N=x: expected a whole number from 1 to 4294967295 in swl:N");
    expect_bad("swl", "'': too few fields, expected swl:N");
    expect_bad("swl:", "'': too few fields, expected swl:N");
    expect_bad("swl:2:3", "'2:3': too many fields, expected swl:N");
    expect_bad("swl:-1", "N=-1: expected a whole number");
    expect_bad("swl:99999999999", "N=99999999999: expected a whole number");
    expect_bad("swl:33", "exceeds the SM's 32 warp slots");
    expect_bad("two_level_active:0:0:1", "N=0: expected a whole number from 1 to");
    expect_bad("two_level_active:6:0", "expected two_level_active:N:inner:outer");
    expect_bad("two_level_active", "expected two_level_active:N:inner:outer");
    expect_bad("two_level_active:6:0:1:2",
               "too many fields, expected two_level_active:N:inner:outer");
    expect_bad(
        "two_level_active:x:0:1",
        "N=x: expected a whole number from 1 to 4294967295 in two_level_active:N:inner:outer");
    expect_bad("two_level_active:6::1", "empty field, expected two_level_active:N:inner:outer");
    expect_bad("two_level_active:6:0:", "ends with ':', expected two_level_active:N:inner:outer");
    expect_bad("two_level_active:6:1:1", "inner=1 is not supported");
    expect_bad("two_level_active:6:0:7", "outer=7 is not supported");
    expect_bad("warp_limiting:1:4", "prio=1: only 2 (greedy then oldest)");
    expect_bad("warp_limiting:2:0",
               "N=0: expected a whole number from 1 to 4294967295 in warp_limiting:prio:N");
    expect_bad("warp_limiting:2", "too few fields, expected warp_limiting:prio:N");
    expect_bad("gto:1", "-gpgpu_scheduler gto: takes no arguments (got 'gto:1')");
    expect_bad("lrr:x", "takes no arguments");
    expect_bad("oldest:2", "takes no arguments");
}

static void test_warp_sched_two_level_needs_slots(void **state)
{
    struct ps_err err;

    (void)state;
    ps_err_clear(&err);
    assert_null(try_create("two_level_active:6:0:1", 0, 1, 0, &err));
    assert_int_equal(err.code, PS_EINVAL);
}

/* ---- LRR ---- */

/* Seed 004 oracles 1-3. */
static void test_warp_sched_lrr_rotation(void **state)
{
    struct pol_warp_view v[4];
    struct sched s = make("lrr");

    (void)state;
    views_init(v, 4);
    for (uint32_t c = 0; c < 12; c++) /* oracle 1: 0,1,2,3,0,1,... */
        assert_int_equal(step(&s, v, 4), c % 4);
    /* Last issue was 3. Oracle 2: 0 not ready -> 1 issues; the next search starts after 1. */
    v[0].ready = false;
    EXPECT_ORDER(&s, v, 4, 0, 1, 2, 3);
    assert_int_equal(step(&s, v, 4), 1);
    EXPECT_ORDER(&s, v, 4, 2, 3, 0, 1);
    v[0].ready = true;
    v[2].ready = false;
    assert_int_equal(step(&s, v, 4), 3);
    assert_int_equal(step(&s, v, 4), 0);
    /* Oracle 3: never the same warp twice in a row while another is ready. */
    v[2].ready = true;
    for (uint32_t c = 0, last = 0; c < 40; c++) {
        bool other = false;
        uint32_t w;

        for (uint32_t i = 0; i < 4; i++)
            other |= v[i].ready && i != last;
        w = step(&s, v, 4);
        if (other)
            assert_int_not_equal(w, last);
        last = w;
        v[(c * 3) % 4].ready = (c % 3) != 0;
    }
    drop(&s);
}

/* Round robin follows slots, not view order or age. */
static void test_warp_sched_lrr_slot_order(void **state)
{
    struct pol_warp_view v[3];
    struct sched s = make("lrr");

    (void)state;
    views_init(v, 3);
    v[0].slot = 9, v[0].age = 1;
    v[1].slot = 3, v[1].age = 50;
    v[2].slot = 6, v[2].age = 7;
    EXPECT_ORDER(&s, v, 3, 3, 6, 9);
    assert_int_equal(step(&s, v, 3), 3);
    EXPECT_ORDER(&s, v, 3, 6, 9, 3);
    assert_int_equal(step(&s, v, 3), 6);
    assert_int_equal(step(&s, v, 3), 9);
    EXPECT_ORDER(&s, v, 3, 3, 6, 9);
    drop(&s);
}

/* ---- GTO ---- */

/* Seed 004 oracles 4-7. */
static void test_warp_sched_gto_greedy_then_oldest(void **state)
{
    struct pol_warp_view v[4];
    struct sched s = make("gto");

    (void)state;
    views_init(v, 4);
    v[0].age = 13, v[1].age = 11, v[2].age = 10, v[3].age = 12; /* oldest: 2, 1, 3, 0 */
    EXPECT_ORDER(&s, v, 4, 2, 1, 3, 0);
    assert_int_equal(step(&s, v, 4), 2);
    assert_int_equal(step(&s, v, 4), 2);
    /* Oracle 5: the greedy warp stalls -> the oldest ready one issues and becomes greedy. */
    v[2].ready = false;
    EXPECT_ORDER(&s, v, 4, 2, 1, 3, 0);
    assert_int_equal(step(&s, v, 4), 1);
    /* Oracle 4: the greedy warp keeps issuing although an older warp is ready again. */
    v[2].ready = true;
    EXPECT_ORDER(&s, v, 4, 1, 2, 3, 0);
    assert_int_equal(step(&s, v, 4), 1);
    assert_int_equal(step(&s, v, 4), 1);
    /* Oracle 7: only the youngest is ready -> it issues. */
    v[1].ready = v[2].ready = v[3].ready = false;
    assert_int_equal(step(&s, v, 4), 0);
    /* Oracle 6 / fallback: the greedy warp exits -> strictly by age. */
    v[0].valid = false;
    v[1].ready = v[2].ready = v[3].ready = true;
    EXPECT_ORDER(&s, v, 4, 2, 1, 3);
    drop(&s);
}

/* A new warp in the slot of the exited greedy warp is not greedy: it is young. */
static void test_warp_sched_gto_recycled_slot(void **state)
{
    struct pol_warp_view v[3];
    struct sched s = make("gto");

    (void)state;
    views_init(v, 3);
    v[0].ready = v[1].ready = false;
    assert_int_equal(step(&s, v, 3), 2);
    v[2].age = 500; /* slot 2 now holds a warp of a new CTA */
    v[0].ready = v[1].ready = true;
    EXPECT_ORDER(&s, v, 3, 0, 1, 2);
    assert_int_equal(step(&s, v, 3), 0);
    drop(&s);
}

/* ---- oldest ---- */

static void test_warp_sched_oldest_by_age(void **state)
{
    struct pol_warp_view v[4];
    struct sched s = make("oldest");

    (void)state;
    views_init(v, 4);
    v[0].age = 7, v[1].age = 3, v[2].age = 5, v[3].age = 9;
    EXPECT_ORDER(&s, v, 4, 1, 2, 0, 3);
    assert_int_equal(step(&s, v, 4), 1);
    EXPECT_ORDER(&s, v, 4, 1, 2, 0, 3); /* no greedy, no rotation */
    v[1].ready = false;
    assert_int_equal(step(&s, v, 4), 2);
    v[1].ready = true;
    assert_int_equal(step(&s, v, 4), 1);
    drop(&s);
}

/* ---- two-level ---- */

/* Inner LRR, outer FIFO (GPGPU-Sim's default line, with N = 2). */
static void test_warp_sched_two_level_demote_promote(void **state)
{
    struct pol_warp_view v[4];
    struct sched s = make("two_level_active:2:0:1");

    (void)state;
    views_init(v, 4);
    /* The first N warps by age are active; only they are offered, round robin. */
    EXPECT_ORDER(&s, v, 4, 0, 1);
    for (uint32_t c = 0; c < 6; c++)
        assert_int_equal(step(&s, v, 4), c % 2);
    /* Active is now [0, 1] again. Warp 0 waits on a load: demoted, 2 promoted behind 1. */
    v[0].long_wait = true, v[0].ready = false;
    EXPECT_ORDER(&s, v, 4, 1, 2);
    assert_int_equal(step(&s, v, 4), 1);
    assert_int_equal(step(&s, v, 4), 2);
    /* Pending is [3, 0]. 0's load returns, 1 waits: FIFO promotes 3, not the older 0. */
    v[0].long_wait = false, v[0].ready = true;
    v[1].long_wait = true, v[1].ready = false;
    EXPECT_ORDER(&s, v, 4, 2, 3);
    /* A barrier demotes too; 0 (first eligible in the FIFO) comes in. */
    v[2].at_barrier = true, v[2].ready = false;
    EXPECT_ORDER(&s, v, 4, 3, 0);
    drop(&s);
}

/* Outer "oldest": the oldest eligible pending warp is promoted, and a waiting one is not. */
static void test_warp_sched_two_level_outer_oldest(void **state)
{
    struct pol_warp_view v[4];
    struct sched s = make("two_level_active:2:0:5");

    (void)state;
    views_init(v, 4);
    EXPECT_ORDER(&s, v, 4, 0, 1);
    v[0].long_wait = true;
    EXPECT_ORDER(&s, v, 4, 1, 2); /* pending [3, 0] */
    /* 0's load returns and 1 waits: 0 is older than 3 (FIFO would take 3, see above). */
    v[0].long_wait = false;
    v[1].long_wait = true;
    EXPECT_ORDER(&s, v, 4, 2, 0); /* pending [3, 1] */
    v[1].long_wait = false;
    v[2].long_wait = true;
    EXPECT_ORDER(&s, v, 4, 0, 1); /* pending [3, 2]: 1 beats 3 */
    /* Waiting pending warps are passed over. */
    v[3].at_barrier = true;
    v[0].long_wait = true;
    EXPECT_ORDER(&s, v, 4, 1); /* pending [3, 2, 0], all waiting */
    v[3].at_barrier = false;
    v[2].long_wait = false;
    EXPECT_ORDER(&s, v, 4, 1, 2);
    drop(&s);
}

/* No pending warp may run: the active set stays short rather than take a waiting warp. */
static void test_warp_sched_two_level_short_active(void **state)
{
    struct pol_warp_view v[3];
    struct sched s = make("two_level_active:2:0:1");

    (void)state;
    views_init(v, 3);
    v[2].long_wait = true;
    EXPECT_ORDER(&s, v, 3, 0, 1);
    v[0].long_wait = true;
    EXPECT_ORDER(&s, v, 3, 1);
    v[2].long_wait = false;
    EXPECT_ORDER(&s, v, 3, 1, 2);
    drop(&s);
}

/* Inner GTO sticks with the greedy warp inside the active set; inner LRR rotates. */
static void test_warp_sched_two_level_inner_gto_vs_lrr(void **state)
{
    struct pol_warp_view v[4];
    struct sched g = make("two_level_active:2:2:1");
    struct sched l = make("two_level_active:2:0:1");

    (void)state;
    views_init(v, 4);
    for (uint32_t c = 0; c < 4; c++) {
        assert_int_equal(step(&g, v, 4), 0);
        assert_int_equal(step(&l, v, 4), c % 2);
    }
    v[0].ready = false; /* a short stall: not demoted */
    assert_int_equal(step(&g, v, 4), 1);
    v[0].ready = true;
    assert_int_equal(step(&g, v, 4), 1); /* 1 is greedy now */
    EXPECT_ORDER(&g, v, 4, 1, 0);
    drop(&g);
    drop(&l);
}

/* Exits leave the sets; a new warp in a recycled slot joins the pending tail. */
static void test_warp_sched_two_level_exit_and_launch(void **state)
{
    struct pol_warp_view v[4];
    struct sched s = make("two_level_active:2:0:1");

    (void)state;
    views_init(v, 4);
    EXPECT_ORDER(&s, v, 4, 0, 1);
    v[0].valid = false;
    EXPECT_ORDER(&s, v, 4, 1, 2);
    v[0].valid = true, v[0].age = 900; /* a new CTA's warp */
    v[1].valid = false;
    EXPECT_ORDER(&s, v, 4, 2, 3);
    v[2].valid = false;
    EXPECT_ORDER(&s, v, 4, 3, 0);
    drop(&s);
}

/* ---- SWL ---- */

/* Seed 004 oracles 11-13 with N = 2. */
static void test_warp_sched_swl_window(void **state)
{
    struct pol_warp_view v[4];
    struct sched s = make("swl:2");

    (void)state;
    views_init(v, 4);
    EXPECT_ORDER(&s, v, 4, 0, 1);
    assert_int_equal(step(&s, v, 4), 0);
    assert_int_equal(step(&s, v, 4), 0); /* greedy */
    v[0].ready = v[1].ready = false;
    assert_int_equal(step(&s, v, 4), NONE); /* 2 and 3 are ready but outside the window */
    v[1].ready = true;
    assert_int_equal(step(&s, v, 4), 1);
    /* Oracle 12: 0 exits, 2 joins the window. */
    v[0].valid = false;
    EXPECT_ORDER(&s, v, 4, 1, 2);
    /* Oracle 13: 1 waits at a barrier, the window reaches past it to 3. */
    v[1].at_barrier = true, v[1].ready = false;
    EXPECT_ORDER(&s, v, 4, 2, 3);
    v[1].at_barrier = false, v[1].ready = true;
    EXPECT_ORDER(&s, v, 4, 1, 2);
    drop(&s);
}

/* The SM's N is split over its schedulers, adding up to N, at least 1 each. */
static void test_warp_sched_swl_split(void **state)
{
    struct pol_warp_view v[8];
    uint32_t got[8];
    struct {
        const char *spec;
        uint32_t nsched, sched_id, want;
    } cases[] = {
        {"swl:5", 2, 0, 3},
        {"swl:5", 2, 1, 2},
        {"swl:1", 4, 3, 1},
        {"swl:8", 4, 2, 2},
        {"swl:6", 4, 1, 2},
        {"swl:6", 4, 2, 1},
        {"warp_limiting:2:3", 2, 1, 3},
    };

    (void)state;
    views_init(v, 8);
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct sched s = make_sched(cases[i].spec, MAXW, cases[i].nsched, cases[i].sched_id);

        assert_int_equal(order_slots(&s, v, 8, got), cases[i].want);
        drop(&s);
    }
}

/* Drives a and b through the same pseudo-random readiness and compares every issue. */
static void expect_same_trace(const char *spec_a, const char *spec_b)
{
    struct pol_warp_view v[8];
    struct sched a = make_sched(spec_a, 8, 1, 0);
    struct sched b = make_sched(spec_b, 8, 1, 0);
    uint32_t x = 12345;

    views_init(v, 8);
    for (uint32_t c = 0; c < 500; c++) {
        for (uint32_t i = 0; i < 8; i++) {
            x = x * 1103515245u + 12345u;
            v[i].ready = ((x >> 16) & 3) != 0;
        }
        assert_int_equal(step(&a, v, 8), step(&b, v, 8));
    }
    drop(&a);
    drop(&b);
}

/* Oracle 11: SWL at the SM's full warp count is GTO; a two-level set as big as all warps
 * with no long waits is its inner policy (the oracle 10 analogue). */
static void test_warp_sched_equivalences(void **state)
{
    (void)state;
    expect_same_trace("swl:8", "gto");
    expect_same_trace("warp_limiting:2:8", "gto");
    expect_same_trace("two_level_active:8:2:1", "gto");
    expect_same_trace("two_level_active:8:0:1", "lrr");
    expect_same_trace("two_level_active:8:5:1", "oldest");
}

/* ---- all of them ---- */

static void test_warp_sched_invalid_views_skipped(void **state)
{
    const char *specs[] = {"lrr",
                           "gto",
                           "oldest",
                           "two_level_active:6:0:1",
                           "two_level_active:3:2:5",
                           "swl:3",
                           "warp_limiting:2:3"};
    struct pol_warp_view v[6];
    uint32_t got[6];

    (void)state;
    views_init(v, 6);
    v[0].valid = v[2].valid = v[5].valid = false;
    for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
        struct sched s = make(specs[i]);

        for (uint32_t c = 0; c < 5; c++) {
            uint32_t k = order_slots(&s, v, 6, got); /* asserts every entry is valid */

            assert_int_equal(k, 3);
            assert_int_not_equal(step(&s, v, 6), NONE);
        }
        drop(&s);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_warp_sched_registry_names),
        cmocka_unit_test(test_warp_sched_registry_args),
        cmocka_unit_test(test_warp_sched_registry_unknown),
        cmocka_unit_test(test_warp_sched_registry_cta_l1d),
        cmocka_unit_test(test_warp_sched_gpgpusim_spellings),
        cmocka_unit_test(test_warp_sched_bad_args),
        cmocka_unit_test(test_warp_sched_two_level_needs_slots),
        cmocka_unit_test(test_warp_sched_lrr_rotation),
        cmocka_unit_test(test_warp_sched_lrr_slot_order),
        cmocka_unit_test(test_warp_sched_gto_greedy_then_oldest),
        cmocka_unit_test(test_warp_sched_gto_recycled_slot),
        cmocka_unit_test(test_warp_sched_oldest_by_age),
        cmocka_unit_test(test_warp_sched_two_level_demote_promote),
        cmocka_unit_test(test_warp_sched_two_level_outer_oldest),
        cmocka_unit_test(test_warp_sched_two_level_short_active),
        cmocka_unit_test(test_warp_sched_two_level_inner_gto_vs_lrr),
        cmocka_unit_test(test_warp_sched_two_level_exit_and_launch),
        cmocka_unit_test(test_warp_sched_swl_window),
        cmocka_unit_test(test_warp_sched_swl_split),
        cmocka_unit_test(test_warp_sched_equivalences),
        cmocka_unit_test(test_warp_sched_invalid_views_skipped),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
