/*
 * Launch limits of the engine (isa/warp.h, isa/engine.h): the CTA indices of
 * grids with more than 2^32 CTAs (computed in 64 bits; a 32-bit product of
 * gridDim.x and gridDim.y wrapped to 0 and divided by it), and grids past
 * CUDA's 2^31-1 x 65535 x 65535 refused with a message naming the limits.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "common/err.h"
#include "frontend/ptx_parse.h"
#include "isa/warp.h"

static const char ptx[] = ".version 8.0\n.target sm_80\n.address_size 64\n"
                          ".visible .entry k()\n{\n  ret;\n}\n";

struct fx {
    struct isa_device *d;
    struct isa_program *p;
    struct ps_err err;
};

static void fx_open(struct fx *f)
{
    struct isa_module *m;

    memset(f, 0, sizeof(*f));
    f->d = isa_device_create(NULL);
    assert_non_null(f->d);
    m = ptx_parse(ptx, strlen(ptx), "k.ptx", &f->err);
    assert_non_null(m);
    assert_int_equal(isa_program_load(f->d, m, &f->p, &f->err), 0);
}

static void fx_close(struct fx *f)
{
    isa_program_unload(f->p);
    isa_device_destroy(f->d);
}

static void test_cta_index_past_2pow32(void **state)
{
    struct fx f;
    struct isa_launch L;
    struct isa_cta c;
    struct isa_launch_desc ld = {0};

    (void)state;
    fx_open(&f);
    ld.kernel = isa_program_find_kernel(f.p, "k");
    ld.grid[0] = 131072, ld.grid[1] = 32768, ld.grid[2] = 3;
    ld.block[0] = ld.block[1] = ld.block[2] = 1;
    assert_int_equal(isa_launch_init(&L, f.p, &ld, &f.err), 0);
    assert_int_equal(isa_cta_init(&c, &L, (UINT64_C(1) << 32) + 7), 0);
    assert_int_equal(c.ctaid[0], 7);
    assert_int_equal(c.ctaid[1], 0);
    assert_int_equal(c.ctaid[2], 1);
    assert_int_equal(c.linear, (UINT64_C(1) << 32) + 7);
    isa_cta_fini(&c);
    assert_int_equal(isa_cta_init(&c, &L, 3 * (UINT64_C(1) << 32) - 1), 0);
    assert_int_equal(c.ctaid[0], 131071);
    assert_int_equal(c.ctaid[1], 32767);
    assert_int_equal(c.ctaid[2], 2);
    isa_cta_fini(&c);
    isa_launch_fini(&L);
    fx_close(&f);
}

static void test_grid_limits(void **state)
{
    static const uint32_t bad[4][3] = {
        {UINT32_C(2147483648), 1, 1}, {1, 65536, 1}, {1, 1, 65536}, {0, 1, 1}};
    struct fx f;
    struct isa_launch L;

    (void)state;
    fx_open(&f);
    for (int i = 0; i < 4; i++) {
        struct isa_launch_desc ld = {.kernel = isa_program_find_kernel(f.p, "k")};

        memcpy(ld.grid, bad[i], sizeof(ld.grid));
        ld.block[0] = ld.block[1] = ld.block[2] = 1;
        assert_int_equal(isa_launch_init(&L, f.p, &ld, &f.err), PS_EINVAL);
        assert_non_null(strstr(f.err.msg, "limits: grid 2147483647 x 65535 x 65535"));
        isa_launch_fini(&L);
    }
    fx_close(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cta_index_past_2pow32),
        cmocka_unit_test(test_grid_limits),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
