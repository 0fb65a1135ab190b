#include "common/arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define ARENA_CHUNK (64 * 1024)

struct chunk {
    struct chunk *next;
    size_t size;
    size_t used;
    /* Payload follows; kept 16-byte aligned by the header padding below. */
    _Alignas(16) unsigned char data[];
};

struct ps_arena {
    struct chunk *head;
    size_t used;
};

struct ps_arena *ps_arena_create(void)
{
    return calloc(1, sizeof(struct ps_arena));
}

void ps_arena_destroy(struct ps_arena *a)
{
    struct chunk *c, *next;

    if (!a)
        return;
    for (c = a->head; c; c = next) {
        next = c->next;
        free(c);
    }
    free(a);
}

static struct chunk *chunk_new(size_t min)
{
    size_t size = min > ARENA_CHUNK ? min : ARENA_CHUNK;
    struct chunk *c = malloc(sizeof(*c) + size);

    if (!c)
        return NULL;
    c->next = NULL;
    c->size = size;
    c->used = 0;
    return c;
}

void *ps_arena_alloc(struct ps_arena *a, size_t size)
{
    struct chunk *c = a->head;
    void *p;

    size = (size + 15) & ~(size_t)15;
    if (!c || c->size - c->used < size) {
        c = chunk_new(size);
        if (!c)
            return NULL;
        /* A huge block goes behind the head so the head's free space stays usable. */
        if (a->head && size > ARENA_CHUNK) {
            c->next = a->head->next;
            a->head->next = c;
        } else {
            c->next = a->head;
            a->head = c;
        }
    }
    p = c->data + c->used;
    c->used += size;
    a->used += size;
    memset(p, 0, size);
    return p;
}

char *ps_arena_strndup(struct ps_arena *a, const char *s, size_t n)
{
    char *p = ps_arena_alloc(a, n + 1);

    if (!p)
        return NULL;
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

size_t ps_arena_used(const struct ps_arena *a)
{
    return a->used;
}
