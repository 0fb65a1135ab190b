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
    if (rc)
        return rc;
    return check_map(m, err);
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
        chan = (uint32_t)(mem_pext(a, m->mask_chan) % m->nchan);
    }
    r->chan = (uint16_t)chan;
    r->bank = (uint32_t)mem_pext(rest, m->mask_bank);
    r->row = (uint32_t)mem_pext(rest, m->mask_row);
    r->col = (uint32_t)mem_pext(rest, m->mask_col);
    /* The low bank bits pick the sub-partition within the channel (GPGPU-Sim's rule). */
    r->part = (uint16_t)(chan * m->nsub + (r->bank & (m->nsub - 1)));
}

/* Removes the bits of v selected by mask, closing the gaps (the inverse of a deposit). */
static uint64_t squeeze_out(uint64_t v, uint64_t mask)
{
    return mem_pext(v, ~mask); /* the kept bits, run by run */
}

uint64_t mem_addrmap_partition_addr(const struct mem_addrmap *m, uint64_t a)
{
    uint64_t rest = a, sub_bits = 0, bank = m->mask_bank;

    if (m->dramid_at >= 0) {
        unsigned n = (unsigned)m->dramid_at;
        uint64_t upper = a >> n;

        rest = ((upper / m->nchan) << n) | (a & ((1ull << n) - 1));
    } else if (m->mask_chan) {
        rest = squeeze_out(a, m->mask_chan);
        bank = squeeze_out(bank, m->mask_chan);
    }
    /* The lowest log2(nsub) bank bits chose the sub-partition. */
    for (uint32_t n = m->nsub; n > 1 && bank; n >>= 1) {
        uint64_t low = bank & -bank;

        sub_bits |= low;
        bank &= ~low;
    }
    return squeeze_out(rest, sub_bits);
}
