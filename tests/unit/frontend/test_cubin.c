/*
 * frontend/cubin.c: register counts from a cubin's section headers, on
 * images built here byte by byte (a null section, the section-name table,
 * two kernels' .text sections and a non-code section), and the damaged
 * images it must refuse.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/err.h"
#include "frontend/cubin.h"

#define NSEC 5
#define SHOFF 256

static const char names[] = "\0.shstrtab\0.text._Z1av\0.text._Z1bv\0.nv.info._Z1av";

static void put(uint8_t *p, uint64_t v, unsigned bytes)
{
    for (unsigned i = 0; i < bytes; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void section(uint8_t *img, unsigned i, uint32_t name, uint32_t type, uint64_t off,
                    uint64_t size, uint32_t info)
{
    uint8_t *s = img + SHOFF + 64 * i;

    put(s, name, 4);
    put(s + 4, type, 4);
    put(s + 24, off, 8);
    put(s + 32, size, 8);
    put(s + 44, info, 4);
}

/* A cubin with kernels _Z1av (24 registers) and _Z1bv (63). */
static uint8_t *image(size_t *len)
{
    uint8_t *img = calloc(1, SHOFF + 64 * NSEC);

    memcpy(img, "\177ELF", 4);
    img[4] = 2; /* 64-bit */
    img[5] = 1; /* little-endian */
    put(img + 0x28, SHOFF, 8);
    put(img + 0x3a, 64, 2);
    put(img + 0x3c, NSEC, 2);
    put(img + 0x3e, 1, 2);
    memcpy(img + 128, names, sizeof(names));
    section(img, 1, 1, 3, 128, sizeof(names), 0);
    section(img, 2, 11, 1, 0, 0, 0x18000008u);
    section(img, 3, 23, 1, 0, 0, 0x3f000009u);
    section(img, 4, 35, 0x70000000u, 0, 0, 0x05000002u);
    *len = SHOFF + 64 * NSEC;
    return img;
}

static void test_cubin_kernels(void **state)
{
    struct cubin_kernel *k;
    struct ps_err err;
    uint32_t n;
    size_t len;
    uint8_t *img = image(&len);

    (void)state;
    assert_int_equal(cubin_kernels(img, len, &k, &n, &err), 0);
    assert_int_equal(n, 2);
    assert_string_equal(k[0].name, "_Z1av");
    assert_int_equal(k[0].regs, 24);
    assert_string_equal(k[1].name, "_Z1bv");
    assert_int_equal(k[1].regs, 63);
    cubin_kernels_free(k, n);
    free(img);
}

static void test_cubin_damaged(void **state)
{
    struct cubin_kernel *k;
    struct ps_err err;
    uint32_t n;
    size_t len;
    uint8_t *img = image(&len);

    (void)state;
    /* Section headers past the end of the image. */
    assert_int_equal(cubin_kernels(img, len - 1, &k, &n, &err), PS_EPARSE);
    assert_null(k);
    assert_int_equal(n, 0);
    /* Not an ELF image. */
    img[0] = 0;
    assert_int_equal(cubin_kernels(img, len, &k, &n, &err), PS_EPARSE);
    img[0] = 0x7f;
    /* A section name outside the name table. */
    put(img + SHOFF + 64 * 2, 4096, 4);
    assert_int_equal(cubin_kernels(img, len, &k, &n, &err), PS_EPARSE);
    assert_non_null(strstr(err.msg, "section 2"));
    /* A name table that runs past the image. */
    put(img + SHOFF + 64 * 2, 11, 4);
    put(img + SHOFF + 64 + 32, len, 8);
    assert_int_equal(cubin_kernels(img, len, &k, &n, &err), PS_EPARSE);
    free(img);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cubin_kernels),
        cmocka_unit_test(test_cubin_damaged),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
