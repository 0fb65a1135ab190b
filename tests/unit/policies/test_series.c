/* The policies' series writer (policies/series.c): the cap, the dropped count, the CSV. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "common/err.h"
#include "policies/series.h"

struct row {
    uint64_t cycle;
    uint32_t v;
};

static void write_row(FILE *out, const void *p, const void *ctx)
{
    const struct row *r = p;

    fprintf(out, "%s,%llu,%u\n", (const char *)ctx, (unsigned long long)r->cycle, r->v);
}

static void test_series_cap_and_csv(void **state)
{
    struct pol_series s;
    struct ps_err err;
    char buf[256] = {0};
    FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");

    (void)state;
    assert_non_null(f);
    pol_series_init(&s, sizeof(struct row), 2);
    for (uint32_t i = 0; i < 5; i++) {
        struct row *r = pol_series_add(&s);

        if (i < 2) {
            assert_non_null(r);
            assert_int_equal(r->v, 0); /* zeroed */
            *r = (struct row){100 + i, i};
        } else {
            assert_null(r);
        }
    }
    assert_int_equal(s.n, 2);
    assert_int_equal(s.dropped, 3);
    ps_err_clear(&err);
    assert_int_equal(pol_series_write(&s, f, "sm,cycle,v", write_row, "7", "the test series", &err),
                     0);
    fclose(f);
    assert_string_equal(buf, "sm,cycle,v\n7,100,0\n7,101,1\n");
    pol_series_free(&s);
}

static void test_series_no_cap_grows(void **state)
{
    struct pol_series s;

    (void)state;
    pol_series_init(&s, sizeof(struct row), POL_SERIES_NO_CAP);
    for (uint32_t i = 0; i < 1000; i++) {
        struct row *r = pol_series_add(&s);

        assert_non_null(r);
        r->v = i;
    }
    assert_int_equal(s.n, 1000);
    assert_int_equal(s.dropped, 0);
    for (uint32_t i = 0; i < 1000; i++)
        assert_int_equal(((const struct row *)pol_series_row(&s, i))->v, i);
    pol_series_free(&s);
}

static void test_series_cap_zero_keeps_nothing(void **state)
{
    struct pol_series s;

    (void)state;
    pol_series_init(&s, sizeof(struct row), 0);
    assert_null(pol_series_add(&s));
    assert_int_equal(s.dropped, 1);
    pol_series_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_series_cap_and_csv),
        cmocka_unit_test(test_series_no_cap_grows),
        cmocka_unit_test(test_series_cap_zero_keeps_nothing),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
