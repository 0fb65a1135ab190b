#include "policies/ccws_vta.h"

#include <stdlib.h>
#include <string.h>

/*
 * Each set is an array of its tags oldest first (FIFO: by insertion, LRU:
 * by last use) and a count. Sets are small (8 ways by default, at most a
 * few hundred in a sensitivity sweep), so shifting on insert is cheaper
 * than any pointer structure.
 */
struct pol_ccws_vta {
    uint32_t nparts, nsets, assoc;
    enum pol_ccws_vta_repl repl;
    bool hashed;      /* the authors' hashed set index (pol_ccws_vta_set_hashed) */
    uint32_t set_log; /* log2(nsets) when nsets is a power of two, else UINT32_MAX */
    uint64_t *tags;   /* [part][set][way] */
    uint32_t *nvalid; /* [part][set] */
};

struct pol_ccws_vta *pol_ccws_vta_create(uint32_t nparts, uint32_t entries, uint32_t assoc,
                                         enum pol_ccws_vta_repl repl)
{
    struct pol_ccws_vta *v;
    size_t nsets_all;

    if (!nparts || !entries || !assoc || entries % assoc)
        return NULL;
    v = malloc(sizeof(*v));
    if (!v)
        return NULL;
    v->nparts = nparts;
    v->nsets = entries / assoc;
    v->assoc = assoc;
    v->repl = repl;
    v->hashed = false;
    v->set_log = UINT32_MAX;
    for (uint32_t b = 0; b < 32; b++)
        if ((1u << b) == v->nsets)
            v->set_log = b;
    nsets_all = (size_t)nparts * v->nsets;
    v->tags = malloc(nsets_all * assoc * sizeof(*v->tags));
    v->nvalid = calloc(nsets_all, sizeof(*v->nvalid));
    if (!v->tags || !v->nvalid) {
        pol_ccws_vta_destroy(v);
        return NULL;
    }
    return v;
}

void pol_ccws_vta_destroy(struct pol_ccws_vta *v)
{
    if (!v)
        return;
    free(v->tags);
    free(v->nvalid);
    free(v);
}

void pol_ccws_vta_set_hashed(struct pol_ccws_vta *v, bool hashed)
{
    v->hashed = hashed;
}

/*
 * The set of a line: line % sets, or with the authors' hash (every cache of
 * their GPGPU-Sim 3.0.2 fork, USE_SET_INDEX_HASH, odd multiple 7) the low
 * bits plus 7 times the bits above them, modulo the (power of two) set
 * count; for the 2-set VTA that is bit 0 XOR bit 1 of the line address.
 */
static size_t set_index(const struct pol_ccws_vta *v, uint32_t part, uint64_t line)
{
    uint64_t set = line % v->nsets;

    if (v->hashed && v->set_log != UINT32_MAX)
        set = ((line & (v->nsets - 1)) + (line >> v->set_log) * 7) & (v->nsets - 1);
    return (size_t)part * v->nsets + (size_t)set;
}

/* The way of line in set si, or assoc when absent. */
static uint32_t find(const struct pol_ccws_vta *v, size_t si, uint64_t line)
{
    const uint64_t *t = v->tags + si * v->assoc;
    uint32_t n = v->nvalid[si];

    for (uint32_t w = 0; w < n; w++)
        if (t[w] == line)
            return w;
    return v->assoc;
}

/* Drops way w of set si, closing the gap. */
static void remove_way(struct pol_ccws_vta *v, size_t si, uint32_t w)
{
    uint64_t *t = v->tags + si * v->assoc;
    uint32_t n = v->nvalid[si];

    memmove(t + w, t + w + 1, (size_t)(n - w - 1) * sizeof(*t));
    v->nvalid[si] = n - 1;
}

/* Moves way w of set si to the newest end. */
static void touch(struct pol_ccws_vta *v, size_t si, uint32_t w)
{
    uint64_t line = v->tags[si * v->assoc + w];

    remove_way(v, si, w);
    v->tags[si * v->assoc + v->nvalid[si]++] = line;
}

void pol_ccws_vta_insert(struct pol_ccws_vta *v, uint32_t part, uint64_t line)
{
    size_t si;
    uint32_t w;

    if (part >= v->nparts)
        return;
    si = set_index(v, part, line);
    w = find(v, si, line);
    if (w < v->assoc) {
        if (v->repl == POL_CCWS_VTA_LRU)
            touch(v, si, w);
        return;
    }
    if (v->nvalid[si] == v->assoc)
        remove_way(v, si, 0); /* the oldest */
    v->tags[si * v->assoc + v->nvalid[si]++] = line;
}

bool pol_ccws_vta_probe(struct pol_ccws_vta *v, uint32_t part, uint64_t line)
{
    size_t si;
    uint32_t w;

    if (part >= v->nparts)
        return false;
    si = set_index(v, part, line);
    w = find(v, si, line);
    if (w == v->assoc)
        return false;
    if (v->repl == POL_CCWS_VTA_LRU)
        touch(v, si, w);
    return true;
}

void pol_ccws_vta_clear(struct pol_ccws_vta *v, uint32_t part)
{
    if (part < v->nparts)
        memset(v->nvalid + (size_t)part * v->nsets, 0, v->nsets * sizeof(*v->nvalid));
}

uint32_t pol_ccws_vta_invalidate(struct pol_ccws_vta *v, uint64_t line)
{
    uint32_t gone = 0;

    for (uint32_t p = 0; p < v->nparts; p++) {
        size_t si = set_index(v, p, line);
        uint32_t w = find(v, si, line);

        if (w < v->assoc) {
            remove_way(v, si, w);
            gone++;
        }
    }
    return gone;
}

uint32_t pol_ccws_vta_count(const struct pol_ccws_vta *v, uint32_t part)
{
    uint32_t n = 0;

    if (part >= v->nparts)
        return 0;
    for (uint32_t s = 0; s < v->nsets; s++)
        n += v->nvalid[(size_t)part * v->nsets + s];
    return n;
}
