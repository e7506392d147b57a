/* sim_spots.c — which instruction wastes the most: per PTX instruction of the kernel, the global sectors
 * beyond the ideal for its loads and stores and the shared bank conflicts of its loads and stores.  Each
 * worker adds into its own array (no atomics on the hot path) and into the launch's when it finishes; the
 * worst instruction of each kind becomes gpulab's own metrics, which the guidance names (docs/sim.md,
 * "Where the waste is"). */
#include "sim_internal.h"

#include <stdlib.h>

void sim_spots_add_waste(struct sim_cta *cta, const struct ptx_insn *ins, enum sim_spot kind, uint64_t waste)
{
	const struct ptx_function *fn = cta->L->fn;
	if (!waste || !cta->spots || ins < fn->code || ins >= fn->code + fn->ncode)
		return;
	cta->spots[(size_t)(ins - fn->code) * SIM_SPOT_KINDS + kind] += waste;
}

void sim_spots_flush(struct sim_cta *cta)
{
	struct sim_launch *L = cta->L;
	if (!cta->spots || !L->spots)
		return;
	for (size_t i = 0; i < (size_t)L->fn->ncode * SIM_SPOT_KINDS; i++)
		if (cta->spots[i])
			atomic_fetch_add_explicit(&L->spots[i], cta->spots[i], memory_order_relaxed);
	free(cta->spots);
	cta->spots = NULL;
}

void sim_spots_result(const struct sim_launch *L, struct gl_sim_result *res)
{
	for (int k = 0; k < SIM_SPOT_KINDS; k++) {
		uint64_t total = 0, worst = 0;
		int at = -1;
		for (int i = 0; L->spots && i < L->fn->ncode; i++) {
			uint64_t v = atomic_load_explicit(&L->spots[(size_t)i * SIM_SPOT_KINDS + k], memory_order_relaxed);
			total += v;
			if (v > worst)
				worst = v, at = i;
		}
		struct gl_sim_spot *s = &res->spots[k];
		*s = (struct gl_sim_spot){0};
		if (at < 0)
			continue;
		const struct ptx_insn *ins = &L->fn->code[at];
		s->ptx_line = ins->line;
		s->src_line = ins->src_line;
		s->share = (double)worst / (double)total;
		s->waste = worst;
	}
}
