/*
 * Unit tests for isa/printf_fmt: device printf argument buffers built by hand
 * (laid out as nvcc lays them out: each argument aligned to its own size,
 * small integers as 4 bytes, float as double, pointers as 8 bytes) and the
 * exact text glibc gives for each conversion. Every call gets a heap copy of
 * exactly args_len bytes, so the sanitizer build catches any read past it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "isa/printf_fmt.h"

/* ---- argument buffers ---------------------------------------------------- */

struct abuf {
    uint8_t b[512];
    size_t len;
};

static void put(struct abuf *a, const void *v, size_t n)
{
    a->len = (a->len + n - 1) & ~(n - 1);
    assert_true(a->len + n <= sizeof(a->b));
    memcpy(a->b + a->len, v, n);
    a->len += n;
}

static void put_i32(struct abuf *a, int32_t v)
{
    put(a, &v, sizeof(v));
}

static void put_u32(struct abuf *a, uint32_t v)
{
    put(a, &v, sizeof(v));
}

static void put_i64(struct abuf *a, int64_t v)
{
    put(a, &v, sizeof(v));
}

static void put_u64(struct abuf *a, uint64_t v)
{
    put(a, &v, sizeof(v));
}

static void put_f64(struct abuf *a, double v)
{
    put(a, &v, sizeof(v));
}

/* Stores v at a fixed offset (as read from nvcc's st.local) and extends len. */
static void put_at(struct abuf *a, size_t off, const void *v, size_t n)
{
    memcpy(a->b + off, v, n);
    if (a->len < off + n)
        a->len = off + n;
}

/* ---- fake device memory for %s ------------------------------------------- */

#define DEV_BASE 0x7f0000001000ull

struct fake_mem {
    const char *data;
    size_t size;
    int calls;
};

/* Strings at DEV_BASE + offset: "hello" at 0, "world" at 6, "" at 12. */
static const char dev_blob[] = "hello\0world\0";
#define DEV_HELLO (DEV_BASE + 0)
#define DEV_WORLD (DEV_BASE + 6)
#define DEV_EMPTY (DEV_BASE + 12)

static int fake_read(void *ctx, uint64_t addr, char *buf, size_t cap)
{
    struct fake_mem *m = ctx;
    size_t i;

    m->calls++;
    if (addr < DEV_BASE || addr - DEV_BASE >= m->size)
        return PS_EFAULT;
    for (i = 0; i + 1 < cap; i++) {
        if (addr - DEV_BASE + i >= m->size)
            return PS_EFAULT;
        buf[i] = m->data[addr - DEV_BASE + i];
        if (!buf[i])
            return 0;
    }
    buf[i] = '\0';
    return 0;
}

static int failing_read(void *ctx, uint64_t addr, char *buf, size_t cap)
{
    (void)ctx;
    (void)addr;
    (void)buf;
    (void)cap;
    return PS_EFAULT;
}

/* A malloc'd copy of s, as the caller's earlier output (strdup is not C11). */
static char *dup_str(const char *s)
{
    char *p = malloc(strlen(s) + 1);

    if (p)
        strcpy(p, s);
    return p;
}

/* ---- running the formatter ----------------------------------------------- */

/* Formats with an exact-size heap copy of a (or NULL when a is NULL or empty). */
static int run(const char *fmt, const struct abuf *a, isa_printf_read_str rd, void *ctx, char **out,
               size_t *out_len, struct ps_err *err)
{
    size_t n = a ? a->len : 0;
    uint8_t *copy = NULL;
    int rc;

    if (n) {
        copy = malloc(n);
        assert_non_null(copy);
        memcpy(copy, a->b, n);
    }
    ps_err_clear(err);
    rc = isa_printf_format(fmt, copy, n, rd, ctx, out, out_len, err);
    free(copy);
    return rc;
}

/* Expects fmt over a to give exactly want (want_len bytes) and return want_ret. */
static void check_n(const char *fmt, const struct abuf *a, const char *want, size_t want_len,
                    int want_ret)
{
    struct fake_mem mem = {dev_blob, sizeof(dev_blob), 0};
    struct ps_err err;
    char *out = NULL;
    size_t len = 0;
    int rc;

    rc = run(fmt, a, fake_read, &mem, &out, &len, &err);
    if (rc != want_ret || len != want_len || memcmp(out, want, want_len) != 0)
        print_error("format \"%s\": got rc %d \"%s\" (%zu bytes), want rc %d \"%s\" (%s)\n", fmt,
                    rc, out ? out : "", len, want_ret, want, err.msg);
    assert_int_equal(rc, want_ret);
    assert_int_equal(len, want_len);
    assert_memory_equal(out, want, want_len);
    assert_int_equal(out[len], '\0');
    free(out);
}

static void check(const char *fmt, const struct abuf *a, const char *want, int want_ret)
{
    check_n(fmt, a, want, strlen(want), want_ret);
}

/* Expects fmt over a to fail with code, leaving a previous output untouched. */
static void check_err(const char *fmt, const struct abuf *a, isa_printf_read_str rd, int code)
{
    struct fake_mem mem = {dev_blob, sizeof(dev_blob), 0};
    struct ps_err err;
    char *out = dup_str("keep");
    size_t len = 4;
    int rc;

    assert_non_null(out);
    rc = run(fmt, a, rd, &mem, &out, &len, &err);
    if (rc != code)
        print_error("format \"%s\": got rc %d (%s), want %d\n", fmt, rc, err.msg, code);
    assert_int_equal(rc, code);
    assert_int_equal(err.code, code);
    assert_true(err.msg[0] != '\0');
    assert_int_equal(len, 4);
    assert_string_equal(out, "keep");
    free(out);
}

/* ---- tests --------------------------------------------------------------- */

static void test_printf_fmt_empty_format(void **state)
{
    (void)state;
    check("", NULL, "", 0);
}

static void test_printf_fmt_literal_text_and_percent(void **state)
{
    struct abuf a = {0};

    (void)state;
    check("hello, world\n", NULL, "hello, world\n", 0);
    check("100%% done", NULL, "100% done", 0);
    check("%%%%", NULL, "%%", 0);
    put_i32(&a, 7);
    check("[%%%d%%]", &a, "[%7%]", 1);
}

static void test_printf_fmt_signed_int(void **state)
{
    struct abuf a = {0};

    (void)state;
    put_i32(&a, -42);
    put_i32(&a, 2147483647);
    put_i32(&a, (int32_t)0x80000000u);
    check("%d %i %d", &a, "-42 2147483647 -2147483648", 3);
    a.len = 0;
    put_i32(&a, 42);
    check("%+d", &a, "+42", 1);
    check("% d", &a, " 42", 1);
    check("%-5d|", &a, "42   |", 1);
    check("%05d", &a, "00042", 1);
    check("%5.3d", &a, "  042", 1);
    check("%-+6d|", &a, "+42   |", 1);
    check("%+05d", &a, "+0042", 1);
    a.len = 0;
    put_i32(&a, 0);
    check("[%.0d]", &a, "[]", 1);
    check("[%.d]", &a, "[]", 1);
}

static void test_printf_fmt_unsigned_bases(void **state)
{
    struct abuf a = {0};

    (void)state;
    put_u32(&a, 0xffffffffu);
    check("%u", &a, "4294967295", 1);
    check("%x", &a, "ffffffff", 1);
    check("%X", &a, "FFFFFFFF", 1);
    check("%o", &a, "37777777777", 1);
    a.len = 0;
    put_u32(&a, 255);
    check("%#x", &a, "0xff", 1);
    check("%#X", &a, "0XFF", 1);
    check("%#o", &a, "0377", 1);
    check("%#010x", &a, "0x000000ff", 1);
    check("%-#6x|", &a, "0xff  |", 1);
    a.len = 0;
    put_u32(&a, 0);
    put_u32(&a, 0);
    check("%#x %#o", &a, "0 0", 2);
}

static void test_printf_fmt_length_hh_h(void **state)
{
    struct abuf a = {0};

    (void)state;
    /* Promoted to 4 bytes in the buffer; glibc narrows them back. */
    put_i32(&a, 300);
    check("%hhd", &a, "44", 1);
    check("%hd", &a, "300", 1);
    a.len = 0;
    put_i32(&a, -1);
    check("%hhu", &a, "255", 1);
    check("%hu", &a, "65535", 1);
    check("%hhx", &a, "ff", 1);
    a.len = 0;
    put_i32(&a, 70000);
    check("%hd", &a, "4464", 1);
    a.len = 0;
    put_u32(&a, 0x12345);
    check("%hx", &a, "2345", 1);
}

static void test_printf_fmt_length_64bit(void **state)
{
    struct abuf a = {0};

    (void)state;
    put_i64(&a, INT64_MIN);
    check("%ld", &a, "-9223372036854775808", 1);
    check("%lld", &a, "-9223372036854775808", 1);
    check("%jd", &a, "-9223372036854775808", 1);
    a.len = 0;
    put_u64(&a, UINT64_MAX);
    check("%lu", &a, "18446744073709551615", 1);
    check("%llu", &a, "18446744073709551615", 1);
    check("%zu", &a, "18446744073709551615", 1);
    check("%llx", &a, "ffffffffffffffff", 1);
    check("%#lX", &a, "0XFFFFFFFFFFFFFFFF", 1);
    check("%lo", &a, "1777777777777777777777", 1);
    check("%zd", &a, "-1", 1);
    check("%ju", &a, "18446744073709551615", 1);
    a.len = 0;
    put_i64(&a, -5);
    check("%td", &a, "-5", 1);
    check("%+08lli", &a, "-0000005", 1);
    check("%tx", &a, "fffffffffffffffb", 1);
}

static void test_printf_fmt_float(void **state)
{
    struct abuf a = {0};

    (void)state;
    put_f64(&a, 3.14159265358979);
    check("%f", &a, "3.141593", 1);
    check("%.2f", &a, "3.14", 1);
    check("%lf", &a, "3.141593", 1);
    check("%10.4f|", &a, "    3.1416|", 1);
    check("%-10.1f|", &a, "3.1       |", 1);
    check("%+.3e", &a, "+3.142e+00", 1);
    check("%E", &a, "3.141593E+00", 1);
    check("%g", &a, "3.14159", 1);
    check("%G", &a, "3.14159", 1);
    a.len = 0;
    put_f64(&a, -1.5);
    check("%010.3f", &a, "-00001.500", 1);
    check("% f", &a, "-1.500000", 1);
    a.len = 0;
    put_f64(&a, 12345.678);
    check("%e", &a, "1.234568e+04", 1);
    check("%.3g", &a, "1.23e+04", 1);
    a.len = 0;
    put_f64(&a, 1e-10);
    check("%G", &a, "1E-10", 1);
    check("%g", &a, "1e-10", 1);
    a.len = 0;
    put_f64(&a, 3.0);
    check("%#.0f", &a, "3.", 1);
    check("%.0f", &a, "3", 1);
    check("%#g", &a, "3.00000", 1);
    check("% .1f", &a, " 3.0", 1);
}

static void test_printf_fmt_float_special(void **state)
{
    struct abuf a = {0};

    (void)state;
    put_f64(&a, 1.0 / 0.0);
    check("%f", &a, "inf", 1);
    check("%F", &a, "INF", 1);
    check("%+e", &a, "+inf", 1);
    check("%5G|", &a, "  INF|", 1);
    a.len = 0;
    put_f64(&a, -0.0);
    check("%f", &a, "-0.000000", 1);
    check("%g", &a, "-0", 1);
    a.len = 0;
    put_f64(&a, 1e300);
    check("%.3e", &a, "1.000e+300", 1);
}

static void test_printf_fmt_hex_float(void **state)
{
    struct abuf a = {0};

    (void)state;
    put_f64(&a, 1.0);
    check("%a", &a, "0x1p+0", 1);
    check("%A", &a, "0X1P+0", 1);
    check("%.3a", &a, "0x1.000p+0", 1);
    check("%#a", &a, "0x1.p+0", 1);
    a.len = 0;
    put_f64(&a, -0.5);
    check("%A", &a, "-0X1P-1", 1);
    a.len = 0;
    put_f64(&a, 0.1);
    check("%a", &a, "0x1.999999999999ap-4", 1);
}

static void test_printf_fmt_long_double(void **state)
{
    struct abuf a = {0};

    (void)state;
    /* Device long double is double: %Lf reads 8 bytes. */
    put_f64(&a, 1.5);
    put_i32(&a, 9);
    check("%Lf %d", &a, "1.500000 9", 2);
    check("%.2Le", &a, "1.50e+00", 1);
    check("%LG", &a, "1.5", 1);
}

static void test_printf_fmt_char(void **state)
{
    struct abuf a = {0};

    (void)state;
    put_i32(&a, 'A');
    put_i32(&a, 'b');
    check("%c%c", &a, "Ab", 2);
    check("[%3c]", &a, "[  A]", 1);
    check("[%-3c]", &a, "[A  ]", 1);
    a.len = 0;
    put_i32(&a, 0x141); /* %c converts the int to unsigned char */
    check("%c", &a, "A", 1);
    a.len = 0;
    put_i32(&a, 0);
    check_n("<%c>", &a, "<\0>", 3, 1);
}

static void test_printf_fmt_string(void **state)
{
    struct abuf a = {0};

    (void)state;
    put_u64(&a, DEV_HELLO);
    put_u64(&a, DEV_WORLD);
    check("%s, %s!", &a, "hello, world!", 2);
    check("[%8s]", &a, "[   hello]", 1);
    check("[%-8s]", &a, "[hello   ]", 1);
    check("[%.3s]", &a, "[hel]", 1);
    check("[%6.2s]", &a, "[    he]", 1);
    check("[%.0s]", &a, "[]", 1);
    check("[%.10s]", &a, "[hello]", 1);
    a.len = 0;
    put_u64(&a, DEV_EMPTY);
    check("[%s]", &a, "[]", 1);
}

static void test_printf_fmt_string_null(void **state)
{
    struct abuf a = {0};
    struct ps_err err;
    char *out = NULL;
    size_t len = 0;

    (void)state;
    put_u64(&a, 0);
    /* As glibc prints a null %s: "(null)" unless a precision under 6 cuts it to nothing. */
    check("[%s]", &a, "[(null)]", 1);
    check("[%8s]", &a, "[  (null)]", 1);
    check("[%.6s]", &a, "[(null)]", 1);
    check("[%.3s]", &a, "[]", 1);
    /* A null address is never read, so no reader is needed. */
    assert_int_equal(run("%s", &a, NULL, NULL, &out, &len, &err), 1);
    assert_string_equal(out, "(null)");
    free(out);
}

static void test_printf_fmt_string_long(void **state)
{
    struct fake_mem mem;
    struct abuf a = {0};
    struct ps_err err;
    char *blob, *out = NULL;
    size_t len = 0, i;

    (void)state;
    /* 600 chars: more than the first read of 256, so the reader is asked again. */
    blob = malloc(601);
    assert_non_null(blob);
    memset(blob, 'x', 600);
    blob[600] = '\0';
    mem = (struct fake_mem){blob, 601, 0};
    put_u64(&a, DEV_BASE);
    assert_int_equal(run("<%s>", &a, fake_read, &mem, &out, &len, &err), 1);
    assert_int_equal(len, 602);
    assert_int_equal(out[0], '<');
    for (i = 1; i <= 600; i++)
        assert_int_equal(out[i], 'x');
    assert_int_equal(out[601], '>');
    assert_true(mem.calls > 1);
    free(out);
    /* With a precision only that many bytes are asked for, in one read. */
    out = NULL;
    len = 0;
    mem.calls = 0;
    assert_int_equal(run("%.4s", &a, fake_read, &mem, &out, &len, &err), 1);
    assert_string_equal(out, "xxxx");
    assert_int_equal(mem.calls, 1);
    free(out);
    free(blob);
}

static void test_printf_fmt_string_read_failure(void **state)
{
    struct abuf a = {0};

    (void)state;
    put_u64(&a, DEV_HELLO);
    check_err("%s", &a, failing_read, PS_EFAULT);
    a.len = 0;
    put_u64(&a, 0x10); /* outside the fake memory */
    check_err("ok %s", &a, fake_read, PS_EFAULT);
    a.len = 0;
    put_u64(&a, DEV_HELLO);
    check_err("%s", &a, NULL, PS_EINVAL);
}

static void test_printf_fmt_pointer(void **state)
{
    struct abuf a = {0};

    (void)state;
    put_u64(&a, 0);
    check("%p", &a, "(nil)", 1);
    check("[%8p]", &a, "[   (nil)]", 1);
    a.len = 0;
    put_u64(&a, 0x7f0012345678ull);
    check("%p", &a, "0x7f0012345678", 1);
    check("[%18p]", &a, "[    0x7f0012345678]", 1);
    check("[%-16p]", &a, "[0x7f0012345678  ]", 1);
    a.len = 0;
    put_u64(&a, 0xffffffffffffffffull);
    check("%p", &a, "0xffffffffffffffff", 1);
}

static void test_printf_fmt_star_width_precision(void **state)
{
    struct abuf a = {0};

    (void)state;
    put_i32(&a, 5);
    put_i32(&a, 42);
    check("[%*d]", &a, "[   42]", 2);
    a.len = 0;
    put_i32(&a, -5); /* negative width: left-justified */
    put_i32(&a, 42);
    check("[%*d]", &a, "[42   ]", 2);
    a.len = 0;
    put_i32(&a, 2); /* 4-byte precision, then padding, then the double at 8 */
    put_f64(&a, 3.14159);
    check("%.*f", &a, "3.14", 2);
    a.len = 0;
    put_i32(&a, -1); /* negative precision: as if none */
    put_f64(&a, 1.5);
    check("%.*f", &a, "1.500000", 2);
    a.len = 0;
    put_i32(&a, 8);
    put_i32(&a, 3);
    put_f64(&a, 3.14159);
    check("[%*.*f]", &a, "[   3.142]", 3);
    a.len = 0;
    put_i32(&a, 6);
    put_i32(&a, 2);
    put_u64(&a, DEV_HELLO);
    check("[%-*.*s]", &a, "[he    ]", 3);
    a.len = 0;
    put_i32(&a, 4);
    put_i64(&a, 7);
    check("[%0*lld]", &a, "[0007]", 2);
}

static void test_printf_fmt_alignment_padding(void **state)
{
    /* printf("%d %lld", 1, 2ll): int at 0, bytes 4..7 are padding (garbage here), the
       long long at 8; a following int at 16 needs no padding. Little-endian. */
    static const uint8_t raw[] = {
        0x01, 0x00, 0x00, 0x00, 0xaa, 0xaa, 0xaa, 0xaa, 0x02, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xfd, 0xff, 0xff, 0xff,
    };
    struct abuf a = {0};

    (void)state;
    put_at(&a, 0, raw, sizeof(raw));
    check("%d %lld %d", &a, "1 2 -3", 3);
    /* Same for a double after an int. */
    a.len = 0;
    put_i32(&a, 7);
    put_f64(&a, 0.25);
    put_i32(&a, 8);
    assert_int_equal(a.len, 20);
    check("%d %g %d", &a, "7 0.25 8", 3);
    /* And a pointer after a char. */
    a.len = 0;
    put_i32(&a, 'z');
    put_u64(&a, 0x1000);
    check("%c %p", &a, "z 0x1000", 2);
}

static void test_printf_fmt_nvcc_layout(void **state)
{
    /* nvcc 13.0 -arch=compute_80 for printf("%c %hd %d %lld %f %f %p %s\n", char, short,
       int, long long, float, double, int *, const char *) stores, in a 56-byte buffer:
       s32 at 0, s32 at 4, u32 at 8, u64 at 16, f64 (cvt.f64.f32) at 24, f64 at 32,
       u64 at 40, u64 at 48. */
    struct abuf a = {0};
    int32_t c = 'Q', s = -7, i = 123456;
    int64_t ll = -9000000000ll;
    double f = 0.5, d = -2.25;
    uint64_t p = 0xdeadbeef0ull, str = DEV_WORLD;

    (void)state;
    memset(a.b, 0xcc, sizeof(a.b));
    put_at(&a, 0, &c, 4);
    put_at(&a, 4, &s, 4);
    put_at(&a, 8, &i, 4);
    put_at(&a, 16, &ll, 8);
    put_at(&a, 24, &f, 8);
    put_at(&a, 32, &d, 8);
    put_at(&a, 40, &p, 8);
    put_at(&a, 48, &str, 8);
    assert_int_equal(a.len, 56);
    check("%c %hd %d %lld %f %f %p %s\n", &a,
          "Q -7 123456 -9000000000 0.500000 -2.250000 0xdeadbeef0 world\n", 8);
}

static void test_printf_fmt_return_counts_arguments(void **state)
{
    struct abuf a = {0};

    (void)state;
    /* CUDA's printf returns the number of arguments, not of characters. */
    put_i32(&a, 1);
    put_i32(&a, 2);
    check("%d", &a, "1", 1); /* extra arguments are ignored */
    check("no conversions", &a, "no conversions", 0);
    check("%d%%%d", &a, "1%2", 2);
}

static void test_printf_fmt_max_args(void **state)
{
    char fmt[3 * 34 + 1] = "";
    char want[256] = "";
    struct abuf a = {0};
    int i;

    (void)state;
    /* 33 %d: the 33rd is past the 32-argument limit and is printed as written. */
    for (i = 0; i < 33; i++) {
        strcat(fmt, "%d ");
        put_i32(&a, i);
    }
    check(
        fmt, &a,
        "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 %d ",
        32);
    /* 31 %d then a %*d that would need arguments 32 and 33: written as is. */
    fmt[0] = '\0';
    for (i = 0; i < 31; i++)
        strcat(fmt, "%d");
    strcat(fmt, "|%*d|%%");
    strcpy(want, "012345678910111213141516171819202122232425262728293031");
    want[strlen(want) - 2] = '\0'; /* drop "31": 0..30 only */
    strcat(want, "|%*d|%");
    check(fmt, &a, want, 31);
}

static void test_printf_fmt_appends_output(void **state)
{
    struct fake_mem mem = {dev_blob, sizeof(dev_blob), 0};
    struct abuf a = {0};
    struct ps_err err;
    char *out = dup_str("ab");
    size_t len = 2;

    (void)state;
    assert_non_null(out);
    put_i32(&a, 5);
    assert_int_equal(run("[%d]", &a, fake_read, &mem, &out, &len, &err), 1);
    assert_int_equal(run("", &a, fake_read, &mem, &out, &len, &err), 0);
    assert_int_equal(run("!", NULL, fake_read, &mem, &out, &len, &err), 0);
    assert_int_equal(len, 6);
    assert_string_equal(out, "ab[5]!");
    free(out);
}

static void test_printf_fmt_buffer_too_short(void **state)
{
    struct abuf a = {0};

    (void)state;
    check_err("%d", NULL, fake_read, PS_EINVAL);
    check_err("%%%c", NULL, fake_read, PS_EINVAL);
    put_i32(&a, 1);
    check_err("%lld", &a, fake_read, PS_EINVAL);
    check_err("%f", &a, fake_read, PS_EINVAL);
    check_err("%s", &a, fake_read, PS_EINVAL);
    check_err("%p", &a, fake_read, PS_EINVAL);
    check_err("%d %d", &a, fake_read, PS_EINVAL);
    check_err("%*d", &a, fake_read, PS_EINVAL);
    check_err("%*.*d", &a, fake_read, PS_EINVAL);
    /* 12 bytes: the int fits, but the long long would sit at 8..15 after padding. */
    put_i32(&a, 2);
    put_i32(&a, 3);
    assert_int_equal(a.len, 12);
    check_err("%d %lld", &a, fake_read, PS_EINVAL);
}

static void test_printf_fmt_bad_conversion(void **state)
{
    struct abuf a = {0};

    (void)state;
    put_i64(&a, 1);
    put_i64(&a, 2);
    check_err("%q", &a, fake_read, PS_EPARSE);
    check_err("%y", &a, fake_read, PS_EPARSE);
    check_err("%C", &a, fake_read, PS_EPARSE);
    check_err("%S", &a, fake_read, PS_EPARSE);
    check_err("%m", &a, fake_read, PS_EPARSE);
    check_err("%\x01", &a, fake_read, PS_EPARSE);
    check_err("%1$d", &a, fake_read, PS_EPARSE);
    check_err("%'d", &a, fake_read, PS_EPARSE);
    check_err("%.-1d", &a, fake_read, PS_EPARSE);
    check_err("abc%", &a, fake_read, PS_EPARSE);
    check_err("%-5", &a, fake_read, PS_EPARSE);
    check_err("%ll", &a, fake_read, PS_EPARSE);
    check_err("%d then %w", &a, fake_read, PS_EPARSE);
}

static void test_printf_fmt_bad_length(void **state)
{
    struct abuf a = {0};

    (void)state;
    put_i64(&a, 1);
    check_err("%hf", &a, fake_read, PS_EPARSE);
    check_err("%llf", &a, fake_read, PS_EPARSE);
    check_err("%Ld", &a, fake_read, PS_EPARSE);
    check_err("%hs", &a, fake_read, PS_EPARSE);
    check_err("%lp", &a, fake_read, PS_EPARSE);
    check_err("%hhc", &a, fake_read, PS_EPARSE);
    check_err("%5%", &a, fake_read, PS_EPARSE);
    check_err("%-%", &a, fake_read, PS_EPARSE);
    check_err("%l%", &a, fake_read, PS_EPARSE);
}

static void test_printf_fmt_unsupported(void **state)
{
    struct abuf a = {0};

    (void)state;
    put_u64(&a, DEV_HELLO);
    check_err("%n", &a, fake_read, PS_ENOTSUP);
    check_err("%hhn", &a, fake_read, PS_ENOTSUP);
    check_err("%ls", &a, fake_read, PS_ENOTSUP);
    check_err("%lc", &a, fake_read, PS_ENOTSUP);
}

static void test_printf_fmt_field_too_large(void **state)
{
    struct abuf a = {0};

    (void)state;
    put_i32(&a, 2000000);
    put_i32(&a, 1);
    check_err("%2000000d", &a, fake_read, PS_EINVAL);
    check_err("%.99999999999999999999d", &a, fake_read, PS_EINVAL);
    check_err("%*d", &a, fake_read, PS_EINVAL);
    check_err("%.*d", &a, fake_read, PS_EINVAL);
    a.len = 0;
    put_i32(&a, INT32_MIN);
    put_i32(&a, 1);
    check_err("%*d", &a, fake_read, PS_EINVAL);
}

static void test_printf_fmt_bad_call(void **state)
{
    struct abuf a = {0};
    struct ps_err err;
    char *out = NULL;
    size_t len = 0;
    uint8_t b[4] = {0};

    (void)state;
    assert_int_equal(run(NULL, NULL, fake_read, NULL, &out, &len, &err), PS_EINVAL);
    assert_int_equal(err.code, PS_EINVAL);
    assert_int_equal(run("x", &a, fake_read, NULL, NULL, &len, &err), PS_EINVAL);
    assert_int_equal(run("x", &a, fake_read, NULL, &out, NULL, &err), PS_EINVAL);
    assert_int_equal(isa_printf_format("%d", NULL, 4, fake_read, NULL, &out, &len, &err),
                     PS_EINVAL);
    assert_null(out);
    /* err may be NULL. */
    assert_int_equal(isa_printf_format("%d", b, 0, fake_read, NULL, &out, &len, NULL), PS_EINVAL);
    assert_null(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_printf_fmt_empty_format),
        cmocka_unit_test(test_printf_fmt_literal_text_and_percent),
        cmocka_unit_test(test_printf_fmt_signed_int),
        cmocka_unit_test(test_printf_fmt_unsigned_bases),
        cmocka_unit_test(test_printf_fmt_length_hh_h),
        cmocka_unit_test(test_printf_fmt_length_64bit),
        cmocka_unit_test(test_printf_fmt_float),
        cmocka_unit_test(test_printf_fmt_float_special),
        cmocka_unit_test(test_printf_fmt_hex_float),
        cmocka_unit_test(test_printf_fmt_long_double),
        cmocka_unit_test(test_printf_fmt_char),
        cmocka_unit_test(test_printf_fmt_string),
        cmocka_unit_test(test_printf_fmt_string_null),
        cmocka_unit_test(test_printf_fmt_string_long),
        cmocka_unit_test(test_printf_fmt_string_read_failure),
        cmocka_unit_test(test_printf_fmt_pointer),
        cmocka_unit_test(test_printf_fmt_star_width_precision),
        cmocka_unit_test(test_printf_fmt_alignment_padding),
        cmocka_unit_test(test_printf_fmt_nvcc_layout),
        cmocka_unit_test(test_printf_fmt_return_counts_arguments),
        cmocka_unit_test(test_printf_fmt_max_args),
        cmocka_unit_test(test_printf_fmt_appends_output),
        cmocka_unit_test(test_printf_fmt_buffer_too_short),
        cmocka_unit_test(test_printf_fmt_bad_conversion),
        cmocka_unit_test(test_printf_fmt_bad_length),
        cmocka_unit_test(test_printf_fmt_unsupported),
        cmocka_unit_test(test_printf_fmt_field_too_large),
        cmocka_unit_test(test_printf_fmt_bad_call),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
