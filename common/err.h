/* err.h — the one error channel: a status code plus a message naming what was wrong and what to do.
 * Functions that can fail take a `struct gl_err *` and return its status; the CLI prints and exits. */
#ifndef GL_ERR_H
#define GL_ERR_H

#include <stddef.h>

/* Exit codes, as documented in the README. */
enum gl_status {
	GL_OK = 0,
	GL_EVERIFY = 1,   /* kernel failed verification, or the sanitizer found errors */
	GL_EUSAGE = 2,    /* usage or input error */
	GL_EENV = 3,      /* environment: no device, no permission, unwritable database */
	GL_EINTERNAL = 4, /* a bug in gpulab itself */
};

struct gl_err {
	int status;
	char msg[1024];
};

/* Record an error (first one wins) and return its status. */
int gl_errf(struct gl_err *err, int status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void gl_err_clear(struct gl_err *err);

#endif
