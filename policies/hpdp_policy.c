/* HeteroPDP decision arithmetic (hpdp_policy.h). */
#include "policies/hpdp_policy.h"

#include <math.h>

double hpdp_slowdown(double t_coloc, double t_alone)
{
    return t_alone > 0 ? t_coloc / t_alone : 1.0;
}

double hpdp_fairness(const double *sd, const double *w, size_t n)
{
    double lo = INFINITY, hi = 0;

    if (!n)
        return 1.0;
    for (size_t i = 0; i < n; i++) {
        double v = sd[i] * (w ? w[i] : 1.0);
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
    }
    return hi > 0 ? lo / hi : 1.0;
}

int hpdp_bubble_add(struct hpdp_bubble *b, double pressure, double slowdown)
{
    double floor = b->n ? b->slowdown[b->n - 1] : 1.0;

    if (b->n >= HPDP_BUBBLE_POINTS || !(pressure > (b->n ? b->pressure[b->n - 1] : 0)))
        return -1;
    b->pressure[b->n] = pressure;
    b->slowdown[b->n] = slowdown > floor ? slowdown : floor;
    b->n++;
    return 0;
}

double hpdp_bubble_lookup(const struct hpdp_bubble *b, double pressure)
{
    double p0 = 0, s0 = 1.0;

    if (!(pressure > 0))
        return 1.0;
    for (uint32_t i = 0; i < b->n; i++) {
        if (pressure <= b->pressure[i])
            return s0 + (b->slowdown[i] - s0) * (pressure - p0) / (b->pressure[i] - p0);
        p0 = b->pressure[i];
        s0 = b->slowdown[i];
    }
    return s0;
}

enum hpdp_dev hpdp_choose_alone(double t_cpu, double t_gpu)
{
    return t_cpu < t_gpu ? HPDP_CPU : HPDP_GPU;
}

enum hpdp_dev hpdp_choose_coloc(const struct hpdp_coloc *in, double fair[2])
{
    double f[2];

    if (!in->nco) {
        if (fair)
            fair[0] = fair[1] = 1.0;
        return hpdp_choose_alone(in->t_alone[HPDP_CPU], in->t_alone[HPDP_GPU]);
    }
    for (int d = 0; d < 2; d++) {
        double sd[HPDP_MAX_CORUNNERS + 1], w[HPDP_MAX_CORUNNERS + 1];
        uint32_t n = in->nco < HPDP_MAX_CORUNNERS ? in->nco : HPDP_MAX_CORUNNERS;

        double ref = in->t_alone[d];
        if (in->ref_best && in->t_alone[1 - d] < ref)
            ref = in->t_alone[1 - d];
        sd[0] = hpdp_slowdown(in->t_coloc[d], ref);
        w[0] = in->w_ocl > 0 ? in->w_ocl : 1.0;
        for (uint32_t i = 0; i < n; i++) {
            sd[i + 1] = in->sd_co[d][i];
            w[i + 1] = in->w_co[i] > 0 ? in->w_co[i] : 1.0;
        }
        f[d] = hpdp_fairness(sd, w, n + 1);
    }
    if (fair) {
        fair[0] = f[0];
        fair[1] = f[1];
    }
    return f[HPDP_CPU] > f[HPDP_GPU] + 1e-12 ? HPDP_CPU : HPDP_GPU;
}

double hpdp_fairness_ratio(double f_cpu, double f_gpu)
{
    return f_gpu > 0 ? f_cpu / f_gpu : INFINITY;
}

void hpdp_confusion_add(struct hpdp_confusion *c, enum hpdp_dev pred, enum hpdp_dev opt)
{
    c->cell[pred][opt]++;
}

uint32_t hpdp_confusion_total(const struct hpdp_confusion *c)
{
    return c->cell[0][0] + c->cell[0][1] + c->cell[1][0] + c->cell[1][1];
}

double hpdp_accuracy(const struct hpdp_confusion *c)
{
    uint32_t n = hpdp_confusion_total(c);

    return n ? (double)(c->cell[0][0] + c->cell[1][1]) / n : 0.0;
}
