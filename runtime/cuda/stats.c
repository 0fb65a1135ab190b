/*
 * Launch statistics and the PTXSIM_STATS report, written at exit as JSON
 * with a fixed key order:
 *   {"total": {"kernels", "cycles", "thread_insn", "warp_insn", "ipc",
 *              "wall_s", "sim_ms", "copy_bytes"},
 *    "kernels": [{"name", "cycles", "thread_insn", "warp_insn", "ipc",
 *                 "wall_s", "grid", "block"}, ...]}
 * Cycles are the functional-mode estimate (see launch.c); ipc is thread
 * instructions per cycle. Only wall_s varies between runs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/cuda/cudart.h"

cudaError_t rt_stats_add(struct rt_ctx *c, const struct rt_kstat *ks)
{
    if (c->nkstats == c->cap_kstats) {
        size_t ncap = c->cap_kstats ? c->cap_kstats * 2 : 64;
        struct rt_kstat *n = realloc(c->kstats, ncap * sizeof(*n));

        if (!n)
            return cudaErrorMemoryAllocation;
        c->kstats = n;
        c->cap_kstats = ncap;
    }
    c->kstats[c->nkstats++] = *ks;
    return cudaSuccess;
}

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

static void put_kernel(FILE *fp, const struct rt_kstat *k, bool last)
{
    fprintf(fp, "    {\"name\": ");
    put_string(fp, k->name);
    fprintf(fp,
            ", \"cycles\": %llu, \"thread_insn\": %llu, \"warp_insn\": %llu, \"ipc\": %.6f, "
            "\"wall_s\": %.6f, \"grid\": [%u, %u, %u], \"block\": [%u, %u, %u]}%s\n",
            (unsigned long long)k->cycles, (unsigned long long)k->thread_insn,
            (unsigned long long)k->warp_insn, ipc(k->thread_insn, k->cycles), k->wall_s,
            k->grid[0], k->grid[1], k->grid[2], k->block[0], k->block[1], k->block[2],
            last ? "" : ",");
}

static void put_total(FILE *fp, const struct rt_ctx *c)
{
    uint64_t cycles = 0, thread = 0, warp = 0;
    double wall = 0;

    for (size_t i = 0; i < c->nkstats; i++) {
        cycles += c->kstats[i].cycles;
        thread += c->kstats[i].thread_insn;
        warp += c->kstats[i].warp_insn;
        wall += c->kstats[i].wall_s;
    }
    fprintf(fp,
            "  \"total\": {\"kernels\": %zu, \"cycles\": %llu, \"thread_insn\": %llu, "
            "\"warp_insn\": %llu, \"ipc\": %.6f, \"wall_s\": %.6f, \"sim_ms\": %.6f, "
            "\"copy_bytes\": %llu},\n",
            c->nkstats, (unsigned long long)cycles, (unsigned long long)thread,
            (unsigned long long)warp, ipc(thread, cycles), wall, c->sim_ns * 1e-6,
            (unsigned long long)c->copy_bytes);
}

void rt_stats_write(struct rt_ctx *c)
{
    FILE *fp;

    if (!c->stats_path)
        return;
    fp = fopen(c->stats_path, "w");
    if (!fp) {
        fprintf(stderr, "ptxsim: cannot write statistics to %s: %s\n", c->stats_path,
                strerror(errno));
        return;
    }
    fprintf(fp, "{\n");
    put_total(fp, c);
    fprintf(fp, "  \"kernels\": [\n");
    for (size_t i = 0; i < c->nkstats; i++)
        put_kernel(fp, &c->kstats[i], i + 1 == c->nkstats);
    fprintf(fp, "  ]\n}\n");
    if (fclose(fp))
        fprintf(stderr, "ptxsim: cannot write statistics to %s\n", c->stats_path);
}
