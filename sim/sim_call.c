/* sim_call.c — `call`: device printf (the CUDA runtime's vprintf(format, args)) and a failed device
 * assert (__assertfail) are carried out here; calls to .func bodies of the module (direct or through a
 * function pointer) push a frame (sim_frame.c).  Which callee is a built-in was decided once, by the
 * parser, from its declaration (ptx_function.builtin): a function of the module that happens to be
 * named vprintf is an ordinary call. */
#include <stdio.h>

#include "sim_exec.h"
#include "sim_printf.h"

/* Read a NUL-terminated string of at most `max` bytes at a generic address. */
static int read_string(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, int lane, uint64_t addr,
		       char *out, size_t max)
{
	for (size_t i = 0; i + 1 < max; i++) {
		enum ptx_space sp = PS_GENERIC;
		uint8_t *p = sim_translate(cta, w, lane, &sp, addr + i, 1, false, ins);
		if (!p)
			return -1;
		out[i] = (char)*p;
		if (!*p)
			return 0;
	}
	out[max - 1] = '\0';
	return 0;
}

/* The formatter reads arguments and %s strings through the sanitizer's checked translation. */
struct printf_ctx {
	struct sim_cta *cta;
	struct sim_warp *w;
	const struct ptx_insn *ins;
	int lane;
};

static int printf_read(void *ctx, uint64_t addr, unsigned size, void *out)
{
	struct printf_ctx *c = ctx;
	enum ptx_space sp = PS_GENERIC;
	uint8_t *p = sim_translate(c->cta, c->w, c->lane, &sp, addr, size, false, c->ins);
	if (!p)
		return -1;
	memcpy(out, p, size);
	return 0;
}

/* One thread's printf: a record in the CTA's printf buffer, or a dropped one when it does not fit. */
static int do_printf(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, int lane, uint64_t fmt_addr,
		     uint64_t args)
{
	char fmt[4096];
	if (read_string(cta, w, ins, lane, fmt_addr, fmt, sizeof fmt))
		return -1;
	struct printf_ctx c = {cta, w, ins, lane};
	struct sim_printf_reader rd = {printf_read, &c};
	struct gl_str text = {0};
	int rc = sim_printf_format(fmt, args, &rd, sim_printf_room(cta->pf), &text, &cta->pf->note);
	if (rc == 0)
		sim_printf_record(cta->pf, text.buf ? text.buf : "", text.len);
	else if (rc == 1)
		sim_printf_drop(cta->pf);
	gl_str_free(&text);
	return rc < 0 ? -1 : 0;
}

/* One call argument of `size` bytes: the argument list holds the local address of each .param. */
static int call_arg(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, const struct ptx_operand *args,
		    int k, int lane, unsigned size, uint64_t *out)
{
	enum ptx_space sp = PS_LOCAL;
	uint8_t *p = sim_translate(cta, w, lane, &sp, sim_src(cta, w, args->vec[k])[lane], size, false, ins);
	if (!p)
		return -1;
	*out = 0;
	memcpy(out, p, size);
	return 0;
}

/* __assertfail(message, file, line, function, charSize): what a failed device assert() calls.  Each
 * failing thread prints CUDA's line to the printf output; the kernel stops like a trap. */
static int do_assert(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, const struct ptx_operand *args,
		     uint32_t mask)
{
	if (!args || args->nvec < 4)
		return sim_unsupported(cta, w, ins, "__assertfail with an unexpected argument list");
	const struct sim_launch *L = cta->L;
	char msg[256] = "?", file[256] = "?", func[256] = "?";
	uint64_t line = 0;
	FOR_LANES(mask, l) {
		uint64_t pm, pf, pn;
		if (call_arg(cta, w, ins, args, 0, (int)l, 8, &pm) || call_arg(cta, w, ins, args, 1, (int)l, 8, &pf) ||
		    call_arg(cta, w, ins, args, 2, (int)l, 4, &line) || call_arg(cta, w, ins, args, 3, (int)l, 8, &pn) ||
		    read_string(cta, w, ins, (int)l, pm, msg, sizeof msg) ||
		    read_string(cta, w, ins, (int)l, pf, file, sizeof file) ||
		    read_string(cta, w, ins, (int)l, pn, func, sizeof func))
			return -1;
		unsigned t = w->id * 32 + l;
		char text[1024];
		int n = snprintf(text, sizeof text, "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` "
				 "failed.\n", file, (unsigned)line, func, cta->ctaid[0], cta->ctaid[1], cta->ctaid[2],
				 t % L->block[0], t / L->block[0] % L->block[1], t / (L->block[0] * L->block[1]), msg);
		sim_printf_record(cta->pf, text, n < 0 ? 0 : (size_t)n < sizeof text ? (size_t)n : sizeof text - 1);
	}
	sim_finding(cta, ins, __builtin_ctz(mask), "assert", PS_NONE, 0, 0, false, "%s:%u: %s: Assertion `%s` failed",
		    file, (unsigned)line, func, msg);
	return -1;
}

int sim_exec_call(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask)
{
	const struct ptx_operand *target = NULL, *args = NULL, *ret = NULL;
	for (int i = 0; i < ins->nops; i++) {
		if (ins->ops[i].kind == PO_FUNC)
			target = &ins->ops[i];
		else if (ins->ops[i].kind == PO_VEC)
			*(target ? &args : &ret) = &ins->ops[i];
	}
	const struct ptx_function *fn = target ? &cta->L->m->funcs[target->offset] : NULL;
	if (fn && fn->builtin == PTX_BUILTIN_ASSERTFAIL)
		return mask ? do_assert(cta, w, ins, args, mask) : 0;
	if (!fn || fn->builtin != PTX_BUILTIN_VPRINTF) /* the parser decided (ptx.h, ptx_function.builtin) */
		return sim_frame_call(cta, w, ins, mask);
	if (!args || args->nvec != 2)
		return sim_unsupported(cta, w, ins, "a call to vprintf whose arguments are not the (format, "
				       "arguments) pair its declaration takes");
	FOR_LANES(mask, l) {
		uint64_t fmt_addr = 0, arg_addr = 0, off0 = sim_src(cta, w, args->vec[0])[l],
			 off1 = sim_src(cta, w, args->vec[1])[l];
		enum ptx_space sp = PS_LOCAL;
		uint8_t *p0 = sim_translate(cta, w, (int)l, &sp, off0, 8, false, ins);
		sp = PS_LOCAL;
		uint8_t *p1 = sim_translate(cta, w, (int)l, &sp, off1, 8, false, ins);
		if (!p0 || !p1)
			continue;
		memcpy(&fmt_addr, p0, 8);
		memcpy(&arg_addr, p1, 8);
		do_printf(cta, w, ins, (int)l, fmt_addr, arg_addr);
		if (ret && ret->nvec == 1) {
			sp = PS_LOCAL;
			uint8_t *pr = sim_translate(cta, w, (int)l, &sp, sim_src(cta, w, ret->vec[0])[l], 4, true, ins);
			if (pr)
				memset(pr, 0, 4);
		}
	}
	return 0;
}
