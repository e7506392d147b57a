/* lesson_render.c — a step as plain terminal text: the Markdown lightly undressed (** and
 * blockquote markers dropped, fences indented), prose reflowed to the terminal's width (never breaking a
 * word), gpulab commands shown as "$ gpulab ...", checks listed, the question shown and its <details>
 * answer hidden unless asked for. */
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

#include "lessons/lesson.h"
#include "lessons/lesson_int.h"

struct rstate {
	FILE *out;
	const struct lesson_render_opts *o;
	struct lesson_fence fence;
	bool details, blank;
	struct gl_str para;    /* prose lines of the current paragraph, joined by spaces */
	const char *para_indent;
	/* a list item being reflowed: its marker ("- ", "  1. ") starts the first line, `item_hang` spaces
	 * the others; item_hang is 0 outside a list item */
	char item_marker[24], item_spaces[24];
	size_t item_hang;
};

int lesson_term_width(void)
{
	return gl_term_width();
}

/* Columns of n bytes of UTF-8: continuation bytes take none. */
static int columns_of(const char *p, size_t n)
{
	int cols = 0;
	for (size_t i = 0; i < n; i++)
		cols += ((unsigned char)p[i] & 0xC0) != 0x80;
	return cols;
}

void lesson_wrap(FILE *out, const char *indent, const char *text, int width)
{
	lesson_wrap_hanging(out, indent, indent, text, width);
}

/* Words of `text` in lines of at most `width` columns, the first after `first`, the others after `rest`
 * (as wide); a word longer than a line gets a line of its own, whole. */
void lesson_wrap_hanging(FILE *out, const char *first, const char *rest, const char *text, int width)
{
	const char *indent = first;
	int room = width - (int)strlen(rest), col = 0;
	if (room < 20)
		room = 20;
	for (const char *p = text; *p;) {
		p += strspn(p, " ");
		size_t len = strcspn(p, " ");
		if (!len)
			break;
		int w = columns_of(p, len);
		if (col && col + 1 + w > room) {
			fputc('\n', out);
			col = 0;
			indent = rest;
		}
		if (!col)
			fputs(indent, out);
		else
			fputc(' ', out);
		fwrite(p, 1, len, out);
		col += (col ? 1 : 0) + w;
		p += len;
	}
	if (col)
		fputc('\n', out);
}

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

/* Without Markdown's ** emphasis, into a string. */
static void add_text(struct gl_str *s, const char *text)
{
	for (; *text; text++) {
		if (text[0] == '*' && text[1] == '*') {
			text++;
			continue;
		}
		gl_str_addf(s, "%c", *text);
	}
}

static void flush_para(struct rstate *r)
{
	if (!r->para.len)
		return;
	int width = r->o->width > 0 ? r->o->width : 80;
	if (r->item_hang)
		lesson_wrap_hanging(r->out, r->item_marker, r->item_spaces, r->para.buf, width);
	else
		lesson_wrap(r->out, r->para_indent, r->para.buf, width);
	r->para.len = 0;
	r->para.buf[0] = '\0';
	r->blank = false;
	r->item_hang = 0;
}

/* The marker of a list item ("- ", "* ", "12. ", after any indentation), its length; 0 for another line. */
static size_t item_marker(const char *line)
{
	size_t n = strspn(line, " ");
	if ((line[n] == '-' || line[n] == '*') && line[n + 1] == ' ')
		return n + 2;
	size_t digits = strspn(line + n, "0123456789");
	if (digits && line[n + digits] == '.' && line[n + digits + 1] == ' ')
		return n + digits + 2;
	return 0;
}

/* A list item's first line starts a paragraph reflowed under its marker; lines indented to its text
 * continue it.  Returns false for a line that is neither. */
static bool list_line(struct rstate *r, const char *line)
{
	size_t marker = item_marker(line), indent = strspn(line, " ");
	if (marker && marker < sizeof r->item_marker) {
		flush_para(r);
		snprintf(r->item_marker, sizeof r->item_marker, "%.*s", (int)marker, line);
		snprintf(r->item_spaces, sizeof r->item_spaces, "%*s", (int)marker, "");
		r->item_hang = marker;
		r->para_indent = "";
		add_text(&r->para, line + marker);
		return true;
	}
	if (r->item_hang && r->para.len && indent == r->item_hang && line[indent]) {
		gl_str_add(&r->para, " ");
		add_text(&r->para, line + indent);
		return true;
	}
	return false;
}

/* A line of prose: it joins the paragraph, printed reflowed when something else comes. */
static void put_prose(struct rstate *r, const char *indent, const char *text)
{
	if (!*text) {
		flush_para(r);
		if (!r->blank)
			fputc('\n', r->out);
		r->blank = true;
		return;
	}
	if (r->para.len && (r->item_hang || strcmp(indent, r->para_indent) != 0))
		flush_para(r); /* a list item ends where prose at the margin begins */
	r->para_indent = indent;
	if (r->para.len)
		gl_str_add(&r->para, " ");
	add_text(&r->para, text);
}

static void put_line(struct rstate *r, const char *indent, const char *text)
{
	flush_para(r);
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
	if (!r->o->answer || strncmp(p, "<summary>", 9) == 0)
		return;
	char shifted[1024]; /* the answer is indented by two: its list items too */
	snprintf(shifted, sizeof shifted, "  %s", line);
	if (list_line(r, shifted))
		return;
	if (line[0] == ' ' || line[0] == '|')
		put_line(r, "  ", line); /* indented text and tables keep their lines */
	else
		put_prose(r, "  ", line); /* prose is reflowed under the answer's indent */
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
	if (list_line(r, line))
		return;
	if (strncmp(line, "check:", 6) == 0)
		put_line(r, "  ", line);
	else if (strncmp(line, "> ", 2) == 0 || strcmp(line, ">") == 0)
		put_prose(r, "", line[1] ? line + 2 : "");
	else if (line[0] == '#')
		put_line(r, "", line + strspn(line, "#") + (line[strspn(line, "#")] == ' '));
	else if (line[0] == '|' || line[0] == ' ')
		put_line(r, "", line); /* tables and indented text keep their lines; a line that starts with a
					* number is prose (a numbered list item is list_line's) */
	else
		put_prose(r, "", line);
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
	flush_para(&r);
	gl_str_free(&r.para);
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
