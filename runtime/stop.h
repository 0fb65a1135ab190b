/*
 * SIGINT / SIGTERM handling shared by the CUDA and OpenCL runtimes
 * (runtime/stop.c): a signal stops the running launch, the runtime writes
 * the statistics gathered so far marked truncated, and the process ends by
 * the same signal (exit status 128+signo).
 */
#ifndef PTXSIM_RUNTIME_STOP_H
#define PTXSIM_RUNTIME_STOP_H

/*
 * Installs the handlers where the program has none; write_truncated(reason) must write the
 * statistics marked truncated with reason (it may run in a signal handler). Returns the flag
 * for ptxsim_options.stop: non-zero (the signal number) once a stop was asked for.
 */
const volatile int *ptxsim_stop_install(void (*write_truncated)(const char *reason));
/* Around every launch: a signal during it stops it; after it, the statistics and the signal. */
void ptxsim_stop_before_launch(void);
void ptxsim_stop_after_launch(void);

#endif
