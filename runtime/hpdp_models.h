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
 *   bubble.txt   "# ptxsim-heteropdp-bubble 1" then "llc|dram PRESSURE SLOWDOWN"
 *                lines, pressures increasing (LLC pressure in MB of working
 *                set, DRAM pressure in GB/s).
 *
 * Numbers are written with %.17g, so a reload gives bit-identical models.
 */
#ifndef PTXSIM_RUNTIME_HPDP_MODELS_H
#define PTXSIM_RUNTIME_HPDP_MODELS_H

#include <stdbool.h>
#include <stdio.h>

#include "policies/hpdp_model.h"
#include "policies/hpdp_policy.h"

struct ps_err;

enum rt_hpdp_which {
    RT_HPDP_CPU_ALONE,
    RT_HPDP_GPU_ALONE,
    RT_HPDP_CPU_COLOC,
    RT_HPDP_GPU_COLOC,
    RT_HPDP_NMODELS
};

struct rt_hpdp_models {
    struct hpdp_model m[RT_HPDP_NMODELS];
    bool have[RT_HPDP_NMODELS];
    struct hpdp_bubble llc, dram;
};

const char *rt_hpdp_model_name(enum rt_hpdp_which w);
/* Factors of each model: 8, 8, 10, 9. */
uint32_t rt_hpdp_model_factors(enum rt_hpdp_which w);

/* Reads dir/models.txt and (if present) dir/bubble.txt. 0, PS_EIO or PS_EPARSE (err says where). */
int rt_hpdp_models_load(const char *dir, struct rt_hpdp_models *out, struct ps_err *err);
/* Writes the models it has, and the bubble curves when they have points. */
int rt_hpdp_models_write(FILE *f, const struct rt_hpdp_models *in);
int rt_hpdp_bubble_write(FILE *f, const struct rt_hpdp_models *in);

#endif
