/*
 * Internal to the application-list reader (sweep_apps*.c): the state of one
 * YAML file being read, node helpers over libyaml's document tree, and the
 * list helpers the two forms share.
 */
#ifndef PTXSIM_TOOLS_SWEEP_APPS_YAML_H
#define PTXSIM_TOOLS_SWEEP_APPS_YAML_H

#include <stdbool.h>
#include <stddef.h>
#include <yaml.h>

#include "tools/sweep_apps.h"

struct sweep_apps_ld {
    yaml_document_t *doc;
    const char *path; /* the list, for messages */
    const char *base; /* its directory: relative paths start there */
    char *err;
    size_t errlen;
    struct sweep_apps *a;
};

/* A message "PATH:LINE: ..." about node n into l->err; returns -1. */
int sweep_apps_fail(struct sweep_apps_ld *l, const yaml_node_t *n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A scalar's text, or NULL for other nodes. */
const char *sweep_apps_scalar(const yaml_node_t *n);
yaml_node_t *sweep_apps_node(struct sweep_apps_ld *l, int index);

/* Appends app (taking its strings; freed on failure); -2 when out of memory. */
int sweep_apps_add(struct sweep_apps *a, struct sweep_app *app);
void sweep_apps_app_free(struct sweep_app *app);
bool sweep_apps_valid_name(const char *s);
/* p made absolute from base (malloc'd). */
char *sweep_apps_path(const char *base, const char *p);
bool sweep_apps_is_dir(const char *path);

/* The Accel-Sim form: a mapping of suites. */
int sweep_apps_load_accel(struct sweep_apps_ld *l, yaml_node_t *root);

#endif
