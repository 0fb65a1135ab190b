/*
 * The results of `ptxsim sweep` and `ptxsim stats --csv`: one row per run
 * and kernel plus one total row per run (run, workload, size, machine,
 * policy variant, status, scope, kernel and the figures taken from the
 * run's statistics JSON), written to and read back from results.csv (the
 * same columns in both), and the arithmetic the
 * summary and the charts share: runs arranged as a workload x variant table
 * per (size, config), IPC normalised to a baseline variant, and the
 * geometric, harmonic and arithmetic means over workloads.
 */
#ifndef PTXSIM_TOOLS_SWEEP_REPORT_H
#define PTXSIM_TOOLS_SWEEP_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * The numeric columns of results.csv, in order: id, CSV name, path in the
 * "timing_total" object of the statistics JSON (NULL: computed), printf
 * format. The stall columns count scheduler slots (docs/timing.md).
 */
#define SWEEP_COLUMNS(X)                                                                           \
    X(CYCLES, "cycles", "cycles", "%.0f")                                                          \
    X(THREAD_INSN, "thread_insn", "thread_insn", "%.0f")                                           \
    X(WARP_INSN, "warp_insn", "warp_insn", "%.0f")                                                 \
    X(IPC, "ipc", "ipc", "%.6f")                                                                   \
    X(L1D_ACCESSES, "l1d_accesses", "l1d.accesses", "%.0f")                                        \
    X(L1D_MISSES, "l1d_misses", "l1d.misses", "%.0f")                                              \
    X(L1D_MISS_RATE, "l1d_miss_rate", "l1d.miss_rate", "%.6f")                                     \
    X(L1D_MPKI, "l1d_mpki", "l1d_mpki", "%.6f")                                                    \
    X(L2_MISSES, "l2_misses", "l2.misses", "%.0f")                                                 \
    X(L2_MPKI, "l2_mpki", "l2_mpki", "%.6f")                                                       \
    X(DRAM_READS, "dram_reads", "dram.reads", "%.0f")                                              \
    X(DRAM_WRITES, "dram_writes", "dram.writes", "%.0f")                                           \
    X(DRAM_ROW_HIT_RATE, "dram_row_hit_rate", "dram.row_hit_rate", "%.6f")                         \
    X(DRAM_UTIL, "dram_util", "dram.utilization", "%.6f")                                          \
    X(MEM_LATENCY_AVG, "mem_latency_avg", "memory_latency.average", "%.4f")                        \
    X(OCCUPANCY, "occupancy", "occupancy.achieved", "%.6f")                                        \
    X(RACT, "ract", "sm.ract", "%.6f")                                                             \
    X(UTIL, "util", "sm.util", "%.6f")                                                             \
    X(C_IDLE, "c_idle", "sm.c_idle", "%.0f")                                                       \
    X(C_MEM, "c_mem", "sm.c_mem", "%.0f")                                                          \
    X(STALL_SYNC, "stall_sync", "stalls.sync", "%.0f")                                             \
    X(STALL_FETCH, "stall_fetch", "stalls.fetch", "%.0f")                                          \
    X(STALL_CONTROL, "stall_control", "stalls.control", "%.0f")                                    \
    X(STALL_DATA, "stall_data", "stalls.data", "%.0f")                                             \
    X(STALL_DCACHE_MISS, "stall_dcache_miss", "stalls.dcache_miss", "%.0f")                        \
    X(STALL_MSHR, "stall_mshr", "stalls.mshr", "%.0f")                                             \
    X(STALL_STRUCTURAL, "stall_structural", "stalls.structural", "%.0f")                           \
    X(STALL_EXEC, "stall_exec", "stalls.exec", "%.0f")                                             \
    X(WALL_S, "wall_s", NULL, "%.3f")                                                              \
    X(SIM_RATE, "sim_rate", "sim_rate", "%.0f")                                                    \
    X(C_STALL, "c_stall", "sm.c_stall", "%.0f")                                                    \
    X(N_ACT, "n_act", "sm.n_act", "%.0f")                                                          \
    X(N_INACT, "n_inact", "sm.n_inact", "%.0f")                                                    \
    X(N_SM, "n_sm", NULL, "%.0f")                                                                  \
    X(IDLE_FRAC, "idle_frac", NULL, "%.6f")

enum sweep_col {
#define SWEEP_X(id, name, path, fmt) SWEEP_COL_##id,
    SWEEP_COLUMNS(SWEEP_X)
#undef SWEEP_X
        SWEEP_NCOLS
};

/* The stall categories, in the order of the stall columns. */
#define SWEEP_NSTALLS 8
#define SWEEP_COL_STALL0 SWEEP_COL_STALL_SYNC

enum sweep_status { SWEEP_PASS, SWEEP_FAIL, SWEEP_TIMEOUT, SWEEP_ERROR };

struct sweep_row {
    char run[192]; /* the run's id (sweep) or the statistics file (stats) */
    char workload[64];
    char wclass[32]; /* from the WORKLOAD line; "-" if unknown */
    char size[16];
    char config[128]; /* the machine's name (a file's base name) */
    char variant[64];
    enum sweep_status status;
    bool total;       /* the run's total row (scope "total"), else one kernel's (scope "kernel") */
    int kernel_index; /* the launch's position in the run, from 0; -1 for a total row */
    char kernel[256]; /* the kernel's name; "(all kernels)" for a total row */
    double v[SWEEP_NCOLS]; /* NAN where not known (runs that did not pass) */
};

struct sweep_results {
    struct sweep_row *rows;
    size_t n, cap;
};

/* "pass", "fail", "timeout", "error". */
const char *sweep_status_name(enum sweep_status s);
/* The CSV name of a column, and the short label of stall category i (0..7). */
const char *sweep_col_name(enum sweep_col c);
const char *sweep_stall_name(int i);

/* Appends a copy of row; -1 when out of memory. */
int sweep_results_add(struct sweep_results *r, const struct sweep_row *row);
void sweep_results_free(struct sweep_results *r);

/* Sets every figure of row to NAN. */
void sweep_row_clear(struct sweep_row *row);

struct json_t;

/*
 * Fills row's figures from one "timing" object of a statistics JSON of
 * `ptxsim run --stats` (a kernel's, or "timing_total") and the SM count of
 * its "config"; wall_s is the run's wall time, or negative to take the
 * simulation's from the object. Returns false, leaving the figures NAN, if
 * the object lacks cycles or IPC.
 */
bool sweep_row_from_json(struct sweep_row *row, const struct json_t *timing,
                         const struct json_t *config, double wall_s);

/*
 * Appends the rows of one statistics file to r: one per kernel (in launch
 * order) and the total row, keys copied from *keys (run, workload, ...,
 * status). wall_s as above, for the total row. Returns 0, 1 when the JSON
 * holds no timing statistics (a functional run), -1 when out of memory.
 */
int sweep_rows_from_stats(struct sweep_results *r, const struct sweep_row *keys,
                          const struct json_t *root, double wall_s);

/* The CSV header, and one row, as results.csv and `ptxsim stats --csv` write them. */
void sweep_csv_header(FILE *out);
void sweep_csv_row(const struct sweep_row *row, FILE *out);
/* results.csv: the header line and one line per row. */
int sweep_csv_write(const struct sweep_results *r, FILE *out);
/*
 * Reads what sweep_csv_write wrote (columns found by header name, so files
 * with fewer or more columns still load), appending the total rows to r
 * (every row of files without a scope column). -1 with a message in err
 * when the header lacks workload, size, config, variant or status.
 */
int sweep_csv_read(struct sweep_results *r, FILE *in, char *err, size_t errlen);

/* The distinct values of a field over the rows, in order of first appearance. */
enum sweep_field { SWEEP_F_WORKLOAD, SWEEP_F_SIZE, SWEEP_F_CONFIG, SWEEP_F_VARIANT, SWEEP_F_CLASS };
const char *sweep_row_field(const struct sweep_row *row, enum sweep_field f);
/* Returns the count; out (malloc'd, names borrowed from r) may be NULL to count only. */
size_t sweep_distinct(const struct sweep_results *r, enum sweep_field f, const char ***out);

/*
 * The runs of one (size, config) as a table: rows are the workloads run at
 * that size and config, columns every variant of r (in appearance order);
 * cell[w * nv + v] is the row or NULL.
 */
struct sweep_table {
    const char *size, *config;
    const char **workloads, **classes, **variants;
    size_t nw, nv;
    const struct sweep_row **cell;
};

int sweep_table_build(const struct sweep_results *r, const char *size, const char *config,
                      struct sweep_table *t);
void sweep_table_free(struct sweep_table *t);
/* Index of a variant in t, or -1. */
int sweep_table_variant(const struct sweep_table *t, const char *variant);

/*
 * Whether every variant's run of workload w passed. Means over workloads
 * take only such workloads, so that every column averages the same set.
 */
bool sweep_table_complete(const struct sweep_table *t, size_t w);
/* Column c of cell (w, v) if that run passed, else NAN. */
double sweep_table_value(const struct sweep_table *t, size_t w, size_t v, enum sweep_col c);
/* IPC(w, v) / IPC(w, base); NAN unless both passed and IPC(w, base) > 0. */
double sweep_table_norm_ipc(const struct sweep_table *t, size_t w, size_t v, size_t base);
/* Stall category i (0..7) of (w, v) as a fraction of all eight; NAN if unknown. */
double sweep_table_stall_frac(const struct sweep_table *t, size_t w, size_t v, int i);

enum sweep_mean { SWEEP_GMEAN, SWEEP_HMEAN, SWEEP_AMEAN };
/*
 * The mean of the n values of x, skipping NAN ones: geometric and harmonic
 * means need values above 0 (NAN otherwise). NAN when no value is left.
 */
double sweep_mean(enum sweep_mean kind, const double *x, size_t n);
/*
 * The mean over the complete workloads of t (only those of class wclass
 * unless NULL) of normalised IPC (variant v against base).
 */
double sweep_table_mean_norm_ipc(const struct sweep_table *t, size_t v, size_t base,
                                 const char *wclass, enum sweep_mean kind);
/* The arithmetic mean over the complete workloads of column c of variant v. */
double sweep_table_mean_value(const struct sweep_table *t, size_t v, enum sweep_col c);
/* The same for stall category i's share (sweep_table_stall_frac). */
double sweep_table_mean_stall_frac(const struct sweep_table *t, size_t v, int i);

#endif
