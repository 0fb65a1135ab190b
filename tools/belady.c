#include "tools/belady.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"

#define NONE UINT32_MAX
#define FAR UINT64_MAX /* next use of a line that is not read again before it dies */

static bool is_flush(uint64_t e)
{
    return e == BELADY_FLUSH;
}

static uint64_t line_of(uint64_t e)
{
    return e & ~BELADY_WRITE;
}

static int check_geom(const struct belady_geom *g, size_t n, struct ps_err *err)
{
    if (!g->nsets || !g->assoc)
        return ps_err_set(err, PS_EINVAL, "belady: %u sets of %u ways is not a cache", g->nsets,
                          g->assoc);
    if (n >= NONE)
        return ps_err_set(err, PS_EINVAL, "belady: a trace of %zu entries is too long", n);
    return 0;
}

static int set_index(const struct belady_geom *g, uint64_t line, uint32_t *set, struct ps_err *err)
{
    uint32_t s = g->set_of ? g->set_of(line, g->ctx) : (uint32_t)(line % g->nsets);

    if (s >= g->nsets)
        return ps_err_set(err, PS_EINVAL, "belady: set %u of line 0x%llx is not below %u sets", s,
                          (unsigned long long)line, g->nsets);
    *set = s;
    return 0;
}

static void count_entry(struct belady_result *r, uint64_t e)
{
    if (is_flush(e))
        r->flushes++;
    else if (e & BELADY_WRITE)
        r->writes++;
    else
        r->reads++;
}

/* ------------------------------------------------------------ numbering */

/* The trace's lines numbered densely: id[i] for entry i (NONE for a flush), set[id]. */
struct dense {
    uint32_t *id;
    uint32_t *set;
    uint32_t nd;
};

/* Open addressing from line to dense id, used only while numbering. */
struct table {
    uint64_t *key;
    uint32_t *val; /* NONE: an empty bucket */
    size_t mask;
};

static size_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= UINT64_C(0xff51afd7ed558ccd);
    x ^= x >> 33;
    return (size_t)x;
}

/* Sets *id to the dense id of line, numbering it (and finding its set) when new. */
static int lookup(struct table *t, struct dense *d, const struct belady_geom *g, uint64_t line,
                  uint32_t *id, struct ps_err *err)
{
    size_t h = mix(line) & t->mask;

    while (t->val[h] != NONE && t->key[h] != line)
        h = (h + 1) & t->mask;
    if (t->val[h] == NONE) {
        if (set_index(g, line, &d->set[d->nd], err) < 0)
            return PS_EINVAL;
        t->key[h] = line;
        t->val[h] = d->nd++;
    }
    *id = t->val[h];
    return 0;
}

static int number_lines(const uint64_t *trace, size_t n, const struct belady_geom *g,
                        struct dense *d, struct ps_err *err)
{
    struct table t;
    size_t cap = 16;
    int rc = 0;

    while (cap < 2 * n)
        cap *= 2;
    t.mask = cap - 1;
    t.key = malloc(cap * sizeof(*t.key));
    t.val = malloc(cap * sizeof(*t.val));
    if (!t.key || !t.val) {
        rc = ps_err_set(err, PS_ENOMEM, "belady: out of memory");
        goto out;
    }
    memset(t.val, 0xff, cap * sizeof(*t.val));
    for (size_t i = 0; i < n && !rc; i++) {
        d->id[i] = NONE;
        if (!is_flush(trace[i]))
            rc = lookup(&t, d, g, line_of(trace[i]), &d->id[i], err);
    }
out:
    free(t.key);
    free(t.val);
    return rc;
}

/*
 * next[i], for a read at i: the index of the next read of the same line, or
 * FAR when a store to it (write-evict) or a flush comes first, or nothing
 * does: the line is dead, so keeping it is worth nothing. Computed backwards
 * with the last read seen per line, tagged with the number of flushes
 * passed so that a flush forgets every line at once.
 */
static int next_reads(const uint64_t *trace, size_t n, const struct dense *d, uint64_t *next,
                      struct ps_err *err)
{
    uint64_t *at = malloc((d->nd + 1) * sizeof(*at));
    uint64_t *epoch_of = calloc(d->nd + 1, sizeof(*epoch_of));
    uint64_t epoch = 1;

    if (!at || !epoch_of) {
        free(at);
        free(epoch_of);
        return ps_err_set(err, PS_ENOMEM, "belady: out of memory");
    }
    for (size_t i = n; i-- > 0;) {
        uint32_t id = d->id[i];

        if (id == NONE) {
            epoch++;
            continue;
        }
        if (!(trace[i] & BELADY_WRITE))
            next[i] = epoch_of[id] == epoch ? at[id] : FAR;
        at[id] = trace[i] & BELADY_WRITE ? FAR : i;
        epoch_of[id] = epoch;
    }
    free(at);
    free(epoch_of);
    return 0;
}

/* ---------------------------------------------------------------- Belady */

/*
 * Each set is a max-heap of its resident lines keyed by next use, so the
 * root is the victim; pos[id] is a line's place in its set's heap, or NONE.
 */
struct heaps {
    uint64_t *key; /* [set * assoc + k] */
    uint32_t *hid;
    uint32_t *size; /* [set] */
    uint32_t *pos;  /* [id] */
    uint32_t assoc;
};

static void place(struct heaps *h, size_t base, uint32_t k, uint64_t key, uint32_t id)
{
    h->key[base + k] = key;
    h->hid[base + k] = id;
    h->pos[id] = k;
}

static void sift_up(struct heaps *h, size_t base, uint32_t k)
{
    uint64_t key = h->key[base + k];
    uint32_t id = h->hid[base + k];

    while (k > 0 && h->key[base + (k - 1) / 2] < key) {
        uint32_t p = (k - 1) / 2;

        place(h, base, k, h->key[base + p], h->hid[base + p]);
        k = p;
    }
    place(h, base, k, key, id);
}

static void sift_down(struct heaps *h, size_t base, uint32_t n, uint32_t k)
{
    uint64_t key = h->key[base + k];
    uint32_t id = h->hid[base + k];

    for (;;) {
        uint32_t c = 2 * k + 1;

        if (c >= n)
            break;
        if (c + 1 < n && h->key[base + c + 1] > h->key[base + c])
            c++;
        if (h->key[base + c] <= key)
            break;
        place(h, base, k, h->key[base + c], h->hid[base + c]);
        k = c;
    }
    place(h, base, k, key, id);
}

/* Takes line id out of its set (a store under write-evict). */
static void heap_remove(struct heaps *h, uint32_t set, uint32_t id)
{
    size_t base = (size_t)set * h->assoc;
    uint32_t k = h->pos[id], last = --h->size[set];

    uint32_t moved;

    h->pos[id] = NONE;
    if (k == last)
        return;
    moved = h->hid[base + last];
    place(h, base, k, h->key[base + last], moved);
    sift_up(h, base, k);
    sift_down(h, base, h->size[set], h->pos[moved]);
}

static void flush_all(struct heaps *h, uint32_t nsets)
{
    for (uint32_t s = 0; s < nsets; s++) {
        for (uint32_t k = 0; k < h->size[s]; k++)
            h->pos[h->hid[(size_t)s * h->assoc + k]] = NONE;
        h->size[s] = 0;
    }
}

/* A read of line id at i, next read next_i: a hit updates its key, a miss allocates. */
static void heap_read(struct heaps *h, uint32_t set, uint32_t id, uint64_t next_i,
                      struct belady_result *r)
{
    size_t base = (size_t)set * h->assoc;

    if (h->pos[id] != NONE) {
        r->hits++;
        h->key[base + h->pos[id]] = next_i; /* later than now: the key only grows */
        sift_up(h, base, h->pos[id]);
        return;
    }
    r->misses++;
    if (h->size[set] < h->assoc) {
        place(h, base, h->size[set]++, next_i, id);
        sift_up(h, base, h->pos[id]);
        return;
    }
    h->pos[h->hid[base]] = NONE; /* the root is read furthest in the future */
    place(h, base, 0, next_i, id);
    sift_down(h, base, h->size[set], 0);
}

static void replay_belady(const uint64_t *trace, size_t n, const struct dense *d,
                          const uint64_t *next, struct heaps *h, uint32_t nsets,
                          struct belady_result *r)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t id = d->id[i];

        count_entry(r, trace[i]);
        if (id == NONE) {
            flush_all(h, nsets);
        } else if (trace[i] & BELADY_WRITE) {
            if (h->pos[id] != NONE) {
                r->write_evicts++;
                heap_remove(h, d->set[id], id);
            }
        } else {
            heap_read(h, d->set[id], id, next[i], r);
        }
    }
}

static int run_belady(const uint64_t *trace, size_t n, const struct belady_geom *g, struct dense *d,
                      uint64_t *next, struct belady_result *out, struct ps_err *err)
{
    size_t slots = (size_t)g->nsets * g->assoc;
    struct heaps h = {.assoc = g->assoc};
    int rc;

    if ((rc = number_lines(trace, n, g, d, err)) < 0)
        return rc;
    if ((rc = next_reads(trace, n, d, next, err)) < 0)
        return rc;
    h.key = malloc(slots * sizeof(*h.key));
    h.hid = malloc(slots * sizeof(*h.hid));
    h.size = calloc(g->nsets, sizeof(*h.size));
    h.pos = malloc(((size_t)d->nd + 1) * sizeof(*h.pos));
    if (!h.key || !h.hid || !h.size || !h.pos) {
        rc = ps_err_set(err, PS_ENOMEM, "belady: out of memory");
        goto out;
    }
    memset(h.pos, 0xff, ((size_t)d->nd + 1) * sizeof(*h.pos));
    replay_belady(trace, n, d, next, &h, g->nsets, out);
out:
    free(h.key);
    free(h.hid);
    free(h.size);
    free(h.pos);
    return rc;
}

int belady_misses(const uint64_t *trace, size_t n, const struct belady_geom *g,
                  struct belady_result *out, struct ps_err *err)
{
    struct dense d = {0};
    uint64_t *next;
    int rc;

    memset(out, 0, sizeof(*out));
    if ((rc = check_geom(g, n, err)) < 0)
        return rc;
    d.id = malloc((n + 1) * sizeof(*d.id));
    d.set = malloc((n + 1) * sizeof(*d.set));
    next = malloc((n + 1) * sizeof(*next));
    if (!d.id || !d.set || !next)
        rc = ps_err_set(err, PS_ENOMEM, "belady: out of memory");
    else
        rc = run_belady(trace, n, g, &d, next, out, err);
    free(d.id);
    free(d.set);
    free(next);
    return rc;
}

/* ------------------------------------------------------------------- LRU */

/* Set s holds its lines oldest first in line[s * assoc ..], n[s] of them. */
struct lru {
    uint64_t *line;
    uint32_t *n;
    uint32_t assoc;
};

/* The way of line in set s, or assoc when absent. */
static uint32_t lru_find(const struct lru *c, uint32_t s, uint64_t line)
{
    const uint64_t *l = c->line + (size_t)s * c->assoc;

    for (uint32_t w = 0; w < c->n[s]; w++)
        if (l[w] == line)
            return w;
    return c->assoc;
}

static void lru_drop(struct lru *c, uint32_t s, uint32_t w)
{
    uint64_t *l = c->line + (size_t)s * c->assoc;

    memmove(l + w, l + w + 1, (size_t)(c->n[s] - w - 1) * sizeof(*l));
    c->n[s]--;
}

static void lru_access(struct lru *c, uint32_t s, uint64_t e, struct belady_result *r)
{
    uint64_t line = line_of(e);
    uint32_t w = lru_find(c, s, line);

    if (e & BELADY_WRITE) {
        if (w < c->assoc) {
            r->write_evicts++;
            lru_drop(c, s, w);
        }
        return;
    }
    if (w < c->assoc) {
        r->hits++;
        lru_drop(c, s, w);
    } else {
        r->misses++;
        if (c->n[s] == c->assoc)
            lru_drop(c, s, 0); /* the least recently used */
    }
    c->line[(size_t)s * c->assoc + c->n[s]++] = line;
}

int belady_lru_misses(const uint64_t *trace, size_t n, const struct belady_geom *g,
                      struct belady_result *out, struct ps_err *err)
{
    struct lru c = {.assoc = g->assoc};
    int rc;

    memset(out, 0, sizeof(*out));
    if ((rc = check_geom(g, n, err)) < 0)
        return rc;
    c.line = malloc((size_t)g->nsets * g->assoc * sizeof(*c.line));
    c.n = calloc(g->nsets, sizeof(*c.n));
    if (!c.line || !c.n)
        rc = ps_err_set(err, PS_ENOMEM, "belady: out of memory");
    for (size_t i = 0; i < n && !rc; i++) {
        uint32_t s;

        count_entry(out, trace[i]);
        if (is_flush(trace[i]))
            memset(c.n, 0, g->nsets * sizeof(*c.n));
        else if (!(rc = set_index(g, line_of(trace[i]), &s, err)))
            lru_access(&c, s, trace[i], out);
    }
    free(c.line);
    free(c.n);
    return rc;
}
