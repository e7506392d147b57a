/* sim_l1.c — gpulab's model of the L1 data cache for global loads (docs/sim.md, "The L1 model"): per
 * CTA a 4-way set-associative cache of 32-byte sectors, GL_SIM_L1_BYTES in all, the set chosen by a hash
 * of the sector number (a stand-in for the hardware's undocumented placement), round-robin replacement,
 * emptied when the CTA starts (a generation stamp, so starting costs nothing).  A load sector found there
 * is a hit; `.cg` loads and `cp.async.cg` bypass it, `.volatile` ones too.  The misses are the load
 * traffic the L2 sees, and they feed the estimate's L2 bound and the roofline's L2 intensity.
 *
 * A hit changes nothing here (the replacement is round robin, not LRU), and only a miss (a fill) can
 * evict a sector.  So after a hot load of one shape (its lanes' offsets from lane 0) has found all its
 * sectors present, the L1 keeps a memo for that shape: where lane 0's sector was, how the others lay
 * relative to it, the sets they are in, and the number of fills so far.  The L1 logs the set of each
 * fill; when a load of the same shape looks up the same sectors again, and none of the fills since went
 * into one of those sets, every lookup would hit, and they are skipped: the loop of a naive GEMM reads
 * each sector of a column of rows again at the next seven words, through the same shape at several
 * unrolled sites.  The misses counted, and the tags left, are those of looking every sector up
 * (test_sim_l1_words).
 *
 * A memo belongs to one shape, found by a hash of its offsets, and several sites of one shape share it.
 * Comparing the 32 offsets at every load cost more than the lookups it saved, so each memo has a class
 * number, new whenever the memo changes shape, and the caller keeps the class its shape last matched
 * (struct sim_l1_key): while they agree the offsets are the memo's, and they are compared only when
 * they do not. */
#include "sim_internal.h"

#include <stdlib.h>
#include <string.h>

#define WAYS 4
#define SETS (GL_SIM_L1_BYTES / GL_SECTOR_BYTES / WAYS)
#define FILL_LOG 64 /* fills remembered; a memo older than that is not used */
#define MEMOS 16    /* shapes with a memo, by a hash of the shape */
#define MEMO_MIN 4  /* lookups a load makes for its shape to keep a memo: fewer cost less than one */

/* One set: its tags, generation and next way side by side, so a lookup touches one or two host cache
 * lines, not three arrays. */
struct l1_set {
	uint64_t tag[WAYS]; /* sector number + 1; 0: empty */
	uint32_t gen;       /* the CTA generation the tags belong to */
	uint32_t next;      /* the way to replace next */
};

/* The proof that the sectors of a load of shape `rel` with lane 0 in `sector` - 1, lying as `pattern`
 * says, are all present (see the file comment).  sector 0: none. */
struct l1_memo {
	int64_t rel[32];
	uint64_t cls;                 /* rel's class number (see the file comment); 0: none yet */
	uint64_t sector;
	uint32_t gen, fills, pattern; /* the CTA generation, fills and pattern when taken */
	uint64_t sets[SETS / 64];     /* the sets those sectors are in */
};

struct sim_l1 {
	struct l1_set set[SETS];
	uint32_t fills;           /* misses so far (wraps) */
	uint16_t log[FILL_LOG];   /* the set of fill i at log[i % FILL_LOG] */
	uint64_t skipped;         /* loads whose lookups a memo skipped */
	uint64_t classes;         /* class numbers given out (never wraps) */
	struct l1_memo memo[MEMOS];
};

void sim_l1_free(struct sim_cta *cta)
{
	free(cta->l1);
	cta->l1 = NULL;
}

static unsigned set_of(uint64_t sector)
{
	return (unsigned)((sector * 0x9E3779B97F4A7C15ull) >> 40) % SETS;
}

/* One sector in set `si`: true when it hits; a miss fills it and logs the fill.  Without branches on the
 * ways: whether a lookup hits, and in which way, follows no pattern the host's branch predictor could
 * learn (a strided load looks up 32 sets at once), and a hit changes nothing, so the store below puts
 * back what was there. */
static inline bool lookup_in(struct sim_l1 *c, uint32_t gen, unsigned si, uint64_t sector)
{
	struct l1_set *s = &c->set[si];
	if (s->gen != gen) /* the first lookup of this set in this CTA: empty it */
		*s = (struct l1_set){.gen = gen};
	uint64_t key = sector + 1;
	bool hit = (s->tag[0] == key) | (s->tag[1] == key) | (s->tag[2] == key) | (s->tag[3] == key);
	unsigned w = s->next;
	s->tag[w] = hit ? s->tag[w] : key;
	s->next = (w + !hit) % WAYS;
	if (!hit)
		c->log[c->fills++ % FILL_LOG] = (uint16_t)si;
	return hit;
}

static inline bool lookup(struct sim_l1 *c, uint32_t gen, uint64_t sector)
{
	return lookup_in(c, gen, set_of(sector), sector);
}

/* The CTA's L1, allocated at its first global load; NULL without memory (every sector then misses). */
static struct sim_l1 *l1_of(struct sim_cta *cta)
{
	if (!cta->l1)
		cta->l1 = calloc(1, sizeof *cta->l1);
	return cta->l1;
}

static bool same_rel(const int64_t *a, const int64_t *b)
{
	int64_t d = 0;
	for (int l = 0; l < 32; l++)
		d |= a[l] ^ b[l];
	return d == 0;
}

/* The memo of shape `rel`: the one its hash picks, taken over (and emptied) for rel unless it is rel's
 * already.  The caller's key remembers the memo's class, so the offsets are compared once per change of
 * the memo's shape, not at every load. */
static struct l1_memo *memo_of(struct sim_l1 *c, const int64_t rel[32], struct sim_l1_key *key)
{
	struct l1_memo *m = &c->memo[key->rel_hash % MEMOS];
	if (key->cls && key->cls == m->cls)
		return m;
	if (!m->cls || !same_rel(m->rel, rel)) {
		memcpy(m->rel, rel, sizeof m->rel);
		m->cls = ++c->classes;
		m->sector = 0;
	}
	key->cls = m->cls;
	return m;
}

/* Does the memo prove that the sectors of this load are all still there (see the file comment)? */
static bool memo_holds(const struct sim_l1 *c, const struct l1_memo *m, uint32_t gen, uint64_t sector,
		       unsigned pattern)
{
	if (m->sector != sector + 1 || m->pattern != pattern || m->gen != gen || c->fills - m->fills > FILL_LOG)
		return false;
	for (uint32_t i = m->fills; i != c->fills; i++) {
		unsigned si = c->log[i % FILL_LOG];
		if (m->sets[si / 64] >> (si % 64) & 1)
			return false;
	}
	return true;
}

/* Has `bits` at least MEMO_MIN (4) bits set?  Clearing the lowest three leaves some: cheaper than a
 * population count where the build may not assume the instruction. */
static bool memo_worth(uint32_t bits)
{
	bits &= bits - 1;
	bits &= bits - 1;
	bits &= bits - 1;
	return bits != 0;
}
_Static_assert(MEMO_MIN == 4, "memo_worth clears MEMO_MIN - 1 bits");

void sim_l1_load_words(struct sim_cta *cta, uint64_t a0, const int64_t rel[32], uint32_t lanes, unsigned sectors,
		       bool bypass, struct sim_l1_key *key, unsigned pattern)
{
	struct sim_l1 *c = bypass ? NULL : l1_of(cta);
	if (!c) {
		cta->c.l1_miss += sectors;
		return;
	}
	uint64_t sector0 = a0 / GL_SECTOR_BYTES;
	if (lanes == 1) { /* every lane in lane 0's sector (a broadcast): one lookup */
		cta->c.l1_miss += !lookup(c, cta->gen, sector0);
		return;
	}
	struct l1_memo *memo = memo_worth(lanes) ? memo_of(c, rel, key) : NULL;
	if (memo && memo_holds(c, memo, cta->gen, sector0, pattern)) {
		c->skipped++;
		return;
	}
	/* Look every sector up.  They all are there afterwards unless a fill went into a set an earlier
	 * lane's sector is in (it may have evicted it): then there is no memo. */
	uint64_t sets[SETS / 64] = {0};
	bool evicting = false;
	unsigned miss = 0;
	for (uint32_t m = lanes; m; m &= m - 1) {
		int l = __builtin_ctz(m);
		uint64_t sector = (a0 + (uint64_t)rel[l]) / GL_SECTOR_BYTES;
		unsigned si = set_of(sector);
		uint64_t bit = 1ull << (si % 64);
		bool hit = lookup_in(c, cta->gen, si, sector);
		evicting |= !hit && (sets[si / 64] & bit);
		sets[si / 64] |= bit;
		miss += !hit;
	}
	cta->c.l1_miss += miss;
	if (!memo)
		return;
	memo->sector = evicting ? 0 : sector0 + 1;
	memo->gen = cta->gen;
	memo->fills = c->fills;
	memo->pattern = pattern;
	memcpy(memo->sets, sets, sizeof sets);
}

uint64_t sim_l1_rel_hash(const int64_t rel[32])
{
	uint64_t h = 0;
	for (int l = 0; l < 32; l++)
		h = (h ^ (uint64_t)rel[l]) * 0x9E3779B97F4A7C15ull;
	return h >> 32;
}

uint64_t sim_l1_skipped(const struct sim_cta *cta)
{
	return cta->l1 ? cta->l1->skipped : 0;
}

unsigned sim_l1_pattern(const int64_t rel[32], unsigned word)
{
	/* lane l's sector relative to lane 0's, lane 0 at byte 4 w of its sector: floor((4 w + rel[l]) / 32),
	 * biased so that the division is of non-negative numbers (rel is within +-2^32) */
	const uint64_t bias = 1ull << 40;
	for (unsigned w = 0; w < word; w++) {
		bool same = true;
		for (int l = 0; l < 32 && same; l++)
			same = (bias + 4 * w + (uint64_t)rel[l]) / GL_SECTOR_BYTES ==
			       (bias + 4 * word + (uint64_t)rel[l]) / GL_SECTOR_BYTES;
		if (same)
			return w;
	}
	return word;
}

void sim_l1_load(struct sim_cta *cta, const uint64_t addr[32], uint32_t mask, unsigned size, bool bypass)
{
	if (!mask || !size)
		return;
	if (bypass) {
		cta->c.l1_miss += gl_mm_global_sectors(addr, mask, size);
		return;
	}
	if (!l1_of(cta)) { /* no memory: every sector misses */
		cta->c.l1_miss += gl_mm_global_sectors(addr, mask, size);
		return;
	}
	if (gl_mm_unit_stride(addr, mask, size)) { /* one span: its sectors in order */
		uint64_t a = addr[0] / GL_SECTOR_BYTES, b = (addr[0] + (uint64_t)GL_WARP * size - 1) / GL_SECTOR_BYTES;
		for (uint64_t s = a; s <= b; s++)
			cta->c.l1_miss += !lookup(cta->l1, cta->gen, s);
		return;
	}
	uint64_t prev = UINT64_MAX; /* neighbouring lanes mostly share a sector: look it up once */
	for (uint32_t m = mask; m; m &= m - 1) {
		int l = __builtin_ctz(m);
		uint64_t a = addr[l] / GL_SECTOR_BYTES, b = (addr[l] + size - 1) / GL_SECTOR_BYTES;
		for (uint64_t s = a; s <= b; s++)
			if (s != prev) {
				cta->c.l1_miss += !lookup(cta->l1, cta->gen, s);
				prev = s;
			}
	}
}
