/* ptxsim heteropdp report, co-located part (hpdp_coloc.h). */
#include "tools/hpdp_coloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policies/hpdp_policy.h"

#define NWEIGHTS 5
static const double weights[NWEIGHTS] = {0.5, 1.0, 1.5, 2.0, 2.5};

/* One kernel launch (kernel, sizes) beside one set of co-runners, on both devices. */
struct cwork {
    const struct hpdp_sample *c, *g; /* representative co-located launches */
    uint32_t nco;
    double alone[2], coloc[2];             /* measured OpenCL times (s), [enum hpdp_dev] */
    double sd_meas[2][HPDP_MAX_CORUNNERS]; /* co-runners' slowdowns (GPU side modelled) */
    double ta[2], tc[2];                   /* predicted */
    double sd_pred[2][HPDP_MAX_CORUNNERS];
};

/* Per group (1 co-runner, 2 or more) and weight. */
struct cstat {
    size_t n;
    struct hpdp_confusion conf[NWEIGHTS];
    double fair[NWEIGHTS]
               [4]; /* summed measured fairness: always-CPU, always-GPU, HeteroPDP, oracle */
    double lg[NWEIGHTS][4];    /* summed log OpenCL co-located time, same order */
    double ratio_lo, ratio_hi; /* measured fairness ratio F_CMP / F_GPU at weight 1 */
};

static double envd(const char *name, double dflt)
{
    const char *s = getenv(name);
    double v = s ? strtod(s, NULL) : 0;

    return v > 0 ? v : dflt;
}

/* The app label before its "+co-runners" suffix. */
static bool same_base(const char *alone_app, const char *coloc_app)
{
    size_t n = strcspn(coloc_app, "+");

    return strlen(alone_app) == n && !strncmp(alone_app, coloc_app, n);
}

static bool same_launch(const struct hpdp_sample *a, const struct hpdp_sample *b)
{
    return !strcmp(a->kernel, b->kernel) && a->dyn.threads == b->dyn.threads &&
           a->dyn.buffer_bytes == b->dyn.buffer_bytes;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

/*
 * Median time_s of the launches like x on device gpu: co-located ones of the
 * same app (coloc) or alone ones of its base app; the first one in *rep.
 */
static double median_time(const struct hpdp_samples *s, const struct hpdp_sample *x, int gpu,
                          bool coloc, const struct hpdp_sample **rep, double *tmp)
{
    size_t n = 0;

    *rep = NULL;
    for (size_t i = 0; i < s->n; i++) {
        const struct hpdp_sample *y = &s->v[i];
        if (y->gpu != gpu || (y->nco > 0) != coloc || !same_launch(x, y) ||
            (coloc ? strcmp(x->app, y->app) : !same_base(y->app, x->app)) || !(y->time_s > 0))
            continue;
        if (!*rep)
            *rep = y;
        tmp[n++] = y->time_s;
    }
    if (!n)
        return NAN;
    qsort(tmp, n, sizeof(double), cmp_double);
    return n % 2 ? tmp[n / 2] : 0.5 * (tmp[n / 2 - 1] + tmp[n / 2]);
}

/* The cosd line of launch x on the CPU device, or NULL. */
static const struct hpdp_cosd *find_cosd(const struct hpdp_samples *s, const struct hpdp_sample *x)
{
    for (size_t i = 0; i < s->nco; i++) {
        const struct hpdp_cosd *c = &s->co[i];
        if (!c->gpu && !strcmp(c->app, x->app) && !strcmp(c->kernel, x->kernel) &&
            c->threads == x->dyn.threads && c->buffer_bytes == x->dyn.buffer_bytes &&
            c->n == x->nco)
            return c;
    }
    return NULL;
}

static double predict(const struct rt_hpdp_models *m, enum rt_hpdp_which w,
                      const struct hpdp_sample *x)
{
    double f[HPDP_MAX_FACTORS];

    hpdp_sample_factors(x, w, f);
    return m->have[w] ? hpdp_predict(&m->m[w], f) : INFINITY;
}

/* HeteroPDP's predictions for w, as the runtime makes them at the co-located launch. */
static void predict_work(const struct rt_hpdp_models *m, const struct rt_hpdp_press *p,
                         struct cwork *w)
{
    double pcie = p->pcie_gbs, host = envd("PTXSIM_HETEROPDP_HOST_GBS", 22.0);

    w->ta[HPDP_CPU] = predict(m, RT_HPDP_CPU_ALONE, w->c);
    w->ta[HPDP_GPU] = predict(m, RT_HPDP_GPU_ALONE, w->g) +
                      rt_hpdp_xfer_s(w->g->dyn.transfer_bytes, pcie, host, 0);
    w->tc[HPDP_CPU] =
        m->have[RT_HPDP_CPU_COLOC] ? predict(m, RT_HPDP_CPU_COLOC, w->c) : w->ta[HPDP_CPU];
    w->tc[HPDP_GPU] = (m->have[RT_HPDP_GPU_COLOC] ? predict(m, RT_HPDP_GPU_COLOC, w->g)
                                                  : predict(m, RT_HPDP_GPU_ALONE, w->g)) +
                      rt_hpdp_xfer_s(w->g->dyn.transfer_bytes, pcie, host, w->g->sys.dram_gbs);
    rt_hpdp_corunner_slowdowns(m, &w->g->dyn, w->tc[HPDP_GPU], p, w->nco,
                               (const char(*)[16])w->g->co, w->sd_pred);
}

/* Builds the workloads; returns how many. */
static size_t gather(const struct hpdp_samples *s, const struct rt_hpdp_models *m,
                     const struct rt_hpdp_press *p, struct cwork *w)
{
    double *tmp = calloc(s->n + 1, sizeof(double)), sdg[2][HPDP_MAX_CORUNNERS];
    size_t n = 0;

    for (size_t i = 0; tmp && i < s->n; i++) {
        const struct hpdp_sample *x = &s->v[i], *rep, *first = NULL;
        const struct hpdp_cosd *cs;
        struct cwork k = {.nco = x->nco};
        if (x->gpu || !x->nco || !x->havec)
            continue;
        for (size_t j = 0; j < i && !first; j++) /* one workload per group: its first launch */
            if (!s->v[j].gpu && s->v[j].nco && !strcmp(s->v[j].app, x->app) &&
                same_launch(&s->v[j], x))
                first = &s->v[j];
        if (first || !(cs = find_cosd(s, x)))
            continue;
        k.c = x;
        k.coloc[HPDP_CPU] = median_time(s, x, 0, true, &rep, tmp);
        k.coloc[HPDP_GPU] = median_time(s, x, 1, true, &k.g, tmp);
        k.alone[HPDP_CPU] = median_time(s, x, 0, false, &rep, tmp);
        k.alone[HPDP_GPU] = median_time(s, x, 1, false, &rep, tmp);
        if (!k.g || k.g->nco != x->nco || isnan(k.alone[0] + k.alone[1] + k.coloc[0] + k.coloc[1]))
            continue;
        for (uint32_t c = 0; c < k.nco && c < HPDP_MAX_CORUNNERS; c++)
            k.sd_meas[HPDP_CPU][c] = cs->sd[c] > 1 ? cs->sd[c] : 1.0;
        /* the GPU side: no real DMA traffic exists, so the class's DRAM curve at the measured time
         */
        rt_hpdp_corunner_slowdowns(m, &k.g->dyn, k.coloc[HPDP_GPU], p, k.nco,
                                   (const char(*)[16])k.g->co, sdg);
        for (uint32_t c = 0; c < k.nco && c < HPDP_MAX_CORUNNERS; c++)
            k.sd_meas[HPDP_GPU][c] = sdg[HPDP_GPU][c];
        predict_work(m, p, &k);
        w[n++] = k;
    }
    free(tmp);
    return n;
}

/* Fills the decision inputs of w at co-runner weight wt, measured or predicted. */
static void inputs(const struct cwork *w, double wt, bool measured, bool ref_best,
                   struct hpdp_coloc *in)
{
    memset(in, 0, sizeof(*in));
    in->ref_best = ref_best;
    in->nco = w->nco < HPDP_MAX_CORUNNERS ? w->nco : HPDP_MAX_CORUNNERS;
    in->w_ocl = 1.0;
    for (int d = 0; d < 2; d++) {
        in->t_alone[d] = measured ? w->alone[d] : w->ta[d];
        in->t_coloc[d] = measured ? w->coloc[d] : w->tc[d];
        for (uint32_t c = 0; c < in->nco; c++)
            in->sd_co[d][c] = measured ? w->sd_meas[d][c] : w->sd_pred[d][c];
    }
    for (uint32_t c = 0; c < in->nco; c++)
        in->w_co[c] = wt;
}

static void account(const struct cwork *w, size_t n, bool ref_best, struct cstat st[2],
                    enum hpdp_dev *pick1, enum hpdp_dev *opt1)
{
    for (size_t i = 0; i < n; i++) {
        struct cstat *s = &st[w[i].nco > 1];
        s->n++;
        for (int k = 0; k < NWEIGHTS; k++) {
            struct hpdp_coloc m, p;
            double fm[2], fp[2];
            enum hpdp_dev opt, pick, dev[4];
            inputs(&w[i], weights[k], true, ref_best, &m);
            inputs(&w[i], weights[k], false, ref_best, &p);
            opt = hpdp_choose_coloc(&m, fm);
            pick = hpdp_choose_coloc(&p, fp);
            hpdp_confusion_add(&s->conf[k], pick, opt);
            dev[0] = HPDP_CPU;
            dev[1] = HPDP_GPU;
            dev[2] = pick;
            dev[3] = opt;
            for (int j = 0; j < 4; j++) {
                s->fair[k][j] += fm[dev[j]];
                s->lg[k][j] += log(w[i].coloc[dev[j]]);
            }
            if (weights[k] == 1.0) {
                double r = hpdp_fairness_ratio(fm[HPDP_CPU], fm[HPDP_GPU]);
                s->ratio_lo = s->n == 1 || r < s->ratio_lo ? r : s->ratio_lo;
                s->ratio_hi = s->n == 1 || r > s->ratio_hi ? r : s->ratio_hi;
            }
            if (weights[k] == 1.0 && pick1) {
                pick1[i] = pick;
                opt1[i] = opt;
            }
        }
    }
}

static int write_workloads(const char *out, const struct cwork *w, size_t n,
                           const enum hpdp_dev *pick, const enum hpdp_dev *opt)
{
    char path[1024];
    FILE *f;

    snprintf(path, sizeof(path), "%s/coloc_workloads.csv", out);
    if (!(f = fopen(path, "w")))
        return -1;
    fprintf(f, "app,kernel,threads,co_runners,alone_cpu_s,alone_gpu_s,coloc_cpu_s,coloc_gpu_s,"
               "pred_alone_cpu_s,pred_alone_gpu_s,pred_coloc_cpu_s,pred_coloc_gpu_s,"
               "co_sd_cpu,co_sd_gpu,pred_co_sd_cpu,pred_co_sd_gpu,heteropdp,oracle\n");
    for (size_t i = 0; i < n; i++) {
        const struct cwork *k = &w[i];
        fprintf(f, "%s,%s,%.0f,%u,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g", k->c->app, k->c->kernel,
                k->c->dyn.threads, k->nco, k->alone[0], k->alone[1], k->coloc[0], k->coloc[1],
                k->ta[0], k->ta[1], k->tc[0], k->tc[1]);
        for (int s = 0; s < 2; s++) /* per device, the co-runners' measured then predicted */
            for (int d = 0; d < 2; d++) {
                const double *v = s ? k->sd_pred[d] : k->sd_meas[d];
                fputc(',', f);
                for (uint32_t c = 0; c < k->nco; c++)
                    fprintf(f, "%s%.4g", c ? ";" : "", v[c]);
            }
        fprintf(f, ",%s,%s\n", pick[i] ? "gpu" : "cpu", opt[i] ? "gpu" : "cpu");
    }
    return fclose(f) ? -1 : 0;
}

/* Relative errors of the two co-located models over every co-located launch; sorted. */
static size_t coloc_errors(const struct hpdp_samples *s, const struct rt_hpdp_models *m,
                           enum rt_hpdp_which w, double *err)
{
    size_t n = 0;

    for (size_t i = 0; m->have[w] && i < s->n; i++) {
        const struct hpdp_sample *x = &s->v[i];
        if (hpdp_sample_fits(x, w) && x->kernel_s > 0)
            err[n++] = fabs(predict(m, w, x) - x->kernel_s) / x->kernel_s;
    }
    qsort(err, n, sizeof(double), cmp_double);
    return n;
}

static double share_within(const double *e, size_t n, double lim)
{
    size_t k = 0;

    while (k < n && e[k] <= lim)
        k++;
    return n ? (double)k / (double)n : 0.0;
}

/* The model-error section of coloc.md and coloc_error_cdf.csv. */
static int write_errors(const char *out, const struct hpdp_samples *s,
                        const struct rt_hpdp_models *m, FILE *md)
{
    static const enum rt_hpdp_which which[2] = {RT_HPDP_CPU_COLOC, RT_HPDP_GPU_COLOC};
    static const char *const paper[2] = {"68%", "72%"};
    double *err = calloc(s->n + 1, sizeof(double));
    char path[1024];
    FILE *f;

    snprintf(path, sizeof(path), "%s/coloc_error_cdf.csv", out);
    if (!err || !(f = fopen(path, "w"))) {
        free(err);
        return -1;
    }
    fprintf(f, "model,rank,share,relative_error\n");
    fprintf(md, "\n## Co-located model error\n\n| model | launches | within 20%% | median error "
                "| dissertation within 20%% |\n|---|---|---|---|---|\n");
    for (int d = 0; d < 2; d++) {
        size_t n = coloc_errors(s, m, which[d], err);
        for (size_t i = 0; i < n; i++)
            fprintf(f, "%s,%zu,%.6f,%.6g\n", rt_hpdp_model_name(which[d]), i + 1,
                    (double)(i + 1) / (double)n, err[i]);
        fprintf(md, "| %s | %zu | %.1f%% | %.1f%% | %s |\n", rt_hpdp_model_name(which[d]), n,
                100 * share_within(err, n, 0.2), n ? 100 * err[n / 2] : 0.0, paper[d]);
    }
    free(err);
    return fclose(f) ? -1 : 0;
}

/* One group's accuracy, confusion table and per-weight fairness in coloc.md. */
static void write_group(FILE *md, const struct cstat *s, const char *title, const char *paper)
{
    static const char *const names[4] = {"always-CPU", "always-GPU", "HeteroPDP", "oracle"};
    const struct hpdp_confusion *c = &s->conf[1]; /* weight 1 */

    fprintf(md, "\n## %s: %zu workloads\n\n", title, s->n);
    if (!s->n)
        return;
    fprintf(md,
            "Target-selection accuracy (max fairness, weight 1): **%.1f%%** (dissertation: %s)"
            "\n\n| predicted \\ optimal | CPU | GPU |\n|---|---|---|\n| CPU | %u | %u |\n"
            "| GPU | %u | %u |\n\nMeasured fairness ratio F_CMP / F_GPU: %.3g to %.3g.\n\n",
            100 * hpdp_accuracy(c), paper, c->cell[0][0], c->cell[0][1], c->cell[1][0],
            c->cell[1][1], s->ratio_lo, s->ratio_hi);
    fprintf(md, "Mean measured (weighted) fairness by co-runner weight (OpenCL weight 1), and "
                "the accuracy:\n\n| weight | always-CPU | always-GPU | HeteroPDP | oracle | "
                "accuracy |\n|---|---|---|---|---|---|\n");
    for (int k = 0; k < NWEIGHTS; k++) {
        fprintf(md, "| %.1f |", weights[k]);
        for (int j = 0; j < 4; j++)
            fprintf(md, " %.3f |", s->fair[k][j] / (double)s->n);
        fprintf(md, " %.1f%% |\n", 100 * hpdp_accuracy(&s->conf[k]));
    }
    fprintf(md, "\nOpenCL kernel's geometric-mean co-located time (weight 1), speedup over "
                "always-CPU:");
    for (int j = 0; j < 4; j++)
        fprintf(md, "%s %s %.3f", j ? "," : "", names[j], exp((s->lg[1][0] - s->lg[1][j]) / s->n));
    fprintf(md, ".\n");
}

/* fairness.svg: mean measured fairness per co-runner weight, four placements side by side. */
static int fairness_svg(const char *out, const struct cstat *s)
{
    static const char *const colour[4] = {"#999", "#669", "#c33", "#3a3"};
    char path[1024];
    FILE *f;

    snprintf(path, sizeof(path), "%s/fairness.svg", out);
    if (!(f = fopen(path, "w")))
        return -1;
    fprintf(f,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"460\" height=\"280\" "
            "font-family=\"sans-serif\" font-size=\"12\">\n<text x=\"10\" y=\"16\">Mean "
            "measured fairness by co-runner weight (%zu workloads, one co-runner)</text>\n"
            "<text x=\"10\" y=\"34\" fill=\"#999\">always-CPU</text><text x=\"90\" "
            "y=\"34\" fill=\"#669\">always-GPU</text><text x=\"170\" y=\"34\" "
            "fill=\"#c33\">HeteroPDP</text><text x=\"250\" y=\"34\" fill=\"#3a3\">oracle"
            "</text>\n",
            s->n);
    for (int k = 0; s->n && k < NWEIGHTS; k++) {
        for (int j = 0; j < 4; j++) {
            double h = 200 * s->fair[k][j] / (double)s->n;
            fprintf(f, "<rect x=\"%d\" y=\"%.1f\" width=\"16\" height=\"%.1f\" fill=\"%s\"/>\n",
                    30 + k * 85 + j * 17, 250 - h, h, colour[j]);
        }
        fprintf(f, "<text x=\"%d\" y=\"268\">w %.1f</text>\n", 45 + k * 85, weights[k]);
    }
    fprintf(f, "<line x1=\"25\" y1=\"50\" x2=\"450\" y2=\"50\" stroke=\"#ccc\"/>"
               "<text x=\"2\" y=\"54\">1.0</text>\n</svg>\n");
    return fclose(f) ? -1 : 0;
}

int hpdp_coloc_report(const struct rt_hpdp_models *m, const char *out, const struct hpdp_samples *s)
{
    struct rt_hpdp_press p = {envd("PTXSIM_HETEROPDP_CPU_LANES", 8.0),
                              envd("PTXSIM_HETEROPDP_LLC_MB", 8.0),
                              envd("PTXSIM_HETEROPDP_PCIE_GBS", 15.754)};
    struct cwork *w = calloc(s->n + 1, sizeof(*w));
    enum hpdp_dev *pick = calloc(s->n + 1, sizeof(*pick)), *opt = calloc(s->n + 1, sizeof(*opt));
    struct cstat st[2], best[2];
    char path[1024];
    size_t n = 0;
    FILE *md = NULL;
    int rc = -1;

    memset(st, 0, sizeof(st));
    memset(best, 0, sizeof(best));
    if (w && pick && opt && !(n = gather(s, m, &p, w)))
        rc = 0;
    snprintf(path, sizeof(path), "%s/coloc.md", out);
    if (n && (md = fopen(path, "w"))) {
        account(w, n, false, st, pick, opt);
        account(w, n, true, best, NULL, NULL);
        fprintf(md, "# HeteroPDP evaluation (co-located)\n\nEach workload: one kernel launch "
                    "(kernel x input size) beside synthetic co-runners, on both devices, with "
                    "its alone times. Goal: maximum (weighted) fairness, Eq. 6.4, with the "
                    "kernel's slowdown per device (Eq. 6.6 literally, the runtime's default "
                    "PTXSIM_HETEROPDP_SD_REF=device). The "
                    "co-runners' slowdowns are measured with the kernel on the CPU device and "
                    "modelled (their class's DRAM Bubble-up curve at the kernel's transfer "
                    "pressure) with it on the simulated GPU.\n");
        write_group(md, &st[0], "One co-runner", "72%; weighted 0.5-2.5 about 75%");
        write_group(md, &st[1], "Two co-runners, same models (no retraining)", "70%");
        rc = write_errors(out, s, m, md) || write_workloads(out, w, n, pick, opt) ||
                     fairness_svg(out, &st[0])
                 ? -1
                 : (int)n;
        fprintf(md, "\n# The OpenCL kernel's slowdown against its best alone time\n\nThe "
                    "same workloads with the kernel's slowdown on either device taken against "
                    "the smaller of its two alone times (PTXSIM_HETEROPDP_SD_REF=best; "
                    "extraction section 5.4 leaves the reference open), for the oracle and "
                    "HeteroPDP alike.\n");
        write_group(md, &best[0], "One co-runner, best-alone reference", "72%");
        write_group(md, &best[1], "Two co-runners, best-alone reference", "70%");
        if (fclose(md))
            rc = -1;
    }
    free(w);
    free(pick);
    free(opt);
    return rc;
}
