/*
 * What the ccws warp scheduler shows of itself (policies/ws_ccws.h and its
 * dump op): counters, scores, and the series of active and permitted warps.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "policies/ccws_int.h"

/* The cycle's counters, and a point of the series when the active or permitted count changed. */
void pol_ccws_record(struct ccws *c, uint64_t now)
{
    struct ccws_point *p;

    c->st.cycles++;
    c->st.active_sum += c->st.active;
    c->st.permitted_sum += c->st.permitted;
    c->st.throttled_cycles += c->st.permitted < c->st.active;
    c->hist[c->st.permitted <= c->max_warps ? c->st.permitted : c->max_warps]++;
    if (c->st.cycles > 1 && c->last_active == c->st.active && c->last_permitted == c->st.permitted)
        return;
    c->last_active = c->st.active;
    c->last_permitted = c->st.permitted;
    p = pol_series_add(&c->series);
    if (p) /* else counted as dropped */
        *p = (struct ccws_point){now, c->st.active, c->st.permitted};
}

/* -------------------------------------------------------------- observation */

void pol_ws_ccws_stats(const void *st, struct pol_ccws_stats *out)
{
    const struct ccws *s = ((const struct ccws_sched *)st)->c;

    *out = s->st;
    out->max_score = 0;
    for (uint32_t i = 0; i < s->max_warps; i++)
        if (s->w[i].occupied && s->w[i].lls > out->max_score)
            out->max_score = s->w[i].lls;
}

uint32_t pol_ws_ccws_score(const void *st, uint32_t slot)
{
    const struct ccws *s = ((const struct ccws_sched *)st)->c;

    return slot < s->max_warps && s->w[slot].occupied ? s->w[slot].lls : 0;
}

static void dump_opts(const struct ccws *s, FILE *f)
{
    fputs("# ccws", f);
    pol_args_write(&pol_ccws_argspec, &s->o, f);
    fputc('\n', f);
}

static void dump_counters(const struct ccws *s, const struct pol_ccws_stats *c, FILE *f)
{
    double rate = c->vta_probes ? (double)c->vta_hits / (double)c->vta_probes : 0.0;
    double cyc = c->cycles ? (double)c->cycles : 1.0;

    fprintf(f,
            "# vta_probes=%" PRIu64 " vta_hits=%" PRIu64 " vta_hit_rate=%.6f vta_inserts=%" PRIu64
            " evict_dropped=%" PRIu64 " evict_redirected=%" PRIu64 " store_victims=%" PRIu64
            " writes=%" PRIu64 " vta_write_invalidated=%" PRIu64 " barrier_released=%" PRIu64
            " l1_hits=%" PRIu64 " issued=%" PRIu64 " cycles=%" PRIu64 " throttled_cycles=%" PRIu64
            " loads_held=%" PRIu64 " mean_active=%.4f mean_permitted=%.4f series_dropped=%" PRIu64
            "\n",
            c->vta_probes, c->vta_hits, rate, c->vta_inserts, c->evict_dropped, c->evict_redirected,
            c->store_victims, c->writes, c->vta_write_invalidated, c->barrier_released, c->l1_hits,
            c->issued, c->cycles, c->throttled_cycles, c->loads_held, (double)c->active_sum / cyc,
            (double)c->permitted_sum / cyc, s->series.dropped);
    fputs("# permitted_hist", f);
    for (uint32_t i = 0; i <= s->max_warps; i++)
        if (s->hist[i])
            fprintf(f, " %" PRIu32 ":%" PRIu64, i, s->hist[i]);
    fputc('\n', f);
}

/*
 * The dump op: the options and counters as '#' lines, then the series as CSV,
 * one row per change of the active or permitted warp count.
 */
/* ctx: the scheduler whose SM and number every row names. */
static void write_point(FILE *out, const void *row, const void *ctx)
{
    const struct ccws_point *p = row;
    const struct ccws_sched *sc = ctx;

    fprintf(out, "%" PRIu64 ",%" PRIu32 ",%" PRIu32 ",%" PRIu32 ",%" PRIu32 "\n", p->cycle,
            sc->c->sm, sc->sched_id, p->active, p->permitted);
}

int pol_ccws_dump(const void *st, FILE *out, struct ps_err *err)
{
    const struct ccws_sched *sc = st;
    const struct ccws *s = sc->c;
    struct pol_ccws_stats c;

    dump_opts(s, out);
    /* One point system per SM: its first scheduler writes it, the others point there. */
    if (sc->shared && s->home && sc->sched_id != 0) {
        fputs("# shared: the point system of this SM is written under its scheduler 0\n", out);
        fputs("cycle,sm,sched,active,permitted\n", out);
        return ferror(out) ? ps_err_set(err, PS_EIO, "cannot write the ccws series") : 0;
    }
    pol_ws_ccws_stats(st, &c);
    dump_counters(s, &c, out);
    return pol_series_write(&s->series, out, "cycle,sm,sched,active,permitted", write_point, sc,
                            "the ccws series of permitted warps", err);
}
