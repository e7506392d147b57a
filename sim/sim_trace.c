/* sim_trace.c — shared-memory race and uninitialised-read detection, and trace recording. */
#include "sim_trace.h"

static struct sim_shadow *shadow_at(struct sim_cta *cta, uint64_t addr)
{
	struct sim_shadow *s = &cta->shadow[addr];
	if (s->gen != cta->gen)
		*s = (struct sim_shadow){.gen = cta->gen};
	return s;
}

/* Races are between different warps inside one barrier interval (lanes of one warp run in order). */
void sim_shadow_write(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, int lane, uint64_t addr,
		      unsigned n)
{
	uint16_t me = (uint16_t)(w->id + 1);
	for (unsigned i = 0; i < n; i++) {
		struct sim_shadow *s = shadow_at(cta, addr + i);
		uint16_t other = 0;
		const char *what = NULL;
		if (s->writer && s->writer != me && s->write_epoch == cta->epoch) {
			other = s->writer;
			what = "write after write";
		} else if (s->reader && s->reader != me && s->read_epoch == cta->epoch) {
			other = s->reader;
			what = "write after read";
		}
		s->writer = me;
		s->write_epoch = cta->epoch;
		if (what) {
			sim_finding(cta, ins, lane, "race", PS_SHARED, addr, n, false,
				    "shared-memory race (%s) at 0x%llx: warps %u and %u access it between two barriers",
				    what, (unsigned long long)addr, (unsigned)other - 1, w->id);
			return;
		}
	}
}

void sim_shadow_read(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, int lane, uint64_t addr,
		     unsigned n)
{
	uint16_t me = (uint16_t)(w->id + 1);
	for (unsigned i = 0; i < n; i++) {
		struct sim_shadow *s = shadow_at(cta, addr + i);
		if (!s->writer) {
			sim_finding(cta, ins, lane, "uninitialized", PS_SHARED, addr, n, true,
				    "read of uninitialized shared memory at 0x%llx (nothing was stored there since the "
				    "CTA started)", (unsigned long long)addr);
			s->writer = 0xffff; /* report each location once */
			s->write_epoch = UINT32_MAX;
			return;
		}
		if (s->writer != me && s->writer != 0xffff && s->write_epoch == cta->epoch) {
			sim_finding(cta, ins, lane, "race", PS_SHARED, addr, n, false,
				    "shared-memory race (read after write) at 0x%llx: warp %u wrote it and warp %u reads "
				    "it with no barrier between", (unsigned long long)addr, (unsigned)s->writer - 1, w->id);
			s->write_epoch = UINT32_MAX;
			return;
		}
		s->reader = me;
		s->read_epoch = cta->epoch;
	}
}

void sim_trace_record(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, enum ptx_space sp,
		      const uint64_t addr[32], uint32_t mask, unsigned size, bool is_store, unsigned units)
{
	if (!mask)
		return;
	if (cta->ntrace >= cta->trace_cap) {
		cta->trace_dropped++;
		return;
	}
	struct gl_trace_event *e = &cta->trace[cta->ntrace++];
	memset(e, 0, sizeof *e);
	e->seq = cta->trace_seq++;
	e->block = cta->linear;
	e->warp = w->id;
	e->pc = (uint32_t)(ins - cta->L->fn->code);
	e->line = (uint32_t)ins->line;
	e->space = (uint8_t)sp;
	e->is_store = is_store;
	e->bytes = (uint8_t)size;
	e->mask = mask;
	e->wavefronts = units;
	int first = __builtin_ctz(mask);
	e->addr_base = addr[first] - (uint64_t)0;
	/* compress as base + lane*stride when every active lane follows it */
	int second = -1;
	FOR_LANES(mask & ~(1u << first), l) {
		second = (int)l;
		break;
	}
	int64_t stride = second < 0 ? 0 : (int64_t)(addr[second] - addr[first]) / (second - first);
	bool strided = true;
	FOR_LANES(mask, l)
		if (addr[l] != addr[first] + (uint64_t)(stride * ((int)l - first)))
			strided = false;
	e->addr_base = addr[first] - (uint64_t)(stride * first);
	e->addr_stride = strided ? stride : 0;
	e->strided = strided;
	FOR_LANES(mask, l) e->addrs[l] = addr[l];
}
