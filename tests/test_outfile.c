/* test_outfile.c — files written whole or not at all: the text arrives only on commit,
 * a failed or abandoned write leaves the old file and no temporary behind, and errors
 * name the target. */
#include "support.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../io/outfile.h"

/* A fresh empty directory for one test. */
static char *scratch_dir(char *path) {
    strcpy(path, "/tmp/perftkit-outfile-XXXXXX");
    cr_assert(mkdtemp(path));
    return path;
}

static int entries_in(const char *dir) {
    DIR *d = opendir(dir);
    cr_assert(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    closedir(d);
    return n;
}

static void write_text(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    cr_assert(f);
    fputs(text, f);
    fclose(f);
}

static const char *read_text(const char *path, char *out, size_t size) {
    FILE *f = fopen(path, "r");
    cr_assert(f, "cannot read back '%s'", path);
    size_t n = fread(out, 1, size - 1, f);
    out[n] = '\0';
    fclose(f);
    return out;
}

Test(outfile, commit_replaces_the_old_text_and_leaves_no_temporary) {
    char dir[64], path[128], text[64], error[256];
    snprintf(path, sizeof path, "%s/result.json", scratch_dir(dir));
    write_text(path, "old\n");
    OutFile f;
    cr_assert(outfile_open(&f, path, error, sizeof error), "%s", error);
    fputs("new\n", f.stream);
    fflush(f.stream);
    cr_assert_str_eq(read_text(path, text, sizeof text), "old\n", "the target changes only on commit");
    cr_assert(outfile_commit(&f, error, sizeof error), "%s", error);
    cr_assert_str_eq(read_text(path, text, sizeof text), "new\n");
    cr_assert_eq(entries_in(dir), 1);
    unlink(path);
    rmdir(dir);
}

Test(outfile, abandon_keeps_the_old_text) {
    char dir[64], path[128], text[64], error[256];
    snprintf(path, sizeof path, "%s/report.xml", scratch_dir(dir));
    write_text(path, "old\n");
    OutFile f;
    cr_assert(outfile_open(&f, path, error, sizeof error), "%s", error);
    fputs("half a document", f.stream);
    outfile_abandon(&f);
    cr_assert_str_eq(read_text(path, text, sizeof text), "old\n");
    cr_assert_eq(entries_in(dir), 1);
    unlink(path);
    rmdir(dir);
}

Test(outfile, errors_name_the_target_and_leave_nothing_behind) {
    char error[256];
    OutFile f;
    cr_assert_not(outfile_open(&f, "/nonexistent/dir/out.json", error, sizeof error));
    cr_assert_str_eq(error, "cannot write '/nonexistent/dir/out.json': No such file or directory");

    /* The target is a directory: refused before anything is written. */
    char dir[64], target[128];
    snprintf(target, sizeof target, "%s/taken", scratch_dir(dir));
    cr_assert_eq(mkdir(target, 0700), 0);
    cr_assert_not(outfile_open(&f, target, error, sizeof error));
    cr_assert(strstr(error, "cannot write '") && strstr(error, "/taken': Is a directory"), "%s", error);
    struct stat st;
    cr_assert(stat(target, &st) == 0 && S_ISDIR(st.st_mode), "the old target stays");
    cr_assert_eq(entries_in(dir), 1, "the temporary is removed");
    rmdir(target);
    rmdir(dir);
}

Test(outfile, a_device_is_written_in_place_and_its_failure_reported) {
    char error[256];
    OutFile f;
    cr_assert(outfile_open(&f, "/dev/null", error, sizeof error), "%s", error);
    fputs("text\n", f.stream);
    cr_assert(outfile_commit(&f, error, sizeof error), "%s", error);
    struct stat st;
    cr_assert(stat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode), "the device is still a device");
    cr_assert(outfile_open(&f, "/dev/full", error, sizeof error), "%s", error);
    fputs("text\n", f.stream);
    cr_assert_not(outfile_commit(&f, error, sizeof error));
    cr_assert_str_eq(error, "cannot write '/dev/full': No space left on device");
}

Test(outfile, a_path_under_a_regular_file_is_refused_and_quoted) {
    char error[512], path[128] = "/tmp/perftkit-outfile-XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    close(fd);
    char under[160];
    snprintf(under, sizeof under, "%s/\x1b[2Jout", path);
    OutFile f;
    cr_assert_not(outfile_open(&f, under, error, sizeof error));
    cr_assert(strstr(error, "/\\x1B[2Jout': Not a directory"), "%s", error);
    cr_assert_null(strchr(error, '\x1b'), "the path is quoted");
    unlink(path);
}
