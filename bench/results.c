/* results.c — reading stored results and drawing them. The page needs nothing but
 * itself: styles inline, the chart as inline SVG, and one line of script that records
 * how many bars the browser rendered (the tests read it back). */
#include "results.h"

#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../io/outfile.h"
#include "../io/text.h"

/* Where unreadable files are reported. */
typedef struct Walk {
    ResultSet *set;
    ResultsWarning warn;
    void *context;
} Walk;

/* A string member of a stored result, quoted (io/text.h): the files come from anywhere,
 * and the table prints these on a terminal. */
static void copy_string(char *out, size_t size, json_t *value) {
    char shown[TEXT_QUOTE_SIZE];
    snprintf(out, size, "%s", json_is_string(value) ? text_quote(json_string_value(value), shown) : "?");
}

/* Reads one file; false when it is not a bench result (not counted as an error). */
static bool read_result(const char *path, StoredResult *r, const Walk *walk) {
    ResultSet *set = walk->set;
    json_error_t why;
    json_t *doc = json_load_file(path, 0, &why);
    if (!doc) {
        char message[2 * TEXT_QUOTE_SIZE + 64], shown[TEXT_QUOTE_SIZE], reason[TEXT_QUOTE_SIZE];
        snprintf(message, sizeof message, "'%s' is not JSON: %s (line %d); passed over", text_quote(path, shown),
                 text_quote(why.text, reason), why.line);
        walk->warn(walk->context, message);
        set->unreadable++;
        return false;
    }
    const char *kind = json_string_value(json_object_get(doc, "kind"));
    json_t *setups = json_object_get(doc, "setups");
    if (!kind || strcmp(kind, "perftkit-bench") || json_integer_value(json_object_get(doc, "schema")) != 1
        || !json_is_array(setups)) {
        set->other_json++;
        json_decref(doc);
        return false;
    }
    memset(r, 0, sizeof *r);
    snprintf(r->path, sizeof r->path, "%s", path);
    json_t *machine = json_object_get(doc, "machine"), *build = json_object_get(doc, "build");
    json_t *workload = json_object_get(doc, "workload");
    copy_string(r->machine, sizeof r->machine, json_object_get(machine, "name"));
    copy_string(r->cpu, sizeof r->cpu, json_object_get(machine, "cpu"));
    copy_string(r->date, sizeof r->date, json_object_get(doc, "date"));
    copy_string(r->commit, sizeof r->commit, json_object_get(build, "commit"));
    copy_string(r->workload, sizeof r->workload, json_object_get(workload, "name"));
    copy_string(r->checksum, sizeof r->checksum, json_object_get(workload, "checksum"));
    size_t i;
    json_t *s;
    json_array_foreach(setups, i, s) {
        if (r->setup_count == BENCH_MAX_SETUPS)
            break;
        StoredSetup *out = &r->setups[r->setup_count];
        const char *mode = json_string_value(json_object_get(s, "mode"));
        json_int_t threads = json_integer_value(json_object_get(s, "threads"));
        out->median = json_number_value(json_object_get(s, "median_leaves_per_second"));
        out->min = json_number_value(json_object_get(s, "min_leaves_per_second"));
        out->max = json_number_value(json_object_get(s, "max_leaves_per_second"));
        /* Speeds as bench writes them, 0 < min <= median <= max: the chart's bars are
         * scaled to the largest max, so no bar can leave it (or overflow an int). */
        if (!mode || threads < 1 || !(out->min > 0 && out->min <= out->median && out->median <= out->max))
            continue;
        snprintf(out->label, sizeof out->label, "%s/%s", mode, threads == 1 ? "1" : "all");
        r->setup_count++;
    }
    json_decref(doc);
    if (!r->setup_count) { /* a damaged result is named, not dropped without a word */
        char message[TEXT_QUOTE_SIZE + 96], shown[TEXT_QUOTE_SIZE];
        snprintf(message, sizeof message, "'%s' is a bench result without a readable setup; passed over",
                 text_quote(path, shown));
        walk->warn(walk->context, message);
        set->unreadable++;
    }
    return r->setup_count > 0;
}

static void walk(const char *dir, const Walk *w) {
    ResultSet *set = w->set;
    DIR *d = opendir(dir);
    if (!d)
        return;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        char path[2048];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(path, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            walk(path, w);
            continue;
        }
        size_t n = strlen(e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 5, ".json"))
            continue;
        if (set->count == set->capacity) {
            int capacity = set->capacity ? set->capacity * 2 : 16;
            StoredResult *grown = realloc(set->items, (size_t)capacity * sizeof *grown);
            if (!grown)
                break;
            set->items = grown;
            set->capacity = capacity;
        }
        if (read_result(path, &set->items[set->count], w))
            set->count++;
    }
    closedir(d);
}

static int by_machine_then_date(const void *a, const void *b) {
    const StoredResult *x = a, *y = b;
    int c = strcmp(x->machine, y->machine);
    return c ? c : strcmp(x->date, y->date);
}

bool results_load(const char *dir, ResultSet *set, ResultsWarning warn, void *context, char *error, size_t size) {
    memset(set, 0, sizeof *set);
    DIR *d = opendir(dir);
    if (!d) {
        char shown[TEXT_QUOTE_SIZE];
        return bench_error(error, size, "cannot read '%s': %s", text_quote(dir, shown), strerror(errno));
    }
    closedir(d);
    walk(dir, &(Walk){set, warn, context});
    if (set->count)
        qsort(set->items, (size_t)set->count, sizeof set->items[0], by_machine_then_date);
    return true;
}

void results_free(ResultSet *set) {
    free(set->items);
    memset(set, 0, sizeof *set);
}

int results_reference(const ResultSet *set, const char *reference) {
    int found = -1;
    for (int i = 0; i < set->count; i++) {
        if (reference) {
            if (!strcmp(set->items[i].machine, reference))
                found = i; /* sorted by date within a machine: the last is the newest */
        } else if (found < 0 || strcmp(set->items[i].date, set->items[found].date) < 0) {
            found = i;
        }
    }
    return found;
}

/* The setup labels present in the compared results, in a fixed order. */
static int columns(const ResultSet *set, const StoredResult *ref, const char *out[BENCH_MAX_SETUPS]) {
    static const char *const order[] = {"bulk/1", "bulk/all", "full/1", "full/all", "hashed/1", "hashed/all"};
    int n = 0;
    for (int c = 0; c < 6; c++) {
        bool present = false;
        for (int i = 0; i < set->count && !present; i++)
            if (!strcmp(set->items[i].checksum, ref->checksum))
                for (int s = 0; s < set->items[i].setup_count; s++)
                    present |= !strcmp(set->items[i].setups[s].label, order[c]);
        if (present)
            out[n++] = order[c];
    }
    return n;
}

static const StoredSetup *setup_of(const StoredResult *r, const char *label) {
    for (int s = 0; s < r->setup_count; s++)
        if (!strcmp(r->setups[s].label, label))
            return &r->setups[s];
    return NULL;
}

static void short_commit(const char *commit, char out[24]) { snprintf(out, 24, "%.16s", commit); }

int results_print_table(FILE *out, const ResultSet *set, int reference) {
    const StoredResult *ref = &set->items[reference];
    const char *cols[BENCH_MAX_SETUPS];
    int n = columns(set, ref, cols), compared = 0;
    fprintf(out, "workload %s; median Mleaves/s and, in brackets, the ratio to %s %.10s\n", ref->workload,
            ref->machine, ref->date);
    fprintf(out, "%-24s %-10s %-16s", "machine", "date", "commit");
    for (int c = 0; c < n; c++)
        fprintf(out, " %16s", cols[c]);
    fputc('\n', out);
    for (int i = 0; i < set->count; i++) {
        const StoredResult *r = &set->items[i];
        if (strcmp(r->checksum, ref->checksum))
            continue;
        char commit[24];
        short_commit(r->commit, commit);
        fprintf(out, "%-24.24s %-10.10s %-16s", r->machine, r->date, commit);
        for (int c = 0; c < n; c++) {
            const StoredSetup *s = setup_of(r, cols[c]), *base = setup_of(ref, cols[c]);
            char cell[32] = "-";
            if (s && base)
                snprintf(cell, sizeof cell, "%.1f (%.2fx)", s->median / 1e6, s->median / base->median);
            else if (s)
                snprintf(cell, sizeof cell, "%.1f", s->median / 1e6);
            fprintf(out, " %16s", cell);
        }
        fputc('\n', out);
        compared++;
    }
    if (compared < set->count)
        fprintf(out, "(%d result%s of other workloads not compared)\n", set->count - compared,
                set->count - compared > 1 ? "s" : "");
    return compared;
}

/* At most `limit` bytes of `s`, escaped for HTML text and attributes. */
static void html_text_cut(FILE *f, const char *s, size_t limit) {
    for (; *s && limit; s++, limit--) {
        if (*s == '<')
            fputs("&lt;", f);
        else if (*s == '>')
            fputs("&gt;", f);
        else if (*s == '&')
            fputs("&amp;", f);
        else if (*s == '"')
            fputs("&quot;", f);
        else
            fputc(*s, f);
    }
}

static void html_text(FILE *f, const char *s) { html_text_cut(f, s, SIZE_MAX); }

static void write_page(FILE *f, const ResultSet *set, int reference) {
    static const char *const colours[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2",
                                          "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};
    const StoredResult *ref = &set->items[reference];
    const char *cols[BENCH_MAX_SETUPS];
    int n = columns(set, ref, cols), shown[1024], count = 0;
    double top = 0;
    for (int i = 0; i < set->count && count < 1024; i++) {
        if (strcmp(set->items[i].checksum, ref->checksum))
            continue;
        shown[count++] = i;
        for (int s = 0; s < set->items[i].setup_count; s++)
            if (set->items[i].setups[s].max > top)
                top = set->items[i].setups[s].max;
    }
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>perftkit benchmark "
          "results</title>\n<style>\nbody{font-family:sans-serif;margin:2em;color:#222}\n"
          "table{border-collapse:collapse;margin-top:1em}td,th{border:1px solid #ccc;padding:4px 8px;"
          "text-align:right;white-space:nowrap}\nth:first-child,td:first-child{text-align:left}\n.axis{font-size:12px}\n</style>\n"
          "</head>\n<body>\n<h1>perftkit benchmark results</h1>\n<p>Workload ", f);
    html_text(f, ref->workload);
    fputs(". Median leaves per second of each stored result, per mode and thread count; error bars from "
          "the slowest to the fastest run. Ratios are to ", f);
    html_text(f, ref->machine);
    fputs(", ", f);
    html_text(f, ref->date);
    fputs(".</p>\n", f);
    /* The chart: a group per setup, a bar per result. */
    int bar_width = 18, group_gap = 30, left = 70, height = 320, bottom = 40;
    int group_width = count * bar_width + group_gap < 80 ? 80 : count * bar_width + group_gap;
    int width = left + n * group_width + 20;
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" role=\"img\" "
               "aria-label=\"median Mleaves/s per setup and result\">\n", width, height + bottom + 10);
    double scale = top > 0 ? (height - 10) / (top / 1e6) : 1;
    for (int t = 0; t <= 4; t++) { /* grid and axis labels */
        double value = top / 1e6 * t / 4;
        int y = height - (int)(value * scale);
        fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#eee\"/>"
                   "<text class=\"axis\" x=\"%d\" y=\"%d\" text-anchor=\"end\">%.0f</text>\n",
                left, y, width - 10, y, left - 6, y + 4, value);
    }
    fprintf(f, "<text class=\"axis\" x=\"12\" y=\"%d\" transform=\"rotate(-90 12 %d)\" text-anchor=\"middle\">"
               "Mleaves/s</text>\n", height / 2, height / 2);
    for (int c = 0; c < n; c++) {
        int x0 = left + c * group_width + (group_width - count * bar_width) / 2;
        for (int k = 0; k < count; k++) {
            const StoredResult *r = &set->items[shown[k]];
            const StoredSetup *s = setup_of(r, cols[c]);
            if (!s)
                continue;
            int x = x0 + k * bar_width, h = (int)(s->median / 1e6 * scale);
            int y_min = height - (int)(s->min / 1e6 * scale), y_max = height - (int)(s->max / 1e6 * scale);
            fprintf(f, "<rect class=\"bar\" data-setup=\"%s\" data-result=\"%d\" x=\"%d\" y=\"%d\" width=\"%d\" "
                       "height=\"%d\" fill=\"%s\"><title>", cols[c], k, x, height - h, bar_width - 2, h,
                    colours[k % 10]);
            html_text(f, r->machine);
            fprintf(f, " %s: %.1f Mleaves/s (%.1f to %.1f)</title></rect>\n", cols[c], s->median / 1e6,
                    s->min / 1e6, s->max / 1e6);
            fprintf(f, "<line class=\"error\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#222\"/>\n",
                    x + bar_width / 2 - 1, y_min, x + bar_width / 2 - 1, y_max);
        }
        fprintf(f, "<text class=\"axis\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
                x0 + count * bar_width / 2, height + 18, cols[c]);
    }
    for (int k = 0; k < count; k++) { /* legend */
        const StoredResult *r = &set->items[shown[k]];
        fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/><text class=\"axis\" "
                   "x=\"%d\" y=\"%d\">", left + (k % 4) * 220, height + 28 + (k / 4) * 14, colours[k % 10],
                left + (k % 4) * 220 + 14, height + 37 + (k / 4) * 14);
        html_text(f, r->machine);
        fputc(' ', f);
        html_text_cut(f, r->date, 10);
        fputs("</text>\n", f);
    }
    fputs("</svg>\n<table>\n<tr><th>machine</th><th>CPU</th><th>date</th><th>commit</th>", f);
    for (int c = 0; c < n; c++)
        fprintf(f, "<th>%s</th>", cols[c]);
    fputs("</tr>\n", f);
    for (int k = 0; k < count; k++) {
        const StoredResult *r = &set->items[shown[k]];
        fputs("<tr><td>", f);
        html_text(f, r->machine);
        fputs("</td><td>", f);
        html_text(f, r->cpu);
        fputs("</td><td>", f);
        html_text(f, r->date);
        fputs("</td><td>", f);
        html_text(f, r->commit);
        fputs("</td>", f);
        for (int c = 0; c < n; c++) {
            const StoredSetup *s = setup_of(r, cols[c]), *base = setup_of(ref, cols[c]);
            if (s && base)
                fprintf(f, "<td>%.1f (%.2fx)</td>", s->median / 1e6, s->median / base->median);
            else if (s)
                fprintf(f, "<td>%.1f</td>", s->median / 1e6);
            else
                fputs("<td>-</td>", f);
        }
        fputs("</tr>\n", f);
    }
    fputs("</table>\n<script>document.documentElement.setAttribute('data-rendered-bars', "
          "document.querySelectorAll('svg rect.bar').length);</script>\n</body>\n</html>\n",
          f);
}

bool results_write_html(const char *path, const ResultSet *set, int reference, char *error, size_t size) {
    OutFile f;
    if (!outfile_open(&f, path, error, size))
        return false;
    write_page(f.stream, set, reference);
    return outfile_commit(&f, error, size);
}
