/* engine.c — the child process and its UCI conversation. Reading waits with poll() in
 * slices of 50 ms, so a deadline, the engine's death (even when a process it forked
 * still holds the pipe open) and an interrupt are all noticed promptly; writing is
 * non-blocking with the same deadline, and to a dead engine fails with EPIPE instead of
 * killing us. The child is observed with WNOWAIT and reaped only by engine_stop(), so
 * its pid, which names its process group, cannot be reused while the group is signalled. */
#include "engine.h"

#include "../perft/clock.h"

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
#ifdef __linux__
#include <sys/prctl.h>
#endif

/* ---- One line of output: a pure function ---------------------------------------- */

static bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'; }

static char lower(char c) { return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c; }

/* True when the n bytes at p start with the lowercase `prefix`, ignoring case. */
static bool starts_with(const char *p, size_t n, const char *prefix) {
    size_t k = strlen(prefix);
    if (n < k)
        return false;
    for (size_t i = 0; i < k; i++)
        if (lower(p[i]) != prefix[i])
            return false;
    return true;
}

static bool is_uci_move(const char *s, size_t n) {
    if (n != 4 && n != 5)
        return false;
    if (s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8' || s[2] < 'a' || s[2] > 'h' || s[3] < '1' || s[3] > '8')
        return false;
    return n == 4 || (s[4] && strchr("qrbnQRBN", s[4]));
}

typedef enum { NUMBER_NONE, NUMBER_OK, NUMBER_NEGATIVE, NUMBER_TOO_LONG, NUMBER_TOO_LARGE } NumberShape;

/* A count after optional blanks, ':' or '=', running to `end` (the line is trimmed). */
static NumberShape read_count(const char *p, const char *end, Count *out, size_t *digits) {
    while (p < end && (is_blank(*p) || *p == ':' || *p == '='))
        p++;
    bool negative = p < end && *p == '-';
    p += negative;
    const char *first = p;
    while (p < end && *p >= '0' && *p <= '9')
        p++;
    *digits = (size_t)(p - first);
    if (*digits == 0 || p != end)
        return NUMBER_NONE;
    if (negative)
        return NUMBER_NEGATIVE;
    if (*digits > ENGINE_COUNT_DIGITS)
        return NUMBER_TOO_LONG;
    return count_parse(first, *digits, out) ? NUMBER_OK : NUMBER_TOO_LARGE;
}

/* Sets the reason of a line that is not accepted: the line quoted, then `what`. */
static EngineOutputKind refuse_line(EngineOutput *out, EngineOutputKind kind, const char *p, size_t n,
                                    const char *what) {
    char shown[TEXT_QUOTE_SIZE];
    snprintf(out->reason, sizeof out->reason, "'%s', %s", text_quote_bytes(p, n, shown), what);
    return out->kind = kind;
}

/* What is wrong with a count of `digits` digits read as `shape`, in `text`; NULL when
 * it is a good count or none. */
static const char *bad_count(NumberShape shape, size_t digits, char text[64]) {
    switch (shape) {
    case NUMBER_NEGATIVE: return "a negative count";
    case NUMBER_TOO_LONG: snprintf(text, 64, "a count of %zu digits, more than %d", digits, ENGINE_COUNT_DIGITS); return text;
    case NUMBER_TOO_LARGE: return "a count past 2^128 - 1";
    default: return NULL;
    }
}

EngineOutputKind engine_parse_output(const char *line, size_t length, EngineOutput *out) {
    out->kind = ENGINE_OUTPUT_BLANK;
    out->move[0] = out->reason[0] = '\0';
    out->nodes = 0;
    const char *p = line, *end = line + length;
    while (p < end && is_blank(*p))
        p++;
    while (end > p && is_blank(end[-1]))
        end--;
    size_t n = (size_t)(end - p), digits;
    char problem[64];
    if (n == 0 || (starts_with(p, n, "info") && (n == 4 || is_blank(p[4]))))
        return out->kind;
    static const char *const totals[] = {"nodes searched", "total nodes", "total", "nodes"};
    for (int t = 0; t < 4; t++) {
        if (!starts_with(p, n, totals[t]))
            continue;
        NumberShape shape = read_count(p + strlen(totals[t]), end, &out->nodes, &digits);
        if (shape == NUMBER_OK)
            return out->kind = ENGINE_OUTPUT_TOTAL;
        if (bad_count(shape, digits, problem))
            return refuse_line(out, ENGINE_OUTPUT_BAD, p, n, bad_count(shape, digits, problem));
    }
    size_t word = 0;
    while (word < n && !is_blank(p[word]) && p[word] != ':')
        word++;
    NumberShape shape = word ? read_count(p + word, end, &out->nodes, &digits) : NUMBER_NONE;
    if (shape == NUMBER_NONE)
        return refuse_line(out, ENGINE_OUTPUT_OTHER, p, n, "which is neither a move and its count nor a total");
    if (!is_uci_move(p, word))
        return refuse_line(out, ENGINE_OUTPUT_BAD, p, n, "which is not a UCI move and a count");
    if (bad_count(shape, digits, problem))
        return refuse_line(out, ENGINE_OUTPUT_BAD, p, n, bad_count(shape, digits, problem));
    memcpy(out->move, p, word);
    out->move[word] = '\0';
    return out->kind = ENGINE_OUTPUT_MOVE;
}

/* ---- The conversation ------------------------------------------------------------ */

typedef enum { READ_LINE, READ_TOO_LONG, READ_TIMEOUT, READ_EOF, READ_DIED, READ_INTERRUPTED } ReadStatus;

static bool fail(Engine *e, const char *format, ...) __attribute__((format(printf, 2, 3)));
static bool fail(Engine *e, const char *format, ...) {
    char what[sizeof e->error - 2 * TEXT_QUOTE_SIZE - 32];
    va_list args;
    va_start(args, format);
    vsnprintf(what, sizeof what, format, args);
    va_end(args);
    snprintf(e->error, sizeof e->error, "engine '%s'%s%s%s %s", e->label, e->id_name[0] ? " (id name '" : "",
             e->id_name, e->id_name[0] ? "')" : "", what);
    return false;
}

static void pause_ms(int ms) { nanosleep(&(struct timespec){0, ms * 1000L * 1000L}, NULL); }

/* True once the child has ended, with how in e->how. The child is left a zombie (WNOWAIT)
 * for engine_stop() to reap. */
static bool child_ended(Engine *e) {
    if (e->ended)
        return true;
    if (e->pid <= 0)
        return false;
    siginfo_t info;
    memset(&info, 0, sizeof info);
    if (waitid(P_PID, (id_t)e->pid, &info, WEXITED | WNOHANG | WNOWAIT) != 0 || info.si_pid != e->pid)
        return false;
    e->ended = true;
    if (info.si_code == CLD_EXITED)
        snprintf(e->how, sizeof e->how, "exited with status %d", info.si_status);
    else if (info.si_code == CLD_KILLED || info.si_code == CLD_DUMPED)
        snprintf(e->how, sizeof e->how, "was killed by signal %d (%s)", info.si_status, strsignal(info.si_status));
    else
        snprintf(e->how, sizeof e->how, "ended");
    return true;
}

/* Waits up to `seconds` for the child to end. */
static bool await_end(Engine *e, double seconds) {
    for (double until = clock_seconds() + seconds; !child_ended(e) && clock_seconds() < until;)
        pause_ms(10);
    return child_ended(e);
}

/* The reason an answer did not come: the engine died, or time ran out. `note` (may be
 * "") adds what it printed instead. */
static bool no_answer(Engine *e, ReadStatus status, const char *waiting_for, const char *note) {
    if (status == READ_INTERRUPTED)
        return fail(e, "was abandoned: interrupted while waiting for %s", waiting_for);
    if (status == READ_EOF) /* an exiting child closes its pipes before it can be seen ended */
        await_end(e, 0.2);
    if (child_ended(e))
        return fail(e, "%s while %s was awaited%s", e->how, waiting_for, note);
    if (status == READ_EOF)
        return fail(e, "closed its output while %s was awaited%s", waiting_for, note);
    return fail(e, "gave no %s within %g s%s", waiting_for, e->timeout, note);
}

/* The next line of output, without its newline, in *line (valid until the next call). */
static ReadStatus read_line(Engine *e, double deadline, const char **line, size_t *length) {
    memmove(e->buffer, e->buffer + e->consumed, e->used - e->consumed);
    e->used -= e->consumed;
    e->consumed = 0;
    for (size_t searched = 0;;) {
        char *end = memchr(e->buffer + searched, '\n', e->used - searched);
        searched = e->used;
        if (end) {
            *line = e->buffer;
            *length = (size_t)(end - e->buffer);
            e->consumed = *length + 1;
            return READ_LINE;
        }
        if (e->used == sizeof e->buffer) /* a full buffer and no newline */
            return READ_TOO_LONG;
        if (e->interrupt && *e->interrupt)
            return READ_INTERRUPTED;
        double left = deadline - clock_seconds();
        if (left <= 0)
            return READ_TIMEOUT;
        struct pollfd p = {e->from_engine, POLLIN, 0};
        int ready = poll(&p, 1, left < 0.05 ? (int)(left * 1000) + 1 : 50);
        if (ready < 0 && errno != EINTR)
            return READ_EOF;
        if (ready <= 0) {
            /* Dead, though something it forked may hold the pipe open; what it wrote
             * before it died is still read first. */
            if (child_ended(e) && poll(&p, 1, 0) <= 0)
                return READ_DIED;
            continue;
        }
        ssize_t got = read(e->from_engine, e->buffer + e->used, sizeof e->buffer - e->used);
        if (got < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (got <= 0)
            return READ_EOF;
        e->used += (size_t)got;
    }
}

/* The failure for a line that filled the whole buffer. */
static bool too_long(Engine *e, const char *waiting_for) {
    char shown[TEXT_QUOTE_SIZE];
    return fail(e, "wrote more than %d bytes without a newline while %s was awaited: '%s...'", ENGINE_LINE_MAX,
                waiting_for, text_quote_bytes(e->buffer, TEXT_QUOTE_CHARS, shown));
}

static bool send_line(Engine *e, const char *format, ...) __attribute__((format(printf, 2, 3)));
static bool send_line(Engine *e, const char *format, ...) {
    char line[4096], shown[TEXT_QUOTE_SIZE];
    va_list args;
    va_start(args, format);
    int n = vsnprintf(line, sizeof line - 1, format, args);
    va_end(args);
    if (n < 0 || (size_t)n >= sizeof line - 1)
        return fail(e, "command too long to send");
    line[n++] = '\n';
    if (child_ended(e)) /* what it forked may still hold the pipe: the write would succeed */
        return fail(e, "%s before it could be sent '%s'", e->how, text_quote_bytes(line, (size_t)n - 1, shown));
    double deadline = clock_seconds() + e->timeout;
    for (int sent = 0; sent < n;) {
        ssize_t w = write(e->to_engine, line + sent, (size_t)(n - sent));
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) { /* its input pipe is full */
            if (e->interrupt && *e->interrupt)
                return fail(e, "was abandoned: interrupted while sending it '%s'",
                            text_quote_bytes(line, (size_t)n - 1, shown));
            if (clock_seconds() >= deadline)
                return fail(e, "read none of its input for %g s: '%s' could not be sent", e->timeout,
                            text_quote_bytes(line, (size_t)n - 1, shown));
            poll(&(struct pollfd){e->to_engine, POLLOUT, 0}, 1, 50);
            continue;
        }
        if (w <= 0) {
            if (await_end(e, 0.2)) /* an exiting child closes its pipes before it can be seen ended */
                return fail(e, "%s before it could be sent '%s'", e->how, text_quote_bytes(line, (size_t)n - 1, shown));
            return fail(e, "does not read its input (%s)", strerror(errno));
        }
        sent += (int)w;
    }
    return true;
}

/* A trimmed view of a line: blanks and carriage returns off both ends. */
static void trim(const char **line, size_t *length) {
    while (*length && is_blank(**line))
        (*line)++, (*length)--;
    while (*length && is_blank((*line)[*length - 1]))
        (*length)--;
}

/* Reads until a line equal to `token` (for handshakes); notes the `id name` and the
 * UCI_Chess960 option. */
static bool await(Engine *e, const char *token) {
    double deadline = clock_seconds() + e->timeout;
    char waiting[64];
    snprintf(waiting, sizeof waiting, "'%s'", token);
    for (int lines = 0;; lines++) {
        const char *line;
        size_t n;
        ReadStatus status = read_line(e, deadline, &line, &n);
        if (status == READ_TOO_LONG)
            return too_long(e, waiting);
        if (status != READ_LINE)
            return no_answer(e, status, waiting, "");
        trim(&line, &n);
        if (n == strlen(token) && !memcmp(line, token, n))
            return true;
        if (n > 25 && !memcmp(line, "option name UCI_Chess960 ", 25))
            e->chess960_option = true;
        if (n > 8 && !memcmp(line, "id name ", 8))
            text_quote_bytes(line + 8, n - 8, e->id_name);
        if (lines == ENGINE_MAX_OTHER_LINES)
            return fail(e, "printed more than %d lines while %s was awaited", ENGINE_MAX_OTHER_LINES, waiting);
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
#ifdef PR_SET_CHILD_SUBREAPER
    /* What the engine forks is handed to us, not to init, when the engine ends, so that
     * engine_stop() can reap its whole group (init may be a process that reaps nothing). */
    prctl(PR_SET_CHILD_SUBREAPER, 1);
#endif
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
    pid_t parent = getpid(), pid = fork();
    if (pid < 0) {
        close(in[0]), close(in[1]), close(out[0]), close(out[1]);
        return fail(e, "could not be started: %s", strerror(errno));
    }
    if (pid == 0) { /* only async-signal-safe calls from here to exec */
        setpgid(0, 0); /* its own group: stopped as a whole, and not hit by our terminal's Ctrl-C */
#ifdef PR_SET_PDEATHSIG
        prctl(PR_SET_PDEATHSIG, SIGKILL); /* should we die without stopping it */
        if (getppid() != parent)
            _exit(127);
#endif
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
    (void)parent;
    setpgid(pid, pid); /* also here, so the group exists before we may signal it */
    close(in[0]);
    close(out[1]);
    fcntl(in[1], F_SETFD, FD_CLOEXEC);
    fcntl(out[0], F_SETFD, FD_CLOEXEC);
    fcntl(in[1], F_SETFL, fcntl(in[1], F_GETFL) | O_NONBLOCK);
    e->pid = pid;
    e->to_engine = in[1];
    e->from_engine = out[0];
    if (!send_line(e, "uci") || !await(e, "uciok")) {
        if (e->ended && !strcmp(e->how, "exited with status 127"))
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

bool engine_divide(Engine *e, const char *fen, const char *moves, int depth, EngineDivide *out) {
    memset(out, 0, sizeof *out);
    if (!send_line(e, "position fen %s%s%s", fen, moves && *moves ? " moves " : "", moves && *moves ? moves : "")
        || !send_line(e, "go perft %d", depth))
        return false;
    double deadline = clock_seconds() + e->timeout;
    char waiting[64], note[ENGINE_REASON_SIZE + 16] = "";
    snprintf(waiting, sizeof waiting, "total for 'go perft %d'", depth);
    for (int others = 0;;) {
        const char *line;
        size_t length;
        ReadStatus status = read_line(e, deadline, &line, &length);
        if (status == READ_TOO_LONG)
            return too_long(e, waiting);
        if (status != READ_LINE)
            return no_answer(e, status, waiting, note);
        EngineOutput o;
        switch (engine_parse_output(line, length, &o)) {
        case ENGINE_OUTPUT_MOVE:
            if (out->count == ENGINE_MAX_LINES)
                return fail(e, "printed more than %d move lines for 'go perft %d'", ENGINE_MAX_LINES, depth);
            snprintf(out->lines[out->count].move, sizeof out->lines[0].move, "%s", o.move);
            out->lines[out->count++].nodes = o.nodes;
            break;
        case ENGINE_OUTPUT_TOTAL:
            out->total = o.nodes;
            out->has_total = true;
            /* Resynchronise: whatever the engine prints after its total is read here. */
            return send_line(e, "isready") && await(e, "readyok");
        case ENGINE_OUTPUT_BAD:
            return fail(e, "answered 'go perft %d' with %s", depth, o.reason);
        case ENGINE_OUTPUT_OTHER:
            if (!note[0])
                snprintf(note, sizeof note, "; it printed %s", o.reason);
            /* fall through */
        case ENGINE_OUTPUT_BLANK:
            if (++others > ENGINE_MAX_OTHER_LINES)
                return fail(e, "printed more than %d lines that are neither a move and its count nor a total "
                               "for 'go perft %d'%s",
                            ENGINE_MAX_OTHER_LINES, depth, note);
            break;
        }
    }
}

/* Signals the engine's group (or the engine alone, should the group not exist). */
static void signal_group(const Engine *e, int sig) {
    if (kill(-e->pid, sig) != 0)
        kill(e->pid, sig);
}

void engine_stop(Engine *e) {
    if (e->pid > 0) {
        if (!e->ended && e->to_engine >= 0) {
            ssize_t ignored = write(e->to_engine, "quit\n", 5); /* not send_line: `error` stays as it is */
            (void)ignored;
            await_end(e, 0.5);
        }
        /* Whatever is left of the group, the engine or what it forked: asked, then made. */
        signal_group(e, SIGTERM);
        if (!e->ended)
            await_end(e, 0.2);
        signal_group(e, SIGKILL);
        waitpid(e->pid, NULL, 0);
        /* The rest of the group came to us (the subreaper) when the engine ended: reap it
         * as it dies, for at most a second. ECHILD: none of it is ours any more. */
        for (int i = 0; i < 100; i++) {
            pid_t reaped = waitpid(-e->pid, NULL, WNOHANG);
            if (reaped < 0)
                break;
            if (reaped == 0)
                pause_ms(10);
        }
        e->pid = 0;
    }
    if (e->to_engine >= 0)
        close(e->to_engine);
    if (e->from_engine >= 0)
        close(e->from_engine);
    e->to_engine = e->from_engine = -1;
}
