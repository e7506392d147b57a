/* sass_parse.c — reads nvdisasm -gp text: functions (".text.NAME:"), the PTX line each instruction comes
 * from ("//## File ".nv_debug_ptx_txt", line N" applies to the instructions after it) and the ld/st
 * instructions with their space and width. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "sass_map.h"

const char *sass_space_name(enum sass_space s)
{
	static const char *const names[] = {"global", "shared", "local", "generic"};
	return s < SASS_NSPACES ? names[s] : "?";
}

/* src[0..n) as a string in dst (size bytes), cut to fit and ending at a NUL as "%.*s" would: without
 * snprintf's format machinery, which glibc runs on its slow positional path for a '*' precision, once
 * or more per line of a listing. */
static void copy_text(char *dst, size_t size, const char *src, size_t n)
{
	n = strnlen(src, n < size - 1 ? n : size - 1);
	memcpy(dst, src, n);
	dst[n] = '\0';
}

bool sass_classify(const char *opcode, struct sass_access *out)
{
	static const struct {
		const char *name;
		uint8_t space;
		bool store;
	} ops[] = {
		{"LDG", SASS_GLOBAL, false}, {"STG", SASS_GLOBAL, true}, {"LDS", SASS_SHARED, false},
		{"STS", SASS_SHARED, true},  {"LDL", SASS_LOCAL, false}, {"STL", SASS_LOCAL, true},
		{"LD", SASS_GENERIC, false}, {"ST", SASS_GENERIC, true},
	};
	size_t base = strcspn(opcode, ".");
	int hit = -1;
	for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
		if (strlen(ops[i].name) == base && strncmp(opcode, ops[i].name, base) == 0)
			hit = (int)i;
	if (hit < 0)
		return false;
	out->space = ops[hit].space;
	out->store = ops[hit].store;
	out->width = 4;
	for (const char *m = opcode + base; *m == '.'; m += 1 + strcspn(m + 1, ".")) {
		size_t len = strcspn(m + 1, ".");
		char mod[16];
		copy_text(mod, sizeof mod, m + 1, len);
		if (!strcmp(mod, "U8") || !strcmp(mod, "S8"))
			out->width = 1;
		else if (!strcmp(mod, "U16") || !strcmp(mod, "S16"))
			out->width = 2;
		else if (!strcmp(mod, "64"))
			out->width = 8;
		else if (!strcmp(mod, "128"))
			out->width = 16;
	}
	return true;
}

struct parse_state {
	struct sass_text *s;
	struct sass_func *f;
	int line;            /* PTX line of the instructions that follow */
	char label[64];      /* a label just seen, with no instruction after it yet */
	int regs;            /* SHI_REGISTERS of the section whose function label comes next */
};

static struct sass_func *new_func(struct sass_text *s, const char *name, size_t len)
{
	s->fns = gl_xrealloc(s->fns, (size_t)(s->nfns + 1) * sizeof *s->fns);
	struct sass_func *f = &s->fns[s->nfns++];
	memset(f, 0, sizeof *f);
	f->name = gl_xcalloc(1, len + 1);
	memcpy(f->name, name, len);
	return f;
}

static void line_info(struct parse_state *p, const char *t)
{
	const char *file = t + strlen("//## File \"");
	const char *ln = strstr(t, "line ");
	if (!p->f || !ln)
		return;
	if (strncmp(file, ".nv_debug_ptx_txt\"", 18) == 0) {
		p->f->ptx_lines = true;
		p->line = atoi(ln + 5);
	}
}

/* One instruction line: address comment, optional predicate, opcode, operands ("@!P2 LDG.E R29, [R8.64] ;"). */
static void instruction(struct parse_state *p, const char *t)
{
	const char *q = strstr(t, "*/");
	if (!p->f || !q)
		return;
	q += 2;
	while (isspace((unsigned char)*q))
		q++;
	bool never = strncmp(q, "@!PT", 4) == 0 && (q[4] == ' ' || q[4] == '\t');
	if (never) /* ptxas's "@!PT LDS RZ, [RZ]" padding (beside LDGSTS) never executes: no instruction */
		return;
	if (*q == '@')
		q += strcspn(q, " \t");
	while (isspace((unsigned char)*q))
		q++;
	char op[48];
	size_t n = strcspn(q, " \t;");
	copy_text(op, sizeof op, q, n);
	bool self_branch = false;
	if (p->label[0] && strcmp(op, "BRA") == 0) { /* the "L: BRA L" that ends every function */
		char target[80];
		snprintf(target, sizeof target, "(%s)", p->label);
		self_branch = strstr(q, target) != NULL;
	}
	p->label[0] = '\0';
	if (!op[0] || strcmp(op, "NOP") == 0 || self_branch)
		return;
	struct sass_func *f = p->f;
	f->lines = gl_xrealloc(f->lines, (size_t)(f->ninsn + 1) * sizeof *f->lines);
	f->lines[f->ninsn++] = p->line;
	struct sass_access a;
	if (!sass_classify(op, &a))
		return;
	a.line = p->line;
	f->acc = gl_xrealloc(f->acc, (size_t)(f->nacc + 1) * sizeof *f->acc);
	f->acc[f->nacc++] = a;
}

static void header(struct sass_text *s, const char *t)
{
	const char *v = t + strlen(SASS_HEADER);
	size_t n = strcspn(v, ",\n");
	copy_text(s->tool, sizeof s->tool, v, n);
}

static void one_line(struct parse_state *p, const char *t, size_t len)
{
	while (len && isspace((unsigned char)*t))
		t++, len--;
	while (len && isspace((unsigned char)t[len - 1]))
		len--;
	char buf[512];
	copy_text(buf, sizeof buf, t, len);
	if (strncmp(buf, SASS_HEADER, strlen(SASS_HEADER)) == 0) {
		header(p->s, buf);
	} else if (strncmp(buf, ".sectioninfo", 12) == 0 && strstr(buf, "SHI_REGISTERS=")) {
		p->regs = atoi(strstr(buf, "SHI_REGISTERS=") + 14); /* before the function's label */
	} else if (strncmp(buf, ".text.", 6) == 0 && len > 7 && buf[len - 1] == ':') {
		p->f = new_func(p->s, buf + 6, len - 7);
		p->f->regs = p->regs > 0 && p->regs <= 255 ? p->regs : 0;
		p->regs = 0;
		p->line = 0;
		p->label[0] = '\0';
	} else if (strncmp(buf, "//## File \"", 11) == 0) {
		line_info(p, buf);
	} else if (buf[0] == '.' && len > 1 && buf[len - 1] == ':' && len < sizeof p->label) {
		copy_text(p->label, sizeof p->label, buf, len - 1);
	} else if (strncmp(buf, "/*", 2) == 0 && isxdigit((unsigned char)buf[2])) {
		instruction(p, buf);
	}
}

int sass_parse(const char *text, struct sass_text *out, struct gl_err *err)
{
	memset(out, 0, sizeof *out);
	if (!text)
		return gl_errf(err, GL_EINTERNAL, "no SASS text");
	struct parse_state p = {.s = out};
	for (const char *t = text; *t;) {
		size_t len = strcspn(t, "\n");
		one_line(&p, t, len);
		t += len + (t[len] == '\n');
	}
	return GL_OK;
}

void sass_text_free(struct sass_text *s)
{
	for (int i = 0; i < s->nfns; i++) {
		free(s->fns[i].name);
		free(s->fns[i].acc);
		free(s->fns[i].lines);
	}
	free(s->fns);
	memset(s, 0, sizeof *s);
}

const struct sass_func *sass_find(const struct sass_text *s, const char *name)
{
	for (int i = 0; i < s->nfns; i++)
		if (strcmp(s->fns[i].name, name) == 0)
			return &s->fns[i];
	return NULL;
}
