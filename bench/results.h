/* results.h — stored `perft bench` results, compared: every result JSON under a folder
 * (read with jansson; other JSON files, such as hyperfine's exports, are passed over) as
 * a table of median Mleaves/s per machine and setup with the ratio to a reference, and
 * as a self-contained HTML page with an SVG bar chart (a bar per result and setup, error
 * bars from the min to the max). Only results of the reference's workload are compared. */
#ifndef PERFTKIT_RESULTS_H
#define PERFTKIT_RESULTS_H

#include <stdio.h>

#include "../io/text.h"
#include "bench.h"

typedef struct StoredSetup {
    char label[24];        /* "bulk/1", "hashed/all" */
    double median, min, max; /* leaves per second */
} StoredSetup;

typedef struct StoredResult {
    char path[2048];      /* as long as the walk's paths, so none is cut */
    /* quoted (io/text.h) as they came: room for a whole quotation, so none is cut */
    char machine[TEXT_QUOTE_SIZE], cpu[TEXT_QUOTE_SIZE], date[TEXT_QUOTE_SIZE], commit[TEXT_QUOTE_SIZE],
        workload[TEXT_QUOTE_SIZE], checksum[TEXT_QUOTE_SIZE];
    int setup_count;
    StoredSetup setups[BENCH_MAX_SETUPS];
} StoredResult;

typedef struct ResultSet {
    StoredResult *items;
    int count, capacity;
    int other_json;  /* JSON files that are not bench results */
    int unreadable;  /* files that could not be read as JSON (each named on `warnings`) */
} ResultSet;

/* Called with a one-line message (outside text quoted) for each unreadable file. */
typedef void (*ResultsWarning)(void *context, const char *message);

/* Reads every *.json under `dir` (folders included); names each unreadable file through
 * `warn`. Results are sorted by machine, then date. False when `dir` cannot be read. */
bool results_load(const char *dir, ResultSet *set, ResultsWarning warn, void *context, char *error,
                  size_t error_size);
void results_free(ResultSet *set);

/* The index of the reference result: the newest of machine `reference`, or the oldest
 * result when `reference` is NULL; -1 when no result is of that machine. */
int results_reference(const ResultSet *set, const char *reference);

/* The comparison table; returns how many results it compares. */
int results_print_table(FILE *out, const ResultSet *set, int reference);

/* The HTML page, through a temporary file and a rename. */
bool results_write_html(const char *path, const ResultSet *set, int reference, char *error, size_t error_size);

#endif
