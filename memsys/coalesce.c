/*
 * Fermi (compute 2.x) coalescing and shared-memory bank conflicts.
 *
 * Global/local accesses: one request per distinct line_bytes-aligned line
 * the active lanes touch, whatever the access size (the caller passes 128
 * for L1-cached accesses and 32 for accesses that bypass L1, which gives
 * Fermi's 32-byte segments). Sector masks are relative to the 128-byte line
 * (bit i = bytes 32*i .. 32*i+31), as struct mem_req defines them.
 *
 * Shared memory: bank = (byte address / 4) % nbanks; an access of more than
 * 4 bytes touches that many consecutive words (8 bytes: two banks, 16: four).
 * A bank serves one distinct word per cycle and every lane reading that word
 * gets it (broadcast), so a lane group takes as many cycles as its busiest
 * bank has distinct words. With limited_broadcast (GPGPU-Sim's
 * -gpgpu_shmem_limited_broadcast, as we read it) only one word in the whole
 * group is broadcast: the first one several lanes share, in bank then
 * address order; every other lane access to a shared word costs its own
 * bank cycle.
 */
#include "memsys/coalesce.h"

#define WARP_LANES 32u
#define SHMEM_MAX_WORDS 8u /* per lane: up to 32-byte accesses */

/* Sector bits (of the 128-byte line, or of the line when longer) for bytes lo..hi. */
static uint32_t sectors(uint64_t lo, uint64_t hi, uint32_t line_bytes)
{
    uint64_t span = line_bytes > 4 * MEM_SECTOR_BYTES ? line_bytes : 4 * MEM_SECTOR_BYTES;
    uint32_t mask = 0;

    for (uint64_t x = lo / MEM_SECTOR_BYTES; x <= hi / MEM_SECTOR_BYTES; x++) {
        uint64_t bit = (x * MEM_SECTOR_BYTES % span) / MEM_SECTOR_BYTES;

        if (bit < 32)
            mask |= 1u << bit;
    }
    return mask;
}

/* Adds mask to the request for line base, creating it (in first-touch order) if new. */
static void add_line(struct mem_req *out, uint32_t *n, uint64_t base, uint32_t mask,
                     uint32_t line_bytes, const struct mem_req *tmpl)
{
    for (uint32_t i = *n; i-- > 0;) {
        if (out[i].addr == base) {
            out[i].sector_mask |= mask;
            return;
        }
    }
    if (*n >= MEM_MAX_WARP_REQS)
        return;
    out[*n] = *tmpl;
    out[*n].addr = base;
    out[*n].bytes = line_bytes;
    out[*n].sector_mask = mask;
    (*n)++;
}

/*
 * Fermi's transaction sizing: a 128-byte request whose sectors all lie in
 * one 64-byte half shrinks to that half, and a 64-byte one with one sector
 * to that sector (GPGPU-Sim's rule for -gpgpu_coalesce_arch 20). A store of
 * a few scattered bytes then moves 32 bytes of data, not a whole line.
 */
static void shrink(struct mem_req *r)
{
    uint32_t m = r->sector_mask & 0xf, half;

    if (r->bytes != 4 * MEM_SECTOR_BYTES || !m || ((m & 0x3) && (m & 0xc)))
        return;
    half = m & 0x3 ? 0 : 2;
    r->bytes = 2 * MEM_SECTOR_BYTES;
    r->addr += half * MEM_SECTOR_BYTES;
    if (!(m & (m - 1))) { /* one sector (m is not 0) */
        r->bytes = MEM_SECTOR_BYTES;
        r->addr += (m >> half & 1 ? 0 : 1) * MEM_SECTOR_BYTES;
    }
}

/* The general case of one lane: bytes first..last, each line they touch. */
static uint32_t coalesce_lane(uint64_t first, uint64_t last, uint32_t line_bytes,
                              const struct mem_req *tmpl, struct mem_req *out, uint32_t n)
{
    for (uint64_t line = first / line_bytes; line <= last / line_bytes; line++) {
        uint64_t base = line * line_bytes;
        uint64_t lo = first > base ? first : base;
        uint64_t hi = last < base + line_bytes - 1 ? last : base + line_bytes - 1;

        add_line(out, &n, base, sectors(lo, hi, line_bytes), line_bytes, tmpl);
    }
    return n;
}

uint32_t mem_coalesce(const uint64_t *addr, uint32_t active, uint32_t size, uint32_t line_bytes,
                      const struct mem_req *tmpl, struct mem_req *out)
{
    uint32_t n = 0;

    if (size == 0)
        size = 1;
    if (line_bytes == 0)
        line_bytes = 4 * MEM_SECTOR_BYTES;
    /*
     * The usual line (a power of two of at most 32 sectors): a lane inside
     * one line takes shifts instead of sectors()'s divisions, which cost
     * most of a 32-lane call. The sectors of a line are then contiguous.
     */
    bool pow2 = !(line_bytes & (line_bytes - 1)) && line_bytes <= 32 * MEM_SECTOR_BYTES;
    uint32_t shift = pow2 ? (uint32_t)__builtin_ctz(line_bytes) : 0;
    uint64_t smask = (line_bytes > 4 * MEM_SECTOR_BYTES ? line_bytes / MEM_SECTOR_BYTES : 4) - 1;

    for (uint32_t m = active; m; m &= m - 1) {
        uint32_t lane = (uint32_t)__builtin_ctz(m);
        uint64_t first = addr[lane], last = first + size - 1;
        uint64_t lo, hi;

        if (!pow2 || last < first || first >> shift != last >> shift) {
            n = coalesce_lane(first, last, line_bytes, tmpl, out, n);
            continue;
        }
        lo = first / MEM_SECTOR_BYTES & smask;
        hi = last / MEM_SECTOR_BYTES & smask;
        add_line(out, &n, first >> shift << shift,
                 (uint32_t)(((UINT64_C(2) << hi) - 1) & ~((UINT64_C(1) << lo) - 1)), line_bytes,
                 tmpl);
    }
    for (uint32_t i = 0; i < n; i++)
        shrink(&out[i]);
    return n;
}

/*
 * Atomics (GPGPU-Sim's memory_coalescing_arch_atomic): they are .cg, so on
 * Fermi (-gpgpu_coalesce_arch 20) a transaction is one 32-byte segment, and a
 * lane joins the first transaction of its segment none of whose bytes it
 * touches, else it opens one of its own. Lanes updating the same word thus
 * each send a transaction: bfs's out[atomicAdd(&n, 1)] sends one per lane,
 * all to the counter's L2 slice, where a plain segment count sends one.
 */
uint32_t mem_coalesce_atomic(const uint64_t *addr, uint32_t active, uint32_t size,
                             const struct mem_req *tmpl, struct mem_req *out)
{
    uint64_t used[MEM_MAX_WARP_REQS]; /* bytes of its segment each transaction takes */
    uint32_t n = 0;

    if (size == 0)
        size = 1;
    if (size > MEM_SECTOR_BYTES)
        size = MEM_SECTOR_BYTES;
    for (uint32_t m = active; m; m &= m - 1) {
        uint32_t lane = (uint32_t)__builtin_ctz(m), t;
        uint64_t a = addr[lane], base = a & ~(uint64_t)(MEM_SECTOR_BYTES - 1);
        uint64_t want = ((UINT64_C(1) << size) - 1) << (a % MEM_SECTOR_BYTES);

        for (t = 0; t < n; t++)
            if (out[t].addr == base && !(used[t] & want))
                break;
        if (t == n) {
            if (n >= MEM_MAX_WARP_REQS)
                continue;
            out[n] = *tmpl;
            out[n].addr = base;
            out[n].bytes = MEM_SECTOR_BYTES;
            out[n].sector_mask = 1u << (a % (4 * MEM_SECTOR_BYTES) / MEM_SECTOR_BYTES);
            used[n++] = 0;
        }
        used[t] |= want;
    }
    return n;
}

struct bank_word {
    uint64_t word;
    uint32_t bank;
};

static bool before(const struct bank_word *a, const struct bank_word *b)
{
    return a->bank < b->bank || (a->bank == b->bank && a->word < b->word);
}

/* Insertion sort by (bank, word): lanes mostly come in address order, so this is near linear. */
static void sort_words(struct bank_word *v, uint32_t n)
{
    for (uint32_t i = 1; i < n; i++) {
        struct bank_word x = v[i];
        uint32_t j = i;

        while (j > 0 && before(&x, &v[j - 1])) {
            v[j] = v[j - 1];
            j--;
        }
        v[j] = x;
    }
}

/* Index of the first word that several accesses share, or n when none does. */
static uint32_t first_shared(const struct bank_word *v, uint32_t n)
{
    for (uint32_t i = 1; i < n; i++) {
        if (v[i].word == v[i - 1].word)
            return i - 1;
    }
    return n;
}

/* Cycles of the busiest bank over sorted words: distinct words, or accesses (limited). */
static uint32_t busiest_bank(const struct bank_word *v, uint32_t n, bool limited)
{
    uint32_t bc = limited ? first_shared(v, n) : n;
    uint32_t best = 0, cur = 0;

    for (uint32_t i = 0; i < n; i++) {
        bool same_word = i > 0 && v[i].bank == v[i - 1].bank && v[i].word == v[i - 1].word;

        if (i == 0 || v[i].bank != v[i - 1].bank)
            cur = 0;
        /* A repeated word is free when broadcast: always, or only the chosen one if limited. */
        if (!same_word || (limited && !(bc < n && v[i].word == v[bc].word)))
            cur++;
        if (cur > best)
            best = cur;
    }
    return best;
}

/*
 * The common case without sorting: when no bank holds two distinct words,
 * a bank's accesses all read one word. Unlimited broadcast makes that one
 * cycle; limited broadcast frees only the lowest bank with a shared word
 * (busiest_bank's choice), every other bank costs one cycle per access.
 * Returns 0 when some bank holds two distinct words (sort instead).
 */
static uint32_t one_word_per_bank(const struct bank_word *v, uint32_t n, uint32_t nbanks,
                                  bool limited)
{
    uint64_t word_of[64];
    uint32_t cnt[64], best = 0, chosen = 64;
    uint64_t used = 0;

    if (nbanks > 64 || !n)
        return 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t b = v[i].bank;

        if (!(used >> b & 1)) {
            used |= UINT64_C(1) << b;
            word_of[b] = v[i].word;
            cnt[b] = 1;
        } else if (word_of[b] != v[i].word) {
            return 0;
        } else {
            cnt[b]++;
        }
    }
    if (!limited)
        return 1;
    for (uint32_t b = 0; b < nbanks; b++)
        if (used >> b & 1 && cnt[b] > 1 && chosen == 64)
            chosen = b;
    for (uint32_t b = 0; b < nbanks; b++)
        if (used >> b & 1) {
            uint32_t c = b == chosen ? 1 : cnt[b];

            if (c > best)
                best = c;
        }
    return best;
}

static uint32_t group_cycles(const uint64_t *addr, uint32_t active, uint32_t lane0, uint32_t lanes,
                             uint32_t size, uint32_t nbanks, bool limited)
{
    struct bank_word v[WARP_LANES * SHMEM_MAX_WORDS];
    uint32_t nw = (size + 3) / 4, n = 0, fast;

    if (nw == 0)
        nw = 1;
    if (nw > SHMEM_MAX_WORDS)
        nw = SHMEM_MAX_WORDS;
    for (uint32_t lane = lane0; lane < lane0 + lanes && lane < WARP_LANES; lane++) {
        if (!(active >> lane & 1u))
            continue;
        for (uint32_t k = 0; k < nw; k++) {
            v[n].word = addr[lane] / 4 + k;
            v[n].bank = (uint32_t)(v[n].word % nbanks);
            n++;
        }
    }
    if ((fast = one_word_per_bank(v, n, nbanks, limited)))
        return fast;
    sort_words(v, n);
    return busiest_bank(v, n, limited);
}

uint32_t mem_shmem_cycles(const uint64_t *addr, uint32_t active, uint32_t size, uint32_t nbanks,
                          uint32_t warp_parts, bool limited_broadcast)
{
    uint32_t lanes, total = 0;

    if (nbanks == 0)
        nbanks = 1;
    if (warp_parts == 0 || warp_parts > WARP_LANES)
        warp_parts = 1;
    lanes = (WARP_LANES + warp_parts - 1) / warp_parts;
    for (uint32_t lane0 = 0; lane0 < WARP_LANES; lane0 += lanes)
        total += group_cycles(addr, active, lane0, lanes, size, nbanks, limited_broadcast);
    return total ? total : 1;
}

uint32_t mem_shmem_atomic_cycles(const uint64_t *addr, uint32_t active, uint32_t nbanks)
{
    uint32_t per_bank[64] = {0}, worst = 0;

    if (nbanks == 0)
        nbanks = 1;
    if (nbanks > 64)
        nbanks = 64;
    /* Each lane's read-modify-write is its own bank access: same-word lanes serialise. */
    for (uint32_t l = 0; l < WARP_LANES; l++)
        if (active >> l & 1) {
            uint32_t b = (uint32_t)((addr[l] / 4) % nbanks);

            if (++per_bank[b] > worst)
                worst = per_bank[b];
        }
    return worst ? worst : 1;
}
