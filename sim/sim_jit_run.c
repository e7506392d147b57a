/* sim_jit_run.c — the interpreter's side of the compiled engine: which engine a launch gets (auto's
 * decision from a measured CTA included), and one turn of a converged warp through the compiled function
 * (run_warp in sim_cta.c calls it). */
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

/* The kernel-level exceptions: a kernel the compiled engine never runs, with the reason in `note`. */
static bool refused(const struct sim_launch *L, char *note, size_t n)
{
	if (!L->calls && !L->cooperative)
		return false;
	/* a warp may leave the kernel's code, or wait on other CTAs */
	snprintf(note, n, "the interpreter ran kernel %s: %s", L->fn->name,
		 L->calls ? "it makes a call to a device function that was not inlined (the compiled engine runs one "
			    "function)" : "a cooperative launch (grid.sync) runs its CTAs in turns, which only the "
			    "interpreter does");
	return true;
}

double sim_jit_compile_estimate(int ncode)
{
	return GL_SIM_JIT_CC_START + GL_SIM_JIT_CC_PER_INSN * ncode;
}

enum sim_jit_pick sim_jit_auto_pick(uint64_t cta_work, long ctas_left, int ncode, int workers, bool cached)
{
	double work = (double)cta_work * (double)(ctas_left > 0 ? ctas_left : 0);
	if (work < (double)GL_SIM_JIT_AUTO_WORK || ncode > SIM_JIT_MAX_INSNS)
		return SIM_JIT_PICK_INTERP; /* too little left to matter, or too large to compile */
	if (cached)
		return SIM_JIT_PICK_CACHED;
	double interpreted = work / (GL_SIM_JIT_INTERP_RATE * (workers > 0 ? workers : 1));
	return interpreted >= 2.0 * sim_jit_compile_estimate(ncode) ? SIM_JIT_PICK_COMPILE : SIM_JIT_PICK_INTERP;
}

/* Say what happens under --engine in `res` before the launch runs, loading the compiled kernel into L->jit
 * for --engine compiled; true when auto is to measure the first CTA and call sim_jit_auto (a cooperative
 * launch starts every CTA at once, so there is nothing to measure first: the interpreter runs it). */
bool sim_jit_choose(struct sim_launch *L, struct gl_sim_result *res)
{
	snprintf(res->engine, sizeof res->engine, "interp");
	res->jit_measured_cta = -1;
	if (L->opts->engine == GL_ENGINE_INTERP)
		return false;
	if (L->opts->engine == GL_ENGINE_AUTO)
		return !L->cooperative;
	if (refused(L, res->engine_note, sizeof res->engine_note))
		return false;
	char why[sizeof res->engine_note - 40];
	if (sim_jit_load(L->m, L->fn, &L->jit, why, sizeof why) != 0)
		snprintf(res->engine_note, sizeof res->engine_note, "the interpreter ran kernel %s: %s", L->fn->name, why);
	else if (L->jit->note[0])
		snprintf(res->engine_note, sizeof res->engine_note, "%s", L->jit->note);
	return false;
}

static void amount(char *out, size_t n, double v)
{
	if (v >= 1e9)
		snprintf(out, n, "%.2f G", v / 1e9);
	else
		snprintf(out, n, "%.1f M", v / 1e6);
}

/* "CTA 0 ran N thread-instructions on the interpreter" and, when some ran in partial warps (which the
 * compiled engine leaves to the interpreter), how many ran in full ones. */
static void measured_text(char *out, size_t n, long cta, uint64_t cta_work, uint64_t full_work)
{
	int k = snprintf(out, n, "CTA %ld ran %llu thread-instructions on the interpreter", cta,
			 (unsigned long long)cta_work);
	if (full_work != cta_work && k > 0 && (size_t)k < n)
		snprintf(out + k, n - (size_t)k, " (%llu in full warps, the only ones compiled code runs)",
			 (unsigned long long)full_work);
}

struct sim_jit *sim_jit_auto(struct sim_launch *L, long cta, uint64_t cta_work, uint64_t full_work, long ctas_left,
			     int workers, char *note, size_t n)
{
	const struct ptx_function *fn = L->fn;
	if (sim_jit_auto_pick(full_work, ctas_left, fn->ncode, workers, true) == SIM_JIT_PICK_INTERP)
		return NULL; /* not even a cached kernel would be worth loading: the cache is not asked */
	if (refused(L, note, n))
		return NULL;
	enum sim_jit_pick pick = sim_jit_auto_pick(full_work, ctas_left, fn->ncode, workers, sim_jit_cached(L->m, fn));
	if (pick == SIM_JIT_PICK_INTERP)
		return NULL;
	char why[256];
	if (sim_jit_load(L->m, fn, &L->jit, why, sizeof why) != 0) {
		snprintf(note, n, "the interpreter ran kernel %s: %s", fn->name, why);
		return NULL;
	}
	double work = (double)full_work * (double)ctas_left;
	char w[32], ran[160];
	amount(w, sizeof w, work);
	measured_text(ran, sizeof ran, cta, cta_work, full_work);
	if (L->jit->note[0])
		snprintf(note, n, "auto: %s", L->jit->note);
	else if (pick == SIM_JIT_PICK_CACHED)
		snprintf(note, n, "auto: %s; %ld CTAs left after one per worker (about %s) run on the cached compiled "
			 "kernel", ran, ctas_left, w);
	else
		snprintf(note, n, "auto: %s; %ld CTAs left after one per worker (about %s, %.1f s interpreted on %d "
			 "thread%s) repay a compile of about %.1f s", ran, ctas_left, w,
			 work / (GL_SIM_JIT_INTERP_RATE * workers), workers, workers == 1 ? "" : "s",
			 sim_jit_compile_estimate(fn->ncode));
	return L->jit;
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
		.cta = cta, .w = w, .exec = exec_one, .mem = sim_jit_mem, .memr = sim_jit_mem_reg,
		.param = sim_jit_param,
		.code = (const char *)cta->L->fn->code,
	};
	int rc = cta->jit->run(&W);
	*pending = W.pending;
	*loops = W.loops;
	if (W.last >= 0)
		*last = &cta->L->fn->code[W.last];
	return rc;
}
