/*
 * Unit tests for the caws warp scheduler (policies/ws_caws.c): oracle
 * criticality from a profile (seed 003 section 2.4, the CAWS-blk, CAWS-SM
 * and CAWS-avg variants) and the per-warp priority counters. A stand-in SM
 * calls order() every cycle and issues the first ready warp of the order.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "policies/registry.h"
#include "policies/sched_builtin.h"

#define MAXW 48
#define NONE UINT32_MAX

static char prof_path[64];

/* Writes a profile: n warps of CTA cta (grid 1), warp i ran times[i] cycles. */
static const char *profile(const uint64_t *times, uint32_t n, uint32_t ctas)
{
    int fd;
    FILE *f;

    strcpy(prof_path, "/tmp/test_caws.XXXXXX");
    fd = mkstemp(prof_path);
    assert_true(fd >= 0);
    f = fdopen(fd, "w");
    assert_non_null(f);
    fputs("grid,cta,warp,sm,start,end\n", f);
    for (uint32_t c = 0; c < ctas; c++)
        for (uint32_t i = 0; i < n; i++)
            fprintf(f, "1,%u,%u,0,1000,%llu\n", c, i,
                    (unsigned long long)(1000 + times[c * n + i]));
    fclose(f);
    return prof_path;
}

struct sm {
    const struct pol_warp_sched_ops *ops;
    void *st;
    uint64_t now;
    uint32_t n;
    struct pol_warp_view v[MAXW];
};

static void *try_create(const char *spec, struct ps_err *err)
{
    const char *args = NULL;
    const struct pol_warp_sched_ops *ops = pol_warp_sched_find(spec, &args, err);
    struct pol_warp_sched_params p = {.nsched = 1, .max_warps = MAXW, .args = args};

    assert_non_null(ops);
    return pol_warp_sched_create(ops, &p, err);
}

/* n warps in slots 0..n-1: CTA i / per_cta, warp i % per_cta of grid 1. */
static struct sm *make(const char *spec, uint32_t n, uint32_t per_cta)
{
    struct sm *s = calloc(1, sizeof(*s));
    struct ps_err err;

    assert_non_null(s);
    ps_err_clear(&err);
    s->ops = pol_warp_sched_find(spec, NULL, &err);
    s->st = try_create(spec, &err);
    if (!s->st)
        fail_msg("%s: %s", spec, err.msg);
    s->n = n;
    for (uint32_t i = 0; i < n; i++)
        s->v[i] = (struct pol_warp_view){.slot = i,
                                         .valid = true,
                                         .ready = true,
                                         .age = 100 + i,
                                         .cta = i / per_cta,
                                         .grid = 1,
                                         .cta_id = i / per_cta,
                                         .warp_in_cta = i % per_cta};
    return s;
}

static void drop(struct sm *s)
{
    pol_warp_sched_destroy(s->ops, s->st);
    free(s);
    unlink(prof_path);
}

static uint32_t step(struct sm *s)
{
    uint32_t ord[MAXW], k;

    s->now++;
    k = s->ops->order(s->st, s->v, s->n, ord, s->now);
    for (uint32_t j = 0; j < k; j++) {
        const struct pol_warp_view *w = &s->v[ord[j]];

        if (!w->ready)
            continue;
        s->ops->on_issue(s->st, w, s->now);
        return w->slot;
    }
    return NONE;
}

static int cls(struct sm *s, uint32_t slot)
{
    return pol_ws_caws_class(s->st, slot);
}

static void test_caws_args(void **state)
{
    static const uint64_t t[2] = {10, 20};
    const char *bad[] = {"caws",
                         "caws:variant=avg",
                         "caws:profile=/nonexistent/x",
                         "caws:profile=P,variant=max",
                         "caws:profile=P,crit=x",
                         "caws:profile=P,hi=90",
                         "caws:profile=P,bogus=1"};
    char spec[128];
    struct ps_err err;
    FILE *f;

    (void)state;
    profile(t, 2, 1);
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        const char *p = strstr(bad[i], "=P");

        if (p)
            snprintf(spec, sizeof(spec), "%.*s=%s%s", (int)(p - bad[i]), bad[i], prof_path, p + 2);
        else
            snprintf(spec, sizeof(spec), "%s", bad[i]);
        ps_err_clear(&err);
        assert_null(try_create(spec, &err));
        assert_int_equal(err.code, PS_EINVAL);
        assert_non_null(strstr(err.msg, "caws"));
    }
    f = fopen(prof_path, "a");
    fputs("1,2,three\n", f);
    fclose(f);
    snprintf(spec, sizeof(spec), "caws:profile=%s", prof_path);
    ps_err_clear(&err);
    assert_null(try_create(spec, &err));
    assert_non_null(strstr(err.msg, ":4 is not grid,cta,warp,sm,start,end"));
    unlink(prof_path);
}

/* With every warp normal and normal = warps - 1, the counters give round robin (seed 003 2.4). */
static void test_caws_round_robin(void **state)
{
    static const uint64_t t[1] = {5};
    char spec[128];
    struct sm *s;

    (void)state;
    profile(t, 1, 1); /* matches nobody here: grid 1 cta 0 warp 0 only ... */
    snprintf(spec, sizeof(spec), "caws:profile=%s,variant=avg", prof_path);
    s = make(spec, 48, 48);
    s->v[0].grid = 2; /* ... and not even that one */
    for (uint32_t r = 0; r < 3; r++)
        for (uint32_t i = 0; i < 48; i++)
            assert_int_equal(step(s), i);
    assert_int_equal(cls(s, 0), 0);
    /* a warp that is not ready is skipped; the next smallest counter issues */
    s->v[1].ready = false;
    assert_int_equal(step(s), 0);
    assert_int_equal(step(s), 2);
    drop(s);
}

/* CAWS-blk: the single slowest warp of each block is critical (ties: the lower warp index). */
static void test_caws_blk(void **state)
{
    static const uint64_t t[8] = {10, 50, 20, 50, 7, 3, 9, 1};
    char spec[128];
    struct sm *s;

    (void)state;
    profile(t, 4, 2);
    snprintf(spec, sizeof(spec), "caws:profile=%s,variant=blk", prof_path);
    s = make(spec, 8, 4);
    step(s);
    for (uint32_t i = 0; i < 8; i++)
        assert_int_equal(cls(s, i), i == 1 || i == 6);
    drop(s);
}

/* CAWS-avg: above 1.2 x the block average critical, below 0.8 x fast. */
static void test_caws_avg(void **state)
{
    static const uint64_t t[4] = {50, 100, 100, 250}; /* average 125: 150 and 100 */
    char spec[128];
    struct sm *s;

    (void)state;
    profile(t, 4, 1);
    snprintf(spec, sizeof(spec), "caws:profile=%s", prof_path);
    s = make(spec, 4, 4);
    step(s);
    assert_int_equal(cls(s, 0), 2);
    assert_int_equal(cls(s, 1), 0); /* 100 is not below 100 */
    assert_int_equal(cls(s, 2), 0);
    assert_int_equal(cls(s, 3), 1);
    drop(s);
}

/* CAWS-SM: the N slowest resident warps, N = resident blocks; re-ranked as warps leave. */
static void test_caws_sm(void **state)
{
    static const uint64_t t[8] = {10, 80, 20, 30, 70, 5, 90, 60};
    char spec[128];
    struct sm *s;

    (void)state;
    profile(t, 4, 2);
    snprintf(spec, sizeof(spec), "caws:profile=%s,variant=sm", prof_path);
    s = make(spec, 8, 4);
    step(s);
    for (uint32_t i = 0; i < 8; i++) /* 2 blocks: 90 (slot 6) and 80 (slot 1) */
        assert_int_equal(cls(s, i), i == 6 || i == 1);
    s->v[6].valid = false; /* it exits: 80 and 70 now */
    step(s);
    assert_int_equal(cls(s, 1), 1);
    assert_int_equal(cls(s, 4), 1);
    assert_int_equal(cls(s, 7), 0);
    for (uint32_t i = 4; i < 8; i++) /* block 1 leaves: one block, one critical warp */
        s->v[i].valid = false;
    step(s);
    assert_int_equal(cls(s, 1), 1);
    assert_int_equal(cls(s, 3), 0);
    drop(s);
}

/* Critical warps get more issue slots: reset 40 against 47 for the others, fast ones fewer. */
static void test_caws_share(void **state)
{
    uint64_t t[48];
    uint32_t issued[48] = {0};
    char spec[128];
    struct sm *s;

    (void)state;
    for (uint32_t i = 0; i < 48; i++)
        t[i] = i == 5 ? 300 : i == 9 ? 10 : 100; /* 5 critical, 9 fast */
    profile(t, 48, 1);
    snprintf(spec, sizeof(spec), "caws:profile=%s", prof_path);
    s = make(spec, 48, 48);
    for (uint32_t c = 0; c < 48 * 100; c++)
        issued[step(s)]++;
    assert_int_equal(cls(s, 5), 1);
    assert_int_equal(cls(s, 9), 2);
    assert_true(issued[5] > issued[0] * 11 / 10); /* about 48/41 of the others' share */
    assert_true(issued[9] < issued[0] * 9 / 10);  /* about 48/59 */
    assert_true(issued[0] > 90 && issued[0] < 110);
    drop(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_caws_args), cmocka_unit_test(test_caws_round_robin),
        cmocka_unit_test(test_caws_blk),  cmocka_unit_test(test_caws_avg),
        cmocka_unit_test(test_caws_sm),   cmocka_unit_test(test_caws_share),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
