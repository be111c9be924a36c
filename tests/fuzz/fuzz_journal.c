/* fuzz_journal.c — the journal reader (io/journal.c) over any file contents. A refused
 * journal gets a one-line message (and nothing to free); a read one is consistent (units
 * done counted once, the sizes of the whole lines and of a torn tail adding up to the
 * file's) and, written again by journal_create and journal_append, reads back as the
 * same header and the same finished units. */
#include "fuzz_support.h"

#include "../../io/journal.h"

/* Journals with more units than this are read but not written again (time). */
enum { MAX_REWRITTEN_UNITS = 1 << 16, BATCH = 50 };

/* Unit `u` has the same count (or statistics) in both. */
static bool same_values(const JournalContents *a, const JournalContents *b, uint64_t u) {
    if (!a->header.stats)
        return a->counts[u] == b->counts[u];
    return !memcmp(journal_unit_stats(a, u), journal_unit_stats(b, u), sizeof(uint64_t) * (size_t)a->header.stats);
}

/* Unit `u` holds no value (it is not done). */
static bool no_values(const JournalContents *c, uint64_t u) {
    for (int v = 0; v < c->header.stats; v++)
        if (journal_unit_stats(c, u)[v])
            return false;
    return c->header.stats || c->counts[u] == 0;
}

static void check_rewrite(const JournalContents *read, const char *path) {
    char error[JOURNAL_ERROR_SIZE] = "";
    Journal *j = journal_create(path, &read->header, true, error, sizeof error);
    FUZZ_CHECK(j, "the header read cannot be written again: %s", error);
    JournalUnit batch[BATCH];
    int n = 0;
    for (uint64_t u = 0; u < read->header.units; u++) {
        if (!read->done[u])
            continue;
        bool stats = read->header.stats;
        batch[n++] = (JournalUnit){u, stats ? 0 : read->counts[u], stats ? journal_unit_stats(read, u) : NULL};
        if (n == BATCH) {
            FUZZ_CHECK(journal_append(j, batch, n, error, sizeof error), "append: %s", error);
            n = 0;
        }
    }
    FUZZ_CHECK(journal_append(j, batch, n, error, sizeof error), "append: %s", error);
    FUZZ_CHECK(journal_close(j, error, sizeof error), "close: %s", error);

    JournalContents again;
    FUZZ_CHECK(journal_read(path, &again, error, sizeof error), "the journal written again is refused: %s", error);
    FUZZ_CHECK(journal_check_header(&read->header, &again.header, error, sizeof error)
                   && !strcmp(read->header.tool, again.header.tool),
               "the header written again differs: %s", error);
    FUZZ_CHECK(!again.torn && again.finished == read->finished, "%llu units finished, %llu written again",
               (unsigned long long)read->finished, (unsigned long long)again.finished);
    for (uint64_t u = 0; u < read->header.units; u++)
        FUZZ_CHECK(again.done[u] == read->done[u] && same_values(&again, read, u), "unit %llu differs",
                   (unsigned long long)u);
    journal_contents_free(&again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char path[600], rewritten[600], error[JOURNAL_ERROR_SIZE] = "";
    fuzz_write_file(fuzz_path("run.journal", path, sizeof path), data, size);
    fuzz_path("again.journal", rewritten, sizeof rewritten);
    JournalContents contents;
    if (!journal_read(path, &contents, error, sizeof error)) {
        FUZZ_CHECK(fuzz_one_line(error), "refused without a one-line message: '%s'", error);
        FUZZ_CHECK(!contents.done && !contents.counts && !contents.stats, "refused, yet units are kept");
        journal_contents_free(&contents);
        return 0;
    }
    const JournalHeader *h = &contents.header;
    FUZZ_CHECK(h->depth >= 0 && h->depth <= JOURNAL_MAX_DEPTH && h->split_ply >= 0 && h->split_ply <= h->depth
                   && (h->pass == 1 || h->pass == 2) && h->units <= (uint64_t)INT64_MAX && h->stats >= 0
                   && h->stats <= JOURNAL_MAX_STATS,
               "a header out of range was read");
    FUZZ_CHECK(contents.lines >= 1 && contents.valid_size >= 0 && contents.valid_size <= (long long)size,
               "%lld lines, %lld bytes of %zu", contents.lines, contents.valid_size, size);
    if (contents.torn)
        FUZZ_CHECK(contents.torn_line == contents.lines + 1
                       && contents.valid_size + contents.torn_bytes == (long long)size,
                   "torn line %lld after %lld lines, %lld + %lld bytes of %zu", contents.torn_line, contents.lines,
                   contents.valid_size, contents.torn_bytes, size);
    else
        FUZZ_CHECK(contents.valid_size == (long long)size, "%lld bytes read of %zu", contents.valid_size, size);
    if (h->units <= MAX_REWRITTEN_UNITS) {
        uint64_t finished = 0;
        for (uint64_t u = 0; u < h->units; u++) {
            finished += contents.done[u];
            FUZZ_CHECK(contents.done[u] || no_values(&contents, u), "unit %llu not done has a count",
                       (unsigned long long)u);
        }
        FUZZ_CHECK(finished == contents.finished, "%llu units done, %llu said", (unsigned long long)finished,
                   (unsigned long long)contents.finished);
        check_rewrite(&contents, rewritten);
    }
    journal_contents_free(&contents);
    return 0;
}
