/* SPDX-License-Identifier: BSD-3-Clause */
/* Running the C compiler: an argument vector and posix_spawnp, never a
 * shell, so nothing in a case's cc or cflags is ever run as a command.
 *
 * backend.openmp.cflags is split into words like this, and only so:
 * words are separated by spaces and tabs; '...' keeps everything up to
 * the next ' as it is; "..." too, except that \" and \\ stand for " and
 * \; elsewhere \ keeps the next character as it is. $, `, *, ;, |, <,
 * > and the rest are ordinary characters: there is no expansion,
 * globbing or redirection. */
#include "openmp.h"

#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

void frx_openmp_free_words(char **w)
{
    for (size_t i = 0; w && w[i]; i++)
        free(w[i]);
    free(w);
}

/* One word starting at *p (not a blank); *p moves past it. NULL with
 * *bad set to the quote left open. */
static char *one_word(const char **p, char *bad)
{
    const char *s = *p;
    char *w = malloc(strlen(s) + 1), *o = w;
    char quote = 0;
    for (; w && *s && (quote || (*s != ' ' && *s != '\t')); s++) {
        if (quote == '\'' && *s == '\'')
            quote = 0;
        else if (quote == '"' && *s == '"')
            quote = 0;
        else if (!quote && (*s == '\'' || *s == '"'))
            quote = *s;
        else if (*s == '\\' && quote != '\'' && s[1] &&
                 (!quote || s[1] == '"' || s[1] == '\\'))
            *o++ = *++s;
        else
            *o++ = *s;
    }
    if (w && quote) {
        free(w);
        *bad = quote;
        return NULL;
    }
    if (w)
        *o = '\0';
    *p = s;
    return w;
}

int frx_openmp_split_words(const char *text, char ***out, char *bad)
{
    size_t n = 0, cap = 8;
    char **w = calloc(cap, sizeof *w);
    int failed = !w;
    *bad = 0;
    for (const char *p = text; !failed && *p;) {
        if (*p == ' ' || *p == '\t') {
            p++;
            continue;
        }
        if (n + 1 == cap) { /* room for the word and the NULL after it */
            char **more = realloc(w, 2 * cap * sizeof *w);
            failed = !more;
            if (failed)
                break;
            w = more;
            memset(w + cap, 0, cap * sizeof *w);
            cap *= 2;
        }
        w[n] = one_word(&p, bad);
        failed = !w[n++];
    }
    if (failed) {
        frx_openmp_free_words(w);
        return *bad ? FRX_EINVAL : FRX_ENOMEM;
    }
    *out = w;
    return FRX_OK;
}

/* Runs argv[0] (looked up along PATH) with argv; its stdout and stderr
 * into *out (malloc'd). Returns its exit status, 128 + a signal that
 * ended it, or -1 (errno set) when it could not be started. */
int frx_openmp_run(char *const argv[], char **out)
{
    *out = NULL;
    int fd[2];
    if (pipe(fd) != 0)
        return -1;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
    posix_spawn_file_actions_adddup2(&fa, fd[1], 2);
    posix_spawn_file_actions_addclose(&fa, fd[0]);
    posix_spawn_file_actions_addclose(&fa, fd[1]);
    pid_t pid;
    int err = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fd[1]);
    if (err) {
        close(fd[0]);
        errno = err;
        return -1;
    }
    size_t len = 0, cap = 4096;
    char *buf = malloc(cap);
    for (;;) {
        if (buf && len + 1 == cap) {
            char *b = realloc(buf, cap *= 2);
            if (!b)
                free(buf);
            buf = b;
        }
        char sink[4096];
        ssize_t k = buf ? read(fd[0], buf + len, cap - len - 1)
                        : read(fd[0], sink, sizeof sink);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        if (buf)
            len += (size_t)k;
    }
    close(fd[0]);
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) {
            status = 0x7f00; /* as exit status 127 */
            break;
        }
    if (buf)
        buf[len] = '\0';
    *out = buf;
    return WIFEXITED(status) ? WEXITSTATUS(status)
         : WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 127;
}

/* argv as one line for messages, words with blanks or quotes quoted. */
void frx_openmp_show(char *const argv[], char *buf, size_t n)
{
    size_t k = 0;
    buf[0] = '\0';
    for (size_t i = 0; argv[i] && k + 1 < n; i++) {
        int q = argv[i][strcspn(argv[i], " \t'\"")] != '\0' || !argv[i][0];
        int m = snprintf(buf + k, n - k, q ? "%s'%s'" : "%s%s", i ? " " : "",
                         argv[i]);
        k = m > 0 && (size_t)m < n - k ? k + (size_t)m : n - 1;
    }
}
