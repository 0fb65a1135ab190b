/* The fetch stage and the I-buffers; see fetch.h. */
#include "timing/fetch.h"

void tm_ibuf_filled(struct tm_ibuf *ib, uint64_t now)
{
    if (!ib->fetching)
        return;
    ib->fetching = false;
    ib->ready = now + 1;
}

void tm_ibuf_advance(struct tm_ibuf *ib, const struct isa_warp *w, bool is_ctrl)
{
    uint32_t fidx, pc;

    if (w->state == ISA_WARP_DONE || !w->sp) {
        ib->n = 0;
        return;
    }
    fidx = w->fr[w->nfr - 1].fidx;
    pc = w->st[w->sp - 1].pc;
    if (ib->n > 1 && fidx == ib->fidx && pc == ib->pc + 1) {
        ib->pc++;
        ib->n--;
        ib->ctrl = false;
        return;
    }
    ib->ctrl = is_ctrl && !(fidx == ib->fidx && pc == ib->pc + 1);
    ib->n = 0;
}

void tm_fetch_request(struct mem_req *r, const struct tm_params *p, uint32_t sm, uint32_t slot,
                      uint32_t fidx, uint32_t pc)
{
    *r = (struct mem_req){0};
    r->addr = TM_INST_BASE + ((uint64_t)fidx << 24) + (uint64_t)pc * TM_INST_BYTES;
    r->addr -= r->addr % p->l1i.line_bytes;
    r->bytes = p->l1i.line_bytes;
    r->sector_mask = 0xf;
    r->type = MEM_READ;
    r->space = MEM_INST;
    r->sm = (uint16_t)sm;
    r->warp = (uint16_t)slot;
    r->pc = pc;
    r->fidx = fidx;
    r->uid = slot;
}

bool tm_fetch_warp(struct tm_ibuf *ib, struct mem_cache *l1i, const struct tm_params *p,
                   uint32_t sm, uint32_t slot, uint32_t fidx, uint32_t pc, uint64_t now)
{
    struct mem_req r;
    enum mem_cache_result res;

    tm_fetch_request(&r, p, sm, slot, fidx, pc);
    res = mem_cache_access(l1i, &r, now);
    if (res == MEM_RESFAIL)
        return false;
    ib->fidx = fidx;
    ib->pc = pc;
    ib->n = p->ibuffer;
    ib->ctrl = false;
    if (res == MEM_HIT)
        ib->ready = now + 1;
    else
        ib->fetching = true;
    return true;
}
