/* ptx_lex.c — the PTX tokenizer.  Identifiers keep their dots (`ld.global.f32`, `%tid.x`, `.reg`)
 * because PTX spells opcodes, directives and special registers that way. */
#include "ptx_lex.h"

#include <stdbool.h>
#include <string.h>

void ptx_lex_init(struct ptx_lexer *lx, const char *src)
{
	lx->src = lx->p = lx->line_start = src;
	lx->line = 1;
}

static void newline(struct ptx_lexer *lx)
{
	lx->line++;
	lx->line_start = lx->p + 1;
}

/* Skip spaces and comments; the comment forms are C's. */
static void skip_blank(struct ptx_lexer *lx)
{
	for (;;) {
		char c = *lx->p;
		if (c == '\n') {
			newline(lx);
			lx->p++;
		} else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
			lx->p++;
		} else if (c == '/' && lx->p[1] == '/') {
			while (*lx->p && *lx->p != '\n')
				lx->p++;
		} else if (c == '/' && lx->p[1] == '*') {
			lx->p += 2;
			while (*lx->p && !(*lx->p == '*' && lx->p[1] == '/')) {
				if (*lx->p == '\n')
					newline(lx);
				lx->p++;
			}
			if (*lx->p)
				lx->p += 2;
		} else {
			return;
		}
	}
}

/* PTX is ASCII: these test the byte itself, not the locale's classes (isalnum looks the locale up on
 * every call, and the lexer asks once per character of the module). */
static inline bool ascii_digit(char c)
{
	return (unsigned char)(c - '0') < 10u;
}

static inline bool ascii_alnum(char c)
{
	return ascii_digit(c) || (unsigned char)((c | 0x20) - 'a') < 26u;
}

static inline bool ident_char(char c)
{
	return ascii_alnum(c) || c == '_' || c == '$' || c == '.' || c == '%';
}

struct ptx_token ptx_lex_next(struct ptx_lexer *lx)
{
	skip_blank(lx);
	struct ptx_token t = {.start = lx->p, .line = lx->line, .col = (int)(lx->p - lx->line_start) + 1};
	char c = *lx->p;
	if (!c) {
		t.kind = TK_EOF;
		return t;
	}
	if (c == '"') {
		lx->p++;
		while (*lx->p && *lx->p != '"' && *lx->p != '\n') {
			if (*lx->p == '\\' && lx->p[1] && lx->p[1] != '\n')
				lx->p++;
			lx->p++;
		}
		if (*lx->p == '"')
			lx->p++;
		t.kind = TK_STRING;
	} else if (ascii_digit(c)) {
		/* 123, 0x1F, 0f3F800000, 0d3FF0..., 1.5, 1e-3 */
		while (ascii_alnum(*lx->p) || *lx->p == '.' ||
		       ((*lx->p == '-' || *lx->p == '+') && (lx->p[-1] == 'e' || lx->p[-1] == 'E') &&
			!(t.start[0] == '0' && (t.start[1] == 'x' || t.start[1] == 'X' || t.start[1] == 'f' ||
						t.start[1] == 'F' || t.start[1] == 'd' || t.start[1] == 'D'))))
			lx->p++;
		t.kind = TK_NUMBER;
	} else if (ident_char(c)) {
		/* `.shared::cta`, `.L2::128B`: a `::` between identifier characters belongs to the name */
		while (ident_char(*lx->p) || (lx->p[0] == ':' && lx->p[1] == ':' && ident_char(lx->p[2])))
			lx->p += (*lx->p == ':') ? 2 : 1;
		t.kind = TK_IDENT;
	} else {
		lx->p++;
		t.kind = TK_PUNCT;
	}
	t.len = (int)(lx->p - t.start);
	return t;
}
