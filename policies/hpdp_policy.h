/*
 * HeteroPDP's decision arithmetic (dissertation Eq. 6.1-6.6, extraction
 * sections 5.3, 5.4 and 5.7; docs/heteropdp.md): slowdown, (weighted)
 * fairness, the Bubble-up sensitivity lookup, the alone and co-located
 * device choices, and target-selection accuracy.
 */
#ifndef PTXSIM_POLICIES_HPDP_POLICY_H
#define PTXSIM_POLICIES_HPDP_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum hpdp_dev { HPDP_CPU = 0, HPDP_GPU = 1 };

#define HPDP_MAX_CORUNNERS 4u
#define HPDP_BUBBLE_POINTS 16u

/* Eq. 6.6: t_coloc / t_alone (1.0 when t_alone is not positive). */
double hpdp_slowdown(double t_coloc, double t_alone);

/*
 * Eq. 6.1 / 6.4: min_i(w_i * sd_i) / max_i(w_i * sd_i) over n applications;
 * w NULL means every weight is 1. 1.0 when n is 0.
 */
double hpdp_fairness(const double *sd, const double *w, size_t n);

/*
 * A Bubble-up sensitivity curve of one co-runner on one resource: slowdown
 * measured at increasing bubble pressures. (0, 1.0) is implicit. Lookup
 * interpolates linearly between points and holds the last slowdown beyond
 * the last point; the curve is made monotone (running maximum) when points
 * are added, since more pressure never helps.
 */
struct hpdp_bubble {
    uint32_t n;
    double pressure[HPDP_BUBBLE_POINTS]; /* strictly increasing, > 0 */
    double slowdown[HPDP_BUBBLE_POINTS];
};

/* Adds a point at a pressure above the last one; -1 when full or not increasing. */
int hpdp_bubble_add(struct hpdp_bubble *b, double pressure, double slowdown);
double hpdp_bubble_lookup(const struct hpdp_bubble *b, double pressure);

/* Min-time when alone: the device with the smaller predicted time; a tie goes to the GPU. */
enum hpdp_dev hpdp_choose_alone(double t_cpu, double t_gpu);

/* The predictions of one co-located launch, per device (index enum hpdp_dev). */
struct hpdp_coloc {
    double t_alone[2], t_coloc[2];       /* the OpenCL kernel's predicted times */
    uint32_t nco;                        /* co-runners */
    double sd_co[2][HPDP_MAX_CORUNNERS]; /* each co-runner's slowdown with the kernel on dev */
    double w_co[HPDP_MAX_CORUNNERS];     /* co-runner weights (1.0 = unweighted) */
    double w_ocl;                        /* the OpenCL program's weight */
    bool ref_best; /* the kernel's slowdown against its best alone time on either device,
                      not the literal per-device one (extraction 5.4's ambiguity) */
};

/*
 * Max (weighted) fairness with co-runners: fairness[dev] of the OpenCL
 * kernel's slowdown (t_coloc / t_alone on that device; with ref_best,
 * t_coloc / the smaller t_alone of the two, so a slow device is penalised)
 * and the co-runners' slowdowns; the larger wins, a tie (within 1e-12) goes to the GPU. With no
 * co-runners it is hpdp_choose_alone over t_alone. fair may be NULL.
 */
enum hpdp_dev hpdp_choose_coloc(const struct hpdp_coloc *in, double fair[2]);

/* Fairness ratio (Eq. 6.2): F_CMP / F_GPU (> 1: the CMP is preferred). */
double hpdp_fairness_ratio(double f_cpu, double f_gpu);

/* The [predicted, optimal] confusion table of target selection. */
struct hpdp_confusion {
    uint32_t cell[2][2]; /* [pred][opt] */
};

void hpdp_confusion_add(struct hpdp_confusion *c, enum hpdp_dev pred, enum hpdp_dev opt);
uint32_t hpdp_confusion_total(const struct hpdp_confusion *c);
/* ([CPU,CPU] + [GPU,GPU]) / total; 0 when empty. */
double hpdp_accuracy(const struct hpdp_confusion *c);

#endif
