/*
 * Accel-Sim's application lists (util/job_launching/apps/define-*-apps.yml):
 *
 *     suite:
 *         exec_dir: "../bin/$CUDA_VERSION/release/"
 *         data_dirs: "../data_dirs/cuda/suite/"
 *         execs:
 *             - prog:
 *                 - -i ./data/in.txt       # one argument string per run
 *                 -                        # no arguments
 *
 * Each (exe, argument string) is one app: named `<exe>` when the exe has one
 * argument string and `<exe>-<k>` (k from 1) otherwise, characters other
 * than letters, digits, '_', '-' and '+' becoming '_'. The program is
 * exec_dir/<exe>; it runs in data_dirs/<exe> when that directory exists
 * (Accel-Sim copies its data/ into the run directory, so ./data/... paths
 * resolve the same way), else in exec_dir. $VAR and ${VAR} in the two
 * directories are taken from the environment. Passing is exit status 0, as
 * Accel-Sim's own launcher judges. Shell redirections in arguments (`<`,
 * `>`) are not supported: the program is run directly, not by a shell.
 */
#define _GNU_SOURCE /* strdup */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/sweep_apps_yaml.h"

/* s with $VAR and ${VAR} replaced from the environment; NULL with a message if one is unset. */
static char *expand_env(struct sweep_apps_ld *l, yaml_node_t *n, const char *s, int *rc)
{
    size_t cap = strlen(s) + 1, len = 0;
    char *out = malloc(cap);

    for (*rc = out ? 0 : -2; out && *s;) {
        const char *val = NULL;
        char name[128];
        size_t k = 0, skip = 1;

        if (*s == '$') {
            bool brace = s[1] == '{';

            for (k = 0;
                 k + 1 < sizeof(name) &&
                 (s[1 + brace + k] == '_' || (s[1 + brace + k] >= 'A' && s[1 + brace + k] <= 'Z') ||
                  (s[1 + brace + k] >= 'a' && s[1 + brace + k] <= 'z') ||
                  (s[1 + brace + k] >= '0' && s[1 + brace + k] <= '9'));
                 k++)
                name[k] = s[1 + brace + k];
            name[k] = '\0';
            skip = 1 + brace + k + (brace && s[1 + brace + k] == '}');
            if (k && !(val = getenv(name))) {
                *rc = sweep_apps_fail(l, n, "$%s is not set in the environment", name);
                free(out);
                return NULL;
            }
        }
        if (len + (val ? strlen(val) : 1) + 1 > cap) {
            char *t = realloc(out, cap = 2 * cap + (val ? strlen(val) : 0));

            if (!t) {
                free(out);
                *rc = -2;
                return NULL;
            }
            out = t;
        }
        len += val ? (size_t)sprintf(out + len, "%s", val) : (size_t)(out[len] = *s, 1);
        s += val ? skip : 1;
    }
    if (out)
        out[len] = '\0';
    return out;
}

struct suite {
    char *exec_dir, *data_dir; /* absolute, expanded */
};

static int dir_key(struct sweep_apps_ld *l, yaml_node_t *suite, const char *key, char **out)
{
    char *e;
    int rc;

    for (yaml_node_pair_t *p = suite->data.mapping.pairs.start; p < suite->data.mapping.pairs.top;
         p++) {
        const char *k = sweep_apps_scalar(sweep_apps_node(l, p->key));
        yaml_node_t *v = sweep_apps_node(l, p->value);

        if (!k || strcmp(k, key))
            continue;
        if (!sweep_apps_scalar(v))
            return sweep_apps_fail(l, v, "%s: expected a directory", key);
        if (!(e = expand_env(l, v, sweep_apps_scalar(v), &rc)))
            return rc;
        *out = sweep_apps_path(l->base, e);
        free(e);
        return *out ? 0 : -2;
    }
    return 0;
}

/* The program and its argument words (malloc'd, NULL-terminated); NULL with a message in msg. */
static char **command(const char *exec_dir, const char *exe, const char *args, char *msg,
                      size_t len)
{
    char **words = *args ? sweep_apps_split(args, msg, len) : calloc(1, sizeof(char *)), **argv;
    size_t n = 0;

    if (!words)
        return NULL;
    while (words[n])
        n++;
    argv = calloc(n + 2, sizeof(*argv));
    if (argv && (argv[0] = sweep_apps_path(exec_dir, exe))) {
        memcpy(argv + 1, words, n * sizeof(*argv));
        free(words);
        return argv;
    }
    free(argv);
    sweep_apps_argv_free(words);
    snprintf(msg, len, "out of memory");
    return NULL;
}

static int one_app(struct sweep_apps_ld *l, yaml_node_t *n, const struct suite *s, const char *exe,
                   const char *args, int k)
{
    struct sweep_app app;
    char *data = sweep_apps_path(s->data_dir ? s->data_dir : s->exec_dir, exe);
    char msg[256];

    memset(&app, 0, sizeof(app));
    if (k)
        snprintf(app.name, sizeof(app.name), "%s-%d", exe, k);
    else
        snprintf(app.name, sizeof(app.name), "%s", exe);
    for (char *c = app.name; *c; c++)
        if (!sweep_apps_valid_name((char[]){*c, 0}))
            *c = '_';
    snprintf(app.wclass, sizeof(app.wclass), "-");
    if (strpbrk(args, "<>|"))
        return free(data), sweep_apps_fail(l, n,
                                           "%s: shell redirections and pipes ('%s') are "
                                           "not supported (programs run without a shell)",
                                           exe, args);
    if (sweep_apps_find(l->a, app.name))
        return free(data), sweep_apps_fail(l, n, "app '%s' appears twice", app.name);
    app.argv = command(s->exec_dir, exe, args, msg, sizeof(msg));
    app.dir = data && sweep_apps_is_dir(data) ? data : strdup(s->exec_dir);
    if (app.dir != data)
        free(data);
    if (!app.argv || !app.dir) {
        bool no_memory = !app.dir;

        sweep_apps_app_free(&app);
        return no_memory ? -2 : sweep_apps_fail(l, n, "%s: %s", exe, msg);
    }
    return sweep_apps_add(l->a, &app);
}

/* One `- exe: [args...]` item of execs. */
static int one_exec(struct sweep_apps_ld *l, yaml_node_t *item, const struct suite *s)
{
    yaml_node_pair_t *p = item->data.mapping.pairs.start;
    const char *exe = sweep_apps_scalar(sweep_apps_node(l, p->key));
    yaml_node_t *list = sweep_apps_node(l, p->value);
    int rc = 0, n;

    if (item->data.mapping.pairs.top - p != 1 || !exe || !*exe)
        return sweep_apps_fail(l, item, "execs: each item is `- program: [arguments, ...]`");
    if (list->type == YAML_SCALAR_NODE) /* `- prog:` with nothing: one run, no arguments */
        return one_app(l, item, s, exe, sweep_apps_scalar(list), 0);
    if (list->type != YAML_SEQUENCE_NODE)
        return sweep_apps_fail(l, list, "%s: expected a list of argument strings", exe);
    n = (int)(list->data.sequence.items.top - list->data.sequence.items.start);
    for (int k = 0; !rc && k < n; k++) {
        const char *args =
            sweep_apps_scalar(sweep_apps_node(l, list->data.sequence.items.start[k]));

        rc = args ? one_app(l, list, s, exe, args, n > 1 ? k + 1 : 0)
                  : sweep_apps_fail(l, list, "%s: arguments must be strings", exe);
    }
    return rc;
}

static int one_suite(struct sweep_apps_ld *l, const char *name, yaml_node_t *suite)
{
    struct suite s = {0};
    yaml_node_t *execs = NULL;
    int rc = 0;

    if (suite->type != YAML_MAPPING_NODE)
        return sweep_apps_fail(l, suite, "suite %s: expected exec_dir, data_dirs, execs", name);
    for (yaml_node_pair_t *p = suite->data.mapping.pairs.start; p < suite->data.mapping.pairs.top;
         p++) {
        const char *k = sweep_apps_scalar(sweep_apps_node(l, p->key));

        if (k && !strcmp(k, "execs"))
            execs = sweep_apps_node(l, p->value);
        else if (!k || (strcmp(k, "exec_dir") && strcmp(k, "data_dirs")))
            return sweep_apps_fail(l, suite, "suite %s: unknown key '%s'", name, k ? k : "?");
    }
    if (!execs || execs->type != YAML_SEQUENCE_NODE)
        return sweep_apps_fail(l, suite, "suite %s: expected a list `execs:`", name);
    if (!(rc = dir_key(l, suite, "exec_dir", &s.exec_dir)) && !s.exec_dir)
        rc = sweep_apps_fail(l, suite, "suite %s: no exec_dir", name);
    if (!rc)
        rc = dir_key(l, suite, "data_dirs", &s.data_dir);
    for (yaml_node_item_t *i = execs->data.sequence.items.start;
         !rc && i < execs->data.sequence.items.top; i++) {
        yaml_node_t *item = sweep_apps_node(l, *i);

        rc = item->type == YAML_MAPPING_NODE
                 ? one_exec(l, item, &s)
                 : sweep_apps_fail(l, item, "execs: each item is `- program: [arguments, ...]`");
    }
    free(s.exec_dir);
    free(s.data_dir);
    return rc;
}

int sweep_apps_load_accel(struct sweep_apps_ld *l, yaml_node_t *root)
{
    int rc = 0;

    for (yaml_node_pair_t *p = root->data.mapping.pairs.start;
         !rc && p < root->data.mapping.pairs.top; p++) {
        const char *name = sweep_apps_scalar(sweep_apps_node(l, p->key));

        rc = name ? one_suite(l, name, sweep_apps_node(l, p->value))
                  : sweep_apps_fail(l, root, "suite names must be strings");
    }
    return rc;
}
