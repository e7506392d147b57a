/* sim_frame.c — calls to .func bodies (`call` that nvcc did not inline: __noinline__, recursion,
 * function pointers): per-lane call stacks, frames in local memory, parameters and return values by
 * the PTX ABI, and the choice of which lanes of a diverged warp run next.
 *
 * A thread's local memory is its kernel's frame, then the frames of its calls.  A call pushes the
 * callee's frame: its .param parameters, then its return values, then its .local variables (the
 * __local_depot that %SPL/%SP point at, and the .param variables of the calls it makes), rounded up to
 * 16 bytes.  Against the stack limit (L->stack_size, CUDA's cudaLimitStackSize, 1 KiB by default) a
 * call charges what the device's stack holds: the callee's .local variables rounded to 16, plus
 * SIM_CALL_OVERHEAD bytes that stand for the return address and the registers ptxas saves (the real
 * amount depends on ptxas's register allocation, which PTX does not show); parameters and return
 * values travel in registers under the ABI and are not charged.  A call that would pass the limit is a
 * stack-overflow finding and stops the launch, as the device stops the kernel.
 *
 * Caller side: st.param writes the call-site .param variables (in the caller's frame), `call` copies
 * them into the callee's parameters, ret copies the callee's return values into the caller's return
 * .param variables, and ld.param reads them.  These moves stand for register passing: they are not
 * memory traffic (PM_CALLPARAM).
 *
 * Lanes run together only when they are at the same call depth, frame, function and PC, since they share
 * one register file per depth (a column each) and one set of frame constants.  Among the live lanes,
 * the deepest call runs first, so the lanes that called return before the lanes that did not go on:
 * a warp reconverges after a call as it does after an if (PTX ISA: threads of a warp may diverge and
 * reconverge anywhere; calls do not change that). */
#include <stdio.h>
#include <stdlib.h>

#include "sim_exec.h"

static uint8_t *lane_local(const struct sim_cta *cta, const struct sim_warp *w, uint32_t lane)
{
	return cta->local + (size_t)(w->id * 32 + lane) * cta->L->local_per_thread;
}

/* The warp's call stacks, set up at its first call in this CTA (kept across CTAs of the worker). */
static struct sim_calls *calls_of(struct sim_cta *cta, struct sim_warp *w)
{
	if (w->calls)
		return w->calls;
	const struct sim_launch *L = cta->L;
	if (!cta->calls)
		cta->calls = gl_xcalloc(L->warps_per_cta, sizeof *cta->calls);
	struct sim_calls *c = cta->calls[w->id];
	if (!c) {
		c = gl_xcalloc(1, sizeof *c);
		c->max_depth = (unsigned)(L->stack_size / SIM_CALL_OVERHEAD);
		c->regs = gl_xcalloc((size_t)c->max_depth + 1, sizeof *c->regs);
		c->frames = gl_xcalloc(((size_t)c->max_depth + 1) * 32, sizeof *c->frames);
		cta->calls[w->id] = c;
	}
	for (int l = 0; l < 32; l++) {
		c->fn[l] = w->fi;
		c->sp[l] = 0;
		c->used[l] = 0;
		c->depth[l] = 0;
	}
	w->calls = c;
	return c;
}

/* Registers of a new activation start at zero (deterministic); its special registers are the thread's. */
static void fresh_registers(const struct sim_cta *cta, const struct sim_warp *w, uint64_t *r,
			    const struct ptx_function *f, uint32_t l)
{
	for (int s = 0; s < f->first_special; s++)
		r[(size_t)s * 32 + l] = 0;
	const uint64_t *sr = w->r0 + (size_t)cta->L->fn->first_special * 32;
	for (int k = 0; k < SR_COUNT; k++)
		r[(size_t)(f->first_special + k) * 32 + l] = sr[(size_t)k * 32 + l];
}

/* The callee of one lane, or -1 after a finding. */
static int callee_of(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins,
		     const struct ptx_operand *target, uint32_t l)
{
	const struct sim_launch *L = cta->L;
	int64_t k = target->offset;
	if (target->kind != PO_FUNC) {
		uint64_t a = sim_src(cta, w, target->slot)[l];
		k = (int64_t)((a - PTX_FUNC_WINDOW) / 16);
		if (a < PTX_FUNC_WINDOW || (a - PTX_FUNC_WINDOW) % 16 || k >= L->m->nfuncs) {
			sim_finding(cta, ins, (int)l, "invalid-call", PS_NONE, a, 0, false,
				    "indirect call through 0x%llx, which is not the address of a function of this module",
				    (unsigned long long)a);
			return -1;
		}
	}
	int def = L->definition[k];
	const struct ptx_function *f = def >= 0 ? &L->m->funcs[def] : NULL;
	if (f && f->is_entry) { /* PTX calls .func bodies only; a kernel's frame is not a call's (max_slots) */
		sim_finding(cta, ins, (int)l, "invalid-call", PS_NONE, 0, 0, false,
			    "a call to %s, which is a kernel (.entry): only a .func can be called", f->name);
		return -1;
	}
	if (!f || !f->code) {
		char what[512];
		if (f && f->error)
			snprintf(what, sizeof what, "a call to %s, whose body cannot run: %s", L->m->funcs[k].name, f->error);
		else
			snprintf(what, sizeof what, "a call to %s, which has no body in this module (a function of "
				 "another translation unit needs nvcc -rdc and device linking)", L->m->funcs[k].name);
		sim_unsupported(cta, w, ins, what);
		return -1;
	}
	return def;
}

int sim_frame_call(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask)
{
	const struct ptx_operand *target = NULL, *args = NULL, *ret = NULL;
	for (int i = 0; i < ins->nops; i++) {
		const struct ptx_operand *o = &ins->ops[i];
		if (!target && (o->kind == PO_FUNC || o->kind == PO_SLOT))
			target = o;
		else if (o->kind == PO_VEC)
			*(target ? &args : &ret) = o;
	}
	if (!mask)
		return 0;
	if (!target)
		return sim_unsupported(cta, w, ins, "a call without a target");
	const struct sim_launch *L = cta->L;
	struct sim_calls *c = calls_of(cta, w);
	unsigned depth = (unsigned)w->depth + 1;
	uint64_t sp = w->depth == 0 ? L->stack_base : w->sp + L->frame_size[w->fi];
	if (depth <= c->max_depth && !c->regs[depth])
		c->regs[depth] = gl_xmalloc((size_t)L->max_slots * 32 * sizeof **c->regs);
	int nargs = args ? args->nvec : 0, nrets = ret ? ret->nvec : 0;
	FOR_LANES(mask, l) {
		int fi = callee_of(cta, w, ins, target, l);
		if (fi < 0)
			return -1;
		const struct ptx_function *f = &L->m->funcs[fi];
		if (nargs != f->nparams || nrets != f->nrets || nrets > SIM_MAX_RETS) {
			sim_finding(cta, ins, (int)l, "invalid-call", PS_NONE, 0, 0, false,
				    "the call to %s passes %d argument%s and %d return value%s; it takes %d and %d", f->name,
				    nargs, nargs == 1 ? "" : "s", nrets, nrets == 1 ? "" : "s", f->nparams, f->nrets);
			return -1;
		}
		uint64_t used = (uint64_t)c->used[l] + L->stack_cost[fi];
		if (depth > c->max_depth || used > L->stack_size) {
			sim_finding(cta, ins, (int)l, "stack-overflow", PS_LOCAL, sp, 0, false,
				    "stack overflow: the call to %s at depth %u needs %llu bytes of call stack, more than "
				    "the %llu each thread has (%s; raise it with --stack-size)", f->name, depth,
				    (unsigned long long)used, (unsigned long long)L->stack_size,
				    L->stack_size == GL_SIM_STACK_SIZE ? "CUDA's default cudaLimitStackSize" : "--stack-size");
			return -1;
		}
		uint8_t *base = lane_local(cta, w, l);
		for (int k = 0; k < nargs; k++) { /* the caller's .param argument into the callee's parameter */
			uint64_t from = sim_src(cta, w, args->vec[k])[l];
			if (from + f->params[k].size > L->local_per_thread)
				return sim_unsupported(cta, w, ins, "a call argument that is not a .param variable");
			memmove(base + sp + f->params[k].offset, base + from, f->params[k].size);
		}
		struct sim_lane_frame *fr = &c->frames[(size_t)depth * 32 + l];
		fr->fn = c->fn[l];
		fr->ret_pc = w->pc + 1;
		fr->sp = w->sp;
		fr->used = c->used[l];
		fr->nret = (uint32_t)nrets;
		for (int k = 0; k < nrets; k++)
			fr->ret_addr[k] = sim_src(cta, w, ret->vec[k])[l];
		c->depth[l] = (uint16_t)depth;
		c->fn[l] = fi;
		c->sp[l] = (uint32_t)sp;
		c->used[l] = (uint32_t)used;
		w->lane_pc[l] = 0;
		fresh_registers(cta, w, c->regs[depth], f, l);
	}
	w->active &= ~mask;
	sim_reschedule(w, w->pc + 1);
	return 1;
}

int sim_frame_ret(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask)
{
	struct sim_calls *c = w->calls;
	const struct ptx_function *f = w->fn;
	size_t depth = (size_t)w->depth;
	FOR_LANES(mask, l) {
		const struct sim_lane_frame *fr = &c->frames[depth * 32 + l];
		uint8_t *base = lane_local(cta, w, l);
		for (uint32_t k = 0; k < fr->nret; k++) { /* the callee's return value into the caller's .param */
			if (fr->ret_addr[k] + f->rets[k].size > cta->L->local_per_thread)
				return sim_unsupported(cta, w, ins, "a return value that is not a .param variable");
			memmove(base + fr->ret_addr[k], base + c->sp[l] + f->rets[k].offset, f->rets[k].size);
		}
		c->depth[l] = (uint16_t)(depth - 1);
		c->fn[l] = fr->fn;
		c->sp[l] = fr->sp;
		c->used[l] = fr->used;
		w->lane_pc[l] = fr->ret_pc;
	}
	w->active &= ~mask;
	sim_reschedule(w, w->pc + 1);
	return 1;
}

/* Whether lane a runs before lane b: deeper call, then lower frame, function and PC. */
static bool runs_before(const struct sim_warp *w, uint32_t a, uint32_t b)
{
	const struct sim_calls *c = w->calls;
	if (c->depth[a] != c->depth[b])
		return c->depth[a] > c->depth[b];
	if (c->sp[a] != c->sp[b])
		return c->sp[a] < c->sp[b];
	if (c->fn[a] != c->fn[b])
		return c->fn[a] < c->fn[b];
	return w->lane_pc[a] < w->lane_pc[b];
}

void sim_frame_pick(struct sim_warp *w)
{
	const struct sim_calls *c = w->calls;
	uint32_t live = w->live, best = 32;
	FOR_LANES(live, l)
		if (best == 32 || runs_before(w, l, best))
			best = l;
	if (best == 32) {
		w->active = 0;
		return;
	}
	uint32_t at = 0;
	FOR_LANES(live, l)
		if (!runs_before(w, l, best) && !runs_before(w, best, l))
			at |= 1u << l;
	w->pc = w->lane_pc[best];
	w->active = at;
	if (c->depth[best] != w->depth || c->sp[best] != w->sp || c->fn[best] != w->fi) {
		w->depth = c->depth[best];
		w->sp = c->sp[best];
		w->fi = c->fn[best];
		w->reload = true;
	}
}

/* The constant slots of function fi for a frame at sp: its frame addresses moved to sp. */
static const uint64_t *frame_konst(struct sim_cta *cta, int fi, uint32_t sp)
{
	const struct sim_launch *L = cta->L;
	size_t per_fn = (L->local_per_thread - L->stack_base) / 16 + 1;
	if (!cta->frame_konst)
		cta->frame_konst = gl_xcalloc((size_t)L->m->nfuncs * per_fn, sizeof *cta->frame_konst);
	const uint64_t **slot = &cta->frame_konst[(size_t)fi * per_fn + (sp - L->stack_base) / 16];
	if (!*slot) {
		const struct ptx_function *f = &L->m->funcs[fi];
		uint64_t *k = gl_xmalloc((size_t)(f->nconsts ? f->nconsts : 1) * 32 * sizeof *k);
		for (int i = 0; i < f->nconsts; i++) {
			uint64_t v = f->consts[i] + (f->const_frame[i] ? sp : 0);
			for (int l = 0; l < 32; l++)
				k[(size_t)i * 32 + l] = v;
		}
		*slot = k;
	}
	return *slot;
}

int sim_frame_switch(struct sim_cta *cta, struct sim_warp *w)
{
	const struct sim_launch *L = cta->L;
	w->reload = false;
	w->fn = &L->m->funcs[w->fi];
	w->nslots = w->fn->nslots;
	if (w->depth == 0) {
		w->r = w->r0;
		w->konst = L->konst;
		return 0;
	}
	w->r = w->calls->regs[w->depth];
	w->konst = frame_konst(cta, w->fi, w->sp);
	return 0;
}

void sim_frame_release(struct sim_cta *cta)
{
	const struct sim_launch *L = cta->L;
	for (unsigned i = 0; cta->calls && i < L->warps_per_cta; i++) {
		struct sim_calls *c = cta->calls[i];
		if (!c)
			continue;
		for (unsigned d = 0; d <= c->max_depth; d++)
			free(c->regs[d]);
		free(c->regs);
		free(c->frames);
		free(c);
	}
	free(cta->calls);
	size_t n = cta->frame_konst ? (size_t)L->m->nfuncs * ((L->local_per_thread - L->stack_base) / 16 + 1) : 0;
	for (size_t i = 0; i < n; i++)
		free((void *)cta->frame_konst[i]);
	free(cta->frame_konst);
	cta->calls = NULL;
	cta->frame_konst = NULL;
}
