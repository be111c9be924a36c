/* fuzz_results.c — the stored-results reader (bench/results.c) over any file contents:
 * a file that is not JSON is named in one warning line; a result read is drawn as the
 * comparison table and the HTML page without a control byte from the input reaching the
 * table, and without outside text reaching the page unescaped. */
#include "fuzz_support.h"

#include <sys/stat.h>

#include "../../bench/results.h"

static void warned(void *context, const char *message) {
    int *warnings = context;
    FUZZ_CHECK(fuzz_one_line(message), "a warning that is not one line: '%s'", message);
    (*warnings)++;
}

static size_t count_of(const char *text, char c) {
    size_t n = 0;
    for (; *text; text++)
        n += *text == c;
    return n;
}

static char *read_all(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    FUZZ_CHECK(f, "cannot read %s", path);
    char *text = NULL;
    size_t used = 0, room = 0, n;
    do {
        if (used + 4096 + 1 > room) {
            room = 2 * room + 4096 + 1;
            text = realloc(text, room);
            FUZZ_CHECK(text, "out of memory");
        }
        n = fread(text + used, 1, room - used - 1, f);
        used += n;
    } while (n > 0);
    fclose(f);
    text[used] = '\0';
    *size = used;
    return text;
}

/* The HTML page of `set`, written to `path` and read back. */
static char *render(const ResultSet *set, const char *path, size_t *size) {
    char error[512];
    FUZZ_CHECK(results_write_html(path, set, 0, error, sizeof error), "cannot write the page: %s", error);
    return read_all(path, size);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char dir[600], path[700], page[700], error[512] = "";
    fuzz_path("results", dir, sizeof dir);
    mkdir(dir, 0700);
    snprintf(path, sizeof path, "%s/result.json", dir);
    fuzz_path("results.html", page, sizeof page);
    fuzz_write_file(path, data, size);

    ResultSet set;
    int warnings = 0;
    FUZZ_CHECK(results_load(dir, &set, warned, &warnings, error, sizeof error), "cannot load: %s", error);
    FUZZ_CHECK(set.count + set.other_json + set.unreadable == 1 && warnings == set.unreadable,
               "one file: %d results, %d other, %d unreadable, %d warnings", set.count, set.other_json,
               set.unreadable, warnings);
    if (set.count) {
        const StoredResult *r = &set.items[0];
        FUZZ_CHECK(results_reference(&set, NULL) == 0 && results_reference(&set, r->machine) == 0,
                   "the only result is not the reference");
        char *table = NULL;
        size_t table_size = 0;
        FILE *out = open_memstream(&table, &table_size);
        FUZZ_CHECK(out, "cannot open a memory stream");
        FUZZ_CHECK(results_print_table(out, &set, 0) == 1, "the table does not compare the result with itself");
        fclose(out);
        for (size_t i = 0; i < table_size; i++)
            FUZZ_CHECK(table[i] == '\n' || ((unsigned char)table[i] >= 0x20 && table[i] != 0x7f),
                       "control byte 0x%02X in the table", (unsigned char)table[i]);
        free(table);

        /* The page of the same result with its outside text made plain has as many '<',
         * '>' and '"' as this one: none came from the input. */
        size_t html_size, plain_size;
        char *html = render(&set, page, &html_size);
        StoredResult *plain = &set.items[0];
        char *texts[] = {plain->machine, plain->cpu, plain->date, plain->commit, plain->workload};
        for (size_t i = 0; i < sizeof texts / sizeof *texts; i++)
            strcpy(texts[i], "x");
        char *html_plain = render(&set, page, &plain_size);
        for (const char *c = "<>\""; *c; c++)
            FUZZ_CHECK(count_of(html, *c) == count_of(html_plain, *c), "%zu '%c' in the page, %zu when the "
                       "result's text is plain: outside text reaches the page unescaped", count_of(html, *c), *c,
                       count_of(html_plain, *c));
        free(html);
        free(html_plain);
    }
    results_free(&set);
    return 0;
}
