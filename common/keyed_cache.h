/* keyed_cache.h — one text per key, kept across processes in a folder of gpulab's cache
 * ($XDG_CACHE_HOME/gpulab/FOLDER, else ~/.cache/gpulab/FOLDER).  The caller makes the key: a SHA-256 (hex)
 * of everything the text depends on (the input bytes, each tool's path and `--version` text, the target,
 * the flags).  An entry KEY.SUFFIX holds one header line, "MAGIC KEY LENGTH SHA256", then the text.
 *
 * The folder and its files go through common/safe_dir.h like every cache of gpulab's (ours and private,
 * our regular files read without following links, new files made O_CREAT|O_EXCL|O_NOFOLLOW and renamed
 * in), and an entry is used only when its header has this magic and key and the bytes that follow have that
 * length and checksum and no NUL; anything else is a miss and the caller runs its tools again.  No usable
 * folder only means the tools run every time.  Users: the SASS text of `gpulab sim` (toolchain) and the
 * driver library's `ptxas -v` reports (driver/driver_ptxas.c). */
#ifndef GL_KEYED_CACHE_H
#define GL_KEYED_CACHE_H

#include <stdbool.h>

struct gl_keyed_cache {
	const char *folder; /* gl_cache_dir's sub-folder: "sass", "ptxas" */
	const char *suffix; /* of an entry's file name: "sass" -> KEY.sass */
	const char *magic;  /* the header's first two words: "gpulab-sass 1" */
	const char *what;   /* for messages: "SASS cache" */
};

/* The text stored under key (64 hex digits), malloc'd, or NULL on a miss; with verbose, a line on stderr
 * says hit, or why an entry was ignored. */
char *gl_keyed_cache_load(const struct gl_keyed_cache *c, const char *key, bool verbose);
/* Store text (non-empty, at most 256 MiB) under key; failure only means a later miss (said with verbose). */
void gl_keyed_cache_store(const struct gl_keyed_cache *c, const char *key, const char *text, bool verbose);

#endif
