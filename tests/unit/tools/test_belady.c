/*
 * Unit tests for the trace-driven Belady and LRU L1D models (tools/belady.c):
 * hand-made traces (seed 004 oracle 28), Belady against an exhaustive search
 * over every eviction choice on small traces and against a quadratic
 * textbook Belady on larger ones, Belady never above LRU (oracle 29), and
 * write-evict, flushes and errors.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/err.h"
#include "tools/belady.h"

#define W(line) ((line) | BELADY_WRITE)
#define F BELADY_FLUSH

static struct belady_result bel(const uint64_t *t, size_t n, uint32_t nsets, uint32_t assoc)
{
    struct belady_geom g = {.nsets = nsets, .assoc = assoc};
    struct belady_result r;
    struct ps_err err;

    ps_err_clear(&err);
    if (belady_misses(t, n, &g, &r, &err) < 0)
        fail_msg("belady: %s", err.msg);
    return r;
}

static struct belady_result lru(const uint64_t *t, size_t n, uint32_t nsets, uint32_t assoc)
{
    struct belady_geom g = {.nsets = nsets, .assoc = assoc};
    struct belady_result r;
    struct ps_err err;

    ps_err_clear(&err);
    if (belady_lru_misses(t, n, &g, &r, &err) < 0)
        fail_msg("lru: %s", err.msg);
    return r;
}

/* ---- exhaustive optimum: every choice of victim on every miss in a full set ---- */

#define BF_MAXSLOTS 8

struct bf {
    const uint64_t *t;
    size_t n;
    uint32_t nsets, assoc;
};

/* cache[s * assoc + w], UINT64_MAX = empty */
static uint64_t bf_min(const struct bf *b, size_t i, const uint64_t *cache)
{
    uint64_t c[BF_MAXSLOTS], best = UINT64_MAX;
    uint64_t e, line;
    uint32_t s, free_w = UINT32_MAX;

    if (i == b->n)
        return 0;
    memcpy(c, cache, sizeof(c));
    e = b->t[i];
    if (e == F) {
        memset(c, 0xff, sizeof(c));
        return bf_min(b, i + 1, c);
    }
    line = e & ~BELADY_WRITE;
    s = (uint32_t)(line % b->nsets);
    for (uint32_t w = 0; w < b->assoc; w++) {
        uint64_t *x = &c[s * b->assoc + w];

        if (*x == line) {
            if (e & BELADY_WRITE)
                *x = UINT64_MAX;
            return bf_min(b, i + 1, c); /* a hit, or a store that evicts */
        }
        if (*x == UINT64_MAX && free_w == UINT32_MAX)
            free_w = w;
    }
    if (e & BELADY_WRITE)
        return bf_min(b, i + 1, c);
    if (free_w != UINT32_MAX) {
        c[s * b->assoc + free_w] = line;
        return 1 + bf_min(b, i + 1, c);
    }
    for (uint32_t w = 0; w < b->assoc; w++) {
        uint64_t old = c[s * b->assoc + w], m;

        c[s * b->assoc + w] = line;
        m = 1 + bf_min(b, i + 1, c);
        best = m < best ? m : best;
        c[s * b->assoc + w] = old;
    }
    return best;
}

static uint64_t brute_force(const uint64_t *t, size_t n, uint32_t nsets, uint32_t assoc)
{
    struct bf b = {t, n, nsets, assoc};
    uint64_t c[BF_MAXSLOTS];

    assert_true(nsets * assoc <= BF_MAXSLOTS);
    memset(c, 0xff, sizeof(c));
    return bf_min(&b, 0, c);
}

/* ---- textbook Belady: scan forward for each resident line's next read ---- */

static size_t next_read(const uint64_t *t, size_t n, size_t i, uint64_t line)
{
    for (size_t j = i + 1; j < n; j++) {
        if (t[j] == F || t[j] == W(line))
            return SIZE_MAX;
        if (t[j] == line)
            return j;
    }
    return SIZE_MAX;
}

static uint64_t quadratic(const uint64_t *t, size_t n, uint32_t nsets, uint32_t assoc)
{
    uint64_t *c = malloc((size_t)nsets * assoc * sizeof(*c)), misses = 0;

    memset(c, 0xff, (size_t)nsets * assoc * sizeof(*c));
    for (size_t i = 0; i < n; i++) {
        uint64_t line = t[i] & ~BELADY_WRITE, *set = c + (line % nsets) * assoc;
        uint32_t w, victim = 0;
        size_t far = 0;

        if (t[i] == F) {
            memset(c, 0xff, (size_t)nsets * assoc * sizeof(*c));
            continue;
        }
        for (w = 0; w < assoc && set[w] != line; w++)
            ;
        if (w < assoc) {
            if (t[i] & BELADY_WRITE)
                set[w] = UINT64_MAX;
            continue;
        }
        if (t[i] & BELADY_WRITE)
            continue;
        misses++;
        for (w = 0; w < assoc; w++) {
            size_t nx = set[w] == UINT64_MAX ? SIZE_MAX : next_read(t, n, i, set[w]);

            if (nx >= far) {
                far = nx;
                victim = w;
            }
            if (set[w] == UINT64_MAX)
                break;
        }
        set[victim] = line;
    }
    free(c);
    return misses;
}

static void random_trace(uint64_t *t, size_t n, uint32_t nlines, uint32_t *rng, bool wf)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t r;

        *rng = *rng * 1103515245u + 12345u;
        r = *rng >> 8;
        t[i] = r % nlines;
        if (wf && (r >> 12) % 10 == 0)
            t[i] = W(t[i]);
        else if (wf && (r >> 12) % 29 == 1)
            t[i] = F;
    }
}

/* ---- tests ---- */

static void test_belady_oracle28(void **state)
{
    const uint64_t t[] = {'A', 'B', 'C', 'A', 'B'};
    struct belady_result b = bel(t, 5, 1, 2), l = lru(t, 5, 1, 2);

    (void)state;
    assert_int_equal(b.misses, 4); /* C evicts B, read later than A */
    assert_int_equal(b.hits, 1);
    assert_int_equal(b.reads, 5);
    assert_int_equal(l.misses, 5);
}

static void test_belady_hand_traces(void **state)
{
    /* 2 sets (even/odd lines), 1 way: sets do not interfere. */
    const uint64_t a[] = {0, 1, 0, 1, 2, 0, 3, 1};
    /* Dead lines go first: 9 is never read again, so 1 and 2 stay. */
    const uint64_t b[] = {1, 2, 9, 3, 1, 2};
    /* write-evict and flush */
    const uint64_t c[] = {5, 5, W(5), 5, W(7), F, 5, 5};
    struct belady_result r;

    (void)state;
    r = bel(a, 8, 2, 1);
    assert_int_equal(r.misses, 6); /* 0 1 hit hit 2 0 3 1: 2 and 0 conflict, 3 and 1 too */
    assert_int_equal(lru(a, 8, 2, 1).misses, 6);
    r = bel(b, 6, 1, 3);
    assert_int_equal(r.misses, 4);
    assert_int_equal(lru(b, 6, 1, 3).misses, 6);
    r = bel(c, 8, 4, 2);
    assert_int_equal(r.reads, 5);
    assert_int_equal(r.misses, 3);
    assert_int_equal(r.hits, 2);
    assert_int_equal(r.writes, 2);
    assert_int_equal(r.write_evicts, 1);
    assert_int_equal(r.flushes, 1);
    r = lru(c, 8, 4, 2);
    assert_int_equal(r.misses, 3);
    assert_int_equal(r.write_evicts, 1);
}

static void test_belady_brute_force(void **state)
{
    static const uint32_t geom[][2] = {{1, 1}, {1, 2}, {1, 3}, {2, 2}, {2, 1}, {1, 4}};
    uint32_t rng = 1;
    uint64_t t[13];

    (void)state;
    for (int round = 0; round < 600; round++) {
        const uint32_t *g = geom[round % 6];
        size_t n = 6 + (size_t)(round % 8);
        bool wf = round % 3 == 0;
        uint64_t want;

        random_trace(t, n, 3 + (uint32_t)(round % 4), &rng, wf);
        want = brute_force(t, n, g[0], g[1]);
        if (bel(t, n, g[0], g[1]).misses != want)
            fail_msg("round %d: belady %llu, optimum %llu", round,
                     (unsigned long long)bel(t, n, g[0], g[1]).misses, (unsigned long long)want);
        assert_true(want <= lru(t, n, g[0], g[1]).misses);
    }
}

static void test_belady_oracle29_vs_lru_and_quadratic(void **state)
{
    enum { N = 4000 };
    static const uint32_t geom[][3] = {{1, 8, 20}, {4, 2, 30}, {32, 8, 600}, {8, 4, 200}};
    uint64_t *t = malloc(N * sizeof(*t));
    uint32_t rng = 5;

    (void)state;
    for (int round = 0; round < 16; round++) {
        const uint32_t *g = geom[round % 4];
        struct belady_result b, l;

        random_trace(t, N, g[2], &rng, round % 2 == 1);
        b = bel(t, N, g[0], g[1]);
        l = lru(t, N, g[0], g[1]);
        assert_int_equal(b.misses, quadratic(t, N, g[0], g[1]));
        assert_true(b.misses <= l.misses); /* oracle 29 */
        assert_int_equal(b.reads, l.reads);
        assert_int_equal(b.hits + b.misses, b.reads);
    }
    free(t);
}

static uint32_t xor_sets(uint64_t line, void *ctx)
{
    uint32_t nsets = *(const uint32_t *)ctx;

    return (uint32_t)((line ^ (line >> 5)) % nsets);
}

static uint32_t bad_set(uint64_t line, void *ctx)
{
    (void)ctx;
    return (uint32_t)line;
}

static void test_belady_set_function_and_errors(void **state)
{
    uint32_t nsets = 4;
    struct belady_geom g = {.nsets = 4, .assoc = 2, .set_of = xor_sets, .ctx = &nsets};
    const uint64_t t[] = {0, 32, 64, 0, 32, 64, 1, 0};
    struct belady_result r;
    struct ps_err err;

    (void)state;
    ps_err_clear(&err);
    /* 0 -> set 0, 32 -> set 1, 64 -> set 2: no conflicts under the xor index */
    assert_int_equal(belady_misses(t, 8, &g, &r, &err), 0);
    assert_int_equal(r.misses, 4);
    assert_int_equal(belady_lru_misses(t, 8, &g, &r, &err), 0);
    assert_int_equal(r.misses, 4);
    g.set_of = bad_set;
    assert_int_equal(belady_misses(t, 8, &g, &r, &err), PS_EINVAL);
    assert_non_null(strstr(err.msg, "is not below 4 sets"));
    assert_int_equal(belady_lru_misses(t, 8, &g, &r, &err), PS_EINVAL);
    g.set_of = NULL;
    g.nsets = 0;
    assert_int_equal(belady_misses(t, 8, &g, &r, &err), PS_EINVAL);
    assert_non_null(strstr(err.msg, "is not a cache"));
    assert_int_equal(belady_lru_misses(t, 8, &g, &r, &err), PS_EINVAL);
    g.nsets = 4;
    assert_int_equal(belady_misses(t, 0, &g, &r, &err), 0); /* empty trace */
    assert_int_equal(r.reads, 0);
}

static void test_belady_large_trace(void **state)
{
    enum { N = 2000000 };
    uint64_t *t = malloc(N * sizeof(*t));
    uint32_t rng = 11;
    struct belady_result b, l;

    (void)state;
    assert_non_null(t);
    for (size_t i = 0; i < N; i++) { /* streams with reuse, as per-thread walks make */
        rng = rng * 1103515245u + 12345u;
        t[i] = (i / 64) % 5000 + ((rng >> 10) % 4 == 0 ? (rng >> 12) % 100000 : 0);
    }
    b = bel(t, N, 32, 8);
    l = lru(t, N, 32, 8);
    assert_true(b.misses <= l.misses);
    assert_int_equal(b.reads, N);
    free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_belady_oracle28),
        cmocka_unit_test(test_belady_hand_traces),
        cmocka_unit_test(test_belady_brute_force),
        cmocka_unit_test(test_belady_oracle29_vs_lru_and_quadratic),
        cmocka_unit_test(test_belady_set_function_and_errors),
        cmocka_unit_test(test_belady_large_trace),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
