/*
 * ps_config_check: the values the timing model cannot run with. Bounds on single numbers
 * come from a table; composite values (lists, the clock string, the pipeline shape) are
 * split with the public list parsers; a few rules relate options to each other.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "common/config.h"
#include "common/err.h"

/* Data packet the crossbar must be able to buffer: a 128-byte line plus an 8-byte header
 * (GPGPU-Sim's control size of a memory request). */
#define ICNT_MAX_PACKET_BYTES 136u

/* Bounds of one INT or UINT option; the field name is the option name. */
struct bound {
    const char *name;
    size_t off;
    bool is_unsigned;
    int64_t min, max;
};

/* _Generic picks the field's width, so a bound cannot read an option with the wrong type. */
// clang-format off
#define BOUND(field, lo, hi)                                                                       \
    {#field, offsetof(struct ps_config, field),                                                    \
     _Generic(((struct ps_config *)0)->field, uint32_t: true, int64_t: false), lo, hi}
// clang-format on

static const struct bound bounds[] = {
    BOUND(gpgpu_n_clusters, 1, INT64_MAX),
    BOUND(gpgpu_n_cores_per_cluster, 1, INT64_MAX),
    BOUND(gpgpu_n_mem, 1, INT64_MAX),
    BOUND(gpgpu_n_sub_partition_per_mchannel, 1, INT64_MAX),
    BOUND(gpgpu_shader_cta, 1, INT64_MAX),
    BOUND(gpgpu_shader_registers, 1, INT64_MAX),
    BOUND(gpgpu_registers_per_block, 1, INT64_MAX),
    BOUND(gpgpu_simd_model, 1, 1),
    BOUND(gpgpu_num_sched_per_core, 1, INT64_MAX),
    BOUND(gpgpu_max_insn_issue_per_warp, 1, 2),
    BOUND(gpgpu_inst_fetch_throughput, 1, INT64_MAX),
    BOUND(gpgpu_reg_file_port_throughput, 1, INT64_MAX),
    BOUND(gpgpu_num_sp_units, 1, INT64_MAX),
    BOUND(gpgpu_num_sfu_units, 1, INT64_MAX),
    BOUND(gpgpu_num_dp_units, 0, INT64_MAX),
    BOUND(gpgpu_num_int_units, 0, INT64_MAX),
    BOUND(gpgpu_num_reg_banks, 1, INT64_MAX),
    BOUND(gpgpu_operand_collector_num_units_sp, 1, INT64_MAX),
    BOUND(gpgpu_operand_collector_num_units_sfu, 1, INT64_MAX),
    BOUND(gpgpu_operand_collector_num_units_mem, 1, INT64_MAX),
    BOUND(gpgpu_operand_collector_num_units_dp, 0, INT64_MAX),
    BOUND(gpgpu_operand_collector_num_units_int, 0, INT64_MAX),
    BOUND(gpgpu_operand_collector_num_in_ports_sp, 1, INT64_MAX),
    BOUND(gpgpu_operand_collector_num_in_ports_sfu, 1, INT64_MAX),
    BOUND(gpgpu_operand_collector_num_in_ports_mem, 1, INT64_MAX),
    BOUND(gpgpu_operand_collector_num_in_ports_dp, 0, INT64_MAX),
    BOUND(gpgpu_operand_collector_num_in_ports_int, 0, INT64_MAX),
    BOUND(gpgpu_operand_collector_num_out_ports_sp, 1, INT64_MAX),
    BOUND(gpgpu_operand_collector_num_out_ports_sfu, 1, INT64_MAX),
    BOUND(gpgpu_operand_collector_num_out_ports_mem, 1, INT64_MAX),
    BOUND(gpgpu_operand_collector_num_out_ports_dp, 0, INT64_MAX),
    BOUND(gpgpu_operand_collector_num_out_ports_int, 0, INT64_MAX),
    BOUND(gpgpu_shmem_num_banks, 1, INT64_MAX),
    BOUND(gpgpu_shmem_warp_parts, 1, 32),
    BOUND(gpgpu_l1_latency, 1, INT64_MAX),
    BOUND(gpgpu_l1_banks, 1, INT64_MAX),
    BOUND(gpgpu_smem_latency, 1, INT64_MAX),
    BOUND(icnt_flit_size, 1, INT64_MAX),
    BOUND(gpgpu_n_cluster_ejection_buffer_size, 1, INT64_MAX),
    BOUND(gpgpu_dram_scheduler, 0, 1),
    BOUND(gpgpu_frfcfs_dram_sched_queue_size, 0, INT64_MAX),
    BOUND(gpgpu_dram_return_queue_size, 0, INT64_MAX),
    BOUND(gpgpu_n_mem_per_ctrlr, 1, INT64_MAX),
    BOUND(gpgpu_dram_buswidth, 1, INT64_MAX),
    BOUND(gpgpu_dram_burst_length, 1, INT64_MAX),
    BOUND(dram_data_command_freq_ratio, 1, INT64_MAX),
    BOUND(gpgpu_max_concurrent_kernel, 1, INT64_MAX),
    BOUND(gpgpu_max_cycle, 0, INT64_MAX),
    BOUND(gpgpu_max_insn, 0, INT64_MAX),
    BOUND(gpgpu_kernel_launch_latency, 0, INT64_MAX),
    BOUND(gpgpu_TB_launch_latency, 0, INT64_MAX),
    BOUND(gpgpu_stack_size_limit, 0, INT64_MAX),
    BOUND(gpgpu_heap_size_limit, 0, INT64_MAX),
    BOUND(ptxsim_icnt_in_buffer_flits, 1, INT64_MAX),
    BOUND(ptxsim_sample_period, 1, INT64_MAX),
};

static int check_bounds(const struct ps_config *c, struct ps_err *err)
{
    for (size_t k = 0; k < sizeof(bounds) / sizeof(bounds[0]); k++) {
        const struct bound *b = &bounds[k];
        const char *f = (const char *)c + b->off;
        int64_t v = b->is_unsigned ? (int64_t) * (const uint32_t *)f : *(const int64_t *)f;

        if (v >= b->min && v <= b->max)
            continue;
        if (b->max == INT64_MAX)
            return ps_err_set(err, PS_EINVAL, "-%s is %" PRId64 "; it must be at least %" PRId64,
                              b->name, v, b->min);
        return ps_err_set(err, PS_EINVAL,
                          "-%s is %" PRId64 "; it must be between %" PRId64 " and %" PRId64,
                          b->name, v, b->min, b->max);
    }
    return 0;
}

/* Prefixes the message already in err with the option and its value. */
static int blame(struct ps_err *err, const char *name, const char *value)
{
    char msg[PS_ERR_MSG_MAX];

    if (!err)
        return PS_EINVAL;
    memcpy(msg, err->msg, sizeof(msg));
    return ps_err_set(err, PS_EINVAL, "-%s '%.96s': %s", name, value, msg);
}

/* A uint list option with count in [min_n, max_n] and every item >= min_item. */
static int check_list(const char *name, const char *s, char sep, uint32_t min_n, uint32_t max_n,
                      uint32_t min_item, struct ps_err *err)
{
    uint32_t v[16], n;

    if (ps_parse_uint_list(s, sep, v, 16, &n, err) != 0)
        return blame(err, name, s);
    if (n < min_n || n > max_n) {
        if (min_n == max_n)
            ps_err_set(err, PS_EINVAL,
                       "expected %" PRIu32 " values separated by '%c', got %" PRIu32, min_n, sep,
                       n);
        else
            ps_err_set(err, PS_EINVAL,
                       "expected %" PRIu32 " to %" PRIu32 " values separated by '%c', got %" PRIu32,
                       min_n, max_n, sep, n);
        return blame(err, name, s);
    }
    for (uint32_t k = 0; k < n; k++) {
        if (v[k] >= min_item)
            continue;
        ps_err_set(err, PS_EINVAL, "value %" PRIu32 " is %" PRIu32 "; it must be at least %" PRIu32,
                   k + 1, v[k], min_item);
        return blame(err, name, s);
    }
    return 0;
}

/* A list option: separator, count range and smallest item; the field name is the option. */
struct list_rule {
    const char *name;
    size_t off;
    char sep;
    uint32_t min_n, max_n, min_item;
};

#define LIST(field, sep, lo, hi, min)                                                              \
    {                                                                                              \
#field, offsetof(struct ps_config, field), sep, lo, hi, min                                \
    }

/* The composite values the timing model splits into numbers. */
static int check_lists(const struct ps_config *c, struct ps_err *err)
{
    static const struct list_rule lists[] = {
        /* 11 entries (Fermi file) or 13 (with the two tensor-core registers). */
        LIST(gpgpu_pipeline_widths, ',', 11, 13, 0),
        /* ADD,MAX,MUL,MAD,DIV and, since GPGPU-Sim 4, SHFL. */
        LIST(ptx_opcode_latency_int, ',', 5, 6, 1),
        LIST(ptx_opcode_initiation_int, ',', 5, 6, 1),
        LIST(ptx_opcode_latency_fp, ',', 5, 5, 1),
        LIST(ptx_opcode_initiation_fp, ',', 5, 5, 1),
        LIST(ptx_opcode_latency_dp, ',', 5, 5, 1),
        LIST(ptx_opcode_initiation_dp, ',', 5, 5, 1),
        LIST(ptx_opcode_latency_sfu, ',', 1, 1, 1),
        LIST(ptx_opcode_initiation_sfu, ',', 1, 1, 1),
        /* icnt->L2 : L2->DRAM : DRAM->L2 : L2->icnt */
        LIST(gpgpu_dram_partition_queues, ':', 4, 4, 0),
        /* size : high watermark : low watermark */
        LIST(dram_write_queue_size, ':', 3, 3, 0),
    };
    int rc;

    for (size_t k = 0; k < sizeof(lists) / sizeof(lists[0]); k++) {
        const char *s = *(const char *const *)((const char *)c + lists[k].off);
        rc = check_list(lists[k].name, s, lists[k].sep, lists[k].min_n, lists[k].max_n,
                        lists[k].min_item, err);
        if (rc)
            return rc;
    }
    return 0;
}

/* "<threads>:<warp size>" with an optional third field that GPGPU-Sim 2.x/3.x configs
 * carried (the SIMD width) and that is ignored. */
static int check_pipeline(const struct ps_config *c, struct ps_err *err)
{
    const char *s = c->gpgpu_shader_core_pipeline;
    uint32_t v[3], n;

    if (ps_parse_uint_list(s, ':', v, 3, &n, err) != 0)
        return blame(err, "gpgpu_shader_core_pipeline", s);
    if (n < 2)
        return ps_err_set(
            err, PS_EINVAL,
            "-gpgpu_shader_core_pipeline '%.64s': expected <threads per SM>:<warp size>", s);
    if (v[1] != 32)
        return ps_err_set(
            err, PS_EINVAL,
            "-gpgpu_shader_core_pipeline '%.64s': warp size must be 32 (ptxsim models 32-thread warps)",
            s);
    if (v[0] < 32 || v[0] % 32)
        return ps_err_set(
            err, PS_EINVAL,
            "-gpgpu_shader_core_pipeline '%.64s': threads per SM must be a positive multiple of 32",
            s);
    return 0;
}

static int check_clocks(const struct ps_config *c, struct ps_err *err)
{
    static const char *const names[] = {"core", "interconnect", "L2", "DRAM"};
    const char *s = c->gpgpu_clock_domains;
    double mhz[4];
    uint32_t n;

    if (ps_parse_double_list(s, ':', mhz, 4, &n, err) != 0)
        return blame(err, "gpgpu_clock_domains", s);
    if (n != 4)
        return ps_err_set(err, PS_EINVAL,
                          "-gpgpu_clock_domains '%.64s': expected core:interconnect:L2:DRAM in MHz",
                          s);
    for (uint32_t k = 0; k < 4; k++)
        if (!(mhz[k] > 0))
            return ps_err_set(err, PS_EINVAL,
                              "-gpgpu_clock_domains '%.64s': the %s clock must be above 0 MHz", s,
                              names[k]);
    return 0;
}

/* Options whose value must not be empty (a policy name, a cache or timing string). */
static int check_nonempty(const struct ps_config *c, struct ps_err *err)
{
    static const struct {
        const char *name;
        size_t off;
    } strs[] = {
        {"gpgpu_scheduler", offsetof(struct ps_config, gpgpu_scheduler)},
        {"ptxsim_cta_scheduler", offsetof(struct ps_config, ptxsim_cta_scheduler)},
        {"ptxsim_l1d_policy", offsetof(struct ps_config, ptxsim_l1d_policy)},
        {"gpgpu_cache:dl1", offsetof(struct ps_config, gpgpu_cache_dl1)},
        {"gpgpu_cache:dl2", offsetof(struct ps_config, gpgpu_cache_dl2)},
        {"gpgpu_cache:il1", offsetof(struct ps_config, gpgpu_cache_il1)},
        {"gpgpu_tex_cache:l1", offsetof(struct ps_config, gpgpu_tex_cache_l1)},
        {"gpgpu_const_cache:l1", offsetof(struct ps_config, gpgpu_const_cache_l1)},
        {"gpgpu_dram_timing_opt", offsetof(struct ps_config, gpgpu_dram_timing_opt)},
    };

    for (size_t k = 0; k < sizeof(strs) / sizeof(strs[0]); k++) {
        const char *s = *(const char *const *)((const char *)c + strs[k].off);
        if (!s[0])
            return ps_err_set(err, PS_EINVAL, "-%s must not be empty", strs[k].name);
    }
    if (strcmp(c->ptxsim_report, "compact") && strcmp(c->ptxsim_report, "full"))
        return ps_err_set(err, PS_EINVAL, "-ptxsim_report is '%s'; it must be compact or full",
                          c->ptxsim_report);
    return 0;
}

/* Rules that tie options together. */
static int check_relations(const struct ps_config *c, struct ps_err *err)
{
    uint32_t sub = c->gpgpu_n_sub_partition_per_mchannel;
    uint64_t buf_bytes = (uint64_t)c->ptxsim_icnt_in_buffer_flits * c->icnt_flit_size;

    if (sub & (sub - 1))
        return ps_err_set(
            err, PS_EINVAL,
            "-gpgpu_n_sub_partition_per_mchannel is %" PRIu32 "; it must be a power of two", sub);
    if (32 % c->gpgpu_shmem_warp_parts)
        return ps_err_set(err, PS_EINVAL,
                          "-gpgpu_shmem_warp_parts is %" PRId64 "; it must divide the warp size 32",
                          c->gpgpu_shmem_warp_parts);
    if (strcmp(c->ptxsim_cta_scheduler, "static") == 0 && c->ptxsim_cta_limit == 0)
        return ps_err_set(err, PS_EINVAL,
                          "-ptxsim_cta_scheduler static needs -ptxsim_cta_limit of at least 1");
    if (buf_bytes < ICNT_MAX_PACKET_BYTES)
        return ps_err_set(err, PS_EINVAL,
                          "-ptxsim_icnt_in_buffer_flits %" PRIu32 " x -icnt_flit_size %" PRIu32
                          " bytes cannot hold one %u-byte data packet",
                          c->ptxsim_icnt_in_buffer_flits, c->icnt_flit_size, ICNT_MAX_PACKET_BYTES);
    return 0;
}

int ps_config_check(const struct ps_config *c, struct ps_err *err)
{
    int rc;

    if (!c)
        return ps_err_set(err, PS_EINVAL, "ps_config_check: no config");
    if ((rc = check_bounds(c, err)) || (rc = check_nonempty(c, err)) ||
        (rc = check_pipeline(c, err)) || (rc = check_clocks(c, err)) ||
        (rc = check_lists(c, err)) || (rc = check_relations(c, err)))
        return rc;
    return 0;
}
