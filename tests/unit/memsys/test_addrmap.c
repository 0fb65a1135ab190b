/*
 * Unit tests for memsys/addrmap: the GTX 480 mapping string (6 channels x
 * 2 sub-partitions, channel id taken at bit 8), bank/row/column fields of
 * hand-computed addresses, a D-letter map, the bit extract helper, and the
 * errors of malformed strings.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "memsys/addrmap.h"

#define GTX480_MAP                                                                                 \
    "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS"

static struct mem_req decode(const struct mem_addrmap *m, uint64_t addr)
{
    struct mem_req r;

    memset(&r, 0, sizeof(r));
    r.addr = addr;
    mem_addrmap_decode(m, &r);
    return r;
}

static void gtx480(struct mem_addrmap *m)
{
    struct ps_err err;

    ps_err_clear(&err);
    assert_int_equal(mem_addrmap_parse(GTX480_MAP, 6, 2, 16, m, &err), 0);
}

static void test_addrmap_masks(void **state)
{
    struct mem_addrmap m;

    (void)state;
    gtx480(&m);
    assert_int_equal(m.dramid_at, 8);
    assert_true(m.mask_row == 0x0fff0000ull);
    assert_true(m.mask_bank == 0xe100ull);
    assert_true(m.mask_col == 0x1effull);
    assert_true(m.mask_chan == 0);
}

static void test_addrmap_channel_interleave(void **state)
{
    struct mem_addrmap m;

    (void)state;
    gtx480(&m);
    /* Consecutive 256-byte chunks go to channels 0..5, then wrap. */
    for (uint64_t k = 0; k < 48; k++) {
        struct mem_req a = decode(&m, k * 256), b = decode(&m, k * 256 + 255);

        assert_int_equal(a.chan, k % 6);
        assert_int_equal(b.chan, k % 6);
        assert_int_equal(a.bank, b.bank);
    }
}

static void test_addrmap_fields(void **state)
{
    struct mem_addrmap m;
    struct mem_req r;

    (void)state;
    gtx480(&m);
    /* 0x600 = chunk 6: channel 0 again, the rest address is 0x100, i.e. bank bit 0. */
    r = decode(&m, 0x600);
    assert_int_equal(r.chan, 0);
    assert_int_equal(r.bank, 1);
    assert_int_equal(r.row, 0);
    assert_int_equal(r.col, 0);
    assert_int_equal(r.part, 1);
    /*
     * 0x12345678: upper = 0x123456 = 6 * 198841, so channel 0 and the rest
     * address is (198841 << 8) | 0x78 = 0x308b978. Row = bits 27..16 = 0x308,
     * bank = bits 15,14,13,8 = 1,0,1,1 = 11, column = bits 12..9 (0xc) above
     * bits 7..0 (0x78) = 0xc78; sub-partition = bank bit 0.
     */
    r = decode(&m, 0x12345678);
    assert_int_equal(r.chan, 0);
    assert_int_equal(r.row, 0x308);
    assert_int_equal(r.bank, 11);
    assert_int_equal(r.col, 0xc78);
    assert_int_equal(r.part, 1);
    /* 256 bytes further: upper = 6 * 198841 + 1, so channel 1 with the same rest. */
    r = decode(&m, 0x12345778);
    assert_int_equal(r.chan, 1);
    assert_int_equal(r.row, 0x308);
    assert_int_equal(r.bank, 11);
    assert_int_equal(r.col, 0xc78);
    assert_int_equal(r.part, 3);
    /* 0xfffffff0: upper = 0xffffff = 6 * 2796202 + 3, rest = 0x2aaaaaf0. */
    r = decode(&m, 0xfffffff0ull);
    assert_int_equal(r.chan, 3);
    assert_int_equal(r.row, 0xaaa);
    assert_int_equal(r.bank, 10);
    assert_int_equal(r.col, 0x5f0);
    assert_int_equal(r.part, 6);
}

static void test_addrmap_part_range(void **state)
{
    struct mem_addrmap m;
    uint64_t x = 88172645463325252ull;
    unsigned seen[12] = {0};

    (void)state;
    gtx480(&m);
    for (int k = 0; k < 20000; k++) {
        struct mem_req r;

        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        r = decode(&m, x & 0xffffffffffull);
        assert_true(r.part < 12);
        assert_true(r.chan < 6);
        assert_int_equal(r.part / 2, r.chan);
        assert_true(r.bank < 16);
        seen[r.part]++;
    }
    for (int p = 0; p < 12; p++)
        assert_true(seen[p] > 0);
}

static void test_addrmap_dletters(void **state)
{
    struct mem_addrmap m;
    struct ps_err err;
    /* 4 channels from bits 9..8, 2 banks from bit 10, row above. */
    const char *s = "00000000.00000000.00000000.00000000.00000000.RRRRRRRR.RRRRRBDD.CCCCCCCC";
    struct mem_req r;

    (void)state;
    assert_int_equal(mem_addrmap_parse(s, 4, 2, 2, &m, &err), 0);
    assert_int_equal(m.dramid_at, -1);
    r = decode(&m, 0x300);
    assert_int_equal(r.chan, 3);
    assert_int_equal(r.bank, 0);
    r = decode(&m, 0x4201);
    assert_int_equal(r.chan, 2);
    assert_int_equal(r.bank, 0);
    assert_int_equal(r.row, 8); /* bit 14 is row bit 3 */
    assert_int_equal(r.col, 1);
    assert_int_equal(r.part, 4);
    r = decode(&m, 0x700);
    assert_int_equal(r.bank, 1);
    assert_int_equal(r.part, 7);
}

static void test_addrmap_pext(void **state)
{
    (void)state;
    assert_true(mem_pext(0xabcd, 0) == 0);
    assert_true(mem_pext(0xabcd, 0xf0) == 0xc);
    assert_true(mem_pext(0xf0f0, 0xff00) == 0xf0);
    assert_true(mem_pext(0x8000000000000001ull, 0x8000000000000001ull) == 3);
    assert_true(mem_pext(0x123456789abcdef0ull, ~0ull) == 0x123456789abcdef0ull);
    assert_true(mem_pext(0xff00ull, 0x0ff0ull) == 0xf0);
    assert_true(mem_pext(0xa5ull, 0x55ull) == 0x3);
}

static void expect_error(const char *s, uint32_t nchan, uint32_t nsub, uint32_t nbk)
{
    struct mem_addrmap m;
    struct ps_err err;

    ps_err_clear(&err);
    assert_int_equal(mem_addrmap_parse(s, nchan, nsub, nbk, &m, &err), PS_EINVAL);
    assert_int_equal(err.code, PS_EINVAL);
    assert_true(strstr(err.msg, "address map") != NULL);
}

/*
 * The partition address spreads every slice's lines over all 64 sets of a
 * 64-set L2 slice, and keeps distinct lines of one slice distinct.
 */
static void test_addrmap_partition_addr(void **state)
{
    struct mem_addrmap m;
    uint8_t seen[12][64] = {{0}};

    (void)state;
    gtx480(&m);
    for (uint64_t a = 0; a < 12 * 64 * 128 * 4; a += 128) {
        struct mem_req r = {.addr = a};
        uint64_t pa = mem_addrmap_partition_addr(&m, a);

        mem_addrmap_decode(&m, &r);
        seen[r.part][(pa >> 7) % 64] = 1;
        /* Injective within a slice: the next line of the same slice maps elsewhere. */
        assert_int_not_equal(pa, mem_addrmap_partition_addr(&m, a + 12 * 256));
    }
    for (int p = 0; p < 12; p++)
        for (int set = 0; set < 64; set++)
            assert_true(seen[p][set]);
}

static uint64_t next_rand(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s ^ *s >> 29;
}

/* Planned extraction equals mem_pext on masks of few and many runs; pdep undoes pext. */
static void test_addrmap_pext_plan(void **state)
{
    uint64_t s = 4242;

    (void)state;
    for (int i = 0; i < 20000; i++) {
        uint64_t mask = next_rand(&s), v = next_rand(&s);
        struct mem_pext_plan pl;

        if (i % 3 == 0)
            mask &= next_rand(&s) & next_rand(&s); /* sparse: many runs */
        else if (i % 3 == 1)
            mask = (mask >> (i % 64)) << (i % 7); /* long runs */
        mem_pext_plan(&pl, mask);
        assert_true(mem_pext_by(&pl, v) == mem_pext(v, mask));
        assert_true(mem_pext(mem_pdep(v, mask), mask) ==
                    (__builtin_popcountll(mask) == 64
                         ? v
                         : v & ((1ull << __builtin_popcountll(mask)) - 1)));
    }
}

/* The partition address by its definition: channel bits out, then the sub-partition's. */
static uint64_t ref_partition_addr(const struct mem_addrmap *m, uint64_t a)
{
    uint64_t rest = a, sub_bits = 0, bank = m->mask_bank;

    if (m->dramid_at >= 0) {
        unsigned n = (unsigned)m->dramid_at;

        rest = ((a >> n) / m->nchan << n) | (a & ((1ull << n) - 1));
    } else if (m->mask_chan) {
        rest = mem_pext(a, ~m->mask_chan);
        bank = mem_pext(bank, ~m->mask_chan);
    }
    for (uint32_t n = m->nsub; n > 1 && bank; n >>= 1) {
        sub_bits |= bank & -bank;
        bank &= bank - 1;
    }
    return mem_pext(rest, ~sub_bits);
}

/* Decoding and partition addresses of random addresses on dramid@ and D-letter maps. */
static void test_addrmap_random_vs_definition(void **state)
{
    static const char *maps[] = {
        GTX480_MAP, "00000000.00000000.00000000.00000000.00000000.RRRRRRRR.RRRRRBDD.CCCCCCCC",
        "00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.BDBCCDCB.CDSSSSSS",
        "00000000.00000000.00000000.00000000.RRRRRRRR.RRRRDBBB.CDCCCCCC.CCSSSSSS"};
    static const uint32_t nchan[] = {6, 4, 8, 2}, nsub[] = {2, 2, 2, 4}, nbk[] = {16, 2, 16, 8};
    uint64_t s = 99;

    (void)state;
    for (int k = 0; k < 4; k++) {
        struct mem_addrmap m;
        struct ps_err err;

        assert_int_equal(mem_addrmap_parse(maps[k], nchan[k], nsub[k], nbk[k], &m, &err), 0);
        for (int i = 0; i < 5000; i++) {
            uint64_t a = next_rand(&s) >> (i % 40);
            struct mem_req r = decode(&m, a);
            uint64_t rest = a;
            uint32_t chan = 0;

            if (m.dramid_at >= 0) {
                chan = (uint32_t)((a >> m.dramid_at) % m.nchan);
                rest = ((a >> m.dramid_at) / m.nchan << m.dramid_at) |
                       (a & ((1ull << m.dramid_at) - 1));
            } else if (m.mask_chan) {
                chan = (uint32_t)(mem_pext(a, m.mask_chan) % m.nchan);
            }
            assert_int_equal(r.chan, chan);
            assert_int_equal(r.bank, (uint32_t)mem_pext(rest, m.mask_bank));
            assert_int_equal(r.row, (uint32_t)mem_pext(rest, m.mask_row));
            assert_int_equal(r.col, (uint32_t)mem_pext(rest, m.mask_col));
            assert_true(mem_addrmap_partition_addr(&m, a) == ref_partition_addr(&m, a));
        }
    }
}

static void test_addrmap_errors(void **state)
{
    (void)state;
    /* 63 letters. */
    expect_error("dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.BBBCCCCB.CSSSSSS",
                 6, 2, 16);
    /* 65 letters. */
    expect_error(
        "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSSS", 6, 2,
        16);
    /* A bad letter. */
    expect_error("dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.BBBCCXCB.CCSSSSSS",
                 6, 2, 16);
    /* dramid@ without a number, without ';', out of range. */
    expect_error("dramid@;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS",
                 6, 2, 16);
    expect_error("dramid@8:00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS",
                 6, 2, 16);
    expect_error(
        "dramid@64;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS", 6, 2,
        16);
    /* No channel bits for 6 channels. */
    expect_error("00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS", 6, 2,
                 16);
    /* Two D bits cannot reach 6 channels; dramid@ and D together. */
    expect_error("00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.BBBCCDDB.CCSSSSSS", 6, 2,
                 16);
    expect_error("dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.BBBCCCDB.CCSSSSSS",
                 6, 2, 16);
    /* Four bank bits for 8 banks; 3 sub-partitions; no string. */
    expect_error(GTX480_MAP, 6, 2, 8);
    expect_error(GTX480_MAP, 6, 3, 16);
    expect_error(NULL, 6, 2, 16);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_addrmap_masks),
        cmocka_unit_test(test_addrmap_channel_interleave),
        cmocka_unit_test(test_addrmap_fields),
        cmocka_unit_test(test_addrmap_part_range),
        cmocka_unit_test(test_addrmap_dletters),
        cmocka_unit_test(test_addrmap_pext),
        cmocka_unit_test(test_addrmap_errors),
        cmocka_unit_test(test_addrmap_partition_addr),
        cmocka_unit_test(test_addrmap_pext_plan),
        cmocka_unit_test(test_addrmap_random_vs_definition),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
