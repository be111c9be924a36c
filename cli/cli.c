/* cli.c — shared command-line helpers. */
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../io/text.h"
#include "../perft/stats.h"

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
    if (run->key_seed == ZOB_DEFAULT_SEED)
        return;
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
    double rate = p->elapsed > 0 ? count_to_double(p->leaves) / p->elapsed : 0;
    fprintf(err, "\r\033[Kperft %d: %zu/%zu units, %s leaves, %.0f Mleaves/s", p->depth, p->units_done, p->units,
            count_format(p->leaves, true, leaves), rate / 1e6);
    if (p->eta >= 0)
        fprintf(err, ", ETA %.0f s", p->eta);
    fflush(err);
}

/* Megabytes of memory: the whole machine's, or what is free now. */
long cli_memory_mb(bool available) {
    long pages = sysconf(available ? _SC_AVPHYS_PAGES : _SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    if (available) { /* MemAvailable counts reclaimable cache too, unlike _SC_AVPHYS_PAGES */
        FILE *meminfo = fopen("/proc/meminfo", "r");
        char line[128];
        long kb;
        while (meminfo && fgets(line, sizeof line, meminfo))
            if (sscanf(line, "MemAvailable: %ld kB", &kb) == 1) {
                fclose(meminfo);
                return kb / 1024;
            }
        if (meminfo)
            fclose(meminfo);
    }
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

bool cli_driver(const Cli *cli, RunOptions *run, int depth, Driver *driver) {
    if (run->hash_mb < 0)
        run->hash_mb = default_hash_mb(depth, run->max_seconds);
#ifndef _OPENMP
    if (run->threads > 1)
        fprintf(cli->err, "perft %s: built without OpenMP, counting on one thread\n", cli->command);
#endif
    char error[160];
    if (!driver_create(driver, (int)run->threads, (size_t)run->hash_mb << 20, error, sizeof error))
        return cli_error(cli, "--hash %ld: %s", run->hash_mb, error), false;
    return true;
}

bool cli_stats_tables(const Cli *cli, RunOptions *run, int depth, StatsTables **tables, int *threads) {
    if (run->hash_mb < 0)
        run->hash_mb = default_hash_mb(depth, 0);
    *threads = run->threads > 0 ? (int)run->threads : driver_available_threads();
    char error[160];
    *tables = stats_tables_create((size_t)run->hash_mb << 20, error, sizeof error);
    if (!*tables)
        cli_error(cli, "--hash %ld: %s", run->hash_mb, error);
    return *tables != NULL;
}

int cli_write_failed(const Cli *cli) {
    return cli_error(cli, "cannot write the output: %s", strerror(errno ? errno : EIO));
}

int cli_flush(const Cli *cli) {
    errno = 0;
    if (fflush(cli->out) != 0 || ferror(cli->out))
        return cli_write_failed(cli);
    return EXIT_OK;
}

static volatile sig_atomic_t interrupted;

static void on_interrupt(int signal_number) {
    interrupted = 1;
    signal(signal_number, SIG_DFL); /* a second Ctrl-C ends the process at once */
}

const volatile sig_atomic_t *cli_catch_interrupt(void) {
    interrupted = 0;
    signal(SIGINT, on_interrupt);
    return &interrupted;
}

const volatile sig_atomic_t *cli_catch_stop_signals(void) {
    cli_catch_interrupt();
    signal(SIGTERM, on_interrupt);
    signal(SIGHUP, on_interrupt);
    return &interrupted;
}

void cli_request_stop(void) { interrupted = 1; }
