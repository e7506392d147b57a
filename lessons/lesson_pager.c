/* lesson_pager.c — paged text, as git pages: on a terminal through $PAGER, else `less -R` (LESS=FRX when
 * LESS is unset: a page that fits the screen is printed and less quits); straight to stdout for pipes,
 * files and tests, and when there is no less. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lessons/lesson.h"

/* Is `prog` an executable in $PATH? */
static bool in_path(const char *prog)
{
	const char *path = getenv("PATH");
	char dir[1024];
	for (const char *p = path ? path : ""; *p; p += strcspn(p, ":"), p += *p == ':') {
		size_t len = strcspn(p, ":");
		snprintf(dir, sizeof dir, "%.*s/%s", (int)len, p, prog);
		if (len && access(dir, X_OK) == 0)
			return true;
	}
	return false;
}

FILE *lesson_pager_open(bool *paged)
{
	*paged = false;
	const char *pager = getenv("PAGER");
	if (!isatty(STDOUT_FILENO))
		return stdout;
	if (!pager || !*pager) {
		if (!in_path("less"))
			return stdout;
		pager = "less -R";
		setenv("LESS", "FRX", 0);
	}
	fflush(stdout);
	FILE *p = popen(pager, "w");
	if (!p)
		return stdout;
	signal(SIGPIPE, SIG_IGN); /* quitting the pager early must not kill gpulab */
	*paged = true;
	return p;
}

void lesson_pager_close(FILE *out, bool paged)
{
	if (!paged) {
		fflush(out);
		return;
	}
	pclose(out);
	signal(SIGPIPE, SIG_DFL);
}
