// WORKLOAD: hotspot | regular-memory | thermal-simulation 2D 5-point stencil: shared-memory tiles with halos, ping-pong temperature grids, one launch per time step
//
// A chip's temperature grid (rows x cols cells) is advanced `iters` explicit time steps:
//   T' = T + cc * (P + (T_n + T_s - 2T) * ry1 + (T_e + T_w - 2T) * rx1 + (amb - T) * rz1)
// where P is the cell's dissipated power and cc, rx1, ry1, rz1 come from the chip's
// geometry and material constants. A cell outside the grid reads as the cell itself
// (insulated edges). Each 16x16 CTA stages its tile plus a one-cell halo in shared memory,
// so the global traffic is one coalesced read of T and P and one write of T' per cell plus
// the halo rows/columns (re-read by the neighbouring CTAs: the only L1 reuse). Temperature
// and power grids ping-pong between two buffers across launches.
//
// Check: the host runs the same float recurrence. The device may contract multiply-adds
// into FMAs, so each cell may differ by a few ulps per step; cells are compared with
// wl_close(got, want, 1e-5, 1e-4 * iters) (temperatures are ~300-400).
#define WL_NAME "hotspot"
#include "wl.h"

#include <vector>

#define TILE 16

struct hs_coef {
    float cc, rx1, ry1, rz1, amb;
};

__global__ void k_hotspot(const float *__restrict__ tin, const float *__restrict__ power,
                          float *__restrict__ tout, int rows, int cols, hs_coef k)
{
    __shared__ float t[TILE + 2][TILE + 2];
    int tx = threadIdx.x, ty = threadIdx.y;
    int c = blockIdx.x * TILE + tx, r = blockIdx.y * TILE + ty;
    // Clamp to the grid so that out-of-grid cells read as the nearest edge cell; only the
    // threads inside the grid write.
    int rc = min(r, rows - 1), cc = min(c, cols - 1);

    t[ty + 1][tx + 1] = tin[rc * cols + cc];
    if (ty == 0)
        t[0][tx + 1] = tin[max(rc - 1, 0) * cols + cc];
    if (ty == TILE - 1)
        t[TILE + 1][tx + 1] = tin[min(rc + 1, rows - 1) * cols + cc];
    if (tx == 0)
        t[ty + 1][0] = tin[rc * cols + max(cc - 1, 0)];
    if (tx == TILE - 1)
        t[ty + 1][TILE + 1] = tin[rc * cols + min(cc + 1, cols - 1)];
    __syncthreads();
    if (r >= rows || c >= cols)
        return;
    // Edge cells of the grid see themselves as the missing neighbour (the halo loads
    // above clamp to the tile's own cell there, except at a partial tile's inner edge,
    // which is handled by the clamps on r and c).
    float self = t[ty + 1][tx + 1];
    float n = r == 0 ? self : t[ty][tx + 1];
    float s = r == rows - 1 ? self : t[ty + 2][tx + 1];
    float w = c == 0 ? self : t[ty + 1][tx];
    float e = c == cols - 1 ? self : t[ty + 1][tx + 2];
    float p = power[r * cols + c];
    float d =
        p + (n + s - 2.0f * self) * k.ry1 + (e + w - 2.0f * self) * k.rx1 + (k.amb - self) * k.rz1;
    tout[r * cols + c] = self + k.cc * d;
}

// Chip constants (a 16 mm x 16 mm x 0.5 mm silicon die).
static hs_coef make_coef(int rows, int cols)
{
    const double t_chip = 0.0005, chip_h = 0.016, chip_w = 0.016;
    const double k_si = 100.0, spec_heat_si = 1.75e6, factor_chip = 0.5;
    const double max_pd = 3.0e6, precision = 0.001;
    double gh = chip_h / rows, gw = chip_w / cols;
    double cap = factor_chip * spec_heat_si * t_chip * gw * gh;
    double rx = gw / (2.0 * k_si * t_chip * gh);
    double ry = gh / (2.0 * k_si * t_chip * gw);
    double rz = t_chip / (k_si * gh * gw);
    double max_slope = max_pd / (factor_chip * t_chip * spec_heat_si);
    double step = precision / max_slope;
    hs_coef k;

    k.cc = (float)(step / cap);
    k.rx1 = (float)(1.0 / rx);
    k.ry1 = (float)(1.0 / ry);
    k.rz1 = (float)(1.0 / rz);
    k.amb = 80.0f;
    return k;
}

int main(int argc, char **argv)
{
    wl_size sz = wl_parse_size(argc, argv);
    const int rows = wl_pick(sz, 128, 512, 1024);
    const int cols = wl_pick(sz, 128, 512, 1024);
    const int iters = wl_pick(sz, 3, 4, 60);
    const size_t cells = (size_t)rows * cols;
    hs_coef k = make_coef(rows, cols);
    wl_rand rnd(0x5eed0002);
    std::vector<float> temp(cells), power(cells);

    // Temperatures 320-345 K with a hot block in one quadrant; power mostly small with a
    // few hot functional units.
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            bool hot = r > rows / 4 && r < rows / 2 && c > cols / 2 && c < 3 * cols / 4;
            temp[r * cols + c] = 320.0f + rnd.range(0.0f, 20.0f) + (hot ? 5.0f : 0.0f);
            power[r * cols + c] = rnd.range(0.0f, 0.002f) + (hot ? 0.01f : 0.0f);
        }

    float *dt[2], *dp;
    size_t bytes = cells * sizeof(float);
    WL_CK(cudaMalloc(&dt[0], bytes));
    WL_CK(cudaMalloc(&dt[1], bytes));
    WL_CK(cudaMalloc(&dp, bytes));
    WL_CK(cudaMemcpy(dt[0], temp.data(), bytes, cudaMemcpyHostToDevice));
    WL_CK(cudaMemcpy(dp, power.data(), bytes, cudaMemcpyHostToDevice));

    dim3 block(TILE, TILE), grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    for (int i = 0; i < iters; i++) {
        k_hotspot<<<grid, block>>>(dt[i & 1], dp, dt[(i + 1) & 1], rows, cols, k);
        WL_LAUNCH_CK();
    }
    std::vector<float> got(cells);
    WL_CK(cudaMemcpy(got.data(), dt[iters & 1], bytes, cudaMemcpyDeviceToHost));

    std::vector<float> nxt(cells);
    for (int i = 0; i < iters; i++) {
        for (int r = 0; r < rows; r++)
            for (int c = 0; c < cols; c++) {
                float self = temp[r * cols + c];
                float n = r == 0 ? self : temp[(r - 1) * cols + c];
                float s = r == rows - 1 ? self : temp[(r + 1) * cols + c];
                float w = c == 0 ? self : temp[r * cols + c - 1];
                float e = c == cols - 1 ? self : temp[r * cols + c + 1];
                float d = power[r * cols + c] + (n + s - 2.0f * self) * k.ry1 +
                          (e + w - 2.0f * self) * k.rx1 + (k.amb - self) * k.rz1;
                nxt[r * cols + c] = self + k.cc * d;
            }
        temp.swap(nxt);
    }
    double maxerr = 0;
    for (size_t i = 0; i < cells; i++) {
        maxerr = fmax(maxerr, fabs((double)got[i] - temp[i]));
        if (!wl_close(got[i], temp[i], 1e-5, 1e-4 * iters))
            wl_fail("cell (%zu,%zu): got %.7g, want %.7g", i / cols, i % cols, got[i], temp[i]);
    }
    fprintf(stderr, "hotspot: %dx%d, %d steps, max |err| %.3g\n", rows, cols, iters, maxerr);
    WL_CK(cudaFree(dt[0]));
    WL_CK(cudaFree(dt[1]));
    WL_CK(cudaFree(dp));
    return wl_pass();
}
