/* sim_fault.c — what an invalid access does besides its finding (sim.h, enum gl_sim_faults; docs/sim.md,
 * "Device memory: mapped, allocated, faulting").  gpulab sim refuses it and goes on.  A GPU lets a global
 * access outside every allocation but inside mapped memory go ahead, and faults on anything else: the
 * launch stops.  Under compute-sanitizer's memcheck the first error memcheck reports stops the launch
 * before the access is made.  A fault is kept per CTA (the first one) and stops the CTA after the
 * instruction (sim_exec); the grid keeps the first stopped CTA's, in grid order (sim_grid.c). */
#include <stdio.h>
#include <stdlib.h>

#include "sim_internal.h"

static void note_fault(struct sim_cta *cta, const struct ptx_insn *ins, int lane, const struct sim_xlat *x,
		       unsigned size, bool is_store, enum gl_sim_fault_kind kind)
{
	if (cta->fault.kind != GL_SIM_FAULT_NONE)
		return;
	const struct sim_launch *L = cta->L;
	unsigned t = cta->current_warp * 32 + (unsigned)(lane & 31);
	struct gl_sim_fault *f = &cta->fault;
	*f = (struct gl_sim_fault){.kind = kind, .address = x->offset, .size = size, .is_store = is_store,
				   .line = ins ? ins->line : 0};
	snprintf(f->space, sizeof f->space, "%s", sim_space_name(x->space));
	memcpy(f->block, cta->ctaid, sizeof f->block);
	f->thread[0] = t % L->block[0];
	f->thread[1] = t / L->block[0] % L->block[1];
	f->thread[2] = t / (L->block[0] * L->block[1]);
}

uint8_t *sim_fault_miss(struct sim_cta *cta, const struct ptx_insn *ins, int lane, const struct sim_xlat *x,
			unsigned size, bool is_store)
{
	const struct sim_launch *L = cta->L;
	if (L->faults == GL_SIM_FAULTS_OFF)
		return NULL;
	if (L->faults == GL_SIM_FAULTS_MEMCHECK && (L->tools & GL_TOOL_MEMCHECK)) {
		note_fault(cta, ins, lane, x, size, is_store, GL_SIM_FAULT_LAUNCH_FAILED);
		return NULL;
	}
	if (x->mapped) /* mapped memory: the GPU reads or writes what is there */
		return x->mapped;
	note_fault(cta, ins, lane, x, size, is_store,
		   x->miss == SIM_MISALIGNED ? GL_SIM_FAULT_MISALIGNED_ADDRESS : GL_SIM_FAULT_ILLEGAL_ADDRESS);
	return NULL;
}

static int by_base(const void *a, const void *b)
{
	const struct gl_sim_mapping *const *x = a, *const *y = b;
	return (*x)->base < (*y)->base ? -1 : (*x)->base > (*y)->base;
}

/* The generic windows a mapping must stay out of: a generic address there resolves to another space. */
static const struct {
	uint64_t base;
	const char *name;
} windows[] = {{PTX_SHARED_WINDOW, "shared"}, {PTX_LOCAL_WINDOW, "local"}, {PTX_PARAM_WINDOW, "param"}};

static int check_mapping(const struct gl_sim_mapping *g, int i, struct gl_err *err)
{
	if (!g->size || !g->host || g->base + g->size - 1 < g->base)
		return gl_errf(err, GL_EUSAGE, "mapping %d (0x%llx, %llu bytes) needs a size, host memory and an end "
			       "below 2^64", i, (unsigned long long)g->base, (unsigned long long)g->size);
	for (size_t k = 0; k < sizeof windows / sizeof windows[0]; k++)
		if (g->base < windows[k].base + PTX_WINDOW_SIZE && windows[k].base < g->base + g->size)
			return gl_errf(err, GL_EUSAGE, "mapping %d (0x%llx, %llu bytes) overlaps the simulator's %s "
				       "window 0x%llx..0x%llx: place device memory outside it (GL_SIM_GLOBAL_BASE is "
				       "free)", i,
				       (unsigned long long)g->base, (unsigned long long)g->size, windows[k].name,
				       (unsigned long long)windows[k].base,
				       (unsigned long long)(windows[k].base + PTX_WINDOW_SIZE));
	return GL_OK;
}

int sim_fault_check(const struct gl_sim_opts *opts, struct gl_err *err)
{
	if (opts->faults < GL_SIM_FAULTS_OFF || opts->faults > GL_SIM_FAULTS_MEMCHECK)
		return gl_errf(err, GL_EUSAGE, "unknown fault policy %d (enum gl_sim_faults)", opts->faults);
	if (opts->nmapped < 0 || (opts->nmapped && !opts->mapped))
		return gl_errf(err, GL_EUSAGE, "%d mappings at %p: give a count of 0 or more and the array",
			       opts->nmapped, (const void *)opts->mapped);
	const struct gl_sim_mapping **sorted = gl_xmalloc((size_t)(opts->nmapped ? opts->nmapped : 1) * sizeof *sorted);
	int rc = GL_OK;
	for (int i = 0; i < opts->nmapped && !rc; i++) {
		sorted[i] = &opts->mapped[i];
		rc = check_mapping(&opts->mapped[i], i, err);
	}
	if (!rc)
		qsort(sorted, (size_t)opts->nmapped, sizeof *sorted, by_base);
	for (int i = 1; i < opts->nmapped && !rc; i++)
		if (sorted[i]->base - sorted[i - 1]->base < sorted[i - 1]->size)
			rc = gl_errf(err, GL_EUSAGE, "mappings at 0x%llx (%llu bytes) and 0x%llx overlap: give "
				     "disjoint ranges", (unsigned long long)sorted[i - 1]->base,
				     (unsigned long long)sorted[i - 1]->size, (unsigned long long)sorted[i]->base);
	free(sorted);
	return rc;
}

void sim_fault_setup(struct sim_launch *L, const struct gl_sim_opts *opts)
{
	L->faults = opts->faults;
	L->mapped = opts->faults != GL_SIM_FAULTS_OFF ? opts->mapped : NULL;
	L->nmapped = opts->faults != GL_SIM_FAULTS_OFF ? opts->nmapped : 0;
}
