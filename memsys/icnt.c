/*
 * The crossbar: per input a FIFO of packets counted in flits, per output a
 * ring of packets that holds, in arrival order, packets in flight through
 * the fixed latency and packets waiting to be popped (a packet stays at its
 * input until its tail flit has crossed).
 *
 * Switching is wormhole: an output grants an input whose head packet
 * targets it (round robin from the input after the last one granted) and
 * then stays with that input until the tail flit has crossed. Every input
 * sends at most one flit per cycle (its head packet has one destination)
 * and every output takes at most one. An output grants a new packet only
 * while its ring has room, so a packet once started always has a slot to
 * arrive in: the ejection buffer back-pressures at the head flit.
 *
 * Timing: a packet pushed at cycle T (before that cycle's mem_icnt_cycle)
 * whose flits cross uncontended in cycles T .. T+F-1 can be popped once
 * mem_icnt_cycle has run for cycle T+F-1+latency, i.e. F + latency calls
 * after the push; that figure is its latency in the statistics.
 *
 * Inputs whose head packet waits for an output are kept in a bitset per
 * output, so a cycle costs a few word operations per output.
 *
 * Staged outputs (mem_icnt_stage) let the cycle run beside the poppers: an
 * arriving packet goes to the output's stage of the current phase, and
 * the popper moves the other phase's stage to its port (mem_icnt_drain)
 * before it looks at it. With a latency of at least one cycle nothing a
 * cycle delivers can be popped before the next phase, so the pops are
 * those of the unstaged network.
 */
#include "memsys/icnt.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "common/ring.h"

#define NO_INPUT UINT32_MAX

struct icnt_pkt {
    struct mem_req req;
    uint64_t t_push;
    uint64_t t_arrive; /* first cycle (value of now) at which it may be popped */
    uint32_t dst, nflits, bytes;
};

struct icnt_in {
    struct ps_ring q; /* of struct icnt_pkt: waiting packets, head first */
    uint32_t flits;   /* flits buffered, including the unsent part of the head */
    uint32_t sent;    /* flits of the head packet already sent */
    uint64_t stalls;  /* pushes refused here (the sender's own count: see mem_icnt_get_stats) */
    /* the head packet's nflits and dst: read at every flit, the packet seldom in the cache */
    uint32_t head_flits, head_dst;
    /*
     * Pushed since the network's counts last took them in (take_pushes):
     * flits, and whether the input went from empty to holding a packet.
     */
    uint32_t pend_flits;
    bool fresh;
};

/* What the cycle keeps per output. */
struct icnt_out {
    uint32_t lock;  /* input whose packet is mid-transfer, or NO_INPUT */
    uint32_t nwant; /* inputs whose unsent head packet targets this output */
    uint32_t rr;    /* round-robin start: the input after the last one granted */
    uint64_t arrived; /* packets arrived, staged ones too: held() takes the pops off */
};

/* What the popper keeps per output, on its own cache line. */
struct icnt_port {
    struct ps_ring q; /* of struct icnt_pkt: arrived at this output, in arrival order */
    /*
     * The head packet's t_arrive (UINT64_MAX: none): an SM asks every cycle
     * whether a reply waits, and the packet itself is seldom in the cache.
     */
    uint64_t head_at;
    /*
     * Packets popped here, and that count as of the end of the poppers'
     * last cycle of each parity (mem_icnt_publish_pops): a cycle running
     * beside the poppers (mem_icnt_set_concurrent) counts the pops of their
     * cycle before, as the sequential tick after it saw them.
     */
    uint64_t popped, pops_at[2];
} __attribute__((aligned(64)));

/* Packets a staged cycle delivered to one output in one phase (mem_icnt_stage). */
struct icnt_stage {
    struct ps_ring q;
    uint64_t head_at; /* t_arrive of q's head, UINT64_MAX when empty */
} __attribute__((aligned(64)));

struct mem_icnt {
    struct mem_icnt_params p;
    int flit_shift; /* log2 of p.flit_bytes, or -1 when it is not a power of two */
    uint64_t now;  /* cycles run */
    uint64_t seen; /* cycles the poppers see run (ahead of now while staged cycles wait) */
    bool staged;
    bool concurrent; /* the cycle runs beside the poppers (mem_icnt_set_concurrent) */
    uint32_t phase;  /* 0 or 1: the stage cycles deliver to now */
    struct icnt_in *in;
    struct icnt_out *out;
    struct icnt_port *port;   /* nout */
    struct icnt_stage *stage; /* 2 * nout while staged: phase * nout + output */
    /*
     * Per phase, a bit per output whose stage holds packets (phase p's words
     * at smask + p * sstride, a cache line apart): a drain finds most stages
     * empty without touching them. Set by the cycle, cleared by
     * mem_icnt_set_phase for the phase it starts (drained the cycle before).
     */
    uint64_t *smask;
    uint32_t sstride;
    uint64_t *want;   /* per output, words bits: inputs whose unsent head packet targets it */
    uint32_t words;   /* 64-bit words per output in want */
    /*
     * Outputs with an input wanting them or a packet mid-transfer (a bit
     * each): a cycle serves only these, and does not read the others, whose
     * rings the SMs popping them keep in another thread's cache.
     */
    uint64_t *busy;
    uint32_t *renew;  /* inputs whose head packet finished this cycle */
    uint64_t nflits;  /* flits buffered over all inputs (as of the last take_pushes) */
    uint32_t nactive; /* inputs with flits buffered (likewise) */
    struct mem_icnt_stats st;
    struct mem_icnt_stats *stp; /* &st, writable from the const get_stats (the inputs' refusals) */
};

/* Appends packet x to a growing ring; false only out of memory. */
static bool ring_push(struct ps_ring *r, const struct icnt_pkt *x)
{
    if (!ps_ring_reserve(r, 1))
        return false;
    PS_RING_PUSH(r, x);
    return true;
}

static struct icnt_pkt *ring_head(const struct ps_ring *r)
{
    return ps_ring_head(r);
}

static void ring_pop(struct ps_ring *r)
{
    ps_ring_pop(r, NULL);
}

static uint32_t nflits_of(const struct mem_icnt *n, uint32_t bytes)
{
    uint64_t up = (uint64_t)bytes + n->p.flit_bytes - 1;
    /* a shift for the usual power-of-two flit: the room check runs millions of times a second */
    uint64_t f = n->flit_shift >= 0 ? up >> n->flit_shift : up / n->p.flit_bytes;

    return f ? (uint32_t)f : 1;
}

struct mem_icnt *mem_icnt_create(const struct mem_icnt_params *p, struct ps_err *err)
{
    struct mem_icnt *n;

    if (!p->nin || !p->nout || !p->flit_bytes) {
        ps_err_set(err, PS_EINVAL,
                   "interconnect: %u inputs, %u outputs, %u-byte flits: all must be > 0", p->nin,
                   p->nout, p->flit_bytes);
        return NULL;
    }
    n = calloc(1, sizeof(*n));
    if (!n)
        goto out_nomem;
    n->p = *p;
    n->stp = &n->st;
    n->flit_shift = -1;
    if (!(p->flit_bytes & (p->flit_bytes - 1)))
        n->flit_shift = __builtin_ctz(p->flit_bytes);
    n->words = (p->nin + 63) / 64;
    n->in = calloc(p->nin, sizeof(*n->in));
    n->out = calloc(p->nout, sizeof(*n->out));
    n->port = aligned_alloc(64, (size_t)p->nout * sizeof(*n->port));
    n->want = calloc((size_t)p->nout * n->words, sizeof(*n->want));
    n->renew = calloc(p->nin, sizeof(*n->renew));
    n->busy = calloc((p->nout + 63) / 64, sizeof(*n->busy));
    if (!n->in || !n->out || !n->port || !n->want || !n->renew || !n->busy)
        goto out_free;
    for (uint32_t o = 0; o < p->nout; o++) {
        n->out[o].lock = NO_INPUT;
        n->port[o].head_at = UINT64_MAX;
        n->port[o].popped = n->port[o].pops_at[0] = n->port[o].pops_at[1] = 0;
        ps_ring_init(&n->port[o].q, sizeof(struct icnt_pkt), 0);
    }
    for (uint32_t i = 0; i < p->nin; i++)
        ps_ring_init(&n->in[i].q, sizeof(struct icnt_pkt), 0);
    return n;
out_free:
    mem_icnt_destroy(n);
out_nomem:
    ps_err_set(err, PS_ENOMEM, "out of memory creating the interconnect");
    return NULL;
}

void mem_icnt_destroy(struct mem_icnt *n)
{
    if (!n)
        return;
    for (uint32_t i = 0; n->in && i < n->p.nin; i++)
        ps_ring_fini(&n->in[i].q);
    for (uint32_t o = 0; n->port && o < n->p.nout; o++)
        ps_ring_fini(&n->port[o].q);
    for (uint32_t o = 0; n->stage && o < 2 * n->p.nout; o++)
        ps_ring_fini(&n->stage[o].q);
    free(n->in);
    free(n->out);
    free(n->port);
    free(n->stage);
    free(n->smask);
    free(n->want);
    free(n->renew);
    free(n->busy);
    free(n);
}

bool mem_icnt_room(const struct mem_icnt *n, uint32_t src, uint32_t bytes)
{
    const struct icnt_in *in = &n->in[src];
    uint32_t cap = n->p.in_buf_flits;

    /* An empty buffer takes any packet, so one larger than the buffer cannot block forever. */
    return !cap || !in->flits || in->flits + nflits_of(n, bytes) <= cap;
}

bool mem_icnt_can_push(const struct mem_icnt *n, uint32_t src, uint32_t bytes)
{
    if (mem_icnt_room(n, src, bytes))
        return true;
    n->in[src].stalls++;
    return false;
}

void mem_icnt_count_stalls(struct mem_icnt *n, uint32_t src, uint32_t k)
{
    n->in[src].stalls += k;
}

/* Packets arrived at output o and not popped, as the cycle sees the pops. */
static uint64_t held(const struct mem_icnt *n, uint32_t o)
{
    const struct icnt_port *pt = &n->port[o];

    return n->out[o].arrived - (n->concurrent ? pt->pops_at[n->phase ^ 1] : pt->popped);
}

static void want_set(struct mem_icnt *n, uint32_t dst, uint32_t src)
{
    n->want[(size_t)dst * n->words + src / 64] |= 1ull << (src % 64);
    n->out[dst].nwant++;
    n->busy[dst / 64] |= 1ull << (dst % 64);
}

static void want_clear(struct mem_icnt *n, uint32_t dst, uint32_t src)
{
    n->want[(size_t)dst * n->words + src / 64] &= ~(1ull << (src % 64));
    n->out[dst].nwant--;
}

void mem_icnt_push(struct mem_icnt *n, uint32_t src, uint32_t dst, const struct mem_req *r,
                   uint32_t bytes)
{
    struct icnt_in *in = &n->in[src];
    struct icnt_pkt x;

    memset(&x, 0, sizeof(x));
    x.req = *r;
    x.t_push = n->now;
    x.dst = dst;
    x.bytes = bytes;
    x.nflits = nflits_of(n, bytes);
    if (!ring_push(&in->q, &x))
        return; /* host out of memory: the packet is lost (nothing to report it through) */
    if (in->q.n == 1) {
        in->head_flits = x.nflits;
        in->head_dst = dst;
        in->fresh = true;
    }
    in->flits += x.nflits;
    in->pend_flits += x.nflits;
}

/*
 * The pushes since the last cycle join the network's counts and its
 * outputs' wants. A push touches only its own input, so pushers to
 * different inputs may run in parallel (mem_icnt.h); the counts and wants
 * it changes are sums and bits, the same in any order.
 */
static void take_pushes(struct mem_icnt *n)
{
    for (uint32_t i = 0; i < n->p.nin; i++) {
        struct icnt_in *in = &n->in[i];

        if (!in->pend_flits)
            continue;
        n->nflits += in->pend_flits;
        in->pend_flits = 0;
        if (in->fresh) {
            in->fresh = false;
            want_set(n, in->head_dst, i);
            n->nactive++;
        }
    }
}

/* First input at or after the output's round-robin start that wants it, or NO_INPUT. */
static uint32_t rr_pick(const struct mem_icnt *n, uint32_t o)
{
    const uint64_t *w = &n->want[(size_t)o * n->words];
    uint32_t start = n->out[o].rr, sw = start / 64, wi = sw;
    uint64_t bits = w[sw] & (~0ull << (start % 64)); /* at or after start in its word */

    for (uint32_t k = 1; !bits && k <= n->words; k++) {
        wi = sw + k < n->words ? sw + k : sw + k - n->words;
        bits = w[wi];
        if (k == n->words)
            bits &= ~(~0ull << (start % 64)); /* wrapped back: only inputs before start */
    }
    return bits ? wi * 64 + (uint32_t)__builtin_ctzll(bits) : NO_INPUT;
}

/* The tail of input i's head packet crossed to output o. */
static void finish_packet(struct mem_icnt *n, uint32_t i, uint32_t o, uint32_t *nrenew)
{
    struct icnt_in *in = &n->in[i];
    struct icnt_out *out = &n->out[o];
    struct icnt_pkt *x = ring_head(&in->q);
    struct ps_ring *q = &n->port[o].q;
    uint64_t *head_at = &n->port[o].head_at;

    if (n->staged) {
        q = &n->stage[n->phase * n->p.nout + o].q;
        head_at = &n->stage[n->phase * n->p.nout + o].head_at;
    }
    /* Crossed during cycle now; may be popped after `latency` more cycles have run. */
    x->t_arrive = n->now + 1 + n->p.latency;
    n->st.packets++;
    n->st.bytes += x->bytes;
    n->st.latency_sum += x->t_arrive - x->t_push;
    if (ring_push(q, x)) {
        out->arrived++;
        if (q->n == 1) {
            *head_at = x->t_arrive;
            if (n->staged)
                n->smask[n->phase * n->sstride + o / 64] |= 1ull << (o % 64);
        }
    }
    ring_pop(&in->q);
    in->sent = 0;
    out->lock = NO_INPUT;
    if (in->q.n) {
        x = ring_head(&in->q);
        in->head_flits = x->nflits;
        in->head_dst = x->dst;
        n->renew[(*nrenew)++] = i; /* its next packet competes from the next cycle on */
    } else
        n->nactive--;
}

/* Output o takes one flit, if it has a sender. Returns whether it did. */
static bool serve_output(struct mem_icnt *n, uint32_t o, uint32_t *nrenew)
{
    struct icnt_out *out = &n->out[o];
    uint32_t i = out->lock;
    struct icnt_in *in;

    if (i == NO_INPUT) {
        if (!out->nwant) { /* nothing to serve until an input wants it (want_set) */
            n->busy[o / 64] &= ~(1ull << (o % 64));
            return false;
        }
        /* A new packet needs a free ejection slot; none is taken while one is mid-transfer. */
        if (n->p.out_buf_pkts && held(n, o) >= n->p.out_buf_pkts)
            return false;
        i = rr_pick(n, o);
        assert(i != NO_INPUT); /* nwant counts the bits rr_pick looks at */
        want_clear(n, o, i);
        out->rr = i + 1 < n->p.nin ? i + 1 : 0;
        out->lock = i;
    }
    in = &n->in[i];
    in->sent++;
    in->flits--;
    n->nflits--;
    n->st.flits++;
    if (in->sent == in->head_flits)
        finish_packet(n, i, o, nrenew);
    return true;
}

void mem_icnt_cycle(struct mem_icnt *n)
{
    uint32_t nrenew = 0, sent = 0, active;

    take_pushes(n);
    active = n->nactive;
    n->st.cycles++;
    if (n->nflits) {
        /* in output order, as every output were served: an idle one does nothing */
        for (uint32_t w = 0; w * 64 < n->p.nout; w++)
            for (uint64_t b = n->busy[w]; b; b &= b - 1)
                sent += serve_output(n, w * 64 + (uint32_t)__builtin_ctzll(b), &nrenew);
        n->st.out_conflict += active - sent;
        for (uint32_t k = 0; k < nrenew; k++) {
            uint32_t i = n->renew[k];

            want_set(n, n->in[i].head_dst, i);
        }
    }
    n->now++;
    if (!n->staged)
        n->seen = n->now;
}

bool mem_icnt_stage(struct mem_icnt *n)
{
    if (n->staged)
        return true;
    if (!n->p.latency || mem_icnt_busy(n))
        return false;
    n->sstride = ((n->p.nout + 63) / 64 + 7) / 8 * 8; /* words, whole cache lines */
    n->stage = aligned_alloc(64, (size_t)2 * n->p.nout * sizeof(*n->stage));
    n->smask = aligned_alloc(64, (size_t)2 * n->sstride * sizeof(*n->smask));
    if (!n->stage || !n->smask) {
        free(n->stage);
        free(n->smask);
        n->stage = NULL;
        n->smask = NULL;
        return false;
    }
    memset(n->smask, 0, (size_t)2 * n->sstride * sizeof(*n->smask));
    for (uint32_t k = 0; k < 2 * n->p.nout; k++) {
        ps_ring_init(&n->stage[k].q, sizeof(struct icnt_pkt), 0);
        n->stage[k].head_at = UINT64_MAX;
    }
    n->staged = true;
    return true;
}

void mem_icnt_advance(struct mem_icnt *n)
{
    assert(n->staged);
    n->seen++;
}

void mem_icnt_set_phase(struct mem_icnt *n, uint64_t phase)
{
    uint64_t *mask;

    n->phase = (uint32_t)(phase & 1);
    if (!n->staged)
        return;
    mask = &n->smask[n->phase * n->sstride];
    /*
     * The protocol's invariant: every output drained, in the core cycle just
     * run, the stage this phase delivers to again. One that was not would hold
     * its replies back from its SM until a later drain, and the results would
     * no longer be those of the sequential tick.
     */
    for (uint32_t w = 0; w < (n->p.nout + 63) / 64; w++)
        for (uint64_t b = mask[w]; b; b &= b - 1) {
            uint32_t o = w * 64 + (uint32_t)__builtin_ctzll(b);

            assert(!n->stage[n->phase * n->p.nout + o].q.n);
            (void)o;
        }
    memset(mask, 0, n->sstride * sizeof(*mask));
}

/* Output dst's stage of phase ph holds packets. */
static bool staged_at(const struct mem_icnt *n, uint32_t ph, uint32_t dst)
{
    return n->smask[ph * n->sstride + dst / 64] >> (dst % 64) & 1;
}

void mem_icnt_drain(struct mem_icnt *n, uint32_t dst)
{
    struct icnt_stage *st;
    struct icnt_port *o;

    if (!n->staged || !staged_at(n, n->phase ^ 1, dst))
        return;
    st = &n->stage[(n->phase ^ 1) * n->p.nout + dst];
    if (!st->q.n)
        return;
    o = &n->port[dst];
    if (!o->q.n) {
        /*
         * An empty port takes the stage's ring whole and leaves it its own,
         * empty one: the packets are not copied (the copy was 2% of a
         * memory-bound run, a cache miss per packet on the popping thread).
         */
        struct ps_ring q = o->q;

        o->q = st->q;
        st->q = q;
        o->head_at = st->head_at;
        st->head_at = UINT64_MAX;
        return;
    }
    if (ps_ring_reserve(&o->q, st->q.n)) {
        for (const struct icnt_pkt *x; (x = ring_head(&st->q)); ring_pop(&st->q))
            PS_RING_PUSH(&o->q, x);
    } else {
        while (st->q.n) /* host out of memory: the packets are lost, as in mem_icnt_push */
            ring_pop(&st->q);
    }
    st->head_at = UINT64_MAX;
}

bool mem_icnt_ready(const struct mem_icnt *n, uint32_t dst)
{
    return n->port[dst].head_at <= n->seen ||
           (n->staged && staged_at(n, n->phase ^ 1, dst) &&
            n->stage[(n->phase ^ 1) * n->p.nout + dst].head_at <= n->seen);
}

/* A packet waits at the port itself (staged: after mem_icnt_drain). */
static bool port_ready(const struct mem_icnt *n, uint32_t dst)
{
    return n->port[dst].head_at <= n->seen;
}

const struct mem_req *mem_icnt_peek(const struct mem_icnt *n, uint32_t dst)
{
    return port_ready(n, dst) ? &ring_head(&n->port[dst].q)->req : NULL;
}

bool mem_icnt_pop(struct mem_icnt *n, uint32_t dst, struct mem_req *out)
{
    struct icnt_port *o = &n->port[dst];
    const struct icnt_pkt *x;

    if (!port_ready(n, dst))
        return false;
    *out = ring_head(&o->q)->req;
    ring_pop(&o->q);
    o->popped++;
    x = ring_head(&o->q);
    o->head_at = x ? x->t_arrive : UINT64_MAX;
    return true;
}

void mem_icnt_publish_pops(struct mem_icnt *n, uint32_t dst)
{
    struct icnt_port *o = &n->port[dst];

    o->pops_at[n->phase] = o->popped;
}

void mem_icnt_set_concurrent(struct mem_icnt *n, bool on)
{
    n->concurrent = on;
}

bool mem_icnt_busy(const struct mem_icnt *n)
{
    if (n->nflits)
        return true;
    for (uint32_t i = 0; i < n->p.nin; i++)
        if (n->in[i].pend_flits)
            return true;
    for (uint32_t o = 0; o < n->p.nout; o++)
        if (n->out[o].arrived != n->port[o].popped)
            return true;
    return false;
}

const struct mem_icnt_stats *mem_icnt_get_stats(const struct mem_icnt *n)
{
    n->stp->in_stall = 0;
    for (uint32_t i = 0; i < n->p.nin; i++)
        n->stp->in_stall += n->in[i].stalls;
    return &n->st;
}
