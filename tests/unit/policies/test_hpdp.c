/*
 * Unit tests for HeteroPDP's arithmetic (policies/hpdp_model.h,
 * policies/hpdp_policy.h): the test oracles 1-9 of the dissertation
 * extraction, section 5.7, plus the least-squares fit and k-fold
 * cross-validation recovering a known interaction model.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>

#include <cmocka.h>

#include "policies/hpdp_model.h"
#include "policies/hpdp_policy.h"

/* Oracle 1: predict = sum c * f1 * (f2 or 1); {T: 2, Buf: 0, T*Buf: 0.5}, T = 3, Buf = 4 -> 12. */
static void test_oracle1_predict(void **state)
{
    struct hpdp_model m = {.nf = 2, .coef = {2.0, 0.0, 0.5}};
    const double f[2] = {3, 4};
    uint32_t a, b;

    (void)state;
    hpdp_term_factors(2, 2, &a, &b);
    assert_int_equal(a, 0);
    assert_int_equal(b, 1);
    assert_true(fabs(hpdp_predict(&m, f) - 12.0) < 1e-12);
}

/* Oracle 2: n + n(n-1)/2 terms: 36 for 8 factors, 45 for 9, 55 for 10. */
static void test_oracle2_term_counts(void **state)
{
    double f[10], t[HPDP_MAX_TERMS];
    uint32_t a, b;

    (void)state;
    assert_int_equal(hpdp_term_count(8), 36);
    assert_int_equal(hpdp_term_count(9), 45);
    assert_int_equal(hpdp_term_count(10), 55);
    assert_int_equal(hpdp_term_count(1), 1);
    for (int i = 0; i < 10; i++)
        f[i] = i + 2;
    hpdp_terms(10, f, t);
    for (uint32_t k = 0; k < 55; k++) { /* every term is the product of its factors */
        hpdp_term_factors(10, k, &a, &b);
        assert_true(fabs(t[k] - (a == b ? f[a] : f[a] * f[b])) < 1e-9);
        assert_true(k < 10 ? a == b : a < b);
    }
}

/* Oracle 3: {1.2, 3.0} -> 0.4; weights (CPU 2.0, OCL 1.0) -> {2.4, 3.0} -> 0.8. */
static void test_oracle3_fairness(void **state)
{
    const double sd[2] = {1.2, 3.0}, w[2] = {2.0, 1.0};

    (void)state;
    assert_true(fabs(hpdp_fairness(sd, NULL, 2) - 0.4) < 1e-12);
    assert_true(fabs(hpdp_fairness(sd, w, 2) - 0.8) < 1e-12);
}

/* Oracle 4: F_CMP 0.6, F_GPU 0.3 -> ratio 2.0, the CMP preferred. */
static void test_oracle4_ratio(void **state)
{
    struct hpdp_coloc in = {.t_alone = {1, 1}, .t_coloc = {1, 1}, .nco = 1, .w_ocl = 1};

    (void)state;
    assert_true(fabs(hpdp_fairness_ratio(0.6, 0.3) - 2.0) < 1e-12);
    /* the same fairnesses out of the co-located rule: OpenCL slowdown 1, co-runner 1/0.6, 1/0.3 */
    in.sd_co[HPDP_CPU][0] = 1 / 0.6;
    in.sd_co[HPDP_GPU][0] = 1 / 0.3;
    in.w_co[0] = 1;
    assert_int_equal(hpdp_choose_coloc(&in, NULL), HPDP_CPU);
}

/*
 * The slowdown reference: per device (literal Eq. 6.6), a slow CPU placement
 * with no co-location loss is perfectly fair; against the best alone time it
 * is a 4x slowdown, and the GPU wins.
 */
static void test_ref_best(void **state)
{
    struct hpdp_coloc in = {.t_alone = {4, 1}, .t_coloc = {4, 1.5}, .nco = 1, .w_ocl = 1};
    double f[2];

    (void)state;
    in.sd_co[HPDP_CPU][0] = 1.0;
    in.sd_co[HPDP_GPU][0] = 1.2;
    in.w_co[0] = 1;
    assert_int_equal(hpdp_choose_coloc(&in, f), HPDP_CPU);
    assert_true(fabs(f[HPDP_CPU] - 1.0) < 1e-12 && fabs(f[HPDP_GPU] - 1.2 / 1.5) < 1e-12);
    in.ref_best = true;
    assert_int_equal(hpdp_choose_coloc(&in, f), HPDP_GPU);
    assert_true(fabs(f[HPDP_CPU] - 0.25) < 1e-12 && fabs(f[HPDP_GPU] - 1.2 / 1.5) < 1e-12);
}

/* Oracle 5: Ta = {CMP 5, GPU 2} -> GPU; swapped -> CMP; a tie -> GPU. */
static void test_oracle5_alone(void **state)
{
    (void)state;
    assert_int_equal(hpdp_choose_alone(5, 2), HPDP_GPU);
    assert_int_equal(hpdp_choose_alone(2, 5), HPDP_CPU);
    assert_int_equal(hpdp_choose_alone(3, 3), HPDP_GPU);
}

/*
 * Oracle 6: the larger (weighted) fairness wins; raising the CPU app's weight never moves
 * the decision from GPU to CMP when the GPU placement gives that app the lower slowdown.
 * Under Eq. 6.4 with the OpenCL slowdown measured per device, this holds when the kernel's
 * own slowdown on the CMP is no larger than on the GPU scaled by the co-runner's slowdown
 * ratio (b_C/a_C <= b_G/a_G, docs/heteropdp.md); the grid keeps to that premise.
 */
static void test_oracle6_coloc(void **state)
{
    static const double vals[] = {1.0, 1.1, 1.3, 1.7, 2.2, 3.0};
    static const double weights[] = {0.5, 1.0, 1.5, 2.0, 2.5};
    const size_t nv = sizeof(vals) / sizeof(vals[0]);
    double fair[2];

    (void)state;
    for (size_t ag = 0; ag < nv; ag++)
        for (size_t ac = ag + 1; ac < nv; ac++) /* a_G < a_C: the GPU is gentler on the app */
            for (size_t bg = 0; bg < nv; bg++)
                for (size_t bc = 0; bc < nv; bc++) {
                    struct hpdp_coloc in = {.t_alone = {1, 1}, .nco = 1, .w_ocl = 1};
                    int gpu_seen = 0;

                    if (vals[bc] / vals[ac] > vals[bg] / vals[ag])
                        continue;
                    in.t_coloc[HPDP_CPU] = vals[bc];
                    in.t_coloc[HPDP_GPU] = vals[bg];
                    in.sd_co[HPDP_CPU][0] = vals[ac];
                    in.sd_co[HPDP_GPU][0] = vals[ag];
                    for (size_t w = 0; w < 5; w++) {
                        enum hpdp_dev d;
                        in.w_co[0] = weights[w];
                        d = hpdp_choose_coloc(&in, fair);
                        assert_int_equal(d, fair[HPDP_CPU] > fair[HPDP_GPU] + 1e-12 ? HPDP_CPU
                                                                                    : HPDP_GPU);
                        if (gpu_seen)
                            assert_int_equal(d, HPDP_GPU);
                        gpu_seen |= d == HPDP_GPU;
                    }
                }
}

/* Oracle 7: monotone non-decreasing, 1.0 at zero pressure, linear between points. */
static void test_oracle7_bubble(void **state)
{
    struct hpdp_bubble b = {0};
    double last = 1.0;

    (void)state;
    assert_true(hpdp_bubble_lookup(&b, 5.0) == 1.0);
    assert_int_equal(hpdp_bubble_add(&b, 2.0, 1.2), 0);
    assert_int_equal(hpdp_bubble_add(&b, 4.0, 1.1), 0); /* a noisy dip is held at 1.2 */
    assert_int_equal(hpdp_bubble_add(&b, 8.0, 2.0), 0);
    assert_int_equal(hpdp_bubble_add(&b, 8.0, 3.0), -1); /* not increasing */
    assert_true(hpdp_bubble_lookup(&b, 0.0) == 1.0);
    assert_true(fabs(hpdp_bubble_lookup(&b, 1.0) - 1.1) < 1e-12);
    assert_true(fabs(hpdp_bubble_lookup(&b, 6.0) - 1.6) < 1e-12);
    assert_true(fabs(hpdp_bubble_lookup(&b, 100.0) - 2.0) < 1e-12);
    for (double p = 0; p < 12; p += 0.25) {
        double s = hpdp_bubble_lookup(&b, p);
        assert_true(s >= last);
        last = s;
    }
}

/* Oracle 8: co-located time equal to alone time is slowdown 1.0. */
static void test_oracle8_slowdown(void **state)
{
    (void)state;
    assert_true(hpdp_slowdown(3.5, 3.5) == 1.0);
    assert_true(fabs(hpdp_slowdown(7.0, 3.5) - 2.0) < 1e-12);
}

/* Oracle 9: accuracy = [X, X] outcomes / N; the four cells sum to N. */
static void test_oracle9_accuracy(void **state)
{
    struct hpdp_confusion c = {0};
    static const int pred[] = {0, 0, 1, 1, 1, 1, 0, 1, 1, 0};
    static const int opt[] = {0, 1, 1, 1, 0, 1, 0, 1, 1, 1};

    (void)state;
    assert_true(hpdp_accuracy(&c) == 0.0);
    for (int i = 0; i < 10; i++)
        hpdp_confusion_add(&c, (enum hpdp_dev)pred[i], (enum hpdp_dev)opt[i]);
    assert_int_equal(hpdp_confusion_total(&c), 10);
    assert_int_equal(c.cell[0][0], 2);
    assert_int_equal(c.cell[1][1], 5);
    assert_true(fabs(hpdp_accuracy(&c) - 0.7) < 1e-12);
}

/* The fit recovers a known 3-factor interaction model exactly; k-fold R^2 is then 1. */
static void test_fit_recovers(void **state)
{
    const struct hpdp_model truth = {.nf = 3, .coef = {1e-3, 2e-9, 0.5, 3e-12, -1e-4, 7e-10}};
    double F[40 * 3], y[40], pred[40];
    struct hpdp_model m;

    (void)state;
    for (int i = 0; i < 40; i++) {
        F[i * 3 + 0] = 1024.0 * (1 + i % 7);        /* threads */
        F[i * 3 + 1] = 4096.0 * (1 + (i * 5) % 11); /* bytes */
        F[i * 3 + 2] = 3 + (i * 3) % 13;            /* instructions */
        y[i] = hpdp_predict(&truth, F + i * 3);
    }
    assert_int_equal(hpdp_fit(&m, 3, 40, F, y), 0);
    for (uint32_t t = 0; t < 6; t++)
        assert_true(fabs(m.coef[t] - truth.coef[t]) <= 1e-4 * fabs(truth.coef[t]));
    assert_true(hpdp_r2(&m, 40, F, y) > 0.999999);
    assert_true(hpdp_kfold(3, 40, F, y, 5, pred) > 0.999999);
    assert_true(fabs(pred[7] - y[7]) < 1e-6 * fabs(y[7]));
    assert_true(isinf(hpdp_kfold(3, 40, F, y, 1, NULL)));
    assert_int_equal(hpdp_fit(&m, 3, 0, F, y), -1);
    assert_int_equal(hpdp_fit(&m, 11, 40, F, y), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_oracle1_predict),  cmocka_unit_test(test_oracle2_term_counts),
        cmocka_unit_test(test_oracle3_fairness), cmocka_unit_test(test_oracle4_ratio),
        cmocka_unit_test(test_ref_best),         cmocka_unit_test(test_oracle5_alone),
        cmocka_unit_test(test_oracle6_coloc),    cmocka_unit_test(test_oracle7_bubble),
        cmocka_unit_test(test_oracle8_slowdown), cmocka_unit_test(test_oracle9_accuracy),
        cmocka_unit_test(test_fit_recovers),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
