/* engine.c — the child process and its UCI conversation. Reading waits with poll() in
 * slices of 50 ms, so a deadline, the engine's death and an interrupt are all noticed
 * promptly; writing to a dead engine fails with EPIPE instead of killing us. */
#include "engine.h"

#include "../perft/clock.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef enum { READ_LINE, READ_TIMEOUT, READ_EOF, READ_INTERRUPTED } ReadStatus;

static bool fail(Engine *e, const char *format, ...) __attribute__((format(printf, 2, 3)));
static bool fail(Engine *e, const char *format, ...) {
    char what[sizeof e->error - TEXT_QUOTE_SIZE - 16];
    va_list args;
    va_start(args, format);
    vsnprintf(what, sizeof what, format, args);
    va_end(args);
    snprintf(e->error, sizeof e->error, "engine '%s' %s", e->label, what);
    return false;
}

/* How the child ended, if it has: "exited with status 3", "was killed by signal 11". */
static bool child_ended(Engine *e, char *how, size_t size) {
    int status;
    if (e->pid <= 0 || waitpid(e->pid, &status, WNOHANG) != e->pid)
        return false;
    e->pid = 0;
    if (WIFEXITED(status))
        snprintf(how, size, "exited with status %d", WEXITSTATUS(status));
    else if (WIFSIGNALED(status))
        snprintf(how, size, "was killed by signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
    else
        snprintf(how, size, "ended");
    return true;
}

/* The reason an answer did not come: the engine died, or time ran out. */
static bool no_answer(Engine *e, ReadStatus status, const char *waiting_for) {
    char how[96];
    if (status == READ_INTERRUPTED)
        return fail(e, "was abandoned: interrupted while waiting for %s", waiting_for);
    for (int i = 0; status == READ_EOF && i < 20 && !child_ended(e, how, sizeof how); i++)
        nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
    if (e->pid == 0 || child_ended(e, how, sizeof how))
        return fail(e, "%s while %s was awaited", how, waiting_for);
    if (status == READ_EOF)
        return fail(e, "closed its output while %s was awaited", waiting_for);
    return fail(e, "gave no %s within %g s", waiting_for, e->timeout);
}

static ReadStatus read_line(Engine *e, double deadline, char *line, size_t size) {
    for (;;) {
        char *end = memchr(e->buffer, '\n', e->used);
        if (end || e->used == sizeof e->buffer) { /* a full buffer without a newline is cut */
            size_t n = end ? (size_t)(end - e->buffer) : e->used;
            size_t kept = n < size - 1 ? n : size - 1;
            memcpy(line, e->buffer, kept);
            line[kept] = '\0';
            if (kept && line[kept - 1] == '\r')
                line[kept - 1] = '\0';
            size_t consumed = end ? n + 1 : n;
            memmove(e->buffer, e->buffer + consumed, e->used - consumed);
            e->used -= consumed;
            return READ_LINE;
        }
        if (e->interrupt && *e->interrupt)
            return READ_INTERRUPTED;
        double left = deadline - clock_seconds();
        if (left <= 0)
            return READ_TIMEOUT;
        struct pollfd p = {e->from_engine, POLLIN, 0};
        int ready = poll(&p, 1, left < 0.05 ? (int)(left * 1000) + 1 : 50);
        if (ready < 0 && errno != EINTR)
            return READ_EOF;
        if (ready <= 0)
            continue;
        ssize_t got = read(e->from_engine, e->buffer + e->used, sizeof e->buffer - e->used);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return READ_EOF;
        e->used += (size_t)got;
    }
}

static bool send_line(Engine *e, const char *format, ...) __attribute__((format(printf, 2, 3)));
static bool send_line(Engine *e, const char *format, ...) {
    char line[4096];
    va_list args;
    va_start(args, format);
    int n = vsnprintf(line, sizeof line - 1, format, args);
    va_end(args);
    if (n < 0 || (size_t)n >= sizeof line - 1)
        return fail(e, "command too long to send");
    line[n++] = '\n';
    for (int sent = 0; sent < n;) {
        ssize_t w = write(e->to_engine, line + sent, (size_t)(n - sent));
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            char how[96], shown[TEXT_QUOTE_SIZE];
            bool ended = child_ended(e, how, sizeof how);
            for (int i = 0; !ended && i < 20; i++) { /* an exiting child closes its pipes before it can be reaped */
                nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
                ended = child_ended(e, how, sizeof how);
            }
            if (ended)
                return fail(e, "%s before it could be sent '%s'", how, text_quote_bytes(line, (size_t)n - 1, shown));
            return fail(e, "does not read its input (%s)", strerror(errno));
        }
        sent += (int)w;
    }
    return true;
}

/* Reads until a line equal to `token` (for handshakes); notes the UCI_Chess960 option. */
static bool await(Engine *e, const char *token) {
    double deadline = clock_seconds() + e->timeout;
    char line[1024];
    for (;;) {
        ReadStatus status = read_line(e, deadline, line, sizeof line);
        if (status != READ_LINE) {
            char waiting[64];
            snprintf(waiting, sizeof waiting, "'%s'", token);
            return no_answer(e, status, waiting);
        }
        char *p = line;
        while (isspace((unsigned char)*p))
            p++;
        if (!strncmp(p, "option name UCI_Chess960 ", 25))
            e->chess960_option = true;
        size_t n = strlen(p);
        while (n && isspace((unsigned char)p[n - 1]))
            p[--n] = '\0';
        if (!strcmp(p, token))
            return true;
    }
}

bool engine_start(Engine *e, const char *command, double timeout, const volatile sig_atomic_t *interrupt) {
    memset(e, 0, sizeof *e);
    snprintf(e->command, sizeof e->command, "%s", command);
    text_quote(command, e->label);
    e->timeout = timeout;
    e->interrupt = interrupt;
    e->to_engine = e->from_engine = -1;
    if (strlen(command) >= sizeof e->command)
        return fail(e, "could not be started: the command is longer than %zu bytes", sizeof e->command - 1);
    signal(SIGPIPE, SIG_IGN);
    int in[2], out[2];
    if (pipe(in) != 0)
        return fail(e, "could not be started: %s", strerror(errno));
    if (pipe(out) != 0) {
        close(in[0]);
        close(in[1]);
        return fail(e, "could not be started: %s", strerror(errno));
    }
    char shell_command[600];
    snprintf(shell_command, sizeof shell_command, "exec %s", command);
    pid_t pid = fork();
    if (pid < 0) {
        close(in[0]), close(in[1]), close(out[0]), close(out[1]);
        return fail(e, "could not be started: %s", strerror(errno));
    }
    if (pid == 0) {
        dup2(in[0], STDIN_FILENO);
        dup2(out[1], STDOUT_FILENO);
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0)
            dup2(null, STDERR_FILENO); /* an engine's chatter on stderr is not ours to print */
        close(in[0]), close(in[1]), close(out[0]), close(out[1]);
        signal(SIGPIPE, SIG_DFL);
        execl("/bin/sh", "sh", "-c", shell_command, (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    fcntl(in[1], F_SETFD, FD_CLOEXEC);
    fcntl(out[0], F_SETFD, FD_CLOEXEC);
    e->pid = pid;
    e->to_engine = in[1];
    e->from_engine = out[0];
    if (!send_line(e, "uci") || !await(e, "uciok")) {
        if (strstr(e->error, "status 127"))
            fail(e, "could not be run (no such program?)");
        else if (strstr(e->error, "gave no 'uciok'"))
            fail(e, "did not answer 'uci' with 'uciok' within %g s: not a UCI engine, or too slow", timeout);
        return false;
    }
    return send_line(e, "isready") && await(e, "readyok");
}

bool engine_set_chess960(Engine *e, bool on) {
    return send_line(e, "setoption name UCI_Chess960 value %s", on ? "true" : "false") && send_line(e, "isready")
        && await(e, "readyok");
}

static bool is_uci_move(const char *s, size_t n) {
    if (n != 4 && n != 5)
        return false;
    if (s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8' || s[2] < 'a' || s[2] > 'h' || s[3] < '1' || s[3] > '8')
        return false;
    return n == 4 || strchr("qrbnQRBN", s[4]);
}

/* A count after optional blanks, ':' or '=', up to the end of the line. */
static bool read_number(const char *p, Count *out) {
    while (*p == ' ' || *p == '\t' || *p == ':' || *p == '=')
        p++;
    size_t n = strspn(p, "0123456789");
    const char *rest = p + n;
    while (*rest == ' ' || *rest == '\t')
        rest++;
    return n > 0 && *rest == '\0' && count_parse(p, n, out);
}

bool engine_divide(Engine *e, const char *fen, const char *moves, int depth, EngineDivide *out) {
    memset(out, 0, sizeof *out);
    if (!send_line(e, "position fen %s%s%s", fen, moves && *moves ? " moves " : "", moves && *moves ? moves : "")
        || !send_line(e, "go perft %d", depth))
        return false;
    double deadline = clock_seconds() + e->timeout;
    char line[1024], first_unread[TEXT_QUOTE_SIZE] = "";
    for (;;) {
        ReadStatus status = read_line(e, deadline, line, sizeof line);
        if (status != READ_LINE) {
            char waiting[TEXT_QUOTE_SIZE + 64];
            snprintf(waiting, sizeof waiting, "total for 'go perft %d'%s%s%s", depth,
                     first_unread[0] ? " (it printed '" : "", first_unread, first_unread[0] ? "')" : "");
            return no_answer(e, status, waiting);
        }
        char *p = line;
        while (isspace((unsigned char)*p))
            p++;
        size_t n = strlen(p);
        while (n && isspace((unsigned char)p[n - 1]))
            p[--n] = '\0';
        if (!n || !strncmp(p, "info", 4))
            continue;
        char lower[32];
        size_t i = 0;
        for (; i < sizeof lower - 1 && p[i]; i++)
            lower[i] = (char)tolower((unsigned char)p[i]);
        lower[i] = '\0';
        const char *totals[] = {"nodes searched", "total nodes", "total", "nodes"};
        for (int t = 0; t < 4; t++) {
            size_t k = strlen(totals[t]);
            if (!strncmp(lower, totals[t], k) && read_number(p + k, &out->total)) {
                out->has_total = true;
                /* Resynchronise: whatever the engine prints after its total is read here. */
                return send_line(e, "isready") && await(e, "readyok");
            }
        }
        size_t word = strcspn(p, " \t:");
        Count nodes;
        if (word && read_number(p + word, &nodes)) {
            char shown[TEXT_QUOTE_SIZE];
            if (!is_uci_move(p, word))
                return fail(e, "answered 'go perft %d' with '%s', which is not a UCI move and a count", depth,
                            text_quote(p, shown));
            if (out->count == ENGINE_MAX_LINES)
                return fail(e, "printed more than %d move lines for 'go perft %d'", ENGINE_MAX_LINES, depth);
            memcpy(out->lines[out->count].move, p, word);
            out->lines[out->count].move[word] = '\0';
            out->lines[out->count++].nodes = nodes;
        } else if (!first_unread[0]) {
            text_quote(p, first_unread);
        }
    }
}

void engine_stop(Engine *e) {
    if (e->pid > 0) {
        char how[96];
        if (e->to_engine >= 0)
            send_line(e, "quit");
        for (int i = 0; i < 50 && !child_ended(e, how, sizeof how); i++) /* up to half a second */
            nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
        if (e->pid > 0) {
            kill(e->pid, SIGKILL);
            waitpid(e->pid, NULL, 0);
            e->pid = 0;
        }
    }
    if (e->to_engine >= 0)
        close(e->to_engine);
    if (e->from_engine >= 0)
        close(e->from_engine);
    e->to_engine = e->from_engine = -1;
}
