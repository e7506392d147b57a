/* spool.h — the hand-off of kernel launches from a profiled program to `gpulab profile`: the one way a
 * launch measured inside another process (gpulab's driver library on the simulator, the CUPTI injection
 * library on a GPU) reaches the store, which only the parent's session writes.
 *
 *	parent:  gl_spool_create(dir)          a private directory (0700, mkdtemp), named to the child in
 *	                                       $GPULAB_PROFILE_SPOOL
 *	child:   gl_spool_write(dir, &launch)  once per selected launch, as it completes: one file, written
 *	                                       whole under a temporary name (O_CREAT|O_EXCL|O_NOFOLLOW) and
 *	                                       renamed to "launch-<seq>" (so a reader never sees half of one)
 *	parent:  gl_spool_load(dir, &set)      after the child exited, however it exited: every complete
 *	                                       launch, in launch order; gl_spool_remove(dir)
 *
 * Every step goes through common/safe_dir.h: the directory must be this user's, not a link and not
 * writable by group or others (else GL_EENV, naming it); a launch file is read only when it is a regular
 * file of this user's that no one else may write, of at most GL_SPOOL_MAX_FILE bytes.
 *
 * What the parent loads is untrusted input (another process wrote it): each file is checked as the store
 * checks the rows it loads (sizes, counts, geometry, enum values, terminated strings, finite numbers);
 * a file that fails is skipped and named in set.rejected, never stored.  The format is versioned
 * (GL_SPOOL_VERSION) and private to one gpulab build: writer and loader are this file's functions. */
#ifndef GL_SPOOL_H
#define GL_SPOOL_H

#include <stdbool.h>
#include <stddef.h>

#include "common/err.h"
#include "common/record.h"

#define GL_SPOOL_ENV "GPULAB_PROFILE_SPOOL"
#define GL_SPOOL_VERSION 1
#define GL_SPOOL_MAX_FILE (256u << 20) /* a launch file larger than this is refused unread */

/* One kernel launch of the program: the record the store keeps (common/record.h: topic "program",
 * variant the kernel's function name, geometry, resources, counts, findings, trace) and what only the
 * program's side knows. */
struct gl_spool_launch {
	long seq;                  /* 1 for the program's first kernel launch (selected or not) */
	char kernel[512];          /* the demangled C++ name ("void scale<float>(float*, int)"), else the entry */
	char gpu[32];              /* the GPU model it ran on ("H100") */
	unsigned long long stream; /* the stream's id (0: the default stream) */
	double estimate_us;        /* the model's time for it (NAN unknown) */
	int error;                 /* the CUDA error the launch raised for the program (CUresult; 0 none) */
	struct gl_launch_record rec;
};

/* What gl_spool_load found. */
struct gl_spool_set {
	struct gl_spool_launch *launches; /* in seq order */
	size_t n;
	int rejected;                     /* files that failed the checks (not loaded) */
	char first_rejected[512];         /* the first one's name and why */
};

/* Make a private spool directory under $TMPDIR (else /tmp): `dir` receives its path. */
int gl_spool_create(char *dir, size_t n, struct gl_err *err);
/* Write one launch into `dir` whole (see above).  GL_EENV with a message on any failure; the spool is left
 * as it was. */
int gl_spool_write(const char *dir, const struct gl_spool_launch *l, struct gl_err *err);
/* Load every complete launch file of `dir`; a file refused or not decoded is counted in set->rejected.
 * GL_EENV when the directory is refused or cannot be read. */
int gl_spool_load(const char *dir, struct gl_spool_set *set, struct gl_err *err);
/* Check one file's bytes and decode them into *out (for gl_spool_load and the tests): GL_EUSAGE with the
 * reason when they are not a launch this build wrote. */
int gl_spool_decode(const unsigned char *buf, size_t n, struct gl_spool_launch *out, struct gl_err *err);
void gl_spool_launch_free(struct gl_spool_launch *l);
void gl_spool_set_free(struct gl_spool_set *set);
/* Remove the launch files and a write's leftover temporary files, then the directory when nothing else is
 * in it (a --spool DIR of the user's keeps what else it holds). */
void gl_spool_remove(const char *dir);

#endif
