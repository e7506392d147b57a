/* sim_mem.c — memory instructions: address translation with bounds and alignment checks, ld/st with
 * vectors, cp.async, atomics, and the per-instruction counting of memmodel.h. */
#include "sim_exec.h"
#include "sim_trace.h"

const char *sim_space_name(enum ptx_space s)
{
	switch (s) {
	case PS_GLOBAL: return "global";
	case PS_SHARED: return "shared";
	case PS_LOCAL: return "local";
	case PS_PARAM: return "param";
	case PS_CONST: return "const";
	default: return "generic";
	}
}

/* The memory lane `lane` of warp `w` reaches (sim_addr.h). */
static struct sim_memmap lane_memmap(const struct sim_cta *cta, const struct sim_warp *w, int lane)
{
	const struct sim_launch *L = cta->L;
	uint64_t n = L->local_per_thread;
	return (struct sim_memmap){
		.regions = L->regions, .nregions = L->nregions,
		.shared = cta->shared, .shared_size = L->shared_size,
		.local = n ? cta->local + (size_t)(w->id * 32 + (unsigned)lane) * n : NULL, .local_size = n,
		.params = L->params, .params_size = sizeof L->params, .module_base = L->m->global_base,
		.mapped = L->mapped, .nmapped = L->nmapped,
	};
}

const struct sim_region *sim_global_region(struct sim_cta *cta, struct sim_warp *w, uint64_t addr, unsigned size,
					   bool is_store)
{
	struct sim_memmap m = lane_memmap(cta, w, 0);
	struct sim_xlat x = sim_addr_translate(&m, PS_GLOBAL, addr, size, is_store);
	return x.miss == SIM_HIT ? x.region : NULL;
}

/* The finding for a global or constant access outside every allocation it may use. */
static void global_finding(struct sim_cta *cta, const struct ptx_insn *ins, int lane, const struct sim_xlat *x,
			   uint64_t addr, unsigned size, const char *what)
{
	const struct sim_region *r = x->region, *near = x->near;
	const char *sp = x->space == PS_CONST ? "__constant__" : "__global__";
	if (x->space == PS_CONST && (!r || r->base != cta->L->m->global_base))
		sim_finding(cta, ins, lane, "out-of-bounds", PS_CONST, addr, size, false,
			    "invalid %s %s of size %u at 0x%llx: not inside the module's .const data", sp, what, size,
			    (unsigned long long)addr);
	else if (r) /* addr - base < size, so this difference cannot wrap */
		sim_finding(cta, ins, lane, "out-of-bounds", x->space, addr, size, false,
			    "invalid %s %s of size %u at 0x%llx: runs %llu bytes past the end of buffer '%s' "
			    "(%llu bytes)", sp, what, size, (unsigned long long)addr,
			    (unsigned long long)(size - (r->size - (addr - r->base))), r->name,
			    (unsigned long long)r->size);
	else if (near)
		sim_finding(cta, ins, lane, "out-of-bounds", x->space, addr, size, false,
			    "invalid %s %s of size %u at 0x%llx: %llu bytes after the end of buffer '%s'", sp, what,
			    size, (unsigned long long)addr, (unsigned long long)(addr - near->base - near->size),
			    near->name);
	else
		sim_finding(cta, ins, lane, "out-of-bounds", x->space, addr, size, false,
			    "invalid %s %s of size %u at 0x%llx: not inside any allocation", sp, what, size,
			    (unsigned long long)addr);
}

static void miss_finding(struct sim_cta *cta, const struct ptx_insn *ins, int lane, const struct sim_xlat *x,
			 unsigned size, bool is_store)
{
	const struct sim_launch *L = cta->L;
	const char *what = is_store ? "write" : "read";
	unsigned long long a = x->offset;
	if (x->miss == SIM_MISALIGNED) {
		sim_finding(cta, ins, lane, "misaligned", x->space, a, size, false,
			    "misaligned %s %s of size %u at 0x%llx (must be a multiple of %u)",
			    sim_space_name(x->space), what, size, a, size);
		return;
	}
	switch (x->space) {
	case PS_SHARED:
		sim_finding(cta, ins, lane, "out-of-bounds", PS_SHARED, a, size, false,
			    "invalid __shared__ %s of size %u at 0x%llx: the CTA has %llu bytes of shared memory",
			    what, size, a, (unsigned long long)L->shared_size);
		return;
	case PS_LOCAL:
		sim_finding(cta, ins, lane, "out-of-bounds", PS_LOCAL, a, size, false,
			    "invalid __local__ %s of size %u at 0x%llx: the thread has %llu bytes of local memory",
			    what, size, a, (unsigned long long)L->local_per_thread);
		return;
	case PS_PARAM:
		sim_finding(cta, ins, lane, "out-of-bounds", PS_PARAM, a, size, false,
			    "invalid kernel-parameter %s of size %u at offset %llu", what, size, a);
		return;
	default:
		if (x->miss == SIM_READ_ONLY)
			sim_finding(cta, ins, lane, "out-of-bounds", PS_CONST, a, size, false,
				    "invalid __constant__ write of size %u at 0x%llx: constant memory is read-only",
				    size, a);
		else
			global_finding(cta, ins, lane, x, a, size, what);
	}
}

uint8_t *sim_translate(struct sim_cta *cta, struct sim_warp *w, int lane, enum ptx_space *space, uint64_t addr,
		       unsigned size, bool is_store, const struct ptx_insn *ins)
{
	struct sim_memmap m = lane_memmap(cta, w, lane);
	struct sim_xlat x = sim_addr_translate(&m, *space, addr, size, is_store);
	*space = x.space;
	if (x.miss == SIM_HIT)
		return x.host;
	miss_finding(cta, ins, lane, &x, size, is_store);
	return sim_fault_miss(cta, ins, lane, &x, size, is_store); /* refused, or mapped bytes (opts.faults) */
}

/* Counts of one warp-level access: requests and sectors (global, local) or one instruction and its
 * wavefronts (shared).  Returns false for spaces that are not counted (param, const). */
struct access_cost {
	unsigned units, conflicts;
	unsigned lines; /* global: the distinct 128-byte lines (the L1's tag lookups) */
	unsigned ideal; /* global: the sectors the active lanes' bytes need at best, ceil(lanes * size / 32) */
};

/* `site` names the call (instruction, and which SASS part) for the wavefront memo. */
static bool access_cost(struct sim_cta *cta, uintptr_t site, enum ptx_space sp, const uint64_t addr[32], uint32_t mask,
			unsigned size, struct access_cost *out)
{
	out->conflicts = 0;
	out->ideal = 0;
	out->lines = 0;
	if (sp == PS_SHARED) {
		uint32_t a32[32] = {0};
		if (mask == 0xffffffffu)
			for (int l = 0; l < 32; l++) /* a loop the compiler vectorises */
				a32[l] = (uint32_t)addr[l];
		else
			FOR_LANES(mask, l) a32[l] = (uint32_t)addr[l];
		unsigned phases;
		out->units = gl_mm_shared_cost_memo(&cta->wf_memo, site, a32, mask, size, &phases);
		out->conflicts = gl_mm_shared_conflicts(out->units, phases);
	} else if (sp == PS_GLOBAL) { /* ld.const goes through the constant cache, not this pipe */
		out->units = gl_mm_global_sectors(addr, mask, size);
		out->lines = gl_mm_global_lines(addr, mask, size);
		out->ideal = ((unsigned)__builtin_popcount(mask) * size + GL_SECTOR_BYTES - 1) / GL_SECTOR_BYTES;
	} else if (sp == PS_LOCAL) {
		out->units = gl_mm_local_sectors(addr, mask, size);
	} else {
		return false;
	}
	return true;
}

void sim_access_cost(struct sim_cta *cta, uintptr_t site, enum ptx_space sp, const uint64_t addr[32], uint32_t mask,
		     unsigned size, uint32_t *units, uint32_t *conflicts)
{
	struct access_cost a = {0};
	access_cost(cta, site, sp, addr, mask, size, &a);
	*units = a.units;
	*conflicts = a.conflicts;
}

/* Add one access to the counters under Nsight Compute's names. */
static void add_access(struct gl_sim_counters *c, enum ptx_space sp, bool is_store, const struct access_cost *a)
{
	uint64_t *inst = sp == PS_SHARED ? (is_store ? &c->sst_inst : &c->sld_inst)
			 : sp == PS_GLOBAL ? (is_store ? &c->gst_req : &c->gld_req)
					   : (is_store ? &c->lst_req : &c->lld_req);
	uint64_t *units = sp == PS_SHARED ? (is_store ? &c->sst_wf : &c->sld_wf)
			  : sp == PS_GLOBAL ? (is_store ? &c->gst_sect : &c->gld_sect)
					    : (is_store ? &c->lst_sect : &c->lld_sect);
	*inst += 1;
	*units += a->units;
	if (sp == PS_GLOBAL) {
		*(is_store ? &c->gst_ideal : &c->gld_ideal) += a->ideal;
		*(is_store ? &c->gst_lines : &c->gld_lines) += a->lines;
	}
	if (sp == PS_SHARED)
		*(is_store ? &c->sst_conf : &c->sld_conf) += a->conflicts;
}

/* The same, once per PTX instruction (gpulab__ptx_* metrics). */
static void add_ptx_access(struct gl_sim_counters *c, enum ptx_space sp, bool is_store, const struct access_cost *a)
{
	if (sp == PS_SHARED) {
		*(is_store ? &c->ptx_sst_inst : &c->ptx_sld_inst) += 1;
		*(is_store ? &c->ptx_sst_wf : &c->ptx_sld_wf) += a->units;
		*(is_store ? &c->ptx_sst_conf : &c->ptx_sld_conf) += a->conflicts;
	} else if (sp == PS_GLOBAL) {
		*(is_store ? &c->ptx_gst_req : &c->ptx_gld_req) += 1;
		*(is_store ? &c->ptx_gst_sect : &c->ptx_gld_sect) += a->units;
	}
}

/* What ptxas made of this instruction, or NULL when the module has no SASS mapping. */
static const struct ptx_sass *sass_of(const struct sim_cta *cta, const struct ptx_insn *ins)
{
	const struct ptx_function *fn = cta->L->fn;
	uintptr_t p = (uintptr_t)ins, lo = (uintptr_t)fn->code, hi = (uintptr_t)(fn->code + fn->ncode);
	return fn->sass && p >= lo && p < hi ? &fn->sass[ins - fn->code] : NULL;
}

/* No SASS mapping, or SASS makes this access as PTX does: it counts once, as the PTX access. */
static bool sass_as_ptx(const struct ptx_sass *m)
{
	return !m || m->kind == SASS_NONE || m->kind == SASS_SAME;
}

/* Count the SASS access(es) this PTX access stands for (sass_map.h): a vector carrying merged neighbours
 * is one access of its width starting `delta` bytes lower; a split is several narrower ones; members of
 * a vector and removed accesses count nothing.  (sim_mem_hot.c's count_hot keeps the same rule for the
 * hot form.) */
static void add_sass_access(struct sim_cta *cta, const struct sim_warp *w, const struct ptx_insn *ins,
			    enum ptx_space sp, const uint64_t addr[32], uint32_t mask, unsigned size, bool is_store,
			    const struct access_cost *ptx)
{
	const struct ptx_sass *m = sass_of(cta, ins);
	if (sass_as_ptx(m)) {
		add_access(&cta->c, sp, is_store, ptx);
		return;
	}
	if (m->kind != SASS_VECTOR && m->kind != SASS_SPLIT)
		return;
	if (m->span > 1 && cta->sass_phase) { /* one SASS access every span-th execution, from the first */
		uint8_t *phase = &cta->sass_phase[(size_t)w->id * cta->L->fn->ncode + (size_t)(ins - cta->L->fn->code)];
		bool issue = *phase == 0;
		*phase = (uint8_t)((*phase + 1) % m->span);
		if (!issue)
			return;
	}
	unsigned parts = m->kind == SASS_SPLIT ? size / m->width : 1;
	uint64_t shifted[32];
	for (unsigned k = 0; k < parts; k++) {
		uint64_t move = m->kind == SASS_VECTOR ? (uint64_t)0 - (uint64_t)(int64_t)m->delta : (uint64_t)k * m->width;
		FOR_LANES(mask, l) shifted[l] = addr[l] + move;
		struct access_cost a;
		access_cost(cta, (uintptr_t)ins + 1 + k, sp, shifted, mask, m->width, &a);
		add_access(&cta->c, sp, is_store, &a);
	}
}

/* Record one counted access whose cost is known. */
static void count_cost(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, enum ptx_space sp,
		       const uint64_t addr[32], uint32_t mask, unsigned size, bool is_store,
		       const struct access_cost *cost)
{
	add_ptx_access(&cta->c, sp, is_store, cost);
	if (sp == PS_SHARED)
		sim_spots_add(cta, ins, is_store ? SIM_SPOT_SST : SIM_SPOT_SLD, cost->conflicts);
	if (sp == PS_GLOBAL) {
		sim_spots_add(cta, ins, is_store ? SIM_SPOT_GST : SIM_SPOT_GLD,
			      cost->units > cost->ideal ? cost->units - cost->ideal : 0);
		sim_touch_mark(&cta->L->touch, is_store, addr, mask, size);
		if (!is_store)
			sim_l1_load(cta, addr, mask, size, ins->mods & (PM_CG | PM_VOLATILE));
	}
	add_sass_access(cta, w, ins, sp, addr, mask, size, is_store, cost);
	if (cta->trace)
		sim_trace_record(cta, w, ins, sp, addr, mask, size, is_store, cost->units);
}

static void count_access(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, enum ptx_space sp,
			 const uint64_t addr[32], uint32_t mask, unsigned size, bool is_store)
{
	struct access_cost a;
	if (mask && !(ins->mods & PM_CALLPARAM) && access_cost(cta, (uintptr_t)ins, sp, addr, mask, size, &a))
		count_cost(cta, w, ins, sp, addr, mask, size, is_store, &a);
}

/* Split the lanes of a generic access by the space each address falls in, and count each part. */
static void count_by_space(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint64_t addr[32],
			   uint32_t mask, unsigned size, bool is_store)
{
	enum ptx_space sp = (enum ptx_space)ins->space;
	if (sp != PS_GENERIC && sp != PS_NONE) {
		count_access(cta, w, ins, sp, addr, mask, size, is_store);
		return;
	}
	uint64_t local[32];
	uint32_t masks[PS_CONST + 1] = {0};
	FOR_LANES(mask, l) {
		local[l] = addr[l];
		masks[sim_resolve_generic(&local[l])] |= 1u << l;
	}
	for (int s = PS_GLOBAL; s <= PS_CONST; s++)
		count_access(cta, w, ins, (enum ptx_space)s, local, masks[s], size, is_store);
}

/* restrict: the address array is never a register column, so the loop needs no overlap check. */
static void copy_offset(uint64_t *restrict addr, const uint64_t *restrict base, uint64_t off)
{
	for (int l = 0; l < 32; l++)
		addr[l] = base[l] + off;
}

void sim_lane_addresses(struct sim_cta *cta, struct sim_warp *w, const struct ptx_operand *mo, uint32_t mask,
			uint64_t addr[32])
{
	if (mo->slot < 0) {
		FOR_LANES(mask, l) addr[l] = (uint64_t)mo->offset;
		return;
	}
	const uint64_t *base = sim_src(cta, w, mo->slot);
	uint64_t off = (uint64_t)mo->offset;
	if (mask == 0xffffffffu) { /* a full warp: a plain loop */
		copy_offset(addr, base, off);
		return;
	}
	FOR_LANES(mask, l) addr[l] = base[l] + off;
}

/* The register slot for vector element k of a ld destination or st source (-1: sink). */
static int element_slot(const struct ptx_operand *o, int k)
{
	return o->kind == PO_VEC ? (k < o->nvec ? o->vec[k] : -1) : (k == 0 ? o->slot : -1);
}

/* The warp fast path: the first active lane's access translates (sim_addr_translate, the same checks
 * as a single lane) into an allocation (shared memory, or a global region), and every active lane's
 * access is aligned and inside that same allocation; then lane l's bytes are at
 * host + (addr[l] - first), where `first` is the allocation's address and `host` its host copy. */
struct fast_span {
	uint8_t *host;
	uint64_t first;
};

/* Nonzero when a lane's address is below base, past base + last, or has a bit of `align` set (a lane
 * below base wraps around to an offset past last). */
static uint64_t lanes_outside(const uint64_t addr[32], uint32_t mask, uint64_t base, uint64_t last, uint64_t align)
{
	uint64_t bad = 0;
	FOR_LANES(mask, l) bad |= (uint64_t)(addr[l] - base > last) | (addr[l] & align);
	return bad;
}

#if defined(__x86_64__) && defined(__GNUC__)
/* A full warp, in a copy built for AVX2 (picked at run time): the compiler compares four lanes at once. */
__attribute__((target("avx2"))) static uint64_t warp_outside_avx2(const uint64_t addr[32], uint64_t base,
								   uint64_t last, uint64_t align)
{
	uint64_t bad = 0;
	for (int l = 0; l < 32; l++)
		bad |= (uint64_t)(addr[l] - base > last) | (addr[l] & align);
	return bad;
}
#endif

static uint64_t warp_outside(const uint64_t addr[32], uint32_t mask, uint64_t base, uint64_t last, uint64_t align)
{
#if defined(__x86_64__) && defined(__GNUC__)
	if (mask == 0xffffffffu && __builtin_cpu_supports("avx2"))
		return warp_outside_avx2(addr, base, last, align);
#endif
	return lanes_outside(addr, mask, base, last, align);
}

static bool fast_span(struct sim_cta *cta, struct sim_warp *w, enum ptx_space sp, const uint64_t addr[32],
		      uint32_t mask, unsigned size, bool is_store, struct fast_span *out)
{
	if ((sp != PS_GLOBAL && sp != PS_SHARED) || !mask)
		return false;
	uint64_t a0 = addr[__builtin_ctz(mask)];
	struct sim_memmap m = lane_memmap(cta, w, 0);
	struct sim_xlat x = sim_addr_translate(&m, sp, a0, size, is_store);
	if (x.miss != SIM_HIT || (sp == PS_GLOBAL && !x.region))
		return false;
	uint64_t base = sp == PS_SHARED ? 0 : x.region->base;
	uint64_t last = (sp == PS_SHARED ? m.shared_size : x.region->size) - size; /* the highest offset that fits */
	if (warp_outside(addr, mask, base, last, size - 1))
		return false;
	*out = (struct fast_span){x.host - (a0 - base), base};
	return true;
}

uint8_t *sim_shared_span(struct sim_cta *cta, struct sim_warp *w, const uint64_t addr[32], uint32_t mask,
			 unsigned size)
{
	struct fast_span f;
	return fast_span(cta, w, PS_SHARED, addr, mask, size, false, &f) ? f.host - f.first : NULL;
}

static void store_element(uint8_t *p, uint64_t v, unsigned esz)
{
	switch (esz) {
	case 4: { uint32_t x = (uint32_t)v; memcpy(p, &x, 4); break; }
	case 8: memcpy(p, &v, 8); break;
	case 2: { uint16_t x = (uint16_t)v; memcpy(p, &x, 2); break; }
	default: *p = (uint8_t)v; break;
	}
}

static uint64_t load_element(const uint8_t *p, unsigned esz, bool sign)
{
	switch (esz) {
	case 4: { uint32_t x; memcpy(&x, p, 4); return sign ? (uint64_t)(int64_t)(int32_t)x : x; }
	case 8: { uint64_t x; memcpy(&x, p, 8); return x; }
	case 2: { uint16_t x; memcpy(&x, p, 2); return sign ? (uint64_t)(int64_t)(int16_t)x : x; }
	default: return sign ? (uint64_t)(int64_t)(int8_t)*p : *p;
	}
}

/* Global races inside a CTA: only between warps, so single-warp CTAs skip the bookkeeping. */
/* Lane l's access of n bytes at addr races with warp other - 1 (the race table's answer). */
static void race_finding(struct sim_cta *cta, const struct sim_warp *w, const struct ptx_insn *ins, unsigned l,
			 uint64_t addr, unsigned n, unsigned other)
{
	sim_finding(cta, ins, (int)l, "race", PS_GLOBAL, addr, n, false,
		    "global-memory race at 0x%llx: warps %u and %u of one CTA access it between two barriers, "
		    "at least one writing", (unsigned long long)addr, other - 1, w->id);
}

static void check_global_race(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, unsigned l,
			      uint64_t addr, unsigned n, bool is_store)
{
	if (!sim_races_checked(cta, ins))
		return;
	unsigned other = sim_race_access(&cta->race, cta->gen, cta->epoch, w->id, addr, n, is_store);
	if (other)
		race_finding(cta, w, ins, l, addr, n, other);
}

void sim_global_race_findings(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t racing,
			      const uint64_t addr[32], unsigned n, const uint8_t other[32])
{
	FOR_LANES(racing, l)
		race_finding(cta, w, ins, l, addr[l], n, other[l]);
}

/* check_global_race for the lanes of a warp-level access, in lane order. */
void sim_check_global_races(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask,
			    const uint64_t addr[32], unsigned n, bool is_store, const struct sim_race_key *key)
{
	if (!sim_races_checked(cta, ins))
		return;
	uint8_t other[32];
	uint32_t racing =
		sim_race_warp_keyed(&cta->race, cta->gen, cta->epoch, w->id, addr, mask, n, is_store, key, other);
	if (racing)
		sim_global_race_findings(cta, w, ins, racing, addr, n, other);
}

static void move_lane(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, const struct ptx_operand *ro,
		      enum ptx_space sp, uint8_t *p, uint64_t addr, unsigned l)
{
	bool is_store = ins->op == OP_ST;
	unsigned esz = ptx_type_bytes((enum ptx_type)ins->type), nvec = ins->vec ? ins->vec : 1;
	bool sign = ptx_type_is_signed((enum ptx_type)ins->type);
	for (unsigned k = 0; k < nvec; k++) {
		int slot = element_slot(ro, (int)k);
		if (slot < 0)
			continue;
		if (is_store)
			store_element(p + k * esz, sim_src(cta, w, slot)[l], esz);
		else
			sim_reg(w, slot)[l] = load_element(p + k * esz, esz, sign);
	}
	if (sp == PS_GLOBAL)
		check_global_race(cta, w, ins, l, addr, esz * nvec, is_store);
	if (sp != PS_SHARED)
		return;
	if (is_store)
		sim_shadow_write(cta, w, ins, (int)l, addr, esz * nvec);
	else
		sim_shadow_read(cta, w, ins, (int)l, addr, esz * nvec);
}

/* A load the sanitizer refused (out of bounds, misaligned) still writes its destination in that lane:
 * zero.  So every unguarded load writes every lane that runs it, as ptx_regalloc assumes when it lets
 * a loaded register share a slot (the lane would otherwise see the slot's last value). */
static void refused_load(struct sim_warp *w, const struct ptx_insn *ins, const struct ptx_operand *ro, unsigned l)
{
	for (unsigned k = 0; k < (ins->vec ? ins->vec : 1); k++) {
		int slot = element_slot(ro, (int)k);
		if (slot >= 0)
			sim_reg(w, slot)[l] = 0;
	}
}

static int exec_ld_st(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask)
{
	uint64_t addr[32];
	sim_lane_addresses(cta, w, &ins->ops[ins->op == OP_ST ? 0 : 1], mask, addr);
	return sim_ld_st_at(cta, w, ins, mask, addr);
}

/* An ld.param of the lanes in `mask` (not empty) from the one address a: translated once, every lane
 * given the same values.  Parameters are neither counted, raced nor shadowed, so this is move_lane for
 * each lane; a miss returns false for the per-lane path and its findings. */
static bool param_load_at(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins,
			  const struct ptx_operand *ro, uint32_t mask, uint64_t a, unsigned size)
{
	struct sim_memmap m = lane_memmap(cta, w, 0);
	struct sim_xlat x = sim_addr_translate(&m, PS_PARAM, a, size, false);
	if (x.miss != SIM_HIT)
		return false;
	unsigned esz = ptx_type_bytes((enum ptx_type)ins->type), nvec = ins->vec ? ins->vec : 1;
	bool sign = ptx_type_is_signed((enum ptx_type)ins->type);
	for (unsigned k = 0; k < nvec; k++) {
		int slot = element_slot(ro, (int)k);
		if (slot < 0)
			continue;
		uint64_t v = load_element(x.host + k * esz, esz, sign), *d = sim_reg(w, slot);
		if (mask == 0xffffffffu)
			for (int l = 0; l < 32; l++)
				d[l] = v;
		else
			FOR_LANES(mask, l) d[l] = v;
	}
	return true;
}

/* param_load_at for a kernel-parameter load whose active lanes all read one address (the usual ld.param). */
static bool uniform_param_load(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins,
			       const struct ptx_operand *ro, uint32_t mask, const uint64_t addr[32], unsigned size)
{
	if (ins->space != PS_PARAM || ins->op != OP_LD || !mask)
		return false;
	uint64_t a = addr[__builtin_ctz(mask)];
	uint64_t diff = 0;
	if (mask == 0xffffffffu) /* a full warp (the usual case): plain loops, which the compiler vectorises */
		for (int l = 0; l < 32; l++)
			diff |= addr[l] ^ a;
	else
		FOR_LANES(mask, l) diff |= addr[l] ^ a;
	return !diff && param_load_at(cta, w, ins, ro, mask, a, size);
}

int sim_ld_param_at(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask, uint64_t a)
{
	const struct ptx_operand *ro = &ins->ops[0];
	unsigned size = ptx_type_bytes((enum ptx_type)ins->type) * (ins->vec ? ins->vec : 1);
	if (param_load_at(cta, w, ins, ro, mask, a, size))
		return 0;
	uint64_t addr[32];
	for (int l = 0; l < 32; l++)
		addr[l] = a;
	return sim_mem_hot_or_general(cta, w, ins, mask, addr); /* the lanes' own way, with its findings */
}

/* The data of a scalar 32- or 64-bit access whose lanes all lie in one span (fast_span).  Inlined twice
 * below, so that each size's element moves are plain loads and stores, not a switch per lane. */
static inline __attribute__((always_inline)) void move_n(struct sim_cta *cta, struct sim_warp *w,
							 const struct ptx_insn *ins, int slot, const struct fast_span *f,
							 const uint64_t addr[32], uint32_t mask, unsigned size, bool is_store)
{
	if (is_store) {
		const uint64_t *v = sim_src(cta, w, slot);
		FOR_LANES(mask, l) store_element(f->host + (addr[l] - f->first), v[l], size);
		return;
	}
	uint64_t *d = sim_reg(w, slot);
	bool sign = size == 4 && ptx_type_is_signed((enum ptx_type)ins->type);
	if (size == 4 && !sign && mask == 0xffffffffu) { /* a full warp's unsigned words: no lane iteration */
		for (int l = 0; l < 32; l++)
			d[l] = load_element(f->host + (addr[l] - f->first), 4, false);
		return;
	}
	FOR_LANES(mask, l) d[l] = load_element(f->host + (addr[l] - f->first), size, sign);
}

static void move_scalars(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, int slot,
			 const struct fast_span *f, const uint64_t addr[32], uint32_t mask, unsigned size, bool is_store)
{
	if (size == 8)
		move_n(cta, w, ins, slot, f, addr, mask, 8, is_store);
	else
		move_n(cta, w, ins, slot, f, addr, mask, 4, is_store);
}

int sim_ld_st_at(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask, uint64_t addr[32])
{
	if (sim_mem_hot(cta, w, ins, mask, addr)) /* sim_mem_hot.c: shared addresses below 2^32, none to cut */
		return 0;
	return sim_ld_st_general(cta, w, ins, mask, addr);
}

int sim_ld_st_general(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask,
		      uint64_t addr[32])
{
	bool is_store = ins->op == OP_ST;
	const struct ptx_operand *ro = &ins->ops[is_store ? 1 : 0];
	unsigned size = ptx_type_bytes((enum ptx_type)ins->type) * (ins->vec ? ins->vec : 1);
	/* a kernel parameter: .param addresses are not wrapped, and access_cost counts nothing for them */
	if (uniform_param_load(cta, w, ins, ro, mask, addr, size))
		return 0;
	sim_addr_wrap_warp((enum ptx_space)ins->space, addr, mask); /* both engines' addresses, once */
	count_by_space(cta, w, ins, addr, mask, size, is_store);
	enum ptx_space space = (enum ptx_space)ins->space;
	struct fast_span f;
	bool fast = fast_span(cta, w, space, addr, mask, size, is_store, &f);
	if (fast && ro->kind == PO_SLOT && ro->slot >= 0 && (size == 4 || size == 8)) { /* a scalar: the hot forms */
		move_scalars(cta, w, ins, ro->slot, &f, addr, mask, size, is_store);
		if (space == PS_SHARED)
			sim_shadow_warp(cta, w, ins, mask, addr, size, is_store);
		else
			sim_check_global_races(cta, w, ins, mask, addr, size, is_store, NULL);
		return 0;
	}
	if (fast) {
		FOR_LANES(mask, l) move_lane(cta, w, ins, ro, space, f.host + (addr[l] - f.first), addr[l], l);
		return 0;
	}
	FOR_LANES(mask, l) {
		enum ptx_space sp = space;
		uint8_t *p = sim_translate(cta, w, (int)l, &sp, addr[l], size, is_store, ins);
		if (p) /* the shadow wants the shared offset, not the generic address */
			move_lane(cta, w, ins, ro, sp, p, sp == PS_SHARED ? (uint64_t)(p - cta->shared) : addr[l], l);
		else if (!is_store)
			refused_load(w, ins, ro, l);
	}
	return 0;
}

void sim_warp_access(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, const uint64_t addr[32],
		     uint32_t mask, unsigned size, bool is_store, uint64_t val[32])
{
	uint64_t a[32];
	FOR_LANES(mask, l) a[l] = sim_addr_wrap((enum ptx_space)ins->space, addr[l]);
	count_by_space(cta, w, ins, a, mask, size, is_store);
	FOR_LANES(mask, l) {
		enum ptx_space sp = (enum ptx_space)ins->space;
		uint8_t *p = sim_translate(cta, w, (int)l, &sp, addr[l], size, is_store, ins);
		if (!p)
			continue;
		if (is_store)
			store_element(p, val[l], size);
		else
			val[l] = load_element(p, size, false);
		if (sp == PS_GLOBAL)
			check_global_race(cta, w, ins, l, addr[l], size, is_store);
		else if (sp == PS_SHARED && is_store)
			sim_shadow_write(cta, w, ins, (int)l, (uint64_t)(p - cta->shared), size);
		else if (sp == PS_SHARED)
			sim_shadow_read(cta, w, ins, (int)l, (uint64_t)(p - cta->shared), size);
	}
}

/* cp.async.{ca,cg}.shared.global [dst], [src], cp-size[, src-size]: the copy completes at issue here. */
static int exec_cp_async(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask)
{
	unsigned size = (unsigned)sim_src(cta, w, ins->ops[2].slot)[__builtin_ctz(mask ? mask : 1)];
	if (size != 4 && size != 8 && size != 16)
		return sim_unsupported(cta, w, ins, "cp.async sizes other than 4, 8 and 16 bytes");
	const uint64_t *srcsize = ins->nops > 3 && ins->ops[3].kind == PO_SLOT ? SRC(3) : NULL;
	uint64_t dst[32], src[32];
	sim_lane_addresses(cta, w, &ins->ops[0], mask, dst);
	sim_addr_wrap_warp(PS_SHARED, dst, mask); /* dst is a .shared address, whatever the register */
	sim_lane_addresses(cta, w, &ins->ops[1], mask, src);
	uint32_t reading = 0; /* lanes with src-size 0 only zero-fill: they read no global memory */
	FOR_LANES(mask, l) reading |= (uint32_t)(!srcsize || srcsize[l] != 0) << l;
	if (mask) {
		unsigned sectors = gl_mm_global_sectors(src, reading, size);
		cta->c.ldgsts_inst++;
		cta->c.ldgsts_req++;
		cta->c.ldgsts_sect += sectors;
		sim_touch_mark(&cta->L->touch, false, src, reading, size); /* the source is part of the footprint */
		sim_l1_load(cta, src, reading, size, ins->mods & PM_CG);
		uint32_t d32[32];
		FOR_LANES(mask, l) d32[l] = (uint32_t)dst[l];
		cta->c.ldgsts_sst_wf += gl_mm_shared_wavefronts(d32, mask, size);
		if (cta->trace) {
			sim_trace_record(cta, w, ins, PS_GLOBAL, src, reading, size, false, sectors);
			sim_trace_record(cta, w, ins, PS_SHARED, dst, mask, size, true,
					 gl_mm_shared_wavefronts(d32, mask, size));
		}
	}
	/* every reading lane inside one global buffer and every lane inside shared memory, aligned: each lane's
	 * bytes are where the one checked translation would find them, without a finding */
	struct fast_span fs = {0}, fd;
	bool fast = fast_span(cta, w, PS_SHARED, dst, mask, size, true, &fd) &&
		    (!reading || fast_span(cta, w, PS_GLOBAL, src, reading, size, false, &fs));
	FOR_LANES(mask, l) {
		enum ptx_space gs = PS_GLOBAL, ss = PS_SHARED;
		unsigned n = srcsize ? (unsigned)srcsize[l] : size;
		if (srcsize && srcsize[l] > size) { /* the PTX ISA: src-size <= cp-size, else undefined */
			sim_finding(cta, ins, (int)l, "invalid-size", PS_GLOBAL, src[l], size, false,
				    "cp.async src-size %llu is larger than its cp-size %u (the PTX ISA leaves the copy "
				    "undefined): nothing was copied", (unsigned long long)srcsize[l], size);
			continue;
		}
		uint8_t *s, *d;
		if (fast) {
			s = n ? fs.host + (src[l] - fs.first) : NULL;
			d = fd.host + (dst[l] - fd.first);
		} else {
			s = n ? sim_translate(cta, w, (int)l, &gs, src[l], size, false, ins) : NULL;
			d = sim_translate(cta, w, (int)l, &ss, dst[l], size, true, ins);
		}
		if (!d || (n && !s))
			continue;
		uint8_t buf[16] = {0};
		if (n)
			memcpy(buf, s, n < size ? n : size);
		memcpy(d, buf, size);
		sim_shadow_write(cta, w, ins, (int)l, dst[l], size);
		sim_async_copy(cta, w, (int)l, dst[l], size);
	}
	return 0;
}

int sim_exec_mem(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask)
{
	if (ins->op == OP_CP_ASYNC)
		return exec_cp_async(cta, w, ins, mask);
	return exec_ld_st(cta, w, ins, mask);
}
