/* exercise_expr.c — the integer expressions of an exercise's front matter (buffer sizes, grid, block,
 * scalar values) over its size variables: + - * / % with C's precedence, parentheses, unary minus,
 * cdiv(a, b) (rounding up), min and max.  Division by zero and overflow are errors, not undefined. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "lessons/exercise.h"

struct xp {
	const char *s, *text;
	const struct exercise *e;
	const struct ex_size *size;
	struct gl_err *err;
};

static int bad(struct xp *p, const char *what)
{
	return gl_errf(p->err, GL_EUSAGE, "%s: expression '%s': %s at '%s'", p->e->path, p->text, what,
		       *p->s ? p->s : "the end");
}

static void skip(struct xp *p)
{
	while (isspace((unsigned char)*p->s))
		p->s++;
}

static int expr(struct xp *p, long *v);

static int arith(struct xp *p, char op, long a, long b, long *v)
{
	long r;
	switch (op) {
	case '+': if (__builtin_add_overflow(a, b, &r)) return bad(p, "overflow"); break;
	case '-': if (__builtin_sub_overflow(a, b, &r)) return bad(p, "overflow"); break;
	case '*': if (__builtin_mul_overflow(a, b, &r)) return bad(p, "overflow"); break;
	default:
		if (b == 0)
			return bad(p, "division by zero");
		r = op == '/' ? a / b : a % b;
	}
	*v = r;
	return GL_OK;
}

/* cdiv(a, b), min(a, b), max(a, b) */
static int call(struct xp *p, const char *name, long *v)
{
	long a, b;
	int rc;
	skip(p);
	if (*p->s != '(')
		return bad(p, "expected '(' after a function name");
	p->s++;
	if ((rc = expr(p, &a)))
		return rc;
	skip(p);
	if (*p->s != ',')
		return bad(p, "expected ','");
	p->s++;
	if ((rc = expr(p, &b)))
		return rc;
	skip(p);
	if (*p->s != ')')
		return bad(p, "expected ')'");
	p->s++;
	if (strcmp(name, "min") == 0)
		*v = a < b ? a : b;
	else if (strcmp(name, "max") == 0)
		*v = a > b ? a : b;
	else if (b <= 0 || a < 0)
		return bad(p, "cdiv needs a >= 0 and b > 0");
	else
		*v = a / b + (a % b != 0);
	return GL_OK;
}

static int factor(struct xp *p, long *v)
{
	skip(p);
	const char *s = p->s;
	if (*s == '(') {
		p->s++;
		int rc = expr(p, v);
		skip(p);
		if (rc == GL_OK && *p->s != ')')
			return bad(p, "expected ')'");
		p->s += rc == GL_OK;
		return rc;
	}
	if (*s == '-') {
		p->s++;
		int rc = factor(p, v);
		*v = -*v;
		return rc;
	}
	if (isdigit((unsigned char)*s)) {
		*v = 0;
		while (isdigit((unsigned char)*p->s))
			if (arith(p, '*', *v, 10, v) || arith(p, '+', *v, *p->s++ - '0', v))
				return p->err->status;
		return GL_OK;
	}
	char word[32];
	size_t n = 0;
	while ((isalnum((unsigned char)s[n]) || s[n] == '_') && n + 1 < sizeof word)
		n++;
	if (n == 0)
		return bad(p, "expected a number, a size variable or '('");
	snprintf(word, sizeof word, "%.*s", (int)n, s);
	p->s += n;
	if (!strcmp(word, "cdiv") || !strcmp(word, "min") || !strcmp(word, "max"))
		return call(p, word, v);
	for (int i = 0; i < p->e->nvars; i++)
		if (strcmp(p->e->vars[i], word) == 0) {
			*v = p->size->v[i];
			return GL_OK;
		}
	p->s = s;
	return bad(p, "unknown size variable");
}

static int term(struct xp *p, long *v)
{
	int rc = factor(p, v);
	for (skip(p); rc == GL_OK && (*p->s == '*' || *p->s == '/' || *p->s == '%'); skip(p)) {
		char op = *p->s++;
		long b;
		if ((rc = factor(p, &b)) == GL_OK)
			rc = arith(p, op, *v, b, v);
	}
	return rc;
}

static int expr(struct xp *p, long *v)
{
	int rc = term(p, v);
	for (skip(p); rc == GL_OK && (*p->s == '+' || *p->s == '-'); skip(p)) {
		char op = *p->s++;
		long b;
		if ((rc = term(p, &b)) == GL_OK)
			rc = arith(p, op, *v, b, v);
	}
	return rc;
}

int exercise_expr_eval(const char *text, const struct exercise *e, const struct ex_size *s, long *out,
		       struct gl_err *err)
{
	struct xp p = {.s = text, .text = text, .e = e, .size = s, .err = err};
	int rc = expr(&p, out);
	skip(&p);
	if (rc == GL_OK && *p.s)
		return bad(&p, "unexpected text");
	return rc;
}
