/* cli.c — shared command-line helpers. */
#include "cli.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "../io/text.h"
#include "../perft/stats.h"
#include "config.h"
#include "version.h"

const CliExitStatus cli_exit_statuses[] = {
    {EXIT_OK, "success"},
    {EXIT_MISMATCH, "a count differed from the expected one (suite, verify, check)"},
    {EXIT_BAD_INPUT, "bad input: an option, FEN, file or depth; or output that could not be written"},
    {EXIT_PARTIAL, "stopped by --max-time or --max-nodes (the result is partial)"},
    {EXIT_INTERRUPTED, "interrupted by Ctrl-C, SIGTERM or SIGHUP (the result is partial)"},
    {EXIT_BROKEN_PIPE, "stdout's reader went away (a closed pipe: nothing is said)"},
    {0, NULL},
};

int cli_error(const Cli *cli, const char *format, ...) {
    va_list args;
    va_start(args, format);
    fprintf(cli->err, "perft%s%s: ", cli->command ? " " : "", cli->command ? cli->command : "");
    vfprintf(cli->err, format, args);
    fputc('\n', cli->err);
    va_end(args);
    fflush(cli->err);
    return EXIT_BAD_INPUT;
}

/* Plays the moves of --moves on `pos`; on failure prints which move and why. */
static bool play_moves(const Cli *cli, const char *moves, Position *pos) {
    const char *p = moves;
    for (int ply = 1;; ply++) {
        while (*p == ' ' || *p == ',' || *p == '\t')
            p++;
        if (!*p)
            return true;
        size_t length = strcspn(p, " ,\t");
        char token[32], shown[TEXT_QUOTE_SIZE];
        text_quote_bytes(p, length, shown);
        if (length >= sizeof token)
            return cli_error(cli, "--moves: move %d '%s' is too long to be a move", ply, shown), false;
        memcpy(token, p, length);
        token[length] = '\0';
        const char *why = NULL;
        Move m = move_parse_uci(pos, token);
        if (m == MOVE_NONE)
            m = move_parse_san(pos, token, &why);
        if (m == MOVE_NONE) {
            char current[FEN_BUFFER_SIZE];
            return cli_error(cli, "--moves: move %d '%s' is not legal in %s (%s)", ply, shown, fen_write(pos, current),
                             why ? why : "no legal move matches"),
                   false;
        }
        Undo undo;
        pos_make_move(pos, m, &undo);
        p += length;
    }
}

bool cli_position(const Cli *cli, const PositionOptions *options, Position *pos) {
    if (options->startpos && options->fen)
        return cli_error(cli, "--fen and --startpos both given; choose one"), false;
    char error[FEN_ERROR_SIZE], shown[TEXT_QUOTE_SIZE];
    const char *fen = options->fen ? options->fen : FEN_STARTPOS;
    if (!fen_parse(pos, fen, options->chess960, error, sizeof error))
        return cli_error(cli, "bad FEN '%s': %s", text_quote(fen, shown), error), false;
    return !options->moves || play_moves(cli, options->moves, pos);
}

void cli_use_keys(Cli *cli, const RunOptions *run, Position *pos) {
    if (run->key_seed == ZOB_DEFAULT_SEED) { /* the built-in set, whatever keyed `pos` before */
        pos_set_keys(pos, zob_default_keys());
        return;
    }
    if (!cli->keys_made || zob_keys_seed(&cli->keys) != run->key_seed) {
        zob_keys_make(&cli->keys, run->key_seed);
        cli->keys_made = true;
    }
    pos_set_keys(pos, &cli->keys);
}

bool cli_keyed_position(Cli *cli, const PositionOptions *options, const RunOptions *run, Position *pos) {
    if (!cli_position(cli, options, pos))
        return false;
    cli_use_keys(cli, run, pos);
    return true;
}

void cli_run_defaults(RunOptions *run) {
    memset(run, 0, sizeof *run);
    run->hash_mb = -1;
    run->key_seed = ZOB_DEFAULT_SEED;
}

RunLimits cli_limits(const RunOptions *run) {
    return (RunLimits){.max_seconds = run->max_seconds, .max_nodes = run->max_nodes, .interrupt = cli_catch_interrupt()};
}

void cli_print_rate(FILE *out, Count leaves, double seconds) {
    double n = count_to_double(leaves);
    if (seconds <= 0 || n <= 0) {
        fprintf(out, "time %.3f s\n", seconds);
        return;
    }
    fprintf(out, "time %.3f s   rate %.1f Mleaves/s   period %.3f ns/leaf\n", seconds, n / seconds / 1e6,
            seconds * 1e9 / n);
}

void cli_draw_progress(FILE *err, const RunProgress *p) {
    if (p->last) {
        fputs("\r\033[K", err);
        return;
    }
    char leaves[COUNT_TEXT_SIZE];
    /* The rate is this run's: leaves below units from a journal were counted before. */
    double rate = p->elapsed > 0 ? count_to_double(p->leaves - p->resumed) / p->elapsed : 0;
    fprintf(err, "\r\033[Kperft %d: %zu/%zu units, %s leaves, %.0f Mleaves/s", p->depth, p->units_done, p->units,
            count_format(p->leaves, true, leaves), rate / 1e6);
    if (p->eta >= 0)
        fprintf(err, ", ETA %.0f s", p->eta);
    fflush(err);
}

/* Megabytes free now: MemAvailable (it counts reclaimable cache too, unlike
 * _SC_AVPHYS_PAGES) and the free pages of the reserved huge-page pool; false when
 * /proc/meminfo cannot be read. */
static bool memory_free_mb(long *free_mb, long *pool_mb) {
    FILE *meminfo = fopen("/proc/meminfo", "r");
    char line[128];
    long kb, free_kb = -1, pool_pages = 0, pool_page_kb = 0;
    while (meminfo && fgets(line, sizeof line, meminfo))
        if (sscanf(line, "MemAvailable: %ld kB", &kb) == 1)
            free_kb = kb;
        else if (sscanf(line, "HugePages_Free: %ld", &kb) == 1)
            pool_pages = kb;
        else if (sscanf(line, "Hugepagesize: %ld kB", &kb) == 1)
            pool_page_kb = kb;
    if (meminfo)
        fclose(meminfo);
    *free_mb = free_kb / 1024;
    *pool_mb = pool_pages * pool_page_kb / 1024;
    return free_kb >= 0;
}

/* Megabytes of memory: the whole machine's, or what is free now: the free memory or the
 * free pages of the reserved huge-page pool, whichever is more (tables are taken whole
 * from the pool when it has room, else from the free memory; never from both). */
long cli_memory_mb(bool available) {
    long free_mb, pool_mb;
    if (available && memory_free_mb(&free_mb, &pool_mb))
        return free_mb > pool_mb ? free_mb : pool_mb;
    long pages = sysconf(available ? _SC_AVPHYS_PAGES : _SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    return pages > 0 && size > 0 ? (long)((double)pages * (double)size / 1048576.0) : 1024;
}

/* The default hash size for a depth and a time limit (0: none). */
static long default_hash_mb(int depth, double max_seconds) {
    /* Tables pay off from depth 4; beyond what a depth can fill, memory only costs page
     * faults (perft 7 runs faster with 64 MB than with 1 GiB). */
    long by_depth = depth < 4 ? 0 : depth >= 8 ? 1024 : 1L << (2 * depth - 6);
    /* A run stopped by --max-time fills at most about 64 MB a second, and faulting in the
     * pages it cannot fill would only delay its stop. */
    double by_time = 64 * max_seconds;
    if (max_seconds > 0 && by_depth > by_time)
        by_depth = by_time < 1 ? 1 : (long)by_time;
    long free_quarter = cli_memory_mb(true) / 4;
    return by_depth < free_quarter ? by_depth : free_quarter;
}

/* A field of /proc/self/status in kB ("VmSize:"), or -1. */
static long self_status_kb(const char *field) {
    FILE *status = fopen("/proc/self/status", "r");
    char line[128];
    long kb = -1;
    size_t n = strlen(field);
    while (status && kb < 0 && fgets(line, sizeof line, status))
        if (!strncmp(line, field, n))
            kb = strtol(line + n, NULL, 10);
    if (status)
        fclose(status);
    return kb;
}

/* Megabytes that the limit `resource` (RLIMIT_AS, RLIMIT_DATA) leaves above the
 * process's `field` of /proc/self/status; LONG_MAX without a limit. */
static long limit_room_mb(int resource, const char *field) {
    struct rlimit limit;
    if (getrlimit(resource, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY)
        return LONG_MAX;
    long used = self_status_kb(field);
    double room = (double)limit.rlim_cur / 1048576.0 - (used > 0 ? (double)used / 1024.0 : 0);
    return room > 0 ? (long)room : 0;
}

/* Megabytes of tables that fit, and why no more (for the message when that is less than
 * asked): the free memory less an eighth (tables are touched as they fill, and memory
 * promised but not there would end the run in the kernel's out-of-memory killer) or the
 * pool's free pages (reserved when mapped: nothing to keep back), and
 * what a limit on the address space or the data (ulimit -v, -d) leaves after room for
 * the threads' stacks and the run's own bookkeeping. */
static long tables_room_mb(long threads, const char **why) {
    long free_mb, pool_mb;
    if (!memory_free_mb(&free_mb, &pool_mb)) {
        free_mb = cli_memory_mb(true);
        pool_mb = 0;
    }
    long room = free_mb - (free_mb / 8 > 64 ? free_mb / 8 : 64);
    *why = "the free memory";
    if (pool_mb - 2 > room) {
        room = pool_mb - 2; /* the tables are rounded up to whole 2 MB pages */
        *why = "the free memory or the huge-page pool";
    }
    long reserve = 128 + 16 * (threads > 0 ? threads : driver_available_threads());
    long address = limit_room_mb(RLIMIT_AS, "VmSize:"), data = limit_room_mb(RLIMIT_DATA, "VmData:");
    if (address < LONG_MAX && address - reserve < room) {
        room = address - reserve;
        *why = "the address-space limit (ulimit -v)";
    }
    if (data < LONG_MAX && data - reserve < room) {
        room = data - reserve;
        *why = "the data limit (ulimit -d)";
    }
    return room > 0 ? room : 0;
}

/* Tables of run->hash_mb megabytes made by `make`, or, when they do not fit the memory
 * or the system refuses them, the largest that do (halving until the system agrees; 0
 * needs no tables): hash_mb is set to what was made. A size the user chose that had to
 * shrink is said on stderr in one line. False, after an error line, when not even a
 * run without tables could be set up. */
typedef bool (*MakeTables)(void *target, long threads, size_t bytes, char *error, size_t error_size);

static bool make_tables(const Cli *cli, RunOptions *run, bool chosen, MakeTables make, void *target) {
    const char *why;
    long asked = run->hash_mb, room = tables_room_mb(run->threads, &why), mb = asked < room ? asked : room;
    char error[160], refusal[200] = "";
    while (!make(target, run->threads, (size_t)mb << 20, error, sizeof error)) {
        if (mb == 0)
            return cli_error(cli, "%s", error), false;
        snprintf(refusal, sizeof refusal, "%s", error);
        mb /= 2;
    }
    run->hash_mb = mb;
    if (chosen && mb < asked) {
        if (refusal[0])
            fprintf(cli->err, "perft %s: --hash %ld: %s; using %ld MB\n", cli->command, asked, refusal, mb);
        else
            fprintf(cli->err, "perft %s: --hash %ld: more than %s allows (%ld MB); using %ld MB\n", cli->command,
                    asked, why, room, mb);
    }
    return true;
}

static bool make_driver(void *target, long threads, size_t bytes, char *error, size_t error_size) {
    return driver_create(target, (int)threads, bytes, error, error_size);
}

static bool make_stats_tables(void *target, long threads, size_t bytes, char *error, size_t error_size) {
    (void)threads;
    return (*(StatsTables **)target = stats_tables_create(bytes, error, error_size)) != NULL;
}

bool cli_driver(const Cli *cli, RunOptions *run, int depth, Driver *driver) {
    bool chosen = run->hash_mb >= 0;
    if (!chosen)
        run->hash_mb = default_hash_mb(depth, run->max_seconds);
#ifndef _OPENMP
    if (run->threads > 1)
        fprintf(cli->err, "perft %s: built without OpenMP, counting on one thread\n", cli->command);
#endif
    return make_tables(cli, run, chosen, make_driver, driver);
}

bool cli_stats_tables(const Cli *cli, RunOptions *run, int depth, StatsTables **tables, int *threads) {
    bool chosen = run->hash_mb >= 0;
    if (!chosen)
        run->hash_mb = default_hash_mb(depth, 0);
    *threads = run->threads > 0 ? (int)run->threads : driver_available_threads();
    return make_tables(cli, run, chosen, make_stats_tables, tables);
}

/* True when `stream` is a pipe or socket whose reader has gone: poll says POLLERR (a
 * pipe) or POLLHUP (a socket) for it, whatever errno the failed write left. */
static bool reader_gone(FILE *stream) {
    int fd = fileno(stream);
    struct pollfd p = {.fd = fd, .events = 0};
    return fd >= 0 && poll(&p, 1, 0) == 1 && (p.revents & (POLLERR | POLLHUP));
}

int cli_write_failed(const Cli *cli) {
    int reason = errno ? errno : EIO;
    if (reason == EPIPE || reader_gone(cli->out))
        return EXIT_BROKEN_PIPE; /* `perft ... | head -1`: the reader has what it wanted */
    return cli_error(cli, "cannot write the output: %s", strerror(reason));
}

int cli_flush(const Cli *cli) { return cli_finish_output(cli, true); }

int cli_finish_output(const Cli *cli, bool written) {
    int before = errno; /* why the caller's write failed, if it did */
    errno = 0;
    if (fflush(cli->out) == 0 && !ferror(cli->out) && written)
        return EXIT_OK;
    if (!errno && !written)
        errno = before;
    return cli_write_failed(cli);
}

/* Set by the handlers below and read by the counting threads: atomic stores and loads
 * (lock-free, so safe in a handler), never a plain access. */
static volatile sig_atomic_t interrupted;

static void on_interrupt(int signal_number) {
    __atomic_store_n(&interrupted, 1, __ATOMIC_RELAXED);
    signal(signal_number, SIG_DFL); /* a second Ctrl-C ends the process at once */
}

static void on_broken_pipe(int signal_number) {
    __atomic_store_n(&interrupted, 1, __ATOMIC_RELAXED);
    signal(signal_number, SIG_IGN); /* further writes fail with EPIPE: the end is quiet */
}

const volatile sig_atomic_t *cli_catch_interrupt(void) {
    __atomic_store_n(&interrupted, 0, __ATOMIC_RELAXED);
    signal(SIGINT, on_interrupt);
    signal(SIGTERM, on_interrupt);
    signal(SIGHUP, on_interrupt);
    return &interrupted;
}

const volatile sig_atomic_t *cli_catch_stop_signals(void) {
    cli_catch_interrupt();
    signal(SIGPIPE, on_broken_pipe);
    return &interrupted;
}

void cli_request_stop(void) { __atomic_store_n(&interrupted, 1, __ATOMIC_RELAXED); }

void cli_journal_tool(char *tool, size_t size) {
    snprintf(tool, size, "perftkit %s (%s)", PERFTKIT_VERSION, PERFTKIT_GIT_COMMIT);
}
