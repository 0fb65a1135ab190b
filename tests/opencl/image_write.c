/*
 * Image writes, queries and commands (OpenCL 1.2 sections 5.3 and 6.12.14):
 * write_imagef with the conversions to CL_UNORM_INT8 (round to nearest even,
 * saturation) and CL_HALF_FLOAT, write_imagei to CL_SIGNED_INT8 and
 * write_imageui to CL_UNSIGNED_INT16 (saturation), write_imagef to a 1D
 * array; get_image_width/height/depth/dim/channel_data_type/channel_order/
 * array_size in a kernel; clGetImageInfo; clEnqueueRead/WriteImage with
 * pitches and offsets, clEnqueueCopyImage, clEnqueueFillImage,
 * clEnqueueCopyImageToBuffer/BufferToImage and clEnqueueMapImage. The API's
 * errors are image_errors.c's.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"

static const char *src =
    "__kernel void writes(write_only image2d_t u8, write_only image2d_t h,\n"
    "                     write_only image2d_t s8, write_only image2d_t u16,\n"
    "                     write_only image1d_array_t arr, __global const float4 *v) {\n"
    "    int x = get_global_id(0);\n"
    "    write_imagef(u8, (int2)(x, 1), v[x]);\n"
    "    write_imagef(h, (int2)(x, 0), v[x] * 1000.0f);\n"
    "    write_imagei(s8, (int2)(x, 0), convert_int4(v[x] * 100.0f));\n"
    "    write_imageui(u16, (int2)(x, 0), (uint4)(x * 30000, x, 70000, 7));\n"
    "    write_imagef(arr, (int2)(x, 1), v[x]);\n"
    "}\n"
    "__kernel void queries(read_only image2d_t a, read_only image3d_t b,\n"
    "                      read_only image2d_array_t c, write_only image2d_t d,\n"
    "                      __global int *out) {\n"
    "    int2 dim = get_image_dim(a);\n"
    "    int4 dim3 = get_image_dim(b);\n"
    "    out[0] = get_image_width(a);\n"
    "    out[1] = get_image_height(a);\n"
    "    out[2] = dim.x * 1000 + dim.y;\n"
    "    out[3] = get_image_depth(b);\n"
    "    out[4] = dim3.x * 10000 + dim3.y * 100 + dim3.z + dim3.w;\n"
    "    out[5] = (int)get_image_array_size(c);\n"
    "    out[6] = get_image_channel_order(a) == CLK_RGBA;\n"
    "    out[7] = get_image_channel_data_type(a) == CLK_UNORM_INT8;\n"
    "    out[8] = get_image_channel_order(d) == CLK_BGRA;\n"
    "    out[9] = get_image_channel_data_type(c) == CLK_FLOAT;\n"
    "    out[10] = get_image_width(d);\n"
    "}\n";

#define N 8

/* convert_uchar_sat_rte(f * 255.0f), the reference of write_imagef to CL_UNORM_INT8 (8.3.1.1). */
static int u8ref(float f)
{
    float x = rintf(f * 255.0f);

    return x < 0 ? 0 : x > 255 ? 255 : (int)x;
}

static cl_mem mk(struct h_env *h, cl_mem_flags fl, cl_channel_order o, cl_channel_type t,
                 cl_mem_object_type ty, size_t w, size_t hh, size_t d, size_t arr)
{
    cl_image_format f = {o, t};
    cl_image_desc desc = {.image_type = ty,
                          .image_width = w,
                          .image_height = hh,
                          .image_depth = d,
                          .image_array_size = arr};
    cl_int rc;
    cl_mem m = clCreateImage(h->ctx, fl, &f, &desc, NULL, &rc);

    h_check(rc, "clCreateImage");
    return m;
}

static void read2d(struct h_env *h, cl_mem m, size_t w, size_t hh, void *p)
{
    size_t o[3] = {0, 0, 0}, r[3] = {w, hh, 1};

    h_check(clEnqueueReadImage(h->q, m, CL_TRUE, o, r, 0, 0, p, 0, NULL, NULL), "read image");
}

static void writes(struct h_env *h, cl_program p)
{
    cl_float4 v[N] = {{{0.0f, 0.5f, 1.0f, -0.2f}},
                      {{1.5f, 0.00196f, 0.998f, 0.25f}},
                      {{0.1f, 0.2f, 0.3f, 0.4f}},
                      {{0.5f / 255, 1.5f / 255, 2.5f / 255, 1}},
                      {{-1.0f, 0.75f, 0.33f, 0.66f}},
                      {{0.9f, 0.01f, 0.02f, 0.03f}},
                      {{1.0f / 3, 2.0f / 3, 0.999f, 0.001f}},
                      {{0.45f, 0.55f, 0.65f, 0.75f}}};
    cl_mem im[5] = {
        mk(h, CL_MEM_READ_WRITE, CL_RGBA, CL_UNORM_INT8, CL_MEM_OBJECT_IMAGE2D, N, 2, 0, 0),
        mk(h, CL_MEM_WRITE_ONLY, CL_RGBA, CL_HALF_FLOAT, CL_MEM_OBJECT_IMAGE2D, N, 1, 0, 0),
        mk(h, CL_MEM_WRITE_ONLY, CL_RGBA, CL_SIGNED_INT8, CL_MEM_OBJECT_IMAGE2D, N, 1, 0, 0),
        mk(h, CL_MEM_WRITE_ONLY, CL_RGBA, CL_UNSIGNED_INT16, CL_MEM_OBJECT_IMAGE2D, N, 1, 0, 0),
        mk(h, CL_MEM_WRITE_ONLY, CL_R, CL_FLOAT, CL_MEM_OBJECT_IMAGE1D_ARRAY, N, 0, 0, 3)};
    cl_mem vb = h_buffer(h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(v), v);
    cl_kernel k = h_kernel(p, "writes");
    cl_uchar u8[2][N][4];
    cl_ushort half[N][4], u16[N][4];
    cl_char s8[N][4];
    float arr[3][N];
    size_t n = N, o[3] = {0, 0, 0}, r[3] = {N, 3, 1};
    char tag[32];

    for (int i = 0; i < 5; i++)
        h_check(clSetKernelArg(k, (cl_uint)i, sizeof(cl_mem), &im[i]), "arg");
    h_check(clSetKernelArg(k, 5, sizeof(vb), &vb), "arg5");
    h_check(clEnqueueNDRangeKernel(h->q, k, 1, NULL, &n, NULL, 0, NULL, NULL), "launch");
    read2d(h, im[0], N, 2, u8);
    read2d(h, im[1], N, 1, half);
    read2d(h, im[2], N, 1, s8);
    read2d(h, im[3], N, 1, u16);
    h_check(clEnqueueReadImage(h->q, im[4], CL_TRUE, o, r, 0, 0, arr, 0, NULL, NULL), "read arr");
    for (int x = 0; x < N; x++) {
        for (int c = 0; c < 4; c++) {
            snprintf(tag, sizeof(tag), "u8_%d_%d", x, c);
            h_out_i(tag, u8[1][x][c]);
            snprintf(tag, sizeof(tag), "half_%d_%d", x, c);
            h_out_i(tag, half[x][c]);
            snprintf(tag, sizeof(tag), "s8_%d_%d", x, c);
            h_out_i(tag, s8[x][c]);
            snprintf(tag, sizeof(tag), "u16_%d_%d", x, c);
            h_out_i(tag, u16[x][c]);
        }
        snprintf(tag, sizeof(tag), "arr_%d", x);
        h_out_f(tag, arr[1][x], 0);
    }
    h_out_chk("unorm8_saturates", u8[1][0][3] == 0 && u8[1][1][0] == 255 && u8[1][0][2] == 255);
    h_out_chk("unorm8_rte", u8[1][3][0] == u8ref(v[3].s[0]) && u8[1][3][1] == u8ref(v[3].s[1]) &&
                                u8[1][3][2] == u8ref(v[3].s[2]) && u8[1][0][1] == 128);
    h_out_chk("uint16_saturates", u16[3][0] == 65535 && u16[2][0] == 60000 && u16[1][2] == 65535);
    h_out_chk("int8_saturates", s8[1][0] == 127 && s8[4][0] == -100);
    h_out_chk("array_layer", arr[1][2] == 0.1f);
    for (int i = 0; i < 5; i++)
        clReleaseMemObject(im[i]);
    clReleaseMemObject(vb);
    clReleaseKernel(k);
}

static void queries(struct h_env *h, cl_program p)
{
    cl_mem im[4] = {
        mk(h, CL_MEM_READ_ONLY, CL_RGBA, CL_UNORM_INT8, CL_MEM_OBJECT_IMAGE2D, 5, 7, 0, 0),
        mk(h, CL_MEM_READ_ONLY, CL_R, CL_FLOAT, CL_MEM_OBJECT_IMAGE3D, 3, 4, 6, 0),
        mk(h, CL_MEM_READ_ONLY, CL_R, CL_FLOAT, CL_MEM_OBJECT_IMAGE2D_ARRAY, 2, 2, 0, 9),
        mk(h, CL_MEM_WRITE_ONLY, CL_BGRA, CL_UNORM_INT8, CL_MEM_OBJECT_IMAGE2D, 11, 1, 0, 0)};
    cl_mem ob = h_buffer(h, CL_MEM_READ_WRITE, 11 * sizeof(cl_int), NULL);
    cl_kernel k = h_kernel(p, "queries");
    cl_int out[11];
    size_t one = 1, v;
    cl_image_format f;
    char tag[32];

    for (int i = 0; i < 4; i++)
        h_check(clSetKernelArg(k, (cl_uint)i, sizeof(cl_mem), &im[i]), "arg");
    h_check(clSetKernelArg(k, 4, sizeof(ob), &ob), "arg4");
    h_check(clEnqueueNDRangeKernel(h->q, k, 1, NULL, &one, NULL, 0, NULL, NULL), "launch");
    h_read(h, ob, sizeof(out), out);
    for (int i = 0; i < 11; i++) {
        snprintf(tag, sizeof(tag), "query%d", i);
        h_out_i(tag, out[i]);
    }
    h_out_chk("kernel_queries", out[0] == 5 && out[1] == 7 && out[2] == 5007 && out[3] == 6 &&
                                    out[4] == 30406 && out[5] == 9 && out[6] && out[7] && out[8] &&
                                    out[9] && out[10] == 11);
    h_check(clGetImageInfo(im[1], CL_IMAGE_ELEMENT_SIZE, sizeof(v), &v, NULL), "elem");
    h_out_i("info_elem", (long long)v);
    h_check(clGetImageInfo(im[1], CL_IMAGE_DEPTH, sizeof(v), &v, NULL), "depth");
    h_out_i("info_depth", (long long)v);
    h_check(clGetImageInfo(im[2], CL_IMAGE_ARRAY_SIZE, sizeof(v), &v, NULL), "array");
    h_out_i("info_array", (long long)v);
    h_check(clGetImageInfo(im[0], CL_IMAGE_HEIGHT, sizeof(v), &v, NULL), "height");
    h_out_i("info_height", (long long)v);
    h_check(clGetImageInfo(im[3], CL_IMAGE_FORMAT, sizeof(f), &f, NULL), "format");
    h_out_chk("info_format",
              f.image_channel_order == CL_BGRA && f.image_channel_data_type == CL_UNORM_INT8);
    h_check(clGetImageInfo(im[0], CL_IMAGE_ROW_PITCH, sizeof(v), &v, NULL), "row pitch");
    h_out_chk("info_row_pitch", v >= 5 * 4);
    for (int i = 0; i < 4; i++)
        clReleaseMemObject(im[i]);
    clReleaseMemObject(ob);
    clReleaseKernel(k);
}

/* Read/write with pitches and offsets, copy, fill, image <-> buffer, map. */
static void commands(struct h_env *h)
{
    cl_mem a =
        mk(h, CL_MEM_READ_WRITE, CL_RGBA, CL_UNSIGNED_INT8, CL_MEM_OBJECT_IMAGE2D, 6, 5, 0, 0);
    cl_mem b =
        mk(h, CL_MEM_READ_WRITE, CL_RGBA, CL_UNSIGNED_INT8, CL_MEM_OBJECT_IMAGE2D, 6, 5, 0, 0);
    cl_mem c = mk(h, CL_MEM_READ_WRITE, CL_R, CL_FLOAT, CL_MEM_OBJECT_IMAGE3D, 4, 3, 2, 0);
    cl_mem buf = h_buffer(h, CL_MEM_READ_WRITE, 256, NULL);
    cl_uchar src[5][40], all[5][6][4], got[5][6][4];
    cl_uint fill[4] = {9, 8, 7, 6};
    float fz[2][3][4], fcol[4] = {2.5f, 0, 0, 0}, back[24];
    size_t o[3] = {1, 2, 0}, r[3] = {3, 2, 1}, z[3] = {0, 0, 0}, full[3] = {6, 5, 1};
    size_t rp = 0, sp = 0, r3[3] = {4, 3, 2}, o3[3] = {1, 1, 1}, r3s[3] = {2, 2, 1};
    cl_uchar *m;
    int ok = 1;
    cl_int rc;

    for (int y = 0; y < 5; y++)
        for (int i = 0; i < 40; i++)
            src[y][i] = (cl_uchar)(y * 40 + i);
    memset(all, 0, sizeof(all));
    h_check(clEnqueueWriteImage(h->q, a, CL_TRUE, z, full, 0, 0, all, 0, NULL, NULL), "zero");
    /* a 3 x 2 region at (1, 2) from rows 40 bytes apart */
    h_check(clEnqueueWriteImage(h->q, a, CL_TRUE, o, r, 40, 0, src, 0, NULL, NULL), "write");
    read2d(h, a, 6, 5, got);
    for (int y = 0; y < 5; y++)
        for (int x = 0; x < 6; x++)
            for (int ch = 0; ch < 4; ch++) {
                int in = x >= 1 && x < 4 && y >= 2 && y < 4;

                ok &= got[y][x][ch] == (in ? src[y - 2][(x - 1) * 4 + ch] : 0);
            }
    h_out_chk("write_region_pitch", ok);
    h_check(clEnqueueFillImage(h->q, b, fill, z, full, 0, NULL, NULL), "fill");
    h_check(clEnqueueCopyImage(h->q, a, b, o, z, r, 0, NULL, NULL), "copy");
    read2d(h, b, 6, 5, got);
    h_out_chk("fill_then_copy", got[0][0][0] == src[0][0] && got[1][2][3] == src[1][11] &&
                                    got[0][3][0] == 9 && got[4][5][3] == 6 && got[2][0][1] == 8);
    h_out_i("copy_sample", got[1][1][2]);
    h_check(clEnqueueCopyImageToBuffer(h->q, a, buf, o, r, 16, 0, NULL, NULL), "to buffer");
    h_check(clEnqueueCopyBufferToImage(h->q, buf, b, 16, z, r, 0, NULL, NULL), "from buffer");
    read2d(h, b, 6, 5, got);
    h_out_chk("buffer_round_trip", got[1][2][1] == src[1][9] && got[0][0][0] == src[0][0]);
    /* fill a 3D image, then map a 2 x 2 x 1 box of it and write through the map */
    h_check(clEnqueueFillImage(h->q, c, fcol, z, r3, 0, NULL, NULL), "fill 3d");
    m = clEnqueueMapImage(h->q, c, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, o3, r3s, &rp, &sp, 0, NULL,
                          NULL, &rc);
    h_check(rc, "map");
    h_out_chk("map_pitches", rp >= 2 * sizeof(float) && sp >= 2 * rp);
    h_out_chk("map_reads", ((float *)m)[0] == 2.5f);
    ((float *)(m + rp))[1] = -4.0f; /* element (2, 2, 1) */
    h_check(clEnqueueUnmapMemObject(h->q, c, m, 0, NULL, NULL), "unmap");
    h_check(clEnqueueReadImage(h->q, c, CL_TRUE, z, r3, 0, 0, fz, 0, NULL, NULL), "read 3d");
    h_out_chk("map_writes", fz[1][2][2] == -4.0f && fz[1][1][1] == 2.5f && fz[0][2][2] == 2.5f);
    h_check(clEnqueueReadImage(h->q, c, CL_TRUE, z, r3, 4 * sizeof(float), 12 * sizeof(float), back,
                               0, NULL, NULL),
            "read 3d pitched");
    h_out_f("back", back[12 + 4 + 2], 0);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseMemObject(c);
    clReleaseMemObject(buf);
}

int main(void)
{
    struct h_env h;
    cl_program p;
    cl_bool support;
    cl_uint nfmt = 0;

    h_init(&h);
    h_check(clGetDeviceInfo(h.dev, CL_DEVICE_IMAGE_SUPPORT, sizeof(support), &support, NULL),
            "image support");
    h_out_i("image_support", support);
    h_check(
        clGetSupportedImageFormats(h.ctx, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 0, NULL, &nfmt),
        "formats");
    h_out_chk("has_formats", nfmt >= 20);
    p = h_build(&h, src, NULL);
    writes(&h, p);
    queries(&h, p);
    commands(&h);
    clReleaseProgram(p);
    h_done(&h);
    return 0;
}
