/* outfile.h — files written whole or not at all. The text goes to a temporary file beside
 * the target; only when every write, the flush and the sync succeeded is it renamed over
 * the target (and the folder synced). A reader never sees half a file, and a failed write
 * leaves any old file as it was. A target that is not a regular file (a device, a FIFO)
 * is written in place. Errors name the target path (quoted, io/text.h) and the system's
 * reason: "cannot write 'PATH': REASON". */
#ifndef PERFTKIT_OUTFILE_H
#define PERFTKIT_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct OutFile {
    FILE *stream; /* write here between outfile_open and outfile_commit */
    const char *path;
    char temporary[4200]; /* "" when the target is written in place */
} OutFile;

/* Creates the temporary file for `path` (which must outlive `f`). */
bool outfile_open(OutFile *f, const char *path, char *error, size_t error_size);

/* Closes the stream and moves the text into place; on failure the temporary is removed. */
bool outfile_commit(OutFile *f, char *error, size_t error_size);

/* Closes the stream and removes the temporary; the target is not touched. */
void outfile_abandon(OutFile *f);

#endif
