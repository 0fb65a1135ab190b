// WORKLOAD: memcached | irregular | batched GETs on a chained hash table in device memory: per-thread request streams, 4-word key hash and compares, chain pointer chasing, Zipf-skewed popularity (hot items reused)
//
// Stands in for Memcached-GPU (CCWS MEMC, highly cache-sensitive; the Wikipedia access trace is
// replaced by a Zipf(0.99) key popularity). The table holds NE items of 32 bytes (a 16-byte key,
// a 12-byte value and the next-item index) chained from NB = NE/2 bucket heads. Each thread serves
// G GET requests stored contiguously (16-byte keys: one or more whole lines per thread): it hashes
// the key (a 4-word mix), walks the bucket's chain comparing all four key words, and writes
// {found, value} to its response slots. 90% of the requests hit, drawn by Zipf rank over the
// items (ranks scattered over the table by a permutation); 10% are keys that are not stored.
// Responses are integers: the check against a host lookup is exact.
#define WL_NAME "memcached"
#include "wl.h"

struct item {
    uint32_t key[4];
    uint32_t val[3];
    int next;
};

__host__ __device__ static inline uint32_t mc_hash(uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
    uint32_t h = 0x811C9DC5u;
    h = (h ^ a) * 0x01000193u;
    h = (h ^ b) * 0x01000193u;
    h = (h ^ c) * 0x01000193u;
    h = (h ^ d) * 0x01000193u;
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 12;
    return h;
}

__global__ void mc_get(const uint4 *__restrict__ req, const int *__restrict__ head,
                       const item *__restrict__ items, uint4 *resp, int nthreads, int g,
                       uint32_t nbmask)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;

    if (t >= nthreads)
        return;
    for (int j = 0; j < g; j++) {
        uint4 k = req[t * g + j];
        int e = head[mc_hash(k.x, k.y, k.z, k.w) & nbmask];
        uint4 out = make_uint4(0, 0, 0, 0);
        while (e >= 0) {
            const item *it = &items[e];
            if (it->key[0] == k.x && it->key[1] == k.y && it->key[2] == k.z && it->key[3] == k.w) {
                out = make_uint4(1, it->val[0], it->val[1], it->val[2]);
                break;
            }
            e = it->next;
        }
        resp[t * g + j] = out;
    }
}

int main(int argc, char **argv)
{
    wl_size sz = wl_parse_size(argc, argv);
    const int ne = wl_pick(sz, 16384, 131072, 1048576);
    const int nb = ne / 2;
    const int nthreads = wl_pick(sz, 2048, 16384, 131072);
    const int g = 8;
    const int nreq = nthreads * g;
    wl_rand r(0x3E3C);

    // Items with random keys (distinct) and values, chained into buckets (push-front).
    item *items = (item *)malloc(ne * sizeof(item));
    int *head = (int *)malloc(nb * sizeof(int));
    for (int b = 0; b < nb; b++)
        head[b] = -1;
    for (int i = 0; i < ne; i++) {
        item &it = items[i];
        for (int w = 0; w < 4; w++)
            it.key[w] = (uint32_t)r.next();
        it.key[3] = (it.key[3] & ~0xFFFFFu) | (uint32_t)i; // distinct: low bits carry the index
        for (int w = 0; w < 3; w++)
            it.val[w] = (uint32_t)r.next();
        uint32_t b = mc_hash(it.key[0], it.key[1], it.key[2], it.key[3]) & (nb - 1);
        it.next = head[b];
        head[b] = i;
    }

    // Zipf(0.99) popularity over ranks; rank -> item by a random permutation.
    double *cdf = (double *)malloc(ne * sizeof(double));
    double acc = 0;
    for (int i = 0; i < ne; i++)
        cdf[i] = acc += 1.0 / pow((double)(i + 1), 0.99);
    int *perm = (int *)malloc(ne * sizeof(int));
    for (int i = 0; i < ne; i++)
        perm[i] = i;
    for (int i = ne - 1; i > 0; i--) {
        int j = (int)r.below(i + 1), t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    uint4 *req = (uint4 *)malloc(nreq * sizeof(uint4));
    for (int q = 0; q < nreq; q++) {
        if (r.below(10) == 0) {
            // A key that is not stored: low 20 bits beyond the item count... or an unused high part.
            uint32_t w3 = ((uint32_t)r.next() & ~0xFFFFFu) | (uint32_t)(ne + r.below(0xFFFFF - ne));
            req[q] = make_uint4((uint32_t)r.next(), (uint32_t)r.next(), (uint32_t)r.next(), w3);
        } else {
            double u = r.unit() * acc;
            int lo = 0, hi = ne - 1;
            while (lo < hi) {
                int mid = (lo + hi) / 2;
                if (cdf[mid] < u)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            const item &it = items[perm[lo]];
            req[q] = make_uint4(it.key[0], it.key[1], it.key[2], it.key[3]);
        }
    }

    uint4 *d_req, *d_resp;
    int *d_head;
    item *d_items;
    WL_CK(cudaMalloc(&d_req, nreq * sizeof(uint4)));
    WL_CK(cudaMalloc(&d_resp, nreq * sizeof(uint4)));
    WL_CK(cudaMalloc(&d_head, nb * sizeof(int)));
    WL_CK(cudaMalloc(&d_items, ne * sizeof(item)));
    WL_CK(cudaMemcpy(d_req, req, nreq * sizeof(uint4), cudaMemcpyHostToDevice));
    WL_CK(cudaMemcpy(d_head, head, nb * sizeof(int), cudaMemcpyHostToDevice));
    WL_CK(cudaMemcpy(d_items, items, ne * sizeof(item), cudaMemcpyHostToDevice));

    const int bs = 128;
    mc_get<<<(nthreads + bs - 1) / bs, bs>>>(d_req, d_head, d_items, d_resp, nthreads, g,
                                            (uint32_t)(nb - 1));
    WL_LAUNCH_CK();
    uint4 *resp = (uint4 *)malloc(nreq * sizeof(uint4));
    WL_CK(cudaMemcpy(resp, d_resp, nreq * sizeof(uint4), cudaMemcpyDeviceToHost));

    int hits = 0;
    for (int q = 0; q < nreq; q++) {
        uint4 k = req[q], want = make_uint4(0, 0, 0, 0);
        for (int e = head[mc_hash(k.x, k.y, k.z, k.w) & (nb - 1)]; e >= 0; e = items[e].next) {
            const item &it = items[e];
            if (it.key[0] == k.x && it.key[1] == k.y && it.key[2] == k.z && it.key[3] == k.w) {
                want = make_uint4(1, it.val[0], it.val[1], it.val[2]);
                break;
            }
        }
        hits += want.x;
        if (resp[q].x != want.x || resp[q].y != want.y || resp[q].z != want.z ||
            resp[q].w != want.w)
            wl_fail("request %d: got {%u, %08x %08x %08x}, want {%u, %08x %08x %08x}", q, resp[q].x,
                    resp[q].y, resp[q].z, resp[q].w, want.x, want.y, want.z, want.w);
    }
    fprintf(stderr, "memcached: %d items, %d buckets, %d GETs (%d hits) by %d threads\n", ne, nb,
            nreq, hits, nthreads);
    return wl_pass();
}
