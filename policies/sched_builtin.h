/*
 * The built-in warp and CTA schedulers, one const ops table per file
 * (policies/ws_*.c, policies/cta_*.c). policies/registry.c names them;
 * nothing else needs these symbols, so code outside policies/ goes through
 * the registry.
 */
#ifndef PTXSIM_POLICIES_SCHED_BUILTIN_H
#define PTXSIM_POLICIES_SCHED_BUILTIN_H

#include <stdint.h>
#include <stdio.h>

struct pol_warp_sched_ops;
struct pol_cta_sched_ops;
struct ps_err;

extern const struct pol_warp_sched_ops pol_ws_lrr;           /* ws_lrr.c: loose round robin */
extern const struct pol_warp_sched_ops pol_ws_gto;           /* ws_gto.c: greedy then oldest */
extern const struct pol_warp_sched_ops pol_ws_oldest;        /* ws_oldest.c: oldest first */
extern const struct pol_warp_sched_ops pol_ws_two_level;     /* ws_two_level.c: active/pending */
extern const struct pol_warp_sched_ops pol_ws_swl;           /* ws_swl.c: swl:N, N per SM */
extern const struct pol_warp_sched_ops pol_ws_warp_limiting; /* ws_swl.c: GPGPU-Sim's form */
extern const struct pol_warp_sched_ops pol_ws_ccws;          /* ws_ccws.c: CCWS over GTO */
extern const struct pol_warp_sched_ops pol_ws_gcaws;         /* ws_gcaws.c: CAWA gCAWS + CPL */
extern const struct pol_warp_sched_ops pol_ws_caws;          /* ws_caws.c: oracle CAWS, ch. 3 */

extern const struct pol_cta_sched_ops pol_cta_rr;     /* cta_rr.c: maximum occupancy */
extern const struct pol_cta_sched_ops pol_cta_static; /* cta_static.c: a fixed limit */
extern const struct pol_cta_sched_ops pol_cta_dyncta; /* cta_dyncta.c: DYNCTA, seed 001 */

/* DYNCTA's series of n as CSV ("kernel,cycle,sm,n"); its table's dump op. */
int pol_cta_dyncta_dump(const void *st, FILE *out, struct ps_err *err);

/* caws (for tests): a slot's class (0 normal, 1 critical, 2 fast, -1 none) and counter. */
int pol_ws_caws_class(const void *st, uint32_t slot);
uint32_t pol_ws_caws_counter(const void *st, uint32_t slot);

#endif
