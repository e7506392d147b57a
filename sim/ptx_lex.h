/* ptx_lex.h — PTX tokens with line and column, comments stripped. */
#ifndef GL_PTX_LEX_H
#define GL_PTX_LEX_H

#include <stddef.h>
#include <string.h>

enum ptx_tok_kind { TK_EOF, TK_IDENT, TK_NUMBER, TK_STRING, TK_PUNCT };

struct ptx_token {
	enum ptx_tok_kind kind;
	const char *start; /* into the source text */
	int len;
	int line, col;
};

struct ptx_lexer {
	const char *src, *p;
	int line;
	const char *line_start;
};

void ptx_lex_init(struct ptx_lexer *lx, const char *src);
/* The next token; TK_PUNCT tokens are a single character. */
struct ptx_token ptx_lex_next(struct ptx_lexer *lx);

/* Is the token exactly `text`?  Inline: the parser asks with string literals, whose length the compiler
 * then knows. */
static inline int ptx_tok_is(const struct ptx_token *t, const char *text)
{
	size_t n = strlen(text);
	return (size_t)t->len == n && memcmp(t->start, text, n) == 0;
}

#endif
