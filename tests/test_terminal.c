/* test_terminal.c — how perft treats terminals (io/terminal.h, and the progress line of
 * count): progress and colour only on a
 * terminal, no terminal control at all with TERM=dumb, no colour with NO_COLOR. The
 * binary runs with its stderr on a pseudo-terminal, as in an interactive shell. */
#define _XOPEN_SOURCE 700 /* posix_openpt, grantpt, ptsname */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <termios.h>
#include <unistd.h>

#include "cli_support.h"

#include "../io/terminal.h"

TestSuite(terminal, .init = core_setup);

/* A pseudo-terminal: the master end, and the name of the slave end. */
static int open_terminal(char *slave, size_t size) {
    int master = posix_openpt(O_RDWR | O_NOCTTY);
    cr_assert(master >= 0, "no pseudo-terminal: %s", strerror(errno));
    cr_assert(grantpt(master) == 0 && unlockpt(master) == 0);
    snprintf(slave, size, "%s", ptsname(master));
    return master;
}

/* What `perft ARGS` writes on its stderr when that is a terminal, with TERM and NO_COLOR
 * as given (NULL: unset); its exit status in *status. */
static char *run_on_terminal(const char *term, const char *no_color, const char *args[], int *status) {
    char slave[256];
    int master = open_terminal(slave, sizeof slave);
    const char *bin = getenv("PERFTKIT_BIN");
    cr_assert(bin, "PERFTKIT_BIN is not set (run the tests through meson test)");
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        setsid();
        int fd = open(slave, O_RDWR);
        int null = open("/dev/null", O_WRONLY);
        if (fd < 0 || null < 0)
            _exit(126);
        struct termios raw; /* no \n -> \r\n translation: the bytes as perft wrote them */
        if (tcgetattr(fd, &raw) == 0) {
            cfmakeraw(&raw);
            tcsetattr(fd, TCSANOW, &raw);
        }
        dup2(null, STDOUT_FILENO);
        dup2(fd, STDERR_FILENO);
        close(fd);
        close(master);
        term ? setenv("TERM", term, 1) : unsetenv("TERM");
        no_color ? setenv("NO_COLOR", no_color, 1) : unsetenv("NO_COLOR");
        char *argv[16] = {"perft"};
        for (int i = 0; args[i] && i < 14; i++)
            argv[i + 1] = (char *)args[i];
        execv(bin, argv);
        _exit(127);
    }
    size_t length = 0, room = 1 << 16;
    char *text = malloc(room);
    cr_assert(text);
    for (;;) { /* until the slave closes (EIO on Linux) */
        struct pollfd p = {master, POLLIN, 0};
        if (poll(&p, 1, 20000) <= 0)
            break;
        ssize_t n = read(master, text + length, room - 1 - length);
        if (n <= 0)
            break;
        length += (size_t)n;
        if (length + 1 >= room)
            break;
    }
    text[length] = '\0';
    int wait_status;
    cr_assert_eq(waitpid(pid, &wait_status, 0), pid);
    *status = WIFEXITED(wait_status) ? WEXITSTATUS(wait_status) : -1;
    close(master);
    return text;
}

/* A count long enough that its progress is drawn (from half a second on), stopped by
 * its time limit. */
static const char *long_count[] = {"count", "-d", "10", "-t", "1", "--max-time", "1.2", NULL};

/* An SGR (colour) sequence: ESC [ digits/semicolons m. */
static bool has_colour(const char *text) {
    for (const char *p = strstr(text, "\033["); p; p = strstr(p + 1, "\033[")) {
        const char *q = p + 2;
        q += strspn(q, "0123456789;");
        if (*q == 'm')
            return true;
    }
    return false;
}

Test(terminal, progress_is_drawn_on_a_terminal) {
    int status;
    char *err = run_on_terminal("xterm-256color", NULL, long_count, &status);
    cr_assert_eq(status, 3, "stopped by --max-time: %s", err);
    cr_assert(strstr(err, "\r\033[Kperft 10: "), "no progress line on a terminal: '%s'", err);
    const char *last = err;
    for (const char *p = err; (p = strstr(p, "\r\033[K")); p++)
        last = p;
    cr_assert_null(strstr(last, "perft 10: "), "the last progress line is cleared: '%s'", last);
    free(err);
}

Test(terminal, term_dumb_gets_no_terminal_control) {
    int status;
    char *err = run_on_terminal("dumb", NULL, long_count, &status);
    cr_assert_eq(status, 3);
    cr_assert_null(strchr(err, '\033'), "an escape sequence with TERM=dumb: '%s'", err);
    cr_assert_null(strchr(err, '\r'), "a carriage return with TERM=dumb: '%s'", err);
    cr_assert_null(strstr(err, "units,"), "a progress line with TERM=dumb: '%s'", err);
    free(err);
}

Test(terminal, no_color_keeps_the_progress_line_without_colour) {
    int status;
    char *err = run_on_terminal("xterm-256color", "1", long_count, &status);
    cr_assert_eq(status, 3);
    cr_assert(strstr(err, "\r\033[Kperft 10: "), "NO_COLOR is about colour, not progress: '%s'", err);
    cr_assert_not(has_colour(err), "colour with NO_COLOR set: '%s'", err);
    free(err);
}

/* terminal_redraws and terminal_colour, the one decision about each, on a terminal and
 * off it. */
Test(terminal, colour_and_redraws_only_on_a_terminal_as_term_and_no_color_allow) {
    char slave[256];
    int master = open_terminal(slave, sizeof slave);
    FILE *terminal = fopen(slave, "w");
    cr_assert(terminal, "cannot open %s", slave);
    char *buffer = NULL;
    size_t size = 0;
    FILE *memory = open_memstream(&buffer, &size);
    int pipe_fds[2];
    cr_assert_eq(pipe(pipe_fds), 0);
    FILE *piped = fdopen(pipe_fds[1], "w");

    setenv("TERM", "xterm-256color", 1);
    unsetenv("NO_COLOR");
    cr_assert(terminal_redraws(terminal));
    cr_assert(terminal_colour(terminal));
    cr_assert_not(terminal_colour(memory), "not a terminal: a memory stream");
    cr_assert_not(terminal_redraws(memory));
    cr_assert_not(terminal_colour(piped), "not a terminal: a pipe");
    cr_assert_not(terminal_redraws(piped));
    setenv("NO_COLOR", "1", 1);
    cr_assert_not(terminal_colour(terminal), "NO_COLOR=1");
    cr_assert(terminal_redraws(terminal), "NO_COLOR leaves progress alone");
    setenv("NO_COLOR", "", 1);
    cr_assert_not(terminal_colour(terminal), "NO_COLOR set to the empty string is set");
    unsetenv("NO_COLOR");
    setenv("TERM", "dumb", 1);
    cr_assert_not(terminal_colour(terminal), "TERM=dumb");
    cr_assert_not(terminal_redraws(terminal), "TERM=dumb: no terminal control either");

    fclose(piped);
    close(pipe_fds[0]);
    fclose(memory);
    free(buffer);
    fclose(terminal);
    close(master);
}
