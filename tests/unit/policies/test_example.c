/*
 * The example policy of docs/policies.md ("Writing a policy"),
 * docs/examples/ws_youngest.c, built with this test and run through the
 * same path the timing model uses (policies/create.h): its arguments, its
 * registry-allocated state and its order. The page must show the file as it
 * is, so the test also finds the file's text in the page.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/err.h"
#include "policies/create.h"
#include "policies/warp_sched.h"

extern const struct pol_warp_sched_ops pol_ws_youngest;

#define NW 4

static void *make(const char *args, struct ps_err *err)
{
    struct pol_warp_sched_params p = {.nsched = 1, .max_warps = NW, .args = args};

    ps_err_clear(err);
    return pol_warp_sched_create(&pol_ws_youngest, &p, err);
}

/* Four warps in slots 0..3, slot 0 the oldest; warp `gone` (if < NW) has exited. */
static void views(struct pol_warp_view *v, uint32_t gone)
{
    memset(v, 0, sizeof(*v) * NW);
    for (uint32_t i = 0; i < NW; i++) {
        v[i].slot = i;
        v[i].valid = i != gone;
        v[i].ready = true;
        v[i].age = 10 + i;
    }
}

static void expect_order(void *st, const struct pol_warp_view *v, const uint32_t *want,
                         uint32_t nwant)
{
    uint32_t order[NW];
    uint32_t k = pol_ws_youngest.order(st, v, NW, order, 1);

    assert_int_equal(k, nwant);
    for (uint32_t i = 0; i < k; i++)
        assert_int_equal(order[i], want[i]);
}

static void test_example_youngest_first(void **state)
{
    struct pol_warp_view v[NW];
    struct ps_err err;
    void *st = make("", &err);

    (void)state;
    assert_non_null(st);
    views(v, NW);
    expect_order(st, v, (const uint32_t[]){3, 2, 1, 0}, 4);
    views(v, 2);
    expect_order(st, v, (const uint32_t[]){3, 1, 0}, 3);
    pol_ws_youngest.on_issue(st, &v[1], 1); /* greedy is off: no change */
    expect_order(st, v, (const uint32_t[]){3, 1, 0}, 3);
    pol_warp_sched_destroy(&pol_ws_youngest, st);
}

static void test_example_arguments(void **state)
{
    struct pol_warp_view v[NW];
    struct ps_err err;
    void *st = make("greedy=on:window=3", &err);

    (void)state;
    if (!st)
        fail_msg("%s", err.msg);
    views(v, NW);
    expect_order(st, v, (const uint32_t[]){3, 2, 1}, 3);
    pol_ws_youngest.on_issue(st, &v[1], 1);
    expect_order(st, v, (const uint32_t[]){1, 3, 2}, 3);
    pol_warp_sched_destroy(&pol_ws_youngest, st);

    assert_null(make("greedy=yes", &err));
    assert_string_equal(err.msg, "-gpgpu_scheduler youngest: greedy=yes: expected one of off|on");
    assert_null(make("window=2000", &err));
    assert_string_equal(err.msg,
                        "-gpgpu_scheduler youngest: window=2000: expected a whole number from 0 "
                        "to 1024");
    assert_null(make("depth=2", &err));
    assert_string_equal(err.msg,
                        "-gpgpu_scheduler youngest: unknown key 'depth' (known: greedy, window)");
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    long n;

    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = calloc(1, (size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    return buf;
}

/* docs/policies.md shows the whole file in a ```c block. */
static void test_example_is_in_the_docs(void **state)
{
    char *page = slurp(TOP_SRCDIR "/docs/policies.md");
    char *code = slurp(TOP_SRCDIR "/docs/examples/ws_youngest.c");

    (void)state;
    assert_non_null(page);
    assert_non_null(code);
    if (!strstr(page, code))
        fail_msg("docs/policies.md does not show docs/examples/ws_youngest.c as it is");
    free(page);
    free(code);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_example_youngest_first),
        cmocka_unit_test(test_example_arguments),
        cmocka_unit_test(test_example_is_in_the_docs),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
