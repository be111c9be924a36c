/* journal.c — the journal of a long run, JSON Lines through jansson.
 * Invariants: `size` is the byte length of the whole lines written, and the file is never
 * left longer than that by a failed write where truncation is possible; a Journal that has
 * failed once never writes again; `pending` says lines were written since the last sync. */
#include "journal.h"

#include "../perft/clock.h"
#include "json.h"
#include "text.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <jansson.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum { SHOW_PATH = TEXT_QUOTE_SIZE, SHOW_TEXT = TEXT_QUOTE_SIZE };

static const double sync_interval = 1.0; /* seconds: at most a second of lines waits for the disk */

struct Journal {
    int fd;
    char *path;
    bool regular;     /* a regular file: it can be synced and truncated */
    bool pending;     /* lines written since the last sync */
    bool failed;      /* a write or sync failed: `failure` says why */
    double last_sync; /* monotonic seconds */
    long long size;   /* bytes of whole lines in the file */
    uint64_t units;
    int stats;        /* the header's: values a unit, 0 for a count */
    char failure[JOURNAL_ERROR_SIZE];
};

static bool fail(char *error, size_t size, const char *format, ...) __attribute__((format(printf, 3, 4)));
static bool fail(char *error, size_t size, const char *format, ...) {
    if (error && size) {
        va_list args;
        va_start(args, format);
        vsnprintf(error, size, format, args);
        va_end(args);
    }
    return false;
}

/* Outside text for a message: quoted by io/text.h (limit is the buffer's, kept for the
 * callers' shape). */
static const char *show(const char *text, size_t length, size_t limit, char *out) {
    (void)limit;
    return text_quote_bytes(text, length, out);
}

typedef struct PathText {
    char text[SHOW_PATH + 4];
} PathText;

static PathText show_path(const char *path) {
    PathText p;
    show(path, strlen(path), SHOW_PATH, p.text);
    return p;
}

/* ---- The header as JSON, both ways ---- */

/* Why `h` cannot be written as a journal header, or NULL. */
static const char *header_problem(const JournalHeader *h) {
    if (!memchr(h->tool, '\0', sizeof h->tool) || !memchr(h->fen, '\0', sizeof h->fen))
        return "tool or fen is not terminated";
    if (h->depth < 0 || h->depth > JOURNAL_MAX_DEPTH)
        return "depth is out of range";
    if (h->split_ply < 0 || h->split_ply > h->depth)
        return "split ply is not in 0..depth";
    if (h->units > (uint64_t)INT64_MAX)
        return "too many units";
    if (h->pass != 1 && h->pass != 2)
        return "pass is neither 1 nor 2";
    if (h->stats < 0 || h->stats > JOURNAL_MAX_STATS)
        return "stats is out of range";
    return NULL;
}

static json_t *header_json(const JournalHeader *h) {
    char seed[24], digest[24];
    snprintf(seed, sizeof seed, "%" PRIu64, h->key_seed);
    snprintf(digest, sizeof digest, "%016" PRIx64, h->digest);
    json_t *tool = json_string(h->tool), *fen = json_string(h->fen);
    if (!tool || !fen) { /* out of memory: both are ASCII (a version, fen_write's FEN) */
        json_decref(tool);
        json_decref(fen);
        return NULL;
    }
    json_t *json = json_pack("{s:s, s:i, s:o, s:o, s:b, s:i, s:i, s:s, s:I, s:s, s:i}", "journal", "perftkit",
                             "schema", JOURNAL_SCHEMA, "tool", tool, "fen", fen, "chess960", h->chess960, "depth",
                             h->depth, "split_ply", h->split_ply, "key_seed", seed, "units", (json_int_t)h->units,
                             "digest", digest, "pass", h->pass);
    /* A journal of counts keeps the header it always had, so older builds read it. */
    if (json && h->stats && json_object_set_new(json, "stats", json_integer(h->stats)) != 0) {
        json_decref(json);
        return NULL;
    }
    return json;
}

/* Every header field; all but the last (OPTIONAL_HEADER_FIELDS of them) must be present. */
static const char *const header_fields[] = {"journal", "schema", "tool", "fen", "chess960", "depth",
                                            "split_ply", "key_seed", "units", "digest", "pass", "stats"};
enum { OPTIONAL_HEADER_FIELDS = 1 };

/* A whole number field in lo..hi. */
static bool header_integer(json_t *header, const char *key, long long lo, long long hi, long long *out) {
    json_t *v = json_object_get(header, key);
    if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi)
        return false;
    *out = json_integer_value(v);
    return true;
}

static bool header_string(json_t *header, const char *key, char *out, size_t size) {
    json_t *v = json_object_get(header, key);
    if (!json_is_string(v) || json_string_length(v) >= size || strlen(json_string_value(v)) != json_string_length(v))
        return false;
    memcpy(out, json_string_value(v), json_string_length(v) + 1);
    return true;
}

static bool parse_hex64(const char *text, uint64_t *out) {
    if (strlen(text) != 16)
        return false;
    uint64_t n = 0;
    for (int i = 0; i < 16; i++) {
        char c = text[i];
        int digit = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (digit < 0)
            return false;
        n = n << 4 | (uint64_t)digit;
    }
    *out = n;
    return true;
}

/* Fills `h` from the parsed first line; the message names the field that is wrong. */
static bool header_from_json(json_t *json, const char *path, const char *line, size_t length, JournalHeader *h,
                             char *error, size_t size) {
    PathText p = show_path(path);
    char text[SHOW_TEXT + 4];
    json_t *journal = json_object_get(json, "journal");
    if (!json_is_object(json) || !json_is_string(journal) || strcmp(json_string_value(journal), "perftkit") != 0)
        return fail(error, size, "%s is not a perftkit journal (line 1: '%s')", p.text,
                    show(line, length, SHOW_TEXT, text));
    long long schema;
    if (!header_integer(json, "schema", LLONG_MIN, LLONG_MAX, &schema))
        return fail(error, size, "journal %s:1: header field 'schema' is missing or not a whole number", p.text);
    if (schema != JOURNAL_SCHEMA)
        return fail(error, size, "journal %s has schema %lld; this build reads schema %d", p.text, schema,
                    JOURNAL_SCHEMA);
    const char *key;
    json_t *value;
    json_object_foreach(json, key, value) {
        bool known = false;
        for (size_t i = 0; i < sizeof header_fields / sizeof *header_fields; i++)
            known |= strcmp(key, header_fields[i]) == 0;
        if (!known)
            return fail(error, size, "journal %s:1: unknown header field '%s'", p.text,
                        show(key, strlen(key), SHOW_TEXT, text));
    }
    for (size_t i = 0; i < sizeof header_fields / sizeof *header_fields - OPTIONAL_HEADER_FIELDS; i++)
        if (!json_object_get(json, header_fields[i]))
            return fail(error, size, "journal %s:1: header field '%s' is missing", p.text, header_fields[i]);

    memset(h, 0, sizeof *h);
    char seed[COUNT_TEXT_SIZE], digest[24];
    Count seed_value;
    long long depth, split_ply, units, pass, stats = 0;
    const char *field = NULL, *why = NULL;
    if (!header_string(json, field = "tool", h->tool, sizeof h->tool))
        why = "a string of at most 95 bytes";
    else if (!header_string(json, field = "fen", h->fen, sizeof h->fen))
        why = "a string of at most 127 bytes";
    else if (!json_is_boolean(json_object_get(json, field = "chess960")))
        why = "true or false";
    else if (!header_integer(json, field = "depth", 0, JOURNAL_MAX_DEPTH, &depth))
        why = "a whole number in 0..255";
    else if (!header_integer(json, field = "split_ply", 0, depth, &split_ply))
        why = "a whole number in 0..depth";
    else if (!header_string(json, field = "key_seed", seed, sizeof seed) ||
             !count_parse(seed, strlen(seed), &seed_value) || seed_value > UINT64_MAX)
        why = "a decimal string of a 64-bit number";
    else if (!header_integer(json, field = "units", 0, INT64_MAX, &units))
        why = "a whole number, not negative";
    else if (!header_string(json, field = "digest", digest, sizeof digest) || !parse_hex64(digest, &h->digest))
        why = "a string of 16 hex digits";
    else if (!header_integer(json, field = "pass", 1, 2, &pass))
        why = "1 or 2";
    else if (json_object_get(json, "stats") && !header_integer(json, field = "stats", 1, JOURNAL_MAX_STATS, &stats))
        why = "a whole number in 1..64";
    if (why)
        return fail(error, size, "journal %s:1: header field '%s' must be %s", p.text, field, why);
    h->chess960 = json_is_true(json_object_get(json, "chess960"));
    h->depth = (int)depth;
    h->split_ply = (int)split_ply;
    h->key_seed = (uint64_t)seed_value;
    h->units = (uint64_t)units;
    h->pass = (int)pass;
    h->stats = (int)stats;
    return true;
}

/* ---- Writing ---- */

/* Writes all of `text`; 0 or the errno. A pipe whose reader has gone gives EPIPE, not a
 * SIGPIPE that would end the process: the signal is blocked in this thread for the write
 * and, if this write raised it, taken back. */
static int write_all(const Journal *j, const char *text, size_t length) {
    sigset_t pipe_only, old, pending;
    bool guard = !j->regular, was_pending = false;
    if (guard) {
        sigemptyset(&pipe_only);
        sigaddset(&pipe_only, SIGPIPE);
        pthread_sigmask(SIG_BLOCK, &pipe_only, &old);
        was_pending = sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE);
    }
    int reason = 0;
    while (length) {
        ssize_t n = write(j->fd, text, length);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            reason = n < 0 ? errno : EIO;
            break;
        }
        text += n;
        length -= (size_t)n;
    }
    if (guard) {
        if (reason == EPIPE && !was_pending) {
            const struct timespec zero = {0, 0};
            sigtimedwait(&pipe_only, NULL, &zero);
        }
        pthread_sigmask(SIG_SETMASK, &old, NULL);
    }
    return reason;
}

/* Records the failure so later calls repeat it; the message goes to `error` too. */
static bool journal_fail(Journal *j, char *error, size_t size, const char *what, int reason) {
    if (!j->failed) {
        PathText p = show_path(j->path);
        snprintf(j->failure, sizeof j->failure, "cannot %s journal '%s': %s", what, p.text, strerror(reason));
        j->failed = true;
    }
    return fail(error, size, "%s", j->failure);
}

static bool write_line(Journal *j, json_t *json, char *error, size_t size) {
    size_t length;
    char *text = json_to_text(json, JSON_ENSURE_ASCII, &length);
    if (!text)
        return journal_fail(j, error, size, "write", ENOMEM);
    int reason = write_all(j, text, length);
    free(text);
    if (reason) {
        if (j->regular) /* drop the part of the line that got out, so the file stays whole lines */
            (void)!ftruncate(j->fd, (off_t)j->size);
        return journal_fail(j, error, size, "write", reason);
    }
    j->size += (long long)length;
    j->pending = true;
    return true;
}

bool journal_sync(Journal *j, char *error, size_t size) {
    if (j->failed)
        return fail(error, size, "%s", j->failure);
    if (!j->pending)
        return true;
    if (j->regular && fdatasync(j->fd) != 0)
        return journal_fail(j, error, size, "sync", errno);
    j->pending = false;
    j->last_sync = clock_seconds();
    return true;
}

bool journal_sync_due(Journal *j, char *error, size_t size) {
    if (j->failed)
        return fail(error, size, "%s", j->failure);
    if (!j->pending || clock_seconds() - j->last_sync < sync_interval)
        return true;
    return journal_sync(j, error, size);
}

bool journal_append(Journal *j, const JournalUnit *units, int n, char *error, size_t size) {
    if (j->failed)
        return fail(error, size, "%s", j->failure);
    if (n <= 0)
        return true;
    for (int i = 0; i < n; i++)
        if (units[i].index >= j->units) { /* the caller's mistake: stop before the journal holds a wrong line */
            PathText p = show_path(j->path);
            snprintf(j->failure, sizeof j->failure,
                     "journal '%s': unit %" PRIu64 " is out of range (the run has %" PRIu64 " units)", p.text,
                     units[i].index, j->units);
            j->failed = true;
            return fail(error, size, "%s", j->failure);
        } else if (j->stats && !units[i].stats) {
            PathText p = show_path(j->path);
            snprintf(j->failure, sizeof j->failure, "journal '%s': unit %" PRIu64 " comes without its statistics",
                     p.text, units[i].index);
            j->failed = true;
            return fail(error, size, "%s", j->failure);
        }
    json_t *line = json_object(), *list = json_array();
    bool built = json_object_set_new(line, "units", list) == 0; /* drops `list` when `line` is NULL */
    for (int i = 0; built && i < n; i++) {
        char count[COUNT_TEXT_SIZE];
        json_t *value = j->stats ? json_array() : json_string(count_format(units[i].count, false, count));
        for (int v = 0; j->stats && value && v < j->stats; v++)
            if (json_array_append_new(value, json_string(count_format(units[i].stats[v], false, count))) != 0) {
                json_decref(value);
                value = NULL;
            }
        built = value && json_array_append_new(list, json_pack("[I, o]", (json_int_t)units[i].index, value)) == 0;
    }
    bool ok = built ? write_line(j, line, error, size) : journal_fail(j, error, size, "write", ENOMEM);
    json_decref(line);
    return ok && journal_sync_due(j, error, size);
}

static Journal *journal_new(const char *path, int fd, const JournalHeader *header) {
    Journal *j = calloc(1, sizeof *j);
    char *copy = strdup(path);
    if (!j || !copy) {
        free(j);
        free(copy);
        return NULL;
    }
    struct stat st;
    j->fd = fd;
    j->path = copy;
    j->regular = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
    j->units = header->units;
    j->stats = header->stats;
    j->last_sync = clock_seconds();
    return j;
}

/* Takes the file for this run alone; false with errno set otherwise. */
static bool lock_file(int fd) {
    if (flock(fd, LOCK_EX | LOCK_NB) == 0)
        return true;
    return errno == ENOLCK || errno == EINVAL; /* file systems without locks: go on unlocked */
}

/* Makes a new file's name durable: syncs the directory that holds it, where it can be opened. */
static void sync_directory(const char *path) {
    const char *slash = strrchr(path, '/');
    char dir[4096];
    if (!slash)
        strcpy(dir, ".");
    else if ((size_t)(slash - path) >= sizeof dir)
        return;
    else if (slash == path)
        strcpy(dir, "/");
    else {
        memcpy(dir, path, (size_t)(slash - path));
        dir[slash - path] = '\0';
    }
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        (void)fsync(fd);
        close(fd);
    }
}

Journal *journal_create(const char *path, const JournalHeader *header, bool overwrite, char *error, size_t size) {
    PathText p = show_path(path);
    const char *problem = header_problem(header);
    if (problem) {
        fail(error, size, "cannot create journal '%s': the header is wrong (%s)", p.text, problem);
        return NULL;
    }
    json_t *json = header_json(header);
    if (!json) {
        fail(error, size, "cannot create journal '%s': %s", p.text, strerror(ENOMEM));
        return NULL;
    }
    bool created = true;
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0 && errno == EEXIST) {
        created = false;
        fd = open(path, O_WRONLY | O_CLOEXEC);
    }
    if (fd < 0) {
        fail(error, size, "cannot create journal '%s': %s", p.text, strerror(errno));
        json_decref(json);
        return NULL;
    }
    struct stat st;
    const char *refusal = NULL;
    int reason = 0;
    if (fstat(fd, &st) != 0)
        reason = errno;
    else if (!lock_file(fd))
        refusal = errno == EWOULDBLOCK ? "it is in use by another run" : strerror(errno);
    else if (!created && S_ISREG(st.st_mode) && st.st_size > 0 && !overwrite)
        refusal = "it exists and is not empty (not overwriting a journal)";
    else if (!created && S_ISREG(st.st_mode) && st.st_size > 0 && ftruncate(fd, 0) != 0)
        reason = errno;
    if (refusal || reason) {
        fail(error, size, "cannot create journal '%s': %s", p.text, refusal ? refusal : strerror(reason));
        close(fd);
        json_decref(json);
        return NULL;
    }
    Journal *j = journal_new(path, fd, header);
    if (!j) {
        fail(error, size, "cannot create journal '%s': %s", p.text, strerror(ENOMEM));
        close(fd);
        json_decref(json);
        return NULL;
    }
    bool ok = write_line(j, json, error, size) && journal_sync(j, error, size);
    json_decref(json);
    if (!ok) {
        journal_close(j, NULL, 0);
        if (created)
            unlink(path);
        return NULL;
    }
    if (created)
        sync_directory(path);
    return j;
}

bool journal_close(Journal *j, char *error, size_t size) {
    if (!j)
        return true;
    bool ok = j->failed ? fail(error, size, "%s", j->failure) : journal_sync(j, error, size);
    if (close(j->fd) != 0 && ok) {
        PathText p = show_path(j->path);
        ok = fail(error, size, "cannot close journal '%s': %s", p.text, strerror(errno));
    }
    free(j->path);
    free(j);
    return ok;
}

Journal *journal_open_append(const char *path, const JournalContents *contents, char *error, size_t size) {
    PathText p = show_path(path);
    int fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
    if (fd < 0) {
        fail(error, size, "cannot append to journal '%s': %s", p.text, strerror(errno));
        return NULL;
    }
    long long expected = contents->valid_size + (contents->torn ? contents->torn_bytes : 0);
    struct stat st;
    const char *refusal = NULL;
    int reason = 0;
    if (fstat(fd, &st) != 0)
        reason = errno;
    else if (!S_ISREG(st.st_mode))
        refusal = "it is not a regular file";
    else if (!lock_file(fd))
        refusal = errno == EWOULDBLOCK ? "it is in use by another run" : strerror(errno);
    else if ((long long)st.st_size != expected)
        refusal = "it changed since it was read";
    else if (contents->torn && (ftruncate(fd, (off_t)contents->valid_size) != 0 || fdatasync(fd) != 0))
        reason = errno;
    if (refusal || reason) {
        fail(error, size, "cannot append to journal '%s': %s", p.text, refusal ? refusal : strerror(reason));
        close(fd);
        return NULL;
    }
    Journal *j = journal_new(path, fd, &contents->header);
    if (!j) {
        fail(error, size, "cannot append to journal '%s': %s", p.text, strerror(ENOMEM));
        close(fd);
        return NULL;
    }
    j->size = contents->valid_size;
    return j;
}

/* ---- Reading ---- */

void journal_contents_free(JournalContents *contents) {
    free(contents->done);
    free(contents->counts);
    free(contents->stats);
    contents->done = NULL;
    contents->counts = NULL;
    contents->stats = NULL;
}

/* A unit's values in a line: its count, or (statistics) the header's number of 64-bit
 * values; false when `value` is not of that shape, with `bad` the text that is not a
 * decimal number (NULL: the shape is wrong). */
static bool unit_values(json_t *value, const JournalHeader *h, Count *count, uint64_t *stats, json_t **bad) {
    *bad = NULL;
    if (!h->stats) {
        if (!json_is_string(value))
            return false;
        *bad = value;
        return count_parse(json_string_value(value), json_string_length(value), count);
    }
    if (!json_is_array(value) || json_array_size(value) != (size_t)h->stats)
        return false;
    for (int v = 0; v < h->stats; v++) {
        json_t *item = json_array_get(value, (size_t)v);
        Count n;
        if (!json_is_string(item))
            return false;
        *bad = item;
        if (!count_parse(json_string_value(item), json_string_length(item), &n) || n > UINT64_MAX)
            return false;
        stats[v] = (uint64_t)n;
    }
    return true;
}

/* Takes the units of one parsed line after the header; the message names path:line. */
static bool read_units(json_t *json, const char *path, long long number, const char *line, size_t length,
                       JournalContents *out, char *error, size_t size) {
    PathText p = show_path(path);
    char text[SHOW_TEXT + 4];
    const JournalHeader *h = &out->header;
    const char *shape = h->stats ? "[index, [\"value\", ...]]" : "[index, \"count\"]";
    json_t *list = json_object_get(json, "units");
    if (!json_is_object(json) || json_object_size(json) != 1 || !json_is_array(list))
        return fail(error, size, "journal %s:%lld: not a line of units {\"units\": [%s, ...]}: '%s'", p.text, number,
                    shape, show(line, length, SHOW_TEXT, text));
    size_t i;
    json_t *entry;
    uint64_t stats[JOURNAL_MAX_STATS];
    json_array_foreach(list, i, entry) {
        json_t *index = json_array_get(entry, 0), *value = json_array_get(entry, 1), *bad;
        if (!json_is_array(entry) || json_array_size(entry) != 2 || !json_is_integer(index))
            return fail(error, size, "journal %s:%lld: unit %zu of the line is not %s: '%s'", p.text, number, i + 1,
                        shape, show(line, length, SHOW_TEXT, text));
        json_int_t u = json_integer_value(index);
        if (u < 0 || (uint64_t)u >= h->units)
            return fail(error, size, "journal %s:%lld: unit %lld is out of range (the journal has %" PRIu64 " units)",
                        p.text, number, (long long)u, h->units);
        Count n = 0;
        if (!unit_values(value, h, &n, stats, &bad)) {
            if (!bad)
                return fail(error, size, "journal %s:%lld: unit %zu of the line is not %s: '%s'", p.text, number, i + 1,
                            shape, show(line, length, SHOW_TEXT, text));
            return fail(error, size, "journal %s:%lld: the %s '%s' of unit %lld is not a decimal number%s", p.text,
                        number, h->stats ? "value" : "count",
                        show(json_string_value(bad), json_string_length(bad), SHOW_TEXT, text), (long long)u,
                        h->stats ? " below 2^64" : "");
        }
        uint64_t *kept = h->stats ? &out->stats[(size_t)u * (size_t)h->stats] : NULL;
        if (out->done[u] && (h->stats ? memcmp(kept, stats, sizeof *stats * (size_t)h->stats) != 0
                                      : out->counts[u] != n)) {
            char before[COUNT_TEXT_SIZE], now_text[COUNT_TEXT_SIZE];
            if (h->stats)
                return fail(error, size, "journal %s:%lld: unit %lld is listed twice with different statistics",
                            p.text, number, (long long)u);
            return fail(error, size, "journal %s:%lld: unit %lld is listed twice with different counts (%s, then %s)",
                        p.text, number, (long long)u, count_format(out->counts[u], false, before),
                        count_format(n, false, now_text));
        }
        out->finished += !out->done[u];
        out->done[u] = true;
        if (h->stats)
            memcpy(kept, stats, sizeof *stats * (size_t)h->stats);
        else
            out->counts[u] = n;
    }
    return true;
}

/* True when nothing follows in `f` (the line just read was the last). */
static bool at_end(FILE *f) {
    int c = getc(f);
    if (c == EOF)
        return !ferror(f);
    ungetc(c, f);
    return false;
}

bool journal_read(const char *path, JournalContents *out, char *error, size_t size) {
    memset(out, 0, sizeof *out);
    PathText p = show_path(path);
    FILE *f = fopen(path, "r");
    if (!f)
        return fail(error, size, "cannot read journal '%s': %s", p.text, strerror(errno));
    char *line = NULL, text[SHOW_TEXT + 4];
    size_t capacity = 0;
    bool ok = true;
    for (long long number = 1;; number++) {
        errno = 0;
        ssize_t n = getline(&line, &capacity, f);
        if (n < 0) {
            if (ferror(f) || errno == ENOMEM)
                ok = fail(error, size, "cannot read journal '%s': %s", p.text, strerror(errno ? errno : EIO));
            else if (number == 1)
                ok = fail(error, size, "journal %s is empty", p.text);
            break;
        }
        bool whole = line[n - 1] == '\n'; /* getline stops short of a newline only at the end */
        size_t length = (size_t)n - whole;
        json_error_t why;
        json_t *json = whole ? json_loadb(line, length, JSON_REJECT_DUPLICATES, &why) : NULL;
        if (!json && whole && json_error_code(&why) == json_error_out_of_memory) { /* not the file's fault */
            ok = fail(error, size, "cannot read journal '%s': %s", p.text, strerror(ENOMEM));
            break;
        }
        bool last = !whole || (!json && at_end(f));
        if (number == 1 && !json && last) {
            ok = fail(error, size, "journal %s has no complete header line (it is cut short or not a journal)",
                      p.text);
            break;
        }
        if (!json && last) { /* torn by a crash mid-write: what it held is counted again */
            out->torn = true;
            out->torn_line = number;
            out->torn_bytes = (long long)n;
            break;
        }
        if (!json) {
            ok = length == 0 ? fail(error, size, "journal %s:%lld: the line is empty", p.text, number)
                             : fail(error, size, "journal %s:%lld: not valid JSON (column %d): '%s'", p.text, number,
                                    why.column, show(line, length, SHOW_TEXT, text));
            break;
        }
        if (number == 1) {
            ok = header_from_json(json, path, line, length, &out->header, error, size);
            uint64_t units = out->header.units ? out->header.units : 1;
            int stats = out->header.stats;
            if (ok && units > SIZE_MAX / sizeof(Count) / (size_t)(stats ? stats : 1))
                ok = fail(error, size, "journal %s:1: %" PRIu64 " units are more than this machine can hold",
                          p.text, out->header.units);
            if (ok) {
                out->done = calloc((size_t)units, sizeof *out->done);
                if (stats)
                    out->stats = calloc((size_t)units * (size_t)stats, sizeof *out->stats);
                else
                    out->counts = calloc((size_t)units, sizeof *out->counts);
                if (!out->done || (!out->counts && !out->stats))
                    ok = fail(error, size, "journal %s:1: cannot hold %" PRIu64 " units in memory", p.text,
                              out->header.units);
            }
        } else
            ok = read_units(json, path, number, line, length, out, error, size);
        json_decref(json);
        if (!ok)
            break;
        out->lines = number;
        out->valid_size += (long long)n;
    }
    free(line);
    fclose(f);
    if (!ok)
        journal_contents_free(out);
    return ok;
}

/* ---- Comparing headers ---- */

bool journal_check_header(const JournalHeader *expected, const JournalHeader *found, char *error, size_t size) {
    char a[SHOW_TEXT + 4], b[SHOW_TEXT + 4];
    /* What the journal is of, first: its other fields mean something else in the other kind. */
    if (found->stats != expected->stats)
        return fail(error, size, "journal header: stats is %d, this run has %d (%s)", found->stats, expected->stats,
                    found->stats ? "a journal of perft stats, not of count or divide"
                                 : "a journal of count or divide, not of perft stats");
    if (strcmp(found->fen, expected->fen) != 0)
        return fail(error, size, "journal header: fen is '%s', this run has '%s'",
                    show(found->fen, strlen(found->fen), SHOW_TEXT, a),
                    show(expected->fen, strlen(expected->fen), SHOW_TEXT, b));
    if (found->chess960 != expected->chess960)
        return fail(error, size, "journal header: chess960 is %s, this run has %s", found->chess960 ? "true" : "false",
                    expected->chess960 ? "true" : "false");
    if (found->depth != expected->depth)
        return fail(error, size, "journal header: depth is %d, this run has %d", found->depth, expected->depth);
    if (found->split_ply != expected->split_ply)
        return fail(error, size, "journal header: split_ply is %d, this run has %d", found->split_ply,
                    expected->split_ply);
    if (found->key_seed != expected->key_seed)
        return fail(error, size, "journal header: key_seed is %" PRIu64 ", this run has %" PRIu64, found->key_seed,
                    expected->key_seed);
    if (found->units != expected->units)
        return fail(error, size, "journal header: units is %" PRIu64 ", this run has %" PRIu64, found->units,
                    expected->units);
    if (found->digest != expected->digest)
        return fail(error, size, "journal header: digest is %016" PRIx64 ", this run has %016" PRIx64, found->digest,
                    expected->digest);
    if (found->pass != expected->pass)
        return fail(error, size, "journal header: pass is %d, this run has %d", found->pass, expected->pass);
    return true;
}
