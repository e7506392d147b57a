/* lesson_words.c — splitting a lesson's command line into words, as a shell would for simple quoting
 * (no variables, globs or pipes: the words go straight to gpulab). */
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "lessons/lesson.h"

static void push(char ***argv, int *argc, struct gl_str *w)
{
	*argv = gl_xrealloc(*argv, (size_t)(*argc + 2) * sizeof **argv);
	(*argv)[(*argc)++] = w->buf ? w->buf : gl_xstrdup("");
	(*argv)[*argc] = NULL;
	memset(w, 0, sizeof *w);
}

bool lesson_split_words(const char *line, char ***argv, int *argc, char *why, size_t why_n)
{
	struct gl_str w = {0};
	bool in_word = false;
	char quote = 0;
	*argv = gl_xcalloc(1, sizeof **argv);
	*argc = 0;
	for (const char *p = line; *p; p++) {
		char c = *p;
		if (quote) {
			if (c == quote)
				quote = 0;
			else if (c == '\\' && quote == '"' && (p[1] == '"' || p[1] == '\\'))
				gl_str_addf(&w, "%c", *++p);
			else
				gl_str_addf(&w, "%c", c);
		} else if (c == '\'' || c == '"') {
			quote = c;
			in_word = true;
			if (!w.buf)
				gl_str_add(&w, "");
		} else if (c == '\\' && p[1]) {
			gl_str_addf(&w, "%c", *++p);
			in_word = true;
		} else if (c == ' ' || c == '\t') {
			if (in_word)
				push(argv, argc, &w);
			in_word = false;
		} else {
			gl_str_addf(&w, "%c", c);
			in_word = true;
		}
	}
	if (quote) {
		snprintf(why, why_n, "unterminated %c quote", quote);
		gl_str_free(&w);
		lesson_words_free(*argv);
		*argv = NULL;
		*argc = 0;
		return false;
	}
	if (in_word)
		push(argv, argc, &w);
	return true;
}

void lesson_words_free(char **argv)
{
	for (char **a = argv; a && *a; a++)
		free(*a);
	free(argv);
}
