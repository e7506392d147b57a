/* lesson_parse.c — a lesson's Markdown into steps: `# Title`, an introduction, `## Step N: title`
 * headings, ```gpulab fences (the commands), `check:` lines, `> **Question:**` and a
 * <details><summary>Answer</summary> ... </details> block.  Anything malformed is refused with path:line. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "lessons/lesson.h"
#include "lessons/lesson_int.h"

struct pstate {
	struct lesson *l;
	struct gl_err *err;
	struct lesson_step *step; /* the step being read, NULL in the introduction */
	struct lesson_fence fence;
	int fence_line;           /* line of the open ``` (1-based), 0 when none */
	int details_line;         /* line of the open <details>, 0 when none */
};

static int bad(struct pstate *s, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int bad(struct pstate *s, int line, const char *fmt, ...)
{
	char msg[768];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return gl_errf(s->err, GL_EUSAGE, "%s:%d: %s", s->l->path, line, msg);
}

static void split_lines(struct lesson *l, const char *text)
{
	int cap = 64;
	l->lines = gl_xmalloc((size_t)cap * sizeof *l->lines);
	const char *p = text;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		if (n && p[n - 1] == '\r')
			n--;
		if (l->nlines == cap)
			l->lines = gl_xrealloc(l->lines, (size_t)(cap *= 2) * sizeof *l->lines);
		char *line = gl_xmalloc(n + 1);
		memcpy(line, p, n);
		line[n] = '\0';
		l->lines[l->nlines++] = line;
		p = nl ? nl + 1 : p + n;
	}
}

static const char *skip_space(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

bool lesson_fence_feed(struct lesson_fence *f, const char *line)
{
	const char *p = line;
	for (int i = 0; i < 3 && *p == ' '; i++)
		p++;
	char ch = *p;
	int len = 0;
	while (p[len] == ch && (ch == '`' || ch == '~'))
		len++;
	if (len < 3)
		return false;
	const char *info = skip_space(p + len);
	if (f->open) {
		if (ch != f->ch || len < f->len || *info)
			return false; /* content of the open block */
		memset(f, 0, sizeof *f);
		return true;
	}
	f->open = true;
	f->ch = ch;
	f->len = len;
	f->gpulab = strncmp(info, "gpulab", 6) == 0 && !*skip_space(info + 6);
	return true;
}

bool lesson_is_step_heading(const char *line)
{
	return strncmp(line, "## Step", 7) == 0 && (line[7] == '\0' || !isalpha((unsigned char)line[7]));
}

/* `## Step N: title` */
static int begin_step(struct pstate *s, int i)
{
	struct lesson *l = s->l;
	const char *p = skip_space(l->lines[i] + 7);
	char *end;
	long n = strtol(p, &end, 10);
	if (end == p)
		return bad(s, i + 1, "a step heading is '## Step N: title' (found '%s')", l->lines[i]);
	p = skip_space(end);
	if (*p != ':' || !*skip_space(p + 1))
		return bad(s, i + 1, "step %ld has no title: write '## Step %ld: what the learner does'", n, n);
	if (n != l->nsteps + 1)
		return bad(s, i + 1, "step %ld is out of order: expected step %d", n, l->nsteps + 1);
	if (s->step)
		s->step->last = i;
	else
		l->intro_last = i;
	l->steps = gl_xrealloc(l->steps, (size_t)(l->nsteps + 1) * sizeof *l->steps);
	s->step = &l->steps[l->nsteps++];
	memset(s->step, 0, sizeof *s->step);
	s->step->number = (int)n;
	s->step->line = i + 1;
	s->step->title = gl_xstrdup(skip_space(p + 1));
	s->step->first = i + 1;
	return GL_OK;
}

static int add_command(struct pstate *s, int i)
{
	const char *text = skip_space(s->l->lines[i]);
	if (!*text || *text == '#') /* blank lines and comments in a gpulab block */
		return GL_OK;
	if (!s->step)
		return bad(s, i + 1, "a ```gpulab block belongs inside a step ('## Step N: title')");
	if (s->details_line) /* commands in an answer are shown, not run */
		return GL_OK;
	struct lesson_cmd c = {.line = i + 1};
	int rc = lesson_cmd_parse(text, s->l->path, i + 1, &c, s->err);
	if (rc)
		return rc;
	struct lesson_step *st = s->step;
	st->cmds = gl_xrealloc(st->cmds, (size_t)(st->ncmds + 1) * sizeof *st->cmds);
	st->cmds[st->ncmds++] = c;
	return GL_OK;
}

static int add_check(struct pstate *s, int i)
{
	if (!s->step)
		return bad(s, i + 1, "a check: line belongs inside a step ('## Step N: title')");
	struct lesson_check c;
	int rc = lesson_check_parse(s->l->lines[i] + 6, s->l->path, i + 1, &c, s->err);
	if (rc)
		return rc;
	struct lesson_step *st = s->step;
	st->checks = gl_xrealloc(st->checks, (size_t)(st->nchecks + 1) * sizeof *st->checks);
	st->checks[st->nchecks++] = c;
	return GL_OK;
}

static int details_line(struct pstate *s, int i)
{
	const char *p = skip_space(s->l->lines[i]);
	if (strncmp(p, "<details", 8) == 0) {
		if (s->details_line)
			return bad(s, i + 1, "<details> inside <details> (opened at line %d)", s->details_line);
		if (!s->step)
			return bad(s, i + 1, "an answer (<details>) belongs inside a step");
		s->details_line = i + 1;
		s->step->has_answer = true;
	}
	if (strstr(p, "</details>")) {
		if (!s->details_line)
			return bad(s, i + 1, "</details> without <details>");
		s->details_line = 0;
	}
	return GL_OK;
}

static int parse_line(struct pstate *s, int i)
{
	const char *line = s->l->lines[i];
	if (lesson_fence_feed(&s->fence, line)) {
		s->fence_line = s->fence.open ? i + 1 : 0;
		return GL_OK;
	}
	if (s->fence.open)
		return s->fence.gpulab ? add_command(s, i) : GL_OK;
	if (lesson_is_step_heading(line)) {
		if (s->details_line)
			return bad(s, s->details_line, "<details> is not closed before the next step (add </details>)");
		return begin_step(s, i);
	}
	if (strncmp(line, "check:", 6) == 0 && !s->details_line)
		return add_check(s, i);
	if (strncmp(line, "> **Question:**", 15) == 0 && s->step)
		s->step->has_question = true;
	return details_line(s, i);
}

static int parse_title(struct pstate *s, int *i)
{
	struct lesson *l = s->l;
	while (*i < l->nlines && !*skip_space(l->lines[*i]))
		(*i)++;
	if (*i >= l->nlines || strncmp(l->lines[*i], "# ", 2) != 0 || !*skip_space(l->lines[*i] + 2))
		return bad(s, *i < l->nlines ? *i + 1 : 1, "a lesson starts with its title: '# Title'");
	l->title = gl_xstrdup(skip_space(l->lines[*i] + 2));
	l->intro_first = ++(*i);
	l->intro_last = l->nlines;
	return GL_OK;
}

static int parse_all(struct pstate *s)
{
	int i = 0;
	int rc = parse_title(s, &i);
	for (; rc == GL_OK && i < s->l->nlines; i++)
		rc = parse_line(s, i);
	if (rc)
		return rc;
	if (s->fence_line)
		return bad(s, s->fence_line, "unterminated ``` fence (no closing ``` before the end of the file)");
	if (s->details_line)
		return bad(s, s->details_line, "unterminated <details> (no </details> before the end of the file)");
	if (!s->l->nsteps)
		return bad(s, s->l->nlines ? s->l->nlines : 1, "no steps: a lesson has '## Step 1: title' and more");
	s->step->last = s->l->nlines;
	return GL_OK;
}

int lesson_parse(const char *name, const char *path, const char *text, struct lesson *out, struct gl_err *err)
{
	memset(out, 0, sizeof *out);
	snprintf(out->name, sizeof out->name, "%s", name);
	snprintf(out->path, sizeof out->path, "%s", path);
	split_lines(out, text);
	struct pstate s = {.l = out, .err = err};
	int rc = parse_all(&s);
	if (rc)
		lesson_free(out);
	return rc;
}

void lesson_free(struct lesson *l)
{
	for (int i = 0; i < l->nsteps; i++) {
		struct lesson_step *st = &l->steps[i];
		for (int k = 0; k < st->ncmds; k++)
			lesson_cmd_free(&st->cmds[k]);
		for (int k = 0; k < st->nchecks; k++)
			lesson_check_free(&st->checks[k]);
		free(st->cmds);
		free(st->checks);
		free(st->title);
	}
	for (int i = 0; i < l->nlines; i++)
		free(l->lines[i]);
	free(l->lines);
	free(l->steps);
	free(l->title);
	memset(l, 0, sizeof *l);
}
