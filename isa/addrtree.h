/*
 * An ordered set of address ranges [key, key+len): a treap (a binary search
 * tree by key whose nodes also form a heap by a priority derived from the
 * key, so its shape is deterministic and its depth O(log n) expected). Each
 * node keeps the largest len of its subtree, which lets isa_atree_first_fit
 * find the lowest range that can hold a request in O(log n). The device
 * allocator (isa/devmem.c) keeps its allocations and its free ranges in two
 * of these. Nodes are embedded in the caller's records; the tree owns nothing.
 */
#ifndef PTXSIM_ISA_ADDRTREE_H
#define PTXSIM_ISA_ADDRTREE_H

#include <stdint.h>

struct isa_anode {
    uint64_t key, len;
    uint64_t maxlen; /* largest len in this subtree */
    uint64_t prio;
    struct isa_anode *l, *r;
};

/* Inserts n (key and len set by the caller); keys must be unique. */
void isa_atree_insert(struct isa_anode **root, struct isa_anode *n);
/* Removes and returns the node with exactly this key, or NULL. */
struct isa_anode *isa_atree_remove(struct isa_anode **root, uint64_t key);
/* The node with the largest key <= key, or NULL. */
struct isa_anode *isa_atree_floor(struct isa_anode *root, uint64_t key);
/* The node with the smallest key >= key, or NULL. */
struct isa_anode *isa_atree_ceil(struct isa_anode *root, uint64_t key);
/*
 * The lowest-keyed node that holds `need` bytes starting at an address
 * aligned to align (a power of two): align_up(key, align) + need <= key + len.
 */
struct isa_anode *isa_atree_first_fit(struct isa_anode *root, uint64_t need, uint64_t align);

#endif
