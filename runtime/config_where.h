/*
 * Where a configuration error comes from: the option an error message is
 * about, and the -o override or the line of the config file that gave that
 * option its value. The checks that run after loading (the option table's
 * bounds, the timing model's policies, cache and DRAM strings) see only the
 * merged values; this puts their errors back at file:line:col.
 */
#ifndef PTXSIM_RUNTIME_CONFIG_WHERE_H
#define PTXSIM_RUNTIME_CONFIG_WHERE_H

#include <stdint.h>

#include "common/err.h"

/* The option (its index in the option table) that msg is about, or -1. */
int32_t rt_config_blame(const char *msg);

/*
 * Sets err's position to where option `opt` got its value: the last override
 * naming it ("-o name=value", no line), else the last line of `path` setting
 * it (the column of the value). Leaves err's position alone when neither did
 * or opt is -1.
 */
void rt_config_place(struct ps_err *err, int32_t opt, const char *path, const char *overrides);

#endif
