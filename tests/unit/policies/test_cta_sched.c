/*
 * Unit tests for the CTA scheduler tables: round robin at maximum occupancy
 * ("rr") never limits below the kernel's occupancy, the static limit
 * ("static", "static:N") caps every SM at min(N, occupancy) with N from the
 * argument or from -ptxsim_cta_limit, and bad arguments or names are
 * refused with PS_EINVAL and a message.
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

struct cta {
    const struct pol_cta_sched_ops *ops;
    void *st;
};

/* Looks spec up and creates it with -ptxsim_cta_limit = static_limit; st is NULL on failure. */
static struct cta try_make(const char *spec, uint32_t static_limit, struct ps_err *err)
{
    const char *args = NULL;
    struct cta c = {0};
    struct pol_cta_sched_params p = {.nsm = 4, .static_limit = static_limit};

    ps_err_clear(err);
    c.ops = pol_cta_sched_find(spec, &args, err);
    assert_non_null(c.ops);
    p.args = args;
    c.st = pol_cta_sched_create(c.ops, &p, err);
    return c;
}

static struct cta make(const char *spec, uint32_t static_limit)
{
    struct ps_err err;
    struct cta c = try_make(spec, static_limit, &err);

    if (!c.st)
        fail_msg("%s: %s", spec, err.msg);
    return c;
}

static void expect_bad(const char *spec, uint32_t static_limit, const char *in_msg)
{
    struct ps_err err;
    struct cta c = try_make(spec, static_limit, &err);

    assert_null(c.st);
    assert_int_equal(err.code, PS_EINVAL);
    if (!strstr(err.msg, in_msg))
        fail_msg("%s: message '%s' lacks '%s'", spec, err.msg, in_msg);
}

static void test_cta_sched_rr_max_occupancy(void **state)
{
    struct cta c = make("rr", 3); /* -ptxsim_cta_limit does not concern rr */

    (void)state;
    assert_null(c.ops->on_sample);
    for (uint32_t max = 1; max <= 32; max *= 2) {
        c.ops->on_kernel(c.st, max);
        for (uint32_t sm = 0; sm < 4; sm++)
            assert_true(c.ops->limit(c.st, sm) >= max);
    }
    assert_int_equal(c.ops->limit(c.st, 0), UINT32_MAX);
    pol_cta_sched_destroy(c.ops, c.st);
}

static void test_cta_sched_static_caps(void **state)
{
    struct cta c = make("static:3", 0);

    (void)state;
    assert_int_equal(c.ops->limit(c.st, 0), 3); /* before any kernel */
    c.ops->on_kernel(c.st, 8);
    for (uint32_t sm = 0; sm < 4; sm++)
        assert_int_equal(c.ops->limit(c.st, sm), 3);
    c.ops->on_kernel(c.st, 2); /* the occupancy limit is lower */
    assert_int_equal(c.ops->limit(c.st, 1), 2);
    c.ops->on_kernel(c.st, 3);
    assert_int_equal(c.ops->limit(c.st, 2), 3);
    pol_cta_sched_destroy(c.ops, c.st);
}

static void test_cta_sched_static_from_option(void **state)
{
    struct cta c = make("static", 4);
    struct cta d = make("static:2", 5); /* the argument wins over the option */

    (void)state;
    c.ops->on_kernel(c.st, 8);
    d.ops->on_kernel(d.st, 8);
    assert_int_equal(c.ops->limit(c.st, 0), 4);
    assert_int_equal(d.ops->limit(d.st, 0), 2);
    pol_cta_sched_destroy(c.ops, c.st);
    pol_cta_sched_destroy(d.ops, d.st);
}

static void test_cta_sched_bad_args(void **state)
{
    (void)state;
    expect_bad("static", 0, "needs a limit");
    expect_bad("static:", 0, "needs a limit"); /* empty argument: as if none */
    expect_bad("static:0", 4, "-ptxsim_cta_scheduler static: N=0: expected a whole number from 1");
    expect_bad("static:x", 4, "N=x: expected a whole number from 1 to 4294967295 in static[:N]");
    expect_bad("static:3:4", 0, "'3:4': too many fields, expected static[:N]");
    expect_bad("static:-2", 0, "N=-2: expected a whole number");
    expect_bad("static:4294967296", 0, "N=4294967296: expected a whole number");
    expect_bad("rr:2", 0, "takes no arguments");
}

static void test_cta_sched_registry(void **state)
{
    const char *args = NULL;
    struct ps_err err;

    (void)state;
    assert_string_equal(pol_cta_sched_find("rr", &args, &err)->name, "rr");
    assert_string_equal(args, "");
    assert_string_equal(pol_cta_sched_find("static:7", &args, &err)->name, "static");
    assert_string_equal(args, "7");
    ps_err_clear(&err);
    assert_null(pol_cta_sched_find("lcs:4", &args, &err));
    assert_int_equal(err.code, PS_EINVAL);
    assert_non_null(strstr(err.msg, "unknown cta scheduler 'lcs'"));
    assert_non_null(strstr(err.msg, "rr, static"));
    ps_err_clear(&err);
    assert_null(pol_cta_sched_find("", &args, &err));
    assert_int_equal(err.code, PS_EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cta_sched_rr_max_occupancy),
        cmocka_unit_test(test_cta_sched_static_caps),
        cmocka_unit_test(test_cta_sched_static_from_option),
        cmocka_unit_test(test_cta_sched_bad_args),
        cmocka_unit_test(test_cta_sched_registry),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
