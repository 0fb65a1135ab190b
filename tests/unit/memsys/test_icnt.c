/*
 * Unit tests for memsys/icnt: flit counts, the latency of one packet
 * (flits + latency calls of mem_icnt_cycle from the push until it can be
 * popped), wormhole serialisation at a shared output, parallel outputs,
 * input and ejection buffer back-pressure, round-robin fairness, and staged
 * outputs popping what the unstaged network pops.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "memsys/icnt.h"

#define LAT 5

static struct mem_icnt *make(uint32_t in_buf_flits, uint32_t out_buf_pkts)
{
    struct mem_icnt_params p = {.nin = 4,
                                .nout = 4,
                                .flit_bytes = 40,
                                .latency = LAT,
                                .in_buf_flits = in_buf_flits,
                                .out_buf_pkts = out_buf_pkts};
    struct ps_err err;
    struct mem_icnt *n = mem_icnt_create(&p, &err);

    assert_non_null(n);
    return n;
}

static void push(struct mem_icnt *n, uint32_t src, uint32_t dst, uint64_t uid, uint32_t bytes)
{
    struct mem_req r;

    memset(&r, 0, sizeof(r));
    r.uid = uid;
    assert_true(mem_icnt_can_push(n, src, bytes));
    mem_icnt_push(n, src, dst, &r, bytes);
}

/* Cycles until output dst delivers (the packet goes to *out), or -1 after `limit`. */
static int cycles_to_pop(struct mem_icnt *n, uint32_t dst, struct mem_req *out, int limit)
{
    for (int k = 1; k <= limit; k++) {
        mem_icnt_cycle(n);
        if (mem_icnt_pop(n, dst, out))
            return k;
    }
    return -1;
}

static void run(struct mem_icnt *n, int cycles)
{
    for (int k = 0; k < cycles; k++)
        mem_icnt_cycle(n);
}

static void test_icnt_create_errors(void **state)
{
    struct mem_icnt_params p = {.nin = 4, .nout = 4, .flit_bytes = 0};
    struct ps_err err;

    (void)state;
    assert_null(mem_icnt_create(&p, &err));
    assert_int_equal(err.code, PS_EINVAL);
    p.flit_bytes = 40;
    p.nout = 0;
    assert_null(mem_icnt_create(&p, &err));
    assert_int_equal(err.code, PS_EINVAL);
}

static void test_icnt_flit_count(void **state)
{
    struct mem_icnt *n = make(0, 0);
    const uint32_t bytes[] = {136, 0, 1, 40, 41, 80};
    const uint64_t flits[] = {4, 1, 1, 1, 2, 2};
    struct mem_req out;

    (void)state;
    for (int k = 0; k < 6; k++) {
        uint64_t before = mem_icnt_get_stats(n)->flits;

        push(n, 0, 1, (uint64_t)k, bytes[k]);
        assert_true(cycles_to_pop(n, 1, &out, 100) > 0);
        assert_int_equal(mem_icnt_get_stats(n)->flits - before, flits[k]);
    }
    assert_int_equal(mem_icnt_get_stats(n)->bytes, 136 + 0 + 1 + 40 + 41 + 80);
    mem_icnt_destroy(n);
}

static void test_icnt_single_latency(void **state)
{
    struct mem_icnt *n = make(64, 8);
    struct mem_req out;

    (void)state;
    assert_false(mem_icnt_busy(n));
    push(n, 2, 3, 77, 136);
    assert_true(mem_icnt_busy(n));
    /* 4 flits cross in cycles 0..3, then LAT cycles: 4 + LAT calls. */
    assert_null(mem_icnt_peek(n, 3));
    assert_int_equal(cycles_to_pop(n, 3, &out, 100), 4 + LAT);
    assert_int_equal(out.uid, 77);
    assert_false(mem_icnt_busy(n));
    assert_int_equal(mem_icnt_get_stats(n)->latency_sum, 4 + LAT);
    assert_int_equal(mem_icnt_get_stats(n)->packets, 1);
    mem_icnt_destroy(n);
}

static void test_icnt_same_output_serialises(void **state)
{
    struct mem_icnt *n = make(64, 8);
    struct mem_req out;
    int a, b;

    (void)state;
    push(n, 0, 1, 10, 136);
    push(n, 1, 1, 11, 136);
    a = cycles_to_pop(n, 1, &out, 100);
    assert_int_equal(out.uid, 10); /* round robin starts at input 0 */
    b = a + cycles_to_pop(n, 1, &out, 100);
    assert_int_equal(out.uid, 11);
    /* Wormhole: input 1's flits follow input 0's tail, none interleave. */
    assert_int_equal(a, 4 + LAT);
    assert_int_equal(b, 8 + LAT);
    assert_int_equal(mem_icnt_get_stats(n)->out_conflict, 4);
    mem_icnt_destroy(n);
}

static void test_icnt_outputs_in_parallel(void **state)
{
    struct mem_icnt *n = make(64, 8);
    struct mem_req out;

    (void)state;
    push(n, 0, 1, 10, 136);
    push(n, 1, 2, 11, 136);
    assert_int_equal(cycles_to_pop(n, 1, &out, 100), 4 + LAT);
    assert_non_null(mem_icnt_peek(n, 2));
    assert_true(mem_icnt_pop(n, 2, &out));
    assert_int_equal(out.uid, 11);
    assert_int_equal(mem_icnt_get_stats(n)->out_conflict, 0);
    mem_icnt_destroy(n);
}

static void test_icnt_one_input_in_order(void **state)
{
    struct mem_icnt *n = make(64, 8);
    struct mem_req out;

    (void)state;
    /* An input sends one flit per cycle: its second packet, to another output, follows. */
    push(n, 0, 1, 10, 80);
    push(n, 0, 2, 11, 80);
    assert_int_equal(cycles_to_pop(n, 1, &out, 100), 2 + LAT);
    assert_int_equal(cycles_to_pop(n, 2, &out, 100), 2);
    mem_icnt_destroy(n);
}

static void test_icnt_ejection_backpressure(void **state)
{
    struct mem_icnt *n = make(64, 2);
    struct mem_req out;

    (void)state;
    for (uint32_t s = 0; s < 4; s++)
        push(n, s, 0, s, 8);
    run(n, 50);
    /* Only two packets fit the ejection buffer; the others wait at their inputs. */
    assert_int_equal(mem_icnt_get_stats(n)->packets, 2);
    assert_true(mem_icnt_pop(n, 0, &out));
    assert_true(mem_icnt_pop(n, 0, &out));
    assert_false(mem_icnt_pop(n, 0, &out));
    assert_true(mem_icnt_busy(n));
    /* A freed slot lets the next head flit in: it arrives 1 + LAT cycles later. */
    assert_int_equal(cycles_to_pop(n, 0, &out, 100), 1 + LAT);
    assert_int_equal(cycles_to_pop(n, 0, &out, 100), 1);
    assert_false(mem_icnt_busy(n));
    mem_icnt_destroy(n);
}

static void test_icnt_input_buffer_full(void **state)
{
    struct mem_icnt *n = make(8, 8);
    struct mem_req out;

    (void)state;
    push(n, 0, 1, 1, 136);
    push(n, 0, 1, 2, 136);
    assert_false(mem_icnt_can_push(n, 0, 136));
    assert_false(mem_icnt_can_push(n, 0, 40));
    assert_int_equal(mem_icnt_get_stats(n)->in_stall, 2);
    assert_true(mem_icnt_can_push(n, 1, 136)); /* other inputs are not affected */
    mem_icnt_cycle(n);
    assert_true(mem_icnt_can_push(n, 0, 40)); /* one flit left the buffer */
    assert_false(mem_icnt_can_push(n, 0, 80));
    assert_int_equal(cycles_to_pop(n, 1, &out, 100), 3 + LAT);
    mem_icnt_destroy(n);
    /* A packet larger than the whole buffer still enters an empty one. */
    n = make(2, 8);
    push(n, 0, 1, 1, 136);
    assert_false(mem_icnt_can_push(n, 0, 8));
    assert_int_equal(cycles_to_pop(n, 1, &out, 100), 4 + LAT);
    mem_icnt_destroy(n);
}

static void test_icnt_round_robin(void **state)
{
    struct mem_icnt *n = make(0, 0);
    struct mem_req out;
    uint32_t next[3] = {0}, last = 2, got = 0;

    (void)state;
    for (uint32_t k = 0; k < 20; k++) {
        for (uint32_t s = 0; s < 3; s++)
            push(n, s, 0, s * 100 + k, 8);
    }
    /* One single-flit packet crosses per cycle; 60 packets after 60 + LAT cycles. */
    run(n, 60 + LAT);
    while (mem_icnt_pop(n, 0, &out)) {
        uint32_t s = (uint32_t)out.uid / 100;

        assert_int_equal(s, (last + 1) % 3);        /* strict rotation over the inputs */
        assert_int_equal(out.uid % 100, next[s]++); /* each input in its own order */
        last = s;
        got++;
    }
    assert_int_equal(got, 60);
    assert_int_equal(mem_icnt_get_stats(n)->out_conflict, 2 * 60 - 3);
    mem_icnt_destroy(n);
}

/* Pushes single-flit packets from srcs[] to output 0 and checks they come out as want[]. */
static void expect_order(struct mem_icnt *n, const uint32_t *srcs, const uint32_t *want, int cnt)
{
    struct mem_req out;

    for (int k = 0; k < cnt; k++)
        push(n, srcs[k], 0, srcs[k], 8);
    run(n, cnt + LAT);
    for (int k = 0; k < cnt; k++) {
        assert_true(mem_icnt_pop(n, 0, &out));
        assert_int_equal(out.uid, want[k]);
    }
    assert_false(mem_icnt_busy(n));
}

/* A popper or producer decision, the same in both runs of the staged test. */
static uint32_t mix(uint64_t a, uint64_t b)
{
    uint64_t x = a * 0x9E3779B97F4A7C15ull ^ (b + 0x632BE59BD9B4E019ull);

    x ^= x >> 31;
    x *= 0xBF58476D1CE4E5B9ull;
    return (uint32_t)(x ^ x >> 29);
}

struct pop_log {
    uint64_t at[16384];
    uint32_t n;
};

/* The producer's pushes after interconnect edge e (as the L2s push after the network's tick). */
static void produce(struct mem_icnt *n, uint64_t e, uint64_t *uid)
{
    for (uint32_t src = 0; src < 4; src++) {
        uint32_t h = mix(e, src);
        uint32_t bytes = 8 + h % 4 * 40;

        if (h % 3 == 0 && mem_icnt_can_push(n, src, bytes)) {
            struct mem_req r;

            memset(&r, 0, sizeof(r));
            r.uid = ++*uid;
            mem_icnt_push(n, src, h / 7 % 4, &r, bytes);
        }
    }
}

/* Popper cycles k: output dst pops at most one packet, when it wants one. */
static bool wants(uint64_t k, uint32_t dst)
{
    return mix(k, 100 + dst) % 4 != 0;
}

static void record(struct pop_log *log, uint64_t k, uint32_t dst, const struct mem_req *r)
{
    assert_true(log->n < 16384);
    log->at[log->n++] = k << 40 | (uint64_t)dst << 32 | r->uid;
}

/* The staged test's network: small buffers, so that back-pressure plays a part. */
static struct mem_icnt *make_busy(uint32_t lat)
{
    struct mem_icnt_params p = {.nin = 4,
                                .nout = 4,
                                .flit_bytes = 40,
                                .latency = lat,
                                .in_buf_flits = 8,
                                .out_buf_pkts = 2};
    struct ps_err err;

    return mem_icnt_create(&p, &err);
}

/* edges interconnect edges per popper cycle; the reference: every edge runs at once. */
static void run_unstaged(uint32_t lat, uint32_t edges, struct pop_log *log,
                         struct mem_icnt_stats *st)
{
    struct mem_icnt *n = make_busy(lat);
    uint64_t uid = 0, e = 0;
    struct mem_req r;

    assert_non_null(n);
    for (uint64_t k = 1; k <= 3000; k++) {
        for (uint32_t dst = 0; dst < 4; dst++)
            if (wants(k, dst) && mem_icnt_pop(n, dst, &r))
                record(log, k, dst, &r);
        for (uint32_t i = 0; i < edges; i++, e++) {
            mem_icnt_cycle(n);
            produce(n, e, &uid);
        }
    }
    *st = *mem_icnt_get_stats(n);
    mem_icnt_destroy(n);
}

/*
 * The staged protocol (icnt.h) with the edges of each popper cycle run as
 * late as allowed: after the next popper cycle's pops and their publishing,
 * counting the pops of the cycle before (concurrent).
 */
static void run_staged(uint32_t lat, uint32_t edges, struct pop_log *log, struct mem_icnt_stats *st)
{
    struct mem_icnt *n = make_busy(lat);
    uint64_t uid = 0, e = 0, due = 0;
    struct mem_req r;

    assert_non_null(n);
    assert_true(mem_icnt_stage(n));
    for (uint64_t k = 1; k <= 3000; k++) {
        mem_icnt_set_phase(n, k);
        for (uint32_t dst = 0; dst < 4; dst++) {
            mem_icnt_drain(n, dst);
            if (wants(k, dst) && mem_icnt_pop(n, dst, &r))
                record(log, k, dst, &r);
            mem_icnt_publish_pops(n, dst);
        }
        mem_icnt_set_concurrent(n, true);
        for (; due; due--, e++) { /* "beside" the poppers: after their pops */
            mem_icnt_cycle(n);
            produce(n, e, &uid);
        }
        mem_icnt_set_concurrent(n, false);
        for (uint32_t i = 0; i < edges; i++, due++)
            mem_icnt_advance(n);
    }
    for (; due; due--, e++) { /* the last popper cycle's edges */
        mem_icnt_cycle(n);
        produce(n, e, &uid);
    }
    *st = *mem_icnt_get_stats(n);
    mem_icnt_destroy(n);
}

static void test_icnt_staged_matches_unstaged(void **state)
{
    static struct pop_log a, b;
    struct mem_icnt_stats sa, sb;
    static const uint32_t cases[][2] = {{1, 1}, {LAT, 1}, {2, 2}, {3, 2}};

    (void)state;
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        a.n = b.n = 0;
        run_unstaged(cases[c][0], cases[c][1], &a, &sa);
        run_staged(cases[c][0], cases[c][1], &b, &sb);
        assert_true(a.n > 1000); /* the outputs were busy, and the ejection buffers full at times */
        assert_int_equal(a.n, b.n);
        assert_memory_equal(a.at, b.at, a.n * sizeof(a.at[0]));
        assert_memory_equal(&sa, &sb, sizeof(sa));
    }
}

static void test_icnt_stage_needs_latency(void **state)
{
    struct mem_icnt_params p = {.nin = 2, .nout = 2, .flit_bytes = 32, .latency = 0};
    struct ps_err err;
    struct mem_icnt *n = mem_icnt_create(&p, &err);

    (void)state;
    assert_non_null(n);
    assert_false(mem_icnt_stage(n)); /* a packet could be due in the cycle it arrives */
    mem_icnt_destroy(n);
}

static void test_icnt_round_robin_many_inputs(void **state)
{
    struct mem_icnt_params p = {.nin = 130, .nout = 2, .flit_bytes = 40, .latency = LAT};
    struct ps_err err;
    struct mem_icnt *n = mem_icnt_create(&p, &err);

    (void)state;
    assert_non_null(n);
    /* Inputs span three 64-bit words of the request bitset. */
    expect_order(n, (const uint32_t[]){129, 64, 63, 0, 1}, (const uint32_t[]){0, 1, 63, 64, 129},
                 5);
    /* The pointer wrapped to 0 after input 129. */
    expect_order(n, (const uint32_t[]){100, 5}, (const uint32_t[]){5, 100}, 2);
    /* Now it starts at 101: 101 first, then around to 2. */
    expect_order(n, (const uint32_t[]){2, 101}, (const uint32_t[]){101, 2}, 2);
    mem_icnt_destroy(n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_icnt_create_errors),
        cmocka_unit_test(test_icnt_flit_count),
        cmocka_unit_test(test_icnt_single_latency),
        cmocka_unit_test(test_icnt_same_output_serialises),
        cmocka_unit_test(test_icnt_outputs_in_parallel),
        cmocka_unit_test(test_icnt_one_input_in_order),
        cmocka_unit_test(test_icnt_ejection_backpressure),
        cmocka_unit_test(test_icnt_input_buffer_full),
        cmocka_unit_test(test_icnt_round_robin),
        cmocka_unit_test(test_icnt_round_robin_many_inputs),
        cmocka_unit_test(test_icnt_staged_matches_unstaged),
        cmocka_unit_test(test_icnt_stage_needs_latency),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
