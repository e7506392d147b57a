/* sim_cta.c — one CTA: warps with their special registers, shared memory poisoned at start, and the
 * scheduler.  A warp runs until it blocks (barrier) or exits; inside a warp the lanes at the minimum PC
 * execute together (min-PC scheduling reconverges structured control flow). */
#include <limits.h>
#include <string.h>

#include "sim_internal.h"
#include "sim_jit.h"

/* Special registers that differ by lane and warp but not by CTA: computed once per launch. */
static uint64_t special_value(const struct sim_launch *L, unsigned warp, unsigned l, int sr)
{
	unsigned t = warp * 32 + l;
	switch (sr) {
	case SR_TID_X: return t % L->block[0];
	case SR_TID_Y: return t / L->block[0] % L->block[1];
	case SR_TID_Z: return t / (L->block[0] * L->block[1]);
	case SR_NTID_X: return L->block[0];
	case SR_NTID_Y: return L->block[1];
	case SR_NTID_Z: return L->block[2];
	case SR_NCTAID_X: return L->grid[0];
	case SR_NCTAID_Y: return L->grid[1];
	case SR_NCTAID_Z: return L->grid[2];
	case SR_LANEID: return l;
	case SR_WARPID: return warp;
	case SR_NWARPID: return L->warps_per_cta;
	case SR_LANEMASK_EQ: return 1u << l;
	case SR_LANEMASK_LT: return (1u << l) - 1;
	case SR_LANEMASK_LE: return (uint32_t)((2ull << l) - 1);
	case SR_LANEMASK_GT: return ~(uint32_t)((2ull << l) - 1);
	case SR_LANEMASK_GE: return ~((1u << l) - 1);
	case SR_DYNSMEM: return L->dyn_smem;
	case SR_ENVREG1: return L->grid_ws >> 32;
	case SR_ENVREG2: return L->grid_ws & 0xffffffffu;
	case SR_RSMEM_BEGIN: case SR_RSMEM_0: return L->reserved_smem;
	case SR_RSMEM_1: return L->reserved_smem + SIM_RESERVED_SMEM / 2;
	case SR_RSMEM_END: return L->reserved_smem + SIM_RESERVED_SMEM;
	case SR_RSMEM_CAP: return SIM_RESERVED_SMEM;
	default: return 0; /* ctaid and smid are per CTA; clocks are read by OP_CLOCK */
	}
}

void sim_specials_template(const struct sim_launch *L, uint64_t *out)
{
	for (unsigned w = 0; w < L->warps_per_cta; w++)
		for (int sr = 0; sr < SR_COUNT; sr++)
			for (unsigned l = 0; l < 32; l++)
				out[((size_t)w * SR_COUNT + (size_t)sr) * 32 + l] = special_value(L, w, l, sr);
}

_Static_assert(SR_COUNT <= 32, "specials_read has a bit per special register");

/* Only the special registers the code reads: the others' slots are never read (a kernel's 32 of them
 * would be 8 KB per warp to copy for every CTA). */
static void fill_specials(struct sim_cta *cta, struct sim_warp *w)
{
	const struct sim_launch *L = cta->L;
	uint64_t *base = sim_reg(w, L->fn->first_special);
	const uint64_t *tmpl = L->specials + (size_t)w->id * SR_COUNT * 32;
	FOR_LANES(L->specials_read, sr) /* the per-CTA ones too: set below */
		memcpy(base + (size_t)sr * 32, tmpl + (size_t)sr * 32, 32 * sizeof *base);
	static const int per_cta[] = {SR_CTAID_X, SR_CTAID_Y, SR_CTAID_Z, SR_SMID};
	for (size_t k = 0; k < 4; k++) {
		if (!(L->specials_read >> per_cta[k] & 1))
			continue;
		uint64_t v = k < 3 ? cta->ctaid[k] : cta->linear % 132;
		uint64_t *d = base + (size_t)per_cta[k] * 32;
		for (unsigned l = 0; l < 32; l++)
			d[l] = v;
	}
}

/* Registers start at zero in every CTA, so results never depend on what ran before. */
static void init_warps(struct sim_cta *cta)
{
	const struct sim_launch *L = cta->L;
	size_t slots = (size_t)L->fn->nslots * 32;
	size_t regs = (size_t)L->fn->zero_slots * 32; /* the others are written before they are read */
	for (unsigned i = 0; i < L->warps_per_cta; i++) {
		struct sim_warp *w = &cta->warps[i];
		memset(w, 0, sizeof *w);
		w->r = cta->regs + slots * i;
		memset(w->r, 0, regs * sizeof *w->r);
		w->r0 = w->r;
		w->fn = L->fn;
		w->fi = (int)(L->fn - L->m->funcs);
		w->konst = L->konst;
		w->nslots = L->fn->nslots;
		w->id = i;
		unsigned first = i * 32, n = L->threads_per_cta - first;
		w->live = n >= 32 ? 0xffffffffu : (1u << n) - 1;
		w->active = w->live;
		w->state = W_READY;
		fill_specials(cta, w);
	}
	memset(cta->shared, SIM_SHARED_POISON, L->shared_size);
	cta->gen++;
	cta->epoch = 0;
	cta->released = 0;
	cta->executed = 0;
	cta->budget_line = 0;
	memset(cta->bar_arrived, 0, sizeof cta->bar_arrived);
	sim_race_new_cta(&cta->race);
	if (L->local_per_thread) /* frames of calls too: what a callee reads never depends on the last CTA */
		memset(cta->local, 0, (size_t)L->threads_per_cta * L->local_per_thread);
	if (cta->sass_phase)
		memset(cta->sass_phase, 0, (size_t)L->fn->ncode * L->warps_per_cta);
}

/* After the active lanes moved on, pick the lanes at the minimum PC among all live lanes. */
static void reconverge(struct sim_warp *w, uint32_t moved, int next_pc)
{
	uint32_t waiting = w->live & ~w->active;
	FOR_LANES(moved, l)
		w->lane_pc[l] = next_pc;
	if (w->calls) { /* lanes may be in different functions and call depths */
		sim_frame_pick(w);
		w->wait_pc = 0; /* not known: sim_step_diverged comes back here */
		return;
	}
	int min = next_pc, rest = INT_MAX;
	uint32_t all = w->live;
	FOR_LANES(waiting, l)
		if (w->lane_pc[l] < min)
			min = w->lane_pc[l];
	uint32_t at = 0;
	FOR_LANES(all, l) {
		int pc = w->active >> l & 1 ? next_pc : w->lane_pc[l];
		if (pc == min)
			at |= 1u << l;
		else if (pc < rest)
			rest = pc;
	}
	w->pc = min;
	w->active = at;
	w->wait_pc = rest;
}

void sim_reschedule(struct sim_warp *w, int next_pc)
{
	reconverge(w, w->active, next_pc);
}

/* The budget is per launch (sim.h).  Here: one CTA's count against the CTA limit, and a cooperative
 * launch's total (its CTAs take turns on one thread, so the total is the same on every run); the other
 * launches' totals are added up in grid order where CTAs are merged (sim_grid.c), which keeps the CTA that
 * ran out the same for any thread count. */
static int over_budget(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint64_t add)
{
	struct sim_launch *L = cta->L;
	cta->executed += add;
	cta->budget_line = ins->line;
	if (L->cooperative)
		L->coop_executed += add;
	if (atomic_load_explicit(&L->stop_at, memory_order_relaxed) < cta->run_index)
		return 1; /* an earlier CTA stopped the launch: this one's results are not used */
	if (cta->executed <= L->cta_budget && L->coop_executed <= L->budget)
		return 0;
	int lane = __builtin_ctz(w->live ? w->live : 1);
	if (cta->executed > L->cta_budget && L->cta_budget < L->budget)
		sim_finding(cta, ins, lane, "budget", PS_NONE, 0, 0, false, "instruction budget exhausted: a CTA ran "
			    "more than %llu warp instructions, the limit of one CTA without --max-instructions (an "
			    "endless loop? --max-instructions N sets the launch's budget)", (unsigned long long)L->cta_budget);
	else
		sim_finding(cta, ins, lane, "budget", PS_NONE, 0, 0, false, "instruction budget of %llu warp "
			    "instructions per launch exhausted (an endless loop? raise it with --max-instructions)",
			    (unsigned long long)L->budget);
	return 1;
}

static uint32_t guard_mask(const struct sim_cta *cta, const struct sim_warp *w, const struct ptx_insn *ins)
{
	uint32_t mask = w->active;
	if (ins->guard < 0)
		return mask;
	const uint64_t *p = sim_src(cta, w, ins->guard);
	uint32_t on = 0;
	FOR_LANES(mask, l)
		on |= (uint32_t)(p[l] & 1) << l;
	return ins->guard_neg ? mask & ~on : on;
}

/* Backward branches a warp may execute before the next ready warp of its CTA gets a turn. */
#define SIM_WARP_QUANTUM SIM_JIT_QUANTUM /* the compiled engine checks it too */

/* Run one warp until it blocks, exits, has looped SIM_WARP_QUANTUM times (so that a warp spinning on a
 * flag another warp of the CTA sets lets that warp run: warps are scheduled fairly, and the switch
 * points depend only on the instructions executed, so counts stay deterministic) or the CTA aborts.
 * Returns -1 on abort. */
static int run_warp(struct sim_cta *cta, struct sim_warp *w)
{
	uint64_t pending = 0;
	unsigned loops = 0;
	const struct ptx_insn *ins = &w->fn->code[0];
	while (w->state == W_READY) {
		if (w->reload && sim_frame_switch(cta, w))
			return -1;
		const struct ptx_insn *code = w->fn->code;
		int ncode = w->fn->ncode;
		int j = SIM_JIT_NO_ENTRY;
		bool full = w->active == 0xffffffffu && w->live == 0xffffffffu;
		if (cta->jit && full && w->fn == cta->L->fn && w->pc >= 0 && w->pc < ncode) /* compiled: full warps */
			j = sim_jit_turn(cta, w, &pending, &loops, &ins);
		if (j != SIM_JIT_NO_ENTRY) {
			if (j == SIM_JIT_YIELD)
				break;
			if (j == SIM_JIT_ABORT)
				return -1;
			if (j == SIM_JIT_STEP) { /* as below for rc == 0 */
				if (w->live & ~w->active)
					sim_step_diverged(w);
				else
					w->pc++;
				j = ++pending == SIM_JIT_BUDGET_STEP ? SIM_JIT_BUDGET : j;
			}
			if (j == SIM_JIT_BUDGET) {
				if (over_budget(cta, w, ins, pending))
					return -1;
				pending = 0;
			}
			continue;
		}
		if (w->pc < 0 || w->pc >= ncode) {
			sim_finding(cta, &code[ncode - 1], __builtin_ctz(w->active), "invalid-pc", PS_NONE, 0, 0, false,
				    "control reached instruction %d outside the function", w->pc);
			return -1;
		}
		ins = &code[w->pc];
		if (ins->op == OP_BRA && ins->ops[0].kind == PO_LABEL && ins->ops[0].offset <= w->pc &&
		    ++loops > SIM_WARP_QUANTUM && (cta->L->warps_per_cta > 1 || cta->L->cooperative))
			break; /* its turn is over; it resumes here (nothing of this branch ran yet) */
		cta->c.inst++;
		unsigned lanes = sim_lanes(w->active);
		cta->c.thread_inst += lanes;
		cta->full_warp_inst += (w->active & w->live) == 0xffffffffu;
		if (w->fn->sass) { /* the SASS estimate: what the line info attributes to this instruction */
			uint64_t sw = w->fn->sass[w->pc].weight; /* in 1/PTX_SASS_WEIGHT_ONE */
			cta->c.sass_inst += sw;
			cta->c.sass_thread_inst += sw * lanes;
		}
		w->executed++;
		int rc = sim_exec(cta, w, ins, guard_mask(cta, w, ins));
		if (rc < 0)
			return -1;
		if (rc == 0) { /* straight-line instruction: the active lanes move on */
			if (w->live & ~w->active)
				sim_step_diverged(w);
			else
				w->pc++;
		}
		if (++pending == SIM_JIT_BUDGET_STEP) {
			if (over_budget(cta, w, ins, pending))
				return -1;
			pending = 0;
		}
	}
	return over_budget(cta, w, ins, pending) ? -1 : 0;
}

/* Branch helper for sim_exec: lanes in `taken` go to `target`, the other active lanes fall through. */
void sim_branch(struct sim_warp *w, uint32_t taken, int target)
{
	if (!taken) { /* nobody jumps: a straight-line step */
		if (w->live & ~w->active)
			sim_step_diverged(w);
		else
			w->pc++;
		return;
	}
	uint32_t fall = w->active & ~taken;
	if (!fall) { /* uniform */
		if (w->live & ~w->active) {
			reconverge(w, w->active, target);
			return;
		}
		w->pc = target;
		return;
	}
	int next = w->pc + 1;
	FOR_LANES(taken, l)
		w->lane_pc[l] = target;
	w->active = fall;
	reconverge(w, fall, next);
}

/* Lanes in `gone` exited; the rest continue. */
void sim_exit_lanes(struct sim_warp *w, uint32_t gone)
{
	w->live &= ~gone;
	w->active &= ~gone;
	if (!w->live) {
		w->state = W_DONE;
		return;
	}
	if (w->active) {
		reconverge(w, w->active, w->pc + 1);
		return;
	}
	/* every lane here left: continue with the waiting ones */
	w->active = 0;
	reconverge(w, 0, 1 << 30);
}

/* Advance the straight-line case when some lanes are waiting elsewhere (diverged warp).  The waiting lanes
 * are all past pc (min-PC scheduling picked the lowest), so the active ones step alone until they reach
 * wait_pc, the lowest PC among the waiting lanes, which reconverge left: a diverged warp's instruction
 * does not rescan its 32 lanes. */
void sim_step_diverged(struct sim_warp *w)
{
	if (w->pc + 1 < w->wait_pc) {
		w->pc++;
		return;
	}
	reconverge(w, w->active, w->pc + 1);
}

/* Warps a barrier waits for: its thread count in warps (bar.sync id, count), else every warp of the
 * CTA that has not exited (exited threads count as arrived, as on the hardware). */
static unsigned expected_warps(const struct sim_cta *cta, int id)
{
	unsigned live = 0, count = 0;
	for (unsigned i = 0; i < cta->L->warps_per_cta; i++) {
		const struct sim_warp *w = &cta->warps[i];
		live += w->state != W_DONE;
		if (w->state == W_BARRIER && w->bar_id == id && w->bar_count)
			count = w->bar_count;
	}
	return count ? (count + 31) / 32 : live;
}

static void release(struct sim_cta *cta, int id)
{
	cta->epoch++;
	cta->released++;
	cta->bar_arrived[id] = 0;
	for (unsigned i = 0; i < cta->L->warps_per_cta; i++) {
		struct sim_warp *w = &cta->warps[i];
		if (w->state != W_BARRIER || w->bar_id != id)
			continue;
		w->state = W_READY;
		if (w->live & ~w->active)
			sim_step_diverged(w);
		else
			w->pc++;
	}
}

/* Release every barrier whose expected warps have all arrived; returns how many were released. */
static int release_barriers(struct sim_cta *cta)
{
	unsigned waiting[SIM_BARRIERS] = {0};
	for (unsigned i = 0; i < cta->L->warps_per_cta; i++)
		if (cta->warps[i].state == W_BARRIER)
			waiting[cta->warps[i].bar_id]++;
	int released = 0;
	for (int id = 0; id < SIM_BARRIERS; id++)
		if (waiting[id] && waiting[id] + cta->bar_arrived[id] >= expected_warps(cta, id)) {
			release(cta, id);
			released++;
		}
	return released;
}

static void report_deadlock(struct sim_cta *cta)
{
	const struct sim_launch *L = cta->L;
	for (unsigned i = 0; i < L->warps_per_cta; i++) {
		const struct sim_warp *w = &cta->warps[i];
		if (w->state != W_BARRIER)
			continue;
		cta->current_warp = i;
		unsigned waiting = 0;
		for (unsigned k = 0; k < L->warps_per_cta; k++)
			waiting += cta->warps[k].state == W_BARRIER && cta->warps[k].bar_id == w->bar_id;
		sim_finding(cta, &w->fn->code[w->pc], __builtin_ctz(w->active), "deadlock", PS_NONE, 0, 0, false,
			    "deadlock: warp %u waits at barrier %d, which %u of the %u warps it needs have reached, and no "
			    "other warp can run", i, w->bar_id, waiting + cta->bar_arrived[w->bar_id],
			    expected_warps(cta, w->bar_id));
		return;
	}
}

void sim_cta_start(struct sim_cta *cta)
{
	init_warps(cta);
}

int sim_cta_run(struct sim_cta *cta)
{
	init_warps(cta);
	int rc;
	while ((rc = sim_cta_resume(cta)) == 0)
		;
	return rc < 0 ? -1 : 0;
}

int sim_cta_resume(struct sim_cta *cta)
{
	struct sim_launch *L = cta->L;
	{
		bool any_ready = false, any_barrier = false;
		for (unsigned i = 0; i < L->warps_per_cta; i++) {
			struct sim_warp *w = &cta->warps[i];
			if (w->state == W_READY) {
				any_ready = true;
				cta->current_warp = i;
				if (run_warp(cta, w) < 0) {
					cta->aborted = true;
					return -1;
				}
			}
			any_barrier |= w->state == W_BARRIER;
		}
		if (!any_ready && !any_barrier)
			return 1;
		if (any_barrier && release_barriers(cta) == 0 && !any_ready) {
			report_deadlock(cta);
			cta->aborted = true;
			return -1;
		}
	}
	return 0;
}
