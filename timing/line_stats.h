/*
 * Per-PTX-line statistics (-enable_ptx_file_line_stats, GPGPU-Sim's option):
 * for every instruction of a program, the warp instructions issued, the
 * scheduler cycles its warps waited to issue it (by reason), its L1D
 * accesses and misses, and the round trip of its requests that left the SM
 * (count, total and largest latency, how many missed in the L2). The SM
 * counts into a table through the calls below; the table keeps what the
 * file needs of the program (PTX file and line, .loc source line, the
 * instruction's text), so it can be written after the program is gone.
 * `ptxsim annotate FILE` reads the file (tools/verb_annotate.c);
 * docs/statistics.md describes its columns.
 */
#ifndef PTXSIM_TIMING_LINE_STATS_H
#define PTXSIM_TIMING_LINE_STATS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "common/err.h"

struct isa_program;
struct isa_warp;

/* Why a warp could not issue its next instruction (the SM's stall taxonomy). */
enum tm_line_stall {
    TM_LS_SYNC,
    TM_LS_FETCH,
    TM_LS_CONTROL,
    TM_LS_DATA,
    TM_LS_DCACHE_MISS,
    TM_LS_MSHR,
    TM_LS_STRUCTURAL,
    TM_LS_COUNT
};

struct tm_lines;     /* the statistics of every program that ran */
struct tm_line_prog; /* those of one program: what the SM counts into */

struct tm_lines *tm_lines_create(void);
void tm_lines_destroy(struct tm_lines *t);

/* The table of program p (made on its first launch), or NULL when out of memory. */
struct tm_line_prog *tm_lines_program(struct tm_lines *t, const struct isa_program *p);

/* One warp instruction of function fidx at pc issued. */
void tm_lines_exec(struct tm_line_prog *lp, uint32_t fidx, uint32_t pc);
/* Warp w could not issue its next instruction this scheduler cycle, for reason why. */
void tm_lines_stall(struct tm_line_prog *lp, const struct isa_warp *w, enum tm_line_stall why);
/* One L1D access of the instruction; miss as GPGPU-Sim counts (not a hit, not a merge). */
void tm_lines_l1d(struct tm_line_prog *lp, uint32_t fidx, uint32_t pc, bool miss);
/* One of its requests came back after lat core cycles; l2_miss: it missed in the L2. */
void tm_lines_reply(struct tm_line_prog *lp, uint32_t fidx, uint32_t pc, uint64_t lat,
                    bool l2_miss);

/* Writes every program's statistics to path (tab-separated text). */
int tm_lines_write(const struct tm_lines *t, const char *path, struct ps_err *err);

#endif
