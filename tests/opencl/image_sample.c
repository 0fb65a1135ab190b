/*
 * Image reads through samplers (OpenCL 1.2 section 8.2): a 4x3 CL_RGBA
 * CL_FLOAT image sampled with every valid sampler (normalized or not; none,
 * clamp_to_edge, clamp, repeat, mirrored_repeat; nearest, linear) at
 * coordinates inside, between and outside the texels, each result checked
 * against a host implementation of the specification's formulas (exact:
 * both compute them in single precision in the same order) and printed for
 * the comparison with PoCL. Also: integer coordinates, sampler-less reads,
 * in-kernel constant samplers (program scope and local), CL_R's border
 * colour (alpha 1), read_imagef on CL_BGRA CL_UNORM_INT8, read_imagei on
 * CL_SIGNED_INT16, read_imageui on CL_A CL_UNSIGNED_INT8, a linear read of
 * a 3D image, and 1D, 1D array, 2D array and 1D buffer images; all but the
 * sampler sweep again from SPIR-V.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

/* OpenCL 2.1, exported by ocl-icd; harness.h targets 1.2, which does not declare it. */
extern CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithIL(cl_context, const void *, size_t,
                                                                 cl_int *);

#define W 4
#define H 3

static const char *src =
    "__constant sampler_t g_mirror = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_MIRRORED_REPEAT |\n"
    "                               CLK_FILTER_LINEAR;\n"
    "__kernel void sample(read_only image2d_t img, sampler_t s, __global const float2 *c,\n"
    "                     __global float4 *out) {\n"
    "    int i = get_global_id(0);\n"
    "    out[i] = read_imagef(img, s, c[i]);\n"
    "}\n"
    "__kernel void sample_int(read_only image2d_t img, sampler_t s, __global const int2 *c,\n"
    "                         __global float4 *out) {\n"
    "    int i = get_global_id(0);\n"
    "    out[i] = read_imagef(img, s, c[i]);\n"
    "}\n"
    "__kernel void consts(read_only image2d_t img, __global float4 *out) {\n"
    "    const sampler_t edge = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE |\n"
    "                           CLK_FILTER_NEAREST;\n"
    "    out[0] = read_imagef(img, g_mirror, (float2)(1.3f, -0.4f));\n"
    "    out[1] = read_imagef(img, edge, (float2)(7.5f, 1.5f));\n"
    "    out[2] = read_imagef(img, (int2)(2, 1));\n"
    "}\n"
    "__kernel void formats(read_only image2d_t bgra, read_only image2d_t r,\n"
    "                      read_only image2d_t si, read_only image2d_t ui, sampler_t lin,\n"
    "                      sampler_t clampn, __global float4 *f, __global int4 *i,\n"
    "                      __global uint4 *u) {\n"
    "    f[0] = read_imagef(bgra, clampn, (int2)(1, 0));\n"
    "    f[1] = read_imagef(bgra, lin, (float2)(1.25f, 0.75f));\n"
    "    f[2] = read_imagef(r, clampn, (int2)(-1, 0));\n"
    "    f[3] = read_imagef(r, clampn, (int2)(1, 1));\n"
    "    i[0] = read_imagei(si, clampn, (int2)(1, 1));\n"
    "    i[1] = read_imagei(si, clampn, (int2)(5, 1));\n"
    "    u[0] = read_imageui(ui, clampn, (int2)(0, 1));\n"
    "    u[1] = read_imageui(ui, (int2)(1, 0));\n"
    "}\n"
    "__kernel void dims(read_only image3d_t v, read_only image1d_t a, read_only image1d_array_t b,\n"
    "                   read_only image2d_array_t c, read_only image1d_buffer_t d,\n"
    "                   sampler_t lin, sampler_t near, sampler_t ulin, __global float4 *f) {\n"
    "    f[0] = read_imagef(v, lin, (float4)(0.3f, 0.6f, 0.7f, 0.0f));\n"
    "    f[1] = read_imagef(a, near, 2.5f);\n"
    "    f[2] = read_imagef(b, near, (float2)(1.5f, 0.8f));\n"
    "    f[3] = read_imagef(c, ulin, (float4)(1.0f, 1.5f, 1.6f, 0.0f));\n"
    "    f[4] = read_imagef(c, near, (float4)(1.0f, 1.0f, 7.0f, 0.0f));\n"
    "    f[5] = read_imagef(d, 3);\n"
    "}\n";

static float texel(int x, int y, int c)
{
    return 1.0f + (float)x + 4.0f * (float)y + 16.0f * (float)c;
}

/* ---- the host reference: OpenCL 1.2 section 8.2 for the W x H CL_RGBA CL_FLOAT image ---- */

static int clampi(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* The value of texel (i, j) channel c, or the border colour (CL_RGBA: 0) when outside. */
static float ref_t(int i, int j, int c)
{
    return i < 0 || j < 0 || i >= W || j >= H ? 0.0f : texel(i, j, c);
}

/* Index and weight along one dimension of n texels; lin picks the linear formulas. */
static void ref_dim(float s, int n, int norm, cl_addressing_mode am, int lin, int *i0, int *i1,
                    float *a)
{
    float u;

    if (am == CL_ADDRESS_REPEAT) {
        u = (s - floorf(s)) * (float)n;
    } else if (am == CL_ADDRESS_MIRRORED_REPEAT) {
        u = fabsf(s - 2.0f * rintf(0.5f * s)) * (float)n;
    } else {
        u = norm ? s * (float)n : s;
    }
    *a = lin ? (u - 0.5f) - floorf(u - 0.5f) : 0.0f;
    *i0 = lin ? (int)floorf(u - 0.5f) : (int)floorf(u);
    *i1 = *i0 + 1;
    if (am == CL_ADDRESS_REPEAT) {
        if (!lin) {
            *i0 = *i0 > n - 1 ? *i0 - n : *i0;
        } else {
            *i0 = *i0 < 0 ? *i0 + n : *i0;
            *i1 = *i1 > n - 1 ? *i1 - n : *i1;
        }
    } else if (am == CL_ADDRESS_MIRRORED_REPEAT) {
        *i0 = lin ? (*i0 < 0 ? 0 : *i0) : (*i0 > n - 1 ? n - 1 : *i0);
        *i1 = *i1 > n - 1 ? n - 1 : *i1;
    } else if (am == CL_ADDRESS_CLAMP) {
        *i0 = clampi(*i0, -1, n);
        *i1 = clampi(*i1, -1, n);
    } else {
        *i0 = clampi(*i0, 0, n - 1);
        *i1 = clampi(*i1, 0, n - 1);
    }
}

static float ref_sample(float x, float y, int c, int norm, cl_addressing_mode am, int lin)
{
    int i0, i1, j0, j1;
    float a, b;

    ref_dim(x, W, norm, am, lin, &i0, &i1, &a);
    ref_dim(y, H, norm, am, lin, &j0, &j1, &b);
    if (!lin)
        return ref_t(i0, j0, c);
    return (1 - a) * (1 - b) * ref_t(i0, j0, c) + a * (1 - b) * ref_t(i1, j0, c) +
           (1 - a) * b * ref_t(i0, j1, c) + a * b * ref_t(i1, j1, c);
}

static cl_mem image2d(struct h_env *h, cl_channel_order o, cl_channel_type t, size_t w, size_t hh,
                      void *data)
{
    cl_image_format f = {o, t};
    cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = w, .image_height = hh};
    cl_int rc;
    cl_mem m = clCreateImage(h->ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &f, &d, data, &rc);

    h_check(rc, "clCreateImage");
    return m;
}

static cl_sampler sampler(struct h_env *h, cl_bool norm, cl_addressing_mode am, cl_filter_mode fm)
{
    cl_int rc;
    cl_sampler s = clCreateSampler(h->ctx, norm, am, fm, &rc);

    h_check(rc, "clCreateSampler");
    return s;
}

/* Whether the device is ptxsim's GPU (its CPU device runs kernels on PoCL). */
static int ptxsim_gpu(struct h_env *h)
{
    cl_device_type t = 0;

    h_check(clGetDeviceInfo(h->dev, CL_DEVICE_TYPE, sizeof(t), &t, NULL), "device type");
    return h_is_ptxsim(h) && (t & CL_DEVICE_TYPE_GPU);
}

static void run(struct h_env *h, cl_kernel k, size_t n)
{
    h_check(clEnqueueNDRangeKernel(h->q, k, 1, NULL, &n, NULL, 0, NULL, NULL), "launch");
    h_check(clFinish(h->q), "clFinish");
}

#define NC 14
static const float ux[NC] = {-1.3f, -0.5f, 0.0f,  0.25f, 0.5f, 0.9f, 1.7f,
                             2.5f,  3.0f,  3.99f, 4.0f,  4.6f, 5.2f, 9.4f};

/* Every sampler at every coordinate pair (ux[i], ux[j] * H / W), against the reference. */
static void samplers(struct h_env *h, cl_program p, cl_mem img)
{
    static const cl_addressing_mode am[] = {CL_ADDRESS_NONE, CL_ADDRESS_CLAMP_TO_EDGE,
                                            CL_ADDRESS_CLAMP, CL_ADDRESS_REPEAT,
                                            CL_ADDRESS_MIRRORED_REPEAT};
    cl_float2 c[NC * NC];
    cl_float4 out[NC * NC];
    cl_kernel k = h_kernel(p, "sample");
    cl_mem cb = h_buffer(h, CL_MEM_READ_WRITE, sizeof(c), NULL);
    cl_mem ob = h_buffer(h, CL_MEM_READ_WRITE, sizeof(out), NULL);
    int bad = 0;
    char tag[64];

    for (int norm = 0; norm < 2; norm++) {
        for (int m = 0; m < 5; m++) {
            for (int lin = 0; lin < 2; lin++) {
                cl_sampler s;

                if (!norm && m >= 3)
                    continue; /* repeat modes need normalized coordinates */
                s = sampler(h, norm, am[m], lin ? CL_FILTER_LINEAR : CL_FILTER_NEAREST);
                for (int i = 0; i < NC; i++) {
                    for (int j = 0; j < NC; j++) {
                        float x = ux[i], y = ux[j] * (float)H / (float)W;

                        /* none: only coordinates whose every texel is inside (8.2) */
                        if (am[m] == CL_ADDRESS_NONE &&
                            (x < 1.0f || x > 3.0f || y < 0.9f || y > 2.0f))
                            x = 1.5f, y = 1.25f;
                        c[i * NC + j].s[0] = norm ? x / W : x;
                        c[i * NC + j].s[1] = norm ? y / H : y;
                    }
                }
                h_check(clEnqueueWriteBuffer(h->q, cb, CL_TRUE, 0, sizeof(c), c, 0, NULL, NULL),
                        "write coords");
                h_check(clSetKernelArg(k, 0, sizeof(img), &img), "arg0");
                h_check(clSetKernelArg(k, 1, sizeof(s), &s), "arg1");
                h_check(clSetKernelArg(k, 2, sizeof(cb), &cb), "arg2");
                h_check(clSetKernelArg(k, 3, sizeof(ob), &ob), "arg3");
                run(h, k, NC * NC);
                h_read(h, ob, sizeof(out), out);
                for (int i = 0; i < NC * NC; i++) {
                    for (int ch = 0; ch < 4; ch++) {
                        float want = ref_sample(c[i].s[0], c[i].s[1], ch, norm, am[m], lin);

                        if (memcmp(&want, &out[i].s[ch], sizeof(float)) && bad++ < 5)
                            fprintf(stderr,
                                    "norm %d mode %d lin %d at (%g, %g) ch %d: %g, want %g\n", norm,
                                    m, lin, c[i].s[0], c[i].s[1], ch, out[i].s[ch], want);
                        snprintf(tag, sizeof(tag), "s%d%d%d_%d_%d", norm, m, lin, i, ch);
                        h_out_f(tag, out[i].s[ch], lin ? 4 : 0);
                    }
                }
                clReleaseSampler(s);
            }
        }
    }
    h_out_chk("samplers_match_reference", bad == 0);
    clReleaseMemObject(cb);
    clReleaseMemObject(ob);
    clReleaseKernel(k);
}

static void out4(const char *what, int n, const cl_float4 *v, int ulp)
{
    char tag[64];

    for (int i = 0; i < n; i++) {
        for (int c = 0; c < 4; c++) {
            snprintf(tag, sizeof(tag), "%s%d_%d", what, i, c);
            h_out_f(tag, v[i].s[c], ulp);
        }
    }
}

/* Integer coordinates with clamp (border outside) and clamp_to_edge; in-kernel samplers. */
static void int_coords(struct h_env *h, cl_program p, cl_mem img)
{
    static const cl_int2 c[6] = {{{0, 0}}, {{3, 2}}, {{-1, 1}}, {{4, 0}}, {{2, -3}}, {{1, 5}}};
    cl_float4 out[6], cout[3];
    cl_kernel k = h_kernel(p, "sample_int"), kc = h_kernel(p, "consts");
    cl_mem cb = h_buffer(h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(c), (void *)c);
    cl_mem ob = h_buffer(h, CL_MEM_READ_WRITE, sizeof(out), NULL);
    int bad = 0;

    for (int m = 0; m < 2; m++) {
        cl_sampler s = sampler(h, CL_FALSE, m ? CL_ADDRESS_CLAMP_TO_EDGE : CL_ADDRESS_CLAMP,
                               CL_FILTER_NEAREST);

        h_check(clSetKernelArg(k, 0, sizeof(img), &img), "arg0");
        h_check(clSetKernelArg(k, 1, sizeof(s), &s), "arg1");
        h_check(clSetKernelArg(k, 2, sizeof(cb), &cb), "arg2");
        h_check(clSetKernelArg(k, 3, sizeof(ob), &ob), "arg3");
        run(h, k, 6);
        h_read(h, ob, sizeof(out), out);
        for (int i = 0; i < 6; i++) {
            int x = c[i].s[0], y = c[i].s[1];
            int in = x >= 0 && y >= 0 && x < W && y < H;

            for (int ch = 0; ch < 4; ch++) {
                float want = m    ? texel(clampi(x, 0, W - 1), clampi(y, 0, H - 1), ch)
                             : in ? texel(x, y, ch)
                                  : 0.0f;

                bad += want != out[i].s[ch];
            }
        }
        out4(m ? "ie" : "ic", 6, out, 0);
        clReleaseSampler(s);
    }
    h_out_chk("int_coords_match_reference", bad == 0);
    h_check(clSetKernelArg(kc, 0, sizeof(img), &img), "arg0");
    h_check(clSetKernelArg(kc, 1, sizeof(ob), &ob), "arg1");
    run(h, kc, 1);
    h_read(h, ob, sizeof(cout), cout);
    out4("const", 3, cout, 4);
    h_out_chk("const_mirror",
              cout[0].s[1] == ref_sample(1.3f, -0.4f, 1, 1, CL_ADDRESS_MIRRORED_REPEAT, 1));
    h_out_chk("const_edge", cout[1].s[0] == texel(3, 1, 0));
    h_out_chk("no_sampler", cout[2].s[2] == texel(2, 1, 2));
    clReleaseMemObject(cb);
    clReleaseMemObject(ob);
    clReleaseKernel(k);
    clReleaseKernel(kc);
}

static void set_args(cl_kernel k, int n, const cl_mem *args)
{
    for (int i = 0; i < n; i++)
        h_check(clSetKernelArg(k, (cl_uint)i, sizeof(cl_mem), &args[i]), "clSetKernelArg");
}

/* Channel orders and types: conversions, swizzles, border colours, integer reads. */
static void formats(struct h_env *h, cl_program p)
{
    cl_uchar bgra[2 * 2 * 4] = {10, 20,  30,  40,  50,  60,  70,  80,
                                90, 100, 110, 120, 130, 140, 150, 255};
    cl_float r[2 * 2] = {0.5f, 1.5f, 2.5f, 3.5f};
    cl_short si[2 * 2 * 4] = {-1, 2, -300, 4, 5, -6, 7, -8, 9, 10, 11, 12, -32768, 32767, 0, 1};
    cl_uchar ui[2 * 2] = {1, 2, 250, 251};
    cl_mem im[4] = {image2d(h, CL_BGRA, CL_UNORM_INT8, 2, 2, bgra),
                    image2d(h, CL_R, CL_FLOAT, 2, 2, r),
                    image2d(h, CL_RGBA, CL_SIGNED_INT16, 2, 2, si),
                    image2d(h, CL_A, CL_UNSIGNED_INT8, 2, 2, ui)};
    cl_sampler lin = sampler(h, CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_LINEAR);
    cl_sampler cn = sampler(h, CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST);
    cl_mem fb = h_buffer(h, CL_MEM_READ_WRITE, 4 * sizeof(cl_float4), NULL);
    cl_mem ib = h_buffer(h, CL_MEM_READ_WRITE, 2 * sizeof(cl_int4), NULL);
    cl_mem ub = h_buffer(h, CL_MEM_READ_WRITE, 2 * sizeof(cl_uint4), NULL);
    cl_kernel k = h_kernel(p, "formats");
    cl_float4 f[4];
    cl_int4 iv[2];
    cl_uint4 uv[2];
    char tag[32];

    set_args(k, 4, im);
    h_check(clSetKernelArg(k, 4, sizeof(lin), &lin), "arg4");
    h_check(clSetKernelArg(k, 5, sizeof(cn), &cn), "arg5");
    h_check(clSetKernelArg(k, 6, sizeof(fb), &fb), "arg6");
    h_check(clSetKernelArg(k, 7, sizeof(ib), &ib), "arg7");
    h_check(clSetKernelArg(k, 8, sizeof(ub), &ub), "arg8");
    run(h, k, 1);
    h_read(h, fb, sizeof(f), f);
    h_read(h, ib, sizeof(iv), iv);
    h_read(h, ub, sizeof(uv), uv);
    for (int i = 0; i < 2; i++) {
        for (int c = 0; c < 4; c++) {
            snprintf(tag, sizeof(tag), "si%d_%d", i, c);
            h_out_i(tag, iv[i].s[c]);
            snprintf(tag, sizeof(tag), "ui%d_%d", i, c);
            h_out_i(tag, uv[i].s[c]);
        }
    }
    /* texel (1, 0) of the BGRA image is stored (b, g, r, a) = (50, 60, 70, 80) */
    h_out_chk("bgra_swizzle", fabsf(f[0].s[0] - 70.0f / 255.0f) < 1e-6f &&
                                  fabsf(f[0].s[2] - 50.0f / 255.0f) < 1e-6f);
    /* CL_R's border colour is (0, 0, 0, 1) (8.2); PoCL 3.1 returns alpha 0, so only ptxsim's
     * GPU device is checked (its CPU device is PoCL), and the value is not printed for the
     * comparison. */
    h_out_chk("r_border_alpha_1", !ptxsim_gpu(h) || (f[2].s[0] == 0.0f && f[2].s[3] == 1.0f));
    f[2].s[3] = 0.0f;
    out4("fmt", 4, f, 2);
    h_out_chk("r_missing_channels", f[3].s[0] == 3.5f && f[3].s[1] == 0.0f && f[3].s[3] == 1.0f);
    h_out_chk("int_border", iv[1].s[0] == 0 && iv[1].s[3] == 0);
    h_out_chk("uint_a", uv[0].s[0] == 0 && uv[0].s[3] == 250 && uv[1].s[3] == 2);
    for (int i = 0; i < 4; i++)
        clReleaseMemObject(im[i]);
    clReleaseMemObject(fb);
    clReleaseMemObject(ib);
    clReleaseMemObject(ub);
    clReleaseSampler(lin);
    clReleaseSampler(cn);
    clReleaseKernel(k);
}

static cl_mem image(struct h_env *h, cl_mem_object_type t, size_t w, size_t hh, size_t d,
                    size_t arr, cl_mem buf, void *data)
{
    cl_image_format f = {CL_R, CL_FLOAT};
    cl_image_desc desc = {.image_type = t,
                          .image_width = w,
                          .image_height = hh,
                          .image_depth = d,
                          .image_array_size = arr,
                          .buffer = buf};
    cl_int rc;
    cl_mem m = clCreateImage(h->ctx, CL_MEM_READ_ONLY | (data ? CL_MEM_COPY_HOST_PTR : 0), &f,
                             &desc, data, &rc);

    h_check(rc, "clCreateImage");
    return m;
}

/* 3D, 1D, 1D array, 2D array and 1D buffer images of CL_R CL_FLOAT values v[i] = i. */
static void dims(struct h_env *h, cl_program p)
{
    float v[64];
    cl_mem im[5], fb, vb;
    cl_sampler lin = sampler(h, CL_TRUE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_LINEAR);
    cl_sampler near = sampler(h, CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST);
    cl_sampler ulin = sampler(h, CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_LINEAR);
    cl_kernel k = h_kernel(p, "dims");
    cl_float4 f[6];
    float a, b, c, want = 0;

    for (int i = 0; i < 64; i++)
        v[i] = (float)i;
    vb = h_buffer(h, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(v), v);
    fb = h_buffer(h, CL_MEM_READ_WRITE, sizeof(f), NULL);
    im[0] = image(h, CL_MEM_OBJECT_IMAGE3D, 4, 2, 3, 0, NULL, v);
    im[1] = image(h, CL_MEM_OBJECT_IMAGE1D, 8, 0, 0, 0, NULL, v);
    im[2] = image(h, CL_MEM_OBJECT_IMAGE1D_ARRAY, 4, 0, 0, 3, NULL, v);
    im[3] = image(h, CL_MEM_OBJECT_IMAGE2D_ARRAY, 2, 3, 0, 4, NULL, v);
    im[4] = image(h, CL_MEM_OBJECT_IMAGE1D_BUFFER, 16, 0, 0, 0, vb, NULL);
    set_args(k, 5, im);
    h_check(clSetKernelArg(k, 5, sizeof(lin), &lin), "arg5");
    h_check(clSetKernelArg(k, 6, sizeof(near), &near), "arg6");
    h_check(clSetKernelArg(k, 7, sizeof(ulin), &ulin), "arg7");
    h_check(clSetKernelArg(k, 8, sizeof(fb), &fb), "arg8");
    run(h, k, 1);
    h_read(h, fb, sizeof(f), f);
    out4("dim", 6, f, 4);
    /* 3D linear at (0.3, 0.6, 0.7) normalized over 4 x 2 x 3: u = 0.7, v = 0.7, w = 1.6 */
    a = (0.3f * 4 - 0.5f) - floorf(0.3f * 4 - 0.5f);
    b = (0.6f * 2 - 0.5f) - floorf(0.6f * 2 - 0.5f);
    c = (0.7f * 3 - 0.5f) - floorf(0.7f * 3 - 0.5f);
    for (int corner = 0; corner < 8; corner++) {
        int x = corner & 1, y = corner >> 1 & 1, z = 1 + (corner >> 2 & 1);
        float w = (x ? a : 1 - a) * (y ? b : 1 - b) * (z > 1 ? c : 1 - c);

        want += w * v[z * 8 + y * 4 + x];
    }
    h_out_chk("3d_linear", fabsf(f[0].s[0] - want) <= 1e-5f * want);
    h_out_chk("1d", f[1].s[0] == 2.0f);
    h_out_chk("1d_array_layer_rint", f[2].s[0] == 5.0f);     /* layer rint(0.8) = 1, x 1 */
    h_out_chk("2d_array_layer", f[3].s[0] == 14.5f);         /* layer 2 between (0, 1) and (1, 1) */
    h_out_chk("2d_array_layer_clamped", f[4].s[0] == 21.0f); /* layer 3, x 1, y 1 */
    h_out_chk("1d_buffer", f[5].s[0] == 3.0f);
    for (int i = 0; i < 5; i++)
        clReleaseMemObject(im[i]);
    clReleaseMemObject(vb);
    clReleaseMemObject(fb);
    clReleaseSampler(lin);
    clReleaseSampler(near);
    clReleaseSampler(ulin);
    clReleaseKernel(k);
}

/* The program from SPIR-V (clang-14 -target spir64, llvm-spirv-14) when the platform takes
 * IL and the tools exist, else from source: the same lines either way. */
static cl_program il_program(struct h_env *h)
{
    size_t len = 0;
    unsigned char *il = h_offline(src, "-target spir64 -O2", 1, &len);
    cl_program p;
    cl_int rc;

    if (!il || !h_has_ext(h, "cl_khr_il_program")) {
        fprintf(stderr, "note: no SPIR-V or no IL support: building the source again\n");
        free(il);
        return h_build(h, src, NULL);
    }
    p = clCreateProgramWithIL(h->ctx, il, len, &rc);
    h_check(rc, "clCreateProgramWithIL");
    h_check(clBuildProgram(p, 1, &h->dev, NULL, NULL, NULL), "build from IL");
    free(il);
    return p;
}

int main(void)
{
    struct h_env h;
    float data[W * H * 4];
    cl_program p;
    cl_mem img;

    h_init(&h);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            for (int c = 0; c < 4; c++)
                data[(y * W + x) * 4 + c] = texel(x, y, c);
    p = h_build(&h, src, NULL);
    img = image2d(&h, CL_RGBA, CL_FLOAT, W, H, data);
    samplers(&h, p, img);
    int_coords(&h, p, img);
    formats(&h, p);
    dims(&h, p);
    clReleaseProgram(p);
    p = il_program(&h); /* image types, samplers and built-ins through the SPIR-V route */
    int_coords(&h, p, img);
    formats(&h, p);
    dims(&h, p);
    clReleaseMemObject(img);
    clReleaseProgram(p);
    h_done(&h);
    return 0;
}
