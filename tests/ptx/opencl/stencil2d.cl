// 2D 5-point stencil with a local tile and halo; 2D NDRange indexing; images of floats.
#define BX 16
#define BY 16

__kernel void jacobi2d(__global const float *restrict in, __global float *restrict out, const int w, const int h)
{
    __local float tile[BY + 2][BX + 2];
    int gx = get_global_id(0), gy = get_global_id(1);
    int lx = get_local_id(0) + 1, ly = get_local_id(1) + 1;
    int cx = clamp(gx, 0, w - 1), cy = clamp(gy, 0, h - 1);
    tile[ly][lx] = in[cy * w + cx];
    if (lx == 1) tile[ly][0] = in[cy * w + max(cx - 1, 0)];
    if (lx == BX) tile[ly][BX + 1] = in[cy * w + min(cx + 1, w - 1)];
    if (ly == 1) tile[0][lx] = in[max(cy - 1, 0) * w + cx];
    if (ly == BY) tile[BY + 1][lx] = in[min(cy + 1, h - 1) * w + cx];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (gx < w && gy < h)
        out[gy * w + gx] = 0.2f * (tile[ly][lx] + tile[ly - 1][lx] + tile[ly + 1][lx] + tile[ly][lx - 1] + tile[ly][lx + 1]);
}

__constant float gauss5[25] = {
    1.f / 273, 4.f / 273, 7.f / 273, 4.f / 273, 1.f / 273,
    4.f / 273, 16.f / 273, 26.f / 273, 16.f / 273, 4.f / 273,
    7.f / 273, 26.f / 273, 41.f / 273, 26.f / 273, 7.f / 273,
    4.f / 273, 16.f / 273, 26.f / 273, 16.f / 273, 4.f / 273,
    1.f / 273, 4.f / 273, 7.f / 273, 4.f / 273, 1.f / 273};

__kernel void gaussian_blur(__global const uchar4 *src, __global uchar4 *dst, const int w, const int h)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x >= w || y >= h) return;
    float4 acc = (float4)(0.0f);
    for (int dy = -2; dy <= 2; ++dy)
        for (int dx = -2; dx <= 2; ++dx) {
            int sx = clamp(x + dx, 0, w - 1), sy = clamp(y + dy, 0, h - 1);
            acc += convert_float4(src[sy * w + sx]) * gauss5[(dy + 2) * 5 + dx + 2];
        }
    dst[y * w + x] = convert_uchar4_sat_rte(acc);
}

__kernel void sobel(__global const float *img, __global float *mag, __global float *angle, const int w, const int h)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x < 1 || y < 1 || x >= w - 1 || y >= h - 1) return;
    float gx = -img[(y - 1) * w + x - 1] - 2 * img[y * w + x - 1] - img[(y + 1) * w + x - 1]
             + img[(y - 1) * w + x + 1] + 2 * img[y * w + x + 1] + img[(y + 1) * w + x + 1];
    float gy = -img[(y - 1) * w + x - 1] - 2 * img[(y - 1) * w + x] - img[(y - 1) * w + x + 1]
             + img[(y + 1) * w + x - 1] + 2 * img[(y + 1) * w + x] + img[(y + 1) * w + x + 1];
    mag[y * w + x] = hypot(gx, gy);
    angle[y * w + x] = atan2(gy, gx);
}
