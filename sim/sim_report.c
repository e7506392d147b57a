/* sim_report.c — sanitizer findings: each names the kernel's PTX line, the block and the thread.  A CTA
 * keeps one entry per (kind, PTX line) with its occurrence count (common/findings.h), so a message is
 * formatted once per distinct finding, and findings of tools not selected (--tool) are not recorded. */
#include <stdarg.h>
#include <stdio.h>

#include "sim_internal.h"

static void __attribute__((format(printf, 9, 0)))
vfinding(struct sim_cta *cta, const struct ptx_insn *ins, int lane, const char *kind, const char *space, uint64_t addr,
	 unsigned size, bool warning, const char *fmt, va_list ap)
{
	const struct sim_launch *L = cta->L;
	if (!gl_finding_selected(kind, L->tools))
		return;
	unsigned t = cta->current_warp * 32 + (unsigned)(lane & 31), thread[3];
	thread[0] = t % L->block[0];
	thread[1] = t / L->block[0] % L->block[1];
	thread[2] = t / (L->block[0] * L->block[1]);
	bool fresh;
	struct gl_finding *f =
	    gl_findings_note(&cta->findings, kind, ins ? ins->line : 0, warning, cta->ctaid, thread, &fresh);
	if (!f || !fresh)
		return;
	snprintf(f->space, sizeof f->space, "%s", space);
	f->address = addr;
	f->size = size;
	f->src_line = ins ? ins->src_line : 0;
	const char *file = ins && ins->src_line ? ptx_source_file(L->m, ins->src_file) : NULL;
	snprintf(f->src_file, sizeof f->src_file, "%s", file ? file : "");
	vsnprintf(f->message, sizeof f->message, fmt, ap);
}

void sim_finding(struct sim_cta *cta, const struct ptx_insn *ins, int lane, const char *kind, enum ptx_space space,
                 uint64_t addr, unsigned size, bool warning, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfinding(cta, ins, lane, kind, space == PS_NONE ? "" : sim_space_name(space), addr, size, warning, fmt, ap);
	va_end(ap);
}

void sim_finding_at(struct sim_cta *cta, const struct ptx_insn *ins, int lane, const char *kind, const char *place,
		    uint64_t addr, unsigned size, bool warning, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfinding(cta, ins, lane, kind, place, addr, size, warning, fmt, ap);
	va_end(ap);
}
