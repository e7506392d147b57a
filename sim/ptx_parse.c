/* ptx_parse.c — PTX text -> ptx_module: module directives, variables, functions and their bodies.
 * Instructions are decoded once here; operands become slots (see ptx.h).  Errors carry name:line:col. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "ptx_internal.h"

/* "name:line:col: msg" for PTX input; for nvcc's output of a .cu file, the CUDA place first. */
static int error_v(struct parser *ps, int line, int col, int src_file, int src_line, int at_file, int at_line,
		   const char *fmt, va_list ap)
{
	char msg[512], ptx[64];
	vsnprintf(msg, sizeof msg, fmt, ap);
	if (col > 0)
		snprintf(ptx, sizeof ptx, "%d:%d", line, col);
	else
		snprintf(ptx, sizeof ptx, "%d", line);
	if (!ps->cuda_lines)
		return gl_errf(ps->err, GL_EUSAGE, "%s:%s: %s", ps->name, ptx, msg);
	const char *file = src_line > 0 ? ptx_source_file(ps->m, src_file) : NULL;
	const char *at = at_line > 0 ? ptx_source_file(ps->m, at_file) : NULL;
	if (file && at) /* inlined: the call site, then the inlined line */
		return gl_errf(ps->err, GL_EUSAGE, "%s:%d: %s (in %s:%d, inlined here; nvcc's PTX line %s)", at, at_line, msg,
			       file, src_line, ptx);
	if (file)
		return gl_errf(ps->err, GL_EUSAGE, "%s:%d: %s (nvcc's PTX line %s)", file, src_line, msg, ptx);
	return gl_errf(ps->err, GL_EUSAGE, "%s: nvcc's PTX line %s: %s", ps->name, ptx, msg);
}

int ptx_error_loc(struct parser *ps, int line, int col, int src_file, int src_line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = error_v(ps, line, col, src_file, src_line, 0, 0, fmt, ap);
	va_end(ap);
	return rc;
}

int ptx_error_at(struct parser *ps, const struct ptx_token *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	bool body = ps->fn != NULL; /* the last .loc describes this token only inside a body */
	int rc = error_v(ps, t->line, t->col, body ? ps->src_file : 0, body ? ps->src_line : 0,
			 body ? ps->src_at_file : 0, body ? ps->src_at_line : 0, fmt, ap);
	va_end(ap);
	return rc;
}

int ptx_error(struct parser *ps, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return ptx_error_at(ps, &ps->tok, "%s", msg);
}

void ptx_advance(struct parser *ps)
{
	ps->tok = ptx_lex_next(&ps->lx);
}

int ptx_accept(struct parser *ps, const char *text)
{
	if (ptx_tok_is(&ps->tok, text)) {
		ptx_advance(ps);
		return 1;
	}
	return 0;
}

int ptx_expect(struct parser *ps, const char *text)
{
	if (ptx_accept(ps, text))
		return 0;
	if (ps->tok.kind == TK_EOF)
		return ptx_error(ps, "expected '%s' but the file ended", text);
	return ptx_error(ps, "expected '%s' but found '%.*s'", text, ps->tok.len, ps->tok.start);
}

char *ptx_tok_dup(const struct ptx_token *t)
{
	char *s = gl_xmalloc((size_t)t->len + 1);
	memcpy(s, t->start, (size_t)t->len);
	s[t->len] = '\0';
	return s;
}

/* Parse an integer literal token (decimal, 0x hex, 0b binary, octal, optional U suffix) with an optional
 * leading '-'.  The value wraps to 64 bits as two's complement; a literal above 2^64-1 is an error. */
int ptx_parse_int(struct parser *ps, int64_t *out)
{
	int neg = ptx_accept(ps, "-");
	if (ps->tok.kind != TK_NUMBER)
		return ptx_error(ps, "expected a number but found '%.*s'", ps->tok.len, ps->tok.start);
	char buf[72];
	if (ps->tok.len >= (int)sizeof buf)
		return ptx_error(ps, "number too long");
	memcpy(buf, ps->tok.start, (size_t)ps->tok.len);
	buf[ps->tok.len] = '\0';
	int bin = buf[0] == '0' && (buf[1] == 'b' || buf[1] == 'B');
	if (bin && buf[2] != '0' && buf[2] != '1')
		return ptx_error(ps, "invalid integer '%s'", buf);
	char *end;
	errno = 0;
	uint64_t v = bin ? strtoull(buf + 2, &end, 2) : strtoull(buf, &end, 0);
	if (*end == 'U' || *end == 'u')
		end++;
	if (*end)
		return ptx_error(ps, "invalid integer '%s'", buf);
	if (errno == ERANGE)
		return ptx_error(ps, "integer '%s' does not fit in 64 bits", buf);
	*out = (int64_t)(neg ? 0 - v : v);
	ptx_advance(ps);
	return 0;
}

/* Skip to the end of the current source line (for .loc, .file and friends). */
static void skip_line(struct parser *ps)
{
	int line = ps->tok.line;
	while (ps->tok.kind != TK_EOF && ps->tok.line == line)
		ptx_advance(ps);
}

/* Skip a balanced { ... } block (debug sections). */
static int skip_block(struct parser *ps)
{
	int depth = 0;
	do {
		if (ps->tok.kind == TK_EOF)
			return ptx_error(ps, "unterminated block");
		if (ptx_tok_is(&ps->tok, "{"))
			depth++;
		else if (ptx_tok_is(&ps->tok, "}"))
			depth--;
		ptx_advance(ps);
	} while (depth > 0);
	return 0;
}

int ptx_type_from_token(const struct ptx_token *t, enum ptx_type *out)
{
	static const struct {
		const char *name;
		enum ptx_type type;
	} types[] = {
		{".pred", PT_PRED}, {".b8", PT_B8},	{".b16", PT_B16},   {".b32", PT_B32},	  {".b64", PT_B64},
		{".b128", PT_B128}, {".u8", PT_U8},	{".u16", PT_U16},   {".u32", PT_U32},	  {".u64", PT_U64},
		{".s8", PT_S8},	    {".s16", PT_S16},	{".s32", PT_S32},   {".s64", PT_S64},	  {".f16", PT_F16},
		{".f16x2", PT_F16X2}, {".bf16", PT_BF16}, {".bf16x2", PT_BF16X2}, {".tf32", PT_TF32},
		{".f32", PT_F32},   {".f64", PT_F64},
	};
	for (size_t i = 0; i < GL_ARRAY_LEN(types); i++)
		if (ptx_tok_is(t, types[i].name)) {
			*out = types[i].type;
			return 0;
		}
	return -1;
}

/* `.align N` and a type, in any order, as variable declarations spell them. */
static int parse_var_attrs(struct parser *ps, unsigned *align, enum ptx_type *type)
{
	*type = PT_NONE;
	for (;;) {
		if (ptx_accept(ps, ".align")) {
			int64_t a;
			if (ptx_parse_int(ps, &a))
				return -1;
			/* as ptxas: any power of two a 32-bit address can hold (the sizes it leads to are checked
			 * where the variables are laid out) */
			if (a <= 0 || a > (1ll << 31) || (a & (a - 1)))
				return ptx_error(ps, "alignment %lld must be a power of two from 1 to 2^31", (long long)a);
			*align = (unsigned)a;
		} else if (ptx_accept(ps, ".attribute")) {
			/* .attribute(.managed) (a __managed__ variable) or .attribute(.unified(...)): where the
			 * variable lives on the host side, nothing the kernel's accesses depend on */
			if (!ptx_accept(ps, "("))
				return ptx_error(ps, "expected '(' after .attribute");
			for (int depth = 1; depth > 0 && ps->tok.kind != TK_EOF;) {
				depth += ptx_tok_is(&ps->tok, "(") - ptx_tok_is(&ps->tok, ")");
				ptx_advance(ps);
			}
		} else if (ptx_tok_is(&ps->tok, ".ptr") || ptx_tok_is(&ps->tok, ".global") ||
			   ptx_tok_is(&ps->tok, ".shared") || ptx_tok_is(&ps->tok, ".const") ||
			   ptx_tok_is(&ps->tok, ".local") || ptx_tok_is(&ps->tok, ".v2") ||
			   ptx_tok_is(&ps->tok, ".v4")) {
			ptx_advance(ps); /* pointer attributes of a parameter */
		} else if (ptx_type_from_token(&ps->tok, type) == 0) {
			ptx_advance(ps);
		} else {
			break;
		}
	}
	if (*type == PT_NONE && (ptx_tok_is(&ps->tok, ".texref") || ptx_tok_is(&ps->tok, ".surfref") ||
				 ptx_tok_is(&ps->tok, ".samplerref")))
		return ptx_error(ps, "'%.*s' variables (texture references, removed in CUDA 12, and independent samplers) "
				 "are not simulated: gpulab runs texture and surface objects (cudaTextureObject_t, "
				 "cudaSurfaceObject_t), which kernels take as .u64 parameters", ps->tok.len, ps->tok.start);
	if (*type == PT_NONE)
		return ptx_error(ps, "expected a type such as .b32 but found '%.*s'", ps->tok.len, ps->tok.start);
	return 0;
}

/* Optional array dimensions: [N][M]...; [] (extern) gives count 0 and sets *unsized. */
static int parse_dims(struct parser *ps, uint64_t *count, bool *unsized)
{
	*count = 1;
	*unsized = false;
	while (ptx_accept(ps, "[")) {
		if (ptx_accept(ps, "]")) {
			*unsized = true;
			continue;
		}
		int64_t n;
		struct ptx_token at = ps->tok;
		if (ptx_parse_int(ps, &n) || ptx_expect(ps, "]"))
			return -1;
		if (n < 0 || n > (1ll << 32))
			return ptx_error_at(ps, &at, "array size %lld out of range", (long long)n);
		if (n && *count > (1ull << 32) / (uint64_t)n)
			return ptx_error_at(ps, &at, "array too large");
		*count *= (uint64_t)n;
	}
	return 0;
}

/* `= { 1, 2, ... }` or `= 5`: little-endian element bytes; nested braces flatten.  An unsized array
 * (`a[] = {1, 2}`) takes its size from the initializer. */
static int parse_initializer(struct parser *ps, struct ptx_var *v, unsigned elem, bool sized_by_init)
{
	if (!ptx_tok_is(&ps->tok, "="))
		return 0;
	if (v->space != PS_GLOBAL && v->space != PS_CONST)
		return ptx_error(ps, "only .global and .const variables can have an initializer");
	ptx_advance(ps);
	uint64_t cap = v->size ? v->size : 16;
	v->init = gl_xcalloc(cap, 1);
	uint64_t pos = 0;
	int depth = 0;
	do {
		if (ptx_accept(ps, "{")) {
			depth++;
			continue;
		}
		if (ptx_accept(ps, "}")) {
			depth--;
			continue;
		}
		if (ptx_accept(ps, ","))
			continue;
		uint64_t bits;
		int fk = ps->tok.kind == TK_IDENT ? ptx_strmap_find(&ps->funcs, ps->tok.start, ps->tok.len, 0) : -1;
		if (fk >= 0) { /* a table of function pointers */
			bits = ptx_function_address(ps->funcs.keys[fk].value);
			ptx_advance(ps);
		} else if (ptx_parse_immediate(ps, &bits)) {
			return -1;
		}
		if (sized_by_init) {
			if (v->size + elem > PTX_MAX_MODULE_DATA)
				return ptx_error(ps, "initializer larger than %llu bytes", (unsigned long long)PTX_MAX_MODULE_DATA);
			v->size += elem;
			if (v->size > cap) {
				v->init = gl_xrealloc(v->init, 2 * cap);
				memset(v->init + cap, 0, cap);
				cap *= 2;
			}
		}
		for (unsigned b = 0; b < elem && pos < v->size; b++, pos++)
			v->init[pos] = b < 8 ? (uint8_t)(bits >> (8 * b)) : 0; /* .b128: the upper half is zero */
	} while (depth > 0 && ps->tok.kind != TK_EOF);
	return depth ? ptx_error(ps, "unterminated initializer") : 0;
}

static struct ptx_var *add_var(struct ptx_var **vars, int *n, int *cap)
{
	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 8;
		*vars = gl_xrealloc(*vars, (size_t)*cap * sizeof **vars);
	}
	struct ptx_var *v = &(*vars)[(*n)++];
	memset(v, 0, sizeof *v);
	return v;
}

/* A variable declaration after its space keyword: [.align N] .type name[dims] [= init] ; */
int ptx_parse_var(struct parser *ps, enum ptx_space space, bool is_extern, bool module_scope)
{
	unsigned align = 0;
	enum ptx_type type;
	if (parse_var_attrs(ps, &align, &type))
		return -1;
	do {
		if (ps->tok.kind != TK_IDENT)
			return ptx_error(ps, "expected a variable name but found '%.*s'", ps->tok.len, ps->tok.start);
		struct ptx_token name = ps->tok;
		ptx_advance(ps);
		uint64_t count;
		bool unsized;
		if (parse_dims(ps, &count, &unsized))
			return -1;
		if (!module_scope && ptx_names_in_scope(&ps->vars, name.start, name.len, 0))
			return ptx_error_at(ps, &name, "'%.*s' is already declared in this scope", name.len, name.start);
		struct ptx_var *v = module_scope ? add_var(&ps->m->vars, &ps->m->nvars, &ps->mvars_cap)
						 : add_var(&ps->fn->vars, &ps->fn->nvars, &ps->vars_cap);
		if (module_scope)
			ptx_strmap_add(&ps->module_vars, name.start, name.len, 0, ps->m->nvars - 1);
		else
			ptx_names_add(&ps->vars, name.start, name.len, ps->fn->nvars - 1, 0, 0);
		v->name = ptx_tok_dup(&name);
		v->space = space;
		unsigned elem = ptx_type_bytes(type) ? ptx_type_bytes(type) : 1;
		v->align = align ? align : elem;
		v->is_extern = is_extern || (unsized && !ptx_tok_is(&ps->tok, "="));
		v->size = unsized ? 0 : count * elem;
		if (module_scope && space != PS_SHARED && v->size > PTX_MAX_MODULE_DATA)
			return ptx_error_at(ps, &name, "'%s' is larger than %llu bytes of module data", v->name,
					   (unsigned long long)PTX_MAX_MODULE_DATA);
		if (parse_initializer(ps, v, elem, unsized && !is_extern))
			return -1;
		if (module_scope && space != PS_SHARED) { /* module .global/.const: one address per module */
			uint64_t at = (ps->m->global_size + v->align - 1) / v->align * v->align;
			v->offset = at;
			ps->m->global_size = at + v->size;
			if (ps->m->global_size > PTX_MAX_MODULE_DATA)
				return ptx_error_at(ps, &name, "module .global/.const data exceeds %llu bytes",
						   (unsigned long long)PTX_MAX_MODULE_DATA);
		}
	} while (ptx_accept(ps, ","));
	return ptx_expect(ps, ";");
}

/* Kernel / function parameter list: ( .param .type name [, ...] ). */
static int parse_params(struct parser *ps, struct ptx_param **out, int *n)
{
	if (ptx_expect(ps, "("))
		return -1;
	unsigned offset = 0;
	int cap = 0;
	while (!ptx_accept(ps, ")")) {
		if (*n > 0 && ptx_expect(ps, ","))
			return -1;
		if (!ptx_accept(ps, ".param") && !ptx_accept(ps, ".reg"))
			return ptx_error(ps, "expected .param but found '%.*s'", ps->tok.len, ps->tok.start);
		unsigned align = 0;
		enum ptx_type type;
		if (parse_var_attrs(ps, &align, &type))
			return -1;
		if (ps->tok.kind != TK_IDENT)
			return ptx_error(ps, "expected a parameter name");
		struct ptx_token name = ps->tok;
		ptx_advance(ps);
		uint64_t count;
		bool unsized;
		if (parse_dims(ps, &count, &unsized))
			return -1;
		unsigned elem = ptx_type_bytes(type) ? ptx_type_bytes(type) : 1;
		if (count * elem > 4096)
			return ptx_error_at(ps, &name, "parameter '%.*s' takes more than 4096 bytes", name.len, name.start);
		if (*n == cap) {
			cap = cap ? 2 * cap : 8;
			*out = gl_xrealloc(*out, (size_t)cap * sizeof **out);
		}
		struct ptx_param *p = &(*out)[(*n)++];
		p->name = ptx_tok_dup(&name);
		p->type = type;
		p->size = (unsigned)(count * elem);
		p->align = align ? align : elem;
		p->is_array = count > 1 || unsized;
		offset = (offset + p->align - 1) / p->align * p->align;
		p->offset = offset;
		offset += p->size;
		if (offset > (1u << 20))
			return ptx_error(ps, "parameters take more than %u bytes", 1u << 20);
	}
	return 0;
}

/* Drop what a failed body decoded, keeping the header (name, parameters) for lookups and calls. */
static void discard_body(struct ptx_function *fn)
{
	free(fn->code);
	free(fn->consts);
	free(fn->const_frame);
	fn->const_frame = NULL;
	for (int i = 0; i < fn->nvars; i++) {
		free(fn->vars[i].name);
		free(fn->vars[i].init);
	}
	free(fn->vars);
	fn->code = NULL;
	fn->consts = NULL;
	fn->vars = NULL;
	fn->ncode = fn->nconsts = fn->nvars = 0;
}

/* A body whose error is kept on the function: the parser goes back to the body's '{' and skips the
 * balanced block, so the next function starts clean.  Only a block that never closes fails the module. */
static int parse_body_lazily(struct parser *ps, struct ptx_function *fn)
{
	struct ptx_lexer lx = ps->lx;
	struct ptx_token tok = ps->tok;
	struct gl_err ferr = {0}, *outer = ps->err;
	ps->err = &ferr;
	int rc = ptx_parse_body(ps, fn);
	ps->err = outer;
	if (rc == 0)
		return 0;
	ptx_parser_reset_function(ps);
	discard_body(fn);
	fn->error = gl_xstrdup(ferr.msg[0] ? ferr.msg : "this function could not be decoded");
	fn->error_status = ferr.status ? ferr.status : GL_EUSAGE;
	ps->lx = lx;
	ps->tok = tok;
	struct gl_err skip_err = {0};
	ps->err = &skip_err;
	rc = ptx_tok_is(&ps->tok, "{") ? skip_block(ps) : -1;
	ps->err = outer;
	/* a body with no end is reported as its first problem, as the strict parse would */
	return rc ? gl_errf(ps->err, fn->error_status, "%s", fn->error) : 0;
}

/* .entry/.func header and body. */
static int parse_function(struct parser *ps, bool is_entry)
{
	if (ps->m->nfuncs == ps->funcs_cap) {
		ps->funcs_cap = ps->funcs_cap ? 2 * ps->funcs_cap : 8;
		ps->m->funcs = gl_xrealloc(ps->m->funcs, (size_t)ps->funcs_cap * sizeof *ps->m->funcs);
	}
	struct ptx_function *fn = &ps->m->funcs[ps->m->nfuncs++];
	memset(fn, 0, sizeof *fn);
	fn->is_entry = is_entry;
	fn->ptx_line = ps->tok.line;
	if (!is_entry && ptx_tok_is(&ps->tok, "(") && parse_params(ps, &fn->rets, &fn->nrets))
		return -1;
	if (ps->tok.kind != TK_IDENT)
		return ptx_error(ps, "expected a function name but found '%.*s'", ps->tok.len, ps->tok.start);
	fn->name = ptx_tok_dup(&ps->tok);
	ptx_strmap_add(&ps->funcs, ps->tok.start, ps->tok.len, 0, ps->m->nfuncs - 1);
	ptx_advance(ps);
	if (ptx_tok_is(&ps->tok, "(") && parse_params(ps, &fn->params, &fn->nparams))
		return -1;
	/* performance directives: .maxntid 256, 1, 1  .reqntid ...  .minnctapersm 2  .noreturn */
	while (ps->tok.kind == TK_IDENT && ps->tok.start[0] == '.') {
		ptx_advance(ps);
		while (ps->tok.kind == TK_NUMBER || ptx_tok_is(&ps->tok, ","))
			ptx_advance(ps);
	}
	if (ptx_accept(ps, ";"))
		return 0; /* a declaration only */
	if (!ps->lazy)
		return ptx_parse_body(ps, fn);
	return parse_body_lazily(ps, fn);
}

/* The leading decimal digits of s[0..len), saturating at 1000000 (version and target numbers). */
static int small_int(const char *s, int len)
{
	int v = 0;
	for (int i = 0; i < len && s[i] >= '0' && s[i] <= '9'; i++)
		v = v < 100000 ? 10 * v + (s[i] - '0') : 1000000;
	return v;
}

/* One module-level statement. */
static int parse_module_item(struct parser *ps)
{
	bool is_extern = false;
	for (;;) {
		if (ptx_accept(ps, ".visible") || ptx_accept(ps, ".weak") || ptx_accept(ps, ".common"))
			continue;
		if (ptx_accept(ps, ".extern")) {
			is_extern = true;
			continue;
		}
		break;
	}
	struct ptx_token t = ps->tok;
	if (ptx_accept(ps, ".version")) {
		if (ps->tok.kind != TK_NUMBER)
			return ptx_error(ps, "expected a version number");
		ps->m->version_major = small_int(ps->tok.start, ps->tok.len);
		const char *dot = memchr(ps->tok.start, '.', (size_t)ps->tok.len);
		ps->m->version_minor = dot ? small_int(dot + 1, ps->tok.len - (int)(dot + 1 - ps->tok.start)) : 0;
		ptx_advance(ps);
		return 0;
	}
	if (ptx_accept(ps, ".target")) {
		if (ps->tok.kind == TK_IDENT && ps->tok.len > 3 && memcmp(ps->tok.start, "sm_", 3) == 0)
			ps->m->target_sm = small_int(ps->tok.start + 3, ps->tok.len - 3);
		skip_line(ps);
		return 0;
	}
	if (ptx_accept(ps, ".address_size")) {
		int64_t bits;
		if (ptx_parse_int(ps, &bits))
			return -1;
		return bits == 64 ? 0 : ptx_error_at(ps, &t, "only .address_size 64 is supported");
	}
	if (ptx_accept(ps, ".file") || ptx_accept(ps, ".loc")) {
		skip_line(ps);
		return 0;
	}
	if (ptx_accept(ps, ".section")) {
		while (ps->tok.kind != TK_EOF && !ptx_tok_is(&ps->tok, "{"))
			ptx_advance(ps);
		return skip_block(ps);
	}
	if (ptx_accept(ps, ".entry"))
		return parse_function(ps, true);
	if (ptx_accept(ps, ".func"))
		return parse_function(ps, false);
	if (ptx_accept(ps, ".global"))
		return ptx_parse_var(ps, PS_GLOBAL, is_extern, true);
	if (ptx_accept(ps, ".const"))
		return ptx_parse_var(ps, PS_CONST, is_extern, true);
	if (ptx_accept(ps, ".shared"))
		return ptx_parse_var(ps, PS_SHARED, is_extern, true);
	return ptx_error_at(ps, &t, "unexpected '%.*s' at module level", t.len, t.start);
}

static int small_int(const char *s, int len);

/* .file directives (nvcc writes them after the functions that use them): read them all first, so that
 * errors and findings can name a CUDA file.  `.file N "path"[, timestamp, size]`. */
static void scan_files(struct ptx_module *m)
{
	struct ptx_lexer lx;
	ptx_lex_init(&lx, m->text);
	int cap = 0;
	for (struct ptx_token t = ptx_lex_next(&lx); t.kind != TK_EOF; t = ptx_lex_next(&lx)) {
		if (!ptx_tok_is(&t, ".file"))
			continue;
		struct ptx_token num = ptx_lex_next(&lx), path = ptx_lex_next(&lx);
		if (num.kind != TK_NUMBER || path.kind != TK_STRING || path.len < 2 || num.line != t.line)
			continue;
		int id = small_int(num.start, num.len);
		if (m->nfiles == cap) {
			cap = cap ? 2 * cap : 8;
			m->files = gl_xrealloc(m->files, (size_t)cap * sizeof *m->files);
		}
		char *copy = gl_xmalloc((size_t)path.len - 1);
		memcpy(copy, path.start + 1, (size_t)path.len - 2);
		copy[path.len - 2] = '\0';
		m->files[m->nfiles].id = id;
		m->files[m->nfiles++].path = copy;
	}
}

bool ptx_insn_is_call(const struct ptx_insn *ins)
{
	return ins->op == OP_CALL;
}

const char *ptx_source_file(const struct ptx_module *m, int id)
{
	for (int i = m->nfiles - 1; i >= 0 && id > 0; i--)
		if (m->files[i].id == id)
			return m->files[i].path;
	return NULL;
}

/* Whether a .func body names a module-scope .shared variable or declares one of its own (a token scan
 * before parsing, since kernels laid out earlier in the text must already know). */
static bool tok_eq(const struct ptx_token *t, const char *s, int len)
{
	return t->len == len && memcmp(t->start, s, (size_t)len) == 0;
}

static bool funcs_use_shared(const char *text)
{
	if (!strstr(text, ".func") || !strstr(text, ".shared")) /* most modules: nothing to look for */
		return false;
	struct ptx_strmap shared = {0};
	struct ptx_lexer lx;
	ptx_lex_init(&lx, text);
	int depth = 0;
	bool in_func = false, want_name = false, found = false;
	struct ptx_token prev = {0};
	for (struct ptx_token t = ptx_lex_next(&lx); t.kind != TK_EOF && !found; prev = t, t = ptx_lex_next(&lx)) {
		if (tok_eq(&t, "{", 1))
			depth++;
		else if (tok_eq(&t, "}", 1) && --depth == 0)
			in_func = false;
		else if (depth == 0 && tok_eq(&t, ".func", 5))
			in_func = true;
		else if (depth == 0 && tok_eq(&t, ".entry", 6))
			in_func = false;
		else if (tok_eq(&t, ".shared", 7))
			want_name = depth == 0, found = in_func && depth > 0; /* a .func's own shared variable */
		else if (want_name && t.kind == TK_IDENT && t.start[0] != '.' && !tok_eq(&prev, ".align", 6)) {
			ptx_strmap_add(&shared, t.start, t.len, 0, 0);
			want_name = false;
		} else if (in_func && depth > 0 && t.kind == TK_IDENT && ptx_strmap_find(&shared, t.start, t.len, 0) >= 0)
			found = true;
	}
	ptx_strmap_free(&shared);
	return found;
}

int ptx_parse_at(const char *text, const char *name, unsigned flags, uint64_t global_base, struct ptx_module **out,
		 struct gl_err *err)
{
	struct parser ps = {.err = err, .name = name, .lazy = flags & PTX_PARSE_LAZY,
			    .cuda_lines = flags & PTX_PARSE_CUDA_LINES};
	ps.m = gl_xcalloc(1, sizeof *ps.m);
	ps.m->global_base = global_base;
	ps.m->name = gl_xstrdup(name);
	ps.m->text = gl_xstrdup(text);
	scan_files(ps.m);
	ps.shared_module_wide = funcs_use_shared(ps.m->text);
	ptx_lex_init(&ps.lx, ps.m->text);
	ptx_advance(&ps);
	int rc = 0;
	while (rc == 0 && ps.tok.kind != TK_EOF)
		rc = parse_module_item(&ps);
	ptx_parser_reset_function(&ps);
	ptx_strmap_free(&ps.module_vars);
	ptx_strmap_free(&ps.funcs);
	if (rc == 0 && ps.m->nfuncs == 0 && !(flags & PTX_PARSE_EMPTY_OK))
		rc = gl_errf(err, GL_EUSAGE, "%s: no .entry or .func in this PTX", name);
	if (rc) {
		ptx_module_free(ps.m);
		return err->status ? err->status : GL_EUSAGE;
	}
	*out = ps.m;
	return GL_OK;
}

int ptx_parse_ex(const char *text, const char *name, unsigned flags, struct ptx_module **out, struct gl_err *err)
{
	return ptx_parse_at(text, name, flags, PTX_MODULE_BASE, out, err);
}

int ptx_parse(const char *text, const char *name, struct ptx_module **out, struct gl_err *err)
{
	return ptx_parse_ex(text, name, 0, out, err);
}

int ptx_parse_lazy(const char *text, const char *name, struct ptx_module **out, struct gl_err *err)
{
	return ptx_parse_ex(text, name, PTX_PARSE_LAZY, out, err);
}

/* Depth-first over the call graph from `fn`; `seen` marks visited functions (recursion terminates). */
static int check_calls(const struct ptx_module *m, int fi, int root, bool *seen, struct gl_err *err)
{
	const struct ptx_function *fn = &m->funcs[fi];
	seen[fi] = true;
	if (fn->error) {
		if (fi == root)
			return gl_errf(err, fn->error_status, "%s '%s' cannot run: %s", fn->is_entry ? "kernel" : "function",
				       fn->name, fn->error);
		return gl_errf(err, fn->error_status, "kernel '%s' calls '%s', which cannot run: %s", m->funcs[root].name,
			       fn->name, fn->error);
	}
	for (int i = 0; i < fn->ncode; i++) {
		const struct ptx_insn *ins = &fn->code[i];
		if (ins->op != OP_CALL)
			continue;
		for (int k = 0; k < ins->nops; k++) {
			const struct ptx_operand *o = &ins->ops[k];
			if (o->kind != PO_FUNC || o->offset < 0 || o->offset >= m->nfuncs)
				continue;
			/* a call names the first declaration; the definition may come later in the file */
			int callee = (int)(ptx_find_function(m, m->funcs[o->offset].name) - m->funcs);
			if (!seen[callee] && check_calls(m, callee, root, seen, err))
				return err->status;
		}
	}
	return 0;
}

int ptx_check_function(const struct ptx_module *m, const struct ptx_function *fn, struct gl_err *err)
{
	bool *seen = gl_xcalloc((size_t)m->nfuncs, sizeof *seen);
	int fi = (int)(fn - m->funcs);
	int rc = check_calls(m, fi, fi, seen, err);
	free(seen);
	return rc;
}

static void free_vars(struct ptx_var *vars, int n)
{
	for (int i = 0; i < n; i++) {
		free(vars[i].name);
		free(vars[i].init);
	}
	free(vars);
}

static void free_params(struct ptx_param *p, int n)
{
	for (int i = 0; i < n; i++)
		free(p[i].name);
	free(p);
}

void ptx_module_free(struct ptx_module *m)
{
	if (!m)
		return;
	for (int i = 0; i < m->nfuncs; i++) {
		struct ptx_function *f = &m->funcs[i];
		free(f->name);
		free_params(f->params, f->nparams);
		free_params(f->rets, f->nrets);
		free(f->code);
		free(f->sass);
		free(f->consts);
		free(f->const_frame);
		free_vars(f->vars, f->nvars);
		free(f->error);
	}
	free(m->funcs);
	free_vars(m->vars, m->nvars);
	for (int i = 0; i < m->nfiles; i++)
		free(m->files[i].path);
	free(m->files);
	free(m->name);
	free(m->text);
	free(m);
}

const struct ptx_function *ptx_find_function(const struct ptx_module *m, const char *name)
{
	for (int i = 0; i < m->nfuncs; i++)
		if (strcmp(m->funcs[i].name, name) == 0 && (m->funcs[i].code || m->funcs[i].error))
			return &m->funcs[i];
	for (int i = 0; i < m->nfuncs; i++)
		if (strcmp(m->funcs[i].name, name) == 0)
			return &m->funcs[i];
	return NULL;
}
