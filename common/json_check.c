/* json_check.c — is a text one well-formed JSON value (RFC 8259)?  For JSON that was stored and is read
 * back (a launch's parameters), which printers copy into --json output as it is: a value that is not
 * well-formed JSON would break that output, so it is refused where it is loaded. */
#include <stdbool.h>
#include <string.h>

#include "json.h"

#define MAX_DEPTH 32

struct cursor {
	const char *p;
	int depth;
};

static void skip_ws(struct cursor *c)
{
	while (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r')
		c->p++;
}

static bool is_digit(char ch)
{
	return ch >= '0' && ch <= '9';
}

static bool is_hex(char ch)
{
	return is_digit(ch) || (ch >= 'a' && ch <= 'f') || (ch >= 'A' && ch <= 'F');
}

static bool string(struct cursor *c)
{
	if (*c->p != '"')
		return false;
	for (c->p++; *c->p != '"'; c->p++) {
		unsigned char ch = (unsigned char)*c->p;
		if (ch < 0x20) /* control characters (and the end of the text) must be escaped */
			return false;
		if (ch != '\\')
			continue;
		c->p++;
		if (*c->p == 'u') {
			for (int i = 1; i <= 4; i++)
				if (!is_hex(c->p[i]))
					return false;
			c->p += 4;
		} else if (!strchr("\"\\/bfnrt", *c->p) || !*c->p) {
			return false;
		}
	}
	c->p++;
	return true;
}

static bool number(struct cursor *c)
{
	if (*c->p == '-')
		c->p++;
	if (*c->p == '0')
		c->p++;
	else if (is_digit(*c->p))
		while (is_digit(*c->p))
			c->p++;
	else
		return false;
	if (*c->p == '.') {
		if (!is_digit(*++c->p))
			return false;
		while (is_digit(*c->p))
			c->p++;
	}
	if (*c->p == 'e' || *c->p == 'E') {
		c->p++;
		if (*c->p == '+' || *c->p == '-')
			c->p++;
		if (!is_digit(*c->p))
			return false;
		while (is_digit(*c->p))
			c->p++;
	}
	return true;
}

static bool value(struct cursor *c);

/* An object or an array: its members separated by commas, up to `close`. */
static bool members(struct cursor *c, char close, bool keyed)
{
	if (++c->depth > MAX_DEPTH)
		return false;
	c->p++;
	skip_ws(c);
	if (*c->p == close) {
		c->p++;
		c->depth--;
		return true;
	}
	for (;;) {
		skip_ws(c);
		if (keyed) {
			if (!string(c))
				return false;
			skip_ws(c);
			if (*c->p++ != ':')
				return false;
		}
		if (!value(c))
			return false;
		skip_ws(c);
		if (*c->p == ',') {
			c->p++;
			continue;
		}
		if (*c->p++ != close)
			return false;
		c->depth--;
		return true;
	}
}

static bool value(struct cursor *c)
{
	skip_ws(c);
	switch (*c->p) {
	case '{': return members(c, '}', true);
	case '[': return members(c, ']', false);
	case '"': return string(c);
	case 't': return strncmp(c->p, "true", 4) == 0 ? (c->p += 4, true) : false;
	case 'f': return strncmp(c->p, "false", 5) == 0 ? (c->p += 5, true) : false;
	case 'n': return strncmp(c->p, "null", 4) == 0 ? (c->p += 4, true) : false;
	default: return number(c);
	}
}

bool gl_json_valid_object(const char *text)
{
	struct cursor c = {text, 0};
	if (!text)
		return false;
	skip_ws(&c);
	if (*c.p != '{' || !value(&c))
		return false;
	skip_ws(&c);
	return *c.p == '\0';
}
