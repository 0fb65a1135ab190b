/*
 * Unit tests for memsys/dram: the timing-string parser and one GTX 480
 * GDDR5 channel (RCD=12 CL=12 RP=12 RAS=28 WL=4 CDLR=5 CCD=2 CCDL=3, 2 x
 * 32-bit chips, burst 8 at 4 beats per command cycle: a 64-byte burst holds
 * the data bus 2 command cycles).
 *
 * Latency here is counted in mem_dram_cycle calls from the push (made
 * before the call for that cycle) until mem_dram_pop returns the request.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "memsys/dram.h"

#define GTX480_TIMING                                                                              \
    "nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:WR=12:nbkgrp=4:CCDL=3:RTPL=2"

/* Command cycles one 64-byte burst holds the data bus: burst length 8 / ratio 4. */
#define BURST 2

static void gtx480(struct mem_dram_params *p, uint32_t sched)
{
    struct ps_err err;

    memset(p, 0, sizeof(*p));
    assert_int_equal(mem_dram_timing_parse(GTX480_TIMING, &p->t, &err), 0);
    p->scheduler = sched;
    p->queue_size = 64;
    p->return_queue = 116;
    p->burst_length = 8;
    p->bus_width = 4;
    p->chips = 2;
    p->data_cmd_ratio = 4;
    p->bnkgrp_indexing = 1;
}

static struct mem_dram *make(const struct mem_dram_params *p)
{
    struct ps_err err;
    struct mem_dram *d = mem_dram_create(p, 0, &err);

    assert_non_null(d);
    return d;
}

static struct mem_req req(uint64_t uid, uint8_t type, uint32_t bank, uint32_t row, uint32_t bytes)
{
    struct mem_req r;

    memset(&r, 0, sizeof(r));
    r.uid = uid;
    r.type = type;
    r.bank = bank;
    r.row = row;
    r.bytes = bytes;
    return r;
}

/* Cycles until the next request pops (it goes to *out), or -1 after `limit`. */
static int cycles_to_pop(struct mem_dram *d, struct mem_req *out, int limit)
{
    for (int n = 1; n <= limit; n++) {
        mem_dram_cycle(d);
        if (mem_dram_pop(d, out))
            return n;
    }
    return -1;
}

/* Pushes r and returns its latency, the channel otherwise idle. */
static int latency_of(struct mem_dram *d, struct mem_req r)
{
    struct mem_req out;
    int n;

    mem_dram_push(d, &r);
    n = cycles_to_pop(d, &out, 1000);
    assert_true(out.uid == r.uid);
    return n;
}

static void idle(struct mem_dram *d, int n)
{
    for (int k = 0; k < n; k++)
        mem_dram_cycle(d);
}

static void test_dram_timing_parse(void **state)
{
    struct mem_dram_timing t;
    struct ps_err err;

    (void)state;
    assert_int_equal(mem_dram_timing_parse(GTX480_TIMING, &t, &err), 0);
    assert_int_equal(t.nbk, 16);
    assert_int_equal(t.CCD, 2);
    assert_int_equal(t.RRD, 6);
    assert_int_equal(t.RCD, 12);
    assert_int_equal(t.RAS, 28);
    assert_int_equal(t.RP, 12);
    assert_int_equal(t.RC, 40);
    assert_int_equal(t.CL, 12);
    assert_int_equal(t.WL, 4);
    assert_int_equal(t.CDLR, 5);
    assert_int_equal(t.WR, 12);
    assert_int_equal(t.nbkgrp, 4);
    assert_int_equal(t.CCDL, 3);
    assert_int_equal(t.RTPL, 2);
    /* Blanks as in shipped configs; missing keys are 0 but nbkgrp is 1; a trailing ':'. */
    assert_int_equal(mem_dram_timing_parse("nbk=8:RC=40: CL = 7 :", &t, &err), 0);
    assert_int_equal(t.nbk, 8);
    assert_int_equal(t.CL, 7);
    assert_int_equal(t.RC, 40);
    assert_int_equal(t.RCD, 0);
    assert_int_equal(t.nbkgrp, 1);
}

static void expect_parse_error(const char *s, const char *needle)
{
    struct mem_dram_timing t;
    struct ps_err err;

    ps_err_clear(&err);
    assert_int_equal(mem_dram_timing_parse(s, &t, &err), PS_EINVAL);
    assert_int_equal(err.code, PS_EINVAL);
    if (!strstr(err.msg, needle))
        fail_msg("'%s' not in '%s'", needle, err.msg);
}

static void test_dram_timing_errors(void **state)
{
    (void)state;
    expect_parse_error("nbk=16:tCL=12", "'tCL'");
    expect_parse_error("nbk=16:CL=1x", "'CL'");
    expect_parse_error("nbk=16:CL=", "'CL'");
    expect_parse_error("nbk=16:CL", "'CL'");
    expect_parse_error("nbk=16:RP=-1", "'RP'");
    expect_parse_error("nbk=16:RP=99999999999", "'RP'");
    expect_parse_error("CL=12", "nbk");
    expect_parse_error("nbk=0", "nbk");
    expect_parse_error("nbk=16:nbkgrp=3", "nbkgrp");
    expect_parse_error(NULL, "DRAM timing");
}

static void test_dram_create_errors(void **state)
{
    struct mem_dram_params p;
    struct ps_err err;

    (void)state;
    gtx480(&p, 1);
    p.burst_length = 0;
    assert_null(mem_dram_create(&p, 0, &err));
    assert_int_equal(err.code, PS_EINVAL);
    gtx480(&p, 2);
    assert_null(mem_dram_create(&p, 0, &err));
    assert_int_equal(err.code, PS_EINVAL);
    gtx480(&p, 1);
    p.t.nbkgrp = 5;
    assert_null(mem_dram_create(&p, 0, &err));
    assert_int_equal(err.code, PS_EINVAL);
}

static void test_dram_single_read_latency(void **state)
{
    struct mem_dram_params p;
    struct mem_dram *d;
    const struct mem_dram_stats *st;

    (void)state;
    gtx480(&p, 1);
    d = make(&p);
    assert_false(mem_dram_busy(d));
    /*
     * Idle bank: ACT in the push's own cycle (0), RD at RCD (12), data on
     * the bus CL later (24, 25): popped after RCD + CL + BURST = 26 calls.
     */
    assert_int_equal(latency_of(d, req(1, MEM_READ, 3, 7, 64)), 12 + 12 + BURST);
    assert_false(mem_dram_busy(d));
    st = mem_dram_get_stats(d);
    assert_int_equal(st->reads, 1);
    assert_int_equal(st->read_bytes, 64);
    assert_int_equal(st->activates, 1);
    assert_int_equal(st->row_misses, 1);
    assert_int_equal(st->row_hits, 0);
    assert_int_equal(st->data_busy, BURST);
    assert_int_equal(st->latency_sum, 26);
    assert_int_equal(st->cycles, 26);
    mem_dram_destroy(d);
}

static void test_dram_multi_burst(void **state)
{
    struct mem_dram_params p;
    struct mem_dram *d;

    (void)state;
    gtx480(&p, 1);
    d = make(&p);
    /* 128 bytes = 2 bursts to one bank (one bank group): RD at 12 and 12 + CCDL. */
    assert_int_equal(latency_of(d, req(1, MEM_READ, 0, 0, 128)), 12 + 3 + 12 + BURST);
    assert_int_equal(mem_dram_get_stats(d)->data_busy, 2 * BURST);
    /* 32 bytes still take a whole burst. */
    assert_int_equal(latency_of(d, req(2, MEM_READ, 0, 0, 32)), 12 + BURST);
    mem_dram_destroy(d);
}

static void test_dram_row_hit_faster(void **state)
{
    struct mem_dram_params p;
    struct mem_dram *d;
    int hit, miss;

    (void)state;
    gtx480(&p, 1);
    d = make(&p);
    latency_of(d, req(1, MEM_READ, 5, 1, 64)); /* opens row 1 */
    hit = latency_of(d, req(2, MEM_READ, 5, 1, 64));
    /* Row conflict: PRE (RAS long past), ACT after RP, RD after RCD, then CL + burst. */
    miss = latency_of(d, req(3, MEM_READ, 5, 2, 64));
    assert_int_equal(hit, 12 + BURST);
    assert_int_equal(miss, 12 + 12 + 12 + BURST);
    assert_true(hit < miss);
    assert_int_equal(mem_dram_get_stats(d)->row_hits, 1);
    assert_int_equal(mem_dram_get_stats(d)->row_misses, 2);
    assert_int_equal(mem_dram_get_stats(d)->precharges, 1);
    mem_dram_destroy(d);
}

/* Opens row 1 of bank 0, then queues B (row 2, older) and C (row 1); returns the first uid out. */
static uint64_t first_of_miss_then_hit(uint32_t sched)
{
    struct mem_dram_params p;
    struct mem_dram *d;
    struct mem_req b = req(2, MEM_READ, 0, 2, 64), c = req(3, MEM_READ, 0, 1, 64), out;
    uint64_t first;

    gtx480(&p, sched);
    d = make(&p);
    latency_of(d, req(1, MEM_READ, 0, 1, 64));
    idle(d, 50);
    mem_dram_push(d, &b);
    mem_dram_push(d, &c);
    assert_true(cycles_to_pop(d, &out, 1000) > 0);
    first = out.uid;
    assert_true(cycles_to_pop(d, &out, 1000) >= 0);
    assert_true(out.uid != first);
    mem_dram_destroy(d);
    return first;
}

static void test_dram_frfcfs_reorders(void **state)
{
    (void)state;
    assert_int_equal(first_of_miss_then_hit(1), 3); /* FR-FCFS: the row hit overtakes */
    assert_int_equal(first_of_miss_then_hit(0), 2); /* FIFO: arrival order */
}

static void test_dram_streaming_bandwidth(void **state)
{
    struct mem_dram_params p;
    struct mem_dram *d;
    const struct mem_dram_stats *st;
    struct mem_req out;
    uint32_t pushed = 0, popped = 0;
    double share;

    (void)state;
    gtx480(&p, 1);
    d = make(&p);
    /* Sequential 64-byte reads: 4 per 256-byte chunk, chunks round robin over the 16 banks. */
    while (popped < 1000) {
        while (pushed < 1000 && !mem_dram_full(d)) {
            struct mem_req r = req(pushed, MEM_READ, (pushed / 4) % 16, pushed / 256, 64);

            mem_dram_push(d, &r);
            pushed++;
        }
        mem_dram_cycle(d);
        while (mem_dram_pop(d, &out))
            popped++;
        assert_true(mem_dram_get_stats(d)->cycles < 100000);
    }
    st = mem_dram_get_stats(d);
    share = (double)st->data_busy / (double)st->cycles;
    print_message("streaming: %llu cycles, data bus busy %.1f%%\n", (unsigned long long)st->cycles,
                  100.0 * share);
    assert_int_equal(st->data_busy, 1000 * BURST);
    assert_true(share >= 0.85);
    mem_dram_destroy(d);
}

/* Opens the rows of banks a and b, then reads both at once; returns the second latency. */
static int second_of_two_reads(uint32_t bnkgrp_indexing, uint32_t a, uint32_t b)
{
    struct mem_dram_params p;
    struct mem_dram *d;
    struct mem_req ra = req(1, MEM_READ, a, 0, 64), rb = req(2, MEM_READ, b, 0, 64), out;
    int n;

    gtx480(&p, 1);
    p.bnkgrp_indexing = bnkgrp_indexing;
    d = make(&p);
    latency_of(d, ra);
    latency_of(d, rb);
    idle(d, 50);
    mem_dram_push(d, &ra);
    mem_dram_push(d, &rb);
    assert_int_equal(cycles_to_pop(d, &out, 100), 12 + BURST);
    n = cycles_to_pop(d, &out, 100);
    assert_int_equal(out.uid, 2);
    mem_dram_destroy(d);
    return 12 + BURST + n;
}

static void test_dram_bank_groups(void **state)
{
    (void)state;
    /* Low-bit groups: banks 0 and 4 share group 0 (CCDL=3), banks 0 and 1 do not (CCD=2). */
    assert_int_equal(second_of_two_reads(1, 0, 4), 3 + 12 + BURST);
    assert_int_equal(second_of_two_reads(1, 0, 1), 2 + 12 + BURST);
    /* High-bit groups: banks 0 and 1 share group 0, banks 0 and 4 do not. */
    assert_int_equal(second_of_two_reads(0, 0, 1), 3 + 12 + BURST);
    assert_int_equal(second_of_two_reads(0, 0, 4), 2 + 12 + BURST);
}

static void test_dram_write_read_turnaround(void **state)
{
    struct mem_dram_params p;
    struct mem_dram *d;
    struct mem_req w = req(1, MEM_WRITE, 0, 0, 64), r = req(2, MEM_READ, 1, 0, 64), out;
    int n;

    (void)state;
    gtx480(&p, 1);
    d = make(&p);
    latency_of(d, req(9, MEM_READ, 0, 0, 64));
    latency_of(d, req(9, MEM_READ, 1, 0, 64));
    idle(d, 50);
    mem_dram_push(d, &w);
    mem_dram_push(d, &r);
    /* The write completes when its burst ends: WL + burst. */
    assert_int_equal(cycles_to_pop(d, &out, 100), 4 + BURST);
    assert_int_equal(out.uid, 1);
    /* The read waits WL + burst + CDLR after the WR before its RD, then CL + burst. */
    n = cycles_to_pop(d, &out, 100);
    assert_int_equal(out.uid, 2);
    assert_int_equal(4 + BURST + n, 4 + BURST + 5 + 12 + BURST);
    assert_int_equal(mem_dram_get_stats(d)->writes, 1);
    assert_int_equal(mem_dram_get_stats(d)->write_bytes, 64);
    mem_dram_destroy(d);
}

static void test_dram_return_queue_backpressure(void **state)
{
    struct mem_dram_params p;
    struct mem_dram *d;
    struct mem_req out;
    int got = 0;

    (void)state;
    gtx480(&p, 1);
    p.return_queue = 2;
    p.queue_size = 4;
    d = make(&p);
    for (uint32_t k = 0; k < 4; k++) {
        struct mem_req r = req(k, MEM_READ, k, 0, 64);

        assert_false(mem_dram_full(d));
        mem_dram_push(d, &r);
    }
    assert_true(mem_dram_full(d));
    idle(d, 300);
    while (mem_dram_pop(d, &out))
        got++;
    assert_int_equal(got, 2); /* two reads wait for the full return queue */
    assert_true(mem_dram_busy(d));
    assert_int_equal(mem_dram_get_stats(d)->reads, 2);
    idle(d, 300);
    while (mem_dram_pop(d, &out))
        got++;
    assert_int_equal(got, 4);
    assert_false(mem_dram_busy(d));
    mem_dram_destroy(d);
}

/* A pseudo-random mix of reads and writes; returns a hash of the pop order. */
static uint64_t run_mix(uint32_t sched, struct mem_dram_stats *st)
{
    struct mem_dram_params p;
    struct mem_dram *d;
    struct mem_req out;
    uint64_t x = 12345, h = 1469598103934665603ull;
    uint32_t pushed = 0, popped = 0;

    gtx480(&p, sched);
    d = make(&p);
    while (popped < 2000) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        if (pushed < 2000 && !mem_dram_full(d) && (x >> 60) < 10) {
            struct mem_req r =
                req(pushed, (x >> 33) & 3 ? MEM_READ : MEM_WRITE, (uint32_t)(x >> 40) % 16,
                    (uint32_t)(x >> 50) % 4, 32u << ((x >> 20) % 3));

            mem_dram_push(d, &r);
            pushed++;
        }
        mem_dram_cycle(d);
        while (mem_dram_pop(d, &out)) {
            h = (h ^ out.uid) * 1099511628211ull;
            popped++;
        }
    }
    *st = *mem_dram_get_stats(d);
    mem_dram_destroy(d);
    return h;
}

static void test_dram_determinism(void **state)
{
    struct mem_dram_stats a, b;

    (void)state;
    for (uint32_t sched = 0; sched < 2; sched++) {
        uint64_t ha = run_mix(sched, &a), hb = run_mix(sched, &b);

        assert_true(ha == hb);
        assert_memory_equal(&a, &b, sizeof(a));
        assert_int_equal(a.reads + a.writes, 2000);
        assert_int_equal(a.row_hits + a.row_misses, 2000);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dram_timing_parse),
        cmocka_unit_test(test_dram_timing_errors),
        cmocka_unit_test(test_dram_create_errors),
        cmocka_unit_test(test_dram_single_read_latency),
        cmocka_unit_test(test_dram_multi_burst),
        cmocka_unit_test(test_dram_row_hit_faster),
        cmocka_unit_test(test_dram_frfcfs_reorders),
        cmocka_unit_test(test_dram_streaming_bandwidth),
        cmocka_unit_test(test_dram_bank_groups),
        cmocka_unit_test(test_dram_write_read_turnaround),
        cmocka_unit_test(test_dram_return_queue_backpressure),
        cmocka_unit_test(test_dram_determinism),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
