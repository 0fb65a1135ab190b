/*
 * HeteroPDP's interaction-term regression models (dissertation chapter 6,
 * extraction section 5.4; docs/heteropdp.md).
 *
 * A model over n factors f_0..f_{n-1} predicts
 *     time = sum_i c_i * f_i + sum_{i<j} c_ij * f_i * f_j
 * with no intercept and no squared terms: n + n(n-1)/2 terms, in the order
 * of hpdp_terms (the n single factors, then the pairs (0,1), (0,2), ...,
 * (0,n-1), (1,2), ...). Fitting is ordinary least squares without intercept;
 * each term column is scaled by its root mean square before solving (and the
 * coefficients scaled back), so features in natural units (bytes, threads)
 * do not make the normal equations singular, plus a tiny ridge (1e-12 of the
 * scaled diagonal) that only matters for exactly collinear terms.
 */
#ifndef PTXSIM_POLICIES_HPDP_MODEL_H
#define PTXSIM_POLICIES_HPDP_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HPDP_MAX_FACTORS 10u
#define HPDP_MAX_TERMS 55u /* 10 + 45 */

struct hpdp_model {
    uint32_t nf;                 /* factors */
    double coef[HPDP_MAX_TERMS]; /* hpdp_term_count(nf) used */
    bool intercept;              /* the optional constant term (section 5.8 F); off: the
                                    dissertation's form */
    double c0;                   /* its coefficient */
};

/* n + n(n-1)/2. */
uint32_t hpdp_term_count(uint32_t nf);

/* The factors (or pair of factors; b == a for a single factor) of term t. */
void hpdp_term_factors(uint32_t nf, uint32_t t, uint32_t *a, uint32_t *b);

/* Expands nf factor values into the hpdp_term_count(nf) term values. */
void hpdp_terms(uint32_t nf, const double *f, double *terms);

/* sum over terms of coef * term value. */
double hpdp_predict(const struct hpdp_model *m, const double *f);

/*
 * Least squares without intercept over n samples: F is n x nf (row major),
 * y the n measured times. Fills m (m->nf = nf). Returns 0, or -1 when there
 * are no samples or nf is out of range.
 */
int hpdp_fit(struct hpdp_model *m, uint32_t nf, size_t n, const double *F, const double *y);
/*
 * The same, each sample's squared error weighted by w[i] (w NULL: all 1),
 * with the optional constant term when intercept is true.
 * Weights 1/y^2 minimise relative rather than absolute error, which suits
 * times spanning orders of magnitude (ptxsim heteropdp train's default).
 */
int hpdp_fit_weighted(struct hpdp_model *m, uint32_t nf, size_t n, const double *F, const double *y,
                      const double *w, bool intercept);

/* Coefficient of determination of m over n samples (1 - SSres/SStot about the mean). */
double hpdp_r2(const struct hpdp_model *m, size_t n, const double *F, const double *y);

/*
 * k-fold cross-validation: sample i is in fold i % k; each fold is predicted
 * by a model fitted on the others. Returns the pooled out-of-fold R^2
 * (1 - sum of squared held-out errors / sum of squares about the mean), or
 * -INFINITY when k < 2 or k > n. Fills pred[i] with the held-out prediction
 * of sample i when pred is non-NULL.
 */
double hpdp_kfold(uint32_t nf, size_t n, const double *F, const double *y, uint32_t k,
                  double *pred);
/* k-fold with weighted fits (the pooled R^2 stays unweighted). */
double hpdp_kfold_weighted(uint32_t nf, size_t n, const double *F, const double *y, const double *w,
                           bool intercept, uint32_t k, double *pred);

#endif
