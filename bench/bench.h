/* bench.h — the fixed benchmark: a versioned workload (suites/bench.epd, built in) run
 * in three modes — bulk (no tables, bulk counting: the raw generator), full (every leaf
 * move made and unmade: what an engine's search sees) and hashed (the per-ply tables,
 * emptied before each run) — at 1 thread and at all cores, repeated after a warm-up, every
 * count checked. A result carries a fingerprint of the machine and the build and is one
 * JSON document (schema 1, built with io/json.h), printed or stored whole or not at all,
 * for `perft results` and for baseline comparisons. Nothing here prints unless given a
 * stream. */
#ifndef PERFTKIT_BENCH_H
#define PERFTKIT_BENCH_H

#include <stdio.h>

#include "../io/json.h"
#include "../perft/count.h"
#include "../suites/epd.h"

enum { BENCH_MAX_POSITIONS = 64, BENCH_MODES = 3, BENCH_MAX_REPEAT = 100, BENCH_MAX_SETUPS = 2 * BENCH_MODES };

/* The result document's schema; `perft results` reads schema 1. */
enum { BENCH_JSON_SCHEMA = 1 };

typedef enum { BENCH_BULK, BENCH_FULL, BENCH_HASHED } BenchMode;

/* "bulk", "full", "hashed". */
const char *bench_mode_name(BenchMode mode);

/* Writes the formatted message into `error` and returns false: how bench and results
 * report a failure. */
bool bench_error(char *error, size_t size, const char *format, ...) __attribute__((format(printf, 3, 4)));

typedef struct BenchPosition {
    char id[EPD_ID_SIZE];
    char fen[EPD_FEN_SIZE];
    int depth, full_depth;     /* bulk and hashed depth; full-mode depth */
    Count nodes, full_nodes;   /* their known counts */
} BenchPosition;

typedef struct BenchWorkload {
    char name[64];             /* "bench-v1", from the file's first comment, or the file's name */
    uint64_t checksum;         /* of the position lines: results compare only under equal ones */
    int count;
    BenchPosition positions[BENCH_MAX_POSITIONS];
} BenchWorkload;

/* Reads a workload: lines of a suite, each listing at least two depths. */
bool bench_load_workload(BenchWorkload *w, const char *name, const char *const *lines, size_t line_count,
                         char *error, size_t error_size);
bool bench_load_workload_file(BenchWorkload *w, const char *path, char *error, size_t error_size);

typedef struct BenchMachine {
    char name[96];             /* folder under results/: "amd-epyc-2c" */
    char cpu[128];
    bool bmi2, avx2, avx512;
    int cores;
    long memory_mb;
    char os[128], kernel[128];
} BenchMachine;

void bench_machine(BenchMachine *m);

/* The machine's fingerprint and the build's, as text lines (perft bench --fingerprint). */
void bench_print_fingerprint(FILE *out, const BenchMachine *m);

/* The same as a JSON document: machine and build, as in a result. */
json_t *bench_fingerprint_json(const BenchMachine *m);

/* One mode at one thread count. */
typedef struct BenchSetup {
    BenchMode mode;
    int threads;
    Count leaves;                       /* per workload run */
    int runs;
    double seconds[BENCH_MAX_REPEAT];   /* whole workload, per timed run */
    double median_lps, min_lps, max_lps; /* leaves per second */
} BenchSetup;

typedef struct BenchOptions {
    int repeat;                         /* timed runs per setup, after one warm-up */
    int threads;                        /* the "all cores" thread count */
    bool modes[BENCH_MODES];
    long hash_mb;                       /* tables of the hashed mode */
    uint64_t key_seed;                  /* recorded in the result; counts never depend on it */
    FILE *progress;                     /* a line per run, or NULL */
} BenchOptions;

typedef struct BenchResult {
    BenchMachine machine;
    char date[32];                      /* UTC, ISO 8601 */
    int repeat;
    int threads;                        /* the "all cores" thread count */
    long hash_mb;
    uint64_t key_seed;
    int setup_count;
    BenchSetup setups[BENCH_MAX_SETUPS];
    double seconds;                     /* the whole benchmark, warm-up included */
    bool wrong_count;                   /* the run failed on a wrong count (not on memory) */
} BenchResult;

/* Runs the workload; false, with the reason (a wrong count names position, mode and
 * depth), when a count is wrong or memory is refused. */
bool bench_run(const BenchWorkload *w, const BenchOptions *o, BenchResult *r, char *error, size_t error_size);

/* What a run is about to do, as the lines before it: workload, machine, build. */
void bench_print_header(FILE *out, const BenchWorkload *w, const BenchOptions *o, const BenchMachine *m);

/* The result as a table: a row per setup, then the total time. */
void bench_print_table(FILE *out, const BenchResult *r);

/* The result as one JSON document (schema in the README). */
json_t *bench_json(const BenchWorkload *w, const BenchResult *r);

/* DIR/MACHINE/DATE-COMMIT.json, with -2, -3 ... rather than a stored run's name; makes
 * the folders. False, with the reason, when the folder cannot be made or written. */
bool bench_result_path(const char *dir, const char *machine, char *out, size_t size, char *error,
                       size_t error_size);

/* True when a file can be written at `path` now (a temporary beside it is made and
 * removed): so a run refuses an unwritable target before it starts. */
bool bench_can_save(const char *path, char *error, size_t error_size);

/* Stores the JSON at `path`, whole or not at all (io/outfile.h). */
bool bench_save(const char *path, const BenchWorkload *w, const BenchResult *r, char *error, size_t error_size);

/* Checks that `baseline_path` holds a stored result of the workload `w`, so that a run
 * can refuse before it starts; false with the reason. */
bool bench_check_baseline(const char *baseline_path, const BenchWorkload *w, char *error, size_t error_size);

/* Compares with a stored result: prints one line per setup both have, and returns how
 * many are slower than the baseline by more than `max_regression_pct`; -1, with the
 * reason, when the baseline cannot be read or was measured on another workload. */
int bench_compare(FILE *out, const BenchWorkload *w, const BenchResult *r, const char *baseline_path,
                  double max_regression_pct, char *error, size_t error_size);

#endif
