/*
 * From the option table to the timing model's numbers. Every composite value
 * is parsed here, once, with an error that names the option.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "timing/params.h"

static uint32_t clamp_u32(int64_t v, uint32_t lo)
{
    if (v < (int64_t)lo)
        return lo;
    return v > (int64_t)UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

static int list(const char *opt, const char *s, uint32_t *out, uint32_t want, struct ps_err *err)
{
    uint32_t n = 0;
    int rc = ps_parse_uint_list(s, ',', out, want, &n, err);

    if (rc)
        return rc;
    if (n < want - (want == 6)) /* GPGPU-Sim's integer list may leave SHFL out */
        return ps_err_set(err, PS_EINVAL, "-%s: expected %u comma-separated numbers, got %u", opt,
                          want, n);
    if (n < want)
        out[want - 1] = out[0];
    return 0;
}

static int latencies(const struct ps_config *c, struct tm_params *p, struct ps_err *err)
{
    uint32_t sfu[1], n = 0;
    int rc;

    if ((rc = list("ptx_opcode_latency_int", c->ptx_opcode_latency_int, p->lat_int, 6, err)) ||
        (rc = list("ptx_opcode_initiation_int", c->ptx_opcode_initiation_int, p->ii_int, 6, err)) ||
        (rc = list("ptx_opcode_latency_fp", c->ptx_opcode_latency_fp, p->lat_fp, 5, err)) ||
        (rc = list("ptx_opcode_initiation_fp", c->ptx_opcode_initiation_fp, p->ii_fp, 5, err)) ||
        (rc = list("ptx_opcode_latency_dp", c->ptx_opcode_latency_dp, p->lat_dp, 5, err)) ||
        (rc = list("ptx_opcode_initiation_dp", c->ptx_opcode_initiation_dp, p->ii_dp, 5, err)))
        return rc;
    if ((rc = ps_parse_uint_list(c->ptx_opcode_latency_sfu, ',', sfu, 1, &n, err)) || !n)
        return rc ? rc : ps_err_set(err, PS_EINVAL, "-ptx_opcode_latency_sfu: expected a number");
    p->lat_sfu = sfu[0];
    if ((rc = ps_parse_uint_list(c->ptx_opcode_initiation_sfu, ',', sfu, 1, &n, err)) || !n)
        return rc ? rc
                  : ps_err_set(err, PS_EINVAL, "-ptx_opcode_initiation_sfu: expected a number");
    p->ii_sfu = sfu[0];
    return 0;
}

static int cache(const char *opt, const char *s, struct mem_cache_geom *g, struct ps_err *err)
{
    int rc = mem_cache_geom_parse(s, g, err);

    if (rc && err) {
        char msg[PS_ERR_MSG_MAX];

        snprintf(msg, sizeof(msg), "%s", err->msg);
        ps_err_set(err, rc, "-%s: %s", opt, msg);
    }
    return rc;
}

/*
 * How many memory instructions the LD/ST path holds between issue and the
 * L1: GPGPU-Sim's ID_OC_MEM and OC_EX_MEM pipeline registers, the memory
 * collector units and the LD/ST unit's own dispatch register. Issue of the
 * next memory instruction waits while they are all taken.
 */
static int ldst_depth(const struct ps_config *c, struct tm_params *p, struct ps_err *err)
{
    uint32_t w[13] = {0}, n = 0;
    int rc = ps_parse_uint_list(c->gpgpu_pipeline_widths, ',', w, 13, &n, err);

    if (rc)
        return rc;
    if (n < 11)
        return ps_err_set(err, PS_EINVAL,
                          "-gpgpu_pipeline_widths: expected at least 11 comma-separated numbers, "
                          "got %u",
                          n);
    p->ldst_insts = clamp_u32(w[4], 1) + clamp_u32(w[9], 1) +
                    clamp_u32(c->gpgpu_operand_collector_num_units_mem, 1) + 1;
    return 0;
}

static int core(const struct ps_config *c, struct tm_params *p, struct ps_err *err)
{
    uint32_t pipe[2], n = 0;
    int rc;

    p->nsm = c->gpgpu_n_clusters * c->gpgpu_n_cores_per_cluster;
    if ((rc = ps_parse_uint_list(c->gpgpu_shader_core_pipeline, ':', pipe, 2, &n, err)))
        return rc;
    if (n != 2 || pipe[1] != 32 || pipe[0] < 32)
        return ps_err_set(err, PS_EINVAL,
                          "-gpgpu_shader_core_pipeline: expected <threads per SM>:32, got '%s'",
                          c->gpgpu_shader_core_pipeline);
    p->max_threads = pipe[0];
    p->max_warps = pipe[0] / 32;
    p->max_ctas = clamp_u32(c->gpgpu_shader_cta, 1);
    p->regs = c->gpgpu_shader_registers;
    p->shmem = c->gpgpu_shmem_size;
    p->nsched = clamp_u32(c->gpgpu_num_sched_per_core, 1);
    if (p->nsched > p->max_warps)
        p->nsched = p->max_warps;
    p->n_sp = clamp_u32(c->gpgpu_num_sp_units, 1);
    p->n_sfu = clamp_u32(c->gpgpu_num_sfu_units, 1);
    p->n_dp = clamp_u32(c->gpgpu_num_dp_units, 0);
    p->reg_banks = clamp_u32(c->gpgpu_num_reg_banks, 1);
    p->bank_use_warp_id = c->gpgpu_reg_bank_use_warp_id;
    p->fetch_per_cycle = clamp_u32(c->gpgpu_inst_fetch_throughput, 1);
    p->ibuffer = 2;              /* GPGPU-Sim fetches two instructions per warp into its I-buffer */
    p->max_regs_per_thread = 63; /* compute 2.x limit; PTX declares virtual registers */
    p->oc_latency = c->ptxsim_operand_collect_latency;
    p->wb_latency = c->ptxsim_writeback_latency;
    if ((rc = ldst_depth(c, p, err)))
        return rc;
    return latencies(c, p, err);
}

static int memory(const struct ps_config *c, struct tm_params *p, struct ps_err *err)
{
    uint32_t q[4], n = 0;
    int rc;

    p->l1_latency = clamp_u32(c->gpgpu_l1_latency, 1);
    p->smem_latency = clamp_u32(c->gpgpu_smem_latency, 1);
    p->const_latency = p->lat_int[0];
    p->shmem_banks = clamp_u32(c->gpgpu_shmem_num_banks, 1);
    p->shmem_warp_parts = clamp_u32(c->gpgpu_shmem_warp_parts, 1);
    p->shmem_limited_bcast = c->gpgpu_shmem_limited_broadcast;
    p->shmem_atomic_serialize = c->ptxsim_shmem_atomic_serialize;
    p->sched_rotate = c->ptxsim_sched_rotate;
    p->skip_l1d = c->gpgpu_gmem_skip_L1D;
    p->flush_l1 = c->gpgpu_flush_l1_cache;
    p->flush_ro = c->ptxsim_flush_ro_caches;
    p->perf_sim_memcpy = c->gpgpu_perf_sim_memcpy;
    if ((rc = cache("gpgpu_cache:dl1", c->gpgpu_cache_dl1, &p->l1d, err)) ||
        (rc = cache("gpgpu_cache:il1", c->gpgpu_cache_il1, &p->l1i, err)) ||
        (rc = cache("gpgpu_const_cache:l1", c->gpgpu_const_cache_l1, &p->l1c, err)) ||
        (rc = cache("gpgpu_tex_cache:l1", c->gpgpu_tex_cache_l1, &p->l1t, err)) ||
        (rc = cache("gpgpu_cache:dl2", c->gpgpu_cache_dl2, &p->l2, err)))
        return rc;
    p->nmem = clamp_u32(c->gpgpu_n_mem, 1);
    p->nsub = clamp_u32(c->gpgpu_n_sub_partition_per_mchannel, 1);
    p->rop_latency = c->gpgpu_l2_rop_latency;
    p->dram_latency = c->dram_latency;
    if ((rc = ps_parse_uint_list(c->gpgpu_dram_partition_queues, ':', q, 4, &n, err)))
        return rc;
    if (n != 4)
        return ps_err_set(err, PS_EINVAL,
                          "-gpgpu_dram_partition_queues: expected 4 numbers a:b:c:d");
    for (int i = 0; i < 4; i++)
        p->partq[i] = q[i] ? q[i] : 64;
    if ((rc = mem_dram_timing_parse(c->gpgpu_dram_timing_opt, &p->dram.t, err)))
        return rc;
    p->dram.scheduler = clamp_u32(c->gpgpu_dram_scheduler, 0);
    p->dram.queue_size = clamp_u32(c->gpgpu_frfcfs_dram_sched_queue_size, 0);
    p->dram.return_queue = clamp_u32(c->gpgpu_dram_return_queue_size, 0);
    p->dram.burst_length = clamp_u32(c->gpgpu_dram_burst_length, 1);
    p->dram.bus_width = clamp_u32(c->gpgpu_dram_buswidth, 1);
    p->dram.chips = clamp_u32(c->gpgpu_n_mem_per_ctrlr, 1);
    p->dram.data_cmd_ratio = clamp_u32(c->dram_data_command_freq_ratio, 1);
    p->dram.bnkgrp_indexing = c->dram_bnkgrp_indexing_policy;
    p->dram.sector_bursts = c->ptxsim_dram_sector_bursts;
    if ((rc = mem_addrmap_parse(c->gpgpu_mem_addr_mapping, p->nmem, p->nsub, p->dram.t.nbk,
                                &p->amap, err)))
        return rc;
    p->flit_bytes = clamp_u32(c->icnt_flit_size, 1);
    p->icnt_latency = c->ptxsim_icnt_latency;
    p->icnt_in_flits = c->ptxsim_icnt_in_buffer_flits;
    p->eject_pkts = c->gpgpu_n_cluster_ejection_buffer_size;
    p->sector_replies = c->ptxsim_sector_replies;
    p->sm_sleep = c->ptxsim_sm_sleep;
    return 0;
}

/*
 * Outputs that record every CTA's detail cannot be written when most CTAs
 * run functionally: refused by name rather than written incomplete.
 */
static int sample_conflicts(const struct tm_params *p, struct ps_err *err)
{
    const char *other = NULL;

    if (!p->sample.on)
        return 0;
    if (p->l1d_trace && *p->l1d_trace)
        other = "-ptxsim_l1d_trace";
    else if (p->warp_profile && *p->warp_profile)
        other = "-ptxsim_warp_profile";
    else if (p->line_stats)
        other = "-enable_ptx_file_line_stats";
    if (!other)
        return 0;
    return ps_err_set(err, PS_ENOTSUP,
                      "-ptxsim_sample cannot be combined with %s: it records every CTA, and "
                      "sampled simulation runs most CTAs functionally",
                      other);
}

int tm_params_from_config(const struct ps_config *c, struct tm_params *p, struct ps_err *err)
{
    double clk[4];
    uint32_t n = 0;
    int rc;

    memset(p, 0, sizeof(*p));
    if ((rc = ps_config_check(c, err)) || (rc = core(c, p, err)) || (rc = memory(c, p, err)))
        return rc;
    if ((rc = ps_parse_double_list(c->gpgpu_clock_domains, ':', clk, 4, &n, err)))
        return rc;
    if (n != 4)
        return ps_err_set(err, PS_EINVAL,
                          "-gpgpu_clock_domains: expected core:interconnect:l2:dram in MHz");
    for (int i = 0; i < 4; i++) {
        if (!(clk[i] > 0))
            return ps_err_set(err, PS_EINVAL, "-gpgpu_clock_domains: clocks must be positive");
        p->clk[i] = clk[i];
    }
    p->warp_sched = c->gpgpu_scheduler;
    p->cta_sched = c->ptxsim_cta_scheduler;
    p->l1d_policy = c->ptxsim_l1d_policy;
    p->cta_limit = c->ptxsim_cta_limit;
    p->policy_trace = c->ptxsim_policy_trace;
    p->l1d_trace = c->ptxsim_l1d_trace;
    p->warp_profile = c->ptxsim_warp_profile;
    p->line_stats = c->enable_ptx_file_line_stats ? c->ptx_line_stats_filename : NULL;
    p->sample_period = clamp_u32(c->ptxsim_sample_period, 1);
    p->max_cycle = c->gpgpu_max_cycle > 0 ? (uint64_t)c->gpgpu_max_cycle : 0;
    p->max_insn = c->gpgpu_max_insn > 0 ? (uint64_t)c->gpgpu_max_insn : 0;
    p->deadlock_detect = c->gpgpu_deadlock_detect;
    p->progress_interval = c->ptxsim_progress_interval;
    p->threads = c->ptxsim_threads;
    if ((rc = tm_sample_spec_parse(c->ptxsim_sample, &p->sample, err)) ||
        (rc = sample_conflicts(p, err)))
        return rc;
    p->kernel_launch_latency = clamp_u32(c->gpgpu_kernel_launch_latency, 0);
    p->cta_launch_latency = clamp_u32(c->gpgpu_TB_launch_latency, 0);
    p->max_kernels = clamp_u32(c->gpgpu_max_concurrent_kernel, 1);
    if (c->gpgpu_concurrent_kernel_sm)
        return ps_err_set(err, PS_ENOTSUP,
                          "-gpgpu_concurrent_kernel_sm 1 (CTAs of several kernels on one SM) is "
                          "not supported: an SM runs one kernel's CTAs at a time, as with 0");
    return 0;
}

/*
 * Whether `path` can be written without writing it: an existing file must be
 * writable, a new one needs a writable folder.
 */
static int writable(const char *opt, const char *path, const char *suffix, struct ps_err *err)
{
    char file[4096], dir[4096];
    const char *slash;

    snprintf(file, sizeof(file), "%s%s", path, suffix);
    slash = strrchr(file, '/');
    if (access(file, F_OK) == 0) {
        if (access(file, W_OK) == 0)
            return 0;
        return ps_err_set(err, PS_EIO, "-%s: cannot write %s: %s", opt, file, strerror(errno));
    }
    snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - file) + (slash == file) : 1,
             slash ? file : ".");
    if (access(dir, W_OK | X_OK) == 0)
        return 0;
    return ps_err_set(err, PS_EIO, "-%s: cannot create %s: %s", opt, file, strerror(errno));
}

int tm_params_check_outputs(const struct tm_params *p, struct ps_err *err)
{
    int rc = 0;

    if (p->l1d_trace && *p->l1d_trace)
        rc = writable("ptxsim_l1d_trace", p->l1d_trace, "", err);
    if (!rc && p->warp_profile && *p->warp_profile)
        rc = writable("ptxsim_warp_profile", p->warp_profile, "", err);
    if (!rc && p->policy_trace && *p->policy_trace)
        rc = writable("ptxsim_policy_trace", p->policy_trace, ".cta.csv", err);
    if (!rc && p->line_stats)
        rc = writable("ptx_line_stats_filename", p->line_stats, "", err);
    return rc;
}
