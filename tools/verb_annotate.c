/*
 * `ptxsim annotate FILE`: the per-PTX-line statistics that a run with
 * -enable_ptx_file_line_stats 1 wrote (timing/line_stats.h), as a listing
 * sorted hottest first: per instruction (PTX file and line, CUDA source
 * line, the instruction) and per CUDA source line. "Cycles" is the
 * scheduler cycles warps waited to issue the instruction plus the round
 * trips of its memory requests, so a load whose misses keep warps waiting
 * ranks by the latency it causes, not only by where the wait shows.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/verbs.h"

#define NCOL 21
#define NSTALL 7

static const char *const stall_names[NSTALL] = {"sync",        "fetch", "control",   "data",
                                                "dcache_miss", "mshr",  "structural"};

struct row {
    char kind;
    char *ptx_file, *source, *function, *text;
    uint32_t ptx_line;
    uint64_t execs, stalls, stall[NSTALL], l1d_acc, l1d_miss, replies, l2_miss, lat_sum, lat_max;
    uint64_t key; /* the sort key */
    size_t order; /* position in the file: ties keep it */
};

struct rows {
    struct row *r;
    size_t n, cap;
};

enum sort_by { BY_CYCLES, BY_STALLS, BY_EXECS, BY_MISSES, BY_LATENCY };

static void usage(FILE *out)
{
    fprintf(out,
            "usage: ptxsim annotate [--sort KEY] [--top N] [--source] FILE\n"
            "Lists the per-PTX-line statistics a run wrote with -enable_ptx_file_line_stats 1\n"
            "(to -ptx_line_stats_filename, default gpgpu_inst_stats.txt), hottest first.\n"
            "  --sort KEY   cycles (default: stall cycles at the instruction plus the latency\n"
            "               of its memory requests), stalls, execs, misses (L1D) or latency\n"
            "  --top N      the N hottest of each list (default 20; 0 = all)\n"
            "  --source     only the list by CUDA source line (.loc, nvcc -lineinfo)\n");
}

static uint64_t num(const char *s, bool *ok)
{
    char *end;
    unsigned long long v;

    errno = 0;
    v = strtoull(s, &end, 10);
    if (errno || end == s || *end)
        *ok = false;
    return v;
}

/* One data line, split at tabs in place. */
static int parse_row(char *line, struct row *r)
{
    char *f[NCOL];
    size_t n = 0;
    bool ok = true;

    for (char *p = line; n < NCOL; n++) {
        f[n] = p;
        p = strchr(p, '\t');
        if (!p) {
            n++;
            break;
        }
        *p++ = '\0';
    }
    if (n != NCOL || (f[0][0] != 'I' && f[0][0] != 'S') || f[0][1])
        return -1;
    memset(r, 0, sizeof(*r));
    r->kind = f[0][0];
    r->ptx_file = f[1];
    r->ptx_line = f[2][0] == '-' ? 0 : (uint32_t)num(f[2], &ok);
    r->source = f[3];
    r->function = f[4];
    r->execs = num(f[5], &ok);
    r->stalls = num(f[6], &ok);
    for (int i = 0; i < NSTALL; i++)
        r->stall[i] = num(f[7 + i], &ok);
    r->l1d_acc = num(f[14], &ok);
    r->l1d_miss = num(f[15], &ok);
    r->replies = num(f[16], &ok);
    r->l2_miss = num(f[17], &ok);
    r->lat_sum = num(f[18], &ok);
    r->lat_max = num(f[19], &ok);
    r->text = f[20];
    return ok ? 0 : -1;
}

static int dup_strings(struct row *r)
{
    r->ptx_file = strdup(r->ptx_file);
    r->source = strdup(r->source);
    r->function = strdup(r->function);
    r->text = strdup(r->text);
    return r->ptx_file && r->source && r->function && r->text ? 0 : -1;
}

static int load(const char *path, struct rows *rs)
{
    FILE *fp = fopen(path, "r");
    char *line = NULL;
    size_t cap = 0, lineno = 0;
    ssize_t len;
    int rc = 0;

    if (!fp) {
        fprintf(stderr, "ptxsim annotate: cannot read %s: %s\n", path, strerror(errno));
        return 1;
    }
    while (!rc && (len = getline(&line, &cap, fp)) >= 0) {
        lineno++;
        if (len && line[len - 1] == '\n')
            line[--len] = '\0';
        if (!len || line[0] == '#')
            continue;
        if (rs->n == rs->cap) {
            size_t nc = rs->cap ? 2 * rs->cap : 256;
            struct row *nr = realloc(rs->r, nc * sizeof(*nr));

            if (!nr) {
                rc = 1;
                break;
            }
            rs->r = nr;
            rs->cap = nc;
        }
        if (parse_row(line, &rs->r[rs->n])) {
            fprintf(stderr, "ptxsim annotate: %s:%zu: not a line of per-PTX-line statistics\n",
                    path, lineno);
            rc = 1;
        } else if (dup_strings(&rs->r[rs->n])) {
            rc = 1;
        } else {
            rs->r[rs->n].order = rs->n;
            rs->n++;
        }
    }
    free(line);
    fclose(fp);
    return rc;
}

static int by_key(const void *a, const void *b)
{
    const struct row *x = a, *y = b;

    if (x->key != y->key)
        return x->key > y->key ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

static uint64_t key_of(const struct row *r, enum sort_by by)
{
    switch (by) {
    case BY_STALLS:
        return r->stalls;
    case BY_EXECS:
        return r->execs;
    case BY_MISSES:
        return r->l1d_miss;
    case BY_LATENCY:
        return r->lat_sum;
    default:
        return r->stalls + r->lat_sum;
    }
}

/* The largest stall reason as "name share%", or "-". */
static void top_stall(const struct row *r, char *buf, size_t len)
{
    int best = -1;

    for (int i = 0; i < NSTALL; i++)
        if (r->stall[i] && (best < 0 || r->stall[i] > r->stall[best]))
            best = i;
    if (best < 0)
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%s %.0f%%", stall_names[best],
                 100.0 * (double)r->stall[best] / (double)r->stalls);
}

static void print_list(const struct rows *rs, char kind, size_t top, uint64_t total)
{
    size_t shown = 0;
    char stall[32], miss[32], where[512];

    printf("%4s %12s %6s %10s %-20s %16s %8s %7s  %s\n", "rank", "cycles", "share", "execs",
           "top stall", "L1D misses", "latency", "L2 miss",
           kind == 'I' ? "PTX line / source line / instruction" : "source line");
    for (size_t i = 0; i < rs->n && (!top || shown < top); i++) {
        const struct row *r = &rs->r[i];
        uint64_t cyc = r->stalls + r->lat_sum;

        if (r->kind != kind)
            continue;
        shown++;
        top_stall(r, stall, sizeof(stall));
        if (r->l1d_acc)
            snprintf(miss, sizeof(miss), "%llu/%llu", (unsigned long long)r->l1d_miss,
                     (unsigned long long)r->l1d_acc);
        else
            snprintf(miss, sizeof(miss), "-");
        if (kind == 'I')
            snprintf(where, sizeof(where), "%s:%u  %s  %s", r->ptx_file, r->ptx_line, r->source,
                     r->text);
        else
            snprintf(where, sizeof(where), "%s", r->source);
        printf("%4zu %12llu %5.1f%% %10llu %-20s %16s %8.1f %6.0f%%  %s\n", shown,
               (unsigned long long)cyc, total ? 100.0 * (double)cyc / (double)total : 0.0,
               (unsigned long long)r->execs, stall, miss,
               r->replies ? (double)r->lat_sum / (double)r->replies : 0.0,
               r->replies ? 100.0 * (double)r->l2_miss / (double)r->replies : 0.0, where);
    }
    if (!shown)
        printf("     (none%s)\n",
               kind == 'S' ? ": the PTX has no .loc; build with nvcc -lineinfo" : "");
}

static int parse_args(int argc, char **argv, enum sort_by *by, size_t *top, bool *source,
                      const char **path)
{
    static const char *const keys[] = {"cycles", "stalls", "execs", "misses", "latency"};

    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return -1;
        } else if (!strcmp(argv[i], "--source")) {
            *source = true;
        } else if (!strcmp(argv[i], "--top") && i + 1 < argc) {
            bool ok = true;

            *top = (size_t)num(argv[++i], &ok);
            if (!ok)
                return fprintf(stderr, "ptxsim annotate: --top wants a number\n"), 2;
        } else if (!strcmp(argv[i], "--sort") && i + 1 < argc) {
            size_t k = 0;

            for (i++; k < 5 && strcmp(argv[i], keys[k]); k++)
                ;
            if (k == 5)
                return fprintf(stderr,
                               "ptxsim annotate: unknown sort key '%s' (cycles, "
                               "stalls, execs, misses, latency)\n",
                               argv[i]),
                       2;
            *by = (enum sort_by)k;
        } else if (argv[i][0] == '-' || *path) {
            usage(stderr);
            return 2;
        } else {
            *path = argv[i];
        }
    }
    if (!*path) {
        usage(stderr);
        return 2;
    }
    return 0;
}

int verb_annotate(int argc, char **argv)
{
    struct rows rs = {0};
    enum sort_by by = BY_CYCLES;
    size_t top = 20;
    bool source = false;
    const char *path = NULL;
    uint64_t total = 0;
    int rc = parse_args(argc, argv, &by, &top, &source, &path);

    if (rc)
        return rc < 0 ? 0 : rc;
    rc = load(path, &rs);
    if (!rc) {
        for (size_t i = 0; i < rs.n; i++) {
            rs.r[i].key = key_of(&rs.r[i], by);
            if (rs.r[i].kind == 'I')
                total += rs.r[i].stalls + rs.r[i].lat_sum;
        }
        qsort(rs.r, rs.n, sizeof(*rs.r), by_key);
        printf("%s: cycles = stall cycles at the instruction + latency of its memory requests; "
               "share of %llu\n",
               path, (unsigned long long)total);
        if (!source) {
            printf("\nby PTX instruction:\n");
            print_list(&rs, 'I', top, total);
        }
        printf("\nby CUDA source line:\n");
        print_list(&rs, 'S', top, total);
    }
    for (size_t i = 0; i < rs.n; i++) {
        free(rs.r[i].ptx_file);
        free(rs.r[i].source);
        free(rs.r[i].function);
        free(rs.r[i].text);
    }
    free(rs.r);
    return rc;
}
