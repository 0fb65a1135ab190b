// WORKLOAD: gc_mark | irregular | GC mark phase: worklist-driven parallel marking of a pointer-rich object heap, atomicCAS on header mark words, one launch per worklist generation until it empties
//
// Stands in for the CCWS GC workload (a mark-and-compact collector after Barabash & Petrank; highly
// cache-sensitive). The heap is NO objects of 8 words (32 bytes): word 0 the mark, word 1 the number
// of pointer fields (0..6), words 2..7 the fields (object indices, -1 null). Objects are allocated
// in runs that look like a program's data: leaves, list cells (next = the following object),
// tree nodes (children a little further on), reference arrays (several fields, some far away), with
// some long pointers anywhere; a fraction of the heap is unreachable garbage. Marking starts from a
// root set (marked by the host); each launch drains the current worklist with a grid-stride loop:
// a thread reads the object's header and fields, claims each unmarked child with atomicCAS on its
// mark word and pushes it to the next worklist (atomicAdd on a counter), and adds the object's
// size to a live-bytes counter. The check against a host traversal is exact (marks and live bytes).
#define WL_NAME "gc_mark"
#include "wl.h"

#define OBJ_WORDS 8
#define MAX_FIELDS 6

__global__ void gc_mark_step(int *heap, const int *__restrict__ wl_in, int nin, int *wl_out,
                             int *nout, unsigned long long *live_bytes)
{
    int stride = gridDim.x * blockDim.x;
    unsigned long long bytes = 0;

    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < nin; i += stride) {
        int *o = heap + (size_t)wl_in[i] * OBJ_WORDS;
        int nf = o[1];
        bytes += 8 + 4 * nf;
        for (int f = 0; f < nf; f++) {
            int c = o[2 + f];
            if (c < 0)
                continue;
            int *mark = heap + (size_t)c * OBJ_WORDS;
            if (*mark == 0 && atomicCAS(mark, 0, 1) == 0)
                wl_out[atomicAdd(nout, 1)] = c;
        }
    }
    if (bytes)
        atomicAdd(live_bytes, bytes);
}

int main(int argc, char **argv)
{
    wl_size sz = wl_parse_size(argc, argv);
    const int no = wl_pick(sz, 16384, 131072, 2097152);
    const int nroots = wl_pick(sz, 64, 256, 2048);
    wl_rand r(0x6C);

    int *heap = (int *)malloc((size_t)no * OBJ_WORDS * sizeof(int));
    auto near = [&](int i, int span) {
        int c = i + 1 + (int)r.below(span);
        return c < no ? c : (int)r.below(no);
    };
    for (int i = 0; i < no;) {
        // A run of one kind of object.
        int kind = (int)r.below(100), len = 1 + (int)r.below(64);
        for (int k = 0; k < len && i < no; k++, i++) {
            int *o = heap + (size_t)i * OBJ_WORDS;
            int nf;
            o[0] = 0;
            for (int f = 0; f < MAX_FIELDS; f++)
                o[2 + f] = -1;
            if (kind < 25) { // leaves (strings, boxed values)
                nf = 0;
            } else if (kind < 55) { // list cells: next + payload
                nf = 2;
                o[2] = k + 1 < len && i + 1 < no ? i + 1 : -1;
                o[3] = r.below(4) ? near(i, 128) : -1;
            } else if (kind < 80) { // tree nodes
                nf = 3;
                o[2] = r.below(8) ? near(i, 2 * len + 2) : -1;
                o[3] = r.below(8) ? near(i, 2 * len + 2) : -1;
                o[4] = r.below(2) ? near(i, 4096) : -1;
            } else { // reference arrays, some far pointers
                nf = 3 + (int)r.below(4);
                for (int f = 0; f < nf; f++)
                    o[2 + f] = r.below(3) ? near(i, 512) : r.below(6) ? (int)r.below(no) : -1;
            }
            if (nf && r.below(16) == 0) // occasional long pointer
                o[2 + r.below(nf)] = (int)r.below(no);
            o[1] = nf;
            for (int f = 0; f < nf; f++)
                if (o[2 + f] >= no)
                    wl_fail("generator bug: object %d field %d = %d", i, f, o[2 + f]);
        }
    }
    int *roots = (int *)malloc(nroots * sizeof(int));
    int nr = 0;
    for (int k = 0; k < nroots; k++) {
        int c = (int)r.below(no);
        if (!heap[(size_t)c * OBJ_WORDS]) {
            heap[(size_t)c * OBJ_WORDS] = 1; // roots are marked when pushed
            roots[nr++] = c;
        }
    }

    // Host reference: marks by depth-first traversal, and live bytes.
    char *want = (char *)calloc(no, 1);
    int *stack = (int *)malloc(no * sizeof(int));
    int sp = 0;
    unsigned long long want_bytes = 0;
    long live = 0;
    for (int k = 0; k < nr; k++) {
        want[roots[k]] = 1;
        stack[sp++] = roots[k];
    }
    while (sp) {
        const int *o = heap + (size_t)stack[--sp] * OBJ_WORDS;
        want_bytes += 8 + 4 * o[1];
        live++;
        for (int f = 0; f < o[1]; f++)
            if (o[2 + f] >= 0 && !want[o[2 + f]]) {
                want[o[2 + f]] = 1;
                stack[sp++] = o[2 + f];
            }
    }

    int *d_heap, *d_wa, *d_wb, *d_n;
    unsigned long long *d_bytes;
    WL_CK(cudaMalloc(&d_heap, (size_t)no * OBJ_WORDS * sizeof(int)));
    WL_CK(cudaMalloc(&d_wa, no * sizeof(int)));
    WL_CK(cudaMalloc(&d_wb, no * sizeof(int)));
    WL_CK(cudaMalloc(&d_n, sizeof(int)));
    WL_CK(cudaMalloc(&d_bytes, sizeof(unsigned long long)));
    WL_CK(cudaMemcpy(d_heap, heap, (size_t)no * OBJ_WORDS * sizeof(int), cudaMemcpyHostToDevice));
    WL_CK(cudaMemcpy(d_wa, roots, nr * sizeof(int), cudaMemcpyHostToDevice));
    WL_CK(cudaMemset(d_bytes, 0, sizeof(unsigned long long)));

    const int bs = 128, max_blocks = 60; // 4 CTAs per SM on 15 SMs; each thread drains several items
    int nin = nr, gens = 0;
    while (nin > 0) {
        if (gens > no)
            wl_fail("no convergence after %d generations", gens);
        int blocks = (nin + bs - 1) / bs;
        blocks = blocks < max_blocks ? blocks : max_blocks;
        WL_CK(cudaMemset(d_n, 0, sizeof(int)));
        gc_mark_step<<<blocks, bs>>>(d_heap, d_wa, nin, d_wb, d_n, d_bytes);
        WL_LAUNCH_CK();
        WL_CK(cudaMemcpy(&nin, d_n, sizeof(int), cudaMemcpyDeviceToHost));
        int *t = d_wa;
        d_wa = d_wb;
        d_wb = t;
        gens++;
    }

    int *got = (int *)malloc((size_t)no * OBJ_WORDS * sizeof(int));
    unsigned long long got_bytes;
    WL_CK(cudaMemcpy(got, d_heap, (size_t)no * OBJ_WORDS * sizeof(int), cudaMemcpyDeviceToHost));
    WL_CK(cudaMemcpy(&got_bytes, d_bytes, sizeof(got_bytes), cudaMemcpyDeviceToHost));
    for (int i = 0; i < no; i++) {
        if (got[(size_t)i * OBJ_WORDS] != want[i])
            wl_fail("object %d: mark %d, want %d", i, got[(size_t)i * OBJ_WORDS], want[i]);
        if (memcmp(got + (size_t)i * OBJ_WORDS + 1, heap + (size_t)i * OBJ_WORDS + 1,
                   (OBJ_WORDS - 1) * sizeof(int)))
            wl_fail("object %d: fields changed", i);
    }
    if (got_bytes != want_bytes)
        wl_fail("live bytes %llu, want %llu", got_bytes, want_bytes);
    fprintf(stderr, "gc_mark: %d objects, %d roots, %ld live (%llu bytes), %d generations\n", no, nr,
            live, want_bytes, gens);
    return wl_pass();
}
