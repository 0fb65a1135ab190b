/* WORKLOAD-OCL: hotspot_ocl | regular-memory | thermal-simulation 2D 5-point stencil: local-memory tiles with halos, ping-pong temperature grids, one launch per time step */
/*
 * OpenCL variant of hotspot.cu: the same kernel (16x16 work-groups stage their tile and
 * a one-cell halo in __local memory, insulated edges), the same chip constants, sizes,
 * input (wl_rand seed 0x5eed0002) and check: the host replays the float recurrence and
 * cells are compared with wl_close(got, want, 1e-5, 1e-4 * iters).
 */
#define WL_NAME "hotspot_ocl"
#include "wl_ocl.h"

#define TILE 16

static const char *src =
    "#define TILE 16\n"
    "__kernel void k_hotspot(__global const float *restrict tin,\n"
    "                        __global const float *restrict power,\n"
    "                        __global float *restrict tout, int rows, int cols,\n"
    "                        float kcc, float rx1, float ry1, float rz1, float amb)\n"
    "{\n"
    "    __local float t[TILE + 2][TILE + 2];\n"
    "    int tx = get_local_id(0), ty = get_local_id(1);\n"
    "    int c = get_group_id(0) * TILE + tx, r = get_group_id(1) * TILE + ty;\n"
    "    int rc = min(r, rows - 1), cc = min(c, cols - 1);\n"
    "\n"
    "    t[ty + 1][tx + 1] = tin[rc * cols + cc];\n"
    "    if (ty == 0)\n"
    "        t[0][tx + 1] = tin[max(rc - 1, 0) * cols + cc];\n"
    "    if (ty == TILE - 1)\n"
    "        t[TILE + 1][tx + 1] = tin[min(rc + 1, rows - 1) * cols + cc];\n"
    "    if (tx == 0)\n"
    "        t[ty + 1][0] = tin[rc * cols + max(cc - 1, 0)];\n"
    "    if (tx == TILE - 1)\n"
    "        t[ty + 1][TILE + 1] = tin[rc * cols + min(cc + 1, cols - 1)];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (r >= rows || c >= cols)\n"
    "        return;\n"
    "    float self = t[ty + 1][tx + 1];\n"
    "    float n = r == 0 ? self : t[ty][tx + 1];\n"
    "    float s = r == rows - 1 ? self : t[ty + 2][tx + 1];\n"
    "    float w = c == 0 ? self : t[ty + 1][tx];\n"
    "    float e = c == cols - 1 ? self : t[ty + 1][tx + 2];\n"
    "    float p = power[r * cols + c];\n"
    "    float d = p + (n + s - 2.0f * self) * ry1 + (e + w - 2.0f * self) * rx1 +\n"
    "              (amb - self) * rz1;\n"
    "    tout[r * cols + c] = self + kcc * d;\n"
    "}\n";

int main(int argc, char **argv)
{
    enum wl_size sz = wl_parse_size(argc, argv);
    const int rows = WL_PICK(sz, 128, 512, 1024);
    const int cols = WL_PICK(sz, 128, 512, 1024);
    const int iters = WL_PICK(sz, 3, 4, 60);
    const size_t cells = (size_t)rows * cols, bytes = cells * sizeof(float);
    float *temp = malloc(bytes), *power = malloc(bytes), *nxt = malloc(bytes), *got = malloc(bytes);
    wl_rand rnd;
    struct wl_cl cl;
    cl_int e;

    if (!temp || !power || !nxt || !got)
        wl_fail("out of host memory");
    /* Chip constants (a 16 mm x 16 mm x 0.5 mm silicon die), as in hotspot.cu. */
    const double t_chip = 0.0005, chip_h = 0.016, chip_w = 0.016;
    const double k_si = 100.0, spec_heat_si = 1.75e6, factor_chip = 0.5;
    const double max_pd = 3.0e6, precision = 0.001;
    double gh = chip_h / rows, gw = chip_w / cols;
    double cap = factor_chip * spec_heat_si * t_chip * gw * gh;
    double rx = gw / (2.0 * k_si * t_chip * gh);
    double ry = gh / (2.0 * k_si * t_chip * gw);
    double rz = t_chip / (k_si * gh * gw);
    double step = precision / (max_pd / (factor_chip * t_chip * spec_heat_si));
    float kcc = (float)(step / cap), rx1 = (float)(1.0 / rx), ry1 = (float)(1.0 / ry);
    float rz1 = (float)(1.0 / rz), amb = 80.0f;

    wl_rand_init(&rnd, 0x5eed0002);
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            int hot = r > rows / 4 && r < rows / 2 && c > cols / 2 && c < 3 * cols / 4;
            temp[r * cols + c] = 320.0f + 20.0f * wl_rand_unit(&rnd) + (hot ? 5.0f : 0.0f);
            power[r * cols + c] = 0.002f * wl_rand_unit(&rnd) + (hot ? 0.01f : 0.0f);
        }

    wl_cl_init(&cl, src);
    cl_kernel k = wl_cl_kernel(&cl, "k_hotspot");
    cl_mem dt[2], dp;
    dt[0] = clCreateBuffer(cl.ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, temp, &e);
    WL_CL(e);
    dt[1] = clCreateBuffer(cl.ctx, CL_MEM_READ_WRITE, bytes, NULL, &e);
    WL_CL(e);
    dp = clCreateBuffer(cl.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, power, &e);
    WL_CL(e);
    const size_t local[2] = {TILE, TILE};
    const size_t global[2] = {(size_t)(cols + TILE - 1) / TILE * TILE,
                              (size_t)(rows + TILE - 1) / TILE * TILE};
    WL_CL(clSetKernelArg(k, 1, sizeof(cl_mem), &dp));
    WL_CL(clSetKernelArg(k, 3, sizeof(int), &rows));
    WL_CL(clSetKernelArg(k, 4, sizeof(int), &cols));
    WL_CL(clSetKernelArg(k, 5, sizeof(float), &kcc));
    WL_CL(clSetKernelArg(k, 6, sizeof(float), &rx1));
    WL_CL(clSetKernelArg(k, 7, sizeof(float), &ry1));
    WL_CL(clSetKernelArg(k, 8, sizeof(float), &rz1));
    WL_CL(clSetKernelArg(k, 9, sizeof(float), &amb));
    for (int i = 0; i < iters; i++) {
        WL_CL(clSetKernelArg(k, 0, sizeof(cl_mem), &dt[i & 1]));
        WL_CL(clSetKernelArg(k, 2, sizeof(cl_mem), &dt[(i + 1) & 1]));
        WL_CL(clEnqueueNDRangeKernel(cl.q, k, 2, NULL, global, local, 0, NULL, NULL));
    }
    WL_CL(clEnqueueReadBuffer(cl.q, dt[iters & 1], CL_TRUE, 0, bytes, got, 0, NULL, NULL));

    for (int i = 0; i < iters; i++) {
        for (int r = 0; r < rows; r++)
            for (int c = 0; c < cols; c++) {
                float self = temp[r * cols + c];
                float n = r == 0 ? self : temp[(r - 1) * cols + c];
                float s = r == rows - 1 ? self : temp[(r + 1) * cols + c];
                float w = c == 0 ? self : temp[r * cols + c - 1];
                float ea = c == cols - 1 ? self : temp[r * cols + c + 1];
                float d = power[r * cols + c] + (n + s - 2.0f * self) * ry1 +
                          (ea + w - 2.0f * self) * rx1 + (amb - self) * rz1;
                nxt[r * cols + c] = self + kcc * d;
            }
        float *tmp = temp;
        temp = nxt;
        nxt = tmp;
    }
    for (size_t i = 0; i < cells; i++)
        if (!wl_close(got[i], temp[i], 1e-5, 1e-4 * iters))
            wl_fail("cell (%zu,%zu): got %.7g, want %.7g", i / cols, i % cols, got[i], temp[i]);
    clReleaseMemObject(dt[0]);
    clReleaseMemObject(dt[1]);
    clReleaseMemObject(dp);
    clReleaseKernel(k);
    wl_cl_fini(&cl);
    free(temp), free(power), free(nxt), free(got);
    return wl_pass();
}
