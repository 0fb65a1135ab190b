/*
 * Device printf formatting. Each conversion is parsed, checked against the
 * length modifiers it can take, given its arguments from the buffer (width
 * and precision `*` first, then the value, each aligned to its own size),
 * then rebuilt as a single-conversion format with widths resolved to digits
 * and handed to the host vsnprintf with a value of the matching host type.
 * Text builds up in a private buffer and reaches the caller only on success.
 */
#include "isa/printf_fmt.h"

#include "common/err.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(sizeof(int) == 4, "device int arguments are read as host int");
_Static_assert(sizeof(long long) == 8, "device 64-bit arguments are read as host long long");
_Static_assert(sizeof(double) == 8, "device floating arguments are read as host double");

/* First size tried for a %s string without precision; doubled up to ISA_PRINTF_MAX_STR. */
#define PF_STR_FIRST 256
/* Room for a rebuilt conversion: '%', 5 flags, 7-digit width, '.', 7 digits, 2 length, conv. */
#define PF_FMT_MAX 32

enum pf_len {
    PF_LEN_NONE,
    PF_LEN_HH,
    PF_LEN_H,
    PF_LEN_L,
    PF_LEN_LL,
    PF_LEN_Z,
    PF_LEN_T,
    PF_LEN_J,
    PF_LEN_BIGL
};

/* Spelling of each length modifier, for messages. */
static const char *const pf_len_names[] = {"", "hh", "h", "l", "ll", "z", "t", "j", "L"};

/* Flag bits, in the order of pf_flag_chars. */
enum { PF_F_MINUS = 1, PF_F_PLUS = 2, PF_F_SPACE = 4, PF_F_HASH = 8, PF_F_ZERO = 16 };
static const char pf_flag_chars[] = "-+ #0";

/* What a conversion reads from the buffer and which host type formats it. */
enum pf_kind { PF_K_INT, PF_K_UINT, PF_K_FLOAT, PF_K_CHAR, PF_K_STR, PF_K_PTR, PF_K_PCT };

/* One conversion specification as written: %[flags][width][.prec][len]conv. */
struct pf_spec {
    const char *start; /* the '%' */
    const char *end;   /* one past the conversion character */
    unsigned flags;    /* PF_F_* */
    int width;         /* -1: none; after resolve_stars, never negative when set */
    int prec;          /* -1: none */
    bool width_star;
    bool prec_star;
    enum pf_len len;
    char conv;
};

/* One call's state: the format, the argument cursor and the text so far. */
struct pf_state {
    const char *fmt;
    const uint8_t *args;
    size_t args_len;
    size_t off; /* next unread byte of args */
    int nargs;  /* arguments consumed so far: the return value */
    isa_printf_read_str read_str;
    void *ctx;
    char *text; /* private output, NUL kept after text_len when allocated */
    size_t text_len;
    size_t text_cap;
    struct ps_err *err;
};

static ptrdiff_t spec_off(const struct pf_state *st, const struct pf_spec *sp)
{
    return sp->start - st->fmt;
}

/* Makes room for extra more bytes plus a NUL. */
static int text_reserve(struct pf_state *st, size_t extra)
{
    size_t need = st->text_len + extra + 1;
    size_t cap = st->text_cap ? st->text_cap : 64;
    char *p;

    if (need <= st->text_cap)
        return 0;
    while (cap < need)
        cap *= 2;
    p = realloc(st->text, cap);
    if (!p)
        return ps_err_set(st->err, PS_ENOMEM, "printf: out of memory for %zu bytes of output", cap);
    st->text = p;
    st->text_cap = cap;
    return 0;
}

static int text_append(struct pf_state *st, const char *s, size_t n)
{
    int rc = text_reserve(st, n);

    if (rc)
        return rc;
    memcpy(st->text + st->text_len, s, n);
    st->text_len += n;
    st->text[st->text_len] = '\0';
    return 0;
}

/* Appends the host vsnprintf of one rebuilt conversion f; measures, grows, prints again. */
static int text_format(struct pf_state *st, const char *f, ...)
{
    va_list ap;
    size_t room;
    int n;

    if (text_reserve(st, PF_FMT_MAX))
        return PS_ENOMEM;
    room = st->text_cap - st->text_len;
    va_start(ap, f);
    n = vsnprintf(st->text + st->text_len, room, f, ap);
    va_end(ap);
    if (n < 0)
        return ps_err_set(st->err, PS_EINVAL, "printf: host formatting of '%s' failed", f);
    if ((size_t)n >= room) {
        if (text_reserve(st, (size_t)n))
            return PS_ENOMEM;
        va_start(ap, f);
        vsnprintf(st->text + st->text_len, st->text_cap - st->text_len, f, ap);
        va_end(ap);
    }
    st->text_len += (size_t)n;
    return 0;
}

/* Takes the next size-byte argument, aligned to size (a power of two), into dst. */
static int fetch(struct pf_state *st, const struct pf_spec *sp, size_t size, void *dst)
{
    size_t at = (st->off + size - 1) & ~(size - 1);

    if (at > st->args_len || size > st->args_len - at)
        return ps_err_set(
            st->err, PS_EINVAL,
            "printf: argument %d (conversion at format offset %td) needs buffer bytes %zu..%zu but the argument buffer holds %zu",
            st->nargs + 1, spec_off(st, sp), at, at + size - 1, st->args_len);
    memcpy(dst, st->args + at, size);
    st->off = at + size;
    st->nargs++;
    return 0;
}

/* Parses a width or precision: digits (capped), `*`, or nothing (val stays -1). */
static int parse_field(struct pf_state *st, const char **pp, int *val, bool *star, const char *what)
{
    const char *p = *pp;
    long v = 0;

    if (*p == '*') {
        *star = true;
        *pp = p + 1;
        return 0;
    }
    if (!isdigit((unsigned char)*p))
        return 0;
    for (; isdigit((unsigned char)*p); p++) {
        v = v * 10 + (*p - '0');
        if (v > ISA_PRINTF_MAX_FIELD)
            return ps_err_set(st->err, PS_EINVAL, "printf format: %s at offset %td exceeds %d",
                              what, *pp - st->fmt, ISA_PRINTF_MAX_FIELD);
    }
    *val = (int)v;
    *pp = p;
    return 0;
}

static size_t parse_len(const char *p, enum pf_len *len)
{
    switch (p[0]) {
    case 'h':
        *len = p[1] == 'h' ? PF_LEN_HH : PF_LEN_H;
        return *len == PF_LEN_HH ? 2 : 1;
    case 'l':
        *len = p[1] == 'l' ? PF_LEN_LL : PF_LEN_L;
        return *len == PF_LEN_LL ? 2 : 1;
    case 'z':
        *len = PF_LEN_Z;
        return 1;
    case 't':
        *len = PF_LEN_T;
        return 1;
    case 'j':
        *len = PF_LEN_J;
        return 1;
    case 'L':
        *len = PF_LEN_BIGL;
        return 1;
    default:
        *len = PF_LEN_NONE;
        return 0;
    }
}

/* Splits the specification at pct into its parts; the conversion is checked later. */
static int parse_spec(struct pf_state *st, const char *pct, struct pf_spec *sp)
{
    const char *p = pct + 1;
    const char *fc;
    int rc;

    memset(sp, 0, sizeof(*sp));
    sp->start = pct;
    sp->width = -1;
    sp->prec = -1;
    for (; *p && (fc = strchr(pf_flag_chars, *p)); p++)
        sp->flags |= 1u << (fc - pf_flag_chars);
    rc = parse_field(st, &p, &sp->width, &sp->width_star, "width");
    if (rc)
        return rc;
    if (*p == '.') {
        p++;
        rc = parse_field(st, &p, &sp->prec, &sp->prec_star, "precision");
        if (rc)
            return rc;
        if (sp->prec < 0 && !sp->prec_star)
            sp->prec = 0; /* "%.d": a lone '.' is precision 0 (C11 7.21.6.1p5) */
    }
    p += parse_len(p, &sp->len);
    sp->conv = *p;
    sp->end = *p ? p + 1 : p;
    return 0;
}

static int unknown_conv(struct pf_state *st, const struct pf_spec *sp)
{
    unsigned char c = (unsigned char)sp->conv;

    if (isprint(c))
        return ps_err_set(st->err, PS_EPARSE,
                          "printf format: unknown conversion '%c' at offset %td", c,
                          spec_off(st, sp));
    return ps_err_set(st->err, PS_EPARSE,
                      "printf format: unknown conversion byte 0x%02x at offset %td", c,
                      spec_off(st, sp));
}

/* Rejects length modifiers that do not fit the conversion (only %lc/%ls are merely unsupported). */
static int check_len(struct pf_state *st, const struct pf_spec *sp, enum pf_kind kind)
{
    bool ok = sp->len == PF_LEN_NONE;

    if (kind == PF_K_INT || kind == PF_K_UINT)
        ok = sp->len != PF_LEN_BIGL;
    else if (kind == PF_K_FLOAT)
        ok = ok || sp->len == PF_LEN_L || sp->len == PF_LEN_BIGL;
    else if ((kind == PF_K_CHAR || kind == PF_K_STR) && sp->len == PF_LEN_L)
        return ps_err_set(st->err, PS_ENOTSUP,
                          "printf format: wide conversion %%l%c at offset %td is not supported",
                          sp->conv, spec_off(st, sp));
    if (ok)
        return 0;
    return ps_err_set(st->err, PS_EPARSE,
                      "printf format: length modifier '%s' does not apply to %%%c at offset %td",
                      pf_len_names[sp->len], sp->conv, spec_off(st, sp));
}

static int check_pct(struct pf_state *st, const struct pf_spec *sp)
{
    if (sp->flags || sp->width >= 0 || sp->prec >= 0 || sp->width_star || sp->prec_star ||
        sp->len != PF_LEN_NONE)
        return ps_err_set(
            st->err, PS_EPARSE,
            "printf format: %%%% at offset %td takes no flags, width, precision or length",
            spec_off(st, sp));
    return 0;
}

/* Classifies the conversion character and checks the rest of the specification against it. */
static int spec_kind(struct pf_state *st, const struct pf_spec *sp, enum pf_kind *kind)
{
    switch (sp->conv) {
    case 'd':
    case 'i':
        *kind = PF_K_INT;
        break;
    case 'u':
    case 'o':
    case 'x':
    case 'X':
        *kind = PF_K_UINT;
        break;
    case 'f':
    case 'F':
    case 'e':
    case 'E':
    case 'g':
    case 'G':
    case 'a':
    case 'A':
        *kind = PF_K_FLOAT;
        break;
    case 'c':
        *kind = PF_K_CHAR;
        break;
    case 's':
        *kind = PF_K_STR;
        break;
    case 'p':
        *kind = PF_K_PTR;
        break;
    case '%':
        *kind = PF_K_PCT;
        return check_pct(st, sp);
    case 'n':
        return ps_err_set(st->err, PS_ENOTSUP, "printf format: %%n at offset %td is not supported",
                          spec_off(st, sp));
    case '\0':
        return ps_err_set(
            st->err, PS_EPARSE,
            "printf format: conversion at offset %td is cut off by the end of the format",
            spec_off(st, sp));
    default:
        return unknown_conv(st, sp);
    }
    return check_len(st, sp, *kind);
}

/* Replaces `*` width and precision by the ints taken from the buffer (C11 7.21.6.1p5:
   a negative width is the '-' flag plus its magnitude, a negative precision is none). */
static int resolve_stars(struct pf_state *st, struct pf_spec *sp)
{
    int32_t v;
    int64_t w;
    int rc;

    if (sp->width_star) {
        rc = fetch(st, sp, sizeof(v), &v);
        if (rc)
            return rc;
        w = v < 0 ? -(int64_t)v : v;
        if (w > ISA_PRINTF_MAX_FIELD)
            return ps_err_set(st->err, PS_EINVAL,
                              "printf: width %d from the arguments (format offset %td) exceeds %d",
                              (int)v, spec_off(st, sp), ISA_PRINTF_MAX_FIELD);
        sp->flags |= v < 0 ? PF_F_MINUS : 0;
        sp->width = (int)w;
    }
    if (!sp->prec_star)
        return 0;
    rc = fetch(st, sp, sizeof(v), &v);
    if (rc)
        return rc;
    if (v > ISA_PRINTF_MAX_FIELD)
        return ps_err_set(st->err, PS_EINVAL,
                          "printf: precision %d from the arguments (format offset %td) exceeds %d",
                          (int)v, spec_off(st, sp), ISA_PRINTF_MAX_FIELD);
    sp->prec = v < 0 ? -1 : (int)v;
    return 0;
}

/* Writes the single-conversion host format for sp with the given length modifier. */
static void build_fmt(const struct pf_spec *sp, const char *len, char *f)
{
    size_t n = 0;
    unsigned i;

    f[n++] = '%';
    for (i = 0; i < sizeof(pf_flag_chars) - 1; i++) {
        if (sp->flags & (1u << i))
            f[n++] = pf_flag_chars[i];
    }
    if (sp->width >= 0)
        n += (size_t)snprintf(f + n, PF_FMT_MAX - n, "%d", sp->width);
    if (sp->prec >= 0)
        n += (size_t)snprintf(f + n, PF_FMT_MAX - n, ".%d", sp->prec);
    snprintf(f + n, PF_FMT_MAX - n, "%s%c", len, sp->conv);
}

/* %d %i %u %o %x %X: 4 bytes up to int, 8 for l ll z t j (LP64 device). */
static int emit_int(struct pf_state *st, const struct pf_spec *sp, bool is_signed)
{
    union {
        int s;
        unsigned u;
        long long sl;
        unsigned long long ul;
    } v;
    char f[PF_FMT_MAX];
    int rc;

    if (sp->len == PF_LEN_NONE || sp->len == PF_LEN_H || sp->len == PF_LEN_HH) {
        rc = fetch(st, sp, sizeof(v.u), &v.u);
        if (rc)
            return rc;
        build_fmt(sp, pf_len_names[sp->len], f);
        return is_signed ? text_format(st, f, v.s) : text_format(st, f, v.u);
    }
    rc = fetch(st, sp, sizeof(v.ul), &v.ul);
    if (rc)
        return rc;
    build_fmt(sp, "ll", f);
    return is_signed ? text_format(st, f, v.sl) : text_format(st, f, v.ul);
}

/* Floating conversions read a double; L keeps the host long double formatting. */
static int emit_float(struct pf_state *st, const struct pf_spec *sp)
{
    char f[PF_FMT_MAX];
    double d;
    int rc;

    rc = fetch(st, sp, sizeof(d), &d);
    if (rc)
        return rc;
    if (sp->len == PF_LEN_BIGL) {
        build_fmt(sp, "L", f);
        return text_format(st, f, (long double)d);
    }
    build_fmt(sp, "", f);
    return text_format(st, f, d);
}

/* Reads the string at addr: with a precision only the bytes it can show, else growing
   the buffer until the string fits or reaches ISA_PRINTF_MAX_STR. *s is malloc'd. */
static int read_string(struct pf_state *st, const struct pf_spec *sp, uint64_t addr, char **s)
{
    size_t cap = sp->prec >= 0 ? (size_t)sp->prec + 1 : PF_STR_FIRST;
    char *p = NULL;
    char *np;
    int rc;

    for (;;) {
        np = realloc(p, cap);
        if (!np) {
            free(p);
            return ps_err_set(st->err, PS_ENOMEM, "printf: out of memory for a %zu-byte string",
                              cap);
        }
        p = np;
        rc = st->read_str(st->ctx, addr, p, cap);
        if (rc < 0) {
            free(p);
            return ps_err_set(
                st->err, rc,
                "printf: %%s argument at format offset %td: cannot read a string at device address 0x%llx",
                spec_off(st, sp), (unsigned long long)addr);
        }
        p[cap - 1] = '\0';
        if (sp->prec >= 0 || strlen(p) < cap - 1 || cap >= ISA_PRINTF_MAX_STR)
            break;
        cap *= 2;
    }
    *s = p;
    return 0;
}

/* %s: an 8-byte device address; a null one prints as glibc prints a null pointer. */
static int emit_str(struct pf_state *st, const struct pf_spec *sp)
{
    char f[PF_FMT_MAX];
    uint64_t addr;
    char *s = NULL;
    int rc;

    rc = fetch(st, sp, sizeof(addr), &addr);
    if (rc)
        return rc;
    build_fmt(sp, "", f);
    if (addr == 0)
        return text_format(st, f, sp->prec < 0 || sp->prec >= 6 ? "(null)" : "");
    if (!st->read_str)
        return ps_err_set(st->err, PS_EINVAL,
                          "printf: %%s at format offset %td but no string reader was given",
                          spec_off(st, sp));
    rc = read_string(st, sp, addr, &s);
    if (rc)
        return rc;
    rc = text_format(st, f, s);
    free(s);
    return rc;
}

/* %c (an int) and %p (an 8-byte address, printed by the 64-bit host's %p). */
static int emit_char_ptr(struct pf_state *st, const struct pf_spec *sp)
{
    char f[PF_FMT_MAX];
    uint64_t addr;
    int c;
    int rc;

    build_fmt(sp, "", f);
    if (sp->conv == 'c') {
        rc = fetch(st, sp, sizeof(c), &c);
        return rc ? rc : text_format(st, f, c);
    }
    rc = fetch(st, sp, sizeof(addr), &addr);
    return rc ? rc : text_format(st, f, (void *)(uintptr_t)addr);
}

/* Handles the specification at pct; *next is set past it. */
static int do_spec(struct pf_state *st, const char *pct, const char **next)
{
    struct pf_spec sp;
    enum pf_kind kind = PF_K_PCT;
    int need;
    int rc;

    rc = parse_spec(st, pct, &sp);
    if (!rc)
        rc = spec_kind(st, &sp, &kind);
    if (rc)
        return rc;
    *next = sp.end;
    need = sp.width_star + sp.prec_star + (kind != PF_K_PCT);
    if (st->nargs + need > ISA_PRINTF_MAX_ARGS)
        return text_append(st, sp.start, (size_t)(sp.end - sp.start));
    rc = resolve_stars(st, &sp);
    if (rc)
        return rc;
    switch (kind) {
    case PF_K_INT:
        return emit_int(st, &sp, true);
    case PF_K_UINT:
        return emit_int(st, &sp, false);
    case PF_K_FLOAT:
        return emit_float(st, &sp);
    case PF_K_STR:
        return emit_str(st, &sp);
    case PF_K_CHAR:
    case PF_K_PTR:
        return emit_char_ptr(st, &sp);
    case PF_K_PCT:
        return text_append(st, "%", 1);
    }
    return 0;
}

/* Appends the finished text to the caller's buffer. */
static int commit(struct pf_state *st, char **out, size_t *out_len)
{
    char *p = realloc(*out, *out_len + st->text_len + 1);

    if (!p)
        return ps_err_set(st->err, PS_ENOMEM, "printf: out of memory for %zu bytes of output",
                          *out_len + st->text_len + 1);
    if (st->text_len)
        memcpy(p + *out_len, st->text, st->text_len);
    *out = p;
    *out_len += st->text_len;
    p[*out_len] = '\0';
    return 0;
}

int isa_printf_format(const char *fmt, const uint8_t *args, size_t args_len,
                      isa_printf_read_str read_str, void *ctx, char **out, size_t *out_len,
                      struct ps_err *err)
{
    struct pf_state st = {.fmt = fmt,
                          .args = args,
                          .args_len = args_len,
                          .read_str = read_str,
                          .ctx = ctx,
                          .err = err};
    const char *p = fmt;
    const char *pct;
    int rc = 0;

    if (!fmt || !out || !out_len || (!args && args_len))
        return ps_err_set(err, PS_EINVAL, "printf: null format, output or argument buffer");
    while (*p) {
        pct = strchr(p, '%');
        rc = text_append(&st, p, pct ? (size_t)(pct - p) : strlen(p));
        if (rc || !pct)
            break;
        rc = do_spec(&st, pct, &p);
        if (rc)
            break;
    }
    if (!rc)
        rc = commit(&st, out, out_len);
    free(st.text);
    return rc ? rc : st.nargs;
}
