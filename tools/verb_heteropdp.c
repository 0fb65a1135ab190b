/*
 * ptxsim heteropdp: HeteroPDP's offline side (docs/heteropdp.md).
 *
 *   ptxsim heteropdp train --out DIR [--k K] LOG...
 *       fits the four interaction-term models (no intercept) to the launches
 *       of the logs (PTXSIM_HETEROPDP_LOG): CPU-device launches train the CMP
 *       models, GPU launches the GPU models (target: the kernel's time without
 *       the modelled transfer, which the runtime adds analytically), launches
 *       with co-runners the co-located ones; least squares weighted by 1/y^2
 *       (relative error; --absolute: plain), k-fold cross-validation (default
 *       5) reports the out-of-fold R^2 and share within 20%. Writes
 *       DIR/models.txt and DIR/train.txt.
 *   ptxsim heteropdp report --models DIR --out DIR LOG...
 *       evaluates the models on the launches that ran on both devices
 *       (tools/hpdp_report.c).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/err.h"
#include "runtime/hpdp_models.h"
#include "tools/hpdp_log.h"
#include "tools/hpdp_report.h"
#include "tools/verbs.h"

static void usage(void)
{
    fprintf(stderr,
            "usage: ptxsim heteropdp train --out DIR [--k K] [--absolute] [--intercept] LOG...\n"
            "       ptxsim heteropdp report --models DIR --out DIR LOG...\n");
}

struct train_opts {
    uint32_t k;
    bool relative;  /* weights 1/y^2: least relative squared error (default) */
    bool intercept; /* add the constant term (section 5.8 F allows it; off by default) */
};

/* Share of samples whose held-out prediction is within 20% of the measured time. */
static double within20(const double *y, const double *pred, size_t n)
{
    size_t in = 0;

    for (size_t i = 0; i < n; i++)
        in += y[i] > 0 && fabs(pred[i] - y[i]) <= 0.2 * y[i];
    return n ? (double)in / (double)n : 0.0;
}

/* Fits model w on its samples; prints its line of train.txt. 1 when fitted. */
static int train_one(const struct hpdp_samples *s, enum rt_hpdp_which w, const struct train_opts *o,
                     struct rt_hpdp_models *out, FILE *sum)
{
    uint32_t nf = rt_hpdp_model_factors(w), nt = hpdp_term_count(nf);
    double *F = calloc(s->n * nf + 1, sizeof(double)), *y = calloc(s->n + 1, sizeof(double));
    double *wt = calloc(s->n + 1, sizeof(double)), *pred = calloc(s->n + 1, sizeof(double));
    size_t n = 0;
    int fitted = 0;

    for (size_t i = 0; F && y && wt && pred && i < s->n; i++) {
        if (!hpdp_sample_fits(&s->v[i], w) || !(s->v[i].kernel_s > 0))
            continue;
        hpdp_sample_factors(&s->v[i], w, F + n * nf);
        y[n] = s->v[i].kernel_s;
        wt[n] = o->relative ? 1.0 / (y[n] * y[n]) : 1.0;
        n++;
    }
    if (n >= nt && n >= o->k && hpdp_fit_weighted(&out->m[w], nf, n, F, y, wt, o->intercept) == 0) {
        double r2k = hpdp_kfold_weighted(nf, n, F, y, wt, o->intercept, o->k, pred);
        out->have[w] = true;
        fitted = 1;
        fprintf(sum, "%-10s samples %4zu terms %2u R2 %.4f kfold(%u) R2 %.4f within20 %.3f\n",
                rt_hpdp_model_name(w), n, nt, hpdp_r2(&out->m[w], n, F, y), o->k, r2k,
                within20(y, pred, n));
    } else {
        fprintf(sum, "%-10s samples %4zu terms %2u not trained (needs at least %u samples)\n",
                rt_hpdp_model_name(w), n, nt, nt > o->k ? nt : o->k);
    }
    free(F);
    free(y);
    free(wt);
    free(pred);
    return fitted;
}

static int write_models(const char *dir, const struct rt_hpdp_models *m)
{
    char path[1024];
    FILE *f;
    int rc;

    snprintf(path, sizeof(path), "%s/models.txt", dir);
    if (!(f = fopen(path, "w"))) {
        fprintf(stderr, "ptxsim heteropdp: cannot write %s\n", path);
        return 1;
    }
    rc = rt_hpdp_models_write(f, m);
    return fclose(f) || rc ? 1 : 0;
}

static int train(const char *out, const struct train_opts *o, const struct hpdp_samples *s)
{
    struct rt_hpdp_models m;
    char path[1024];
    FILE *sum;
    int n = 0;

    memset(&m, 0, sizeof(m));
    snprintf(path, sizeof(path), "%s/train.txt", out);
    if (!(sum = fopen(path, "w"))) {
        fprintf(stderr, "ptxsim heteropdp: cannot write %s\n", path);
        return 1;
    }
    fprintf(sum,
            "# ptxsim heteropdp train: %zu launches, %s least squares, k-fold held-out "
            "R2 and share within 20%%\n",
            s->n, o->relative ? "relative (weights 1/y^2)" : "absolute");
    fprintf(sum, "# model form: interaction terms%s\n",
            o->intercept ? " plus a constant term (--intercept)" : ", no intercept");
    for (int w = 0; w < RT_HPDP_NMODELS; w++)
        n += train_one(s, (enum rt_hpdp_which)w, o, &m, sum);
    fclose(sum);
    if (!n) {
        fprintf(stderr, "ptxsim heteropdp: no model could be trained (see %s)\n", path);
        return 1;
    }
    return write_models(out, &m);
}

int verb_heteropdp(int argc, char **argv)
{
    const char *out = NULL, *models = NULL;
    struct hpdp_samples s = {0};
    struct train_opts o = {.k = 5, .relative = true};
    int i = 1, rc;

    if (argc < 2 || (strcmp(argv[0], "train") && strcmp(argv[0], "report"))) {
        usage();
        return 2;
    }
    for (; i < argc && !strncmp(argv[i], "--", 2); i += 2) {
        if (!strcmp(argv[i], "--absolute") || !strcmp(argv[i], "--intercept")) {
            o.relative = o.relative && strcmp(argv[i], "--absolute");
            o.intercept = o.intercept || !strcmp(argv[i], "--intercept");
            i--;
            continue;
        }
        if (i + 1 >= argc) {
            usage();
            return 2;
        }
        if (!strcmp(argv[i], "--out"))
            out = argv[i + 1];
        else if (!strcmp(argv[i], "--models"))
            models = argv[i + 1];
        else if (!strcmp(argv[i], "--k") && atoi(argv[i + 1]) >= 2)
            o.k = (uint32_t)atoi(argv[i + 1]);
        else {
            usage();
            return 2;
        }
    }
    if (!out || i >= argc || (!strcmp(argv[0], "report") && !models)) {
        usage();
        return 2;
    }
    if (mkdir(out, 0777) && errno != EEXIST) {
        fprintf(stderr, "ptxsim heteropdp: cannot create %s\n", out);
        return 1;
    }
    for (; i < argc; i++)
        if (hpdp_log_read(argv[i], &s))
            return 1;
    rc = !strcmp(argv[0], "train") ? train(out, &o, &s) : hpdp_report(models, out, &s);
    hpdp_samples_free(&s);
    return rc;
}
