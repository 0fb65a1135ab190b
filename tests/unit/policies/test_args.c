/*
 * The policy argument parser (policies/args.c): every value type, both
 * forms, the message style, and every spec string docs/policies.md shows
 * made through policies/create.h as the timing model makes them.
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
#include "policies/args.h"
#include "policies/registry.h"

struct cfg {
    uint32_t n, word, named;
    double frac;
    char text[POL_ARG_TEXT_MAX];
};

static const uint32_t named_vals[] = {0, UINT32_MAX};

static int check_cfg(void *p, char *why, size_t len)
{
    const struct cfg *c = p;

    if (c->n == 13)
        return snprintf(why, len, "n=13 is unlucky");
    return 0;
}

static const struct pol_arg keys[] = {
    POL_KEY_UINT("n", struct cfg, n, 7, 1, 100, "a count"),
    POL_KEY_WORD("word", struct cfg, word, 1, "red|green|blue", "a colour"),
    {.key = "named",
     .type = POL_ARG_UINT,
     .off = offsetof(struct cfg, named),
     .def = 5,
     .min = 1,
     .max = 10,
     .words = "low|high",
     .word_vals = named_vals,
     .help = "named ends"},
    POL_KEY_FRAC("frac", struct cfg, frac, 0.25, 0, 1, "a share"),
    POL_KEY_TEXT("file", struct cfg, text, "a path"),
    POL_KEY_GONE("period", "the period is the option -x_period"),
};

static const struct pol_argspec spec = POL_ARGSPEC_KEYS(struct cfg, keys, check_cfg);

static const struct pol_arg fields[] = {
    POL_KEY_UINT("N", struct cfg, n, 3, 1, 100, "a count"),
    POL_KEY_WORD("order", struct cfg, word, 0, "lru|fifo", "an order"),
};

static const struct pol_argspec pos = POL_ARGSPEC_POS(struct cfg, fields, 1, NULL);

static struct cfg parse_ok(const struct pol_argspec *s, const char *text)
{
    struct cfg c;
    struct ps_err err;

    ps_err_clear(&err);
    memset(&c, 0xa5, sizeof(c));
    if (pol_args_parse(s, "-opt", "pol", text, &c, &err))
        fail_msg("'%s': %s", text, err.msg);
    return c;
}

static void parse_bad(const struct pol_argspec *s, const char *text, const char *msg)
{
    struct cfg c;
    struct ps_err err;

    ps_err_clear(&err);
    assert_int_equal(pol_args_parse(s, "-opt", "pol", text, &c, &err), PS_EINVAL);
    assert_int_equal(err.code, PS_EINVAL);
    if (strncmp(err.msg, "-opt pol: ", 10) != 0 || !strstr(err.msg, msg))
        fail_msg("'%s': message '%s' lacks '-opt pol: ...%s'", text, err.msg, msg);
}

static void test_args_defaults(void **state)
{
    struct cfg c;

    (void)state;
    c = parse_ok(&spec, "");
    assert_int_equal(c.n, 7);
    assert_int_equal(c.word, 1);
    assert_int_equal(c.named, 5);
    assert_true(c.frac == 0.25);
    assert_string_equal(c.text, "");
    c = parse_ok(&spec, NULL);
    assert_int_equal(c.n, 7);
}

static void test_args_values(void **state)
{
    struct cfg c;

    (void)state;
    c = parse_ok(&spec, "n=100,word=blue:named=high,frac=1.,file=/a:b/c");
    assert_int_equal(c.n, 100);
    assert_int_equal(c.word, 2);
    assert_int_equal(c.named, UINT32_MAX);
    assert_true(c.frac == 1.0);
    assert_string_equal(c.text, "/a:b/c"); /* a text value runs to ',' only */
    c = parse_ok(&spec, "file=x:n=2");
    assert_string_equal(c.text, "x:n=2");
    assert_int_equal(c.n, 7);
    c = parse_ok(&spec, "named=10:frac=.5:n=1");
    assert_int_equal(c.named, 10);
    assert_true(c.frac == 0.5);
    assert_int_equal(c.n, 1);
}

static void test_args_bad_pairs(void **state)
{
    (void)state;
    parse_bad(&spec, "n=abc", "n=abc: expected a whole number from 1 to 100");
    parse_bad(&spec, "n=0", "n=0: expected a whole number from 1 to 100");
    parse_bad(&spec, "n=101", "n=101: expected a whole number");
    parse_bad(&spec, "n=-1", "n=-1: expected");
    parse_bad(&spec, "n=99999999999", "n=99999999999: expected");
    parse_bad(&spec, "n=", "n=: expected a whole number");
    parse_bad(&spec, "word=pink", "word=pink: expected one of red|green|blue");
    parse_bad(&spec, "named=mid", "named=mid: expected low|high or a whole number from 1 to 10");
    parse_bad(&spec, "frac=1.5", "frac=1.5: expected a number from 0 to 1");
    parse_bad(&spec, "frac=1e-3", "frac=1e-3: expected");
    parse_bad(&spec, "frac=.", "frac=.: expected");
    parse_bad(&spec, "frac=0.1.2", "frac=0.1.2: expected");
    parse_bad(&spec, "file=", "file=: expected a text");
    parse_bad(&spec, "colour=red", "unknown key 'colour' (known: n, word, named, frac, file)");
    parse_bad(&spec, "7", "'7': expected key=value (keys: n, word, named, frac, file)");
    parse_bad(&spec, "n", "'n': expected n=value");
    parse_bad(&spec, "n=1,n=2", "n given twice");
    parse_bad(&spec, "n=1,", "empty field after the last ','");
    parse_bad(&spec, "n=1:", "empty field after the last ':'");
    parse_bad(&spec, ",n=1", "empty field");
    parse_bad(&spec, "n=1,,word=red", "empty field");
    parse_bad(&spec, "period=4", "period: the period is the option -x_period");
    parse_bad(&spec, "n=13", "n=13 is unlucky");
}

static void test_args_positional(void **state)
{
    struct cfg c;

    (void)state;
    c = parse_ok(&pos, "9");
    assert_int_equal(c.n, 9);
    assert_int_equal(c.word, 0);
    c = parse_ok(&pos, "9:fifo");
    assert_int_equal(c.word, 1);
    parse_bad(&pos, "", "'': too few fields, expected pol:N[:order]");
    parse_bad(&pos, "9:fifo:1", "'9:fifo:1': too many fields, expected pol:N[:order]");
    parse_bad(&pos, "9::", "empty field, expected pol:N[:order]");
    parse_bad(&pos, "9:", "ends with ':', expected pol:N[:order]");
    parse_bad(&pos, "x", "N=x: expected a whole number from 1 to 100 in pol:N[:order]");
    parse_bad(&pos, "9:lfu", "order=lfu: expected one of lru|fifo in pol:N[:order]");
    parse_bad(&pos, "n=9", "N=n=9: expected a whole number");
}

static void test_args_none(void **state)
{
    struct cfg c;
    struct ps_err err;

    (void)state;
    ps_err_clear(&err);
    assert_int_equal(pol_args_parse(NULL, "-opt", "pol", "", &c, &err), 0);
    parse_bad(NULL, "1", "takes no arguments (got 'pol:1')");
}

static void test_args_write(void **state)
{
    struct cfg c = parse_ok(&spec, "n=3,word=red,named=low,file=f");
    char buf[256] = {0};
    FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");

    (void)state;
    assert_non_null(f);
    pol_args_write(&spec, &c, f);
    fclose(f);
    assert_string_equal(buf, " n=3 word=red named=0 frac=0.25 file=f");
}

static void test_documented_l1d(void)
{
    static const char *const l1d[] = {"lru",      "lru:fifo",
                                      "bypass",   "bypass:fifo",
                                      "mrpb",     "mrpb:queues=0,line=0",
                                      "pdp",      "pdp:pd=8",
                                      "rrip",     "rrip:mode=drrip,bits=3,leaders=4",
                                      "ctrlc",    "ctrlc:thr_lo=0.2,thr_hi=0.5,mode=rand",
                                      "pcbypass", "pcbypass:threshold=2:bits=2",
                                      "cacp",     "cacp:cways=2,sig_addr=byte",
                                      "locality", "locality:t=3,margin=0.2,duel=off"};
    uint64_t counters[POL_L1D_NCOUNTERS];
    struct ps_err err;

    for (size_t i = 0; i < sizeof(l1d) / sizeof(l1d[0]); i++) {
        const char *args;
        const struct pol_l1d_ops *ops = pol_l1d_find(l1d[i], &args, &err);
        struct pol_l1d_params p = {.nsets = 32,
                                   .assoc = 4,
                                   .line_bytes = 128,
                                   .nsms = 1,
                                   .args = args,
                                   .counters = counters};
        void *st;

        assert_non_null(ops);
        ps_err_clear(&err);
        st = pol_l1d_create(ops, &p, &err);
        if (!st)
            fail_msg("%s: %s", l1d[i], err.msg);
        pol_l1d_destroy(ops, st);
    }
}

/* Every form docs/policies.md documents, made as the timing model makes it. */
static void test_args_documented_specs(void **state)
{
    static const char *const warp[] = {
        "lrr",
        "gto",
        "gto:",
        "oldest",
        "two_level_active:6:0:1",
        "two_level_active:2:2:2",
        "two_level_active:8:0:1",
        "two_level_active:4:5:5",
        "swl:8",
        "swl:1",
        "warp_limiting:2:4",
        "ccws",
        "ccws:k_throttle=32",
        "ccws:vta_entries=4,vta_assoc=4,vta_repl=lru",
        "ccws:boundary=within,tie=slot,reclamp=1,reset=never,decay=inst,vta_write=keep",
        "gcaws",
        "gcaws:ninst=off,delta=abs,stall=literal,order=gto"};
    static const char *const cta[] = {"rr",
                                      "static:2",
                                      "dyncta",
                                      "dyncta:t_idle=24,t_mem_h=576",
                                      "dyncta:init=1:n_max=4",
                                      "dyncta:init=max",
                                      "dyncta:init=half"};
    struct ps_err err;

    (void)state;
    for (size_t i = 0; i < sizeof(warp) / sizeof(warp[0]); i++) {
        const char *args;
        const struct pol_warp_sched_ops *ops = pol_warp_sched_find(warp[i], &args, &err);
        struct pol_warp_sched_params p = {.nsched = 2, .max_warps = 48, .args = args};
        void *st;

        assert_non_null(ops);
        ps_err_clear(&err);
        st = pol_warp_sched_create(ops, &p, &err);
        if (!st)
            fail_msg("%s: %s", warp[i], err.msg);
        pol_warp_sched_destroy(ops, st);
    }
    for (size_t i = 0; i < sizeof(cta) / sizeof(cta[0]); i++) {
        const char *args;
        const struct pol_cta_sched_ops *ops = pol_cta_sched_find(cta[i], &args, &err);
        struct pol_cta_sched_params p = {.nsm = 15, .args = args};
        void *st;

        assert_non_null(ops);
        ps_err_clear(&err);
        st = pol_cta_sched_create(ops, &p, &err);
        if (!st)
            fail_msg("%s: %s", cta[i], err.msg);
        pol_cta_sched_destroy(ops, st);
    }
    test_documented_l1d();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_args_defaults),
        cmocka_unit_test(test_args_values),
        cmocka_unit_test(test_args_bad_pairs),
        cmocka_unit_test(test_args_positional),
        cmocka_unit_test(test_args_none),
        cmocka_unit_test(test_args_write),
        cmocka_unit_test(test_args_documented_specs),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
