/* outfile.c — temporary file, sync, rename, sync of the folder. A target that exists and
 * is not a regular file (/dev/stdout, /dev/full, a FIFO) cannot be replaced by a rename:
 * it is written directly, and a failed write is still reported. */
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "text.h"

static bool fail(const OutFile *f, int error_number, char *error, size_t size) {
    char shown[TEXT_QUOTE_SIZE];
    snprintf(error, size, "cannot write '%s': %s", text_quote(f->path, shown), strerror(error_number));
    return false;
}

/* Makes a rename into the folder of `path` durable: syncs the folder. */
static void sync_folder(const char *path) {
    char folder[sizeof ((OutFile *)0)->temporary];
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(folder, sizeof folder, ".");
    else if (slash == path)
        snprintf(folder, sizeof folder, "/");
    else
        snprintf(folder, sizeof folder, "%.*s", (int)(slash - path), path);
    int fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        (void)fsync(fd);
        close(fd);
    }
}

bool outfile_open(OutFile *f, const char *path, char *error, size_t size) {
    f->path = path;
    f->stream = NULL;
    f->temporary[0] = '\0';
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        if (S_ISDIR(st.st_mode))
            return fail(f, EISDIR, error, size);
        f->stream = fopen(path, "w"); /* a device or FIFO: written in place */
        return f->stream ? true : fail(f, errno, error, size);
    }
    int length = snprintf(f->temporary, sizeof f->temporary, "%s.tmp.%ld", path, (long)getpid());
    if (length < 0 || (size_t)length >= sizeof f->temporary)
        return f->temporary[0] = '\0', fail(f, ENAMETOOLONG, error, size);
    unlink(f->temporary); /* a stale one of an earlier process with this pid */
    int fd = open(f->temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0 || !(f->stream = fdopen(fd, "w"))) {
        int reason = errno;
        if (fd >= 0) {
            close(fd);
            unlink(f->temporary);
        }
        return fail(f, reason, error, size);
    }
    return true;
}

bool outfile_commit(OutFile *f, char *error, size_t size) {
    int earlier = errno; /* why an earlier write failed, when one did: the caller writes, then commits */
    errno = 0;
    bool in_place = !f->temporary[0], written = !ferror(f->stream);
    bool ok = written && fflush(f->stream) == 0 && (in_place || fsync(fileno(f->stream)) == 0);
    int reason = written ? errno : earlier;
    ok = fclose(f->stream) == 0 && ok;
    if (!reason)
        reason = errno;
    f->stream = NULL;
    if (ok && in_place)
        return true;
    if (ok && rename(f->temporary, f->path) == 0) {
        sync_folder(f->path);
        return true;
    }
    if (!reason)
        reason = errno ? errno : EIO; /* a stream error from an earlier write may leave errno unset */
    if (!in_place)
        unlink(f->temporary);
    return fail(f, reason, error, size);
}

void outfile_abandon(OutFile *f) {
    if (!f->stream)
        return;
    fclose(f->stream);
    f->stream = NULL;
    if (f->temporary[0])
        unlink(f->temporary);
}
