/*
 * The GPGPU-Sim cache string: parsing, checking, capacity and the set-index
 * functions it names. The grammar is the one documented in memsys/cache.h;
 * two leniencies keep older configuration files working: the leading kind
 * letter may be left out (a number first means 'N'), and so may the
 * set-index letter at the end of the policy group (linear).
 */
#include "memsys/cache.h"

#include <stdlib.h>
#include <string.h>

#define GEOM_FORMAT                                                                                \
    "<kind>:<nsets>:<line>:<assoc>,<repl>:<wpol>:<alloc>:<walloc>:<index>,<mshr>:<entries>:<"      \
    "merge>,<missq>[:<fifo>][,<port>]"

/* Limits that keep the tag array and the MSHR pool within 32-bit indices. */
#define GEOM_MAX_LINES (1u << 24)
#define GEOM_MAX_MSHR (1u << 20)
#define GEOM_MAX_MERGE (1u << 16)
#define GEOM_MAX_WAITERS (1u << 22)

struct cursor {
    const char *s; /* the whole string, for messages */
    const char *p;
    struct ps_err *err;
};

static int fail(struct cursor *c, const char *what)
{
    return ps_err_set(c->err, PS_EPARSE,
                      "cache string \"%s\": expected %s at column %u (format " GEOM_FORMAT ")",
                      c->s, what, (unsigned)(c->p - c->s) + 1);
}

static int take_uint(struct cursor *c, uint32_t *out, const char *what)
{
    uint64_t v = 0;

    if (*c->p < '0' || *c->p > '9')
        return fail(c, what);
    while (*c->p >= '0' && *c->p <= '9') {
        v = v * 10 + (uint64_t)(*c->p - '0');
        if (v > UINT32_MAX)
            return fail(c, what);
        c->p++;
    }
    *out = (uint32_t)v;
    return 0;
}

/* One letter out of `allowed`; what names the field and lists the letters. */
static int take_letter(struct cursor *c, const char *allowed, char *out, const char *what)
{
    if (*c->p == '\0' || !strchr(allowed, *c->p))
        return fail(c, what);
    *out = *c->p++;
    return 0;
}

static int take_sep(struct cursor *c, char sep, const char *what)
{
    if (*c->p != sep)
        return fail(c, what);
    c->p++;
    return 0;
}

/* [<kind>:]<nsets>:<line>:<assoc> */
static int parse_shape(struct cursor *c, struct mem_cache_geom *g)
{
    g->kind = 'N';
    if (*c->p < '0' || *c->p > '9') {
        if (take_letter(c, "NS", &g->kind, "cache kind N (normal) or S (sectored)") ||
            take_sep(c, ':', "':' after the cache kind"))
            return PS_EPARSE;
    }
    if (take_uint(c, &g->nsets, "the number of sets") || take_sep(c, ':', "':' after nsets") ||
        take_uint(c, &g->line_bytes, "the line size in bytes") ||
        take_sep(c, ':', "':' after the line size") || take_uint(c, &g->assoc, "the associativity"))
        return PS_EPARSE;
    return 0;
}

/* <repl>:<wpol>:<alloc>:<walloc>[:<index>] */
static int parse_policy(struct cursor *c, struct mem_cache_geom *g)
{
    if (take_sep(c, ',', "',' before the policy group") ||
        take_letter(c, "LF", &g->repl, "replacement policy L (LRU) or F (FIFO)") ||
        take_sep(c, ':', "':' after the replacement policy") ||
        take_letter(c, "RBTEL", &g->wpol, "write policy R, B, T, E or L") ||
        take_sep(c, ':', "':' after the write policy") ||
        take_letter(c, "mfs", &g->alloc, "allocation policy m (on miss), f (on fill) or s") ||
        take_sep(c, ':', "':' after the allocation policy") ||
        take_letter(c, "NWFL", &g->walloc, "write-allocate policy N, W, F or L"))
        return PS_EPARSE;
    g->index = 'L';
    if (*c->p == ':') {
        c->p++;
        if (take_letter(c, "LHPX", &g->index, "set-index function L, H, P or X"))
            return PS_EPARSE;
    }
    return 0;
}

/* <mshr>:<entries>:<merge>,<missq>[:<fifo>][,<port>] */
static int parse_queues(struct cursor *c, struct mem_cache_geom *g)
{
    if (take_sep(c, ',', "',' before the MSHR group") ||
        take_letter(c, "ASTF", &g->mshr_kind, "MSHR kind A, S, T or F") ||
        take_sep(c, ':', "':' after the MSHR kind") ||
        take_uint(c, &g->mshr_entries, "the number of MSHR entries") ||
        take_sep(c, ':', "':' after the MSHR entries") ||
        take_uint(c, &g->mshr_max_merge, "the MSHR merge limit") ||
        take_sep(c, ',', "',' before the miss-queue size") ||
        take_uint(c, &g->miss_queue, "the miss-queue size"))
        return PS_EPARSE;
    g->result_fifo = 0;
    g->data_port = 0;
    if (*c->p == ':') {
        c->p++;
        if (take_uint(c, &g->result_fifo, "the result-FIFO size"))
            return PS_EPARSE;
    }
    if (*c->p == ',') {
        c->p++;
        if (take_uint(c, &g->data_port, "the data-port width in bytes"))
            return PS_EPARSE;
    }
    if (*c->p != '\0')
        return fail(c, "the end of the string");
    return 0;
}

int mem_cache_geom_parse(const char *s, struct mem_cache_geom *g, struct ps_err *err)
{
    struct cursor c = {.s = s ? s : "", .p = s ? s : "", .err = err};
    struct mem_cache_geom tmp;

    memset(&tmp, 0, sizeof(tmp));
    if (parse_shape(&c, &tmp) || parse_policy(&c, &tmp) || parse_queues(&c, &tmp))
        return PS_EPARSE;
    if (mem_cache_geom_check(&tmp, err))
        return err ? err->code : PS_EINVAL;
    *g = tmp;
    return 0;
}

static int bad(struct ps_err *err, const struct mem_cache_geom *g, const char *what)
{
    return ps_err_set(err, PS_EINVAL, "cache geometry %u:%u:%u: %s", g->nsets, g->line_bytes,
                      g->assoc, what);
}

static bool letter_ok(char v, const char *allowed)
{
    return v != '\0' && strchr(allowed, v) != NULL;
}

int mem_cache_geom_check(const struct mem_cache_geom *g, struct ps_err *err)
{
    if (g->nsets == 0 || g->assoc == 0)
        return bad(err, g, "sets and ways must be at least 1");
    if ((uint64_t)g->nsets * g->assoc > GEOM_MAX_LINES)
        return bad(err, g, "more than 16777216 lines");
    if (g->line_bytes < 4 || (g->line_bytes & (g->line_bytes - 1)) != 0)
        return bad(err, g, "the line size must be a power of two of at least 4 bytes");
    if (g->kind == 'S' && g->line_bytes != 4 * MEM_SECTOR_BYTES)
        return bad(err, g, "sectored caches need 128-byte lines (4 sectors of 32 bytes)");
    if (g->mshr_entries == 0 || g->mshr_entries > GEOM_MAX_MSHR)
        return bad(err, g, "MSHR entries must be between 1 and 1048576");
    if (g->mshr_max_merge == 0 || g->mshr_max_merge > GEOM_MAX_MERGE)
        return bad(err, g, "the MSHR merge limit must be between 1 and 65536");
    if ((uint64_t)g->mshr_entries * g->mshr_max_merge > GEOM_MAX_WAITERS)
        return bad(err, g, "MSHR entries times the merge limit exceed 4194304");
    if (g->miss_queue == 0)
        return bad(err, g, "the miss queue needs at least 1 entry");
    if (!letter_ok(g->kind, "NS") || !letter_ok(g->repl, "LF") || !letter_ok(g->wpol, "RBTEL") ||
        !letter_ok(g->alloc, "mfs") || !letter_ok(g->walloc, "NWFL") ||
        !letter_ok(g->index, "LHPX") || !letter_ok(g->mshr_kind, "ASTF"))
        return bad(err, g, "a policy letter is not one the cache string allows");
    return 0;
}

uint64_t mem_cache_geom_bytes(const struct mem_cache_geom *g)
{
    return (uint64_t)g->nsets * g->line_bytes * g->assoc;
}

static uint32_t log2_ceil(uint32_t n)
{
    uint32_t b = 0;

    while ((1ull << b) < n)
        b++;
    return b;
}

/*
 * XOR of every log2(nsets)-bit chunk of the line address, then mod nsets.
 * Stands in for GPGPU-Sim's IPOLY ('P') and bitwise-XOR ('X') functions,
 * and for 'H' at set counts the Fermi function does not define: like them
 * it spreads power-of-two strides over the sets.
 */
static uint32_t xor_fold(uint64_t line, uint32_t nsets)
{
    uint32_t bits = log2_ceil(nsets);
    uint64_t mask = (1ull << bits) - 1, v = 0;

    if (bits == 0)
        return 0;
    while (line) {
        v ^= line & mask;
        line >>= bits;
    }
    return (uint32_t)(v % nsets);
}

static uint64_t bit(uint64_t addr, unsigned i)
{
    return (addr >> i) & 1u;
}

/*
 * Fermi L1 set index (Nugteren et al., "A Detailed GPU Cache Model Based on
 * Reuse Distance Theory", HPCA 2014, as GPGPU-Sim documents it for 'H'): the
 * five line-address bits above the offset XORed with byte-address bits 13,
 * 14, 15, 17 and 19; a 64-set (48 KB) cache takes bit 12 as its sixth bit.
 */
static uint32_t fermi_hash(uint64_t addr, uint32_t line_shift, uint32_t nsets)
{
    uint64_t lower = (addr >> line_shift) & 0x1f;
    uint64_t upper = bit(addr, 13) | bit(addr, 14) << 1 | bit(addr, 15) << 2 | bit(addr, 17) << 3 |
                     bit(addr, 19) << 4;
    uint64_t set = lower ^ upper;

    if (nsets == 64)
        set |= bit(addr, 12) << 5;
    return (uint32_t)set;
}

uint32_t mem_cache_geom_set_index(const struct mem_cache_geom *g, uint64_t addr)
{
    uint32_t shift = (uint32_t)__builtin_ctz(g->line_bytes);
    uint64_t line = addr >> shift;

    switch (g->index) {
    case 'H':
        if (g->nsets == 32 || g->nsets == 64)
            return fermi_hash(addr, shift, g->nsets);
        return xor_fold(line, g->nsets);
    case 'P':
    case 'X':
        return xor_fold(line, g->nsets);
    default:
        return (uint32_t)(line % g->nsets);
    }
}
