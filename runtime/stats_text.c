/*
 * The text report. Each kernel's block starts with GPGPU-Sim's lines:
 * kernel_name and kernel_launch_uid (what get_stats.py splits kernels on),
 * the kernel's gpu_sim_cycle, gpu_sim_insn, gpu_ipc and gpu_occupancy, and
 * the run so far (gpu_tot_*). The compact report (the default) then gives a
 * few of ptxsim's figures in one line each; the full report gives every
 * run-so-far figure GPGPU-Sim keeps cumulative over kernels (L2_BW,
 * gpgpu_n_tot_w_icount, the L1D/L2 totals and their whole breakdowns, total
 * dram reads/writes, the simulation time and rate) and all of ptxsim's
 * figures. The block for the whole run has only cumulative GPGPU-Sim names,
 * so a script that takes the last value of each name (get_stats.py without
 * -k) gets the last kernel's per-kernel figures and the run's totals, as
 * from GPGPU-Sim. The last line is GPGPU-Sim's end marker, which
 * get_stats.py requires of a finished run.
 */
#include "runtime/stats_text.h"

#include <string.h>

#include "runtime/demangle.h"

#define U(x) ((unsigned long long)(x))

static double ratio(uint64_t a, uint64_t b)
{
    return b ? (double)a / (double)b : 0.0;
}

/* Run-so-far figures, as GPGPU-Sim keeps them. */
struct cumul {
    struct tm_counters c;
    double wall_s;
};

/* GPGPU-Sim's access types of ptxsim's caches: reads, and the rest (writes and atomics). */
enum { BD_HIT, BD_HIT_RESERVED, BD_MISS, BD_TOTAL, BD_N };
static const char *const bd_status[BD_N] = {"HIT", "HIT_RESERVED", "MISS", "TOTAL_ACCESS"};

static void breakdown(const struct mem_cache_stats *c, bool reads, uint64_t out[BD_N])
{
    out[BD_TOTAL] = reads ? c->reads : c->accesses - c->reads;
    out[BD_HIT] = reads ? c->rd_hits : c->hits - c->rd_hits;
    out[BD_HIT_RESERVED] = reads ? c->rd_hit_reserved : c->hit_reserved - c->rd_hit_reserved;
    out[BD_MISS] = out[BD_TOTAL] - out[BD_HIT] - out[BD_HIT_RESERVED];
}

/* "\t<name>[<TYPE>][<STATUS>] = n" lines; compact: HIT and TOTAL_ACCESS only. */
static void put_breakdown(FILE *out, const char *name, const char *type,
                          const struct mem_cache_stats *c, bool reads, bool full)
{
    uint64_t v[BD_N];

    breakdown(c, reads, v);
    for (int s = 0; s < BD_N; s++)
        if (full || s == BD_HIT || s == BD_TOTAL)
            fprintf(out, "\t%s[%s][%s] = %llu\n", name, type, bd_status[s], U(v[s]));
}

static void put_cache_totals(FILE *out, const char *name, const char *indent,
                             const struct mem_cache_stats *c)
{
    uint64_t miss = tm_cache_misses(c);

    fprintf(out, "%s%s_total_cache_accesses = %llu\n", indent, name, U(c->accesses));
    fprintf(out, "%s%s_total_cache_misses = %llu\n", indent, name, U(miss));
    fprintf(out, "%s%s_total_cache_miss_rate = %.4f\n", indent, name, ratio(miss, c->accesses));
    fprintf(out, "%s%s_total_cache_pending_hits = %llu\n", indent, name, U(c->hit_reserved));
    fprintf(out, "%s%s_total_cache_reservation_fails = %llu\n", indent, name, U(c->resfail));
}

static void put_caches(FILE *out, const struct tm_counters *c, bool full)
{
    const char *core = "Total_core_cache_stats_breakdown", *l2 = "L2_cache_stats_breakdown";

    /* GPGPU-Sim's order: L1I, L1D, L1C, L1T totals, then the core breakdown. */
    put_cache_totals(out, "L1I", "\t", &c->l1i);
    put_cache_totals(out, "L1D", "\t", &c->l1d);
    put_cache_totals(out, "L1C", "\t", &c->l1c);
    put_cache_totals(out, "L1T", "\t", &c->l1t);
    fprintf(out, "Total_core_cache_stats:\n");
    put_breakdown(out, core, "GLOBAL_ACC_R", &c->l1d, true, full);
    put_breakdown(out, core, "GLOBAL_ACC_W", &c->l1d, false, full);
    if (full) {
        put_breakdown(out, core, "CONST_ACC_R", &c->l1c, true, full);
        put_breakdown(out, core, "INST_ACC_R", &c->l1i, true, full);
        put_breakdown(out, core, "TEXTURE_ACC_R", &c->l1t, true, full);
    }
    put_cache_totals(out, "L2", "", &c->mem.l2);
    fprintf(out, "L2_total_cache_breakdown:\n");
    put_breakdown(out, l2, "GLOBAL_ACC_R", &c->mem.l2, true, full);
    put_breakdown(out, l2, "GLOBAL_ACC_W", &c->mem.l2, false, full);
}

/* The run-so-far lines, in GPGPU-Sim's formats. */
static void put_cumulative(FILE *out, const struct cumul *t, bool full)
{
    unsigned long secs = (unsigned long)t->wall_s;
    double wall = t->wall_s > 0 ? t->wall_s : 0;

    fprintf(out, "gpu_tot_sim_cycle = %llu\n", U(t->c.cycles));
    fprintf(out, "gpu_tot_sim_insn = %llu\n", U(t->c.thread_insts));
    fprintf(out, "gpu_tot_ipc = %12.4f\n", ratio(t->c.thread_insts, t->c.cycles));
    fprintf(out, "gpu_tot_issued_cta = %llu\n", U(t->c.ctas));
    fprintf(out, "gpgpu_n_tot_w_icount = %llu\n", U(t->c.warp_insts));
    put_caches(out, &t->c, full);
    fprintf(out, "total dram reads = %llu\n", U(t->c.mem.dram.reads));
    fprintf(out, "total dram writes = %llu\n", U(t->c.mem.dram.writes));
    fprintf(out, "gpgpu_simulation_time = %lu days, %lu hrs, %lu min, %lu sec (%lu sec)\n",
            secs / 86400, secs / 3600 % 24, secs / 60 % 60, secs % 60, secs);
    fprintf(out, "gpgpu_simulation_rate = %llu (inst/sec)\n",
            U(wall > 0 ? (double)t->c.thread_insts / wall : 0));
    fprintf(out, "gpgpu_simulation_rate = %llu (cycle/sec)\n",
            U(wall > 0 ? (double)t->c.cycles / wall : 0));
}

struct stall {
    const char *name;
    uint64_t n;
};

/* The stall reasons of the SMs' schedulers as shares of their sum, largest first. */
static void put_stalls(FILE *out, const struct tm_sm_counters *sm)
{
    struct stall st[] = {{"data", sm->st_data},  {"dcache_miss", sm->st_dmiss},
                         {"mshr", sm->st_mshr},  {"structural", sm->st_struct},
                         {"sync", sm->st_sync},  {"control", sm->st_ctrl},
                         {"fetch", sm->st_fetch}};
    size_t n = sizeof(st) / sizeof(st[0]);
    uint64_t sum = 0;

    for (size_t i = 0; i < n; i++)
        sum += st[i].n;
    for (size_t i = 1; i < n; i++) /* insertion sort, stable: ties keep the table's order */
        for (size_t j = i; j > 0 && st[j].n > st[j - 1].n; j--) {
            struct stall t = st[j];
            st[j] = st[j - 1];
            st[j - 1] = t;
        }
    fprintf(out, "stall_cycles = %llu (", U(sum));
    for (size_t i = 0; i < n && st[i].n; i++)
        fprintf(out, "%s%s %.1f%%", i ? ", " : "", st[i].name, 100.0 * ratio(st[i].n, sum));
    fprintf(out, ")\n");
}

/* ptxsim's figures a reader looks at first, of one kernel or (kernel false) of the run. */
static void put_compact(FILE *out, const struct tm_stats *s, bool kernel)
{
    const struct tm_counters *c = &s->c;
    struct tm_derived d;

    tm_stats_derive(s, &d);
    if (kernel)
        fprintf(out, "max_ctas_per_sm = %u (limited by %s; %u registers per thread)\n",
                s->max_ctas_per_sm, s->occ_limiter ? s->occ_limiter : "-", s->regs_per_thread);
    put_stalls(out, &c->sm);
    fprintf(out, "L1D_miss_rate = %.4f (%llu misses, %llu accesses, %.3f MPKI)\n", d.l1d_miss,
            U(tm_cache_misses(&c->l1d)), U(c->l1d.accesses), d.l1d_mpki);
    fprintf(out, "L2_miss_rate = %.4f (%llu misses, %llu accesses, %.3f MPKI)\n", d.l2_miss,
            U(tm_cache_misses(&c->mem.l2)), U(c->mem.l2.accesses), d.l2_mpki);
    fprintf(out, "dram_bandwidth_utilization = %.4f (%llu reads, %llu writes, row hits %.4f)\n",
            d.dram_util, U(c->mem.dram.reads), U(c->mem.dram.writes), d.row_hit);
    fprintf(out, "averagemflatency = %.2f\n", d.lat_avg);
}

static void put_kernel(FILE *out, const struct ptxsim_kstat *k, size_t uid, size_t n,
                       const struct cumul *t, bool full)
{
    const struct tm_stats *s = &k->tm;
    const char *name = k->name ? k->name : s->kernel;
    char dem[1024];
    struct tm_derived d;

    tm_stats_derive(s, &d);
    fprintf(out, "---- ptxsim: kernel %zu of %zu ----\n", uid, n);
    fprintf(out, "kernel_name = %s \n", name);
    fprintf(out, "kernel_launch_uid = %zu \n", uid);
    if (ptxsim_demangle(name, dem, sizeof(dem)))
        fprintf(out, "kernel_demangled_name = %s\n", dem);
    fprintf(out, "kernel_grid = (%u,%u,%u) block = (%u,%u,%u)\n", s->grid[0], s->grid[1],
            s->grid[2], s->block[0], s->block[1], s->block[2]);
    fprintf(out, "gpu_sim_cycle = %llu\n", U(s->c.cycles));
    if (s->overlapped)
        fprintf(out,
                "kernel_concurrent = cycles %llu..%llu, %u other kernel(s) in flight with it\n",
                U(s->start_cycle), U(s->end_cycle), s->overlapped);
    tm_sampled_print_text(&s->sampled, out);
    fprintf(out, "gpu_sim_insn = %llu\n", U(s->c.thread_insts));
    fprintf(out, "gpu_ipc = %12.4f\n", d.ipc);
    fprintf(out, "gpu_occupancy = %.4f%% \n", 100.0 * d.occupancy);
    fprintf(out, "L2_BW  = %12.4f GB/Sec\n", d.l2_gbs);
    if (full) {
        put_cumulative(out, t, true);
        fprintf(out, "-- this kernel --\n");
        tm_stats_print_text(s, out);
        return;
    }
    fprintf(out, "gpu_tot_sim_cycle = %llu\n", U(t->c.cycles));
    fprintf(out, "gpu_tot_sim_insn = %llu\n", U(t->c.thread_insts));
    fprintf(out, "gpu_tot_ipc = %12.4f\n", ratio(t->c.thread_insts, t->c.cycles));
    put_compact(out, s, true);
}

void ptxsim_stats_text(const struct ptxsim_kstat *k, size_t n, const struct tm_stats *total,
                       bool full, FILE *out)
{
    struct cumul t;
    size_t timed = 0;

    memset(&t, 0, sizeof(t));
    for (size_t i = 0; i < n; i++) {
        if (!k[i].timed)
            continue;
        tm_counters_add(&t.c, &k[i].tm.c);
        t.c.cycles += k[i].tm.gpu_cycles - k[i].tm.c.cycles; /* overlap counted once */
        t.wall_s += k[i].tm.wall_s;
        timed++;
        put_kernel(out, &k[i], i + 1, n, &t, full);
    }
    fprintf(out, "---- ptxsim: all %zu kernels (%zu timed) ----\n", n, timed);
    put_cumulative(out, &t, full);
    fprintf(out, "-- all kernels --\n");
    tm_sampled_print_text(&total->sampled, out);
    if (full)
        tm_stats_print_text(total, out);
    else
        put_compact(out, total, false);
    fprintf(out, "GPGPU-Sim: *** exit detected ***\n");
}
