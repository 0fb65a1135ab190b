/*
 * A warp's scoreboard: per register of its register-pool window, the cycle
 * from which the register may be read (TM_NEVER while a load will fill it).
 * A verdict cache remembers why the next instruction cannot issue before a
 * given cycle; registers change only when the warp issues or one of its
 * loads completes, and both clear the cache (tm_sb_forget).
 */
#ifndef PTXSIM_TIMING_SCOREBOARD_H
#define PTXSIM_TIMING_SCOREBOARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "timing/iinfo.h"

#define TM_NEVER UINT64_MAX

/* Why the next instruction waits on its registers. */
enum tm_sb_wait {
    TM_SB_READY, /* every source and destination is readable */
    TM_SB_DATA,  /* an ALU result, or the first cycle of a wait on a load */
    TM_SB_DMISS, /* a load's result, from the second cycle of the wait on */
};

struct tm_scoreboard {
    uint64_t *ready_at; /* per register-pool slot of the warp */
    size_t n;
    uint64_t blk_until; /* verdict cache: no issue before this (TM_NEVER: a load) */
    uint8_t blk_why;    /* enum tm_sb_wait */
    bool blk_ok;
    bool dmiss_seen; /* the first cycle of the wait on a load was counted as TM_SB_DATA */
};

/* An empty scoreboard (for a warp entering its slot); frees the old table. */
void tm_sb_reset(struct tm_scoreboard *sb);
/* Room for `need` registers, the new ones readable at once; PS_ENOMEM or 0. */
int tm_sb_grow(struct tm_scoreboard *sb, size_t need);
/* Register reg becomes readable at cycle `at` (registers beyond the table are ignored). */
void tm_sb_set(struct tm_scoreboard *sb, size_t reg, uint64_t at);

static inline void tm_sb_forget(struct tm_scoreboard *sb)
{
    sb->blk_ok = false;
}

/*
 * The verdict cache says the warp still waits at now: true and *why. Inline,
 * as tm_sb_cached_load_wait: a scheduler pass asks both of every warp.
 */
static inline bool tm_sb_cached(const struct tm_scoreboard *sb, uint64_t now, enum tm_sb_wait *why)
{
    if (!sb->blk_ok || sb->blk_until <= now)
        return false;
    *why = (enum tm_sb_wait)sb->blk_why;
    return true;
}

/*
 * Whether instruction ii, with register window at base, can read and write
 * its registers at now; a wait is remembered in the verdict cache.
 */
enum tm_sb_wait tm_sb_check(struct tm_scoreboard *sb, size_t base, const struct tm_iinfo *ii,
                            uint64_t now);
/* ii (NULL: unknown) needs a register an outstanding load will fill; the verdict cache first. */
bool tm_sb_waits_on_load(const struct tm_scoreboard *sb, size_t base, const struct tm_iinfo *ii);
/* The verdict cache's answer to tm_sb_waits_on_load, or -1 when it has none. */
static inline int tm_sb_cached_load_wait(const struct tm_scoreboard *sb)
{
    return sb->blk_ok ? sb->blk_until == TM_NEVER : -1;
}
/* The earliest cycle after now at which a blocked register of ii frees (0: none is blocked). */
uint64_t tm_sb_blocked_until(const struct tm_scoreboard *sb, size_t base, const struct tm_iinfo *ii,
                             uint64_t now);

#endif
