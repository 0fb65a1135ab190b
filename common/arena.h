/*
 * Bump allocator for objects that live and die together (everything decoded
 * from one PTX module). Allocation is a pointer bump; there is no per-object
 * free, so a parse never leaks on an error path: destroying the arena frees
 * all of it.
 */
#ifndef PTXSIM_COMMON_ARENA_H
#define PTXSIM_COMMON_ARENA_H

#include <stddef.h>

struct ps_arena;

/* Returns a new empty arena, or NULL when out of memory. */
struct ps_arena *ps_arena_create(void);

/* Frees the arena and everything allocated from it; accepts NULL. */
void ps_arena_destroy(struct ps_arena *a);

/* Zeroed memory aligned to 16 bytes, or NULL when out of memory. */
void *ps_arena_alloc(struct ps_arena *a, size_t size);

/* Copies n bytes of s and a terminating NUL into the arena. */
char *ps_arena_strndup(struct ps_arena *a, const char *s, size_t n);

/* Total bytes handed out (for statistics). */
size_t ps_arena_used(const struct ps_arena *a);

#endif
