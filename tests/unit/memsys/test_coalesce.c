/*
 * Unit tests for memsys/coalesce: the Fermi coalescer (one request per
 * distinct line, in first-touch order, with the touched 32-byte sectors)
 * and the shared-memory bank-conflict count (distinct words per bank,
 * broadcast, wide accesses, lane groups, limited broadcast).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "memsys/coalesce.h"

#define ALL 0xffffffffu

static struct mem_req tmpl(void)
{
    struct mem_req t;

    memset(&t, 0, sizeof(t));
    t.type = MEM_READ;
    t.warp = 5;
    t.pc = 17;
    t.uid = 99;
    return t;
}

/* addr[i] = base + stride * i */
static void strided(uint64_t *a, uint64_t base, uint64_t stride)
{
    for (uint32_t i = 0; i < 32; i++)
        a[i] = base + stride * i;
}

/* mem_sectors (memsys/req.h) counts the low four bits of a sector mask and ignores the rest. */
static void test_sector_count(void **state)
{
    (void)state;
    for (uint32_t m = 0; m < 256; m++)
        assert_int_equal(mem_sectors(m), (uint32_t)__builtin_popcount(m & 0xf));
}

static void test_coalesce_full_warp(void **state)
{
    struct mem_req t = tmpl(), out[MEM_MAX_WARP_REQS];
    uint64_t a[32];

    (void)state;
    strided(a, 0x1000, 4);
    assert_int_equal(mem_coalesce(a, ALL, 4, 128, &t, out), 1);
    assert_int_equal(out[0].addr, 0x1000);
    assert_int_equal(out[0].bytes, 128);
    assert_int_equal(out[0].sector_mask, 0xf);
    assert_int_equal(out[0].warp, 5); /* the template is copied */
    assert_int_equal(out[0].pc, 17);
    assert_int_equal(out[0].type, MEM_READ);
}

static void test_coalesce_stride2(void **state)
{
    struct mem_req t = tmpl(), out[MEM_MAX_WARP_REQS];
    uint64_t a[32];

    (void)state;
    strided(a, 0x1000, 8);
    assert_int_equal(mem_coalesce(a, ALL, 4, 128, &t, out), 2);
    assert_int_equal(out[0].addr, 0x1000);
    assert_int_equal(out[1].addr, 0x1080);
    assert_int_equal(out[0].sector_mask, 0xf);
    assert_int_equal(out[1].sector_mask, 0xf);
}

static void test_coalesce_scatter(void **state)
{
    struct mem_req t = tmpl(), out[MEM_MAX_WARP_REQS];
    uint64_t a[32];

    (void)state;
    for (uint32_t i = 0; i < 32; i++)
        a[i] = (uint64_t)(31 - i) * 4096 + (i * 37 % 32) * 4;
    assert_int_equal(mem_coalesce(a, ALL, 4, 128, &t, out), 32);
    for (uint32_t i = 0; i < 32; i++) {
        uint32_t sector = (i * 37 % 32) * 4 / 32;

        /* lane order; one sector touched: a 32-byte transaction at that sector */
        assert_int_equal(out[i].addr, (uint64_t)(31 - i) * 4096 + 32 * sector);
        assert_int_equal(out[i].bytes, 32);
        assert_int_equal(out[i].sector_mask, 1u << sector);
    }
    /* Repeats fold into the line first touched. */
    for (uint32_t i = 0; i < 32; i++)
        a[i] = (uint64_t)(4 - i % 5) * 1024 + 32 * (i % 4);
    assert_int_equal(mem_coalesce(a, ALL, 4, 128, &t, out), 5);
    for (uint32_t i = 0; i < 5; i++)
        assert_int_equal(out[i].addr, (uint64_t)(4 - i) * 1024);
    assert_int_equal(out[0].sector_mask, 0xf);
}

/* Fermi's sizing: 128 bytes shrink to a 64-byte half, then to one 32-byte sector. */
static void test_coalesce_transaction_size(void **state)
{
    static const struct {
        uint32_t lanes_at[2]; /* byte offsets in the line of two active lanes */
        uint64_t addr;
        uint32_t bytes;
    } cases[] = {
        {{0, 100}, 0x2000, 128}, /* sectors 0 and 3: both halves */
        {{0, 40}, 0x2000, 64},   /* sectors 0, 1: lower half */
        {{64, 120}, 0x2040, 64}, /* sectors 2, 3: upper half */
        {{36, 60}, 0x2020, 32},  /* sector 1 */
        {{96, 124}, 0x2060, 32}, /* sector 3 */
    };
    struct mem_req t = tmpl(), out[MEM_MAX_WARP_REQS];
    uint64_t a[32];

    (void)state;
    memset(a, 0, sizeof(a));
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        a[0] = 0x2000 + cases[i].lanes_at[0];
        a[1] = 0x2000 + cases[i].lanes_at[1];
        assert_int_equal(mem_coalesce(a, 3, 4, 128, &t, out), 1);
        assert_int_equal(out[0].addr, cases[i].addr);
        assert_int_equal(out[0].bytes, cases[i].bytes);
    }
}

static void test_coalesce_unaligned_crossing(void **state)
{
    struct mem_req t = tmpl(), out[MEM_MAX_WARP_REQS];
    uint64_t a[32];

    (void)state;
    memset(a, 0, sizeof(a));
    a[0] = 0x107e; /* bytes 0x107e..0x1081 */
    assert_int_equal(mem_coalesce(a, 1, 4, 128, &t, out), 2);
    assert_int_equal(out[0].addr, 0x1060); /* the last sector of line 0x1000 */
    assert_int_equal(out[0].sector_mask, 0x8);
    assert_int_equal(out[1].addr, 0x1080);
    assert_int_equal(out[1].sector_mask, 0x1);
    /* The whole warp shifted by 2 bytes: 2 lines. */
    strided(a, 0x1002, 4);
    assert_int_equal(mem_coalesce(a, ALL, 4, 128, &t, out), 2);
    assert_int_equal(out[0].sector_mask, 0xf);
    assert_int_equal(out[1].sector_mask, 0x1);
}

static void test_coalesce_inactive_lanes(void **state)
{
    struct mem_req t = tmpl(), out[MEM_MAX_WARP_REQS];
    uint64_t a[32];

    (void)state;
    strided(a, 0, 4096);
    assert_int_equal(mem_coalesce(a, 0, 4, 128, &t, out), 0);
    assert_int_equal(mem_coalesce(a, 1u | 1u << 31, 4, 128, &t, out), 2);
    assert_int_equal(out[0].addr, 0);
    assert_int_equal(out[1].addr, 31 * 4096);
}

static void test_coalesce_vector16(void **state)
{
    struct mem_req t = tmpl(), out[MEM_MAX_WARP_REQS];
    uint64_t a[32];

    (void)state;
    strided(a, 0x2000, 16);
    assert_int_equal(mem_coalesce(a, ALL, 16, 128, &t, out), 4);
    for (uint32_t i = 0; i < 4; i++) {
        assert_int_equal(out[i].addr, 0x2000 + 128 * i);
        assert_int_equal(out[i].sector_mask, 0xf);
    }
}

static void test_coalesce_segments32(void **state)
{
    struct mem_req t = tmpl(), out[MEM_MAX_WARP_REQS];
    uint64_t a[32];

    (void)state;
    /* .cg: 32-byte segments, sector bits still relative to the 128-byte line. */
    strided(a, 0x1000, 4);
    assert_int_equal(mem_coalesce(a, ALL, 4, 32, &t, out), 4);
    for (uint32_t i = 0; i < 4; i++) {
        assert_int_equal(out[i].addr, 0x1000 + 32 * i);
        assert_int_equal(out[i].bytes, 32);
        assert_int_equal(out[i].sector_mask, 1u << i);
    }
    memset(a, 0, sizeof(a));
    a[0] = 0x1040;
    assert_int_equal(mem_coalesce(a, 1, 4, 64, &t, out), 1);
    assert_int_equal(out[0].addr, 0x1040);
    assert_int_equal(out[0].sector_mask, 0x4);
}

/*
 * Atomics (GPGPU-Sim's memory_coalescing_arch_atomic): 32-byte segments,
 * and lanes whose bytes overlap get requests of their own.
 */
static void test_coalesce_atomic(void **state)
{
    struct mem_req t = tmpl(), out[MEM_MAX_WARP_REQS];
    uint64_t a[32];

    (void)state;
    /* Every lane adds to one counter: one request per lane. */
    for (uint32_t i = 0; i < 32; i++)
        a[i] = 0x2044;
    assert_int_equal(mem_coalesce_atomic(a, ALL, 4, &t, out), 32);
    for (uint32_t i = 0; i < 32; i++) {
        assert_int_equal(out[i].addr, 0x2040);
        assert_int_equal(out[i].bytes, 32);
        assert_int_equal(out[i].sector_mask, 0x4);
        assert_int_equal(out[i].warp, 5);
    }
    /* Distinct words: one request per 32-byte segment, as for .cg accesses. */
    strided(a, 0x1000, 4);
    assert_int_equal(mem_coalesce_atomic(a, ALL, 4, &t, out), 4);
    for (uint32_t i = 0; i < 4; i++) {
        assert_int_equal(out[i].addr, 0x1000 + 32 * i);
        assert_int_equal(out[i].sector_mask, 1u << i);
    }
    /* Lanes 0 and 1 on one word, lane 2 on another word of the segment: lane 2 joins the
     * first request (its bytes are free there), lane 1 has its own. */
    a[0] = a[1] = 0x3000;
    a[2] = 0x3008;
    assert_int_equal(mem_coalesce_atomic(a, 0x7, 4, &t, out), 2);
    /* A lane's 8-byte atomic overlapping another's 4 bytes is a conflict too. */
    a[0] = 0x3000;
    a[1] = 0x3004;
    a[2] = 0x3000;
    assert_int_equal(mem_coalesce_atomic(a, 0x3, 4, &t, out), 1);
    assert_int_equal(mem_coalesce_atomic(a, 0x5, 8, &t, out), 2);
    /* Inactive lanes send nothing. */
    assert_int_equal(mem_coalesce_atomic(a, 0, 4, &t, out), 0);
}

static void test_coalesce_max_requests(void **state)
{
    struct mem_req t = tmpl(), out[MEM_MAX_WARP_REQS];
    uint64_t a[32];

    (void)state;
    /* Every lane straddles two lines of its own: the 64-request worst case. */
    for (uint32_t i = 0; i < 32; i++)
        a[i] = (uint64_t)i * 4096 + 124;
    assert_int_equal(mem_coalesce(a, ALL, 8, 128, &t, out), MEM_MAX_WARP_REQS);
}

/* ---- shared memory ---- */

static void test_shmem_conflict_free(void **state)
{
    uint64_t a[32];

    (void)state;
    strided(a, 0x100, 4);
    assert_int_equal(mem_shmem_cycles(a, ALL, 4, 32, 1, false), 1);
    assert_int_equal(mem_shmem_cycles(a, 0, 4, 32, 1, false), 1); /* at least 1 */
}

static void test_shmem_broadcast(void **state)
{
    uint64_t a[32];

    (void)state;
    strided(a, 0x40, 0);
    assert_int_equal(mem_shmem_cycles(a, ALL, 4, 32, 1, false), 1);
    assert_int_equal(mem_shmem_cycles(a, ALL, 4, 32, 1, true), 1);
    /* Bytes of one word are one word. */
    for (uint32_t i = 0; i < 32; i++)
        a[i] = 0x40 + i % 4;
    assert_int_equal(mem_shmem_cycles(a, ALL, 1, 32, 1, false), 1);
}

static void test_shmem_strides(void **state)
{
    uint64_t a[32];

    (void)state;
    strided(a, 0, 8); /* stride 2 words */
    assert_int_equal(mem_shmem_cycles(a, ALL, 4, 32, 1, false), 2);
    strided(a, 0, 128); /* stride 32 words: one bank */
    assert_int_equal(mem_shmem_cycles(a, ALL, 4, 32, 1, false), 32);
    strided(a, 0, 12); /* odd stride 3: conflict-free */
    assert_int_equal(mem_shmem_cycles(a, ALL, 4, 32, 1, false), 1);
}

static void test_shmem_wide(void **state)
{
    uint64_t a[32];

    (void)state;
    strided(a, 0, 8); /* 8-byte lanes: 64 words over 32 banks */
    assert_int_equal(mem_shmem_cycles(a, ALL, 8, 32, 1, false), 2);
    strided(a, 0, 16);
    assert_int_equal(mem_shmem_cycles(a, ALL, 16, 32, 1, false), 4);
    strided(a, 0x80, 0); /* every lane the same 8 bytes */
    assert_int_equal(mem_shmem_cycles(a, ALL, 8, 32, 1, false), 1);
}

static void test_shmem_warp_parts(void **state)
{
    uint64_t a[32];

    (void)state;
    strided(a, 0, 4);
    assert_int_equal(mem_shmem_cycles(a, ALL, 4, 32, 2, false), 2);
    assert_int_equal(mem_shmem_cycles(a, 0xffffu, 4, 32, 2, false), 1);
    strided(a, 0, 128);
    assert_int_equal(mem_shmem_cycles(a, ALL, 4, 32, 2, false), 32); /* 16 + 16 */
}

static void test_shmem_limited_broadcast(void **state)
{
    uint64_t a[32];

    (void)state;
    /* Half the warp on word 0 (bank 0), half on word 1 (bank 1). */
    for (uint32_t i = 0; i < 32; i++)
        a[i] = i < 16 ? 0 : 4;
    assert_int_equal(mem_shmem_cycles(a, ALL, 4, 32, 1, false), 1);
    assert_int_equal(mem_shmem_cycles(a, ALL, 4, 32, 1, true), 16);
    /* Word 0 and word 32 share bank 0. */
    for (uint32_t i = 0; i < 32; i++)
        a[i] = i < 16 ? 0 : 128;
    assert_int_equal(mem_shmem_cycles(a, ALL, 4, 32, 1, false), 2);
    assert_int_equal(mem_shmem_cycles(a, ALL, 4, 32, 1, true), 17);
    /* Broadcast plus a conflict: bank 0 sees word 0 and 16 others. */
    for (uint32_t i = 0; i < 32; i++)
        a[i] = i < 16 ? 0 : 128 * (i - 15);
    assert_int_equal(mem_shmem_cycles(a, ALL, 4, 32, 1, false), 17);
}

/*
 * A slow reference for mem_shmem_cycles, straight from coalesce.c's rule: per
 * lane group, the busiest bank's cycles; a bank takes one cycle per distinct
 * word, or with limited broadcast one per access except the repeats of the
 * one broadcast word (the lowest (bank, word) that several accesses share).
 */
static uint32_t ref_group(const uint64_t *addr, uint32_t active, uint32_t lane0, uint32_t lanes,
                          uint32_t nw, uint32_t nbanks, bool limited)
{
    uint64_t w[32 * 8];
    uint32_t n = 0, best = 0, cb = UINT32_MAX;
    uint64_t cw = 0;

    for (uint32_t l = lane0; l < lane0 + lanes && l < 32; l++)
        for (uint32_t k = 0; active >> l & 1 && k < nw; k++)
            w[n++] = addr[l] / 4 + k;
    for (uint32_t i = 0; i < n; i++) /* the broadcast word of limited mode */
        for (uint32_t j = 0; j < n; j++) {
            uint32_t b = (uint32_t)(w[i] % nbanks);

            if (i != j && w[i] == w[j] && (b < cb || (b == cb && w[i] < cw)))
                cb = b, cw = w[i];
        }
    for (uint32_t b = 0; b < nbanks; b++) {
        uint32_t c = 0;

        for (uint32_t i = 0; i < n; i++) {
            bool first = true;

            if (w[i] % nbanks != b)
                continue;
            for (uint32_t j = 0; j < i; j++)
                first &= w[j] != w[i];
            c += first || (limited && !(b == cb && w[i] == cw));
        }
        best = c > best ? c : best;
    }
    return best;
}

static uint32_t ref_shmem(const uint64_t *addr, uint32_t active, uint32_t size, uint32_t nbanks,
                          uint32_t parts, bool limited)
{
    uint32_t lanes = 32 / parts, total = 0, nw = (size + 3) / 4;

    for (uint32_t l0 = 0; l0 < 32; l0 += lanes)
        total += ref_group(addr, active, l0, lanes, nw ? nw : 1, nbanks, limited);
    return total ? total : 1;
}

/* Random patterns (few distinct words, so broadcasts and conflicts mix) against the reference. */
static void test_shmem_random_vs_reference(void **state)
{
    uint64_t a[32], seed = 12345;
    static const uint32_t sizes[] = {1, 4, 8, 16};

    (void)state;
    for (uint32_t t = 0; t < 4000; t++) {
        uint32_t words = 1 + t % 70, size = sizes[t % 4], nbanks = t % 3 ? 32 : 16;
        uint32_t active = ALL, parts = 1 + (t / 4) % 2;
        bool limited = (t / 8) % 2;

        for (uint32_t l = 0; l < 32; l++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            a[l] = (seed >> 33) % words * (size < 4 ? 4 : size);
        }
        if (t % 5 == 0)
            active = (uint32_t)(seed >> 7);
        assert_int_equal(mem_shmem_cycles(a, active, size, nbanks, parts, limited),
                         ref_shmem(a, active, size, nbanks, parts, limited));
    }
}

/*
 * The coalescer's rules byte by byte: every byte of every active lane, in
 * lane order, adds its 32-byte sector (numbered within the 128-byte line, or
 * within the line when longer) to its line's request, created on first
 * touch; then Fermi's shrinking of 128-byte requests to a 64-byte half and
 * of 64-byte ones to a sector.
 */
static uint32_t ref_coalesce(const uint64_t *addr, uint32_t active, uint32_t size, uint32_t lb,
                             struct mem_req *out)
{
    uint64_t span = lb > 128 ? lb : 128;
    uint32_t n = 0;

    for (uint32_t l = 0; l < 32; l++)
        for (uint64_t b = addr[l]; active >> l & 1 && b < addr[l] + size; b++) {
            uint64_t base = b / lb * lb, bit = b / 32 * 32 % span / 32;
            uint32_t i = 0;

            while (i < n && out[i].addr != base)
                i++;
            if (i == n) {
                memset(&out[n], 0, sizeof(out[n]));
                out[n].addr = base;
                out[n].bytes = lb;
                n++;
            }
            out[i].sector_mask |= bit < 32 ? 1u << bit : 0;
        }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t m = out[i].sector_mask & 0xf;

        if (out[i].bytes != 128 || !m || ((m & 3) && (m & 0xc)))
            continue;
        out[i].bytes = 64;
        out[i].addr += m & 3 ? 0 : 64;
        m = m & 3 ? m : m >> 2;
        if (m == 1 || m == 2) {
            out[i].bytes = 32;
            out[i].addr += m == 1 ? 0 : 32;
        }
    }
    return n;
}

/* Random lane addresses (aligned and not, lines shared or not), sizes and line lengths. */
static void test_coalesce_random_vs_reference(void **state)
{
    static const uint32_t sizes[] = {1, 2, 4, 8, 16, 3, 12}, lines[] = {128, 32, 64, 256, 96, 1024};
    struct mem_req t, out[MEM_MAX_WARP_REQS], want[MEM_MAX_WARP_REQS];
    uint64_t a[32], seed = 777;

    (void)state;
    memset(&t, 0, sizeof(t));
    for (uint32_t k = 0; k < 6000; k++) {
        uint32_t size = sizes[k % 7], lb = lines[(k / 7) % 6], active = ALL, n;
        uint64_t span = 64 + (k % 11) * 97, base = 0x10000 + (k % 13) * 29;

        for (uint32_t l = 0; l < 32; l++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            a[l] = base + (k % 3 == 0 ? l * (uint64_t)(k % 5 + 1) * size : (seed >> 33) % span);
            if (k % 4 == 1)
                a[l] &= ~(uint64_t)(size - 1 ? (size & (size - 1) ? 0 : size - 1) : 0);
        }
        if (k % 5 == 2)
            active = (uint32_t)(seed >> 11);
        n = mem_coalesce(a, active, size, lb, &t, out);
        assert_int_equal(n, ref_coalesce(a, active, size, lb, want));
        for (uint32_t i = 0; i < n; i++) {
            assert_int_equal(out[i].addr, want[i].addr);
            assert_int_equal(out[i].bytes, want[i].bytes);
            assert_int_equal(out[i].sector_mask, want[i].sector_mask);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sector_count),
        cmocka_unit_test(test_coalesce_full_warp),
        cmocka_unit_test(test_coalesce_stride2),
        cmocka_unit_test(test_coalesce_scatter),
        cmocka_unit_test(test_coalesce_transaction_size),
        cmocka_unit_test(test_coalesce_unaligned_crossing),
        cmocka_unit_test(test_coalesce_inactive_lanes),
        cmocka_unit_test(test_coalesce_vector16),
        cmocka_unit_test(test_coalesce_segments32),
        cmocka_unit_test(test_coalesce_atomic),
        cmocka_unit_test(test_coalesce_max_requests),
        cmocka_unit_test(test_coalesce_random_vs_reference),
        cmocka_unit_test(test_shmem_conflict_free),
        cmocka_unit_test(test_shmem_broadcast),
        cmocka_unit_test(test_shmem_strides),
        cmocka_unit_test(test_shmem_wide),
        cmocka_unit_test(test_shmem_warp_parts),
        cmocka_unit_test(test_shmem_limited_broadcast),
        cmocka_unit_test(test_shmem_random_vs_reference),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
