/*
 * Reading HeteroPDP launch logs (PTXSIM_HETEROPDP_LOG, runtime/opencl/hpdp.h):
 * one sample per "launch" line, for `ptxsim heteropdp train` and `report`.
 */
#ifndef PTXSIM_TOOLS_HPDP_LOG_H
#define PTXSIM_TOOLS_HPDP_LOG_H

#include <stddef.h>
#include <stdint.h>

#include <stdbool.h>

#include "policies/hpdp_policy.h"
#include "runtime/hpdp_features.h"
#include "runtime/hpdp_models.h"

struct hpdp_sample {
    char app[32], kernel[64];
    int gpu; /* ran on the GPU (1) or the CPU device (0) */
    int rc, havec;
    uint32_t nco;
    char co[HPDP_MAX_CORUNNERS][16]; /* the co-runners' classes (co=), pid order */
    double cpu[RT_HPDP_C_N], gpuf[RT_HPDP_G_N];
    struct rt_hpdp_dyn dyn;
    struct rt_hpdp_sys sys;
    double kernel_s, xfer_s, time_s;
};

/*
 * A "cosd" line (benchmarks/heteropdp/kernels.c, HPDP_REPEAT_S): the measured
 * slowdown of each co-runner while the kernel ran again and again on dev.
 */
struct hpdp_cosd {
    char app[32], kernel[64];
    int gpu;
    double threads, buffer_bytes;
    uint32_t n;
    double sd[HPDP_MAX_CORUNNERS];
};

struct hpdp_samples {
    struct hpdp_sample *v;
    size_t n, cap;
    struct hpdp_cosd *co;
    size_t nco, capco;
};

/*
 * Appends the launches (rc != 0 launches are skipped) and cosd lines of file
 * path; 0, or -1 with a message.
 */
int hpdp_log_read(const char *path, struct hpdp_samples *out);
void hpdp_samples_free(struct hpdp_samples *s);

/* Whether sample x trains (or is predicted by) model w, and its factor vector for w. */
bool hpdp_sample_fits(const struct hpdp_sample *x, enum rt_hpdp_which w);
uint32_t hpdp_sample_factors(const struct hpdp_sample *x, enum rt_hpdp_which w, double *f);

#endif
