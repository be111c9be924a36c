/* journal.h — the journal of a long run: a JSON Lines file holding one header line (what
 * the run is) and then one line per finished batch of work units (index and count, or
 * index and statistics), so a
 * killed run can resume. It knows only numbers and strings, never positions or the driver.
 * Invariants: every line is written whole by one write(2) and ends in a newline; a torn
 * last line is the only damage a crash can leave, and reading drops it and says so; units
 * are never dropped silently: every write or sync error is returned, naming the path.
 *
 * Durability. A line is in the kernel when journal_append returns, so it survives the
 * process being killed (SIGKILL, a crash) at any moment. It is on the disk after the next
 * fdatasync: the journal syncs when it is created and opened for appending, then at most
 * once a second while lines arrive (journal_append and journal_sync_due), and on
 * journal_sync and journal_close. A power loss or system crash therefore loses at most the
 * lines appended in the last second plus the caller's interval between journal_sync_due
 * calls. Pipes and devices are written the same way but cannot be synced.
 *
 * A Journal is used by one thread at a time (the caller serialises appends). */
#ifndef PERFTKIT_JOURNAL_H
#define PERFTKIT_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../core/fen.h"
#include "../perft/count.h"

enum {
    JOURNAL_SCHEMA = 1,       /* the "schema" this build writes and reads */
    JOURNAL_TOOL_SIZE = 96,   /* room for the version text, terminator included */
    JOURNAL_MAX_DEPTH = 255,  /* depth and split ply lie in 0..JOURNAL_MAX_DEPTH */
    JOURNAL_ERROR_SIZE = 512, /* room for any message of this module */
    JOURNAL_MAX_STATS = 64,   /* a statistics journal's values per unit lie in 1..JOURNAL_MAX_STATS */
};

/* The first line: what the run is. A resumed run must match it field by field. */
typedef struct JournalHeader {
    char tool[JOURNAL_TOOL_SIZE]; /* the writer's version text; informational, never compared */
    char fen[FEN_BUFFER_SIZE];    /* the root position */
    bool chess960;
    int depth;                    /* 0..JOURNAL_MAX_DEPTH */
    int split_ply;                /* 0..depth: units are the distinct positions this far down */
    uint64_t key_seed;            /* the Zobrist key seed of the run */
    uint64_t units;               /* unit indices run 0..units-1; at most INT64_MAX */
    uint64_t digest;              /* of the unit list, as the driver computes it */
    int pass;                     /* 1 or 2: verification runs keep one journal per pass */
    int stats;                    /* 0: a journal of counts (count, divide), one a unit;
                                     else of statistics (perft stats), this many 64-bit
                                     values a unit. Written only when not 0 ("stats") */
} JournalHeader;

/* One finished unit: its index in the unit list and its count, or (a statistics
 * journal) its header.stats values. */
typedef struct JournalUnit {
    uint64_t index;
    Count count;
    const uint64_t *stats; /* a statistics journal's; NULL in a journal of counts */
} JournalUnit;

typedef struct Journal Journal;

/* Creates the journal at `path` and writes and syncs the header (after checking it as
 * journal_read would). A regular file that exists and is not empty is refused unless
 * `overwrite` (a week of finished units should not be lost to a mistyped option); an empty
 * one is used, and so is a device or pipe (written, not truncated). The file is locked
 * (flock) while open, so two runs cannot write one journal. NULL with a message on failure. */
Journal *journal_create(const char *path, const JournalHeader *header, bool overwrite, char *error,
                        size_t error_size);

/* Appends one line holding the `n` units (none: nothing is written), then syncs if the last
 * sync is a second old or more. Indices must lie below the header's unit count. After any
 * failure the journal refuses further appends (the file is cut back to its last whole line
 * where possible), so the caller stops the run: nothing is lost that it was told was kept. */
bool journal_append(Journal *j, const JournalUnit *units, int n, char *error, size_t error_size);

/* Syncs unsynced lines if the last sync is a second old or more. A caller whose appends can
 * pause calls this from its progress loop, so lines never wait long for the disk. */
bool journal_sync_due(Journal *j, char *error, size_t error_size);

/* Syncs unsynced lines now. */
bool journal_sync(Journal *j, char *error, size_t error_size);

/* Syncs, closes and frees `j` (NULL is fine); false with a message if the sync or close
 * failed. `j` is freed either way. */
bool journal_close(Journal *j, char *error, size_t error_size);

/* What a journal holds: its header and the finished units. */
typedef struct JournalContents {
    JournalHeader header;
    bool *done;          /* header.units entries: the unit is in the journal */
    Count *counts;       /* header.units entries: its count where done, 0 elsewhere (a
                            journal of counts; NULL in a statistics journal) */
    uint64_t *stats;     /* a statistics journal's: header.units x header.stats values,
                            unit u's from u x header.stats on (0 where not done); NULL in
                            a journal of counts */
    uint64_t finished;   /* units done (each counted once, however often it is listed) */
    long long lines;     /* whole lines read, the header included */
    bool torn;           /* a torn last line was dropped (see torn_line, torn_bytes) */
    long long torn_line; /* its line number */
    long long torn_bytes;
    long long valid_size; /* bytes of the whole lines: journal_open_append continues here */
} JournalContents;

/* Reads the journal at `path` into `out`. A last line without its newline, or one that is
 * not JSON, is torn: it is dropped and reported in `out`. Everything else that is wrong is an
 * error naming path:line: a missing or incomplete header, a header of another tool or
 * schema, a malformed line before the last, a unit index out of range, a unit listed twice
 * with different counts. Free `out` with journal_contents_free, whatever this returned. */
bool journal_read(const char *path, JournalContents *out, char *error, size_t error_size);

void journal_contents_free(JournalContents *contents);

/* Unit `u`'s values in a statistics journal read into `contents` (header.stats of them). */
static inline const uint64_t *journal_unit_stats(const JournalContents *contents, uint64_t u) {
    return &contents->stats[u * (uint64_t)contents->header.stats];
}

/* True if `found` (a journal's header) describes the run `expected`; otherwise names the
 * first field that differs: "journal header: depth is 7, this run has 8". The tool field is
 * not compared. */
bool journal_check_header(const JournalHeader *expected, const JournalHeader *found, char *error,
                          size_t error_size);

/* Continues the journal at `path` after journal_read returned `contents` for it: cuts off a
 * torn tail, syncs, and appends from there. Refused if the file is now shorter than what was
 * read. NULL with a message on failure. */
Journal *journal_open_append(const char *path, const JournalContents *contents, char *error,
                             size_t error_size);

#endif
