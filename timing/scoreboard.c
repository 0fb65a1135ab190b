/* A warp's register scoreboard; see scoreboard.h. */
#include "timing/scoreboard.h"

#include <stdlib.h>
#include <string.h>

#include "common/err.h"

void tm_sb_reset(struct tm_scoreboard *sb)
{
    free(sb->ready_at);
    memset(sb, 0, sizeof(*sb));
}

int tm_sb_grow(struct tm_scoreboard *sb, size_t need)
{
    uint64_t *n;

    if (need <= sb->n)
        return 0;
    n = realloc(sb->ready_at, need * sizeof(*n));
    if (!n)
        return PS_ENOMEM;
    memset(n + sb->n, 0, (need - sb->n) * sizeof(*n));
    sb->ready_at = n;
    sb->n = need;
    return 0;
}

void tm_sb_set(struct tm_scoreboard *sb, size_t reg, uint64_t at)
{
    if (reg < sb->n)
        sb->ready_at[reg] = at;
}

/* Register i of ii's operands: sources first, then destinations. */
static uint32_t operand_reg(const struct tm_iinfo *ii, uint32_t i)
{
    return i < ii->nsrc ? ii->src[i] : ii->dst[i - ii->nsrc];
}

enum tm_sb_wait tm_sb_check(struct tm_scoreboard *sb, size_t base, const struct tm_iinfo *ii,
                            uint64_t now)
{
    for (uint32_t i = 0; i < (uint32_t)ii->nsrc + ii->ndst; i++) {
        size_t reg = base + operand_reg(ii, i);
        uint64_t t = reg < sb->n ? sb->ready_at[reg] : 0;

        if (t <= now)
            continue;
        if (t != TM_NEVER) {
            sb->blk_until = t;
            sb->blk_why = TM_SB_DATA;
            sb->blk_ok = true;
            return TM_SB_DATA;
        }
        /* The first cycle of a wait on a load counts as a data stall, the rest as a miss. */
        if (!sb->dmiss_seen) {
            sb->dmiss_seen = true;
            return TM_SB_DATA;
        }
        sb->blk_until = TM_NEVER;
        sb->blk_why = TM_SB_DMISS;
        sb->blk_ok = true;
        return TM_SB_DMISS;
    }
    return TM_SB_READY;
}

bool tm_sb_waits_on_load(const struct tm_scoreboard *sb, size_t base, const struct tm_iinfo *ii)
{
    int cached = tm_sb_cached_load_wait(sb);

    if (cached >= 0)
        return cached;
    if (!ii)
        return false;
    for (uint32_t i = 0; i < (uint32_t)ii->nsrc + ii->ndst; i++) {
        size_t reg = base + operand_reg(ii, i);

        if (reg < sb->n && sb->ready_at[reg] == TM_NEVER)
            return true;
    }
    return false;
}

uint64_t tm_sb_blocked_until(const struct tm_scoreboard *sb, size_t base, const struct tm_iinfo *ii,
                             uint64_t now)
{
    uint64_t wake = 0;

    for (uint32_t i = 0; i < (uint32_t)ii->nsrc + ii->ndst; i++) {
        size_t reg = base + operand_reg(ii, i);
        uint64_t t = reg < sb->n ? sb->ready_at[reg] : 0;

        if (t > now && (!wake || t < wake))
            wake = t;
    }
    return wake;
}
