// WORKLOAD: cp | compute | Coulombic potential on a 2D lattice slice from atoms in __constant__ memory: rsqrt-heavy inner loop, broadcast constant reads, almost no global traffic
//
// Every lattice point (x, y) of a g x g slice at height z = 0 (spacing 0.1) receives
//   V(x, y) = sum_atoms q / sqrt(dx^2 + dy^2 + dz^2)
// The atoms (x, y, z, q) sit in __constant__ memory in chunks of up to 4000 (128 at the
// test size, so that it covers several launches); one launch per chunk adds its
// contribution to the slice. Each thread computes UNROLL points of a
// row, spaced by the CTA width, so the per-atom dy^2 + dz^2 is shared between them.
// Atoms lie 1 to 5 units above the slice, so no distance is tiny.
// Check: host double sum; |got - want| <= 2e-5 * sum_atoms |q| / r + 1e-6 (rsqrtf is
// within 2 ulp, the float sum of a few thousand terms adds ~1e-6 relative).
#define WL_NAME "cp"
#include "wl.h"

#define CHUNK 4000
#define BLOCK_X 16
#define BLOCK_Y 4
#define UNROLL 4
#define SPACING 0.1f

__constant__ float4 c_atoms[CHUNK];

__global__ void cp_slice(float *energy, int g, int natoms)
{
    int xbase = blockIdx.x * BLOCK_X * UNROLL + threadIdx.x;
    int y = blockIdx.y * BLOCK_Y + threadIdx.y;
    float cy = y * SPACING;
    float e[UNROLL];

#pragma unroll
    for (int u = 0; u < UNROLL; u++)
        e[u] = 0.0f;
    for (int a = 0; a < natoms; a++) {
        float4 at = c_atoms[a];
        float dy = cy - at.y;
        float dyz2 = dy * dy + at.z * at.z;
        float dx = xbase * SPACING - at.x;
#pragma unroll
        for (int u = 0; u < UNROLL; u++) {
            e[u] += at.w * rsqrtf(dx * dx + dyz2);
            dx += BLOCK_X * SPACING;
        }
    }
    float *row = energy + (size_t)y * g + xbase;
#pragma unroll
    for (int u = 0; u < UNROLL; u++)
        row[u * BLOCK_X] += e[u];
}

int main(int argc, char **argv)
{
    wl_size sz = wl_parse_size(argc, argv);
    int g = wl_pick(sz, 64, 256, 512);            // lattice points per side
    int natoms = wl_pick(sz, 200, 250, 8000);
    int chunk = wl_pick(sz, 128, CHUNK, CHUNK);     // test splits too, to cover accumulation
    float extent = g * SPACING;
    float4 *atoms = (float4 *)malloc(natoms * sizeof(float4));
    wl_rand r(0xC0);

    for (int i = 0; i < natoms; i++) {
        atoms[i].x = r.range(0.0f, extent);
        atoms[i].y = r.range(0.0f, extent);
        atoms[i].z = r.range(1.0f, 5.0f);
        atoms[i].w = r.range(-2.0f, 2.0f);
    }

    size_t pts = (size_t)g * g;
    float *denergy;
    WL_CK(cudaMalloc(&denergy, pts * sizeof(float)));
    WL_CK(cudaMemset(denergy, 0, pts * sizeof(float)));
    dim3 block(BLOCK_X, BLOCK_Y), grid(g / (BLOCK_X * UNROLL), g / BLOCK_Y);
    for (int a0 = 0; a0 < natoms; a0 += chunk) {
        int n = natoms - a0 < chunk ? natoms - a0 : chunk;
        WL_CK(cudaMemcpyToSymbol(c_atoms, atoms + a0, n * sizeof(float4)));
        cp_slice<<<grid, block>>>(denergy, g, n);
        WL_LAUNCH_CK();
    }
    float *got = (float *)malloc(pts * sizeof(float));
    WL_CK(cudaMemcpy(got, denergy, pts * sizeof(float), cudaMemcpyDeviceToHost));

    for (int y = 0; y < g; y++)
        for (int x = 0; x < g; x++) {
            double want = 0.0, mag = 0.0;
            for (int a = 0; a < natoms; a++) {
                double dx = (double)(x * SPACING) - atoms[a].x;
                double dy = (double)(y * SPACING) - atoms[a].y;
                double dz = atoms[a].z;
                double t = atoms[a].w / sqrt(dx * dx + dy * dy + dz * dz);
                want += t;
                mag += fabs(t);
            }
            double v = got[(size_t)y * g + x];
            if (!(fabs(v - want) <= 2e-5 * mag + 1e-6))
                wl_fail("V[%d][%d] = %.7g, want %.7g", y, x, v, want);
        }
    cudaFree(denergy);
    free(got);
    free(atoms);
    return wl_pass();
}
