/*
 * The PTXSIM_STATS report of both runtimes (CUDA and OpenCL), written at
 * exit as JSON with a fixed key order:
 *   {"total": {"kernels", "cycles", "thread_insn", "warp_insn", "ipc",
 *              "wall_s", "sim_ms", "copy_bytes"},
 *    "kernels": [{"name", "cycles", "thread_insn", "warp_insn", "ipc",
 *                 "wall_s", "grid", "block"}, ...]}
 * In functional mode cycles are an estimate (runtime/cuda/launch.c). In timing mode
 * they are the timing model's, every kernel also carries a "timing" object
 * (timing/stats.h), "total" a "timing" object summed over kernels, and the
 * report ends with the effective "config"; the GPGPU-Sim-style text report
 * goes to stderr at exit. ipc is thread instructions per cycle. Only wall_s
 * and the simulation rates vary between runs.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "runtime/stats_report.h"
#include "runtime/stats_text.h"

static void put_string(FILE *fp, const char *s)
{
    fputc('"', fp);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;

        if (ch == '"' || ch == '\\')
            fprintf(fp, "\\%c", ch);
        else if (ch < 0x20)
            fprintf(fp, "\\u%04x", ch);
        else
            fputc(ch, fp);
    }
    fputc('"', fp);
}

static double ipc(uint64_t insn, uint64_t cycles)
{
    return cycles ? (double)insn / (double)cycles : 0.0;
}

static void put_kernel(FILE *fp, const struct ptxsim_kstat *k, bool last)
{
    fprintf(fp, "    {\"name\": ");
    put_string(fp, k->name);
    fprintf(fp,
            ", \"cycles\": %llu, \"thread_insn\": %llu, \"warp_insn\": %llu, \"ipc\": %.6f, "
            "\"wall_s\": %.6f, \"grid\": [%u, %u, %u], \"block\": [%u, %u, %u]%s%s\n",
            (unsigned long long)k->cycles, (unsigned long long)k->thread_insn,
            (unsigned long long)k->warp_insn, ipc(k->thread_insn, k->cycles), k->wall_s, k->grid[0],
            k->grid[1], k->grid[2], k->block[0], k->block[1], k->block[2], k->timed ? "," : "}",
            k->timed ? ""
            : last   ? ""
                     : ",");
    if (k->timed) {
        fprintf(fp, "     \"timing\":\n");
        tm_stats_print_json(&k->tm, fp, 5);
        fprintf(fp, "}%s\n", last ? "" : ",");
    }
}

static void put_total(FILE *fp, const struct ptxsim_kstat *k, size_t n, double sim_ns,
                      uint64_t copy_bytes, const struct ptxsim_run_notes *notes)
{
    uint64_t cycles = 0, thread = 0, warp = 0;
    double wall = 0;

    for (size_t i = 0; i < n; i++) {
        /* Kernels that ran side by side count their common cycles once. */
        cycles += k[i].timed ? k[i].tm.gpu_cycles : k[i].cycles;
        thread += k[i].thread_insn;
        warp += k[i].warp_insn;
        wall += k[i].wall_s;
    }
    fprintf(fp,
            "  \"total\": {\"kernels\": %zu, \"cycles\": %llu, \"thread_insn\": %llu, "
            "\"warp_insn\": %llu, \"ipc\": %.6f, \"wall_s\": %.6f, \"sim_ms\": %.6f, "
            "\"copy_bytes\": %llu, \"accesses_outside_allocations\": %llu},\n",
            n, (unsigned long long)cycles, (unsigned long long)thread, (unsigned long long)warp,
            ipc(thread, cycles), wall, sim_ns * 1e-6, (unsigned long long)copy_bytes,
            (unsigned long long)notes->outside_accesses);
    if (notes->truncated) {
        fprintf(fp, "  \"truncated\": true,\n  \"truncated_reason\": \"");
        for (const char *p = notes->truncated; *p; p++)
            fprintf(fp, *p == '"' || *p == '\\' ? "\\%c" : "%c", *p);
        fprintf(fp, "\",\n");
    }
}

/* Timing statistics of all kernels: counters summed, ratios weighted by cycles. */
static bool timing_total(const struct ptxsim_kstat *ks, size_t n, struct tm_stats *t)
{
    double ract = 0, util = 0;
    bool any = false;

    memset(t, 0, sizeof(*t));
    snprintf(t->kernel, sizeof(t->kernel), "(all kernels)");
    for (size_t i = 0; i < n; i++) {
        const struct ptxsim_kstat *k = &ks[i];
        uint64_t lat_max = t->c.sm.lat_max;

        if (!k->timed)
            continue;
        if (!any) {
            *t = k->tm;
            snprintf(t->kernel, sizeof(t->kernel), "(all kernels)");
            t->overlapped = 0;
            memset(&t->c, 0, sizeof(t->c));
            t->wall_s = 0;
            lat_max = 0;
            memset(&t->sampled, 0, sizeof(t->sampled));
        }
        tm_sampled_add(&t->sampled, &k->tm.sampled);
        any = true;
        tm_counters_add(&t->c, &k->tm.c);
        t->c.cycles += k->tm.gpu_cycles - k->tm.c.cycles; /* overlap counted once */
        t->c.sm.lat_max = k->tm.c.sm.lat_max > lat_max ? k->tm.c.sm.lat_max : lat_max;
        t->wall_s += k->tm.wall_s;
        ract += k->tm.ract * (double)k->tm.c.cycles;
        util += k->tm.util * (double)k->tm.c.cycles;
    }
    if (any && t->c.cycles) {
        t->ract = ract / (double)t->c.cycles;
        t->util = util / (double)t->c.cycles;
    }
    return any;
}

void ptxsim_stats_report_notes(const struct ptxsim_kstat *k, size_t n, double sim_ns,
                               uint64_t copy_bytes, const struct ps_config *cfg, const char *path,
                               const char *who, const struct ptxsim_run_notes *notes)
{
    FILE *fp;
    struct tm_stats total;
    bool timed = timing_total(k, n, &total);

    /* The text goes to stderr: stdout belongs to the program. */
    if (timed && cfg->ptxsim_print_stats)
        ptxsim_stats_text(k, n, &total, !strcmp(cfg->ptxsim_report, "full"), stderr);
    if (notes->outside_accesses)
        fprintf(
            stderr,
            "%s: %llu device accesses fell outside every allocation (inside mapped pages, "
            "where a GPU lets them succeed); run with --memcheck (-o ptxsim_memcheck=1) to stop "
            "at the first with its kernel, PTX line, CTA and thread\n",
            who, (unsigned long long)notes->outside_accesses);
    if (notes->truncated)
        fprintf(stderr, "%s: statistics are incomplete: %s\n", who, notes->truncated);
    if (!path)
        return;
    fp = fopen(path, "w");
    if (!fp) {
        fprintf(stderr, "%s: cannot write statistics to %s: %s\n", who, path, strerror(errno));
        return;
    }
    fprintf(fp, "{\n");
    put_total(fp, k, n, sim_ns, copy_bytes, notes);
    fprintf(fp, "  \"kernels\": [\n");
    for (size_t i = 0; i < n; i++)
        put_kernel(fp, &k[i], i + 1 == n);
    fprintf(fp, "  ]%s\n", timed ? "," : "");
    if (timed) {
        fprintf(fp, "  \"timing_total\":\n");
        tm_stats_print_json(&total, fp, 2);
        fprintf(fp, ",\n  \"config\": ");
        ps_config_print_json(cfg, fp);
        fprintf(fp, "\n");
    }
    fprintf(fp, "}\n");
    if (fclose(fp))
        fprintf(stderr, "%s: cannot write statistics to %s\n", who, path);
}
