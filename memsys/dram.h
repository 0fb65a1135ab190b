/*
 * One DRAM channel (memory controller): a request queue scheduled FR-FCFS
 * (or FIFO), banks in bank groups with row buffers, GDDR5 timing
 * constraints in command-clock cycles, a shared data bus whose burst
 * occupies burst_length / data_command_ratio command cycles, and a return
 * queue. Driven one command-clock cycle at a time.
 */
#ifndef PTXSIM_MEMSYS_DRAM_H
#define PTXSIM_MEMSYS_DRAM_H

#include <stdbool.h>
#include <stdint.h>

#include "common/err.h"
#include "memsys/req.h"

/* -gpgpu_dram_timing_opt "nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:WR=12:nbkgrp=4:CCDL=3:RTPL=2" */
struct mem_dram_timing {
    uint32_t nbk, CCD, RRD, RCD, RAS, RP, RC, CL, WL, CDLR, WR, nbkgrp, CCDL, RTPL;
};

int mem_dram_timing_parse(const char *s, struct mem_dram_timing *t, struct ps_err *err);

struct mem_dram_params {
    struct mem_dram_timing t;
    uint32_t scheduler;      /* 0 FIFO, 1 FR-FCFS */
    uint32_t queue_size;     /* scheduler queue entries (0 = unlimited) */
    uint32_t return_queue;   /* completed-read queue entries (0 = unlimited) */
    uint32_t burst_length;   /* beats per burst */
    uint32_t bus_width;      /* bytes per chip per beat */
    uint32_t chips;          /* chips per channel */
    uint32_t data_cmd_ratio; /* data beats per command cycle */
    uint32_t bnkgrp_indexing;/* -dram_bnkgrp_indexing_policy: 0 high bank bits, 1 low bank bits */
    bool sector_bursts;      /* a read takes one burst per 32-byte sector (GPGPU-Sim) */
};

struct mem_dram_stats {
    uint64_t cycles;            /* command-clock cycles simulated */
    uint64_t reads, writes;     /* requests served */
    uint64_t read_bytes, write_bytes;
    uint64_t row_hits, row_misses; /* served from an open row / needed an activate */
    uint64_t activates, precharges;
    uint64_t data_busy;         /* command cycles the data bus carried data */
    uint64_t queue_occupancy;   /* sum over cycles of queued requests */
    uint64_t latency_sum;       /* command cycles from push to completion, over reads */
};

struct mem_dram;

struct mem_dram *mem_dram_create(const struct mem_dram_params *p, uint32_t id, struct ps_err *err);
void mem_dram_destroy(struct mem_dram *d);

bool mem_dram_full(const struct mem_dram *d);
/* Queues r (bank, row and col already filled by the address map). */
void mem_dram_push(struct mem_dram *d, const struct mem_req *r);
/* Advances one command-clock cycle. */
void mem_dram_cycle(struct mem_dram *d);
/* Completed requests: reads with their data, and writes (so the owner can count them). */
bool mem_dram_pop(struct mem_dram *d, struct mem_req *out);
/* Requests queued, in flight or waiting to be popped. */
bool mem_dram_busy(const struct mem_dram *d);

const struct mem_dram_stats *mem_dram_get_stats(const struct mem_dram *d);

#endif
