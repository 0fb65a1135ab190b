/*
 * Texture and surface instructions through the public API
 * (runtime/ptxsim.h): txq and suq answer the object's properties, tex with
 * integer coordinates reads texels (border addressing gives the border
 * colour), NaN and huge float coordinates read defined texels, a handle that
 * names no object and a cube-map fetch fault with a clear message, and a
 * destroyed handle no longer resolves. Texture fetch
 * arithmetic itself is checked against a host model by tests/cuda/textures.cu.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "isa/texture.h"
#include "runtime/ptxsim.h"

#define HDR ".version 8.0\n.target sm_80\n.address_size 64\n"

static const char q_ptx[] =
    HDR ".visible .entry q(.param .u64 out, .param .u64 tex, .param .u64 surf)\n"
        "{\n"
        ".reg .b32 %r<12>;\n.reg .b64 %rd<4>;\n.reg .f32 %f<6>;\n"
        "ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [tex];\nld.param.u64 %rd3, [surf];\n"
        "txq.width.b32 %r1, [%rd2];\n"
        "txq.height.b32 %r2, [%rd2];\n"
        "txq.channel_order.b32 %r3, [%rd2];\n"
        "txq.normalized_coords.b32 %r4, [%rd2];\n"
        "txq.filter_mode.b32 %r5, [%rd2];\n"
        "txq.addr_mode_0.b32 %r6, [%rd2];\n"
        "suq.width.b32 %r7, [%rd3];\n"
        "txq.channel_data_type.b32 %r8, [%rd2];\n"
        "mov.b32 %r9, 5;\nmov.b32 %r10, 1;\n"
        "tex.2d.v4.s32.s32 {%r11, %r0, %r0, %r0}, [%rd2, {%r9, %r10}];\n"
        "st.global.v4.u32 [%rd1], {%r1, %r2, %r3, %r4};\n"
        "st.global.v4.u32 [%rd1+16], {%r5, %r6, %r7, %r8};\n"
        "st.global.u32 [%rd1+32], %r11;\n"
        "mov.b32 %r9, 2;\n"
        "tex.2d.v4.s32.s32 {%r11, %r0, %r0, %r0}, [%rd2, {%r9, %r10}];\n"
        "st.global.u32 [%rd1+36], %r11;\n"
        "ret;\n"
        "}\n"
        ".visible .entry odd(.param .u64 out, .param .u64 tex)\n"
        "{\n"
        ".reg .b32 %r<4>;\n.reg .b64 %rd<3>;\n.reg .f32 %f<4>;\n"
        "ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [tex];\n"
        "mov.f32 %f1, 0fFFC00000;\nmov.f32 %f2, 0f7149F2CA;\nmov.f32 %f3, 0f3FC00000;\n"
        "tex.2d.v4.s32.f32 {%r1, %r0, %r0, %r0}, [%rd2, {%f1, %f2}];\n"
        "tex.2d.v4.s32.f32 {%r2, %r0, %r0, %r0}, [%rd2, {%f1, %f3}];\n"
        "st.global.v2.u32 [%rd1], {%r1, %r2};\n"
        "ret;\n"
        "}\n"
        ".visible .entry cube(.param .u64 tex)\n"
        "{\n"
        ".reg .b64 %rd<2>;\n.reg .f32 %f<8>;\n"
        "ld.param.u64 %rd1, [tex];\nmov.f32 %f1, 0f00000000;\n"
        "tex.cube.v4.f32.f32 {%f2, %f3, %f4, %f5}, [%rd1, {%f1, %f1, %f1, %f1}];\n"
        "ret;\n"
        "}\n";

static void test_engine_tex_queries_and_faults(void **state)
{
    struct ptxsim_device *d;
    struct ptxsim_module *m;
    struct isa_texobj t, s;
    uint64_t data, out, th, sh, bad = 999;
    int32_t texels[4 * 3];
    uint32_t res[10];
    void *args[3] = {&out, &th, &sh};

    (void)state;
    assert_int_equal(ptxsim_device_create(NULL, &d), 0);
    assert_int_equal(ptxsim_module_load(d, q_ptx, strlen(q_ptx), "q.ptx", &m), 0);
    for (int i = 0; i < 12; i++)
        texels[i] = 100 + i;
    assert_int_equal(ptxsim_malloc(d, sizeof(texels), &data), 0);
    assert_int_equal(ptxsim_memcpy_htod(d, data, texels, sizeof(texels)), 0);
    assert_int_equal(ptxsim_malloc(d, sizeof(res), &out), 0);
    memset(&t, 0, sizeof(t));
    t.addr = data;
    t.width = 4, t.height = 3, t.depth = 1, t.dims = 2;
    t.pitch = 16, t.slice = 48;
    t.nchan = 1, t.chan_bits = 32, t.kind = ISA_TEXK_SIGNED;
    t.addr_mode[0] = t.addr_mode[1] = ISA_TEXA_BORDER;
    t.border[0] = -7;
    t.filter_linear = true;
    s = t;
    s.surface = true;
    assert_int_equal(ptxsim_texobj_create(d, &t, &th), 0);
    assert_int_equal(ptxsim_texobj_create(d, &s, &sh), 0);
    assert_int_equal(ptxsim_launch(m, "q", (struct ptxsim_dim3){1, 1, 1},
                                   (struct ptxsim_dim3){1, 1, 1}, 0, args),
                     0);
    assert_int_equal(ptxsim_memcpy_dtoh(d, res, out, sizeof(res)), 0);
    assert_int_equal(res[0], 4);      /* width */
    assert_int_equal(res[1], 3);      /* height */
    assert_int_equal(res[2], 0x10B0); /* CL_R */
    assert_int_equal(res[3], 0);      /* unnormalized */
    assert_int_equal(res[4], 1);      /* linear */
    assert_int_equal(res[5], ISA_TEXA_BORDER);
    assert_int_equal(res[6], 4);            /* suq.width */
    assert_int_equal(res[7], 0x10D9);       /* CL_SIGNED_INT32 */
    assert_int_equal((int32_t)res[8], -7);  /* x = 5 is outside: the border colour */
    assert_int_equal((int32_t)res[9], 106); /* texel (2, 1) */

    /* NaN reads index 0, a huge coordinate lies outside (border): no undefined conversion. */
    {
        void *oargs[2] = {&out, &th};

        assert_int_equal(ptxsim_launch(m, "odd", (struct ptxsim_dim3){1, 1, 1},
                                       (struct ptxsim_dim3){1, 1, 1}, 0, oargs),
                         0);
        assert_int_equal(ptxsim_memcpy_dtoh(d, res, out, 8), 0);
        assert_int_equal((int32_t)res[0], -7);  /* (NaN, 1e30): border */
        assert_int_equal((int32_t)res[1], 104); /* (NaN, 1.5): texel (0, 1) */
    }

    /* A handle that names no texture, a cube map: clear faults. */
    args[1] = &bad;
    assert_int_equal(ptxsim_launch(m, "q", (struct ptxsim_dim3){1, 1, 1},
                                   (struct ptxsim_dim3){1, 1, 1}, 0, args),
                     PS_EINVAL);
    assert_non_null(strstr(ptxsim_last_error_info(d)->msg, "not a live texture object"));
    ptxsim_clear_fault(d);
    args[0] = &th;
    assert_int_equal(ptxsim_launch(m, "cube", (struct ptxsim_dim3){1, 1, 1},
                                   (struct ptxsim_dim3){1, 1, 1}, 0, args),
                     PS_ENOTSUP);
    assert_non_null(strstr(ptxsim_last_error_info(d)->msg, "cube-map"));
    ptxsim_clear_fault(d);
    assert_int_equal(ptxsim_texobj_destroy(d, th), 0);
    assert_null(ptxsim_texobj_get(d, th, false));
    assert_int_equal(ptxsim_texobj_destroy(d, th), PS_EINVAL);
    assert_non_null(ptxsim_texobj_get(d, sh, true));
    assert_null(ptxsim_texobj_get(d, sh, false)); /* a surface is not a texture */
    ptxsim_module_unload(m);
    ptxsim_device_destroy(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_engine_tex_queries_and_faults),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
