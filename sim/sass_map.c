/* sass_map.c — from the SASS accesses each PTX line produced to what the simulator counts for each PTX
 * ld/st: the same access, a vector that carries its neighbours (found as the accesses of the same
 * basic block with the same base register, guard, direction and element size at consecutive offsets),
 * a member of such a vector, a split into narrower accesses, or nothing.  Also the SASS instruction
 * weight of each PTX instruction, for the instruction-total estimates. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "ptx_ops.h"
#include "sass_map.h"
#include "sim.h"

bool sass_ptx_ldst(const struct ptx_insn *ins)
{
	if ((ins->op != OP_LD && ins->op != OP_ST) || (ins->mods & PM_CALLPARAM))
		return false;
	return ins->space == PS_NONE || ins->space == PS_GENERIC || ins->space == PS_GLOBAL ||
	       ins->space == PS_SHARED || ins->space == PS_LOCAL;
}

static enum sass_space space_of(const struct ptx_insn *ins)
{
	switch (ins->space) {
	case PS_GLOBAL: return SASS_GLOBAL;
	case PS_SHARED: return SASS_SHARED;
	case PS_LOCAL: return SASS_LOCAL;
	default: return SASS_GENERIC;
	}
}

static unsigned access_size(const struct ptx_insn *ins)
{
	return ptx_type_bytes((enum ptx_type)ins->type) * (ins->vec ? ins->vec : 1);
}

static const struct ptx_operand *mem_operand(const struct ptx_insn *ins)
{
	return &ins->ops[ins->op == OP_ST ? 0 : 1];
}

/* First instruction whose PTX line is >= line (instructions are in line order). */
static int insn_at_or_after(const struct ptx_function *fn, int line)
{
	int lo = 0, hi = fn->ncode;
	while (lo < hi) {
		int mid = (lo + hi) / 2;
		if (fn->code[mid].line < line)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int insn_at(const struct ptx_function *fn, int line)
{
	int i = insn_at_or_after(fn, line);
	return i < fn->ncode && fn->code[i].line == line ? i : -1;
}

/* Instructions after which ptxas cannot move a memory access: control flow, barriers, fences, atomics. */
static bool ends_block(const struct ptx_insn *ins)
{
	switch (ins->op) {
	case OP_BRA: case OP_CALL: case OP_RET: case OP_EXIT: case OP_TRAP: case OP_BAR: case OP_MEMBAR:
	case OP_ATOM: case OP_RED: case OP_CP_ASYNC: case OP_CP_ASYNC_WAIT: case OP_CP_ASYNC_WAIT_ALL:
		return true;
	default:
		return false;
	}
}

static bool *block_starts(const struct ptx_function *fn)
{
	bool *start = gl_xcalloc((size_t)fn->ncode + 1, sizeof *start);
	start[0] = true;
	for (int i = 0; i < fn->ncode; i++) {
		const struct ptx_insn *ins = &fn->code[i];
		if (ends_block(ins))
			start[i + 1] = true;
		for (int k = 0; k < ins->nops; k++)
			if (ins->ops[k].kind == PO_LABEL && ins->ops[k].offset >= 0 && ins->ops[k].offset <= fn->ncode)
				start[ins->ops[k].offset] = true;
	}
	return start;
}

static bool writes_slot(const struct ptx_insn *ins, int slot)
{
	if (ins->op == OP_ST || ins->nops == 0)
		return false;
	const struct ptx_operand *d = &ins->ops[0];
	if (d->kind == PO_SLOT)
		return d->slot == slot;
	if (d->kind == PO_VEC)
		for (int k = 0; k < d->nvec; k++)
			if (d->vec[k] == slot)
				return true;
	return false;
}

/* Could PTX instruction j be merged with the leader i (same block, base not rewritten between)? */
static bool mergeable(const struct ptx_function *fn, const bool *start, int i, int j)
{
	const struct ptx_insn *a = &fn->code[i], *b = &fn->code[j];
	const struct ptx_operand *ma = mem_operand(a), *mb = mem_operand(b);
	if (!sass_ptx_ldst(b) || b->op != a->op || b->space != a->space || access_size(b) != access_size(a) ||
	    mb->kind != PO_MEM || mb->slot != ma->slot || b->guard != a->guard || b->guard_neg != a->guard_neg)
		return false;
	int lo = i < j ? i : j, hi = i < j ? j : i;
	for (int k = lo + 1; k <= hi; k++)
		if (start[k])
			return false;
	for (int k = lo; k < hi; k++)
		if (ma->slot >= 0 && writes_slot(&fn->code[k], ma->slot))
			return false;
	return true;
}

/* The block [b0, b1) around instruction i. */
static void block_of(const struct ptx_function *fn, const bool *start, int i, int *b0, int *b1)
{
	*b0 = i;
	*b1 = i + 1;
	while (*b0 > 0 && !start[*b0])
		(*b0)--;
	while (*b1 < fn->ncode && !start[*b1])
		(*b1)++;
}

/* When the block is a loop (its last instruction branches back to its first) that adds a constant to
 * `slot` exactly once, that constant: the base's step per iteration.  0 otherwise. */
static int64_t loop_stride(const struct ptx_function *fn, int b0, int b1, int slot)
{
	const struct ptx_insn *last = &fn->code[b1 - 1];
	if (slot < 0 || last->op != OP_BRA || last->ops[0].kind != PO_LABEL || last->ops[0].offset != b0)
		return 0;
	int64_t stride = 0;
	int writes = 0;
	for (int k = b0; k < b1; k++) {
		const struct ptx_insn *ins = &fn->code[k];
		if (!writes_slot(ins, slot))
			continue;
		writes++;
		if (ins->op == OP_ADD && ins->nops == 3 && ins->ops[1].kind == PO_SLOT && ins->ops[1].slot == slot &&
		    ins->ops[2].kind == PO_SLOT && ins->ops[2].slot >= fn->nslots)
			stride = (int64_t)fn->consts[ins->ops[2].slot - fn->nslots];
	}
	return writes == 1 ? stride : 0;
}

/* An access of the leader's block at `offset` from the leader's base, in this iteration (*iter = 0) or,
 * when the block is a loop stepping the base by `stride`, a later one (the leader itself may be its
 * own member there).  -1 when there is none. */
static int find_member(const struct ptx_function *fn, const bool *start, const struct ptx_sass *map,
		       const int *nsass, int i, int64_t offset, int64_t stride, int *iter)
{
	int b0, b1;
	block_of(fn, start, i, &b0, &b1);
	for (int j = b0; j < b1; j++) {
		bool free_now = j != i && map[j].kind == SASS_NONE && nsass[j] == 0;
		if ((j != i && !free_now) || (j != i && !mergeable(fn, start, i, j)))
			continue;
		int64_t d = offset - mem_operand(&fn->code[j])->offset;
		if (d == 0 && j != i) {
			*iter = 0;
			return j;
		}
		if (stride != 0 && d != 0 && d % stride == 0 && d / stride >= 1 && d / stride < 16) {
			*iter = (int)(d / stride);
			return j;
		}
	}
	return -1;
}

/* Leader i carries `width` bytes: find the neighbours at consecutive offsets, preferring the layout
 * where the leader is the lowest address.  Returns false when no layout has every member. */
static bool claim_members(const struct ptx_function *fn, const bool *start, struct ptx_sass *map, const int *nsass,
			  int i, unsigned width)
{
	unsigned s = access_size(&fn->code[i]), k = width / s;
	int64_t off = mem_operand(&fn->code[i])->offset;
	int b0, b1;
	block_of(fn, start, i, &b0, &b1);
	int64_t stride = loop_stride(fn, b0, b1, mem_operand(&fn->code[i])->slot);
	int members[16], span = 1;
	for (unsigned lead = 0; lead < k; lead++) {
		int64_t first = off - (int64_t)(lead * s);
		bool ok = true;
		span = 1;
		for (unsigned m = 0; m < k && ok; m++) {
			int iter = 0;
			members[m] = m == lead ? i : find_member(fn, start, map, nsass, i, first + (int64_t)(m * s), stride, &iter);
			ok = members[m] >= 0;
			span = iter + 1 > span ? iter + 1 : span;
		}
		if (!ok)
			continue;
		for (unsigned m = 0; m < k; m++)
			if (members[m] != i)
				map[members[m]] = (struct ptx_sass){.kind = SASS_MEMBER, .width = (uint8_t)width, .span = 1};
		map[i].kind = SASS_VECTOR;
		map[i].delta = (int16_t)(lead * s);
		map[i].span = (uint8_t)span;
		return true;
	}
	return false;
}

struct map_ctx {
	const struct ptx_function *fn;
	const struct sass_func *sf;
	struct ptx_sass *map;
	int *nsass;      /* SASS accesses attributed to each PTX instruction */
	uint8_t *width;  /* their width when all agree, 0 when they differ */
	int unmapped;
	char *problem;
	size_t n;
};

static void note_problem(struct map_ctx *c, int count, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void note_problem(struct map_ctx *c, int count, const char *fmt, ...)
{
	if (c->unmapped == 0 && c->problem && c->n) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(c->problem, c->n, fmt, ap);
		va_end(ap);
	}
	c->unmapped += count;
}

/* Attribute each SASS access to the PTX ld/st on its line. */
static void attribute(struct map_ctx *c)
{
	for (int a = 0; a < c->sf->nacc; a++) {
		const struct sass_access *acc = &c->sf->acc[a];
		int i = insn_at(c->fn, acc->line);
		if (i < 0 || !sass_ptx_ldst(&c->fn->code[i]) || (c->fn->code[i].op == OP_ST) != acc->store) {
			note_problem(c, 1, "%s: a SASS access attributed to PTX line %d, which is no matching ld/st",
				     c->fn->name, acc->line);
			continue;
		}
		c->width[i] = c->nsass[i] == 0 || c->width[i] == acc->width ? acc->width : 0;
		c->nsass[i]++;
	}
}

static void classify(struct map_ctx *c, const bool *start)
{
	const struct ptx_function *fn = c->fn;
	for (int i = 0; i < fn->ncode; i++) {
		int n = c->nsass[i];
		if (n == 0)
			continue;
		unsigned s = access_size(&fn->code[i]), w = c->width[i];
		struct ptx_sass *m = &c->map[i];
		m->span = 1;
		m->count = (uint8_t)(n < 255 ? n : 255);
		m->width = (uint8_t)w;
		if (w == s) {
			m->kind = SASS_SAME;
		} else if (w > s && w % s == 0 && w <= 16 && w / s <= 16) {
			if (!claim_members(fn, start, c->map, c->nsass, i, w)) {
				m->kind = SASS_NONE;
				note_problem(c, n, "%s: PTX line %d became a wider SASS access whose other parts were not "
					     "found", fn->name, fn->code[i].line);
			}
		} else if (w && w < s && s % w == 0) {
			m->kind = SASS_SPLIT;
		} else {
			m->kind = SASS_NONE;
			note_problem(c, n, "%s: PTX line %d became SASS accesses of mixed widths", fn->name,
				    fn->code[i].line);
		}
	}
	for (int i = 0; i < fn->ncode; i++)
		if (sass_ptx_ldst(&fn->code[i]) && c->map[i].kind == SASS_NONE && c->nsass[i] == 0)
			c->map[i] = (struct ptx_sass){.kind = SASS_REMOVED};
}

/* How many copies of the block [b0, b1) ptxas made (unrolled a loop, duplicated a path), as most of its
 * ld/st tell: n copies of a plain access, n vectors covering `span` iterations each, n parts of a split. */
static unsigned block_copies(const struct map_ctx *c, int b0, int b1)
{
	unsigned votes[17] = {0}, best = 1;
	for (int i = b0; i < b1; i++) {
		const struct ptx_sass *m = &c->map[i];
		unsigned u = 0;
		if (m->kind == SASS_SAME)
			u = m->count;
		else if (m->kind == SASS_VECTOR)
			u = (unsigned)m->count * m->span;
		else if (m->kind == SASS_SPLIT)
			u = m->count * m->width / access_size(&c->fn->code[i]);
		if (u >= 1 && u <= 16)
			votes[u]++;
	}
	for (unsigned u = 2; u <= 16; u++)
		if (votes[u] > votes[best])
			best = u;
	return best;
}

/* Every SASS instruction weighs on the PTX instruction of its line (or the next one, for lines that are
 * labels, braces or directives), divided by the copies of its block: an unrolled loop body executes
 * once per `copies` iterations of the PTX loop. */
static void weigh(struct map_ctx *c, const bool *start)
{
	const struct ptx_function *fn = c->fn;
	uint32_t *n = gl_xcalloc((size_t)fn->ncode, sizeof *n);
	for (int k = 0; k < c->sf->ninsn; k++) {
		int i = insn_at_or_after(fn, c->sf->lines[k]);
		n[i < fn->ncode ? i : fn->ncode - 1]++;
	}
	for (int b0 = 0, b1; b0 < fn->ncode; b0 = b1) {
		block_of(fn, start, b0, &b0, &b1);
		unsigned copies = block_copies(c, b0, b1);
		for (int i = b0; i < b1; i++)
			c->map[i].weight = (n[i] * PTX_SASS_WEIGHT_ONE + copies / 2) / copies;
	}
	free(n);
}

static int map_function(struct ptx_function *fn, const struct sass_func *sf, char *problem, size_t n)
{
	if (fn->ncode == 0)
		return 0;
	struct map_ctx c = {fn, sf, gl_xcalloc((size_t)fn->ncode, sizeof *c.map),
			    gl_xcalloc((size_t)fn->ncode, sizeof *c.nsass), gl_xcalloc((size_t)fn->ncode, 1), 0,
			    problem, n};
	if (!sf->ptx_lines && sf->nacc) {
		note_problem(&c, sf->nacc, "%s: the SASS has no PTX line info (ptxas -lineinfo, nvdisasm -gp)", fn->name);
		free(c.map);
	} else {
		bool *start = block_starts(fn);
		attribute(&c);
		classify(&c, start);
		weigh(&c, start);
		free(start);
		free(fn->sass);
		fn->sass = c.map;
	}
	free(c.nsass);
	free(c.width);
	return c.unmapped;
}

void sass_map_apply(struct ptx_module *m, const struct sass_text *s, int *unmapped, char *problem, size_t n)
{
	int total = 0, mapped = 0;
	if (problem && n)
		problem[0] = '\0';
	for (int f = 0; f < m->nfuncs; f++) {
		const struct sass_func *sf = sass_find(s, m->funcs[f].name);
		if (!sf)
			continue;
		m->funcs[f].sass_regs = sf->regs;
		int u = map_function(&m->funcs[f], sf, total ? NULL : problem, n);
		total += u;
		mapped += m->funcs[f].sass != NULL;
	}
	if (unmapped)
		*unmapped = total;
	const char *tool = s->tool[0] ? s->tool : "ptxas";
	if (!mapped)
		snprintf(m->counts_mode, sizeof m->counts_mode, "PTX-level (the SASS holds none of the module's functions)");
	else if (total)
		snprintf(m->counts_mode, sizeof m->counts_mode, "SASS-mapped (%s; %d access%s counted as PTX)", tool,
			 total, total == 1 ? "" : "es");
	else
		snprintf(m->counts_mode, sizeof m->counts_mode, "SASS-mapped (%s)", tool);
}

void sass_map_ptx_level(struct ptx_module *m, const char *why)
{
	for (int f = 0; f < m->nfuncs; f++) {
		free(m->funcs[f].sass);
		m->funcs[f].sass = NULL;
	}
	snprintf(m->counts_mode, sizeof m->counts_mode, "PTX-level (%s)", why);
}

static int width_index(unsigned w)
{
	switch (w) {
	case 1: return 0;
	case 2: return 1;
	case 4: return 2;
	case 8: return 3;
	default: return 4;
	}
}

void sass_counts_of_sass(const struct sass_func *f, struct sass_counts *c)
{
	memset(c, 0, sizeof *c);
	for (int a = 0; a < f->nacc; a++)
		c->n[f->acc[a].space][f->acc[a].store][width_index(f->acc[a].width)]++;
}

void sass_counts_of_map(const struct ptx_function *fn, struct sass_counts *c)
{
	memset(c, 0, sizeof *c);
	for (int i = 0; i < fn->ncode; i++) {
		const struct ptx_insn *ins = &fn->code[i];
		if (!sass_ptx_ldst(ins))
			continue;
		const struct ptx_sass *m = fn->sass ? &fn->sass[i] : NULL;
		unsigned *row = c->n[space_of(ins)][ins->op == OP_ST];
		if (!m || m->kind == SASS_NONE)
			row[width_index(access_size(ins))]++;
		else if (m->kind == SASS_SAME || m->kind == SASS_VECTOR || m->kind == SASS_SPLIT)
			row[width_index(m->width)] += m->count;
	}
}

void gl_sim_apply_sass(struct ptx_module *m, const char *sass_text, const char *why)
{
	struct sass_text s;
	struct gl_err err = {0};
	if (!sass_text || sass_parse(sass_text, &s, &err) != GL_OK) {
		sass_map_ptx_level(m, why ? why : "no SASS");
		return;
	}
	sass_map_apply(m, &s, NULL, NULL, 0);
	sass_text_free(&s);
}
