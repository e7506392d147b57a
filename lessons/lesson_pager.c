/* lesson_pager.c — paged text: through $PAGER when stdout is a terminal and PAGER is set, else straight
 * to stdout (pipes, files, tests). */
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include "lessons/lesson.h"

FILE *lesson_pager_open(bool *paged)
{
	*paged = false;
	const char *pager = getenv("PAGER");
	if (!pager || !*pager || !isatty(STDOUT_FILENO))
		return stdout;
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
