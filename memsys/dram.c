/*
 * One GDDR channel, stepped per command-clock cycle.
 *
 * Every queued request sits on its bank's list in arrival order. Each bank
 * has one candidate: under FR-FCFS the oldest request that hits the open
 * row, else the bank's oldest request; under FIFO always the bank's oldest
 * request. The candidate needs one command next: PRE on a row conflict, ACT
 * on a closed bank, else RD/WR, one per burst of chips * bus_width *
 * burst_length bytes. Each cycle the channel issues at most one command:
 * FR-FCFS prefers ready column commands (row hits), then the oldest
 * request; FIFO takes the oldest. A bank's candidate and its bank-local
 * constraints (RCD, RAS, RP, RC, RTPL, WR) are recomputed only when that
 * bank changed; a scan adds the channel-wide ones (RRD, CCD, CCDL per bank
 * group, CDLR, the data bus) and also finds the first cycle at which
 * anything can issue. Until that cycle, or until a push or pop changes
 * things, a cycle costs a compare.
 *
 * The data bus is reserved in order: a burst starts no earlier than the end
 * of the previous one. Completion times therefore grow with issue order,
 * and one ring holds requests in flight and completed ones awaiting pop.
 */
#include "memsys/dram.h"

#include <stdlib.h>
#include <string.h>

#include "common/ring.h"

#define NIL UINT32_MAX
#define NEVER UINT64_MAX

enum dram_cmd { CMD_ACT, CMD_PRE, CMD_RD, CMD_WR };

struct dram_ent {
    struct mem_req req;
    uint64_t seq;    /* arrival order, for oldest-first */
    uint64_t t_push; /* cycle of the push, for latency */
    uint32_t bursts_left;
    uint32_t next, prev; /* bank list; next also links the free list */
    bool started;        /* first column command issued */
    bool activated;      /* its row was opened for it: a row miss */
};

struct dram_bank {
    uint64_t act_ok, col_ok, pre_ok; /* earliest ACT, RD/WR, PRE for this bank */
    uint64_t local;    /* cand's next command as far as this bank is concerned, NEVER if none */
    uint64_t key;      /* scheduling order of cand: smaller goes first */
    uint64_t grp_mask; /* all ones when cmd is a column command (bank-group CCDL applies) */
    uint32_t row;
    uint32_t head, tail; /* queued requests, oldest first */
    uint32_t cand;
    uint32_t grp;
    uint8_t cmd; /* enum dram_cmd for cand */
    bool active; /* a row is open */
    bool dirty;  /* cand, cmd and local must be computed again */
};

struct dram_done {
    struct mem_req req;
    uint64_t t_done; /* end of its last data burst */
};

struct mem_dram {
    struct mem_dram_params p;
    uint32_t id;
    uint32_t burst_bytes, burst_cycles;
    uint64_t now, seq;
    struct dram_ent *ent; /* request pool, free slots chained from free_head */
    uint32_t ent_cap, free_head, nq;
    struct dram_bank *bank;
    /*
     * A bit per bank with queued requests (lwords words): a scan visits only
     * these. An empty bank has no candidate and so no command, and skipping it
     * changes nothing: its dirty flag stands until a push gives it work.
     */
    uint64_t *live;
    uint32_t lwords;
    uint64_t *grp_col_ok; /* per bank group: last column command + CCDL */
    /* Channel-wide: last ACT + RRD, last column + CCD, write data end + CDLR, data bus free. */
    uint64_t act_ok, col_ok, rd_ok, bus_free;
    uint64_t next_scan;  /* no command can issue before; 0 after any change */
    uint32_t reads_held; /* reads past their first RD and not yet popped */
    struct ps_ring done; /* of struct dram_done, in completion order (grows) */
    struct mem_dram_stats st;
};

static uint64_t max64(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

/* a - b, floored at 0: a start constraint expressed as an issue constraint. */
static uint64_t sub0(uint64_t a, uint64_t b)
{
    return a > b ? a - b : 0;
}

static bool is_write(const struct mem_req *r)
{
    return r->type == MEM_WRITE;
}

/*
 * Data bursts a request needs. With sector bursts (GPGPU-Sim's model) every
 * 32-byte sector a read fetches is a command of its own and occupies the
 * bus for a whole burst, however few of the burst's bytes it uses.
 */
static uint32_t bursts_of(const struct mem_dram *d, const struct mem_req *r)
{
    uint64_t unit = d->p.sector_bursts && !is_write(r) ? MEM_SECTOR_BYTES : d->burst_bytes;

    if (unit > d->burst_bytes)
        unit = d->burst_bytes;
    return r->bytes > unit ? (uint32_t)(((uint64_t)r->bytes + unit - 1) / unit) : 1;
}

static int check_params(const struct mem_dram_params *p, struct ps_err *err)
{
    const struct mem_dram_timing *t = &p->t;

    if (!t->nbk || !t->nbkgrp || t->nbk % t->nbkgrp)
        return ps_err_set(err, PS_EINVAL, "DRAM: nbk=%u must be > 0 and a multiple of nbkgrp=%u",
                          t->nbk, t->nbkgrp);
    if (!p->burst_length || !p->bus_width || !p->chips || !p->data_cmd_ratio)
        return ps_err_set(
            err, PS_EINVAL,
            "DRAM: burst length, bus width, chips and data:command ratio must be > 0");
    if (p->scheduler > 1 || p->bnkgrp_indexing > 1)
        return ps_err_set(err, PS_EINVAL,
                          "DRAM: scheduler %u / bank-group indexing %u: want 0 or 1", p->scheduler,
                          p->bnkgrp_indexing);
    return 0;
}

/* Bank group of bank b: its low bits (policy 1, neighbours in different groups) or high bits. */
static uint32_t bank_group(const struct mem_dram_params *p, uint32_t b)
{
    if (p->bnkgrp_indexing == 1)
        return b % p->t.nbkgrp;
    return b / (p->t.nbk / p->t.nbkgrp);
}

/* Chains slots [from, to) onto the free list. */
static void chain_free(struct mem_dram *d, uint32_t from, uint32_t to)
{
    for (uint32_t i = to; i-- > from;) {
        d->ent[i].next = d->free_head;
        d->free_head = i;
    }
}

static bool grow_pool(struct mem_dram *d)
{
    uint32_t cap = d->ent_cap ? d->ent_cap * 2 : 64;
    struct dram_ent *e = realloc(d->ent, cap * sizeof(*e));

    if (!e)
        return false;
    d->ent = e;
    chain_free(d, d->ent_cap, cap);
    d->ent_cap = cap;
    return true;
}

struct mem_dram *mem_dram_create(const struct mem_dram_params *p, uint32_t id, struct ps_err *err)
{
    struct mem_dram *d;

    if (check_params(p, err))
        return NULL;
    d = calloc(1, sizeof(*d));
    if (!d)
        goto out_nomem;
    d->p = *p;
    d->id = id;
    ps_ring_init(&d->done, sizeof(struct dram_done), 0);
    d->burst_bytes = p->chips * p->bus_width * p->burst_length;
    /* A burst of burst_length beats at data_cmd_ratio beats per command cycle. */
    d->burst_cycles = (p->burst_length + p->data_cmd_ratio - 1) / p->data_cmd_ratio;
    d->free_head = NIL;
    d->bank = calloc(p->t.nbk, sizeof(*d->bank));
    d->lwords = (p->t.nbk + 63) / 64;
    d->live = calloc(d->lwords, sizeof(*d->live));
    d->grp_col_ok = calloc(p->t.nbkgrp, sizeof(*d->grp_col_ok));
    d->ent_cap = p->queue_size ? p->queue_size : 64;
    d->ent = malloc(d->ent_cap * sizeof(*d->ent));
    if (!d->bank || !d->live || !d->grp_col_ok || !d->ent)
        goto out_free;
    chain_free(d, 0, d->ent_cap);
    for (uint32_t b = 0; b < p->t.nbk; b++) {
        d->bank[b].head = d->bank[b].tail = d->bank[b].cand = NIL;
        d->bank[b].local = NEVER;
        d->bank[b].grp = bank_group(p, b);
    }
    return d;
out_free:
    mem_dram_destroy(d);
out_nomem:
    ps_err_set(err, PS_ENOMEM, "out of memory creating DRAM channel %u", id);
    return NULL;
}

void mem_dram_destroy(struct mem_dram *d)
{
    if (!d)
        return;
    free(d->ent);
    free(d->bank);
    free(d->live);
    free(d->grp_col_ok);
    ps_ring_fini(&d->done);
    free(d);
}

bool mem_dram_full(const struct mem_dram *d)
{
    return d->p.queue_size && d->nq >= d->p.queue_size;
}

bool mem_dram_busy(const struct mem_dram *d)
{
    return d->nq || d->done.n;
}

const struct mem_dram_stats *mem_dram_get_stats(const struct mem_dram *d)
{
    return &d->st;
}

static void mark_all_dirty(struct mem_dram *d)
{
    for (uint32_t b = 0; b < d->p.t.nbk; b++)
        d->bank[b].dirty = true;
    d->next_scan = 0;
}

/* A full return queue holds back reads that have not started (GPGPU-Sim's returnq stall). */
static bool held_back(const struct mem_dram *d, const struct dram_ent *e)
{
    return d->p.return_queue && d->reads_held >= d->p.return_queue && !e->started &&
           !is_write(&e->req);
}

void mem_dram_push(struct mem_dram *d, const struct mem_req *r)
{
    struct dram_bank *bk;
    struct dram_ent *e;
    uint32_t i;

    /* Only a push past mem_dram_full() or into an unlimited queue can need more slots. */
    if (d->free_head == NIL && !grow_pool(d))
        return; /* host out of memory: the request is lost (nothing to report it through) */
    i = d->free_head;
    e = &d->ent[i];
    d->free_head = e->next;
    e->req = *r;
    e->req.bank = r->bank % d->p.t.nbk;
    e->seq = d->seq++;
    e->t_push = d->now;
    e->bursts_left = bursts_of(d, r);
    e->started = e->activated = false;
    bk = &d->bank[e->req.bank];
    e->next = NIL;
    e->prev = bk->tail;
    if (bk->tail != NIL)
        d->ent[bk->tail].next = i;
    else
        bk->head = i;
    bk->tail = i;
    bk->dirty = true;
    d->live[e->req.bank / 64] |= 1ull << (e->req.bank % 64);
    d->next_scan = 0;
    d->nq++;
}

/* Chooses the bank's candidate request (see the file comment). */
static void pick(struct mem_dram *d, struct dram_bank *bk)
{
    bool fifo = d->p.scheduler == 0;

    bk->dirty = false;
    bk->cand = NIL;
    for (uint32_t i = bk->head; i != NIL; i = d->ent[i].next) {
        const struct dram_ent *e = &d->ent[i];

        if (held_back(d, e)) {
            if (fifo)
                break; /* in order: nothing overtakes the bank's oldest */
            continue;
        }
        if (bk->cand == NIL)
            bk->cand = i;
        if (fifo || !bk->active)
            break;
        if (e->req.row == bk->row) {
            bk->cand = i; /* first ready: the oldest row hit */
            break;
        }
    }
}

/* Chooses cand again and sets its next command, the bank-local constraint and its key. */
static void bank_update(struct mem_dram *d, struct dram_bank *bk)
{
    const struct dram_ent *e;

    pick(d, bk);
    bk->local = NEVER;
    if (bk->cand == NIL)
        return;
    e = &d->ent[bk->cand];
    if (!bk->active) {
        bk->cmd = CMD_ACT;
        bk->local = bk->act_ok;
    } else if (bk->row != e->req.row) {
        bk->cmd = CMD_PRE;
        bk->local = bk->pre_ok;
    } else {
        bk->cmd = is_write(&e->req) ? CMD_WR : CMD_RD;
        bk->local = bk->col_ok;
    }
    bk->grp_mask = bk->cmd >= CMD_RD ? ~0ull : 0;
    /* Oldest first; under FR-FCFS column commands (row hits) sort before every ACT and PRE. */
    bk->key = e->seq | (d->p.scheduler == 1 && bk->cmd < CMD_RD ? 1ull << 63 : 0);
}

static bool push_done(struct mem_dram *d, const struct mem_req *r, uint64_t t_done)
{
    struct dram_done x = {.req = *r, .t_done = t_done};

    if (!ps_ring_reserve(&d->done, 1))
        return false;
    PS_RING_PUSH(&d->done, &x);
    return true;
}

/* The last burst of request i was issued: it completes at t_done. */
static void retire(struct mem_dram *d, struct dram_bank *bk, uint32_t i, uint64_t t_done)
{
    struct dram_ent *e = &d->ent[i];

    if (e->prev != NIL)
        d->ent[e->prev].next = e->next;
    else
        bk->head = e->next;
    if (e->next != NIL)
        d->ent[e->next].prev = e->prev;
    else
        bk->tail = e->prev;
    if (bk->head == NIL)
        d->live[e->req.bank / 64] &= ~(1ull << (e->req.bank % 64));
    if (is_write(&e->req)) {
        d->st.writes++;
        d->st.write_bytes += e->req.bytes;
    } else {
        d->st.reads++;
        d->st.read_bytes += e->req.bytes;
        d->st.latency_sum += t_done - e->t_push;
    }
    push_done(d, &e->req, t_done); /* out of memory loses the reply, as in mem_dram_push */
    e->next = d->free_head;
    d->free_head = i;
    d->nq--;
}

/* First column command of e: classify the access and hold a return-queue slot for a read. */
static void first_col(struct mem_dram *d, struct dram_ent *e)
{
    e->started = true;
    if (e->activated)
        d->st.row_misses++;
    else
        d->st.row_hits++;
    if (!is_write(&e->req) && ++d->reads_held == d->p.return_queue)
        mark_all_dirty(d); /* unstarted reads are held back from now on */
}

static void do_col(struct mem_dram *d, struct dram_bank *bk, bool wr)
{
    const struct mem_dram_timing *t = &d->p.t;
    struct dram_ent *e = &d->ent[bk->cand];
    uint64_t now = d->now;

    d->grp_col_ok[bk->grp] = now + t->CCDL;
    d->col_ok = now + t->CCD;
    d->bus_free = now + (wr ? t->WL : t->CL) + d->burst_cycles;
    d->st.data_busy += d->burst_cycles;
    if (wr) {
        /* Write recovery and write-to-read turnaround count from the end of the write data. */
        bk->pre_ok = max64(bk->pre_ok, d->bus_free + t->WR);
        d->rd_ok = max64(d->rd_ok, d->bus_free + t->CDLR);
    } else {
        bk->pre_ok = max64(bk->pre_ok, now + t->RTPL);
    }
    if (!e->started)
        first_col(d, e);
    if (--e->bursts_left == 0)
        retire(d, bk, bk->cand, d->bus_free);
}

static void do_cmd(struct mem_dram *d, struct dram_bank *bk)
{
    const struct mem_dram_timing *t = &d->p.t;
    uint64_t now = d->now;

    switch (bk->cmd) {
    case CMD_ACT:
        bk->active = true;
        bk->row = d->ent[bk->cand].req.row;
        bk->col_ok = now + t->RCD;
        bk->pre_ok = max64(bk->pre_ok, now + t->RAS);
        bk->act_ok = now + t->RC;
        d->act_ok = now + t->RRD;
        d->ent[bk->cand].activated = true;
        d->st.activates++;
        break;
    case CMD_PRE:
        bk->active = false;
        bk->act_ok = max64(bk->act_ok, now + t->RP);
        d->st.precharges++;
        break;
    case CMD_RD:
    case CMD_WR:
        do_col(d, bk, bk->cmd == CMD_WR);
        break;
    }
    bk->dirty = true;
}

/* Earliest issue cycle of each command as far as the channel is concerned. */
static void channel_ready(const struct mem_dram *d, uint64_t ch[4])
{
    const struct mem_dram_timing *t = &d->p.t;

    ch[CMD_ACT] = d->act_ok;
    ch[CMD_PRE] = 0;
    /* A burst may not start before the data bus is free: start = issue + CL or WL. */
    ch[CMD_RD] = max64(max64(d->col_ok, d->rd_ok), sub0(d->bus_free, t->CL));
    ch[CMD_WR] = max64(d->col_ok, sub0(d->bus_free, t->WL));
}

/*
 * Finds the best command that can issue now (FR-FCFS: row hits first, then
 * the oldest; FIFO: the oldest), or NULL; *next gets the first cycle at
 * which some bank's command could issue.
 */
static struct dram_bank *scan(struct mem_dram *d, uint64_t *next)
{
    uint64_t ch[4], best_key = NEVER, first = NEVER;
    uint32_t best = NIL;

    channel_ready(d, ch);
    /*
     * The banks with requests, in bank order (a tie would go to the lower bank,
     * but keys are unique). Branch-free apart from the update: which bank wins
     * is data, not control flow.
     */
    for (uint32_t w = 0; w < d->lwords; w++)
        for (uint64_t m = d->live[w]; m; m &= m - 1) {
            uint32_t b = w * 64 + (uint32_t)__builtin_ctzll(m);
            struct dram_bank *bk = &d->bank[b];
            uint64_t ready, key;

            if (bk->dirty)
                bank_update(d, bk);
            ready = max64(bk->local, ch[bk->cmd]);
            ready = max64(ready, d->grp_col_ok[bk->grp] & bk->grp_mask);
            key = ready <= d->now ? bk->key : NEVER;
            first = ready > d->now && ready < first ? ready : first;
            best = key < best_key ? b : best;
            best_key = key < best_key ? key : best_key;
        }
    *next = first;
    return best == NIL ? NULL : &d->bank[best];
}

void mem_dram_cycle(struct mem_dram *d)
{
    d->st.cycles++;
    if (d->nq) {
        d->st.queue_occupancy += d->nq;
        if (d->next_scan <= d->now) {
            struct dram_bank *bk = scan(d, &d->next_scan);

            if (bk) {
                do_cmd(d, bk);
                d->next_scan = 0; /* the constraints moved: look again next cycle */
            }
        }
    }
    d->now++;
}

bool mem_dram_pop(struct mem_dram *d, struct mem_req *out)
{
    const struct dram_done *x = ps_ring_head(&d->done);

    if (!x || x->t_done > d->now)
        return false;
    *out = x->req;
    ps_ring_pop(&d->done, NULL);
    if (!is_write(out) && d->reads_held-- == d->p.return_queue && d->nq)
        mark_all_dirty(d); /* a slot freed: held-back reads may go */
    return true;
}
