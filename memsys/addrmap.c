/*
 * Address mapping from GPGPU-Sim's -gpgpu_mem_addr_mapping string. Each
 * field (row, bank, column, channel) is a 64-bit mask of address bits, and
 * a field's value is those bits packed together (a pext). "dramid@N" takes
 * the channel out of the address arithmetically instead: the bits from N up
 * are split into channel (remainder) and the rest (quotient), which lets a
 * non-power-of-two channel count (the GTX 480's 6) spread consecutive
 * 2^N-byte chunks over all channels. For a power-of-two count this is the
 * same as inserting log2(nchan) channel bits at bit N.
 */
#include "memsys/addrmap.h"

#include <stdbool.h>
#include <string.h>

#define DRAMID_PREFIX "dramid@"

uint64_t mem_pext(uint64_t v, uint64_t mask)
{
    uint64_t out = 0;
    unsigned k = 0;

    /* Whole runs of mask bits at a time: real maps have one or two runs per field. */
    while (mask) {
        unsigned lo = (unsigned)__builtin_ctzll(mask);
        uint64_t run = mask >> lo;
        unsigned len = ~run ? (unsigned)__builtin_ctzll(~run) : 64 - lo;
        uint64_t bits = len >= 64 ? run : (1ull << len) - 1;

        out |= ((v >> lo) & bits) << k;
        k += len;
        mask &= len + lo >= 64 ? 0 : ~0ull << (len + lo);
    }
    return out;
}

uint64_t mem_pdep(uint64_t v, uint64_t mask)
{
    uint64_t out = 0;

    for (; mask; mask &= mask - 1, v >>= 1)
        out |= (v & 1) ? mask & -mask : 0;
    return out;
}

void mem_pext_plan(struct mem_pext_plan *p, uint64_t mask)
{
    unsigned k = 0;

    memset(p, 0, sizeof(*p));
    p->mask = mask;
    while (mask) { /* as mem_pext walks the runs */
        unsigned lo = (unsigned)__builtin_ctzll(mask);
        uint64_t run = mask >> lo;
        unsigned len = ~run ? (unsigned)__builtin_ctzll(~run) : 64 - lo;

        if (p->nruns == MEM_PEXT_RUNS) {
            p->nruns = MEM_PEXT_RUNS + 1;
            return;
        }
        p->lo[p->nruns] = (uint8_t)lo;
        p->to[p->nruns] = (uint8_t)k;
        p->bits[p->nruns++] = len >= 64 ? run : (1ull << len) - 1;
        k += len;
        mask &= len + lo >= 64 ? 0 : ~0ull << (len + lo);
    }
}

static bool is_pow2(uint32_t x)
{
    return x && !(x & (x - 1));
}

/* "dramid@N;" at the start of s: N into m->dramid_at; *rest points past the ';'. */
static int parse_dramid(const char *s, const char **rest, struct mem_addrmap *m, struct ps_err *err)
{
    const char *p = s + strlen(DRAMID_PREFIX);
    uint32_t n = 0;

    if (*p < '0' || *p > '9')
        return ps_err_set(err, PS_EINVAL, "address map: '%s' needs a bit number after dramid@", s);
    while (*p >= '0' && *p <= '9' && n < 64)
        n = n * 10 + (uint32_t)(*p++ - '0');
    if (n >= 64 || *p != ';')
        return ps_err_set(err, PS_EINVAL, "address map: '%s': dramid@N wants N < 64 then ';'", s);
    m->dramid_at = (int)n;
    *rest = p + 1;
    return 0;
}

/* The 64 bit letters, MSB first; dots separate groups and are skipped. */
static int parse_letters(const char *s, struct mem_addrmap *m, struct ps_err *err)
{
    int bit = 63;

    for (const char *p = s; *p; p++) {
        uint64_t b;

        if (*p == '.')
            continue;
        if (bit < 0)
            return ps_err_set(err, PS_EINVAL, "address map: '%s' has more than 64 bit letters", s);
        b = 1ull << bit--;
        switch (*p) {
        case 'R':
            m->mask_row |= b;
            break;
        case 'B':
            m->mask_bank |= b;
            break;
        case 'C':
        case 'S': /* S, the burst offset, is the column's low part */
            m->mask_col |= b;
            break;
        case 'D':
            m->mask_chan |= b;
            break;
        case '0':
            break;
        default:
            return ps_err_set(err, PS_EINVAL,
                              "address map: bad letter '%c' in '%s' (want R B C S D 0 or .)", *p,
                              s);
        }
    }
    if (bit != -1)
        return ps_err_set(err, PS_EINVAL, "address map: '%s' has %d bit letters, not 64", s,
                          63 - bit);
    return 0;
}

/* Checks that every channel and sub-partition is reachable and banks stay below nbk. */
static int check_map(const struct mem_addrmap *m, struct ps_err *err)
{
    unsigned dbits = (unsigned)__builtin_popcountll(m->mask_chan);
    unsigned bbits = (unsigned)__builtin_popcountll(m->mask_bank);

    if (m->dramid_at >= 0 && dbits)
        return ps_err_set(err, PS_EINVAL,
                          "address map: give the channel by dramid@ or by D letters, not both");
    if (m->nchan > 1 && m->dramid_at < 0 && (dbits >= 32 || (1u << dbits) < m->nchan))
        return ps_err_set(err, PS_EINVAL, "address map: %u D bits cannot select %u channels", dbits,
                          m->nchan);
    if (bbits >= 32 || (1u << bbits) > m->nbk)
        return ps_err_set(err, PS_EINVAL,
                          "address map: %u bank bits exceed the %u banks of a channel", bbits,
                          m->nbk);
    return 0;
}

/*
 * The plans of the fields and of the partition address: with D bits, the
 * channel's bits come out first and then the sub-partition's (the lowest
 * log2(nsub) bank bits, numbered in the address without the channel's), so
 * the two extractions are one, of the positions the second keeps of the
 * first's; with dramid@ the channel comes out arithmetically and only the
 * sub-partition's bits by mask.
 */
static void plan_map(struct mem_addrmap *m)
{
    uint64_t bank = m->mask_bank, keep = ~0ull, sub_bits = 0;

    mem_pext_plan(&m->row, m->mask_row);
    mem_pext_plan(&m->bank, m->mask_bank);
    mem_pext_plan(&m->col, m->mask_col);
    mem_pext_plan(&m->chan, m->mask_chan);
    if (m->dramid_at < 0 && m->mask_chan) {
        keep = ~m->mask_chan;
        bank = mem_pext(bank, keep);
    }
    for (uint32_t n = m->nsub; n > 1 && bank; n >>= 1) {
        uint64_t low = bank & -bank;

        sub_bits |= low;
        bank &= ~low;
    }
    mem_pext_plan(&m->part, m->dramid_at < 0 ? mem_pdep(~sub_bits, keep) : ~sub_bits);
}

int mem_addrmap_parse(const char *s, uint32_t nchan, uint32_t nsub, uint32_t nbk,
                      struct mem_addrmap *m, struct ps_err *err)
{
    const char *letters = s;
    int rc;

    memset(m, 0, sizeof(*m));
    m->dramid_at = -1;
    m->nchan = nchan;
    m->nsub = nsub;
    m->nbk = nbk;
    if (!s)
        return ps_err_set(err, PS_EINVAL, "address map: no mapping string");
    if (!nchan || !nbk || !is_pow2(nsub))
        return ps_err_set(err, PS_EINVAL,
                          "address map: bad geometry %u channels x %u sub-partitions, %u banks",
                          nchan, nsub, nbk);
    if (!strncmp(s, DRAMID_PREFIX, strlen(DRAMID_PREFIX))) {
        rc = parse_dramid(s, &letters, m, err);
        if (rc)
            return rc;
    }
    rc = parse_letters(letters, m, err);
    if (!rc)
        rc = check_map(m, err);
    if (!rc)
        plan_map(m);
    return rc;
}

void mem_addrmap_decode(const struct mem_addrmap *m, struct mem_req *r)
{
    uint64_t a = r->addr, rest = a;
    uint32_t chan = 0;

    if (m->dramid_at >= 0) {
        /* GPGPU-Sim's decoder for -gpgpu_mem_address_mask 1 with dramid@N. */
        unsigned n = (unsigned)m->dramid_at;
        uint64_t upper = a >> n;

        chan = (uint32_t)(upper % m->nchan);
        rest = ((upper / m->nchan) << n) | (a & ((1ull << n) - 1));
    } else if (m->mask_chan) {
        chan = (uint32_t)(mem_pext_by(&m->chan, a) % m->nchan);
    }
    r->chan = (uint16_t)chan;
    r->bank = (uint32_t)mem_pext_by(&m->bank, rest);
    r->row = (uint32_t)mem_pext_by(&m->row, rest);
    r->col = (uint32_t)mem_pext_by(&m->col, rest);
    /* The low bank bits pick the sub-partition within the channel (GPGPU-Sim's rule). */
    r->part = (uint16_t)(chan * m->nsub + (r->bank & (m->nsub - 1)));
}

uint64_t mem_addrmap_partition_addr(const struct mem_addrmap *m, uint64_t a)
{
    if (m->dramid_at >= 0) {
        unsigned n = (unsigned)m->dramid_at;
        uint64_t upper = a >> n;

        a = ((upper / m->nchan) << n) | (a & ((1ull << n) - 1));
    }
    return mem_pext_by(&m->part, a); /* channel and sub-partition bits removed (plan_map) */
}
