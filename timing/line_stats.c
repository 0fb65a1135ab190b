/*
 * The per-PTX-line table: one counter record per instruction of a program,
 * found by function and instruction index, plus a snapshot of what the file
 * prints about each instruction. Programs are told apart by their PTX file
 * name and shape, so a program loaded again after cudaDeviceReset adds to
 * the same rows.
 */
#define _GNU_SOURCE /* open_memstream */
#include "timing/line_stats.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "isa/module.h"
#include "isa/print.h"
#include "isa/warp.h"

struct line_counts {
    uint64_t execs;
    uint64_t stall[TM_LS_COUNT];
    uint64_t l1d_accesses, l1d_misses;
    uint64_t replies, l2_misses, lat_sum, lat_max;
};

struct line_info {
    uint32_t ptx_line, loc_file, loc_line;
    uint32_t func;
    char *text;
};

struct tm_line_prog {
    char *ptx_name;
    uint32_t nfuncs, ninstrs;
    uint32_t *first;   /* per function: index of its first instruction */
    uint32_t *nfunc;   /* per function: its instruction count */
    char **func_names; /* per function */
    char **file_names; /* per .file id (0 .. nfile_ids-1), NULL where none */
    uint32_t nfile_ids;
    struct line_info *info;
    struct line_counts *cnt;
};

struct tm_lines {
    struct tm_line_prog **p;
    size_t n, cap;
};

static const char *const stall_names[TM_LS_COUNT] = {"sync",        "fetch", "control",   "data",
                                                     "dcache_miss", "mshr",  "structural"};

struct tm_lines *tm_lines_create(void)
{
    return calloc(1, sizeof(struct tm_lines));
}

static void prog_free(struct tm_line_prog *lp)
{
    if (!lp)
        return;
    for (uint32_t i = 0; lp->info && i < lp->ninstrs; i++)
        free(lp->info[i].text);
    for (uint32_t i = 0; lp->func_names && i < lp->nfuncs; i++)
        free(lp->func_names[i]);
    for (uint32_t i = 0; lp->file_names && i < lp->nfile_ids; i++)
        free(lp->file_names[i]);
    free(lp->func_names);
    free(lp->file_names);
    free(lp->first);
    free(lp->nfunc);
    free(lp->info);
    free(lp->cnt);
    free(lp->ptx_name);
    free(lp);
}

void tm_lines_destroy(struct tm_lines *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->n; i++)
        prog_free(t->p[i]);
    free(t->p);
    free(t);
}

/* The instruction as PTX text, one line. */
static char *instr_text(const struct isa_module *m, const struct isa_func *f,
                        const struct isa_instr *in)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);

    if (!fp)
        return NULL;
    isa_print_instr(m, f, in, fp);
    if (fclose(fp)) {
        free(buf);
        return NULL;
    }
    for (char *c = buf; c && *c; c++)
        if (*c == '\t' || *c == '\n')
            *c = ' ';
    return buf;
}

static int snapshot_files(struct tm_line_prog *lp, const struct isa_module *m)
{
    for (uint32_t i = 0; i < m->nfiles; i++)
        if (m->files[i].id >= lp->nfile_ids && m->files[i].id < 65536)
            lp->nfile_ids = m->files[i].id + 1;
    if (lp->nfile_ids && !(lp->file_names = calloc(lp->nfile_ids, sizeof(char *))))
        return -1;
    for (uint32_t i = 0; i < m->nfiles; i++)
        if (m->files[i].id < lp->nfile_ids && m->files[i].name &&
            !(lp->file_names[m->files[i].id] = strdup(m->files[i].name)))
            return -1;
    return 0;
}

static int snapshot_funcs(struct tm_line_prog *lp, const struct isa_module *m)
{
    uint32_t k = 0;

    for (uint32_t f = 0; f < m->nfuncs; f++) {
        const struct isa_func *fn = m->funcs[f];

        lp->first[f] = k;
        lp->nfunc[f] = fn->ninstrs;
        if (!(lp->func_names[f] = strdup(fn->name ? fn->name : "?")))
            return -1;
        for (uint32_t pc = 0; pc < fn->ninstrs; pc++, k++) {
            const struct isa_instr *in = &fn->instrs[pc];

            lp->info[k] = (struct line_info){in->line, in->loc_file, in->loc_line, f, NULL};
            if (!(lp->info[k].text = instr_text(m, fn, in)))
                return -1;
        }
    }
    return 0;
}

static struct tm_line_prog *prog_make(const struct isa_module *m)
{
    struct tm_line_prog *lp = calloc(1, sizeof(*lp));

    if (!lp)
        return NULL;
    lp->nfuncs = m->nfuncs;
    for (uint32_t f = 0; f < m->nfuncs; f++)
        lp->ninstrs += m->funcs[f]->ninstrs;
    lp->ptx_name = strdup(m->source_name ? m->source_name : "(ptx)");
    lp->first = calloc(lp->nfuncs + 1, sizeof(uint32_t));
    lp->nfunc = calloc(lp->nfuncs + 1, sizeof(uint32_t));
    lp->func_names = calloc(lp->nfuncs + 1, sizeof(char *));
    lp->info = calloc(lp->ninstrs + 1, sizeof(*lp->info));
    lp->cnt = calloc(lp->ninstrs + 1, sizeof(*lp->cnt));
    if (!lp->ptx_name || !lp->first || !lp->nfunc || !lp->func_names || !lp->info || !lp->cnt ||
        snapshot_funcs(lp, m) || snapshot_files(lp, m)) {
        prog_free(lp);
        return NULL;
    }
    return lp;
}

static bool same_prog(const struct tm_line_prog *lp, const struct isa_module *m)
{
    uint32_t n = 0;

    if (lp->nfuncs != m->nfuncs || strcmp(lp->ptx_name, m->source_name ? m->source_name : "(ptx)"))
        return false;
    for (uint32_t f = 0; f < m->nfuncs; f++) {
        if (lp->nfunc[f] != m->funcs[f]->ninstrs)
            return false;
        n += m->funcs[f]->ninstrs;
    }
    return n == lp->ninstrs;
}

struct tm_line_prog *tm_lines_program(struct tm_lines *t, const struct isa_program *p)
{
    struct tm_line_prog *lp;

    for (size_t i = 0; i < t->n; i++)
        if (same_prog(t->p[i], p->m))
            return t->p[i];
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 4;
        struct tm_line_prog **np = realloc(t->p, cap * sizeof(*np));

        if (!np)
            return NULL;
        t->p = np;
        t->cap = cap;
    }
    if (!(lp = prog_make(p->m)))
        return NULL;
    t->p[t->n++] = lp;
    return lp;
}

static struct line_counts *at(struct tm_line_prog *lp, uint32_t fidx, uint32_t pc)
{
    if (fidx >= lp->nfuncs || pc >= lp->nfunc[fidx])
        return NULL;
    return &lp->cnt[lp->first[fidx] + pc];
}

void tm_lines_exec(struct tm_line_prog *lp, uint32_t fidx, uint32_t pc)
{
    struct line_counts *c = at(lp, fidx, pc);

    if (c)
        c->execs++;
}

void tm_lines_stall(struct tm_line_prog *lp, const struct isa_warp *w, enum tm_line_stall why)
{
    struct line_counts *c;

    if (!w || !w->sp || !w->nfr || why >= TM_LS_COUNT)
        return;
    c = at(lp, w->fr[w->nfr - 1].fidx, w->st[w->sp - 1].pc);
    if (c)
        c->stall[why]++;
}

void tm_lines_l1d(struct tm_line_prog *lp, uint32_t fidx, uint32_t pc, bool miss)
{
    struct line_counts *c = at(lp, fidx, pc);

    if (!c)
        return;
    c->l1d_accesses++;
    c->l1d_misses += miss;
}

void tm_lines_reply(struct tm_line_prog *lp, uint32_t fidx, uint32_t pc, uint64_t lat, bool l2_miss)
{
    struct line_counts *c = at(lp, fidx, pc);

    if (!c)
        return;
    c->replies++;
    c->l2_misses += l2_miss;
    c->lat_sum += lat;
    if (lat > c->lat_max)
        c->lat_max = lat;
}

/* ------------------------------------------------------------------ the file */

static bool any(const struct line_counts *c)
{
    uint64_t s = c->execs | c->l1d_accesses | c->replies;

    for (int i = 0; i < TM_LS_COUNT; i++)
        s |= c->stall[i];
    return s != 0;
}

static void add(struct line_counts *a, const struct line_counts *b)
{
    a->execs += b->execs;
    for (int i = 0; i < TM_LS_COUNT; i++)
        a->stall[i] += b->stall[i];
    a->l1d_accesses += b->l1d_accesses;
    a->l1d_misses += b->l1d_misses;
    a->replies += b->replies;
    a->l2_misses += b->l2_misses;
    a->lat_sum += b->lat_sum;
    if (b->lat_max > a->lat_max)
        a->lat_max = b->lat_max;
}

static void put_counts(FILE *f, const struct line_counts *c)
{
    uint64_t total = 0;

    for (int i = 0; i < TM_LS_COUNT; i++)
        total += c->stall[i];
    fprintf(f, "\t%llu\t%llu", (unsigned long long)c->execs, (unsigned long long)total);
    for (int i = 0; i < TM_LS_COUNT; i++)
        fprintf(f, "\t%llu", (unsigned long long)c->stall[i]);
    fprintf(f, "\t%llu\t%llu\t%llu\t%llu\t%llu\t%llu", (unsigned long long)c->l1d_accesses,
            (unsigned long long)c->l1d_misses, (unsigned long long)c->replies,
            (unsigned long long)c->l2_misses, (unsigned long long)c->lat_sum,
            (unsigned long long)c->lat_max);
}

static const char *file_of(const struct tm_line_prog *lp, uint32_t id)
{
    return id < lp->nfile_ids && lp->file_names[id] ? lp->file_names[id] : NULL;
}

static void put_source(FILE *f, const struct tm_line_prog *lp, const struct line_info *in)
{
    const char *name = file_of(lp, in->loc_file);

    if (!in->loc_line)
        fputs("-", f);
    else if (name)
        fprintf(f, "%s:%u", name, in->loc_line);
    else
        fprintf(f, "file%u:%u", in->loc_file, in->loc_line);
}

/* One S row per CUDA source line of the program, in file then line order. */
struct src_row {
    uint32_t file, line;
    struct line_counts c;
};

static int src_cmp(const void *a, const void *b)
{
    const struct src_row *x = a, *y = b;

    if (x->file != y->file)
        return x->file < y->file ? -1 : 1;
    return x->line < y->line ? -1 : x->line > y->line;
}

static int put_sources(FILE *f, const struct tm_line_prog *lp)
{
    struct src_row *r = calloc(lp->ninstrs + 1, sizeof(*r));
    size_t n = 0;

    if (!r)
        return -1;
    for (uint32_t i = 0; i < lp->ninstrs; i++)
        if (lp->info[i].loc_line && any(&lp->cnt[i])) {
            r[n].file = lp->info[i].loc_file;
            r[n].line = lp->info[i].loc_line;
            r[n++].c = lp->cnt[i];
        }
    qsort(r, n, sizeof(*r), src_cmp);
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        struct line_info li = {0, r[i].file, r[i].line, 0, NULL};

        for (; j < n && r[j].file == r[i].file && r[j].line == r[i].line; j++)
            add(&r[i].c, &r[j].c);
        fprintf(f, "S\t%s\t-\t", lp->ptx_name);
        put_source(f, lp, &li);
        fputs("\t-", f);
        put_counts(f, &r[i].c);
        fputs("\t-\n", f);
        i = j;
    }
    free(r);
    return 0;
}

static int put_prog(FILE *f, const struct tm_line_prog *lp)
{
    for (uint32_t i = 0; i < lp->ninstrs; i++) {
        const struct line_info *in = &lp->info[i];

        if (!any(&lp->cnt[i]))
            continue;
        fprintf(f, "I\t%s\t%u\t", lp->ptx_name, in->ptx_line);
        put_source(f, lp, in);
        fprintf(f, "\t%s", lp->func_names[in->func]);
        put_counts(f, &lp->cnt[i]);
        fprintf(f, "\t%s\n", in->text ? in->text : "");
    }
    return put_sources(f, lp);
}

int tm_lines_write(const struct tm_lines *t, const char *path, struct ps_err *err)
{
    FILE *f = fopen(path, "w");
    int rc = 0;

    if (!f)
        return ps_err_set(err, PS_EIO, "cannot write %s: %s", path, strerror(errno));
    fprintf(f, "# ptxsim per-PTX-line statistics (-enable_ptx_file_line_stats 1); "
               "`ptxsim annotate` prints them hottest first\n");
    fprintf(f, "# kind\tptx_file\tptx_line\tsource\tfunction\texecs\tstall_cycles");
    for (int i = 0; i < TM_LS_COUNT; i++)
        fprintf(f, "\tstall_%s", stall_names[i]);
    fprintf(f, "\tl1d_accesses\tl1d_misses\tmem_replies\tl2_misses\tlatency_total\tlatency_max"
               "\tinstruction\n");
    for (size_t i = 0; i < t->n && !rc; i++)
        rc = put_prog(f, t->p[i]);
    if (fclose(f) || rc)
        return ps_err_set(err, PS_EIO, "cannot write %s", path);
    return 0;
}
