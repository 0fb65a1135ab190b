/*
 * HeteroPDP's trained data on disk (docs/heteropdp.md, "Files"): the four
 * regression models and the Bubble-up sensitivity curves of one machine,
 * in a directory (one per machine, e.g. configs/heteropdp/<host>/):
 *
 *   models.txt   "# ptxsim-heteropdp-models 1" then, per model,
 *                "model NAME NFACTORS", optionally "intercept COEF" (the
 *                constant term, when trained with one), and one "term A B COEF" line per term
 *                (A == B: a single factor), in hpdp_terms order; NAME is
 *                cpu_alone, gpu_alone, cpu_coloc or gpu_coloc.
 *   bubble.txt   "# ptxsim-heteropdp-bubble 1" then "llc|dram PRESSURE SLOWDOWN [CLASS]"
 *                lines, pressures increasing per curve (LLC pressure in MB of
 *                working set, DRAM pressure in GB/s). Lines without a CLASS
 *                make the shared curves, which serve every co-runner; lines
 *                with one (mem, cache, compute: the co-runner's telemetry class)
 *                make that class's own curves (Bubble-up per application).
 *
 * Numbers are written with %.17g, so a reload gives bit-identical models.
 */
#ifndef PTXSIM_RUNTIME_HPDP_MODELS_H
#define PTXSIM_RUNTIME_HPDP_MODELS_H

#include <stdbool.h>
#include <stdio.h>

#include "policies/hpdp_model.h"
#include "policies/hpdp_policy.h"
#include "runtime/hpdp_features.h"

struct ps_err;

enum rt_hpdp_which {
    RT_HPDP_CPU_ALONE,
    RT_HPDP_GPU_ALONE,
    RT_HPDP_CPU_COLOC,
    RT_HPDP_GPU_COLOC,
    RT_HPDP_NMODELS
};

#define RT_HPDP_MAX_CLASSES 6u

/* One co-runner class's Bubble-up curves. */
struct rt_hpdp_class_curves {
    char cls[16];
    struct hpdp_bubble llc, dram;
};

struct rt_hpdp_models {
    struct hpdp_model m[RT_HPDP_NMODELS];
    bool have[RT_HPDP_NMODELS];
    struct hpdp_bubble llc, dram; /* the shared curves */
    uint32_t ncls;
    struct rt_hpdp_class_curves cls[RT_HPDP_MAX_CLASSES];
};

/* The curves of co-runner class cls: its own where bubble.txt has them, else the shared ones. */
void rt_hpdp_curves(const struct rt_hpdp_models *m, const char *cls, const struct hpdp_bubble **llc,
                    const struct hpdp_bubble **dram);

/* What sets the pressure a kernel puts on the co-runners (docs/heteropdp.md, "Bubble-up"). */
struct rt_hpdp_press {
    double lanes;    /* concurrent work-items of the CMP (cores x SIMD lanes) */
    double llc_mb;   /* the host's LLC, the cap of the CPU-side pressure */
    double pcie_gbs; /* the link, the cap of the GPU-side pressure */
};

/*
 * The kernel's pressure on each placement: on the CPU, MB of working set
 * (buffer bytes x min(1, threads / lanes), at most the LLC); on the GPU, GB/s
 * of transfer (transfer bytes / t_gpu seconds, at most the link).
 */
void rt_hpdp_pressure(const struct rt_hpdp_dyn *d, double t_gpu, const struct rt_hpdp_press *p,
                      double *llc_mb, double *dram_gbs);

/*
 * Each co-runner's Bubble-up slowdown with the kernel on each device
 * (sd[enum hpdp_dev][i]): its class's LLC curve at the CPU-side pressure, its
 * DRAM curve at the GPU-side pressure, t_gpu being the GPU time that sets it.
 */
void rt_hpdp_corunner_slowdowns(const struct rt_hpdp_models *m, const struct rt_hpdp_dyn *d,
                                double t_gpu, const struct rt_hpdp_press *p, uint32_t nco,
                                const char (*cls)[16], double sd[2][HPDP_MAX_CORUNNERS]);

const char *rt_hpdp_model_name(enum rt_hpdp_which w);
/* Factors of each model: 8, 8, 10, 9. */
uint32_t rt_hpdp_model_factors(enum rt_hpdp_which w);

/* Reads dir/models.txt and (if present) dir/bubble.txt. 0, PS_EIO or PS_EPARSE (err says where). */
int rt_hpdp_models_load(const char *dir, struct rt_hpdp_models *out, struct ps_err *err);
/* Writes the models it has, and the bubble curves when they have points. */
int rt_hpdp_models_write(FILE *f, const struct rt_hpdp_models *in);
int rt_hpdp_bubble_write(FILE *f, const struct rt_hpdp_models *in);

#endif
