/* err.c — the error channel. */
#include "err.h"

#include <stdarg.h>
#include <stdio.h>

int gl_errf(struct gl_err *err, int status, const char *fmt, ...)
{
	if (!err)
		return status;
	if (err->status != GL_OK)
		return err->status; /* keep the first, most specific message */
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	va_end(ap);
	err->status = status;
	return status;
}

void gl_err_clear(struct gl_err *err)
{
	err->status = GL_OK;
	err->msg[0] = '\0';
}
