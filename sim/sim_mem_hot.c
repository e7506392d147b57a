/* sim_mem_hot.c — the hot forms of ld/st: a full warp's 4-byte ld.shared or ld.global into a register
 * (or st from one), or the same of 8 bytes in shared memory (a tree's 64-bit keys), the inner loops of
 * tiled and streaming kernels.  Everything the general path
 * (sim_mem.c) works out from the 32 addresses, except where they start, depends only on their shape:
 * each lane's address minus lane 0's.  At one instruction the shape seldom changes (every warp and every
 * tile row of a tiled loop gives the same one), so what it implies is kept per call site (struct
 * sim_shape): the bounds of the lanes, alignment, the wavefronts and bank conflicts of the PTX access and
 * of the SASS access(es) it stands for (shared), its sectors for each start modulo a sector (global), how
 * to move the data, the words it reads as quiet-read windows (shared) and the sectors already marked
 * touched (global).  An access compares its shape in one vectorised pass and checks its start; the
 * counts, checks and findings are the general path's. */
#include "sim_exec.h"
#include "sim_quiet.h"
#include "sim_simd.h"
#include "sim_trace.h"

enum { SHAPE_ANY, SHAPE_SAME, SHAPE_UNIT }; /* lanes anywhere; all at one address; lane l at 4 l */

/* Inlined whole into the entries at the end, which are the SIMD clones (sim_simd.h): each clone gets its
 * own vector code, and the hot path makes no call. */
#define HOT_INLINE static inline __attribute__((always_inline))

/* Four lanes' 64-bit values (GCC/Clang vector extensions: AVX2 in the clones built for it). */
typedef uint64_t lanes4 __attribute__((vector_size(32)));

/* How each lane's address differs from lane 0's against the shape `rel` (0: the same shape), in one
 * straight pass of 8 vectors (sim_simd.h). */
HOT_INLINE uint64_t shape_diff(const uint64_t *restrict addr, const int64_t *restrict rel)
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

/* Does any lane's address differ from lane 0's (the check of a shape of kind SHAPE_SAME, which needs no
 * offsets)? */
HOT_INLINE uint64_t lanes_differ(const uint64_t *restrict addr)
{
	lanes4 a0 = {addr[0], addr[0], addr[0], addr[0]}, diff = {0, 0, 0, 0};
#pragma GCC unroll 8
	for (int q = 0; q < 32; q += 4) {
		lanes4 a;
		memcpy(&a, addr + q, sizeof a);
		diff |= a ^ a0;
	}
	return diff[0] | diff[1] | diff[2] | diff[3];
}

/* Add word (relative to lane 0's) to a shape's windows: to the first window holding it, else to a new one
 * opened at it. */
static inline __attribute__((always_inline)) void window_add(struct sim_shape *e, int64_t word)
{
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

/* The words a shape reads as 64-word windows relative to lane 0's word: in lane order, a word that no
 * window holds yet opens one there.  A tile row or a broadcast per half-warp takes one or two; a column
 * of a 32-word-wide tile, sixteen.  An 8-byte lane's two words (an even one and the next) share a window:
 * windows open at even words then, so 32 lanes open at most 32.  One loop per size, so that installing a
 * 4-byte shape (which flash attention does thousands of times) tests no size per word. */
static void shape_windows(struct sim_shape *e)
{
	e->nwin = 0;
	if (e->size == 8) {
		for (int l = 0; l < 32; l++) {
			window_add(e, e->rel[l] / 4);
			window_add(e, e->rel[l] / 4 + 1);
		}
		return;
	}
	for (int l = 0; l < 32; l++)
		window_add(e, e->rel[l] / 4);
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
		uint64_t move =
			m->kind == SASS_VECTOR ? (uint64_t)0 - (uint64_t)(int64_t)m->delta : (uint64_t)k * m->width;
		uint64_t shifted[32];
		for (int l = 0; l < 32; l++)
			shifted[l] = addr[l] + move;
		sim_access_cost(cta, (uintptr_t)ins + 1 + k, PS_SHARED, shifted, 0xffffffffu, m->width,
				&e->part_units[k], &e->part_conflicts[k]);
	}
}

/* Is `ins` of a hot form (a full warp's 4-byte ld.shared or ld.global into a register that is not
 * sign-extended, or st from one; or the same of 8 bytes, shared only: a whole register, no extension)? */
static bool hot_form(const struct ptx_insn *ins)
{
	bool is_store = ins->op == OP_ST;
	const struct ptx_operand *ro = &ins->ops[is_store ? 1 : 0];
	enum ptx_type t = (enum ptx_type)ins->type;
	unsigned bytes = ptx_type_bytes(t);
	bool sized = bytes == 4 ? is_store || !ptx_type_is_signed(t) : bytes == 8 && ins->space == PS_SHARED;
	return (ins->op == OP_LD || is_store) && (ins->space == PS_SHARED || ins->space == PS_GLOBAL) &&
	       ins->vec <= 1 && sized && ro->kind == PO_SLOT && ro->slot >= 0 && !(ins->mods & PM_CALLPARAM);
}

/* The class of a shared shape of lanes rel: one number for every shape with this rel, so that a register
 * found to have one shape is known to have every shape of the same class (sim_mem_hot_reg_or_general).
 * The latest classes are kept by a hash of rel; a class that is not kept any more is never given again,
 * so equal classes always mean equal rel (a rel may come to have several). */
static uint64_t shape_class(struct sim_cta *cta, const int64_t rel[32])
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (int l = 0; l < 32; l++)
		h = (h ^ (uint64_t)rel[l]) * 0x100000001b3ull;
	struct sim_shape_class *c = &cta->shape_classes[(h >> 32) % SIM_SHAPE_CLASSES];
	if (!c->cls || memcmp(c->rel, rel, sizeof c->rel) != 0) {
		memcpy(c->rel, rel, sizeof c->rel);
		c->cls = ++cta->shape_serial;
	}
	return c->cls;
}

/* The shared-memory facts of a shape: its wavefronts and conflicts, its SASS parts', and its windows;
 * false when its lanes are not all below 2^32. */
static bool install_shared(struct sim_cta *cta, const struct ptx_insn *ins, struct sim_shape *e,
			   const uint64_t addr[32])
{
	for (int l = 0; l < 32; l++)
		if (addr[l] >> 32)
			return false;
	shape_windows(e);
	sim_access_cost(cta, (uintptr_t)ins, PS_SHARED, addr, 0xffffffffu, e->size, &e->units, &e->conflicts);
	/* the starts that keep every lane inside shared memory (none when last < first); the slots live as long
	 * as the launch, whose shared memory keeps its size */
	e->first = -e->min;
	e->last = (int64_t)cta->L->shared_size - e->size - e->max;
	shape_sass(cta, ins, e, addr);
	e->cls = shape_class(cta, e->rel);
	/* counted as hits: every access issues its SASS one(s) (no span); 4-byte loads only, so that the lean
	 * path's tests and moves stay those of words */
	e->lean = e->size == 4 && !e->is_store && e->span <= 1 && e->last >= e->first;
	e->range = (uint64_t)(e->last - e->first);
	e->quiet1 = e->nwin == 1 && e->words[0] >> SIM_QUIET_NEAR_BITS == 0 && !(ins->mods & (PM_VOLATILE | PM_STRONG));
	return true;
}

/* The global facts of a shape: its sectors for each start are worked out as they come; the region and the
 * touched sectors as accesses find them.  Only accesses SASS makes as PTX does (or not at all) are hot:
 * a vector's sectors depend on more than the start within a sector. */
static bool install_global(struct sim_cta *cta, const struct ptx_insn *ins, struct sim_shape *e)
{
	const struct ptx_function *fn = cta->L->fn;
	uintptr_t p = (uintptr_t)ins, lo = (uintptr_t)fn->code, hi = (uintptr_t)(fn->code + fn->ncode);
	const struct ptx_sass *m = fn->sass && p >= lo && p < hi ? &fn->sass[ins - fn->code] : NULL;
	e->sass = m ? m->kind : SASS_NONE;
	if (e->sass != SASS_NONE && e->sass != SASS_SAME && e->sass != SASS_MEMBER && e->sass != SASS_REMOVED)
		return false;
	e->region = NULL;
	memset(e->sectors, 0, sizeof e->sectors);
	memset(e->marked, 0, sizeof e->marked);
	memset(e->l1_pattern, 0, sizeof e->l1_pattern);
	e->l1_key = (struct sim_l1_key){sim_l1_rel_hash(e->rel), 0};
	e->columns = true;
	for (int l = 0; l < 32; l++)
		e->columns &= (e->rel[l] & 31) == 0;
	return true;
}

/* How the 16 lanes of a half-warp lie relative to their first: all at one word, or lane l at 4 l. */
static uint8_t half_kind(const int64_t rel[16])
{
	bool same = true, unit = true;
	for (int l = 0; l < 16; l++) {
		same &= rel[l] == rel[0];
		unit &= rel[l] == rel[0] + 4 * l;
	}
	return same ? SHAPE_SAME : unit ? SHAPE_UNIT : SHAPE_ANY;
}

/* Work out the shape of `addr` (an access of a hot form) into the site's slot; false when its lanes are not
 * aligned to their size, or are far apart (the general path then runs). */
static bool shape_install(struct sim_cta *cta, const struct ptx_insn *ins, struct sim_shape *e, const uint64_t addr[32])
{
	unsigned size = ptx_type_bytes((enum ptx_type)ins->type);
	uint64_t rel_or = 0;
	int64_t min = 0, max = 0;
	bool same = true, unit = true;
	for (int l = 0; l < 32; l++) {
		uint64_t d = addr[l] - addr[0];
		int64_t r = (int64_t)d;
		if (r < -(int64_t)UINT32_MAX || r > (int64_t)UINT32_MAX)
			return false;
		rel_or |= d;
		min = r < min ? r : min;
		max = r > max ? r : max;
		same &= d == 0;
		unit &= d == 4u * (unsigned)l;
	}
	if ((addr[0] | rel_or) & (size - 1)) /* the counts below assume aligned lanes: else the general way */
		return false;
	for (int l = 0; l < 32; l++)
		e->rel[l] = (int64_t)(addr[l] - addr[0]);
	e->min = min;
	e->max = max;
	e->kind = same ? SHAPE_SAME : unit ? SHAPE_UNIT : SHAPE_ANY;
	for (int h = 0; h < 2; h++) /* the halves of a shape that is neither (rows of a 16-wide block) */
		e->half_kind[h] = half_kind(e->rel + 16 * h);
	e->is_store = ins->op == OP_ST;
	e->space = ins->space;
	e->size = (uint8_t)size;
	e->cls = 0;
	e->lean = false;
	if (!(ins->space == PS_SHARED ? install_shared(cta, ins, e, addr) : install_global(cta, ins, e)))
		return false;
	e->site = (uintptr_t)ins;
	e->id = ++cta->shape_serial;
	return true;
}

/* The facts of the shape of `addr` from the site's slot (worked out on a change); NULL when the access
 * is not of a hot form. */
static inline struct sim_shape *slot_of(struct sim_cta *cta, const struct ptx_insn *ins)
{
	return &cta->shapes[((uintptr_t)ins * 0x9E3779B97F4A7C15ull >> 40) % SIM_SHAPE_SLOTS];
}

/* Are the lanes of `addr` of shape e?  Only their differences count, so a register whose lanes plus an
 * offset are the addresses has the addresses' shape. */
static inline bool same_shape(const struct sim_shape *e, const uint64_t addr[32])
{
	return (e->kind == SHAPE_SAME ? lanes_differ(addr) : shape_diff(addr, e->rel)) == 0;
}

static void flush_hits(struct sim_cta *cta, struct sim_shape *e);

HOT_INLINE struct sim_shape *shape_of(struct sim_cta *cta, const struct ptx_insn *ins, const uint64_t addr[32])
{
	struct sim_shape *e = slot_of(cta, ins);
	if (e->site == (uintptr_t)ins && same_shape(e, addr))
		return e;
	if (!hot_form(ins)) /* another form leaves the slot to the site that has it */
		return NULL;
	flush_hits(cta, e);
	e->site = 0;
	return shape_install(cta, ins, e, addr) ? e : NULL;
}

/* The counters of n hot accesses of shape e at ins, each issuing its SASS access(es) or none: the PTX
 * access, then the SASS one(s) it stands for (as the general path's add_sass_access counts them).  Every
 * count is n times one access's, so counting n at once is exact. */
HOT_INLINE void count_n(struct sim_cta *cta, const struct ptx_insn *ins, const struct sim_shape *e, uint64_t n,
			bool issue)
{
	struct gl_sim_counters *c = &cta->c;
	uint64_t *inst = e->is_store ? &c->sst_inst : &c->sld_inst, *wf = e->is_store ? &c->sst_wf : &c->sld_wf;
	uint64_t *conf = e->is_store ? &c->sst_conf : &c->sld_conf;
	if (e->is_store) {
		c->ptx_sst_inst += n, c->ptx_sst_wf += n * e->units, c->ptx_sst_conf += n * e->conflicts;
	} else {
		c->ptx_sld_inst += n, c->ptx_sld_wf += n * e->units, c->ptx_sld_conf += n * e->conflicts;
	}
	sim_spots_add(cta, ins, e->is_store ? SIM_SPOT_SST : SIM_SPOT_SLD, n * e->conflicts);
	if (e->sass == SASS_NONE || e->sass == SASS_SAME) {
		*inst += n, *wf += n * e->units, *conf += n * e->conflicts;
	} else if (e->parts) {
		for (unsigned k = 0; issue && k < e->parts; k++)
			*inst += n, *wf += n * e->part_units[k], *conf += n * e->part_conflicts[k];
	}
}

/* The counters of one hot access (a vector's SASS access issues every span-th execution, from the first). */
HOT_INLINE void count_hot(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins,
			  const struct sim_shape *e)
{
	bool issue = true;
	if (e->parts && e->sass != SASS_NONE && e->sass != SASS_SAME && e->span > 1 && cta->sass_phase) {
		const struct ptx_function *fn = cta->L->fn;
		uint8_t *phase = &cta->sass_phase[(size_t)w->id * fn->ncode + (size_t)(ins - fn->code)];
		issue = *phase == 0;
		*phase = (uint8_t)((*phase + 1) % e->span);
	}
	count_n(cta, ins, e, 1, issue);
}

/* The accesses a lean shape counted in e->hits (sim_mem_hot_reg_or_general) go into the counters: before
 * its slot takes another shape, and before the counters are read (sim_mem_hot_flush). */
static void flush_hits(struct sim_cta *cta, struct sim_shape *e)
{
	if (!e->hits)
		return;
	count_n(cta, (const struct ptx_insn *)e->site, e, e->hits, true);
	e->hits = 0;
}

void sim_mem_hot_flush(struct sim_cta *cta)
{
	for (unsigned k = 0; cta->shapes && k < SIM_SHAPE_SLOTS; k++)
		flush_hits(cta, &cta->shapes[k]);
}

static uint32_t word_at(const uint8_t *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return v;
}

/* Lane l's word at src + rel[l], zero-extended (a load with a register destination): unrolled whole, three
 * host instructions a lane (a strided load's 32 rows take this path at every step). */
HOT_INLINE void gather_words(uint64_t *restrict d, const uint8_t *restrict src, const int64_t *restrict rel)
{
#pragma GCC unroll 32
	for (int l = 0; l < 32; l++)
		d[l] = word_at(src + rel[l]);
}

/* n lanes (16 or 32) of one value, or of the n words from src: inlined into each SIMD clone below, so
 * that every clone has its own fixed-length, vectorised loop. */
HOT_INLINE void fill_n(uint64_t *restrict d, uint64_t v, int n)
{
	lanes4 x = {v, v, v, v};
#pragma GCC unroll 8
	for (int q = 0; q < n; q += 4)
		memcpy(d + q, &x, sizeof x);
}

/* n words from src, each zero-extended to its lane: where the compiler has __builtin_shufflevector and the
 * machine is little-endian, four words interleaved with zeros are four lanes (one widening load each,
 * vpmovzxdq, in the AVX2 clones); elsewhere a word at a time. */
#if defined(__has_builtin) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#if __has_builtin(__builtin_shufflevector)
#define SIM_HOT_WIDEN 1
#endif
#endif
typedef uint32_t words4 __attribute__((vector_size(16)));
typedef uint32_t words8 __attribute__((vector_size(32)));

HOT_INLINE void copy_n(uint64_t *restrict d, const uint8_t *restrict src, int n)
{
#ifdef SIM_HOT_WIDEN
#pragma GCC unroll 8
	for (int q = 0; q < n; q += 4) {
		words4 x, zero = {0, 0, 0, 0};
		memcpy(&x, src + 4 * q, sizeof x);
		words8 y = __builtin_shufflevector(x, zero, 0, 4, 1, 4, 2, 4, 3, 4);
		memcpy(d + q, &y, sizeof y);
	}
#else
	for (int l = 0; l < n; l++)
		d[l] = word_at(src + 4 * l);
#endif
}

HOT_INLINE void fill_words(uint64_t *restrict d, uint64_t v)
{
	fill_n(d, v, 32);
}

HOT_INLINE void copy_words(uint64_t *restrict d, const uint8_t *restrict src)
{
	copy_n(d, src, 32);
}

HOT_INLINE void put_words(uint8_t *restrict dst, const uint64_t *restrict v)
{
	for (int l = 0; l < 32; l++) {
		uint32_t x = (uint32_t)v[l];
		memcpy(dst + 4 * l, &x, 4);
	}
}

HOT_INLINE void fill_half(uint64_t *restrict d, uint64_t v)
{
	fill_n(d, v, 16);
}

HOT_INLINE void copy_half(uint64_t *restrict d, const uint8_t *restrict src)
{
	copy_n(d, src, 16);
}

static uint64_t pair_at(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

/* Lane l's 8 bytes at src + rel[l]: one value for a warp all at one address, else lane by lane. */
static void load_pairs(uint64_t *restrict d, const struct sim_shape *e, const uint8_t *restrict src)
{
	if (e->kind == SHAPE_SAME) {
		fill_words(d, pair_at(src));
		return;
	}
	for (int l = 0; l < 32; l++)
		d[l] = pair_at(src + e->rel[l]);
}

/* Lane l's word at src + rel[l] into the destination register: the whole warp at once when it is all at one
 * word or contiguous, else each half-warp that is, else lane by lane. */
HOT_INLINE void load_hot(struct sim_warp *w, const struct ptx_insn *ins, const struct sim_shape *e, const uint8_t *src)
{
	uint64_t *d = sim_reg(w, ins->ops[0].slot);
	if (e->kind == SHAPE_SAME) {
		fill_words(d, word_at(src));
	} else if (e->kind == SHAPE_UNIT) {
		copy_words(d, src);
	} else if (e->half_kind[0] == SHAPE_ANY || e->half_kind[1] == SHAPE_ANY) {
		gather_words(d, src, e->rel);
	} else {
		for (int h = 0; h < 2; h++) {
			const uint8_t *p = src + e->rel[16 * h];
			if (e->half_kind[h] == SHAPE_SAME)
				fill_half(d + 16 * h, word_at(p));
			else
				copy_half(d + 16 * h, p);
		}
	}
}

/* The source register's lane l to dst + rel[l], in lane order: of lanes storing to one address, the last
 * one's value stays. */
static void store_hot(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, const struct sim_shape *e,
		      uint8_t *dst)
{
	const uint64_t *v = sim_src(cta, w, ins->ops[1].slot);
	if (e->size == 8) {
		for (int l = e->kind == SHAPE_SAME ? 31 : 0; l < 32; l++)
			memcpy(dst + e->rel[l], &v[l], 8);
	} else if (e->kind == SHAPE_SAME) {
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

/* The lanes' addresses of a shape starting at a0: `addr` when the caller has them, else worked out in buf.
 * Only the accesses that are traced or go past the quiet reads and one-pass stores need them, so these
 * are out of line, and the hot path keeps no room for 32 addresses. */
static const uint64_t *lanes_at(const struct sim_shape *e, uint64_t a0, const uint64_t *addr, uint64_t buf[32])
{
	if (addr)
		return addr;
	for (int l = 0; l < 32; l++)
		buf[l] = a0 + (uint64_t)e->rel[l];
	return buf;
}

static __attribute__((noinline)) void shadow_lanes(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins,
						   const struct sim_shape *e, uint64_t a0, const uint64_t *addr)
{
	uint64_t buf[32];
	sim_shadow_warp(cta, w, ins, 0xffffffffu, lanes_at(e, a0, addr, buf), e->size, e->is_store);
}

static __attribute__((noinline)) void trace_lanes(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins,
						  const struct sim_shape *e, uint64_t a0, const uint64_t *addr)
{
	uint64_t buf[32];
	sim_trace_record(cta, w, ins, PS_SHARED, lanes_at(e, a0, addr, buf), 0xffffffffu, e->size, e->is_store,
			 e->units);
}

/* A shared access of shape e starting at a0, its lanes' addresses `addr` or NULL (lanes_at). */
HOT_INLINE bool shared_hot(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins,
			   const struct sim_shape *e, uint64_t a0, const uint64_t *addr)
{
	int64_t base = (int64_t)a0;
	/* every lane aligned and inside shared memory: the shape's lanes are whole sizes apart, so lane 0 decides */
	if ((a0 & (e->size - 1u)) || a0 >> 32 || base < e->first || base > e->last)
		return false;
	count_hot(cta, w, ins, e);
	if (cta->trace)
		trace_lanes(cta, w, ins, e, a0, addr);
	if (e->is_store) {
		store_hot(cta, w, ins, e, cta->shared + base);
		if (!sim_shadow_store_words(cta, w, ins, (uint64_t)base / 4, e->nwin, e->win, e->words))
			shadow_lanes(cta, w, ins, e, a0, addr);
		return true;
	}
	if (e->size == 8)
		load_pairs(sim_reg(w, ins->ops[0].slot), e, cta->shared + base);
	else
		load_hot(w, ins, e, cta->shared + base);
	if (!sim_shadow_quiet_reads(cta, w, ins, (uint64_t)base / 4, e->nwin, e->win, e->words))
		shadow_lanes(cta, w, ins, e, a0, addr);
	return true;
}

/* Does region r hold every lane's word of a shape starting at a0? */
static bool region_holds(const struct sim_region *r, uint64_t a0, const struct sim_shape *e)
{
	uint64_t lo = a0 + (uint64_t)e->min; /* a lane below the region wraps to an offset past it */
	return sim_span_in(lo - r->base, (uint64_t)(e->max - e->min) + 4, r->size) && lo <= a0;
}

/* Mark the sectors a global access touched (sim_touch.c).  A shape whose lanes are whole sectors apart
 * touches the sectors of its first one moved by fixed amounts, so its sectors are the same set whenever
 * that first sector is: each slot remembers 32 first sectors it marked already (bits only ever get set,
 * so skipping them is exact).  Other shapes mark the sectors of `lanes`, those starting a new sector. */
HOT_INLINE void touch_hot(struct sim_cta *cta, struct sim_shape *e, const uint64_t addr[32], uint32_t lanes)
{
	struct sim_touch *t = &cta->L->touch;
	if (!t->ld)
		return;
	uint64_t first = addr[0] / GL_SECTOR_BYTES + 1, *memo = &e->marked[first % 32];
	if (e->columns && *memo == first)
		return;
	if (e->kind == SHAPE_SAME) { /* one word, one sector: its bit is tested here, and set only when clear */
		uint64_t s = first - 1 - t->first; /* below the buffers, it wraps past nsect */
		const _Atomic uint64_t *map = e->is_store ? t->st : t->ld;
		if (s < t->nsect && !(atomic_load_explicit(&map[s / 64], memory_order_relaxed) >> (s % 64) & 1))
			sim_touch_mark_one(t, e->is_store, addr[0], 4);
	} else
		sim_touch_mark_lanes(t, e->is_store, addr[0], e->rel, lanes);
	if (e->columns)
		*memo = first;
}

/* The lanes whose sector is not the sector of the lane before them, for a shape starting at a0 (whole words:
 * each lane's word lies in one sector).  Only a0's place in its sector matters, a line holds whole sectors. */
static uint32_t l1_lanes(const struct sim_shape *e, uint64_t a0)
{
	uint32_t lanes = 1;
	for (int l = 1; l < 32; l++)
		lanes |= (uint32_t)((a0 + (uint64_t)e->rel[l]) / GL_SECTOR_BYTES !=
				    (a0 + (uint64_t)e->rel[l - 1]) / GL_SECTOR_BYTES)
			 << l;
	return lanes;
}

/* The pattern of the sectors the L1 model looks up for a start at a0 (sim_l1_pattern), worked out once per
 * word of the sector. */
static unsigned l1_pattern(struct sim_shape *e, uint64_t a0)
{
	unsigned word = (unsigned)(a0 % GL_SECTOR_BYTES) / 4;
	if (!e->l1_pattern[word])
		e->l1_pattern[word] = (uint8_t)(sim_l1_pattern(e->rel, word) + 1);
	return e->l1_pattern[word] - 1u;
}

/* The counters of a global access: the PTX access, the SASS one (the same, or none), the wasted sectors
 * (sim_spots.c), the touched sectors, the L1 model's lookups of a load (sim_l1.c) and the trace. */
HOT_INLINE void count_global(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, struct sim_shape *e,
			 const uint64_t addr[32])
{
	struct gl_sim_counters *c = &cta->c;
	unsigned start = (unsigned)(addr[0] % 128) / 4; /* sectors and lines depend only on this for a shape */
	if (!e->sectors[start]) {
		e->sectors[start] = (uint8_t)gl_mm_global_sectors(addr, 0xffffffffu, 4);
		e->lines[start] = (uint8_t)gl_mm_global_lines(addr, 0xffffffffu, 4);
		e->l1_lanes[start] = l1_lanes(e, addr[0]);
	}
	unsigned units = e->sectors[start], ideal = 32 * 4 / GL_SECTOR_BYTES;
	bool sass = e->sass == SASS_NONE || e->sass == SASS_SAME; /* SASS makes the access as PTX does */
	if (e->is_store) { /* one branch for the counters, not a choice at each */
		c->ptx_gst_req += 1, c->ptx_gst_sect += units;
		if (sass)
			c->gst_req += 1, c->gst_sect += units, c->gst_ideal += ideal, c->gst_lines += e->lines[start];
	} else {
		c->ptx_gld_req += 1, c->ptx_gld_sect += units;
		if (sass)
			c->gld_req += 1, c->gld_sect += units, c->gld_ideal += ideal, c->gld_lines += e->lines[start];
	}
	sim_spots_add(cta, ins, e->is_store ? SIM_SPOT_GST : SIM_SPOT_GLD, units > ideal ? units - ideal : 0);
	touch_hot(cta, e, addr, e->l1_lanes[start]);
	if (!e->is_store)
		sim_l1_load_words(cta, addr[0], e->rel, e->l1_lanes[start], units, ins->mods & (PM_CG | PM_VOLATILE),
				  &e->l1_key, l1_pattern(e, addr[0]));
	if (cta->trace)
		sim_trace_record(cta, w, ins, PS_GLOBAL, addr, 0xffffffffu, 4, e->is_store, units);
}

HOT_INLINE bool global_hot(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, struct sim_shape *e,
		       const uint64_t addr[32])
{
	uint64_t a0 = addr[0];
	if (a0 & 3)
		return false;
	const struct sim_region *r = e->region;
	if (!r || !region_holds(r, a0, e)) { /* the region of lane 0, as the general path translates it */
		r = sim_global_region(cta, w, a0, 4, e->is_store);
		if (!r || !region_holds(r, a0, e))
			return false;
		e->region = r;
	}
	count_global(cta, w, ins, e, addr);
	uint8_t *host = r->host + (a0 - r->base);
	if (e->is_store)
		store_hot(cta, w, ins, e, host);
	else
		load_hot(w, ins, e, host);
	if (sim_races_checked(cta, ins)) { /* sim_check_global_races, by the short ways of sim_race_words */
		struct sim_race_key key = {e->id, a0, e->kind == SHAPE_SAME}; /* the address set: this shape, from a0 */
		uint8_t other[32];
		uint32_t racing = sim_race_words(&cta->race, cta->gen, cta->epoch, w->id, addr, e->is_store, &key, other);
		if (racing)
			sim_global_race_findings(cta, w, ins, racing, addr, 4, other);
	}
	return true;
}

HOT_INLINE bool hot_access(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask,
			   const uint64_t addr[32])
{
	if (mask != 0xffffffffu)
		return false;
	struct sim_shape *e = shape_of(cta, ins, addr);
	if (!e)
		return false;
	return e->space == PS_SHARED ? shared_hot(cta, w, ins, e, addr[0], addr) : global_hot(cta, w, ins, e, addr);
}

SIM_SIMD_CLONES bool sim_mem_hot(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask,
		 const uint64_t addr[32])
{
	return hot_access(cta, w, ins, mask, addr);
}

/* A hot access translates no address, so it cannot fault (sim_fault.c), and a CTA with a fault has stopped
 * before its next instruction: only the general path's result needs the fault check.  The compiled
 * engine's call (sim_jit_mem) ends in this one, so it keeps no frame of its own. */
static int general(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask,
		   uint64_t addr[32])
{
	int rc = sim_ld_st_general(cta, w, ins, mask, addr);
	return cta->fault.kind != GL_SIM_FAULT_NONE ? -1 : rc; /* an access faulted: the CTA stops (sim_fault.c) */
}

SIM_SIMD_CLONES int sim_mem_hot_or_general(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins,
					   uint32_t mask, uint64_t addr[32])
{
	if (hot_access(cta, w, ins, mask, addr))
		return 0;
	return general(cta, w, ins, mask, addr);
}

/* An access of a register's lanes plus off that is not hot at the site's shape: the shape_of the addresses
 * (written out here, out of line: the hot path keeps no room for them), else the general path; the token
 * left is the class of the shape the lanes were found to have, or 0. */
SIM_SIMD_CLONES static __attribute__((noinline)) int reg_general(struct sim_cta *cta, struct sim_warp *w,
								 const struct ptx_insn *ins,
								 const uint64_t reg[32], uint64_t off, uint64_t *tok)
{
	uint64_t addr[32];
	for (int l = 0; l < 32; l++)
		addr[l] = reg[l] + off;
	*tok = 0;
	struct sim_shape *e = shape_of(cta, ins, addr);
	if (e && e->space == PS_SHARED)
		*tok = e->cls; /* the addresses' differences are the register's */
	if (e && (e->space == PS_SHARED ? shared_hot(cta, w, ins, e, addr[0], addr) : global_hot(cta, w, ins, e, addr)))
		return 0;
	return general(cta, w, ins, 0xffffffffu, addr);
}

/* An access whose token did not answer: when the register's lanes have the site's shape, its class is the
 * token and the access goes the token's way; else reg_general. */
SIM_SIMD_CLONES static __attribute__((noinline)) int reg_check(struct sim_cta *cta, struct sim_warp *w,
							       const struct ptx_insn *ins,
							       const uint64_t reg[32], uint64_t off, uint64_t *tok)
{
	const struct sim_shape *e = slot_of(cta, ins);
	if (e->site == (uintptr_t)ins && e->cls && same_shape(e, reg)) {
		*tok = e->cls;
		return sim_mem_hot_reg_or_general(cta, w, ins, reg, off, tok);
	}
	return reg_general(cta, w, ins, reg, off, tok);
}

/* A shared access whose token answered but that the lean form does not take (a store, a traced CTA, a
 * vector's SASS span, a start outside shared memory). */
SIM_SIMD_CLONES static __attribute__((noinline)) int reg_hot(struct sim_cta *cta, struct sim_warp *w,
							     const struct ptx_insn *ins, const uint64_t reg[32],
							     uint64_t off, uint64_t *tok)
{
	if (shared_hot(cta, w, ins, slot_of(cta, ins), reg[0] + off, NULL))
		return 0;
	return reg_general(cta, w, ins, reg, off, tok);
}

/* The shadow side of a lean load whose words were not taken as quiet reads at once (sim_quiet.h). */
SIM_SIMD_CLONES static __attribute__((noinline)) int lean_shadow(struct sim_cta *cta, struct sim_warp *w,
								 const struct ptx_insn *ins, const struct sim_shape *e,
								 uint64_t a0)
{
	if (!sim_shadow_quiet_reads(cta, w, ins, a0 / 4, e->nwin, e->win, e->words))
		shadow_lanes(cta, w, ins, e, a0, NULL);
	return 0;
}

/* The compiled engine's shared access at a register.  The common case keeps its own short path: the token
 * answers, the shape is lean (a load that counts as hits, flush_hits) and starts inside shared memory
 * (lane 0 decides, as in shared_hot), no trace: count it, move the data and take the quiet reads, with
 * everything else out of line, so the path saves few registers.  It does what shared_hot does, in the
 * same order. */
SIM_SIMD_CLONES int sim_mem_hot_reg_or_general(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins,
					       const uint64_t reg[32], uint64_t off, uint64_t *tok)
{
	struct sim_shape *e = slot_of(cta, ins);
	if (!*tok || e->site != (uintptr_t)ins || e->cls != *tok)
		return reg_check(cta, w, ins, reg, off, tok);
	uint64_t a0 = reg[0] + off, from = a0 - (uint64_t)e->first;
	/* from a whole number of words (first is one) and at most range: rotated, the low bits go on top */
	if (!e->lean || cta->trace || (from >> 2 | from << 62) > e->range >> 2)
		return reg_hot(cta, w, ins, reg, off, tok);
	e->hits++;
	load_hot(w, ins, e, cta->shared + a0);
	if (e->quiet1 && sim_quiet_ready(cta) && sim_quiet_take1(cta, w, ins, a0 / 4 + (uint64_t)e->win[0], e->words[0]))
		return 0;
	return lean_shadow(cta, w, ins, e, a0);
}
