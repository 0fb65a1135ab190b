/*
 * Unit tests for common/strmap (string-keyed hash map) and common/arena (bump
 * allocator): the two containers every parse leans on. The map is checked
 * through its public API only: put/get/del, the old value returned on
 * overwrite and delete, growth, reuse of deleted slots, keys that share a
 * prefix or a whole hash, and the count.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/arena.h"
#include "common/strmap.h"

#define KEY(s) (s), (sizeof(s) - 1)

/* Keys must outlive the map: a fixed table of formatted names. */
#define NKEYS 5000
#define KEYLEN 16

/* Key i of a table made by make_keys, as (pointer, length). */
#define KEY_I(keys, i) ((keys) + (size_t)(i)*KEYLEN), strlen((keys) + (size_t)(i)*KEYLEN)

static char *make_keys(const char *prefix, unsigned n)
{
    char *keys = calloc(n, KEYLEN);

    assert_non_null(keys);
    for (unsigned i = 0; i < n; i++)
        snprintf(keys + (size_t)i * KEYLEN, KEYLEN, "%s%u", prefix, i);
    return keys;
}

static void test_strmap_put_get_del(void **state)
{
    struct ps_strmap *m = ps_strmap_create();
    bool oom = false;

    (void)state;
    assert_non_null(m);
    assert_int_equal(ps_strmap_count(m), 0);
    assert_int_equal(ps_strmap_get(m, KEY("x")), PS_STRMAP_NONE);
    assert_int_equal(ps_strmap_del(m, KEY("x")), PS_STRMAP_NONE);
    assert_int_equal(ps_strmap_put(m, KEY("alpha"), 1, &oom), PS_STRMAP_NONE);
    assert_int_equal(ps_strmap_put(m, KEY("beta"), 2, &oom), PS_STRMAP_NONE);
    assert_int_equal(ps_strmap_put(m, KEY("gamma"), 0, &oom), PS_STRMAP_NONE);
    assert_false(oom);
    assert_int_equal(ps_strmap_count(m), 3);
    assert_int_equal(ps_strmap_get(m, KEY("alpha")), 1);
    assert_int_equal(ps_strmap_get(m, KEY("beta")), 2);
    assert_int_equal(ps_strmap_get(m, KEY("gamma")), 0);
    assert_int_equal(ps_strmap_get(m, KEY("delta")), PS_STRMAP_NONE);
    assert_int_equal(ps_strmap_del(m, KEY("beta")), 2);
    assert_int_equal(ps_strmap_get(m, KEY("beta")), PS_STRMAP_NONE);
    assert_int_equal(ps_strmap_del(m, KEY("beta")), PS_STRMAP_NONE);
    assert_int_equal(ps_strmap_count(m), 2);
    assert_int_equal(ps_strmap_get(m, KEY("alpha")), 1);
    assert_int_equal(ps_strmap_get(m, KEY("gamma")), 0);
    ps_strmap_destroy(m);
}

static void test_strmap_overwrite_returns_old(void **state)
{
    struct ps_strmap *m = ps_strmap_create();

    (void)state;
    assert_int_equal(ps_strmap_put(m, KEY("k"), 10, NULL), PS_STRMAP_NONE);
    assert_int_equal(ps_strmap_put(m, KEY("k"), 20, NULL), 10);
    assert_int_equal(ps_strmap_put(m, KEY("k"), 30, NULL), 20);
    assert_int_equal(ps_strmap_count(m), 1);
    assert_int_equal(ps_strmap_get(m, KEY("k")), 30);
    assert_int_equal(ps_strmap_del(m, KEY("k")), 30);
    /* A deleted key comes back as new. */
    assert_int_equal(ps_strmap_put(m, KEY("k"), 40, NULL), PS_STRMAP_NONE);
    assert_int_equal(ps_strmap_get(m, KEY("k")), 40);
    assert_int_equal(ps_strmap_count(m), 1);
    ps_strmap_destroy(m);
}

static void test_strmap_grows_past_thousands(void **state)
{
    char *keys = make_keys("sym_", NKEYS);
    struct ps_strmap *m = ps_strmap_create();
    bool oom = false;

    (void)state;
    for (unsigned i = 0; i < NKEYS; i++) {
        assert_int_equal(ps_strmap_put(m, KEY_I(keys, i), i * 3, &oom), PS_STRMAP_NONE);
        /* Everything inserted so far survives each rehash. */
        if (i % 997 == 0)
            for (unsigned k = 0; k <= i; k++)
                assert_int_equal(ps_strmap_get(m, KEY_I(keys, k)), k * 3);
    }
    assert_false(oom);
    assert_int_equal(ps_strmap_count(m), NKEYS);
    for (unsigned i = 0; i < NKEYS; i++)
        assert_int_equal(ps_strmap_get(m, KEY_I(keys, i)), i * 3);
    assert_int_equal(ps_strmap_get(m, KEY("sym_5000")), PS_STRMAP_NONE);
    assert_int_equal(ps_strmap_get(m, KEY("sym_")), PS_STRMAP_NONE);
    for (unsigned i = 0; i < NKEYS; i += 2)
        assert_int_equal(ps_strmap_del(m, KEY_I(keys, i)), i * 3);
    assert_int_equal(ps_strmap_count(m), NKEYS / 2);
    for (unsigned i = 0; i < NKEYS; i++)
        assert_int_equal(ps_strmap_get(m, KEY_I(keys, i)), i % 2 ? i * 3 : PS_STRMAP_NONE);
    ps_strmap_destroy(m);
    free(keys);
}

/*
 * Deleted slots stay in probe chains as tombstones. Cycling many distinct
 * keys through a small live set must neither lose live keys nor stop
 * finding free slots (the table is rehashed when tombstones pile up).
 */
static void test_strmap_tombstone_reuse(void **state)
{
    enum { CYCLE = 60000 };
    char *keys = make_keys("t", CYCLE);
    struct ps_strmap *m = ps_strmap_create();
    bool oom = false;

    (void)state;
    ps_strmap_put(m, KEY("live_a"), 7, &oom);
    ps_strmap_put(m, KEY("live_b"), 8, &oom);
    for (unsigned i = 0; i < CYCLE; i++) {
        assert_int_equal(ps_strmap_put(m, KEY_I(keys, i), i, &oom), PS_STRMAP_NONE);
        if (i >= 3)
            assert_int_equal(ps_strmap_del(m, KEY_I(keys, i - 3)), i - 3);
    }
    assert_false(oom);
    assert_int_equal(ps_strmap_count(m), 5);
    assert_int_equal(ps_strmap_get(m, KEY("live_a")), 7);
    assert_int_equal(ps_strmap_get(m, KEY("live_b")), 8);
    for (unsigned i = 0; i < CYCLE - 3; i += 101)
        assert_int_equal(ps_strmap_get(m, KEY_I(keys, i)), PS_STRMAP_NONE);
    for (unsigned i = CYCLE - 3; i < CYCLE; i++)
        assert_int_equal(ps_strmap_get(m, KEY_I(keys, i)), i);
    /* Re-inserting a deleted key after the churn is a fresh insert. */
    assert_int_equal(ps_strmap_put(m, KEY_I(keys, 5), 99, &oom), PS_STRMAP_NONE);
    assert_int_equal(ps_strmap_get(m, KEY_I(keys, 5)), 99);
    assert_int_equal(ps_strmap_count(m), 6);
    ps_strmap_destroy(m);
    free(keys);
}

/* Keys compare by (pointer, length): prefixes, embedded NULs and "" are distinct. */
static void test_strmap_prefix_keys(void **state)
{
    static const char buf[] = "keykeykey\0a\0b";
    struct ps_strmap *m = ps_strmap_create();

    (void)state;
    ps_strmap_put(m, buf, 3, 1, NULL);      /* "key" */
    ps_strmap_put(m, buf, 6, 2, NULL);      /* "keykey" */
    ps_strmap_put(m, buf, 9, 3, NULL);      /* "keykeykey" */
    ps_strmap_put(m, buf + 9, 2, 4, NULL);  /* "\0a" */
    ps_strmap_put(m, buf + 11, 2, 5, NULL); /* "\0b" */
    ps_strmap_put(m, buf, 0, 6, NULL);      /* "" */
    assert_int_equal(ps_strmap_count(m), 6);
    assert_int_equal(ps_strmap_get(m, KEY("key")), 1);
    assert_int_equal(ps_strmap_get(m, KEY("keykey")), 2);
    assert_int_equal(ps_strmap_get(m, KEY("keykeykey")), 3);
    assert_int_equal(ps_strmap_get(m, "\0a", 2), 4);
    assert_int_equal(ps_strmap_get(m, "\0b", 2), 5);
    assert_int_equal(ps_strmap_get(m, "", 0), 6);
    assert_int_equal(ps_strmap_get(m, KEY("ke")), PS_STRMAP_NONE);
    assert_int_equal(ps_strmap_get(m, KEY("keyk")), PS_STRMAP_NONE);
    assert_int_equal(ps_strmap_get(m, "\0", 1), PS_STRMAP_NONE);
    /* Lookup keys need not be the stored pointers. */
    {
        char copy[] = "keykey";

        assert_int_equal(ps_strmap_get(m, copy, 6), 2);
    }
    ps_strmap_destroy(m);
}

/* "costarring" and "liquid" have the same 32-bit FNV-1a hash. */
static void test_strmap_equal_hash_keys(void **state)
{
    struct ps_strmap *m = ps_strmap_create();

    (void)state;
    assert_int_equal(ps_strhash(KEY("costarring")), ps_strhash(KEY("liquid")));
    ps_strmap_put(m, KEY("costarring"), 1, NULL);
    assert_int_equal(ps_strmap_get(m, KEY("liquid")), PS_STRMAP_NONE);
    ps_strmap_put(m, KEY("liquid"), 2, NULL);
    assert_int_equal(ps_strmap_count(m), 2);
    assert_int_equal(ps_strmap_get(m, KEY("costarring")), 1);
    assert_int_equal(ps_strmap_get(m, KEY("liquid")), 2);
    assert_int_equal(ps_strmap_del(m, KEY("costarring")), 1);
    assert_int_equal(ps_strmap_get(m, KEY("liquid")), 2);
    assert_int_equal(ps_strmap_get(m, KEY("costarring")), PS_STRMAP_NONE);
    ps_strmap_destroy(m);
}

static void test_strmap_hash_is_fnv1a(void **state)
{
    (void)state;
    assert_int_equal(ps_strhash("", 0), 0x811c9dc5u);
    assert_int_equal(ps_strhash(KEY("a")), 0xe40c292cu);
    assert_int_equal(ps_strhash(KEY("foobar")), 0xbf9cf968u);
}

static void test_strmap_destroy_null(void **state)
{
    (void)state;
    ps_strmap_destroy(NULL);
    ps_arena_destroy(NULL);
}

/* ---- arena ---------------------------------------------------------------- */

static void test_arena_alloc_zeroed_aligned(void **state)
{
    struct ps_arena *a = ps_arena_create();
    size_t total = 0;

    (void)state;
    assert_non_null(a);
    assert_int_equal(ps_arena_used(a), 0);
    for (size_t size = 1; size <= 300; size++) {
        unsigned char *p = ps_arena_alloc(a, size);

        assert_non_null(p);
        assert_int_equal((uintptr_t)p % 16, 0);
        for (size_t i = 0; i < size; i++)
            assert_int_equal(p[i], 0);
        memset(p, 0xa5, size); /* dirty it: the next block must still come back zeroed */
        total += (size + 15) & ~(size_t)15;
    }
    assert_int_equal(ps_arena_used(a), total);
    ps_arena_destroy(a);
}

/* Blocks never overlap, across chunk boundaries too. */
static void test_arena_blocks_distinct(void **state)
{
    enum { N = 5000, SZ = 40 };
    struct ps_arena *a = ps_arena_create();
    unsigned char **blocks = calloc(N, sizeof(*blocks));

    (void)state;
    assert_non_null(blocks);
    for (unsigned i = 0; i < N; i++) {
        blocks[i] = ps_arena_alloc(a, SZ);
        assert_non_null(blocks[i]);
        memset(blocks[i], (int)(i & 0xff), SZ);
    }
    for (unsigned i = 0; i < N; i++)
        for (unsigned k = 0; k < SZ; k++)
            assert_int_equal(blocks[i][k], i & 0xff);
    free(blocks);
    ps_arena_destroy(a);
}

static void test_arena_big_allocations(void **state)
{
    struct ps_arena *a = ps_arena_create();
    unsigned char *small1, *big, *small2, *huge;
    const size_t big_sz = 200 * 1024, huge_sz = 3 * 1024 * 1024 + 5;

    (void)state;
    small1 = ps_arena_alloc(a, 24);
    big = ps_arena_alloc(a, big_sz);
    small2 = ps_arena_alloc(a, 24);
    huge = ps_arena_alloc(a, huge_sz);
    assert_non_null(small1);
    assert_non_null(big);
    assert_non_null(small2);
    assert_non_null(huge);
    assert_int_equal((uintptr_t)big % 16, 0);
    assert_int_equal((uintptr_t)huge % 16, 0);
    for (size_t i = 0; i < big_sz; i += 4093)
        assert_int_equal(big[i], 0);
    assert_int_equal(huge[huge_sz - 1], 0);
    memset(big, 1, big_sz);
    memset(huge, 2, huge_sz);
    memset(small1, 3, 24);
    memset(small2, 4, 24);
    assert_int_equal(big[big_sz - 1], 1);
    assert_int_equal(huge[0], 2);
    assert_int_equal(small1[23], 3);
    assert_int_equal(small2[0], 4);
    assert_int_equal(ps_arena_used(a), 32 + big_sz + 32 + ((huge_sz + 15) & ~(size_t)15));
    ps_arena_destroy(a);
}

static void test_arena_strndup(void **state)
{
    struct ps_arena *a = ps_arena_create();
    char *s;

    (void)state;
    s = ps_arena_strndup(a, "hello world", 5);
    assert_string_equal(s, "hello");
    assert_int_equal((uintptr_t)s % 16, 0);
    s = ps_arena_strndup(a, "xyz", 0);
    assert_non_null(s);
    assert_string_equal(s, "");
    /* Copies exactly n bytes, even past an embedded NUL. */
    s = ps_arena_strndup(a, "a\0b", 3);
    assert_memory_equal(s, "a\0b\0", 4);
    ps_arena_destroy(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_strmap_put_get_del),
        cmocka_unit_test(test_strmap_overwrite_returns_old),
        cmocka_unit_test(test_strmap_grows_past_thousands),
        cmocka_unit_test(test_strmap_tombstone_reuse),
        cmocka_unit_test(test_strmap_prefix_keys),
        cmocka_unit_test(test_strmap_equal_hash_keys),
        cmocka_unit_test(test_strmap_hash_is_fnv1a),
        cmocka_unit_test(test_strmap_destroy_null),
        cmocka_unit_test(test_arena_alloc_zeroed_aligned),
        cmocka_unit_test(test_arena_blocks_distinct),
        cmocka_unit_test(test_arena_big_allocations),
        cmocka_unit_test(test_arena_strndup),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
