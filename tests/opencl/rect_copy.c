/*
 * Rectangular transfers: clEnqueueWriteBufferRect, clEnqueueReadBufferRect
 * and clEnqueueCopyBufferRect on 2D and 3D regions with explicit and
 * default (0) pitches, checked against a host model, and their errors:
 * pitches smaller than the region (CL_INVALID_VALUE), a slice pitch that is
 * not a multiple of the row pitch, a zero region, a region out of bounds,
 * and overlapping copies within one buffer (CL_MEM_COPY_OVERLAP).
 */
#include <stdio.h>
#include <string.h>

#include "harness.h"

#define W 40 /* buffer row pitch, bytes */
#define H 12 /* rows per slice */
#define D 3  /* slices */
#define SIZE (W * H * D)

static unsigned char host[SIZE], dev[SIZE], back[SIZE];

/* The host model of a rectangular copy between two byte arrays. */
static void model(unsigned char *dst, const size_t *dorg, size_t drp, size_t dsp,
                  const unsigned char *src, const size_t *sorg, size_t srp, size_t ssp,
                  const size_t *r)
{
    for (size_t z = 0; z < r[2]; z++)
        for (size_t y = 0; y < r[1]; y++)
            memcpy(dst + (dorg[2] + z) * dsp + (dorg[1] + y) * drp + dorg[0],
                   src + (sorg[2] + z) * ssp + (sorg[1] + y) * srp + sorg[0], r[0]);
}

static long long sum(const unsigned char *a, size_t n)
{
    long long s = 0;

    for (size_t i = 0; i < n; i++)
        s += (long long)a[i] * (long long)(i % 97 + 1);
    return s;
}

static void transfers(struct h_env *h, cl_mem m, cl_mem m2)
{
    size_t bo[3] = {3, 2, 1}, ho[3] = {1, 1, 0}, r[3] = {17, 5, 2};
    size_t bo2[3] = {0, 0, 0}, r2[3] = {W, H, 1}, so[3] = {5, 1, 0}, dO[3] = {2, 6, 2};
    size_t cr[3] = {11, 4, 1};

    memset(dev, 0, sizeof(dev));
    h_check(clEnqueueWriteBuffer(h->q, m, CL_TRUE, 0, SIZE, dev, 0, NULL, NULL), "zero");
    /* host pitches 24 / 24*8, buffer pitches W / W*H */
    h_check(clEnqueueWriteBufferRect(h->q, m, CL_TRUE, bo, ho, r, W, W * H, 24, 24 * 8, host, 0,
                                     NULL, NULL),
            "write rect");
    model(dev, bo, W, W * H, host, ho, 24, 24 * 8, r);
    /* defaults: buffer row pitch = region[0] = W, slice = H * W */
    h_check(
        clEnqueueReadBufferRect(h->q, m, CL_TRUE, bo2, bo2, r2, 0, 0, 0, 0, back, 0, NULL, NULL),
        "read rect (default pitches)");
    h_out_chk("write_rect_matches_model", !memcmp(back, dev, W * H));
    h_out_i("write_rect_sum", sum(back, W * H));
    /* copy inside one buffer, disjoint regions, then to another buffer */
    h_check(clEnqueueCopyBufferRect(h->q, m, m, so, dO, cr, W, W * H, W, W * H, 0, NULL, NULL),
            "copy rect");
    model(dev, dO, W, W * H, dev, so, W, W * H, cr);
    h_check(clEnqueueCopyBufferRect(h->q, m, m2, bo2, bo2, (size_t[]){W, H, D}, 0, 0, 0, 0, 0, NULL,
                                    NULL),
            "copy whole");
    h_check(clEnqueueReadBuffer(h->q, m2, CL_TRUE, 0, SIZE, back, 0, NULL, NULL), "read");
    h_out_chk("copy_rect_matches_model", !memcmp(back, dev, SIZE));
    h_out_i("copy_rect_sum", sum(back, SIZE));
}

static void errors(struct h_env *h, cl_mem m)
{
    size_t o[3] = {0, 0, 0}, r[3] = {16, 4, 1}, far[3] = {0, 0, D};
    cl_int rc;

    rc = clEnqueueReadBufferRect(h->q, m, CL_TRUE, o, o, r, 8, 0, 0, 0, back, 0, NULL, NULL);
    h_out_chk("row_pitch_small", rc == CL_INVALID_VALUE);
    rc = clEnqueueReadBufferRect(h->q, m, CL_TRUE, o, o, r, 0, 0, 16, 40, back, 0, NULL, NULL);
    h_out_chk("slice_pitch_small", rc == CL_INVALID_VALUE);
    rc = clEnqueueReadBufferRect(h->q, m, CL_TRUE, o, o, r, 20, 90, 0, 0, back, 0, NULL, NULL);
    h_out_chk("slice_pitch_not_multiple", rc == CL_INVALID_VALUE);
    rc = clEnqueueReadBufferRect(h->q, m, CL_TRUE, o, o, (size_t[]){16, 0, 1}, 0, 0, 0, 0, back, 0,
                                 NULL, NULL);
    h_out_chk("zero_region", rc == CL_INVALID_VALUE);
    rc = clEnqueueReadBufferRect(h->q, m, CL_TRUE, far, o, r, W, W * H, 0, 0, back, 0, NULL, NULL);
    h_out_chk("out_of_bounds", rc == CL_INVALID_VALUE);
    rc = clEnqueueWriteBufferRect(h->q, m, CL_TRUE, o, o, r, 0, 0, 0, 0, NULL, 0, NULL, NULL);
    h_out_chk("null_ptr", rc == CL_INVALID_VALUE);
    rc = clEnqueueCopyBufferRect(h->q, m, m, o, (size_t[]){8, 2, 0}, r, W, W * H, W, W * H, 0, NULL,
                                 NULL);
    h_out_chk("overlap", rc == CL_MEM_COPY_OVERLAP);
}

int main(void)
{
    struct h_env h;

    for (int i = 0; i < SIZE; i++)
        host[i] = (unsigned char)(i * 7 + 3);
    h_init(&h);
    cl_mem m = h_buffer(&h, CL_MEM_READ_WRITE, SIZE, NULL);
    cl_mem m2 = h_buffer(&h, CL_MEM_READ_WRITE, SIZE, NULL);
    transfers(&h, m, m2);
    errors(&h, m);
    clReleaseMemObject(m);
    clReleaseMemObject(m2);
    h_done(&h);
    return 0;
}
