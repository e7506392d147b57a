/* lesson_expr.c — the `check:` expression language: parsing into a tree and checking the names it uses.
 *
 *   check   := value CMP value            CMP: == != < <= > >=
 *   value   := term (('+' | '-') term)*
 *   term    := factor (('*' | '/') factor)*
 *   factor  := NUMBER | TOPIC.VARIANT METRIC | '(' value ')' | '-' factor
 *
 * METRIC is a launch_summary column (gst_sectors_per_request), a launches column (regs) or an Nsight
 * Compute metric name (l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "common/metrics.h"
#include "common/util.h"
#include "kernels/registry.h"
#include "lessons/lesson.h"
#include "profiler/profiler.h"
#include "sim/sim.h"
#include "store/store.h"

/* The names a check may read, each from its one list: the store's numeric launch columns, the metrics
 * the simulator stores (sim/sim_metrics.c), the CUPTI metric sets and the values topics derive.  The
 * strings are static. */
static size_t check_names(const char **names, size_t max)
{
	size_t n = 0, ncol = 0;
	const char *const *cols = gl_store_value_columns(&ncol);
	for (size_t i = 0; i < ncol && n < max; i++)
		names[n++] = cols[i];
	for (size_t i = 0; gl_sim_metric_name(i) && n < max; i++)
		names[n++] = gl_sim_metric_name(i);
	for (size_t i = 0; gl_metric_sets_name(i) && n < max; i++)
		names[n++] = gl_metric_sets_name(i);
	for (const struct gl_topic *const *t = gl_topics; *t; t++) /* what topics derive (registry.h) */
		for (const char *const *d = (*t)->derived_names; d && *d && n < max; d++)
			names[n++] = *d;
	return n;
}

bool lesson_metric_known(const char *name, const char **suggestion)
{
	const char *names[384];
	size_t n = check_names(names, GL_ARRAY_LEN(names));
	for (size_t i = 0; i < n; i++)
		if (strcmp(names[i], name) == 0)
			return true;
	if (suggestion)
		*suggestion = gl_suggest(name, names, n);
	return false;
}

const char *lesson_cmp_str(enum lesson_cmp cmp)
{
	static const char *const s[] = {"==", "!=", "<", "<=", ">", ">="};
	return s[cmp];
}

/* ---- tokens */

enum tok_kind { T_END, T_NUM, T_WORD, T_OP, T_CMP, T_LPAREN, T_RPAREN, T_BAD };

struct tok {
	enum tok_kind kind;
	char text[128];
	double num;
	enum lesson_cmp cmp;
};

struct parser {
	const char *s; /* next character */
	struct tok t;  /* current token */
	const char *path;
	int line;
	const char *self; /* one more TOPIC.VARIANT accepted, not in the registry ("exercise.map"), or NULL */
	struct gl_err *err;
};

static bool word_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '.';
}

static bool lex_cmp(struct parser *p)
{
	static const struct {
		const char *s;
		enum lesson_cmp cmp;
	} ops[] = {{"==", LESSON_EQ}, {"!=", LESSON_NE}, {"<=", LESSON_LE},
		   {">=", LESSON_GE}, {"<", LESSON_LT},	 {">", LESSON_GT}};
	for (size_t i = 0; i < GL_ARRAY_LEN(ops); i++) {
		size_t n = strlen(ops[i].s);
		if (strncmp(p->s, ops[i].s, n) == 0) {
			p->t.kind = T_CMP;
			p->t.cmp = ops[i].cmp;
			snprintf(p->t.text, sizeof p->t.text, "%s", ops[i].s);
			p->s += n;
			return true;
		}
	}
	return false;
}

static void lex_word(struct parser *p)
{
	size_t n = 0;
	while (word_char(p->s[n]))
		n++;
	snprintf(p->t.text, sizeof p->t.text, "%.*s", (int)n, p->s);
	p->t.kind = T_WORD;
	if (isdigit((unsigned char)p->s[0]) || p->s[0] == '.') {
		char *end;
		p->t.num = strtod(p->s, &end);
		/* 1e6 and 2.5 are numbers; "1x" is not */
		if (end > p->s && !word_char(*end))
			n = (size_t)(end - p->s), p->t.kind = T_NUM;
		else
			p->t.kind = T_BAD;
	}
	p->s += n;
}

static void next(struct parser *p)
{
	while (isspace((unsigned char)*p->s))
		p->s++;
	memset(&p->t, 0, sizeof p->t);
	char c = *p->s;
	if (!c) {
		p->t.kind = T_END;
		snprintf(p->t.text, sizeof p->t.text, "the end");
	} else if (lex_cmp(p)) {
		return;
	} else if (strchr("+-*/", c)) {
		p->t.kind = T_OP;
		p->t.text[0] = c;
		p->s++;
	} else if (c == '(' || c == ')') {
		p->t.kind = c == '(' ? T_LPAREN : T_RPAREN;
		p->t.text[0] = c;
		p->s++;
	} else if (word_char(c)) {
		lex_word(p);
	} else {
		p->t.kind = T_BAD;
		snprintf(p->t.text, sizeof p->t.text, "%c", c);
		p->s++;
	}
}

static int fail(struct parser *p, const char *fmt, const char *a, const char *b)
{
	char what[512];
	snprintf(what, sizeof what, fmt, a, b ? b : "");
	return gl_errf(p->err, GL_EUSAGE, "%s:%d: check: %s", p->path, p->line, what);
}

/* ---- tree */

static struct lesson_node *node(enum lesson_node_kind kind)
{
	struct lesson_node *n = gl_xcalloc(1, sizeof *n);
	n->kind = kind;
	return n;
}

static void node_free(struct lesson_node *n)
{
	if (!n)
		return;
	node_free(n->a);
	node_free(n->b);
	free(n);
}

static int parse_value(struct parser *p, struct lesson_node **out);

static int check_variant(struct parser *p, struct lesson_node *n)
{
	/* a profiled program's launches: the variant is the kernel's function name, which no registry lists */
	if (strcmp(n->topic, LESSON_PROGRAM_TOPIC) == 0)
		return GL_OK;
	const struct gl_topic *t = gl_topic_find(n->topic);
	if (!t) {
		const char *names[64];
		size_t k = 0;
		for (const struct gl_topic *const *it = gl_topics; *it && k < 64; it++)
			names[k++] = (*it)->name;
		const char *near = gl_suggest(n->topic, names, k);
		return near ? fail(p, "unknown topic '%s' (did you mean '%s'?)", n->topic, near)
			    : fail(p, "unknown topic '%s' (see 'gpulab list')", n->topic, NULL);
	}
	if (gl_variant_find(t, n->variant))
		return GL_OK;
	const char *names[64];
	size_t k = 0;
	for (int i = 0; i < t->nvariants && k < 64; i++)
		names[k++] = t->variants[i].name;
	const char *near = gl_suggest(n->variant, names, k);
	char what[160];
	snprintf(what, sizeof what, "%s.%s", n->topic, n->variant);
	return near ? fail(p, "unknown variant '%s' (did you mean '%s'?)", what, near)
		    : fail(p, "unknown variant '%s' (see 'gpulab list %s')", what, n->topic);
}

/* TOPIC.VARIANT METRIC */
static int parse_ref(struct parser *p, struct lesson_node **out)
{
	const char *dot = strchr(p->t.text, '.');
	if (!dot || dot == p->t.text || !dot[1] || strchr(dot + 1, '.'))
		return fail(p, "expected TOPIC.VARIANT (e.g. transpose.naive) or a number, found '%s'", p->t.text, NULL);
	struct lesson_node *n = node(LESSON_REF);
	snprintf(n->topic, sizeof n->topic, "%.*s", (int)(dot - p->t.text), p->t.text);
	snprintf(n->variant, sizeof n->variant, "%s", dot + 1);
	int rc = p->self && strcmp(p->t.text, p->self) == 0 ? GL_OK : check_variant(p, n);
	if (rc == GL_OK) {
		next(p);
		if (p->t.kind != T_WORD)
			rc = fail(p, "expected a metric after '%s.%s' (a launch_summary column or an Nsight Compute "
				     "name), found '%s'",
				  n->topic, n->variant);
	}
	if (rc == GL_OK) {
		const char *near = NULL;
		if (!lesson_metric_known(p->t.text, &near))
			rc = near ? fail(p, "unknown metric '%s' (did you mean '%s'?)", p->t.text, near)
				  : fail(p, "unknown metric '%s' (see docs/lessons.md for the names a check can read)",
					 p->t.text, NULL);
		snprintf(n->metric, sizeof n->metric, "%.*s", (int)sizeof n->metric - 1, p->t.text);
	}
	if (rc) {
		node_free(n);
		return rc;
	}
	next(p);
	*out = n;
	return GL_OK;
}

/* On failure *out is NULL: nothing to free. */
static int parse_factor(struct parser *p, struct lesson_node **out)
{
	*out = NULL;
	switch (p->t.kind) {
	case T_NUM:
		*out = node(LESSON_NUM);
		(*out)->num = p->t.num;
		next(p);
		return GL_OK;
	case T_WORD:
		return parse_ref(p, out);
	case T_LPAREN: {
		next(p);
		int rc = parse_value(p, out);
		if (rc == GL_OK && p->t.kind != T_RPAREN) {
			rc = fail(p, "expected ')', found '%s'", p->t.text, NULL);
			node_free(*out);
			*out = NULL;
		}
		if (rc == GL_OK)
			next(p);
		return rc;
	}
	case T_OP:
		if (p->t.text[0] == '-') {
			next(p);
			struct lesson_node *n = node(LESSON_NEG);
			int rc = parse_factor(p, &n->a);
			if (rc)
				free(n);
			else
				*out = n;
			return rc;
		}
		/* fall through */
	default:
		return fail(p, "expected a number, TOPIC.VARIANT METRIC or '(', found '%s'", p->t.text, NULL);
	}
}

/* Left-associative chain of `ops` over `sub`. */
static int parse_chain(struct parser *p, const char *ops, int (*sub)(struct parser *, struct lesson_node **),
		       struct lesson_node **out)
{
	int rc = sub(p, out);
	while (rc == GL_OK && p->t.kind == T_OP && strchr(ops, p->t.text[0])) {
		struct lesson_node *n = node(LESSON_BIN);
		n->op = p->t.text[0];
		n->a = *out;
		next(p);
		rc = sub(p, &n->b);
		*out = n;
	}
	if (rc) {
		node_free(*out);
		*out = NULL;
	}
	return rc;
}

static int parse_term(struct parser *p, struct lesson_node **out)
{
	return parse_chain(p, "*/", parse_factor, out);
}

static int parse_value(struct parser *p, struct lesson_node **out)
{
	return parse_chain(p, "+-", parse_term, out);
}

int lesson_check_parse(const char *text, const char *path, int line, struct lesson_check *out, struct gl_err *err)
{
	return lesson_check_parse_self(text, path, line, NULL, out, err);
}

int lesson_check_parse_self(const char *text, const char *path, int line, const char *self,
			    struct lesson_check *out, struct gl_err *err)
{
	memset(out, 0, sizeof *out);
	struct parser p = {.s = text, .path = path, .line = line, .self = self, .err = err};
	next(&p);
	if (p.t.kind == T_END)
		return fail(&p, "empty check: write e.g. 'check: transpose.naive gst_sectors_per_request == 32'%s",
			    "", NULL);
	int rc = parse_value(&p, &out->lhs);
	if (rc == GL_OK && p.t.kind != T_CMP)
		rc = fail(&p, "expected a comparison (== != < <= > >=), found '%s'", p.t.text, NULL);
	if (rc == GL_OK) {
		out->cmp = p.t.cmp;
		next(&p);
		rc = parse_value(&p, &out->rhs);
	}
	if (rc == GL_OK && p.t.kind != T_END)
		rc = fail(&p, "unexpected '%s' after the comparison", p.t.text, NULL);
	if (rc) {
		lesson_check_free(out);
		return rc;
	}
	while (isspace((unsigned char)*text))
		text++;
	size_t len = strlen(text);
	while (len && isspace((unsigned char)text[len - 1]))
		len--;
	out->line = line;
	out->text = gl_xmalloc(len + 1);
	memcpy(out->text, text, len);
	out->text[len] = '\0';
	return GL_OK;
}

void lesson_check_free(struct lesson_check *c)
{
	node_free(c->lhs);
	node_free(c->rhs);
	free(c->text);
	memset(c, 0, sizeof *c);
}
