/*
 * Printing the timing statistics: the detail lines of the full text report
 * (runtime/stats_text.c prints GPGPU-Sim's shared names around them) and a
 * JSON object with the same figures grouped by component. Caches count as
 * GPGPU-Sim counts (tm_cache_misses) in both. Only wall-clock figures vary
 * between identical runs.
 */
#include <string.h>

#include "common/counters.h"
#include "policies/sm_view.h"
#include "timing/stats.h"

void tm_counters_sub(struct tm_counters *out, const struct tm_counters *a,
                     const struct tm_counters *b)
{
    ps_counters_sub(out, a, b, PS_NCOUNTERS(*out));
}

void tm_counters_add(struct tm_counters *acc, const struct tm_counters *x)
{
    ps_counters_add(acc, x, PS_NCOUNTERS(*acc));
}

static double ratio(uint64_t a, uint64_t b)
{
    return b ? (double)a / (double)b : 0.0;
}

uint64_t tm_cache_misses(const struct mem_cache_stats *c)
{
    return c->accesses - c->hits - c->hit_reserved;
}

void tm_stats_derive(const struct tm_stats *s, struct tm_derived *d)
{
    const struct tm_counters *c = &s->c;
    double secs = (double)c->cycles / (s->core_mhz * 1e6);
    uint64_t dram_bytes = c->mem.dram.read_bytes + c->mem.dram.write_bytes;

    d->ipc = ratio(c->thread_insts, c->cycles);
    d->occupancy =
        ratio(c->sm.warps_resident, c->sm.busy_cycles) / (s->max_warps ? s->max_warps : 1);
    d->l1d_miss = ratio(tm_cache_misses(&c->l1d), c->l1d.accesses);
    d->l2_miss = ratio(tm_cache_misses(&c->mem.l2), c->mem.l2.accesses);
    d->l1d_mpki = 1000.0 * ratio(tm_cache_misses(&c->l1d), c->warp_insts);
    d->l2_mpki = 1000.0 * ratio(tm_cache_misses(&c->mem.l2), c->warp_insts);
    d->row_hit = ratio(c->mem.dram.row_hits, c->mem.dram.row_hits + c->mem.dram.row_misses);
    d->dram_util = ratio(c->mem.dram.data_busy, c->mem.dram.cycles);
    d->dram_gbs = secs > 0 ? (double)dram_bytes / secs / 1e9 : 0;
    d->l2_gbs = secs > 0 ? (double)c->mem.reply.bytes / secs / 1e9 : 0;
    d->lat_avg = ratio(c->sm.lat_sum, c->sm.lat_n);
    d->icnt_req_lat = ratio(c->mem.req.latency_sum, c->mem.req.packets);
    d->icnt_reply_lat = ratio(c->mem.reply.latency_sum, c->mem.reply.packets);
    d->sim_rate = s->wall_s > 0 ? (double)c->thread_insts / s->wall_s : 0;
}

/* One cache of this kernel (or of the total): GPGPU-Sim's counting (tm_cache_misses). */
static void text_cache(FILE *out, const char *name, const struct mem_cache_stats *c)
{
    fprintf(out, "%s_accesses = %llu\n", name, (unsigned long long)c->accesses);
    fprintf(out, "%s_misses = %llu\n", name, (unsigned long long)tm_cache_misses(c));
    fprintf(out, "%s_miss_rate = %.4f\n", name, ratio(tm_cache_misses(c), c->accesses));
    fprintf(out, "%s_pending_hits = %llu\n", name, (unsigned long long)c->hit_reserved);
    fprintf(out, "%s_reservation_fails = %llu\n", name, (unsigned long long)c->resfail);
}

static void text_sm(const struct tm_stats *s, FILE *out)
{
    const struct tm_counters *c = &s->c;

    fprintf(out, "gpu_sim_warp_insn = %llu\n", (unsigned long long)c->warp_insts);
    fprintf(out, "gpu_sim_ctas = %llu\n", (unsigned long long)c->ctas);
    fprintf(out, "max_ctas_per_sm = %u (limited by %s; %u registers per thread, %s%.0u)\n",
            s->max_ctas_per_sm, s->occ_limiter ? s->occ_limiter : "-", s->regs_per_thread,
            s->regs_sm ? "ptxas count from the cubin for sm_" : "estimated from PTX liveness",
            s->regs_sm);
    fprintf(out, "ract = %.4f\nutil = %.4f\n", s->ract, s->util);
    fprintf(out, "n_act = %llu\nn_inact = %llu\nc_idle = %llu\nc_mem = %llu\nc_stall = %llu\n",
            (unsigned long long)c->sm.n_act, (unsigned long long)c->sm.n_inact,
            (unsigned long long)c->sm.c_idle, (unsigned long long)c->sm.c_mem,
            (unsigned long long)c->sm.c_stall);
    fprintf(out,
            "stall_sync = %llu\nstall_fetch = %llu\nstall_control = %llu\nstall_data = %llu\n"
            "stall_dcache_miss = %llu\nstall_mshr = %llu\nstall_structural = %llu\n"
            "issue_exec = %llu\n",
            (unsigned long long)c->sm.st_sync, (unsigned long long)c->sm.st_fetch,
            (unsigned long long)c->sm.st_ctrl, (unsigned long long)c->sm.st_data,
            (unsigned long long)c->sm.st_dmiss, (unsigned long long)c->sm.st_mshr,
            (unsigned long long)c->sm.st_struct, (unsigned long long)c->sm.st_exec);
    if (c->sm.mon_samples)
        fprintf(out, "%s = %.4f\n", pol_sm_monitor_names.text_ratio,
                ratio(c->sm.mon_hits, c->sm.mon_samples));
}

void tm_stats_print_text(const struct tm_stats *s, FILE *out)
{
    const struct tm_counters *c = &s->c;
    struct tm_derived d;

    tm_stats_derive(s, &d);
    text_sm(s, out);
    text_cache(out, "L1D", &c->l1d);
    fprintf(out, "L1D_mpki = %.3f\n", d.l1d_mpki);
    fprintf(out, "L1D_evict_noreuse = %llu\nL1D_stall_bypassed = %llu\n",
            (unsigned long long)c->l1d.evict_noreuse, (unsigned long long)c->l1d.stall_bypassed);
    for (uint32_t i = 0;
         s->l1d_counter_names && s->l1d_counter_names[i] && i < MEM_CACHE_POL_COUNTERS; i++)
        fprintf(out, "L1D_policy_%s = %llu\n", s->l1d_counter_names[i],
                (unsigned long long)c->l1d.pol[i]);
    text_cache(out, "L1I", &c->l1i);
    text_cache(out, "L1C", &c->l1c);
    text_cache(out, "L1T", &c->l1t);
    text_cache(out, "L2", &c->mem.l2);
    fprintf(out, "L2_mpki = %.3f\n", d.l2_mpki);
    fprintf(out, "dram_reads = %llu\ndram_writes = %llu\n", (unsigned long long)c->mem.dram.reads,
            (unsigned long long)c->mem.dram.writes);
    fprintf(out, "dram_row_buffer_hit_rate = %.4f\ndram_bandwidth_utilization = %.4f\n", d.row_hit,
            d.dram_util);
    fprintf(out, "dram_bandwidth_gbs = %.3f\n", d.dram_gbs);
    fprintf(out, "icnt_request_packets = %llu\nicnt_reply_packets = %llu\n",
            (unsigned long long)c->mem.req.packets, (unsigned long long)c->mem.reply.packets);
    fprintf(out, "icnt_request_flits = %llu\nicnt_reply_flits = %llu\n",
            (unsigned long long)c->mem.req.flits, (unsigned long long)c->mem.reply.flits);
    fprintf(out, "averagemflatency = %.2f\nmaxmflatency = %llu\n", d.lat_avg,
            (unsigned long long)c->sm.lat_max);
    fprintf(out, "shmem_bank_conflict_cycles = %llu\nregister_bank_conflicts = %llu\n",
            (unsigned long long)(c->sm.shmem_cycles - c->sm.shmem_accesses),
            (unsigned long long)c->sm.reg_bank_conflicts);
    fprintf(out, "gpu_sim_rate_thread_insn_per_s = %.0f\n", d.sim_rate);
}

static void json_cache(FILE *out, const char *name, const struct mem_cache_stats *c, bool last)
{
    fprintf(
        out,
        "\"%s\": {\"accesses\": %llu, \"reads\": %llu, \"writes\": %llu, \"hits\": %llu, "
        "\"misses\": %llu, \"mshr_merges\": %llu, \"sent\": %llu, \"bypassed\": %llu, "
        "\"reservation_fails\": %llu, \"fails_mshr\": %llu, \"fails_merge\": %llu, "
        "\"fails_miss_queue\": %llu, \"fails_line\": %llu, \"fills\": %llu, "
        "\"evictions\": %llu, \"writebacks\": %llu, \"hits_intra_warp\": %llu, \"evict_noreuse\": %llu, "
        "\"stall_bypassed\": %llu, \"uncached\": %llu, \"miss_rate\": %.6f, \"read_hits\": %llu, "
        "\"read_pending_hits\": %llu, \"read_misses\": %llu}%s",
        name, (unsigned long long)c->accesses, (unsigned long long)c->reads,
        (unsigned long long)c->writes, (unsigned long long)c->hits,
        (unsigned long long)tm_cache_misses(c), (unsigned long long)c->hit_reserved,
        (unsigned long long)c->sent, (unsigned long long)c->bypassed,
        (unsigned long long)c->resfail, (unsigned long long)c->resfail_mshr,
        (unsigned long long)c->resfail_merge, (unsigned long long)c->resfail_missq,
        (unsigned long long)c->resfail_line, (unsigned long long)c->fills,
        (unsigned long long)c->evictions, (unsigned long long)c->writebacks,
        (unsigned long long)c->hits_intra, (unsigned long long)c->evict_noreuse,
        (unsigned long long)c->stall_bypassed, (unsigned long long)c->uncached,
        ratio(tm_cache_misses(c), c->accesses), (unsigned long long)c->rd_hits,
        (unsigned long long)c->rd_hit_reserved,
        (unsigned long long)(c->reads - c->rd_hits - c->rd_hit_reserved), last ? "" : ", ");
}

#define U(x) ((unsigned long long)(x))

/* The L1D policy's name and its own counters, summed over SMs. */
static void json_policy(FILE *out, const struct tm_stats *s)
{
    const char *const *names = s->l1d_counter_names;

    fprintf(out, "\"l1d_policy\": {\"name\": \"%s\"", s->l1d_policy ? s->l1d_policy : "");
    for (uint32_t i = 0; names && names[i] && i < MEM_CACHE_POL_COUNTERS; i++)
        fprintf(out, ", \"%s\": %llu", names[i], U(s->c.l1d.pol[i]));
    fprintf(out, "}, ");
}

void tm_stats_print_json(const struct tm_stats *s, FILE *out, int indent)
{
    const struct tm_counters *c = &s->c;
    struct tm_derived d;

    tm_stats_derive(s, &d);
    fprintf(out, "%*s{\"name\": \"%s\", \"grid\": [%u, %u, %u], \"block\": [%u, %u, %u],\n", indent,
            "", s->kernel, s->grid[0], s->grid[1], s->grid[2], s->block[0], s->block[1],
            s->block[2]);
    fprintf(out,
            "%*s \"cycles\": %llu, \"thread_insn\": %llu, \"warp_insn\": %llu, \"ipc\": %.6f, "
            "\"ctas\": %llu, \"kernels\": %llu, \"wall_s\": %.6f, \"sim_rate\": %.0f,\n",
            indent, "", U(c->cycles), U(c->thread_insts), U(c->warp_insts), d.ipc, U(c->ctas),
            U(c->kernels), s->wall_s, d.sim_rate);
    if (s->end_cycle) /* a kernel's figures, not the whole run's */
        fprintf(out,
                "%*s \"concurrent\": {\"start_cycle\": %llu, \"end_cycle\": %llu, "
                "\"overlapped_kernels\": %u, \"gpu_cycles\": %llu},\n",
                indent, "", U(s->start_cycle), U(s->end_cycle), s->overlapped, U(s->gpu_cycles));
    tm_sampled_print_json(&s->sampled, out, indent);
    fprintf(out,
            "%*s \"occupancy\": {\"max_ctas_per_sm\": %u, \"limited_by\": \"%s\", "
            "\"regs_per_thread\": %u, \"regs_source\": \"%s%.0u\", \"achieved\": %.6f},\n",
            indent, "", s->max_ctas_per_sm, s->occ_limiter ? s->occ_limiter : "-",
            s->regs_per_thread, s->regs_sm ? "cubin_sm_" : "ptx_liveness", s->regs_sm, d.occupancy);
    fprintf(out,
            "%*s \"sm\": {\"n_act\": %llu, \"n_inact\": %llu, \"c_idle\": %llu, \"c_mem\": %llu, "
            "\"c_stall\": %llu, \"ract\": %.6f, \"util\": %.6f, \"busy_cycles\": %llu, "
            "\"scheduler_cycles\": %llu, \"scheduler_issue\": %llu, \"scheduler_empty\": %llu},\n",
            indent, "", U(c->sm.n_act), U(c->sm.n_inact), U(c->sm.c_idle), U(c->sm.c_mem),
            U(c->sm.c_stall), s->ract, s->util, U(c->sm.busy_cycles), U(c->sm.sched_cycles),
            U(c->sm.sched_issue), U(c->sm.sched_empty));
    fprintf(out,
            "%*s \"%s\": {\"%s\": %llu, \"%s\": %llu, \"%s\": %.6f},\n", indent, "",
            pol_sm_monitor_names.block, pol_sm_monitor_names.samples, U(c->sm.mon_samples),
            pol_sm_monitor_names.hits, U(c->sm.mon_hits), pol_sm_monitor_names.ratio,
            ratio(c->sm.mon_hits, c->sm.mon_samples));
    fprintf(out,
            "%*s \"stalls\": {\"sync\": %llu, \"fetch\": %llu, \"control\": %llu, \"data\": %llu, "
            "\"dcache_miss\": %llu, \"mshr\": %llu, \"structural\": %llu, \"exec\": %llu},\n",
            indent, "", U(c->sm.st_sync), U(c->sm.st_fetch), U(c->sm.st_ctrl), U(c->sm.st_data),
            U(c->sm.st_dmiss), U(c->sm.st_mshr), U(c->sm.st_struct), U(c->sm.st_exec));
    fprintf(out, "%*s ", indent, "");
    json_cache(out, "l1d", &c->l1d, false);
    fprintf(out, "\"l1d_mpki\": %.6f,\n%*s ", d.l1d_mpki, indent, "");
    json_policy(out, s);
    json_cache(out, "l1i", &c->l1i, false);
    json_cache(out, "l1c", &c->l1c, false);
    json_cache(out, "l1t", &c->l1t, false);
    fprintf(out, "\n%*s ", indent, "");
    json_cache(out, "l2", &c->mem.l2, false);
    fprintf(out, "\"l2_mpki\": %.6f,\n", d.l2_mpki);
    fprintf(out,
            "%*s \"dram\": {\"reads\": %llu, \"writes\": %llu, \"read_bytes\": %llu, "
            "\"write_bytes\": %llu, \"row_hits\": %llu, \"row_misses\": %llu, "
            "\"row_hit_rate\": %.6f, \"activates\": %llu, \"precharges\": %llu, "
            "\"busy_cycles\": %llu, \"cycles\": %llu, \"utilization\": %.6f, "
            "\"bandwidth_gbs\": %.6f},\n",
            indent, "", U(c->mem.dram.reads), U(c->mem.dram.writes), U(c->mem.dram.read_bytes),
            U(c->mem.dram.write_bytes), U(c->mem.dram.row_hits), U(c->mem.dram.row_misses),
            d.row_hit, U(c->mem.dram.activates), U(c->mem.dram.precharges),
            U(c->mem.dram.data_busy), U(c->mem.dram.cycles), d.dram_util, d.dram_gbs);
    fprintf(out,
            "%*s \"icnt\": {\"request_packets\": %llu, \"request_flits\": %llu, "
            "\"request_bytes\": %llu, \"request_latency\": %.4f, \"reply_packets\": %llu, "
            "\"reply_flits\": %llu, \"reply_bytes\": %llu, \"reply_latency\": %.4f},\n",
            indent, "", U(c->mem.req.packets), U(c->mem.req.flits), U(c->mem.req.bytes),
            d.icnt_req_lat, U(c->mem.reply.packets), U(c->mem.reply.flits), U(c->mem.reply.bytes),
            d.icnt_reply_lat);
    fprintf(out,
            "%*s \"memory_latency\": {\"average\": %.4f, \"max\": %llu, \"count\": %llu, "
            "\"log2_histogram\": [",
            indent, "", d.lat_avg, U(c->sm.lat_max), U(c->sm.lat_n));
    for (int i = 0; i < TM_LAT_BUCKETS; i++)
        fprintf(out, "%s%llu", i ? ", " : "", U(c->sm.lat_hist[i]));
    fprintf(out, "]},\n");
    fprintf(out,
            "%*s \"other\": {\"shmem_accesses\": %llu, \"shmem_cycles\": %llu, "
            "\"register_bank_conflicts\": %llu, \"gmem_insts\": %llu, \"gmem_requests\": %llu, "
            "\"const_requests\": %llu, \"ifetch_requests\": %llu, \"l2_reads\": %llu, "
            "\"l2_writes\": %llu, \"l2_atomics\": %llu}}",
            indent, "", U(c->sm.shmem_accesses), U(c->sm.shmem_cycles), U(c->sm.reg_bank_conflicts),
            U(c->sm.gmem_insts), U(c->sm.gmem_reqs), U(c->sm.const_reqs), U(c->sm.ifetch_reqs),
            U(c->mem.l2_reads), U(c->mem.l2_writes), U(c->mem.l2_atomics));
}
