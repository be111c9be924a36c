/* outfile.c — temporary file, sync, rename. */
#include "outfile.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

static bool fail(const OutFile *f, int error_number, char *error, size_t size) {
    snprintf(error, size, "cannot write '%s': %s", f->path, strerror(error_number));
    return false;
}

bool outfile_open(OutFile *f, const char *path, char *error, size_t size) {
    f->path = path;
    int length = snprintf(f->temporary, sizeof f->temporary, "%s.tmp.%ld", path, (long)getpid());
    if (length < 0 || (size_t)length >= sizeof f->temporary)
        return fail(f, ENAMETOOLONG, error, size);
    f->stream = fopen(f->temporary, "w");
    return f->stream ? true : fail(f, errno, error, size);
}

bool outfile_commit(OutFile *f, char *error, size_t size) {
    errno = 0;
    bool ok = !ferror(f->stream) && fflush(f->stream) == 0 && fsync(fileno(f->stream)) == 0;
    ok = fclose(f->stream) == 0 && ok;
    f->stream = NULL;
    if (ok && rename(f->temporary, f->path) == 0)
        return true;
    int reason = errno ? errno : EIO; /* a stream error from an earlier write may leave errno unset */
    unlink(f->temporary);
    return fail(f, reason, error, size);
}

void outfile_abandon(OutFile *f) {
    if (!f->stream)
        return;
    fclose(f->stream);
    f->stream = NULL;
    unlink(f->temporary);
}
