/* sim_shadow_rows.c — the shared-memory shadow (sim_trace.c) of a warp's accesses of whole aligned words,
 * several per lane (ldmatrix's 16-byte rows, cp.async's copies), recorded a warp at a time.
 * sim_shadow_read and sim_shadow_write take each lane on its own: the cp.async check, then for each
 * word the quiet-read rule, the entry's reset, the initcheck and racecheck tests and the update.  None
 * of those steps finds anything in the common case, and what is left is the same update of every word.
 * So the checks run first, over every lane, without changing anything; when one would find something,
 * the lanes go through sim_shadow_read / sim_shadow_write after all, and report it as always. */
#include "sim_quiet.h"
#include "sim_trace.h"

/* The quiet reads (sim_trace.c) of a warp whose every word is initialised (quiet.full): the reading warp's
 * bitmap of this interval, emptied first when the bitmaps are an older interval's (reads_row), gets
 * every word, and the warp's latest quiet read is this instruction, as quiet_word_read leaves them for
 * each word.  False, changing nothing, when a word is not initialised: those reads go lane by lane. */
static bool quiet_rows(struct sim_cta *cta, const struct sim_warp *w, const struct ptx_insn *ins, uint32_t lanes,
		       const uint64_t off[32], unsigned nw)
{
	struct sim_quiet *q = &cta->quiet;
	if (q->full_gen != cta->gen)
		return false; /* no word initialised in this CTA yet */
	FOR_LANES(lanes, l)
		for (uint64_t word = off[l] / 4, end = word + nw; word < end; word++)
			if (!(q->full[word / 64] >> (word % 64) & 1))
				return false;
	uint64_t *row = reads_row(cta, (uint16_t)(w->id + 1));
	FOR_LANES(lanes, l)
		for (uint64_t word = off[l] / 4, end = word + nw; word < end; word++)
			row[word / 64] |= 1ull << (word % 64);
	q->site[w->id] = ins;
	return true;
}

/* Could a read of the word of entry s by warp `me` find something: an uninitialised byte (initcheck) or
 * another warp's write in this interval?  Stale entries count as reset (sim_shadow_reset). */
static inline bool entry_finds(const struct sim_shadow *s, uint32_t gen, uint32_t epoch, uint16_t me, bool initcheck)
{
	if (s->gen != gen)
		return initcheck; /* nothing written since the CTA started */
	if (initcheck && s->init != 0xf)
		return true;
	return s->epoch == epoch && s->writer && s->writer != me && s->wbytes;
}

static inline uint64_t load64(const unsigned char *p)
{
	uint64_t v;
	memcpy(&v, p, sizeof v);
	return v;
}

/* Are the 4 entries from s the same, byte for byte?  A lane's 16 bytes usually are: one copy wrote them,
 * one ldmatrix row read them.  Then every check and update of the first is those of the others (each
 * update is idempotent, so lanes whose words overlap leave what word by word leaves, in any order). */
static inline bool same4(const struct sim_shadow *s)
{
	_Static_assert(sizeof *s == 16, "an entry is two 64-bit words");
	const unsigned char *p = (const unsigned char *)s;
	uint64_t a = load64(p), b = load64(p + 8);
	return !((a ^ load64(p + 16)) | (b ^ load64(p + 24)) | (a ^ load64(p + 32)) | (b ^ load64(p + 40)) |
		 (a ^ load64(p + 48)) | (b ^ load64(p + 56)));
}

/* The lanes in `lanes` whose nw words have the same4 entries (none unless nw is 4). */
static uint32_t same_lanes(const struct sim_shadow *sh, uint32_t lanes, const uint64_t off[32], unsigned nw)
{
	uint32_t same = 0;
	if (nw != 4)
		return 0;
	if (lanes == 0xffffffffu) /* without FOR_LANES' work per lane */
		for (unsigned l = 0; l < 32; l++)
			same |= (uint32_t)same4(&sh[off[l] / 4]) << l;
	else
		FOR_LANES(lanes, l) same |= (uint32_t)same4(&sh[off[l] / 4]) << l;
	return same;
}

/* The 4 words from `word`, whose entries were the same: entry e (the first's, updated) in each. */
static inline void set4(struct sim_shadow *sh, const struct ptx_insn **site, uint64_t word, const struct sim_shadow *e,
			unsigned which, const struct ptx_insn *ins)
{
	for (unsigned k = 0; k < 4; k++) {
		memcpy(&sh[word + k], e, sizeof *e);
		site[2 * (word + k) + which] = ins;
	}
}

/* sim_shadow_read's update of the nw words from off[l] / 4 of each lane, where it found nothing: the
 * reset, then the reader (for the lanes in `same` once, copied to the 4 words).  (The CTA's fields are
 * read once: the stores cannot change them.) */
static void rows_read(struct sim_cta *cta, const struct ptx_insn *ins, uint32_t lanes, const uint64_t off[32],
		      unsigned nw, uint16_t me, uint32_t same)
{
	struct sim_shadow *restrict sh = cta->shadow;
	const struct ptx_insn **restrict site = cta->shadow_site;
	uint32_t gen = cta->gen, epoch = cta->epoch;
	FOR_LANES(same, l) {
		struct sim_shadow e;
		memcpy(&e, &sh[off[l] / 4], sizeof e);
		sim_shadow_reset(&e, gen, epoch);
		e.reader = me;
		e.rbytes |= 0xf;
		set4(sh, site, off[l] / 4, &e, 1, ins);
	}
	FOR_LANES(lanes & ~same, l)
		for (uint64_t word = off[l] / 4, end = word + nw; word < end; word++) {
			struct sim_shadow *s = &sh[word];
			sim_shadow_reset(s, gen, epoch);
			site[2 * word + 1] = ins;
			s->reader = me;
			s->rbytes |= 0xf;
		}
}

/* What makes sim_shadow_read/write take a lane on its own, for any lane: no lanes, partial words, reserved
 * shared memory, a strong access, or (racecheck) bytes a cp.async may still be writing. */
static bool rows_plain(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t lanes,
		       const uint64_t off[32], unsigned n)
{
	const struct sim_launch *L = cta->L;
	if (!lanes || n % 4 || L->reserved_used || (ins->mods & (PM_VOLATILE | PM_STRONG)))
		return false;
	uint64_t bad = 0;
	if (lanes == 0xffffffffu) /* a loop the compiler vectorises */
		for (int l = 0; l < 32; l++)
			bad |= off[l] & 3;
	else
		FOR_LANES(lanes, l) bad |= off[l] & 3;
	return !bad && !(cta->async.gen == cta->gen && (L->tools & GL_TOOL_RACECHECK) &&
			 sim_async_warp_in_flight(cta, w, lanes, off, n));
}

bool sim_shadow_read_rows(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t lanes,
			  const uint64_t off[32], unsigned n)
{
	const struct sim_launch *L = cta->L;
	if (!rows_plain(cta, w, ins, lanes, off, n))
		return false;
	if (quiet_interval(cta)) /* whole words: quiet reads when every one is initialised */
		return quiet_rows(cta, w, ins, lanes, off, n / 4);
	uint16_t me = (uint16_t)(w->id + 1);
	bool initcheck = L->tools & GL_TOOL_INITCHECK;
	const struct sim_shadow *sh = cta->shadow;
	uint32_t gen = cta->gen, epoch = cta->epoch;
	unsigned nw = n / 4;
	uint32_t same = same_lanes(sh, lanes, off, nw);
	FOR_LANES(lanes, l) /* equal entries: one answer */
		for (unsigned k = 0, distinct = same >> l & 1 ? 1 : nw; k < distinct; k++)
			if (entry_finds(&sh[off[l] / 4 + k], gen, epoch, me, initcheck))
				return false;
	rows_read(cta, ins, lanes, off, nw, me, same);
	return true;
}

/* Another warp's access in this interval that a write by warp `me` to the words `bits` from `word` would race
 * with (sim_shadow_write's tests): in the entry s (the words' entries being the same when there are several),
 * or a quiet read (`reads`: the bitmaps, NULL when they are not the current interval's). */
static inline bool write_finds(const struct sim_cta *cta, const struct sim_shadow *s, uint64_t word, uint64_t bits,
			       uint16_t me, const uint64_t *reads)
{
	return sim_shadow_busy(s, cta->gen, cta->epoch, me) || (reads && others_read(cta, reads, word, bits, me));
}

/* sim_shadow_write's update of the nw words from off[l] / 4 of each lane, where it found nothing: the
 * reset, the writer, and add_init's initialised bytes with their mirror in quiet.full (full_bits: cleared
 * for a new CTA generation first). */
static void rows_written(struct sim_cta *cta, const struct ptx_insn *ins, uint32_t lanes, const uint64_t off[32],
			 unsigned nw, uint16_t me, uint32_t same)
{
	uint64_t *restrict full = full_bits(cta);
	struct sim_shadow *restrict sh = cta->shadow;
	const struct ptx_insn **restrict site = cta->shadow_site;
	uint32_t gen = cta->gen, epoch = cta->epoch;
	FOR_LANES(same, l) { /* the lanes whose 4 entries are the same: updated once, copied */
		struct sim_shadow e;
		memcpy(&e, &sh[off[l] / 4], sizeof e);
		sim_shadow_reset(&e, gen, epoch);
		e.writer = me;
		e.wbytes |= 0xf;
		e.init |= 0xf;
		set4(sh, site, off[l] / 4, &e, 0, ins);
		window_set(full, off[l] / 4, 0xf);
	}
	FOR_LANES(lanes & ~same, l)
		for (uint64_t word = off[l] / 4, end = word + nw; word < end; word++) {
			struct sim_shadow *s = &sh[word];
			sim_shadow_reset(s, gen, epoch);
			site[2 * word] = ins;
			s->writer = me;
			s->wbytes |= 0xf;
			s->init |= 0xf;
			full[word / 64] |= 1ull << (word % 64);
		}
}

bool sim_shadow_write_rows(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t lanes,
			   const uint64_t off[32], unsigned n)
{
	if (!rows_plain(cta, w, ins, lanes, off, n))
		return false;
	uint16_t me = (uint16_t)(w->id + 1);
	const uint64_t *reads = reads_current(cta) ? cta->quiet.reads : NULL;
	const struct sim_shadow *sh = cta->shadow;
	unsigned nw = n / 4;
	uint32_t same = same_lanes(sh, lanes, off, nw);
	FOR_LANES(same, l)
		if (write_finds(cta, &sh[off[l] / 4], off[l] / 4, 0xf, me, reads)) /* 4 equal entries */
			return false;
	FOR_LANES(lanes & ~same, l)
		for (uint64_t word = off[l] / 4, end = word + nw; word < end; word++)
			if (write_finds(cta, &sh[word], word, 1, me, reads))
				return false;
	note_write(cta);
	rows_written(cta, ins, lanes, off, nw, me, same);
	return true;
}
