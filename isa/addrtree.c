#include "isa/addrtree.h"

#include <stddef.h>

/* A fixed mix of the key (splitmix64's finaliser): deterministic, well spread priorities. */
static uint64_t prio_of(uint64_t k)
{
    k += UINT64_C(0x9e3779b97f4a7c15);
    k = (k ^ (k >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    k = (k ^ (k >> 27)) * UINT64_C(0x94d049bb133111eb);
    return k ^ (k >> 31);
}

static void update(struct isa_anode *n)
{
    uint64_t m = n->len;

    if (n->l && n->l->maxlen > m)
        m = n->l->maxlen;
    if (n->r && n->r->maxlen > m)
        m = n->r->maxlen;
    n->maxlen = m;
}

/* Splits t into keys < key (*lo) and keys >= key (*hi). */
static void split(struct isa_anode *t, uint64_t key, struct isa_anode **lo, struct isa_anode **hi)
{
    if (!t) {
        *lo = *hi = NULL;
    } else if (t->key < key) {
        split(t->r, key, &t->r, hi);
        update(t);
        *lo = t;
    } else {
        split(t->l, key, lo, &t->l);
        update(t);
        *hi = t;
    }
}

/* Joins two treaps whose keys are all smaller in a than in b. */
static struct isa_anode *merge(struct isa_anode *a, struct isa_anode *b)
{
    if (!a)
        return b;
    if (!b)
        return a;
    if (a->prio > b->prio) {
        a->r = merge(a->r, b);
        update(a);
        return a;
    }
    b->l = merge(a, b->l);
    update(b);
    return b;
}

void isa_atree_insert(struct isa_anode **root, struct isa_anode *n)
{
    struct isa_anode *lo, *hi;

    n->l = n->r = NULL;
    n->prio = prio_of(n->key);
    n->maxlen = n->len;
    split(*root, n->key, &lo, &hi);
    *root = merge(merge(lo, n), hi);
}

struct isa_anode *isa_atree_remove(struct isa_anode **pp, uint64_t key)
{
    struct isa_anode *t = *pp, *n;

    if (!t)
        return NULL;
    if (t->key == key) {
        *pp = merge(t->l, t->r);
        t->l = t->r = NULL;
        return t;
    }
    n = isa_atree_remove(key < t->key ? &t->l : &t->r, key);
    if (n)
        update(t); /* the subtree's largest range may have gone */
    return n;
}

struct isa_anode *isa_atree_floor(struct isa_anode *t, uint64_t key)
{
    struct isa_anode *best = NULL;

    while (t) {
        if (t->key <= key) {
            best = t;
            t = t->r;
        } else {
            t = t->l;
        }
    }
    return best;
}

struct isa_anode *isa_atree_ceil(struct isa_anode *t, uint64_t key)
{
    struct isa_anode *best = NULL;

    while (t) {
        if (t->key >= key) {
            best = t;
            t = t->l;
        } else {
            t = t->r;
        }
    }
    return best;
}

static int fits(const struct isa_anode *n, uint64_t need, uint64_t align)
{
    uint64_t a = (n->key + align - 1) & ~(align - 1);

    return a >= n->key && a - n->key <= n->len && n->len - (a - n->key) >= need;
}

struct isa_anode *isa_atree_first_fit(struct isa_anode *t, uint64_t need, uint64_t align)
{
    struct isa_anode *res;

    if (!t || t->maxlen < need)
        return NULL;
    if ((res = isa_atree_first_fit(t->l, need, align)))
        return res;
    if (fits(t, need, align))
        return t;
    return isa_atree_first_fit(t->r, need, align);
}
