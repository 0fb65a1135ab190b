/*
 * The application list of `ptxsim sweep`: the programs a sweep runs, each
 * with its command line, working directory, optional class and the check of
 * its output. A user writes the list in YAML (docs/experiments.md), either
 * in ptxsim's form
 *
 *     apps:
 *       - name: saxpy
 *         command: ./saxpy -n 4096 data/in.txt     # or a list of words
 *         dir: build                               # relative to the list
 *         class: compute                           # optional
 *         check: {exit: 0, stdout: '^OK', file: out.txt, expect: ref.txt}
 *
 * or in the shape of Accel-Sim's define-*-apps.yml (suite: {exec_dir,
 * data_dirs, execs: [{exe: [args, ...]}]}). The bundled workload suite is
 * turned into the same list (sweep_apps_from_catalog).
 *
 * Two placeholders may appear in commands and checks: {size} (the sweep's
 * --sizes entry; an app that uses it runs once per size, others once) and
 * {rundir} (a directory of the run's own under OUT/runs/, for outputs that
 * runs of the same app must not share).
 */
#ifndef PTXSIM_TOOLS_SWEEP_APPS_H
#define PTXSIM_TOOLS_SWEEP_APPS_H

#include <stdbool.h>
#include <stddef.h>

struct sweep_catalog;

/* What a run must show to pass; all strings malloc'd, NULL when unused. */
struct sweep_check {
    int exit_status; /* expected exit status (default 0) */
    char *stdout_re; /* POSIX extended regex some line of stdout must match */
    char *file;      /* a file the run writes (relative to the app's dir) ... */
    char *expect;    /* ... that must equal this one byte for byte */
};

struct sweep_app {
    char name[64];   /* letters, digits, '_', '-', '+'; unique in the list */
    char wclass[32]; /* "-" when not given */
    char **argv;     /* the command, NULL-terminated, malloc'd */
    char *dir;       /* working directory, absolute */
    struct sweep_check check;
    bool sized; /* some word of the command holds {size} */
    bool ocl;   /* a bundled OpenCL variant (left out of "all" without --ocl) */
};

struct sweep_apps {
    struct sweep_app *v;
    size_t n;
};

/*
 * Reads a YAML list. Returns 0, -1 with a message in err (which names the
 * file and the line), or -2 when out of memory. Free a in every case.
 */
int sweep_apps_load(struct sweep_apps *a, const char *path, char *err, size_t errlen);

/*
 * The bundled suite as a list: every workload of c runs as
 * `BINDIR/<name> {size}` in bindir and passes when it exits 0 and prints
 * its line `PASS <name> <size>`. 0, or -2 when out of memory.
 */
int sweep_apps_from_catalog(struct sweep_apps *a, const struct sweep_catalog *c,
                            const char *bindir);

const struct sweep_app *sweep_apps_find(const struct sweep_apps *a, const char *name);
void sweep_apps_free(struct sweep_apps *a);

/*
 * s with {size} and {rundir} replaced (malloc'd; NULL when out of memory).
 * size or rundir may be NULL to leave that placeholder as it is.
 */
char *sweep_apps_expand(const char *s, const char *size, const char *rundir);

/* Splits a command string into words: blanks separate, '...' and "..." quote, \ escapes. */
char **sweep_apps_split(const char *cmd, char *err, size_t errlen);
void sweep_apps_argv_free(char **argv);

#endif
