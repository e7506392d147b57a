/* sim_jit_run.c — the interpreter's side of the compiled engine: which engine a launch gets, and one
 * turn of a converged warp through the compiled function (run_warp in sim_cta.c calls it). */
#include <stdio.h>
#include <string.h>

#include "sim_internal.h"
#include "sim_jit.h"

int gl_sim_engine_parse(const char *name)
{
	static const char *const names[] = {[GL_ENGINE_AUTO] = "auto", [GL_ENGINE_INTERP] = "interp",
					    [GL_ENGINE_COMPILED] = "compiled"};
	for (int i = 0; i < (int)(sizeof names / sizeof *names); i++)
		if (strcmp(name, names[i]) == 0)
			return i;
	return -1;
}

/* Load the compiled kernel when the launch's engine asks for it; say in `res` which engine runs, and
 * why the interpreter does when compiled was asked for or chosen but could not be had. */
void sim_jit_choose(struct sim_launch *L, long ctas, struct gl_sim_result *res)
{
	snprintf(res->engine, sizeof res->engine, "interp");
	int engine = L->opts->engine;
	if (engine == GL_ENGINE_INTERP)
		return;
	/* work: threads x static instructions, a deliberately low estimate (loops run more), so that the
	 * launches of the tests and lessons, which must answer at once, never wait for a compile */
	double work = (double)ctas * L->threads_per_cta * L->fn->ncode;
	if (engine == GL_ENGINE_AUTO && work < (double)GL_SIM_JIT_AUTO_WORK)
		return; /* a compile would cost more than it saves */
	char why[sizeof res->engine_note - 40];
	if (L->calls || L->cooperative) { /* a warp may leave the kernel's code, or wait on other CTAs */
		snprintf(res->engine_note, sizeof res->engine_note, "the interpreter ran kernel %s: %s", L->fn->name,
			 L->calls ? "it makes a call to a device function that was not inlined (the compiled engine "
				    "runs one function)" : "a cooperative launch (grid.sync) runs its CTAs in turns, which only "
				    "the interpreter does");
		return;
	}
	if (sim_jit_load(L->m, L->fn, &L->jit, why, sizeof why) != 0) {
		snprintf(res->engine_note, sizeof res->engine_note, "the interpreter ran kernel %s: %s", L->fn->name, why);
		return;
	}
	snprintf(res->engine, sizeof res->engine, "compiled");
	res->jit_compile_seconds = L->jit->compile_seconds;
	res->jit_native = L->jit->native;
	res->jit_ncode = L->jit->ncode;
}

static int exec_one(void *cta, void *w, int pc, uint32_t mask)
{
	struct sim_cta *c = cta;
	return sim_exec(c, w, &c->L->fn->code[pc], mask);
}

int sim_jit_turn(struct sim_cta *cta, struct sim_warp *w, uint64_t *pending, unsigned *loops,
		 const struct ptx_insn **last)
{
	struct gl_sim_counters *c = &cta->c;
	struct sim_jit_warp W = {
		.r = w->r, .pc = &w->pc, .active = &w->active, .live = &w->live,
		.inst = &c->inst, .thread_inst = &c->thread_inst, .sass_inst = &c->sass_inst,
		.sass_thread_inst = &c->sass_thread_inst, .executed = &w->executed,
		.ffma = &c->ffma, .fadd = &c->fadd, .fmul = &c->fmul,
		.pending = *pending, .loops = *loops, .multiwarp = cta->L->warps_per_cta > 1, .last = -1,
		.cta = cta, .w = w, .exec = exec_one, .mem = sim_jit_mem,
	};
	int rc = cta->L->jit->run(&W);
	*pending = W.pending;
	*loops = W.loops;
	if (W.last >= 0)
		*last = &cta->L->fn->code[W.last];
	return rc;
}
