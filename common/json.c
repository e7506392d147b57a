/* json.c — streaming JSON writer. */
#include "json.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void gl_json_init(struct gl_json *j, FILE *out)
{
	j->out = out;
	j->depth = 0;
	j->need_comma[0] = false;
}

void gl_json_write_escaped(FILE *out, const char *s)
{
	fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"': fputs("\\\"", out); break;
		case '\\': fputs("\\\\", out); break;
		case '\n': fputs("\\n", out); break;
		case '\r': fputs("\\r", out); break;
		case '\t': fputs("\\t", out); break;
		default:
			if (*p < 0x20)
				fprintf(out, "\\u%04x", *p);
			else
				fputc(*p, out);
		}
	}
	fputc('"', out);
}

static void prefix(struct gl_json *j, const char *key)
{
	if (j->need_comma[j->depth])
		fputc(',', j->out);
	j->need_comma[j->depth] = true;
	if (key) {
		gl_json_write_escaped(j->out, key);
		fputc(':', j->out);
	}
}

static void open_scope(struct gl_json *j, const char *key, char c)
{
	prefix(j, key);
	fputc(c, j->out);
	if (j->depth < 63)
		j->depth++;
	j->need_comma[j->depth] = false;
}

void gl_json_begin_object(struct gl_json *j, const char *key) { open_scope(j, key, '{'); }
void gl_json_begin_array(struct gl_json *j, const char *key) { open_scope(j, key, '['); }

static void close_scope(struct gl_json *j, char c)
{
	if (j->depth > 0)
		j->depth--;
	fputc(c, j->out);
	if (j->depth == 0)
		fputc('\n', j->out);
}

void gl_json_end_object(struct gl_json *j) { close_scope(j, '}'); }
void gl_json_end_array(struct gl_json *j) { close_scope(j, ']'); }

void gl_json_string(struct gl_json *j, const char *key, const char *value)
{
	prefix(j, key);
	if (value)
		gl_json_write_escaped(j->out, value);
	else
		fputs("null", j->out);
}

void gl_json_number(struct gl_json *j, const char *key, double value)
{
	prefix(j, key);
	if (!isfinite(value))
		fputs("null", j->out); /* JSON has no inf/nan */
	else if (value == (double)(long long)value && fabs(value) < 9e15)
		fprintf(j->out, "%lld", (long long)value);
	else
		fprintf(j->out, "%.9g", value);
}

void gl_json_int(struct gl_json *j, const char *key, long long value)
{
	prefix(j, key);
	fprintf(j->out, "%lld", value);
}

void gl_json_bool(struct gl_json *j, const char *key, bool value)
{
	prefix(j, key);
	fputs(value ? "true" : "false", j->out);
}

void gl_json_null(struct gl_json *j, const char *key)
{
	prefix(j, key);
	fputs("null", j->out);
}

void gl_json_raw(struct gl_json *j, const char *key, const char *raw_json)
{
	prefix(j, key);
	fputs(raw_json, j->out);
}

char *gl_json_to_string(void (*write)(struct gl_json *j, const void *arg), const void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return gl_xstrdup("{}");
	struct gl_json j;
	gl_json_init(&j, f);
	write(&j, arg);
	fclose(f);
	return buf;
}

/* The end of the string that starts at p (after its opening quote): the closing quote, or NULL. */
static const char *string_end(const char *p)
{
	for (; *p && *p != '"'; p++)
		if (*p == '\\' && p[1])
			p++;
	return *p ? p : NULL;
}

bool gl_json_flat_get(const char *json, const char *key, char *out, size_t n)
{
	size_t klen = strlen(key);
	int depth = 0;
	for (const char *p = json ? json : ""; *p; p++) {
		if (*p == '{' || *p == '[') {
			depth++;
			continue;
		}
		if (*p == '}' || *p == ']') {
			depth--;
			continue;
		}
		if (*p != '"')
			continue;
		const char *end = string_end(p + 1);
		if (!end)
			return false;
		const char *v = end + 1;
		while (*v == ' ')
			v++;
		bool is_key = *v == ':';
		if (depth != 1 || !is_key || (size_t)(end - p - 1) != klen || strncmp(p + 1, key, klen) != 0) {
			p = end; /* a value, or another key: skip the string whole */
			continue;
		}
		for (v++; *v == ' '; v++)
			;
		if (*v == '{' || *v == '[')
			return false;
		const char *vend = *v == '"' ? string_end(v + 1) : v + strcspn(v, ",}] ");
		if (!vend)
			return false;
		const char *from = *v == '"' ? v + 1 : v;
		snprintf(out, n, "%.*s", (int)(vend - from), from);
		return true;
	}
	return false;
}
