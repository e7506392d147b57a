/* safe_dir.h — files gpulab creates in a directory another user might be able to write: the compiled
 * engine's cache, the nvcc and SASS caches, the spool beside a database, the profile spool (common/spool.h),
 * sweep directories and temporary directories.  Every such file goes through these functions, which apply one set of rules:
 *
 *  - the directory is opened once (its last component never through a symbolic link) and must be a
 *    directory owned by this user and not writable by group or others; otherwise it is refused with a
 *    sentence naming it, what is wrong and the fix (GL_EENV).  Every later step works relative to the
 *    open descriptor (openat, renameat, unlinkat), so renaming the path afterwards changes nothing;
 *  - a new file is created under a fresh random name with O_CREAT|O_EXCL|O_NOFOLLOW, mode 0600, written,
 *    and renamed onto its final name only when complete (a reader never sees half a file; a planted
 *    symbolic link is replaced, never followed);
 *  - an existing file is opened with O_NOFOLLOW|O_NONBLOCK and must be a regular file owned by this user
 *    and not writable by group or others (a FIFO, device, link or somebody else's file is refused);
 *  - a tool that writes its own output files (a compiler) gets a private temporary directory inside the
 *    checked one (mkdtemp, 0700), whose results are then renamed in; temporary entries left by an
 *    interrupted process are removed by gl_safe_dir_clean_stale.
 *
 * Use: gl_safe_dir_open(&d, path, GL_SAFE_DIR_CREATE, "the SASS cache", err); then gl_safe_dir_write(&d,
 * "KEY.sass", text, len, err) to store and gl_safe_dir_read(&d, "KEY.sass", max, &text, &len, err) to
 * read back; gl_safe_dir_close(&d). */
#ifndef GL_SAFE_DIR_H
#define GL_SAFE_DIR_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

#include "err.h"

#define GL_SAFE_DIR_TEMP_PREFIX ".gl-tmp-" /* the names of temporary entries, for gl_safe_dir_clean_stale */
#define GL_SAFE_DIR_TEMP_NAME 48 /* bytes a temporary name needs: the prefix, a pid, "-", 16 hex digits */

struct gl_safe_dir {
	int fd;              /* the checked directory, open; -1 when closed */
	char path[PATH_MAX]; /* for messages and for tools that need a path */
	char what[96];       /* what the directory is, for messages ("the compiled engine's cache") */
};

enum {
	GL_SAFE_DIR_CREATE = 1, /* create it (0700, and its missing parents 0700) when it does not exist */
};

/* Open and check `path` (rules above); `what` names it in messages.  GL_EENV with the sentence and the fix
 * when it is refused or cannot be created. */
int gl_safe_dir_open(struct gl_safe_dir *d, const char *path, unsigned flags, const char *what, struct gl_err *err);
void gl_safe_dir_close(struct gl_safe_dir *d);

/* A new file in `d` under a fresh temporary name (written to name, at most n bytes), open for writing in
 * *fd.  Finish with gl_safe_dir_publish (rename onto its final name) or gl_safe_dir_discard. */
int gl_safe_dir_create_temp(const struct gl_safe_dir *d, char *name, size_t n, int *fd, struct gl_err *err);
/* Rename entry `from` of d onto `to` (replacing what is there: a planted link or a stale file). */
int gl_safe_dir_publish(const struct gl_safe_dir *d, const char *from, const char *to, struct gl_err *err);
/* Remove entry `name` of d (a file, or an empty directory); quiet when it is already gone. */
void gl_safe_dir_discard(const struct gl_safe_dir *d, const char *name);
/* The whole of data[0..len) as file `name` of d, through a temporary file and a rename. */
int gl_safe_dir_write(const struct gl_safe_dir *d, const char *name, const void *data, size_t len, struct gl_err *err);

/* Open file `name` of d to read (rules above); *st is its fstat.  GL_EUSAGE when it does not exist
 * (errno ENOENT), GL_EENV when it is refused. */
int gl_safe_dir_open_file(const struct gl_safe_dir *d, const char *name, int *fd, struct stat *st, struct gl_err *err);
/* The whole file `name` of d, NUL-terminated, refused when larger than `max` bytes (before reading). */
int gl_safe_dir_read(const struct gl_safe_dir *d, const char *name, size_t max, char **text, size_t *len,
		     struct gl_err *err);

/* A private directory (0700) inside d under a fresh temporary name: its name in name[0..n), and the open,
 * checked directory in *tmp (close it, then gl_safe_dir_remove_tree(d, name) when done). */
int gl_safe_dir_make_temp_dir(const struct gl_safe_dir *d, char *name, size_t n, struct gl_safe_dir *tmp,
			      struct gl_err *err);
/* Call fn(d, name, arg) for each entry of d but "." and ".." (fn may remove the entry it is given): each
 * call lists d from its first entry.  GL_EENV when d cannot be listed. */
typedef void gl_safe_dir_entry_fn(const struct gl_safe_dir *d, const char *name, void *arg);
int gl_safe_dir_each(const struct gl_safe_dir *d, gl_safe_dir_entry_fn *fn, void *arg, struct gl_err *err);

/* Remove entry `name` of d and, when it is a directory, everything in it (links are removed, not followed). */
void gl_safe_dir_remove_tree(const struct gl_safe_dir *d, const char *name);
/* Remove the temporary entries of d older than max_age seconds (left by a process that was killed). */
void gl_safe_dir_clean_stale(const struct gl_safe_dir *d, double max_age);

/* A private temporary directory in $TMPDIR (else /tmp), checked like the others: for tools that write
 * files of their own.  Remove it with gl_safe_dir_remove_temp. */
int gl_safe_dir_temp(struct gl_safe_dir *d, const char *prefix, struct gl_err *err);
void gl_safe_dir_remove_temp(struct gl_safe_dir *d);

#endif
