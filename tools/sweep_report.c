/*
 * Sweep results: rows, results.csv, the statistics JSON of one run, and the
 * per-(size, config) tables with normalisation and means that summary.md and
 * the charts are made from.
 */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tools/sweep_json.h"
#include "tools/sweep_report.h"

static const char *const col_names[SWEEP_NCOLS] = {
#define SWEEP_X(id, name, path, fmt) name,
    SWEEP_COLUMNS(SWEEP_X)
#undef SWEEP_X
};

static const char *const col_paths[SWEEP_NCOLS] = {
#define SWEEP_X(id, name, path, fmt) path,
    SWEEP_COLUMNS(SWEEP_X)
#undef SWEEP_X
};

static const char *const col_fmts[SWEEP_NCOLS] = {
#define SWEEP_X(id, name, path, fmt) fmt,
    SWEEP_COLUMNS(SWEEP_X)
#undef SWEEP_X
};

static const char *const status_names[] = {"pass", "fail", "timeout", "error"};

static const char *const stall_names[SWEEP_NSTALLS] = {
    "sync", "fetch", "control", "data", "dcache_miss", "mshr", "structural", "exec"};

/* Identifying columns of the CSV, before the numeric ones (docs/experiments.md). */
#define NKEYS 10
enum {
    K_RUN,
    K_WORKLOAD,
    K_CLASS,
    K_SIZE,
    K_CONFIG,
    K_VARIANT,
    K_STATUS,
    K_SCOPE,
    K_KINDEX,
    K_KERNEL
};
static const char *const key_names[NKEYS] = {"run",          "workload", "class",  "size",
                                             "config",       "variant",  "status", "scope",
                                             "kernel_index", "kernel"};
/* Columns a results.csv must have (older files have no run, scope or kernel columns). */
static const bool key_required[NKEYS] = {false, true, false, true, true, true, true};

const char *sweep_status_name(enum sweep_status s)
{
    return (unsigned)s < 4 ? status_names[s] : "error";
}

const char *sweep_col_name(enum sweep_col c)
{
    return (unsigned)c < SWEEP_NCOLS ? col_names[c] : "?";
}

const char *sweep_stall_name(int i)
{
    return i >= 0 && i < SWEEP_NSTALLS ? stall_names[i] : "?";
}

int sweep_results_add(struct sweep_results *r, const struct sweep_row *row)
{
    if (r->n == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 64;
        struct sweep_row *n = realloc(r->rows, cap * sizeof(*n));

        if (!n)
            return -1;
        r->rows = n;
        r->cap = cap;
    }
    r->rows[r->n++] = *row;
    return 0;
}

void sweep_results_free(struct sweep_results *r)
{
    free(r->rows);
    memset(r, 0, sizeof(*r));
}

void sweep_row_clear(struct sweep_row *row)
{
    for (int i = 0; i < SWEEP_NCOLS; i++)
        row->v[i] = NAN;
}

/* DYNCTA's idle time as a share of all SM cycles (docs/workloads.md, "Classes"). */
static double idle_frac(const double *v)
{
    double sm_cycles = v[SWEEP_COL_N_SM] * v[SWEEP_COL_CYCLES];
    double idle;

    if (!(sm_cycles > 0))
        return NAN;
    idle = v[SWEEP_COL_C_IDLE] + sm_cycles - v[SWEEP_COL_N_ACT] - v[SWEEP_COL_N_INACT];
    return idle < 0 ? 0 : idle > sm_cycles ? 1 : idle / sm_cycles;
}

bool sweep_row_from_json(struct sweep_row *row, const json_t *timing, const json_t *config,
                         double wall_s)
{
    double clusters = NAN, cores = NAN;

    sweep_row_clear(row);
    if (!json_is_object(timing))
        return false;
    for (int i = 0; i < SWEEP_NCOLS; i++)
        if (col_paths[i] && !sweep_json_number(timing, col_paths[i], &row->v[i]))
            row->v[i] = NAN;
    row->v[SWEEP_COL_WALL_S] = wall_s;
    if (wall_s < 0 && !sweep_json_number(timing, "wall_s", &row->v[SWEEP_COL_WALL_S]))
        row->v[SWEEP_COL_WALL_S] = NAN;
    if (sweep_json_number(config, "gpgpu_n_clusters", &clusters) &&
        sweep_json_number(config, "gpgpu_n_cores_per_cluster", &cores))
        row->v[SWEEP_COL_N_SM] = clusters * cores;
    row->v[SWEEP_COL_IDLE_FRAC] = idle_frac(row->v);
    if (!isnan(row->v[SWEEP_COL_CYCLES]) && !isnan(row->v[SWEEP_COL_IPC]))
        return true;
    sweep_row_clear(row);
    return false;
}

int sweep_rows_from_stats(struct sweep_results *r, const struct sweep_row *keys, const json_t *root,
                          double wall_s)
{
    const json_t *kernels = sweep_json_get(root, "kernels"),
                 *config = sweep_json_get(root, "config");
    struct sweep_row row = *keys;

    if (!sweep_json_has(root, "timing_total"))
        return 1;
    for (size_t i = 0; i < json_array_size(kernels); i++) {
        const json_t *k = json_array_get(kernels, i);

        row.total = false;
        row.kernel_index = (int)i;
        if (!sweep_json_string(k, "name", row.kernel, sizeof(row.kernel)))
            snprintf(row.kernel, sizeof(row.kernel), "?");
        if (!sweep_row_from_json(&row, sweep_json_get(k, "timing"), config, -1))
            return 1;
        if (sweep_results_add(r, &row))
            return -1;
    }
    row.total = true;
    row.kernel_index = -1;
    snprintf(row.kernel, sizeof(row.kernel), "(all kernels)");
    if (!sweep_row_from_json(&row, sweep_json_get(root, "timing_total"), config, wall_s))
        return 1;
    return sweep_results_add(r, &row) ? -1 : 0;
}

/* A text field, quoted (RFC 4180) when it holds a comma, a quote or a line break. */
static void put_field(const char *s, FILE *out)
{
    if (!s[strcspn(s, ",\"\r\n")]) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (; *s; s++)
        fprintf(out, *s == '"' ? "\"\"" : "%c", *s);
    fputc('"', out);
}

void sweep_csv_header(FILE *out)
{
    for (int k = 0; k < NKEYS; k++)
        fprintf(out, "%s%s", k ? "," : "", key_names[k]);
    for (int i = 0; i < SWEEP_NCOLS; i++)
        fprintf(out, ",%s", col_names[i]);
    fputc('\n', out);
}

void sweep_csv_row(const struct sweep_row *row, FILE *out)
{
    const char *text[] = {row->run,  row->workload, row->wclass,
                          row->size, row->config,   row->variant};

    for (size_t k = 0; k < sizeof(text) / sizeof(text[0]); k++) {
        put_field(text[k], out);
        fputc(',', out);
    }
    fprintf(out, "%s,%s,", sweep_status_name(row->status), row->total ? "total" : "kernel");
    if (!row->total)
        fprintf(out, "%d", row->kernel_index);
    fputc(',', out);
    put_field(row->kernel, out);
    for (int i = 0; i < SWEEP_NCOLS; i++) {
        fputc(',', out);
        if (!isnan(row->v[i]))
            fprintf(out, col_fmts[i], row->v[i]);
    }
    fputc('\n', out);
}

int sweep_csv_write(const struct sweep_results *r, FILE *out)
{
    sweep_csv_header(out);
    for (size_t j = 0; j < r->n; j++)
        sweep_csv_row(&r->rows[j], out);
    return ferror(out) ? -1 : 0;
}

/*
 * Splits line (modified) at commas into at most max fields, taking quoted
 * fields ("a,b", "say ""x""") as sweep_csv_row writes them; returns the count.
 */
static int split_csv(char *line, char **fields, int max)
{
    int n = 0;
    char *p = line, *o;
    bool more = true;

    line[strcspn(line, "\r\n")] = '\0';
    while (n < max && more) {
        fields[n++] = o = p;
        if (*p == '"')
            for (p++; *p; p++) {
                if (*p == '"' && p[1] != '"') {
                    p++;
                    break;
                }
                *o++ = *p;
                p += *p == '"';
            }
        while (*p && *p != ',')
            *o++ = *p++;
        more = *p == ',';
        *o = '\0'; /* o <= p: the comma is no longer needed */
        p += more;
    }
    return n;
}

#define MAX_FIELDS 128

/* map[i]: the CSV field of key i (0..NKEYS-1) or numeric column i - NKEYS; -1 if absent. */
static int read_header(char *line, int *map, char *err, size_t errlen)
{
    char *f[MAX_FIELDS];
    int n = split_csv(line, f, MAX_FIELDS);

    for (int i = 0; i < NKEYS + SWEEP_NCOLS; i++) {
        const char *want = i < NKEYS ? key_names[i] : col_names[i - NKEYS];

        map[i] = -1;
        for (int j = 0; j < n; j++)
            if (!strcmp(f[j], want))
                map[i] = j;
        if (map[i] < 0 && i < NKEYS && key_required[i]) {
            snprintf(err, errlen, "results.csv has no '%s' column", want);
            return -1;
        }
    }
    return 0;
}

static void copy_field(char *dst, size_t len, char **f, int nf, int idx, const char *dflt)
{
    snprintf(dst, len, "%s", idx >= 0 && idx < nf && *f[idx] ? f[idx] : dflt);
}

static void parse_row(char *line, const int *map, struct sweep_row *row)
{
    char *f[MAX_FIELDS], *end;
    int n = split_csv(line, f, MAX_FIELDS), s;

    memset(row, 0, sizeof(*row));
    copy_field(row->run, sizeof(row->run), f, n, map[K_RUN], "");
    copy_field(row->workload, sizeof(row->workload), f, n, map[K_WORKLOAD], "?");
    copy_field(row->wclass, sizeof(row->wclass), f, n, map[K_CLASS], "-");
    copy_field(row->size, sizeof(row->size), f, n, map[K_SIZE], "?");
    copy_field(row->config, sizeof(row->config), f, n, map[K_CONFIG], "?");
    copy_field(row->variant, sizeof(row->variant), f, n, map[K_VARIANT], "?");
    copy_field(row->kernel, sizeof(row->kernel), f, n, map[K_KERNEL], "(all kernels)");
    row->total = map[K_SCOPE] < 0 || map[K_SCOPE] >= n || strcmp(f[map[K_SCOPE]], "kernel");
    row->kernel_index = row->total || map[K_KINDEX] < 0 || map[K_KINDEX] >= n
                            ? -1
                            : (int)strtol(f[map[K_KINDEX]], NULL, 10);
    row->status = SWEEP_ERROR;
    for (s = 0; s < 4; s++)
        if (map[K_STATUS] < n && !strcmp(f[map[K_STATUS]], status_names[s]))
            row->status = (enum sweep_status)s;
    for (int i = 0; i < SWEEP_NCOLS; i++) {
        int idx = map[NKEYS + i];

        row->v[i] = NAN;
        if (idx >= 0 && idx < n && *f[idx]) {
            double x = strtod(f[idx], &end);

            row->v[i] = *end ? NAN : x;
        }
    }
}

int sweep_csv_read(struct sweep_results *r, FILE *in, char *err, size_t errlen)
{
    char line[16384];
    int map[NKEYS + SWEEP_NCOLS];
    struct sweep_row row;

    if (!fgets(line, sizeof(line), in)) {
        snprintf(err, errlen, "results.csv is empty");
        return -1;
    }
    if (read_header(line, map, err, errlen))
        return -1;
    while (fgets(line, sizeof(line), in)) {
        if (line[strspn(line, " \t\r\n")] == '\0')
            continue;
        parse_row(line, map, &row);
        if (row.total && sweep_results_add(r, &row)) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
    }
    return 0;
}

const char *sweep_row_field(const struct sweep_row *row, enum sweep_field f)
{
    switch (f) {
    case SWEEP_F_WORKLOAD:
        return row->workload;
    case SWEEP_F_SIZE:
        return row->size;
    case SWEEP_F_CONFIG:
        return row->config;
    case SWEEP_F_VARIANT:
        return row->variant;
    default:
        return row->wclass;
    }
}

size_t sweep_distinct(const struct sweep_results *r, enum sweep_field f, const char ***out)
{
    const char **names = malloc((r->n ? r->n : 1) * sizeof(*names));
    size_t n = 0;

    if (!names) {
        if (out)
            *out = NULL;
        return 0;
    }
    for (size_t i = 0; i < r->n; i++) {
        const char *v = sweep_row_field(&r->rows[i], f);
        size_t j = 0;

        while (j < n && strcmp(names[j], v))
            j++;
        if (j == n)
            names[n++] = v;
    }
    if (out)
        *out = names;
    else
        free(names);
    return n;
}

static size_t find_name(const char **names, size_t n, const char *v)
{
    size_t j = 0;

    while (j < n && strcmp(names[j], v))
        j++;
    return j;
}

int sweep_table_build(const struct sweep_results *r, const char *size, const char *config,
                      struct sweep_table *t)
{
    memset(t, 0, sizeof(*t));
    t->size = size;
    t->config = config;
    t->nv = sweep_distinct(r, SWEEP_F_VARIANT, &t->variants);
    t->workloads = malloc((r->n ? r->n : 1) * sizeof(*t->workloads));
    t->classes = malloc((r->n ? r->n : 1) * sizeof(*t->classes));
    if (!t->variants || !t->workloads || !t->classes)
        goto fail;
    for (size_t i = 0; i < r->n; i++) {
        const struct sweep_row *row = &r->rows[i];

        if (strcmp(row->size, size) || strcmp(row->config, config) ||
            find_name(t->workloads, t->nw, row->workload) < t->nw)
            continue;
        t->classes[t->nw] = row->wclass;
        t->workloads[t->nw++] = row->workload;
    }
    t->cell = calloc(t->nw * t->nv + 1, sizeof(*t->cell));
    if (!t->cell)
        goto fail;
    for (size_t i = 0; i < r->n; i++) {
        const struct sweep_row *row = &r->rows[i];

        if (strcmp(row->size, size) || strcmp(row->config, config))
            continue;
        t->cell[find_name(t->workloads, t->nw, row->workload) * t->nv +
                find_name(t->variants, t->nv, row->variant)] = row;
    }
    return 0;
fail:
    sweep_table_free(t);
    return -1;
}

void sweep_table_free(struct sweep_table *t)
{
    free(t->workloads);
    free(t->classes);
    free(t->variants);
    free(t->cell);
    memset(t, 0, sizeof(*t));
}

int sweep_table_variant(const struct sweep_table *t, const char *variant)
{
    size_t j = find_name(t->variants, t->nv, variant);

    return j < t->nv ? (int)j : -1;
}

bool sweep_table_complete(const struct sweep_table *t, size_t w)
{
    for (size_t v = 0; v < t->nv; v++) {
        const struct sweep_row *row = w < t->nw ? t->cell[w * t->nv + v] : NULL;

        if (!row || row->status != SWEEP_PASS)
            return false;
    }
    return w < t->nw;
}

double sweep_table_value(const struct sweep_table *t, size_t w, size_t v, enum sweep_col c)
{
    const struct sweep_row *row = w < t->nw && v < t->nv ? t->cell[w * t->nv + v] : NULL;

    return row && row->status == SWEEP_PASS ? row->v[c] : NAN;
}

double sweep_table_norm_ipc(const struct sweep_table *t, size_t w, size_t v, size_t base)
{
    double x = sweep_table_value(t, w, v, SWEEP_COL_IPC);
    double b = sweep_table_value(t, w, base, SWEEP_COL_IPC);

    return b > 0 && !isnan(x) ? x / b : NAN;
}

double sweep_table_stall_frac(const struct sweep_table *t, size_t w, size_t v, int i)
{
    double sum = 0;

    if (i < 0 || i >= SWEEP_NSTALLS)
        return NAN;
    for (int k = 0; k < SWEEP_NSTALLS; k++)
        sum += sweep_table_value(t, w, v, SWEEP_COL_STALL0 + k);
    return sum > 0 ? sweep_table_value(t, w, v, SWEEP_COL_STALL0 + i) / sum : NAN;
}

double sweep_mean(enum sweep_mean kind, const double *x, size_t n)
{
    double acc = 0;
    size_t m = 0;

    for (size_t i = 0; i < n; i++) {
        if (isnan(x[i]))
            continue;
        if (kind != SWEEP_AMEAN && !(x[i] > 0))
            return NAN;
        acc += kind == SWEEP_GMEAN ? log(x[i]) : kind == SWEEP_HMEAN ? 1.0 / x[i] : x[i];
        m++;
    }
    if (!m)
        return NAN;
    if (kind == SWEEP_GMEAN)
        return exp(acc / (double)m);
    return kind == SWEEP_HMEAN ? (double)m / acc : acc / (double)m;
}

double sweep_table_mean_norm_ipc(const struct sweep_table *t, size_t v, size_t base,
                                 const char *wclass, enum sweep_mean kind)
{
    double *x = malloc((t->nw ? t->nw : 1) * sizeof(*x)), m;
    size_t n = 0;

    if (!x)
        return NAN;
    for (size_t w = 0; w < t->nw; w++)
        if ((!wclass || !strcmp(t->classes[w], wclass)) && sweep_table_complete(t, w))
            x[n++] = sweep_table_norm_ipc(t, w, v, base);
    m = sweep_mean(kind, x, n);
    free(x);
    return m;
}

/* The arithmetic mean over complete workloads of col (>= 0) or of stall share -1 - col. */
static double mean_of(const struct sweep_table *t, size_t v, int col)
{
    double *x = malloc((t->nw ? t->nw : 1) * sizeof(*x)), m;
    size_t n = 0;

    if (!x)
        return NAN;
    for (size_t w = 0; w < t->nw; w++)
        if (sweep_table_complete(t, w))
            x[n++] = col >= 0 ? sweep_table_value(t, w, v, (enum sweep_col)col)
                              : sweep_table_stall_frac(t, w, v, -1 - col);
    m = sweep_mean(SWEEP_AMEAN, x, n);
    free(x);
    return m;
}

double sweep_table_mean_value(const struct sweep_table *t, size_t v, enum sweep_col c)
{
    return mean_of(t, v, (int)c);
}

double sweep_table_mean_stall_frac(const struct sweep_table *t, size_t v, int i)
{
    return i >= 0 && i < SWEEP_NSTALLS ? mean_of(t, v, -1 - i) : NAN;
}
