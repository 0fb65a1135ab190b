/* ptxsim heteropdp report (hpdp_report.h). */
#include "tools/hpdp_report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "policies/hpdp_policy.h"
#include "tools/hpdp_coloc.h"

struct workload {
    const struct hpdp_sample *c, *g;
    double pred[2], act[2]; /* [HPDP_CPU], [HPDP_GPU], seconds */
    enum hpdp_dev pick, opt;
};

struct summary {
    size_t n;
    struct hpdp_confusion conf;
    double lg[4]; /* sums of log time: always-CPU, always-GPU, HeteroPDP, oracle */
    double within20[2];
    size_t nerr[2];
    double *err[2]; /* relative errors of the cpu_alone and gpu_alone models */
};

static double predict(const struct rt_hpdp_models *m, enum rt_hpdp_which w,
                      const struct hpdp_sample *x)
{
    double f[HPDP_MAX_FACTORS];

    hpdp_sample_factors(x, w, f);
    return m->have[w] ? hpdp_predict(&m->m[w], f) : INFINITY;
}

/* Pairs each alone CPU launch with an unused alone GPU launch of the same app, kernel and sizes. */
static size_t pair(const struct hpdp_samples *s, const struct rt_hpdp_models *m, struct workload *w)
{
    char *used = calloc(s->n + 1, 1);
    size_t n = 0;

    for (size_t i = 0; used && i < s->n; i++) {
        const struct hpdp_sample *c = &s->v[i];
        if (c->gpu || c->nco || !c->havec)
            continue;
        for (size_t j = 0; j < s->n; j++) {
            const struct hpdp_sample *g = &s->v[j];
            if (used[j] || !g->gpu || g->nco || strcmp(c->app, g->app) ||
                strcmp(c->kernel, g->kernel) || c->dyn.threads != g->dyn.threads ||
                c->dyn.buffer_bytes != g->dyn.buffer_bytes)
                continue;
            used[j] = 1;
            w[n] = (struct workload){.c = c, .g = g};
            w[n].act[HPDP_CPU] = c->time_s;
            w[n].act[HPDP_GPU] = g->time_s;
            w[n].pred[HPDP_CPU] = predict(m, RT_HPDP_CPU_ALONE, c);
            w[n].pred[HPDP_GPU] = predict(m, RT_HPDP_GPU_ALONE, g) + g->xfer_s;
            w[n].pick = hpdp_choose_alone(w[n].pred[HPDP_CPU], w[n].pred[HPDP_GPU]);
            w[n].opt = hpdp_choose_alone(w[n].act[HPDP_CPU], w[n].act[HPDP_GPU]);
            n++;
            break;
        }
    }
    free(used);
    return n;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

/* Relative errors of the alone models over every launch they predict. */
static void model_errors(const struct hpdp_samples *s, const struct rt_hpdp_models *m,
                         struct summary *sum)
{
    static const enum rt_hpdp_which which[2] = {RT_HPDP_CPU_ALONE, RT_HPDP_GPU_ALONE};

    for (int d = 0; d < 2; d++) {
        sum->err[d] = calloc(s->n + 1, sizeof(double));
        for (size_t i = 0; sum->err[d] && i < s->n; i++) {
            const struct hpdp_sample *x = &s->v[i];
            double e;
            if (!hpdp_sample_fits(x, which[d]) || !(x->kernel_s > 0))
                continue;
            e = fabs(predict(m, which[d], x) - x->kernel_s) / x->kernel_s;
            sum->err[d][sum->nerr[d]++] = e;
            sum->within20[d] += e <= 0.2;
        }
        if (sum->err[d])
            qsort(sum->err[d], sum->nerr[d], sizeof(double), cmp_double);
        sum->within20[d] = sum->nerr[d] ? sum->within20[d] / sum->nerr[d] : 0;
    }
}

static void summarise(const struct workload *w, size_t n, struct summary *sum)
{
    sum->n = n;
    for (size_t i = 0; i < n; i++) {
        hpdp_confusion_add(&sum->conf, w[i].pick, w[i].opt);
        sum->lg[0] += log(w[i].act[HPDP_CPU]);
        sum->lg[1] += log(w[i].act[HPDP_GPU]);
        sum->lg[2] += log(w[i].act[w[i].pick]);
        sum->lg[3] += log(w[i].act[w[i].opt]);
    }
}

static int write_csv(const char *out, const struct workload *w, size_t n, const struct summary *sum)
{
    char path[1024];
    FILE *f;

    snprintf(path, sizeof(path), "%s/workloads.csv", out);
    if (!(f = fopen(path, "w")))
        return 1;
    fprintf(f,
            "app,kernel,threads,buffer_bytes,cpu_s,gpu_s,pred_cpu_s,pred_gpu_s,heteropdp,oracle\n");
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%s,%s,%.0f,%.0f,%.9g,%.9g,%.9g,%.9g,%s,%s\n", w[i].c->app, w[i].c->kernel,
                w[i].c->dyn.threads, w[i].c->dyn.buffer_bytes, w[i].act[0], w[i].act[1],
                w[i].pred[0], w[i].pred[1], w[i].pick ? "gpu" : "cpu", w[i].opt ? "gpu" : "cpu");
    fclose(f);
    snprintf(path, sizeof(path), "%s/error_cdf.csv", out);
    if (!(f = fopen(path, "w")))
        return 1;
    fprintf(f, "model,rank,share,relative_error\n");
    for (int d = 0; d < 2; d++)
        for (size_t i = 0; i < sum->nerr[d]; i++)
            fprintf(f, "%s,%zu,%.6f,%.6g\n", d ? "gpu_alone" : "cpu_alone", i + 1,
                    (double)(i + 1) / sum->nerr[d], sum->err[d][i]);
    fclose(f);
    return 0;
}

/* speedup.svg: geometric-mean speedup over always-CPU of the four placements, as bars. */
static int speedup_svg(const char *out, const struct summary *s)
{
    static const char *const names[4] = {"always-CPU", "always-GPU", "HeteroPDP", "oracle"};
    char path[1024];
    double sp[4], top = 0;
    FILE *f;

    snprintf(path, sizeof(path), "%s/speedup.svg", out);
    if (!(f = fopen(path, "w")))
        return 1;
    for (int i = 0; i < 4; i++) {
        sp[i] = exp((s->lg[0] - s->lg[i]) / (double)s->n);
        top = sp[i] > top ? sp[i] : top;
    }
    fprintf(f,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"420\" height=\"260\" "
            "font-family=\"sans-serif\" font-size=\"12\">\n<text x=\"10\" y=\"16\">"
            "Geomean speedup over always-CPU (%zu workloads, alone)</text>\n",
            s->n);
    for (int i = 0; i < 4; i++) {
        double h = 180 * sp[i] / top;
        fprintf(f,
                "<rect x=\"%d\" y=\"%.1f\" width=\"60\" height=\"%.1f\" fill=\"%s\"/>\n"
                "<text x=\"%d\" y=\"%.1f\">%.2f</text>\n<text x=\"%d\" y=\"250\">%s</text>\n",
                30 + i * 95, 220 - h, h, i == 2 ? "#c33" : "#669", 40 + i * 95, 215 - h, sp[i],
                22 + i * 95, names[i]);
    }
    fprintf(f, "</svg>\n");
    return fclose(f) ? 1 : 0;
}

/* error_cdf.svg: the cumulative share of launches against relative error, per model. */
static int cdf_svg(const char *out, const struct summary *s)
{
    static const char *const colour[2] = {"#c33", "#36c"};
    char path[1024];
    FILE *f;

    snprintf(path, sizeof(path), "%s/error_cdf.svg", out);
    if (!(f = fopen(path, "w")))
        return 1;
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"420\" height=\"280\" "
               "font-family=\"sans-serif\" font-size=\"12\">\n<text x=\"10\" y=\"16\">"
               "Prediction error CDF (x: relative error 0-100%%; red cpu_alone, blue gpu_alone)"
               "</text>\n<rect x=\"40\" y=\"30\" width=\"360\" height=\"220\" fill=\"none\" "
               "stroke=\"#999\"/>\n<line x1=\"112\" y1=\"30\" x2=\"112\" y2=\"250\" "
               "stroke=\"#999\" stroke-dasharray=\"4\"/>\n<text x=\"100\" y=\"266\">20%%</text>\n");
    for (int d = 0; d < 2; d++) {
        fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" points=\"40,250", colour[d]);
        for (size_t i = 0; i < s->nerr[d]; i++) {
            double e = s->err[d][i] > 1 ? 1 : s->err[d][i];
            fprintf(f, " %.1f,%.1f", 40 + 360 * e, 250 - 220.0 * (double)(i + 1) / s->nerr[d]);
        }
        fprintf(f, "\"/>\n");
    }
    fprintf(f, "</svg>\n");
    return fclose(f) ? 1 : 0;
}

static int hpdp_report_figures(const char *out, const struct summary *sum)
{
    return speedup_svg(out, sum) || cdf_svg(out, sum);
}

static int write_summary(const char *out, const struct summary *s, int ncoloc)
{
    char path[1024];
    FILE *f;
    double g[4], sp[4];

    snprintf(path, sizeof(path), "%s/summary.md", out);
    if (!(f = fopen(path, "w")))
        return 1;
    for (int i = 0; i < 4; i++) {
        g[i] = exp(s->lg[i] / (double)s->n);
        sp[i] = g[0] / g[i];
    }
    fprintf(f,
            "# HeteroPDP evaluation (alone)\n\n%zu workloads (kernel x input size) measured on "
            "both devices.\n\n",
            s->n);
    fprintf(f,
            "Target-selection accuracy: **%.1f%%** (dissertation: 80%% alone, 72%% co-located)"
            "\n\n| predicted \\ optimal | CPU | GPU |\n|---|---|---|\n| CPU | %u | %u |\n"
            "| GPU | %u | %u |\n\n",
            100 * hpdp_accuracy(&s->conf), s->conf.cell[0][0], s->conf.cell[0][1],
            s->conf.cell[1][0], s->conf.cell[1][1]);
    fprintf(f, "| placement | geomean time (s) | speedup over always-CPU |\n|---|---|---|\n");
    static const char *const names[4] = {"always-CPU", "always-GPU", "HeteroPDP", "oracle"};
    for (int i = 0; i < 4; i++)
        fprintf(f, "| %s | %.6g | %.3f |\n", names[i], g[i], sp[i]);
    fprintf(f, "\nGap closed (HeteroPDP - GPU) / (oracle - GPU): %.1f%% (dissertation: 72%%)\n\n",
            sp[3] != sp[1] ? 100 * (sp[2] - sp[1]) / (sp[3] - sp[1]) : 100.0);
    fprintf(f,
            "Model error within 20%%: cpu_alone %.1f%% of %zu launches (dissertation 73%%), "
            "gpu_alone %.1f%% of %zu (dissertation 70%%).\n",
            100 * s->within20[0], s->nerr[0], 100 * s->within20[1], s->nerr[1]);
    if (ncoloc > 0)
        fprintf(f, "\nCo-located evaluation (%d workloads): coloc.md.\n", ncoloc);
    fclose(f);
    return 0;
}

int hpdp_report(const char *models_dir, const char *out, const struct hpdp_samples *s)
{
    struct rt_hpdp_models m;
    struct summary sum;
    struct ps_err err;
    struct workload *w = calloc(s->n + 1, sizeof(*w));
    size_t n;
    int rc = 1, nc;

    memset(&sum, 0, sizeof(sum));
    memset(&err, 0, sizeof(err));
    if (!w || rt_hpdp_models_load(models_dir, &m, &err)) {
        fprintf(stderr, "ptxsim heteropdp: %s\n", w ? err.msg : "out of memory");
        free(w);
        return 1;
    }
    n = pair(s, &m, w);
    nc = hpdp_coloc_report(&m, out, s);
    if (!n && nc <= 0) {
        fprintf(stderr, "ptxsim heteropdp: %s\n",
                nc ? "cannot write the co-located report"
                   : "no launch ran on both devices, alone or beside co-runners");
    } else if (n) {
        summarise(w, n, &sum);
        model_errors(s, &m, &sum);
        rc = nc < 0 || write_csv(out, w, n, &sum) || write_summary(out, &sum, nc) ||
             hpdp_report_figures(out, &sum);
        if (rc)
            fprintf(stderr, "ptxsim heteropdp: cannot write the report in %s\n", out);
    } else {
        rc = 0; /* co-located workloads only: coloc.md */
    }
    free(sum.err[0]);
    free(sum.err[1]);
    free(w);
    return rc;
}
