/*
 * What the ccws warp scheduler shows of itself (policies/ws_ccws.h and its
 * dump op): counters, scores, and the series of active and permitted warps.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "policies/ccws_int.h"

/* Makes room for one more point of the series; false when it is full or memory ran out. */
static bool series_room(struct ccws *c)
{
    struct ccws_point *p;
    uint32_t cap;

    if (c->nseries < c->series_alloc)
        return true;
    if (c->nseries == c->o.series_cap || c->series_oom)
        return false;
    cap = c->series_alloc ? 2 * c->series_alloc : 256;
    cap = cap < c->o.series_cap ? cap : c->o.series_cap;
    p = realloc(c->series, (size_t)cap * sizeof(*p));
    if (!p) {
        c->series_oom = true;
        return false;
    }
    c->series = p;
    c->series_alloc = cap;
    return true;
}

/* The cycle's counters, and a point of the series when the active or permitted count changed. */
void pol_ccws_record(struct ccws *c, uint64_t now)
{
    c->st.cycles++;
    c->st.active_sum += c->st.active;
    c->st.permitted_sum += c->st.permitted;
    c->st.throttled_cycles += c->st.permitted < c->st.active;
    c->hist[c->st.permitted <= c->max_warps ? c->st.permitted : c->max_warps]++;
    if (c->st.cycles > 1 && c->last_active == c->st.active && c->last_permitted == c->st.permitted)
        return;
    c->last_active = c->st.active;
    c->last_permitted = c->st.permitted;
    if (series_room(c))
        c->series[c->nseries++] = (struct ccws_point){now, c->st.active, c->st.permitted};
    else
        c->series_dropped++;
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
    for (size_t i = 0; i < pol_ccws_nkeys; i++) {
        uint32_t v = *(const uint32_t *)((const char *)&s->o + pol_ccws_keys[i].off);

        if (pol_ccws_keys[i].words)
            fprintf(f, " %s=%s", pol_ccws_keys[i].name, pol_ccws_keys[i].words[v]);
        else
            fprintf(f, " %s=%" PRIu32, pol_ccws_keys[i].name, v);
    }
    fputc('\n', f);
}

static void dump_counters(const struct ccws *s, const struct pol_ccws_stats *c, FILE *f)
{
    double rate = c->vta_probes ? (double)c->vta_hits / (double)c->vta_probes : 0.0;
    double cyc = c->cycles ? (double)c->cycles : 1.0;

    fprintf(f,
            "# vta_probes=%" PRIu64 " vta_hits=%" PRIu64 " vta_hit_rate=%.6f vta_inserts=%" PRIu64
            " evict_dropped=%" PRIu64 " evict_redirected=%" PRIu64 " writes=%" PRIu64
            " vta_write_invalidated=%" PRIu64 " barrier_released=%" PRIu64 " l1_hits=%" PRIu64
            " issued=%" PRIu64 " cycles=%" PRIu64 " throttled_cycles=%" PRIu64
            " loads_held=%" PRIu64 " mean_active=%.4f mean_permitted=%.4f series_dropped=%" PRIu64
            "\n",
            c->vta_probes, c->vta_hits, rate, c->vta_inserts, c->evict_dropped, c->evict_redirected,
            c->writes, c->vta_write_invalidated, c->barrier_released, c->l1_hits, c->issued,
            c->cycles, c->throttled_cycles, c->loads_held, (double)c->active_sum / cyc,
            (double)c->permitted_sum / cyc, s->series_dropped);
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
    fputs("cycle,sm,sched,active,permitted\n", out);
    for (uint32_t i = 0; i < s->nseries; i++)
        fprintf(out, "%" PRIu64 ",%" PRIu32 ",%" PRIu32 ",%" PRIu32 ",%" PRIu32 "\n",
                s->series[i].cycle, s->sm, sc->sched_id, s->series[i].active,
                s->series[i].permitted);
    if (ferror(out))
        return ps_err_set(err, PS_EIO, "cannot write the ccws series of permitted warps");
    if (s->series_oom)
        return ps_err_set(
            err, PS_ENOMEM,
            "out of memory keeping the ccws series of permitted warps: it stops after %" PRIu32
            " rows",
            s->nseries);
    return 0;
}
