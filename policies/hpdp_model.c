/* HeteroPDP regression models: prediction, least-squares fit, k-fold (hpdp_model.h). */
#include "policies/hpdp_model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

uint32_t hpdp_term_count(uint32_t nf)
{
    return nf + nf * (nf ? nf - 1 : 0) / 2;
}

void hpdp_term_factors(uint32_t nf, uint32_t t, uint32_t *a, uint32_t *b)
{
    if (t < nf) {
        *a = *b = t;
        return;
    }
    t -= nf;
    for (uint32_t i = 0; i < nf; i++) {
        uint32_t row = nf - 1 - i; /* pairs (i, i+1..nf-1) */
        if (t < row) {
            *a = i;
            *b = i + 1 + t;
            return;
        }
        t -= row;
    }
    *a = *b = 0; /* out of range: callers never ask */
}

void hpdp_terms(uint32_t nf, const double *f, double *terms)
{
    uint32_t t = 0;

    for (uint32_t i = 0; i < nf; i++)
        terms[t++] = f[i];
    for (uint32_t i = 0; i < nf; i++)
        for (uint32_t j = i + 1; j < nf; j++)
            terms[t++] = f[i] * f[j];
}

double hpdp_predict(const struct hpdp_model *m, const double *f)
{
    double terms[HPDP_MAX_TERMS], sum = 0;
    uint32_t nt = hpdp_term_count(m->nf);

    hpdp_terms(m->nf, f, terms);
    for (uint32_t t = 0; t < nt; t++)
        sum += m->coef[t] * terms[t];
    return m->intercept ? sum + m->c0 : sum;
}

/* Solves the symmetric positive definite system A x = b (A is nt x nt, overwritten) by Cholesky. */
static int cholesky_solve(double *A, double *b, uint32_t nt)
{
    for (uint32_t j = 0; j < nt; j++) {
        double d = A[j * nt + j];
        for (uint32_t k = 0; k < j; k++)
            d -= A[j * nt + k] * A[j * nt + k];
        if (!(d > 0))
            return -1;
        d = sqrt(d);
        A[j * nt + j] = d;
        for (uint32_t i = j + 1; i < nt; i++) {
            double s = A[i * nt + j];
            for (uint32_t k = 0; k < j; k++)
                s -= A[i * nt + k] * A[j * nt + k];
            A[i * nt + j] = s / d;
        }
    }
    for (uint32_t i = 0; i < nt; i++) { /* L z = b */
        for (uint32_t k = 0; k < i; k++)
            b[i] -= A[i * nt + k] * b[k];
        b[i] /= A[i * nt + i];
    }
    for (uint32_t i = nt; i-- > 0;) { /* L^T x = z */
        for (uint32_t k = i + 1; k < nt; k++)
            b[i] -= A[k * nt + i] * b[k];
        b[i] /= A[i * nt + i];
    }
    return 0;
}

/* Fits on the samples whose fold (i % k) is not `skip` (skip >= k: all samples). */
/* The term values of one sample, plus a constant 1 last when there is an intercept. */
static void row(uint32_t nf, bool icpt, const double *f, double *terms)
{
    hpdp_terms(nf, f, terms);
    if (icpt)
        terms[hpdp_term_count(nf)] = 1.0;
}

#define MAXCOLS (HPDP_MAX_TERMS + 1)

static int fit_subset(struct hpdp_model *m, uint32_t nf, size_t n, const double *F, const double *y,
                      const double *w, bool icpt, uint32_t k, uint32_t skip)
{
    uint32_t nt = hpdp_term_count(nf) + icpt;
    double A[MAXCOLS * MAXCOLS] = {0}, b[MAXCOLS] = {0};
    double scale[MAXCOLS] = {0}, terms[MAXCOLS];
    size_t used = 0;

    for (size_t i = 0; i < n; i++) {
        if (k && i % k == skip)
            continue;
        row(nf, icpt, F + i * nf, terms);
        for (uint32_t t = 0; t < nt; t++)
            scale[t] += (w ? w[i] : 1.0) * terms[t] * terms[t];
        used++;
    }
    if (!used)
        return -1;
    for (uint32_t t = 0; t < nt; t++)
        scale[t] = scale[t] > 0 ? sqrt(scale[t] / (double)used) : 1.0;
    for (size_t i = 0; i < n; i++) {
        if (k && i % k == skip)
            continue;
        row(nf, icpt, F + i * nf, terms);
        for (uint32_t t = 0; t < nt; t++)
            terms[t] /= scale[t];
        for (uint32_t r = 0; r < nt; r++) {
            double wr = (w ? w[i] : 1.0) * terms[r];
            b[r] += wr * y[i];
            for (uint32_t c = 0; c < nt; c++)
                A[r * nt + c] += wr * terms[c];
        }
    }
    for (uint32_t t = 0; t < nt; t++) /* tiny ridge: only exactly collinear terms feel it */
        A[t * nt + t] += 1e-12 * (A[t * nt + t] > 0 ? A[t * nt + t] : 1.0) + 1e-15;
    if (cholesky_solve(A, b, nt))
        return -1;
    memset(m, 0, sizeof(*m));
    m->nf = nf;
    m->intercept = icpt;
    for (uint32_t t = 0; t + icpt < nt; t++)
        m->coef[t] = b[t] / scale[t];
    if (icpt)
        m->c0 = b[nt - 1] / scale[nt - 1];
    return 0;
}

int hpdp_fit(struct hpdp_model *m, uint32_t nf, size_t n, const double *F, const double *y)
{
    if (!n || !nf || nf > HPDP_MAX_FACTORS)
        return -1;
    return fit_subset(m, nf, n, F, y, NULL, false, 0, 0);
}

int hpdp_fit_weighted(struct hpdp_model *m, uint32_t nf, size_t n, const double *F, const double *y,
                      const double *w, bool intercept)
{
    if (!n || !nf || nf > HPDP_MAX_FACTORS)
        return -1;
    return fit_subset(m, nf, n, F, y, w, intercept, 0, 0);
}

double hpdp_r2(const struct hpdp_model *m, size_t n, const double *F, const double *y)
{
    double mean = 0, ss_res = 0, ss_tot = 0;

    for (size_t i = 0; i < n; i++)
        mean += y[i] / (double)n;
    for (size_t i = 0; i < n; i++) {
        double e = y[i] - hpdp_predict(m, F + i * m->nf), d = y[i] - mean;
        ss_res += e * e;
        ss_tot += d * d;
    }
    return ss_tot > 0 ? 1.0 - ss_res / ss_tot : (ss_res > 0 ? -INFINITY : 1.0);
}

double hpdp_kfold(uint32_t nf, size_t n, const double *F, const double *y, uint32_t k, double *pred)
{
    return hpdp_kfold_weighted(nf, n, F, y, NULL, false, k, pred);
}

double hpdp_kfold_weighted(uint32_t nf, size_t n, const double *F, const double *y, const double *w,
                           bool intercept, uint32_t k, double *pred)
{
    double mean = 0, ss_res = 0, ss_tot = 0;

    if (k < 2 || k > n || !nf || nf > HPDP_MAX_FACTORS)
        return -INFINITY;
    for (size_t i = 0; i < n; i++)
        mean += y[i] / (double)n;
    for (uint32_t fold = 0; fold < k; fold++) {
        struct hpdp_model m;
        if (fit_subset(&m, nf, n, F, y, w, intercept, k, fold))
            return -INFINITY;
        for (size_t i = fold; i < n; i += k) {
            double p = hpdp_predict(&m, F + i * nf), e = y[i] - p, d = y[i] - mean;
            if (pred)
                pred[i] = p;
            ss_res += e * e;
            ss_tot += d * d;
        }
    }
    return ss_tot > 0 ? 1.0 - ss_res / ss_tot : (ss_res > 0 ? -INFINITY : 1.0);
}
