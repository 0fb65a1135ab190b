/* The ptxsim command: dispatches to one verb per job. */
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "tools/verbs.h"

struct verb {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *help;
};

static const struct verb verbs[] = {
    {"ptx", verb_ptx, "parse PTX files and summarise their kernels (--print, --roundtrip)"},
    {"exec", verb_exec, "run one kernel of a PTX file functionally with given arguments"},
    {"run", verb_run, "run a CUDA program (built by nvcc, static or shared) on ptxsim"},
    {"objdump", verb_objdump, "list the fat binary entries of a CUDA program, print their PTX"},
    {"sweep", verb_sweep, "run an app list over machines and policies, locally or on Slurm"},
    {"stats", verb_stats, "statistics JSON files as one table (--csv: a row per run and kernel)"},
    {"belady", verb_belady, "replay an L1D trace (-ptxsim_l1d_trace) with LRU and Belady-optimal"},
    {"annotate", verb_annotate,
     "list per-PTX-line statistics (-enable_ptx_file_line_stats) hottest first"},
    {"heteropdp", verb_heteropdp,
     "train HeteroPDP's models from launch logs, or report its device choices (train|report)"},
};

static void usage(FILE *out)
{
    fprintf(out, "usage: ptxsim VERB [ARGS...]\n\nverbs:\n");
    for (size_t i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++)
        fprintf(out, "  %-8s %s\n", verbs[i].name, verbs[i].help);
    fprintf(out, "\nptxsim %s; `ptxsim VERB --help` describes a verb\n", PACKAGE_VERSION);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("ptxsim %s\n", PACKAGE_VERSION);
        return 0;
    }
    for (size_t i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++)
        if (!strcmp(argv[1], verbs[i].name))
            return verbs[i].run(argc - 2, argv + 2);
    fprintf(stderr, "ptxsim: unknown verb '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}
