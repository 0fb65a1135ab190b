/*
 * Unit tests for Profiled-BYPASS ("profiled", policies/l1d_profiled.c),
 * design/seeds/002_locality_bypass.md section 4.3 and oracle O20: the
 * recording run counts read references per block per SM and over all SMs
 * and writes them at shared_destroy; the measured run caches a block when
 * either count reaches T. The ops are driven directly, two SMs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "policies/l1d.h"
#include "policies/l1d_builtin.h"
#include "policies/registry.h"

struct gpu {
    void *sh;
    void *st[2];
    uint64_t ctr[2][POL_L1D_NCOUNTERS];
};

static void *gpu_make(struct gpu *g, const char *args, struct ps_err *err)
{
    struct pol_l1d_params p = {.nsets = 32, .assoc = 4, .line_bytes = 128, .nsms = 2};

    memset(g, 0, sizeof(*g));
    ps_err_clear(err);
    p.args = args;
    p.sm = UINT32_MAX;
    g->sh = pol_l1d_shared_create(&pol_l1d_profiled, &p, err);
    if (!g->sh)
        return NULL;
    p.shared = g->sh;
    for (uint32_t i = 0; i < 2; i++) {
        p.sm = i;
        p.counters = g->ctr[i];
        g->st[i] = pol_l1d_create(&pol_l1d_profiled, &p, err);
        assert_non_null(g->st[i]);
    }
    return g->sh;
}

static void gpu_free(struct gpu *g)
{
    for (int i = 0; i < 2; i++)
        pol_l1d_destroy(&pol_l1d_profiled, g->st[i]);
    pol_l1d_profiled.shared_destroy(g->sh);
}

static bool ask(struct gpu *g, uint32_t sm, uint64_t line)
{
    struct mem_req r;

    memset(&r, 0, sizeof(r));
    r.type = MEM_READ;
    r.addr = line * 128 + 4;
    return pol_l1d_profiled.on_miss(g->st[sm], &r, (uint32_t)(line % 32), 1);
}

static void path(char *buf, size_t n, const char *name)
{
    const char *dir = getenv("TMPDIR");

    snprintf(buf, n, "%s/ptxsim_test_profiled_%ld_%s", dir ? dir : "/tmp", (long)getpid(), name);
}

/* Recording: every read bypasses and is counted; the file holds local and global counts. */
static void test_profiled_record(void **state)
{
    char file[512], args[600], text[1024] = {0};
    struct ps_err err;
    struct gpu g;
    FILE *f;

    (void)state;
    path(file, sizeof(file), "rec");
    snprintf(args, sizeof(args), "mode=record,file=%s", file);
    assert_non_null(gpu_make(&g, args, &err));
    for (int i = 0; i < 3; i++)
        assert_false(ask(&g, 0, 0x10));
    assert_false(ask(&g, 1, 0x10));
    assert_false(ask(&g, 1, 0x22));
    assert_int_equal(g.ctr[0][0] + g.ctr[1][0], 5); /* recorded */
    gpu_free(&g);
    f = fopen(file, "r");
    assert_non_null(f);
    assert_true(fread(text, 1, sizeof(text) - 1, f) > 0);
    fclose(f);
    remove(file);
    assert_non_null(strstr(text, "\nG 10 4\nG 22 1\nL 0 10 3\nL 1 10 1\nL 1 22 1\n"));
}

/*
 * Oracle O20: a block whose local and global counts are both below T always
 * bypasses; with either count >= T (the OR reading) it is always cached.
 */
static void test_profiled_o20_filter(void **state)
{
    char file[512], args[600];
    struct ps_err err;
    struct gpu g;
    FILE *f;

    (void)state;
    path(file, sizeof(file), "use");
    f = fopen(file, "w");
    assert_non_null(f);
    /* line 1: local 3 on SM0, global 3; line 2: local 1 each, global 2; line 3: global 1 */
    fputs("# counts\nG 1 3\nG 2 2\nG 3 1\nL 0 1 3\nL 0 2 1\nL 1 2 1\nL 1 3 1\n", f);
    fclose(f);
    snprintf(args, sizeof(args), "file=%s,t=2", file);
    assert_non_null(gpu_make(&g, args, &err));
    for (int i = 0; i < 3; i++) {
        assert_true(ask(&g, 0, 1));  /* local 3 >= 2 */
        assert_true(ask(&g, 1, 1));  /* local 0, global 3 >= 2 */
        assert_true(ask(&g, 0, 2));  /* local 1, global 2 >= 2 */
        assert_false(ask(&g, 1, 3)); /* local 1, global 1: below T both */
        assert_false(ask(&g, 0, 9)); /* never seen */
    }
    assert_int_equal(g.ctr[0][1] + g.ctr[1][1], 9); /* cached */
    assert_int_equal(g.ctr[0][2] + g.ctr[1][2], 6); /* bypassed */
    gpu_free(&g);

    snprintf(args, sizeof(args), "file=%s,t=3,combine=local", file);
    assert_non_null(gpu_make(&g, args, &err));
    assert_true(ask(&g, 0, 1));
    assert_false(ask(&g, 1, 1));
    gpu_free(&g);
    snprintf(args, sizeof(args), "file=%s,t=2,combine=sum", file);
    assert_non_null(gpu_make(&g, args, &err));
    assert_true(ask(&g, 1, 3)); /* 1 + 1 >= 2 */
    assert_false(ask(&g, 0, 3));
    gpu_free(&g);
    remove(file);
}

/* Arguments and the count file: clear errors, never a crash. */
static void test_profiled_args(void **state)
{
    const char *bad[] = {"",
                         "mode=record",
                         "file=",
                         "file=/nonexistent/dir/x",
                         "file=/tmp/x,t=0",
                         "file=/tmp/x,t=2x",
                         "file=/tmp/x,mode=replay",
                         "file=/tmp/x,combine=and",
                         "file=/tmp/x,",
                         "file=/tmp/x,foo=1"};
    char file[512], args[600];
    struct pol_l1d_params p = {.nsets = 32, .assoc = 4, .line_bytes = 128, .sm = 0};
    struct ps_err err;
    struct gpu g;
    FILE *f;

    (void)state;
    assert_ptr_equal(pol_l1d_find("profiled:t=2", NULL, &err), &pol_l1d_profiled);
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        if (gpu_make(&g, bad[i], &err))
            fail_msg("%s accepted", bad[i]);
        assert_true(err.code == PS_EINVAL || err.code == PS_EIO);
        assert_non_null(strstr(err.msg, "profiled"));
    }
    path(file, sizeof(file), "bad");
    f = fopen(file, "w");
    assert_non_null(f);
    fputs("G 1 2\nX what\n", f);
    fclose(f);
    snprintf(args, sizeof(args), "file=%s", file);
    assert_null(gpu_make(&g, args, &err));
    assert_int_equal(err.code, PS_EPARSE);
    remove(file);
    /* an instance without the GPU-wide state is refused */
    p.args = "file=/tmp/x";
    ps_err_clear(&err);
    assert_null(pol_l1d_create(&pol_l1d_profiled, &p, &err));
    assert_int_equal(err.code, PS_EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_profiled_record),
        cmocka_unit_test(test_profiled_o20_filter),
        cmocka_unit_test(test_profiled_args),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
