/*
 * The verbs of the ptxsim command. Each takes the arguments after its name
 * and returns the process exit status (0 success, 1 failure, 2 usage error).
 */
#ifndef PTXSIM_TOOLS_VERBS_H
#define PTXSIM_TOOLS_VERBS_H

int verb_ptx(int argc, char **argv);
int verb_exec(int argc, char **argv);
int verb_run(int argc, char **argv);
int verb_objdump(int argc, char **argv);
int verb_sweep(int argc, char **argv);
int verb_belady(int argc, char **argv);
int verb_stats(int argc, char **argv);
int verb_annotate(int argc, char **argv);
int verb_heteropdp(int argc, char **argv);

#endif
