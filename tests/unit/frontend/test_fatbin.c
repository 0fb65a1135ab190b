/*
 * Unit tests for frontend/fatbin: the fixtures under $srcdir/tests/fatbin
 * (made by tests/fatbin/regen.sh with nvcc 13.0) decoded in every
 * compression mode and compared with the uncompressed build byte for byte;
 * a zlib entry and an identifier built by hand; fatbin_pick_ptx; the
 * registration wrapper; the host ELF helpers; and corrupt input (truncation,
 * bad sizes, bad magic, garbage payloads, every single-byte change), which
 * must give PS_EPARSE and never crash.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <zlib.h>

#include "common/err.h"
#include "frontend/fatbin.h"

#define VADD_ENTRY "_Z4vaddPKfS0_Pfi"

struct blob {
    uint8_t *data;
    size_t len;
};

static char *fixture_path(const char *name)
{
    const char *srcdir = getenv("srcdir");
    char *path;

    if (!srcdir)
        srcdir = "..";
    path = malloc(strlen(srcdir) + strlen(name) + 32);
    assert_non_null(path);
    sprintf(path, "%s/tests/fatbin/%s", srcdir, name);
    return path;
}

static struct blob load(const char *name)
{
    char *path = fixture_path(name);
    FILE *f = fopen(path, "rb");
    struct blob b = {0};
    long n;

    if (!f)
        fail_msg("cannot open %s; set srcdir to the source tree", path);
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    n = ftell(f);
    assert_true(n > 0);
    rewind(f);
    b.data = malloc((size_t)n);
    assert_non_null(b.data);
    assert_int_equal(fread(b.data, 1, (size_t)n, f), (size_t)n);
    b.len = (size_t)n;
    fclose(f);
    free(path);
    return b;
}

static void parse_ok(const struct blob *b, struct fatbin *fb)
{
    struct ps_err err;

    if (fatbin_parse(b->data, b->len, fb, &err))
        fail_msg("fatbin_parse: %s", err.msg);
    assert_int_equal(err.code, PS_OK);
}

static uint8_t *data_ok(const struct fatbin_entry *e, size_t *len)
{
    struct ps_err err;
    uint8_t *d;

    if (fatbin_entry_data(e, &d, len, &err))
        fail_msg("fatbin_entry_data: %s", err.msg);
    assert_int_equal(d[*len], 0);
    return d;
}

static void put16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v)
{
    put16(p, (uint16_t)v);
    put16(p + 2, (uint16_t)(v >> 16));
}

static void put64(uint8_t *p, uint64_t v)
{
    put32(p, (uint32_t)v);
    put32(p + 4, (uint32_t)(v >> 32));
}

/* A one-entry fatbin: container header, entry header of hsize bytes, payload. */
static struct blob make_fatbin(uint16_t kind, uint32_t hsize, uint64_t flags, const void *payload,
                               uint32_t psize, uint64_t usize)
{
    uint32_t padded = (psize + 7) & ~7u;
    struct blob b;

    b.len = 16 + hsize + padded;
    b.data = calloc(1, b.len);
    assert_non_null(b.data);
    put32(b.data, 0xBA55ED50u);
    put16(b.data + 4, 1);
    put16(b.data + 6, 16);
    put64(b.data + 8, hsize + padded);
    put16(b.data + 16, kind);
    put16(b.data + 18, 0x0101);
    put32(b.data + 20, hsize);
    put64(b.data + 24, padded);
    put32(b.data + 16 + 0x10, (flags & 0xF000u) ? psize : 0);
    put16(b.data + 16 + 0x18, 0);
    put16(b.data + 16 + 0x1a, 9);
    put32(b.data + 16 + 0x1c, 75);
    put64(b.data + 16 + 0x28, flags);
    put64(b.data + 16 + 0x38, (flags & 0xF000u) ? usize : 0);
    memcpy(b.data + 16 + hsize, payload, psize);
    return b;
}

/* The PTX text of the uncompressed fixture (entry 2), NUL-terminated. */
static uint8_t *none_ptx(size_t *len)
{
    struct blob b = load("vadd_none.fatbin");
    struct fatbin fb;
    uint8_t *d;

    parse_ok(&b, &fb);
    d = data_ok(&fb.entries[2], len);
    *len = strlen((char *)d) + 1; /* the text and its NUL, as nvcc counts it */
    fatbin_free(&fb);
    free(b.data);
    return d;
}

static void test_fatbin_layout_none(void **state)
{
    struct blob b = load("vadd_none.fatbin");
    struct fatbin fb;
    uint8_t *d;
    size_t len;

    (void)state;
    parse_ok(&b, &fb);
    /* Two containers: the device-link cubin, then cubin + PTX. */
    assert_int_equal(fb.nentries, 3);
    assert_int_equal(fb.total_size, b.len);
    for (uint32_t i = 0; i < 3; i++) {
        assert_int_equal(fb.entries[i].kind, i < 2 ? FATBIN_ELF : FATBIN_PTX);
        assert_int_equal(fb.entries[i].sm, 75);
        assert_int_equal(fb.entries[i].flags, 0x11);
        assert_string_equal(fb.entries[i].identifier, "");
        assert_int_equal(fb.entries[i].uncompressed_size, fb.entries[i].payload_size);
    }
    assert_int_equal(fb.entries[0].ptx_major, 1); /* cubin code version 1.8 */
    assert_int_equal(fb.entries[0].ptx_minor, 8);
    assert_int_equal(fb.entries[2].ptx_major, 9);
    assert_int_equal(fb.entries[2].ptx_minor, 0);
    assert_int_equal(fb.entries[2].payload_size % 8, 0);
    d = data_ok(&fb.entries[0], &len);
    assert_memory_equal(d, "\177ELF", 4);
    free(d);
    d = data_ok(&fb.entries[2], &len);
    assert_int_equal(len, fb.entries[2].payload_size);
    assert_non_null(strstr((char *)d, ".version 9.0\n.target sm_75\n.address_size 64"));
    assert_non_null(strstr((char *)d, ".entry " VADD_ENTRY));
    free(d);
    fatbin_free(&fb);
    free(b.data);
}

/* Every entry of a compressed build decodes to the uncompressed build's bytes. */
static void compare_with_none(const char *name, uint64_t ptx_method, uint64_t elf_method)
{
    struct blob bn = load("vadd_none.fatbin"), bc = load(name);
    struct fatbin fn, fc;

    parse_ok(&bn, &fn);
    parse_ok(&bc, &fc);
    assert_int_equal(fc.nentries, fn.nentries);
    for (uint32_t i = 0; i < fn.nentries; i++) {
        const struct fatbin_entry *e = &fc.entries[i];
        size_t ln, lc;
        uint8_t *dn = data_ok(&fn.entries[i], &ln), *dc;

        assert_int_equal(e->kind, fn.entries[i].kind);
        assert_int_equal(e->sm, fn.entries[i].sm);
        assert_int_equal(e->flags & 0xF000u, e->kind == FATBIN_PTX ? ptx_method : elf_method);
        dc = data_ok(e, &lc);
        assert_int_equal(lc, e->uncompressed_size);
        /* The raw payload is padded to 8 bytes with zeros. */
        assert_true(lc <= ln && ln - lc < 8);
        assert_memory_equal(dc, dn, lc);
        for (size_t k = lc; k < ln; k++)
            assert_int_equal(dn[k], 0);
        if (e->kind == FATBIN_PTX)
            assert_non_null(strstr((char *)dc, ".entry " VADD_ENTRY));
        free(dn);
        free(dc);
    }
    fatbin_free(&fn);
    fatbin_free(&fc);
    free(bn.data);
    free(bc.data);
}

static void test_fatbin_decode_default_zstd(void **state)
{
    (void)state;
    compare_with_none("vadd_default.fatbin", 0x8000, 0);
}

static void test_fatbin_decode_speed_lz4(void **state)
{
    (void)state;
    compare_with_none("vadd_speed.fatbin", 0x2000, 0);
}

static void test_fatbin_decode_size_zstd_all(void **state)
{
    (void)state;
    compare_with_none("vadd_size.fatbin", 0x8000, 0x8000);
}

/* zlib (flag 0x1000, older toolkits): an entry compressed here with compress2. */
static void test_fatbin_decode_zlib(void **state)
{
    size_t plen, len;
    uint8_t *ptx = none_ptx(&plen), *d;
    uLongf zlen = compressBound(plen);
    uint8_t *z = malloc(zlen);
    struct fatbin fb;
    struct blob b;

    (void)state;
    assert_int_equal(compress2(z, &zlen, ptx, plen, 9), Z_OK);
    b = make_fatbin(FATBIN_PTX, 80, 0x1011, z, (uint32_t)zlen, plen);
    parse_ok(&b, &fb);
    assert_int_equal(fb.nentries, 1);
    assert_int_equal(fb.entries[0].payload_size, zlen);
    d = data_ok(&fb.entries[0], &len);
    assert_int_equal(len, plen);
    assert_memory_equal(d, ptx, plen);
    free(d);
    /* A wrong uncompressed size is caught either way. */
    fb.entries[0].uncompressed_size = plen + 1;
    assert_int_equal(fatbin_entry_data(&fb.entries[0], &d, &len, NULL), PS_EPARSE);
    fb.entries[0].uncompressed_size = plen - 1;
    assert_int_equal(fatbin_entry_data(&fb.entries[0], &d, &len, NULL), PS_EPARSE);
    assert_null(d);
    /* Truncated stream. */
    fb.entries[0].uncompressed_size = plen;
    fb.entries[0].payload_size = zlen / 2;
    assert_int_equal(fatbin_entry_data(&fb.entries[0], &d, &len, NULL), PS_EPARSE);
    fatbin_free(&fb);
    free(b.data);
    free(z);
    free(ptx);
}

static void test_fatbin_identifier(void **state)
{
    static const char text[] = ".version 9.0\n.target sm_75\n.address_size 64\n";
    struct blob b = make_fatbin(FATBIN_PTX, 96, 0x11, text, sizeof(text), 0);
    struct fatbin fb;
    struct ps_err err;

    (void)state;
    memcpy(b.data + 16 + 0x40, "kernels.cu", 10); /* not NUL-terminated in its field */
    memset(b.data + 16 + 0x4a, 'x', 96 - 0x4a);
    put32(b.data + 16 + 0x20, 0x40);
    put32(b.data + 16 + 0x24, 10);
    parse_ok(&b, &fb);
    assert_string_equal(fb.entries[0].identifier, "kernels.cu");
    fatbin_free(&fb);
    /* An identifier outside the entry header is rejected. */
    put32(b.data + 16 + 0x24, 60);
    assert_int_equal(fatbin_parse(b.data, b.len, &fb, &err), PS_EPARSE);
    assert_non_null(strstr(err.msg, "identifier"));
    assert_null(fb.entries);
    free(b.data);
}

static void test_fatbin_pick_ptx(void **state)
{
    struct blob b = load("vadd_multi.fatbin");
    struct fatbin fb;
    struct fatbin_entry es[4] = {{.kind = FATBIN_ELF, .sm = 90},
                                 {.kind = FATBIN_PTX, .sm = 80},
                                 {.kind = FATBIN_PTX, .sm = 52},
                                 {.kind = FATBIN_PTX, .sm = 70}};
    struct fatbin syn = {.entries = es, .nentries = 4};

    (void)state;
    parse_ok(&b, &fb);
    /* ELF sm_75 (device link), ELF sm_75, PTX 75, PTX 80. */
    assert_int_equal(fb.nentries, 4);
    assert_int_equal(fb.entries[2].sm, 75);
    assert_int_equal(fb.entries[3].sm, 80);
    assert_int_equal(fatbin_pick_ptx(&fb, 0), 3);
    assert_int_equal(fatbin_pick_ptx(&fb, 86), 3);
    assert_int_equal(fatbin_pick_ptx(&fb, 80), 3);
    assert_int_equal(fatbin_pick_ptx(&fb, 79), 2);
    assert_int_equal(fatbin_pick_ptx(&fb, 75), 2);
    assert_int_equal(fatbin_pick_ptx(&fb, 70), 2); /* none fits: the lowest */
    assert_int_equal(fatbin_pick_ptx(&syn, 0), 1);
    assert_int_equal(fatbin_pick_ptx(&syn, 75), 3);
    assert_int_equal(fatbin_pick_ptx(&syn, 60), 2);
    assert_int_equal(fatbin_pick_ptx(&syn, 30), 2);
    syn.nentries = 1; /* only an ELF */
    assert_int_equal(fatbin_pick_ptx(&syn, 0), -1);
    syn.nentries = 0;
    assert_int_equal(fatbin_pick_ptx(&syn, 0), -1);
    fatbin_free(&fb);
    free(b.data);
}

/* The wrapper nvcc passes to __cudaRegisterFatBinary (fatbinary_section.h). */
struct test_wrapper {
    int magic;
    int version;
    const unsigned long long *data;
    void *filename_or_fatbins;
};

/*
 * A registered fatbin whose container header claims 2^40 bytes: the wrapper
 * points into this program's loaded image, whose segment end bounds the
 * container, so the length is refused instead of trusted past the end.
 */
static const uint8_t lying_container[64] __attribute__((aligned(16))) = {
    0x50, 0xed, 0x55, 0xba, 1, 0, 16, 0, /* magic, version 1, header 16 bytes */
    0, 0, 0, 0, 0, 1, 0, 0,              /* size 2^40 */
};

static void test_fatbin_wrapper_bounded(void **state)
{
    struct test_wrapper w = {0x466243b1, 1, (const unsigned long long *)lying_container, NULL};
    struct fatbin fb;
    struct ps_err err;

    (void)state;
    assert_int_equal(fatbin_parse_wrapper(&w, &fb, &err), PS_EPARSE);
    assert_non_null(strstr(err.msg, "run past the end"));
    assert_int_equal(fatbin_parse_wrapper_bounded(&w, 64, &fb, &err), PS_EPARSE);
    fatbin_free(&fb);
}

static void test_fatbin_wrapper(void **state)
{
    struct blob b = load("vadd_default.fatbin");
    /* The second container starts after the 16 + 1512 bytes of the first. */
    unsigned long long *copy = malloc(b.len + 8);
    struct test_wrapper w = {0x466243b1, 1, NULL, NULL};
    struct fatbin fb;
    struct ps_err err;

    (void)state;
    memcpy(copy, b.data, b.len);
    w.data = (const unsigned long long *)((const uint8_t *)copy + 1528);
    assert_int_equal(fatbin_parse_wrapper(&w, &fb, &err), 0);
    assert_int_equal(fb.nentries, 2); /* only the container the wrapper points to */
    assert_int_equal(fb.total_size, b.len - 1528);
    assert_int_equal(fb.entries[1].kind, FATBIN_PTX);
    fatbin_free(&fb);
    w.version = 2;
    w.data = copy;
    assert_int_equal(fatbin_parse_wrapper(&w, &fb, &err), 0);
    assert_int_equal(fb.nentries, 1);
    fatbin_free(&fb);
    w.version = 3;
    assert_int_equal(fatbin_parse_wrapper(&w, &fb, &err), PS_EPARSE);
    w.version = 1;
    w.magic = 0x12345678;
    assert_int_equal(fatbin_parse_wrapper(&w, &fb, &err), PS_EPARSE);
    assert_non_null(strstr(err.msg, "magic"));
    w.magic = 0x466243b1;
    w.data = NULL;
    assert_int_equal(fatbin_parse_wrapper(&w, &fb, &err), PS_EPARSE);
    fatbin_free(&fb);
    fatbin_free(NULL);
    free(copy);
    free(b.data);
}

static void expect_parse_error(const uint8_t *data, size_t len, const char *what)
{
    struct fatbin fb;
    struct ps_err err;

    assert_int_equal(fatbin_parse(data, len, &fb, &err), PS_EPARSE);
    assert_int_equal(err.code, PS_EPARSE);
    if (!strstr(err.msg, what))
        fail_msg("message '%s' lacks '%s'", err.msg, what);
    assert_null(fb.entries);
    assert_int_equal(fb.nentries, 0);
}

static void test_fatbin_corrupt_headers(void **state)
{
    struct blob b = load("vadd_default.fatbin");
    uint8_t *c = malloc(b.len + 64);
    struct fatbin fb;
    size_t e2;

    (void)state;
    parse_ok(&b, &fb); /* e2: the PTX entry header (80 bytes) */
    e2 = (size_t)(fb.entries[2].payload - b.data) - 80;
    fatbin_free(&fb);
    expect_parse_error(b.data, 8, "truncated");
    expect_parse_error(b.data, 16 + 40, "past the end");
    expect_parse_error(b.data, b.len - 1, "past the end");
#define RESET() memcpy(c, b.data, b.len)
    RESET();
    c[0] ^= 1;
    expect_parse_error(c, b.len, "magic");
    RESET();
    put16(c + 4, 2);
    expect_parse_error(c, b.len, "version");
    RESET();
    put64(c + 8, UINT64_MAX - 8); /* container size that overflows */
    expect_parse_error(c, b.len, "past the end");
    RESET();
    put32(c + e2 + 4, 16); /* entry header smaller than its fields */
    expect_parse_error(c, b.len, "header size");
    RESET();
    put32(c + e2 + 4, 0x10000); /* entry header past the container */
    expect_parse_error(c, b.len, "header size");
    RESET();
    put64(c + e2 + 8, 1u << 20); /* payload past the container */
    expect_parse_error(c, b.len, "past the container end");
    RESET();
    put32(c + e2 + 0x10, 4096); /* compressed size beyond the payload */
    expect_parse_error(c, b.len, "compressed size");
    /* Trailing garbage is an error; trailing zero padding is not. */
    RESET();
    memcpy(c + b.len, "garbage!garbage!", 16);
    expect_parse_error(c, b.len + 16, "magic");
    memset(c + b.len, 0, 64);
    parse_ok(&(struct blob){c, b.len + 64}, &fb);
    assert_int_equal(fb.nentries, 3);
    assert_int_equal(fb.total_size, b.len);
    fatbin_free(&fb);
    expect_parse_error(c + b.len, 64, "magic");
    assert_int_equal(fatbin_parse(NULL, 0, &fb, NULL), PS_EINVAL);
#undef RESET
    free(c);
    free(b.data);
}

static int entry_data_rc(struct fatbin_entry *e)
{
    struct ps_err err;
    uint8_t *d = NULL;
    size_t len;
    int rc = fatbin_entry_data(e, &d, &len, &err);

    assert_int_equal(rc, err.code);
    if (rc)
        assert_null(d);
    free(d);
    return rc;
}

static void test_fatbin_corrupt_payloads(void **state)
{
    const char *names[] = {"vadd_default.fatbin", "vadd_speed.fatbin"};

    (void)state;
    for (int f = 0; f < 2; f++) {
        struct blob b = load(names[f]);
        struct fatbin fb;
        struct fatbin_entry e;
        uint8_t *junk;

        parse_ok(&b, &fb);
        e = fb.entries[2];
        junk = malloc(e.payload_size);
        memcpy(junk, e.payload, e.payload_size);
        for (uint64_t k = 0; k < e.payload_size; k++)
            junk[k] = (uint8_t)(junk[k] * 7 + 13);
        e.payload = junk;
        assert_int_equal(entry_data_rc(&e), PS_EPARSE); /* garbage */
        e = fb.entries[2];
        e.payload_size -= 9;
        assert_int_equal(entry_data_rc(&e), PS_EPARSE); /* truncated */
        e = fb.entries[2];
        e.uncompressed_size += 100;
        assert_int_equal(entry_data_rc(&e), PS_EPARSE); /* says more than there is */
        e.uncompressed_size -= 200;
        assert_int_equal(entry_data_rc(&e), PS_EPARSE); /* says less than there is */
        /* absurd: must not try to allocate it */
        e.uncompressed_size = UINT64_MAX / 2;
        assert_int_equal(entry_data_rc(&e), PS_EPARSE);
        e = fb.entries[2];
        e.flags = (e.flags & ~0xF000ull) | 0x4000;
        assert_int_equal(entry_data_rc(&e), PS_ENOTSUP);
        e.flags |= 0x8000;
        assert_int_equal(entry_data_rc(&e), PS_ENOTSUP);
        free(junk);
        fatbin_free(&fb);
        free(b.data);
    }
}

/* Every prefix and every single-byte change: errors, never crashes (run under ASan). */
static void test_fatbin_fuzz_fixtures(void **state)
{
    const char *names[] = {"vadd_default.fatbin", "vadd_speed.fatbin", "vadd_size.fatbin"};

    (void)state;
    for (int f = 0; f < 3; f++) {
        struct blob b = load(names[f]);
        uint8_t *c = malloc(b.len);
        unsigned ok = 0;

        for (size_t n = 0; n <= b.len; n += (n < 256 ? 1 : 7)) {
            struct fatbin fb;
            int rc = fatbin_parse(b.data, n, &fb, NULL);

            assert_true(rc == 0 || rc == PS_EPARSE);
            fatbin_free(&fb);
        }
        for (size_t pos = 0; pos < b.len; pos++) {
            struct fatbin fb;

            memcpy(c, b.data, b.len);
            c[pos] ^= (uint8_t)(1u << (pos % 8));
            if (fatbin_parse(c, b.len, &fb, NULL))
                continue;
            for (uint32_t i = 0; i < fb.nentries; i++) {
                int rc = entry_data_rc(&fb.entries[i]);

                assert_true(rc == 0 || rc == PS_EPARSE || rc == PS_ENOTSUP);
                ok += !rc;
            }
            fatbin_free(&fb);
        }
        assert_true(ok > 0);
        free(c);
        free(b.data);
    }
}

static void test_fatbin_empty_and_raw(void **state)
{
    struct blob b = make_fatbin(FATBIN_ELF, 64, 0x11, "", 0, 0);
    struct fatbin fb;
    uint8_t *d;
    size_t len;

    (void)state;
    parse_ok(&b, &fb);
    assert_int_equal(fb.nentries, 1);
    assert_int_equal(fb.entries[0].payload_size, 0);
    d = data_ok(&fb.entries[0], &len);
    assert_int_equal(len, 0);
    free(d);
    fatbin_free(&fb);
    /* A container without entries. */
    put64(b.data + 8, 0);
    parse_ok(&(struct blob){b.data, 16}, &fb);
    assert_int_equal(fb.nentries, 0);
    assert_int_equal(fatbin_pick_ptx(&fb, 0), -1);
    fatbin_free(&fb);
    free(b.data);
}

static void test_fatbin_elf_section(void **state)
{
    char *lib = fixture_path("libtiny.elf"), *raw = fixture_path("vadd_none.fatbin");
    struct ps_err err;
    struct fatbin fb;
    uint8_t *data, *ptx;
    size_t len;
    bool needs = true;
    int i;

    (void)state;
    assert_int_equal(fatbin_read_elf_section(lib, &data, &len, &err), 0);
    assert_int_equal(fatbin_parse(data, len, &fb, &err), 0);
    i = fatbin_pick_ptx(&fb, 0);
    assert_true(i >= 0);
    ptx = data_ok(&fb.entries[i], &len);
    assert_non_null(strstr((char *)ptx, ".entry _Z8tiny_setPii"));
    free(ptx);
    fatbin_free(&fb);
    free(data);
    assert_int_equal(fatbin_elf_needs_cudart(lib, &needs, &err), 0);
    assert_true(needs);
    /* The test program itself: ELF, no fatbin, no libcudart. */
    assert_int_equal(fatbin_read_elf_section("/proc/self/exe", &data, &len, &err), PS_ENOTFOUND);
    assert_null(data);
    assert_int_equal(fatbin_elf_needs_cudart("/proc/self/exe", &needs, &err), 0);
    assert_false(needs);
    /* Not ELF, and missing. */
    assert_int_equal(fatbin_read_elf_section(raw, &data, &len, &err), PS_EPARSE);
    assert_int_equal(fatbin_elf_needs_cudart(raw, &needs, &err), PS_EPARSE);
    assert_int_equal(fatbin_read_elf_section("/nonexistent/x", &data, &len, &err), PS_EIO);
    assert_int_equal(fatbin_elf_needs_cudart("/nonexistent/x", &needs, &err), PS_EIO);
    free(lib);
    free(raw);
}

/* Writes libtiny.elf with 8 bytes at `at` replaced by v to a temporary file; its path. */
static char *damaged_copy(uint64_t at, uint64_t v)
{
    struct blob b = load("libtiny.elf");
    char *path = strdup("/tmp/ptxsim-damaged-elf.XXXXXX");
    int fd = mkstemp(path);

    assert_true(fd >= 0);
    assert_true(at + 8 <= b.len);
    memcpy(b.data + at, &v, 8);
    assert_int_equal(write(fd, b.data, b.len), (ssize_t)b.len);
    close(fd);
    free(b.data);
    return path;
}

/* A damaged section table is reported as such, not as "no .nv_fatbin section". */
static void test_fatbin_elf_damaged(void **state)
{
    struct blob b = load("libtiny.elf");
    uint64_t shoff, names_hdr;
    uint16_t shstrndx;
    struct ps_err err;
    uint8_t *data;
    size_t len;
    char *path;

    (void)state;
    memcpy(&shoff, b.data + 0x28, 8);
    memcpy(&shstrndx, b.data + 0x3e, 2);
    free(b.data);
    names_hdr = shoff + (uint64_t)shstrndx * 64;
    /* The section-name table's offset points far past the file. */
    path = damaged_copy(names_hdr + 0x18, UINT64_C(0xffffff000));
    assert_int_equal(fatbin_read_elf_section(path, &data, &len, &err), PS_EPARSE);
    assert_non_null(strstr(err.msg, "damaged ELF section table"));
    unlink(path);
    free(path);
    /* The section header table itself lies past the end of the file. */
    path = damaged_copy(0x28, UINT64_C(0x7fffff00));
    assert_int_equal(fatbin_read_elf_section(path, &data, &len, &err), PS_EPARSE);
    assert_non_null(strstr(err.msg, "damaged ELF section table"));
    unlink(path);
    free(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fatbin_elf_damaged),
        cmocka_unit_test(test_fatbin_layout_none),
        cmocka_unit_test(test_fatbin_decode_default_zstd),
        cmocka_unit_test(test_fatbin_decode_speed_lz4),
        cmocka_unit_test(test_fatbin_decode_size_zstd_all),
        cmocka_unit_test(test_fatbin_decode_zlib),
        cmocka_unit_test(test_fatbin_identifier),
        cmocka_unit_test(test_fatbin_pick_ptx),
        cmocka_unit_test(test_fatbin_wrapper),
        cmocka_unit_test(test_fatbin_wrapper_bounded),
        cmocka_unit_test(test_fatbin_corrupt_headers),
        cmocka_unit_test(test_fatbin_corrupt_payloads),
        cmocka_unit_test(test_fatbin_fuzz_fixtures),
        cmocka_unit_test(test_fatbin_empty_and_raw),
        cmocka_unit_test(test_fatbin_elf_section),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
