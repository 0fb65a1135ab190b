/*
 * Checking a machine configuration without running anything: the machine
 * file with its `-o` overrides is loaded (option names and values) and the
 * timing model is built from it and torn down again, which checks what only
 * the model knows (policy names and their arguments, cache strings, machine
 * shapes). `ptxsim sweep` checks every machine x variant with it before the
 * first run; the messages are those `ptxsim run` gives for the same
 * configuration.
 */
#ifndef PTXSIM_TOOLS_CONFIG_CHECK_H
#define PTXSIM_TOOLS_CONFIG_CHECK_H

struct ps_err;

/*
 * path: a machine file; overrides: "option=value" lines (or NULL). Returns
 * 0, or a PS_* code with the reason in err (err->file names the file when
 * the fault is in it).
 */
int tool_config_check(const char *path, const char *overrides, struct ps_err *err);

#endif
