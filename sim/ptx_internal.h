/* ptx_internal.h — the parser's state, shared by ptx_parse.c (module level) and ptx_body.c
 * (function bodies, operands, layout).  Not used outside the PTX front end. */
#ifndef GL_PTX_INTERNAL_H
#define GL_PTX_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>

#include "ptx.h"
#include "ptx_lex.h"
#include "ptx_names.h"
#include "ptx_ops.h"

/* Slot tags used until a function's layout is known (see ptx_body.c: layout). */
#define TAG_MASK 0x70000000
#define TAG_CONST 0x40000000
#define TAG_SPECIAL 0x20000000
#define TAG_VAR 0x10000000
#define VAR_MODULE 0x08000000 /* in a var reference: module-scope variable */
#define VAR_FRAME (-2)        /* a constant's var: an offset in the .func's own frame (its parameters) */

/* A branch or call target, resolved once the body is read: labels are visible in the brace block that
 * defines them and in the blocks inside it, before or after their definition (as ptxas has it). */
struct label_ref {
	char *name;
	int insn, opnd;
	int line, col;
	int block;
};

struct parser {
	struct ptx_lexer lx;
	struct ptx_token tok;
	struct ptx_module *m;
	struct gl_err *err;
	const char *name;
	/* current function */
	struct ptx_function *fn;
	struct ptx_names regs;
	int nregs;
	struct ptx_names vars;      /* function-scope variables (slot: index in fn->vars), scoped like regs */
	int vars_cap;
	struct ptx_strmap params;   /* parameter and return names -> offset in the param buffer */
	struct ptx_consts consts;
	struct ptx_strmap labels;   /* (name, block) -> instruction index */
	int *block_parent;          /* brace blocks of the body: 0 is the body itself */
	int nblocks, block;         /* count, and the block being read */
	struct label_ref *refs;
	int nrefs, refs_cap;
	int src_line, src_file;     /* the current .loc */
	int src_at_line, src_at_file; /* its inlined_at call site, 0 when not inlined */
	/* module */
	struct ptx_strmap module_vars; /* first declaration of each name -> index in m->vars */
	struct ptx_strmap funcs;       /* first declaration of each name -> index in m->funcs */
	int funcs_cap, mvars_cap;
	bool lazy;                     /* ptx_parse_lazy: a body's error stays with its function */
	bool cuda_lines;               /* PTX_PARSE_CUDA_LINES */
	/* a .func body declares or names .shared variables: their addresses are baked into code that every
	 * calling kernel shares, so every function keeps the module-wide shared layout (ptx_body.c) */
	bool shared_module_wide;
};

int ptx_error(struct parser *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* An error at PTX line:col whose CUDA location is src_file:src_line (0: unknown). */
int ptx_error_loc(struct parser *ps, int line, int col, int src_file, int src_line, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
/* The same, at token t rather than the current one. */
int ptx_error_at(struct parser *ps, const struct ptx_token *t, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void ptx_advance(struct parser *ps);
int ptx_accept(struct parser *ps, const char *text);
int ptx_expect(struct parser *ps, const char *text);
char *ptx_tok_dup(const struct ptx_token *t);
int ptx_parse_int(struct parser *ps, int64_t *out);
int ptx_parse_immediate(struct parser *ps, uint64_t *bits);
int ptx_type_from_token(const struct ptx_token *t, enum ptx_type *out);
int ptx_parse_var(struct parser *ps, enum ptx_space space, bool is_extern, bool module_scope);
int ptx_parse_body(struct parser *ps, struct ptx_function *fn);
void ptx_parser_reset_function(struct parser *ps);
/* ptx_validate.c: operand shapes of every instruction of a laid-out function. */
int ptx_validate_function(struct parser *ps, const struct ptx_function *fn);
/* ptx_regalloc.c: registers whose live ranges are disjoint share a slot (first_special, nslots and the
 * constant slots move down; fn->declared_regs keeps the declared count).  GPULAB_SIM_REGALLOC=0 turns
 * it off. */
void ptx_regalloc(struct ptx_function *fn);

#endif
