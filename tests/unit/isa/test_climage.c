/*
 * OpenCL images in the engine (isa/climage.h): the format table, element
 * decoding and encoding for every channel order (swizzles, replicated
 * intensity and luminance, missing channels, packed 565/555/101010, snorm,
 * half, saturation and round-to-nearest-even), and through PTX the
 * independent-mode tex with a sampler operand (repeat and mirrored repeat,
 * the clamp border colour by order, layer clamping, image and sampler as
 * .texref/.samplerref kernel parameters), sust.p and txq on an
 * OpenCL image, and the faults: a bad sampler value, a separate sampler on
 * a CUDA texture object, sust.p on a CUDA surface.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "isa/climage.h"
#include "isa/texture.h"
#include "runtime/ptxsim.h"

static uint32_t fbits(float f)
{
    uint32_t u;

    memcpy(&u, &f, sizeof(u));
    return u;
}

static void test_climage_formats(void **state)
{
    (void)state;
    assert_int_equal(isa_cl_elem_bytes(ISA_CL_RGBA, ISA_CL_UNORM_INT8), 4);
    assert_int_equal(isa_cl_elem_bytes(ISA_CL_RGBA, ISA_CL_FLOAT), 16);
    assert_int_equal(isa_cl_elem_bytes(ISA_CL_RG, ISA_CL_HALF_FLOAT), 4);
    assert_int_equal(isa_cl_elem_bytes(ISA_CL_RGB, ISA_CL_UNORM_SHORT_565), 2);
    assert_int_equal(isa_cl_elem_bytes(ISA_CL_RGB, ISA_CL_UNORM_INT_101010), 4);
    assert_int_equal(isa_cl_elem_bytes(ISA_CL_RGB, ISA_CL_UNORM_INT8), 0); /* RGB: packed only */
    assert_int_equal(isa_cl_elem_bytes(ISA_CL_RGBA, ISA_CL_UNORM_SHORT_565), 0);
    assert_int_equal(isa_cl_elem_bytes(ISA_CL_BGRA, ISA_CL_UNORM_INT16), 0); /* 8-bit only */
    assert_int_equal(isa_cl_elem_bytes(ISA_CL_INTENSITY, ISA_CL_SIGNED_INT8), 0);
    assert_int_equal(isa_cl_elem_bytes(ISA_CL_LUMINANCE, ISA_CL_UNORM_INT16), 2);
    assert_int_equal(isa_cl_elem_bytes(0x10BA, ISA_CL_FLOAT), 0); /* CL_Rx: not supported */
    assert_true(isa_cl_sampler_valid(0x10));
    assert_true(isa_cl_sampler_valid(0x20 | 0x8 | 1));
    assert_false(isa_cl_sampler_valid(0));    /* no filter */
    assert_false(isa_cl_sampler_valid(0x1A)); /* addressing 5 */
    assert_false(isa_cl_sampler_valid(0x50));
}

static void test_climage_decode(void **state)
{
    const uint8_t bgra[4] = {10, 20, 30, 255}, argb[4] = {40, 1, 2, 3}, sn[1] = {0x80};
    const uint16_t p565 = (uint16_t)(31u << 11 | 0u << 5 | 15u), h = 0x3C00; /* half 1.0 */
    const uint32_t p1010 = 1023u << 20 | 0u << 10 | 511u;
    const int16_t ra[2] = {-5, 300};
    struct isa_texval v;

    (void)state;
    isa_cl_decode(ISA_CL_BGRA, ISA_CL_UNORM_INT8, bgra, &v);
    assert_true(v.f);
    assert_true(v.v[0] == 30.0f / 255.0f && v.v[2] == 10.0f / 255.0f && v.v[3] == 1.0f);
    isa_cl_decode(ISA_CL_ARGB, ISA_CL_UNSIGNED_INT8, argb, &v);
    assert_false(v.f);
    assert_true(v.i[0] == 1 && v.i[1] == 2 && v.i[2] == 3 && v.i[3] == 40);
    isa_cl_decode(ISA_CL_A, ISA_CL_SNORM_INT8, sn, &v); /* -128 reads -1, not below */
    assert_true(v.v[0] == 0.0f && v.v[3] == -1.0f);
    isa_cl_decode(ISA_CL_RGB, ISA_CL_UNORM_SHORT_565, (const uint8_t *)&p565, &v);
    assert_true(v.v[0] == 1.0f && v.v[1] == 0.0f && v.v[2] == 15.0f / 31.0f && v.v[3] == 1.0f);
    isa_cl_decode(ISA_CL_RGB, ISA_CL_UNORM_INT_101010, (const uint8_t *)&p1010, &v);
    assert_true(v.v[0] == 1.0f && v.v[2] == 511.0f / 1023.0f);
    isa_cl_decode(ISA_CL_INTENSITY, ISA_CL_HALF_FLOAT, (const uint8_t *)&h, &v);
    assert_true(v.v[0] == 1.0f && v.v[1] == 1.0f && v.v[2] == 1.0f && v.v[3] == 1.0f);
    isa_cl_decode(ISA_CL_LUMINANCE, ISA_CL_UNORM_INT8, sn, &v);
    assert_true(v.v[0] == 128.0f / 255.0f && v.v[2] == v.v[0] && v.v[3] == 1.0f);
    isa_cl_decode(ISA_CL_RA, ISA_CL_SIGNED_INT16, (const uint8_t *)ra, &v);
    assert_true(v.i[0] == -5 && v.i[1] == 0 && v.i[3] == 300);
    isa_cl_decode(ISA_CL_R, ISA_CL_SIGNED_INT32, (const uint8_t *)ra,
                  &v); /* integer reads: missing alpha 1 */
    assert_true(v.i[3] == 1 && v.i[1] == 0);
}

static void test_climage_encode(void **state)
{
    uint32_t v[4] = {fbits(0.5f), fbits(1.7f), fbits(-0.3f), fbits(NAN)};
    uint32_t iv[4] = {(uint32_t)-300, 5, 70000, 3};
    uint8_t b[16];
    uint16_t p;

    (void)state;
    isa_cl_encode(ISA_CL_RGBA, ISA_CL_UNORM_INT8, v, b);
    assert_int_equal(b[0], 128); /* 127.5 rounds to even */
    assert_int_equal(b[1], 255);
    assert_int_equal(b[2], 0);
    assert_int_equal(b[3], 0); /* NaN writes 0 */
    isa_cl_encode(ISA_CL_BGRA, ISA_CL_SNORM_INT8, v, b);
    assert_int_equal((int8_t)b[2], 64); /* r = rint(63.5) = 64, stored third */
    assert_int_equal((int8_t)b[0], -38);
    isa_cl_encode(ISA_CL_RGBA, ISA_CL_SIGNED_INT8, iv, b);
    assert_int_equal((int8_t)b[0], -128);
    assert_int_equal((int8_t)b[2], 127);
    isa_cl_encode(ISA_CL_RA, ISA_CL_UNSIGNED_INT16, iv, b);
    memcpy(&p, b + 2, 2);
    assert_int_equal(p, 3); /* alpha is stored second */
    memcpy(&p, b, 2);
    assert_int_equal(p, 65535); /* 0xFFFFFED4 as unsigned saturates */
    v[0] = fbits(1.0f), v[1] = fbits(0.5f), v[2] = fbits(0.0f);
    isa_cl_encode(ISA_CL_RGB, ISA_CL_UNORM_SHORT_565, v, (uint8_t *)&p);
    assert_int_equal(p, 31u << 11 | 32u << 5 | 0u); /* 31.5 -> 32 (even) */
    v[0] = fbits(1.0f);
    isa_cl_encode(ISA_CL_R, ISA_CL_HALF_FLOAT, v, (uint8_t *)&p);
    assert_int_equal(p, 0x3C00);
}

#define HDR ".version 8.0\n.target sm_20, texmode_independent\n.address_size 64\n"

/* read: out[i] = tex(img, smp, {x[i], y[i]}) (4 floats per lane); store: sust.p; q: txq. */
static const char ptx[] =
    HDR ".visible .entry rd(.param .u64 out, .param .u64 img, .param .u64 smp, .param .u64 xy)\n"
        "{\n"
        ".reg .b32 %r<4>;\n.reg .b64 %rd<8>;\n.reg .f32 %f<8>;\n"
        "ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [img];\nld.param.u64 %rd3, [smp];\n"
        "ld.param.u64 %rd4, [xy];\nmov.u32 %r1, %tid.x;\nmul.wide.u32 %rd5, %r1, 8;\n"
        "add.s64 %rd5, %rd4, %rd5;\nld.global.v2.f32 {%f1, %f2}, [%rd5];\n"
        "tex.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd2, %rd3, {%f1, %f2}];\n"
        "mul.wide.u32 %rd6, %r1, 16;\nadd.s64 %rd6, %rd1, %rd6;\n"
        "st.global.v4.f32 [%rd6], {%f3, %f4, %f5, %f6};\n"
        "ret;\n}\n"
        ".visible .entry arr(.param .u64 out, .param .u64 img, .param .u64 smp)\n"
        "{\n"
        ".reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n.reg .f32 %f<8>;\n"
        "ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [img];\nld.param.u64 %rd3, [smp];\n"
        "mov.b32 %r1, -4;\nmov.b32 %r2, 9;\nmov.f32 %f1, 0f3F800000;\n"
        "tex.a1d.v4.f32.f32 {%f2, %f3, %f4, %f5}, [%rd2, %rd3, {%r1, %f1}];\n"
        "tex.a1d.v4.f32.f32 {%f6, %f3, %f4, %f5}, [%rd2, %rd3, {%r2, %f1}];\n"
        "st.global.v2.f32 [%rd1], {%f2, %f6};\n"
        "ret;\n}\n"
        ".visible .entry wr(.param .u64 img)\n"
        "{\n"
        ".reg .b32 %r<4>;\n.reg .b64 %rd<2>;\n.reg .f32 %f<4>;\n"
        "ld.param.u64 %rd1, [img];\nmov.b32 %r1, 2;\nmov.b32 %r2, 1;\nmov.b32 %r3, 40;\n"
        "mov.f32 %f1, 0f3F000000;\nmov.f32 %f2, 0f40000000;\n"
        "sust.p.2d.v4.b32.zero [%rd1, {%r1, %r2}], {%f1, %f2, %f1, %f1};\n"
        "sust.p.2d.v4.b32.zero [%rd1, {%r3, %r2}], {%f2, %f2, %f2, %f2};\n"
        "ret;\n}\n"
        ".visible .entry ref(.param .u64 out, .param .texref img, .param .samplerref smp)\n"
        "{\n"
        ".reg .b64 %rd<2>;\n.reg .f32 %f<8>;\n"
        "ld.param.u64 %rd1, [out];\nmov.f32 %f1, 0f3FC00000;\n"
        "tex.2d.v4.f32.f32 {%f2, %f3, %f4, %f5}, [img, smp, {%f1, %f1}];\n"
        "st.global.v4.f32 [%rd1], {%f2, %f3, %f4, %f5};\n"
        "ret;\n}\n"
        ".visible .entry q(.param .u64 out, .param .u64 img)\n"
        "{\n"
        ".reg .b32 %r<4>;\n.reg .b64 %rd<3>;\n"
        "ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [img];\n"
        "txq.channel_order.b32 %r1, [%rd2];\nsuq.channel_data_type.b32 %r2, [%rd2];\n"
        "txq.array_size.b32 %r3, [%rd2];\n"
        "st.global.v4.u32 [%rd1], {%r1, %r2, %r3, %r3};\n"
        "ret;\n}\n";

static const struct ptxsim_dim3 one = {1, 1, 1};

/* A 4 x 2 CL_R (or CL_RGBA when rgba) CL_FLOAT image at data: texel (x, y) = 1 + x + 4y. */
static uint64_t image(struct ptxsim_device *d, uint64_t data, uint32_t order, uint32_t layers)
{
    struct isa_texobj t;
    uint64_t h;

    memset(&t, 0, sizeof(t));
    assert_true(isa_cl_texobj_format(&t, order, ISA_CL_FLOAT));
    t.addr = data;
    t.width = 4, t.height = layers ? 1 : 2, t.depth = 1, t.dims = layers ? 1 : 2;
    t.layers = layers;
    t.pitch = 4 * isa_texel_bytes(&t), t.slice = t.layer_bytes = layers ? t.pitch : 2 * t.pitch;
    assert_int_equal(ptxsim_texobj_create(d, &t, &h), 0);
    return h;
}

static void read_at(struct ptxsim_module *m, struct ptxsim_device *d, uint64_t out, uint64_t img,
                    uint64_t smp, uint64_t xy, const float *c, unsigned n, float *res)
{
    void *args[4] = {&out, &img, &smp, &xy};

    assert_int_equal(ptxsim_memcpy_htod(d, xy, c, n * 8), 0);
    assert_int_equal(ptxsim_launch(m, "rd", one, (struct ptxsim_dim3){n, 1, 1}, 0, args), 0);
    assert_int_equal(ptxsim_memcpy_dtoh(d, res, out, n * 16), 0);
}

static void test_climage_engine(void **state)
{
    struct ptxsim_device *d;
    struct ptxsim_module *m;
    float texels[8], res[4 * 4], big[8 * 4] = {0};
    uint64_t data, rgba, out, xy, r, rg, arr, smp;
    /* repeat nearest at s = -0.1 (x: u = 3.6 -> 3), mirrored nearest at s = 1.2 (u' = 3.2 -> 3) */
    const float c[4 * 2] = {-0.1f, 0.25f, 1.2f, 0.75f, 2.0f, -1.0f, 0.5f, 0.5f};
    uint32_t q[4];

    (void)state;
    for (int i = 0; i < 8; i++)
        texels[i] = (float)(1 + i);
    assert_int_equal(ptxsim_device_create(NULL, &d), 0);
    assert_int_equal(ptxsim_module_load(d, ptx, strlen(ptx), "climage.ptx", &m), 0);
    assert_int_equal(ptxsim_malloc(d, sizeof(big), &rgba), 0);
    assert_int_equal(ptxsim_malloc(d, sizeof(texels), &data), 0);
    assert_int_equal(ptxsim_malloc(d, sizeof(res), &out), 0);
    assert_int_equal(ptxsim_malloc(d, 64, &xy), 0);
    assert_int_equal(ptxsim_memcpy_htod(d, data, texels, sizeof(texels)), 0);
    assert_int_equal(ptxsim_memcpy_htod(d, rgba, big, sizeof(big)), 0);
    r = image(d, data, ISA_CL_R, 0);
    rg = image(d, rgba, ISA_CL_RGBA, 0);
    arr = image(d, data, ISA_CL_R, 2);
    smp = ISA_CLK_NORMALIZED | ISA_CLK_ADDR_REPEAT | ISA_CLK_FILTER_NEAREST;
    read_at(m, d, out, r, smp, xy, c, 1, res);
    assert_true(res[0] == 4.0f && res[3] == 1.0f); /* texel (3, 0); CL_R's alpha 1 */
    smp = ISA_CLK_NORMALIZED | ISA_CLK_ADDR_MIRRORED_REPEAT | ISA_CLK_FILTER_NEAREST;
    read_at(m, d, out, r, smp, xy, c + 2, 1, res); /* y 0.75 -> 1.5 -> 1: texel (3, 1) */
    assert_true(res[0] == 8.0f);
    /* clamp: outside reads the border colour, alpha 1 for CL_R and 0 for CL_RGBA */
    smp = ISA_CLK_ADDR_CLAMP | ISA_CLK_FILTER_NEAREST;
    read_at(m, d, out, r, smp, xy, c + 4, 1, res);
    assert_true(res[0] == 0.0f && res[3] == 1.0f);
    read_at(m, d, out, rg, smp, xy, c + 4, 1, res);
    assert_true(res[3] == 0.0f);
    /* linear, clamp_to_edge, unnormalized at (0.5, 0.5): exactly texel (0, 0) */
    smp = ISA_CLK_ADDR_CLAMP_TO_EDGE | ISA_CLK_FILTER_LINEAR;
    read_at(m, d, out, r, smp, xy, c + 6, 1, res);
    assert_true(res[0] == 1.0f);
    /* layers clamp to [0, layers - 1]: -4 -> 0, 9 -> 1 */
    {
        void *args[3] = {&out, &arr, &smp};

        smp = ISA_CLK_FILTER_NEAREST;
        assert_int_equal(ptxsim_launch(m, "arr", one, one, 0, args), 0);
        assert_int_equal(ptxsim_memcpy_dtoh(d, res, out, 8), 0);
        assert_true(res[0] == 2.0f && res[1] == 6.0f);
    }
    /* sust.p converts to the format; x counts elements; out of range with .zero is dropped */
    {
        void *args[1] = {&rg};

        assert_int_equal(ptxsim_launch(m, "wr", one, one, 0, args), 0);
        assert_int_equal(ptxsim_memcpy_dtoh(d, big, rgba, sizeof(big)), 0);
        assert_true(big[(4 + 2) * 4 + 0] == 0.5f && big[(4 + 2) * 4 + 1] == 2.0f);
    }
    {
        void *args[2] = {&out, &arr};

        assert_int_equal(ptxsim_launch(m, "q", one, one, 0, args), 0);
        assert_int_equal(ptxsim_memcpy_dtoh(d, q, out, sizeof(q)), 0);
        assert_int_equal(q[0], ISA_CL_R);
        assert_int_equal(q[1], ISA_CL_FLOAT);
        assert_int_equal(q[2], 2);
    }
    /* .texref and .samplerref kernel parameters: texel (1, 1) */
    {
        void *args[3] = {&out, &r, &smp};

        smp = ISA_CLK_FILTER_NEAREST;
        assert_int_equal(ptxsim_launch(m, "ref", one, one, 0, args), 0);
        assert_int_equal(ptxsim_memcpy_dtoh(d, res, out, 16), 0);
        assert_true(res[0] == 6.0f);
    }
    /* faults: a value that is no sampler */
    smp = 0x7;
    {
        void *args[4] = {&out, &r, &smp, &xy};

        assert_int_equal(ptxsim_launch(m, "rd", one, one, 0, args), PS_EINVAL);
        assert_non_null(strstr(ptxsim_last_error_info(d)->msg, "not an OpenCL sampler"));
        ptxsim_clear_fault(d);
    }
    ptxsim_module_unload(m);
    ptxsim_device_destroy(d);
}

/* A separate sampler on a CUDA texture object, and sust.p on a CUDA surface: refused by name. */
static void test_climage_cuda_objects(void **state)
{
    struct ptxsim_device *d;
    struct ptxsim_module *m;
    struct isa_texobj t;
    uint64_t data, out, xy, th, sh, smp = 0x10;

    (void)state;
    assert_int_equal(ptxsim_device_create(NULL, &d), 0);
    assert_int_equal(ptxsim_module_load(d, ptx, strlen(ptx), "climage.ptx", &m), 0);
    assert_int_equal(ptxsim_malloc(d, 256, &data), 0);
    assert_int_equal(ptxsim_malloc(d, 64, &out), 0);
    assert_int_equal(ptxsim_malloc(d, 64, &xy), 0);
    memset(&t, 0, sizeof(t));
    t.addr = data, t.width = 4, t.height = 2, t.depth = 1, t.dims = 2, t.pitch = 16;
    t.slice = 32, t.nchan = 4, t.chan_bits = 32, t.kind = ISA_TEXK_FLOAT;
    assert_int_equal(ptxsim_texobj_create(d, &t, &th), 0);
    t.surface = true;
    assert_int_equal(ptxsim_texobj_create(d, &t, &sh), 0);
    {
        void *args[4] = {&out, &th, &smp, &xy};

        assert_int_equal(ptxsim_launch(m, "rd", one, one, 0, args), PS_ENOTSUP);
        assert_non_null(strstr(ptxsim_last_error_info(d)->msg, "OpenCL images only"));
        ptxsim_clear_fault(d);
    }
    {
        void *args[1] = {&sh};

        assert_int_equal(ptxsim_launch(m, "wr", one, one, 0, args), PS_ENOTSUP);
        assert_non_null(strstr(ptxsim_last_error_info(d)->msg, "formatted surface access"));
        ptxsim_clear_fault(d);
    }
    ptxsim_module_unload(m);
    ptxsim_device_destroy(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_climage_formats),      cmocka_unit_test(test_climage_decode),
        cmocka_unit_test(test_climage_encode),       cmocka_unit_test(test_climage_engine),
        cmocka_unit_test(test_climage_cuda_objects),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
