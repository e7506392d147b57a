/* sim_call.c — `call`: device printf (the CUDA runtime's vprintf(format, args)) and a failed device
 * assert (__assertfail) are carried out here; calls to other non-inlined .func bodies are reported as
 * unsupported. */
#include <stdio.h>

#include "sim_exec.h"

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

/* Fetch the next argument of `size` bytes from the packed argument buffer (each aligned to its size). */
static int next_arg(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, int lane, uint64_t *cursor,
		    unsigned size, uint64_t *out)
{
	*cursor = (*cursor + size - 1) / size * size;
	enum ptx_space sp = PS_GENERIC;
	uint8_t *p = sim_translate(cta, w, lane, &sp, *cursor, size, false, ins);
	if (!p)
		return -1;
	*out = 0;
	memcpy(out, p, size);
	*cursor += size;
	return 0;
}

/* Format one conversion `spec` (like "%5.2f") with the next argument. */
static int format_one(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, int lane, const char *spec,
		      uint64_t *cursor, struct gl_str *out)
{
	size_t n = strlen(spec);
	char conv = spec[n - 1];
	bool wide = strstr(spec, "l") != NULL || conv == 'p';
	uint64_t v;
	switch (conv) {
	case 'd': case 'i': case 'u': case 'x': case 'X': case 'o': case 'c': case 'p':
		if (next_arg(cta, w, ins, lane, cursor, wide ? 8 : 4, &v))
			return -1;
		if (conv == 'p')
			gl_str_addf(out, "0x%llx", (unsigned long long)v);
		else if (wide)
			gl_str_addf(out, spec, (long long)v);
		else
			gl_str_addf(out, spec, (int)(uint32_t)v);
		return 0;
	case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A':
		if (next_arg(cta, w, ins, lane, cursor, 8, &v))
			return -1;
		gl_str_addf(out, spec, sim_f64(v));
		return 0;
	case 's': {
		char s[512];
		if (next_arg(cta, w, ins, lane, cursor, 8, &v) || read_string(cta, w, ins, lane, v, s, sizeof s))
			return -1;
		gl_str_addf(out, spec, s);
		return 0;
	}
	default:
		gl_str_add(out, spec);
		return 0;
	}
}

static int do_printf(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, int lane, uint64_t fmt_addr,
		     uint64_t args)
{
	char fmt[1024];
	if (read_string(cta, w, ins, lane, fmt_addr, fmt, sizeof fmt))
		return -1;
	for (const char *p = fmt; *p;) {
		if (*p != '%') {
			const char *q = strchr(p, '%');
			size_t n = q ? (size_t)(q - p) : strlen(p);
			gl_str_addf(cta->printf_out, "%.*s", (int)n, p);
			p += n;
			continue;
		}
		if (p[1] == '%') {
			gl_str_add(cta->printf_out, "%");
			p += 2;
			continue;
		}
		size_t n = 1 + strspn(p + 1, "-+ #0123456789.hlLqjzt");
		if (!p[n]) /* a lone trailing % */
			break;
		char spec[64];
		snprintf(spec, sizeof spec, "%.*s", (int)(n + 1 < sizeof spec ? n + 1 : sizeof spec - 1), p);
		if (format_one(cta, w, ins, lane, spec, &args, cta->printf_out))
			return -1;
		p += n + 1;
	}
	return 0;
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
		gl_str_addf(cta->printf_out, "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.\n",
			    file, (unsigned)line, func, cta->ctaid[0], cta->ctaid[1], cta->ctaid[2], t % L->block[0],
			    t / L->block[0] % L->block[1], t / (L->block[0] * L->block[1]), msg);
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
	if (fn && strcmp(fn->name, "__assertfail") == 0)
		return mask ? do_assert(cta, w, ins, args, mask) : 0;
	if (!fn || strcmp(fn->name, "vprintf") != 0 || !args || args->nvec != 2) {
		char what[192];
		if (fn)
			snprintf(what, sizeof what, "calls to device functions that were not inlined (call to %s; "
				 "__noinline__, recursion or -rdc code)", fn->name);
		else
			snprintf(what, sizeof what, "indirect calls (call through a function pointer)");
		return sim_unsupported(cta, w, ins, what);
	}
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
