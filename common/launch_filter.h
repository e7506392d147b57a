/* launch_filter.h — which kernel launches of a program get profiled, as Nsight Compute selects them:
 * --kernel-name NAME (the kernel's function name -- without return type, template arguments and
 * parameters -- with or without its namespaces, or its mangled symbol) or regex:EXPR (a POSIX extended
 * regular expression found anywhere in the function name), --launch-skip N (matching launches passed over first) and
 * --launch-count N (matching launches profiled at most).  Launches not selected still run.  Both of
 * gpulab's ways of profiling a program use it: the simulator's driver library and the CUPTI injection
 * library on a GPU. */
#ifndef GL_LAUNCH_FILTER_H
#define GL_LAUNCH_FILTER_H

#include <regex.h>
#include <stdbool.h>

#include "common/err.h"

struct gl_launch_filter {
	char *name;      /* the exact name, or NULL (regex or no name filter) */
	regex_t re;      /* with is_regex */
	bool is_regex;
	long skip;       /* matching launches to pass over before the first profiled one */
	long count;      /* matching launches to profile at most; -1: no limit */
	long matched;    /* matching launches seen so far */
	long taken;      /* launches selected so far */
};

/* `kernel_name` NULL or "" selects every kernel; "regex:" starts a regular expression.  `count` < 0
 * means no limit.  GL_EUSAGE for a regular expression that does not compile or a negative skip. */
int gl_launch_filter_init(struct gl_launch_filter *f, const char *kernel_name, long skip, long count,
			  struct gl_err *err);
/* Is this launch of kernel `name` (its function name, e.g. "lab::scale") with mangled `symbol` (or NULL)
 * selected?  Call once per launch, in launch order. */
bool gl_launch_filter_take(struct gl_launch_filter *f, const char *name, const char *symbol);
/* Has --launch-count been reached (nothing later can be selected)? */
bool gl_launch_filter_done(const struct gl_launch_filter *f);
void gl_launch_filter_free(struct gl_launch_filter *f);

#endif
