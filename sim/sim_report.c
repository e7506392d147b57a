/* sim_report.c — sanitizer findings: each names the kernel's PTX line, the block and the thread. */
#include <stdarg.h>
#include <stdio.h>

#include "sim_internal.h"

void sim_finding(struct sim_cta *cta, const struct ptx_insn *ins, int lane, const char *kind, enum ptx_space space,
		 uint64_t addr, unsigned size, bool warning, const char *fmt, ...)
{
	cta->findings_total++;
	if (!warning)
		cta->errors_total++;
	if (cta->nfindings >= SIM_FINDINGS_PER_CTA)
		return;
	struct gl_sim_finding *f = &cta->findings[cta->nfindings++];
	memset(f, 0, sizeof *f);
	snprintf(f->kind, sizeof f->kind, "%s", kind);
	snprintf(f->space, sizeof f->space, "%s", space == PS_NONE ? "" : sim_space_name(space));
	f->warning = warning;
	f->address = addr;
	f->size = size;
	const struct sim_launch *L = cta->L;
	for (int i = 0; i < 3; i++)
		f->block[i] = cta->ctaid[i];
	unsigned t = cta->current_warp * 32 + (unsigned)(lane & 31);
	f->thread[0] = t % L->block[0];
	f->thread[1] = t / L->block[0] % L->block[1];
	f->thread[2] = t / (L->block[0] * L->block[1]);
	f->line = ins ? ins->line : 0;
	f->src_line = ins ? ins->src_line : 0;
	const char *file = ins && ins->src_line ? ptx_source_file(L->m, ins->src_file) : NULL;
	snprintf(f->src_file, sizeof f->src_file, "%s", file ? file : "");
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(f->message, sizeof f->message, fmt, ap);
	va_end(ap);
}
