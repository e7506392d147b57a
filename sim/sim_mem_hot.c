/* sim_mem_hot.c — the hot form of ld/st: a full warp's 4-byte ld.shared into a register (or st.shared
 * from one), the inner loop of tiled kernels.  Everything the general path (sim_mem.c) works out from the
 * 32 addresses, except where they start, depends only on their shape: each lane's address minus lane
 * 0's.  At one instruction the shape seldom changes (every warp and every tile row of a tiled loop gives
 * the same one), so what it implies is kept per call site (struct sim_shape): the bounds of the lanes,
 * alignment, the wavefronts and bank conflicts of the PTX access and of the SASS access(es) it stands
 * for, how to move the data, and the words it reads as quiet-read windows.  An access compares its shape
 * in one vectorised pass and checks its start; the counts, checks and findings are the general path's. */
#include "sim_exec.h"
#include "sim_simd.h"
#include "sim_trace.h"

enum { SHAPE_ANY, SHAPE_SAME, SHAPE_UNIT }; /* lanes anywhere; all at one address; lane l at 4 l */

/* Four lanes' 64-bit values (GCC/Clang vector extensions: AVX2 in the clones built for it). */
typedef uint64_t lanes4 __attribute__((vector_size(32)));

/* How each lane's address differs from lane 0's against the shape `rel` (0: the same shape), in one
 * straight pass of 8 vectors (sim_simd.h). */
SIM_SIMD_CLONES static uint64_t shape_diff(const uint64_t *restrict addr, const int64_t *restrict rel)
{
	lanes4 a0 = {addr[0], addr[0], addr[0], addr[0]}, diff = {0, 0, 0, 0};
#pragma GCC unroll 8
	for (int q = 0; q < 32; q += 4) {
		lanes4 a, r;
		memcpy(&a, addr + q, sizeof a);
		memcpy(&r, rel + q, sizeof r);
		diff |= (a - a0) ^ r;
	}
	return diff[0] | diff[1] | diff[2] | diff[3];
}

/* The words a shape reads as 64-word windows relative to lane 0's word: in lane order, a lane whose word
 * no window holds yet opens one at that word.  A tile row or a broadcast per half-warp takes one or two;
 * a column of a 32-word-wide tile, sixteen. */
static void shape_windows(struct sim_shape *e)
{
	e->nwin = 0;
	for (int l = 0; l < 32; l++) {
		int64_t word = e->rel[l] / 4;
		unsigned k = 0;
		while (k < e->nwin && (uint64_t)(word - e->win[k]) >= 64)
			k++;
		if (k == e->nwin) {
			e->win[k] = (int32_t)word;
			e->words[k] = 0;
			e->nwin++;
		}
		e->words[k] |= 1ull << (word - e->win[k]);
	}
}

/* What SASS makes of the access (sass_map.h), and the wavefronts and conflicts of each SASS part at this
 * shape: shifting every address by whole words changes no count (memmodel.h), so they hold for any
 * start the shape comes with. */
static void shape_sass(struct sim_cta *cta, const struct ptx_insn *ins, struct sim_shape *e, const uint64_t addr[32])
{
	const struct ptx_function *fn = cta->L->fn;
	uintptr_t p = (uintptr_t)ins, lo = (uintptr_t)fn->code, hi = (uintptr_t)(fn->code + fn->ncode);
	const struct ptx_sass *m = fn->sass && p >= lo && p < hi ? &fn->sass[ins - fn->code] : NULL;
	e->sass = m ? m->kind : SASS_NONE;
	e->span = m && m->kind == SASS_VECTOR ? m->span : 1;
	e->parts = 0;
	if (e->sass != SASS_VECTOR && e->sass != SASS_SPLIT)
		return;
	e->parts = m->kind == SASS_SPLIT ? (uint8_t)(4 / m->width) : 1;
	for (unsigned k = 0; k < e->parts && k < 4; k++) {
		uint64_t move = m->kind == SASS_VECTOR ? (uint64_t)0 - (uint64_t)(int64_t)m->delta : (uint64_t)k * m->width;
		uint64_t shifted[32];
		for (int l = 0; l < 32; l++)
			shifted[l] = addr[l] + move;
		sim_access_cost(cta, (uintptr_t)ins + 1 + k, PS_SHARED, shifted, 0xffffffffu, m->width, &e->part_units[k],
				&e->part_conflicts[k]);
	}
}

/* Is `ins` of the hot form (a full warp's 4-byte ld.shared into a register that is not sign-extended, or
 * st.shared from one)? */
static bool hot_form(const struct ptx_insn *ins)
{
	bool is_store = ins->op == OP_ST;
	const struct ptx_operand *ro = &ins->ops[is_store ? 1 : 0];
	enum ptx_type t = (enum ptx_type)ins->type;
	return (ins->op == OP_LD || is_store) && ins->space == PS_SHARED && ins->vec <= 1 && ptx_type_bytes(t) == 4 &&
	       (is_store || !ptx_type_is_signed(t)) && ro->kind == PO_SLOT && ro->slot >= 0 && !(ins->mods & PM_CALLPARAM);
}

/* Work out the shape of `addr` (an access of the hot form) into the site's slot; false when its lanes are
 * not whole aligned words below 2^32 (the general path then runs). */
static bool shape_install(struct sim_cta *cta, const struct ptx_insn *ins, struct sim_shape *e, const uint64_t addr[32])
{
	if (addr[0] >> 32)
		return false;
	uint32_t a32[32], rel_or = 0;
	int64_t min = 0, max = 0;
	bool same = true, unit = true;
	for (int l = 0; l < 32; l++) {
		uint64_t d = addr[l] - addr[0];
		int64_t r = (int64_t)d;
		if (r < -(int64_t)UINT32_MAX || r > (int64_t)UINT32_MAX)
			return false;
		rel_or |= (uint32_t)d;
		min = r < min ? r : min;
		max = r > max ? r : max;
		same &= d == 0;
		unit &= d == 4u * (unsigned)l;
		a32[l] = (uint32_t)addr[l];
	}
	if ((addr[0] | rel_or) & 3) /* the wavefront count below assumes words: misaligned shapes go the general way */
		return false;
	e->site = (uintptr_t)ins;
	for (int l = 0; l < 32; l++)
		e->rel[l] = (int64_t)(addr[l] - addr[0]);
	e->min = min;
	e->max = max;
	e->kind = same ? SHAPE_SAME : unit ? SHAPE_UNIT : SHAPE_ANY;
	e->is_store = ins->op == OP_ST;
	e->units = gl_mm_shared_wavefronts(a32, 0xffffffffu, 4);
	e->conflicts = sim_shared_conflicts(e->units, 0xffffffffu, 4);
	shape_sass(cta, ins, e, addr);
	shape_windows(e);
	return true;
}

/* The facts of the shape of `addr` from the site's slot (worked out on a change); NULL when the access
 * is not of the hot form. */
static const struct sim_shape *shape_of(struct sim_cta *cta, const struct ptx_insn *ins, const uint64_t addr[32])
{
	struct sim_shape *e = &cta->shapes[((uintptr_t)ins * 0x9E3779B97F4A7C15ull >> 40) % SIM_SHAPE_SLOTS];
	if (e->site == (uintptr_t)ins && shape_diff(addr, e->rel) == 0)
		return e;
	if (!hot_form(ins)) /* another form leaves the slot to the site that has it */
		return NULL;
	e->site = 0;
	return shape_install(cta, ins, e, addr) ? e : NULL;
}

/* The counters of one hot access: the PTX access, then the SASS access(es) it stands for (as the general
 * path's add_sass_access counts them), then the trace. */
static void count_hot(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins,
		      const struct sim_shape *e, const uint64_t addr[32])
{
	struct gl_sim_counters *c = &cta->c;
	uint64_t *inst = e->is_store ? &c->sst_inst : &c->sld_inst, *wf = e->is_store ? &c->sst_wf : &c->sld_wf;
	uint64_t *conf = e->is_store ? &c->sst_conf : &c->sld_conf;
	if (e->is_store) {
		c->ptx_sst_inst++, c->ptx_sst_wf += e->units, c->ptx_sst_conf += e->conflicts;
	} else {
		c->ptx_sld_inst++, c->ptx_sld_wf += e->units, c->ptx_sld_conf += e->conflicts;
	}
	if (e->sass == SASS_NONE || e->sass == SASS_SAME) {
		*inst += 1, *wf += e->units, *conf += e->conflicts;
	} else if (e->parts) {
		bool issue = true;
		if (e->span > 1 && cta->sass_phase) { /* one SASS access every span-th execution, from the first */
			const struct ptx_function *fn = cta->L->fn;
			uint8_t *phase = &cta->sass_phase[(size_t)w->id * fn->ncode + (size_t)(ins - fn->code)];
			issue = *phase == 0;
			*phase = (uint8_t)((*phase + 1) % e->span);
		}
		for (unsigned k = 0; issue && k < e->parts; k++)
			*inst += 1, *wf += e->part_units[k], *conf += e->part_conflicts[k];
	}
	if (cta->trace)
		sim_trace_record(cta, w, ins, PS_SHARED, addr, 0xffffffffu, 4, e->is_store, e->units);
}

static uint32_t word_at(const uint8_t *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return v;
}

/* Lane l's word at src + rel[l], zero-extended (a load with a register destination). */
static void gather_words(uint64_t *restrict d, const uint8_t *restrict src, const int64_t *restrict rel)
{
	for (int l = 0; l < 32; l++)
		d[l] = word_at(src + rel[l]);
}

SIM_SIMD_CLONES static void fill_words(uint64_t *restrict d, uint64_t v)
{
	lanes4 x = {v, v, v, v};
#pragma GCC unroll 8
	for (int q = 0; q < 32; q += 4)
		memcpy(d + q, &x, sizeof x);
}

SIM_SIMD_CLONES static void copy_words(uint64_t *restrict d, const uint8_t *restrict src)
{
	for (int l = 0; l < 32; l++)
		d[l] = word_at(src + 4 * l);
}

SIM_SIMD_CLONES static void put_words(uint8_t *restrict dst, const uint64_t *restrict v)
{
	for (int l = 0; l < 32; l++) {
		uint32_t x = (uint32_t)v[l];
		memcpy(dst + 4 * l, &x, 4);
	}
}

static void load_hot(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, const struct sim_shape *e,
		     uint64_t base)
{
	uint64_t *d = sim_reg(w, ins->ops[0].slot);
	const uint8_t *src = cta->shared + base;
	if (e->kind == SHAPE_SAME)
		fill_words(d, word_at(src));
	else if (e->kind == SHAPE_UNIT)
		copy_words(d, src);
	else
		gather_words(d, src, e->rel);
}

/* In lane order: of lanes storing to one word, the last one's value stays. */
static void store_hot(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, const struct sim_shape *e,
		      uint64_t base)
{
	const uint64_t *v = sim_src(cta, w, ins->ops[1].slot);
	uint8_t *dst = cta->shared + base;
	if (e->kind == SHAPE_SAME) {
		uint32_t x = (uint32_t)v[31];
		memcpy(dst, &x, 4);
	} else if (e->kind == SHAPE_UNIT) {
		put_words(dst, v);
	} else {
		for (int l = 0; l < 32; l++) {
			uint32_t x = (uint32_t)v[l];
			memcpy(dst + e->rel[l], &x, 4);
		}
	}
}

bool sim_shared_hot(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask,
		    const uint64_t addr[32])
{
	if (mask != 0xffffffffu)
		return false;
	const struct sim_shape *e = shape_of(cta, ins, addr);
	int64_t base = (int64_t)addr[0];
	/* every lane a whole word inside shared memory: the shape's lanes are words apart, so lane 0 decides */
	if (!e || (addr[0] & 3) || addr[0] >> 32 || base + e->min < 0 || base + e->max > (int64_t)cta->L->shared_size - 4)
		return false;
	count_hot(cta, w, ins, e, addr);
	if (e->is_store) {
		store_hot(cta, w, ins, e, (uint64_t)base);
		if (!sim_shadow_store_words(cta, w, ins, (uint64_t)base / 4, e->rel, e->nwin, e->win, e->words))
			sim_shadow_warp(cta, w, ins, mask, addr, 4, true);
		return true;
	}
	load_hot(cta, w, ins, e, (uint64_t)base);
	if (!sim_shadow_quiet_reads(cta, w, ins, (uint64_t)base / 4, e->nwin, e->win, e->words))
		sim_shadow_warp(cta, w, ins, mask, addr, 4, false);
	return true;
}
