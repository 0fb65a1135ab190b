/*
 * `ptxsim belady FILE`: replays the L1D read trace of a timing run
 * (-ptxsim_l1d_trace FILE, timing/l1d_trace.h) through a stand-alone cache
 * of the L1D's geometry, per SM, with LRU and with Belady's optimal
 * replacement (tools/belady.c), as the CCWS paper's "X-BEL" bars do
 * (seed 004 section 4.5, oracles 28-30 and 34). Prints per SM and in total
 * the reads, the timing model's misses, the replayed LRU misses (reads
 * only, the paper's stand-alone cache), the "timed" LRU replay that also
 * follows fills and write hits as the timing L1D does (see replay_timed),
 * the Belady misses, the compulsory misses (distinct lines: an unbounded
 * cache), and the reads where the timed replay and the run disagree, and
 * their MPKI when the warp instruction count is given.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "timing/l1d_trace.h"
#include "tools/belady.h"
#include "tools/sweep_json.h"
#include "tools/verbs.h"

static void usage(FILE *out)
{
    fputs("usage: ptxsim belady FILE [--sets N] [--assoc N] [--insts N | --stats JSON]\n"
          "Replays an L1D trace (recorded with -o ptxsim_l1d_trace=FILE) per SM and\n"
          "prints, per SM and in total:\n"
          "  reads       reads the run's L1D looked up\n"
          "  run_misses  the run's misses as its statistics count them (new misses\n"
          "              and merges into pending ones)\n"
          "  run_new     the run's new misses alone\n"
          "  lru         misses of an LRU cache replaying the reads only\n"
          "  timed_lru   LRU as the timing L1D does it: fills and write hits refresh a\n"
          "              line, a line waiting for its fill is never evicted\n"
          "  belady      misses with Belady-optimal replacement on the reads\n"
          "  compulsory  distinct lines (an unbounded cache)\n"
          "  intra_hits, inter_hits\n"
          "              the run's hits by the warp slot that allocated the line or by\n"
          "              another one (in the timed replay)\n"
          "  differ      reads on which the timed replay and the run disagree\n"
          "  stuck       timed-replay misses that found every way waiting for a fill\n"
          "and the MPKI with the run's warp instructions.\n"
          "  --sets N     sets of the replayed cache (default the run's L1D; with\n"
          "               --sets the set is line mod N, else the set the run used)\n"
          "  --assoc N    ways (default the run's L1D)\n"
          "  --insts N    warp instructions of the run, for MPKI\n"
          "  --stats JSON take them from a `ptxsim run --stats` file\n"
          "               (timing_total.warp_insn)\n",
          out);
}

/* One SM's part of the trace. */
struct sm_trace {
    uint64_t *e; /* belady entries: line, or BELADY_FLUSH */
    size_t n, cap;
    struct tm_l1d_trace_rec *rec; /* every record, for the timed replay */
    size_t nrec, rcap;
    uint64_t timing_misses; /* the run's: new misses and merges into pending ones */
    uint64_t timing_allocs; /* the new misses alone */
};

/* Line -> set as the run used it, sorted by line for bsearch. */
struct set_map {
    uint64_t *line;
    uint32_t *set;
    size_t n;
};

struct pair {
    uint64_t line;
    uint32_t set;
};

static int cmp_pair(const void *a, const void *b)
{
    const struct pair *x = a, *y = b;

    return x->line < y->line ? -1 : x->line > y->line;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

    return x < y ? -1 : x > y;
}

static uint32_t recorded_set(uint64_t line, void *ctx)
{
    const struct set_map *m = ctx;
    size_t lo = 0, hi = m->n;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (m->line[mid] < line)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < m->n && m->line[lo] == line ? m->set[lo] : UINT32_MAX;
}

static bool push(struct sm_trace *t, uint64_t e)
{
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 4096;
        uint64_t *p = realloc(t->e, cap * sizeof(*p));

        if (!p)
            return false;
        t->e = p;
        t->cap = cap;
    }
    t->e[t->n++] = e;
    return true;
}

static bool push_rec(struct sm_trace *t, const struct tm_l1d_trace_rec *r)
{
    if (t->nrec == t->rcap) {
        size_t cap = t->rcap ? 2 * t->rcap : 4096;
        struct tm_l1d_trace_rec *p = realloc(t->rec, cap * sizeof(*p));

        if (!p)
            return false;
        t->rec = p;
        t->rcap = cap;
    }
    t->rec[t->nrec++] = *r;
    return true;
}

/*
 * LRU as the timing model's L1D does it: a line is the most recently used
 * at its last read, write hit or fill; the victim is an invalid way, else
 * the least recently used line not waiting for its fill. Returns the misses,
 * and in *differ the reads on which the replay and the run disagree (hit or
 * miss); a miss that finds every way waiting (the run would have retried)
 * counts in *stuck and allocates nothing. Same-cycle ties, which the run
 * breaks by way, follow the trace order here; after such a difference a
 * line the run hit but the replay missed is allocated valid, not waiting.
 */
struct tway {
    uint64_t line, last;
    bool valid, pending;
    uint16_t warp; /* the warp slot that allocated it */
};

/* What the timed replay counts besides its misses. */
struct timed {
    uint64_t differ, stuck;
    uint64_t intra, inter; /* the run's hits by the allocating warp or another (oracle 33) */
};

static uint64_t replay_timed(const struct sm_trace *t, uint32_t nsets, uint32_t assoc,
                             bool line_sets, struct tway *w, struct timed *out)
{
    uint64_t misses = 0, seq = 0;

    memset(w, 0, (size_t)nsets * assoc * sizeof(*w));
    for (size_t i = 0; i < t->nrec; i++) {
        const struct tm_l1d_trace_rec *r = &t->rec[i];
        uint32_t set = line_sets ? (uint32_t)(r->line % nsets) : r->set, hit = assoc, vic = assoc;
        struct tway *s = w + (size_t)set * assoc;

        seq++;
        if (r->kind == TM_L1D_TRACE_FLUSH) {
            memset(w, 0, (size_t)nsets * assoc * sizeof(*w));
            continue;
        }
        if (set >= nsets)
            continue;
        for (uint32_t k = 0; k < assoc && hit == assoc; k++)
            if (s[k].valid && s[k].line == r->line)
                hit = k;
        if (r->kind == TM_L1D_TRACE_FILL || r->kind == TM_L1D_TRACE_WRITE) {
            /* a fill for a line not waiting (a read sent around the cache) changes nothing */
            if (hit < assoc && (r->kind == TM_L1D_TRACE_WRITE || s[hit].pending)) {
                s[hit].last = seq;
                s[hit].pending &= r->kind != TM_L1D_TRACE_FILL;
            }
            continue;
        }
        out->differ += (hit < assoc) != (r->kind != TM_L1D_TRACE_MISS);
        if (hit < assoc) {
            s[hit].last = seq;
            if (r->kind == TM_L1D_TRACE_HIT && s[hit].warp == r->warp)
                out->intra++;
            else if (r->kind == TM_L1D_TRACE_HIT)
                out->inter++;
            continue;
        }
        misses++;
        for (uint32_t k = 0; k < assoc; k++) {
            if (!s[k].valid) {
                vic = k;
                break;
            }
            if (!s[k].pending && (vic == assoc || s[k].last < s[vic].last))
                vic = k;
        }
        if (vic == assoc) {
            out->stuck++;
            continue;
        }
        /* a read the run hit has its data: waiting for a fill that never comes would jam the set */
        s[vic] = (struct tway){r->line, seq, true, r->kind != TM_L1D_TRACE_HIT, r->warp};
    }
    return misses;
}

/* Distinct lines between flushes: the misses of an unbounded cache (oracle 34). */
static uint64_t compulsory(const struct sm_trace *t, uint64_t *scratch)
{
    uint64_t total = 0;
    size_t i = 0;

    while (i < t->n) {
        size_t k = 0;

        while (i < t->n && t->e[i] != BELADY_FLUSH)
            scratch[k++] = t->e[i++];
        i++;
        qsort(scratch, k, sizeof(*scratch), cmp_u64);
        for (size_t j = 0; j < k; j++)
            total += !j || scratch[j] != scratch[j - 1];
    }
    return total;
}

/* Reads the trace into per-SM entries and the line -> set map. */
static int load(const char *path, struct tm_l1d_trace_header *h, struct sm_trace **out,
                struct set_map *map)
{
    FILE *f = fopen(path, "rb");
    struct tm_l1d_trace_rec r;
    struct pair *pairs = NULL;
    size_t np = 0, cap = 0;
    struct sm_trace *sm = NULL;
    int rc = 1;

    if (!f) {
        fprintf(stderr, "ptxsim belady: cannot open %s: %s\n", path, strerror(errno));
        return 1;
    }
    if (fread(h, sizeof(*h), 1, f) != 1 || memcmp(h->magic, TM_L1D_TRACE_MAGIC, 8) || !h->nsm ||
        !h->nsets || !h->assoc) {
        fprintf(stderr, "ptxsim belady: %s is not an L1D trace (-ptxsim_l1d_trace)\n", path);
        goto out;
    }
    if (!(sm = calloc(h->nsm, sizeof(*sm))))
        goto oom;
    while (fread(&r, sizeof(r), 1, f) == 1) {
        if (r.sm >= h->nsm || r.kind > TM_L1D_TRACE_MERGE ||
            (r.kind != TM_L1D_TRACE_FLUSH && r.set >= h->nsets)) {
            fprintf(stderr, "ptxsim belady: %s: a bad record (sm %u, kind %u, set %u)\n", path,
                    r.sm, r.kind, r.set);
            goto out;
        }
        if (!push_rec(&sm[r.sm], &r))
            goto oom;
        if (r.kind == TM_L1D_TRACE_FILL || r.kind == TM_L1D_TRACE_WRITE)
            continue;
        if (r.kind == TM_L1D_TRACE_FLUSH) {
            if (!push(&sm[r.sm], BELADY_FLUSH))
                goto oom;
            continue;
        }
        if (r.line & BELADY_WRITE) {
            fprintf(stderr, "ptxsim belady: %s: line 0x%" PRIx64 " is out of range\n", path,
                    r.line);
            goto out;
        }
        sm[r.sm].timing_misses += r.kind != TM_L1D_TRACE_HIT;
        sm[r.sm].timing_allocs += r.kind == TM_L1D_TRACE_MISS;
        if (!push(&sm[r.sm], r.line))
            goto oom;
        if (np == cap) {
            struct pair *p;

            cap = cap ? 2 * cap : 4096;
            if (!(p = realloc(pairs, cap * sizeof(*p))))
                goto oom;
            pairs = p;
        }
        pairs[np++] = (struct pair){r.line, r.set};
    }
    if (ferror(f)) {
        fprintf(stderr, "ptxsim belady: cannot read %s\n", path);
        goto out;
    }
    qsort(pairs, np, sizeof(*pairs), cmp_pair);
    map->line = malloc((np ? np : 1) * sizeof(*map->line));
    map->set = malloc((np ? np : 1) * sizeof(*map->set));
    if (!map->line || !map->set)
        goto oom;
    for (size_t i = 0; i < np; i++) {
        if (map->n && map->line[map->n - 1] == pairs[i].line) {
            if (map->set[map->n - 1] != pairs[i].set) {
                fprintf(stderr, "ptxsim belady: %s: line 0x%" PRIx64 " in sets %u and %u\n", path,
                        pairs[i].line, map->set[map->n - 1], pairs[i].set);
                goto out;
            }
            continue;
        }
        map->line[map->n] = pairs[i].line;
        map->set[map->n++] = pairs[i].set;
    }
    rc = 0;
    goto out;
oom:
    fprintf(stderr, "ptxsim belady: out of memory\n");
out:
    free(pairs);
    fclose(f);
    if (rc && sm) {
        for (uint32_t i = 0; i < h->nsm; i++) {
            free(sm[i].e);
            free(sm[i].rec);
        }
        free(sm);
        sm = NULL;
    }
    *out = sm;
    return rc;
}

static bool parse_u64(const char *s, uint64_t *out)
{
    char *end;

    if (!s || !*s || *s == '-')
        return false;
    errno = 0;
    *out = strtoull(s, &end, 10);
    return !errno && !*end;
}

struct opts {
    const char *file, *stats;
    uint64_t sets, assoc, insts;
};

static int parse_args(int argc, char **argv, struct opts *o)
{
    memset(o, 0, sizeof(*o));
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        uint64_t *num = !strcmp(a, "--sets")    ? &o->sets
                        : !strcmp(a, "--assoc") ? &o->assoc
                        : !strcmp(a, "--insts") ? &o->insts
                                                : NULL;

        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        }
        if (num) {
            if (i + 1 == argc || !parse_u64(argv[i + 1], num) || !*num || *num > UINT32_MAX) {
                fprintf(stderr, "ptxsim belady: %s needs a positive whole number\n", a);
                return 2;
            }
            i++;
        } else if (!strcmp(a, "--stats")) {
            if (i + 1 == argc) {
                fprintf(stderr, "ptxsim belady: --stats needs a file\n");
                return 2;
            }
            o->stats = argv[++i];
        } else if (a[0] == '-' || o->file) {
            fprintf(stderr, "ptxsim belady: unexpected argument '%s'\n", a);
            usage(stderr);
            return 2;
        } else {
            o->file = a;
        }
    }
    if (!o->file) {
        usage(stderr);
        return 2;
    }
    return -1;
}

static int stats_insts(const char *path, uint64_t *out)
{
    char err[512];
    struct json_t *json = sweep_json_load(path, err, sizeof(err));
    double v;
    bool ok = json && sweep_json_number(json, "timing_total.warp_insn", &v) && v >= 0;

    sweep_json_free(json);
    if (!ok) {
        fprintf(stderr, "ptxsim belady: no timing_total.warp_insn in %s\n", path);
        return 1;
    }
    *out = (uint64_t)v;
    return 0;
}

enum {
    C_READS,
    C_RUN,
    C_ALLOC,
    C_LRU,
    C_TIMED,
    C_BEL,
    C_COMP,
    C_INTRA,
    C_INTER,
    C_DIFFER,
    C_STUCK,
    C_N
};

static void print_row(const char *name, const uint64_t *c)
{
    printf("%-6s", name);
    for (int k = 0; k < C_N; k++)
        printf(" %11" PRIu64, c[k]);
    putchar('\n');
}

static double pct(uint64_t a, uint64_t b)
{
    return b ? 100.0 * ((double)a - (double)b) / (double)b : 0.0;
}

static void print_totals(const uint64_t *tot, uint64_t insts)
{
    print_row("total", tot);
    printf("LRU replay vs the run's misses %+.3f%%, vs its new misses (merges are hits to a "
           "replay) %+.3f%%; timed LRU replay vs the new misses %+.3f%%\n",
           pct(tot[C_LRU], tot[C_RUN]), pct(tot[C_LRU], tot[C_ALLOC]),
           pct(tot[C_TIMED], tot[C_ALLOC]));
    if (insts)
        printf("MPKI (per 1000 of %" PRIu64 " warp instructions): run %.3f, LRU %.3f, "
               "timed LRU %.3f, Belady %.3f, compulsory %.3f\n",
               insts, 1000.0 * (double)tot[C_RUN] / (double)insts,
               1000.0 * (double)tot[C_LRU] / (double)insts,
               1000.0 * (double)tot[C_TIMED] / (double)insts,
               1000.0 * (double)tot[C_BEL] / (double)insts,
               1000.0 * (double)tot[C_COMP] / (double)insts);
}

int verb_belady(int argc, char **argv)
{
    struct opts o;
    struct tm_l1d_trace_header h;
    struct sm_trace *sm = NULL;
    struct set_map map = {0};
    struct belady_geom g;
    struct tway *ways = NULL;
    uint64_t tot[C_N] = {0}, *scratch = NULL;
    size_t maxn = 0;
    int rc = parse_args(argc, argv, &o);

    if (rc >= 0)
        return rc;
    if (o.stats && stats_insts(o.stats, &o.insts))
        return 1;
    if (load(o.file, &h, &sm, &map))
        return 1;
    g = (struct belady_geom){.nsets = o.sets ? (uint32_t)o.sets : h.nsets,
                             .assoc = o.assoc ? (uint32_t)o.assoc : h.assoc,
                             .set_of = o.sets ? NULL : recorded_set,
                             .ctx = &map};
    for (uint32_t i = 0; i < h.nsm; i++)
        maxn = sm[i].n > maxn ? sm[i].n : maxn;
    scratch = malloc((maxn ? maxn : 1) * sizeof(*scratch));
    ways = malloc((size_t)g.nsets * g.assoc * sizeof(*ways));
    rc = scratch && ways ? 0 : 1;
    printf("L1D trace %s: %u SMs, replayed as %u sets x %u ways of %u-byte lines%s\n", o.file,
           h.nsm, g.nsets, g.assoc, h.line_bytes, o.sets ? " (set = line mod sets)" : "");
    printf("%-6s %11s %11s %11s %11s %11s %11s %11s %11s %11s %11s %11s\n", "sm", "reads",
           "run_misses", "run_new", "lru", "timed_lru", "belady", "compulsory", "intra_hits",
           "inter_hits", "differ", "stuck");
    for (uint32_t i = 0; i < h.nsm && !rc; i++) {
        struct belady_result lru, bel;
        struct ps_err err;
        char name[16];
        uint64_t c[C_N] = {0};
        struct timed tm = {0};

        ps_err_clear(&err);
        if (belady_lru_misses(sm[i].e, sm[i].n, &g, &lru, &err) ||
            belady_misses(sm[i].e, sm[i].n, &g, &bel, &err)) {
            fprintf(stderr, "ptxsim belady: SM %u: %s\n", i, err.msg);
            rc = 1;
            break;
        }
        c[C_READS] = lru.reads;
        c[C_RUN] = sm[i].timing_misses;
        c[C_ALLOC] = sm[i].timing_allocs;
        c[C_LRU] = lru.misses;
        c[C_TIMED] = replay_timed(&sm[i], g.nsets, g.assoc, o.sets != 0, ways, &tm);
        c[C_INTRA] = tm.intra;
        c[C_INTER] = tm.inter;
        c[C_DIFFER] = tm.differ;
        c[C_STUCK] = tm.stuck;
        c[C_BEL] = bel.misses;
        c[C_COMP] = compulsory(&sm[i], scratch);
        snprintf(name, sizeof(name), "%u", i);
        print_row(name, c);
        for (int k = 0; k < C_N; k++)
            tot[k] += c[k];
    }
    if (!rc)
        print_totals(tot, o.insts);
    for (uint32_t i = 0; i < h.nsm; i++) {
        free(sm[i].e);
        free(sm[i].rec);
    }
    free(sm);
    free(ways);
    free(map.line);
    free(map.set);
    free(scratch);
    return rc;
}
