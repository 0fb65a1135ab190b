/*
 * Application lists: the pieces both YAML forms share (words, placeholders,
 * names, paths), ptxsim's own form, and the bundled suite as a list. The
 * Accel-Sim form is read in sweep_apps_accel.c. Lists are read through
 * libyaml's document API: the whole file becomes a node tree first, so a
 * syntax error anywhere is reported before any app is taken.
 */
#define _GNU_SOURCE /* asprintf, strdup */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tools/sweep_apps.h"
#include "tools/sweep_apps_yaml.h"
#include "tools/sweep_catalog.h"

/* ---- words and placeholders ------------------------------------------------------------------ */

void sweep_apps_argv_free(char **argv)
{
    for (size_t i = 0; argv && argv[i]; i++)
        free(argv[i]);
    free(argv);
}

static int argv_push(char ***argv, size_t *n, const char *w, size_t len)
{
    char **v = realloc(*argv, (*n + 2) * sizeof(*v));

    if (!v)
        return -2;
    *argv = v;
    if (!(v[*n] = strndup(w, len)))
        return -2;
    v[++*n] = NULL;
    return 0;
}

/* The next word of *p into buf (which has room for strlen(*p) + 1); 1 at the end, -1 on a quote. */
static int next_word(const char **p, char *buf, size_t *len)
{
    const char *s = *p + strspn(*p, " \t\r\n");
    char quote = 0;

    *len = 0;
    if (!*s)
        return 1;
    for (; *s && (quote || !strchr(" \t\r\n", *s)); s++) {
        if (!quote && (*s == '\'' || *s == '"'))
            quote = *s;
        else if (quote && *s == quote)
            quote = 0;
        else if (*s == '\\' && quote != '\'' && s[1])
            buf[(*len)++] = *++s;
        else
            buf[(*len)++] = *s;
    }
    *p = s;
    return quote ? -1 : 0;
}

char **sweep_apps_split(const char *cmd, char *err, size_t errlen)
{
    char **argv = calloc(1, sizeof(*argv)), *buf = malloc(strlen(cmd) + 1);
    const char *p = cmd;
    size_t n = 0, len;
    int rc = argv && buf ? 0 : -2;

    while (!rc && !(rc = next_word(&p, buf, &len)))
        rc = argv_push(&argv, &n, buf, len);
    free(buf);
    if (rc == 1 && n)
        return argv;
    if (rc == -1)
        snprintf(err, errlen, "unclosed quote in '%s'", cmd);
    else if (rc == 1)
        snprintf(err, errlen, "empty command");
    else
        snprintf(err, errlen, "out of memory");
    sweep_apps_argv_free(argv);
    return NULL;
}

char *sweep_apps_expand(const char *s, const char *size, const char *rundir)
{
    size_t cap = strlen(s) + 1, n = 0;
    char *out = malloc(cap);

    while (out && *s) {
        const char *val = NULL;
        size_t skip = 1;

        if (size && !strncmp(s, "{size}", 6))
            val = size, skip = 6;
        else if (rundir && !strncmp(s, "{rundir}", 8))
            val = rundir, skip = 8;
        if (n + (val ? strlen(val) : 1) + 1 > cap) {
            char *t = realloc(out, cap = 2 * cap + (val ? strlen(val) : 0));

            if (!t) {
                free(out);
                return NULL;
            }
            out = t;
        }
        if (val)
            n += (size_t)sprintf(out + n, "%s", val);
        else
            out[n++] = *s;
        s += skip;
    }
    if (out)
        out[n] = '\0';
    return out;
}

/* ---- the list -------------------------------------------------------------------------------- */

const struct sweep_app *sweep_apps_find(const struct sweep_apps *a, const char *name)
{
    for (size_t i = 0; i < a->n; i++)
        if (!strcmp(a->v[i].name, name))
            return &a->v[i];
    return NULL;
}

void sweep_apps_app_free(struct sweep_app *app)
{
    sweep_apps_argv_free(app->argv);
    free(app->dir);
    free(app->check.stdout_re);
    free(app->check.file);
    free(app->check.expect);
}

void sweep_apps_free(struct sweep_apps *a)
{
    for (size_t i = 0; i < a->n; i++)
        sweep_apps_app_free(&a->v[i]);
    free(a->v);
    memset(a, 0, sizeof(*a));
}

int sweep_apps_add(struct sweep_apps *a, struct sweep_app *app)
{
    struct sweep_app *v = realloc(a->v, (a->n + 1) * sizeof(*v));

    if (!v) {
        sweep_apps_app_free(app);
        return -2;
    }
    a->v = v;
    app->sized = false;
    for (size_t i = 0; app->argv[i]; i++)
        app->sized |= strstr(app->argv[i], "{size}") != NULL;
    a->v[a->n++] = *app;
    return 0;
}

bool sweep_apps_valid_name(const char *s)
{
    if (!*s || strlen(s) >= sizeof(((struct sweep_app *)0)->name))
        return false;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              *s == '_' || *s == '-' || *s == '+'))
            return false;
    return true;
}

char *sweep_apps_path(const char *base, const char *p)
{
    char *s = NULL;

    if (p[0] == '/')
        return strdup(p);
    return asprintf(&s, "%s/%s", base, p) < 0 ? NULL : s;
}

bool sweep_apps_is_dir(const char *path)
{
    struct stat st;

    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* ---- the bundled suite ----------------------------------------------------------------------- */

static int bundled_app(struct sweep_app *app, const struct sweep_workload *w, const char *bindir)
{
    char *prog = NULL;

    memset(app, 0, sizeof(*app));
    snprintf(app->name, sizeof(app->name), "%s", w->name);
    snprintf(app->wclass, sizeof(app->wclass), "%s", w->wclass[0] ? w->wclass : "-");
    app->ocl = w->ocl;
    if (asprintf(&prog, "%s/%s", bindir, w->name) < 0)
        return -2;
    app->argv = calloc(3, sizeof(char *));
    if (app->argv) {
        app->argv[0] = prog;
        app->argv[1] = strdup("{size}");
    } else {
        free(prog);
    }
    app->dir = strdup(bindir);
    /* The suite's convention (docs/workloads.md): exactly this line, exit 0. */
    if (asprintf(&app->check.stdout_re, "^PASS %s {size}\r?$", w->name) < 0)
        app->check.stdout_re = NULL;
    if (!app->argv || !app->argv[1] || !app->dir || !app->check.stdout_re) {
        sweep_apps_app_free(app);
        return -2;
    }
    return 0;
}

int sweep_apps_from_catalog(struct sweep_apps *a, const struct sweep_catalog *c, const char *bindir)
{
    struct sweep_app app;
    int rc = 0;

    memset(a, 0, sizeof(*a));
    for (size_t i = 0; i < c->n && !rc; i++)
        if (!(rc = bundled_app(&app, &c->w[i], bindir)))
            rc = sweep_apps_add(a, &app);
    return rc;
}

/* ---- YAML node helpers, shared by both list forms (sweep_apps_yaml.c, sweep_apps_accel.c) ---- */

int sweep_apps_fail(struct sweep_apps_ld *l, const yaml_node_t *n, const char *fmt, ...)
{
    va_list ap;
    int k = snprintf(l->err, l->errlen, "%s:%zu: ", l->path, n ? n->start_mark.line + 1 : 1);

    va_start(ap, fmt);
    if (k >= 0 && (size_t)k < l->errlen)
        vsnprintf(l->err + k, l->errlen - (size_t)k, fmt, ap);
    va_end(ap);
    return -1;
}

const char *sweep_apps_scalar(const yaml_node_t *n)
{
    return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

yaml_node_t *sweep_apps_node(struct sweep_apps_ld *l, int index)
{
    return yaml_document_get_node(l->doc, index);
}
