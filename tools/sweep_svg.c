/*
 * SVG bar charts for the sweep. Each (size, config) table becomes a "panel":
 * groups along x (workloads, plus a mean group), one bar per series in a
 * group (variants) or one stacked bar per group (stall categories). Panels
 * are laid out first, so the picture's width is known before any element is
 * written. The charts fit the data: bars widen when there are few of them,
 * the value axis starts above zero when every value lies close together
 * (normalised IPC of 0.97 to 1.03 would otherwise be bars of equal height;
 * the axis label then says where it starts), and every bar carries its
 * value as text.
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "tools/sweep_report.h"
#include "tools/sweep_svg.h"

#define MARGIN_L 72.0
#define MARGIN_R 24.0
#define TITLE_H 28.0
#define LEGEND_H 22.0
#define PLOT_H 220.0
#define LABEL_H 96.0 /* room for the rotated group labels */
#define PANEL_H (TITLE_H + LEGEND_H + 12.0 + PLOT_H + LABEL_H)
#define BAR_W 12.0 /* narrowest bar */
#define BAR_W_MAX 40.0
#define STACK_W 26.0 /* narrowest stacked bar */
#define STACK_W_MAX 64.0
#define BARS_W 420.0 /* bars are widened up to about this much plot width */
#define GROUP_GAP 14.0
#define CHAR_W 6.5       /* rough width of one 11px sans-serif character */
#define TITLE_CHAR_W 8.5 /* and of one 14px bold one */

static const char *const palette[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
                                      "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};
#define NCOLORS (sizeof(palette) / sizeof(palette[0]))

/* One panel: val[g * nseries + s], NAN where missing. All arrays owned. */
struct panel {
    char title[512];
    const char *ylabel;
    const char **groups, **series; /* the arrays owned, the names borrowed */
    size_t ngroups, nseries;
    double *val;
    bool stacked, mean_group; /* stacked fractions; the last group is a mean */
    double ref;               /* a dashed reference line (1.0 for normalised IPC), or NAN */
    double bar_w;             /* the width of one bar (of a stack when stacked) */
};

static void put_escaped(FILE *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '<')
            fputs("&lt;", out);
        else if (*s == '>')
            fputs("&gt;", out);
        else if (*s == '&')
            fputs("&amp;", out);
        else if (*s == '"')
            fputs("&quot;", out);
        else
            fputc(*s, out);
    }
}

static double group_w(const struct panel *p)
{
    return p->bar_w * (double)(p->stacked ? 1 : p->nseries) + GROUP_GAP;
}

/* Few bars get wider ones, so that their value labels fit. */
static double bar_width(const struct panel *p)
{
    double n = (double)(p->ngroups * (p->stacked ? 1 : p->nseries));
    double w = n > 0 ? floor(BARS_W / n) : BAR_W;

    return p->stacked ? fmin(fmax(w, STACK_W), STACK_W_MAX) : fmin(fmax(w, BAR_W), BAR_W_MAX);
}

static double legend_w(const struct panel *p)
{
    double w = 0;

    for (size_t s = 0; s < p->nseries; s++)
        w += 22.0 + CHAR_W * (double)strlen(p->series[s]);
    return w;
}

static double panel_w(const struct panel *p)
{
    double plot = group_w(p) * (double)p->ngroups, title = TITLE_CHAR_W * (double)strlen(p->title);
    double inner = fmax(fmax(plot, legend_w(p)), fmax(title, 240.0));

    return MARGIN_L + inner + MARGIN_R;
}

/* A "nice" tick step (1, 2, 2.5 or 5 times a power of ten) for about five ticks up to max. */
static double tick_step(double max)
{
    static const double mult[] = {1, 2, 2.5, 5, 10};
    double raw = max / 5, mag = pow(10, floor(log10(raw)));

    for (size_t i = 0; i < sizeof(mult) / sizeof(mult[0]); i++)
        if (mult[i] * mag >= raw * (1 - 1e-9))
            return mult[i] * mag;
    return 10 * mag;
}

/* The value axis: from *lo to the returned top, ticks every *step. */
struct axis {
    double lo, hi, step;
};

static void value_range(const struct panel *p, double *vmin, double *vmax)
{
    *vmin = INFINITY;
    *vmax = isnan(p->ref) ? 0 : p->ref;
    if (!isnan(p->ref))
        *vmin = p->ref;
    for (size_t i = 0; i < p->ngroups * p->nseries; i++)
        if (!isnan(p->val[i])) {
            *vmin = fmin(*vmin, p->val[i]);
            *vmax = fmax(*vmax, p->val[i]);
        }
}

/*
 * From zero to a round number above the largest value; but when all values
 * differ but lie within 20% of the largest, a zoomed axis around them (a step below the
 * smallest), so that differences of a few percent show. A step of headroom
 * is added when the tallest bar would leave no room for its label.
 */
static struct axis axis_of(const struct panel *p)
{
    struct axis a = {0, 1, 0.2};
    double vmin, vmax;

    if (p->stacked)
        return a;
    value_range(p, &vmin, &vmax);
    if (!(vmax > 0))
        return a;
    if (vmin > 0 && vmax > vmin && vmax - vmin <= 0.2 * vmax) { /* all equal: from zero */
        a.step = tick_step(fmax(vmax - vmin, vmax * 0.01) * 2);
        a.lo = fmax(0, (floor(vmin / a.step - 1e-9) - 1) * a.step);
    } else {
        a.step = tick_step(vmax);
    }
    a.hi = ceil(vmax / a.step - 1e-9) * a.step;
    if (a.hi - vmax < 0.1 * (a.hi - a.lo))
        a.hi += a.step;
    return a;
}

static double y_of(const struct axis *a, double top, double v)
{
    return top + PLOT_H - (fmin(fmax(v, a->lo), a->hi) - a->lo) / (a->hi - a->lo) * PLOT_H;
}

static void draw_axis(FILE *out, const struct panel *p, double top, const struct axis *a,
                      double width)
{
    for (int i = 0; a->lo + i * a->step <= a->hi * (1 + 1e-9); i++) {
        double v = a->lo + i * a->step, y = y_of(a, top, v);

        fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#dddddd\"/>\n",
                MARGIN_L, y, MARGIN_L + width, y);
        if (p->stacked)
            fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%.0f%%</text>\n",
                    MARGIN_L - 6, y + 4, v * 100);
        else
            fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n",
                    MARGIN_L - 6, y + 4, round(v * 1e6) / 1e6);
    }
    fprintf(out, "<text transform=\"translate(%.1f,%.1f) rotate(-90)\" text-anchor=\"middle\">%s",
            14.0, top + PLOT_H / 2, p->ylabel);
    if (a->lo > 0)
        fprintf(out, " (axis from %g)", round(a->lo * 1e6) / 1e6);
    fputs("</text>\n", out);
    fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333333\"/>\n",
            MARGIN_L, top, MARGIN_L, top + PLOT_H);
    fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333333\"/>\n",
            MARGIN_L, top + PLOT_H, MARGIN_L + width, top + PLOT_H);
    if (!isnan(p->ref) && p->ref <= a->hi && p->ref >= a->lo)
        fprintf(out,
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333333\" "
                "stroke-dasharray=\"4 3\"/>\n",
                MARGIN_L, y_of(a, top, p->ref), MARGIN_L + width, y_of(a, top, p->ref));
}

static void draw_legend(FILE *out, const struct panel *p, double y)
{
    double x = MARGIN_L;

    for (size_t s = 0; s < p->nseries; s++) {
        fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"12\" fill=\"%s\"/>\n", x, y,
                palette[s % NCOLORS]);
        fprintf(out, "<text x=\"%.1f\" y=\"%.1f\">", x + 16, y + 10);
        put_escaped(out, p->series[s]);
        fputs("</text>\n", out);
        x += 22.0 + CHAR_W * (double)strlen(p->series[s]);
    }
}

/* The value printed on a bar: above it (turned when the bar is narrow), or inside a stack part. */
static void draw_value(FILE *out, const struct panel *p, double v, double x, double y, double h)
{
    double cx = x + p->bar_w / 2;

    if (p->stacked) {
        if (h >= 11 && p->bar_w >= 26)
            fprintf(out,
                    "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"9\" "
                    "fill=\"white\">%.0f%%</text>\n",
                    cx, y + h / 2 + 3, v * 100);
    } else if (p->bar_w >= 30) {
        fprintf(out,
                "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"9\">%.3g</text>\n",
                cx, y - 3, v);
    } else {
        fprintf(
            out,
            "<text transform=\"translate(%.1f,%.1f) rotate(-90)\" font-size=\"9\">%.3g</text>\n",
            cx + 3, y - 3, v);
    }
}

static void draw_bar(FILE *out, const struct panel *p, size_t g, size_t s, double x, double y,
                     double h)
{
    double v = p->val[g * p->nseries + s];

    fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"><title>",
            x, y, p->bar_w, h, palette[s % NCOLORS]);
    put_escaped(out, p->groups[g]);
    fputs(" ", out);
    put_escaped(out, p->series[s]);
    fprintf(out, ": %.4g</title></rect>\n", v);
    draw_value(out, p, v, x, y, h);
}

static void draw_group(FILE *out, const struct panel *p, size_t g, double x0, double top,
                       const struct axis *a)
{
    double base = top + PLOT_H, acc = 0;

    for (size_t s = 0; s < p->nseries; s++) {
        double v = p->val[g * p->nseries + s];
        double h = isnan(v) ? 0 : base - y_of(a, top, v);
        double x = p->stacked ? x0 : x0 + p->bar_w * (double)s;

        if (isnan(v) && !p->stacked) /* a run that did not pass */
            fprintf(out,
                    "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"#cc0000\">x"
                    "</text>\n",
                    x + p->bar_w / 2, base - 3);
        if (isnan(v) || (h <= 0 && p->stacked))
            continue;
        if (p->stacked) {
            h = fmin(h, PLOT_H - acc);
            draw_bar(out, p, g, s, x, base - acc - h, h);
            acc += h;
        } else {
            draw_bar(out, p, g, s, x, base - h, h);
        }
    }
    fprintf(out, "<text transform=\"translate(%.1f,%.1f) rotate(-40)\" text-anchor=\"end\">",
            x0 + (group_w(p) - GROUP_GAP) / 2, base + 14);
    put_escaped(out, p->groups[g]);
    fputs("</text>\n", out);
}

static void draw_panel(FILE *out, const struct panel *p, double y0, double width)
{
    struct axis a = axis_of(p);
    double top = y0 + TITLE_H + LEGEND_H + 12, plot_w = width - MARGIN_L - MARGIN_R;

    fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"14\" font-weight=\"bold\">", MARGIN_L,
            y0 + 20);
    put_escaped(out, p->title);
    fputs("</text>\n", out);
    draw_legend(out, p, y0 + TITLE_H);
    draw_axis(out, p, top, &a, plot_w);
    for (size_t g = 0; g < p->ngroups; g++)
        draw_group(out, p, g, MARGIN_L + GROUP_GAP / 2 + group_w(p) * (double)g, top, &a);
    if (p->mean_group) /* set the mean apart */
        fprintf(out,
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#999999\" "
                "stroke-dasharray=\"2 2\"/>\n",
                MARGIN_L + group_w(p) * (double)(p->ngroups - 1), top,
                MARGIN_L + group_w(p) * (double)(p->ngroups - 1), top + PLOT_H);
}

static double value(const struct sweep_table *t, size_t w, size_t s, size_t base,
                    enum sweep_chart kind)
{
    if (kind == SWEEP_CHART_IPC)
        return sweep_table_norm_ipc(t, w, s, base);
    if (kind == SWEEP_CHART_MPKI)
        return sweep_table_value(t, w, s, SWEEP_COL_L1D_MPKI);
    return sweep_table_stall_frac(t, w, base, (int)s);
}

/* The mean group: GMEAN of normalised IPC, AMEAN of MPKI, over the complete workloads. */
static void fill_means(struct panel *p, const struct sweep_table *t, size_t base,
                       enum sweep_chart kind)
{
    for (size_t s = 0; s < p->nseries; s++)
        p->val[t->nw * p->nseries + s] =
            kind == SWEEP_CHART_IPC ? sweep_table_mean_norm_ipc(t, s, base, NULL, SWEEP_GMEAN)
                                    : sweep_table_mean_value(t, s, SWEEP_COL_L1D_MPKI);
}

/* Fills a panel's values for one table; -1 (the panel left empty) when out of memory. */
static int fill_panel(struct panel *p, const struct sweep_table *t, size_t base,
                      enum sweep_chart kind)
{
    bool mean = kind != SWEEP_CHART_STALLS;

    static const char *const ylabels[] = {"normalised IPC", "L1D MPKI", "share of stalls"};

    p->stacked = kind == SWEEP_CHART_STALLS;
    p->mean_group = mean;
    p->ylabel = ylabels[kind];
    p->ref = kind == SWEEP_CHART_IPC ? 1.0 : NAN;
    p->ngroups = t->nw + mean;
    p->nseries = p->stacked ? SWEEP_NSTALLS : t->nv;
    p->series = malloc(p->nseries * sizeof(*p->series));
    p->groups = malloc(p->ngroups * sizeof(*p->groups));
    p->val = malloc(p->ngroups * p->nseries * sizeof(*p->val));
    if (!p->series || !p->groups || !p->val) {
        free(p->series);
        free(p->groups);
        free(p->val);
        memset(p, 0, sizeof(*p));
        return -1;
    }
    for (size_t s = 0; s < p->nseries; s++)
        p->series[s] = p->stacked ? sweep_stall_name((int)s) : t->variants[s];
    memcpy(p->groups, t->workloads, t->nw * sizeof(*p->groups));
    if (mean)
        p->groups[t->nw] = kind == SWEEP_CHART_IPC ? "GMEAN" : "AMEAN";
    for (size_t w = 0; w < t->nw; w++)
        for (size_t s = 0; s < p->nseries; s++)
            p->val[w * p->nseries + s] = value(t, w, s, base, kind);
    if (mean)
        fill_means(p, t, base, kind);
    p->bar_w = bar_width(p);
    return 0;
}

static void set_title(struct panel *p, const struct sweep_table *t, size_t base,
                      enum sweep_chart kind)
{
    char where[256]; /* "small, gtx480", or "gtx480" for apps without sizes */

    snprintf(where, sizeof(where), "%s%s%s", strcmp(t->size, "-") ? t->size : "",
             strcmp(t->size, "-") ? ", " : "", t->config);
    if (kind == SWEEP_CHART_IPC)
        snprintf(p->title, sizeof(p->title), "IPC normalised to %s - %s", t->variants[base], where);
    else if (kind == SWEEP_CHART_MPKI)
        snprintf(p->title, sizeof(p->title), "L1D misses per 1000 warp instructions - %s", where);
    else
        snprintf(p->title, sizeof(p->title), "Stall breakdown of %s - %s", t->variants[base],
                 where);
}

static void free_panels(struct panel *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(p[i].series);
        free(p[i].groups);
        free(p[i].val);
    }
    free(p);
}

static void emit(FILE *out, const struct panel *p, size_t n)
{
    double width = 400, height = 20;

    for (size_t i = 0; i < n; i++)
        width = fmax(width, panel_w(&p[i]));
    height += PANEL_H * (double)(n ? n : 1);
    fprintf(out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
            "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"11\">\n"
            "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
            width, height, width, height);
    if (!n)
        fputs("<text x=\"20\" y=\"40\">no runs</text>\n", out);
    for (size_t i = 0; i < n; i++)
        draw_panel(out, &p[i], 10 + PANEL_H * (double)i, width);
    fputs("</svg>\n", out);
}

void sweep_svg_write(const struct sweep_results *r, const char *baseline, enum sweep_chart kind,
                     FILE *out)
{
    const char **sizes = NULL, **configs = NULL;
    size_t ns = sweep_distinct(r, SWEEP_F_SIZE, &sizes);
    size_t nc = sweep_distinct(r, SWEEP_F_CONFIG, &configs), n = 0;
    struct panel *p = calloc(ns * nc + 1, sizeof(*p));
    struct sweep_table *t = calloc(ns * nc + 1, sizeof(*t));

    for (size_t i = 0; p && t && i < ns * nc; i++) {
        struct sweep_table *ti = &t[n];
        int b;

        if (sweep_table_build(r, sizes[i / nc], configs[i % nc], ti))
            continue;
        if (!ti->nw) {
            sweep_table_free(ti);
            continue;
        }
        b = baseline ? sweep_table_variant(ti, baseline) : 0;
        set_title(&p[n], ti, b < 0 ? 0 : (size_t)b, kind);
        if (fill_panel(&p[n], ti, b < 0 ? 0 : (size_t)b, kind) == 0)
            n++;
        else
            sweep_table_free(ti);
    }
    if (p && t)
        emit(out, p, n);
    for (size_t i = 0; t && i < n; i++)
        sweep_table_free(&t[i]);
    free_panels(p, p ? n + 1 : 0);
    free(t);
    free(sizes);
    free(configs);
}
