/*
 * Unit tests for timing/fetch: the L1I request for a warp's pc, a miss
 * that makes the I-buffer wait for the line, a hit that is ready the next
 * cycle, and the I-buffer kept in sequence and emptied by a jump.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "timing/fetch.h"

#define IL1 "N:4:128:4,L:R:f:N:L,S:2:32,4"

static struct mem_cache *mk_l1i(struct tm_params *p)
{
    struct ps_err err;
    struct mem_cache *c;

    ps_err_clear(&err);
    assert_int_equal(mem_cache_geom_parse(IL1, &p->l1i, &err), 0);
    c = mem_cache_create(&p->l1i, "L1I", NULL, "", 0, &err);
    assert_non_null(c);
    return c;
}

static void test_request_addresses(void **state)
{
    struct tm_params p = {0};
    struct mem_req r;

    (void)state;
    p.l1i.line_bytes = 128;
    tm_fetch_request(&r, &p, 3, 7, 2, 21);
    /* Instructions are 8 bytes apart (pc 21 at byte 168); the request covers its 128-byte line. */
    assert_int_equal(r.addr, TM_INST_BASE + (UINT64_C(2) << 24) + 128);
    assert_int_equal(r.bytes, 128);
    assert_int_equal(r.space, MEM_INST);
    assert_int_equal(r.type, MEM_READ);
    assert_int_equal(r.sm, 3);
    assert_int_equal(r.warp, 7);
    assert_int_equal(r.uid, 7);
    assert_int_equal(r.pc, 21);
    assert_int_equal(r.fidx, 2);
}

static void test_miss_then_fill_then_hit(void **state)
{
    struct tm_params p = {0};
    struct mem_cache *l1i = mk_l1i(&p);
    struct tm_ibuf ib, ib2;
    struct mem_req r;

    (void)state;
    p.ibuffer = 2;
    tm_ibuf_reset(&ib);
    tm_ibuf_reset(&ib2);
    assert_true(tm_fetch_warp(&ib, l1i, &p, 0, 1, 0, 4, 100));
    assert_true(ib.fetching);
    assert_int_equal(ib.n, 2);
    assert_false(tm_ibuf_ready(&ib, 1000));
    /* The line comes back from below: the warp's fetch is answered. */
    assert_true(mem_cache_pop_miss(l1i, &r));
    mem_cache_fill(l1i, &r, 150);
    assert_true(mem_cache_pop_ready(l1i, &r));
    assert_int_equal(r.warp, 1);
    tm_ibuf_filled(&ib, 150);
    assert_false(ib.fetching);
    assert_false(tm_ibuf_ready(&ib, 150));
    assert_true(tm_ibuf_ready(&ib, 151));
    /* Another warp on the same line hits: ready the next cycle. */
    assert_true(tm_fetch_warp(&ib2, l1i, &p, 0, 2, 0, 5, 200));
    assert_false(ib2.fetching);
    assert_int_equal(ib2.ready, 201);
    mem_cache_destroy(l1i);
}

static void test_advance(void **state)
{
    struct isa_simt st = {0};
    struct isa_frame fr = {0};
    struct isa_warp w = {0};
    struct tm_ibuf ib = {0};

    (void)state;
    w.st = &st;
    w.sp = 1;
    w.fr = &fr;
    w.nfr = 1;
    w.state = ISA_WARP_READY;
    ib.fidx = 0;
    ib.pc = 10;
    ib.n = 3;
    st.pc = 11; /* in sequence: the buffer moves on */
    tm_ibuf_advance(&ib, &w, false);
    assert_int_equal(ib.pc, 11);
    assert_int_equal(ib.n, 2);
    st.pc = 20; /* a taken branch: emptied, a control stall */
    tm_ibuf_advance(&ib, &w, true);
    assert_int_equal(ib.n, 0);
    assert_true(ib.ctrl);
    ib.n = 1;
    ib.pc = 20;
    st.pc = 21; /* the last buffered instruction: emptied, a plain fetch stall */
    tm_ibuf_advance(&ib, &w, true);
    assert_int_equal(ib.n, 0);
    assert_false(ib.ctrl);
    ib.n = 2;
    w.state = ISA_WARP_DONE;
    tm_ibuf_advance(&ib, &w, false);
    assert_int_equal(ib.n, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_request_addresses),
        cmocka_unit_test(test_miss_then_fill_then_hit),
        cmocka_unit_test(test_advance),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
