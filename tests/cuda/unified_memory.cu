// Unified memory: cudaMallocManaged buffers initialised on the host, used by
// kernels, and read back on the host after cudaDeviceSynchronize, without
// any cudaMemcpy; a linked list built on the host in managed memory and
// walked on the device (pointers shared by both sides); a __managed__
// variable updated by both sides; cudaMallocManaged with and without an
// explicit cudaMemAttachGlobal flag.
#define TEST_NAME "unified_memory"
#include "common.h"

struct Node {
    int value;
    Node *next;
};

__managed__ int m_total = 7;

__global__ void square_inplace(int *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] = v[i] * v[i] - i;
}

__global__ void walk(const Node *head, int *sum, int *count)
{
    int s = 0, c = 0;
    for (const Node *p = head; p; p = p->next) {
        s += p->value;
        c++;
    }
    *sum = s;
    *count = c;
    m_total += s;
}

__global__ void add_arrays(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

int main()
{
    const int n = 5000;
    int *v;
    CK(cudaMallocManaged(&v, n * sizeof(int)));
    for (int i = 0; i < n; i++)
        v[i] = i % 1000 - 500;
    square_inplace<<<(n + 255) / 256, 256>>>(v, n);
    CK_LAUNCH();
    for (int i = 0; i < n; i++) {
        int x = i % 1000 - 500;
        expect_eq("square_inplace", i, v[i], x * x - i);
    }
    // Host writes after a kernel, then another kernel sees them.
    for (int i = 0; i < n; i++)
        v[i] = 3;
    square_inplace<<<(n + 255) / 256, 256>>>(v, n);
    CK_LAUNCH();
    for (int i = 0; i < n; i++)
        expect_eq("second pass", i, v[i], 9 - i);

    // A list of 100 nodes in managed memory, linked in a scrambled order.
    const int nn = 100;
    Node *nodes;
    int *res;
    CK(cudaMallocManaged(&nodes, nn * sizeof(Node)));
    CK(cudaMallocManaged(&res, 2 * sizeof(int), cudaMemAttachGlobal));
    int want_sum = 0;
    for (int k = 0; k < nn; k++) {
        int here = (k * 37) % nn, next = ((k + 1) * 37) % nn;
        nodes[here].value = k * k - 50;
        nodes[here].next = k + 1 < nn ? &nodes[next] : NULL;
        want_sum += k * k - 50;
    }
    expect_eq("m_total initial (host read)", 0, m_total, 7);
    m_total += 1000;
    walk<<<1, 1>>>(&nodes[0], &res[0], &res[1]);
    CK_LAUNCH();
    expect_eq("list sum", 0, res[0], want_sum);
    expect_eq("list length", 0, res[1], nn);
    expect_eq("m_total", 0, m_total, 1007 + want_sum);

    float *a, *b, *c;
    CK(cudaMallocManaged(&a, n * sizeof(float), cudaMemAttachGlobal));
    CK(cudaMallocManaged(&b, n * sizeof(float)));
    CK(cudaMallocManaged(&c, n * sizeof(float)));
    for (int i = 0; i < n; i++) {
        a[i] = i * 0.5f;
        b[i] = -i * 0.25f;
    }
    add_arrays<<<(n + 127) / 128, 128>>>(a, b, c, n);
    CK_LAUNCH();
    for (int i = 0; i < n; i++)
        expect_bitsf("c", i, c[i], i * 0.25f);
    CK(cudaFree(v));
    CK(cudaFree(nodes));
    CK(cudaFree(res));
    CK(cudaFree(a));
    CK(cudaFree(b));
    CK(cudaFree(c));
    return finish();
}
