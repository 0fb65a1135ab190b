// Struct-of-arrays versus array-of-structs: the same particle update (a
// velocity Verlet step with a spring force) on an AoS layout (float3
// position and velocity, float mass, int id in one struct), on an SoA layout
// (one array per component), and on an AoS of float4 read with vector loads.
// All three must agree with each other and with the host bit for bit (the
// update uses explicit fmaf so no contraction differs).
#define TEST_NAME "soa_aos"
#include "common.h"

struct Particle {
    float3 pos, vel;
    float mass;
    int id;
};

struct SoA {
    float *px, *py, *pz, *vx, *vy, *vz, *m;
    int *id;
};

__host__ __device__ inline void step(float &p, float &v, float m, float dt, float k)
{
    float a = -k * p / m;
    v = fmaf(a, dt, v);
    p = fmaf(v, dt, p);
}

__global__ void aos_step(Particle *ps, int n, float dt, float k)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    Particle q = ps[i];
    step(q.pos.x, q.vel.x, q.mass, dt, k);
    step(q.pos.y, q.vel.y, q.mass, dt, k);
    step(q.pos.z, q.vel.z, q.mass, dt, k);
    q.id += 1000;
    ps[i] = q;
}

__global__ void soa_step(SoA s, int n, float dt, float k)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float m = s.m[i];
    step(s.px[i], s.vx[i], m, dt, k);
    step(s.py[i], s.vy[i], m, dt, k);
    step(s.pz[i], s.vz[i], m, dt, k);
    s.id[i] += 1000;
}

// pos.xyz + mass in one float4, vel.xyz + unused in another
__global__ void vec4_step(float4 *pm, float4 *v, int n, float dt, float k)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float4 a = pm[i], b = v[i];
    step(a.x, b.x, a.w, dt, k);
    step(a.y, b.y, a.w, dt, k);
    step(a.z, b.z, a.w, dt, k);
    pm[i] = a;
    v[i] = b;
}

int main()
{
    const int n = 3000, steps = 5;
    const float dt = 0.01f, k = 2.5f;
    Particle *aos = new Particle[n], *ref = new Particle[n], *daos;
    float *h[7];
    int *hid = new int[n];
    float4 *pm = new float4[n], *vv = new float4[n], *dpm, *dvv;
    SoA s;
    float **dev[7] = {&s.px, &s.py, &s.pz, &s.vx, &s.vy, &s.vz, &s.m};

    for (int i = 0; i < n; i++) {
        Particle p = {make_float3(i * 0.01f, -i * 0.02f, 1.0f), make_float3(0.5f, 0.0f, -0.25f),
                      1.0f + (i % 7), i};
        aos[i] = ref[i] = p;
        pm[i] = make_float4(p.pos.x, p.pos.y, p.pos.z, p.mass);
        vv[i] = make_float4(p.vel.x, p.vel.y, p.vel.z, 0.0f);
    }
    for (int c = 0; c < 7; c++) {
        h[c] = new float[n];
        for (int i = 0; i < n; i++) {
            const Particle &p = aos[i];
            const float f[7] = {p.pos.x, p.pos.y, p.pos.z, p.vel.x, p.vel.y, p.vel.z, p.mass};
            h[c][i] = f[c];
        }
        CK(cudaMalloc(dev[c], n * sizeof(float)));
        CK(cudaMemcpy(*dev[c], h[c], n * sizeof(float), cudaMemcpyHostToDevice));
    }
    for (int i = 0; i < n; i++)
        hid[i] = i;
    CK(cudaMalloc(&s.id, n * sizeof(int)));
    CK(cudaMemcpy(s.id, hid, n * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMalloc(&daos, n * sizeof(Particle)));
    CK(cudaMemcpy(daos, aos, n * sizeof(Particle), cudaMemcpyHostToDevice));
    CK(cudaMalloc(&dpm, n * sizeof(float4)));
    CK(cudaMalloc(&dvv, n * sizeof(float4)));
    CK(cudaMemcpy(dpm, pm, n * sizeof(float4), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dvv, vv, n * sizeof(float4), cudaMemcpyHostToDevice));
    for (int t = 0; t < steps; t++) {
        aos_step<<<(n + 127) / 128, 128>>>(daos, n, dt, k);
        soa_step<<<(n + 255) / 256, 256>>>(s, n, dt, k);
        vec4_step<<<(n + 63) / 64, 64>>>(dpm, dvv, n, dt, k);
        for (int i = 0; i < n; i++) {
            step(ref[i].pos.x, ref[i].vel.x, ref[i].mass, dt, k);
            step(ref[i].pos.y, ref[i].vel.y, ref[i].mass, dt, k);
            step(ref[i].pos.z, ref[i].vel.z, ref[i].mass, dt, k);
            ref[i].id += 1000;
        }
    }
    CK_LAUNCH();
    CK(cudaMemcpy(aos, daos, n * sizeof(Particle), cudaMemcpyDeviceToHost));
    for (int c = 0; c < 7; c++)
        CK(cudaMemcpy(h[c], *dev[c], n * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hid, s.id, n * sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(pm, dpm, n * sizeof(float4), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(vv, dvv, n * sizeof(float4), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        const Particle &r = ref[i];
        const float want[7] = {r.pos.x, r.pos.y, r.pos.z, r.vel.x, r.vel.y, r.vel.z, r.mass};
        const float got_aos[7] = {aos[i].pos.x, aos[i].pos.y, aos[i].pos.z, aos[i].vel.x,
                                  aos[i].vel.y, aos[i].vel.z, aos[i].mass};
        const float got_v4[7] = {pm[i].x, pm[i].y, pm[i].z, vv[i].x, vv[i].y, vv[i].z, pm[i].w};
        for (int c = 0; c < 7; c++) {
            expect_bitsf("aos", i * 7 + c, got_aos[c], want[c]);
            expect_bitsf("soa", i * 7 + c, h[c][i], want[c]);
            expect_bitsf("float4", i * 7 + c, got_v4[c], want[c]);
        }
        expect_eq("aos id", i, aos[i].id, r.id);
        expect_eq("soa id", i, hid[i], r.id);
    }
    for (int c = 0; c < 7; c++) {
        CK(cudaFree(*dev[c]));
        delete[] h[c];
    }
    CK(cudaFree(s.id));
    CK(cudaFree(daos));
    CK(cudaFree(dpm));
    CK(cudaFree(dvv));
    delete[] aos;
    delete[] ref;
    delete[] hid;
    delete[] pm;
    delete[] vv;
    return finish();
}
