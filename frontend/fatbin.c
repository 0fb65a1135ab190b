/*
 * CUDA fat binaries: containers, entries, payload decompression.
 *
 * Layout (little endian), checked against nvcc/fatbinary 13.0 output:
 *
 *   container header, 16 bytes:
 *     +0x00 u32 magic 0xBA55ED50   +0x04 u16 version (1)
 *     +0x06 u16 header size (16)   +0x08 u64 bytes of entries that follow
 *
 *   entry header, at least 64 bytes (64 for ELF, 80 for PTX, more with an
 *   identifier or options; the header size field says how many):
 *     +0x00 u16 kind (1 PTX, 2 ELF, 8 LTO IR)   +0x02 u16 0x0101
 *     +0x04 u32 header size                     +0x08 u64 payload size (padded to 8)
 *     +0x10 u32 compressed size (0: raw)        +0x14 u32 options record offset, 0 if none
 *     +0x18 u16 minor, +0x1a u16 major (PTX ISA version; ELF: cubin code version 1.8)
 *     +0x1c u32 sm                              +0x20 u32 identifier offset
 *     +0x24 u32 identifier length               +0x28 u64 flags
 *     +0x30 u64 zero                            +0x38 u64 uncompressed size (0: raw)
 *   Offsets inside the header (options, identifier) count from the entry start;
 *   the options record is {u32 text offset, u32 text length}. The payload
 *   follows the header. Flags: 0x1 64-bit, 0x2 debug, 0x10 Linux, 0x1000
 *   zlib, 0x2000 LZ4 block, 0x8000 zstd.
 *
 * The "LZ4-like" 0x2000 scheme is a plain LZ4 block (no frame): liblz4's
 * LZ4_decompress_safe reproduces the uncompressed build byte for byte.
 *
 * Entries are parsed in two passes over the same code: the first validates
 * and counts, the second fills one allocation that holds the entry array
 * followed by the NUL-terminated identifier copies.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* dl_iterate_phdr */
#endif
#include <link.h>
#include "frontend/fatbin.h"

#include <limits.h>
#include <lz4.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#include "common/err.h"

#define ULL(x) ((unsigned long long)(x))

#define FATBIN_MAGIC 0xBA55ED50u
#define FATBINC_MAGIC 0x466243B1u
#define CONTAINER_HDR_BYTES 16u
#define ENTRY_HDR_MIN_BYTES 0x40u

#define FLAG_ZLIB 0x1000u
#define FLAG_LZ4 0x2000u
#define FLAG_ZSTD 0x8000u
#define FLAG_COMPRESS_MASK 0xF000u

/* An LZ4 block cannot expand more than 255:1 (one length byte adds 255). */
#define LZ4_MAX_RATIO 256u

/* __fatBinC_Wrapper_t from the toolkit's fatbinary_section.h. */
struct fatbinc_wrapper {
    int magic;
    int version; /* 1: plain, 2: device-link image with prelinked fatbins */
    const unsigned long long *data;
    void *filename_or_fatbins;
};

struct walker {
    const uint8_t *base;
    uint64_t len;             /* readable bytes; 0 = trust the container header */
    uint64_t bound;           /* len 0: readable bytes if known (the first container only) */
    struct fatbin_entry *out; /* NULL on the counting pass */
    char *pool;               /* identifier copies (filling pass) */
    uint32_t n;
    size_t pool_bytes;
    uint64_t end; /* offset just past the last container */
};

static uint16_t rd16(const uint8_t *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t rd64(const uint8_t *p)
{
    return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32;
}

static void fill_entry(struct walker *w, const uint8_t *h, uint32_t hsize, uint64_t stored)
{
    struct fatbin_entry *e = &w->out[w->n];
    uint32_t id_off = rd32(h + 0x20), id_len = rd32(h + 0x24);
    uint64_t compressed = rd32(h + 0x10);

    e->kind = rd16(h);
    e->ptx_minor = rd16(h + 0x18);
    e->ptx_major = rd16(h + 0x1a);
    e->sm = rd32(h + 0x1c);
    e->flags = rd64(h + 0x28);
    e->payload = h + hsize;
    e->payload_size = stored;
    e->uncompressed_size = stored;
    if (e->flags & FLAG_COMPRESS_MASK) {
        e->payload_size = compressed ? compressed : stored;
        e->uncompressed_size = rd64(h + 0x38);
    }
    e->identifier = w->pool + w->pool_bytes;
    if (id_len)
        memcpy(w->pool + w->pool_bytes, h + id_off, id_len);
    w->pool[w->pool_bytes + id_len] = '\0';
}

/* Checks one entry header at off (entries end at limit) and returns its total size. */
static int walk_entry(struct walker *w, uint64_t off, uint64_t limit, uint64_t *size,
                      struct ps_err *err)
{
    const uint8_t *h = w->base + off;
    uint64_t avail = limit - off, stored, compressed, flags;
    uint32_t hsize, id_off, id_len;

    if (avail < ENTRY_HDR_MIN_BYTES)
        return ps_err_set(err, PS_EPARSE,
                          "fatbin: entry at offset %#llx: header truncated (%llu of %u bytes)",
                          ULL(off), ULL(avail), ENTRY_HDR_MIN_BYTES);
    hsize = rd32(h + 4);
    stored = rd64(h + 8);
    if (hsize < ENTRY_HDR_MIN_BYTES || hsize > avail)
        return ps_err_set(
            err, PS_EPARSE,
            "fatbin: entry at offset %#llx: bad header size %u (%llu bytes left in the container)",
            ULL(off), hsize, ULL(avail));
    if (stored > avail - hsize)
        return ps_err_set(
            err, PS_EPARSE,
            "fatbin: entry at offset %#llx: payload of %llu bytes runs past the container end",
            ULL(off), ULL(stored));
    id_off = rd32(h + 0x20);
    id_len = rd32(h + 0x24);
    if (id_len && ((uint64_t)id_off + id_len > hsize || id_off < ENTRY_HDR_MIN_BYTES))
        return ps_err_set(
            err, PS_EPARSE,
            "fatbin: entry at offset %#llx: identifier (%u bytes at %u) outside the %u-byte header",
            ULL(off), id_len, id_off, hsize);
    flags = rd64(h + 0x28);
    compressed = rd32(h + 0x10);
    if ((flags & FLAG_COMPRESS_MASK) && compressed > stored)
        return ps_err_set(
            err, PS_EPARSE,
            "fatbin: entry at offset %#llx: compressed size %llu exceeds the payload size %llu",
            ULL(off), ULL(compressed), ULL(stored));
    if (w->out)
        fill_entry(w, h, hsize, stored);
    w->n++;
    w->pool_bytes += (size_t)id_len + 1;
    *size = hsize + stored;
    return 0;
}

/* Walks the container at off; *next is the offset just past it. */
static int walk_container(struct walker *w, uint64_t off, uint64_t *next, struct ps_err *err)
{
    const uint8_t *h = w->base + off;
    uint64_t avail = w->len ? w->len - off : w->bound ? w->bound - off : UINT64_MAX - off;
    uint64_t size, limit, esize = 0;
    uint32_t hsize;
    int rc;

    if (avail < CONTAINER_HDR_BYTES)
        return ps_err_set(err, PS_EPARSE,
                          "fatbin: container at offset %#llx: header truncated (%llu of 16 bytes)",
                          ULL(off), ULL(avail));
    if (rd32(h) != FATBIN_MAGIC)
        return ps_err_set(err, PS_EPARSE,
                          "fatbin: no fatbin magic at offset %#llx (found %#010x, want 0xba55ed50)",
                          ULL(off), rd32(h));
    if (rd16(h + 4) != 1)
        return ps_err_set(err, PS_EPARSE, "fatbin: container at offset %#llx: unknown version %u",
                          ULL(off), rd16(h + 4));
    hsize = rd16(h + 6);
    size = rd64(h + 8);
    if (hsize < CONTAINER_HDR_BYTES || hsize > avail || size > avail - hsize)
        return ps_err_set(
            err, PS_EPARSE,
            "fatbin: container at offset %#llx: header %u + size %llu run past the end (%llu left)",
            ULL(off), hsize, ULL(size), ULL(avail));
    limit = off + hsize + size;
    for (uint64_t p = off + hsize; p < limit; p += esize) {
        rc = walk_entry(w, p, limit, &esize, err);
        if (rc)
            return rc;
    }
    *next = limit;
    return 0;
}

/* Walks every container of w (only the first one when w->len is 0). */
static int walk(struct walker *w, struct ps_err *err)
{
    uint64_t off = 0, next = 0;
    int rc;

    w->n = 0;
    w->pool_bytes = 0;
    do {
        rc = walk_container(w, off, &next, err);
        if (rc)
            return rc;
        w->end = off = next;
        /* Sections from several objects are padded with zeros to their alignment. */
        while (w->len && off < w->len && !w->base[off])
            off++;
    } while (w->len && off < w->len);
    return 0;
}

static int parse(const void *data, size_t len, size_t bound, struct fatbin *out, struct ps_err *err)
{
    struct walker w = {.base = data, .len = len, .bound = bound};
    size_t array_bytes;
    int rc;

    memset(out, 0, sizeof(*out));
    ps_err_clear(err);
    if (!data)
        return ps_err_set(err, PS_EINVAL, "fatbin: no data");
    rc = walk(&w, err);
    if (rc)
        return rc;
    array_bytes = (size_t)w.n * sizeof(*w.out);
    w.out = malloc(array_bytes + w.pool_bytes + 1);
    if (!w.out)
        return ps_err_set(err, PS_ENOMEM, "fatbin: out of memory for %u entries", w.n);
    w.pool = (char *)w.out + array_bytes;
    rc = walk(&w, err);
    if (rc) { /* cannot happen: the same bytes passed the first walk */
        free(w.out);
        return rc;
    }
    out->entries = w.out;
    out->nentries = w.n;
    out->total_size = w.end;
    return 0;
}

int fatbin_parse(const void *data, size_t len, struct fatbin *out, struct ps_err *err)
{
    return parse(data, len, 0, out, err);
}

struct seg_search {
    uintptr_t addr;
    size_t bound;
};

static int find_segment(struct dl_phdr_info *info, size_t size, void *arg)
{
    struct seg_search *s = arg;

    (void)size;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr, hi = lo + ph->p_filesz;

        if (ph->p_type == PT_LOAD && s->addr >= lo && s->addr < hi) {
            s->bound = hi - s->addr;
            return 1;
        }
    }
    return 0;
}

int fatbin_parse_wrapper(const void *wrapper, struct fatbin *out, struct ps_err *err)
{
    const struct fatbinc_wrapper *fw = wrapper;
    struct seg_search s = {0, 0};

    /* A program's fatbin lies in one of its loaded segments: its end bounds the container. */
    if (fw && (uint32_t)fw->magic == FATBINC_MAGIC && fw->data) {
        s.addr = (uintptr_t)fw->data;
        dl_iterate_phdr(find_segment, &s);
    }
    return fatbin_parse_wrapper_bounded(wrapper, s.bound, out, err);
}

int fatbin_parse_wrapper_bounded(const void *wrapper, size_t bound, struct fatbin *out,
                                 struct ps_err *err)
{
    const struct fatbinc_wrapper *fw = wrapper;

    memset(out, 0, sizeof(*out));
    ps_err_clear(err);
    if (!fw)
        return ps_err_set(err, PS_EINVAL, "fatbin: no registration wrapper");
    if ((uint32_t)fw->magic != FATBINC_MAGIC)
        return ps_err_set(err, PS_EPARSE,
                          "fatbin: registration wrapper has magic %#010x, want 0x466243b1",
                          (uint32_t)fw->magic);
    if (fw->version != 1 && fw->version != 2)
        return ps_err_set(err, PS_EPARSE, "fatbin: registration wrapper has unknown version %d",
                          fw->version);
    if (!fw->data)
        return ps_err_set(err, PS_EPARSE, "fatbin: registration wrapper has no data pointer");
    return parse(fw->data, 0, bound, out, err);
}

const void *const *fatbin_wrapper_prelinked(const void *wrapper)
{
    const struct fatbinc_wrapper *fw = wrapper;

    if (!fw || (uint32_t)fw->magic != FATBINC_MAGIC || fw->version != 2)
        return NULL;
    return (const void *const *)fw->filename_or_fatbins;
}

void fatbin_free(struct fatbin *fb)
{
    if (!fb)
        return;
    free(fb->entries);
    memset(fb, 0, sizeof(*fb));
}

/* ------------------------------------------------------------------------- */
/* Payload decoding                                                           */
/* ------------------------------------------------------------------------- */

/* Output of a decoder: grows by doubling up to max = uncompressed size + 1 (the NUL). */
struct outbuf {
    uint8_t *buf;
    size_t cap, max;
};

static int outbuf_init(struct outbuf *o, uint64_t want, uint64_t first, struct ps_err *err)
{
    if (want >= SIZE_MAX)
        return ps_err_set(err, PS_EPARSE, "fatbin: uncompressed size %llu is too large", ULL(want));
    o->max = (size_t)want + 1;
    o->cap = first < o->max ? (size_t)first : o->max;
    o->buf = malloc(o->cap);
    return o->buf ? 0 : ps_err_set(err, PS_ENOMEM, "fatbin: out of memory for %zu bytes", o->cap);
}

/* Doubles the buffer; PS_EPARSE when it is already at its maximum. */
static int outbuf_grow(struct outbuf *o, struct ps_err *err)
{
    size_t cap = o->cap > o->max / 2 ? o->max : o->cap * 2;
    uint8_t *p;

    if (o->cap == o->max)
        return ps_err_set(err, PS_EPARSE,
                          "fatbin: payload decompresses to more than the %zu bytes its header says",
                          o->max - 1);
    p = realloc(o->buf, cap);
    if (!p)
        return ps_err_set(err, PS_ENOMEM, "fatbin: out of memory for %zu bytes", cap);
    o->buf = p;
    o->cap = cap;
    return 0;
}

/* zstd frames (several may follow each other), streamed into o. */
static int decode_zstd(const struct fatbin_entry *e, struct outbuf *o, size_t *got,
                       struct ps_err *err)
{
    ZSTD_DCtx *dctx = ZSTD_createDCtx();
    ZSTD_inBuffer in = {e->payload, (size_t)e->payload_size, 0};
    ZSTD_outBuffer out = {o->buf, o->cap, 0};
    size_t r = 0;
    int rc = 0;

    if (!dctx)
        return ps_err_set(err, PS_ENOMEM, "fatbin: out of memory for a zstd context");
    for (;;) {
        if (out.pos == out.size) {
            if ((rc = outbuf_grow(o, err)))
                break;
            out.dst = o->buf;
            out.size = o->cap;
        }
        r = ZSTD_decompressStream(dctx, &out, &in);
        if (ZSTD_isError(r)) {
            rc = ps_err_set(err, PS_EPARSE, "fatbin: corrupt zstd payload: %s",
                            ZSTD_getErrorName(r));
            break;
        }
        if (in.pos == in.size && (!r || out.pos < out.size))
            break; /* done, or truncated when r != 0 */
    }
    if (!rc && r)
        rc = ps_err_set(err, PS_EPARSE, "fatbin: zstd payload is truncated");
    ZSTD_freeDCtx(dctx);
    *got = out.pos;
    return rc;
}

/* A zlib (or gzip) stream, streamed into o; bytes after the stream end are padding. */
static int decode_zlib(const struct fatbin_entry *e, struct outbuf *o, size_t *got,
                       struct ps_err *err)
{
    z_stream zs;
    int zr = Z_OK, rc = 0;

    if (e->payload_size > UINT_MAX)
        return ps_err_set(err, PS_EPARSE, "fatbin: zlib payload of %llu bytes is too large",
                          ULL(e->payload_size));
    memset(&zs, 0, sizeof(zs));
    if (inflateInit2(&zs, 15 + 32) != Z_OK)
        return ps_err_set(err, PS_ENOMEM, "fatbin: cannot start zlib");
    zs.next_in = (Bytef *)e->payload;
    zs.avail_in = (uInt)e->payload_size;
    while (!rc && zr != Z_STREAM_END) {
        if (zs.total_out == o->cap && (rc = outbuf_grow(o, err)))
            break;
        zs.next_out = o->buf + zs.total_out;
        zs.avail_out = (uInt)(o->cap - zs.total_out > UINT_MAX ? UINT_MAX : o->cap - zs.total_out);
        zr = inflate(&zs, Z_NO_FLUSH);
        if (zr == Z_BUF_ERROR && !zs.avail_in)
            rc = ps_err_set(err, PS_EPARSE, "fatbin: zlib payload is truncated");
        else if (zr != Z_OK && zr != Z_STREAM_END && zr != Z_BUF_ERROR)
            rc = ps_err_set(err, PS_EPARSE, "fatbin: corrupt zlib payload: %s",
                            zs.msg ? zs.msg : zError(zr));
    }
    *got = zs.total_out;
    inflateEnd(&zs);
    return rc;
}

/* Sizes an LZ4 entry can have; checked before the output is allocated. */
static int check_lz4_sizes(const struct fatbin_entry *e, struct ps_err *err)
{
    if (e->payload_size > INT_MAX || e->uncompressed_size > INT_MAX - 1)
        return ps_err_set(err, PS_EPARSE,
                          "fatbin: LZ4 payload of %llu bytes (%llu uncompressed) is too large",
                          ULL(e->payload_size), ULL(e->uncompressed_size));
    if (e->uncompressed_size > e->payload_size * LZ4_MAX_RATIO + 64)
        return ps_err_set(err, PS_EPARSE,
                          "fatbin: uncompressed size %llu is impossible for %llu bytes of LZ4",
                          ULL(e->uncompressed_size), ULL(e->payload_size));
    return 0;
}

/* One LZ4 block (o holds the whole output: LZ4 blocks do not stream). */
static int decode_lz4(const struct fatbin_entry *e, struct outbuf *o, size_t *got,
                      struct ps_err *err)
{
    int n = LZ4_decompress_safe((const char *)e->payload, (char *)o->buf, (int)e->payload_size,
                                (int)o->cap - 1);
    if (n < 0)
        return ps_err_set(err, PS_EPARSE, "fatbin: corrupt LZ4 payload (stopped at input byte %d)",
                          -n - 1);
    *got = (size_t)n;
    return 0;
}

static int decode(const struct fatbin_entry *e, uint8_t **data, size_t *len, struct ps_err *err)
{
    uint64_t method = e->flags & FLAG_COMPRESS_MASK;
    uint64_t first = method == FLAG_LZ4 ? UINT64_MAX : e->payload_size * 4 + 65536;
    struct outbuf o;
    size_t got = 0;
    int rc;

    if (method == FLAG_LZ4 && (rc = check_lz4_sizes(e, err)))
        return rc;
    rc = outbuf_init(&o, e->uncompressed_size, first, err);
    if (rc)
        return rc;
    if (method == FLAG_ZSTD)
        rc = decode_zstd(e, &o, &got, err);
    else if (method == FLAG_ZLIB)
        rc = decode_zlib(e, &o, &got, err);
    else
        rc = decode_lz4(e, &o, &got, err);
    if (!rc && got != e->uncompressed_size)
        rc = ps_err_set(err, PS_EPARSE,
                        "fatbin: payload decompresses to %zu bytes, its header says %llu", got,
                        ULL(e->uncompressed_size));
    if (!rc && got == o.cap)
        rc = outbuf_grow(&o, err); /* room for the NUL */
    if (rc) {
        free(o.buf);
        return rc;
    }
    o.buf[got] = '\0';
    *data = o.buf;
    *len = got;
    return 0;
}

int fatbin_entry_data(const struct fatbin_entry *e, uint8_t **data, size_t *len, struct ps_err *err)
{
    uint64_t method = e->flags & FLAG_COMPRESS_MASK;
    uint8_t *p;

    *data = NULL;
    *len = 0;
    ps_err_clear(err);
    if (method == FLAG_ZSTD || method == FLAG_ZLIB || method == FLAG_LZ4)
        return decode(e, data, len, err);
    if (method)
        return ps_err_set(err, PS_ENOTSUP, "fatbin: unknown compression (flags %#llx)",
                          ULL(e->flags));
    if (e->payload_size >= SIZE_MAX)
        return ps_err_set(err, PS_EPARSE, "fatbin: payload of %llu bytes is too large",
                          ULL(e->payload_size));
    p = malloc((size_t)e->payload_size + 1);
    if (!p)
        return ps_err_set(err, PS_ENOMEM, "fatbin: out of memory for %llu bytes",
                          ULL(e->payload_size));
    if (e->payload_size)
        memcpy(p, e->payload, (size_t)e->payload_size);
    p[e->payload_size] = '\0';
    *data = p;
    *len = (size_t)e->payload_size;
    return 0;
}

int fatbin_pick_ptx(const struct fatbin *fb, uint32_t max_sm)
{
    int best = -1, lowest = -1;

    for (uint32_t i = 0; i < fb->nentries; i++) {
        const struct fatbin_entry *e = &fb->entries[i];

        if (e->kind != FATBIN_PTX)
            continue;
        if (lowest < 0 || e->sm < fb->entries[lowest].sm)
            lowest = (int)i;
        if ((!max_sm || e->sm <= max_sm) && (best < 0 || e->sm > fb->entries[best].sm))
            best = (int)i;
    }
    return best >= 0 ? best : lowest;
}
