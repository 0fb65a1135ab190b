/*
 * The Markdown reports of `ptxsim sweep`: summary.md (per size and machine:
 * IPC normalised to the baseline variant with geometric, harmonic and
 * arithmetic means, L1D MPKI, and the stall breakdown per variant) and
 * classes.md (`--classify`: each workload's DYNCTA and CCWS class).
 */
#ifndef PTXSIM_TOOLS_SWEEP_SUMMARY_H
#define PTXSIM_TOOLS_SWEEP_SUMMARY_H

#include <stddef.h>
#include <stdio.h>

struct sweep_results;

/*
 * Writes summary.md for r to out. baseline names the variant IPC is
 * normalised to (NULL: the first); it must be one of r's variants.
 */
void sweep_summary_write(const struct sweep_results *r, const char *baseline, FILE *out);

/* Only the normalised-IPC tables, for the terminal at the end of a sweep. */
void sweep_summary_print_ipc(const struct sweep_results *r, const char *baseline, FILE *out);

/* The run, size and machine --classify reads, and its two variants. */
#define SWEEP_CLASSIFY_SIZE "small"
#define SWEEP_CLASSIFY_CONFIG "gtx480"
#define SWEEP_CLASSIFY_BASE "base"
#define SWEEP_CLASSIFY_BIG "l1big"
#define SWEEP_CLASSIFY_BIG_OPT "gpgpu_cache:dl1=N:512:128:8,L:L:m:N:H,S:64:8,8"

/* DYNCTA's class from RACT and the idle fraction (seeds/001, section 2.1). */
const char *sweep_class_dyncta(double ract, double idle_frac);
/* CCWS's class from IPC(l1big) / IPC(base) (seeds/004, section 2). */
const char *sweep_class_ccws(double speedup);

/*
 * Writes classes.md from the small/gtx480 runs of variants base and l1big.
 * Returns -1 with a message in err when r has no such base runs.
 */
int sweep_classify_write(const struct sweep_results *r, FILE *out, char *err, size_t errlen);

#endif
