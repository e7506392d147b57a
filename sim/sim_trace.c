/* sim_trace.c — shared-memory race and uninitialised-read detection, and trace recording. */
#include <stdio.h>
#include <stdlib.h>

#include "sim_quiet.h"
#include "sim_trace.h"

/* The shadow entry of a 4-byte word, reset when it belongs to an older CTA or barrier interval. */
static struct sim_shadow *shadow_word(struct sim_cta *cta, uint64_t word)
{
	struct sim_shadow *s = &cta->shadow[word];
	sim_shadow_reset(s, cta->gen, cta->epoch);
	return s;
}

/* Empty the read bitmaps of an older interval (out of line: once per interval). */
void sim_quiet_new_reads(struct sim_cta *cta)
{
	struct sim_quiet *q = &cta->quiet;
	size_t rows = SIM_QUIET_ROWS(cta->L);
	FOR_LANES(q->readers, k) memset(q->reads + k * rows, 0, rows * sizeof *q->reads);
	q->readers = 0;
	q->reads_gen = cta->gen;
	q->reads_epoch = cta->epoch;
}

/* sim_shadow_quiet_reads (sim_quiet.h) with every condition checked; a quiet read taken keeps its interval
 * as the one in which they hold. */
bool sim_shadow_quiet_reads_checked(struct sim_cta *cta, const struct sim_warp *w, const struct ptx_insn *ins,
				    uint64_t base, unsigned nwin, const int32_t win[], const uint64_t words[])
{
	struct sim_quiet *q = &cta->quiet;
	/* a CTA generation whose full bits were never used has no initialised word: not quiet */
	if (!quiet_interval(cta) || q->full_gen != cta->gen || !plain_access(cta, ins) ||
	    !quiet_words_full(q->full, base, nwin, win, words))
		return false;
	uint64_t *row = reads_row(cta, (uint16_t)(w->id + 1));
	q->site[w->id] = ins;
	quiet_words_mark(row, base, nwin, win, words);
	q->rows = SIM_QUIET_ROWS(cta->L);
	q->ready_gen = cta->gen;
	q->ready_epoch = cta->epoch;
	return true;
}

static bool is_full(struct sim_cta *cta, uint64_t word)
{
	return bit_of(full_bits(cta), word);
}

/* Every change to an entry's `init` goes through here, so quiet.full stays its mirror. */
static void add_init(struct sim_cta *cta, struct sim_shadow *s, uint64_t word, uint8_t mask)
{
	s->init |= mask;
	if (s->init == 0xf)
		bit_set(full_bits(cta), word);
}

/* A warp other than me that read `word` quietly in this interval (warp + 1), or 0. */
static inline __attribute__((always_inline)) uint16_t quiet_reader(const struct sim_cta *cta, uint64_t word,
								     uint16_t me)
{
	if (!reads_current(cta) || !(cta->quiet.readers & ~(1u << (me - 1))))
		return 0;
	size_t rows = SIM_QUIET_ROWS(cta->L);
	FOR_LANES(cta->quiet.readers & ~(1u << (me - 1)), k)
		if (bit_of(cta->quiet.reads + k * rows, word))
			return (uint16_t)(k + 1);
	return 0;
}

/* A plain whole-word read by warp me taken as a quiet read, when the rule allows it. */
static inline __attribute__((always_inline)) bool quiet_word_read(struct sim_cta *cta, const struct ptx_insn *ins,
								   uint64_t word, uint16_t me)
{
	if (!quiet_interval(cta) || !is_full(cta, word))
		return false;
	bit_set(reads_row(cta, me), word);
	cta->quiet.site[me - 1] = ins;
	return true;
}

/* The instructions of a word's last writer and last reader in this interval (racecheck's other side):
 * set with the shadow entry's writer and reader, read only while those are set. */
static const struct ptx_insn **writer_site(struct sim_cta *cta, uint64_t word)
{
	return &cta->shadow_site[2 * word];
}

static const struct ptx_insn **reader_site(struct sim_cta *cta, uint64_t word)
{
	return &cta->shadow_site[2 * word + 1];
}

/* Bytes [addr, addr+n) of the word `word`, as a 4-bit mask. */
static uint8_t bytes_in(uint64_t word, uint64_t addr, unsigned n)
{
	if (n >= 4 && !(addr & 3) && word * 4 + 4 <= addr + n)
		return 0xf; /* an aligned access covering the whole word: the common case */
	uint8_t mask = 0;
	for (unsigned b = 0; b < 4; b++)
		if (word * 4 + b >= addr && word * 4 + b < addr + n)
			mask |= (uint8_t)(1u << b);
	return mask;
}

/* A race names both sides, as compute-sanitizer's racecheck does: this access (the finding's own line)
 * and the earlier one of the other warp, by its source line and PTX line. */
static void report_race(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, int lane, uint64_t addr,
			unsigned n, const char *what, uint16_t other, const struct ptx_insn *first)
{
	char where[160] = "";
	bool first_writes = strncmp(what, "read after", 10) == 0 || strncmp(what, "write after write", 17) == 0;
	const char *file = first && first->src_line ? ptx_source_file(cta->L->m, first->src_file) : NULL;
	if (file && strrchr(file, '/')) /* the file's name: a long directory would crowd out the message */
		file = strrchr(file, '/') + 1;
	if (first && file)
		snprintf(where, sizeof where, "; the other access: %s at %s:%d (PTX line %d)", first_writes ? "write" : "read",
			 file, first->src_line, first->line);
	else if (first)
		snprintf(where, sizeof where, "; the other access: %s at PTX line %d", first_writes ? "write" : "read",
			 first->line);
	sim_finding(cta, ins, lane, "race", PS_SHARED, addr, n, false,
		    "shared-memory race (%s) at 0x%llx: warps %u and %u access it between two barriers%s", what,
		    (unsigned long long)addr, (unsigned)other - 1, w->id, where);
}

/* An access to bytes a cp.async may still be writing (sim_async.c): a read may see them before the copy
 * lands, a write may be overwritten by it. */
static bool async_race(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, int lane, uint64_t addr,
		       unsigned n, bool is_write)
{
	unsigned issuer;
	bool waited;
	if (!sim_async_in_flight(cta, w, lane, addr, n, &issuer, &waited))
		return false;
	const struct sim_launch *L = cta->L;
	sim_finding(cta, ins, lane, "race", PS_SHARED, addr, n, false,
		    "shared-memory race (%s cp.async data in flight) at 0x%llx: thread (%u,%u,%u) copies into it with "
		    "cp.async and %s", is_write ? "write over" : "read of", (unsigned long long)addr,
		    issuer % L->block[0], issuer / L->block[0] % L->block[1], issuer / (L->block[0] * L->block[1]),
		    !waited ? "has not waited for that group (cp.async.wait_group/wait_all)"
			    : "no barrier follows its cp.async.wait_group/wait_all for that group yet");
	return true;
}

/* Races are between different warps inside one barrier interval (lanes of one warp run in order). */
/* cooperative_groups' reserved shared memory (sim_internal.h) is not checked: its barriers and exchange
 * slots are ordered by release/acquire atomics and spins, which the race check does not model. */
static bool reserved(const struct sim_cta *cta, uint64_t addr)
{
	return cta->L->reserved_used && addr >= cta->L->reserved_smem;
}

void sim_shadow_write(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, int lane, uint64_t addr,
		      unsigned n)
{
	if (reserved(cta, addr))
		return;
	if (ins && (ins->mods & (PM_VOLATILE | PM_STRONG))) {
		sim_shadow_atomic(cta, w, addr, n); /* a strong write: like an atomic's */
		return;
	}
	uint16_t me = (uint16_t)(w->id + 1), other;
	bool reported = async_active(cta) && async_race(cta, w, ins, lane, addr, n, true);
	note_write(cta);
	for (uint64_t word = addr / 4; word <= (addr + n - 1) / 4; word++) {
		struct sim_shadow *s = shadow_word(cta, word);
		uint8_t mask = bytes_in(word, addr, n);
		if (!reported && s->writer && s->writer != me && (s->wbytes & mask)) {
			report_race(cta, w, ins, lane, addr, n, "write after write", s->writer, *writer_site(cta, word));
			reported = true;
		} else if (!reported && s->reader && s->reader != me && (s->rbytes & mask)) {
			report_race(cta, w, ins, lane, addr, n, "write after read", s->reader, *reader_site(cta, word));
			reported = true;
		} else if (!reported && (other = quiet_reader(cta, word, me))) {
			report_race(cta, w, ins, lane, addr, n, "write after read", other, cta->quiet.site[other - 1]);
			reported = true;
		}
		*writer_site(cta, word) = ins;
		s->writer = me;
		s->wbytes |= mask;
		add_init(cta, s, word, mask);
	}
}

void sim_shadow_read(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, int lane, uint64_t addr,
		     unsigned n)
{
	if (reserved(cta, addr))
		return;
	bool strong = ins && (ins->mods & (PM_VOLATILE | PM_STRONG));
	uint16_t me = (uint16_t)(w->id + 1);
	bool reported = async_active(cta) && async_race(cta, w, ins, lane, addr, n, false);
	bool initcheck = cta->L->tools & GL_TOOL_INITCHECK;
	for (uint64_t word = addr / 4; word <= (addr + n - 1) / 4; word++) {
		uint8_t mask = bytes_in(word, addr, n);
		if (!strong && mask == 0xf && quiet_word_read(cta, ins, word, me))
			continue;
		struct sim_shadow *s = shadow_word(cta, word);
		if (!reported && initcheck && (s->init & mask) != mask) {
			sim_finding(cta, ins, lane, "uninitialized", PS_SHARED, addr, n, true,
				    "read of uninitialized shared memory at 0x%llx (nothing was stored there since the "
				    "CTA started)", (unsigned long long)addr);
			add_init(cta, s, word, mask); /* report each location once */
			reported = true;
		} else if (strong) {
			continue; /* a strong read (a flag polled by a spin-wait) races with nothing, and is no reader a
				   * later write would race with either */
		} else if (!reported && s->writer && s->writer != me && (s->wbytes & mask)) {
			report_race(cta, w, ins, lane, addr, n, "read after write", s->writer, *writer_site(cta, word));
			reported = true;
		}
		*reader_site(cta, word) = ins;
		s->reader = me;
		s->rbytes |= mask;
	}
}

/* sim_shadow_write / sim_shadow_read for the whole word `word` of a plain access of n bytes at addr (an
 * aligned 4-byte access is one such word, an aligned 8-byte access two), when no per-access exception
 * applies (not reserved, not strong, no cp.async in flight): the same checks and updates, inlined.  As
 * there, an access reports one finding at most: `reported` says that an earlier word of it did, and the
 * result whether it has now. */
static inline bool word_write(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, int lane,
			      uint64_t addr, unsigned n, uint64_t word, uint16_t me, bool reported)
{
	struct sim_shadow *s = shadow_word(cta, word);
	uint16_t other;
	note_write(cta);
	if (!reported) {
		reported = true;
		if (s->writer && s->writer != me && s->wbytes)
			report_race(cta, w, ins, lane, addr, n, "write after write", s->writer, *writer_site(cta, word));
		else if (s->reader && s->reader != me && s->rbytes)
			report_race(cta, w, ins, lane, addr, n, "write after read", s->reader, *reader_site(cta, word));
		else if ((other = quiet_reader(cta, word, me)))
			report_race(cta, w, ins, lane, addr, n, "write after read", other, cta->quiet.site[other - 1]);
		else
			reported = false;
	}
	*writer_site(cta, word) = ins;
	s->writer = me;
	s->wbytes = 0xf;
	add_init(cta, s, word, 0xf);
	return reported;
}

static inline bool word_read(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, int lane,
			     uint64_t addr, unsigned n, uint64_t word, uint16_t me, bool initcheck, bool reported)
{
	if (quiet_word_read(cta, ins, word, me))
		return reported;
	struct sim_shadow *s = shadow_word(cta, word);
	if (!reported && initcheck && s->init != 0xf) {
		sim_finding(cta, ins, lane, "uninitialized", PS_SHARED, addr, n, true,
			    "read of uninitialized shared memory at 0x%llx (nothing was stored there since the "
			    "CTA started)", (unsigned long long)addr);
		add_init(cta, s, word, 0xf); /* report each location once */
		reported = true;
	} else if (!reported && s->writer && s->writer != me && s->wbytes) {
		report_race(cta, w, ins, lane, addr, n, "read after write", s->writer, *writer_site(cta, word));
		reported = true;
	}
	*reader_site(cta, word) = ins;
	s->reader = me;
	s->rbytes = 0xf;
	return reported;
}

/* A plain aligned access of n = 4 or 8 bytes: its words in order, as sim_shadow_write/read take them. */
static inline void plain_words(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, int lane,
			       uint64_t addr, unsigned n, uint16_t me, bool initcheck, bool is_store)
{
	bool reported = false;
	for (uint64_t word = addr / 4; word < (addr + n) / 4; word++)
		reported = is_store ? word_write(cta, w, ins, lane, addr, n, word, me, reported)
				    : word_read(cta, w, ins, lane, addr, n, word, me, initcheck, reported);
}

/* A read by warp me of the word of entry s that can find nothing: the entry is this CTA's, whole-word
 * initialised, and written in this interval by no other warp (an entry of an older interval was written in
 * none).  Then the read only makes me its reader: done here, after the reset sim_shadow_reset would make,
 * and true; false, and nothing changed, otherwise. */
static inline bool quiet_read(struct sim_cta *cta, struct sim_shadow *s, uint64_t word, const struct ptx_insn *ins,
			      uint16_t me)
{
	if (s->gen != cta->gen || s->init != 0xf)
		return false;
	if (s->epoch != cta->epoch) {
		s->epoch = cta->epoch;
		s->writer = 0;
		s->wbytes = 0;
	} else if (s->writer && s->writer != me && s->wbytes) {
		return false;
	}
	*reader_site(cta, word) = ins;
	s->reader = me;
	s->rbytes = 0xf;
	return true;
}

/* Does a warp other than me hold one of the words in its quiet-read bitmap? */
static bool quiet_readers_of(const struct sim_cta *cta, uint64_t base, unsigned nwin, const int32_t win[],
			     const uint64_t words[], uint16_t me)
{
	if (!reads_current(cta))
		return false;
	for (unsigned j = 0; j < nwin; j++)
		if (others_read(cta, cta->quiet.reads, base + (uint64_t)win[j], words[j], me))
			return true;
	return false;
}

/* For each word of the windows (bit i of words[k]: word base + win[k] + i), once. */
#define FOR_WINDOW_WORDS(base, nwin, win, words, word)                                                      \
	for (unsigned k_ = 0; k_ < (nwin); k_++)                                                            \
		for (uint64_t b_ = (words)[k_], word; b_ && ((word = (base) + (uint64_t)(win)[k_] +        \
							     (uint64_t)__builtin_ctzll(b_)), 1);   \
		     b_ &= b_ - 1)

/* A plain store of a whole word by warp me: word_write's update and add_init's.  An entry of this interval
 * keeps its reader; an older one, reset (sim_shadow_reset) and then updated, is written whole. */
static inline void store_entry(struct sim_cta *cta, uint64_t word, const struct ptx_insn *ins, uint16_t me)
{
	struct sim_shadow *s = &cta->shadow[word];
	*writer_site(cta, word) = ins;
	if (s->gen == cta->gen && s->epoch == cta->epoch) {
		s->writer = me;
		s->wbytes = 0xf;
		s->init = 0xf;
	} else {
		*s = (struct sim_shadow){.gen = cta->gen, .epoch = cta->epoch, .writer = me, .wbytes = 0xf, .init = 0xf};
	}
}

/* store_entries for `count` words from `first`. */
static inline __attribute__((always_inline)) bool store_run(struct sim_cta *cta, const struct ptx_insn *ins,
							      uint64_t first, uint64_t count, uint16_t me)
{
	bool busy = false;
	for (uint64_t k = 0; k < count; k++)
		busy |= sim_shadow_busy(&cta->shadow[first + k], cta->gen, cta->epoch, me);
	if (busy)
		return false;
	note_write(cta);
	for (uint64_t k = 0; k < count; k++)
		store_entry(cta, first + k, ins, me);
	return true;
}

/* The words' entries, each once (lanes storing to one word leave what one of them leaves): false when one
 * may find a race, else all updated.  A run of words from the window's first (a tile row: 32 of them; a
 * warp's 64-bit keys: 64) takes plain loops. */
static bool store_entries(struct sim_cta *cta, const struct ptx_insn *ins, uint64_t base, unsigned nwin,
			  const int32_t win[], const uint64_t words[], uint16_t me)
{
	if (nwin == 1 && words[0] == 0xffffffffu) /* the count a constant: the loops unrolled */
		return store_run(cta, ins, base + (uint64_t)win[0], 32, me);
	if (nwin == 1 && words[0] && !(words[0] & (words[0] + 1)))
		return store_run(cta, ins, base + (uint64_t)win[0], (uint64_t)__builtin_popcountll(words[0]), me);
	FOR_WINDOW_WORDS(base, nwin, win, words, word)
		if (sim_shadow_busy(&cta->shadow[word], cta->gen, cta->epoch, me))
			return false;
	note_write(cta);
	FOR_WINDOW_WORDS(base, nwin, win, words, word)
		store_entry(cta, word, ins, me);
	return true;
}

bool sim_shadow_store_words(struct sim_cta *cta, const struct sim_warp *w, const struct ptx_insn *ins, uint64_t base,
			    unsigned nwin, const int32_t win[], const uint64_t words[])
{
	uint16_t me = (uint16_t)(w->id + 1);
	if (!plain_access(cta, ins) || quiet_readers_of(cta, base, nwin, win, words, me) ||
	    !store_entries(cta, ins, base, nwin, win, words, me))
		return false;
	quiet_words_mark(full_bits(cta), base, nwin, win, words); /* the words' initialised bits */
	return true;
}

/* The plain 4- or 8-byte reads of a warp (the inner loops of tiled kernels, a tree's 64-bit keys): word_read
 * for each word of each new aligned address, with the cases that change only the reader taken first.
 * Whether the interval is quiet is asked once: reads do not change it. */
static void warp_reads(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask,
		       const uint64_t addr[32], unsigned n, uint16_t me, bool initcheck)
{
	bool quiet = quiet_interval(cta);
	uint64_t prev = UINT64_MAX;
	FOR_LANES(mask, l) {
		uint64_t a = addr[l];
		if (a == prev)
			continue;
		prev = a;
		if (a & (n - 1)) {
			sim_shadow_read(cta, w, ins, (int)l, a, n);
			continue;
		}
		bool reported = false;
		for (uint64_t word = a / 4; word < (a + n) / 4; word++) {
			if (quiet && quiet_word_read(cta, ins, word, me))
				continue;
			if (!quiet_read(cta, &cta->shadow[word], word, ins, me))
				reported = word_read(cta, w, ins, (int)l, a, n, word, me, initcheck, reported);
		}
	}
}

/* A full warp's aligned 8-byte stores within 64 words, as one window for sim_shadow_store_words (which
 * takes them when no lane can find a race): true when it took them. */
static bool full_warp_store_pairs(struct sim_cta *cta, const struct sim_warp *w, const struct ptx_insn *ins,
				  const uint64_t addr[32])
{
	uint64_t min = addr[0], odd = 0;
	for (int l = 0; l < 32; l++) {
		min = addr[l] < min ? addr[l] : min;
		odd |= addr[l];
	}
	uint64_t bits = 0;
	for (int l = 0; l < 32; l++) {
		if (addr[l] - min > 248)
			return false;
		bits |= 3ull << (addr[l] - min) / 4;
	}
	static const int32_t win[1] = {0};
	return !(odd & 7) && sim_shadow_store_words(cta, w, ins, min / 4, 1, win, &bits);
}

/* One warp-level access: lanes reading or writing the same address as the lane before them add
 * nothing to the shadow (same warp, same bytes), so broadcasts cost one update, not 32.  Aligned 4- and
 * 8-byte accesses of a CTA without cp.async bookkeeping or reserved shared memory, the common case,
 * take the inlined word_read/word_write (reads a loop of their own, a full warp's 8-byte stores one pass
 * when they find nothing); anything else goes
 * through sim_shadow_read/write, and all give the same findings and shadow (test_sim_shadow_warp). */
void sim_shadow_warp(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask,
		     const uint64_t addr[32], unsigned n, bool is_store)
{
	bool plain = (n == 4 || n == 8) && plain_access(cta, ins);
	uint16_t me = (uint16_t)(w->id + 1);
	bool initcheck = cta->L->tools & GL_TOOL_INITCHECK;
	if (plain && !is_store) {
		warp_reads(cta, w, ins, mask, addr, n, me, initcheck);
		return;
	}
	if (plain && n == 8 && is_store && mask == 0xffffffffu && full_warp_store_pairs(cta, w, ins, addr))
		return;
	uint64_t prev = UINT64_MAX;
	FOR_LANES(mask, l) {
		if (addr[l] == prev)
			continue;
		prev = addr[l];
		if (plain && !(addr[l] & (n - 1))) {
			plain_words(cta, w, ins, (int)l, addr[l], n, me, initcheck, is_store);
		} else if (is_store) {
			sim_shadow_write(cta, w, ins, (int)l, addr[l], n);
		} else {
			sim_shadow_read(cta, w, ins, (int)l, addr[l], n);
		}
	}
}

/* Atomics among themselves never race; they leave the bytes written by this warp, so later plain
 * reads see initialised data and plain accesses by other warps still count as races. */
void sim_shadow_atomic(struct sim_cta *cta, const struct sim_warp *w, uint64_t addr, unsigned n)
{
	note_write(cta);
	for (uint64_t word = addr / 4; word <= (addr + n - 1) / 4; word++) {
		struct sim_shadow *s = shadow_word(cta, word);
		uint8_t mask = bytes_in(word, addr, n);
		*writer_site(cta, word) = NULL; /* the other side of a later race: unnamed */
		s->writer = (uint16_t)(w->id + 1);
		s->wbytes |= mask;
		add_init(cta, s, word, mask);
	}
}

void sim_shadow_init(struct sim_cta *cta, uint64_t addr, unsigned n)
{
	for (uint64_t word = addr / 4; word <= (addr + n - 1) / 4; word++)
		add_init(cta, shadow_word(cta, word), word, bytes_in(word, addr, n));
}

/* "_ZZ19transpose_coalescedE4tile" (a demoted function-scope array) -> "tile". */
void gl_sim_plain_name(const char *name, char *out, size_t n)
{
	const char *e = strncmp(name, "_ZZ", 3) == 0 ? strrchr(name, 'E') : NULL;
	if (e && e[1] >= '0' && e[1] <= '9') {
		char *end;
		long len = strtol(e + 1, &end, 10);
		if (len > 0 && (size_t)len <= strlen(end)) {
			snprintf(out, n, "%.*s", (int)len, end);
			return;
		}
	}
	snprintf(out, n, "%s", name);
}

/* Which named buffer (global) or shared array an address falls in. */
static void name_buffer(const struct sim_cta *cta, enum ptx_space sp, uint64_t addr, struct gl_trace_event *e)
{
	const struct sim_launch *L = cta->L;
	if (sp == PS_GLOBAL) {
		for (int i = 0; i < L->nregions; i++)
			if (addr - L->regions[i].base < L->regions[i].size) {
				snprintf(e->buffer, sizeof e->buffer, "%s", L->regions[i].name);
				e->buffer_base = L->regions[i].base;
				return;
			}
		return;
	}
	if (sp != PS_SHARED)
		return;
	const struct ptx_function *fn = L->fn;
	for (int i = 0; i < fn->nvars; i++) {
		const struct ptx_var *v = &fn->vars[i];
		uint64_t size = v->is_extern ? L->dyn_smem : v->size;
		if (v->space == PS_SHARED && addr - v->offset < size) {
			gl_sim_plain_name(v->name, e->buffer, sizeof e->buffer);
			e->buffer_base = v->offset;
			return;
		}
	}
}

static uint8_t trace_op(const struct ptx_insn *ins, bool is_store)
{
	switch (ins->op) {
	case OP_ATOM: case OP_RED: return GL_TRACE_ATOM;
	case OP_CP_ASYNC: return GL_TRACE_CP_ASYNC;
	case OP_LDMATRIX: return GL_TRACE_LDMATRIX;
	default: return is_store ? GL_TRACE_ST : GL_TRACE_LD;
	}
}

static void set_addresses(struct gl_trace_event *e, const uint64_t addr[32], uint32_t mask);
static struct gl_trace_event *next_event(struct sim_cta *cta, const struct sim_warp *w, const struct ptx_insn *ins);

void sim_trace_record(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, enum ptx_space sp,
		      const uint64_t addr[32], uint32_t mask, unsigned size, bool is_store, unsigned units)
{
	struct gl_trace_event *e = mask ? next_event(cta, w, ins) : NULL;
	if (!e)
		return;
	e->space = sp == PS_SHARED ? GL_TRACE_SHARED : sp == PS_LOCAL ? GL_TRACE_LOCAL : GL_TRACE_GLOBAL;
	e->op = trace_op(ins, is_store);
	e->bytes = (uint8_t)size;
	e->mask = mask;
	e->cost = units;
	set_addresses(e, addr, mask);
	name_buffer(cta, sp, addr[__builtin_ctz(mask)], e);
}

/* The lanes' values of an event, compressed to base + lane * stride when they are that. */
static void set_addresses(struct gl_trace_event *e, const uint64_t addr[32], uint32_t mask)
{
	int first = __builtin_ctz(mask);
	int second = -1;
	FOR_LANES(mask & ~(1u << first), l) {
		if (second < 0)
			second = (int)l;
	}
	int64_t stride = second < 0 ? 0 : (int64_t)(addr[second] - addr[first]) / (second - first);
	/* products in uint64_t: addresses are modulo 2^64, and a signed product of a huge stride overflows */
	bool strided = true;
	FOR_LANES(mask, l)
		if (addr[l] != addr[first] + (uint64_t)stride * (uint64_t)(int64_t)((int)l - first))
			strided = false;
	e->strided = strided;
	e->addr_stride = strided ? stride : 0;
	e->addr_base = strided ? addr[first] - (uint64_t)stride * (uint64_t)first : addr[first];
	FOR_LANES(mask, l) e->addrs[l] = addr[l];
}

/* The next event of a traced CTA, its place in the launch and the warp's instruction filled in; NULL when
 * the CTA is not traced or its trace is full (counted as dropped). */
static struct gl_trace_event *next_event(struct sim_cta *cta, const struct sim_warp *w, const struct ptx_insn *ins)
{
	if (cta->ntrace >= cta->trace_cap) {
		cta->trace_dropped++;
		return NULL;
	}
	struct gl_trace_event *e = &cta->trace[cta->ntrace++];
	memset(e, 0, sizeof *e);
	e->seq = cta->trace_seq++;
	e->block = cta->linear;
	e->warp = w->id;
	e->pc = (uint32_t)(ins - w->fn->code); /* in the function the warp runs */
	e->line = (uint32_t)ins->line;
	return e;
}

void sim_trace_record_sync(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, bool barrier,
			   uint32_t mask, const uint64_t value[32])
{
	struct gl_trace_event *e = mask && cta->trace ? next_event(cta, w, ins) : NULL;
	if (!e)
		return;
	e->space = barrier ? GL_TRACE_CTA : GL_TRACE_WARP;
	e->op = barrier ? GL_TRACE_BAR : GL_TRACE_SHFL;
	e->bytes = 4; /* a lane index or a barrier id: 32 bits */
	e->mask = mask;
	set_addresses(e, value, mask);
}
