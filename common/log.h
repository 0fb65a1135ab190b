/*
 * Diagnostics on stderr (never stdout: stdout belongs to the simulated program).
 * Messages are lower-case, one line, no trailing period.
 */
#ifndef PTXSIM_COMMON_LOG_H
#define PTXSIM_COMMON_LOG_H

enum ps_log_level { PS_LOG_ERROR, PS_LOG_WARN, PS_LOG_INFO, PS_LOG_DEBUG };

/* Messages above this level are dropped; set once at start-up from the command line. */
void ps_log_set_level(enum ps_log_level level);
int ps_log_enabled(enum ps_log_level level);

void ps_log(enum ps_log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
