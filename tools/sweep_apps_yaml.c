/*
 * Reading an application list: the YAML file through libyaml, then
 * ptxsim's own form (a top-level `apps:` sequence) here, or Accel-Sim's
 * (sweep_apps_accel.c). Unknown keys are errors, so that a misspelt
 * `chek:` does not silently drop a check.
 */
#define _GNU_SOURCE /* strdup, realpath */
#include <errno.h>
#include <limits.h>
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/sweep_apps_yaml.h"

/* ---- ptxsim's form --------------------------------------------------------------------------- */

/* The command: a string split into words, or a sequence of scalars. */
static int take_command(struct sweep_apps_ld *l, yaml_node_t *n, struct sweep_app *app)
{
    const char *s = sweep_apps_scalar(n);
    char msg[256];
    size_t k = 0;

    sweep_apps_argv_free(app->argv); /* a second `command:` replaces the first */
    app->argv = NULL;
    if (s) {
        if (!(app->argv = sweep_apps_split(s, msg, sizeof(msg))))
            return sweep_apps_fail(l, n, "command: %s", msg);
        return 0;
    }
    if (n->type != YAML_SEQUENCE_NODE || n->data.sequence.items.top == n->data.sequence.items.start)
        return sweep_apps_fail(l, n, "command: a string or a list of words");
    app->argv = calloc((size_t)(n->data.sequence.items.top - n->data.sequence.items.start) + 1,
                       sizeof(char *));
    if (!app->argv)
        return -2;
    for (yaml_node_item_t *i = n->data.sequence.items.start; i < n->data.sequence.items.top; i++) {
        const char *w = sweep_apps_scalar(sweep_apps_node(l, *i));

        if (!w)
            return sweep_apps_fail(l, n, "command: every word must be a string");
        if (!(app->argv[k++] = strdup(w)))
            return -2;
    }
    return 0;
}

static int take_string(struct sweep_apps_ld *l, yaml_node_t *n, const char *key, char **out)
{
    const char *s = sweep_apps_scalar(n);

    if (!s || !*s)
        return sweep_apps_fail(l, n, "%s: expected a non-empty string", key);
    free(*out);
    return (*out = strdup(s)) ? 0 : -2;
}

static int take_check(struct sweep_apps_ld *l, yaml_node_t *n, struct sweep_check *c)
{
    regex_t re;
    int rc = 0;

    if (n->type != YAML_MAPPING_NODE)
        return sweep_apps_fail(l, n, "check: expected keys exit, stdout, file, expect");
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; !rc && p < n->data.mapping.pairs.top;
         p++) {
        const char *k = sweep_apps_scalar(sweep_apps_node(l, p->key));
        yaml_node_t *v = sweep_apps_node(l, p->value);
        const char *s = sweep_apps_scalar(v);
        char *end;

        if (k && !strcmp(k, "exit")) {
            long x = s ? strtol(s, &end, 10) : -1;

            if (!s || !*s || *end || x < 0 || x > 255)
                return sweep_apps_fail(l, v, "check.exit: expected a number from 0 to 255");
            c->exit_status = (int)x;
        } else if (k && (!strcmp(k, "stdout") || !strcmp(k, "file") || !strcmp(k, "expect"))) {
            rc = take_string(l, v, k,
                             !strcmp(k, "stdout") ? &c->stdout_re
                             : !strcmp(k, "file") ? &c->file
                                                  : &c->expect);
        } else {
            return sweep_apps_fail(l, v, "check: unknown key '%s' (exit, stdout, file, expect)",
                                   k ? k : "?");
        }
    }
    if (!rc && !c->file != !c->expect)
        return sweep_apps_fail(l, n, "check: file and expect go together");
    if (!rc && c->stdout_re) {
        if (regcomp(&re, c->stdout_re, REG_EXTENDED | REG_NEWLINE | REG_NOSUB))
            return sweep_apps_fail(l, n, "check.stdout: '%s' is not a POSIX extended regex",
                                   c->stdout_re);
        regfree(&re);
    }
    return rc;
}

/* One key of an app entry. */
static int take_key(struct sweep_apps_ld *l, const char *k, yaml_node_t *v, struct sweep_app *app)
{
    const char *s = sweep_apps_scalar(v);
    int rc;

    if (!strcmp(k, "command"))
        return take_command(l, v, app);
    if (!strcmp(k, "check"))
        return take_check(l, v, &app->check);
    if (!strcmp(k, "dir")) {
        if ((rc = take_string(l, v, k, &app->dir)))
            return rc;
        s = app->dir;
        app->dir = sweep_apps_path(l->base, s);
        free((char *)s);
        return app->dir ? 0 : -2;
    }
    if (!strcmp(k, "name") || !strcmp(k, "class")) {
        char *dst = !strcmp(k, "name") ? app->name : app->wclass;
        size_t len = !strcmp(k, "name") ? sizeof(app->name) : sizeof(app->wclass);

        if (!s || !*s || strlen(s) >= len)
            return sweep_apps_fail(l, v, "%s: expected a string of 1 to %zu characters", k,
                                   len - 1);
        snprintf(dst, len, "%s", s);
        return 0;
    }
    return sweep_apps_fail(l, v, "unknown key '%s' (name, command, dir, class, check)", k);
}

/* The entry's directory must exist now: a typo is reported before anything runs. */
static int finish_app(struct sweep_apps_ld *l, yaml_node_t *n, struct sweep_app *app)
{
    char real[PATH_MAX];

    if (!app->name[0] || !app->argv)
        return sweep_apps_fail(l, n, "an app needs a name and a command");
    if (!sweep_apps_valid_name(app->name))
        return sweep_apps_fail(l, n, "name '%s': letters, digits, '_', '-' and '+' only",
                               app->name);
    if (sweep_apps_find(l->a, app->name))
        return sweep_apps_fail(l, n, "app '%s' appears twice", app->name);
    if (!app->wclass[0])
        snprintf(app->wclass, sizeof(app->wclass), "-");
    if (!app->dir && !(app->dir = strdup(l->base)))
        return -2;
    errno = 0;
    if (!realpath(app->dir, real) || !sweep_apps_is_dir(real))
        return sweep_apps_fail(l, n, "app %s: dir %s: %s", app->name, app->dir,
                               errno ? strerror(errno) : "not a directory");
    free(app->dir);
    return (app->dir = strdup(real)) ? 0 : -2;
}

static int load_app(struct sweep_apps_ld *l, yaml_node_t *n)
{
    struct sweep_app app;
    int rc = 0;

    memset(&app, 0, sizeof(app));
    if (n->type != YAML_MAPPING_NODE)
        return sweep_apps_fail(l, n, "an app is a mapping (name:, command:, ...)");
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; !rc && p < n->data.mapping.pairs.top;
         p++) {
        const char *k = sweep_apps_scalar(sweep_apps_node(l, p->key));

        rc = k ? take_key(l, k, sweep_apps_node(l, p->value), &app)
               : sweep_apps_fail(l, n, "keys must be strings");
    }
    if (!rc)
        rc = finish_app(l, n, &app);
    if (!rc)
        return sweep_apps_add(l->a, &app);
    sweep_apps_app_free(&app);
    return rc;
}

static int load_ptxsim(struct sweep_apps_ld *l, yaml_node_t *apps)
{
    int rc = 0;

    if (apps->type != YAML_SEQUENCE_NODE)
        return sweep_apps_fail(l, apps, "apps: expected a list of apps");
    for (yaml_node_item_t *i = apps->data.sequence.items.start;
         !rc && i < apps->data.sequence.items.top; i++)
        rc = load_app(l, sweep_apps_node(l, *i));
    return rc;
}

/* ---- the file -------------------------------------------------------------------------------- */

static yaml_node_t *top_key(struct sweep_apps_ld *l, yaml_node_t *root, const char *key)
{
    for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top;
         p++) {
        const char *k = sweep_apps_scalar(sweep_apps_node(l, p->key));

        if (k && !strcmp(k, key))
            return sweep_apps_node(l, p->value);
    }
    return NULL;
}

static int load_doc(struct sweep_apps_ld *l)
{
    yaml_node_t *root = yaml_document_get_root_node(l->doc), *apps;
    int rc;

    if (!root || root->type != YAML_MAPPING_NODE)
        return sweep_apps_fail(l, root, "expected `apps:` or Accel-Sim suites at the top");
    apps = top_key(l, root, "apps");
    if (apps && root->data.mapping.pairs.top - root->data.mapping.pairs.start != 1)
        return sweep_apps_fail(l, root, "only `apps:` may be at the top of ptxsim's form");
    rc = apps ? load_ptxsim(l, apps) : sweep_apps_load_accel(l, root);
    if (!rc && !l->a->n)
        return sweep_apps_fail(l, root, "no apps in the list");
    return rc;
}

int sweep_apps_load(struct sweep_apps *a, const char *path, char *err, size_t errlen)
{
    struct sweep_apps_ld l = {.path = path, .err = err, .errlen = errlen, .a = a};
    yaml_parser_t parser;
    yaml_document_t doc;
    char *dir = strdup(path), *slash, base[PATH_MAX];
    FILE *fp = fopen(path, "rb");
    int rc;

    memset(a, 0, sizeof(*a));
    if (dir && (slash = strrchr(dir, '/')))
        slash[slash == dir] = '\0'; /* "/x.yml" is in "/" */
    /* Relative paths in the list start at its directory, made absolute here. */
    if (!fp || !dir || !realpath(dir && strchr(path, '/') ? dir : ".", base)) {
        snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
        free(dir);
        if (fp)
            fclose(fp);
        return dir ? -1 : -2;
    }
    free(dir);
    l.base = base;
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_file(&parser, fp);
    if (!yaml_parser_load(&parser, &doc)) {
        snprintf(err, errlen, "%s:%zu: %s", path, parser.problem_mark.line + 1,
                 parser.problem ? parser.problem : "not YAML");
        rc = -1;
    } else {
        l.doc = &doc;
        rc = load_doc(&l);
        yaml_document_delete(&doc);
    }
    yaml_parser_delete(&parser);
    fclose(fp);
    return rc;
}
