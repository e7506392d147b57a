/* launch_filter.c — ncu's launch selection: name or regex, skip, count. */
#include "common/launch_filter.h"

#include <stdlib.h>
#include <string.h>

#include "common/util.h"

#define GL_REGEX_PREFIX "regex:"

int gl_launch_filter_init(struct gl_launch_filter *f, const char *kernel_name, long skip, long count,
			  struct gl_err *err)
{
	memset(f, 0, sizeof *f);
	f->count = count < 0 ? -1 : count;
	if (skip < 0)
		return gl_errf(err, GL_EUSAGE, "--launch-skip %ld: give the number of matching launches to pass over "
			       "(0 or more)", skip);
	f->skip = skip;
	if (!kernel_name || !*kernel_name)
		return GL_OK;
	if (strncmp(kernel_name, GL_REGEX_PREFIX, strlen(GL_REGEX_PREFIX)) != 0) {
		f->name = gl_xstrdup(kernel_name);
		return GL_OK;
	}
	const char *expr = kernel_name + strlen(GL_REGEX_PREFIX);
	int rc = regcomp(&f->re, expr, REG_EXTENDED | REG_NOSUB);
	if (rc != 0) {
		char why[160];
		regerror(rc, &f->re, why, sizeof why);
		regfree(&f->re);
		return gl_errf(err, GL_EUSAGE, "--kernel-name '%s': the regular expression does not compile (%s); "
			       "it is POSIX extended syntax, e.g. regex:'^gemm_.*'", kernel_name, why);
	}
	f->is_regex = true;
	return GL_OK;
}

static bool name_matches(const struct gl_launch_filter *f, const char *name, const char *symbol)
{
	if (f->is_regex)
		return regexec(&f->re, name ? name : "", 0, NULL, 0) == 0;
	if (!f->name)
		return true;
	if (symbol && strcmp(f->name, symbol) == 0)
		return true;
	if (!name)
		return false;
	const char *last = strrchr(name, ':'); /* "lab::scale" is also "scale" */
	return strcmp(f->name, name) == 0 || (last && strcmp(f->name, last + 1) == 0);
}

bool gl_launch_filter_take(struct gl_launch_filter *f, const char *name, const char *symbol)
{
	if (!name_matches(f, name, symbol))
		return false;
	if (f->matched++ < f->skip || gl_launch_filter_done(f))
		return false;
	f->taken++;
	return true;
}

bool gl_launch_filter_done(const struct gl_launch_filter *f)
{
	return f->count >= 0 && f->taken >= f->count;
}

void gl_launch_filter_free(struct gl_launch_filter *f)
{
	if (f->is_regex)
		regfree(&f->re);
	free(f->name);
	memset(f, 0, sizeof *f);
}
