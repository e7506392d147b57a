/* lesson_render.c — a step as plain terminal text: the Markdown lightly undressed (** and
 * blockquote markers dropped, fences indented), gpulab commands shown as "$ gpulab ...", checks listed,
 * the question shown and its <details> answer hidden unless asked for. */
#include <string.h>

#include "lessons/lesson.h"
#include "lessons/lesson_int.h"

struct rstate {
	FILE *out;
	const struct lesson_render_opts *o;
	struct lesson_fence fence;
	bool details, blank;
};

/* Print text without Markdown's ** emphasis. */
static void put_text(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (s[0] == '*' && s[1] == '*') {
			s++;
			continue;
		}
		fputc(*s, out);
	}
	fputc('\n', out);
}

static void put_line(struct rstate *r, const char *indent, const char *text)
{
	bool blank = !*text;
	if (blank && r->blank)
		return; /* one blank line at a time */
	r->blank = blank;
	if (!blank)
		fputs(indent, r->out);
	put_text(r->out, text);
}

static void heading(FILE *out, const char *text, char underline, bool color)
{
	fprintf(out, color ? "\033[1m%s\033[0m\n" : "%s\n", text);
	for (size_t i = 0; i < strlen(text); i++)
		fputc(underline, out);
	fputc('\n', out);
}

static void fence_content(struct rstate *r, const char *line)
{
	if (r->fence.gpulab)
		put_line(r, *line ? "    $ " : "", line);
	else
		put_line(r, "    ", line);
}

/* <details><summary>Answer</summary> ... </details>: hidden, or shown under "Answer:". */
static void details(struct rstate *r, const char *line)
{
	const char *p = line;
	while (*p == ' ')
		p++;
	if (strncmp(p, "<details", 8) == 0) {
		r->details = true;
		if (r->o->answer) {
			put_line(r, "", "Answer:");
			r->blank = true; /* no blank line right under the label */
		}
		else
			put_line(r, "  ", "(the answer: gpulab lesson show --answer)");
		return;
	}
	if (strstr(p, "</details>")) {
		r->details = false;
		return;
	}
	if (r->o->answer && strncmp(p, "<summary>", 9) != 0)
		put_line(r, "  ", line);
}

static void body_line(struct rstate *r, const char *line)
{
	if (lesson_fence_feed(&r->fence, line)) {
		put_line(r, "", "");
		return;
	}
	if (r->fence.open) {
		if (!r->details || r->o->answer)
			fence_content(r, line);
		return;
	}
	if (r->details || strstr(line, "<details") || strstr(line, "</details>")) {
		details(r, line);
		return;
	}
	if (strncmp(line, "check:", 6) == 0)
		put_line(r, "  ", line);
	else if (strncmp(line, "> ", 2) == 0 || strcmp(line, ">") == 0)
		put_line(r, "", line[1] ? line + 2 : "");
	else if (line[0] == '#')
		put_line(r, "", line + strspn(line, "#") + (line[strspn(line, "#")] == ' '));
	else
		put_line(r, "", line);
}

static void body(FILE *out, const struct lesson *l, int first, int last, const struct lesson_render_opts *o)
{
	struct rstate r = {.out = out, .o = o, .blank = true};
	while (first < last && !l->lines[first][0])
		first++;
	while (last > first && !l->lines[last - 1][0])
		last--;
	for (int i = first; i < last; i++)
		body_line(&r, l->lines[i]);
}

void lesson_render_intro(FILE *out, const struct lesson *l, const struct lesson_render_opts *o)
{
	heading(out, l->title, '=', o->color);
	fputc('\n', out);
	body(out, l, l->intro_first, l->intro_last, o);
	fputc('\n', out);
}

void lesson_render_step(FILE *out, const struct lesson *l, int step, const struct lesson_render_opts *o)
{
	const struct lesson_step *st = &l->steps[step - 1];
	char title[512];
	snprintf(title, sizeof title, "Step %d of %d: %s", st->number, l->nsteps, st->title);
	fprintf(out, "%s\n", l->name);
	heading(out, title, '-', o->color);
	fputc('\n', out);
	body(out, l, st->first, st->last, o);
	fputc('\n', out);
}
