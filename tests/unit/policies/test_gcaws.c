/*
 * Unit tests for CAWA's criticality predictor (policies/cawa_cpl.c) and the
 * gcaws warp scheduler (policies/ws_gcaws.c). A stand-in SM drives the ops
 * with synthetic views as timing/sm.c does: each cycle order(), the first
 * ready warp in the order issues, then on_issue() with its pre-issue view.
 * The oracle numbers are seed 003's (design/seeds/003_dissertation.md,
 * section 3.8, oracles 1-6).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "policies/cawa_cpl.h"
#include "policies/registry.h"
#include "policies/warp_sched.h"

#define MAXW 8
#define NONE UINT32_MAX

struct sm {
    const struct pol_warp_sched_ops *ops;
    void *st;
    uint32_t n;
    struct pol_warp_view v[MAXW];
};

static void *try_create(const char *spec, struct ps_err *err)
{
    const char *args = NULL;
    const struct pol_warp_sched_ops *ops;
    struct pol_warp_sched_params p = {.nsched = 1, .max_warps = MAXW};

    ps_err_clear(err);
    ops = pol_warp_sched_find(spec, &args, err);
    assert_non_null(ops);
    p.args = args;
    return pol_warp_sched_create(ops, &p, err);
}

/* n warps in slots 0..n-1, ages 100 + slot, all ready, launched at cycle `now`. */
static struct sm *make(const char *spec, uint32_t n, uint64_t now)
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
    for (uint32_t i = 0; i < n; i++) {
        s->v[i] = (struct pol_warp_view){.slot = i, .valid = true, .ready = true, .age = 100 + i};
        s->ops->on_event(s->st, POL_WARP_LAUNCHED, i, now);
    }
    return s;
}

static void drop(struct sm *s)
{
    pol_warp_sched_destroy(s->ops, s->st);
    free(s);
}

/* The slot order() puts first at cycle now (NONE if empty). */
static uint32_t first(struct sm *s, uint64_t now)
{
    uint32_t order[MAXW];
    uint32_t k = s->ops->order(s->st, s->v, s->n, order, now);

    return k ? s->v[order[0]].slot : NONE;
}

/* One cycle: the first ready warp in the order issues and advances its pc by one. */
static uint32_t cycle(struct sm *s, uint64_t now)
{
    uint32_t order[MAXW];
    uint32_t k = s->ops->order(s->st, s->v, s->n, order, now);

    for (uint32_t i = 0; i < k; i++) {
        struct pol_warp_view *w = &s->v[order[i]];

        if (!w->ready)
            continue;
        s->ops->on_issue(s->st, w, now);
        w->insts++;
        w->last_issue = now;
        w->pc++;
        return w->slot;
    }
    return NONE;
}

static struct cawa_cpl_warp *ctr(struct sm *s, uint32_t slot)
{
    return &pol_ws_gcaws_cpl(s->st)->w[slot];
}

/* Oracle 1: nInst = 10, CPI_avg = 2.5, nStall = 7 gives nCriticality 32.0. */
static void test_oracle1_formula(void **state)
{
    struct cawa_cpl c;

    (void)state;
    assert_true(cawa_cpl_formula(10, 2.5, 7) == 32.0);
    assert_int_equal(cawa_cpl_init(&c, 4, NULL, 1, CAWA_CPL_STALL_GAP), 0);
    cawa_cpl_launch(&c, 2, 1000);
    c.w[2].ninst = 10;
    c.w[2].nstall = 7;
    c.w[2].committed = 4; /* 10 cycles / 4 instructions = 2.5 */
    assert_true(cawa_cpl_cpi(&c, 2, 1010) == 2.5);
    assert_true(cawa_cpl_criticality(&c, 2, 1010) == 32.0);
    /* CPI_avg floors the instruction count at 1. */
    c.w[2].committed = 0;
    assert_true(cawa_cpl_cpi(&c, 2, 1010) == 10.0);
    cawa_cpl_fini(&c);
}

/* Oracle 2: k committed instructions without branches lower nInst by exactly k. */
static void test_oracle2_commit(void **state)
{
    struct cawa_cpl c;
    struct sm *s = make("gcaws", 1, 0);

    (void)state;
    assert_int_equal(cawa_cpl_init(&c, 1, NULL, 1, CAWA_CPL_STALL_GAP), 0);
    cawa_cpl_launch(&c, 0, 0);
    c.w[0].ninst = 5;
    for (int i = 0; i < 13; i++)
        cawa_cpl_commit(&c, 0, 1);
    assert_int_equal(c.w[0].ninst, 5 - 13);
    assert_int_equal(c.w[0].committed, 13);
    cawa_cpl_fini(&c);
    /* Through the scheduler: sequential pcs are no branches. */
    for (uint64_t t = 1; t <= 13; t++)
        assert_int_equal(cycle(s, t), 0);
    first(s, 14);
    assert_int_equal(ctr(s, 0)->ninst, -13);
    drop(s);
}

/* Oracle 3: a branch from index 1 to 4 adds 4; a diverged warp accumulates both paths. */
static void test_oracle3_branch(void **state)
{
    struct cawa_cpl one, div;
    struct sm *s;

    (void)state;
    assert_int_equal(cawa_cpl_delta_signed(1, 4, 1), 4);
    assert_int_equal(cawa_cpl_delta_abs(1, 4, 1), 4);
    assert_int_equal(cawa_cpl_delta_signed(1, 5, 1), 5);  /* Alg. 5's fall-through path */
    assert_int_equal(cawa_cpl_delta_signed(8, 40, 8), 5); /* byte PCs with inst_size 8 */
    assert_int_equal(cawa_cpl_delta_signed(5, 2, 1), -2); /* backward: negative (recommended) */
    assert_int_equal(cawa_cpl_delta_abs(5, 2, 1), 4);     /* literal: additions only */

    assert_int_equal(cawa_cpl_init(&one, 1, NULL, 1, CAWA_CPL_STALL_GAP), 0);
    assert_int_equal(cawa_cpl_init(&div, 1, NULL, 1, CAWA_CPL_STALL_GAP), 0);
    cawa_cpl_launch(&one, 0, 0);
    cawa_cpl_launch(&div, 0, 0);
    cawa_cpl_branch(&one, 0, 1, 4);
    assert_int_equal(one.w[0].ninst, 4); /* before any commit */
    cawa_cpl_branch(&div, 0, 1, 4);
    cawa_cpl_branch(&div, 0, 1, 5);
    assert_int_equal(div.w[0].ninst, 9);
    /* Both commit the 4 instructions of the taken path: the diverged warp stays ahead. */
    cawa_cpl_commit(&one, 0, 4);
    cawa_cpl_commit(&div, 0, 4);
    assert_true(div.w[0].ninst > one.w[0].ninst);
    /* The diverged warp's other 5 instructions catch up. */
    cawa_cpl_commit(&div, 0, 5);
    assert_int_equal(div.w[0].ninst, one.w[0].ninst);
    cawa_cpl_fini(&one);
    cawa_cpl_fini(&div);

    /* The SM's branch outcomes (ninst=branch, the default): 1 -> 4, then a divergence 6 -> 7, 9. */
    s = make("gcaws", 1, 0);
    s->v[0].pc = 1;
    assert_int_equal(cycle(s, 1), 0);
    s->ops->on_branch(s->st, 0, 1, 4, 1);
    s->v[0].pc = 9; /* a jump the SM did not report as a branch adds nothing */
    first(s, 2);
    assert_int_equal(ctr(s, 0)->ninst, -1 + 4);
    s->ops->on_branch(s->st, 0, 6, 7, 2);
    s->ops->on_branch(s->st, 0, 6, 9, 2);
    assert_int_equal(ctr(s, 0)->ninst, -1 + 4 + 2 + 4);
    drop(s);
    /* Inferred from PC jumps (ninst=pc): issue at pc 1, next seen at pc 4 = a branch 1 -> 4. */
    s = make("gcaws:ninst=pc", 1, 0);
    s->v[0].pc = 1;
    assert_int_equal(cycle(s, 1), 0); /* pc becomes 2 */
    s->v[0].pc = 4;
    first(s, 2);
    assert_int_equal(ctr(s, 0)->ninst, -1 + 4);
    /* A sequential step adds nothing; ninst=off ignores jumps. */
    assert_int_equal(cycle(s, 2), 0);
    first(s, 3);
    assert_int_equal(ctr(s, 0)->ninst, 3 - 1);
    drop(s);
    s = make("gcaws:ninst=off", 1, 0);
    s->v[0].pc = 1;
    cycle(s, 1);
    s->v[0].pc = 4;
    first(s, 2);
    assert_int_equal(ctr(s, 0)->ninst, -1);
    drop(s);
    /* delta=abs: a backward jump 5 -> 2 adds +4, delta=signed adds -2. */
    s = make("gcaws:ninst=pc,delta=abs", 1, 0);
    s->v[0].pc = 5;
    cycle(s, 1);
    s->v[0].pc = 2;
    first(s, 2);
    assert_int_equal(ctr(s, 0)->ninst, -1 + 4);
    drop(s);
    s = make("gcaws:ninst=pc", 1, 0);
    s->v[0].pc = 5;
    cycle(s, 1);
    s->v[0].pc = 2;
    first(s, 2);
    assert_int_equal(ctr(s, 0)->ninst, -1 - 2);
    drop(s);
}

/* Oracle 4: issues at cycles 100 and 110 grow nStall by 9 (10 under the literal reading). */
static void test_oracle4_stall(void **state)
{
    struct cawa_cpl c;
    struct sm *s;

    (void)state;
    assert_int_equal(cawa_cpl_init(&c, 1, NULL, 1, CAWA_CPL_STALL_GAP), 0);
    cawa_cpl_launch(&c, 0, 0);
    cawa_cpl_issue(&c, 0, 100);
    assert_int_equal(c.w[0].nstall, 0); /* the first issue adds nothing */
    cawa_cpl_issue(&c, 0, 110);
    assert_int_equal(c.w[0].nstall, 9);
    cawa_cpl_issue(&c, 0, 111); /* back to back: no stall */
    assert_int_equal(c.w[0].nstall, 9);
    cawa_cpl_fini(&c);

    s = make("gcaws", 1, 0);
    cycle(s, 100);
    s->v[0].ready = false;
    for (uint64_t t = 101; t < 110; t++)
        assert_int_equal(cycle(s, t), NONE);
    s->v[0].ready = true;
    cycle(s, 110);
    assert_int_equal(ctr(s, 0)->nstall, 9);
    drop(s);
    s = make("gcaws:stall=literal", 1, 0);
    cycle(s, 100);
    cycle(s, 110);
    assert_int_equal(ctr(s, 0)->nstall, 10);
    drop(s);
}

/* Warps A (slot 0, crit 50), B (slot 1, crit 80), C (slot 2, crit 80, older than B). */
static struct sm *abc(void)
{
    struct sm *s = make("gcaws", 3, 0);

    s->v[0].age = 100; /* A */
    s->v[1].age = 102; /* B */
    s->v[2].age = 101; /* C, older than B */
    first(s, 1);       /* binds the slots to these warps */
    ctr(s, 0)->nstall = 50;
    ctr(s, 1)->nstall = 80;
    ctr(s, 2)->nstall = 80;
    return s;
}

/* Oracle 5: with nothing issued last cycle, C (crit 80, older than B) issues. */
static void test_oracle5_choice(void **state)
{
    struct sm *s = abc();
    uint32_t order[MAXW];

    (void)state;
    assert_true(cawa_cpl_criticality(pol_ws_gcaws_cpl(s->st), 0, 1) == 50.0);
    assert_int_equal(s->ops->order(s->st, s->v, 3, order, 1), 3);
    assert_int_equal(order[0], 2); /* C */
    assert_int_equal(order[1], 1); /* B */
    assert_int_equal(order[2], 0); /* A */
    assert_int_equal(cycle(s, 1), 2);
    drop(s);
}

/* Oracle 6: C keeps issuing while ready although B has its criticality; once C stalls, B. */
static void test_oracle6_greed(void **state)
{
    struct sm *s = abc();

    (void)state;
    assert_int_equal(cycle(s, 1), 2);
    for (uint64_t t = 2; t < 10; t++)
        assert_int_equal(cycle(s, t), 2);
    /* C's own criticality has fallen below B's by now (nInst -= 1 per commit). */
    assert_true(ctr(s, 2)->ninst < 0);
    s->v[2].ready = false;
    assert_int_equal(cycle(s, 10), 1); /* B */
    assert_int_equal(cycle(s, 11), 1); /* and B is now the greedy warp */
    s->v[2].ready = true;
    assert_int_equal(cycle(s, 12), 1);
    drop(s);
}

/* A stalled greedy warp keeps only its criticality rank; the others are not left out. */
static void test_greedy_not_ready(void **state)
{
    struct sm *s = abc();
    uint32_t order[MAXW];

    (void)state;
    assert_int_equal(cycle(s, 1), 2);
    s->v[2].ready = false;
    ctr(s, 2)->nstall = 1000; /* even as the most critical, it is not ready */
    assert_int_equal(s->ops->order(s->st, s->v, 3, order, 2), 3);
    assert_int_equal(order[0], 2); /* by rank */
    assert_int_equal(cycle(s, 2), 1);
    /* Invalid warps are left out. */
    s->v[0].valid = false;
    assert_int_equal(s->ops->order(s->st, s->v, 3, order, 3), 2);
    drop(s);
}

/* A new warp in a slot restarts its counters and does not inherit greed. */
static void test_slot_reset(void **state)
{
    struct sm *s = abc();

    (void)state;
    assert_int_equal(cycle(s, 1), 2);
    ctr(s, 2)->nstall = 500;
    /* Slot 2 gets a new warp (age change, no event): counters restart at this cycle. */
    s->v[2].age = 200;
    s->v[2].pc = 0;
    assert_int_equal(first(s, 5), 1); /* B (80) leads; the new warp is not greedy */
    assert_int_equal(ctr(s, 2)->nstall, 0);
    assert_int_equal(ctr(s, 2)->ninst, 0);
    assert_int_equal(ctr(s, 2)->committed, 0);
    assert_int_equal(ctr(s, 2)->start, 5);
    /* POL_WARP_LAUNCHED restarts too, from the event's cycle. */
    ctr(s, 1)->nstall = 300;
    s->ops->on_event(s->st, POL_WARP_LAUNCHED, 1, 7);
    s->v[1].age = 300;
    assert_int_equal(ctr(s, 1)->nstall, 0);
    first(s, 9);
    assert_int_equal(ctr(s, 1)->start, 7);
    drop(s);
}

static void test_args(void **state)
{
    struct ps_err err;
    void *st;
    const struct pol_warp_sched_ops *ops;

    (void)state;
    ps_err_clear(&err);
    ops = pol_warp_sched_find("gcaws", NULL, &err);
    assert_non_null(ops);
    assert_string_equal(ops->name, "gcaws");
    const char *good[] = {"gcaws",
                          "gcaws:",
                          "gcaws:ninst=off",
                          "gcaws:delta=abs,stall=literal",
                          "gcaws:ninst=pc,delta=signed,stall=gap",
                          "gcaws:order=gto",
                          "gcaws:order=crit,delta=abs"};
    for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
        st = try_create(good[i], &err);
        if (!st)
            fail_msg("%s: %s", good[i], err.msg);
        pol_warp_sched_destroy(ops, st);
    }
    const char *bad[] = {"gcaws:1",
                         "gcaws:foo=1",
                         "gcaws:ninst=",
                         "gcaws:stall=gap,",
                         "gcaws:delta=abs,,stall=gap",
                         "gcaws:ninst=pcx",
                         "gcaws:order=lrr"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        st = try_create(bad[i], &err);
        if (st)
            fail_msg("%s accepted", bad[i]);
        assert_int_equal(err.code, PS_EINVAL);
        assert_non_null(strstr(err.msg, "gcaws"));
    }
}

/* order=gto keeps predicting (the criticality hook reports it) but orders as GTO: oldest first. */
static void test_passive_order(void **state)
{
    struct sm *s = make("gcaws:order=gto", 3, 0);
    double c0, c2;

    (void)state;
    ctr(s, 2)->nstall = 1000; /* the youngest warp is by far the most critical */
    assert_int_equal(first(s, 1), 0);
    assert_true(s->ops->criticality(s->st, 2, 1, &c2));
    assert_true(s->ops->criticality(s->st, 0, 1, &c0));
    assert_true(c2 > c0);
    assert_int_equal(cycle(s, 1), 0);
    assert_int_equal(cycle(s, 2), 0); /* greedy, as GTO */
    /* An exited warp has no criticality to report. */
    s->ops->on_event(s->st, POL_WARP_EXITED, 1, 3);
    assert_false(s->ops->criticality(s->st, 1, 3, &c0));
    drop(s);
    /* The default order follows the criticality. */
    s = make("gcaws", 3, 0);
    ctr(s, 2)->nstall = 1000;
    assert_int_equal(first(s, 1), 2);
    drop(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_oracle1_formula),
        cmocka_unit_test(test_oracle2_commit),
        cmocka_unit_test(test_oracle3_branch),
        cmocka_unit_test(test_oracle4_stall),
        cmocka_unit_test(test_oracle5_choice),
        cmocka_unit_test(test_oracle6_greed),
        cmocka_unit_test(test_greedy_not_ready),
        cmocka_unit_test(test_slot_reset),
        cmocka_unit_test(test_args),
        cmocka_unit_test(test_passive_order),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
