/*
 * Unit tests for the DYNCTA CTA scheduler ("dyncta", design/seeds/001):
 * the ops are driven directly with synthetic per-period samples. Covered:
 * defaults and overrides (oracle 1), the initial n (2, 26), the decision
 * table (12), steps of one within the bounds (13, 23), n moving only at
 * samples (14), per-SM independence (15), per-period counters that never
 * accumulate or wrap (10), the first wave (3, 4) and the pause sets the SM
 * derives from run_limit (16, 17, 19, 20, 21, 22) on small models of the
 * GPU's issue rule and the SM's pause rule, the series of n, and every
 * argument error.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "policies/registry.h"
#include "policies/sched_builtin.h"

#define PERIOD 2048

struct dyn {
    const struct pol_cta_sched_ops *ops;
    void *st;
    uint64_t now; /* cycle of the last sample */
};

static struct dyn try_make(const char *spec, uint32_t nsm, struct ps_err *err)
{
    const char *args = NULL;
    struct dyn d = {0};
    struct pol_cta_sched_params p = {.nsm = nsm, .static_limit = 0};

    ps_err_clear(err);
    d.ops = pol_cta_sched_find(spec, &args, err);
    assert_non_null(d.ops);
    p.args = args;
    d.st = pol_cta_sched_create(d.ops, &p, err);
    return d;
}

static struct dyn make(const char *spec, uint32_t nsm)
{
    struct ps_err err;
    struct dyn d = try_make(spec, nsm, &err);

    if (!d.st)
        fail_msg("%s: %s", spec, err.msg);
    return d;
}

static void expect_bad(const char *spec, const char *in_msg)
{
    struct ps_err err;
    struct dyn d = try_make(spec, 4, &err);

    assert_null(d.st);
    assert_int_equal(err.code, PS_EINVAL);
    if (!strstr(err.msg, in_msg))
        fail_msg("%s: message '%s' lacks '%s'", spec, err.msg, in_msg);
}

/* One period's counters for SM sm, delivered at cycle d->now. */
static void sample_at(struct dyn *d, uint32_t sm, uint64_t c_idle, uint64_t c_mem)
{
    struct pol_sm_sample s = {.cycles = PERIOD,
                              .idle = c_idle,
                              .mem_stall = c_mem,
                              .issued = 0,
                              .active_ctas = 0,
                              .max_ctas = 0};

    d->ops->on_sample(d->st, sm, &s, d->now);
}

/* The next period boundary, at which SM sm reports (c_idle, c_mem). */
static void period(struct dyn *d, uint32_t sm, uint64_t c_idle, uint64_t c_mem)
{
    d->now += PERIOD;
    sample_at(d, sm, c_idle, c_mem);
}

static uint32_t n_of(const struct dyn *d, uint32_t sm)
{
    uint32_t n = d->ops->limit(d->st, sm);

    assert_int_equal(d->ops->run_limit(d->st, sm), n);
    return n;
}

/* ------------------------------------------------------------------ oracles 1, 2, 12, 26 */

struct row {
    uint32_t c_idle, c_mem;
    int dn;
};

/* Oracle 12's table at 1 < n < N (N = 8, n = 4), each row from a fresh kernel. */
static void check_table(struct dyn *d, const struct row *rows, size_t nrows)
{
    for (size_t i = 0; i < nrows; i++) {
        d->ops->on_kernel(d->st, 8);
        assert_int_equal(n_of(d, 0), 4);
        period(d, 0, rows[i].c_idle, rows[i].c_mem);
        if ((int)n_of(d, 0) != 4 + rows[i].dn)
            fail_msg("row %zu (C_idle %u, C_mem %u): n %u, expected %d", i, rows[i].c_idle,
                     rows[i].c_mem, n_of(d, 0), 4 + rows[i].dn);
    }
}

static void test_dyncta_decision_table(void **state)
{
    static const struct row rows[] = {
        {16, 2047, +1}, /* idle is checked first */
        {16, 0, +1},    {15, 127, +1}, {15, 128, 0}, {15, 383, 0},
        {15, 384, -1},  {0, 2047, -1}, {0, 200, 0},
    };
    struct dyn d = make("dyncta", 2);

    (void)state;
    check_table(&d, rows, sizeof(rows) / sizeof(rows[0]));
    pol_cta_sched_destroy(d.ops, d.st);
}

static void test_dyncta_decision_bounds(void **state)
{
    struct dyn d = make("dyncta", 1);
    struct dyn m = make("dyncta:init=max", 1);

    (void)state;
    d.ops->on_kernel(d.st, 2); /* n = 1 */
    assert_int_equal(n_of(&d, 0), 1);
    period(&d, 0, 0, 2047); /* lower bound */
    assert_int_equal(n_of(&d, 0), 1);
    m.ops->on_kernel(m.st, 8); /* n = N */
    period(&m, 0, 16, 0);      /* upper bound */
    assert_int_equal(n_of(&m, 0), 8);
    period(&m, 0, 0, 0);
    assert_int_equal(n_of(&m, 0), 8);
    pol_cta_sched_destroy(d.ops, d.st);
    pol_cta_sched_destroy(m.ops, m.st);
}

static void test_dyncta_overrides(void **state)
{
    static const struct row rows[] = {
        {8, 1000, +1}, {7, 63, +1}, {7, 64, 0}, {7, 199, 0}, {7, 200, -1},
    };
    struct dyn a = make("dyncta:t_idle=8,t_mem_l=64,t_mem_h=200", 1);
    struct dyn b = make("dyncta:t_mem_h=200:t_idle=8:t_mem_l=64", 1); /* ':' works too */
    struct dyn e = make("dyncta:", 1);                                /* empty: the defaults */

    (void)state;
    check_table(&a, rows, sizeof(rows) / sizeof(rows[0]));
    check_table(&b, rows, sizeof(rows) / sizeof(rows[0]));
    e.ops->on_kernel(e.st, 8);
    period(&e, 0, 15, 384);
    assert_int_equal(n_of(&e, 0), 3);
    pol_cta_sched_destroy(a.ops, a.st);
    pol_cta_sched_destroy(b.ops, b.st);
    pol_cta_sched_destroy(e.ops, e.st);
}

static void test_dyncta_initial(void **state)
{
    static const uint32_t N[] = {8, 7, 6, 5, 4, 3, 2, 1};
    static const uint32_t n[] = {4, 3, 3, 2, 2, 1, 1, 1}; /* floor(N/2), N = 1 clamped (A10) */
    struct dyn d = make("dyncta", 30);

    (void)state;
    for (size_t i = 0; i < sizeof(N) / sizeof(N[0]); i++) {
        d.ops->on_kernel(d.st, N[i]);
        for (uint32_t sm = 0; sm < 30; sm++)
            assert_int_equal(n_of(&d, sm), n[i]);
    }
    pol_cta_sched_destroy(d.ops, d.st);
}

static void test_dyncta_init_variants(void **state)
{
    struct dyn mx = make("dyncta:init=max", 2);
    struct dyn one = make("dyncta:init=1", 2);
    struct dyn three = make("dyncta:init=3", 2);
    struct dyn half = make("dyncta:init=half", 2);

    (void)state;
    mx.ops->on_kernel(mx.st, 6);
    one.ops->on_kernel(one.st, 6);
    three.ops->on_kernel(three.st, 6);
    half.ops->on_kernel(half.st, 6);
    assert_int_equal(n_of(&mx, 1), 6);
    assert_int_equal(n_of(&one, 1), 1);
    assert_int_equal(n_of(&three, 1), 3);
    assert_int_equal(n_of(&half, 1), 3);
    three.ops->on_kernel(three.st, 2); /* init above N: N */
    assert_int_equal(n_of(&three, 0), 2);
    pol_cta_sched_destroy(mx.ops, mx.st);
    pol_cta_sched_destroy(one.ops, one.st);
    pol_cta_sched_destroy(three.ops, three.st);
    pol_cta_sched_destroy(half.ops, half.st);
}

/* ------------------------------------------------------------------ oracles 10, 13-15, 23 */

static uint32_t lcg(uint32_t *x)
{
    *x = *x * 1664525u + 1013904223u;
    return *x >> 8;
}

/* A period whose counters ask for +1, -1 or 0, with as many ups as downs on average. */
static void random_period(struct dyn *d, uint32_t sm, uint32_t *x)
{
    uint32_t kind = lcg(x) % 5, low = lcg(x) % 16, any = lcg(x) % 2048;

    if (kind == 0)
        period(d, sm, 16 + low * 100, any); /* C_idle high */
    else if (kind == 1)
        period(d, sm, low, low * 8); /* C_mem low */
    else if (kind == 4)
        period(d, sm, low, 128 + any % 256); /* C_mem medium */
    else
        period(d, sm, low, 384 + any); /* C_mem high */
}

/* Random periods: n moves by at most one and stays in [lo, hi]. */
static void random_walk(const char *spec, uint32_t N, uint32_t lo, uint32_t hi)
{
    struct dyn d = make(spec, 3);
    uint32_t x = N * 7919u, seen_lo = 0, seen_hi = 0;

    d.ops->on_kernel(d.st, N);
    for (int i = 0; i < 4000; i++) {
        uint32_t before = n_of(&d, 1), after;

        random_period(&d, 1, &x);
        after = n_of(&d, 1);
        assert_true(after + 1 >= before && after <= before + 1);
        assert_true(after >= lo && after <= hi && after >= 1 && after <= N);
        seen_lo |= after == lo;
        seen_hi |= after == hi;
    }
    assert_true(seen_lo && seen_hi); /* the walk reached both bounds */
    pol_cta_sched_destroy(d.ops, d.st);
}

static void test_dyncta_bounds(void **state)
{
    (void)state;
    for (uint32_t N = 1; N <= 8; N++)
        random_walk("dyncta", N, 1, N);
    random_walk("dyncta:n_min=2,n_max=6", 8, 2, 6);
    random_walk("dyncta:n_max=10", 8, 1, 8); /* n_max above N: N */
    random_walk("dyncta:n_min=3", 2, 2, 2);  /* n_min above N: N */
}

static void test_dyncta_steps_to_bounds(void **state)
{
    struct dyn d = make("dyncta", 1);

    (void)state;
    d.ops->on_kernel(d.st, 8);
    for (uint32_t want = 5; want <= 8; want++) { /* one step per period (oracle 13) */
        period(&d, 0, 100, 0);
        assert_int_equal(n_of(&d, 0), want);
    }
    period(&d, 0, 100, 0);
    assert_int_equal(n_of(&d, 0), 8);
    for (uint32_t want = 7; want >= 1; want--) {
        period(&d, 0, 0, 2000);
        assert_int_equal(n_of(&d, 0), want);
    }
    period(&d, 0, 0, 2000);
    assert_int_equal(n_of(&d, 0), 1);
    pol_cta_sched_destroy(d.ops, d.st);
}

static void test_dyncta_only_at_samples(void **state)
{
    struct dyn d = make("dyncta", 4);

    (void)state;
    d.ops->on_kernel(d.st, 8);
    for (int i = 0; i < 10000; i++) /* the GPU asks every cycle; nothing moves n */
        assert_int_equal(n_of(&d, (uint32_t)i % 4), 4);
    period(&d, 2, 0, 1000);
    assert_int_equal(n_of(&d, 2), 3);
    for (int i = 0; i < 1000; i++)
        assert_int_equal(n_of(&d, 2), 3);
    pol_cta_sched_destroy(d.ops, d.st);
}

static void test_dyncta_counters_per_period(void **state)
{
    struct dyn d = make("dyncta", 1);

    (void)state;
    d.ops->on_kernel(d.st, 8);
    period(&d, 0, 10, 200); /* C_idle 10 + 10 would be high: periods do not add up */
    period(&d, 0, 10, 200);
    assert_int_equal(n_of(&d, 0), 4);
    period(&d, 0, 100, 100); /* C_mem 100 + 100 would be medium */
    assert_int_equal(n_of(&d, 0), 5);
    period(&d, 0, 0, 100);
    assert_int_equal(n_of(&d, 0), 6);
    period(&d, 0, 2048, 200); /* a full period of idle: an 11-bit counter saturates, never wraps */
    assert_int_equal(n_of(&d, 0), 7);
    period(&d, 0, 0, 4096);
    assert_int_equal(n_of(&d, 0), 6);
    pol_cta_sched_destroy(d.ops, d.st);
}

static void test_dyncta_independent_sms(void **state)
{
    struct dyn d = make("dyncta", 3);

    (void)state;
    d.ops->on_kernel(d.st, 8);
    d.now += PERIOD;
    sample_at(&d, 0, 20, 0);
    sample_at(&d, 1, 0, 500);
    sample_at(&d, 2, 0, 200);
    assert_int_equal(n_of(&d, 0), 5);
    assert_int_equal(n_of(&d, 1), 3);
    assert_int_equal(n_of(&d, 2), 4);
    pol_cta_sched_destroy(d.ops, d.st);
}

static void test_dyncta_kernel_resets(void **state)
{
    struct dyn d = make("dyncta", 2);

    (void)state;
    assert_int_equal(n_of(&d, 0), UINT32_MAX); /* no opinion before a kernel */
    period(&d, 0, 100, 0);                     /* ignored */
    d.ops->on_kernel(d.st, 8);
    period(&d, 0, 100, 0);
    period(&d, 1, 0, 1000);
    assert_int_equal(n_of(&d, 0), 5);
    assert_int_equal(n_of(&d, 1), 3);
    d.ops->on_kernel(d.st, 6); /* A11: every SM back to floor(N/2) of the new kernel */
    assert_int_equal(n_of(&d, 0), 3);
    assert_int_equal(n_of(&d, 1), 3);
    assert_int_equal(n_of(&d, 7), UINT32_MAX); /* no such SM */
    pol_cta_sched_destroy(d.ops, d.st);
}

/* ------------------------------------------------------------------ oracles 3, 4, 16-22 */

/*
 * One SM as the GPU and the SM see it: issue while the SM holds fewer than
 * min(N, limit) (timing/gpu.c issue_ctas), and run the run_limit
 * earliest-assigned resident CTAs (timing/sm.c update_paused).
 */
#define MODEL_MAX 8

struct model {
    uint32_t seq[MODEL_MAX]; /* assignment order of the resident CTAs, oldest first */
    uint32_t nres, next;     /* resident, next CTA of the kernel */
};

static void issue(struct model *m, const struct dyn *d, uint32_t N, uint32_t nctas)
{
    uint32_t lim = n_of(d, 0) < N ? n_of(d, 0) : N;

    while (m->nres < lim && m->next < nctas)
        m->seq[m->nres++] = m->next++;
}

static void complete(struct model *m, uint32_t cta)
{
    uint32_t k = 0;

    for (uint32_t i = 0; i < m->nres; i++)
        if (m->seq[i] != cta)
            m->seq[k++] = m->seq[i];
    m->nres = k;
}

/* The paused CTAs as a bit mask of CTA numbers; checks oracles 22 and 23 on the way. */
static uint32_t paused(const struct model *m, const struct dyn *d)
{
    uint32_t run = d->ops->run_limit(d->st, 0), mask = 0;

    for (uint32_t i = run; i < m->nres; i++)
        mask |= 1u << m->seq[i];
    assert_int_equal(__builtin_popcount(mask), m->nres > run ? m->nres - run : 0);
    return mask;
}

enum { A = 1u << 0, B = 1u << 1, C = 1u << 2 };

static void test_dyncta_pause_order(void **state)
{
    struct dyn d = make("dyncta:init=3", 1); /* the paper's example: N = 4, n = 3 (§4.6) */
    struct model m = {{0}, 0, 0};

    (void)state;
    d.ops->on_kernel(d.st, 4);
    issue(&m, &d, 4, 100);
    assert_int_equal(m.nres, 3); /* A, B, C */
    assert_int_equal(paused(&m, &d), 0);
    period(&d, 0, 0, 500); /* oracle 16: C paused, none evicted, nothing issued */
    issue(&m, &d, 4, 100);
    assert_int_equal(m.nres, 3);
    assert_int_equal(paused(&m, &d), C);
    period(&d, 0, 0, 500); /* oracle 17: B and C paused, A alone runs */
    issue(&m, &d, 4, 100);
    assert_int_equal(paused(&m, &d), B | C);
    period(&d, 0, 20, 0); /* oracle 19: B runs again, no new CTA */
    issue(&m, &d, 4, 100);
    assert_int_equal(m.nres, 3);
    assert_int_equal(paused(&m, &d), C);
    period(&d, 0, 20, 0); /* all three equal */
    issue(&m, &d, 4, 100);
    assert_int_equal(m.nres, 3);
    assert_int_equal(paused(&m, &d), 0);
    period(&d, 0, 20, 0); /* oracle 20: no paused CTA, so one new CTA arrives, nCTA = n */
    issue(&m, &d, 4, 100);
    assert_int_equal(m.nres, 4);
    assert_int_equal(n_of(&d, 0), 4);
    assert_int_equal(paused(&m, &d), 0);
    pol_cta_sched_destroy(d.ops, d.st);
}

static void test_dyncta_completion_resumes(void **state)
{
    struct dyn d = make("dyncta:init=3", 1);
    struct model m = {{0}, 0, 0};

    (void)state;
    d.ops->on_kernel(d.st, 4);
    issue(&m, &d, 4, 100);
    period(&d, 0, 0, 500);
    period(&d, 0, 0, 500); /* n = 1: B and C paused */
    assert_int_equal(paused(&m, &d), B | C);
    complete(&m, 0); /* oracle 21: A ends, the oldest paused (B) runs at once */
    issue(&m, &d, 4, 100);
    assert_int_equal(m.nres, 2);
    assert_int_equal(paused(&m, &d), C);
    complete(&m, 1);
    issue(&m, &d, 4, 100); /* nCTA = n = 1: still nothing issued */
    assert_int_equal(m.nres, 1);
    assert_int_equal(paused(&m, &d), 0);
    complete(&m, 2); /* nCTA < n: the next CTA arrives */
    issue(&m, &d, 4, 100);
    assert_int_equal(m.nres, 1);
    assert_int_equal(m.seq[0], 3);
    pol_cta_sched_destroy(d.ops, d.st);
}

/* Round robin over 30 SMs as timing/gpu.c does; returns how many SMs hold exactly k. */
static uint32_t first_wave(const struct dyn *d, uint32_t N, uint32_t nctas, uint32_t *held,
                           uint32_t k)
{
    uint32_t next = 0, count = 0;
    int moved = 1;

    memset(held, 0, 30 * sizeof(*held));
    while (moved && next < nctas) {
        moved = 0;
        for (uint32_t sm = 0; sm < 30 && next < nctas; sm++) {
            uint32_t lim = d->ops->limit(d->st, sm) < N ? d->ops->limit(d->st, sm) : N;

            if (held[sm] < lim) {
                held[sm]++;
                next++;
                moved = 1;
            }
        }
    }
    for (uint32_t sm = 0; sm < 30; sm++)
        count += held[sm] == k;
    return count;
}

static void test_dyncta_first_wave(void **state)
{
    struct dyn d = make("dyncta", 30);
    struct dyn rr = make("rr", 30);
    uint32_t held[30];

    (void)state;
    d.ops->on_kernel(d.st, 8);
    rr.ops->on_kernel(rr.st, 8);
    assert_int_equal(first_wave(&d, 8, 1000, held, 4), 30); /* oracle 3: 120 CTAs, 4 each */
    assert_int_equal(first_wave(&d, 8, 100, held, 4), 10);  /* shares differ by at most 1 */
    assert_int_equal(first_wave(&d, 8, 100, held, 3), 20);
    assert_int_equal(first_wave(&d, 8, 64, held, 3), 4); /* oracle 4: LIB, 64 CTAs */
    assert_int_equal(first_wave(&d, 8, 64, held, 2), 26);
    assert_int_equal(first_wave(&rr, 8, 64, held, 3), 4);
    assert_int_equal(first_wave(&rr, 8, 64, held, 2), 26);
    pol_cta_sched_destroy(d.ops, d.st);
    pol_cta_sched_destroy(rr.ops, rr.st);
}

/* ------------------------------------------------------------------ the series of n */

static char *dump_text(const struct dyn *d, int *rc)
{
    static char buf[4096];
    struct ps_err err;
    FILE *f = tmpfile();
    size_t n;

    assert_non_null(f);
    ps_err_clear(&err);
    *rc = pol_cta_dyncta_dump(d->st, f, &err);
    rewind(f);
    n = fread(buf, 1, sizeof(buf) - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static void test_dyncta_trace(void **state)
{
    struct dyn d = make("dyncta", 2);
    struct dyn off = make("dyncta:trace=0", 2);
    int rc;

    (void)state;
    assert_string_equal(dump_text(&d, &rc), "kernel,cycle,sm,n\n");
    d.ops->on_kernel(d.st, 8);
    d.now = 100; /* the first period starts at cycle 100 */
    period(&d, 0, 20, 0);
    sample_at(&d, 1, 0, 200); /* no change: only SM 1's initial n */
    period(&d, 0, 0, 200);
    period(&d, 0, 0, 400);
    d.ops->on_kernel(d.st, 4);
    period(&d, 1, 0, 400);
    assert_string_equal(dump_text(&d, &rc), "kernel,cycle,sm,n\n"
                                            "0,100,0,4\n"
                                            "0,2148,0,5\n"
                                            "0,100,1,4\n"
                                            "0,6244,0,4\n"
                                            "1,6244,1,2\n"
                                            "1,8292,1,1\n");
    assert_int_equal(rc, 0);
    off.ops->on_kernel(off.st, 8);
    period(&off, 0, 20, 0);
    assert_int_equal(n_of(&off, 0), 5);
    assert_string_equal(dump_text(&off, &rc), "kernel,cycle,sm,n\n");
    pol_cta_sched_destroy(d.ops, d.st);
    pol_cta_sched_destroy(off.ops, off.st);
}

static void test_dyncta_trace_write_error(void **state)
{
    struct dyn d = make("dyncta", 1);
    struct ps_err err;
    FILE *f = fopen("/dev/null", "r"); /* writes fail */

    (void)state;
    assert_non_null(f);
    ps_err_clear(&err);
    assert_int_equal(pol_cta_dyncta_dump(d.st, f, &err), PS_EIO);
    assert_int_equal(err.code, PS_EIO);
    fclose(f);
    pol_cta_sched_destroy(d.ops, d.st);
}

/* ------------------------------------------------------------------ arguments and registry */

static void test_dyncta_bad_args(void **state)
{
    (void)state;
    expect_bad("dyncta:t_idel=4", "unknown key 't_idel'");
    expect_bad("dyncta:period=4096", "-ptxsim_sample_period");
    expect_bad("dyncta:4", "-ptxsim_cta_scheduler dyncta: '4': expected key=value (keys: t_idle,");
    expect_bad("dyncta:t_idle", "'t_idle': expected t_idle=value");
    expect_bad("dyncta:t_idle=", "t_idle=: expected a whole number from 0 to 4294967295");
    expect_bad("dyncta:t_idle=-1", "t_idle=-1: expected a whole number");
    expect_bad("dyncta:t_idle=1x", "t_idle=1x: expected a whole number");
    expect_bad("dyncta:t_mem_h=4294967296", "t_mem_h=4294967296: expected a whole number");
    expect_bad("dyncta:t_idle=4,t_idle=5", "t_idle given twice");
    expect_bad("dyncta:t_idle=4,", "empty field");
    expect_bad("dyncta:,t_idle=4", "empty field");
    expect_bad("dyncta:t_idle=4,,t_mem_l=5", "empty field");
    expect_bad("dyncta:t_mem_l=400", "t_mem_l=400 is above t_mem_h=384");
    expect_bad("dyncta:n_min=0", "n_min=0: expected a whole number from 1 to 4294967295");
    expect_bad("dyncta:n_min=4,n_max=3", "n_min=4 is above n_max=3");
    expect_bad("dyncta:init=0", "init=0: expected half|max or a whole number from 1 to 4294967294");
    expect_bad("dyncta:init=quarter", "init=quarter: expected half|max or a whole number");
    expect_bad("dyncta:trace=2", "trace=2: expected a whole number from 0 to 1");
    expect_bad(
        "dyncta:x=1",
        "unknown key 'x' (known: t_idle, t_mem_l, t_mem_h, init, n_min, n_max, trace)"); /* names
                                                                                            the keys
                                                                                          */
}

static void test_dyncta_registry(void **state)
{
    const char *args = NULL;
    struct ps_err err;
    const struct pol_cta_sched_ops *ops = pol_cta_sched_find("dyncta:t_idle=8", &args, &err);

    (void)state;
    assert_ptr_equal(ops, &pol_cta_dyncta);
    assert_string_equal(ops->name, "dyncta");
    assert_string_equal(args, "t_idle=8");
    assert_non_null(ops->on_sample);
    assert_non_null(ops->run_limit);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dyncta_decision_table),
        cmocka_unit_test(test_dyncta_decision_bounds),
        cmocka_unit_test(test_dyncta_overrides),
        cmocka_unit_test(test_dyncta_initial),
        cmocka_unit_test(test_dyncta_init_variants),
        cmocka_unit_test(test_dyncta_bounds),
        cmocka_unit_test(test_dyncta_steps_to_bounds),
        cmocka_unit_test(test_dyncta_only_at_samples),
        cmocka_unit_test(test_dyncta_counters_per_period),
        cmocka_unit_test(test_dyncta_independent_sms),
        cmocka_unit_test(test_dyncta_kernel_resets),
        cmocka_unit_test(test_dyncta_pause_order),
        cmocka_unit_test(test_dyncta_completion_resumes),
        cmocka_unit_test(test_dyncta_first_wave),
        cmocka_unit_test(test_dyncta_trace),
        cmocka_unit_test(test_dyncta_trace_write_error),
        cmocka_unit_test(test_dyncta_bad_args),
        cmocka_unit_test(test_dyncta_registry),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
