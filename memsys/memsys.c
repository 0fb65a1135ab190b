/*
 * The memory system below the L1s. Each sub-partition holds a ROP delay
 * queue, an L2 slice and a reply queue; each channel a DRAM controller fed
 * round robin by its sub-partitions through a fixed-latency line in front of
 * the DRAM scheduler (-dram_latency, as GPGPU-Sim's DRAM latency queue). Two crossbars connect them
 * to the SMs: requests SM -> sub-partition, replies sub-partition -> SM.
 */
#include <stdlib.h>
#include <string.h>

#include "common/counters.h"
#include "memsys/fifo.h"
#include "memsys/memsys.h"

struct subpart {
    struct mem_cache *l2;
    struct mem_fifo rop;     /* arrivals waiting out the ROP latency, then for the L2 */
    uint32_t rop_ready;      /* the first rop_ready arrivals have waited out the latency... */
    uint32_t rop_sectors;    /* ...and stand for this many L2 accesses (rop_room) */
    struct mem_fifo to_dram; /* L2 misses and write-backs for the channel */
    struct mem_fifo replies; /* answers waiting for the reply network */
    uint64_t reads, writes, atomics, dram_stall;
    uint64_t warm_seq;  /* sectors host copies marked here: their LRU clock offset */
    uint64_t port_free; /* L2 cycle from which the slice takes its next access */
};

struct chan {
    struct mem_dram *d;
    struct mem_fifo lat; /* requests on their way to the DRAM, delayed by -dram_latency */
    struct mem_fifo ret; /* DRAM answers waiting for their L2 slice */
    uint32_t rr;         /* next sub-partition to take a request from */
};

struct mem_system {
    struct mem_system_params p;
    uint32_t nparts;
    struct subpart *sp;
    struct chan *ch;
    struct mem_icnt *req, *reply;
    uint64_t l2_now, dram_now;
};

uint32_t mem_req_request_bytes(const struct mem_req *r)
{
    return r->type == MEM_READ ? MEM_CTRL_BYTES : MEM_CTRL_BYTES + r->bytes;
}

uint32_t mem_req_ack_count(const struct mem_req *r)
{
    uint32_t n = mem_sectors(r->sector_mask);

    if (r->type != MEM_WRITE || r->is_writeback)
        return 0;
    return n ? n : 1;
}

uint32_t mem_req_reply_bytes(const struct mem_req *r)
{
    if (r->sector_part)
        return MEM_CTRL_BYTES + MEM_SECTOR_BYTES;
    return r->type == MEM_WRITE ? MEM_CTRL_BYTES : MEM_CTRL_BYTES + r->bytes;
}

/*
 * The L2 accesses one request becomes: one per sector it touches on a
 * sectored L2 (GPGPU-Sim splits a line request into sector requests), else one.
 */
static uint32_t l2_accesses(const struct mem_system *ms, const struct mem_req *r)
{
    uint32_t n = mem_sectors(r->sector_mask);

    return ms->p.l2.kind == 'S' && n ? n : 1;
}

/*
 * The reply packets a read answer becomes: with -ptxsim_sector_replies, one
 * per L2 access (each of GPGPU-Sim's sector requests is answered by a packet
 * of its own, and the L1's SECTOR_ASSOC MSHR fills the line when the last has
 * come back).
 */
static uint32_t reply_parts(const struct mem_system *ms, const struct mem_req *r)
{
    uint32_t n = l2_accesses(ms, r);

    if (!ms->p.sector_replies || r->type != MEM_READ || r->l2_atomic || n > ms->p.partq[3])
        return 1;
    return n;
}

/* Queues the answer to read r, part k ready at l2 cycle ready0 + k. */
static void push_reply(struct mem_fifo *f, const struct mem_system *ms, const struct mem_req *r,
                       uint64_t ready0)
{
    uint32_t n = reply_parts(ms, r);
    struct mem_req p = *r;

    if (n == 1) {
        mem_fifo_push(f, r, ready0);
        return;
    }
    p.sector_part = true;
    for (uint32_t k = 0; k < n; k++) {
        p.parts_left = (uint8_t)(n - 1 - k);
        mem_fifo_push(f, &p, ready0 + k);
    }
}

static uint64_t partition_addr(const void *ctx, uint64_t addr)
{
    return mem_addrmap_partition_addr(ctx, addr);
}

/*
 * Whether the slice takes another packet from the crossbar. GPGPU-Sim's
 * ROP delay queue has no bound: a packet enters it whenever the queue that
 * follows it, from which the L2 takes its accesses (m_icnt_L2_queue,
 * -gpgpu_dram_partition_queues' first figure, in sectors), has room for
 * the four sectors a line request may become; when it has not, the packet
 * waits in the crossbar (gpu_stall_dramfull). Here both queues are the rop
 * fifo: the arrivals that have waited out the latency are the second.
 */
static bool rop_room(const struct mem_system *ms, struct subpart *s)
{
    if (mem_fifo_full(&s->rop))
        return false;
    while (s->rop_ready < s->rop.q.n) {
        const struct mem_fifo_entry *e = ps_ring_at(&s->rop.q, s->rop_ready);

        if (e->ready > ms->l2_now)
            break;
        s->rop_sectors += l2_accesses(ms, &e->r);
        s->rop_ready++;
    }
    return s->rop_sectors + 4 <= ms->p.partq[0];
}

static int create_parts(struct mem_system *ms, struct ps_err *err)
{
    const struct mem_system_params *p = &ms->p;

    for (uint32_t i = 0; i < ms->nparts; i++) {
        struct subpart *s = &ms->sp[i];
        char name[32];

        snprintf(name, sizeof(name), "L2[%u]", i);
        s->l2 = mem_cache_create(&p->l2, name, NULL, "", UINT32_MAX, err);
        if (!s->l2)
            return err ? err->code : PS_EINVAL;
        mem_cache_set_index_fn(s->l2, partition_addr, &ms->p.amap);
        /*
         * The ROP queue holds what arrived in the last rop_latency cycles (at
         * most one packet a cycle) besides the partq[0] sectors that wait for
         * the L2 (rop_room); the margin only keeps it from ever being full.
         */
        if (mem_fifo_init(&s->rop, p->partq[0] + 2 * p->rop_latency + 8) ||
            mem_fifo_init(&s->to_dram, p->partq[1]) || mem_fifo_init(&s->replies, p->partq[3]))
            return ps_err_set(err, PS_ENOMEM, "out of memory");
    }
    for (uint32_t i = 0; i < p->nmem; i++) {
        ms->ch[i].d = mem_dram_create(&p->dram, i, err);
        if (!ms->ch[i].d)
            return err ? err->code : PS_EINVAL;
        if (mem_fifo_init(&ms->ch[i].ret, p->partq[2]) ||
            mem_fifo_init(&ms->ch[i].lat, p->partq[1]))
            return ps_err_set(err, PS_ENOMEM, "out of memory");
    }
    return 0;
}

struct mem_system *mem_system_create(const struct mem_system_params *p, struct ps_err *err)
{
    struct mem_system *ms = calloc(1, sizeof(*ms));
    struct mem_icnt_params ip;

    if (!ms) {
        ps_err_set(err, PS_ENOMEM, "out of memory");
        return NULL;
    }
    ms->p = *p;
    ms->nparts = p->nmem * p->nsub;
    ms->sp = calloc(ms->nparts, sizeof(*ms->sp));
    ms->ch = calloc(p->nmem, sizeof(*ms->ch));
    if (!ms->sp || !ms->ch) {
        ps_err_set(err, PS_ENOMEM, "out of memory");
        goto fail;
    }
    if (create_parts(ms, err))
        goto fail;
    ip = p->icnt;
    ip.nin = p->nsm;
    ip.nout = ms->nparts;
    ip.out_buf_pkts = p->partq[0];
    ms->req = mem_icnt_create(&ip, err);
    ip = p->icnt;
    ip.nin = ms->nparts;
    ip.nout = p->nsm;
    ms->reply = ms->req ? mem_icnt_create(&ip, err) : NULL;
    if (!ms->reply)
        goto fail;
    return ms;
fail:
    mem_system_destroy(ms);
    return NULL;
}

void mem_system_destroy(struct mem_system *ms)
{
    if (!ms)
        return;
    for (uint32_t i = 0; ms->sp && i < ms->nparts; i++) {
        mem_cache_destroy(ms->sp[i].l2);
        mem_fifo_fini(&ms->sp[i].rop);
        mem_fifo_fini(&ms->sp[i].to_dram);
        mem_fifo_fini(&ms->sp[i].replies);
    }
    for (uint32_t i = 0; ms->ch && i < ms->p.nmem; i++) {
        mem_dram_destroy(ms->ch[i].d);
        mem_fifo_fini(&ms->ch[i].ret);
        mem_fifo_fini(&ms->ch[i].lat);
    }
    if (ms->req)
        mem_icnt_destroy(ms->req);
    if (ms->reply)
        mem_icnt_destroy(ms->reply);
    free(ms->sp);
    free(ms->ch);
    free(ms);
}

bool mem_system_can_send(const struct mem_system *ms, uint32_t sm, const struct mem_req *r)
{
    return mem_icnt_can_push(ms->req, sm, mem_req_request_bytes(r));
}

void mem_system_send(struct mem_system *ms, uint32_t sm, struct mem_req *r)
{
    mem_addrmap_decode(&ms->p.amap, r);
    if (r->part >= ms->nparts)
        r->part = (uint16_t)(r->part % ms->nparts);
    mem_icnt_push(ms->req, sm, r->part, r, mem_req_request_bytes(r));
}

void mem_system_warm_l2(struct mem_system *ms, uint64_t addr, uint64_t bytes)
{
    uint64_t end = addr + bytes;

    if (end < addr)
        end = UINT64_MAX;
    /*
     * One 32-byte sector at a time, as GPGPU-Sim walks a copy; each sector a
     * slice marks counts one more in that slice's LRU clock offset.
     */
    for (uint64_t a = addr & ~(uint64_t)(MEM_SECTOR_BYTES - 1); a < end; a += MEM_SECTOR_BYTES) {
        struct mem_req r = {.addr = a, .bytes = MEM_SECTOR_BYTES, .type = MEM_WRITE};

        struct subpart *s;

        mem_addrmap_decode(&ms->p.amap, &r);
        s = &ms->sp[r.part % ms->nparts];
        mem_cache_warm(s->l2, a, (uint8_t)(1u << (a % 128 / 32)), ms->l2_now + s->warm_seq++);
        if (a > UINT64_MAX - MEM_SECTOR_BYTES)
            break;
    }
}

bool mem_system_pop_reply(struct mem_system *ms, uint32_t sm, struct mem_req *out)
{
    return mem_icnt_pop(ms->reply, sm, out);
}

bool mem_system_room(const struct mem_system *ms, uint32_t sm, const struct mem_req *r)
{
    return mem_icnt_room(ms->req, sm, mem_req_request_bytes(r));
}

void mem_system_count_stalls(struct mem_system *ms, uint32_t sm, uint32_t k)
{
    mem_icnt_count_stalls(ms->req, sm, k);
}

void mem_system_publish_pops(struct mem_system *ms, uint32_t sm)
{
    mem_icnt_publish_pops(ms->reply, sm);
}

void mem_system_set_concurrent(struct mem_system *ms, bool on)
{
    mem_icnt_set_concurrent(ms->reply, on);
}

bool mem_system_reply_ready(const struct mem_system *ms, uint32_t sm)
{
    return mem_icnt_ready(ms->reply, sm);
}

const struct mem_req *mem_system_peek_reply(const struct mem_system *ms, uint32_t sm)
{
    return mem_icnt_peek(ms->reply, sm);
}

void mem_system_icnt_cycle(struct mem_system *ms)
{
    mem_icnt_cycle(ms->req);
    mem_icnt_cycle(ms->reply);
}

bool mem_system_stage_replies(struct mem_system *ms)
{
    return mem_icnt_stage(ms->reply);
}

void mem_system_req_cycle(struct mem_system *ms)
{
    mem_icnt_cycle(ms->req);
}

void mem_system_reply_advance(struct mem_system *ms)
{
    mem_icnt_advance(ms->reply);
}

void mem_system_reply_cycle(struct mem_system *ms)
{
    mem_icnt_cycle(ms->reply);
}

void mem_system_core_edge(struct mem_system *ms, uint64_t core_cycle)
{
    mem_icnt_set_phase(ms->reply, core_cycle);
}

void mem_system_reply_drain(struct mem_system *ms, uint32_t sm)
{
    mem_icnt_drain(ms->reply, sm);
}

/* The head of the ROP queue looks up the L2 slice. */
static void l2_lookup(struct mem_system *ms, struct subpart *s)
{
    struct mem_req *r = mem_fifo_head(&s->rop, ms->l2_now), q;
    enum mem_cache_result res;

    if (!r || s->port_free > ms->l2_now)
        return;
    q = *r;
    if (q.type == MEM_ATOMIC) {
        /* The ROP performs the read-modify-write at the L2: a read of the line. */
        q.type = MEM_READ;
        q.l2_atomic = true;
    }
    if (q.type == MEM_READ && s->replies.q.cap - s->replies.q.n < reply_parts(ms, &q))
        return;
    if (s->replies.q.cap - s->replies.q.n < mem_req_ack_count(&q))
        return;
    res = mem_cache_access(s->l2, &q, ms->l2_now);
    if (res == MEM_RESFAIL)
        return;
    /*
     * A sectored L2 takes a request as one access per 32-byte sector, one a
     * cycle (GPGPU-Sim splits a line request into sector requests).
     */
    if (ms->p.l2.kind == 'S' && (q.sector_mask & 0xf))
        s->port_free = ms->l2_now + l2_accesses(ms, &q);
    s->reads += r->type == MEM_READ;
    s->writes += r->type == MEM_WRITE;
    s->atomics += r->type == MEM_ATOMIC;
    if (res == MEM_HIT && q.type == MEM_READ)
        push_reply(&s->replies, ms, &q, ms->l2_now);
    for (uint32_t k = mem_req_ack_count(&q); k > 0; k--)
        mem_fifo_push(&s->replies, &q, 0);
    if (s->rop_ready) { /* the head was counted as waiting for the L2 */
        s->rop_ready--;
        s->rop_sectors -= l2_accesses(ms, r);
    }
    mem_fifo_pop(&s->rop);
}

static void l2_cycle_part(struct mem_system *ms, uint32_t i)
{
    struct subpart *s = &ms->sp[i];
    const struct mem_req *head;
    struct mem_req r;

    /* Replies leave first so their queue has room for this cycle's hits. */
    while (s->replies.q.n) {
        struct mem_req *q;
        uint32_t bytes;

        if (!mem_icnt_room(ms->reply, i, 1)) {
            /* full for any packet: the refusal counted without reading the head */
            mem_icnt_can_push(ms->reply, i, 1);
            break;
        }
        q = mem_fifo_head(&s->replies, ms->l2_now);
        if (!q)
            break;
        if (q->l2_atomic) {
            q->type = MEM_ATOMIC;
            q->l2_atomic = false;
        }
        bytes = mem_req_reply_bytes(q);
        if (!mem_icnt_can_push(ms->reply, i, bytes))
            break;
        mem_icnt_push(ms->reply, i, q->sm, q, bytes);
        mem_fifo_pop(&s->replies);
    }
    /* room for the four parts an answer may become (reply_parts keeps them within the cap) */
    while (s->replies.q.cap - s->replies.q.n >= (s->replies.q.cap < 4 ? s->replies.q.cap : 4) &&
           mem_cache_pop_ready(s->l2, &r)) {
        r.l2_miss = true;
        push_reply(&s->replies, ms, &r, ms->l2_now);
    }
    l2_lookup(ms, s);
    while (rop_room(ms, s) && mem_icnt_pop(ms->req, i, &r))
        mem_fifo_push(&s->rop, &r, ms->l2_now + ms->p.rop_latency);
    while ((head = mem_cache_peek_miss(s->l2))) {
        if (mem_fifo_full(&s->to_dram)) {
            s->dram_stall++;
            break;
        }
        mem_cache_pop_miss(s->l2, &r);
        r.part = (uint16_t)i;
        mem_addrmap_decode(&ms->p.amap, &r);
        r.part = (uint16_t)i; /* the answer goes back to this slice whatever the map says */
        mem_fifo_push(&s->to_dram, &r, 0);
    }
}

void mem_system_l2_cycle(struct mem_system *ms)
{
    ms->l2_now++;
    for (uint32_t i = 0; i < ms->nparts; i++)
        l2_cycle_part(ms, i);
}

static void dram_cycle_chan(struct mem_system *ms, uint32_t c)
{
    struct chan *ch = &ms->ch[c];
    struct mem_req r, *q;

    /* Sub-partitions of the channel take turns to send a request down the latency line. */
    for (uint32_t k = 0; k < ms->p.nsub && !mem_fifo_full(&ch->lat); k++) {
        uint32_t s = c * ms->p.nsub + (ch->rr + k) % ms->p.nsub;
        struct mem_req *h = mem_fifo_head(&ms->sp[s].to_dram, UINT64_MAX);

        if (!h)
            continue;
        mem_fifo_push(&ch->lat, h, ms->dram_now + ms->p.dram_latency);
        mem_fifo_pop(&ms->sp[s].to_dram);
        ch->rr = (ch->rr + k + 1) % ms->p.nsub;
        break;
    }
    if ((q = mem_fifo_head(&ch->lat, ms->dram_now)) && !mem_dram_full(ch->d)) {
        mem_dram_push(ch->d, q);
        mem_fifo_pop(&ch->lat);
    }
    mem_dram_cycle(ch->d);
    while (!mem_fifo_full(&ch->ret) && mem_dram_pop(ch->d, &r))
        if (r.type != MEM_WRITE)
            mem_fifo_push(&ch->ret, &r, 0);
    while ((q = mem_fifo_head(&ch->ret, ms->dram_now))) {
        mem_cache_fill(ms->sp[q->part].l2, q, ms->l2_now);
        mem_fifo_pop(&ch->ret);
    }
}

void mem_system_dram_cycle(struct mem_system *ms)
{
    ms->dram_now++;
    for (uint32_t c = 0; c < ms->p.nmem; c++)
        dram_cycle_chan(ms, c);
}

bool mem_system_busy(const struct mem_system *ms)
{
    if (mem_icnt_busy(ms->req) || mem_icnt_busy(ms->reply))
        return true;
    for (uint32_t i = 0; i < ms->nparts; i++) {
        const struct subpart *s = &ms->sp[i];

        if (s->rop.q.n || s->to_dram.q.n || s->replies.q.n || mem_cache_busy(s->l2))
            return true;
    }
    for (uint32_t c = 0; c < ms->p.nmem; c++)
        if (ms->ch[c].ret.q.n || ms->ch[c].lat.q.n || mem_dram_busy(ms->ch[c].d))
            return true;
    return false;
}

void mem_system_get_stats(const struct mem_system *ms, struct mem_system_stats *out)
{
    memset(out, 0, sizeof(*out));
    for (uint32_t i = 0; i < ms->nparts; i++) {
        ps_counters_add(&out->l2, mem_cache_get_stats(ms->sp[i].l2), PS_NCOUNTERS(out->l2));
        out->l2_reads += ms->sp[i].reads;
        out->l2_writes += ms->sp[i].writes;
        out->l2_atomics += ms->sp[i].atomics;
        out->dram_queue_stall += ms->sp[i].dram_stall;
    }
    for (uint32_t c = 0; c < ms->p.nmem; c++)
        ps_counters_add(&out->dram, mem_dram_get_stats(ms->ch[c].d), PS_NCOUNTERS(out->dram));
    out->req = *mem_icnt_get_stats(ms->req);
    out->reply = *mem_icnt_get_stats(ms->reply);
}
