/* Command-line helpers (see cli.h). */
#include "cli.h"

#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

int vine_cli_take(const char *who, const char *arg, const char *name, int *i, int argc, char **argv,
                  const char **val)
{
    size_t n = strlen(name);
    if (strncmp(arg, name, n) != 0)
        return 0;
    if (arg[n] == '=') {
        *val = arg + n + 1;
        return 1;
    }
    if (arg[n] != '\0')
        return 0;
    if (*i + 1 >= argc) {
        fprintf(stderr, "%s: option %s needs a value\n", who, name);
        return -1;
    }
    *val = argv[++*i];
    return 1;
}

int vine_cli_take_any(const char *who, int *i, int argc, char **argv, const char *const *names,
                      const char **const *slots, int n)
{
    int r = 0;
    for (int k = 0; k < n && !r; k++)
        r = vine_cli_take(who, argv[*i], names[k], i, argc, argv, slots[k]);
    return r;
}

int vine_cli_usage_error(const char *tool, const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fflush(stdout);
    fprintf(stderr, "%s%s%s: ", tool, cmd ? " " : "", cmd ? cmd : "");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return 2;
}

void vine_cli_size_label(char *buf, size_t cap, long long s)
{
    if (s && s % (1LL << 30) == 0)
        snprintf(buf, cap, "%lldGiB", s >> 30);
    else if (s && s % (1LL << 20) == 0)
        snprintf(buf, cap, "%lldMiB", s >> 20);
    else if (s && s % 1024 == 0)
        snprintf(buf, cap, "%lldKiB", s >> 10);
    else
        snprintf(buf, cap, "%lldB", s);
}

/* The scanner of vine_cli_is_tuning: where it is in the text and what it last saw. */
typedef struct sniff {
    int depth, in_str, escape, after_colon, long_str;
    size_t n;
    char str[16], key[16]; /* the string being read and the last key at depth 1 */
} sniff;

/* Feeds one character of a string to s; returns 1 when the string ends and is
 * "vine-tuning", the value of "schema" at depth 1.  Escapes are kept as written. */
static int sniff_string(sniff *s, int ch)
{
    if (s->escape || ch != '"') {
        s->escape = !s->escape && ch == '\\';
        s->long_str |= s->n + 1 >= sizeof s->str;
        if (!s->long_str)
            s->str[s->n++] = (char)ch;
        return 0;
    }
    s->in_str = 0;
    s->str[s->n] = '\0';
    if (s->long_str || s->depth != 1)
        s->str[0] = '\0';
    if (!s->after_colon)
        memcpy(s->key, s->str, sizeof s->key);
    return s->after_colon && !strcmp(s->key, "schema") && !strcmp(s->str, "vine-tuning");
}

int vine_cli_is_tuning(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    sniff s;
    memset(&s, 0, sizeof s);
    int ch, found = 0;
    while (!found && (ch = getc(f)) != EOF) {
        if (s.in_str) {
            found = sniff_string(&s, ch);
            continue;
        }
        if (ch == '"') {
            s.in_str = 1;
            s.n = 0;
            s.long_str = 0;
        } else if (ch == '{' || ch == '[') {
            s.depth++;
        } else if (ch == '}' || ch == ']') {
            s.depth--;
        }
        if (s.depth == 1 && (ch == ':' || ch == ','))
            s.after_colon = ch == ':';
    }
    fclose(f);
    return found;
}

static int cmp_ll(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return x < y ? -1 : x > y;
}

size_t vine_cli_unique_ll(long long *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_ll);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (k == 0 || v[k - 1] != v[i])
            v[k++] = v[i];
    return k;
}

/* ---- gnuplot ------------------------------------------------------------ */

/* Is there an executable named name in a directory of PATH? */
static int in_path(const char *name)
{
    const char *path = getenv("PATH");
    size_t nlen = strlen(name);
    for (const char *c = path; c && *c;) {
        const char *end = strchr(c, ':');
        size_t len = end ? (size_t)(end - c) : strlen(c);
        char *file = len ? malloc(len + nlen + 2) : NULL;
        if (file) {
            memcpy(file, c, len);
            file[len] = '/';
            memcpy(file + len + 1, name, nlen + 1);
            int found = access(file, X_OK) == 0;
            free(file);
            if (found)
                return 1;
        }
        c = end ? end + 1 : NULL;
    }
    return 0;
}

int vine_cli_need_gnuplot(const char *who, const char *option)
{
    if (in_path("gnuplot"))
        return 0;
    fflush(stdout);
    if (option)
        fprintf(stderr,
                "%s: %s needs gnuplot, which is not in PATH (install gnuplot or gnuplot-nox, "
                "or leave out %s)\n",
                who, option, option);
    else
        fprintf(stderr,
                "%s: needs gnuplot, which is not in PATH (install gnuplot or gnuplot-nox)\n", who);
    return 1;
}

void vine_cli_gp_str(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++) {
        if (*s == '\'')
            fputc('\'', f);
        if (*s != '\n' && *s != '\r')
            fputc(*s, f);
    }
    fputc('\'', f);
}

/* Writes len bytes of data to the file path; 0 or -1. */
static int write_file(const char *path, const char *data, size_t len)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    int bad = fwrite(data, 1, len, f) != len;
    if (fclose(f) != 0)
        bad = 1;
    return bad ? -1 : 0;
}

/*
 * Pipes the script to gnuplot; returns pclose's status, or -1 when gnuplot
 * cannot be started.  SIGPIPE is ignored meanwhile: a gnuplot that stops
 * reading (it quits at its first error) must fail the plot, not end vine.
 */
static int pipe_to_gnuplot(const char *script, size_t len)
{
    struct sigaction ign, old;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigemptyset(&ign.sa_mask);
    int restore = sigaction(SIGPIPE, &ign, &old) == 0;
    fflush(NULL); /* what vine printed comes before what gnuplot prints */
    FILE *gp = popen("gnuplot", "w");
    int st = -1;
    if (gp) {
        fwrite(script, 1, len, gp);
        st = pclose(gp);
    }
    if (restore)
        sigaction(SIGPIPE, &old, NULL);
    return st;
}

int vine_cli_gnuplot(const char *who, const char *out, const char *keep, vine_cli_gp_script *script,
                     const void *arg)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (f) {
        script(f, arg);
        if (fclose(f) != 0) {
            free(text);
            text = NULL;
        }
    }
    if (!text) {
        fprintf(stderr, "%s: out of memory for the gnuplot script\n", who);
        return 1;
    }
    if (keep && write_file(keep, text, len) != 0) {
        fprintf(stderr, "%s: cannot write the script to %s\n", who, keep);
        free(text);
        return 1;
    }
    if (write_file(out, "", 0) != 0) {
        fprintf(stderr, "%s: cannot open %s for writing\n", who, out);
        free(text);
        return 1;
    }
    int st = pipe_to_gnuplot(text, len);
    free(text);
    if (st == -1) {
        fprintf(stderr, "%s: cannot start gnuplot\n", who);
        return 1;
    }
    struct stat sb;
    if (st == 0 && stat(out, &sb) == 0 && sb.st_size > 0) {
        printf("plot: %s\n", out);
        return 0;
    }
    char why[64];
    if (WIFEXITED(st) && WEXITSTATUS(st) == 127)
        snprintf(why, sizeof why, "gnuplot not found by the shell");
    else if (WIFEXITED(st) && WEXITSTATUS(st) != 0)
        snprintf(why, sizeof why, "gnuplot exit status %d", WEXITSTATUS(st));
    else if (WIFSIGNALED(st))
        snprintf(why, sizeof why, "gnuplot killed by signal %d", WTERMSIG(st));
    else
        snprintf(why, sizeof why, "gnuplot wrote nothing");
    fprintf(stderr, "%s: gnuplot failed to write %s (%s)\n", who, out, why);
    return 1;
}
